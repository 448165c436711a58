#!/usr/bin/env python3
"""Slow and idle clients against a running server (issue 15.2), driven by bench/faults.sh.

  faults.py attack HOST PORT IDLE SLOW SECONDS
      keeps IDLE connections open that send nothing and SLOW connections that send half a request
      head and then one header byte every 2 s (slowloris), reopening each one the server closes,
      for SECONDS; prints how many the server closed (by its timeouts).
  faults.py measure HOST PORT PATH N [PAUSE_MS]
      N sequential GETs of PATH, each on a fresh connection (a phone opening the table), PAUSE_MS
      apart; prints p50, p99 and max in ms and the failures.
"""
import asyncio
import http.client
import sys
import time


async def hold(host, port, slow, stop_at, counts):
    while time.monotonic() < stop_at:
        try:
            reader, writer = await asyncio.open_connection(host, port)
        except OSError:
            counts["refused"] += 1
            await asyncio.sleep(0.5)
            continue
        counts["opened"] += 1
        try:
            if slow:
                writer.write(b"GET / HTTP/1.1\r\nHost: x\r\nX-Slow: ")
                await writer.drain()
            while time.monotonic() < stop_at:
                if slow:
                    writer.write(b"a")
                    await writer.drain()
                try:
                    data = await asyncio.wait_for(reader.read(4096), timeout=2.0)
                except asyncio.TimeoutError:
                    continue
                if not data:
                    counts["closed_by_server"] += 1
                    break
        except (ConnectionError, OSError):
            counts["closed_by_server"] += 1
        finally:
            writer.close()


async def attack(host, port, idle, slow, seconds):
    stop_at = time.monotonic() + seconds
    counts = {"opened": 0, "closed_by_server": 0, "refused": 0}
    tasks = [hold(host, port, False, stop_at, counts) for _ in range(idle)]
    tasks += [hold(host, port, True, stop_at, counts) for _ in range(slow)]
    await asyncio.gather(*tasks)
    print(f"angriff: {idle} leer + {slow} slowloris, {seconds} s: geöffnet {counts['opened']}, "
          f"vom Server geschlossen {counts['closed_by_server']}, abgewiesen {counts['refused']}")


def measure(host, port, path, n, pause_ms=0.0):
    times, fails = [], 0
    for _ in range(n):
        start = time.perf_counter()
        try:
            c = http.client.HTTPConnection(host, port, timeout=30)
            c.request("GET", path)
            r = c.getresponse()
            r.read()
            c.close()
            if r.status != 200:
                fails += 1
        except OSError:
            fails += 1
        times.append((time.perf_counter() - start) * 1000)
        time.sleep(pause_ms / 1000)
    times.sort()
    p = lambda q: times[min(len(times) - 1, int(q * len(times)))]
    print(f"p50 {p(0.5):.1f} ms  p99 {p(0.99):.1f} ms  max {times[-1]:.1f} ms  "
          f"fehlgeschlagen {fails}/{n}")
    return p(0.99), fails


if __name__ == "__main__":
    mode = sys.argv[1]
    if mode == "attack":
        host, port, idle, slow, seconds = sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5]), float(sys.argv[6])
        asyncio.run(attack(host, port, idle, slow, seconds))
    elif mode == "measure":
        host, port, path, n = sys.argv[2], int(sys.argv[3]), sys.argv[4], int(sys.argv[5])
        pause = float(sys.argv[6]) if len(sys.argv) > 6 else 0.0
        p99, fails = measure(host, port, path, n, pause)
        print(f"P99_MS={p99:.1f} FAILS={fails}")
    else:
        sys.exit(__doc__)
