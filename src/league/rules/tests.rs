//! Unit tests of `src/league/rules.rs`.

use super::*;

#[test]
fn defaults_follow_the_season_year() {
    let cases = [
        (2006, 1, None, 0),
        (2007, 2, None, 0),
        (2011, 2, Some(2), 0),
        (2012, 2, Some(2), 2),
        (2026, 2, Some(2), 2),
    ];
    for (year, hand_out_points, joker, fine_kinds) in cases {
        let r = SeasonRules::defaults_for(year);
        assert_eq!(r.hand_out_points, hand_out_points, "{year}");
        assert_eq!(r.joker_multiplier, joker, "{year}");
        assert_eq!(r.fines.len(), fine_kinds, "{year}");
    }
}

#[test]
fn overrides_round_trip() {
    let mut o = Map::new();
    o.insert("hand_out_points".into(), Value::from(3));
    o.insert("first_liga_deadline".into(), Value::from("10-31"));
    let r = SeasonRules::with_overrides(2026, &o).expect("valid overrides");
    assert_eq!(r.hand_out_points, 3);
    assert_eq!(r.first_liga_deadline, MonthDay { month: 10, day: 31 });
    assert_eq!(r.overrides(2026), o);
    assert!(SeasonRules::defaults_for(2026).overrides(2026).is_empty());
    let mut o = Map::new();
    o.insert("payout_percent".into(), serde_json::json!([100]));
    assert!(
        SeasonRules::with_overrides(2026, &o).is_ok(),
        "100 % in one place"
    );
}

#[test]
fn bad_overrides_name_the_field() {
    let cases = [
        (
            r#"{"payout_percent": [4294967295, 1]}"#,
            "rules.payout_percent",
        ),
        (
            r#"{"payout_percent": [2147483648, 2147483648]}"#,
            "rules.payout_percent",
        ),
        (r#"{"payout_percent": [101]}"#, "rules.payout_percent"),
        (r#"{"payout_percent": [60, 41]}"#, "rules.payout_percent"),
        (r#"{"nonsense": 1}"#, "rules.nonsense"),
        (r#"{"rounds_per_night": 0}"#, "rules.rounds_per_night"),
        (r#"{"first_liga_deadline": "13-01"}"#, "13-01"),
        (r#"{"out_points": "x"}"#, "rules"),
    ];
    for (json, needle) in cases {
        let o: Map<String, Value> = serde_json::from_str(json).expect("test json");
        let e = SeasonRules::with_overrides(2026, &o).expect_err(json);
        assert!(e.contains(needle), "{json}: {e}");
    }
}

#[test]
fn a_month_day_typed_in_german() {
    // (typed, month-day or None): the rule editor shows „30.11.“ and reads it back; the season
    // file's „11-30“ still reads (issue 21.8).
    let md = |month, day| Some(MonthDay { month, day });
    let cases = [
        ("30.11.", md(11, 30)),
        ("30.11", md(11, 30)),
        (" 1.4. ", md(4, 1)),
        ("29.02.", md(2, 29)),
        ("11-30", md(11, 30)),
        ("31.11.", None),
        ("31-11", None),
        ("30/11", None),
        ("", None),
        ("x.11.", None),
    ];
    for (typed, want) in cases {
        assert_eq!(MonthDay::from_de(typed).ok(), want, "{typed}");
    }
    assert_eq!(MonthDay { month: 11, day: 30 }.de(), "30.11.");
    assert_eq!(MonthDay { month: 4, day: 1 }.de(), "01.04.");
    assert!(MonthDay::from_de("31.11.")
        .unwrap_err()
        .contains("„31.11.“ ist kein Tag und Monat wie 30.11."));
}
