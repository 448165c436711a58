//! Season curves (league.md §2, §3, §4): per player and night his D.Wert and place after the night
//! and his counted Outs of the night, the data of a D.Wert or place chart. Built on [`standings`]
//! (one table per night) and [`night_summary`] (counted Outs of a night, Julen carry included).

use chrono::NaiveDate;
use serde::Serialize;

use crate::league::model::rules::Liga;
use crate::league::model::season::Season;
use crate::league::table::nights::night_summary;
use crate::league::table::standings::{standings, DWert};

/// One point of a player's curve: the table as of one night (league.md §3, §4).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CurvePoint {
    /// The night's date.
    pub date: NaiveDate,
    /// He played at this night (else the point only carries his table values forward).
    pub attended: bool,
    /// His counted Outs of this night (row values + Julen converted at this night; 0 when absent;
    /// league.md §2).
    pub night_counted_outs: i64,
    /// His season rounds after the night.
    pub rounds: u32,
    /// His season counted Outs after the night.
    pub counted_outs: i64,
    /// His exact D.Wert after the night (counted Outs × rounds_per_night / rounds).
    pub d_wert: DWert,
    /// The same as a float.
    pub d_wert_f64: f64,
    /// His Liga as of the night.
    pub liga: Liga,
    /// His rank in that Liga as of the night (shared ranks 1, 2, 2, 4).
    pub rank: u32,
}

/// One player's curve (league.md §3, §4): a point for every night of the season from his first night on.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PlayerCurve {
    /// The player's name.
    pub player: String,
    /// One point per night from his first night on, in date order.
    pub points: Vec<CurvePoint>,
}

/// The curves of a season (league.md §3, §4): the nights and one curve per player.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SeasonCurves {
    /// The season's year.
    pub season: i32,
    /// Every night's date, in order (the x axis).
    pub dates: Vec<NaiveDate>,
    /// One curve per player with a round, in the order of the final table (Liga, rank, name).
    pub players: Vec<PlayerCurve>,
}

/// The curves of every player of `season` (league.md §2–§4): after each night of the season, for each
/// player listed as of that night, his D.Wert (exact and float), Liga and rank and his counted Outs
/// of that night. Players are in the order of the table after the last night.
pub fn season_curves(season: &Season) -> SeasonCurves {
    let order: Vec<String> = standings(season, None)
        .rows
        .into_iter()
        .map(|r| r.player)
        .collect();
    let mut players: Vec<PlayerCurve> = order
        .into_iter()
        .map(|player| PlayerCurve {
            player,
            points: Vec::new(),
        })
        .collect();
    for night in &season.nights {
        let table = standings(season, Some(night.date));
        let summary = night_summary(season, night.date);
        for row in &table.rows {
            let Some(curve) = players.iter_mut().find(|c| c.player == row.player) else {
                continue;
            };
            let played = summary
                .as_ref()
                .and_then(|s| s.players.iter().find(|p| p.player == row.player));
            let d_wert = row.d_wert_exact();
            curve.points.push(CurvePoint {
                date: night.date,
                attended: played.is_some(),
                night_counted_outs: played.map_or(0, |p| p.counted_outs),
                rounds: row.rounds,
                counted_outs: row.counted_outs,
                d_wert,
                d_wert_f64: d_wert.as_f64(),
                liga: row.liga,
                rank: row.rank,
            });
        }
    }
    SeasonCurves {
        season: season.year,
        dates: season.nights.iter().map(|n| n.date).collect(),
        players,
    }
}

/// The curve of `player` (exact canonical name) in `season`, `None` when he has no round in it
/// (league.md §2–§4); the same points as in [`season_curves`].
pub fn player_curve(season: &Season, player: &str) -> Option<PlayerCurve> {
    season_curves(season)
        .players
        .into_iter()
        .find(|c| c.player == player)
}

#[cfg(test)]
mod tests;
