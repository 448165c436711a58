//! A large, realistic, deterministic demo league for load tests and benchmarks (`schockerliga demo`):
//! season files that pass every check of league.md §1, §5, §6, loaded through the same import path
//! as real season files ([`crate::service::import`]).
//!
//! Each season: the same pool of players (names stay across seasons), Jahresbeiträge paid between
//! January and September (a few players never pay), nights spread evenly over the year, each night
//! a random subset of players — two tables drawn from `split_tables_from` participants on — playing
//! `rounds_per_night` rounds per table; every round has exactly one loser, at most 3 Outs per row,
//! Hand-Outs ≤ Outs, at most one Joker-Runde per player and night (from the Joker's season on), and
//! fines from the season's Strafenkatalog. The seasons before the newest are played to the end
//! (their nights closed, their Jahresabschluss final). The newest season's last `besteck_nights` nights are
//! played in the Schockbesteck: every Runde thrown Wurfrunde by Wurfrunde through the rules engine
//! (each player keeps his 1s and turns sixes, going for the Schock Out; a Vorleger sometimes stops
//! early), its results the engine's tallies and its throws kept with the round (the Glücksfaktor).

use chrono::{Days, NaiveDate};
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use serde_json::Map;

use crate::league::model::file::{
    FineEntry, NightEntry, PlayerEntry, ResultEntry, RoundEntry, SeasonFile, TableEntry, FORMAT,
};
use crate::league::model::rules::SeasonRules;
use crate::league::model::season::MAX_PARTICIPANTS;
use crate::rules::{PlayedRunde, PlayerTally, RuleSet, RundeState, ThrowInput};

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
    /// The newest season's last nights played in the Schockbesteck (throws kept), 0 = none.
    pub besteck_nights: u32,
}

impl Default for DemoSpec {
    /// 20 seasons × 45 nights × 20 players, seed 1, ending 2026 (≈ 180,000 result rows), the
    /// last 3 nights of 2026 in the Schockbesteck.
    fn default() -> Self {
        DemoSpec {
            seasons: 20,
            nights: 45,
            players: 20,
            seed: 1,
            last_year: 2026,
            besteck_nights: 3,
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
            fee_from_account: false,
        })
        .collect();
    let names: Vec<&str> = players.iter().map(|p| p.name.as_str()).collect();
    let n_nights = spec.nights.clamp(1, 365);
    let jan1 = NaiveDate::from_ymd_opt(year, 1, 1).unwrap_or(NaiveDate::MIN);
    let besteck_from = if year == spec.last_year {
        n_nights.saturating_sub(spec.besteck_nights)
    } else {
        n_nights
    };
    let nights = (0..n_nights)
        .map(|k| {
            let offset = u64::from(k) * 365 / u64::from(n_nights);
            let date = jan1.checked_add_days(Days::new(offset)).unwrap_or(jan1);
            let mut night = night(&mut rng, &rules, date, &names, k >= besteck_from);
            // The years before the newest are played to the end, their nights closed.
            night.closed = year < spec.last_year;
            night
        })
        .collect();
    SeasonFile {
        format: FORMAT.to_string(),
        season: year,
        rules: Map::new(),
        players,
        nights,
        endstand: Vec::new(),
        payments: Vec::new(),
        credit: Vec::new(),
        kassenbuch: None,
        status: Vec::new(),
        merged: None,
    }
}

/// One night on `date`: a random subset of `names` (at least 2, mostly 60–100 %, at most
/// [`MAX_PARTICIPANTS`]: two full tables), drawn to one table or, from `split_tables_from` on, two
/// tables whose sizes differ by at most one.
/// With `besteck` every Runde is played in the Schockbesteck ([`besteck_runde`]).
fn night(
    rng: &mut StdRng,
    rules: &SeasonRules,
    date: NaiveDate,
    names: &[&str],
    besteck: bool,
) -> NightEntry {
    let all = names.len();
    let least = (all * 6 / 10).max(2).min(all);
    // A large pool (60 or 1,000 players for the benchmarks) still seats at most two full tables.
    let count = rng.random_range(least..=all).min(MAX_PARTICIPANTS);
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
        .map(|(i, group)| table(rng, rules, i as u32 + 1, group, besteck))
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
                from_account: false,
            });
        }
    }
    NightEntry {
        date,
        tables,
        fines,
        draw: None,
        totals: Vec::new(),
        closed: false,
        corrections: Vec::new(),
    }
}

/// Table `number` with `rounds_per_night` rounds of `group`: one loser per round, Outs 0–3
/// (mostly 0), Hand-Outs ≤ Outs, a Julen now and then, and for a third of the players one
/// Joker-Runde when the season has the Joker. With `besteck` each round is played in the
/// Schockbesteck instead ([`besteck_runde`]; the random rows only when that fails).
fn table(
    rng: &mut StdRng,
    rules: &SeasonRules,
    number: u32,
    group: &[&str],
    besteck: bool,
) -> TableEntry {
    let game = RuleSet::from_json(&rules.game).unwrap_or_default();
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
            if let Some((record, tallies)) =
                besteck.then(|| besteck_runde(rng, group, &game)).flatten()
            {
                return RoundEntry {
                    number,
                    results: tallies
                        .into_iter()
                        .map(|t| ResultEntry {
                            joker: group
                                .iter()
                                .position(|p| *p == t.player)
                                .is_some_and(|i| joker_round[i] == Some(number)),
                            player: t.player,
                            outs: t.outs,
                            hand_outs: t.hand_outs,
                            julen: t.julen,
                            lost: t.lost,
                        })
                        .collect(),
                    schockbesteck: Some(record),
                };
            }
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

/// One player's turn going for the Schock Out with at most `limit` Würfe: every 1 stays out, two
/// sixes of a Wurf that is not the last make one 1 and three make two (when `game.turn_sixes`), the
/// rest is rolled again; he stops at 1-1-1, at `limit`, or (a Vorleger, `may_stop`) now and then
/// with what he has. Returns the final dice, the Würfe used and whether the last Wurf rolled all
/// three dice with nothing set aside (aus der Hand).
fn turn(rng: &mut StdRng, limit: u8, may_stop: bool, game: &RuleSet) -> ([u8; 3], u8, bool) {
    let mut aside = 0usize;
    let mut wurf = 0u8;
    loop {
        wurf += 1;
        let rolled: Vec<u8> = (aside..3).map(|_| rng.random_range(1..=6)).collect();
        let from_hand = aside == 0;
        let ones = rolled.iter().filter(|&&v| v == 1).count();
        let mut dice = [1u8; 3];
        for (slot, v) in dice.iter_mut().skip(aside).zip(&rolled) {
            *slot = *v;
        }
        if aside + ones == 3 || wurf >= limit || (may_stop && rng.random_bool(0.25)) {
            return (dice, wurf, from_hand);
        }
        let sixes = rolled.iter().filter(|&&v| v == 6).count();
        let turned = if game.turn_sixes && sixes >= 2 {
            sixes - 1
        } else {
            0
        };
        aside += ones + turned;
    }
}

/// A Runde of `group` (in seat order) played through the rules engine's Schockbesteck state
/// machine with [`turn`]s: the Auswürfeln one Wurf each, then the Vorleger's Würfe set the limit.
/// Returns the played Runde and the tallies; `None` when the engine refuses a Wurfrunde 20 times in a
/// row or the Runde runs past 500 Wurfrunden (the caller then makes up the rows).
fn besteck_runde(
    rng: &mut StdRng,
    group: &[&str],
    game: &RuleSet,
) -> Option<(PlayedRunde, Vec<PlayerTally>)> {
    let players: Vec<String> = group.iter().map(|p| (*p).to_string()).collect();
    let mut state = RundeState::new(players, game.clone()).ok()?;
    for _ in 0..500 {
        if state.is_finished() {
            return Some((PlayedRunde::of_state(&state), state.tallies()));
        }
        let throwers: Vec<String> = state
            .next_throwers()
            .iter()
            .map(|p| (*p).to_string())
            .collect();
        let auswuerfeln = state.is_auswuerfeln();
        let mut applied = false;
        for _ in 0..20 {
            let mut limit = if auswuerfeln { 1 } else { game.max_throws };
            let mut throws = Vec::with_capacity(throwers.len());
            for (i, p) in throwers.iter().enumerate() {
                let (dice, wuerfe, from_hand) = turn(rng, limit, i == 0 && !auswuerfeln, game);
                if i == 0 {
                    limit = wuerfe;
                }
                throws.push(ThrowInput::from_dice(p, dice, wuerfe, from_hand));
            }
            if state.apply(throws).is_ok() {
                applied = true;
                break;
            }
        }
        if !applied {
            return None;
        }
    }
    None
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
            besteck_nights: 5,
        };
        for file in league(&spec) {
            let season =
                Season::from_file(&file).unwrap_or_else(|e| panic!("{}: {e}", file.season));
            assert_eq!(season.nights.len(), 45);
            // Only the newest season's last 5 nights carry throws, every round of them.
            let with_throws: Vec<bool> = season
                .nights
                .iter()
                .map(|n| {
                    n.tables
                        .iter()
                        .flat_map(|t| &t.rounds)
                        .all(|r| r.schockbesteck.is_some())
                })
                .collect();
            let want = if season.year == 2026 { 5 } else { 0 };
            assert_eq!(with_throws.iter().filter(|&&b| b).count(), want);
            assert!(with_throws[45 - want..].iter().all(|&b| b));
            if season.year == 2026 {
                // Players going for the Schock Out throw about what the odds expect.
                let all = crate::league::history::glueck::of_season(&season)
                    .into_values()
                    .fold(crate::league::history::glueck::Glueck::default(), |a, g| {
                        a.plus(g).unwrap()
                    });
                let factor = all.factor().unwrap().as_f64();
                assert!(all.schock_outs > 100, "{all:?}");
                assert!((0.8..1.5).contains(&factor), "{factor} {all:?}");
            }
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
            besteck_nights: 2,
        };
        assert_eq!(league(&spec), league(&spec));
        assert_ne!(league(&spec), league(&DemoSpec { seed: 4, ..spec }));
    }

    /// The seasons before the newest are played to the end: their nights closed, as a club's
    /// past years are, so their Jahresabschluss is final (league.md §11); the newest stays open.
    #[test]
    fn past_seasons_are_closed_and_the_newest_is_open() {
        let spec = DemoSpec {
            seasons: 3,
            nights: 4,
            players: 6,
            seed: 2,
            last_year: 2026,
            besteck_nights: 0,
        };
        for file in league(&spec) {
            let past = file.season < spec.last_year;
            assert!(
                file.nights.iter().all(|n| n.closed == past),
                "{}",
                file.season
            );
            if past {
                let season = Season::from_file(&file).unwrap();
                let last = season.nights.last().unwrap().date;
                assert_eq!(
                    crate::league::money::netting::closing(
                        &season,
                        0,
                        NaiveDate::from_ymd_opt(2027, 1, 1).unwrap(),
                        &[]
                    ),
                    crate::league::money::netting::Closing::Final { last }
                );
            }
        }
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
            besteck_nights: 0,
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
