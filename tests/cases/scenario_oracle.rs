//! The oracle of „Was bringt der letzte Abend?“ (issue 39.1, league.md §11): independent code
//! that reads the season file as JSON, sums each player's nights itself (counted Outs with the
//! Julen carry, rounds, paid rounds), and for every x = 0…max counted Outs re-ranks the whole 1.
//! Liga with exact fractions (nobody else plays; every rival with his best night); the library's
//! `league::table::scenario` must give the same fewest x for every player and paid place, on the
//! sample season and built seasons with shared places and places out of reach.

use std::collections::BTreeMap;

use schockerliga::league::model::file::SeasonFile;
use schockerliga::league::table::scenario::scenario;
use schockerliga::league::Season;
use serde_json::{json, Value};

use crate::common::fixture_text;

const RPN: i64 = 10;
/// 9 rounds of 3 Hand-Outs (2 points) and a Joker-Runde of 3 Hand-Outs (× 2).
const MAX_X: i64 = 9 * 6 + 12;
const PLACES: u32 = 5;

/// One player's night: counted Outs, rounds, paid rounds.
#[derive(Default, Clone, Copy)]
struct NightLine {
    counted: i64,
    rounds: i64,
    paid: i64,
}

/// A player's totals as of a date.
#[derive(Default, Clone, Copy, Debug)]
struct Tot {
    counted: i64,
    rounds: i64,
    at_deadline: i64,
    best: i64,
    paid: i64,
    best_paid: i64,
}

/// Every player's totals from the nights of `file` on or before `as_of` (ISO text compares).
fn totals(file: &Value, as_of: &str) -> BTreeMap<String, Tot> {
    let mut julen: BTreeMap<String, i64> = BTreeMap::new();
    let mut out: BTreeMap<String, Tot> = BTreeMap::new();
    for night in file["nights"].as_array().unwrap() {
        let date = night["date"].as_str().unwrap();
        if date > as_of {
            break;
        }
        let mut lines: BTreeMap<String, (NightLine, i64, i64)> = BTreeMap::new();
        for table in night["tables"].as_array().unwrap() {
            for round in table["rounds"].as_array().unwrap() {
                for r in round["results"].as_array().unwrap() {
                    let (outs, hand) = (
                        r["outs"].as_i64().unwrap(),
                        r["hand_outs"].as_i64().unwrap(),
                    );
                    let joker = if r["joker"].as_bool().unwrap() { 2 } else { 1 };
                    let e = lines
                        .entry(r["player"].as_str().unwrap().to_string())
                        .or_default();
                    e.0.counted += ((outs - hand) + 2 * hand) * joker;
                    e.0.rounds += 1;
                    e.1 += r["julen"].as_i64().unwrap();
                    e.2 += i64::from(r["lost"].as_bool().unwrap());
                }
            }
        }
        for (name, (mut line, j, lost)) in lines {
            let before = julen.get(&name).copied().unwrap_or(0);
            line.counted += (before + j) / 3 - before / 3;
            julen.insert(name.clone(), before + j);
            line.paid = lost.min(3);
            let t = out.entry(name).or_default();
            t.counted += line.counted;
            t.rounds += line.rounds;
            if date <= "2026-11-30" {
                t.at_deadline += line.rounds;
            }
            t.best = t.best.max(line.counted);
            t.paid += line.paid;
            t.best_paid = t.best_paid.max(line.paid);
        }
    }
    out
}

/// The 1. Liga as of `as_of` (league.md §4), by name.
fn first_liga(file: &Value, as_of: &str, tot: &BTreeMap<String, Tot>) -> Vec<String> {
    let fee = |name: &str| {
        file["players"]
            .as_array()
            .unwrap()
            .iter()
            .find(|p| p["name"] == name)
            .and_then(|p| p["fee_paid_on"].as_str().map(str::to_string))
    };
    tot.iter()
        .filter(|(name, t)| {
            t.rounds >= 11
                && fee(name).is_some_and(|d| d.as_str() <= as_of)
                && (as_of <= "2026-11-30" || t.at_deadline >= 100)
        })
        .map(|(n, _)| n.clone())
        .collect()
}

/// Shared ranks of `(name, counted, rounds)` as league.md §3 (sort, then 1, 2, 2, 4): `name`'s.
fn rank_of(rows: &[(String, i64, i64)], name: &str) -> u32 {
    let better = |a: &(String, i64, i64), b: &(String, i64, i64)| {
        // a before b: a's D.Wert greater (a.c/a.r > b.c/b.r), then more rounds.
        (a.1 * b.2).cmp(&(b.1 * a.2)).then(a.2.cmp(&b.2)).reverse()
    };
    let mut sorted = rows.to_vec();
    sorted.sort_by(|a, b| better(a, b).then_with(|| a.0.cmp(&b.0)));
    let mut rank = 0;
    for (i, row) in sorted.iter().enumerate() {
        if i == 0 || better(&sorted[i - 1], row) != std::cmp::Ordering::Equal {
            rank = i as u32 + 1;
        }
        if row.0 == name {
            return rank;
        }
    }
    unreachable!()
}

/// The oracle's (place now, [(reach, safe)]) of every 1. Liga player, and the Lucky Looser race
/// (name, reach, safe) of every player who can still reach it.
type Expected = (
    BTreeMap<String, (u32, Vec<(Option<i64>, Option<i64>)>)>,
    Vec<(String, u32, Option<u32>)>,
);

fn oracle(file: &Value, as_of: &str) -> Expected {
    let tot = totals(file, as_of);
    let first = first_liga(file, as_of, &tot);
    let row = |n: &String, c: i64, r: i64| (n.clone(), c, r);
    let mut players = BTreeMap::new();
    for me in &first {
        let now: Vec<_> = first
            .iter()
            .map(|n| row(n, tot[n].counted, tot[n].rounds))
            .collect();
        let table = |x: i64, rivals_play: bool| -> Vec<(String, i64, i64)> {
            first
                .iter()
                .map(|n| {
                    let t = tot[n];
                    if n == me {
                        row(n, t.counted + x, t.rounds + RPN)
                    } else if rivals_play {
                        row(n, t.counted + t.best, t.rounds + RPN)
                    } else {
                        row(n, t.counted, t.rounds)
                    }
                })
                .collect()
        };
        let places = (1..=PLACES)
            .map(|p| {
                let fewest = |rivals| (0..=MAX_X).find(|&x| rank_of(&table(x, rivals), me) <= p);
                (fewest(false), fewest(true))
            })
            .collect();
        players.insert(me.clone(), (rank_of(&now, me), places));
    }
    let mut race = Vec::new();
    for (me, t) in &tot {
        let lucky = |k: i64, rivals: bool| {
            let top = tot
                .iter()
                .filter(|(n, _)| *n != me)
                .map(|(_, o)| o.paid + if rivals { o.best_paid } else { 0 })
                .max()
                .unwrap_or(0);
            t.paid + k >= top
        };
        let fewest = |rivals| (0..=3).find(|&k| lucky(k, rivals)).map(|k| k as u32);
        if let Some(reach) = fewest(false) {
            race.push((me.clone(), reach, fewest(true)));
        }
    }
    (players, race)
}

/// The library's answer in the oracle's shape.
fn library(season: &Season, as_of: &str) -> Expected {
    let s = scenario(season, Some(as_of.parse().unwrap()), &[]);
    assert_eq!(s.max_outs, MAX_X);
    let players = s
        .players
        .iter()
        .map(|p| {
            let places = p.places.iter().map(|c| (c.reach, c.safe)).collect();
            (p.player.clone(), (p.place_now, places))
        })
        .collect();
    let mut race: Vec<_> = s
        .lucky_looser
        .iter()
        .map(|l| (l.player.clone(), l.reach, l.safe))
        .collect();
    race.sort();
    (players, race)
}

/// What the checks of one season saw: shared places now, places out of reach, safe ≠ reach.
#[derive(Default, Debug)]
struct Seen {
    dates: usize,
    shared_now: usize,
    out_of_reach_best: usize,
    safe_above_reach: usize,
}

/// Checks the library against the oracle for every night's date of `file` (and a day after).
fn check(file: &Value) -> Seen {
    let season =
        Season::from_file(&serde_json::from_value::<SeasonFile>(file.clone()).unwrap()).unwrap();
    let mut seen = Seen::default();
    for night in file["nights"].as_array().unwrap() {
        let d = night["date"].as_str().unwrap();
        let (want, mut want_race) = oracle(file, d);
        want_race.sort();
        let (got, got_race) = library(&season, d);
        assert_eq!(got, want, "{d}: places");
        assert_eq!(got_race, want_race, "{d}: Lucky Looser");
        seen.dates += 1;
        let mut places: Vec<u32> = want.values().map(|v| v.0).collect();
        places.sort();
        seen.shared_now += places.windows(2).filter(|w| w[0] == w[1]).count();
        seen.out_of_reach_best += want.values().filter(|v| v.1[0].0.is_none()).count();
        seen.safe_above_reach += want
            .values()
            .flat_map(|v| v.1.iter())
            .filter(|(r, s)| s.is_some() && s > r)
            .count();
    }
    eprintln!("{seen:?}");
    seen
}

/// A night of 10 rounds at one table: `outs[i]` = (Outs, Hand-Outs) of player i spread at most 3
/// a round; `joker[i]` his Joker round (0 none); `julen[i]` in round 1; round r lost by
/// `losers[r % len]`; `rounds[i]` the rounds player i plays (from round 1; at least 2 play).
struct Spec<'a> {
    date: &'a str,
    players: &'a [&'a str],
    outs: &'a [(u32, u32)],
    rounds: &'a [u32],
    joker: &'a [u32],
    julen: &'a [u32],
    losers: &'a [usize],
}

fn night(s: &Spec) -> Value {
    let mut left: Vec<(u32, u32)> = s.outs.to_vec();
    let rounds: Vec<Value> = (1..=10u32)
        .map(|r| {
            let playing: Vec<usize> = (0..s.players.len()).filter(|&i| s.rounds[i] >= r).collect();
            let loser = playing[s.losers[r as usize % s.losers.len()] % playing.len()];
            let results: Vec<Value> = playing
                .iter()
                .map(|&i| {
                    let outs = left[i].0.min(3);
                    let hand = left[i].1.min(outs);
                    left[i].0 -= outs;
                    left[i].1 -= hand;
                    json!({ "player": s.players[i], "outs": outs, "hand_outs": hand,
                            "julen": if r == 1 { s.julen.get(i).copied().unwrap_or(0) } else { 0 },
                            "joker": s.joker.get(i).copied() == Some(r), "lost": i == loser })
                })
                .collect();
            json!({ "number": r, "results": results })
        })
        .collect();
    assert!(
        left.iter().all(|l| *l == (0, 0)),
        "{}: too many Outs",
        s.date
    );
    json!({ "date": s.date, "tables": [{ "number": 1, "rounds": rounds }], "fines": [] })
}

fn season_file(players: &[&str], nights: Vec<Value>) -> Value {
    let players: Vec<Value> = players
        .iter()
        .map(|p| json!({ "name": p, "fee_paid_on": "2026-01-15" }))
        .collect();
    json!({ "format": "schockerliga-season/1", "season": 2026, "rules": {}, "players": players,
            "nights": nights })
}

/// Anna and Bernd equal in every night (a shared place), Carla far ahead (25 a night), Elke
/// without an Out: place 1 out of her reach (66 in 40 rounds is 16,50 < 25,00).
fn built_shared() -> Value {
    let players = ["Anna", "Bernd", "Carla", "Dirk", "Elke", "Fritz"];
    let nights = ["2026-09-04", "2026-09-18", "2026-10-02"]
        .iter()
        .enumerate()
        .map(|(k, d)| {
            night(&Spec {
                date: d,
                players: &players,
                outs: &[(6, 1), (6, 1), (25, 3), (4 + k as u32, 0), (0, 0), (2, 2)],
                rounds: &[10; 6],
                joker: &[3, 3, 0, 0, 0, 0],
                julen: &[1, 1, 0, 2, 0, 4],
                losers: &[4, 5, 0, 4, 4, 4, 1],
            })
        })
        .collect();
    season_file(&players, nights)
}

/// Late arrivals (fewer rounds: equal D.Wert, fewer rounds ranks lower), a tie by rounds, and a
/// player under 11 rounds (Kreisliga), after the 1. Liga deadline with 100 rounds reached.
fn built_rounds() -> Value {
    let players = ["Gabi", "Hans", "Ines", "Jan", "Kurt"];
    let mut nights = Vec::new();
    for (k, d) in (0..10).zip([
        "2026-01-09",
        "2026-02-06",
        "2026-03-06",
        "2026-04-03",
        "2026-05-08",
        "2026-06-05",
        "2026-07-03",
        "2026-08-07",
        "2026-09-04",
        "2026-10-02",
    ]) {
        nights.push(night(&Spec {
            date: d,
            players: &players,
            outs: &[
                (5, 1),
                (4 + (k % 3), 0),
                (3, 0),
                (6, 0),
                (u32::from(k == 0), 0),
            ],
            rounds: &[
                10,
                10,
                if k % 2 == 0 { 5 } else { 10 },
                10,
                if k == 0 { 4 } else { 0 },
            ],
            joker: &[1, 0, 2, 0, 0],
            julen: &[0, 1, 2, 0, 0],
            losers: &[1, 2, 3, 2, 2, 0],
        }));
    }
    nights.push(night(&Spec {
        date: "2026-12-04",
        players: &players[..4],
        outs: &[(5, 1), (4, 0), (3, 0), (6, 0)],
        rounds: &[10, 10, 8, 10],
        joker: &[],
        julen: &[],
        losers: &[2, 2, 2, 2, 1],
    }));
    season_file(&players, nights)
}

#[test]
fn the_scenario_equals_the_oracle_on_the_sample_season() {
    let file: Value = serde_json::from_str(&fixture_text("sample-2026.season.json")).unwrap();
    let seen = check(&file);
    assert_eq!(seen.dates, 40);
    assert!(seen.safe_above_reach > 0, "{seen:?}");
}

#[test]
fn the_scenario_equals_the_oracle_on_the_small_season() {
    let file: Value = serde_json::from_str(&fixture_text("small-2026.season.json")).unwrap();
    assert!(check(&file).dates > 0);
}

#[test]
fn the_scenario_equals_the_oracle_with_shared_places_and_a_place_out_of_reach() {
    let seen = check(&built_shared());
    assert!(seen.shared_now > 0, "{seen:?}");
    assert!(seen.out_of_reach_best > 0, "{seen:?}");
    assert!(seen.safe_above_reach > 0, "{seen:?}");
}

#[test]
fn the_scenario_equals_the_oracle_with_late_arrivals_and_the_deadline() {
    let seen = check(&built_rounds());
    assert_eq!(seen.dates, 11);
}
