//! The static files, embedded in the binary (`static/`): served under `/static/…` with their
//! content type. Add a file here with one more `route` line.

use axum::http::header;
use axum::response::IntoResponse;

use crate::web::kit::{Guard, Routes};

/// The stylesheet (`static/style.css`).
const STYLE_CSS: &str = include_str!("../../../static/style.css");

/// The game night's stylesheet (`static/abend.css`: live board, night report, Spielberichtsbogen).
const ABEND_CSS: &str = include_str!("../../../static/abend.css");

/// The site icon (`static/favicon.ico`, 32 × 32: a die's three).
const FAVICON: &[u8] = include_bytes!("../../../static/favicon.ico");

/// The web manifest (`static/manifest.webmanifest`): the table on a phone's home screen.
const MANIFEST: &str = include_str!("../../../static/manifest.webmanifest");

/// The home-screen icon as SVG (`static/icon.svg`: a die's three).
const ICON_SVG: &str = include_str!("../../../static/icon.svg");

/// The home-screen icon, 192 × 192 PNG.
const ICON_192: &[u8] = include_bytes!("../../../static/icon-192.png");

/// The home-screen icon, 512 × 512 PNG.
const ICON_512: &[u8] = include_bytes!("../../../static/icon-512.png");

/// The live board's script (`static/live.js`: Server-Sent Events, the board read again).
const LIVE_JS: &str = include_str!("../../../static/live.js");

/// The maskable home-screen icon (full bleed, the die inside the safe zone), 192 × 192 PNG.
const ICON_MASKABLE_192: &[u8] = include_bytes!("../../../static/icon-maskable-192.png");

/// The maskable home-screen icon, 512 × 512 PNG.
const ICON_MASKABLE_512: &[u8] = include_bytes!("../../../static/icon-maskable-512.png");

/// The script of every page (`static/app.js`: registers the service worker, lists and sends the
/// rounds that wait for the network).
const APP_JS: &str = include_str!("../../../static/app.js");

/// The waiting rounds in IndexedDB (`static/warten.js`), for the pages and the service worker.
const WARTEN_JS: &str = include_str!("../../../static/warten.js");

/// The service worker (`static/sw.js`), served at `/sw.js` so that its scope is the whole site.
const SW_JS: &str = include_str!("../../../static/sw.js");

/// The routes of this feature.
pub fn routes() -> Routes {
    Routes::new()
        .get(Guard::Public, "/static/style.css", style)
        .get(Guard::Public, "/static/abend.css", abend)
        .get(Guard::Public, "/favicon.ico", favicon)
        .get(Guard::Public, "/static/manifest.webmanifest", manifest)
        .get(Guard::Public, "/static/icon.svg", icon_svg)
        .get(Guard::Public, "/static/icon-192.png", icon_192)
        .get(Guard::Public, "/static/icon-512.png", icon_512)
        .get(Guard::Public, "/static/live.js", live_js)
        .get(Guard::Public, "/static/app.js", app_js)
        .get(Guard::Public, "/static/warten.js", warten_js)
        .get(Guard::Public, "/sw.js", sw_js)
        .get(
            Guard::Public,
            "/static/icon-maskable-192.png",
            icon_maskable_192,
        )
        .get(
            Guard::Public,
            "/static/icon-maskable-512.png",
            icon_maskable_512,
        )
}

async fn app_js() -> impl IntoResponse {
    script(APP_JS)
}

async fn warten_js() -> impl IntoResponse {
    script(WARTEN_JS)
}

/// `GET /sw.js`: the service worker, scope `/` (`Service-Worker-Allowed: /`); `no-cache`, so
/// that a new version is found at the next visit.
async fn sw_js() -> impl IntoResponse {
    (
        [
            (header::CONTENT_TYPE, "text/javascript; charset=utf-8"),
            (header::CACHE_CONTROL, "no-cache"),
            (
                header::HeaderName::from_static("service-worker-allowed"),
                "/",
            ),
        ],
        SW_JS,
    )
}

async fn icon_maskable_192() -> impl IntoResponse {
    png(ICON_MASKABLE_192)
}

async fn icon_maskable_512() -> impl IntoResponse {
    png(ICON_MASKABLE_512)
}

/// A PNG image, kept a day.
fn png(body: &'static [u8]) -> impl IntoResponse {
    (
        [
            (header::CONTENT_TYPE, "image/png"),
            (header::CACHE_CONTROL, "public, max-age=86400"),
        ],
        body,
    )
}

/// A script file (same origin: the CSP's `script-src 'self'`), kept an hour.
fn script(body: &'static str) -> impl IntoResponse {
    (
        [
            (header::CONTENT_TYPE, "text/javascript; charset=utf-8"),
            (header::CACHE_CONTROL, "public, max-age=3600"),
        ],
        body,
    )
}

async fn live_js() -> impl IntoResponse {
    script(LIVE_JS)
}

async fn manifest() -> impl IntoResponse {
    (
        [
            (header::CONTENT_TYPE, "application/manifest+json"),
            (header::CACHE_CONTROL, "public, max-age=86400"),
        ],
        MANIFEST,
    )
}

async fn icon_svg() -> impl IntoResponse {
    (
        [
            (header::CONTENT_TYPE, "image/svg+xml"),
            (header::CACHE_CONTROL, "public, max-age=86400"),
        ],
        ICON_SVG,
    )
}

async fn icon_192() -> impl IntoResponse {
    (
        [
            (header::CONTENT_TYPE, "image/png"),
            (header::CACHE_CONTROL, "public, max-age=86400"),
        ],
        ICON_192,
    )
}

async fn icon_512() -> impl IntoResponse {
    (
        [
            (header::CONTENT_TYPE, "image/png"),
            (header::CACHE_CONTROL, "public, max-age=86400"),
        ],
        ICON_512,
    )
}

async fn favicon() -> impl IntoResponse {
    (
        [
            (header::CONTENT_TYPE, "image/x-icon"),
            (header::CACHE_CONTROL, "public, max-age=86400"),
        ],
        FAVICON,
    )
}

async fn style() -> impl IntoResponse {
    (
        [
            (header::CONTENT_TYPE, "text/css; charset=utf-8"),
            (header::CACHE_CONTROL, "public, max-age=3600"),
        ],
        STYLE_CSS,
    )
}

async fn abend() -> impl IntoResponse {
    (
        [
            (header::CONTENT_TYPE, "text/css; charset=utf-8"),
            (header::CACHE_CONTROL, "public, max-age=3600"),
        ],
        ABEND_CSS,
    )
}
