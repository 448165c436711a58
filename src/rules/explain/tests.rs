//! Unit tests of `src/rules/explain.rs`: the deciding rule of each neighbouring pair, the Deckel
//! words, the order of throws under the presets and the rule sentences.

use super::*;
use crate::rules::wurfrunde::{evaluate_throws, ThrowInput};

fn t(player: &str, dice: [u8; 3], wuerfe: u8, hand: bool) -> ThrowInput {
    ThrowInput::from_dice(player, dice, wuerfe, hand)
}

fn words(rules: &RuleSet, throws: &[ThrowInput]) -> (Vec<String>, String) {
    let e = evaluate_throws(throws, rules, false, false).unwrap();
    let d = decisions(&e, rules)
        .iter()
        .map(|d| {
            let name = |i: usize| throws[i].player.clone();
            format!("{}>{}: {}", name(d.upper), name(d.lower), d.german())
        })
        .collect();
    (d, deckel_words(&e, rules, false))
}

/// (rules, throws in seat order, expected decisions highest first, expected Deckel words)
#[test]
fn the_deciding_rule_of_each_pair() {
    let liga = RuleSet::schockerliga();
    let neuner = RuleSet {
        neuner: true,
        ..RuleSet::schockerliga()
    };
    let equal_streets = RuleSet {
        street_order: StreetOrder::AllEqual,
        ..RuleSet::schockerliga()
    };
    let hand_out = RuleSet {
        hand_out_beats_assembled: true,
        ..RuleSet::wikipedia_standard()
    };
    type Case = (RuleSet, Vec<ThrowInput>, Vec<&'static str>, &'static str);
    let cases: Vec<Case> = vec![
        (
            liga.clone(),
            vec![t("A", [5, 3, 2], 1, true), t("B", [2, 3, 5], 1, true)],
            vec!["A>B: gleicher Wurf: der spätere verliert"],
            "Hausnummer 532 ist der höchste Wurf: 1 Deckel",
        ),
        (
            liga.clone(),
            vec![
                t("A", [1, 1, 1], 1, true),
                t("B", [1, 1, 1], 1, true),
                t("C", [6, 6, 5], 1, true),
            ],
            vec![
                "B>A: Schock Out nachgeworfen gewinnt",
                "A>C: Schock Out schlägt alles",
            ],
            "Schock Out: alle Deckel, die Hälfte ist verloren",
        ),
        (
            RuleSet::wikipedia_standard(),
            vec![t("A", [1, 1, 1], 1, true), t("B", [1, 1, 1], 1, true)],
            vec!["A>B: gleicher Wurf: der spätere verliert"],
            "Schock Out: alle Deckel, die Hälfte ist verloren",
        ),
        (
            hand_out,
            vec![t("A", [1, 1, 1], 3, false), t("B", [1, 1, 1], 1, true)],
            vec!["B>A: Hand-Out schlägt zusammengewürfelten Schock Out"],
            "Schock Out: alle Deckel, die Hälfte ist verloren",
        ),
        (
            neuner.clone(),
            vec![t("A", [2, 2, 1], 2, false), t("B", [3, 2, 1], 2, false)],
            vec!["B>A: 2-2-1 nur aus der Hand: zusammengewürfelt zählt 2-2-1 nur als Hausnummer 221"],
            "Hausnummer 321 ist der höchste Wurf: 1 Deckel",
        ),
        (
            neuner,
            vec![t("A", [2, 2, 1], 1, true), t("B", [4, 2, 1], 1, true)],
            vec!["A>B: Neuner schlägt Jule"],
            "Neuner ist der höchste Wurf: 9 Deckel",
        ),
        (
            liga.clone(),
            vec![t("A", [2, 2, 1], 2, false), t("B", [3, 2, 1], 2, false)],
            vec!["B>A: 2-2-1 ist der niedrigste Wurf: Hausnummer 321 schlägt ihn"],
            "Hausnummer 321 ist der höchste Wurf: 1 Deckel",
        ),
        (
            liga.clone(),
            vec![t("A", [4, 2, 1], 3, false), t("B", [4, 3, 1], 1, true)],
            vec!["B>A: Jule nur aus der Hand: zusammengewürfelt zählt 4-2-1 nur als Hausnummer 421"],
            "Hausnummer 431 ist der höchste Wurf: 1 Deckel",
        ),
        (
            liga.clone(),
            vec![t("A", [3, 3, 3], 2, false), t("B", [6, 6, 5], 1, true)],
            vec!["B>A: General nur aus der Hand: zusammengewürfelt zählt 3-3-3 nur als Hausnummer 333"],
            "Hausnummer 665 ist der höchste Wurf: 1 Deckel",
        ),
        (
            // assembled, but the Straße would have been higher anyway: the rank decides
            liga.clone(),
            vec![t("A", [6, 5, 4], 2, false), t("B", [2, 2, 1], 1, true)],
            vec!["A>B: 2-2-1 ist der niedrigste Wurf: Hausnummer 654 schlägt ihn"],
            "Hausnummer 654 ist der höchste Wurf: 1 Deckel",
        ),
        (
            liga.clone(),
            vec![t("A", [6, 6, 6], 1, true), t("B", [1, 1, 2], 1, true)],
            vec!["B>A: auch der Schock doof (Schock 2) schlägt jeden General"],
            "Schock 2 ist der höchste Wurf: 2 Deckel – die Deckel bestimmt der höchste Wurf, nicht \
             der teuerste (General 6 hätte 3 Deckel gekostet)",
        ),
        (
            RuleSet::niederrhein(),
            vec![t("A", [2, 2, 2], 1, true), t("B", [1, 1, 2], 1, true)],
            vec!["A>B: jeder General schlägt den Schock doof (Schock 2)"],
            "General 2 ist der höchste Wurf: 3 Deckel",
        ),
        (
            liga.clone(),
            vec![t("A", [1, 2, 3], 1, true), t("B", [4, 5, 6], 1, true)],
            vec!["B>A: Straßen aufsteigend: Straße 4-5-6 schlägt Straße 1-2-3"],
            "Straße 4-5-6 ist der höchste Wurf: 2 Deckel",
        ),
        (
            equal_streets,
            vec![t("A", [1, 2, 3], 1, true), t("B", [4, 5, 6], 1, true)],
            vec!["A>B: alle Straßen gleich; gleicher Wurf: der spätere verliert"],
            "Straße 1-2-3 ist der höchste Wurf: 2 Deckel",
        ),
        (
            RuleSet::blog_rules(),
            vec![t("A", [5, 5, 5], 3, false), t("B", [5, 5, 5], 1, true)],
            vec!["B>A: weniger Würfe gewinnt (1 gegen 3)"],
            "General 5 ist der höchste Wurf: 3 Deckel",
        ),
        (
            RuleSet::kneipe(),
            vec![t("A", [1, 1, 4], 2, false), t("B", [1, 1, 4], 1, true)],
            vec!["B>A: aus der Hand schlägt zusammengesetzt"],
            "Schock 4 ist der höchste Wurf: 4 Deckel",
        ),
        (
            liga.clone(),
            vec![
                t("A", [4, 4, 4], 1, true),
                t("B", [1, 1, 2], 1, true),
                t("C", [3, 2, 2], 1, true),
            ],
            vec![
                "B>A: auch der Schock doof (Schock 2) schlägt jeden General",
                "A>C: General 4 schlägt Hausnummer 322",
            ],
            "Schock 2 ist der höchste Wurf: 2 Deckel – die Deckel bestimmt der höchste Wurf, nicht \
             der teuerste (General 4 hätte 3 Deckel gekostet)",
        ),
        (
            liga,
            vec![t("A", [1, 5, 1], 1, true), t("B", [6, 1, 1], 1, true)],
            vec!["B>A: Schock 6 schlägt Schock 5"],
            "Schock 6 ist der höchste Wurf: 6 Deckel",
        ),
    ];
    for (rules, throws, want, deckel) in cases {
        let (got, got_deckel) = words(&rules, &throws);
        assert_eq!(got, want, "{throws:?}");
        assert_eq!(got_deckel, deckel, "{throws:?}");
    }
}

#[test]
fn blind_doubles_in_words() {
    let rules = RuleSet::kneipe();
    let throws = [t("A", [4, 2, 1], 1, true), t("B", [3, 2, 1], 1, true)];
    let e = evaluate_throws(&throws, &rules, false, true).unwrap();
    assert_eq!(
        deckel_words(&e, &rules, true),
        "Jule ist der höchste Wurf: 7 Deckel, blind doppelt: 14 Deckel"
    );
}

#[test]
fn assembled_results_say_what_they_would_have_been() {
    let rules = RuleSet::schockerliga();
    let r = |dice: [u8; 3], hand: bool| ThrowResult {
        dice: Dice::new(dice).unwrap(),
        wuerfe: if hand { 1 } else { 2 },
        from_hand: hand,
    };
    let class = |x: &ThrowResult| classify(x.dice, x.from_hand, &rules);
    for (res, want) in [
        (r([6, 5, 4], false), Some(Class::Strasse(6))),
        (r([4, 2, 1], false), Some(Class::Jule)),
        (r([4, 2, 1], true), None),
        (r([1, 1, 4], false), None),
    ] {
        assert_eq!(assembled_instead_of(&res, class(&res), &rules), want);
    }
}

fn lines(rules: &RuleSet) -> Vec<String> {
    ranking(rules)
        .iter()
        .map(|l| {
            format!(
                "{} | {} | {}{} | {}",
                l.name,
                l.dice,
                l.deckel,
                if l.from_hand_only { " | Hand" } else { "" },
                l.note
            )
        })
        .collect()
}

#[test]
fn the_order_of_throws_under_the_league_rules() {
    assert_eq!(
        lines(&RuleSet::schockerliga()),
        [
            "Schock Out | 1-1-1 | alle Deckel | ",
            "Jule | 4-2-1 | 7 Deckel | Hand | ",
            "Schock 6 | 1-1-6 | 6 Deckel | ",
            "Schock 5 | 1-1-5 | 5 Deckel | ",
            "Schock 4 | 1-1-4 | 4 Deckel | ",
            "Schock 3 | 1-1-3 | 3 Deckel | ",
            "Schock 2 | 1-1-2 | 2 Deckel | Schock doof",
            "General 6 … 2 | 6-6-6 … 2-2-2 | 3 Deckel | Hand | ",
            "Straße 4-5-6 … 1-2-3 | 4-5-6 … 1-2-3 | 2 Deckel | Hand | aufsteigend",
            "Hausnummer 666 … 221 | 6-6-6 … 2-2-1 | 1 Deckel | höchster Würfel zuerst gelesen \
             (6-4-3 = 643); 2-2-1 ist der niedrigste Wurf",
        ]
    );
}

#[test]
fn variants_change_the_order_of_throws() {
    let westfalen = lines(&RuleSet::westfalen());
    assert_eq!(westfalen[1], "Achter | 3-3-1 | 8 Deckel | Hand | ");
    assert!(!westfalen.iter().any(|l| l.starts_with("Jule")));

    let neuner = RuleSet {
        neuner: true,
        neuner_deckel: 7,
        achter: true,
        achter_above: crate::rules::AchterAbove::Neuner,
        ..RuleSet::schockerliga()
    };
    let l = lines(&neuner);
    assert_eq!(
        &l[..4],
        [
            "Schock Out | 1-1-1 | alle Deckel | ",
            "Achter | 3-3-1 | 8 Deckel | Hand | ",
            "Neuner | 2-2-1 | 7 Deckel | Hand | ",
            "Jule | 4-2-1 | 7 Deckel | Hand | ",
        ]
    );
    // an assembled 2-2-1 is still the lowest Hausnummer
    assert!(l.last().unwrap().contains("2-2-1 ist der niedrigste Wurf"));

    // Niederrhein: the Generals between Schock 3 and Schock 2
    let n = lines(&RuleSet::niederrhein());
    let at = |p: &str| n.iter().position(|l| l.starts_with(p)).unwrap();
    assert!(at("Schock 3") < at("General 6 … 2") && at("General 6 … 2") < at("Schock 2"));

    // Kneipe: all Straßen equal
    assert!(lines(&RuleSet::kneipe())
        .contains(&"Straße 4-5-6 … 1-2-3 | 4-5-6 … 1-2-3 | 2 Deckel | Hand | alle gleich".into()));

    // blog rules: assembled Generals and Straßen count; 666 is always a General
    let blog = lines(&RuleSet::blog_rules());
    assert!(blog.contains(&"General 6 … 2 | 6-6-6 … 2-2-2 | 3 Deckel | ".to_string()));
    assert!(blog.last().unwrap().starts_with("Hausnummer 665 … 221"));

    // only 1-2-3 from the hand: the Straßen split
    let only = lines(&RuleSet {
        street_from_hand: StreetFromHand::Only123,
        ..RuleSet::schockerliga()
    });
    assert!(only.contains(&"Straße 4-5-6 … 2-3-4 | 4-5-6 … 2-3-4 | 2 Deckel | aufsteigend".into()));
    assert!(only.contains(&"Straße 1-2-3 | 1-2-3 | 2 Deckel | Hand | ".into()));
}

#[test]
fn each_rule_field_changes_its_sentence() {
    let base = RuleSet::schockerliga();
    let before = rule_sentences(&base);
    let variants = [
        RuleSet {
            stock: 15,
            ..base.clone()
        },
        RuleSet {
            max_throws: 1,
            ..base.clone()
        },
        RuleSet {
            jule: false,
            ..base.clone()
        },
        RuleSet {
            general_from_hand_only: false,
            ..base.clone()
        },
        RuleSet {
            street_from_hand: StreetFromHand::None,
            ..base.clone()
        },
        RuleSet {
            street_order: StreetOrder::AllEqual,
            ..base.clone()
        },
        RuleSet {
            schock_out_later_wins: false,
            ..base.clone()
        },
        RuleSet {
            fewer_throws_wins: true,
            ..base.clone()
        },
        RuleSet {
            hand_out_beats_assembled: true,
            ..base.clone()
        },
        RuleSet {
            hand_beats_assembled: true,
            ..base.clone()
        },
        RuleSet {
            general_beats_schock_doof: true,
            ..base.clone()
        },
        RuleSet {
            turn_sixes: false,
            ..base.clone()
        },
        RuleSet {
            kept_dice_stay: false,
            ..base.clone()
        },
        RuleSet {
            aside: Aside::OnesOnly,
            ..base.clone()
        },
        RuleSet {
            blind: true,
            ..base.clone()
        },
        RuleSet {
            neuner: true,
            ..base.clone()
        },
        RuleSet {
            achter: true,
            ..base.clone()
        },
    ];
    for v in variants {
        assert_ne!(rule_sentences(&v), before, "{v:?}");
    }
    assert!(before
        .iter()
        .any(|s| s.contains("Schock Out nachgeworfen gewinnt")));
    let kneipe = rule_sentences(&RuleSet::kneipe()).join(" ");
    assert!(
        kneipe.contains("aus der Hand schlägt zusammengesetzt"),
        "{kneipe}"
    );
    assert!(kneipe.contains("blind"), "{kneipe}");
    assert!(kneipe.contains("nur Einsen"), "{kneipe}");
}
