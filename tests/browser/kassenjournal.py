#!/usr/bin/env python3
"""The Kassenbuch's promise kept (issue 35, trials) at 360 px, light and dark: a Geprüft that
Belege came after says "nach der Prüfung geändert" on the Kassenbericht; a refused Storno comes
back in its own form with the day typed (the Buchen form keeps today); nothing wider than the
phone. On the demo league. Exit 0 all fine, 1 with what is not, 77 skipped (no browser).

    python3 tests/browser/kassenjournal.py      (BROWSER_SHOTS=/tmp/shots saves screenshots)
"""

from __future__ import annotations

import sys

from harness import PHONE, Server, login, phone, screenshot

KASSE = "kasse"
PRUEFER = "petra"
YEAR = 2026


def main() -> int:
    bad: list[str] = []
    probe = Server.demo(accounts={KASSE: "kassenwart", PRUEFER: "kassenpruefer"})
    with probe as server, phone(server) as (browser, contexts):
        for context in contexts.values():
            login(context, server, KASSE)
        auditor = browser.new_context(viewport=PHONE, device_scale_factor=1)
        login(auditor, server, PRUEFER)
        page = auditor.new_page()
        page.goto(server.url(f"/saison/{YEAR}/abschluss"))
        form = page.locator("form#geprueft-form")
        form.locator("[name=notiz]").fill("Belege vollständig.")
        with page.expect_navigation():
            form.locator("button[type=submit]").click()
        page.close()
        page = contexts["light"].new_page()
        page.goto(server.url(f"/verwaltung/saison/{YEAR}/kassenbuch"))
        form = page.locator("form#buchen")
        form.locator("input[name=betrag]").fill("4,00")
        form.locator("select[name=kategorie]").select_option("Anschaffung")
        form.locator("input[name=text]").fill("Kreide")
        with page.expect_navigation():
            form.locator("button[type=submit]").click()
        # A Storno dated after today is refused: back in the Storno form with that day.
        page.goto(server.url(f"/verwaltung/saison/{YEAR}/kassenbuch"))
        form = page.locator("form#storno")
        form.locator("input[name=tag]").fill(f"{YEAR}-12-31")
        form.locator("input[name=grund]").fill("falsch")
        with page.expect_navigation():
            form.locator("button[type=submit]").click()
        typed = page.locator("form#storno input[name=tag]").input_value()
        buchen = page.locator("form#buchen input[name=tag]").input_value()
        if typed != f"{YEAR}-12-31" or buchen == f"{YEAR}-12-31":
            bad.append(f"Storno abgelehnt: Tag im Storno {typed}, im Buchen {buchen}")
        screenshot(page, "storno-abgelehnt-light")
        page.close()
        for scheme, context in contexts.items():
            page = context.new_page()
            page.goto(server.url(f"/verwaltung/saison/{YEAR}/kassenbericht"))
            text = page.inner_text("#geprueft")
            if "nach der Prüfung geändert: 1 Beleg" not in text:
                bad.append(f"Kassenbericht ({scheme}): {text!r}")
            wide = page.evaluate("document.documentElement.scrollWidth")
            if wide > 360:
                bad.append(f"Kassenbericht ({scheme}): {wide} px breit auf 360 px")
            screenshot(page, f"kassenbericht-geaendert-{scheme}")
            page.close()
    if bad:
        print("\n".join(bad), file=sys.stderr)
        return 1
    print("Kassenbuch-Journal: Geprüft veraltet sichtbar, Storno-Formular behält den Tag (360 px)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
