//! Faults and concurrency against the real binary: `kill -9` during an import and during a burst of
//! form submissions, then restart and check `PRAGMA integrity_check`, that every acknowledged
//! submission is stored and that the import is all or nothing; four clients writing for 10 s see no
//! server error and lose nothing.

mod common;

use std::io::{BufRead, BufReader, Write};
use std::net::SocketAddr;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc, Mutex};
use std::time::{Duration, Instant};

use common::{fixture, raw, PASSWORD};
use schockerliga::db::Db;

const BIN: &str = env!("CARGO_BIN_EXE_schockerliga");

/// A running server process.
struct Server {
    child: Child,
    addr: SocketAddr,
}

impl Server {
    /// Starts `schockerliga serve` on a free loopback port and waits for its address.
    fn start(db: &Path) -> Server {
        Server::start_with(db, &[])
    }

    /// [`Server::start`] with extra environment variables.
    fn start_with(db: &Path, env: &[(&str, &str)]) -> Server {
        let mut child = Command::new(BIN)
            .args(["serve", "--listen", "127.0.0.1:0", "--database"])
            .arg(db)
            .env_remove("DATABASE_URL")
            .env_remove("SCHOCKERLIGA_SECURE_COOKIES")
            .envs(env.iter().copied())
            .env("NO_COLOR", "1")
            .env("RUST_LOG", "info")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let stderr = child.stderr.take().unwrap();
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stderr).lines() {
                let Ok(line) = line else { break };
                if let Some(at) = line.find("läuft auf http://") {
                    let rest = &line[at + "läuft auf http://".len()..];
                    let addr: String = rest
                        .chars()
                        .take_while(|c| c.is_ascii_alphanumeric() || *c == '.' || *c == ':')
                        .collect();
                    let _ = tx.send(addr);
                }
            }
        });
        let addr = rx
            .recv_timeout(Duration::from_secs(60))
            .expect("server announced its address")
            .parse()
            .unwrap();
        Server { child, addr }
    }

    /// `kill -9`.
    fn kill(mut self) {
        self.child.kill().unwrap();
        self.child.wait().unwrap();
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Creates the admin account through the command line (which also creates the schema).
fn add_admin(db: &Path) {
    let mut child = Command::new(BIN)
        .args(["user", "add", "admin", "--role", "admin", "--database"])
        .arg(db)
        .env_remove("DATABASE_URL")
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(format!("{PASSWORD}\n").as_bytes())
        .unwrap();
    assert!(child.wait().unwrap().success());
}

fn login(addr: SocketAddr) -> String {
    let r = raw(
        addr,
        "POST",
        "/login",
        None,
        Some(&format!("username=admin&password={PASSWORD}")),
    )
    .unwrap();
    assert_eq!(r.status, 303, "{r:?}");
    r.cookie().unwrap()
}

/// Adds account `name` through the admin form; true when the server acknowledged it (303).
fn add_account(addr: SocketAddr, cookie: &str, name: &str) -> std::io::Result<u16> {
    let body = format!("username={name}&password={PASSWORD}&password2={PASSWORD}&role=secretary");
    Ok(raw(
        addr,
        "POST",
        "/verwaltung/konten",
        Some(cookie),
        Some(&body),
    )?
    .status)
}

async fn integrity_ok(db: &Db) {
    let (check,): (String,) = sqlx::query_as("pragma integrity_check")
        .fetch_one(&db.read)
        .await
        .unwrap();
    assert_eq!(check, "ok");
}

async fn usernames(db: &Db) -> Vec<String> {
    sqlx::query_as::<_, (String,)>("select username from users")
        .fetch_all(&db.read)
        .await
        .unwrap()
        .into_iter()
        .map(|(n,)| n)
        .collect()
}

/// (nights, results) of the fixture file.
fn fixture_counts(name: &str) -> (i64, i64) {
    let v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(fixture(name)).unwrap()).unwrap();
    let nights = v["nights"].as_array().unwrap();
    let results = nights
        .iter()
        .flat_map(|n| n["tables"].as_array().unwrap())
        .flat_map(|t| t["rounds"].as_array().unwrap())
        .map(|r| r["results"].as_array().unwrap().len() as i64)
        .sum();
    (nights.len() as i64, results)
}

#[tokio::test(flavor = "multi_thread")]
async fn an_import_killed_at_any_moment_is_all_or_nothing() {
    let (nights, results) = fixture_counts("sample-2026.season.json");
    let season = fixture("sample-2026.season.json");
    let import = |db_path: &Path| {
        Command::new(BIN)
            .arg("import")
            .arg(&season)
            .arg("--database")
            .arg(db_path)
            .env_remove("DATABASE_URL")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap()
    };
    // How long one whole import takes here (process start included).
    let dir = tempfile::tempdir().unwrap();
    let db_path = dir.path().join("liga.db");
    add_admin(&db_path);
    let start = Instant::now();
    assert!(import(&db_path).wait().unwrap().success());
    let full = start.elapsed();

    let mut outcomes = Vec::new();
    for step in 0..12u32 {
        let dir = tempfile::tempdir().unwrap();
        let db_path = dir.path().join("liga.db");
        add_admin(&db_path);
        let mut child = import(&db_path);
        // Kill points spread from 10 % to 130 % of a whole import.
        std::thread::sleep(full * (1 + step) / 10);
        let _ = child.kill();
        let status = child.wait().unwrap();
        let db = Db::open(&db_path).await.unwrap();
        integrity_ok(&db).await;
        let (n, r): (i64, i64) =
            sqlx::query_as("select (select count(*) from nights), (select count(*) from results)")
                .fetch_one(&db.read)
                .await
                .unwrap();
        assert!(
            (n, r) == (0, 0) || (n, r) == (nights, results),
            "step {step}: {n} nights, {r} results (exit {status:?})"
        );
        outcomes.push(n > 0);
        db.read.close().await;
        db.write.close().await;
    }
    eprintln!("import takes {full:?}; complete after kill: {outcomes:?}");
}

#[tokio::test(flavor = "multi_thread")]
async fn a_server_killed_during_a_burst_of_submissions_keeps_every_acknowledged_one() {
    let dir = tempfile::tempdir().unwrap();
    let db_path = dir.path().join("liga.db");
    add_admin(&db_path);
    let server = Server::start(&db_path);
    let addr = server.addr;
    let cookie = login(addr);
    let acked = Arc::new(Mutex::new(Vec::new()));
    let stop = Arc::new(AtomicBool::new(false));
    let mut workers = Vec::new();
    for w in 0..3 {
        let (acked, stop, cookie) = (acked.clone(), stop.clone(), cookie.clone());
        workers.push(std::thread::spawn(move || {
            for i in 0.. {
                if stop.load(Ordering::Relaxed) {
                    break;
                }
                let name = format!("b{w}x{i}");
                match add_account(addr, &cookie, &name) {
                    Ok(303) => acked.lock().unwrap().push(name),
                    Ok(other) => panic!("{name}: status {other}"),
                    Err(_) => break, // the server died mid-request
                }
            }
        }));
    }
    // Kill once a few submissions went through, while the workers have more in flight.
    let deadline = Instant::now() + Duration::from_secs(30);
    while acked.lock().unwrap().len() < 6 && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(20));
    }
    std::thread::sleep(Duration::from_millis(70));
    server.kill();
    stop.store(true, Ordering::Relaxed);
    for w in workers {
        w.join().unwrap();
    }
    let acked = acked.lock().unwrap().clone();
    assert!(
        acked.len() >= 3,
        "too few submissions before the kill: {}",
        acked.len()
    );

    let server = Server::start(&db_path);
    assert_eq!(
        raw(server.addr, "GET", "/", None, None).unwrap().status,
        200
    );
    let db = Db::open(&db_path).await.unwrap();
    integrity_ok(&db).await;
    let stored = usernames(&db).await;
    for name in &acked {
        assert!(stored.contains(name), "acknowledged {name} is lost");
    }
    eprintln!(
        "burst: {} acknowledged, {} stored",
        acked.len(),
        stored.len() - 1
    );
    server.kill();
}

#[tokio::test(flavor = "multi_thread")]
async fn four_clients_writing_for_ten_seconds_see_no_error_and_lose_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let db_path = dir.path().join("liga.db");
    add_admin(&db_path);
    let status = Command::new(BIN)
        .arg("import")
        .arg(fixture("small-2026.season.json"))
        .arg("--database")
        .arg(&db_path)
        .env_remove("DATABASE_URL")
        .stderr(Stdio::null())
        .status()
        .unwrap();
    assert!(status.success());
    let server = Server::start(&db_path);
    let addr = server.addr;
    let end = Instant::now() + Duration::from_secs(10);
    let mut clients = Vec::new();
    for c in 0..4 {
        clients.push(std::thread::spawn(move || {
            let cookie = login(addr);
            let mut acked = 0u64;
            let mut reads = 0u64;
            let mut i = 0;
            while Instant::now() < end {
                let name = format!("c{c}x{i}");
                i += 1;
                let status = add_account(addr, &cookie, &name).unwrap();
                assert_eq!(status, 303, "client {c} write {name}");
                acked += 1;
                let page = raw(addr, "GET", "/", None, None).unwrap();
                assert_eq!(page.status, 200, "client {c} read");
                reads += 1;
            }
            (acked, reads)
        }));
    }
    // A backup taken while the four write is consistent.
    std::thread::sleep(Duration::from_secs(5));
    let backup = dir.path().join("sicherung.db");
    let out = Command::new(BIN)
        .arg("backup")
        .arg(&backup)
        .arg("--database")
        .arg(&db_path)
        .env_remove("DATABASE_URL")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let copy = Db::open(&backup).await.unwrap();
    integrity_ok(&copy).await;
    let in_copy = usernames(&copy).await.len();
    assert!(in_copy > 1, "the backup holds the accounts written so far");

    let mut acked = 0;
    let mut reads = 0;
    for c in clients {
        let (a, r) = c.join().unwrap();
        acked += a;
        reads += r;
    }
    let db = Db::open(&db_path).await.unwrap();
    let (stored,): (i64,) = sqlx::query_as("select count(*) from users where username like 'c%'")
        .fetch_one(&db.read)
        .await
        .unwrap();
    let (audited,): (i64,) =
        sqlx::query_as("select count(*) from audit_log where action like 'Konto c%angelegt'")
            .fetch_one(&db.read)
            .await
            .unwrap();
    eprintln!(
        "concurrency: {acked} writes acknowledged, {stored} stored, {reads} reads; \
         backup after 5 s held {in_copy} accounts"
    );
    assert!(acked >= 8, "{acked}");
    assert_eq!(stored as u64, acked);
    assert_eq!(audited as u64, acked);
    server.kill();
}

#[tokio::test(flavor = "multi_thread")]
async fn the_secure_flag_is_set_from_the_environment() {
    let dir = tempfile::tempdir().unwrap();
    let db_path = dir.path().join("liga.db");
    add_admin(&db_path);
    for (env, secure) in [(None, false), (Some("true"), true), (Some("false"), false)] {
        let vars: Vec<(&str, &str)> = env
            .map(|v| vec![("SCHOCKERLIGA_SECURE_COOKIES", v)])
            .unwrap_or_default();
        let server = Server::start_with(&db_path, &vars);
        let r = raw(
            server.addr,
            "POST",
            "/login",
            None,
            Some(&format!("username=admin&password={PASSWORD}")),
        )
        .unwrap();
        let cookie = r.header("set-cookie").unwrap().to_string();
        assert_eq!(cookie.contains("Secure"), secure, "{env:?}: {cookie}");
        assert!(r.header("content-security-policy").is_some());
        server.kill();
    }
}
