// The live board told by the server (issue 26.4): listens to /live/{date}/ereignisse (Server-Sent
// Events) and reads the board again after each event. Without this file (no JavaScript) the page
// reloads itself every 5 seconds (<noscript> meta refresh). When the stream is refused (too many
// listeners) or the browser has no EventSource, the board is read every 5 seconds instead. A
// `moment` event (a Schock Out, Hand-Out or Jule just entered) is shown for a few seconds.
"use strict";
(function () {
  var board = document.getElementById("live");
  if (!board || !window.fetch) {
    return;
  }
  var source = null;
  var polling = null;
  var busy = false;
  var again = false;

  function say(text) {
    var status = document.getElementById("live-status");
    if (status) {
      status.textContent = text;
    }
  }

  // The open <details> of the board, by their table, so a new read keeps them as they were.
  function openDetails(root) {
    var open = {};
    root.querySelectorAll("section[id] details").forEach(function (d) {
      open[d.closest("section").id] = d.open;
    });
    return open;
  }

  function refresh() {
    if (busy) {
      again = true;
      return;
    }
    busy = true;
    fetch(window.location.href, { cache: "no-store", credentials: "same-origin" })
      .then(function (resp) {
        if (!resp.ok) {
          throw new Error(String(resp.status));
        }
        return resp.text();
      })
      .then(function (html) {
        var doc = new DOMParser().parseFromString(html, "text/html");
        var fresh = doc.getElementById("live");
        var current = document.getElementById("live");
        if (!fresh || !current) {
          return;
        }
        var before = current.dataset.ereignisse;
        var open = openDetails(current);
        var status = document.getElementById("live-status");
        var said = status ? status.textContent : "";
        current.replaceWith(fresh);
        fresh.querySelectorAll("section[id] details").forEach(function (d) {
          var id = d.closest("section").id;
          if (Object.prototype.hasOwnProperty.call(open, id)) {
            d.open = open[id];
          }
        });
        say(said);
        board = fresh;
        // /live follows tonight's night: a new night, a new stream.
        if (source && fresh.dataset.ereignisse !== before) {
          listen();
        }
        document.dispatchEvent(new CustomEvent("live:stand"));
      })
      .catch(function () {
        say("Keine Verbindung zum Server – der Stand kann veraltet sein.");
      })
      .then(function () {
        busy = false;
        if (again) {
          again = false;
          refresh();
        }
      });
  }

  // "Schock Out! Anna" for a few seconds in the status region above the board (issue 38.4); the
  // stylesheet animates it only without prefers-reduced-motion.
  var hide = null;
  function shout(text) {
    var box = document.getElementById("moment");
    if (!box || !text) {
      return;
    }
    box.textContent = text;
    box.classList.add("zeigen");
    if (hide !== null) {
      window.clearTimeout(hide);
    }
    hide = window.setTimeout(function () {
      box.classList.remove("zeigen");
      box.textContent = "";
      hide = null;
    }, 4000);
  }

  function poll() {
    if (polling === null) {
      say("Aktualisiert sich alle 5 Sekunden.");
      polling = window.setInterval(refresh, 5000);
    }
  }

  function listen() {
    if (source) {
      source.close();
    }
    if (!window.EventSource) {
      poll();
      return;
    }
    var first = true;
    source = new EventSource(board.dataset.ereignisse);
    source.addEventListener("hallo", function () {
      say("Live: neue Runden erscheinen sofort.");
      if (!first) {
        // Connected again: what happened meanwhile.
        refresh();
      }
      first = false;
    });
    source.addEventListener("stand", refresh);
    source.addEventListener("moment", function (e) {
      var m;
      try {
        m = JSON.parse(e.data);
      } catch (err) {
        return;
      }
      shout(m.text);
    });
    source.addEventListener("error", function () {
      if (source.readyState === EventSource.CLOSED) {
        // Refused (503: too many listeners): read every 5 seconds instead.
        source = null;
        poll();
      } else {
        say("Verbindung unterbrochen – neuer Versuch …");
      }
    });
  }

  listen();
})();
