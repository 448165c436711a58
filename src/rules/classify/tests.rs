//! Unit tests of `src/rules/classify.rs` (a plain `mod tests;` beside it, so the module reads as the code alone).

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

#[test]
fn street_from_hand_decides_which_assembled_strassen_count() {
    use crate::rules::ruleset::StreetFromHand;
    // (rule, dice, from_hand, class)
    let cases: Vec<(StreetFromHand, [u8; 3], bool, Class)> = vec![
        (StreetFromHand::All, [1, 2, 3], true, Class::Strasse(3)),
        (
            StreetFromHand::All,
            [1, 2, 3],
            false,
            Class::Hausnummer(321),
        ),
        (
            StreetFromHand::All,
            [4, 5, 6],
            false,
            Class::Hausnummer(654),
        ),
        (StreetFromHand::None, [1, 2, 3], false, Class::Strasse(3)),
        (StreetFromHand::None, [4, 5, 6], false, Class::Strasse(6)),
        (StreetFromHand::None, [3, 4, 5], true, Class::Strasse(5)),
        (StreetFromHand::Only123, [1, 2, 3], true, Class::Strasse(3)),
        (
            StreetFromHand::Only123,
            [3, 1, 2],
            false,
            Class::Hausnummer(321),
        ),
        (StreetFromHand::Only123, [2, 3, 4], false, Class::Strasse(4)),
        (StreetFromHand::Only123, [3, 4, 5], false, Class::Strasse(5)),
        (StreetFromHand::Only123, [6, 5, 4], false, Class::Strasse(6)),
        (StreetFromHand::Only123, [6, 5, 4], true, Class::Strasse(6)),
        // not a Straße under any rule
        (
            StreetFromHand::None,
            [1, 3, 5],
            false,
            Class::Hausnummer(531),
        ),
        (
            StreetFromHand::None,
            [2, 4, 6],
            true,
            Class::Hausnummer(642),
        ),
    ];
    for (rule, dice, hand, class) in cases {
        let rules = RuleSet {
            street_from_hand: rule,
            ..RuleSet::schockerliga()
        };
        let got = classify(d(dice), hand, &rules);
        assert_eq!(got, class, "{rule:?} {dice:?} hand={hand}");
        assert_eq!(
            got.deckel(),
            match class {
                Class::Strasse(_) => Deckel::Count(2),
                _ => Deckel::Count(1),
            },
            "{rule:?} {dice:?}"
        );
    }
}

#[test]
fn achter_and_neuner_classification_and_deckel() {
    let league = RuleSet::schockerliga();
    let achter = RuleSet {
        achter: true,
        ..league.clone()
    };
    let achter_5 = RuleSet {
        achter_deckel: 5,
        ..achter.clone()
    };
    let neuner_4 = RuleSet {
        neuner: true,
        neuner_deckel: 4,
        ..league.clone()
    };
    let both = RuleSet {
        neuner: true,
        achter: true,
        ..league.clone()
    };
    // (rules, dice, from_hand, class, Deckel under the rules)
    let cases: Vec<(&RuleSet, [u8; 3], bool, Class, Deckel)> = vec![
        // off: 3-3-1 and 2-2-1 are Hausnummern, as before
        (
            &league,
            [3, 3, 1],
            true,
            Class::Hausnummer(331),
            Deckel::Count(1),
        ),
        (
            &league,
            [1, 3, 3],
            false,
            Class::Hausnummer(331),
            Deckel::Count(1),
        ),
        (
            &league,
            [2, 2, 1],
            true,
            Class::Hausnummer(221),
            Deckel::Count(1),
        ),
        // on: from the hand only
        (&achter, [3, 3, 1], true, Class::Achter, Deckel::Count(8)),
        (&achter, [1, 3, 3], true, Class::Achter, Deckel::Count(8)),
        (
            &achter,
            [3, 1, 3],
            false,
            Class::Hausnummer(331),
            Deckel::Count(1),
        ),
        (&achter_5, [3, 3, 1], true, Class::Achter, Deckel::Count(5)),
        (
            &achter,
            [2, 2, 1],
            true,
            Class::Hausnummer(221),
            Deckel::Count(1),
        ),
        (&achter, [4, 2, 1], true, Class::Jule, Deckel::Count(7)),
        (
            &achter,
            [3, 3, 3],
            true,
            Class::General(3),
            Deckel::Count(3),
        ),
        (&achter, [1, 1, 3], true, Class::Schock(3), Deckel::Count(3)),
        (&neuner_4, [2, 2, 1], true, Class::Neuner, Deckel::Count(4)),
        (
            &neuner_4,
            [2, 2, 1],
            false,
            Class::Hausnummer(221),
            Deckel::Count(1),
        ),
        (
            &neuner_4,
            [3, 3, 1],
            true,
            Class::Hausnummer(331),
            Deckel::Count(1),
        ),
        (&both, [2, 2, 1], true, Class::Neuner, Deckel::Count(9)),
        (&both, [3, 3, 1], true, Class::Achter, Deckel::Count(8)),
    ];
    for (rules, dice, hand, class, deckel) in cases {
        let got = classify(d(dice), hand, rules);
        assert_eq!(got, class, "{dice:?} hand={hand} {rules:?}");
        assert_eq!(got.deckel_with(rules), deckel, "{dice:?} {rules:?}");
    }
    // without a RuleSet the variants' default counts
    assert_eq!(Class::Achter.deckel(), Deckel::Count(8));
    assert_eq!(Class::Neuner.deckel(), Deckel::Count(9));
    // every other class costs the same with and without the RuleSet
    for c in [
        Class::SchockOut,
        Class::Jule,
        Class::Schock(4),
        Class::General(6),
        Class::Strasse(5),
        Class::Hausnummer(643),
    ] {
        assert_eq!(c.deckel_with(&neuner_4), c.deckel(), "{c:?}");
    }
    assert_eq!(
        serde_json::to_value(Class::Achter.kind()).unwrap(),
        "achter"
    );
    assert_eq!(Class::Achter.kind().german(), "Achter");
    assert_eq!(
        (Class::Achter.label(), Class::Achter.value()),
        ("Achter".into(), None)
    );
}
