//! What the three test crates share (each includes this folder with `#[path = "../common/mod.rs"]`):
//! the accounts' names and password, the fixture files of `tests/fixtures/`, and the Wurfrunde
//! fixture cases with their checker. The random-play driver of the rules engine is
//! `rules_driver.rs` beside this file (also used by `benches/rules.rs`).
// Each crate uses a part of this module.
#![allow(dead_code)]

use std::path::{Path, PathBuf};

use schockerliga::league::model::file::SeasonFile;
use serde_json::Value;

/// The admin account of a staffed test database.
pub const ADMIN: &str = "admin";
/// The secretary account of a staffed test database.
pub const SECRETARY: &str = "schrift";
/// Every test account's password.
pub const PASSWORD: &str = "geheim123";

/// The path of `tests/fixtures/<name>`.
pub fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(name)
}

/// The text of `tests/fixtures/<name>`.
pub fn fixture_text(name: &str) -> String {
    let path = fixture(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// `tests/fixtures/<name>` as JSON.
pub fn fixture_json(name: &str) -> Value {
    read_json(&fixture(name))
}

/// The file at `path` as JSON.
pub fn read_json(path: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// The season file `name` (e.g. "small-2026"), optionally moved to another year by replacing the
/// year in every date.
pub fn season_file(name: &str, year: Option<i32>) -> SeasonFile {
    let mut text = fixture_text(&format!("{name}.season.json"));
    if let Some(y) = year {
        text = text
            .replace("\"2026-", &format!("\"{y}-"))
            .replace("\"season\": 2026", &format!("\"season\": {y}"));
    }
    let file: SeasonFile = serde_json::from_str(&text).unwrap();
    if let Some(y) = year {
        assert_eq!(file.season, y);
    }
    file
}

/// The cases of `tests/fixtures/wurfrunde.json`.
pub fn wurfrunde_cases() -> Vec<Value> {
    serde_json::from_str(&fixture_text("wurfrunde.json")).expect("fixture JSON")
}

/// Checks an answer `v` against a Wurfrunde case's `expect` (per-result fields are lists in
/// throwing order); returns the number of fields compared.
pub fn check_expect(name: &str, v: &Value, expect: &Value) -> usize {
    let per_result = |field: &str| -> Value {
        Value::Array(
            v["results"]
                .as_array()
                .unwrap_or_else(|| panic!("{name}: no results in {v}"))
                .iter()
                .map(|r| r[field].clone())
                .collect(),
        )
    };
    let mut n = 0;
    for (key, want) in expect.as_object().unwrap() {
        let have = match key.as_str() {
            "classes" => per_result("class"),
            "values" => per_result("value"),
            "from_hand" => per_result("from_hand"),
            "labels" => per_result("label"),
            "wuerfe" => per_result("wuerfe"),
            other => {
                assert!(v.get(other).is_some(), "{name}: no field {other} in {v}");
                v[other].clone()
            }
        };
        assert_eq!(&have, want, "{name}: field {key}");
        n += 1;
    }
    n
}

/// The library's own answer to a Wurfrunde request: the value for a valid request, the message
/// for an invalid one.
pub fn engine(request: &Value) -> Result<Value, String> {
    let body = serde_json::to_vec(request).unwrap();
    schockerliga::rules::evaluate_wurfrunde_json(&body).map_err(|e| e.to_string())
}
