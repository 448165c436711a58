//! Unit tests of `src/league/money/kasse/buch.rs`.

use super::*;
use crate::league::money::netting::netting_preview;
use crate::league::money::payouts::payouts;
use crate::league::testkit::{kasse_sample, winners};

fn day(s: &str) -> NaiveDate {
    NaiveDate::parse_from_str(s, "%Y-%m-%d").expect("day")
}

fn hand(
    id: i64,
    on: &str,
    cents: i64,
    konto: Konto,
    k: Kategorie,
    storno: Option<i64>,
) -> HandBooking {
    HandBooking {
        id,
        day: day(on),
        cents,
        konto,
        kategorie: k,
        text: format!("Buchung {id}"),
        storno_of: storno,
        reason: storno.map(|_| "falsch".to_string()).unwrap_or_default(),
        created_by: "kasse".to_string(),
    }
}

#[test]
fn the_leagues_bookings_are_its_fees_and_paid_fines_in_cash() {
    let s = kasse_sample();
    let b = kassenbuch(&s, None, Bestand::default(), &[], &[]);
    let got: Vec<(u32, &str, i64, Konto, Kategorie)> = b
        .bookings
        .iter()
        .map(|x| (x.beleg, x.text.as_str(), x.cents, x.konto, x.kategorie))
        .collect();
    let jan = "Jahresbeitrag";
    assert_eq!(got.len(), 5, "{got:?}");
    assert_eq!(got[0].0, 1);
    assert!(got[0].1.starts_with(jan), "{got:?}");
    let p = payouts(&s, 0);
    assert_eq!(b.league_cents(Kategorie::Beitrag), p.fees_cents);
    assert_eq!(b.league_cents(Kategorie::Strafe), p.fines_cents);
    assert_eq!(b.end.bar_cents, p.fees_cents + p.fines_cents);
    assert_eq!(b.end.bank_cents, 0);
    assert!(!b.payouts_booked);
    // Numbered by day: every day is on or after the one before.
    assert!(b.bookings.windows(2).all(|w| w[0].day <= w[1].day));
}

#[test]
fn with_the_netting_the_league_part_ends_at_the_carry_out() {
    let on = day("2026-01-20");
    let s = netting_preview(&winners(), 0, on).expect("something to net");
    assert_eq!(payout_day(&s, on), Some(on));
    let p = payouts(&s, 0);
    let b = kassenbuch(&s, Some((on, &p)), Bestand::default(), &[], &[]);
    let shares: i64 = shares(&p).iter().map(|x| x.1).sum();
    assert_eq!(b.league_cents(Kategorie::Auszahlung), -shares);
    let league = b.league_cents(Kategorie::Beitrag)
        + b.league_cents(Kategorie::Strafe)
        + b.league_cents(Kategorie::Auszahlung);
    assert_eq!(league, p.carry_out_cents - p.carry_in_cents);
    assert_eq!(b.end.total(), p.carry_out_cents);
    assert!(b.payouts_booked);
    assert!(b.bookings.iter().any(|x| x.text.contains("verrechnet")));
}

#[test]
fn hand_bookings_and_storno_are_numbered_in_one_sequence_and_linked() {
    let s = kasse_sample();
    let h = [
        hand(
            1,
            "2026-03-01",
            -5000,
            Konto::Bar,
            Kategorie::Anschaffung,
            None,
        ),
        hand(2, "2026-03-01", 5000, Konto::Bank, Kategorie::Spende, None),
        hand(
            3,
            "2026-03-02",
            5000,
            Konto::Bar,
            Kategorie::Anschaffung,
            Some(1),
        ),
    ];
    let b = kassenbuch(
        &s,
        None,
        Bestand {
            bar_cents: 1000,
            bank_cents: 200,
        },
        &h,
        &[],
    );
    // (hand id, beleg, storno_of, storniert_by) — league bookings of January and February come first.
    type Line = (Option<i64>, u32, Option<u32>, Option<u32>);
    let got: Vec<Line> = b
        .bookings
        .iter()
        .filter(|x| x.hand.is_some())
        .map(|x| (x.hand, x.beleg, x.storno_of, x.storniert_by))
        .collect();
    // One sequence 1..n over league and hand bookings (Dora's fee of 01.06. comes after March).
    let numbers: Vec<u32> = b.bookings.iter().map(|x| x.beleg).collect();
    assert_eq!(numbers, (1..=b.bookings.len() as u32).collect::<Vec<_>>());
    let one = got.iter().find(|x| x.0 == Some(1)).expect("1");
    let three = got.iter().find(|x| x.0 == Some(3)).expect("3");
    assert_eq!(one.3, Some(three.1));
    assert_eq!(three.2, Some(one.1));
    let league = payouts(&s, 0);
    assert_eq!(
        b.end.bar_cents,
        1000 + league.fees_cents + league.fines_cents
    );
    assert_eq!(b.end.bank_cents, 200 + 5000);
}

#[test]
fn categories_net_to_income_and_expenses_that_add_up() {
    let s = kasse_sample();
    let h = [
        hand(1, "2026-03-01", -2500, Konto::Bar, Kategorie::Feier, None),
        hand(
            2,
            "2026-03-01",
            -1200,
            Konto::Bank,
            Kategorie::Anschaffung,
            None,
        ),
        hand(3, "2026-03-01", 5000, Konto::Bank, Kategorie::Spende, None),
    ];
    let carry = Bestand {
        bar_cents: 300,
        bank_cents: 700,
    };
    let b = kassenbuch(&s, None, carry, &h, &[]);
    let (income, expenses) = b.by_category();
    let cats = |v: &[(Kategorie, i64)]| v.iter().map(|x| x.0).collect::<Vec<_>>();
    assert_eq!(
        cats(&income),
        vec![Kategorie::Beitrag, Kategorie::Strafe, Kategorie::Spende]
    );
    assert_eq!(
        cats(&expenses),
        vec![Kategorie::Anschaffung, Kategorie::Feier]
    );
    let sum = |v: &[(Kategorie, i64)]| v.iter().map(|x| x.1).sum::<i64>();
    assert_eq!(carry.total() + sum(&income) - sum(&expenses), b.end.total());
}

#[test]
fn a_kassensturz_shows_the_difference_to_the_cash_of_its_day() {
    let s = kasse_sample();
    let h = [hand(
        1,
        "2026-03-01",
        -2500,
        Konto::Bar,
        Kategorie::Feier,
        None,
    )];
    let counts = [
        Kassensturz {
            day: day("2026-03-01"),
            counted_cents: 0,
            by: "k".into(),
            book_cents: None,
        },
        Kassensturz {
            day: day("2026-01-01"),
            counted_cents: 100,
            by: "k".into(),
            book_cents: None,
        },
    ];
    let b = kassenbuch(
        &s,
        None,
        Bestand {
            bar_cents: 100,
            bank_cents: 0,
        },
        &h,
        &counts,
    );
    let got: Vec<(NaiveDate, i64, i64)> = b
        .stuerze
        .iter()
        .map(|x| (x.count.day, x.book_cents, x.diff_cents))
        .collect();
    // January 5: 2 × 15,00 € fees; January 9: 1,00 € + 0,50 € fines.
    let march = 100 + 3000 + 150 - 2500;
    assert_eq!(
        got,
        vec![
            (day("2026-01-01"), 100, 0),
            (day("2026-03-01"), march, -march)
        ]
    );
}

#[test]
fn a_hand_booking_is_checked_field_by_field() {
    let cases: [(&str, i64, &str, Option<&str>); 5] = [
        ("2026-05-01", -500, "Würfel", None),
        ("2026-05-01", 0, "Würfel", Some("Betrag")),
        ("2026-05-01", 500, "  ", Some("Text")),
        ("2025-12-31", 500, "Spende", Some("Tag")),
        ("2027-01-10", 500, "Spende", None),
    ];
    for (on, cents, text, want) in cases {
        let got = check_hand(2026, day(on), cents, text);
        match want {
            None => assert_eq!(got, Ok(()), "{on} {cents} {text}"),
            Some(field) => assert!(
                got.as_ref().is_err_and(|e| e.starts_with(field)),
                "{on} {cents} {text}: {got:?}"
            ),
        }
    }
    // The refusal says what is allowed, as docs/kassenbuch.md does (hostile trial: it said
    // "im Januar danach" while a day in July of the next year was booked).
    assert!(check_hand(2026, day("2027-07-01"), 500, "Spende").is_ok());
    assert_eq!(
        check_hand(2026, day("2028-01-01"), 500, "Spende"),
        Err("Tag: 01.01.2028 liegt nicht in der Saison 2026 (oder im Jahr danach).".to_string())
    );
    assert_eq!(Kategorie::parse("Spende"), Some(Kategorie::Spende));
    assert_eq!(Kategorie::parse("Bier"), None);
    assert_eq!(Konto::parse("bank"), Some(Konto::Bank));
}

#[test]
fn the_season_files_lists_name_the_same_accounts_and_categories() {
    use crate::league::model::file::{KATEGORIEN as FILE_KATEGORIEN, KONTEN};
    let labels: Vec<&str> = KATEGORIEN.iter().map(|k| k.label()).collect();
    assert_eq!(labels, FILE_KATEGORIEN.to_vec());
    assert_eq!(vec![Konto::Bar.key(), Konto::Bank.key()], KONTEN.to_vec());
}

#[test]
fn the_season_files_kassenbuch_is_checked_booking_by_booking() {
    use crate::league::model::file::{HandBookingEntry, KassenbuchFile};
    let entry = |nr: u32, cents: i64, storno_of: Option<u32>| HandBookingEntry {
        nr,
        date: day("2026-03-01"),
        cents,
        konto: "bar".into(),
        kategorie: "Feier".into(),
        text: "Feier".into(),
        storno_of,
        reason: String::new(),
        by: String::new(),
    };
    let file = |bookings: Vec<HandBookingEntry>| KassenbuchFile {
        version: 1,
        bookings,
        kassenstuerze: Vec::new(),
        pruefungen: Vec::new(),
    };
    // (bookings, the refusal's start or None)
    let cases: Vec<(Vec<HandBookingEntry>, Option<&str>)> = vec![
        (vec![entry(1, -500, None), entry(2, 500, Some(1))], None),
        (vec![entry(2, -500, None)], Some("Buchung 1: nr 2")),
        (vec![entry(1, 0, None)], Some("Buchung 1: Betrag")),
        (
            vec![entry(1, -500, None), entry(2, 400, Some(1))],
            Some("Buchung 2: Storno"),
        ),
        (vec![entry(1, 500, Some(1))], Some("Buchung 1: Storno")),
        (
            vec![
                entry(1, -500, None),
                entry(2, 500, Some(1)),
                entry(3, 500, Some(1)),
            ],
            Some("Buchung 3: Storno"),
        ),
    ];
    for (i, (bookings, want)) in cases.into_iter().enumerate() {
        let got = file(bookings).check(2026);
        match want {
            None => assert_eq!(got, Ok(()), "case {i}"),
            Some(w) => assert!(
                got.as_ref().is_err_and(|e| e.starts_with(w)),
                "case {i}: {got:?}"
            ),
        }
    }
    // Version 2 carries the Prüfungen; a version this program does not know is refused.
    let mut v3 = file(Vec::new());
    v3.version = 3;
    assert!(v3.check(2026).is_err());
}

#[test]
fn the_season_files_pruefungen_are_checked_and_need_version_2() {
    use crate::league::model::file::{KassenbuchFile, PruefungEntry};
    let check = |date: &str, by: &str, note: &str| PruefungEntry {
        date: day(date),
        by: by.into(),
        note: note.into(),
        end_cents: Some(1234),
        belege_after: 0,
    };
    let file = |version: u32, p: PruefungEntry| KassenbuchFile {
        version,
        bookings: Vec::new(),
        kassenstuerze: Vec::new(),
        pruefungen: vec![p],
    };
    let cases = [
        (2, check("2027-01-05", "petra", "Belege vollständig."), None),
        (2, check("2026-12-31", "petra", ""), None),
        (
            1,
            check("2027-01-05", "petra", ""),
            Some("pruefungen erst ab Version 2"),
        ),
        (
            2,
            check("2025-12-31", "petra", ""),
            Some("Prüfung 1 vom 31.12.2025: Tag"),
        ),
        (
            2,
            check("2028-01-01", "petra", ""),
            Some("Prüfung 1 vom 01.01.2028: Tag"),
        ),
        (
            2,
            check("2027-01-05", " ", ""),
            Some("Prüfung 1 vom 05.01.2027: Prüfer"),
        ),
        (
            2,
            check("2027-01-05", "petra\u{202E}", ""),
            Some("Prüfung 1 vom 05.01.2027: Prüfer"),
        ),
        (
            2,
            check("2027-01-05", "petra", &"ä".repeat(501)),
            Some("Prüfung 1 vom 05.01.2027: Bemerkung"),
        ),
        (
            2,
            check("2027-01-05", "petra", "a\nb"),
            Some("Prüfung 1 vom 05.01.2027: Bemerkung"),
        ),
    ];
    for (i, (version, p, want)) in cases.into_iter().enumerate() {
        let got = file(version, p).check(2026);
        match want {
            None => assert_eq!(got, Ok(()), "case {i}"),
            Some(w) => assert!(
                got.as_ref().is_err_and(|e| e.starts_with(w)),
                "case {i}: {got:?}"
            ),
        }
    }
}

/// Hostile trial (second round): a season file's Kassenbuch took what the forms refuse (ESC,
/// U+202E or 100,000 characters in a text, a 1000-character `by`, a count over 1.000.000,00 €, a
/// book figure of i64::MIN that later overflowed the Kassensturz's difference, 100,000
/// Prüfungen). Each is refused naming where.
#[test]
fn the_season_files_kassenbuch_is_checked_as_the_forms_are() {
    use crate::league::model::file::{
        HandBookingEntry, KassenbuchFile, KassensturzEntry, PruefungEntry, MAX_PRUEFUNGEN,
    };
    let booking = |text: &str, by: &str| HandBookingEntry {
        nr: 1,
        date: day("2026-03-01"),
        cents: -500,
        konto: "bar".into(),
        kategorie: "Feier".into(),
        text: text.into(),
        storno_of: None,
        reason: String::new(),
        by: by.into(),
    };
    let sturz = |counted_cents: i64, book_cents: Option<i64>| KassensturzEntry {
        date: day("2026-03-31"),
        counted_cents,
        by: "kasse".into(),
        book_cents,
    };
    let file = |bookings, kassenstuerze, pruefungen| KassenbuchFile {
        version: 2,
        bookings,
        kassenstuerze,
        pruefungen,
    };
    let pruefung = |end_cents| PruefungEntry {
        date: day("2027-01-05"),
        by: "petra".into(),
        note: String::new(),
        end_cents,
        belege_after: 0,
    };
    let long = "x".repeat(100_000);
    let cases: Vec<(KassenbuchFile, Option<&str>)> = vec![
        (file(vec![booking("Würfel", "kasse")], vec![], vec![]), None),
        (
            file(vec![booking("Wür\u{1b}fel", "kasse")], vec![], vec![]),
            Some("Buchung 1: text"),
        ),
        (
            file(vec![booking("Würfel\u{202E}", "kasse")], vec![], vec![]),
            Some("Buchung 1: text"),
        ),
        (
            file(vec![booking(&long, "kasse")], vec![], vec![]),
            Some("Buchung 1: text"),
        ),
        (
            file(vec![booking("Würfel", &"k".repeat(1000))], vec![], vec![]),
            Some("Buchung 1: by"),
        ),
        (file(vec![], vec![sturz(100_000_000, None)], vec![]), None),
        (
            file(vec![], vec![sturz(100_000_001, None)], vec![]),
            Some("Kassensturz vom 31.03.2026"),
        ),
        (
            file(vec![], vec![sturz(5, Some(i64::MIN))], vec![]),
            Some("Kassensturz vom 31.03.2026"),
        ),
        (
            file(vec![], vec![], vec![pruefung(Some(i64::MIN))]),
            Some("Prüfung 1"),
        ),
        (
            file(vec![], vec![], vec![pruefung(None); MAX_PRUEFUNGEN + 1]),
            Some("pruefungen: 101 Einträge"),
        ),
    ];
    for (i, (f, want)) in cases.into_iter().enumerate() {
        let got = f.check(2026);
        match want {
            None => assert_eq!(got, Ok(()), "case {i}"),
            Some(w) => assert!(
                got.as_ref().is_err_and(|e| e.starts_with(w)),
                "case {i}: {got:?}"
            ),
        }
    }
}
