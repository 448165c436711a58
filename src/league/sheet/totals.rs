//! Nights recorded as totals (interchange.md "Spreadsheet of night totals", issue 24.1): a night
//! holds either rounds or, per player, his totals of the night (rounds, Outs, Hand-Outs, Julen,
//! counted Outs without Julen, rounds lost, table). The checks live in `Season::from_file`; this
//! module turns nights of rounds into the same night as totals, which counts exactly as the
//! rounds do (standings, Ligen, D.Wert, Julen carry, paid rounds, payouts, careers, curves), and
//! is what the night-totals sheet export writes.

use crate::league::model::file::{SeasonFile, TotalsEntry};
use crate::league::model::season::{Night, Season};

/// The totals rows of `night` in seat order of its draw (players with a row only): for a night of
/// rounds each player's sums over his rounds (`points` = Σ row values, league.md §2, written only
/// where they differ from the base, i.e. where a Joker counted), for a night recorded as totals
/// its rows as they are.
pub fn night_totals(season: &Season, night: &Night) -> Vec<TotalsEntry> {
    let rules = &season.rules;
    let per_player = night.per_player(rules);
    let table_of = |name: &str| {
        night
            .draw
            .iter()
            .find(|s| s.player == name)
            .map(|s| s.table)
            .or_else(|| {
                night
                    .totals
                    .iter()
                    .find(|t| t.player == name)
                    .map(|t| t.table)
            })
            .or_else(|| {
                night
                    .rows()
                    .find(|(_, _, r)| r.player == name)
                    .map(|(t, _, _)| t)
            })
            .unwrap_or(1)
    };
    let mut order: Vec<&str> = night
        .draw
        .iter()
        .map(|s| s.player.as_str())
        .filter(|p| per_player.contains_key(p))
        .collect();
    for p in per_player.keys() {
        if !order.contains(p) {
            order.push(p);
        }
    }
    order
        .into_iter()
        .filter_map(|name| {
            let t = per_player.get(name)?;
            let base = crate::league::model::season::base_points_of(rules, t.outs, t.hand_outs);
            Some(TotalsEntry {
                player: name.to_string(),
                table: table_of(name),
                rounds: t.rounds,
                outs: t.outs,
                hand_outs: t.hand_outs,
                julen: t.julen,
                points: (t.row_points != base).then_some(t.row_points),
                lost: t.lost,
            })
        })
        .collect()
}

/// `season` as a season file whose every night is recorded as totals ([`night_totals`]): the
/// same players, fees, fines and rules; a draw only where it says more than the totals rows (a
/// drawn player without a round). `Season::from_file` of it gives the same standings, payouts,
/// careers and curves as `season`.
pub fn as_totals(season: &Season) -> SeasonFile {
    let mut file = season.to_file();
    for (entry, night) in file.nights.iter_mut().zip(&season.nights) {
        if night.recorded_as_totals() {
            continue;
        }
        let totals = night_totals(season, night);
        let derived: Vec<(&str, u32)> = totals
            .iter()
            .map(|t| (t.player.as_str(), t.table))
            .collect();
        let drawn: Vec<(&str, u32)> = night
            .draw
            .iter()
            .map(|s| (s.player.as_str(), s.table))
            .collect();
        entry.draw = (derived != drawn).then(|| night.draw.clone());
        entry.tables.clear();
        entry.totals = totals;
    }
    file
}

#[cfg(test)]
mod tests;
