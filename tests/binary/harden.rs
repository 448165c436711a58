//! What a hostile tester found (issue 5) on the command line: overflowing numbers, hostile account
//! names, a byte order mark, a closed pipe, a directory as database, an as-of date outside the
//! season; each refused with a German message (exit 1), never a panic.

use serde_json::{json, Value};

use crate::common::fixture;
use crate::{run, BIN};

/// The small fixture season as JSON, for editing.
fn small_season() -> Value {
    serde_json::from_str(&std::fs::read_to_string(fixture("small-2026.season.json")).unwrap())
        .unwrap()
}

#[test]
fn overflowing_numbers_in_a_season_file_exit_1_without_panic() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("liga.db");
    // (edit of the small season, expected fragment of stderr)
    type Edit = fn(&mut Value);
    let cases: [(Edit, &str); 3] = [
        (
            |v| v["rules"]["payout_percent"] = json!([4294967295u32, 1]),
            "payout_percent",
        ),
        (
            |v| v["rules"]["payout_percent"] = json!([2147483648u32, 2147483648u32]),
            "payout_percent",
        ),
        (
            |v| {
                let fines = v["nights"][0]["fines"].as_array_mut().unwrap();
                fines.push(json!({"player": "Anna", "kind": "late", "paid": true,
                                  "amount_cents": i64::MAX}));
                fines.push(json!({"player": "Anna", "kind": "late", "paid": true,
                                  "amount_cents": i64::MAX}));
            },
            "höchstens 1.000.000 Cent",
        ),
    ];
    for (i, (edit, want)) in cases.into_iter().enumerate() {
        let mut v = small_season();
        edit(&mut v);
        let path = dir.path().join(format!("case{i}.json"));
        std::fs::write(&path, serde_json::to_vec(&v).unwrap()).unwrap();
        let out = run(&db, &["import", path.to_str().unwrap()]);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "case {i}: {err}");
        assert!(err.contains(want), "case {i}: {err}");
        assert!(!err.contains("panicked"), "case {i}: {err}");
    }
}

#[test]
fn user_add_uses_the_web_account_name_check() {
    use std::io::Write;
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("liga.db");
    let long = "k".repeat(51);
    // (name, accepted)
    let cases = [
        ("kassierer", true),
        (long.as_str(), false),
        ("kas\u{7}sierer", false),
        ("\u{1b}[31mrot", false),
        ("kas\tsierer", false),
        ("\u{202E}reiressak", false),
        ("kas\u{200B}sierer", false),
        ("   ", false),
    ];
    for (name, ok) in cases {
        let mut child = std::process::Command::new(BIN)
            .args(["user", "add", name, "--role", "secretary", "--database"])
            .arg(&db)
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        // The name may be refused before the password is read: a closed pipe is fine then.
        let _ = child.stdin.take().unwrap().write_all(b"geheim123\n");
        let out = child.wait_with_output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.success(), ok, "{name:?}: {err}");
        if !ok {
            assert_eq!(out.status.code(), Some(1), "{name:?}: {err}");
            assert!(err.contains("Der Name"), "{name:?}: {err}");
        }
    }
}

#[test]
fn cli_bom_broken_pipe_and_directory() {
    use std::io::Read;
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("liga.db");
    // A season file with a UTF-8 byte order mark imports like one without.
    let mut bom = b"\xEF\xBB\xBF".to_vec();
    bom.extend(std::fs::read(fixture("sample-2026.season.json")).unwrap());
    let file = dir.path().join("bom.json");
    std::fs::write(&file, bom).unwrap();
    let out = run(&db, &["import", file.to_str().unwrap()]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );

    // `export 2026 | head`: the reader goes away; no panic, exit 0.
    let mut child = std::process::Command::new(BIN)
        .args(["export", "2026", "--database"])
        .arg(&db)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let mut err = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut err)
        .unwrap();
    let status = child.wait().unwrap();
    assert!(!err.contains("panicked"), "{err}");
    assert!(status.success(), "{status:?}: {err}");

    // --database naming a directory: one clear sentence.
    let out = run(dir.path(), &["standings", "2026"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert_eq!(err.matches("ist ein Verzeichnis").count(), 1, "{err}");
}

#[test]
fn cli_as_of_outside_the_season_exits_1() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("liga.db");
    let file = fixture("small-2026.season.json");
    assert!(run(&db, &["import", file.to_str().unwrap()])
        .status
        .success());
    // An as-of date outside the season's year is an input error.
    for date in ["0000-01-01", "2025-12-31", "2027-01-01"] {
        let out = run(&db, &["standings", "2026", "--as-of", date]);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{date}: {err}");
        assert!(err.contains("nicht in der Saison 2026"), "{date}: {err}");
    }
    let out = run(&db, &["standings", "2026", "--as-of", "2026-03-01"]);
    assert!(out.status.success());
}

/// The uid of `nobody`: the service's user in the tests of files owned by another user.
const NOBODY: u32 = 65534;

/// Whether the tests run as root (they create files of another user with chown); else those
/// tests say so and pass without checking.
fn as_root() -> bool {
    let root = nix::unistd::geteuid().is_root();
    if !root {
        eprintln!("übersprungen: braucht root (chown auf einen anderen Benutzer)");
    }
    root
}

/// Every file and directory under `dir` (and `dir`), each with its owner's uid.
fn owners(dir: &std::path::Path) -> Vec<(std::path::PathBuf, u32)> {
    use std::os::unix::fs::MetadataExt;
    let mut all = vec![(dir.to_path_buf(), std::fs::metadata(dir).unwrap().uid())];
    for e in std::fs::read_dir(dir).unwrap() {
        let e = e.unwrap();
        all.push((e.path(), e.metadata().unwrap().uid()));
    }
    all
}

/// `dir` and everything in it handed to `nobody`.
fn give_to_nobody(dir: &std::path::Path) {
    for (path, _) in owners(dir) {
        std::os::unix::fs::chown(&path, Some(NOBODY), Some(NOBODY)).unwrap();
    }
}

/// `schockerliga user add NAME --role admin --database db` with the password on stdin.
fn user_add(db: &std::path::Path, name: &str) -> std::process::Output {
    use std::io::Write;
    let mut child = std::process::Command::new(BIN)
        .args(["user", "add", name, "--role", "admin", "--database"])
        .arg(db)
        .env_remove("DATABASE_URL")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let _ = child.stdin.take().unwrap().write_all(b"geheim123\n");
    child.wait_with_output().unwrap()
}

#[test]
fn a_command_as_root_on_the_database_of_another_user_is_refused_and_leaves_no_file_of_root() {
    if !as_root() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("liga.db");
    let file = fixture("small-2026.season.json");
    assert!(run(&db, &["import", file.to_str().unwrap()])
        .status
        .success());
    // The service's files, as the package has them; the sessions' file is made anew by the
    // first command that opens the database for writing (issue 31.2: it was root's then).
    for side in [
        "liga.db-sitzungen",
        "liga.db-sitzungen-wal",
        "liga.db-sitzungen-shm",
    ] {
        let _ = std::fs::remove_file(dir.path().join(side));
    }
    give_to_nobody(dir.path());

    // (what, its output)
    let writes = [
        ("user add", user_add(&db, "neu")),
        (
            "import",
            run(&db, &["import", file.to_str().unwrap(), "--replace"]),
        ),
        ("night plan", run(&db, &["night", "plan", "2026-12-30"])),
        ("migrate", run(&db, &["migrate"])),
        (
            "backup beside it",
            run(
                &db,
                &["backup", dir.path().join("kopie.db").to_str().unwrap()],
            ),
        ),
    ];
    for (what, out) in writes {
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{what}: {err}");
        assert!(err.contains("gehört dem Benutzer nobody"), "{what}: {err}");
        assert!(
            // the program as a shell finds it: here its full path (the test's PATH lacks it)
            err.contains(&format!(
                "sudo -u nobody {} --database {}",
                std::fs::canonicalize(crate::BIN).unwrap().display(),
                db.display()
            )),
            "{what}: {err}"
        );
    }
    // Reading is fine as any user (read-only: it makes no file of its own).
    for args in [&["standings", "2026"][..], &["status"], &["export", "2026"]] {
        let out = run(&db, args);
        assert!(
            out.status.success(),
            "{args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    for (path, uid) in owners(dir.path()) {
        assert_eq!(uid, NOBODY, "{} belongs to {uid}", path.display());
    }
    // A backup elsewhere is the caller's own file.
    let elsewhere = tempfile::tempdir().unwrap();
    let out = run(
        &db,
        &[
            "backup",
            elsewhere.path().join("kopie.db").to_str().unwrap(),
        ],
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );

    // No database yet, in a directory of another user: none is made as root.
    let fresh = tempfile::tempdir().unwrap();
    give_to_nobody(fresh.path());
    let new_db = fresh.path().join("liga.db");
    let out = user_add(&new_db, "admin");
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.contains("Das Verzeichnis der Datenbank"), "{err}");
    assert!(err.contains("sudo -u nobody"), "{err}");
    assert_eq!(std::fs::read_dir(fresh.path()).unwrap().count(), 0);
}

#[test]
fn serve_names_the_file_it_cannot_write_and_its_owner() {
    use std::os::unix::process::CommandExt;
    if !as_root() {
        return;
    }
    // The binary where the user nobody may run it.
    let bin_dir = tempfile::tempdir().unwrap();
    let bin = bin_dir.path().join("schockerliga");
    std::fs::copy(BIN, &bin).unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(bin_dir.path(), std::fs::Permissions::from_mode(0o755)).unwrap();

    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("liga.db");
    let file = fixture("small-2026.season.json");
    assert!(run(&db, &["import", file.to_str().unwrap()])
        .status
        .success());
    give_to_nobody(dir.path());
    // What a command as root left before this fix: the sessions' file of root, 0644.
    let sessions = dir.path().join("liga.db-sitzungen");
    std::os::unix::fs::chown(&sessions, Some(0), Some(0)).unwrap();
    std::fs::set_permissions(&sessions, std::fs::Permissions::from_mode(0o644)).unwrap();

    let mut child = std::process::Command::new(&bin)
        .args(["serve", "--listen", "127.0.0.1:0", "--database"])
        .arg(&db)
        .env_remove("DATABASE_URL")
        .env("NO_COLOR", "1")
        .uid(NOBODY)
        .gid(NOBODY)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let end = std::time::Instant::now() + std::time::Duration::from_secs(30);
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break Some(s);
        }
        if std::time::Instant::now() > end {
            break None;
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    };
    if status.is_none() {
        child.kill().unwrap();
    }
    let out = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(status.and_then(|s| s.code()), Some(1), "{err}");
    assert!(err.contains(&sessions.display().to_string()), "{err}");
    assert!(err.contains("gehört root"), "{err}");
    assert!(err.contains("sudo chown nobody:"), "{err}");
}
