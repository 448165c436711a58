//! Unit tests of `src/league/standings.rs`.

use super::*;

#[test]
fn as_of_must_lie_in_the_season() {
    // (season, as_of, accepted)
    let cases = [
        (2026, "2026-01-01", true),
        (2026, "2026-12-31", true),
        (2026, "2025-12-31", false),
        (2026, "2027-01-01", false),
        (2026, "0000-01-01", false),
        (2026, "9999-12-31", false),
    ];
    for (year, date, ok) in cases {
        let d: NaiveDate = date.parse().expect("test date");
        assert_eq!(check_as_of(year, d).is_ok(), ok, "{year} {date}");
    }
    let e = check_as_of(2026, "0000-01-01".parse().expect("test date")).unwrap_err();
    assert!(e.contains("nicht in der Saison 2026"), "{e}");
}
use crate::league::model::format::format_dwert;
use crate::league::table::nights::{night_summary, player_history};
use crate::league::testkit::{november, season, season_json, NightSpec};

fn date(s: &str) -> NaiveDate {
    s.parse().expect("test date")
}

fn row_of<'a>(t: &'a Standings, player: &str) -> &'a StandingRow {
    t.rows
        .iter()
        .find(|r| r.player == player)
        .unwrap_or_else(|| panic!("{player} not in the table"))
}

#[test]
fn club_check_three_full_nights_with_9_3_6_outs_give_6_00() {
    let nights = [("2026-01-09", 9), ("2026-01-16", 3), ("2026-01-23", 6)]
        .iter()
        .map(|&(d, outs)| {
            NightSpec {
                date: d,
                outs: &[outs],
                ..NightSpec::default()
            }
            .build()
        })
        .collect();
    let s = season(season_json(
        2026,
        &[("Anna", None), ("Bernd", None)],
        nights,
    ));
    let t = standings(&s, None);
    let anna = row_of(&t, "Anna");
    assert_eq!((anna.rounds, anna.counted_outs), (30, 18));
    assert_eq!(anna.teilnahmen, 3.0);
    assert_eq!(anna.d_wert, 6.0);
    assert_eq!(format_dwert(anna.d_wert_num, anna.d_wert_den), "6,00");
}

#[test]
fn julen_carry_over_from_night_to_night() {
    // (Julen thrown that night, julen_outs of the night, open Julen after it)
    let table = [
        (2, 0, 2),
        (2, 1, 1),
        (2, 1, 0),
        (1, 0, 1),
        (5, 2, 0),
        (8, 2, 2),
    ];
    let dates = [
        "2026-01-02",
        "2026-01-09",
        "2026-01-16",
        "2026-01-23",
        "2026-01-30",
        "2026-02-06",
    ];
    let julen: Vec<[u32; 1]> = table.iter().map(|&(j, _, _)| [j]).collect();
    let nights = dates
        .iter()
        .zip(&julen)
        .map(|(d, j)| {
            NightSpec {
                date: d,
                julen: j,
                ..NightSpec::default()
            }
            .build()
        })
        .collect();
    let s = season(season_json(
        2026,
        &[("Anna", None), ("Bernd", None)],
        nights,
    ));
    let h = player_history(&s, "Anna").expect("Anna");
    let mut total_outs = 0;
    for (i, &(_, outs, open)) in table.iter().enumerate() {
        let d = date(dates[i]);
        assert_eq!(
            (h.nights[i].julen_outs, h.nights[i].open_julen),
            (outs, open),
            "{d}"
        );
        let n = night_summary(&s, d).expect("night");
        let anna = n.players.iter().find(|p| p.player == "Anna").expect("Anna");
        assert_eq!(anna.julen_outs, outs, "{d} summary");
        total_outs += outs;
        let t = standings(&s, Some(d));
        let r = row_of(&t, "Anna");
        assert_eq!(
            (r.julen_outs, r.open_julen),
            (total_outs, open),
            "{d} table"
        );
        assert_eq!(r.counted_outs, i64::from(total_outs), "{d} counted");
    }
    assert_eq!(h.open_julen, 2);
}

#[test]
fn joker_and_hand_outs_count_by_the_season_rules() {
    // (year, outs, hand_outs, Joker round (0 none), julen, counted Outs)
    let cases = [
        (2026, 2, 0, 0, 0, 2),
        (2026, 2, 1, 0, 0, 3),  // Hand-Out counts 2
        (2026, 2, 1, 1, 0, 6),  // both in the Joker round: (1 + 2) × 2
        (2026, 3, 1, 1, 3, 9),  // (2 + 2) × 2 + 1 Jule-Out, Julen never doubled
        (2026, 5, 1, 1, 0, 10), // Joker round 1: 3 Outs incl. the Hand-Out (2 + 2) × 2; round 2: 2 plain
        (2006, 2, 1, 0, 0, 2),  // before 2007 a Hand-Out counts 1
        (2010, 2, 1, 0, 0, 3),  // 2010: doubling, no Joker
    ];
    for (year, outs, hand, joker, julen, counted) in cases {
        let d = format!("{year}-01-09");
        let night = NightSpec {
            date: &d,
            outs: &[outs],
            hand: &[hand],
            joker: &[joker],
            julen: &[julen],
            ..NightSpec::default()
        }
        .build();
        let s = season(season_json(
            year,
            &[("Anna", None), ("Bernd", None)],
            vec![night],
        ));
        let r = row_of(&standings(&s, None), "Anna").clone();
        assert_eq!(
            (r.thrown_outs, r.hand_outs, r.counted_outs),
            (outs, hand, counted),
            "{year} outs {outs} hand {hand} joker {joker} julen {julen}"
        );
    }
}

#[test]
fn lost_and_paid_rounds_with_sozialfall() {
    // (rounds Anna loses at one night, paid, Sozialfall)
    for (lost, paid, sozialfall) in [(0, 0, false), (2, 2, false), (3, 3, true), (7, 3, true)] {
        let night = NightSpec {
            lost: &[lost],
            ..NightSpec::default()
        }
        .build();
        let s = season(season_json(
            2026,
            &[("Anna", None), ("Bernd", None)],
            vec![night],
        ));
        let r = row_of(&standings(&s, None), "Anna").clone();
        assert_eq!((r.lost_rounds, r.paid_rounds), (lost, paid), "{lost}");
        let n = night_summary(&s, date("2026-01-09")).expect("night");
        assert_eq!(
            n.sozialfaelle.contains(&"Anna".to_string()),
            sozialfall,
            "{lost}"
        );
        let h = player_history(&s, "Anna").expect("Anna");
        let paid_flags = h.nights[0].rounds.iter().filter(|r| r.paid).count() as u32;
        assert_eq!(paid_flags, paid, "{lost} paid flags");
    }
}

#[test]
fn ligen_as_of_a_date_with_the_30_november_rule() {
    let months = [
        "01", "02", "03", "04", "05", "06", "07", "08", "09", "10", "11",
    ];
    let mut dates: Vec<String> = months.iter().map(|m| format!("2026-{m}-06")).collect();
    dates[10] = "2026-11-27".into();
    dates.push("2026-12-04".into());
    let players = [
        ("Anna", Some("2026-02-01")),  // 90 rounds by 30 Nov, 100 after December
        ("Bernd", Some("2026-01-10")), // every night: 110 by 30 Nov
        ("Carla", None),               // every night, never paid
        ("Dirk", Some("2026-01-02")),  // December only: 10 rounds
        ("Eva", Some("2026-06-15")),   // January and February: 20 rounds, paid in June
    ];
    let nights = dates
        .iter()
        .enumerate()
        .map(|(i, d)| {
            let mut who = vec!["Bernd", "Carla"];
            if i < 9 || i == 11 {
                who.push("Anna");
            }
            if i == 11 {
                who.push("Dirk");
            }
            if i < 2 {
                who.push("Eva");
            }
            NightSpec {
                date: d,
                players: &who,
                ..NightSpec::default()
            }
            .build()
        })
        .collect();
    let s = season(season_json(2026, &players, nights));
    let cases = [
        ("2026-01-06", "Bernd", Some(Liga::Kreisliga)), // 10 rounds
        ("2026-02-06", "Bernd", Some(Liga::First)),
        ("2026-02-06", "Carla", Some(Liga::Second)),
        ("2026-02-06", "Eva", Some(Liga::Second)), // not paid yet
        ("2026-06-14", "Eva", Some(Liga::Second)),
        ("2026-06-15", "Eva", Some(Liga::First)), // paid that day
        ("2026-11-30", "Anna", Some(Liga::First)), // deadline day: still 1. Liga with 90
        ("2026-11-30", "Eva", Some(Liga::First)),
        ("2026-12-04", "Anna", Some(Liga::Second)), // 100 rounds, but 90 by 30 Nov
        ("2026-12-04", "Eva", Some(Liga::Second)),
        ("2026-12-04", "Bernd", Some(Liga::First)),
        ("2026-12-04", "Carla", Some(Liga::Second)),
        ("2026-12-04", "Dirk", Some(Liga::Kreisliga)),
        ("2026-11-30", "Dirk", None), // no round yet: not listed
    ];
    for (as_of, player, liga) in cases {
        let t = standings(&s, Some(date(as_of)));
        let got = t.rows.iter().find(|r| r.player == player).map(|r| r.liga);
        assert_eq!(got, liga, "{player} as of {as_of}");
    }
    let anna = player_history(&s, "Anna").expect("Anna");
    let ligen: Vec<Liga> = anna.nights.iter().map(|n| n.liga).collect();
    assert_eq!(ligen[0], Liga::Kreisliga);
    assert_eq!(ligen[8], Liga::First);
    assert_eq!(ligen[9], Liga::Second);
    assert_eq!(standings(&s, None).as_of, Some(date("2026-12-04")));
}

#[test]
fn ranks_are_shared_and_listed_by_name() {
    // five unpaid players; Emil misses the second night and stays in the Kreisliga
    let outs: &[u32] = &[6, 4, 4, 2, 4];
    let players = ["Dora", "Carl", "Bea", "Axel", "Emil"];
    let n1 = NightSpec {
        date: "2026-01-09",
        players: &players,
        outs,
        ..NightSpec::default()
    }
    .build();
    let n2 = NightSpec {
        date: "2026-01-16",
        players: &players[..4],
        ..NightSpec::default()
    }
    .build();
    let s = season(season_json(
        2026,
        &players.map(|p| (p, None::<&str>)),
        vec![n1, n2],
    ));
    let t = standings(&s, None);
    let got: Vec<(&str, Liga, u32)> = t
        .rows
        .iter()
        .map(|r| (r.player.as_str(), r.liga, r.rank))
        .collect();
    assert_eq!(
        got,
        vec![
            ("Dora", Liga::Second, 1),
            ("Bea", Liga::Second, 2),
            ("Carl", Liga::Second, 2),
            ("Axel", Liga::Second, 4),
            ("Emil", Liga::Kreisliga, 1),
        ]
    );
}

#[test]
fn equal_d_werte_rank_by_rounds_then_share() {
    let abc = ["Anna", "Bernd", "Carla"];
    let n1 = NightSpec {
        players: &abc,
        outs: &[2, 2, 2],
        ..NightSpec::default()
    }
    .build();
    let n2 = NightSpec {
        date: "2026-01-16",
        ..NightSpec {
            players: &abc,
            outs: &[2, 2, 2],
            ..NightSpec::default()
        }
    }
    .build();
    let n3 = NightSpec {
        date: "2026-01-23",
        players: &["Bernd", "Dirk"],
        outs: &[2],
        ..NightSpec::default()
    }
    .build();
    let s = season(season_json(
        2026,
        &[
            ("Anna", None),
            ("Bernd", None),
            ("Carla", None),
            ("Dirk", None),
        ],
        vec![n1, n2, n3],
    ));
    let t = standings(&s, None);
    let got: Vec<(&str, u32, i64, f64, u32)> = t
        .rows
        .iter()
        .map(|r| {
            (
                r.player.as_str(),
                r.rounds,
                r.counted_outs,
                r.d_wert,
                r.rank,
            )
        })
        .collect();
    // all three 2,00: Bernd has more rounds; Anna and Carla share rank 2
    assert_eq!(
        got,
        vec![
            ("Bernd", 30, 6, 2.0, 1),
            ("Anna", 20, 4, 2.0, 2),
            ("Carla", 20, 4, 2.0, 2),
            ("Dirk", 10, 0, 0.0, 1),
        ]
    );
    assert_eq!(t.rows[3].liga, Liga::Kreisliga);
}

#[test]
fn d_wert_compares_exactly() {
    use std::cmp::Ordering::*;
    let big = 1i64 << 53;
    let cases = [
        ((10, 3), (20, 6), Equal),
        ((1, 3), (333_333_333, 1_000_000_000), Greater),
        ((big + 1, 1), (big, 1), Greater), // equal as f64, not as fractions
        ((0, 7), (0, 1), Equal),
        ((60, 11), (55, 10), Less),
    ];
    for ((a, b), (c, d), expected) in cases {
        let x = DWert { num: a, den: b };
        let y = DWert { num: c, den: d };
        assert_eq!(x.cmp(&y), expected, "{a}/{b} vs {c}/{d}");
    }
}

#[test]
fn liga_names_in_json_and_display() {
    for (liga, name) in [
        (Liga::First, "1. Liga"),
        (Liga::Second, "2. Liga"),
        (Liga::Kreisliga, "Kreisliga"),
    ] {
        let json = serde_json::to_string(&liga).expect("serializes");
        assert_eq!(json, format!("\"{name}\""));
        assert_eq!(serde_json::from_str::<Liga>(&json).expect("parses"), liga);
        assert_eq!(liga.to_string(), name);
    }
}

#[test]
fn no_nights_no_rows() {
    let s = season(season_json(2026, &[("Anna", None)], vec![]));
    let t = standings(&s, None);
    assert_eq!((t.as_of, t.rows.len()), (None, 0));
    let t = standings(&s, Some(date("2026-05-01")));
    assert_eq!((t.as_of, t.rows.len()), (Some(date("2026-05-01")), 0));
}

#[test]
fn a_night_without_results_never_moves_the_as_of_date() {
    let s = november(false);
    let table = standings(&s, None);
    assert_eq!(
        table.as_of,
        Some(date("2026-11-20")),
        "the last night with results"
    );
    let first: Vec<&str> = table
        .rows
        .iter()
        .filter(|r| r.liga == Liga::First)
        .map(|r| r.player.as_str())
        .collect();
    assert_eq!(
        first,
        ["Anna", "Bernd"],
        "not '1. Liga: Niemand' before the deadline"
    );
    // (today, asked as_of, the as-of date used, results after today)
    let cases = [
        ("2026-11-20", None, None, false),
        ("2026-12-31", None, None, false),
        ("2026-11-20", Some("2026-12-31"), Some("2026-11-20"), false),
        ("2026-11-25", Some("2026-11-06"), Some("2026-11-06"), false),
    ];
    for (today, asked, want, after) in cases {
        let t = date(today);
        assert_eq!(
            s.capped_as_of(asked.map(date), t),
            want.map(date),
            "{today} {asked:?}"
        );
        assert_eq!(s.results_after(t), after, "{today}");
    }
    // (today, default as-of date up to today)
    for (today, want) in [
        ("2026-11-01", None),
        ("2026-11-06", Some("2026-11-06")),
        ("2026-11-19", Some("2026-11-06")),
        ("2026-12-31", Some("2026-11-20")),
    ] {
        assert_eq!(
            s.default_as_of(Some(date(today))),
            want.map(date),
            "{today}"
        );
    }
}

#[test]
fn the_as_of_date_is_never_after_the_clubs_today() {
    // The rounds of 04.12. entered on 20.11.: after the deadline the 1. Liga would be empty.
    let s = november(true);
    let today = date("2026-11-20");
    assert!(s.results_after(today));
    assert_eq!(s.capped_as_of(None, today), Some(today));
    assert_eq!(
        s.capped_as_of(None, date("2026-11-19")),
        Some(date("2026-11-06"))
    );
    assert_eq!(
        s.capped_as_of(None, date("2026-11-01")),
        Some(date("2026-11-01"))
    );
    assert!(!s.results_after(date("2026-12-04")));
    let uncapped = standings(&s, None);
    assert_eq!(uncapped.as_of, Some(date("2026-12-04")));
    assert!(
        uncapped.rows.iter().all(|r| r.liga != Liga::First),
        "after the deadline"
    );
    let on_today = standings(&s, s.capped_as_of(None, today));
    assert_eq!(on_today.as_of, Some(today));
    assert_eq!(
        on_today
            .rows
            .iter()
            .filter(|r| r.liga == Liga::First)
            .count(),
        2,
        "today, before the deadline, both are in the 1. Liga"
    );
    assert_eq!(on_today.rows.iter().map(|r| r.rounds).sum::<u32>(), 40);
}
