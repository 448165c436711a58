//! Every case of `tests/fixtures/wurfrunde.json` from outside through `POST /api/v1/wurfrunde` (the
//! whole app, as served); the binary tests' `wurfrunde` sends them through the command line.

use axum::http::StatusCode;
use serde_json::Value;

use crate::app::TestApp;
use crate::common::{check_expect, engine, wurfrunde_cases as cases};

/// Posts `body` to the Wurfrunde API; the status and the JSON answer.
async fn post(t: &TestApp, body: Vec<u8>) -> (StatusCode, Value) {
    let r = t.post_json("/api/v1/wurfrunde", body, None).await;
    (r.status, r.json())
}

#[tokio::test]
async fn every_fixture_case_through_the_http_api() {
    let t = TestApp::empty().await;
    let (mut valid, mut invalid, mut fields) = (0, 0, 0);
    for case in cases() {
        let name = case["name"].as_str().unwrap();
        let (status, v) = post(&t, serde_json::to_vec(&case["request"]).unwrap()).await;
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
    let t = TestApp::empty().await;
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
        let (s, v) = post(&t, body.as_bytes().to_vec()).await;
        assert_eq!(s, status, "{body}: {v}");
        let msg = v["error"].as_str().unwrap_or_else(|| panic!("{body}: {v}"));
        assert!(msg.contains(needle), "{body}: {msg}");
    }
}
