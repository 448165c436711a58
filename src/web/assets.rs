//! The static files, embedded in the binary (`static/`): served under `/static/…` with their
//! content type. Add a file here with one more `route` line.

use axum::http::header;
use axum::response::IntoResponse;

use super::{Guard, Routes};

/// The stylesheet (`static/style.css`).
const STYLE_CSS: &str = include_str!("../../static/style.css");

/// The routes of this feature.
pub fn routes() -> Routes {
    Routes::new().get(Guard::Public, "/static/style.css", style)
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
