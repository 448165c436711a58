//! The club's old seasons from its spreadsheet in the Verwaltung (issue 24.2): upload, preview,
//! confirm; a refused sheet names its line and column and stores nothing; an expired preview
//! asks for the file again; a year with nights already needs "ersetzen"; the season's own sheet
//! and the whole club as downloads.

use axum::body::Body;
use axum::http::{header, StatusCode};
use serde_json::Value;

use crate::app::{req, snapshot, Reply, RoundForm, TestApp, HOST};
use crate::common::{fixture_json, ADMIN, SECRETARY};

const BOUNDARY: &str = "----schockerliga-test-7d3f";

/// A same-origin multipart upload of `bytes` as the file `name` in the field `datei`.
async fn upload(t: &TestApp, name: &str, bytes: &[u8], cookie: &str) -> Reply {
    let mut body = Vec::new();
    body.extend_from_slice(
        format!(
            "--{BOUNDARY}\r\nContent-Disposition: form-data; name=\"einmal\"\r\n\r\n\
             t-{name}\r\n--{BOUNDARY}\r\nContent-Disposition: form-data; name=\"datei\"; \
             filename=\"{name}\"\r\nContent-Type: application/octet-stream\r\n\r\n"
        )
        .as_bytes(),
    );
    body.extend_from_slice(bytes);
    body.extend_from_slice(format!("\r\n--{BOUNDARY}--\r\n").as_bytes());
    let r = req("POST", "/verwaltung/einlesen")
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

/// The preview's confirm of `digest` with form token `once`, "ersetzen" ticked when `replace`.
async fn confirm(t: &TestApp, digest: &str, once: &str, replace: bool, cookie: &str) -> Reply {
    let replace = if replace { "&ersetzen=1" } else { "" };
    t.post(
        "/verwaltung/einlesen/bestaetigen",
        &format!("einmal={once}&digest={digest}{replace}"),
        Some(cookie),
    )
    .await
}

/// The digest the preview's confirm form carries.
fn digest_of(page: &str) -> String {
    let at = page
        .find("name=\"digest\" value=\"")
        .unwrap_or_else(|| panic!("no digest: {page}"));
    let rest = &page[at + "name=\"digest\" value=\"".len()..];
    rest[..rest.find('"').unwrap()].to_string()
}

/// The small fixture season as the night-totals sheet, downloaded from the Verwaltung.
async fn small_2026_sheet() -> Vec<u8> {
    let t = TestApp::small_season().await;
    let cookie = t.login(SECRETARY).await;
    let r = t
        .get("/verwaltung/saison/2026/tabelle.csv", Some(&cookie))
        .await;
    assert_eq!(r.status, StatusCode::OK);
    assert_eq!(
        r.header(header::CONTENT_TYPE),
        Some("text/csv; charset=utf-8")
    );
    assert!(r
        .header(header::CONTENT_DISPOSITION)
        .unwrap()
        .starts_with("attachment; filename=\"schockerliga-2026-abende-"));
    assert_eq!(r.header(header::CACHE_CONTROL), Some("private, no-store"));
    assert!(r.bytes.starts_with(b"\xEF\xBB\xBFDatum;Spieler;"));
    r.bytes.to_vec()
}

#[tokio::test]
async fn a_sheet_uploaded_is_previewed_then_confirmed_to_the_same_standings() {
    let sheet = small_2026_sheet().await;
    let t = TestApp::staffed().await;
    let cookie = t.login(SECRETARY).await;
    let form = t.get("/verwaltung/einlesen", Some(&cookie)).await;
    assert_eq!(form.status, StatusCode::OK);
    assert!(form.body.contains("enctype=\"multipart/form-data\""));
    let overview = t.get("/verwaltung", Some(&cookie)).await.body;
    assert!(
        overview.contains("href=\"/verwaltung/einlesen\""),
        "{overview}"
    );

    let before = snapshot(&t.db.write).await;
    let preview = upload(&t, "liga-2026.csv", &sheet, &cookie).await;
    assert_eq!(preview.status, StatusCode::OK, "{}", preview.body);
    assert!(preview.body.contains("Saison 2026"), "{}", preview.body);
    assert!(preview.body.contains("Noch ist nichts gespeichert"));
    // The table as it would stand: the fixture's leader with his D.Wert.
    let want = fixture_json("small-2026.standings.json");
    let first = &want["rows"][0];
    assert!(preview
        .body
        .contains(&format!("<td>{}</td>", first["player"].as_str().unwrap())));
    assert_eq!(
        snapshot(&t.db.write).await,
        before,
        "nothing stored before the confirm"
    );

    let digest = digest_of(&preview.body);
    let done = confirm(&t, &digest, "c1", false, &cookie).await;
    assert_eq!(done.status, StatusCode::SEE_OTHER, "{}", done.body);
    assert_eq!(done.location(), Some("/verwaltung/saison/2026"));
    let got: Value =
        serde_json::from_str(&t.get("/api/v1/seasons/2026/standings", None).await.body).unwrap();
    assert_eq!(got, want);
    let page = t.get("/verwaltung/saison/2026", Some(&cookie)).await.body;
    assert!(
        page.contains("Eingelesen aus liga-2026.csv: Saison 2026."),
        "{page}"
    );

    // The same preview cannot be confirmed twice: it was forgotten with the confirm.
    let again = confirm(&t, &digest, "c2", false, &cookie).await;
    assert_eq!(again.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(again.body.contains("Die Vorschau ist abgelaufen"));
}

#[tokio::test]
async fn a_year_with_nights_is_replaced_only_when_asked() {
    let sheet = small_2026_sheet().await;
    let t = TestApp::small_season().await;
    let cookie = t.login(SECRETARY).await;
    let preview = upload(&t, "liga-2026.csv", &sheet, &cookie).await;
    assert_eq!(preview.status, StatusCode::OK, "{}", preview.body);
    assert!(
        preview.body.contains("name=\"ersetzen\""),
        "{}",
        preview.body
    );
    let digest = digest_of(&preview.body);
    let before = snapshot(&t.db.write).await;
    let refused = confirm(&t, &digest, "c1", false, &cookie).await;
    assert_eq!(
        refused.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "{}",
        refused.body
    );
    assert!(refused.body.contains("id=\"fehler\""), "{}", refused.body);
    assert!(
        refused.body.contains("name=\"digest\""),
        "the preview again"
    );
    assert_eq!(snapshot(&t.db.write).await, before);
    let done = confirm(&t, &digest, "c2", true, &cookie).await;
    assert_eq!(done.status, StatusCode::SEE_OTHER, "{}", done.body);
    let got: Value =
        serde_json::from_str(&t.get("/api/v1/seasons/2026/standings", None).await.body).unwrap();
    assert_eq!(got, fixture_json("small-2026.standings.json"));
}

#[tokio::test]
async fn a_bad_sheet_names_its_line_and_stores_nothing() {
    let t = TestApp::staffed().await;
    let cookie = t.login(SECRETARY).await;
    let before = snapshot(&t.db.write).await;
    let bad = "Datum;Spieler;Runden;Outs\r\n05.01.2024;Anna;10;3\r\n12.01.2024;Bernd;zehn;2\r\n";
    let r = upload(&t, "alt.csv", bad.as_bytes(), &cookie).await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", r.body);
    assert!(r.body.contains("Zeile 3"), "{}", r.body);
    assert!(r.body.contains("Runden"), "{}", r.body);
    assert!(r.body.contains("id=\"fehler\""));
    assert_eq!(snapshot(&t.db.write).await, before);

    let unknown = "Datum;Spieler;Runden;Outs;Lieblingsbier\r\n05.01.2024;Anna;10;3;Pils\r\n";
    let r = upload(&t, "alt.csv", unknown.as_bytes(), &cookie).await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(r.body.contains("Lieblingsbier"), "{}", r.body);

    let r = upload(&t, "", b"", &cookie).await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(r.body.contains("Keine Datei gewählt"), "{}", r.body);

    let r = upload(&t, "tabelle.pdf", b"%PDF-1.4", &cookie).await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(r.body.contains("tabelle.pdf"), "{}", r.body);

    // Sixth trial: a season or club file (.json) uploaded here was refused with a message that
    // offered ".json" as an alternative; it names the command that reads it instead.
    let r = upload(
        &t,
        "verein.json",
        b"{\"format\":\"schockerliga-club/1\"}",
        &cookie,
    )
    .await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(
        !r.body.contains("oder eine Saisondatei .json)"),
        "{}",
        r.body
    );
    assert!(r.body.contains("schockerliga import"), "{}", r.body);
    assert_eq!(snapshot(&t.db.write).await, before);

    let r = t
        .post(
            "/verwaltung/einlesen/bestaetigen",
            "einmal=c1&digest=0000",
            Some(&cookie),
        )
        .await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(r.body.contains("bitte die Datei noch einmal hochladen"));
    assert_eq!(snapshot(&t.db.write).await, before);
}

#[tokio::test]
async fn the_upload_and_the_downloads_are_behind_the_login() {
    let t = TestApp::small_season().await;
    for uri in [
        "/verwaltung/einlesen",
        "/verwaltung/saison/2026/tabelle.csv",
        "/verwaltung/verein.json",
    ] {
        assert!(t.get(uri, None).await.is_login_redirect(), "{uri}");
    }
    let cookie = t.login(ADMIN).await;
    let club = t.get("/verwaltung/verein.json", Some(&cookie)).await;
    assert_eq!(club.status, StatusCode::OK);
    assert_eq!(
        club.header(header::CACHE_CONTROL),
        Some("private, no-store")
    );
    let file: Value = serde_json::from_str(&club.body).unwrap();
    assert_eq!(file["format"], "schockerliga-club/1");
    assert_eq!(file["seasons"][0]["season"], 2026);
}

/// The small fixture season with every night recorded as totals (as the sheet import stores it).
fn small_2026_as_totals() -> schockerliga::league::model::file::SeasonFile {
    let rounds =
        schockerliga::league::Season::from_file(&crate::common::season_file("small-2026", None))
            .unwrap();
    schockerliga::league::sheet::totals::as_totals(&rounds)
}

#[tokio::test]
async fn pages_that_need_rounds_say_the_night_was_recorded_as_totals() {
    let file = small_2026_as_totals();
    let date = file.nights[0].date;
    let at_table_1: Vec<String> = file.nights[0]
        .totals
        .iter()
        .filter(|r| r.table == 1)
        .map(|r| r.player.clone())
        .collect();
    let t = TestApp::builder().staff().season(file).start().await;
    let night = t.get(&format!("/abend/{date}"), None).await;
    assert_eq!(night.status, StatusCode::OK);
    assert!(
        night.body.contains("als Summen je Spieler erfasst"),
        "{}",
        night.body
    );
    assert!(!night.body.contains("<th>Runde 1</th>"));
    let live = t.get(&format!("/live/{date}"), None).await;
    assert_eq!(live.status, StatusCode::OK);
    assert!(
        live.body.contains("als Summen je Spieler erfasst"),
        "{}",
        live.body
    );
    assert!(!live.body.contains("Runden eingetragen"), "{}", live.body);
    let list = t.get("/saison/2026/abende", None).await.body;
    assert!(list.contains(">Summen</abbr>"), "{list}");
    for uri in ["/rekorde", "/saison/2026/rekorde"] {
        let records = t.get(uri, None).await.body;
        assert!(
            records.contains("Nicht bekannt: die Abende sind als Summen erfasst"),
            "{uri}: {records}"
        );
    }
    let player = t.get("/saison/2026/spieler/1", None).await;
    assert_eq!(player.status, StatusCode::OK);
    assert!(
        player.body.contains("als Summe des Abends erfasst"),
        "{}",
        player.body
    );
    // The secretary's page of the night says so too, and a round for it is refused.
    let cookie = t.login(SECRETARY).await;
    let admin = t
        .get(&format!("/verwaltung/abend/{date}"), Some(&cookie))
        .await;
    assert_eq!(admin.status, StatusCode::OK);
    assert!(
        admin.body.contains("als Summen je Spieler erfasst"),
        "{}",
        admin.body
    );
    let ids = schockerliga::db::player::of_season_pool(&t.db.read, 2026)
        .await
        .unwrap();
    let seated: Vec<i64> = ids
        .iter()
        .filter(|p| at_table_1.contains(&p.name))
        .map(|p| p.id)
        .collect();
    assert!(seated.len() >= 2, "{at_table_1:?}");
    let form = seated
        .iter()
        .fold(RoundForm::at_table(1, 1), |f, id| f.row(*id, 0))
        .lost(seated[0]);
    let before = snapshot(&t.db.write).await;
    let r = t
        .post_round(
            &format!("/verwaltung/abend/{date}/runde"),
            &form,
            Some(&cookie),
        )
        .await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", r.body);
    assert!(
        r.body
            .contains("ein Abend hat Runden oder Summen, nicht beides"),
        "{}",
        r.body
    );
    assert_eq!(snapshot(&t.db.write).await, before, "nothing stored");
}

#[tokio::test]
async fn an_endstand_season_shows_its_final_table_and_each_players_line() {
    let t = TestApp::staffed().await;
    let cookie = t.login(SECRETARY).await;
    let sheet = "Saison;Platz;Spieler;Liga;Runden;Outs gewertet;bezahlte Runden\r\n\
                 2003;1;Anna;1. Liga;200;130;20\r\n2003;2;Bernd;2. Liga;90;40;12\r\n";
    let preview = upload(&t, "endstand.csv", sheet.as_bytes(), &cookie).await;
    assert_eq!(preview.status, StatusCode::OK, "{}", preview.body);
    assert!(preview.body.contains("Endstand"), "{}", preview.body);
    let digest = digest_of(&preview.body);
    let done = confirm(&t, &digest, "c1", false, &cookie).await;
    assert_eq!(done.status, StatusCode::SEE_OTHER, "{}", done.body);
    let table = t.get("/saison/2003", None).await.body;
    assert!(table.contains("Endstand: die Abschlusstabelle"), "{table}");
    assert!(!table.contains("Noch kein Spielabend"), "{table}");
    assert!(
        table.contains("<strong>6,50</strong>"),
        "Anna's D.Wert: {table}"
    );
    let anna = t.get("/saison/2003/spieler/1", None).await.body;
    assert!(anna.contains("<strong>1.</strong> Platz"), "{anna}");
    assert!(anna.contains("<strong>6,50</strong> D.Wert"), "{anna}");
    assert!(anna.contains("nur der Endstand bekannt"), "{anna}");
    assert!(!anna.contains("Noch keine Runde gespielt"), "{anna}");
}

/// A night recorded as totals takes no rounds (hostile trial: a scorer link for it was made and
/// its Schockbesteck started a Runde): the link is refused on the night page and from the
/// command line's service call, the Runde's start too, in German; nothing is stored.
#[tokio::test]
async fn a_night_recorded_as_totals_takes_no_scorer_link_and_no_schockbesteck() {
    let file = small_2026_as_totals();
    let date = file.nights[0].date;
    let players: Vec<String> = file.nights[0]
        .totals
        .iter()
        .filter(|r| r.table == 1)
        .map(|r| r.player.clone())
        .collect();
    let t = TestApp::builder().staff().season(file).start().await;
    let cookie = t.login(SECRETARY).await;
    let before = snapshot(&t.db.write).await;
    let why = "ein Abend in Summen nimmt keine Runden";
    let r = t
        .post(
            &format!("/verwaltung/abend/{date}/tisch/1/link"),
            "einmal=l1",
            Some(&cookie),
        )
        .await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", r.body);
    assert!(r.body.contains(why), "{}", r.body);
    let cli = schockerliga::service::scorer::create_link(&t.db, date, 1, "cli").await;
    assert!(
        cli.as_ref().is_err_and(|e| e.to_string().contains(why)),
        "{cli:?}"
    );
    let mut start = vec![("einmal", "s1".to_string())];
    for p in &players {
        start.push(("spieler", p.clone()));
    }
    start.push(("vorleger", players[0].clone()));
    let r = t
        .post_fields(
            &format!("/verwaltung/besteck/{date}/1/1/start"),
            &start,
            Some(&cookie),
        )
        .await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", r.body);
    assert!(r.body.contains(why), "{}", r.body);
    assert_eq!(snapshot(&t.db.write).await, before, "nothing stored");
}

/// A season after the next year is no season the club can have (hostile trial: 2030 and 9999
/// were imported): refused with the year, where (line) and why; nothing stored.
#[tokio::test]
async fn a_sheet_of_a_far_future_season_is_refused_naming_year_and_line() {
    let t = TestApp::staffed().await;
    let cookie = t.login(SECRETARY).await;
    let before = snapshot(&t.db.write).await;
    for (date, year) in [("09.01.2030", 2030), ("01.01.9999", 9999)] {
        let sheet = format!(
            "Datum;Spieler;Runden;Outs;verloren\r\n{date};Anna;10;3;4\r\n{date};Bernd;10;2;6\r\n"
        );
        let r = upload(&t, "zukunft.csv", sheet.as_bytes(), &cookie).await;
        assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", r.body);
        let want = format!(
            "zukunft.csv: Zeile 2: Saison {year} liegt zu weit in der Zukunft: höchstens bis 2027"
        );
        assert!(r.body.contains(&want), "{want}: {}", r.body);
    }
    // The next year is fine.
    let sheet = "Datum;Spieler;Runden;Outs;verloren\r\n08.01.2027;Anna;10;3;4\r\n08.01.2027;Bernd;10;2;6\r\n";
    let r = upload(&t, "naechstes.csv", sheet.as_bytes(), &cookie).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    assert_eq!(snapshot(&t.db.write).await, before, "nothing stored");
}

#[tokio::test]
async fn next_year_brought_in_with_its_nights_ahead_does_not_take_over_the_table_before_its_first_night(
) {
    let t = TestApp::small_season().await;
    // The same season a year later: every night ahead of the club's today (26.12.2026).
    crate::app::import_next_year_ahead(&t).await;
    let home = t.get("/", None).await;
    assert_eq!(home.status, StatusCode::OK);
    assert!(home.body.contains("<h1>Tabelle 2026</h1>"), "{}", home.body);
    let rules = t.get("/regeln", None).await;
    assert!(
        rules.body.contains("Regeln der Saison 2026"),
        "{}",
        rules.body
    );
    // Both seasons are there to pick.
    assert_eq!(t.get("/saison/2027", None).await.status, StatusCode::OK);
}

/// A club's workbook as it is (issue 31.9): the preview names the title row, the computed
/// columns and the sum row it skipped, and the confirm imports the season.
#[tokio::test]
async fn the_preview_names_the_title_row_computed_columns_and_sum_rows_it_skipped() {
    let t = TestApp::staffed().await;
    let cookie = t.login(SECRETARY).await;
    let sheet = "Schockerliga 2024\r\n\
                 Datum;Spieler;Runden;Schock-Out;verloren;D.Wert;Platz\r\n\
                 05.01.2024;Anna;10;3;4;3,00;1\r\n05.01.2024;Bernd;10;2;6;2,00;2\r\n\
                 Summe;;20;5;10;;\r\n";
    let preview = upload(&t, "natur.csv", sheet.as_bytes(), &cookie).await;
    assert_eq!(preview.status, StatusCode::OK, "{}", preview.body);
    let body = &preview.body;
    assert!(body.contains("Übersprungen"), "{body}");
    for want in [
        "Zeile 1 (Titel „Schockerliga 2024“)",
        "Spalte „D.Wert“ (berechnet)",
        "Spalte „Platz“ (berechnet)",
        "Zeile 5 („Summe“)",
    ] {
        assert!(body.contains(want), "{want}: {body}");
    }
    let done = confirm(&t, &digest_of(body), "c1", false, &cookie).await;
    assert_eq!(done.status, StatusCode::SEE_OTHER, "{}", done.body);
    let table: Value =
        serde_json::from_str(&t.get("/api/v1/seasons/2024/standings", None).await.body).unwrap();
    assert_eq!(table["rows"].as_array().unwrap().len(), 2, "{table}");
}

/// The sample season with its 6th night closed and a Strafenkatalog of its own (a kind `handy`
/// added), as a club's current season is when someone replaces it from a sheet.
/// `csv` (the night-totals sheet as exported: `;`, dates TT.MM.JJJJ) with one more Out, and one
/// more Outs gewertet, in the first row of each night in `dates`.
fn with_one_more_out(csv: &[u8], dates: &[chrono::NaiveDate]) -> Vec<u8> {
    let text = String::from_utf8(csv.to_vec()).unwrap();
    let mut lines: Vec<Vec<String>> = text
        .trim_start_matches('\u{feff}')
        .lines()
        .map(|l| l.split(';').map(str::to_string).collect())
        .collect();
    let col = |name: &str| lines[0].iter().position(|c| c == name).unwrap();
    let (outs, points) = (col("Outs"), col("Outs gewertet"));
    for date in dates {
        let day = date.format("%d.%m.%Y").to_string();
        let row = lines.iter_mut().find(|r| r[0] == day).unwrap();
        for c in [outs, points] {
            row[c] = (row[c].parse::<u32>().unwrap() + 1).to_string();
        }
    }
    lines
        .iter()
        .map(|r| r.join(";") + "\r\n")
        .collect::<String>()
        .into_bytes()
}

fn sample_with_money() -> schockerliga::league::model::file::SeasonFile {
    let mut v = serde_json::to_value(crate::common::season_file("sample-2026", None)).unwrap();
    v["nights"][5]["closed"] = Value::Bool(true);
    v["rules"]["fines"] = serde_json::json!({ "late": 100, "sleepy": 50, "handy": 250 });
    serde_json::from_value(v).unwrap()
}

/// Issue 32.2: „ersetzen“ from a sheet wiped a season's money (a closed night without a
/// Korrektur, 53 fines, 9 paid fees) and the Protokoll kept only `{"nights": 40}`. A sheet holds
/// nights' results only: replacing from it keeps fines, fees, payments and the Strafenkatalog,
/// touches a closed night only with the Korrektur box and a reason, and writes each replaced night
/// to the Protokoll.
#[tokio::test]
async fn replacing_a_season_from_a_sheet_keeps_its_money_and_corrects_a_closed_night_only_with_a_reason(
) {
    let file = sample_with_money();
    let closed = file.nights[5].date;
    let first = file.nights[0].date;
    let t = TestApp::builder().staff().season(file).start().await;
    let cookie = t.login(SECRETARY).await;
    let exported = t
        .get("/verwaltung/saison/2026/tabelle.csv", Some(&cookie))
        .await
        .bytes
        .to_vec();
    // The club's sheet differs from the season on two nights, the first and the closed one: one
    // more Out for the first player of each (the season's own export read back unchanged changes
    // no night, see `the_seasons_own_sheet_read_back_keeps_its_nights_of_rounds`).
    let sheet = with_one_more_out(&exported, &[first, closed]);
    let json = |body: &str| -> Value { serde_json::from_str(body).unwrap() };
    let payouts = json(&t.get("/api/v1/seasons/2026/payouts", None).await.body);
    let standings = json(&t.get("/api/v1/seasons/2026/standings", None).await.body);
    let before = t.league.export(2026).unwrap();
    let fines = |f: &schockerliga::league::model::file::SeasonFile| -> Vec<_> {
        f.nights
            .iter()
            .flat_map(|n| n.fines.iter().map(move |x| (n.date, x.clone())))
            .collect()
    };
    assert_eq!(fines(&before).len(), 53);

    let preview = upload(&t, "liga-2026.csv", &sheet, &cookie).await;
    assert_eq!(preview.status, StatusCode::OK, "{}", preview.body);
    assert!(
        preview.body.contains("name=\"korrektur_grund\""),
        "a closed night is replaced: the preview asks for the Korrektur: {}",
        preview.body
    );
    assert!(
        preview
            .body
            .contains("Strafen, Beiträge, Zahlungen und der Strafenkatalog bleiben"),
        "{}",
        preview.body
    );
    let digest = digest_of(&preview.body);

    // „ersetzen“ without the Korrektur: refused, naming the closed night; nothing stored.
    let stored = snapshot(&t.db.write).await;
    let refused = confirm(&t, &digest, "c1", true, &cookie).await;
    assert_eq!(
        refused.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "{}",
        refused.body
    );
    let day = closed.format("%d.%m.%Y").to_string();
    assert!(refused.body.contains(&day), "{day}: {}", refused.body);
    assert!(refused.body.contains("Korrektur"), "{}", refused.body);
    assert_eq!(snapshot(&t.db.write).await, stored, "nothing stored");

    let done = t
        .post(
            "/verwaltung/einlesen/bestaetigen",
            &format!(
                "einmal=c2&digest={digest}&ersetzen=1&korrektur=on&korrektur_grund=Alte+Tabelle+eingelesen"
            ),
            Some(&cookie),
        )
        .await;
    assert_eq!(done.status, StatusCode::SEE_OTHER, "{}", done.body);

    // The results are the sheet's (two more Outs in the table), the money is the season's as
    // it was.
    let thrown = |v: &Value| -> u64 {
        v["rows"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r["thrown_outs"].as_u64().unwrap())
            .sum()
    };
    let now = json(&t.get("/api/v1/seasons/2026/standings", None).await.body);
    assert_eq!(thrown(&now), thrown(&standings) + 2, "the sheet's results");
    let money = |p: &Value| {
        (
            p["fines_cents"].clone(),
            p["fees_cents"].clone(),
            p["open_fines_cents"].clone(),
        )
    };
    assert_eq!(
        money(&json(
            &t.get("/api/v1/seasons/2026/payouts", None).await.body
        )),
        money(&payouts)
    );
    let after = t.league.export(2026).unwrap();
    assert_eq!(
        fines(&after),
        fines(&before),
        "every fine, paid or open, kept"
    );
    assert_eq!(after.players, before.players, "every fee kept");
    assert_eq!(after.rules, before.rules, "the Strafenkatalog kept");
    for n in &after.nights {
        let replaced = n.date == first || n.date == closed;
        assert_eq!(
            n.tables.is_empty(),
            replaced,
            "{}: the two nights the sheet changes are totals now, the others keep their rounds",
            n.date
        );
    }
    let night = after.nights.iter().find(|n| n.date == closed).unwrap();
    assert!(night.closed, "still closed");
    assert_eq!(
        night.corrections.last().map(|c| c.reason.as_str()),
        Some("Alte Tabelle eingelesen")
    );

    // Each replaced night in the Protokoll.
    let admin = t.login(ADMIN).await;
    for n in [&after.nights[0], night] {
        let log = t
            .get(
                &format!("/verwaltung/protokoll?abend={}", n.date),
                Some(&admin),
            )
            .await
            .body;
        let want = format!(
            "Abend {} ersetzt, Import aus liga-2026.csv",
            n.date.format("%d.%m.%Y")
        );
        assert!(log.contains(&want), "{want}: {log}");
    }
    let log = t
        .get(
            &format!("/verwaltung/protokoll?abend={closed}"),
            Some(&admin),
        )
        .await
        .body;
    assert!(log.contains("Alte Tabelle eingelesen"), "{log}");

    // The same sheet again changes no night: no Korrektur needed.
    let preview = upload(&t, "liga-2026.csv", &sheet, &cookie).await;
    let again = confirm(&t, &digest_of(&preview.body), "c3", true, &cookie).await;
    assert_eq!(again.status, StatusCode::SEE_OTHER, "{}", again.body);
    assert_eq!(fines(&t.league.export(2026).unwrap()), fines(&before));
}

/// Issue 31.12: the upload limit is one figure: the constant is whole MiB, the upload page says
/// it, a file one byte over is refused with it, one exactly at it is not refused for its size,
/// and the README and docs/tabelle.md say the same figure. The guide to the spreadsheet import
/// ships in the package.
#[tokio::test]
async fn the_upload_limit_is_one_figure_on_the_page_in_the_code_and_in_the_docs() {
    use schockerliga::web::admin::einlesen::MAX_UPLOAD_BYTES;
    const MIB: usize = 1024 * 1024;
    assert_eq!(MAX_UPLOAD_BYTES % MIB, 0, "a whole number of MiB");
    let figure = format!("{} MiB", MAX_UPLOAD_BYTES / MIB);
    let t = TestApp::staffed().await;
    let cookie = t.login(SECRETARY).await;
    let page = t.get("/verwaltung/einlesen", Some(&cookie)).await.body;
    assert!(page.contains(&format!("bis {figure}")), "{figure}: {page}");
    let mut over = b"Datum;Spieler;Runden;Outs\n".to_vec();
    over.resize(MAX_UPLOAD_BYTES + 1, b'\n');
    let r = upload(&t, "gross.csv", &over, &cookie).await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", r.body);
    assert!(
        r.body.contains(&format!("größer als {figure}")),
        "{}",
        r.body
    );
    over.truncate(MAX_UPLOAD_BYTES);
    let r = upload(&t, "gross.csv", &over, &cookie).await;
    assert!(!r.body.contains("größer als"), "at the limit: {}", r.body);

    let root = env!("CARGO_MANIFEST_DIR");
    let read = |p: &str| std::fs::read_to_string(format!("{root}/{p}")).unwrap();
    let readme = read("README.md");
    let guide = read("docs/tabelle.md");
    for (name, text) in [("README.md", &readme), ("docs/tabelle.md", &guide)] {
        assert!(
            text.contains(&format!("Hochladen bis {figure}")),
            "{name} says the upload limit {figure}"
        );
    }
    assert!(
        readme.contains("docs/tabelle.md"),
        "the README points to the guide"
    );
    assert!(
        read("Cargo.toml")
            .contains(r#"["docs/tabelle.md", "usr/share/doc/schockerliga/tabelle.md", "644"]"#),
        "the guide ships in the package"
    );
}

/// Hostile run after issue 32.2: „ersetzen“ from a sheet took a Jahresbeitrag the season did
/// not have from the sheet's "Beitrag bezahlt am" column while the preview and the command line
/// said "Beiträge … bleiben". The one money a replacement adds is named in the preview before
/// the confirm, and stored as named.
#[tokio::test]
async fn replacing_from_a_sheet_names_a_fee_it_takes_from_the_file() {
    let sheet = String::from_utf8(small_2026_sheet().await).unwrap();
    let mut lines: Vec<Vec<String>> = sheet
        .trim_start_matches('\u{feff}')
        .lines()
        .map(|l| l.split(';').map(str::to_string).collect())
        .collect();
    let fee = lines[0]
        .iter()
        .position(|c| c.starts_with("Beitrag"))
        .expect("the sheet has its fee column");
    let player = lines[1..]
        .iter()
        .map(|r| r[1].clone())
        .find(|p| lines[1..].iter().all(|r| r[1] != *p || r[fee].is_empty()))
        .expect("a player without a fee in the small season");
    let row = lines[1..].iter().position(|r| r[1] == player).unwrap() + 1;
    lines[row][fee] = "01.03.2026".to_string();
    let edited: String = lines.iter().map(|r| r.join(";") + "\r\n").collect();

    let t = TestApp::small_season().await;
    let cookie = t.login(SECRETARY).await;
    let preview = upload(&t, "liga-2026.csv", edited.as_bytes(), &cookie).await;
    assert_eq!(preview.status, StatusCode::OK, "{}", preview.body);
    let named = format!("{player} (bezahlt am 01.03.2026)");
    let at = preview
        .body
        .find("id=\"beitraege-2026\"")
        .unwrap_or_else(|| panic!("the preview names the fee it takes: {}", preview.body));
    assert!(
        preview.body[at..].contains(&named),
        "{named}: {}",
        preview.body
    );
    let done = confirm(&t, &digest_of(&preview.body), "c1", true, &cookie).await;
    assert_eq!(done.status, StatusCode::SEE_OTHER, "{}", done.body);
    let stored = t.league.export(2026).unwrap();
    let paid = stored
        .players
        .iter()
        .find(|p| p.name == player)
        .and_then(|p| p.fee_paid_on)
        .map(|d| d.to_string());
    assert_eq!(paid.as_deref(), Some("2026-03-01"));
}

/// Fifth trial: the season's own CSV export read back with „ersetzen“ turned every night of
/// rounds into totals (Joker, rounds and Schockbesteck gone) and asked a Korrektur for the closed
/// one, though no figure had changed. The same figures change no night.
#[tokio::test]
async fn the_seasons_own_sheet_read_back_keeps_its_nights_of_rounds() {
    let file = sample_with_money();
    let t = TestApp::builder().staff().season(file).start().await;
    let cookie = t.login(SECRETARY).await;
    let sheet = t
        .get("/verwaltung/saison/2026/tabelle.csv", Some(&cookie))
        .await
        .bytes
        .to_vec();
    let before = t.league.export(2026).unwrap();
    let preview = upload(&t, "liga-2026.csv", &sheet, &cookie).await;
    assert_eq!(preview.status, StatusCode::OK, "{}", preview.body);
    assert!(
        !preview.body.contains("name=\"korrektur_grund\""),
        "no night changes, no Korrektur asked: {}",
        preview.body
    );
    let done = confirm(&t, &digest_of(&preview.body), "c1", true, &cookie).await;
    assert_eq!(done.status, StatusCode::SEE_OTHER, "{}", done.body);
    assert_eq!(
        t.league.export(2026).unwrap().nights,
        before.nights,
        "every night as it was, its rounds kept"
    );
}
