#!/usr/bin/env python3
"""Who still plays (issue 36.4) where players are offered, on a 360 px phone, light and dark: the
Nachzügler select of a drawn night and the public page of a planned night ("Kommen", "Wer bist
du?") fit the phone (no sideways scrolling, every select and button on screen), with the
pausiert/ausgetreten players in their own group; and a merge into an unknown player (issue 36.2)
shows its reason at the top of the form. The small season 2026 with Bernd pausiert and Carla
ausgetreten. Exit 0 all fit, 1 with each finding, 77 skipped (no browser).

    python3 tests/browser/spielt.py          # BROWSER_SHOTS=/tmp/shots also saves screenshots
"""

from __future__ import annotations

import secrets
import sys

from harness import ROOT, Server, login, phone, screenshot

FITS = """() => {
  const vw = document.documentElement.clientWidth;
  const out = {page: document.documentElement.scrollWidth, vw, off: []};
  for (const el of document.querySelectorAll('main select, main button, main input:not([type=hidden])')) {
    const r = el.getBoundingClientRect();
    if (r.width && (r.right > vw + 1 || r.left < -1)) out.off.push(el.outerHTML.slice(0, 80));
  }
  return out;
}"""


def post(context, server: Server, path: str, form: dict[str, str]) -> None:
    """Sends `form` to `path` as the logged-in account of `context` (a fresh `einmal`)."""
    r = context.request.post(
        server.url(path), form={**form, "einmal": secrets.token_hex(16)},
        headers={"Origin": server.base, "Sec-Fetch-Site": "same-origin"}, max_redirects=0)
    if r.status not in (200, 303):
        raise RuntimeError(f"{path}: {r.status} {r.text()[:300]}")


def check(page, findings: list[str], what: str) -> None:
    got = page.evaluate(FITS)
    if got["page"] > got["vw"]:
        findings.append(f"{what}: Seite {got['page']} px breit bei {got['vw']} px")
    for el in got["off"]:
        findings.append(f"{what}: nicht auf dem Schirm: {el}")
    screenshot(page, what)


def main() -> int:
    findings: list[str] = []
    fill = [["import", str(ROOT / "tests/fixtures/small-2026.season.json")]]
    with Server(fill=fill, accounts={"admin": "admin"}) as server, \
            phone(server) as (_, contexts):
        for n, (scheme, context) in enumerate(contexts.items()):
            login(context, server, "admin")
            if n == 0:
                post(context, server, "/verwaltung/saison/2026/spieler/2/status",
                     {"status": "pausiert", "day": ""})
                post(context, server, "/verwaltung/saison/2026/spieler/3/status",
                     {"status": "ausgetreten", "day": "2026-03-01"})
                post(context, server, "/verwaltung/termine",
                     {"datum": "2027-01-08", "zeit": "20:00", "ort": "Krug", "hinweis": ""})
            page = context.new_page()
            # The last night of the fixture, drawn: who is not drawn is offered as Nachzügler.
            page.goto(server.url("/verwaltung/abend/2026-12-25"))
            if not page.locator("#nachzuegler").count():
                findings.append(f"{scheme}: keine Nachzügler am 25.12.2026")
            elif not page.locator("select[name=player] optgroup").count():
                findings.append(f"{scheme}: Nachzügler ohne Gruppe „Pausiert / ausgetreten“")
            check(page, findings, f"spielt-abend-{scheme}")
            page.goto(server.url("/abend/2027-01-08"))
            if not page.locator("#spieler optgroup").count():
                findings.append(f"{scheme}: „Wer bist du?“ ohne Gruppe „Pausiert / ausgetreten“")
            check(page, findings, f"spielt-termin-{scheme}")
            page.goto(server.url("/verwaltung/spieler/1"))
            page.evaluate("() => { const s = document.querySelector('select[name=in]');"
                          " const o = document.createElement('option'); o.value = '99999';"
                          " o.text = 'x'; s.add(o); s.value = '99999'; }")
            page.fill("#zusammenfuehren input[name=grund]", "Probe")
            with page.expect_navigation():
                page.click("#zusammenfuehren button[type=submit]")
            error = page.locator("#fehler")
            if not error.count() or "gibt es nicht" not in error.inner_text():
                findings.append(f"{scheme}: keine Ablehnung für Spieler Nr. 99999 oben")
            check(page, findings, f"spielt-zusammen-{scheme}")
    for f in findings:
        print(f, file=sys.stderr)
    return 1 if findings else 0


if __name__ == "__main__":
    sys.exit(main())
