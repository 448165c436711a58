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

use super::error::ErrorPage;

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
    if api && status == StatusCode::SEE_OTHER && is_login_redirect(resp.headers()) {
        // A program gets JSON, not the login page.
        return (
            StatusCode::UNAUTHORIZED,
            Json(serde_json::json!({ "error": NOT_LOGGED_IN })),
        )
            .into_response();
    }
    let Some(message) = message_for(status) else {
        return resp;
    };
    if !is_plain(resp.headers()) {
        return resp;
    }
    // The framework's English text says which field; that part is kept, in German words.
    let (_, body) = resp.into_parts();
    let text = axum::body::to_bytes(body, 64 * 1024)
        .await
        .map(|b| String::from_utf8_lossy(&b).into_owned())
        .unwrap_or_default();
    if status == StatusCode::BAD_REQUEST && is_body_timeout(&text) {
        // The body stalled (tower-http's body timeout): say so, as 408.
        let status = StatusCode::REQUEST_TIMEOUT;
        if api {
            return (status, Json(serde_json::json!({ "error": BODY_TIMEOUT }))).into_response();
        }
        return (status, ErrorPage::new(status, BODY_TIMEOUT.to_string())).into_response();
    }
    let message = match (own_message(&text), detail(&text)) {
        (Some(own), _) => own.to_string(),
        (None, Some(d)) => format!("{} {d}", message.trim_end_matches('.')),
        (None, None) => message.to_string(),
    };
    if api {
        return (status, Json(serde_json::json!({ "error": message }))).into_response();
    }
    (status, ErrorPage::new(status, message)).into_response()
}

/// The answer of the JSON API to a request without a valid login.
pub const NOT_LOGGED_IN: &str =
    "Nicht angemeldet: dafür braucht es die Sitzung eines Schriftführers oder Admins.";

/// The answer to a request whose body did not arrive in time (SECURITY.md: 20 s).
pub const BODY_TIMEOUT: &str =
    "Zeit abgelaufen: die Anfrage kam nicht vollständig an. Nichts gespeichert; bitte erneut senden.";

/// Whether the framework's text is a stalled body (tower-http's `TimeoutBody` error).
fn is_body_timeout(text: &str) -> bool {
    text.contains("not received within the designated timeout")
}

/// Whether a response redirects to the login page.
fn is_login_redirect(headers: &HeaderMap) -> bool {
    headers
        .get(header::LOCATION)
        .and_then(|l| l.to_str().ok())
        .is_some_and(|l| l == "/login" || l.starts_with("/login?"))
}

/// A plain-text body the app wrote itself in German (the cross-site refusal, say): kept as it is.
fn own_message(text: &str) -> Option<&str> {
    let t = text.trim();
    let german = t.chars().any(|c| "äöüÄÖÜß„“".contains(c))
        || ["abgelehnt", "nicht ", "bitte"]
            .iter()
            .any(|w| t.contains(w));
    (!t.is_empty() && t.len() <= 500 && german).then_some(t)
}

/// Where a framework refusal (axum's `Form`/`Json`/`Query` text, serde's message) went wrong, in
/// German: „(Feld „year“ fehlt)“, „(Feld „outs“: ungültiger Wert, Zeile 1, Spalte 30)“; `None`
/// when the text names no field nor position.
pub fn detail(text: &str) -> Option<String> {
    let quoted = |marker: &str| -> Option<String> {
        let rest = &text[text.find(marker)? + marker.len()..];
        let end = rest.find('`')?;
        Some(rest[..end].to_string())
    };
    let position = text.rfind(" at line ").and_then(|i| {
        let mut words = text[i..].split_whitespace().skip(2);
        let line = words.next()?.parse::<u32>().ok()?;
        let column = words.nth(1)?.parse::<u32>().ok()?;
        Some(format!("Zeile {line}, Spalte {column}"))
    });
    let what = if let Some(f) = quoted("missing field `") {
        Some(format!("Feld „{f}“ fehlt"))
    } else if let Some(f) = quoted("unknown field `") {
        Some(format!("unbekanntes Feld „{f}“"))
    } else if let Some(f) = quoted("duplicate field `") {
        Some(format!("Feld „{f}“ doppelt"))
    } else {
        // Json: "…into the target type: outs: invalid value: …" — the path before the reason.
        text.split_once("target type: ")
            .and_then(|(_, rest)| rest.split_once(": "))
            .map(|(path, _)| path.trim())
            .filter(|p| !p.is_empty() && !p.contains(' '))
            .map(|p| format!("Feld „{p}“: ungültiger Wert"))
    };
    match (what, position) {
        (Some(w), Some(p)) => Some(format!("({w}, {p}).")),
        (Some(w), None) => Some(format!("({w}).")),
        (None, Some(p)) => Some(format!("({p}).")),
        (None, None) => None,
    }
}

#[cfg(test)]
mod tests;
