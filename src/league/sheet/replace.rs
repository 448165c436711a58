//! Replacing a season's results from a file that holds results only (issue 32.2): the club's
//! spreadsheet (interchange.md "Spreadsheet of night totals") and a season file that carries no
//! money ([`carries_money`]). Such a file says what was played, nothing about the Kasse; so
//! replacing a season from it keeps the season's fines (paid or open, with their payment days),
//! its players' Jahresbeiträge, its Strafenkatalog and its other rules, and changes only the
//! results of its nights. A closed night whose results change is a Korrektur (league.md, the
//! closed-night rule): [`Replacement::closed`] lists those, [`Replacement::correct`] records the
//! Korrektur in each. Pure: the service reads the stored season, plans, checks the Korrektur and
//! stores.

use std::collections::BTreeMap;

use chrono::NaiveDate;

use super::totals::night_totals;
use crate::league::model::error::{EntryError, Location};
use crate::league::model::file::{CorrectionEntry, NightEntry, SeasonFile};
use crate::league::model::format::date_de;
use crate::league::model::names::name_key;
use crate::league::model::season::{Night, Season};

/// Whether `file` carries money: a fine at any night, a player's Jahresbeitrag, a Strafenkatalog
/// of its own (`rules.fines`), a payment or a booking of Guthaben (issue 34.1). A season file that does (our own export) is the
/// whole season and replaces it whole; one that does not replaces results only ([`plan`]).
pub fn carries_money(file: &SeasonFile) -> bool {
    file.nights.iter().any(|n| !n.fines.is_empty())
        || file.players.iter().any(|p| p.fee_paid_on.is_some())
        || file.rules.contains_key("fines")
        || !file.payments.is_empty()
        || !file.credit.is_empty()
}

/// What became of a night of the stored season that had results.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub enum Outcome {
    /// Its results are the file's now (they differ).
    Replaced,
    /// The file does not have it: its results are gone, the night stays for its fines.
    Emptied,
    /// The file does not have it and nothing else holds it (no fines): the night is gone.
    Removed,
}

impl Outcome {
    /// German, for the Protokoll and the preview: "ersetzt", "ohne Ergebnisse (nicht in der
    /// Datei; die Strafen bleiben)", "entfernt (nicht in der Datei)".
    pub fn label(self) -> &'static str {
        match self {
            Outcome::Replaced => "ersetzt",
            Outcome::Emptied => "ohne Ergebnisse (nicht in der Datei; die Strafen bleiben)",
            Outcome::Removed => "entfernt (nicht in der Datei)",
        }
    }
}

/// A night's results in figures, for the Protokoll: participants, rounds played (summed over
/// the players), Schock Outs thrown, and whether it is recorded as totals.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Serialize)]
pub struct Figures {
    /// Participants (the draw).
    pub players: usize,
    /// Rounds played, summed over the players.
    pub rounds: u32,
    /// Schock Outs thrown, Hand-Outs included.
    pub outs: u32,
    /// Recorded as totals per player (a sheet's night).
    pub recorded_as_totals: bool,
}

impl Figures {
    /// The figures of `night` (`None`: a night that is not there, all 0).
    pub fn of(night: Option<&Night>) -> Figures {
        let Some(n) = night else {
            return Figures::default();
        };
        let rows = n
            .tables
            .iter()
            .flat_map(|t| &t.rounds)
            .flat_map(|r| &r.results);
        let (mut rounds, mut outs) = (0u32, 0u32);
        for r in rows {
            rounds += 1;
            outs += r.outs;
        }
        for t in &n.totals {
            rounds += t.rounds;
            outs += t.outs;
        }
        Figures {
            players: n.draw.len(),
            rounds,
            outs,
            recorded_as_totals: n.recorded_as_totals(),
        }
    }
}

/// A night of the stored season whose results the replacement changes.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct ReplacedNight {
    /// The night.
    pub date: NaiveDate,
    /// What becomes of it.
    pub outcome: Outcome,
    /// It is closed: changing it is a Korrektur.
    pub closed: bool,
    /// Its fines, which stay (0 for a removed night).
    pub fines: usize,
    /// Its results before.
    pub before: Figures,
    /// Its results after.
    pub after: Figures,
}

/// The replacement of a season's results ([`plan`]): the season file to store and what it
/// changes.
#[derive(Debug, Clone, PartialEq)]
pub struct Replacement {
    /// The stored season with the file's results: the stored rules (the file's overrides but the
    /// Strafenkatalog), players and fees (a fee only the file knows is taken), fines, closings
    /// and Korrekturen.
    pub file: SeasonFile,
    /// The stored nights whose results change, by date.
    pub nights: Vec<ReplacedNight>,
    /// Nights the file brings that the season did not have.
    pub new_nights: usize,
    /// The Jahresbeiträge only the file knows (a player without one in the season, or a new
    /// player, with the day the file says he paid), in the league's spelling: the one money the
    /// replacement adds, so the preview, the command line and the Protokoll name each.
    pub fees_taken: Vec<(String, NaiveDate)>,
}

impl Replacement {
    /// The closed nights the replacement changes: each needs the Korrektur (box and reason).
    pub fn closed(&self) -> Vec<NaiveDate> {
        self.nights
            .iter()
            .filter(|n| n.closed)
            .map(|n| n.date)
            .collect()
    }

    /// Records the Korrektur (`reason`, already checked with `Korrektur::check`) by `user` at
    /// `at` (RFC 3339) in every closed night the replacement changes and keeps.
    pub fn correct(&mut self, reason: &str, user: &str, at: &str) {
        for date in self.closed() {
            if let Some(night) = self.file.nights.iter_mut().find(|n| n.date == date) {
                night.corrections.push(CorrectionEntry {
                    at: at.to_string(),
                    user: user.to_string(),
                    reason: reason.to_string(),
                });
            }
        }
    }
}

/// Whether `n` has results: rounds or totals (a night with only its draw, or planned ahead, has
/// none).
fn has_results(n: &NightEntry) -> bool {
    !n.tables.is_empty() || !n.totals.is_empty()
}

/// `n` with the results of `from` (none: `None`), keeping its fines, closing and Korrekturen.
fn with_results(n: &NightEntry, from: Option<&NightEntry>) -> NightEntry {
    NightEntry {
        tables: from.map(|f| f.tables.clone()).unwrap_or_default(),
        totals: from.map(|f| f.totals.clone()).unwrap_or_default(),
        draw: from.and_then(|f| f.draw.clone()),
        ..n.clone()
    }
}

/// Whether `incoming`, a night kept as totals, only repeats the totals of the stored night of
/// rounds on `date` (the season's own export read back): per player the same table, rounds,
/// Outs, Hand-Outs, Julen, counted Outs and rounds lost. Then the night keeps its rounds.
fn repeats_totals(stored: &Season, date: NaiveDate, incoming: &NightEntry) -> bool {
    let Some(night) = stored.night(date) else {
        return false;
    };
    if night.tables.is_empty() || !incoming.tables.is_empty() || incoming.totals.is_empty() {
        return false;
    }
    let rules = &stored.rules;
    let key = |t: &crate::league::model::file::TotalsEntry| {
        let points = t.points.unwrap_or_else(|| {
            crate::league::model::season::base_points_of(rules, t.outs, t.hand_outs)
        });
        (
            name_key(&t.player),
            t.table,
            t.rounds,
            t.outs,
            t.hand_outs,
            t.julen,
            points,
            t.lost,
        )
    };
    let mut ours: Vec<_> = night_totals(stored, night).iter().map(key).collect();
    let mut theirs: Vec<_> = incoming.totals.iter().map(key).collect();
    ours.sort();
    theirs.sort();
    ours == theirs
}

/// The results of a checked night, as compared: its tables (rounds, with their Schockbesteck
/// throws), its totals and its draw.
fn same_results(a: &Night, b: &Night) -> bool {
    a.tables == b.tables && a.totals == b.totals && a.draw == b.draw
}

/// Replacing the results of `stored` by those of `incoming` (a sheet's season, or a season file
/// without money; player names already in the league's spelling): the stored season file with
/// the stored rules (but for the overrides `incoming` names, never its Strafenkatalog), players
/// (new ones added; a fee only `incoming` knows is taken) and fines; each stored night the file
/// has takes the file's results (rounds or totals, and the draw), one it has not loses them (and
/// goes when no fine holds it; a night kept as totals that stays for its fines is closed, as
/// history), a night without results (only a draw, or planned) stays as it is; the file's other nights are added; the Endstand is
/// the file's. Nights whose results come out the same are left as they were, a night of rounds
/// whose totals the file only repeats (the season's own export read back) too. Checked whole
/// (`Season::from_file`); errors (German, with the night): a check, an Endstand over nights that
/// stay.
pub fn plan(stored: &Season, incoming: &SeasonFile) -> Result<Replacement, EntryError> {
    let mut file = stored.to_file();
    for (key, value) in &incoming.rules {
        if key != "fines" {
            file.rules.insert(key.clone(), value.clone());
        }
    }
    let mut fees_taken = Vec::new();
    for p in &incoming.players {
        match file
            .players
            .iter_mut()
            .find(|q| name_key(&q.name) == name_key(&p.name))
        {
            Some(q) => {
                if let (None, Some(paid)) = (q.fee_paid_on, p.fee_paid_on) {
                    q.fee_paid_on = Some(paid);
                    fees_taken.push((q.name.clone(), paid));
                }
            }
            None => {
                if let Some(paid) = p.fee_paid_on {
                    fees_taken.push((p.name.clone(), paid));
                }
                file.players.push(p.clone());
            }
        }
    }
    let mut theirs: BTreeMap<NaiveDate, &NightEntry> =
        incoming.nights.iter().map(|n| (n.date, n)).collect();
    let mut nights = Vec::with_capacity(file.nights.len() + theirs.len());
    for n in &file.nights {
        match theirs.remove(&n.date) {
            Some(i) if repeats_totals(stored, n.date, i) => nights.push(n.clone()),
            Some(i) => nights.push(with_results(n, Some(i))),
            None if !has_results(n) => nights.push(n.clone()),
            None if n.fines.is_empty() => {}
            // A night kept as totals is history, never open: emptied for its fines, it stays
            // history (closed), or the Jahresabschluss would wait for it as "Noch offen".
            None if !n.totals.is_empty() => nights.push(NightEntry {
                closed: true,
                ..with_results(n, None)
            }),
            None => nights.push(with_results(n, None)),
        }
    }
    let new_nights = theirs.len();
    nights.extend(theirs.into_values().cloned());
    nights.sort_by_key(|n| n.date);
    file.nights = nights;
    file.endstand = incoming.endstand.clone();
    if !file.endstand.is_empty() {
        if let Some(n) = file.nights.first() {
            let why = if n.fines.is_empty() {
                "er hat keine Ergebnisse und bleibt".to_string()
            } else {
                format!("seine {} Strafen bleiben", n.fines.len())
            };
            return Err(EntryError::new(
                Location::night(n.date),
                format!(
                    "ein Endstand ersetzt die Abende der Saison {} nicht ganz: der Abend {} bleibt \
                     ({why}); eine Saison hat entweder Spielabende oder einen Endstand",
                    stored.year,
                    date_de(n.date)
                ),
            ));
        }
    }
    let merged = Season::from_file(&file)?;
    let mut changed = Vec::new();
    for before in &stored.nights {
        let after = merged.night(before.date);
        let outcome = match after {
            Some(a) if same_results(a, before) => continue,
            Some(a) if a.tables.is_empty() && a.totals.is_empty() && a.draw.is_empty() => {
                Outcome::Emptied
            }
            Some(_) => Outcome::Replaced,
            None => Outcome::Removed,
        };
        changed.push(ReplacedNight {
            date: before.date,
            outcome,
            closed: before.closed,
            fines: after.map_or(0, |a| a.fines.len()),
            before: Figures::of(Some(before)),
            after: Figures::of(after),
        });
    }
    // A night whose results come out the same is kept exactly as stored.
    let stored_file = stored.to_file();
    for n in file.nights.iter_mut() {
        let unchanged = !changed.iter().any(|c| c.date == n.date);
        if let Some(s) = stored_file.nights.iter().find(|s| s.date == n.date) {
            if unchanged {
                *n = s.clone();
            }
        }
    }
    Ok(Replacement {
        file,
        nights: changed,
        new_nights,
        fees_taken,
    })
}

#[cfg(test)]
mod tests;
