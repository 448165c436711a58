//! A large, realistic, deterministic demo league for load tests and benchmarks (`schockerliga demo`):
//! season files that pass every check of league.md §1, §5, §6, loaded through the same import path
//! as real season files ([`crate::service::import`]).
//!
//! Each season: the same pool of players (names stay across seasons), Jahresbeiträge paid between
//! January and September (a few players never pay), nights spread evenly over the year, each night
//! a random subset of players — two tables drawn from `split_tables_from` participants on — playing
//! `rounds_per_night` rounds per table; every round has exactly one loser, at most 3 Outs per row,
//! Hand-Outs ≤ Outs, at most one Joker-Runde per player and night (from the Joker's season on), and
//! fines from the season's Strafenkatalog.

use chrono::{Days, NaiveDate};
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use serde_json::Map;

use crate::league::file::{
    FineEntry, NightEntry, PlayerEntry, ResultEntry, RoundEntry, SeasonFile, TableEntry, FORMAT,
};
use crate::league::rules::SeasonRules;

/// First names the demo players are made of (a number is appended past the list's end).
const NAMES: [&str; 24] = [
    "Anna", "Bernd", "Carla", "Dieter", "Elke", "Frank", "Gabi", "Heinz", "Inge", "Jupp", "Karin",
    "Lothar", "Monika", "Norbert", "Olga", "Paul", "Renate", "Sepp", "Tanja", "Uwe", "Vera",
    "Willi", "Xaver", "Yvonne",
];

/// What to generate: `seasons` seasons ending with `last_year`, each with `nights` nights (at most
/// 365) and a pool of `players` players (at least 2); `seed` makes the output reproducible.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DemoSpec {
    /// Number of seasons (≥ 1).
    pub seasons: u32,
    /// Nights per season (1..=365).
    pub nights: u32,
    /// Players in the league (≥ 2).
    pub players: u32,
    /// The seed of the random generator.
    pub seed: u64,
    /// The year of the newest season.
    pub last_year: i32,
}

impl Default for DemoSpec {
    /// 20 seasons × 45 nights × 20 players, seed 1, ending 2026 (≈ 180,000 result rows).
    fn default() -> Self {
        DemoSpec {
            seasons: 20,
            nights: 45,
            players: 20,
            seed: 1,
            last_year: 2026,
        }
    }
}

/// The name of demo player `i` (0-based): "Anna", …, "Yvonne", then "Anna 2", … .
pub fn player_name(i: u32) -> String {
    let base = NAMES[i as usize % NAMES.len()];
    match i as usize / NAMES.len() {
        0 => base.to_string(),
        k => format!("{base} {}", k + 1),
    }
}

/// The season files of `spec`, oldest first. Same spec, same files.
pub fn league(spec: &DemoSpec) -> Vec<SeasonFile> {
    let first = spec.last_year - spec.seasons as i32 + 1;
    (first..=spec.last_year)
        .map(|year| season_file(year, spec))
        .collect()
}

/// One demo season `year` of `spec` (its own random stream, derived from `spec.seed` and `year`).
pub fn season_file(year: i32, spec: &DemoSpec) -> SeasonFile {
    let rules = SeasonRules::defaults_for(year);
    let mut rng =
        StdRng::seed_from_u64(spec.seed ^ (year as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15));
    let n_players = spec.players.max(2);
    let players: Vec<PlayerEntry> = (0..n_players)
        .map(|i| PlayerEntry {
            name: player_name(i),
            // Nine in ten pay, on a day between January and the last join month.
            fee_paid_on: rng
                .random_bool(0.9)
                .then(|| {
                    let month = rng.random_range(1..=rules.last_join_month.clamp(1, 12));
                    let day = rng.random_range(1..=28);
                    NaiveDate::from_ymd_opt(year, month, day)
                })
                .flatten(),
        })
        .collect();
    let names: Vec<&str> = players.iter().map(|p| p.name.as_str()).collect();
    let n_nights = spec.nights.clamp(1, 365);
    let jan1 = NaiveDate::from_ymd_opt(year, 1, 1).unwrap_or(NaiveDate::MIN);
    let nights = (0..n_nights)
        .map(|k| {
            let offset = u64::from(k) * 365 / u64::from(n_nights);
            let date = jan1.checked_add_days(Days::new(offset)).unwrap_or(jan1);
            night(&mut rng, &rules, date, &names)
        })
        .collect();
    SeasonFile {
        format: FORMAT.to_string(),
        season: year,
        rules: Map::new(),
        players,
        nights,
    }
}

/// One night on `date`: a random subset of `names` (at least 2, mostly 60–100 %), drawn to one
/// table or, from `split_tables_from` on, two tables whose sizes differ by at most one.
fn night(rng: &mut StdRng, rules: &SeasonRules, date: NaiveDate, names: &[&str]) -> NightEntry {
    let all = names.len();
    let least = (all * 6 / 10).max(2).min(all);
    let count = rng.random_range(least..=all);
    let mut present: Vec<&str> = names.to_vec();
    present.shuffle(rng);
    present.truncate(count);
    let groups: Vec<Vec<&str>> = if count as u32 >= rules.split_tables_from {
        let half = count.div_ceil(2);
        vec![present[..half].to_vec(), present[half..].to_vec()]
    } else {
        vec![present]
    };
    let tables = groups
        .iter()
        .enumerate()
        .map(|(i, group)| table(rng, rules, i as u32 + 1, group))
        .collect();
    let kinds: Vec<&String> = rules.fines.keys().collect();
    let mut fines = Vec::new();
    if !kinds.is_empty() {
        for _ in 0..rng.random_range(0..=2) {
            fines.push(FineEntry {
                player: names[rng.random_range(0..all)].to_string(),
                kind: kinds[rng.random_range(0..kinds.len())].clone(),
                paid: rng.random_bool(0.8),
                amount_cents: None,
                paid_on: None,
                netted: false,
            });
        }
    }
    NightEntry {
        date,
        tables,
        fines,
        draw: None,
    }
}

/// Table `number` with `rounds_per_night` rounds of `group`: one loser per round, Outs 0–3
/// (mostly 0), Hand-Outs ≤ Outs, a Julen now and then, and for a third of the players one
/// Joker-Runde when the season has the Joker.
fn table(rng: &mut StdRng, rules: &SeasonRules, number: u32, group: &[&str]) -> TableEntry {
    let rounds_n = rules.rounds_per_night;
    let joker_round: Vec<Option<u32>> = group
        .iter()
        .map(|_| {
            (rules.joker_multiplier.is_some() && rng.random_bool(0.33))
                .then(|| rng.random_range(1..=rounds_n))
        })
        .collect();
    let rounds = (1..=rounds_n)
        .map(|number| {
            let loser = rng.random_range(0..group.len());
            RoundEntry {
                number,
                results: group
                    .iter()
                    .enumerate()
                    .map(|(i, player)| {
                        let outs = match rng.random_range(0..100) {
                            0..=59 => 0,
                            60..=84 => 1,
                            85..=96 => 2,
                            _ => 3,
                        };
                        ResultEntry {
                            player: (*player).to_string(),
                            outs,
                            hand_outs: if outs > 0 {
                                rng.random_range(0..=outs) / 2
                            } else {
                                0
                            },
                            julen: u32::from(rng.random_bool(0.08)),
                            joker: joker_round[i] == Some(number),
                            lost: i == loser,
                        }
                    })
                    .collect(),
                schockbesteck: None,
            }
        })
        .collect();
    TableEntry { number, rounds }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::league::Season;

    #[test]
    fn every_generated_season_passes_all_entry_checks() {
        // Years before and after Hand-Outs (2007), Joker (2011) and the Strafenkatalog (2012).
        let spec = DemoSpec {
            seasons: 23,
            nights: 45,
            players: 20,
            seed: 7,
            last_year: 2026,
        };
        for file in league(&spec) {
            let season =
                Season::from_file(&file).unwrap_or_else(|e| panic!("{}: {e}", file.season));
            assert_eq!(season.nights.len(), 45);
        }
    }

    #[test]
    fn the_same_seed_gives_the_same_league_and_another_seed_another() {
        let spec = DemoSpec {
            seasons: 2,
            nights: 5,
            players: 12,
            seed: 3,
            last_year: 2026,
        };
        assert_eq!(league(&spec), league(&spec));
        assert_ne!(league(&spec), league(&DemoSpec { seed: 4, ..spec }));
    }

    #[test]
    fn shapes_follow_the_spec() {
        // (players, participants ≥ split → two tables)
        let spec = DemoSpec {
            seasons: 1,
            nights: 45,
            players: 20,
            seed: 1,
            last_year: 2026,
        };
        let file = &league(&spec)[0];
        assert_eq!(file.players.len(), 20);
        let rows: usize = file
            .nights
            .iter()
            .flat_map(|n| &n.tables)
            .flat_map(|t| &t.rounds)
            .map(|r| r.results.len())
            .sum();
        // 45 nights × 12..20 participants × 10 rounds.
        assert!((45 * 12 * 10..=45 * 20 * 10).contains(&rows), "{rows}");
        for n in &file.nights {
            let sizes: Vec<usize> = n.tables.iter().map(|t| t.rounds[0].results.len()).collect();
            let total: usize = sizes.iter().sum();
            assert_eq!(sizes.len(), if total >= 10 { 2 } else { 1 }, "{}", n.date);
            if let [a, b] = sizes[..] {
                assert!(a.abs_diff(b) <= 1, "{}", n.date);
            }
            for r in n.tables.iter().flat_map(|t| &t.rounds) {
                assert_eq!(r.results.iter().filter(|x| x.lost).count(), 1);
                assert!(r
                    .results
                    .iter()
                    .all(|x| x.outs <= 3 && x.hand_outs <= x.outs));
            }
        }
        assert!(file.players.iter().all(|p| p
            .fee_paid_on
            .is_none_or(|d| d < NaiveDate::from_ymd_opt(2026, 10, 1).unwrap_or_default())));
        let names: Vec<String> = (0..26).map(player_name).collect();
        assert_eq!(names[0], "Anna");
        assert_eq!(names[24], "Anna 2");
        assert_eq!(names[25], "Bernd 2");
    }
}
