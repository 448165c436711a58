//! Unit tests of `src/web/entry/night.rs`: the round number the form proposes, and the refusal of
//! a round running in the Schockbesteck (issue 21.5).

use super::*;

fn entered(numbers: &[u32]) -> Vec<EnteredRound> {
    numbers
        .iter()
        .map(|&number| EnteredRound {
            number,
            loser: "Anna".into(),
            outs: String::new(),
            movable: false,
        })
        .collect()
}

#[test]
fn the_form_never_proposes_a_round_running_in_the_schockbesteck() {
    // (entered, running in the Besteck, proposed)
    let cases: [(&[u32], &[u32], u32); 7] = [
        (&[], &[], 1),
        (&[1, 2, 3, 4], &[], 5),
        (&[1, 2, 3, 4], &[5], 6),
        (&[1, 2, 3, 4], &[5, 6], 7),
        (&[2, 3], &[1], 4),
        (&[1, 2, 3, 4, 5, 6, 7, 8, 9], &[10], 10),
        (&[1, 2, 3, 4, 5, 6, 7, 8, 9, 10], &[], 10),
    ];
    for (done, running, want) in cases {
        assert_eq!(
            next_round(&entered(done), running, 10),
            want,
            "{done:?} {running:?}"
        );
    }
}

#[test]
fn a_round_running_in_the_schockbesteck_is_refused_by_the_form() {
    let date = NaiveDate::from_ymd_opt(2026, 11, 27).expect("date");
    assert_eq!(besteck_collision(date, 1, 4, &[5]), None);
    assert_eq!(besteck_collision(date, 1, 5, &[]), None);
    let why = besteck_collision(date, 2, 5, &[3, 5]).expect("refused");
    assert!(
        why.starts_with(
            "Abend 27.11.2026, Tisch 2, Runde 5: diese Runde läuft gerade im Schockbesteck."
        ),
        "{why}"
    );
}
