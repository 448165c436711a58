//! Unit tests of `src/league/totals.rs` and of the checks of nights recorded as totals
//! (`Season::from_file`, interchange.md "Spreadsheet of night totals").

use serde_json::{json, Value};

use super::*;
use crate::league::career::{all_time_table, careers, ehrentafel};
use crate::league::curves::season_curves;
use crate::league::records::{season_records, RecordKind};
use crate::league::table::nights::{night_summary, player_history};
use crate::league::table::standings::standings;
use crate::league::testkit::{file, season, season_json, NightSpec};
use crate::league::{payouts, Change};

/// Three players, two nights of 10 rounds with Hand-Outs, a Joker, Julen carried across the
/// nights, a Sozialfall and a fine; Anna paid her fee in February.
fn rounds_season(year: i32) -> Season {
    let d1 = format!("{year}-01-09");
    let d2 = format!("{year}-01-16");
    let joker: &[u32] = if year >= 2011 { &[0, 4, 0] } else { &[] };
    let mut n1 = NightSpec {
        date: &d1,
        players: &["Anna", "Bernd", "Carla"],
        outs: &[5, 3, 1],
        hand: &[2, 1, 0],
        julen: &[2, 4, 0],
        joker,
        lost: &[4, 1, 5],
        ..NightSpec::default()
    }
    .build();
    if year >= 2012 {
        n1["fines"] = json!([{ "player": "Bernd", "kind": "late", "paid": true }]);
    }
    let n2 = NightSpec {
        date: &d2,
        rounds: 7,
        players: &["Anna", "Bernd", "Carla"],
        outs: &[2, 6, 0],
        hand: &[0, 2, 0],
        julen: &[2, 1, 3],
        joker: &[],
        lost: &[2, 2, 3],
    }
    .build();
    let fee = format!("{year}-02-06");
    season(season_json(
        year,
        &[("Anna", Some(&fee)), ("Bernd", None), ("Carla", None)],
        vec![n1, n2],
    ))
}

/// (JSON pointer, new value, expected message fragment and field; `None` = accepted).
type Case = (&'static str, Value, Option<(&'static str, &'static str)>);

fn converted(s: &Season) -> Season {
    Season::from_file(&as_totals(s)).unwrap_or_else(|e| panic!("converted season refused: {e}"))
}

#[test]
fn a_season_as_totals_counts_exactly_as_its_rounds() {
    for year in [2005, 2010, 2026] {
        let s = rounds_season(year);
        let t = converted(&s);
        assert!(t
            .nights
            .iter()
            .all(|n| n.recorded_as_totals() && n.tables.is_empty()));
        assert_eq!(standings(&t, None), standings(&s, None), "{year}");
        for n in &s.nights {
            assert_eq!(
                standings(&t, Some(n.date)),
                standings(&s, Some(n.date)),
                "{year}"
            );
        }
        assert_eq!(payouts(&t, 250), payouts(&s, 250), "{year}");
        assert_eq!(season_curves(&t), season_curves(&s), "{year}");
        let c = |x: &Season| careers(std::slice::from_ref(x), &[payouts(x, 0)]);
        assert_eq!(c(&t), c(&s), "{year}");
        assert_eq!(
            all_time_table(std::slice::from_ref(&t), 1),
            all_time_table(std::slice::from_ref(&s), 1)
        );
        assert_eq!(
            ehrentafel(std::slice::from_ref(&t), &[payouts(&t, 0)]),
            ehrentafel(std::slice::from_ref(&s), &[payouts(&s, 0)])
        );
        // A player's nights: the same figures, without round lines.
        for p in ["Anna", "Bernd", "Carla"] {
            let (a, b) = (
                player_history(&t, p).unwrap(),
                player_history(&s, p).unwrap(),
            );
            assert_eq!(a.open_julen, b.open_julen);
            for (x, y) in a.nights.iter().zip(&b.nights) {
                assert!(x.recorded_as_totals && x.rounds.is_empty() && !y.recorded_as_totals);
                assert_eq!(x.rounds_played, y.rounds_played);
                let strip = |n: &crate::league::table::nights::PlayerNight| {
                    let mut n = n.clone();
                    n.rounds.clear();
                    n.recorded_as_totals = false;
                    n
                };
                assert_eq!(strip(x), strip(y), "{year} {p}");
            }
        }
    }
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

/// A 2026 night recorded as totals: Anna, Bernd (10 rounds) and Carla (4 rounds) at table 1.
fn totals_night() -> Value {
    json!({
        "format": "schockerliga-season/1", "season": 2026, "rules": {},
        "players": [ { "name": "Anna", "fee_paid_on": null }, { "name": "Bernd", "fee_paid_on": null },
                     { "name": "Carla", "fee_paid_on": null } ],
        "nights": [ { "date": "2026-01-09", "totals": [
            { "player": "Anna", "table": 1, "rounds": 10, "outs": 6, "hand_outs": 2, "julen": 1,
              "points": 8, "lost": 3 },
            { "player": "Bernd", "rounds": 10, "outs": 2, "lost": 7 },
            { "player": "Carla", "rounds": 4, "outs": 0 } ] } ]
    })
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

#[test]
fn a_night_of_totals_has_no_round_figures() {
    let s = season(totals_night());
    let n = &s.nights[0];
    assert!(n.recorded_as_totals());
    assert_eq!(s.totals_nights(), vec![n.date]);
    let summary = night_summary(&s, n.date).unwrap();
    assert!(summary.recorded_as_totals);
    assert_eq!(summary.tables.len(), 1);
    assert_eq!(summary.tables[0].rounds_played, 10);
    assert!(summary.tables[0].rounds.is_empty());
    assert_eq!(summary.tables[0].players, ["Anna", "Bernd", "Carla"]);
    let anna = summary.players.iter().find(|p| p.player == "Anna").unwrap();
    // 8 points + 0 Julen-Outs (1 Jule open); 3 lost = 3 paid, a Sozialfall.
    assert_eq!(
        (anna.counted_outs, anna.paid_rounds, anna.sozialfall),
        (8, 3, true)
    );
    assert_eq!(anna.joker_round, None);
    let records = season_records(&s);
    let round = records.get(RecordKind::CountedOutsRound).unwrap();
    assert!(RecordKind::CountedOutsRound.needs_rounds());
    assert_eq!((round.value, round.nights_not_available), (0, 1));
    let night = records.get(RecordKind::CountedOutsNight).unwrap();
    assert_eq!((night.value, night.nights_not_available), (8, 0));
    // Bernd lost 7 of 10: he paid 3 (Sozialfall), the Lucky Looser ties Anna and Bernd.
    let p = payouts(&s, 0);
    assert_eq!(p.lucky_looser.players, ["Anna", "Bernd"]);
    assert_eq!(p.lucky_looser.paid_rounds, 3);
}

#[test]
fn a_round_cannot_be_put_on_a_night_of_totals() {
    let s = season(totals_night());
    let change = Change::PutRound {
        date: s.nights[0].date,
        table: 1,
        number: 1,
        results: ["Anna", "Bernd"]
            .iter()
            .map(|p| crate::league::model::file::ResultEntry {
                player: p.to_string(),
                outs: 0,
                hand_outs: 0,
                julen: 0,
                joker: false,
                lost: *p == "Anna",
            })
            .collect(),
        replace: crate::league::change::Replace::Any,
        seat_newcomers: true,
        schockbesteck: None,
    };
    let e = s.apply(&change).unwrap_err();
    assert!(e.message.contains("als Summen je Spieler erfasst"), "{e}");
}

#[test]
fn a_rename_follows_the_totals_rows() {
    let s = season(totals_night());
    let renamed = s
        .apply(&Change::RenamePlayer {
            from: "Anna".into(),
            to: "Anne".into(),
        })
        .unwrap();
    assert_eq!(renamed.nights[0].totals[0].player, "Anne");
    assert_eq!(standings(&renamed, None).rows[0].player, "Anne");
}

// ---------------------------------------------------------------------------------------------
// A season kept as its Endstand (issue 24.3): checked in `Season::from_file`, its table is the
// final table, and it counts in careers, the all-time table and the Ehrentafel.

fn endstand_file() -> Value {
    json!({
        "format": "schockerliga-season/1", "season": 2004,
        "players": [ { "name": "Anna" }, { "name": "Bernd" }, { "name": "Carla" }, { "name": "Dirk" } ],
        "endstand": [
            { "player": "Bernd", "liga": "1. Liga", "rounds": 150, "counted_outs": 90, "paid_rounds": 14 },
            { "player": "Anna", "liga": "1. Liga", "rounds": 200, "counted_outs": 120, "paid_rounds": 22,
              "lost_rounds": 25, "thrown_outs": 110, "hand_outs": 10, "julen": 31 },
            { "player": "Carla", "liga": "2. Liga", "rounds": 40, "counted_outs": 30 },
            { "player": "Dirk", "liga": "Kreisliga", "rounds": 10, "counted_outs": 9, "paid_rounds": 3 } ]
    })
}

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

#[test]
fn an_endstand_is_the_table_and_counts_in_careers_and_the_ehrentafel() {
    let old = season(endstand_file());
    assert!(old.is_endstand() && old.nights.is_empty());
    let table = standings(&old, None);
    assert_eq!(table.as_of, None);
    let lines: Vec<(&str, crate::league::model::rules::Liga, u32)> = table
        .rows
        .iter()
        .map(|r| (r.player.as_str(), r.liga, r.rank))
        .collect();
    use crate::league::Liga::*;
    // Bernd 90 in 150 = 6,00 ahead of Anna 120 in 200 = 6,00? Equal D.Wert: more rounds first.
    assert_eq!(
        lines,
        [
            ("Anna", First, 1),
            ("Bernd", First, 2),
            ("Carla", Second, 1),
            ("Dirk", Kreisliga, 1)
        ]
    );
    let anna = &table.rows[0];
    assert_eq!(
        (anna.julen_outs, anna.open_julen, anna.lost_rounds),
        (10, 1, 25)
    );
    assert_eq!(table.rows[1].lost_rounds, 14, "lost defaults to paid");
    // The Lucky Looser from the paid rounds; no money was kept (no fees): 0 cents, carry passes.
    let p = payouts(&old, 500);
    assert_eq!(p.lucky_looser.players, ["Anna"]);
    assert_eq!(p.schocker_des_jahres, ["Anna"]);
    assert!(
        p.places.is_empty(),
        "no money is known of an Endstand season"
    );
    assert_eq!((p.pot_cents, p.carry_out_cents), (500, 500));

    let new = rounds_season(2026);
    let seasons = [old.clone(), new.clone()];
    let pays = [payouts(&old, 0), payouts(&new, 0)];
    let anna = careers(&seasons, &pays)
        .into_iter()
        .find(|c| c.player == "Anna")
        .unwrap();
    assert_eq!(
        anna.seasons.iter().map(|s| s.season).collect::<Vec<_>>(),
        [2004, 2026]
    );
    assert_eq!(anna.totals.rounds, 200 + 17);
    let all = all_time_table(&seasons, 100);
    assert!(all.iter().any(|r| r.player == "Anna" && r.seasons == 2));
    let honours = ehrentafel(&seasons, &pays);
    assert_eq!(honours[0].season, 2004);
    assert_eq!(honours[0].schocker_des_jahres[0].player, "Anna");
    // The file round trip: lost_rounds written only where it is not the paid rounds.
    let again = Season::from_file(&old.to_file()).unwrap();
    assert_eq!(again, old);
    assert_eq!(old.to_file().endstand[0].lost_rounds, None);
    assert_eq!(old.to_file().endstand[1].lost_rounds, Some(25));
}
