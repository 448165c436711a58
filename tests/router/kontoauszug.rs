//! Issue 34.3 in the Kassenwart's pages: the bank statement uploaded, previewed (nothing stored,
//! the unmatched credits with a suggestion and an empty select), confirmed with the Kassenwart's
//! choices (one Protokoll line each, all booked through the payment rule), read again (nothing
//! booked twice: "0 neue Buchungen, 6 schon eingelesen"); a refused file names its line and
//! element and stores nothing; the Jahresabschluss still adds up.

use axum::body::Body;
use axum::http::{header, StatusCode};

use crate::app::{req, snapshot, Reply, TestApp, HOST};
use crate::common::fixture;
use crate::treasurer::league;

const BOUNDARY: &str = "----schockerliga-kontoauszug-test";

async fn upload(t: &TestApp, name: &str, bytes: &[u8], once: &str, cookie: &str) -> Reply {
    let mut body = Vec::new();
    body.extend_from_slice(
        format!(
            "--{BOUNDARY}\r\nContent-Disposition: form-data; name=\"einmal\"\r\n\r\n\
             {once}\r\n--{BOUNDARY}\r\nContent-Disposition: form-data; name=\"datei\"; \
             filename=\"{name}\"\r\nContent-Type: application/octet-stream\r\n\r\n"
        )
        .as_bytes(),
    );
    body.extend_from_slice(bytes);
    body.extend_from_slice(format!("\r\n--{BOUNDARY}--\r\n").as_bytes());
    let r = req("POST", "/verwaltung/saison/2026/kontoauszug")
        .header(
            header::CONTENT_TYPE,
            format!("multipart/form-data; boundary={BOUNDARY}"),
        )
        .header(header::ORIGIN, format!("http://{HOST}"))
        .header("sec-fetch-site", "same-origin")
        .header(header::COOKIE, cookie)
        .body(Body::from(body))
        .unwrap();
    t.send(r).await
}

fn digest_of(page: &str) -> String {
    let key = "name=\"digest\" value=\"";
    let at = page
        .find(key)
        .unwrap_or_else(|| panic!("no digest: {page}"));
    let rest = &page[at + key.len()..];
    rest[..rest.find('"').unwrap()].to_string()
}

async fn audit_payments(t: &TestApp) -> i64 {
    let (n,): (i64,) =
        sqlx::query_as("select count(*) from audit_log where action like 'Zahlung von %'")
            .fetch_one(&t.db.read)
            .await
            .unwrap();
    n
}

#[tokio::test]
async fn a_statement_is_previewed_then_booked_once_with_the_kassenwarts_choices() {
    let (t, kasse) = league().await;
    let zahlungen = t
        .get("/verwaltung/saison/2026/zahlungen", Some(&kasse))
        .await;
    assert!(zahlungen
        .body
        .contains("href=\"/verwaltung/saison/2026/kontoauszug\""));
    let form = t
        .get("/verwaltung/saison/2026/kontoauszug", Some(&kasse))
        .await;
    assert_eq!(form.status, StatusCode::OK);
    assert!(form.body.contains("enctype=\"multipart/form-data\""));

    let bytes = std::fs::read(fixture("kontoauszug/maerz-2026.camt053.001.08.xml")).unwrap();
    let before = snapshot(&t.db.write).await;
    let preview = upload(&t, "maerz.xml", &bytes, "k-1", &kasse).await;
    assert_eq!(preview.status, StatusCode::OK, "{}", preview.body);
    assert_eq!(
        snapshot(&t.db.write).await,
        before,
        "the preview stores nothing"
    );
    let p = &preview.body;
    assert!(p.contains("CAMT.053.001.08"), "{p}");
    assert!(
        p.contains("6 Gutschriften, davon 0 schon eingelesen; 4 würden jetzt gebucht."),
        "{p}"
    );
    assert!(p.contains("Zuordnung: Referenz"), "{p}");
    assert!(
        p.contains("Bezahlt Schock-Schlafmütze am 06.03.2026 (0,50 €); Guthaben danach 0,00 €.")
    );
    // "Anna B." is not Anna: suggested, the select starts empty.
    assert!(p.contains("Spieler (Vorschlag: Anna)"), "{p}");
    assert!(p.contains("Spieler (Vorschlag: Elke)"), "{p}");
    assert!(!p.contains(" selected>"), "no player preselected: {p}");
    assert!(p.contains("Kontoführung März"), "the debit is listed: {p}");

    let digest = digest_of(p);
    let confirm =
        |once: &str, digest: &str| format!("einmal={once}&digest={digest}&spieler_3=1&spieler_4=5");
    let r = t
        .post_follow(
            "/verwaltung/saison/2026/kontoauszug/buchen",
            &confirm("k-2", &digest),
            &kasse,
        )
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    assert!(
        r.body
            .contains("Kontoauszug maerz.xml: 6 neue Buchungen, 0 schon eingelesen."),
        "{}",
        r.body
    );
    assert_eq!(audit_payments(&t).await, 6, "one Protokoll line each");
    let (entries,): (i64,) = sqlx::query_as("select count(*) from statement_entries")
        .fetch_one(&t.db.read)
        .await
        .unwrap();
    assert_eq!(entries, 6);
    let kasse_page = t.get("/saison/2026/kasse", None).await.body;
    // Anna's 5,00 € and Carla's 20,00 € are Guthaben.
    assert!(
        kasse_page.contains("<tr><td>Anna</td><td class=\"num\">5,00 €</td></tr>"),
        "{kasse_page}"
    );
    assert!(kasse_page.contains("<tr><td>Carla</td><td class=\"num\">20,00 €</td></tr>"));
    let abschluss = t.get("/saison/2026/abschluss", None).await.body;
    assert!(
        abschluss.contains("Stimmt: jeder Cent ist verteilt."),
        "{abschluss}"
    );

    // Read again (the CSV export of the same month): nothing new.
    let csv = std::fs::read(fixture("kontoauszug/maerz-2026.sparkasse.csv")).unwrap();
    let again = upload(&t, "maerz.csv", &csv, "k-3", &kasse).await;
    assert!(
        again
            .body
            .contains("6 Gutschriften, davon 6 schon eingelesen; 0 würden jetzt gebucht."),
        "{}",
        again.body
    );
    let after = snapshot(&t.db.write).await;
    let r = t
        .post_follow(
            "/verwaltung/saison/2026/kontoauszug/buchen",
            &confirm("k-4", &digest_of(&again.body)),
            &kasse,
        )
        .await;
    assert!(
        r.body
            .contains("Kontoauszug maerz.csv: 0 neue Buchungen, 6 schon eingelesen."),
        "{}",
        r.body
    );
    assert_eq!(snapshot(&t.db.write).await, after);
    assert_eq!(audit_payments(&t).await, 6);
}

#[tokio::test]
async fn a_refused_statement_says_where_and_why_and_stores_nothing() {
    let (t, kasse) = league().await;
    let before = snapshot(&t.db.write).await;
    let text = std::fs::read_to_string(fixture("kontoauszug/maerz-2026.camt053.001.02.xml"))
        .unwrap()
        .replace("<CdtDbtInd>CRDT</CdtDbtInd>", "<CdtDbtInd>CRD</CdtDbtInd>");
    let r = upload(&t, "kaputt.xml", text.as_bytes(), "k-1", &kasse).await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(
        r.body
            .contains("kaputt.xml: Zeile 14, Element Ntry/CdtDbtInd: „CRD“ ist weder CRDT"),
        "{}",
        r.body
    );
    // A choice the league refuses (a player of another season's id) books nothing either.
    let bytes = std::fs::read(fixture("kontoauszug/maerz-2026.sparkasse.csv")).unwrap();
    let p = upload(&t, "maerz.csv", &bytes, "k-2", &kasse).await;
    let body = format!("einmal=k-3&digest={}&spieler_3=999", digest_of(&p.body));
    let r = t
        .post(
            "/verwaltung/saison/2026/kontoauszug/buchen",
            &body,
            Some(&kasse),
        )
        .await;
    assert_eq!(r.status, StatusCode::NOT_FOUND);
    assert_eq!(snapshot(&t.db.write).await, before);
    // Not for a player's account.
    let anon = upload(&t, "maerz.csv", &bytes, "k-4", "").await;
    assert_ne!(anon.status, StatusCode::OK);
}

/// Issue 34.4 meets 34.3: Dirk said "Ich habe bezahlt" (0,50 €) on his card; the statement's
/// credit of 0,50 € from him settles that report when it is booked ("a later statement match
/// settles it"), with a Protokoll line, and the card says so.
#[tokio::test]
async fn a_booked_statement_credit_settles_the_players_open_report() {
    let (t, kasse) = league().await;
    let token = t.league.create_card_link(4, "kasse").await.unwrap().1;
    let r = t
        .post(
            &format!("/karte/{token}/gezahlt"),
            "betrag=0%2C50&wie=ueberweisung",
            None,
        )
        .await;
    assert_eq!(r.status, StatusCode::SEE_OTHER, "{}", r.body);
    let bytes = std::fs::read(fixture("kontoauszug/maerz-2026.camt053.001.02.xml")).unwrap();
    let preview = upload(&t, "maerz.xml", &bytes, "s-1", &kasse).await;
    assert_eq!(preview.status, StatusCode::OK, "{}", preview.body);
    let body = format!("einmal=s-2&digest={}", digest_of(&preview.body));
    let r = t
        .post_follow("/verwaltung/saison/2026/kontoauszug/buchen", &body, &kasse)
        .await;
    assert!(r.body.contains("4 neue Buchungen"), "{}", r.body);
    let (state,): (String,) = sqlx::query_as("select state from payment_reports")
        .fetch_one(&t.db.read)
        .await
        .unwrap();
    assert_eq!(state, "gebucht");
    let (lines,): (i64,) =
        sqlx::query_as("select count(*) from audit_log where action like 'Meldung gebucht%'")
            .fetch_one(&t.db.read)
            .await
            .unwrap();
    assert_eq!(lines, 1);
    let card = t.get(&format!("/karte/{token}"), None).await.body;
    assert!(card.contains("gebucht am"), "{card}");
}

/// Hostile trial: a bank that writes the placeholder NONREF, or numbers each statement's entries
/// from 1, gives May's transfers the references March's had; they are new transfers, not
/// "schon eingelesen" (a reference counts only with its day and amount; NONREF is none).
#[tokio::test]
async fn a_reused_bank_reference_does_not_hide_a_new_transfer() {
    let march =
        std::fs::read_to_string(fixture("kontoauszug/maerz-2026.camt053.001.08.xml")).unwrap();
    for (n, placeholder) in [(0, true), (1, false)] {
        let (t, kasse) = league().await;
        let mut i = 0;
        let refs = |text: &str| -> String {
            let mut out = String::new();
            let mut rest = text;
            let mut k = 0;
            while let Some(at) = rest.find("<AcctSvcrRef>") {
                let end = at + rest[at..].find("</AcctSvcrRef>").unwrap();
                k += 1;
                out.push_str(&rest[..at]);
                let value = if placeholder {
                    "NONREF".to_string()
                } else {
                    k.to_string()
                };
                out.push_str(&format!("<AcctSvcrRef>{value}"));
                rest = &rest[end..];
            }
            out.push_str(rest);
            out
        };
        let first = refs(&march);
        let april = refs(
            &march
                .replace("<Dt>2026-03-", "<Dt>2026-05-")
                .replace("<DtTm>2026-03-", "<DtTm>2026-05-"),
        );
        for (file, known) in [(&first, 0), (&april, 0)] {
            i += 1;
            let preview = upload(
                &t,
                "auszug.xml",
                file.as_bytes(),
                &format!("r-{n}-{i}"),
                &kasse,
            )
            .await;
            assert!(
                preview
                    .body
                    .contains(&format!("6 Gutschriften, davon {known} schon eingelesen")),
                "{placeholder} {i}: {}",
                preview.body
            );
            let body = format!("einmal=r-{n}-{i}b&digest={}", digest_of(&preview.body));
            let r = t
                .post_follow("/verwaltung/saison/2026/kontoauszug/buchen", &body, &kasse)
                .await;
            assert!(r.body.contains("4 neue Buchungen"), "{}", r.body);
        }
        // The same May file again: the four booked are known (the two without a player were
        // not booked, so they are not).
        let again = upload(
            &t,
            "auszug.xml",
            april.as_bytes(),
            &format!("r-{n}-x"),
            &kasse,
        )
        .await;
        assert!(
            again.body.contains("davon 4 schon eingelesen"),
            "{}",
            again.body
        );
    }
}
