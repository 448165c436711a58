//! Entering one round as JSON (secretary login): `POST
//! /api/v1/nights/{date}/tables/{table}/rounds/{number}` with `{"results": [ResultEntry, …]}` and,
//! for a closed night, `"korrektur": "<reason>"` stores or replaces round `number` at table
//! `table` of the night on `date`. A player not yet in the night's draw is seated at `table`.
//!
//! It is `Change::PutRound` through the write pipeline, the same check as the round form and the
//! Schockbesteck (league.md §1 on the whole season, the Korrektur of a closed night); a refused
//! round stores nothing: 422 with the German reason naming night, table, round, player and field
//! (409 for a closed night without Korrektur).

use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;
use chrono::NaiveDate;
use serde::Deserialize;
use serde_json::json;

use super::{Guard, Routes};
use crate::auth::RequireSecretary;
use crate::league::file::ResultEntry;
use crate::league::{Change, Korrektur};
use crate::service::{Edit, League, ServiceError};

/// The routes of this feature.
pub fn routes() -> Routes {
    Routes::new().post(
        Guard::Secretary,
        "/api/v1/nights/{date}/tables/{table}/rounds/{number}",
        put_round,
    )
}

/// The body: one row per player of the round, and the Korrektur reason for a closed night.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RoundBody {
    /// The rows (player, outs, hand_outs, julen, joker, lost).
    pub results: Vec<ResultEntry>,
    /// Why a closed night is corrected (its presence ticks the Korrektur).
    #[serde(default)]
    pub korrektur: Option<String>,
}

/// A JSON error answer `{"error": "<German message>"}`.
fn error(status: StatusCode, message: impl Into<String>) -> Response {
    (status, Json(json!({ "error": message.into() }))).into_response()
}

async fn put_round(
    State(league): State<League>,
    RequireSecretary(user): RequireSecretary,
    Path((date, table, number)): Path<(String, u32, u32)>,
    Json(body): Json<RoundBody>,
) -> Response {
    let Ok(date) = NaiveDate::parse_from_str(&date, "%Y-%m-%d") else {
        return error(
            StatusCode::NOT_FOUND,
            format!("\"{date}\" ist kein Datum (JJJJ-MM-TT)"),
        );
    };
    let Some(year) = league.snapshot().night(date).map(|(v, _)| v.season.year) else {
        return error(
            StatusCode::NOT_FOUND,
            "An diesem Tag gibt es keinen Spielabend",
        );
    };
    let change = Change::PutRound {
        date,
        table,
        number,
        results: body.results,
        replace: true,
        seat_newcomers: true,
    };
    let korrektur = body
        .korrektur
        .map(|reason| Korrektur::because(&reason))
        .unwrap_or_default();
    let edit = Edit::by(&user.username).korrektur(korrektur);
    match league.change(year, change, &edit).await {
        Ok(view) => (
            StatusCode::OK,
            Json(json!({
                "season": year,
                "date": date,
                "table": table,
                "round": number,
                "version": view.version,
            })),
        )
            .into_response(),
        Err(e @ (ServiceError::NoSeason(_) | ServiceError::NotFound(_))) => {
            error(StatusCode::NOT_FOUND, e.to_string())
        }
        Err(ServiceError::Refused(e)) => error(StatusCode::UNPROCESSABLE_ENTITY, e.to_string()),
        Err(ServiceError::Closed(e)) => error(StatusCode::CONFLICT, e.to_string()),
        Err(e) => {
            tracing::error!(error = %e, "round api failed");
            error(
                StatusCode::INTERNAL_SERVER_ERROR,
                "Ein interner Fehler ist aufgetreten.",
            )
        }
    }
}
