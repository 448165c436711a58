// The service worker (issue 26.2, 26.3), served at /sw.js with scope /.
//
// Pages: every page this phone opened is kept (network first, the kept copy when the network is
// gone or does not answer within WAIT ms), shown offline with "Stand … (ohne Netz)" on top.
// Never kept: an answer marked `Cache-Control: no-store` (a scorer link's pages, which carry its
// token; the pages that show a link once; private money) — issue 32.7; offline such a page
// answers with a short page that lists the rounds waiting on the phone. The Verwaltung and /ich
// are kept only on the phone that opened them, in a cache of their own that logging out empties,
// and so does a private page that answers with the login (the session ended elsewhere); a scorer
// link the server no longer knows (revoked, night closed) is dropped.
//
// Entry that waits: a form of the round entry (round form, scorer link, Spielberichtsbogen,
// Schockbesteck) that finds no network is kept in IndexedDB (warten.js, with whose it is: the
// account it names or its link) and the browser is sent back to its page, which lists it and
// sends it when the network is back, under that account only (senden.js).
//
// Files (issue 33.6): served with the server's table filled in (web::kit::assets): ASSETS maps
// each file's plain name to its content-hashed address, which pages link; PRECACHE lists the
// stylesheets and scripts fetched at install. A hashed file never changes, so it is answered from
// the phone first; a page kept from an older version that links an older hashed name (or a plain
// name) gets the current file of that name offline.
"use strict";
var ASSETS = {}, PRECACHE = []; // filled in by the server (web::kit::assets)
importScripts(ASSETS["warten.js"]);

// Version 2: caches of version 1 may hold `no-store` pages; activating drops them.
var VERSION = "2";
var PUBLIC = "seiten-" + VERSION;
var PRIVATE = "privat-" + VERSION;
var FILES = "dateien-" + VERSION;
var WAIT = 6000;

// The forms that wait (their actions).
var WAITING = [
  /^\/verwaltung\/abend\/\d{4}-\d{2}-\d{2}\/runde$/,
  /^\/verwaltung\/abend\/\d{4}-\d{2}-\d{2}\/bogen\/\d+$/,
  /^\/verwaltung\/besteck\/\d{4}-\d{2}-\d{2}\/\d+\/\d+\/(start|wurfrunde|bestaetigen)$/,
  /^\/tisch\/[^/]+\/\d{4}-\d{2}-\d{2}\/\d+\/runde$/,
  /^\/tisch\/[^/]+\/\d{4}-\d{2}-\d{2}\/\d+\/besteck\/\d+\/(start|wurfrunde|bestaetigen)$/,
];

// Pages never kept: one-time and account pages.
var NEVER = /^\/(login|setup|passwort|logout)/;

self.addEventListener("install", function (event) {
  event.waitUntil(
    caches
      .open(FILES)
      .then(function (c) {
        return c.addAll(PRECACHE);
      })
      .then(function () {
        return self.skipWaiting();
      })
  );
});

self.addEventListener("activate", function (event) {
  event.waitUntil(
    caches
      .keys()
      .then(function (names) {
        return Promise.all(
          names
            .filter(function (n) {
              return [PUBLIC, PRIVATE, FILES].indexOf(n) < 0;
            })
            .map(function (n) {
              return caches.delete(n);
            })
        );
      })
      .then(pruneFiles)
      .then(function () {
        return self.clients.claim();
      })
  );
});

// A file's address under /static/ with a content hash (`/static/style.3f9c2a1b.css`) → its plain
// name (`style.css`); null for any other address.
function hashedName(path) {
  var m = /^\/static\/(.+)\.[0-9a-f]{8}\.([^./]+)$/.exec(path);
  return m ? m[1] + "." + m[2] : null;
}

// Drops the kept files of older versions' hashed names (the current ones stay, and the plain
// names, which older kept pages link).
function pruneFiles() {
  var current = Object.keys(ASSETS).map(function (k) {
    return ASSETS[k];
  });
  return caches.open(FILES).then(function (c) {
    return c.keys().then(function (requests) {
      return Promise.all(
        requests
          .filter(function (r) {
            var path = new URL(r.url).pathname;
            return hashedName(path) !== null && current.indexOf(path) < 0;
          })
          .map(function (r) {
            return c.delete(r);
          })
      );
    });
  });
}

function isPrivate(path) {
  return path.indexOf("/verwaltung") === 0 || path.indexOf("/tisch/") === 0 || path === "/ich";
}

// Whether an answer may be kept on the phone: a page (HTML, 200, not redirected) of a path that
// is not one-time, not marked `no-store`.
function keepable(path, response) {
  var html = (response.headers.get("content-type") || "").indexOf("text/html") === 0;
  var noStore = /(^|[\s,])no-store([\s,;]|$)/i.test(response.headers.get("cache-control") || "");
  return response.status === 200 && html && !response.redirected && !NEVER.test(path) && !noStore;
}

// Whether a private page's answer is the login (the session ended: logged out in another tab,
// expired, another phone changed the password). A page of the Verwaltung redirects only there;
// a navigation's redirect reaches the worker unopened (`opaqueredirect`).
function endedSession(path, response) {
  if (!isPrivate(path) || path.indexOf("/tisch/") === 0) {
    return false;
  }
  if (response.type === "opaqueredirect") {
    return true;
  }
  return response.redirected && new URL(response.url).pathname === "/login";
}

// fetch, or a rejection when no answer came within WAIT ms.
function fetchWithin(request) {
  return new Promise(function (resolve, reject) {
    var timer = setTimeout(function () {
      reject(new Error("keine Antwort"));
    }, WAIT);
    fetch(request).then(
      function (r) {
        clearTimeout(timer);
        resolve(r);
      },
      function (e) {
        clearTimeout(timer);
        reject(e);
      }
    );
  });
}

// Keeps a copy of a page answer with the time it was fetched.
function keep(cacheName, request, response) {
  return response
    .clone()
    .text()
    .then(function (body) {
      var headers = new Headers(response.headers);
      headers.set("x-gespeichert", new Date().toISOString());
      headers.delete("content-length");
      headers.delete("content-encoding");
      return caches.open(cacheName).then(function (c) {
        return c.put(request.url, new Response(body, { status: 200, headers: headers }));
      });
    });
}

function stamp(iso) {
  var d = new Date(iso);
  var two = function (n) {
    return (n < 10 ? "0" : "") + n;
  };
  return (
    two(d.getDate()) + "." + two(d.getMonth() + 1) + "." + d.getFullYear() + ", " +
    two(d.getHours()) + ":" + two(d.getMinutes()) + " Uhr"
  );
}

// The kept copy of a page, with "Stand … (ohne Netz)" on top.
function kept(request) {
  return caches.match(request.url, { ignoreVary: true }).then(function (hit) {
    if (!hit) {
      return null;
    }
    return hit.text().then(function (body) {
      var note =
        '<p class="ohne-netz" id="ohne-netz" role="status">Stand ' +
        stamp(hit.headers.get("x-gespeichert")) +
        " (ohne Netz): diese Seite kommt aus dem Speicher des Telefons.</p>";
      body = body.replace("<main>", "<main>" + note);
      var headers = new Headers(hit.headers);
      return new Response(body, { status: 200, headers: headers });
    });
  });
}

// The page shown offline for a page not kept; with the scripts, so the rounds waiting on the
// phone are listed there and sent when the network is back.
function offlinePage(url) {
  var why = url.pathname === "/schiedsrichter" && url.search
    ? "Das Urteil des Schiedsrichters braucht das Netz: ohne Netz kann er diese Wurfrunde nicht entscheiden. Bitte noch einmal senden, wenn wieder Netz da ist."
    : url.pathname.indexOf("/tisch/") === 0
      ? "Diese Seite kann nicht gezeigt werden (ohne Netz): sie enthält den Link zum Schreiben und wird darum nicht auf dem Telefon gespeichert. Runden, die auf Netz warten, stehen oben und werden gesendet, sobald wieder Netz da ist; dann erscheint die Seite wieder."
      : "Diese Seite war auf diesem Telefon noch nicht offen und kann ohne Netz nicht gezeigt werden.";
  var body =
    '<!doctype html><html lang="de"><head><meta charset="utf-8">' +
    '<meta name="viewport" content="width=device-width, initial-scale=1">' +
    '<title>Ohne Netz · Schockerliga</title><link rel="stylesheet" href="' + ASSETS["style.css"] + '">' +
    '<script src="' + ASSETS["warten.js"] + '" defer></script>' +
    '<script src="' + ASSETS["senden.js"] + '" defer></script>' +
    '<script src="' + ASSETS["offline.js"] + '" defer></script></head>' +
    '<body><main><h1>Ohne Netz</h1><p class="ohne-netz" id="ohne-netz" role="status">' + why +
    '</p><p><a href="/">Zur Tabelle</a></p></main></body></html>';
  return new Response(body, {
    status: 503,
    headers: { "content-type": "text/html; charset=utf-8" },
  });
}

function page(event) {
  var request = event.request;
  var path = new URL(request.url).pathname;
  return fetchWithin(request).then(
    function (response) {
      if (keepable(path, response)) {
        event.waitUntil(keep(isPrivate(path) ? PRIVATE : PUBLIC, request, response));
      } else if (endedSession(path, response)) {
        // Logged out elsewhere: nothing of the account stays on the phone.
        event.waitUntil(forget(null));
      } else if (path.indexOf("/tisch/") === 0 && (response.status === 403 || response.status === 404)) {
        // The link no longer works: forget what was kept of it.
        var token = path.split("/")[2];
        event.waitUntil(forget(function (p) {
          return p.indexOf("/tisch/" + token + "/") === 0;
        }));
      }
      return response;
    },
    function () {
      return kept(request).then(function (copy) {
        return copy || offlinePage(new URL(request.url));
      });
    }
  );
}

// Removes the kept pages whose path passes test (all private ones when test is null).
function forget(test) {
  return caches.open(PRIVATE).then(function (c) {
    return c.keys().then(function (requests) {
      return Promise.all(
        requests
          .filter(function (r) {
            return !test || test(new URL(r.url).pathname);
          })
          .map(function (r) {
            return c.delete(r);
          })
      );
    });
  });
}

function forgetAll() {
  return Promise.all([caches.delete(PRIVATE), caches.delete(PUBLIC)]);
}

// A form of the entry: sent on; without network it waits on the phone and the browser goes back
// to the form's page.
function send(event) {
  var request = event.request;
  var copy = request.clone();
  return fetchWithin(request).catch(function () {
    return copy.text().then(function (body) {
      var fields = [];
      new URLSearchParams(body).forEach(function (value, name) {
        fields.push([name, value]);
      });
      var back = request.referrer || new URL(request.url).origin + "/";
      return self.Warten.put(request.url, fields, back).then(function () {
        var to = new URL(back);
        to.hash = "warten";
        return Response.redirect(to.href, 303);
      });
    });
  });
}

self.addEventListener("fetch", function (event) {
  var request = event.request;
  var url = new URL(request.url);
  if (url.origin !== self.location.origin) {
    return;
  }
  if (request.method === "POST" && request.mode === "navigate") {
    if (url.pathname === "/logout") {
      event.waitUntil(forgetAll());
      return;
    }
    if (WAITING.some(function (re) { return re.test(url.pathname); })) {
      event.respondWith(send(event));
    }
    return;
  }
  if (request.method !== "GET") {
    return;
  }
  if (request.mode === "navigate") {
    event.respondWith(page(event));
    return;
  }
  if (url.pathname.indexOf("/static/") === 0 || url.pathname === "/money.css") {
    event.respondWith(file(event, url));
  }
});

// A file: a hashed one from the phone's copy first (it never changes), else from the network
// (kept for offline); a plain name from the network first (it changes with a new version).
// Without network: the kept copy, else the current file of the same name (a page kept from an
// older version links older names).
function file(event, url) {
  var request = event.request;
  var name = hashedName(url.pathname);
  var fresh = ASSETS[name] === url.pathname;
  var fromNetwork = function () {
    return fetchWithin(request).then(function (response) {
      if (response.status === 200) {
        var c = response.clone();
        event.waitUntil(caches.open(FILES).then(function (cache) {
          return cache.put(request, c);
        }));
      }
      return response;
    });
  };
  var offline = function () {
    return caches.match(request).then(function (hit) {
      var plain = url.pathname === "/money.css" ? "money.css" : url.pathname.slice("/static/".length);
      var current = ASSETS[name || plain];
      if (hit || !current) {
        return hit || Response.error();
      }
      return caches.match(current).then(function (now) {
        return now || Response.error();
      });
    });
  };
  if (fresh) {
    return caches.match(request).then(function (hit) {
      return hit || fromNetwork().catch(offline);
    });
  }
  return fromNetwork().catch(offline);
}

self.addEventListener("message", function (event) {
  if (event.data === "abmelden") {
    event.waitUntil(forgetAll());
  } else if (event.data && typeof event.data.behalten === "string") {
    // A page opened before this worker controlled it: keep it now.
    var url = new URL(event.data.behalten);
    if (url.origin !== self.location.origin || NEVER.test(url.pathname)) {
      return;
    }
    var request = new Request(url.href, { credentials: "same-origin" });
    event.waitUntil(
      caches.match(url.href, { ignoreVary: true }).then(function (hit) {
        if (hit) {
          return null;
        }
        return fetch(request).then(function (response) {
          if (keepable(url.pathname, response)) {
            return keep(isPrivate(url.pathname) ? PRIVATE : PUBLIC, request, response);
          }
          if (endedSession(url.pathname, response)) {
            return forget(null);
          }
          return null;
        });
      }).catch(function () {})
    );
  }
});
