// Pages offline (issue 26.2; every page, templates/kit/base.html). Without JavaScript every page
// works as before; with it:
// - the service worker (/sw.js) is registered: pages this phone has seen open without network
//   (never a `no-store` page, such as a scorer link's), and this page is kept if it came before
//   the worker did;
// - the logout form (data-abmelden) tells the worker to forget the kept pages;
// - a page from the phone's memory ("Stand … (ohne Netz)", #ohne-netz, put in by the worker) is
//   read again once the server answers (on load, on "online" and 1, 2, 4, 8 s after it, every
//   20 s), unless something was typed into it: then the banner goes and a link reloads it.
//   Rounds that wait on the phone are sent first (senden.js holds the lock "schockerliga-warten"
//   while it sends; the page is read again only after).
"use strict";
(function () {
  // Something was typed into a form of this page since it loaded (a form emptied by reset, as
  // senden.js does with a round kept on the phone, counts as untouched).
  var dirty = false;

  if ("serviceWorker" in navigator) {
    navigator.serviceWorker
      .register("/sw.js", { scope: "/" })
      .then(function () {
        return navigator.serviceWorker.ready;
      })
      .then(function (registration) {
        // This page was seen: the worker keeps it (if it came before the worker did).
        if (registration.active && !document.getElementById("ohne-netz")) {
          registration.active.postMessage({ behalten: location.href });
        }
      })
      .catch(function () {});
  }

  document.addEventListener("input", function (event) {
    if (event.target && event.target.form) {
      dirty = true;
    }
  });
  document.addEventListener("reset", function () {
    dirty = false;
  });

  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (form && form.hasAttribute && form.hasAttribute("data-abmelden") && navigator.serviceWorker &&
        navigator.serviceWorker.controller) {
      navigator.serviceWorker.controller.postMessage("abmelden");
    }
  });

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

  // fn() once no round is being sent from this phone (the lock of senden.js), else at once.
  function afterSending(fn) {
    return navigator.locks ? navigator.locks.request("schockerliga-warten", fn) : Promise.resolve(fn());
  }

  // A page from the phone's memory, once the server answers again: read anew, unless something
  // was typed into it (or it was read anew by itself a moment ago: a slow server): then the
  // banner goes and a link reloads it.
  function backOnline() {
    var banner = document.getElementById("ohne-netz");
    if (!banner || !window.fetch) {
      return Promise.resolve();
    }
    return fetch(location.href, { cache: "no-store", credentials: "same-origin" }).then(
      function () {
        return afterSending(function () {
          var banner = document.getElementById("ohne-netz");
          if (!banner) {
            return;
          }
          var last = 0;
          try {
            last = parseInt(sessionStorage.getItem("neu-gelesen") || "0", 10);
          } catch (e) {
            last = 0;
          }
          if (!dirty && Date.now() - last > 30000) {
            try {
              sessionStorage.setItem("neu-gelesen", String(Date.now()));
            } catch (e) {
              // Without sessionStorage it is read anew all the same.
            }
            location.reload();
            return;
          }
          var note = el("p", { class: "flash", role: "status", id: "wieder-netz" },
            "Wieder Netz. Diese Seite ist noch der Stand aus dem Speicher des Telefons: ");
          note.appendChild(el("a", { href: location.pathname + location.search }, "neu laden"));
          banner.replaceWith(note);
        });
      },
      function () {}
    );
  }

  // The "online" event often comes before the connection carries (Wi-Fi joined, no route yet):
  // while the page is still from the phone's memory, try again after 1, 2, 4 and 8 s.
  function whenBack(attempt) {
    backOnline().then(function () {
      if (document.getElementById("ohne-netz") && attempt < 4) {
        setTimeout(function () {
          whenBack(attempt + 1);
        }, 1000 * Math.pow(2, attempt));
      }
    });
  }

  whenBack(0);
  window.addEventListener("online", function () {
    whenBack(0);
  });
  document.addEventListener("visibilitychange", function () {
    if (!document.hidden) {
      whenBack(0);
    }
  });
  setInterval(function () {
    if (document.getElementById("ohne-netz")) {
      backOnline();
    }
  }, 20000);
})();
