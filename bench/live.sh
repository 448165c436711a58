#!/usr/bin/env bash
# The live board's listeners against the table (issue 26.4): do 200 open Server-Sent Events
# streams (`/live/{date}/ereignisse`, the TV and the phones of a club night, many times over) slow
# the public table?
#
# Builds the release binary, fills a fresh database with the demo league, starts the server
# pinned to core 0 and wrk pinned to core 1, and measures the table (/) ROUNDS times in turn
# without and with LISTENERS open streams (opened before, each checked to have its first event;
# held by one Python process on core 1). Prints req/s, p50, p99 per case (medians), the ratio
# with/without, the server's peak memory, and whether the targets hold (exit 3 when one is missed):
# with the listeners the table keeps ≥ 0.9 × its req/s and its p99 grows by < 2 ms.
#
# Usage: bench/live.sh   (env: LISTENERS=200 READ_SLICE=4s ROUNDS=3 CONNS=32 SEASONS=3 NIGHTS=45
#                               PLAYERS=20 SEED=1 PORT=3918 NICE=0 KEEP=1)
set -euo pipefail
cd "$(dirname "$0")/.."

LISTENERS=${LISTENERS:-200}
READ_SLICE=${READ_SLICE:-4s}
ROUNDS=${ROUNDS:-3}
CONNS=${CONNS:-32}
SEASONS=${SEASONS:-3}
NIGHTS=${NIGHTS:-45}
PLAYERS=${PLAYERS:-20}
SEED=${SEED:-1}
PORT=${PORT:-3918}
NICE=${NICE:-0}
YEAR=2026
BASE="http://127.0.0.1:$PORT"

if ! command -v wrk >/dev/null; then
    echo "wrk fehlt: installiere es (apt-get)" >&2
    apt-get update -qq && apt-get install -y -qq wrk >/dev/null
fi
for tool in taskset curl python3; do
    command -v "$tool" >/dev/null || { echo "$tool fehlt" >&2; exit 1; }
done

cargo build --release --locked --quiet
BIN="${CARGO_TARGET_DIR:-$PWD/target}/release/schockerliga"

WORK=$(mktemp -d)
SERVER_PID=""
HOLD_PID=""
cleanup() {
    for pid in "$HOLD_PID" "$SERVER_PID"; do
        if [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; then
            kill "$pid" 2>/dev/null || true
            wait "$pid" 2>/dev/null || true
        fi
    done
    if [ -z "${KEEP:-}" ]; then rm -rf "$WORK"; else echo "Arbeitsverzeichnis: $WORK"; fi
}
trap cleanup EXIT

DB="$WORK/liga.db"
export RUST_LOG=warn
"$BIN" demo --seasons "$SEASONS" --nights "$NIGHTS" --players "$PLAYERS" --seed "$SEED" \
    --last-year "$YEAR" --database "$DB"
"$BIN" export "$YEAR" --database "$DB" -o "$WORK/season.json" 2>/dev/null
DATE=$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['nights'][-1]['date'])" "$WORK/season.json")

nice -n "$NICE" taskset -c 0 "$BIN" serve --database "$DB" --listen "127.0.0.1:$PORT" \
    2>"$WORK/server.log" &
SERVER_PID=$!
for _ in $(seq 1 100); do
    curl -sf -o /dev/null "$BASE/" && break
    sleep 0.1
done
curl -sf -o /dev/null "$BASE/" || { cat "$WORK/server.log" >&2; exit 1; }

# Holds $LISTENERS streams open; writes "ready N" to $WORK/hold.state once each had its first
# event, then reads on until killed.
cat >"$WORK/hold.py" <<'PY'
import asyncio, sys
port, n, date, state = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3], sys.argv[4]
async def one(ready):
    r, w = await asyncio.open_connection("127.0.0.1", port)
    w.write(f"GET /live/{date}/ereignisse HTTP/1.1\r\nHost: bench\r\nAccept: text/event-stream\r\n\r\n".encode())
    await w.drain()
    seen = b""
    while b"event: hallo" not in seen:
        chunk = await r.read(4096)
        if not chunk:
            raise RuntimeError("stream closed: " + seen[:200].decode(errors="replace"))
        seen += chunk
    ready.append(1)
    while await r.read(4096):
        pass
async def main():
    ready = []
    tasks = [asyncio.create_task(one(ready)) for _ in range(n)]
    while len(ready) < n:
        done = [t for t in tasks if t.done() and t.exception()]
        if done:
            open(state, "w").write(f"failed {done[0].exception()}")
            return
        await asyncio.sleep(0.05)
    open(state, "w").write(f"ready {len(ready)}")
    await asyncio.gather(*tasks, return_exceptions=True)
asyncio.run(main())
PY

hold() {
    rm -f "$WORK/hold.state"
    taskset -c 1 python3 "$WORK/hold.py" "$PORT" "$LISTENERS" "$DATE" "$WORK/hold.state" &
    HOLD_PID=$!
    for _ in $(seq 1 300); do
        [ -s "$WORK/hold.state" ] && break
        sleep 0.1
    done
    state=$(cat "$WORK/hold.state" 2>/dev/null || echo "no answer")
    [ "$state" = "ready $LISTENERS" ] || { echo "Zuhörer: $state" >&2; exit 1; }
}
release() {
    kill "$HOLD_PID" 2>/dev/null || true
    wait "$HOLD_PID" 2>/dev/null || true
    HOLD_PID=""
    sleep 0.5
}

# wrk summary -> "req/s p50_ms p99_ms errors"
run_wrk() {
    local out="$1"; shift
    nice -n "$NICE" taskset -c 1 wrk --latency -d "$READ_SLICE" -t1 -c"$CONNS" "$@" >"$out" 2>&1
    python3 - "$out" <<'PY'
import re, sys
text = open(sys.argv[1]).read()
def ms(v):
    m = re.match(r"([\d.]+)(us|ms|s)", v)
    n, u = float(m.group(1)), m.group(2)
    return n / 1000 if u == "us" else n * 1000 if u == "s" else n
rps = float(re.search(r"Requests/sec:\s+([\d.]+)", text).group(1))
p50 = ms(re.search(r"^\s+50%\s+(\S+)", text, re.M).group(1))
p99 = ms(re.search(r"^\s+99%\s+(\S+)", text, re.M).group(1))
non2xx = re.search(r"Non-2xx or 3xx responses:\s+(\d+)", text)
sock = re.search(r"Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)", text)
errors = (int(non2xx.group(1)) if non2xx else 0) + (sum(map(int, sock.groups())) if sock else 0)
print(f"{rps:.0f} {p50:.2f} {p99:.2f} {errors}")
PY
}

without=""
with=""
for round in $(seq 1 "$ROUNDS"); do
    without+="$(run_wrk "$WORK/wrk-without-$round.txt" "$BASE/");"
    hold
    with+="$(run_wrk "$WORK/wrk-with-$round.txt" "$BASE/");"
    release
done
hwm_kb=$(awk '/VmHWM/ {print $2}' "/proc/$SERVER_PID/status")

python3 - "$LISTENERS" "$CONNS" "$READ_SLICE" "$ROUNDS" "$hwm_kb" "$without" "$with" <<'PY'
import statistics as st
import sys
listeners, conns, slice_, rounds, hwm_kb = sys.argv[1:6]
runs = [[list(map(float, r.split())) for r in arg.split(";") if r.strip()] for arg in sys.argv[6:8]]
print(f"\nTabelle / mit {conns} Verbindungen, {rounds} × {slice_} je Fall, Mediane\n")
print(f"{'Fall':36} {'req/s':>8} {'p50 ms':>8} {'p99 ms':>8} {'Fehler':>7}")
names = ["ohne Live-Zuhörer", f"mit {listeners} offenen Live-Streams"]
med = []
for name, rs in zip(names, runs):
    m = [st.median(r[i] for r in rs) for i in range(3)]
    med.append(m)
    print(f"{name:36} {m[0]:>8.0f} {m[1]:>8.2f} {m[2]:>8.2f} {int(sum(r[3] for r in rs)):>7}")
ratio = st.median(w[0] / o[0] for w, o in zip(runs[1], runs[0]))
print(f"\nreq/s mit ÷ ohne (Median der Runden): {ratio:.2f}; p99 +{med[1][2] - med[0][2]:.2f} ms")
print(f"Spitzenspeicher des Servers (VmHWM): {int(hwm_kb) / 1024:.1f} MB")
checks = [
    ("Tabelle mit Zuhörern ≥ 0,9 × ohne", ratio >= 0.9),
    ("p99 mit Zuhörern < ohne + 2 ms", med[1][2] < med[0][2] + 2),
    ("ohne Fehler", all(r[3] == 0 for rs in runs for r in rs)),
]
print()
for label, ok in checks:
    print(f"  {'OK  ' if ok else 'VERFEHLT'}  {label}")
sys.exit(0 if all(ok for _, ok in checks) else 3)
PY
