//! The checked season as data (league.md §1, §5, §6; interchange.md season file): the season,
//! its players, nights, tables, rounds, fines and rows as the one check (`check.rs`,
//! `Season::from_file`) returns them, its limits, and what is read off it (a night's players and
//! per-player totals, the default as-of date). Nothing here checks or converts.

use std::collections::{BTreeMap, BTreeSet};

use chrono::NaiveDate;

use super::file::{CorrectionEntry, CreditEntry, CreditKind, PaymentEntry, ResultEntry, SeatEntry};
use super::rules::{Liga, SeasonRules};
use crate::rules::{PlayedRunde, RuleSet};

/// Longest player name, in characters (after trimming).
pub const MAX_NAME_CHARS: usize = 60;
/// Most Schock Outs of one player in one round when the parts he played are not entered (league.md
/// §1): a Schock Out ends the half, so one per half and one in the Finale. The number comes from the
/// rules engine (`rules::max_outs_per_round` under the season's dice RuleSet, parts unknown); the
/// league keeps no copy of it.
pub fn max_outs_per_round(game: &RuleSet) -> u32 {
    crate::rules::max_outs_per_round(game, None)
}
/// Most Julen of one player in one round that entry accepts (a sanity bound).
pub const MAX_JULEN_PER_ROUND: u32 = 10;
/// Most Wurfrunden a Schockbesteck Runde may have in a season file (a long Runde has a few dozen;
/// the bound keeps a hostile file from costing minutes and gigabytes).
pub const MAX_WURFRUNDEN: usize = 1000;
/// Table numbers a night may use (1, and 2 from `split_tables_from` participants).
pub const MAX_TABLES: u32 = 2;
/// Most players at one table: the rules engine's limit of a Runde ([`crate::rules::MAX_PLAYERS`],
/// which the Schockbesteck plays), so the draw, the round form and the Schockbesteck refuse the same
/// (issue 22.11). With [`MAX_TABLES`] tables a night has at most [`MAX_PARTICIPANTS`].
pub const MAX_AT_TABLE: usize = crate::rules::MAX_PLAYERS;
/// Most participants of one night: [`MAX_TABLES`] tables of [`MAX_AT_TABLE`] (40).
pub const MAX_PARTICIPANTS: usize = MAX_AT_TABLE * MAX_TABLES as usize;
/// Most players of one season (issue 25): a club's whole membership over the years with room to
/// spare (a night seats at most [`MAX_PARTICIPANTS`]); the pages of a season stay fast up to it
/// (bench/history.sh with `LARGE=1`: 10 seasons × 1,000 players).
pub const MAX_PLAYERS_PER_SEASON: usize = 1000;

/// Reason given when more than [`max_outs_per_round`] Outs are entered (league.md §1), e.g. "ein
/// Schock Out beendet die Hälfte; höchstens 3 Outs pro Spieler und Runde".
pub fn outs_limit_reason(game: &RuleSet) -> String {
    format!(
        "ein Schock Out beendet die Hälfte; höchstens {} Outs pro Spieler und Runde",
        max_outs_per_round(game)
    )
}

/// A checked season: all league.md §1, §5, §6 checks passed, rules resolved. Nights are sorted by
/// date, each night's tables by number and each table's rounds by number; players keep file order.
#[derive(Debug, Clone, PartialEq)]
pub struct Season {
    /// The season's year, e.g. 2026.
    pub year: i32,
    /// The season's resolved rules (defaults of `year` with the file's overrides).
    pub rules: SeasonRules,
    /// The dice game's RuleSet, resolved from `rules.game` (schocken-rules.md).
    pub game: RuleSet,
    /// The players (names trimmed and unique), in file order.
    pub players: Vec<Player>,
    /// The nights, sorted by date (one per date).
    pub nights: Vec<Night>,
    /// The final table of a season kept only as its Endstand (then `nights` is empty), in file
    /// order; empty for a season of nights.
    pub endstand: Vec<EndstandRow>,
    /// The Korrekturen of each night that has some, oldest first (issue 22.4: the season file's
    /// `nights[].corrections`, the database's `night_corrections`); [`Season::corrections_of`].
    pub corrections: BTreeMap<NaiveDate, Vec<CorrectionEntry>>,
    /// The payments that came in, in booking order (issue 34.1; names canonical).
    pub payments: Vec<PaymentEntry>,
    /// The bookings of Guthaben besides the payments, in booking order (issue 34.1).
    pub credit: Vec<CreditEntry>,
    /// The Kassenbuch's hand bookings and Kassenstürze as the season file carries them (issue
    /// 35.4), passed through unchanged; `None` when the file has none.
    pub kassenbuch: Option<super::file::KassenbuchFile>,
    /// Every player's totals after each night, computed on first use (`Season::running`, on the
    /// table's side); set empty by the check (`Memo::default()`).
    pub(crate) running: Memo<Vec<BTreeMap<String, PlayerTotals>>>,
}

/// A value computed once from the struct it sits in and not part of it: equal to every other,
/// cloned empty (a copy that is then changed computes its own), `…` in `Debug`.
#[derive(Default)]
pub struct Memo<T>(std::sync::OnceLock<T>);

impl<T> Memo<T> {
    /// The value, computed by `init` on first use.
    pub fn get_or_init(&self, init: impl FnOnce() -> T) -> &T {
        self.0.get_or_init(init)
    }
}

impl<T> Clone for Memo<T> {
    fn clone(&self) -> Memo<T> {
        Memo(std::sync::OnceLock::new())
    }
}

impl<T> PartialEq for Memo<T> {
    fn eq(&self, _: &Memo<T>) -> bool {
        true
    }
}

impl<T> std::fmt::Debug for Memo<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("…")
    }
}

/// One checked line of a season kept as its Endstand (issue 24.3): the player's Liga and season
/// figures as the club's final table gave them (league.md §2–§4, §7).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct EndstandRow {
    /// The player (canonical name).
    pub player: String,
    /// His Liga in the final table.
    pub liga: Liga,
    /// Rounds played (≥ 1).
    pub rounds: u32,
    /// Counted Outs, Julen included.
    pub counted_outs: i64,
    /// Rounds paid (≤ `lost_rounds`).
    pub paid_rounds: u32,
    /// Rounds lost (the paid rounds when not given).
    pub lost_rounds: u32,
    /// Schock Outs thrown (0 when not known).
    pub thrown_outs: u32,
    /// Hand-Outs thrown (0 when not known).
    pub hand_outs: u32,
    /// Julen thrown (0 when not known).
    pub julen: u32,
}

/// One checked line of a night recorded as totals (interchange.md "Spreadsheet of night
/// totals"): a player's figures of the night instead of his rounds.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct TotalsRow {
    /// The player (canonical name).
    pub player: String,
    /// His table (1 or 2).
    pub table: u32,
    /// Rounds he played, 1 ..= `rounds_per_night`.
    pub rounds: u32,
    /// Schock Outs thrown, Hand-Outs included.
    pub outs: u32,
    /// Of those, Hand-Outs.
    pub hand_outs: u32,
    /// Julen thrown.
    pub julen: u32,
    /// Counted Outs of the night without Julen (Σ row values, league.md §2; the Joker in it).
    pub points: i64,
    /// Rounds lost.
    pub lost: u32,
}

impl TotalsRow {
    /// The counted Outs without Joker of these figures: `(outs − hand_outs) × out_points +
    /// hand_outs × hand_out_points` (league.md §2), the least `points` can be.
    pub fn base_points(&self, rules: &SeasonRules) -> i64 {
        base_points(rules, self.outs, self.hand_outs)
    }
}

/// The counted Outs without Joker and Julen of `outs` Schock Outs of which `hand_outs` from the
/// hand: `(outs − hand_outs) × out_points + hand_outs × hand_out_points` (league.md §2).
pub fn base_points_of(rules: &SeasonRules, outs: u32, hand_outs: u32) -> i64 {
    base_points(rules, outs, hand_outs)
}

fn base_points(rules: &SeasonRules, outs: u32, hand_outs: u32) -> i64 {
    i64::from(outs.saturating_sub(hand_outs)) * rules.out_points
        + i64::from(hand_outs) * rules.hand_out_points
}

/// A player of the season and his Jahresbeitrag.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Player {
    /// The player's name (trimmed, 1..=60 characters, unique).
    pub name: String,
    /// Payment date of the Jahresbeitrag, `None` when unpaid.
    pub fee_paid_on: Option<NaiveDate>,
    /// The Jahresbeitrag in cents following from `fee_paid_on` (league.md §5); 0 when unpaid.
    pub fee_cents: i64,
    /// The Jahresbeitrag was paid out of his payments or Guthaben (issue 34.1).
    pub fee_from_account: bool,
}

/// One checked Spielabend.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Night {
    /// The night's date (within the season year).
    pub date: NaiveDate,
    /// Its tables, sorted by number (1, or 1 and 2).
    pub tables: Vec<Table>,
    /// Fines recorded at this night, in file order.
    pub fines: Vec<Fine>,
    /// The draw (league.md §9): every participant (canonical name) with his table, sorted by
    /// table, in seat order within a table. Every player with a row is in it, at his row's table;
    /// it may hold players who have not played yet (a late arrival).
    pub draw: Vec<SeatEntry>,
    /// "Abend abgeschlossen": changes of its draw, rounds and fines only as a Korrektur (the
    /// season file's `closed`).
    pub closed: bool,
    /// The night recorded as totals per player (then `tables` is empty; round-level figures are
    /// not available for it): one row per participant, sorted by table, in file order.
    pub totals: Vec<TotalsRow>,
}

/// One checked table of a night.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Table {
    /// Table number, 1 or 2.
    pub number: u32,
    /// Its rounds, sorted by number (may be fewer than `rounds_per_night`).
    pub rounds: Vec<Round>,
}

/// One checked round: ≥ 2 rows, exactly one of them `lost`.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Round {
    /// Round number, 1..=`rounds_per_night`.
    pub number: u32,
    /// One row per player (player names canonical, as in [`Season::players`]).
    pub results: Vec<ResultEntry>,
    /// The round's throws when it was played in the Schockbesteck (checked against `results`).
    #[serde(skip)]
    pub schockbesteck: Option<PlayedRunde>,
}

/// One checked fine with its amount resolved.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Fine {
    /// The fined player (canonical name).
    pub player: String,
    /// A kind of the season's Strafenkatalog.
    pub kind: String,
    /// Paid (counts into the pot) or open.
    pub paid: bool,
    /// The amount in cents: the override if given, else the catalogue's.
    pub amount_cents: i64,
    /// The override from the file (kept for export).
    pub amount_override: Option<i64>,
    /// The day it was paid, `None` while open: the file's `paid_on`, or the night's date for a
    /// fine paid without one (paid at the night). The Kasse counts it on this day.
    pub paid_on: Option<NaiveDate>,
    /// The file's `paid_on` (kept for export).
    pub paid_on_override: Option<NaiveDate>,
    /// Paid out of the player's share at the Jahresabschluss (league.md §8, "verrechnet").
    pub netted: bool,
    /// Paid out of the player's payments or Guthaben (issue 34.1).
    pub from_account: bool,
}

/// Counted Outs of one result row before Julen (league.md §2):
/// `((outs − hand_outs) × out_points + hand_outs × hand_out_points) × (joker_multiplier if joker)`.
pub fn row_points(rules: &SeasonRules, row: &ResultEntry) -> i64 {
    let plain = i64::from(row.outs.saturating_sub(row.hand_outs));
    let base = plain * rules.out_points + i64::from(row.hand_outs) * rules.hand_out_points;
    match (row.joker, rules.joker_multiplier) {
        (true, Some(m)) => base * m,
        _ => base,
    }
}

impl Night {
    /// [`Night::table_numbers`] and every table of the draw (also one that has not played yet),
    /// ascending.
    pub fn table_numbers_with_draw(&self) -> Vec<u32> {
        let mut numbers = self.table_numbers();
        numbers.extend(self.draw.iter().map(|s| s.table));
        numbers.sort_unstable();
        numbers.dedup();
        numbers
    }

    /// The distinct players with a row (a round's row or a totals row) at this night, sorted by name.
    pub fn participants(&self) -> BTreeSet<&str> {
        self.rows()
            .map(|(_, _, r)| r.player.as_str())
            .chain(self.totals.iter().map(|t| t.player.as_str()))
            .collect()
    }

    /// Whether the night has results: a round entered at one of its tables or a totals row.
    pub fn has_results(&self) -> bool {
        self.tables.iter().any(|t| !t.rounds.is_empty()) || !self.totals.is_empty()
    }

    /// Whether the night was recorded as totals per player (no rounds: a round's loser, records
    /// per round, the Glücksfaktor and the live board are not available for it).
    pub fn recorded_as_totals(&self) -> bool {
        !self.totals.is_empty()
    }

    /// The tables of the night: numbers of its tables of rounds, or of its totals rows.
    pub fn table_numbers(&self) -> Vec<u32> {
        let mut n: Vec<u32> = self.tables.iter().map(|t| t.number).collect();
        n.extend(self.totals.iter().map(|t| t.table));
        n.sort_unstable();
        n.dedup();
        n
    }

    /// Rounds played at table `table`: its rounds, or for a night recorded as totals the most
    /// rounds a player of that table played.
    pub fn rounds_at(&self, table: u32) -> u32 {
        let entered = self
            .tables
            .iter()
            .find(|t| t.number == table)
            .map_or(0, |t| t.rounds.len() as u32);
        let totals = self
            .totals
            .iter()
            .filter(|t| t.table == table)
            .map(|t| t.rounds)
            .max()
            .unwrap_or(0);
        entered.max(totals)
    }

    /// Every result row of the night with its table and round number, in table/round order.
    pub fn rows(&self) -> impl Iterator<Item = (u32, u32, &ResultEntry)> + '_ {
        self.tables.iter().flat_map(|t| {
            t.rounds
                .iter()
                .flat_map(move |r| r.results.iter().map(move |row| (t.number, r.number, row)))
        })
    }
}

impl Season {
    /// Whether the season is kept only as its final table (issue 24.3): no nights, an Endstand.
    pub fn is_endstand(&self) -> bool {
        !self.endstand.is_empty()
    }

    /// The dates of the nights recorded as totals (round-level figures are not available for them).
    pub fn totals_nights(&self) -> Vec<NaiveDate> {
        self.nights
            .iter()
            .filter(|n| n.recorded_as_totals())
            .map(|n| n.date)
            .collect()
    }

    /// The player named `name` (exact canonical name), if any.
    pub fn player(&self, name: &str) -> Option<&Player> {
        self.players.iter().find(|p| p.name == name)
    }

    /// The Guthaben of `player` in cents (issue 34.1): what he brought from the previous season
    /// and paid in, less the items paid out of it and what was paid back or carried on. Owed to
    /// him, never part of the pot; ≥ 0 in a checked season (0 for a stranger).
    pub fn credit_cents(&self, player: &str) -> i64 {
        let paid_in: i64 = self
            .payments
            .iter()
            .filter(|p| p.player == player)
            .map(|p| p.cents)
            .sum();
        let booked: i64 = self
            .credit
            .iter()
            .filter(|c| c.player == player)
            .map(|c| match c.kind {
                CreditKind::CarriedIn => c.cents,
                CreditKind::PaidBack | CreditKind::CarriedOut => -c.cents,
            })
            .sum();
        let fines: i64 = self
            .nights
            .iter()
            .flat_map(|n| &n.fines)
            .filter(|f| f.player == player && f.from_account)
            .map(|f| f.amount_cents)
            .sum();
        let fee = self
            .player(player)
            .filter(|p| p.fee_from_account)
            .map_or(0, |p| p.fee_cents);
        paid_in + booked - fines - fee
    }

    /// Every Guthaben of the season in one pass (issue 34.1): player → cents, for each player
    /// with a payment, a Guthaben booking or an item paid out of them ([`Season::credit_cents`]
    /// of each; the others have 0).
    pub fn credits(&self) -> BTreeMap<&str, i64> {
        let mut out: BTreeMap<&str, i64> = BTreeMap::new();
        for p in &self.payments {
            *out.entry(p.player.as_str()).or_default() += p.cents;
        }
        for c in &self.credit {
            *out.entry(c.player.as_str()).or_default() += match c.kind {
                CreditKind::CarriedIn => c.cents,
                CreditKind::PaidBack | CreditKind::CarriedOut => -c.cents,
            };
        }
        for f in self.nights.iter().flat_map(|n| &n.fines) {
            if f.from_account {
                *out.entry(f.player.as_str()).or_default() -= f.amount_cents;
            }
        }
        for p in self.players.iter().filter(|p| p.fee_from_account) {
            *out.entry(p.name.as_str()).or_default() -= p.fee_cents;
        }
        out
    }

    /// The night on `date`, if any.
    pub fn night(&self, date: NaiveDate) -> Option<&Night> {
        self.nights.iter().find(|n| n.date == date)
    }

    /// The Korrekturen of the night on `date`, oldest first (empty for none or no such night).
    pub fn corrections_of(&self, date: NaiveDate) -> &[CorrectionEntry] {
        self.corrections.get(&date).map_or(&[], Vec::as_slice)
    }

    /// The date of the season's last night, `None` without nights.
    pub fn last_night(&self) -> Option<NaiveDate> {
        self.nights.last().map(|n| n.date)
    }

    /// The as-of date of the table when none is asked for (issue 22.3): the last night with
    /// results (a round or a totals row) on or before `today`, every night when `today` is
    /// `None`. A night created ahead without results never moves it (its date would put the
    /// table after the 1. Liga deadline early), and it is never after the club's today; `None`
    /// when no such night has results.
    pub fn default_as_of(&self, today: Option<NaiveDate>) -> Option<NaiveDate> {
        self.nights
            .iter()
            .rev()
            .filter(|n| today.is_none_or(|t| n.date <= t))
            .find(|n| n.has_results())
            .map(|n| n.date)
    }

    /// The as-of date to read the table, the payouts or the Ehrentafel with on the club's
    /// `today`, so that it is never after today (issue 22.3): an `as_of` asked for after today
    /// becomes today; none asked stays `None` (the default, [`Season::default_as_of`] of every
    /// night) unless a night after today has results, then the last night with results on or
    /// before today (today itself when there is none: an empty table).
    pub fn capped_as_of(&self, as_of: Option<NaiveDate>, today: NaiveDate) -> Option<NaiveDate> {
        match as_of {
            Some(d) => Some(d.min(today)),
            None if self.results_after(today) => {
                Some(self.default_as_of(Some(today)).unwrap_or(today))
            }
            None => None,
        }
    }

    /// True when a night after `today` has results (entered ahead of its day): only then does a
    /// table as of the club's today differ from the one as of the last night with results.
    pub fn results_after(&self, today: NaiveDate) -> bool {
        self.nights
            .iter()
            .rev()
            .take_while(|n| n.date > today)
            .any(Night::has_results)
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

/// Per-player totals of one night (helper for standings, histories and night summaries).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct NightTotals {
    pub rounds: u32,
    pub outs: u32,
    pub hand_outs: u32,
    pub julen: u32,
    pub row_points: i64,
    pub lost: u32,
}

impl Night {
    /// Per-player totals of this night, keyed by player name: summed over his rounds, or his
    /// totals row for a night recorded as totals (the same figures either way).
    pub(crate) fn per_player(&self, rules: &SeasonRules) -> BTreeMap<&str, NightTotals> {
        let mut map: BTreeMap<&str, NightTotals> = BTreeMap::new();
        for t in &self.totals {
            map.insert(
                t.player.as_str(),
                NightTotals {
                    rounds: t.rounds,
                    outs: t.outs,
                    hand_outs: t.hand_outs,
                    julen: t.julen,
                    row_points: t.points,
                    lost: t.lost,
                },
            );
        }
        for (_, _, row) in self.rows() {
            let t = map.entry(row.player.as_str()).or_default();
            t.rounds += 1;
            t.outs += row.outs;
            t.hand_outs += row.hand_outs;
            t.julen += row.julen;
            t.row_points += row_points(rules, row);
            t.lost += u32::from(row.lost);
        }
        map
    }
}

#[cfg(test)]
mod tests;
