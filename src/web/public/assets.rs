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
