//! The referee's page as shown: the seats with their dice buttons, the answer (loser, highest
//! throw, Deckel, the deciding rule in words) and the rule-set choice.

use crate::rules::explain::{assembled_instead_of, decisions, deckel_words, dice_text, named};
use crate::rules::wurfrunde::Evaluated;
use crate::rules::{Deckel, RuleSet};

use super::question::*;

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

pub(super) fn choices(id: &str, values: &[(&str, &str)], current: &str) -> Vec<Choice> {
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

pub(super) const FACES: [(&str, &str); 6] = [
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

pub(super) fn die_group(name: String, label: String, current: &str, clearable: bool) -> DieGroup {
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
    pub fn new(s: &SeatTyped, error: Option<&FieldError>) -> SeatView {
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

pub(super) fn class_key(c: crate::rules::Class) -> String {
    serde_json::to_value(c.kind())
        .ok()
        .and_then(|v| v.as_str().map(str::to_string))
        .unwrap_or_default()
}

impl Answer {
    pub fn new(
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
pub(super) fn article(c: crate::rules::Class) -> &'static str {
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
