#!/usr/bin/env bash
# The load benchmark (issue 6): the table under load, measured side by side in one run.
#
# Builds the release binary, fills a fresh database with the demo league (`schockerliga demo`),
# starts the server pinned to core 0 and wrk pinned to core 1, on loopback, and measures for
# READ_SLICE each, ROUNDS times in turn (medians reported), with CONNS connections:
#   (a) a static file of the table page's size, served from memory by the same binary
#       (bench-only route /bench/static, on only with SCHOCKERLIGA_BENCH_STATIC)
#   (b) the public table of the current season (/)
#   (c) a player page
#   (d) the standings JSON
#   (f) the Kasse of the current season
#   (g) the Jahresabschluss of the current season
#   (e) round submissions (POST, JSON round API) from 4 writers, each logged in with its own
#       session, each to its own night and table
# and prints req/s, p50, p99, each read's ratio to (a), the errors, the server's peak memory
# (VmHWM) and whether each target of the issue is met (exit 3 when one is missed). Bounded: about
# 1.5 minutes after the build.
#
# Usage: bench/run.sh            (env: READ_SLICE=4s ROUNDS=3 WRITE_DURATION=10s CONNS=32 SEASONS=20 NIGHTS=45 PLAYERS=20 SEED=1
#                                       PORT=3917 KEEP=1 to keep the work directory,
#                                       BIN=path to measure a built binary (no build),
#                                       NICE=-10 to run server and wrk at a higher CPU priority
#                                       than other work on a shared machine; default 0)
set -euo pipefail
cd "$(dirname "$0")/.."

READ_SLICE=${READ_SLICE:-4s}
ROUNDS=${ROUNDS:-3}
WRITE_DURATION=${WRITE_DURATION:-10s}
CONNS=${CONNS:-32}
SEASONS=${SEASONS:-20}
NIGHTS=${NIGHTS:-45}
PLAYERS=${PLAYERS:-20}
SEED=${SEED:-1}
PORT=${PORT:-3917}
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

if [ -z "${BIN:-}" ]; then
    cargo build --release --locked --quiet
    BIN="${CARGO_TARGET_DIR:-$PWD/target}/release/schockerliga"
fi

WORK=$(mktemp -d)
SERVER_PID=""
cleanup() {
    if [ -n "$SERVER_PID" ] && kill -0 "$SERVER_PID" 2>/dev/null; then
        kill "$SERVER_PID" 2>/dev/null || true
        wait "$SERVER_PID" 2>/dev/null || true
    fi
    if [ -z "${KEEP:-}" ]; then rm -rf "$WORK"; else echo "Arbeitsverzeichnis: $WORK"; fi
}
trap cleanup EXIT

DB="$WORK/liga.db"
export RUST_LOG=warn
start=$(date +%s.%N)
"$BIN" demo --seasons "$SEASONS" --nights "$NIGHTS" --players "$PLAYERS" --seed "$SEED" \
    --last-year "$YEAR" --database "$DB"
fill_s=$(python3 -c "print(f'{$(date +%s.%N) - $start:.1f}')")
echo "schock-passwort-123" | "$BIN" user add bench --role secretary --database "$DB" 2>/dev/null

start_server() {
    # $1: value of SCHOCKERLIGA_BENCH_STATIC ("" = none)
    SCHOCKERLIGA_BENCH_STATIC="$1" nice -n "$NICE" taskset -c 0 "$BIN" serve --database "$DB" \
        --listen "127.0.0.1:$PORT" 2>"$WORK/server.log" &
    SERVER_PID=$!
    for _ in $(seq 1 100); do
        curl -sf -o /dev/null "$BASE/" && return 0
        sleep 0.1
    done
    echo "Server startet nicht:" >&2
    cat "$WORK/server.log" >&2
    exit 1
}
stop_server() {
    kill "$SERVER_PID"
    wait "$SERVER_PID" 2>/dev/null || true
    SERVER_PID=""
}

# The static file: the table page itself, so it has exactly the page's size.
start_server ""
curl -sf -o "$WORK/static.html" "$BASE/"
stop_server
start_server "$WORK/static.html"
page_bytes=$(stat -c %s "$WORK/static.html")

PLAYER_PATH="/saison/$YEAR/spieler/1"
STANDINGS_PATH="/api/v1/seasons/$YEAR/standings"
KASSE_PATH="/saison/$YEAR/kasse"
ABSCHLUSS_PATH="/saison/$YEAR/abschluss"
for path in /bench/static / "$PLAYER_PATH" "$STANDINGS_PATH" "$KASSE_PATH" "$ABSCHLUSS_PATH"; do
    code=$(curl -s -o /dev/null -w '%{http_code}' "$BASE$path")
    [ "$code" = 200 ] || { echo "$path antwortet $code" >&2; exit 1; }
done

# The writers: last two nights × two tables of the current season, one session each.
"$BIN" export "$YEAR" --database "$DB" -o "$WORK/season.json" 2>/dev/null
cookies=()
for i in 1 2 3 4; do
    cookie=$(curl -s -o /dev/null -D - -d "username=bench&password=schock-passwort-123" \
        "$BASE/login" | tr -d '\r' | sed -n 's/^[Ss]et-[Cc]ookie: \([^;]*\).*/\1/p' | tail -1)
    [ -n "$cookie" ] || { echo "Anmeldung für Schreiber $i fehlgeschlagen" >&2; exit 1; }
    cookies+=("$cookie")
done
python3 - "$WORK/season.json" "${cookies[@]}" >"$WORK/writers.lua" <<'PY'
import json, sys
season = json.load(open(sys.argv[1]))
cookies = sys.argv[2:]
targets = []
for night in sorted(season["nights"], key=lambda n: n["date"], reverse=True):
    for table in night["tables"]:
        if table["rounds"]:
            players = [r["player"] for r in table["rounds"][0]["results"]]
            targets.append((night["date"], table["number"], players))
targets = targets[:4]
if len(targets) < 4:
    sys.exit("zu wenige Tische für 4 Schreiber")
print("return {")
for (date, table, players), cookie in zip(targets, cookies):
    names = ", ".join(json.dumps(p) for p in players)
    print(f'  {{ date = "{date}", table = {table}, cookie = "{cookie}", players = {{ {names} }} }},')
print("}")
PY

# wrk summary -> "req/s p50_ms p99_ms errors"
run_wrk() {
    local out="$1" duration="$2"; shift 2
    nice -n "$NICE" taskset -c 1 wrk --latency -d "$duration" "$@" >"$out" 2>&1
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
total = int(re.search(r"(\d+) requests in", text).group(1))
print(f"{rps:.0f} {p50:.2f} {p99:.2f} {errors} {total}")
PY
}

# Reads in ROUNDS rounds of the six targets in turn, so that a shared machine's drifting load
# hits all of them alike; each round's ratio is against that round's static file.
declare -A R
for round in $(seq 1 "$ROUNDS"); do
    R[static]+="$(run_wrk "$WORK/wrk-static-$round.txt" "$READ_SLICE" -t1 -c"$CONNS" "$BASE/bench/static");"
    R[table]+="$(run_wrk "$WORK/wrk-table-$round.txt" "$READ_SLICE" -t1 -c"$CONNS" "$BASE/");"
    R[player]+="$(run_wrk "$WORK/wrk-player-$round.txt" "$READ_SLICE" -t1 -c"$CONNS" "$BASE$PLAYER_PATH");"
    R[json]+="$(run_wrk "$WORK/wrk-json-$round.txt" "$READ_SLICE" -t1 -c"$CONNS" "$BASE$STANDINGS_PATH");"
    R[kasse]+="$(run_wrk "$WORK/wrk-kasse-$round.txt" "$READ_SLICE" -t1 -c"$CONNS" "$BASE$KASSE_PATH");"
    R[abschluss]+="$(run_wrk "$WORK/wrk-abschluss-$round.txt" "$READ_SLICE" -t1 -c"$CONNS" "$BASE$ABSCHLUSS_PATH");"
done
hwm_reads_kb=$(awk '/VmHWM/ {print $2}' "/proc/$SERVER_PID/status")
echo "VmHWM nach den Lesetests: $((hwm_reads_kb / 1024)) MB" >&2
R[write]=$(WRITERS_LUA="$WORK/writers.lua" run_wrk "$WORK/wrk-write.txt" "$WRITE_DURATION" -t4 -c4 \
    -s bench/rounds.lua "$BASE/")

# The table still answers after the writes (the cache was refreshed by them).
code=$(curl -s -o /dev/null -w '%{http_code}' "$BASE/")
hwm_kb=$(awk '/VmHWM/ {print $2}' "/proc/$SERVER_PID/status")

python3 - "$page_bytes" "$hwm_kb" "$fill_s" "$ROUNDS × $READ_SLICE, Schreiben $WRITE_DURATION" "$CONNS" "$code" "$NICE" \
    "${R[static]}" "${R[table]}" "${R[player]}" "${R[json]}" "${R[kasse]}" "${R[abschluss]}" \
    "${R[write]}" <<'PY'
import statistics as st
import sys
page_bytes, hwm_kb, fill_s, duration, conns, code, nice = sys.argv[1:8]
# Per target: its rounds, each [rps, p50, p99, errors, requests].
runs = [[list(map(float, r.split())) for r in arg.split(";") if r.strip()] for arg in sys.argv[8:]]
names = ["(a) statische Datei", "(b) Tabelle /", "(c) Spielerseite", "(d) Tabelle JSON",
         "(f) Kasse", "(g) Jahresabschluss", "(e) Runden POST, 4 Schreiber"]
READS = (1, 2, 3, 4, 5)
WRITE = 6
static = runs[0]
def ratio(i):
    return st.median(r[0] / s[0] for r, s in zip(runs[i], static))
print(f"\nnice {nice}; Datenbank gefüllt in {fill_s} s; Tabellenseite {page_bytes} Bytes; "
      f"Läufe: {duration}; Lesen mit {conns} Verbindungen; Mediane über die Runden\n")
print(f"{'Lauf':32} {'req/s':>9} {'p50 ms':>8} {'p99 ms':>8} {'max p99':>8} {'× (a)':>6} {'Fehler':>7} {'Anfragen':>9}")
for i, (name, rounds) in enumerate(zip(names, runs)):
    rps = st.median(r[0] for r in rounds)
    p50 = st.median(r[1] for r in rounds)
    p99 = st.median(r[2] for r in rounds)
    worst = max(r[2] for r in rounds)
    err = int(sum(r[3] for r in rounds))
    total = int(sum(r[4] for r in rounds))
    x = f"{ratio(i):.2f}" if i in READS else ""
    print(f"{name:32} {rps:>9.0f} {p50:>8.2f} {p99:>8.2f} {worst:>8.2f} {x:>6} {err:>7} {total:>9}")
print("\nJe Runde (req/s):")
for i, name in enumerate(names[:6]):
    print(f"  {name:30} " + "  ".join(f"{r[0]:>7.0f}" for r in runs[i]))
hwm_mb = int(hwm_kb) / 1024
print(f"\nSpitzenspeicher des Servers (VmHWM): {hwm_mb:.1f} MB")
med_p99 = lambda i: st.median(r[2] for r in runs[i])
# The ratios of record before the application layer (BENCHMARKS.md): table 0.83, player page
# 0.67, JSON 0.99; the Kasse and the Jahresabschluss at least half the static file.
checks = [
    ("Tabelle ≥ 0,83 × statisch", ratio(1) >= 0.83),
    ("Spielerseite ≥ 0,67 × statisch", ratio(2) >= 0.67),
    ("Tabelle JSON ≥ 0,99 × statisch", ratio(3) >= 0.99),
    ("Kasse ≥ 0,5 × statisch", ratio(4) >= 0.5),
    ("Jahresabschluss ≥ 0,5 × statisch", ratio(5) >= 0.5),
    ("Lesen p99 < 25 ms (Median der Runden)", all(med_p99(i) < 25 for i in READS)),
    ("Schreiben p99 < 100 ms", med_p99(WRITE) < 100),
    ("Schreiben ohne Fehler", sum(r[3] for r in runs[WRITE]) == 0 and sum(r[4] for r in runs[WRITE]) > 0),
    ("Lesen ohne Fehler", all(r[3] == 0 for i in range(6) for r in runs[i])),
    ("Spitzenspeicher < 100 MB", hwm_mb < 100),
    ("Tabelle nach den Schreibläufen erreichbar", code == "200"),
]
print()
for label, ok in checks:
    print(f"  {'OK  ' if ok else 'VERFEHLT'}  {label}")
sys.exit(0 if all(ok for _, ok in checks) else 3)
PY
