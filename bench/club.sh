#!/usr/bin/env bash
# The club's file and the copies off the machine on a long history (issue 37), measured on the
# release binary with /usr/bin/time -v (peak memory = "Maximum resident set size", time =
# "Elapsed (wall clock)") on the SEASONS × PLAYERS demo (default 40 × 60, 45 nights a season):
#   - export --all (plain .json and gzip .json.gz), the file's size;
#   - import of each into a new database (all or nothing, season by season);
#   - the round trip: every season's standings and payouts (--json) of the imported league the
#     same as the demo's, and its export --all byte for byte the demo's;
#   - verify of a backup of the demo;
#   - serve with --backup-dir and --backup-remote to rclone's local backend (a remote from the
#     environment, on this machine): from the start to the copy checked out there
#     ("remote": {"last": …} in GET /api/v1/status), and the server's peak memory (VmHWM).
# Prints the figures and checks the issue's targets (exit 3 when one is missed): export and
# import each < 150 MB peak, import < 10 s, the plain file < 60 MB, the round trip identical.
#
# Usage: bench/club.sh     (env: SEASONS=40 PLAYERS=60 NIGHTS=45 SEED=1 PORT=3937
#                           BIN=path to use a built binary instead of building;
#                           FROM=path to start from a copy of a filled database; KEEP=1 keeps
#                           the work directory)
set -euo pipefail
cd "$(dirname "$0")/.."

SEASONS=${SEASONS:-40}
PLAYERS=${PLAYERS:-60}
NIGHTS=${NIGHTS:-45}
SEED=${SEED:-1}
PORT=${PORT:-3937}
YEAR=2026
for tool in curl python3 rclone; do
    command -v "$tool" >/dev/null || { echo "$tool fehlt" >&2; exit 1; }
done
[ -x /usr/bin/time ] || { echo "/usr/bin/time fehlt (apt-get install time)" >&2; exit 1; }

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
export RUST_LOG=warn

DB="$WORK/liga.db"
if [ -n "${FROM:-}" ]; then
    cp "$FROM" "$DB"
else
    "$BIN" demo --seasons "$SEASONS" --nights "$NIGHTS" --players "$PLAYERS" --seed "$SEED" \
        --last-year "$YEAR" --database "$DB" >/dev/null
fi

# measure NAME CMD…: runs CMD under /usr/bin/time -v; NAME's peak (MB) and time (s) into
# $WORK/figures (one "NAME MB S" line); the command's stderr in $WORK/NAME.err.
measure() {
    local name=$1
    shift
    if ! /usr/bin/time -v -o "$WORK/$name.time" "$@" >/dev/null 2>"$WORK/$name.err"; then
        echo "$name fehlgeschlagen:" >&2
        cat "$WORK/$name.err" >&2
        exit 1
    fi
    python3 - "$WORK/$name.time" "$name" >>"$WORK/figures" <<'PY'
import sys
text = open(sys.argv[1]).read()
kb = int(next(l.split(":")[1] for l in text.splitlines() if "Maximum resident set size" in l))
wall = next(l.rsplit(" ", 1)[1] for l in text.splitlines() if "Elapsed (wall clock)" in l)
secs = 0.0
for part in wall.split(":"):
    secs = secs * 60 + float(part)
print(sys.argv[2], f"{kb / 1024:.1f}", f"{secs:.2f}")
PY
}

: >"$WORK/figures"
measure export "$BIN" --database "$DB" export --all -o "$WORK/verein.json"
measure export_gz "$BIN" --database "$DB" export --all -o "$WORK/verein.json.gz"
measure import "$BIN" --database "$WORK/neu.db" import "$WORK/verein.json"
measure import_gz "$BIN" --database "$WORK/neu-gz.db" import "$WORK/verein.json.gz"
"$BIN" --database "$DB" backup "$WORK/kopie.db" >/dev/null 2>&1
measure verify "$BIN" verify "$WORK/kopie.db"

# The round trip: each season's standings and payouts, and the whole file again.
"$BIN" --database "$WORK/neu.db" export --all -o "$WORK/wieder.json" 2>/dev/null
same_file=no
cmp -s "$WORK/verein.json" "$WORK/wieder.json" && same_file=yes
years=$(python3 -c "
import json
print(' '.join(str(s['season']) for s in json.load(open('$WORK/verein.json'))['seasons']))")
differ=""
compared=0
for year in $years; do
    for what in standings payouts; do
        for db in "$WORK/neu.db" "$WORK/neu-gz.db"; do
            if ! cmp -s <("$BIN" --database "$DB" "$what" "$year" --json 2>/dev/null) \
                        <("$BIN" --database "$db" "$what" "$year" --json 2>/dev/null); then
                differ="$differ $what/$year($(basename "$db"))"
            fi
        done
        compared=$((compared + 1))
    done
done

# A backup with its copy off the machine: rclone's local backend, configured by the environment.
OUTSIDE="$WORK/aussen"
start=$(date +%s.%N)
RCLONE_CONFIG="$WORK/keine.conf" RCLONE_CONFIG_LOKAL_TYPE=local \
    "$BIN" serve --database "$DB" --listen "127.0.0.1:$PORT" --backup-dir "$WORK/sicherungen" \
    --backup-remote "lokal:$OUTSIDE" 2>"$WORK/server.log" &
SERVER_PID=$!
remote_s=""
for _ in $(seq 1 3000); do
    if curl -sf "http://127.0.0.1:$PORT/api/v1/status" 2>/dev/null |
        python3 -c "import json,sys; sys.exit(0 if (json.load(sys.stdin).get('remote') or {}).get('last') else 1)" 2>/dev/null; then
        remote_s=$(python3 -c "print(f'{$(date +%s.%N) - $start:.2f}')")
        break
    fi
    sleep 0.1
done
[ -n "$remote_s" ] || { echo "Keine Kopie außer Haus:" >&2; cat "$WORK/server.log" >&2; exit 1; }
server_mb=$(awk '/VmHWM/ {printf "%.1f", $2 / 1024}' "/proc/$SERVER_PID/status")
kill "$SERVER_PID"
wait "$SERVER_PID" 2>/dev/null || true
SERVER_PID=""

python3 - "$WORK" "$SEASONS" "$PLAYERS" "$NIGHTS" "$same_file" "$compared" "$remote_s" \
    "$server_mb" "$differ" <<'PY'
import os, sys
work, seasons, players, nights, same_file, compared, remote_s, server_mb, differ = sys.argv[1:10]
fig = {}
for line in open(os.path.join(work, "figures")):
    name, mb, s = line.split()
    fig[name] = (float(mb), float(s))
mb = lambda p: os.path.getsize(os.path.join(work, p)) / 1e6
print(f"{seasons} Saisons × {players} Spieler × {nights} Abende; Datenbank {mb('liga.db'):.1f} MB")
print(f"Vereinsdatei: {mb('verein.json'):.1f} MB, gzip {mb('verein.json.gz'):.1f} MB")
print(f"  {'':28} {'Spitze MB':>10} {'Zeit s':>8}")
for name, label in [("export", "export --all (.json)"), ("export_gz", "export --all (.json.gz)"),
                    ("import", "import (.json, neue DB)"), ("import_gz", "import (.json.gz, neue DB)"),
                    ("verify", "verify (Kopie)")]:
    print(f"  {label:28} {fig[name][0]:>10.1f} {fig[name][1]:>8.2f}")
print(f"  {'serve: Kopie außer Haus':28} {float(server_mb):>10.1f} {float(remote_s):>8.2f}"
      "   (Start bis geprüft, VmHWM des Servers)")
print(f"Rundreise: {compared} Tabellen/Auszahlungen je Import verglichen, "
      f"{'alle gleich' if not differ else 'verschieden:' + differ}; "
      f"export --all wieder {'byteweise gleich' if same_file == 'yes' else 'VERSCHIEDEN'}")
checks = [
    ("export Spitze < 150 MB", max(fig["export"][0], fig["export_gz"][0]) < 150),
    ("import Spitze < 150 MB", max(fig["import"][0], fig["import_gz"][0]) < 150),
    ("import < 10 s", max(fig["import"][1], fig["import_gz"][1]) < 10),
    ("Datei < 60 MB (ungepackt)", mb("verein.json") < 60),
    ("Rundreise gleich", not differ and same_file == "yes"),
]
print()
for label, ok in checks:
    print(f"  {'OK  ' if ok else 'VERFEHLT'}  {label}")
sys.exit(0 if all(ok for _, ok in checks) else 3)
PY
