//! The secretary's Schockbesteck: live scoring of one Runde at a table of a night, Wurfrunde by
//! Wurfrunde, with the pure engine (`rules::RundeState`, schocken-rules.md §6–§7).
//!
//! The Runde in progress is stored as the engine's record (`service::besteck`) and rebuilt by
//! replaying it on every request, so it survives reloads and restarts; the last Wurfrunde is
//! corrected by replaying all but it. Each step is stored only against the state its page showed.
//! When the Runde has a loser, its Outs, Hand-Outs, Julen and loser fill the round's result form;
//! confirming stores the round through the write pipeline (`Change::PutRound`, the same check as
//! the round form) with the tallies recomputed from the throws, never from posted numbers. Plain
//! server-rendered forms, no script.
//!
//! The room: `throws` reads the typed throws of a Wurfrunde form (the one hand-read field map of
//! the Schockbesteck), `view` builds the Runde page from the engine's state, `runde` answers the
//! Runde's page and actions, `night` the overview of a night's tables.

pub mod night;
pub mod runde;
pub mod throws;
pub mod view;

use axum::response::{IntoResponse, Response};
use chrono::NaiveDate;

use crate::web::kit::session::RequireSecretary;
use crate::web::kit::{Guard, Routes};
pub use view::{history, seats};

/// The routes of this feature (all under `/verwaltung/besteck`).
pub fn routes() -> Routes {
    Routes::new()
        .get(Guard::Secretary, "/verwaltung/besteck/{date}", night::get)
        .get(
            Guard::Secretary,
            "/verwaltung/besteck/{date}/{table}/{round}",
            runde::get,
        )
        .post(
            Guard::Secretary,
            "/verwaltung/besteck/{date}/{table}/{round}/start",
            runde::start,
        )
        .post(
            Guard::Secretary,
            "/verwaltung/besteck/{date}/{table}/{round}/wurfrunde",
            runde::wurfrunde,
        )
        .post(
            Guard::Secretary,
            "/verwaltung/besteck/{date}/{table}/{round}/zurueck",
            runde::undo,
        )
        .post(
            Guard::Secretary,
            "/verwaltung/besteck/{date}/{table}/{round}/verwerfen",
            runde::discard,
        )
        .post(
            Guard::Secretary,
            "/verwaltung/besteck/{date}/{table}/{round}/bestaetigen",
            runde::confirm,
        )
        // The same through a scorer link of the table.
        .get(
            Guard::Link,
            "/tisch/{token}/{date}/{table}/besteck/{round}",
            runde::get,
        )
        .post(
            Guard::Link,
            "/tisch/{token}/{date}/{table}/besteck/{round}/start",
            runde::start,
        )
        .post(
            Guard::Link,
            "/tisch/{token}/{date}/{table}/besteck/{round}/wurfrunde",
            runde::wurfrunde,
        )
        .post(
            Guard::Link,
            "/tisch/{token}/{date}/{table}/besteck/{round}/zurueck",
            runde::undo,
        )
        .post(
            Guard::Link,
            "/tisch/{token}/{date}/{table}/besteck/{round}/verwerfen",
            runde::discard,
        )
        .post(
            Guard::Link,
            "/tisch/{token}/{date}/{table}/besteck/{round}/bestaetigen",
            runde::confirm,
        )
}

/// Who keeps the Schockbesteck: a secretary (`/verwaltung/besteck/…`) or the holder of a scorer
/// link of the table (`/tisch/{token}/{date}/{table}/besteck/…`, checked by `scorer::guard`).
pub struct Writer {
    /// The author named in the audit log ("anna", "Tisch 2 (Link von anna)").
    pub author: String,
    /// The link's token, when written through a scorer link.
    pub token: Option<String>,
}

impl Writer {
    /// The address of round `round` at `table` of the night on `date` for this writer.
    pub fn round_path(&self, date: NaiveDate, table: u32, round: u32) -> String {
        match &self.token {
            Some(token) => format!("/tisch/{token}/{date}/{table}/besteck/{round}"),
            None => format!("/verwaltung/besteck/{date}/{table}/{round}"),
        }
    }

    /// The page this writer's Runde page links back to: the Schockbesteck's night page, or the
    /// link's table page.
    pub fn night_path(&self, date: NaiveDate, table: u32) -> String {
        match &self.token {
            Some(token) => format!("/tisch/{token}/{date}/{table}"),
            None => format!("/verwaltung/besteck/{date}"),
        }
    }
}

impl axum::extract::FromRequestParts<crate::web::kit::AppState> for Writer {
    type Rejection = Response;

    async fn from_request_parts(
        parts: &mut axum::http::request::Parts,
        state: &crate::web::kit::AppState,
    ) -> Result<Self, Response> {
        if let Some(link) = parts
            .extensions
            .get::<crate::service::scorer::ScorerLink>()
            .cloned()
        {
            let token = parts
                .uri
                .path()
                .split('/')
                .nth(2)
                .unwrap_or_default()
                .to_string();
            return Ok(Writer {
                author: link.author(),
                token: Some(token),
            });
        }
        let RequireSecretary(user) = RequireSecretary::from_request_parts(parts, state)
            .await
            .map_err(IntoResponse::into_response)?;
        Ok(Writer {
            author: user.username,
            token: None,
        })
    }
}
