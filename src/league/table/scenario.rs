//! What the last night can still bring (league.md §11 "What the last night can bring", issue 39.1):
//! from the table as of a date with one night left, for every 1. Liga player and paid place p the
//! fewest counted Outs of a full night that put him on place p or better if nobody else plays
//! (`reach`) and the fewest that keep him there even if every other 1. Liga player plays a full
//! night with the counted Outs of his own best night of the season (`safe`); the Lucky Looser race
//! likewise in paid rounds (at most `sozialfall_after` a night, league.md §7). Ranks as league.md
//! §3: D.Wert exactly, then rounds, equal players share the place. Names only the model.

use std::collections::BTreeMap;

use chrono::NaiveDate;
use serde::Serialize;

use super::standings::{standings, DWert};
use crate::league::model::rules::{Liga, SeasonRules};
use crate::league::model::season::Season;

/// The scenario of a season as of a date (issue 39.1).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Scenario {
    /// The as-of date of the table it starts from; `None` for a season without results.
    pub as_of: Option<NaiveDate>,
    /// The most counted Outs one player can score in a full night ([`max_counted_outs`]).
    pub max_outs: i64,
    /// The 1. Liga players as of `as_of`, by their place now, then name.
    pub players: Vec<ScenarioPlayer>,
    /// The Lucky Looser race: every player who can still have the most paid rounds.
    pub lucky_looser: Vec<LuckyChance>,
}

/// One 1. Liga player's chances (issue 39.1).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ScenarioPlayer {
    /// The name.
    pub player: String,
    /// His place in the 1. Liga as of the date (shared places as league.md §3).
    pub place_now: u32,
    /// His counted Outs up to the date.
    pub counted_outs: i64,
    /// His rounds up to the date.
    pub rounds: u32,
    /// The counted Outs of his best night of the season up to the date.
    pub best_night: i64,
    /// One entry per paid place 1..=n (n = the places of `payout_percent`).
    pub places: Vec<PlaceChance>,
}

/// What one paid place asks of a player on the last night.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PlaceChance {
    /// The paid place (1-based).
    pub place: u32,
    /// Fewest counted Outs (0..=max_outs) of a full night putting him on this place or better
    /// when nobody else plays; `None` when no number does ("nicht mehr erreichbar").
    pub reach: Option<i64>,
    /// Fewest counted Outs keeping him there even if every other 1. Liga player plays a full
    /// night with the counted Outs of his own best night; `None` when no number does.
    pub safe: Option<i64>,
    /// The cents of this place from the pot given (one payee, no tie sharing).
    pub cents: i64,
}

/// One player's chance in the Lucky Looser race (league.md §7), in paid rounds.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct LuckyChance {
    /// The name.
    pub player: String,
    /// His paid rounds up to the date.
    pub paid_rounds: u32,
    /// Fewest paid rounds (0..=sozialfall_after) on the last night giving him the most paid rounds
    /// of the season (ties share) when nobody else pays.
    pub reach: u32,
    /// Fewest keeping him there even if everybody else pays as many rounds as in his own
    /// best-paying night of the season; `None` when no number does.
    pub safe: Option<u32>,
}

/// The most counted Outs of one full night (league.md §1, §2): every round 3 Hand-Outs (the limit
/// of Outs per round), one of them his Joker-Runde. Julen are left out (no bound on them).
pub fn max_counted_outs(rules: &SeasonRules) -> i64 {
    let round = 3 * rules.hand_out_points.max(rules.out_points);
    let joker = rules.joker_multiplier.unwrap_or(1).max(1);
    i64::from(rules.rounds_per_night.saturating_sub(1)) * round + round * joker
}

/// One player's totals for the race: counted Outs, rounds, best night; paid rounds, best night.
#[derive(Debug, Clone, Copy, Default)]
struct Line {
    counted: i64,
    rounds: u32,
    best: i64,
    paid: u32,
    best_paid: u32,
}

/// Every player's [`Line`] from the nights up to and including `as_of`.
fn lines(season: &Season, as_of: NaiveDate) -> BTreeMap<String, Line> {
    let rules = &season.rules;
    let played = season.nights.partition_point(|n| n.date <= as_of);
    let mut out: BTreeMap<String, Line> = BTreeMap::new();
    let mut before: BTreeMap<String, (i64, u32)> = BTreeMap::new();
    for after in season.running().iter().take(played) {
        for (name, t) in after {
            let counted = t.counted_outs(rules);
            let (c0, p0) = before.get(name).copied().unwrap_or((0, 0));
            let line = out.entry(name.clone()).or_default();
            line.counted = counted;
            line.rounds = t.rounds;
            line.paid = t.paid_rounds;
            line.best = line.best.max(counted - c0);
            line.best_paid = line.best_paid.max(t.paid_rounds - p0);
            before.insert(name.clone(), (counted, t.paid_rounds));
        }
    }
    out
}

/// The place of a player with D.Wert `me` and `rounds` among `others` (league.md §3: one more than
/// the players strictly better by D.Wert, then rounds).
fn place_among(me: (DWert, u32), others: impl Iterator<Item = (DWert, u32)>) -> u32 {
    1 + others.filter(|o| *o > me).count() as u32
}

/// The fewest `x` in `0..=max` with `ok(x)`; `ok` is monotone (more Outs never lose a place).
fn fewest(max: i64, ok: impl Fn(i64) -> bool) -> Option<i64> {
    (0..=max).find(|&x| ok(x))
}

/// The scenario of `season` from the table as of `as_of` (`None`: the last night with results),
/// the paid places' cents from `place_cents` (`place_cents[p-1]`, 0 where missing). The 1. Liga is
/// the one of the table as of that date (its players keep their Liga on the last night).
pub fn scenario(season: &Season, as_of: Option<NaiveDate>, place_cents: &[i64]) -> Scenario {
    let rules = &season.rules;
    let max_outs = max_counted_outs(rules);
    let table = standings(season, as_of);
    let Some(date) = table.as_of.filter(|_| !season.is_endstand()) else {
        return Scenario {
            as_of: table.as_of,
            max_outs,
            players: Vec::new(),
            lucky_looser: Vec::new(),
        };
    };
    let lines = lines(season, date);
    let rpn = rules.rounds_per_night;
    let dw = |c: i64, r: u32| DWert::new(c, r, rpn).unwrap_or(DWert { num: 0, den: 1 });
    let first: Vec<(&str, u32, Line)> = table
        .rows
        .iter()
        .filter(|r| r.liga == Liga::First)
        .map(|r| {
            (
                r.player.as_str(),
                r.rank,
                lines.get(&r.player).copied().unwrap_or_default(),
            )
        })
        .collect();
    let players = first
        .iter()
        .map(|&(name, rank, me)| {
            let others = || first.iter().filter(move |o| o.0 != name).map(|o| o.2);
            let mine = |x: i64| (dw(me.counted + x, me.rounds + rpn), me.rounds + rpn);
            let places = (1..=rules.payout_percent.len() as u32)
                .map(|p| PlaceChance {
                    place: p,
                    reach: fewest(max_outs, |x| {
                        place_among(
                            mine(x),
                            others().map(|o| (dw(o.counted, o.rounds), o.rounds)),
                        ) <= p
                    }),
                    safe: fewest(max_outs, |x| {
                        let rival =
                            |o: Line| (dw(o.counted + o.best, o.rounds + rpn), o.rounds + rpn);
                        place_among(mine(x), others().map(rival)) <= p
                    }),
                    cents: place_cents.get(p as usize - 1).copied().unwrap_or(0),
                })
                .collect();
            ScenarioPlayer {
                player: name.to_string(),
                place_now: rank,
                counted_outs: me.counted,
                rounds: me.rounds,
                best_night: me.best,
                places,
            }
        })
        .collect();
    Scenario {
        as_of: Some(date),
        max_outs,
        players,
        lucky_looser: lucky_race(&lines, rules.sozialfall_after),
    }
}

/// The Lucky Looser race (league.md §7): every player who can still reach the most paid rounds
/// with at most `most_a_night` paid rounds on the last night, by paid rounds (most first), then name.
fn lucky_race(lines: &BTreeMap<String, Line>, most_a_night: u32) -> Vec<LuckyChance> {
    let mut race: Vec<LuckyChance> = lines
        .iter()
        .filter(|(_, l)| l.rounds > 0)
        .filter_map(|(name, me)| {
            let others = || {
                lines
                    .iter()
                    .filter(move |(n, _)| *n != name)
                    .map(|(_, l)| *l)
            };
            let top = others().map(|o| o.paid).max().unwrap_or(0);
            let top_best = others().map(|o| o.paid + o.best_paid).max().unwrap_or(0);
            let fewest = |bar: u32| (0..=most_a_night).find(|k| me.paid + k >= bar);
            Some(LuckyChance {
                player: name.clone(),
                paid_rounds: me.paid,
                reach: fewest(top)?,
                safe: fewest(top_best),
            })
        })
        .collect();
    race.sort_by(|a, b| {
        b.paid_rounds
            .cmp(&a.paid_rounds)
            .then_with(|| a.player.cmp(&b.player))
    });
    race
}

#[cfg(test)]
mod tests;
