//! Upgrades that keep the way back (issue 23.4), with the real binary: a database written by the
//! FIRST release (`tests/fixtures/first-release/liga.db`, made by `make.sh` beside it with the
//! binary of commit 907c77b) and one written by today's binary are read twice, migrated, read
//! twice again; every season's standings and payouts, the accounts, the audit rows, the fines
//! and the settings are as before. Reading commands leave the file byte for byte as it was (the
//! older release still opens it), and only `serve`/`migrate` migrate, after a verified copy.

use std::path::{Path, PathBuf};
use std::process::Output;

use serde_json::Value;
use sqlx::Connection;

use crate::common::{fixture, read_json};
use crate::run;
use crate::server::Server;
use schockerliga::service::backup::sha256_of;

const YEARS: [i32; 3] = [2024, 2025, 2026];

/// An audit row: id, at, user, action, before, after.
type AuditRow = (i64, String, String, String, Option<String>, Option<String>);

fn stdout_of(out: &Output) -> String {
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout.clone()).unwrap()
}

fn stderr_of(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// Whether `new` holds everything of `old`: every key of an object with a value that holds the
/// old one, arrays element by element of the same length, other values equal (a later release
/// may add fields, never change or drop one).
fn holds(old: &Value, new: &Value, at: &str) -> Result<(), String> {
    match (old, new) {
        (Value::Object(o), Value::Object(n)) => {
            for (k, v) in o {
                let Some(nv) = n.get(k) else {
                    return Err(format!("{at}.{k} fehlt"));
                };
                holds(v, nv, &format!("{at}.{k}"))?;
            }
            Ok(())
        }
        (Value::Array(o), Value::Array(n)) if o.len() == n.len() => o
            .iter()
            .zip(n)
            .enumerate()
            .try_for_each(|(i, (a, b))| holds(a, b, &format!("{at}[{i}]"))),
        _ if old == new => Ok(()),
        _ => Err(format!("{at}: vorher {old}, jetzt {new}")),
    }
}

/// What the league holds, read straight from the file (read-only): accounts, audit rows, fines,
/// result count, closed nights, settings (when the table exists).
fn rows(db: &Path) -> Vec<String> {
    let rt = tokio::runtime::Builder::new_current_thread()
        .build()
        .unwrap();
    rt.block_on(async {
        let url = format!("sqlite://{}?mode=ro", db.display());
        let mut c = sqlx::SqliteConnection::connect(&url).await.unwrap();
        let mut out = Vec::new();
        let users: Vec<(i64, String, String, String, bool)> = sqlx::query_as(
            "select id, username, password_hash, role, disabled from users order by id",
        )
        .fetch_all(&mut c)
        .await
        .unwrap();
        out.extend(users.iter().map(|u| format!("user {u:?}")));
        let audit: Vec<AuditRow> = sqlx::query_as(
            "select id, at, user, action, before_json, after_json from audit_log order by id",
        )
        .fetch_all(&mut c)
        .await
        .unwrap();
        out.extend(audit.iter().map(|a| format!("audit {a:?}")));
        let fines: Vec<(i64, i64, i64, String, i64, bool)> = sqlx::query_as(
            "select id, night_id, player_id, kind, amount_cents, paid from fines order by id",
        )
        .fetch_all(&mut c)
        .await
        .unwrap();
        out.extend(fines.iter().map(|f| format!("fine {f:?}")));
        let counts: (i64, i64, i64) = sqlx::query_as(
            "select (select count(*) from results), (select count(*) from nights where closed = 1),
                    (select count(*) from players)",
        )
        .fetch_one(&mut c)
        .await
        .unwrap();
        out.push(format!("counts {counts:?}"));
        c.close().await.unwrap();
        out
    })
}

/// The club's settings of a migrated database: (account_name, iban, paypal_me, money_private,
/// timezone).
fn settings(db: &Path) -> (String, String, String, bool, String) {
    let rt = tokio::runtime::Builder::new_current_thread()
        .build()
        .unwrap();
    rt.block_on(async {
        let url = format!("sqlite://{}?mode=ro", db.display());
        let mut c = sqlx::SqliteConnection::connect(&url).await.unwrap();
        let s = sqlx::query_as(
            "select account_name, iban, paypal_me, money_private, timezone from club_settings",
        )
        .fetch_one(&mut c)
        .await
        .unwrap();
        c.close().await.unwrap();
        s
    })
}

/// Reads every season's standings and payouts twice and checks them against `want` (year →
/// (standings, payouts)); returns the stderr of the last read.
fn read_twice(db: &Path, want: &[(i32, Value, Value)]) -> String {
    let mut last = String::new();
    for round in 1..=2 {
        for (year, standings, payouts) in want {
            let y = year.to_string();
            let out = run(db, &["standings", &y, "--json"]);
            let got: Value = serde_json::from_str(&stdout_of(&out)).unwrap();
            holds(standings, &got, &format!("Lesung {round}, standings {y}")).unwrap();
            let out = run(db, &["payouts", &y, "--json"]);
            let got: Value = serde_json::from_str(&stdout_of(&out)).unwrap();
            holds(payouts, &got, &format!("Lesung {round}, payouts {y}")).unwrap();
            last = stderr_of(&out);
        }
    }
    last
}

/// The files in `dir` whose names contain `part`.
fn files_with(dir: &Path, part: &str) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.file_name().unwrap().to_string_lossy().contains(part))
        .collect();
    v.sort();
    v
}

/// The standings and payouts the first release printed (fixtures beside its database).
fn first_release_answers() -> Vec<(i32, Value, Value)> {
    YEARS
        .iter()
        .map(|y| {
            (
                *y,
                read_json(&fixture(&format!("first-release/standings-{y}.json"))),
                read_json(&fixture(&format!("first-release/payouts-{y}.json"))),
            )
        })
        .collect()
}

#[test]
fn a_database_of_the_first_release_is_read_as_it_is_then_migrated_keeping_every_row() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("liga.db");
    std::fs::copy(fixture("first-release/liga.db"), &db).unwrap();
    let original = sha256_of(&db).unwrap();
    let before = rows(&db);
    assert!(before.iter().filter(|r| r.starts_with("user ")).count() == 3);
    assert!(before
        .iter()
        .any(|r| r.contains("Spielabend") || r.contains("abgeschlossen")));
    let want = first_release_answers();

    // Reading, twice: the same answers, a plain word on the older schema, the file untouched.
    let status = stdout_of(&run(&db, &["status"]));
    assert!(
        status.contains("ist älter als der Stand dieses Programms"),
        "{status}"
    );
    let err = read_twice(&db, &want);
    assert!(
        err.contains("Hinweis: Schema 20261129180000 ist älter"),
        "{err}"
    );
    assert!(err.contains("die Datei selbst bleibt unverändert"), "{err}");
    let export = stdout_of(&run(&db, &["export", "2026"]));
    assert!(export.contains("\"season\": 2026"));
    // `backup` copies the file as it is: the copy is of the first release's schema too.
    let copy = dir.path().join("kopie.db");
    stdout_of(&run(&db, &["backup", copy.to_str().unwrap()]));
    let status = stdout_of(&run(&copy, &["status"]));
    assert!(
        status.contains("Schema 20261129180000 ist älter"),
        "{status}"
    );
    assert_eq!(
        sha256_of(&db).unwrap(),
        original,
        "reading changed the file"
    );
    assert_eq!(rows(&db), before);

    // A command that writes does not migrate by the way: refused, the file untouched.
    let season = fixture("small-2026.season.json");
    let out = run(&db, &["import", season.to_str().unwrap(), "--replace"]);
    assert_eq!(out.status.code(), Some(1));
    let err = stderr_of(&out);
    assert!(err.contains("erst `schockerliga migrate`"), "{err}");
    assert_eq!(sha256_of(&db).unwrap(), original);

    // `migrate`: a verified copy beside, then the migrations; a second time: nothing to do.
    let out = run(&db, &["migrate"]);
    let err = stderr_of(&out);
    assert!(out.status.success(), "{err}");
    assert!(err.contains("Datenbank umgestellt"), "{err}");
    let copies = files_with(dir.path(), "liga.vor-update-");
    let names: Vec<String> = copies
        .iter()
        .map(|p| p.file_name().unwrap().to_string_lossy().into_owned())
        .collect();
    assert_eq!(names.len(), 3, "{names:?}");
    assert!(names[0].ends_with(".db") && names[1].ends_with(".db.probe"));
    assert!(names[2].ends_with(".db.sha256"));
    let probe = std::fs::read_to_string(&copies[1]).unwrap();
    assert!(probe.starts_with("Probe bestanden"), "{probe}");
    // The copy before is of the old schema (the first release opens it) and passes `verify`.
    let status = stdout_of(&run(&copies[0], &["status"]));
    assert!(
        status.contains("Schema 20261129180000 ist älter"),
        "{status}"
    );
    let verified = stdout_of(&run(
        &dir.path().join("egal.db"),
        &["verify", copies[0].to_str().unwrap()],
    ));
    assert!(verified.starts_with("Probe bestanden"), "{verified}");
    assert_eq!(rows(&copies[0]), before);

    let out = run(&db, &["migrate"]);
    assert!(out.status.success());
    assert!(
        stderr_of(&out).contains("Nichts umzustellen"),
        "{}",
        stderr_of(&out)
    );
    assert_eq!(files_with(dir.path(), "liga.vor-update-").len(), 3);
    let status = stdout_of(&run(&db, &["status"]));
    assert!(status.contains("der Stand dieses Programms"), "{status}");

    // Read twice again: the same answers, no notice; every row as before; default settings.
    let err = read_twice(&db, &want);
    assert!(!err.contains("Hinweis"), "{err}");
    assert_eq!(rows(&db), before);
    assert_eq!(
        settings(&db),
        (
            String::new(),
            String::new(),
            String::new(),
            false,
            String::new()
        )
    );
    let verified = stdout_of(&run(
        &dir.path().join("egal.db"),
        &["verify", db.to_str().unwrap()],
    ));
    assert!(verified.starts_with("Probe bestanden"), "{verified}");
    assert!(verified.contains("3 Saison(s) 2024–2026"), "{verified}");
    assert!(verified.contains("3 Konten"), "{verified}");
}

#[test]
fn a_database_of_todays_binary_reads_the_same_twice_and_needs_no_migration() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("liga.db");
    let season = fixture("sample-2026.season.json");
    stdout_of(&run(&db, &["import", season.to_str().unwrap()]));
    crate::server::add_admin(&db);
    let tz = run(&db, &["status", "--json"]);
    let today: Value = serde_json::from_str(&stdout_of(&tz)).unwrap();
    assert_eq!(today["timezone"], "Europe/Berlin");
    let want: Vec<(i32, Value, Value)> = vec![(
        2026,
        read_json(&fixture("sample-2026.standings.json")),
        read_json(&fixture("sample-2026.payouts.json")),
    )];
    // A stopped server leaves one file: compare it byte for byte.
    let server = Server::start(&db);
    drop(server);
    let sum = sha256_of(&db).unwrap();
    let before = rows(&db);
    let err = read_twice(&db, &want);
    assert!(!err.contains("Hinweis"), "{err}");
    assert_eq!(sha256_of(&db).unwrap(), sum);
    let out = run(&db, &["migrate"]);
    assert!(stderr_of(&out).contains("Nichts umzustellen"));
    assert!(files_with(dir.path(), "vor-update").is_empty());
    read_twice(&db, &want);
    assert_eq!(rows(&db), before);
    assert_eq!(sha256_of(&db).unwrap(), sum);
}

#[test]
fn a_database_newer_than_the_program_is_refused_plainly_and_left_alone() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("liga.db");
    let season = fixture("small-2026.season.json");
    stdout_of(&run(&db, &["import", season.to_str().unwrap()]));
    // A later release's migration, as it would be recorded.
    let rt = tokio::runtime::Builder::new_current_thread()
        .build()
        .unwrap();
    rt.block_on(async {
        let mut c = sqlx::SqliteConnection::connect(&format!("sqlite://{}", db.display()))
            .await
            .unwrap();
        sqlx::query(
            "insert into _sqlx_migrations (version, description, success, checksum, execution_time)
             values (29991231000000, 'later', 1, x'00', 0)",
        )
        .execute(&mut c)
        .await
        .unwrap();
        sqlx::query("pragma wal_checkpoint(TRUNCATE)")
            .execute(&mut c)
            .await
            .unwrap();
        c.close().await.unwrap();
    });
    let sum = sha256_of(&db).unwrap();
    for args in [
        &["standings", "2026"][..],
        &["export", "2026"][..],
        &["import", season.to_str().unwrap(), "--replace"][..],
        &["migrate"][..],
        &["serve", "--listen", "127.0.0.1:0"][..],
    ] {
        let out = run(&db, args);
        assert_eq!(out.status.code(), Some(1), "{args:?}");
        let err = stderr_of(&out);
        assert!(
            err.contains("ist neuer als der Stand dieses Programms")
                && err.contains("29991231000000"),
            "{args:?}: {err}"
        );
    }
    // The copy is made all the same: the file as it is.
    let copy = dir.path().join("kopie.db");
    stdout_of(&run(&db, &["backup", copy.to_str().unwrap()]));
    let out = run(&db, &["verify", copy.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stdout_of_any(&out).contains("neuer als der Stand dieses Programms"));
    assert_eq!(sha256_of(&db).unwrap(), sum);
}

fn stdout_of_any(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn serve_migrates_an_old_database_after_a_copy_and_holds_it_against_migrate_and_restore() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("liga.db");
    std::fs::copy(fixture("first-release/liga.db"), &db).unwrap();
    let before = rows(&db);
    let server = Server::start(&db);
    let log = server.log();
    assert!(log.contains("Datenbank umgestellt"), "{log}");
    let copies = files_with(dir.path(), "liga.vor-update-");
    assert_eq!(copies.len(), 3, "{copies:?}");
    assert_eq!(rows(&copies[0]), before);

    // While it serves: no migrate, no restore; reading works.
    let out = run(&db, &["migrate"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr_of(&out).contains("Ein anderer Prozess hält die Datenbank"),
        "{}",
        stderr_of(&out)
    );
    let out = run(&db, &["restore", copies[0].to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr_of(&out).contains("Ein anderer Prozess hält die Datenbank"),
        "{}",
        stderr_of(&out)
    );
    stdout_of(&run(&db, &["standings", "2026"]));
    drop(server);
    assert_eq!(rows(&db), before);
}

/// Runs `sql` on the database file `path` (a tester's hand, not the program's).
async fn tamper(path: &Path, sql: &str) {
    let mut conn = sqlx::SqliteConnection::connect(&format!("sqlite://{}", path.display()))
        .await
        .unwrap();
    sqlx::raw_sql(sql).execute(&mut conn).await.unwrap();
    conn.close().await.unwrap();
}

/// `serve` on `db` that is expected to stop by itself: its exit code and its log.
fn serve_until_it_stops(db: &Path) -> (Option<i32>, String) {
    let out = std::process::Command::new(crate::BIN)
        .args(["serve", "--listen", "127.0.0.1:0", "--database"])
        .arg(db)
        .env_remove("DATABASE_URL")
        .env("NO_COLOR", "1")
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// The pre-upgrade copies (`….db`, without their `.sha256`/`.probe`) beside `db`.
fn upgrade_copies(dir: &Path) -> Vec<PathBuf> {
    files_with(dir, "liga.vor-update-")
        .into_iter()
        .filter(|p| p.extension().is_some_and(|e| e == "db"))
        .collect()
}

/// Issue 32.6: when the copy before a migration failed its probe, `serve` exited and every
/// restart (systemd: each 5 s) wrote another full copy until the disk was full.
#[tokio::test]
async fn a_failed_pre_upgrade_copy_is_kept_once_said_in_log_and_status_and_not_made_again() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("liga.db");
    std::fs::copy(fixture("first-release/liga.db"), &db).unwrap();
    // A trigger no release made: every copy of this database fails its probe.
    tamper(
        &db,
        "create trigger fremd after insert on results begin select 1; end;",
    )
    .await;
    let (code, log) = serve_until_it_stops(&db);
    assert_eq!(code, Some(3), "{log}");
    assert!(log.contains("besteht ihre Probe nicht"), "{log}");
    assert!(log.contains("Trigger fremd ist zusätzlich"), "{log}");
    let copies = upgrade_copies(dir.path());
    assert_eq!(copies.len(), 1, "{copies:?}");
    assert!(log.contains(&copies[0].display().to_string()), "{log}");

    // Started again (as systemd would, or by hand): no second copy, the same reason.
    for _ in 0..3 {
        let (code, log) = serve_until_it_stops(&db);
        assert_eq!(code, Some(3), "{log}");
        assert!(log.contains("keine weitere Kopie"), "{log}");
        assert!(log.contains("Trigger fremd ist zusätzlich"), "{log}");
        assert_eq!(upgrade_copies(dir.path()), copies);
    }
    // The status says so.
    let status = stdout_of(&run(&db, &["status"]));
    assert!(status.contains("Umstellung angehalten"), "{status}");
    assert!(
        status.contains(&copies[0].display().to_string()),
        "{status}"
    );

    // Mended (the foreign trigger gone): the next start replaces the failed copy by a good one
    // and migrates.
    tamper(&db, "drop trigger fremd;").await;
    let server = Server::start(&db);
    assert!(
        server.log().contains("Datenbank umgestellt"),
        "{}",
        server.log()
    );
    drop(server);
    let now = upgrade_copies(dir.path());
    // One copy (the failed one replaced; within the same second it has the same name).
    assert_eq!(now.len(), 1, "{now:?}");
    let probe = std::fs::read_to_string(format!("{}.probe", now[0].display())).unwrap();
    assert!(probe.starts_with("Probe bestanden"), "{probe}");
    assert!(!stdout_of(&run(&db, &["status"])).contains("Umstellung angehalten"));
}

/// Issue 32.7: the documented way back after an upgrade, step by step (docs/restore.md): the
/// server stopped, the pre-upgrade copy restored; the database is then the older release's
/// again, every row as before, and writable (the copy is read-only, and `restore` copied its
/// mode: the service could not write the restored file).
#[test]
fn the_way_back_after_an_upgrade_restores_the_read_only_pre_upgrade_copy_as_a_writable_database() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("liga.db");
    std::fs::copy(fixture("first-release/liga.db"), &db).unwrap();
    let before = rows(&db);
    let server = Server::start(&db);
    assert!(
        server.log().contains("Datenbank umgestellt"),
        "{}",
        server.log()
    );
    drop(server);
    let copy = upgrade_copies(dir.path()).pop().unwrap();
    let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode(&copy), 0o400, "the way back is read-only");
    let sum = sha256_of(&copy).unwrap();

    let out = run(&db, &["restore", copy.to_str().unwrap()]);
    assert!(out.status.success(), "{}", stderr_of(&out));
    assert_eq!(
        mode(&db),
        0o600,
        "the restored database is writable for its owner"
    );
    assert_eq!(rows(&db), before);
    let status = stdout_of(&run(&db, &["status"]));
    assert!(
        status.contains("ist älter als der Stand dieses Programms"),
        "{status}"
    );
    assert_eq!(sha256_of(&copy).unwrap(), sum, "the copy stays as it was");
}
