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

#[test]
fn a_netting_share_says_what_of_it_is_the_lucky_loosers() {
    // (Lucky Looser cents, share cents, note)
    let cases = [
        (1000, 2440, "inkl. 10,00 € Lucky Looser"),
        (1000, 1000, "Lucky Looser"),
        (333, 1833, "inkl. 3,33 € Lucky Looser"),
        (0, 2160, ""),
    ];
    for (lucky, share, want) in cases {
        assert_eq!(lucky_note(lucky, share), want, "{lucky} of {share}");
    }
}
