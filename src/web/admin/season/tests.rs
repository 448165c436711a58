//! Unit tests of `src/web/season.rs`.

use super::*;

#[test]
fn new_season_forms_parse_year_and_overrides() {
    let cases = [
        ("2027", "{}", Ok(0)),
        (" 2027 ", "", Ok(0)),
        ("2027", "{\"hand_out_points\": 1}", Ok(1)),
        ("zwanzig", "{}", Err("Jahr")),
        ("2027", "[1]", Err("JSON-Objekt")),
        ("2027", "{nope", Err("kein gültiges JSON")),
    ];
    for (year, rules, expected) in cases {
        let form = NewSeasonForm {
            year: year.into(),
            rules: rules.into(),
        };
        match (parse_new_season(&form), expected) {
            (Ok((y, m)), Ok(n)) => assert_eq!((y, m.len()), (2027, n)),
            (Err(e), Err(part)) => assert!(e.contains(part), "{e}"),
            (got, want) => panic!("{year} {rules}: {got:?} vs {want:?}"),
        }
    }
}
