//! „Was bringt der letzte Abend?“ (issue 39.1): the JSON API and the page of the sample season
//! equal the library's scenario, with today's pot; the page comes from the page cache, says
//! „Saison vorbei“ after the year, and keeps money from visitors while the club keeps it private.

use axum::http::StatusCode;
use schockerliga::league::table::scenario::scenario;
use schockerliga::league::Season;
use serde_json::Value;

use crate::app::TestApp;
use crate::common::season_file;

#[tokio::test]
async fn the_scenario_api_equals_the_library_with_todays_pot() {
    let file = season_file("sample-2026", None);
    let t = TestApp::with_seasons(std::slice::from_ref(&file)).await;
    let a = t.get("/api/v1/seasons/2026/scenario", None).await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.body);
    let v = a.json();
    let pot = t.get("/api/v1/seasons/2026/payouts", None).await.json()["pot_cents"].clone();
    assert_eq!(v["pot_cents"], pot);
    assert_eq!(v["as_of"], "2026-12-25");
    assert_eq!(v["over"], false);
    let season = Season::from_file(&file).unwrap();
    let cents = schockerliga::league::money::payouts::place_cents(
        pot.as_i64().unwrap(),
        &season.rules.payout_percent,
    );
    let want = scenario(&season, None, &cents);
    let players = v["players"].as_array().unwrap();
    assert_eq!(players.len(), want.players.len());
    assert!(!players.is_empty());
    for (got, want) in players.iter().zip(&want.players) {
        assert_eq!(got["player"], want.player.as_str());
        assert_eq!(got["place_now"], want.place_now);
        let places = got["places"].as_array().unwrap();
        assert_eq!(places.len(), 5);
        for (g, w) in places.iter().zip(&want.places) {
            assert_eq!(g["place"], w.place);
            assert_eq!(g["reach"], serde_json::to_value(w.reach).unwrap());
            assert_eq!(g["safe"], serde_json::to_value(w.safe).unwrap());
            assert_eq!(g["cents"], w.cents);
        }
    }
    let sum: i64 = players[0]["places"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["cents"].as_i64().unwrap())
        .sum();
    assert!(sum <= pot.as_i64().unwrap());
    let race = v["lucky_looser"]["players"].as_array().unwrap();
    assert_eq!(race.len(), want.lucky_looser.len());
    assert!(v["lucky_looser"]["cents"].as_i64().is_some());
    let unknown = t.get("/api/v1/seasons/1999/scenario", None).await;
    assert_eq!(unknown.status, StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn the_scenario_page_is_linked_cached_and_german() {
    let t = TestApp::with_seasons(&[season_file("sample-2026", None)]).await;
    let table = t.get("/saison/2026", None).await;
    assert!(
        table.body.contains("/saison/2026/szenario"),
        "{}",
        table.body
    );
    let page = t.get("/saison/2026/szenario", None).await;
    assert_eq!(page.status, StatusCode::OK, "{}", page.body);
    assert!(page.body.contains("Was bringt der letzte Abend?"));
    assert!(page.body.contains("bezahlte Strafen kommen noch dazu"));
    assert!(page.body.contains("1. Platz"));
    assert!(page.body.contains("Lucky Looser"));
    // The leader keeps place 2 without an Out: the places behind it are not listed again.
    assert!(page
        .body
        .contains("sicher, auch ohne Out (und jeder Platz dahinter)"));
    let api: Value = t.get("/api/v1/seasons/2026/scenario", None).await.json();
    let unreachable = api["players"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|p| p["places"].as_array().unwrap().iter())
        .any(|c| c["reach"].is_null());
    assert_eq!(page.body.contains("nicht mehr erreichbar"), unreachable);
    let again = t.get("/saison/2026/szenario", None).await;
    assert_eq!(again.header("x-cache"), Some("hit"));
    assert_eq!(again.body, page.body);
}

#[tokio::test]
async fn after_the_year_the_page_says_saison_vorbei() {
    let clock = schockerliga::service::clock::FixedClock::parse("2027-01-05T12:00:00Z").unwrap();
    let t = TestApp::builder()
        .season(season_file("sample-2026", None))
        .clock(clock)
        .start()
        .await;
    let page = t.get("/saison/2026/szenario", None).await;
    assert_eq!(page.status, StatusCode::OK);
    assert!(page.body.contains("Saison vorbei"), "{}", page.body);
    assert!(!page.body.contains("nicht mehr erreichbar"));
    let v = t.get("/api/v1/seasons/2026/scenario", None).await.json();
    assert_eq!(v["over"], true);
    assert_eq!(v["players"], serde_json::json!([]));
}

#[tokio::test]
async fn private_money_is_left_out_for_visitors() {
    let t = TestApp::builder()
        .staff()
        .season(season_file("sample-2026", None))
        .start()
        .await;
    let admin = t.login(crate::app::ADMIN).await;
    t.post_follow("/verwaltung/einstellungen", "money_private=1", &admin)
        .await;
    let v = t.get("/api/v1/seasons/2026/scenario", None).await.json();
    assert!(v.get("pot_cents").is_none(), "{v}");
    assert!(v["players"][0]["places"][0].get("cents").is_none(), "{v}");
    let page = t.get("/saison/2026/szenario", None).await;
    assert!(!page.body.contains("aus dem Topf"), "{}", page.body);
    let logged_in = t.get("/api/v1/seasons/2026/scenario", Some(&admin)).await;
    assert!(logged_in.json().get("pot_cents").is_some());
}
