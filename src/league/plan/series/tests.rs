use chrono::{Datelike, NaiveDate, Weekday};

use super::{dates, parse_except, Rule};

fn d(s: &str) -> NaiveDate {
    NaiveDate::parse_from_str(s, "%Y-%m-%d").unwrap()
}

/// An independent oracle: every day of the range that the rule's plain words pick.
fn oracle(rule: Rule, from: NaiveDate, until: NaiveDate) -> Vec<NaiveDate> {
    from.iter_days()
        .take_while(|x| *x <= until)
        .filter(|x| match rule {
            Rule::Weeks(n) => (*x - from).num_days() % (7 * i64::from(n)) == 0,
            Rule::Monthly(5, day) => {
                x.weekday() == day && (*x + chrono::Duration::days(7)).month() != x.month()
            }
            Rule::Monthly(n, day) => x.weekday() == day && (x.day() - 1) / 7 + 1 == u32::from(n),
        })
        .collect()
}

#[test]
fn rules_are_read_as_typed() {
    let cases = [
        ("week", Ok(Rule::Weeks(1))),
        ("Wöchentlich", Ok(Rule::Weeks(1))),
        ("2-weeks", Ok(Rule::Weeks(2))),
        ("alle 2 Wochen", Ok(Rule::Weeks(2))),
        ("1. Freitag", Ok(Rule::Monthly(1, Weekday::Fri))),
        ("3. mittwoch", Ok(Rule::Monthly(3, Weekday::Wed))),
        ("letzter Freitag", Ok(Rule::Monthly(5, Weekday::Fri))),
        ("2. Fr", Ok(Rule::Monthly(2, Weekday::Fri))),
        ("last friday", Ok(Rule::Monthly(5, Weekday::Fri))),
        ("5. Freitag", Err("Rhythmus: „5. Freitag“")),
        ("monatlich", Err("Rhythmus: „monatlich“")),
        ("1. Freizeit", Err("Rhythmus: „1. Freizeit“")),
    ];
    for (typed, want) in cases {
        match (Rule::parse(typed), want) {
            (Ok(got), Ok(want)) => assert_eq!(got, want, "{typed}"),
            (Err(e), Err(start)) => assert!(e.starts_with(start), "{typed}: {e}"),
            (got, want) => panic!("{typed}: {got:?}, want {want:?}"),
        }
    }
    assert_eq!(
        Rule::Monthly(1, Weekday::Fri).de(),
        "jeden 1. Freitag im Monat"
    );
    assert_eq!(
        Rule::Monthly(5, Weekday::Fri).de(),
        "jeden letzten Freitag im Monat"
    );
    assert_eq!(Rule::Weeks(2).de(), "alle 2 Wochen");
}

#[test]
fn the_dates_equal_the_oracle_across_the_year_and_its_clock_changes() {
    let (from, until) = (d("2027-01-08"), d("2027-11-26"));
    for rule in [
        Rule::Weeks(1),
        Rule::Weeks(2),
        Rule::Monthly(1, Weekday::Fri),
        Rule::Monthly(4, Weekday::Fri),
        Rule::Monthly(5, Weekday::Fri),
        Rule::Monthly(2, Weekday::Sun),
    ] {
        let got = dates(rule, from, until, &[]).unwrap();
        assert_eq!(got, oracle(rule, from, until), "{rule:?}");
        assert!(got.iter().all(|x| *x >= from && *x <= until), "{rule:?}");
    }
    // Weekly from Friday 08.01.2027 to Friday 26.11.2027: 47 Fridays, through both clock changes
    // (28.03. and 31.10.2027), one of them left out.
    let weekly = dates(Rule::Weeks(1), from, until, &[d("2027-04-02")]).unwrap();
    assert_eq!(weekly.len(), 46);
    assert!(!weekly.contains(&d("2027-04-02")));
    assert!(weekly.contains(&d("2027-03-26")) && weekly.contains(&d("2027-10-29")));
    // The last Friday of a month with five Fridays is the fifth.
    let last = dates(Rule::Monthly(5, Weekday::Fri), from, until, &[]).unwrap();
    assert!(
        last.contains(&d("2027-01-29")) && last.contains(&d("2027-10-29")),
        "{last:?}"
    );
    // A range starting after the month's day leaves that month out.
    let first = dates(Rule::Monthly(1, Weekday::Fri), d("2027-01-02"), until, &[]).unwrap();
    assert_eq!(first[0], d("2027-02-05"));
}

#[test]
fn bad_ranges_and_exceptions_are_refused() {
    let fri = Rule::Weeks(1);
    let e = dates(fri, d("2027-02-01"), d("2027-01-01"), &[]).unwrap_err();
    assert!(
        e.starts_with("Bis: der 01.01.2027 liegt vor dem ersten Tag"),
        "{e}"
    );
    let e = dates(fri, d("2027-01-01"), d("2028-06-01"), &[]).unwrap_err();
    assert!(e.contains("höchstens gut ein Jahr"), "{e}");
    assert_eq!(
        dates(fri, d("2027-01-01"), d("2028-02-05"), &[])
            .unwrap()
            .len(),
        58
    );
    let e = dates(fri, d("2027-01-08"), d("2027-02-26"), &[d("2027-01-09")]).unwrap_err();
    assert!(
        e.starts_with("Außer: der 09.01.2027 ist kein Tag der Serie"),
        "{e}"
    );
    assert_eq!(
        parse_except("02.04.2027, 2027-12-24;").unwrap(),
        [d("2027-04-02"), d("2027-12-24")]
    );
    assert_eq!(parse_except("  ").unwrap(), Vec::<NaiveDate>::new());
    let e = parse_except("02.04.2027, 31.02.2027").unwrap_err();
    assert!(e.starts_with("Außer: „31.02.2027“ ist kein Tag"), "{e}");
}
