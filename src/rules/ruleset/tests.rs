//! Unit tests of `src/rules/ruleset.rs` (a plain `mod tests;` beside it, so the module reads as the code alone).

use super::*;
use serde_json::json;

#[test]
fn presets_by_name_and_object() {
    let cases: Vec<(Value, RuleSet)> = vec![
        (json!("schockerliga"), RuleSet::schockerliga()),
        (json!(null), RuleSet::schockerliga()),
        (json!("wikipedia_standard"), RuleSet::wikipedia_standard()),
        (json!("blog_rules"), RuleSet::blog_rules()),
        (json!({}), RuleSet::schockerliga()),
        (json!({"preset": "blog_rules"}), RuleSet::blog_rules()),
        (
            json!({"preset": "blog_rules", "jule": true}),
            RuleSet {
                jule: true,
                ..RuleSet::blog_rules()
            },
        ),
        (
            json!({"street_order": "all_equal", "blind": true}),
            RuleSet {
                street_order: StreetOrder::AllEqual,
                blind: true,
                ..RuleSet::schockerliga()
            },
        ),
    ];
    for (input, expected) in cases {
        assert_eq!(RuleSet::from_json(&input).unwrap(), expected, "{input}");
    }
}

#[test]
fn preset_differences_are_the_documented_ones() {
    let w = RuleSet::wikipedia_standard();
    assert!(!w.jule && w.general_from_hand_only && w.street_from_hand_only);
    assert_eq!(w.street_order, StreetOrder::Ascending);
    let b = RuleSet::blog_rules();
    assert!(!b.jule && b.fewer_throws_wins);
    assert!(!b.general_from_hand_only && !b.street_from_hand_only);
    assert_eq!(RuleSet::default(), RuleSet::schockerliga());
    assert!(RuleSet::default().jule && RuleSet::default().schock_out_later_wins);
}

#[test]
fn bad_rules_are_refused_with_a_message() {
    let cases: Vec<(Value, &str)> = vec![
        (json!("hessen"), "hessen"),
        (json!({"preset": "hessen"}), "hessen"),
        (json!({"jule": true, "julen": 3}), "julen"),
        (json!({"jule": "ja"}), "jule"),
        (json!({"street_order": "descending"}), "street_order"),
        (json!({"max_throws": 4}), "max_throws"),
        (json!({"stock": 0}), "stock"),
        (json!(3), "Objekt"),
        (json!({"preset": 1}), "preset"),
    ];
    for (input, needle) in cases {
        let err = RuleSet::from_json(&input).unwrap_err().to_string();
        assert!(err.contains(needle), "{input}: {err}");
    }
}

#[test]
fn serde_round_trip() {
    for name in PRESET_NAMES {
        let r = RuleSet::preset(name).unwrap();
        let v = serde_json::to_value(&r).unwrap();
        assert_eq!(RuleSet::from_json(&v).unwrap(), r);
    }
}
