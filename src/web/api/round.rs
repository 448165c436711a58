//! One round as JSON. `GET /api/v1/nights/{date}/tables/{table}/rounds/{number}` (public) answers
//! the round with its version as `ETag`. `POST` to the same address (secretary login) with
//! `{"results": [ResultEntry, …]}` and, for a closed night, `"korrektur": "<reason>"` stores round
//! `number` at table `table` of the night on `date`; a player not yet in the night's draw is seated
//! at `table`.
//!
//! Lost updates: a round that is entered already is replaced only when the request says so —
//! `If-Match: "<version>"` (the `ETag` it saw: refused with 409 when the round changed meanwhile) or
//! `If-Match: *` (whatever is there). Without `If-Match` an entered round is a 409 naming what is
//! there. The answer carries the stored round's new `ETag`.
//!
//! `DELETE` to the same address (secretary login; `?korrektur=<reason>` for a closed night) removes
//! the round (`Change::RemoveRound`: one audit row per removed result); with `If-Match:
//! "<version>"` only the round as it was seen (else 409). 200 with the season's new version; 404
//! when the round is not entered.
//!
//! It is `Change::PutRound` through the write pipeline, the same check as the round form and the
//! Schockbesteck (league.md §1 on the whole season, the Korrektur of a closed night); a refused
//! round stores nothing: 422 with the German reason naming night, table, round, player and field
//! (409 for a closed night without Korrektur or a lost update).

use axum::extract::{Path, Query, State};
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde::Deserialize;
use serde_json::json;

use crate::league::change::{round_version, Replace};
use crate::league::model::file::ResultEntry;
use crate::league::{Change, Korrektur, Round};
use crate::service::{Edit, League, ServiceError};
use crate::web::kit::session::RequireSecretary;
use crate::web::kit::{ApiError, Guard, Routes};

/// The routes of this feature.
pub fn routes() -> Routes {
    Routes::new()
        .get(
            Guard::Public,
            "/api/v1/nights/{date}/tables/{table}/rounds/{number}",
            get_round,
        )
        .post(
            Guard::Secretary,
            "/api/v1/nights/{date}/tables/{table}/rounds/{number}",
            put_round,
        )
        .delete(
            Guard::Secretary,
            "/api/v1/nights/{date}/tables/{table}/rounds/{number}",
            delete_round,
        )
}

/// The `ETag` of a round version: the version in quotes.
fn etag(round: &Round) -> Option<HeaderValue> {
    HeaderValue::from_str(&format!("\"{}\"", round_version(round))).ok()
}

/// What `If-Match` asks for: nothing (a new round only), `*` (any), or one version.
fn replace_of(headers: &HeaderMap) -> Replace {
    match headers.get(header::IF_MATCH).and_then(|v| v.to_str().ok()) {
        None => Replace::No,
        Some(v) if v.trim() == "*" => Replace::Any,
        Some(v) => Replace::IfVersion(
            v.trim()
                .trim_start_matches("W/")
                .trim_matches('"')
                .to_string(),
        ),
    }
}

async fn get_round(
    State(league): State<League>,
    Path((date, table, number)): Path<(String, u32, u32)>,
) -> Response {
    let date = match ApiError::path_date(&date) {
        Ok(date) => date,
        Err(e) => return e.into_response(),
    };
    let snapshot = league.snapshot();
    let round = snapshot
        .night(date)
        .and_then(|(_, n)| n.tables.iter().find(|t| t.number == table))
        .and_then(|t| t.rounds.iter().find(|r| r.number == number));
    let Some(round) = round else {
        return error(
            StatusCode::NOT_FOUND,
            format!("Tisch {table}, Runde {number} ist an diesem Tag nicht eingetragen"),
        );
    };
    let mut resp = Json(json!({
        "date": date,
        "table": table,
        "round": number,
        "version": round_version(round),
        "results": round.results,
    }))
    .into_response();
    if let Some(tag) = etag(round) {
        resp.headers_mut().insert(header::ETAG, tag);
    }
    resp
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

/// A JSON error answer `{"error": "<German message>"}` ([`ApiError`], the API's one shape).
fn error(status: StatusCode, message: impl Into<String>) -> Response {
    ApiError(status, message.into()).into_response()
}

/// The query of a `DELETE`: the Korrektur reason for a closed night.
#[derive(Debug, Default, Deserialize)]
pub struct DeleteQuery {
    /// Why a closed night is corrected (its presence ticks the Korrektur).
    #[serde(default)]
    pub korrektur: Option<String>,
}

async fn delete_round(
    State(league): State<League>,
    RequireSecretary(user): RequireSecretary,
    Path((date, table, number)): Path<(String, u32, u32)>,
    Query(query): Query<DeleteQuery>,
    headers: HeaderMap,
) -> Response {
    let date = match ApiError::path_date(&date) {
        Ok(date) => date,
        Err(e) => return e.into_response(),
    };
    let snapshot = league.snapshot();
    let Some((view, night)) = snapshot.night(date) else {
        return error(
            StatusCode::NOT_FOUND,
            "An diesem Tag gibt es keinen Spielabend",
        );
    };
    let year = view.season.year;
    let entered = night
        .tables
        .iter()
        .any(|t| t.number == table && t.rounds.iter().any(|r| r.number == number));
    if !entered {
        return error(
            StatusCode::NOT_FOUND,
            format!("Tisch {table}, Runde {number} ist an diesem Tag nicht eingetragen"),
        );
    }
    // The version seen is checked by the change itself, on the season as the write reads it.
    let if_version = match replace_of(&headers) {
        Replace::IfVersion(v) => Some(v),
        Replace::No | Replace::Any => None,
    };
    let korrektur = query
        .korrektur
        .map(|reason| Korrektur::because(&reason))
        .unwrap_or_default();
    let edit = Edit::by(&user.username).korrektur(korrektur);
    let change = Change::RemoveRound {
        date,
        table,
        number,
        if_version,
    };
    match league.change(year, change, &edit).await {
        Ok(view) => Json(json!({
            "season": year,
            "date": date,
            "table": table,
            "round": number,
            "version": view.version,
            "deleted": true,
        }))
        .into_response(),
        Err(e) => service_error(e),
    }
}

/// The JSON answer of a refused or failed change ([`ApiError`]); the league's words for a round
/// entered already are the form's ("„Runde ersetzen“ ankreuzen"): a program sends If-Match instead.
fn service_error(e: ServiceError) -> Response {
    let ApiError(status, message) = ApiError::from(e);
    let message = message.replace(
        "„Runde ersetzen“ ankreuzen",
        "mit If-Match: \"<ETag>\" (oder If-Match: *) senden",
    );
    ApiError(status, message).into_response()
}

async fn put_round(
    State(league): State<League>,
    RequireSecretary(user): RequireSecretary,
    Path((date, table, number)): Path<(String, u32, u32)>,
    headers: HeaderMap,
    Json(body): Json<RoundBody>,
) -> Response {
    let date = match ApiError::path_date(&date) {
        Ok(date) => date,
        Err(e) => return e.into_response(),
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
        replace: replace_of(&headers),
        seat_newcomers: true,
        schockbesteck: None,
    };
    let korrektur = body
        .korrektur
        .map(|reason| Korrektur::because(&reason))
        .unwrap_or_default();
    let edit = Edit::by(&user.username).korrektur(korrektur);
    match league.change(year, change, &edit).await {
        Ok(view) => {
            let stored = view
                .night(date)
                .and_then(|n| n.tables.iter().find(|t| t.number == table))
                .and_then(|t| t.rounds.iter().find(|r| r.number == number));
            let mut resp = (
                StatusCode::OK,
                Json(json!({
                    "season": year,
                    "date": date,
                    "table": table,
                    "round": number,
                    "version": view.version,
                    "round_version": stored.map(round_version),
                })),
            )
                .into_response();
            if let Some(tag) = stored.and_then(etag) {
                resp.headers_mut().insert(header::ETAG, tag);
            }
            resp
        }
        Err(e) => service_error(e),
    }
}
