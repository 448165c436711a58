//! Issue 34.1: payments and Guthaben through the Kassenwart's Zahlungen page — a payment pays
//! the oldest open items whole and the rest is the player's Guthaben, at its edges (exact, short
//! by a cent, over), a Guthaben paying a later fine, paid back with a day, shown on the Kasse and
//! the Jahresabschluss, outside the pot, and kept by the season file.

use axum::http::StatusCode;

use crate::app::*;
use crate::treasurer::league;

async fn fine_row(t: &TestApp, id: i64) -> (bool, Option<String>, bool) {
    sqlx::query_as("select paid, paid_on, from_account from fines where id = ?")
        .bind(id)
        .fetch_one(&t.db.read)
        .await
        .unwrap()
}

async fn pay(t: &TestApp, kasse: &str, player: i64, amount: &str, day: &str) -> String {
    let body = format!("player={player}&amount={amount}&paid_on={day}");
    t.post_follow("/verwaltung/saison/2026/zahlung", &body, kasse)
        .await
        .body
}

#[tokio::test]
async fn a_payment_pays_whole_items_oldest_first_and_the_rest_is_guthaben() {
    let (t, kasse) = league().await;
    // (player id, amount, day, the flash message) — Dirk (4) owes 0,50 € (06.03.), Bernd (2)
    // his Jahresbeitrag (15,00 € in March), Anna (1) nothing.
    let cases = [
        // Exact.
        (4, "0%2C50", "2026-03-10",
         "Zahlung gebucht am 10.03.2026: 0,50 € von Dirk: bezahlt Schock-Schlafmütze am 06.03.2026 (0,50 €); Guthaben 0,00 €. Offen jetzt 0,00 €."),
        // Short by a cent: no item whole, all of it Guthaben.
        (2, "14%2C99", "2026-03-10",
         "Zahlung gebucht am 10.03.2026: 14,99 € von Bernd: kein Posten ganz bezahlt; Guthaben 14,99 €. Offen jetzt 15,00 €."),
        // The missing cent: with the Guthaben it covers the fee whole.
        (2, "0%2C01", "2026-03-11",
         "Zahlung gebucht am 11.03.2026: 0,01 € von Bernd: bezahlt Jahresbeitrag für die 1. Liga (bei Zahlung im März) (15,00 €); Guthaben 0,00 €. Offen jetzt 0,00 €."),
        // Over (nothing open): all Guthaben.
        (1, "1%2C00", "2026-11-30",
         "Zahlung gebucht am 30.11.2026: 1,00 € von Anna: kein Posten ganz bezahlt; Guthaben 1,00 €. Offen jetzt 0,00 €."),
    ];
    for (player, amount, day, want) in cases {
        let body = pay(&t, &kasse, player, amount, day).await;
        assert!(body.contains(want), "{player} {amount}: {body}");
    }
    assert_eq!(
        fine_row(&t, 2).await,
        (true, Some("2026-03-10".into()), true)
    );
    let (fee, from_account): (Option<String>, bool) = sqlx::query_as(
        "select fee_paid_on, fee_from_account from season_players where season = 2026 and player_id = 2",
    )
    .fetch_one(&t.db.read)
    .await
    .unwrap();
    assert_eq!((fee.as_deref(), from_account), (Some("2026-03-11"), true));

    // Anna's Guthaben of 1,00 € pays her next fine whole the moment it is booked, that day.
    let body = "date=2026-12-25&player=Anna&kind=late";
    let r = t
        .post_follow("/verwaltung/saison/2026/strafe", body, &kasse)
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    let (id,): (i64,) = sqlx::query_as("select max(id) from fines")
        .fetch_one(&t.db.read)
        .await
        .unwrap();
    assert_eq!(
        fine_row(&t, id).await,
        (true, Some("2026-12-25".into()), true)
    );

    // A refused payment keeps what was typed and stores nothing.
    let before = snapshot(&t.db.write).await;
    let r = t
        .post(
            "/verwaltung/saison/2026/zahlung",
            "player=5&amount=0&paid_on=2026-12-01",
            Some(&kasse),
        )
        .await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(
        r.body.contains("Der Betrag muss größer als 0 sein."),
        "{}",
        r.body
    );
    assert!(r.body.contains(r#"value="0""#) && r.body.contains(r#"value="2026-12-01""#));
    assert_eq!(snapshot(&t.db.write).await, before);

    // Elke pays 2,00 € with nothing open: the Kasse and the Jahresabschluss show her Guthaben,
    // the pot and the Probe do not count it.
    let pot_before = t.get("/saison/2026/kasse", None).await.body;
    let pot = |page: &str| {
        let at = page.find(r#"id="pot">"#).unwrap();
        page[at..].split('<').next().unwrap().to_string()
    };
    pay(&t, &kasse, 5, "2%2C00", "2026-12-01").await;
    let kasse_page = t.get("/saison/2026/kasse", None).await.body;
    assert!(
        kasse_page.contains("<tr><td>Elke</td><td class=\"num\">2,00 €</td></tr>"),
        "{kasse_page}"
    );
    assert_eq!(pot(&kasse_page), pot(&pot_before));
    let card = t.get("/saison/2026/spieler/5", None).await.body;
    assert!(card.contains("Guthaben: <strong>2,00 €</strong>"), "{card}");
    let abschluss = t.get("/saison/2026/abschluss", None).await.body;
    assert!(abschluss.contains("Guthaben der Spieler"), "{abschluss}");
    assert!(abschluss.contains("<tr><td>Elke</td><td class=\"num\">2,00 €</td></tr>"));
    assert!(abschluss.contains("Stimmt: jeder Cent ist verteilt."));

    // The season file keeps the payments and the items paid out of them, and reads back.
    let file = schockerliga::service::export(&t.db, 2026).await.unwrap();
    let json = serde_json::to_value(&file).unwrap();
    assert_eq!(json["payments"].as_array().map(Vec::len), Some(5), "{json}");
    assert_eq!(json["payments"][1]["cents"], 1499);
    assert_eq!(json["nights"][2]["fines"][0]["from_account"], true);
    let again = TestApp::with_seasons(std::slice::from_ref(&file)).await;
    assert_eq!(
        schockerliga::service::export(&again.db, 2026)
            .await
            .unwrap(),
        file
    );

    // Paid back with a day: gone from the Kasse; carried to a season that is not there: refused,
    // nothing stored.
    let before = snapshot(&t.db.write).await;
    let r = t
        .post(
            "/verwaltung/saison/2026/guthaben/5",
            "wie=uebertragen&am=2026-12-26",
            Some(&kasse),
        )
        .await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(
        r.body.contains("Die Saison 2027 gibt es noch nicht"),
        "{}",
        r.body
    );
    assert_eq!(snapshot(&t.db.write).await, before);
    let r = t
        .post_follow(
            "/verwaltung/saison/2026/guthaben/5",
            "wie=ausgezahlt&am=2026-12-26",
            &kasse,
        )
        .await;
    assert!(
        r.body
            .contains("Guthaben ausgezahlt: 2,00 € an Elke am 26.12.2026."),
        "{}",
        r.body
    );
    let kasse_page = t.get("/saison/2026/kasse", None).await.body;
    assert!(
        kasse_page.contains("Kein Spieler hat Guthaben."),
        "{kasse_page}"
    );
}

/// Issue 34.5: `GET /api/v1/seasons/{season}/accounts` gives every player's items, open and paid
/// sums and Guthaben; 404 for an unknown season; members-only (403) while the Kasse is.
#[tokio::test]
async fn the_accounts_api_gives_each_players_items_sums_and_guthaben() {
    let (t, kasse) = league().await;
    // Dirk pays 1,00 € for his open 0,50 €: 0,50 € Guthaben.
    pay(&t, &kasse, 4, "1%2C00", "2026-03-10").await;
    let r = t.get("/api/v1/seasons/2026/accounts", None).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    let json = r.json();
    let all = json.as_array().expect("a list");
    let names: Vec<&str> = all.iter().map(|a| a["player"].as_str().unwrap()).collect();
    assert_eq!(names, ["Anna", "Bernd", "Carla", "Dirk", "Elke", "Frank"]);
    let dirk = &all[3];
    assert_eq!(
        (
            &dirk["open_cents"],
            &dirk["credit_cents"],
            &dirk["paid_cents"]
        ),
        (
            &serde_json::json!(0),
            &serde_json::json!(50),
            &serde_json::json!(1500 + 100 + 50 + 50 + 100 + 50 + 100)
        ),
        "{dirk}"
    );
    assert_eq!(
        dirk["items"][1],
        serde_json::json!({"kind": "fine", "date": "2026-03-06", "cents": 50, "paid_on": "2026-03-10"})
    );
    assert_eq!(
        dirk["items"].as_array().unwrap().last().unwrap(),
        &serde_json::json!({"kind": "fee", "date": "2026-02-21", "cents": 1500, "paid_on": "2026-02-21"})
    );
    // Bernd has not paid his fee; on the club's today (26.12.) it can no longer be paid.
    let bernd = &all[1];
    assert_eq!(bernd["items"], serde_json::json!([]));
    assert_eq!(
        (&bernd["open_cents"], &bernd["credit_cents"]),
        (&serde_json::json!(0), &serde_json::json!(0))
    );

    assert_eq!(
        t.get("/api/v1/seasons/1999/accounts", None).await.status,
        StatusCode::NOT_FOUND
    );
    assert_eq!(
        t.get("/api/v1/seasons/abc/accounts", None).await.status,
        StatusCode::NOT_FOUND
    );

    let admin = t.login(ADMIN).await;
    t.post_follow("/verwaltung/einstellungen", "money_private=1", &admin)
        .await;
    let r = t.get("/api/v1/seasons/2026/accounts", None).await;
    assert_eq!(r.status, StatusCode::FORBIDDEN);
    assert!(r.json()["error"]
        .as_str()
        .unwrap()
        .contains("nur für Mitglieder"));
    let r = t.get("/api/v1/seasons/2026/accounts", Some(&kasse)).await;
    assert_eq!(r.status, StatusCode::OK);
    assert_eq!(r.json()[3]["credit_cents"], 50);
}

/// Issue 34.1: at the season's end the Guthaben is carried to the player's next season in one
/// step: gone from 2026 ("uebertragen", with its day), there in 2027 ("vortrag").
#[tokio::test]
async fn a_guthaben_is_carried_to_the_next_season() {
    let t = TestApp::builder()
        .staff()
        .account("kasse", "kassenwart")
        .season(season_file("small-2026", None))
        .season(season_file("small-2026", Some(2027)))
        .start()
        .await;
    let kasse = t.login("kasse").await;
    pay(&t, &kasse, 4, "1%2C00", "2026-12-01").await;
    let r = t
        .post_follow(
            "/verwaltung/saison/2026/guthaben/4",
            "wie=uebertragen&am=2026-12-26",
            &kasse,
        )
        .await;
    assert!(
        r.body
            .contains("Guthaben übertragen: 0,50 € von Dirk in die Saison 2027."),
        "{}",
        r.body
    );
    let credit = |year: i32| {
        let t = &t;
        async move {
            let r = t
                .get(&format!("/api/v1/seasons/{year}/accounts"), None)
                .await;
            r.json()[3]["credit_cents"].clone()
        }
    };
    assert_eq!(credit(2026).await, 0);
    assert_eq!(credit(2027).await, 50);
    let rows: Vec<(i64, String, String, i64)> =
        sqlx::query_as("select season, kind, date, cents from credit_bookings order by id")
            .fetch_all(&t.db.read)
            .await
            .unwrap();
    assert_eq!(
        rows,
        [
            (2026, "uebertragen".into(), "2026-12-26".into(), 50),
            (2027, "vortrag".into(), "2026-12-26".into(), 50)
        ]
    );
}

/// A season without nights but with a player's money (a payment, so a Guthaben) is not deleted
/// with it: the money is the player's (issue 34.1).
#[tokio::test]
async fn a_season_with_payments_is_not_deleted() {
    let mut empty = season_file("small-2026", Some(2027));
    empty.nights.clear();
    let t = TestApp::builder()
        .staff()
        .account("kasse", "kassenwart")
        .season(season_file("small-2026", None))
        .season(empty)
        .start()
        .await;
    let kasse = t.login("kasse").await;
    let body = "player=1&amount=5%2C00&paid_on=2026-12-20";
    let r = t
        .post_follow("/verwaltung/saison/2027/zahlung", body, &kasse)
        .await;
    assert!(r.body.contains("Guthaben 5,00 €"), "{}", r.body);
    let admin = t.login(ADMIN).await;
    let before = snapshot(&t.db.write).await;
    let confirm = [("confirm".to_string(), "1".to_string())];
    let r = t
        .post_fields("/verwaltung/saison/2027/loeschen", &confirm, Some(&admin))
        .await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(
        r.body.contains(
            "Die Saison 2027 hat Zahlungen oder Guthaben und kann nicht gelöscht werden."
        ),
        "{}",
        r.body
    );
    assert_eq!(snapshot(&t.db.write).await, before);
}

#[tokio::test]
async fn kasse_csv_lists_the_guthaben_below_the_kasse_as_the_page_does() {
    let (t, kasse) = league().await;
    let before = t.get("/saison/2026/kasse.csv", None).await.body;
    assert!(
        before.ends_with("\r\n\r\nName;Guthaben (EUR)\r\nSumme Guthaben;0,00\r\n"),
        "{before:?}"
    );
    // Elke pays 2,00 € with nothing open, Anna 1,00 €: both Guthaben, by name, and the sum.
    pay(&t, &kasse, 5, "2%2C00", "2026-12-01").await;
    pay(&t, &kasse, 1, "1%2C00", "2026-12-01").await;
    let after = t.get("/saison/2026/kasse.csv", None).await.body;
    assert!(
        after.ends_with(
            "\r\n\r\nName;Guthaben (EUR)\r\nAnna;1,00\r\nElke;2,00\r\nSumme Guthaben;3,00\r\n"
        ),
        "{after:?}"
    );
    // The Kasse page shows the same.
    let page = t.get("/saison/2026/kasse", None).await.body;
    assert!(page.contains("<tr><td>Anna</td><td class=\"num\">1,00 €</td></tr>"));
    assert!(page.contains("<tr><td>Elke</td><td class=\"num\">2,00 €</td></tr>"));
    // The Kasse's own Summe line is unchanged: Guthaben is not part of what was paid in.
    let sum = |body: &str| {
        body.split("\r\n")
            .find(|l| l.starts_with("Summe;"))
            .unwrap()
            .to_string()
    };
    assert_eq!(sum(&after), sum(&before));
}

/// New-user trial: a player with 0,50 € open and 0,25 € Guthaben owes 0,25 €, and his card asks
/// for that (the "Ich habe bezahlt" field; the GiroCode and PayPal amount are the same figure),
/// not for the 0,50 € that would leave 0,25 € Guthaben again.
#[tokio::test]
async fn the_card_asks_for_what_is_open_less_his_guthaben() {
    let (t, kasse) = league().await;
    let body = pay(&t, &kasse, 4, "0%2C25", "2026-03-10").await;
    assert!(body.contains("Guthaben 0,25 €"), "{body}");
    let token = t.league.create_card_link(4, "kasse").await.unwrap().1;
    let card = t.get(&format!("/karte/{token}"), None).await.body;
    assert!(card.contains("name=\"betrag\" value=\"0,25\""), "{card}");
}

/// The trial's hand payments that were booked without a word: a million euros (a slip of the
/// thumb), a day after the club's today, a day years away from the season. Each is refused with
/// where and why, keeps what was typed and stores nothing; the edges still book.
#[tokio::test]
async fn a_payment_of_a_million_in_the_future_or_years_away_is_refused() {
    let (t, kasse) = league().await;
    let before = snapshot(&t.db.write).await;
    let cases = [
        ("1.000.000%2C00", "2026-12-01", "höchstens 10.000,00 €"),
        ("10.000%2C01", "2026-12-01", "höchstens 10.000,00 €"),
        (
            "5%2C00",
            "2026-12-27",
            "27.12.2026 liegt nach heute (26.12.2026)",
        ),
        (
            "5%2C00",
            "2024-12-31",
            "31.12.2024 liegt mehr als ein Jahr vor der Saison 2026",
        ),
        // (A day more than a year after the season is after today too; the unit table of
        // `items::allocate` has it, for the bank statement.)
        (
            "5%2C00",
            "2028-01-01",
            "01.01.2028 liegt nach heute (26.12.2026)",
        ),
    ];
    for (amount, day, want) in cases {
        let body = format!("player=1&amount={amount}&paid_on={day}");
        let r = t
            .post("/verwaltung/saison/2026/zahlung", &body, Some(&kasse))
            .await;
        assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY, "{amount} {day}");
        assert!(r.body.contains(want), "{amount} {day}: {}", r.body);
        assert!(r.body.contains(&format!(r#"value="{day}""#)), "{}", r.body);
        assert_eq!(snapshot(&t.db.write).await, before, "{amount} {day}");
    }
    // The edges: 10.000,00 € on the club's today, and a day a year before the season.
    for (amount, day) in [("10.000%2C00", "2026-12-26"), ("1%2C00", "2025-01-01")] {
        let body = pay(&t, &kasse, 1, amount, day).await;
        assert!(body.contains("Zahlung gebucht"), "{amount} {day}: {body}");
    }
}
