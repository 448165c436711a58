//! The rendered-page cache of the public routes: an anonymous GET (no cookie at all) is answered
//! from memory when the same page was rendered from the current snapshot of the league on the same
//! day. Any write replaces the snapshot and so empties the cache, and so does midnight; pages for logged-in users (or any request with a
//! cookie) are never stored or served from it. The club's settings are part of the snapshot, so
//! turning "Kasse nur für Mitglieder" on empties the cache too; and a response marked
//! `Cache-Control: private` or `no-store` (every page that shows money while the club keeps it
//! private, the reset-link pages) is never stored, whoever asked for it.
//!
//! A kept page is answered with every header it was rendered with but `Set-Cookie` (a response
//! with one is never kept) and `Date` (issue 22.5: a CSV keeps its `Content-Disposition`, a round
//! its `ETag`), and with `X-Cache: hit`. A page is kept by the parameters its route reads
//! (issue 22.6): the `Host` (absolute links of the night report), the path and the query
//! parameters of [`KNOWN_PARAMS`]; any other parameter is ignored by the routes and so by the key
//! (`/?x=1` is the page `/`). The routes of [`FREE_QUERY`] read every parameter: they are kept
//! only without a query. All pages together hold at most the cache's byte bound
//! ([`MAX_BYTES`] unless [`PageCache::with_bound`]); past it the oldest kept page goes first.
//!
//! Every GET of a public route that is not answered from memory (a static file, a kept page) is
//! rendered on tokio's blocking pool ([`render`], issue 25), cached or not (logged-in visitors
//! too), so a page that computes long never stalls another request.

use std::collections::{HashMap, VecDeque};
use std::sync::Mutex;

use axum::body::{Body, Bytes};
use axum::extract::{Query, Request, State};
use axum::http::{header, HeaderMap, HeaderName, HeaderValue, Method, StatusCode, Uri};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use http_body_util::BodyExt;

use super::AppState;

/// All kept pages of one snapshot together hold at most this many bytes (bodies, headers, keys).
pub const MAX_BYTES: usize = 32 * 1024 * 1024;
/// Responses larger than this are not kept.
pub const MAX_PAGE_BYTES: usize = 2 * 1024 * 1024;
/// The query parameters a public route reads (`as_of` of the tables, the CSV files and the
/// standings JSON); every other one is left out of the key.
pub const KNOWN_PARAMS: &[&str] = &["as_of"];
/// Public routes that read every query parameter (the Schiedsrichter's question): kept only
/// when asked without a query.
pub const FREE_QUERY: &[&str] = &["/schiedsrichter"];
/// At most this many pages render at once (on the blocking pool, [`render`]); more wait for a
/// turn (within the request timeout). Twice the cores of a small club server: a burst of reloads
/// after a write (every phone at the bar misses the emptied cache at once) does not hold a page's
/// memory per connection at the same moment.
pub const RENDERS: usize = 4;
/// The header a page answered from the cache carries.
pub const HIT: HeaderName = HeaderName::from_static("x-cache");

/// One kept response: its status line's headers (without `Date`) and body.
#[derive(Clone)]
struct Page {
    headers: HeaderMap,
    body: Bytes,
}

impl Page {
    /// What the page holds in memory, roughly: body, header names and values, and its `key`.
    fn bytes(&self, key: &str) -> usize {
        let headers: usize = self
            .headers
            .iter()
            .map(|(n, v)| n.as_str().len() + v.len() + 16)
            .sum();
        self.body.len() + headers + 2 * key.len() + 64
    }
}

/// The pages of one snapshot and one day (a player page says what the Jahresbeitrag costs this
/// month), by key ([`key`]), oldest first in `order`, `bytes` in all.
#[derive(Default)]
struct Pages {
    snapshot: u64,
    day: chrono::NaiveDate,
    pages: HashMap<String, Page>,
    order: VecDeque<String>,
    bytes: usize,
}

impl Pages {
    /// Keeps `page` under `key` within `bound` bytes: the oldest pages go until it fits; a page
    /// larger than the bound alone is not kept.
    fn keep(&mut self, key: String, page: Page, bound: usize) {
        let size = page.bytes(&key);
        if size > bound {
            return;
        }
        if let Some(old) = self.pages.remove(&key) {
            self.bytes -= old.bytes(&key);
            self.order.retain(|k| *k != key);
        }
        while self.bytes + size > bound {
            let Some(oldest) = self.order.pop_front() else {
                break;
            };
            if let Some(old) = self.pages.remove(&oldest) {
                self.bytes -= old.bytes(&oldest);
            }
        }
        self.bytes += size;
        self.order.push_back(key.clone());
        self.pages.insert(key, page);
    }
}

/// The kept pages of one application (in its state), at most `bound` bytes.
pub struct PageCache {
    pages: Mutex<Pages>,
    bound: usize,
    renders: std::sync::Arc<tokio::sync::Semaphore>,
}

impl Default for PageCache {
    fn default() -> PageCache {
        PageCache::with_bound(MAX_BYTES)
    }
}

impl PageCache {
    /// An empty cache that keeps at most `bound` bytes of pages.
    pub fn with_bound(bound: usize) -> PageCache {
        PageCache {
            pages: Mutex::new(Pages::default()),
            bound,
            renders: std::sync::Arc::new(tokio::sync::Semaphore::new(RENDERS)),
        }
    }

    /// (pages kept, their bytes) now.
    pub fn usage(&self) -> (usize, usize) {
        let kept = self.pages.lock().unwrap_or_else(|e| e.into_inner());
        (kept.pages.len(), kept.bytes)
    }
}

impl std::fmt::Debug for PageCache {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("PageCache")
    }
}

/// The key of a request for `uri` with `headers`: its host, path and known parameters
/// ([`KNOWN_PARAMS`], in the order sent); `None` when it must not be kept (a query that does not
/// parse, any query on a route of [`FREE_QUERY`]).
fn key(uri: &Uri, headers: &HeaderMap) -> Option<String> {
    let path = uri.path();
    let query = uri.query().filter(|q| !q.is_empty());
    if query.is_some() && FREE_QUERY.contains(&path) {
        return None;
    }
    let pairs: Vec<(String, String)> = match query {
        None => Vec::new(),
        Some(_) => Query::<Vec<(String, String)>>::try_from_uri(uri).ok()?.0,
    };
    let known: Vec<&(String, String)> = pairs
        .iter()
        .filter(|(n, _)| KNOWN_PARAMS.contains(&n.as_str()))
        .collect();
    let host = headers
        .get(header::HOST)
        .map(|h| String::from_utf8_lossy(h.as_bytes()).into_owned())
        .unwrap_or_default();
    Some(format!("{host:?} {path:?} {known:?}"))
}

/// Middleware of the public routes (see the module doc).
pub async fn serve(State(state): State<AppState>, req: Request, next: Next) -> Response {
    let path = req.uri().path();
    // Static files and the bench baseline are served from memory already: answered at once.
    let light = path.starts_with("/static/")
        || path == "/sw.js"
        || path.starts_with("/bench/")
        || path == "/money.css"
        || path == "/favicon.ico";
    if req.method() != Method::GET || light {
        return next.run(req).await;
    }
    // The login and setup pages do not depend on the league (the setup link dies with the first
    // account); logged-in pages are rendered for their user.
    let cacheable = !req.headers().contains_key(header::COOKIE)
        && path != "/login"
        && path != "/setup"
        && !path.starts_with("/passwort");
    let Some(key) = key(req.uri(), req.headers()).filter(|_| cacheable) else {
        return render(&state.pages, req, next).await;
    };
    let snapshot = state.league.snapshot().id;
    let day = state.league.today();
    {
        let kept = state.pages.pages.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(page) = Some(&*kept)
            .filter(|p| p.snapshot == snapshot && p.day == day)
            .and_then(|p| p.pages.get(&key))
        {
            return respond(page.clone());
        }
    }
    let resp = render(&state.pages, req, next).await;
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
                ..Pages::default()
            };
        }
        let mut headers = parts.headers.clone();
        headers.remove(header::DATE);
        let page = Page {
            headers,
            body: body.clone(),
        };
        slot.keep(key, page, state.pages.bound);
    }
    Response::from_parts(parts, Body::from(body))
}

/// Renders the page (runs `next`, the route's handler) on a thread of tokio's blocking pool
/// (issue 25): a page that computes for long (the careers of forty seasons, the first read after
/// a write) never holds an async worker, so static files and other requests are answered
/// meanwhile, and the request timeout ([`super::server::REQUEST_TIMEOUT`]) answers while it
/// computes (what it computed is kept by the snapshot for the next request). At most [`RENDERS`]
/// at once (`cache`'s turns).
async fn render(cache: &PageCache, req: Request, next: Next) -> Response {
    let Ok(turn) = cache.renders.clone().acquire_owned().await else {
        return StatusCode::SERVICE_UNAVAILABLE.into_response();
    };
    let handle = tokio::runtime::Handle::current();
    let rendered = tokio::task::spawn_blocking(move || {
        let resp = handle.block_on(next.run(req));
        drop(turn);
        resp
    });
    match rendered.await {
        Ok(resp) => resp,
        Err(e) => {
            tracing::error!(error = %e, "Seite nicht erzeugt");
            StatusCode::INTERNAL_SERVER_ERROR.into_response()
        }
    }
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

/// The kept `page` as a response: its headers, `X-Cache: hit`, its body.
fn respond(page: Page) -> Response {
    let mut resp = Response::new(Body::from(page.body));
    *resp.headers_mut() = page.headers;
    resp.headers_mut()
        .insert(HIT, HeaderValue::from_static("hit"));
    resp
}

#[cfg(test)]
mod tests {
    use super::*;

    fn page(body: usize) -> Page {
        Page {
            headers: HeaderMap::new(),
            body: Bytes::from(vec![b'x'; body]),
        }
    }

    #[test]
    fn the_pages_stay_within_the_bound_and_the_oldest_goes_first() {
        let one = page(1000).bytes("a");
        let mut pages = Pages::default();
        for k in ["a", "b", "c", "d"] {
            pages.keep(k.to_string(), page(1000), 3 * one);
        }
        assert!(pages.bytes <= 3 * one, "{} > {}", pages.bytes, 3 * one);
        assert!(!pages.pages.contains_key("a"));
        for k in ["b", "c", "d"] {
            assert!(pages.pages.contains_key(k), "{k}");
        }
        // The same key again replaces, it does not count twice.
        pages.keep("d".to_string(), page(1000), 3 * one);
        assert_eq!(pages.pages.len(), 3);
        assert_eq!(pages.bytes, 3 * one);
        // A page larger than the bound is not kept, nothing else goes for it.
        pages.keep("e".to_string(), page(10 * 1000), 3 * one);
        assert_eq!(pages.pages.len(), 3);
    }

    #[test]
    fn the_key_is_the_host_the_path_and_the_known_parameters() {
        let h = |host: &str| {
            let mut m = HeaderMap::new();
            m.insert(header::HOST, HeaderValue::from_str(host).unwrap());
            m
        };
        let k = |uri: &str, host: &str| key(&uri.parse().unwrap(), &h(host));
        // (uri, same key as "/" on liga.test)
        let plain = k("/", "liga.test");
        let cases = [
            ("/?x=1", true),
            ("/?x=1&y=2", true),
            ("/?", true),
            ("/?as_of=2026-01-05", false),
            ("/?as%5Fof=2026-01-05", false),
        ];
        for (uri, same) in cases {
            assert_eq!(k(uri, "liga.test") == plain, same, "{uri}");
        }
        assert_eq!(
            k("/?as_of=2026-01-05&x=1", "liga.test"),
            k("/?as_of=2026-01-05", "liga.test")
        );
        assert_ne!(k("/", "andere.test"), plain);
        assert!(k("/schiedsrichter", "liga.test").is_some());
        assert_eq!(k("/schiedsrichter?regeln=x", "liga.test"), None);
    }
}
