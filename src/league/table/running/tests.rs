//! Unit tests of `src/league/table/running.rs`.

use super::*;

/// The table on a day within the season comes from the totals kept after each night (issue 25):
/// the same as summing the nights up to that day afresh, on every day around every night of the
/// fixture seasons, also on a copy of the season (which keeps none of the original's).
#[test]
fn the_totals_kept_after_each_night_are_those_summed_afresh() {
    for text in [
        include_str!("../../../../tests/fixtures/sample-2026.season.json"),
        include_str!("../../../../tests/fixtures/small-2026.season.json"),
    ] {
        let f: crate::league::model::file::SeasonFile = serde_json::from_str(text).unwrap();
        let s = crate::league::model::season::Season::from_file(&f).unwrap();
        let rules = &s.rules;
        let fresh = |season: &crate::league::model::season::Season, day| {
            let mut map = BTreeMap::new();
            for night in season.nights.iter().filter(|n| n.date <= day) {
                add_night(&mut map, night, rules, deadline(season));
            }
            map
        };
        let copy = s.clone();
        for n in &s.nights {
            for day in [
                n.date.pred_opt().unwrap(),
                n.date,
                n.date.succ_opt().unwrap(),
            ] {
                assert_eq!(totals_up_to(&s, day), fresh(&s, day), "{day}");
                assert_eq!(totals_up_to(&copy, day), fresh(&s, day), "copy {day}");
            }
        }
        assert_eq!(s.running().len(), s.nights.len());
    }
}
