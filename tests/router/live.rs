//! The live board (issue 11.3): `/live/{date}` and `GET /api/v1/nights/{date}/live` follow a
//! Schockbesteck Runde Wurfrunde by Wurfrunde (Deckel, stock, part, last Wurfrunde, who is out),
//! compared with an independent replay of the engine; neither is served stale from the page cache.

use axum::http::StatusCode;
use schockerliga::rules::{RuleSet, RundeState, ThrowInput};
use serde_json::Value;

use crate::besteck::{post_wurfrunde, prepared, start_runde, PAGE, RUNDE};

const LIVE: &str = "/api/v1/nights/2026-01-09/live";

/// Table 1 of the live JSON.
fn table1(v: &Value) -> &Value {
    &v["tables"][0]
}

#[tokio::test]
async fn the_live_json_follows_a_schockbesteck_runde() {
    let t = prepared().await;
    let cookie = t.login(crate::app::SECRETARY).await;

    // Nothing running: table 1 with its players and the one entered round; anonymous, no cache.
    let r = t.get(LIVE, None).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    assert_eq!(r.header("cache-control"), Some("no-store"));
    let v = r.json();
    assert_eq!(v["date"], "2026-01-09");
    assert_eq!(table1(&v)["table"], 1);
    assert_eq!(table1(&v)["rounds_entered"], 1);
    assert_eq!(table1(&v)["runde"], Value::Null);
    assert_eq!(
        table1(&v)["players"],
        serde_json::json!(["Anna", "Bernd", "Carla", "Dirk"])
    );
    let page = t.get("/live/2026-01-09", None).await;
    assert_eq!(page.status, StatusCode::OK);
    assert_eq!(page.header("cache-control"), Some("no-store"));
    assert!(page.body.contains("http-equiv=\"refresh\" content=\"5\""));
    assert!(
        page.body.contains("Gerade läuft keine Runde"),
        "{}",
        page.body
    );

    // Start round 2 with Anna, Bernd, Carla (Anna Vorleger): visible at once.
    start_runde(&t, &cookie).await;
    let v = t.get(LIVE, None).await.json();
    let runde = &table1(&v)["runde"];
    assert_eq!(runde["round"], 2);
    assert_eq!(runde["part"], "Hälfte 1 – Auswürfeln");
    assert_eq!(runde["stock"], 13);
    assert_eq!(runde["wurfrunden"], 0);
    assert_eq!(runde["last"], Value::Null);

    // Wurfrunde by Wurfrunde: the JSON is the engine's state after the same throws.
    let names: Vec<String> = ["Anna", "Bernd", "Carla"].map(String::from).to_vec();
    let mut engine = RundeState::new(names.clone(), RuleSet::default()).unwrap();
    for (seq, rows) in RUNDE.iter().enumerate() {
        let r = post_wurfrunde(&t, &cookie, seq, rows).await;
        assert_eq!(r.status, StatusCode::SEE_OTHER, "{seq}: {}", r.body);
        let throws = rows
            .iter()
            .map(|(p, d, n, hand)| {
                let dice: Vec<u8> = d.bytes().map(|b| b - b'0').collect();
                ThrowInput::from_dice(p, [dice[0], dice[1], dice[2]], *n, *n == 1 || *hand)
            })
            .collect();
        let outcome = engine.apply(throws).unwrap();

        let v = t.get(LIVE, None).await.json();
        let runde = &table1(&v)["runde"];
        assert_eq!(runde["wurfrunden"], seq + 1, "{seq}: {v}");
        let deckel: Vec<(String, u64)> = runde["seats"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| {
                (
                    s["player"].as_str().unwrap().to_string(),
                    s["deckel"].as_u64().unwrap(),
                )
            })
            .collect();
        let expected: Vec<(String, u64)> = engine
            .deckel()
            .into_iter()
            .map(|(p, d)| (p.to_string(), u64::from(d)))
            .collect();
        assert_eq!(deckel, expected, "{seq}: {v}");
        assert_eq!(runde["stock"], engine.stock(), "{seq}");
        let half_losers: Vec<&str> = engine.half_losers();
        assert_eq!(
            runde["half_losers"],
            serde_json::json!(half_losers),
            "{seq}"
        );
        assert_eq!(runde["loser"], serde_json::json!(engine.loser()), "{seq}");
        let last = &runde["last"];
        assert_eq!(last["number"], seq + 1, "{seq}");
        assert_eq!(
            last["ranking"][0]["player"],
            outcome.evaluation.order[0].as_str(),
            "{seq}"
        );
        // who is out: the engine's out players of the running part
        let out: Vec<&str> = runde["seats"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|s| s["out"] == true)
            .map(|s| s["player"].as_str().unwrap())
            .collect();
        let engine_out: Vec<&str> = if engine.is_finished() {
            Vec::new()
        } else {
            engine.out_players()
        };
        assert_eq!(out, engine_out, "{seq}");

        // The page shows the same Deckel, fresh after every Wurfrunde (never the cached page).
        let page = t.get("/live/2026-01-09", None).await.body;
        for (p, d) in &expected {
            assert!(
                page.contains(&format!("data-player=\"{p}\" data-deckel=\"{d}\"")),
                "{seq}: {p} {d}: {page}"
            );
        }
    }
    // After Wurfrunde 1 the page said so; at the end the loser is named.
    let v = t.get(LIVE, None).await.json();
    assert_eq!(table1(&v)["runde"]["loser"], "Bernd");
    assert_eq!(table1(&v)["runde"]["part"], "beendet");
    let page = t.get("/live/2026-01-09", None).await.body;
    assert!(
        page.contains("<strong>Bernd</strong> verliert die Runde."),
        "{page}"
    );

    // Confirmed, the round is entered and nothing runs any more.
    let r = t
        .post_fields(
            &format!("{PAGE}/bestaetigen"),
            &[("seq", "7")],
            Some(&cookie),
        )
        .await;
    assert_eq!(r.status, StatusCode::SEE_OTHER, "{}", r.body);
    let v = t.get(LIVE, None).await.json();
    assert_eq!(table1(&v)["rounds_entered"], 2, "{v}");
    assert_eq!(table1(&v)["runde"], Value::Null);
    // Between Runden the board shows the round just entered: Bernd lost round 2.
    assert_eq!(table1(&v)["last_round"]["number"], 2, "{v}");
    assert_eq!(table1(&v)["last_round"]["loser"], "Bernd");
    let page = t.get("/live/2026-01-09", None).await.body;
    assert!(
        page.contains(
            "Zuletzt eingetragen: <strong>Runde 2</strong> · verloren: <strong>Bernd</strong>"
        ),
        "{page}"
    );

    // Unknown nights: 404 (JSON and page).
    let r = t.get("/api/v1/nights/2026-01-10/live", None).await;
    assert_eq!(r.status, StatusCode::NOT_FOUND);
    assert!(r.json()["error"].as_str().unwrap().contains("10.01.2026"));
    assert_eq!(
        t.get("/api/v1/nights/morgen/live", None).await.status,
        StatusCode::NOT_FOUND
    );
    assert_eq!(
        t.get("/live/2026-01-10", None).await.status,
        StatusCode::NOT_FOUND
    );
}
