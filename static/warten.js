// The rounds that wait for the network (issue 26.2), kept on the phone in IndexedDB: used by the
// service worker (sw.js, which keeps a form that found no network) and by the pages (app.js,
// which keeps a round typed while the phone says it is offline, shows and sends them). One record
// per form: { id, url, fields: [[name, value], …], page, what, at, state: "wartet" | "abgelehnt",
// reason, owner, words }.
// - owner (issue 32.7): whose round it is, so it is sent only under that one: "link:/tisch/{token}/
//   {date}/{table}" for a scorer link's form (the link is in its address), "konto:{name}" for a
//   form of the Verwaltung (its field `konto`, which app.js adds when the form is sent), "" when
//   unknown (a record of an older version).
// - words: the round in words ("Anna 2 Outs, …; verloren: Bernd") when the page kept it.
"use strict";
(function (scope) {
  var NAME = "schockerliga";
  var STORE = "warten";

  function open() {
    return new Promise(function (resolve, reject) {
      var req = scope.indexedDB.open(NAME, 1);
      req.onupgradeneeded = function () {
        req.result.createObjectStore(STORE, { keyPath: "id", autoIncrement: true });
      };
      req.onsuccess = function () {
        resolve(req.result);
      };
      req.onerror = function () {
        reject(req.error);
      };
    });
  }

  // Runs fn(store) in one transaction; resolves with the value of the request fn returns.
  function run(mode, fn) {
    return open().then(function (db) {
      return new Promise(function (resolve, reject) {
        var tx = db.transaction(STORE, mode);
        var req = fn(tx.objectStore(STORE));
        var value;
        if (req) {
          req.onsuccess = function () {
            value = req.result;
          };
        }
        tx.oncomplete = function () {
          db.close();
          resolve(value);
        };
        tx.onerror = tx.onabort = function () {
          db.close();
          reject(tx.error);
        };
      });
    });
  }

  // The first value of field `name` in fields ([[name, value], …]), or null.
  function field(fields, name) {
    for (var i = 0; i < fields.length; i++) {
      if (fields[i][0] === name) {
        return fields[i][1];
      }
    }
    return null;
  }

  // "Runde 3 an Tisch 1" from a round form's fields, else what the page was.
  function describe(url, fields) {
    var get = function (name) {
      return field(fields, name);
    };
    var path = new URL(url, scope.location.href).pathname;
    var table = get("table") || (path.match(/\/(?:tisch\/[^/]+\/\d{4}-\d{2}-\d{2}|bogen|besteck\/\d{4}-\d{2}-\d{2})\/(\d+)/) || [])[1];
    var number = get("number") || (path.match(/\/besteck\/(\d+)\//) || [])[1];
    if (/\/bogen\/\d+$/.test(path)) {
      return "Spielberichtsbogen Tisch " + table;
    }
    if (/\/wurfrunde$/.test(path)) {
      return "Wurfrunde im Schockbesteck" + (table ? " an Tisch " + table : "");
    }
    var what = number ? "Runde " + number : "Runde";
    what = table ? what + " an Tisch " + table : what;
    return get("replace") ? what + " (ersetzen)" : what;
  }

  // Whose form it is (see the top): the scorer link of its address, else the account it names.
  function ownerOf(url, fields) {
    var path = new URL(url, scope.location.href).pathname;
    var link = path.match(/^\/tisch\/[^/]+\/\d{4}-\d{2}-\d{2}\/\d+/);
    if (link) {
      return "link:" + link[0];
    }
    var konto = field(fields, "konto");
    return konto ? "konto:" + konto : "";
  }

  scope.Warten = {
    field: field,
    ownerOf: ownerOf,
    // Keeps a form sent to url with fields from page (words: the round in words, or "");
    // resolves with its id.
    put: function (url, fields, page, words) {
      return run("readwrite", function (s) {
        return s.add({
          url: url,
          fields: fields,
          page: page,
          what: describe(url, fields),
          at: new Date().toISOString(),
          state: "wartet",
          reason: null,
          owner: ownerOf(url, fields),
          words: words || "",
        });
      });
    },
    all: function () {
      return run("readonly", function (s) {
        return s.getAll();
      });
    },
    update: function (record) {
      return run("readwrite", function (s) {
        return s.put(record);
      });
    },
    remove: function (id) {
      return run("readwrite", function (s) {
        return s.delete(id);
      });
    },
  };
})(self);
