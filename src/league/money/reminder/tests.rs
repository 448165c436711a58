use chrono::NaiveDate;

use super::*;

#[test]
fn the_reminder_names_the_german_sum_the_due_date_and_the_card() {
    let due = NaiveDate::from_ymd_opt(2026, 12, 16).unwrap();
    let link = "https://liga.test/karte/0123abcd";
    // (items, open cents, what the text holds)
    type Case<'a> = (Vec<(String, i64)>, i64, &'a [&'a str]);
    let cases: [Case; 3] = [
        (
            vec![
                ("Zuspätkommer am 09.01.2026".to_string(), 100),
                ("Schock-Schlafmütze am 06.02.2026".to_string(), 50),
            ],
            150,
            &[
                "Hallo Anna,",
                "noch 1,50 € offen (Zuspätkommer am 09.01.2026: 1,00 €; Schock-Schlafmütze am 06.02.2026: 0,50 €)",
                "bis zum 16.12.2026 bezahlen",
                "https://liga.test/karte/0123abcd",
            ],
        ),
        (
            vec![("Jahresbeitrag für die 1. Liga (bei Zahlung im Dezember)".to_string(), 123_400)],
            123_400,
            &["noch 1.234,00 € offen (Jahresbeitrag"],
        ),
        (Vec::new(), 50, &["noch 0,50 € offen. Bitte bis zum 16.12.2026"]),
    ];
    for (items, cents, holds) in cases {
        let t = text("Anna", &items, cents, due, Some(link), PayWith::default());
        for h in holds {
            assert!(t.contains(h), "{t:?} lacks {h:?}");
        }
    }
    // His card link stays (issue 31.7): the text names none, and says his works.
    let t = text("Anna", &[], 50, due, None, PayWith::default());
    assert!(
        t.ends_with("Auf deiner Karte stehen alle Posten (dein Kartenlink gilt weiter) – Danke!"),
        "{t:?}"
    );
    assert!(!t.contains("http"), "{t:?}");
}

#[test]
fn the_whatsapp_link_carries_the_text_percent_encoded() {
    let cases = [
        ("Hallo Anna", "https://wa.me/?text=Hallo%20Anna"),
        (
            "1,50 € offen",
            "https://wa.me/?text=1%2C50%20%E2%82%AC%20offen",
        ),
        ("a&b=c?d#e/f", "https://wa.me/?text=a%26b%3Dc%3Fd%23e%2Ff"),
        ("a-b_c.d~e", "https://wa.me/?text=a-b_c.d~e"),
    ];
    for (raw, link) in cases {
        assert_eq!(whatsapp(raw), link);
    }
}

#[test]
fn the_reminder_names_only_the_ways_to_pay_the_club_has_set_up() {
    let due = NaiveDate::from_ymd_opt(2026, 12, 16).unwrap();
    let cases = [
        (false, false, "alle Posten: https://liga.test/karte/x"),
        (true, false, "alle Posten, mit GiroCode: https"),
        (false, true, "alle Posten, mit PayPal: https"),
        (true, true, "alle Posten, mit GiroCode und PayPal: https"),
    ];
    for (girocode, paypal, holds) in cases {
        let pay = PayWith { girocode, paypal };
        let t = text("Anna", &[], 50, due, Some("https://liga.test/karte/x"), pay);
        assert!(t.contains(holds), "{t:?} lacks {holds:?}");
    }
}
