//! Unit tests of `src/league/money/items.rs`.

use super::*;
use crate::league::testkit::kasse_sample as sample;

fn d(s: &str) -> NaiveDate {
    NaiveDate::parse_from_str(s, "%Y-%m-%d").expect("test date")
}

#[test]
fn a_payment_settles_the_oldest_open_items_whole() {
    let s = sample();
    // (player, cents, day, the settled items or the refusal)
    type Case<'a> = (&'a str, i64, &'a str, Result<&'a [&'a str], &'a str>);
    let cases: [Case; 8] = [
        (
            "Bea",
            50,
            "2026-03-01",
            Ok(&["Schock-Schlafmütze am 09.01.2026"]),
        ),
        (
            "Bea",
            1550,
            "2026-03-01",
            Ok(&[
                "Schock-Schlafmütze am 09.01.2026",
                "Jahresbeitrag für die 1. Liga (bei Zahlung im März)",
            ]),
        ),
        (
            "Bea",
            100,
            "2026-03-01",
            Err("ganze Posten ergeben 0,50 €, 15,50 €."),
        ),
        (
            "Bea",
            1750,
            "2026-05-01",
            Ok(&[
                "Schock-Schlafmütze am 09.01.2026",
                "Jahresbeitrag für die 1. Liga (bei Zahlung im Mai)",
            ]),
        ),
        (
            "Dora",
            250,
            "2026-07-01",
            Err("Dora hat am 01.07.2026 nichts offen."),
        ),
        (
            "Dora",
            250,
            "2026-07-10",
            Ok(&["Zuspätkommer am 10.07.2026"]),
        ),
        (
            "Bea",
            50,
            "2026-10-01",
            Ok(&["Schock-Schlafmütze am 09.01.2026"]),
        ),
        (
            "Bea",
            1550,
            "2026-10-01",
            Err("mehr als offen: Bea hat am 01.10.2026 0,50 € offen."),
        ),
    ];
    for (player, cents, day, want) in cases {
        let got = allocate(&s, player, cents, d(day));
        match (got, want) {
            (Ok(items), Ok(labels)) => {
                let got: Vec<&str> = items.iter().map(|i| i.label.as_str()).collect();
                assert_eq!(got, labels, "{player} {cents} {day}");
                assert_eq!(items.iter().map(|i| i.cents).sum::<i64>(), cents);
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
    assert_eq!((a.open_cents, a.paid_cents), (1550, 100));
    let dora = account(&sample(), "Dora", d("2026-12-01")).expect("Dora");
    assert_eq!((dora.open_cents, dora.paid_cents), (250, 1800));
    assert!(account(&sample(), "Zoe", d("2026-03-01")).is_none());
}
