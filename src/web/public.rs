//! Public pages, no login (issue item 4): the season's table as three tables (1. Liga, 2. Liga,
//! Kreisliga), a player's season night by night, the list of nights and each night's page.

use std::sync::Arc;

use askama::Template;
use askama_web::WebTemplate;
use axum::body::Bytes;
use axum::extract::{Path, Query, State};
use axum::http::header;
use axum::response::{IntoResponse, Redirect, Response};
use axum::routing::get;
use axum::Router;
use chrono::NaiveDate;
use serde::Deserialize;

use super::{de2, de_date, AppError, AppState};
use crate::auth::CurrentUser;
use crate::cache::SeasonView;
use crate::db;
use crate::league::{self, format_dwert, Liga, Season};

/// The routes of this feature.
pub fn router() -> Router<AppState> {
    Router::new()
        .route("/", get(home))
        .route("/saison/{year}", get(table))
        .route("/saison/{year}/spieler/{id}", get(player))
        .route("/abende", get(nights_current))
        .route("/saison/{year}/abende", get(nights))
        .route("/abend/{date}", get(night))
}

/// One line of the public table, formatted for display.
pub struct TableLine {
    /// Rank in the Liga.
    pub rank: u32,
    /// Player name (escaped by askama).
    pub player: String,
    /// Link to the player page.
    pub href: String,
    /// Teilnahmen, two decimals German.
    pub teilnahmen: String,
    /// Gewertete Outs.
    pub counted_outs: i64,
    /// D.Wert, two decimals German.
    pub d_wert: String,
    /// Rounds played.
    pub rounds: u32,
    /// Paid rounds.
    pub paid_rounds: u32,
    /// Open Julen.
    pub open_julen: u32,
}

/// One Liga's table.
pub struct LigaTable {
    /// "1. Liga", "2. Liga" or "Kreisliga".
    pub label: &'static str,
    /// Its lines by rank, then name.
    pub lines: Vec<TableLine>,
}

/// The table page.
#[derive(Template, WebTemplate)]
#[template(path = "table.html")]
struct TablePage {
    user: Option<CurrentUser>,
    year: i32,
    years: Vec<i32>,
    as_of: Option<String>,
    ligen: Vec<LigaTable>,
}

/// The page when no season exists yet.
#[derive(Template, WebTemplate)]
#[template(path = "empty.html")]
struct EmptyPage {
    user: Option<CurrentUser>,
}

/// The table's query: an optional as-of date.
#[derive(Deserialize)]
pub struct AsOfQuery {
    /// `YYYY-MM-DD`; absent = the last night.
    pub as_of: Option<String>,
}

async fn home(
    State(state): State<AppState>,
    user: Option<CurrentUser>,
) -> Result<Response, AppError> {
    // The current season: the newest with a night (an empty newer one does not blank the phones),
    // found through the season cache, so a visit costs no query while nothing has changed.
    let versions = season_versions(&state).await?;
    let mut current = versions.first().map(|&(year, _)| year);
    for &(year, version) in versions.iter() {
        if !state
            .seasons
            .get_at(&state.read, year, version)
            .await?
            .season
            .nights
            .is_empty()
        {
            current = Some(year);
            break;
        }
    }
    match current {
        Some(year) => table_response(&state, user, year, None, versions).await,
        None => Ok(EmptyPage { user }.into_response()),
    }
}

async fn table(
    State(state): State<AppState>,
    user: Option<CurrentUser>,
    Path(year): Path<i32>,
    Query(q): Query<AsOfQuery>,
) -> Result<Response, AppError> {
    let as_of = super::as_of_date(q.as_of.as_deref())?;
    let versions = season_versions(&state).await?;
    table_response(&state, user, year, as_of, versions).await
}

/// An HTML response of already rendered bytes.
fn html(body: Bytes) -> Response {
    ([(header::CONTENT_TYPE, "text/html; charset=utf-8")], body).into_response()
}

/// Renders `page`, keeps it in `view` under `key`, and answers it.
fn keep_rendered(
    view: &SeasonView,
    key: String,
    page: impl Template,
) -> Result<Response, AppError> {
    let body = Bytes::from(
        page.render()
            .map_err(|e| AppError::Internal(format!("Vorlage: {e}")))?,
    );
    view.put_page(key, body.clone());
    Ok(html(body))
}

/// The table page: for visitors without login and without `as_of` (every phone after a night) the
/// page is rendered once per change of the season and kept in the season's cached view.
async fn table_response(
    state: &AppState,
    user: Option<CurrentUser>,
    year: i32,
    as_of: Option<NaiveDate>,
    versions: Arc<Vec<(i32, i64)>>,
) -> Result<Response, AppError> {
    if user.is_some() || as_of.is_some() {
        return Ok(render_table(state, user, year, as_of, versions)
            .await?
            .into_response());
    }
    let version = versions
        .iter()
        .find(|(y, _)| *y == year)
        .map(|(_, v)| *v)
        .ok_or(AppError::NotFound)?;
    let view = state.seasons.get_at(&state.read, year, version).await?;
    // The page lists the seasons: they are part of the key.
    let mut key = String::from("table");
    for (y, _) in versions.iter() {
        key.push_str(&format!(":{y}"));
    }
    if let Some(body) = view.page(&key) {
        return Ok(html(body));
    }
    let page = render_table(state, None, year, None, versions).await?;
    keep_rendered(&view, key, page)
}

/// Every season with its change counter, newest first (one query: the year list and the
/// counter the season cache is checked against).
async fn season_versions(state: &AppState) -> Result<Arc<Vec<(i32, i64)>>, AppError> {
    Ok(state.seasons.versions(&state.read).await?)
}

async fn render_table(
    state: &AppState,
    user: Option<CurrentUser>,
    year: i32,
    as_of: Option<NaiveDate>,
    versions: Arc<Vec<(i32, i64)>>,
) -> Result<TablePage, AppError> {
    let version = versions
        .iter()
        .find(|(y, _)| *y == year)
        .map(|(_, v)| *v)
        .ok_or(AppError::NotFound)?;
    let view = state.seasons.get_at(&state.read, year, version).await?;
    let standings = view.standings_as_of(as_of);
    let ids = &view.player_ids;
    let ligen = [Liga::First, Liga::Second, Liga::Kreisliga]
        .into_iter()
        .map(|liga| LigaTable {
            label: liga.label(),
            lines: standings
                .rows
                .iter()
                .filter(|r| r.liga == liga)
                .map(|r| TableLine {
                    rank: r.rank,
                    player: r.player.clone(),
                    href: ids
                        .get(&r.player)
                        .map(|id| format!("/saison/{year}/spieler/{id}"))
                        .unwrap_or_default(),
                    teilnahmen: de2(r.teilnahmen),
                    counted_outs: r.counted_outs,
                    d_wert: format_dwert(r.d_wert_num, r.d_wert_den),
                    rounds: r.rounds,
                    paid_rounds: r.paid_rounds,
                    open_julen: r.open_julen,
                })
                .collect(),
        })
        .collect();
    Ok(TablePage {
        user,
        year,
        years: versions.iter().map(|(y, _)| *y).collect(),
        as_of: standings.as_of.map(de_date),
        ligen,
    })
}

/// One round of a player, formatted.
pub struct RoundRow {
    /// Round number.
    pub round: u32,
    /// Outs, Hand-Outs, Julen.
    pub outs: u32,
    /// Hand-Outs.
    pub hand_outs: u32,
    /// Julen.
    pub julen: u32,
    /// "J" in his Joker-Runde.
    pub joker: bool,
    /// Lost the round.
    pub lost: bool,
    /// Paid it.
    pub paid: bool,
}

/// One night of a player, formatted.
pub struct PlayerNightView {
    /// Date, German.
    pub date: String,
    /// Link to the night.
    pub href: String,
    /// Table number.
    pub table: u32,
    /// His rounds.
    pub rounds: Vec<RoundRow>,
    /// Counted Outs of the night.
    pub counted_outs: i64,
    /// Julen-Outs of the night.
    pub julen_outs: u32,
    /// Open Julen after it.
    pub open_julen: u32,
    /// Lost rounds.
    pub lost_rounds: u32,
    /// Paid rounds.
    pub paid_rounds: u32,
    /// Became Sozialfall.
    pub sozialfall: bool,
    /// D.Wert after the night.
    pub d_wert: String,
    /// Liga and rank after it.
    pub liga: &'static str,
    /// Rank after it.
    pub rank: u32,
}

/// The player page.
#[derive(Template, WebTemplate)]
#[template(path = "player.html")]
struct PlayerPage {
    user: Option<CurrentUser>,
    year: i32,
    name: String,
    fee: String,
    open_julen: u32,
    nights: Vec<PlayerNightView>,
}

/// The player page: for visitors without login rendered once per change of the season and kept in
/// the season's cached view.
async fn player(
    State(state): State<AppState>,
    user: Option<CurrentUser>,
    Path((year, id)): Path<(i32, i64)>,
) -> Result<Response, AppError> {
    if user.is_some() {
        return Ok(player_page(&state, user, year, id).await?.into_response());
    }
    let view = state.seasons.get(&state.read, year).await?;
    let key = format!("player:{id}");
    if let Some(body) = view.page(&key) {
        return Ok(html(body));
    }
    let page = player_page(&state, None, year, id).await?;
    keep_rendered(&view, key, page)
}

async fn player_page(
    state: &AppState,
    user: Option<CurrentUser>,
    year: i32,
    id: i64,
) -> Result<PlayerPage, AppError> {
    let view = state.seasons.get(&state.read, year).await?;
    let season = &view.season;
    let name = view.player_name(id).ok_or(AppError::NotFound)?.to_string();
    let p = season.player(&name).ok_or(AppError::NotFound)?;
    let fee = match p.fee_paid_on {
        Some(d) => format!(
            "bezahlt am {} ({})",
            de_date(d),
            league::format_cents(p.fee_cents)
        ),
        None => "nicht bezahlt".to_string(),
    };
    let history = view.player_history(&name).ok_or(AppError::NotFound)?;
    let nights = history
        .nights
        .iter()
        .rev()
        .map(|n| PlayerNightView {
            date: de_date(n.date),
            href: format!("/abend/{}", n.date),
            table: n.table,
            rounds: n
                .rounds
                .iter()
                .map(|r| RoundRow {
                    round: r.round,
                    outs: r.outs,
                    hand_outs: r.hand_outs,
                    julen: r.julen,
                    joker: r.joker,
                    lost: r.lost,
                    paid: r.paid,
                })
                .collect(),
            counted_outs: n.counted_outs,
            julen_outs: n.julen_outs,
            open_julen: n.open_julen,
            lost_rounds: n.lost_rounds,
            paid_rounds: n.paid_rounds,
            sozialfall: n.sozialfall,
            d_wert: format_dwert(n.d_wert.num, n.d_wert.den),
            liga: n.liga.label(),
            rank: n.rank,
        })
        .collect();
    Ok(PlayerPage {
        user,
        year,
        name,
        fee,
        open_julen: history.open_julen,
        nights,
    })
}

/// A night in the list.
pub struct NightLine {
    /// Date, German.
    pub date: String,
    /// Link.
    pub href: String,
    /// Participants.
    pub participants: i64,
    /// Rounds entered.
    pub rounds: i64,
}

/// The list of nights of a season.
#[derive(Template, WebTemplate)]
#[template(path = "nights.html")]
struct NightsPage {
    user: Option<CurrentUser>,
    year: i32,
    years: Vec<i32>,
    nights: Vec<NightLine>,
}

async fn nights_current(State(state): State<AppState>) -> Result<Redirect, AppError> {
    super::to_current_season(&state, "abende").await
}

async fn nights(
    State(state): State<AppState>,
    user: Option<CurrentUser>,
    Path(year): Path<i32>,
) -> Result<NightsPage, AppError> {
    let mut conn = state.read.acquire().await?;
    db::season::get(&mut conn, year)
        .await?
        .ok_or(AppError::NotFound)?;
    drop(conn);
    let nights = db::night::list(&state.read, year)
        .await?
        .into_iter()
        .map(|n| NightLine {
            date: de_date(n.date),
            href: format!("/abend/{}", n.date),
            participants: n.participants,
            rounds: n.rounds,
        })
        .collect();
    Ok(NightsPage {
        user,
        year,
        years: db::season::years(&state.read).await?,
        nights,
    })
}

/// One player's row of a round at the night page.
pub struct CellView {
    /// Player name.
    pub player: String,
    /// Outs.
    pub outs: u32,
    /// Hand-Outs.
    pub hand_outs: u32,
    /// Julen.
    pub julen: u32,
    /// Joker-Runde.
    pub joker: bool,
    /// Lost it.
    pub lost: bool,
}

/// One round at the night page.
pub struct RoundView {
    /// Round number.
    pub number: u32,
    /// Its rows.
    pub cells: Vec<CellView>,
}

/// One table at the night page.
pub struct TableView {
    /// Table number.
    pub number: u32,
    /// Its players as drawn.
    pub players: Vec<String>,
    /// Its rounds.
    pub rounds: Vec<RoundView>,
}

/// A participant's night totals.
pub struct NightPlayerView {
    /// Name.
    pub player: String,
    /// Link to his page.
    pub href: String,
    /// Table.
    pub table: u32,
    /// Rounds played.
    pub rounds: u32,
    /// Outs thrown.
    pub outs: u32,
    /// Counted Outs of the night.
    pub counted_outs: i64,
    /// Paid rounds.
    pub paid_rounds: u32,
    /// Lost rounds.
    pub lost_rounds: u32,
    /// Sozialfall.
    pub sozialfall: bool,
}

/// A fine at the night page.
pub struct FineView {
    /// Name.
    pub player: String,
    /// Kind, German label ("Zuspätkommer").
    pub kind: String,
    /// Amount, German euros.
    pub amount: String,
    /// Paid or open.
    pub paid: bool,
}

/// The night page.
#[derive(Template, WebTemplate)]
#[template(path = "night.html")]
struct NightPage {
    user: Option<CurrentUser>,
    year: i32,
    date: String,
    iso_date: String,
    tables: Vec<TableView>,
    players: Vec<NightPlayerView>,
    sozialfaelle: Vec<String>,
    fines: Vec<FineView>,
}

/// The tables of a night as drawn and entered: drawn players from the database, rounds from the
/// checked season.
fn table_views(
    season: &Season,
    date: NaiveDate,
    drawn: &[db::night::Participant],
) -> Vec<TableView> {
    let mut numbers: Vec<u32> = drawn.iter().map(|p| p.table_no as u32).collect();
    if let Some(n) = season.night(date) {
        numbers.extend(n.tables.iter().map(|t| t.number));
    }
    numbers.sort_unstable();
    numbers.dedup();
    numbers
        .into_iter()
        .map(|number| TableView {
            number,
            players: drawn
                .iter()
                .filter(|p| p.table_no as u32 == number)
                .map(|p| p.name.clone())
                .collect(),
            rounds: season
                .night(date)
                .and_then(|n| n.tables.iter().find(|t| t.number == number))
                .map(|t| {
                    t.rounds
                        .iter()
                        .map(|r| RoundView {
                            number: r.number,
                            cells: r
                                .results
                                .iter()
                                .map(|x| CellView {
                                    player: x.player.clone(),
                                    outs: x.outs,
                                    hand_outs: x.hand_outs,
                                    julen: x.julen,
                                    joker: x.joker,
                                    lost: x.lost,
                                })
                                .collect(),
                        })
                        .collect()
                })
                .unwrap_or_default(),
        })
        .collect()
}

async fn night(
    State(state): State<AppState>,
    user: Option<CurrentUser>,
    Path(date): Path<String>,
) -> Result<NightPage, AppError> {
    let date = super::path_date(&date)?;
    let mut conn = state.read.acquire().await?;
    let stored = super::night_on(&mut conn, date).await?;
    let drawn = db::night::participants(&mut conn, stored.id).await?;
    drop(conn);
    let year = stored.season as i32;
    let view = state.seasons.get(&state.read, year).await?;
    let season = &view.season;
    let ids = &view.player_ids;
    let summary = league::night_summary(season, date);
    let (players, sozialfaelle, fines) = match summary {
        Some(s) => (
            s.players
                .iter()
                .map(|p| NightPlayerView {
                    player: p.player.clone(),
                    href: ids
                        .get(&p.player)
                        .map(|id| format!("/saison/{year}/spieler/{id}"))
                        .unwrap_or_default(),
                    table: p.table,
                    rounds: p.rounds,
                    outs: p.outs,
                    counted_outs: p.counted_outs,
                    paid_rounds: p.paid_rounds,
                    lost_rounds: p.lost_rounds,
                    sozialfall: p.sozialfall,
                })
                .collect(),
            s.sozialfaelle.clone(),
            s.fines
                .iter()
                .map(|f| FineView {
                    player: f.player.clone(),
                    kind: crate::league::kasse::fine_label(&f.kind).to_string(),
                    amount: league::format_cents(f.amount_cents),
                    paid: f.paid,
                })
                .collect(),
        ),
        None => (Vec::new(), Vec::new(), Vec::new()),
    };
    Ok(NightPage {
        user,
        year,
        date: de_date(date),
        iso_date: date.to_string(),
        tables: table_views(season, date, &drawn),
        players,
        sozialfaelle,
        fines,
    })
}
