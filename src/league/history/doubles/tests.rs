//! The folding rules of the suggested doubles as tables at their edges: 4 and 5 letters, distance
//! 2 and 3, ß/ss, an initial, jun./sen., a Cyrillic а; the order and the shared night.

use chrono::NaiveDate;

use super::*;

fn d(s: &str) -> NaiveDate {
    s.parse().unwrap()
}

fn trace(name: &str, nights: &[&str]) -> PlayerTrace {
    PlayerTrace {
        name: name.into(),
        seasons: vec![2020],
        nights: nights.iter().map(|n| d(n)).collect(),
    }
}

/// The reason two lone names are suggested, `None` when they are not.
fn pair(a: &str, b: &str) -> Option<Reason> {
    let found = suggest(&[trace(a, &[]), trace(b, &[])]);
    assert!(found.len() <= 1);
    found.first().map(|x| x.reason)
}

#[test]
fn fold_table() {
    let table = [
        ("Jürgen", "juergen"),
        ("JÜRGEN", "juergen"),
        ("Juergen", "juergen"),
        ("Strauß", "strauss"),
        ("STRAUSS", "strauss"),
        ("Björn", "bjoern"),
        ("Hände", "haende"),
        ("José", "jose"),
        ("Zoë", "zoe"),
        ("  Hans   Peter ", "hans peter"),
        ("Ju\u{0308}rgen", "juergen"),
    ];
    for (name, folded) in table {
        assert_eq!(fold(name), folded, "{name}");
    }
}

#[test]
fn suffix_table() {
    let table = [
        ("juergen m.", "juergen"),
        ("juergen m", "juergen"),
        ("juergen jun.", "juergen"),
        ("juergen sen", "juergen"),
        ("juergen m. jun.", "juergen"),
        ("m.", "m."),
        ("jun.", "jun."),
        ("juergen ma.", "juergen ma."),
        ("juergen junior", "juergen junior"),
        ("hans 2", "hans 2"),
    ];
    for (folded, bare) in table {
        assert_eq!(without_suffix(folded), bare, "{folded}");
    }
}

#[test]
fn levenshtein_table() {
    let table = [
        ("", "", 0),
        ("abc", "", 3),
        ("kitten", "sitting", 3),
        ("juergen", "jurgen", 1),
        ("müller", "muller", 1),
        ("flaw", "lawn", 2),
    ];
    for (a, b, n) in table {
        assert_eq!(levenshtein(a, b), n, "{a} {b}");
        assert_eq!(levenshtein(b, a), n, "{b} {a}");
    }
}

#[test]
fn reasons_at_the_edges() {
    use Reason::*;
    let table: [(&str, &str, Option<Reason>); 23] = [
        // Folding: umlauts, ß/ss, accents.
        ("Jürgen", "Juergen", Some(Spelling)),
        ("Strauß", "Strauss", Some(Spelling)),
        ("Weiß", "Weiss", Some(Spelling)), // 5 letters folded, but Spelling comes first
        ("Renée", "Renee", Some(Spelling)),
        // Initial and jun./sen.
        ("Jürgen M.", "Jürgen", Some(Suffix)),
        ("Jürgen M.", "Juergen", Some(Suffix)),
        ("Klaus jun.", "Klaus sen.", Some(Suffix)),
        ("Uwe M.", "Uwe", Some(Suffix)), // a short name: the initial rule has no length limit
        // Confusables: a Cyrillic а (U+0430), Greek capitals.
        ("\u{0410}nna", "Anna", Some(LookAlike)),
        ("P\u{0430}ul", "Paul", Some(LookAlike)),
        ("\u{0391}\u{039D}\u{039D}\u{0391}", "Anna", Some(LookAlike)),
        // Typos: 4 letters never, 5 letters at distance 1 and 2, never 3.
        ("Jörg", "Jürg", Some(Typo(1))), // „joerg“/„juerg“: 5 letters after folding
        ("Timo", "Tima", None),          // 4 letters
        ("Tim", "Tom", None),
        ("Karin", "Karina", Some(Typo(1))),
        ("Karin", "Karim", Some(Typo(1))),
        ("Peter", "Petra", Some(Typo(2))),
        ("Bernd", "Brend", Some(Typo(2))),
        ("Bernd", "Berta", Some(Typo(2))),
        ("Bernd", "Beate", None), // distance 3
        ("Michael", "Micha", Some(Typo(2))),
        ("Michael", "Mich", None), // 4 letters
        ("Walter", "Günter", None),
    ];
    for (a, b, want) in table {
        assert_eq!(pair(a, b), want, "{a} / {b}");
        assert_eq!(pair(b, a), want, "{b} / {a}");
    }
}

#[test]
fn same_night_marks_two_people_and_order_is_fixed() {
    let players = vec![
        trace("Peter", &["2020-01-03", "2020-02-07"]),
        trace("Petra", &["2020-02-07", "2020-03-06"]),
        trace("Juergen", &["2019-05-03"]),
        trace("Jürgen", &["2020-01-03", "2020-02-07"]),
        trace("Jürgen M.", &[]),
    ];
    let found = suggest(&players);
    let shown: Vec<(&str, &str, Reason, Option<NaiveDate>)> = found
        .iter()
        .map(|x| {
            (
                x.first.name.as_str(),
                x.second.name.as_str(),
                x.reason,
                x.same_night,
            )
        })
        .collect();
    assert_eq!(
        shown,
        vec![
            ("Jürgen", "Juergen", Reason::Spelling, None),
            ("Juergen", "Jürgen M.", Reason::Suffix, None),
            ("Jürgen", "Jürgen M.", Reason::Suffix, None),
            ("Peter", "Petra", Reason::Typo(2), Some(d("2020-02-07"))),
        ]
    );
    let mut reversed = players.clone();
    reversed.reverse();
    assert_eq!(
        suggest(&reversed),
        found,
        "order does not depend on the input's"
    );
}

#[test]
fn traces_group_by_name_key_and_keep_the_latest_spelling() {
    use crate::league::testkit::{rounds_season, season, season_json};
    let (a, b) = (rounds_season(2019), rounds_season(2020));
    let c = season(season_json(2021, &[("ANNA", None)], vec![]));
    let t = traces([&c, &b, &a]);
    let names: Vec<&str> = t.iter().map(|p| p.name.as_str()).collect();
    assert_eq!(names, ["ANNA", "Bernd", "Carla"]);
    assert_eq!(t[0].seasons, [2019, 2020, 2021]);
    assert_eq!(t[1].seasons, [2019, 2020]);
    let nights: Vec<NaiveDate> = ["2019-01-09", "2019-01-16", "2020-01-09", "2020-01-16"]
        .iter()
        .map(|n| d(n))
        .collect();
    assert!(t.iter().all(|p| p.nights == nights), "{t:?}");
}
