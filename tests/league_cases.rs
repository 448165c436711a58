//! The league math against the fixtures (tests/fixtures/*-2026.*.json): validation, standings,
//! payouts and the season file round trip.

use schockerliga::league::file::SeasonFile;
use schockerliga::league::{payouts, standings, Season};
use serde_json::Value;

fn fixture(name: &str) -> String {
    let path = format!("{}/tests/fixtures/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn season(name: &str) -> Season {
    let file: SeasonFile =
        serde_json::from_str(&fixture(&format!("{name}.season.json"))).expect("season file parses");
    Season::from_file(&file).unwrap_or_else(|e| panic!("{name}: {e}"))
}

/// Serialize to text and parse back, so numbers compare as the fixture's parsed numbers do.
fn as_value<T: serde::Serialize>(x: &T) -> Value {
    let text = serde_json::to_string(x).expect("serializes");
    serde_json::from_str(&text).expect("parses")
}

fn expected(name: &str) -> Value {
    serde_json::from_str(&fixture(name)).expect("fixture parses")
}

#[test]
fn standings_match_the_fixtures() {
    for name in ["small-2026", "sample-2026"] {
        let got = as_value(&standings(&season(name), None));
        let want = expected(&format!("{name}.standings.json"));
        assert_eq!(got, want, "{name}");
    }
}

#[test]
fn payouts_match_the_fixtures() {
    for name in ["small-2026", "sample-2026"] {
        let got = as_value(&payouts(&season(name), 0));
        let want = expected(&format!("{name}.payouts.json"));
        assert_eq!(got, want, "{name}");
    }
}

#[test]
fn season_file_round_trips() {
    for name in ["small-2026", "sample-2026"] {
        let s = season(name);
        let again = Season::from_file(&s.to_file()).expect("exported file is valid");
        assert_eq!(again, s, "{name}");
        assert_eq!(standings(&again, None), standings(&s, None), "{name}");
        assert_eq!(again.to_file(), s.to_file(), "{name}");
    }
}
