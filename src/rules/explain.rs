//! The engine's answers in German words, for the /schiedsrichter and /regeln pages: which rule put a
//! result above its neighbour in a Wurfrunde (schocken-rules.md §2, §3), what the Deckel follow
//! (§6), the order of every throw with its Deckel under a RuleSet, and a RuleSet's rules as
//! sentences. Everything here is read from the engine's own functions (`classify`, `strength`,
//! `rank_key`, `deckel_under`), so a changed RuleSet field changes the words.

use std::collections::BTreeMap;

use super::classify::{classify, Class, ClassKind, Deckel};
use super::dice::{Dice, ThrowResult};
use super::order::{rank_key, strength, Ranked};
use super::ruleset::{Aside, RuleSet, StreetFromHand, StreetOrder};
use super::wurfrunde::{deckel_under, Evaluated};

/// The rule that put one result of a Wurfrunde above another (§2, §3).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Decider {
    /// The order of throws: `upper` is a higher kind of throw, or the higher value of its kind.
    Rank {
        /// The class of the higher result.
        upper: Class,
        /// The class of the lower result.
        lower: Class,
    },
    /// The lower result was assembled, and its dice count as `would_be` only from the hand: from
    /// the hand it would not have been below (e.g. "2-2-1 nur aus der Hand").
    FromHandOnly {
        /// The lower result's dice.
        dice: Dice,
        /// What they count as from the hand (Neuner, Achter, Jule, General, Straße).
        would_be: Class,
        /// What they count as assembled (a Hausnummer).
        is: Class,
    },
    /// Equal results: the one from the hand beats the assembled one (`hand_beats_assembled`).
    HandBeatsAssembled,
    /// Two Schock Outs: the Hand-Out beats the assembled one (`hand_out_beats_assembled`).
    HandOutBeatsAssembled,
    /// Equal results: fewer Würfe win (`fewer_throws_wins`).
    FewerThrows {
        /// Würfe of the higher result.
        upper: u8,
        /// Würfe of the lower result.
        lower: u8,
    },
    /// Equal results: the earlier thrower is higher, the later loses ("nachgelegt ist Schitt").
    EarlierWins,
    /// Two Schock Outs: the later one is higher (`schock_out_later_wins`).
    LaterSchockOutWins,
}

/// The German name of a class for a sentence: its label, "Hausnummer 643" for a Hausnummer.
pub fn named(class: Class) -> String {
    match class {
        Class::Hausnummer(v) => format!("Hausnummer {v}"),
        other => other.label(),
    }
}

/// Dice as written on the pages, highest first: "4-2-1".
pub fn dice_text(dice: Dice) -> String {
    let [a, b, c] = dice.values();
    format!("{a}-{b}-{c}")
}

impl Decider {
    /// The rule in German words, as the referee says it: "gleicher Wurf: der spätere verliert",
    /// "Schock Out nachgeworfen gewinnt", "2-2-1 nur aus der Hand: …", "weniger Würfe gewinnt (1
    /// gegen 3)", "aus der Hand schlägt zusammengesetzt", "Schock 6 schlägt Schock 5", ….
    pub fn german(&self) -> String {
        match *self {
            Decider::Rank { upper, lower } => rank_words(upper, lower),
            Decider::FromHandOnly { dice, would_be, is } => {
                let rule = match would_be {
                    Class::Neuner => "2-2-1 nur aus der Hand".to_string(),
                    Class::Achter => "3-3-1 nur aus der Hand".to_string(),
                    other => format!("{} nur aus der Hand", other.kind().german()),
                };
                format!(
                    "{rule}: zusammengewürfelt zählt {} nur als {}",
                    dice_text(dice),
                    named(is)
                )
            }
            Decider::HandBeatsAssembled => "aus der Hand schlägt zusammengesetzt".to_string(),
            Decider::HandOutBeatsAssembled => {
                "Hand-Out schlägt zusammengewürfelten Schock Out".to_string()
            }
            Decider::FewerThrows { upper, lower } => {
                format!("weniger Würfe gewinnt ({upper} gegen {lower})")
            }
            Decider::EarlierWins => "gleicher Wurf: der spätere verliert".to_string(),
            Decider::LaterSchockOutWins => "Schock Out nachgeworfen gewinnt".to_string(),
        }
    }

    /// True when the results were equal and a tie rule decided (hand, Würfe or position).
    pub fn is_tie_break(&self) -> bool {
        !matches!(self, Decider::Rank { .. } | Decider::FromHandOnly { .. })
    }
}

/// "A schlägt B" for two results of different rank, with the club's words where it has them.
fn rank_words(upper: Class, lower: Class) -> String {
    match (upper, lower) {
        (Class::SchockOut, _) => "Schock Out schlägt alles".to_string(),
        (_, Class::Hausnummer(221)) => {
            format!(
                "2-2-1 ist der niedrigste Wurf: {} schlägt ihn",
                named(upper)
            )
        }
        (Class::Schock(2), Class::General(_)) => {
            "auch der Schock doof (Schock 2) schlägt jeden General".to_string()
        }
        (Class::General(_), Class::Schock(2)) => {
            "jeder General schlägt den Schock doof (Schock 2)".to_string()
        }
        (Class::Strasse(_), Class::Strasse(_)) => format!(
            "Straßen aufsteigend: {} schlägt {}",
            upper.label(),
            lower.label()
        ),
        (Class::Hausnummer(a), Class::Hausnummer(b)) => {
            format!("höhere Hausnummer: {a} schlägt {b}")
        }
        _ => format!("{} schlägt {}", named(upper), named(lower)),
    }
}

/// Which rule puts result `upper` above result `lower` (indices into `results`, which are in
/// throwing order, so an index is the position). The caller names the pair in the engine's order
/// (`upper` higher); checked in the order of §2–§3: an assembled lower result that would not have
/// been below from the hand, then the rank, then the tie rules in the order of `rank_key`.
/// Indices out of range give `EarlierWins` (never asked by [`decisions`]).
pub fn decide(
    results: &[(ThrowResult, Class)],
    upper: usize,
    lower: usize,
    rules: &RuleSet,
) -> Decider {
    let (Some((ur, uc)), Some((lr, lc))) = (results.get(upper), results.get(lower)) else {
        return Decider::EarlierWins;
    };
    let u = Ranked::new(ur, *uc, upper);
    let l = Ranked::new(lr, *lc, lower);
    if !lr.from_hand {
        let would_be = classify(lr.dice, true, rules);
        if would_be != *lc && strength(would_be, rules) >= strength(*uc, rules) {
            return Decider::FromHandOnly {
                dice: lr.dice,
                would_be,
                is: *lc,
            };
        }
    }
    let (ku, kl) = (rank_key(&u, rules), rank_key(&l, rules));
    if ku.0 != kl.0 {
        return Decider::Rank {
            upper: *uc,
            lower: *lc,
        };
    }
    if ku.1 != kl.1 {
        return if rules.hand_beats_assembled {
            Decider::HandBeatsAssembled
        } else {
            Decider::HandOutBeatsAssembled
        };
    }
    if ku.2 != kl.2 {
        return Decider::FewerThrows {
            upper: ur.wuerfe,
            lower: lr.wuerfe,
        };
    }
    if *uc == Class::SchockOut && rules.schock_out_later_wins {
        Decider::LaterSchockOutWins
    } else {
        Decider::EarlierWins
    }
}

/// Why one result stands directly above the next in a Wurfrunde's order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Decision {
    /// The higher result (index in throwing order).
    pub upper: usize,
    /// The result right below it (index in throwing order).
    pub lower: usize,
    /// The rule that decided.
    pub rule: Decider,
    /// Two different Straßen that rank equal (`street_order = all_equal`): a tie rule decided.
    pub streets_equal: bool,
}

impl Decision {
    /// The rule in German words, "alle Straßen gleich; " before a tie rule between two different
    /// Straßen.
    pub fn german(&self) -> String {
        if self.streets_equal {
            format!("alle Straßen gleich; {}", self.rule.german())
        } else {
            self.rule.german()
        }
    }
}

/// For each neighbouring pair of the evaluated order (highest first), the rule that decided it:
/// the first entry is why H is the highest, the last why L is the lowest (the same pair with two
/// players).
pub fn decisions(e: &Evaluated, rules: &RuleSet) -> Vec<Decision> {
    e.order
        .windows(2)
        .map(|pair| {
            let (upper, lower) = (pair[0], pair[1]);
            let rule = decide(&e.results, upper, lower, rules);
            let streets_equal = rule.is_tie_break()
                && matches!(
                    (e.results.get(upper), e.results.get(lower)),
                    (Some((_, Class::Strasse(a))), Some((_, Class::Strasse(b)))) if a != b
                );
            Decision {
                upper,
                lower,
                rule,
                streets_equal,
            }
        })
        .collect()
}

/// What the Deckel of an evaluated Wurfrunde follow, in German: "Schock Out: alle Deckel, die
/// Hälfte ist verloren", "Schock 2 ist der höchste Wurf: 2 Deckel", with "blind: doppelt" and, when
/// another result would have cost more, that the highest result counts, not the dearest (§6).
pub fn deckel_words(e: &Evaluated, rules: &RuleSet, blind: bool) -> String {
    let Some((_, highest)) = e.results.get(e.highest) else {
        return String::new();
    };
    let mut words = match e.deckel {
        Deckel::All => return "Schock Out: alle Deckel, die Hälfte ist verloren".to_string(),
        Deckel::Count(n) if blind => format!(
            "{} ist der höchste Wurf: {} Deckel, blind doppelt: {n} Deckel",
            named(*highest),
            count(highest.deckel_with(rules))
        ),
        Deckel::Count(n) => format!("{} ist der höchste Wurf: {n} Deckel", named(*highest)),
    };
    let dearer = e
        .results
        .iter()
        .map(|(_, c)| *c)
        .filter(|c| count(deckel_under(*c, rules, false)) > count(highest.deckel_with(rules)))
        .max_by_key(|c| count(deckel_under(*c, rules, false)));
    if let Some(c) = dearer {
        words.push_str(&format!(
            " – die Deckel bestimmt der höchste Wurf, nicht der teuerste ({} hätte {} gekostet)",
            named(c),
            deckel_under(c, rules, false)
        ));
    }
    words
}

/// A Deckel count for comparing (all = more than any count).
fn count(d: Deckel) -> u16 {
    match d {
        Deckel::All => u16::MAX,
        Deckel::Count(n) => u16::from(n),
    }
}

/// What a result counts as from the hand, when it was assembled and that is something else
/// ("zusammengewürfelt, keine Straße"): the class it would have had, else `None`.
pub fn assembled_instead_of(result: &ThrowResult, class: Class, rules: &RuleSet) -> Option<Class> {
    if result.from_hand {
        return None;
    }
    let would_be = classify(result.dice, true, rules);
    (would_be != class).then_some(would_be)
}

/// One line of the order of throws under a RuleSet (§3), highest first: one kind of throw, or a run
/// of equal-cost values of one kind ("General 6 … 2").
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RankLine {
    /// The kind's German name with the values: "Schock Out", "Schock 6", "General 6 … 2",
    /// "Straße 4-5-6 … 1-2-3", "Hausnummer 666 … 221".
    pub name: String,
    /// The dice: "1-1-1", "1-1-6", "6-6-6 … 2-2-2", "4-5-6 … 1-2-3", "6-6-6 … 2-2-1".
    pub dice: String,
    /// The throw counts only from the hand (assembled it is a Hausnummer).
    pub from_hand_only: bool,
    /// What it costs the lowest when it is the highest result (without blind).
    pub deckel: Deckel,
    /// A remark: "Schock doof", "alle gleich", "schlägt den Schock doof", "höchster Würfel zuerst
    /// gelesen (6-4-3 = 643)", or empty.
    pub note: String,
}

/// Every class a throw can have under `rules`, with whether it can be assembled (false: only from
/// the hand), from all 56 sets of dice thrown from the hand or assembled.
fn reachable(rules: &RuleSet) -> BTreeMap<(u32, u16), (Class, bool)> {
    let mut classes: BTreeMap<(u32, u16), (Class, bool)> = BTreeMap::new();
    for roll in Dice::all_rolls() {
        let Some(dice) = Dice::new(roll) else {
            continue;
        };
        for from_hand in [true, false] {
            let class = classify(dice, from_hand, rules);
            // keyed so that ascending iteration, reversed, is highest first (value breaks equal
            // strength, e.g. equal Straßen listed 4-5-6 first)
            let key = (strength(class, rules), class.value().unwrap_or(0));
            let entry = classes.entry(key).or_insert((class, false));
            entry.1 |= !from_hand;
        }
    }
    classes
}

/// The order of throws under `rules`, highest first, with their Deckel (§2, §3): variants such as
/// Neuner, Achter, no Jule, `general_beats_schock_doof` or equal Straßen change the lines. Runs of
/// one kind that cost the same and share "nur aus der Hand" are one line (General 6 … 2).
pub fn ranking(rules: &RuleSet) -> Vec<RankLine> {
    let classes: Vec<(u32, Class, bool)> = reachable(rules)
        .into_iter()
        .rev()
        .map(|((s, _), (class, assembled))| (s, class, !assembled))
        .collect();
    let mut groups: Vec<Vec<(u32, Class, bool)>> = Vec::new();
    for item in classes {
        let joins = groups.last().and_then(|g| g.last()).is_some_and(|last| {
            let (_, c, hand) = *last;
            let same_kind = c.kind() == item.1.kind()
                && matches!(
                    c.kind(),
                    ClassKind::General | ClassKind::Strasse | ClassKind::Hausnummer
                );
            same_kind && hand == item.2 && c.deckel_with(rules) == item.1.deckel_with(rules)
        });
        match groups.last_mut() {
            Some(g) if joins => g.push(item),
            _ => groups.push(vec![item]),
        }
    }
    groups
        .into_iter()
        .filter_map(|g| rank_line(&g, rules))
        .collect()
}

/// The line of one run of classes (highest first).
fn rank_line(group: &[(u32, Class, bool)], rules: &RuleSet) -> Option<RankLine> {
    let &(first_strength, first, hand) = group.first()?;
    let &(last_strength, last, _) = group.last()?;
    let range = |a: String, b: String| {
        if a == b {
            a
        } else {
            format!("{a} … {b}")
        }
    };
    let (name, dice) = match first {
        Class::SchockOut => ("Schock Out".to_string(), "1-1-1".to_string()),
        Class::Neuner => ("Neuner".to_string(), "2-2-1".to_string()),
        Class::Achter => ("Achter".to_string(), "3-3-1".to_string()),
        Class::Jule => ("Jule".to_string(), "4-2-1".to_string()),
        Class::Schock(n) => (format!("Schock {n}"), format!("1-1-{n}")),
        Class::General(_) => (
            range(first.label(), last.value().unwrap_or(0).to_string()),
            range(general_dice(first), general_dice(last)),
        ),
        Class::Strasse(_) => {
            let a = street_dice(first);
            let b = street_dice(last);
            (
                format!("Straße {}", range(a.clone(), b.clone())),
                range(a, b),
            )
        }
        Class::Hausnummer(_) => {
            let (a, b) = (
                first.value().unwrap_or(0).to_string(),
                last.value().unwrap_or(0).to_string(),
            );
            (
                format!("Hausnummer {}", range(a.clone(), b.clone())),
                range(hausnummer_dice(first), hausnummer_dice(last)),
            )
        }
    };
    let note = match first {
        Class::Schock(2) => "Schock doof".to_string(),
        Class::General(_) if rules.general_beats_schock_doof => {
            "schlägt den Schock doof".to_string()
        }
        Class::Strasse(_) if group.len() > 1 && first_strength == last_strength => {
            "alle gleich".to_string()
        }
        Class::Strasse(_) if group.len() > 1 => "aufsteigend".to_string(),
        Class::Hausnummer(_) => {
            let mut note = "höchster Würfel zuerst gelesen (6-4-3 = 643)".to_string();
            if last == Class::Hausnummer(221) {
                note.push_str("; 2-2-1 ist der niedrigste Wurf");
            }
            note
        }
        _ => String::new(),
    };
    Some(RankLine {
        name,
        dice,
        from_hand_only: hand,
        deckel: first.deckel_with(rules),
        note,
    })
}

fn general_dice(c: Class) -> String {
    let n = c.value().unwrap_or(0);
    format!("{n}-{n}-{n}")
}

fn street_dice(c: Class) -> String {
    let t = c.value().unwrap_or(3);
    format!("{}-{}-{}", t.saturating_sub(2), t.saturating_sub(1), t)
}

fn hausnummer_dice(c: Class) -> String {
    let v = c.value().unwrap_or(0);
    format!("{}-{}-{}", v / 100, v / 10 % 10, v % 10)
}

/// The rules of `rules` as German sentences, in the order a player needs them: Deckel and Würfe,
/// what counts only from the hand, Straßen, equal throws, setting aside, turning sixes, blind, the
/// Deckel. One sentence per rule; a changed field changes its sentence.
pub fn rule_sentences(rules: &RuleSet) -> Vec<String> {
    let mut s = vec![format!(
        "{} Deckel je Hälfte und Finale; wer alle Deckel hat, hat den Teil verloren.",
        rules.stock
    )];
    s.push(match rules.max_throws {
        1 => "Jeder hat genau einen Wurf.".to_string(),
        n => format!(
            "Der Vorleger hat höchstens {n} Würfe; so viele, wie er braucht, haben auch die anderen."
        ),
    });
    if rules.neuner {
        s.push(format!(
            "2-2-1 aus der Hand ist ein Neuner ({} Deckel).",
            rules.neuner_deckel
        ));
    }
    if rules.achter {
        s.push(format!(
            "3-3-1 aus der Hand ist ein Achter ({} Deckel).",
            rules.achter_deckel
        ));
    }
    s.push(if rules.jule {
        "4-2-1 aus der Hand ist eine Jule (7 Deckel); zusammengewürfelt ist es die Hausnummer 421."
            .to_string()
    } else {
        "Ohne Jule: 4-2-1 ist die Hausnummer 421.".to_string()
    });
    s.push(if rules.general_from_hand_only {
        "Ein General (drei gleiche) zählt nur aus der Hand; zusammengewürfelt ist er eine Hausnummer."
            .to_string()
    } else {
        "Ein General (drei gleiche) darf zusammengewürfelt werden.".to_string()
    });
    s.push(
        match rules.street_from_hand {
            StreetFromHand::All => {
                "Eine Straße zählt nur aus der Hand; zusammengewürfelt ist sie eine Hausnummer."
            }
            StreetFromHand::None => "Straßen dürfen zusammengewürfelt werden.",
            StreetFromHand::Only123 => {
                "Nur 1-2-3 muss aus der Hand fallen; 2-3-4, 3-4-5 und 4-5-6 dürfen zusammengewürfelt werden."
            }
        }
        .to_string(),
    );
    s.push(
        match rules.street_order {
            StreetOrder::Ascending => "Straßen aufsteigend: 4-5-6 vor 3-4-5 vor 2-3-4 vor 1-2-3.",
            StreetOrder::AllEqual => {
                "Alle Straßen sind gleich; es entscheiden die Regeln für gleiche Würfe."
            }
        }
        .to_string(),
    );
    if rules.general_beats_schock_doof {
        s.push(
            "Jeder General schlägt den Schock doof (Schock 2), bleibt aber unter Schock 3."
                .to_string(),
        );
    } else {
        s.push("Jeder Schock schlägt jeden General, auch der Schock doof (Schock 2).".to_string());
    }
    s.push(tie_sentence(rules));
    if rules.schock_out_later_wins {
        s.push(
            "Ausnahme: Von zwei Schock Outs gewinnt der spätere (Schock Out nachgeworfen gewinnt)."
                .to_string(),
        );
    }
    s.push(
        match rules.aside {
            Aside::Any => {
                "Nach jedem Wurf außer dem letzten darf man beliebige Würfel beiseitelegen."
            }
            Aside::OnesAndSixes => "Beiseitegelegt werden dürfen nur Einsen und Sechsen.",
            Aside::OnesOnly => "Beiseitegelegt werden dürfen nur Einsen.",
        }
        .to_string(),
    );
    s.push(if rules.kept_dice_stay {
        "Ein beiseitegelegter Würfel bleibt liegen.".to_string()
    } else {
        "Beiseitegelegte Würfel dürfen zurück in den Becher.".to_string()
    });
    s.push(if rules.turn_sixes {
        "Zwei Sechsen eines Wurfs dürfen zu einer Eins gedreht werden, drei zu zwei Einsen – nicht \
         auf dem letzten Wurf; mit einer gedrehten Eins ist der Wurf nicht aus der Hand."
            .to_string()
    } else {
        "Sechsen drehen ist nicht erlaubt.".to_string()
    });
    if rules.blind {
        s.push(
            "Der Vorleger darf vor dem Aufdecken blind ansagen: die Deckel der Wurfrunde zählen doppelt."
                .to_string(),
        );
    }
    s.push(
        "Die Deckel bestimmt der höchste Wurf, nicht der teuerste; ein Schock Out kostet alle Deckel \
         und beendet die Hälfte."
            .to_string(),
    );
    s
}

/// The tie rules of `rules` in the order they apply (§3).
fn tie_sentence(rules: &RuleSet) -> String {
    let mut steps: Vec<&str> = Vec::new();
    if rules.hand_beats_assembled {
        steps.push("aus der Hand schlägt zusammengesetzt");
    } else if rules.hand_out_beats_assembled {
        steps.push("beim Schock Out: Hand-Out schlägt zusammengewürfelten Schock Out");
    }
    if rules.fewer_throws_wins {
        steps.push("weniger Würfe gewinnt");
    }
    if steps.is_empty() {
        "Gleicher Wurf: der spätere verliert („nachgelegt ist Schitt“).".to_string()
    } else {
        format!(
            "Bei gleichem Wurf: {}; sonst verliert der spätere („nachgelegt ist Schitt“).",
            steps.join(", dann ")
        )
    }
}

#[cfg(test)]
mod tests;
