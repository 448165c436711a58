//! Unit tests of `src/web/money/abschluss.rs`.

use super::*;

#[test]
fn percentages_in_german() {
    let cases = [
        (30, 1, "30 %"),
        (45, 2, "22,5 %"),
        (25, 3, "8,33… %"),
        (55, 2, "27,5 %"),
        (1, 4, "0,25 %"),
        (0, 1, "0 %"),
        (1, 0, "–"),
    ];
    for (num, den, expected) in cases {
        assert_eq!(format_percent(num, den), expected, "{num}/{den}");
    }
}
