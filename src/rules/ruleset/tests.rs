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
    assert!(!w.jule && w.general_from_hand_only);
    assert_eq!(w.street_from_hand, StreetFromHand::All);
    assert_eq!(w.street_order, StreetOrder::Ascending);
    let b = RuleSet::blog_rules();
    assert!(!b.jule && b.fewer_throws_wins);
    assert!(!b.general_from_hand_only);
    assert_eq!(b.street_from_hand, StreetFromHand::None);
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

#[test]
fn aside_and_street_from_hand_read_new_values_and_older_bools() {
    let league = RuleSet::schockerliga();
    let cases: Vec<(Value, RuleSet)> = vec![
        // defaults reproduce the older bools' defaults
        (json!({}), league.clone()),
        // the new enum values
        (
            json!({"aside": "ones_and_sixes"}),
            RuleSet {
                aside: Aside::OnesAndSixes,
                ..league.clone()
            },
        ),
        (
            json!({"aside": "ones_only", "street_from_hand": "only_1_2_3"}),
            RuleSet {
                aside: Aside::OnesOnly,
                street_from_hand: StreetFromHand::Only123,
                ..league.clone()
            },
        ),
        (
            json!({"street_from_hand": "none"}),
            RuleSet {
                street_from_hand: StreetFromHand::None,
                ..league.clone()
            },
        ),
        // the older bools: false → any / none, true → ones_only / all
        (
            json!({"only_ones_aside": true}),
            RuleSet {
                aside: Aside::OnesOnly,
                ..league.clone()
            },
        ),
        (json!({"only_ones_aside": false}), league.clone()),
        (
            json!({"street_from_hand_only": false}),
            RuleSet {
                street_from_hand: StreetFromHand::None,
                ..league.clone()
            },
        ),
        (json!({"street_from_hand_only": true}), league.clone()),
        // an older bool over a preset's newer value
        (
            json!({"preset": "blog_rules", "street_from_hand_only": true}),
            RuleSet {
                street_from_hand: StreetFromHand::All,
                ..RuleSet::blog_rules()
            },
        ),
    ];
    for (input, expected) in cases {
        assert_eq!(RuleSet::from_json(&input).unwrap(), expected, "{input}");
    }
}

#[test]
fn a_stored_rule_set_with_the_older_bools_still_loads() {
    // the serialised form of RuleSet::schockerliga() before `aside` and `street_from_hand`, as
    // stored in a Runde's record
    let old = json!({
        "stock": 13, "max_throws": 3, "jule": true, "general_from_hand_only": true,
        "street_from_hand_only": true, "street_order": "ascending", "schock_out_later_wins": true,
        "fewer_throws_wins": false, "hand_out_beats_assembled": false,
        "general_beats_schock_doof": false, "turn_sixes": true, "kept_dice_stay": true,
        "only_ones_aside": false, "blind": false, "neuner": false
    });
    assert_eq!(
        serde_json::from_value::<RuleSet>(old.clone()).unwrap(),
        RuleSet::schockerliga()
    );
    assert_eq!(RuleSet::from_json(&old).unwrap(), RuleSet::schockerliga());
    let mut strict = old;
    strict["only_ones_aside"] = json!(true);
    strict["street_from_hand_only"] = json!(false);
    let r: RuleSet = serde_json::from_value(strict).unwrap();
    assert_eq!(
        (r.aside, r.street_from_hand),
        (Aside::OnesOnly, StreetFromHand::None)
    );
    // written back, only the newer fields appear
    let v = serde_json::to_value(&r).unwrap();
    assert_eq!(v["aside"], "ones_only");
    assert_eq!(v["street_from_hand"], "none");
    assert!(v.get("only_ones_aside").is_none() && v.get("street_from_hand_only").is_none());
}

#[test]
fn aside_and_street_from_hand_refuse_mixed_or_wrong_values() {
    let cases: Vec<(Value, &str)> = vec![
        (
            json!({"aside": "ones_only", "only_ones_aside": true}),
            "„aside“ und das ältere „only_ones_aside“",
        ),
        (
            json!({"street_from_hand": "all", "street_from_hand_only": true}),
            "„street_from_hand“ und das ältere „street_from_hand_only“",
        ),
        (json!({"aside": true}), "aside"),
        (json!({"aside": "sixes"}), "aside"),
        (json!({"aside": null}), "aside"),
        (json!({"only_ones_aside": "ones_only"}), "only_ones_aside"),
        (json!({"street_from_hand": "1_2_3"}), "street_from_hand"),
        (
            json!({"street_from_hand_only": null}),
            "street_from_hand_only",
        ),
        (json!({"jule": null}), "jule"),
    ];
    for (input, needle) in cases {
        let err = RuleSet::from_json(&input).unwrap_err().to_string();
        assert!(err.contains(needle), "{input}: {err}");
    }
    // the serde form refuses both at once as well
    let both = json!({"aside": "any", "only_ones_aside": false});
    let e = serde_json::from_value::<RuleSet>(both)
        .unwrap_err()
        .to_string();
    assert!(e.contains("nur eines angeben"), "{e}");
}

#[test]
fn aside_allows_and_street_requires_hand_tables() {
    // (rule, faces allowed among 1..=6)
    let aside = [
        (Aside::Any, vec![1, 2, 3, 4, 5, 6]),
        (Aside::OnesAndSixes, vec![1, 6]),
        (Aside::OnesOnly, vec![1]),
    ];
    for (rule, allowed) in aside {
        let got: Vec<u8> = (1..=6).filter(|&f| rule.allows(f)).collect();
        assert_eq!(got, allowed, "{rule:?}");
    }
    // (rule, top dice of the Straßen that must come from the hand)
    let street = [
        (StreetFromHand::All, vec![3, 4, 5, 6]),
        (StreetFromHand::None, vec![]),
        (StreetFromHand::Only123, vec![3]),
    ];
    for (rule, tops) in street {
        let got: Vec<u8> = (3..=6).filter(|&t| rule.requires_hand(t)).collect();
        assert_eq!(got, tops, "{rule:?}");
    }
}

#[test]
fn achter_and_neuner_fields_from_json() {
    let cases: Vec<(Value, RuleSet)> = vec![
        (
            json!({"achter": true}),
            RuleSet {
                achter: true,
                ..RuleSet::schockerliga()
            },
        ),
        (
            json!({"achter": true, "achter_deckel": 6, "achter_above": "schock"}),
            RuleSet {
                achter: true,
                achter_deckel: 6,
                achter_above: AchterAbove::Schock,
                ..RuleSet::schockerliga()
            },
        ),
        (
            json!({"neuner": true, "neuner_deckel": 7}),
            RuleSet {
                neuner: true,
                neuner_deckel: 7,
                ..RuleSet::schockerliga()
            },
        ),
    ];
    for (input, expected) in cases {
        assert_eq!(RuleSet::from_json(&input).unwrap(), expected, "{input}");
    }
    let league = RuleSet::schockerliga();
    assert!(!league.achter && !league.neuner);
    assert_eq!(
        (
            league.achter_deckel,
            league.achter_above,
            league.neuner_deckel
        ),
        (8, AchterAbove::Jule, 9)
    );
    let above = [
        ("neuner", AchterAbove::Neuner),
        ("jule", AchterAbove::Jule),
        ("schock", AchterAbove::Schock),
        ("general", AchterAbove::General),
        ("strasse", AchterAbove::Strasse),
        ("hausnummer", AchterAbove::Hausnummer),
    ];
    for (name, value) in above {
        let r = RuleSet::from_json(&json!({ "achter_above": name })).unwrap();
        assert_eq!(r.achter_above, value);
        assert_eq!(serde_json::to_value(value).unwrap(), name);
    }
    let bad: Vec<(Value, &str)> = vec![
        (
            json!({"achter_deckel": 0}),
            "„achter_deckel“ muss mindestens 1 Deckel sein",
        ),
        (
            json!({"neuner_deckel": 0}),
            "„neuner_deckel“ muss mindestens 1 Deckel sein",
        ),
        (json!({"achter_deckel": 256}), "achter_deckel"),
        (json!({"achter_above": "schock_out"}), "achter_above"),
        (json!({"achter_above": "below_jule"}), "achter_above"),
    ];
    for (input, needle) in bad {
        let err = RuleSet::from_json(&input).unwrap_err().to_string();
        assert!(err.contains(needle), "{input}: {err}");
    }
}

#[test]
fn every_preset_has_a_rule_set_and_a_one_line_german_description() {
    assert_eq!(
        PRESET_NAMES,
        [
            "schockerliga",
            "wikipedia_standard",
            "blog_rules",
            "niederrhein",
            "kneipe",
            "westfalen"
        ]
    );
    assert_eq!(RuleSet::presets().len(), PRESET_NAMES.len());
    for (&(name, description), listed) in RuleSet::presets().iter().zip(PRESET_NAMES) {
        assert_eq!(name, listed);
        assert!(RuleSet::preset(name).is_some(), "{name}");
        assert_eq!(RuleSet::preset_description(name), Some(description));
        assert!(
            !description.is_empty() && !description.contains('\n') && !description.contains("  "),
            "{name}: {description:?}"
        );
        assert!(description.ends_with('.'), "{name}: {description:?}");
        assert_eq!(
            RuleSet::from_json(&json!(name)).unwrap(),
            RuleSet::preset(name).unwrap()
        );
    }
    assert_eq!(RuleSet::preset_description("hessen"), None);
    assert_eq!(RuleSet::preset("hessen"), None);
    let e = RuleSet::from_json(&json!("hessen"))
        .unwrap_err()
        .to_string();
    assert_eq!(
        e,
        "unbekannter Regelsatz „hessen“ (bekannt: schockerliga, wikipedia_standard, blog_rules, \
         niederrhein, kneipe, westfalen)"
    );
}

#[test]
fn the_new_presets_differ_from_their_base_only_as_documented() {
    let wiki = RuleSet::wikipedia_standard();
    // (preset, expected as a change of its base)
    let cases: Vec<(&str, RuleSet)> = vec![
        (
            "niederrhein",
            RuleSet {
                general_beats_schock_doof: true,
                ..wiki.clone()
            },
        ),
        (
            "kneipe",
            RuleSet {
                jule: true,
                aside: Aside::OnesOnly,
                hand_beats_assembled: true,
                street_order: StreetOrder::AllEqual,
                blind: true,
                ..wiki.clone()
            },
        ),
        (
            "westfalen",
            RuleSet {
                achter: true,
                ..wiki.clone()
            },
        ),
    ];
    for (name, expected) in cases {
        assert_eq!(RuleSet::preset(name).unwrap(), expected, "{name}");
    }
    let w = RuleSet::westfalen();
    assert_eq!((w.achter_deckel, w.achter_above), (8, AchterAbove::Jule));
}

#[test]
fn the_old_presets_are_unchanged_by_the_new_fields() {
    // the league's rule set, field by field as JSON: the new fields' defaults reproduce the
    // behaviour from before them (no Achter, Neuner 9, any die aside, every Straße from the hand,
    // hand beats assembled off)
    let league = json!({
        "stock": 13, "max_throws": 3, "jule": true, "general_from_hand_only": true,
        "street_from_hand": "all", "street_order": "ascending", "schock_out_later_wins": true,
        "fewer_throws_wins": false, "hand_out_beats_assembled": false,
        "hand_beats_assembled": false, "general_beats_schock_doof": false, "turn_sixes": true,
        "kept_dice_stay": true, "aside": "any", "blind": false, "neuner": false,
        "neuner_deckel": 9, "achter": false, "achter_deckel": 8, "achter_above": "jule"
    });
    assert_eq!(
        serde_json::to_value(RuleSet::schockerliga()).unwrap(),
        league
    );
    for name in ["schockerliga", "wikipedia_standard", "blog_rules"] {
        let r = RuleSet::preset(name).unwrap();
        assert!(!r.achter && !r.neuner && !r.hand_beats_assembled, "{name}");
        assert_eq!(r.aside, Aside::Any, "{name}");
        assert_eq!((r.neuner_deckel, r.achter_deckel), (9, 8), "{name}");
    }
}

#[test]
fn docs_regeln_documents_every_field_and_preset() {
    let doc = include_str!("../../../docs/regeln.md");
    let fields = match serde_json::to_value(RuleSet::default()).unwrap() {
        Value::Object(m) => m,
        other => panic!("{other}"),
    };
    for key in fields.keys() {
        assert!(
            doc.contains(&format!("| `{key}` |")),
            "regeln.md lacks the rule {key}"
        );
    }
    for (name, description) in RuleSet::presets() {
        assert!(
            doc.contains(&format!("| `{name}` | {description} |")),
            "regeln.md lacks the preset {name} with its description"
        );
    }
    for (old, new) in wire::LEGACY_FIELDS {
        assert!(doc.contains(old) && doc.contains(new), "{old} → {new}");
    }
    for field in ["`roll`", "`keep`", "`turn`", "`take_back`"] {
        assert!(
            doc.contains(&format!("| {field} |")),
            "sequence field {field}"
        );
    }
}

#[test]
fn docs_regeln_preset_table_matches_the_presets() {
    let doc = include_str!("../../../docs/regeln.md");
    let start = doc.find("Worin sich die Voreinstellungen").unwrap();
    let table = doc[start..].split("\n\n").nth(1).unwrap();
    let mut rows = table.lines();
    let header: Vec<&str> = rows
        .next()
        .unwrap()
        .split('|')
        .map(|c| c.trim().trim_matches('`'))
        .filter(|c| !c.is_empty())
        .skip(1)
        .collect();
    assert_eq!(header, PRESET_NAMES);
    let presets: Vec<Value> = PRESET_NAMES
        .iter()
        .map(|n| serde_json::to_value(RuleSet::preset(n).unwrap()).unwrap())
        .collect();
    let mut listed = Vec::new();
    for row in rows.skip(1) {
        let cells: Vec<&str> = row
            .split('|')
            .map(|c| c.trim().trim_matches('`'))
            .filter(|c| !c.is_empty())
            .collect();
        let field = cells[0];
        for (value, preset) in cells[1..].iter().zip(&presets) {
            let want = match &preset[field] {
                Value::String(s) => s.clone(),
                other => other.to_string(),
            };
            assert_eq!(*value, want, "{field}");
        }
        listed.push(field.to_string());
    }
    // a field left out of the table has the same value in every preset
    for (field, v) in presets[0].as_object().unwrap() {
        if !listed.contains(field) {
            assert!(presets.iter().all(|p| &p[field] == v), "{field} differs");
        }
    }
}

#[test]
fn every_preset_has_a_german_title() {
    // (name, title): what the rule editor's choice and /regeln show instead of the name.
    let cases = [
        ("schockerliga", Some("Regeln der Schockerliga")),
        ("wikipedia_standard", Some("Standardregeln nach Wikipedia")),
        ("blog_rules", Some("Regeln aus dem Schocken-Blog")),
        ("niederrhein", Some("Niederrhein")),
        ("kneipe", Some("Kneipenregel")),
        ("westfalen", Some("Westfalen")),
        ("hessen", None),
    ];
    for (name, title) in cases {
        assert_eq!(RuleSet::preset_title(name), title, "{name}");
    }
    assert_eq!(PRESET_NAMES.len(), cases.len() - 1);
}
