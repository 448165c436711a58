//! Unit tests of `src/web/admin/audit.rs`.

use super::*;

#[test]
fn timestamps_show_german_or_as_stored() {
    let cases = [
        ("2026-11-29T15:20:07.123+00:00", "29.11.2026 15:20:07 UTC"),
        ("kaputt", "kaputt"),
    ];
    for (input, want) in cases {
        assert_eq!(de_timestamp(input), want);
    }
}
