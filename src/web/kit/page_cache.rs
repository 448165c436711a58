//! The rendered-page cache of the public routes: an anonymous GET (no cookie at all) is answered
//! from memory when the same URI was rendered from the current snapshot of the league on the same
//! day. Any write replaces the snapshot and so empties the cache, and so does midnight; pages for logged-in users (or any request with a
//! cookie) are never stored or served from it. The club's settings are part of the snapshot, so
//! turning "Kasse nur für Mitglieder" on empties the cache too; and a response marked
//! `Cache-Control: private` or `no-store` (every page that shows money while the club keeps it
//! private, the reset-link pages) is never stored, whoever asked for it.

use std::collections::HashMap;
use std::sync::Mutex;

use axum::body::{Body, Bytes};
use axum::extract::{Request, State};
use axum::http::{header, HeaderValue, Method, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use http_body_util::BodyExt;

use super::AppState;

/// At most this many pages are kept per snapshot (query strings can make URIs endless).
pub const MAX_PAGES: usize = 2000;
/// Responses larger than this are not kept.
pub const MAX_PAGE_BYTES: usize = 2 * 1024 * 1024;

/// One kept response: its content type and body.
#[derive(Clone)]
struct Page {
    content_type: Option<HeaderValue>,
    body: Bytes,
}

/// The pages of one snapshot and one day (a player page says what the Jahresbeitrag costs this
/// month), by URI.
#[derive(Default)]
struct Pages {
    snapshot: u64,
    day: chrono::NaiveDate,
    pages: HashMap<String, Page>,
}

/// The kept pages of one application (in its state).
#[derive(Default)]
pub struct PageCache {
    pages: Mutex<Pages>,
}

impl std::fmt::Debug for PageCache {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("PageCache")
    }
}

/// Middleware of the public routes (see the module doc).
pub async fn serve(State(state): State<AppState>, req: Request, next: Next) -> Response {
    let path = req.uri().path();
    // Static files and the bench baseline are served from memory already; the login and setup
    // pages do not depend on the league (the setup link dies with the first account).
    let cacheable = req.method() == Method::GET
        && !req.headers().contains_key(header::COOKIE)
        && !path.starts_with("/static/")
        && path != "/sw.js"
        && !path.starts_with("/bench/")
        && path != "/money.css"
        && path != "/favicon.ico"
        && path != "/login"
        && path != "/setup"
        && !path.starts_with("/passwort");
    if !cacheable {
        return next.run(req).await;
    }
    let snapshot = state.league.snapshot().id;
    let day = state.league.today();
    let uri = req.uri().to_string();
    {
        let kept = state.pages.pages.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(page) = Some(&*kept)
            .filter(|p| p.snapshot == snapshot && p.day == day)
            .and_then(|p| p.pages.get(&uri))
        {
            return respond(page.clone());
        }
    }
    let resp = next.run(req).await;
    if resp.status() != StatusCode::OK
        || resp.headers().contains_key(header::SET_COOKIE)
        || not_for_caches(resp.headers())
    {
        return resp;
    }
    let (parts, body) = resp.into_parts();
    let body = match body.collect().await {
        Ok(b) => b.to_bytes(),
        Err(_) => return (StatusCode::INTERNAL_SERVER_ERROR).into_response(),
    };
    if body.len() <= MAX_PAGE_BYTES {
        let mut slot = state.pages.pages.lock().unwrap_or_else(|e| e.into_inner());
        if slot.snapshot != snapshot || slot.day != day {
            // A newer snapshot (or a new day) empties the cache; an older one (a page rendered
            // while a write landed or midnight passed) is not kept.
            if slot.snapshot > snapshot || slot.day > day {
                return Response::from_parts(parts, Body::from(body));
            }
            *slot = Pages {
                snapshot,
                day,
                pages: HashMap::new(),
            };
        }
        if slot.pages.len() < MAX_PAGES {
            slot.pages.insert(
                uri,
                Page {
                    content_type: parts.headers.get(header::CONTENT_TYPE).cloned(),
                    body: body.clone(),
                },
            );
        }
    }
    Response::from_parts(parts, Body::from(body))
}

/// True when the response says no cache may keep it (`Cache-Control: private` or `no-store`).
fn not_for_caches(headers: &axum::http::HeaderMap) -> bool {
    headers
        .get_all(header::CACHE_CONTROL)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .any(|d| {
            matches!(
                d.trim().to_ascii_lowercase().as_str(),
                "private" | "no-store"
            )
        })
}

fn respond(page: Page) -> Response {
    let mut resp = Response::new(Body::from(page.body));
    if let Some(ct) = page.content_type {
        resp.headers_mut().insert(header::CONTENT_TYPE, ct);
    }
    resp
}
