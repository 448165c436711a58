//! The season file, format `schockerliga-season/1` (interchange.md): the serde shape of one complete
//! season. This is the raw, unchecked input; `validate` turns it into a checked `Season`.

use chrono::NaiveDate;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// The format tag every season file carries.
pub const FORMAT: &str = "schockerliga-season/1";

/// One season as written in a season file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SeasonFile {
    /// Must be [`FORMAT`].
    pub format: String,
    /// The season's year, e.g. 2026.
    pub season: i32,
    /// Overrides of the season's default rules (league.md §10); empty = all defaults.
    #[serde(default)]
    pub rules: Map<String, Value>,
    /// The season's players; names are unique.
    #[serde(default)]
    pub players: Vec<PlayerEntry>,
    /// The season's nights, in any order (one per date).
    #[serde(default)]
    pub nights: Vec<NightEntry>,
}

/// A player and the payment date of his Jahresbeitrag (the amount follows from the date).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlayerEntry {
    /// The player's name, unique in the league.
    pub name: String,
    /// Payment date of the Jahresbeitrag, or null when unpaid.
    #[serde(default)]
    pub fee_paid_on: Option<NaiveDate>,
}

/// One Spielabend.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NightEntry {
    /// The night's date (at most one night per date).
    pub date: NaiveDate,
    /// Its tables (1, or 2 from `split_tables_from` participants on).
    #[serde(default)]
    pub tables: Vec<TableEntry>,
    /// Fines recorded at this night.
    #[serde(default)]
    pub fines: Vec<FineEntry>,
    /// The draw (league.md §9): every participant with his table, in seat order per table. Absent
    /// (and left out of an export) when it is just the players of the rows in the order they first
    /// play; a draw with a participant who has no row yet (a late arrival) is written out. Every
    /// player with a row must be in an explicit draw, at his row's table.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub draw: Option<Vec<SeatEntry>>,
}

/// One participant of a night's draw: the player and the table he was drawn to.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SeatEntry {
    /// The player's name.
    pub player: String,
    /// Table 1 or 2.
    pub table: u32,
}

impl NightEntry {
    /// Puts `round` at table `table` of this night, replacing a round of its number there; the
    /// table is added (last) when missing, the round goes last at its table.
    pub fn put_round(&mut self, table: u32, round: RoundEntry) {
        let t = match self.tables.iter().position(|t| t.number == table) {
            Some(k) => &mut self.tables[k],
            None => {
                self.tables.push(TableEntry {
                    number: table,
                    rounds: Vec::new(),
                });
                let last = self.tables.len() - 1;
                &mut self.tables[last]
            }
        };
        t.rounds.retain(|r| r.number != round.number);
        t.rounds.push(round);
    }
}

/// One Tisch of a night.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TableEntry {
    /// Table number, 1 or 2.
    pub number: u32,
    /// The rounds played at it (may be incomplete for the night being entered).
    #[serde(default)]
    pub rounds: Vec<RoundEntry>,
}

/// One Runde at a table.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RoundEntry {
    /// Round number, 1..=`rounds_per_night`.
    pub number: u32,
    /// One row per player who played the round.
    #[serde(default)]
    pub results: Vec<ResultEntry>,
    /// The round as played in the Schockbesteck (schocken-rules.md §6–§7): players in seat order,
    /// the dice rules and every Wurfrunde. Optional; when present its tallies must equal `results`
    /// (Outs, Hand-Outs, Julen, loser). The Glücksfaktor rests on it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub schockbesteck: Option<crate::rules::PlayedRunde>,
}

/// One player's result in one round (league.md §1).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ResultEntry {
    /// The player's name.
    pub player: String,
    /// Schock Outs of every kind thrown in the round.
    pub outs: u32,
    /// How many of `outs` were Hand-Outs.
    pub hand_outs: u32,
    /// Julen thrown in the round.
    #[serde(default)]
    pub julen: u32,
    /// The player declared this round his Joker-Runde.
    #[serde(default)]
    pub joker: bool,
    /// The player lost (paid) the round.
    #[serde(default)]
    pub lost: bool,
}

/// One fine (Strafe) of the season's Strafenkatalog.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FineEntry {
    /// The fined player.
    pub player: String,
    /// A kind of the season's Strafenkatalog.
    pub kind: String,
    /// Paid (counts into the pot) or open.
    #[serde(default)]
    pub paid: bool,
    /// The amount booked, in cents, when it differs from the catalogue's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub amount_cents: Option<i64>,
    /// The day a paid fine was paid (the Kasse counts it on that day); absent or null for an open
    /// fine and for a paid one that was paid at the night (files written before the field).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub paid_on: Option<NaiveDate>,
    /// Paid out of the player's share at the Jahresabschluss ("verrechnet", league.md §8);
    /// written only when true.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub netted: bool,
}
