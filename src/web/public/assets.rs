//! The static files of [`kit::assets`](crate::web::kit::assets) served: `/static/{file}` under
//! its hashed name (kept a year, immutable) or its plain name (the current bytes, kept an hour or
//! a day), the service worker at `/sw.js`, and the fixed addresses browsers and older pages ask
//! for (`/favicon.ico`, `/money.css`).

use axum::extract::Path;
use axum::http::header;
use axum::response::{IntoResponse, Response};

use crate::web::kit::assets::{self, Asset, Named};
use crate::web::kit::{AppError, Guard, Routes};

/// The `Cache-Control` of a file under its hashed name: a new version has a new name.
pub const IMMUTABLE: &str = "public, max-age=31536000, immutable";

/// The routes of this feature.
pub fn routes() -> Routes {
    Routes::new()
        .get(Guard::Public, "/static/{file}", file)
        .get(Guard::Public, "/sw.js", sw_js)
        .get(Guard::Public, "/favicon.ico", favicon)
        .get(Guard::Public, "/money.css", money_css)
}

/// `GET /static/{file}`: a file of the table by its hashed or plain name (see the module); 404
/// for any other name.
async fn file(Path(file): Path<String>) -> Result<Response, AppError> {
    let (asset, named) = assets::find(&file).ok_or(AppError::NotFound)?;
    Ok(serve(asset, named))
}

/// `asset`'s bytes with its content type, kept by how it was named.
fn serve(asset: &'static Asset, named: Named) -> Response {
    let cache = match named {
        Named::Hashed => IMMUTABLE.to_string(),
        Named::Plain => format!("public, max-age={}", asset.plain_max_age),
    };
    (
        [
            (header::CONTENT_TYPE, asset.content_type.to_string()),
            (header::CACHE_CONTROL, cache),
        ],
        asset.bytes,
    )
        .into_response()
}

/// The file `name` of the table under its plain name (a fixed address).
fn plain(name: &str) -> Result<Response, AppError> {
    let (asset, _) = assets::find(name).ok_or(AppError::NotFound)?;
    Ok(serve(asset, Named::Plain))
}

/// `GET /favicon.ico`: the site icon where browsers look for it.
async fn favicon() -> Result<Response, AppError> {
    plain("favicon.ico")
}

/// `GET /money.css`: the money pages' stylesheet at its address before it moved under
/// `/static/` (issue 33.5), for pages kept from then.
async fn money_css() -> Result<Response, AppError> {
    plain("money.css")
}

/// `GET /sw.js`: the service worker with the table filled in, scope `/`
/// (`Service-Worker-Allowed: /`); `no-cache`, so that a new version is found at the next visit.
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
        assets::service_worker(),
    )
}
