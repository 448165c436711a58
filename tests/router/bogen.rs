//! The paper fallback (issue 11.6): the printable Spielberichtsbogen of a two-table night, and a
//! whole table's ten rounds entered in one form — all stored in one write; one bad field (or a
//! round the league refuses) stores nothing and the form comes back with what was typed.

use axum::http::StatusCode;
use schockerliga::db;
use schockerliga::league::model::file::SeasonFile;

use crate::app::{TestApp, SECRETARY};

/// A night of eleven drawn players at two tables, no rounds yet.
const SEASON: &str = r#"{
  "format": "schockerliga-season/1", "season": 2026, "rules": {},
  "players": [ { "name": "Anna" }, { "name": "Bernd" }, { "name": "Carla" }, { "name": "Dirk" },
               { "name": "Emil" }, { "name": "Frieda" }, { "name": "Gustav" }, { "name": "Hanna" },
               { "name": "Ingo" }, { "name": "Jule" }, { "name": "Karl" } ],
  "nights": [ { "date": "2026-01-16", "tables": [],
    "draw": [ { "player": "Anna", "table": 1 }, { "player": "Bernd", "table": 1 },
              { "player": "Carla", "table": 1 }, { "player": "Dirk", "table": 1 },
              { "player": "Emil", "table": 1 }, { "player": "Frieda", "table": 1 },
              { "player": "Gustav", "table": 2 }, { "player": "Hanna", "table": 2 },
              { "player": "Ingo", "table": 2 }, { "player": "Jule", "table": 2 },
              { "player": "Karl", "table": 2 } ] } ]
}"#;

const FORM: &str = "/verwaltung/abend/2026-01-16/bogen/2";

/// Table 2's ten rounds as form fields: in round n player (n mod 5) loses, player ((n+1) mod 5)
/// throws one Out (a Hand-Out in round 4), Ingo a Jule in round 2, Hanna's Joker in round 3, Karl
/// sits out round 10; `bad` replaces one field.
fn ten_rounds(bad: Option<(&str, &str)>) -> Vec<(String, String)> {
    let mut f = vec![("einmal".to_string(), String::new())];
    for n in 1..=10u32 {
        for i in 0..5usize {
            if !(n == 10 && i == 4) {
                f.push((format!("m{n}_{i}"), "1".into()));
            }
            let outs = if (n as usize + 1) % 5 == i { "1" } else { "" };
            f.push((format!("o{n}_{i}"), outs.into()));
            let hand = if n == 4 && (n as usize + 1) % 5 == i {
                "1"
            } else {
                ""
            };
            f.push((format!("h{n}_{i}"), hand.into()));
            let julen = if n == 2 && i == 2 { "1" } else { "" };
            f.push((format!("j{n}_{i}"), julen.into()));
            if n == 3 && i == 1 {
                f.push((format!("k{n}_{i}"), "1".into()));
            }
        }
        f.push((format!("v{n}"), (n as usize % 5).to_string()));
    }
    if let Some((name, v)) = bad {
        for (k, val) in f.iter_mut() {
            if k == name {
                *val = v.to_string();
            }
        }
    }
    f
}

async fn prepared() -> (TestApp, String) {
    let file: SeasonFile = serde_json::from_str(SEASON).unwrap();
    let t = TestApp::builder()
        .season(file)
        .account(SECRETARY, "secretary")
        .start()
        .await;
    let cookie = t.login(SECRETARY).await;
    (t, cookie)
}

async fn rounds_at_table_2(t: &TestApp) -> Vec<schockerliga::league::model::file::RoundEntry> {
    let stored = db::season::load_file(&t.db.read, 2026)
        .await
        .unwrap()
        .unwrap();
    stored.nights[0]
        .tables
        .iter()
        .find(|t| t.number == 2)
        .map(|t| t.rounds.clone())
        .unwrap_or_default()
}

#[tokio::test]
async fn the_printable_sheet() {
    let (t, cookie) = prepared().await;
    assert!(t
        .get("/verwaltung/abend/2026-01-16/bogen", None)
        .await
        .is_login_redirect());
    let r = t
        .get("/verwaltung/abend/2026-01-16/bogen", Some(&cookie))
        .await;
    assert_eq!(r.status, StatusCode::OK);
    let b = &r.body;
    assert!(b.contains("Spielberichtsbogen · Abend 16.01.2026 · Tisch 1"));
    assert!(b.contains("Spielberichtsbogen · Abend 16.01.2026 · Tisch 2"));
    // 2 tables × 10 rounds, each with the five columns; every player on his table's page
    assert_eq!(b.matches("<caption>Runde ").count(), 20);
    assert_eq!(
        b.matches("<th>Outs</th><th>Hand</th><th>Julen</th><th>Joker</th><th>verl.</th>")
            .count(),
        20
    );
    assert_eq!(b.matches("<tr><td>Karl</td>").count(), 10);
    assert_eq!(b.matches("<tr><td>Anna</td>").count(), 10);
    assert!(b.contains("href=\"/verwaltung/abend/2026-01-16/bogen/2\""));
    // the night page links it
    let night = t
        .get("/verwaltung/abend/2026-01-16", Some(&cookie))
        .await
        .body;
    assert!(night.contains("href=\"/verwaltung/abend/2026-01-16/bogen\""));
}

#[tokio::test]
async fn a_whole_table_in_one_form() {
    let (t, cookie) = prepared().await;
    let r = t.get(FORM, Some(&cookie)).await;
    assert_eq!(r.status, StatusCode::OK);
    assert_eq!(r.body.matches("<legend>Runde ").count(), 10);
    assert!(r.body.contains("name=\"einmal\""));

    // A field that is no number in round 7: nothing stored, the message names round, player and
    // field; everything typed comes back.
    let f = ten_rounds(Some(("j7_3", "x")));
    let r = t.post_fields(FORM, &f, Some(&cookie)).await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", r.body);
    assert!(
        r.body.contains(
            "Abend 16.01.2026, Tisch 2, Runde 7, Spieler Jule, Feld Julen: „x“ ist keine Zahl ≥ 0"
        ),
        "{}",
        r.body
    );
    assert!(r
        .body
        .contains("name=\"j7_3\" class=\"invalid\" aria-invalid=\"true\" value=\"x\""));
    assert!(r.body.contains("id=\"fehler-runde-7\""), "{}", r.body);
    assert!(r.body.contains("name=\"o1_2\" value=\"1\""));
    assert!(r.body.contains("name=\"v6\" value=\"1\" checked"));
    assert!(r.body.contains("name=\"k3_1\" value=\"1\" checked"));
    assert!(!r.body.contains("name=\"m10_4\" value=\"1\" checked"));
    assert!(rounds_at_table_2(&t).await.is_empty());

    // A round the league refuses (round 7: 4 Outs for Gustav, more than a round allows):
    // rounds 1–6 are not stored either; the refusal names round 7 and the player.
    let f = ten_rounds(Some(("o7_0", "4")));
    let r = t.post_fields(FORM, &f, Some(&cookie)).await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", r.body);
    assert!(r.body.contains("Nichts gespeichert"), "{}", r.body);
    assert!(r.body.contains("Runde 7"), "{}", r.body);
    assert!(r.body.contains("Spieler Gustav"), "{}", r.body);
    assert!(
        r.body
            .contains("name=\"o7_0\" class=\"invalid\" aria-invalid=\"true\" value=\"4\""),
        "{}",
        r.body
    );
    assert!(r.body.contains("id=\"fehler-runde-7\""));
    assert!(rounds_at_table_2(&t).await.is_empty());

    // The whole table: ten rounds stored in one step, as typed.
    let mut f = ten_rounds(None);
    f[0].1 = "0123456789abcdef0123456789abcdef".to_string();
    let r = t.post_fields(FORM, &f, Some(&cookie)).await;
    assert_eq!(r.status, StatusCode::SEE_OTHER, "{}", r.body);
    let rounds = rounds_at_table_2(&t).await;
    assert_eq!(rounds.len(), 10);
    // The same form sent again (a reload): carried out once, nothing stored twice.
    let again = t.post_fields(FORM, &f, Some(&cookie)).await;
    assert_eq!(again.status, StatusCode::SEE_OTHER, "{}", again.body);
    assert_eq!(rounds_at_table_2(&t).await, rounds);
    let names = ["Gustav", "Hanna", "Ingo", "Jule", "Karl"];
    for (k, round) in rounds.iter().enumerate() {
        let n = k + 1;
        assert_eq!(round.number as usize, n);
        assert_eq!(
            round.results.len(),
            if n == 10 { 4 } else { 5 },
            "round {n}"
        );
        let loser: Vec<&str> = round
            .results
            .iter()
            .filter(|r| r.lost)
            .map(|r| r.player.as_str())
            .collect();
        assert_eq!(loser, [names[n % 5]], "round {n}");
        let thrower = round.results.iter().find(|r| r.outs == 1).unwrap();
        assert_eq!(thrower.player, names[(n + 1) % 5], "round {n}");
        assert_eq!(thrower.hand_outs, u32::from(n == 4), "round {n}");
    }
    assert!(rounds[1]
        .results
        .iter()
        .any(|r| r.player == "Ingo" && r.julen == 1));
    assert!(rounds[2]
        .results
        .iter()
        .any(|r| r.player == "Hanna" && r.joker));
    assert!(!rounds[9].results.iter().any(|r| r.player == "Karl"));
    // the form has nothing left to enter; table 1 is untouched
    let r = t.get(FORM, Some(&cookie)).await;
    assert!(r
        .body
        .contains("Alle Runden dieses Tisches sind eingetragen."));
    let stored = db::season::load_file(&t.db.read, 2026)
        .await
        .unwrap()
        .unwrap();
    assert!(stored.nights[0].tables.iter().all(|t| t.number == 2));
}

/// A sheet entered after the night was closed (the paper came back a day later): the form carries
/// the Korrektur fields, is refused without a ticked Korrektur and a reason, and stores the whole
/// table with them (issue 20: the sheet could not carry a Korrektur, so there was no way forward).
#[tokio::test]
async fn a_sheet_after_closing_is_entered_as_a_korrektur() {
    let (t, cookie) = prepared().await;
    let r = t
        .post(
            "/verwaltung/abend/2026-01-16/abschliessen",
            "sicher=1",
            Some(&cookie),
        )
        .await;
    assert_eq!(r.status, StatusCode::SEE_OTHER, "{}", r.body);
    let form = t.get(FORM, Some(&cookie)).await;
    assert_eq!(form.status, StatusCode::OK);
    assert!(form.body.contains("name=\"korrektur\""), "{}", form.body);
    assert!(
        form.body.contains("name=\"korrektur_grund\""),
        "{}",
        form.body
    );

    // Without the Korrektur: refused, nothing stored, the typed values and the reason shown.
    let r = t.post_fields(FORM, &ten_rounds(None), Some(&cookie)).await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", r.body);
    assert!(r.body.contains("Korrektur"), "{}", r.body);
    assert!(r.body.contains("name=\"o1_2\" value=\"1\""), "{}", r.body);
    assert!(rounds_at_table_2(&t).await.is_empty());

    // Ticked without a reason: still refused, the tick kept.
    let mut f = ten_rounds(None);
    f.push(("korrektur".into(), "on".into()));
    let r = t.post_fields(FORM, &f, Some(&cookie)).await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", r.body);
    assert!(rounds_at_table_2(&t).await.is_empty());

    // With a reason: the ten rounds stored in one step, recorded as a Korrektur.
    f.push(("korrektur_grund".into(), "Bogen nachgetragen".into()));
    let r = t.post_fields(FORM, &f, Some(&cookie)).await;
    assert_eq!(r.status, StatusCode::SEE_OTHER, "{}", r.body);
    assert_eq!(rounds_at_table_2(&t).await.len(), 10);
    let (reasons,): (i64,) = sqlx::query_as(
        "select count(*) from night_corrections where reason = 'Bogen nachgetragen'",
    )
    .fetch_one(&t.db.read)
    .await
    .unwrap();
    assert_eq!(reasons, 1);
}
