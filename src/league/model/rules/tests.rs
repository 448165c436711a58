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

fn day(s: &str) -> NaiveDate {
    NaiveDate::parse_from_str(s, "%Y-%m-%d").expect("test date")
}

#[test]
fn the_new_season_form_proposes_a_year_that_still_takes_fees() {
    // (today, seasons there are, proposed year) (issue 21.13)
    let cases: [(&str, &[i32], i32); 6] = [
        ("2026-01-05", &[], 2026),
        ("2026-09-30", &[], 2026),
        ("2026-10-01", &[], 2027),
        ("2026-12-31", &[2025], 2027),
        ("2026-03-01", &[2026], 2027),
        ("2026-11-15", &[2026, 2027], 2027),
    ];
    for (today, years, want) in cases {
        assert_eq!(
            proposed_season_year(day(today), years),
            want,
            "{today} {years:?}"
        );
    }
}

#[test]
fn a_season_that_takes_no_fee_any_more_is_warned_about() {
    let rules = SeasonRules::defaults_for(2026);
    assert_eq!(
        rules.fee_window(2026),
        (day("2026-01-01"), day("2026-09-30"))
    );
    let june = SeasonRules {
        last_join_month: 6,
        ..rules.clone()
    };
    assert_eq!(june.fee_window(2026).1, day("2026-06-30"));
    // (year, today, warned)
    let cases = [
        (2026, "2026-09-30", false),
        (2026, "2026-10-01", true),
        (2026, "2026-12-31", true),
        (2027, "2026-12-31", false),
        (2025, "2026-10-01", false), // a past season: its history has the old dates
    ];
    for (year, today, warned) in cases {
        assert_eq!(
            late_fee_warning(year, &rules, day(today)).is_some(),
            warned,
            "{year} {today}"
        );
    }
    assert_eq!(
        late_fee_warning(2026, &rules, day("2026-10-01")).as_deref(),
        Some(
            "Saison 2026: ein Jahresbeitrag braucht einen Zahltag bis 30.09.2026, und der ist \
             vorbei. Nur vorher bezahlte Beiträge lassen sich noch buchen; ohne Beitrag erreicht \
             niemand die 1. Liga. Die Abende bis Jahresende gehören trotzdem in diese Saison \
             (Tabelle, Strafen, Lucky Looser); die Liga mit Jahresbeiträgen ist die Saison 2027."
        )
    );
}

#[test]
fn fees_follow_the_month() {
    let rules = SeasonRules::defaults_for(2026);
    let d = |m, day| NaiveDate::from_ymd_opt(2026, m, day).expect("date");
    let cases = [
        (d(1, 1), Ok(1500)),
        (d(3, 31), Ok(1500)),
        (d(4, 1), Ok(1600)),
        (d(5, 15), Ok(1700)),
        (d(6, 30), Ok(1800)),
        (d(7, 1), Ok(1900)),
        (d(8, 31), Ok(2000)),
        (d(9, 30), Ok(2100)),
        (d(10, 1), Err(JOIN_DEADLINE_REASON.to_string())),
        (d(12, 31), Err(JOIN_DEADLINE_REASON.to_string())),
    ];
    for (date, expected) in cases {
        assert_eq!(fee_cents(&rules, 2026, date), expected, "{date}");
    }
    // other rules: base 10 €, +2 € from June, joining until July
    let mut other = rules.clone();
    other.fee_base_cents = 1000;
    other.fee_monthly_increase_cents = 200;
    other.fee_increase_from_month = 6;
    other.last_join_month = 7;
    let cases = [
        (d(5, 31), Ok(1000)),
        (d(6, 1), Ok(1200)),
        (d(7, 31), Ok(1400)),
        (
            d(8, 1),
            Err("Beitritt zur 1. Liga nur bis Ende Juli".to_string()),
        ),
    ];
    for (date, expected) in cases {
        assert_eq!(fee_cents(&other, 2026, date), expected, "{date}");
    }
    assert!(fee_cents(&rules, 2027, d(2, 1)).is_err());
}
