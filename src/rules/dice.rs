//! Dice and the final result of a player's turn (schocken-rules.md §1).

use serde::{Deserialize, Serialize};

/// Three dice, each 1..=6, kept sorted highest first (6-4-3), as a Hausnummer is read.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(try_from = "[u8; 3]", into = "[u8; 3]")]
pub struct Dice([u8; 3]);

impl Dice {
    /// Sorts three die values highest first; `None` when a value is outside 1..=6.
    pub fn new(values: [u8; 3]) -> Option<Self> {
        if values.iter().any(|v| !(1..=6).contains(v)) {
            return None;
        }
        let mut v = values;
        v.sort_unstable_by(|a, b| b.cmp(a));
        Some(Dice(v))
    }

    /// The values, highest first.
    pub fn values(self) -> [u8; 3] {
        self.0
    }

    /// How many dice show `face`.
    pub fn count(self, face: u8) -> usize {
        self.0.iter().filter(|&&v| v == face).count()
    }

    /// The dice read as a 3-digit number, highest die first (6-4-3 → 643).
    pub fn number(self) -> u16 {
        let [a, b, c] = self.0;
        u16::from(a) * 100 + u16::from(b) * 10 + u16::from(c)
    }

    /// All 216 ordered rolls of three dice (as given, before sorting), for exhaustive checks.
    pub fn all_rolls() -> impl Iterator<Item = [u8; 3]> {
        (1..=6u8).flat_map(|a| (1..=6u8).flat_map(move |b| (1..=6u8).map(move |c| [a, b, c])))
    }
}

impl TryFrom<[u8; 3]> for Dice {
    type Error = String;
    fn try_from(values: [u8; 3]) -> Result<Self, Self::Error> {
        Dice::new(values)
            .ok_or_else(|| format!("Augenzahlen {values:?} nicht alle zwischen 1 und 6"))
    }
}

impl From<Dice> for [u8; 3] {
    fn from(d: Dice) -> [u8; 3] {
        d.0
    }
}

/// The final result of one player's turn: the dice, the Würfe used (1..=3) and whether it came
/// from the hand (one Wurf of all three dice: nothing set aside, no turned six among them).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct ThrowResult {
    /// The final dice.
    pub dice: Dice,
    /// Würfe used, 1..=3.
    pub wuerfe: u8,
    /// Aus der Hand: the last Wurf rolled all three dice (what was set aside or turned before went
    /// back into the cup).
    pub from_hand: bool,
}

#[cfg(test)]
mod tests;
