//! Secretary pages for one night (issue item 3, league.md §1, §6, §9): tick who is present and
//! draw the tables by lot, enter a round's results for one table in one form, record fines.
//! Every submission is one checked transaction; a rejected form keeps what was typed.

use std::collections::{BTreeMap, BTreeSet};

use askama::Template;
use askama_web::WebTemplate;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Redirect, Response};
use axum::routing::{get, post};
use axum::{Form, Router};
use chrono::NaiveDate;
use rand::seq::SliceRandom;
use rand::Rng;
use serde::Deserialize;
use serde_json::json;

use super::admin::{finish_change, korrektur_or_refusal, KorrekturFields};
use super::entry::check_change;
use super::{de_date, form_field, night_on, path_date, season_rules, AppError, AppState};
use crate::auth::{CurrentUser, RequireSecretary};
use crate::db::{self, night::Night, WriteTx};
use crate::league::file::{FineEntry, ResultEntry, RoundEntry};
use crate::league::kasse::fine_label;
use crate::league::{self};

/// The routes of this feature.
pub fn router() -> Router<AppState> {
    Router::new()
        .route("/verwaltung/abend/{date}", get(night_page))
        .route(
            "/verwaltung/abend/{date}/teilnehmer",
            post(save_participants),
        )
        .route("/verwaltung/abend/{date}/runde", post(save_round))
        .route("/verwaltung/abend/{date}/strafe", post(add_fine))
        .route(
            "/verwaltung/abend/{date}/strafe/{fine}/bezahlt",
            post(toggle_fine),
        )
}

/// The draw of league.md §9: with at least `split_from` participants they are shuffled with `rng`
/// (a CSPRNG in production) and split into table 1 (the larger half) and table 2, sizes differing
/// by at most one; fewer play at table 1 in the given order. Returns (player id, table, seat).
pub fn draw<R: Rng + ?Sized>(ids: &[i64], split_from: u32, rng: &mut R) -> Vec<(i64, u32, u32)> {
    let mut ids = ids.to_vec();
    if ids.len() < split_from as usize {
        return ids
            .into_iter()
            .enumerate()
            .map(|(seat, id)| (id, 1, seat as u32))
            .collect();
    }
    ids.shuffle(rng);
    let first = ids.len().div_ceil(2);
    ids.into_iter()
        .enumerate()
        .map(|(i, id)| {
            if i < first {
                (id, 1, i as u32)
            } else {
                (id, 2, (i - first) as u32)
            }
        })
        .collect()
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

/// A round already entered at a table, compact for the secretary's page.
pub struct EnteredRound {
    /// Round number.
    pub number: u32,
    /// The loser's name.
    pub loser: String,
    /// Every row as "Name Outs" with Hand-Outs, Julen and Joker when set, comma-separated:
    /// "Anna 2 (1 Hand-Out), Bernd 0".
    pub outs: String,
}

impl EnteredRound {
    /// The compact view of `round`.
    pub fn of(round: &RoundEntry) -> EnteredRound {
        let outs = round
            .results
            .iter()
            .map(|r| {
                let mut extra = Vec::new();
                if r.hand_outs > 0 {
                    extra.push(format!("{} Hand-Out{}", r.hand_outs, plural(r.hand_outs)));
                }
                if r.julen > 0 {
                    extra.push(format!(
                        "{} Jule{}",
                        r.julen,
                        if r.julen == 1 { "" } else { "n" }
                    ));
                }
                if r.joker {
                    extra.push("Joker".to_string());
                }
                match extra.is_empty() {
                    true => format!("{} {}", r.player, r.outs),
                    false => format!("{} {} ({})", r.player, r.outs, extra.join(", ")),
                }
            })
            .collect::<Vec<_>>()
            .join(", ");
        EnteredRound {
            number: round.number,
            loser: round
                .results
                .iter()
                .find(|r| r.lost)
                .map(|r| r.player.clone())
                .unwrap_or_else(|| "–".to_string()),
            outs,
        }
    }
}

fn plural(n: u32) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}

/// The round form of one table.
pub struct TableForm {
    /// Table number.
    pub number: u32,
    /// Round numbers already entered at it.
    pub entered: Vec<u32>,
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
#[template(path = "admin_night.html")]
struct NightAdminPage {
    user: Option<CurrentUser>,
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

/// The night on ISO `date` or 404.
async fn night_of(state: &AppState, date: &str) -> Result<Night, AppError> {
    let date = path_date(date)?;
    let mut conn = state.read.acquire().await?;
    night_on(&mut conn, date).await
}

async fn render(
    state: &AppState,
    user: CurrentUser,
    night: &Night,
    typed: Typed,
) -> Result<NightAdminPage, AppError> {
    let year = night.season as i32;
    let mut conn = state.read.acquire().await?;
    let rules = season_rules(&mut conn, year).await?;
    let players = db::player::of_season(&mut conn, year).await?;
    let drawn = db::night::participants(&mut conn, night.id).await?;
    let fines = db::night::fines(&mut conn, night.id).await?;
    let file = db::season::load_file_conn(&mut conn, year)
        .await?
        .ok_or(AppError::NotFound)?;
    let closed = db::closing::is_closed(&mut conn, night.id)
        .await?
        .unwrap_or(false);
    drop(conn);
    let entry = file.nights.iter().find(|n| n.date == night.date);
    let has_rounds = entry.is_some_and(|n| n.tables.iter().any(|t| !t.rounds.is_empty()));
    let ticked: BTreeSet<i64> = typed
        .present
        .clone()
        .unwrap_or_else(|| drawn.iter().map(|p| p.player_id).collect());
    let present = players
        .iter()
        .map(|p| PresentLine {
            id: p.id,
            name: p.name.clone(),
            checked: ticked.contains(&p.id),
        })
        .collect();
    let mut by_table: BTreeMap<u32, Vec<&db::night::Participant>> = BTreeMap::new();
    for p in &drawn {
        by_table.entry(p.table_no as u32).or_default().push(p);
    }
    let tables = by_table
        .into_iter()
        .map(|(number, seats)| {
            let mut rounds: Vec<EnteredRound> = entry
                .and_then(|n| n.tables.iter().find(|t| t.number == number))
                .map(|t| t.rounds.iter().map(EnteredRound::of).collect())
                .unwrap_or_default();
            rounds.sort_by_key(|r| r.number);
            let entered: Vec<u32> = rounds.iter().map(|r| r.number).collect();
            let next = (1..=rules.rounds_per_night)
                .find(|n| !entered.contains(n))
                .unwrap_or(rules.rounds_per_night);
            match &typed.round {
                Some((t, round_input, rows, replace)) if *t == number => TableForm {
                    number,
                    entered,
                    rounds,
                    replace: *replace,
                    round_input: round_input.clone(),
                    rows: rows.clone(),
                    error: typed.error.clone(),
                },
                _ => TableForm {
                    number,
                    entered,
                    rounds,
                    replace: false,
                    round_input: next.to_string(),
                    rows: seats
                        .iter()
                        .map(|p| EntryRow {
                            id: p.player_id,
                            name: p.name.clone(),
                            played: true,
                            outs: "0".into(),
                            hand_outs: "0".into(),
                            julen: "0".into(),
                            joker: false,
                            lost: false,
                        })
                        .collect(),
                    error: None,
                },
            }
        })
        .collect();
    let round_error = typed.round.is_some();
    Ok(NightAdminPage {
        user: Some(user),
        year,
        date: de_date(night.date),
        iso: night.date.to_string(),
        split_from: rules.split_tables_from,
        has_rounds,
        present,
        tables,
        joker_allowed: rules.joker_multiplier.is_some(),
        fines: fines
            .into_iter()
            .map(|f| FineLine {
                id: f.id,
                player: f.player,
                kind: fine_label(&f.kind).to_string(),
                amount: league::format_cents(f.amount_cents),
                paid: f.paid,
            })
            .collect(),
        kinds: rules
            .fines
            .iter()
            .map(|(k, c)| KindLine {
                kind: k.clone(),
                label: fine_label(k).to_string(),
                amount: league::format_cents(*c),
                selected: typed.fine.as_ref().is_some_and(|f| f.1 == *k),
            })
            .collect(),
        fine_players: players
            .iter()
            .map(|p| PresentLine {
                id: p.id,
                name: p.name.clone(),
                checked: typed.fine.as_ref().is_some_and(|f| f.0 == p.id),
            })
            .collect(),
        fine_paid: typed.fine.as_ref().is_some_and(|f| f.2),
        error: if round_error { None } else { typed.error },
        error_at: typed.error_at,
        closed,
    })
}

async fn night_page(
    State(state): State<AppState>,
    RequireSecretary(user): RequireSecretary,
    Path(date): Path<String>,
) -> Result<NightAdminPage, AppError> {
    let night = night_of(&state, &date).await?;
    render(&state, user, &night, Typed::default()).await
}

async fn rejected(
    state: &AppState,
    user: CurrentUser,
    night: &Night,
    typed: Typed,
) -> Result<Response, AppError> {
    let page = render(state, user, night, typed).await?;
    Ok((StatusCode::UNPROCESSABLE_ENTITY, page).into_response())
}

/// `checked` and, when it passed, the Korrektur check of `night` ([`korrektur_or_refusal`]: a
/// closed night needs the box and a reason): `Ok(Ok((value, correction)))` to go on,
/// `Ok(Err(German reason))` to show the form again.
async fn with_korrektur<T>(
    tx: &mut WriteTx,
    night: &Night,
    user: &CurrentUser,
    korrektur: &KorrekturFields,
    checked: Result<T, String>,
) -> Result<Result<(T, Option<i64>), String>, AppError> {
    match checked {
        Ok(v) => Ok(korrektur_or_refusal(tx, night.id, user, korrektur)
            .await?
            .map(|c| (v, c))),
        Err(e) => Ok(Err(e)),
    }
}

/// Ends a change of `night`: ends its correction, if any, commits and redirects to the night's
/// page at `#anchor`.
async fn done(
    mut tx: WriteTx,
    correction: Option<i64>,
    night: &Night,
    anchor: &str,
) -> Result<Response, AppError> {
    finish_change(&mut tx, correction).await?;
    tx.commit().await?;
    Ok(Redirect::to(&format!("/verwaltung/abend/{}#{anchor}", night.date)).into_response())
}

/// Player ids of a form's repeated field `name`.
fn ids_of(fields: &[(String, String)], name: &str) -> BTreeSet<i64> {
    fields
        .iter()
        .filter(|(k, _)| k == name)
        .filter_map(|(_, v)| v.parse().ok())
        .collect()
}

async fn save_participants(
    State(state): State<AppState>,
    RequireSecretary(user): RequireSecretary,
    Path(date): Path<String>,
    Form(fields): Form<Vec<(String, String)>>,
) -> Result<Response, AppError> {
    let night = night_of(&state, &date).await?;
    let year = night.season as i32;
    let ticked = ids_of(&fields, "present");
    // A value that is no player number would be dropped by ids_of: refuse it instead.
    let not_an_id = fields
        .iter()
        .find(|(k, v)| k == "present" && v.parse::<i64>().is_err())
        .map(|(_, v)| v.clone());
    let korrektur = KorrekturFields::from_pairs(&fields);
    let mut tx = state.begin_write_as(&user).await?;
    let rules = season_rules(&mut tx, year).await?;
    let season_ids: BTreeSet<i64> = db::player::of_season(&mut tx, year)
        .await?
        .into_iter()
        .map(|p| p.id)
        .collect();
    let error = if let Some(v) = not_an_id {
        Some(format!(
            "Teilnehmer: „{}“ ist keine Spielernummer.",
            v.chars().take(40).collect::<String>()
        ))
    } else if db::night::round_count(&mut tx, night.id).await? > 0 {
        Some(
            "An diesem Abend sind schon Runden eingetragen: Teilnehmer und Auslosung stehen fest."
                .to_string(),
        )
    } else if !ticked.is_subset(&season_ids) {
        Some("Nur Spieler der Saison können teilnehmen.".to_string())
    } else if ticked.len() < 2 {
        Some("Mindestens 2 Teilnehmer ankreuzen.".to_string())
    } else {
        None
    };
    // A closed night: only as a Korrektur (box and reason), else the form again with the ticks.
    let checked = error.map_or(Ok(()), Err);
    let checked = with_korrektur(&mut tx, &night, &user, &korrektur, checked).await?;
    let ((), correction) = match checked {
        Ok(v) => v,
        Err(error) => {
            drop(tx);
            let typed = Typed {
                error: Some(error),
                error_at: "teilnehmer".into(),
                present: Some(ticked),
                ..Typed::default()
            };
            return rejected(&state, user, &night, typed).await;
        }
    };
    let before: Vec<_> = db::night::participants(&mut tx, night.id)
        .await?
        .into_iter()
        .map(|p| json!([p.name, p.table_no]))
        .collect();
    let ids: Vec<i64> = ticked.into_iter().collect();
    let seats = draw(&ids, rules.split_tables_from, &mut rand::rng());
    db::night::set_participants(&mut tx, night.id, &seats).await?;
    let after: Vec<_> = db::night::participants(&mut tx, night.id)
        .await?
        .into_iter()
        .map(|p| json!([p.name, p.table_no]))
        .collect();
    db::audit::record(
        &mut tx,
        &user.username,
        &format!("Teilnehmer und Auslosung {}", night.date),
        Some(&json!(before)),
        Some(&json!(after)),
    )
    .await?;
    done(tx, correction, &night, "tische").await
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

/// The round form as typed: table, round number field, rows of the table's players.
fn typed_rows(
    fields: &[(String, String)],
    seats: &[db::night::Participant],
) -> (String, Vec<EntryRow>) {
    let get = |key: String| form_field(fields, &key).map(str::to_string);
    let lost: BTreeSet<i64> = ids_of(fields, "lost");
    let rows = seats
        .iter()
        .map(|p| EntryRow {
            id: p.player_id,
            name: p.name.clone(),
            played: get(format!("played_{}", p.player_id)).is_some(),
            outs: get(format!("outs_{}", p.player_id)).unwrap_or_default(),
            hand_outs: get(format!("hand_outs_{}", p.player_id)).unwrap_or_default(),
            julen: get(format!("julen_{}", p.player_id)).unwrap_or_default(),
            joker: get(format!("joker_{}", p.player_id)).is_some(),
            lost: lost.contains(&p.player_id),
        })
        .collect();
    (get("number".into()).unwrap_or_default(), rows)
}

/// The player ids a round form names (in `played_`, `outs_`, `hand_outs_`, `julen_`, `joker_`
/// keys or as `lost`) who are not seated in `seats` (the form's table), ascending.
fn foreign_ids(fields: &[(String, String)], seats: &[db::night::Participant]) -> BTreeSet<i64> {
    const PREFIXES: [&str; 5] = ["played_", "outs_", "hand_outs_", "julen_", "joker_"];
    fields
        .iter()
        .filter_map(|(k, v)| {
            if k == "lost" {
                return v.parse().ok();
            }
            PREFIXES
                .iter()
                .find_map(|p| k.strip_prefix(p))
                .and_then(|id| id.parse().ok())
        })
        .filter(|id| !seats.iter().any(|p| p.player_id == *id))
        .collect()
}

/// Refuses a round form with more than one `lost` value (a radio button cannot send two, a
/// hand-made or replayed request can): the German error names night, table, round and losers.
fn one_loser(
    fields: &[(String, String)],
    date: NaiveDate,
    table: u32,
    number: &str,
    rows: &[EntryRow],
) -> Result<(), String> {
    let lost: Vec<&str> = fields
        .iter()
        .filter(|(k, _)| k == "lost")
        .map(|(_, v)| v.as_str())
        .collect();
    if lost.len() <= 1 {
        return Ok(());
    }
    let names: Vec<String> = lost
        .iter()
        .map(|v| {
            rows.iter()
                .find(|r| r.id.to_string() == *v)
                .map(|r| r.name.clone())
                .unwrap_or_else(|| format!("„{v}“"))
        })
        .collect();
    Err(format!(
        "Abend {}, Tisch {table}, Runde {}: nur ein Spieler kann die Runde verlieren (angekreuzt: {})",
        de_date(date),
        number.trim(),
        names.join(", ")
    ))
}

/// Refuses a round form that sends a field twice (`outs_9=1&outs_9=3`: a browser never does, a
/// hand-made or replayed request can, and one of the values would silently win): the German error
/// names night, table, round, the field by its label and the player.
fn no_repeated_field(
    fields: &[(String, String)],
    date: NaiveDate,
    table: u32,
    number: &str,
    rows: &[EntryRow],
) -> Result<(), String> {
    const LABELS: [(&str, &str); 5] = [
        ("played_", "spielt mit"),
        ("outs_", "Outs"),
        ("hand_outs_", "Hand-Outs"),
        ("julen_", "Julen"),
        ("joker_", "Joker"),
    ];
    let mut seen: BTreeSet<&str> = BTreeSet::new();
    for (k, _) in fields {
        if k == "lost" || seen.insert(k.as_str()) {
            continue;
        }
        let what = if k == "number" {
            "Rundennummer".to_string()
        } else {
            LABELS
                .iter()
                .find_map(|(prefix, label)| {
                    let id = k.strip_prefix(prefix)?;
                    let name = rows
                        .iter()
                        .find(|r| r.id.to_string() == id)
                        .map_or_else(|| format!("Nr. {id}"), |r| r.name.clone());
                    Some(format!("{label} von {name}"))
                })
                .unwrap_or_else(|| format!("„{k}“"))
        };
        return Err(format!(
            "Abend {}, Tisch {table}, Runde {}: das Feld {what} wurde mehrfach geschickt",
            de_date(date),
            number.trim()
        ));
    }
    Ok(())
}

/// Whether a row has anything but empty or 0 in Outs, Hand-Outs, Julen, or Joker ticked.
fn has_values(r: &EntryRow) -> bool {
    let set = |v: &str| !matches!(v.trim(), "" | "0");
    r.joker || set(&r.outs) || set(&r.hand_outs) || set(&r.julen)
}

/// Turns typed rows into result entries (player id, row) of round `number`; German errors name
/// the round, player and field.
fn parse_round(
    date: NaiveDate,
    table: u32,
    number: &str,
    rows: &[EntryRow],
) -> Result<(u32, Vec<(i64, ResultEntry)>), String> {
    let at = format!("Abend {}, Tisch {table}", de_date(date));
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
        out.push((
            r.id,
            ResultEntry {
                player: r.name.clone(),
                outs: count(&r.outs, &at, "Outs")?,
                hand_outs: count(&r.hand_outs, &at, "Hand-Outs")?,
                julen: count(&r.julen, &at, "Julen")?,
                joker: r.joker,
                lost: r.lost,
            },
        ));
    }
    if let Some(r) = rows.iter().find(|r| r.lost && !r.played) {
        return Err(format!(
            "{at}, Runde {number}, Spieler {}: der Verlierer muss die Runde mitgespielt haben",
            r.name
        ));
    }
    Ok((number, out))
}

async fn save_round(
    State(state): State<AppState>,
    RequireSecretary(user): RequireSecretary,
    Path(date): Path<String>,
    Form(fields): Form<Vec<(String, String)>>,
) -> Result<Response, AppError> {
    let night = night_of(&state, &date).await?;
    let year = night.season as i32;
    let table: u32 = form_field(&fields, "table")
        .and_then(|v| v.parse().ok())
        .ok_or_else(|| AppError::BadRequest("Tisch fehlt".into()))?;
    let mut tx = state.begin_write_as(&user).await?;
    let drawn = db::night::participants(&mut tx, night.id).await?;
    let seats: Vec<_> = drawn
        .iter()
        .filter(|p| p.table_no as u32 == table)
        .cloned()
        .collect();
    if seats.is_empty() {
        return Err(AppError::BadRequest(format!(
            "Tisch {table} gibt es an diesem Abend nicht"
        )));
    }
    let (number_input, rows) = typed_rows(&fields, &seats);
    let replace = fields.iter().any(|(k, _)| k == "replace");
    let mut foreign = Vec::new();
    for id in foreign_ids(&fields, &seats) {
        let name = match drawn.iter().find(|p| p.player_id == id) {
            Some(p) => format!("{} ist an Tisch {} ausgelost", p.name, p.table_no),
            None => match db::player::by_id(&mut tx, id).await? {
                Some((_, name)) => format!("{name} ist an diesem Abend nicht ausgelost"),
                None => format!("Spieler Nr. {id} gibt es nicht"),
            },
        };
        foreign.push(name);
    }
    let parsed = one_loser(&fields, night.date, table, &number_input, &rows)
        .and_then(|()| no_repeated_field(&fields, night.date, table, &number_input, &rows))
        .and_then(|()| match foreign.is_empty() {
            true => Ok(()),
            false => Err(format!(
                "Abend {}, Tisch {table}, Runde {}: {}; hier nur Spieler von Tisch {table} eintragen",
                de_date(night.date),
                number_input.trim(),
                foreign.join("; ")
            )),
        })
        .and_then(|()| parse_round(night.date, table, &number_input, &rows));
    let checked = match parsed {
        Err(e) => Err(e),
        Ok((number, results)) => {
            let entries: Vec<ResultEntry> = results.iter().map(|(_, r)| r.clone()).collect();
            let date = night.date;
            let round = check_change(&mut tx, year, |file| {
                let n = file
                    .nights
                    .iter_mut()
                    .find(|n| n.date == date)
                    .ok_or("Spielabend fehlt in der Saison")?;
                let old = n
                    .tables
                    .iter()
                    .find(|t| t.number == table)
                    .and_then(|t| t.rounds.iter().find(|r| r.number == number));
                if let Some(old) = old.filter(|_| !replace) {
                    let shown = EnteredRound::of(old);
                    return Err(format!(
                        "Abend {}, Tisch {table}, Runde {number} ist schon eingetragen \
                         (verloren: {}; Outs: {}). Zum Überschreiben „Runde ersetzen“ \
                         ankreuzen, sonst eine andere Rundennummer eingeben.",
                        de_date(date),
                        shown.loser,
                        shown.outs
                    ));
                }
                n.put_round(table, number, entries);
                Ok(())
            })
            .await?;
            round.map(|_| (number, results))
        }
    };
    let korrektur = KorrekturFields::from_pairs(&fields);
    let checked = with_korrektur(&mut tx, &night, &user, &korrektur, checked).await?;
    let ((number, results), correction) = match checked {
        Ok(v) => v,
        Err(error) => {
            drop(tx);
            let typed = Typed {
                error: Some(error),
                error_at: format!("tisch-{table}"),
                round: Some((table, number_input, rows, replace)),
                ..Typed::default()
            };
            return rejected(&state, user, &night, typed).await;
        }
    };
    // The audit triggers record every result removed and entered, with who (begin_write_as).
    db::night::put_round(&mut tx, night.id, table, number, &results).await?;
    done(tx, correction, &night, &format!("tisch-{table}")).await
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
    /// Korrektur box of a closed night (see [`KorrekturFields`]).
    #[serde(default)]
    pub korrektur: Option<String>,
    /// Korrektur reason of a closed night.
    #[serde(default)]
    pub korrektur_grund: String,
}

async fn add_fine(
    State(state): State<AppState>,
    RequireSecretary(user): RequireSecretary,
    Path(date): Path<String>,
    Form(form): Form<FineForm>,
) -> Result<Response, AppError> {
    let night = night_of(&state, &date).await?;
    let year = night.season as i32;
    let paid = form.paid.is_some();
    let mut tx = state.begin_write_as(&user).await?;
    let (_, name) = db::player::by_id(&mut tx, form.player)
        .await?
        .ok_or_else(|| AppError::BadRequest("unbekannter Spieler".into()))?;
    let nd = night.date;
    let checked = check_change(&mut tx, year, |file| {
        let n = file
            .nights
            .iter_mut()
            .find(|n| n.date == nd)
            .ok_or("Spielabend fehlt in der Saison")?;
        n.fines.push(FineEntry {
            player: name.clone(),
            kind: form.kind.clone(),
            paid,
            amount_cents: None,
        });
        Ok(())
    })
    .await?;
    let korrektur = KorrekturFields {
        korrektur: form.korrektur.clone(),
        korrektur_grund: form.korrektur_grund.clone(),
    };
    let checked = checked.map(|(_, season)| season);
    let checked = with_korrektur(&mut tx, &night, &user, &korrektur, checked).await?;
    let (season, correction) = match checked {
        Ok(v) => v,
        Err(error) => {
            drop(tx);
            let typed = Typed {
                error: Some(error),
                error_at: "strafen".into(),
                fine: Some((form.player, form.kind.clone(), paid)),
                ..Typed::default()
            };
            return rejected(&state, user, &night, typed).await;
        }
    };
    let amount = season
        .rules
        .fines
        .get(&form.kind)
        .copied()
        .ok_or_else(|| AppError::BadRequest("unbekannte Strafe".into()))?;
    // Audited by the fines trigger (who, night, player, kind, amount, paid).
    db::night::add_fine(&mut tx, night.id, form.player, &form.kind, amount, paid).await?;
    done(tx, correction, &night, "strafen").await
}

/// The paid/open toggle of a fine.
#[derive(Deserialize)]
pub struct PaidForm {
    /// "1" = paid, "0" = open.
    pub paid: String,
}

async fn toggle_fine(
    State(state): State<AppState>,
    RequireSecretary(user): RequireSecretary,
    Path((date, fine)): Path<(String, i64)>,
    Form(form): Form<PaidForm>,
) -> Result<Response, AppError> {
    let night = night_of(&state, &date).await?;
    let paid = form.paid == "1";
    let mut tx = state.begin_write_as(&user).await?;
    let before = db::night::fines(&mut tx, night.id)
        .await?
        .into_iter()
        .find(|f| f.id == fine)
        .ok_or(AppError::NotFound)?;
    // Audited by the fines trigger; allowed on a closed night (collecting a fine later is normal).
    if before.paid != paid {
        db::night::set_fine_paid(&mut tx, night.id, fine, paid).await?;
    }
    tx.commit().await?;
    Ok(Redirect::to(&format!("/verwaltung/abend/{}#strafen", night.date)).into_response())
}

#[cfg(test)]
#[path = "tests/night.rs"]
mod tests;
