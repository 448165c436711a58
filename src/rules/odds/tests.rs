//! Unit tests of `src/rules/odds.rs`: the Schock Out probabilities against a closed form (no
//! turning) and against sums worked out by hand (turning sixes), the engine accepting the moves the
//! strategy makes, and the expected Outs of a list of turns.

use super::*;
use crate::rules::sequence::{validate_sequence, Allowance, WurfInput};

fn frac(num: u64, den: u64) -> Fraction {
    Fraction::new(num, den).expect("den > 0")
}

fn no_turning() -> RuleSet {
    RuleSet {
        turn_sixes: false,
        ..RuleSet::schockerliga()
    }
}

#[test]
fn without_turning_each_die_needs_a_one_within_n_wuerfe() {
    // Keeping ones, the three dice are independent: each shows a 1 within n Würfe with probability
    // 1 − (5/6)^n, so p(n) = ((6^n − 5^n) / 6^n)^3.
    for n in 0..=3u32 {
        let hit = 6u64.pow(n) - 5u64.pow(n);
        let expected = frac(hit.pow(3), 6u64.pow(3 * n));
        let got = schock_out_probability(u8::try_from(n).expect("n"), &no_turning());
        assert_eq!(got, expected, "{n} Würfe");
    }
    // the same numbers written out: 1/216, 1331/46656, 753571/10077696
    assert_eq!(schock_out_probability(1, &no_turning()), frac(1, 216));
    assert_eq!(schock_out_probability(2, &no_turning()), frac(1331, 46656));
    assert_eq!(
        schock_out_probability(3, &no_turning()),
        frac(753_571, 10_077_696)
    );
}

#[test]
fn with_turning_sixes_by_hand() {
    // q(k, m): k dice still needed, m Würfe left; q(k, 1) = 6^-k, turning only while m ≥ 2.
    // One die, 2 Würfe: q(1,2) = 1/6 + 5/6 · 1/6 = 11/36 (no pair of sixes with one die).
    // Two dice, 2 Würfe (36 rolls): 1-1 → 1; one 1 (10 rolls) → 1/6; 6-6 turned → 1/6; the other
    //   24 → 1/36: q(2,2) = (36 + 60 + 6 + 24) / 1296 = 126/1296.
    // Three dice, 2 Würfe (216 rolls): 1-1-1 (1) → 1; two 1s (15) → 1/6; one 1 and 6-6 (3) → 1/6;
    //   one 1 otherwise (72) → 1/36; 6-6-6 (1) turned to two 1s → 1/6; two 6s, no 1 (12) → 1/36;
    //   the other 112 → 1/216: q(3,2) = (216 + 540 + 108 + 432 + 36 + 72 + 112) / 46656
    //   = 1516/46656.
    let q32 = frac(216 + 540 + 108 + 432 + 36 + 72 + 112, 46_656);
    assert_eq!(q32, frac(379, 11_664));
    assert_eq!(schock_out_probability(2, &RuleSet::schockerliga()), q32);
    // Three dice, 3 Würfe: the same 216 first rolls lead to q(0), q(1,2), q(2,2), q(3,2):
    //   1 · 1 + (15 + 3 + 1) · 11/36 + (72 + 12) · 126/1296 + 112 · 1516/46656, over 216;
    //   in 46656ths: 46656 + 19 · 11 · 1296 + 84 · 126 · 36 + 112 · 1516 = 868336.
    let num = 46_656 + 19 * 11 * 1296 + 84 * 126 * 36 + 112 * 1516;
    assert_eq!(num, 868_336);
    let q33 = frac(num, 216 * 46_656);
    assert_eq!(q33, frac(54_271, 629_856));
    assert_eq!(schock_out_probability(3, &RuleSet::schockerliga()), q33);
    // one Wurf: never a turn
    assert_eq!(
        schock_out_probability(1, &RuleSet::schockerliga()),
        frac(1, 216)
    );
    // turning helps: more than without it
    assert!(q32 > schock_out_probability(2, &no_turning()));
    assert!(q33 > schock_out_probability(3, &no_turning()));
}

#[test]
fn wuerfe_are_capped_by_the_ruleset() {
    let league = RuleSet::schockerliga();
    let one_throw = RuleSet {
        max_throws: 1,
        ..RuleSet::schockerliga()
    };
    // (wuerfe, rules, probability)
    let cases = [
        (0, &league, Fraction::ZERO),
        (4, &league, frac(54_271, 629_856)),
        (200, &league, frac(54_271, 629_856)),
        (3, &one_throw, frac(1, 216)),
    ];
    for (w, rules, p) in cases {
        assert_eq!(schock_out_probability(w, rules), p, "{w}");
    }
}

#[test]
fn the_engine_accepts_the_strategy_and_refuses_a_last_wurf_turn() {
    let w = |roll: &[i64], keep: &[i64], turn: i64| WurfInput {
        roll: roll.to_vec(),
        keep: keep.to_vec(),
        turn,
        take_back: vec![],
    };
    let rules = RuleSet::schockerliga();
    // keep the 1 and turn one of two sixes in the same Wurf, then one die left
    let seq = [w(&[1, 6, 6], &[1], 1), w(&[1], &[], 0)];
    let r = validate_sequence(&seq, Allowance::Vorleger(2), &rules).expect("valid");
    assert_eq!((r.dice.values(), r.from_hand), ([1, 1, 1], false));
    // three sixes → two 1s, the third six rolled again
    let seq = [w(&[6, 6, 6], &[], 2), w(&[1], &[], 0)];
    let r = validate_sequence(&seq, Allowance::Vorleger(2), &rules).expect("valid");
    assert_eq!(r.dice.values(), [1, 1, 1]);
    // no turn on the last allowed Wurf: the strategy never counts one there
    let seq = [w(&[2, 3, 4], &[], 0), w(&[6, 6, 1], &[], 1)];
    assert!(validate_sequence(&seq, Allowance::Vorleger(2), &rules).is_err());
}

#[test]
fn expected_schock_outs_table() {
    let p1 = 46_656; // 1/216 in 10077696ths
    let p2 = 379 * 864; // 379/11664
    let p3 = 868_336; // 54271/629856
    let d = 10_077_696;
    // (turns, expected Outs as a fraction worked out in 10077696ths)
    let cases: Vec<(Vec<u8>, Fraction)> = vec![
        (vec![], Fraction::ZERO),
        (vec![1], frac(p1, d)),
        (vec![1, 2, 3, 3], frac(p1 + p2 + 2 * p3, d)),
        (vec![3; 10], frac(10 * p3, d)),
        (vec![0, 0], Fraction::ZERO),
    ];
    for (turns, expected) in cases {
        assert_eq!(expected_schock_outs(&turns), expected, "{turns:?}");
    }
    assert_eq!(
        expected_schock_outs(&[1, 2, 3, 3]),
        frac(2_110_784, 10_077_696)
    );
    // without turning: 3 turns of 3 Würfe = 3 × 753571 / 10077696
    assert_eq!(
        expected_schock_outs_with(&no_turning(), &[3, 3, 3]),
        frac(3 * 753_571, 10_077_696)
    );
}

#[test]
fn fraction_arithmetic_and_order() {
    assert_eq!(Fraction::new(2, 4), Some(frac(1, 2)));
    assert_eq!(Fraction::new(1, 0), None);
    assert_eq!((frac(6, 8).num(), frac(6, 8).den()), (3, 4));
    assert_eq!(frac(1, 6).checked_add(frac(1, 3)), Some(frac(1, 2)));
    assert_eq!(frac(5, 6).checked_mul_int(3), Some(frac(5, 2)));
    assert_eq!(frac(1, 4).as_f64(), 0.25);
    assert!(frac(1, 3) > frac(33, 100));
    assert_eq!(frac(2, 6).cmp(&frac(1, 3)), Ordering::Equal);
    assert_eq!(frac(u64::MAX, 1).checked_add(frac(1, 1)), None);
    assert_eq!(
        serde_json::to_value(frac(3, 9)).expect("json"),
        serde_json::json!({ "num": 1, "den": 3 })
    );
}
