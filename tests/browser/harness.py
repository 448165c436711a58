"""A small harness for browser checks of Schockerliga pages (tests/browser/).

It starts the `schockerliga` binary on a fresh database in a temporary directory, gives Playwright
contexts of a 360 px phone in light or dark colours (Debian's /usr/bin/chromium, no browser
download), and logs in. A check script imports it:

    from harness import Server, phone, login, skip
    with Server.demo() as server, phone(server) as (browser, contexts):
        ...

Which binary: $SCHOCKERLIGA_BIN, else $CARGO_TARGET_DIR (or ./target)/{release,debug}/schockerliga,
the newer of the two. When the browser or Playwright is missing, `skip(why)` prints the reason
and exits 77 (the exit code `.ci/run` reads as "skipped").
"""

from __future__ import annotations

import contextlib
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SKIPPED = 77
PHONE = {"width": 360, "height": 800}
PASSWORD = "browser-test-passwort"


def skip(why: str) -> None:
    """Says why the browser checks cannot run, and exits with SKIPPED."""
    print(f"ÜBERSPRUNGEN: {why}", file=sys.stderr)
    sys.exit(SKIPPED)


def binary() -> Path:
    """The schockerliga binary to test (see the module text)."""
    if os.environ.get("SCHOCKERLIGA_BIN"):
        return Path(os.environ["SCHOCKERLIGA_BIN"])
    target = Path(os.environ.get("CARGO_TARGET_DIR", ROOT / "target"))
    found = [target / p / "schockerliga" for p in ("release", "debug")]
    found = [p for p in found if p.exists()]
    if not found:
        raise SystemExit(f"kein schockerliga-Programm unter {target}: erst `cargo build` ausführen")
    return max(found, key=lambda p: p.stat().st_mtime)


def chromium() -> str:
    """The path of the system's Chromium, or a skip when there is none."""
    for name in ("chromium", "chromium-browser", "google-chrome"):
        path = shutil.which(name)
        if path:
            return path
    skip("kein Chromium installiert (apt-get install chromium)")
    return ""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    """The binary serving a fresh database on a free local port; `url(path)` gives addresses."""

    def __init__(self, fill: list[list[str]] | None = None, accounts: dict[str, str] | None = None):
        self.dir = Path(tempfile.mkdtemp(prefix="schockerliga-browser-"))
        self.db = self.dir / "liga.db"
        self.bin = binary()
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.process: subprocess.Popen | None = None
        for args in fill or []:
            self.run(*args)
        for name, role in (accounts or {}).items():
            self.run("user", "add", name, "--role", role, stdin=PASSWORD + "\n")

    @classmethod
    def demo(cls, accounts: dict[str, str] | None = None) -> "Server":
        """A server on the demo league (`schockerliga demo`), with `accounts` (name → role)."""
        return cls(fill=[["demo"]], accounts=accounts)

    def run(self, *args: str, stdin: str | None = None) -> str:
        """Runs the binary on this database with `args`; its stdout, or an error with stderr."""
        done = subprocess.run(
            [str(self.bin), "--database", str(self.db), *args],
            input=stdin, capture_output=True, text=True, timeout=300,
        )
        if done.returncode != 0:
            raise RuntimeError(f"schockerliga {' '.join(args)}: {done.stderr.strip()}")
        return done.stdout

    def url(self, path: str) -> str:
        return self.base + path

    def __enter__(self) -> "Server":
        self.log = open(self.dir / "server.log", "w")
        self.process = subprocess.Popen(
            [str(self.bin), "--database", str(self.db), "--listen", f"127.0.0.1:{self.port}"],
            stdout=self.log, stderr=subprocess.STDOUT,
        )
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"Server beendet: {(self.dir / 'server.log').read_text()}")
            try:
                urllib.request.urlopen(self.url("/"), timeout=2)
                return self
            except OSError:
                time.sleep(0.2)
        raise RuntimeError("Server antwortet nicht binnen 60 s")

    def __exit__(self, *exc) -> None:
        if self.process:
            self.process.terminate()
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.process.kill()
        self.log.close()
        shutil.rmtree(self.dir, ignore_errors=True)


@contextlib.contextmanager
def phone(server: Server, schemes=("light", "dark")):
    """Yields (browser, {scheme: context}): one 360×800 phone context per colour scheme."""
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        skip("Playwright fehlt (pip install playwright)")
    path = chromium()
    with sync_playwright() as p:
        browser = p.chromium.launch(
            executable_path=path,
            args=["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update", "--disable-sync"],
        )
        contexts = {
            s: browser.new_context(viewport=PHONE, color_scheme=s, device_scale_factor=1,
                                   has_touch=True, is_mobile=True)
            for s in schemes
        }
        try:
            yield browser, contexts
        finally:
            browser.close()


def login(context, server: Server, name: str) -> None:
    """Logs `name` (password PASSWORD) in within `context` through the login form."""
    page = context.new_page()
    page.goto(server.url("/login"))
    page.fill("input[name=username]", name)
    page.fill("input[name=password]", PASSWORD)
    # The login form's own button (the navigation's "Abmelden" is a submit button too, folded
    # into the account menu when an account is logged in already).
    with page.expect_navigation():
        page.click("main form[action='/login'] button[type=submit]")
    if "/login" in page.url and page.locator(".error").count():
        raise RuntimeError(f"Anmeldung von {name}: {page.locator('.error').first.inner_text()}")
    page.close()


def screenshot(page, name: str) -> None:
    """Saves a full-page PNG under $BROWSER_SHOTS (when set), e.g. for a look by eye."""
    shots = os.environ.get("BROWSER_SHOTS")
    if shots:
        Path(shots).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(shots) / f"{name}.png"), full_page=True)
