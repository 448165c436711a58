//! "Bericht teilen" (issue 11.5): after "Abend abschließen" the secretary's night page links the
//! report; the page shows the exact text (to copy, and as a WhatsApp link), and
//! `/abende/{date}/bericht.txt` serves the same text as `text/plain`. Nothing is cached: the link
//! names the host the reader used.

use axum::http::StatusCode;
use schockerliga::league::model::file::SeasonFile;

use crate::app::{TestApp, SECRETARY};

/// Two nights (the unit test's season of `league::history::report`): Anna and Bernd paid (1. Liga).
const SEASON: &str = r#"{
  "format": "schockerliga-season/1", "season": 2026, "rules": { "kreisliga_below_rounds": 1 },
  "players": [ { "name": "Anna", "fee_paid_on": "2026-01-09" },
               { "name": "Bernd", "fee_paid_on": "2026-01-09" }, { "name": "Carla" }, { "name": "Dirk" } ],
  "nights": [
    { "date": "2026-01-09", "tables": [ { "number": 1, "rounds": [
        { "number": 1, "results": [
          { "player": "Anna", "outs": 1, "hand_outs": 0, "julen": 0 },
          { "player": "Bernd", "outs": 0, "hand_outs": 0, "julen": 0, "lost": true },
          { "player": "Carla", "outs": 0, "hand_outs": 0, "julen": 0 } ] },
        { "number": 2, "results": [
          { "player": "Anna", "outs": 0, "hand_outs": 0, "julen": 0 },
          { "player": "Bernd", "outs": 0, "hand_outs": 0, "julen": 0, "lost": true },
          { "player": "Carla", "outs": 2, "hand_outs": 0, "julen": 0 } ] } ] } ] },
    { "date": "2026-01-16", "tables": [ { "number": 1, "rounds": [
        { "number": 1, "results": [
          { "player": "Anna", "outs": 1, "hand_outs": 1, "julen": 0 },
          { "player": "Bernd", "outs": 0, "hand_outs": 0, "julen": 0 },
          { "player": "Carla", "outs": 0, "hand_outs": 0, "julen": 1 },
          { "player": "Dirk", "outs": 0, "hand_outs": 0, "julen": 0, "lost": true } ] },
        { "number": 2, "results": [
          { "player": "Anna", "outs": 0, "hand_outs": 0, "julen": 0 },
          { "player": "Bernd", "outs": 2, "hand_outs": 0, "julen": 0, "joker": true },
          { "player": "Carla", "outs": 0, "hand_outs": 0, "julen": 0, "lost": true },
          { "player": "Dirk", "outs": 1, "hand_outs": 0, "julen": 0 } ] },
        { "number": 3, "results": [
          { "player": "Anna", "outs": 0, "hand_outs": 0, "julen": 0, "lost": true },
          { "player": "Bernd", "outs": 0, "hand_outs": 0, "julen": 0 },
          { "player": "Carla", "outs": 1, "hand_outs": 0, "julen": 0 },
          { "player": "Dirk", "outs": 0, "hand_outs": 0, "julen": 0 } ] } ] } ],
      "fines": [ { "player": "Dirk", "kind": "late", "paid": false },
                 { "player": "Carla", "kind": "sleepy", "paid": true } ] }
  ]
}"#;

/// The report of the second night, by hand (see `src/league/report/tests.rs`).
const REPORT: &str = "Schockerliga – Spielabend 16.01.2026
4 Spieler an 1 Tisch, 3 Runden.

Schocker des Abends: Bernd (4 gewertete Outs)

Outs (davon Hand-Outs):
- Bernd: 2 (0)
- Anna: 1 (1)
- Carla: 1 (0)
- Dirk: 1 (0)
Gewertet: ein Out zählt 1, ein Hand-Out 2 (Hand-Outs sind Teil der Outs), in der Joker-Runde doppelt; 3 Julen ergeben 1 Out.
Joker: Bernd (Tisch 1, Runde 2)
Julen: Carla 1

Runden bezahlt: Anna 1, Carla 1, Dirk 1
Sozialfälle: keine

Tabelle nach dem Abend (die ersten 5):
1. Liga:
1. Bernd – D.Wert 8,00 (▲1)
2. Anna – D.Wert 6,00 (▼1)
2. Liga:
1. Carla – D.Wert 6,00 (–)
2. Dirk – D.Wert 3,33 (neu)

Offene Strafen:
- Dirk: Zuspätkommer 1,00 €

Alle Ergebnisse: http://liga.test/abend/2026-01-16
";

#[tokio::test]
async fn the_night_report_after_closing() {
    let file: SeasonFile = serde_json::from_str(SEASON).unwrap();
    let t = TestApp::builder()
        .season(file)
        .account(SECRETARY, "secretary")
        .start()
        .await;
    let cookie = t.login(SECRETARY).await;

    // "Abend abschließen", then the night page offers "Bericht teilen".
    let r = t
        .post_fields(
            "/verwaltung/abend/2026-01-16/abschliessen",
            &[("sicher", "1")],
            Some(&cookie),
        )
        .await;
    assert_eq!(r.status, StatusCode::SEE_OTHER, "{}", r.body);
    let admin = t
        .get("/verwaltung/abend/2026-01-16", Some(&cookie))
        .await
        .body;
    assert!(
        admin.contains("href=\"/abend/2026-01-16/bericht\""),
        "{admin}"
    );

    // The plain text, exactly; public and never cached.
    let r = t.get("/abende/2026-01-16/bericht.txt", None).await;
    assert_eq!(r.status, StatusCode::OK);
    assert_eq!(r.header("content-type"), Some("text/plain; charset=utf-8"));
    assert_eq!(r.header("cache-control"), Some("no-store"));
    assert_eq!(r.body, REPORT);

    // The page: the same text in a read-only box (HTML-escaped), the WhatsApp link with it
    // percent-encoded; no inline script (only same-origin script files): the box is selected to copy.
    let r = t.get("/abend/2026-01-16/bericht", None).await;
    assert_eq!(r.status, StatusCode::OK);
    assert_eq!(r.header("cache-control"), Some("no-store"));
    assert!(r.body.contains("<h1>Bericht teilen</h1>"));
    assert!(
        r.body
            .contains("readonly>Schockerliga – Spielabend 16.01.2026\n"),
        "{}",
        r.body
    );
    assert!(r.body.contains("- Dirk: Zuspätkommer 1,00 €"));
    assert!(r.body.contains(
        "href=\"https://wa.me/?text=Schockerliga%20%E2%80%93%20Spielabend%2016.01.2026%0A4%20Spieler"
    ), "{}", r.body);
    assert_eq!(
        crate::app::only_script_files(&r.body.to_lowercase()),
        Ok(())
    );
    assert!(!r.body.contains("noch nicht abgeschlossen"));

    // An open night says its report may still change; an unknown night is 404.
    let r = t.get("/abend/2026-01-09/bericht", None).await;
    assert!(r.body.contains("noch nicht abgeschlossen"), "{}", r.body);
    assert_eq!(
        t.get("/abende/2026-01-10/bericht.txt", None).await.status,
        StatusCode::NOT_FOUND
    );
}

/// Fresh-user trial: with "Kasse nur für Mitglieder" the report a logged-in secretary shares in
/// the club's chat listed the open fines by name; the text goes to everybody, so it names none.
#[tokio::test]
async fn with_private_money_the_shared_report_names_no_open_fines_for_anybody() {
    let t = TestApp::builder()
        .staff()
        .season(crate::app::season_file("small-2026", None))
        .start()
        .await;
    let admin = t.login(crate::app::ADMIN).await;
    let secretary = t.login(SECRETARY).await;
    let date = t.league.snapshot().season(2026).unwrap().season.nights[0].date;
    let before = t
        .get(&format!("/abend/{date}/bericht"), Some(&secretary))
        .await;
    assert!(
        !before.body.contains("nur für Mitglieder"),
        "{}",
        before.body
    );
    t.post_follow("/verwaltung/einstellungen", "money_private=1", &admin)
        .await;
    for cookie in [Some(secretary.as_str()), None] {
        let r = t.get(&format!("/abend/{date}/bericht"), cookie).await;
        assert!(
            r.body.contains("Offene Strafen: nur für Mitglieder"),
            "{cookie:?}: {}",
            r.body
        );
        let text = t.get(&format!("/abende/{date}/bericht.txt"), cookie).await;
        assert!(text.body.contains("Offene Strafen: nur für Mitglieder"));
    }
}
