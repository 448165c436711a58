//! The static files, embedded in the binary (`static/`): served under `/static/…` with their
//! content type. Add a file here with one more `route` line.

use axum::http::header;
use axum::response::IntoResponse;

use super::{Guard, Routes};

/// The stylesheet (`static/style.css`).
const STYLE_CSS: &str = include_str!("../../static/style.css");

/// The game night's stylesheet (`static/abend.css`: live board, night report, Spielberichtsbogen).
const ABEND_CSS: &str = include_str!("../../static/abend.css");

/// The site icon (`static/favicon.ico`, 32 × 32: a die's three).
const FAVICON: &[u8] = include_bytes!("../../static/favicon.ico");

/// The routes of this feature.
pub fn routes() -> Routes {
    Routes::new()
        .get(Guard::Public, "/static/style.css", style)
        .get(Guard::Public, "/static/abend.css", abend)
        .get(Guard::Public, "/favicon.ico", favicon)
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
