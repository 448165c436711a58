#!/usr/bin/env python3
"""The printed Spielberichtsbogen fills its A4 page (issue 21.12: a 7-player table had 6 × 4 mm
cells and left half the page empty; issue 31.11: tables of 4 to 6 printed on two pages): for
tables of 2 to 10 players, printed (Chromium's PDF,
A4), each table is one page, its rounds use at least 80 % of the page's height, and a cell is at
least 4.8 mm high. Exit 0 all fit, 1 with what does not, 77 skipped (no browser).

    python3 tests/browser/bogen.py
"""

from __future__ import annotations

import json
import re
import sys

from harness import Server, login, phone

SECRETARY = "schrift"
MM = 96 / 25.4  # CSS px per mm
PAGE_MM = 297 - 2 * 10  # A4 without the Bogen's 10 mm margins
MIN_CELL_MM = 4.8  # 10 players × 10 rounds on one page leave no more

NAMES = ["Anna", "Bernd", "Carla", "Dirk", "Elke", "Frank", "Gabi", "Hans", "Ilse", "Jörg",
         "Karl", "Lena", "Mia", "Nils", "Olga", "Paul", "Rita", "Sven", "Tina", "Uwe"]
# (date, players at table 1, players at table 2)
NIGHTS = [("2026-01-09", 7, 3), ("2026-01-16", 10, 10), ("2026-01-23", 9, 9), ("2026-01-30", 8, 8),
          ("2026-02-06", 2, 0), ("2026-02-13", 4, 0), ("2026-02-20", 5, 0), ("2026-02-27", 6, 0),
          ("2026-03-06", 9, 0)]


def season_file(path) -> None:
    nights = []
    for date, one, two in NIGHTS:
        draw = [{"player": n, "table": 1} for n in NAMES[:one]]
        draw += [{"player": n, "table": 2} for n in NAMES[one:one + two]]
        nights.append({"date": date, "draw": draw})
    path.write_text(json.dumps({
        "format": "schockerliga-season/1", "season": 2026,
        "players": [{"name": n} for n in NAMES], "nights": nights,
    }))


def main() -> int:
    bad: list[str] = []
    checked = 0
    probe = Server(accounts={SECRETARY: "secretary"})
    season_file(probe.dir / "saison.json")
    probe.run("import", str(probe.dir / "saison.json"))
    with probe as server, phone(server, schemes=("light",)) as (browser, contexts):
        context = contexts["light"]
        login(context, server, SECRETARY)
        for date, one, two in NIGHTS:
            page = context.new_page()
            page.goto(server.url(f"/verwaltung/abend/{date}/bogen"))
            page.emulate_media(media="print")
            page.set_viewport_size({"width": round(190 * MM), "height": round(PAGE_MM * MM)})
            sections = page.evaluate("""() => [...document.querySelectorAll('section.bogen-seite')]
              .map(s => ({players: s.querySelector('table.bogen tbody').rows.length,
                          // what the page holds: the section with the margins above it
                          // (kept at the top of a page after a forced break)
                          height: s.getBoundingClientRect().height
                            + parseFloat(getComputedStyle(s).marginTop)
                            + parseFloat(getComputedStyle(s.querySelector('h1')).marginTop),
                          cell: s.querySelector('table.bogen tbody td').getBoundingClientRect().height}))""")
            for s in sections:
                checked += 1
                where = f"Bogen {date}, Tisch mit {s['players']} Spielern"
                height, cell = s["height"] / MM, s["cell"] / MM
                if height > PAGE_MM:
                    bad.append(f"{where}: {height:.0f} mm hoch, die Seite hat {PAGE_MM} mm")
                elif height < 0.8 * PAGE_MM:
                    bad.append(f"{where}: nur {height:.0f} mm von {PAGE_MM} mm genutzt")
                if cell < MIN_CELL_MM:
                    bad.append(f"{where}: Zellen {cell:.1f} mm hoch (mindestens {MIN_CELL_MM} mm)")
            pdf = page.pdf(format="A4", prefer_css_page_size=True)
            pages = len(re.findall(rb"/Type\s*/Page[^s]", pdf))
            if pages != len(sections):
                bad.append(f"Bogen {date}: {pages} Seiten gedruckt für {len(sections)} Tische")
            page.close()
    if bad:
        print("\n".join(bad), file=sys.stderr)
        return 1
    print(f"Spielberichtsbogen: {checked} Tische geprüft, je eine gefüllte A4-Seite")
    return 0


if __name__ == "__main__":
    sys.exit(main())
