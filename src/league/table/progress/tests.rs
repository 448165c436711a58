//! Unit tests of `src/league/progress.rs`: movement, Liga-Fortschritt thresholds (10/11 rounds,
//! 99/100 by the deadline, the day after it, fees in September and October) and `outs_to_pass` ties.

use serde_json::{json, Value};

use super::*;
use crate::league::testkit::{row, season, season_json, NightSpec};

fn date(s: &str) -> NaiveDate {
    s.parse().expect("test date")
}

/// A one-table night whose round i holds the rows `(player, outs)` of `rounds[i]`; the first
/// player of each round loses it.
fn custom_night(d: &str, rounds: &[Vec<(&str, u32)>]) -> Value {
    let rounds: Vec<Value> = rounds
        .iter()
        .enumerate()
        .map(|(i, rows)| {
            let results: Vec<Value> = rows
                .iter()
                .enumerate()
                .map(|(j, &(p, outs))| row(p, outs, 0, 0, false, j == 0))
                .collect();
            json!({ "number": i + 1, "results": results })
        })
        .collect();
    json!({ "date": d, "tables": [ { "number": 1, "rounds": rounds } ], "fines": [] })
}

/// A 10-round night of `players` where player i throws `outs[i]` Outs.
fn night(d: &str, players: &[&str], outs: &[u32]) -> Value {
    NightSpec {
        date: d,
        players,
        outs,
        ..NightSpec::default()
    }
    .build()
}

fn row_of<'a>(p: &'a PlayersProgress, player: &str) -> &'a ProgressRow {
    p.rows
        .iter()
        .find(|r| r.player == player)
        .unwrap_or_else(|| panic!("{player} not listed"))
}

#[test]
fn outs_to_pass_table() {
    // (counted Outs, rounds, other's counted Outs, other's rounds, k), each worked out by hand
    let cases = [
        // D.Wert 1,0 vs 1,5 in equal rounds: +1 ties (same rank, not above), +2 passes
        (2, 20, 3, 20, Some(2)),
        // equal D.Wert 2,0, he has fewer rounds (10 < 20): one more Out is needed
        (2, 10, 4, 20, Some(1)),
        // 0 in 30 vs 4 in 20 (D.Wert 2,0): 6 in 30 is D.Wert 2,0 with more rounds: above
        (0, 30, 4, 20, Some(6)),
        // same with 20 rounds each: 4 in 20 only ties, 5 passes
        (0, 20, 4, 20, Some(5)),
        // 0 in 10 vs 3 in 15 (2,00): 2 in 10 is 2,00 too but in fewer rounds, 3 passes
        (0, 10, 3, 15, Some(3)),
        // 10 in 110 vs 10 in 100: 11 in 110 is 1,00 = 1,00 with more rounds: above
        (10, 110, 10, 100, Some(1)),
        // 3 in 15 (2,0) vs 7 in 30 (2,33…): 3.5 needed → k = 1 gives 4 in 15 = 2,67 > 2,33
        (3, 15, 7, 30, Some(1)),
        // he is already above: still at least 1
        (9, 10, 1, 10, Some(1)),
        // no D.Wert on either side
        (0, 0, 3, 10, None),
        (3, 10, 0, 0, None),
    ];
    for (c, r, co, ro, expected) in cases {
        assert_eq!(outs_to_pass(c, r, co, ro), expected, "{c}/{r} vs {co}/{ro}");
    }
}

#[test]
fn outs_to_pass_agrees_with_counting_up_one_by_one() {
    // Independent check: add one counted Out at a time until the ranking rule of league.md §3 puts
    // him strictly above (cross-multiplied D.Wert, then rounds).
    let above = |c: i64, r: u32, co: i64, ro: u32| {
        let (l, rr) = (c * i64::from(ro), co * i64::from(r));
        l > rr || (l == rr && r > ro)
    };
    for r in 1..=25u32 {
        for ro in 1..=25u32 {
            for c in 0..=8i64 {
                for co in 0..=8i64 {
                    let mut k = 1;
                    while !above(c + k, r, co, ro) {
                        k += 1;
                    }
                    assert_eq!(outs_to_pass(c, r, co, ro), Some(k), "{c}/{r} vs {co}/{ro}");
                }
            }
        }
    }
}

#[test]
fn movement_between_table() {
    use Liga::{First, Kreisliga, Second};
    // (previous (Liga, rank), now, movement, label)
    let cases = [
        (None, (First, 1), Movement::New, "neu"),
        (
            Some((First, 3)),
            (First, 1),
            Movement::Up { places: 2 },
            "▲2",
        ),
        (
            Some((First, 1)),
            (First, 2),
            Movement::Down { places: 1 },
            "▼1",
        ),
        (Some((Second, 2)), (Second, 2), Movement::Same, "–"),
        (
            Some((Kreisliga, 1)),
            (Second, 4),
            Movement::Promoted,
            "aufgestiegen",
        ),
        (
            Some((Second, 1)),
            (First, 7),
            Movement::Promoted,
            "aufgestiegen",
        ),
        (
            Some((First, 1)),
            (Second, 1),
            Movement::Relegated,
            "abgestiegen",
        ),
    ];
    for (prev, now, expected, label) in cases {
        let m = Movement::between(prev, now);
        assert_eq!(m, expected, "{prev:?} → {now:?}");
        assert_eq!(m.label(), label);
    }
    assert_eq!(
        serde_json::to_value(Movement::Up { places: 2 }).expect("json"),
        json!({ "kind": "up", "places": 2 })
    );
}

/// Three nights: Anna and Bernd throw 2 Outs a night, Cem none; Bernd misses the third night, Dora
/// joins on it with 5. Nobody paid: 2. Liga from 11 rounds on.
fn three_nights() -> Season {
    let abc = ["Anna", "Bernd", "Cem"];
    let nights = vec![
        night("2026-02-06", &abc, &[2, 2, 0]),
        night("2026-02-13", &abc, &[1, 3, 0]),
        night("2026-02-20", &["Anna", "Cem", "Dora"], &[3, 0, 5]),
    ];
    let players = [
        ("Anna", None),
        ("Bernd", None),
        ("Cem", None),
        ("Dora", None),
    ];
    season(season_json(2026, &players, nights))
}

#[test]
fn previous_night_is_the_night_before_the_as_of_night() {
    let s = three_nights();
    // (as_of, previous night)
    let cases = [
        (None, Some("2026-02-13")),
        (Some("2026-02-20"), Some("2026-02-13")),
        (Some("2026-02-19"), Some("2026-02-06")), // as-of night is 13 Feb
        (Some("2026-02-13"), Some("2026-02-06")),
        (Some("2026-02-06"), None), // the first night has none before it
        (Some("2026-02-01"), None), // no night yet
        (Some("2026-12-31"), Some("2026-02-13")),
    ];
    for (as_of, expected) in cases {
        assert_eq!(
            previous_night(&s, as_of.map(date)),
            expected.map(date),
            "{as_of:?}"
        );
    }
}

#[test]
fn movements_against_the_previous_night() {
    let s = three_nights();
    // As of 13 Feb (20 rounds each, 2. Liga): Bernd 5 → 2,50; Anna 3 → 1,50; Cem 0.
    // As of 20 Feb: Dora 5 in 10 rounds = 5,00 but Kreisliga (10 < 11); Bernd 5/20 = 2,50,
    // Anna 6/30 = 2,00, Cem 0/30. 2. Liga: Bernd 1, Anna 2, Cem 3.
    // As of 6 Feb everyone has 10 rounds: Kreisliga, Anna and Bernd share rank 1, Cem 3.
    type Expected<'a> = Vec<(&'a str, Liga, u32, Option<(Liga, u32)>, Movement)>;
    let cases: Vec<(Option<&str>, Expected)> = vec![
        (
            Some("2026-02-06"),
            vec![
                ("Anna", Liga::Kreisliga, 1, None, Movement::New),
                ("Bernd", Liga::Kreisliga, 1, None, Movement::New),
                ("Cem", Liga::Kreisliga, 3, None, Movement::New),
            ],
        ),
        (
            Some("2026-02-13"),
            vec![
                (
                    "Bernd",
                    Liga::Second,
                    1,
                    Some((Liga::Kreisliga, 1)),
                    Movement::Promoted,
                ),
                (
                    "Anna",
                    Liga::Second,
                    2,
                    Some((Liga::Kreisliga, 1)),
                    Movement::Promoted,
                ),
                (
                    "Cem",
                    Liga::Second,
                    3,
                    Some((Liga::Kreisliga, 3)),
                    Movement::Promoted,
                ),
            ],
        ),
        (
            None,
            vec![
                (
                    "Bernd",
                    Liga::Second,
                    1,
                    Some((Liga::Second, 1)),
                    Movement::Same,
                ),
                (
                    "Anna",
                    Liga::Second,
                    2,
                    Some((Liga::Second, 2)),
                    Movement::Same,
                ),
                (
                    "Cem",
                    Liga::Second,
                    3,
                    Some((Liga::Second, 3)),
                    Movement::Same,
                ),
                ("Dora", Liga::Kreisliga, 1, None, Movement::New),
            ],
        ),
        (Some("2026-01-31"), vec![]),
    ];
    for (as_of, expected) in cases {
        let rows = movements(&s, as_of.map(date));
        let got: Expected = rows
            .iter()
            .map(|m| {
                let prev = m.previous_liga.zip(m.previous_rank);
                (m.player.as_str(), m.liga, m.rank, prev, m.movement)
            })
            .collect();
        assert_eq!(got, expected, "{as_of:?}");
    }
}

#[test]
fn rank_moves_up_and_down_within_a_liga() {
    // Night 1 (10 rounds): Anna 3, Bernd 1, Cem 2 → all Kreisliga: Anna 1, Cem 2, Bernd 3.
    // Night 2 (10 rounds): Anna 0, Bernd 5, Cem 1 → 2. Liga: Bernd 6/20, Anna 3/20, Cem 3/20:
    // Bernd 1, Anna and Cem 2. Night 3: Anna 4, Bernd 0, Cem 0 → Anna 7/30, Bernd 6/30, Cem 3/30.
    let abc = ["Anna", "Bernd", "Cem"];
    let nights = vec![
        night("2026-03-06", &abc, &[3, 1, 2]),
        night("2026-03-13", &abc, &[0, 5, 1]),
        night("2026-03-20", &abc, &[4, 0, 0]),
    ];
    let s = season(season_json(
        2026,
        &[("Anna", None), ("Bernd", None), ("Cem", None)],
        nights,
    ));
    let got: Vec<(String, u32, Option<u32>, Movement)> = movements(&s, None)
        .into_iter()
        .map(|m| (m.player, m.rank, m.previous_rank, m.movement))
        .collect();
    assert_eq!(
        got,
        vec![
            ("Anna".to_string(), 1, Some(2), Movement::Up { places: 1 }),
            (
                "Bernd".to_string(),
                2,
                Some(1),
                Movement::Down { places: 1 }
            ),
            ("Cem".to_string(), 3, Some(2), Movement::Down { places: 1 }),
        ]
    );
}

#[test]
fn kreisliga_edge_10_and_11_rounds() {
    // Night 1: 10 rounds of Anna, Bernd, Cem. Night 2: one round of Anna and Bernd.
    let abc = ["Anna", "Bernd", "Cem"];
    let nights = vec![
        night("2026-01-09", &abc, &[1, 0, 0]),
        custom_night("2026-01-16", &[vec![("Anna", 0), ("Bernd", 0)]]),
    ];
    let s = season(season_json(
        2026,
        &[("Anna", Some("2026-01-02")), ("Bernd", None), ("Cem", None)],
        nights,
    ));
    // (as_of, player, rounds, Liga, rounds_to_leave_kreisliga, movement). As of 9 Jan all three
    // are Kreisliga: Anna 1 (1 Out), Bernd and Cem share 2. As of 16 Jan Cem is the Kreisliga alone.
    let cases = [
        ("2026-01-09", "Anna", 10, Liga::Kreisliga, 1, Movement::New),
        ("2026-01-09", "Cem", 10, Liga::Kreisliga, 1, Movement::New),
        ("2026-01-16", "Anna", 11, Liga::First, 0, Movement::Promoted),
        (
            "2026-01-16",
            "Bernd",
            11,
            Liga::Second,
            0,
            Movement::Promoted,
        ),
        (
            "2026-01-16",
            "Cem",
            10,
            Liga::Kreisliga,
            1,
            Movement::Up { places: 1 },
        ),
    ];
    for (as_of, player, rounds, liga, to_leave, movement) in cases {
        let p = players_progress(&s, Some(date(as_of)));
        let r = row_of(&p, player);
        assert_eq!(
            (r.rounds, r.liga, r.rounds_to_leave_kreisliga, r.movement),
            (rounds, liga, to_leave, movement),
            "{as_of} {player}"
        );
    }
}

/// Ten full nights on Fridays from 4 Sep to 6 Nov 2026 plus one on 4 Dec (after the deadline of
/// 30 Nov). Anna plays every round: 100 by the deadline. Bernd sits out round 10 of the last
/// November night: 99. Cem plays only from 2 Oct: 50. All three paid in January.
fn deadline_season() -> Season {
    let fridays = [
        "2026-09-04",
        "2026-09-11",
        "2026-09-18",
        "2026-09-25",
        "2026-10-02",
        "2026-10-09",
        "2026-10-16",
        "2026-10-23",
        "2026-10-30",
        "2026-11-06",
    ];
    let mut nights = Vec::new();
    for (i, d) in fridays.iter().enumerate() {
        let with_cem = i >= 5;
        let rounds: Vec<Vec<(&str, u32)>> = (1..=10)
            .map(|r| {
                let mut rows = vec![("Anna", u32::from(r == 1)), ("Bernd", 0)];
                if i == 9 && r == 10 {
                    rows.pop();
                    rows.push(("Dora", 0));
                }
                if with_cem {
                    rows.push(("Cem", 0));
                }
                rows
            })
            .collect();
        nights.push(custom_night(d, &rounds));
    }
    nights.push(night("2026-12-04", &["Anna", "Bernd"], &[0, 0]));
    let jan = Some("2026-01-02");
    season(season_json(
        2026,
        &[("Anna", jan), ("Bernd", jan), ("Cem", jan), ("Dora", None)],
        nights,
    ))
}

#[test]
fn first_liga_rounds_99_and_100_by_the_deadline() {
    let s = deadline_season();
    // (as_of, player, rounds, rounds_at_deadline, rounds_to_first_liga, first_liga_reached, Liga)
    let cases = [
        ("2026-11-06", "Anna", 100, 100, 0, None, Liga::First),
        ("2026-11-06", "Bernd", 99, 99, 1, None, Liga::First),
        ("2026-11-06", "Cem", 50, 50, 50, None, Liga::First),
        // the deadline itself has not passed yet
        ("2026-11-30", "Anna", 100, 100, 0, None, Liga::First),
        ("2026-11-30", "Bernd", 99, 99, 1, None, Liga::First),
        // the day after the deadline
        ("2026-12-01", "Anna", 100, 100, 0, Some(true), Liga::First),
        ("2026-12-01", "Bernd", 99, 99, 1, Some(false), Liga::Second),
        ("2026-12-01", "Cem", 50, 50, 50, Some(false), Liga::Second),
        // rounds after the deadline do not count for it
        ("2026-12-04", "Bernd", 109, 99, 1, Some(false), Liga::Second),
        ("2026-12-04", "Anna", 110, 100, 0, Some(true), Liga::First),
        // before the deadline: only the rounds so far count
        ("2026-09-04", "Anna", 10, 10, 90, None, Liga::Kreisliga),
    ];
    for (as_of, player, rounds, at_deadline, to_first, reached, liga) in cases {
        let p = players_progress(&s, Some(date(as_of)));
        let r = row_of(&p, player);
        assert_eq!(
            (
                r.rounds,
                r.rounds_at_deadline,
                r.rounds_to_first_liga,
                r.first_liga_reached,
                r.liga
            ),
            (rounds, at_deadline, to_first, reached, liga),
            "{as_of} {player}"
        );
    }
    // The day after the deadline Bernd drops to the 2. Liga; the as-of night is 6 Nov, so the
    // movement compares with 30 Oct, when he was 1. Liga.
    let p = players_progress(&s, Some(date("2026-12-01")));
    assert_eq!(p.previous, Some(date("2026-10-30")));
    assert_eq!(p.deadline, date("2026-11-30"));
    let bernd = row_of(&p, "Bernd");
    assert_eq!(
        (bernd.previous_liga, bernd.movement),
        (Some(Liga::First), Movement::Relegated)
    );
}

#[test]
fn fee_now_by_month_and_payment() {
    // Nights in January, March, September, October and December; Anna never paid, Bernd paid on
    // 10 May (so before that date he has none), Cem paid in January.
    let players = ["Anna", "Bernd", "Cem"];
    let dates = [
        "2026-01-09",
        "2026-03-31",
        "2026-04-01",
        "2026-05-09",
        "2026-09-30",
        "2026-10-01",
        "2026-12-04",
    ];
    let nights = dates.iter().map(|d| night(d, &players, &[])).collect();
    let s = season(season_json(
        2026,
        &[
            ("Anna", None),
            ("Bernd", Some("2026-05-10")),
            ("Cem", Some("2026-01-02")),
        ],
        nights,
    ));
    // Worked out by hand from league.md §5: 15 € until March, +1 € a month from April (April 16 €,
    // May 17 €, September 15 + 6 = 21 €), nothing from October (last_join_month 9).
    // (as_of, player, fee_cents_now)
    let cases = [
        ("2026-01-09", "Anna", Some(1500)),
        ("2026-03-31", "Anna", Some(1500)),
        ("2026-04-01", "Anna", Some(1600)),
        ("2026-05-09", "Bernd", Some(1700)),
        ("2026-05-10", "Bernd", None), // paid that day
        ("2026-09-30", "Anna", Some(2100)),
        ("2026-10-01", "Anna", None),
        ("2026-12-04", "Anna", None),
        ("2026-01-09", "Cem", None),
        ("2026-09-30", "Cem", None),
    ];
    for (as_of, player, fee) in cases {
        let p = players_progress(&s, Some(date(as_of)));
        assert_eq!(row_of(&p, player).fee_cents_now, fee, "{as_of} {player}");
    }
}

#[test]
fn outs_to_pass_in_the_table_with_ties() {
    // Night 1, 2: Anna, Bernd, Cem; night 3: Anna, Cem. Anna 2 a night (6 in 30 = 2,00), Bernd 2 a
    // night (4 in 20 = 2,00, fewer rounds → rank 2), Cem none (0 in 30). Nobody paid: 2. Liga.
    let abc = ["Anna", "Bernd", "Cem"];
    let nights = vec![
        night("2026-01-09", &abc, &[2, 2, 0]),
        night("2026-01-16", &abc, &[2, 2, 0]),
        night("2026-01-23", &["Anna", "Cem"], &[2, 0]),
    ];
    let s = season(season_json(
        2026,
        &[("Anna", None), ("Bernd", None), ("Cem", None)],
        nights,
    ));
    let p = players_progress(&s, None);
    let got: Vec<(&str, u32, Option<i64>)> = p
        .rows
        .iter()
        .map(|r| (r.player.as_str(), r.rank, r.outs_to_pass))
        .collect();
    // Bernd: 5 in 20 = 2,50 > 2,00 (1 more). Cem: 6 in 30 = 2,00 = Bernd's with more rounds (6).
    assert_eq!(
        got,
        vec![
            ("Anna", 1, None),
            ("Bernd", 2, Some(1)),
            ("Cem", 3, Some(6))
        ]
    );

    // Shared ranks: Anna 3, Bea 2, Cem 2, Dora 1 in one full night (Kreisliga, 10 rounds each).
    let s = season(season_json(
        2026,
        &[("Anna", None), ("Bea", None), ("Cem", None), ("Dora", None)],
        vec![night(
            "2026-01-09",
            &["Anna", "Bea", "Cem", "Dora"],
            &[3, 2, 2, 1],
        )],
    ));
    let p = players_progress(&s, None);
    let got: Vec<(&str, u32, Option<i64>)> = p
        .rows
        .iter()
        .map(|r| (r.player.as_str(), r.rank, r.outs_to_pass))
        .collect();
    // Bea and Cem (rank 2) need 2 to pass Anna (3 only ties); Dora passes rank 2 with 2 more (3 > 2).
    assert_eq!(
        got,
        vec![
            ("Anna", 1, None),
            ("Bea", 2, Some(2)),
            ("Cem", 2, Some(2)),
            ("Dora", 4, Some(2)),
        ]
    );
}

#[test]
fn a_season_without_nights_lists_nobody() {
    let s = season(season_json(2026, &[("Anna", None)], vec![]));
    let p = players_progress(&s, None);
    assert_eq!((p.as_of, p.previous, p.rows.len()), (None, None, 0));
    assert!(movements(&s, None).is_empty());
    let p = players_progress(&s, Some(date("2026-05-01")));
    assert_eq!((p.as_of, p.rows.len()), (Some(date("2026-05-01")), 0));
}

#[test]
fn progress_json_has_the_contract_fields() {
    let s = three_nights();
    let p = players_progress(&s, None);
    let v = serde_json::to_value(&p).expect("json");
    let dora = v["rows"]
        .as_array()
        .and_then(|rows| rows.iter().find(|r| r["player"] == "Dora"))
        .expect("Dora");
    for field in [
        "rank",
        "liga",
        "rounds",
        "previous_rank",
        "previous_liga",
        "rounds_to_leave_kreisliga",
        "rounds_to_first_liga",
        "first_liga_reached",
        "fee_cents_now",
        "outs_to_pass",
    ] {
        assert!(dora.get(field).is_some(), "{field} missing in {dora}");
    }
    assert_eq!(dora["liga"], "Kreisliga");
    assert_eq!(dora["previous_rank"], Value::Null);
    assert_eq!(dora["rounds_to_leave_kreisliga"], 1);
    assert_eq!(dora["outs_to_pass"], Value::Null); // rank 1 of the Kreisliga
    assert_eq!(dora["fee_cents_now"], 1500); // as of 20 Feb
}

#[test]
fn the_fee_on_a_day_table() {
    let s = deadline_season();
    // (player, day, fee): Anna paid on 2 January, Dora never; defaults: 15 € to March, then
    // 1 € more each month, last join month September (league.md §5).
    let cases = [
        ("Dora", "2026-01-31", Some(1500)),
        ("Dora", "2026-03-31", Some(1500)),
        ("Dora", "2026-04-01", Some(1600)),
        ("Dora", "2026-09-30", Some(2100)),
        ("Dora", "2026-10-01", None),
        ("Dora", "2027-01-15", None),
        ("Anna", "2026-01-01", Some(1500)),
        ("Anna", "2026-01-02", None),
        ("Anna", "2026-09-30", None),
        ("Nobody", "2026-05-01", Some(1700)),
    ];
    for (player, day, want) in cases {
        assert_eq!(fee_now(&s, player, date(day)), want, "{player} {day}");
    }
}

/// A 2. Liga row for [`missing`]'s table: rank 2, 60 rounds, deadline not passed.
fn progress_row() -> ProgressRow {
    ProgressRow {
        player: "Gabi".into(),
        liga: Liga::Second,
        rank: 2,
        rounds: 60,
        counted_outs: 30,
        d_wert: 5.0,
        previous_rank: Some(2),
        previous_liga: Some(Liga::Second),
        movement: Movement::Same,
        rounds_to_leave_kreisliga: 0,
        rounds_at_deadline: 60,
        rounds_to_first_liga: 40,
        first_liga_reached: None,
        fee_cents_now: Some(1700),
        outs_to_pass: Some(3),
    }
}

#[test]
fn what_is_missing_is_worded_without_a_pronoun() {
    // Issue 21.10: (row, paid, money, expected sentences) — none says „er“, „ihm“ or „seiner“.
    let deadline = date("2026-11-30");
    let base = progress_row();
    let leader = ProgressRow {
        rank: 1,
        outs_to_pass: None,
        ..base.clone()
    };
    let reached = ProgressRow {
        rounds_to_first_liga: 0,
        rounds_at_deadline: 100,
        ..leader.clone()
    };
    let cases: Vec<(ProgressRow, bool, bool, Vec<&str>)> = vec![
        (
            base.clone(),
            false,
            true,
            vec![
                "Für die 1. Liga fehlen bis zum Stichtag 30.11.2026 noch 40 Runden (bisher 60).",
                "Jahresbeitrag noch nicht bezahlt: diesen Monat 17,00 € (die 1. Liga setzt ihn voraus).",
                "Mit 3 gewerteten Outs mehr (bei gleichen Runden): Platz 1, vor Anna.",
            ],
        ),
        (
            leader.clone(),
            true,
            false,
            vec![
                "Für die 1. Liga fehlen bis zum Stichtag 30.11.2026 noch 40 Runden (bisher 60).",
                "An der Spitze der 2. Liga.",
            ],
        ),
        (
            reached,
            true,
            true,
            vec![
                "Die Runden für die 1. Liga bis zum Stichtag 30.11.2026 sind beisammen.",
                "An der Spitze der 2. Liga.",
            ],
        ),
        (
            ProgressRow {
                outs_to_pass: Some(1),
                first_liga_reached: Some(false),
                fee_cents_now: None,
                ..base
            },
            false,
            true,
            vec![
                "Rundenziel für die 1. Liga bis 30.11.2026 verpasst: es fehlten 40 Runden.",
                "Jahresbeitrag nicht bezahlt; in dieser Saison geht das nicht mehr (bis Ende September).",
                "Mit 1 gewerteten Out mehr (bei gleichen Runden): Platz 1, vor Anna.",
            ],
        ),
    ];
    for (row, paid, money, want) in cases {
        let got = missing(&row, deadline, paid, money, &["Anna"], 1, false);
        assert_eq!(got, want);
        for s in &got {
            for he in [" er ", "Er ", " ihm", "seiner", " ihn "] {
                assert!(!s.contains(he) || s.contains("setzt ihn voraus"), "{s}");
            }
        }
    }
}

#[test]
fn a_season_that_is_over_says_what_was_missed_in_the_past_tense() {
    // Fresh-user trial: a finished season's page said „noch 70 Runden“ as if he could still play.
    let deadline = date("2026-11-30");
    let kreisliga = ProgressRow {
        liga: Liga::Kreisliga,
        rounds: 30,
        rounds_to_leave_kreisliga: 70,
        rounds_at_deadline: 30,
        rounds_to_first_liga: 70,
        first_liga_reached: Some(false),
        fee_cents_now: None,
        ..progress_row()
    };
    assert_eq!(
        missing(&kreisliga, deadline, false, true, &["Anna"], 1, true),
        [
            "Bis zum Ende der Kreisliga fehlten 70 Runden.",
            "Rundenziel für die 1. Liga bis 30.11.2026 verpasst: es fehlten 70 Runden.",
            "Jahresbeitrag nicht bezahlt.",
        ]
    );
    let reached = ProgressRow {
        rounds_to_first_liga: 0,
        rounds_at_deadline: 100,
        first_liga_reached: Some(true),
        ..progress_row()
    };
    assert_eq!(
        missing(&reached, deadline, true, true, &["Anna"], 1, true),
        ["Rundenziel für die 1. Liga bis 30.11.2026 erreicht (100 Runden)."]
    );
    let season = Season::from_file(&crate::league::model::file::SeasonFile {
        format: crate::league::model::file::FORMAT.to_string(),
        season: 2026,
        rules: Default::default(),
        players: Vec::new(),
        nights: Vec::new(),
        endstand: Vec::new(),
        payments: Vec::new(),
        credit: Vec::new(),
        kassenbuch: None,
        status: Vec::new(),
        merged: None,
    })
    .unwrap();
    assert!(!is_over(&season, date("2026-12-31")));
    assert!(is_over(&season, date("2027-01-01")));
}
