//! The treasurer and the accounts (issue: Kassenwart): payments on their day against the oldest
//! open items, the money card with its GiroCode (decoded back from the served SVG), the netting of
//! the Jahresabschluss, "Kasse nur für Mitglieder" across every public route, and accounts that
//! change their own password or use a one-time reset link.

use std::process::Command;

use axum::http::{header, StatusCode};
use schockerliga::web::Guard;

use crate::app::*;

/// The small fixture season, the admin, the secretary and a Kassenwart `kasse`.
/// The small season with the Kassenwart `kasse` logged in (also tests/router/cards.rs).
pub(crate) async fn league() -> (TestApp, String) {
    let t = TestApp::builder()
        .staff()
        .account("kasse", "kassenwart")
        .season(season_file("small-2026", None))
        .start()
        .await;
    let kasse = t.login("kasse").await;
    (t, kasse)
}

/// The small season with every night closed (the netting is the season's last act, league.md
/// §11) and the Kassenwart `kasse` logged in.
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

async fn fine_row(t: &TestApp, id: i64) -> (bool, Option<String>, bool) {
    sqlx::query_as("select paid, paid_on, netted from fines where id = ?")
        .bind(id)
        .fetch_one(&t.db.read)
        .await
        .unwrap()
}

#[tokio::test]
async fn payments_are_booked_on_their_day_against_the_oldest_open_items() {
    let (t, kasse) = league().await;
    let page = t
        .get("/verwaltung/saison/2026/zahlungen", Some(&kasse))
        .await;
    assert_eq!(page.status, StatusCode::OK);
    assert!(
        page.body.contains("Schock-Schlafmütze am 06.03.2026"),
        "{}",
        page.body
    );

    // A bad amount is refused, the form keeps what was typed, nothing is stored.
    let before = snapshot(&t.db.write).await;
    let body = "player=4&amount=1%2C0x&paid_on=2026-11-30";
    let r = t
        .post("/verwaltung/saison/2026/zahlung", body, Some(&kasse))
        .await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(r.body.contains("Betrag: "), "{}", r.body);
    assert!(r.body.contains(r#"value="1,0x""#) && r.body.contains(r#"value="2026-11-30""#));
    assert_eq!(snapshot(&t.db.write).await, before);

    // Dirk (id 4) owes 0,50 € and pays 1,00 € (issue 34.1: once refused as "mehr als offen"):
    // the fine is paid whole, 0,50 € is his Guthaben, outside the pot.
    let body = "player=4&amount=1%2C00&paid_on=2026-11-30";
    let r = t
        .post_follow("/verwaltung/saison/2026/zahlung", body, &kasse)
        .await;
    assert!(
        r.body.contains(
            "Zahlung gebucht am 30.11.2026: 1,00 € von Dirk: bezahlt Schock-Schlafmütze am \
             06.03.2026 (0,50 €); Guthaben 0,50 €."
        ),
        "{}",
        r.body
    );
    assert_eq!(
        fine_row(&t, 2).await,
        (true, Some("2026-11-30".into()), false)
    );

    // A fine booked later and paid on another day than its night.
    let body = "date=2026-12-25&player=Anna&kind=late&paid=on&paid_on=2026-12-27";
    let r = t
        .post_follow("/verwaltung/saison/2026/strafe", body, &kasse)
        .await;
    assert!(r.body.contains("bezahlt am 27.12.2026"), "{}", r.body);
    let (id,): (i64,) = sqlx::query_as("select max(id) from fines")
        .fetch_one(&t.db.read)
        .await
        .unwrap();
    assert_eq!(
        fine_row(&t, id).await,
        (true, Some("2026-12-27".into()), false)
    );
    // Paid before its night: refused.
    let body = "date=2026-12-25&player=Anna&kind=sleepy&paid=on&paid_on=2026-12-01";
    let r = t
        .post("/verwaltung/saison/2026/strafe", body, Some(&kasse))
        .await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(r.body.contains("liegt vor dem Abend"), "{}", r.body);

    // The Kasse counts income by payment day; income + open = everything booked.
    let kasse_page = t.get("/saison/2026/kasse", None).await.body;
    assert!(kasse_page.contains("Einnahmen nach Zahltag"));
    assert!(
        kasse_page.contains("<td>30.11.2026</td>") && kasse_page.contains("<td>27.12.2026</td>")
    );
    assert!(
        kasse_page.contains("84,00 € eingenommen + 0,00 € offen = 84,00 € gebucht"),
        "{kasse_page}"
    );

    // The season file carries paid_on and reads back to the same file.
    let file = schockerliga::service::export(&t.db, 2026).await.unwrap();
    let json = serde_json::to_value(&file).unwrap();
    assert_eq!(json["nights"][2]["fines"][0]["paid_on"], "2026-11-30");
    assert!(
        json["nights"][0]["fines"][0].get("paid_on").is_none(),
        "paid at the night"
    );
    let again = TestApp::with_seasons(std::slice::from_ref(&file)).await;
    assert_eq!(
        schockerliga::service::export(&again.db, 2026)
            .await
            .unwrap(),
        file
    );
}

/// The dark modules of a served GiroCode SVG (`M{x} {y}h{w}v{h}H{x}V{y}` rectangles) as a
/// greyscale picture, 4 pixels per unit, and the text rqrr reads from it.
fn decode_svg(svg: &str) -> String {
    let d = svg
        .split(" d=\"")
        .nth(1)
        .unwrap()
        .split('"')
        .next()
        .unwrap();
    let width: usize = svg
        .split("width=\"")
        .nth(1)
        .unwrap()
        .split('"')
        .next()
        .unwrap()
        .parse()
        .unwrap();
    let scale = 4;
    let size = width * scale;
    let mut dark = vec![false; size * size];
    for rect in d.split('M').filter(|s| !s.is_empty()) {
        let nums: Vec<usize> = rect
            .split(|c: char| !c.is_ascii_digit())
            .filter(|s| !s.is_empty())
            .map(|s| s.parse().unwrap())
            .collect();
        let (x, y, w, h) = (nums[0], nums[1], nums[2], nums[3]);
        for yy in y * scale..(y + h) * scale {
            for xx in x * scale..(x + w) * scale {
                dark[yy * size + xx] = true;
            }
        }
    }
    let mut img = rqrr::PreparedImage::prepare_from_greyscale(size, size, |x, y| {
        if dark[y * size + x] {
            0
        } else {
            255
        }
    });
    let grids = img.detect_grids();
    assert_eq!(grids.len(), 1, "one QR code");
    grids[0].decode().unwrap().1
}

#[tokio::test]
async fn the_money_card_shows_a_girocode_that_decodes_to_the_epc_text() {
    let (t, _) = league().await;
    let admin = t.login(ADMIN).await;
    let before = snapshot(&t.db.write).await;
    let bad = "account_name=Schockerliga+e.V.&iban=DE88+3704+0044+0532+0130+00&bic=&paypal_me=";
    let r = t.post("/verwaltung/einstellungen", bad, Some(&admin)).await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(r.body.contains("Prüfziffern stimmen nicht"), "{}", r.body);
    assert!(
        r.body.contains(r#"value="DE88 3704 0044 0532 0130 00""#),
        "typed kept"
    );
    assert_eq!(snapshot(&t.db.write).await, before, "nothing stored");
    let good = "account_name=Schockerliga+e.V.&iban=de89+3704+0044+0532+0130+00&bic=cobadeffxxx&paypal_me=paypal.me%2Fschockerliga";
    let r = t
        .post_follow("/verwaltung/einstellungen", good, &admin)
        .await;
    assert!(r.body.contains("Einstellungen gespeichert"), "{}", r.body);

    // Dirk (players.id 4) owes 0,50 €.
    let page = t.get("/saison/2026/spieler/4", None).await;
    assert_eq!(page.status, StatusCode::OK);
    let body = page.body;
    for part in [
        "Schock-Schlafmütze am 06.03.2026",
        r#"id="open-sum">0,50 €"#,
        "https://paypal.me/schockerliga/0.50EUR",
        "IBAN DE89 3704 0044 0532 0130 00",
        "Schockerliga 2026 Dirk",
        // Issue 34.2: his ISO 11649 reference of the season (players.id 4), in groups of four.
        r#"<span id="rf">RF53 2026 4</span>"#,
        "Zuspätkommer am 02.01.2026",
    ] {
        assert!(body.contains(part), "money card lacks {part:?}");
    }
    let start = body.find("<svg class=\"girocode\"").expect("GiroCode");
    let svg = &body[start..start + body[start..].find("</svg>").unwrap() + 6];
    assert!(!svg.to_lowercase().contains("style"), "no style in the SVG");
    // Issue 34.2: the GiroCode carries the open sum and the RF reference in the structured line;
    // the unstructured line is then empty (EPC069-12), the free text stays on the card above.
    let want = "BCD\n002\n1\nSCT\nCOBADEFFXXX\nSchockerliga e.V.\nDE89370400440532013000\nEUR0.50\n\nRF5320264";
    assert_eq!(decode_svg(svg), want);
    assert!(schockerliga::league::money::reference::is_valid(
        "RF5320264"
    ));

    // Nothing open: no GiroCode, but what he paid.
    let frank = t.get("/saison/2026/spieler/6", None).await.body;
    assert!(
        frank.contains("Nichts offen.") && !frank.contains("girocode\""),
        "{frank}"
    );
}

#[tokio::test]
async fn the_netting_pays_the_winners_fines_out_of_their_shares() {
    let (t, kasse) = league_closed().await;
    let page = t.get("/saison/2026/abschluss", Some(&kasse)).await.body;
    assert!(
        page.contains("Vorschau:") && page.contains("Verrechnung buchen"),
        "{page}"
    );
    // Preview: Dirk (2nd, 25 %) owes 0,50 €; with it the pot is 73,00 €, his share 18,25 €.
    assert!(
        page.contains("<td>Dirk</td><td class=\"num\">18,25 €</td><td class=\"num\">0,50 €</td>"),
        "{page}"
    );
    let public = t.get("/saison/2026/abschluss", None).await.body;
    assert!(!public.contains("Verrechnung buchen"));

    let r = t
        .post_follow(
            "/verwaltung/saison/2026/verrechnung",
            "paid_on=2026-12-26",
            &kasse,
        )
        .await;
    assert!(r.body.contains("Verrechnung gebucht: 0,50 €"), "{}", r.body);
    assert_eq!(
        fine_row(&t, 2).await,
        (true, Some("2026-12-26".into()), true)
    );
    let p = t.get("/api/v1/seasons/2026/payouts", None).await.json();
    assert_eq!(
        (p["fines_cents"].as_i64(), p["pot_cents"].as_i64()),
        (Some(800), Some(7300))
    );
    assert_eq!(p["open_fines_cents"], 0);
    assert_eq!(p["places"][1]["players"][0], "Dirk");
    assert_eq!(p["places"][1]["cents"][0], 1825);
    let cents = |v: &serde_json::Value| {
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
        .map(|x| cents(&x["cents"]))
        .sum();
    assert_eq!(
        places + cents(&p["lucky_looser"]["cents"]) + p["carry_out_cents"].as_i64().unwrap(),
        p["fees_cents"].as_i64().unwrap()
            + p["fines_cents"].as_i64().unwrap()
            + p["carry_in_cents"].as_i64().unwrap()
    );
    let page = t.get("/saison/2026/abschluss", Some(&kasse)).await.body;
    assert!(page.contains("<td>Dirk</td><td class=\"num\">18,25 €</td><td class=\"num\">0,50 €</td><td class=\"num wide\">–</td><td class=\"num\">17,75 €</td>"), "{page}");
    assert!(page.contains("Stimmt: jeder Cent ist verteilt."));
    assert!(
        page.contains(
            "davon 49,65 € ausgezahlt + 0,50 € verrechnet = 50,15 € Plätze und Lucky Looser"
        ),
        "{page}"
    );
    let r = t
        .post(
            "/verwaltung/saison/2026/verrechnung",
            "paid_on=2026-12-26",
            Some(&kasse),
        )
        .await;
    // Refused as every form is (issue 20): the Jahresabschluss again, 422, the reason at the top.
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(r.body.contains("Nichts zu verrechnen"));
    assert!(r.body.contains("Jahresabschluss"), "{}", r.body);
}

/// Issue 21.7: before the netting, the places name the share the netting pays from (they showed
/// 18,13 € for Dirk beside 18,25 € in the netting preview, unexplained); the page is final once
/// the netting is booked after the last night, not only from 1 January.
#[tokio::test]
async fn one_payout_per_player_before_the_netting_and_final_once_it_is_booked() {
    use chrono::Datelike;
    let (t, kasse) = league_closed().await;
    let page = t.get("/saison/2026/abschluss", Some(&kasse)).await.body;
    let at = page
        .find("<td>Dirk</td><td class=\"num\">25 %")
        .expect("Dirk's place");
    let row = &page[at..at + page[at..].find("</tr>").unwrap()];
    // Today's pot 72,50 € gives 18,13 €; the netting's figure (18,25 €) is named beside it, the
    // same the netting table pays from.
    assert!(
        row.ends_with(
            "<br><span class=\"muted mit-verrechnung\">mit Verrechnung 18,25 €</span></td>"
        ),
        "{row}"
    );
    assert!(
        page.contains("<td>Dirk</td><td class=\"num\">18,25 €</td><td class=\"num\">0,50 €</td>"),
        "{page}"
    );
    assert!(page.contains("id=\"mit-verrechnung\""), "{page}");
    let before_new_year = crate::app::club_today().year() <= 2026;
    if before_new_year {
        assert!(
            page.contains("Vorläufig: Stand nach dem Abend vom 25.12.2026. Endgültig, sobald nach dem letzten Abend der Saison die Verrechnung gebucht ist"),
            "{page}"
        );
    }
    let r = t
        .post_follow(
            "/verwaltung/saison/2026/verrechnung",
            "paid_on=2026-12-26",
            &kasse,
        )
        .await;
    assert!(r.body.contains("Verrechnung gebucht"), "{}", r.body);
    let page = t.get("/saison/2026/abschluss", None).await.body;
    assert!(
        page.contains("Endgültig: nach dem letzten Abend vom 25.12.2026."),
        "{page}"
    );
    assert!(!page.contains("id=\"mit-verrechnung\""), "{page}");
    let at = page
        .find("<td>Dirk</td><td class=\"num\">25 %")
        .expect("Dirk's place");
    let row = &page[at..at + page[at..].find("</tr>").unwrap()];
    assert!(row.ends_with("<td class=\"num\">18,25 €</td>"), "{row}");
}

/// Issue 33.5: the Strafen page offers closed nights, so it carries the Korrektur box and its
/// reason: booking there on a closed night is refused without them (the form keeps what was
/// typed, nothing stored) and goes through with them, audited with the reason.
#[tokio::test]
async fn the_strafen_page_books_a_fine_on_a_closed_night_as_a_korrektur() {
    let (t, kasse) = league_closed().await;
    let page = t.get("/verwaltung/saison/2026/strafen", Some(&kasse)).await;
    assert_eq!(page.status, StatusCode::OK);
    let form = page
        .body
        .split("action=\"/verwaltung/saison/2026/strafe\"")
        .nth(1)
        .unwrap();
    let form = form.split("</form>").next().unwrap();
    assert!(
        form.contains("name=\"korrektur\"") && form.contains("name=\"korrektur_grund\""),
        "{form}"
    );
    assert!(form.contains("25.12.2026 (abgeschlossen)"), "{form}");

    let before = snapshot(&t.db.write).await;
    let body = "date=2026-12-25&player=Anna&kind=late";
    let r = t
        .post("/verwaltung/saison/2026/strafe", body, Some(&kasse))
        .await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", r.body);
    assert!(
        r.body.contains("Häkchen „Korrektur“ und Grund"),
        "{}",
        r.body
    );
    assert_eq!(snapshot(&t.db.write).await, before, "nothing stored");
    // The box without a reason: refused, the box kept ticked.
    let r = t
        .post(
            "/verwaltung/saison/2026/strafe",
            &format!("{body}&korrektur=on&korrektur_grund="),
            Some(&kasse),
        )
        .await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", r.body);
    assert!(r.body.contains("braucht einen Grund"), "{}", r.body);
    assert!(
        r.body.contains("name=\"korrektur\" value=\"on\" checked"),
        "{}",
        r.body
    );
    assert_eq!(snapshot(&t.db.write).await, before, "nothing stored");

    let r = t
        .post_follow(
            "/verwaltung/saison/2026/strafe",
            &format!("{body}&korrektur=on&korrektur_grund=Zu+sp%C3%A4t+nachgetragen"),
            &kasse,
        )
        .await;
    assert!(
        r.body
            .contains("Strafe gebucht: Anna, Zuspätkommer am 25.12.2026 (offen)."),
        "{}",
        r.body
    );
    let (n,): (i64,) = sqlx::query_as(
        "select count(*) from fines f join nights n on n.id = f.night_id
         where n.date = '2026-12-25'",
    )
    .fetch_one(&t.db.read)
    .await
    .unwrap();
    assert_eq!(n, 1);
    let (action,): (String,) = sqlx::query_as(
        "select action from audit_log where action like 'Korrektur eines abgeschlossenen%'",
    )
    .fetch_one(&t.db.read)
    .await
    .unwrap();
    assert!(action.contains("Zu spät nachgetragen"), "{action}");
}

/// Every public GET route of the route table with every concrete value the fixture has.
fn public_uris() -> Vec<String> {
    let nights = [
        "2026-01-02",
        "2026-02-06",
        "2026-03-06",
        "2026-04-10",
        "2026-05-15",
        "2026-06-12",
        "2026-07-17",
        "2026-08-14",
        "2026-09-18",
        "2026-10-23",
        "2026-11-20",
        "2026-12-25",
    ];
    let mut uris = Vec::new();
    for r in schockerliga::web::route_table() {
        if r.guard != Guard::Public || r.method != "GET" {
            continue;
        }
        let mut todo = vec![r.path.to_string()];
        let mut done = Vec::new();
        while let Some(u) = todo.pop() {
            if u.contains("{date}") {
                todo.extend(nights.iter().map(|d| u.replacen("{date}", d, 1)));
            } else if u.contains("{id}") {
                todo.extend((1..=6).map(|i| u.replacen("{id}", &i.to_string(), 1)));
            } else if u.contains("{year}") || u.contains("{season}") {
                todo.push(u.replace("{year}", "2026").replace("{season}", "2026"));
            } else if u.contains('{') {
                todo.push(u.split('{').next().unwrap().to_string() + "1");
            } else {
                done.push(u);
            }
        }
        uris.extend(done);
    }
    uris
}

#[tokio::test]
async fn with_private_money_no_anonymous_response_shows_a_name_next_to_an_amount() {
    let (t, _) = league().await;
    let admin = t.login(ADMIN).await;
    // Public by default; the page cache keeps the anonymous Kasse.
    for _ in 0..2 {
        let r = t.get("/saison/2026/kasse", None).await;
        assert_eq!(r.status, StatusCode::OK);
        assert!(r.body.contains("Dirk") && r.body.contains('€'));
    }
    let r = t
        .post_follow("/verwaltung/einstellungen", "money_private=1", &admin)
        .await;
    assert!(r.body.contains("nur für Mitglieder sichtbar"), "{}", r.body);

    let names = ["Anna", "Bernd", "Carla", "Dirk", "Elke", "Frank"];
    let uris = public_uris();
    assert!(uris.len() > 30, "{} URIs", uris.len());
    for uri in &uris {
        let r = t.get(uri, None).await;
        let named = names.iter().any(|n| r.body.contains(n));
        let money = r.body.contains('€') || r.body.contains("cents") || r.body.contains("EUR");
        assert!(
            !(named && money),
            "anonymous {uri} ({}) shows names with amounts",
            r.status
        );
    }
    assert!(
        t.get("/saison/2026/kasse", None).await.is_login_redirect(),
        "not from the cache"
    );
    assert!(t
        .get("/saison/2026/kasse.csv", None)
        .await
        .is_login_redirect());
    let api = t.get("/api/v1/seasons/2026/payouts", None).await;
    assert_eq!(api.status, StatusCode::FORBIDDEN);
    assert!(api.json()["error"]
        .as_str()
        .unwrap()
        .contains("nur für Mitglieder"));

    // Logged in, everything is there, and marked for no cache.
    let kasse = t.get("/saison/2026/kasse", Some(&admin)).await;
    assert_eq!(kasse.status, StatusCode::OK);
    assert!(kasse.body.contains("Dirk") && kasse.body.contains('€'));
    assert_eq!(
        kasse.header(header::CACHE_CONTROL),
        Some("private, no-store")
    );
    let card = t.get("/saison/2026/spieler/4", Some(&admin)).await.body;
    assert!(card.contains(r#"id="open-sum">0,50 €"#));
    assert_eq!(
        t.get("/api/v1/seasons/2026/payouts", Some(&admin))
            .await
            .status,
        StatusCode::OK
    );

    // Public again: the anonymous Kasse is back.
    t.post("/verwaltung/einstellungen", "", Some(&admin)).await;
    assert_eq!(
        t.get("/saison/2026/kasse", None).await.status,
        StatusCode::OK
    );
}

async fn user_id(t: &TestApp, name: &str) -> i64 {
    let (id,): (i64,) = sqlx::query_as("select id from users where username = ?")
        .bind(name)
        .fetch_one(&t.db.read)
        .await
        .unwrap();
    id
}

#[tokio::test]
async fn accounts_change_their_password_and_admins_issue_one_time_links() {
    let t = TestApp::staffed().await;
    let here = t.login(SECRETARY).await;
    let phone = t.login(SECRETARY).await;
    let cases = [
        (
            "old=falsch123&password=neuesPasswort9&password2=neuesPasswort9",
            "bisherige Passwort stimmt nicht",
        ),
        (
            "old=geheim123&password=Schrift2026&password2=Schrift2026",
            "den Namen des Kontos nicht enthalten",
        ),
        (
            "old=geheim123&password=kurz&password2=kurz",
            "mindestens 8 Zeichen",
        ),
        (
            "old=geheim123&password=neuesPasswort9&password2=neuesPasswort8",
            "stimmen nicht überein",
        ),
    ];
    let before = snapshot(&t.db.write).await;
    for (body, why) in cases {
        let r = t.post("/verwaltung/passwort", body, Some(&here)).await;
        assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY, "{body}");
        assert!(r.body.contains(why), "{body}: {}", r.body);
    }
    assert_eq!(snapshot(&t.db.write).await, before);
    let r = t
        .post(
            "/verwaltung/passwort",
            "old=geheim123&password=neuesPasswort9&password2=neuesPasswort9",
            Some(&here),
        )
        .await;
    assert_eq!(r.status, StatusCode::SEE_OTHER);
    let here = r.cookie().unwrap_or(here);
    assert_eq!(
        t.get("/verwaltung", Some(&here)).await.status,
        StatusCode::OK,
        "this session stays"
    );
    assert!(
        t.get("/verwaltung", Some(&phone)).await.is_login_redirect(),
        "the other one ends"
    );
    let old = t
        .post(
            "/login",
            &format!("username={SECRETARY}&password={PASSWORD}"),
            None,
        )
        .await;
    assert_eq!(old.status, StatusCode::UNAUTHORIZED);
    let new = t
        .post(
            "/login",
            &format!("username={SECRETARY}&password=neuesPasswort9"),
            None,
        )
        .await;
    assert_eq!(new.status, StatusCode::SEE_OTHER);

    // A one-time reset link from the admin: shown once, stored hashed, 24 hours, once.
    let admin = t.login(ADMIN).await;
    let id = user_id(&t, SECRETARY).await;
    let r = t
        .post(
            &format!("/verwaltung/konten/{id}/zuruecksetzen"),
            "",
            Some(&admin),
        )
        .await;
    assert_eq!(r.status, StatusCode::OK);
    assert_eq!(r.header(header::CACHE_CONTROL), Some("no-store"));
    let link = r
        .body
        .split(r#"id="reset-link">"#)
        .nth(1)
        .unwrap()
        .split('<')
        .next()
        .unwrap()
        .to_string();
    assert!(
        link.starts_with("http://liga.test/passwort/zuruecksetzen?token="),
        "{link}"
    );
    let token = link.split("token=").nth(1).unwrap().to_string();
    let (stored,): (String,) =
        sqlx::query_as("select token_hash from password_resets where user_id = ?")
            .bind(id)
            .fetch_one(&t.db.read)
            .await
            .unwrap();
    assert_ne!(stored, token);
    assert_eq!(stored, schockerliga::service::accounts::token_hash(&token));

    let uri = format!("/passwort/zuruecksetzen?token={token}");
    let form = t.get(&uri, None).await;
    assert_eq!(form.status, StatusCode::OK);
    assert!(form.body.contains("Neues Passwort für schrift"));
    let r = t
        .post(
            "/passwort/zuruecksetzen",
            &format!("token={token}&password=schrift99&password2=schrift99"),
            None,
        )
        .await;
    assert_eq!(
        r.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "name in the password; the link still works"
    );
    let r = t
        .post(
            "/passwort/zuruecksetzen",
            &format!("token={token}&password=andersWo77&password2=andersWo77"),
            None,
        )
        .await;
    assert_eq!(r.status, StatusCode::SEE_OTHER);
    assert_eq!(r.location(), Some("/verwaltung"));
    assert!(
        t.get("/verwaltung", Some(&here)).await.is_login_redirect(),
        "every old session ends"
    );
    let used = t.get(&uri, None).await;
    assert_eq!(used.status, StatusCode::NOT_FOUND, "used once");
    assert!(
        used.body.contains("abgelaufen oder wurde schon benutzt"),
        "{}",
        used.body
    );
    let r = t
        .post(
            "/passwort/zuruecksetzen",
            &format!("token={token}&password=nochmal777&password2=nochmal777"),
            None,
        )
        .await;
    assert_eq!(r.status, StatusCode::NOT_FOUND);
    assert!(r.body.contains("abgelaufen oder wurde schon benutzt"));

    // An expired link is dead; the command line prints a working one.
    let out = Command::new(env!("CARGO_BIN_EXE_schockerliga"))
        .args(["user", "reset", SECRETARY, "--database"])
        .arg(&t.path)
        .env_remove("DATABASE_URL")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let printed = String::from_utf8(out.stdout).unwrap();
    let token = printed.trim().split("token=").nth(1).unwrap().to_string();
    assert!(
        printed.starts_with("http://127.0.0.1:3000/passwort/zuruecksetzen?token="),
        "{printed}"
    );
    let uri = format!("/passwort/zuruecksetzen?token={token}");
    assert_eq!(t.get(&uri, None).await.status, StatusCode::OK);
    sqlx::query(
        "update password_resets set expires_at = strftime('%s', 'now') - 1 where used_at is null",
    )
    .execute(&t.db.write)
    .await
    .unwrap();
    assert_eq!(
        t.get(&uri, None).await.status,
        StatusCode::NOT_FOUND,
        "expired"
    );

    // The admin creates a Kassenwart; a password equal to the name is refused.
    let r = t
        .post(
            "/verwaltung/konten",
            "username=kasse&password=kasse&password2=kasse&role=kassenwart",
            Some(&admin),
        )
        .await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY);
    let r = t
        .post(
            "/verwaltung/konten",
            "username=kasse&password=geheim123&password2=geheim123&role=kassenwart",
            Some(&admin),
        )
        .await;
    assert_eq!(r.status, StatusCode::SEE_OTHER);
    let login = t
        .post("/login", "username=kasse&password=geheim123", None)
        .await;
    assert_eq!(login.location(), Some("/verwaltung/kasse"));
}

/// Sixth trial: after the last join day (30.09.) the Zahlungen page offered every player without
/// a Jahresbeitrag "Jahresbeitrag bezahlt am [heute] – Beitrag buchen", which is always refused,
/// and called it "offen". The field is empty then and takes only the days a fee could be paid;
/// the line says there is none and until when one could be paid.
#[tokio::test]
async fn after_the_last_join_day_the_fee_form_offers_no_day_it_would_refuse() {
    let (t, kasse) = league().await;
    let page = t
        .get("/verwaltung/saison/2026/zahlungen", Some(&kasse))
        .await
        .body;
    let bernd = page
        .split("class=\"spieler-kopf\">")
        .find(|p| p.starts_with("Bernd "))
        .unwrap();
    assert!(
        bernd.contains("Jahresbeitrag keiner (Beitritt nur bis 30.09.2026)"),
        "{bernd}"
    );
    assert!(
        bernd.contains("name=\"paid_on\" value=\"\" min=\"2026-01-01\" max=\"2026-09-30\""),
        "{bernd}"
    );
    // A booked fee keeps its day.
    let anna = page
        .split("class=\"spieler-kopf\">")
        .find(|p| p.starts_with("Anna "))
        .unwrap();
    assert!(
        anna.contains("value=\"2026-02-03\" min=\"2026-01-01\""),
        "{anna}"
    );
}
