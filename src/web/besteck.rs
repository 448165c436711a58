//! The secretary's Schockbesteck (issue 4 items 2–3): live scoring of one Runde at a table of a
//! night, Wurfrunde by Wurfrunde, with the pure engine (`rules::RundeState`, schocken-rules.md §6–§7).
//!
//! The Runde in progress is stored as the engine's record (`db::besteck`) and rebuilt by replaying
//! it on every request, so it survives reloads and restarts; the last Wurfrunde is corrected by
//! replaying all but it. When the Runde has a loser, its Outs, Hand-Outs, Julen and loser fill the
//! round's result form; confirming stores the round (league.md §1 checks via `Season::from_file`)
//! with the tallies recomputed from the throws, never from the posted numbers. Every page and POST
//! needs a secretary (or admin) login. Plain server-rendered forms, no script.

use std::collections::HashMap;

use askama::Template;
use askama_web::WebTemplate;
use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Redirect, Response};
use axum::routing::{get, post};
use axum::{Form, Router};
use chrono::NaiveDate;
use serde::Deserialize;
use sqlx::SqliteConnection;

use super::admin::{finish_change, korrektur_or_refusal, KorrekturFields};
use super::{de_date, form_field, night_on, path_date, season_rules, AppError, AppState};
use crate::auth::{CurrentUser, RequireSecretary};
use crate::db::{self, WriteTx};
use crate::league::file::{NightEntry, ResultEntry};
use crate::league::Season;
use crate::rules::{
    max_outs_per_round, AppliedWurfrunde, RuleSet, RundeState, ThrowInput, Transfer,
    WurfrundeOutcome,
};

/// The routes of this feature (all under `/verwaltung/besteck`).
pub fn router() -> Router<AppState> {
    Router::new()
        .route("/verwaltung/besteck/{date}", get(night_page))
        .route(
            "/verwaltung/besteck/{date}/{table}/{round}",
            get(runde_page),
        )
        .route(
            "/verwaltung/besteck/{date}/{table}/{round}/start",
            post(start),
        )
        .route(
            "/verwaltung/besteck/{date}/{table}/{round}/wurfrunde",
            post(wurfrunde),
        )
        .route(
            "/verwaltung/besteck/{date}/{table}/{round}/zurueck",
            post(undo),
        )
        .route(
            "/verwaltung/besteck/{date}/{table}/{round}/verwerfen",
            post(discard),
        )
        .route(
            "/verwaltung/besteck/{date}/{table}/{round}/bestaetigen",
            post(confirm),
        )
}

/// A form posted as its raw (name, value) pairs: player rows have numbered fields, checkboxes repeat.
type Pairs = Vec<(String, String)>;

/// All values of field `name` (ticked checkboxes of one name).
fn fields<'a>(form: &'a Pairs, name: &str) -> Vec<&'a str> {
    form.iter()
        .filter(|(k, _)| k == name)
        .map(|(_, v)| v.as_str())
        .collect()
}

/// Reads final dice as typed on a phone: three digits, separators allowed ("421", "4-2-1",
/// "4 2 1"). The values are not range-checked here (the engine names the player and Wurf for a 7).
/// Errors: German message naming the player.
pub fn parse_dice(player: &str, typed: &str) -> Result<Vec<i64>, String> {
    let digits: Vec<i64> = typed
        .chars()
        .filter(|c| !matches!(c, ' ' | '-' | ',' | '.' | '/'))
        .map(|c| c.to_digit(10).map(i64::from).ok_or(()))
        .collect::<Result<_, _>>()
        .map_err(|_| {
            format!("Spieler {player}: „{typed}“ sind keine Augenzahlen (drei Ziffern, z. B. 421)")
        })?;
    if digits.len() != 3 {
        return Err(format!(
            "Spieler {player}: {} Augenzahlen eingegeben, es sind genau 3 (z. B. 421)",
            digits.len()
        ));
    }
    Ok(digits)
}

/// One player's row of the Wurfrunde form, as typed (kept on a rejected submission).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TypedThrow {
    /// The player's name (hidden field `p{i}`).
    pub player: String,
    /// The dice as typed (`w{i}`), e.g. "421".
    pub dice: String,
    /// Würfe used (`n{i}`), 1..=3; 1 when absent.
    pub wuerfe: u8,
    /// "aus der Hand" ticked (`h{i}`); only read when more than one Wurf was used.
    pub hand: bool,
}

impl TypedThrow {
    /// The engine's input: dice with Würfe; from_hand is the engine's default (true) for one Wurf,
    /// the ticked box otherwise. Errors: dice that are not three digits (German, naming the player).
    pub fn to_input(&self) -> Result<ThrowInput, String> {
        let dice = parse_dice(&self.player, &self.dice)?;
        Ok(ThrowInput {
            player: self.player.clone(),
            dice: Some(dice),
            wuerfe: Some(i64::from(self.wuerfe)),
            from_hand: (self.wuerfe > 1).then_some(self.hand),
            sequence: None,
            class: None,
        })
    }

    /// The form row of an applied throw (for correcting an undone Wurfrunde).
    fn from_input(t: &ThrowInput) -> Self {
        let wuerfe = t
            .wuerfe
            .and_then(|w| u8::try_from(w).ok())
            .unwrap_or(1)
            .clamp(1, 3);
        TypedThrow {
            player: t.player.clone(),
            dice: t
                .dice
                .as_ref()
                .map(|d| d.iter().map(|v| v.to_string()).collect())
                .unwrap_or_default(),
            wuerfe,
            hand: t.from_hand.unwrap_or(wuerfe == 1),
        }
    }
}

/// Reads the rows `p{i}`, `w{i}`, `n{i}`, `h{i}` for i = 0, 1, … while `p{i}` exists.
pub fn typed_throws(form: &Pairs) -> Vec<TypedThrow> {
    (0..)
        .map_while(|i| {
            form_field(form, &format!("p{i}")).map(|player| TypedThrow {
                player: player.to_string(),
                dice: form_field(form, &format!("w{i}"))
                    .unwrap_or("")
                    .trim()
                    .to_string(),
                wuerfe: form_field(form, &format!("n{i}"))
                    .and_then(|n| n.trim().parse().ok())
                    .unwrap_or(1),
                hand: form_field(form, &format!("h{i}")).is_some(),
            })
        })
        .collect()
}

/// What every page and action of one Runde needs: the night, its season rules, the players drawn
/// to the table (seat order), the round numbers already entered there and the Runde in progress.
struct Ctx {
    night_id: i64,
    season: i32,
    date: NaiveDate,
    table: u32,
    round: u32,
    rounds_per_night: u32,
    table_players: Vec<String>,
    /// Player ids of the Runde's players, by name.
    ids: HashMap<String, i64>,
    joker_allowed: bool,
    /// The season's dice RuleSet (`rules.game`), under which a new Runde is played.
    game: RuleSet,
    entered: Vec<u32>,
    runde: Option<RundeState>,
    /// The night is closed: saving the result needs a Korrektur.
    closed: bool,
}

impl Ctx {
    fn base(&self) -> String {
        format!(
            "/verwaltung/besteck/{}/{}/{}",
            self.date, self.table, self.round
        )
    }
}

/// Loads the context of round `round` at `table` of the night on `date`. Unknown night, a table
/// without drawn players or a round number outside 1..=rounds_per_night: 404.
async fn load(
    conn: &mut SqliteConnection,
    date: NaiveDate,
    table: u32,
    round: u32,
) -> Result<Ctx, AppError> {
    let night = night_on(&mut *conn, date).await?;
    let season = i32::try_from(night.season).map_err(|_| AppError::NotFound)?;
    let rules = season_rules(&mut *conn, season).await?;
    if !(1..=rules.rounds_per_night).contains(&round) {
        return Err(AppError::NotFound);
    }
    let game = RuleSet::from_json(&rules.game)
        .map_err(|e| AppError::Internal(format!("Regelwerk der Saison {season}: {e}")))?;
    let table_players: Vec<String> = db::night::participants(&mut *conn, night.id)
        .await?
        .into_iter()
        .filter(|p| p.table_no == i64::from(table))
        .map(|p| p.name)
        .collect();
    if table_players.is_empty() {
        return Err(AppError::NotFound);
    }
    let entered = db::night::round_numbers(&mut *conn, night.id, table).await?;
    let night_closed = db::closing::is_closed(&mut *conn, night.id)
        .await?
        .unwrap_or(false);
    let runde = match db::besteck::get(&mut *conn, night.id, table, round).await? {
        Some(record) => Some(
            RundeState::try_from(record)
                .map_err(|e| AppError::Internal(format!("gespeicherte Runde: {e}")))?,
        ),
        None => None,
    };
    let mut ids = HashMap::new();
    for name in runde.iter().flat_map(|r| r.players()) {
        let (id, _) = db::player::by_name(&mut *conn, name)
            .await?
            .ok_or_else(|| AppError::Internal(format!("Spieler {name} fehlt")))?;
        ids.insert(name.clone(), id);
    }
    Ok(Ctx {
        night_id: night.id,
        season,
        date,
        table,
        round,
        rounds_per_night: rules.rounds_per_night,
        table_players,
        ids,
        joker_allowed: rules.joker_multiplier.is_some(),
        game,
        entered,
        runde,
        closed: night_closed,
    })
}

// ---------------------------------------------------------------------------------------------
// Views

/// One seat of the Deckel table.
pub struct SeatView {
    /// The player's name.
    pub player: String,
    /// Deckel he holds in the current part.
    pub deckel: u8,
    /// "Vorleger", "ausgeschieden", "spielt das Finale nicht", "verliert die Runde" or "".
    pub status: &'static str,
}

/// One line of a Wurfrunde's ranking, highest first.
pub struct RankView {
    /// 1 = highest.
    pub place: usize,
    /// The player's name.
    pub player: String,
    /// German label of the result, e.g. "Schock 5".
    pub label: String,
    /// Final dice, e.g. "4-2-1".
    pub dice: String,
    /// Würfe used.
    pub wuerfe: u8,
    /// From the hand.
    pub from_hand: bool,
}

/// One applied Wurfrunde, described.
pub struct WurfrundeView {
    /// 1-based number within the Runde.
    pub number: usize,
    /// "Hälfte 1", "Hälfte 2" or "Finale", with "(Auswürfeln)".
    pub part: String,
    /// The ranking, highest first.
    pub ranking: Vec<RankView>,
    /// Who takes how many Deckel from where.
    pub deckel: String,
    /// Players who dropped out with it.
    pub newly_out: Vec<String>,
    /// "Bernd hat Hälfte 1 verloren." when it ended a part.
    pub part_end: Option<String>,
}

/// One field row of the Wurfrunde form.
pub struct EntryRow {
    /// Row index (field suffix).
    pub i: usize,
    /// The thrower.
    pub player: String,
    /// Dice as typed.
    pub dice: String,
    /// The options of the Würfe select.
    pub wuerfe: Vec<WuerfeOption>,
    /// "aus der Hand" ticked.
    pub hand: bool,
    /// He is the Vorleger.
    pub vorleger: bool,
}

/// One option of a Würfe select.
pub struct WuerfeOption {
    /// Würfe, 1..=3.
    pub n: u8,
    /// Preselected.
    pub selected: bool,
}

/// One row of the prefilled result form (the fields of the round-entry form: `played_{id}`,
/// `outs_{id}`, `hand_outs_{id}`, `julen_{id}`, `joker_{id}`, radio `lost` = id).
pub struct ConfirmRow {
    /// The player's id (field suffix).
    pub id: i64,
    /// The player's name.
    pub player: String,
    /// Schock Outs thrown.
    pub outs: u32,
    /// Hand-Outs among them.
    pub hand_outs: u32,
    /// Julen thrown.
    pub julen: u32,
    /// Lost the Runde.
    pub lost: bool,
    /// Joker ticked.
    pub joker: bool,
}

/// The Schockbesteck page of one Runde.
#[derive(Template, WebTemplate)]
#[template(path = "besteck/runde.html")]
pub struct RundePage {
    user: Option<CurrentUser>,
    date: String,
    iso_date: String,
    table: u32,
    round: u32,
    base: String,
    error: Option<String>,
    notice: Option<String>,
    already_entered: bool,
    /// Start form (no Runde in progress): the table's players in seat order.
    start_players: Vec<String>,
    started: bool,
    finished: bool,
    seq: usize,
    part: String,
    seats: Vec<SeatView>,
    stock: u8,
    half_losers: Vec<String>,
    finale: Option<String>,
    loser: Option<String>,
    last: Option<WurfrundeView>,
    history: Vec<WurfrundeView>,
    auswuerfeln: bool,
    blind_allowed: bool,
    entry: Vec<EntryRow>,
    confirm: Vec<ConfirmRow>,
    joker_allowed: bool,
    next_round: Option<u32>,
    /// The night is closed: the confirm form carries the Korrektur fieldset.
    closed: bool,
}

fn dice_text(d: [u8; 3]) -> String {
    format!("{}-{}-{}", d[0], d[1], d[2])
}

/// Describes one applied Wurfrunde from its outcome.
fn describe(number: usize, o: &WurfrundeOutcome, stock_total: u8) -> WurfrundeView {
    let e = &o.evaluation;
    let ranking = e
        .order
        .iter()
        .enumerate()
        .filter_map(|(k, name)| {
            e.results
                .iter()
                .find(|r| &r.player == name)
                .map(|r| RankView {
                    place: k + 1,
                    player: r.player.clone(),
                    label: r.label.clone(),
                    dice: dice_text(r.dice),
                    wuerfe: r.wuerfe,
                    from_hand: r.from_hand,
                })
        })
        .collect();
    let deckel = match o.transfer {
        Transfer::All => format!(
            "{} nimmt alle {stock_total} Deckel (Schock Out von {})",
            e.lowest, e.highest
        ),
        Transfer::Stock(k) => format!("{} nimmt {k} Deckel aus dem Stock", e.lowest),
        Transfer::Player(k) => format!("{} nimmt {k} Deckel von {}", e.lowest, e.highest),
    };
    let mut part = o.part.german().to_string();
    if o.auswuerfeln {
        part.push_str(" (Auswürfeln)");
    }
    WurfrundeView {
        number,
        part: part.clone(),
        ranking,
        deckel,
        // when the part ends, everyone else is "out" of it: not worth saying
        newly_out: if o.part_loser.is_some() {
            Vec::new()
        } else {
            o.newly_out.clone()
        },
        part_end: o
            .part_loser
            .as_ref()
            .map(|l| format!("{l} hat {} verloren.", o.part.german())),
    }
}

/// Replays the Runde's Wurfrunden one by one and describes each (the state itself is `runde`).
fn history(runde: &RundeState) -> Vec<WurfrundeView> {
    let Ok(mut s) = RundeState::new(runde.players().to_vec(), runde.rules().clone()) else {
        return Vec::new();
    };
    let total = runde.rules().stock;
    let mut out = Vec::new();
    for (i, w) in runde.wurfrunden().iter().enumerate() {
        match s.apply_blind(w.throws.clone(), w.blind) {
            Ok(o) => out.push(describe(i + 1, &o, total)),
            Err(_) => break,
        }
    }
    out
}

/// The form rows for the next Wurfrunde; `typed` (a rejected or undone Wurfrunde) fills them
/// where the player matches.
fn entry_rows(runde: &RundeState, typed: &[TypedThrow]) -> Vec<EntryRow> {
    let vorleger = runde.vorleger();
    runde
        .next_throwers()
        .into_iter()
        .enumerate()
        .map(|(i, p)| {
            let t = typed.iter().find(|t| t.player == p);
            let w = t.map(|t| t.wuerfe).unwrap_or(1);
            EntryRow {
                i,
                player: p.to_string(),
                dice: t.map(|t| t.dice.clone()).unwrap_or_default(),
                wuerfe: (1..=3)
                    .map(|n| WuerfeOption {
                        n,
                        selected: n == w,
                    })
                    .collect(),
                hand: t.map(|t| t.hand).unwrap_or(false),
                vorleger: Some(p) == vorleger,
            }
        })
        .collect()
}

/// The prefilled result rows of a finished Runde, in seat order; `jokers` are the ticked names.
fn confirm_rows(
    runde: &RundeState,
    ids: &HashMap<String, i64>,
    jokers: &[&str],
) -> Vec<ConfirmRow> {
    runde
        .tallies()
        .into_iter()
        .map(|t| ConfirmRow {
            id: ids.get(&t.player).copied().unwrap_or_default(),
            joker: jokers.contains(&t.player.as_str()),
            player: t.player,
            outs: t.outs,
            hand_outs: t.hand_outs,
            julen: t.julen,
            lost: t.lost,
        })
        .collect()
}

/// What a page shows besides the state: a message, kept input.
#[derive(Default)]
struct Extra<'a> {
    error: Option<String>,
    notice: Option<String>,
    typed: &'a [TypedThrow],
    jokers: &'a [&'a str],
}

impl Extra<'_> {
    /// Only the error message `msg` (a refusal that keeps nothing typed).
    fn error(msg: impl Into<String>) -> Self {
        Extra {
            error: Some(msg.into()),
            ..Extra::default()
        }
    }
}

fn render(user: CurrentUser, ctx: &Ctx, extra: Extra<'_>) -> RundePage {
    let mut page = RundePage {
        user: Some(user),
        date: de_date(ctx.date),
        iso_date: ctx.date.to_string(),
        table: ctx.table,
        round: ctx.round,
        base: ctx.base(),
        error: extra.error,
        notice: extra.notice,
        already_entered: ctx.entered.contains(&ctx.round),
        start_players: ctx.table_players.clone(),
        started: false,
        finished: false,
        seq: 0,
        part: String::new(),
        seats: Vec::new(),
        stock: 0,
        half_losers: Vec::new(),
        finale: None,
        loser: None,
        last: None,
        history: Vec::new(),
        auswuerfeln: false,
        blind_allowed: false,
        entry: Vec::new(),
        confirm: Vec::new(),
        joker_allowed: ctx.joker_allowed,
        next_round: (ctx.round < ctx.rounds_per_night).then_some(ctx.round + 1),
        closed: ctx.closed,
    };
    let Some(runde) = &ctx.runde else {
        return page;
    };
    page.started = true;
    page.finished = runde.is_finished();
    page.seq = runde.wurfrunden().len();
    page.part = match runde.part() {
        Some(p) if runde.is_auswuerfeln() => format!("{} – Auswürfeln", p.german()),
        Some(p) => p.german().to_string(),
        None => "beendet".to_string(),
    };
    let part_players = runde.part_players();
    let out = runde.out_players();
    let vorleger = runde.vorleger();
    page.seats = runde
        .deckel()
        .into_iter()
        .map(|(p, d)| SeatView {
            player: p.to_string(),
            deckel: d,
            status: if runde.loser() == Some(p) {
                "verliert die Runde"
            } else if runde.is_finished() {
                ""
            } else if !part_players.contains(&p) {
                "spielt das Finale nicht"
            } else if out.contains(&p) {
                "ausgeschieden"
            } else if vorleger == Some(p) {
                "Vorleger"
            } else {
                ""
            },
        })
        .collect();
    page.stock = runde.stock();
    page.half_losers = runde
        .half_losers()
        .iter()
        .enumerate()
        .map(|(i, p)| format!("Hälfte {} verloren: {p}", i + 1))
        .collect();
    let hl = runde.half_losers();
    if hl.len() == 2 && hl[0] != hl[1] {
        page.finale = Some(format!("Finale: {} gegen {}", hl[0], hl[1]));
    }
    page.loser = runde.loser().map(str::to_string);
    let mut hist = history(runde);
    page.last = hist.pop();
    hist.reverse();
    page.history = hist;
    page.auswuerfeln = runde.is_auswuerfeln();
    page.blind_allowed = runde.rules().blind && !runde.is_auswuerfeln();
    if runde.is_finished() {
        page.confirm = confirm_rows(runde, &ctx.ids, extra.jokers);
    } else {
        page.entry = entry_rows(runde, extra.typed);
    }
    page
}

/// The table's players in seat order starting with `vorleger`, only those ticked.
pub fn seat_order(table_players: &[String], ticked: &[&str], vorleger: &str) -> Vec<String> {
    let playing: Vec<String> = table_players
        .iter()
        .filter(|p| ticked.contains(&p.as_str()))
        .cloned()
        .collect();
    match playing.iter().position(|p| p == vorleger) {
        Some(k) => playing[k..].iter().chain(&playing[..k]).cloned().collect(),
        None => playing,
    }
}

// ---------------------------------------------------------------------------------------------
// Handlers

/// The query of the Runde page: `gespeichert=N` after round N was confirmed.
#[derive(Deserialize)]
pub struct SavedQuery {
    /// The round just stored.
    pub gespeichert: Option<u32>,
}

async fn runde_page(
    State(state): State<AppState>,
    RequireSecretary(user): RequireSecretary,
    Path((date, table, round)): Path<(String, u32, u32)>,
    Query(q): Query<SavedQuery>,
) -> Result<RundePage, AppError> {
    let mut conn = state.read.acquire().await?;
    let ctx = load(&mut conn, path_date(&date)?, table, round).await?;
    let notice = q.gespeichert.map(|n| format!("Runde {n} ist gespeichert."));
    Ok(render(
        user,
        &ctx,
        Extra {
            notice,
            ..Extra::default()
        },
    ))
}

/// A rejected action: the page with the message and what was typed, status 422.
fn rejected(user: CurrentUser, ctx: &Ctx, extra: Extra<'_>) -> Response {
    (StatusCode::UNPROCESSABLE_ENTITY, render(user, ctx, extra)).into_response()
}

/// The form's `seq` (Wurfrunden applied when the page was shown) must match the stored Runde, so a
/// double tap or a second phone cannot apply or undo twice.
fn stale(ctx: &Ctx, form: &Pairs) -> Option<String> {
    let now = ctx.runde.as_ref().map_or(0, |r| r.wurfrunden().len());
    let seen = form_field(form, "seq").and_then(|s| s.parse::<usize>().ok());
    (seen != Some(now)).then(|| {
        format!(
            "Die Anzeige war nicht mehr aktuell (inzwischen {now} Wurfrunden); bitte prüfen und neu eingeben."
        )
    })
}

/// Opens the write transaction (audited as `user`) and loads the context of round `round` at
/// `table` of the night on ISO `date` in it; see [`load`] for the 404s.
async fn begin(
    state: &AppState,
    user: &CurrentUser,
    date: &str,
    table: u32,
    round: u32,
) -> Result<(WriteTx, Ctx), AppError> {
    let mut tx = state.begin_write_as(user).await?;
    let ctx = load(&mut tx, path_date(date)?, table, round).await?;
    Ok((tx, ctx))
}

/// Stores `runde` as the Runde in progress of `ctx`, commits and redirects to its page.
async fn save(mut tx: WriteTx, ctx: &Ctx, runde: &RundeState) -> Result<Response, AppError> {
    db::besteck::put(&mut tx, ctx.night_id, ctx.table, ctx.round, &runde.record()).await?;
    tx.commit().await?;
    Ok(Redirect::to(&ctx.base()).into_response())
}

async fn start(
    State(state): State<AppState>,
    RequireSecretary(user): RequireSecretary,
    Path((date, table, round)): Path<(String, u32, u32)>,
    Form(form): Form<Pairs>,
) -> Result<Response, AppError> {
    let (tx, ctx) = begin(&state, &user, &date, table, round).await?;
    if ctx.runde.is_some() {
        return Ok(rejected(
            user,
            &ctx,
            Extra::error(format!("Runde {round} läuft schon.")),
        ));
    }
    let ticked = fields(&form, "spieler");
    let vorleger = form_field(&form, "vorleger").unwrap_or("");
    if !ticked.contains(&vorleger) {
        return Ok(rejected(
            user,
            &ctx,
            Extra::error("Der Vorleger muss mitspielen."),
        ));
    }
    let players = seat_order(&ctx.table_players, &ticked, vorleger);
    let runde = match RundeState::new(players, ctx.game.clone()) {
        Ok(r) => r,
        Err(e) => return Ok(rejected(user, &ctx, Extra::error(e.to_string()))),
    };
    save(tx, &ctx, &runde).await
}

async fn wurfrunde(
    State(state): State<AppState>,
    RequireSecretary(user): RequireSecretary,
    Path((date, table, round)): Path<(String, u32, u32)>,
    Form(form): Form<Pairs>,
) -> Result<Response, AppError> {
    let (tx, mut ctx) = begin(&state, &user, &date, table, round).await?;
    let typed = typed_throws(&form);
    let fail = |ctx: &Ctx, msg: String| {
        rejected(
            user.clone(),
            ctx,
            Extra {
                typed: &typed,
                ..Extra::error(msg)
            },
        )
    };
    if ctx.runde.is_none() {
        return Ok(fail(&ctx, "Diese Runde ist noch nicht begonnen.".into()));
    }
    if let Some(msg) = stale(&ctx, &form) {
        return Ok(fail(&ctx, msg));
    }
    let throws = match typed
        .iter()
        .map(TypedThrow::to_input)
        .collect::<Result<Vec<_>, _>>()
    {
        Ok(t) => t,
        Err(msg) => return Ok(fail(&ctx, msg)),
    };
    let blind = form_field(&form, "blind").is_some();
    let mut runde = ctx.runde.take().ok_or(AppError::NotFound)?;
    if let Err(e) = runde.apply_blind(throws, blind) {
        ctx.runde = Some(runde);
        return Ok(fail(&ctx, e.to_string()));
    }
    save(tx, &ctx, &runde).await
}

async fn undo(
    State(state): State<AppState>,
    RequireSecretary(user): RequireSecretary,
    Path((date, table, round)): Path<(String, u32, u32)>,
    Form(form): Form<Pairs>,
) -> Result<Response, AppError> {
    let (mut tx, mut ctx) = begin(&state, &user, &date, table, round).await?;
    let fail = |ctx: &Ctx, msg: String| rejected(user.clone(), ctx, Extra::error(msg));
    if let Some(msg) = stale(&ctx, &form) {
        return Ok(fail(&ctx, msg));
    }
    let Some(runde) = ctx.runde.as_mut() else {
        return Ok(fail(&ctx, "Diese Runde ist noch nicht begonnen.".into()));
    };
    let undone: Option<AppliedWurfrunde> = runde
        .undo_last()
        .map_err(|e| AppError::Internal(format!("Zurücknehmen: {e}")))?;
    let Some(undone) = undone else {
        return Ok(fail(&ctx, "Es gibt noch keine Wurfrunde.".into()));
    };
    let number = runde.wurfrunden().len() + 1;
    db::besteck::put(&mut tx, ctx.night_id, table, round, &runde.record()).await?;
    tx.commit().await?;
    let typed: Vec<TypedThrow> = undone.throws.iter().map(TypedThrow::from_input).collect();
    Ok(render(
        user,
        &ctx,
        Extra {
            notice: Some(format!(
                "Wurfrunde {number} ist zurückgenommen: korrigieren und neu eintragen."
            )),
            typed: &typed,
            ..Extra::default()
        },
    )
    .into_response())
}

async fn discard(
    State(state): State<AppState>,
    RequireSecretary(user): RequireSecretary,
    Path((date, table, round)): Path<(String, u32, u32)>,
) -> Result<Response, AppError> {
    let (mut tx, ctx) = begin(&state, &user, &date, table, round).await?;
    db::besteck::delete(&mut tx, ctx.night_id, table, round).await?;
    tx.commit().await?;
    Ok(Redirect::to(&ctx.base()).into_response())
}

/// Puts round `round` with `results` at `table` of the night on `date` into the season file,
/// replacing a round of that number (the night and table are added when missing).
pub fn put_round_into(
    nights: &mut Vec<NightEntry>,
    date: NaiveDate,
    table: u32,
    round: u32,
    results: Vec<ResultEntry>,
) {
    let night = match nights.iter().position(|n| n.date == date) {
        Some(k) => &mut nights[k],
        None => {
            nights.push(NightEntry {
                date,
                tables: Vec::new(),
                fines: Vec::new(),
            });
            let last = nights.len() - 1;
            &mut nights[last]
        }
    };
    night.put_round(table, round, results);
}

async fn confirm(
    State(state): State<AppState>,
    RequireSecretary(user): RequireSecretary,
    Path((date, table, round)): Path<(String, u32, u32)>,
    Form(form): Form<Pairs>,
) -> Result<Response, AppError> {
    let (mut tx, ctx) = begin(&state, &user, &date, table, round).await?;
    let jokers: Vec<&str> = ctx
        .ids
        .iter()
        .filter(|(_, id)| form_field(&form, &format!("joker_{id}")).is_some())
        .map(|(name, _)| name.as_str())
        .collect();
    let fail = |ctx: &Ctx, msg: String| {
        rejected(
            user.clone(),
            ctx,
            Extra {
                jokers: &jokers,
                ..Extra::error(msg)
            },
        )
    };
    if let Some(msg) = stale(&ctx, &form) {
        return Ok(fail(&ctx, msg));
    }
    let Some(runde) = ctx.runde.as_ref().filter(|r| r.is_finished()) else {
        return Ok(fail(&ctx, "Die Runde hat noch keinen Verlierer.".into()));
    };
    // The tallies come from the throws; posted numbers are ignored.
    let mut results = Vec::new();
    for t in runde.tallies() {
        let limit = max_outs_per_round(runde.rules(), Some(t.played_finale));
        if t.outs > limit {
            return Err(AppError::Internal(format!(
                "{}: {} Outs über der Grenze {limit}",
                t.player, t.outs
            )));
        }
        results.push(ResultEntry {
            joker: jokers.contains(&t.player.as_str()),
            player: t.player,
            outs: t.outs,
            hand_outs: t.hand_outs,
            julen: t.julen,
            lost: t.lost,
        });
    }
    let mut file = db::season::load_file_conn(&mut tx, ctx.season)
        .await?
        .ok_or(AppError::NotFound)?;
    put_round_into(&mut file.nights, ctx.date, table, round, results.clone());
    // The same check as the round form: the drawn participants count for the two-table rule.
    let presence = db::night::presence_counts(&mut tx, ctx.season).await?;
    if let Err(e) = Season::from_file_with_presence(&file, &presence) {
        return Ok(fail(&ctx, e.to_string()));
    }
    let mut rows = Vec::with_capacity(results.len());
    for r in results {
        let id = ctx.ids.get(&r.player).copied().ok_or(AppError::NotFound)?;
        rows.push((id, r));
    }
    let korrektur = KorrekturFields::from_pairs(&form);
    let correction = match korrektur_or_refusal(&mut tx, ctx.night_id, &user, &korrektur).await? {
        Ok(c) => c,
        Err(why) => return Ok(fail(&ctx, why)),
    };
    // The results are audited row by row by the triggers; the summary row below adds the throws.
    db::night::put_round(&mut tx, ctx.night_id, table, round, &rows).await?;
    db::besteck::delete(&mut tx, ctx.night_id, table, round).await?;
    let after = serde_json::json!({
        "results": rows.iter().map(|(_, r)| r).collect::<Vec<_>>(),
        "wurfrunden": runde.record().wurfrunden,
    });
    db::audit::record(
        &mut tx,
        &user.username,
        &format!(
            "Runde {round} an Tisch {table} am {} aus dem Schockbesteck gespeichert",
            de_date(ctx.date)
        ),
        None,
        Some(&after),
    )
    .await?;
    finish_change(&mut tx, correction).await?;
    tx.commit().await?;
    let next = if round < ctx.rounds_per_night {
        format!(
            "/verwaltung/besteck/{}/{table}/{}?gespeichert={round}",
            ctx.date,
            round + 1
        )
    } else {
        format!("/abend/{}", ctx.date)
    };
    Ok(Redirect::to(&next).into_response())
}

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
#[template(path = "besteck/abend.html")]
pub struct NightPage {
    user: Option<CurrentUser>,
    date: String,
    iso_date: String,
    tables: Vec<TableView>,
}

async fn night_page(
    State(state): State<AppState>,
    RequireSecretary(user): RequireSecretary,
    Path(date): Path<String>,
) -> Result<NightPage, AppError> {
    let date = path_date(&date)?;
    let mut conn = state.read.acquire().await?;
    let night = night_on(&mut conn, date).await?;
    let season = i32::try_from(night.season).map_err(|_| AppError::NotFound)?;
    let rules = season_rules(&mut conn, season).await?;
    let participants = db::night::participants(&mut conn, night.id).await?;
    let mut tables = Vec::new();
    for number in 1..=2u32 {
        let players: Vec<String> = participants
            .iter()
            .filter(|p| p.table_no == i64::from(number))
            .map(|p| p.name.clone())
            .collect();
        if players.is_empty() {
            continue;
        }
        let entered = db::night::round_numbers(&mut conn, night.id, number).await?;
        let running = db::besteck::numbers(&mut conn, night.id, number).await?;
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
        user: Some(user),
        date: de_date(date),
        iso_date: date.to_string(),
        tables,
    })
}

#[cfg(test)]
#[path = "tests/besteck.rs"]
mod tests;
