#!/usr/bin/env python3
"""A player's Verwaltung page (issue 36.2, 36.3) on a 360 px phone, light and dark: the form
"Zusammenführen mit …" fits the phone (no sideways scrolling, the select and the button on screen);
a merge refused for a shared night shows its reason at the top and keeps the typed reason; the
season page links the player's page. On the small season as 2025 with „Bernd M.“ and as 2026, a
merge through the form leads to Bernd's page with "Trennen", which fits as well and splits. Runs the binary on the demo league; exit 0 all fit, 1 with
each finding, 77 skipped (no browser).

    python3 tests/browser/zusammen.py          # BROWSER_SHOTS=/tmp/shots also saves screenshots
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

from harness import ROOT, Server, login, phone, screenshot

FITS = """() => {
  const vw = document.documentElement.clientWidth;
  const out = {page: document.documentElement.scrollWidth, vw, off: []};
  for (const el of document.querySelectorAll('main select, main button, main input:not([type=hidden])')) {
    const r = el.getBoundingClientRect();
    if (r.right > vw + 1 || r.left < -1) out.off.push(el.outerHTML.slice(0, 80));
  }
  return out;
}"""


def main() -> int:
    findings: list[str] = []
    with Server.demo({"admin": "admin"}) as server, phone(server) as (_, contexts):
        for scheme, context in contexts.items():
            login(context, server, "admin")
            page = context.new_page()
            page.goto(server.url("/verwaltung/saison/2026"))
            if not page.locator("a[href='/verwaltung/spieler/1']").count():
                findings.append(f"{scheme}: die Saisonseite verlinkt die Seite des Spielers nicht")
            page.goto(server.url("/verwaltung/spieler/1"))
            for step in ("seite", "abgelehnt"):
                got = page.evaluate(FITS)
                if got["page"] > got["vw"]:
                    findings.append(f"{scheme} {step}: Seite {got['page']} px breit bei {got['vw']} px")
                for el in got["off"]:
                    findings.append(f"{scheme} {step}: nicht auf dem Schirm: {el}")
                screenshot(page, f"zusammen-{step}-{scheme}")
                if step == "seite":
                    page.select_option("select[name=in]", index=1)
                    page.fill("input[name=grund]", "Probe")
                    with page.expect_navigation():
                        page.click("#zusammenfuehren button[type=submit]")
                    error = page.locator("#fehler")
                    if not error.count() or "Beide haben am" not in error.inner_text():
                        findings.append(f"{scheme}: keine Ablehnung mit dem Abend oben")
                    if page.input_value("input[name=grund]") != "Probe":
                        findings.append(f"{scheme}: der Grund ist nach der Ablehnung weg")
    findings += merged()
    for f in findings:
        print(f, file=sys.stderr)
    return 1 if findings else 0


def two_seasons() -> list[list[str]]:
    """Import commands for the small season as 2025 (Bernd as „Bernd M.“) and as 2026."""
    small = (ROOT / "tests/fixtures/small-2026.season.json").read_text()
    old = (small.replace('"2026-', '"2025-').replace('"season": 2026', '"season": 2025')
           .replace('"Bernd"', '"Bernd M."'))
    folder = Path(tempfile.mkdtemp(prefix="zusammen-"))
    (folder / "2025.json").write_text(old)
    return [["import", str(folder / "2025.json")],
            ["import", str(ROOT / "tests/fixtures/small-2026.season.json")]]


def merged() -> list[str]:
    findings: list[str] = []
    with Server(fill=two_seasons(), accounts={"admin": "admin"}) as server, \
            phone(server) as (_, contexts):
        for scheme, context in contexts.items():
            login(context, server, "admin")
            page = context.new_page()
            page.goto(server.url("/verwaltung/saison/2025"))
            page.click("text=Zusammenführen / Trennen >> nth=1")
            if "Bernd M." not in page.locator("h1").inner_text():
                findings.append(f"{scheme}: nicht die Seite von Bernd M.: {page.url}")
                continue
            page.select_option("select[name=in]", label="Bernd (2026)")
            page.fill("input[name=grund]", "derselbe")
            with page.expect_navigation():
                page.click("#zusammenfuehren button[type=submit]")
            if not page.locator("#trennen").count():
                findings.append(f"{scheme}: nach dem Zusammenführen kein „Trennen“")
                continue
            got = page.evaluate(FITS)
            if got["page"] > got["vw"]:
                findings.append(f"{scheme} trennen: Seite {got['page']} px breit bei {got['vw']} px")
            for el in got["off"]:
                findings.append(f"{scheme} trennen: nicht auf dem Schirm: {el}")
            screenshot(page, f"zusammen-trennen-{scheme}")
            page.fill("#trennen input[name=grund]", "doch zwei")
            with page.expect_navigation():
                page.click("#trennen button[type=submit]")
            if "wieder getrennt" not in page.content():
                findings.append(f"{scheme}: Trennen meldet nichts")
    return findings


if __name__ == "__main__":
    sys.exit(main())
