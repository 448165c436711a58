//! The order of results within one Wurfrunde (schocken-rules.md §3): a strict total order on
//! (result, position), highest first, with the tie-breaks of the RuleSet.

use std::cmp::Ordering;

use super::classify::Class;
use super::dice::ThrowResult;
use super::ruleset::{AchterAbove, RuleSet, StreetOrder};

/// One classified result at its position in the Wurfrunde (0 = the Vorleger).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Ranked {
    /// The result's class.
    pub class: Class,
    /// Würfe used (1..=3), for `fewer_throws_wins`.
    pub wuerfe: u8,
    /// From the hand, for `hand_out_beats_assembled` and `hand_beats_assembled`.
    pub from_hand: bool,
    /// Position in throwing order, 0 = Vorleger.
    pub position: usize,
}

impl Ranked {
    /// Bundles a classified result with its position.
    pub fn new(result: &ThrowResult, class: Class, position: usize) -> Self {
        Ranked {
            class,
            wuerfe: result.wuerfe,
            from_hand: result.from_hand,
            position,
        }
    }
}

/// The strength of a class alone (higher is better), before tie-breaks: Schock Out > Neuner > Jule >
/// Schock 6..2 > General 6..2 (with `general_beats_schock_doof`: between Schock 3 and Schock 2) >
/// Straße (by top die when `street_order = ascending`) > Hausnummer 666..221; an Achter directly above
/// the class `achter_above` names.
pub fn strength(class: Class, rules: &RuleSet) -> u32 {
    match class {
        Class::SchockOut => 10_000,
        Class::Neuner => 9_000,
        Class::Achter => match rules.achter_above {
            AchterAbove::Neuner => 9_500,
            AchterAbove::Jule => 8_500,
            AchterAbove::Schock => 7_800,
            // above General 6 (7_256), below Schock 3 (7_300)
            AchterAbove::General if rules.general_beats_schock_doof => 7_280,
            // above General 6 (6_006), below Schock 2 (7_200)
            AchterAbove::General => 6_500,
            AchterAbove::Strasse => 5_500,
            AchterAbove::Hausnummer => 4_000,
        },
        Class::Jule => 8_000,
        Class::Schock(n) => 7_000 + 100 * u32::from(n),
        Class::General(n) if rules.general_beats_schock_doof => 7_250 + u32::from(n),
        Class::General(n) => 6_000 + u32::from(n),
        Class::Strasse(top) => match rules.street_order {
            StreetOrder::Ascending => 5_000 + u32::from(top),
            StreetOrder::AllEqual => 5_000,
        },
        Class::Hausnummer(v) => u32::from(v),
    }
}

/// A key whose lexicographic order is the order of §3 (greater = higher): strength; from the hand
/// first, among Schock Outs (`hand_out_beats_assembled`) or among all equal results
/// (`hand_beats_assembled`); fewer Würfe (`fewer_throws_wins`); then position: earlier is higher,
/// except the later of two Schock Outs with `schock_out_later_wins`.
pub fn rank_key(r: &Ranked, rules: &RuleSet) -> (u32, bool, i32, i64) {
    let s = strength(r.class, rules);
    let out = r.class == Class::SchockOut;
    let hand_first =
        r.from_hand && (rules.hand_beats_assembled || (out && rules.hand_out_beats_assembled));
    let fewer = if rules.fewer_throws_wins {
        -i32::from(r.wuerfe)
    } else {
        0
    };
    let pos = i64::try_from(r.position).unwrap_or(i64::MAX);
    let pos_key = if out && rules.schock_out_later_wins {
        pos
    } else {
        -pos
    };
    (s, hand_first, fewer, pos_key)
}

/// Compares two results of one Wurfrunde: `Greater` when `a` is higher. Never `Equal` for two
/// different positions.
pub fn compare(a: &Ranked, b: &Ranked, rules: &RuleSet) -> Ordering {
    rank_key(a, rules).cmp(&rank_key(b, rules))
}

/// Indices of `ranked`, highest first.
pub fn order(ranked: &[Ranked], rules: &RuleSet) -> Vec<usize> {
    let mut idx: Vec<usize> = (0..ranked.len()).collect();
    idx.sort_by(|&i, &j| compare(&ranked[j], &ranked[i], rules));
    idx
}

#[cfg(test)]
mod tests;
