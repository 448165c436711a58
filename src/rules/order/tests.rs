//! Unit tests of `src/rules/order.rs` (a plain `mod tests;` beside it, so the module reads as the code alone).

use super::*;
use crate::rules::classify::classify;
use crate::rules::dice::Dice;

fn rk(dice: [u8; 3], wuerfe: u8, hand: bool, pos: usize, rules: &RuleSet) -> Ranked {
    let d = Dice::new(dice).unwrap();
    Ranked {
        class: classify(d, hand, rules),
        wuerfe,
        from_hand: hand,
        position: pos,
    }
}

/// (a, b, expected: a higher than b) under the league rules.
#[test]
fn league_order_table() {
    let r = RuleSet::schockerliga();
    type Side = ([u8; 3], u8, bool, usize);
    let cases: Vec<(Side, Side, bool)> = vec![
        // class order
        (([1, 1, 1], 3, false, 0), ([4, 2, 1], 1, true, 1), true),
        (([4, 2, 1], 1, true, 0), ([1, 1, 6], 1, true, 1), true),
        (([1, 1, 6], 1, true, 1), ([1, 1, 5], 1, true, 0), true),
        (([1, 1, 2], 2, false, 1), ([6, 6, 6], 1, true, 0), true),
        (([2, 2, 2], 1, true, 1), ([4, 5, 6], 1, true, 0), true),
        (([1, 2, 3], 1, true, 1), ([6, 6, 5], 1, true, 0), true),
        (([4, 5, 6], 1, true, 1), ([3, 4, 5], 1, true, 0), true),
        (([2, 3, 4], 1, true, 1), ([1, 2, 3], 1, true, 0), true),
        (([6, 6, 5], 1, true, 1), ([6, 6, 4], 1, true, 0), true),
        (([3, 2, 1], 2, false, 1), ([2, 2, 1], 2, false, 0), true),
        // assembled General / Straße are Hausnummern
        (([6, 6, 5], 1, true, 1), ([3, 3, 3], 2, false, 0), true),
        (([6, 6, 5], 1, true, 1), ([4, 5, 6], 2, false, 0), true),
        // ties: the later thrower loses, except two Schock Outs
        (([5, 3, 2], 1, true, 0), ([2, 3, 5], 1, true, 1), true),
        (([1, 1, 4], 3, false, 0), ([1, 1, 4], 1, true, 1), true),
        (([1, 1, 1], 1, true, 0), ([1, 1, 1], 1, true, 1), false),
        (([1, 1, 1], 1, true, 0), ([1, 1, 1], 3, false, 2), false),
    ];
    for ((da, wa, ha, pa), (db, wb, hb, pb), a_higher) in cases {
        let a = rk(da, wa, ha, pa, &r);
        let b = rk(db, wb, hb, pb, &r);
        let want = if a_higher {
            Ordering::Greater
        } else {
            Ordering::Less
        };
        assert_eq!(compare(&a, &b, &r), want, "{a:?} vs {b:?}");
        assert_eq!(compare(&b, &a, &r), want.reverse(), "{b:?} vs {a:?}");
    }
}

#[test]
fn variants_of_the_order() {
    let base = RuleSet::schockerliga();
    // fewer_throws_wins: the later General from the hand in 1 Wurf beats ... an equal in 3
    let fewer = RuleSet {
        fewer_throws_wins: true,
        general_from_hand_only: false,
        ..base.clone()
    };
    let a = rk([5, 5, 5], 3, false, 0, &fewer);
    let b = rk([5, 5, 5], 1, true, 1, &fewer);
    assert_eq!(compare(&b, &a, &fewer), Ordering::Greater);
    let c = rk([5, 5, 5], 3, false, 2, &fewer);
    assert_eq!(
        compare(&a, &c, &fewer),
        Ordering::Greater,
        "equal Würfe: position"
    );

    // hand_out_beats_assembled: an earlier Hand-Out beats a later assembled Out and vice versa
    let hand = RuleSet {
        hand_out_beats_assembled: true,
        ..base.clone()
    };
    let early_hand = rk([1, 1, 1], 1, true, 0, &hand);
    let late_assembled = rk([1, 1, 1], 3, false, 1, &hand);
    assert_eq!(
        compare(&early_hand, &late_assembled, &hand),
        Ordering::Greater
    );
    assert_eq!(compare(&early_hand, &late_assembled, &base), Ordering::Less);
    let no_later = RuleSet {
        hand_out_beats_assembled: true,
        schock_out_later_wins: false,
        ..base.clone()
    };
    let early_assembled = rk([1, 1, 1], 3, false, 0, &no_later);
    let late_hand = rk([1, 1, 1], 1, true, 1, &no_later);
    assert_eq!(
        compare(&late_hand, &early_assembled, &no_later),
        Ordering::Greater
    );

    // general_beats_schock_doof: General 2 > Schock 2, but still < Schock 3
    let niederrhein = RuleSet {
        general_beats_schock_doof: true,
        ..base.clone()
    };
    let g2 = rk([2, 2, 2], 1, true, 1, &niederrhein);
    let s2 = rk([1, 1, 2], 1, true, 0, &niederrhein);
    let s3 = rk([1, 1, 3], 1, true, 2, &niederrhein);
    assert_eq!(compare(&g2, &s2, &niederrhein), Ordering::Greater);
    assert_eq!(compare(&s3, &g2, &niederrhein), Ordering::Greater);
    assert_eq!(compare(&g2, &s2, &base), Ordering::Less);

    // street_order = all_equal: the earlier Straße wins
    let equal = RuleSet {
        street_order: super::StreetOrder::AllEqual,
        ..base.clone()
    };
    let low = rk([1, 2, 3], 1, true, 0, &equal);
    let high = rk([4, 5, 6], 1, true, 1, &equal);
    assert_eq!(compare(&low, &high, &equal), Ordering::Greater);
    assert_eq!(compare(&low, &high, &base), Ordering::Less);

    // schock_out_later_wins off: the earlier Out wins
    let wiki = RuleSet::wikipedia_standard();
    let o1 = rk([1, 1, 1], 1, true, 0, &wiki);
    let o2 = rk([1, 1, 1], 1, true, 1, &wiki);
    assert_eq!(compare(&o1, &o2, &wiki), Ordering::Greater);

    // neuner: second highest, above a Jule, below a Schock Out
    let neuner = RuleSet {
        neuner: true,
        ..base
    };
    let n = rk([2, 2, 1], 1, true, 1, &neuner);
    let j = rk([4, 2, 1], 1, true, 0, &neuner);
    let o = rk([1, 1, 1], 3, false, 2, &neuner);
    assert_eq!(compare(&n, &j, &neuner), Ordering::Greater);
    assert_eq!(compare(&o, &n, &neuner), Ordering::Greater);
}

#[test]
fn order_sorts_highest_first() {
    let r = RuleSet::schockerliga();
    let ranked = vec![
        rk([3, 4, 6], 3, false, 0, &r),
        rk([1, 1, 5], 3, false, 1, &r),
        rk([4, 2, 1], 1, true, 2, &r),
    ];
    assert_eq!(order(&ranked, &r), vec![2, 1, 0]);
}

#[test]
fn the_achter_ranks_directly_above_the_class_achter_above_names() {
    use super::AchterAbove;
    // (achter_above, general_beats_schock_doof, the result just above the Achter, the one just below)
    type Side = ([u8; 3], u8, bool);
    let cases: Vec<(AchterAbove, bool, Side, Side)> = vec![
        (
            AchterAbove::Neuner,
            false,
            ([1, 1, 1], 3, false),
            ([2, 2, 1], 1, true),
        ),
        (
            AchterAbove::Jule,
            false,
            ([2, 2, 1], 1, true),
            ([4, 2, 1], 1, true),
        ),
        (
            AchterAbove::Schock,
            false,
            ([4, 2, 1], 1, true),
            ([1, 1, 6], 1, true),
        ),
        (
            AchterAbove::General,
            false,
            ([1, 1, 2], 1, true),
            ([6, 6, 6], 1, true),
        ),
        (
            AchterAbove::General,
            true,
            ([1, 1, 3], 1, true),
            ([6, 6, 6], 1, true),
        ),
        (
            AchterAbove::Strasse,
            false,
            ([2, 2, 2], 1, true),
            ([4, 5, 6], 1, true),
        ),
        (
            AchterAbove::Hausnummer,
            false,
            ([1, 2, 3], 1, true),
            ([6, 6, 5], 1, true),
        ),
    ];
    for (above, gbsd, (hd, hw, hh), (ld, lw, lh)) in cases {
        let rules = RuleSet {
            achter: true,
            achter_above: above,
            neuner: true,
            general_beats_schock_doof: gbsd,
            ..RuleSet::schockerliga()
        };
        for (achter_pos, other_pos) in [(0, 1), (1, 0)] {
            let a = rk([3, 3, 1], 1, true, achter_pos, &rules);
            assert_eq!(a.class, Class::Achter);
            let higher = rk(hd, hw, hh, other_pos, &rules);
            let lower = rk(ld, lw, lh, other_pos, &rules);
            assert_eq!(
                compare(&higher, &a, &rules),
                Ordering::Greater,
                "{above:?} {higher:?}"
            );
            assert_eq!(
                compare(&a, &lower, &rules),
                Ordering::Greater,
                "{above:?} {lower:?}"
            );
        }
    }
    // two Achter: the earlier one is higher; assembled 3-3-1 is the Hausnummer 331
    let rules = RuleSet {
        achter: true,
        ..RuleSet::schockerliga()
    };
    let first = rk([3, 3, 1], 1, true, 0, &rules);
    let second = rk([1, 3, 3], 1, true, 1, &rules);
    assert_eq!(compare(&first, &second, &rules), Ordering::Greater);
    let assembled = rk([3, 3, 1], 2, false, 0, &rules);
    let hausnummer = rk([3, 3, 2], 2, false, 1, &rules);
    assert_eq!(compare(&hausnummer, &assembled, &rules), Ordering::Greater);
    // flag off: a 3-3-1 from the hand is below a 3-3-2
    let off = RuleSet::schockerliga();
    let a = rk([3, 3, 1], 1, true, 0, &off);
    assert_eq!(
        compare(&rk([3, 3, 2], 1, true, 1, &off), &a, &off),
        Ordering::Greater
    );
}

#[test]
fn hand_beats_assembled_for_every_class() {
    let base = RuleSet {
        general_from_hand_only: false,
        street_from_hand: crate::rules::StreetFromHand::None,
        ..RuleSet::schockerliga()
    };
    let on = RuleSet {
        hand_beats_assembled: true,
        ..base.clone()
    };
    // (earlier result (dice, Würfe, from_hand), later result): with the flag off the earlier one is
    // higher (Schock Out: the later); with it on the one from the hand is higher
    type Side = ([u8; 3], u8, bool);
    let cases: Vec<(Side, Side)> = vec![
        (([1, 1, 1], 3, false), ([1, 1, 1], 1, true)),
        (([1, 1, 1], 1, true), ([1, 1, 1], 2, false)),
        (([1, 1, 5], 2, false), ([5, 1, 1], 1, true)),
        (([1, 1, 5], 1, true), ([5, 1, 1], 3, false)),
        (([4, 4, 4], 3, false), ([4, 4, 4], 2, true)),
        (([4, 5, 6], 2, false), ([6, 5, 4], 1, true)),
        (([3, 4, 6], 2, false), ([6, 4, 3], 1, true)),
        (([3, 4, 6], 1, true), ([6, 4, 3], 2, false)),
        (([2, 2, 1], 3, false), ([1, 2, 2], 3, true)),
    ];
    for (early, late) in cases {
        let a_off = rk(early.0, early.1, early.2, 0, &base);
        let b_off = rk(late.0, late.1, late.2, 1, &base);
        let out = a_off.class == Class::SchockOut;
        // off: position decides (a Schock Out: the later one with schock_out_later_wins)
        let want_off = if out {
            Ordering::Less
        } else {
            Ordering::Greater
        };
        assert_eq!(
            compare(&a_off, &b_off, &base),
            want_off,
            "off {early:?} {late:?}"
        );
        // on: the hand decides
        let a = rk(early.0, early.1, early.2, 0, &on);
        let b = rk(late.0, late.1, late.2, 1, &on);
        let want_on = if early.2 {
            Ordering::Greater
        } else {
            Ordering::Less
        };
        assert_eq!(compare(&a, &b, &on), want_on, "on {early:?} {late:?}");
    }
    // it never lifts a result over a higher class: assembled Schock 6 > Schock 5 from the hand
    let s6 = rk([1, 1, 6], 3, false, 1, &on);
    let s5 = rk([1, 1, 5], 1, true, 0, &on);
    assert_eq!(compare(&s6, &s5, &on), Ordering::Greater);
    // both from the hand (or both assembled): the old tie rules
    let h1 = rk([6, 4, 3], 1, true, 0, &on);
    let h2 = rk([6, 4, 3], 1, true, 1, &on);
    assert_eq!(compare(&h1, &h2, &on), Ordering::Greater);
    let o1 = rk([1, 1, 1], 2, false, 0, &on);
    let o2 = rk([1, 1, 1], 3, false, 1, &on);
    assert_eq!(compare(&o2, &o1, &on), Ordering::Greater, "later Out wins");
    // before fewer Würfe: a re-roll of all three dice in Wurf 3 beats an assembled result in 2
    let fewer = RuleSet {
        fewer_throws_wins: true,
        ..on.clone()
    };
    let hand3 = rk([6, 4, 3], 3, true, 1, &fewer);
    let assembled2 = rk([6, 4, 3], 2, false, 0, &fewer);
    assert_eq!(compare(&hand3, &assembled2, &fewer), Ordering::Greater);
    let fewer_off = RuleSet {
        hand_beats_assembled: false,
        ..fewer
    };
    let hand3 = rk([6, 4, 3], 3, true, 1, &fewer_off);
    let assembled2 = rk([6, 4, 3], 2, false, 0, &fewer_off);
    assert_eq!(compare(&assembled2, &hand3, &fewer_off), Ordering::Greater);
    // the flag's default is off in every rule set that existed before it
    for r in [
        RuleSet::schockerliga(),
        RuleSet::wikipedia_standard(),
        RuleSet::blog_rules(),
    ] {
        assert!(!r.hand_beats_assembled);
    }
}
