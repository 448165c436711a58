//! The real router from outside (`tower::ServiceExt::oneshot`): the JSON API against the fixtures,
//! and a secretary's evening from setup to the public table.

use axum::http::StatusCode;
use schockerliga::db;
use schockerliga::league::model::file::SeasonFile;
use serde_json::Value;

use crate::app::{RoundForm, TestApp};
use crate::common::{fixture, read_json};

#[tokio::test]
async fn the_json_api_gives_exactly_the_fixtures() {
    let t = TestApp::empty().await;
    let file: SeasonFile =
        serde_json::from_value(read_json(&fixture("sample-2026.season.json"))).unwrap();
    schockerliga::service::import(&t.db, &file, false)
        .await
        .unwrap();

    let cases = [
        (
            "/api/v1/seasons/2026/standings",
            "sample-2026.standings.json",
        ),
        ("/api/v1/seasons/2026/payouts", "sample-2026.payouts.json"),
    ];
    for (uri, expected) in cases {
        let a = t.get(uri, None).await;
        assert_eq!(a.status, StatusCode::OK, "{uri}");
        let got: Value = serde_json::from_str(&a.body).unwrap();
        assert_eq!(got, read_json(&fixture(expected)), "{uri}");
    }

    let early = t
        .get("/api/v1/seasons/2026/standings?as_of=2026-03-01", None)
        .await;
    assert_eq!(early.status, StatusCode::OK);
    let early: Value = serde_json::from_str(&early.body).unwrap();
    assert_eq!(early["as_of"], "2026-03-01");

    let errors = [
        ("/api/v1/seasons/1999/standings", StatusCode::NOT_FOUND),
        ("/api/v1/seasons/1999/payouts", StatusCode::NOT_FOUND),
        ("/api/v1/seasons/abc/standings", StatusCode::NOT_FOUND),
        (
            "/api/v1/seasons/2026/standings?as_of=01.03.2026",
            StatusCode::BAD_REQUEST,
        ),
        (
            "/api/v1/seasons/2026/standings?as_of=2026-02-30",
            StatusCode::BAD_REQUEST,
        ),
    ];
    for (uri, status) in errors {
        let a = t.get(uri, None).await;
        assert_eq!(a.status, status, "{uri}");
        let v: Value = serde_json::from_str(&a.body).unwrap();
        assert!(
            v["error"].as_str().is_some_and(|e| !e.is_empty()),
            "{uri}: {}",
            a.body
        );
    }
}

#[tokio::test]
async fn public_pages_show_the_imported_season_in_german_format() {
    let t = TestApp::empty().await;
    // A name with markup must come out escaped.
    let text = std::fs::read_to_string(fixture("small-2026.season.json")).unwrap();
    let text = text.replace("\"Anna\"", "\"Anna <b>&</b>\"");
    let file: SeasonFile = serde_json::from_str(&text).unwrap();
    schockerliga::service::import(&t.db, &file, false)
        .await
        .unwrap();
    let standings: Value = read_json(&fixture("small-2026.standings.json"));
    let first = &standings["rows"][0];

    let home = t.get("/", None).await;
    assert_eq!(home.status, StatusCode::OK);
    assert!(
        home.body.contains("Anna &#60;b&#62;&#38;&#60;/b&#62;")
            || home.body.contains("Anna &lt;b&gt;&amp;&lt;/b&gt;"),
        "escaped name"
    );
    assert!(!home.body.contains("<b>&</b>"));
    assert_eq!(
        crate::app::only_script_files(&home.body.to_lowercase()),
        Ok(()),
        "no inline script"
    );
    for part in [
        "1. Liga",
        "2. Liga",
        "Kreisliga",
        first["player"].as_str().unwrap(),
    ] {
        assert!(home.body.contains(part), "table lacks {part}");
    }
    let d_wert = format!("{:.2}", first["d_wert"].as_f64().unwrap()).replace('.', ",");
    assert!(home.body.contains(&d_wert), "table lacks D.Wert {d_wert}");

    let players = db::player::of_season_pool(&t.db.read, 2026).await.unwrap();
    let page = t
        .get(&format!("/saison/2026/spieler/{}", players[1].id), None)
        .await;
    assert_eq!(page.status, StatusCode::OK);
    assert!(page.body.contains(&players[1].name));

    let nights = t.get("/saison/2026/abende", None).await;
    assert!(nights.body.contains("25.12.2026"));
    let night = t.get("/abend/2026-12-25", None).await;
    assert_eq!(night.status, StatusCode::OK);
    assert!(night.body.contains("Tisch 1"));
    assert_eq!(
        t.get("/abend/2031-01-01", None).await.status,
        StatusCode::NOT_FOUND
    );
    assert_eq!(
        t.get("/verwaltung", None).await.status,
        StatusCode::SEE_OTHER
    );
    assert_eq!(
        t.get("/gibt/es/nicht", None).await.status,
        StatusCode::NOT_FOUND
    );
}

#[tokio::test]
async fn a_secretary_runs_an_evening_from_setup_to_the_public_table() {
    let t = TestApp::empty().await;

    // Setup: the one-time link creates the first admin and logs him in.
    let token = db::user::setup_token(&t.db.read)
        .await
        .unwrap()
        .expect("setup token");
    assert_eq!(
        t.get("/setup?token=wrong", None).await.status,
        StatusCode::NOT_FOUND
    );
    assert_eq!(
        t.get(&format!("/setup?token={token}"), None).await.status,
        StatusCode::OK
    );
    let pw = "geheim123".to_string();
    let setup = t
        .post_fields(
            "/setup",
            &[
                ("token", token.clone()),
                ("username", "anna".to_string()),
                ("password", pw.clone()),
                ("password2", pw.clone()),
            ],
            None,
        )
        .await;
    assert_eq!(setup.status, StatusCode::SEE_OTHER, "{}", setup.body);
    assert_eq!(setup.location(), Some("/verwaltung"));
    assert_eq!(
        t.get(&format!("/setup?token={token}"), None).await.status,
        StatusCode::NOT_FOUND,
        "the link is gone"
    );

    // Login with a wrong password fails; the right one gives a session cookie.
    let wrong = t
        .post_fields(
            "/login",
            &[
                ("username", "anna".to_string()),
                ("password", "falsch".to_string()),
            ],
            None,
        )
        .await;
    assert_eq!(wrong.status, StatusCode::UNAUTHORIZED);
    let login = t
        .post_fields(
            "/login",
            &[("username", "anna".to_string()), ("password", pw.clone())],
            None,
        )
        .await;
    assert_eq!(login.status, StatusCode::SEE_OTHER);
    let attributes = login
        .set_cookie()
        .map(str::to_string)
        .expect("session cookie");
    assert!(
        attributes.contains("HttpOnly") && attributes.contains("SameSite=Strict"),
        "{attributes}"
    );
    assert_ne!(login.cookie(), setup.cookie(), "a new session id at login");
    let cookie = login.cookie().expect("session cookie");
    let c = Some(cookie.as_str());
    assert_eq!(t.get("/verwaltung", c).await.status, StatusCode::OK);

    // Season and ten players.
    let season = t
        .post_fields(
            "/verwaltung/saison",
            &[("year", "2026".to_string()), ("rules", "{}".to_string())],
            c,
        )
        .await;
    assert_eq!(season.status, StatusCode::SEE_OTHER, "{}", season.body);
    assert!(
        t.get("/verwaltung/saison/2026", c)
            .await
            .body
            .contains("<dt>Punkte je Hand-Out</dt>"),
        "rules shown (by their German labels)"
    );
    let names = [
        "Anna", "Bernd", "Carla", "Dirk", "Elke", "Frank", "Gabi", "Hans", "Ilse", "Jörg",
    ];
    for name in names {
        let a = t
            .post_fields(
                "/verwaltung/saison/2026/spieler",
                &[("name", name.to_string())],
                c,
            )
            .await;
        assert_eq!(a.status, StatusCode::SEE_OTHER, "{name}: {}", a.body);
    }
    let dup = t
        .post_fields(
            "/verwaltung/saison/2026/spieler",
            &[("name", "Anna".to_string())],
            c,
        )
        .await;
    assert_eq!(
        dup.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "a name twice is refused"
    );
    let players = db::player::of_season_pool(&t.db.read, 2026).await.unwrap();
    assert_eq!(players.len(), 10);
    let fee = t
        .post_fields(
            &format!("/verwaltung/saison/2026/spieler/{}/beitrag", players[0].id),
            &[("paid_on", "2026-04-10".to_string())],
            c,
        )
        .await;
    assert_eq!(fee.status, StatusCode::SEE_OTHER, "{}", fee.body);
    let late_fee = t
        .post_fields(
            &format!("/verwaltung/saison/2026/spieler/{}/beitrag", players[1].id),
            &[("paid_on", "2026-10-01".to_string())],
            c,
        )
        .await;
    assert_eq!(late_fee.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(late_fee.body.contains("September"), "{}", late_fee.body);
    let stored = db::player::of_season_pool(&t.db.read, 2026).await.unwrap();
    assert_eq!(stored[0].fee_cents, Some(1600), "April costs 16 €");
    assert_eq!(stored[1].fee_cents, None);

    // A night with all ten: two tables of five by lot.
    let night = t
        .post_fields(
            "/verwaltung/saison/2026/abend",
            &[("date", "2026-01-09".to_string())],
            c,
        )
        .await;
    assert_eq!(night.status, StatusCode::SEE_OTHER, "{}", night.body);
    let present: Vec<(&str, String)> = players
        .iter()
        .map(|p| ("present", p.id.to_string()))
        .collect();
    let draw = t
        .post_fields("/verwaltung/abend/2026-01-09/teilnehmer", &present, c)
        .await;
    assert_eq!(draw.status, StatusCode::SEE_OTHER, "{}", draw.body);
    let mut conn = t.db.read.acquire().await.unwrap();
    let stored_night = db::night::by_date(&mut conn, "2026-01-09".parse().unwrap())
        .await
        .unwrap()
        .unwrap();
    let seats = db::night::participants(&mut conn, stored_night.id)
        .await
        .unwrap();
    drop(conn);
    let table1: Vec<_> = seats.iter().filter(|p| p.table_no == 1).collect();
    assert_eq!((table1.len(), seats.len()), (5, 10));

    // Round 1 at table 1: the first player throws a Hand-Out and an Out, the second loses.
    let fields = table1
        .iter()
        .enumerate()
        .fold(RoundForm::at_table(1, 1), |f, (i, p)| {
            let first = i64::from(i == 0);
            f.row_of(p.player_id, 2 * first, first, 0)
        })
        .lost(table1[1].player_id);
    let round = t
        .post_round("/verwaltung/abend/2026-01-09/runde", &fields, c)
        .await;
    assert_eq!(round.status, StatusCode::SEE_OTHER, "{}", round.body);

    // The public table shows the new figures: 3 counted Outs in 1 round = D.Wert 30,00.
    let table = t.get("/", None).await;
    assert!(table.body.contains(&table1[0].name), "{}", table.body);
    assert!(table.body.contains("30,00"), "{}", table.body);
    let api: Value =
        serde_json::from_str(&t.get("/api/v1/seasons/2026/standings", None).await.body).unwrap();
    let row = api["rows"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["player"] == table1[0].name.as_str())
        .unwrap();
    assert_eq!(
        (row["counted_outs"].as_i64(), row["rounds"].as_u64()),
        (Some(3), Some(1))
    );

    // A rejected round (4 Outs) keeps the typed values and stores nothing.
    let bad = fields
        .clone()
        .with("number", 2)
        .with(&format!("outs_{}", table1[2].player_id), 4);
    let rejected = t
        .post_round("/verwaltung/abend/2026-01-09/runde", &bad, c)
        .await;
    assert_eq!(rejected.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(
        rejected.body.contains("höchstens 3 Outs"),
        "{}",
        rejected.body
    );
    assert!(
        rejected.body.contains(&format!(
            "name=\"outs_{}\" min=\"0\" max=\"3\" value=\"4\"",
            table1[2].player_id
        )),
        "typed value kept"
    );
    assert!(
        rejected
            .body
            .contains("name=\"number\" min=\"1\" value=\"2\""),
        "round number kept"
    );
    let mut conn = t.db.read.acquire().await.unwrap();
    assert_eq!(
        db::night::round_count(&mut conn, stored_night.id)
            .await
            .unwrap(),
        1,
        "nothing stored"
    );
    drop(conn);

    // Rename a player: the table follows; a taken name is refused.
    let renamed = t
        .post_fields(
            &format!(
                "/verwaltung/saison/2026/spieler/{}/name",
                table1[0].player_id
            ),
            &[("name", "Zacharias".to_string())],
            c,
        )
        .await;
    assert_eq!(renamed.status, StatusCode::SEE_OTHER, "{}", renamed.body);
    assert!(t.get("/", None).await.body.contains("Zacharias"));
    let taken = t
        .post_fields(
            &format!(
                "/verwaltung/saison/2026/spieler/{}/name",
                table1[1].player_id
            ),
            &[("name", "Zacharias".to_string())],
            c,
        )
        .await;
    assert_eq!(taken.status, StatusCode::UNPROCESSABLE_ENTITY);

    // A fine from the catalogue, open: counted as outstanding, not in the pot.
    let fine = t
        .post_fields(
            "/verwaltung/abend/2026-01-09/strafe",
            &[
                ("player", table1[2].player_id.to_string()),
                ("kind", "late".to_string()),
            ],
            c,
        )
        .await;
    assert_eq!(fine.status, StatusCode::SEE_OTHER, "{}", fine.body);
    let unknown = t
        .post_fields(
            "/verwaltung/abend/2026-01-09/strafe",
            &[
                ("player", table1[2].player_id.to_string()),
                ("kind", "rude".to_string()),
            ],
            c,
        )
        .await;
    assert_eq!(unknown.status, StatusCode::UNPROCESSABLE_ENTITY);
    let payouts: Value =
        serde_json::from_str(&t.get("/api/v1/seasons/2026/payouts", None).await.body).unwrap();
    assert_eq!(
        (
            payouts["fines_cents"].as_i64(),
            payouts["open_fines_cents"].as_i64()
        ),
        (Some(0), Some(100))
    );
    assert_eq!(payouts["fees_cents"].as_i64(), Some(1600));

    // Every change left an audit row.
    let (audits,): (i64,) = sqlx::query_as("select count(*) from audit_log")
        .fetch_one(&t.db.read)
        .await
        .unwrap();
    assert!(audits >= 16, "{audits} audit rows");

    // Logout destroys the session.
    let out = t.post("/logout", "", c).await;
    assert_eq!(out.status, StatusCode::SEE_OTHER);
    assert_eq!(t.get("/verwaltung", c).await.status, StatusCode::SEE_OTHER);
}

#[tokio::test]
async fn refusals_of_the_framework_say_where_in_german_and_the_api_answers_json() {
    // From the hostile run: an anonymous API write got the login page, a mistyped field only
    // "Formular unvollständig", and the cross-site refusal the text of a missing role.
    let t = TestApp::small_season().await;
    let uri = "/api/v1/nights/2026-01-02/tables/1/rounds/1";
    let r = t.post_json(uri, r#"{"results": []}"#, None).await;
    assert_eq!(r.status, StatusCode::UNAUTHORIZED, "{}", r.body);
    assert!(r.json()["error"]
        .as_str()
        .unwrap()
        .contains("Nicht angemeldet"));

    let admin = t.login(crate::app::ADMIN).await;
    let r = t
        .post("/verwaltung/saison", "rules=%7B%7D", Some(&admin))
        .await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(r.body.contains("Feld „year“ fehlt"), "{}", r.body);

    let r = t
        .send(
            crate::app::req("POST", "/verwaltung/saison")
                .header("content-type", "application/x-www-form-urlencoded")
                .header("origin", "http://evil.example")
                .header("cookie", &admin)
                .body(axum::body::Body::from("year=2030&rules=%7B%7D"))
                .unwrap(),
        )
        .await;
    assert_eq!(r.status, StatusCode::FORBIDDEN);
    assert!(
        r.body.contains("Anfrage von fremder Seite abgelehnt."),
        "{}",
        r.body
    );
    // Error pages have German headings (the two-phone trial saw "Forbidden").
    assert!(r.body.contains("<h1>Keine Berechtigung</h1>"), "{}", r.body);
    assert!(!r.body.contains("Forbidden"), "{}", r.body);
}
