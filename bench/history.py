#!/usr/bin/env python3
"""The long-history benchmark's measuring part (bench/history.sh starts the server).

Usage: history.py BASE SEASON_JSON COOKIE YEAR WRITES TIMEOUT_S

For each of WRITES writes: one round of the current season's last night is stored through the
JSON round API (If-Match: *), then the seven pages a bar reloads are read at once, each on its own
connection (table, player page, career, ewige Tabelle, Rekorde, Kasse, Jahresabschluss), while
one more connection reads the light page /static/style.css again and again. Prints one JSON
object: per page the first-read times after each write (ms), the light page's latencies during
the reads (p50, p99, max, count), the write times, and how many answers were not 200 or took
longer than TIMEOUT_S.
"""
import http.client
import json
import statistics
import sys
import threading
import time
import urllib.parse

base, season_json, cookie, year, writes, timeout_s = sys.argv[1:7]
year, writes, timeout_s = int(year), int(writes), float(timeout_s)
url = urllib.parse.urlparse(base)

PAGES = {
    "Tabelle": "/",
    "Spielerseite": f"/saison/{year}/spieler/1",
    "Karriere": "/spieler/1",
    "Ewige Tabelle": "/ewige-tabelle",
    "Rekorde": "/rekorde",
    "Kasse": f"/saison/{year}/kasse",
    "Jahresabschluss": f"/saison/{year}/abschluss",
}
LIGHT = "/static/style.css"


def conn():
    return http.client.HTTPConnection(url.hostname, url.port, timeout=timeout_s * 3)


def get(c, path, headers=None):
    start = time.perf_counter()
    c.request("GET", path, headers=headers or {})
    r = c.getresponse()
    r.read()
    return r.status, (time.perf_counter() - start) * 1000


season = json.load(open(season_json))
night = max(season["nights"], key=lambda n: n["date"])
table = next(t for t in night["tables"] if t["rounds"])
players = [r["player"] for r in table["rounds"][0]["results"]]

results = {name: [] for name in PAGES}
light = []
write_ms = []
bad = []
slow = []

for w in range(writes):
    rows = [
        {"player": p, "outs": (i + w) % 3, "hand_outs": 0, "julen": 0, "joker": False,
         "lost": i == (w % len(players))}
        for i, p in enumerate(players)
    ]
    body = json.dumps({"results": rows})
    c = conn()
    start = time.perf_counter()
    c.request("POST", f"/api/v1/nights/{night['date']}/tables/{table['number']}/rounds/{1 + w % 5}",
              body=body, headers={"Content-Type": "application/json", "Cookie": cookie,
                                  "If-Match": "*"})
    r = c.getresponse()
    r.read()
    write_ms.append((time.perf_counter() - start) * 1000)
    if r.status not in (200, 201):
        bad.append(("POST", r.status))
    c.close()

    # The light page on its own connection, warmed, while the seven render.
    done = threading.Event()
    lc = conn()
    get(lc, LIGHT)

    def light_loop():
        while not done.is_set():
            status, ms = get(lc, LIGHT)
            light.append(ms)
            if status != 200:
                bad.append((LIGHT, status))
            time.sleep(0.002)

    lt = threading.Thread(target=light_loop)
    conns = {name: conn() for name in PAGES}
    for c in conns.values():
        c.connect()
    barrier = threading.Barrier(len(PAGES))

    def read(name):
        barrier.wait()
        status, ms = get(conns[name], PAGES[name])
        results[name].append(ms)
        if status != 200:
            bad.append((PAGES[name], status))
        if ms > timeout_s * 1000:
            slow.append((PAGES[name], ms))

    lt.start()
    threads = [threading.Thread(target=read, args=(n,)) for n in PAGES]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    done.set()
    lt.join()
    for c in conns.values():
        c.close()
    lc.close()


def pct(values, p):
    if not values:
        return 0.0
    s = sorted(values)
    return s[min(len(s) - 1, int(round(p / 100 * (len(s) - 1))))]


print(json.dumps({
    "pages": {n: {"median": statistics.median(v), "max": max(v), "all": [round(x, 1) for x in v]}
              for n, v in results.items()},
    "light": {"p50": pct(light, 50), "p99": pct(light, 99), "max": max(light or [0]),
              "count": len(light)},
    "writes": {"median": statistics.median(write_ms), "max": max(write_ms)},
    "bad": bad,
    "slow": slow,
}))
