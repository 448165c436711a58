//! The Kassenprüfer (issue 35.3): a role that reads every money page of the Verwaltung and changes
//! nothing (403 on every POST), and his one action, *Geprüft*, stored with his name and the
//! club's day, in the Protokoll and on the season's Jahresabschluss.

use axum::http::StatusCode;
use schockerliga::league::model::format::date_de;
use schockerliga::web::Guard;

use crate::app::*;
use crate::security::{concrete, send_as, GEPRUEFT, MONEY};

/// The money pages everybody may open (the Kasse, the Jahresabschluss, the Kasse's CSV): the
/// Kassenprüfer reads them logged in, as every account does.
const PUBLIC_MONEY: &[&str] = &[
    "/kasse",
    "/saison/{year}/kasse",
    "/saison/{year}/abschluss",
    "/saison/{year}/kasse.csv",
];

/// The small season with a Kassenprüfer `pruefer` and a Kassenwart `kasse`; (app, his cookie).
async fn with_pruefer() -> (TestApp, String) {
    let t = TestApp::small_season().await;
    t.create_account("kasse", "kassenwart").await;
    let cookie = t.login_new("pruefer", "kassenpruefer").await;
    (t, cookie)
}

/// The *Geprüft*s stored: (season, name, day, note), oldest first.
async fn stored(t: &TestApp) -> Vec<(i64, String, String, String)> {
    sqlx::query_as("select season, username, day, note from kassenpruefungen order by id")
        .fetch_all(&t.db.read)
        .await
        .unwrap()
}

/// He walks the whole route table: 200 on every money page to read (`Guard::MoneyRead`, the
/// GETs of `MONEY`, and the public money pages), 403 on every money POST and on every secretary
/// and admin route, and nothing in the database changes.
#[tokio::test]
async fn a_kassenpruefer_reads_every_money_page_and_every_post_but_geprueft_answers_403() {
    let (t, pruefer) = with_pruefer().await;
    let before = snapshot(&t.db.write).await;
    let (mut read, mut refused_posts, mut refused_other) = (Vec::new(), 0, 0);
    for r in schockerliga::web::route_table() {
        let method = r.method.as_str();
        let uri = concrete(r.path);
        let public_money = method == "GET" && PUBLIC_MONEY.contains(&r.path);
        match r.guard {
            Guard::MoneyRead => {
                let resp = send_as(&t, method, &uri, &pruefer).await;
                assert_eq!(resp.status, StatusCode::OK, "{method} {uri}: {}", resp.body);
                read.push(r.path);
            }
            Guard::Public if public_money => {
                let mut resp = send_as(&t, method, &uri, &pruefer).await;
                // `/kasse` leads to the current season's Kasse.
                if resp.status == StatusCode::SEE_OTHER && !resp.is_login_redirect() {
                    let to = resp.location().unwrap().to_string();
                    resp = t.get(&to, Some(&pruefer)).await;
                }
                assert_eq!(resp.status, StatusCode::OK, "{method} {uri}");
                read.push(r.path);
            }
            Guard::Money => {
                let resp = send_as(&t, method, &uri, &pruefer).await;
                assert_eq!(resp.status, StatusCode::FORBIDDEN, "{method} {uri}");
                refused_posts += 1;
            }
            Guard::Secretary | Guard::Admin => {
                let resp = send_as(&t, method, &uri, &pruefer).await;
                assert_eq!(resp.status, StatusCode::FORBIDDEN, "{method} {uri}");
                refused_other += 1;
            }
            // His own password, the public pages and writes (logout!); Geprüft stores and is
            // checked below.
            Guard::Account | Guard::Audit | Guard::Public => {}
            Guard::Link | Guard::Card => {
                let resp = send_as(&t, method, &uri, &pruefer).await;
                assert_eq!(resp.status, StatusCode::FORBIDDEN, "link {method} {uri}")
            }
        }
    }
    // Every money GET of the Kassenwart's list, and the public money pages.
    let money_gets: Vec<&str> = MONEY
        .iter()
        .filter(|(m, _)| *m == "GET")
        .map(|(_, p)| *p)
        .collect();
    for path in money_gets.iter().chain(PUBLIC_MONEY) {
        assert!(read.contains(path), "{path} not read");
    }
    assert_eq!(
        read.len(),
        money_gets.len() + PUBLIC_MONEY.len(),
        "{read:?}"
    );
    assert_eq!(
        refused_posts,
        MONEY.len() - money_gets.len(),
        "every money POST"
    );
    assert!(refused_other >= 20, "only {refused_other} routes refused");
    assert_eq!(snapshot(&t.db.write).await, before, "nothing changed");
    assert!(GEPRUEFT.1.starts_with("/verwaltung/saison/"));
}

/// His pages: the login leads to the Kasse's page, headed "Kasse prüfen"; the money pages say
/// "nur lesen" and offer no form of the Kassenwart.
#[tokio::test]
async fn his_money_pages_say_nur_lesen_and_offer_no_form() {
    let (t, pruefer) = with_pruefer().await;
    let login = t
        .post(
            "/login",
            &format!("username=pruefer&password={PASSWORD}"),
            None,
        )
        .await;
    assert_eq!(login.location(), Some("/verwaltung/kasse"));
    let start = t.get("/verwaltung/kasse", Some(&pruefer)).await.body;
    assert!(start.contains("<h1>Kasse prüfen</h1>"), "{start}");
    assert!(start.contains(r#"href="/verwaltung/kasse">Kasse prüfen</a>"#));
    for page in ["zahlungen", "strafen", "karten", "kontoauszug"] {
        let uri = format!("/verwaltung/saison/2026/{page}");
        let body = t.get(&uri, Some(&pruefer)).await.body;
        assert!(body.contains(r#"id="nur-lesen""#), "{uri}: {body}");
        assert!(!body.contains(r#"action="/verwaltung/"#), "{uri}: {body}");
        // The Kassenwart sees his forms there.
        let kasse = t.login("kasse").await;
        let his = t.get(&uri, Some(&kasse)).await.body;
        assert!(his.contains(r#"action="/verwaltung/"#), "{uri}");
        assert!(!his.contains(r#"id="nur-lesen""#), "{uri}");
    }
    // The Strafen page still shows every booked fine and whether it is paid.
    let strafen = t
        .get("/verwaltung/saison/2026/strafen", Some(&pruefer))
        .await
        .body;
    assert!(strafen.contains(r#"id="gebuchte-strafen""#), "{strafen}");
    let kasse = t.get("/saison/2026/kasse", Some(&pruefer)).await.body;
    assert!(!kasse.contains(r#"action="/verwaltung/strafe/"#), "{kasse}");
    let abschluss = t.get("/saison/2026/abschluss", Some(&pruefer)).await.body;
    assert!(!abschluss.contains("/verrechnung"), "{abschluss}");
    assert!(abschluss.contains(r#"action="/verwaltung/saison/2026/geprueft""#));
    assert!(abschluss.contains("Noch nicht geprüft."), "{abschluss}");
}

/// *Geprüft* with a note: stored with his name and the club's day, shown on the Jahresabschluss
/// to every logged-in account (not to visitors), one Protokoll line; a note over 500 characters
/// is refused with the note kept; a Kassenwart, a secretary and an admin get 403.
#[tokio::test]
async fn geprueft_is_stored_with_his_name_and_day_shown_and_in_the_protokoll() {
    let (t, pruefer) = with_pruefer().await;
    let uri = "/verwaltung/saison/2026/geprueft";
    let resp = t
        .post(uri, "notiz=Belege+vollst%C3%A4ndig.", Some(&pruefer))
        .await;
    assert_eq!(resp.status, StatusCode::SEE_OTHER, "{}", resp.body);
    assert_eq!(resp.location(), Some("/saison/2026/abschluss#geprueft"));
    let day = club_today();
    assert_eq!(
        stored(&t).await,
        [(
            2026,
            "pruefer".to_string(),
            day.to_string(),
            "Belege vollständig.".to_string()
        )]
    );
    let line = format!(
        "Geprüft von pruefer am {}: Belege vollständig.",
        date_de(day)
    );
    let page = t.get("/saison/2026/abschluss", Some(&pruefer)).await.body;
    assert!(page.contains(&line), "{page}");
    assert!(page.contains(&format!("Kassenprüfung gespeichert – {line}")));
    let kasse = t.login("kasse").await;
    let his = t.get("/saison/2026/abschluss", Some(&kasse)).await.body;
    assert!(his.contains(&line), "{his}");
    // The Kassenbericht, which he signs, names it too (issue 35.3 meets 35.2).
    let bericht = t
        .get("/verwaltung/saison/2026/kassenbericht", Some(&pruefer))
        .await
        .body;
    assert!(bericht.contains(&line), "{bericht}");
    assert!(
        !his.contains("/geprueft"),
        "no form for the Kassenwart: {his}"
    );
    let anonymous = t.get("/saison/2026/abschluss", None).await.body;
    assert!(!anonymous.contains("Geprüft von"), "{anonymous}");
    // The service hands them on (the Kassenbericht shows them).
    let checks = t.league.pruefungen(2026).await.unwrap();
    assert_eq!(checks.len(), 1);
    assert_eq!(
        (checks[0].username.as_str(), checks[0].day),
        ("pruefer", day)
    );
    assert_eq!(
        schockerliga::service::pruefung::pruefung_line(&checks[0]),
        line
    );
    let admin = t.login(ADMIN).await;
    let audit = t.get("/verwaltung/protokoll", Some(&admin)).await.body;
    assert!(
        audit.contains(&format!(
            "Kasse geprüft: Saison 2026 von pruefer am {} (Belege vollständig.)",
            date_de(day)
        )),
        "{audit}"
    );

    // Refused: too long a note; nothing stored, the page again with the note as typed.
    let long = "x".repeat(501);
    let resp = t.post(uri, &format!("notiz={long}"), Some(&pruefer)).await;
    assert_eq!(resp.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(
        resp.body.contains("Bemerkung: höchstens 500 Zeichen"),
        "{}",
        resp.body
    );
    assert!(resp.body.contains(&format!(">{long}</textarea>")));
    assert_eq!(stored(&t).await.len(), 1);

    // Without a note it is fine; it is his alone.
    let resp = t.post(uri, "notiz=", Some(&pruefer)).await;
    assert_eq!(resp.status, StatusCode::SEE_OTHER);
    let secretary = t.login(SECRETARY).await;
    for (who, cookie) in [
        ("kassenwart", &kasse),
        ("secretary", &secretary),
        ("admin", &admin),
    ] {
        let resp = t.post(uri, "notiz=auch", Some(cookie)).await;
        assert_eq!(resp.status, StatusCode::FORBIDDEN, "{who}");
    }
    assert!(t.post(uri, "notiz=", None).await.is_login_redirect());
    let all = stored(&t).await;
    assert_eq!(all.len(), 2, "{all:?}");
    assert_eq!(all[1].3, "");
    let page = t.get("/saison/2026/abschluss", Some(&kasse)).await.body;
    assert!(page.contains(&format!("<li>Geprüft von pruefer am {}</li>", date_de(day))));
    // No such season: nothing to check.
    let resp = t
        .post("/verwaltung/saison/1999/geprueft", "", Some(&pruefer))
        .await;
    assert_eq!(resp.status, StatusCode::NOT_FOUND);
}

/// The Konten page offers the role, and an account made there logs in as a Kassenprüfer.
#[tokio::test]
async fn the_konten_page_makes_a_kassenpruefer() {
    let t = TestApp::staffed().await;
    let admin = t.login(ADMIN).await;
    let page = t.get("/verwaltung/konten", Some(&admin)).await.body;
    assert!(page.contains(r#"<option value="kassenpruefer""#), "{page}");
    let resp = t
        .post(
            "/verwaltung/konten",
            &format!("username=petra&password={PASSWORD}&password2={PASSWORD}&role=kassenpruefer"),
            Some(&admin),
        )
        .await;
    assert_eq!(resp.status, StatusCode::SEE_OTHER, "{}", resp.body);
    let page = t.get("/verwaltung/konten", Some(&admin)).await.body;
    assert!(
        page.contains("<td>petra</td><td>Kassenprüfer</td>"),
        "{page}"
    );
    let petra = t.login("petra").await;
    let resp = t.get("/verwaltung", Some(&petra)).await;
    assert_eq!(resp.status, StatusCode::FORBIDDEN);
}
