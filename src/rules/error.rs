//! The engine's errors, with German messages that name the player, the Wurf and the rule.

use super::classify::ClassKind;

/// What is wrong with one player's throw (schocken-rules.md §4, §5); shown after "Spieler X, Wurf n: ".
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ThrowProblem {
    /// The Vorleger used more than `max_throws` Würfe.
    #[error("mehr als {0} Würfe sind nicht erlaubt")]
    MoreThanMax(u8),
    /// A later player used more Würfe than the Vorleger.
    #[error("mehr Würfe als der Vorleger ({0})")]
    MoreThanVorleger(u8),
    /// More than one Wurf in the Auswürfeln.
    #[error("beim Auswürfeln hat jeder genau einen Wurf")]
    MoreThanAuswuerfeln,
    /// No Wurf at all (`wuerfe` 0 or an empty sequence).
    #[error("mindestens ein Wurf ist nötig")]
    NoWurf,
    /// A die value outside 1..=6.
    #[error("Augenzahl {0} liegt nicht zwischen 1 und 6")]
    DieOutOfRange(i64),
    /// A Wurf with a number of dice different from the dice in the cup.
    #[error("{rolled} Würfel geworfen, im Becher waren {in_cup}")]
    DiceCount {
        /// dice in `roll`
        rolled: usize,
        /// dice that were in the cup
        in_cup: usize,
    },
    /// Final dice that are not three.
    #[error("ein Ergebnis hat genau 3 Würfel, nicht {0}")]
    FinalDiceCount(usize),
    /// Taking a set-aside die back while `kept_dice_stay`.
    #[error("ein beiseitegelegter Würfel darf nicht zurück in den Becher")]
    TakeBackForbidden,
    /// Taking back a value that is not set aside.
    #[error("eine {0} liegt nicht beiseite und kann nicht zurück in den Becher")]
    TakeBackNotAside(i64),
    /// Setting aside a value that this roll does not show (turned sixes excluded).
    #[error("eine {0} wurde in diesem Wurf nicht geworfen und kann nicht beiseitegelegt werden")]
    KeepNotRolled(i64),
    /// Setting aside something other than a 1 under `aside: ones_only`.
    #[error("nur Einsen dürfen beiseitegelegt werden, nicht eine {0}")]
    OnlyOnesAside(i64),
    /// Setting aside something other than a 1 or a 6 under `aside: ones_and_sixes`.
    #[error("nur Einsen und Sechsen dürfen beiseitegelegt werden, nicht eine {0}")]
    OnlyOnesAndSixesAside(i64),
    /// Turning sixes while the rules forbid it.
    #[error("Sechsen drehen ist nach diesen Regeln nicht erlaubt")]
    TurnDisabled,
    /// Turning more sixes than the roll allows (2 sixes → 1, 3 sixes → 2).
    #[error("{turn} Sechsen gedreht, aber dieser Wurf zeigt {sixes} Sechsen (2 Sechsen ergeben eine Eins, 3 Sechsen zwei)")]
    TurnTooMany {
        /// requested turns
        turn: i64,
        /// sixes in the roll
        sixes: usize,
    },
    /// Turning on the last allowed Wurf.
    #[error("auf dem letzten erlaubten Wurf darf keine Sechs gedreht werden")]
    TurnOnLastWurf,
    /// Turning and then not rolling the remaining six.
    #[error("nach dem Drehen muss die übrige Sechs noch einmal geworfen werden")]
    TurnThenStop,
    /// Setting aside a six of the roll in which sixes were turned.
    #[error("nach dem Drehen muss die übrige Sechs zurück in den Becher")]
    KeepSixAfterTurn,
    /// A Wurf after all dice were set aside.
    #[error("alle Würfel liegen beiseite, ein weiterer Wurf ist nicht möglich")]
    NothingInCup,
    /// `from_hand: false` with a single Wurf, which is always from the hand.
    #[error("ein einziger Wurf ist immer aus der Hand")]
    SingleWurfIsFromHand,
    /// A from_hand claim that the sequence contradicts.
    #[error("als {} angegeben, aber die Würfe ergeben das Gegenteil", if *.0 { "„aus der Hand“" } else { "„nicht aus der Hand“" })]
    FromHandClaim(bool),
    /// A class claim that the result does not support.
    #[error("als {} angegeben, aber das Ergebnis ist {actual}", .claimed.german())]
    ClassClaim {
        /// what the input claimed
        claimed: ClassKind,
        /// the German label of the actual result
        actual: String,
    },
    /// Both `dice` and `sequence` given.
    #[error("entweder „dice“ mit „wuerfe“ oder „sequence“ angeben, nicht beides")]
    BothForms,
    /// Neither `dice` nor `sequence` given.
    #[error("„dice“ mit „wuerfe“ oder „sequence“ fehlt")]
    NoForm,
    /// `dice` without `wuerfe`.
    #[error("zu „dice“ fehlt „wuerfe“ (Anzahl der Würfe)")]
    MissingWuerfe,
}

/// An error of the rules engine. `Display` is the German message for the user.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RuleError {
    /// A player's throw breaks a rule; `wurf` is 1-based where one Wurf is to blame.
    #[error("Spieler {player}{}: {problem}", .wurf.map(|w| format!(", Wurf {w}")).unwrap_or_default())]
    Throw {
        /// the player's name
        player: String,
        /// the Wurf (1..=3) concerned, if one
        wurf: Option<u8>,
        /// the rule broken
        problem: ThrowProblem,
    },
    /// A preset name that does not exist.
    #[error("unbekannter Regelsatz „{0}“ (bekannt: {known})", known = super::ruleset::PRESET_NAMES.join(", "))]
    UnknownPreset(String),
    /// A RuleSet field that does not exist.
    #[error("unbekannte Regel „{0}“")]
    UnknownRule(String),
    /// A RuleSet value of the wrong type or range.
    #[error("ungültige Regeln: {0}")]
    InvalidRules(String),
    /// Request bytes that are not valid JSON or do not fit the request shape.
    #[error("ungültige Anfrage (Zeile {line}, Spalte {column}): {message}")]
    Json {
        /// 1-based line
        line: usize,
        /// 1-based column
        column: usize,
        /// serde_json's description
        message: String,
    },
    /// A Wurfrunde that is wrong as a whole (players, order, blind, finished Runde).
    #[error("{0}")]
    Wurfrunde(String),
}

impl RuleError {
    /// Wraps a JSON (de)serialisation error with its position.
    pub fn json(e: &serde_json::Error) -> Self {
        let full = e.to_string();
        // serde_json appends " at line L column C"; the position is given separately.
        let message = match full.rfind(" at line ") {
            Some(i) => full[..i].to_string(),
            None => full,
        };
        RuleError::Json {
            line: e.line(),
            column: e.column(),
            message,
        }
    }
}

#[cfg(test)]
mod tests;
