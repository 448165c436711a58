//! The case tables: the library against the fixtures of `tests/fixtures/` and against properties
//! (proptest, seeded simulations); no app, no binary.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

#[path = "../common/mod.rs"]
mod common;
#[path = "../common/rules_driver.rs"]
mod driver;
#[path = "../../src/sheet/testkit.rs"]
mod sheets;

mod league;
mod parsers;
mod rules_engine;
mod scenario_oracle;
mod sheets_import;
mod wurfrunde;
