//! German answers for the framework's own refusals. axum's extractors (`Form`, `Query`, `Path`,
//! `Json`) and the body limits answer 400/413/415/422 with plain English text ("Failed to
//! deserialize form body: missing field `year`", "length limit exceeded"); this layer replaces such
//! a plain-text body with the app's German error, keeping the status code: the HTML error page for
//! pages, `{"error": "…"}` under `/api/` (interchange.md's error shape). Answers the app wrote
//! itself (HTML pages, JSON) pass unchanged.

use axum::extract::Request;
use axum::http::{header, HeaderMap, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use axum::Json;

use super::ErrorPage;

/// The German message for a framework refusal with `status`, or `None` for statuses left alone.
pub fn message_for(status: StatusCode) -> Option<&'static str> {
    match status {
        StatusCode::BAD_REQUEST => Some("Anfrage fehlerhaft: Adresse oder Angaben unlesbar."),
        StatusCode::PAYLOAD_TOO_LARGE => Some("Anfrage zu groß (höchstens 4 MiB)."),
        StatusCode::UNSUPPORTED_MEDIA_TYPE => {
            Some("Falscher Inhaltstyp der Anfrage (Content-Type).")
        }
        StatusCode::UNPROCESSABLE_ENTITY => Some("Formular unvollständig oder fehlerhaft."),
        StatusCode::FORBIDDEN => Some("Dafür fehlt die Berechtigung."),
        StatusCode::INTERNAL_SERVER_ERROR => Some("Ein interner Fehler ist aufgetreten."),
        _ => None,
    }
}

/// True when a response's body is the framework's plain text (or has no type at all).
fn is_plain(headers: &HeaderMap) -> bool {
    match headers.get(header::CONTENT_TYPE) {
        None => true,
        Some(v) => v
            .to_str()
            .map(|t| {
                t.trim_start()
                    .to_ascii_lowercase()
                    .starts_with("text/plain")
            })
            .unwrap_or(true),
    }
}

/// Middleware (`axum::middleware::from_fn`): runs the request and turns a plain-text
/// 400/413/415/422 into the German error page, or `{"error": …}` when the path starts with
/// `/api/`; the status code stays.
pub async fn germanize(req: Request, next: Next) -> Response {
    let api = req.uri().path().starts_with("/api/");
    let resp = next.run(req).await;
    let status = resp.status();
    let Some(message) = message_for(status) else {
        return resp;
    };
    if !is_plain(resp.headers()) {
        return resp;
    }
    if api {
        return (status, Json(serde_json::json!({ "error": message }))).into_response();
    }
    (status, ErrorPage::new(status, message.to_string())).into_response()
}
