//! The change counter of each season (`season_versions`, bumped by triggers on every write to the
//! season's data): what the in-memory season cache compares against.

use std::sync::atomic::{AtomicU64, Ordering};

use sqlx::SqliteConnection;

use super::DbError;

/// The change counter of season `year`; `None` when the season does not exist (never had a row).
pub async fn of_season(conn: &mut SqliteConnection, year: i32) -> Result<Option<i64>, DbError> {
    let row: Option<(i64,)> = sqlx::query_as(
        "select v.version from season_versions v join seasons s on s.year = v.year
         where v.year = ?",
    )
    .bind(year)
    .fetch_optional(conn)
    .await?;
    Ok(row.map(|(v,)| v))
}

/// Every existing season as `(year, change counter)`, newest first.
pub async fn all(conn: &mut SqliteConnection) -> Result<Vec<(i32, i64)>, DbError> {
    let rows: Vec<(i64, i64)> = sqlx::query_as(
        "select s.year, coalesce(v.version, 0) from seasons s
         left join season_versions v on v.year = s.year order by s.year desc",
    )
    .fetch_all(conn)
    .await?;
    Ok(rows.into_iter().map(|(y, v)| (y as i32, v)).collect())
}

/// Commits (and releases) of this process's writer connections so far: a cheap in-memory signal
/// that season data may have changed, bumped by [`watch_commits`] hooks. Readers that saw the same
/// value before and after may skip the counter query (see `crate::cache`).
static LOCAL_WRITES: AtomicU64 = AtomicU64::new(0);

/// The current value of the local write signal.
pub fn local_writes() -> u64 {
    LOCAL_WRITES.load(Ordering::SeqCst)
}

/// Bumps the local write signal (called by the hooks; callable by anything that writes otherwise).
pub fn note_local_write() {
    LOCAL_WRITES.fetch_add(1, Ordering::SeqCst);
}

/// Registers the commit hook on a writer connection: every commit bumps [`local_writes`] before
/// the commit returns to its caller. (The pool's release hook bumps it once more after the commit
/// is visible to readers: see `Db::open`.)
pub async fn watch_commits(conn: &mut SqliteConnection) -> Result<(), sqlx::Error> {
    conn.lock_handle().await?.set_commit_hook(|| {
        note_local_write();
        true
    });
    Ok(())
}
