//! Export and import keep a merge and the statuses (issue 36.3, 36.4; docs/saisondatei.md
//! "Zusammengeführte Spieler", "Status"): the fixture of `merge.rs` with two merges into Bernd
//! and two statuses, written as the club's file and as one season file, imported into a new
//! database, split there: every API answer is byte for byte what it was before the merges, and
//! the statuses are where they were. A file that names a night the season does not have is
//! refused whole.

use std::io::Cursor;

use axum::http::StatusCode;
use schockerliga::service::interchange::ImportOptions;

use crate::app::TestApp;
use crate::merge::{answers, app, id_of, merge, rows, same_rows, split};

/// Sets `name`'s status in season `year` through the Verwaltung.
async fn status(t: &TestApp, admin: &str, year: i32, name: &str, body: &str) {
    let id = id_of(t, name).await;
    let uri = format!("/verwaltung/saison/{year}/spieler/{id}/status");
    let r = t.post(&uri, body, Some(admin)).await;
    assert_eq!(r.status, StatusCode::SEE_OTHER, "{}", r.body);
}

/// Asserts the answers `b` are byte for byte `a`, naming the first that differs.
fn same_answers(a: &[(String, StatusCode, Vec<u8>)], b: &[(String, StatusCode, Vec<u8>)]) {
    assert_eq!(a.len(), b.len());
    for ((uri, s0, b0), (_, s1, b1)) in a.iter().zip(b) {
        assert_eq!(s0, s1, "{uri}");
        assert!(
            b0 == b1,
            "{uri}:\n{}\n{}",
            String::from_utf8_lossy(b0),
            String::from_utf8_lossy(b1)
        );
    }
}

#[tokio::test]
async fn the_club_file_keeps_a_merge_and_the_split_after_its_import_is_exact() {
    let (t, admin) = app().await;
    status(&t, &admin, 2026, "Gast", "status=pausiert&day=").await;
    status(
        &t,
        &admin,
        2026,
        "Carla",
        "status=ausgetreten&day=2026-06-30",
    )
    .await;
    let before = answers(&t).await;
    let kept = id_of(&t, "Bernd").await;
    let gone = id_of(&t, "Bernd M.").await;
    let gast = id_of(&t, "Gast").await;
    let r = merge(&t, &admin, gone, kept, "derselbe Bernd").await;
    assert_eq!(r.status, StatusCode::SEE_OTHER, "{}", r.body);
    let r = merge(&t, &admin, gast, kept, "Gast war Bernd").await;
    assert_eq!(r.status, StatusCode::SEE_OTHER, "{}", r.body);
    let merged = answers(&t).await;
    let exported_2026 = t.league.export_file(2026).await.unwrap();

    let players = t.league.player_names().await.unwrap();
    let carried = t.league.carried().await.unwrap();
    let club = t
        .league
        .write_club_to(&players, &carried, Vec::new())
        .unwrap();
    let text = String::from_utf8(club.clone()).unwrap();
    assert!(text.contains("\"merged\":{\"merges\":["), "{text}");
    assert!(
        text.contains("{\"day\":\"2026-06-30\",\"player\":\"Carla\",\"status\":\"ausgetreten\"}"),
        "{text}"
    );

    let n = TestApp::builder().staff().start().await;
    let admin2 = n.login("admin").await;
    n.league
        .import_club(Cursor::new(club), &ImportOptions::by("cli", false))
        .await
        .unwrap();
    same_answers(&merged, &answers(&n).await);
    assert_eq!(
        n.league.export_file(2026).await.unwrap(),
        exported_2026,
        "the season file of the new database is the old one's"
    );
    let kept2 = id_of(&n, "Bernd").await;
    assert_eq!(
        split(&n, &admin2, kept2).await.status,
        StatusCode::SEE_OTHER
    );
    assert_eq!(
        split(&n, &admin2, kept2).await.status,
        StatusCode::SEE_OTHER
    );
    same_answers(&before, &answers(&n).await);
    let status = n.league.export_file(2026).await.unwrap().status;
    let shown: Vec<(String, String)> = status
        .iter()
        .map(|s| (s.player.clone(), s.status.clone()))
        .collect();
    assert_eq!(
        shown,
        [
            ("Carla".to_string(), "ausgetreten".to_string()),
            ("Gast".to_string(), "pausiert".to_string())
        ]
    );
}

#[tokio::test]
async fn one_season_file_keeps_its_merge_and_a_file_naming_a_missing_night_is_refused() {
    let (t, admin) = app().await;
    let before = answers(&t).await;
    let (gone, kept) = (id_of(&t, "Bernd M.").await, id_of(&t, "Bernd").await);
    let r = merge(&t, &admin, gone, kept, "derselbe Bernd").await;
    assert_eq!(r.status, StatusCode::SEE_OTHER, "{}", r.body);
    let old = t.league.export_file(2025).await.unwrap();
    let new = t.league.export_file(2026).await.unwrap();
    assert!(new.merged.is_none(), "the merge does not touch 2026");
    let m = &old.merged.as_ref().unwrap().merges[0];
    assert_eq!((m.player.as_str(), m.into.as_str()), ("Bernd M.", "Bernd"));

    let n = TestApp::builder().staff().start().await;
    let admin2 = n.login("admin").await;
    let empty = rows(&n).await;
    let mut bad = old.clone();
    let wrong = bad.merged.as_mut().unwrap().merges[0].nights.first_mut();
    *wrong.unwrap() = "2025-12-30".parse().unwrap();
    let refused = n.league.import(&bad, false, "cli").await.unwrap_err();
    assert!(
        refused
            .to_string()
            .contains("Saison 2025, merged „Bernd M.“ in „Bernd“: keinen Abend am 30.12.2025"),
        "{refused}"
    );
    same_rows(&empty, &rows(&n).await);
    for file in [&old, &new] {
        n.league.import(file, false, "cli").await.unwrap();
    }
    let kept2 = id_of(&n, "Bernd").await;
    assert_eq!(
        split(&n, &admin2, kept2).await.status,
        StatusCode::SEE_OTHER
    );
    same_answers(&before, &answers(&n).await);
}

/// Issue 36 trial: after a split by the command line a running server answered 404 for the
/// split-off name for up to a refresh (~0.25 s): the redirect was read from the database, the
/// career from the snapshot. Now both come with the snapshot: while it is the old one the name
/// still redirects; after the refresh his career is back.
#[tokio::test]
async fn a_split_by_the_command_line_shows_together_with_its_seasons() {
    let (t, admin) = app().await;
    let (gone, kept) = (id_of(&t, "Bernd M.").await, id_of(&t, "Bernd").await);
    let r = merge(&t, &admin, gone, kept, "derselbe Bernd").await;
    assert_eq!(r.status, StatusCode::SEE_OTHER, "{}", r.body);
    let before = t.league.snapshot().id;
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_schockerliga"))
        .args([
            "player",
            "split",
            "Bernd",
            "--reason",
            "doch zwei",
            "--database",
        ])
        .arg(&t.path)
        .env_remove("DATABASE_URL")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let redirect = t.league.merged_away_named("Bernd M.").await.unwrap();
    if t.league.snapshot().id == before {
        assert!(
            redirect.is_some(),
            "the redirect went before the seasons came back: a 404 in between"
        );
    }
    t.league.refresh().await.unwrap();
    assert!(t
        .league
        .merged_away_named("Bernd M.")
        .await
        .unwrap()
        .is_none());
    let r = t.get("/api/v1/players/Bernd%20M.", None).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
}

/// The season file's `status` (issue 36.4): a status of someone not a player of the season, or a
/// day of another year, refuses the whole import (nothing stored); a file without `status` (every
/// file of before) keeps the stored statuses, one with it replaces them.
#[tokio::test]
async fn a_status_in_the_season_file_is_checked_and_a_file_without_keeps_the_stored_ones() {
    let (t, admin) = app().await;
    status(&t, &admin, 2026, "Gast", "status=pausiert&day=").await;
    let plain = t.league.export(2026).unwrap();
    assert!(
        plain.status.is_empty(),
        "the season alone carries no status"
    );
    let with = t.league.export_file(2026).await.unwrap();
    assert_eq!(with.status.len(), 1);
    let before = rows(&t).await;
    for (who, kind, day, why) in [
        (
            "Niemand",
            "pausiert",
            None,
            "status: „Niemand“ ist kein Spieler der Saison",
        ),
        (
            "Carla",
            "ausgetreten",
            Some("2025-06-30"),
            "status von „Carla“: pausiert oder ausgetreten mit einem Tag der Saison",
        ),
        (
            "Carla",
            "weg",
            None,
            "status von „Carla“: Status: „weg“ gibt es nicht",
        ),
        // Hostile trial (second round): the same player twice was taken.
        ("Gast", "aktiv", None, "status von „Gast“: steht zweimal da"),
    ] {
        let mut bad = with.clone();
        bad.status
            .push(schockerliga::league::model::file::StatusEntry {
                player: who.into(),
                status: kind.into(),
                day: day.map(|d| d.parse().unwrap()),
            });
        let refused = t.league.import(&bad, true, "cli").await.unwrap_err();
        assert!(refused.to_string().contains(why), "{refused}");
        same_rows(&before, &rows(&t).await);
    }
    t.league.import(&plain, true, "cli").await.unwrap();
    assert_eq!(t.league.statuses(2026).await.unwrap().len(), 1, "kept");
    let mut none = with.clone();
    none.status[0].status = "ausgetreten".into();
    none.status[0].day = Some("2026-06-30".parse().unwrap());
    t.league.import(&none, true, "cli").await.unwrap();
    let shown = t.league.export_file(2026).await.unwrap().status;
    assert_eq!(shown, none.status, "replaced");
}

/// Hostile trial: a season file's `merged` entries took what `player merge` refuses: a reason
/// with a NUL or of 3 MB, an `at` of "gestern", the same merge twice, a night listed a million
/// times, a kept player ("Ghost") the season does not have, who was then created. Each is
/// refused naming the entry and the field, and nothing is stored.
#[tokio::test]
async fn a_merged_entry_is_checked_as_the_merge_itself_is() {
    let (t, admin) = app().await;
    let (gone, kept) = (id_of(&t, "Bernd M.").await, id_of(&t, "Bernd").await);
    let r = merge(&t, &admin, gone, kept, "derselbe Bernd").await;
    assert_eq!(r.status, StatusCode::SEE_OTHER, "{}", r.body);
    let old = t.league.export_file(2025).await.unwrap();
    let n = TestApp::builder().staff().start().await;
    let empty = rows(&n).await;
    type Edit = fn(&mut schockerliga::league::model::file::MergedEntry);
    let cases: [(Edit, &str); 6] = [
        (|e| e.reason = "a\u{0}b".into(), "Grund"),
        (|e| e.reason = "x".repeat(3_000_000), "Grund"),
        (
            |e| e.at = "gestern".into(),
            "at: „gestern“ ist kein Zeitpunkt",
        ),
        (
            |e| e.into = "Ghost".into(),
            "„Ghost“ ist kein Spieler der Saison",
        ),
        (
            |e| {
                let first = e.nights[0];
                e.nights.extend(std::iter::repeat_n(first, 1000));
            },
            "zweimal",
        ),
        (|e| e.by = "x\u{202E}".into(), "by"),
    ];
    for (edit, why) in cases {
        let mut bad = old.clone();
        edit(&mut bad.merged.as_mut().unwrap().merges[0]);
        let refused = n.league.import(&bad, false, "cli").await.unwrap_err();
        let said = refused.to_string();
        assert!(
            said.contains("Saison 2025, merged „Bernd M.“") && said.contains(why),
            "{why}: {}",
            said.chars().take(300).collect::<String>()
        );
        same_rows(&empty, &rows(&n).await);
    }
    // Hostile trial (second round): the merged-away name was not checked ("", a NUL, 10,000
    // characters) and a player of that name was made.
    for name in ["", "Zo\u{0}e", &"x".repeat(10_000)] {
        let mut bad = old.clone();
        bad.merged.as_mut().unwrap().merges[0].player = name.to_string();
        let refused = n.league.import(&bad, false, "cli").await.unwrap_err();
        assert!(refused.to_string().contains(": player: "), "{refused}");
        same_rows(&empty, &rows(&n).await);
    }
    let mut twice = old.clone();
    let m = twice.merged.as_mut().unwrap();
    m.merges.push(m.merges[0].clone());
    let refused = n.league.import(&twice, false, "cli").await.unwrap_err();
    assert!(refused.to_string().contains("zweimal"), "{refused}");
    same_rows(&empty, &rows(&n).await);
    n.league.import(&old, false, "cli").await.unwrap();
}
