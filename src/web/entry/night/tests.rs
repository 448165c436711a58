//! Unit tests of `src/web/entry/night.rs`: the round number the form proposes (issue 21.5; the
//! refusal of a round running in the Schockbesteck is `service::besteck::collision`, tested in
//! `src/service/tests.rs`).

use super::*;

fn entered(numbers: &[u32]) -> Vec<EnteredRound> {
    numbers
        .iter()
        .map(|&number| EnteredRound {
            number,
            loser: "Anna".into(),
            outs: String::new(),
            version: String::new(),
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
