//! Every form is stored once (issue 15.5): a double tap, a reload of a POST or a form sent again
//! from the browser's history does not book a fine, a payment or a round twice.
//!
//! Each page for a logged-in account carries a fresh random token ([`Layout::once`], 128 bits),
//! which every POST form sends as the hidden field [`FIELD`]. The middleware [`guard`] (on the
//! groups behind a login) remembers, per account, path and exact form body, the answer of a form
//! that was carried out (a redirect) for [`REMEMBER`]; the same form sent again gets that answer
//! again — with the note "schon gespeichert" — and is not carried out a second time. A second
//! request that arrives while the first still runs waits for it. A refused form (422 with the
//! form shown again) is not remembered: corrected, it is sent with the new page's token anyway.
//! A form that answers with a page instead of a redirect (a reset link shown once) gets that
//! same page again.
//!
//! [`Layout::once`]: super::Layout::once

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::body::{to_bytes, Body};
use axum::extract::{FromRequestParts, OptionalFromRequestParts, Request, State};
use axum::http::{header, HeaderValue, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use sha2::{Digest, Sha256};

use super::AppState;
use super::Flash;
use crate::web::kit::session::CurrentUser;

/// The hidden form field with the page's token.
pub const FIELD: &str = "einmal";

/// How long a carried-out form is remembered (a game night and then some).
pub const REMEMBER: Duration = Duration::from_secs(12 * 3600);

/// At most this many remembered forms (the oldest go first); about 200 bytes each.
pub const MAX_REMEMBERED: usize = 20_000;

/// The largest form body looked at (the app refuses bodies over 4 MiB before this).
const MAX_BODY: usize = 4 * 1024 * 1024;

/// The note on the page after a form was sent again.
pub const AGAIN: &str =
    "Schon gespeichert: dieses Formular wurde bereits gesendet und nur einmal übernommen.";

/// A fresh token for the forms of one page: 128 random bits as 32 hex digits.
pub fn token() -> String {
    let bytes: [u8; 16] = rand::random();
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// The largest page remembered as the answer of a form that showed a page (a reset link shown
/// once, say) instead of redirecting; a larger one is not remembered.
const MAX_PAGE: usize = 256 * 1024;

/// The answer of a carried-out form: its status and where it redirected, or the page it showed
/// (headers without cookies, and the body).
#[derive(Debug, Clone)]
struct Answer {
    status: StatusCode,
    location: Option<HeaderValue>,
    page: Option<(axum::http::HeaderMap, axum::body::Bytes)>,
}

/// One remembered form: when it was first sent, and its answer once there is one (locked while
/// the first request runs).
struct Seen {
    at: Instant,
    answer: Arc<tokio::sync::Mutex<Option<Answer>>>,
}

/// The forms carried out, by the hash of account, path and body.
#[derive(Default)]
pub struct Submitted {
    seen: Mutex<HashMap<[u8; 32], Seen>>,
}

impl std::fmt::Debug for Submitted {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Submitted({} Formulare)", self.len())
    }
}

impl Submitted {
    /// The slot of form `key`, new when the form was not sent within [`REMEMBER`]; forgets
    /// expired forms and, beyond [`MAX_REMEMBERED`], the oldest.
    fn slot(&self, key: [u8; 32], now: Instant) -> Arc<tokio::sync::Mutex<Option<Answer>>> {
        let mut seen = self.seen.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(s) = seen.get(&key) {
            if now.duration_since(s.at) < REMEMBER {
                return s.answer.clone();
            }
        }
        if seen.len() >= MAX_REMEMBERED {
            seen.retain(|_, s| now.duration_since(s.at) < REMEMBER);
            if seen.len() >= MAX_REMEMBERED {
                if let Some(oldest) = seen.iter().min_by_key(|(_, s)| s.at).map(|(k, _)| *k) {
                    seen.remove(&oldest);
                }
            }
        }
        let answer = Arc::new(tokio::sync::Mutex::new(None));
        seen.insert(
            key,
            Seen {
                at: now,
                answer: answer.clone(),
            },
        );
        answer
    }

    /// How many forms are remembered.
    pub fn len(&self) -> usize {
        self.seen.lock().map(|s| s.len()).unwrap_or_default()
    }

    /// Whether no form is remembered.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// The token of a URL-encoded form body, if it has a non-empty [`FIELD`].
fn form_token(body: &[u8]) -> Option<&[u8]> {
    body.split(|b| *b == b'&').find_map(|pair| {
        let mut kv = pair.splitn(2, |b| *b == b'=');
        (kv.next() == Some(FIELD.as_bytes()))
            .then(|| kv.next())
            .flatten()
            .filter(|v| !v.is_empty())
    })
}

/// Middleware of the groups behind a login (inside the role guard): a form POST with a token is
/// carried out once; see the module documentation. Other requests pass unchanged.
pub async fn guard(State(state): State<AppState>, req: Request, next: Next) -> Response {
    if !super::unsent::is_form_post(&req) {
        return next.run(req).await;
    }
    let (mut parts, body) = req.into_parts();
    let bytes = match to_bytes(body, MAX_BODY).await {
        Ok(b) => b,
        Err(_) => return StatusCode::PAYLOAD_TOO_LARGE.into_response(),
    };
    if form_token(&bytes).is_none() {
        return next
            .run(Request::from_parts(parts, Body::from(bytes)))
            .await;
    }
    let user =
        <CurrentUser as OptionalFromRequestParts<AppState>>::from_request_parts(&mut parts, &state)
            .await
            .ok()
            .flatten();
    let mut hash = Sha256::new();
    // Whose form: the account, or a scorer link (no account; its own key space).
    match parts.extensions.get::<crate::service::scorer::ScorerLink>() {
        Some(link) => {
            hash.update(b"scorer-link\0");
            hash.update(link.id.to_le_bytes());
        }
        None => hash.update(user.map(|u| u.id).unwrap_or_default().to_le_bytes()),
    }
    hash.update(parts.uri.path().as_bytes());
    hash.update([0]);
    hash.update(&bytes);
    let key: [u8; 32] = hash.finalize().into();
    let slot = state.once.slot(key, Instant::now());
    // A second request of the same form waits here until the first has its answer.
    let mut answer = slot.lock().await;
    if let Some(a) = answer.clone() {
        drop(answer);
        tracing::info!(
            path = %super::links::masked(parts.uri.path()),
            "Formular erneut gesendet: nicht noch einmal übernommen"
        );
        return again(&mut parts, &state, a).await;
    }
    let resp = next
        .run(Request::from_parts(parts, Body::from(bytes)))
        .await;
    if resp.status().is_redirection() {
        *answer = Some(Answer {
            status: resp.status(),
            location: resp.headers().get(header::LOCATION).cloned(),
            page: None,
        });
    } else if resp.status().is_success() {
        // A form that answers with a page (a link shown once): the same page again, not a
        // second change.
        let (head, body) = resp.into_parts();
        let Ok(body) = to_bytes(body, usize::MAX).await else {
            return StatusCode::INTERNAL_SERVER_ERROR.into_response();
        };
        if body.len() <= MAX_PAGE {
            let mut headers = head.headers.clone();
            headers.remove(header::SET_COOKIE);
            *answer = Some(Answer {
                status: head.status,
                location: None,
                page: Some((headers, body.clone())),
            });
        }
        return Response::from_parts(head, Body::from(body));
    }
    resp
}

/// The answer to a form sent again: the first answer's redirect, with the note [`AGAIN`], or
/// the page it showed.
async fn again(parts: &mut axum::http::request::Parts, state: &AppState, a: Answer) -> Response {
    if let Some((headers, body)) = a.page {
        let mut resp = (a.status, body).into_response();
        *resp.headers_mut() = headers;
        return resp;
    }
    let to = a
        .location
        .as_ref()
        .and_then(|l| l.to_str().ok())
        .unwrap_or("/verwaltung")
        .to_string();
    match Flash::from_request_parts(parts, state).await {
        Ok(flash) => flash.redirect(&to, AGAIN).await,
        Err(_) => {
            let mut resp = a.status.into_response();
            if let Some(l) = a.location {
                resp.headers_mut().insert(header::LOCATION, l);
            }
            resp
        }
    }
}

#[cfg(test)]
mod tests;
