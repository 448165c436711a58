//! The status of a player and the German order of the lists, as tables.

use chrono::NaiveDate;

use super::*;

fn d(s: &str) -> NaiveDate {
    s.parse().unwrap()
}

#[test]
fn status_forms_parse_with_german_refusals() {
    let table: [(&str, &str, Result<Status, &str>); 7] = [
        ("aktiv", "", Ok(Status::Aktiv)),
        ("pausiert", "2026-05-01", Ok(Status::Pausiert)),
        (
            "ausgetreten",
            "2026-06-30",
            Ok(Status::Ausgetreten(d("2026-06-30"))),
        ),
        ("ausgetreten", "", Err("bitte den Tag")),
        ("ausgetreten", "30.06.2026", Err("kein Datum")),
        ("weg", "", Err("gibt es nicht")),
        (" aktiv ", "", Ok(Status::Aktiv)),
    ];
    for (kind, day, want) in table {
        match (Status::parse(kind, day), want) {
            (Ok(s), Ok(w)) => assert_eq!(s, w),
            (Err(e), Err(part)) => assert!(e.contains(part), "{e}"),
            (got, want) => panic!("{kind} {day}: {got:?} vs {want:?}"),
        }
    }
}

#[test]
fn active_on_the_day_of_leaving_no_more() {
    let left = Status::Ausgetreten(d("2026-06-30"));
    assert!(left.active_on(d("2026-06-29")));
    assert!(!left.active_on(d("2026-06-30")));
    assert!(!Status::Pausiert.active_on(d("2026-01-01")));
    assert!(Status::Aktiv.active_on(d("2026-01-01")));
    assert_eq!(left.german(), "ausgetreten am 30.06.2026");
}

#[test]
fn german_order_ignores_case_and_umlauts() {
    let names = [
        "Zoe", "ulla", "Özil", "Bernd", "anna", "Ärne", "Otto", "Strauß", "Straub", "Éva", "Emil",
    ];
    let status = |n: &&str| match *n {
        "Otto" => Status::Pausiert,
        "Bernd" => Status::Ausgetreten(d("2026-03-01")),
        "Emil" => Status::Ausgetreten(d("2026-09-01")),
        _ => Status::Aktiv,
    };
    let (active, others) = active_first(names.to_vec(), d("2026-06-05"), |n| n, status);
    assert_eq!(
        active,
        ["anna", "Ärne", "Emil", "Éva", "Özil", "Straub", "Strauß", "ulla", "Zoe"]
    );
    assert_eq!(others, ["Bernd", "Otto"]);
}
