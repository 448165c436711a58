//! Slow clients and stops against the real binary (SECURITY.md "Availability"): a connection that
//! never finishes its request head, never sends a byte or idles after a request is closed after the
//! header timeout while others are served; a
//! SIGTERM lets a running request finish, checkpoints the database (no `-wal` left) and exits 0.

use std::io::{Read, Write};
use std::net::TcpStream;
use std::process::Command;
use std::time::{Duration, Instant};

use crate::common::PASSWORD;
use crate::server::{add_admin, raw, Server};

/// Sends SIGTERM to `pid` (as systemd and docker stop a service).
fn sigterm(pid: u32) {
    let ok = Command::new("kill")
        .args(["-TERM", &pid.to_string()])
        .status()
        .unwrap()
        .success();
    assert!(ok, "kill -TERM {pid}");
}

/// Reads until the server closes the connection or `within` passes; returns what was read and
/// whether the server closed it.
fn read_until_closed(s: &mut TcpStream, within: Duration) -> (Vec<u8>, bool) {
    s.set_read_timeout(Some(within)).unwrap();
    let mut got = Vec::new();
    let mut buf = [0u8; 4096];
    loop {
        match s.read(&mut buf) {
            Ok(0) => return (got, true),
            Ok(n) => got.extend_from_slice(&buf[..n]),
            // A reset also means the server let go of the connection.
            Err(e) if e.kind() == std::io::ErrorKind::ConnectionReset => return (got, true),
            Err(_) => return (got, false),
        }
    }
}

#[test]
#[ignore = "waits for the 20 s body timeout; run by .ci/run with --ignored"]
fn a_body_that_stalls_gets_408_in_german() {
    // The hostile run: a POST head with Content-Length 100 and no body got, after 20 s, a 400
    // "Anfrage fehlerhaft" instead of a timeout.
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("liga.db");
    add_admin(&db);
    let server = Server::start(&db);
    let mut s = TcpStream::connect(server.addr).unwrap();
    let a = server.addr;
    s.write_all(
        format!(
            "POST /login HTTP/1.1\r\nHost: {a}\r\nOrigin: http://{a}\r\nConnection: close\r\n\
             Content-Type: application/x-www-form-urlencoded\r\nContent-Length: 100\r\n\r\nusername="
        )
        .as_bytes(),
    )
    .unwrap();
    let (answer, _) = read_until_closed(&mut s, Duration::from_secs(40));
    let text = String::from_utf8_lossy(&answer);
    assert!(text.starts_with("HTTP/1.1 408"), "{text}");
    assert!(text.contains("Zeit abgelaufen"), "{text}");
}

#[test]
#[ignore = "waits for the 10 s header timeout; run by .ci/run with --ignored"]
fn a_connection_that_never_finishes_its_request_head_is_closed_while_others_are_served() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("liga.db");
    add_admin(&db);
    let server = Server::start(&db);
    // Ten slowloris connections (half a request head, then nothing) and ten that never send a byte.
    let mut slow: Vec<TcpStream> = (0..20)
        .map(|i| {
            let mut s = TcpStream::connect(server.addr).unwrap();
            if i % 2 == 0 {
                s.write_all(b"GET / HTTP/1.1\r\nHost: x\r\nX-Slow: ")
                    .unwrap();
            }
            s
        })
        .collect();
    // Meanwhile the table is served at once.
    let start = Instant::now();
    let r = raw(server.addr, "GET", "/", None, None).unwrap();
    assert_eq!(r.status, 200);
    assert!(
        start.elapsed() < Duration::from_secs(2),
        "{:?}",
        start.elapsed()
    );
    // Each half-sent request is dropped after the header timeout (10 s), not held forever.
    for s in &mut slow {
        let (_, closed) = read_until_closed(s, Duration::from_secs(20));
        assert!(closed, "a half-sent request head is still open after 20 s");
    }
    assert!(
        start.elapsed() >= Duration::from_secs(9),
        "{:?}",
        start.elapsed()
    );
}

#[test]
fn sigterm_answers_the_running_request_checkpoints_the_database_and_exits_0() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("liga.db");
    add_admin(&db);
    let mut server = Server::start(&db);
    // A write, so that the write-ahead log has something in it.
    let r = raw(
        server.addr,
        "POST",
        "/login",
        None,
        Some(&format!("username=admin&password={PASSWORD}")),
    )
    .unwrap();
    assert_eq!(r.status, 303, "{r:?}");
    // A login form in flight: its head is sent, its body not yet.
    let body = format!("username=admin&password={PASSWORD}");
    let mut s = TcpStream::connect(server.addr).unwrap();
    let head = format!(
        "POST /login HTTP/1.1\r\nHost: {a}\r\nConnection: close\r\nOrigin: http://{a}\r\n\
         Content-Type: application/x-www-form-urlencoded\r\nContent-Length: {}\r\n\r\n",
        body.len(),
        a = server.addr
    );
    s.write_all(head.as_bytes()).unwrap();
    s.write_all(&body.as_bytes()[..5]).unwrap();
    std::thread::sleep(Duration::from_millis(300));
    sigterm(server.pid());
    std::thread::sleep(Duration::from_millis(300));
    // The server no longer takes new connections ...
    assert!(
        raw(server.addr, "GET", "/", None, None).is_err(),
        "a new connection is served after SIGTERM"
    );
    // ... but the running request gets its answer.
    s.write_all(&body.as_bytes()[5..]).unwrap();
    let (answer, _) = read_until_closed(&mut s, Duration::from_secs(10));
    let answer = String::from_utf8_lossy(&answer);
    assert!(answer.starts_with("HTTP/1.1 303"), "{answer}");
    let status = server
        .wait_exit(Duration::from_secs(15))
        .expect("the server exits after SIGTERM");
    assert!(status.success(), "{status:?}");
    // The write-ahead log was folded into the database file.
    let wal = dir.path().join("liga.db-wal");
    let wal_len = std::fs::metadata(&wal).map(|m| m.len()).unwrap_or(0);
    assert_eq!(wal_len, 0, "{} bytes left in {}", wal_len, wal.display());
}

/// A tmpfs of `size` mounted at a fresh directory, unmounted on drop; `None` where this machine
/// does not allow mounting (not root, no CAP_SYS_ADMIN).
struct Tmpfs(std::path::PathBuf);

impl Tmpfs {
    fn mount(size: &str) -> Option<Tmpfs> {
        let dir = tempfile::tempdir().unwrap().keep();
        let ok = Command::new("mount")
            .args(["-t", "tmpfs", "-o", &format!("size={size}"), "tmpfs"])
            .arg(&dir)
            .stderr(std::process::Stdio::null())
            .status()
            .is_ok_and(|s| s.success());
        ok.then(|| Tmpfs(dir))
    }
}

impl Drop for Tmpfs {
    fn drop(&mut self) {
        // Lazy: the database's connections close on their own threads.
        let _ = Command::new("umount").arg("-l").arg(&self.0).status();
        let _ = std::fs::remove_dir(&self.0);
    }
}

/// Fills the file system of `dir` with a file `fill` until a write fails (ENOSPC).
fn fill_up(fill: &std::path::Path) {
    let mut f = std::fs::File::create(fill).unwrap();
    let block = vec![0u8; 64 * 1024];
    while f.write_all(&block).is_ok() {}
    let small = [0u8; 512];
    while f.write_all(&small).is_ok() {}
    let _ = f.sync_all();
}

#[tokio::test]
#[ignore = "mounts a tmpfs (needs root); run by .ci/run with --ignored"]
async fn a_full_disk_refuses_a_write_in_german_stores_nothing_and_writes_work_again_when_space_is_back(
) {
    use schockerliga::league::change::Change;
    use schockerliga::service::{Edit, League};
    let Some(fs) = Tmpfs::mount("2m") else {
        eprintln!("kein tmpfs möglich (nicht root): Test übersprungen");
        return;
    };
    let db = fs.0.join("liga.db");
    let league = League::open(&db).await.unwrap();
    league
        .create_season(2026, Default::default(), &Edit::by("test"))
        .await
        .unwrap();
    let add = |i: usize| Change::AddPlayer {
        name: format!("Spieler Nummer {i} mit einem langen Namen"),
    };
    let edit = Edit::by("test");
    league.change(2026, add(0), &edit).await.unwrap();
    fill_up(&fs.0.join("fill"));
    // Writes until the disk refuses one.
    let mut refused = None;
    for i in 1..2000 {
        if let Err(e) = league.change(2026, add(i), &edit).await {
            refused = Some((i, e));
            break;
        }
    }
    let (at, e) = refused.expect("the full disk refuses a write");
    eprintln!("refused at {at}: {e:?}");
    assert!(
        e.to_string().contains("Speicher voll, nichts gespeichert"),
        "{e}"
    );
    // Space back: the next write works on the same league (same writer connection).
    std::fs::remove_file(fs.0.join("fill")).unwrap();
    league.change(2026, add(at), &edit).await.unwrap();
    let players = league.export(2026).unwrap().players;
    assert_eq!(
        players.len(),
        at + 1,
        "nothing of the refused write, everything else"
    );
}

#[test]
#[ignore = "mounts a tmpfs (needs root); run by .ci/run with --ignored"]
fn on_a_full_disk_a_logged_in_secretary_still_gets_his_pages_and_the_german_refusal() {
    // Before: the session, saved after every logged-in request, failed to save on the full disk
    // and tower-sessions answered 500 instead of the page, the refusal included.
    let Some(fs) = Tmpfs::mount("2m") else {
        eprintln!("kein tmpfs möglich (nicht root): Test übersprungen");
        return;
    };
    let db = fs.0.join("liga.db");
    add_admin(&db);
    let server = Server::start(&db);
    let cookie = crate::server::login(server.addr);
    let post =
        |path: &str, body: &str| raw(server.addr, "POST", path, Some(&cookie), Some(body)).unwrap();
    let r = post("/verwaltung/saison", "year=2026&rules=%7B%7D");
    assert_eq!(r.status, 303, "{r:?}");
    fill_up(&fs.0.join("fill"));
    let mut refused = None;
    for i in 0..2000 {
        let r = post(
            "/verwaltung/saison/2026/spieler",
            &format!("name=Spieler+Nummer+{i}+mit+einem+langen+Namen"),
        );
        if r.status != 303 {
            refused = Some((i, r));
            break;
        }
    }
    let (at, r) = refused.expect("the full disk refuses a player");
    let body = String::from_utf8_lossy(&r.body);
    assert_eq!(r.status, 422, "player {at}: {body}");
    assert!(body.contains("Speicher voll, nichts gespeichert"), "{body}");
    assert!(
        body.contains(&format!("Spieler Nummer {at} mit")),
        "the typed name stays"
    );
    // Pages of the logged-in account still answer.
    let r = raw(
        server.addr,
        "GET",
        "/verwaltung/saison/2026",
        Some(&cookie),
        None,
    )
    .unwrap();
    assert_eq!(r.status, 200, "{r:?}");
    // Space again: the same session writes again.
    std::fs::remove_file(fs.0.join("fill")).unwrap();
    let r = post(
        "/verwaltung/saison/2026/spieler",
        &format!("name=Spieler+Nummer+{at}+mit+einem+langen+Namen"),
    );
    assert_eq!(r.status, 303, "{r:?}");
}
