//! Year-end payouts (league.md §7–§8; interchange.md payouts JSON): fees, fines, Lucky Looser, pot,
//! places 1..n of the 1. Liga after the last night with tie sharing, largest-remainder rounding,
//! carry-out. Money is i64 cents throughout.

use serde::Serialize;

use super::season::Season;
use super::standings::{standings, totals_up_to, Liga};

/// The year-end accounts of a season (interchange.md payouts JSON). Invariant:
/// Σ places + Σ lucky + carry_out = fees + fines + carry_in.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Payouts {
    /// The season's year.
    pub season: i32,
    /// Σ Jahresbeiträge, cents.
    pub fees_cents: i64,
    /// Σ paid fines, cents.
    pub fines_cents: i64,
    /// The previous season's carry-out, cents.
    pub carry_in_cents: i64,
    /// The Lucky Looser(s) and their share.
    pub lucky_looser: LuckyLooser,
    /// fees − lucky + fines + carry_in, cents.
    pub pot_cents: i64,
    /// Paid places, best first; tied players share one entry.
    pub places: Vec<Place>,
    /// Rank-1 player(s) of the 1. Liga after the last night.
    pub schocker_des_jahres: Vec<String>,
    /// pot − Σ paid places, cents (goes to next season).
    pub carry_out_cents: i64,
    /// Σ open (unpaid) fines, cents; not in the pot.
    pub open_fines_cents: i64,
}

/// The Lucky Looser(s): most paid rounds in the season, all Ligen (league.md §7).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct LuckyLooser {
    /// The tied players, by name; empty when no round was lost.
    pub players: Vec<String>,
    /// Their paid rounds.
    pub paid_rounds: u32,
    /// `cents[i]` is what `players[i]` gets.
    pub cents: Vec<i64>,
}

/// One paid place (interchange.md): tied players share one entry.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Place {
    /// The shared rank in the 1. Liga.
    pub place: u32,
    /// The tied players, by name.
    pub players: Vec<String>,
    /// Each player's percentage of the pot (the covered places' percentages ÷ number of players).
    pub percent: f64,
    /// `cents[i]` is what `players[i]` gets.
    pub cents: Vec<i64>,
}

/// One payee's exact share `num / den` cents, with its tie-break keys (place, name).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExactShare {
    /// Numerator of the exact share in cents.
    pub num: i128,
    /// Denominator (> 0).
    pub den: i128,
    /// The payee's place (better = smaller); tie-break for remainders.
    pub place: u32,
    /// The payee's name; second tie-break.
    pub name: String,
}

/// Largest-remainder rounding (league.md §8): hands out `floor(Σ exact shares)` cents in total. Each
/// share gets its floor; the remaining cents go one by one to the largest remainders (ties: better
/// place first, then name). Returns the cents in the order of `shares`.
pub fn largest_remainder(shares: &[ExactShare]) -> Vec<i64> {
    // Σ exact shares as one fraction over the product-free common denominator via i128 arithmetic.
    let mut total_num: i128 = 0;
    let mut total_den: i128 = 1;
    for s in shares {
        let g = gcd(total_den, s.den);
        let den = total_den / g * s.den;
        total_num = total_num * (den / total_den) + s.num * (den / s.den);
        total_den = den;
        let g2 = gcd(total_num.abs(), total_den).max(1);
        total_num /= g2;
        total_den /= g2;
    }
    let total = total_num.div_euclid(total_den);
    let floors: Vec<i128> = shares.iter().map(|s| s.num.div_euclid(s.den)).collect();
    let mut left = total - floors.iter().sum::<i128>();
    let mut order: Vec<usize> = (0..shares.len()).collect();
    order.sort_by(|&a, &b| {
        let (sa, sb) = (&shares[a], &shares[b]);
        let ra = sa.num.rem_euclid(sa.den);
        let rb = sb.num.rem_euclid(sb.den);
        // larger remainder first: compare ra/da with rb/db
        (rb * sa.den)
            .cmp(&(ra * sb.den))
            .then(sa.place.cmp(&sb.place))
            .then_with(|| sa.name.cmp(&sb.name))
    });
    let mut cents = floors;
    for &i in &order {
        if left <= 0 {
            break;
        }
        cents[i] += 1;
        left -= 1;
    }
    cents.into_iter().map(|c| c as i64).collect()
}

fn gcd(mut a: i128, mut b: i128) -> i128 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a.abs()
}

/// The year-end payouts of `season` with `carry_in_cents` from the previous season (league.md §8):
/// lucky = min(lucky_looser_cents, fees) (0 if no round was lost), pot = fees − lucky + fines +
/// carry_in, places by the 1. Liga of the standings after the last night, carry_out = pot − Σ places.
pub fn payouts(season: &Season, carry_in_cents: i64) -> Payouts {
    let rules = &season.rules;
    let fees: i64 = season.players.iter().map(|p| p.fee_cents).sum();
    let (mut fines, mut open_fines) = (0i64, 0i64);
    for f in season.nights.iter().flat_map(|n| n.fines.iter()) {
        if f.paid {
            fines += f.amount_cents;
        } else {
            open_fines += f.amount_cents;
        }
    }

    // Lucky Looser over the whole season, all Ligen.
    let totals = season
        .last_night()
        .map(|d| totals_up_to(season, d))
        .unwrap_or_default();
    let most = totals.values().map(|t| t.paid_rounds).max().unwrap_or(0);
    let lucky_looser = if most == 0 {
        LuckyLooser {
            players: Vec::new(),
            paid_rounds: 0,
            cents: Vec::new(),
        }
    } else {
        let players: Vec<String> = totals
            .iter()
            .filter(|(_, t)| t.paid_rounds == most)
            .map(|(n, _)| n.clone())
            .collect();
        let amount = rules.lucky_looser_cents.min(fees).max(0);
        let k = players.len() as i128;
        let shares: Vec<ExactShare> = players
            .iter()
            .map(|n| ExactShare {
                num: i128::from(amount),
                den: k,
                place: 1,
                name: n.clone(),
            })
            .collect();
        LuckyLooser {
            cents: largest_remainder(&shares),
            players,
            paid_rounds: most,
        }
    };
    let lucky: i64 = lucky_looser.cents.iter().sum();
    let pot = fees - lucky + fines + carry_in_cents;

    // Places: groups of tied 1. Liga players after the last night.
    let table = standings(season, None);
    let first: Vec<_> = table
        .rows
        .iter()
        .filter(|r| r.liga == Liga::First)
        .collect();
    let n_places = rules.payout_percent.len() as u32;
    let mut groups: Vec<(u32, Vec<String>, u32)> = Vec::new(); // (rank, players, Σ percent)
    for r in &first {
        match groups.last_mut() {
            Some((rank, players, _)) if *rank == r.rank => players.push(r.player.clone()),
            _ => groups.push((r.rank, vec![r.player.clone()], 0)),
        }
    }
    groups.retain(|(rank, _, _)| *rank <= n_places);
    for (rank, players, pct) in groups.iter_mut() {
        let covered = *rank..*rank + players.len() as u32;
        *pct = covered
            .filter_map(|p| rules.payout_percent.get(p as usize - 1))
            .sum();
    }
    let shares: Vec<ExactShare> = groups
        .iter()
        .flat_map(|(rank, players, pct)| {
            let k = players.len() as i128;
            players.iter().map(move |n| ExactShare {
                num: i128::from(pot) * i128::from(*pct),
                den: 100 * k,
                place: *rank,
                name: n.clone(),
            })
        })
        .collect();
    let mut cents = largest_remainder(&shares).into_iter();
    let places: Vec<Place> = groups
        .iter()
        .map(|(rank, players, pct)| Place {
            place: *rank,
            players: players.clone(),
            percent: f64::from(*pct) / players.len() as f64,
            cents: cents.by_ref().take(players.len()).collect(),
        })
        .collect();
    let paid: i64 = places.iter().flat_map(|p| p.cents.iter()).sum();
    let schocker_des_jahres = first
        .iter()
        .filter(|r| r.rank == 1)
        .map(|r| r.player.clone())
        .collect();
    Payouts {
        season: season.year,
        fees_cents: fees,
        fines_cents: fines,
        carry_in_cents,
        lucky_looser,
        pot_cents: pot,
        places,
        schocker_des_jahres,
        carry_out_cents: pot - paid,
        open_fines_cents: open_fines,
    }
}
