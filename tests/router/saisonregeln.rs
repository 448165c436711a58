//! The season's rules as a form (issue 11.7, league.md §10): every field with its default and a
//! German explanation; editable before the first night (stored through the pipeline), an invalid
//! value refused beside its field with everything typed kept and nothing stored, read-only and
//! refused once the season has a night.

use axum::http::StatusCode;
use schockerliga::db;
use schockerliga::league::model::file::SeasonFile;
use serde_json::json;

use crate::app::{TestApp, SECRETARY};

const PAGE: &str = "/verwaltung/saison/2027/regeln";

/// The form as sent with the defaults of 2027, `changes` applied.
fn form(changes: &[(&str, &str)]) -> Vec<(String, String)> {
    let mut f: Vec<(String, String)> = [
        ("rounds_per_night", "10"),
        ("out_points", "1"),
        ("hand_out_points", "2"),
        ("joker_multiplier", "2"),
        ("julen_per_out", "3"),
        ("kreisliga_below_rounds", "11"),
        ("min_rounds_first_liga", "100"),
        ("first_liga_deadline", "11-30"),
        ("fee_base_cents", "15,00 €"),
        ("fee_monthly_increase_cents", "1,00 €"),
        ("fee_increase_from_month", "4"),
        ("last_join_month", "9"),
        ("sozialfall_after", "3"),
        ("lucky_looser_cents", "10,00 €"),
        ("payout_percent", "30, 25, 20, 15, 10"),
        ("split_tables_from", "10"),
        ("game", "schockerliga"),
    ]
    .iter()
    .map(|(k, v)| (k.to_string(), v.to_string()))
    .collect();
    for (k, v) in changes {
        match f.iter_mut().find(|(name, _)| name == k) {
            Some(slot) => slot.1 = v.to_string(),
            None => f.push((k.to_string(), v.to_string())),
        }
    }
    f
}

async fn stored_rules(t: &TestApp) -> serde_json::Value {
    let file = db::season::load_file(&t.db.read, 2027)
        .await
        .unwrap()
        .unwrap();
    serde_json::Value::Object(file.rules)
}

#[tokio::test]
async fn the_season_rules_as_a_form() {
    let file: SeasonFile = serde_json::from_value(json!({
        "format": "schockerliga-season/1", "season": 2027, "rules": {},
        "players": [ { "name": "Anna" } ], "nights": [] }))
    .unwrap();
    let t = TestApp::builder()
        .season(file)
        .account(SECRETARY, "secretary")
        .start()
        .await;
    assert!(t.get(PAGE, None).await.is_login_redirect());
    let cookie = t.login(SECRETARY).await;

    // Every field of §10 with its default and explanation; the season page links the form.
    let r = t.get(PAGE, Some(&cookie)).await;
    assert_eq!(r.status, StatusCode::OK);
    for field in [
        "rounds_per_night",
        "out_points",
        "hand_out_points",
        "joker_multiplier",
        "julen_per_out",
        "julen_carry_across_seasons",
        "kreisliga_below_rounds",
        "min_rounds_first_liga",
        "first_liga_deadline",
        "fee_base_cents",
        "fee_monthly_increase_cents",
        "fee_increase_from_month",
        "last_join_month",
        "fines",
        "sozialfall_after",
        "lucky_looser_cents",
        "payout_percent",
        "split_tables_from",
        "game",
    ] {
        assert!(r.body.contains(&format!("id=\"feld-{field}\"")), "{field}");
    }
    assert!(r.body.contains("name=\"rounds_per_night\" value=\"10\""));
    assert!(r.body.contains("Standard: 10."));
    assert!(r.body.contains("Standard: 15,00 €."));
    assert!(r
        .body
        .contains("Zuspätkommer 1,00 €, Schock-Schlafmütze 0,50 €"));
    assert!(r.body.contains("name=\"einmal\""));
    let season = t.get("/verwaltung/saison/2027", Some(&cookie)).await.body;
    assert!(season.contains("href=\"/verwaltung/saison/2027/regeln\""));
    // The season page lists the rules with their German labels, no field names or JSON.
    assert!(
        season.contains("<dt>Jahresbeitrag</dt><dd>15,00 €</dd>"),
        "{season}"
    );
    assert!(
        season.contains("<dt>Julen ins nächste Jahr</dt><dd>"),
        "{season}"
    );
    assert!(season.contains("Abweichungen vom Standard des Jahres: keine"));
    assert!(!season.contains("fee_base_cents"), "{season}");
    assert!(!season.contains("{&quot;"), "no JSON: {season}");
    // The fee's date field offers only the days a Jahresbeitrag is accepted (not today, 2026,
    // for the 2027 season) and says so.
    let today = crate::app::club_today();
    let from = chrono::NaiveDate::from_ymd_opt(2027, 1, 1).unwrap();
    let until = chrono::NaiveDate::from_ymd_opt(2027, 9, 30).unwrap();
    let default = if (from..=until).contains(&today) {
        today.to_string()
    } else {
        String::new()
    };
    assert!(
        season.contains(&format!(
            "name=\"paid_on\" value=\"{default}\" min=\"2027-01-01\" max=\"2027-09-30\""
        )),
        "{season}"
    );
    assert!(season.contains("Zahltag vom 01.01.2027 bis 30.09.2027"));

    // Before the first night: stored, only the differences in the season's rules.
    let r = t
        .post_fields(
            PAGE,
            &form(&[
                ("rounds_per_night", "8"),
                ("fee_base_cents", "20,00"),
                ("joker_multiplier", ""),
                ("julen_carry_across_seasons", "1"),
            ]),
            Some(&cookie),
        )
        .await;
    assert_eq!(r.status, StatusCode::SEE_OTHER, "{}", r.body);
    assert_eq!(
        stored_rules(&t).await,
        json!({ "rounds_per_night": 8, "fee_base_cents": 2000, "joker_multiplier": null,
                "julen_carry_across_seasons": true })
    );
    let r = t.get(PAGE, Some(&cookie)).await;
    assert!(r.body.contains("name=\"rounds_per_night\" value=\"8\""));
    assert!(r.body.contains("name=\"fee_base_cents\" value=\"20,00 €\""));

    // Invalid values: refused per field, the message beside it, everything typed kept, nothing
    // stored.
    let r = t
        .post_fields(
            PAGE,
            &form(&[
                ("rounds_per_night", "zehn"),
                ("first_liga_deadline", "31-11"),
                ("split_tables_from", "12"),
            ]),
            Some(&cookie),
        )
        .await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", r.body);
    assert!(r.body.contains(
        "<p class=\"feldfehler\" id=\"fehler-rounds_per_night\" role=\"alert\">Runden je Abend: „zehn“ ist keine ganze Zahl ≥ 0</p>"
    ), "{}", r.body);
    assert!(r.body.contains("id=\"fehler-first_liga_deadline\""));
    assert!(r
        .body
        .contains("Nichts gespeichert: bitte Runden je Abend, Stichtag 1. Liga prüfen."));
    assert!(r.body.contains("name=\"rounds_per_night\" value=\"zehn\""));
    assert!(r.body.contains("name=\"split_tables_from\" value=\"12\""));
    // a value out of range (the league's check) goes beside its field too
    let r = t
        .post_fields(PAGE, &form(&[("payout_percent", "60, 50")]), Some(&cookie))
        .await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", r.body);
    assert!(r.body.contains(
        "id=\"fehler-payout_percent\" role=\"alert\">Auszahlung in %: höchstens 20 Plätze, zusammen höchstens 100 %</p>"
    ), "{}", r.body);
    assert!(r.body.contains("name=\"payout_percent\" value=\"60, 50\""));
    // an unknown dice-game preset
    let r = t
        .post_fields(PAGE, &form(&[("game", "mallorca")]), Some(&cookie))
        .await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(r.body.contains("id=\"fehler-game\""), "{}", r.body);
    assert_eq!(stored_rules(&t).await["rounds_per_night"], 8);

    // After the first night: read-only, and a posted form is refused.
    let r = t
        .post_fields(
            "/verwaltung/saison/2027/abend",
            &[("date", "2027-01-08")],
            Some(&cookie),
        )
        .await;
    assert_eq!(r.status, StatusCode::SEE_OTHER, "{}", r.body);
    let r = t.get(PAGE, Some(&cookie)).await;
    assert!(r.body.contains("Seit dem ersten Spielabend (08.01.2027)"));
    assert!(r
        .body
        .contains("name=\"rounds_per_night\" value=\"8\" inputmode=\"numeric\" disabled"));
    assert!(!r.body.contains("Regeln speichern"));
    let r = t
        .post_fields(PAGE, &form(&[("rounds_per_night", "12")]), Some(&cookie))
        .await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(r.body.contains(
        "Die Saisonregeln 2027 lassen sich nur vor dem ersten Spielabend ändern (erster Abend: 08.01.2027)."
    ), "{}", r.body);
    assert_eq!(stored_rules(&t).await["rounds_per_night"], 8);
}

#[tokio::test]
async fn the_rules_form_speaks_german() {
    // Issue 21.8: no field names of the season file under the fields, the deadline as „30.11.“,
    // the dice game a choice of the presets by their German titles (own rules as JSON), the
    // Strafenkatalog without its kinds' internal names, /regeln opening with the game's title.
    let file: SeasonFile = serde_json::from_value(json!({
        "format": "schockerliga-season/1", "season": 2027, "rules": {},
        "players": [ { "name": "Anna" } ], "nights": [] }))
    .unwrap();
    let t = TestApp::builder()
        .season(file)
        .account(SECRETARY, "secretary")
        .start()
        .await;
    let cookie = t.login(SECRETARY).await;
    let r = t.get(PAGE, Some(&cookie)).await;
    for english in ["<code>", "lucky_looser_cents</code>", "MM-TT", "11-30"] {
        assert!(!r.body.contains(english), "{english}: {}", r.body);
    }
    assert!(r
        .body
        .contains("name=\"first_liga_deadline\" value=\"30.11.\""));
    assert!(r.body.contains("Standard: 30.11.."), "{}", r.body);
    assert!(r.body.contains("<select name=\"game\""), "{}", r.body);
    assert!(r
        .body
        .contains("<option value=\"schockerliga\" selected>Regeln der Schockerliga</option>"));
    assert!(r
        .body
        .contains("<option value=\"westfalen\">Westfalen</option>"));
    assert!(r
        .body
        .contains("<option value=\"eigene\">eigene Regeln (JSON)</option>"));
    assert!(r.body.contains("Standard: Regeln der Schockerliga."));

    // The German deadline and a preset by choice are stored as the season file writes them.
    let r = t
        .post_fields(
            PAGE,
            &form(&[("first_liga_deadline", "15.10."), ("game", "westfalen")]),
            Some(&cookie),
        )
        .await;
    assert_eq!(r.status, StatusCode::SEE_OTHER, "{}", r.body);
    let rules = stored_rules(&t).await;
    assert_eq!(rules["first_liga_deadline"], "10-15");
    assert_eq!(rules["game"], "westfalen");
    let season = t.get("/verwaltung/saison/2027", Some(&cookie)).await.body;
    assert!(
        season.contains("<dt>Stichtag 1. Liga</dt><dd>15.10.</dd>"),
        "{season}"
    );
    assert!(
        season.contains("<dt>Regelwerk des Würfelspiels</dt><dd>Westfalen</dd>"),
        "{season}"
    );
    let regeln = t.get("/saison/2027/regeln", None).await.body;
    assert!(!regeln.contains("Gespielt wird nach <strong"), "{regeln}");
    assert!(
        regeln.contains("data-game=\"westfalen\">Westfalen: 3-3-1"),
        "{regeln}"
    );

    // Own rules: the choice „eigene“ with the JSON; bad JSON is refused beside the field, kept.
    let own = form(&[
        ("game", "eigene"),
        ("game_json", "{\"preset\": \"kneipe\", \"neuner\": true}"),
    ]);
    let r = t.post_fields(PAGE, &own, Some(&cookie)).await;
    assert_eq!(r.status, StatusCode::SEE_OTHER, "{}", r.body);
    assert_eq!(
        stored_rules(&t).await["game"],
        json!({ "preset": "kneipe", "neuner": true })
    );
    let regeln = t.get("/saison/2027/regeln", None).await.body;
    assert!(
        regeln.contains(
            "Gespielt wird nach <strong>eigene Regeln auf Grundlage von „Kneipenregel“</strong>"
        ),
        "{regeln}"
    );
    let r = t.get(PAGE, Some(&cookie)).await;
    assert!(r
        .body
        .contains("<option value=\"eigene\" selected>eigene Regeln (JSON)</option>"));
    let bad = form(&[("game", "eigene"), ("game_json", "{\"preset\": ")]);
    let r = t.post_fields(PAGE, &bad, Some(&cookie)).await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", r.body);
    assert!(r.body.contains("id=\"fehler-game\""), "{}", r.body);
    assert!(r.body.contains("kein gültiges JSON"), "{}", r.body);
    assert!(
        r.body.contains("{&#34;preset&#34;: </textarea>"),
        "{}",
        r.body
    );
    assert!(
        r.body.contains("kein gültiges JSON (Zeile 1, Zeichen 10)"),
        "{}",
        r.body
    );

    // The Strafenkatalog names kinds in German only.
    let t2 = TestApp::builder()
        .account(SECRETARY, "secretary")
        .start()
        .await;
    let cookie = t2.login(SECRETARY).await;
    let r = t2
        .post_fields("/verwaltung/saison", &[("year", "2026")], Some(&cookie))
        .await;
    assert_eq!(r.status, StatusCode::SEE_OTHER, "{}", r.body);
    let strafen = t2
        .get("/verwaltung/saison/2026/strafen", Some(&cookie))
        .await;
    assert_eq!(strafen.status, StatusCode::OK, "{}", strafen.body);
    assert!(
        strafen.body.contains("<td>Zuspätkommer</td>"),
        "{}",
        strafen.body
    );
    assert!(!strafen.body.contains("(late)"), "{}", strafen.body);
    assert!(!strafen.body.contains("(sleepy)"), "{}", strafen.body);
}
