//! Who still plays (issue 36.4): a player's status per season (aktiv, pausiert, ausgetreten on a
//! day) set on the season's page; the attendance list of a night and the Zusage lists show the
//! active first, alphabetically (case-insensitive, umlauts as their base letter), the others
//! folded; a refused status stores nothing; nobody's figures change with his status.

use axum::http::StatusCode;
use schockerliga::league::model::file::SeasonFile;
use serde_json::json;

use crate::app::{encode, snapshot, TestApp, SECRETARY};

const NAMES: [&str; 7] = ["Zoe", "ulla", "Özil", "Bernd", "anna", "Otto", "Émil"];

fn season() -> SeasonFile {
    let players: Vec<_> = NAMES.iter().map(|n| json!({ "name": n })).collect();
    serde_json::from_value(json!({
        "format": "schockerliga-season/1", "season": 2026, "players": players,
        "nights": [
            { "date": "2026-03-06", "totals": [
                { "player": "Bernd", "rounds": 2, "outs": 1, "lost": 2 },
                { "player": "Otto", "rounds": 2, "outs": 2 },
                { "player": "Zoe", "rounds": 2, "outs": 0 } ] },
            { "date": "2026-05-08" },
        ],
    }))
    .unwrap()
}

/// The names of `names` in the order they appear in `html`.
fn order(html: &str, names: &[&str]) -> Vec<String> {
    let mut at: Vec<(usize, String)> = names
        .iter()
        .filter_map(|n| html.find(&format!(" {n}</")).map(|i| (i, n.to_string())))
        .collect();
    at.sort();
    at.into_iter().map(|(_, n)| n).collect()
}

/// The part of `html` from `from` to `to` (both must be there).
fn between<'a>(html: &'a str, from: &str, to: &str) -> &'a str {
    let start = html
        .find(from)
        .unwrap_or_else(|| panic!("{from} not in {html}"));
    let end = start
        + html[start..]
            .find(to)
            .unwrap_or_else(|| panic!("{to} not in {html}"));
    &html[start..end]
}

fn id_of(t: &TestApp, name: &str) -> i64 {
    t.league.snapshot().player_id(name).unwrap()
}

/// Sets `name`'s status in 2026 through the season page's form as `cookie`.
async fn set(t: &TestApp, cookie: &str, name: &str, status: &str, day: &str) -> crate::app::Reply {
    let uri = format!("/verwaltung/saison/2026/spieler/{}/status", id_of(t, name));
    let body = encode(&[("status", status), ("day", day)]);
    t.post(&uri, &body, Some(cookie)).await
}

/// The JSON answers that show figures: the season's players, each career, the all-time table.
async fn figures(t: &TestApp) -> Vec<String> {
    let mut uris = vec![
        "/api/v1/seasons/2026/players".to_string(),
        "/api/v1/alltime".to_string(),
    ];
    uris.extend(
        NAMES
            .iter()
            .map(|n| format!("/api/v1/players/{}", crate::app::enc(n))),
    );
    let mut out = Vec::new();
    for uri in uris {
        let r = t.get(&uri, None).await;
        out.push(format!("{uri} {} {}", r.status, r.body));
    }
    out
}

#[tokio::test]
async fn the_active_come_first_alphabetically_and_the_others_fold() {
    let t = TestApp::builder().staff().season(season()).start().await;
    let cookie = t.login(SECRETARY).await;
    let before = figures(&t).await;

    // Refused: ausgetreten without a day, a day of another year, an unknown status. Nothing stored.
    let stored = snapshot(&t.db.write).await;
    for (kind, day, why) in [
        ("ausgetreten", "", "bitte den Tag des Austritts angeben"),
        (
            "ausgetreten",
            "2025-12-31",
            "liegt nicht in der Saison 2026",
        ),
        ("weg", "", "gibt es nicht"),
    ] {
        let r = set(&t, &cookie, "Bernd", kind, day).await;
        assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", r.body);
        assert!(r.body.contains(why), "{why}: {}", r.body);
        assert!(
            r.body.contains(&format!("value=\"{day}\"")),
            "the form keeps the day"
        );
        assert_eq!(snapshot(&t.db.write).await, stored, "{kind} {day}");
    }

    for (name, kind, day) in [
        ("Otto", "pausiert", ""),
        ("Bernd", "ausgetreten", "2026-04-01"),
    ] {
        let r = set(&t, &cookie, name, kind, day).await;
        assert_eq!(r.status, StatusCode::SEE_OTHER, "{}", r.body);
    }
    let page = t.get("/verwaltung/saison/2026", Some(&cookie)).await;
    assert!(
        page.body.contains("Status: ausgetreten am 01.04.2026"),
        "{}",
        page.body
    );
    assert!(page.body.contains("Status: pausiert"));

    // The attendance list of the night of 8 May: the active alphabetically, then the others.
    let night = t.get("/verwaltung/abend/2026-05-08", Some(&cookie)).await;
    assert_eq!(night.status, StatusCode::OK, "{}", night.body);
    let list = between(&night.body, "id=\"teilnehmer\"", "</form>");
    let (active, others) = list.split_once("Pausiert / ausgetreten (2)").unwrap();
    assert_eq!(
        order(active, &NAMES),
        ["anna", "Émil", "Özil", "ulla", "Zoe"]
    );
    assert_eq!(order(others, &NAMES), ["Bernd", "Otto"]);

    // The Zusage lists of a planned night (the club's today is 26.12.2026).
    let body = encode(&[
        ("datum", "2026-12-28"),
        ("zeit", "20:00"),
        ("ort", "Krug"),
        ("hinweis", ""),
    ]);
    let r = t.post("/verwaltung/termine", &body, Some(&cookie)).await;
    assert_eq!(r.status, StatusCode::SEE_OTHER, "{}", r.body);
    for (name, yes) in [
        ("Zoe", true),
        ("Otto", true),
        ("anna", false),
        ("Özil", true),
    ] {
        let r = t
            .post(
                "/abend/2026-12-28/zusage",
                if yes { "kommt=ja" } else { "kommt=nein" },
                Some(&format!("ich={}", id_of(&t, name))),
            )
            .await;
        assert_eq!(r.status, StatusCode::SEE_OTHER, "{}", r.body);
    }
    let termine = t.get("/verwaltung/termine", Some(&cookie)).await;
    let answers = between(
        &termine.body,
        "Wer geantwortet hat (4)",
        "</details>\n</details>",
    );
    let (active, others) = answers.split_once("Pausiert / ausgetreten (1)").unwrap();
    let said = |html: &str| {
        let mut at: Vec<(usize, &str)> = NAMES
            .iter()
            .filter_map(|n| html.find(&format!("<li>{n}: ")).map(|i| (i, *n)))
            .collect();
        at.sort();
        at.into_iter().map(|(_, n)| n).collect::<Vec<_>>()
    };
    assert_eq!(said(active), ["anna", "Özil", "Zoe"]);
    assert_eq!(said(others), ["Otto"]);
    let select = between(&termine.body, "<select name=\"spieler\">", "</select>");
    let (active, others) = select
        .split_once("<optgroup label=\"Pausiert / ausgetreten (2)\">")
        .unwrap();
    let options = |html: &str| {
        let mut at: Vec<(usize, &str)> = NAMES
            .iter()
            .filter_map(|n| html.find(&format!("\">{n}</option>")).map(|i| (i, *n)))
            .collect();
        at.sort();
        at.into_iter().map(|(_, n)| n).collect::<Vec<_>>()
    };
    assert_eq!(options(active), ["anna", "Émil", "Özil", "ulla", "Zoe"]);
    assert_eq!(options(others), ["Bernd", "Otto"]);

    // Nobody's history changes with his status; back to aktiv removes the row.
    assert_eq!(figures(&t).await, before);
    let r = set(&t, &cookie, "Otto", "aktiv", "").await;
    assert_eq!(r.status, StatusCode::SEE_OTHER, "{}", r.body);
    assert_eq!(t.league.statuses(2026).await.unwrap().len(), 1);
    assert_eq!(figures(&t).await, before);
}

/// The trials found the status ignored where players are offered outside the Verwaltung's lists:
/// the public page of a planned night ("Kommen" and "Wer bist du?") and the Nachzügler select
/// of a drawn night list the active first, alphabetically, and the others apart (folded, or in
/// the select's own group); nobody's figures change.
#[tokio::test]
async fn the_planned_night_page_and_the_late_select_put_the_active_first() {
    let t = TestApp::builder().staff().season(season()).start().await;
    let cookie = t.login(SECRETARY).await;
    let before = figures(&t).await;
    for (name, kind, day) in [
        ("Otto", "pausiert", ""),
        ("Bernd", "ausgetreten", "2026-04-01"),
    ] {
        let r = set(&t, &cookie, name, kind, day).await;
        assert_eq!(r.status, StatusCode::SEE_OTHER, "{}", r.body);
    }
    let options = |html: &str| {
        let mut at: Vec<(usize, &str)> = NAMES
            .iter()
            .filter_map(|n| html.find(&format!("\">{n}</option>")).map(|i| (i, *n)))
            .collect();
        at.sort();
        at.into_iter().map(|(_, n)| n).collect::<Vec<_>>()
    };

    // The night of 8 May drawn with anna and Zoe: the late arrivals offered.
    let present: Vec<(&str, String)> = ["anna", "Zoe"]
        .iter()
        .map(|n| ("present", id_of(&t, n).to_string()))
        .collect();
    let r = t
        .post(
            "/verwaltung/abend/2026-05-08/teilnehmer",
            &encode(&present),
            Some(&cookie),
        )
        .await;
    assert_eq!(r.status, StatusCode::SEE_OTHER, "{}", r.body);
    let night = t.get("/verwaltung/abend/2026-05-08", Some(&cookie)).await;
    let late = between(&night.body, "id=\"nachzuegler\"", "</form>");
    let (active, others) = late
        .split_once("<optgroup label=\"Pausiert / ausgetreten (2)\">")
        .unwrap_or_else(|| panic!("{late}"));
    assert_eq!(options(active), ["Émil", "Özil", "ulla"]);
    assert_eq!(options(others), ["Bernd", "Otto"]);

    // The public page of a planned night.
    let body = encode(&[
        ("datum", "2026-12-28"),
        ("zeit", "20:00"),
        ("ort", "Krug"),
        ("hinweis", ""),
    ]);
    let r = t.post("/verwaltung/termine", &body, Some(&cookie)).await;
    assert_eq!(r.status, StatusCode::SEE_OTHER, "{}", r.body);
    for (name, yes) in [
        ("Zoe", true),
        ("Otto", true),
        ("anna", true),
        ("Özil", false),
    ] {
        let r = t
            .post(
                "/abend/2026-12-28/zusage",
                if yes { "kommt=ja" } else { "kommt=nein" },
                Some(&format!("ich={}", id_of(&t, name))),
            )
            .await;
        assert_eq!(r.status, StatusCode::SEE_OTHER, "{}", r.body);
    }
    let page = t.get("/abend/2026-12-28", None).await;
    assert_eq!(page.status, StatusCode::OK, "{}", page.body);
    let coming = between(&page.body, "<h2>Kommen (3)</h2>", "</details>");
    let (active, others) = coming
        .split_once("<summary>Pausiert / ausgetreten (1)</summary>")
        .unwrap_or_else(|| panic!("{coming}"));
    assert!(active.contains("<p>anna, Zoe</p>"), "{active}");
    assert!(others.contains("<p>Otto</p>"), "{others}");
    let select = between(&page.body, "<select id=\"spieler\"", "</select>");
    let (active, others) = select
        .split_once("<optgroup label=\"Pausiert / ausgetreten (2)\">")
        .unwrap_or_else(|| panic!("{select}"));
    assert_eq!(options(active), ["anna", "Émil", "Özil", "ulla", "Zoe"]);
    assert_eq!(options(others), ["Bernd", "Otto"]);

    // A night planned in January, before its season is there: the statuses of the year before.
    let body = encode(&[
        ("datum", "2027-01-08"),
        ("zeit", "20:00"),
        ("ort", "Krug"),
        ("hinweis", ""),
    ]);
    let r = t.post("/verwaltung/termine", &body, Some(&cookie)).await;
    assert_eq!(r.status, StatusCode::SEE_OTHER, "{}", r.body);
    let page = t.get("/abend/2027-01-08", None).await;
    let select = between(&page.body, "<select id=\"spieler\"", "</select>");
    let (_, others) = select
        .split_once("<optgroup label=\"Pausiert / ausgetreten (2)\">")
        .unwrap_or_else(|| panic!("{select}"));
    assert_eq!(options(others), ["Bernd", "Otto"]);
    let termine = t.get("/verwaltung/termine", Some(&cookie)).await.body;
    let january = between(&termine, "id=\"termin-", "</section>");
    let january = if january.contains("08.01.2027") {
        january
    } else {
        let rest = &termine[termine.find(january).unwrap() + january.len()..];
        between(rest, "id=\"termin-", "</section>")
    };
    assert!(january.contains("08.01.2027"), "{january}");
    assert!(
        january.contains("<optgroup label=\"Pausiert / ausgetreten (2)\">"),
        "{january}"
    );
    assert_eq!(figures(&t).await, before);
}
