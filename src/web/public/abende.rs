//! Public pages, no login: the list of a season's nights and each night's page (its tables,
//! rounds, players and fines; a day not played yet shows its planned night). All read the
//! league's snapshot; anonymous visits are served by the page cache.

use askama::Template;
use askama_web::WebTemplate;
use axum::extract::State;
use axum::response::{IntoResponse, Redirect, Response};
use chrono::NaiveDate;

use crate::league;
use crate::service::League;
use crate::web::kit::at::{AtNight, AtSeason};
use crate::web::kit::{filters, AppError, Guard, Layout, Routes};
use crate::web::public::ich::Me;
use crate::web::public::table::player_href;

/// The routes of this feature.
pub fn routes() -> Routes {
    Routes::new()
        .get(Guard::Public, "/abende", nights_current)
        .get(Guard::Public, "/saison/{year}/abende", nights)
        .get(Guard::Public, "/abend/{date}", night)
}

/// A night in a list of a season's nights (the public list and the season's admin page).
pub struct NightLine {
    /// Its date.
    pub date: NaiveDate,
    /// Participants (the draw).
    pub participants: usize,
    /// Rounds played: the most any of its tables has entered, as every table plays the night's
    /// rounds (0 for a night recorded as totals).
    pub rounds: usize,
    /// The night was recorded as totals per player (its rounds are not known).
    pub recorded_as_totals: bool,
}

impl NightLine {
    /// The nights of `season`, newest first.
    pub fn of_season(season: &crate::league::Season) -> Vec<NightLine> {
        season
            .nights
            .iter()
            .rev()
            .map(|n| NightLine {
                date: n.date,
                participants: n.draw.len().max(n.totals.len()),
                rounds: n.tables.iter().map(|t| t.rounds.len()).max().unwrap_or(0),
                recorded_as_totals: n.recorded_as_totals(),
            })
            .collect()
    }
}

/// The list of nights of a season.
#[derive(Template, WebTemplate)]
#[template(path = "public/nights.html")]
struct NightsPage {
    layout: Layout,
    year: i32,
    years: Vec<i32>,
    nights: Vec<NightLine>,
}

async fn nights_current(State(league): State<League>) -> Redirect {
    crate::web::kit::at::to_current_season(&league, "abende")
}

async fn nights(layout: Layout, at: AtSeason) -> Result<NightsPage, AppError> {
    let nights = NightLine::of_season(&at.view.season);
    Ok(NightsPage {
        layout,
        year: at.year(),
        years: at.snapshot.years(),
        nights,
    })
}

/// One table at the night page: its number, its players as drawn and its rounds.
pub struct TableView<'a> {
    /// Table number.
    pub number: u32,
    /// Its players as drawn (before its first round).
    pub players: Vec<String>,
    /// Who sat down later, with the round he came in (`joined_later`).
    pub joined_later: Vec<(String, u32)>,
    /// Its rounds.
    pub rounds: &'a [league::Round],
}

/// A participant's night totals with the link to his page.
pub struct NightPlayerView<'a> {
    /// The totals.
    pub p: &'a league::NightPlayer,
    /// Link to his page.
    pub href: String,
}

/// The night page.
#[derive(Template, WebTemplate)]
#[template(path = "public/night.html")]
struct NightPage<'a> {
    layout: Layout,
    year: i32,
    date: NaiveDate,
    tables: Vec<TableView<'a>>,
    players: Vec<NightPlayerView<'a>>,
    sozialfaelle: &'a [String],
    /// The night was recorded as totals per player (no rounds to show).
    recorded_as_totals: bool,
    /// The night's fines; none while the club keeps its money private from a visitor.
    fines: &'a [league::Fine],
}

async fn night(
    State(league): State<League>,
    layout: Layout,
    me: Me,
    axum::extract::Path(date): axum::extract::Path<String>,
) -> Result<Response, AppError> {
    let date = crate::web::kit::at::path_date(&date)?;
    let snapshot = league.snapshot();
    let at = match AtNight::find(snapshot.clone(), date) {
        Ok(at) => at,
        Err(e @ AppError::Unreadable(_)) => return Err(e),
        // Not played (yet): the page of the night planned on that day (issue 27), if any.
        Err(_) => {
            let year = chrono::Datelike::year(&date);
            let statuses = crate::web::public::termine::statuses_around(&league, year).await;
            let planned = (date, &statuses);
            return crate::web::public::termine::page(layout, me, &snapshot, planned, None);
        }
    };
    let picture = crate::web::public::bild::night_picture(&snapshot, date);
    let layout = layout.with_picture(picture, &format!("/bild/abend/{date}"));
    let logged_in = layout.user.is_some();
    let view = &at.view;
    let n = at.night();
    let summary = league::night_summary(&view.season, at.date);
    let tables = n
        .table_numbers_with_draw()
        .into_iter()
        .map(|number| {
            let seated = league::model::draw::table_players(&n.draw, number);
            let table = n.tables.iter().find(|t| t.number == number);
            let joined_later = table
                .map(|t| league::model::draw::joined_later(t, &seated))
                .unwrap_or_default();
            TableView {
                number,
                players: seated
                    .into_iter()
                    .filter(|p| !joined_later.iter().any(|(q, _)| q == p))
                    .collect(),
                joined_later,
                rounds: table.map_or(&[][..], |t| &t.rounds[..]),
            }
        })
        .collect();
    let players = summary
        .as_ref()
        .map(|s| {
            s.players
                .iter()
                .map(|p| NightPlayerView {
                    href: player_href(view, &p.player),
                    p,
                })
                .collect()
        })
        .unwrap_or_default();
    let page = NightPage {
        layout,
        year: at.year(),
        date: at.date,
        tables,
        players,
        sozialfaelle: summary.as_ref().map_or(&[][..], |s| &s.sozialfaelle[..]),
        recorded_as_totals: n.recorded_as_totals(),
        fines: if at.snapshot.money_visible(logged_in) {
            &n.fines
        } else {
            &[]
        },
    }
    .into_response();
    Ok(crate::web::kit::privacy::private_money(&at.snapshot, page))
}
