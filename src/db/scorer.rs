//! Scorer links (issue 11.2): per night and table, the SHA-256 of a random token that lets its
//! holder enter that table's rounds; revoked links stay (revoked = 1) for the record.

use chrono::NaiveDate;
use sqlx::{FromRow, SqliteConnection, SqlitePool};

use super::DbError;

/// A stored scorer link with its night.
#[derive(Debug, Clone, FromRow, PartialEq, Eq)]
pub struct ScorerLinkRow {
    /// `scorer_links.id`.
    pub id: i64,
    /// `nights.id`.
    pub night_id: i64,
    /// The night's date.
    pub date: NaiveDate,
    /// The table the link writes, 1 or 2.
    pub table_no: i64,
    /// The login name that made it (`cli` from the command line).
    pub created_by: String,
    /// When (RFC 3339, UTC).
    pub created_at: String,
    /// Revoked (a newer link of the table, or by hand).
    pub revoked: bool,
    /// The night is closed.
    pub closed: bool,
}

const SELECT: &str = "select l.id, l.night_id, n.date, l.table_no, l.created_by, l.created_at,
        l.revoked, n.closed from scorer_links l join nights n on n.id = l.night_id";

/// Stores a new link of `table` at night `night_id` with `token_hash`, made by `author`; every
/// older link of that table is revoked. Returns its id.
pub async fn create(
    conn: &mut SqliteConnection,
    night_id: i64,
    table: u32,
    token_hash: &str,
    author: &str,
) -> Result<i64, DbError> {
    revoke(&mut *conn, night_id, table).await?;
    let (id,): (i64,) = sqlx::query_as(
        "insert into scorer_links (night_id, table_no, token_hash, created_by, created_at)
         values (?, ?, ?, ?, strftime('%Y-%m-%dT%H:%M:%SZ', 'now')) returning id",
    )
    .bind(night_id)
    .bind(table)
    .bind(token_hash)
    .bind(author)
    .fetch_one(conn)
    .await?;
    Ok(id)
}

/// Revokes every link of `table` at night `night_id`; returns how many were active.
pub async fn revoke(
    conn: &mut SqliteConnection,
    night_id: i64,
    table: u32,
) -> Result<u64, DbError> {
    let done = sqlx::query(
        "update scorer_links set revoked = 1 where night_id = ? and table_no = ? and revoked = 0",
    )
    .bind(night_id)
    .bind(table)
    .execute(conn)
    .await?;
    Ok(done.rows_affected())
}

/// Revokes every link of night `night_id`, all tables (closing the night, issue 22.1: a link never
/// works again, also after the night is reopened); returns how many were active.
pub async fn revoke_night(conn: &mut SqliteConnection, night_id: i64) -> Result<u64, DbError> {
    let done =
        sqlx::query("update scorer_links set revoked = 1 where night_id = ? and revoked = 0")
            .bind(night_id)
            .execute(conn)
            .await?;
    Ok(done.rows_affected())
}

/// The link with `token_hash` (revoked or not), with its night.
pub async fn by_hash(
    pool: &SqlitePool,
    token_hash: &str,
) -> Result<Option<ScorerLinkRow>, DbError> {
    Ok(sqlx::query_as(&format!("{SELECT} where l.token_hash = ?"))
        .bind(token_hash)
        .fetch_optional(pool)
        .await?)
}

/// The active (not revoked) links of night `night_id`, by table.
pub async fn active(pool: &SqlitePool, night_id: i64) -> Result<Vec<ScorerLinkRow>, DbError> {
    Ok(sqlx::query_as(&format!(
        "{SELECT} where l.night_id = ? and l.revoked = 0 order by l.table_no"
    ))
    .bind(night_id)
    .fetch_all(pool)
    .await?)
}
