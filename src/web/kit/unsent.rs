//! A form sent after the login ran out is not lost (issues 14.4, 15.6): the secretary's round, typed
//! at the bar, is kept in a short-lived cookie of his browser (nothing is stored on the server for
//! a request without a login), the login page says so, and after logging in he is sent back to the
//! page of the form, which shows the form filled in again — to check and send; nothing is stored on
//! his behalf.

use axum::body::{to_bytes, Body};
use axum::extract::{OptionalFromRequestParts, Request, State};
use axum::http::{header, HeaderMap, HeaderValue, Method};
use axum::middleware::Next;
use axum::response::{IntoResponse, Redirect, Response};
use tower_sessions::cookie::{Cookie, SameSite};

use super::AppState;
use crate::web::kit::session::CurrentUser;

/// The name of the cookie that keeps a form.
const COOKIE: &str = "unsent";

/// The largest form kept (a cookie holds about 4 KiB; a round form of 6 players is about 0.5 KiB).
pub const MAX_UNSENT_BYTES: usize = 3 * 1024;

/// How long a kept form waits for the login, in seconds.
pub const KEEP_SECS: i64 = 24 * 3600;

/// A form that arrived without a valid login: where it was sent and its body.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unsent {
    /// The path it was posted to, e.g. `/verwaltung/abend/2026-01-09/runde`.
    pub path: String,
    /// The form body as sent (`application/x-www-form-urlencoded`).
    pub body: String,
}

impl Unsent {
    /// The page the form belongs to: its path without the last segment
    /// (`/verwaltung/abend/2026-01-09/runde` → `/verwaltung/abend/2026-01-09`).
    pub fn page(&self) -> &str {
        match self.path.rsplit_once('/') {
            Some((page, _)) if !page.is_empty() => page,
            _ => "/verwaltung",
        }
    }

    /// The kept form's fields, every name with all its values.
    pub fn fields(&self) -> std::collections::BTreeMap<String, Vec<String>> {
        serde_html_form::from_str(&self.body).unwrap_or_default()
    }

    /// The cookie value: `path|body` (both already URL-safe).
    fn value(&self) -> String {
        format!("{}|{}", self.path, self.body)
    }

    /// Reads a cookie value written by [`Unsent::value`].
    fn parse(value: &str) -> Option<Unsent> {
        let (path, body) = value.split_once('|')?;
        path.starts_with("/verwaltung/").then(|| Unsent {
            path: path.to_string(),
            body: body.to_string(),
        })
    }
}

/// True when every byte may stand in a cookie value (RFC 6265 cookie-octet) and is not `|`.
fn cookie_safe(s: &str) -> bool {
    s.bytes().all(|b| {
        matches!(b, 0x21 | 0x23..=0x2B | 0x2D..=0x3A | 0x3C..=0x5B | 0x5D..=0x7E) && b != b'|'
    })
}

/// The `Set-Cookie` value that keeps `unsent` (`None` when it cannot be kept), or that removes the
/// cookie (`unsent` = `None`).
fn set_cookie(unsent: Option<&Unsent>, secure: bool) -> Option<HeaderValue> {
    let mut cookie = match unsent {
        Some(u) => {
            let value = u.value();
            if value.len() > MAX_UNSENT_BYTES || !cookie_safe(&u.path) || !cookie_safe(&u.body) {
                return None;
            }
            let mut c = Cookie::new(COOKIE, value);
            c.set_max_age(time::Duration::seconds(KEEP_SECS));
            c
        }
        None => {
            let mut c = Cookie::new(COOKIE, "");
            c.set_max_age(time::Duration::ZERO);
            c
        }
    };
    cookie.set_path("/");
    cookie.set_http_only(true);
    cookie.set_same_site(SameSite::Strict);
    cookie.set_secure(secure);
    HeaderValue::from_str(&cookie.to_string()).ok()
}

/// Whether a URL-encoded form has a field whose name mentions a password (`password`,
/// `passwort_neu`, …).
fn has_password(form: &[u8]) -> bool {
    form.split(|b| *b == b'&').any(|pair| {
        let key = pair.split(|b| *b == b'=').next().unwrap_or_default();
        let key = String::from_utf8_lossy(key).to_lowercase();
        key.contains("passw")
    })
}

/// The kept form of a request, if its cookie holds one.
pub fn peek(headers: &HeaderMap) -> Option<Unsent> {
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|c| Cookie::parse(c.trim().to_string()).ok())
        .find(|c| c.name() == COOKIE)
        .and_then(|c| Unsent::parse(c.value()))
}

/// The kept form of a request when it was posted to `path`, and the header that forgets it (send
/// it with the page that shows the form again).
pub fn take(headers: &HeaderMap, path: &str, secure: bool) -> Option<(Unsent, HeaderValue)> {
    let unsent = peek(headers).filter(|u| u.path == path)?;
    set_cookie(None, secure).map(|forget| (unsent, forget))
}

/// Whether `req` is a POST of an URL-encoded form (what a page's `<form method="post">` sends).
pub fn is_form_post(req: &Request) -> bool {
    req.method() == Method::POST
        && req
            .headers()
            .get(header::CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .is_some_and(|ct| ct.starts_with("application/x-www-form-urlencoded"))
}

/// Middleware of the guarded groups (outside the role guard): a form POST without a logged-in
/// user is kept in a cookie and answered with the login redirect (`/login`, whose page then says
/// so). Other requests pass unchanged.
pub async fn keep(State(state): State<AppState>, req: Request, next: Next) -> Response {
    if !is_form_post(&req) {
        return next.run(req).await;
    }
    let (mut parts, body) = req.into_parts();
    let user =
        <CurrentUser as OptionalFromRequestParts<AppState>>::from_request_parts(&mut parts, &state)
            .await;
    if !matches!(user, Ok(None)) {
        return next.run(Request::from_parts(parts, body)).await;
    }
    let Ok(bytes) = to_bytes(body, MAX_UNSENT_BYTES).await else {
        return Redirect::to("/login").into_response();
    };
    if has_password(&bytes) {
        // A password never goes into a cookie: the form is refused as without the keeping.
        return next.run(Request::from_parts(parts, bytes.into())).await;
    }
    let unsent = Unsent {
        path: parts.uri.path().to_string(),
        body: String::from_utf8_lossy(&bytes).into_owned(),
    };
    let mut resp = Redirect::to("/login").into_response();
    match set_cookie(Some(&unsent), state.secure_cookies) {
        Some(cookie) => {
            resp.headers_mut().append(header::SET_COOKIE, cookie);
            resp
        }
        // Cannot be kept (too long, not URL-encoded): the request goes on to the guard as before.
        None => {
            next.run(Request::from_parts(parts, Body::from(bytes)))
                .await
        }
    }
}
