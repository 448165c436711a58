//! The read-only JSON API (interchange.md): standings and payouts of a season. Errors are JSON
//! `{"error": "<German message>"}`: 404 for an unknown season, 400 for a bad date.

use axum::extract::rejection::{PathRejection, QueryRejection};
use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;
use chrono::NaiveDate;
use serde::Deserialize;
use serde_json::json;

use super::{Guard, Routes};
use crate::auth::CurrentUser;
use crate::service::{League, ServiceError};

/// The routes of this feature.
pub fn routes() -> Routes {
    Routes::new()
        .get(
            Guard::Public,
            "/api/v1/seasons/{season}/standings",
            standings,
        )
        .get(Guard::Public, "/api/v1/seasons/{season}/payouts", payouts)
}

/// An API error: status and German message, answered as JSON.
#[derive(Debug)]
pub struct ApiError(StatusCode, String);

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        (self.0, Json(json!({ "error": self.1 }))).into_response()
    }
}

impl From<ServiceError> for ApiError {
    fn from(e: ServiceError) -> Self {
        match e {
            ServiceError::NoSeason(_) | ServiceError::NotFound(_) => {
                ApiError(StatusCode::NOT_FOUND, e.to_string())
            }
            ServiceError::Refused(_) => ApiError(StatusCode::UNPROCESSABLE_ENTITY, e.to_string()),
            ServiceError::Closed(_) | ServiceError::Conflict(_) => {
                ApiError(StatusCode::CONFLICT, e.to_string())
            }
            ServiceError::Full(_) => ApiError(StatusCode::INSUFFICIENT_STORAGE, e.to_string()),
            ServiceError::Corrupt(_) | ServiceError::Db(_) => {
                tracing::error!(error = %e, "api request failed");
                ApiError(
                    StatusCode::INTERNAL_SERVER_ERROR,
                    "Ein interner Fehler ist aufgetreten.".to_string(),
                )
            }
        }
    }
}

/// Parses the season path segment; anything but a year is an unknown season (404).
fn season_year(s: &str) -> Result<i32, ApiError> {
    s.parse()
        .map_err(|_| ApiError(StatusCode::NOT_FOUND, format!("Saison {s} gibt es nicht")))
}

/// The standings query: `as_of` as `YYYY-MM-DD`.
#[derive(Deserialize)]
pub struct StandingsQuery {
    /// The as-of date; absent = the season's last night.
    pub as_of: Option<String>,
}

/// Parses an optional ISO date; a bad one is a 400.
fn parse_date(s: Option<&str>) -> Result<Option<NaiveDate>, ApiError> {
    s.filter(|s| !s.is_empty())
        .map(|s| {
            NaiveDate::parse_from_str(s, "%Y-%m-%d").map_err(|_| {
                ApiError(
                    StatusCode::BAD_REQUEST,
                    format!("as_of: \"{s}\" ist kein Datum im Format JJJJ-MM-TT"),
                )
            })
        })
        .transpose()
}

/// A rejected path or query (invalid UTF-8, a repeated parameter) as a JSON 400.
fn bad_request(e: impl std::fmt::Display) -> ApiError {
    ApiError(StatusCode::BAD_REQUEST, format!("Ungültige Anfrage: {e}"))
}

async fn standings(
    State(league): State<League>,
    season: Result<Path<String>, PathRejection>,
    q: Result<Query<StandingsQuery>, QueryRejection>,
) -> Result<Response, ApiError> {
    let Path(season) = season.map_err(bad_request)?;
    let Query(q) = q.map_err(bad_request)?;
    let year = season_year(&season)?;
    let as_of = parse_date(q.as_of.as_deref())?;
    if let Some(d) = as_of {
        crate::league::check_as_of(year, d).map_err(|e| ApiError(StatusCode::BAD_REQUEST, e))?;
    }
    let snapshot = league.snapshot();
    let view = snapshot.season(year)?;
    Ok(Json(&*view.standings_as_of(as_of)).into_response())
}

/// The payouts of a season; while the club keeps its money private ("Kasse nur für Mitglieder")
/// only for a logged-in account (403 for others: the payees' names with their amounts).
async fn payouts(
    State(league): State<League>,
    user: Option<CurrentUser>,
    season: Result<Path<String>, PathRejection>,
) -> Result<Response, ApiError> {
    let Path(season) = season.map_err(bad_request)?;
    let year = season_year(&season)?;
    let snapshot = league.snapshot();
    if !snapshot.money_visible(user.is_some()) {
        return Err(ApiError(
            StatusCode::FORBIDDEN,
            "Die Kasse ist nur für Mitglieder: bitte anmelden.".to_string(),
        ));
    }
    let resp = Json(league.payouts(year)?).into_response();
    Ok(super::money::private_money(&snapshot, resp))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_parse_iso_or_fail_with_400() {
        let cases = [
            (None, Some(None)),
            (Some(""), Some(None)),
            (
                Some("2026-03-01"),
                Some(NaiveDate::from_ymd_opt(2026, 3, 1)),
            ),
            (Some("01.03.2026"), None),
            (Some("2026-02-30"), None),
        ];
        for (input, expected) in cases {
            match (parse_date(input), expected) {
                (Ok(got), Some(want)) => assert_eq!(got, want, "{input:?}"),
                (Err(ApiError(status, _)), None) => assert_eq!(status, StatusCode::BAD_REQUEST),
                (got, want) => panic!("{input:?}: {got:?} vs {want:?}"),
            }
        }
    }
}
