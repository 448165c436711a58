//! The draw by lot, the derived draw and the seat order (moved here from the night and
//! Schockbesteck handlers' tests).

use std::collections::BTreeSet;

use rand::SeedableRng;

use super::*;

fn names(n: usize) -> Vec<String> {
    (1..=n).map(|i| format!("P{i}")).collect()
}

#[test]
fn the_draw_splits_from_ten_into_halves_differing_by_at_most_one() {
    let mut rng = rand::rngs::StdRng::seed_from_u64(7);
    // (participants, split_from, expected sizes of table 1 and 2)
    let cases = [
        (2, 10, (2, 0)),
        (9, 10, (9, 0)),
        (10, 10, (5, 5)),
        (11, 10, (6, 5)),
        (15, 10, (8, 7)),
        (4, 4, (2, 2)),
    ];
    for (n, split, (t1, t2)) in cases {
        let players = names(n);
        let seats = by_lot(&players, split, &mut rng);
        let on = |t: u32| seats.iter().filter(|s| s.table == t).count();
        assert_eq!((on(1), on(2)), (t1, t2), "{n} from {split}");
        let mut all: Vec<String> = seats.iter().map(|s| s.player.clone()).collect();
        all.sort_unstable();
        let mut want = players.clone();
        want.sort_unstable();
        assert_eq!(all, want, "everyone seated once");
        assert!(
            seats.windows(2).all(|w| w[0].table <= w[1].table),
            "table 1 first"
        );
    }
}

#[test]
fn the_draw_is_not_always_the_same() {
    let players = names(12);
    let draws: BTreeSet<Vec<(String, u32)>> = (0..5)
        .map(|_| {
            by_lot(&players, 10, &mut rand::rng())
                .into_iter()
                .map(|s| (s.player, s.table))
                .collect()
        })
        .collect();
    assert!(draws.len() > 1);
}

#[test]
fn fewer_than_split_from_keep_their_order_at_table_one() {
    let players = names(3);
    let seats = by_lot(&players, 10, &mut rand::rng());
    let got: Vec<(&str, u32)> = seats.iter().map(|s| (s.player.as_str(), s.table)).collect();
    assert_eq!(got, vec![("P1", 1), ("P2", 1), ("P3", 1)]);
}

#[test]
fn seat_order_starts_with_the_vorleger_and_skips_the_unticked() {
    let table: Vec<String> = ["A", "B", "C", "D"].iter().map(|s| s.to_string()).collect();
    // (ticked, vorleger, order)
    let cases: Vec<(Vec<&str>, &str, Vec<&str>)> = vec![
        (vec!["A", "B", "C", "D"], "A", vec!["A", "B", "C", "D"]),
        (vec!["A", "B", "C", "D"], "C", vec!["C", "D", "A", "B"]),
        (vec!["D", "B", "A"], "B", vec!["B", "D", "A"]),
        (vec!["A", "C"], "C", vec!["C", "A"]),
    ];
    for (ticked, v, want) in cases {
        assert_eq!(seat_order(&table, &ticked, v), want, "{ticked:?} {v}");
    }
}

#[test]
fn the_derived_draw_is_each_tables_players_in_the_order_they_first_play() {
    use crate::league::model::file::ResultEntry;
    use crate::league::model::season::{Round, Table};
    let row = |p: &str| ResultEntry {
        player: p.into(),
        outs: 0,
        hand_outs: 0,
        julen: 0,
        joker: false,
        lost: false,
    };
    let tables = vec![
        Table {
            number: 1,
            rounds: vec![
                Round {
                    number: 1,
                    results: vec![row("B"), row("A")],
                    schockbesteck: None,
                },
                Round {
                    number: 2,
                    results: vec![row("A"), row("C")],
                    schockbesteck: None,
                },
            ],
        },
        Table {
            number: 2,
            rounds: vec![Round {
                number: 1,
                results: vec![row("E"), row("D")],
                schockbesteck: None,
            }],
        },
    ];
    let got: Vec<(String, u32)> = derive_draw(&tables)
        .into_iter()
        .map(|s| (s.player, s.table))
        .collect();
    let want: Vec<(String, u32)> = [("B", 1), ("A", 1), ("C", 1), ("E", 2), ("D", 2)]
        .iter()
        .map(|(p, t)| (p.to_string(), *t))
        .collect();
    assert_eq!(got, want);
    assert_eq!(table_players(&derive_draw(&tables), 2), vec!["E", "D"]);
}

fn seats(spec: &[(&str, u32)]) -> Vec<SeatEntry> {
    spec.iter()
        .map(|(p, t)| SeatEntry {
            player: p.to_string(),
            table: *t,
        })
        .collect()
}

fn show(draw: &[SeatEntry]) -> Vec<(String, u32)> {
    draw.iter().map(|s| (s.player.clone(), s.table)).collect()
}

#[test]
fn a_newcomer_sits_at_the_smaller_table_a_tie_at_table_two() {
    // (draw, chosen table, expected draw)
    let cases: Vec<(Vec<SeatEntry>, Option<u32>, Vec<SeatEntry>)> = vec![
        (seats(&[]), None, seats(&[("N", 1)])),
        (
            seats(&[("A", 1), ("B", 1)]),
            None,
            seats(&[("A", 1), ("B", 1), ("N", 1)]),
        ),
        (
            seats(&[("A", 1), ("B", 1), ("C", 2)]),
            None,
            seats(&[("A", 1), ("B", 1), ("C", 2), ("N", 2)]),
        ),
        (
            seats(&[("A", 1), ("B", 2)]),
            None,
            seats(&[("A", 1), ("B", 2), ("N", 2)]),
        ),
        (
            seats(&[("A", 1), ("B", 2), ("C", 2)]),
            None,
            seats(&[("A", 1), ("N", 1), ("B", 2), ("C", 2)]),
        ),
        (
            seats(&[("A", 1), ("B", 2)]),
            Some(1),
            seats(&[("A", 1), ("N", 1), ("B", 2)]),
        ),
        // already drawn: stays where he sits
        (
            seats(&[("N", 1), ("B", 2)]),
            Some(2),
            seats(&[("N", 1), ("B", 2)]),
        ),
    ];
    for (draw, table, want) in cases {
        assert_eq!(
            show(&seat(&draw, "N", table)),
            show(&want),
            "{draw:?} {table:?}"
        );
    }
}

#[test]
fn the_presence_form_moves_nobody_unless_asked_to_draw_again() {
    let mut rng = rand::rngs::StdRng::seed_from_u64(3);
    let current = seats(&[("A", 1), ("B", 1), ("C", 1), ("D", 2), ("E", 2)]);
    let present: Vec<String> = ["A", "B", "D", "E", "F", "G"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    // C leaves; F and G arrive: F at the smaller table (a tie 2:2 → table 2), G then at table 1.
    let got = update(&current, &present, 4, false, &mut rng);
    assert_eq!(
        show(&got),
        show(&seats(&[
            ("A", 1),
            ("B", 1),
            ("G", 1),
            ("D", 2),
            ("E", 2),
            ("F", 2)
        ]))
    );
    // Asked for: a new draw of exactly the present players.
    let again = update(&current, &present, 4, true, &mut rng);
    let mut names: Vec<String> = again.iter().map(|s| s.player.clone()).collect();
    names.sort();
    assert_eq!(names, present);
    // No draw yet: by lot.
    let first = update(&[], &present, 10, false, &mut rng);
    assert!(first.iter().all(|s| s.table == 1) && first.len() == 6);
}
