#!/usr/bin/env python3
"""Copies off the machine on a phone (issue 37): the server with `--backup-dir` and a
`--backup-remote` that fails (a WebDAV remote on a port of 127.0.0.1 nobody listens on), then one
that works (rclone's local backend). At 360 px in light and dark: the warning with rclone's long
message (addresses without a space in them) is on every Verwaltung page and fits without
sideways scrolling; the Sicherung page shows the target, the failure, and once out the day
"außer Haus geprüft am …" per copy, all fitting. Runs the binary on the demo league; exit 0 all
fit, 1 with each page and finding, 77 skipped (no browser or no rclone).

    python3 tests/browser/sicherung.py          # BROWSER_SHOTS=/tmp/shots also saves screenshots
"""

from __future__ import annotations

import json
import os
import shutil
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

from harness import Server, login, phone, screenshot, skip

PAGES = ("/verwaltung", "/verwaltung/sicherung")


def remote_state(server: Server) -> dict:
    """The `remote` of `GET /api/v1/status`."""
    with urllib.request.urlopen(server.url("/api/v1/status"), timeout=10) as r:
        return json.load(r).get("remote") or {}


def wait_for(server: Server, what: str, done) -> None:
    """Waits (at most 60 s) until the status's `remote` satisfies `done`."""
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if done(remote_state(server)):
            return
        time.sleep(0.2)
    raise RuntimeError(f"{what}: {remote_state(server)}")


def check(contexts: dict, server: Server, name: str, must: dict[str, list[str]]) -> list[str]:
    """Each of PAGES in each scheme: no sideways scrolling, and the texts `must[path]` shown."""
    bad = []
    for scheme, context in contexts.items():
        page = context.new_page()
        for path in PAGES:
            page.goto(server.url(path))
            width = page.evaluate(
                "[document.documentElement.scrollWidth, document.documentElement.clientWidth]")
            if width[0] > width[1]:
                bad.append(f"{name} {path} ({scheme}): {width[0]} px breit bei {width[1]} px")
            text = page.inner_text("body")
            for want in must.get(path, []):
                if want not in text:
                    bad.append(f"{name} {path} ({scheme}): „{want}“ fehlt")
            screenshot(page, f"sicherung-{name}{path.replace('/', '-')}-{scheme}")
        page.close()
    return bad


def main() -> int:
    if not shutil.which("rclone"):
        skip("rclone fehlt (apt-get install rclone)")
    tmp = Path(tempfile.mkdtemp(prefix="schockerliga-remote-"))
    bad: list[str] = []
    try:
        # Remotes from the environment only (no rclone configuration file of the machine).
        os.environ["RCLONE_CONFIG"] = str(tmp / "keine.conf")
        os.environ["RCLONE_CONFIG_DAV_TYPE"] = "webdav"
        os.environ["RCLONE_CONFIG_DAV_URL"] = "http://127.0.0.1:9/"
        os.environ["RCLONE_CONFIG_LOKAL_TYPE"] = "local"
        os.environ["SCHOCKERLIGA_BACKUP_DIR"] = str(tmp / "sicherungen-aus")
        os.environ["SCHOCKERLIGA_BACKUP_REMOTE"] = "dav:schockerliga/sicherungen"
        with Server.demo(accounts={"admin": "admin"}) as server, \
                phone(server) as (_, contexts):
            for context in contexts.values():
                login(context, server, "admin")
            wait_for(server, "Fehlschlag gemeldet", lambda r: r.get("ok") is False)
            warn = "Die Sicherung außer Haus ist fehlgeschlagen"
            bad += check(contexts, server, "fehlschlag", {
                "/verwaltung": [warn],
                "/verwaltung/sicherung": [warn, "Außer Haus", "dav:schockerliga/sicherungen",
                                          "Noch keine Kopie außer Haus geprüft"],
            })
        outside = tmp / "aussen" / "ein" / "recht" / "langer" / "pfad" / "zum" / "ziel"
        os.environ["SCHOCKERLIGA_BACKUP_DIR"] = str(tmp / "sicherungen")
        os.environ["SCHOCKERLIGA_BACKUP_REMOTE"] = f"lokal:{outside}"
        with Server.demo(accounts={"admin": "admin"}) as server, \
                phone(server) as (_, contexts):
            for context in contexts.values():
                login(context, server, "admin")
            wait_for(server, "Kopie außer Haus", lambda r: r.get("ok") is True and r.get("last"))
            bad += check(contexts, server, "draussen", {
                "/verwaltung/sicherung": ["Zuletzt außer Haus geprüft am",
                                          "außer Haus geprüft am"],
            })
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    if bad:
        print("\n".join(bad), file=sys.stderr)
        return 1
    print("Sicherung außer Haus (360 px, hell und dunkel): Fehlschlag und geprüfte Kopie passen")
    return 0


if __name__ == "__main__":
    sys.exit(main())
