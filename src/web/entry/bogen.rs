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

use askama::Template;
use askama_web::WebTemplate;
use axum::response::Response;

use super::round_input::{first, Fields, Refusal, RoundInput, RowInput, Spot};
use crate::league::change::Replace;
use crate::league::model::file::ResultEntry;
use crate::league::model::format::date_de;
use crate::league::{model::draw, Change, Korrektur};
use crate::service::{Edit, ServiceError};
use crate::web::kit::session::RequireSecretary;
use crate::web::kit::{AppError, AtNight, AtTable, Guard, Layout, Reply, Routes, Stored};

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

/// The entry page of one table.
#[derive(Template, WebTemplate)]
#[template(path = "entry/bogen_eingabe.html")]
struct EntryPage {
    layout: Layout,
    date: String,
    iso_date: String,
    table: u32,
    entered: Vec<u32>,
    rounds: Vec<RoundInput>,
    joker_allowed: bool,
    error: Option<String>,
    /// The anchor of the round the refusal names (`runde-7`), "" when it names none: the
    /// message links to it („zum Formular“).
    error_at: String,
    /// The night is closed: the form carries the Korrektur fieldset.
    closed: bool,
    /// The Korrektur fields as typed (a refused form keeps them).
    korrektur: Korrektur,
}

/// The rounds not yet entered at `table`, each with the table's players: empty (`fields` = None)
/// or as typed.
fn blocks(at: &AtTable, fields: Option<&Fields>) -> (Vec<u32>, Vec<RoundInput>) {
    let night = at.night.night();
    let entered: Vec<u32> = night
        .tables
        .iter()
        .find(|t| t.number == at.table)
        .map(|t| t.rounds.iter().map(|r| r.number).collect())
        .unwrap_or_default();
    let ids = &at.night.view.ids.players;
    let players = at.players();
    let rounds = (1..=at.night.view.season.rules.rounds_per_night)
        .filter(|n| !entered.contains(n))
        .map(|n| RoundInput {
            number: n,
            rows: players
                .iter()
                .enumerate()
                .map(|(seat, p)| {
                    let id = ids.get(p).copied().unwrap_or_default();
                    match fields {
                        None => RowInput::blank(id, seat, p),
                        Some(f) => RowInput::from_sheet(f, n, id, seat, p),
                    }
                })
                .collect(),
            error: None,
        })
        .collect();
    (entered, rounds)
}

/// The Korrektur of the form as sent (`korrektur`, `korrektur_grund`).
fn korrektur_of(fields: Option<&Fields>) -> Korrektur {
    Korrektur {
        ticked: fields.is_some_and(|f| f.contains_key("korrektur")),
        reason: fields
            .and_then(|f| first(f, "korrektur_grund"))
            .unwrap_or_default()
            .to_string(),
    }
}

fn render(
    layout: Layout,
    at: &AtTable,
    fields: Option<&Fields>,
    error: Option<Refusal>,
) -> EntryPage {
    let (entered, mut rounds) = blocks(at, fields);
    let error_at = match &error {
        Some((_, Spot { round: Some(n), .. })) if rounds.iter().any(|r| r.number == *n) => {
            format!("runde-{n}")
        }
        _ => String::new(),
    };
    if let Some((msg, spot)) = &error {
        for round in rounds.iter_mut() {
            round.mark(msg, spot);
        }
    }
    EntryPage {
        layout,
        date: date_de(at.night.date),
        iso_date: at.night.date.to_string(),
        table: at.table,
        entered,
        rounds,
        joker_allowed: at.night.view.season.rules.joker_multiplier.is_some(),
        error: error.map(|(msg, _)| msg),
        error_at,
        closed: at.night.night().closed,
        korrektur: korrektur_of(fields),
    }
}

async fn form(layout: Layout, at: AtTable) -> EntryPage {
    render(layout, &at, None, None)
}

/// The rounds of the form as `(number, rows)`: a round with a loser, every ticked player a row;
/// a round without loser and without any value is skipped. Refused (German, naming the round and
/// the player): a value that is no number, values but no loser, a loser who did not play, values
/// for a player who did not play ([`RoundInput::results`]).
pub fn read_rounds(
    date: chrono::NaiveDate,
    table: u32,
    rounds: &[RoundInput],
) -> Result<Vec<(u32, Vec<ResultEntry>)>, Refusal> {
    let mut out = Vec::new();
    for r in rounds {
        if !r.rows.iter().any(|c| c.lost) {
            if r.rows.iter().any(RowInput::has_values) {
                let at = format!("Abend {}, Tisch {table}, Runde {}", date_de(date), r.number);
                return Err((
                    format!(
                        "{at}: Werte eingetragen, aber kein Verlierer angekreuzt (Spalte „verl.“)"
                    ),
                    Spot::at(r.number, None, None),
                ));
            }
            continue;
        }
        out.push((r.number, r.results(date, table)?));
    }
    Ok(out)
}

/// `POST /verwaltung/abend/{date}/bogen/{table}`: every round of the sheet in one write (all or
/// nothing); a closed night takes it as a Korrektur with a reason.
async fn save(
    reply: Reply,
    RequireSecretary(user): RequireSecretary,
    at: AtTable,
    axum_extra::extract::Form(fields): axum_extra::extract::Form<Fields>,
) -> Result<Response, AppError> {
    let date = at.night.date;
    let table = at.table;
    let (_, typed) = blocks(&at, Some(&fields));
    // Where the form's own refusal points (the league's says where itself).
    let mut own: Option<Spot> = None;
    let done = match read_rounds(date, table, &typed) {
        Err((msg, spot)) => {
            own = Some(spot);
            Err(ServiceError::refused(msg))
        }
        Ok(rounds) if rounds.is_empty() => {
            own = Some(Spot::default());
            Err(ServiceError::refused(
                "Keine Runde eingetragen: je Runde den Verlierer ankreuzen (Spalte „verl.“).",
            ))
        }
        Ok(rounds) => {
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
            let edit = Edit::by(&user.username).korrektur(korrektur_of(Some(&fields)));
            reply
                .league
                .changes(at.night.year(), &changes, &edit)
                .await
                .map(|_| numbers)
        }
    };
    let to = format!("/verwaltung/abend/{date}");
    let stored = |numbers: Vec<String>| {
        Stored::at(
            to,
            format!(
                "Vom Spielberichtsbogen gespeichert: Tisch {table}, Runde {}.",
                numbers.join(", ")
            ),
        )
    };
    reply
        .finish(done, stored, async |refusal, layout| {
            let (message, spot) = if let Some(spot) = own {
                (refusal.to_string(), spot)
            } else {
                let l = &refusal.error.location;
                let spot = Spot {
                    round: l.round,
                    player: l.player.clone(),
                    field: l.field.clone(),
                };
                (format!("Nichts gespeichert: {refusal}"), spot)
            };
            Ok(render(layout, &at, Some(&fields), Some((message, spot))))
        })
        .await
}
