//! The club's calendar (interchange.md "Planned nights and a player's own card"): `/kalender.ics`
//! (RFC 5545, every planned and played night of the current and the next season, from the
//! snapshot; served by the page cache like every public page) and `/kalender`, the page with the
//! address to subscribe to (`webcal://`, built from the request's host, so never kept by a cache).

use askama::Template;
use askama_web::WebTemplate;
use axum::extract::State;
use axum::http::{header, HeaderValue};
use axum::response::{IntoResponse, Response};

use crate::service::calendar::{calendar, Whose};
use crate::service::League;
use crate::web::kit::links::PublicAddress;
use crate::web::kit::{Guard, Layout, Routes, Today};

/// The routes of this feature.
pub fn routes() -> Routes {
    Routes::new()
        .get(Guard::Public, "/kalender", page)
        .get(Guard::Public, "/kalender.ics", ics)
}

/// The answer of a calendar file: `text/calendar`, named `file` when saved.
pub fn ics_response(text: String, file: &str) -> Response {
    let disposition = format!("inline; filename=\"{file}\"");
    let mut resp = (
        [(header::CONTENT_TYPE, "text/calendar; charset=utf-8")],
        text,
    )
        .into_response();
    if let Ok(v) = HeaderValue::from_str(&disposition) {
        resp.headers_mut().insert(header::CONTENT_DISPOSITION, v);
    }
    resp
}

/// `GET /kalender.ics`: the club's calendar; each event's `URL` is its night's page on the club's
/// address (`--public-url`, else the host asked: the page cache keeps one per host).
async fn ics(
    State(league): State<League>,
    Today(today): Today,
    address: PublicAddress,
) -> Response {
    let text = calendar(
        &league.snapshot(),
        league.timezone(),
        today,
        Some(&address.link("")),
        Whose::Club,
    );
    ics_response(text, "schockerliga.ics")
}

/// The subscribe page.
#[derive(Template, WebTemplate)]
#[template(path = "public/kalender.html")]
struct CalendarPage {
    layout: Layout,
    /// `webcal://host/kalender.ics`.
    webcal: String,
    /// `https://host/kalender.ics`.
    https: String,
    /// The QR code of the webcal address (SVG).
    qr: String,
}

/// The subscribe address of `path` at `address`: (`webcal://…`, `http(s)://…`).
pub fn addresses(address: &PublicAddress, path: &str) -> (String, String) {
    let https = address.link(path);
    let webcal = match https.split_once("://") {
        Some((_, rest)) => format!("webcal://{rest}"),
        None => https.clone(),
    };
    (webcal, https)
}

/// `GET /kalender`: how to subscribe to the club's calendar (private: it names the request's host).
async fn page(layout: Layout, address: PublicAddress) -> Response {
    let (webcal, https) = addresses(&address, "/kalender.ics");
    let qr =
        crate::web::kit::qr::svg(&webcal, "linkcode", "QR-Code des Kalenders").unwrap_or_default();
    let mut resp = CalendarPage {
        layout,
        webcal,
        https,
        qr,
    }
    .into_response();
    resp.headers_mut().insert(
        header::CACHE_CONTROL,
        HeaderValue::from_static("private, no-cache"),
    );
    resp
}
