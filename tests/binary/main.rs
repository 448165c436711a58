//! The binary tests: the real `schockerliga` binary (`CARGO_BIN_EXE_schockerliga`) run as a
//! command line or as a server on a temporary database. The kill -9 tests and the 10 s soak are
//! `#[ignore]`d; `.ci/run` runs them with `cargo test -- --ignored`.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::path::Path;
use std::process::{Command, Output, Stdio};

#[path = "../common/mod.rs"]
mod common;
#[path = "../../src/sheet/testkit.rs"]
mod sheets;

mod server;

mod backups;
mod bearer;
mod cli;
mod club;
mod demo;
mod durability;
mod faults;
mod harden;
mod https;
mod kontoauszug;
mod merge;
mod night_link;
mod planned;
mod remote;
mod remote_faults;
mod sheets_memory;
mod upgrade;
mod wurfrunde;

/// The binary under test.
pub const BIN: &str = env!("CARGO_BIN_EXE_schockerliga");

/// Runs the binary with `args` and `--database db` (appended after the subcommand: global), no
/// `DATABASE_URL`, no stdin.
pub fn run(db: &Path, args: &[&str]) -> Output {
    Command::new(BIN)
        .args(args)
        .arg("--database")
        .arg(db)
        .env_remove("DATABASE_URL")
        .stdin(Stdio::null())
        .output()
        .unwrap()
}
