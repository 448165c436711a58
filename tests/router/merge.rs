//! Merging and splitting players (issue 36.2, 36.3): `POST /verwaltung/spieler/{id}/zusammenfuehren`
//! and `…/trennen`. Two seasons of the small fixture: 2025 spells Bernd „Bernd M.“, 2026 has „Gast“
//! with a Jahresbeitrag and no night. A merge then a split gives back every API answer byte for
//! byte and every league table row; a merge refused for a shared night stores nothing and names the
//! night; after a merge the career and the all-time row are the sums of the two before (summed
//! here); the old name's pages and API answer with a redirect, his card link with a notice.

use axum::http::StatusCode;
use schockerliga::league::model::file::SeasonFile;
use serde_json::Value;

use crate::app::{enc, snapshot, TestApp};
use crate::common::season_file;

/// 2025: the small fixture with Bernd as „Bernd M.“ and Anna as „Anna M.“; 2026: the small fixture with „Gast“ (fee paid,
/// no night).
pub(crate) fn seasons() -> Vec<SeasonFile> {
    let mut old = serde_json::to_value(season_file("small-2026", Some(2025))).unwrap();
    let text = serde_json::to_string(&old)
        .unwrap()
        .replace("\"Bernd\"", "\"Bernd M.\"")
        .replace("\"Anna\"", "\"Anna M.\"");
    old = serde_json::from_str(&text).unwrap();
    let mut new = serde_json::to_value(season_file("small-2026", None)).unwrap();
    new["players"]
        .as_array_mut()
        .unwrap()
        .push(serde_json::json!({ "name": "Gast", "fee_paid_on": "2026-02-01" }));
    vec![
        serde_json::from_value(old).unwrap(),
        serde_json::from_value(new).unwrap(),
    ]
}

pub(crate) async fn app() -> (TestApp, String) {
    let t = TestApp::builder().staff().seasons(seasons()).start().await;
    let admin = t.login("admin").await;
    (t, admin)
}

/// Every JSON answer the merge may touch: both players' careers, each season's standings, payouts,
/// players and accounts, the all-time table (status and body bytes).
pub(crate) async fn answers(t: &TestApp) -> Vec<(String, StatusCode, Vec<u8>)> {
    let mut uris: Vec<String> = ["Bernd", "Bernd M.", "Gast", "Anna", "Anna M."]
        .iter()
        .map(|n| format!("/api/v1/players/{}", enc(n)))
        .collect();
    for y in [2025, 2026] {
        for what in ["standings", "payouts", "players", "accounts"] {
            uris.push(format!("/api/v1/seasons/{y}/{what}"));
        }
    }
    uris.push("/api/v1/alltime".into());
    let mut out = Vec::new();
    for uri in uris {
        let r = t.get(&uri, None).await;
        out.push((uri, r.status, r.bytes.to_vec()));
    }
    out
}

pub(crate) async fn id_of(t: &TestApp, name: &str) -> i64 {
    t.league.player_id_named(name).await.unwrap().unwrap()
}

/// Every league table's rows but the record of the merge itself (the Protokoll, the merges, the
/// change counters, and the Kassenbuch's journal: it records a merge's and a split's renamed
/// Belege as Stornos and new Belege and never forgets one, docs/kassenbuch.md).
pub(crate) async fn rows(t: &TestApp) -> Vec<String> {
    let skip = [
        "audit_",
        "player_merges ",
        "season_versions ",
        "planning ",
        "kassenbelege ",
    ];
    snapshot(&t.db.write)
        .await
        .split("## ")
        .filter(|part| !skip.iter().any(|s| part.starts_with(s)))
        .map(str::to_string)
        .collect()
}

/// Asserts that the tables `a` and `b` hold the same rows, naming the first that differs.
pub(crate) fn same_rows(a: &[String], b: &[String]) {
    assert_eq!(a.len(), b.len());
    for (x, y) in a.iter().zip(b) {
        assert!(x == y, "{x}\n--- vs ---\n{y}");
    }
}

pub(crate) async fn merge(
    t: &TestApp,
    cookie: &str,
    gone: i64,
    kept: i64,
    reason: &str,
) -> crate::app::Reply {
    t.post(
        &format!("/verwaltung/spieler/{gone}/zusammenfuehren"),
        &format!("in={kept}&grund={}", enc(reason)),
        Some(cookie),
    )
    .await
}

pub(crate) async fn split(t: &TestApp, cookie: &str, kept: i64) -> crate::app::Reply {
    t.post(
        &format!("/verwaltung/spieler/{kept}/trennen"),
        "grund=doch+zwei",
        Some(cookie),
    )
    .await
}

#[tokio::test]
async fn merge_then_split_gives_back_every_answer_byte_for_byte() {
    let (t, admin) = app().await;
    let before = answers(&t).await;
    let rows_before = rows(&t).await;
    let (gone, kept, gast) = (
        id_of(&t, "Bernd M.").await,
        id_of(&t, "Bernd").await,
        id_of(&t, "Gast").await,
    );
    let r = merge(&t, &admin, gone, kept, "derselbe Bernd").await;
    assert_eq!(r.status, StatusCode::SEE_OTHER, "{}", r.body);
    let r = merge(&t, &admin, gast, kept, "Gast war Bernd").await;
    assert_eq!(r.status, StatusCode::SEE_OTHER, "{}", r.body);
    let merged = answers(&t).await;
    assert_ne!(merged, before, "the merge changes the answers");
    let page = t
        .get(&format!("/verwaltung/spieler/{kept}"), Some(&admin))
        .await;
    assert!(
        page.body.contains("„Gast“ wieder abtrennen"),
        "{}",
        page.body
    );
    // Splitting undoes the last merge first, then the one before.
    assert_eq!(split(&t, &admin, kept).await.status, StatusCode::SEE_OTHER);
    assert_eq!(split(&t, &admin, kept).await.status, StatusCode::SEE_OTHER);
    let after = answers(&t).await;
    for ((uri, s0, b0), (_, s1, b1)) in before.iter().zip(&after) {
        assert_eq!(s0, s1, "{uri}");
        assert!(
            b0 == b1,
            "{uri}:\n{}\n{}",
            String::from_utf8_lossy(b0),
            String::from_utf8_lossy(b1)
        );
    }
    same_rows(&rows(&t).await, &rows_before);
    let r = split(&t, &admin, kept).await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(r.body.contains("nichts zu trennen"), "{}", r.body);
    let log = t.get("/verwaltung/protokoll", Some(&admin)).await.body;
    assert!(
        log.contains("Spieler zusammengeführt: „Bernd M.“ in „Bernd“"),
        "{log}"
    );
    assert!(
        log.contains("Spieler getrennt: „Bernd M.“ wieder von „Bernd“"),
        "{log}"
    );
}

#[tokio::test]
async fn a_merge_refused_for_a_shared_night_stores_nothing_and_names_it() {
    let (t, admin) = app().await;
    let rows_before = snapshot(&t.db.write).await;
    let before = answers(&t).await;
    let (dirk, carla) = (id_of(&t, "Dirk").await, id_of(&t, "Carla").await);
    let r = merge(&t, &admin, dirk, carla, "vertippt").await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(
        r.body.contains("Beide haben am 02.01.2025 gespielt"),
        "{}",
        r.body
    );
    assert!(
        r.body.contains("value=\"vertippt\""),
        "the reason stays typed"
    );
    // Both have a Jahresbeitrag in 2026 (Carla, Gast): refused as well.
    let gast = id_of(&t, "Gast").await;
    let r = merge(&t, &admin, gast, carla, "x").await;
    assert!(r
        .body
        .contains("Beide haben in der Saison 2026 einen Jahresbeitrag"));
    // No reason, no player chosen.
    let bernd_m = id_of(&t, "Bernd M.").await;
    let bernd = id_of(&t, "Bernd").await;
    let r = merge(&t, &admin, bernd_m, bernd, " ").await;
    assert!(r.body.contains("Grund: bitte angeben"), "{}", r.body);
    let r = t
        .post(
            &format!("/verwaltung/spieler/{bernd_m}/zusammenfuehren"),
            "in=&grund=x",
            Some(&admin),
        )
        .await;
    assert!(r.body.contains("bitte einen Spieler wählen"));
    assert_eq!(snapshot(&t.db.write).await, rows_before);
    assert_eq!(answers(&t).await, before);
    // A secretary may not merge.
    let secretary = t.login("schrift").await;
    let r = merge(&t, &secretary, bernd_m, bernd, "x").await;
    assert_eq!(r.status, StatusCode::FORBIDDEN);
}

/// The sum of the numbers `field` over a career's seasons.
fn sum(career: &Value, field: &str) -> i64 {
    career["seasons"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s[field].as_i64().unwrap())
        .sum()
}

/// The all-time rows of players whose name starts with `prefix`.
async fn all_time_rows(t: &TestApp, prefix: &str) -> Vec<Value> {
    t.get("/api/v1/alltime", None).await.json()["rows"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| r["player"].as_str().unwrap().starts_with(prefix))
        .cloned()
        .collect()
}

#[tokio::test]
async fn after_a_merge_career_and_all_time_row_are_the_sums() {
    let (t, admin) = app().await;
    let a = t.get("/api/v1/players/Anna", None).await.json();
    let m = t.get("/api/v1/players/Anna%20M.", None).await.json();
    let before = all_time_rows(&t, "Anna").await;
    assert_eq!(before.len(), 2, "two careers before: {before:?}");
    let (gone, kept) = (id_of(&t, "Anna M.").await, id_of(&t, "Anna").await);
    assert_eq!(
        merge(&t, &admin, gone, kept, "dieselbe").await.status,
        StatusCode::SEE_OTHER
    );
    let after = t.get("/api/v1/players/anna", None).await.json();
    assert_eq!(after["player"], "Anna");
    let mut seasons: Vec<Value> = m["seasons"].as_array().unwrap().clone();
    seasons.extend(a["seasons"].as_array().unwrap().iter().cloned());
    assert_eq!(
        after["seasons"],
        Value::Array(seasons),
        "one career, both seasons"
    );
    for field in ["rounds", "counted_outs", "paid_rounds"] {
        assert_eq!(
            sum(&after, field),
            sum(&a, field) + sum(&m, field),
            "{field}"
        );
    }
    let rows = all_time_rows(&t, "Anna").await;
    assert_eq!(rows.len(), 1, "{rows:?}");
    let row = &rows[0];
    assert_eq!(row["player"], "Anna");
    let total = |f: &str| before.iter().map(|r| r[f].as_i64().unwrap()).sum::<i64>();
    assert_eq!(row["rounds"].as_i64().unwrap(), total("rounds"));
    assert_eq!(row["counted_outs"].as_i64().unwrap(), total("counted_outs"));
    assert_eq!(row["seasons"].as_i64().unwrap(), total("seasons"));
    println!("Anna M. + Anna: {before:?} -> {row}");
    // The 2025 standings name her Anna now.
    let standings = t.get("/api/v1/seasons/2025/standings", None).await.body;
    assert!(standings.contains("\"Anna\"") && !standings.contains("Anna M."));
}

#[tokio::test]
async fn the_old_name_redirects_and_his_card_stops_with_a_notice() {
    let (t, admin) = app().await;
    let (gone, kept) = (id_of(&t, "Bernd M.").await, id_of(&t, "Bernd").await);
    let (_, token) = t
        .league
        .create_card_link_named("Bernd M.", "test")
        .await
        .unwrap();
    let card = format!("/karte/{token}");
    assert_eq!(t.get(&card, None).await.status, StatusCode::OK);
    assert_eq!(
        merge(&t, &admin, gone, kept, "derselbe").await.status,
        StatusCode::SEE_OTHER
    );
    let r = t.get("/api/v1/players/Bernd%20M.", None).await;
    assert_eq!(r.status, StatusCode::PERMANENT_REDIRECT);
    assert_eq!(r.location(), Some("/api/v1/players/Bernd"));
    let r = t.get(&format!("/spieler/{gone}"), None).await;
    assert_eq!(r.status, StatusCode::PERMANENT_REDIRECT);
    assert_eq!(r.location(), Some(format!("/spieler/{kept}").as_str()));
    let r = t.get(&format!("/saison/2025/spieler/{gone}"), None).await;
    assert_eq!(r.status, StatusCode::PERMANENT_REDIRECT);
    assert_eq!(
        r.location(),
        Some(format!("/saison/2025/spieler/{kept}").as_str())
    );
    // A shared Rückblick link moves along too (new-user trial: it answered 404).
    let r = t
        .get(&format!("/spieler/{gone}/rueckblick/2025"), None)
        .await;
    assert_eq!(r.status, StatusCode::PERMANENT_REDIRECT);
    assert_eq!(
        r.location(),
        Some(format!("/spieler/{kept}/rueckblick/2025").as_str())
    );
    let r = t.get(&card, None).await;
    assert_eq!(r.status, StatusCode::FORBIDDEN);
    assert!(
        r.body
            .contains("„Bernd M.“ ist mit „Bernd“ zusammengeführt"),
        "{}",
        r.body
    );
    let page = t
        .get(&format!("/verwaltung/spieler/{gone}"), Some(&admin))
        .await;
    assert!(page.body.contains("zusammengeführt"), "{}", page.body);
    assert_eq!(split(&t, &admin, kept).await.status, StatusCode::SEE_OTHER);
    assert_eq!(
        t.get(&card, None).await.status,
        StatusCode::OK,
        "his card again"
    );
    assert_eq!(
        t.get(&format!("/spieler/{gone}"), None).await.status,
        StatusCode::OK
    );
}

#[tokio::test]
async fn a_merged_away_name_is_not_added_again() {
    let (t, admin) = app().await;
    let secretary = t.login("schrift").await;
    let (gone, kept) = (id_of(&t, "Bernd M.").await, id_of(&t, "Bernd").await);
    assert_eq!(
        merge(&t, &admin, gone, kept, "derselbe").await.status,
        StatusCode::SEE_OTHER
    );
    let rows_before = rows(&t).await;
    let r = t
        .post(
            "/verwaltung/saison/2026/spieler",
            "name=bernd+m.",
            Some(&secretary),
        )
        .await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(
        r.body
            .contains("„Bernd M.“ ist mit „Bernd“ zusammengeführt"),
        "{}",
        r.body
    );
    same_rows(&rows(&t).await, &rows_before);
}

/// Issue 36.2 meets 36.4: a player's status (pausiert, ausgetreten) moves with the merge and back
/// with the split; two players with a status in one season are refused, storing nothing (the
/// merge died on the table's key before: a 500).
#[tokio::test]
async fn a_status_moves_with_the_merge_and_two_in_one_season_are_refused() {
    let (t, admin) = app().await;
    let (kept, gast) = (id_of(&t, "Bernd").await, id_of(&t, "Gast").await);
    let status = |id: i64| format!("/verwaltung/saison/2026/spieler/{id}/status");
    let r = t
        .post(&status(gast), "status=pausiert&day=", Some(&admin))
        .await;
    assert_eq!(r.status, StatusCode::SEE_OTHER, "{}", r.body);
    let r = t
        .post(&status(kept), "status=pausiert&day=", Some(&admin))
        .await;
    assert_eq!(r.status, StatusCode::SEE_OTHER, "{}", r.body);
    let before = rows(&t).await;
    let r = merge(&t, &admin, gast, kept, "Gast war Bernd").await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", r.body);
    assert!(
        r.body
            .contains("Beide haben in der Saison 2026 einen Status (pausiert oder ausgetreten)"),
        "{}",
        r.body
    );
    same_rows(&before, &rows(&t).await);

    let r = t
        .post(&status(kept), "status=aktiv&day=", Some(&admin))
        .await;
    assert_eq!(r.status, StatusCode::SEE_OTHER, "{}", r.body);
    let before = rows(&t).await;
    let r = merge(&t, &admin, gast, kept, "Gast war Bernd").await;
    assert_eq!(r.status, StatusCode::SEE_OTHER, "{}", r.body);
    let (holder,): (i64,) =
        sqlx::query_as("select player_id from player_status where season = 2026")
            .fetch_one(&t.db.read)
            .await
            .unwrap();
    assert_eq!(holder, kept);
    assert_eq!(split(&t, &admin, kept).await.status, StatusCode::SEE_OTHER);
    same_rows(&before, &rows(&t).await);
}

/// The hostile trial stored a merge reason of 3000 characters (the form says 200): refused like
/// the Kassenbuch's Storno reason, by the same check, storing nothing.
#[tokio::test]
async fn a_merge_reason_over_200_characters_is_refused() {
    let (t, admin) = app().await;
    let (gone, kept) = (id_of(&t, "Bernd M.").await, id_of(&t, "Bernd").await);
    let before = rows(&t).await;
    let r = merge(&t, &admin, gone, kept, &"x".repeat(201)).await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", r.body);
    assert!(
        r.body.contains("Grund: höchstens 200 Zeichen."),
        "{}",
        r.body
    );
    same_rows(&before, &rows(&t).await);
}

/// The trial merged into `in=99999` and got the 404 page: the form comes again with a German
/// error (422), nothing stored.
#[tokio::test]
async fn a_merge_into_an_unknown_player_answers_the_form_again() {
    let (t, admin) = app().await;
    let gone = id_of(&t, "Bernd M.").await;
    let before = rows(&t).await;
    let r = merge(&t, &admin, gone, 99999, "derselbe").await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", r.body);
    assert!(
        r.body
            .contains("Zusammenführen mit: einen Spieler Nr. 99999 gibt es nicht"),
        "{}",
        r.body
    );
    assert!(r.body.contains("derselbe"), "the reason typed stays");
    same_rows(&before, &rows(&t).await);
}
