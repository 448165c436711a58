//! The read-only JSON API (interchange.md): standings, payouts and the players' progress of a
//! season, a player's career and the all-time table. Errors are JSON
//! `{"error": "<German message>"}`: 404 for an unknown season or player, 400 for a bad date.

use axum::extract::rejection::{PathRejection, QueryRejection};
use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;
use chrono::NaiveDate;
use serde::{Deserialize, Serialize};
use serde_json::json;

use crate::league::Liga;
use crate::service::League;
use crate::web::kit::session::CurrentUser;
use crate::web::kit::{ApiError, Guard, Routes, Today};

/// The routes of this feature.
pub fn routes() -> Routes {
    Routes::new()
        .get(
            Guard::Public,
            "/api/v1/seasons/{season}/standings",
            standings,
        )
        .get(Guard::Public, "/api/v1/seasons/{season}/payouts", payouts)
        .get(Guard::Public, "/api/v1/seasons/{season}/players", players)
        .get(
            Guard::Public,
            "/api/v1/seasons/{season}/scenario",
            super::scenario::scenario,
        )
        .get(Guard::Public, "/api/v1/players/{name}", career)
        .get(Guard::Public, "/api/v1/alltime", alltime)
}

/// Parses the season path segment; anything but a year is an unknown season (404).
pub(super) fn season_year(s: &str) -> Result<i32, ApiError> {
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
pub(super) fn bad_request(e: impl std::fmt::Display) -> ApiError {
    ApiError(StatusCode::BAD_REQUEST, format!("Ungültige Anfrage: {e}"))
}

/// The season and the as-of date of a request as sent: 400 for a path or query that cannot be
/// read or an as-of date outside the season, 404 for what is no season.
fn season_as_of(
    season: Result<Path<String>, PathRejection>,
    q: Result<Query<StandingsQuery>, QueryRejection>,
) -> Result<(i32, Option<NaiveDate>), ApiError> {
    let Path(season) = season.map_err(bad_request)?;
    let Query(q) = q.map_err(bad_request)?;
    let year = season_year(&season)?;
    let as_of = parse_date(q.as_of.as_deref())?;
    if let Some(d) = as_of {
        crate::league::check_as_of(year, d).map_err(|e| ApiError(StatusCode::BAD_REQUEST, e))?;
    }
    Ok((year, as_of))
}

async fn standings(
    State(league): State<League>,
    Today(today): Today,
    season: Result<Path<String>, PathRejection>,
    q: Result<Query<StandingsQuery>, QueryRejection>,
) -> Result<Response, ApiError> {
    let (year, as_of) = season_as_of(season, q)?;
    let snapshot = league.snapshot();
    let view = snapshot.season(year)?;
    Ok(Json(&*view.standings_on(as_of, today)).into_response())
}

/// The payouts of a season; while the club keeps its money private ("Kasse nur für Mitglieder")
/// only for a logged-in account (403 for others: the payees' names with their amounts).
async fn payouts(
    State(league): State<League>,
    Today(today): Today,
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
    let resp = Json(league.payouts_on(year, today)?).into_response();
    Ok(crate::web::kit::privacy::private_money(&snapshot, resp))
}

/// A money field withheld from a visitor while the club keeps its money private.
#[derive(Debug, Clone, Copy)]
pub struct Private;

/// Serializes the `Ok` value of a money field (an `Err` is skipped before).
pub(super) fn ok_value<T: Serialize, S: serde::Serializer>(
    v: &Result<T, Private>,
    s: S,
) -> Result<S::Ok, S::Error> {
    match v {
        Ok(v) => v.serialize(s),
        Err(_) => s.serialize_none(),
    }
}

/// The answer of `GET /api/v1/seasons/{season}/players` (interchange.md, league.md §3–§5).
#[derive(Serialize)]
pub struct PlayersJson {
    /// The season's year.
    pub season: i32,
    /// The as-of date (`null` for a season without nights).
    pub as_of: Option<NaiveDate>,
    /// One line per listed player, in the order of the standings.
    pub players: Vec<PlayerProgressJson>,
}

/// One player's line of [`PlayersJson`]: exactly the fields of the contract (rounds, cents).
#[derive(Serialize)]
pub struct PlayerProgressJson {
    /// The name.
    pub player: String,
    /// His Liga as of `as_of`.
    pub liga: Liga,
    /// His rank in it.
    pub rank: u32,
    /// His rank as of the previous night, `null` when not listed then.
    pub previous_rank: Option<u32>,
    /// His Liga as of the previous night, `null` when not listed then.
    pub previous_liga: Option<Liga>,
    /// His rounds up to `as_of`.
    pub rounds: u32,
    /// max(0, kreisliga_below_rounds − rounds).
    pub rounds_to_leave_kreisliga: u32,
    /// max(0, min_rounds_first_liga − rounds on nights up to the deadline).
    pub rounds_to_first_liga: u32,
    /// `null` until the deadline has passed, then whether the rounds by the deadline sufficed.
    pub first_liga_reached: Option<bool>,
    /// The Jahresbeitrag (cents) for a payment dated `as_of`, `null` when paid or no longer allowed;
    /// left out (`Err`) while the club keeps its money private from the visitor.
    #[serde(skip_serializing_if = "Result::is_err", serialize_with = "ok_value")]
    pub fee_cents_now: Result<Option<i64>, Private>,
    /// Counted Outs needed (same rounds) to rank above the player one rank above; `null` for rank 1.
    pub outs_to_pass: Option<i64>,
}

async fn players(
    State(league): State<League>,
    Today(today): Today,
    user: Option<CurrentUser>,
    season: Result<Path<String>, PathRejection>,
    q: Result<Query<StandingsQuery>, QueryRejection>,
) -> Result<Response, ApiError> {
    let (year, as_of) = season_as_of(season, q)?;
    let snapshot = league.snapshot();
    let money = snapshot.money_visible(user.is_some());
    let progress = snapshot.season(year)?.progress_on(as_of, today);
    let answer = PlayersJson {
        season: progress.season,
        as_of: progress.as_of,
        players: progress
            .rows
            .iter()
            .map(|r| PlayerProgressJson {
                player: r.player.clone(),
                liga: r.liga,
                rank: r.rank,
                previous_rank: r.previous_rank,
                previous_liga: r.previous_liga,
                rounds: r.rounds,
                rounds_to_leave_kreisliga: r.rounds_to_leave_kreisliga,
                rounds_to_first_liga: r.rounds_to_first_liga,
                first_liga_reached: r.first_liga_reached,
                fee_cents_now: if money {
                    Ok(r.fee_cents_now)
                } else {
                    Err(Private)
                },
                outs_to_pass: r.outs_to_pass,
            })
            .collect(),
    };
    Ok(crate::web::kit::privacy::private_money(
        &snapshot,
        Json(answer).into_response(),
    ))
}

/// The answer of `GET /api/v1/players/{name}` (interchange.md; league.md §2–§4, §7, §8).
#[derive(Serialize)]
pub struct CareerJson {
    /// The name (spelling of his latest season).
    pub player: String,
    /// Every season he has a round in, by year: his line of its final table.
    pub seasons: Vec<CareerSeasonJson>,
}

/// One season of [`CareerJson`] (rounds, counted Outs, cents).
#[derive(Serialize)]
pub struct CareerSeasonJson {
    /// The year.
    pub season: i32,
    /// His Liga after the last night.
    pub liga: Liga,
    /// His rank in it.
    pub rank: u32,
    /// Rounds played.
    pub rounds: u32,
    /// Counted Outs.
    pub counted_outs: i64,
    /// counted_outs × rounds_per_night / rounds.
    pub d_wert: f64,
    /// Paid rounds.
    pub paid_rounds: u32,
    /// Received at the year-end payout (places and Lucky Looser), cents; left out (`Err`) while the
    /// club keeps its money private from the visitor.
    #[serde(skip_serializing_if = "Result::is_err", serialize_with = "ok_value")]
    pub payout_cents: Result<i64, Private>,
}

/// A player's career; `name` in any case (404 when he has no round in any season).
async fn career(
    State(league): State<League>,
    Today(today): Today,
    user: Option<CurrentUser>,
    name: Result<Path<String>, PathRejection>,
) -> Result<Response, ApiError> {
    let Path(name) = name.map_err(bad_request)?;
    let snapshot = league.snapshot();
    let money = snapshot.money_visible(user.is_some());
    let history = snapshot.history_on(today);
    if history.career(&name).is_none() {
        // A merged-away name answers with the kept one's address (issue 36.2).
        if let Some(m) = league
            .merged_away_named(&name)
            .await
            .map_err(ApiError::from)?
        {
            let to = format!("/api/v1/players/{}", path_segment(&m.kept));
            return Ok(axum::response::Redirect::permanent(&to).into_response());
        }
    }
    let c = history.career(&name).ok_or_else(|| {
        ApiError(
            StatusCode::NOT_FOUND,
            format!("Spieler {name} hat in keiner Saison eine Runde"),
        )
    })?;
    let answer = CareerJson {
        player: c.player.clone(),
        seasons: c
            .seasons
            .iter()
            .map(|s| CareerSeasonJson {
                season: s.season,
                liga: s.liga,
                rank: s.rank,
                rounds: s.rounds,
                counted_outs: s.counted_outs,
                d_wert: s.d_wert,
                paid_rounds: s.paid_rounds,
                payout_cents: if money {
                    Ok(s.payout_cents)
                } else {
                    Err(Private)
                },
            })
            .collect(),
    };
    Ok(crate::web::kit::privacy::private_money(
        &snapshot,
        Json(answer).into_response(),
    ))
}

/// The all-time table: players with at least 100 rounds over all seasons, ranked like a season.
async fn alltime(State(league): State<League>, Today(today): Today) -> Response {
    let snapshot = league.snapshot();
    Json(json!({ "rows": snapshot.history_on(today).all_time })).into_response()
}

/// `s` as one path segment: every byte but the unreserved ones (RFC 3986) percent-encoded.
fn path_segment(s: &str) -> String {
    s.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'~' => {
                (b as char).to_string()
            }
            _ => format!("%{b:02X}"),
        })
        .collect()
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
