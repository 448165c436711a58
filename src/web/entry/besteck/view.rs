//! The Runde page of the Schockbesteck built from the engine's state: the context of a Runde
//! (`Ctx`: night, table, round, players, the Runde in progress), the seats with their Deckel,
//! the Wurfrunden so far, the entry rows of the next Wurfrunde and the rows to confirm.

use std::collections::HashMap;

use askama::Template;
use askama_web::WebTemplate;
use chrono::NaiveDate;

use crate::league::change::round_version;
use crate::league::model::format::date_de;
use crate::league::Korrektur;
use crate::rules::{RuleSet, RundeState, Transfer, WurfrundeOutcome};
use crate::service::besteck::RundeAt;
use crate::service::League;
use crate::web::kit::AtRound;
use crate::web::kit::{AppError, Layout};

use super::throws::TypedThrow;
use super::Writer;

/// What every page and action of one Runde needs: the night, its season rules, the players drawn
/// to the table (seat order), the round numbers already entered there and the Runde in progress.
pub struct Ctx {
    /// The scorer link's token when written through one (the pages' addresses follow it).
    pub token: Option<String>,
    pub at: RundeAt,
    pub season: i32,
    pub date: NaiveDate,
    pub table: u32,
    pub round: u32,
    pub rounds_per_night: u32,
    pub table_players: Vec<String>,
    /// The loser of the table's previous round ("" for none): the default Vorleger.
    pub last_loser: String,
    /// Player ids of the Runde's players, by name.
    pub ids: HashMap<String, i64>,
    pub joker_allowed: bool,
    /// The season's dice RuleSet (`rules.game`), under which a new Runde is played.
    pub game: RuleSet,
    pub entered: Vec<u32>,
    /// The version of round `round` as entered at this table, if it is (`league::change::round_version`).
    pub entered_version: Option<String>,
    pub runde: Option<RundeState>,
    /// A stored Runde that no longer loads (German: why); it can only be discarded.
    pub broken: Option<String>,
    /// The night is closed: saving the result needs a Korrektur.
    pub closed: bool,
}

impl Ctx {
    pub fn base(&self) -> String {
        self.writer().round_path(self.date, self.table, self.round)
    }

    /// The writer's addresses (a secretary's or a scorer link's).
    pub fn writer(&self) -> Writer {
        Writer {
            author: String::new(),
            token: self.token.clone(),
        }
    }

    /// Wurfrunden applied to the Runde in progress (0 without one).
    pub fn seq(&self) -> usize {
        self.runde.as_ref().map_or(0, |r| r.wurfrunden().len())
    }
}

/// The context of round `at` from the league's snapshot and the stored Runde in progress.
pub async fn load(league: &League, at: &AtRound, writer: &Writer) -> Result<Ctx, AppError> {
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
        Err(e) => match e.corrupt_record() {
            Some(why) => (None, Some(why.to_string())),
            None => return Err(e.into()),
        },
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
    /// The Korrektur fields as typed (a refused confirm keeps them).
    korrektur: Korrektur,
    /// The stored Runde does not load any more: why (German); only "verwerfen" is offered.
    broken: Option<String>,
}

pub fn dice_text(d: [u8; 3]) -> String {
    format!("{}-{}-{}", d[0], d[1], d[2])
}

/// Describes one applied Wurfrunde from its outcome.
pub fn describe(number: usize, o: &WurfrundeOutcome, stock_total: u8) -> WurfrundeView {
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
pub fn seats(runde: &RundeState) -> Vec<SeatView> {
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
pub fn history(runde: &RundeState) -> Vec<WurfrundeView> {
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
pub fn entry_rows(
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
pub fn confirm_rows(
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
pub struct Extra<'a> {
    pub error: Option<String>,
    pub notice: Option<String>,
    pub typed: &'a [TypedThrow],
    pub jokers: &'a [&'a str],
    /// The Korrektur box and reason as the refused confirm sent them.
    pub korrektur: Korrektur,
}

impl Extra<'_> {
    /// Only the error message `msg` (a refusal that keeps nothing typed).
    pub fn error(msg: impl Into<String>) -> Self {
        Extra {
            error: Some(msg.into()),
            ..Extra::default()
        }
    }
}

pub fn render(layout: Layout, ctx: &Ctx, extra: Extra<'_>) -> RundePage {
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
        korrektur: extra.korrektur.clone(),
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

/// The fingerprint of `runde` (none: ""): the first 16 hex digits of the SHA-256 of its record's
/// JSON. Two Runden with the same number of Wurfrunden but other throws differ.
pub fn fingerprint(runde: Option<&RundeState>) -> String {
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
