//! The secretary's page of one night (league.md §1, §6, §9): who is present and the draw, the
//! round form per table, the rounds entered, fines, late arrivals, closing. Its forms are answered
//! by `presence`, `round`, `fines` and `closing`; each ends in [`end`]: stored → back to this page
//! at the form's anchor with a flash message, refused → this page again (422) with what was typed
//! and the reason at the top.

use std::collections::{BTreeMap, BTreeSet};

use askama::Template;
use askama_web::WebTemplate;
use axum::extract::State;
use axum::http::{header, HeaderMap};
use axum::response::{IntoResponse, Response};
use chrono::NaiveDate;

use super::round_input::{first, Fields, RowInput};
use crate::league::model::format::{date_de, format_cents};
use crate::league::money::kasse::fine_label;
use crate::league::plan::status::{active_first, Status};
use serde::Deserialize;

use crate::league::{model::draw, Change, Korrektur};
use crate::service::{Edit, League, ServiceError};
use crate::web::kit::form::KorrekturFields;
use crate::web::kit::{AppError, AppState, AtNight, Layout, Reply, Stored};

mod rows;
pub use rows::*;

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
    /// Rounds per night (league.md §1): the highest number the round form's script proposes.
    rounds_per_night: u32,
    has_rounds: bool,
    /// The season's active players, alphabetically; then the others, folded (issue 36.4).
    present: Vec<PresentLine>,
    present_others: Vec<PresentLine>,
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
    /// The players not drawn yet who are pausiert or ausgetreten on the night's day, by name:
    /// the select's group „Pausiert / ausgetreten“.
    late_others: Vec<PresentLine>,
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
    /// The night was recorded as totals per player (a club's old spreadsheet): no rounds to enter.
    recorded_as_totals: bool,
    /// The refused form's key and its Korrektur as typed.
    korrektur_typed: Option<(String, Korrektur)>,
}

impl NightAdminPage {
    /// The Korrektur fields of the form [`korrektur_key`]`(form, a, b)`: as typed when that form
    /// was refused, else empty.
    fn korrektur_at(
        &self,
        form: &str,
        a: impl std::fmt::Display,
        b: impl std::fmt::Display,
    ) -> Korrektur {
        let key = korrektur_key(form, a, b);
        match &self.korrektur_typed {
            Some((k, typed)) if *k == key => typed.clone(),
            _ => Korrektur::default(),
        }
    }

    /// Whether the folded form [`korrektur_key`]`(form, a, b)` was the refused one (it opens).
    fn refused_here(
        &self,
        form: &str,
        a: impl std::fmt::Display,
        b: impl std::fmt::Display,
    ) -> bool {
        let key = korrektur_key(form, a, b);
        self.korrektur_typed
            .as_ref()
            .is_some_and(|(k, _)| *k == key)
    }
}

/// What a refused form of the night page typed: shown again with the refusal.
#[derive(Default)]
pub struct Typed {
    /// The refusal shown at the top.
    pub error: Option<String>,
    /// The anchor of the refused form (`tisch-1`, `strafen`, …): the refusal links to it.
    pub error_at: String,
    /// The presence form's ticked player ids.
    pub present: Option<BTreeSet<i64>>,
    /// Table, round number field, rows and the "Runde ersetzen" box as typed.
    pub round: Option<(u32, String, Vec<RowInput>, bool)>,
    /// A rejected fine form: player id, kind, paid at once.
    pub fine: Option<(i64, String, bool)>,
    /// The Korrektur box and reason as the refused form sent them, with that form's key
    /// ([`korrektur_key`]): the form comes back with them.
    pub korrektur: Option<(String, Korrektur)>,
}

/// The key of a form of the night page that carries the Korrektur fields: the form's name and
/// up to two numbers (table, round or fine id; 0 when unused), e.g. `runde-1-0`, `loeschen-1-3`.
pub fn korrektur_key(form: &str, a: impl std::fmt::Display, b: impl std::fmt::Display) -> String {
    format!("{form}-{a}-{b}")
}

/// What the night page shows beside the season file: the tables with a working scorer link
/// (table, who made it) and the Schockbesteck Runden in progress (table, round). Empty when they
/// cannot be read: the page still works.
struct NightLive {
    links: Vec<(u32, String)>,
    running: Vec<(u32, u32)>,
    /// The season's statuses by player id (issue 36.4): the order of the presence list.
    statuses: BTreeMap<i64, Status>,
}

/// The rounds of `table` at night `at` running in the Schockbesteck (empty when they cannot be
/// read).
pub async fn running_at(league: &League, at: &AtNight, table: u32) -> Vec<u32> {
    league
        .runden_running(at.id(), table)
        .await
        .unwrap_or_default()
}

async fn active_links(league: &League, at: &AtNight) -> NightLive {
    let links = league
        .active_scorer_links(at.id())
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
    let statuses = league.statuses(at.year()).await.unwrap_or_default();
    NightLive {
        links,
        running,
        statuses,
    }
}

fn render(layout: Layout, at: &AtNight, typed: Typed, live: NightLive) -> NightAdminPage {
    let today = layout.today;
    let view = &at.view;
    let season = &view.season;
    let rules = &season.rules;
    let night = at.night();
    let id_of = |name: &str| view.ids.players.get(name).copied().unwrap_or_default();
    let has_rounds = night.tables.iter().any(|t| !t.rounds.is_empty());
    // Before the draw, those who said "Ich komme" to the night planned on its day (issue 27).
    let ticked: BTreeSet<i64> = typed.present.clone().unwrap_or_else(|| {
        if night.draw.is_empty() {
            at.snapshot
                .planning
                .active_on(night.date)
                .map(|p| p.coming().map(|a| a.player_id).collect())
                .unwrap_or_default()
        } else {
            night.draw.iter().map(|s| id_of(&s.player)).collect()
        }
    });
    let present: Vec<PresentLine> = season
        .players
        .iter()
        .map(|p| PresentLine {
            id: id_of(&p.name),
            name: p.name.clone(),
            checked: ticked.contains(&id_of(&p.name)),
        })
        .collect();
    let status = |p: &PresentLine| live.statuses.get(&p.id).copied().unwrap_or_default();
    let (present, present_others) = active_first(present, night.date, |p| &p.name, status);
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
            let running: Vec<u32> = live
                .running
                .iter()
                .filter(|(t, _)| *t == number)
                .map(|(_, r)| *r)
                .collect();
            let next = next_round(&rounds, &running, rules.rounds_per_night);
            let taken = taken_numbers(&rounds, &running);
            match &typed.round {
                Some((t, round_input, rows, replace)) if *t == number => TableForm {
                    number,
                    other: 3 - number.min(2),
                    rounds,
                    replace: *replace,
                    round_input: round_input.clone(),
                    rows: rows.clone(),
                    error: typed.error.clone(),
                    running,
                    taken,
                    proposed: false,
                },
                _ => TableForm {
                    number,
                    other: 3 - number.min(2),
                    rounds,
                    replace: false,
                    round_input: next.to_string(),
                    rows: blank_rows(night, number, &view.ids.players),
                    error: None,
                    running,
                    taken,
                    proposed: true,
                },
            }
        })
        .collect();
    let fine_ids = view.ids.fines.get(&at.date);
    let mut table_numbers: Vec<u32> = night.draw.iter().map(|s| s.table).collect();
    table_numbers.dedup();
    let late_players: Vec<PresentLine> = season
        .players
        .iter()
        .filter(|p| !night.draw.iter().any(|s| s.player == p.name))
        .map(|p| PresentLine {
            id: id_of(&p.name),
            name: p.name.clone(),
            checked: false,
        })
        .collect();
    // The Nachzügler select as the presence list (issue 36.4): the active first,
    // alphabetically; the others in their own group.
    let (late_players, late_others) = active_first(late_players, night.date, |p| &p.name, status);
    NightAdminPage {
        layout,
        year: season.year,
        date: date_de(at.date),
        iso: at.date.to_string(),
        split_from: rules.split_tables_from,
        rounds_per_night: rules.rounds_per_night,
        has_rounds,
        present,
        present_others,
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
        late_others,
        table_numbers,
        late_fine: rules.fines.get("late").map(|c| format_cents(*c)),
        can_reopen: night.closed && today <= reopen_until(at.date),
        active_links: live.links,
        open_items,
        recorded_as_totals: night.recorded_as_totals(),
        korrektur_typed: typed.korrektur,
    }
}

/// The query of the night page: `korrigieren=1-3` opens the round form of table 1 with round 3
/// as stored (issue 31.11).
#[derive(Deserialize, Default)]
pub struct NightQuery {
    /// "{table}-{round}" of the round to correct.
    #[serde(default)]
    pub korrigieren: Option<String>,
}

/// The secretary's page of a night: presence and draw, the round form per table, fines, late
/// arrivals, closing; a round form kept while the login ran out comes back filled in; with
/// `?korrigieren=1-3` the form of table 1 starts from round 3 as stored.
pub async fn get(
    State(state): State<AppState>,
    layout: Layout,
    headers: HeaderMap,
    at: AtNight,
    query: Result<axum::extract::Query<NightQuery>, axum::extract::rejection::QueryRejection>,
) -> Response {
    let correcting = query
        .ok()
        .and_then(|q| q.0.korrigieren)
        .and_then(|k| {
            let (table, number) = k.split_once('-')?;
            Some((
                table.trim().parse::<u32>().ok()?,
                number.trim().parse::<u32>().ok()?,
            ))
        })
        .and_then(|(table, number)| {
            let (input, rows, replace) =
                correction_of(at.night(), table, number, &at.view.ids.players)?;
            Some((table, input, rows, replace))
        });
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
            let typed = Typed {
                round: correcting,
                ..Typed::default()
            };
            render(layout, &at, typed, links).into_response()
        }
    }
}

/// The page's typed values for a kept round form: its table's rows as typed, with the notice that
/// nothing was stored.
fn kept_round(at: &AtNight, fields: &Fields) -> Typed {
    let Some(table) = first(fields, "table").and_then(|v| v.parse::<u32>().ok()) else {
        return Typed::default();
    };
    let id_of = |name: &str| at.view.ids.players.get(name).copied().unwrap_or_default();
    let rows = draw::table_players(&at.night().draw, table)
        .iter()
        .enumerate()
        .map(|(seat, name)| RowInput::from_round_form(fields, id_of(name), seat, name))
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

/// Ends a form of the night page whose change gave `done`: stored → this page at `#anchor` with
/// `message(value)`; refused → this page again (422) with `typed` and the reason at the top (read
/// from the snapshot after the refusal); a fault → the error page.
pub async fn end<T>(
    reply: Reply,
    date: NaiveDate,
    anchor: &str,
    done: Result<T, ServiceError>,
    message: impl FnOnce(T) -> String,
    typed: Typed,
) -> Result<Response, AppError> {
    let to = format!("/verwaltung/abend/{date}#{anchor}");
    let stored = |value| Stored::at(to, message(value));
    end_with(reply, date, anchor, done, stored, typed).await
}

/// Like [`end`], with the redirect of a stored change given by `stored`.
pub async fn end_with<T>(
    reply: Reply,
    date: NaiveDate,
    anchor: &str,
    done: Result<T, ServiceError>,
    stored: impl FnOnce(T) -> Stored,
    typed: Typed,
) -> Result<Response, AppError> {
    let league = reply.league.clone();
    reply
        .finish(done, stored, async |refusal, layout| {
            let at = AtNight::find(league.snapshot(), date)?;
            let typed = Typed {
                error: Some(refusal.to_string()),
                error_at: anchor.to_string(),
                ..typed
            };
            let live = active_links(&league, &at).await;
            Ok(render(layout, &at, typed, live))
        })
        .await
}

/// The last day a closed night may be reopened: the day after it (a night runs past midnight).
pub fn reopen_until(date: NaiveDate) -> NaiveDate {
    date.succ_opt().unwrap_or(date)
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

/// A correction offered on the night's page: the change, the confirmation box's text, the
/// anchor to come back to and the flash message after it.
pub struct Correction {
    /// The change.
    pub change: Change,
    /// The text of the confirmation box ("Ja, Runde 3 löschen").
    pub ask: String,
    /// The page's anchor after it.
    pub anchor: String,
    /// The flash message after it.
    pub message: String,
    /// The form's [`korrektur_key`]: a refusal brings its Korrektur back into it.
    pub key: String,
}

/// A correction of the night's page by `user`: its change after the confirmation box, or the
/// German refusal naming the box; ends in [`end`] at its anchor with its message.
pub async fn correct(
    reply: Reply,
    user: &str,
    at: &AtNight,
    form: &CorrectionForm,
    c: Correction,
) -> Result<Response, AppError> {
    let Correction {
        change,
        ask,
        anchor,
        message,
        key,
    } = c;
    let edit = Edit::by(user).korrektur(Korrektur::from(&form.korrektur));
    let ask = format!("Zum Bestätigen „{ask}“ ankreuzen.");
    let done = confirmed(&reply, at, form.sicher.is_some(), &ask, change, &edit).await;
    let typed = Typed {
        korrektur: Some((key, Korrektur::from(&form.korrektur))),
        ..Typed::default()
    };
    end(reply, at.date, &anchor, done, |_| message, typed).await
}

/// `change` of night `at` by `edit` when the confirmation box was ticked, else the refusal
/// `ask` (German: which box to tick).
pub async fn confirmed(
    reply: &Reply,
    at: &AtNight,
    ticked: bool,
    ask: &str,
    change: Change,
    edit: &Edit,
) -> Result<(), ServiceError> {
    if !ticked {
        return Err(ServiceError::refused(ask));
    }
    reply
        .league
        .change(at.year(), change, edit)
        .await
        .map(|_| ())
}

#[cfg(test)]
mod tests;
