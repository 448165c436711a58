#!/usr/bin/env python3
"""The Kassenbuch and the Kassenbericht (issue 35) at 360 px, light and dark: nothing wider than
the phone, the balances on top; the printed Kassenbericht (Chromium's PDF, A4) is one page with
the signature lines of the Kassenwart and two Kassenprüfer. On the demo league with a few
bookings by hand and a Storno. Exit 0 all fine, 1 with what is not, 77 skipped (no browser).

    python3 tests/browser/kassenbericht.py      (BROWSER_SHOTS=/tmp/shots saves screenshots)
"""

from __future__ import annotations

import re
import sys

from harness import Server, login, phone, screenshot

KASSE = "kasse"
YEAR = 2026
BOOKINGS = [
    ("2026-03-01", "ausgabe", "25,00", "bar", "Anschaffung", "Gravur Wanderpokal"),
    ("2026-05-01", "ausgabe", "12,50", "bar", "Anschaffung", "Würfel und Deckel"),
    ("2026-06-01", "einnahme", "50,00", "bank", "Spende", "Sponsor Autohaus"),
    ("2026-11-20", "ausgabe", "60,00", "bank", "Feier", "Anzahlung Weihnachtsfeier"),
]


def book(context, server) -> None:
    page = context.new_page()
    for day, art, betrag, konto, kategorie, text in BOOKINGS:
        page.goto(server.url(f"/verwaltung/saison/{YEAR}/kassenbuch"))
        form = page.locator("form#buchen")
        form.locator("input[name=tag]").fill(day)
        form.locator("select[name=art]").select_option(art)
        form.locator("input[name=betrag]").fill(betrag)
        form.locator("select[name=konto]").select_option(konto)
        form.locator("select[name=kategorie]").select_option(kategorie)
        form.locator("input[name=text]").fill(text)
        with page.expect_navigation():
            form.locator("button[type=submit]").click()
    page.goto(server.url(f"/verwaltung/saison/{YEAR}/kassenbuch"))
    form = page.locator("form#storno")
    form.locator("input[name=grund]").fill("doppelt erfasst")
    with page.expect_navigation():
        form.locator("button[type=submit]").click()
    page.close()


def main() -> int:
    bad: list[str] = []
    probe = Server.demo(accounts={KASSE: "kassenwart"})
    with probe as server, phone(server) as (browser, contexts):
        for scheme, context in contexts.items():
            login(context, server, KASSE)
        book(contexts["light"], server)
        for scheme, context in contexts.items():
            for what in ("kassenbuch", "kassenbericht"):
                page = context.new_page()
                answer = page.goto(server.url(f"/verwaltung/saison/{YEAR}/{what}"))
                if answer is None or answer.status != 200:
                    bad.append(f"{what} ({scheme}): HTTP {answer.status if answer else '?'}")
                    continue
                wide = page.evaluate("document.documentElement.scrollWidth")
                if wide > 360:
                    bad.append(f"{what} ({scheme}): {wide} px breit auf 360 px")
                if what == "kassenbuch":
                    top = page.locator("#bestand").bounding_box()
                    if top is None or top["y"] > 800:
                        bad.append(f"kassenbuch ({scheme}): Bestand nicht oben ({top})")
                screenshot(page, f"{what}-{scheme}")
                page.close()
        page = contexts["light"].new_page()
        page.goto(server.url(f"/verwaltung/saison/{YEAR}/kassenbericht"))
        text = page.inner_text("main")
        if text.count("Kassenprüfer") < 2 or "Kassenwart" not in text:
            bad.append("Kassenbericht: Unterschriftszeilen fehlen")
        if "Stimmt mit dem Jahresabschluss" not in text or "Stimmt: der Endbestand" not in text:
            bad.append(f"Kassenbericht: Probe stimmt nicht: {text}")
        pdf = page.pdf(format="A4", prefer_css_page_size=True)
        pages = len(re.findall(rb"/Type\s*/Page[^s]", pdf))
        if pages != 1:
            bad.append(f"Kassenbericht: {pages} Seiten gedruckt statt einer")
        page.close()
    if bad:
        print("\n".join(bad), file=sys.stderr)
        return 1
    print("Kassenbuch und Kassenbericht: 360 px hell und dunkel, Druck eine A4-Seite")
    return 0


if __name__ == "__main__":
    sys.exit(main())
