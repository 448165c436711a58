//! Per-player and per-night views (league.md §2, §3, §4, §7): a player's season night by night with
//! his D.Wert and Liga after each night, and one night's tables, counted Outs, paid rounds and
//! Sozialfälle.

use std::collections::BTreeMap;

use chrono::NaiveDate;
use serde::Serialize;

use super::running::totals_up_to;
use super::standings::{liga_of, standings, DWert};
use crate::league::model::rules::Liga;
use crate::league::model::season::{row_points, Fine, Round, Season};

/// A player's season, night by night (only nights he played).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PlayerHistory {
    /// The player's name.
    pub player: String,
    /// His nights in date order.
    pub nights: Vec<PlayerNight>,
    /// Julen not yet converted after his last night (0..julen_per_out).
    pub open_julen: u32,
}

/// One night of a player (league.md §2 Julen conversion per night, §7 paid rounds).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PlayerNight {
    /// The night's date.
    pub date: NaiveDate,
    /// The table he played at.
    pub table: u32,
    /// His rounds of the night, by round number (empty for a night recorded as totals).
    pub rounds: Vec<RoundLine>,
    /// The night was recorded as totals: no round lines (a round's figures are not available).
    pub recorded_as_totals: bool,
    /// Rounds he played at this night (the round lines, or his totals row's rounds).
    pub rounds_played: u32,
    /// Julen of the night.
    pub julen: u32,
    /// Counted Outs from Julen at this night: floor(J(night)/n) − floor(J(previous)/n).
    pub julen_outs: u32,
    /// Open Julen carried to his next night.
    pub open_julen: u32,
    /// Counted Outs of the night: Σ row values + julen_outs.
    pub counted_outs: i64,
    /// Rounds lost at this night.
    pub lost_rounds: u32,
    /// Rounds paid at this night (at most `sozialfall_after`).
    pub paid_rounds: u32,
    /// He became a Sozialfall this night.
    pub sozialfall: bool,
    /// Season rounds after this night.
    pub season_rounds: u32,
    /// Season counted Outs after this night.
    pub season_counted_outs: i64,
    /// His exact D.Wert after this night.
    pub d_wert: DWert,
    /// The same as a float (counted Outs × rounds_per_night / rounds).
    pub d_wert_f64: f64,
    /// His Liga as of this night.
    pub liga: Liga,
    /// His rank in that Liga as of this night.
    pub rank: u32,
}

/// One round of a player.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct RoundLine {
    /// Round number at his table.
    pub round: u32,
    /// Schock Outs of every kind.
    pub outs: u32,
    /// Of those, Hand-Outs.
    pub hand_outs: u32,
    /// Julen thrown.
    pub julen: u32,
    /// His Joker-Runde.
    pub joker: bool,
    /// He lost the round.
    pub lost: bool,
    /// He paid it (lost and not yet a Sozialfall).
    pub paid: bool,
    /// Counted Outs of the row (Hand-Out points, Joker), without Julen.
    pub points: i64,
}

/// One night at a glance.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct NightSummary {
    /// The night's date.
    pub date: NaiveDate,
    /// The night was recorded as totals per player: its tables have no rounds, the players no
    /// Joker-Runde (round-level figures are not available).
    pub recorded_as_totals: bool,
    /// Its tables.
    pub tables: Vec<TableSummary>,
    /// Every participant, by name.
    pub players: Vec<NightPlayer>,
    /// Fines of the night, in entry order.
    pub fines: Vec<Fine>,
    /// Participants who became Sozialfall, by name.
    pub sozialfaelle: Vec<String>,
}

/// One table of a night.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct TableSummary {
    /// Table number.
    pub number: u32,
    /// Its players, by name.
    pub players: Vec<String>,
    /// Rounds played at it (its rounds, or for a night recorded as totals the most rounds of one
    /// of its players).
    pub rounds_played: u32,
    /// Its rounds with every player's row, by round number (empty for a night recorded as totals).
    pub rounds: Vec<Round>,
}

/// One participant of a night.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct NightPlayer {
    /// The player's name.
    pub player: String,
    /// His table.
    pub table: u32,
    /// Rounds he played.
    pub rounds: u32,
    /// Schock Outs thrown.
    pub outs: u32,
    /// Of those, Hand-Outs.
    pub hand_outs: u32,
    /// Julen thrown.
    pub julen: u32,
    /// Counted Outs from Julen at this night (with the carry from earlier nights).
    pub julen_outs: u32,
    /// Counted Outs of the night: row values + julen_outs.
    pub counted_outs: i64,
    /// The round number of his Joker-Runde, if declared (`None` for a night recorded as totals:
    /// not known).
    pub joker_round: Option<u32>,
    /// Rounds lost.
    pub lost_rounds: u32,
    /// Rounds paid (at most `sozialfall_after`).
    pub paid_rounds: u32,
    /// He became a Sozialfall this night.
    pub sozialfall: bool,
}

/// Julen of `player` on nights strictly before `date` (rounds or totals rows): the oracle of
/// [`night_summary`]'s Julen before the night in the tests.
#[cfg(test)]
fn julen_before(season: &Season, player: &str, date: NaiveDate) -> u32 {
    season
        .nights
        .iter()
        .filter(|n| n.date < date)
        .flat_map(|n| {
            let rounds = n
                .rows()
                .filter(|(_, _, r)| r.player == player)
                .map(|(_, _, r)| r.julen);
            let totals = n
                .totals
                .iter()
                .filter(|t| t.player == player)
                .map(|t| t.julen);
            rounds.chain(totals)
        })
        .sum()
}

/// The season of `player`, night by night; `None` when no such player. Each night lists his rounds
/// (with paid and counted points), Julen conversion with carry, and his D.Wert, Liga and rank after it.
pub fn player_history(season: &Season, player: &str) -> Option<PlayerHistory> {
    let player = season.player(player)?.name.clone();
    let rules = &season.rules;
    let per = rules.julen_per_out;
    let mut nights = Vec::new();
    let mut julen_total = 0u32;
    for night in &season.nights {
        let mut mine: Vec<(u32, u32, &crate::league::model::file::ResultEntry)> = night
            .rows()
            .filter(|(_, _, r)| r.player == player)
            .collect();
        let recorded = night.totals.iter().find(|t| t.player == player);
        if let Some(row) = recorded {
            // A night recorded as totals: the same figures, without round lines.
            let julen_outs = (julen_total + row.julen) / per - julen_total / per;
            julen_total += row.julen;
            let totals = totals_up_to(season, night.date);
            let t = totals.get(&player).cloned().unwrap_or_default();
            let season_counted = t.counted_outs(rules);
            let d_wert = DWert::new(season_counted, t.rounds, rules.rounds_per_night)
                .unwrap_or(DWert { num: 0, den: 1 });
            let rank = standings(season, Some(night.date))
                .rows
                .iter()
                .find(|r| r.player == player)
                .map_or(0, |r| r.rank);
            nights.push(PlayerNight {
                date: night.date,
                table: row.table,
                rounds: Vec::new(),
                recorded_as_totals: true,
                rounds_played: row.rounds,
                julen: row.julen,
                julen_outs,
                open_julen: julen_total % per,
                counted_outs: row.points + i64::from(julen_outs),
                lost_rounds: row.lost,
                paid_rounds: row.lost.min(rules.sozialfall_after),
                sozialfall: row.lost >= rules.sozialfall_after,
                season_rounds: t.rounds,
                season_counted_outs: season_counted,
                d_wert,
                d_wert_f64: d_wert.as_f64(),
                liga: liga_of(season, &player, &t, night.date),
                rank,
            });
            continue;
        }
        if mine.is_empty() {
            continue;
        }
        mine.sort_by_key(|(_, round, _)| *round);
        let mut paid_so_far = 0u32;
        let rounds: Vec<RoundLine> = mine
            .iter()
            .map(|(_, round, r)| {
                let paid = r.lost && paid_so_far < rules.sozialfall_after;
                paid_so_far += u32::from(paid);
                RoundLine {
                    round: *round,
                    outs: r.outs,
                    hand_outs: r.hand_outs,
                    julen: r.julen,
                    joker: r.joker,
                    lost: r.lost,
                    paid,
                    points: row_points(rules, r),
                }
            })
            .collect();
        let julen: u32 = rounds.iter().map(|r| r.julen).sum();
        let julen_outs = (julen_total + julen) / per - julen_total / per;
        julen_total += julen;
        let lost_rounds = rounds.iter().filter(|r| r.lost).count() as u32;
        let totals = totals_up_to(season, night.date);
        let t = totals.get(&player).cloned().unwrap_or_default();
        let season_counted = t.counted_outs(rules);
        let d_wert = DWert::new(season_counted, t.rounds, rules.rounds_per_night)
            .unwrap_or(DWert { num: 0, den: 1 });
        let rank = standings(season, Some(night.date))
            .rows
            .iter()
            .find(|r| r.player == player)
            .map_or(0, |r| r.rank);
        nights.push(PlayerNight {
            date: night.date,
            table: mine[0].0,
            recorded_as_totals: false,
            rounds_played: mine.len() as u32,
            counted_outs: rounds.iter().map(|r| r.points).sum::<i64>() + i64::from(julen_outs),
            julen,
            julen_outs,
            open_julen: julen_total % per,
            lost_rounds,
            paid_rounds: paid_so_far,
            sozialfall: lost_rounds >= rules.sozialfall_after,
            season_rounds: t.rounds,
            season_counted_outs: season_counted,
            d_wert,
            d_wert_f64: d_wert.as_f64(),
            liga: liga_of(season, &player, &t, night.date),
            rank,
            rounds,
        });
    }
    Some(PlayerHistory {
        player,
        nights,
        open_julen: julen_total % per,
    })
}

/// The night on `date` at a glance, `None` when there is no night that day: its tables, each
/// participant's counted Outs of the night (Julen carry included), paid rounds and who became Sozialfall.
pub fn night_summary(season: &Season, date: NaiveDate) -> Option<NightSummary> {
    let night = season.night(date)?;
    let rules = &season.rules;
    let per = rules.julen_per_out;
    let mut tables: Vec<TableSummary> = night
        .tables
        .iter()
        .map(|t| {
            let mut players: Vec<String> = t
                .rounds
                .iter()
                .flat_map(|r| r.results.iter().map(|x| x.player.clone()))
                .collect();
            players.sort();
            players.dedup();
            TableSummary {
                number: t.number,
                players,
                rounds_played: t.rounds.len() as u32,
                rounds: t.rounds.clone(),
            }
        })
        .collect();
    if night.recorded_as_totals() {
        for number in night.table_numbers() {
            let mut players: Vec<String> = night
                .totals
                .iter()
                .filter(|t| t.table == number)
                .map(|t| t.player.clone())
                .collect();
            players.sort();
            tables.push(TableSummary {
                number,
                players,
                rounds_played: night.rounds_at(number),
                rounds: Vec::new(),
            });
        }
    }
    // Each player's Julen before the night, from the season's totals after the night before
    // (issue 25: summed per player over every earlier row, for every night of a season's records
    // and curves), and his table and Joker round in one pass over the night's rows.
    let before_night = date
        .pred_opt()
        .map(|d| totals_up_to(season, d))
        .unwrap_or_default();
    let mut seats: BTreeMap<&str, (u32, Option<u32>)> = BTreeMap::new();
    for (tn, rn, r) in night.rows() {
        let seat = seats.entry(r.player.as_str()).or_insert((0, None));
        seat.0 = tn;
        if r.joker {
            seat.1 = Some(rn);
        }
    }
    let mut totals_table: BTreeMap<&str, u32> = BTreeMap::new();
    for t in &night.totals {
        totals_table.entry(t.player.as_str()).or_insert(t.table);
    }
    let players: Vec<NightPlayer> = night
        .per_player(rules)
        .into_iter()
        .map(|(name, t)| {
            let before = before_night.get(name).map_or(0, |b| b.julen);
            let julen_outs = (before + t.julen) / per - before / per;
            let (mut table, joker_round) = seats.get(name).copied().unwrap_or((0, None));
            if let Some(t) = totals_table.get(name) {
                table = *t;
            }
            NightPlayer {
                player: name.to_string(),
                table,
                rounds: t.rounds,
                outs: t.outs,
                hand_outs: t.hand_outs,
                julen: t.julen,
                julen_outs,
                counted_outs: t.row_points + i64::from(julen_outs),
                joker_round,
                lost_rounds: t.lost,
                paid_rounds: t.lost.min(rules.sozialfall_after),
                sozialfall: t.lost >= rules.sozialfall_after,
            }
        })
        .collect();
    let sozialfaelle = players
        .iter()
        .filter(|p| p.sozialfall)
        .map(|p| p.player.clone())
        .collect();
    Some(NightSummary {
        date,
        recorded_as_totals: night.recorded_as_totals(),
        tables,
        players,
        fines: night.fines.clone(),
        sozialfaelle,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The Julen-Outs of each night counted from the season's kept totals are those of summing
    /// each player's earlier rows (issue 25), on every night of the fixture seasons.
    #[test]
    fn each_nights_julen_outs_count_the_julen_of_the_nights_before() {
        for text in [
            include_str!("../../../tests/fixtures/sample-2026.season.json"),
            include_str!("../../../tests/fixtures/small-2026.season.json"),
            include_str!("../../../tests/fixtures/schockbesteck-11-julen.season.json"),
        ] {
            let f: crate::league::model::file::SeasonFile = serde_json::from_str(text).unwrap();
            let s = Season::from_file(&f).unwrap();
            let per = s.rules.julen_per_out;
            for n in &s.nights {
                let summary = night_summary(&s, n.date).unwrap();
                for p in &summary.players {
                    let before = julen_before(&s, &p.player, n.date);
                    assert_eq!(
                        p.julen_outs,
                        (before + p.julen) / per - before / per,
                        "{} {}",
                        n.date,
                        p.player
                    );
                }
            }
        }
    }
}
