#!/usr/bin/env python3
"""The bank statement at 360 px (issue 34.3): the Kassenwart uploads the March statement
(CAMT.053 .001.08), sees the preview no wider than the phone (the unmatched credits with their
suggestion and an empty select), chooses the two players and books; the Zahlungen page says
"6 neue Buchungen, 0 schon eingelesen" — in light, then in dark the same file says "0 neue
Buchungen, 6 schon eingelesen". Works without JavaScript (the page has none). Exit 0 fine, 1 with
what failed, 77 skipped (no browser).

    python3 tests/browser/kontoauszug.py     # BROWSER_SHOTS=/tmp/shots also saves screenshots
"""

from __future__ import annotations

import sys
from pathlib import Path

from harness import PHONE, Server, login, phone, screenshot

ROOT = Path(__file__).resolve().parents[2]
SEASON = ROOT / "tests/fixtures/small-2026.season.json"
STATEMENT = ROOT / "tests/fixtures/kontoauszug/maerz-2026.camt053.001.08.xml"


def main() -> int:
    failures: list[str] = []
    server = Server(fill=[["import", str(SEASON)]], accounts={"kasse": "kassenwart"})
    with server, phone(server) as (_browser, contexts):
        for scheme, want in (("light", "6 neue Buchungen, 0 schon eingelesen"),
                             ("dark", "0 neue Buchungen, 6 schon eingelesen")):
            context = contexts[scheme]
            context.set_extra_http_headers({})
            login(context, server, "kasse")
            page = context.new_page()
            page.goto(server.url("/verwaltung/saison/2026/zahlungen"))
            page.click("a[href='/verwaltung/saison/2026/kontoauszug']")
            screenshot(page, f"kontoauszug-{scheme}")
            page.set_input_files("input[name=datei]", str(STATEMENT))
            with page.expect_navigation():
                page.click("main form button[type=submit]")
            width = page.evaluate("document.documentElement.scrollWidth")
            if width > PHONE["width"]:
                failures.append(f"{scheme}: Vorschau {width} px breit")
            screenshot(page, f"kontoauszug-vorschau-{scheme}")
            selects = page.locator("select[name^=spieler_]")
            if scheme == "light":
                if selects.count() != 2:
                    failures.append(f"{scheme}: {selects.count()} Auswahlen statt 2")
                for i in range(selects.count()):
                    if selects.nth(i).input_value() != "":
                        failures.append(f"{scheme}: Auswahl {i} ist vorbelegt")
                if "Vorschlag: Anna" not in page.content():
                    failures.append(f"{scheme}: kein Vorschlag Anna")
                page.select_option("select[name=spieler_3]", label="Anna")
                page.select_option("select[name=spieler_4]", label="Elke")
            with page.expect_navigation():
                page.click("#buchen button[type=submit]")
            screenshot(page, f"kontoauszug-gebucht-{scheme}")
            if want not in page.content():
                failures.append(f"{scheme}: „{want}“ fehlt auf {page.url}")
            width = page.evaluate("document.documentElement.scrollWidth")
            if width > PHONE["width"]:
                failures.append(f"{scheme}: Zahlungen {width} px breit")
    for f in failures:
        print("FEHLER:", f)
    print("kontoauszug.py:", "ok" if not failures else f"{len(failures)} Fehler")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
