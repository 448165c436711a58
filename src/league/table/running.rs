//! Every player's totals after each night (league.md §2–§4: rounds, the rounds up to the 1. Liga
//! deadline, Outs, Hand-Outs, Julen, points, lost and paid rounds), summed once per season and
//! kept in the season's memo (issue 25): what the table, the curves, a player's season night by
//! night and the Kasse's pot per night read.

use std::collections::BTreeMap;

use chrono::NaiveDate;

use crate::league::model::rules::SeasonRules;
use crate::league::model::season::{Night, PlayerTotals, Season};

/// The 1. Liga deadline of the season as a date (29 February in a common year falls back to 28).
pub fn deadline(season: &Season) -> NaiveDate {
    let d = season.rules.first_liga_deadline;
    d.in_year(season.year)
        .or_else(|| NaiveDate::from_ymd_opt(season.year, d.month, 28))
        .unwrap_or(NaiveDate::MAX)
}

/// Adds `night`'s rows (or its recorded totals) to `map`, each player's line (league.md §2–§4:
/// rounds, the rounds up to the 1. Liga `deadline`, Outs, Hand-Outs, Julen, points, lost and
/// paid rounds).
fn add_night(
    map: &mut BTreeMap<String, PlayerTotals>,
    night: &Night,
    rules: &SeasonRules,
    deadline: NaiveDate,
) {
    for (name, t) in night.per_player(rules) {
        let p = match map.get_mut(name) {
            Some(p) => p,
            None => map.entry(name.to_string()).or_default(),
        };
        p.rounds += t.rounds;
        if night.date <= deadline {
            p.rounds_at_deadline += t.rounds;
        }
        p.thrown_outs += t.outs;
        p.hand_outs += t.hand_outs;
        p.julen += t.julen;
        p.row_points += t.row_points;
        p.lost_rounds += t.lost;
        p.paid_rounds += t.lost.min(rules.sozialfall_after);
    }
}

/// Every player's totals after each night of `season`, in night order (one pass; what
/// [`totals_up_to`] answers for a date before the last night, issue 25: the curves, a player's
/// season night by night and the Kasse's pot per night asked for the table after every night,
/// each summing all nights before it again).
pub(crate) fn running_totals(season: &Season) -> Vec<BTreeMap<String, PlayerTotals>> {
    let rules = &season.rules;
    let deadline = deadline(season);
    let mut map = BTreeMap::new();
    season
        .nights
        .iter()
        .map(|night| {
            add_night(&mut map, night, rules, deadline);
            map.clone()
        })
        .collect()
}

impl Season {
    /// Every player's totals after each night, in night order, computed once per season
    /// ([`running_totals`]); a copy of the season computes its own.
    pub(crate) fn running(&self) -> &[BTreeMap<String, PlayerTotals>] {
        self.running.get_or_init(|| running_totals(self))
    }
}

/// Totals of every player with at least one round on nights up to and including `as_of`.
pub(crate) fn totals_up_to(season: &Season, as_of: NaiveDate) -> BTreeMap<String, PlayerTotals> {
    // A Season's nights are sorted by date (one per date).
    let played = season.nights.partition_point(|n| n.date <= as_of);
    if played > 0 && played < season.nights.len() {
        // A date within the season: the table after that night, summed once for all nights.
        // After the last night the nights are summed directly, so a closed season read only for
        // its final table keeps no per-night totals.
        if let Some(after) = season.running().get(played - 1) {
            return after.clone();
        }
    }
    let rules = &season.rules;
    let deadline = deadline(season);
    let mut map: BTreeMap<String, PlayerTotals> = BTreeMap::new();
    for night in season.nights.iter().filter(|n| n.date <= as_of) {
        add_night(&mut map, night, rules, deadline);
    }
    map
}

#[cfg(test)]
mod tests;
