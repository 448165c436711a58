//! `schockerliga demo`: the same seed fills the same league, through the import path.

use std::process::Command;

use schockerliga::demo::{league, DemoSpec};
use schockerliga::league::Season;
use serde_json::Value;

use crate::BIN;

#[test]
fn the_demo_command_fills_the_same_league_for_the_same_seed() {
    let bin = BIN;
    let dir = tempfile::tempdir().unwrap();
    let export = |name: &str, seed: &str| {
        let db = dir.path().join(format!("{name}.db"));
        let out = Command::new(bin)
            .args(["demo", "--seasons", "2", "--nights", "6", "--players", "12"])
            .args(["--seed", seed, "--database"])
            .arg(&db)
            .env_remove("DATABASE_URL")
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let out = Command::new(bin)
            .args(["export", "2026", "--database"])
            .arg(&db)
            .env_remove("DATABASE_URL")
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        serde_json::from_slice::<Value>(&out.stdout).unwrap()
    };
    let a = export("a", "5");
    assert_eq!(a, export("b", "5"));
    assert_ne!(a, export("c", "6"));
    // What was stored is the generator's season, through the import path.
    let spec = DemoSpec {
        seasons: 2,
        nights: 6,
        players: 12,
        seed: 5,
        last_year: 2026,
        besteck_nights: 3,
    };
    let generated = &league(&spec)[1];
    let canonical = Season::from_file(generated).unwrap().to_file();
    assert_eq!(a, serde_json::to_value(canonical).unwrap());
}

#[test]
fn the_demo_refuses_to_replace_a_season_with_nights_unless_asked() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("club.db");
    let run = |extra: &[&str]| {
        Command::new(BIN)
            .args(["demo", "--seasons", "1", "--nights", "2", "--players", "5"])
            .args(extra)
            .arg("--database")
            .arg(&db)
            .env_remove("DATABASE_URL")
            .output()
            .unwrap()
    };
    let export = || {
        Command::new(BIN)
            .args(["export", "2026", "--database"])
            .arg(&db)
            .env_remove("DATABASE_URL")
            .output()
            .unwrap()
            .stdout
    };
    assert!(run(&[]).status.success());
    let before = export();
    // A second demo (another seed) on the same database: refused, exit 1, nothing changed.
    let out = run(&["--seed", "9"]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("Saison 2026 hat in") && err.contains("--replace"),
        "{err}"
    );
    assert_eq!(export(), before);
    // With --replace it replaces.
    assert!(run(&["--seed", "9", "--replace"]).status.success());
    assert_ne!(export(), before);
}

/// Hostile run: a club's file refused in its last season (a round of a player it does not
/// have) stored nothing but left a new, empty database (`t.db`, `-wal`, `-shm`, `-sitzungen`)
/// after saying "Neue Datenbank … angelegt". A database the refused command made is taken away.
#[test]
fn a_club_file_refused_in_its_last_season_leaves_no_new_database() {
    let dir = tempfile::tempdir().unwrap();
    let run = |args: &[&str], db: &std::path::Path| {
        Command::new(BIN)
            .args(args)
            .arg("--database")
            .arg(db)
            .env_remove("DATABASE_URL")
            .output()
            .unwrap()
    };
    let demo = dir.path().join("demo.db");
    let out = run(
        &["demo", "--seasons", "2", "--nights", "4", "--players", "10"],
        &demo,
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let club = dir.path().join("verein.json");
    let out = run(&["export", "--all", "-o", club.to_str().unwrap()], &demo);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let mut v: Value = serde_json::from_slice(&std::fs::read(&club).unwrap()).unwrap();
    let last = v["seasons"].as_array_mut().unwrap().last_mut().unwrap();
    last["nights"][0]["tables"][0]["rounds"][0]["results"][0]["player"] = "Niemand".into();
    std::fs::write(&club, serde_json::to_vec(&v).unwrap()).unwrap();

    let new = dir.path().join("neu").join("t.db");
    std::fs::create_dir(new.parent().unwrap()).unwrap();
    let out = run(&["import", club.to_str().unwrap()], &new);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.contains("Niemand"), "{err}");
    let left: Vec<_> = std::fs::read_dir(new.parent().unwrap())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert!(left.is_empty(), "{left:?}: {err}");
    assert!(err.contains("keine Datenbank angelegt"), "{err}");
}
