//! A player's year in review, „Der Rückblick“ (issue 39.2): his line of the table (league.md §3,
//! §4), his best night, Hand-Outs, Julen and the Outs they made, what his Joker-Runden brought,
//! his longest runs of nights (as the Rekorde count them, `records::player_runs`), paid rounds
//! and Sozialfälle (§7). Every figure is read from the table and his season night by night, the
//! same values the JSON API and the Rekorde show.

use chrono::NaiveDate;
use serde::Serialize;

pub mod abzeichen;

use super::records::{player_runs, Run};
use crate::league::model::rules::Liga;
use crate::league::model::season::Season;
use crate::league::table::nights::PlayerHistory;
use crate::league::table::standings::{DWert, Standings};

/// One player's year (issue 39.2); a figure that is 0 or missing leaves its card out.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Rueckblick {
    /// The name.
    pub player: String,
    /// The season's year.
    pub season: i32,
    /// Nights he played.
    pub nights: u32,
    /// Rounds played (the table's `rounds`).
    pub rounds: u32,
    /// Counted Outs (the table's `counted_outs`).
    pub counted_outs: i64,
    /// The exact D.Wert.
    pub d_wert: DWert,
    /// His Liga and place in it (the table's).
    pub liga: Liga,
    /// His place.
    pub rank: u32,
    /// His best night by counted Outs (the first of equal ones); `None` without an Out.
    pub best_night: Option<(NaiveDate, i64)>,
    /// Hand-Outs thrown.
    pub hand_outs: u32,
    /// Julen thrown.
    pub julen: u32,
    /// Counted Outs the Julen made.
    pub julen_outs: u32,
    /// His Joker-Runden with the Outs thrown in them; `None` when he declared none.
    pub joker: Option<JokerYield>,
    /// His longest run of nights played in a row (`records::player_runs`).
    pub attendance_run: Option<Run>,
    /// His longest run of nights with at least one Schock Out in a row.
    pub out_run: Option<Run>,
    /// Rounds paid (the table's `paid_rounds`).
    pub paid_rounds: u32,
    /// Nights he was a Sozialfall (paid `sozialfall_after` rounds, league.md §7).
    pub sozialfaelle: u32,
}

/// What the Joker-Runden brought (league.md §2): rounds, counted Outs in them, and of those the
/// ones the Joker added (counted − counted without the multiplier).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct JokerYield {
    /// Joker-Runden declared (with their rounds known).
    pub rounds: u32,
    /// Counted Outs of those rounds.
    pub counted: i64,
    /// Counted Outs the multiplier added.
    pub extra: i64,
}

/// The Rückblick of `player` in `season` from the `table` (as of the last night shown) and his
/// `history` (`table::nights::player_history`); `None` when he has no line in the table.
pub fn rueckblick(
    season: &Season,
    table: &Standings,
    history: &PlayerHistory,
) -> Option<Rueckblick> {
    let row = table.rows.iter().find(|r| r.player == history.player)?;
    let nights: Vec<_> = history
        .nights
        .iter()
        .filter(|n| table.as_of.is_none_or(|d| n.date <= d))
        .collect();
    let best_night = nights.iter().filter(|n| n.counted_outs > 0).fold(
        None,
        |best: Option<(NaiveDate, i64)>, n| match best {
            Some((_, c)) if c >= n.counted_outs => best,
            _ => Some((n.date, n.counted_outs)),
        },
    );
    let mult = season.rules.joker_multiplier.unwrap_or(1).max(1);
    let jokers: Vec<i64> = nights
        .iter()
        .flat_map(|n| n.rounds.iter())
        .filter(|r| r.joker)
        .map(|r| r.points)
        .collect();
    let joker = (!jokers.is_empty()).then(|| {
        let counted: i64 = jokers.iter().sum();
        JokerYield {
            rounds: jokers.len() as u32,
            counted,
            extra: counted - counted / mult,
        }
    });
    let (attendance_run, out_run) = player_runs(season, &history.player, table.as_of);
    Some(Rueckblick {
        player: row.player.clone(),
        season: season.year,
        nights: nights.len() as u32,
        rounds: row.rounds,
        counted_outs: row.counted_outs,
        d_wert: row.d_wert_exact(),
        liga: row.liga,
        rank: row.rank,
        best_night,
        hand_outs: row.hand_outs,
        julen: row.julen,
        julen_outs: row.julen_outs,
        joker,
        attendance_run,
        out_run,
        paid_rounds: row.paid_rounds,
        sozialfaelle: nights.iter().filter(|n| n.sozialfall).count() as u32,
    })
}

#[cfg(test)]
mod tests;
