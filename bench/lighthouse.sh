#!/usr/bin/env bash
# Lighthouse (npm `lighthouse`, Debian's Chromium) on the five pages it was first measured on
# (issue 21, kept by issue 26): the table, a player page, a night page, the login and the Kasse,
# on the release binary serving the demo league. Mobile emulation (Lighthouse's default), the four
# categories. Prints one line per page and exits 3 when a score is below 100.
#
# Usage: bench/lighthouse.sh      (env: BIN=path of a built binary, PORT=3931, KEEP=1 keeps the
#                                  reports in the work directory; needs `npm install -g lighthouse`
#                                  and CHROME_PATH or /usr/bin/chromium)
set -euo pipefail
cd "$(dirname "$0")/.."
PORT=${PORT:-3931}
BASE="http://127.0.0.1:$PORT"
export CHROME_PATH=${CHROME_PATH:-/usr/bin/chromium}
command -v lighthouse >/dev/null || { echo "lighthouse fehlt: npm install -g lighthouse" >&2; exit 1; }
[ -x "$CHROME_PATH" ] || { echo "Chromium fehlt: apt-get install chromium" >&2; exit 1; }
if [ -z "${BIN:-}" ]; then
    cargo build --release --locked --quiet
    BIN="${CARGO_TARGET_DIR:-target}/release/schockerliga"
fi
work=$(mktemp -d)
cleanup() {
    [ -n "${server:-}" ] && kill "$server" 2>/dev/null || true
    [ -n "${KEEP:-}" ] && echo "Berichte: $work" || rm -rf "$work"
}
trap cleanup EXIT
"$BIN" --database "$work/liga.db" demo >/dev/null 2>&1
"$BIN" --database "$work/liga.db" --listen "127.0.0.1:$PORT" serve >"$work/serve.log" 2>&1 &
server=$!
for _ in $(seq 100); do curl -sf "$BASE/" >/dev/null && break; sleep 0.1; done
# A night of the season and a player of the table, read off the pages themselves.
night=$(curl -sf "$BASE/saison/2026/abende" | grep -o '/abend/2026-[0-9-]*' | head -1)
player=$(curl -sf "$BASE/" | grep -o '/saison/2026/spieler/[0-9]*' | head -1)
status=0
printf '%-28s %5s %5s %5s %5s\n' Seite Leist. Zug. Prax. SEO
for path in / "$player" "$night" /login /saison/2026/kasse; do
    out="$work/$(echo "$path" | tr '/' '_').json"
    lighthouse "$BASE$path" --quiet --output=json --output-path="$out" \
        --chrome-flags="--headless=new --no-sandbox" >/dev/null 2>&1 || true
    line=$(python3 - "$out" "$path" <<'PY'
import json, sys
try:
    r = json.load(open(sys.argv[1]))
except Exception as e:
    print(f"{sys.argv[2]:<28} kein Bericht ({e})"); sys.exit(1)
c = r["categories"]
s = [round((c[k]["score"] or 0) * 100) for k in ("performance", "accessibility", "best-practices", "seo")]
print(f"{sys.argv[2]:<28} " + " ".join(f"{x:5d}" for x in s))
sys.exit(0 if min(s) == 100 else 3)
PY
) || status=3
    echo "$line"
done
exit $status
