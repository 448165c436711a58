//! Turning sixes (schocken-rules.md §4) and the validation of a player's entered Würfe (§5).

use serde::{Deserialize, Serialize};

use super::dice::{Dice, ThrowResult};
use super::error::ThrowProblem;
use super::ruleset::RuleSet;

/// One entered Wurf: the dice rolled (as many as were in the cup), the dice of this roll set
/// aside (`keep`), sixes of this roll turned into 1s (`turn`, 0..=2) and, where the rules allow it,
/// set-aside dice taken back into the cup before rolling (`take_back`). The last Wurf's dice all stay.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WurfInput {
    /// Dice rolled in this Wurf (values; checked to be 1..=6).
    pub roll: Vec<i64>,
    /// Dice of this roll set aside (values); ignored on the last Wurf.
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

/// Validates a player's Würfe (§5) and derives the final dice, Würfe used and from_hand (the last
/// Wurf rolled all three dice and no six was turned). Errors name the 1-based Wurf and the rule.
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
    let mut turned = false;
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
            turned = true;
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
            if rules.only_ones_aside && d != 1 {
                return Err(err(n, ThrowProblem::OnlyOnesAside(v)));
            }
            if !take(&mut roll, d) {
                return Err(err(n, ThrowProblem::KeepNotRolled(v)));
            }
            aside.push(d);
        }
    }
    let final_roll_len = seq[last].roll.len();
    let values: [u8; 3] = aside
        .as_slice()
        .try_into()
        .map_err(|_| err(seq.len(), ThrowProblem::FinalDiceCount(aside.len())))?;
    let dice = Dice::new(values).ok_or_else(|| err(seq.len(), ThrowProblem::DieOutOfRange(0)))?;
    Ok(ThrowResult {
        dice,
        wuerfe: u8::try_from(seq.len()).unwrap_or(u8::MAX),
        from_hand: final_roll_len == 3 && !turned,
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
mod tests {
    use super::*;

    fn w(roll: &[i64], keep: &[i64], turn: i64) -> WurfInput {
        WurfInput {
            roll: roll.to_vec(),
            keep: keep.to_vec(),
            turn,
            take_back: vec![],
        }
    }

    fn ok(seq: &[WurfInput], allowance: Allowance, rules: &RuleSet) -> ([u8; 3], u8, bool) {
        let r = validate_sequence(seq, allowance, rules).unwrap();
        (r.dice.values(), r.wuerfe, r.from_hand)
    }

    #[test]
    fn valid_sequences_give_dice_wuerfe_and_from_hand() {
        let r = RuleSet::schockerliga();
        let v3 = Allowance::Vorleger(3);
        type Case = (Vec<WurfInput>, ([u8; 3], u8, bool));
        let cases: Vec<Case> = vec![
            (vec![w(&[1, 1, 1], &[], 0)], ([1, 1, 1], 1, true)),
            (
                vec![w(&[2, 3, 5], &[], 0), w(&[1, 1, 1], &[], 0)],
                ([1, 1, 1], 2, true),
            ),
            (
                vec![w(&[1, 1, 5], &[1, 1], 0), w(&[1], &[], 0)],
                ([1, 1, 1], 2, false),
            ),
            // the interchange example: turn two sixes, keep a one, roll a five
            (
                vec![w(&[6, 6, 3], &[], 1), w(&[1, 4], &[1], 0), w(&[5], &[], 0)],
                ([5, 1, 1], 3, false),
            ),
            // three sixes become two ones
            (
                vec![w(&[6, 6, 6], &[], 2), w(&[1], &[], 0)],
                ([1, 1, 1], 2, false),
            ),
            // turning, then re-rolling the rest: never from the hand
            (
                vec![w(&[6, 6, 2], &[], 1), w(&[1, 1], &[], 0)],
                ([1, 1, 1], 2, false),
            ),
            // keep on the last Wurf is ignored: all dice stay
            (vec![w(&[4, 2, 1], &[4], 0)], ([4, 2, 1], 1, true)),
        ];
        for (seq, want) in cases {
            assert_eq!(ok(&seq, v3, &r), want, "{seq:?}");
        }
    }

    #[test]
    fn invalid_sequences_name_the_wurf_and_rule() {
        let r = RuleSet::schockerliga();
        let ones_only = RuleSet {
            only_ones_aside: true,
            ..r.clone()
        };
        let no_turn = RuleSet {
            turn_sixes: false,
            ..r.clone()
        };
        type Case = (Vec<WurfInput>, Allowance, RuleSet, Option<u8>, ThrowProblem);
        let cases: Vec<Case> = vec![
            (
                vec![],
                Allowance::Vorleger(3),
                r.clone(),
                None,
                ThrowProblem::NoWurf,
            ),
            (
                vec![
                    w(&[2, 3, 5], &[], 0),
                    w(&[1, 2, 3], &[], 0),
                    w(&[1, 1, 1], &[], 0),
                ],
                Allowance::Following(2),
                r.clone(),
                Some(3),
                ThrowProblem::MoreThanVorleger(2),
            ),
            (
                vec![w(&[2, 3, 5], &[], 0), w(&[1, 1, 1], &[], 0)],
                Allowance::Auswuerfeln,
                r.clone(),
                Some(2),
                ThrowProblem::MoreThanAuswuerfeln,
            ),
            (
                vec![w(&[2, 3, 7], &[], 0)],
                Allowance::Vorleger(3),
                r.clone(),
                Some(1),
                ThrowProblem::DieOutOfRange(7),
            ),
            (
                vec![w(&[2, 3], &[], 0)],
                Allowance::Vorleger(3),
                r.clone(),
                Some(1),
                ThrowProblem::DiceCount {
                    rolled: 2,
                    in_cup: 3,
                },
            ),
            (
                vec![w(&[1, 3, 5], &[1], 0), w(&[2], &[], 0)],
                Allowance::Vorleger(3),
                r.clone(),
                Some(2),
                ThrowProblem::DiceCount {
                    rolled: 1,
                    in_cup: 2,
                },
            ),
            // taking a set-aside die back into the cup
            (
                vec![w(&[1, 3, 5], &[1], 0), w(&[2, 2, 2], &[], 0)],
                Allowance::Vorleger(3),
                r.clone(),
                Some(2),
                ThrowProblem::TakeBackForbidden,
            ),
            (
                vec![
                    w(&[1, 3, 5], &[1], 0),
                    WurfInput {
                        roll: vec![2, 2, 2],
                        keep: vec![],
                        turn: 0,
                        take_back: vec![1],
                    },
                ],
                Allowance::Vorleger(3),
                r.clone(),
                Some(2),
                ThrowProblem::TakeBackForbidden,
            ),
            (
                vec![w(&[1, 3, 5], &[4], 0), w(&[2, 2], &[], 0)],
                Allowance::Vorleger(3),
                r.clone(),
                Some(1),
                ThrowProblem::KeepNotRolled(4),
            ),
            (
                vec![w(&[1, 3, 5], &[5], 0), w(&[2, 2], &[], 0)],
                Allowance::Vorleger(3),
                ones_only,
                Some(1),
                ThrowProblem::OnlyOnesAside(5),
            ),
            // turning: not rolled in this Wurf, too many, on the last Wurf, disabled
            (
                vec![w(&[6, 3, 2], &[], 1), w(&[1, 1], &[], 0)],
                Allowance::Vorleger(3),
                r.clone(),
                Some(1),
                ThrowProblem::TurnTooMany { turn: 1, sixes: 1 },
            ),
            (
                vec![w(&[6, 6, 2], &[], 2), w(&[1], &[], 0)],
                Allowance::Vorleger(3),
                r.clone(),
                Some(1),
                ThrowProblem::TurnTooMany { turn: 2, sixes: 2 },
            ),
            // "zusammengewürfelte" sixes: one kept six and one rolled six
            (
                vec![w(&[6, 3, 2], &[6], 0), w(&[6, 4], &[], 1), w(&[1], &[], 0)],
                Allowance::Vorleger(3),
                r.clone(),
                Some(2),
                ThrowProblem::TurnTooMany { turn: 1, sixes: 1 },
            ),
            (
                vec![w(&[2, 3, 5], &[], 0), w(&[6, 6, 2], &[], 1)],
                Allowance::Following(2),
                r.clone(),
                Some(2),
                ThrowProblem::TurnOnLastWurf,
            ),
            (
                vec![w(&[6, 6, 2], &[], 1)],
                Allowance::Vorleger(3),
                r.clone(),
                Some(1),
                ThrowProblem::TurnThenStop,
            ),
            (
                vec![w(&[6, 6, 2], &[], 1), w(&[1, 1], &[], 0)],
                Allowance::Vorleger(3),
                no_turn,
                Some(1),
                ThrowProblem::TurnDisabled,
            ),
            (
                vec![w(&[6, 6, 2], &[6], 1), w(&[1], &[], 0)],
                Allowance::Vorleger(3),
                r.clone(),
                Some(1),
                ThrowProblem::KeepSixAfterTurn,
            ),
            (
                vec![w(&[1, 1, 1], &[1, 1, 1], 0), w(&[], &[], 0)],
                Allowance::Vorleger(3),
                r.clone(),
                Some(2),
                ThrowProblem::NothingInCup,
            ),
        ];
        for (seq, allowance, rules, wurf, problem) in cases {
            let e = validate_sequence(&seq, allowance, &rules).unwrap_err();
            assert_eq!(e, SequenceError { wurf, problem }, "{seq:?}");
        }
    }

    #[test]
    fn taking_back_is_possible_without_kept_dice_stay() {
        let loose = RuleSet {
            kept_dice_stay: false,
            ..RuleSet::schockerliga()
        };
        let seq = vec![
            w(&[1, 3, 5], &[5], 0),
            WurfInput {
                roll: vec![1, 1, 1],
                keep: vec![],
                turn: 0,
                take_back: vec![5],
            },
        ];
        // all three dice were in the cup for the last Wurf: from the hand
        assert_eq!(
            ok(&seq, Allowance::Vorleger(3), &loose),
            ([1, 1, 1], 2, true)
        );
        let bad = vec![
            w(&[1, 3, 5], &[5], 0),
            WurfInput {
                roll: vec![1, 1, 1],
                keep: vec![],
                turn: 0,
                take_back: vec![4],
            },
        ];
        assert_eq!(
            validate_sequence(&bad, Allowance::Vorleger(3), &loose)
                .unwrap_err()
                .problem,
            ThrowProblem::TakeBackNotAside(4)
        );
    }

    #[test]
    fn final_dice_form() {
        let v = Allowance::Vorleger(3);
        let f = Allowance::Following(1);
        assert_eq!(
            validate_final(&[1, 2, 4], 1, None, v).unwrap(),
            ThrowResult {
                dice: Dice::new([4, 2, 1]).unwrap(),
                wuerfe: 1,
                from_hand: true
            }
        );
        assert!(!validate_final(&[1, 2, 4], 2, None, v).unwrap().from_hand);
        assert!(
            validate_final(&[1, 2, 4], 2, Some(true), v)
                .unwrap()
                .from_hand
        );
        type Case = (Vec<i64>, i64, Option<bool>, Allowance, SequenceError);
        let cases: Vec<Case> = vec![
            (
                vec![1, 1, 5],
                2,
                Some(false),
                f,
                err(2, ThrowProblem::MoreThanVorleger(1)),
            ),
            (
                vec![1, 1, 5],
                4,
                None,
                v,
                err(4, ThrowProblem::MoreThanMax(3)),
            ),
            (
                vec![7, 1, 1],
                1,
                None,
                v,
                err(1, ThrowProblem::DieOutOfRange(7)),
            ),
            (
                vec![1, 1],
                1,
                None,
                v,
                err(1, ThrowProblem::FinalDiceCount(2)),
            ),
            (
                vec![1, 1, 1],
                1,
                Some(false),
                v,
                err(1, ThrowProblem::SingleWurfIsFromHand),
            ),
            (
                vec![1, 1, 1],
                0,
                None,
                v,
                SequenceError {
                    wurf: None,
                    problem: ThrowProblem::NoWurf,
                },
            ),
        ];
        for (dice, wuerfe, hand, allowance, want) in cases {
            assert_eq!(
                validate_final(&dice, wuerfe, hand, allowance).unwrap_err(),
                want,
                "{dice:?} {wuerfe}"
            );
        }
    }
}
