//! What a first real user found in the secretary's entry and the public pages: each test drives
//! the real router (or the binary) the way a club secretary would and fails on the old behaviour.

use std::collections::HashMap;
use std::path::Path;

use axum::http::StatusCode;
use schockerliga::db;
use schockerliga::league::model::file::SeasonFile;

use crate::app::{season_file, RoundForm, TestApp};

/// The ten players drawn on 09.01.2026: the first five at table 1, the others at table 2.
const NAMES: [&str; 10] = [
    "Anna", "Bernd", "Carla", "Elke", "Ilse", "Dieter", "Frank", "Gabi", "Hans", "Jörg",
];
/// A player of the season who is not there on 09.01.2026.
const ABSENT: &str = "Kurt";

/// Season 2026 with the ten `NAMES`, `ABSENT` and one empty night on 09.01.2026.
fn ten_players() -> SeasonFile {
    let players: Vec<_> = NAMES
        .iter()
        .chain([ABSENT].iter())
        .map(|n| serde_json::json!({ "name": n }))
        .collect();
    serde_json::from_value(serde_json::json!({
        "format": "schockerliga-season/1",
        "season": 2026,
        "players": players,
        "nights": [{ "date": "2026-01-09" }],
    }))
    .unwrap()
}

impl TestApp {
    /// Player ids of season 2026 by name.
    async fn ids(&self) -> HashMap<String, i64> {
        db::player::of_season_pool(&self.db.read, 2026)
            .await
            .unwrap()
            .into_iter()
            .map(|p| (p.name, p.id))
            .collect()
    }

    /// Seats the first five `NAMES` at table 1 and the other five at table 2 of 09.01.2026.
    async fn seat_two_tables(&self) -> HashMap<String, i64> {
        use schockerliga::league::{model::file::SeatEntry, Change};
        use schockerliga::service::{Edit, League};
        let ids = self.ids().await;
        let seats: Vec<SeatEntry> = NAMES
            .iter()
            .enumerate()
            .map(|(i, n)| SeatEntry {
                player: n.to_string(),
                table: if i < 5 { 1 } else { 2 },
            })
            .collect();
        // Through the write pipeline, as the presence form does (but without the lot).
        let league = League::of(self.db.clone()).await.unwrap();
        let date = "2026-01-09".parse().unwrap();
        league
            .change(2026, Change::SetDraw { date, seats }, &Edit::by("test"))
            .await
            .unwrap();
        ids
    }

    async fn round_count(&self) -> i64 {
        let mut conn = self.db.read.acquire().await.unwrap();
        let night = db::night::by_date(&mut conn, "2026-01-09".parse().unwrap())
            .await
            .unwrap()
            .unwrap();
        db::night::round_count(&mut conn, night.id).await.unwrap()
    }

    pub(crate) async fn audit_count(&self) -> i64 {
        let (n,): (i64,) = sqlx::query_as("select count(*) from audit_log")
            .fetch_one(&self.db.read)
            .await
            .unwrap();
        n
    }
}

/// The round form of table 1 (Anna … Elke) for round `number`: everyone plays, Anna throws two
/// Outs, `loser` loses.
fn round_form(ids: &HashMap<String, i64>, number: u32, loser: &str) -> RoundForm {
    NAMES[..5]
        .iter()
        .fold(RoundForm::at_table(1, number), |f, name| {
            f.row(ids[*name], if *name == "Anna" { 2 } else { 0 })
        })
        .lost(ids[loser])
}

const ROUND: &str = "/verwaltung/abend/2026-01-09/runde";

#[tokio::test]
async fn the_home_page_shows_the_newest_season_with_nights_and_an_empty_one_can_be_deleted() {
    let t = TestApp::with_seasons(&[season_file("small-2026", None)]).await;
    let admin = t.login_new("chef", "admin").await;
    let sec = t.login_new("schrift", "secretary").await;
    let made = t
        .post_fields(
            "/verwaltung/saison",
            &[
                ("year".to_string(), "2027".to_string()),
                ("rules".to_string(), "{}".to_string()),
            ],
            Some(&sec),
        )
        .await;
    assert_eq!(made.status, StatusCode::SEE_OTHER, "{}", made.body);

    // 2027 is newer but has no night: the phones still show 2026.
    let home = t.get("/", None).await;
    assert_eq!(home.status, StatusCode::OK);
    assert!(home.body.contains("Tabelle 2026"), "{}", home.body);
    let nights = t.get("/abende", None).await;
    assert_eq!(nights.location(), Some("/saison/2026/abende"));

    // Deleting: only an admin, only with the box ticked, only a season without nights.
    let del = "/verwaltung/saison/2027/loeschen";
    let confirm = [("confirm".to_string(), "1".to_string())];
    assert_eq!(
        t.post_fields(del, &confirm, Some(&sec)).await.status,
        StatusCode::FORBIDDEN
    );
    let unticked = t.post(del, "", Some(&admin)).await;
    assert_eq!(unticked.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(unticked.body.contains("ankreuzen"), "{}", unticked.body);
    let with_nights = t
        .post_fields("/verwaltung/saison/2026/loeschen", &confirm, Some(&admin))
        .await;
    assert_eq!(with_nights.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(
        with_nights.body.contains("Spielabende"),
        "{}",
        with_nights.body
    );
    let audits = t.audit_count().await;
    let gone = t.post_fields(del, &confirm, Some(&admin)).await;
    assert_eq!(gone.status, StatusCode::SEE_OTHER, "{}", gone.body);
    assert_eq!(db::season::years(&t.db.read).await.unwrap(), vec![2026]);
    assert!(t.audit_count().await > audits, "deletion audited");

    // Only empty seasons: the newest one is shown.
    let empty = TestApp::with_seasons(&[]).await;
    let sec = empty.login_new("schrift", "secretary").await;
    for year in ["2026", "2027"] {
        empty
            .post_fields(
                "/verwaltung/saison",
                &[
                    ("year".to_string(), year.to_string()),
                    ("rules".to_string(), "{}".to_string()),
                ],
                Some(&sec),
            )
            .await;
    }
    assert!(empty.get("/", None).await.body.contains("Tabelle 2027"));
}

#[tokio::test]
async fn a_round_with_two_losers_is_refused_and_keeps_what_was_typed() {
    let t = TestApp::with_seasons(&[ten_players()]).await;
    let sec = t.login_new("schrift", "secretary").await;
    let ids = t.seat_two_tables().await;
    let two = round_form(&ids, 1, "Bernd").lost(ids["Carla"]);
    let r = t.post_round(ROUND, &two, Some(&sec)).await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", r.body);
    assert!(
        r.body
            .contains("Abend 09.01.2026, Tisch 1, Runde 1: nur ein Spieler"),
        "{}",
        r.body
    );
    assert!(r.body.contains("Bernd, Carla"), "both losers named");
    assert!(
        r.body.contains(&format!(
            "name=\"outs_{}\" min=\"0\" max=\"3\" value=\"2\"",
            ids["Anna"]
        )),
        "typed value kept"
    );
    assert_eq!(t.round_count().await, 0, "nothing stored");
    let one = t
        .post_round(ROUND, &round_form(&ids, 1, "Bernd"), Some(&sec))
        .await;
    assert_eq!(one.status, StatusCode::SEE_OTHER, "{}", one.body);
    assert_eq!(t.round_count().await, 1);
}

#[tokio::test]
async fn a_row_for_a_player_of_the_other_table_or_absent_is_refused() {
    let t = TestApp::with_seasons(&[ten_players()]).await;
    let sec = t.login_new("schrift", "secretary").await;
    let mut ids = t.seat_two_tables().await;
    ids.extend(t.ids().await);
    let cases = [
        ("Dieter", "Dieter ist an Tisch 2 ausgelost"),
        (ABSENT, "Kurt ist an diesem Abend nicht ausgelost"),
    ];
    for (name, message) in cases {
        let id = ids[name];
        let f = round_form(&ids, 1, "Bernd").row(id, 1);
        let r = t.post_round(ROUND, &f, Some(&sec)).await;
        assert_eq!(
            r.status,
            StatusCode::UNPROCESSABLE_ENTITY,
            "{name}: {}",
            r.body
        );
        assert!(r.body.contains(message), "{name}: {}", r.body);
        assert!(r.body.contains("Abend 09.01.2026, Tisch 1, Runde 1"));
        assert_eq!(t.round_count().await, 0, "nothing stored");
    }
    // The other table's player chosen as loser is refused too.
    let r = t
        .post_round(ROUND, &round_form(&ids, 1, "Frank"), Some(&sec))
        .await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(
        r.body.contains("Frank ist an Tisch 2 ausgelost"),
        "{}",
        r.body
    );
}

/// The loser of round `number` at table 1 of 09.01.2026 as stored.
async fn stored_loser(t: &TestApp, number: u32) -> Option<String> {
    let file = db::season::load_file(&t.db.read, 2026)
        .await
        .unwrap()
        .unwrap();
    file.nights[0]
        .tables
        .iter()
        .find(|t| t.number == 1)?
        .rounds
        .iter()
        .find(|r| r.number == number)?
        .results
        .iter()
        .find(|r| r.lost)
        .map(|r| r.player.clone())
}

#[tokio::test]
async fn an_entered_round_is_shown_and_replaced_only_when_the_box_is_ticked() {
    let t = TestApp::with_seasons(&[ten_players()]).await;
    let sec = t.login_new("schrift", "secretary").await;
    let ids = t.seat_two_tables().await;
    let first = t
        .post_round(ROUND, &round_form(&ids, 1, "Bernd"), Some(&sec))
        .await;
    assert_eq!(first.status, StatusCode::SEE_OTHER, "{}", first.body);

    // The secretary's page shows what round 1 holds.
    let page = t.get("/verwaltung/abend/2026-01-09", Some(&sec)).await;
    // Issue 21.14: the line names who threw an Out, not every 0 ("Anna 2, Bernd 0" before).
    assert!(
        page.body
            .contains("Runde 1 · verloren: Bernd · Outs: Anna 2"),
        "{}",
        page.body
    );
    assert!(
        !page.body.contains("Outs: Anna 2, Bernd 0"),
        "{}",
        page.body
    );

    // Typing 1 again without the box: refused, typed values kept, round 1 unchanged.
    let again = t
        .post_round(ROUND, &round_form(&ids, 1, "Carla"), Some(&sec))
        .await;
    assert_eq!(
        again.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "{}",
        again.body
    );
    assert!(
        again
            .body
            .contains("Abend 09.01.2026, Tisch 1, Runde 1 ist schon eingetragen"),
        "{}",
        again.body
    );
    assert!(again.body.contains("„Runde ersetzen“ ankreuzen"));
    assert!(
        again
            .body
            .contains(&format!("name=\"lost\" value=\"{}\" checked", ids["Carla"])),
        "typed loser kept"
    );
    assert_eq!(stored_loser(&t, 1).await.as_deref(), Some("Bernd"));

    // With the box: replaced, and the audit row keeps before and after.
    let replace = round_form(&ids, 1, "Carla").replacing();
    let done = t.post_round(ROUND, &replace, Some(&sec)).await;
    assert_eq!(done.status, StatusCode::SEE_OTHER, "{}", done.body);
    assert_eq!(stored_loser(&t, 1).await.as_deref(), Some("Carla"));
    assert_eq!(t.round_count().await, 1);
    // The audit triggers keep before and after: Bernd's losing row removed, Carla's entered.
    let rows: Vec<(String, Option<String>, Option<String>)> =
        sqlx::query_as("select action, before_json, after_json from audit_log order by id")
            .fetch_all(&t.db.read)
            .await
            .unwrap();
    let lost_by = |json: &Option<String>, name: &str| {
        json.as_deref().is_some_and(|j| {
            let v: serde_json::Value = serde_json::from_str(j).unwrap();
            v["player"] == name && v["lost"] == 1
        })
    };
    assert!(rows
        .iter()
        .any(|(a, b, _)| a == "Ergebnis gelöscht" && lost_by(b, "Bernd")));
    assert!(rows
        .iter()
        .any(|(a, _, after)| a == "Ergebnis eingetragen" && lost_by(after, "Carla")));
}

#[tokio::test]
async fn an_empty_fee_date_deletes_a_fee_only_with_the_box_ticked() {
    let t = TestApp::with_seasons(&[ten_players()]).await;
    let sec = t.login_new("schrift", "secretary").await;
    let ids = t.ids().await;
    let uri = format!("/verwaltung/saison/2026/spieler/{}/beitrag", ids["Anna"]);
    let fee = async || {
        db::player::of_season_pool(&t.db.read, 2026)
            .await
            .unwrap()
            .into_iter()
            .find(|p| p.name == "Anna")
            .unwrap()
            .fee_cents
    };
    let paid = t
        .post_fields(
            &uri,
            &[("paid_on".to_string(), "2026-04-10".to_string())],
            Some(&sec),
        )
        .await;
    assert_eq!(paid.status, StatusCode::SEE_OTHER, "{}", paid.body);
    assert_eq!(fee().await, Some(1600));

    let empty = t
        .post_fields(&uri, &[("paid_on".to_string(), "".to_string())], Some(&sec))
        .await;
    assert_eq!(
        empty.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "{}",
        empty.body
    );
    assert!(
        empty.body.contains("„Beitrag löschen“ ankreuzen"),
        "{}",
        empty.body
    );
    assert_eq!(fee().await, Some(1600), "nothing deleted");

    let audits = t.audit_count().await;
    let deleted = t
        .post_fields(
            &uri,
            &[
                ("paid_on".to_string(), "".to_string()),
                ("delete".to_string(), "1".to_string()),
            ],
            Some(&sec),
        )
        .await;
    assert_eq!(deleted.status, StatusCode::SEE_OTHER, "{}", deleted.body);
    assert_eq!(fee().await, None);
    assert!(t.audit_count().await > audits, "deletion audited");
}

/// The Jahresbeitrag is booked from two pages, the season page (secretary) and the payments page
/// (Kassenwart): an empty date means the same on both — refused, naming the player, nothing
/// stored — and a date books the same fee on both (issue 20: the payments page dated it today).
#[tokio::test]
async fn an_empty_fee_date_means_the_same_on_both_pages() {
    let t = TestApp::with_seasons(&[ten_players()]).await;
    let sec = t.login_new("schrift", "secretary").await;
    let ids = t.ids().await;
    let fee_of = async |name: &str| {
        db::player::of_season_pool(&t.db.read, 2026)
            .await
            .unwrap()
            .into_iter()
            .find(|p| p.name == name)
            .unwrap()
            .fee_cents
    };
    let pages = [
        (
            "Anna",
            format!("/verwaltung/saison/2026/spieler/{}/beitrag", ids["Anna"]),
        ),
        (
            "Bernd",
            format!("/verwaltung/saison/2026/zahlungen/beitrag/{}", ids["Bernd"]),
        ),
    ];
    for (name, uri) in &pages {
        let empty = t
            .post_fields(uri, &[("paid_on".to_string(), " ".to_string())], Some(&sec))
            .await;
        assert_eq!(
            empty.status,
            StatusCode::UNPROCESSABLE_ENTITY,
            "{uri}: {}",
            empty.body
        );
        assert!(
            empty
                .body
                .contains(&format!("Jahresbeitrag von {name}: Zahldatum fehlt")),
            "{uri}: {}",
            empty.body
        );
        assert!(
            empty.body.contains("„Beitrag löschen“ ankreuzen"),
            "{uri}: {}",
            empty.body
        );
        assert_eq!(fee_of(name).await, None, "{uri}: nothing booked");
        let dated = t
            .post_fields(
                uri,
                &[("paid_on".to_string(), "2026-04-10".to_string())],
                Some(&sec),
            )
            .await;
        assert_eq!(dated.status, StatusCode::SEE_OTHER, "{uri}: {}", dated.body);
        assert_eq!(fee_of(name).await, Some(1600), "{uri}");
    }
}

#[tokio::test]
async fn values_for_a_player_not_ticked_are_refused_not_discarded() {
    let t = TestApp::with_seasons(&[ten_players()]).await;
    let sec = t.login_new("schrift", "secretary").await;
    let ids = t.seat_two_tables().await;
    let ilse = ids["Ilse"];
    let typed = [
        (format!("outs_{ilse}"), "1"),
        (format!("hand_outs_{ilse}"), "1"),
        (format!("julen_{ilse}"), "2"),
        (format!("joker_{ilse}"), "1"),
    ];
    for (key, value) in typed {
        let f = round_form(&ids, 1, "Bernd")
            .retain(|k| k != format!("played_{ilse}") && !k.ends_with(&format!("_{ilse}")))
            .field(&key, value);
        let r = t.post_round(ROUND, &f, Some(&sec)).await;
        assert_eq!(
            r.status,
            StatusCode::UNPROCESSABLE_ENTITY,
            "{key}: {}",
            r.body
        );
        assert!(
            r.body
                .contains("Werte für Ilse eingetragen, aber Ilse ist nicht angekreuzt"),
            "{key}: {}",
            r.body
        );
        assert_eq!(t.round_count().await, 0, "nothing stored");
    }
    // Unticked with zeros (the form's default) is fine: Ilse did not play.
    let zeros = round_form(&ids, 1, "Bernd").without(&format!("played_{ilse}"));
    let ok = t.post_round(ROUND, &zeros, Some(&sec)).await;
    assert_eq!(ok.status, StatusCode::SEE_OTHER, "{}", ok.body);
}

#[tokio::test]
async fn messages_use_german_field_labels_and_fine_kinds() {
    let t = TestApp::with_seasons(&[ten_players()]).await;
    let sec = t.login_new("schrift", "secretary").await;
    let ids = t.seat_two_tables().await;

    // A league rule broken in the round form: "Feld Outs", not "Feld outs".
    let four = round_form(&ids, 1, "Bernd").with(&format!("outs_{}", ids["Anna"]), 4);
    let r = t.post_round(ROUND, &four, Some(&sec)).await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(
        r.body.contains("Spieler Anna, Feld Outs: 4 Outs"),
        "{}",
        r.body
    );

    // A fee date after September: "Feld Beitragsdatum".
    let late = t
        .post_fields(
            &format!("/verwaltung/saison/2026/spieler/{}/beitrag", ids["Bernd"]),
            &[("paid_on".to_string(), "2026-10-01".to_string())],
            Some(&sec),
        )
        .await;
    assert_eq!(late.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(
        late.body.contains("Spieler Bernd, Feld Beitragsdatum: "),
        "{}",
        late.body
    );
    assert!(!late.body.contains("fee_paid_on"));

    // An empty name: no "(11. Spieler der Liste)" in a form.
    let empty = t
        .post_fields(
            "/verwaltung/saison/2026/spieler",
            &[("name".to_string(), "  ".to_string())],
            Some(&sec),
        )
        .await;
    assert_eq!(empty.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(empty
        .body
        .contains("Feld Name: Spielername darf nicht leer sein"));
    assert!(!empty.body.contains("Spieler der Liste"), "{}", empty.body);

    // Fine kinds by their German names in the form and on the public night page.
    let page = t.get("/verwaltung/abend/2026-01-09", Some(&sec)).await;
    assert!(
        page.body.contains(">Zuspätkommer (1,00 €)</option>"),
        "{}",
        page.body
    );
    assert!(!page.body.contains(">late ("));
    let fine = t
        .post_fields(
            "/verwaltung/abend/2026-01-09/strafe",
            &[
                ("player".to_string(), ids["Carla"].to_string()),
                ("kind".to_string(), "late".to_string()),
            ],
            Some(&sec),
        )
        .await;
    assert_eq!(fine.status, StatusCode::SEE_OTHER, "{}", fine.body);
    let admin_page = t.get("/verwaltung/abend/2026-01-09", Some(&sec)).await;
    assert!(
        admin_page.body.contains("<td>Zuspätkommer</td>"),
        "{}",
        admin_page.body
    );
    let public = t.get("/abend/2026-01-09", None).await;
    assert!(
        public.body.contains("Carla: Zuspätkommer 1,00 €"),
        "{}",
        public.body
    );
}

/// The cells (`<th` or `<td`) of `row` that a 360 px screen shows (not marked `wide`).
fn narrow_cells(row: &str, tag: &str) -> usize {
    row.split(tag)
        .skip(1)
        .filter(|c| c.starts_with('>') || c.starts_with(' '))
        .filter(|c| !c.split('>').next().unwrap_or("").contains("wide"))
        .count()
}

#[tokio::test]
async fn the_public_night_page_fits_a_360_px_phone() {
    let t = TestApp::with_seasons(&[season_file("small-2026", None)]).await;
    let page = t.get("/abend/2026-12-25", None).await;
    assert_eq!(page.status, StatusCode::OK);
    let tables: Vec<&str> = page.body.split("<table").skip(1).collect();
    assert!(tables.len() >= 2, "participants and rounds");
    for table in tables {
        let head = table.split("</thead>").next().unwrap();
        assert!(
            table.split('>').next().unwrap().contains("fit"),
            "every table fits: {head}"
        );
        let shown = narrow_cells(head, "<th");
        assert!(shown <= 5, "{shown} columns at 360 px: {head}");
        let body = table.split("</thead>").nth(1).unwrap();
        for row in body.split("<tr>").skip(1) {
            assert_eq!(
                narrow_cells(row, "<td"),
                shown,
                "cells follow the header: {row}"
            );
        }
    }
    let teilnehmer = page.body.split("<h2>Teilnehmer</h2>").nth(1).unwrap();
    let head = teilnehmer.split("</thead>").next().unwrap();
    assert_eq!(
        narrow_cells(head, "<th"),
        4,
        "Name, Runden, gew., bez.: {head}"
    );
    assert!(
        !page.body.contains("gibt die Runde"),
        "long words out of the round tables"
    );
    let css = t.get("/static/style.css", None).await.body;
    assert!(
        css.contains("table.fit td"),
        "long names break in fitted tables"
    );
}

#[tokio::test]
async fn the_command_line_table_shows_teilnahmen_with_two_decimals_like_the_web() {
    let t = TestApp::with_seasons(&[season_file("small-2026", None)]).await;
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_schockerliga"))
        .args(["standings", "2026", "--database"])
        .arg(&t.path)
        .env_remove("DATABASE_URL")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    let web = t.get("/saison/2026", None).await.body;
    let expected: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(
            Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/small-2026.standings.json"),
        )
        .unwrap(),
    )
    .unwrap();
    for row in expected["rows"].as_array().unwrap() {
        let player = row["player"].as_str().unwrap();
        let teilnahmen =
            schockerliga::league::model::format::de2(row["teilnahmen"].as_f64().unwrap());
        let line = text
            .lines()
            .find(|l| l.split_whitespace().nth(1) == Some(player))
            .unwrap_or_else(|| panic!("{player} missing:\n{text}"));
        assert_eq!(
            line.split_whitespace().nth(2),
            Some(teilnahmen.as_str()),
            "{line}"
        );
        assert!(
            web.contains(&format!("<td class=\"num narrow-hide\">{teilnahmen}</td>")),
            "web shows {teilnahmen} for {player}"
        );
    }
}

#[tokio::test]
async fn a_repeated_round_field_or_a_presence_value_that_is_no_id_is_refused() {
    let t = TestApp::with_seasons(&[ten_players()]).await;
    let sec = t.login_new("schrift", "secretary").await;
    let ids = t.seat_two_tables().await;
    let anna = ids["Anna"];
    // (extra pair appended to a valid round form, expected fragment of the 422 page)
    let cases = [
        (
            (format!("outs_{anna}"), "3"),
            "das Feld Outs von Anna wurde mehrfach geschickt",
        ),
        (
            (format!("julen_{anna}"), "1"),
            "das Feld Julen von Anna wurde mehrfach geschickt",
        ),
        (
            (format!("played_{anna}"), "1"),
            "das Feld spielt mit von Anna",
        ),
        (
            ("number".to_string(), "2"),
            "das Feld Rundennummer wurde mehrfach geschickt",
        ),
    ];
    for ((k, v), want) in cases {
        let f = round_form(&ids, 1, "Bernd").field(&k, v);
        let r = t.post_round(ROUND, &f, Some(&sec)).await;
        assert_eq!(
            r.status,
            StatusCode::UNPROCESSABLE_ENTITY,
            "{k}: {}",
            r.body
        );
        assert!(r.body.contains(want), "{k}: no {want:?}");
    }
    assert_eq!(t.round_count().await, 0, "nothing stored");

    // The presence form: a value that is no player number is refused, not dropped.
    let t = TestApp::with_seasons(&[ten_players()]).await;
    let sec = t.login_new("schrift", "secretary").await;
    let ids = t.ids().await;
    let uri = "/verwaltung/abend/2026-01-09/teilnehmer";
    let mut present: Vec<(String, String)> = NAMES
        .iter()
        .map(|n| ("present".to_string(), ids[*n].to_string()))
        .collect();
    present.push(("present".into(), "abc".into()));
    let r = t.post_fields(uri, &present, Some(&sec)).await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", r.body);
    assert!(
        r.body.contains("„abc“ ist keine Spielernummer"),
        "{}",
        r.body
    );
    present.pop();
    let r = t.post_fields(uri, &present, Some(&sec)).await;
    assert_eq!(r.status, StatusCode::SEE_OTHER, "{}", r.body);
}

/// The round form of `table` with a row for each of `players` (the first loses, Anna-like Outs
/// for nobody: all 0 Outs but the last player, who throws one Out).
fn table_round(ids: &HashMap<String, i64>, table: u32, players: &[String]) -> RoundForm {
    players
        .iter()
        .enumerate()
        .fold(RoundForm::at_table(table, 1), |f, (i, name)| {
            f.row(ids[name], i64::from(i + 1 == players.len()))
        })
        .lost(ids[&players[0]])
}

#[tokio::test]
async fn a_late_arrival_drawn_but_not_played_keeps_every_page_and_the_api_answering() {
    // 11 present, drawn by lot to two tables (6 and 5); round 1 is entered at both tables, each
    // without one drawn player who has not arrived yet: 9 players with a row on two tables.
    let t = TestApp::with_seasons(&[ten_players()]).await;
    let sec = t.login_new("schrift", "secretary").await;
    let ids = t.ids().await;
    let present: Vec<(String, String)> = ids
        .values()
        .map(|id| ("present".to_string(), id.to_string()))
        .collect();
    let r = t
        .post_fields(
            "/verwaltung/abend/2026-01-09/teilnehmer",
            &present,
            Some(&sec),
        )
        .await;
    assert_eq!(r.status, StatusCode::SEE_OTHER, "{}", r.body);
    let drawn = {
        let mut conn = t.db.read.acquire().await.unwrap();
        let night = db::night::by_date(&mut conn, "2026-01-09".parse().unwrap())
            .await
            .unwrap()
            .unwrap();
        db::night::participants(&mut conn, night.id).await.unwrap()
    };
    assert_eq!(drawn.len(), 11);
    let at = |table: i64| -> Vec<String> {
        drawn
            .iter()
            .filter(|p| p.table_no == table)
            .map(|p| p.name.clone())
            .collect()
    };
    let (one, two) = (at(1), at(2));
    assert_eq!((one.len(), two.len()), (6, 5));
    let (late_1, late_2) = (one[5].clone(), two[4].clone());
    for (table, players) in [(1, &one[..5]), (2, &two[..4])] {
        let r = t
            .post_round(ROUND, &table_round(&ids, table, players), Some(&sec))
            .await;
        assert_eq!(r.status, StatusCode::SEE_OTHER, "table {table}: {}", r.body);
    }

    // Every public page and the API answer, with the right figures.
    let standings = t.get("/api/v1/seasons/2026/standings", None).await;
    assert_eq!(standings.status, StatusCode::OK, "{}", standings.body);
    let v: serde_json::Value = serde_json::from_str(&standings.body).unwrap();
    let rows = v["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 9, "the 9 who played are listed");
    for row in rows {
        assert_eq!(row["rounds"], 1);
        let name = row["player"].as_str().unwrap();
        assert!(name != late_1 && name != late_2, "{name} has not played");
        // the last of each table threw the one Out; the first lost
        let last = name == one[4] || name == two[3];
        assert_eq!(row["counted_outs"], if last { 1 } else { 0 }, "{name}");
        let first = name == one[0] || name == two[0];
        assert_eq!(row["lost_rounds"], if first { 1 } else { 0 }, "{name}");
    }
    let payouts = t.get("/api/v1/seasons/2026/payouts", None).await;
    assert_eq!(payouts.status, StatusCode::OK, "{}", payouts.body);
    for page in [
        "/".to_string(),
        "/saison/2026".into(),
        "/saison/2026/abende".into(),
        "/abend/2026-01-09".into(),
        "/saison/2026/kasse".into(),
        "/saison/2026/abschluss".into(),
        "/saison/2026/tabelle.csv".into(),
        "/saison/2026/kasse.csv".into(),
        "/saison/2026/abende.csv".into(),
        format!("/saison/2026/spieler/{}", ids[&one[0]]),
        format!("/saison/2026/spieler/{}", ids[&late_1]),
    ] {
        let r = t.get(&page, None).await;
        assert_eq!(r.status, StatusCode::OK, "{page}: {}", r.body);
    }
    // The night page shows both late arrivals in the draw of their tables.
    let night = t.get("/abend/2026-01-09", None).await.body;
    assert!(
        night.contains(&late_1) && night.contains(&late_2),
        "{night}"
    );
    // And the secretary can still enter his first round at his table.
    let mut late_round = one[..5].to_vec();
    late_round.insert(0, late_1.clone());
    let f = table_round(&ids, 1, &late_round).with("number", 2);
    let r = t.post_round(ROUND, &f, Some(&sec)).await;
    assert_eq!(r.status, StatusCode::SEE_OTHER, "{}", r.body);
    let v: serde_json::Value =
        serde_json::from_str(&t.get("/api/v1/seasons/2026/standings", None).await.body).unwrap();
    assert_eq!(v["rows"].as_array().unwrap().len(), 10);
}

/// Issue 21.11: the round form and the paper sheet start alike: counts empty with a "0"
/// placeholder (a pre-filled "0" became "01" when typed), empty meaning 0 on both.
#[tokio::test]
async fn the_round_form_and_the_paper_sheet_start_with_empty_counts() {
    let t = TestApp::with_seasons(&[ten_players()]).await;
    let sec = t.login_new("schrift", "secretary").await;
    let ids = t.seat_two_tables().await;
    let anna = ids["Anna"];
    let night = t.get("/verwaltung/abend/2026-01-09", Some(&sec)).await.body;
    let sheet = t
        .get("/verwaltung/abend/2026-01-09/bogen/1", Some(&sec))
        .await
        .body;
    for field in ["outs", "hand_outs", "julen"] {
        let want = format!("name=\"{field}_{anna}\" min=\"0\"");
        let at = night
            .find(&want)
            .unwrap_or_else(|| panic!("{want}: {night}"));
        let input = &night[at..at + night[at..].find('>').unwrap()];
        assert!(input.contains("value=\"\" placeholder=\"0\""), "{input}");
    }
    assert!(
        sheet.contains("name=\"o1_0\" value=\"\" placeholder=\"0\""),
        "{sheet}"
    );
    // Empty is 0: a round with only Anna's Outs typed and the rest left empty is stored.
    let form = NAMES[..5]
        .iter()
        .fold(RoundForm::at_table(1, 1), |f, name| {
            let id = ids[*name];
            // Anna's Outs typed, everybody else's left empty.
            f.played(id)
                .field(&format!("outs_{id}"), if id == anna { "1" } else { "" })
        })
        .lost(ids["Bernd"]);
    let r = t.post_round(ROUND, &form, Some(&sec)).await;
    assert_eq!(r.status, StatusCode::SEE_OTHER, "{}", r.body);
    assert_eq!(t.round_count().await, 1);
}

/// Issue 21.14: a name ending in a stop gets no second one in the flash ("Claus M..").
#[tokio::test]
async fn a_rename_to_a_name_with_a_stop_ends_in_one_stop() {
    let t = TestApp::with_seasons(&[ten_players()]).await;
    let sec = t.login_new("schrift", "secretary").await;
    let ids = t.ids().await;
    let page = t
        .post_follow(
            &format!("/verwaltung/saison/2026/spieler/{}/name", ids["Kurt"]),
            "name=Claus+M.",
            &sec,
        )
        .await;
    assert!(page.body.contains("Umbenannt in Claus M."), "{}", page.body);
    assert!(!page.body.contains("Claus M.."), "{}", page.body);
}

/// Issue 21.13: "Beitrag löschen" is no longer a box beside "Beitrag buchen": it is its own form
/// in a fold, only for a booked fee, on the season page and the payments page.
#[tokio::test]
async fn deleting_a_fee_is_apart_from_booking_it() {
    let t = TestApp::with_seasons(&[ten_players()]).await;
    let sec = t.login_new("schrift", "secretary").await;
    let ids = t.ids().await;
    let anna = ids["Anna"];
    let season = "/verwaltung/saison/2026";
    let booked = t
        .post_fields(
            &format!("{season}/spieler/{anna}/beitrag"),
            &[("paid_on", "2026-02-03")],
            Some(&sec),
        )
        .await;
    assert_eq!(booked.status, StatusCode::SEE_OTHER, "{}", booked.body);
    for page in [
        t.get(season, Some(&sec)).await.body,
        t.get(&format!("{season}/zahlungen"), Some(&sec)).await.body,
    ] {
        // Anna (booked): the date form says "Zahltag ändern", the delete form is folded apart.
        let anna_at = page
            .find(&format!("/beitrag/{anna}\""))
            .or_else(|| page.find(&format!("/spieler/{anna}/beitrag\"")))
            .expect("Anna's fee form");
        let anna_part = &page[anna_at..];
        let anna_part = &anna_part[..anna_part.find("</div>").unwrap()];
        let booking = &anna_part[..anna_part.find("</form>").unwrap()];
        assert!(!booking.contains("name=\"delete\""), "{booking}");
        assert!(booking.contains("Zahltag ändern"), "{booking}");
        assert!(
            anna_part.contains("<details class=\"loeschen\"><summary>Beitrag löschen</summary>"),
            "{anna_part}"
        );
        // Bernd (no fee): only booking, nothing to delete.
        let bernd = ids["Bernd"];
        let bernd_at = page
            .find(&format!("/beitrag/{bernd}\""))
            .or_else(|| page.find(&format!("/spieler/{bernd}/beitrag\"")))
            .expect("Bernd's fee form");
        let bernd_part = &page[bernd_at..];
        let bernd_part = &bernd_part[..bernd_part.find("</div>").unwrap()];
        assert!(!bernd_part.contains("name=\"delete\""), "{bernd_part}");
        assert!(bernd_part.contains("Beitrag buchen"), "{bernd_part}");
    }
}

/// Issue 21.13: the new-season form does not propose a year whose Jahresbeitrag can no longer be
/// paid, and a season of this year after its last join day warns on its page and the overview.
#[tokio::test]
async fn a_season_that_takes_no_fee_any_more_is_not_proposed_and_warns() {
    use chrono::Datelike;
    let t = TestApp::staffed().await;
    let sec = t.login(crate::app::SECRETARY).await;
    let today = crate::app::club_today();
    let late = today > chrono::NaiveDate::from_ymd_opt(today.year(), 9, 30).unwrap();
    let overview = t.get("/verwaltung", Some(&sec)).await.body;
    let proposed = if late { today.year() + 1 } else { today.year() };
    assert!(
        overview.contains(&format!("name=\"year\" value=\"{proposed}\"")),
        "{overview}"
    );
    assert!(!overview.contains("id=\"kein-beitrag\""), "{overview}");
    let this_year = t
        .get(&format!("/verwaltung?year={}", today.year()), Some(&sec))
        .await
        .body;
    assert_eq!(
        this_year.contains("id=\"kein-beitrag\""),
        late,
        "{this_year}"
    );
    let created = t
        .post_fields(
            "/verwaltung/saison",
            &[
                ("year", today.year().to_string()),
                ("rules", "{}".to_string()),
            ],
            Some(&sec),
        )
        .await;
    assert_eq!(created.status, StatusCode::SEE_OTHER, "{}", created.body);
    let page = t
        .get(&format!("/verwaltung/saison/{}", today.year()), Some(&sec))
        .await
        .body;
    assert_eq!(page.contains("id=\"kein-beitrag\""), late, "{page}");
}

/// The README trial: a first start with no season and no account said only "Es gibt noch keine
/// Saison"; now `/` says where the setup link is, and with accounts how to start a season.
#[tokio::test]
async fn the_empty_home_page_says_where_the_setup_link_is() {
    let empty = TestApp::empty().await.get("/", None).await.body;
    assert!(empty.contains("Es gibt noch keine Saison."), "{empty}");
    assert!(empty.contains("id=\"einrichten\""), "{empty}");
    assert!(empty.contains("/setup?token="), "{empty}");
    assert!(empty.contains("Den Server neu starten"), "{empty}");
    let staffed = TestApp::staffed().await.get("/", None).await.body;
    assert!(!staffed.contains("id=\"einrichten\""), "{staffed}");
    assert!(staffed.contains("Verwaltung → Neue Saison"), "{staffed}");
}

/// Issue 31.3: the hint's command names the running server's database (`--database` with its
/// whole path), so that it adds the account there instead of making `./schockerliga.db`.
#[tokio::test]
async fn the_first_account_hint_names_the_servers_database() {
    let t = TestApp::empty().await;
    let empty = t.get("/", None).await.body;
    let want = format!(
        "schockerliga --database {} user add NAME --role admin",
        t.path.display()
    );
    assert!(empty.contains(&want), "{want} in {empty}");
}

/// The setup hint is not kept by the page cache: once the first account exists, `/` says how to
/// start a season (it said "Noch kein Konto" until the next write of league data).
#[tokio::test]
async fn the_setup_hint_goes_once_the_first_account_exists() {
    let t = TestApp::empty().await;
    for _ in 0..2 {
        let empty = t.get("/", None).await.body;
        assert!(empty.contains("id=\"einrichten\""), "{empty}");
    }
    t.create_account("erster", "admin").await;
    let after = t.get("/", None).await.body;
    assert!(!after.contains("id=\"einrichten\""), "{after}");
    assert!(after.contains("Verwaltung → Neue Saison"), "{after}");
}

/// The lists of nights (the public one and the Verwaltung's) count the rounds of the night, not
/// the rounds of all its tables added up: 09.01.2026 of the sample was played at two tables of
/// ten rounds each and shows 10, not 20 (a secretary read "Runden 20" as a night twice too long).
#[tokio::test]
async fn the_lists_of_nights_count_a_nights_rounds_not_its_tables_rounds() {
    let t = TestApp::with_seasons(&[season_file("sample-2026", None)]).await;
    let sec = t.login_new("schrift", "secretary").await;
    let row = |body: &str, href: &str| -> String {
        let at = body
            .find(href)
            .unwrap_or_else(|| panic!("{href} in {body}"));
        let end = at + body[at..].find("</tr>").unwrap();
        body[at..end].to_string()
    };
    let public = t.get("/saison/2026/abende", None).await;
    assert_eq!(public.status, StatusCode::OK);
    let line = row(&public.body, "/abend/2026-01-09\"");
    assert!(line.contains("<td class=\"num\">10</td>"), "{line}");
    assert!(!line.contains(">20<"), "{line}");
    let admin = t.get("/verwaltung/saison/2026", Some(&sec)).await;
    assert_eq!(admin.status, StatusCode::OK);
    let line = row(&admin.body, "/verwaltung/abend/2026-01-09\"");
    assert!(line.contains("<td class=\"num\">10</td>"), "{line}");
}
