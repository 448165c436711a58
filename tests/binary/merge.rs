//! `schockerliga player merge NAME --into NAME --reason …` and `player split NAME --reason …`
//! (issue 36.2, 36.3): the small season as 2025 with Bernd spelt „Bernd M.“ and as 2026; the merge
//! names him Bernd in 2025, the split gives back the 2025 standings exactly; a merge of two who
//! played one night exits 1, names the night and changes nothing.

use crate::common::fixture;
use crate::run;

fn text(out: &std::process::Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

#[test]
fn merge_and_split_from_the_command_line() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("liga.db");
    let small = std::fs::read_to_string(fixture("small-2026.season.json")).unwrap();
    let old = small
        .replace("\"2026-", "\"2025-")
        .replace("\"season\": 2026", "\"season\": 2025")
        .replace("\"Bernd\"", "\"Bernd M.\"");
    let old_path = dir.path().join("2025.json");
    std::fs::write(&old_path, old).unwrap();
    for file in [old_path, fixture("small-2026.season.json")] {
        let out = run(&db, &["import", file.to_str().unwrap()]);
        assert!(out.status.success(), "{}", text(&out));
    }
    let standings = |year: &str| run(&db, &["standings", year, "--json"]).stdout;
    let before = standings("2025");

    let out = run(
        &db,
        &[
            "player", "merge", "anna", "--into", "Carla", "--reason", "x",
        ],
    );
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out).contains("Beide haben am 02.01.2025 gespielt"),
        "{}",
        text(&out)
    );
    assert_eq!(standings("2025"), before);

    let merge = [
        "player", "merge", "Bernd M.", "--into", "bernd", "--reason", "derselbe",
    ];
    let out = run(&db, &merge);
    assert!(out.status.success(), "{}", text(&out));
    assert!(
        text(&out).contains("„Bernd M.“ ist jetzt „Bernd“"),
        "{}",
        text(&out)
    );
    let merged = String::from_utf8_lossy(&standings("2025")).into_owned();
    assert!(
        merged.contains("\"Bernd\"") && !merged.contains("Bernd M."),
        "{merged}"
    );

    let out = run(&db, &["player", "split", "Bernd", "--reason", "doch zwei"]);
    assert!(out.status.success(), "{}", text(&out));
    assert_eq!(
        standings("2025"),
        before,
        "the split gives back the standings"
    );
    let out = run(&db, &["player", "split", "Bernd", "--reason", "noch mal"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out).contains("nichts zu trennen"), "{}", text(&out));
}

/// Issue 36.3: export and import keep a merge. The merge is made in one database, the club file
/// (`export --all`) goes into a new one, and `player split` there gives back the standings and
/// payouts of before the merge exactly. A merge into a name the league does not have exits 1 with
/// a German message and stores nothing.
#[test]
fn a_merge_survives_export_and_import_and_splits_there() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("liga.db");
    let small = std::fs::read_to_string(fixture("small-2026.season.json")).unwrap();
    let old = small
        .replace("\"2026-", "\"2025-")
        .replace("\"season\": 2026", "\"season\": 2025")
        .replace("\"Bernd\"", "\"Bernd M.\"");
    let old_path = dir.path().join("2025.json");
    std::fs::write(&old_path, old).unwrap();
    for file in [old_path, fixture("small-2026.season.json")] {
        let out = run(&db, &["import", file.to_str().unwrap()]);
        assert!(out.status.success(), "{}", text(&out));
    }
    let figures = |db: &std::path::Path| {
        ["2025", "2026"]
            .iter()
            .flat_map(|y| {
                [
                    run(db, &["standings", y, "--json"]).stdout,
                    run(db, &["payouts", y, "--json"]).stdout,
                ]
            })
            .collect::<Vec<_>>()
    };
    let before = figures(&db);

    let out = run(
        &db,
        &[
            "player", "merge", "Bernd M.", "--into", "Niemand", "--reason", "x",
        ],
    );
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    assert!(
        text(&out).contains("Einen Spieler „Niemand“ gibt es in der Liga nicht"),
        "{}",
        text(&out)
    );
    assert_eq!(figures(&db), before);

    let out = run(
        &db,
        &[
            "player", "merge", "Bernd M.", "--into", "Bernd", "--reason", "derselbe",
        ],
    );
    assert!(out.status.success(), "{}", text(&out));
    let club = dir.path().join("verein.json");
    let out = run(&db, &["export", "--all", "-o", club.to_str().unwrap()]);
    assert!(out.status.success(), "{}", text(&out));
    let written = std::fs::read_to_string(&club).unwrap();
    assert!(written.contains("\"merged\":{\"merges\":["), "{written}");

    let other = dir.path().join("neu.db");
    let out = run(&other, &["import", club.to_str().unwrap()]);
    assert!(out.status.success(), "{}", text(&out));
    assert_ne!(figures(&other), before, "merged in the new database too");
    let out = run(
        &other,
        &["player", "split", "Bernd", "--reason", "doch zwei"],
    );
    assert!(out.status.success(), "{}", text(&out));
    assert_eq!(figures(&other), before, "the split there is exact");
}
