//! Unit tests of `src/web/money/csv.rs`.

use super::*;

#[test]
fn csv_cells_for_a_german_spreadsheet() {
    for (cents, expected) in [(123450, "1234,50"), (5, "0,05"), (0, "0,00"), (-5, "-0,05")] {
        assert_eq!(csv_cents(cents), expected);
    }
    for (text, expected) in [
        ("Anna", "Anna"),
        ("=HYPERLINK(1)", "'=HYPERLINK(1)"),
        ("-1", "'-1"),
        ("@x", "'@x"),
        ("", ""),
    ] {
        assert_eq!(csv_text(text), expected);
    }
    let day = NaiveDate::from_ymd_opt(2026, 11, 29).expect("date");
    assert_eq!(
        csv_filename(2026, "tabelle", day),
        "schockerliga-2026-tabelle-2026-11-29.csv"
    );
}

#[test]
fn csv_bytes_start_with_a_bom_and_quote_only_what_needs_it() {
    let rows = vec![
        vec!["Name".to_string(), "Betrag".to_string()],
        vec!["Jürgen; der Zweite".to_string(), "1,50".to_string()],
    ];
    let bytes = csv_bytes(&rows).expect("csv");
    assert_eq!(
        bytes,
        "\u{feff}Name;Betrag\r\n\"Jürgen; der Zweite\";1,50\r\n".as_bytes()
    );
}
