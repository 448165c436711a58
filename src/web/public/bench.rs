//! A bench-only route for `bench/run.sh`: when the environment variable
//! `SCHOCKERLIGA_BENCH_STATIC` names a file at start, `GET /bench/static` serves its bytes from
//! memory as a static HTML file (the baseline the load benchmark compares the pages with). Without
//! the variable the route does not exist.

use axum::body::Bytes;
use axum::http::header;

use crate::web::kit::{Guard, Routes};

/// The environment variable that names the bench file.
pub const BENCH_STATIC_ENV: &str = "SCHOCKERLIGA_BENCH_STATIC";

/// The route `/bench/static` when [`BENCH_STATIC_ENV`] names a readable file, else no route (an
/// unreadable file is logged and ignored).
pub fn routes() -> Routes {
    let Some(path) = std::env::var_os(BENCH_STATIC_ENV) else {
        return Routes::new();
    };
    match std::fs::read(&path) {
        Ok(bytes) => {
            let bytes = Bytes::from(bytes);
            tracing::warn!(
                "Benchmark-Route /bench/static aktiv ({} Bytes)",
                bytes.len()
            );
            Routes::new().get(Guard::Public, "/bench/static", move || {
                let bytes = bytes.clone();
                async move { ([(header::CONTENT_TYPE, "text/html; charset=utf-8")], bytes) }
            })
        }
        Err(e) => {
            tracing::error!("{BENCH_STATIC_ENV}={}: {e}", path.to_string_lossy());
            Routes::new()
        }
    }
}
