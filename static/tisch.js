// A scorer link's page follows its night (issue 31.4; templates/entry/scorer_table.html, also the
// page after a refusal at …/runde). Its #runden names the live board's stream of the night
// (data-ereignisse) and the page to read anew (data-seite). Through the stream a round stored
// from another phone or the Verwaltung shows in "Eingetragen" at once, the form's versions and
// taken numbers follow, and a late arrival seated at this table gets his row in the form; what is
// typed stays as typed. Connected, #runden gets data-live="1". After each follow the event
// "tisch:stand" lets senden.js propose the round number anew. Without this script the page works
// as before (it shows the night as it was when loaded).
"use strict";
(function () {
  var runden = document.getElementById("runden");
  if (!runden || !window.EventSource || !window.fetch) {
    return;
  }
  var seite = runden.getAttribute("data-seite");
  var ereignisse = runden.getAttribute("data-ereignisse");
  if (!seite || !ereignisse) {
    return;
  }
  // The page is being left (a form sent, a link followed): it stops following its night.
  var leaving = false;

  function el(tag, attrs, text) {
    var e = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) {
      e.setAttribute(k, attrs[k]);
    });
    if (text) {
      e.textContent = text;
    }
    return e;
  }

  function follow() {
    if (leaving) {
      return;
    }
    fetch(seite, { cache: "no-store", credentials: "same-origin" })
      .then(function (resp) {
        return resp.ok ? resp.text() : null;
      })
      .then(function (html) {
        if (!html) {
          return;
        }
        var doc = new DOMParser().parseFromString(html, "text/html");
        followEntered(doc);
        followForm(doc);
      })
      .catch(function () {});
  }

  // The part of #runden above the form: what is entered.
  function followEntered(doc) {
    var fresh = doc.getElementById("runden");
    var current = document.getElementById("runden");
    if (!fresh || !current) {
      return;
    }
    var isForm = function (node) {
      return node.nodeName === "FORM" || node.nodeName === "DETAILS";
    };
    var firstForm = Array.prototype.find.call(current.childNodes, isForm) || null;
    while (current.firstChild && current.firstChild !== firstForm) {
      current.removeChild(current.firstChild);
    }
    Array.prototype.slice.call(fresh.childNodes).some(function (node) {
      if (isForm(node)) {
        return true;
      }
      current.insertBefore(document.importNode(node, true), firstForm);
      return false;
    });
  }

  // The round form against the page as it is now: the versions of the rounds shown, the taken
  // numbers (and the proposal, when untouched), the rows of players seated since.
  function followForm(doc) {
    var current = document.querySelector("#runden form[method=post]");
    var fresh = doc.querySelector("#runden form[method=post]");
    if (!current || !fresh) {
      return;
    }
    fresh.querySelectorAll("input[type=hidden][name^=stand_]").forEach(function (v) {
      var mine = current.querySelector('input[name="' + v.name + '"]');
      if (!mine) {
        mine = el("input", { type: "hidden", name: v.name });
        current.insertBefore(mine, current.firstChild);
      }
      mine.value = v.value;
    });
    var number = current.querySelector("input[name=number]");
    var freshNumber = fresh.querySelector("input[name=number]");
    if (number && freshNumber) {
      number.setAttribute("data-belegt", freshNumber.getAttribute("data-belegt") || "");
      if (number.hasAttribute("data-vorschlag") && !number.getAttribute("data-getippt")) {
        number.value = freshNumber.value;
      }
    }
    var seats = current.querySelector("input[name=sitze]");
    var freshSeats = fresh.querySelector("input[name=sitze]");
    var body = current.querySelector("table.entry tbody");
    if (seats && freshSeats && body && seats.value !== freshSeats.value) {
      var names = [];
      fresh.querySelectorAll("table.entry tbody tr").forEach(function (tr) {
        var outs = tr.querySelector("input[name^=outs_]");
        if (!outs || current.querySelector('[name="' + outs.name + '"]')) {
          return;
        }
        body.appendChild(document.importNode(tr, true));
        names.push((outs.getAttribute("aria-label") || "").replace(/^Outs /, ""));
      });
      seats.value = freshSeats.value;
      if (names.length) {
        var old = document.getElementById("neu-am-tisch");
        if (old) {
          old.remove();
        }
        var note = el("p", { class: "notice", id: "neu-am-tisch", role: "status" },
          names.join(" und ") + (names.length === 1 ? " sitzt" : " sitzen") +
          " jetzt an diesem Tisch (Nachzügler): " + (names.length === 1 ? "seine Zeile ist" : "ihre Zeilen sind") +
          " im Formular.");
        var table = current.querySelector("table.entry");
        current.insertBefore(note, table);
      }
    }
    document.dispatchEvent(new CustomEvent("tisch:stand"));
  }

  var stream = new EventSource(ereignisse);
  var connected = false;
  // Connected ("hallo"): the page follows its night (data-live on #runden says so); connected
  // again after a break: read what happened meanwhile.
  stream.addEventListener("hallo", function () {
    var runden = document.getElementById("runden");
    if (runden) {
      runden.setAttribute("data-live", "1");
    }
    if (connected) {
      follow();
    }
    connected = true;
  });
  stream.addEventListener("stand", follow);
  // Leaving the page (a form sent, a link followed): its own round's event must not read the
  // page, which would take the next page's flash message ("… gespeichert") from the session.
  window.addEventListener("beforeunload", function () {
    leaving = true;
    stream.close();
  });
  window.addEventListener("pageshow", function (event) {
    if (event.persisted) {
      location.reload();
    }
  });
})();
