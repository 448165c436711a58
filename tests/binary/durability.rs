//! Faults and concurrency against the real binary: `kill -9` during an import and during a burst of
//! round submissions (the secretary's round form), then restart and check `PRAGMA integrity_check`,
//! that every acknowledged round is stored and that the import is all or nothing; four clients
//! entering rounds at four nights for 10 s see no SQLITE_BUSY or other server error and lose nothing.

use std::net::SocketAddr;
use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use schockerliga::db::Db;

use crate::common::{fixture, PASSWORD};
use crate::server::{add_admin, login, raw, Server};
use crate::BIN;

/// The nights of [`round_season`]; client/worker `c` enters rounds at `ROUND_NIGHTS[c]`.
const ROUND_NIGHTS: [&str; 4] = ["2026-01-09", "2026-01-16", "2026-01-23", "2026-01-30"];

/// A season of four nights with Anna, Bernd, Carla and Dirk drawn to table 1 (round 1 entered, so
/// the import knows who sits there); rounds 2..=10 are free for the clients.
fn round_season() -> String {
    let night = r#"{ "date": "DATE", "tables": [ { "number": 1, "rounds": [ { "number": 1, "results": [
        { "player": "Anna", "outs": 0, "hand_outs": 0, "julen": 0 },
        { "player": "Bernd", "outs": 1, "hand_outs": 0, "julen": 0, "lost": true },
        { "player": "Carla", "outs": 0, "hand_outs": 0, "julen": 0 },
        { "player": "Dirk", "outs": 0, "hand_outs": 0, "julen": 0 } ] } ] } ] }"#;
    let nights: Vec<String> = ROUND_NIGHTS
        .iter()
        .map(|d| night.replace("DATE", d))
        .collect();
    format!(
        r#"{{ "format": "schockerliga-season/1", "season": 2026, "rules": {{}},
  "players": [ {{ "name": "Anna", "fee_paid_on": null }}, {{ "name": "Bernd", "fee_paid_on": null }},
               {{ "name": "Carla", "fee_paid_on": null }}, {{ "name": "Dirk", "fee_paid_on": null }} ],
  "nights": [ {} ] }}"#,
        nights.join(", ")
    )
}

/// Creates the admin and imports [`round_season`] through the command line; returns the player
/// ids (Anna, Bernd, Carla, Dirk).
async fn prepare_rounds(dir: &Path, db_path: &Path) -> Vec<i64> {
    add_admin(db_path);
    let file = dir.join("runden-2026.json");
    std::fs::write(&file, round_season()).unwrap();
    let out = Command::new(BIN)
        .arg("import")
        .arg(&file)
        .arg("--database")
        .arg(db_path)
        .env_remove("DATABASE_URL")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let db = Db::open(db_path).await.unwrap();
    let ids: Vec<(i64,)> = sqlx::query_as("select id from players order by name")
        .fetch_all(&db.read)
        .await
        .unwrap();
    db.write.close().await;
    db.read.close().await;
    db.sessions.close().await;
    ids.into_iter().map(|(id,)| id).collect()
}

/// Posts round `number` at table 1 of night `date` through the round form: every player played,
/// `ids[loser]` lost with one Out. Returns the status.
fn post_round(
    addr: SocketAddr,
    cookie: &str,
    date: &str,
    number: u32,
    ids: &[i64],
    loser: usize,
) -> std::io::Result<u16> {
    let mut body = format!("table=1&number={number}&replace=1&lost={}", ids[loser]);
    for (i, id) in ids.iter().enumerate() {
        let outs = u32::from(i == loser);
        body.push_str(&format!(
            "&played_{id}=1&outs_{id}={outs}&hand_outs_{id}=0&julen_{id}=0"
        ));
    }
    Ok(raw(
        addr,
        "POST",
        &format!("/verwaltung/abend/{date}/runde"),
        Some(cookie),
        Some(&body),
    )?
    .status)
}

/// (date, round number, loser's player id) of every round stored at table 1.
async fn stored_rounds(db: &Db) -> Vec<(String, i64, i64)> {
    sqlx::query_as(
        "select n.date, r.number, x.player_id from rounds r join nights n on n.id = r.night_id
         join results x on x.round_id = r.id where r.table_no = 1 and x.lost = 1",
    )
    .fetch_all(&db.read)
    .await
    .unwrap()
}

async fn integrity_ok(db: &Db) {
    let (check,): (String,) = sqlx::query_as("pragma integrity_check")
        .fetch_one(&db.read)
        .await
        .unwrap();
    assert_eq!(check, "ok");
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
#[ignore = "kill -9: 12 imports killed, ~5 s; run by .ci/run (cargo test -- --ignored)"]
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
#[ignore = "kill -9 of the server during a burst of writes; run by .ci/run (cargo test -- --ignored)"]
async fn a_server_killed_during_a_burst_of_submissions_keeps_every_acknowledged_one() {
    let dir = tempfile::tempdir().unwrap();
    let db_path = dir.path().join("liga.db");
    let ids = Arc::new(prepare_rounds(dir.path(), &db_path).await);
    let server = Server::start(&db_path);
    let addr = server.addr;
    let cookie = login(addr);
    // (night, round number) acknowledged with 303.
    let acked = Arc::new(Mutex::new(Vec::new()));
    let stop = Arc::new(AtomicBool::new(false));
    let mut workers = Vec::new();
    for date in ROUND_NIGHTS.into_iter().take(3) {
        let (acked, stop, cookie, ids) = (acked.clone(), stop.clone(), cookie.clone(), ids.clone());
        workers.push(std::thread::spawn(move || {
            for i in 0.. {
                if stop.load(Ordering::Relaxed) {
                    break;
                }
                let number = 2 + (i % 9);
                match post_round(addr, &cookie, date, number, &ids, i as usize % 4) {
                    Ok(303) => acked
                        .lock()
                        .unwrap()
                        .push((date.to_string(), i64::from(number))),
                    Ok(other) => panic!("{date} round {number}: status {other}"),
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
    let stored: Vec<(String, i64)> = stored_rounds(&db)
        .await
        .into_iter()
        .map(|(d, n, _)| (d, n))
        .collect();
    for round in &acked {
        assert!(
            stored.contains(round),
            "acknowledged round {round:?} is lost"
        );
    }
    eprintln!(
        "burst: {} round submissions acknowledged, {} rounds stored",
        acked.len(),
        stored.len()
    );
    server.kill();
}

#[tokio::test(flavor = "multi_thread")]
#[ignore = "soak: 4 clients for 10 s; run by .ci/run (cargo test -- --ignored)"]
async fn four_clients_writing_for_ten_seconds_see_no_error_and_lose_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let db_path = dir.path().join("liga.db");
    let ids = Arc::new(prepare_rounds(dir.path(), &db_path).await);
    let server = Server::start(&db_path);
    let addr = server.addr;
    let end = Instant::now() + Duration::from_secs(10);
    let mut clients = Vec::new();
    for (c, date) in ROUND_NIGHTS.into_iter().enumerate() {
        let ids = ids.clone();
        clients.push(std::thread::spawn(move || {
            // Client c enters rounds 2..=10 at its own night, over and over (a number entered
            // again replaces the round); it remembers the loser of its last acknowledged entry.
            let cookie = login(addr);
            let mut last = std::collections::BTreeMap::new();
            let mut acked = 0u64;
            let mut reads = 0u64;
            let mut i = 0usize;
            while Instant::now() < end {
                let number = 2 + (i % 9) as u32;
                let loser = (i / 9 + i) % 4;
                i += 1;
                let status = post_round(addr, &cookie, date, number, &ids, loser).unwrap();
                assert_eq!(status, 303, "client {c}: {date} round {number}");
                acked += 1;
                last.insert((date.to_string(), i64::from(number)), ids[loser]);
                let page = raw(addr, "GET", &format!("/abend/{date}"), None, None).unwrap();
                assert_eq!(page.status, 200, "client {c} read");
                reads += 1;
            }
            (acked, reads, last)
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
    let in_copy = stored_rounds(&copy).await.len();
    assert!(in_copy > 4, "the backup holds the rounds written so far");

    let mut acked = 0;
    let mut reads = 0;
    let mut want = std::collections::BTreeMap::new();
    for c in clients {
        let (a, r, last) = c.join().unwrap();
        acked += a;
        reads += r;
        want.extend(last);
    }
    let db = Db::open(&db_path).await.unwrap();
    integrity_ok(&db).await;
    let stored: std::collections::BTreeMap<(String, i64), i64> = stored_rounds(&db)
        .await
        .into_iter()
        .filter(|(_, n, _)| *n > 1)
        .map(|(d, n, loser)| ((d, n), loser))
        .collect();
    let (entered,): (i64,) = sqlx::query_as(
        "select count(*) from audit_log where user = 'admin' and action = 'Ergebnis eingetragen'",
    )
    .fetch_one(&db.read)
    .await
    .unwrap();
    eprintln!(
        "concurrency: {acked} round submissions acknowledged, {} distinct rounds stored, {reads} reads; \
         backup after 5 s held {in_copy} rounds",
        stored.len()
    );
    assert!(acked >= 8, "{acked}");
    // Every acknowledged round is stored, as last acknowledged, and nothing else.
    assert_eq!(stored, want);
    // Each acknowledged submission entered 4 results, each audited once with its author.
    assert_eq!(entered as u64, 4 * acked);
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

/// Issue 32.7: `restore` moved the old database away and then the copy in; a crash between
/// the two left no database, and the next start made an empty league. Killed (-9) at each
/// step of a restore (the debug build pauses there when `SCHOCKERLIGA_TEST_RESTORE_PAUSE_MS`
/// is set and says „Wiederherstellung: Schritt N“), the database is always there, whole, the
/// old one or the restored one; a server starts on it with the league, and the restore done
/// again completes.
#[test]
#[ignore = "kill -9 at each step of a restore, ~25 s; run by .ci/run (cargo test -- --ignored)"]
fn a_restore_killed_at_any_step_leaves_the_old_or_the_new_database_never_none() {
    use std::io::BufRead;
    let season = fixture("small-2026.season.json");
    let ok = |out: std::process::Output| {
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    };
    let mut seen = Vec::new();
    for step in 1..=4u32 {
        let dir = tempfile::tempdir().unwrap();
        let db = dir.path().join("liga.db");
        ok(crate::run(&db, &["import", season.to_str().unwrap()]));
        let copy = dir.path().join("kopie.db");
        ok(crate::run(&db, &["backup", copy.to_str().unwrap()]));
        // After the copy: an account the restored database does not have.
        add_admin(&db);
        let mut child = Command::new(BIN)
            .args(["restore", copy.to_str().unwrap(), "--database"])
            .arg(&db)
            .env_remove("DATABASE_URL")
            .env("NO_COLOR", "1")
            .env("SCHOCKERLIGA_TEST_RESTORE_PAUSE_MS", "3000")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut lines = std::io::BufReader::new(child.stderr.take().unwrap()).lines();
        let marker = format!("Wiederherstellung: Schritt {step}");
        let mut log = String::new();
        let reached = loop {
            match lines.next() {
                Some(Ok(line)) => {
                    log.push_str(&line);
                    log.push('\n');
                    if line.contains(&marker) {
                        break true;
                    }
                }
                _ => break false,
            }
        };
        let _ = child.kill();
        let _ = child.wait();
        if !reached {
            // The last step came and went: the restore is done.
            assert!(step == 4, "step {step} not reached: {log}");
        }
        assert!(db.exists(), "step {step}: no database at {}", db.display());
        // The old database (with the account) or the restored one (without).
        let reset = crate::run(&db, &["user", "reset", crate::common::ADMIN]);
        let has_admin = reset.status.success();
        seen.push((step, has_admin));
        let table = crate::run(&db, &["standings", "2026"]);
        assert!(
            table.status.success(),
            "step {step}: {}",
            String::from_utf8_lossy(&table.stderr)
        );
        // A server takes it as it is: no new, empty league.
        let server = Server::start(&db);
        assert!(!server.log().contains("Neue Datenbank"), "{}", server.log());
        drop(server);
        // Done again, the restore completes.
        ok(crate::run(&db, &["restore", copy.to_str().unwrap()]));
        assert!(!crate::run(&db, &["user", "reset", crate::common::ADMIN])
            .status
            .success());
        let left: Vec<_> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|n| n.ends_with(".wiederherstellung"))
            .collect();
        assert!(left.is_empty(), "step {step}: {left:?}");
    }
    // Killed before the copy took its place the old one stays, after it the new one.
    assert_eq!(seen[0], (1, true), "{seen:?}");
    assert_eq!(seen.last().map(|s| s.1), Some(false), "{seen:?}");
}
