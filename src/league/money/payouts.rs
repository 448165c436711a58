//! Year-end payouts (league.md §7–§8; interchange.md payouts JSON): fees, fines, Lucky Looser, pot,
//! places 1..n of the 1. Liga after the last night with tie sharing, largest-remainder rounding,
//! carry-out. Money is i64 cents throughout.

use chrono::NaiveDate;
use serde::Serialize;

use crate::league::model::rules::Liga;
use crate::league::model::season::Season;
use crate::league::table::standings::{standings, Standings};

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
/// carry_in, places by the 1. Liga of the standings after the last night with results,
/// carry_out = pot − Σ places. A season kept as its Endstand (issue 24.3) has no paid places: its
/// carry-in passes on whole.
pub fn payouts(season: &Season, carry_in_cents: i64) -> Payouts {
    payouts_as_of(season, carry_in_cents, None)
}

/// [`payouts`] with the Lucky Looser and the places from the table as of `as_of` (`None`: the last
/// night with results): the payouts as they stand on the club's today, `as_of` =
/// [`Season::default_as_of`] of today (issue 22.3: a night entered ahead of its day counts from
/// its day on). Fees and paid fines count whatever their date.
pub fn payouts_as_of(season: &Season, carry_in_cents: i64, as_of: Option<NaiveDate>) -> Payouts {
    payouts_of_table(season, &standings(season, as_of), carry_in_cents)
}

/// [`payouts_as_of`] with the season's `table` as of that day already at hand (a kept table is
/// not computed again): the Lucky Looser and the places from `table` (league.md §7, §8).
pub fn payouts_of_table(season: &Season, table: &Standings, carry_in_cents: i64) -> Payouts {
    payouts_of_money(season, table, carry_in_cents, money_on(season, None))
}

/// The money of `season` known on `on` (`None`: all of it): `(fees, paid fines, open fines)` in
/// cents, counting the nights up to `on` and, as paid, only what was paid by then (a Jahresbeitrag
/// or fine paid later counts as not paid: the fee not at all, the fine as open).
pub(crate) fn money_on(season: &Season, on: Option<NaiveDate>) -> (i64, i64, i64) {
    let later = |d: Option<NaiveDate>| on.is_some_and(|on| d.is_some_and(|d| d > on));
    let fees: i64 = season
        .players
        .iter()
        .filter(|p| !later(p.fee_paid_on))
        .map(|p| p.fee_cents)
        .sum();
    let (mut fines, mut open_fines) = (0i64, 0i64);
    for f in season
        .nights
        .iter()
        .filter(|n| on.is_none_or(|on| n.date <= on))
        .flat_map(|n| n.fines.iter())
    {
        if f.paid && !later(f.paid_on) {
            fines += f.amount_cents;
        } else {
            open_fines += f.amount_cents;
        }
    }
    (fees, fines, open_fines)
}

/// [`payouts_of_table`] with the money already summed: `(fees, paid fines, open fines)` in cents
/// (the Kasse's pot after each night sums them as of that day, issue 25).
pub(crate) fn payouts_of_money(
    season: &Season,
    table: &Standings,
    carry_in_cents: i64,
    (fees, fines, open_fines): (i64, i64, i64),
) -> Payouts {
    let rules = &season.rules;

    // Lucky Looser over the whole season, all Ligen.
    // (The final table: every player with a round, or the lines of an Endstand season.)
    let totals: std::collections::BTreeMap<String, u32> = table
        .rows
        .iter()
        .map(|r| (r.player.clone(), r.paid_rounds))
        .collect();
    let most = totals.values().copied().max().unwrap_or(0);
    let lucky_looser = if most == 0 {
        LuckyLooser {
            players: Vec::new(),
            paid_rounds: 0,
            cents: Vec::new(),
        }
    } else {
        let players: Vec<String> = totals
            .iter()
            .filter(|(_, paid)| **paid == most)
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
    // A season kept as its Endstand knows no money: no paid places, the carry-in passes on.
    if season.is_endstand() {
        groups.clear();
    }
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

/// The cents of each paid place from `pot_cents` when one player holds it (league.md §8:
/// `percent[p-1]` % of the pot, largest-remainder rounding over the places): `result[p-1]`.
/// What the last night's scenario shows per place (issue 39.1).
pub fn place_cents(pot_cents: i64, percent: &[u32]) -> Vec<i64> {
    let shares: Vec<ExactShare> = percent
        .iter()
        .enumerate()
        .map(|(i, pct)| ExactShare {
            num: i128::from(pot_cents.max(0)) * i128::from(*pct),
            den: 100,
            place: i as u32 + 1,
            name: String::new(),
        })
        .collect();
    largest_remainder(&shares)
}

#[cfg(test)]
mod tests {
    use serde_json::{json, Value};

    use super::*;
    use crate::league::testkit::{november, season, season_json, NightSpec};

    const JAN: Option<&str> = Some("2026-01-05");

    /// Two January nights of 10 rounds; player i throws `outs[i]` Outs and loses `lost[i]` rounds
    /// each night (the rest go to the last player); one paid fine per entry of `fines` (own amounts).
    fn league(
        players: &[(&str, Option<&str>)],
        outs: &[u32],
        lost: &[u32],
        fines: &[i64],
        rules: Value,
    ) -> Season {
        let names: Vec<&str> = players.iter().map(|p| p.0).collect();
        let nights: Vec<Value> = ["2026-01-09", "2026-01-16"]
            .iter()
            .map(|d| {
                NightSpec {
                    date: d,
                    players: &names,
                    outs,
                    lost,
                    ..NightSpec::default()
                }
                .build()
            })
            .collect();
        let mut v = season_json(2026, players, nights);
        v["rules"] = rules;
        v["nights"][0]["fines"] = fines
            .iter()
            .map(
                |&c| json!({ "player": names[0], "kind": "late", "paid": true, "amount_cents": c }),
            )
            .collect();
        season(v)
    }

    fn places(p: &Payouts) -> Vec<(u32, Vec<&str>, f64, Vec<i64>)> {
        p.places
            .iter()
            .map(|x| {
                let names = x.players.iter().map(String::as_str).collect();
                (x.place, names, x.percent, x.cents.clone())
            })
            .collect()
    }

    fn invariant(p: &Payouts) {
        let placed: i64 = p.places.iter().flat_map(|x| &x.cents).sum();
        let lucky: i64 = p.lucky_looser.cents.iter().sum();
        assert_eq!(
            placed + lucky + p.carry_out_cents,
            p.fees_cents + p.fines_cents + p.carry_in_cents
        );
    }

    #[test]
    fn place_cents_round_by_largest_remainder() {
        // 10001 cents: 3000,3 / 2500,25 / 2000,2 / 1500,15 / 1000,1 → one cent left, to place 1.
        assert_eq!(
            super::place_cents(10001, &[30, 25, 20, 15, 10]),
            [3001, 2500, 2000, 1500, 1000]
        );
        assert_eq!(super::place_cents(0, &[30, 25]), [0, 0]);
    }

    #[test]
    fn tie_at_place_2_shares_25_and_20_percent() {
        let players = [
            ("Anna", JAN),
            ("Bea", JAN),
            ("Cem", JAN),
            ("Dora", JAN),
            ("Emil", JAN),
            ("Fritz", JAN),
        ];
        // pot 9000 − 1000 + 2 = 8002: exact 2400,6 | 1800,45 ×2 | 1200,3 | 800,2 → 2 cents to hand out
        let s = league(&players, &[5, 4, 4, 3, 2, 1], &[], &[2], json!({}));
        let p = payouts(&s, 0);
        assert_eq!((p.fees_cents, p.fines_cents, p.pot_cents), (9000, 2, 8002));
        assert_eq!(p.lucky_looser.players, vec!["Fritz"]);
        assert_eq!(
            (p.lucky_looser.paid_rounds, p.lucky_looser.cents.clone()),
            (6, vec![1000])
        );
        assert_eq!(
            places(&p),
            vec![
                (1, vec!["Anna"], 30.0, vec![2401]),
                (2, vec!["Bea", "Cem"], 22.5, vec![1801, 1800]), // equal remainders: by name
                (4, vec!["Dora"], 15.0, vec![1200]),
                (5, vec!["Emil"], 10.0, vec![800]),
            ]
        );
        assert_eq!(p.carry_out_cents, 0);
        assert_eq!(p.schocker_des_jahres, vec!["Anna"]);
        invariant(&p);
    }

    #[test]
    fn tie_across_place_5_shares_15_10_and_nothing() {
        let players = [
            ("Anna", JAN),
            ("Bea", JAN),
            ("Cem", JAN),
            ("Dora", JAN),
            ("Emil", JAN),
            ("Fritz", JAN),
            ("Gert", JAN),
        ];
        // pot 10500 − 1000 = 9500; Dora, Emil, Fritz each 9500 × 25 / 300 = 791,67
        let s = league(&players, &[6, 5, 4, 3, 3, 3, 1], &[], &[], json!({}));
        let p = payouts(&s, 0);
        assert_eq!(p.pot_cents, 9500);
        assert_eq!(
            places(&p),
            vec![
                (1, vec!["Anna"], 30.0, vec![2850]),
                (2, vec!["Bea"], 25.0, vec![2375]),
                (3, vec!["Cem"], 20.0, vec![1900]),
                (
                    4,
                    vec!["Dora", "Emil", "Fritz"],
                    25.0 / 3.0,
                    vec![792, 792, 791]
                ),
            ]
        );
        assert_eq!(p.carry_out_cents, 0);
        invariant(&p);
    }

    #[test]
    fn fewer_than_five_in_the_1_liga_carry_the_rest() {
        // Dora never paid: 2. Liga, but she loses every round and is the Lucky Looser
        let players = [("Anna", JAN), ("Bea", JAN), ("Cem", JAN), ("Dora", None)];
        let s = league(&players, &[4, 3, 2, 5], &[], &[], json!({}));
        let p = payouts(&s, 0);
        assert_eq!((p.fees_cents, p.pot_cents), (4500, 3500));
        assert_eq!(p.lucky_looser.players, vec!["Dora"]);
        assert_eq!(
            places(&p),
            vec![
                (1, vec!["Anna"], 30.0, vec![1050]),
                (2, vec!["Bea"], 25.0, vec![875]),
                (3, vec!["Cem"], 20.0, vec![700]),
            ]
        );
        assert_eq!(p.carry_out_cents, 875);
        invariant(&p);
        // with 3,33 € carried in: exact 1149,9 + 958,25 + 766,6 = 2874,75 → 2874 handed out
        let p = payouts(&s, 333);
        assert_eq!(p.pot_cents, 3833);
        assert_eq!(
            p.places.iter().map(|x| x.cents[0]).collect::<Vec<_>>(),
            vec![1150, 958, 766]
        );
        assert_eq!(p.carry_out_cents, 959);
        invariant(&p);
    }

    #[test]
    fn three_way_lucky_looser_tie() {
        // Anna loses 4 rounds a night but pays only 3 (Sozialfall): tied with Bea and Cem at 6
        let players = [("Anna", JAN), ("Bea", JAN), ("Cem", JAN), ("Dora", JAN)];
        // (fee base, lucky cents by name)
        let cases = [(1500, vec![334, 333, 333]), (125, vec![167, 167, 166])];
        for (base, cents) in cases {
            let s = league(
                &players,
                &[1, 1, 1, 1],
                &[4, 3, 3, 0],
                &[],
                json!({ "fee_base_cents": base }),
            );
            let p = payouts(&s, 0);
            assert_eq!(p.lucky_looser.players, vec!["Anna", "Bea", "Cem"], "{base}");
            assert_eq!(p.lucky_looser.paid_rounds, 6, "{base}");
            assert_eq!(p.lucky_looser.cents, cents, "{base}");
            invariant(&p);
        }
    }

    #[test]
    fn shared_first_place_makes_two_schocker_des_jahres() {
        let players = [("Anna", JAN), ("Bea", JAN), ("Cem", JAN)];
        let s = league(&players, &[3, 3, 1], &[], &[], json!({}));
        let p = payouts(&s, 0);
        assert_eq!(p.schocker_des_jahres, vec!["Anna", "Bea"]);
        // pot 3500: (30 + 25) / 2 = 27,5 % each = 962,5 → 963 to Anna (name), 962 to Bea
        assert_eq!(
            places(&p),
            vec![
                (1, vec!["Anna", "Bea"], 27.5, vec![963, 962]),
                (3, vec!["Cem"], 20.0, vec![700]),
            ]
        );
        invariant(&p);
    }

    #[test]
    fn a_season_without_rounds_has_no_lucky_looser() {
        let s = season(season_json(2026, &[("Anna", JAN)], vec![]));
        let p = payouts(&s, 250);
        assert!(p.lucky_looser.players.is_empty() && p.lucky_looser.cents.is_empty());
        assert_eq!((p.pot_cents, p.carry_out_cents), (1750, 1750));
        assert!(p.places.is_empty() && p.schocker_des_jahres.is_empty());
        invariant(&p);
    }

    #[test]
    fn largest_remainder_table() {
        let share = |num: i128, den: i128, place: u32, name: &str| ExactShare {
            num,
            den,
            place,
            name: name.to_string(),
        };
        let cases = [
            // 10 / 3 each: 3,33 → one cent left, to the better place
            (
                vec![
                    share(10, 3, 2, "B"),
                    share(10, 3, 1, "Z"),
                    share(10, 3, 2, "A"),
                ],
                vec![3, 4, 3],
            ),
            // 1,5 + 1,5: Σ 3 exact → both floors 1, one cent to the name first
            (
                vec![share(3, 2, 1, "Bea"), share(3, 2, 1, "Anna")],
                vec![1, 2],
            ),
            // Σ 1,8 → floor 1 handed out: only the largest remainder gets one
            (vec![share(9, 10, 1, "A"), share(9, 10, 2, "B")], vec![1, 0]),
            (vec![], vec![]),
        ];
        for (shares, expected) in cases {
            assert_eq!(largest_remainder(&shares), expected, "{shares:?}");
        }
    }

    /// A night created ahead without results moves neither the as-of date nor the payouts
    /// (moved here from the table's `a_night_without_results_never_moves_the_as_of_date`).
    #[test]
    fn a_night_without_results_leaves_the_payouts_their_places() {
        let s = november(false);
        let p = payouts(&s, 0);
        assert_eq!(p.schocker_des_jahres, ["Anna"]);
        assert!(!p.places.is_empty(), "payouts with places");
    }
}
