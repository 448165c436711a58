//! Unit tests of `src/league/error.rs`.

use super::*;

#[test]
fn display_names_the_known_parts() {
    let d = NaiveDate::from_ymd_opt(2026, 1, 9).expect("date");
    let cases = [
        (
            Location::night(d)
                .table(1)
                .round(3)
                .player("Anna")
                .field("outs"),
            "Abend 09.01.2026, Tisch 1, Runde 3, Spieler Anna, Feld Outs: kaputt",
        ),
        (
            Location::night(d).field("date"),
            "Abend 09.01.2026, Feld Datum: kaputt",
        ),
        (
            Location::default().player("Anna").field("fee_paid_on"),
            "Spieler Anna, Feld Beitragsdatum: kaputt",
        ),
        (
            Location::night(d).table(3).field("number"),
            "Abend 09.01.2026, Tisch 3, Feld Tischnummer: kaputt",
        ),
        (
            Location::night(d).table(1).round(0).field("number"),
            "Abend 09.01.2026, Tisch 1, Runde 0, Feld Rundennummer: kaputt",
        ),
        (
            Location::default().field("rules.rounds_per_night"),
            "Feld rules.rounds_per_night: kaputt",
        ),
        (Location::default(), "kaputt"),
    ];
    for (loc, expected) in cases {
        assert_eq!(EntryError::new(loc, "kaputt").to_string(), expected);
    }
}
