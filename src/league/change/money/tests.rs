//! Unit tests of `src/league/change/money.rs`: the money changes (a fine paid later, payments,
//! the netting and its undo) and the Kasse, the payouts and the Jahresabschluss after them
//! (moved from the Kasse's tests: they change the season with `Change`).

use chrono::NaiveDate;

use crate::league::change::Change;
use crate::league::model::file::{CreditKind, PaymentEntry};
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

fn pay(s: &Season, player: &str, cents: i64, on: &str) -> Season {
    s.apply(&Change::BookPayment {
        player: player.into(),
        cents,
        paid_on: d(on),
    })
    .unwrap_or_else(|e| panic!("{player} {cents} {on}: {e}"))
}

/// Issue 34.1: a Guthaben pays each new item of the player the moment it covers it whole (booked
/// that day), never part of one; a new item it does not cover stays open.
#[test]
fn a_guthaben_pays_a_later_fine_whole_the_moment_it_covers_it() {
    let fine = |player: &str| Change::BookFine {
        date: d("2026-07-10"),
        player: player.into(),
        kind: "sleepy".into(),
        paid: false,
        again: true,
    };
    // Dora paid 3,00 € on 01.07. with nothing open: all Guthaben.
    let s = pay(&sample(), "Dora", 300, "2026-07-01");
    assert_eq!(s.credit_cents("Dora"), 300);
    // (season, change, Dora's fines of 10.07. as (cents, paid_on, from account), Guthaben after)
    type Case = (Season, Change, Vec<(i64, Option<NaiveDate>, bool)>, i64);
    let on = Some(d("2026-07-10"));
    let cases: Vec<Case> = vec![
        // The late fine of 2,50 € was booked before the payment: still open; a new fine of 0,50 €
        // is paid out of the Guthaben? No: the walk starts at the oldest open item (2,50 €), and
        // 3,00 € covers it, then the 0,50 € new one: both paid, nothing left.
        (
            s.clone(),
            fine("Dora"),
            vec![(250, on, true), (50, on, true)],
            0,
        ),
        // Paid by hand first, then the new fine: 0,50 € out of the 3,00 €.
        (
            s.apply(&Change::PayFine {
                date: d("2026-07-10"),
                index: 0,
                paid_on: on,
            })
            .expect("paid by hand"),
            fine("Dora"),
            vec![(250, on, false), (50, on, true)],
            250,
        ),
        // 1,00 € only: the oldest open item (2,50 €) is not covered, the walk stops there.
        (
            pay(&sample(), "Dora", 100, "2026-07-01"),
            fine("Dora"),
            vec![(250, None, false), (50, None, false)],
            100,
        ),
    ];
    for (i, (before, change, want, credit)) in cases.into_iter().enumerate() {
        let after = before.apply(&change).expect("fine booked");
        let got: Vec<(i64, Option<NaiveDate>, bool)> = after.nights[2]
            .fines
            .iter()
            .filter(|f| f.player == "Dora")
            .map(|f| (f.amount_cents, f.paid_on, f.from_account))
            .collect();
        assert_eq!(
            (got, after.credit_cents("Dora")),
            (want, credit),
            "case {i}"
        );
        let again = Season::from_file(&after.to_file()).expect("the file loads again");
        assert_eq!(
            again.credit_cents("Dora"),
            credit,
            "case {i}: the file keeps it"
        );
    }
    // A payment on a later day than the night: the fine is paid on the day the money was there.
    let late = pay(&sample(), "Anna", 500, "2026-08-01")
        .apply(&fine("Anna"))
        .expect("fine");
    let f = late.nights[2].fines.last().expect("Anna's fine");
    assert_eq!((f.paid_on, f.from_account), (Some(d("2026-08-01")), true));
    assert_eq!(late.credit_cents("Anna"), 450);
}

/// Issue 34.1: at the season's end the Guthaben is paid back or carried, the whole of it, a
/// booking with a day; the next season brings it in and it pays there like a payment. A file
/// whose items paid from the account exceed what came in is refused.
#[test]
fn a_guthaben_is_paid_back_or_carried_and_never_below_zero() {
    let s = pay(&sample(), "Dora", 300, "2026-07-01");
    for (carried, kind) in [
        (false, CreditKind::PaidBack),
        (true, CreditKind::CarriedOut),
    ] {
        let after = s
            .apply(&Change::SettleCredit {
                player: "Dora".into(),
                on: d("2026-12-20"),
                carried,
            })
            .expect("settled");
        assert_eq!(after.credit_cents("Dora"), 0);
        let c = after.credit.last().expect("booking");
        assert_eq!((c.kind, c.date, c.cents), (kind, d("2026-12-20"), 300));
        assert_eq!(Season::from_file(&after.to_file()).as_ref(), Ok(&after));
        let e = after
            .apply(&Change::SettleCredit {
                player: "Dora".into(),
                on: d("2026-12-21"),
                carried,
            })
            .expect_err("nothing left");
        assert_eq!(e.to_string(), "Dora hat in der Saison 2026 kein Guthaben.");
    }
    // A new name keeps his payments and Guthaben.
    let renamed = s
        .apply(&Change::RenamePlayer {
            from: "Dora".into(),
            to: "Dorothea".into(),
        })
        .expect("renamed");
    assert_eq!(renamed.credit_cents("Dorothea"), 300);
    assert_eq!(renamed.payments[0].player, "Dorothea");
    // Brought in: it pays Bea's open 0,50 € fine and the March fee is not covered.
    let s = sample()
        .apply(&Change::CarryCreditIn {
            player: "Bea".into(),
            cents: 300,
            on: d("2026-03-01"),
        })
        .expect("carried in");
    assert_eq!(s.credit_cents("Bea"), 250);
    assert!(s.nights[0].fines[1].from_account);
    // A file that pays more out of the account than came in.
    let mut bad = s.to_file();
    bad.credit[0].cents = 10;
    let e = Season::from_file(&bad).expect_err("below zero");
    assert!(
        e.to_string()
            .contains("0,40 € mehr bezahlt oder ausgezahlt"),
        "{e}"
    );
    let mut stranger = s.to_file();
    stranger.payments.push(PaymentEntry {
        player: "Zoe".into(),
        date: d("2026-03-01"),
        cents: 100,
    });
    let e = Season::from_file(&stranger).expect_err("a stranger");
    assert!(e.to_string().contains("unbekannter Spieler \"Zoe\""), "{e}");
    let mut nothing = s.to_file();
    nothing.payments.push(PaymentEntry {
        player: "Bea".into(),
        date: d("2026-03-01"),
        cents: 0,
    });
    assert!(Season::from_file(&nothing).is_err());
}

/// Issue 34.1, done when: the Abschluss invariant (places + Lucky Looser + carry-out = fees +
/// fines + carry-in) holds with Guthaben present, and the Guthaben is in none of them.
#[test]
fn the_abschluss_invariant_holds_with_guthaben_present() {
    let before = winners();
    // Anna owes 1,50 €, pays 5,00 €: 3,50 € Guthaben. Bea pays 2,00 € owing nothing.
    let after = pay(
        &pay(&before, "Anna", 500, "2026-02-01"),
        "Bea",
        200,
        "2026-02-01",
    );
    assert_eq!(
        (after.credit_cents("Anna"), after.credit_cents("Bea")),
        (350, 200)
    );
    for carry_in in [0, 1234] {
        let p = payouts(&after, carry_in);
        let places: i64 = p.places.iter().flat_map(|x| &x.cents).sum();
        let lucky: i64 = p.lucky_looser.cents.iter().sum();
        assert_eq!(
            places + lucky + p.carry_out_cents,
            p.fees_cents + p.fines_cents + p.carry_in_cents
        );
        // Only Anna's 1,50 € of fines came into the pot, none of the Guthaben.
        assert_eq!(p.fines_cents, payouts(&before, carry_in).fines_cents + 150);
        let income: i64 = income_by_date(&after).iter().map(IncomeDay::cents).sum();
        assert_eq!(income, p.fees_cents + p.fines_cents);
    }
}

mod random {
    use proptest::prelude::*;
    use proptest::test_runner::TestCaseError;

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
                let credit_before = s.credit_cents(player);
                // Issue 34.1: every positive payment is taken; exact pays the prefix whole, one
                // cent short pays the items before it, and the rest is Guthaben.
                let next = s.apply(&change).map_err(|e| TestCaseError::fail(e.to_string()))?;
                let paid_now = |x: &Season| -> i64 {
                    x.nights.iter().flat_map(|n| &n.fines).filter(|f| f.player == player && f.from_account).map(|f| f.amount_cents).sum::<i64>()
                        + x.player(player).filter(|p| p.fee_from_account).map_or(0, |p| p.fee_cents)
                };
                let spent = paid_now(&next) - paid_now(&s);
                prop_assert_eq!(spent + next.credit_cents(player), cents + credit_before);
                if credit_before == 0 {
                    prop_assert!(spent >= if exact { prefix } else { previous }, "{} {} paid {}", player, cents, spent);
                }
                s = next;
            }
            let booked: i64 = s.players.iter().map(|p| p.fee_cents).sum::<i64>()
                + s.nights.iter().flat_map(|n| &n.fines).map(|f| f.amount_cents).sum::<i64>();
            let open: i64 = s.nights.iter().flat_map(|n| &n.fines).filter(|f| !f.paid).map(|f| f.amount_cents).sum();
            let income: i64 = income_by_date(&s).iter().map(IncomeDay::cents).sum();
            prop_assert_eq!(income + open, booked);
            // Every cent paid in is an item paid out of it or Guthaben (never in the pot twice).
            let paid_in: i64 = s.payments.iter().map(|p| p.cents).sum();
            let from_account: i64 = s.nights.iter().flat_map(|n| &n.fines).filter(|f| f.from_account).map(|f| f.amount_cents).sum::<i64>()
                + s.players.iter().filter(|p| p.fee_from_account).map(|p| p.fee_cents).sum::<i64>();
            let credit: i64 = s.players.iter().map(|p| s.credit_cents(&p.name)).sum();
            prop_assert!(s.credits().iter().all(|(p, c)| s.credit_cents(p) == *c), "one pass = each");
            prop_assert_eq!(paid_in, from_account + credit);
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
