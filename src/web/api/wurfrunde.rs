//! `POST /api/v1/wurfrunde` (interchange.md "Rules engine from outside"): one Wurfrunde evaluated by
//! the pure engine, public, no state changed. JSON in, JSON out; errors are JSON
//! `{"error": "<German message>"}`: 400 for bytes that are not JSON, 422 for a request the rules
//! refuse (the message names the player, the Wurf and the rule).

use axum::body::Bytes;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde_json::json;

use crate::rules::{evaluate_wurfrunde, parse_wurfrunde_request, RuleError, WurfrundeResponse};
use crate::web::kit::{Guard, Routes};

/// The routes of this feature.
pub fn routes() -> Routes {
    Routes::new().post(Guard::Public, "/api/v1/wurfrunde", evaluate)
}

/// Request bytes in; out the response of interchange.md (fields in its order), or the status and
/// German message of a refusal: 400 when the bytes are not JSON at all, 422 for any request the
/// engine refuses (wrong shape, unknown preset, a throw that breaks a rule).
pub fn answer(body: &[u8]) -> Result<WurfrundeResponse, (StatusCode, String)> {
    if let Err(e) = serde_json::from_slice::<serde::de::IgnoredAny>(body) {
        return Err((StatusCode::BAD_REQUEST, RuleError::json(&e).to_string()));
    }
    let unprocessable = |e: RuleError| (StatusCode::UNPROCESSABLE_ENTITY, e.to_string());
    let request = parse_wurfrunde_request(body).map_err(unprocessable)?;
    evaluate_wurfrunde(&request).map_err(unprocessable)
}

async fn evaluate(body: Bytes) -> Response {
    match answer(&body) {
        Ok(response) => Json(response).into_response(),
        Err((status, message)) => (status, Json(json!({ "error": message }))).into_response(),
    }
}

#[cfg(test)]
mod tests;
