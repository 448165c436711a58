//! Unit tests of `src/league/money/kasse/journal.rs`: the diff of what the season says against
//! the stored journal, as a table.

use super::*;

fn day(s: &str) -> NaiveDate {
    NaiveDate::parse_from_str(s, "%Y-%m-%d").expect("day")
}

fn e(key: &str, on: &str, cents: i64) -> Entry {
    league_entry(
        key.to_string(),
        day(on),
        cents,
        Konto::Bar,
        Kategorie::Strafe,
        format!("Buchung {key}"),
    )
}

/// (nr, key, gen, cents, storno_of) of `b`.
type Row = (u32, String, u32, i64, Option<u32>);

fn rows(b: &[Beleg]) -> Vec<Row> {
    b.iter()
        .map(|x| (x.nr, x.key.clone(), x.gen, x.cents, x.storno_of))
        .collect()
}

fn row(
    nr: u32,
    key: &str,
    gen: u32,
    cents: i64,
    of: Option<u32>,
) -> (u32, String, u32, i64, Option<u32>) {
    (nr, key.to_string(), gen, cents, of)
}

const TODAY: &str = "2026-06-01";

fn run(entries: &[Entry], stored: &[Beleg]) -> Vec<Beleg> {
    reconcile(entries, stored, day(TODAY), |k| format!("weg {k}"))
}

#[test]
fn the_journal_books_each_source_once_and_numbers_in_order_of_entry() {
    let a = e("strafe:2026-03-12:Anna:late:1", "2026-03-12", 100);
    let b = e("beitrag:Bernd", "2026-03-20", 3000);
    let first = run(&[a.clone(), b.clone()], &[]);
    assert_eq!(
        rows(&first),
        vec![
            row(1, "strafe:2026-03-12:Anna:late:1", 0, 100, None),
            row(2, "beitrag:Bernd", 0, 3000, None)
        ]
    );
    // Idempotent: nothing to append.
    assert!(run(&[a.clone(), b.clone()], &first).is_empty());
    // A booking back-dated before both gets the next number; theirs stay.
    let c = e("beitrag:Carla", "2026-01-05", 3000);
    let more = run(&[c.clone(), a, b], &first);
    assert_eq!(rows(&more), vec![row(3, "beitrag:Carla", 0, 3000, None)]);
    assert_eq!(more[0].day, day("2026-01-05"));
}

#[test]
fn a_gone_source_is_answered_by_a_storno_and_a_changed_one_by_storno_and_new_beleg() {
    let a = e("strafe:2026-03-12:Anna:late:1", "2026-03-12", 100);
    let b = e("beitrag:Bernd", "2026-03-20", 3000);
    let stored = run(&[a.clone(), b.clone()], &[]);
    // (entries now, expected new rows)
    let mut b_more = b.clone();
    b_more.cents = 3500;
    let mut b_bank = b.clone();
    b_bank.konto = Konto::Bank;
    let table: Vec<(Vec<Entry>, Vec<Row>)> = vec![
        (vec![b.clone()], vec![row(3, "storno:1", 0, -100, Some(1))]),
        (
            vec![a.clone(), b_more],
            vec![
                row(3, "storno:2", 0, -3000, Some(2)),
                row(4, "beitrag:Bernd", 1, 3500, None),
            ],
        ),
        (
            vec![a.clone(), b_bank],
            vec![
                row(3, "storno:2", 0, -3000, Some(2)),
                row(4, "beitrag:Bernd", 1, 3000, None),
            ],
        ),
        (
            vec![],
            vec![
                row(3, "storno:1", 0, -100, Some(1)),
                row(4, "storno:2", 0, -3000, Some(2)),
            ],
        ),
    ];
    for (now, want) in table {
        let new = run(&now, &stored);
        assert_eq!(rows(&new), want, "{now:?}");
        // Then nothing more: the journal books `now`.
        let all: Vec<Beleg> = stored.iter().chain(&new).cloned().collect();
        assert!(run(&now, &all).is_empty(), "{now:?}");
        // And the book's balance is what `now` says.
        let sum: i64 = all.iter().map(|x| x.cents).sum();
        assert_eq!(sum, now.iter().map(|x| x.cents).sum::<i64>());
    }
    let gone = run(std::slice::from_ref(&b), &stored);
    assert_eq!(gone[0].reason, "weg strafe:2026-03-12:Anna:late:1");
    assert_eq!(
        gone[0].text,
        "Storno: Buchung strafe:2026-03-12:Anna:late:1"
    );
    assert_eq!(gone[0].day, day(TODAY));
    // A source that comes back after its Storno is booked anew (gen 1), not linked to the old.
    let all: Vec<Beleg> = stored.iter().chain(&gone).cloned().collect();
    let back = run(&[a, b], &all);
    assert_eq!(
        rows(&back),
        vec![row(4, "strafe:2026-03-12:Anna:late:1", 1, 100, None)]
    );
}

#[test]
fn a_storno_by_hand_names_the_number_of_its_booking() {
    let h = |id: i64, cents: i64, storno: Option<i64>| HandBooking {
        id,
        day: day("2026-05-01"),
        cents,
        konto: Konto::Bank,
        kategorie: Kategorie::Spende,
        text: "Sponsor".to_string(),
        storno_of: storno,
        reason: String::new(),
        created_by: "kasse".to_string(),
    };
    let mut s = crate::league::testkit::kasse_sample();
    s.nights.clear();
    s.players.iter_mut().for_each(|p| p.fee_paid_on = None);
    let first = entries(&s, None, &[h(7, 5000, None)]);
    let stored = run(&first, &[]);
    let now = entries(&s, None, &[h(7, 5000, None), h(9, -5000, Some(7))]);
    let new = run(&now, &stored);
    assert_eq!(new.len(), 1, "{new:?}");
    assert_eq!((new[0].nr, new[0].storno_of), (2, Some(1)));
    let book = from_journal(
        2026,
        &[stored, new].concat(),
        &now,
        Parts {
            carry_in: Bestand::default(),
            stuerze: &[],
            payouts_booked: false,
        },
    );
    let ids: Vec<(u32, Option<i64>, Option<u32>)> = book
        .bookings
        .iter()
        .map(|b| (b.beleg, b.hand, b.storniert_by))
        .collect();
    assert_eq!(ids, vec![(1, Some(7), Some(2)), (2, Some(9), None)]);
    // The same hand bookings read again under new ids (a season file) are the same Belege.
    let again = entries(&s, None, &[h(20, 5000, None), h(21, -5000, Some(20))]);
    assert!(run(&again, &book_belege(&now, &[])).is_empty());
}

fn book_belege(entries: &[Entry], stored: &[Beleg]) -> Vec<Beleg> {
    let mut all = stored.to_vec();
    all.extend(run(entries, stored));
    all
}

#[test]
fn the_same_hand_bookings_under_new_ids_change_nothing() {
    let h = |id: i64| HandBooking {
        id,
        day: day("2026-05-01"),
        cents: -2500,
        konto: Konto::Bar,
        kategorie: Kategorie::Feier,
        text: "Weihnachtsfeier".to_string(),
        storno_of: None,
        reason: String::new(),
        created_by: "kasse".to_string(),
    };
    let s = crate::league::testkit::kasse_sample();
    let stored = book_belege(&entries(&s, None, &[h(1)]), &[]);
    assert!(run(&entries(&s, None, &[h(40)]), &stored).is_empty());
}

#[test]
fn a_changed_anfangsbestand_is_a_visible_correction() {
    let on = day(TODAY);
    let was = Bestand {
        bar_cents: 1000,
        bank_cents: 500,
    };
    assert!(carry_entries(was, was, 2025, on).is_empty());
    let now = Bestand {
        bar_cents: 1200,
        bank_cents: 500,
    };
    let fix = carry_entries(was, now, 2025, on);
    assert_eq!(fix.len(), 1);
    assert_eq!((fix[0].cents, fix[0].konto), (200, Konto::Bar));
    assert_eq!(fix[0].kategorie, Kategorie::Sonstiges);
    assert!(
        fix[0].text.starts_with("Übertrag berichtigt"),
        "{}",
        fix[0].text
    );
    // A day later the same correction is still booked (its day is not compared).
    let stored = book_belege(&fix, &[]);
    let later = carry_entries(was, now, 2025, day("2026-06-02"));
    assert!(run(&later, &stored).is_empty());
}

#[test]
fn a_gone_fine_of_a_deleted_night_says_so() {
    let mut s = crate::league::testkit::kasse_sample();
    s.nights.retain(|n| n.date != day("2026-03-12"));
    assert_eq!(
        gone_reason("strafe:2026-03-12:Anna:late:1", &s),
        "Abend vom 12.03.2026 gelöscht"
    );
    assert_eq!(
        gone_reason("beitrag:Anna", &s),
        "Jahresbeitrag nicht mehr bezahlt"
    );
}
