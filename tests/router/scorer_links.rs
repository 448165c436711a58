//! Scorer links (issue 11.2): a link per table lets its holder, without an account, enter that
//! table's rounds on that night only — stored and audited as "Tisch 2 (Link von …)" — and is
//! refused (403) at the other table, on another night, after revoking and after closing; a reload
//! stores nothing twice; two scorers at once, one per table, lose nothing.

use std::collections::HashMap;
use std::net::SocketAddr;
use std::time::Instant;

use axum::extract::ConnectInfo;
use axum::http::StatusCode;
use http_body_util::BodyExt;
use schockerliga::db;
use schockerliga::league::model::file::SeasonFile;
use sqlx::SqlitePool;
use tower::ServiceExt;

use crate::app::*;

const NIGHT: &str = "2026-01-09";
const OTHER: &str = "2026-01-16";
const NAMES: [&str; 10] = [
    "Anna", "Bernd", "Carla", "Dieter", "Elke", "Frank", "Gabi", "Hans", "Ilse", "Jörg",
];

fn season() -> SeasonFile {
    let players: Vec<_> = NAMES
        .iter()
        .map(|n| serde_json::json!({ "name": n }))
        .collect();
    serde_json::from_value(serde_json::json!({
        "format": "schockerliga-season/1", "season": 2026,
        "players": players, "nights": [ { "date": NIGHT }, { "date": OTHER } ],
    }))
    .unwrap()
}

/// The app with both nights drawn to two tables of five; the secretary's cookie and player ids.
pub(crate) async fn app() -> (TestApp, String, HashMap<String, i64>) {
    let t = TestApp::builder().staff().season(season()).start().await;
    let cookie = t.login(SECRETARY).await;
    let ids: HashMap<String, i64> = db::player::of_season_pool(&t.db.read, 2026)
        .await
        .unwrap()
        .into_iter()
        .map(|p| (p.name, p.id))
        .collect();
    for night in [NIGHT, OTHER] {
        let present: Vec<(String, String)> = NAMES
            .iter()
            .map(|n| ("present".to_string(), ids[*n].to_string()))
            .collect();
        let r = t
            .post_fields(
                &format!("/verwaltung/abend/{night}/teilnehmer"),
                &present,
                Some(&cookie),
            )
            .await;
        assert_eq!(r.status, StatusCode::SEE_OTHER, "{}", r.body);
    }
    (t, cookie, ids)
}

/// Makes the link of `table` at `night` on the night page and reads its path off the page that
/// shows it once.
pub(crate) async fn make_link(t: &TestApp, cookie: &str, night: &str, table: u32) -> String {
    let r = t
        .post(
            &format!("/verwaltung/abend/{night}/tisch/{table}/link"),
            &format!("einmal={}", schockerliga::web::kit::once::token()),
            Some(cookie),
        )
        .await;
    assert_eq!(r.status, StatusCode::SEE_OTHER, "{}", r.body);
    let page = t.get(r.location().unwrap(), Some(cookie)).await;
    assert_eq!(page.status, StatusCode::OK);
    assert!(page.body.contains("<svg"), "a QR code");
    let start = page
        .body
        .find("href=\"http://liga.test/tisch/")
        .expect("the link")
        + 22;
    let end = start + page.body[start..].find('"').unwrap();
    let path = page.body[start..end].to_string();
    // Shown once: the same page again has no link.
    let again = t.get(r.location().unwrap(), Some(cookie)).await;
    assert!(!again.body.contains(&path), "shown once: {}", again.body);
    path
}

/// The players drawn to `table` at `NIGHT`.
async fn table_players(t: &TestApp, night: &str, table: i64) -> Vec<String> {
    let mut conn = t.db.read.acquire().await.unwrap();
    let n = db::night::by_date(&mut conn, night.parse().unwrap())
        .await
        .unwrap()
        .unwrap();
    db::night::participants(&mut conn, n.id)
        .await
        .unwrap()
        .into_iter()
        .filter(|p| p.table_no == table)
        .map(|p| p.name)
        .collect()
}

/// A scorer link's round form: round `number`, the first player loses, the second throws one
/// Out; `once` its `einmal` token.
pub(crate) fn round_body(
    number: u32,
    players: &[String],
    ids: &HashMap<String, i64>,
    once: &str,
) -> RoundForm {
    players.iter().enumerate().fold(
        RoundForm::number(number)
            .hidden(&[("einmal", once)])
            .lost(ids[&players[0]]),
        |f, (i, p)| f.row(ids[p], i64::from(i == 1)),
    )
}

pub(crate) async fn rounds_at(pool: &SqlitePool, night: &str, table: i64) -> i64 {
    let (n,): (i64,) = sqlx::query_as(
        "select count(*) from rounds r join nights n on n.id = r.night_id
         where n.date = ? and r.table_no = ?",
    )
    .bind(night)
    .bind(table)
    .fetch_one(pool)
    .await
    .unwrap();
    n
}

async fn audit_rows(pool: &SqlitePool) -> Vec<(String, String)> {
    sqlx::query_as("select user, action from audit_log order by id")
        .fetch_all(pool)
        .await
        .unwrap()
}

#[tokio::test]
async fn a_scorer_link_writes_its_table_on_its_night_until_revoked_or_closed() {
    let (t, cookie, ids) = app().await;
    let two = table_players(&t, NIGHT, 2).await;
    let one = table_players(&t, NIGHT, 1).await;
    let link = make_link(&t, &cookie, NIGHT, 2).await;
    assert!(
        link.starts_with("/tisch/") && link.ends_with(&format!("/{NIGHT}/2")),
        "{link}"
    );
    let token = link.split('/').nth(2).unwrap().to_string();
    assert!(token.len() >= 32, "at least 128 bits");
    // The night page says which table has a working link.
    let active = format!("Tisch 2: Link aktiv (erstellt von {SECRETARY})");
    let night_page = t
        .get(&format!("/verwaltung/abend/{NIGHT}"), Some(&cookie))
        .await;
    assert!(night_page.body.contains(&active), "{}", night_page.body);
    assert!(night_page.body.contains("Tisch 1 schreiben"));
    // Only the hash is stored.
    let (stored,): (String,) = sqlx::query_as("select token_hash from scorer_links")
        .fetch_one(&t.db.read)
        .await
        .unwrap();
    assert_ne!(stored, token);
    // The holder, without an account, sees his table and enters round 1.
    let page = t.get(&link, None).await;
    assert_eq!(page.status, StatusCode::OK, "{}", page.body);
    assert!(page.body.contains("Tisch 2"));
    assert!(page.body.contains("name=\"einmal\" value=\""));
    let before = audit_rows(&t.db.read).await.len();
    let body = round_body(1, &two, &ids, "s1");
    let r = t.post_round(&format!("{link}/runde"), &body, None).await;
    assert_eq!(r.status, StatusCode::SEE_OTHER, "{}", r.body);
    assert_eq!(rounds_at(&t.db.read, NIGHT, 2).await, 1);
    let audit = audit_rows(&t.db.read).await;
    let new: Vec<&(String, String)> = audit[before..].iter().collect();
    assert_eq!(new.len(), two.len(), "one row per result: {new:?}");
    let author = format!("Tisch 2 (Link von {SECRETARY})");
    assert!(
        new.iter()
            .all(|(u, a)| *u == author && a == "Ergebnis eingetragen"),
        "{new:?}"
    );
    // A reload of the same form stores nothing twice.
    let r = t.post_round(&format!("{link}/runde"), &body, None).await;
    assert_eq!(r.status, StatusCode::SEE_OTHER);
    assert_eq!(audit_rows(&t.db.read).await.len(), audit.len());
    // A refused round keeps what was typed and says why.
    let bad = round_body(2, &two, &ids, "s2").with(&format!("outs_{}", ids[&two[1]]), 7);
    let r = t.post_round(&format!("{link}/runde"), &bad, None).await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(r.body.contains("höchstens 3 Outs"), "{}", r.body);
    assert!(r.body.contains("value=\"7\""), "typed kept");
    // The other table, another night: 403, nothing stored.
    let other_table = link.replace(&format!("/{NIGHT}/2"), &format!("/{NIGHT}/1"));
    let r = t
        .post_round(
            &format!("{other_table}/runde"),
            &round_body(1, &one, &ids, "s3"),
            None,
        )
        .await;
    assert_eq!(r.status, StatusCode::FORBIDDEN);
    assert_eq!(
        t.get(&other_table, None).await.status,
        StatusCode::FORBIDDEN
    );
    let other_night = link.replace(NIGHT, OTHER);
    let two_other = table_players(&t, OTHER, 2).await;
    let r = t
        .post_round(
            &format!("{other_night}/runde"),
            &round_body(1, &two_other, &ids, "s4"),
            None,
        )
        .await;
    assert_eq!(r.status, StatusCode::FORBIDDEN);
    assert_eq!(rounds_at(&t.db.read, NIGHT, 1).await, 0);
    assert_eq!(rounds_at(&t.db.read, OTHER, 2).await, 0);
    // A guessed token: 403.
    let guessed = link.replace(&token, &"0".repeat(64));
    assert_eq!(t.get(&guessed, None).await.status, StatusCode::FORBIDDEN);
    // Revoked: 403.
    let r = t
        .post(
            &format!("/verwaltung/abend/{NIGHT}/tisch/2/link/widerrufen"),
            "einmal=rv1",
            Some(&cookie),
        )
        .await;
    assert_eq!(r.status, StatusCode::SEE_OTHER);
    let night_page = t
        .get(&format!("/verwaltung/abend/{NIGHT}"), Some(&cookie))
        .await;
    assert!(!night_page.body.contains(&active));
    let r = t
        .post_round(
            &format!("{link}/runde"),
            &round_body(2, &two, &ids, "s5"),
            None,
        )
        .await;
    assert_eq!(r.status, StatusCode::FORBIDDEN);
    assert_eq!(rounds_at(&t.db.read, NIGHT, 2).await, 1);
    // A new link works until the night is closed.
    let link = make_link(&t, &cookie, NIGHT, 2).await;
    let r = t
        .post_round(
            &format!("{link}/runde"),
            &round_body(2, &two, &ids, "s6"),
            None,
        )
        .await;
    assert_eq!(r.status, StatusCode::SEE_OTHER, "{}", r.body);
    let r = t
        .post(
            &format!("/verwaltung/abend/{NIGHT}/abschliessen"),
            "sicher=1",
            Some(&cookie),
        )
        .await;
    assert_eq!(r.status, StatusCode::SEE_OTHER);
    let r = t
        .post_round(
            &format!("{link}/runde"),
            &round_body(3, &two, &ids, "s7"),
            None,
        )
        .await;
    assert_eq!(r.status, StatusCode::FORBIDDEN);
    assert_eq!(t.get(&link, None).await.status, StatusCode::FORBIDDEN);
    assert_eq!(rounds_at(&t.db.read, NIGHT, 2).await, 2);
}

#[tokio::test]
async fn two_scorers_at_once_enter_ten_rounds_each_and_lose_nothing() {
    let (t, cookie, ids) = app().await;
    let mut jobs = Vec::new();
    let started = Instant::now();
    for table in [1u32, 2] {
        let link = make_link(&t, &cookie, NIGHT, table).await;
        let players = table_players(&t, NIGHT, i64::from(table)).await;
        let router = t.router.clone();
        let ids = ids.clone();
        jobs.push(tokio::spawn(async move {
            let mut errors = 0;
            for number in 1..=10 {
                let body = round_body(number, &players, &ids, &format!("c{table}r{number}")).body();
                let mut r = form(&format!("{link}/runde"), &body, None);
                r.extensions_mut()
                    .insert(ConnectInfo(SocketAddr::from((PEER, 40000 + table as u16))));
                let resp = router.clone().oneshot(r).await.unwrap();
                let status = resp.status();
                let _ = resp.into_body().collect().await;
                if status != StatusCode::SEE_OTHER {
                    errors += 1;
                }
            }
            errors
        }));
    }
    let mut errors = 0;
    for j in jobs {
        errors += j.await.unwrap();
    }
    let took = started.elapsed();
    let stored = rounds_at(&t.db.read, NIGHT, 1).await + rounds_at(&t.db.read, NIGHT, 2).await;
    eprintln!("two scorers × 10 rounds: {errors} errors, {stored} rounds stored, {took:?}");
    assert_eq!(errors, 0);
    assert_eq!(stored, 20);
    // With all 10 rounds in, the link's page says the table is done and folds the form away.
    let link = make_link(&t, &cookie, NIGHT, 1).await;
    let page = t.get(&link, None).await.body;
    assert!(
        page.contains("Alle 10 Runden an Tisch 1 sind eingetragen."),
        "{page}"
    );
    assert!(page.contains("<details><summary>Eine Runde korrigieren</summary>"));
    assert!(
        !page.contains("Schockbesteck, Runde"),
        "no round left to play"
    );
}

#[tokio::test]
async fn a_scorer_link_keeps_the_schockbesteck_of_its_table_only() {
    let (t, cookie, _) = app().await;
    let two = table_players(&t, NIGHT, 2).await;
    let link = make_link(&t, &cookie, NIGHT, 2).await;
    let page = t.get(&link, None).await;
    assert!(
        page.body.contains(&format!("{link}/besteck/1")),
        "a way to the Schockbesteck"
    );
    let base = format!("{link}/besteck/1");
    let (a, b) = (two[0].as_str(), two[1].as_str());
    let r = t
        .post_fields(
            &format!("{base}/start"),
            &[
                ("einmal", "b0"),
                ("spieler", a),
                ("spieler", b),
                ("vorleger", a),
            ],
            None,
        )
        .await;
    assert_eq!(r.status, StatusCode::SEE_OTHER, "{}", r.body);
    for seq in 0..2 {
        let page = t.get(&base, None).await;
        assert_eq!(page.status, StatusCode::OK);
        assert!(
            page.body.contains(&format!("href=\"{link}\"")),
            "back to the link's table"
        );
        let (first, second) = if page.body.contains(&format!("name=\"p0\" value=\"{a}\"")) {
            ((a, "111"), (b, "654"))
        } else {
            ((b, "654"), (a, "111"))
        };
        let seq = seq.to_string();
        let once = format!("w{seq}");
        let r = t
            .post_fields(
                &format!("{base}/wurfrunde"),
                &[
                    ("einmal", once.as_str()),
                    ("seq", seq.as_str()),
                    ("p0", first.0),
                    ("w0", first.1),
                    ("n0", "1"),
                    ("p1", second.0),
                    ("w1", second.1),
                    ("n1", "1"),
                ],
                None,
            )
            .await;
        assert_eq!(r.status, StatusCode::SEE_OTHER, "{}", r.body);
    }
    let r = t
        .post(&format!("{base}/bestaetigen"), "einmal=c1&seq=2", None)
        .await;
    assert_eq!(r.status, StatusCode::SEE_OTHER, "{}", r.body);
    assert!(
        r.location()
            .unwrap()
            .starts_with(&format!("{link}/besteck/2")),
        "{:?}",
        r.location()
    );
    assert_eq!(rounds_at(&t.db.read, NIGHT, 2).await, 1);
    let author = format!("Tisch 2 (Link von {SECRETARY})");
    let audit = audit_rows(&t.db.read).await;
    assert!(
        audit
            .iter()
            .any(|(u, a)| *u == author && a.contains("Schockbesteck")),
        "{audit:?}"
    );
    // Not the Schockbesteck of the other table.
    let other = base.replace(&format!("/{NIGHT}/2/"), &format!("/{NIGHT}/1/"));
    assert_eq!(t.get(&other, None).await.status, StatusCode::FORBIDDEN);
}

/// A table (or round) in a path is written canonically: `/tisch/{token}/{date}/02` or `+2` is no
/// second address of table 2 (hostile trial), neither for the link nor in the Verwaltung (404,
/// nothing made); a table that is no number stays a bad request.
#[tokio::test]
async fn a_table_number_in_a_path_is_written_canonically() {
    let (t, cookie, _) = app().await;
    let link = make_link(&t, &cookie, NIGHT, 2).await;
    assert_eq!(t.get(&link, None).await.status, StatusCode::OK);
    let base = link.strip_suffix("/2").unwrap();
    for table in ["02", "+2", "002"] {
        let r = t.get(&format!("{base}/{table}"), None).await;
        assert_eq!(r.status, StatusCode::NOT_FOUND, "{table}");
        let r = t.get(&format!("{base}/{table}/besteck/1"), None).await;
        assert_eq!(r.status, StatusCode::NOT_FOUND, "{table}");
        let r = t
            .get(
                &format!("/verwaltung/besteck/{NIGHT}/{table}/1"),
                Some(&cookie),
            )
            .await;
        assert_eq!(r.status, StatusCode::NOT_FOUND, "{table}");
        let before = snapshot(&t.db.write).await;
        let r = t
            .post(
                &format!("/verwaltung/abend/{NIGHT}/tisch/{table}/link"),
                &format!("einmal={}", schockerliga::web::kit::once::token()),
                Some(&cookie),
            )
            .await;
        assert_eq!(r.status, StatusCode::NOT_FOUND, "{table}");
        assert_eq!(snapshot(&t.db.write).await, before, "no link made");
    }
    let r = t.get(&format!("{link}/besteck/01"), None).await;
    assert_eq!(r.status, StatusCode::NOT_FOUND, "round 01");
    assert_eq!(
        t.get(&format!("{link}/besteck/1"), None).await.status,
        StatusCode::OK
    );
    let r = t
        .get(&format!("/verwaltung/besteck/{NIGHT}/x/1"), Some(&cookie))
        .await;
    assert_eq!(r.status, StatusCode::BAD_REQUEST, "no number: as before");
}

/// The link page of a table offers „Link widerrufen“ only while the table has a working link
/// (fresh-user trial: it showed for a table that never had one, and after revoking).
#[tokio::test]
async fn the_link_page_offers_revoking_only_a_working_link() {
    let (t, cookie, _) = app().await;
    let page_of = |table: u32| format!("/verwaltung/abend/{NIGHT}/tisch/{table}/link");
    let revoke = "Link widerrufen";
    let none = t.get(&page_of(1), Some(&cookie)).await;
    assert_eq!(none.status, StatusCode::OK);
    assert!(!none.body.contains(revoke), "{}", none.body);
    assert!(none
        .body
        .contains("Für Tisch 1 gibt es keinen gültigen Link."));
    let link = make_link(&t, &cookie, NIGHT, 2).await;
    assert!(!link.is_empty());
    let working = t.get(&page_of(2), Some(&cookie)).await.body;
    assert!(working.contains(revoke), "{working}");
    assert!(working.contains("Der Link wurde schon angezeigt"));
    let r = t
        .post(
            &format!("{}/widerrufen", page_of(2)),
            &format!("einmal={}", schockerliga::web::kit::once::token()),
            Some(&cookie),
        )
        .await;
    assert_eq!(r.status, StatusCode::SEE_OTHER, "{}", r.body);
    let revoked = t.get(&page_of(2), Some(&cookie)).await.body;
    assert!(!revoked.contains(revoke), "{revoked}");
}
