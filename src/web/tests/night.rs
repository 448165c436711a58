//! Unit tests of `src/web/night.rs` (kept beside it in `tests/` so the module reads as the code alone).

use super::*;
use rand::SeedableRng;

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
        let ids: Vec<i64> = (1..=n).collect();
        let seats = draw(&ids, split, &mut rng);
        let on = |t: u32| seats.iter().filter(|s| s.1 == t).count();
        assert_eq!((on(1), on(2)), (t1, t2), "{n} from {split}");
        let mut all: Vec<i64> = seats.iter().map(|s| s.0).collect();
        all.sort_unstable();
        assert_eq!(all, ids, "everyone seated once");
    }
}

#[test]
fn the_draw_is_not_always_the_same() {
    let ids: Vec<i64> = (1..=12).collect();
    let draws: BTreeSet<Vec<(i64, u32, u32)>> =
        (0..5).map(|_| draw(&ids, 10, &mut rand::rng())).collect();
    assert!(draws.len() > 1);
}

#[test]
fn round_forms_parse_counts_and_name_the_bad_field() {
    let d = NaiveDate::from_ymd_opt(2026, 1, 9).unwrap();
    let row = |id, name: &str, outs: &str, played, lost| EntryRow {
        id,
        name: name.into(),
        played,
        outs: outs.into(),
        hand_outs: "0".into(),
        julen: "".into(),
        joker: false,
        lost,
    };
    let ok = parse_round(
        d,
        1,
        "3",
        &[
            row(1, "Anna", "2", true, false),
            row(2, "Bernd", "0", true, true),
            row(3, "Carla", "0", false, false),
        ],
    )
    .unwrap();
    assert_eq!(ok.0, 3);
    assert_eq!(ok.1.len(), 2, "Carla did not play");
    assert_eq!((ok.1[0].1.outs, ok.1[1].1.lost), (2, true));

    let cases = [
        (
            "3",
            vec![row(1, "Anna", "zwei", true, false)],
            "Abend 09.01.2026, Tisch 1, Runde 3, Spieler Anna, Feld Outs",
        ),
        (
            "drei",
            vec![row(1, "Anna", "1", true, false)],
            "Rundennummer",
        ),
        ("3", vec![row(1, "Anna", "0", false, true)], "Verlierer"),
        (
            "3",
            vec![
                row(1, "Anna", "1", true, true),
                row(9, "Ilse", "2", false, false),
            ],
            "Runde 3: Werte für Ilse eingetragen, aber Ilse ist nicht angekreuzt",
        ),
    ];
    for (number, rows, part) in cases {
        let e = parse_round(d, 1, number, &rows).unwrap_err();
        assert!(e.contains(part), "{e}");
    }
}
