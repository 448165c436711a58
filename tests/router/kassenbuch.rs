//! Issue 35.1, 35.2: the Kassenbuch and the Kassenbericht through the router — a season with
//! fees, fines, a payment with Guthaben, the netting and the payouts, three expenses, one
//! donation and one Storno gives a Kassenbericht whose Endbestand equals an oracle over what the
//! test booked and whose league part equals the Jahresabschluss; the Storno leaves both bookings
//! visible; a bad form stores nothing and keeps what was typed; the CSV is for German Excel.

use axum::http::StatusCode;

use crate::app::*;

/// The small season with every night closed and the Kassenwart `kasse` logged in.
async fn league_closed() -> (TestApp, String) {
    let mut file = season_file("small-2026", None);
    for n in &mut file.nights {
        n.closed = true;
    }
    let t = TestApp::builder()
        .staff()
        .account("kasse", "kassenwart")
        .season(file)
        .start()
        .await;
    let kasse = t.login("kasse").await;
    (t, kasse)
}

/// German euros as the pages print them: 1234 → "12,34 €" (no thousands here).
fn euros(cents: i64) -> String {
    let sign = if cents < 0 { "-" } else { "" };
    format!("{sign}{},{:02} €", cents.abs() / 100, cents.abs() % 100)
}

/// The text of the element with `id` in `page` up to its next tag.
fn by_id(page: &str, id: &str) -> String {
    let key = format!(r#"id="{id}">"#);
    let at = page
        .find(&key)
        .unwrap_or_else(|| panic!("no #{id}: {page}"));
    page[at + key.len()..]
        .split('<')
        .next()
        .unwrap()
        .to_string()
}

async fn hand_count(t: &TestApp) -> i64 {
    let (n,): (i64,) = sqlx::query_as("select count(*) from kassenbuch")
        .fetch_one(&t.db.read)
        .await
        .unwrap();
    n
}

/// (day, art, betrag, konto, kategorie, text): what the test books by hand.
const HAND: [(&str, &str, &str, &str, &str, &str); 5] = [
    (
        "2026-03-01",
        "ausgabe",
        "25,00",
        "bar",
        "Anschaffung",
        "Gravur Wanderpokal",
    ),
    (
        "2026-05-01",
        "ausgabe",
        "12,50",
        "bar",
        "Anschaffung",
        "Würfel und Deckel",
    ),
    (
        "2026-06-01",
        "einnahme",
        "50,00",
        "bank",
        "Spende",
        "Sponsor Autohaus",
    ),
    (
        "2026-12-20",
        "ausgabe",
        "60,00",
        "bank",
        "Feier",
        "Weihnachtsfeier",
    ),
    (
        "2026-07-01",
        "ausgabe",
        "9,99",
        "bar",
        "Sonstiges",
        "Tippfehler",
    ),
];

#[tokio::test]
async fn a_season_with_expenses_a_donation_and_a_storno_ends_where_the_oracle_says() {
    let (t, kasse) = league_closed().await;
    // Bernd (2) pays 20,00 € by transfer: his Jahresbeitrag of 15,00 €, 5,00 € Guthaben.
    let r = t
        .post_follow(
            "/verwaltung/saison/2026/zahlung",
            "player=2&amount=20%2C00&paid_on=2026-03-10",
            &kasse,
        )
        .await;
    assert!(r.body.contains("Guthaben 5,00 €"), "{}", r.body);
    // The netting: Dirk's open 0,50 € paid out of his share; the payouts are booked on its day.
    let r = t
        .post_follow(
            "/verwaltung/saison/2026/verrechnung",
            "paid_on=2026-12-26",
            &kasse,
        )
        .await;
    assert!(r.body.contains("Verrechnung gebucht"), "{}", r.body);
    for (day, art, betrag, konto, kategorie, text) in HAND {
        let body = format!(
            "tag={day}&art={art}&betrag={}&konto={konto}&kategorie={kategorie}&text={}",
            betrag.replace(',', "%2C"),
            text.replace(' ', "+")
        );
        let r = t
            .post_follow("/verwaltung/saison/2026/kassenbuch", &body, &kasse)
            .await;
        assert_eq!(r.status, StatusCode::OK, "{}", r.body);
        assert!(r.body.contains(" gebucht: "), "{}", r.body);
    }
    let (tippfehler,): (i64,) =
        sqlx::query_as("select id from kassenbuch where text = 'Tippfehler'")
            .fetch_one(&t.db.read)
            .await
            .unwrap();
    let r = t
        .post_follow(
            "/verwaltung/saison/2026/kassenbuch/storno",
            &format!("buchung={tippfehler}&tag=2026-07-02&grund=doppelt+erfasst"),
            &kasse,
        )
        .await;
    assert!(r.body.contains("storniert durch Beleg"), "{}", r.body);

    // The oracle: the Jahresabschluss's carry-out (fees + fines − places − Lucky Looser),
    // Bernd's Guthaben and the hand bookings as the test wrote them.
    let p = t.get("/api/v1/seasons/2026/payouts", None).await.json();
    let carry_out = p["carry_out_cents"].as_i64().unwrap();
    let hand: i64 = HAND
        .iter()
        .map(|(_, art, betrag, ..)| {
            let cents: i64 = betrag.replace(',', "").parse().unwrap();
            if *art == "ausgabe" {
                -cents
            } else {
                cents
            }
        })
        .sum::<i64>()
        + 999; // the Storno of the Tippfehler
    let oracle = carry_out + 500 + hand;
    let bank = 2000 + 5000 - 6000;

    let page = t
        .get("/verwaltung/saison/2026/kassenbericht", Some(&kasse))
        .await;
    assert_eq!(page.status, StatusCode::OK);
    let page = page.body;
    assert_eq!(by_id(&page, "endbestand"), euros(oracle), "{page}");
    assert_eq!(by_id(&page, "endbestand-bank"), euros(bank));
    assert_eq!(by_id(&page, "endbestand-bar"), euros(oracle - bank));
    assert_eq!(by_id(&page, "anfangsbestand"), euros(0));
    assert!(
        page.contains(r#"class="check-ok">Stimmt: der Endbestand"#),
        "{page}"
    );
    assert!(
        page.contains("Stimmt mit dem Jahresabschluss überein"),
        "{page}"
    );
    let fees = p["fees_cents"].as_i64().unwrap();
    let fines = p["fines_cents"].as_i64().unwrap();
    assert!(page.contains(&format!(
        "Beiträge {}, Strafen {}",
        euros(fees),
        euros(fines)
    )));
    assert!(page.contains("Kassenprüfer") && page.contains(r#"id="geprueft""#));

    // The Storno leaves both bookings visible, each naming the other.
    let book = t
        .get("/verwaltung/saison/2026/kassenbuch", Some(&kasse))
        .await
        .body;
    assert!(
        book.contains("Tippfehler") && book.contains("Storno: Tippfehler"),
        "{book}"
    );
    assert!(book.contains("storniert durch Beleg"), "{book}");
    assert!(book.contains("Storno von Beleg") && book.contains("doppelt erfasst"));
    assert_eq!(hand_count(&t).await, 6);
    // A second Storno of the same booking is refused and stores nothing.
    let r = t
        .post(
            "/verwaltung/saison/2026/kassenbuch/storno",
            &format!("buchung={tippfehler}&tag=2026-07-03&grund=nochmal"),
            Some(&kasse),
        )
        .await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", r.body);
    assert_eq!(hand_count(&t).await, 6);

    // The CSV for German Excel: BOM, `;`, decimal comma.
    let csv = t
        .get("/verwaltung/saison/2026/kassenbericht.csv", Some(&kasse))
        .await;
    assert_eq!(csv.status, StatusCode::OK);
    assert!(csv.bytes.starts_with("\u{feff}".as_bytes()));
    let text = String::from_utf8(csv.bytes[3..].to_vec()).unwrap();
    assert!(
        text.contains("Einnahmen;Spende;0,00;50,00;50,00\r\n"),
        "{text}"
    );
    assert!(
        text.contains("Ausgaben;Feier;0,00;-60,00;-60,00\r\n"),
        "{text}"
    );
    let sign = if oracle < 0 { "-" } else { "" };
    let end = format!("{sign}{},{:02}", oracle.abs() / 100, oracle.abs() % 100);
    assert!(text.contains(&format!(";{end}\r\n")), "{text}");
}

#[tokio::test]
async fn a_bad_booking_stores_nothing_and_keeps_what_was_typed() {
    let (t, kasse) = league_closed().await;
    let cases = [
        (
            "tag=2026-05-01&art=ausgabe&betrag=zwölf&konto=bar&kategorie=Feier&text=Bier",
            "Betrag:",
        ),
        (
            "tag=2026-05-01&art=ausgabe&betrag=12&konto=bar&kategorie=Feier&text=+",
            "Text:",
        ),
        (
            "tag=2031-05-01&art=ausgabe&betrag=12&konto=bar&kategorie=Feier&text=Bier",
            "Tag:",
        ),
        (
            "tag=2026-05-01&art=ausgabe&betrag=12&konto=tresor&kategorie=Feier&text=Bier",
            "Konto:",
        ),
        (
            "tag=2026-05-01&art=ausgabe&betrag=12&konto=bar&kategorie=Bier&text=Bier",
            "Kategorie:",
        ),
    ];
    let before = snapshot(&t.db.write).await;
    for (body, want) in cases {
        let r = t
            .post("/verwaltung/saison/2026/kassenbuch", body, Some(&kasse))
            .await;
        assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY, "{body}");
        assert!(r.body.contains(want), "{body}: {}", r.body);
        assert!(
            r.body.contains(r#"value="2026-05-01""#) || body.contains("2031"),
            "{}",
            r.body
        );
    }
    let r = t
        .post(
            "/verwaltung/saison/2026/kassenbuch/kassensturz",
            "tag=2026-05-01&gezaehlt=viel",
            Some(&kasse),
        )
        .await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(
        r.body.contains("Gezählt:") && r.body.contains(r#"value="viel""#),
        "{}",
        r.body
    );
    assert_eq!(snapshot(&t.db.write).await, before);

    // A Kassensturz records the count and shows the difference to the book's cash.
    let r = t
        .post_follow(
            "/verwaltung/saison/2026/kassenbuch/kassensturz",
            "tag=2026-01-31&gezaehlt=40",
            &kasse,
        )
        .await;
    assert!(
        r.body
            .contains("Kassensturz am 31.01.2026: 40,00 € gezählt"),
        "{}",
        r.body
    );
    // By 31.01.: Carla, Elke and Frank paid 15,00 € each, Dirk's fine of 02.01. 1,00 €.
    assert!(
        r.body.contains("Differenz zum Kassenbuch -6,00 €"),
        "{}",
        r.body
    );
}

#[tokio::test]
async fn the_next_season_starts_with_the_endbestand_and_the_season_file_carries_the_book() {
    let mut old = season_file("small-2026", Some(2025));
    for n in &mut old.nights {
        n.closed = true;
    }
    let t = TestApp::builder()
        .staff()
        .account("kasse", "kassenwart")
        .seasons([old, season_file("small-2026", None)])
        .start()
        .await;
    let kasse = t.login("kasse").await;
    let body = "tag=2025-06-01&art=einnahme&betrag=10&konto=bank&kategorie=Spende&text=Sponsor";
    let r = t
        .post_follow("/verwaltung/saison/2025/kassenbuch", body, &kasse)
        .await;
    assert!(r.body.contains("gebucht"), "{}", r.body);
    let body = "tag=2025-06-02&art=ausgabe&betrag=3&konto=bar&kategorie=Feier&text=Bier";
    t.post_follow("/verwaltung/saison/2025/kassenbuch", body, &kasse)
        .await;
    let (bier,): (i64,) = sqlx::query_as("select id from kassenbuch where text = 'Bier'")
        .fetch_one(&t.db.read)
        .await
        .unwrap();
    let body = format!("buchung={bier}&tag=2025-06-03&grund=falsch");
    t.post_follow("/verwaltung/saison/2025/kassenbuch/storno", &body, &kasse)
        .await;
    t.post_follow(
        "/verwaltung/saison/2025/kassenbuch/kassensturz",
        "tag=2025-06-30&gezaehlt=12",
        &kasse,
    )
    .await;

    // 2025 is over: its payouts are booked on its last night; its Endbestand is its
    // Jahresabschluss's carry-out and the donation.
    let p = t.get("/api/v1/seasons/2025/payouts", None).await.json();
    let end_2025 = p["carry_out_cents"].as_i64().unwrap() + 1000;
    let old_page = t
        .get("/verwaltung/saison/2025/kassenbericht", Some(&kasse))
        .await
        .body;
    assert_eq!(
        by_id(&old_page, "endbestand"),
        euros(end_2025),
        "{old_page}"
    );
    assert!(
        old_page.contains("Stimmt mit dem Jahresabschluss überein"),
        "{old_page}"
    );
    let new_page = t
        .get("/verwaltung/saison/2026/kassenbericht", Some(&kasse))
        .await
        .body;
    // The Anfangsbestand of 2026 was booked when the league opened (2025's Endbestand then,
    // without the donation booked later); the donation reaches 2026 as a visible correction
    // Beleg "Übertrag berichtigt" (docs/kassenbuch.md "Übertrag"): together they carry 2025's
    // Endbestand.
    assert_eq!(
        by_id(&new_page, "anfangsbestand"),
        euros(end_2025 - 1000),
        "{new_page}"
    );
    let book_2026 = t
        .get("/verwaltung/saison/2026/kassenbuch", Some(&kasse))
        .await
        .body;
    assert!(
        book_2026.contains("Übertrag berichtigt: Endbestand 2025 Bank jetzt 10,00 €"),
        "{book_2026}"
    );
    assert!(
        new_page.contains("Stimmt mit dem Jahresabschluss überein"),
        "{new_page}"
    );

    // The season file carries the hand bookings, the Storno and the Kassensturz …
    let file = schockerliga::service::export(&t.db, 2025).await.unwrap();
    let json = serde_json::to_value(&file).unwrap();
    let k = &json["kassenbuch"];
    assert_eq!(k["version"], 1, "{json}");
    assert_eq!(k["bookings"].as_array().map(Vec::len), Some(3), "{k}");
    assert_eq!(k["bookings"][2]["storno_of"], 2);
    assert_eq!(k["bookings"][2]["cents"], 300);
    assert_eq!(k["kassenstuerze"][0]["counted_cents"], 1200);
    // … a season without any leaves the addition out (old readers see the same file) …
    let plain = schockerliga::service::export(&t.db, 2026).await.unwrap();
    assert!(serde_json::to_value(&plain)
        .unwrap()
        .get("kassenbuch")
        .is_none());
    // … and an import of it gives the same book in another league.
    let other = TestApp::builder()
        .staff()
        .account("kasse", "kassenwart")
        .season(file.clone())
        .start()
        .await;
    let k2 = other.login("kasse").await;
    let page = other
        .get("/verwaltung/saison/2025/kassenbuch", Some(&k2))
        .await
        .body;
    assert!(
        page.contains("storniert durch Beleg") && page.contains("Sponsor"),
        "{page}"
    );
    let again = schockerliga::service::export(&other.db, 2025)
        .await
        .unwrap();
    assert_eq!(again.kassenbuch, file.kassenbuch);
    // An old file (without the addition) imported over the season keeps its book.
    let mut old_file = file.clone();
    old_file.kassenbuch = None;
    schockerliga::service::import(&other.db, &old_file, true)
        .await
        .unwrap();
    assert_eq!(hand_count(&other).await, 3);
}

/// The 35 trials: a hand booking under a league category (Beitrag, Strafe, Auszahlung, Guthaben)
/// made the report say "stimmt mit dem Jahresabschluss" beside figures that did not; a booking, a
/// Storno or a Kassensturz dated after the club's today, a Storno before its booking, a Storno
/// reason of 5000 characters were stored. Each is refused, naming the field; nothing is stored.
#[tokio::test]
async fn league_categories_future_days_and_early_stornos_are_refused() {
    let (t, kasse) = league_closed().await;
    let body = "tag=2026-06-01&art=ausgabe&betrag=3&konto=bar&kategorie=Feier&text=Bier";
    let r = t
        .post_follow("/verwaltung/saison/2026/kassenbuch", body, &kasse)
        .await;
    assert!(r.body.contains(" gebucht: "), "{}", r.body);
    let (bier,): (i64,) = sqlx::query_as("select id from kassenbuch where text = 'Bier'")
        .fetch_one(&t.db.read)
        .await
        .unwrap();
    let before = snapshot(&t.db.write).await;
    let long = "x".repeat(201);
    let cases = [
        (
            "/verwaltung/saison/2026/kassenbuch".to_string(),
            "tag=2026-06-01&art=einnahme&betrag=10&konto=bar&kategorie=Beitrag&text=Beitrag"
                .to_string(),
            "Kategorie: Beitrag bucht die Liga selbst",
        ),
        (
            "/verwaltung/saison/2026/kassenbuch".to_string(),
            "tag=2026-06-01&art=ausgabe&betrag=10&konto=bar&kategorie=Auszahlung&text=Preis"
                .to_string(),
            "Kategorie: Auszahlung bucht die Liga selbst",
        ),
        (
            "/verwaltung/saison/2026/kassenbuch".to_string(),
            "tag=2026-12-27&art=ausgabe&betrag=10&konto=bar&kategorie=Feier&text=Feier".to_string(),
            "Tag: 27.12.2026 liegt nach heute (26.12.2026)",
        ),
        (
            "/verwaltung/saison/2026/kassenbuch/storno".to_string(),
            format!("buchung={bier}&tag=2026-05-31&grund=falsch"),
            "Tag: ein Storno liegt nicht vor seiner Buchung (01.06.2026)",
        ),
        (
            "/verwaltung/saison/2026/kassenbuch/storno".to_string(),
            format!("buchung={bier}&tag=2027-01-02&grund=falsch"),
            "Tag: 02.01.2027 liegt nach heute (26.12.2026)",
        ),
        (
            "/verwaltung/saison/2026/kassenbuch/storno".to_string(),
            format!("buchung={bier}&tag=2026-06-02&grund={long}"),
            "Grund: höchstens 200 Zeichen",
        ),
        (
            "/verwaltung/saison/2026/kassenbuch/kassensturz".to_string(),
            "tag=2027-12-31&gezaehlt=40".to_string(),
            "Tag: 31.12.2027 liegt nach heute (26.12.2026)",
        ),
    ];
    for (uri, body, want) in cases {
        let r = t.post(&uri, &body, Some(&kasse)).await;
        assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY, "{uri} {body}");
        assert!(r.body.contains(want), "{uri} {body}: {}", r.body);
        assert_eq!(snapshot(&t.db.write).await, before, "{uri} {body}");
    }
}
