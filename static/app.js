// On every page (templates/kit/base.html), after warten.js. Without JavaScript every page and
// form works as before; with it:
// - the service worker (/sw.js) is registered: pages this phone has seen open without network;
// - the rounds that wait for the network (kept by the service worker in IndexedDB) are listed at
//   the top of the page ("1 Runde wartet auf Netz") and sent by themselves when the network is
//   back (on load, on "online" and 1, 2, 4, 8 s after it, every 20 s while some wait), each with the same fields as typed
//   (its `einmal` token too, so a second send is answered "Schon gespeichert", never stored twice);
//   removed once the server answered, or kept with the server's German reason when it refused,
//   to be taken back into the form or thrown away;
// - logging out tells the service worker to forget the kept pages.
"use strict";
(function () {
  var Warten = window.Warten;
  var sending = false;

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

  // What a round form says in words: "Anna 2 Outs (1 Hand-Out), Bernd 0 Outs; verloren: Bernd".
  function summary(form) {
    var parts = [];
    form.querySelectorAll("input[name^=outs_]").forEach(function (outs) {
      var id = outs.name.slice(5);
      var played = form.querySelector('[name="played_' + id + '"]');
      if (played && !played.checked) {
        return;
      }
      var name = (outs.getAttribute("aria-label") || "").replace(/^Outs /, "");
      var hand = form.querySelector('[name="hand_outs_' + id + '"]');
      var julen = form.querySelector('[name="julen_' + id + '"]');
      var extra = [];
      if (hand && hand.value && hand.value !== "0") {
        extra.push(hand.value + " Hand-Out");
      }
      if (julen && julen.value && julen.value !== "0") {
        extra.push(julen.value + " Julen");
      }
      parts.push(name + " " + (outs.value || "0") + " Outs" + (extra.length ? " (" + extra.join(", ") + ")" : ""));
    });
    var lost = form.querySelector("input[name=lost]:checked");
    var text = parts.join(", ");
    if (lost) {
      text += "; verloren: " + (lost.getAttribute("aria-label") || "").replace(/ gibt die Runde$/, "");
    }
    return text;
  }

  // The words of a form, kept beside its token until the form is answered.
  function keyOf(action, token) {
    return "warten:" + new URL(action, location.href).pathname + ":" + token;
  }

  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (!form || !form.getAttribute) {
      return;
    }
    if (form.getAttribute("action") === "/logout" && navigator.serviceWorker &&
        navigator.serviceWorker.controller) {
      navigator.serviceWorker.controller.postMessage("abmelden");
    }
    var token = form.querySelector("input[name=einmal]");
    if (token && window.localStorage && form.querySelector("input[name^=outs_]")) {
      try {
        localStorage.setItem(keyOf(form.action, token.value), summary(form));
      } catch (e) {
        // Storage full or off: the waiting list shows the fields instead.
      }
    }
  });

  // A scorer link's page follows its night (the live board's stream): a round stored from
  // another phone or the Verwaltung shows in "Eingetragen" at once; the form is left as typed.
  var scorer = location.pathname.match(/^\/tisch\/[^/]+\/(\d{4}-\d{2}-\d{2})\/\d+$/);
  if (scorer && window.EventSource && window.fetch && document.getElementById("runden")) {
    var stream = new EventSource("/live/" + scorer[1] + "/ereignisse");
    stream.addEventListener("stand", function () {
      fetch(location.href, { cache: "no-store", credentials: "same-origin" })
        .then(function (resp) {
          return resp.ok ? resp.text() : null;
        })
        .then(function (html) {
          if (!html) {
            return;
          }
          var fresh = new DOMParser().parseFromString(html, "text/html").getElementById("runden");
          var current = document.getElementById("runden");
          if (!fresh || !current) {
            return;
          }
          // The part above the form: what is entered.
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
        })
        .catch(function () {});
    });
  }

  if (!Warten || !window.indexedDB) {
    return;
  }

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

  function count(n) {
    return n === 1 ? "1 Runde wartet auf Netz" : n + " Runden warten auf Netz";
  }

  function time(iso) {
    var d = new Date(iso);
    return (d.getHours() < 10 ? "0" : "") + d.getHours() + ":" + (d.getMinutes() < 10 ? "0" : "") + d.getMinutes();
  }

  function tokenOf(record) {
    var f = record.fields.filter(function (f) {
      return f[0] === "einmal";
    })[0];
    return f ? f[1] : "";
  }

  // The typed values a person can read: the round in words when this phone kept them, else the
  // fields but the hidden token.
  function typed(record) {
    var words = window.localStorage && localStorage.getItem(keyOf(record.url, tokenOf(record)));
    if (words) {
      return words;
    }
    return record.fields
      .filter(function (f) {
        return f[0] !== "einmal" && f[1] !== "";
      })
      .map(function (f) {
        return f[0] + "=" + f[1];
      })
      .join(", ");
  }

  // The form of this page that sends to the record's address.
  function formFor(record) {
    var path = new URL(record.url, location.href).pathname;
    var forms = document.querySelectorAll("form[method=post]");
    for (var i = 0; i < forms.length; i++) {
      if (new URL(forms[i].action, location.href).pathname === path) {
        return forms[i];
      }
    }
    return null;
  }

  // Puts the record's values back into its form (the token stays the page's own).
  function fill(form, record) {
    record.fields.forEach(function (f) {
      if (f[0] === "einmal") {
        return;
      }
      var inputs = form.querySelectorAll('[name="' + f[0].replace(/"/g, "") + '"]');
      inputs.forEach(function (input) {
        if (input.type === "checkbox" || input.type === "radio") {
          input.checked = input.value === f[1];
        } else {
          input.value = f[1];
        }
      });
    });
  }

  function forgetWords(record) {
    if (window.localStorage) {
      localStorage.removeItem(keyOf(record.url, tokenOf(record)));
    }
  }

  function show(records) {
    var old = document.getElementById("warten");
    if (old) {
      old.remove();
    }
    if (!records.length) {
      return;
    }
    var waiting = records.filter(function (r) {
      return r.state === "wartet";
    });
    var refused = records.filter(function (r) {
      return r.state === "abgelehnt";
    });
    var box = el("section", { id: "warten", class: "warten", "aria-live": "polite" });
    if (waiting.length) {
      box.appendChild(el("p", { class: "warten-zahl" }, count(waiting.length) +
        (navigator.onLine ? " – wird gesendet, sobald der Server antwortet." : " – wird gesendet, sobald wieder Netz da ist.")));
      var list = el("ul");
      waiting.forEach(function (r) {
        var words = window.localStorage && localStorage.getItem(keyOf(r.url, tokenOf(r)));
        list.appendChild(el("li", {}, r.what + " (eingegeben " + time(r.at) + ")" + (words ? ": " + words : "")));
      });
      box.appendChild(list);
    }
    refused.forEach(function (r) {
      var p = el("div", { class: "error warten-abgelehnt", role: "alert" });
      p.appendChild(el("p", {}, r.what + " wurde nicht gespeichert: " + r.reason));
      p.appendChild(el("p", { class: "muted" }, "Eingegeben: " + typed(r)));
      var form = formFor(r);
      if (form) {
        var take = el("button", { type: "button" }, "Ins Formular übernehmen");
        take.addEventListener("click", function () {
          fill(form, r);
          forgetWords(r);
          Warten.remove(r.id).then(refresh);
          form.scrollIntoView();
        });
        p.appendChild(take);
      } else if (r.page) {
        var back = new URL(r.page, location.href);
        if (back.origin === location.origin) {
          p.appendChild(el("a", { href: back.pathname + back.search, class: "warten-zurueck" }, "Zur Eingabe"));
          p.appendChild(document.createTextNode(" "));
        }
      }
      var drop = el("button", { type: "button", class: "danger" }, "Verwerfen");
      drop.addEventListener("click", function () {
        forgetWords(r);
        Warten.remove(r.id).then(refresh);
      });
      p.appendChild(drop);
      box.appendChild(p);
    });
    var main = document.querySelector("main");
    if (main) {
      main.insertBefore(box, main.firstChild);
    }
  }

  function refresh() {
    return Warten.all().then(function (records) {
      // Words of forms that were answered at once (never waited) are not needed any more.
      if (window.localStorage) {
        var keep = records.map(function (r) {
          return keyOf(r.url, tokenOf(r));
        });
        Object.keys(localStorage)
          .filter(function (k) {
            return k.indexOf("warten:") === 0 && keep.indexOf(k) < 0;
          })
          .forEach(function (k) {
            localStorage.removeItem(k);
          });
      }
      show(records);
    }, function () {});
  }

  // The German reason in a refusal page: its error box.
  function reasonOf(html, status) {
    var doc = new DOMParser().parseFromString(html, "text/html");
    var box = doc.querySelector("#fehler") || doc.querySelector("main .error");
    var text = box ? box.textContent.replace(/\s+/g, " ").trim() : "";
    return text || "Der Server hat die Eingabe abgelehnt (" + status + ").";
  }

  // Sends one waiting record: resolves true when done with it (stored or refused), false when
  // it keeps waiting (no network, server busy, login expired).
  function sendOne(record) {
    var body = new URLSearchParams();
    record.fields.forEach(function (f) {
      body.append(f[0], f[1]);
    });
    return fetch(record.url, {
      method: "POST",
      body: body,
      credentials: "same-origin",
      redirect: "follow",
    }).then(
      function (resp) {
        var landed = new URL(resp.url || record.url, location.href).pathname;
        if (resp.redirected && landed === "/login") {
          // Logged out meanwhile: the round waits until the login is back.
          return false;
        }
        if (resp.ok) {
          forgetWords(record);
          return Warten.remove(record.id).then(function () {
            return true;
          });
        }
        if (resp.status >= 400 && resp.status < 500 && resp.status !== 408 && resp.status !== 429) {
          return resp.text().then(function (html) {
            record.state = "abgelehnt";
            record.reason = reasonOf(html, resp.status);
            return Warten.update(record).then(function () {
              return true;
            });
          });
        }
        return false;
      },
      function () {
        return false;
      }
    );
  }

  function sendAll() {
    if (sending) {
      return Promise.resolve();
    }
    sending = true;
    var run = function () {
      return Warten.all().then(function (records) {
        var waiting = records.filter(function (r) {
          return r.state === "wartet";
        });
        // One after the other, in the order typed; stop at the first that still cannot go.
        var chain = Promise.resolve(true);
        var sent = 0;
        waiting.forEach(function (r) {
          chain = chain.then(function (ok) {
            if (!ok) {
              return false;
            }
            return sendOne(r).then(function (done) {
              if (done) {
                sent += 1;
              }
              return done;
            });
          });
        });
        return chain.then(function () {
          return sent;
        });
      });
    };
    // One tab at a time sends (two tabs must not send the same round at once).
    var locked = navigator.locks
      ? navigator.locks.request("schockerliga-warten", run)
      : run();
    return locked
      .then(function (sent) {
        sending = false;
        return refresh().then(function () {
          if (sent > 0 && !document.getElementById("warten")) {
            var main = document.querySelector("main");
            var note = el("p", { class: "flash", role: "status", id: "gesendet" },
              sent === 1 ? "Die wartende Runde ist gespeichert." : sent + " wartende Runden sind gespeichert.");
            var again = el("a", { href: location.pathname + location.search }, "Seite neu laden");
            note.appendChild(document.createTextNode(" "));
            note.appendChild(again);
            if (main) {
              main.insertBefore(note, main.firstChild);
            }
            // A page from the phone's memory is old: read it again now that the server answers.
            if (document.getElementById("ohne-netz")) {
              setTimeout(function () {
                location.reload();
              }, 1000);
            }
          }
        });
      })
      .catch(function () {
        sending = false;
      });
  }

  // The "online" event often comes before the connection carries (Wi-Fi joined, no route yet;
  // a page reloaded from the phone's memory), and a send already under way makes sendAll return
  // at once: while rounds still wait, try again after 1, 2, 4 and 8 s, then every 20 s below.
  // True when one of the kept records still waits to be sent (not refused).
  function anyWaiting(records) {
    return records.some(function (r) {
      return r.state === "wartet";
    });
  }

  function sendWhenBack(attempt) {
    sendAll()
      .then(function () {
        return Warten.all();
      })
      .then(function (records) {
        if (anyWaiting(records) && attempt < 4) {
          setTimeout(function () {
            sendWhenBack(attempt + 1);
          }, 1000 * Math.pow(2, attempt));
        }
      }, function () {});
  }

  refresh().then(function () {
    sendWhenBack(0);
  });
  window.addEventListener("online", function () {
    sendWhenBack(0);
  });
  window.addEventListener("offline", refresh);
  document.addEventListener("visibilitychange", function () {
    if (!document.hidden) {
      sendWhenBack(0);
    }
  });
  setInterval(function () {
    Warten.all().then(function (records) {
      if (anyWaiting(records)) {
        sendAll();
      }
    });
  }, 20000);
})();
