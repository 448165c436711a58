//! `GET /api/v1/seasons/{season}/scenario` (issue 39.1, league.md §11): what the last night can
//! still bring, as the page `/saison/{year}/szenario` shows it (`web::public::szenario::answer`).
//! Money (`pot_cents`, `cents`) is left out while the club keeps it private from the visitor.

use axum::extract::rejection::PathRejection;
use axum::extract::{Path, State};
use axum::response::{IntoResponse, Response};
use axum::Json;
use chrono::NaiveDate;
use serde::Serialize;

use super::seasons::{bad_request, ok_value, season_year, Private};
use crate::service::League;
use crate::web::kit::session::CurrentUser;
use crate::web::kit::{ApiError, Today};

/// The answer: the table's date, today's pot, every 1. Liga player's places, the Lucky Looser race.
#[derive(Serialize)]
pub struct ScenarioJson {
    /// The season's year.
    pub season: i32,
    /// The date of the table the scenario starts from (`null` without results).
    pub as_of: Option<NaiveDate>,
    /// The season is over: no night left (`players` and the race are empty).
    pub over: bool,
    /// Today's pot, cents (league.md §8); left out while money is private.
    #[serde(skip_serializing_if = "Result::is_err", serialize_with = "ok_value")]
    pub pot_cents: Result<i64, Private>,
    /// The most counted Outs of one night.
    pub max_outs: i64,
    /// The 1. Liga players by place now.
    pub players: Vec<PlayerJson>,
    /// The Lucky Looser race.
    pub lucky_looser: LuckyJson,
}

/// One 1. Liga player.
#[derive(Serialize)]
pub struct PlayerJson {
    /// The name.
    pub player: String,
    /// His place now (shared places as league.md §3).
    pub place_now: u32,
    /// The counted Outs of his best night.
    pub best_night: i64,
    /// Paid places 1..n.
    pub places: Vec<PlaceJson>,
}

/// One paid place of a player.
#[derive(Serialize)]
pub struct PlaceJson {
    /// The place.
    pub place: u32,
    /// Fewest counted Outs reaching it if nobody else plays; `null`: nicht mehr erreichbar.
    pub reach: Option<i64>,
    /// Fewest keeping it if every rival plays his best night; `null`: no number does.
    pub safe: Option<i64>,
    /// The place's cents from today's pot (one holder); left out while money is private.
    #[serde(skip_serializing_if = "Result::is_err", serialize_with = "ok_value")]
    pub cents: Result<i64, Private>,
}

/// The Lucky Looser race.
#[derive(Serialize)]
pub struct LuckyJson {
    /// The Lucky Looser amount as of today, cents; left out while money is private.
    #[serde(skip_serializing_if = "Result::is_err", serialize_with = "ok_value")]
    pub cents: Result<i64, Private>,
    /// Every player who can still have the most paid rounds.
    pub players: Vec<crate::league::table::scenario::LuckyChance>,
}

/// The handler.
pub async fn scenario(
    State(league): State<League>,
    Today(today): Today,
    user: Option<CurrentUser>,
    season: Result<Path<String>, PathRejection>,
) -> Result<Response, ApiError> {
    let Path(season) = season.map_err(bad_request)?;
    let year = season_year(&season)?;
    let snapshot = league.snapshot();
    let money = snapshot.money_visible(user.is_some());
    let a = crate::web::public::szenario::answer(&snapshot, year, today)?;
    let m = |c: i64| if money { Ok(c) } else { Err(Private) };
    let answer = ScenarioJson {
        season: year,
        as_of: a.scenario.as_of,
        over: a.over,
        pot_cents: m(a.pot_cents),
        max_outs: a.scenario.max_outs,
        players: a
            .scenario
            .players
            .into_iter()
            .map(|p| PlayerJson {
                player: p.player,
                place_now: p.place_now,
                best_night: p.best_night,
                places: p
                    .places
                    .into_iter()
                    .map(|c| PlaceJson {
                        place: c.place,
                        reach: c.reach,
                        safe: c.safe,
                        cents: m(c.cents),
                    })
                    .collect(),
            })
            .collect(),
        lucky_looser: LuckyJson {
            cents: m(a.lucky_cents),
            players: a.scenario.lucky_looser,
        },
    };
    Ok(crate::web::kit::privacy::private_money(
        &snapshot,
        Json(answer).into_response(),
    ))
}
