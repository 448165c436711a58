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
    /// the page was stale: another step came first.
    pub async fn save_runde(
        &self,
        at: RundeAt,
        seen: Option<usize>,
        record: Option<&RundeRecord>,
        author: &str,
    ) -> Result<(), ServiceError> {
        let mut tx = self.db().begin_write_as(author).await?;
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
        Ok(())
    }
}
