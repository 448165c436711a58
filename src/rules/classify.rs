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
    /// 4-2-1 from the hand, with `jule` on.
    Jule,
    /// 1-1-n, n = 2..=6 (Schock 2 is the "Schock doof").
    Schock(u8),
    /// n-n-n, n = 2..=6 (from the hand when `general_from_hand_only`).
    General(u8),
    /// A Straße, by its top die 3..=6 (from the hand when `street_from_hand_only`).
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
            Class::SchockOut | Class::Neuner | Class::Jule => None,
            Class::Schock(n) | Class::General(n) | Class::Strasse(n) => Some(u16::from(n)),
            Class::Hausnummer(v) => Some(v),
        }
    }

    /// The German label ("Schock Out", "Jule", "Schock 5", "General 3", "Straße 4-5-6", "643").
    pub fn label(self) -> String {
        match self {
            Class::SchockOut => "Schock Out".into(),
            Class::Neuner => "Neuner".into(),
            Class::Jule => "Jule".into(),
            Class::Schock(n) => format!("Schock {n}"),
            Class::General(n) => format!("General {n}"),
            Class::Strasse(t) => format!("Straße {}-{}-{}", t - 2, t - 1, t),
            Class::Hausnummer(v) => v.to_string(),
        }
    }

    /// The Deckel this result costs the loser when it is the highest of a Wurfrunde (§2, without
    /// `blind`): Schock Out all, Neuner 9, Jule 7, Schock n n, General 3, Straße 2, Hausnummer 1.
    pub fn deckel(self) -> Deckel {
        match self {
            Class::SchockOut => Deckel::All,
            Class::Neuner => Deckel::Count(9),
            Class::Jule => Deckel::Count(7),
            Class::Schock(n) => Deckel::Count(n),
            Class::General(_) => Deckel::Count(3),
            Class::Strasse(_) => Deckel::Count(2),
            Class::Hausnummer(_) => Deckel::Count(1),
        }
    }
}

/// Classifies final dice under `rules` (§2, checked in the table's order): Schock Out, [Neuner],
/// Jule, Schock n, General n, Straße, Hausnummer. Assembled Jule/Neuner/General/Straße (where the rules
/// ask for the hand) are the Hausnummer of their dice.
pub fn classify(dice: Dice, from_hand: bool, rules: &RuleSet) -> Class {
    let [a, b, c] = dice.values();
    if dice.count(1) == 3 {
        return Class::SchockOut;
    }
    if rules.neuner && from_hand && [a, b, c] == [2, 2, 1] {
        return Class::Neuner;
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
    if a == b + 1 && b == c + 1 && (from_hand || !rules.street_from_hand_only) {
        return Class::Strasse(a);
    }
    Class::Hausnummer(dice.number())
}

/// Classifies a [`ThrowResult`] (its dice and from_hand flag).
pub fn classify_result(result: &ThrowResult, rules: &RuleSet) -> Class {
    classify(result.dice, result.from_hand, rules)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d(v: [u8; 3]) -> Dice {
        Dice::new(v).unwrap()
    }

    #[test]
    fn league_classification_table() {
        let r = RuleSet::schockerliga();
        let cases: Vec<([u8; 3], bool, Class, Deckel)> = vec![
            ([1, 1, 1], true, Class::SchockOut, Deckel::All),
            ([1, 1, 1], false, Class::SchockOut, Deckel::All),
            ([4, 2, 1], true, Class::Jule, Deckel::Count(7)),
            ([1, 2, 4], true, Class::Jule, Deckel::Count(7)),
            ([4, 2, 1], false, Class::Hausnummer(421), Deckel::Count(1)),
            ([1, 1, 6], false, Class::Schock(6), Deckel::Count(6)),
            ([1, 6, 1], true, Class::Schock(6), Deckel::Count(6)),
            ([1, 1, 2], true, Class::Schock(2), Deckel::Count(2)),
            ([5, 5, 5], true, Class::General(5), Deckel::Count(3)),
            ([5, 5, 5], false, Class::Hausnummer(555), Deckel::Count(1)),
            ([2, 2, 2], true, Class::General(2), Deckel::Count(3)),
            ([6, 5, 4], true, Class::Strasse(6), Deckel::Count(2)),
            ([2, 4, 3], true, Class::Strasse(4), Deckel::Count(2)),
            ([4, 3, 2], true, Class::Strasse(4), Deckel::Count(2)),
            ([3, 2, 1], true, Class::Strasse(3), Deckel::Count(2)),
            ([1, 3, 2], true, Class::Strasse(3), Deckel::Count(2)),
            ([4, 3, 2], false, Class::Hausnummer(432), Deckel::Count(1)),
            ([6, 5, 4], false, Class::Hausnummer(654), Deckel::Count(1)),
            ([3, 6, 4], true, Class::Hausnummer(643), Deckel::Count(1)),
            ([2, 2, 1], true, Class::Hausnummer(221), Deckel::Count(1)),
            ([6, 6, 5], true, Class::Hausnummer(665), Deckel::Count(1)),
            ([6, 4, 2], true, Class::Hausnummer(642), Deckel::Count(1)),
            ([5, 3, 1], true, Class::Hausnummer(531), Deckel::Count(1)),
        ];
        for (dice, hand, class, deckel) in cases {
            let got = classify(d(dice), hand, &r);
            assert_eq!(got, class, "{dice:?} hand={hand}");
            assert_eq!(got.deckel(), deckel, "{dice:?}");
        }
    }

    #[test]
    fn variants_change_the_classification() {
        let no_jule = RuleSet::wikipedia_standard();
        assert_eq!(
            classify(d([4, 2, 1]), true, &no_jule),
            Class::Hausnummer(421)
        );
        let blog = RuleSet::blog_rules();
        assert_eq!(classify(d([5, 5, 5]), false, &blog), Class::General(5));
        assert_eq!(classify(d([4, 3, 2]), false, &blog), Class::Strasse(4));
        assert_eq!(classify(d([4, 2, 1]), true, &blog), Class::Hausnummer(421));
        let neuner = RuleSet {
            neuner: true,
            ..RuleSet::schockerliga()
        };
        assert_eq!(classify(d([2, 2, 1]), true, &neuner), Class::Neuner);
        assert_eq!(Class::Neuner.deckel(), Deckel::Count(9));
        assert_eq!(
            classify(d([2, 2, 1]), false, &neuner),
            Class::Hausnummer(221)
        );
    }

    #[test]
    fn every_roll_gets_exactly_the_expected_kind() {
        let r = RuleSet::schockerliga();
        for roll in Dice::all_rolls() {
            for hand in [true, false] {
                let c = classify(d(roll), hand, &r);
                let ones = roll.iter().filter(|&&v| v == 1).count();
                match c {
                    Class::SchockOut => assert_eq!(ones, 3),
                    Class::Schock(n) => assert!(ones == 2 && (2..=6).contains(&n)),
                    Class::Hausnummer(v) => assert!((221..=666).contains(&v) && ones < 2),
                    _ => assert!(ones < 2 && hand),
                }
            }
        }
    }

    #[test]
    fn labels_and_values() {
        let cases = [
            (Class::SchockOut, "schock_out", None, "Schock Out"),
            (Class::Jule, "jule", None, "Jule"),
            (Class::Schock(5), "schock", Some(5), "Schock 5"),
            (Class::General(3), "general", Some(3), "General 3"),
            (Class::Strasse(6), "strasse", Some(6), "Straße 4-5-6"),
            (Class::Hausnummer(643), "hausnummer", Some(643), "643"),
        ];
        for (c, kind, value, label) in cases {
            assert_eq!(serde_json::to_value(c.kind()).unwrap(), kind);
            assert_eq!(c.value(), value);
            assert_eq!(c.label(), label);
        }
        assert_eq!(serde_json::to_string(&Deckel::All).unwrap(), "\"all\"");
        assert_eq!(serde_json::to_string(&Deckel::Count(7)).unwrap(), "7");
        assert_eq!(
            serde_json::from_str::<Deckel>("\"all\"").unwrap(),
            Deckel::All
        );
        assert_eq!(
            serde_json::from_str::<Deckel>("3").unwrap(),
            Deckel::Count(3)
        );
    }
}
