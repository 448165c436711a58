//! The secretary's Schockbesteck: live scoring of one Runde at a table of a night, Wurfrunde by
//! Wurfrunde, with the pure engine (`rules::RundeState`, schocken-rules.md §6–§7).
//!
//! The Runde in progress is stored as the engine's record (`service::besteck`) and rebuilt by
//! replaying it on every request, so it survives reloads and restarts; the last Wurfrunde is
//! corrected by replaying all but it. Each step is stored only against the state its page showed.
//! When the Runde has a loser, its Outs, Hand-Outs, Julen and loser fill the round's result form;
//! confirming stores the round through the write pipeline (`Change::PutRound`, the same check as
//! the round form) with the tallies recomputed from the throws, never from posted numbers. Plain
//! server-rendered forms, no script.

use std::collections::{BTreeMap, HashMap};

use askama::Template;
use askama_web::WebTemplate;
use axum::extract::{Query, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use chrono::NaiveDate;
use serde::Deserialize;
use serde_json::json;

use crate::league::change::{round_version, Replace};
use crate::league::file::ResultEntry;
use crate::league::format::date_de;
use crate::league::{draw, Change, Korrektur};
use crate::rules::{
    max_outs_per_round, AppliedWurfrunde, RuleSet, RundeState, ThrowInput, Transfer,
    WurfrundeOutcome,
};
use crate::service::besteck::RundeAt;
use crate::service::{AuditNote, Edit, League, ServiceError};
use crate::web::kit::session::RequireSecretary;
use crate::web::kit::{AppError, Guard, Layout, Routes};
use crate::web::kit::{AtNight, AtRound, Flash};

/// The routes of this feature (all under `/verwaltung/besteck`).
pub fn routes() -> Routes {
    Routes::new()
        .get(Guard::Secretary, "/verwaltung/besteck/{date}", night_page)
        .get(
            Guard::Secretary,
            "/verwaltung/besteck/{date}/{table}/{round}",
            runde_page,
        )
        .post(
            Guard::Secretary,
            "/verwaltung/besteck/{date}/{table}/{round}/start",
            start,
        )
        .post(
            Guard::Secretary,
            "/verwaltung/besteck/{date}/{table}/{round}/wurfrunde",
            wurfrunde,
        )
        .post(
            Guard::Secretary,
            "/verwaltung/besteck/{date}/{table}/{round}/zurueck",
            undo,
        )
        .post(
            Guard::Secretary,
            "/verwaltung/besteck/{date}/{table}/{round}/verwerfen",
            discard,
        )
        .post(
            Guard::Secretary,
            "/verwaltung/besteck/{date}/{table}/{round}/bestaetigen",
            confirm,
        )
        // The same through a scorer link of the table.
        .get(
            Guard::Link,
            "/tisch/{token}/{date}/{table}/besteck/{round}",
            runde_page,
        )
        .post(
            Guard::Link,
            "/tisch/{token}/{date}/{table}/besteck/{round}/start",
            start,
        )
        .post(
            Guard::Link,
            "/tisch/{token}/{date}/{table}/besteck/{round}/wurfrunde",
            wurfrunde,
        )
        .post(
            Guard::Link,
            "/tisch/{token}/{date}/{table}/besteck/{round}/zurueck",
            undo,
        )
        .post(
            Guard::Link,
            "/tisch/{token}/{date}/{table}/besteck/{round}/verwerfen",
            discard,
        )
        .post(
            Guard::Link,
            "/tisch/{token}/{date}/{table}/besteck/{round}/bestaetigen",
            confirm,
        )
}

/// Who keeps the Schockbesteck: a secretary (`/verwaltung/besteck/…`) or the holder of a scorer
/// link of the table (`/tisch/{token}/{date}/{table}/besteck/…`, checked by `scorer::guard`).
pub struct Writer {
    /// The author named in the audit log ("anna", "Tisch 2 (Link von anna)").
    pub author: String,
    /// The link's token, when written through a scorer link.
    pub token: Option<String>,
}

impl Writer {
    /// The address of round `round` at `table` of the night on `date` for this writer.
    pub fn round_path(&self, date: NaiveDate, table: u32, round: u32) -> String {
        match &self.token {
            Some(token) => format!("/tisch/{token}/{date}/{table}/besteck/{round}"),
            None => format!("/verwaltung/besteck/{date}/{table}/{round}"),
        }
    }

    /// The page this writer's Runde page links back to: the Schockbesteck's night page, or the
    /// link's table page.
    pub fn night_path(&self, date: NaiveDate, table: u32) -> String {
        match &self.token {
            Some(token) => format!("/tisch/{token}/{date}/{table}"),
            None => format!("/verwaltung/besteck/{date}"),
        }
    }
}

impl axum::extract::FromRequestParts<crate::web::kit::AppState> for Writer {
    type Rejection = Response;

    async fn from_request_parts(
        parts: &mut axum::http::request::Parts,
        state: &crate::web::kit::AppState,
    ) -> Result<Self, Response> {
        if let Some(link) = parts
            .extensions
            .get::<crate::service::scorer::ScorerLink>()
            .cloned()
        {
            let token = parts
                .uri
                .path()
                .split('/')
                .nth(2)
                .unwrap_or_default()
                .to_string();
            return Ok(Writer {
                author: link.author(),
                token: Some(token),
            });
        }
        let RequireSecretary(user) = RequireSecretary::from_request_parts(parts, state)
            .await
            .map_err(IntoResponse::into_response)?;
        Ok(Writer {
            author: user.username,
            token: None,
        })
    }
}

/// A form with numbered fields (`p0`, `w0`, …, `joker_{id}`) as sent: every field name with all
/// its values.
type Fields = BTreeMap<String, Vec<String>>;

/// The first value of field `name`.
fn field<'a>(form: &'a Fields, name: &str) -> Option<&'a str> {
    form.get(name).and_then(|v| v.first()).map(String::as_str)
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
pub fn typed_throws(form: &Fields) -> Vec<TypedThrow> {
    (0..)
        .map_while(|i| {
            field(form, &format!("p{i}")).map(|player| TypedThrow {
                player: player.to_string(),
                dice: field(form, &format!("w{i}"))
                    .unwrap_or("")
                    .trim()
                    .to_string(),
                wuerfe: field(form, &format!("n{i}"))
                    .and_then(|n| n.trim().parse().ok())
                    .unwrap_or(1),
                hand: field(form, &format!("h{i}")).is_some(),
            })
        })
        .collect()
}

/// What every page and action of one Runde needs: the night, its season rules, the players drawn
/// to the table (seat order), the round numbers already entered there and the Runde in progress.
struct Ctx {
    /// The scorer link's token when written through one (the pages' addresses follow it).
    token: Option<String>,
    at: RundeAt,
    season: i32,
    date: NaiveDate,
    table: u32,
    round: u32,
    rounds_per_night: u32,
    table_players: Vec<String>,
    /// The loser of the table's previous round ("" for none): the default Vorleger.
    last_loser: String,
    /// Player ids of the Runde's players, by name.
    ids: HashMap<String, i64>,
    joker_allowed: bool,
    /// The season's dice RuleSet (`rules.game`), under which a new Runde is played.
    game: RuleSet,
    entered: Vec<u32>,
    /// The version of round `round` as entered at this table, if it is (`league::change::round_version`).
    entered_version: Option<String>,
    runde: Option<RundeState>,
    /// A stored Runde that no longer loads (German: why); it can only be discarded.
    broken: Option<String>,
    /// The night is closed: saving the result needs a Korrektur.
    closed: bool,
}

impl Ctx {
    fn base(&self) -> String {
        self.writer().round_path(self.date, self.table, self.round)
    }

    /// The writer's addresses (a secretary's or a scorer link's).
    fn writer(&self) -> Writer {
        Writer {
            author: String::new(),
            token: self.token.clone(),
        }
    }

    /// Wurfrunden applied to the Runde in progress (0 without one).
    fn seq(&self) -> usize {
        self.runde.as_ref().map_or(0, |r| r.wurfrunden().len())
    }
}

/// The context of round `at` from the league's snapshot and the stored Runde in progress.
async fn load(league: &League, at: &AtRound, writer: &Writer) -> Result<Ctx, AppError> {
    let night = &at.at.night;
    let view = &night.view;
    let rules = &view.season.rules;
    let here = RundeAt {
        night: night.id(),
        table: at.at.table,
        round: at.round,
    };
    // A Runde that no longer loads (a player renamed before renames followed, an older version's
    // record) must not block the table: it is shown as broken and can be discarded.
    let (runde, broken) = match league.runde(here).await {
        Ok(Some(record)) => match RundeState::try_from(record) {
            Ok(r) => (Some(r), None),
            Err(e) => (None, Some(e.to_string())),
        },
        Ok(None) => (None, None),
        Err(ServiceError::Db(crate::db::DbError::Corrupt(why))) => (None, Some(why)),
        Err(e) => return Err(e.into()),
    };
    let ids = runde
        .iter()
        .flat_map(|r| r.players())
        .filter_map(|name| view.ids.players.get(name).map(|id| (name.clone(), *id)))
        .collect();
    let game = RuleSet::from_json(&rules.game).map_err(|e| {
        AppError::Internal(format!("Regelwerk der Saison {}: {e}", view.season.year))
    })?;
    let n = night.night();
    // Who lost the table's last round before this one: he starts the next (Vorleger).
    let last_loser = n
        .tables
        .iter()
        .find(|t| t.number == at.at.table)
        .and_then(|t| {
            t.rounds
                .iter()
                .filter(|r| r.number < at.round)
                .max_by_key(|r| r.number)
        })
        .map(|r| crate::league::change::round_loser(r).to_string())
        .unwrap_or_default();
    let entered_version = n
        .tables
        .iter()
        .find(|t| t.number == at.at.table)
        .and_then(|t| t.rounds.iter().find(|r| r.number == at.round))
        .map(round_version);
    Ok(Ctx {
        token: writer.token.clone(),
        at: here,
        season: view.season.year,
        date: night.date,
        table: at.at.table,
        round: at.round,
        rounds_per_night: rules.rounds_per_night,
        table_players: at.at.players(),
        last_loser,
        ids,
        joker_allowed: rules.joker_multiplier.is_some(),
        game,
        entered: n
            .tables
            .iter()
            .find(|t| t.number == at.at.table)
            .map(|t| t.rounds.iter().map(|r| r.number).collect())
            .unwrap_or_default(),
        entered_version,
        runde,
        broken,
        closed: n.closed,
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
    /// "Hälfte 1", "Hälfte 2" or "Finale", with " – Auswürfeln".
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
    /// The thrower's player id (field `id{i}`: the row follows him through a rename).
    pub id: i64,
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
#[template(path = "entry/besteck/runde.html")]
pub struct RundePage {
    layout: Layout,
    date: String,
    table: u32,
    round: u32,
    base: String,
    error: Option<String>,
    notice: Option<String>,
    already_entered: bool,
    /// The version of the entered round the page shows ("" when none): the confirm replaces only it.
    stand: String,
    /// Start form (no Runde in progress): the table's players in seat order.
    start_players: Vec<String>,
    /// The preselected Vorleger: the previous round's loser ("" for none).
    vorleger_default: String,
    started: bool,
    finished: bool,
    seq: usize,
    /// The fingerprint of the Runde the page shows ([`fingerprint`]): a form posted from it is
    /// refused when the Runde changed meanwhile, even back to the same number of Wurfrunden.
    runde_id: String,
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
    /// The page the Runde page links back to (the Schockbesteck's night, or the link's table).
    night_href: String,
    /// The address of the next round's page.
    next_href: String,
    /// The night is closed: the confirm form carries the Korrektur fieldset.
    closed: bool,
    /// The stored Runde does not load any more: why (German); only "verwerfen" is offered.
    broken: Option<String>,
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
        part.push_str(" – Auswürfeln");
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

/// The Deckel table of `runde`: each player of the Runde in seat order with his Deckel and his
/// status ("Vorleger", "ausgeschieden", "spielt das Finale nicht", "verliert die Runde" or "").
pub(crate) fn seats(runde: &RundeState) -> Vec<SeatView> {
    let part_players = runde.part_players();
    let out = runde.out_players();
    let vorleger = runde.vorleger();
    runde
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
        .collect()
}

/// Replays the Runde's Wurfrunden one by one and describes each (the state itself is `runde`).
pub(crate) fn history(runde: &RundeState) -> Vec<WurfrundeView> {
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
fn entry_rows(
    runde: &RundeState,
    ids: &HashMap<String, i64>,
    typed: &[TypedThrow],
) -> Vec<EntryRow> {
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
                id: ids.get(p).copied().unwrap_or_default(),
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

fn render(layout: Layout, ctx: &Ctx, extra: Extra<'_>) -> RundePage {
    let mut page = RundePage {
        layout,
        date: date_de(ctx.date),
        table: ctx.table,
        round: ctx.round,
        base: ctx.base(),
        error: extra.error,
        notice: extra.notice,
        already_entered: ctx.entered.contains(&ctx.round),
        stand: ctx.entered_version.clone().unwrap_or_default(),
        start_players: ctx.table_players.clone(),
        vorleger_default: ctx.last_loser.clone(),
        started: false,
        finished: false,
        seq: 0,
        runde_id: fingerprint(ctx.runde.as_ref()),
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
        night_href: ctx.writer().night_path(ctx.date, ctx.table),
        next_href: ctx.writer().round_path(ctx.date, ctx.table, ctx.round + 1),
        closed: ctx.closed,
        broken: ctx.broken.clone(),
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
    page.seats = seats(runde);
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
        page.entry = entry_rows(runde, &ctx.ids, extra.typed);
    }
    page
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
    State(state): State<crate::web::AppState>,
    writer: Writer,
    layout: Layout,
    headers: axum::http::HeaderMap,
    at: AtRound,
    Query(q): Query<SavedQuery>,
) -> Result<Response, AppError> {
    let ctx = load(&state.league, &at, &writer).await?;
    let notice = q.gespeichert.map(|n| format!("Runde {n} ist gespeichert."));
    // A Wurfrunde that arrived after the login ran out comes back filled in (once).
    let path = format!("{}/wurfrunde", ctx.base());
    let kept = crate::web::kit::unsent::take(&headers, &path, state.secure_cookies);
    let typed = kept
        .as_ref()
        .map(|(k, _)| typed_throws(&k.fields()))
        .unwrap_or_default();
    let error = (!typed.is_empty()).then(|| {
        "Diese Wurfrunde ist noch nicht eingetragen (die Anmeldung war abgelaufen): bitte prüfen und eintragen."
            .to_string()
    });
    let page = render(
        layout,
        &ctx,
        Extra {
            notice,
            error,
            typed: &typed,
            ..Extra::default()
        },
    );
    Ok(match kept {
        Some((_, forget)) => ([(axum::http::header::SET_COOKIE, forget)], page).into_response(),
        None => page.into_response(),
    })
}

/// A rejected action: the page with the message and what was typed, status 422.
fn rejected(layout: Layout, ctx: &Ctx, extra: Extra<'_>) -> Response {
    (StatusCode::UNPROCESSABLE_ENTITY, render(layout, ctx, extra)).into_response()
}

/// The form's `seq` (Wurfrunden applied when the page was shown) must match the stored Runde, so a
/// double tap or a second phone cannot apply or undo twice.
/// The fingerprint of `runde` (none: ""): the first 16 hex digits of the SHA-256 of its record's
/// JSON. Two Runden with the same number of Wurfrunden but other throws differ.
fn fingerprint(runde: Option<&RundeState>) -> String {
    use sha2::{Digest, Sha256};
    let Some(r) = runde else {
        return String::new();
    };
    let json = serde_json::to_vec(&r.record()).unwrap_or_default();
    Sha256::digest(&json)
        .iter()
        .take(8)
        .map(|b| format!("{b:02x}"))
        .collect()
}

fn stale(ctx: &Ctx, form: &Fields) -> Option<String> {
    let now = ctx.seq();
    let seen = field(form, "seq").and_then(|s| s.parse::<usize>().ok());
    // A page posts the fingerprint of the Runde it showed; a hand-made post without it is
    // checked by the number of Wurfrunden only.
    let changed =
        field(form, "runde").is_some_and(|id| id.trim() != fingerprint(ctx.runde.as_ref()));
    (seen != Some(now) || changed).then(|| {
        format!(
            "Die Anzeige war nicht mehr aktuell (inzwischen {now} Wurfrunden); bitte prüfen und neu eingeben."
        )
    })
}

/// Stores `runde` as the Runde in progress of `ctx` (against the state the page showed) and
/// redirects to its page; a refusal (another step came first) shows the page with the reason.
async fn save(
    league: &League,
    layout: Layout,
    user: &str,
    ctx: &Ctx,
    runde: &RundeState,
) -> Result<Response, AppError> {
    let seen = ctx.runde.as_ref().map(|r| r.wurfrunden().len());
    match league
        .save_runde(ctx.at, seen, Some(&runde.record()), user)
        .await
    {
        Ok(()) => Ok(axum::response::Redirect::to(&ctx.base()).into_response()),
        Err(ServiceError::Refused(e) | ServiceError::Full(e)) => {
            Ok(rejected(layout, ctx, Extra::error(e.to_string())))
        }
        Err(e) => Err(e.into()),
    }
}

/// The start form: who plays (ticked, repeated `spieler`) and the Vorleger.
#[derive(Deserialize)]
pub struct StartForm {
    /// The ticked players' names.
    #[serde(default)]
    pub spieler: Vec<String>,
    /// The Vorleger's name.
    #[serde(default)]
    pub vorleger: String,
}

async fn start(
    State(league): State<League>,
    layout: Layout,
    writer: Writer,
    at: AtRound,
    axum_extra::extract::Form(form): axum_extra::extract::Form<StartForm>,
) -> Result<Response, AppError> {
    let ctx = load(&league, &at, &writer).await?;
    let round = ctx.round;
    if ctx.runde.is_some() || ctx.broken.is_some() {
        return Ok(rejected(
            layout,
            &ctx,
            Extra::error(format!("Runde {round} läuft schon.")),
        ));
    }
    let ticked: Vec<&str> = form.spieler.iter().map(String::as_str).collect();
    if !ticked.contains(&form.vorleger.as_str()) {
        return Ok(rejected(
            layout,
            &ctx,
            Extra::error("Der Vorleger muss mitspielen."),
        ));
    }
    let players = draw::seat_order(&ctx.table_players, &ticked, &form.vorleger);
    let runde = match RundeState::new(players, ctx.game.clone()) {
        Ok(r) => r,
        Err(e) => return Ok(rejected(layout, &ctx, Extra::error(e.to_string()))),
    };
    save(&league, layout, &writer.author, &ctx, &runde).await
}

async fn wurfrunde(
    State(league): State<League>,
    layout: Layout,
    writer: Writer,
    at: AtRound,
    axum_extra::extract::Form(form): axum_extra::extract::Form<Fields>,
) -> Result<Response, AppError> {
    let mut ctx = load(&league, &at, &writer).await?;
    let mut typed = typed_throws(&form);
    // A form loaded before a rename names the player as he was: his id names him as he is now.
    for (i, t) in typed.iter_mut().enumerate() {
        let id = field(&form, &format!("id{i}")).and_then(|v| v.parse::<i64>().ok());
        if let Some(now) = id.and_then(|id| ctx.ids.iter().find(|(_, v)| **v == id)) {
            t.player = now.0.clone();
        }
    }
    let fail = |layout: Layout, ctx: &Ctx, msg: String| {
        rejected(
            layout,
            ctx,
            Extra {
                typed: &typed,
                ..Extra::error(msg)
            },
        )
    };
    if ctx.runde.is_none() {
        return Ok(fail(
            layout,
            &ctx,
            "Diese Runde ist noch nicht begonnen.".into(),
        ));
    }
    if let Some(msg) = stale(&ctx, &form) {
        return Ok(fail(layout, &ctx, msg));
    }
    let throws = match typed
        .iter()
        .map(TypedThrow::to_input)
        .collect::<Result<Vec<_>, _>>()
    {
        Ok(t) => t,
        Err(msg) => return Ok(fail(layout, &ctx, msg)),
    };
    let blind = field(&form, "blind").is_some();
    let Some(before) = ctx.runde.clone() else {
        return Err(AppError::NotFound);
    };
    let mut runde = before;
    if let Err(e) = runde.apply_blind(throws, blind) {
        return Ok(fail(layout, &ctx, e.to_string()));
    }
    let saved = save(&league, layout, &writer.author, &ctx, &runde).await?;
    ctx.runde = Some(runde);
    Ok(saved)
}

async fn undo(
    State(league): State<League>,
    layout: Layout,
    writer: Writer,
    at: AtRound,
    axum_extra::extract::Form(form): axum_extra::extract::Form<Fields>,
) -> Result<Response, AppError> {
    let ctx = load(&league, &at, &writer).await?;
    if let Some(msg) = stale(&ctx, &form) {
        return Ok(rejected(layout, &ctx, Extra::error(msg)));
    }
    let Some(mut runde) = ctx.runde.clone() else {
        return Ok(rejected(
            layout,
            &ctx,
            Extra::error("Diese Runde ist noch nicht begonnen."),
        ));
    };
    let undone: Option<AppliedWurfrunde> = runde
        .undo_last()
        .map_err(|e| AppError::Internal(format!("Zurücknehmen: {e}")))?;
    let Some(undone) = undone else {
        return Ok(rejected(
            layout,
            &ctx,
            Extra::error("Es gibt noch keine Wurfrunde."),
        ));
    };
    let number = runde.wurfrunden().len() + 1;
    match league
        .save_runde(
            ctx.at,
            Some(ctx.seq()),
            Some(&runde.record()),
            &writer.author,
        )
        .await
    {
        Ok(()) => {}
        Err(ServiceError::Refused(e) | ServiceError::Full(e)) => {
            return Ok(rejected(layout, &ctx, Extra::error(e.to_string())))
        }
        Err(e) => return Err(e.into()),
    }
    let after = Ctx {
        runde: Some(runde),
        ..ctx
    };
    let typed: Vec<TypedThrow> = undone.throws.iter().map(TypedThrow::from_input).collect();
    Ok(render(
        layout,
        &after,
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
    State(league): State<League>,
    writer: Writer,
    at: AtRound,
) -> Result<Response, AppError> {
    let here = RundeAt {
        night: at.at.night.id(),
        table: at.at.table,
        round: at.round,
    };
    league.save_runde(here, None, None, &writer.author).await?;
    Ok(
        axum::response::Redirect::to(&writer.round_path(at.at.night.date, at.at.table, at.round))
            .into_response(),
    )
}

async fn confirm(
    State(league): State<League>,
    layout: Layout,
    flash: Flash,
    writer: Writer,
    at: AtRound,
    axum_extra::extract::Form(form): axum_extra::extract::Form<Fields>,
) -> Result<Response, AppError> {
    let ctx = load(&league, &at, &writer).await?;
    let jokers: Vec<&str> = ctx
        .ids
        .iter()
        .filter(|(_, id)| form.contains_key(&format!("joker_{id}")))
        .map(|(name, _)| name.as_str())
        .collect();
    let fail = |layout: Layout, ctx: &Ctx, msg: String| {
        rejected(
            layout,
            ctx,
            Extra {
                jokers: &jokers,
                ..Extra::error(msg)
            },
        )
    };
    if let Some(msg) = stale(&ctx, &form) {
        return Ok(fail(layout, &ctx, msg));
    }
    let Some(runde) = ctx.runde.as_ref().filter(|r| r.is_finished()) else {
        return Ok(fail(
            layout,
            &ctx,
            "Die Runde hat noch keinen Verlierer.".into(),
        ));
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
    let (table, round, date) = (ctx.table, ctx.round, ctx.date);
    // A round entered meanwhile (by the form, another phone) is replaced only when the page showed
    // it and the secretary ticked "Runde ersetzen": lost updates are refused, not silent.
    let stand = field(&form, "stand").unwrap_or_default().trim().to_string();
    let replace = if stand.is_empty() {
        Replace::No
    } else if form.contains_key("ersetzen") {
        Replace::IfVersion(stand)
    } else {
        return Ok(fail(
            layout,
            &ctx,
            format!(
                "Runde {round} ist an diesem Tisch schon eingetragen: zum Überschreiben „Runde ersetzen“ ankreuzen."
            ),
        ));
    };
    let note = AuditNote {
        action: format!(
            "Runde {round} an Tisch {table} am {} aus dem Schockbesteck gespeichert",
            date_de(date)
        ),
        after: json!({ "results": results, "wurfrunden": runde.record().wurfrunden }),
    };
    let edit = Edit {
        author: writer.author.clone(),
        korrektur: Korrektur {
            ticked: form.contains_key("korrektur"),
            reason: field(&form, "korrektur_grund")
                .unwrap_or_default()
                .to_string(),
        },
        note: Some(note),
        confirms_runde: Some((table, round)),
    };
    let change = Change::PutRound {
        date,
        table,
        number: round,
        results,
        replace,
        seat_newcomers: false,
        schockbesteck: Some(crate::rules::PlayedRunde::of_state(runde)),
    };
    match league.change(ctx.season, change, &edit).await {
        Ok(_) => {}
        Err(
            ServiceError::Refused(e)
            | ServiceError::Closed(e)
            | ServiceError::Conflict(e)
            | ServiceError::Full(e),
        ) => return Ok(fail(layout, &ctx, e.to_string())),
        Err(e) => return Err(e.into()),
    }
    let next = if round < ctx.rounds_per_night {
        format!(
            "{}?gespeichert={round}",
            writer.round_path(date, table, round + 1)
        )
    } else {
        format!("/abend/{date}")
    };
    Ok(flash
        .redirect(
            &next,
            format!("Runde {round} an Tisch {table} gespeichert."),
        )
        .await)
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
#[template(path = "entry/besteck/abend.html")]
pub struct NightPage {
    layout: Layout,
    date: String,
    iso_date: String,
    tables: Vec<TableView>,
}

async fn night_page(
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

#[cfg(test)]
mod tests;
