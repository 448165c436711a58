//! The Schocken rules engine (schocken-rules.md): pure code, no I/O. Dice and results (`dice`),
//! classification (`classify`, §2), order (`order`, §3), turning sixes and throw validation
//! (`sequence`, §4–§5), one Wurfrunde and the stateless JSON contract (`wurfrunde`, §6,
//! interchange.md), a whole Runde (`runde`, §7), the `RuleSet` with its presets (`ruleset`, §8) and
//! the engine's answers in German words (`explain`: the deciding rule, the order of throws).

#![warn(missing_docs)]

pub mod classify;
pub mod dice;
pub mod error;
pub mod explain;
pub mod odds;
pub mod order;
pub mod ruleset;
pub mod runde;
pub mod sequence;
pub mod wurfrunde;

/// The most players one Wurfrunde or Runde accepts (a Schocken table seats far fewer); more is
/// refused with a German message before any work that grows with the number of players.
pub const MAX_PLAYERS: usize = 20;

/// The longest player name (in characters) the engine accepts in a Wurfrunde or Runde.
pub const MAX_NAME_CHARS: usize = 60;

/// Checks the player list of a Wurfrunde or Runde in one pass: at most [`MAX_PLAYERS`] names, each
/// non-empty (after trimming) and at most [`MAX_NAME_CHARS`] characters, none repeated (a `HashSet`,
/// linear). `what` names the context in the message („Wurfrunde“ / „Runde“); `repeated` builds the
/// message for a repeated name. Errors: `RuleError::Wurfrunde` with a German message.
pub(crate) fn check_player_names<'a>(
    names: impl ExactSizeIterator<Item = &'a str>,
    what: &str,
    repeated: impl Fn(&str) -> String,
) -> Result<(), RuleError> {
    if names.len() > MAX_PLAYERS {
        return Err(RuleError::Wurfrunde(format!(
            "eine {what} hat höchstens {MAX_PLAYERS} Spieler, nicht {}",
            names.len()
        )));
    }
    let mut seen = std::collections::HashSet::with_capacity(names.len());
    for (i, name) in names.enumerate() {
        if name.trim().is_empty() {
            return Err(RuleError::Wurfrunde(format!(
                "Spieler an Platz {} hat keinen Namen",
                i + 1
            )));
        }
        if name.chars().count() > MAX_NAME_CHARS {
            return Err(RuleError::Wurfrunde(format!(
                "der Name an Platz {} ist länger als {MAX_NAME_CHARS} Zeichen",
                i + 1
            )));
        }
        if !seen.insert(name) {
            return Err(RuleError::Wurfrunde(repeated(name)));
        }
    }
    Ok(())
}

pub use classify::{classify, Class, ClassKind, Deckel};
pub use dice::{Dice, ThrowResult};
pub use error::{RuleError, ThrowProblem};
pub use explain::{decisions, Decider, Decision, RankLine};
pub use order::{compare, Ranked};
pub use ruleset::{
    AchterAbove, Aside, RuleSet, StreetFromHand, StreetOrder, PRESETS, PRESET_NAMES,
};
pub use runde::{
    max_outs_per_round, AppliedWurfrunde, GlueckTally, Part, PlayedRunde, PlayerTally, Replay,
    RundeRecord, RundeState, WurfrundeOutcome,
};
pub use sequence::{validate_sequence, Allowance, WurfInput};
pub use wurfrunde::{
    evaluate_throws, evaluate_wurfrunde, evaluate_wurfrunde_json, parse_wurfrunde_request,
    DeckelState, ResultView, ThrowInput, Transfer, WurfrundeRequest, WurfrundeResponse,
};
