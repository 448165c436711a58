//! Nights planned ahead and their Zusagen (migration `20261202100000_planned_nights`): the
//! `planning` row (the calendar's club key, the change counter the triggers bump), the planned
//! nights and one answer per player and night.

use chrono::{DateTime, NaiveDate, NaiveTime, Utc};
use sqlx::{FromRow, SqliteConnection};

use super::DbError;
use crate::league::plan::planned::{Answer, Moved, PlannedNight, Planning, Via};

/// A stored planned night.
#[derive(Debug, Clone, FromRow)]
struct NightRow {
    id: i64,
    date: NaiveDate,
    start_time: String,
    place: String,
    note: String,
    cancelled: bool,
    sequence: i64,
    updated_at: String,
}

/// A stored answer with its player's name.
#[derive(Debug, Clone, FromRow)]
struct AnswerRow {
    planned_id: i64,
    player_id: i64,
    name: String,
    coming: bool,
    via: String,
    changes: i64,
    answered_at: String,
    for_date: String,
}

/// What a planned night is when written: day, start (wall clock), place, note.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlanRow {
    /// The day.
    pub date: NaiveDate,
    /// The start on the club's wall clock.
    pub time: NaiveTime,
    /// Where (may be empty).
    pub place: String,
    /// A note (may be empty).
    pub note: String,
}

/// An instant as stored: `2026-12-02T09:15:00Z`.
pub fn stamp(at: DateTime<Utc>) -> String {
    at.format("%Y-%m-%dT%H:%M:%SZ").to_string()
}

fn instant(text: &str) -> Result<DateTime<Utc>, DbError> {
    DateTime::parse_from_rfc3339(text)
        .map(|t| t.with_timezone(&Utc))
        .map_err(|e| DbError::Corrupt(format!("Zeitpunkt „{text}“: {e}")))
}

/// The `planning.version` counter (0 when the row is missing).
pub async fn version(conn: &mut SqliteConnection) -> Result<i64, DbError> {
    let v: Option<(i64,)> = sqlx::query_as("select version from planning where id = 1")
        .fetch_optional(conn)
        .await?;
    Ok(v.map_or(0, |(v,)| v))
}

/// Every planned night with its answers, as of the counter read in the same transaction.
pub async fn load(conn: &mut SqliteConnection) -> Result<Planning, DbError> {
    let head: Option<(i64, String)> =
        sqlx::query_as("select version, uid_key from planning where id = 1")
            .fetch_optional(&mut *conn)
            .await?;
    let (version, uid_key) = head.unwrap_or_default();
    let rows: Vec<NightRow> = sqlx::query_as(
        "select id, date, start_time, place, note, cancelled, sequence, updated_at
         from planned_nights order by date, id",
    )
    .fetch_all(&mut *conn)
    .await?;
    let answers: Vec<AnswerRow> = sqlx::query_as(
        "select z.planned_id, z.player_id, p.name, z.coming, z.via, z.changes, z.answered_at,
             z.for_date
         from zusagen z join players p on p.id = z.player_id order by p.name, p.id",
    )
    .fetch_all(&mut *conn)
    .await?;
    let mut nights = Vec::with_capacity(rows.len());
    for r in rows {
        let time = NaiveTime::parse_from_str(&r.start_time, "%H:%M").map_err(|e| {
            DbError::Corrupt(format!("Beginn „{}“ am {}: {e}", r.start_time, r.date))
        })?;
        let mut mine = Vec::new();
        for a in answers.iter().filter(|a| a.planned_id == r.id) {
            mine.push(Answer {
                player_id: a.player_id,
                player: a.name.clone(),
                coming: a.coming,
                via: Via::parse(&a.via),
                changes: u32::try_from(a.changes).unwrap_or(0),
                at: instant(&a.answered_at)?,
                // Empty (never written so): the night's day.
                for_date: if a.for_date.is_empty() {
                    r.date
                } else {
                    NaiveDate::parse_from_str(&a.for_date, "%Y-%m-%d").map_err(|e| {
                        DbError::Corrupt(format!("Zusage für „{}“ am {}: {e}", a.for_date, r.date))
                    })?
                },
            });
        }
        nights.push(PlannedNight {
            id: r.id,
            date: r.date,
            time,
            place: r.place,
            note: r.note,
            cancelled: r.cancelled,
            sequence: u32::try_from(r.sequence).unwrap_or(0),
            updated_at: instant(&r.updated_at)?,
            answers: mine,
        });
    }
    let rows: Vec<(NaiveDate, i64, String)> = sqlx::query_as(
        "select from_date, planned_id, moved_at from planned_moves order by from_date",
    )
    .fetch_all(&mut *conn)
    .await?;
    let mut moved = Vec::with_capacity(rows.len());
    for (from, id, at) in rows {
        moved.push(Moved {
            from,
            id,
            at: instant(&at)?,
        });
    }
    Ok(Planning {
        version,
        uid_key,
        nights,
        moved,
    })
}

/// Records that planned night `id` left the day `from` at `at` (a later move from the same day
/// replaces the row).
pub async fn record_move(
    conn: &mut SqliteConnection,
    from: NaiveDate,
    id: i64,
    at: DateTime<Utc>,
) -> Result<(), DbError> {
    sqlx::query(
        "insert into planned_moves (from_date, planned_id, moved_at) values (?, ?, ?)
         on conflict (from_date) do update set planned_id = excluded.planned_id,
             moved_at = excluded.moved_at",
    )
    .bind(from)
    .bind(id)
    .bind(stamp(at))
    .execute(conn)
    .await?;
    Ok(())
}

/// Stores a new planned night `plan` by `author` at `at`; returns its id.
pub async fn insert(
    conn: &mut SqliteConnection,
    plan: &PlanRow,
    author: &str,
    at: DateTime<Utc>,
) -> Result<i64, DbError> {
    let (id,): (i64,) = sqlx::query_as(
        "insert into planned_nights (date, start_time, place, note, created_by, created_at,
             updated_at) values (?, ?, ?, ?, ?, ?, ?) returning id",
    )
    .bind(plan.date)
    .bind(plan.time.format("%H:%M").to_string())
    .bind(&plan.place)
    .bind(&plan.note)
    .bind(author)
    .bind(stamp(at))
    .bind(stamp(at))
    .fetch_one(conn)
    .await?;
    Ok(id)
}

/// Whether a night not cancelled is planned on `date` (inside a write transaction: what another
/// request stored meanwhile counts).
pub async fn planned_on(conn: &mut SqliteConnection, date: NaiveDate) -> Result<bool, DbError> {
    let (n,): (i64,) =
        sqlx::query_as("select count(*) from planned_nights where date = ? and cancelled = 0")
            .bind(date)
            .fetch_one(conn)
            .await?;
    Ok(n > 0)
}

/// Replaces planned night `id` by `plan` at `at`, raising its SEQUENCE when `bump`; returns how
/// many rows changed (0: no such night).
pub async fn update(
    conn: &mut SqliteConnection,
    id: i64,
    plan: &PlanRow,
    bump: bool,
    at: DateTime<Utc>,
) -> Result<u64, DbError> {
    let done = sqlx::query(
        "update planned_nights set date = ?, start_time = ?, place = ?, note = ?,
             sequence = sequence + ?, updated_at = ? where id = ?",
    )
    .bind(plan.date)
    .bind(plan.time.format("%H:%M").to_string())
    .bind(&plan.place)
    .bind(&plan.note)
    .bind(i64::from(bump))
    .bind(stamp(at))
    .bind(id)
    .execute(conn)
    .await?;
    Ok(done.rows_affected())
}

/// Cancels planned night `id` (or, `cancelled = false`, plans it again) at `at`, raising its
/// SEQUENCE; returns how many rows changed.
pub async fn set_cancelled(
    conn: &mut SqliteConnection,
    id: i64,
    cancelled: bool,
    at: DateTime<Utc>,
) -> Result<u64, DbError> {
    let done = sqlx::query(
        "update planned_nights set cancelled = ?, sequence = sequence + 1, updated_at = ?
         where id = ? and cancelled <> ?",
    )
    .bind(cancelled)
    .bind(stamp(at))
    .bind(id)
    .bind(cancelled)
    .execute(conn)
    .await?;
    Ok(done.rows_affected())
}

/// Stores the answer of player `player_id` to planned night `planned_id`: `coming`, given `via`
/// at `at` for the night's day `for_date`, answered `changes` times.
#[allow(clippy::too_many_arguments)]
pub async fn put_answer(
    conn: &mut SqliteConnection,
    planned_id: i64,
    player_id: i64,
    coming: bool,
    via: &Via,
    changes: u32,
    at: DateTime<Utc>,
    for_date: NaiveDate,
) -> Result<(), DbError> {
    sqlx::query(
        "insert into zusagen (planned_id, player_id, coming, via, changes, answered_at, for_date)
         values (?, ?, ?, ?, ?, ?, ?)
         on conflict (planned_id, player_id) do update set coming = excluded.coming,
             via = excluded.via, changes = excluded.changes, answered_at = excluded.answered_at,
             for_date = excluded.for_date",
    )
    .bind(planned_id)
    .bind(player_id)
    .bind(coming)
    .bind(via.stored())
    .bind(i64::from(changes))
    .bind(stamp(at))
    .bind(for_date)
    .execute(conn)
    .await?;
    Ok(())
}

/// Removes the answer of player `player_id` to planned night `planned_id`; returns whether there
/// was one.
pub async fn delete_answer(
    conn: &mut SqliteConnection,
    planned_id: i64,
    player_id: i64,
) -> Result<bool, DbError> {
    let done = sqlx::query("delete from zusagen where planned_id = ? and player_id = ?")
        .bind(planned_id)
        .bind(player_id)
        .execute(conn)
        .await?;
    Ok(done.rows_affected() > 0)
}
