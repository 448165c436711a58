#!/usr/bin/env python3
"""Issue 36.1 and 36.4 at 360 px, light and dark: the suggested doubles
(/verwaltung/spieler/doppelte), the season page with its status forms, a night's attendance list
and the Termine with a paused and a departed player folded. Each page fits the phone (no sideways
scrolling), its folded lists open without script, and the active players come first. Exit 0 all
fit, 1 with each finding, 77 skipped (no browser).

    python3 tests/browser/doppelte.py        # BROWSER_SHOTS=/tmp/shots also saves screenshots
"""

from __future__ import annotations

import json
import sys
import tempfile
from pathlib import Path

from harness import Server, login, phone, screenshot

NAMES_2025 = ["Jürgen", "Klaus", "Peter", "Petra", "Bernd", "Hans-Joachim Wilhelm-Friedrich"]
NAMES_2026 = ["Juergen", "Jürgen M.", "Klaus jun.", "Brend", "Anna", "Zoe", "ulla", "Özil", "Otto",
              "Hans-Joachim Wilhelm-Friedrich"]


def season(year: int, names: list[str], nights: list[dict]) -> dict:
    return {"format": "schockerliga-season/1", "season": year,
            "players": [{"name": n} for n in names], "nights": nights}


def files() -> list[Path]:
    d = Path(tempfile.mkdtemp(prefix="doppelte-"))
    t25 = [{"player": p, "rounds": 1, "outs": 0, "lost": int(i == 0)}
           for i, p in enumerate(["Peter", "Petra", "Jürgen"])]
    out = []
    for year, names, nights in [
        (2025, NAMES_2025, [{"date": "2025-03-07", "totals": t25}]),
        (2026, NAMES_2026, [{"date": "2026-11-27"}]),
    ]:
        f = d / f"{year}.json"
        f.write_text(json.dumps(season(year, names, nights)), encoding="utf-8")
        out.append(f)
    return out


FITS = """() => ({page: document.documentElement.scrollWidth, vw: document.documentElement.clientWidth})"""


def fits(page, where: str) -> list[str]:
    m = page.evaluate(FITS)
    return [] if m["page"] <= m["vw"] else [f"{where}: {m['page']} px breit bei {m['vw']} px"]


def main() -> int:
    problems: list[str] = []
    fill = [["import", str(f)] for f in files()]
    with Server(fill=fill, accounts={"sekretaer": "secretary"}) as server, phone(server) as (_, contexts):
        for scheme, context in contexts.items():
            login(context, server, "sekretaer")
            page = context.new_page()
            page.goto(server.url("/verwaltung/spieler/doppelte"))
            pairs = page.locator("li.paar").count()
            if pairs < 4:
                problems.append(f"{scheme}: nur {pairs} Paare")
            page.locator("#getrennte-paare summary").click()
            if "nicht dieselbe Person (beide am 07.03.2025)" not in page.content():
                problems.append(f"{scheme}: Peter/Petra nicht als zwei Personen")
            problems += fits(page, f"{scheme} doppelte")
            screenshot(page, f"doppelte-{scheme}")
            if scheme == "light":
                # Otto pausiert, Zoe ausgetreten (through the season page's forms, no script).
                page.goto(server.url("/verwaltung/saison/2026"))
                for name, kind, day in [("Otto", "pausiert", ""), ("Zoe", "ausgetreten", "2026-06-30")]:
                    box = page.locator(f"div.player-admin:has(h3:text-is('{name} · Beitrag offen'))")
                    if box.count() == 0:
                        box = page.locator("div.player-admin", has_text=name).first
                    box.locator("details.status summary").click()
                    box.locator("select[name=status]").select_option(kind)
                    if day:
                        box.locator("input[name=day]").fill(day)
                    with page.expect_navigation():
                        box.locator("details.status button[type=submit]").click()
                page.goto(server.url("/verwaltung/termine"))
                page.fill("input[name=datum]", "2026-12-18")
                with page.expect_navigation():
                    page.locator("form[action='/verwaltung/termine'] button[type=submit]").first.click()
            page.goto(server.url("/verwaltung/saison/2026"))
            problems += fits(page, f"{scheme} saison")
            screenshot(page, f"saison-{scheme}")
            page.goto(server.url("/verwaltung/abend/2026-11-27"))
            page.locator("details#pausiert summary").click()
            labels = [t.strip() for t in page.locator("#teilnehmer ~ form ul.checklist li").all_inner_texts()]
            want = ["Anna", "Brend", "Hans-Joachim Wilhelm-Friedrich", "Juergen", "Jürgen M.",
                    "Klaus jun.", "Özil", "ulla", "Otto", "Zoe"]
            if labels != want:
                problems.append(f"{scheme}: Anwesend in der Reihenfolge {labels}")
            problems += fits(page, f"{scheme} abend")
            screenshot(page, f"abend-{scheme}")
            page.goto(server.url("/verwaltung/termine"))
            problems += fits(page, f"{scheme} termine")
            screenshot(page, f"termine-{scheme}")
            page.close()
    for p in problems:
        print(p)
    print("doppelte.py:", "OK" if not problems else f"{len(problems)} Befunde")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
