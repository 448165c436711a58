//! Unit tests of `src/league/money/netting.rs`.

use serde_json::json;

use super::*;
use crate::league::testkit::season;

fn d(s: &str) -> NaiveDate {
    NaiveDate::parse_from_str(s, "%Y-%m-%d").expect("test date")
}

/// A night kept as the totals of an old spreadsheet is history, not a night still to be played:
/// an imported season of totals (never closed at the bar) is no "Noch offen" for the netting and
/// its Jahresabschluss is final after its year (issue 31.1 after the merge with the import).
#[test]
fn a_night_of_totals_from_a_spreadsheet_is_no_night_still_open() {
    let row = |player: &str, outs: u32, lost: u32| {
        json!({ "player": player, "table": 1, "rounds": 10, "outs": outs, "hand_outs": 0,
                "julen": 0, "lost": lost })
    };
    let v = json!({
        "format": "schockerliga-season/1", "season": 2015,
        "players": [{ "name": "Anna", "fee_paid_on": "2015-01-09" },
                    { "name": "Bea", "fee_paid_on": "2015-01-09" }],
        "nights": [{ "date": "2015-01-09", "tables": [],
                     "totals": [row("Anna", 5, 4), row("Bea", 2, 6)],
                     "fines": [{ "player": "Anna", "kind": "late", "paid": false }] }]
    });
    let s = season(v);
    assert!(!s.nights[0].closed && !s.nights[0].totals.is_empty());
    assert!(Ahead::of(&s, &[]).is_empty(), "{:?}", Ahead::of(&s, &[]));
    assert_eq!(last_act(&s, &[]), Ok(()));
    let last = d("2015-01-09");
    assert_eq!(
        closing(&s, 0, d("2016-01-01"), &[]),
        Closing::Final { last }
    );
    // A planned night of that season still waits.
    assert!(last_act(&s, &[d("2015-12-18")]).is_err());
}
