#!/usr/bin/env python3
"""Large text on a small phone (issue 31.8; WCAG 1.4.10 Reflow): Android's 150 % text on a 360 px
phone is a 240 CSS px viewport. At 240 px and at 320 px, in light and dark, the table, the player
page, the career and the ewige Tabelle show place, name and D.Wert without sideways scrolling and
without cut figures, and no table of theirs scrolls inside itself (issue 31.8 after the fifth
trial: the player page's rounds and his Kasse box did); no name breaks inside a word, nor from 320 px on a column head or figure; no text of those pages is under 12 px; one sign
has one meaning in the table (▲ only for the movement); logged in as admin, secretary or Kassenwart the navigation takes at most
two lines of a 360 px phone and its folded menu opens without script (issue 31.11). Runs the binary on the demo league; exit 0
all fit, 1 with each page, width and finding, 77 skipped (no browser).

    python3 tests/browser/narrow.py          # BROWSER_SHOTS=/tmp/shots also saves screenshots
"""

from __future__ import annotations

import sys

from harness import Server, login, phone, screenshot

YEAR = 2026
WIDTHS = (240, 320)
MIN_TEXT_PX = 12

# What a visitor came for on each page: (path, table selector, the <th> texts that must show).
# The player id 1 is the demo's first player (Anna), who plays every season.
PAGES = [
    (f"/saison/{YEAR}", "table.standings", ["Pl.", "Name", "D.Wert"]),
    (f"/saison/{YEAR}/spieler/1", None, []),
    ("/spieler/1", "table.standings", ["Saison", "Pl.", "D.Wert"]),
    ("/ewige-tabelle", "table.standings", ["Pl.", "Name", "D.Wert"]),
    (f"/saison/{YEAR}/szenario", None, []),
    (f"/spieler/1/rueckblick/{YEAR}", None, []),
]

# Everything the checks need, measured in the page: the page's width, each named column's cells
# (their boxes, whether the figure is cut), names broken inside a word, text under the minimum,
# and the signs of the table's columns.
MEASURE = """([sel, names, minPx]) => {
  const vw = document.documentElement.clientWidth;
  const out = {page: document.documentElement.scrollWidth, vw, cols: {}, broken: [], small: [],
               signs: {}};
  for (const t of sel ? document.querySelectorAll(sel) : []) {
    const heads = [...t.querySelectorAll('thead th')].map(th => th.textContent.trim());
    for (const name of names) {
      const i = heads.indexOf(name);
      const cells = i < 0 ? null : [...t.querySelectorAll('tbody tr')].map(tr => tr.children[i]);
      const seen = out.cols[name] || (out.cols[name] = []);
      if (!cells) { seen.push('keine Spalte'); continue; }
      for (const td of cells) {
        const r = td.getBoundingClientRect();
        seen.push({text: td.textContent.trim(), left: r.left, right: r.right,
                   hidden: getComputedStyle(td).display === 'none' || r.width === 0,
                   cut: td.scrollWidth > td.clientWidth + 1});
      }
    }
    // The ± column and the hints beside the names: which signs each uses.
    for (const td of t.querySelectorAll('td.move')) {
      for (const ch of td.textContent) if ('▲▼'.includes(ch)) out.signs[ch] = (out.signs[ch] || new Set()).add('±');
    }
    for (const b of t.querySelectorAll('.badge')) {
      for (const ch of b.textContent) if ('▲▼'.includes(ch)) out.signs[ch] = (out.signs[ch] || new Set()).add('Hinweis');
    }
  }
  for (const k of Object.keys(out.signs)) out.signs[k] = [...out.signs[k]];
  // A table that scrolls inside itself hides columns as surely as a page wider than the phone.
  out.scrolled = [];
  for (const t of document.querySelectorAll('main table')) {
    if (t.closest('details:not([open])') || !t.getClientRects().length) continue;
    if (t.scrollWidth > t.clientWidth + 1 || t.getBoundingClientRect().right > vw + 0.5) {
      const head = [...t.querySelectorAll('thead th')].map(th => th.textContent.trim()).join(' | ');
      out.scrolled.push(`${head} (${t.scrollWidth} px in ${t.clientWidth} px)`);
    }
  }
  // A name (a link in a table cell) broken inside a word: more line boxes than words.
  for (const a of document.querySelectorAll('main td a')) {
    const words = a.textContent.trim().split(/\\s+/).length;
    const range = document.createRange();
    range.selectNodeContents(a);
    const lines = new Set([...range.getClientRects()].map(r => Math.round(r.top))).size;
    if (lines > words) out.broken.push(a.textContent.trim());
  }
  // A column's head or a figure broken inside a word (sixth trial: 'Out/s', 'Jule/n', '1,00 /€').
  out.heads = [];
  for (const c of document.querySelectorAll('main table th, main table td.num')) {
    if (c.closest('details:not([open])') || !c.getClientRects().length) continue;
    const text = c.textContent.trim();
    if (!text) continue;
    const words = text.split(/\s+/).length;
    const range = document.createRange();
    range.selectNodeContents(c);
    const lines = new Set([...range.getClientRects()].filter(r => r.width > 0)
      .map(r => Math.round(r.top))).size;
    if (lines > words) out.heads.push(text);
  }
  // Every visible text of the page's HTML: its rendered size. (The curves' SVG labels scale with
  // the picture and are not counted: the same figures stand in the table under „Verlauf als
  // Tabelle“.)
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  while (walker.nextNode()) {
    const node = walker.currentNode;
    if (!node.textContent.trim()) continue;
    const el = node.parentElement;
    if (!el || el.closest('details:not([open])') || el.closest('[hidden]')) continue;
    const style = getComputedStyle(el);
    if (style.display === 'none' || style.visibility === 'hidden') continue;
    if (el.closest('svg')) continue;
    const px = parseFloat(style.fontSize);
    if (px < minPx - 0.01) out.small.push(`${node.textContent.trim().slice(0, 30)} (${px.toFixed(1)} px)`);
  }
  return out;
}"""


def check(context, server: Server, path: str, sel, names, width: int, scheme: str) -> list[str]:
    page = context.new_page()
    page.goto(server.url(path))
    got = page.evaluate(MEASURE, [sel, names, MIN_TEXT_PX])
    screenshot(page, f"{path.strip('/').replace('/', '-') or 'start'}-{width}-{scheme}")
    page.close()
    where = f"{path} bei {width} px ({scheme})"
    bad = []
    if got["page"] > got["vw"]:
        bad.append(f"{where}: Seite {got['page']} px breit, sichtbar {got['vw']} px (seitlich wischen)")
    for name, cells in got["cols"].items():
        if not cells:
            bad.append(f"{where}: Spalte „{name}“ ohne Zeilen")
        for c in cells:
            if isinstance(c, str):
                bad.append(f"{where}: Spalte „{name}“: {c}")
                break
            if c["hidden"]:
                bad.append(f"{where}: Spalte „{name}“ ist ausgeblendet")
                break
            if c["left"] < 0 or c["right"] > got["vw"] + 0.5:
                bad.append(f"{where}: Spalte „{name}“ („{c['text']}“) bei {c['left']:.0f}–{c['right']:.0f} px, nicht auf dem Bildschirm")
                break
            if c["cut"]:
                bad.append(f"{where}: Spalte „{name}“: „{c['text']}“ abgeschnitten")
                break
    for table in got["scrolled"]:
        bad.append(f"{where}: Tabelle „{table}“ muss seitlich gewischt werden")
    if got["broken"]:
        bad.append(f"{where}: Namen mitten im Wort umbrochen: {', '.join(got['broken'][:5])}")
    # At 240 px (150 % text) a head may break rather than the table scroll sideways.
    if got["heads"] and width >= 320:
        bad.append(f"{where}: Spaltenköpfe oder Zahlen mitten im Wort umbrochen: {', '.join(got['heads'][:5])}")
    if got["small"]:
        bad.append(f"{where}: Text unter {MIN_TEXT_PX} px: {'; '.join(got['small'][:5])}")
    for sign, uses in got["signs"].items():
        if len(uses) > 1:
            bad.append(f"{where}: „{sign}“ bedeutet zweierlei ({' und '.join(uses)})")
    return bad


ACCOUNTS = {"admin": "admin", "schrift": "secretary", "kasse": "kassenwart"}

# The navigation's lines: the distinct tops of its visible items.
NAV_LINES = """() => {
  const items = [...document.querySelectorAll('header nav > a, header nav > details > summary')];
  // items whose middles lie within 10 px of each other stand on one line
  const mids = items.filter(e => e.getClientRects().length)
    .map(e => { const r = e.getBoundingClientRect(); return (r.top + r.bottom) / 2; })
    .sort((a, b) => a - b);
  return mids.filter((m, i) => i === 0 || m - mids[i - 1] > 10).length;
}"""


def sessions(browser, server: Server) -> dict:
    """Each account logged in once (the login limit counts per address), its cookies to reuse."""
    states = {}
    for name in ACCOUNTS:
        context = browser.new_context()
        login(context, server, name)
        states[name] = context.storage_state()
        context.close()
    return states


def check_nav(browser, server: Server, width: int, scheme: str, states: dict) -> list[str]:
    bad = []
    for name in ACCOUNTS:
        context = browser.new_context(viewport={"width": width, "height": 640}, color_scheme=scheme,
                                      device_scale_factor=1, has_touch=True, is_mobile=True,
                                      java_script_enabled=False, storage_state=states[name])
        page = context.new_page()
        page.goto(server.url("/verwaltung/passwort"))
        lines = page.evaluate(NAV_LINES)
        where = f"Navigation von {name} bei {width} px ({scheme})"
        if lines > 2:
            bad.append(f"{where}: {lines} Zeilen")
        if page.locator("header nav details.konto summary").count() != 1:
            bad.append(f"{where}: kein gefaltetes Menü")
        else:
            page.click("header nav details.konto summary")
        if not page.locator("header nav button:has-text('Abmelden')").is_visible():
            bad.append(f"{where}: das Menü zeigt „Abmelden“ nicht")
        screenshot(page, f"nav-{name}-{width}-{scheme}")
        context.close()
    return bad


def main() -> int:
    bad: list[str] = []
    checked = 0
    with Server.demo(accounts=ACCOUNTS) as server:
        with phone(server) as (browser, _):
            states = sessions(browser, server)
            for scheme in ("light", "dark"):
                for width in (320, 360):
                    bad += check_nav(browser, server, width, scheme, states)
                    checked += len(ACCOUNTS)
            for scheme in ("light", "dark"):
                for width in WIDTHS:
                    context = browser.new_context(
                        viewport={"width": width, "height": 640}, color_scheme=scheme,
                        device_scale_factor=1, has_touch=True, is_mobile=True)
                    for path, sel, names in PAGES:
                        bad += check(context, server, path, sel, names, width, scheme)
                        checked += 1
                    context.close()
    if bad:
        print("\n".join(bad), file=sys.stderr)
        print(f"{len(bad)} Befunde in {checked} Prüfungen", file=sys.stderr)
        return 1
    print(f"Große Schrift (240 und 320 px, hell und dunkel): {checked} Seiten geprüft, alle passen")
    return 0


if __name__ == "__main__":
    sys.exit(main())
