#!/usr/bin/env python3
"""Money pages at 360 px (issue 21.1): no table is wider than the phone's screen, and the column a
person came for is on screen without swiping, in light and dark. Runs the binary on the demo
league; exit 0 all fit, 1 with each page, table and column that does not, 77 skipped (no browser).

    python3 tests/browser/layout.py          # BROWSER_SHOTS=/tmp/shots also saves screenshots
"""

from __future__ import annotations

import sys

from harness import PHONE, Server, login, phone, screenshot

YEAR = 2026
KASSENWART = "kasse"

# (page, table id, the columns that must be on screen: their <th> text), for everybody or for the
# Kassenwart (logged in). A table that is not on a page (no open fines, say) is reported too.
PUBLIC = [
    (f"/saison/{YEAR}/kasse", "spieler", ["Name", "Strafen offen", "eingezahlt"]),
    (f"/saison/{YEAR}/kasse", "einnahmen", ["Tag", "zusammen"]),
    (f"/saison/{YEAR}/kasse", "topf-je-abend", ["Abend", "Topf"]),
    (f"/saison/{YEAR}/abschluss", "lucky-looser", ["Name", "Betrag"]),
    (f"/saison/{YEAR}/abschluss", "plaetze", ["Name", "Betrag"]),
    (f"/saison/{YEAR}/abschluss", "verrechnung-tabelle", ["Name", "Auszahlung"]),
]
MONEY = [
    (f"/saison/{YEAR}/kasse", "offene-strafen", ["Name", "Betrag", "bezahlt am"]),
    (f"/verwaltung/saison/{YEAR}/strafen", "katalog", ["Strafe", "Betrag", "ändern"]),
    (f"/verwaltung/saison/{YEAR}/strafen", "gebuchte-strafen", ["Name", "Betrag", "bezahlt am"]),
]

# After a payment that leaves a Guthaben (issue 34.1): its tables, and the Zahlungen page with the
# Guthaben form and a player's reported payment (issue 34.4), and his card, no wider than the phone.
GUTHABEN = [
    (f"/saison/{YEAR}/kasse", "guthaben-liste", ["Name", "Guthaben"]),
    (f"/saison/{YEAR}/abschluss", "guthaben-liste", ["Name", "Guthaben"]),
]
PAYMENTS = f"/verwaltung/saison/{YEAR}/zahlungen"


def pay_for_guthaben(context, server) -> None:
    """Books 99,99 € for the first player of the Zahlungen page: more than he owes (Guthaben)."""
    page = context.new_page()
    page.goto(server.url(PAYMENTS))
    form = page.locator('form[action$="/zahlung"]').first
    form.locator('input[name="amount"]').fill("99,99")
    form.locator('button[type="submit"]').click()
    page.wait_for_load_state()
    page.close()


def report_from_card(context, card: str) -> None:
    """Reports 2,00 € bar from a player's card ("Ich habe bezahlt", issue 34.4)."""
    page = context.new_page()
    page.goto(card)
    page.evaluate("() => document.querySelectorAll('details').forEach(d => { d.open = true; })")
    page.locator('input[name="betrag"]').fill("2,00")
    page.select_option('select[name="wie"]', "bar")
    with page.expect_navigation():
        page.locator('input[name="betrag"]').press("Enter")
    page.close()


def page_width(context, path: str, scheme: str) -> list[str]:
    page = context.new_page()
    page.goto(path)
    page.evaluate("() => document.querySelectorAll('details').forEach(d => { d.open = true; })")
    width = page.evaluate("() => document.documentElement.scrollWidth")
    screenshot(page, f"{path.split('/', 3)[3].strip('/').replace('/', '-')}-{scheme}")
    page.close()
    if width > PHONE["width"]:
        return [f"{path} ({scheme}): Seite {width} px breit, Bildschirm {PHONE['width']} px"]
    return []


# For each named column of table `id`: the boxes of its cells in the first rows (the column's
# index from its <th>); with the page's and the table's widths.
MEASURE = """([id, names]) => {
  // A folded list is measured as it shows when unfolded (tapped open).
  document.querySelectorAll('details').forEach(d => { d.open = true; });
  const t = document.getElementById(id);
  if (!t) return null;
  const heads = [...t.querySelectorAll('thead th')].map(th => th.textContent.trim());
  const cols = {};
  for (const name of names) {
    const i = heads.indexOf(name);
    if (i < 0) { cols[name] = 'keine Spalte'; continue; }
    const cells = [...t.querySelectorAll('tbody tr')].slice(0, 5)
      .map(tr => tr.children[i]).filter(td => td && td.textContent.trim() !== '');
    cols[name] = cells.map(td => {
      const r = td.getBoundingClientRect();
      const hidden = getComputedStyle(td).display === 'none' || r.width === 0;
      return {left: r.left, right: r.right, hidden};
    });
  }
  const box = t.getBoundingClientRect();
  return {page: document.documentElement.scrollWidth, table: t.scrollWidth,
          right: box.right, cols};
}"""


def check(context, path: str, table: str, names: list[str], scheme: str) -> list[str]:
    page = context.new_page()
    page.goto(path)
    got = page.evaluate(MEASURE, [table, names])
    screenshot(page, f"{path.split('/', 3)[3].strip('/').replace('/', '-')}-{scheme}")
    page.close()
    where = f"{path} ({scheme}), Tabelle #{table}"
    if got is None:
        return [f"{where}: nicht auf der Seite"]
    width = PHONE["width"]
    bad = []
    if got["page"] > width:
        bad.append(f"{where}: Seite {got['page']} px breit, Bildschirm {width} px")
    if got["table"] > width or got["right"] > width:
        bad.append(f"{where}: Tabelle {got['table']} px breit (rechter Rand {got['right']:.0f}), Bildschirm {width} px")
    for name, cells in got["cols"].items():
        if isinstance(cells, str):
            bad.append(f"{where}: Spalte „{name}“: {cells}")
        elif not cells:
            bad.append(f"{where}: Spalte „{name}“ hat keine gefüllte Zelle")
        for c in cells if isinstance(cells, list) else []:
            if c["hidden"]:
                bad.append(f"{where}: Spalte „{name}“ ist versteckt")
                break
            if c["left"] < 0 or c["right"] > width + 0.5:
                bad.append(f"{where}: Spalte „{name}“ bei {c['left']:.0f}–{c['right']:.0f} px, nicht auf dem Bildschirm")
                break
    return bad


def main() -> int:
    with Server.demo(accounts={KASSENWART: "kassenwart"}) as server:
        link = server.run("player", "link", "Dieter")
        card = link[link.index("/karte/"):].split()[0]
        with phone(server) as (_, contexts):
            bad: list[str] = []
            for scheme, context in contexts.items():
                for path, table, names in PUBLIC:
                    bad += check(context, server.url(path), table, names, scheme)
                login(context, server, KASSENWART)
                for path, table, names in MONEY:
                    bad += check(context, server.url(path), table, names, scheme)
                if scheme == next(iter(contexts)):
                    pay_for_guthaben(context, server)
                    # The card's "Ich habe bezahlt" with a report, listed on the Zahlungen page.
                    report_from_card(context, server.url(card))
                for path, table, names in GUTHABEN:
                    bad += check(context, server.url(path), table, names, scheme)
                bad += page_width(context, server.url(PAYMENTS), scheme)
                bad += page_width(context, server.url(card), scheme)
            checked = 2 * (len(PUBLIC) + len(MONEY) + len(GUTHABEN) + 2)
            if bad:
                print("\n".join(bad), file=sys.stderr)
                print(f"{len(bad)} Befunde in {checked} Prüfungen", file=sys.stderr)
                return 1
            print(f"Geldseiten bei 360 px: {checked} Tabellen geprüft (hell und dunkel), alle passen")
            return 0


if __name__ == "__main__":
    sys.exit(main())
