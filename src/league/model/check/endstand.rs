//! The check of a season kept as its Endstand (issue 24.3, docs/saisondatei.md): its final table,
//! line by line.

use std::collections::HashMap;

use super::players::known;
use crate::league::model::error::{EntryError, Location};
use crate::league::model::file::EndstandEntry;
use crate::league::model::rules::{Liga, SeasonRules};
use crate::league::model::season::{EndstandRow, MAX_JULEN_PER_ROUND};

/// Checks the final table of a season kept as its Endstand (issue 24.3, docs/saisondatei.md):
/// players of the season, each once, `1 ≤ rounds ≤ 366 × rounds_per_night`, `paid ≤ lost ≤
/// rounds`, `hand_outs ≤ thrown_outs ≤ max Outs per round × rounds`, counted Outs at least the
/// Outs of the Julen and at most what the rounds allow, and a Liga that fits the rounds (under
/// `kreisliga_below_rounds` the Kreisliga, else not). Rows in file order.
pub(super) fn check_endstand(
    rules: &SeasonRules,
    names: &HashMap<&str, &str>,
    entries: &[EndstandEntry],
) -> Result<Vec<EndstandRow>, EntryError> {
    let mut rows: Vec<EndstandRow> = Vec::with_capacity(entries.len());
    let max_rounds = 366 * rules.rounds_per_night;
    for e in entries {
        let at0 = Location::default().field("endstand");
        let name = known(names, &e.player, at0)?;
        let at = Location::default().player(name);
        let refuse = |field: &str, why: String| Err(EntryError::new(at.clone().field(field), why));
        if rows.iter().any(|r| r.player == name) {
            return refuse("player", "steht zweimal im Endstand".into());
        }
        if !(1..=max_rounds).contains(&e.rounds) {
            return refuse(
                "rounds",
                format!(
                    "{} Runden: es müssen zwischen 1 und {max_rounds} sein",
                    e.rounds
                ),
            );
        }
        let lost = e.lost_rounds.unwrap_or(e.paid_rounds);
        if e.paid_rounds > lost {
            return refuse(
                "paid_rounds",
                format!(
                    "mehr bezahlte Runden ({}) als verlorene ({lost})",
                    e.paid_rounds
                ),
            );
        }
        if lost > e.rounds {
            return refuse(
                "lost_rounds",
                format!(
                    "mehr verlorene Runden ({lost}) als gespielte ({})",
                    e.rounds
                ),
            );
        }
        if e.hand_outs > e.thrown_outs {
            return refuse(
                "hand_outs",
                format!(
                    "mehr Hand-Outs ({}) als Outs ({})",
                    e.hand_outs, e.thrown_outs
                ),
            );
        }
        if e.thrown_outs > 3 * e.rounds || e.julen > MAX_JULEN_PER_ROUND * e.rounds {
            return refuse(
                "thrown_outs",
                format!("mehr Outs oder Julen, als {} Runden zulassen", e.rounds),
            );
        }
        let julen_outs = i64::from(e.julen / rules.julen_per_out.max(1));
        let top = rules.out_points.max(rules.hand_out_points)
            * rules.joker_multiplier.unwrap_or(1)
            * 3
            * i64::from(e.rounds)
            + julen_outs;
        if e.counted_outs < julen_outs || e.counted_outs > top {
            return refuse(
                "counted_outs",
                format!(
                    "{} gewertete Outs: bei {} Runden und {} Julen zwischen {julen_outs} und {top}",
                    e.counted_outs, e.rounds, e.julen
                ),
            );
        }
        let kreisliga = e.rounds < rules.kreisliga_below_rounds;
        if kreisliga != (e.liga == Liga::Kreisliga) {
            let k = rules.kreisliga_below_rounds;
            let why = if kreisliga {
                format!(
                    "mit {} Runden (unter {k}) steht ein Spieler in der Kreisliga",
                    e.rounds
                )
            } else {
                format!(
                    "mit {} Runden (ab {k}) steht ein Spieler nicht in der Kreisliga",
                    e.rounds
                )
            };
            return refuse("liga", why);
        }
        rows.push(EndstandRow {
            player: name.to_string(),
            liga: e.liga,
            rounds: e.rounds,
            counted_outs: e.counted_outs,
            paid_rounds: e.paid_rounds,
            lost_rounds: lost,
            thrown_outs: e.thrown_outs,
            hand_outs: e.hand_outs,
            julen: e.julen,
        });
    }
    Ok(rows)
}
