//! The Glücksfaktor's odds (schocken-rules.md §1, §4): the exact probability of a Schock Out (1-1-1)
//! within n Würfe, and the Schock Outs to expect from a list of turns, as exact fractions.
//!
//! **Strategy assumed.** The player goes for the Schock Out and nothing else: after each Wurf but
//! his last he sets aside every 1; when the RuleSet allows turning sixes (`turn_sixes`, league
//! default) he turns as many sixes of that Wurf as allowed (2 sixes → one 1, 3 sixes → two 1s; never
//! on his last allowed Wurf, §4); he rerolls everything else and stops at 1-1-1. This is the best
//! play for a Schock Out: a die already showing 1 can only help, and fewer dice left to turn into
//! 1s never lowers the chance (each die still needed must come up 1). Real players often stop early
//! or keep other dice for a Schock or General, so the figure is what a player would expect if he
//! always went for the Out. The probability is computed by enumerating every roll of the dice in
//! the cup, Wurf by Wurf, not by simulation.

use std::cmp::Ordering;

use serde::Serialize;

use super::ruleset::RuleSet;
use super::sequence::max_turnable;

/// A non-negative exact fraction `num / den`, always reduced, `den` > 0 (probabilities and expected
/// counts of Schock Outs, schocken-rules.md §2). Compared exactly by cross-multiplication.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
pub struct Fraction {
    num: u64,
    den: u64,
}

fn gcd(mut a: u128, mut b: u128) -> u128 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

impl Fraction {
    /// 0 / 1.
    pub const ZERO: Fraction = Fraction { num: 0, den: 1 };
    /// 1 / 1.
    pub const ONE: Fraction = Fraction { num: 1, den: 1 };

    /// `num / den` reduced; `None` when `den` is 0.
    pub fn new(num: u64, den: u64) -> Option<Fraction> {
        Fraction::reduced(u128::from(num), u128::from(den))
    }

    /// `num / den` reduced; `None` when `den` is 0 or the reduced parts do not fit in u64.
    fn reduced(num: u128, den: u128) -> Option<Fraction> {
        if den == 0 {
            return None;
        }
        let g = gcd(num, den).max(1);
        Some(Fraction {
            num: u64::try_from(num / g).ok()?,
            den: u64::try_from(den / g).ok()?,
        })
    }

    /// The numerator (reduced).
    pub fn num(self) -> u64 {
        self.num
    }

    /// The denominator (reduced, > 0).
    pub fn den(self) -> u64 {
        self.den
    }

    /// The value as a float, `num as f64 / den as f64` (for display only).
    pub fn as_f64(self) -> f64 {
        self.num as f64 / self.den as f64
    }

    /// `self + other`, exact; `None` when the reduced result does not fit in u64.
    pub fn checked_add(self, other: Fraction) -> Option<Fraction> {
        let (a, b) = (u128::from(self.num), u128::from(self.den));
        let (c, d) = (u128::from(other.num), u128::from(other.den));
        let g = gcd(b, d).max(1);
        let den = b / g * d;
        Fraction::reduced(a * (den / b) + c * (den / d), den)
    }

    /// `self × k`, exact; `None` when the reduced result does not fit in u64.
    pub fn checked_mul_int(self, k: u64) -> Option<Fraction> {
        Fraction::reduced(u128::from(self.num) * u128::from(k), u128::from(self.den))
    }
}

impl Default for Fraction {
    /// 0 / 1.
    fn default() -> Self {
        Fraction::ZERO
    }
}

impl PartialOrd for Fraction {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Fraction {
    fn cmp(&self, other: &Self) -> Ordering {
        (u128::from(self.num) * u128::from(other.den))
            .cmp(&(u128::from(other.num) * u128::from(self.den)))
    }
}

/// The dice still to be turned into 1s after one Wurf of `rolled` dice (values 1..=6) when
/// `may_turn` (not the last Wurf, turning sixes on): every 1 is set aside, and the turnable sixes
/// of that Wurf become 1s (§4; the last six goes back into the cup).
fn still_needed(rolled: &[u8], may_turn: bool) -> usize {
    let ones = rolled.iter().filter(|&&v| v == 1).count();
    let sixes = rolled.iter().filter(|&&v| v == 6).count();
    let turned = if may_turn {
        usize::try_from(max_turnable(sixes)).unwrap_or(0)
    } else {
        0
    };
    rolled.len().saturating_sub(ones + turned)
}

/// Every ordered roll of `k` dice (6^k of them, k ≤ 3).
fn rolls(k: usize) -> Vec<Vec<u8>> {
    (0..k).fold(vec![Vec::new()], |acc, _| {
        acc.into_iter()
            .flat_map(|r| {
                (1..=6u8).map(move |v| {
                    let mut next = r.clone();
                    next.push(v);
                    next
                })
            })
            .collect()
    })
}

/// The exact probability of a Schock Out (1-1-1, schocken-rules.md §2, §4) within `wuerfe` Würfe under `game`, for a player
/// following the strategy of the module note (keep every 1, turn sixes when `game.turn_sixes` and
/// it is not his last Wurf). `wuerfe` above `game.max_throws` counts as `max_throws`; 0 gives 0.
/// League default: 1 Wurf 1/216, 2 Würfe 379/11664, 3 Würfe 54271/629856.
pub fn schock_out_probability(wuerfe: u8, game: &RuleSet) -> Fraction {
    let n = usize::from(wuerfe.min(game.max_throws).min(3));
    // Only n (0..=3) and turn_sixes matter: eight values, enumerated once per process.
    static TABLES: std::sync::OnceLock<[[Fraction; 4]; 2]> = std::sync::OnceLock::new();
    let tables = TABLES.get_or_init(|| {
        [false, true].map(|turn| [0, 1, 2, 3].map(|n| enumerated_probability(n, turn)))
    });
    tables[usize::from(game.turn_sixes)][n]
}

/// The probability of [`schock_out_probability`] with `n` Würfe (0..=3) and sixes turned or not,
/// by enumerating every roll Wurf by Wurf.
fn enumerated_probability(n: usize, turn_sixes: bool) -> Fraction {
    // q[m][k]: probability of reaching 1-1-1 with k dice still needed and m Würfe left.
    let mut q = vec![[Fraction::ZERO; 4]; n + 1];
    for row in q.iter_mut() {
        row[0] = Fraction::ONE;
    }
    for m in 1..=n {
        let may_turn = turn_sixes && m >= 2;
        for k in 1..=3usize {
            // outcomes[j] = rolls of k dice that leave j dice still needed
            let mut outcomes = [0u64; 4];
            for roll in rolls(k) {
                let left = still_needed(&roll, may_turn);
                if let Some(c) = outcomes.get_mut(left) {
                    *c += 1;
                }
            }
            let total: u64 = outcomes.iter().sum();
            // Σ count_j · q[m − 1][j] / 6^k. Every denominator divides 6^9, so nothing overflows.
            let mut sum = Fraction::ZERO;
            for (j, &count) in outcomes.iter().enumerate() {
                if let Some(s) = q[m - 1][j]
                    .checked_mul_int(count)
                    .and_then(|t| sum.checked_add(t))
                {
                    sum = s;
                }
            }
            q[m][k] =
                Fraction::reduced(u128::from(sum.num), u128::from(sum.den) * u128::from(total))
                    .unwrap_or(Fraction::ZERO);
        }
    }
    q[n][3]
}

/// The Schock Outs (schocken-rules.md §2) to expect from the turns `throws` under the league's default RuleSet
/// (`schockerliga`): Σ [`schock_out_probability`] over the turns, each entry the Würfe (1..=3) the
/// player had in one turn (a Wurfrunde; the Auswürfeln is 1). Exact; see [`expected_schock_outs_with`].
pub fn expected_schock_outs(throws: &[u8]) -> Fraction {
    expected_schock_outs_with(&RuleSet::default(), throws)
}

/// The Schock Outs (schocken-rules.md §2) to expect from the turns `throws` under `game`: Σ over the turns of
/// [`schock_out_probability`] of that turn's Würfe (exact; the denominator divides 6^9). It would
/// only saturate at `u64::MAX` for more than 10^12 turns, more than fit in memory.
pub fn expected_schock_outs_with(game: &RuleSet, throws: &[u8]) -> Fraction {
    let mut turns = [0u64; 4];
    for &w in throws {
        let w = usize::from(w.min(game.max_throws).min(3));
        if let Some(c) = turns.get_mut(w) {
            *c += 1;
        }
    }
    let mut sum = Fraction::ZERO;
    for (w, &count) in turns.iter().enumerate().skip(1) {
        let p = schock_out_probability(u8::try_from(w).unwrap_or(3), game);
        sum = p
            .checked_mul_int(count)
            .and_then(|t| sum.checked_add(t))
            .unwrap_or(Fraction {
                num: u64::MAX,
                den: 1,
            });
    }
    sum
}

#[cfg(test)]
mod tests;
