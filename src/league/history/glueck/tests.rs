//! Unit tests of `src/league/glueck.rs` and of the Schockbesteck check of a season file's round.

use serde_json::{json, Value};

use super::*;
use crate::league::testkit::{file, row, season};
use crate::rules::{RuleSet, RundeState, ThrowInput};

fn t(p: &str, dice: [u8; 3], wuerfe: u8) -> ThrowInput {
    ThrowInput::from_dice(p, dice, wuerfe, wuerfe == 1)
}

/// A finished Runde of Anna and Bernd: Hälfte 1 (Auswürfeln, then Anna's Schock Out in 2 Würfe),
/// Hälfte 2 (Auswürfeln, then Anna's Schock Out in 3 Würfe): Bernd loses both halves.
fn runde() -> RundeState {
    let mut s = RundeState::new(vec!["Anna".into(), "Bernd".into()], RuleSet::default()).unwrap();
    for w in [
        vec![t("Anna", [6, 5, 3], 1), t("Bernd", [5, 3, 2], 1)],
        vec![t("Bernd", [3, 2, 2], 3), t("Anna", [1, 1, 1], 2)],
        vec![t("Bernd", [6, 6, 2], 1), t("Anna", [5, 4, 2], 1)],
        vec![t("Anna", [1, 1, 1], 3), t("Bernd", [4, 3, 1], 2)],
    ] {
        s.apply(w).unwrap();
    }
    assert!(s.is_finished());
    s
}

/// A season file with one night: round 1 from the Schockbesteck (`record`, rows `rows`), round 2
/// entered by hand (Anna 1 Out).
fn with_round(record: Value, rows: Vec<Value>) -> Value {
    json!({
        "format": "schockerliga-season/1", "season": 2026,
        "players": [ { "name": "Anna" }, { "name": "Bernd" } ],
        "nights": [ { "date": "2026-01-09", "tables": [ { "number": 1, "rounds": [
            { "number": 1, "results": rows, "schockbesteck": record },
            { "number": 2, "results": [ row("Anna", 1, 0, 0, false, false), row("Bernd", 0, 0, 0, false, true) ] }
        ] } ] } ]
    })
}

fn rows() -> Vec<Value> {
    vec![
        row("Anna", 2, 0, 0, false, false),
        row("Bernd", 0, 0, 0, false, true),
    ]
}

fn record() -> Value {
    serde_json::to_value(runde().record()).unwrap()
}

#[test]
fn a_season_counts_only_schockbesteck_rounds_with_the_exact_expectation() {
    let s = season(with_round(record(), rows()));
    let g = of_season(&s);
    // Each turned 1, 2, 1, 3 Würfe: 2/216 + 379/11664 + 54271/629856 = 80569/629856.
    let expected = Fraction::new(2 * 2916 + 379 * 54 + 54271, 629_856).unwrap();
    assert_eq!(expected, Fraction::new(80569, 629_856).unwrap());
    let want = |outs| Glueck {
        runden: 1,
        wurfrunden: 4,
        wuerfe: 7,
        schock_outs: outs,
        expected,
    };
    assert_eq!(
        g.get("Anna"),
        Some(&want(2)),
        "round 2 (by hand) adds nothing"
    );
    assert_eq!(g.get("Bernd"), Some(&want(0)));
    assert_eq!(g.len(), 2);
    assert_eq!(
        g["Anna"].factor(),
        Fraction::new(2 * 629_856, 80569),
        "thrown ÷ expected"
    );
    assert_eq!(g["Bernd"].factor(), Some(Fraction::ZERO));
    assert_eq!(
        sentence(&g["Anna"]).unwrap(),
        "2 Schock Outs geworfen, erwartet 0,13 (aus 1 Runde im Schockbesteck, 4 Wurfrunden, 7 Würfe)."
    );
    assert_eq!(two_decimals(g["Anna"].factor().unwrap()), "15,64");
    let f = |n, d| Fraction::new(n, d).unwrap();
    for (factor, text) in [
        (f(6, 5), "Mehr Glück"),
        (f(119, 100), "Etwa so viel"),
        (f(1, 1), "Etwa so viel"),
        (f(81, 100), "Etwa so viel"),
        (f(4, 5), "Weniger Glück"),
        (Fraction::ZERO, "Weniger Glück"),
    ] {
        assert!(verdict(factor).starts_with(text), "{factor:?}");
    }
    // Without a Schockbesteck round: nothing.
    let mut plain = with_round(record(), rows());
    plain["nights"][0]["tables"][0]["rounds"][0]
        .as_object_mut()
        .unwrap()
        .remove("schockbesteck");
    assert!(of_season(&season(plain)).is_empty());
    assert_eq!(sentence(&Glueck::default()), None);
}

#[test]
fn sums_and_decimals() {
    let f = |n, d| Fraction::new(n, d).unwrap();
    let a = Glueck {
        runden: 1,
        wurfrunden: 3,
        wuerfe: 5,
        schock_outs: 1,
        expected: f(1, 6),
    };
    let b = Glueck {
        runden: 2,
        wurfrunden: 4,
        wuerfe: 9,
        schock_outs: 0,
        expected: f(1, 3),
    };
    let sum = a.plus(b).unwrap();
    assert_eq!(
        (
            sum.runden,
            sum.wurfrunden,
            sum.wuerfe,
            sum.schock_outs,
            sum.expected
        ),
        (3, 7, 14, 1, f(1, 2))
    );
    assert_eq!(sum.factor(), Some(f(2, 1)));
    for (value, text) in [
        (f(54271, 629_856), "0,09"),
        (f(3, 2), "1,50"),
        (f(1, 200), "0,01"),
        (f(1, 201), "0,00"),
        (f(0, 1), "0,00"),
        (f(1999, 1000), "2,00"),
        (f(12345, 100), "123,45"),
    ] {
        assert_eq!(two_decimals(value), text, "{value:?}");
    }
}

#[test]
fn the_throws_must_give_the_rows() {
    // (rows changed, field named in the refusal, message)
    let mut more_outs = rows();
    more_outs[0]["outs"] = json!(1);
    let mut hand = rows();
    hand[0]["hand_outs"] = json!(1);
    let mut loser = rows();
    loser[0]["lost"] = json!(true);
    loser[1]["lost"] = json!(false);
    let cases = [
        (
            more_outs,
            "outs",
            "Outs: eingetragen 1, laut Schockbesteck 2",
        ),
        (
            hand,
            "hand_outs",
            "Hand-Outs: eingetragen 1, laut Schockbesteck 0",
        ),
        (
            loser,
            "lost",
            "verloren: eingetragen ja, laut Schockbesteck nein",
        ),
    ];
    for (rows, field, msg) in cases {
        let e = Season::from_file(&file(with_round(record(), rows))).unwrap_err();
        let text = e.to_string();
        assert!(text.contains(msg), "{text}");
        assert!(text.contains(field) || text.contains("Anna"), "{text}");
    }
    // A third player with a row but no throws.
    let mut three = with_round(record(), rows());
    three["players"]
        .as_array_mut()
        .unwrap()
        .push(json!({ "name": "Carl" }));
    three["nights"][0]["tables"][0]["rounds"][0]["results"]
        .as_array_mut()
        .unwrap()
        .push(row("Carl", 0, 0, 0, false, false));
    let text = Season::from_file(&file(three)).unwrap_err().to_string();
    assert!(
        text.contains("Carl steht in der Runde, hat aber keine Würfe"),
        "{text}"
    );
    // A Runde without a loser yet.
    let mut open =
        RundeState::new(vec!["Anna".into(), "Bernd".into()], RuleSet::default()).unwrap();
    open.apply(vec![t("Anna", [6, 5, 3], 1), t("Bernd", [5, 3, 2], 1)])
        .unwrap();
    let text = Season::from_file(&file(with_round(
        serde_json::to_value(open.record()).unwrap(),
        rows(),
    )))
    .unwrap_err()
    .to_string();
    assert!(
        text.contains("die Runde hat noch keinen Verlierer"),
        "{text}"
    );
    // Throws the engine refuses: Anna uses more Würfe than her Vorleger.
    let mut bad = record();
    bad["wurfrunden"][3]["throws"][1]["wuerfe"] = json!(3);
    bad["wurfrunden"][3]["throws"][0]["wuerfe"] = json!(2);
    let text = Season::from_file(&file(with_round(bad, rows())))
        .unwrap_err()
        .to_string();
    assert!(text.contains("Schockbesteck: Wurfrunde 4"), "{text}");
    // An unknown field in the record, and in a Wurfrunde (a typo of "blind").
    let parses = |r: Value| {
        serde_json::from_value::<crate::league::model::file::SeasonFile>(with_round(r, rows()))
            .is_ok()
    };
    let mut typo = record();
    typo["wurfrunde"] = json!([]);
    assert!(!parses(typo));
    let mut typo = record();
    typo["wurfrunden"][1]["blnd"] = json!(true);
    assert!(!parses(typo));
    // Played under other rules than the season's: refused, naming the rules.
    for other in [
        json!({ "jule": false }),
        json!({ "max_throws": 2 }),
        json!({ "stock": 3 }),
    ] {
        let mut r = record();
        r["rules"] = other.clone();
        let text = Season::from_file(&file(with_round(r, rows())))
            .unwrap_err()
            .to_string();
        assert!(
            text.contains("Feld Regelwerk der Würfe (Schockbesteck): Schockbesteck: die Runde wurde nach einem anderen Regelwerk gespielt"),
            "{other}: {text}"
        );
    }
    // More than 1000 Wurfrunden: refused before any replay.
    let mut long = record();
    let one = long["wurfrunden"][0].clone();
    long["wurfrunden"] = Value::Array(vec![one; crate::league::model::season::MAX_WURFRUNDEN + 1]);
    let text = Season::from_file(&file(with_round(long, rows())))
        .unwrap_err()
        .to_string();
    assert!(text.contains("1001 Wurfrunden; höchstens 1000"), "{text}");
}

/// The export keeps a Runde's throws (a rename and a moved round keep them too: that test, which
/// changes the season with `Change`, is `tests/cases/league.rs`).
#[test]
fn export_keeps_the_throws() {
    let s = season(with_round(record(), rows()));
    let f = s.to_file();
    let text = serde_json::to_string(&f).unwrap();
    assert_eq!(text.matches("\"schockbesteck\"").count(), 1, "only round 1");
    assert_eq!(Season::from_file(&f).unwrap(), s);
}

#[test]
fn a_schockbesteck_runde_may_have_more_julen_than_a_typed_row() {
    // A Deckel ping-pong of Julen (hostile trial): Anna and Bernd throw 11 Julen each in one
    // Runde. Typed by hand 11 Julen are refused; from the Schockbesteck the throws prove them.
    let text = include_str!("../../../../tests/fixtures/schockbesteck-11-julen.season.json");
    let f: crate::league::model::file::SeasonFile = serde_json::from_str(text).unwrap();
    let s = Season::from_file(&f).unwrap();
    let r = &s.nights[0].tables[0].rounds[0];
    assert_eq!(r.results.iter().map(|x| x.julen).max(), Some(11));
    let mut typed = f.clone();
    typed.nights[0].tables[0].rounds[0].schockbesteck = None;
    let e = Season::from_file(&typed).unwrap_err().to_string();
    assert!(e.contains("höchstens 10 Julen"), "{e}");
}

#[test]
fn a_stored_record_that_no_longer_checks_is_dropped_not_the_season() {
    // A damaged row (hostile trial: 1-1-1 turned into 1-1-2 in the database).
    let mut damaged = record();
    damaged["wurfrunden"][1]["throws"][1]["dice"] = json!([1, 1, 2]);
    let f = file(with_round(damaged, rows()));
    assert!(Season::from_file(&f).is_err(), "an import refuses it");
    let (s, dropped) = Season::from_stored_file(&f).unwrap();
    assert_eq!(dropped.len(), 1);
    assert!(dropped[0].to_string().contains("Runde 1"), "{}", dropped[0]);
    let r = &s.nights[0].tables[0].rounds[0];
    assert!(r.schockbesteck.is_none());
    assert_eq!(r.results.len(), 2, "the round keeps its results");
    assert!(of_season(&s).is_empty());
    // Any other refusal still refuses the stored season.
    let mut bad_rows = rows();
    bad_rows[1]["lost"] = json!(false);
    bad_rows[0]["lost"] = json!(false);
    let mut plain = with_round(record(), bad_rows);
    plain["nights"][0]["tables"][0]["rounds"][0]
        .as_object_mut()
        .unwrap()
        .remove("schockbesteck");
    assert!(Season::from_stored_file(&file(plain)).is_err());
}

/// New-user trial: a Rückblick as of the club's today took its Glücksfaktor from Schockbesteck
/// nights after today (entered ahead of their day). Up to a day, only the nights on or before it.
#[test]
fn up_to_a_day_only_the_nights_on_or_before_it_count() {
    let s = season(with_round(record(), rows()));
    let day = |d: &str| Some(chrono::NaiveDate::parse_from_str(d, "%Y-%m-%d").unwrap());
    assert!(of_season_until(&s, day("2026-01-08")).is_empty());
    assert_eq!(of_season_until(&s, day("2026-01-09")), of_season(&s));
    assert_eq!(of_season_until(&s, None), of_season(&s));
    assert_eq!(of_season(&s).len(), 2);
}
