//! Who still plays (issue 36.4): a player's status in a season (aktiv, pausiert, ausgetreten on
//! a day), stored beside the season (`player_status`), read by the attendance and Zusage lists
//! for their order only: no figure of the season file, the table, the money or the history
//! reads it.

use std::collections::BTreeMap;

use serde_json::json;

use crate::db;
use crate::league::plan::status::Status;
use crate::service::{League, ServiceError};

impl League {
    /// The statuses of season `year` by player id; a player without one is aktiv (absent).
    /// Errors: storage; a stored status that does not read (`Corrupt`).
    pub async fn statuses(&self, year: i32) -> Result<BTreeMap<i64, Status>, ServiceError> {
        let mut conn = self.inner.db.read.acquire().await?;
        db::player::statuses(&mut conn, year)
            .await?
            .into_iter()
            .map(|(id, kind, day)| {
                let day = day.map(|d| d.to_string()).unwrap_or_default();
                Status::parse(&kind, &day)
                    .map(|s| (id, s))
                    .map_err(ServiceError::Corrupt)
            })
            .collect()
    }

    /// Sets player `id`'s status in season `year` to `status` by `author` (in the Protokoll);
    /// returns his name. Refused (German, nothing stored) when he is not a player of the season
    /// or the day of „ausgetreten“ lies outside the season's year; `NotFound` for an unknown
    /// player.
    pub async fn set_status(
        &self,
        year: i32,
        id: i64,
        status: Status,
        author: &str,
    ) -> Result<String, ServiceError> {
        let mut tx = self.inner.db.begin_write_as(author).await?;
        let (_, name) = db::player::by_id(&mut tx, id)
            .await?
            .ok_or_else(|| ServiceError::NotFound(format!("Spieler Nr. {id}")))?;
        if !db::player::seasons_of(&mut tx, id).await?.contains(&year) {
            return Err(ServiceError::refused(format!(
                "{name} ist kein Spieler der Saison {year}."
            )));
        }
        if let Some(day) = status.day() {
            if chrono::Datelike::year(&day) != year {
                return Err(ServiceError::refused(format!(
                    "Ausgetreten am: der {} liegt nicht in der Saison {year}",
                    crate::league::model::format::date_de(day)
                )));
            }
        }
        let before = db::player::statuses(&mut tx, year)
            .await?
            .into_iter()
            .find(|(p, ..)| *p == id)
            .and_then(|(_, kind, day)| {
                Status::parse(&kind, &day.map(|d| d.to_string()).unwrap_or_default()).ok()
            })
            .unwrap_or_default();
        db::player::set_status(&mut tx, year, id, status.code(), status.day()).await?;
        let shown = |s: Status| json!({ "player": name, "status": s.code(), "day": s.day() });
        db::audit::record(
            &mut tx,
            author,
            &format!("{name}: Saison {year} {}", status.german()),
            Some(&shown(before)),
            Some(&shown(status)),
        )
        .await?;
        tx.commit().await?;
        Ok(name)
    }
}
