//! Unit tests of `src/league/season.rs`.

use super::*;

#[test]
fn row_points_with_hand_outs_and_joker() {
    // (year, outs, hand_outs, joker, points)
    let cases = [
        (2026, 1, 0, false, 1),
        (2026, 1, 1, false, 2),
        (2026, 3, 1, false, 4),
        (2026, 1, 0, true, 2),
        (2026, 1, 1, true, 4),
        (2026, 3, 3, true, 12),
        (2026, 0, 0, true, 0),
        (2006, 2, 2, false, 2), // before 2007 a Hand-Out counts 1
        (2010, 2, 1, false, 3), // Hand-Out doubling, no Joker yet
    ];
    for (year, outs, hand_outs, joker, points) in cases {
        let rules = SeasonRules::defaults_for(year);
        let r = ResultEntry {
            player: "Anna".into(),
            outs,
            hand_outs,
            julen: 0,
            joker,
            lost: false,
        };
        assert_eq!(
            row_points(&rules, &r),
            points,
            "{year} {outs} {hand_outs} {joker}"
        );
    }
}
