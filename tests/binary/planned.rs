//! `schockerliga night plan` / `night cancel` and `player link NAME [--revoke]` (interchange.md
//! "Planned nights and a player's own card", issue 27): a night planned from the command line is
//! on the running server's calendar and page, a cancelled one says STATUS:CANCELLED; the card path
//! printed opens that player's card without an account, and `--revoke` kills it at once.

use crate::common::fixture;
use crate::run;
use crate::server::{raw, Server};

/// A day a month from now (the binary runs on the real clock): never over, never a Spielabend of
/// the fixture.
fn ahead() -> chrono::NaiveDate {
    chrono::Utc::now().date_naive() + chrono::Duration::days(30)
}

fn text(out: &std::process::Output) -> (String, String) {
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// A fresh database with the small season imported: (its directory, kept alive, and the file).
fn imported() -> (tempfile::TempDir, std::path::PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("liga.db");
    let season = fixture("small-2026.season.json");
    assert!(run(&db, &["import", season.to_str().unwrap()])
        .status
        .success());
    (dir, db)
}

#[test]
fn a_night_planned_and_cancelled_from_the_command_line_shows_on_the_calendar() {
    let (_dir, db) = imported();
    let date = ahead().to_string();
    let out = run(
        &db,
        &[
            "night",
            "plan",
            &date,
            "--time",
            "20:15",
            "--place",
            "Zum Anker",
        ],
    );
    let (stdout, stderr) = text(&out);
    assert!(out.status.success(), "{stderr}");
    assert!(stderr.contains("20:15 Uhr, Zum Anker: geplant"), "{stderr}");
    assert!(
        stdout.trim().ends_with(&format!("/abend/{date}")),
        "{stdout}"
    );

    let server = Server::start(&db);
    let page = raw(server.addr, "GET", &format!("/abend/{date}"), None, None).unwrap();
    assert_eq!(page.status, 200);
    assert!(String::from_utf8_lossy(&page.body).contains("Zum Anker"));
    let day = date.replace('-', "");
    let ics = raw(server.addr, "GET", "/kalender.ics", None, None).unwrap();
    let ics = String::from_utf8_lossy(&ics.body).into_owned();
    assert!(
        ics.contains(&format!("DTSTART;TZID=Europe/Berlin:{day}T201500\r\n")),
        "{ics}"
    );
    assert!(!ics.contains("STATUS:CANCELLED"), "{ics}");

    let out = run(&db, &["night", "cancel", &date]);
    let (_, stderr) = text(&out);
    assert!(out.status.success(), "{stderr}");
    assert!(stderr.contains("abgesagt"), "{stderr}");
    // The server sees the other process's write (it reads the database's counters again).
    let mut cancelled = false;
    for _ in 0..50 {
        let ics = raw(server.addr, "GET", "/kalender.ics", None, None).unwrap();
        if String::from_utf8_lossy(&ics.body).contains("STATUS:CANCELLED") {
            cancelled = true;
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    assert!(cancelled, "the calendar says the night is cancelled");

    // A day that is over: refused, exit 1, nothing planned.
    let out = run(&db, &["night", "plan", "2020-01-03"]);
    assert_eq!(out.status.code(), Some(1));
}

#[test]
fn player_link_prints_a_card_that_shows_him_and_revoke_kills_it() {
    let (_dir, db) = imported();
    let server = Server::start(&db);
    // Any case of the name finds him.
    let out = run(&db, &["player", "link", "dirk"]);
    let (stdout, stderr) = text(&out);
    assert!(out.status.success(), "{stderr}");
    assert!(stderr.contains("Karte von Dirk"), "{stderr}");
    let url = stdout.lines().next().unwrap().trim().to_string();
    let path = &url[url.find("/karte/").expect("a card path")..];
    assert_eq!(path.len(), "/karte/".len() + 64, "256 random bits: {path}");
    let card = raw(server.addr, "GET", path, None, None).unwrap();
    assert_eq!(card.status, 200, "{card:?}");
    let body = String::from_utf8_lossy(&card.body);
    assert!(body.contains("<h1>Dirk</h1>"), "{body}");
    for other in ["Anna", "Bernd", "Carla", "Elke", "Frank"] {
        assert!(!body.contains(other), "the card names {other}");
    }

    let out = run(&db, &["player", "link", "Dirk", "--revoke"]);
    let (_, stderr) = text(&out);
    assert!(out.status.success(), "{stderr}");
    assert!(
        stderr.contains("Die Karte von Dirk gilt nicht mehr."),
        "{stderr}"
    );
    assert_eq!(
        raw(server.addr, "GET", path, None, None).unwrap().status,
        403
    );

    // Nobody of that name: refused, exit 1.
    let out = run(&db, &["player", "link", "Niemand"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out).1.contains("Spieler „Niemand“ gibt es nicht"),
        "{:?}",
        text(&out)
    );
}

/// `night plan-series` (issue 38.1): `--dry-run` lists the days and stores nothing; the series
/// plans them; the same series again plans nothing new and says so.
#[test]
fn a_series_from_the_command_line_lists_plans_and_plans_nothing_twice() {
    let (_dir, db) = imported();
    let from = ahead();
    let until = from + chrono::Duration::weeks(8);
    let skip = from + chrono::Duration::weeks(3);
    let args = |dry: bool| {
        let mut a = vec![
            "night".to_string(),
            "plan-series".into(),
            "--from".into(),
            from.to_string(),
            "--until".into(),
            until.to_string(),
            "--every".into(),
            "week".into(),
            "--time".into(),
            "19:30".into(),
            "--except".into(),
            skip.to_string(),
        ];
        if dry {
            a.push("--dry-run".into());
        }
        a
    };
    let call = |dry: bool| {
        let a = args(dry);
        let refs: Vec<&str> = a.iter().map(String::as_str).collect();
        let out = run(&db, &refs);
        assert!(out.status.success(), "{}", text(&out).1);
        text(&out)
    };
    let (stdout, stderr) = call(true);
    assert_eq!(stdout.lines().count(), 8, "{stdout}");
    assert!(stdout.lines().all(|l| l.ends_with("  neu")), "{stdout}");
    assert!(
        stderr.contains("8 Abende würden geplant, 0 schon vorhanden (nichts gespeichert)"),
        "{stderr}"
    );
    let (stdout, stderr) = call(false);
    assert_eq!(stdout.lines().count(), 8, "{stdout}");
    assert!(
        stderr.contains("8 Abende geplant, 0 schon vorhanden"),
        "{stderr}"
    );
    let (stdout, stderr) = call(false);
    assert!(
        stdout.lines().all(|l| l.ends_with("schon geplant")),
        "{stdout}"
    );
    assert!(
        stderr.contains("0 Abende geplant, 8 schon vorhanden"),
        "{stderr}"
    );
    // A rule not understood is refused in German, naming it.
    let out = run(
        &db,
        &[
            "night",
            "plan-series",
            "--from",
            &from.to_string(),
            "--until",
            &until.to_string(),
            "--every",
            "monatlich",
        ],
    );
    assert!(!out.status.success());
    assert!(
        text(&out).1.contains("Rhythmus: „monatlich“"),
        "{}",
        text(&out).1
    );
}
