//! `schockerliga wurfrunde FILE`: a Wurfrunde of the API evaluated by the rules engine, no
//! database.

use std::io::Read;

use anyhow::Context as _;

use super::stdout;

/// Reads the request (JSON of the API) from `file`, or stdin for `-`, and prints the answer as
/// JSON. Errors (German): the file cannot be read, the request is invalid (naming player, Wurf
/// and rule).
pub fn evaluate(file: &str) -> anyhow::Result<()> {
    let body = if file == "-" {
        let mut buf = Vec::new();
        std::io::stdin()
            .read_to_end(&mut buf)
            .context("stdin nicht lesbar")?;
        buf
    } else {
        std::fs::read(file).with_context(|| format!("{file} nicht lesbar"))?
    };
    let request = schockerliga::rules::parse_wurfrunde_request(&body)?;
    let response = schockerliga::rules::evaluate_wurfrunde(&request)?;
    stdout(&(serde_json::to_string_pretty(&response)? + "\n"))?;
    Ok(())
}
