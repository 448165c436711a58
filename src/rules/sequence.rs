//! Turning sixes (schocken-rules.md §4) and the validation of a player's entered Würfe (§5).

use serde::{Deserialize, Serialize};

use super::dice::{Dice, ThrowResult};
use super::error::ThrowProblem;
use super::ruleset::{Aside, RuleSet};

/// One entered Wurf: the dice rolled (as many as were in the cup), the dice of this roll set
/// aside (`keep`), sixes of this roll turned into 1s (`turn`, 0..=2) and, where the rules allow it,
/// set-aside dice taken back into the cup before rolling (`take_back`). The last Wurf's dice all stay;
/// a `keep` on it is checked like any other (dice of this roll, allowed by `aside`) and changes nothing.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WurfInput {
    /// Dice rolled in this Wurf (values; checked to be 1..=6).
    pub roll: Vec<i64>,
    /// Dice of this roll set aside (values); on the last Wurf only checked (its dice all stay).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub keep: Vec<i64>,
    /// Sixes of this roll turned into 1s and set aside (2 sixes → 1, 3 sixes → 2).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub turn: i64,
    /// Set-aside dice put back into the cup before this roll (only without `kept_dice_stay`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub take_back: Vec<i64>,
}

fn is_zero(n: &i64) -> bool {
    *n == 0
}

/// How many Würfe a player may use in a Wurfrunde, and who fixed the limit (for the message).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Allowance {
    /// The Vorleger: up to `max_throws`.
    Vorleger(u8),
    /// A later player: up to the Vorleger's Würfe.
    Following(u8),
    /// The Auswürfeln: one Wurf each.
    Auswuerfeln,
}

impl Allowance {
    /// The most Würfe allowed.
    pub fn max(self) -> u8 {
        match self {
            Allowance::Vorleger(n) | Allowance::Following(n) => n,
            Allowance::Auswuerfeln => 1,
        }
    }

    fn exceeded(self) -> ThrowProblem {
        match self {
            Allowance::Vorleger(n) => ThrowProblem::MoreThanMax(n),
            Allowance::Following(n) => ThrowProblem::MoreThanVorleger(n),
            Allowance::Auswuerfeln => ThrowProblem::MoreThanAuswuerfeln,
        }
    }
}

/// A rejected throw: the 1-based Wurf concerned (if one) and the rule broken.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SequenceError {
    /// 1-based Wurf number, `None` when the throw as a whole is wrong.
    pub wurf: Option<u8>,
    /// The rule broken.
    pub problem: ThrowProblem,
}

fn err(wurf: usize, problem: ThrowProblem) -> SequenceError {
    SequenceError {
        wurf: Some(u8::try_from(wurf).unwrap_or(u8::MAX)),
        problem,
    }
}

/// Sixes of one Wurf that may be turned into 1s (§4): 2 sixes → 1, 3 sixes → 2, else 0.
pub fn max_turnable(sixes: usize) -> i64 {
    match sixes {
        0 | 1 => 0,
        2 => 1,
        _ => 2,
    }
}

fn die(v: i64, wurf: usize) -> Result<u8, SequenceError> {
    match u8::try_from(v) {
        Ok(d) if (1..=6).contains(&d) => Ok(d),
        _ => Err(err(wurf, ThrowProblem::DieOutOfRange(v))),
    }
}

/// The refusal for setting aside the value `v` that `aside` does not allow.
fn aside_refused(aside: Aside, v: i64) -> ThrowProblem {
    match aside {
        Aside::OnesAndSixes => ThrowProblem::OnlyOnesAndSixesAside(v),
        Aside::Any | Aside::OnesOnly => ThrowProblem::OnlyOnesAside(v),
    }
}

/// Sets aside the die `d` (entered as `v`) of Wurf `n` from `pool`, the dice of this roll still on
/// offer: refused when `aside` does not allow its face or the roll does not show it.
fn set_aside(
    d: u8,
    v: i64,
    n: usize,
    rules: &RuleSet,
    pool: &mut Vec<u8>,
) -> Result<(), SequenceError> {
    if !rules.aside.allows(d) {
        return Err(err(n, aside_refused(rules.aside, v)));
    }
    if !take(pool, d) {
        return Err(err(n, ThrowProblem::KeepNotRolled(v)));
    }
    Ok(())
}

/// Removes one `v` from `pool`; false when absent.
fn take(pool: &mut Vec<u8>, v: u8) -> bool {
    match pool.iter().position(|&x| x == v) {
        Some(i) => {
            pool.swap_remove(i);
            true
        }
        None => false,
    }
}

/// Validates a player's Würfe (§5) and derives the final dice, Würfe used and from_hand: the last
/// Wurf rolled all three dice (§1 "one Wurf of all three dice"; the seed rules: "alle Würfel müssen
/// vor dem Wurf im Becher sein"). Without `kept_dice_stay` that holds after every set-aside die went
/// back into the cup, a kept 1 and a turned six alike (§4: a result reached with a turned die is
/// never from the hand, but a die that went back is not part of the result). Errors name the
/// 1-based Wurf and the rule.
pub fn validate_sequence(
    seq: &[WurfInput],
    allowance: Allowance,
    rules: &RuleSet,
) -> Result<ThrowResult, SequenceError> {
    if seq.is_empty() {
        return Err(SequenceError {
            wurf: None,
            problem: ThrowProblem::NoWurf,
        });
    }
    let allowed = usize::from(allowance.max());
    if seq.len() > allowed {
        return Err(err(allowed + 1, allowance.exceeded()));
    }
    let mut aside: Vec<u8> = Vec::with_capacity(3);
    let last = seq.len() - 1;
    for (i, w) in seq.iter().enumerate() {
        let n = i + 1;
        for &v in &w.take_back {
            if rules.kept_dice_stay {
                return Err(err(n, ThrowProblem::TakeBackForbidden));
            }
            let d = die(v, n)?;
            if !take(&mut aside, d) {
                return Err(err(n, ThrowProblem::TakeBackNotAside(v)));
            }
        }
        let in_cup = 3 - aside.len();
        if in_cup == 0 {
            return Err(err(n, ThrowProblem::NothingInCup));
        }
        if w.roll.len() != in_cup {
            if rules.kept_dice_stay && w.roll.len() > in_cup && w.roll.len() <= 3 {
                return Err(err(n, ThrowProblem::TakeBackForbidden));
            }
            return Err(err(
                n,
                ThrowProblem::DiceCount {
                    rolled: w.roll.len(),
                    in_cup,
                },
            ));
        }
        let mut roll = Vec::with_capacity(3);
        for &v in &w.roll {
            roll.push(die(v, n)?);
        }
        if i == last {
            if w.turn != 0 {
                let problem = if n == allowed {
                    ThrowProblem::TurnOnLastWurf
                } else {
                    ThrowProblem::TurnThenStop
                };
                return Err(err(n, problem));
            }
            // a keep on the last Wurf is checked like any other; all its dice stay anyway
            let mut offer = roll.clone();
            for &v in &w.keep {
                set_aside(die(v, n)?, v, n, rules, &mut offer)?;
            }
            aside.extend_from_slice(&roll);
            break;
        }
        // Turning sixes (§4).
        if w.turn != 0 {
            if !rules.turn_sixes {
                return Err(err(n, ThrowProblem::TurnDisabled));
            }
            let sixes = roll.iter().filter(|&&v| v == 6).count();
            if w.turn < 0 || w.turn > max_turnable(sixes) {
                return Err(err(
                    n,
                    ThrowProblem::TurnTooMany {
                        turn: w.turn,
                        sixes,
                    },
                ));
            }
            for _ in 0..w.turn {
                take(&mut roll, 6);
            }
            let t = usize::try_from(w.turn).unwrap_or(0);
            aside.resize(aside.len() + t, 1);
        }
        for &v in &w.keep {
            let d = die(v, n)?;
            if w.turn > 0 && d == 6 {
                return Err(err(n, ThrowProblem::KeepSixAfterTurn));
            }
            set_aside(d, v, n, rules, &mut roll)?;
            aside.push(d);
        }
    }
    // Turning is refused on the last Wurf, so a last Wurf of all three dice means every turned die
    // went back into the cup too.
    let final_roll_len = seq[last].roll.len();
    let values: [u8; 3] = aside
        .as_slice()
        .try_into()
        .map_err(|_| err(seq.len(), ThrowProblem::FinalDiceCount(aside.len())))?;
    let dice = Dice::new(values).ok_or_else(|| err(seq.len(), ThrowProblem::DieOutOfRange(0)))?;
    Ok(ThrowResult {
        dice,
        wuerfe: u8::try_from(seq.len()).unwrap_or(u8::MAX),
        from_hand: final_roll_len == 3,
    })
}

/// Validates a throw entered as final `dice` with `wuerfe` and an optional `from_hand` (default: true
/// iff one Wurf). Errors: wrong die count or value, 0 Würfe, more than allowed, `from_hand: false` with
/// one Wurf.
pub fn validate_final(
    dice: &[i64],
    wuerfe: i64,
    from_hand: Option<bool>,
    allowance: Allowance,
) -> Result<ThrowResult, SequenceError> {
    let allowed = allowance.max();
    if wuerfe < 1 {
        return Err(SequenceError {
            wurf: None,
            problem: ThrowProblem::NoWurf,
        });
    }
    if wuerfe > i64::from(allowed) {
        return Err(err(usize::from(allowed) + 1, allowance.exceeded()));
    }
    let w = usize::try_from(wuerfe).unwrap_or(usize::MAX);
    if dice.len() != 3 {
        return Err(err(w, ThrowProblem::FinalDiceCount(dice.len())));
    }
    let mut values = [0u8; 3];
    for (slot, &v) in values.iter_mut().zip(dice) {
        *slot = die(v, w)?;
    }
    let from_hand = from_hand.unwrap_or(wuerfe == 1);
    if wuerfe == 1 && !from_hand {
        return Err(err(1, ThrowProblem::SingleWurfIsFromHand));
    }
    let dice = Dice::new(values).ok_or_else(|| err(w, ThrowProblem::DieOutOfRange(0)))?;
    Ok(ThrowResult {
        dice,
        wuerfe: u8::try_from(wuerfe).unwrap_or(u8::MAX),
        from_hand,
    })
}

#[cfg(test)]
mod tests;
