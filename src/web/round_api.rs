//! Entering one round as JSON (secretary login): `POST
//! /api/v1/nights/{date}/tables/{table}/rounds/{number}` with `{"results": [ResultEntry, …]}`
//! stores or replaces round `number` at table `table` of the night on `date`.
//!
//! Every check of league.md §1 runs on the whole season with the round applied
//! (`Season::from_file`); a refused round stores nothing (422 with the German reason, naming night,
//! table, round, player and field). One transaction per request. The season's checked model is
//! taken from the season cache when it is current (no reload of the season per round), and the
//! new model is put back into the cache at the new change counter after the commit.

use std::sync::Arc;

use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::post;
use axum::{Json, Router};
use chrono::NaiveDate;
use serde::Deserialize;
use serde_json::json;

use super::{AppError, AppState};
use crate::auth::{CurrentUser, RequireSecretary};
use crate::cache::SeasonView;
use crate::db;
use crate::league::file::{NightEntry, ResultEntry};
use crate::league::Season;
use crate::service::ServiceError;

/// The routes of this feature.
pub fn router() -> Router<AppState> {
    Router::new().route(
        "/api/v1/nights/{date}/tables/{table}/rounds/{number}",
        post(put_round),
    )
}

/// The body: one row per player of the round.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RoundBody {
    /// The rows (player, outs, hand_outs, julen, joker, lost).
    pub results: Vec<ResultEntry>,
}

/// A JSON error answer `{"error": "<German message>"}`.
fn error(status: StatusCode, message: impl Into<String>) -> Response {
    (status, Json(json!({ "error": message.into() }))).into_response()
}

/// Maps storage and league errors to JSON answers (422 for a refused round).
fn service_error(e: ServiceError) -> Response {
    match e {
        ServiceError::NoSeason(_) => error(StatusCode::NOT_FOUND, e.to_string()),
        ServiceError::Entry(_) | ServiceError::Refused(_) => {
            error(StatusCode::UNPROCESSABLE_ENTITY, e.to_string())
        }
        ServiceError::Db(err) => AppError::Db(err).into_response(),
    }
}

/// Sets round `number` at `table` of the night on `date` set to `results` (replacing a
/// round of the same number; the table is added when missing) in `nights`; false when no night has
/// that date.
fn with_round(
    nights: &mut [NightEntry],
    date: NaiveDate,
    table: u32,
    number: u32,
    results: Vec<ResultEntry>,
) -> bool {
    let Some(night) = nights.iter_mut().find(|n| n.date == date) else {
        return false;
    };
    night.put_round(table, number, results);
    true
}

async fn put_round(
    State(state): State<AppState>,
    RequireSecretary(user): RequireSecretary,
    Path((date, table, number)): Path<(String, u32, u32)>,
    Json(body): Json<RoundBody>,
) -> Response {
    match store_round(&state, &user, &date, table, number, body).await {
        Ok(resp) => resp,
        Err(resp) => resp,
    }
}

async fn store_round(
    state: &AppState,
    user: &CurrentUser,
    date: &str,
    table: u32,
    number: u32,
    body: RoundBody,
) -> Result<Response, Response> {
    let date = NaiveDate::parse_from_str(date, "%Y-%m-%d").map_err(|_| {
        error(
            StatusCode::NOT_FOUND,
            format!("\"{date}\" ist kein Datum (JJJJ-MM-TT)"),
        )
    })?;
    let mut tx = state
        .begin_write_as(user)
        .await
        .map_err(|e| e.into_response())?;
    let night = db::night::by_date(&mut tx, date)
        .await
        .map_err(|e| AppError::Db(e).into_response())?
        .ok_or_else(|| {
            error(
                StatusCode::NOT_FOUND,
                "An diesem Tag gibt es keinen Spielabend",
            )
        })?;
    let year = night.season as i32;
    let view = state
        .seasons
        .get_in(&mut tx, year)
        .await
        .map_err(service_error)?;
    let mut file = view.season.to_file();
    if !with_round(&mut file.nights, date, table, number, body.results) {
        return Err(error(
            StatusCode::NOT_FOUND,
            "An diesem Tag gibt es keinen Spielabend",
        ));
    }
    // The same check as the round form: the drawn participants count for the two-table rule.
    let presence = db::night::presence_counts(&mut tx, year)
        .await
        .map_err(|e| AppError::Db(e).into_response())?;
    let season =
        Season::from_file_with_presence(&file, &presence).map_err(|e| service_error(e.into()))?;
    // The stored round's rows with canonical names, as checked.
    let rows: Vec<ResultEntry> = season
        .night(date)
        .and_then(|n| n.tables.iter().find(|t| t.number == table))
        .and_then(|t| t.rounds.iter().find(|r| r.number == number))
        .map(|r| r.results.clone())
        .unwrap_or_default();
    let mut pairs = Vec::with_capacity(rows.len());
    for r in rows {
        let id = *view.player_ids.get(&r.player).ok_or_else(|| {
            error(
                StatusCode::UNPROCESSABLE_ENTITY,
                format!("unbekannter Spieler \"{}\"", r.player),
            )
        })?;
        pairs.push((id, r));
    }
    let db_err = |e: db::DbError| AppError::Db(e).into_response();
    db::night::put_round(&mut tx, night.id, table, number, &pairs)
        .await
        .map_err(db_err)?;
    for (id, _) in &pairs {
        db::round::ensure_participant(&mut tx, night.id, *id, table)
            .await
            .map_err(db_err)?;
    }
    // The audit triggers record every result removed and entered, naming `user`.
    let version = db::version::of_season(&mut tx, year)
        .await
        .map_err(db_err)?
        .ok_or_else(|| service_error(ServiceError::NoSeason(year)))?;
    tx.commit()
        .await
        .map_err(|e| AppError::from(e).into_response())?;
    state.seasons.put(
        year,
        Arc::new(SeasonView::new(
            version,
            season,
            view.carry_in_cents,
            view.player_ids.clone(),
        )),
    );
    Ok((
        StatusCode::OK,
        Json(json!({
            "season": year,
            "date": date,
            "table": table,
            "round": number,
            "version": version,
        })),
    )
        .into_response())
}
