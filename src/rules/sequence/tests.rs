//! Unit tests of `src/rules/sequence.rs` (a plain `mod tests;` beside it, so the module reads as the code alone).

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
        // a valid keep on the last Wurf changes nothing: all dice stay
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
        aside: Aside::OnesOnly,
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

#[test]
fn aside_rule_decides_which_dice_may_be_set_aside() {
    // (aside, first roll, keep, Ok(final dice after rolling 2s) or Err(problem))
    type Case = (Aside, [i64; 3], Vec<i64>, Result<[u8; 3], ThrowProblem>);
    let cases: Vec<Case> = vec![
        (Aside::Any, [1, 5, 3], vec![1, 5], Ok([5, 2, 1])),
        (Aside::Any, [6, 4, 3], vec![4], Ok([4, 2, 2])),
        (Aside::OnesAndSixes, [1, 6, 3], vec![1, 6], Ok([6, 2, 1])),
        (Aside::OnesAndSixes, [6, 4, 3], vec![6], Ok([6, 2, 2])),
        (
            Aside::OnesAndSixes,
            [1, 5, 3],
            vec![1, 5],
            Err(ThrowProblem::OnlyOnesAndSixesAside(5)),
        ),
        (Aside::OnesOnly, [1, 1, 3], vec![1, 1], Ok([2, 1, 1])),
        (
            Aside::OnesOnly,
            [1, 6, 3],
            vec![6],
            Err(ThrowProblem::OnlyOnesAside(6)),
        ),
        (
            Aside::OnesOnly,
            [1, 5, 3],
            vec![1, 5],
            Err(ThrowProblem::OnlyOnesAside(5)),
        ),
    ];
    for (aside, first, keep, want) in cases {
        let rules = RuleSet {
            aside,
            ..RuleSet::schockerliga()
        };
        let in_cup = 3 - keep.len();
        let seq = vec![w(&first, &keep, 0), w(&vec![2; in_cup], &[], 0)];
        let got = validate_sequence(&seq, Allowance::Vorleger(3), &rules);
        match want {
            Ok(dice) => assert_eq!(got.unwrap().dice.values(), dice, "{aside:?} {keep:?}"),
            Err(problem) => assert_eq!(
                got.unwrap_err(),
                SequenceError {
                    wurf: Some(1),
                    problem
                },
                "{aside:?} {keep:?}"
            ),
        }
    }
}

#[test]
fn every_roll_and_every_single_keep_under_every_aside_rule() {
    // all 216 first rolls; setting aside any one of its dice is accepted exactly when the rule
    // allows that face, and the final dice are the kept die plus the second roll
    for aside in [Aside::Any, Aside::OnesAndSixes, Aside::OnesOnly] {
        let rules = RuleSet {
            aside,
            ..RuleSet::schockerliga()
        };
        let mut accepted = 0;
        for roll in Dice::all_rolls() {
            let first: Vec<i64> = roll.iter().map(|&v| i64::from(v)).collect();
            for &kept in &roll {
                let seq = vec![w(&first, &[i64::from(kept)], 0), w(&[3, 3], &[], 0)];
                let got = validate_sequence(&seq, Allowance::Vorleger(3), &rules);
                if aside.allows(kept) {
                    let r = got.unwrap();
                    assert_eq!(r.dice, Dice::new([kept, 3, 3]).unwrap());
                    assert!(!r.from_hand);
                    accepted += 1;
                } else {
                    let problem = got.unwrap_err().problem;
                    assert!(
                        matches!(
                            problem,
                            ThrowProblem::OnlyOnesAside(_) | ThrowProblem::OnlyOnesAndSixesAside(_)
                        ),
                        "{aside:?} {roll:?} {kept}: {problem:?}"
                    );
                }
            }
        }
        // 648 dice in all, 108 showing each face
        let want = match aside {
            Aside::Any => 648,
            Aside::OnesAndSixes => 216,
            Aside::OnesOnly => 108,
        };
        assert_eq!(accepted, want, "{aside:?}");
    }
}

#[test]
fn a_keep_on_the_last_wurf_is_checked_like_any_other() {
    let any = RuleSet::schockerliga();
    let ones_only = RuleSet {
        aside: Aside::OnesOnly,
        ..RuleSet::schockerliga()
    };
    // (rules, sequence, Ok(dice, Würfe, from_hand) or Err(Wurf, problem))
    type Case = (
        RuleSet,
        Vec<WurfInput>,
        Result<([u8; 3], u8, bool), (u8, ThrowProblem)>,
    );
    let cases: Vec<Case> = vec![
        (
            any.clone(),
            vec![w(&[4, 2, 1], &[4, 2, 1], 0)],
            Ok(([4, 2, 1], 1, true)),
        ),
        (
            any.clone(),
            vec![w(&[1, 3, 5], &[1], 0), w(&[1, 1], &[1, 1], 0)],
            Ok(([1, 1, 1], 2, false)),
        ),
        (
            any.clone(),
            vec![w(&[4, 2, 1], &[5], 0)],
            Err((1, ThrowProblem::KeepNotRolled(5))),
        ),
        (
            any.clone(),
            vec![w(&[4, 2, 1], &[4, 4], 0)],
            Err((1, ThrowProblem::KeepNotRolled(4))),
        ),
        (
            any.clone(),
            vec![w(&[1, 3, 5], &[1], 0), w(&[2, 2], &[9], 0)],
            Err((2, ThrowProblem::DieOutOfRange(9))),
        ),
        (
            ones_only.clone(),
            vec![w(&[1, 3, 5], &[1], 0), w(&[1, 4], &[1], 0)],
            Ok(([4, 1, 1], 2, false)),
        ),
        (
            ones_only.clone(),
            vec![w(&[4, 2, 1], &[4], 0)],
            Err((1, ThrowProblem::OnlyOnesAside(4))),
        ),
    ];
    for (rules, seq, want) in cases {
        let got = validate_sequence(&seq, Allowance::Vorleger(3), &rules)
            .map(|r| (r.dice.values(), r.wuerfe, r.from_hand))
            .map_err(|e| (e.wurf.unwrap_or(0), e.problem));
        assert_eq!(got, want, "{seq:?}");
    }
}

fn tb(roll: &[i64], keep: &[i64], take_back: &[i64]) -> WurfInput {
    WurfInput {
        roll: roll.to_vec(),
        keep: keep.to_vec(),
        turn: 0,
        take_back: take_back.to_vec(),
    }
}

#[test]
fn take_back_table() {
    let loose = RuleSet {
        kept_dice_stay: false,
        ..RuleSet::schockerliga()
    };
    let loose_ones = RuleSet {
        aside: Aside::OnesOnly,
        ..loose.clone()
    };
    // (rules, sequence, Ok(dice, Würfe, from_hand) or Err(Wurf, problem))
    type Case = (
        RuleSet,
        Vec<WurfInput>,
        Result<([u8; 3], u8, bool), (u8, ThrowProblem)>,
    );
    let cases: Vec<Case> = vec![
        // one of two kept dice back into the cup: two dice rolled
        (
            loose.clone(),
            vec![tb(&[1, 5, 6], &[5, 6], &[]), tb(&[1, 1], &[], &[5])],
            Ok(([6, 1, 1], 2, false)),
        ),
        // everything back before the third Wurf: all three rolled, from the hand
        (
            loose.clone(),
            vec![
                tb(&[1, 5, 3], &[1], &[]),
                tb(&[6, 2], &[6], &[]),
                tb(&[4, 2, 1], &[], &[6, 1]),
            ],
            Ok(([4, 2, 1], 3, true)),
        ),
        // taking back and keeping again in the same Wurf
        (
            loose.clone(),
            vec![
                tb(&[5, 3, 2], &[5], &[]),
                tb(&[1, 1, 4], &[1, 1], &[5]),
                tb(&[1], &[], &[]),
            ],
            Ok(([1, 1, 1], 3, false)),
        ),
        // a turned one may go back too; then the last Wurf is of all three dice, from the hand,
        // like a kept one that went back (issue 22.13: schocken-rules.md §1, "alle Würfel müssen
        // vor dem Wurf im Becher sein")
        (
            loose.clone(),
            vec![w(&[6, 6, 3], &[], 1), tb(&[2, 2, 2], &[], &[1])],
            Ok(([2, 2, 2], 2, true)),
        ),
        (
            loose.clone(),
            vec![w(&[6, 6, 3], &[], 1), tb(&[1, 1, 1], &[], &[1])],
            Ok(([1, 1, 1], 2, true)),
        ),
        (
            loose.clone(),
            vec![tb(&[1, 6, 3], &[1], &[]), tb(&[1, 1, 1], &[], &[1])],
            Ok(([1, 1, 1], 2, true)),
        ),
        // three sixes turned to two ones, both back: from the hand; one of them kept: not
        (
            loose.clone(),
            vec![w(&[6, 6, 6], &[], 2), tb(&[1, 1, 1], &[], &[1, 1])],
            Ok(([1, 1, 1], 2, true)),
        ),
        (
            loose.clone(),
            vec![w(&[6, 6, 6], &[], 2), tb(&[1, 1], &[], &[1])],
            Ok(([1, 1, 1], 2, false)),
        ),
        // a turned one that stays: never from the hand, under either rule
        (
            RuleSet::schockerliga(),
            vec![w(&[6, 6, 3], &[], 1), tb(&[1, 1], &[], &[])],
            Ok(([1, 1, 1], 2, false)),
        ),
        // taking back is not limited by `aside`
        (
            loose_ones.clone(),
            vec![tb(&[1, 5, 3], &[1], &[]), tb(&[6, 6, 6], &[], &[1])],
            Ok(([6, 6, 6], 2, true)),
        ),
        // nothing aside yet on Wurf 1, a value that is not aside, the same die twice, a bad value
        (
            loose.clone(),
            vec![tb(&[1, 5, 3], &[], &[1])],
            Err((1, ThrowProblem::TakeBackNotAside(1))),
        ),
        (
            loose.clone(),
            vec![tb(&[1, 5, 3], &[1], &[]), tb(&[2, 2, 2], &[], &[5])],
            Err((2, ThrowProblem::TakeBackNotAside(5))),
        ),
        (
            loose.clone(),
            vec![tb(&[1, 5, 3], &[1], &[]), tb(&[2, 2, 2], &[], &[1, 1])],
            Err((2, ThrowProblem::TakeBackNotAside(1))),
        ),
        (
            loose.clone(),
            vec![tb(&[1, 5, 3], &[1], &[]), tb(&[2, 2, 2], &[], &[0])],
            Err((2, ThrowProblem::DieOutOfRange(0))),
        ),
        // the dice rolled must match the cup after taking back
        (
            loose.clone(),
            vec![tb(&[1, 5, 3], &[1, 5], &[]), tb(&[2, 2, 2], &[], &[5])],
            Err((
                2,
                ThrowProblem::DiceCount {
                    rolled: 3,
                    in_cup: 2,
                },
            )),
        ),
        // league rules: set-aside dice stay
        (
            RuleSet::schockerliga(),
            vec![tb(&[1, 5, 3], &[1], &[]), tb(&[2, 2, 2], &[], &[1])],
            Err((2, ThrowProblem::TakeBackForbidden)),
        ),
    ];
    for (rules, seq, want) in cases {
        let got = validate_sequence(&seq, Allowance::Vorleger(3), &rules)
            .map(|r| (r.dice.values(), r.wuerfe, r.from_hand))
            .map_err(|e| (e.wurf.unwrap_or(0), e.problem));
        assert_eq!(got, want, "{seq:?}");
    }
}
