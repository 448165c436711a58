//! The money feature from outside (issue 3): the payouts API and command line against the fixtures,
//! the carry chain across seasons, the Kasse and Jahresabschluss pages, the CSV exports, and the
//! secretary's Strafenkatalog (a changed amount leaves booked fines alone).

use std::process::Command;

use axum::http::{header, StatusCode};
use schockerliga::db::Db;
use schockerliga::league::model::file::SeasonFile;
use schockerliga::service;
use serde_json::Value;

use crate::app::TestApp;
use crate::common::{fixture_json, season_file};

impl TestApp {
    async fn payouts(&self, year: i32) -> Value {
        let r = self
            .get(&format!("/api/v1/seasons/{year}/payouts"), None)
            .await;
        assert_eq!(r.status, StatusCode::OK, "{}", r.body);
        r.json()
    }

    /// `schockerliga payouts YEAR --json` on the same database.
    fn cli_payouts(&self, year: i32) -> Value {
        let out = Command::new(env!("CARGO_BIN_EXE_schockerliga"))
            .args(["payouts", &year.to_string(), "--json", "--database"])
            .arg(&self.path)
            .env_remove("DATABASE_URL")
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        serde_json::from_slice(&out.stdout).unwrap()
    }
}

fn invariant(p: &Value) {
    let sum = |v: &Value| {
        v.as_array()
            .unwrap()
            .iter()
            .map(|c| c.as_i64().unwrap())
            .sum::<i64>()
    };
    let places: i64 = p["places"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| sum(&x["cents"]))
        .sum();
    let lucky = sum(&p["lucky_looser"]["cents"]);
    assert_eq!(
        places + lucky + p["carry_out_cents"].as_i64().unwrap(),
        p["fees_cents"].as_i64().unwrap()
            + p["fines_cents"].as_i64().unwrap()
            + p["carry_in_cents"].as_i64().unwrap()
    );
}

#[tokio::test]
async fn the_api_and_the_command_line_give_exactly_the_fixture_payouts() {
    for name in ["sample-2026", "small-2026"] {
        let a = TestApp::with_seasons(&[season_file(name, None)]).await;
        let want = fixture_json(&format!("{name}.payouts.json"));
        assert_eq!(a.payouts(2026).await, want, "{name} API");
        assert_eq!(a.cli_payouts(2026), want, "{name} CLI");
    }
}

#[tokio::test]
async fn kasse_and_jahresabschluss_show_the_fixture_figures() {
    let a = TestApp::with_seasons(&[season_file("sample-2026", None)]).await;
    let kasse = a.get("/saison/2026/kasse", None).await;
    assert_eq!(kasse.status, StatusCode::OK);
    let page = kasse.body;
    for part in [
        r#"<dd class="pot" id="pot">187,50 €</dd>"#, // pot: 157 − 10 + 40,50
        "157,00 €",                                  // fees
        "40,50 €",                                   // paid fines
        "Offene Strafen",
        "/saison/2026/kasse.csv",
        // its stylesheet, by its hashed name under /static/ (issue 33.5)
        &format!(
            "<link rel=\"stylesheet\" href=\"{}\">",
            schockerliga::web::kit::assets::path("money.css")
        ),
    ] {
        assert!(page.contains(part), "Kasse lacks {part:?}");
    }
    assert!(
        !page.contains("/verwaltung/strafe/"),
        "no buttons for the public"
    );

    let abschluss = a.get("/saison/2026/abschluss", None).await;
    assert_eq!(abschluss.status, StatusCode::OK);
    let page = abschluss.body;
    for part in [
        r#"<span id="pot">187,50 €</span>"#,
        r#"id="fees">157,00 €"#,
        r#"id="fines">40,50 €"#,
        r#"id="carry-in">0,00 €"#,
        "erste Saison",
        "Ilse",    // Lucky Looser
        "56,25 €", // place 1: 30 % of 187,50 €
        "Bernd",   // place 1, Schocker des Jahres
        "30 %",
        "Restcent",
        "abgerundet",
        "größten",
        "Stimmt: jeder Cent ist verteilt.",
        "min(10,00 € Lucky-Looser-Betrag, 157,00 € Beiträge) = 10,00 €",
        r#"id="carry-out">0,00 €"#,
    ] {
        assert!(page.contains(part), "Jahresabschluss lacks {part:?}");
    }

    let css = a.get("/money.css", None).await;
    assert_eq!(css.status, StatusCode::OK);
    assert!(css
        .header(header::CONTENT_TYPE)
        .unwrap_or_default()
        .starts_with("text/css"));
    assert!(css.body.contains("@media print"));

    // the current season's Kasse from the nav
    let r = a.get("/kasse", None).await;
    assert!(r.status.is_redirection());
    assert_eq!(r.location(), Some("/saison/2026/kasse"));
    assert_eq!(
        a.get("/saison/1999/kasse", None).await.status,
        StatusCode::NOT_FOUND
    );
}

#[tokio::test]
async fn a_seasons_carry_out_is_the_next_seasons_carry_in() {
    let a = TestApp::with_seasons(&[
        season_file("small-2026", Some(2025)),
        season_file("sample-2026", None),
    ])
    .await;

    // 2025 is the first season: its payouts are the small fixture's, moved to 2025
    let mut want_2025 = fixture_json("small-2026.payouts.json");
    want_2025["season"] = 2025.into();
    let p2025 = a.payouts(2025).await;
    assert_eq!(p2025, want_2025);
    let carry = p2025["carry_out_cents"].as_i64().unwrap();
    assert_eq!(carry, 3263);

    // 2026 takes it as carry-in: pot 187,50 € + 32,63 € = 220,13 €
    let p2026 = a.payouts(2026).await;
    assert_eq!(p2026["carry_in_cents"], 3263);
    assert_eq!(p2026["pot_cents"], 18750 + 3263);
    invariant(&p2026);
    // place 1: 30 % of 22013 = 6603,9 → 6604
    assert_eq!(p2026["places"][0]["players"][0], "Bernd");
    assert_eq!(p2026["places"][0]["cents"][0], 6604);
    assert_eq!(a.cli_payouts(2026), p2026, "command line = API");

    let page_2025 = a.get("/saison/2025/abschluss", None).await.body;
    assert!(
        page_2025.contains(r#"id="carry-out">32,63 €"#),
        "2025 shows its carry-out"
    );
    assert!(page_2025.contains(r#"<a href="/saison/2026/abschluss">2026</a>"#));
    let page_2026 = a.get("/saison/2026/abschluss", None).await.body;
    assert!(
        page_2026.contains(r#"id="carry-in">32,63 €"#),
        "2026 shows the carry-in"
    );
    assert!(page_2026.contains(r#"<a href="/saison/2025/abschluss">2025</a>"#));
    assert!(page_2026.contains(r#"<span id="pot">220,13 €</span>"#));
    let kasse_2026 = a.get("/saison/2026/kasse", None).await.body;
    assert!(kasse_2026.contains("32,63 €") && kasse_2026.contains("220,13 €"));
}

#[tokio::test]
async fn csv_exports_open_in_a_german_spreadsheet() {
    let a = TestApp::with_seasons(&[season_file("small-2026", None)]).await;
    let today = crate::app::club_today();
    let expected = fixture_json("small-2026.standings.json");
    for (what, min_rows) in [("tabelle", 2), ("kasse", 7), ("abende", 13)] {
        let r = a.get(&format!("/saison/2026/{what}.csv"), None).await;
        assert_eq!(r.status, StatusCode::OK, "{what}");
        assert_eq!(
            r.header(header::CONTENT_TYPE),
            Some("text/csv; charset=utf-8")
        );
        assert_eq!(
            r.header(header::CONTENT_DISPOSITION),
            Some(format!("attachment; filename=\"schockerliga-2026-{what}-{today}.csv\"").as_str())
        );
        assert!(r.bytes.starts_with(b"\xEF\xBB\xBF"), "{what}: BOM");
        let text = r.body.clone();
        let lines: Vec<&str> = text.trim_start_matches('\u{feff}').split("\r\n").collect();
        assert!(lines.len() > min_rows, "{what}: {} lines", lines.len());
        assert!(
            lines[0].contains(';') && !lines[0].contains(','),
            "{what}: {}",
            lines[0]
        );
    }

    // the table: one line per standings row, D.Wert and Teilnahmen with a decimal comma
    let table = a.get("/saison/2026/tabelle.csv", None).await.body;
    let lines: Vec<&str> = table
        .trim_start_matches('\u{feff}')
        .trim_end()
        .split("\r\n")
        .collect();
    let rows = expected["rows"].as_array().unwrap();
    assert_eq!(lines.len(), rows.len() + 1);
    let first: Vec<&str> = lines[1].split(';').collect();
    assert_eq!(first[0], rows[0]["liga"].as_str().unwrap());
    assert_eq!(first[2], rows[0]["player"].as_str().unwrap());
    let d = rows[0]["d_wert"].as_f64().unwrap();
    assert_eq!(first[11], format!("{d:.2}").replace('.', ","));

    // the Kasse: its Summe line has the fixture's fees and paid/open fines in euros with a comma
    let kasse = a.get("/saison/2026/kasse.csv", None).await.body;
    let sum = kasse
        .split("\r\n")
        .find(|l| l.starts_with("Summe;"))
        .unwrap();
    assert_eq!(sum, "Summe;;75,00;10;7,50;1;0,50;82,50");
}

#[tokio::test]
async fn a_new_catalogue_amount_leaves_booked_fines_alone() {
    let a = TestApp::with_seasons(&[season_file("small-2026", None)]).await;
    let before = a.payouts(2026).await;
    assert_eq!(before["fines_cents"], 750);

    // not logged in: sent to the login page, nothing changes
    let r = a
        .post(
            "/verwaltung/saison/2026/strafen",
            "kind=late&amount=2,00",
            None,
        )
        .await;
    assert!(r.status.is_redirection());
    assert_eq!(r.location(), Some("/login"));

    let cookie = a.login_new("kassier", "secretary").await;
    let page = a
        .post_follow(
            "/verwaltung/saison/2026/strafen",
            "kind=late&amount=2%2C00",
            &cookie,
        )
        .await;
    assert_eq!(page.status, StatusCode::OK, "{}", page.body);
    assert!(page
        .body
        .contains("Schon gebuchte Strafen behalten ihren Betrag"));

    // booked fines keep their amounts: the payouts are unchanged
    assert_eq!(a.payouts(2026).await, before);
    let file = service::export(&a.db, 2026).await.unwrap();
    assert_eq!(file.rules["fines"]["late"], 200);
    let late: Vec<Option<i64>> = file
        .nights
        .iter()
        .flat_map(|n| &n.fines)
        .filter(|f| f.kind == "late")
        .map(|f| f.amount_cents)
        .collect();
    assert!(
        !late.is_empty() && late.iter().all(|&c| c == Some(100)),
        "{late:?}"
    );

    // a fine booked now costs the new amount
    let first_night = file.nights[0].date;
    let r = a
        .post_follow(
            "/verwaltung/saison/2026/strafe",
            &format!("date={first_night}&player=Dirk&kind=late&paid=on&again=1"),
            &cookie,
        )
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    assert_eq!(a.payouts(2026).await["fines_cents"], 750 + 200);

    // a new kind, then a wrong amount is refused and the form keeps what was typed
    let r = a
        .post_follow(
            "/verwaltung/saison/2026/strafen",
            "kind=Handy&amount=0%2C50",
            &cookie,
        )
        .await;
    assert_eq!(r.status, StatusCode::OK);
    assert_eq!(
        service::export(&a.db, 2026).await.unwrap().rules["fines"]["Handy"],
        50
    );
    let r = a
        .post_follow(
            "/verwaltung/saison/2026/strafen",
            "kind=Bier&amount=zwei",
            &cookie,
        )
        .await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY);
    let text = r.body.clone();
    assert!(
        text.contains("ist kein Betrag") && text.contains(r#"value="zwei""#),
        "{text}"
    );
    assert!(service::export(&a.db, 2026).await.unwrap().rules["fines"]
        .get("Bier")
        .is_none());

    // a kind with booked fines cannot be deleted; an unused one can
    let r = a
        .post_follow(
            "/verwaltung/saison/2026/strafen/loeschen",
            "kind=late",
            &cookie,
        )
        .await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(r.body.contains("kann nicht gelöscht werden"));
    let r = a
        .post_follow(
            "/verwaltung/saison/2026/strafen/loeschen",
            "kind=Handy",
            &cookie,
        )
        .await;
    assert_eq!(r.status, StatusCode::OK);
    assert!(service::export(&a.db, 2026).await.unwrap().rules["fines"]
        .get("Handy")
        .is_none());
}

#[tokio::test]
async fn marking_an_open_fine_paid_puts_it_in_the_pot() {
    let a = TestApp::with_seasons(&[season_file("small-2026", None)]).await;
    let before = a.payouts(2026).await;
    assert_eq!(before["open_fines_cents"], 50);
    let cookie = a.login_new("kassier", "secretary").await;
    let kasse = a.get("/saison/2026/kasse", None).await.body;
    assert!(kasse.contains("Dirk") && kasse.contains("Schock-Schlafmütze"));

    let fines = schockerliga::db::money::fines_of_season(&a.db.read, 2026)
        .await
        .unwrap();
    let open = fines.iter().find(|f| !f.paid).unwrap();
    let r = a
        .post(
            &format!("/verwaltung/strafe/{}/bezahlt", open.id),
            "back=kasse",
            Some(&cookie),
        )
        .await;
    assert!(r.status.is_redirection(), "{}", r.status);
    assert_eq!(r.location(), Some("/saison/2026/kasse"));
    let after = a.payouts(2026).await;
    assert_eq!(after["open_fines_cents"], 0);
    assert_eq!(after["fines_cents"], 750 + 50);
    assert_eq!(
        after["pot_cents"],
        before["pot_cents"].as_i64().unwrap() + 50
    );
    invariant(&after);

    // and back to open; an unknown fine is a 404
    let r = a
        .post(
            &format!("/verwaltung/strafe/{}/offen", open.id),
            "",
            Some(&cookie),
        )
        .await;
    assert!(r.status.is_redirection());
    assert_eq!(a.payouts(2026).await, before);
    let r = a
        .post("/verwaltung/strafe/999999/bezahlt", "", Some(&cookie))
        .await;
    assert_eq!(r.status, StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn a_fine_before_2012_is_refused_for_the_empty_catalogue() {
    let mut old = season_file("small-2026", Some(2011));
    for n in &mut old.nights {
        n.fines.clear();
    }
    let a = TestApp::with_seasons(&[old.clone()]).await;
    let cookie = a.login_new("kassier", "secretary").await;
    let date = old.nights[0].date;
    let r = a
        .post(
            "/verwaltung/saison/2011/strafe",
            &format!("date={date}&player=Dirk&kind=late"),
            Some(&cookie),
        )
        .await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(
        r.body
            .contains("die Saison 2011 hat keinen Strafenkatalog (erst ab 2012)"),
        "{}",
        r.body
    );
    assert!(schockerliga::db::money::fines_of_season(&a.db.read, 2011)
        .await
        .unwrap()
        .is_empty());
    let page = a.get("/saison/2011/abschluss", None).await.body;
    assert!(page.contains("Strafenkatalog: keiner"));
}

#[tokio::test]
async fn a_jahresbeitrag_dated_in_october_is_refused_and_nothing_is_stored() {
    let dir = tempfile::tempdir().unwrap();
    let db = Db::open(&dir.path().join("liga.db")).await.unwrap();
    let mut file = season_file("small-2026", None);
    file.players[0].fee_paid_on = "2026-10-01".parse().ok();
    let err = service::import(&db, &file, false).await.unwrap_err();
    assert!(
        err.to_string()
            .ends_with("Feld Beitragsdatum: Beitritt zur 1. Liga nur bis Ende September"),
        "{err}"
    );
    assert!(schockerliga::db::season::years(&db.read)
        .await
        .unwrap()
        .is_empty());
    file.players[0].fee_paid_on = "2026-09-30".parse().ok();
    service::import(&db, &file, false).await.unwrap();
}

/// A season of 2026 from JSON parts: `nights` = (date, players present); 10 rounds each, the last
/// present player loses every round.
fn small_season(players: &[(&str, Option<&str>)], nights: &[(&str, Vec<&str>)]) -> SeasonFile {
    let players: Vec<Value> = players
        .iter()
        .map(|(n, f)| serde_json::json!({ "name": n, "fee_paid_on": f }))
        .collect();
    let nights: Vec<Value> = nights
        .iter()
        .map(|(date, who)| {
            let rounds: Vec<Value> = (1..=10)
                .map(|r| {
                    let results: Vec<Value> = who
                        .iter()
                        .enumerate()
                        .map(|(i, p)| {
                            serde_json::json!({ "player": p, "outs": u32::from(i == 0), "hand_outs": 0,
                                                "julen": 0, "lost": i + 1 == who.len() })
                        })
                        .collect();
                    serde_json::json!({ "number": r, "results": results })
                })
                .collect();
            serde_json::json!({ "date": date, "tables": [ { "number": 1, "rounds": rounds } ] })
        })
        .collect();
    serde_json::from_value(serde_json::json!({
        "format": "schockerliga-season/1", "season": 2026, "players": players, "nights": nights
    }))
    .unwrap()
}

#[tokio::test]
async fn a_paid_player_short_of_100_rounds_drops_to_the_2_liga_after_30_november() {
    let mut nights: Vec<(String, Vec<&str>)> = (1..=10)
        .map(|m| {
            let who = if m <= 9 {
                vec!["Anna", "Bernd", "Carla"]
            } else {
                vec!["Bernd", "Carla"]
            };
            (format!("2026-{m:02}-06"), who)
        })
        .collect();
    nights.push(("2026-12-04".into(), vec!["Anna", "Bernd", "Carla"]));
    let nights: Vec<(&str, Vec<&str>)> = nights
        .iter()
        .map(|(d, w)| (d.as_str(), w.clone()))
        .collect();
    let file = small_season(
        &[
            ("Anna", Some("2026-02-01")),
            ("Bernd", Some("2026-01-02")),
            ("Carla", None),
        ],
        &nights,
    );
    let a = TestApp::with_seasons(&[file]).await;
    let liga_of = |v: &Value, who: &str| {
        v["rows"]
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["player"] == who)
            .map(|r| {
                (
                    r["liga"].as_str().unwrap().to_string(),
                    r["rounds"].as_u64().unwrap(),
                )
            })
            .unwrap()
    };
    // (as of, player, Liga, rounds)
    let cases = [
        ("2026-11-30", "Anna", "1. Liga", 90),
        ("2026-11-30", "Bernd", "1. Liga", 100),
        ("2026-12-04", "Anna", "2. Liga", 100), // 100 now, but only 90 by 30 November
        ("2026-12-04", "Bernd", "1. Liga", 110),
        ("2026-12-04", "Carla", "2. Liga", 110), // never paid
    ];
    for (as_of, who, liga, rounds) in cases {
        let r = a
            .get(
                &format!("/api/v1/seasons/2026/standings?as_of={as_of}"),
                None,
            )
            .await;
        assert_eq!(r.status, StatusCode::OK);
        assert_eq!(
            liga_of(&r.json(), who),
            (liga.to_string(), rounds),
            "{who} as of {as_of}"
        );
    }
    // the year-end payouts follow the table after the last night: Anna gets no place
    let p = a.payouts(2026).await;
    assert_eq!(p["places"].as_array().unwrap().len(), 1);
    assert_eq!(p["places"][0]["players"][0], "Bernd");
    assert_eq!(p["schocker_des_jahres"][0], "Bernd");
    invariant(&p);
}

#[tokio::test]
async fn the_payout_rules_are_visible_before_the_first_night() {
    let a = TestApp::with_seasons(&[small_season(&[("Anna", Some("2026-01-02"))], &[])]).await;
    let page = a.get("/saison/2026/abschluss", None).await;
    assert_eq!(page.status, StatusCode::OK);
    let text = page.body.clone();
    for part in [
        "Noch kein Spielabend",
        "Platz 1: 30 %, Platz 2: 25 %, Platz 3: 20 %, Platz 4: 15 %, Platz 5: 10 %",
        "Januar 15,00 €",
        "April 16,00 €",
        "September 21,00 €",
        "Zuspätkommer 1,00 €, Schock-Schlafmütze 0,50 €",
        "10,00 €",
        r#"id="fees">15,00 €"#,
    ] {
        assert!(text.contains(part), "rules lack {part:?}");
    }
    let table = a.get("/saison/2026", None).await.body;
    for link in [
        "/saison/2026/kasse",
        "/saison/2026/abschluss",
        "/saison/2026/tabelle.csv",
    ] {
        assert!(table.contains(link), "table page lacks {link}");
    }
    assert!(a
        .get("/saison/2026/abende", None)
        .await
        .body
        .contains("/saison/2026/abende.csv"));
}

#[tokio::test]
async fn a_database_trigger_refusal_is_shown_not_a_500() {
    // as a closed night refuses changes to its fines (SQLite RAISE(ABORT, …))
    let a = TestApp::with_seasons(&[season_file("small-2026", None)]).await;
    sqlx::query(
        "create trigger no_fines before update on fines begin
         select raise(abort, 'Spielabend ist abgeschlossen: Änderung nur als Korrektur'); end",
    )
    .execute(&a.db.write)
    .await
    .unwrap();
    sqlx::query(
        "create trigger no_new_fines before insert on fines begin
         select raise(abort, 'Spielabend ist abgeschlossen: Änderung nur als Korrektur'); end",
    )
    .execute(&a.db.write)
    .await
    .unwrap();
    let cookie = a.login_new("kassier", "secretary").await;
    let before = a.payouts(2026).await;
    let fines = schockerliga::db::money::fines_of_season(&a.db.read, 2026)
        .await
        .unwrap();
    let open = fines.iter().find(|f| !f.paid).unwrap();
    let r = a
        .post(
            &format!("/verwaltung/strafe/{}/bezahlt", open.id),
            "",
            Some(&cookie),
        )
        .await;
    // A refusal answers as every refused form does (issue 20): the page the form was sent from
    // again, 422, with the reason at the top.
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(
        r.body.contains("Spielabend ist abgeschlossen"),
        "{}",
        r.body
    );
    assert!(r.body.contains("role=\"alert\""), "{}", r.body);
    let r = a
        .post(
            "/verwaltung/saison/2026/strafe",
            &format!("date={}&player=Dirk&kind=late", open.date),
            Some(&cookie),
        )
        .await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(
        r.body.contains("Spielabend ist abgeschlossen"),
        "{}",
        r.body
    );
    assert_eq!(a.payouts(2026).await, before);
}
