//! The league table (league.md §2–§4, §7; interchange.md standings JSON): counted Outs with Julen
//! conversion, Teilnahmen, D.Wert as an exact fraction, Liga as of a date, ranks, lost and paid rounds.

use std::cmp::Ordering;
use std::collections::BTreeMap;
use std::fmt;

use chrono::NaiveDate;
use serde::{Deserialize, Serialize};

use super::rules::SeasonRules;
use super::season::Season;

/// A Liga tier (league.md §4). Ordered 1. Liga < 2. Liga < Kreisliga (the display order).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Liga {
    /// Paid players (with 100 rounds by the deadline once it has passed).
    #[serde(rename = "1. Liga")]
    First,
    /// Everyone else with enough rounds.
    #[serde(rename = "2. Liga")]
    Second,
    /// Fewer than `kreisliga_below_rounds` rounds.
    #[serde(rename = "Kreisliga")]
    Kreisliga,
}

impl Liga {
    /// The German name: "1. Liga", "2. Liga", "Kreisliga".
    pub fn label(self) -> &'static str {
        match self {
            Liga::First => "1. Liga",
            Liga::Second => "2. Liga",
            Liga::Kreisliga => "Kreisliga",
        }
    }
}

impl fmt::Display for Liga {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.label())
    }
}

/// A D.Wert as an exact fraction `num / den` = counted Outs × rounds_per_night / rounds (league.md §3).
/// `den` > 0. Ordered exactly by integer cross-multiplication.
#[derive(Debug, Clone, Copy, Serialize)]
pub struct DWert {
    /// counted Outs × rounds_per_night.
    pub num: i64,
    /// rounds (> 0).
    pub den: i64,
}

impl DWert {
    /// The D.Wert of `counted_outs` in `rounds` rounds; `None` for 0 rounds (no D.Wert).
    pub fn new(counted_outs: i64, rounds: u32, rounds_per_night: u32) -> Option<DWert> {
        (rounds > 0).then(|| DWert {
            num: counted_outs * i64::from(rounds_per_night),
            den: i64::from(rounds),
        })
    }

    /// The value as a float, computed as `num as f64 / den as f64` (the JSON `d_wert`).
    pub fn as_f64(self) -> f64 {
        self.num as f64 / self.den as f64
    }
}

impl PartialEq for DWert {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}
impl Eq for DWert {}
impl PartialOrd for DWert {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for DWert {
    fn cmp(&self, other: &Self) -> Ordering {
        (i128::from(self.num) * i128::from(other.den))
            .cmp(&(i128::from(other.num) * i128::from(self.den)))
    }
}

/// The league table as of a date (interchange.md standings JSON).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Standings {
    /// The season's year.
    pub season: i32,
    /// The as-of date (the last night's date by default); `None` for a season without nights.
    pub as_of: Option<NaiveDate>,
    /// Rows grouped by Liga (1. Liga, 2. Liga, Kreisliga), then by rank, then by name.
    pub rows: Vec<StandingRow>,
}

/// One player's line of the table (interchange.md). Counts are rounds or Outs; `d_wert` and
/// `teilnahmen` are floats for JSON, the exact D.Wert is `d_wert_num / d_wert_den`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct StandingRow {
    /// The player's Liga as of the date.
    pub liga: Liga,
    /// Rank within the Liga (shared ranks 1, 2, 2, 4).
    pub rank: u32,
    /// The player's name.
    pub player: String,
    /// Result rows (rounds played) up to the date.
    pub rounds: u32,
    /// rounds / rounds_per_night.
    pub teilnahmen: f64,
    /// Schock Outs thrown, of every kind.
    pub thrown_outs: u32,
    /// Of those, Hand-Outs.
    pub hand_outs: u32,
    /// Julen thrown.
    pub julen: u32,
    /// Counted Outs from Julen (floor of the running total ÷ julen_per_out).
    pub julen_outs: u32,
    /// Julen not yet converted (0..julen_per_out).
    pub open_julen: u32,
    /// Counted Outs: Σ row values (Hand-Out points, Joker) + julen_outs.
    pub counted_outs: i64,
    /// counted_outs × rounds_per_night / rounds, as a float.
    pub d_wert: f64,
    /// Rounds lost.
    pub lost_rounds: u32,
    /// Rounds paid (per night at most `sozialfall_after`).
    pub paid_rounds: u32,
    /// Numerator of the exact D.Wert (counted_outs × rounds_per_night).
    #[serde(skip)]
    pub d_wert_num: i64,
    /// Denominator of the exact D.Wert (rounds).
    #[serde(skip)]
    pub d_wert_den: i64,
}

impl StandingRow {
    /// The exact D.Wert of the row.
    pub fn d_wert_exact(&self) -> DWert {
        DWert {
            num: self.d_wert_num,
            den: self.d_wert_den.max(1),
        }
    }
}

/// Season totals of one player up to a date (before Liga and rank).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct PlayerTotals {
    pub rounds: u32,
    pub rounds_at_deadline: u32,
    pub thrown_outs: u32,
    pub hand_outs: u32,
    pub julen: u32,
    pub row_points: i64,
    pub lost_rounds: u32,
    pub paid_rounds: u32,
}

impl PlayerTotals {
    pub fn julen_outs(&self, rules: &SeasonRules) -> u32 {
        self.julen / rules.julen_per_out
    }
    pub fn open_julen(&self, rules: &SeasonRules) -> u32 {
        self.julen % rules.julen_per_out
    }
    pub fn counted_outs(&self, rules: &SeasonRules) -> i64 {
        self.row_points + i64::from(self.julen_outs(rules))
    }
}

/// The 1. Liga deadline of the season as a date (29 February in a common year falls back to 28).
pub fn deadline(season: &Season) -> NaiveDate {
    let d = season.rules.first_liga_deadline;
    d.in_year(season.year)
        .or_else(|| NaiveDate::from_ymd_opt(season.year, d.month, 28))
        .unwrap_or(NaiveDate::MAX)
}

/// Totals of every player with at least one round on nights up to and including `as_of`.
pub(crate) fn totals_up_to(season: &Season, as_of: NaiveDate) -> BTreeMap<String, PlayerTotals> {
    let rules = &season.rules;
    let deadline = deadline(season);
    let mut map: BTreeMap<String, PlayerTotals> = BTreeMap::new();
    for night in season.nights.iter().filter(|n| n.date <= as_of) {
        for (name, t) in night.totals(rules) {
            let p = map.entry(name.to_string()).or_default();
            p.rounds += t.rounds;
            if night.date <= deadline {
                p.rounds_at_deadline += t.rounds;
            }
            p.thrown_outs += t.outs;
            p.hand_outs += t.hand_outs;
            p.julen += t.julen;
            p.row_points += t.row_points;
            p.lost_rounds += t.lost;
            p.paid_rounds += t.lost.min(rules.sozialfall_after);
        }
    }
    map
}

/// The Liga of a player with `totals` as of `as_of` (league.md §4).
pub(crate) fn liga_of(
    season: &Season,
    player: &str,
    totals: &PlayerTotals,
    as_of: NaiveDate,
) -> Liga {
    let rules = &season.rules;
    if totals.rounds < rules.kreisliga_below_rounds {
        return Liga::Kreisliga;
    }
    let paid = season
        .player(player)
        .and_then(|p| p.fee_paid_on)
        .is_some_and(|d| d <= as_of);
    if paid
        && (as_of <= deadline(season) || totals.rounds_at_deadline >= rules.min_rounds_first_liga)
    {
        Liga::First
    } else {
        Liga::Second
    }
}

/// Checks an as-of date asked for the table of season `year` (interchange.md: `as_of` defaults to
/// the last night; a date in another year is an input error). `Err` is the German message.
pub fn check_as_of(year: i32, as_of: NaiveDate) -> Result<(), String> {
    use chrono::Datelike;
    if as_of.year() == year {
        Ok(())
    } else {
        Err(format!(
            "as_of: {} liegt nicht in der Saison {year} (Stichtag zwischen {year}-01-01 und {year}-12-31)",
            as_of.format("%Y-%m-%d")
        ))
    }
}

/// The league table as of `as_of` (league.md §2–§4, §7): `None` = the date of the season's last night.
/// Lists every player with at least one round on nights up to that date, grouped by Liga, ranked by
/// D.Wert (exact) descending then rounds descending; equal players share the rank and are listed by name.
pub fn standings(season: &Season, as_of: Option<NaiveDate>) -> Standings {
    let Some(as_of) = as_of.or_else(|| season.last_night()) else {
        return Standings {
            season: season.year,
            as_of: None,
            rows: Vec::new(),
        };
    };
    let rules = &season.rules;
    let rpn = rules.rounds_per_night;
    let mut rows: Vec<StandingRow> = totals_up_to(season, as_of)
        .into_iter()
        .filter(|(_, t)| t.rounds > 0)
        .map(|(name, t)| {
            let counted = t.counted_outs(rules);
            let dw = DWert::new(counted, t.rounds, rpn).unwrap_or(DWert { num: 0, den: 1 });
            StandingRow {
                liga: liga_of(season, &name, &t, as_of),
                rank: 0,
                rounds: t.rounds,
                teilnahmen: f64::from(t.rounds) / f64::from(rpn),
                thrown_outs: t.thrown_outs,
                hand_outs: t.hand_outs,
                julen: t.julen,
                julen_outs: t.julen_outs(rules),
                open_julen: t.open_julen(rules),
                counted_outs: counted,
                d_wert: dw.as_f64(),
                lost_rounds: t.lost_rounds,
                paid_rounds: t.paid_rounds,
                d_wert_num: dw.num,
                d_wert_den: dw.den,
                player: name,
            }
        })
        .collect();
    let key = |r: &StandingRow| {
        (
            r.liga,
            std::cmp::Reverse(r.d_wert_exact()),
            std::cmp::Reverse(r.rounds),
        )
    };
    rows.sort_by(|a, b| key(a).cmp(&key(b)).then_with(|| a.player.cmp(&b.player)));
    let mut place_in_liga = 0;
    for i in 0..rows.len() {
        let same_liga = i > 0 && rows[i - 1].liga == rows[i].liga;
        place_in_liga = if same_liga { place_in_liga + 1 } else { 1 };
        rows[i].rank = if same_liga && key(&rows[i - 1]) == key(&rows[i]) {
            rows[i - 1].rank
        } else {
            place_in_liga
        };
    }
    Standings {
        season: season.year,
        as_of: Some(as_of),
        rows,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn as_of_must_lie_in_the_season() {
        // (season, as_of, accepted)
        let cases = [
            (2026, "2026-01-01", true),
            (2026, "2026-12-31", true),
            (2026, "2025-12-31", false),
            (2026, "2027-01-01", false),
            (2026, "0000-01-01", false),
            (2026, "9999-12-31", false),
        ];
        for (year, date, ok) in cases {
            let d: NaiveDate = date.parse().expect("test date");
            assert_eq!(check_as_of(year, d).is_ok(), ok, "{year} {date}");
        }
        let e = check_as_of(2026, "0000-01-01".parse().expect("test date")).unwrap_err();
        assert!(e.contains("nicht in der Saison 2026"), "{e}");
    }
    use crate::league::format::format_dwert;
    use crate::league::history::{night_summary, player_history};
    use crate::league::testkit::{season, season_json, NightSpec};

    fn date(s: &str) -> NaiveDate {
        s.parse().expect("test date")
    }

    fn row_of<'a>(t: &'a Standings, player: &str) -> &'a StandingRow {
        t.rows
            .iter()
            .find(|r| r.player == player)
            .unwrap_or_else(|| panic!("{player} not in the table"))
    }

    #[test]
    fn club_check_three_full_nights_with_9_3_6_outs_give_6_00() {
        let nights = [("2026-01-09", 9), ("2026-01-16", 3), ("2026-01-23", 6)]
            .iter()
            .map(|&(d, outs)| {
                NightSpec {
                    date: d,
                    outs: &[outs],
                    ..NightSpec::default()
                }
                .build()
            })
            .collect();
        let s = season(season_json(
            2026,
            &[("Anna", None), ("Bernd", None)],
            nights,
        ));
        let t = standings(&s, None);
        let anna = row_of(&t, "Anna");
        assert_eq!((anna.rounds, anna.counted_outs), (30, 18));
        assert_eq!(anna.teilnahmen, 3.0);
        assert_eq!(anna.d_wert, 6.0);
        assert_eq!(format_dwert(anna.d_wert_num, anna.d_wert_den), "6,00");
    }

    #[test]
    fn julen_carry_over_from_night_to_night() {
        // (Julen thrown that night, julen_outs of the night, open Julen after it)
        let table = [
            (2, 0, 2),
            (2, 1, 1),
            (2, 1, 0),
            (1, 0, 1),
            (5, 2, 0),
            (8, 2, 2),
        ];
        let dates = [
            "2026-01-02",
            "2026-01-09",
            "2026-01-16",
            "2026-01-23",
            "2026-01-30",
            "2026-02-06",
        ];
        let julen: Vec<[u32; 1]> = table.iter().map(|&(j, _, _)| [j]).collect();
        let nights = dates
            .iter()
            .zip(&julen)
            .map(|(d, j)| {
                NightSpec {
                    date: d,
                    julen: j,
                    ..NightSpec::default()
                }
                .build()
            })
            .collect();
        let s = season(season_json(
            2026,
            &[("Anna", None), ("Bernd", None)],
            nights,
        ));
        let h = player_history(&s, "Anna").expect("Anna");
        let mut total_outs = 0;
        for (i, &(_, outs, open)) in table.iter().enumerate() {
            let d = date(dates[i]);
            assert_eq!(
                (h.nights[i].julen_outs, h.nights[i].open_julen),
                (outs, open),
                "{d}"
            );
            let n = night_summary(&s, d).expect("night");
            let anna = n.players.iter().find(|p| p.player == "Anna").expect("Anna");
            assert_eq!(anna.julen_outs, outs, "{d} summary");
            total_outs += outs;
            let t = standings(&s, Some(d));
            let r = row_of(&t, "Anna");
            assert_eq!(
                (r.julen_outs, r.open_julen),
                (total_outs, open),
                "{d} table"
            );
            assert_eq!(r.counted_outs, i64::from(total_outs), "{d} counted");
        }
        assert_eq!(h.open_julen, 2);
    }

    #[test]
    fn joker_and_hand_outs_count_by_the_season_rules() {
        // (year, outs, hand_outs, Joker round (0 none), julen, counted Outs)
        let cases = [
            (2026, 2, 0, 0, 0, 2),
            (2026, 2, 1, 0, 0, 3),  // Hand-Out counts 2
            (2026, 2, 1, 1, 0, 6),  // both in the Joker round: (1 + 2) × 2
            (2026, 3, 1, 1, 3, 9),  // (2 + 2) × 2 + 1 Jule-Out, Julen never doubled
            (2026, 5, 1, 1, 0, 10), // Joker round 1: 3 Outs incl. the Hand-Out (2 + 2) × 2; round 2: 2 plain
            (2006, 2, 1, 0, 0, 2),  // before 2007 a Hand-Out counts 1
            (2010, 2, 1, 0, 0, 3),  // 2010: doubling, no Joker
        ];
        for (year, outs, hand, joker, julen, counted) in cases {
            let d = format!("{year}-01-09");
            let night = NightSpec {
                date: &d,
                outs: &[outs],
                hand: &[hand],
                joker: &[joker],
                julen: &[julen],
                ..NightSpec::default()
            }
            .build();
            let s = season(season_json(
                year,
                &[("Anna", None), ("Bernd", None)],
                vec![night],
            ));
            let r = row_of(&standings(&s, None), "Anna").clone();
            assert_eq!(
                (r.thrown_outs, r.hand_outs, r.counted_outs),
                (outs, hand, counted),
                "{year} outs {outs} hand {hand} joker {joker} julen {julen}"
            );
        }
    }

    #[test]
    fn lost_and_paid_rounds_with_sozialfall() {
        // (rounds Anna loses at one night, paid, Sozialfall)
        for (lost, paid, sozialfall) in [(0, 0, false), (2, 2, false), (3, 3, true), (7, 3, true)] {
            let night = NightSpec {
                lost: &[lost],
                ..NightSpec::default()
            }
            .build();
            let s = season(season_json(
                2026,
                &[("Anna", None), ("Bernd", None)],
                vec![night],
            ));
            let r = row_of(&standings(&s, None), "Anna").clone();
            assert_eq!((r.lost_rounds, r.paid_rounds), (lost, paid), "{lost}");
            let n = night_summary(&s, date("2026-01-09")).expect("night");
            assert_eq!(
                n.sozialfaelle.contains(&"Anna".to_string()),
                sozialfall,
                "{lost}"
            );
            let h = player_history(&s, "Anna").expect("Anna");
            let paid_flags = h.nights[0].rounds.iter().filter(|r| r.paid).count() as u32;
            assert_eq!(paid_flags, paid, "{lost} paid flags");
        }
    }

    #[test]
    fn ligen_as_of_a_date_with_the_30_november_rule() {
        let months = [
            "01", "02", "03", "04", "05", "06", "07", "08", "09", "10", "11",
        ];
        let mut dates: Vec<String> = months.iter().map(|m| format!("2026-{m}-06")).collect();
        dates[10] = "2026-11-27".into();
        dates.push("2026-12-04".into());
        let players = [
            ("Anna", Some("2026-02-01")),  // 90 rounds by 30 Nov, 100 after December
            ("Bernd", Some("2026-01-10")), // every night: 110 by 30 Nov
            ("Carla", None),               // every night, never paid
            ("Dirk", Some("2026-01-02")),  // December only: 10 rounds
            ("Eva", Some("2026-06-15")),   // January and February: 20 rounds, paid in June
        ];
        let nights = dates
            .iter()
            .enumerate()
            .map(|(i, d)| {
                let mut who = vec!["Bernd", "Carla"];
                if i < 9 || i == 11 {
                    who.push("Anna");
                }
                if i == 11 {
                    who.push("Dirk");
                }
                if i < 2 {
                    who.push("Eva");
                }
                NightSpec {
                    date: d,
                    players: &who,
                    ..NightSpec::default()
                }
                .build()
            })
            .collect();
        let s = season(season_json(2026, &players, nights));
        let cases = [
            ("2026-01-06", "Bernd", Some(Liga::Kreisliga)), // 10 rounds
            ("2026-02-06", "Bernd", Some(Liga::First)),
            ("2026-02-06", "Carla", Some(Liga::Second)),
            ("2026-02-06", "Eva", Some(Liga::Second)), // not paid yet
            ("2026-06-14", "Eva", Some(Liga::Second)),
            ("2026-06-15", "Eva", Some(Liga::First)), // paid that day
            ("2026-11-30", "Anna", Some(Liga::First)), // deadline day: still 1. Liga with 90
            ("2026-11-30", "Eva", Some(Liga::First)),
            ("2026-12-04", "Anna", Some(Liga::Second)), // 100 rounds, but 90 by 30 Nov
            ("2026-12-04", "Eva", Some(Liga::Second)),
            ("2026-12-04", "Bernd", Some(Liga::First)),
            ("2026-12-04", "Carla", Some(Liga::Second)),
            ("2026-12-04", "Dirk", Some(Liga::Kreisliga)),
            ("2026-11-30", "Dirk", None), // no round yet: not listed
        ];
        for (as_of, player, liga) in cases {
            let t = standings(&s, Some(date(as_of)));
            let got = t.rows.iter().find(|r| r.player == player).map(|r| r.liga);
            assert_eq!(got, liga, "{player} as of {as_of}");
        }
        let anna = player_history(&s, "Anna").expect("Anna");
        let ligen: Vec<Liga> = anna.nights.iter().map(|n| n.liga).collect();
        assert_eq!(ligen[0], Liga::Kreisliga);
        assert_eq!(ligen[8], Liga::First);
        assert_eq!(ligen[9], Liga::Second);
        assert_eq!(standings(&s, None).as_of, Some(date("2026-12-04")));
    }

    #[test]
    fn ranks_are_shared_and_listed_by_name() {
        // five unpaid players; Emil misses the second night and stays in the Kreisliga
        let outs: &[u32] = &[6, 4, 4, 2, 4];
        let players = ["Dora", "Carl", "Bea", "Axel", "Emil"];
        let n1 = NightSpec {
            date: "2026-01-09",
            players: &players,
            outs,
            ..NightSpec::default()
        }
        .build();
        let n2 = NightSpec {
            date: "2026-01-16",
            players: &players[..4],
            ..NightSpec::default()
        }
        .build();
        let s = season(season_json(
            2026,
            &players.map(|p| (p, None::<&str>)),
            vec![n1, n2],
        ));
        let t = standings(&s, None);
        let got: Vec<(&str, Liga, u32)> = t
            .rows
            .iter()
            .map(|r| (r.player.as_str(), r.liga, r.rank))
            .collect();
        assert_eq!(
            got,
            vec![
                ("Dora", Liga::Second, 1),
                ("Bea", Liga::Second, 2),
                ("Carl", Liga::Second, 2),
                ("Axel", Liga::Second, 4),
                ("Emil", Liga::Kreisliga, 1),
            ]
        );
    }

    #[test]
    fn equal_d_werte_rank_by_rounds_then_share() {
        let abc = ["Anna", "Bernd", "Carla"];
        let n1 = NightSpec {
            players: &abc,
            outs: &[2, 2, 2],
            ..NightSpec::default()
        }
        .build();
        let n2 = NightSpec {
            date: "2026-01-16",
            ..NightSpec {
                players: &abc,
                outs: &[2, 2, 2],
                ..NightSpec::default()
            }
        }
        .build();
        let n3 = NightSpec {
            date: "2026-01-23",
            players: &["Bernd", "Dirk"],
            outs: &[2],
            ..NightSpec::default()
        }
        .build();
        let s = season(season_json(
            2026,
            &[
                ("Anna", None),
                ("Bernd", None),
                ("Carla", None),
                ("Dirk", None),
            ],
            vec![n1, n2, n3],
        ));
        let t = standings(&s, None);
        let got: Vec<(&str, u32, i64, f64, u32)> = t
            .rows
            .iter()
            .map(|r| {
                (
                    r.player.as_str(),
                    r.rounds,
                    r.counted_outs,
                    r.d_wert,
                    r.rank,
                )
            })
            .collect();
        // all three 2,00: Bernd has more rounds; Anna and Carla share rank 2
        assert_eq!(
            got,
            vec![
                ("Bernd", 30, 6, 2.0, 1),
                ("Anna", 20, 4, 2.0, 2),
                ("Carla", 20, 4, 2.0, 2),
                ("Dirk", 10, 0, 0.0, 1),
            ]
        );
        assert_eq!(t.rows[3].liga, Liga::Kreisliga);
    }

    #[test]
    fn d_wert_compares_exactly() {
        use std::cmp::Ordering::*;
        let big = 1i64 << 53;
        let cases = [
            ((10, 3), (20, 6), Equal),
            ((1, 3), (333_333_333, 1_000_000_000), Greater),
            ((big + 1, 1), (big, 1), Greater), // equal as f64, not as fractions
            ((0, 7), (0, 1), Equal),
            ((60, 11), (55, 10), Less),
        ];
        for ((a, b), (c, d), expected) in cases {
            let x = DWert { num: a, den: b };
            let y = DWert { num: c, den: d };
            assert_eq!(x.cmp(&y), expected, "{a}/{b} vs {c}/{d}");
        }
    }

    #[test]
    fn liga_names_in_json_and_display() {
        for (liga, name) in [
            (Liga::First, "1. Liga"),
            (Liga::Second, "2. Liga"),
            (Liga::Kreisliga, "Kreisliga"),
        ] {
            let json = serde_json::to_string(&liga).expect("serializes");
            assert_eq!(json, format!("\"{name}\""));
            assert_eq!(serde_json::from_str::<Liga>(&json).expect("parses"), liga);
            assert_eq!(liga.to_string(), name);
        }
    }

    #[test]
    fn no_nights_no_rows() {
        let s = season(season_json(2026, &[("Anna", None)], vec![]));
        let t = standings(&s, None);
        assert_eq!((t.as_of, t.rows.len()), (None, 0));
        let t = standings(&s, Some(date("2026-05-01")));
        assert_eq!((t.as_of, t.rows.len()), (Some(date("2026-05-01")), 0));
    }
}
