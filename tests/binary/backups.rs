//! Backups that prove themselves (interchange.md "Running it for a club"), with the real binary:
//! `verify` passes a fresh copy and fails a damaged one (exit 0 / 1), `serve --backup-dir`
//! writes a verified copy by itself, `restore` puts a copy in place only while no server holds
//! the database and keeps the old file beside it.

use std::path::Path;
use std::process::Output;
use std::time::{Duration, Instant};

use crate::common::fixture;
use crate::run;
use crate::server::Server;

fn ok(out: &Output) -> (String, String) {
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn league(dir: &Path) -> std::path::PathBuf {
    let db = dir.join("liga.db");
    let season = fixture("small-2026.season.json");
    ok(&run(&db, &["import", season.to_str().unwrap()]));
    db
}

#[test]
fn verify_passes_a_fresh_backup_and_fails_a_damaged_one() {
    let dir = tempfile::tempdir().unwrap();
    let db = league(dir.path());
    let copy = dir.path().join("kopie.db");
    let (_, err) = ok(&run(&db, &["backup", copy.to_str().unwrap()]));
    assert!(err.contains("prüfen: schockerliga verify"), "{err}");
    let (report, _) = ok(&run(&db, &["verify", copy.to_str().unwrap()]));
    assert!(report.starts_with("Probe bestanden\n"), "{report}");
    assert!(report.contains("1 Saison(s) 2026–2026"), "{report}");

    let size = std::fs::metadata(&copy).unwrap().len();
    let truncated = dir.path().join("halb.db");
    std::fs::copy(&copy, &truncated).unwrap();
    std::fs::OpenOptions::new()
        .write(true)
        .open(&truncated)
        .unwrap()
        .set_len(size / 3)
        .unwrap();
    let flipped = dir.path().join("gekippt.db");
    let mut bytes = std::fs::read(&copy).unwrap();
    for b in &mut bytes[4096..4112] {
        *b ^= 0xff;
    }
    std::fs::write(&flipped, bytes).unwrap();
    for bad in [&truncated, &flipped] {
        let out = run(&db, &["verify", bad.to_str().unwrap()]);
        assert_eq!(out.status.code(), Some(1), "{}", bad.display());
        let stdout = String::from_utf8_lossy(&out.stdout);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stdout.starts_with("Probe fehlgeschlagen\n- "), "{stdout}");
        assert!(stderr.contains("Probe fehlgeschlagen: "), "{stderr}");
    }
}

#[test]
fn a_server_with_a_backup_dir_writes_a_verified_copy_by_itself() {
    let dir = tempfile::tempdir().unwrap();
    let db = league(dir.path());
    let backups = dir.path().join("sicherungen");
    let server = Server::spawn(
        std::process::Command::new(crate::BIN),
        &db,
        &[
            "--backup-dir",
            backups.to_str().unwrap(),
            "--backup-keep",
            "3",
        ],
        &[],
    );
    let end = Instant::now() + Duration::from_secs(60);
    let copy = loop {
        let found: Vec<_> = std::fs::read_dir(&backups)
            .map(|d| d.map(|e| e.unwrap().path()).collect())
            .unwrap_or_default();
        if let Some(c) = found
            .iter()
            .find(|p| p.extension().is_some_and(|e| e == "db"))
        {
            break c.clone();
        }
        assert!(Instant::now() < end, "no copy in {}", backups.display());
        std::thread::sleep(Duration::from_millis(50));
    };
    let name = copy.file_name().unwrap().to_string_lossy().into_owned();
    assert!(
        name.starts_with("liga-20") && name.ends_with(".db"),
        "{name}"
    );
    let probe = std::fs::read_to_string(backups.join(format!("{name}.probe"))).unwrap();
    assert!(probe.starts_with("Probe bestanden"), "{probe}");
    let sum = std::fs::read_to_string(backups.join(format!("{name}.sha256"))).unwrap();
    assert!(sum.ends_with(&format!("  {name}\n")), "{sum}");
    let (report, _) = ok(&run(&db, &["verify", copy.to_str().unwrap()]));
    assert!(report.contains(&sum[..64]), "{report}");
    let log = server.log();
    assert!(log.contains("Sicherungen in"), "{log}");
    // A restart on the same day finds today's copy and makes none.
    drop(server);
    let server = Server::spawn(
        std::process::Command::new(crate::BIN),
        &db,
        &["--backup-dir", backups.to_str().unwrap()],
        &[],
    );
    std::thread::sleep(Duration::from_millis(500));
    let copies = std::fs::read_dir(&backups)
        .unwrap()
        .filter(|e| {
            e.as_ref()
                .unwrap()
                .path()
                .extension()
                .is_some_and(|x| x == "db")
        })
        .count();
    assert_eq!(copies, 1);
    drop(server);
}

#[test]
fn restore_is_refused_while_serving_and_keeps_the_old_file_beside_it() {
    let dir = tempfile::tempdir().unwrap();
    let db = league(dir.path());
    let copy = dir.path().join("kopie.db");
    ok(&run(&db, &["backup", copy.to_str().unwrap()]));
    // After the copy: a second account that the restore takes away again.
    crate::server::add_admin(&db);

    let server = Server::start(&db);
    let out = run(&db, &["restore", copy.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("Ein anderer Prozess hält die Datenbank"),
        "{err}"
    );
    assert!(err.contains("systemctl stop schockerliga"), "{err}");
    drop(server);

    // A damaged copy is refused even without a server.
    let bad = dir.path().join("kaputt.db");
    std::fs::write(&bad, "keine Datenbank").unwrap();
    let out = run(&db, &["restore", bad.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("wird nicht wiederhergestellt"));

    let (report, err) = ok(&run(&db, &["restore", copy.to_str().unwrap()]));
    assert!(report.starts_with("Probe bestanden"), "{report}");
    assert!(err.contains("die vorige Datenbank liegt als"), "{err}");
    let kept: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with("liga.vor-wiederherstellung-") && n.ends_with(".db"))
        .collect();
    assert_eq!(kept.len(), 1, "{kept:?}");
    // The restored league: the season is there, the later account is not (the kept file has it).
    let (table, _) = ok(&run(&db, &["standings", "2026"]));
    assert!(table.contains("Tabelle Saison 2026"));
    let out = run(&db, &["user", "reset", crate::common::ADMIN]);
    assert_eq!(
        out.status.code(),
        Some(1),
        "the account came after the copy"
    );
    let old = dir.path().join(&kept[0]);
    let (_, _) = ok(&run(&old, &["user", "reset", crate::common::ADMIN]));
}

/// The binary with `args` and `--database db` under the umask `umask` (a shell sets it first).
fn run_with_umask(umask: &str, db: &Path, args: &[&str]) -> Output {
    std::process::Command::new("sh")
        .arg("-c")
        .arg(format!("umask {umask} && exec \"$0\" \"$@\""))
        .arg(crate::BIN)
        .args(args)
        .arg("--database")
        .arg(db)
        .env_remove("DATABASE_URL")
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap()
}

/// The permission bits of `path` (0o600 …).
fn mode(path: &Path) -> u32 {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(path).unwrap().permissions().mode() & 0o7777
}

#[test]
fn the_database_its_copies_and_the_backup_dir_are_private_whatever_the_umask() {
    let season = fixture("small-2026.season.json");
    for umask in ["000", "022", "277"] {
        let dir = tempfile::tempdir().unwrap();
        let db = dir.path().join("liga.db");
        ok(&run_with_umask(
            umask,
            &db,
            &["import", season.to_str().unwrap()],
        ));
        for name in ["liga.db", "liga.db-sitzungen"] {
            assert_eq!(mode(&dir.path().join(name)), 0o600, "umask {umask}: {name}");
        }
        // The database stays writable for its owner (a second import, then a read).
        ok(&run_with_umask(
            umask,
            &db,
            &["import", season.to_str().unwrap(), "--replace"],
        ));
        let copy = dir.path().join("kopie.db");
        ok(&run_with_umask(
            umask,
            &db,
            &["backup", copy.to_str().unwrap()],
        ));
        assert_eq!(mode(&copy), 0o600, "umask {umask}: backup");
    }

    let dir = tempfile::tempdir().unwrap();
    let db = league(dir.path());
    let backups = dir.path().join("sicherungen");
    let server = Server::spawn(
        {
            let mut sh = std::process::Command::new("sh");
            sh.arg("-c")
                .arg("umask 000 && exec \"$0\" \"$@\"")
                .arg(crate::BIN);
            sh
        },
        &db,
        &["--backup-dir", backups.to_str().unwrap()],
        &[],
    );
    let copy = wait_for_copy(&backups);
    drop(server);
    assert_eq!(mode(&backups), 0o700);
    let name = copy.file_name().unwrap().to_string_lossy().into_owned();
    for file in [
        name.clone(),
        format!("{name}.sha256"),
        format!("{name}.probe"),
    ] {
        assert_eq!(mode(&backups.join(&file)), 0o600, "{file}");
    }
}

/// A database of an older release (or copied with `cp`) that every local user may read (0644:
/// its account hashes too) is made private when the server starts, with its sessions' file, and
/// the log says so (hostile run: it stayed 0644 through `migrate` and `serve`).
#[test]
fn a_database_readable_by_everybody_is_made_private_when_the_server_starts() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let db = league(dir.path());
    let sessions = dir.path().join("liga.db-sitzungen");
    for f in [&db, &sessions] {
        if f.exists() {
            std::fs::set_permissions(f, std::fs::Permissions::from_mode(0o644)).unwrap();
        }
    }
    let server = Server::start(&db);
    let log = server.log();
    drop(server);
    assert_eq!(mode(&db), 0o600, "{log}");
    assert_eq!(mode(&sessions), 0o600, "{log}");
    assert!(log.contains("nur noch für ihren Besitzer lesbar"), "{log}");
}

/// Waits (at most 60 s) for the first copy `….db` in `backups`.
fn wait_for_copy(backups: &Path) -> std::path::PathBuf {
    let end = Instant::now() + Duration::from_secs(60);
    loop {
        let found: Vec<_> = std::fs::read_dir(backups)
            .map(|d| d.map(|e| e.unwrap().path()).collect())
            .unwrap_or_default();
        if let Some(c) = found
            .iter()
            .find(|p| p.extension().is_some_and(|e| e == "db"))
        {
            return c.clone();
        }
        assert!(Instant::now() < end, "no copy in {}", backups.display());
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// Runs `sql` on the database file `path` (a tester's hand, not the program's).
async fn tamper(path: &Path, sql: &str) {
    use sqlx::Connection;
    let mut conn = sqlx::SqliteConnection::connect(&format!("sqlite://{}", path.display()))
        .await
        .unwrap();
    sqlx::raw_sql(sql).execute(&mut conn).await.unwrap();
    conn.close().await.unwrap();
}

/// Issue 32.3: the probe compared only the migrations table. A copy whose triggers were
/// changed by hand (the audit and closed-night triggers dropped, one added that zeroes a
/// player's Outs) passed „Probe bestanden“ and was restored; a copy with bytes appended after
/// its last page passed too.
#[tokio::test]
async fn a_tampered_copy_fails_its_probe_naming_what_differs_and_is_not_restored() {
    let dir = tempfile::tempdir().unwrap();
    let db = league(dir.path());
    let copy = dir.path().join("kopie.db");
    ok(&run(&db, &["backup", copy.to_str().unwrap()]));
    let (report, _) = ok(&run(&db, &["verify", copy.to_str().unwrap()]));
    assert!(report.starts_with("Probe bestanden"), "{report}");

    let tampered = dir.path().join("manipuliert.db");
    std::fs::copy(&copy, &tampered).unwrap();
    tamper(
        &tampered,
        "drop trigger results_audit_insert;
         drop trigger results_closed_update;
         create trigger outs_weg after insert on results begin
             update results set outs = 0 where round_id = new.round_id and player_id = new.player_id;
         end;
         create index nebenbei on results(outs);",
    )
    .await;
    let out = run(&db, &["verify", tampered.to_str().unwrap()]);
    let report = String::from_utf8_lossy(&out.stdout).into_owned();
    assert_eq!(out.status.code(), Some(1), "{report}");
    assert!(report.starts_with("Probe fehlgeschlagen\n"), "{report}");
    for want in [
        "Trigger results_audit_insert fehlt",
        "Trigger results_closed_update fehlt",
        "Trigger outs_weg ist zusätzlich",
        "Index nebenbei ist zusätzlich",
    ] {
        assert!(report.contains(want), "{want}: {report}");
    }
    // A trigger changed under its own name.
    let changed = dir.path().join("geaendert.db");
    std::fs::copy(&copy, &changed).unwrap();
    tamper(
        &changed,
        "drop trigger results_closed_delete;
         create trigger results_closed_delete before delete on results begin select 1; end;",
    )
    .await;
    let out = run(&db, &["verify", changed.to_str().unwrap()]);
    let report = String::from_utf8_lossy(&out.stdout).into_owned();
    assert_eq!(out.status.code(), Some(1), "{report}");
    assert!(
        report.contains("Trigger results_closed_delete weicht ab"),
        "{report}"
    );

    // A trigger (or view, or index) that takes the name of sqlx's migrations table: triggers
    // have their own namespace, and the probe left out every object of that name (hostile
    // run: it hid a trigger that deleted every Protokoll row).
    let hidden = dir.path().join("versteckt.db");
    std::fs::copy(&copy, &hidden).unwrap();
    tamper(
        &hidden,
        "create trigger _sqlx_migrations after insert on audit_log begin
             delete from audit_log where id = new.id;
         end;",
    )
    .await;
    let out = run(&db, &["verify", hidden.to_str().unwrap()]);
    let report = String::from_utf8_lossy(&out.stdout).into_owned();
    assert_eq!(out.status.code(), Some(1), "{report}");
    assert!(
        report.contains("Trigger _sqlx_migrations ist zusätzlich"),
        "{report}"
    );
    let out = run(&db, &["restore", hidden.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));

    // Bytes after the last page (zeros appended).
    let longer = dir.path().join("verlaengert.db");
    let mut bytes = std::fs::read(&copy).unwrap();
    let size = bytes.len();
    bytes.extend(std::iter::repeat_n(0u8, 1 << 20));
    std::fs::write(&longer, bytes).unwrap();
    let out = run(&db, &["verify", longer.to_str().unwrap()]);
    let report = String::from_utf8_lossy(&out.stdout).into_owned();
    assert_eq!(out.status.code(), Some(1), "{report}");
    assert!(
        report.contains(&format!(
            "{} Bytes nach der letzten Seite der Datenbank",
            1 << 20
        )),
        "{size}: {report}"
    );

    // None of them is restored; the database stays as it was.
    let before = std::fs::read(&db).unwrap();
    for bad in [&tampered, &changed, &longer] {
        let out = run(&db, &["restore", bad.to_str().unwrap()]);
        assert_eq!(out.status.code(), Some(1), "{}", bad.display());
        assert!(String::from_utf8_lossy(&out.stderr).contains("wird nicht wiederhergestellt"));
    }
    assert_eq!(std::fs::read(&db).unwrap(), before);
}

/// Issue 32.7: a backup directory that cannot be made stopped `serve`; it serves without backups
/// and says why. Another database's backup directory is not used.
#[test]
fn a_backup_dir_that_cannot_be_used_does_not_stop_the_server() {
    let dir = tempfile::tempdir().unwrap();
    let db = league(dir.path());
    let file = dir.path().join("datei");
    std::fs::write(&file, b"").unwrap();
    let server = Server::spawn(
        std::process::Command::new(crate::BIN),
        &db,
        &["--backup-dir", file.join("sich").to_str().unwrap()],
        &[],
    );
    let log = server.log();
    assert!(log.contains("Der Server läuft ohne Sicherungen"), "{log}");
    assert!(log.contains("nicht anlegbar"), "{log}");
    drop(server);

    // Two databases of one name in two directories, one backup directory.
    let shared = dir.path().join("sicherungen");
    let server = Server::spawn(
        std::process::Command::new(crate::BIN),
        &db,
        &[
            "--backup-dir",
            shared.to_str().unwrap(),
            "--backup-keep",
            "1",
        ],
        &[],
    );
    let first = wait_for_copy(&shared);
    drop(server);
    let other_dir = dir.path().join("nachbarn");
    std::fs::create_dir(&other_dir).unwrap();
    let other = league(&other_dir);
    let server = Server::spawn(
        std::process::Command::new(crate::BIN),
        &other,
        &[
            "--backup-dir",
            shared.to_str().unwrap(),
            "--backup-keep",
            "1",
        ],
        &[],
    );
    std::thread::sleep(Duration::from_millis(500));
    let log = server.log();
    assert!(log.contains("gehört zur Datenbank"), "{log}");
    drop(server);
    let copies: Vec<_> = std::fs::read_dir(&shared)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "db"))
        .collect();
    assert_eq!(copies, vec![first]);
}

/// Issue 32.7: `backup` wrote straight to its target name, so a copy killed half-way (here by
/// the file size limit, SIGXFSZ) left a broken file under the name, and that name was then
/// taken („gibt es schon“). It writes `….teil` first; a leftover one goes at the next run.
#[test]
fn a_killed_backup_leaves_nothing_under_its_name_and_the_next_one_cleans_up() {
    let dir = tempfile::tempdir().unwrap();
    let db = league(dir.path());
    let copy = dir.path().join("kopie.db");
    let out = std::process::Command::new("sh")
        .arg("-c")
        .arg("ulimit -f 16 && exec \"$0\" \"$@\"")
        .arg(crate::BIN)
        .args(["backup", copy.to_str().unwrap(), "--database"])
        .arg(&db)
        .env_remove("DATABASE_URL")
        .output()
        .unwrap();
    assert!(!out.status.success(), "the limit stopped it");
    assert!(!copy.exists(), "a half copy under the name");
    let (_, err) = ok(&run(&db, &["backup", copy.to_str().unwrap()]));
    assert!(err.contains("Sicherung geschrieben"), "{err}");
    let (report, _) = ok(&run(&db, &["verify", copy.to_str().unwrap()]));
    assert!(report.starts_with("Probe bestanden"), "{report}");
    let left: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".teil"))
        .collect();
    assert!(left.is_empty(), "{left:?}");
}

/// Issue 32.7: a copy killed while it was written left `….teil` (and sidecars without their
/// copy) in the backup directory for ever; the server's start removes them.
#[test]
fn leftovers_of_killed_copies_go_when_the_server_starts() {
    let dir = tempfile::tempdir().unwrap();
    let db = league(dir.path());
    let backups = dir.path().join("sicherungen");
    std::fs::create_dir(&backups).unwrap();
    let stale = [
        "liga-2026-01-01-040000.db.teil",
        "liga-2026-01-02-040000.db.sha256",
        "liga-2026-01-02-040000.db.probe",
        // SQLite's rollback journal of a copy killed while VACUUM INTO wrote it (hostile run:
        // they piled up, one per kill)
        "liga-2026-01-03-040000.db.teil-journal",
    ];
    for name in stale {
        std::fs::write(backups.join(name), b"halb").unwrap();
    }
    // Not this program's: stays.
    std::fs::write(backups.join("notiz.txt"), b"bleibt").unwrap();
    let server = Server::spawn(
        std::process::Command::new(crate::BIN),
        &db,
        &["--backup-dir", backups.to_str().unwrap()],
        &[],
    );
    let copy = wait_for_copy(&backups);
    drop(server);
    for name in stale {
        assert!(!backups.join(name).exists(), "{name} is still there");
    }
    assert!(backups.join("notiz.txt").exists());
    assert!(copy.exists());
}

/// Issue 32.7: after a restore that stopped between its steps (an older release moved the
/// database away first), the next start made an empty league beside the waiting copy. No
/// command makes a database beside a `….wiederherstellung`.
#[test]
fn no_database_is_made_beside_an_interrupted_restore() {
    let dir = tempfile::tempdir().unwrap();
    let db = league(dir.path());
    let waiting = dir.path().join("liga.db.wiederherstellung");
    std::fs::rename(&db, &waiting).unwrap();
    for args in [
        &["serve", "--listen", "127.0.0.1:0"][..],
        &["demo"],
        &[
            "import",
            fixture("small-2026.season.json").to_str().unwrap(),
        ],
    ] {
        let out = run(&db, args);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {err}");
        assert!(
            err.contains("unterbrochenen Wiederherstellung"),
            "{args:?}: {err}"
        );
        assert!(err.contains("mv "), "{args:?}: {err}");
        assert!(!db.exists(), "{args:?} made a database");
    }
}
