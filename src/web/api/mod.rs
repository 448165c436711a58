//! The JSON API (interchange.md): the server's status (`GET /api/v1/status`), standings, payouts,
//! players and careers (`seasons`), the players' accounts (`accounts`), one Wurfrunde evaluated (`wurfrunde`), what the last night can still bring (`scenario`), and a secretary's
//! program entering rounds (`round`).

pub mod accounts;
pub mod round;
pub mod scenario;
pub mod seasons;
pub mod wurfrunde;

use axum::extract::State;
use axum::http::header;
use axum::Json;

use super::kit::{Guard, Routes};
use crate::service::status::Status;
use crate::service::League;

/// The routes of this room.
pub fn routes() -> Routes {
    Routes::new()
        .get(Guard::Public, "/api/v1/status", status)
        .merge(seasons::routes())
        .merge(accounts::routes())
        .merge(wurfrunde::routes())
        .merge(round::routes())
}

/// `GET /api/v1/status` (public, interchange.md "Running it for a club"): `{"ok": true,
/// "version": "…", "today": "2026-05-01", "timezone": "Europe/Berlin"}`, the club's date on the
/// one club clock, with `"remote": {"ok": …, "last": DAY}` when copies go off the machine.
/// Never cached (`Cache-Control: no-store`): the copies off the machine change without a write
/// to the league, and a monitor must see them as they are now.
pub async fn status(
    State(league): State<League>,
) -> ([(header::HeaderName, &'static str); 1], Json<Status>) {
    ([(header::CACHE_CONTROL, "no-store")], Json(league.status()))
}
