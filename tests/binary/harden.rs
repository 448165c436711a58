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
