//! A Nachzügler at a real club night (issue 11.1): eleven players, ten drawn to two tables of five,
//! rounds 1 and 2 entered at both tables, then Kurt arrives. He is seated at the table with fewer
//! players (a tie: table 2) with the `late` fine in the same step, plays round 3 there, and every
//! page, the Kasse, the JSON API and the export show the hand-computed figures of league.md §2–§3.

use std::collections::HashMap;

use axum::http::StatusCode;
use schockerliga::db;
use schockerliga::league::model::file::SeasonFile;
use schockerliga::league::Season;
use serde_json::{json, Value};

use crate::app::{RoundForm, TestApp, SECRETARY};

const NIGHT: &str = "2026-01-09";
const NAMES: [&str; 11] = [
    "Anna", "Bernd", "Carla", "Dieter", "Elke", "Frank", "Gabi", "Hans", "Ilse", "Jörg", "Kurt",
];

fn season() -> SeasonFile {
    let players: Vec<_> = NAMES.iter().map(|n| json!({ "name": n })).collect();
    serde_json::from_value(json!({
        "format": "schockerliga-season/1", "season": 2026,
        "players": players, "nights": [ { "date": NIGHT } ],
    }))
    .unwrap()
}

/// The players of `table` in seat order.
async fn table(t: &TestApp, table: i64) -> Vec<String> {
    let mut conn = t.db.read.acquire().await.unwrap();
    let night = db::night::by_date(&mut conn, NIGHT.parse().unwrap())
        .await
        .unwrap()
        .unwrap();
    db::night::participants(&mut conn, night.id)
        .await
        .unwrap()
        .into_iter()
        .filter(|p| p.table_no == table)
        .map(|p| p.name)
        .collect()
}

/// Round `number` at `table` through the JSON API: the first player 1 Out, the second loses; with
/// `extra` = (player, outs, lost) for a player who throws and loses instead.
async fn round(
    t: &TestApp,
    cookie: &str,
    table_no: i64,
    number: u32,
    players: &[String],
    extra: Option<(&str, u32)>,
) {
    let results: Vec<Value> = players
        .iter()
        .enumerate()
        .map(|(i, p)| {
            let (outs, lost) = match extra {
                Some((x, outs)) if x == p => (outs, true),
                Some(_) => (u32::from(i == 0), false),
                None => (u32::from(i == 0), i == 1),
            };
            json!({ "player": p, "outs": outs, "hand_outs": 0, "lost": lost })
        })
        .collect();
    let r = t
        .post_json(
            &format!("/api/v1/nights/{NIGHT}/tables/{table_no}/rounds/{number}"),
            json!({ "results": results }).to_string(),
            Some(cookie),
        )
        .await;
    assert_eq!(
        r.status,
        StatusCode::OK,
        "table {table_no} round {number}: {}",
        r.body
    );
}

#[tokio::test]
async fn a_late_arrival_at_round_3_of_two_tables_keeps_every_figure_right() {
    let t = TestApp::builder().staff().season(season()).start().await;
    let cookie = t.login(SECRETARY).await;
    let ids: HashMap<String, i64> = db::player::of_season_pool(&t.db.read, 2026)
        .await
        .unwrap()
        .into_iter()
        .map(|p| (p.name, p.id))
        .collect();
    let present: Vec<(String, String)> = NAMES[..10]
        .iter()
        .map(|n| ("present".to_string(), ids[*n].to_string()))
        .collect();
    let r = t
        .post_fields(
            &format!("/verwaltung/abend/{NIGHT}/teilnehmer"),
            &present,
            Some(&cookie),
        )
        .await;
    assert_eq!(r.status, StatusCode::SEE_OTHER, "{}", r.body);
    let (one, two) = (table(&t, 1).await, table(&t, 2).await);
    assert_eq!((one.len(), two.len()), (5, 5));
    for number in 1..=2 {
        round(&t, &cookie, 1, number, &one, None).await;
        round(&t, &cookie, 2, number, &two, None).await;
    }
    // Kurt arrives: the tables are tied, so table 2; the late fine in the same step.
    let r = t
        .post(
            &format!("/verwaltung/abend/{NIGHT}/nachzuegler"),
            &format!("einmal=k1&player={}&table=&fine=1", ids["Kurt"]),
            Some(&cookie),
        )
        .await;
    assert_eq!(r.status, StatusCode::SEE_OTHER, "{}", r.body);
    // A reload of the form seats nobody twice and books no second fine.
    let again = t
        .post(
            &format!("/verwaltung/abend/{NIGHT}/nachzuegler"),
            &format!("einmal=k1&player={}&table=&fine=1", ids["Kurt"]),
            Some(&cookie),
        )
        .await;
    assert_eq!(again.status, StatusCode::SEE_OTHER);
    assert_eq!(table(&t, 1).await, one, "nobody moved");
    let two_now = table(&t, 2).await;
    assert_eq!(&two_now[..5], &two[..], "nobody moved");
    assert_eq!(two_now.get(5).map(String::as_str), Some("Kurt"));
    // The night page offers his row at table 2 for the next round (3).
    let page = t
        .get(&format!("/verwaltung/abend/{NIGHT}"), Some(&cookie))
        .await;
    let at2 = page.body.find("id=\"tisch-2\"").unwrap();
    assert!(page.body[at2..].contains(&format!("name=\"outs_{}\"", ids["Kurt"])));
    assert!(page.body[at2..].contains("name=\"number\" min=\"1\" value=\"3\""));
    // Round 3: table 1 as before; at table 2 Kurt throws 2 Outs and loses.
    round(&t, &cookie, 1, 3, &one, None).await;
    round(&t, &cookie, 2, 3, &two_now, Some(("Kurt", 2))).await;

    // Hand-computed (league.md §2–§3, out_points 1, rounds_per_night 10):
    // the first player of each table: 3 rows, 3 Outs → D.Wert 10,00; Kurt: 1 row, 2 Outs →
    // Teilnahmen 0,1, D.Wert 20,00, 1 lost round; the second player of table 2 lost rounds 1–2.
    let standings = t.get("/api/v1/seasons/2026/standings", None).await;
    assert_eq!(standings.status, StatusCode::OK);
    let rows = standings.json()["rows"].as_array().unwrap().clone();
    let row = |name: &str| rows.iter().find(|r| r["player"] == name).unwrap().clone();
    assert_eq!(rows.len(), 11, "every player with a round");
    let kurt = row("Kurt");
    assert_eq!(
        (
            kurt["rounds"].clone(),
            kurt["counted_outs"].clone(),
            kurt["lost_rounds"].clone()
        ),
        (json!(1), json!(2), json!(1))
    );
    assert!((kurt["teilnahmen"].as_f64().unwrap() - 0.1).abs() < 1e-9);
    assert!((kurt["d_wert"].as_f64().unwrap() - 20.0).abs() < 1e-9);
    for first in [&one[0], &two[0]] {
        let r = row(first);
        assert_eq!(
            (r["rounds"].clone(), r["counted_outs"].clone()),
            (json!(3), json!(3)),
            "{first}"
        );
        assert!((r["d_wert"].as_f64().unwrap() - 10.0).abs() < 1e-9);
    }
    assert_eq!(row(&two[1])["lost_rounds"], json!(2));
    assert_eq!(row(&one[1])["lost_rounds"], json!(3));
    let total_rounds: i64 = rows.iter().map(|r| r["rounds"].as_i64().unwrap()).sum();
    assert_eq!(total_rounds, 10 * 3 + 1);
    // The public table and Kurt's page.
    let table_page = t.get("/saison/2026", None).await;
    assert!(table_page.body.contains("Kurt"));
    let player = t
        .get(
            &format!("/saison/2026/spieler/{}", ids["Kurt"]),
            Some(&cookie),
        )
        .await;
    assert_eq!(player.status, StatusCode::OK);
    assert!(player.body.contains("20,00"), "D.Wert on his page");
    // The Kasse: his late fine, open, 1,00 €, once.
    let fines = db::money::fines_of_season(&t.db.read, 2026).await.unwrap();
    let got: Vec<(&str, &str, i64, bool)> = fines
        .iter()
        .map(|f| (f.player.as_str(), f.kind.as_str(), f.amount_cents, f.paid))
        .collect();
    assert_eq!(got, [("Kurt", "late", 100, false)]);
    let kasse = t.get("/saison/2026/kasse", Some(&cookie)).await;
    assert_eq!(kasse.status, StatusCode::OK);
    assert!(kasse.body.contains("Kurt"), "{}", kasse.body);
    // The night's page (fifth trial): Kurt was not drawn, he came later; "Ausgelost" names the
    // drawn players of table 2, and Kurt after them, from his first round.
    let night_page = t.get(&format!("/abend/{NIGHT}"), None).await.body;
    let table_two = night_page.split("<h2>Tisch 2</h2>").nth(1).unwrap();
    let drawn = table_two.split("Ausgelost: ").nth(1).unwrap();
    let drawn = &drawn[..drawn.find("</p>").unwrap()];
    assert!(!drawn.contains("Kurt"), "{drawn}");
    assert!(drawn.contains(two[0].as_str()), "{drawn}");
    assert!(
        table_two.contains("Später dazu: Kurt (ab Runde 3)"),
        "{table_two}"
    );
    // The export: his seat and his one row, and the file checks again.
    let file = db::season::load_file(&t.db.read, 2026)
        .await
        .unwrap()
        .unwrap();
    let night = &file.nights[0];
    let draw = night.draw.as_ref().unwrap();
    assert!(draw.iter().any(|s| s.player == "Kurt" && s.table == 2));
    let kurt_rows: Vec<(u32, u32)> = night
        .tables
        .iter()
        .flat_map(|t| t.rounds.iter().map(move |r| (t.number, r)))
        .filter(|(_, r)| r.results.iter().any(|x| x.player == "Kurt"))
        .map(|(t, r)| (t, r.number))
        .collect();
    assert_eq!(kurt_rows, [(2, 3)]);
    let again = Season::from_file(&file).unwrap();
    assert_eq!(again.nights[0].draw.len(), 11);
}

/// The hidden fields (name, value) of the form posting to `action` in `body`, in order.
pub(crate) fn hidden_fields(body: &str, action: &str) -> Vec<(String, String)> {
    let start = body
        .find(&format!("action=\"{action}\""))
        .unwrap_or_else(|| panic!("no form to {action}: {body}"));
    let form = &body[start..start + body[start..].find("</form>").unwrap()];
    let attr = |tag: &str, name: &str| -> Option<String> {
        let key = format!("{name}=\"");
        let at = tag.find(&key)? + key.len();
        Some(tag[at..at + tag[at..].find('"')?].to_string())
    };
    form.split("<input")
        .skip(1)
        .map(|rest| &rest[..rest.find('>').unwrap()])
        .filter(|tag| tag.contains("type=\"hidden\""))
        .filter_map(|tag| Some((attr(tag, "name")?, attr(tag, "value").unwrap_or_default())))
        .collect()
}

#[tokio::test]
async fn a_scorer_page_opened_before_a_late_arrival_stores_no_round_without_him() {
    // Issue 31.4: the scorer link's page of table 2 was opened at round 4; Kurt is seated at
    // table 2 meanwhile. The round sent from the page's old seat list was stored without him,
    // silently. Now it is refused, naming him, with what was typed kept and his row in the form.
    let t = TestApp::builder().staff().season(season()).start().await;
    let cookie = t.login(SECRETARY).await;
    let ids: HashMap<String, i64> = db::player::of_season_pool(&t.db.read, 2026)
        .await
        .unwrap()
        .into_iter()
        .map(|p| (p.name, p.id))
        .collect();
    let present: Vec<(String, String)> = NAMES[..10]
        .iter()
        .map(|n| ("present".to_string(), ids[*n].to_string()))
        .collect();
    let r = t
        .post_fields(
            &format!("/verwaltung/abend/{NIGHT}/teilnehmer"),
            &present,
            Some(&cookie),
        )
        .await;
    assert_eq!(r.status, StatusCode::SEE_OTHER, "{}", r.body);
    let two = table(&t, 2).await;
    for number in 1..=3 {
        round(&t, &cookie, 2, number, &two, None).await;
    }
    let link = crate::scorer_links::make_link(&t, &cookie, NIGHT, 2).await;
    let action = format!("{link}/runde");
    let opened = t.get(&link, None).await;
    assert_eq!(opened.status, StatusCode::OK);
    let hidden = hidden_fields(&opened.body, &action);
    // Kurt arrives and sits at table 2.
    let r = t
        .post(
            &format!("/verwaltung/abend/{NIGHT}/nachzuegler"),
            &format!("einmal=k1&player={}&table=2&fine=1", ids["Kurt"]),
            Some(&cookie),
        )
        .await;
    assert_eq!(r.status, StatusCode::SEE_OTHER, "{}", r.body);
    // Round 4 from the page as it was opened: the five without Kurt, the second throws 2 Outs.
    let body = two.iter().enumerate().fold(
        RoundForm::number(4).hidden(&hidden).lost(ids[&two[0]]),
        |f, (i, p)| f.row(ids[p], if i == 1 { 2 } else { 0 }),
    );
    let before = crate::scorer_links::rounds_at(&t.db.read, NIGHT, 2).await;
    let r = t.post_round(&action, &body, None).await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", r.body);
    assert!(
        r.body.contains("Kurt sitzt inzwischen an Tisch 2"),
        "names who joined: {}",
        r.body
    );
    assert!(r.body.contains("nichts gespeichert"), "{}", r.body);
    // It tells what to do with the form as it is: the box before his name (fifth trial: it said
    // "„spielt mit“ abhaken", a box the form names by the player only).
    assert!(
        r.body.contains("das Häkchen vor seinem Namen entfernen"),
        "{}",
        r.body
    );
    assert_eq!(
        crate::scorer_links::rounds_at(&t.db.read, NIGHT, 2).await,
        before,
        "nothing stored"
    );
    // What was typed is kept, and Kurt's row is in the form now.
    assert!(
        r.body.contains(&format!(
            "name=\"outs_{}\" min=\"0\" max=\"3\" value=\"2\"",
            ids[&two[1]]
        )),
        "{}",
        r.body
    );
    assert!(r.body.contains("name=\"number\" min=\"1\" value=\"4\""));
    assert!(r.body.contains(&format!("name=\"outs_{}\"", ids["Kurt"])));
    // Sent again from the refusal's page (its seat list has Kurt), with his row: stored.
    let again = two.iter().map(String::as_str).chain(["Kurt"]).fold(
        RoundForm::number(4)
            .hidden(&hidden_fields(&r.body, &action))
            .lost(ids["Kurt"]),
        |f, p| f.row(ids[p], 0),
    );
    let r = t.post_round(&action, &again, None).await;
    assert_eq!(r.status, StatusCode::SEE_OTHER, "{}", r.body);
    assert_eq!(
        crate::scorer_links::rounds_at(&t.db.read, NIGHT, 2).await,
        before + 1
    );
}
