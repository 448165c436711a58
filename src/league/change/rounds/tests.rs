//! Unit tests of `src/league/change/rounds.rs` (moved from the tests of `sheet/totals.rs`).

use crate::league::change::Change;
use crate::league::testkit::{season, totals_night};

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
