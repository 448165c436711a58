//! `POST /api/v1/wurfrunde` (interchange.md "Rules engine from outside"): one Wurfrunde evaluated by
//! the pure engine, public, no state changed. JSON in, JSON out; errors are JSON
//! `{"error": "<German message>"}`: 400 for bytes that are not JSON, 422 for a request the rules
//! refuse (the message names the player, the Wurf and the rule).

use axum::body::Bytes;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::post;
use axum::{Json, Router};
use serde_json::{json, Value};

use super::AppState;
use crate::rules::{evaluate_wurfrunde_json, RuleError};

/// The routes of this feature.
pub fn router() -> Router<AppState> {
    Router::new().route("/api/v1/wurfrunde", post(evaluate))
}

/// Request bytes in, `(status, JSON body)` out: 200 with the response of interchange.md, 400 with
/// `{"error"}` when the bytes are not JSON at all, 422 with `{"error"}` for any request the engine
/// refuses (wrong shape, unknown preset, a throw that breaks a rule).
pub fn answer(body: &[u8]) -> (StatusCode, Value) {
    if let Err(e) = serde_json::from_slice::<serde::de::IgnoredAny>(body) {
        return (
            StatusCode::BAD_REQUEST,
            json!({ "error": RuleError::json(&e).to_string() }),
        );
    }
    match evaluate_wurfrunde_json(body) {
        Ok(v) => (StatusCode::OK, v),
        Err(e) => (
            StatusCode::UNPROCESSABLE_ENTITY,
            json!({ "error": e.to_string() }),
        ),
    }
}

async fn evaluate(body: Bytes) -> Response {
    let (status, value) = answer(&body);
    (status, Json(value)).into_response()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn statuses_by_kind_of_input() {
        let ok = br#"{"throws":[{"player":"A","dice":[1,1,4],"wuerfe":1},
                                {"player":"B","dice":[6,5,3],"wuerfe":1}]}"#;
        // (body, status, text the answer contains)
        let cases: Vec<(&[u8], StatusCode, &str)> = vec![
            (ok, StatusCode::OK, "\"highest\":\"A\""),
            (b"{\"throws\": [", StatusCode::BAD_REQUEST, "Zeile 1"),
            (b"", StatusCode::BAD_REQUEST, "ungültige Anfrage"),
            (
                b"{\"throws\": 3}",
                StatusCode::UNPROCESSABLE_ENTITY,
                "ungültige Anfrage",
            ),
            (
                br#"{"throws":[{"player":"A","dice":[1,1,9],"wuerfe":1},{"player":"B","dice":[6,5,3],"wuerfe":1}]}"#,
                StatusCode::UNPROCESSABLE_ENTITY,
                "Spieler A, Wurf 1: Augenzahl 9",
            ),
        ];
        for (body, status, needle) in cases {
            let (s, v) = answer(body);
            assert_eq!(s, status, "{}", String::from_utf8_lossy(body));
            assert!(v.to_string().contains(needle), "{v}");
        }
    }
}
