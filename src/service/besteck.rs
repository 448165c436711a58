//! The Schockbesteck's Runden in progress (schocken-rules.md §6–§7): per night, table and round the
//! rules engine's record, stored so a Runde survives a reload and a restart. Each step is written
//! only against the state its page showed (the number of Wurfrunden it had), so a double tap or a
//! second phone cannot apply a Wurfrunde twice. Confirming a finished Runde is a league change
//! (`Change::PutRound` through the write pipeline, which removes the record in the same
//! transaction).

use super::{League, ServiceError};
use crate::db;
use crate::rules::RundeRecord;

/// Where a Runde is played: the night's storage id, the table and the round number.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RundeAt {
    /// `nights.id`.
    pub night: i64,
    /// Table 1 or 2.
    pub table: u32,
    /// Round number at the table.
    pub round: u32,
}

/// The refusal of a round `number` at `table` of the night on `date` entered by hand (form, paper
/// sheet, scorer link, JSON API) while that Runde is `running` in the Schockbesteck at that table
/// (German, naming night, table and round; a refusal, 422), else `None`: both would store the same
/// round. Checked in the write pipeline, inside the write transaction (issue 33.5).
pub fn collision(
    date: chrono::NaiveDate,
    table: u32,
    number: u32,
    running: &[u32],
) -> Option<crate::league::EntryError> {
    running.contains(&number).then(|| {
        crate::league::EntryError::new(
            crate::league::Location::night(date)
                .table(table)
                .round(number),
            "diese Runde läuft gerade im Schockbesteck. Dort zu Ende spielen und bestätigen \
             (oder dort verwerfen), oder hier eine andere Rundennummer wählen.",
        )
    })
}

/// The German refusal when the stored Runde moved on since the page was shown.
fn stale(now: usize) -> ServiceError {
    ServiceError::refused(format!(
        "Die Anzeige war nicht mehr aktuell (inzwischen {now} Wurfrunden); bitte prüfen und neu eingeben."
    ))
}

impl League {
    /// The Runde in progress at `at`, if any. Errors: storage, a stored record that is not one.
    pub async fn runde(&self, at: RundeAt) -> Result<Option<RundeRecord>, ServiceError> {
        let mut conn = self.db().read.acquire().await?;
        Ok(db::besteck::get(&mut conn, at.night, at.table, at.round).await?)
    }

    /// The round numbers with a Runde in progress at `table` of night `night`, ascending.
    pub async fn runden_running(&self, night: i64, table: u32) -> Result<Vec<u32>, ServiceError> {
        let mut conn = self.db().read.acquire().await?;
        Ok(db::besteck::numbers(&mut conn, night, table).await?)
    }

    /// Stores `record` (or removes the Runde with `None`) at `at` by `author`, provided the stored
    /// Runde still has `seen` Wurfrunden (`None`: no Runde may be stored yet). Refused (German) when
    /// the page was stale (another step came first) and for a night recorded as totals.
    pub async fn save_runde(
        &self,
        at: RundeAt,
        seen: Option<usize>,
        record: Option<&RundeRecord>,
        author: &str,
    ) -> Result<(), ServiceError> {
        let mut tx = self.db().begin_write_as(author).await?;
        if record.is_some() && db::night::has_totals(&mut tx, at.night).await? {
            let night = db::night::get(&mut tx, at.night).await?;
            let date = night.map_or(chrono::NaiveDate::MIN, |n| n.date);
            return Err(super::scorer::totals_night(date));
        }
        let stored = match db::besteck::get(&mut tx, at.night, at.table, at.round).await {
            Ok(r) => r.map(|r| r.wurfrunden.len()),
            // A record that no longer reads (written by an older version) may still be replaced
            // or discarded.
            Err(db::DbError::Corrupt(_)) => Some(usize::MAX),
            Err(e) => return Err(e.into()),
        };
        if let Some(seen) = seen.filter(|_| record.is_some()) {
            if stored != Some(seen) {
                return Err(stale(stored.unwrap_or(0)));
            }
        } else if record.is_some() && stored.is_some() {
            return Err(ServiceError::refused(format!(
                "Runde {} läuft schon.",
                at.round
            )));
        }
        match record {
            Some(r) => db::besteck::put(&mut tx, at.night, at.table, at.round, r).await?,
            None => db::besteck::delete(&mut tx, at.night, at.table, at.round).await?,
        }
        tx.commit().await?;
        self.night_id_changed(at.night);
        Ok(())
    }
}

/// Where and what an audit row of a confirm says: (date, table, round, rows, Wurfrunden), or
/// `None` when the row does not read as one ("Runde 3 an Tisch 1 am 09.01.2026 aus dem
/// Schockbesteck gespeichert", after JSON `{"results": […], "wurfrunden": […]}`).
type Confirmed = (
    chrono::NaiveDate,
    u32,
    u32,
    Vec<crate::league::model::file::ResultEntry>,
    Vec<crate::rules::AppliedWurfrunde>,
);

fn read_confirm(action: &str, after: &str) -> Option<Confirmed> {
    let rest = action.strip_prefix("Runde ")?;
    let (round, rest) = rest.split_once(" an Tisch ")?;
    let (table, rest) = rest.split_once(" am ")?;
    let date = rest.strip_suffix(" aus dem Schockbesteck gespeichert")?;
    let date = chrono::NaiveDate::parse_from_str(date, "%d.%m.%Y").ok()?;
    #[derive(serde::Deserialize)]
    struct After {
        results: Vec<crate::league::model::file::ResultEntry>,
        wurfrunden: Vec<crate::rules::AppliedWurfrunde>,
    }
    let after: After = serde_json::from_str(after).ok()?;
    Some((
        date,
        table.parse().ok()?,
        round.parse().ok()?,
        after.results,
        after.wurfrunden,
    ))
}

impl League {
    /// Gives back their throws to the rounds confirmed from the Schockbesteck before throws were
    /// kept with their round (migration 20261201140000): each such confirm's audit row holds its
    /// rows (in seat order) and Wurfrunden. A round gets them only when it is still stored, has
    /// none, and the season's check accepts them (the throws replay under the season's rules and
    /// give exactly the stored rows); anything else is left alone. Idempotent; returns how many
    /// rounds got their throws. Errors: storage.
    pub async fn restore_confirmed_throws(&self) -> Result<usize, ServiceError> {
        let rows = {
            let mut conn = self.db().read.acquire().await?;
            db::audit::schockbesteck_confirms(&mut conn).await?
        };
        // The latest confirm of each round.
        let mut latest = std::collections::BTreeMap::new();
        for (action, after) in rows {
            if let Some((date, table, round, results, wurfrunden)) = read_confirm(&action, &after) {
                latest.insert((date, table, round), (results, wurfrunden));
            }
        }
        let mut restored = 0;
        let mut seasons = std::collections::BTreeMap::new();
        for ((date, table, round), (results, wurfrunden)) in latest {
            let year = chrono::Datelike::year(&date);
            if let std::collections::btree_map::Entry::Vacant(slot) = seasons.entry(year) {
                let mut conn = self.db().read.acquire().await?;
                slot.insert(db::season::load(&mut conn, year).await?);
            }
            let Some(Some(stored)) = seasons.get(&year) else {
                continue;
            };
            // Only a round still stored with exactly the confirmed rows (cheap; most rounds that
            // were re-entered by hand since stop here), then the season's own check.
            let same_rows = stored
                .file
                .nights
                .iter()
                .filter(|n| n.date == date)
                .flat_map(|n| n.tables.iter())
                .filter(|t| t.number == table)
                .flat_map(|t| t.rounds.iter())
                .any(|r| r.number == round && r.schockbesteck.is_none() && r.results == results);
            if !same_rows {
                continue;
            }
            let mut file = stored.file.clone();
            let Ok(game) =
                crate::league::model::rules::SeasonRules::with_overrides(year, &file.rules)
                    .map_err(|_| ())
                    .and_then(|r| crate::rules::RuleSet::from_json(&r.game).map_err(|_| ()))
            else {
                continue;
            };
            let Some(entry) = file
                .nights
                .iter_mut()
                .filter(|n| n.date == date)
                .flat_map(|n| n.tables.iter_mut())
                .filter(|t| t.number == table)
                .flat_map(|t| t.rounds.iter_mut())
                .find(|r| r.number == round)
            else {
                continue;
            };
            if entry.schockbesteck.is_some() {
                continue;
            }
            let record = crate::rules::RundeRecord {
                players: results.iter().map(|r| r.player.clone()).collect(),
                rules: game,
                wurfrunden,
            };
            entry.schockbesteck = Some(crate::rules::PlayedRunde::new(record.clone()));
            if crate::league::Season::from_file(&file).is_err() {
                continue;
            }
            let Some(&night) = stored.ids.nights.get(&date) else {
                continue;
            };
            let _w = self.inner.writing.lock().await;
            let mut tx = self.db().begin_write_as("Wiederherstellung").await?;
            db::besteck::put_confirmed(&mut tx, night, table, round, Some(&record)).await?;
            tx.commit().await?;
            restored += 1;
        }
        Ok(restored)
    }
}
