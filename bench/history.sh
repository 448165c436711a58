#!/usr/bin/env bash
# The long-history benchmark (issue 25): a league of SEASONS × PLAYERS (default 40 × 60, the
# history a club brings in), measured on the release binary:
#   - start to first answer: from starting `serve` to the first 200 of `/`;
#   - after each of WRITES rounds stored through the JSON API, the first read of the seven pages a
#     bar reloads together, all seven at once (table, player page, career, ewige Tabelle, Rekorde,
#     Kasse, Jahresabschluss), and the light page /static/style.css read again and again meanwhile
#     (its p99);
#   - the server's peak memory (VmHWM) at the end.
# Prints the figures and checks the issue's targets (exit 3 when one is missed):
# first answer < 2 s, peak < 150 MB, every first read after a write < 50 ms (median over the
# writes), the light page's p99 < 20 ms. With LARGE=1 the 10 × 1,000 case instead: no answer
# waits past the request timeout (30 s), every answer 200, the light page's p99 < 100 ms.
#
# Usage: bench/history.sh     (env: SEASONS=40 PLAYERS=60 NIGHTS=45 WRITES=7 SEED=1 PORT=3918
#                              LARGE=1 for 10 × 1,000; KEEP=1 keeps the work directory;
#                              BIN=path to use a built binary instead of building,
#                              FROM=path to start from a copy of a filled database (the same
#                              SEASONS and PLAYERS) instead of filling one; run it several times)
set -euo pipefail
cd "$(dirname "$0")/.."

if [ -n "${LARGE:-}" ]; then
    SEASONS=${SEASONS:-10}
    PLAYERS=${PLAYERS:-1000}
else
    SEASONS=${SEASONS:-40}
    PLAYERS=${PLAYERS:-60}
fi
NIGHTS=${NIGHTS:-45}
WRITES=${WRITES:-7}
SEED=${SEED:-1}
PORT=${PORT:-3918}
YEAR=2026
BASE="http://127.0.0.1:$PORT"
for tool in curl python3; do
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
if [ -n "${FROM:-}" ]; then
    cp "$FROM" "$DB"
else
    "$BIN" demo --seasons "$SEASONS" --nights "$NIGHTS" --players "$PLAYERS" --seed "$SEED" \
        --last-year "$YEAR" --database "$DB" >/dev/null
fi
fill_s=$(python3 -c "print(f'{$(date +%s.%N) - $start:.1f}')")
db_mb=$(python3 -c "import os; print(f'{os.path.getsize(\"$DB\") / 2**20:.0f}')")
echo "schock-passwort-123" | "$BIN" user add bench --role secretary --database "$DB" >/dev/null 2>&1 || true
"$BIN" export "$YEAR" --database "$DB" -o "$WORK/season.json" 2>/dev/null

start=$(date +%s.%N)
"$BIN" serve --database "$DB" --listen "127.0.0.1:$PORT" 2>"$WORK/server.log" &
SERVER_PID=$!
for _ in $(seq 1 600); do
    curl -sf -o /dev/null "$BASE/" && break
    sleep 0.02
done
first_s=$(python3 -c "print(f'{$(date +%s.%N) - $start:.2f}')")
curl -sf -o /dev/null "$BASE/" || { echo "Server startet nicht:" >&2; cat "$WORK/server.log" >&2; exit 1; }

cookie=$(curl -s -o /dev/null -D - -d "username=bench&password=schock-passwort-123" \
    "$BASE/login" | tr -d '\r' | sed -n 's/^[Ss]et-[Cc]ookie: \([^;]*\).*/\1/p' | tail -1)
[ -n "$cookie" ] || { echo "Anmeldung fehlgeschlagen" >&2; exit 1; }

python3 bench/history.py "$BASE" "$WORK/season.json" "$cookie" "$YEAR" "$WRITES" 30 >"$WORK/result.json"
hwm_kb=$(awk '/VmHWM/ {print $2}' "/proc/$SERVER_PID/status")

python3 - "$WORK/result.json" "$hwm_kb" "$first_s" "$fill_s" "$db_mb" "$SEASONS" "$PLAYERS" "${LARGE:-}" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
hwm_mb = int(sys.argv[2]) / 1024
first_s, fill_s, db_mb, seasons, players, large = sys.argv[3:9]
first_s = float(first_s)
print(f"\n{seasons} Saisons × {players} Spieler; Datenbank {db_mb} MB, gefüllt in {fill_s} s")
print(f"Start bis zur ersten Antwort: {first_s:.2f} s")
print(f"Spitzenspeicher (VmHWM): {hwm_mb:.1f} MB")
print(f"Schreiben (Runde über die API): Median {r['writes']['median']:.1f} ms, höchstens {r['writes']['max']:.1f} ms")
print(f"\nErstes Lesen nach einem Schreiben, alle sieben zugleich ({len(next(iter(r['pages'].values()))['all'])} Schreibvorgänge):")
print(f"  {'Seite':18} {'Median ms':>10} {'max ms':>9}   alle")
for name, p in r["pages"].items():
    print(f"  {name:18} {p['median']:>10.1f} {p['max']:>9.1f}   {p['all']}")
l = r["light"]
print(f"\nLeichte Seite /static/style.css währenddessen: p50 {l['p50']:.1f} ms, p99 {l['p99']:.1f} ms, "
      f"höchstens {l['max']:.1f} ms ({l['count']} Anfragen)")
if r["bad"]:
    print(f"Antworten nicht 200: {r['bad'][:10]}")
if r["slow"]:
    print(f"Länger als die Frist: {r['slow'][:10]}")
if large:
    checks = [
        ("keine Antwort länger als die Frist (30 s)", not r["slow"]),
        ("jede Antwort 200", not r["bad"]),
        ("leichte Seite p99 < 100 ms", l["p99"] < 100),
    ]
else:
    checks = [
        ("Start bis zur ersten Antwort < 2 s", first_s < 2),
        ("Spitzenspeicher < 150 MB", hwm_mb < 150),
        ("jede Seite zuerst gelesen < 50 ms (Median)", all(p["median"] < 50 for p in r["pages"].values())),
        ("leichte Seite p99 < 20 ms", l["p99"] < 20),
        ("jede Antwort 200", not r["bad"]),
    ]
print()
for label, ok in checks:
    print(f"  {'OK  ' if ok else 'VERFEHLT'}  {label}")
sys.exit(0 if all(ok for _, ok in checks) else 3)
PY
