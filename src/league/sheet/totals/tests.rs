//! Unit tests of `src/league/totals.rs` and of the checks of nights recorded as totals
//! (`Season::from_file`, interchange.md "Spreadsheet of night totals").

use serde_json::{json, Value};

use super::*;
use crate::league::table::standings::standings;
use crate::league::testkit::{
    endstand_file, file, rounds_season, season, season_json, totals_night, NightSpec,
};

/// (JSON pointer, new value, expected message fragment and field; `None` = accepted).
type Case = (&'static str, Value, Option<(&'static str, &'static str)>);

fn converted(s: &Season) -> Season {
    Season::from_file(&as_totals(s)).unwrap_or_else(|e| panic!("converted season refused: {e}"))
}

#[test]
fn the_converted_file_writes_points_only_where_a_joker_counted() {
    let t = as_totals(&rounds_season(2026));
    let first = &t.nights[0].totals;
    let points: Vec<(&str, Option<i64>)> = first
        .iter()
        .map(|r| (r.player.as_str(), r.points))
        .collect();
    // Bernd's Joker-Runde (round 4) holds no Out in this night: only Anna's Hand-Outs count double
    // by the base; nobody's points differ from the base but a Joker with Outs.
    assert_eq!(
        points,
        vec![("Anna", None), ("Bernd", None), ("Carla", None)]
    );
    assert!(t
        .nights
        .iter()
        .all(|n| n.tables.is_empty() && n.draw.is_none()));
    // Exported again, the totals season gives the same file.
    let again = Season::from_file(&t).unwrap();
    assert_eq!(again.to_file(), t);
}

#[test]
fn a_joker_with_outs_is_kept_in_points() {
    let night = NightSpec {
        players: &["Anna", "Bernd"],
        outs: &[3, 0],
        hand: &[1, 0],
        joker: &[1, 0],
        lost: &[0, 10],
        ..NightSpec::default()
    }
    .build();
    let s = season(season_json(
        2026,
        &[("Anna", None), ("Bernd", None)],
        vec![night],
    ));
    let t = as_totals(&s);
    // Round 1: 3 Outs of which 1 Hand-Out, Joker: (2·1 + 1·2) · 2 = 8 counted Outs; base 4.
    assert_eq!(t.nights[0].totals[0].points, Some(8));
    assert_eq!(standings(&converted(&s), None), standings(&s, None));
}

#[test]
fn a_round_only_season_exports_without_the_new_fields() {
    let s = rounds_season(2026);
    let text = serde_json::to_string(&s.to_file()).unwrap();
    assert!(
        !text.contains("\"totals\"") && !text.contains("\"endstand\""),
        "{text}"
    );
}

#[test]
fn totals_rows_are_checked_per_row_and_per_table() {
    // (JSON pointer, new value, expected message fragment, expected field); None = accepted.
    let cases: Vec<Case> = vec![
        ("/nights/0/totals/0/rounds", json!(10), None),
        (
            "/nights/0/totals/0/rounds",
            json!(0),
            Some(("0 Runden: es müssen zwischen 1 und 10", "rounds")),
        ),
        (
            "/nights/0/totals/0/rounds",
            json!(11),
            Some(("11 Runden", "rounds")),
        ),
        ("/nights/0/totals/1/outs", json!(30), None),
        (
            "/nights/0/totals/1/outs",
            json!(31),
            Some((
                "31 Outs in 10 Runden: höchstens 3 Outs pro Runde, also 30",
                "outs",
            )),
        ),
        (
            "/nights/0/totals/0/hand_outs",
            json!(7),
            Some(("mehr Hand-Outs (7) als Outs (6)", "hand_outs")),
        ),
        (
            "/nights/0/totals/0/julen",
            json!(101),
            Some(("101 Julen in 10 Runden", "julen")),
        ),
        (
            "/nights/0/totals/0/points",
            json!(7),
            Some((
                "7 gewertete Outs sind weniger als die Outs ergeben (8)",
                "points",
            )),
        ),
        ("/nights/0/totals/0/points", json!(16), None),
        (
            "/nights/0/totals/0/points",
            json!(17),
            Some(("17 gewertete Outs sind mehr als 2 × 8", "points")),
        ),
        (
            "/nights/0/totals/0/lost",
            json!(11),
            Some(("mehr verlorene Runden (11) als gespielte (10)", "lost")),
        ),
        (
            "/nights/0/totals/1/lost",
            json!(8),
            Some((
                "an Tisch 1 zusammen 11 verlorene Runden, aber nur 10",
                "lost",
            )),
        ),
        (
            "/nights/0/totals/1/player",
            json!("Anna"),
            Some(("schon in einer Zeile", "player")),
        ),
        (
            "/nights/0/totals/1/player",
            json!("Dora"),
            Some(("unbekannter Spieler \"Dora\"", "player")),
        ),
        (
            "/nights/0/totals/2/table",
            json!(3),
            Some(("Tischnummer muss 1 oder 2 sein", "table")),
        ),
        (
            "/nights/0/totals/2/table",
            json!(2),
            Some(("allein an seinem Tisch", "player")),
        ),
        (
            "/nights/0/tables",
            json!([{ "number": 1, "rounds": [] }]),
            Some(("nicht beides", "totals")),
        ),
        (
            "/nights/0/draw",
            json!([{ "player": "Anna", "table": 1 }, { "player": "Bernd", "table": 1 }]),
            Some(("Carla ist an diesem Abend nicht ausgelost", "player")),
        ),
    ];
    for (pointer, value, want) in cases {
        let mut v = totals_night();
        let (parent, key) = pointer.rsplit_once('/').unwrap();
        match v.pointer_mut(parent).unwrap() {
            Value::Object(m) => {
                m.insert(key.to_string(), value.clone());
            }
            Value::Array(a) => a[key.parse::<usize>().unwrap()] = value.clone(),
            _ => unreachable!(),
        }
        let got = Season::from_file(&file(v));
        match (want, got) {
            (None, Ok(_)) => {}
            (Some((msg, field)), Err(e)) => {
                assert!(e.message.contains(msg), "{pointer}={value}: {e}");
                assert_eq!(
                    e.location.field.as_deref(),
                    Some(field),
                    "{pointer}={value}: {e}"
                );
                assert_eq!(
                    e.location.night,
                    chrono::NaiveDate::from_ymd_opt(2026, 1, 9)
                );
            }
            (want, got) => panic!("{pointer}={value}: wanted {want:?}, got {got:?}"),
        }
    }
}

#[test]
fn without_joker_the_points_are_the_base() {
    // (season, points given, accepted)
    for (year, points, ok) in [
        (2010, 8, true),
        (2010, 9, false),
        (2011, 9, true),
        (2006, 6, true),
    ] {
        let mut v = totals_night();
        v["season"] = json!(year);
        v["nights"][0]["date"] = json!(format!("{year}-01-09"));
        // Before 2007 a Hand-Out counts 1: 6 Outs are 6 counted Outs.
        v["nights"][0]["totals"][0]["points"] = json!(points);
        let got = Season::from_file(&file(v));
        assert_eq!(got.is_ok(), ok, "{year} {points}: {got:?}");
        if let Err(e) = got {
            assert!(e.message.contains("keinen Joker"), "{e}");
        }
    }
}

// ---------------------------------------------------------------------------------------------
// A season kept as its Endstand (issue 24.3): checked in `Season::from_file`, its table is the
// final table, and it counts in careers, the all-time table and the Ehrentafel.

#[test]
fn an_endstand_is_checked_line_by_line() {
    // (pointer, value, expected fragment and field; None = accepted)
    let cases: Vec<Case> = vec![
        ("/endstand/3/paid_rounds", json!(2), None),
        (
            "/endstand/3/paid_rounds",
            json!(22),
            Some((
                "mehr verlorene Runden (22) als gespielte (10)",
                "lost_rounds",
            )),
        ),
        (
            "/endstand/1/lost_rounds",
            json!(21),
            Some((
                "mehr bezahlte Runden (22) als verlorene (21)",
                "paid_rounds",
            )),
        ),
        ("/endstand/0/rounds", json!(0), Some(("0 Runden", "rounds"))),
        (
            "/endstand/0/player",
            json!("Anna"),
            Some(("steht zweimal im Endstand", "player")),
        ),
        (
            "/endstand/0/player",
            json!("Eva"),
            Some(("unbekannter Spieler", "player")),
        ),
        (
            "/endstand/2/liga",
            json!("Kreisliga"),
            Some((
                "mit 40 Runden (ab 11) steht ein Spieler nicht in der Kreisliga",
                "liga",
            )),
        ),
        (
            "/endstand/3/liga",
            json!("2. Liga"),
            Some((
                "mit 10 Runden (unter 11) steht ein Spieler in der Kreisliga",
                "liga",
            )),
        ),
        (
            "/endstand/1/hand_outs",
            json!(111),
            Some(("mehr Hand-Outs (111) als Outs (110)", "hand_outs")),
        ),
        (
            "/endstand/1/counted_outs",
            json!(9),
            Some((
                "9 gewertete Outs: bei 200 Runden und 31 Julen zwischen 10 und",
                "counted_outs",
            )),
        ),
        (
            "/endstand/1/counted_outs",
            json!(-1),
            Some(("gewertete Outs", "counted_outs")),
        ),
        (
            "/nights",
            json!([{ "date": "2004-01-09" }]),
            Some(("entweder Spielabende oder nur einen Endstand", "endstand")),
        ),
    ];
    for (pointer, value, want) in cases {
        let mut v = endstand_file();
        let (parent, key) = pointer.rsplit_once('/').unwrap();
        match v.pointer_mut(parent).unwrap() {
            Value::Object(m) => {
                m.insert(key.to_string(), value.clone());
            }
            Value::Array(a) => a[key.parse::<usize>().unwrap()] = value.clone(),
            _ => unreachable!(),
        }
        match (want, Season::from_file(&file(v))) {
            (None, Ok(_)) => {}
            (Some((msg, field)), Err(e)) => {
                assert!(e.message.contains(msg), "{pointer}={value}: {e}");
                assert_eq!(
                    e.location.field.as_deref(),
                    Some(field),
                    "{pointer}={value}: {e}"
                );
            }
            (want, got) => panic!("{pointer}={value}: wanted {want:?}, got {got:?}"),
        }
    }
}
