//! The throws of a Wurfrunde as typed on the Runde page: seat by seat the player (`p0`, `p1`, …),
//! his final dice (`w0`, …, "421", "4-2-1") and Würfe (`n0`, …), read into [`TypedThrow`]s that
//! the page keeps and the engine checks.

use crate::rules::ThrowInput;

pub use crate::web::entry::round_input::{first, Fields};

/// Reads final dice as typed on a phone: three digits, separators allowed ("421", "4-2-1",
/// "4 2 1"). The values are not range-checked here (the engine names the player and Wurf for a 7).
/// Errors: German message naming the player.
pub fn parse_dice(player: &str, typed: &str) -> Result<Vec<i64>, String> {
    let digits: Vec<i64> = typed
        .chars()
        .filter(|c| !matches!(c, ' ' | '-' | ',' | '.' | '/'))
        .map(|c| c.to_digit(10).map(i64::from).ok_or(()))
        .collect::<Result<_, _>>()
        .map_err(|_| {
            format!("Spieler {player}: „{typed}“ sind keine Augenzahlen (drei Ziffern, z. B. 421)")
        })?;
    if digits.len() != 3 {
        return Err(format!(
            "Spieler {player}: {} Augenzahlen eingegeben, es sind genau 3 (z. B. 421)",
            digits.len()
        ));
    }
    Ok(digits)
}

/// One player's row of the Wurfrunde form, as typed (kept on a rejected submission).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TypedThrow {
    /// The player's name (hidden field `p{i}`).
    pub player: String,
    /// The dice as typed (`w{i}`), e.g. "421".
    pub dice: String,
    /// Würfe used (`n{i}`), 1..=3; 1 when absent.
    pub wuerfe: u8,
    /// "aus der Hand" ticked (`h{i}`); only read when more than one Wurf was used.
    pub hand: bool,
}

impl TypedThrow {
    /// The engine's input: dice with Würfe; from_hand is the engine's default (true) for one Wurf,
    /// the ticked box otherwise. Errors: dice that are not three digits (German, naming the player).
    pub fn to_input(&self) -> Result<ThrowInput, String> {
        let dice = parse_dice(&self.player, &self.dice)?;
        Ok(ThrowInput {
            player: self.player.clone(),
            dice: Some(dice),
            wuerfe: Some(i64::from(self.wuerfe)),
            from_hand: (self.wuerfe > 1).then_some(self.hand),
            sequence: None,
            class: None,
        })
    }

    /// The form row of an applied throw (for correcting an undone Wurfrunde).
    pub fn from_input(t: &ThrowInput) -> Self {
        let wuerfe = t
            .wuerfe
            .and_then(|w| u8::try_from(w).ok())
            .unwrap_or(1)
            .clamp(1, 3);
        TypedThrow {
            player: t.player.clone(),
            dice: t
                .dice
                .as_ref()
                .map(|d| d.iter().map(|v| v.to_string()).collect())
                .unwrap_or_default(),
            wuerfe,
            hand: t.from_hand.unwrap_or(wuerfe == 1),
        }
    }
}

/// Reads the rows `p{i}`, `w{i}`, `n{i}`, `h{i}` for i = 0, 1, … while `p{i}` exists.
pub fn typed_throws(form: &Fields) -> Vec<TypedThrow> {
    (0..)
        .map_while(|i| {
            first(form, &format!("p{i}")).map(|player| TypedThrow {
                player: player.to_string(),
                dice: first(form, &format!("w{i}"))
                    .unwrap_or("")
                    .trim()
                    .to_string(),
                wuerfe: first(form, &format!("n{i}"))
                    .and_then(|n| n.trim().parse().ok())
                    .unwrap_or(1),
                hand: first(form, &format!("h{i}")).is_some(),
            })
        })
        .collect()
}

#[cfg(test)]
mod tests;
