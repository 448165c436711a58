//! Secretary pages for one night (league.md §1, §6, §9): tick who is present and draw the tables by
//! lot, enter a round's results for one table in one form, record fines. Each submission is read
//! into a league [`Change`] and sent through the write pipeline; the form only checks its own shape
//! (numbers, one loser, no repeated field), the league checks the rest. A refused form is shown
//! again with what was typed (422).

use std::collections::{BTreeMap, BTreeSet};

use askama::Template;
use askama_web::WebTemplate;
use axum::extract::{Path, State};
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Form;
use chrono::NaiveDate;
use serde::Deserialize;

use crate::league::change::{round_loser, round_outs, Replace};
use crate::league::file::ResultEntry;
use crate::league::format::{date_de, format_cents};
use crate::league::kasse::fine_label;
use crate::league::{draw, Change, Korrektur, Night, Round};
use crate::service::{Edit, League, ServiceError};
use crate::web::admin::accounts::KorrekturFields;
use crate::web::kit::session::RequireSecretary;
use crate::web::kit::{AppError, AppState, Guard, Layout, Routes};
use crate::web::kit::{AtNight, Flash};

/// The routes of this feature.
pub fn routes() -> Routes {
    Routes::new()
        .get(Guard::Secretary, "/verwaltung/abend/{date}", night_page)
        .post(
            Guard::Secretary,
            "/verwaltung/abend/{date}/teilnehmer",
            save_participants,
        )
        .post(
            Guard::Secretary,
            "/verwaltung/abend/{date}/runde",
            save_round,
        )
        .post(
            Guard::Secretary,
            "/verwaltung/abend/{date}/strafe",
            add_fine,
        )
        .post(
            Guard::Secretary,
            "/verwaltung/abend/{date}/nachzuegler",
            seat_late_arrival,
        )
        .post(
            Guard::Secretary,
            "/verwaltung/abend/{date}/abschliessen",
            close_night,
        )
        .post(
            Guard::Secretary,
            "/verwaltung/abend/{date}/oeffnen",
            reopen_night,
        )
        .post(
            Guard::Secretary,
            "/verwaltung/abend/{date}/strafe/{fine}/bezahlt",
            toggle_fine,
        )
        .post(
            Guard::Secretary,
            "/verwaltung/abend/{date}/runde/{table}/{number}/loeschen",
            remove_round,
        )
        .post(
            Guard::Secretary,
            "/verwaltung/abend/{date}/runde/{table}/{number}/verschieben",
            move_round,
        )
        .post(
            Guard::Secretary,
            "/verwaltung/abend/{date}/strafe/{fine}/loeschen",
            remove_fine,
        )
        .post(
            Guard::Secretary,
            "/verwaltung/abend/{date}/loeschen",
            remove_night,
        )
}

/// A season player in the presence form.
pub struct PresentLine {
    /// `players.id`.
    pub id: i64,
    /// Name.
    pub name: String,
    /// Ticked as present.
    pub checked: bool,
}

/// One player's row of the round form (values as typed).
#[derive(Clone)]
pub struct EntryRow {
    /// `players.id`.
    pub id: i64,
    /// Name.
    pub name: String,
    /// Played this round.
    pub played: bool,
    /// Outs as typed.
    pub outs: String,
    /// Hand-Outs as typed.
    pub hand_outs: String,
    /// Julen as typed.
    pub julen: String,
    /// Joker-Runde.
    pub joker: bool,
    /// Chosen as the loser.
    pub lost: bool,
}

impl EntryRow {
    /// The empty rows of the players drawn to `table` of `night`, in seat order (`ids`: name →
    /// `players.id`): played, no Outs, Hand-Outs or Julen, no Joker, not lost. What the round
    /// form offers before anything is typed.
    pub fn blank_rows(
        night: &crate::league::Night,
        table: u32,
        ids: &std::collections::BTreeMap<String, i64>,
    ) -> Vec<EntryRow> {
        draw::table_players(&night.draw, table)
            .into_iter()
            .map(|name| EntryRow {
                id: ids.get(&name).copied().unwrap_or_default(),
                name,
                played: true,
                outs: "0".into(),
                hand_outs: "0".into(),
                julen: "0".into(),
                joker: false,
                lost: false,
            })
            .collect()
    }
}

/// The first round number 1..=`rounds_per_night` not among `rounds` (the last when all are):
/// what the round form proposes next.
pub fn next_round(rounds: &[EnteredRound], rounds_per_night: u32) -> u32 {
    (1..=rounds_per_night)
        .find(|n| !rounds.iter().any(|r| r.number == *n))
        .unwrap_or(rounds_per_night)
}

/// A round already entered at a table, compact for the secretary's page.
pub struct EnteredRound {
    /// Round number.
    pub number: u32,
    /// The loser's name.
    pub loser: String,
    /// Every row as "Name Outs" with Hand-Outs, Julen and Joker when set, comma-separated:
    /// "Anna 2 (1 Hand-Out), Bernd 0".
    pub outs: String,
    /// The round could move to the other table (`Change::MoveRound` would take it): nobody of it
    /// plays another round at this table, and the other table has no round of its number. The
    /// move button is offered only then (a round of drawn players can never move).
    pub movable: bool,
}

impl EnteredRound {
    /// The compact view of `round` (not movable).
    pub fn of(round: &Round) -> EnteredRound {
        EnteredRound {
            number: round.number,
            loser: round_loser(round).to_string(),
            outs: round_outs(round),
            movable: false,
        }
    }

    /// The view of `round` at table `here` of `night`, with whether it could move to `other`.
    pub fn at(round: &Round, night: &Night, here: u32, other: u32) -> EnteredRound {
        let rounds_at = |t: u32| {
            night
                .tables
                .iter()
                .filter(move |x| x.number == t)
                .flat_map(|x| x.rounds.iter())
        };
        let taken = rounds_at(other).any(|r| r.number == round.number);
        let plays_elsewhere_here = round.results.iter().any(|x| {
            rounds_at(here)
                .filter(|r| r.number != round.number)
                .any(|r| r.results.iter().any(|y| y.player == x.player))
        });
        EnteredRound {
            movable: !taken && !plays_elsewhere_here && here != other,
            ..EnteredRound::of(round)
        }
    }
}

/// The round form of one table.
pub struct TableForm {
    /// Table number.
    pub number: u32,
    /// The other table (a round entered here by mistake moves there).
    pub other: u32,
    /// The rounds entered at it, by number.
    pub rounds: Vec<EnteredRound>,
    /// "Runde ersetzen" ticked (only after a rejection).
    pub replace: bool,
    /// Round number field as typed (default: the next free one).
    pub round_input: String,
    /// Its players' rows.
    pub rows: Vec<EntryRow>,
    /// The error of this form, if it was rejected.
    pub error: Option<String>,
}

/// A fine line.
pub struct FineLine {
    /// `fines.id`.
    pub id: i64,
    /// Name.
    pub player: String,
    /// Kind, German label ("Zuspätkommer").
    pub kind: String,
    /// Booked amount, German euros.
    pub amount: String,
    /// Paid.
    pub paid: bool,
}

/// A kind of the Strafenkatalog for the select.
pub struct KindLine {
    /// The kind (the form's value, e.g. `late`).
    pub kind: String,
    /// Its German label ("Zuspätkommer").
    pub label: String,
    /// Its amount, German euros.
    pub amount: String,
    /// Chosen in a rejected fine form.
    pub selected: bool,
}

/// The night's admin page.
#[derive(Template, WebTemplate)]
#[template(path = "entry/night.html")]
struct NightAdminPage {
    layout: Layout,
    year: i32,
    date: String,
    iso: String,
    split_from: u32,
    has_rounds: bool,
    present: Vec<PresentLine>,
    tables: Vec<TableForm>,
    joker_allowed: bool,
    fines: Vec<FineLine>,
    kinds: Vec<KindLine>,
    fine_players: Vec<PresentLine>,
    error: Option<String>,
    error_at: String,
    /// The night is closed: forms carry the Korrektur fieldset.
    closed: bool,
    /// "gleich bezahlt" ticked in a rejected fine form.
    fine_paid: bool,
    /// The night has a draw: the presence form keeps everybody seated unless asked to draw again.
    has_draw: bool,
    /// Season players not drawn tonight, for the late-arrival form.
    late_players: Vec<PresentLine>,
    /// The tables of the draw (for the late-arrival form's choice).
    table_numbers: Vec<u32>,
    /// The `late` fine of the catalogue, formatted, if it has one.
    late_fine: Option<String>,
    /// A closed night may still be reopened (until the day after it).
    can_reopen: bool,
    /// The tables with a working scorer link: (table, made by).
    active_links: Vec<(u32, String)>,
    /// What is still open before closing ([`open_items`]); empty once closed.
    open_items: Vec<String>,
}

/// What a rejected form typed.
#[derive(Default)]
struct Typed {
    error: Option<String>,
    error_at: String,
    present: Option<BTreeSet<i64>>,
    /// Table, round number field, rows and the "Runde ersetzen" box as typed.
    round: Option<(u32, String, Vec<EntryRow>, bool)>,
    /// A rejected fine form: player id, kind, paid at once.
    fine: Option<(i64, String, bool)>,
}

/// What the night page shows beside the season file: the tables with a working scorer link
/// (table, who made it) and the Schockbesteck Runden in progress (table, round). Empty when they
/// cannot be read: the page still works.
struct NightLive {
    links: Vec<(u32, String)>,
    running: Vec<(u32, u32)>,
}

async fn active_links(league: &League, at: &AtNight) -> NightLive {
    let links = crate::service::scorer::active_links(league.db(), at.id())
        .await
        .unwrap_or_default();
    let mut tables: Vec<u32> = at.night().draw.iter().map(|s| s.table).collect();
    tables.sort_unstable();
    tables.dedup();
    let mut running = Vec::new();
    for table in tables {
        for round in league
            .runden_running(at.id(), table)
            .await
            .unwrap_or_default()
        {
            running.push((table, round));
        }
    }
    NightLive { links, running }
}

/// What is still open before a night is closed, in German: tables with fewer rounds than the
/// season plays ("Tisch 1: 5 von 10 Runden eingetragen") and Runden still running in the
/// Schockbesteck ("Tisch 2: Runde 5 läuft noch im Schockbesteck").
pub fn open_items(
    tables: &[(u32, usize)],
    rounds_per_night: u32,
    running: &[(u32, u32)],
) -> Vec<String> {
    let mut items: Vec<String> = tables
        .iter()
        .filter(|(_, n)| *n < rounds_per_night as usize)
        .map(|(t, n)| format!("Tisch {t}: {n} von {rounds_per_night} Runden eingetragen"))
        .collect();
    items.extend(
        running
            .iter()
            .map(|(t, r)| format!("Tisch {t}: Runde {r} läuft noch im Schockbesteck")),
    );
    items
}

fn render(layout: Layout, at: &AtNight, typed: Typed, live: NightLive) -> NightAdminPage {
    let view = &at.view;
    let season = &view.season;
    let rules = &season.rules;
    let night = at.night();
    let id_of = |name: &str| view.ids.players.get(name).copied().unwrap_or_default();
    let has_rounds = night.tables.iter().any(|t| !t.rounds.is_empty());
    let ticked: BTreeSet<i64> = typed
        .present
        .clone()
        .unwrap_or_else(|| night.draw.iter().map(|s| id_of(&s.player)).collect());
    let present = season
        .players
        .iter()
        .map(|p| PresentLine {
            id: id_of(&p.name),
            name: p.name.clone(),
            checked: ticked.contains(&id_of(&p.name)),
        })
        .collect();
    let mut numbers: Vec<u32> = night.draw.iter().map(|s| s.table).collect();
    numbers.dedup();
    let entered: Vec<(u32, usize)> = numbers
        .iter()
        .map(|n| {
            let count = night
                .tables
                .iter()
                .find(|t| t.number == *n)
                .map_or(0, |t| t.rounds.len());
            (*n, count)
        })
        .collect();
    let open_items = if night.closed || night.draw.is_empty() {
        Vec::new()
    } else {
        open_items(&entered, rules.rounds_per_night, &live.running)
    };
    let tables = numbers
        .into_iter()
        .map(|number| {
            let other = 3 - number.min(2);
            let rounds: Vec<EnteredRound> = night
                .tables
                .iter()
                .find(|t| t.number == number)
                .map(|t| {
                    t.rounds
                        .iter()
                        .map(|r| EnteredRound::at(r, night, number, other))
                        .collect()
                })
                .unwrap_or_default();
            let next = next_round(&rounds, rules.rounds_per_night);
            match &typed.round {
                Some((t, round_input, rows, replace)) if *t == number => TableForm {
                    number,
                    other: 3 - number.min(2),
                    rounds,
                    replace: *replace,
                    round_input: round_input.clone(),
                    rows: rows.clone(),
                    error: typed.error.clone(),
                },
                _ => TableForm {
                    number,
                    other: 3 - number.min(2),
                    rounds,
                    replace: false,
                    round_input: next.to_string(),
                    rows: EntryRow::blank_rows(night, number, &view.ids.players),
                    error: None,
                },
            }
        })
        .collect();
    let fine_ids = view.ids.fines.get(&at.date);
    let mut table_numbers: Vec<u32> = night.draw.iter().map(|s| s.table).collect();
    table_numbers.dedup();
    let late_players = season
        .players
        .iter()
        .filter(|p| !night.draw.iter().any(|s| s.player == p.name))
        .map(|p| PresentLine {
            id: id_of(&p.name),
            name: p.name.clone(),
            checked: false,
        })
        .collect();
    NightAdminPage {
        layout,
        year: season.year,
        date: date_de(at.date),
        iso: at.date.to_string(),
        split_from: rules.split_tables_from,
        has_rounds,
        present,
        tables,
        joker_allowed: rules.joker_multiplier.is_some(),
        fines: night
            .fines
            .iter()
            .enumerate()
            .map(|(i, f)| FineLine {
                id: fine_ids
                    .and_then(|ids| ids.get(i))
                    .copied()
                    .unwrap_or_default(),
                player: f.player.clone(),
                kind: fine_label(&f.kind).to_string(),
                amount: format_cents(f.amount_cents),
                paid: f.paid,
            })
            .collect(),
        kinds: rules
            .fines
            .iter()
            .map(|(k, c)| KindLine {
                kind: k.clone(),
                label: fine_label(k).to_string(),
                amount: format_cents(*c),
                selected: typed.fine.as_ref().is_some_and(|f| f.1 == *k),
            })
            .collect(),
        fine_players: season
            .players
            .iter()
            .map(|p| PresentLine {
                id: id_of(&p.name),
                name: p.name.clone(),
                checked: typed.fine.as_ref().is_some_and(|f| f.0 == id_of(&p.name)),
            })
            .collect(),
        fine_paid: typed.fine.as_ref().is_some_and(|f| f.2),
        // The refusal at the top, where the eye is after the page loads, with a link to its form.
        error: typed.error,
        error_at: typed.error_at,
        closed: night.closed,
        has_draw: !night.draw.is_empty(),
        late_players,
        table_numbers,
        late_fine: rules.fines.get("late").map(|c| format_cents(*c)),
        can_reopen: night.closed && chrono::Local::now().date_naive() <= reopen_until(at.date),
        active_links: live.links,
        open_items,
    }
}

async fn night_page(
    State(state): State<AppState>,
    layout: Layout,
    headers: HeaderMap,
    at: AtNight,
) -> Response {
    // A round form that arrived after the login ran out comes back filled in (once).
    let path = format!("/verwaltung/abend/{}/runde", at.date);
    match crate::web::kit::unsent::take(&headers, &path, state.secure_cookies) {
        Some((kept, forget)) => (
            [(header::SET_COOKIE, forget)],
            render(
                layout,
                &at,
                kept_round(&at, &kept.fields()),
                active_links(&state.league, &at).await,
            ),
        )
            .into_response(),
        None => {
            let links = active_links(&state.league, &at).await;
            render(layout, &at, Typed::default(), links).into_response()
        }
    }
}

/// The page's typed values for a kept round form: its table's rows as typed, with the notice that
/// nothing was stored.
fn kept_round(at: &AtNight, fields: &RoundFields) -> Typed {
    let Some(table) = first(fields, "table").and_then(|v| v.parse::<u32>().ok()) else {
        return Typed::default();
    };
    let id_of = |name: &str| at.view.ids.players.get(name).copied().unwrap_or_default();
    let rows = draw::table_players(&at.night().draw, table)
        .iter()
        .map(|name| typed_row(fields, id_of(name), name))
        .collect();
    Typed {
        error: Some(format!(
            "Tisch {table}: noch nicht gespeichert (die Anmeldung war abgelaufen). Bitte prüfen und „Runde speichern“."
        )),
        error_at: format!("tisch-{table}"),
        round: Some((
            table,
            first(fields, "number").unwrap_or_default().to_string(),
            rows,
            fields.contains_key("replace"),
        )),
        ..Typed::default()
    }
}

/// A submitted form of the night's page: what the change did, the form's anchor, the message
/// after it, and what was typed (shown again after a refusal).
struct Submitted {
    done: Result<(), ServiceError>,
    anchor: String,
    message: String,
    typed: Typed,
}

/// Ends a submission: after the change a redirect to the night's page at `#anchor` with the
/// message; a refusal shows the page again (422) with the reason and what was typed (read from
/// the snapshot after the refusal); other failures are errors.
async fn finish(
    league: &League,
    layout: Layout,
    flash: Flash,
    date: NaiveDate,
    s: Submitted,
) -> Result<Response, AppError> {
    match s.done {
        Ok(()) => Ok(flash
            .redirect(&format!("/verwaltung/abend/{date}#{}", s.anchor), s.message)
            .await),
        Err(
            ServiceError::Refused(e)
            | ServiceError::Closed(e)
            | ServiceError::Conflict(e)
            | ServiceError::Full(e),
        ) => {
            let at = AtNight::find(league.snapshot(), date)?;
            let typed = Typed {
                error: Some(e.to_string()),
                error_at: s.anchor,
                ..s.typed
            };
            let links = active_links(league, &at).await;
            Ok((
                StatusCode::UNPROCESSABLE_ENTITY,
                render(layout, &at, typed, links),
            )
                .into_response())
        }
        Err(e) => Err(e.into()),
    }
}

/// The presence form: the ticked player ids (repeated `present`) and the Korrektur fields.
#[derive(Deserialize)]
pub struct PresenceForm {
    /// `players.id` of every ticked player, as sent.
    #[serde(default)]
    pub present: Vec<String>,
    /// Korrektur box of a closed night.
    #[serde(default)]
    pub korrektur: Option<String>,
    /// Korrektur reason of a closed night.
    #[serde(default)]
    pub korrektur_grund: String,
    /// Present when "Tische neu auslosen" was asked for (everybody may move).
    #[serde(default)]
    pub neu_auslosen: Option<String>,
    /// Present when the re-draw was confirmed ("Ja, alle Tische neu auslosen").
    #[serde(default)]
    pub bestaetigt: Option<String>,
}

async fn save_participants(
    State(league): State<League>,
    layout: Layout,
    flash: Flash,
    RequireSecretary(user): RequireSecretary,
    at: AtNight,
    axum_extra::extract::Form(form): axum_extra::extract::Form<PresenceForm>,
) -> Result<Response, AppError> {
    let date = at.date;
    let korrektur = Korrektur {
        ticked: form.korrektur.is_some(),
        reason: form.korrektur_grund.clone(),
    };
    let ticked: BTreeSet<i64> = form.present.iter().filter_map(|v| v.parse().ok()).collect();
    let done = match form.present.iter().find(|v| v.parse::<i64>().is_err()) {
        // A value that is no player number is refused, not dropped.
        Some(v) => Err(ServiceError::refused(format!(
            "Teilnehmer: „{}“ ist keine Spielernummer.",
            v.chars().take(40).collect::<String>()
        ))),
        None => {
            let names: Option<Vec<String>> = ticked
                .iter()
                .map(|id| at.view.player_name(*id).map(str::to_string))
                .collect();
            match names {
                None => Err(ServiceError::refused(
                    "Nur Spieler der Saison können teilnehmen.",
                )),
                Some(_) if form.neu_auslosen.is_some() && form.bestaetigt.is_none() => {
                    Err(ServiceError::refused(
                        "Zum Neu-Auslosen „Ja, alle Tische neu auslosen“ ankreuzen: dann sitzt jeder neu.",
                    ))
                }
                Some(names) => {
                    let rules = &at.view.season.rules;
                    // Once a draw is shown nobody moves: who leaves is taken out, newcomers sit at
                    // the smaller table. A new draw by lot only when asked for.
                    let seats = draw::update(
                        &at.night().draw,
                        &names,
                        rules.split_tables_from,
                        form.neu_auslosen.is_some(),
                        &mut rand::rng(),
                    );
                    let edit = Edit::by(&user.username).korrektur(korrektur);
                    league
                        .change(at.year(), Change::SetDraw { date, seats }, &edit)
                        .await
                        .map(|_| ())
                }
            }
        }
    };
    let typed = Typed {
        present: Some(ticked),
        ..Typed::default()
    };
    let message = if at.night().draw.is_empty() || form.neu_auslosen.is_some() {
        "Teilnehmer gespeichert und Tische ausgelost."
    } else {
        "Teilnehmer gespeichert; wer schon saß, sitzt noch am selben Tisch."
    }
    .to_string();
    let anchor = if done.is_ok() { "tische" } else { "teilnehmer" }.to_string();
    let submitted = Submitted {
        done,
        anchor,
        message,
        typed,
    };
    finish(&league, layout, flash, date, submitted).await
}

/// The round form as sent: every field name with all its values (player rows have numbered
/// fields `played_{id}`, `outs_{id}`, `hand_outs_{id}`, `julen_{id}`, `joker_{id}`; the loser is
/// the radio `lost` = id).
pub(super) type RoundFields = BTreeMap<String, Vec<String>>;

/// The first value of field `name`.
fn first<'a>(fields: &'a RoundFields, name: &str) -> Option<&'a str> {
    fields.get(name).and_then(|v| v.first()).map(String::as_str)
}

/// Parses a count field; the error names the round, player and field (its German label).
fn count(value: &str, at: &str, field: &str) -> Result<u32, String> {
    let v = value.trim();
    if v.is_empty() {
        return Ok(0);
    }
    v.parse()
        .map_err(|_| format!("{at}, Feld {field}: „{v}“ ist keine Zahl ≥ 0"))
}

/// The row of player `id` (`name`) as typed.
fn typed_row(fields: &RoundFields, id: i64, name: &str) -> EntryRow {
    let get = |prefix: &str| first(fields, &format!("{prefix}{id}")).map(str::to_string);
    EntryRow {
        id,
        name: name.to_string(),
        played: get("played_").is_some(),
        outs: get("outs_").unwrap_or_default(),
        hand_outs: get("hand_outs_").unwrap_or_default(),
        julen: get("julen_").unwrap_or_default(),
        joker: get("joker_").is_some(),
        lost: fields
            .get("lost")
            .is_some_and(|l| l.iter().any(|v| *v == id.to_string())),
    }
}

/// The player ids a round form names (in `played_`, `outs_`, `hand_outs_`, `julen_`, `joker_`
/// keys or as `lost`) who are not in `seated`, ascending.
fn foreign_ids(fields: &RoundFields, seated: &[i64]) -> BTreeSet<i64> {
    const PREFIXES: [&str; 5] = ["played_", "outs_", "hand_outs_", "julen_", "joker_"];
    let named = fields.iter().flat_map(|(k, values)| {
        let by_key = PREFIXES
            .iter()
            .find_map(|p| k.strip_prefix(p))
            .and_then(|id| id.parse::<i64>().ok());
        let by_value: Vec<i64> = if k == "lost" {
            values.iter().filter_map(|v| v.parse().ok()).collect()
        } else {
            Vec::new()
        };
        by_key.into_iter().chain(by_value)
    });
    named.filter(|id| !seated.contains(id)).collect()
}

/// The form's own checks: one loser (a radio button cannot send two, a hand-made or replayed
/// request can) and no field sent twice (one value would silently win). German, naming night,
/// table, round, the field by its label and the player.
fn check_shape(
    fields: &RoundFields,
    date: NaiveDate,
    table: u32,
    number: &str,
    rows: &[EntryRow],
) -> Result<(), String> {
    let at = format!(
        "Abend {}, Tisch {table}, Runde {}",
        date_de(date),
        number.trim()
    );
    let name_of = |v: &str| {
        rows.iter()
            .find(|r| r.id.to_string() == v)
            .map(|r| r.name.clone())
    };
    if let Some(lost) = fields.get("lost").filter(|l| l.len() > 1) {
        let names: Vec<String> = lost
            .iter()
            .map(|v| name_of(v).unwrap_or_else(|| format!("„{v}“")))
            .collect();
        return Err(format!(
            "{at}: nur ein Spieler kann die Runde verlieren (angekreuzt: {})",
            names.join(", ")
        ));
    }
    const LABELS: [(&str, &str); 5] = [
        ("played_", "spielt mit"),
        ("outs_", "Outs"),
        ("hand_outs_", "Hand-Outs"),
        ("julen_", "Julen"),
        ("joker_", "Joker"),
    ];
    if let Some((k, _)) = fields.iter().find(|(k, v)| *k != "lost" && v.len() > 1) {
        let what = if k == "number" {
            "Rundennummer".to_string()
        } else {
            LABELS
                .iter()
                .find_map(|(prefix, label)| {
                    let id = k.strip_prefix(prefix)?;
                    let name = name_of(id).unwrap_or_else(|| format!("Nr. {id}"));
                    Some(format!("{label} von {name}"))
                })
                .unwrap_or_else(|| format!("„{k}“"))
        };
        return Err(format!("{at}: das Feld {what} wurde mehrfach geschickt"));
    }
    Ok(())
}

/// Whether a row has anything but empty or 0 in Outs, Hand-Outs, Julen, or Joker ticked.
fn has_values(r: &EntryRow) -> bool {
    let set = |v: &str| !matches!(v.trim(), "" | "0");
    r.joker || set(&r.outs) || set(&r.hand_outs) || set(&r.julen)
}

/// Turns typed rows into result rows of round `number`; German errors name the round, player and
/// field.
fn parse_round(
    date: NaiveDate,
    table: u32,
    number: &str,
    rows: &[EntryRow],
) -> Result<(u32, Vec<ResultEntry>), String> {
    let at = format!("Abend {}, Tisch {table}", date_de(date));
    let number: u32 = number
        .trim()
        .parse()
        .map_err(|_| format!("{at}: Rundennummer „{}“ ist keine Zahl", number.trim()))?;
    let unticked: Vec<String> = rows
        .iter()
        .filter(|r| !r.played && has_values(r))
        .map(|r| {
            format!(
                "Werte für {} eingetragen, aber {} ist nicht angekreuzt",
                r.name, r.name
            )
        })
        .collect();
    if !unticked.is_empty() {
        return Err(format!(
            "{at}, Runde {number}: {} (ankreuzen, wer mitgespielt hat, oder die Werte löschen)",
            unticked.join("; ")
        ));
    }
    let mut out = Vec::new();
    for r in rows.iter().filter(|r| r.played) {
        let at = format!("{at}, Runde {number}, Spieler {}", r.name);
        out.push(ResultEntry {
            player: r.name.clone(),
            outs: count(&r.outs, &at, "Outs")?,
            hand_outs: count(&r.hand_outs, &at, "Hand-Outs")?,
            julen: count(&r.julen, &at, "Julen")?,
            joker: r.joker,
            lost: r.lost,
        });
    }
    if let Some(r) = rows.iter().find(|r| r.lost && !r.played) {
        return Err(format!(
            "{at}, Runde {number}, Spieler {}: der Verlierer muss die Runde mitgespielt haben",
            r.name
        ));
    }
    Ok((number, out))
}

/// A round form of one table as read: its rows, round number field and "Runde ersetzen" box as
/// typed, the Korrektur fields, and the round number with its change, or the German refusal of
/// the form's shape (numbers, one loser, no repeated field, unknown players).
pub(super) struct ReadRound {
    /// The table's rows as typed.
    pub rows: Vec<EntryRow>,
    /// The round number field as typed.
    pub number_input: String,
    /// "Runde ersetzen" ticked.
    pub replace: bool,
    /// The Korrektur fields.
    pub korrektur: Korrektur,
    /// The round number and its `Change::PutRound`, or the refusal.
    pub parsed: Result<(u32, Change), String>,
}

/// Reads the round form `fields` of `table` at night `at` (its rows are the table's drawn
/// players; a row of another player goes to the league's check, which names him).
pub(super) fn read_round(at: &AtNight, table: u32, fields: &RoundFields) -> ReadRound {
    let date = at.date;
    let seats = draw::table_players(&at.night().draw, table);
    let id_of = |name: &str| at.view.ids.players.get(name).copied().unwrap_or_default();
    let seated: Vec<i64> = seats.iter().map(|n| id_of(n)).collect();
    let rows: Vec<EntryRow> = seats
        .iter()
        .map(|name| typed_row(fields, id_of(name), name))
        .collect();
    let number_input = first(fields, "number").unwrap_or_default().to_string();
    let replace = fields.contains_key("replace");
    let korrektur = Korrektur {
        ticked: fields.contains_key("korrektur"),
        reason: first(fields, "korrektur_grund")
            .unwrap_or_default()
            .to_string(),
    };
    // Players of other tables or not drawn go to the league's check as rows, which names them.
    let mut foreign = Vec::new();
    let mut unknown = None;
    for id in foreign_ids(fields, &seated) {
        match at.view.player_name(id) {
            Some(name) => {
                let mut row = typed_row(fields, id, name);
                row.played = true;
                foreign.push(row);
            }
            None => unknown = unknown.or(Some(id)),
        }
    }
    let parsed = check_shape(fields, date, table, &number_input, &rows)
        .and_then(|()| match unknown {
            Some(id) => Err(format!(
                "Abend {}, Tisch {table}, Runde {}: Spieler Nr. {id} gibt es nicht",
                date_de(date),
                number_input.trim()
            )),
            None => Ok(()),
        })
        .and_then(|()| parse_round(date, table, &number_input, &rows))
        .map(|(number, mut results)| {
            for r in &foreign {
                results.push(ResultEntry {
                    player: r.name.clone(),
                    outs: r.outs.trim().parse().unwrap_or(0),
                    hand_outs: r.hand_outs.trim().parse().unwrap_or(0),
                    julen: r.julen.trim().parse().unwrap_or(0),
                    joker: r.joker,
                    lost: r.lost,
                });
            }
            let change = Change::PutRound {
                date,
                table,
                number,
                results,
                replace: if replace { Replace::Any } else { Replace::No },
                seat_newcomers: false,
                schockbesteck: None,
            };
            (number, change)
        });
    ReadRound {
        rows,
        number_input,
        replace,
        korrektur,
        parsed,
    }
}

async fn save_round(
    State(league): State<League>,
    layout: Layout,
    flash: Flash,
    RequireSecretary(user): RequireSecretary,
    at: AtNight,
    axum_extra::extract::Form(fields): axum_extra::extract::Form<RoundFields>,
) -> Result<Response, AppError> {
    let date = at.date;
    let table: u32 = first(&fields, "table")
        .and_then(|v| v.parse().ok())
        .ok_or_else(|| AppError::BadRequest("Tisch fehlt".into()))?;
    if draw::table_players(&at.night().draw, table).is_empty() {
        return Err(AppError::BadRequest(format!(
            "Tisch {table} gibt es an diesem Abend nicht"
        )));
    }
    let read = read_round(&at, table, &fields);
    let done = match read.parsed {
        Err(e) => Err(ServiceError::refused(e)),
        Ok((number, change)) => {
            let edit = Edit::by(&user.username).korrektur(read.korrektur);
            league
                .change(at.year(), change, &edit)
                .await
                .map(|_| number)
        }
    };
    let message = match &done {
        Ok(n) => format!("Runde {n} an Tisch {table} gespeichert."),
        Err(_) => String::new(),
    };
    let typed = Typed {
        round: Some((table, read.number_input, read.rows, read.replace)),
        ..Typed::default()
    };
    let submitted = Submitted {
        done: done.map(|_| ()),
        anchor: format!("tisch-{table}"),
        message,
        typed,
    };
    finish(&league, layout, flash, date, submitted).await
}

/// The fine form.
#[derive(Deserialize)]
pub struct FineForm {
    /// `players.id` of the fined player.
    pub player: i64,
    /// A kind of the season's catalogue.
    pub kind: String,
    /// Present when paid at once.
    pub paid: Option<String>,
    /// Present when "Ja, noch einmal buchen" is ticked (a second fine of the kind this night).
    #[serde(default)]
    pub again: Option<String>,
    /// Korrektur fields of a closed night.
    #[serde(flatten)]
    pub korrektur: KorrekturFields,
}

async fn add_fine(
    State(league): State<League>,
    layout: Layout,
    flash: Flash,
    RequireSecretary(user): RequireSecretary,
    at: AtNight,
    Form(form): Form<FineForm>,
) -> Result<Response, AppError> {
    let date = at.date;
    let paid = form.paid.is_some();
    let player = at
        .view
        .player_name(form.player)
        .map(str::to_string)
        .ok_or_else(|| AppError::BadRequest("unbekannter Spieler".into()))?;
    let change = Change::BookFine {
        date,
        player: player.clone(),
        kind: form.kind.clone(),
        paid,
        again: form.again.is_some(),
    };
    let edit = Edit::by(&user.username).korrektur(Korrektur::from(&form.korrektur));
    let done = league.change(at.year(), change, &edit).await.map(|_| ());
    let message = format!(
        "Strafe gebucht: {player}, {} ({}).",
        fine_label(form.kind.trim()),
        if paid { "bezahlt" } else { "offen" }
    );
    let typed = Typed {
        fine: Some((form.player, form.kind.clone(), paid)),
        ..Typed::default()
    };
    let submitted = Submitted {
        done,
        anchor: "strafen".into(),
        message,
        typed,
    };
    finish(&league, layout, flash, date, submitted).await
}

/// The late-arrival form ("Nachzügler"): the player, the table (empty: the smaller one) and
/// whether to book the `late` fine with it.
#[derive(Deserialize)]
pub struct LateForm {
    /// `players.id` of the late arrival.
    pub player: i64,
    /// "1" or "2"; empty: the table with fewer players (a tie: table 2).
    #[serde(default)]
    pub table: String,
    /// Present when the fine `late` is booked in the same step.
    #[serde(default)]
    pub fine: Option<String>,
    /// Korrektur fields of a closed night.
    #[serde(flatten)]
    pub korrektur: KorrekturFields,
}

async fn seat_late_arrival(
    State(league): State<League>,
    layout: Layout,
    flash: Flash,
    RequireSecretary(user): RequireSecretary,
    at: AtNight,
    Form(form): Form<LateForm>,
) -> Result<Response, AppError> {
    let date = at.date;
    let player = at
        .view
        .player_name(form.player)
        .map(str::to_string)
        .ok_or_else(|| AppError::BadRequest("unbekannter Spieler".into()))?;
    let table = match form.table.trim() {
        "" => Ok(None),
        t => t
            .parse::<u32>()
            .map(Some)
            .map_err(|_| ServiceError::refused(format!("Tisch „{t}“ gibt es nicht."))),
    };
    let done = match table {
        Err(e) => Err(e),
        Ok(table) => {
            let mut changes = vec![Change::SeatPlayer {
                date,
                player: player.clone(),
                table,
            }];
            if form.fine.is_some() {
                changes.push(Change::BookFine {
                    date,
                    player: player.clone(),
                    kind: "late".into(),
                    paid: false,
                    again: false,
                });
            }
            let edit = Edit::by(&user.username).korrektur(Korrektur::from(&form.korrektur));
            league.changes(at.year(), &changes, &edit).await.map(|_| ())
        }
    };
    let seated = league
        .snapshot()
        .night(date)
        .and_then(|(_, n)| n.draw.iter().find(|s| s.player == player).map(|s| s.table));
    let message = match (seated, form.fine.is_some()) {
        (Some(t), true) => {
            format!("{player} spielt ab jetzt an Tisch {t} mit; Zuspätkommer gebucht.")
        }
        (Some(t), false) => format!("{player} spielt ab jetzt an Tisch {t} mit."),
        (None, _) => String::new(),
    };
    let submitted = Submitted {
        done,
        anchor: "nachzuegler".into(),
        message,
        typed: Typed::default(),
    };
    finish(&league, layout, flash, date, submitted).await
}

/// The form that closes or reopens a night: the confirmation box.
#[derive(Deserialize)]
pub struct SureForm {
    /// Present when the confirmation box is ticked.
    #[serde(default)]
    pub sicher: Option<String>,
}

async fn close_night(
    State(league): State<League>,
    layout: Layout,
    flash: Flash,
    RequireSecretary(user): RequireSecretary,
    at: AtNight,
    Form(form): Form<SureForm>,
) -> Result<Response, AppError> {
    let date = at.date;
    let done = match form.sicher {
        None => Err(ServiceError::refused(
            "Zum Abschließen „Ja, alle Runden und Strafen sind eingetragen“ ankreuzen.",
        )),
        Some(_) => league
            .change(
                at.year(),
                Change::CloseNight { date },
                &Edit::by(&user.username),
            )
            .await
            .map(|_| ()),
    };
    let submitted = Submitted {
        done,
        anchor: "abschluss".into(),
        message: format!("Spielabend {} abgeschlossen.", date_de(date)),
        typed: Typed::default(),
    };
    finish(&league, layout, flash, date, submitted).await
}

/// The last day a closed night may be reopened: the day after it (a night runs past midnight).
pub fn reopen_until(date: NaiveDate) -> NaiveDate {
    date.succ_opt().unwrap_or(date)
}

async fn reopen_night(
    State(league): State<League>,
    layout: Layout,
    flash: Flash,
    RequireSecretary(user): RequireSecretary,
    at: AtNight,
    Form(form): Form<SureForm>,
) -> Result<Response, AppError> {
    let date = at.date;
    let today = chrono::Local::now().date_naive();
    let done = if today > reopen_until(date) {
        Err(ServiceError::refused(format!(
            "Abend {}: wieder öffnen geht nur bis zum Tag danach; später nur als Korrektur.",
            date_de(date)
        )))
    } else if form.sicher.is_none() {
        Err(ServiceError::refused(
            "Zum Öffnen „Ja, den Abend wieder öffnen“ ankreuzen.",
        ))
    } else {
        league
            .change(
                at.year(),
                Change::ReopenNight { date },
                &Edit::by(&user.username),
            )
            .await
            .map(|_| ())
    };
    let submitted = Submitted {
        done,
        anchor: "abschluss".into(),
        message: format!("Spielabend {} ist wieder offen.", date_de(date)),
        typed: Typed::default(),
    };
    finish(&league, layout, flash, date, submitted).await
}

/// The paid/open toggle of a fine.
#[derive(Deserialize)]
pub struct PaidForm {
    /// "1" = paid, "0" = open.
    pub paid: String,
}

async fn toggle_fine(
    State(league): State<League>,
    flash: Flash,
    RequireSecretary(user): RequireSecretary,
    at: AtNight,
    Path((_, fine)): Path<(String, i64)>,
    Form(form): Form<PaidForm>,
) -> Result<Response, AppError> {
    let paid = form.paid == "1";
    let index = at
        .view
        .ids
        .fines
        .get(&at.date)
        .and_then(|ids| ids.iter().position(|x| *x == fine))
        .ok_or(AppError::NotFound)?;
    // Allowed on a closed night (collecting a fine later is normal); paid today.
    let change = Change::PayFine {
        date: at.date,
        index,
        paid_on: paid.then(|| chrono::Local::now().date_naive().max(at.date)),
    };
    league
        .change(at.year(), change, &Edit::by(&user.username))
        .await?;
    let message = if paid {
        "Strafe als bezahlt markiert."
    } else {
        "Strafe wieder offen."
    };
    Ok(flash
        .redirect(&format!("/verwaltung/abend/{}#strafen", at.date), message)
        .await)
}

/// The confirmation of a correction (remove or move): the box, the target table of a move, and
/// the Korrektur fields of a closed night.
#[derive(Deserialize)]
pub struct CorrectionForm {
    /// Present when the confirmation box is ticked.
    #[serde(default)]
    pub sicher: Option<String>,
    /// The table a round moves to ("1" or "2").
    #[serde(default)]
    pub nach: String,
    /// Korrektur fields of a closed night.
    #[serde(flatten)]
    pub korrektur: KorrekturFields,
}

/// A correction of the night's page: the change after the confirmation box, or the German
/// refusal naming the box (`ask`); the page again (422) on a refusal, else a redirect to `anchor`.
#[allow(clippy::too_many_arguments)]
async fn correct(
    league: &League,
    layout: Layout,
    flash: Flash,
    user: &str,
    at: &AtNight,
    form: &CorrectionForm,
    change: Change,
    ask: &str,
    anchor: &str,
    message: String,
) -> Result<Response, AppError> {
    let done = match form.sicher {
        None => Err(ServiceError::refused(format!(
            "Zum Bestätigen „{ask}“ ankreuzen."
        ))),
        Some(_) => {
            let edit = Edit::by(user).korrektur(Korrektur::from(&form.korrektur));
            league.change(at.year(), change, &edit).await.map(|_| ())
        }
    };
    let submitted = Submitted {
        done,
        anchor: anchor.to_string(),
        message,
        typed: Typed::default(),
    };
    finish(league, layout, flash, at.date, submitted).await
}

async fn remove_round(
    State(league): State<League>,
    layout: Layout,
    flash: Flash,
    RequireSecretary(user): RequireSecretary,
    at: AtNight,
    Path((_, table, number)): Path<(String, u32, u32)>,
    Form(form): Form<CorrectionForm>,
) -> Result<Response, AppError> {
    let change = Change::RemoveRound {
        date: at.date,
        table,
        number,
    };
    let message = format!("Runde {number} an Tisch {table} gelöscht.");
    let ask = format!("Ja, Runde {number} löschen");
    let anchor = format!("tisch-{table}");
    correct(
        &league,
        layout,
        flash,
        &user.username,
        &at,
        &form,
        change,
        &ask,
        &anchor,
        message,
    )
    .await
}

async fn move_round(
    State(league): State<League>,
    layout: Layout,
    flash: Flash,
    RequireSecretary(user): RequireSecretary,
    at: AtNight,
    Path((_, table, number)): Path<(String, u32, u32)>,
    Form(form): Form<CorrectionForm>,
) -> Result<Response, AppError> {
    let to: u32 = form.nach.trim().parse().map_err(|_| {
        AppError::BadRequest(format!("Tisch „{}“ gibt es nicht.", form.nach.trim()))
    })?;
    let change = Change::MoveRound {
        date: at.date,
        table,
        number,
        to,
    };
    let message = format!("Runde {number} von Tisch {table} an Tisch {to} verschoben.");
    let ask = format!("Ja, Runde {number} an Tisch {to} verschieben");
    let anchor = format!("tisch-{to}");
    correct(
        &league,
        layout,
        flash,
        &user.username,
        &at,
        &form,
        change,
        &ask,
        &anchor,
        message,
    )
    .await
}

async fn remove_fine(
    State(league): State<League>,
    layout: Layout,
    flash: Flash,
    RequireSecretary(user): RequireSecretary,
    at: AtNight,
    Path((_, fine)): Path<(String, i64)>,
    Form(form): Form<CorrectionForm>,
) -> Result<Response, AppError> {
    let index = at
        .view
        .ids
        .fines
        .get(&at.date)
        .and_then(|ids| ids.iter().position(|x| *x == fine))
        .ok_or(AppError::NotFound)?;
    let what = at
        .night()
        .fines
        .get(index)
        .map(|f| format!("{}, {}", f.player, fine_label(&f.kind)))
        .unwrap_or_default();
    let change = Change::RemoveFine {
        date: at.date,
        index,
    };
    let message = format!("Strafe gelöscht: {what}.");
    correct(
        &league,
        layout,
        flash,
        &user.username,
        &at,
        &form,
        change,
        "Ja, Strafe löschen",
        "strafen",
        message,
    )
    .await
}

async fn remove_night(
    State(league): State<League>,
    layout: Layout,
    flash: Flash,
    RequireSecretary(user): RequireSecretary,
    at: AtNight,
    Form(form): Form<CorrectionForm>,
) -> Result<Response, AppError> {
    let date = at.date;
    let done = match form.sicher {
        None => Err(ServiceError::refused(
            "Zum Löschen „Ja, den Abend mit allen Runden und Strafen löschen“ ankreuzen.",
        )),
        Some(_) => {
            let edit = Edit::by(&user.username).korrektur(Korrektur::from(&form.korrektur));
            league
                .change(at.year(), Change::RemoveNight { date }, &edit)
                .await
                .map(|_| ())
        }
    };
    match done {
        Ok(()) => Ok(flash
            .redirect(
                &format!("/verwaltung/saison/{}", at.year()),
                format!("Spielabend {} gelöscht.", date_de(date)),
            )
            .await),
        Err(e) => {
            let submitted = Submitted {
                done: Err(e),
                anchor: "loeschen".into(),
                message: String::new(),
                typed: Typed::default(),
            };
            finish(&league, layout, flash, date, submitted).await
        }
    }
}

#[cfg(test)]
mod tests;
