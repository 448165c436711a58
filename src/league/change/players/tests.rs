//! Unit tests of `src/league/change/players.rs` (moved from the tests of `sheet/totals.rs`).

use crate::league::change::Change;
use crate::league::table::standings::standings;
use crate::league::testkit::{season, totals_night};

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
