//! Issue 34.4: "Ich habe bezahlt" from the player's card — a report appears on the Kassenwart's
//! Zahlungen page; *Buchen* books it exactly as the page's payment (whole items oldest first, the
//! rest Guthaben) and *Nicht gefunden* marks it, each with a Protokoll line; the card shows the
//! report's state; at most three open reports; a bad amount stores nothing; rate-limited as the
//! Zusagen; a payment booked by hand for the same player and amount settles the report.

use axum::http::StatusCode;

use crate::app::*;
use crate::treasurer::league;

/// Dirk's (id 4, owes 0,50 €) card token.
async fn dirks_card(t: &TestApp) -> String {
    t.league.create_card_link(4, "kasse").await.unwrap().1
}

/// Dirk reports `betrag` paid `wie` from his card; the answer.
async fn report(t: &TestApp, token: &str, betrag: &str, wie: &str) -> Reply {
    let body = encode(&[("betrag", betrag), ("wie", wie)]);
    t.post(&format!("/karte/{token}/gezahlt"), &body, None)
        .await
}

/// The reports as stored: (cents, how, reported_on, state, decided_by, decided_on).
async fn reports(
    t: &TestApp,
) -> Vec<(i64, String, String, String, Option<String>, Option<String>)> {
    sqlx::query_as(
        "select cents, how, reported_on, state, decided_by, decided_on from payment_reports
         order by id",
    )
    .fetch_all(&t.db.read)
    .await
    .unwrap()
}

/// What a payment stored: the fines' payment state and the payments.
async fn booked(
    t: &TestApp,
) -> (
    Vec<(i64, bool, Option<String>, bool)>,
    Vec<(i64, String, i64)>,
) {
    let fines = sqlx::query_as("select id, paid, paid_on, from_account from fines order by id")
        .fetch_all(&t.db.read)
        .await
        .unwrap();
    let payments = sqlx::query_as("select player_id, date, cents from payments order by id")
        .fetch_all(&t.db.read)
        .await
        .unwrap();
    (fines, payments)
}

async fn protokoll(t: &TestApp) -> Vec<(String, String)> {
    sqlx::query_as("select user, action from audit_log order by id")
        .fetch_all(&t.db.read)
        .await
        .unwrap()
}

#[tokio::test]
async fn a_report_appears_on_zahlungen_and_buchen_books_it_exactly_as_a_payment() {
    let (t, kasse) = league().await;
    let token = dirks_card(&t).await;
    let card = t.get(&format!("/karte/{token}"), None).await.body;
    assert!(card.contains("Ich habe bezahlt"), "{card}");
    // Something is open: the form is unfolded with his open sum.
    assert!(card.contains("<details open>"), "{card}");
    assert!(card.contains(r#"name="betrag" value="0,50""#), "{card}");

    let r = report(&t, &token, "2,00", "ueberweisung").await;
    assert_eq!(r.status, StatusCode::SEE_OTHER, "{}", r.body);
    assert_eq!(
        r.location(),
        Some(format!("/karte/{token}#gezahlt").as_str())
    );
    let card = t.get(&format!("/karte/{token}"), None).await.body;
    assert!(
        card.contains("gemeldet am 26.12.2026: 2,00 € per Überweisung (Saison 2026) – offen"),
        "{card}"
    );
    let page = t
        .get("/verwaltung/saison/2026/zahlungen", Some(&kasse))
        .await
        .body;
    assert!(
        page.contains("Dirk: 2,00 € per Überweisung, gemeldet am 26.12.2026"),
        "{page}"
    );
    assert!(page.contains(r#"action="/verwaltung/saison/2026/meldung/1/buchen""#));
    assert!(page.contains(r#"action="/verwaltung/saison/2026/meldung/1/nicht-gefunden""#));

    // The same payment by hand, in a second league, for comparison.
    let (hand, hand_kasse) = league().await;
    let by_hand = hand
        .post_follow(
            "/verwaltung/saison/2026/zahlung",
            "player=4&amount=2%2C00&paid_on=2026-12-26",
            &hand_kasse,
        )
        .await;
    let r = t
        .post_follow("/verwaltung/saison/2026/meldung/1/buchen", "", &kasse)
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    let message = "Zahlung gebucht am 26.12.2026: 2,00 € von Dirk: bezahlt Schock-Schlafmütze am \
                   06.03.2026 (0,50 €); Guthaben 1,50 €. Offen jetzt 0,00 €.";
    assert!(r.body.contains(message), "{}", r.body);
    assert!(by_hand.body.contains(message), "{}", by_hand.body);
    assert_eq!(booked(&t).await, booked(&hand).await);
    assert!(!r.body.contains("Dirk: 2,00 € per Überweisung, gemeldet am"));
    assert!(r.body.contains("Guthaben 1,50 €"), "{}", r.body);
    assert_eq!(
        reports(&t).await,
        [(
            200,
            "ueberweisung".into(),
            "2026-12-26".into(),
            "gebucht".into(),
            Some("kasse".into()),
            Some("2026-12-26".into())
        )]
    );
    let log = protokoll(&t).await;
    let has = |user: &str, action: &str| log.iter().any(|(u, a)| u == user && a == action);
    assert!(
        has(
            "Karte",
            "Zahlung gemeldet: 2,00 € per Überweisung von Dirk (Saison 2026)"
        ),
        "{log:?}"
    );
    assert!(
        has(
            "kasse",
            "Meldung gebucht: 2,00 € per Überweisung von Dirk, gemeldet am 26.12.2026"
        ),
        "{log:?}"
    );
    assert!(has("kasse", "Zahlung gebucht"), "{log:?}");
    let card = t.get(&format!("/karte/{token}"), None).await.body;
    assert!(
        card.contains(
            "gemeldet am 26.12.2026: 2,00 € per Überweisung (Saison 2026) – gebucht am 26.12.2026"
        ),
        "{card}"
    );
    // Nothing open any more: the form is folded, the amount empty.
    assert!(
        card.contains("<details><summary><strong>Ich habe bezahlt"),
        "{card}"
    );

    // Booked once: a second Buchen of it is refused and books nothing.
    let before = booked(&t).await;
    let r = t
        .post("/verwaltung/saison/2026/meldung/1/buchen", "", Some(&kasse))
        .await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", r.body);
    assert!(r.body.contains("ist schon entschieden"), "{}", r.body);
    assert_eq!(booked(&t).await, before);
}

#[tokio::test]
async fn nicht_gefunden_marks_the_report_books_nothing_and_the_card_says_so() {
    let (t, kasse) = league().await;
    let token = dirks_card(&t).await;
    report(&t, &token, "0,50", "paypal").await;
    let before = booked(&t).await;
    let r = t
        .post_follow(
            "/verwaltung/saison/2026/meldung/1/nicht-gefunden",
            "",
            &kasse,
        )
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    assert!(
        r.body.contains(
            "Meldung von Dirk (0,50 € per PayPal, gemeldet am 26.12.2026) als nicht gefunden markiert."
        ),
        "{}",
        r.body
    );
    assert_eq!(booked(&t).await, before);
    assert_eq!(reports(&t).await[0].3, "nicht_gefunden");
    assert!(protokoll(&t).await.iter().any(|(u, a)| u == "kasse"
        && a == "Meldung nicht gefunden: 0,50 € per PayPal von Dirk, gemeldet am 26.12.2026"));
    let card = t.get(&format!("/karte/{token}"), None).await.body;
    assert!(
        card.contains("gemeldet am 26.12.2026: 0,50 € per PayPal (Saison 2026) – nicht gefunden"),
        "{card}"
    );
    // Not logged in: the Kassenwart's buttons are not the player's.
    let r = t
        .post("/verwaltung/saison/2026/meldung/1/buchen", "", None)
        .await;
    assert!(
        r.is_login_redirect() || r.status == StatusCode::FORBIDDEN,
        "{}",
        r.body
    );
    assert_eq!(booked(&t).await, before);
}

#[tokio::test]
async fn a_bad_amount_or_way_is_refused_on_the_card_keeps_what_was_typed_and_stores_nothing() {
    let (t, _) = league().await;
    let token = dirks_card(&t).await;
    let before = snapshot(&t.db.write).await;
    let cases = [
        (
            "0",
            "ueberweisung",
            "Betrag: er muss größer als 0,00 € sein.",
        ),
        ("0,00", "bar", "Betrag: er muss größer als 0,00 € sein."),
        ("-3,00", "bar", "Betrag: Betrag darf nicht negativ sein."),
        (
            "drei",
            "bar",
            "Betrag: \"drei\" ist kein Betrag (z. B. 1,50).",
        ),
        (
            "3,001",
            "bar",
            "Betrag: \"3,001\": höchstens zwei Nachkommastellen.",
        ),
        ("", "bar", "Betrag: Betrag fehlt."),
        ("1000,01", "bar", "Betrag: höchstens 1.000,00 € auf einmal"),
        (
            "3,00",
            "scheck",
            "Wie bezahlt: bitte Überweisung, PayPal oder bar wählen.",
        ),
    ];
    for (betrag, wie, want) in cases {
        let r = report(&t, &token, betrag, wie).await;
        assert_eq!(
            r.status,
            StatusCode::UNPROCESSABLE_ENTITY,
            "{betrag}: {}",
            r.body
        );
        let shown = want.replace('"', "&#34;");
        assert!(r.body.contains(&shown), "{betrag}: {shown} in {}", r.body);
        let typed = format!(r#"name="betrag" value="{}""#, betrag.replace('"', "&#34;"));
        assert!(r.body.contains(&typed), "{betrag}: {}", r.body);
        assert_eq!(snapshot(&t.db.write).await, before, "{betrag}");
    }
    // The way typed stays chosen.
    let r = report(&t, &token, "drei", "paypal").await;
    assert!(
        r.body.contains(r#"<option value="paypal" selected>"#),
        "{}",
        r.body
    );
    // 1.000,00 € is the most one report may name.
    let r = report(&t, &token, "1.000,00", "bar").await;
    assert_eq!(r.status, StatusCode::SEE_OTHER, "{}", r.body);
}

#[tokio::test]
async fn a_fourth_open_report_is_refused_until_one_is_decided() {
    let (t, kasse) = league().await;
    let token = dirks_card(&t).await;
    for betrag in ["1,00", "2,00", "3,00"] {
        let r = report(&t, &token, betrag, "bar").await;
        assert_eq!(r.status, StatusCode::SEE_OTHER, "{betrag}: {}", r.body);
    }
    let before = snapshot(&t.db.write).await;
    let r = report(&t, &token, "4,00", "bar").await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", r.body);
    assert!(
        r.body
            .contains("Du hast schon 3 offene Meldungen: die Kasse prüft sie zuerst."),
        "{}",
        r.body
    );
    assert!(
        r.body.contains(r#"name="betrag" value="4,00""#),
        "{}",
        r.body
    );
    assert_eq!(snapshot(&t.db.write).await, before);
    t.post_follow(
        "/verwaltung/saison/2026/meldung/2/nicht-gefunden",
        "",
        &kasse,
    )
    .await;
    let r = report(&t, &token, "4,00", "bar").await;
    assert_eq!(r.status, StatusCode::SEE_OTHER, "{}", r.body);
}

#[tokio::test]
async fn a_flood_of_reports_from_one_address_gets_429() {
    let (t, _) = league().await;
    let token = dirks_card(&t).await;
    let path = format!("/karte/{token}/gezahlt");
    let flood = [10, 7, 7, 9];
    let mut statuses = Vec::new();
    for _ in 0..=schockerliga::web::kit::security::ZUSAGE_BURST {
        let r = t
            .send_from(form(&path, "betrag=1%2C00&wie=bar", None), flood)
            .await;
        if r.status == StatusCode::TOO_MANY_REQUESTS {
            assert!(r.header("retry-after").is_some());
            assert!(
                r.body
                    .contains("Zu viele Zahlungsmeldungen von diesem Anschluss."),
                "{}",
                r.body
            );
        }
        statuses.push(r.status.as_u16());
    }
    // Three stored, then refused (three open), then the limit.
    assert_eq!(&statuses[..4], &[303, 303, 303, 422], "{statuses:?}");
    assert_eq!(statuses.last(), Some(&429), "{statuses:?}");
    assert!(statuses[..statuses.len() - 1].iter().all(|s| *s != 429));
    assert_eq!(reports(&t).await.len(), 3);
    // Another address still reports (and is refused only for the fourth open one).
    let r = t
        .send_from(form(&path, "betrag=1%2C00&wie=bar", None), [10, 7, 7, 10])
        .await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", r.body);
}

#[tokio::test]
async fn a_cross_site_report_is_refused_and_stores_nothing() {
    let (t, _) = league().await;
    let token = dirks_card(&t).await;
    let before = snapshot(&t.db.write).await;
    let r = t
        .send(
            req("POST", &format!("/karte/{token}/gezahlt"))
                .header("content-type", "application/x-www-form-urlencoded")
                .header("origin", "http://evil.example")
                .body(axum::body::Body::from("betrag=3%2C00&wie=bar"))
                .unwrap(),
        )
        .await;
    assert_eq!(r.status, StatusCode::FORBIDDEN);
    assert_eq!(snapshot(&t.db.write).await, before);
}

#[tokio::test]
async fn a_payment_booked_by_hand_settles_the_oldest_open_report_of_that_amount() {
    let (t, kasse) = league().await;
    let token = dirks_card(&t).await;
    for (betrag, wie) in [
        ("3,00", "ueberweisung"),
        ("1,00", "bar"),
        ("3,00", "paypal"),
    ] {
        report(&t, &token, betrag, wie).await;
    }
    // Another amount settles none.
    let r = t
        .post_follow(
            "/verwaltung/saison/2026/zahlung",
            "player=4&amount=2%2C00&paid_on=2026-12-20",
            &kasse,
        )
        .await;
    assert!(!r.body.contains("gemeldete Zahlung"), "{}", r.body);
    assert!(reports(&t).await.iter().all(|r| r.3 == "open"));
    // 3,00 € settles the oldest 3,00 € report only.
    let r = t
        .post_follow(
            "/verwaltung/saison/2026/zahlung",
            "player=4&amount=3%2C00&paid_on=2026-12-21",
            &kasse,
        )
        .await;
    assert!(
        r.body
            .contains("Seine gemeldete Zahlung über diesen Betrag ist damit gebucht."),
        "{}",
        r.body
    );
    let states: Vec<(i64, String, String)> = reports(&t)
        .await
        .into_iter()
        .map(|r| (r.0, r.1, r.3))
        .collect();
    assert_eq!(
        states,
        [
            (300, "ueberweisung".into(), "gebucht".into()),
            (100, "bar".into(), "open".into()),
            (300, "paypal".into(), "open".into()),
        ]
    );
    assert!(protokoll(&t).await.iter().any(|(u, a)| u == "kasse"
        && a == "Meldung gebucht: 3,00 € per Überweisung von Dirk, gemeldet am 26.12.2026"));
    let page = t
        .get("/verwaltung/saison/2026/zahlungen", Some(&kasse))
        .await
        .body;
    assert!(!page.contains("Dirk: 3,00 € per Überweisung"), "{page}");
    assert!(page.contains("Dirk: 3,00 € per PayPal"), "{page}");
}
