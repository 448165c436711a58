//! Closing a Spielabend and correcting a closed one (migration `20261129153000_closed_nights`):
//! the database refuses changes to a closed night's participants, rounds, results and fines unless
//! a correction is active for it in the same transaction.

use sqlx::{FromRow, SqliteConnection, SqlitePool};

use std::collections::BTreeMap;

use super::DbError;
use crate::league::model::file::CorrectionEntry;

/// True when night `night_id` is closed; `None` when there is no such night.
pub async fn is_closed(
    conn: &mut SqliteConnection,
    night_id: i64,
) -> Result<Option<bool>, DbError> {
    let row: Option<(bool,)> = sqlx::query_as("select closed != 0 from nights where id = ?")
        .bind(night_id)
        .fetch_optional(conn)
        .await?;
    Ok(row.map(|(c,)| c))
}

/// Closes night `night_id` (idempotent); returns true when it was open before.
pub async fn close(conn: &mut SqliteConnection, night_id: i64) -> Result<bool, DbError> {
    let done = sqlx::query("update nights set closed = 1 where id = ? and closed = 0")
        .bind(night_id)
        .execute(conn)
        .await?;
    Ok(done.rows_affected() == 1)
}

/// Opens closed night `night_id` again (idempotent); returns true when it was closed before.
pub async fn reopen(conn: &mut SqliteConnection, night_id: i64) -> Result<bool, DbError> {
    let done = sqlx::query("update nights set closed = 0 where id = ? and closed = 1")
        .bind(night_id)
        .execute(conn)
        .await?;
    Ok(done.rows_affected() == 1)
}

/// The database's time now as a Korrektur is timed (UTC, RFC 3339 with milliseconds, as
/// [`begin_correction`] stamps one): for a Korrektur written with its night (an import).
pub async fn now_stamp(conn: &mut SqliteConnection) -> Result<String, DbError> {
    Ok(
        sqlx::query_scalar("select strftime('%Y-%m-%dT%H:%M:%fZ', 'now')")
            .fetch_one(conn)
            .await?,
    )
}

/// Opens a correction of night `night_id` by `user` for `reason`, timed by the database (UTC,
/// RFC 3339 with milliseconds); returns its id and that time. Call inside the write transaction of
/// the change, and [`end_correction`] before committing.
pub async fn begin_correction(
    conn: &mut SqliteConnection,
    night_id: i64,
    user: &str,
    reason: &str,
) -> Result<(i64, String), DbError> {
    let (id, at): (i64, String) = sqlx::query_as(
        "insert into night_corrections (night_id, at, user, reason)
         values (?, strftime('%Y-%m-%dT%H:%M:%fZ', 'now'), ?, ?) returning id, at",
    )
    .bind(night_id)
    .bind(user)
    .bind(reason)
    .fetch_one(conn)
    .await?;
    Ok((id, at))
}

/// Stores the Korrektur `c` of night `night_id` as a record only (ended: it unlocks nothing), for
/// an import of a season file.
pub async fn insert_ended_correction(
    conn: &mut SqliteConnection,
    night_id: i64,
    c: &CorrectionEntry,
) -> Result<(), DbError> {
    sqlx::query(
        "insert into night_corrections (night_id, at, user, reason, active) values (?, ?, ?, ?, 0)",
    )
    .bind(night_id)
    .bind(&c.at)
    .bind(&c.user)
    .bind(&c.reason)
    .execute(conn)
    .await?;
    Ok(())
}

/// The Korrekturen of every night of season `year`, by `nights.id`, oldest first.
pub async fn corrections_of_season(
    conn: &mut SqliteConnection,
    year: i32,
) -> Result<BTreeMap<i64, Vec<CorrectionEntry>>, DbError> {
    let rows: Vec<(i64, String, String, String)> = sqlx::query_as(
        "select c.night_id, c.at, c.user, c.reason from night_corrections c
         join nights n on n.id = c.night_id where n.season = ? order by c.id",
    )
    .bind(year)
    .fetch_all(conn)
    .await?;
    let mut out: BTreeMap<i64, Vec<CorrectionEntry>> = BTreeMap::new();
    for (night, at, user, reason) in rows {
        out.entry(night)
            .or_default()
            .push(CorrectionEntry { at, user, reason });
    }
    Ok(out)
}

/// Ends correction `id`: the night is locked again.
pub async fn end_correction(conn: &mut SqliteConnection, id: i64) -> Result<(), DbError> {
    sqlx::query("update night_corrections set active = 0 where id = ?")
        .bind(id)
        .execute(conn)
        .await?;
    Ok(())
}

/// One correction of a night, for display.
#[derive(Debug, Clone, FromRow)]
pub struct Correction {
    /// When (RFC 3339, UTC).
    pub at: String,
    /// Who.
    pub user: String,
    /// Why (as typed).
    pub reason: String,
}

/// The corrections of night `night_id`, oldest first.
pub async fn corrections(pool: &SqlitePool, night_id: i64) -> Result<Vec<Correction>, DbError> {
    Ok(sqlx::query_as(
        "select at, user, reason from night_corrections where night_id = ? order by id",
    )
    .bind(night_id)
    .fetch_all(pool)
    .await?)
}
