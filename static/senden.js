// The rounds that wait for the network (issues 26.2, 31.5, 31.6, 32.7; every page,
// templates/kit/base.html, after warten.js). Without JavaScript every page and form works as
// before; with it:
// - a form marked data-wartet (the round form, the scorer link's, the Spielberichtsbogen, the
//   Schockbesteck's) sent while the phone says it is offline waits on the phone (IndexedDB,
//   warten.js) if it is a round, and the page stays, the form ready for the next round; its number
//   counts the rounds already waiting (issue 31.5); a form that finds no network while the phone
//   thinks it has one is kept by the service worker (sw.js), which goes back to the form's page;
// - the rounds that wait are listed at the top of the page ("1 Runde wartet auf Netz"), each
//   with its own values (issue 31.6), and sent by themselves when the network is back (on load,
//   on "online" and 1, 2, 4, 8 s after it, every 20 s while some wait), each with the same fields
//   as typed (its `einmal` token too, so a second send is answered "Schon gespeichert", never
//   stored twice), one tab at a time (the lock "schockerliga-warten"); removed once the server
//   answered, or kept with the server's German reason when it refused (the refusal page's box
//   #fehler; a correction of a round changed meanwhile shows what is there now beside what was
//   typed), to be taken back into the form or thrown away;
// - a round of the Verwaltung waits for the account it was typed under (data-konto of the page's
//   <body>): it is sent only while that account is logged in (issue 32.7); a scorer link's round
//   goes to its link;
// - the round form's number (data-vorschlag) is the first of the night neither entered nor
//   running (data-belegt, up to data-runden) nor waiting on this phone.
"use strict";
(function () {
  var Warten = window.Warten;
  var sending = false;
  // The account this page was rendered for ("" without login).
  var konto = document.body.getAttribute("data-konto") || "";

  // Fields of a form that are the page's own, never a record's: the token, the seat list and the
  // rounds' versions the page was rendered with, the account, the table of the form.
  function pagesOwn(name) {
    return name === "einmal" || name === "sitze" || name === "konto" || name === "table" ||
      name.indexOf("stand_") === 0;
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

  function pathOf(url) {
    return new URL(url, location.href).pathname;
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

  // The fields of a form as the browser sends them: [[name, value], …].
  function fieldsOf(form) {
    var out = [];
    new FormData(form).forEach(function (value, name) {
      if (typeof value === "string") {
        out.push([name, value]);
      }
    });
    return out;
  }

  // The key of a form's words: its address and every field, sorted. Two rounds typed on the same
  // page copy share its `einmal` token, never all their fields (issue 31.6).
  function keyOf(action, fields) {
    var body = new URLSearchParams();
    fields
      .slice()
      .sort(function (a, b) {
        var x = a[0] + "\u0000" + a[1];
        var y = b[0] + "\u0000" + b[1];
        return x < y ? -1 : x > y ? 1 : 0;
      })
      .forEach(function (f) {
        body.append(f[0], f[1]);
      });
    return "warten:" + pathOf(action) + ":" + body.toString();
  }

  // The round form's number as the page proposes it: the first number of the night that is
  // neither entered nor running (data-belegt) nor waiting on this phone for the same form (and
  // table) — unless the field was typed into or holds a refused or corrected round.
  function propose(records) {
    document.querySelectorAll("input[name=number][data-vorschlag]").forEach(function (input) {
      var form = input.form;
      if (!form || input.getAttribute("data-getippt")) {
        return;
      }
      var path = pathOf(form.action);
      var tableInput = form.querySelector("input[name=table]");
      var table = tableInput ? tableInput.value : null;
      var taken = (input.getAttribute("data-belegt") || "")
        .split(",")
        .filter(Boolean)
        .map(Number);
      (records || []).forEach(function (r) {
        if (r.state !== "wartet" || pathOf(r.url) !== path) {
          return;
        }
        if (table !== null && Warten.field(r.fields, "table") !== table) {
          return;
        }
        var n = parseInt(Warten.field(r.fields, "number"), 10);
        if (n) {
          taken.push(n);
        }
      });
      var last = parseInt(input.getAttribute("data-runden"), 10) || 0;
      for (var n = 1; n <= last; n++) {
        if (taken.indexOf(n) < 0) {
          input.value = String(n);
          return;
        }
      }
    });
  }

  // A round number typed by hand is no proposal any more.
  document.addEventListener("input", function (event) {
    var target = event.target;
    if (target && target.form && target.name === "number") {
      target.setAttribute("data-getippt", "1");
    }
  });

  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (!form || !form.hasAttribute || !form.hasAttribute("data-wartet")) {
      return;
    }
    var path = pathOf(form.action);
    // A form of the Verwaltung names the account it was typed under: should it wait for the
    // network, it is sent only under that account (issue 32.7). The server ignores the field.
    if (konto && path.indexOf("/verwaltung/") === 0) {
      var named = form.querySelector("input[name=konto]");
      if (!named) {
        named = el("input", { type: "hidden", name: "konto" });
        form.appendChild(named);
      }
      named.value = konto;
    }
    var round = !!form.querySelector("input[name^=outs_]");
    var words = round ? summary(form) : "";
    var fields = fieldsOf(form);
    if (words && window.localStorage) {
      try {
        localStorage.setItem(keyOf(form.action, fields), words);
      } catch (e) {
        // Storage full or off: the waiting list shows the fields instead.
      }
    }
    // The phone says it has no network: the round waits here and the page stays, ready for the
    // next one (the service worker keeps a form that finds no network while the phone thinks it
    // has one, and goes back to the form's page).
    if (round && navigator.onLine === false && Warten && window.indexedDB) {
      event.preventDefault();
      Warten.put(form.action, fields, location.href, words)
        .then(function () {
          form.reset();
          form.querySelectorAll("input[name=number]").forEach(function (n) {
            n.removeAttribute("data-getippt");
          });
          return refresh();
        })
        .then(function () {
          var box = document.getElementById("warten");
          if (box && box.scrollIntoView) {
            box.scrollIntoView();
          }
        })
        .catch(function () {
          // IndexedDB refused: send it the ordinary way (the service worker keeps it).
          form.submit();
        });
    }
  });

  if (!Warten || !window.indexedDB) {
    return;
  }

  function count(n) {
    return n === 1 ? "1 Runde wartet auf Netz" : n + " Runden warten auf Netz";
  }

  function time(iso) {
    var d = new Date(iso);
    return (d.getHours() < 10 ? "0" : "") + d.getHours() + ":" + (d.getMinutes() < 10 ? "0" : "") + d.getMinutes();
  }

  // The account a record waits for ("" when any may send it: a link's, an older version's).
  function accountOf(record) {
    var owner = record.owner || "";
    return owner.indexOf("konto:") === 0 ? owner.slice(6) : "";
  }

  // The round in words as kept with the record or beside it on this phone, else "".
  function wordsOf(record) {
    if (record.words) {
      return record.words;
    }
    return (window.localStorage && localStorage.getItem(keyOf(record.url, record.fields))) || "";
  }

  // The typed values a person can read: the round in words, else the fields but the page's own.
  function typed(record) {
    return wordsOf(record) || record.fields
      .filter(function (f) {
        return !pagesOwn(f[0]) && f[1] !== "";
      })
      .map(function (f) {
        return f[0] + "=" + f[1];
      })
      .join(", ");
  }

  // The form of this page that sends to the record's address (of its table).
  function formFor(record) {
    var path = pathOf(record.url);
    var table = Warten.field(record.fields, "table");
    var forms = document.querySelectorAll("form[method=post]");
    for (var i = 0; i < forms.length; i++) {
      if (pathOf(forms[i].action) !== path) {
        continue;
      }
      var t = forms[i].querySelector("input[name=table]");
      if (table === null || (t && t.value === table)) {
        return forms[i];
      }
    }
    return null;
  }

  // Puts the record's values back into its form (the token, seat list and versions stay the
  // page's own: sent again, it is checked against the page as it is now).
  function fill(form, record) {
    form.querySelectorAll("input[type=checkbox], input[type=radio]").forEach(function (input) {
      if (!pagesOwn(input.name)) {
        input.checked = false;
      }
    });
    record.fields.forEach(function (f) {
      if (pagesOwn(f[0])) {
        return;
      }
      var inputs = form.querySelectorAll('[name="' + f[0].replace(/"/g, "") + '"]');
      inputs.forEach(function (input) {
        if (input.type === "checkbox" || input.type === "radio") {
          input.checked = input.value === f[1];
        } else {
          input.value = f[1];
          if (input.name === "number") {
            input.setAttribute("data-getippt", "1");
          }
        }
      });
    });
  }

  function forgetWords(record) {
    if (window.localStorage) {
      localStorage.removeItem(keyOf(record.url, record.fields));
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
      return r.state === "wartet" && (!accountOf(r) || accountOf(r) === konto);
    });
    var others = records.filter(function (r) {
      return r.state === "wartet" && accountOf(r) && accountOf(r) !== konto;
    });
    var refused = records.filter(function (r) {
      return r.state === "abgelehnt" && (!accountOf(r) || accountOf(r) === konto);
    });
    if (!waiting.length && !others.length && !refused.length) {
      return;
    }
    var box = el("section", { id: "warten", class: "warten", "aria-live": "polite" });
    if (waiting.length) {
      box.appendChild(el("p", { class: "warten-zahl" }, count(waiting.length) +
        (navigator.onLine ? " – wird gesendet, sobald der Server antwortet." : " – wird gesendet, sobald wieder Netz da ist.")));
      var list = el("ul");
      waiting.forEach(function (r) {
        var words = wordsOf(r);
        list.appendChild(el("li", { class: "warten-runde" },
          r.what + " (eingegeben " + time(r.at) + ")" + (words ? ": " + words : "")));
      });
      box.appendChild(list);
    }
    if (others.length) {
      var theirs = el("ul", { class: "warten-andere" });
      others.forEach(function (r) {
        theirs.appendChild(el("li", { class: "warten-konto" },
          r.what + " (eingegeben " + time(r.at) + " von " + accountOf(r) + ") wartet, bis " +
          accountOf(r) + " hier angemeldet ist: sie wird nur unter diesem Konto gesendet."));
      });
      box.appendChild(theirs);
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
          return keyOf(r.url, r.fields);
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
      propose(records);
    }, function () {});
  }

  // The German reason in a refusal page: its error box.
  function reasonOf(html, status) {
    var doc = new DOMParser().parseFromString(html, "text/html");
    var box = doc.querySelector("#fehler") || doc.querySelector("main .error");
    if (box) {
      // Its link to the form ("(zum Formular)") points into that page, not this one.
      box.querySelectorAll("a[href^='#']").forEach(function (a) {
        a.remove();
      });
    }
    var text = box ? box.textContent.replace(/\s+/g, " ").trim() : "";
    return text || "Der Server hat die Eingabe abgelehnt (" + status + ").";
  }

  // The account logged in now (a page of the server names it), "" for none; rejects without
  // network. Asked before a round of an account is sent: another tab may have logged out or in.
  function loggedIn() {
    return fetch("/", { cache: "no-store", credentials: "same-origin" })
      .then(function (resp) {
        return resp.text();
      })
      .then(function (html) {
        var body = new DOMParser().parseFromString(html, "text/html").body;
        return (body && body.getAttribute("data-konto")) || "";
      });
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
        // Whose rounds may go now: a link's always, an account's only while it is logged in.
        var who = waiting.some(accountOf) ? loggedIn() : Promise.resolve("");
        return who.then(function (now) {
          // One after the other, in the order typed; stop at the first that still cannot go.
          var chain = Promise.resolve(true);
          var sent = 0;
          waiting
            .filter(function (r) {
              return !accountOf(r) || accountOf(r) === now;
            })
            .forEach(function (r) {
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
        }, function () {
          return 0;
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
          }
        });
      })
      .catch(function () {
        sending = false;
      });
  }

  // True when one of the kept records still waits to be sent (not refused) under this page's
  // account or its link.
  function anyWaiting(records) {
    return records.some(function (r) {
      return r.state === "wartet" && (!accountOf(r) || accountOf(r) === konto);
    });
  }

  // The "online" event often comes before the connection carries (Wi-Fi joined, no route yet;
  // a page reloaded from the phone's memory), and a send already under way makes sendAll return
  // at once: while rounds still wait, try again after 1, 2, 4 and 8 s, then every 20 s below.
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
  // A scorer link's form followed its night (tisch.js): propose its number anew.
  document.addEventListener("tisch:stand", function () {
    Warten.all().then(propose, function () {});
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
