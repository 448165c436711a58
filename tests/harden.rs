//! What a hostile tester found (issue 5): each finding's attack from outside, through the whole app
//! (`oneshot`) or the real binary, refused with a German message and nothing stored.

mod common;

use std::time::{Duration, Instant};

use axum::body::Body;
use axum::http::StatusCode;
use common::*;
use serde_json::{json, Value};

/// A JSON POST to `uri` with `body`.
fn json_post(uri: &str, body: Vec<u8>) -> axum::http::Request<Body> {
    req("POST", uri)
        .header("content-type", "application/json")
        .body(Body::from(body))
        .unwrap()
}

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
    let t = test_app(false, false).await;
    let throws: Vec<Value> = (0..70_000)
        .map(|i| json!({"player": format!("P{i}"), "dice": [6, 5, 4], "wuerfe": 1}))
        .collect();
    let body = serde_json::to_vec(&json!({"throws": throws})).unwrap();
    assert!(body.len() < 4 * 1024 * 1024, "{} bytes", body.len());
    let start = Instant::now();
    let resp = send(&t.app, json_post("/api/v1/wurfrunde", body)).await;
    let took = start.elapsed();
    assert_eq!(resp.status(), StatusCode::UNPROCESSABLE_ENTITY);
    let v: Value = serde_json::from_str(&text(resp).await).unwrap();
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
    let t = test_app(true, false).await;
    import_other_season(&t, 2027, "Neuling").await;
    let cookie = login(&t.app, SECRETARY, None).await;
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
        let resp = send(&t.app, form(&uri, &format!("name={name}"), Some(&cookie))).await;
        assert_eq!(resp.status(), StatusCode::UNPROCESSABLE_ENTITY, "{uri}");
        let page = text(resp).await;
        assert!(page.contains(want), "{uri}: no {want:?}");
    }
    assert_eq!(snapshot(&t.db.write).await, before, "nothing stored");
    // A player of both seasons: the name must pass both, and the good rename still works.
    let resp = send(
        &t.app,
        form(
            &format!("/verwaltung/saison/2026/spieler/{anna}/name"),
            "name=Anne",
            Some(&cookie),
        ),
    )
    .await;
    assert_eq!(resp.status(), StatusCode::SEE_OTHER);
    assert_eq!(player_id(&t, "Anne").await, anna);
    let resp = send(&t.app, get("/saison/2026", None)).await;
    assert_ne!(resp.status(), StatusCode::INTERNAL_SERVER_ERROR);
}

const BIN: &str = env!("CARGO_BIN_EXE_schockerliga");

/// Runs the real binary with `args` and `--database db`.
fn cli(db: &std::path::Path, args: &[&str]) -> std::process::Output {
    std::process::Command::new(BIN)
        .args(args)
        .arg("--database")
        .arg(db)
        .env_remove("DATABASE_URL")
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap()
}

/// The small fixture season as JSON, for editing.
fn small_season() -> Value {
    serde_json::from_str(&std::fs::read_to_string(fixture("small-2026.season.json")).unwrap())
        .unwrap()
}

#[test]
fn overflowing_numbers_in_a_season_file_exit_1_without_panic() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("liga.db");
    // (edit of the small season, expected fragment of stderr)
    type Edit = fn(&mut Value);
    let cases: [(Edit, &str); 3] = [
        (
            |v| v["rules"]["payout_percent"] = json!([4294967295u32, 1]),
            "payout_percent",
        ),
        (
            |v| v["rules"]["payout_percent"] = json!([2147483648u32, 2147483648u32]),
            "payout_percent",
        ),
        (
            |v| {
                let fines = v["nights"][0]["fines"].as_array_mut().unwrap();
                fines.push(json!({"player": "Anna", "kind": "late", "paid": true,
                                  "amount_cents": i64::MAX}));
                fines.push(json!({"player": "Anna", "kind": "late", "paid": true,
                                  "amount_cents": i64::MAX}));
            },
            "höchstens 1.000.000 Cent",
        ),
    ];
    for (i, (edit, want)) in cases.into_iter().enumerate() {
        let mut v = small_season();
        edit(&mut v);
        let path = dir.path().join(format!("case{i}.json"));
        std::fs::write(&path, serde_json::to_vec(&v).unwrap()).unwrap();
        let out = cli(&db, &["import", path.to_str().unwrap()]);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "case {i}: {err}");
        assert!(err.contains(want), "case {i}: {err}");
        assert!(!err.contains("panicked"), "case {i}: {err}");
    }
}

/// Url-encodes `s` for a form body.
fn enc(s: &str) -> String {
    s.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' => (b as char).to_string(),
            _ => format!("%{b:02X}"),
        })
        .collect()
}

#[tokio::test]
async fn invisible_and_case_twin_names_are_refused_in_the_forms() {
    let t = test_app(true, false).await;
    import_other_season(&t, 2027, "Neuling").await;
    let cookie = login(&t.app, SECRETARY, None).await;
    let bernd = player_id(&t, "Bernd").await;
    let add = "/verwaltung/saison/2026/spieler".to_string();
    let rename = format!("/verwaltung/saison/2026/spieler/{bernd}/name");
    // (form, name, expected fragment of the 422 page)
    let cases = [
        (&add, "anna", "(Groß-/Kleinschreibung)"),
        (&add, "neuling", "(Groß-/Kleinschreibung)"),
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
        let resp = send(
            &t.app,
            form(uri, &format!("name={}", enc(name)), Some(&cookie)),
        )
        .await;
        assert_eq!(resp.status(), StatusCode::UNPROCESSABLE_ENTITY, "{name:?}");
        let page = text(resp).await;
        assert!(page.contains(want), "{name:?}: no {want:?}");
    }
    assert_eq!(snapshot(&t.db.write).await, before, "nothing stored");
    // NFD in, NFC stored; the NFC spelling is then the same player.
    let resp = send(
        &t.app,
        form(
            &add,
            &format!("name={}", enc(" Ju\u{308}rgen ")),
            Some(&cookie),
        ),
    )
    .await;
    assert_eq!(resp.status(), StatusCode::SEE_OTHER);
    player_id(&t, "J\u{fc}rgen").await;
    let resp = send(
        &t.app,
        form(&add, &format!("name={}", enc("jürgen")), Some(&cookie)),
    )
    .await;
    assert_eq!(resp.status(), StatusCode::UNPROCESSABLE_ENTITY);
}

#[test]
fn user_add_uses_the_web_account_name_check() {
    use std::io::Write;
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("liga.db");
    let long = "k".repeat(51);
    // (name, accepted)
    let cases = [
        ("kassierer", true),
        (long.as_str(), false),
        ("kas\u{7}sierer", false),
        ("\u{1b}[31mrot", false),
        ("kas\tsierer", false),
        ("\u{202E}reiressak", false),
        ("kas\u{200B}sierer", false),
        ("   ", false),
    ];
    for (name, ok) in cases {
        let mut child = std::process::Command::new(BIN)
            .args(["user", "add", name, "--role", "secretary", "--database"])
            .arg(&db)
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        // The name may be refused before the password is read: a closed pipe is fine then.
        let _ = child.stdin.take().unwrap().write_all(b"geheim123\n");
        let out = child.wait_with_output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.success(), ok, "{name:?}: {err}");
        if !ok {
            assert_eq!(out.status.code(), Some(1), "{name:?}: {err}");
            assert!(err.contains("Der Name"), "{name:?}: {err}");
        }
    }
}

#[tokio::test]
async fn framework_refusals_answer_in_german_with_their_status() {
    let t = test_app(true, false).await;
    let cookie = login(&t.app, SECRETARY, None).await;
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
            json_post("/api/v1/wurfrunde", big),
            StatusCode::PAYLOAD_TOO_LARGE,
            true,
            "Anfrage zu groß (höchstens 4 MiB)",
        ),
    ];
    for (r, status, is_json, want) in cases {
        let uri = r.uri().to_string();
        let resp = send(&t.app, r).await;
        assert_eq!(resp.status(), status, "{uri}");
        let ct = resp
            .headers()
            .get("content-type")
            .and_then(|v| v.to_str().ok())
            .unwrap_or("")
            .to_string();
        let body = text(resp).await;
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

#[test]
fn cli_bom_broken_pipe_and_directory() {
    use std::io::Read;
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("liga.db");
    // A season file with a UTF-8 byte order mark imports like one without.
    let mut bom = b"\xEF\xBB\xBF".to_vec();
    bom.extend(std::fs::read(fixture("sample-2026.season.json")).unwrap());
    let file = dir.path().join("bom.json");
    std::fs::write(&file, bom).unwrap();
    let out = cli(&db, &["import", file.to_str().unwrap()]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );

    // `export 2026 | head`: the reader goes away; no panic, exit 0.
    let mut child = std::process::Command::new(BIN)
        .args(["export", "2026", "--database"])
        .arg(&db)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let mut err = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut err)
        .unwrap();
    let status = child.wait().unwrap();
    assert!(!err.contains("panicked"), "{err}");
    assert!(status.success(), "{status:?}: {err}");

    // --database naming a directory: one clear sentence.
    let out = cli(dir.path(), &["standings", "2026"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert_eq!(err.matches("ist ein Verzeichnis").count(), 1, "{err}");
}

#[tokio::test]
async fn api_as_of_outside_the_season_is_a_400() {
    let t = test_app(true, false).await;
    for (q, status) in [
        ("0000-01-01", StatusCode::BAD_REQUEST),
        ("2027-01-01", StatusCode::BAD_REQUEST),
        ("2026-06-30", StatusCode::OK),
    ] {
        let uri = format!("/api/v1/seasons/2026/standings?as_of={q}");
        let resp = send(&t.app, get(&uri, None)).await;
        assert_eq!(resp.status(), status, "{uri}");
        let v: Value = serde_json::from_str(&text(resp).await).unwrap();
        if status == StatusCode::BAD_REQUEST {
            let e = v["error"].as_str().unwrap_or("");
            assert!(e.contains("nicht in der Saison 2026"), "{uri}: {v}");
        }
    }
}

#[test]
fn cli_as_of_outside_the_season_exits_1() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("liga.db");
    let file = fixture("small-2026.season.json");
    assert!(cli(&db, &["import", file.to_str().unwrap()])
        .status
        .success());
    // An as-of date outside the season's year is an input error.
    for date in ["0000-01-01", "2025-12-31", "2027-01-01"] {
        let out = cli(&db, &["standings", "2026", "--as-of", date]);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{date}: {err}");
        assert!(err.contains("nicht in der Saison 2026"), "{date}: {err}");
    }
    let out = cli(&db, &["standings", "2026", "--as-of", "2026-03-01"]);
    assert!(out.status.success());
}
