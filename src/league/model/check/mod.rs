//! The one check of a season (league.md §1, §5, §6, §9; interchange.md season file):
//! [`Season::from_file`] runs every entry check in file order and stops at the first error;
//! [`Season::to_file`] exports a checked season back. What a checked season is, is
//! `model/season.rs`. Cut by concern: the players (`players.rs`), a night with its draw, split
//! and fines (`night.rs`), its tables of rounds (`rounds.rs`) or its totals (`totals.rs`), a
//! season kept as its Endstand (`endstand.rs`), the Korrekturen (`corrections.rs`) and the limits
//! every new entry meets (`limits.rs`).

use std::collections::{BTreeMap, HashMap, HashSet};

use chrono::{Datelike, NaiveDate};

use crate::league::model::draw::derive_draw_of;
use crate::league::model::error::{EntryError, Location};
use crate::league::model::file::{
    EndstandEntry, FineEntry, NightEntry, PlayerEntry, RoundEntry, SeasonFile, TableEntry,
    TotalsEntry, FORMAT,
};
use crate::league::model::rules::SeasonRules;
use crate::league::model::season::{Memo, Night, Season};
use crate::rules::RuleSet;

mod corrections;
mod endstand;
mod limits;
mod night;
mod players;
mod rounds;
mod totals;

pub use corrections::{MAX_CORRECTION_USER_CHARS, MAX_REASON_CHARS};

impl Season {
    /// Checks a season file completely (league.md §1, §5, §6, §9 and the file's own rules) and
    /// returns the checked season. The first error in file order is returned as an [`EntryError`]
    /// naming night, table, round, player and field as applicable; nothing partial is returned.
    /// This is the one check of a season: import, every change ([`Season::apply`]) and every load
    /// from storage run it, so what was accepted once loads again.
    /// The limits of [`Season::limits`] are part of it (a file coming in meets them all).
    pub fn from_file(file: &SeasonFile) -> Result<Season, EntryError> {
        let season = Season::checked(file)?;
        match season.limits().into_iter().next() {
            Some(e) => Err(e),
            None => Ok(season),
        }
    }

    /// [`Season::from_file`] without [`Season::limits`]: what a stored season must pass (a limit
    /// added after it was stored must not make it unreadable) and what [`Season::apply`] checks
    /// before it refuses only the limits the change breaks.
    pub(crate) fn checked(file: &SeasonFile) -> Result<Season, EntryError> {
        let top = |field: &str, msg: String| EntryError::new(Location::default().field(field), msg);
        if file.format != FORMAT {
            return Err(top(
                "format",
                format!(
                    "unbekanntes Format \"{}\" (erwartet \"{FORMAT}\")",
                    file.format
                ),
            ));
        }
        if !(1900..=9999).contains(&file.season) {
            return Err(top(
                "season",
                format!("Saison {} ist kein gültiges Jahr", file.season),
            ));
        }
        let year = file.season;
        let rules = SeasonRules::with_overrides(year, &file.rules).map_err(|e| {
            let (field, why) = e.split_once(": ").unwrap_or(("rules", e.as_str()));
            EntryError::new(Location::default().field(field), why)
        })?;
        let game = RuleSet::from_json(&rules.game).map_err(|e| {
            EntryError::new(
                Location::default().field("rules.game"),
                format!("kein gültiges Regelwerk für das Würfelspiel: {e}"),
            )
        })?;

        let players = players::check_players(&rules, year, &file.players)?;
        let names: HashMap<&str, &str> = players
            .iter()
            .map(|p| (p.name.as_str(), p.name.as_str()))
            .collect();

        let mut nights: Vec<Night> = Vec::with_capacity(file.nights.len());
        let mut corrections = BTreeMap::new();
        let mut seen_dates: HashSet<NaiveDate> = HashSet::new();
        for entry in &file.nights {
            if entry.date.year() == year && !seen_dates.insert(entry.date) {
                return Err(EntryError::new(
                    Location::night(entry.date).field("date"),
                    "an diesem Datum gibt es schon einen Spielabend",
                ));
            }
            nights.push(night::check_night(&rules, &game, year, &names, entry)?);
            let checked = corrections::check_corrections(entry.date, &entry.corrections)?;
            if !checked.is_empty() {
                corrections.insert(entry.date, checked);
            }
        }
        nights.sort_by_key(|n| n.date);
        let endstand = endstand::check_endstand(&rules, &names, &file.endstand)?;
        if !endstand.is_empty() {
            if let Some(n) = nights.first() {
                return Err(EntryError::new(
                    Location::night(n.date).field("endstand"),
                    "eine Saison hat entweder Spielabende oder nur einen Endstand, nicht beides",
                ));
            }
        }
        let (payments, credit) =
            players::check_account_entries(&names, year, &file.payments, &file.credit)?;
        if let Some(k) = &file.kassenbuch {
            k.check(year)
                .map_err(|why| EntryError::new(Location::default().field("kassenbuch"), why))?;
        }
        let season = Season {
            year,
            rules,
            game,
            players,
            nights,
            endstand,
            corrections,
            payments,
            credit,
            kassenbuch: file.kassenbuch.clone(),
            running: Memo::default(),
        };
        // Nothing is paid out of money that is not there (issue 34.1): every Guthaben ≥ 0.
        let credits = season.credits();
        let below = season.players.iter().find_map(|p| {
            let c = credits.get(p.name.as_str()).copied().unwrap_or(0);
            (c < 0).then(|| (p.name.clone(), c))
        });
        if let Some((name, c)) = below {
            return Err(EntryError::new(
                Location::default().player(&name).field("credit"),
                format!(
                    "aus Zahlungen und Guthaben ist {} mehr bezahlt oder ausgezahlt, als \
                     eingezahlt wurde",
                    crate::league::model::format::format_cents(-c)
                ),
            ));
        }
        Ok(season)
    }

    /// Checks a stored season like [`Season::from_file`], except that a round's Schockbesteck
    /// throws that no longer check (written by an older engine, a damaged row) are left out instead
    /// of refusing the whole season: the round keeps its results, only its Glücksfaktor figures
    /// go. Returns the season and, per dropped record, the refusal that dropped it. Any other
    /// refusal is returned as the error.
    pub fn from_stored_file(file: &SeasonFile) -> Result<(Season, Vec<EntryError>), EntryError> {
        let first = match Season::checked(file) {
            Ok(s) => return Ok((s, Vec::new())),
            Err(e) => e,
        };
        let mut file = file.clone();
        let mut dropped = Vec::new();
        let mut error = first;
        loop {
            let about_throws = error
                .location
                .field
                .as_deref()
                .is_some_and(|f| f.starts_with("schockbesteck"))
                || error.message.contains("laut Schockbesteck");
            let at = &error.location;
            let round = file
                .nights
                .iter_mut()
                .filter(|n| Some(n.date) == at.night)
                .flat_map(|n| n.tables.iter_mut())
                .filter(|t| Some(t.number) == at.table)
                .flat_map(|t| t.rounds.iter_mut())
                .find(|r| Some(r.number) == at.round && r.schockbesteck.is_some());
            match round {
                Some(r) if about_throws => r.schockbesteck = None,
                _ => return Err(error),
            }
            dropped.push(error);
            match Season::checked(&file) {
                Ok(s) => return Ok((s, dropped)),
                Err(e) => error = e,
            }
        }
    }

    /// Exports the season as a season file: `rules` holds only the overrides of the year's defaults,
    /// nights are in date order. `Season::from_file(&s.to_file())` gives `s` back.
    pub fn to_file(&self) -> SeasonFile {
        SeasonFile {
            format: FORMAT.to_string(),
            season: self.year,
            rules: self.rules.overrides(self.year),
            players: self
                .players
                .iter()
                .map(|p| PlayerEntry {
                    name: p.name.clone(),
                    fee_paid_on: p.fee_paid_on,
                    fee_from_account: p.fee_from_account,
                })
                .collect(),
            nights: self
                .nights
                .iter()
                .map(|n| NightEntry {
                    date: n.date,
                    tables: n
                        .tables
                        .iter()
                        .map(|t| TableEntry {
                            number: t.number,
                            rounds: t
                                .rounds
                                .iter()
                                .map(|r| RoundEntry {
                                    number: r.number,
                                    results: r.results.clone(),
                                    schockbesteck: r.schockbesteck.clone(),
                                })
                                .collect(),
                        })
                        .collect(),
                    draw: (n.draw != derive_draw_of(&n.tables, &n.totals)).then(|| n.draw.clone()),
                    totals: n
                        .totals
                        .iter()
                        .map(|t| TotalsEntry {
                            player: t.player.clone(),
                            table: t.table,
                            rounds: t.rounds,
                            outs: t.outs,
                            hand_outs: t.hand_outs,
                            julen: t.julen,
                            points: (t.points != t.base_points(&self.rules)).then_some(t.points),
                            lost: t.lost,
                        })
                        .collect(),
                    fines: n
                        .fines
                        .iter()
                        .map(|f| FineEntry {
                            player: f.player.clone(),
                            kind: f.kind.clone(),
                            paid: f.paid,
                            amount_cents: f.amount_override,
                            paid_on: f.paid_on_override,
                            netted: f.netted,
                            from_account: f.from_account,
                        })
                        .collect(),
                    closed: n.closed,
                    corrections: self.corrections_of(n.date).to_vec(),
                })
                .collect(),
            endstand: self
                .endstand
                .iter()
                .map(|e| EndstandEntry {
                    player: e.player.clone(),
                    liga: e.liga,
                    rounds: e.rounds,
                    counted_outs: e.counted_outs,
                    paid_rounds: e.paid_rounds,
                    lost_rounds: (e.lost_rounds != e.paid_rounds).then_some(e.lost_rounds),
                    thrown_outs: e.thrown_outs,
                    hand_outs: e.hand_outs,
                    julen: e.julen,
                })
                .collect(),
            payments: self.payments.clone(),
            credit: self.credit.clone(),
            kassenbuch: self.kassenbuch.clone(),
            status: Vec::new(),
            merged: None,
        }
    }

    /// The season with `night` added, or replacing the night of the same date, checked completely
    /// like [`Season::from_file`] (for entering one night: on error nothing changes).
    pub fn with_night(&self, night: &NightEntry) -> Result<Season, EntryError> {
        let mut file = self.to_file();
        file.nights.retain(|n| n.date != night.date);
        file.nights.push(night.clone());
        Season::from_file(&file)
    }
}

#[cfg(test)]
mod tests;
