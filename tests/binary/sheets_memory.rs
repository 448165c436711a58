//! Issue 32.1: tiny spreadsheets that a naive reader spells out into gigabytes (an ODS of under
//! 1 KB with one huge `text:s`, an ODS of one repeated cell, an XLSX of one shared string in many
//! cells, an XLSX declaring two billion shared strings; `src/sheet/testkit.rs` writes them) are
//! refused in German, naming sheet and cell, by the real server's upload and by the command line,
//! and neither grows past [`PEAK_LIMIT_KB`] (measured, not timed: the server's `VmHWM` from
//! `/proc`, the command line's peak through `/usr/bin/time`, which `.ci/run` installs).

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::time::Duration;

use crate::server::{add_admin, login, raw, Server};
use crate::sheets::{bypasses, hostile};
use crate::BIN;

/// Most a refused import may take: 300 MB resident at its peak (issue 32.1).
const PEAK_LIMIT_KB: u64 = 300 * 1024;

/// Most a refused import of the fifth attack's files ([`bypasses`]) may take: 150 MB resident at
/// its peak (what issue 37 allows the largest accepted spreadsheet).
const BYPASS_PEAK_LIMIT_KB: u64 = 150 * 1024;

/// The files whose refusal names no sheet: a shared string table's count, the styles part, a CSV
/// line, the sheets' count, the parts' count, a part two sheets name.
const NO_SHEET: [&str; 7] = [
    "zaehler.xlsx",
    "formate.xlsx",
    "schrift.xlsx",
    "lange-zeile.csv",
    "blaetter.ods",
    "teile.xlsx",
    "doppelt.xlsx",
];

/// Every hostile file with the peak its refusal may reach.
fn all_hostile() -> Vec<(&'static str, Vec<u8>, u64)> {
    let old = hostile().into_iter().map(|(n, b)| (n, b, PEAK_LIMIT_KB));
    let new = bypasses()
        .into_iter()
        .map(|(n, b)| (n, b, BYPASS_PEAK_LIMIT_KB));
    old.chain(new).collect()
}

/// The peak resident memory of process `pid` so far (`VmHWM`), in KiB.
fn vm_hwm_kb(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap()
}

/// A same-origin multipart upload of `bytes` as file `name` to `/verwaltung/einlesen` of the
/// server at `addr`: the status and the body.
fn upload(addr: SocketAddr, cookie: &str, name: &str, bytes: &[u8]) -> (u16, String) {
    const BOUNDARY: &str = "----schockerliga-binary-5e1";
    let mut body = format!(
        "--{BOUNDARY}\r\nContent-Disposition: form-data; name=\"einmal\"\r\n\r\nt-{name}\r\n\
         --{BOUNDARY}\r\nContent-Disposition: form-data; name=\"datei\"; filename=\"{name}\"\r\n\
         Content-Type: application/octet-stream\r\n\r\n"
    )
    .into_bytes();
    body.extend_from_slice(bytes);
    body.extend_from_slice(format!("\r\n--{BOUNDARY}--\r\n").as_bytes());
    let mut s = TcpStream::connect(addr).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(60))).unwrap();
    let head = format!(
        "POST /verwaltung/einlesen HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\
         Cookie: {cookie}\r\nOrigin: http://{addr}\r\n\
         Content-Type: multipart/form-data; boundary={BOUNDARY}\r\n\
         Content-Length: {}\r\n\r\n",
        body.len()
    );
    s.write_all(head.as_bytes()).unwrap();
    s.write_all(&body).unwrap();
    let mut answer = Vec::new();
    s.read_to_end(&mut answer).unwrap();
    let text = String::from_utf8_lossy(&answer).into_owned();
    let status = text
        .split(' ')
        .nth(1)
        .and_then(|c| c.parse().ok())
        .unwrap_or_else(|| panic!("no answer to {name}: {text:?}"));
    (status, text)
}

#[test]
fn hostile_spreadsheets_uploaded_are_refused_and_the_server_stays_small() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("liga.db");
    add_admin(&db);
    let mut server = Server::start(&db);
    let cookie = login(server.addr);
    for (name, bytes, limit) in all_hostile() {
        let (status, body) = upload(server.addr, &cookie, name, &bytes);
        assert!(
            server.wait_exit(Duration::ZERO).is_none(),
            "{name} ended the server: {}",
            server.log()
        );
        assert_eq!(status, 422, "{name}: {body}");
        assert!(body.contains(name), "{name}: {body}");
        assert!(
            body.contains("Blatt „2026“") || NO_SHEET.contains(&name),
            "{name}: {body}"
        );
        let peak = vm_hwm_kb(server.pid());
        eprintln!(
            "{name}: {} Bytes, Spitze des Servers {} MB",
            bytes.len(),
            peak / 1024
        );
        assert!(
            peak < limit,
            "{name}: the server's peak was {} MB",
            peak / 1024
        );
    }
    let home = raw(server.addr, "GET", "/", None, None).unwrap();
    assert_eq!(home.status, 200, "still serving");
}

/// `/usr/bin/time` runs the command and writes its peak resident memory (KiB) to a file; `None`
/// (with the reason printed) when it is missing.
fn have_time() -> bool {
    let ok = Path::new("/usr/bin/time").exists();
    if !ok {
        eprintln!(
            "ÜBERSPRUNGEN: /usr/bin/time fehlt (apt-get install time); .ci/run installiert es"
        );
    }
    ok
}

/// `schockerliga import FILE --database db` under `/usr/bin/time`: its output and its peak
/// resident memory in KiB.
fn import_measured(dir: &Path, db: &Path, file: &Path) -> (Output, u64) {
    let measured = dir.join("peak.txt");
    let out = Command::new("/usr/bin/time")
        .arg("-f")
        .arg("%M")
        .arg("-o")
        .arg(&measured)
        .arg(BIN)
        .arg("import")
        .arg(file)
        .arg("--database")
        .arg(db)
        .env_remove("DATABASE_URL")
        .stdin(Stdio::null())
        .output()
        .unwrap();
    let text = std::fs::read_to_string(&measured).unwrap();
    let peak = text
        .lines()
        .filter_map(|l| l.trim().parse().ok())
        .next_back()
        .unwrap_or_else(|| panic!("no measurement: {text}"));
    (out, peak)
}

#[test]
fn hostile_spreadsheets_on_the_command_line_are_refused_within_the_memory_bound() {
    if !have_time() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("liga.db");
    for (name, bytes, limit) in all_hostile() {
        let file = dir.path().join(name);
        std::fs::write(&file, &bytes).unwrap();
        let (out, peak) = import_measured(dir.path(), &db, &file);
        let err = String::from_utf8_lossy(&out.stderr);
        eprintln!("{name}: Spitze {} MB: {err}", peak / 1024);
        assert_eq!(out.status.code(), Some(1), "{name}: {err}");
        assert!(err.contains(name), "{name}: {err}");
        assert!(peak < limit, "{name}: peak {} MB", peak / 1024);
    }
    // One line of 16 MiB of separators (the largest file read; it took 565 MB): refused by its
    // length before the csv reader builds its record.
    let line = dir.path().join("zeile-16mib.csv");
    std::fs::write(&line, vec![b';'; 16 * 1024 * 1024 - 10]).unwrap();
    let (out, peak) = import_measured(dir.path(), &db, &line);
    let err = String::from_utf8_lossy(&out.stderr);
    eprintln!("zeile-16mib.csv: Spitze {} MB: {err}", peak / 1024);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.contains("Zeile 1: die Zeile ist länger als"), "{err}");
    assert!(peak < BYPASS_PEAK_LIMIT_KB, "peak {} MB", peak / 1024);
    // A file far over the limit is refused by its size, not read: a sparse file of 400 MiB.
    let big = dir.path().join("riesig.csv");
    std::fs::File::create(&big)
        .unwrap()
        .set_len(400 * 1024 * 1024)
        .unwrap();
    let (out, peak) = import_measured(dir.path(), &db, &big);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.contains("höchstens 16 MiB"), "{err}");
    assert!(peak < PEAK_LIMIT_KB, "peak {} MB", peak / 1024);
}
