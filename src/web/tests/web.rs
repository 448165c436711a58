//! Unit tests of `src/web/mod.rs` (kept beside it in `tests/` so the module reads as the code alone).

use super::*;

#[test]
fn german_numbers_and_dates() {
    let numbers = [
        (6.0, "6,00"),
        (28.3, "28,30"),
        (0.05, "0,05"),
        (-1.5, "-1,50"),
    ];
    for (v, s) in numbers {
        assert_eq!(de2(v), s);
    }
    let d = chrono::NaiveDate::from_ymd_opt(2026, 1, 9).unwrap();
    assert_eq!(de_date(d), "09.01.2026");
}
