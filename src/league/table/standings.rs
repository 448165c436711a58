//! The league table (league.md §2–§4, §7; interchange.md standings JSON): counted Outs with Julen
//! conversion, Teilnahmen, D.Wert as an exact fraction, Liga as of a date, ranks, lost and paid rounds.

use std::cmp::Ordering;

use chrono::NaiveDate;
use serde::Serialize;

use super::running::{deadline, totals_up_to};
use crate::league::model::rules::Liga;
use crate::league::model::season::{PlayerTotals, Season};

/// A D.Wert as an exact fraction `num / den` = counted Outs × rounds_per_night / rounds (league.md §3).
/// `den` > 0. Ordered exactly by integer cross-multiplication.
#[derive(Debug, Clone, Copy, Serialize)]
pub struct DWert {
    /// counted Outs × rounds_per_night.
    pub num: i64,
    /// rounds (> 0).
    pub den: i64,
}

impl DWert {
    /// The D.Wert of `counted_outs` in `rounds` rounds; `None` for 0 rounds (no D.Wert).
    pub fn new(counted_outs: i64, rounds: u32, rounds_per_night: u32) -> Option<DWert> {
        (rounds > 0).then(|| DWert {
            num: counted_outs * i64::from(rounds_per_night),
            den: i64::from(rounds),
        })
    }

    /// The value as a float, computed as `num as f64 / den as f64` (the JSON `d_wert`).
    pub fn as_f64(self) -> f64 {
        self.num as f64 / self.den as f64
    }
}

impl PartialEq for DWert {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}
impl Eq for DWert {}
impl PartialOrd for DWert {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for DWert {
    fn cmp(&self, other: &Self) -> Ordering {
        (i128::from(self.num) * i128::from(other.den))
            .cmp(&(i128::from(other.num) * i128::from(self.den)))
    }
}

/// The league table as of a date (interchange.md standings JSON).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Standings {
    /// The season's year.
    pub season: i32,
    /// The as-of date (the last night's date by default); `None` for a season without nights.
    pub as_of: Option<NaiveDate>,
    /// Rows grouped by Liga (1. Liga, 2. Liga, Kreisliga), then by rank, then by name.
    pub rows: Vec<StandingRow>,
}

/// One player's line of the table (interchange.md). Counts are rounds or Outs; `d_wert` and
/// `teilnahmen` are floats for JSON, the exact D.Wert is `d_wert_num / d_wert_den`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct StandingRow {
    /// The player's Liga as of the date.
    pub liga: Liga,
    /// Rank within the Liga (shared ranks 1, 2, 2, 4).
    pub rank: u32,
    /// The player's name.
    pub player: String,
    /// Result rows (rounds played) up to the date.
    pub rounds: u32,
    /// rounds / rounds_per_night.
    pub teilnahmen: f64,
    /// Schock Outs thrown, of every kind.
    pub thrown_outs: u32,
    /// Of those, Hand-Outs.
    pub hand_outs: u32,
    /// Julen thrown.
    pub julen: u32,
    /// Counted Outs from Julen (floor of the running total ÷ julen_per_out).
    pub julen_outs: u32,
    /// Julen not yet converted (0..julen_per_out).
    pub open_julen: u32,
    /// Counted Outs: Σ row values (Hand-Out points, Joker) + julen_outs.
    pub counted_outs: i64,
    /// counted_outs × rounds_per_night / rounds, as a float.
    pub d_wert: f64,
    /// Rounds lost.
    pub lost_rounds: u32,
    /// Rounds paid (per night at most `sozialfall_after`).
    pub paid_rounds: u32,
    /// Numerator of the exact D.Wert (counted_outs × rounds_per_night).
    #[serde(skip)]
    pub d_wert_num: i64,
    /// Denominator of the exact D.Wert (rounds).
    #[serde(skip)]
    pub d_wert_den: i64,
}

impl StandingRow {
    /// The exact D.Wert of the row.
    pub fn d_wert_exact(&self) -> DWert {
        DWert {
            num: self.d_wert_num,
            den: self.d_wert_den.max(1),
        }
    }
}

/// The Liga of a player with `totals` as of `as_of` (league.md §4).
pub(crate) fn liga_of(
    season: &Season,
    player: &str,
    totals: &PlayerTotals,
    as_of: NaiveDate,
) -> Liga {
    let rules = &season.rules;
    if totals.rounds < rules.kreisliga_below_rounds {
        return Liga::Kreisliga;
    }
    let paid = season
        .player(player)
        .and_then(|p| p.fee_paid_on)
        .is_some_and(|d| d <= as_of);
    if paid
        && (as_of <= deadline(season) || totals.rounds_at_deadline >= rules.min_rounds_first_liga)
    {
        Liga::First
    } else {
        Liga::Second
    }
}

/// Checks an as-of date asked for the table of season `year` (interchange.md: `as_of` defaults to
/// the last night; a date in another year is an input error). `Err` is the German message.
pub fn check_as_of(year: i32, as_of: NaiveDate) -> Result<(), String> {
    use chrono::Datelike;
    if as_of.year() == year {
        Ok(())
    } else {
        Err(format!(
            "as_of: {} liegt nicht in der Saison {year} (Stichtag zwischen {year}-01-01 und {year}-12-31)",
            as_of.format("%Y-%m-%d")
        ))
    }
}

/// The league table as of `as_of` (league.md §2–§4, §7): `None` = the last night with results
/// ([`Season::default_as_of`]; a night without results never moves it).
/// Lists every player with at least one round on nights up to that date, grouped by Liga, ranked by
/// D.Wert (exact) descending then rounds descending; equal players share the rank and are listed by name.
pub fn standings(season: &Season, as_of: Option<NaiveDate>) -> Standings {
    if season.is_endstand() {
        return endstand_table(season);
    }
    let Some(as_of) = as_of.or_else(|| season.default_as_of(None)) else {
        return Standings {
            season: season.year,
            as_of: None,
            rows: Vec::new(),
        };
    };
    let rules = &season.rules;
    let rpn = rules.rounds_per_night;
    let mut rows: Vec<StandingRow> = totals_up_to(season, as_of)
        .into_iter()
        .filter(|(_, t)| t.rounds > 0)
        .map(|(name, t)| {
            let counted = t.counted_outs(rules);
            let dw = DWert::new(counted, t.rounds, rpn).unwrap_or(DWert { num: 0, den: 1 });
            StandingRow {
                liga: liga_of(season, &name, &t, as_of),
                rank: 0,
                rounds: t.rounds,
                teilnahmen: f64::from(t.rounds) / f64::from(rpn),
                thrown_outs: t.thrown_outs,
                hand_outs: t.hand_outs,
                julen: t.julen,
                julen_outs: t.julen_outs(rules),
                open_julen: t.open_julen(rules),
                counted_outs: counted,
                d_wert: dw.as_f64(),
                lost_rounds: t.lost_rounds,
                paid_rounds: t.paid_rounds,
                d_wert_num: dw.num,
                d_wert_den: dw.den,
                player: name,
            }
        })
        .collect();
    rank(&mut rows);
    Standings {
        season: season.year,
        as_of: Some(as_of),
        rows,
    }
}

/// The final table of a season kept as its Endstand (issue 24.3): its lines as given, ranked like
/// any table (league.md §3); `as_of` is `None` (there are no nights), whatever date is asked.
fn endstand_table(season: &Season) -> Standings {
    let rules = &season.rules;
    let rpn = rules.rounds_per_night;
    let mut rows: Vec<StandingRow> = season
        .endstand
        .iter()
        .map(|e| {
            let dw = DWert::new(e.counted_outs, e.rounds, rpn).unwrap_or(DWert { num: 0, den: 1 });
            StandingRow {
                liga: e.liga,
                rank: 0,
                player: e.player.clone(),
                rounds: e.rounds,
                teilnahmen: f64::from(e.rounds) / f64::from(rpn),
                thrown_outs: e.thrown_outs,
                hand_outs: e.hand_outs,
                julen: e.julen,
                julen_outs: e.julen / rules.julen_per_out.max(1),
                open_julen: e.julen % rules.julen_per_out.max(1),
                counted_outs: e.counted_outs,
                d_wert: dw.as_f64(),
                lost_rounds: e.lost_rounds,
                paid_rounds: e.paid_rounds,
                d_wert_num: dw.num,
                d_wert_den: dw.den,
            }
        })
        .collect();
    rank(&mut rows);
    Standings {
        season: season.year,
        as_of: None,
        rows,
    }
}

/// Sorts `rows` by Liga, D.Wert (exact) descending, rounds descending, name, and gives the ranks
/// within each Liga (equal D.Wert and rounds share the rank: 1, 2, 2, 4; league.md §3).
fn rank(rows: &mut [StandingRow]) {
    let key = |r: &StandingRow| {
        (
            r.liga,
            std::cmp::Reverse(r.d_wert_exact()),
            std::cmp::Reverse(r.rounds),
        )
    };
    rows.sort_by(|a, b| key(a).cmp(&key(b)).then_with(|| a.player.cmp(&b.player)));
    let mut place_in_liga = 0;
    for i in 0..rows.len() {
        let same_liga = i > 0 && rows[i - 1].liga == rows[i].liga;
        place_in_liga = if same_liga { place_in_liga + 1 } else { 1 };
        rows[i].rank = if same_liga && key(&rows[i - 1]) == key(&rows[i]) {
            rows[i - 1].rank
        } else {
            place_in_liga
        };
    }
}

#[cfg(test)]
mod tests;
