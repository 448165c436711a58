//! Each player's own card (issue 27, SECURITY.md "Player cards"): the Kassenwart makes a link in
//! the Verwaltung (shown once, with its QR code), the card shows only its player also while the
//! Kasse is members-only, and dies when revoked or replaced; "Erinnern" writes the German text with
//! the open sum, the due date and a new card link; on his card a player answers the next night as
//! himself, and gets his own calendar.

use axum::http::{header, StatusCode};
use chrono::{Duration, NaiveDate};
use schockerliga::league::plan::planned::Via;

use crate::app::{club_today, encode, snapshot, TestApp, ADMIN, SECRETARY};
// The small season with the Kassenwart `kasse` logged in; Dirk (id 4) owes 0,50 €.
use crate::treasurer::league;

/// The card token in a page: the 64 hex digits after `/karte/`.
fn token_in(body: &str) -> String {
    let at = body.find("/karte/").expect("a card link on the page") + "/karte/".len();
    let token: String = body[at..]
        .chars()
        .take_while(char::is_ascii_hexdigit)
        .collect();
    assert_eq!(token.len(), 64, "{}", &body[at..at + 80]);
    token
}

/// Makes Dirk's card in the Verwaltung as `kasse` and reads its token off the page shown once.
async fn make_card(t: &TestApp, kasse: &str) -> String {
    let r = t
        .post("/verwaltung/saison/2026/karten/4/link", "", Some(kasse))
        .await;
    assert_eq!(r.status, StatusCode::SEE_OTHER, "{}", r.body);
    assert_eq!(r.location(), Some("/verwaltung/saison/2026/karten/4/link"));
    let shown = t
        .get("/verwaltung/saison/2026/karten/4/link", Some(kasse))
        .await;
    assert_eq!(shown.status, StatusCode::OK);
    assert_eq!(shown.header(header::CACHE_CONTROL), Some("no-store"));
    assert!(shown.body.contains("Er wird nur jetzt angezeigt"));
    assert!(shown.body.contains("<svg"), "a QR code");
    assert!(
        shown.body.contains("https://wa.me/?text="),
        "a share button"
    );
    token_in(&shown.body)
}

const OTHERS: [&str; 5] = ["Anna", "Bernd", "Carla", "Elke", "Frank"];

#[tokio::test]
async fn a_card_shows_only_its_player_even_with_private_money_and_dies_when_revoked_or_replaced() {
    let (t, kasse) = league().await;
    let admin = t.login(ADMIN).await;
    let r = t
        .post_follow("/verwaltung/einstellungen", "money_private=1", &admin)
        .await;
    assert!(r.body.contains("nur für Mitglieder sichtbar"), "{}", r.body);

    let page = t.get("/verwaltung/saison/2026/karten", Some(&kasse)).await;
    assert_eq!(page.status, StatusCode::OK);
    assert!(page.body.contains("Noch keine Karte."), "{}", page.body);
    // Nothing to revoke before a link exists.
    assert!(!page.body.contains("Link widerrufen"), "{}", page.body);

    let token = make_card(&t, &kasse).await;
    // The link is shown once only.
    let again = t
        .get("/verwaltung/saison/2026/karten/4/link", Some(&kasse))
        .await;
    assert!(again.body.contains("schon angezeigt"), "{}", again.body);
    assert!(!again.body.contains(&token));

    let card = t.get(&format!("/karte/{token}"), None).await;
    assert_eq!(card.status, StatusCode::OK, "{}", card.body);
    assert_eq!(
        card.header(header::CACHE_CONTROL),
        Some("private, no-store")
    );
    assert!(card.body.contains("<h1>Dirk</h1>"), "{}", card.body);
    assert!(
        card.body.contains(r#"id="open-sum">0,50 €"#),
        "{}",
        card.body
    );
    assert!(card.body.contains("D.Wert") && card.body.contains("Platz"));
    // His Rückblick of the season is linked from his card (issue 39.2).
    assert!(
        card.body.contains(r#"href="/spieler/4/rueckblick/2026""#),
        "{}",
        card.body
    );
    for other in OTHERS {
        assert!(
            !card.body.contains(other),
            "the card names {other}: {}",
            card.body
        );
    }
    // The public pages still keep the money private.
    assert!(t.get("/saison/2026/kasse", None).await.is_login_redirect());

    let page = t.get("/verwaltung/saison/2026/karten", Some(&kasse)).await;
    assert!(
        page.body.contains("Karte seit 26.12.2026 (kasse)"),
        "{}",
        page.body
    );
    assert!(page.body.contains("Link widerrufen"));

    // A new link replaces the old one.
    let newer = make_card(&t, &kasse).await;
    assert_ne!(newer, token);
    let old = t.get(&format!("/karte/{token}"), None).await;
    assert_eq!(old.status, StatusCode::FORBIDDEN);
    assert!(old.body.contains("gilt nicht (mehr)"), "{}", old.body);
    assert_eq!(
        t.get(&format!("/karte/{newer}"), None).await.status,
        StatusCode::OK
    );

    // Revoked, it is dead; the page offers a new one and nothing to revoke.
    let r = t
        .post_follow("/verwaltung/saison/2026/karten/4/widerrufen", "", &kasse)
        .await;
    assert!(
        r.body.contains("Die Karte von Dirk gilt nicht mehr."),
        "{}",
        r.body
    );
    assert_eq!(
        t.get(&format!("/karte/{newer}"), None).await.status,
        StatusCode::FORBIDDEN
    );
    assert_eq!(
        t.get(&format!("/karte/{newer}/kalender.ics"), None)
            .await
            .status,
        StatusCode::FORBIDDEN
    );
    let line = r.body.split(r#"id="karte-4""#).nth(1).unwrap();
    let line = line.split("</div>").next().unwrap();
    assert!(
        line.contains("Noch keine Karte.") && !line.contains("widerrufen"),
        "{line}"
    );
}

#[tokio::test]
async fn a_reminder_names_the_german_sum_the_due_date_and_a_new_card_link() {
    let (t, kasse) = league().await;
    let token = make_card(&t, &kasse).await;

    // Refused: a day gone by, a day not a date; the form keeps it, nothing is stored.
    let before = snapshot(&t.db.write).await;
    let r = t
        .post(
            "/verwaltung/saison/2026/karten/4/erinnern",
            "bis=2026-12-01",
            Some(&kasse),
        )
        .await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(
        r.body.contains("der 01.12.2026 ist schon vorbei"),
        "{}",
        r.body
    );
    assert!(r.body.contains(r#"value="2026-12-01""#), "{}", r.body);
    assert!(r.body.contains("#karte-4"), "the error links to the form");
    let r = t
        .post(
            "/verwaltung/saison/2026/karten/4/erinnern",
            "bis=morgen",
            Some(&kasse),
        )
        .await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(r.body.contains("„morgen“ ist kein Datum"), "{}", r.body);
    assert_eq!(snapshot(&t.db.write).await, before);

    let due: NaiveDate = club_today() + Duration::days(14);
    // With a new link asked for (issue 31.7: else his link stays, below).
    let body = encode(&[("bis", due.to_string()), ("neuer_link", "1".into())]);
    let r = t
        .post(
            "/verwaltung/saison/2026/karten/4/erinnern",
            &body,
            Some(&kasse),
        )
        .await;
    assert_eq!(r.status, StatusCode::SEE_OTHER, "{}", r.body);
    let shown = t.get(r.location().unwrap(), Some(&kasse)).await;
    let due_de = due.format("%d.%m.%Y").to_string();
    assert!(
        shown
            .body
            .contains("Hallo Dirk, bei der Schockerliga ist für dich noch 0,50 € offen"),
        "{}",
        shown.body
    );
    assert!(shown
        .body
        .contains(&format!("Bitte bis zum {due_de} bezahlen.")));
    let reminded = token_in(&shown.body);
    assert_ne!(reminded, token, "the reminder carries a new card link");
    assert!(shown
        .body
        .contains(&format!("http://liga.test/karte/{reminded}")));
    let wa = shown
        .body
        .split("href=\"https://wa.me/?text=")
        .nth(1)
        .unwrap();
    assert!(wa.starts_with("Hallo%20Dirk"), "{wa}");
    assert!(wa.contains("0%2C50%20%E2%82%AC"), "{wa}");
    // The old link is replaced by the one in the text.
    assert_eq!(
        t.get(&format!("/karte/{token}"), None).await.status,
        StatusCode::FORBIDDEN
    );
    assert_eq!(
        t.get(&format!("/karte/{reminded}"), None).await.status,
        StatusCode::OK
    );
    let page = t.get("/verwaltung/saison/2026/karten", Some(&kasse)).await;
    assert!(
        page.body
            .contains(&format!("erinnert am 26.12.2026 an 0,50 €, bis {due_de}")),
        "{}",
        page.body
    );

    // Nothing open: no button for it, and a reminder sent anyway is refused.
    let settled = page
        .body
        .split(r#"id="karte-"#)
        .skip(1)
        .find(|line| {
            let line = line.split("</div>").next().unwrap();
            !line.contains("· offen")
        })
        .expect("a player with nothing open");
    let line = settled.split("</div>").next().unwrap();
    assert!(!line.contains("Erinnern"), "{line}");
    let settled_id: String = settled.chars().take_while(char::is_ascii_digit).collect();
    let before = snapshot(&t.db.write).await;
    let r = t
        .post(
            &format!("/verwaltung/saison/2026/karten/{settled_id}/erinnern"),
            &body,
            Some(&kasse),
        )
        .await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", r.body);
    assert!(r.body.contains("nichts offen"), "{}", r.body);
    assert_eq!(snapshot(&t.db.write).await, before);
}

/// Issue 31.7: "Erinnern" replaced the player's card link, so the link he saved stopped working
/// at every reminder. A reminder reuses his working link; a new one only when he has none or the
/// Kassenwart asks for it ("mit neuem Link").
#[tokio::test]
async fn a_reminder_keeps_his_card_link_working_unless_a_new_one_is_asked_for() {
    let (t, kasse) = league().await;
    let token = make_card(&t, &kasse).await;
    let page = t.get("/verwaltung/saison/2026/karten", Some(&kasse)).await;
    let line = page.body.split(r#"id="karte-4""#).nth(1).unwrap();
    let line = line.split("</div>").next().unwrap();
    assert!(
        line.contains(r#"name="neuer_link""#) && line.contains("mit neuem Link"),
        "the choice is offered while he has a link: {line}"
    );

    let due: NaiveDate = club_today() + Duration::days(14);
    let body = encode(&[("bis", due.to_string())]);
    let r = t
        .post(
            "/verwaltung/saison/2026/karten/4/erinnern",
            &body,
            Some(&kasse),
        )
        .await;
    assert_eq!(r.status, StatusCode::SEE_OTHER, "{}", r.body);
    let shown = t.get(r.location().unwrap(), Some(&kasse)).await;
    assert!(
        shown
            .body
            .contains("Hallo Dirk, bei der Schockerliga ist für dich noch 0,50 € offen"),
        "{}",
        shown.body
    );
    assert!(
        shown.body.contains("(dein Kartenlink gilt weiter)"),
        "{}",
        shown.body
    );
    assert!(
        !shown.body.contains("/karte/"),
        "no new link: {}",
        shown.body
    );
    assert!(shown.body.contains("https://wa.me/?text=Hallo%20Dirk"));
    // The link he saved before still answers.
    assert_eq!(
        t.get(&format!("/karte/{token}"), None).await.status,
        StatusCode::OK
    );
    let page = t.get("/verwaltung/saison/2026/karten", Some(&kasse)).await;
    let due_de = due.format("%d.%m.%Y").to_string();
    assert!(
        page.body
            .contains(&format!("erinnert am 26.12.2026 an 0,50 €, bis {due_de}")),
        "{}",
        page.body
    );

    // Without a working link, the reminder makes one (as before).
    let r = t
        .post_follow("/verwaltung/saison/2026/karten/4/widerrufen", "", &kasse)
        .await;
    assert!(r.body.contains("gilt nicht mehr"), "{}", r.body);
    let line = r.body.split(r#"id="karte-4""#).nth(1).unwrap();
    let line = line.split("</div>").next().unwrap();
    assert!(!line.contains(r#"name="neuer_link""#), "{line}");
    let r = t
        .post_follow("/verwaltung/saison/2026/karten/4/erinnern", &body, &kasse)
        .await;
    let fresh = token_in(&r.body);
    assert!(
        r.body.contains(&format!(
            "stehen alle Posten: http://liga.test/karte/{fresh}"
        )),
        "{}",
        r.body
    );
    // Fifth trial: no working link before, so none "gilt nicht mehr".
    assert!(
        r.body
            .contains("Der Text enthält einen neuen Link zur Karte von Dirk.")
            && !r.body.contains("der bisherige gilt nicht mehr"),
        "{}",
        r.body
    );
    assert_eq!(
        t.get(&format!("/karte/{fresh}"), None).await.status,
        StatusCode::OK
    );
}

#[tokio::test]
async fn on_his_card_a_player_answers_the_next_night_as_himself_and_gets_his_calendar() {
    let (t, kasse) = league().await;
    let secretary = t.login(SECRETARY).await;
    let date = (1..60)
        .map(|d| club_today() + Duration::days(d))
        .find(|d| t.league.snapshot().night(*d).is_none())
        .unwrap();
    let body = encode(&[
        ("datum", date.to_string().as_str()),
        ("zeit", "20:00"),
        ("ort", "Zum Anker"),
        ("hinweis", ""),
    ]);
    let r = t.post("/verwaltung/termine", &body, Some(&secretary)).await;
    assert_eq!(r.status, StatusCode::SEE_OTHER, "{}", r.body);
    let id = t.league.planning().active_on(date).unwrap().id;
    let token = make_card(&t, &kasse).await;

    let card = t.get(&format!("/karte/{token}"), None).await;
    assert!(card.body.contains("Nächster Abend"), "{}", card.body);
    assert!(card.body.contains("Du hast noch nicht geantwortet."));
    assert!(card.body.contains("Zum Anker"));

    let form = |yes: &str| encode(&[("datum", date.to_string()), ("kommt", yes.to_string())]);
    let r = t
        .post(&format!("/karte/{token}/zusage"), &form("vielleicht"), None)
        .await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(r.body.contains("weder „ja“ noch „nein“"), "{}", r.body);
    assert!(t.league.planning().by_id(id).unwrap().answers.is_empty());

    let r = t
        .post(&format!("/karte/{token}/zusage"), &form("ja"), None)
        .await;
    assert_eq!(r.status, StatusCode::SEE_OTHER, "{}", r.body);
    let planning = t.league.planning();
    let a = planning.by_id(id).unwrap().answer_of(4).unwrap();
    assert!(a.coming);
    assert_eq!(a.via, Via::Karte);
    let card = t.get(&format!("/karte/{token}"), None).await;
    assert!(card.body.contains("Du hast zugesagt."), "{}", card.body);

    // "Das bin ich" does not overrule his own answer.
    let r = t
        .post(
            &format!("/abend/{date}/zusage"),
            "kommt=nein",
            Some("ich=4"),
        )
        .await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", r.body);
    assert!(
        t.league
            .planning()
            .by_id(id)
            .unwrap()
            .answer_of(4)
            .unwrap()
            .coming
    );

    // His calendar holds the night.
    let ics = t.get(&format!("/karte/{token}/kalender.ics"), None).await;
    assert_eq!(ics.status, StatusCode::OK);
    assert!(ics
        .header(header::CONTENT_TYPE)
        .unwrap()
        .starts_with("text/calendar"));
    let day = date.format("%Y%m%d").to_string();
    assert!(
        ics.body
            .contains(&format!("DTSTART;TZID=Europe/Berlin:{day}T200000")),
        "{}",
        ics.body
    );
    assert!(
        card.body.contains("webcal://liga.test/karte/"),
        "{}",
        card.body
    );
}

/// Fresh-user and hostile trials: the due day may be typed the German way, at most a year ahead;
/// the text names only the ways to pay the club has set up (here none: no GiroCode, no PayPal,
/// and the cards page says why); a first link does not speak of an older one.
#[tokio::test]
async fn the_due_day_is_typed_the_german_way_and_the_text_promises_only_what_the_card_has() {
    let (t, kasse) = league().await;
    let page = t.get("/verwaltung/saison/2026/karten", Some(&kasse)).await;
    assert!(page.body.contains(r#"id="kein-girocode""#), "{}", page.body);
    let r = t
        .post_follow("/verwaltung/saison/2026/karten/4/link", "", &kasse)
        .await;
    assert!(r.body.contains("Karte für Dirk erstellt."), "{}", r.body);
    assert!(!r.body.contains("älter"), "{}", r.body);
    let r = t
        .post_follow("/verwaltung/saison/2026/karten/4/link", "", &kasse)
        .await;
    assert!(
        r.body
            .contains("Neue Karte für Dirk erstellt: der ältere Link gilt nicht mehr."),
        "{}",
        r.body
    );

    let r = t
        .post(
            "/verwaltung/saison/2026/karten/4/erinnern",
            "bis=31.12.9999",
            Some(&kasse),
        )
        .await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(
        r.body.contains("liegt mehr als ein Jahr voraus"),
        "{}",
        r.body
    );
    let r = t
        .post_follow(
            "/verwaltung/saison/2026/karten/4/erinnern",
            "bis=09.01.2027&neuer_link=1",
            &kasse,
        )
        .await;
    assert!(
        r.body.contains("Bitte bis zum 09.01.2027 bezahlen."),
        "{}",
        r.body
    );
    assert!(
        r.body
            .contains("stehen alle Posten: http://liga.test/karte/"),
        "{}",
        r.body
    );
    assert!(
        r.body.contains("der bisherige gilt nicht mehr"),
        "his working link was replaced: {}",
        r.body
    );
    assert!(!r.body.contains("GiroCode und PayPal"), "{}", r.body);
}

#[tokio::test]
async fn next_year_brought_in_ahead_does_not_take_over_his_card() {
    let (t, kasse) = league().await;
    let token = make_card(&t, &kasse).await;
    // The same players a year later, every night ahead of the club's today.
    crate::app::import_next_year_ahead(&t).await;
    let card = t.get(&format!("/karte/{token}"), None).await;
    assert_eq!(card.status, StatusCode::OK, "{}", card.body);
    assert!(card.body.contains("Saison 2026"), "{}", card.body);
    assert!(!card.body.contains("Saison 2027"), "{}", card.body);
}
