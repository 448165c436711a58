//! Suggested doubles (issue 36.1): `/verwaltung/spieler/doppelte` for a fixture of names over four
//! seasons equals an oracle written here over the same rules with its own folding (a lower-case
//! map of umlauts and accents, its own suffix rule, a small table of Greek and Cyrillic
//! look-alikes, its own Levenshtein), not the product's `league::history::doubles`.

use std::collections::{BTreeMap, BTreeSet};

use axum::http::StatusCode;
use schockerliga::league::model::file::SeasonFile;
use serde_json::{json, Value};

use crate::app::{TestApp, SECRETARY};

/// (year, players, nights as (date, players at table 1)).
type Fixture = (
    i32,
    &'static [&'static str],
    &'static [(&'static str, &'static [&'static str])],
);

const FIXTURE: [Fixture; 4] = [
    (
        2019,
        &[
            "Jürgen", "Klaus", "Peter", "Petra", "Bernd", "Timo", "Uwe", "Michael",
        ],
        &[("2019-03-01", &["Peter", "Petra", "Jürgen", "Klaus"])],
    ),
    (
        2020,
        &[
            "Juergen",
            "Klaus jun.",
            "Tima",
            "Brend",
            "Micha",
            "Anna",
            "Björn",
            "Karin",
        ],
        &[
            ("2020-03-06", &["Juergen", "Klaus jun.", "Tima"]),
            ("2020-03-13", &["Brend", "Micha"]),
        ],
    ),
    (
        2021,
        &[
            "Jürgen M.",
            "Klaus sen.",
            "Klaus jun.",
            "Beate",
            "ΑΝΝΑ",
            "Renée",
            "Uwe M.",
            "Mich",
            "Bjoern",
        ],
        &[
            ("2021-03-05", &["Jürgen M.", "Klaus sen."]),
            ("2021-03-12", &["Klaus sen.", "Klaus jun.", "Beate"]),
        ],
    ),
    (
        2022,
        &["Renee", "STRAUSS", "Strauß", "Karina"],
        &[("2022-03-04", &["Renee", "Strauß"])],
    ),
];

fn season(year: i32, players: &[&str], nights: &[(&str, &[&str])]) -> SeasonFile {
    let players: Vec<Value> = players.iter().map(|n| json!({ "name": n })).collect();
    let nights: Vec<Value> = nights
        .iter()
        .map(|(date, at)| {
            let totals: Vec<Value> = at
                .iter()
                .enumerate()
                .map(|(i, p)| json!({ "player": p, "rounds": 1, "outs": 0, "lost": u32::from(i == 0) }))
                .collect();
            json!({ "date": date, "totals": totals })
        })
        .collect();
    serde_json::from_value(json!({
        "format": "schockerliga-season/1", "season": year,
        "players": players, "nights": nights,
    }))
    .unwrap()
}

// ---------------------------------------------------------------------------------------------
// The oracle.

/// Lower case, ä/ö/ü → ae/oe/ue, ß → ss, the accents of the fixture's names stripped, spaces
/// collapsed.
fn fold(name: &str) -> String {
    let mut out = String::new();
    for c in name.to_lowercase().chars() {
        match c {
            'ä' => out.push_str("ae"),
            'ö' => out.push_str("oe"),
            'ü' => out.push_str("ue"),
            'ß' => out.push_str("ss"),
            'é' | 'è' | 'ê' | 'ë' => out.push('e'),
            'á' | 'à' | 'â' => out.push('a'),
            c => out.push(c),
        }
    }
    out.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Without a trailing initial or jun./sen., repeatedly, while more than one word is left.
fn bare(folded: &str) -> String {
    let mut words: Vec<&str> = folded.split(' ').collect();
    while let Some(last) = words.last().copied() {
        let stem = last.trim_end_matches('.');
        let drop = words.len() > 1
            && (stem == "jun"
                || stem == "sen"
                || (stem.chars().count() == 1 && stem.chars().all(char::is_alphabetic)));
        if !drop {
            break;
        }
        words.pop();
    }
    words.join(" ")
}

/// Greek and Cyrillic letters that look like Latin ones (lower case), the rest kept.
fn look(s: &str) -> String {
    s.chars()
        .map(|c| match c {
            'α' | 'а' => 'a',
            'ν' => 'v', // Greek nu looks like v; the capital Ν (lowered to ν) like N: see below
            'ο' | 'о' => 'o',
            'е' => 'e',
            'р' | 'ρ' => 'p',
            'с' => 'c',
            'х' | 'χ' => 'x',
            'у' => 'y',
            c => c,
        })
        .collect()
}

/// The look-alike key: capitals mapped before lowering (Greek Ν looks like N), then [`look`].
fn look_key(name: &str) -> String {
    let upper: String = name
        .chars()
        .map(|c| match c {
            'Α' | 'А' => 'A',
            'Ν' => 'N',
            'Ο' | 'О' => 'O',
            'Ε' | 'Е' => 'E',
            c => c,
        })
        .collect();
    look(&bare(&fold(&upper)))
}

fn distance(a: &str, b: &str) -> usize {
    let (a, b): (Vec<char>, Vec<char>) = (a.chars().collect(), b.chars().collect());
    let mut d = vec![vec![0usize; b.len() + 1]; a.len() + 1];
    for (i, row) in d.iter_mut().enumerate() {
        row[0] = i;
    }
    d[0] = (0..=b.len()).collect();
    for i in 1..=a.len() {
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            d[i][j] = (d[i - 1][j] + 1)
                .min(d[i][j - 1] + 1)
                .min(d[i - 1][j - 1] + cost);
        }
    }
    d[a.len()][b.len()]
}

fn reason(a: &str, b: &str) -> Option<String> {
    let (fa, fb) = (fold(a), fold(b));
    if fa == fb {
        return Some("schreibung".into());
    }
    let (ba, bb) = (bare(&fa), bare(&fb));
    if ba == bb {
        return Some("zusatz".into());
    }
    if look_key(a) == look_key(b) {
        return Some("aussehen".into());
    }
    let letters = |s: &str| s.chars().filter(|c| c.is_alphabetic()).count();
    let d = distance(&ba, &bb);
    (letters(&ba) >= 5 && letters(&bb) >= 5 && d <= 2).then(|| format!("tippfehler-{d}"))
}

/// (two names sorted, reason code, „beide am TT.MM.JJJJ“ or "") for the fixture.
fn oracle() -> BTreeSet<(String, String, String, String)> {
    // One player per lower-cased name, named as his latest season spells him, with his nights.
    let mut players: BTreeMap<String, (String, BTreeSet<String>)> = BTreeMap::new();
    for (_, names, nights) in FIXTURE {
        for n in names {
            players.entry(n.to_lowercase()).or_default().0 = n.to_string();
        }
        for (date, at) in nights {
            for n in *at {
                players
                    .get_mut(&n.to_lowercase())
                    .unwrap()
                    .1
                    .insert(date.to_string());
            }
        }
    }
    let list: Vec<&(String, BTreeSet<String>)> = players.values().collect();
    let mut out = BTreeSet::new();
    for (i, (a, na)) in list.iter().enumerate() {
        for (b, nb) in &list[i + 1..] {
            let Some(why) = reason(a, b) else { continue };
            let shared = na.intersection(nb).next().map(|d| {
                let (y, m, day) = (&d[0..4], &d[5..7], &d[8..10]);
                format!("beide am {day}.{m}.{y}")
            });
            let (x, y) = if a <= b { (a, b) } else { (b, a) };
            out.insert((x.clone(), y.clone(), why, shared.unwrap_or_default()));
        }
    }
    out
}

/// The pairs of the page, as the oracle lists them.
fn pairs_of(body: &str) -> BTreeSet<(String, String, String, String)> {
    let attr = |chunk: &str, name: &str| {
        let from = chunk.find(&format!("{name}=\"")).unwrap() + name.len() + 2;
        chunk[from..from + chunk[from..].find('"').unwrap()].to_string()
    };
    body.split("<li class=\"paar\"")
        .skip(1)
        .map(|chunk| {
            let (a, b) = (attr(chunk, "data-erster"), attr(chunk, "data-zweiter"));
            let shared = chunk
                .find("nicht dieselbe Person (beide am ")
                .map(|i| chunk[i + 23..i + 23 + 19].to_string())
                .unwrap_or_default();
            let (x, y) = if a <= b { (a, b) } else { (b, a) };
            (x, y, attr(chunk, "data-grund"), shared)
        })
        .collect()
}

#[tokio::test]
async fn the_suggested_doubles_equal_the_oracle() {
    let seasons: Vec<SeasonFile> = FIXTURE.iter().map(|(y, p, n)| season(*y, p, n)).collect();
    let t = TestApp::builder().staff().seasons(seasons).start().await;
    let cookie = t.login(SECRETARY).await;
    let r = t.get("/verwaltung/spieler/doppelte", Some(&cookie)).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    let want = oracle();
    assert_eq!(pairs_of(&r.body), want, "{}", r.body);
    // The fixture reaches every rule and both sides of its edges.
    let codes: BTreeSet<&str> = want.iter().map(|(_, _, c, _)| c.as_str()).collect();
    assert_eq!(
        codes,
        BTreeSet::from([
            "aussehen",
            "schreibung",
            "tippfehler-1",
            "tippfehler-2",
            "zusatz"
        ])
    );
    assert!(want.iter().any(
        |(a, b, _, s)| (a, b) == (&"Klaus jun.".into(), &"Klaus sen.".into())
            && s == "beide am 12.03.2021"
    ));
    assert!(want
        .iter()
        .any(|(a, b, _, s)| (a, b) == (&"Peter".into(), &"Petra".into())
            && s == "beide am 01.03.2019"));
    assert!(!want.iter().any(|(a, b, ..)| a == "Tima"
        || b == "Tima"
        || a == "Mich"
        || b == "Mich"
        || a == "Beate"
        || b == "Beate"));
    let apart = want.iter().filter(|(.., s)| !s.is_empty()).count();
    assert_eq!(apart, 2);
    assert!(
        r.body.contains(&format!("Nicht dieselbe Person ({apart})")),
        "{}",
        r.body
    );
}

#[tokio::test]
async fn the_page_is_for_the_secretary_and_lists_nothing_for_one_name() {
    let t = TestApp::builder()
        .staff()
        .season(season(2020, &["Anna", "Bernd"], &[]))
        .start()
        .await;
    assert!(t
        .get("/verwaltung/spieler/doppelte", None)
        .await
        .is_login_redirect());
    let cookie = t.login(SECRETARY).await;
    let r = t.get("/verwaltung/spieler/doppelte", Some(&cookie)).await;
    assert_eq!(r.status, StatusCode::OK);
    assert!(r.body.contains("Keine Paare gefunden."), "{}", r.body);
    assert!(!r.body.contains("<li class=\"paar\""));
}

/// New-user trial: the suggestion's link opened the merge form with "– Spieler wählen –", the
/// suggested partner to be found among all players. It opens with him chosen.
#[tokio::test]
async fn the_suggestions_link_opens_the_merge_form_with_the_partner_chosen() {
    let t = TestApp::builder()
        .staff()
        .season(season(
            2020,
            &["Anna", "Jürgen", "Juergen"],
            &[
                ("2020-01-03", &["Anna", "Jürgen"]),
                ("2020-02-07", &["Anna", "Juergen"]),
            ],
        ))
        .start()
        .await;
    let admin = t.login("admin").await;
    let r = t.get("/verwaltung/spieler/doppelte", Some(&admin)).await;
    let link = r
        .body
        .split("<a href=\"/verwaltung/spieler/")
        .find_map(|s| {
            s.split_once("\">")
                .filter(|(_, rest)| rest.contains("zusammenführen …"))
        })
        .map(|(href, _)| format!("/verwaltung/spieler/{}", href.replace("&amp;", "&")))
        .unwrap_or_else(|| panic!("no merge link: {}", r.body));
    let form = t.get(&link, Some(&admin)).await;
    assert_eq!(form.status, StatusCode::OK, "{link}: {}", form.body);
    let chosen = form
        .body
        .split("<option ")
        .find(|o| o.contains(" selected"))
        .unwrap_or_else(|| panic!("{link}: nothing chosen: {}", form.body));
    let (first, second) = (
        r.body
            .split("data-erster=\"")
            .nth(1)
            .unwrap()
            .split('"')
            .next()
            .unwrap(),
        r.body
            .split("data-zweiter=\"")
            .nth(1)
            .unwrap()
            .split('"')
            .next()
            .unwrap(),
    );
    assert!(
        chosen.contains(&format!(">{first} (")),
        "{link} should choose {first} for {second}: {chosen}"
    );
}
