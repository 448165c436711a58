//! Unit tests of `src/league/money/items.rs`.

use super::*;
use crate::league::testkit::kasse_sample as sample;

fn d(s: &str) -> NaiveDate {
    NaiveDate::parse_from_str(s, "%Y-%m-%d").expect("test date")
}

/// Issue 34.1: a payment pays the oldest open items whole while it covers them; the first item
/// it does not cover stops the walk and the rest is his Guthaben. The cases that were refused
/// before ("… deckt die offenen Posten … nicht ganz", "mehr als offen", "nichts offen") are kept
/// at their edges with the new meaning.
#[test]
fn a_payment_settles_the_oldest_open_items_whole() {
    let s = sample();
    const MAR: &str = "Jahresbeitrag für die 1. Liga (bei Zahlung im März)";
    // (player, cents, day, the settled items and the Guthaben left, or the refusal)
    type Case<'a> = (&'a str, i64, &'a str, Result<(&'a [&'a str], i64), &'a str>);
    let cases: [Case; 19] = [
        (
            "Bea",
            50,
            "2026-03-01",
            Ok((&["Schock-Schlafmütze am 09.01.2026"], 0)),
        ),
        // Exact: the fine and the fee.
        (
            "Bea",
            1550,
            "2026-03-01",
            Ok((&["Schock-Schlafmütze am 09.01.2026", MAR], 0)),
        ),
        // Short by a cent: the fine whole, the fee not touched, the rest Guthaben.
        (
            "Bea",
            1549,
            "2026-03-01",
            Ok((&["Schock-Schlafmütze am 09.01.2026"], 1499)),
        ),
        // Once refused ("ganze Posten ergeben 0,50 €, 15,50 €"): the fine, 0,50 € Guthaben.
        (
            "Bea",
            100,
            "2026-03-01",
            Ok((&["Schock-Schlafmütze am 09.01.2026"], 50)),
        ),
        // Short of the oldest item: nothing paid, all Guthaben.
        ("Bea", 49, "2026-03-01", Ok((&[], 49))),
        // Over: both items, the rest Guthaben.
        (
            "Bea",
            2000,
            "2026-03-01",
            Ok((&["Schock-Schlafmütze am 09.01.2026", MAR], 450)),
        ),
        (
            "Bea",
            1750,
            "2026-05-01",
            Ok((
                &[
                    "Schock-Schlafmütze am 09.01.2026",
                    "Jahresbeitrag für die 1. Liga (bei Zahlung im Mai)",
                ],
                0,
            )),
        ),
        // Once refused ("nichts offen"): all Guthaben.
        ("Dora", 250, "2026-07-01", Ok((&[], 250))),
        (
            "Dora",
            250,
            "2026-07-10",
            Ok((&["Zuspätkommer am 10.07.2026"], 0)),
        ),
        (
            "Bea",
            50,
            "2026-10-01",
            Ok((&["Schock-Schlafmütze am 09.01.2026"], 0)),
        ),
        // Once refused ("mehr als offen"): the fine, the rest Guthaben (no fee after September).
        (
            "Bea",
            1550,
            "2026-10-01",
            Ok((&["Schock-Schlafmütze am 09.01.2026"], 1500)),
        ),
        (
            "Bea",
            0,
            "2026-03-01",
            Err("Der Betrag muss größer als 0 sein."),
        ),
        (
            "Zoe",
            100,
            "2026-03-01",
            Err("Zoe spielt nicht in der Saison 2026"),
        ),
        // At most 10.000,00 € at once; a day within a year of the season's.
        (
            "Bea",
            1_000_000,
            "2026-10-01",
            Ok((&["Schock-Schlafmütze am 09.01.2026"], 999_950)),
        ),
        (
            "Bea",
            1_000_001,
            "2026-10-01",
            Err("Eine Zahlung ist höchstens 10.000,00 € (ein Tippfehler?)."),
        ),
        ("Bea", 100, "2025-01-01", Ok((&[], 100))),
        (
            "Bea",
            100,
            "2024-12-31",
            Err("31.12.2024 liegt mehr als ein Jahr vor der Saison 2026."),
        ),
        (
            "Bea",
            50,
            "2027-12-31",
            Ok((&["Schock-Schlafmütze am 09.01.2026"], 0)),
        ),
        (
            "Bea",
            100,
            "2028-01-01",
            Err("01.01.2028 liegt mehr als ein Jahr nach der Saison 2026."),
        ),
    ];
    for (player, cents, day, want) in cases {
        let got = allocate(&s, player, cents, d(day));
        match (got, want) {
            (Ok(a), Ok((labels, credit))) => {
                let got: Vec<&str> = a.items.iter().map(|i| i.label.as_str()).collect();
                assert_eq!(
                    (got.as_slice(), a.credit_cents),
                    (labels, credit),
                    "{player} {cents} {day}"
                );
                let paid: i64 = a.items.iter().map(|i| i.cents).sum();
                assert_eq!(
                    paid + a.credit_cents,
                    cents,
                    "every cent: {player} {cents} {day}"
                );
            }
            (Err(e), Err(w)) => assert!(e.to_string().contains(w), "{player} {cents} {day}: {e}"),
            (got, want) => panic!("{player} {cents} {day}: {got:?}, expected {want:?}"),
        }
    }
}

#[test]
fn the_money_card_lists_what_is_open_and_what_was_paid() {
    let a = account(&sample(), "Bea", d("2026-03-01")).expect("Bea");
    let open: Vec<(&str, i64)> = a.open.iter().map(|i| (i.label.as_str(), i.cents)).collect();
    assert_eq!(
        open,
        [
            ("Schock-Schlafmütze am 09.01.2026", 50),
            ("Jahresbeitrag für die 1. Liga (bei Zahlung im März)", 1500)
        ]
    );
    let paid: Vec<(&str, i64, NaiveDate)> = a
        .paid
        .iter()
        .map(|i| (i.label.as_str(), i.cents, i.paid_on))
        .collect();
    assert_eq!(paid, [("Zuspätkommer am 09.01.2026", 100, d("2026-01-09"))]);
    assert_eq!((a.open_cents, a.paid_cents, a.credit_cents), (1550, 100, 0));
    let dora = account(&sample(), "Dora", d("2026-12-01")).expect("Dora");
    assert_eq!((dora.open_cents, dora.paid_cents), (250, 1800));
    assert!(account(&sample(), "Zoe", d("2026-03-01")).is_none());
}

/// Issue 34.5: the items of the accounts API — fines paid and open, the fee paid or due.
#[test]
fn the_account_items_of_a_player() {
    let s = sample();
    let fine = |date: &str, cents: i64, paid_on: Option<&str>| AccountItem {
        kind: ItemKind::Fine,
        date: d(date),
        cents,
        paid_on: paid_on.map(d),
    };
    let fee = |date: &str, cents: i64, paid: bool| AccountItem {
        kind: ItemKind::Fee,
        date: d(date),
        cents,
        paid_on: paid.then(|| d(date)),
    };
    // (player, today, items)
    let cases = [
        (
            "Bea",
            "2026-03-01",
            vec![
                fine("2026-01-09", 100, Some("2026-01-09")),
                fine("2026-01-09", 50, None),
                fee("2026-03-01", 1500, false),
            ],
        ),
        (
            "Bea",
            "2026-10-01",
            vec![
                fine("2026-01-09", 100, Some("2026-01-09")),
                fine("2026-01-09", 50, None),
            ],
        ),
        (
            "Dora",
            "2026-12-01",
            vec![fine("2026-07-10", 250, None), fee("2026-06-01", 1800, true)],
        ),
        ("Zoe", "2026-12-01", vec![]),
    ];
    for (player, today, want) in cases {
        assert_eq!(
            account_items(&s, player, d(today)),
            want,
            "{player} {today}"
        );
    }
}
