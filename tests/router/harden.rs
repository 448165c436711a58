//! What a hostile tester found (issue 5): each finding's attack from outside, through the whole app
//! (`oneshot`), refused with a German message and nothing stored (the command-line findings are in
//! the binary tests' `harden`).

use std::time::{Duration, Instant};

use axum::body::Body;
use axum::http::StatusCode;
use serde_json::{json, Value};

use crate::app::*;

/// The id of player `name`.
async fn player_id(t: &TestApp, name: &str) -> i64 {
    let (id,): (i64,) = sqlx::query_as("select id from players where name = ?")
        .bind(name)
        .fetch_one(&t.db.write)
        .await
        .unwrap();
    id
}

/// Imports a season `year` with the small fixture's rules and only the player `name`, no nights.
async fn import_other_season(t: &TestApp, year: i32, name: &str) {
    let text = std::fs::read_to_string(fixture("small-2026.season.json")).unwrap();
    let mut v: Value = serde_json::from_str(&text).unwrap();
    v["season"] = json!(year);
    v["players"] = json!([{"name": name, "fee_paid_on": null}]);
    v["nights"] = json!([]);
    let file = serde_json::from_value(v).unwrap();
    schockerliga::service::import(&t.db, &file, false)
        .await
        .unwrap();
}

#[tokio::test]
async fn wurfrunde_with_70000_throws_is_refused_quickly() {
    let t = TestApp::staffed().await;
    let throws: Vec<Value> = (0..70_000)
        .map(|i| json!({"player": format!("P{i}"), "dice": [6, 5, 4], "wuerfe": 1}))
        .collect();
    let body = serde_json::to_vec(&json!({"throws": throws})).unwrap();
    assert!(body.len() < 4 * 1024 * 1024, "{} bytes", body.len());
    let start = Instant::now();
    let resp = t.send(json("/api/v1/wurfrunde", body, None)).await;
    let took = start.elapsed();
    assert_eq!(resp.status, StatusCode::UNPROCESSABLE_ENTITY);
    let v: Value = serde_json::from_str(&resp.body).unwrap();
    assert!(
        v["error"]
            .as_str()
            .unwrap_or("")
            .contains("höchstens 20 Spieler"),
        "{v}"
    );
    assert!(took < Duration::from_secs(5), "took {took:?}");
}

#[tokio::test]
async fn rename_through_another_season_is_refused() {
    let t = TestApp::small_season().await;
    import_other_season(&t, 2027, "Neuling").await;
    let cookie = t.login(SECRETARY).await;
    let anna = player_id(&t, "Anna").await;
    let neu = player_id(&t, "Neuling").await;
    let long = "x".repeat(10_000);
    // (year of the URL, player, new name, expected fragment of the 422 page)
    let cases = [
        (2027, anna, long.as_str(), "spielt nicht in der Saison 2027"),
        (2027, anna, "Anna2", "spielt nicht in der Saison 2027"),
        (2026, anna, long.as_str(), "mehr als 60 Zeichen"),
        (2027, neu, long.as_str(), "mehr als 60 Zeichen"),
    ];
    let before = snapshot(&t.db.write).await;
    for (year, id, name, want) in cases {
        let uri = format!("/verwaltung/saison/{year}/spieler/{id}/name");
        let resp = t
            .send(form(&uri, &format!("name={name}"), Some(&cookie)))
            .await;
        assert_eq!(resp.status, StatusCode::UNPROCESSABLE_ENTITY, "{uri}");
        let page = resp.body;
        assert!(page.contains(want), "{uri}: no {want:?}");
    }
    assert_eq!(snapshot(&t.db.write).await, before, "nothing stored");
    // A player of both seasons: the name must pass both, and the good rename still works.
    let resp = t
        .send(form(
            &format!("/verwaltung/saison/2026/spieler/{anna}/name"),
            "name=Anne",
            Some(&cookie),
        ))
        .await;
    assert_eq!(resp.status, StatusCode::SEE_OTHER);
    assert_eq!(player_id(&t, "Anne").await, anna);
    let resp = t.send(get("/saison/2026", None)).await;
    assert_ne!(resp.status, StatusCode::INTERNAL_SERVER_ERROR);
}

#[tokio::test]
async fn invisible_and_case_twin_names_are_refused_in_the_forms() {
    let t = TestApp::small_season().await;
    import_other_season(&t, 2027, "Neuling").await;
    let cookie = t.login(SECRETARY).await;
    let bernd = player_id(&t, "Bernd").await;
    let add = "/verwaltung/saison/2026/spieler".to_string();
    let rename = format!("/verwaltung/saison/2026/spieler/{bernd}/name");
    // (form, name, expected fragment of the 422 page)
    let cases = [
        // A league player's name in another case is that player (fresh-user trial): Anna plays
        // in 2026 already; „neuling“ (of 2027) would be added as Neuling
        // (`a_known_player_is_added_whatever_the_case`).
        (&add, "anna", "Anna ist schon Spieler der Saison 2026."),
        (&add, "Zo\u{7}e", "U+0007"),
        (&add, "\u{1b}[31mRot", "U+001B"),
        (&add, "Zo\te", "U+0009"),
        (&add, "Zo\ne", "U+000A"),
        (&add, "\u{202E}eoZ", "U+202E"),
        (&add, "Zoe\u{2069}", "U+2069"),
        (&add, "Zo\u{200B}e", "U+200B"),
        (&add, "\u{FEFF}\u{200B}", "U+FEFF"),
        (&rename, "ANNA", "(Groß-/Kleinschreibung)"),
        (&rename, "Ber\u{202E}nd", "U+202E"),
    ];
    let before = snapshot(&t.db.write).await;
    for (uri, name, want) in cases {
        let resp = t
            .send(form(uri, &format!("name={}", enc(name)), Some(&cookie)))
            .await;
        assert_eq!(resp.status, StatusCode::UNPROCESSABLE_ENTITY, "{name:?}");
        let page = resp.body;
        assert!(page.contains(want), "{name:?}: no {want:?}");
    }
    assert_eq!(snapshot(&t.db.write).await, before, "nothing stored");
    // NFD in, NFC stored; the NFC spelling is then the same player.
    let resp = t
        .send(form(
            &add,
            &format!("name={}", enc(" Ju\u{308}rgen ")),
            Some(&cookie),
        ))
        .await;
    assert_eq!(resp.status, StatusCode::SEE_OTHER);
    player_id(&t, "J\u{fc}rgen").await;
    let resp = t
        .send(form(
            &add,
            &format!("name={}", enc("jürgen")),
            Some(&cookie),
        ))
        .await;
    assert_eq!(resp.status, StatusCode::UNPROCESSABLE_ENTITY);
}

/// A look-alike of a league player's name (fullwidth „Ａnna“ beside „Anna“) is no new player
/// (hostile trial): in the season of Anna it is refused, nothing stored.
#[tokio::test]
async fn a_look_alike_name_is_no_new_player() {
    let t = TestApp::small_season().await;
    let cookie = t.login(SECRETARY).await;
    let before = snapshot(&t.db.write).await;
    for look_alike in ["\u{FF21}nna", "\u{FF21}\u{FF2E}\u{FF2E}\u{FF21}"] {
        let resp = t
            .send(form(
                "/verwaltung/saison/2026/spieler",
                &format!("name={}", enc(look_alike)),
                Some(&cookie),
            ))
            .await;
        assert_eq!(
            resp.status,
            StatusCode::UNPROCESSABLE_ENTITY,
            "{look_alike}"
        );
        assert!(resp.body.contains("Anna"), "{}", resp.body);
    }
    assert_eq!(snapshot(&t.db.write).await, before, "nothing stored");
}

#[tokio::test]
async fn framework_refusals_answer_in_german_with_their_status() {
    let t = TestApp::small_season().await;
    let cookie = t.login(SECRETARY).await;
    let big = vec![b' '; 5 * 1024 * 1024];
    let json_form = {
        let mut r = form("/verwaltung/saison", "{}", Some(&cookie));
        r.headers_mut().insert(
            "content-type",
            axum::http::HeaderValue::from_static("application/json"),
        );
        r
    };
    // (request, status, is JSON, expected German fragment)
    let cases: Vec<(axum::http::Request<Body>, StatusCode, bool, &str)> = vec![
        (
            form("/verwaltung/saison", "", Some(&cookie)),
            StatusCode::UNPROCESSABLE_ENTITY,
            false,
            "Formular unvollständig oder fehlerhaft",
        ),
        (
            form("/verwaltung/saison/abc/spieler", "name=X", Some(&cookie)),
            StatusCode::BAD_REQUEST,
            false,
            "Anfrage fehlerhaft",
        ),
        (
            json_form,
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            false,
            "Falscher Inhaltstyp",
        ),
        (
            json("/api/v1/wurfrunde", big, None),
            StatusCode::PAYLOAD_TOO_LARGE,
            true,
            "Anfrage zu groß (höchstens 4 MiB)",
        ),
    ];
    for (r, status, is_json, want) in cases {
        let uri = r.uri().to_string();
        let resp = t.send(r).await;
        assert_eq!(resp.status, status, "{uri}");
        let ct = resp
            .headers
            .get("content-type")
            .and_then(|v| v.to_str().ok())
            .unwrap_or("")
            .to_string();
        let body = resp.body;
        for english in [
            "Failed to",
            "Invalid URL",
            "length limit",
            "Expected request",
        ] {
            assert!(!body.contains(english), "{uri}: {body}");
        }
        if is_json {
            assert!(ct.starts_with("application/json"), "{uri}: {ct}");
            let v: Value = serde_json::from_str(&body).unwrap();
            let error = v["error"].as_str().unwrap_or("");
            assert!(error.contains(want), "{uri}: {v}");
        } else {
            assert!(ct.starts_with("text/html"), "{uri}: {ct}");
            assert!(body.contains(want), "{uri}: {body}");
        }
    }
}

#[tokio::test]
async fn api_as_of_outside_the_season_is_a_400() {
    let t = TestApp::small_season().await;
    for (q, status) in [
        ("0000-01-01", StatusCode::BAD_REQUEST),
        ("2027-01-01", StatusCode::BAD_REQUEST),
        ("2026-06-30", StatusCode::OK),
    ] {
        let uri = format!("/api/v1/seasons/2026/standings?as_of={q}");
        let resp = t.send(get(&uri, None)).await;
        assert_eq!(resp.status, status, "{uri}");
        let v: Value = serde_json::from_str(&resp.body).unwrap();
        if status == StatusCode::BAD_REQUEST {
            let e = v["error"].as_str().unwrap_or("");
            assert!(e.contains("nicht in der Saison 2026"), "{uri}: {v}");
        }
    }
}

/// Adding a league player in another case picks him (fresh-user trial: „anna“ was refused or
/// would have been a second Anna): the player of an earlier season is added under his own
/// spelling, one player in the league; in his own season the name is refused as already there.
#[tokio::test]
async fn a_known_player_is_added_whatever_the_case() {
    let t = TestApp::small_season().await;
    import_other_season(&t, 2025, "Neuling").await;
    let cookie = t.login(SECRETARY).await;
    let neuling = player_id(&t, "Neuling").await;
    let add = "/verwaltung/saison/2026/spieler";
    let resp = t.send(form(add, "name=%20neuLING%20", Some(&cookie))).await;
    assert_eq!(resp.status, StatusCode::SEE_OTHER, "{}", resp.body);
    let page = t
        .get(resp.location().unwrap_or_default(), Some(&cookie))
        .await;
    assert!(
        page.body.contains("Neuling ist Spieler der Saison 2026."),
        "{}",
        page.body
    );
    let in_2026: Vec<(i64, String)> = sqlx::query_as(
        "select p.id, p.name from season_players s join players p on p.id = s.player_id
         where s.season = 2026 and lower(p.name) = 'neuling'",
    )
    .fetch_all(&t.db.read)
    .await
    .unwrap();
    assert_eq!(in_2026, [(neuling, "Neuling".to_string())]);
    let (players,): (i64,) =
        sqlx::query_as("select count(*) from players where lower(name) = 'neuling'")
            .fetch_one(&t.db.read)
            .await
            .unwrap();
    assert_eq!(players, 1, "one player in the league");
    let before = snapshot(&t.db.write).await;
    let resp = t.send(form(add, "name=NEULING", Some(&cookie))).await;
    assert_eq!(resp.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(resp
        .body
        .contains("Neuling ist schon Spieler der Saison 2026."));
    assert_eq!(snapshot(&t.db.write).await, before, "nothing stored");
}

/// A league stored before look-alikes were refused may hold „Ａnna“ beside „Anna“ in one season:
/// it still loads (the table is there, not a 500), and a change to that season still goes in.
#[tokio::test]
async fn a_stored_look_alike_does_not_make_the_season_unreadable() {
    let mut t = TestApp::small_season().await;
    let (id,): (i64,) = sqlx::query_as("insert into players (name) values (?) returning id")
        .bind("\u{FF21}nna")
        .fetch_one(&t.db.write)
        .await
        .unwrap();
    sqlx::query("insert into season_players (season, player_id, position) values (2026, ?, 99)")
        .bind(id)
        .execute(&t.db.write)
        .await
        .unwrap();
    t.restart().await;
    let home = t.get("/", None).await;
    assert_eq!(home.status, StatusCode::OK, "{}", home.body);
    assert!(home.body.contains("<h1>Tabelle 2026</h1>"), "{}", home.body);
    let cookie = t.login(SECRETARY).await;
    let resp = t
        .send(form(
            "/verwaltung/saison/2026/spieler",
            "name=Zoe",
            Some(&cookie),
        ))
        .await;
    assert_eq!(resp.status, StatusCode::SEE_OTHER, "{}", resp.body);
    let view = t.league.snapshot();
    let names: Vec<&str> = view
        .season(2026)
        .unwrap()
        .season
        .players
        .iter()
        .map(|p| p.name.as_str())
        .collect();
    assert!(
        names.contains(&"Zoe") && names.contains(&"\u{FF21}nna"),
        "{names:?}"
    );
}

/// A stored season that fails its checks (damaged by hand, an older program's bug) is named with
/// its reason on the page, not hidden behind "Ein interner Fehler".
#[tokio::test]
async fn an_unreadable_season_says_which_and_why() {
    let mut t = TestApp::small_season().await;
    sqlx::query("update seasons set rules_json = ? where year = 2026")
        .bind(r#"{"split_tables_from": "viele"}"#)
        .execute(&t.db.write)
        .await
        .unwrap();
    t.restart().await;
    let resp = t.get("/saison/2026", None).await;
    assert_eq!(resp.status, StatusCode::INTERNAL_SERVER_ERROR);
    assert!(
        resp.body.contains(
            "Die gespeicherten Daten lassen sich nicht lesen: gespeicherte Saison 2026 ungültig"
        ),
        "{}",
        resp.body
    );
    assert!(resp.body.contains("Sicherung"), "{}", resp.body);
    // So does a night of that season, and the Verwaltung's page of it (not a 404).
    let cookie = t.login(SECRETARY).await;
    for path in ["/abend/2026-01-02", "/verwaltung/abend/2026-01-02"] {
        let resp = t.get(path, Some(&cookie)).await;
        assert_eq!(
            resp.status,
            StatusCode::INTERNAL_SERVER_ERROR,
            "{path}: {}",
            resp.body
        );
        assert!(
            resp.body.contains("lassen sich nicht lesen"),
            "{path}: {}",
            resp.body
        );
    }
    // The JSON API says the same.
    let api = t.get("/api/v1/seasons/2026/standings", None).await;
    assert_eq!(api.status, StatusCode::INTERNAL_SERVER_ERROR);
    assert!(
        api.body.contains(
            "Die gespeicherten Daten lassen sich nicht lesen: gespeicherte Saison 2026 ungültig"
        ),
        "{}",
        api.body
    );
}

/// Look-alikes from other scripts (issue 32.7, Unicode TS #39): „Аnna“ with a Cyrillic А, „ΑΝΝΑ“
/// in Greek capitals beside „Anna“, „KIaus“ with a capital I beside another season's „Klaus“, and
/// names that mix scripts are no new players; „аdmin“ is no new account. Nothing is stored.
#[tokio::test]
async fn a_look_alike_from_another_script_is_no_new_player_or_account() {
    let t = TestApp::small_season().await;
    import_other_season(&t, 2025, "Klaus").await;
    let cookie = t.login(SECRETARY).await;
    let before = snapshot(&t.db.write).await;
    // (name, a part of the refusal)
    let cases = [
        ("\u{410}nna", "Anna"),
        ("\u{391}\u{39D}\u{39D}\u{391}", "Anna"),
        ("KIaus", "Klaus"),
        ("Z\u{43E}e", "mischt Schriften"),
    ];
    for (name, want) in cases {
        let resp = t
            .send(form(
                "/verwaltung/saison/2026/spieler",
                &format!("name={}", enc(name)),
                Some(&cookie),
            ))
            .await;
        assert_eq!(resp.status, StatusCode::UNPROCESSABLE_ENTITY, "{name}");
        assert!(resp.body.contains(want), "{name}: {}", resp.body);
    }
    assert_eq!(snapshot(&t.db.write).await, before, "nothing stored");
    // A name wholly in another script is a name like any other.
    let resp = t
        .send(form(
            "/verwaltung/saison/2026/spieler",
            &format!("name={}", enc("Светлана")),
            Some(&cookie),
        ))
        .await;
    assert_eq!(resp.status, StatusCode::SEE_OTHER, "{}", resp.body);

    let admin = t.login(ADMIN).await;
    let before = snapshot(&t.db.write).await;
    let body = format!(
        "username={}&password=geheim-geheim-1&password2=geheim-geheim-1&role=secretary",
        enc("\u{430}dmin")
    );
    let resp = t.post("/verwaltung/konten", &body, Some(&admin)).await;
    assert_eq!(
        resp.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "{}",
        resp.body
    );
    assert!(resp.body.contains("mischt Schriften"), "{}", resp.body);
    assert_eq!(snapshot(&t.db.write).await, before, "no account");
}

/// Where „Das bin ich“ sends back (`zurueck`) is a path of this site only (issue 32.8): a TAB or
/// a line break in it gave a strange `Location` (browsers drop TABs: `/\t/evil.example` is
/// `//evil.example`) or a 500.
#[tokio::test]
async fn das_bin_ich_sends_back_only_to_a_path_of_this_site() {
    let t = TestApp::small_season().await;
    let id = *t
        .league
        .snapshot()
        .season(2026)
        .unwrap()
        .ids
        .players
        .values()
        .next()
        .unwrap();
    let cases = [
        ("/saison/2026", "/saison/2026"),
        ("/\t/evil.example", "/"),
        ("/x\r\nSet-Cookie: a=b", "/"),
        ("/x\n", "/"),
        ("//evil.example", "/"),
        ("/\\evil.example", "/"),
        ("https://evil.example/", "/"),
    ];
    for (back, want) in cases {
        for (uri, body) in [
            ("/ich", format!("spieler={id}&zurueck={}", enc(back))),
            ("/ich/vergessen", format!("zurueck={}", enc(back))),
        ] {
            let resp = t.post(uri, &body, None).await;
            assert_eq!(resp.status, StatusCode::SEE_OTHER, "{uri} {back:?}");
            assert_eq!(resp.location(), Some(want), "{uri} {back:?}");
        }
    }
}
