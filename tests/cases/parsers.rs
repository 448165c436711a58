//! Hostile input for the parsers, as proptests: arbitrary bytes and strings, hostile numbers in a
//! real season file, byte flips in the fixtures; the season-file parser and checks and the Wurfrunde
//! request parser never panic (they were part of the hostile-input router tests).

use proptest::prelude::*;
use schockerliga::league::model::file::SeasonFile;
use schockerliga::league::Season;
use schockerliga::rules::wurfrunde::evaluate_wurfrunde_json;
use serde_json::Value;

use crate::common::fixture;

/// The small fixture as a JSON value.
fn small_season() -> Value {
    serde_json::from_str(&std::fs::read_to_string(fixture("small-2026.season.json")).unwrap())
        .unwrap()
}

/// Numeric leaves of the small fixture (JSON pointers), for mutation.
fn numeric_pointers(v: &Value, at: String, out: &mut Vec<String>) {
    match v {
        Value::Number(_) | Value::Bool(_) => out.push(at),
        Value::Array(a) => a
            .iter()
            .enumerate()
            .for_each(|(i, x)| numeric_pointers(x, format!("{at}/{i}"), out)),
        Value::Object(o) => o
            .iter()
            .for_each(|(k, x)| numeric_pointers(x, format!("{at}/{k}"), out)),
        _ => {}
    }
}

/// Parses and checks season-file bytes; must never panic.
fn check_season(bytes: &[u8]) -> bool {
    match serde_json::from_slice::<SeasonFile>(bytes) {
        Ok(file) => Season::from_file(&file).is_ok(),
        Err(_) => false,
    }
}

fn hostile_number() -> impl Strategy<Value = Value> {
    prop_oneof![
        any::<i64>().prop_map(Value::from),
        any::<u64>().prop_map(Value::from),
        (-3i64..300).prop_map(Value::from),
        any::<f64>()
            .prop_filter("finite", |f| f.is_finite())
            .prop_map(Value::from),
        any::<bool>().prop_map(Value::from),
        ".{0,20}".prop_map(Value::from),
        Just(Value::Null),
    ]
}

fn wurf_value() -> impl Strategy<Value = Value> {
    let die = prop_oneof![
        (0i64..8).prop_map(Value::from),
        any::<i64>().prop_map(Value::from)
    ];
    let throw_dice = (
        "[A-D<>&]{0,3}",
        proptest::collection::vec(die.clone(), 0..5),
        prop_oneof![
            (0i64..5).prop_map(Value::from),
            any::<i64>().prop_map(Value::from)
        ],
        proptest::option::of(any::<bool>()),
    )
        .prop_map(|(player, dice, wuerfe, from_hand)| {
            let mut t = serde_json::json!({ "player": player, "dice": dice, "wuerfe": wuerfe });
            if let Some(h) = from_hand {
                t["from_hand"] = Value::from(h);
            }
            t
        });
    let wurf = (
        proptest::collection::vec(die.clone(), 0..4),
        proptest::collection::vec(die, 0..4),
        proptest::option::of(-1i64..4),
    )
        .prop_map(|(roll, keep, turn)| {
            let mut w = serde_json::json!({ "roll": roll, "keep": keep });
            if let Some(t) = turn {
                w["turn"] = Value::from(t);
            }
            w
        });
    let throw_seq = ("[A-D]{1,2}", proptest::collection::vec(wurf, 0..5))
        .prop_map(|(player, seq)| serde_json::json!({ "player": player, "sequence": seq }));
    let rules = prop_oneof![
        Just(Value::from("schockerliga")),
        Just(Value::from("wikipedia_standard")),
        Just(Value::from("blog_rules")),
        ".{0,12}".prop_map(Value::from),
        Just(serde_json::json!({ "preset": "schockerliga" })),
        Just(serde_json::json!({ "preset": "nichts" })),
    ];
    (
        rules,
        proptest::collection::vec(prop_oneof![throw_dice, throw_seq], 0..6),
    )
        .prop_map(|(rules, throws)| serde_json::json!({ "rules": rules, "throws": throws }))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn season_parser_survives_arbitrary_bytes(bytes in proptest::collection::vec(any::<u8>(), 0..2048)) {
        let _ = check_season(&bytes);
    }

    #[test]
    fn season_parser_survives_arbitrary_strings(s in ".{0,512}") {
        let _ = check_season(s.as_bytes());
    }

    #[test]
    fn wurfrunde_parser_survives_arbitrary_bytes(bytes in proptest::collection::vec(any::<u8>(), 0..1024)) {
        let _ = evaluate_wurfrunde_json(&bytes);
    }

    #[test]
    fn wurfrunde_parser_survives_arbitrary_requests(req in wurf_value()) {
        let bytes = serde_json::to_vec(&req).unwrap();
        let _ = evaluate_wurfrunde_json(&bytes);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    #[test]
    fn season_checks_survive_hostile_values_in_a_real_file(
        picks in proptest::collection::vec((any::<prop::sample::Index>(), hostile_number()), 1..4)
    ) {
        let mut v = small_season();
        let mut ptrs = Vec::new();
        numeric_pointers(&v, String::new(), &mut ptrs);
        for (idx, val) in picks {
            let p = idx.get(&ptrs);
            if let Some(slot) = v.pointer_mut(p) {
                *slot = val;
            }
        }
        let _ = check_season(&serde_json::to_vec(&v).unwrap());
    }

    #[test]
    fn season_parser_survives_byte_flips_in_a_real_file(
        flips in proptest::collection::vec((any::<prop::sample::Index>(), any::<u8>()), 1..6),
        cut in proptest::option::of(any::<prop::sample::Index>()),
    ) {
        let mut bytes = std::fs::read(fixture("small-2026.season.json")).unwrap();
        for (idx, b) in flips {
            let i = idx.index(bytes.len());
            bytes[i] = b;
        }
        if let Some(c) = cut {
            bytes.truncate(c.index(bytes.len()));
        }
        let _ = check_season(&bytes);
    }

    #[test]
    fn wurfrunde_parser_survives_byte_flips_in_fixture_requests(
        case in any::<prop::sample::Index>(),
        flips in proptest::collection::vec((any::<prop::sample::Index>(), any::<u8>()), 1..4),
    ) {
        let all: Value = serde_json::from_str(
            &std::fs::read_to_string(fixture("wurfrunde.json")).unwrap(),
        ).unwrap();
        let cases = all.as_array().unwrap();
        let mut bytes = serde_json::to_vec(&case.get(cases)["request"]).unwrap();
        for (idx, b) in flips {
            let i = idx.index(bytes.len());
            bytes[i] = b;
        }
        let _ = evaluate_wurfrunde_json(&bytes);
    }
}
