//! The Schockbesteck's page of a night: per table the rounds entered and the Runden running, with
//! a link to play the next.

use askama::Template;
use askama_web::WebTemplate;
use axum::extract::State;

use crate::league::model::draw;
use crate::league::model::format::date_de;
use crate::service::League;
use crate::web::kit::AtNight;
use crate::web::kit::{AppError, Layout};

/// One round link of the night overview.
pub struct RoundLink {
    /// Round number.
    pub number: u32,
    /// "eingetragen", "läuft" or "".
    pub status: &'static str,
}

/// One table of the night overview.
pub struct TableView {
    /// Table number.
    pub number: u32,
    /// Its players in seat order.
    pub players: Vec<String>,
    /// Rounds 1..=rounds_per_night with their state.
    pub rounds: Vec<RoundLink>,
}

/// The Schockbesteck overview of a night: its tables and rounds.
#[derive(Template, WebTemplate)]
#[template(path = "entry/besteck/abend.html")]
pub struct NightPage {
    layout: Layout,
    date: String,
    iso_date: String,
    tables: Vec<TableView>,
}

pub async fn get(
    State(league): State<League>,
    layout: Layout,
    at: AtNight,
) -> Result<NightPage, AppError> {
    let date = at.date;
    let rules = &at.view.season.rules;
    let night = at.night();
    let mut tables = Vec::new();
    for number in 1..=2u32 {
        let players = draw::table_players(&night.draw, number);
        if players.is_empty() {
            continue;
        }
        let entered: Vec<u32> = night
            .tables
            .iter()
            .find(|t| t.number == number)
            .map(|t| t.rounds.iter().map(|r| r.number).collect())
            .unwrap_or_default();
        let running = league.runden_running(at.id(), number).await?;
        tables.push(TableView {
            number,
            players,
            rounds: (1..=rules.rounds_per_night)
                .map(|n| RoundLink {
                    number: n,
                    status: if running.contains(&n) {
                        "läuft"
                    } else if entered.contains(&n) {
                        "eingetragen"
                    } else {
                        ""
                    },
                })
                .collect(),
        });
    }
    Ok(NightPage {
        layout,
        date: date_de(date),
        iso_date: date.to_string(),
        tables,
    })
}
