//! The live board of a game night (issue 11.3): `/live/{date}` for phones and the TV at the bar,
//! and the same data as JSON at `GET /api/v1/nights/{date}/live`. Per table of the night's draw it
//! shows the Runde the Schockbesteck is playing there (the highest round number in progress):
//! Hälfte or Finale, Deckel per player, the stock, the last Wurfrunde and who is out.
//!
//! The Runden in progress are stored outside the league's snapshot (`service::besteck`), so a
//! Wurfrunde does not replace the snapshot: both answers say `Cache-Control: no-store` and the page
//! cache never keeps them. The page reloads itself every [`REFRESH_SECONDS`] by a meta refresh (no
//! script: the CSP stays).

use askama::Template;
use askama_web::WebTemplate;
use axum::extract::{Path, State};
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use chrono::NaiveDate;
use serde::Serialize;

use crate::league::change::{round_loser, round_outs_short};
use crate::league::model::format::date_de;
use crate::league::table::moments::{moments_with, Moment, Running};
use crate::league::{model::draw, Night};
use crate::rules::RundeState;
use crate::service::besteck::RundeAt;
use crate::service::{League, ServiceError};
use crate::web::entry::besteck::{history, seats};
use crate::web::kit::AtNight;
use crate::web::kit::{ApiError, AppError, Guard, Layout, Routes};

/// Seconds between two automatic reloads of the live page.
pub const REFRESH_SECONDS: u32 = 5;

/// The routes of this feature.
pub fn routes() -> Routes {
    Routes::new()
        .get(Guard::Public, "/live", tonight)
        .get(Guard::Public, "/live/{date}", page)
        .get(
            Guard::Public,
            "/live/{date}/ereignisse",
            super::live_push::events,
        )
        .get(Guard::Public, "/api/v1/nights/{date}/live", api)
}

/// One player of a running Runde.
#[derive(Debug, Clone, Serialize)]
pub struct LiveSeat {
    /// The player's name.
    pub player: String,
    /// Deckel he holds in the current part (Hälfte or Finale).
    pub deckel: u8,
    /// He is out of the current part (no more throws in it).
    pub out: bool,
    /// German status: "Vorleger", "ausgeschieden", "spielt das Finale nicht", "verliert die Runde"
    /// or "".
    pub status: String,
}

/// One throw of the last Wurfrunde, highest first.
#[derive(Debug, Clone, Serialize)]
pub struct LiveThrow {
    /// The player's name.
    pub player: String,
    /// German label of the result, e.g. "Schock 5".
    pub label: String,
    /// Final dice, e.g. "4-2-1".
    pub dice: String,
    /// Würfe used, 1..=3.
    pub wuerfe: u8,
}

/// The last applied Wurfrunde of a Runde.
#[derive(Debug, Clone, Serialize)]
pub struct LiveWurfrunde {
    /// 1-based number within the Runde.
    pub number: usize,
    /// "Hälfte 1", "Hälfte 2" or "Finale", with "(Auswürfeln)".
    pub part: String,
    /// The throws, highest first.
    pub ranking: Vec<LiveThrow>,
    /// Who took how many Deckel from where (German sentence).
    pub deckel: String,
    /// Players who dropped out with it.
    pub newly_out: Vec<String>,
    /// "Bernd hat Hälfte 1 verloren." when it ended a part.
    pub part_end: Option<String>,
}

/// The Runde running at a table.
#[derive(Debug, Clone, Serialize)]
pub struct LiveRunde {
    /// The round number at the table.
    pub round: u32,
    /// "Hälfte 1", "Hälfte 2", "Finale" (with " – Auswürfeln") or "beendet".
    pub part: String,
    /// Wurfrunden applied so far.
    pub wurfrunden: usize,
    /// Deckel left in the stock.
    pub stock: u8,
    /// The Runde's players in seat order.
    pub seats: Vec<LiveSeat>,
    /// The losers of Hälfte 1 and 2 so far.
    pub half_losers: Vec<String>,
    /// The loser of the Runde, once it is finished (not yet saved as a round).
    pub loser: Option<String>,
    /// The last Wurfrunde, if any.
    pub last: Option<LiveWurfrunde>,
}

/// One table of the night.
#[derive(Debug, Clone, Serialize)]
pub struct LiveTable {
    /// Table 1 or 2.
    pub table: u32,
    /// The players drawn to it, seat order.
    pub players: Vec<String>,
    /// Rounds entered at it.
    pub rounds_entered: usize,
    /// The Runde the Schockbesteck plays there, if any.
    pub runde: Option<LiveRunde>,
    /// The highest-numbered round entered at it (what the board shows between Runden).
    pub last_round: Option<LastRound>,
    /// The night's running tally at this table: one row per player of the draw, seat order.
    pub tally: Vec<TallyRow>,
}

/// One player's sums over the rounds entered at his table so far.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct TallyRow {
    /// The player's name.
    pub player: String,
    /// Outs so far (as entered, Hand-Outs and Julen included as the rows say).
    pub outs: u32,
    /// Hand-Outs so far.
    pub hand_outs: u32,
    /// Julen so far.
    pub julen: u32,
    /// Rounds he lost at this table.
    pub lost: u32,
    /// Rounds he paid: those lost, at most the season's `sozialfall_after` (league.md §7).
    pub paid: u32,
}

/// The tally of `players` (seat order) over `rounds`; a player of a round who is not in
/// `players` (seated late at another table) is added at the end. A player pays at most
/// `sozialfall_after` of the rounds he lost (league.md §7, the Sozialfall).
pub fn tally(
    players: &[String],
    rounds: &[crate::league::Round],
    sozialfall_after: u32,
) -> Vec<TallyRow> {
    let mut rows: Vec<TallyRow> = players
        .iter()
        .map(|p| TallyRow {
            player: p.clone(),
            ..TallyRow::default()
        })
        .collect();
    for r in rounds.iter().flat_map(|round| &round.results) {
        let i = match rows.iter().position(|t| t.player == r.player) {
            Some(i) => i,
            None => {
                rows.push(TallyRow {
                    player: r.player.clone(),
                    ..TallyRow::default()
                });
                rows.len() - 1
            }
        };
        let row = &mut rows[i];
        row.outs += r.outs;
        row.hand_outs += r.hand_outs;
        row.julen += r.julen;
        row.lost += u32::from(r.lost);
        row.paid = row.lost.min(sozialfall_after);
    }
    rows
}

/// The last round entered at a table: its number, who lost it and the Outs of each row
/// ("Anna 2 (1 Hand-Out), Bernd 0").
#[derive(Debug, Clone, Serialize)]
pub struct LastRound {
    /// The round number.
    pub number: u32,
    /// Who lost (gave) the round.
    pub loser: String,
    /// Every row's Outs, Hand-Outs, Julen and Joker, in German.
    pub outs: String,
}

/// The whole board of a night.
#[derive(Debug, Clone, Serialize)]
pub struct LiveBoard {
    /// The night's date, `YYYY-MM-DD`.
    pub date: NaiveDate,
    /// Rounds per night of the season.
    pub rounds_per_night: u32,
    /// The night is closed ("Abend abgeschlossen").
    pub closed: bool,
    /// Its tables.
    pub tables: Vec<LiveTable>,
}

/// The live view of `runde` (round `round`).
fn live_runde(round: u32, runde: &RundeState) -> LiveRunde {
    let out = runde.out_players();
    let last = history(runde).pop().map(|w| LiveWurfrunde {
        number: w.number,
        part: w.part,
        ranking: w
            .ranking
            .into_iter()
            .map(|r| LiveThrow {
                player: r.player,
                label: r.label,
                dice: r.dice,
                wuerfe: r.wuerfe,
            })
            .collect(),
        deckel: w.deckel,
        newly_out: w.newly_out,
        part_end: w.part_end,
    });
    LiveRunde {
        round,
        part: match runde.part() {
            Some(p) if runde.is_auswuerfeln() => format!("{} – Auswürfeln", p.german()),
            Some(p) => p.german().to_string(),
            None => "beendet".to_string(),
        },
        wurfrunden: runde.wurfrunden().len(),
        stock: runde.stock(),
        seats: seats(runde)
            .into_iter()
            .map(|s| LiveSeat {
                out: !runde.is_finished() && out.contains(&s.player.as_str()),
                player: s.player,
                deckel: s.deckel,
                status: s.status.to_string(),
            })
            .collect(),
        half_losers: runde.half_losers().iter().map(|p| p.to_string()).collect(),
        loser: runde.loser().map(str::to_string),
        last,
    }
}

/// The Runden the Schockbesteck plays at `night`'s tables (storage id `night_id`): (table, round,
/// its state, `None` when the stored Runde no longer loads), by table, then round. Read once per
/// answer: the board and the moments take them from here. Errors: storage.
async fn running_runden(
    league: &League,
    night: &Night,
    night_id: i64,
) -> Result<Vec<(u32, u32, Option<RundeState>)>, ServiceError> {
    let mut numbers: Vec<u32> = night.draw.iter().map(|s| s.table).collect();
    numbers.sort_unstable();
    numbers.dedup();
    let mut out = Vec::new();
    for table in numbers {
        for round in league.runden_running(night_id, table).await? {
            let at = RundeAt {
                night: night_id,
                table,
                round,
            };
            let state = match league.runde(at).await {
                Ok(Some(record)) => RundeState::try_from(record).ok(),
                _ => None,
            };
            out.push((table, round, state));
        }
    }
    Ok(out)
}

/// The board of `night` (storage id `night_id`, under its season's `rules`: rounds per night,
/// the Sozialfall): per table the highest-numbered Runde in progress. A stored Runde that no
/// longer loads is left out. Errors: storage.
pub async fn board(
    league: &League,
    night: &Night,
    night_id: i64,
    rules: &crate::league::model::rules::SeasonRules,
) -> Result<LiveBoard, ServiceError> {
    let running = running_runden(league, night, night_id).await?;
    Ok(board_of(night, rules, &running))
}

/// The board of `night` with its `running` Runden ([`running_runden`]).
fn board_of(
    night: &Night,
    rules: &crate::league::model::rules::SeasonRules,
    running: &[(u32, u32, Option<RundeState>)],
) -> LiveBoard {
    let rounds_per_night = rules.rounds_per_night;
    let mut numbers: Vec<u32> = night.draw.iter().map(|s| s.table).collect();
    numbers.sort_unstable();
    numbers.dedup();
    let mut tables = Vec::new();
    for table in numbers {
        // The highest-numbered Runde in progress at the table, if it loads.
        let runde = running
            .iter()
            .rfind(|(t, ..)| *t == table)
            .and_then(|(_, round, state)| state.as_ref().map(|s| live_runde(*round, s)));
        let entered = night.tables.iter().find(|t| t.number == table);
        let players = draw::table_players(&night.draw, table);
        tables.push(LiveTable {
            table,
            tally: tally(
                &players,
                entered.map_or(&[], |t| &t.rounds),
                rules.sozialfall_after,
            ),
            players,
            rounds_entered: entered.map_or(0, |t| t.rounds.len()),
            runde,
            last_round: entered
                .and_then(|t| t.rounds.iter().max_by_key(|r| r.number))
                .map(|r| LastRound {
                    number: r.number,
                    loser: round_loser(r).to_string(),
                    outs: round_outs_short(r),
                }),
        });
    }
    LiveBoard {
        date: night.date,
        rounds_per_night,
        closed: night.closed,
        tables,
    }
}

/// The live page.
#[derive(Template, WebTemplate)]
#[template(path = "public/live.html")]
struct LivePage {
    layout: Layout,
    date: String,
    iso_date: String,
    refresh: u32,
    board: LiveBoard,
    /// The night was recorded as totals per player: nothing runs live, no rounds to count.
    recorded_as_totals: bool,
    /// "Zuletzt: Schock Out von Anna (Runde 4)": the night's last moment (issue 38.4), shown
    /// without JavaScript.
    last_moment: Option<String>,
}

/// `Cache-Control: no-store`: neither the page cache nor a browser keeps a live answer.
const NO_STORE: (header::HeaderName, &str) = (header::CACHE_CONTROL, "no-store");

/// `GET /live/{date}`: the board of that night.
async fn page(
    State(league): State<League>,
    layout: Layout,
    at: AtNight,
) -> Result<Response, AppError> {
    render(&league, layout, at).await
}

/// `GET /live`: the board of tonight's night (the club's date), else of the next planned one,
/// else of the last one; the TV at the bar keeps this address. No night at all: 404.
async fn tonight(State(league): State<League>, layout: Layout) -> Result<Response, AppError> {
    let snapshot = league.snapshot();
    let Some(date) = night_to_show(&snapshot, league.today()) else {
        return Err(AppError::NotFound);
    };
    let Some((view, _)) = snapshot.night(date) else {
        return Err(AppError::NotFound);
    };
    let view = view.clone();
    render(
        &league,
        layout,
        AtNight {
            date,
            snapshot,
            view,
        },
    )
    .await
}

/// The night `/live` shows on `today`: today's, else the first after it, else the last before it.
pub fn night_to_show(snapshot: &crate::service::Snapshot, today: NaiveDate) -> Option<NaiveDate> {
    let dates: Vec<NaiveDate> = snapshot
        .seasons()
        .flat_map(|v| v.season.nights.iter().map(|n| n.date))
        .collect();
    dates
        .iter()
        .filter(|d| **d >= today)
        .min()
        .or_else(|| dates.iter().max())
        .copied()
}

async fn render(league: &League, layout: Layout, at: AtNight) -> Result<Response, AppError> {
    let night = at.night();
    let running = running_runden(league, night, at.id()).await?;
    let board = board_of(night, &at.view.season.rules, &running);
    Ok((
        [NO_STORE],
        LivePage {
            layout,
            date: date_de(at.date),
            iso_date: at.date.to_string(),
            refresh: REFRESH_SECONDS,
            board,
            recorded_as_totals: night.recorded_as_totals(),
            last_moment: moments_of(night, &running)
                .last()
                .map(|m| m.last_line(night.table_numbers_with_draw().len())),
        },
    )
        .into_response())
}

/// The Schock Outs, Hand-Outs and Julen of the night on `date` (issue 38.4): its stored rounds'
/// and those so far in the Runden the Schockbesteck plays there
/// (`league::table::moments::moments_with`); none for a day without a night. A Runde that no
/// longer loads is left out.
pub async fn night_moments(league: &League, date: NaiveDate) -> Vec<Moment> {
    let snapshot = league.snapshot();
    let Some((view, night)) = snapshot.night(date) else {
        return Vec::new();
    };
    let running = match view.ids.nights.get(&date) {
        Some(&night_id) => running_runden(league, night, night_id)
            .await
            .unwrap_or_default(),
        None => Vec::new(),
    };
    moments_of(night, &running)
}

/// The moments of `night` with its `running` Runden ([`running_runden`]): their tallies so far.
fn moments_of(night: &Night, running: &[(u32, u32, Option<RundeState>)]) -> Vec<Moment> {
    let counts: Vec<Running> = running
        .iter()
        .filter_map(|(table, round, state)| Some((*table, *round, state.as_ref()?)))
        .flat_map(|(table, round, state)| {
            state.tallies().into_iter().map(move |t| Running {
                table,
                round,
                player: t.player,
                outs: t.outs,
                hand_outs: t.hand_outs,
                julen: t.julen,
            })
        })
        .collect();
    moments_with(night, &counts)
}

/// `GET /api/v1/nights/{date}/live`: the [`LiveBoard`] as JSON; 404 `{"error": …}` for a date
/// that is not a night of a stored season.
async fn api(State(league): State<League>, Path(date): Path<String>) -> Response {
    let error =
        |status: StatusCode, msg: String| ([NO_STORE], ApiError(status, msg)).into_response();
    let date = match ApiError::path_date(&date) {
        Ok(date) => date,
        Err(e) => return ([NO_STORE], e).into_response(),
    };
    let snapshot = league.snapshot();
    let Some((view, night)) = snapshot.night(date) else {
        return error(
            StatusCode::NOT_FOUND,
            format!("kein Spielabend am {}", date_de(date)),
        );
    };
    let id = view.ids.nights.get(&date).copied().unwrap_or(0);
    match board(&league, night, id, &view.season.rules).await {
        Ok(b) => ([NO_STORE], Json(b)).into_response(),
        Err(e) => {
            tracing::error!(error = %e, "live board failed");
            error(
                StatusCode::INTERNAL_SERVER_ERROR,
                "Ein interner Fehler ist aufgetreten.".to_string(),
            )
        }
    }
}
