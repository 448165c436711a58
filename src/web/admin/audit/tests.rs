//! Unit tests of `src/web/admin/audit.rs`.

use super::*;
use crate::service::clock::{ClubClock, FixedClock};

/// The Protokoll shows the club's wall clock (issue 23.1), no longer UTC: the same stored instant
/// in UTC and in Berlin (winter time, +1 h); text that is no instant stays as stored.
#[test]
fn timestamps_show_the_clubs_time_or_as_stored() {
    let utc = ClubClock::new(FixedClock::at(chrono::Utc::now()), chrono_tz::UTC);
    let berlin = ClubClock::new(
        FixedClock::at(chrono::Utc::now()),
        chrono_tz::Europe::Berlin,
    );
    let cases = [
        (&utc, "2026-11-29T15:20:07.123+00:00", "29.11.2026 15:20:07"),
        (
            &berlin,
            "2026-11-29T15:20:07.123+00:00",
            "29.11.2026 16:20:07",
        ),
        (&berlin, "2026-07-01T22:30:00.000Z", "02.07.2026 00:30:00"),
        (&utc, "kaputt", "kaputt"),
    ];
    for (clock, input, want) in cases {
        assert_eq!(clock.stamp_de(input), want, "{input}");
    }
}

fn line(name: &str, before: &str, after: &str, changed: bool) -> FieldLine {
    FieldLine {
        name: name.to_string(),
        before: before.to_string(),
        after: after.to_string(),
        changed,
    }
}

/// Before and after read field by field: German names, euros, dates, ja/nein; what changed is
/// marked; lists and text that is no JSON stay plain.
#[test]
fn before_and_after_read_field_by_field() {
    let result =
        r#"{"night":"2026-01-09","table":1,"round":3,"player":"Anna","outs":2,"lost":false}"#;
    let changed =
        r#"{"night":"2026-01-09","table":1,"round":3,"player":"Anna","outs":3,"lost":true}"#;
    let (fields, plain) = compare(Some(result), Some(changed));
    assert_eq!(plain, None);
    assert_eq!(
        fields,
        vec![
            line("Abend", "09.01.2026", "09.01.2026", false),
            line("Tisch", "1", "1", false),
            line("Runde", "3", "3", false),
            line("Spieler", "Anna", "Anna", false),
            line("Outs", "2", "3", true),
            line("verloren", "nein", "ja", true),
        ]
    );
    // Only an after (a new fine): nothing is "changed", amounts in euros.
    let (fields, _) = compare(
        None,
        Some(r#"{"player":"Bernd","kind":"late","amount_cents":150,"paid":null}"#),
    );
    assert_eq!(
        fields,
        vec![
            line("Spieler", "", "Bernd", false),
            line("Art", "", "late", false),
            line("Betrag", "", "1,50 €", false),
            line("bezahlt", "", "–", false),
        ]
    );
    // A key only after is listed too; unknown keys by name after the known ones.
    let (fields, _) = compare(
        Some(r#"{"timezone":"","id":4}"#),
        Some(r#"{"timezone":"UTC","id":4,"a":1}"#),
    );
    assert_eq!(
        fields,
        vec![
            line("Nr.", "4", "4", false),
            line("a", "", "1", true),
            line("Zeitzone", "", "UTC", true)
        ]
    );
    // Lists (a draw) and broken text stay plain; nothing at all is nothing.
    assert_eq!(
        compare(Some(r#"[["Anna",1]]"#), Some("kaputt")),
        (
            Vec::new(),
            Some((r#"[["Anna",1]]"#.to_string(), "kaputt".to_string()))
        )
    );
    assert_eq!(compare(None, None), (Vec::new(), None));
}

/// Every key the service and the audit triggers store reads German on the page (issue 21.8: no
/// internal names on German pages).
#[test]
fn stored_keys_read_german() {
    for (key, want) in [
        ("players", "Spieler"),
        ("valid_hours", "gültig (Stunden)"),
        ("amount_cents", "Betrag"),
        ("fee_paid_on", "Beitrag bezahlt am"),
        ("timezone", "Zeitzone"),
        ("counted_outs", "gewertete Outs"),
        ("netted", "verrechnet"),
        ("ein_neues_feld", "ein_neues_feld"),
    ] {
        assert_eq!(field_name(key), want, "{key}");
    }
}
