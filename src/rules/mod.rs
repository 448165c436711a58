//! The Schocken rules engine (schocken-rules.md): pure code, no I/O. Dice and results (`dice`),
//! classification (`classify`, §2), order (`order`, §3), turning sixes and throw validation
//! (`sequence`, §4–§5), one Wurfrunde and the stateless JSON contract (`wurfrunde`, §6,
//! interchange.md), a whole Runde (`runde`, §7) and the `RuleSet` with its presets (`ruleset`, §8).

#![warn(missing_docs)]

pub mod classify;
pub mod dice;
pub mod error;
pub mod order;
pub mod ruleset;
pub mod runde;
pub mod sequence;
pub mod wurfrunde;

pub use classify::{classify, Class, ClassKind, Deckel};
pub use dice::{Dice, ThrowResult};
pub use error::{RuleError, ThrowProblem};
pub use order::{compare, Ranked};
pub use ruleset::{RuleSet, StreetOrder, PRESET_NAMES};
pub use runde::{
    max_outs_per_round, AppliedWurfrunde, Part, PlayerTally, RundeRecord, RundeState,
    WurfrundeOutcome,
};
pub use sequence::{validate_sequence, Allowance, WurfInput};
pub use wurfrunde::{
    evaluate_throws, evaluate_wurfrunde, evaluate_wurfrunde_json, parse_wurfrunde_request,
    DeckelState, ResultView, ThrowInput, Transfer, WurfrundeRequest, WurfrundeResponse,
};
