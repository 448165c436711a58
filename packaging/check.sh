#!/usr/bin/env bash
# Builds the Debian package and checks it on this machine (issue 23.3): the units pass
# `systemd-analyze verify`, the package installs, serves as its user with backups on by default,
# upgrades (the same version again, then a bumped one) keeping the settings and the data, and
# purges leaving only the club's data. Run as root on a Debian/Ubuntu machine WITHOUT a real
# Schockerliga installation (it refuses otherwise); it removes what it created.
#
#   packaging/check.sh            # amd64 (this machine's architecture)
#   ARM64=1 packaging/check.sh    # also try a cross build for arm64 (Raspberry Pi OS 64-bit)
#
# Needs: cargo, cargo-deb (`cargo install cargo-deb --locked`), dpkg, systemd-analyze (package
# systemd), curl; installs systemd and curl with apt-get when missing.
set -euo pipefail
cd "$(dirname "$0")/.."

step() { printf '\n== %s\n' "$*"; }
fail() { printf 'FEHLER: %s\n' "$*" >&2; exit 1; }
check() { # description, command...
    local what="$1"; shift
    if "$@"; then printf '  ok   %s\n' "$what"; else fail "$what"; fi
}

[ "$(id -u)" = 0 ] || fail "als root ausführen (dpkg -i)"
if dpkg -s schockerliga >/dev/null 2>&1; then
    fail "schockerliga ist auf dieser Maschine installiert: dort nicht prüfen"
fi
for tool in systemd-analyze curl; do
    if ! command -v "$tool" >/dev/null; then
        pkg=$tool; [ "$tool" = systemd-analyze ] && pkg=systemd
        apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$pkg"
    fi
done
command -v cargo-deb >/dev/null || fail "cargo-deb fehlt: cargo install cargo-deb --locked"

user_existed=no; getent passwd schockerliga >/dev/null && user_existed=yes
state_existed=no; [ -e /var/lib/schockerliga ] && state_existed=yes
work="$(mktemp -d)"; server=
cleanup() {
    if [ -n "$server" ]; then kill "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true; fi
    dpkg --purge schockerliga >/dev/null 2>&1 || true
    [ "$state_existed" = no ] && rm -rf /var/lib/schockerliga
    if [ "$user_existed" = no ] && getent passwd schockerliga >/dev/null; then
        userdel schockerliga 2>/dev/null || true
        getent group schockerliga >/dev/null && groupdel schockerliga 2>/dev/null || true
    fi
    rm -rf "$work"
}
trap cleanup EXIT

target_dir="${CARGO_TARGET_DIR:-target}"
step "cargo deb (release build, amd64)"
cargo deb --locked --quiet --output "$work/" 2>&1 | tail -n 5
deb="$(ls "$work"/schockerliga_*_amd64.deb)"
printf '  %s (%s Bytes)\n' "$(basename "$deb")" "$(stat -c %s "$deb")"
printf '  usr/bin/schockerliga im Paket: %s Bytes (Release ohne Debug-Info)\n' \
    "$(dpkg-deb --fsys-tarfile "$deb" | tar -xO ./usr/bin/schockerliga | wc -c)"
dpkg-deb --info "$deb" | sed -n 's/^ \(Package\|Version\|Architecture\|Depends\|Conffiles\):/  \1:/p'
dpkg-deb -c "$deb" | awk '{print "  " $6}' | grep -v '/$'

if [ "${ARM64:-0}" = 1 ]; then
    step "cargo deb --target aarch64-unknown-linux-gnu"
    if rustup target list --installed 2>/dev/null | grep -qx aarch64-unknown-linux-gnu \
        && command -v aarch64-linux-gnu-gcc >/dev/null; then
        CARGO_TARGET_AARCH64_UNKNOWN_LINUX_GNU_LINKER=aarch64-linux-gnu-gcc \
        CC_aarch64_unknown_linux_gnu=aarch64-linux-gnu-gcc \
            cargo deb --locked --quiet --target aarch64-unknown-linux-gnu --output "$work/" 2>&1 | tail -n 5
        arm="$(ls "$work"/schockerliga_*_arm64.deb)"
        printf '  %s (%s Bytes)\n' "$(basename "$arm")" "$(stat -c %s "$arm")"
        dpkg-deb --fsys-tarfile "$arm" | tar -xO ./usr/bin/schockerliga > "$work/arm-bin"
        file "$work/arm-bin" 2>/dev/null | sed 's/^/  /' || true
    else
        echo "  übersprungen: rustup-Ziel aarch64-unknown-linux-gnu oder aarch64-linux-gnu-gcc fehlt"
    fi
fi

step "dpkg -i (Erstinstallation)"
dpkg -i "$deb" 2>&1 | sed 's/^/  /'
check "Version $(schockerliga --version)" test -x /usr/bin/schockerliga
check "/usr/bin/schockerliga auf dem PATH" sh -c 'command -v schockerliga | grep -qx /usr/bin/schockerliga'
for f in /etc/default/schockerliga /usr/lib/systemd/system/schockerliga.service \
         /usr/lib/systemd/system/schockerliga@.service /usr/share/doc/schockerliga/README.md \
         /usr/share/doc/schockerliga/examples/Caddyfile \
         /usr/share/doc/schockerliga/examples/schockerliga-NAME.default; do
    check "$f" test -f "$f"
done
check "Systembenutzer schockerliga" getent passwd schockerliga
check "/var/lib/schockerliga gehört schockerliga, 0750" \
    sh -c '[ "$(stat -c %U:%a /var/lib/schockerliga)" = schockerliga:750 ]'
check "/etc/default/schockerliga ist conffile" sh -c 'dpkg-query -W -f="\${Conffiles}" schockerliga | grep -q /etc/default/schockerliga'

step "systemd-analyze verify"
mkdir -p "$work/units"
ln -s /usr/lib/systemd/system/schockerliga@.service "$work/units/schockerliga@nachbarn.service"
systemd-analyze verify /usr/lib/systemd/system/schockerliga.service 2>&1 | sed 's/^/  /'
check "schockerliga.service" systemd-analyze verify /usr/lib/systemd/system/schockerliga.service
check "schockerliga@nachbarn.service (Vorlage)" systemd-analyze verify "$work/units/schockerliga@nachbarn.service"
if systemd-analyze security --help 2>/dev/null | grep -q -- --offline; then
    systemd-analyze security --offline=yes /usr/lib/systemd/system/schockerliga.service 2>/dev/null \
        | tail -n 1 | sed 's/^/  security: /' || true
fi

step "Dienst wie systemd ihn startet (Benutzer schockerliga, /etc/default/schockerliga)"
port=39127
(
    set -a; . /etc/default/schockerliga; set +a
    export SCHOCKERLIGA_LISTEN="127.0.0.1:$port" NO_COLOR=1
    cd /var/lib/schockerliga
    exec setpriv --reuid=schockerliga --regid=schockerliga --init-groups /usr/bin/schockerliga serve
) 2> "$work/serve.log" & server=$!
for _ in $(seq 100); do curl -fs "http://127.0.0.1:$port/" >/dev/null 2>&1 && break; sleep 0.2; done
check "antwortet auf http://127.0.0.1:$port/" curl -fs -o /dev/null "http://127.0.0.1:$port/"
for _ in $(seq 100); do ls /var/lib/schockerliga/sicherungen/*.db.probe >/dev/null 2>&1 && break; sleep 0.2; done
check "Sicherung in /var/lib/schockerliga/sicherungen (Standard an)" \
    sh -c 'grep -q "^Probe bestanden" /var/lib/schockerliga/sicherungen/*.db.probe'
ls -l /var/lib/schockerliga /var/lib/schockerliga/sicherungen | sed 's/^/  /'
kill -TERM "$server"; wait "$server" || true; server=
check "beendet sich sauber (Datenbank geschlossen)" grep -q "Schockerliga beendet" "$work/serve.log"
db_sum="$(sha256sum /var/lib/schockerliga/schockerliga.db | cut -d' ' -f1)"
echo "# vom Prüfskript" >> /etc/default/schockerliga

step "dpkg -i (dieselbe Version noch einmal)"
dpkg -i "$deb" 2>&1 | sed 's/^/  /'
check "geänderte /etc/default/schockerliga bleibt" grep -q "# vom Prüfskript" /etc/default/schockerliga
check "Datenbank unverändert" sh -c "[ \"\$(sha256sum /var/lib/schockerliga/schockerliga.db | cut -d' ' -f1)\" = $db_sum ]"

step "dpkg -i (höhere Version: Aktualisierung)"
version="$(dpkg-deb -f "$deb" Version)"
cargo deb --locked --quiet --no-build --deb-revision 99 --output "$work/next/" 2>&1 | tail -n 5
next="$(ls "$work"/next/schockerliga_*_amd64.deb)"
dpkg -i "$next" 2>&1 | sed 's/^/  /'
check "Version $version → $(dpkg-query -W -f='${Version}' schockerliga)" \
    sh -c "dpkg --compare-versions \"\$(dpkg-query -W -f='\${Version}' schockerliga)\" gt $version"
check "Einstellungen bleiben" grep -q "# vom Prüfskript" /etc/default/schockerliga
check "Datenbank bleibt" sh -c "[ \"\$(sha256sum /var/lib/schockerliga/schockerliga.db | cut -d' ' -f1)\" = $db_sum ]"
check "Sicherung bleibt" sh -c 'ls /var/lib/schockerliga/sicherungen/*.db >/dev/null'
check "schockerliga verify auf der Sicherung" sh -c \
    'schockerliga verify "$(ls /var/lib/schockerliga/sicherungen/*.db | head -n 1)" | grep -q "^Probe bestanden"'

step "dpkg --purge"
dpkg --purge schockerliga 2>&1 | sed 's/^/  /'
for f in /usr/bin/schockerliga /etc/default/schockerliga /usr/lib/systemd/system/schockerliga.service \
         /usr/lib/systemd/system/schockerliga@.service /usr/share/doc/schockerliga; do
    check "$f entfernt" test ! -e "$f"
done
check "Daten des Vereins bleiben (/var/lib/schockerliga/schockerliga.db)" test -f /var/lib/schockerliga/schockerliga.db
check "dpkg kennt das Paket nicht mehr" sh -c '! dpkg -s schockerliga >/dev/null 2>&1'

step "Prüfung bestanden"
