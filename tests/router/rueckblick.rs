//! „Der Rückblick“ (issue 39.2): for every player of the sample season the page's figures equal
//! the JSON API's line of the table and the season's Rekorde; empty cards are left out; linked
//! from his page and from the cache like every public page; his Abzeichen on both pages.

use std::collections::BTreeMap;

use axum::http::StatusCode;
use schockerliga::league::history::records::{season_records, RecordKind};
use schockerliga::league::Season;
use scraper::{Html, Selector};
use serde_json::Value;

use crate::app::TestApp;
use crate::common::season_file;

/// (name, id) of every player linked from the season's table.
fn players(table: &str) -> Vec<(String, i64)> {
    let doc = Html::parse_document(table);
    let a = Selector::parse("table.standings a").unwrap();
    doc.select(&a)
        .filter_map(|e| {
            let id = e
                .value()
                .attr("href")?
                .strip_prefix("/saison/2026/spieler/")?;
            Some((e.text().collect(), id.parse().ok()?))
        })
        .collect()
}

/// The page's figures by their `data-feld`.
fn figures(page: &str) -> BTreeMap<String, String> {
    let doc = Html::parse_document(page);
    let sel = Selector::parse("[data-feld]").unwrap();
    doc.select(&sel)
        .map(|e| {
            (
                e.value().attr("data-feld").unwrap().to_string(),
                e.text().collect(),
            )
        })
        .collect()
}

fn de_date(d: chrono::NaiveDate) -> String {
    d.format("%d.%m.%Y").to_string()
}

#[tokio::test]
async fn every_players_rueckblick_equals_the_api_and_the_rekorde() {
    let file = season_file("sample-2026", None);
    let t = TestApp::with_seasons(std::slice::from_ref(&file)).await;
    let api: Value = t.get("/api/v1/seasons/2026/standings", None).await.json();
    let season = Season::from_file(&file).unwrap();
    let records = season_records(&season);
    let record = |k| records.get(k).unwrap();
    let table = t.get("/saison/2026", None).await;
    let players = players(&table.body);
    assert_eq!(players.len(), api["rows"].as_array().unwrap().len());
    for (name, id) in players {
        let uri = format!("/spieler/{id}/rueckblick/2026");
        let page = t.get(&uri, None).await;
        assert_eq!(page.status, StatusCode::OK, "{uri}");
        let f = figures(&page.body);
        let row = api["rows"]
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["player"] == name.as_str())
            .unwrap();
        let num = |k: &str| f.get(k).map(|v| v.parse::<i64>().unwrap());
        assert_eq!(num("rank"), row["rank"].as_i64(), "{name}");
        assert_eq!(f["liga"], row["liga"].as_str().unwrap(), "{name}");
        assert_eq!(num("rounds"), row["rounds"].as_i64(), "{name}");
        assert_eq!(num("counted_outs"), row["counted_outs"].as_i64(), "{name}");
        assert_eq!(
            f["d_wert"],
            format!("{:.2}", row["d_wert"].as_f64().unwrap()).replace('.', ",")
        );
        let or_none = |k: &str| row[k].as_i64().filter(|v| *v > 0);
        assert_eq!(num("hand_outs"), or_none("hand_outs"), "{name}: Hand-Outs");
        assert_eq!(num("julen"), or_none("julen"), "{name}: Julen");
        if num("julen").is_some() {
            assert_eq!(num("julen_outs"), row["julen_outs"].as_i64(), "{name}");
        }
        assert_eq!(
            num("paid_rounds"),
            or_none("paid_rounds"),
            "{name}: bezahlt"
        );
        // The Rekorde: the best night and the runs are what the records count.
        let best = record(RecordKind::CountedOutsNight);
        let mine = num("best_night").unwrap_or(0);
        assert!(mine <= best.value, "{name}");
        for h in best.holders.iter().filter(|h| h.player == name) {
            assert_eq!(mine, best.value, "{name}");
            assert_eq!(f["best_night_date"], de_date(h.date.unwrap()));
        }
        for (kind, field) in [
            (RecordKind::AttendanceStreak, "attendance_run"),
            (RecordKind::OutStreak, "out_run"),
        ] {
            let rec = record(kind);
            let mine = num(field).unwrap_or(0);
            assert!(mine <= rec.value, "{name} {field}");
            if rec.holders.iter().any(|h| h.player == name) {
                assert_eq!(mine, rec.value, "{name} {field}");
            }
        }
        // The career API: the same counted Outs and paid rounds.
        let career: Value = t
            .get(&format!("/api/v1/players/{}", crate::app::enc(&name)), None)
            .await
            .json();
        assert_eq!(career["seasons"][0]["counted_outs"], row["counted_outs"]);
        assert_eq!(career["seasons"][0]["paid_rounds"], row["paid_rounds"]);
    }
}

#[tokio::test]
async fn the_rueckblick_is_linked_cached_and_404_for_strangers() {
    let t = TestApp::with_seasons(&[season_file("sample-2026", None)]).await;
    let table = t.get("/saison/2026", None).await;
    let (_, id) = players(&table.body)[0].clone();
    let page = t.get(&format!("/saison/2026/spieler/{id}"), None).await;
    let uri = format!("/spieler/{id}/rueckblick/2026");
    assert!(page.body.contains(&uri), "{}", page.body);
    let first = t.get(&uri, None).await;
    assert!(first.body.contains("Rückblick 2026"));
    // The table's first player is in the 1. Liga: his Aufstieg is shown with its night, on his
    // page and in his Rückblick alike (issue 39.3).
    let badge = "data-abzeichen=\"Aufstieg in die 1. Liga\"";
    assert!(first.body.contains(badge), "{}", first.body);
    assert!(page.body.contains(badge), "{}", page.body);
    let at = |body: &str| body.split(badge).nth(1).unwrap()[..120].to_string();
    assert_eq!(at(&first.body), at(&page.body));
    let again = t.get(&uri, None).await;
    assert_eq!(again.header("x-cache"), Some("hit"));
    assert_eq!(
        t.get(&format!("/spieler/{id}/rueckblick/1999"), None)
            .await
            .status,
        StatusCode::NOT_FOUND
    );
    assert_eq!(
        t.get("/spieler/999999/rueckblick/2026", None).await.status,
        StatusCode::NOT_FOUND
    );
}

/// New-user trial: the Rückblick of a season kept only as its final table (Endstand) said
/// "Abende 0" beside "Runden 200". Without nights, the Abende are left out; the rounds stay.
#[tokio::test]
async fn a_season_kept_as_its_endstand_shows_no_abende_of_zero() {
    let file: schockerliga::league::model::file::SeasonFile =
        serde_json::from_value(serde_json::json!({
            "format": "schockerliga-season/1", "season": 2005,
            "players": [ { "name": "Anna" }, { "name": "Bernd" } ],
            "nights": [],
            "endstand": [
                { "player": "Anna", "liga": "1. Liga", "rounds": 200, "counted_outs": 180 },
                { "player": "Bernd", "liga": "1. Liga", "rounds": 150, "counted_outs": 120 }
            ]
        }))
        .unwrap();
    let t = TestApp::builder().season(file).start().await;
    let id = t.league.snapshot().player_id("Anna").unwrap();
    let r = t.get(&format!("/spieler/{id}/rueckblick/2005"), None).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    assert!(r.body.contains("data-feld=\"rounds\">200<"), "{}", r.body);
    assert!(!r.body.contains("data-feld=\"nights\""), "{}", r.body);
}
