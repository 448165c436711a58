//! „Was bringt der letzte Abend?“ (issue 39.1, league.md §11): `/saison/{year}/szenario`, for
//! every 1. Liga player and paid place the counted Outs of the last night that reach it and keep
//! it, with the euros of that place from today's pot; the Lucky Looser race in paid rounds. The
//! figures are `league::table::scenario`'s; [`answer`] is what the page and
//! `GET /api/v1/seasons/{season}/scenario` both read.

use askama::Template;
use askama_web::WebTemplate;
use axum::response::{IntoResponse, Response};
use chrono::NaiveDate;

use crate::league;
use crate::league::table::scenario::Scenario;
use crate::service::{ServiceError, Snapshot};
use crate::web::kit::{filters, AppError, AtSeason, Guard, Layout, Routes};

/// The routes of this feature.
pub fn routes() -> Routes {
    Routes::new().get(Guard::Public, "/saison/{year}/szenario", page)
}

/// The scenario of a season on the club's today, with the money it is about.
#[derive(Debug, Clone)]
pub struct Answer {
    /// The season is over (`league::table::progress::is_over`): no night left, no chances.
    pub over: bool,
    /// Today's pot (league.md §8), cents: fees − Lucky Looser + paid fines + carry-in.
    pub pot_cents: i64,
    /// The Lucky Looser amount as of today, cents.
    pub lucky_cents: i64,
    /// The chances (empty when `over`).
    pub scenario: Scenario,
}

/// The scenario of season `year` as the club's `today` sees it: the table as of the last night
/// with results on or before today, the places' cents from today's pot. Errors: no such season,
/// or an earlier season broken (its carry-in unknown).
pub fn answer(snapshot: &Snapshot, year: i32, today: NaiveDate) -> Result<Answer, ServiceError> {
    let view = snapshot.season(year)?;
    let season = &view.season;
    let payouts = snapshot.chained_on(year, today)?.payouts.clone();
    // What the Lucky Looser gets once a round is lost (league.md §8): min(amount, fees).
    let lucky_cents = season
        .rules
        .lucky_looser_cents
        .min(payouts.fees_cents)
        .max(0);
    let cents =
        league::money::payouts::place_cents(payouts.pot_cents, &season.rules.payout_percent);
    let over = league::table::progress::is_over(season, today);
    let mut scenario =
        league::table::scenario::scenario(season, season.capped_as_of(None, today), &cents);
    if over {
        scenario.players.clear();
        scenario.lucky_looser.clear();
    }
    Ok(Answer {
        over,
        pot_cents: payouts.pot_cents,
        lucky_cents,
        scenario,
    })
}

/// One place of a player as the page shows it.
struct PlaceCell {
    place: u32,
    /// „mit 12 Outs“, „schon erreicht“ or „nicht mehr erreichbar“.
    reach: String,
    /// „ab 15 Outs sicher“, or „nicht sicher zu halten“.
    safe: String,
    euros: String,
    reachable: bool,
}

/// One player's card.
struct PlayerCard {
    name: String,
    href: String,
    place_now: u32,
    best_night: i64,
    places: Vec<PlaceCell>,
}

/// The page.
#[derive(Template, WebTemplate)]
#[template(path = "public/szenario.html")]
struct ScenarioPage {
    layout: Layout,
    year: i32,
    over: bool,
    as_of: Option<NaiveDate>,
    /// The money may be shown (not private, or logged in).
    money: bool,
    pot: String,
    lucky: String,
    max_outs: i64,
    cards: Vec<PlayerCard>,
    /// (name, paid rounds, reach, safe) of the Lucky Looser race.
    lucky_race: Vec<(String, u32, String, String)>,
}

/// German for the fewest Outs `x` (none: unreachable).
fn outs_text(x: Option<i64>, none: &str, zero: &str, some: &str) -> String {
    match x {
        None => none.to_string(),
        Some(0) => zero.to_string(),
        Some(1) => some.replace("{}", "1").replace("Outs", "Out"),
        Some(n) => some.replace("{}", &n.to_string()),
    }
}

async fn page(layout: Layout, at: AtSeason) -> Result<Response, AppError> {
    let a = answer(&at.snapshot, at.year(), layout.today)?;
    let money = at.snapshot.money_visible(layout.user.is_some());
    let cards = a
        .scenario
        .players
        .iter()
        .map(|p| PlayerCard {
            href: crate::web::public::table::player_href(&at.view, &p.player),
            name: p.player.clone(),
            place_now: p.place_now,
            best_night: p.best_night,
            // A place kept without an Out keeps every place behind it: listed up to that one.
            places: p
                .places
                .iter()
                .take(
                    p.places
                        .iter()
                        .position(|c| c.safe == Some(0))
                        .map_or(p.places.len(), |i| i + 1),
                )
                .map(|c| PlaceCell {
                    place: c.place,
                    reach: outs_text(
                        c.reach,
                        "nicht mehr erreichbar",
                        "schon erreicht",
                        "mit {} Outs",
                    ),
                    safe: outs_text(
                        c.safe,
                        "nicht sicher zu halten",
                        "sicher, auch ohne Out (und jeder Platz dahinter)",
                        "sicher ab {} Outs",
                    ),
                    euros: league::format_cents(c.cents),
                    reachable: c.reach.is_some(),
                })
                .collect(),
        })
        .collect();
    let rounds = |k: u32| match k {
        0 => "schon vorn".to_string(),
        1 => "1 bezahlte Runde".to_string(),
        k => format!("{k} bezahlte Runden"),
    };
    let lucky_race = a
        .scenario
        .lucky_looser
        .iter()
        .map(|l| {
            let safe = l.safe.map_or("nicht sicher".to_string(), |k| match k {
                0 => "sicher".to_string(),
                k => format!("sicher ab {}", rounds(k)),
            });
            (l.player.clone(), l.paid_rounds, rounds(l.reach), safe)
        })
        .collect();
    let page = ScenarioPage {
        year: at.year(),
        over: a.over,
        as_of: a.scenario.as_of,
        money,
        pot: league::format_cents(a.pot_cents),
        lucky: league::format_cents(a.lucky_cents),
        max_outs: a.scenario.max_outs,
        cards,
        lucky_race,
        layout,
    };
    Ok(crate::web::kit::privacy::private_money(
        &at.snapshot,
        page.into_response(),
    ))
}
