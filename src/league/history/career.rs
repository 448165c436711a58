//! Careers across seasons (league.md §2–§4, §7, §8): each player's final table line and payout per
//! season, the all-time table (counted Outs ÷ Teilnahmen over all seasons) and the Ehrentafel
//! (Schocker des Jahres, Lucky Looser and paid places per year). A player is the same across seasons
//! when his names have the same [`name_key`] (case-insensitive); he is shown with the spelling of his
//! latest season. Money is i64 cents; D.Werte are exact fractions.

use std::cmp::{Ordering, Reverse};
use std::collections::BTreeMap;

use chrono::NaiveDate;
use serde::Serialize;

use crate::league::model::names::name_key;
use crate::league::model::rules::Liga;
use crate::league::model::season::Season;
use crate::league::money::payouts::Payouts;
use crate::league::table::standings::{standings, DWert, StandingRow, Standings};

/// Rounds a player needs over all seasons to be listed in the all-time table (ten Teilnahmen, league.md §3).
pub const ALL_TIME_MIN_ROUNDS: u32 = 100;

/// One season of a player's career: his line of the final table after the season's last night
/// (league.md §2–§4, §7) and what he received at the year-end payout in cents (§8).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CareerSeason {
    /// The season's year.
    pub season: i32,
    /// His Liga after the last night (league.md §4).
    pub liga: Liga,
    /// His rank in that Liga (league.md §3).
    pub rank: u32,
    /// Rounds played.
    pub rounds: u32,
    /// Counted Outs (league.md §2).
    pub counted_outs: i64,
    /// D.Wert as a float (counted Outs × rounds_per_night / rounds).
    pub d_wert: f64,
    /// The exact D.Wert.
    #[serde(skip)]
    pub d_wert_exact: DWert,
    /// Schock Outs thrown, of every kind.
    pub thrown_outs: u32,
    /// Of those, Hand-Outs.
    pub hand_outs: u32,
    /// Julen thrown.
    pub julen: u32,
    /// Rounds paid (league.md §7).
    pub paid_rounds: u32,
    /// Received for his place(s) in the 1. Liga, cents (league.md §8).
    pub place_cents: i64,
    /// Received as Lucky Looser, cents (league.md §7).
    pub lucky_looser_cents: i64,
    /// Received in all: place_cents + lucky_looser_cents.
    pub payout_cents: i64,
}

/// A player's totals over the seasons of his career (league.md §3 for the D.Wert; money in cents, §8).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CareerTotals {
    /// Seasons with at least one round.
    pub seasons: u32,
    /// Rounds over all seasons.
    pub rounds: u32,
    /// Counted Outs over all seasons.
    pub counted_outs: i64,
    /// All-time D.Wert as a float: counted Outs ÷ Teilnahmen of all seasons.
    pub d_wert: f64,
    /// The exact all-time D.Wert (see [`all_time_d_wert`]).
    #[serde(skip)]
    pub d_wert_exact: DWert,
    /// Schock Outs thrown.
    pub thrown_outs: u32,
    /// Hand-Outs thrown.
    pub hand_outs: u32,
    /// Julen thrown.
    pub julen: u32,
    /// Rounds paid.
    pub paid_rounds: u32,
    /// Received at payouts, cents.
    pub payout_cents: i64,
}

/// A player's career (league.md §2–§4, §7, §8): his seasons in year order and their totals.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Career {
    /// The player's name (spelling of his latest season).
    pub player: String,
    /// The seasons he has a round in, by year.
    pub seasons: Vec<CareerSeason>,
    /// Totals over those seasons.
    pub totals: CareerTotals,
}

/// The all-time D.Wert of a player's seasons `(counted Outs, rounds, rounds_per_night)`: Σ counted
/// Outs ÷ Σ Teilnahmen with Teilnahmen = rounds ÷ rounds_per_night per season (league.md §3), as an
/// exact fraction. With the same rounds_per_night n everywhere it is Σ counted × n / Σ rounds (the
/// shape of a season's D.Wert). `None` without rounds (no D.Wert).
pub fn all_time_d_wert(parts: &[(i64, u32, u32)]) -> Option<DWert> {
    // Teilnahmen = Σ rounds·(L / n) / L with L the lcm of the seasons' rounds_per_night.
    let l = parts
        .iter()
        .filter(|p| p.1 > 0)
        .fold(1i128, |acc, p| lcm(acc, i128::from(p.2.max(1))));
    let counted: i128 = parts.iter().map(|p| i128::from(p.0)).sum();
    let scaled_rounds: i128 = parts
        .iter()
        .map(|p| i128::from(p.1) * (l / i128::from(p.2.max(1))))
        .sum();
    if scaled_rounds == 0 {
        return None;
    }
    let (mut num, mut den) = (counted * l, scaled_rounds);
    if i64::try_from(num).is_err() || i64::try_from(den).is_err() {
        let g = gcd(num, den).max(1);
        (num, den) = (num / g, den / g);
    }
    Some(DWert {
        num: i64::try_from(num).unwrap_or(i64::MAX),
        den: i64::try_from(den).unwrap_or(i64::MAX),
    })
}

fn gcd(mut a: i128, mut b: i128) -> i128 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a.abs()
}

fn lcm(a: i128, b: i128) -> i128 {
    a / gcd(a, b).max(1) * b
}

/// Seasons sorted by year.
fn by_year(seasons: &[Season]) -> Vec<&Season> {
    let mut sorted: Vec<&Season> = seasons.iter().collect();
    sorted.sort_by_key(|s| s.year);
    sorted
}

/// What `player` (exact name of that season) received in `p`: (place cents, Lucky Looser cents).
fn received(p: Option<&Payouts>, player: &str) -> (i64, i64) {
    let Some(p) = p else { return (0, 0) };
    let place: i64 = p
        .places
        .iter()
        .flat_map(|x| x.players.iter().zip(&x.cents))
        .filter(|(n, _)| *n == player)
        .map(|(_, c)| *c)
        .sum();
    let lucky: i64 = p
        .lucky_looser
        .players
        .iter()
        .zip(&p.lucky_looser.cents)
        .filter(|(n, _)| *n == player)
        .map(|(_, c)| *c)
        .sum();
    (place, lucky)
}

fn career_season(year: i32, row: &StandingRow, p: Option<&Payouts>) -> CareerSeason {
    let (place_cents, lucky_looser_cents) = received(p, &row.player);
    CareerSeason {
        season: year,
        liga: row.liga,
        rank: row.rank,
        rounds: row.rounds,
        counted_outs: row.counted_outs,
        d_wert: row.d_wert,
        d_wert_exact: row.d_wert_exact(),
        thrown_outs: row.thrown_outs,
        hand_outs: row.hand_outs,
        julen: row.julen,
        paid_rounds: row.paid_rounds,
        place_cents,
        lucky_looser_cents,
        payout_cents: place_cents + lucky_looser_cents,
    }
}

/// One player's line of one season in his career: his name's [`name_key`], his spelling that
/// season, the season's line and its `rounds_per_night` (for the all-time D.Wert, league.md §3).
#[derive(Debug, Clone, PartialEq)]
pub struct CareerLine {
    /// [`name_key`] of the player.
    pub key: String,
    /// The player's name as spelled that season.
    pub player: String,
    /// His line of the season.
    pub season: CareerSeason,
    /// The season's rounds per night.
    pub rounds_per_night: u32,
}

/// The career lines of one season (league.md §2–§4, §7, §8): one per row of its final `table`
/// (`standings(season, None)`, passed in so that a kept table is not computed again) with what
/// the player received in the season's `payouts` (`None`: 0 cents). What [`careers`] folds.
pub fn season_lines(
    season: &Season,
    table: &Standings,
    payouts: Option<&Payouts>,
) -> Vec<CareerLine> {
    table
        .rows
        .iter()
        .map(|row| CareerLine {
            key: name_key(&row.player),
            player: row.player.clone(),
            season: career_season(season.year, row, payouts),
            rounds_per_night: season.rules.rounds_per_night,
        })
        .collect()
}

/// Every player's career from the career lines of his seasons ([`season_lines`]), the seasons
/// given in year order (league.md §2–§4, §7, §8): his seasons, their totals and the spelling of
/// his latest season. Sorted by [`name_key`]. The work is linear in the lines: a new round only
/// recomputes its own season's lines, the other seasons' are kept.
pub fn fold_careers<'a>(seasons: impl IntoIterator<Item = &'a [CareerLine]>) -> Vec<Career> {
    // name_key → (latest spelling, seasons, (counted, rounds, rounds_per_night) per season)
    type Acc = (String, Vec<CareerSeason>, Vec<(i64, u32, u32)>);
    let mut acc: BTreeMap<&str, Acc> = BTreeMap::new();
    for lines in seasons {
        for line in lines {
            let entry = acc
                .entry(line.key.as_str())
                .or_insert_with(|| (String::new(), Vec::new(), Vec::new()));
            entry.0.clone_from(&line.player);
            entry.1.push(line.season.clone());
            entry.2.push((
                line.season.counted_outs,
                line.season.rounds,
                line.rounds_per_night,
            ));
        }
    }
    acc.into_values()
        .map(|(player, seasons, parts)| {
            let d_wert_exact = all_time_d_wert(&parts).unwrap_or(DWert { num: 0, den: 1 });
            let totals = CareerTotals {
                seasons: u32::try_from(seasons.len()).unwrap_or(u32::MAX),
                rounds: seasons.iter().map(|s| s.rounds).sum(),
                counted_outs: seasons.iter().map(|s| s.counted_outs).sum(),
                d_wert: d_wert_exact.as_f64(),
                d_wert_exact,
                thrown_outs: seasons.iter().map(|s| s.thrown_outs).sum(),
                hand_outs: seasons.iter().map(|s| s.hand_outs).sum(),
                julen: seasons.iter().map(|s| s.julen).sum(),
                paid_rounds: seasons.iter().map(|s| s.paid_rounds).sum(),
                payout_cents: seasons.iter().map(|s| s.payout_cents).sum(),
            };
            Career {
                player,
                seasons,
                totals,
            }
        })
        .collect()
}

/// Every player's career over `seasons` (any order; shown by year) with the year-end `payouts` of
/// those seasons (as [`crate::league::money::kasse::chain`] returns them, matched by year; a season without one
/// counts 0 cents) (league.md §2–§4, §7, §8). Each season he has a round in gives his line of the
/// table after its last night. Sorted by [`name_key`] of the player.
pub fn careers(seasons: &[Season], payouts: &[Payouts]) -> Vec<Career> {
    let lines: Vec<Vec<CareerLine>> = by_year(seasons)
        .into_iter()
        .map(|season| {
            let p = payouts.iter().find(|p| p.season == season.year);
            season_lines(season, &standings(season, None), p)
        })
        .collect();
    fold_careers(lines.iter().map(Vec::as_slice))
}

/// The career of `player` (matched by [`name_key`], so case does not matter), `None` when he has no
/// round in any of `seasons`; see [`careers`] (league.md §2–§4, §7, §8).
pub fn career(seasons: &[Season], payouts: &[Payouts], player: &str) -> Option<Career> {
    let key = name_key(player);
    careers(seasons, payouts)
        .into_iter()
        .find(|c| name_key(&c.player) == key)
}

/// One line of the all-time table (league.md §3 over all seasons).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct AllTimeRow {
    /// Rank (D.Wert, then rounds; equal in both share the rank: 1, 2, 2, 4).
    pub rank: u32,
    /// The player's name (spelling of his latest season).
    pub player: String,
    /// Rounds over all seasons.
    pub rounds: u32,
    /// Counted Outs over all seasons.
    pub counted_outs: i64,
    /// All-time D.Wert as a float (counted Outs ÷ Teilnahmen).
    pub d_wert: f64,
    /// The exact all-time D.Wert.
    #[serde(skip)]
    pub d_wert_exact: DWert,
    /// Seasons he has a round in.
    pub seasons: u32,
}

/// The all-time table over `seasons` (league.md §3 applied to all seasons together): each player's
/// counted Outs ÷ Teilnahmen over all seasons ([`all_time_d_wert`]); listed with at least
/// `min_rounds` rounds in all ([`ALL_TIME_MIN_ROUNDS`] = 100 for the public table), one table
/// without Ligen, ranked by D.Wert descending then rounds descending; equal in both share the rank
/// and are listed by name.
pub fn all_time_table(seasons: &[Season], min_rounds: u32) -> Vec<AllTimeRow> {
    all_time_of(&careers(seasons, &[]), min_rounds)
}

/// The all-time table of already computed `careers` (as [`careers`] returns them): the same rows,
/// listing and ranking as [`all_time_table`] (league.md §3 over all seasons).
pub fn all_time_of(careers: &[Career], min_rounds: u32) -> Vec<AllTimeRow> {
    let mut rows: Vec<AllTimeRow> = careers
        .iter()
        .filter(|c| c.totals.rounds >= min_rounds && c.totals.rounds > 0)
        .map(|c| AllTimeRow {
            rank: 0,
            player: c.player.clone(),
            rounds: c.totals.rounds,
            counted_outs: c.totals.counted_outs,
            d_wert: c.totals.d_wert,
            d_wert_exact: c.totals.d_wert_exact,
            seasons: c.totals.seasons,
        })
        .collect();
    let key = |r: &AllTimeRow| (Reverse(r.d_wert_exact), Reverse(r.rounds));
    rows.sort_by(|a, b| key(a).cmp(&key(b)).then_with(|| a.player.cmp(&b.player)));
    for i in 0..rows.len() {
        let place = u32::try_from(i + 1).unwrap_or(u32::MAX);
        rows[i].rank = match i.checked_sub(1).map(|j| key(&rows[j]).cmp(&key(&rows[i]))) {
            Some(Ordering::Equal) => rows[i - 1].rank,
            _ => place,
        };
    }
    rows
}

/// A Schocker des Jahres with his final line (league.md §3).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Honoree {
    /// The player's name (as spelled that season).
    pub player: String,
    /// His counted Outs.
    pub counted_outs: i64,
    /// His rounds.
    pub rounds: u32,
    /// His D.Wert as a float.
    pub d_wert: f64,
}

/// A Lucky Looser's share (league.md §7).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct LuckyLooserShare {
    /// The player's name.
    pub player: String,
    /// His paid rounds in the season.
    pub paid_rounds: u32,
    /// What he received, cents.
    pub cents: i64,
}

/// One paid place of a year, one entry per payee (league.md §8).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PaidPlace {
    /// The (shared) rank in the 1. Liga.
    pub place: u32,
    /// The payee.
    pub player: String,
    /// His percentage of the pot.
    pub percent: f64,
    /// What he received, cents.
    pub cents: i64,
}

/// One year of the Ehrentafel (league.md §7, §8; money in cents).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct HonourYear {
    /// The season's year.
    pub season: i32,
    /// Rank 1 of the 1. Liga after the last night (several when tied; empty without a 1. Liga).
    pub schocker_des_jahres: Vec<Honoree>,
    /// The Lucky Looser(s) with their shares (empty when no round was paid or no payouts given).
    pub lucky_looser: Vec<LuckyLooserShare>,
    /// The paid places, best first, one entry per payee (empty when no payouts given).
    pub places: Vec<PaidPlace>,
}

/// The Ehrentafel (league.md §7, §8): for each of `seasons` with at least one night or an Endstand
/// (issue 24.3), by year, the
/// Schocker des Jahres (rank 1 of the 1. Liga after the last night, with his line), and from the
/// year's `payouts` (matched by year) the Lucky Looser(s) and the paid places with their cents.
pub fn ehrentafel(seasons: &[Season], payouts: &[Payouts]) -> Vec<HonourYear> {
    ehrentafel_on(seasons, payouts, None)
}

/// [`ehrentafel`] as it stands on the club's `today` (`None`: after every night): each season's
/// table as of [`Season::capped_as_of`] (issue 22.3); `payouts` should be those of the same day
/// ([`crate::league::money::payouts::payouts_as_of`]).
pub fn ehrentafel_on(
    seasons: &[Season],
    payouts: &[Payouts],
    today: Option<NaiveDate>,
) -> Vec<HonourYear> {
    by_year(seasons)
        .into_iter()
        .filter_map(|season| {
            let as_of = today.and_then(|t| season.capped_as_of(None, t));
            let p = payouts.iter().find(|p| p.season == season.year);
            honour_year(season, &standings(season, as_of), p)
        })
        .collect()
}

/// One year of the Ehrentafel (league.md §7, §8): the Schocker des Jahres of `table` (the
/// season's table after its last night, or as of the club's today) and the Lucky Looser(s) and
/// paid places of `payouts`; `None` for a season without a night or an Endstand.
pub fn honour_year(
    season: &Season,
    table: &Standings,
    payouts: Option<&Payouts>,
) -> Option<HonourYear> {
    if season.nights.is_empty() && !season.is_endstand() {
        return None;
    }
    let schocker_des_jahres = table
        .rows
        .iter()
        .filter(|r| r.liga == Liga::First && r.rank == 1)
        .map(|r| Honoree {
            player: r.player.clone(),
            counted_outs: r.counted_outs,
            rounds: r.rounds,
            d_wert: r.d_wert,
        })
        .collect();
    let lucky_looser = payouts
        .map(|p| {
            let l = &p.lucky_looser;
            l.players
                .iter()
                .zip(&l.cents)
                .map(|(n, &cents)| LuckyLooserShare {
                    player: n.clone(),
                    paid_rounds: l.paid_rounds,
                    cents,
                })
                .collect()
        })
        .unwrap_or_default();
    let places = payouts
        .map(|p| {
            p.places
                .iter()
                .flat_map(|x| {
                    x.players.iter().zip(&x.cents).map(|(n, &cents)| PaidPlace {
                        place: x.place,
                        player: n.clone(),
                        percent: x.percent,
                        cents,
                    })
                })
                .collect()
        })
        .unwrap_or_default();
    Some(HonourYear {
        season: season.year,
        schocker_des_jahres,
        lucky_looser,
        places,
    })
}

#[cfg(test)]
mod tests;
