//! Unit tests of `src/league/money/reference.rs`: ISO 11649 creditor references as tables.

use super::*;

#[test]
fn the_iso_11649_example_and_made_references_check_mod_97() {
    // (body, reference) — the first is the example of ISO 11649 (RF18 5390 0754 7034).
    let made = [
        ("539007547034", "RF18539007547034"),
        ("202612", "RF86202612"),
        ("20261", "RF3720261"),
        ("a", "RF25A"),
        ("123456789012345678901", "RF40123456789012345678901"),
    ];
    for (body, want) in made {
        let got = creditor_reference(body).unwrap_or_else(|| panic!("{body}"));
        assert_eq!(got, want, "{body}");
        assert!(is_valid(&got), "{body} → {got}");
        assert_eq!(&got[4..], body.to_ascii_uppercase(), "{body}");
    }
    for bad in ["", "1234567890123456789012", "20-26", "Anna B"] {
        assert_eq!(creditor_reference(bad), None, "{bad:?}");
    }
}

#[test]
fn what_is_a_valid_reference() {
    // (input, valid)
    let cases = [
        ("RF18539007547034", true),
        ("RF18 5390 0754 7034", true),
        ("rf18539007547034", true),
        ("RF19539007547034", false),           // a check digit off
        ("RF18539007547043", false),           // two digits swapped
        ("RF18", false),                       // no body
        ("DE18539007547034", false),           // not RF
        ("RFAB539007547034", false),           // check digits not digits
        ("RF18-539007547034", false),          // not alphanumeric
        ("RF481234567890123456789012", false), // body of 22
    ];
    for (input, want) in cases {
        assert_eq!(is_valid(input), want, "{input}");
    }
}

#[test]
fn a_player_reference_is_one_per_season_and_player_and_reads_back() {
    // (year, player id, reference or none)
    let cases: [(i32, i64, Option<&str>); 6] = [
        (2026, 1, Some("RF3720261")),
        (2026, 12, Some("RF86202612")),
        (2027, 12, Some("RF05202712")),
        (2026, 99, Some("RF65202699")),
        (999, 1, None),
        (2026, 0, None),
    ];
    for (year, id, want) in cases {
        let got = player_reference(year, id);
        assert_eq!(got.as_deref(), want, "{year} {id}");
        if let Some(rf) = got {
            assert!(is_valid(&rf), "{rf}");
            assert_eq!(parse_player_reference(&rf), Some((year, id)), "{rf}");
            assert_eq!(parse_player_reference(&grouped(&rf)), Some((year, id)));
        }
    }
    assert_eq!(grouped("RF18539007547034"), "RF18 5390 0754 7034");
    // Valid, but not of our shape (the id would have a leading zero).
    assert_eq!(parse_player_reference("RF18539007547034"), None);
    assert_eq!(parse_player_reference("RF19539007547034"), None);
}
