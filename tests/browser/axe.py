#!/usr/bin/env python3
"""Accessibility beyond Lighthouse (issue 31.13): axe-core (npm, tests/browser/package.json),
injected by Playwright, on every kind of page at 360 px, light and dark: 0 violations of all of
axe's rules (WCAG 2.0, 2.1 and 2.2 A and AA, and its best practices). The pages: table, player, career, ewige Tabelle, nights, night, live
board, report, login, Kasse, Jahresabschluss, rules, Schiedsrichter (with a verdict), the calendar,
a player's card, the scorer page of a table, and the Verwaltung's night, Bogen, Termine, season,
Kasse, Strafen, Zahlungen, Konten, Einstellungen, Protokoll, Sicherung, Einlesen and Passwort.
Runs the binary on the demo league with a night started today; exit 0 none, 1 with each page,
rule and element, 77 skipped (no browser or no axe-core: `npm ci --prefix tests/browser`).

    python3 tests/browser/axe.py             # BROWSER_SHOTS=/tmp/shots also saves screenshots
"""

from __future__ import annotations

import datetime
import json
import sys
from pathlib import Path
from zoneinfo import ZoneInfo

from harness import PASSWORD, PHONE, Server, chromium, screenshot, skip

AXE = Path(__file__).resolve().parent / "node_modules" / "axe-core" / "axe.min.js"
# The rules: all of axe's (an empty list), or only those of these tags (e.g. ["wcag2aa"]).
TAGS: list[str] = []
YEAR = 2026
ACCOUNTS = {"admin": "admin", "schrift": "secretary", "kasse": "kassenwart"}
TODAY = datetime.datetime.now(ZoneInfo("Europe/Berlin")).date().isoformat()

# (who: None = anybody, or an account; path). `{today}`, `{night}`, `{card}` and `{scorer}` are
# filled in once the night is started and the links are made.
PAGES = [
    (None, "/"),
    (None, f"/saison/{YEAR}"),
    (None, f"/saison/{YEAR}/spieler/1"),
    (None, "/spieler/1"),
    (None, "/ewige-tabelle"),
    (None, "/ehrentafel"),
    (None, "/rekorde"),
    (None, f"/saison/{YEAR}/szenario"),
    (None, f"/spieler/1/rueckblick/{YEAR}"),
    (None, f"/saison/{YEAR}/abende"),
    (None, "/abend/{night}"),
    (None, "/abend/{night}/bericht"),
    (None, "/live/{today}"),
    (None, "/login"),
    (None, f"/saison/{YEAR}/kasse"),
    (None, f"/saison/{YEAR}/abschluss"),
    (None, "/regeln"),
    (None, "/schiedsrichter"),
    (None, "/schiedsrichter?regeln=schockerliga&n1=Anna&m1=w&d1_1=1&d1_2=1&d1_3=1&z1=3"
           "&n2=Bernd&m2=w&d2_1=4&d2_2=2&d2_3=1&z2=1"),
    # a question the referee refuses (422): the page with its reasons beside the fields
    (None, "/schiedsrichter?regeln=schockerliga&n1=Anna&m1=w&d1_1=4&d1_2=2&d1_3=1"),
    (None, "/kalender"),
    (None, "{card}"),
    (None, "{scorer}"),
    ("schrift", "/verwaltung"),
    ("schrift", "/verwaltung/abend/{today}"),
    ("schrift", "/verwaltung/abend/{night}"),
    ("schrift", "/verwaltung/abend/{today}/bogen"),
    ("schrift", "/verwaltung/termine"),
    ("schrift", "/verwaltung/termine/serie"),
    ("schrift", f"/verwaltung/termine/serie?von={YEAR + 1}-01-08&bis={YEAR + 1}-11-26"
                "&rhythmus=1.+Freitag&zeit=19%3A30&ort=Zum+Anker&ausser="),
    ("schrift", f"/verwaltung/saison/{YEAR}"),
    ("schrift", "/verwaltung/einlesen"),
    ("kasse", "/verwaltung/kasse"),
    ("kasse", f"/verwaltung/saison/{YEAR}/strafen"),
    ("kasse", f"/verwaltung/saison/{YEAR}/zahlungen"),
    ("kasse", f"/verwaltung/saison/{YEAR}/kassenbuch"),
    ("kasse", f"/verwaltung/saison/{YEAR}/kassenbericht"),
    ("admin", "/verwaltung/spieler/doppelte"),
    ("admin", "/verwaltung/konten"),
    ("admin", "/verwaltung/einstellungen"),
    ("admin", "/verwaltung/protokoll"),
    ("admin", "/verwaltung/sicherung"),
    ("admin", "/verwaltung/passwort"),
]


def log_in(context, server: Server, name: str) -> None:
    page = context.new_page()
    page.goto(server.url("/login"))
    page.fill("input[name=username]", name)
    page.fill("input[name=password]", PASSWORD)
    with page.expect_navigation():
        page.click("main button[type=submit]")
    page.close()


def start_tonight(context, server: Server) -> None:
    """The secretary starts today's planned night with the first four players (one table)."""
    page = context.new_page()
    page.goto(server.url("/verwaltung/termine"))
    with page.expect_navigation():
        page.click("form[action$='/beginnen'] button")
    boxes = page.locator(f"form[action='/verwaltung/abend/{TODAY}/teilnehmer'] input[type=checkbox]")
    for i in range(4):
        boxes.nth(i).check()
    with page.expect_navigation():
        page.click(f"form[action='/verwaltung/abend/{TODAY}/teilnehmer'] button[type=submit]")
    page.close()


def audit(page) -> list[dict]:
    page.add_script_tag(path=str(AXE))
    return page.evaluate(
        """async (tags) => {
          const r = await axe.run(document, tags.length ? {runOnly: {type: "tag", values: tags}} : {});
          return r.violations.map(v => ({id: v.id, help: v.help,
            nodes: v.nodes.slice(0, 3).map(n => n.target.join(' ') + ': ' + n.failureSummary.split('\\n').slice(1, 2).join(''))}));
        }""",
        TAGS,
    )


def main() -> int:
    if not AXE.exists():
        skip(f"axe-core fehlt ({AXE}): npm ci --prefix tests/browser")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        skip("Playwright fehlt (pip install playwright)")
    path = chromium()
    bad: list[str] = []
    checked = 0
    with Server.demo(accounts=ACCOUNTS) as server:
        server.run("night", "plan", TODAY, "--time", "19:30", "--place", "Zum Anker")
        with sync_playwright() as p:
            browser = p.chromium.launch(
                executable_path=path,
                args=["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                      "--disable-background-networking", "--disable-component-update",
                      "--disable-sync"],
            )
            setup = browser.new_context(viewport=PHONE)
            log_in(setup, server, "schrift")
            start_tonight(setup, server)
            setup.close()
            fill = {
                "today": TODAY,
                # A night of the demo that was played (the newest before today).
                "night": json.loads(server.run("standings", str(YEAR), "--json"))["as_of"],
                "card": server.run("player", "link", "Anna").strip().split()[-1],
                "scorer": server.run("night", "link", TODAY, "1").strip().split()[-1],
            }
            for k in ("card", "scorer"):
                if "://" in fill[k]:
                    fill[k] = "/" + fill[k].split("://", 1)[1].split("/", 1)[1]
            for scheme in ("light", "dark"):
                contexts = {}
                for who, raw in PAGES:
                    if who not in contexts:
                        contexts[who] = browser.new_context(
                            viewport=PHONE, color_scheme=scheme, device_scale_factor=1,
                            has_touch=True, is_mobile=True, bypass_csp=True)
                        if who:
                            log_in(contexts[who], server, who)
                    path_ = raw.format(**fill)
                    page = contexts[who].new_page()
                    response = page.goto(server.url(path_))
                    where = f"{path_} ({scheme}{', ' + who if who else ''})"
                    refused = "d1_1=4&d1_2=2&d1_3=1" in path_ and "n2=" not in path_
                    if response is None or (response.status >= 400 and not refused):
                        bad.append(f"{where}: HTTP {response.status if response else '?'}")
                    for v in audit(page):
                        bad.append(f"{where}: {v['id']} – {v['help']}: " + " | ".join(v["nodes"]))
                    screenshot(page, f"axe-{path_.strip('/').replace('/', '-')[:60] or 'start'}-{scheme}")
                    page.close()
                    checked += 1
                for c in contexts.values():
                    c.close()
            browser.close()
    if bad:
        print("\n".join(bad), file=sys.stderr)
        print(f"{len(bad)} Verstöße in {checked} Seiten", file=sys.stderr)
        return 1
    print(f"axe-core ({', '.join(TAGS) or 'alle Regeln'}): {checked} Seiten bei 360 px, hell und dunkel, 0 Verstöße")
    return 0


if __name__ == "__main__":
    sys.exit(main())
