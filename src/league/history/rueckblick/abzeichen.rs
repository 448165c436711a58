//! Abzeichen (issue 39.3, rules in docs/abzeichen.md): badges a player earns in a season from his
//! results and rounds, each with the night it was first earned. Read from his season night by
//! night (`table::nights::PlayerHistory`) and the season's nights (for runs); nights kept only as
//! totals have no rounds and so earn no badge that needs one.

use chrono::NaiveDate;
use serde::Serialize;

use crate::league::model::rules::Liga;
use crate::league::model::season::Season;
use crate::league::table::nights::PlayerHistory;

/// Nights in a row for [`Art::ZehnAbende`].
pub const ABENDE_IN_FOLGE: usize = 10;
/// Schock Outs in one round for [`Art::DreiOuts`].
pub const OUTS_IN_EINER_RUNDE: u32 = 3;
/// Schock Outs in the Joker-Runde for [`Art::JokerVolltreffer`].
pub const JOKER_OUTS: u32 = 2;

/// The kinds of badge, in the order they are listed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
pub enum Art {
    /// His first Schock Out of the season.
    ErsterSchockOut,
    /// His first Hand-Out (a Schock Out from the hand).
    SchockOutAusDerHand,
    /// 3 Schock Outs in one round.
    DreiOuts,
    /// At least 2 Schock Outs in his Joker-Runde.
    JokerVolltreffer,
    /// 10 nights of the season in a row played.
    ZehnAbende,
    /// A Sozialfall: 3 rounds paid in one night.
    Sozialfall,
    /// In the 1. Liga after a night for the first time.
    Aufstieg,
}

impl Art {
    /// The German name of the badge.
    pub fn label(self) -> &'static str {
        match self {
            Art::ErsterSchockOut => "Erster Schock Out",
            Art::SchockOutAusDerHand => "Schock Out aus der Hand",
            Art::DreiOuts => "Drei Outs in einer Runde",
            Art::JokerVolltreffer => "Joker-Volltreffer",
            Art::ZehnAbende => "Zehn Abende in Folge",
            Art::Sozialfall => "Sozialfall",
            Art::Aufstieg => "Aufstieg in die 1. Liga",
        }
    }
}

/// One badge earned: its kind and the night it was first earned.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Abzeichen {
    /// The kind.
    pub art: Art,
    /// The night.
    pub date: NaiveDate,
}

/// The badges of the player of `history` in `season` up to `as_of` (`None`: every night), each
/// once with the first night that earned it, in the order of [`Art`].
pub fn abzeichen(
    season: &Season,
    history: &PlayerHistory,
    as_of: Option<NaiveDate>,
) -> Vec<Abzeichen> {
    let upto = |d: NaiveDate| as_of.is_none_or(|a| d <= a);
    let nights: Vec<_> = history.nights.iter().filter(|n| upto(n.date)).collect();
    let first = |art: Art, earned: &dyn Fn(&crate::league::table::nights::PlayerNight) -> bool| {
        nights
            .iter()
            .find(|n| earned(n))
            .map(|n| Abzeichen { art, date: n.date })
    };
    let mut out: Vec<Abzeichen> = [
        first(Art::ErsterSchockOut, &|n| {
            n.rounds.iter().any(|r| r.outs > 0)
        }),
        first(Art::SchockOutAusDerHand, &|n| {
            n.rounds.iter().any(|r| r.hand_outs > 0)
        }),
        first(Art::DreiOuts, &|n| {
            n.rounds.iter().any(|r| r.outs >= OUTS_IN_EINER_RUNDE)
        }),
        first(Art::JokerVolltreffer, &|n| {
            n.rounds.iter().any(|r| r.joker && r.outs >= JOKER_OUTS)
        }),
        first(Art::Sozialfall, &|n| n.sozialfall),
        first(Art::Aufstieg, &|n| n.liga == Liga::First),
    ]
    .into_iter()
    .flatten()
    .collect();
    // Nights in a row: every night of the season counts, a missed one starts again.
    let mut run = 0;
    for night in season.nights.iter().filter(|n| upto(n.date)) {
        run = if nights.iter().any(|n| n.date == night.date) {
            run + 1
        } else {
            0
        };
        if run == ABENDE_IN_FOLGE {
            out.push(Abzeichen {
                art: Art::ZehnAbende,
                date: night.date,
            });
            break;
        }
    }
    out.sort_by_key(|a| a.art);
    out
}

#[cfg(test)]
mod tests;
