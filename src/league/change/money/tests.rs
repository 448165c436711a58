//! Unit tests of `src/league/change/money.rs`: the money changes (a fine paid later, payments,
//! the netting and its undo) and the Kasse, the payouts and the Jahresabschluss after them
//! (moved from the Kasse's tests: they change the season with `Change`).

use chrono::NaiveDate;

use crate::league::model::season::Season;
use crate::league::money::items::open_items;
use crate::league::money::kasse::{income_by_date, kasse, IncomeDay};
use crate::league::money::netting::{closing, last_act, netting, netting_plan, Closing};
use crate::league::money::payouts::payouts;
use crate::league::testkit::{kasse_sample as sample, season, season_json, winners};

const JAN: Option<&str> = Some("2026-01-05");

fn d(s: &str) -> NaiveDate {
    NaiveDate::parse_from_str(s, "%Y-%m-%d").expect("test date")
}

#[test]
fn income_is_counted_on_the_day_it_came_in() {
    let s = sample()
        .apply(&crate::league::change::Change::PayFine {
            date: d("2026-07-10"),
            index: 0,
            paid_on: Some(d("2026-08-01")),
        })
        .expect("paid later");
    let got: Vec<(NaiveDate, u32, i64, u32, i64)> = income_by_date(&s)
        .iter()
        .map(|x| (x.date, x.fees, x.fees_cents, x.fines, x.fines_cents))
        .collect();
    assert_eq!(
        got,
        vec![
            (d("2026-01-05"), 2, 3000, 0, 0),
            (d("2026-01-09"), 0, 0, 2, 150),
            (d("2026-06-01"), 1, 1800, 0, 0),
            (d("2026-08-01"), 0, 0, 1, 250),
        ]
    );
    let k = kasse(&s, 0);
    assert_eq!(k.income, income_by_date(&s));
    // After the night of 10.07. Dora's fine is still open: it came in on 01.08.
    let last = k.steps.last().expect("steps");
    assert_eq!(last.fines_cents, 150);
    assert_eq!(payouts(&s, 0).fines_cents, 400);
}

#[test]
fn the_netting_pays_open_fines_out_of_the_shares_and_every_cent_stays() {
    type Line<'a> = (&'a str, i64, i64, i64, i64, i64);
    let lines = |s: &Season, on: &str| -> Vec<(String, i64, i64, i64, i64, i64)> {
        netting(s, &payouts(s, 0), d(on))
            .into_iter()
            .map(|l| {
                (
                    l.player,
                    l.share_cents,
                    l.netted_cents,
                    l.to_net_cents,
                    l.left_open_cents,
                    l.payout_cents,
                )
            })
            .collect()
    };
    let own = |v: Vec<(String, i64, i64, i64, i64, i64)>| v;
    let before = winners();
    // pot 9000 − 1000 + 100 = 8100: 2430 | 2025 | 1620 | 1215 | 810, Fritz 1000
    let want: [Line; 6] = [
        ("Anna", 2430, 0, 150, 0, 2280),
        ("Bea", 2025, 0, 0, 0, 2025),
        ("Cem", 1620, 0, 0, 0, 1620),
        ("Dora", 1215, 0, 0, 0, 1215),
        ("Emil", 810, 0, 0, 5000, 810),
        ("Fritz", 1000, 0, 0, 0, 1000),
    ];
    let got = own(lines(&before, "2026-12-20"));
    let got: Vec<Line> = got
        .iter()
        .map(|l| (l.0.as_str(), l.1, l.2, l.3, l.4, l.5))
        .collect();
    assert_eq!(got, want);
    assert_eq!(
        netting_plan(&before, 0, d("2026-12-20")),
        [(d("2026-01-09"), 0), (d("2026-01-16"), 0)]
    );
    // Booked: Anna's 1,50 € are paid fines now, the pot is 8250 and every share grows with it.
    let after = before
        .apply(&crate::league::change::Change::NetPayouts {
            paid_on: d("2026-12-20"),
            carry_in_cents: 0,
        })
        .expect("netting");
    let want: [Line; 6] = [
        ("Anna", 2475, 150, 0, 0, 2325),
        ("Bea", 2063, 0, 0, 0, 2063), // 2062,5 and Dora's 1237,5: the cent to the better place
        ("Cem", 1650, 0, 0, 0, 1650),
        ("Dora", 1237, 0, 0, 0, 1237),
        ("Emil", 825, 0, 0, 5000, 825),
        ("Fritz", 1000, 0, 0, 0, 1000),
    ];
    let got = own(lines(&after, "2026-12-20"));
    let got: Vec<Line> = got
        .iter()
        .map(|l| (l.0.as_str(), l.1, l.2, l.3, l.4, l.5))
        .collect();
    assert_eq!(got, want);
    let p = payouts(&after, 0);
    let places: i64 = p.places.iter().flat_map(|x| &x.cents).sum();
    let lucky: i64 = p.lucky_looser.cents.iter().sum();
    assert_eq!((p.fines_cents, p.pot_cents), (250, 8250));
    assert_eq!(
        places + lucky + p.carry_out_cents,
        p.fees_cents + p.fines_cents + p.carry_in_cents
    );
    let income: i64 = income_by_date(&after).iter().map(IncomeDay::cents).sum();
    assert_eq!(income, 9000 + 250);
}

#[test]
fn the_jahresabschluss_is_final_once_the_netting_is_booked_after_the_last_night() {
    // (issue 21.7) (season, today, closing)
    let booked = |s: &Season, on: &str| {
        s.apply(&crate::league::change::Change::NetPayouts {
            paid_on: d(on),
            carry_in_cents: 0,
        })
        .expect("netting")
    };
    let last = d("2026-01-16");
    let open = winners();
    let netted = booked(&open, "2026-12-20");
    let empty = season(season_json(2026, &[("Anna", JAN)], vec![]));
    let cases: [(&Season, &str, Closing); 6] = [
        (&empty, "2026-12-20", Closing::NoNight),
        (&open, "2026-12-20", Closing::Provisional { last }),
        (&open, "2027-01-01", Closing::Final { last }),
        (&netted, "2026-12-20", Closing::Final { last }),
        (&netted, "2026-12-31", Closing::Final { last }),
        (
            &booked(&open, "2026-01-10"),
            "2026-12-20",
            Closing::Provisional { last },
        ),
    ];
    for (i, (s, today, want)) in cases.into_iter().enumerate() {
        assert_eq!(closing(s, 0, d(today), &[]), want, "case {i}");
    }
}

/// Issue 31.1 (league.md §11): "Endgültig" only while no night of the season is planned or open
/// and a booked netting fits every share; the netting refused while a night is planned or open,
/// naming it; after it a change that moves places or the pot waits for the netting undone.
#[test]
fn the_netting_is_the_seasons_last_act() {
    let net = |s: &Season, on: &str| {
        s.apply(&crate::league::change::Change::NetPayouts {
            paid_on: d(on),
            carry_in_cents: 0,
        })
    };
    let last = d("2026-01-16");
    let closed = winners();
    let netted = net(&closed, "2026-12-20").expect("netting");
    let mut open = closed.clone();
    open.nights[1].closed = false;
    let planned = [d("2026-12-18")];
    // (season, today, planned, closing)
    let cases: [(&Season, &str, &[NaiveDate], Closing); 5] = [
        (&netted, "2026-12-20", &[], Closing::Final { last }),
        (
            &netted,
            "2026-12-20",
            &planned,
            Closing::Provisional { last },
        ),
        (&open, "2027-01-01", &[], Closing::Provisional { last }),
        (&closed, "2027-01-01", &[], Closing::Final { last }),
        (
            &closed,
            "2027-01-01",
            &planned,
            Closing::Provisional { last },
        ),
    ];
    for (i, (s, today, planned, want)) in cases.into_iter().enumerate() {
        assert_eq!(closing(s, 0, d(today), planned), want, "case {i}");
    }

    // Refused while a night is open, naming it; the planned ones come from the service.
    let e = net(&open, "2026-12-20").expect_err("a night open");
    assert_eq!(
        e.to_string(),
        "Noch offen: Freitag, 16.01.2026 (nicht abgeschlossen) – die Verrechnung erst nach dem \
         letzten Abend."
    );
    let e = last_act(&closed, &[d("2026-12-18"), d("2026-12-11")]).expect_err("planned");
    assert_eq!(
        e.to_string(),
        "Noch geplant: Freitag, 11.12.2026, Freitag, 18.12.2026 – die Verrechnung erst nach dem \
         letzten Abend."
    );
    let days: Vec<NaiveDate> = (1..=5)
        .map(|k| d("2026-12-04") + chrono::Days::new(7 * k))
        .collect();
    let e = last_act(&open, &days).expect_err("both");
    assert_eq!(
        e.to_string(),
        "Noch offen: Freitag, 16.01.2026 (nicht abgeschlossen); noch geplant: Freitag, \
         11.12.2026, Freitag, 18.12.2026, Freitag, 25.12.2026 und 2 weitere – die Verrechnung \
         erst nach dem letzten Abend."
    );
    assert!(last_act(&closed, &[]).is_ok());

    // After the netting: what moves places or the pot is refused, naming the way back; what
    // moves nothing goes through.
    let refused = [
        crate::league::change::Change::AddNight {
            date: d("2026-12-21"),
        },
        crate::league::change::Change::ReopenNight { date: last },
        crate::league::change::Change::RemoveRound {
            date: last,
            table: 1,
            number: 1,
            if_version: None,
        },
        crate::league::change::Change::BookFine {
            date: last,
            player: "Bea".into(),
            kind: "late".into(),
            paid: false,
            again: false,
        },
        crate::league::change::Change::PayFine {
            date: last,
            index: 0,
            paid_on: None,
        },
        crate::league::change::Change::SetFee {
            player: "Bea".into(),
            paid_on: None,
        },
        crate::league::change::Change::BookPayment {
            player: "Emil".into(),
            cents: 5000,
            paid_on: d("2026-12-21"),
        },
    ];
    for change in &refused {
        let e = netted.apply(change).expect_err("after the netting");
        assert!(
            e.to_string().starts_with(
                "Der Jahresabschluss 2026 ist am 20.12.2026 verrechnet: ein neuer Abend, eine \
                 Korrektur, eine Strafe, eine Zahlung oder ein Jahresbeitrag verschiebt Plätze \
                 oder Topf."
            ) && e.to_string().contains("„Verrechnung aufheben“"),
            "{change:?}: {e}"
        );
        // Before the netting the same change is the league's as ever (no such refusal).
        if let Err(e) = closed.apply(change) {
            assert!(!e.to_string().contains("verrechnet"), "{change:?}: {e}");
        }
    }
    for change in [
        crate::league::change::Change::AddPlayer {
            name: "Gerd".into(),
        },
        crate::league::change::Change::SetFineKind {
            kind: "late".into(),
            cents: Some(200),
        },
        crate::league::change::Change::CloseNight { date: last },
    ] {
        netted
            .apply(&change)
            .unwrap_or_else(|e| panic!("{change:?}: {e}"));
    }

    // Undone with a reason: every netted fine open again, the season as before the netting.
    let undo = |reason: &str| {
        netted.apply(&crate::league::change::Change::UndoNetting {
            reason: reason.into(),
        })
    };
    for bad in ["", "   ", "a\u{202e}b"] {
        let e = undo(bad).expect_err("a reason");
        assert!(e.to_string().starts_with("Verrechnung aufheben: "), "{e}");
    }
    let undone = undo("Abend nachgeholt").expect("undone");
    assert_eq!(undone, closed);
    let e = closed
        .apply(&crate::league::change::Change::UndoNetting {
            reason: "Abend nachgeholt".into(),
        })
        .expect_err("nothing netted");
    assert_eq!(
        e.to_string(),
        "Verrechnung aufheben: in der Saison 2026 ist keine Verrechnung gebucht."
    );
    undone
        .apply(&crate::league::change::Change::AddNight {
            date: d("2026-12-21"),
        })
        .expect("a new night after the undo");
}

mod random {
    use proptest::prelude::*;

    use super::*;
    use crate::league::testkit::random::{build, season_gen, NAMES};

    proptest! {
        #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

        /// Payments on random days against the oldest open items, then the netting of the
        /// Jahresabschluss: the income by day plus what is open is everything booked, the pot
        /// never shrinks from night to night, and after the netting places + lucky + carry_out =
        /// fees + fines + carry_in still holds, with every payee paid out his share less what
        /// was netted, never less than nothing.
        #[test]
        fn payments_on_random_days_and_the_netting_account_for_every_cent(
            g in season_gen(),
            payments in proptest::collection::vec((0usize..6, 0usize..8, 0u32..365, any::<bool>()), 0..12),
            carry_in in 0i64..5000,
            net_day in 0u32..30,
        ) {
            let year = 2026;
            let mut s = build(year, &g);
            let day = |n: u32| NaiveDate::from_ymd_opt(year, 1, 1).and_then(|d| d.checked_add_days(chrono::Days::new(u64::from(n))));
            for (p, k, n, exact) in payments {
                let (Some(on), player) = (day(n), NAMES[p]) else { continue };
                let items = open_items(&s, player, on);
                if items.is_empty() {
                    continue;
                }
                let take = k % items.len() + 1;
                let prefix: i64 = items.iter().take(take).map(|i| i.cents).sum();
                let cents = if exact { prefix } else { prefix - 1 };
                let change = crate::league::change::Change::BookPayment { player: player.into(), cents, paid_on: on };
                let previous: i64 = items.iter().take(take - 1).map(|i| i.cents).sum();
                match s.apply(&change) {
                    Ok(next) => {
                        prop_assert!(exact || cents == previous, "{} {} accepted", player, cents);
                        s = next;
                    }
                    Err(e) => prop_assert!(!exact && cents != previous, "{}", e),
                }
            }
            let booked: i64 = s.players.iter().map(|p| p.fee_cents).sum::<i64>()
                + s.nights.iter().flat_map(|n| &n.fines).map(|f| f.amount_cents).sum::<i64>();
            let open: i64 = s.nights.iter().flat_map(|n| &n.fines).filter(|f| !f.paid).map(|f| f.amount_cents).sum();
            let income: i64 = income_by_date(&s).iter().map(IncomeDay::cents).sum();
            prop_assert_eq!(income + open, booked);
            let k = kasse(&s, carry_in);
            for w in k.steps.windows(2) {
                prop_assert!(w[0].pot_cents <= w[1].pot_cents, "{:?}", w);
            }

            let on = NaiveDate::from_ymd_opt(year, 12, 1 + net_day).unwrap_or_default();
            // The last night is over (league.md §11: the netting waits for every night closed).
            for n in &mut s.nights {
                n.closed = true;
            }
            let net = crate::league::change::Change::NetPayouts { paid_on: on, carry_in_cents: carry_in };
            let before = payouts(&s, carry_in);
            let Ok(after) = s.apply(&net) else {
                prop_assert!(netting_plan(&s, carry_in, on).is_empty());
                return Ok(());
            };
            let p = payouts(&after, carry_in);
            let places: i64 = p.places.iter().flat_map(|x| &x.cents).sum();
            let lucky: i64 = p.lucky_looser.cents.iter().sum();
            prop_assert_eq!(places + lucky + p.carry_out_cents, p.fees_cents + p.fines_cents + p.carry_in_cents);
            let lines = netting(&after, &p, on);
            let netted: i64 = lines.iter().map(|l| l.netted_cents).sum();
            let newly: i64 = after.nights.iter().flat_map(|n| &n.fines).filter(|f| f.netted).map(|f| f.amount_cents).sum();
            prop_assert_eq!(netted, newly);
            prop_assert_eq!(p.fines_cents, before.fines_cents + newly);
            prop_assert_eq!(lines.iter().map(|l| l.payout_cents).sum::<i64>() + netted, places + lucky);
            for l in &lines {
                prop_assert!(l.payout_cents >= 0, "{:?}", l);
            }
            let income: i64 = income_by_date(&after).iter().map(IncomeDay::cents).sum();
            let open: i64 = after.nights.iter().flat_map(|n| &n.fines).filter(|f| !f.paid).map(|f| f.amount_cents).sum();
            prop_assert_eq!(income + open, booked);
        }
    }
}
