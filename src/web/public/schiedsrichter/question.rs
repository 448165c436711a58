//! The question put to the referee, read from the page's query: the seats (name, final dice or
//! the throw sequence), the rule set, blind and Auswürfeln; the engine's refusal placed next to its
//! field; the share link that holds the whole question. The query's numbered names are read by
//! hand from one map ([`Fields`]): `serde_html_form` cannot type names that carry seat and Wurf
//! numbers.

use std::collections::BTreeMap;

use crate::rules::sequence::WurfInput;
use crate::rules::wurfrunde::ThrowInput;
use crate::rules::{RuleError, RuleSet, ThrowProblem, MAX_NAME_CHARS, MAX_PLAYERS};
use crate::service::Snapshot;

/// Seats shown on an empty form.
pub const DEFAULT_SEATS: usize = 3;

/// Würfe of one player at most, and dice of one Wurf (schocken-rules.md §1).
pub(super) const WUERFE: usize = 3;
pub(super) const DICE: usize = 3;

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

pub(super) fn get<'a>(f: &'a Fields, name: &str) -> &'a str {
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
pub(super) fn encode(s: &str) -> String {
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

#[cfg(test)]
mod tests;
