//! Every case of `tests/fixtures/wurfrunde.json` from outside: through `POST /api/v1/wurfrunde`
//! (the whole app, as served) and through `schockerliga wurfrunde FILE|-` (the real binary).

use std::io::Write;
use std::process::{Command, Stdio};

use axum::body::Body;
use axum::http::{Request, StatusCode};
use axum::Router;
use http_body_util::BodyExt;
use schockerliga::web::{build_app, Config};
use serde_json::Value;
use tower::ServiceExt;

const BIN: &str = env!("CARGO_BIN_EXE_schockerliga");

fn cases() -> Vec<Value> {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/wurfrunde.json"
    ))
    .expect("fixture");
    serde_json::from_str(&text).expect("fixture JSON")
}

/// Checks a response against a case's `expect` (per-result fields are lists in throwing order);
/// returns the number of fields compared.
fn check_expect(name: &str, v: &Value, expect: &Value) -> usize {
    let per_result = |field: &str| -> Value {
        Value::Array(
            v["results"]
                .as_array()
                .unwrap_or_else(|| panic!("{name}: no results in {v}"))
                .iter()
                .map(|r| r[field].clone())
                .collect(),
        )
    };
    let mut n = 0;
    for (key, want) in expect.as_object().unwrap() {
        let have = match key.as_str() {
            "classes" => per_result("class"),
            "values" => per_result("value"),
            "from_hand" => per_result("from_hand"),
            "labels" => per_result("label"),
            "wuerfe" => per_result("wuerfe"),
            other => {
                assert!(v.get(other).is_some(), "{name}: no field {other} in {v}");
                v[other].clone()
            }
        };
        assert_eq!(&have, want, "{name}: field {key}");
        n += 1;
    }
    n
}

/// The library's own answer: the value for a valid request, the message for an invalid one.
fn engine(request: &Value) -> Result<Value, String> {
    let body = serde_json::to_vec(request).unwrap();
    schockerliga::rules::evaluate_wurfrunde_json(&body).map_err(|e| e.to_string())
}

async fn app() -> (tempfile::TempDir, Router) {
    let dir = tempfile::tempdir().unwrap();
    let config = Config::new(dir.path().join("liga.db"), "127.0.0.1:0".parse().unwrap());
    (dir, build_app(config).await.unwrap())
}

async fn post(app: &Router, body: Vec<u8>) -> (StatusCode, Value) {
    let resp = app
        .clone()
        .oneshot(
            Request::post("/api/v1/wurfrunde")
                .header("content-type", "application/json")
                .body(Body::from(body))
                .unwrap(),
        )
        .await
        .unwrap();
    let status = resp.status();
    let bytes = resp.into_body().collect().await.unwrap().to_bytes();
    let v = serde_json::from_slice(&bytes)
        .unwrap_or_else(|e| panic!("not JSON ({e}): {}", String::from_utf8_lossy(&bytes)));
    (status, v)
}

#[tokio::test]
async fn every_fixture_case_through_the_http_api() {
    let (_dir, app) = app().await;
    let (mut valid, mut invalid, mut fields) = (0, 0, 0);
    for case in cases() {
        let name = case["name"].as_str().unwrap();
        let (status, v) = post(&app, serde_json::to_vec(&case["request"]).unwrap()).await;
        if case["expect"]["error"] == Value::Bool(true) {
            assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{name}: {v}");
            let msg = v["error"].as_str().unwrap_or_else(|| panic!("{name}: {v}"));
            assert!(
                msg.starts_with("Spieler ") && msg.contains("Wurf "),
                "{name}: {msg}"
            );
            assert_eq!(Err(msg.to_string()), engine(&case["request"]), "{name}");
            invalid += 1;
        } else {
            assert_eq!(status, StatusCode::OK, "{name}: {v}");
            fields += check_expect(name, &v, &case["expect"]);
            assert_eq!(Ok(v), engine(&case["request"]), "{name}");
            valid += 1;
        }
    }
    assert_eq!((valid, invalid, fields), (15, 3, 76));
}

#[tokio::test]
async fn malformed_requests_get_a_json_error() {
    let (_dir, app) = app().await;
    // (body, status, text in the message)
    let cases: Vec<(&str, StatusCode, &str)> = vec![
        ("{\"throws\": [", StatusCode::BAD_REQUEST, "Zeile 1"),
        ("nicht json", StatusCode::BAD_REQUEST, "ungültige Anfrage"),
        (
            r#"{"rules":"hessen","throws":[{"player":"A","dice":[1,1,4],"wuerfe":1},{"player":"B","dice":[1,1,4],"wuerfe":1}]}"#,
            StatusCode::UNPROCESSABLE_ENTITY,
            "unbekannter Regelsatz „hessen“",
        ),
        (
            r#"{"throws":[{"player":"A","dice":[1,1,4],"wuerfe":1,"farbe":"rot"}]}"#,
            StatusCode::UNPROCESSABLE_ENTITY,
            "farbe",
        ),
    ];
    for (body, status, needle) in cases {
        let (s, v) = post(&app, body.as_bytes().to_vec()).await;
        assert_eq!(s, status, "{body}: {v}");
        let msg = v["error"].as_str().unwrap_or_else(|| panic!("{body}: {v}"));
        assert!(msg.contains(needle), "{body}: {msg}");
    }
}

/// Runs `schockerliga wurfrunde ARG` with `stdin`; returns (exit code, stdout, stderr).
fn cli(arg: &str, stdin: &[u8]) -> (Option<i32>, String, String) {
    let mut child = Command::new(BIN)
        .args(["wurfrunde", arg])
        .env_remove("DATABASE_URL")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(stdin).unwrap();
    let out = child.wait_with_output().unwrap();
    (
        out.status.code(),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

#[test]
fn every_fixture_case_through_the_command_line() {
    let dir = tempfile::tempdir().unwrap();
    let (mut valid, mut invalid) = (0, 0);
    for (i, case) in cases().iter().enumerate() {
        let name = case["name"].as_str().unwrap();
        let body = serde_json::to_vec_pretty(&case["request"]).unwrap();
        // odd cases from a file, even ones from stdin
        let (code, stdout, stderr) = if i % 2 == 1 {
            let path = dir.path().join(format!("case{i}.json"));
            std::fs::write(&path, &body).unwrap();
            cli(path.to_str().unwrap(), b"")
        } else {
            cli("-", &body)
        };
        if case["expect"]["error"] == Value::Bool(true) {
            assert_eq!(code, Some(1), "{name}: {stdout}");
            assert!(stdout.is_empty(), "{name}: {stdout}");
            let want = engine(&case["request"]).unwrap_err();
            assert!(stderr.contains(&want), "{name}: {stderr}");
            invalid += 1;
        } else {
            assert_eq!(code, Some(0), "{name}: {stderr}");
            let v: Value = serde_json::from_str(&stdout).unwrap();
            check_expect(name, &v, &case["expect"]);
            assert_eq!(Ok(v), engine(&case["request"]), "{name}");
            valid += 1;
        }
    }
    assert_eq!((valid, invalid), (15, 3));
}

#[test]
fn the_command_line_refuses_a_missing_file_and_broken_json() {
    let (code, _, stderr) = cli("/nicht/da.json", b"");
    assert_eq!(code, Some(1));
    assert!(stderr.contains("/nicht/da.json nicht lesbar"), "{stderr}");
    let (code, stdout, stderr) = cli("-", b"{\"throws\": [");
    assert_eq!(code, Some(1));
    assert!(stdout.is_empty());
    assert!(stderr.contains("ungültige Anfrage (Zeile 1"), "{stderr}");
    // no subcommand argument: a usage error
    let out = Command::new(BIN).arg("wurfrunde").output().unwrap();
    assert_eq!(out.status.code(), Some(2));
}
