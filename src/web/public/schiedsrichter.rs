//! `/schiedsrichter`: the referee at the table. One Wurfrunde entered seat by seat — the final dice
//! with Würfe and "aus der Hand", or the whole throw sequence with kept and turned dice — under the
//! current season's rule set or any preset, judged by the engine (`rules::evaluate_throws`). The
//! answer names the loser, the highest throw, the Deckel and the rule that decided, in German words
//! (`rules::explain`). A plain GET form: the whole question is in the URL, so the answer page can
//! be sent to the group; no script (radio buttons styled as dice).
//!
//! Field names (query parameters), seat i = 1, 2, …: `n{i}` name, `m{i}` `w` (Endergebnis) or `f`
//! (Wurffolge), `d{i}_{j}` die j of the final dice, `z{i}` Würfe, `h{i}` aus der Hand; in a
//! sequence Wurf k: `f{i}_{k}_{j}` die j rolled, `k{i}_{k}_{j}` that die set aside, `t{i}_{k}` sixes
//! turned. Besides: `regeln` (`saison-{year}` or a preset name), `blind`, `aus` (Auswürfeln),
//! `plaetze` (seats shown), `mehr` (a seat more, nothing judged).

use std::collections::BTreeMap;

use askama::Template;
use askama_web::WebTemplate;
use axum::extract::{Query, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};

use crate::rules::explain::{
    assembled_instead_of, decisions, deckel_words, dice_text, named, rule_sentences,
};
use crate::rules::sequence::WurfInput;
use crate::rules::wurfrunde::{evaluate_throws, Evaluated, ThrowInput};
use crate::rules::{Deckel, RuleError, RuleSet, ThrowProblem, MAX_NAME_CHARS, MAX_PLAYERS};
use crate::service::{League, Snapshot};
use crate::web::kit::{AppError, Guard, Layout, Routes};

/// The routes of this feature.
pub fn routes() -> Routes {
    Routes::new().get(Guard::Public, "/schiedsrichter", page)
}

/// Seats shown on an empty form.
pub const DEFAULT_SEATS: usize = 3;

/// Würfe of one player at most, and dice of one Wurf (schocken-rules.md §1).
const WUERFE: usize = 3;
const DICE: usize = 3;

/// The query as sent: each field name with its first value.
pub type Fields = BTreeMap<String, String>;

/// The fields of `pairs` (a query's key-value pairs in order); a repeated key keeps its first value.
pub fn fields(pairs: Vec<(String, String)>) -> Fields {
    let mut f = Fields::new();
    for (k, v) in pairs {
        f.entry(k).or_insert(v);
    }
    f
}

fn get<'a>(f: &'a Fields, name: &str) -> &'a str {
    f.get(name).map(|s| s.trim()).unwrap_or("")
}

/// One Wurf of a sequence as typed: the dice rolled (raw text per die, "" = none), which of them
/// were set aside, the sixes turned (raw).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct WurfTyped {
    /// Dice 1..3 of this Wurf as typed ("" when not thrown).
    pub dice: [String; DICE],
    /// Die j of this Wurf set aside.
    pub keep: [bool; DICE],
    /// Sixes turned into 1s, as typed ("" = 0).
    pub turn: String,
}

impl WurfTyped {
    fn is_empty(&self) -> bool {
        self.dice.iter().all(String::is_empty)
    }
}

/// One seat as typed (kept on the page, whatever is wrong with it).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SeatTyped {
    /// 1-based seat number (field suffix).
    pub i: usize,
    /// The name as typed ("" = "Platz i").
    pub name: String,
    /// Entered as the throw sequence (`m{i}=f`), else as the final dice.
    pub sequence: bool,
    /// The final dice as typed.
    pub dice: [String; DICE],
    /// Würfe as typed ("" = 1).
    pub wuerfe: String,
    /// "aus der Hand" ticked (read with more than one Wurf).
    pub hand: bool,
    /// The Würfe of the sequence.
    pub wuerfe_seq: [WurfTyped; WUERFE],
}

impl SeatTyped {
    /// Reads seat `i` from the fields.
    pub fn read(f: &Fields, i: usize) -> SeatTyped {
        let die = |name: String| get(f, &name).to_string();
        SeatTyped {
            i,
            name: get(f, &format!("n{i}")).to_string(),
            sequence: get(f, &format!("m{i}")) == "f",
            dice: std::array::from_fn(|j| die(format!("d{i}_{}", j + 1))),
            wuerfe: get(f, &format!("z{i}")).to_string(),
            hand: !get(f, &format!("h{i}")).is_empty(),
            wuerfe_seq: std::array::from_fn(|k| WurfTyped {
                dice: std::array::from_fn(|j| die(format!("f{i}_{}_{}", k + 1, j + 1))),
                keep: std::array::from_fn(|j| {
                    !get(f, &format!("k{i}_{}_{}", k + 1, j + 1)).is_empty()
                }),
                turn: get(f, &format!("t{i}_{}", k + 1)).to_string(),
            }),
        }
    }

    /// The player's name: as typed, or "Platz i".
    pub fn player(&self) -> String {
        if self.name.is_empty() {
            format!("Platz {}", self.i)
        } else {
            self.name.clone()
        }
    }

    /// Something is entered for this seat in its mode (a name, or a die).
    pub fn is_used(&self) -> bool {
        !self.name.is_empty()
            || if self.sequence {
                self.wuerfe_seq.iter().any(|w| !w.is_empty())
            } else {
                self.dice.iter().any(|d| !d.is_empty())
            }
    }

    /// The engine's input of this seat. Errors: a field that is not a number, a name too long
    /// (German, with the field it belongs to).
    pub fn to_input(&self) -> Result<ThrowInput, FieldError> {
        let player = self.player();
        if player.chars().count() > MAX_NAME_CHARS {
            return Err(FieldError::new(
                self.i,
                Field::Seat,
                format!("Der Name ist länger als {MAX_NAME_CHARS} Zeichen."),
            ));
        }
        let number = |raw: &str, field: Field, what: &str| -> Result<Option<i64>, FieldError> {
            if raw.is_empty() {
                return Ok(None);
            }
            raw.parse::<i64>().map(Some).map_err(|_| {
                FieldError::new(
                    self.i,
                    field,
                    format!("Spieler {player}: „{raw}“ ist {what}"),
                )
            })
        };
        if !self.sequence {
            let mut dice = Vec::with_capacity(DICE);
            for raw in &self.dice {
                if let Some(v) = number(raw, Field::Dice, "keine Augenzahl")? {
                    dice.push(v);
                }
            }
            let wuerfe = number(&self.wuerfe, Field::Wuerfe, "keine Zahl von Würfen")?.unwrap_or(1);
            return Ok(ThrowInput {
                player,
                dice: Some(dice),
                wuerfe: Some(wuerfe),
                from_hand: (wuerfe != 1).then_some(self.hand),
                sequence: None,
                class: None,
            });
        }
        let last = self
            .wuerfe_seq
            .iter()
            .rposition(|w| !w.is_empty())
            .map_or(0, |k| k + 1);
        let mut sequence = Vec::with_capacity(last);
        for (k, w) in self.wuerfe_seq.iter().take(last).enumerate() {
            let field = Field::Wurf(k + 1);
            let mut roll = Vec::with_capacity(DICE);
            let mut keep = Vec::new();
            for (raw, kept) in w.dice.iter().zip(w.keep) {
                if let Some(v) = number(raw, field, "keine Augenzahl")? {
                    roll.push(v);
                    if kept {
                        keep.push(v);
                    }
                }
            }
            let turn = number(&w.turn, field, "keine Zahl gedrehter Sechsen")?.unwrap_or(0);
            sequence.push(WurfInput {
                roll,
                keep,
                turn,
                take_back: Vec::new(),
            });
        }
        Ok(ThrowInput::from_sequence(&player, sequence))
    }
}

/// Where on the page an error belongs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Field {
    /// The seat as a whole (its name, or no Wurf at all).
    Seat,
    /// The final dice.
    Dice,
    /// The Würfe of the final dice.
    Wuerfe,
    /// "aus der Hand".
    Hand,
    /// Wurf k (1-based) of the sequence.
    Wurf(usize),
}

impl Field {
    /// The name in the page's `data-feld`: "platz", "wuerfel", "wuerfe", "hand", "wurf2".
    pub fn key(self) -> String {
        match self {
            Field::Seat => "platz".into(),
            Field::Dice => "wuerfel".into(),
            Field::Wuerfe => "wuerfe".into(),
            Field::Hand => "hand".into(),
            Field::Wurf(k) => format!("wurf{k}"),
        }
    }
}

/// A refusal shown next to a seat's field.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FieldError {
    /// The seat (1-based).
    pub seat: usize,
    /// The field.
    pub field: Field,
    /// The German message (the engine's, naming player, Wurf and rule).
    pub message: String,
}

impl FieldError {
    fn new(seat: usize, field: Field, message: String) -> FieldError {
        FieldError {
            seat,
            field,
            message,
        }
    }
}

/// Where the page shows a refusal of the engine.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Refusal {
    /// Next to a seat's field.
    At(FieldError),
    /// Next to the rules choice.
    Rules(String),
    /// Next to "blind".
    Blind(String),
    /// Above the seats (the Wurfrunde as a whole: too few players, a name twice).
    Round(String),
}

/// Places an engine refusal: a throw's error next to the field of the seat whose player it names
/// (final dice: the dice, the Würfe or "aus der Hand" by the rule broken; a sequence: the Wurf it
/// names); a Wurfrunde's error about "blind" next to that box, other Wurfrunde errors above the
/// seats; rules errors next to the rules choice.
pub fn place(error: &RuleError, seats: &[SeatTyped]) -> Refusal {
    let message = error.to_string();
    match error {
        RuleError::Throw {
            player,
            wurf,
            problem,
        } => {
            let Some(seat) = seats.iter().find(|s| &s.player() == player) else {
                return Refusal::Round(message);
            };
            let field = if seat.sequence {
                match wurf {
                    Some(k) if usize::from(*k) <= WUERFE && *k > 0 => Field::Wurf(usize::from(*k)),
                    _ => Field::Seat,
                }
            } else {
                match problem {
                    ThrowProblem::DieOutOfRange(_) | ThrowProblem::FinalDiceCount(_) => Field::Dice,
                    ThrowProblem::MoreThanMax(_)
                    | ThrowProblem::MoreThanVorleger(_)
                    | ThrowProblem::MoreThanAuswuerfeln
                    | ThrowProblem::NoWurf
                    | ThrowProblem::MissingWuerfe => Field::Wuerfe,
                    ThrowProblem::SingleWurfIsFromHand | ThrowProblem::FromHandClaim(_) => {
                        Field::Hand
                    }
                    _ => Field::Seat,
                }
            };
            Refusal::At(FieldError::new(seat.i, field, message))
        }
        RuleError::Wurfrunde(m) if m.contains("blind") => Refusal::Blind(message),
        RuleError::Wurfrunde(_) | RuleError::Json { .. } => Refusal::Round(message),
        RuleError::UnknownPreset(_) | RuleError::UnknownRule(_) | RuleError::InvalidRules(_) => {
            Refusal::Rules(message)
        }
    }
}

/// The question as read from the query: the rule set's choice, blind, Auswürfeln and the seats.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Question {
    /// `saison-{year}` or a preset name, as chosen (default: the current season, else
    /// `schockerliga`).
    pub regeln: String,
    /// The Vorleger announced blind.
    pub blind: bool,
    /// The Auswürfeln: one Wurf each.
    pub auswuerfeln: bool,
    /// Every seat shown, in seat order.
    pub seats: Vec<SeatTyped>,
    /// Only a seat more was asked for: nothing is judged.
    pub more: bool,
}

impl Question {
    /// Reads the query; `default_rules` when `regeln` is absent. Seats shown: as many as
    /// `plaetze` says, at least [`DEFAULT_SEATS`] and every seat with input, one more with `mehr`,
    /// at most [`MAX_PLAYERS`].
    pub fn read(f: &Fields, default_rules: &str) -> Question {
        let asked: usize = get(f, "plaetze").parse().unwrap_or(DEFAULT_SEATS);
        let all: Vec<SeatTyped> = (1..=MAX_PLAYERS).map(|i| SeatTyped::read(f, i)).collect();
        let last_used = all
            .iter()
            .rposition(SeatTyped::is_used)
            .map_or(0, |p| p + 1);
        let more = !get(f, "mehr").is_empty();
        let shown = (asked.max(DEFAULT_SEATS).max(last_used) + usize::from(more)).min(MAX_PLAYERS);
        let regeln = match get(f, "regeln") {
            "" => default_rules.to_string(),
            r => r.to_string(),
        };
        Question {
            regeln,
            blind: !get(f, "blind").is_empty(),
            auswuerfeln: !get(f, "aus").is_empty(),
            seats: all.into_iter().take(shown).collect(),
            more,
        }
    }

    /// Something was entered: a seat with input.
    pub fn is_asked(&self) -> bool {
        !self.more && self.seats.iter().any(SeatTyped::is_used)
    }

    /// The short link of this question: only the fields that carry an answer (the seats with
    /// input, in their mode), `/schiedsrichter?regeln=…&n1=…`.
    pub fn share_link(&self) -> String {
        let mut q: Vec<(String, String)> = vec![("regeln".into(), self.regeln.clone())];
        if self.blind {
            q.push(("blind".into(), "1".into()));
        }
        if self.auswuerfeln {
            q.push(("aus".into(), "1".into()));
        }
        for s in self.seats.iter().filter(|s| s.is_used()) {
            let i = s.i;
            if !s.name.is_empty() {
                q.push((format!("n{i}"), s.name.clone()));
            }
            if s.sequence {
                q.push((format!("m{i}"), "f".into()));
                for (k, w) in s.wuerfe_seq.iter().enumerate() {
                    let k = k + 1;
                    for (j, d) in w.dice.iter().enumerate() {
                        if !d.is_empty() {
                            q.push((format!("f{i}_{k}_{}", j + 1), d.clone()));
                            if w.keep[j] {
                                q.push((format!("k{i}_{k}_{}", j + 1), "1".into()));
                            }
                        }
                    }
                    if !w.turn.is_empty() && w.turn != "0" {
                        q.push((format!("t{i}_{k}"), w.turn.clone()));
                    }
                }
            } else {
                for (j, d) in s.dice.iter().enumerate() {
                    if !d.is_empty() {
                        q.push((format!("d{i}_{}", j + 1), d.clone()));
                    }
                }
                if !s.wuerfe.is_empty() && s.wuerfe != "1" {
                    q.push((format!("z{i}"), s.wuerfe.clone()));
                    if s.hand {
                        q.push((format!("h{i}"), "1".into()));
                    }
                }
            }
        }
        let query: Vec<String> = q
            .iter()
            .map(|(k, v)| format!("{}={}", encode(k), encode(v)))
            .collect();
        format!("/schiedsrichter?{}", query.join("&"))
    }
}

/// Percent-encodes a query key or value (unreserved characters stay).
fn encode(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for b in s.bytes() {
        match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => {
                out.push(char::from(b))
            }
            _ => out.push_str(&format!("%{b:02X}")),
        }
    }
    out
}

/// The rule set a choice names: `saison-{year}` the season's `rules.game` (from the snapshot),
/// else a preset. Returns the rule set and its German name. Errors: an unknown season or preset
/// (German).
pub fn chosen_rules(regeln: &str, snapshot: &Snapshot) -> Result<(RuleSet, String), String> {
    if let Some(year) = regeln.strip_prefix("saison-") {
        let view = year
            .parse::<i32>()
            .ok()
            .and_then(|y| snapshot.season(y).ok())
            .ok_or_else(|| format!("Die Saison {year} gibt es nicht."))?;
        let rules = RuleSet::from_json(&view.season.rules.game).map_err(|e| e.to_string())?;
        return Ok((rules, format!("Regeln der Saison {}", view.season.year)));
    }
    RuleSet::preset(regeln)
        .map(|r| (r, format!("Voreinstellung „{regeln}“")))
        .ok_or_else(|| RuleError::UnknownPreset(regeln.to_string()).to_string())
}

// ---------------------------------------------------------------------------------------------
// The page

/// One option of a radio group styled as buttons.
pub struct Choice {
    /// The element id (for its label).
    pub id: String,
    /// The submitted value.
    pub value: String,
    /// The button's text.
    pub text: String,
    /// Checked.
    pub checked: bool,
}

fn choices(id: &str, values: &[(&str, &str)], current: &str) -> Vec<Choice> {
    values
        .iter()
        .map(|&(value, text)| Choice {
            id: format!("{id}-{}", if value.is_empty() { "x" } else { value }),
            value: value.to_string(),
            text: text.to_string(),
            checked: value == current,
        })
        .collect()
}

const FACES: [(&str, &str); 6] = [
    ("1", "1"),
    ("2", "2"),
    ("3", "3"),
    ("4", "4"),
    ("5", "5"),
    ("6", "6"),
];

/// A radio group of one die: its field name, its label and the faces (with "–" to take it back in
/// a sequence).
pub struct DieGroup {
    /// The field name, e.g. `d1_2`.
    pub name: String,
    /// "1. Würfel".
    pub label: String,
    /// The buttons.
    pub choices: Vec<Choice>,
    /// A value that no button shows (typed into the URL, e.g. a 7): kept as a hidden field.
    pub other: Option<String>,
}

fn die_group(name: String, label: String, current: &str, clearable: bool) -> DieGroup {
    let mut values: Vec<(&str, &str)> = Vec::with_capacity(7);
    if clearable {
        values.push(("", "–"));
    }
    values.extend_from_slice(&FACES);
    let known = values.iter().any(|(v, _)| *v == current);
    DieGroup {
        choices: choices(&name, &values, current),
        other: (!known && !current.is_empty()).then(|| current.to_string()),
        name,
        label,
    }
}

/// One Wurf of a seat's sequence, for the form.
pub struct WurfView {
    /// 1-based.
    pub k: usize,
    /// Its three dice.
    pub dice: Vec<DieGroup>,
    /// "set aside" boxes: (field name, die label, ticked).
    pub keep: Vec<(String, String, bool)>,
    /// The turn choice (`t{i}_{k}`).
    pub turn: Vec<Choice>,
    /// The field name of the turn choice.
    pub turn_name: String,
    /// The refusal that names this Wurf.
    pub error: Option<String>,
}

/// One seat of the form.
pub struct SeatView {
    /// 1-based seat number.
    pub i: usize,
    /// The name as typed.
    pub name: String,
    /// Sequence mode.
    pub sequence: bool,
    /// The final dice.
    pub dice: Vec<DieGroup>,
    /// Würfe 1..3.
    pub wuerfe: Vec<Choice>,
    /// A Würfe value no button shows (typed into the URL).
    pub wuerfe_other: Option<String>,
    /// "aus der Hand" ticked.
    pub hand: bool,
    /// The sequence's Würfe.
    pub seq: Vec<WurfView>,
    /// Refusals next to the seat, the dice, the Würfe, "aus der Hand".
    pub error_seat: Option<String>,
    /// … next to the final dice.
    pub error_dice: Option<String>,
    /// … next to the Würfe.
    pub error_wuerfe: Option<String>,
    /// … next to "aus der Hand".
    pub error_hand: Option<String>,
}

impl SeatView {
    fn new(s: &SeatTyped, error: Option<&FieldError>) -> SeatView {
        let i = s.i;
        let at = |f: Field| {
            error
                .filter(|e| e.seat == i && e.field == f)
                .map(|e| e.message.clone())
        };
        let wuerfe = match s.wuerfe.as_str() {
            "" => "1",
            w => w,
        };
        SeatView {
            i,
            name: s.name.clone(),
            sequence: s.sequence,
            dice: (0..DICE)
                .map(|j| {
                    die_group(
                        format!("d{i}_{}", j + 1),
                        format!("{}. Würfel", j + 1),
                        &s.dice[j],
                        false,
                    )
                })
                .collect(),
            wuerfe: choices(
                &format!("z{i}"),
                &[("1", "1"), ("2", "2"), ("3", "3")],
                wuerfe,
            ),
            wuerfe_other: (!["1", "2", "3"].contains(&wuerfe)).then(|| wuerfe.to_string()),
            hand: s.hand,
            seq: s
                .wuerfe_seq
                .iter()
                .enumerate()
                .map(|(k, w)| {
                    let k = k + 1;
                    let turn = match w.turn.as_str() {
                        "" => "0",
                        t => t,
                    };
                    WurfView {
                        k,
                        dice: (0..DICE)
                            .map(|j| {
                                die_group(
                                    format!("f{i}_{k}_{}", j + 1),
                                    format!("{}. Würfel", j + 1),
                                    &w.dice[j],
                                    true,
                                )
                            })
                            .collect(),
                        keep: (0..DICE)
                            .map(|j| {
                                (
                                    format!("k{i}_{k}_{}", j + 1),
                                    format!("{}.", j + 1),
                                    w.keep[j],
                                )
                            })
                            .collect(),
                        turn: choices(
                            &format!("t{i}_{k}"),
                            &[("0", "keine"), ("1", "eine"), ("2", "zwei")],
                            turn,
                        ),
                        turn_name: format!("t{i}_{k}"),
                        error: at(Field::Wurf(k)),
                    }
                })
                .collect(),
            error_seat: at(Field::Seat),
            error_dice: at(Field::Dice),
            error_wuerfe: at(Field::Wuerfe),
            error_hand: at(Field::Hand),
        }
    }
}

/// One result of the answer, in the engine's order (highest first).
pub struct ResultRow {
    /// 1 = highest.
    pub place: usize,
    /// Seat in throwing order (1 = Vorleger).
    pub seat: usize,
    /// The player.
    pub player: String,
    /// Dice, highest first: "4-2-1".
    pub dice: String,
    /// Würfe used.
    pub wuerfe: u8,
    /// From the hand.
    pub from_hand: bool,
    /// German label ("Schock 5", "421").
    pub label: String,
    /// Interchange class (`schock_out`, `hausnummer`, …).
    pub class: String,
    /// Interchange value ("" for none).
    pub value: String,
    /// "zusammengewürfelt, keine Straße" when the hand would have made it more.
    pub assembled: Option<String>,
    /// Why it stands above the next one: (the next player, the rule in German); none for the
    /// lowest.
    pub above_next: Option<(String, String)>,
}

/// The answer to a question.
pub struct Answer {
    /// "Regeln der Saison 2026" / "Voreinstellung „blog_rules“".
    pub rules_name: String,
    /// The lowest (he takes the Deckel).
    pub lowest: String,
    /// His result's name.
    pub lowest_label: String,
    /// The highest.
    pub highest: String,
    /// His result's name.
    pub highest_label: String,
    /// "2 Deckel" / "alle Deckel".
    pub deckel: String,
    /// The interchange value of the Deckel ("2", "all"), for `data-deckel`.
    pub deckel_key: String,
    /// What the Deckel follow (German).
    pub deckel_words: String,
    /// A Schock Out: the half is over.
    pub ends_half: bool,
    /// Why the lowest is below his neighbour: (neighbour, German rule).
    pub loser_rule: (String, String),
    /// Why the highest is above his neighbour (three or more players; else the same pair).
    pub highest_rule: Option<(String, String)>,
    /// Every result, highest first.
    pub rows: Vec<ResultRow>,
}

fn class_key(c: crate::rules::Class) -> String {
    serde_json::to_value(c.kind())
        .ok()
        .and_then(|v| v.as_str().map(str::to_string))
        .unwrap_or_default()
}

impl Answer {
    fn new(
        e: &Evaluated,
        names: &[String],
        rules: &RuleSet,
        blind: bool,
        rules_name: String,
    ) -> Answer {
        let name = |i: usize| names.get(i).cloned().unwrap_or_default();
        let label = |i: usize| e.results.get(i).map(|(_, c)| named(*c)).unwrap_or_default();
        let decided = decisions(e, rules);
        let rows = e
            .order
            .iter()
            .enumerate()
            .filter_map(|(place, &i)| {
                let (r, c) = e.results.get(i)?;
                Some(ResultRow {
                    place: place + 1,
                    seat: i + 1,
                    player: name(i),
                    dice: dice_text(r.dice),
                    wuerfe: r.wuerfe,
                    from_hand: r.from_hand,
                    label: c.label(),
                    class: class_key(*c),
                    value: c.value().map(|v| v.to_string()).unwrap_or_default(),
                    assembled: assembled_instead_of(r, *c, rules).map(|would| {
                        format!(
                            "zusammengewürfelt, kein{} {}",
                            article(would),
                            would.kind().german()
                        )
                    }),
                    above_next: decided.get(place).map(|d| (name(d.lower), d.german())),
                })
            })
            .collect();
        let loser_rule = decided
            .last()
            .map(|d| (name(d.upper), d.german()))
            .unwrap_or_default();
        let highest_rule = (decided.len() > 1)
            .then(|| decided.first().map(|d| (name(d.lower), d.german())))
            .flatten();
        Answer {
            rules_name,
            lowest: name(e.lowest),
            lowest_label: label(e.lowest),
            highest: name(e.highest),
            highest_label: label(e.highest),
            deckel: e.deckel.to_string(),
            deckel_key: match e.deckel {
                Deckel::All => "all".to_string(),
                Deckel::Count(n) => n.to_string(),
            },
            deckel_words: deckel_words(e, rules, blind),
            ends_half: e.deckel == Deckel::All,
            loser_rule,
            highest_rule,
            rows,
        }
    }
}

/// "e" for the feminine kinds (keine Jule, keine Straße), "" otherwise (kein General).
fn article(c: crate::rules::Class) -> &'static str {
    match c {
        crate::rules::Class::Jule | crate::rules::Class::Strasse(_) => "e",
        _ => "",
    }
}

/// An option of the rules choice.
pub struct RulesOption {
    /// `saison-2026` or a preset name.
    pub value: String,
    /// What the select shows.
    pub text: String,
    /// Selected.
    pub selected: bool,
}

/// The referee page.
#[derive(Template, WebTemplate)]
#[template(path = "public/schiedsrichter.html")]
pub struct SchiedsrichterPage {
    layout: Layout,
    options: Vec<RulesOption>,
    blind: bool,
    auswuerfeln: bool,
    seats: Vec<SeatView>,
    plaetze: usize,
    answer: Option<Answer>,
    /// The link of this question (when one was asked).
    share: Option<String>,
    /// A refusal: which seat, whose, and the engine's message, above the form with a link to the seat.
    error_seat: Option<(usize, String, String)>,
    error_rules: Option<String>,
    error_blind: Option<String>,
    error_round: Option<String>,
    /// The chosen rule set's name and rules in sentences.
    rules_name: String,
    sentences: Vec<String>,
    presets: Vec<(&'static str, &'static str)>,
}

async fn page(
    State(league): State<League>,
    layout: Layout,
    Query(pairs): Query<Vec<(String, String)>>,
) -> Result<Response, AppError> {
    let snapshot = league.snapshot();
    let current = snapshot.current_year();
    let default_rules =
        current.map_or_else(|| "schockerliga".to_string(), |y| format!("saison-{y}"));
    let q = Question::read(&fields(pairs), &default_rules);

    let mut options: Vec<RulesOption> = Vec::new();
    let mut season_years: Vec<i32> = current.into_iter().collect();
    if let Some(y) = q
        .regeln
        .strip_prefix("saison-")
        .and_then(|y| y.parse().ok())
    {
        if snapshot.season(y).is_ok() && !season_years.contains(&y) {
            season_years.push(y);
        }
    }
    for y in season_years {
        let value = format!("saison-{y}");
        let game = snapshot
            .season(y)
            .map(|v| match &v.season.rules.game {
                serde_json::Value::String(s) => format!(" – {s}"),
                _ => " – eigene Regeln".to_string(),
            })
            .unwrap_or_default();
        options.push(RulesOption {
            selected: value == q.regeln,
            text: format!("Saison {y}{game}"),
            value,
        });
    }
    for (name, _) in RuleSet::presets() {
        options.push(RulesOption {
            value: name.to_string(),
            text: name.to_string(),
            selected: *name == q.regeln,
        });
    }

    let mut error_rules = None;
    let mut error_blind = None;
    let mut error_round = None;
    let mut field_error: Option<FieldError> = None;
    let mut answer = None;
    let (rules, rules_name) = match chosen_rules(&q.regeln, &snapshot) {
        Ok(r) => r,
        Err(m) => {
            error_rules = Some(m);
            (
                RuleSet::default(),
                "Voreinstellung „schockerliga“".to_string(),
            )
        }
    };
    if q.is_asked() && error_rules.is_none() {
        let used: Vec<&SeatTyped> = q.seats.iter().filter(|s| s.is_used()).collect();
        let inputs: Result<Vec<ThrowInput>, FieldError> =
            used.iter().map(|s| s.to_input()).collect();
        match inputs {
            Err(e) => field_error = Some(e),
            Ok(inputs) => match evaluate_throws(&inputs, &rules, q.auswuerfeln, q.blind) {
                Ok(e) => {
                    let names: Vec<String> = inputs.iter().map(|t| t.player.clone()).collect();
                    answer = Some(Answer::new(&e, &names, &rules, q.blind, rules_name.clone()));
                }
                Err(e) => match place(&e, &q.seats) {
                    Refusal::At(f) => field_error = Some(f),
                    Refusal::Rules(m) => error_rules = Some(m),
                    Refusal::Blind(m) => error_blind = Some(m),
                    Refusal::Round(m) => error_round = Some(m),
                },
            },
        }
    }
    let refused = field_error.is_some()
        || error_rules.is_some()
        || error_blind.is_some()
        || error_round.is_some();
    let page = SchiedsrichterPage {
        layout,
        options,
        blind: q.blind,
        auswuerfeln: q.auswuerfeln,
        seats: q
            .seats
            .iter()
            .map(|s| SeatView::new(s, field_error.as_ref()))
            .collect(),
        plaetze: q.seats.len(),
        answer,
        share: q.is_asked().then(|| q.share_link()),
        error_seat: field_error.as_ref().and_then(|f| {
            q.seats
                .iter()
                .find(|s| s.i == f.seat)
                .map(|s| (s.i, s.player(), f.message.clone()))
        }),
        error_rules,
        error_blind,
        error_round,
        sentences: rule_sentences(&rules),
        rules_name,
        presets: RuleSet::presets().to_vec(),
    };
    let status = if refused {
        StatusCode::UNPROCESSABLE_ENTITY
    } else {
        StatusCode::OK
    };
    Ok((status, page).into_response())
}

#[cfg(test)]
mod tests;
