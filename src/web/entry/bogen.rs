//! The paper fallback of a night without Wi-Fi (issue 11.6): the printable Spielberichtsbogen
//! (`/verwaltung/abend/{date}/bogen`: per drawn table its players × rounds 1..`rounds_per_night`
//! with the columns Outs, Hand-Outs, Julen, Joker, verloren; one A4 page per table) and the entry
//! of a whole table's rounds from it afterwards (`/verwaltung/abend/{date}/bogen/{table}`).
//!
//! The entry form holds every round not yet entered at the table; a round with a loser is stored,
//! an untouched one is skipped. All rounds go through the write pipeline in ONE transaction
//! (`League::changes` with one `Change::PutRound` per round): a refusal of round 7 stores nothing
//! of rounds 1–6, and the form comes back (422) with everything typed and the refusal naming
//! round, player and field.

use std::collections::BTreeMap;

use askama::Template;
use askama_web::WebTemplate;
use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use chrono::NaiveDate;

use crate::league::change::Replace;
use crate::league::file::ResultEntry;
use crate::league::format::date_de;
use crate::league::{draw, Change};
use crate::service::{Edit, League, ServiceError};
use crate::web::kit::session::RequireSecretary;
use crate::web::kit::{AppError, Guard, Layout, Routes};
use crate::web::kit::{AtNight, AtTable, Flash};

/// The routes of this feature.
pub fn routes() -> Routes {
    Routes::new()
        .get(Guard::Secretary, "/verwaltung/abend/{date}/bogen", sheet)
        .get(
            Guard::Secretary,
            "/verwaltung/abend/{date}/bogen/{table}",
            form,
        )
        .post(
            Guard::Secretary,
            "/verwaltung/abend/{date}/bogen/{table}",
            save,
        )
}

/// One table of the printed sheet.
pub struct SheetTable {
    /// Table 1 or 2.
    pub number: u32,
    /// Its drawn players, seat order.
    pub players: Vec<String>,
}

/// The printable Spielberichtsbogen.
#[derive(Template, WebTemplate)]
#[template(path = "entry/bogen.html")]
struct SheetPage {
    layout: Layout,
    date: String,
    iso_date: String,
    rounds: Vec<u32>,
    tables: Vec<SheetTable>,
}

async fn sheet(layout: Layout, at: AtNight) -> SheetPage {
    let night = at.night();
    let mut numbers: Vec<u32> = night.draw.iter().map(|s| s.table).collect();
    numbers.sort_unstable();
    numbers.dedup();
    SheetPage {
        layout,
        date: date_de(at.date),
        iso_date: at.date.to_string(),
        rounds: (1..=at.view.season.rules.rounds_per_night).collect(),
        tables: numbers
            .into_iter()
            .map(|number| SheetTable {
                number,
                players: draw::table_players(&night.draw, number),
            })
            .collect(),
    }
}

/// A form whose field names carry round and row numbers, as sent.
type Fields = BTreeMap<String, Vec<String>>;

/// One player's cells of one round, as typed (kept on a refusal).
pub struct Cell {
    /// Row index of the player (field suffix).
    pub i: usize,
    /// The player's name.
    pub player: String,
    /// Played this round ("mit"; ticked by default).
    pub played: bool,
    /// Outs as typed.
    pub outs: String,
    /// Hand-Outs as typed.
    pub hand_outs: String,
    /// Julen as typed.
    pub julen: String,
    /// Joker ticked.
    pub joker: bool,
    /// Lost the round (radio `v{n}` = i).
    pub lost: bool,
    /// The field of this cell a refusal names (`outs`, `hand_outs`, `julen`, `joker`, `lost`),
    /// marked in the form; "" for none.
    pub bad: String,
}

/// One round of the entry form.
pub struct RoundBlock {
    /// The round number.
    pub number: u32,
    /// Its cells, seat order.
    pub cells: Vec<Cell>,
    /// The refusal that names this round, shown beside it.
    pub error: Option<String>,
}

/// A refusal of the form: the German message and where it points.
pub type Refusal = (String, Spot);

/// Where a refusal points: round, player and season-file field (`outs`, `hand_outs`, `julen`,
/// `joker`, `lost`), as far as it says.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Spot {
    /// The round number.
    pub round: Option<u32>,
    /// The player's name.
    pub player: Option<String>,
    /// The field.
    pub field: Option<String>,
}

impl Spot {
    fn at(round: u32, player: Option<&str>, field: Option<&str>) -> Spot {
        Spot {
            round: Some(round),
            player: player.map(str::to_string),
            field: field.map(str::to_string),
        }
    }
}

/// The entry page of one table.
#[derive(Template, WebTemplate)]
#[template(path = "entry/bogen_eingabe.html")]
struct EntryPage {
    layout: Layout,
    date: String,
    iso_date: String,
    table: u32,
    entered: Vec<u32>,
    rounds: Vec<RoundBlock>,
    joker_allowed: bool,
    error: Option<String>,
}

/// The first value of `name`, trimmed ("" when absent).
fn value(fields: &Fields, name: &str) -> String {
    fields
        .get(name)
        .and_then(|v| v.first())
        .map(|s| s.trim().to_string())
        .unwrap_or_default()
}

/// The rounds not yet entered at `table`, each with the table's players: empty (`fields` = None)
/// or as typed.
fn blocks(at: &AtTable, fields: Option<&Fields>) -> (Vec<u32>, Vec<RoundBlock>) {
    let night = at.night.night();
    let entered: Vec<u32> = night
        .tables
        .iter()
        .find(|t| t.number == at.table)
        .map(|t| t.rounds.iter().map(|r| r.number).collect())
        .unwrap_or_default();
    let players = at.players();
    let rounds = (1..=at.night.view.season.rules.rounds_per_night)
        .filter(|n| !entered.contains(n))
        .map(|n| RoundBlock {
            number: n,
            cells: players
                .iter()
                .enumerate()
                .map(|(i, p)| match fields {
                    None => Cell {
                        i,
                        player: p.clone(),
                        played: true,
                        outs: String::new(),
                        hand_outs: String::new(),
                        julen: String::new(),
                        joker: false,
                        lost: false,
                        bad: String::new(),
                    },
                    Some(f) => Cell {
                        i,
                        player: p.clone(),
                        played: f.contains_key(&format!("m{n}_{i}")),
                        outs: value(f, &format!("o{n}_{i}")),
                        hand_outs: value(f, &format!("h{n}_{i}")),
                        julen: value(f, &format!("j{n}_{i}")),
                        joker: f.contains_key(&format!("k{n}_{i}")),
                        lost: value(f, &format!("v{n}")) == i.to_string(),
                        bad: String::new(),
                    },
                })
                .collect(),
            error: None,
        })
        .collect();
    (entered, rounds)
}

fn render(
    layout: Layout,
    at: &AtTable,
    fields: Option<&Fields>,
    error: Option<Refusal>,
) -> EntryPage {
    let (entered, mut rounds) = blocks(at, fields);
    if let Some((msg, spot)) = &error {
        if let Some(block) = rounds.iter_mut().find(|b| Some(b.number) == spot.round) {
            block.error = Some(msg.clone());
            let field = spot.field.clone().unwrap_or_default();
            for c in block.cells.iter_mut() {
                if Some(&c.player) == spot.player.as_ref() {
                    c.bad = if field.is_empty() {
                        "row".into()
                    } else {
                        field.clone()
                    };
                }
            }
        }
    }
    let error = error.map(|(msg, _)| msg);
    EntryPage {
        layout,
        date: date_de(at.night.date),
        iso_date: at.night.date.to_string(),
        table: at.table,
        entered,
        rounds,
        joker_allowed: at.night.view.season.rules.joker_multiplier.is_some(),
        error,
    }
}

async fn form(layout: Layout, at: AtTable) -> EntryPage {
    render(layout, &at, None, None)
}

/// A count as typed: "" is 0; else a whole number ≥ 0. Errors: German, naming night, table,
/// round, player and field.
fn count(typed: &str, at: &str, field: &str) -> Result<u32, String> {
    if typed.is_empty() {
        return Ok(0);
    }
    typed
        .parse()
        .map_err(|_| format!("{at}, Feld {field}: „{typed}“ ist keine Zahl ≥ 0"))
}

/// The German name of a season-file field of a result row, as the messages name it.
fn field_de(field: &str) -> &'static str {
    match field {
        "outs" => "Outs",
        "hand_outs" => "Hand-Outs",
        "julen" => "Julen",
        "joker" => "Joker",
        _ => "verloren",
    }
}

/// The rounds of the form as `(number, rows)`: a round with a loser, every ticked player a row;
/// a round without loser and without any value is skipped. Errors (German, naming the round and
/// the player): a value that is no number, values but no loser, a loser who did not play.
pub fn read_rounds(
    date: NaiveDate,
    table: u32,
    rounds: &[RoundBlock],
) -> Result<Vec<(u32, Vec<ResultEntry>)>, Refusal> {
    let mut out = Vec::new();
    for r in rounds {
        let at = format!("Abend {}, Tisch {table}, Runde {}", date_de(date), r.number);
        let has_values = r.cells.iter().any(|c| {
            c.joker
                || [&c.outs, &c.hand_outs, &c.julen]
                    .iter()
                    .any(|v| !v.is_empty() && v.as_str() != "0")
        });
        let loser = r.cells.iter().find(|c| c.lost);
        let Some(loser) = loser else {
            if has_values {
                return Err((
                    format!(
                        "{at}: Werte eingetragen, aber kein Verlierer angekreuzt (Spalte „verl.“)"
                    ),
                    Spot::at(r.number, None, None),
                ));
            }
            continue;
        };
        if !loser.played {
            return Err((
                format!(
                    "{at}, Spieler {}: der Verlierer muss die Runde mitgespielt haben (Häkchen „mit“)",
                    loser.player
                ),
                Spot::at(r.number, Some(&loser.player), Some("played")),
            ));
        }
        let mut rows = Vec::new();
        for c in &r.cells {
            let at = format!("{at}, Spieler {}", c.player);
            if !c.played {
                if c.joker
                    || [&c.outs, &c.hand_outs, &c.julen]
                        .iter()
                        .any(|v| !v.is_empty())
                {
                    return Err((
                        format!("{at}: Werte eingetragen, aber „mit“ ist nicht angekreuzt"),
                        Spot::at(r.number, Some(&c.player), Some("played")),
                    ));
                }
                continue;
            }
            let number = |typed: &str, field: &str| {
                count(typed, &at, field_de(field))
                    .map_err(|msg| (msg, Spot::at(r.number, Some(&c.player), Some(field))))
            };
            rows.push(ResultEntry {
                player: c.player.clone(),
                outs: number(&c.outs, "outs")?,
                hand_outs: number(&c.hand_outs, "hand_outs")?,
                julen: number(&c.julen, "julen")?,
                joker: c.joker,
                lost: c.lost,
            });
        }
        out.push((r.number, rows));
    }
    Ok(out)
}

async fn save(
    State(league): State<League>,
    layout: Layout,
    flash: Flash,
    RequireSecretary(user): RequireSecretary,
    at: AtTable,
    axum_extra::extract::Form(fields): axum_extra::extract::Form<Fields>,
) -> Result<Response, AppError> {
    let date = at.night.date;
    let table = at.table;
    let (_, typed) = blocks(&at, Some(&fields));
    let refused = |msg: String, spot: Spot| {
        (
            StatusCode::UNPROCESSABLE_ENTITY,
            render(layout.clone(), &at, Some(&fields), Some((msg, spot))),
        )
            .into_response()
    };
    let rounds = match read_rounds(date, table, &typed) {
        Ok(r) => r,
        Err((msg, spot)) => return Ok(refused(msg, spot)),
    };
    if rounds.is_empty() {
        return Ok(refused(
            "Keine Runde eingetragen: je Runde den Verlierer ankreuzen (Spalte „verl.“).".into(),
            Spot::default(),
        ));
    }
    let numbers: Vec<String> = rounds.iter().map(|(n, _)| n.to_string()).collect();
    let changes: Vec<Change> = rounds
        .into_iter()
        .map(|(number, results)| Change::PutRound {
            date,
            table,
            number,
            results,
            replace: Replace::No,
            seat_newcomers: false,
            schockbesteck: None,
        })
        .collect();
    match league
        .changes(at.night.year(), &changes, &Edit::by(&user.username))
        .await
    {
        Ok(_) => Ok(flash
            .redirect(
                &format!("/verwaltung/abend/{date}"),
                format!(
                    "Vom Spielberichtsbogen gespeichert: Tisch {table}, Runde {}.",
                    numbers.join(", ")
                ),
            )
            .await),
        Err(
            ServiceError::Refused(e)
            | ServiceError::Closed(e)
            | ServiceError::Conflict(e)
            | ServiceError::Full(e),
        ) => {
            let spot = Spot {
                round: e.location.round,
                player: e.location.player.clone(),
                field: e.location.field.clone(),
            };
            Ok(refused(format!("Nichts gespeichert: {e}"), spot))
        }
        Err(e) => Err(e.into()),
    }
}
