//! The players' table with movement and Liga-Fortschritt (league.md §3, §4, §5): each listed player's
//! rank and Liga against the previous night (▲2 / ▼1 / – / neu, auf-/abgestiegen) and how far he is
//! from the next step: leaving the Kreisliga, the 1. Liga's rounds by the deadline, the Jahresbeitrag
//! he would pay today, and the counted Outs that would put him above the player ranked above him.
//! Pure code; the public JSON contract of `GET /api/v1/seasons/{season}/players[?as_of=DATE]`.

use std::cmp::Ordering;

use chrono::{Datelike, NaiveDate};
use serde::Serialize;

use super::running::deadline;
use super::standings::{standings, StandingRow, Standings};
use crate::league::model::rules::fee_cents;
use crate::league::model::rules::Liga;
use crate::league::model::season::Season;

/// How a player's place changed since the previous night (league.md §3, §4).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Movement {
    /// Not listed as of the previous night (or there was none): „neu“.
    New,
    /// Moved to a better Liga (Kreisliga → 2. Liga, 2. Liga → 1. Liga, …): „aufgestiegen“.
    Promoted,
    /// Moved to a worse Liga (e.g. 1. Liga → 2. Liga after the deadline): „abgestiegen“.
    Relegated,
    /// Same Liga, a better rank by `places` ranks: „▲places“.
    Up {
        /// Ranks gained (previous rank − rank, ≥ 1).
        places: u32,
    },
    /// Same Liga, a worse rank by `places` ranks: „▼places“.
    Down {
        /// Ranks lost (rank − previous rank, ≥ 1).
        places: u32,
    },
    /// Same Liga, same rank: „–“.
    Same,
}

impl Movement {
    /// The movement from `previous` (Liga, rank), `None` when not listed then, to `now` (league.md §4).
    pub fn between(previous: Option<(Liga, u32)>, now: (Liga, u32)) -> Movement {
        let Some((prev_liga, prev_rank)) = previous else {
            return Movement::New;
        };
        let (liga, rank) = now;
        match liga.cmp(&prev_liga) {
            Ordering::Less => Movement::Promoted,
            Ordering::Greater => Movement::Relegated,
            Ordering::Equal => match rank.cmp(&prev_rank) {
                Ordering::Less => Movement::Up {
                    places: prev_rank - rank,
                },
                Ordering::Greater => Movement::Down {
                    places: rank - prev_rank,
                },
                Ordering::Equal => Movement::Same,
            },
        }
    }

    /// The German label for a table cell: „neu“, „aufgestiegen“, „abgestiegen“, „▲2“, „▼1“, „–“.
    pub fn label(self) -> String {
        match self {
            Movement::New => "neu".to_string(),
            Movement::Promoted => "aufgestiegen".to_string(),
            Movement::Relegated => "abgestiegen".to_string(),
            Movement::Up { places } => format!("▲{places}"),
            Movement::Down { places } => format!("▼{places}"),
            Movement::Same => "–".to_string(),
        }
    }
}

/// Whether `season` is over on the club's `today`: kept as its Endstand, or its year has ended
/// (no night of it can be played any more). Then „Was fehlt noch?“ speaks in the past tense
/// ([`missing`] and the table's badge with `over`).
pub fn is_over(season: &Season, today: NaiveDate) -> bool {
    season.is_endstand() || today.year() > season.year
}

/// The as-of date a table is shown for (league.md §4): `as_of`, or the last night with results
/// when `None` (as [`standings`] reads it, [`Season::default_as_of`]); `None` for a season without
/// results and no date asked.
pub fn resolve_as_of(season: &Season, as_of: Option<NaiveDate>) -> Option<NaiveDate> {
    as_of.or_else(|| season.default_as_of(None))
}

/// The date of the season's last night strictly before the as-of night, the as-of night being the
/// last night on or before `as_of` (`None` = the season's last night). `None` when the as-of night
/// is the season's first night or there is no as-of night (league.md §4: the table as of a night).
pub fn previous_night(season: &Season, as_of: Option<NaiveDate>) -> Option<NaiveDate> {
    let as_of = resolve_as_of(season, as_of)?;
    let as_of_night = season.nights.iter().rev().find(|n| n.date <= as_of)?.date;
    season
        .nights
        .iter()
        .rev()
        .find(|n| n.date < as_of_night)
        .map(|n| n.date)
}

/// One listed player's place as of a date and as of the previous night (league.md §3, §4).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct MovementRow {
    /// The player's name.
    pub player: String,
    /// His Liga as of the date.
    pub liga: Liga,
    /// His rank in that Liga as of the date (shared ranks 1, 2, 2, 4).
    pub rank: u32,
    /// His Liga as of the previous night, `None` when he was not listed then.
    pub previous_liga: Option<Liga>,
    /// His rank (in `previous_liga`) as of the previous night, `None` when he was not listed then.
    pub previous_rank: Option<u32>,
    /// The change between the two.
    pub movement: Movement,
}

/// Each listed player's rank and Liga as of `as_of` (`None` = the last night) next to his rank and
/// Liga as of the season's last night before the as-of night (league.md §3, §4), in standings order
/// (1. Liga, 2. Liga, Kreisliga; by rank, then name). Empty when nobody is listed as of the date.
pub fn movements(season: &Season, as_of: Option<NaiveDate>) -> Vec<MovementRow> {
    let Some(as_of) = resolve_as_of(season, as_of) else {
        return Vec::new();
    };
    let now = standings(season, Some(as_of));
    let before = previous_night(season, Some(as_of)).map(|d| standings(season, Some(d)));
    movement_rows(&now, before.as_ref())
}

/// The rows of `now` with their place in `before` (the table as of the previous night, if any).
fn movement_rows(now: &Standings, before: Option<&Standings>) -> Vec<MovementRow> {
    now.rows
        .iter()
        .map(|row| {
            let previous = before
                .and_then(|t| t.rows.iter().find(|r| r.player == row.player))
                .map(|r| (r.liga, r.rank));
            MovementRow {
                player: row.player.clone(),
                liga: row.liga,
                rank: row.rank,
                previous_liga: previous.map(|p| p.0),
                previous_rank: previous.map(|p| p.1),
                movement: Movement::between(previous, (row.liga, row.rank)),
            }
        })
        .collect()
}

/// The Jahresbeitrag in cents `player` would pay for a payment dated `day` (league.md §5): `None`
/// when he has one dated on or before `day`, or none is accepted that day any more (another year,
/// after the last join month). September 2026 under the defaults: 2.100; October: `None`.
pub fn fee_now(season: &Season, player: &str, day: NaiveDate) -> Option<i64> {
    let paid = season
        .player(player)
        .and_then(|p| p.fee_paid_on)
        .is_some_and(|d| d <= day);
    if paid {
        return None;
    }
    fee_cents(&season.rules, season.year, day).ok()
}

/// The least number k ≥ 1 of further counted Outs that, with the same rounds, put a player with
/// `counted_outs` in `rounds` strictly above one with `other_counted_outs` in `other_rounds`
/// (league.md §3: D.Wert descending, then rounds descending; equal in both is the same rank, not
/// above). Exact integers: the smallest k with (c + k)·r_other > c_other·r, or (c + k)·r_other =
/// c_other·r when he has more rounds. `None` when either has 0 rounds (no D.Wert). Counted Outs.
pub fn outs_to_pass(
    counted_outs: i64,
    rounds: u32,
    other_counted_outs: i64,
    other_rounds: u32,
) -> Option<i64> {
    if rounds == 0 || other_rounds == 0 {
        return None;
    }
    let (r, r_other) = (i128::from(rounds), i128::from(other_rounds));
    // Needed: k·r_other > gap (or ≥ gap with more rounds), gap = c_other·r − c·r_other.
    let gap = i128::from(other_counted_outs) * r - i128::from(counted_outs) * r_other;
    let k = if rounds > other_rounds {
        // ceil(gap / r_other): an equal D.Wert with more rounds already ranks above.
        -(-gap).div_euclid(r_other)
    } else {
        gap.div_euclid(r_other) + 1
    };
    Some(i64::try_from(k.max(1)).unwrap_or(i64::MAX))
}

/// The players' table as of a date with movement and Liga-Fortschritt (league.md §3, §4, §5).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PlayersProgress {
    /// The season's year.
    pub season: i32,
    /// The as-of date (the last night's date by default); `None` for a season without nights.
    pub as_of: Option<NaiveDate>,
    /// The previous night the movement compares with, `None` when there is none.
    pub previous: Option<NaiveDate>,
    /// The season's 1. Liga deadline (league.md §4).
    pub deadline: NaiveDate,
    /// One row per listed player, in standings order (1. Liga, 2. Liga, Kreisliga; rank; name).
    pub rows: Vec<ProgressRow>,
}

/// One listed player's line: place, movement and Liga-Fortschritt (league.md §3–§5; public JSON
/// contract of `GET /api/v1/seasons/{season}/players`). Counts are rounds, money cents.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ProgressRow {
    /// The player's name.
    pub player: String,
    /// His Liga as of the date (league.md §4).
    pub liga: Liga,
    /// His rank in that Liga (shared ranks 1, 2, 2, 4; league.md §3).
    pub rank: u32,
    /// His rounds up to the date.
    pub rounds: u32,
    /// His counted Outs up to the date (league.md §2).
    pub counted_outs: i64,
    /// His D.Wert as a float (counted Outs × rounds_per_night / rounds; league.md §3).
    pub d_wert: f64,
    /// His rank as of the previous night, `None` when not listed then.
    pub previous_rank: Option<u32>,
    /// His Liga as of the previous night, `None` when not listed then.
    pub previous_liga: Option<Liga>,
    /// The change since the previous night.
    pub movement: Movement,
    /// Rounds still needed to leave the Kreisliga: max(0, kreisliga_below_rounds − rounds).
    pub rounds_to_leave_kreisliga: u32,
    /// His rounds on nights up to and including the deadline (and the as-of date).
    pub rounds_at_deadline: u32,
    /// Rounds still needed by the deadline for the 1. Liga: max(0, min_rounds_first_liga −
    /// rounds_at_deadline).
    pub rounds_to_first_liga: u32,
    /// `None` while the deadline has not passed (as-of ≤ deadline); after it whether
    /// rounds_at_deadline ≥ min_rounds_first_liga (paid or not).
    pub first_liga_reached: Option<bool>,
    /// The Jahresbeitrag in cents for a payment dated as-of when he has none dated on or before
    /// as-of and one is still accepted (as-of in the season year, month ≤ last_join_month), else
    /// `None` (league.md §5).
    pub fee_cents_now: Option<i64>,
    /// The least number of further counted Outs (same rounds) that would rank him strictly above the
    /// player listed one rank above him in his Liga; `None` for rank 1 (league.md §3).
    pub outs_to_pass: Option<i64>,
}

/// The players' table as of `as_of` (`None` = the season's last night) with each listed player's
/// movement since the previous night and his Liga-Fortschritt (league.md §3, §4, §5); see
/// [`ProgressRow`] for every field. The caller checks `as_of` with `check_as_of` first.
pub fn players_progress(season: &Season, as_of: Option<NaiveDate>) -> PlayersProgress {
    let rules = &season.rules;
    let deadline = deadline(season);
    let Some(as_of) = resolve_as_of(season, as_of) else {
        return PlayersProgress {
            season: season.year,
            as_of: None,
            previous: None,
            deadline,
            rows: Vec::new(),
        };
    };
    let table = standings(season, Some(as_of));
    let at_deadline = standings(season, Some(as_of.min(deadline)));
    let previous = previous_night(season, Some(as_of));
    let before = previous.map(|d| standings(season, Some(d)));
    let moves = movement_rows(&table, before.as_ref());
    let rows = table
        .rows
        .iter()
        .map(|row| {
            let rounds_at_deadline = at_deadline
                .rows
                .iter()
                .find(|r| r.player == row.player)
                .map_or(0, |r| r.rounds);
            let first_liga_reached =
                (as_of > deadline).then_some(rounds_at_deadline >= rules.min_rounds_first_liga);
            let fee_cents_now = fee_now(season, &row.player, as_of);
            let movement = moves.iter().find(|m| m.player == row.player);
            ProgressRow {
                player: row.player.clone(),
                liga: row.liga,
                rank: row.rank,
                rounds: row.rounds,
                counted_outs: row.counted_outs,
                d_wert: row.d_wert,
                previous_rank: movement.and_then(|m| m.previous_rank),
                previous_liga: movement.and_then(|m| m.previous_liga),
                movement: movement.map_or(Movement::New, |m| m.movement),
                rounds_to_leave_kreisliga: rules.kreisliga_below_rounds.saturating_sub(row.rounds),
                rounds_at_deadline,
                rounds_to_first_liga: rules
                    .min_rounds_first_liga
                    .saturating_sub(rounds_at_deadline),
                first_liga_reached,
                fee_cents_now,
                outs_to_pass: one_rank_above(&table.rows, row).and_then(|above| {
                    outs_to_pass(
                        row.counted_outs,
                        row.rounds,
                        above.counted_outs,
                        above.rounds,
                    )
                }),
            }
        })
        .collect();
    PlayersProgress {
        season: season.year,
        as_of: Some(as_of),
        previous,
        deadline,
        rows,
    }
}

/// The row listed one rank above `row` in its Liga: of the rows of the same Liga with a better rank,
/// one with the worst of those ranks (tied rows share D.Wert and rounds). `None` for rank 1.
fn one_rank_above<'a>(rows: &'a [StandingRow], row: &StandingRow) -> Option<&'a StandingRow> {
    rows.iter()
        .filter(|r| r.liga == row.liga && r.rank < row.rank)
        .max_by_key(|r| r.rank)
}

#[cfg(test)]
mod tests;

/// „Was fehlt noch?“ for one player (league.md §3–§5) as German sentences, worded without a
/// pronoun (issue 21.10: the page speaks of Gabi as of Bernd): the Kreisliga, the rounds for
/// the 1. Liga by `deadline`, the Jahresbeitrag (its price only when `money` may be shown;
/// `paid`: the fee is booked), and the counted Outs to pass `above` (the names ranked one place
/// above, at `above_rank`). For a season that is `over` ([`is_over`]) what was missed, in the past
/// tense, and nothing still to reach (no Outs to pass, no fee to pay this month).
pub fn missing(
    p: &ProgressRow,
    deadline: NaiveDate,
    paid: bool,
    money: bool,
    above: &[&str],
    above_rank: u32,
    over: bool,
) -> Vec<String> {
    if over {
        return missed(p, deadline, paid);
    }
    let mut out = Vec::new();
    let rounds = |n: u32| {
        if n == 1 {
            "1 Runde".to_string()
        } else {
            format!("{n} Runden")
        }
    };
    let by = crate::league::model::format::date_de(deadline);
    if p.rounds_to_leave_kreisliga > 0 {
        out.push(format!(
            "Noch {} bis zum Ende der Kreisliga.",
            rounds(p.rounds_to_leave_kreisliga)
        ));
    }
    match p.first_liga_reached {
        None if p.rounds_to_first_liga > 0 => out.push(format!(
            "Für die 1. Liga fehlen bis zum Stichtag {by} noch {} (bisher {}).",
            rounds(p.rounds_to_first_liga),
            p.rounds_at_deadline
        )),
        None => out.push(format!(
            "Die Runden für die 1. Liga bis zum Stichtag {by} sind beisammen."
        )),
        Some(true) => out.push(format!(
            "Rundenziel für die 1. Liga bis {by} erreicht ({} Runden).",
            p.rounds_at_deadline
        )),
        Some(false) => out.push(format!(
            "Rundenziel für die 1. Liga bis {by} verpasst: es fehlten {}.",
            rounds(p.rounds_to_first_liga)
        )),
    }
    if !paid {
        match p.fee_cents_now {
            Some(c) if money => out.push(format!(
                "Jahresbeitrag noch nicht bezahlt: diesen Monat {} (die 1. Liga setzt ihn voraus).",
                crate::league::model::format::format_cents(c)
            )),
            Some(_) => out.push(
                "Jahresbeitrag noch nicht bezahlt (die 1. Liga setzt ihn voraus).".to_string(),
            ),
            None => out.push(
                "Jahresbeitrag nicht bezahlt; in dieser Saison geht das nicht mehr (bis Ende September)."
                    .to_string(),
            ),
        }
    }
    match p.outs_to_pass {
        Some(k) => out.push(format!(
            "Mit {k} gewerteten {} mehr (bei gleichen Runden): Platz {above_rank}{}.",
            if k == 1 { "Out" } else { "Outs" },
            if above.is_empty() {
                String::new()
            } else {
                format!(", vor {}", above.join(", "))
            },
        )),
        None => out.push(format!("An der Spitze der {}.", p.liga.label())),
    }
    out
}

/// [`missing`] of a season that is over: what was missed, in the past tense.
fn missed(p: &ProgressRow, deadline: NaiveDate, paid: bool) -> Vec<String> {
    // „fehlte 1 Runde“, „fehlten 70 Runden“.
    let fehlten = |n: u32| {
        if n == 1 {
            "fehlte 1 Runde".to_string()
        } else {
            format!("fehlten {n} Runden")
        }
    };
    let by = crate::league::model::format::date_de(deadline);
    let mut out = Vec::new();
    if p.rounds_to_leave_kreisliga > 0 {
        out.push(format!(
            "Bis zum Ende der Kreisliga {}.",
            fehlten(p.rounds_to_leave_kreisliga)
        ));
    }
    match p.first_liga_reached {
        Some(true) => out.push(format!(
            "Rundenziel für die 1. Liga bis {by} erreicht ({} Runden).",
            p.rounds_at_deadline
        )),
        None if p.rounds_to_first_liga == 0 => out.push(format!(
            "Rundenziel für die 1. Liga bis {by} erreicht ({} Runden).",
            p.rounds_at_deadline
        )),
        _ => out.push(format!(
            "Rundenziel für die 1. Liga bis {by} verpasst: es {}.",
            fehlten(p.rounds_to_first_liga)
        )),
    }
    if !paid {
        out.push("Jahresbeitrag nicht bezahlt.".to_string());
    }
    out
}
