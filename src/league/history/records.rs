//! Records and streaks (league.md §1, §2, §7), per season and all-time. Every record lists all its
//! holders when tied, each with the night (date) where it applies (a streak with its first and last
//! night, the round record with table and round). A record needs a value of at least 1: a season
//! without any Hand-Out has a Hand-Out record of 0 with no holders.
//!
//! **Streaks stay inside a season** (like open Julen, league.md §2): a run ends with the season's
//! last night and the next season starts new runs. The all-time streak records are the best season
//! runs, every tied run listed with its season.

use std::collections::BTreeMap;

use chrono::NaiveDate;
use serde::Serialize;

use crate::league::model::season::{row_points, Season};
use crate::league::table::nights::night_summary;
use crate::league::table::standings::standings;

/// The kinds of record (league.md §1, §2, §7), in display order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum RecordKind {
    /// Most counted Outs of one player at one night (row values + Julen converted that night; §2).
    CountedOutsNight,
    /// Most counted Outs of one result row (one round; a Joker-Runde doubles them; §2).
    CountedOutsRound,
    /// Most Hand-Outs of one player at one night (§1).
    HandOutsNight,
    /// Most Julen of one player in one season (§1).
    JulenSeason,
    /// Most consecutive nights of the season at each of which the player threw at least one Schock
    /// Out: a night he played without an Out breaks the run, and so does a night he missed (issue
    /// 21.6: counted like [`RecordKind::AttendanceStreak`], over the season's nights in a row).
    OutStreak,
    /// Most consecutive nights of the season the player attended (a missed night breaks the run).
    AttendanceStreak,
    /// Most lost rounds of one player at one night (§7: lost, not paid — the paid rounds stop at
    /// `sozialfall_after`, so their record was shared by everyone who ever became a Sozialfall;
    /// issue 31.11).
    LostRoundsNight,
}

impl RecordKind {
    /// Whether the record looks at single rounds (then nights recorded as totals cannot count).
    pub fn needs_rounds(self) -> bool {
        self == RecordKind::CountedOutsRound
    }

    /// Every kind, in display order.
    pub const ALL: [RecordKind; 7] = [
        RecordKind::CountedOutsNight,
        RecordKind::CountedOutsRound,
        RecordKind::HandOutsNight,
        RecordKind::JulenSeason,
        RecordKind::OutStreak,
        RecordKind::AttendanceStreak,
        RecordKind::LostRoundsNight,
    ];

    /// The German title of the record, e.g. „Meiste gewertete Outs an einem Abend“.
    pub fn label(self) -> &'static str {
        match self {
            RecordKind::CountedOutsNight => "Meiste gewertete Outs an einem Abend",
            RecordKind::CountedOutsRound => "Meiste gewertete Outs in einer Runde",
            RecordKind::HandOutsNight => "Meiste Hand-Outs an einem Abend",
            RecordKind::JulenSeason => "Meiste Julen in einer Saison",
            RecordKind::OutStreak => "Meiste Abende in Folge mit Out",
            RecordKind::AttendanceStreak => "Meiste Abende in Folge dabei",
            RecordKind::LostRoundsNight => "Meiste verlorene Runden an einem Abend",
        }
    }
}

/// One holder of a record (league.md §1): who, in which season, and on which night, table and round.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize)]
pub struct RecordHolder {
    /// The season's year.
    pub season: i32,
    /// The night; for a streak its first night; `None` for a season record (Julen).
    pub date: Option<NaiveDate>,
    /// The last night of a streak; `None` otherwise.
    pub until: Option<NaiveDate>,
    /// The table of the round record; `None` otherwise.
    pub table: Option<u32>,
    /// The round number of the round record; `None` otherwise.
    pub round: Option<u32>,
    /// The player's name (as spelled that season).
    pub player: String,
}

/// One record (league.md §1, §2, §7): its value and every holder (sorted by season, date, table,
/// round, player).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Record {
    /// What is counted.
    pub kind: RecordKind,
    /// The German title.
    pub label: &'static str,
    /// The record value: counted Outs, Hand-Outs, Julen, nights or lost rounds as the kind says.
    pub value: i64,
    /// Everyone holding it (empty when the value is 0).
    pub holders: Vec<RecordHolder>,
    /// Nights it could not look at: for a record of one round ([`RecordKind::needs_rounds`]) the
    /// nights recorded as totals (their rounds are not known); 0 otherwise.
    pub nights_not_available: u32,
}

/// The records of one season or of all seasons (league.md §1, §2, §7).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Records {
    /// The season's year; `None` for the all-time records.
    pub season: Option<i32>,
    /// One record per [`RecordKind`], in [`RecordKind::ALL`] order.
    pub records: Vec<Record>,
}

impl Records {
    /// The record of `kind`.
    pub fn get(&self, kind: RecordKind) -> Option<&Record> {
        self.records.iter().find(|r| r.kind == kind)
    }
}

/// Keeps the best value and everyone reaching it (values below 1 hold no record).
#[derive(Default)]
struct Best {
    value: i64,
    holders: Vec<RecordHolder>,
}

impl Best {
    fn offer(&mut self, value: i64, holder: RecordHolder) {
        if value < 1 || value < self.value {
            return;
        }
        if value > self.value {
            self.value = value;
            self.holders.clear();
        }
        self.holders.push(holder);
    }

    fn into_record(mut self, kind: RecordKind) -> Record {
        self.holders.sort();
        Record {
            kind,
            label: kind.label(),
            value: self.value,
            holders: self.holders,
            nights_not_available: 0,
        }
    }
}

fn holder(season: i32, player: &str) -> RecordHolder {
    RecordHolder {
        season,
        date: None,
        until: None,
        table: None,
        round: None,
        player: player.to_string(),
    }
}

/// A run of nights in a row (league.md: a missed night ends it): its length, first and last night.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Run {
    /// Nights in the run.
    pub len: i64,
    /// Its first night.
    pub from: NaiveDate,
    /// Its last night.
    pub to: NaiveDate,
}

/// The longest runs of `player` in `season` up to `as_of` (`None`: every night) as the Rekorde
/// count them (`OutStreak`, `AttendanceStreak`): `(nights played in a row, nights with a Schock Out
/// in a row)`, the first of equal runs; `None` for a run of no night (issue 39.2, the Rückblick).
pub fn player_runs(
    season: &Season,
    player: &str,
    as_of: Option<NaiveDate>,
) -> (Option<Run>, Option<Run>) {
    let mut attended = Vec::new();
    let mut with_out = Vec::new();
    for night in season
        .nights
        .iter()
        .filter(|n| as_of.is_none_or(|d| n.date <= d))
    {
        let summary = night_summary(season, night.date);
        let mine = summary
            .as_ref()
            .and_then(|s| s.players.iter().find(|p| p.player == player));
        attended.push((night.date, mine.is_some()));
        with_out.push((night.date, mine.is_some_and(|p| p.outs > 0)));
    }
    let longest = |flags: Vec<(NaiveDate, bool)>| {
        let mut best = Best::default();
        offer_runs(&mut best, season.year, player, flags.into_iter());
        best.holders.first().and_then(|h| {
            Some(Run {
                len: best.value,
                from: h.date?,
                to: h.until?,
            })
        })
    };
    (longest(attended), longest(with_out))
}

/// Offers every maximal run of `flags` (one per night of the season, in date order; `false`
/// breaks the run) to `best`.
fn offer_runs(
    best: &mut Best,
    season: i32,
    player: &str,
    flags: impl Iterator<Item = (NaiveDate, bool)>,
) {
    let mut run: Option<Run> = None;
    let mut close = |run: &mut Option<Run>| {
        if let Some(r) = run.take() {
            best.offer(
                r.len,
                RecordHolder {
                    date: Some(r.from),
                    until: Some(r.to),
                    ..holder(season, player)
                },
            );
        }
    };
    for (date, flag) in flags {
        if !flag {
            close(&mut run);
        } else if let Some(r) = run.as_mut() {
            r.len += 1;
            r.to = date;
        } else {
            run = Some(Run {
                len: 1,
                from: date,
                to: date,
            });
        }
    }
    close(&mut run);
}

/// The records of `season` (league.md §1, §2, §7): one [`Record`] per [`RecordKind`], each with all
/// tied holders and the night where it applies; streaks are runs within this season.
pub fn season_records(season: &Season) -> Records {
    let year = season.year;
    let rules = &season.rules;
    let mut night_outs = Best::default();
    let mut round_outs = Best::default();
    let mut hand_outs = Best::default();
    let mut julen = Best::default();
    let mut out_streak = Best::default();
    let mut attendance = Best::default();
    let mut lost = Best::default();
    // player → per night of the season (date, attended with ≥ 1 Out thrown?) / (date, attended?):
    // a missed night breaks both runs.
    let mut with_out: BTreeMap<String, Vec<(NaiveDate, bool)>> = BTreeMap::new();
    let mut attended: BTreeMap<String, Vec<(NaiveDate, bool)>> = BTreeMap::new();
    let names: Vec<&str> = season.players.iter().map(|p| p.name.as_str()).collect();
    for night in &season.nights {
        let at = |player: &str| RecordHolder {
            date: Some(night.date),
            ..holder(year, player)
        };
        for (table, round, row) in night.rows() {
            round_outs.offer(
                row_points(rules, row),
                RecordHolder {
                    table: Some(table),
                    round: Some(round),
                    ..at(&row.player)
                },
            );
        }
        let summary = night_summary(season, night.date);
        let players = summary
            .as_ref()
            .map(|s| s.players.as_slice())
            .unwrap_or(&[]);
        for p in players {
            night_outs.offer(p.counted_outs, at(&p.player));
            hand_outs.offer(i64::from(p.hand_outs), at(&p.player));
            lost.offer(i64::from(p.lost_rounds), at(&p.player));
        }
        for &name in &names {
            let mine = players.iter().find(|p| p.player == name);
            with_out
                .entry(name.to_string())
                .or_default()
                .push((night.date, mine.is_some_and(|p| p.outs > 0)));
            attended
                .entry(name.to_string())
                .or_default()
                .push((night.date, mine.is_some()));
        }
    }
    for (player, flags) in with_out {
        offer_runs(&mut out_streak, year, &player, flags.into_iter());
    }
    for (player, flags) in attended {
        offer_runs(&mut attendance, year, &player, flags.into_iter());
    }
    for row in standings(season, None).rows {
        julen.offer(i64::from(row.julen), holder(year, &row.player));
    }
    let mut round_record = round_outs.into_record(RecordKind::CountedOutsRound);
    round_record.nights_not_available = season.totals_nights().len() as u32;
    Records {
        season: Some(year),
        records: vec![
            night_outs.into_record(RecordKind::CountedOutsNight),
            round_record,
            hand_outs.into_record(RecordKind::HandOutsNight),
            julen.into_record(RecordKind::JulenSeason),
            out_streak.into_record(RecordKind::OutStreak),
            attendance.into_record(RecordKind::AttendanceStreak),
            lost.into_record(RecordKind::LostRoundsNight),
        ],
    }
}

/// The all-time records over `seasons` (league.md §1, §2, §7): for each kind the best value of any
/// season and every holder of it in any season (sorted by season, date, player). Streaks are the
/// best runs within one season (see the module note).
pub fn all_time_records(seasons: &[Season]) -> Records {
    let per_season: Vec<Records> = seasons.iter().map(season_records).collect();
    merge_records(per_season.iter())
}

/// The all-time records of already computed season records (as [`season_records`] returns them):
/// for each kind the best value and every holder of it, as [`all_time_records`] (league.md §1, §2, §7).
pub fn merge_records<'a>(seasons: impl Iterator<Item = &'a Records>) -> Records {
    let mut best: Vec<Best> = RecordKind::ALL.iter().map(|_| Best::default()).collect();
    let mut missing: Vec<u32> = RecordKind::ALL.iter().map(|_| 0).collect();
    for season in seasons {
        for record in &season.records {
            if let Some(i) = RecordKind::ALL.iter().position(|k| *k == record.kind) {
                if let Some(b) = best.get_mut(i) {
                    for h in &record.holders {
                        b.offer(record.value, h.clone());
                    }
                }
                if let Some(m) = missing.get_mut(i) {
                    *m += record.nights_not_available;
                }
            }
        }
    }
    Records {
        season: None,
        records: best
            .into_iter()
            .zip(RecordKind::ALL)
            .zip(missing)
            .map(|((b, kind), nights_not_available)| Record {
                nights_not_available,
                ..b.into_record(kind)
            })
            .collect(),
    }
}

#[cfg(test)]
mod tests;
