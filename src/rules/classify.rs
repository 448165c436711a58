//! Classification of a final result (schocken-rules.md §2) and its Deckel.

use std::fmt;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::dice::{Dice, ThrowResult};
use super::ruleset::RuleSet;

/// The class of a final result, with its value (schocken-rules.md §2).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Class {
    /// 1-1-1, always.
    SchockOut,
    /// 2-2-1 from the hand, only with the `neuner` variant.
    Neuner,
    /// 3-3-1 from the hand, only with the `achter` variant.
    Achter,
    /// 4-2-1 from the hand, with `jule` on.
    Jule,
    /// 1-1-n, n = 2..=6 (Schock 2 is the "Schock doof").
    Schock(u8),
    /// n-n-n, n = 2..=6 (from the hand when `general_from_hand_only`).
    General(u8),
    /// A Straße, by its top die 3..=6 (from the hand where `street_from_hand` asks for it).
    Strasse(u8),
    /// Anything else, read highest die first (221..=666; 666 only assembled).
    Hausnummer(u16),
}

/// The class names of the JSON interchange (`class` of a Wurfrunde result).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ClassKind {
    /// `schock_out`
    SchockOut,
    /// `neuner` (only with the `neuner` variant)
    Neuner,
    /// `achter` (only with the `achter` variant)
    Achter,
    /// `jule`
    Jule,
    /// `schock`
    Schock,
    /// `general`
    General,
    /// `strasse`
    Strasse,
    /// `hausnummer`
    Hausnummer,
}

impl ClassKind {
    /// The German name of the class ("Schock Out", "Straße", …).
    pub fn german(self) -> &'static str {
        match self {
            ClassKind::SchockOut => "Schock Out",
            ClassKind::Neuner => "Neuner",
            ClassKind::Achter => "Achter",
            ClassKind::Jule => "Jule",
            ClassKind::Schock => "Schock",
            ClassKind::General => "General",
            ClassKind::Strasse => "Straße",
            ClassKind::Hausnummer => "Hausnummer",
        }
    }
}

/// Deckel a Wurfrunde costs: a count, or all Deckel of the half (Schock Out). JSON: a number or `"all"`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Deckel {
    /// Every Deckel of the half: the loser has lost the half.
    All,
    /// This many Deckel.
    Count(u8),
}

impl Serialize for Deckel {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Deckel::All => s.serialize_str("all"),
            Deckel::Count(n) => s.serialize_u8(*n),
        }
    }
}

impl<'de> Deserialize<'de> for Deckel {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        #[derive(Deserialize)]
        #[serde(untagged)]
        enum Raw {
            N(u8),
            S(String),
        }
        match Raw::deserialize(d)? {
            Raw::N(n) => Ok(Deckel::Count(n)),
            Raw::S(s) if s == "all" => Ok(Deckel::All),
            Raw::S(s) => Err(serde::de::Error::custom(format!(
                "Deckel: Zahl oder \"all\", nicht \"{s}\""
            ))),
        }
    }
}

impl fmt::Display for Deckel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Deckel::All => f.write_str("alle Deckel"),
            Deckel::Count(n) => write!(f, "{n} Deckel"),
        }
    }
}

impl Class {
    /// The interchange class name of this class.
    pub fn kind(self) -> ClassKind {
        match self {
            Class::SchockOut => ClassKind::SchockOut,
            Class::Neuner => ClassKind::Neuner,
            Class::Achter => ClassKind::Achter,
            Class::Jule => ClassKind::Jule,
            Class::Schock(_) => ClassKind::Schock,
            Class::General(_) => ClassKind::General,
            Class::Strasse(_) => ClassKind::Strasse,
            Class::Hausnummer(_) => ClassKind::Hausnummer,
        }
    }

    /// The interchange `value`: n of Schock n / General n, the top die of a Straße, the number of a
    /// Hausnummer, else `None`.
    pub fn value(self) -> Option<u16> {
        match self {
            Class::SchockOut | Class::Neuner | Class::Achter | Class::Jule => None,
            Class::Schock(n) | Class::General(n) | Class::Strasse(n) => Some(u16::from(n)),
            Class::Hausnummer(v) => Some(v),
        }
    }

    /// The German label ("Schock Out", "Jule", "Schock 5", "General 3", "Straße 4-5-6", "643").
    pub fn label(self) -> String {
        match self {
            Class::SchockOut => "Schock Out".into(),
            Class::Neuner => "Neuner".into(),
            Class::Achter => "Achter".into(),
            Class::Jule => "Jule".into(),
            Class::Schock(n) => format!("Schock {n}"),
            Class::General(n) => format!("General {n}"),
            Class::Strasse(t) => format!("Straße {}-{}-{}", t - 2, t - 1, t),
            Class::Hausnummer(v) => v.to_string(),
        }
    }

    /// The Deckel this result costs the loser when it is the highest of a Wurfrunde (§2, without
    /// `blind`), with the variants' default counts: Schock Out all, Neuner 9, Achter 8, Jule 7,
    /// Schock n n, General 3, Straße 2, Hausnummer 1. Under a RuleSet use [`Class::deckel_with`].
    pub fn deckel(self) -> Deckel {
        match self {
            Class::SchockOut => Deckel::All,
            Class::Neuner => Deckel::Count(9),
            Class::Achter => Deckel::Count(8),
            Class::Jule => Deckel::Count(7),
            Class::Schock(n) => Deckel::Count(n),
            Class::General(_) => Deckel::Count(3),
            Class::Strasse(_) => Deckel::Count(2),
            Class::Hausnummer(_) => Deckel::Count(1),
        }
    }

    /// The Deckel this result costs under `rules` (§2, without `blind`): as [`Class::deckel`], but a
    /// Neuner costs `rules.neuner_deckel` and an Achter `rules.achter_deckel`.
    pub fn deckel_with(self, rules: &RuleSet) -> Deckel {
        match self {
            Class::Neuner => Deckel::Count(rules.neuner_deckel),
            Class::Achter => Deckel::Count(rules.achter_deckel),
            other => other.deckel(),
        }
    }
}

/// Classifies final dice under `rules` (§2, checked in the table's order): Schock Out, [Neuner],
/// [Achter], Jule, Schock n, General n, Straße, Hausnummer. Assembled Jule/Neuner/Achter/General/Straße
/// (where the rules ask for the hand) are the Hausnummer of their dice.
pub fn classify(dice: Dice, from_hand: bool, rules: &RuleSet) -> Class {
    let [a, b, c] = dice.values();
    if dice.count(1) == 3 {
        return Class::SchockOut;
    }
    if rules.neuner && from_hand && [a, b, c] == [2, 2, 1] {
        return Class::Neuner;
    }
    if rules.achter && from_hand && [a, b, c] == [3, 3, 1] {
        return Class::Achter;
    }
    if rules.jule && from_hand && [a, b, c] == [4, 2, 1] {
        return Class::Jule;
    }
    if b == 1 && c == 1 {
        return Class::Schock(a);
    }
    if a == b && b == c && (from_hand || !rules.general_from_hand_only) {
        return Class::General(a);
    }
    if a == b + 1 && b == c + 1 && (from_hand || !rules.street_from_hand.requires_hand(a)) {
        return Class::Strasse(a);
    }
    Class::Hausnummer(dice.number())
}

/// Classifies a [`ThrowResult`] (its dice and from_hand flag).
pub fn classify_result(result: &ThrowResult, rules: &RuleSet) -> Class {
    classify(result.dice, result.from_hand, rules)
}

#[cfg(test)]
mod tests;
