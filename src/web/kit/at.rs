//! The path extractors: the path parameters that name a season, a night, a table or a round,
//! resolved in the league's snapshot (an unknown one is a 404 here, in one place).

use std::sync::Arc;

use axum::extract::{FromRequestParts, RawPathParams};
use axum::http::request::Parts;
use chrono::NaiveDate;

use super::{AppError, AppState};
use crate::league::Night;
use crate::service::{SeasonView, Snapshot};

/// A path parameter that is not the number it must be: 400, as the framework's own path
/// extractor answers.
fn unreadable() -> AppError {
    AppError::BadRequest(
        super::germanize::message_for(axum::http::StatusCode::BAD_REQUEST)
            .unwrap_or("Anfrage fehlerhaft")
            .to_string(),
    )
}

/// The value of path parameter `name`.
fn param<'a>(params: &'a RawPathParams, name: &str) -> Option<&'a str> {
    params.iter().find(|(k, _)| *k == name).map(|(_, v)| v)
}

async fn params(parts: &mut Parts, state: &AppState) -> Result<RawPathParams, AppError> {
    RawPathParams::from_request_parts(parts, state)
        .await
        .map_err(|_| AppError::NotFound)
}

/// The path parameters that count something (a table, a round): each names its page only as
/// written canonically (`1`, `2` …: no leading zero, no sign).
const COUNTED: [&str; 3] = ["table", "round", "number"];

/// Whether `value` is a number written otherwise than canonically (`01`, `+1`, `007`): such a
/// path names no page. Text that is no number at all is left to the extractor (400).
fn non_canonical(value: &str) -> bool {
    value.parse::<u64>().is_ok_and(|n| n.to_string() != value)
}

/// Route layer of every group: a table, round or number in the path ([`COUNTED`]) not written
/// canonically (`/tisch/{token}/{date}/01`) is answered 404 before any guard or handler reads
/// it, so one table has one address.
pub async fn canonical_numbers(
    params: Result<RawPathParams, axum::extract::rejection::RawPathParamsRejection>,
    request: axum::extract::Request,
    next: axum::middleware::Next,
) -> axum::response::Response {
    use axum::response::IntoResponse;
    let bad = params.as_ref().is_ok_and(|params| {
        params
            .iter()
            .any(|(k, v)| COUNTED.contains(&k) && non_canonical(v))
    });
    if bad {
        return AppError::NotFound.into_response();
    }
    next.run(request).await
}

/// A date in a path (`YYYY-MM-DD`); anything else names no page (404).
pub fn path_date(s: &str) -> Result<NaiveDate, AppError> {
    NaiveDate::parse_from_str(s, "%Y-%m-%d").map_err(|_| AppError::NotFound)
}

/// The optional as-of date of a table query (`YYYY-MM-DD`; absent or empty: none); anything else
/// is a 400 that names what was sent.
pub fn as_of_date(s: Option<&str>) -> Result<Option<NaiveDate>, AppError> {
    match s.filter(|s| !s.is_empty()) {
        Some(s) => NaiveDate::parse_from_str(s, "%Y-%m-%d")
            .map(Some)
            .map_err(|_| AppError::BadRequest(format!("\"{s}\" ist kein Datum (JJJJ-MM-TT)"))),
        None => Ok(None),
    }
}

/// The season named by path parameter `{year}` in the current snapshot. Unknown: 404; not a
/// number: 400.
pub struct AtSeason {
    /// The snapshot it was found in.
    pub snapshot: Arc<Snapshot>,
    /// The season's view.
    pub view: Arc<SeasonView>,
}

impl AtSeason {
    /// The season's year.
    pub fn year(&self) -> i32 {
        self.view.season.year
    }

    /// The name of the season's player `id` (`players.id`, as a form or path sends it): 404 when
    /// the season has none.
    pub fn player(&self, id: i64) -> Result<String, AppError> {
        player_of(&self.view, id, AppError::NotFound)
    }

    /// The season `year` in `snapshot`: 404 when there is none.
    pub fn find(snapshot: Arc<Snapshot>, year: i32) -> Result<AtSeason, AppError> {
        let view = snapshot.season(year)?.clone();
        Ok(AtSeason { snapshot, view })
    }
}

impl FromRequestParts<AppState> for AtSeason {
    type Rejection = AppError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, AppError> {
        let params = params(parts, state).await?;
        let year: i32 = param(&params, "year")
            .ok_or(AppError::NotFound)?
            .parse()
            .map_err(|_| unreadable())?;
        AtSeason::find(state.league.snapshot(), year)
    }
}

/// The night named by path parameter `{date}` in the current snapshot. Unknown: 404.
pub struct AtNight {
    /// The night's date.
    pub date: NaiveDate,
    /// The snapshot it was found in.
    pub snapshot: Arc<Snapshot>,
    /// Its season's view.
    pub view: Arc<SeasonView>,
}

impl AtNight {
    /// The night.
    pub fn night(&self) -> &Night {
        // Found when extracted; the view does not change.
        self.view
            .night(self.date)
            .unwrap_or_else(|| unreachable_night())
    }

    /// The season's year.
    pub fn year(&self) -> i32 {
        self.view.season.year
    }

    /// The night's storage id.
    pub fn id(&self) -> i64 {
        self.view.ids.nights.get(&self.date).copied().unwrap_or(0)
    }

    /// The name of the season's player `id` sent by a form of the night page: 400 "unbekannter
    /// Spieler" when the season has none.
    pub fn player(&self, id: i64) -> Result<String, AppError> {
        player_of(
            &self.view,
            id,
            AppError::BadRequest("unbekannter Spieler".into()),
        )
    }

    /// The position among the night's fines of fine `id` (`fines.id`, as a path names it): 404
    /// when it is not a fine of this night.
    pub fn fine_index(&self, id: i64) -> Result<usize, AppError> {
        self.view
            .ids
            .fines
            .get(&self.date)
            .and_then(|ids| ids.iter().position(|x| *x == id))
            .ok_or(AppError::NotFound)
    }

    /// The night in `snapshot`: 404 when it has none on `date`; [`AppError::Unreadable`] when
    /// its season is stored but fails its checks (the night may well be there).
    pub fn find(snapshot: Arc<Snapshot>, date: NaiveDate) -> Result<AtNight, AppError> {
        let Some((view, _)) = snapshot.night(date) else {
            return Err(match snapshot.season(chrono::Datelike::year(&date)) {
                Err(e @ crate::service::ServiceError::Corrupt(_)) => e.into(),
                _ => AppError::NotFound,
            });
        };
        let view = view.clone();
        Ok(AtNight {
            date,
            snapshot,
            view,
        })
    }
}

/// An empty night for the impossible case of a view without the night it was found by.
fn unreachable_night() -> &'static Night {
    static EMPTY: std::sync::OnceLock<Night> = std::sync::OnceLock::new();
    EMPTY.get_or_init(|| Night {
        date: NaiveDate::MIN,
        tables: Vec::new(),
        fines: Vec::new(),
        draw: Vec::new(),
        closed: false,
        totals: Vec::new(),
    })
}

impl FromRequestParts<AppState> for AtNight {
    type Rejection = AppError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, AppError> {
        let params = params(parts, state).await?;
        let date = path_date(param(&params, "date").ok_or(AppError::NotFound)?)?;
        AtNight::find(state.league.snapshot(), date)
    }
}

/// A table of a night, `{date}/{table}`: a table with drawn players. Else 404 (400 for a table
/// that is not a number).
pub struct AtTable {
    /// The night.
    pub night: AtNight,
    /// Table 1 or 2.
    pub table: u32,
}

impl AtTable {
    /// The table's players in seat order (its draw).
    pub fn players(&self) -> Vec<String> {
        crate::league::model::draw::table_players(&self.night.night().draw, self.table)
    }
}

impl FromRequestParts<AppState> for AtTable {
    type Rejection = AppError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, AppError> {
        let night = AtNight::from_request_parts(parts, state).await?;
        let params = params(parts, state).await?;
        let table: u32 = param(&params, "table")
            .ok_or(AppError::NotFound)?
            .parse()
            .map_err(|_| unreadable())?;
        if !night.night().draw.iter().any(|s| s.table == table) {
            return Err(AppError::NotFound);
        }
        Ok(AtTable { night, table })
    }
}

/// A round of a table, `{date}/{table}/{round}`: 1..=`rounds_per_night`. Else 404 (400 for a
/// round that is not a number).
pub struct AtRound {
    /// The table.
    pub at: AtTable,
    /// The round number.
    pub round: u32,
}

impl FromRequestParts<AppState> for AtRound {
    type Rejection = AppError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, AppError> {
        let at = AtTable::from_request_parts(parts, state).await?;
        let params = params(parts, state).await?;
        let round: u32 = param(&params, "round")
            .ok_or(AppError::NotFound)?
            .parse()
            .map_err(|_| unreadable())?;
        if !(1..=at.night.view.season.rules.rounds_per_night).contains(&round) {
            return Err(AppError::NotFound);
        }
        Ok(AtRound { at, round })
    }
}

/// A redirect to page `page` of the current season (`/saison/{year}/{page}`), or to the home page
/// when there is no season yet.
pub fn to_current_season(league: &crate::service::League, page: &str) -> axum::response::Redirect {
    match league.snapshot().current_year(league.today()) {
        Some(year) => axum::response::Redirect::to(&format!("/saison/{year}/{page}")),
        None => axum::response::Redirect::to("/"),
    }
}

/// The name of `view`'s player `id`, else `missing`.
fn player_of(view: &SeasonView, id: i64, missing: AppError) -> Result<String, AppError> {
    view.player_name(id).map(str::to_string).ok_or(missing)
}
