//! Each player's own card (issue 27, SECURITY.md "Player cards"): the SHA-256 of a random token
//! per player (a new one revokes the older ones; revoked links stay for the record), and the
//! Kassenwart's reminders ("erinnert am").

use chrono::NaiveDate;
use sqlx::{FromRow, SqliteConnection, SqlitePool};

use super::DbError;

/// A stored card link with its player.
#[derive(Debug, Clone, FromRow, PartialEq, Eq)]
pub struct CardLinkRow {
    /// `card_links.id`.
    pub id: i64,
    /// `players.id`.
    pub player_id: i64,
    /// The player's name.
    pub name: String,
    /// The login name that made it (`cli` from the command line).
    pub created_by: String,
    /// When (RFC 3339, UTC).
    pub created_at: String,
    /// Revoked (a newer link of the player, or by hand).
    pub revoked: bool,
}

const SELECT: &str = "select l.id, l.player_id, p.name, l.created_by, l.created_at, l.revoked
    from card_links l join players p on p.id = l.player_id";

/// Stores a new card link of player `player_id` with `token_hash`, made by `author` at `at`
/// (RFC 3339); every older link of the player is revoked. Returns its id.
pub async fn create(
    conn: &mut SqliteConnection,
    player_id: i64,
    token_hash: &str,
    author: &str,
    at: &str,
) -> Result<i64, DbError> {
    revoke(&mut *conn, player_id).await?;
    let (id,): (i64,) = sqlx::query_as(
        "insert into card_links (player_id, token_hash, created_by, created_at)
         values (?, ?, ?, ?) returning id",
    )
    .bind(player_id)
    .bind(token_hash)
    .bind(author)
    .bind(at)
    .fetch_one(conn)
    .await?;
    Ok(id)
}

/// Revokes every link of player `player_id`; returns how many were active.
pub async fn revoke(conn: &mut SqliteConnection, player_id: i64) -> Result<u64, DbError> {
    let done = sqlx::query("update card_links set revoked = 1 where player_id = ? and revoked = 0")
        .bind(player_id)
        .execute(conn)
        .await?;
    Ok(done.rows_affected())
}

/// The link with `token_hash` (revoked or not), with its player.
pub async fn by_hash(pool: &SqlitePool, token_hash: &str) -> Result<Option<CardLinkRow>, DbError> {
    Ok(sqlx::query_as(&format!("{SELECT} where l.token_hash = ?"))
        .bind(token_hash)
        .fetch_optional(pool)
        .await?)
}

/// True when player `player_id` has a working (not revoked) link.
pub async fn has_active(conn: &mut SqliteConnection, player_id: i64) -> Result<bool, DbError> {
    let (n,): (i64,) =
        sqlx::query_as("select count(*) from card_links where player_id = ? and revoked = 0")
            .bind(player_id)
            .fetch_one(conn)
            .await?;
    Ok(n > 0)
}

/// Every working (not revoked) link, by player name.
pub async fn active(pool: &SqlitePool) -> Result<Vec<CardLinkRow>, DbError> {
    Ok(
        sqlx::query_as(&format!("{SELECT} where l.revoked = 0 order by p.name"))
            .fetch_all(pool)
            .await?,
    )
}

/// A reminder as stored.
#[derive(Debug, Clone, FromRow, PartialEq, Eq)]
pub struct ReminderRow {
    /// `players.id`.
    pub player_id: i64,
    /// The open sum the text named, cents.
    pub open_cents: i64,
    /// The due date the text named.
    pub due_on: NaiveDate,
    /// The club's day it was sent ("erinnert am").
    pub reminded_on: NaiveDate,
    /// Who sent it.
    pub created_by: String,
}

/// Stores a reminder of player `player_id` for season `season`.
pub async fn remind(
    conn: &mut SqliteConnection,
    season: i32,
    r: &ReminderRow,
    at: &str,
) -> Result<(), DbError> {
    sqlx::query(
        "insert into reminders (player_id, season, open_cents, due_on, reminded_on, created_by,
             created_at) values (?, ?, ?, ?, ?, ?, ?)",
    )
    .bind(r.player_id)
    .bind(season)
    .bind(r.open_cents)
    .bind(r.due_on)
    .bind(r.reminded_on)
    .bind(&r.created_by)
    .bind(at)
    .execute(conn)
    .await?;
    Ok(())
}

/// The last reminder of each player of season `season`.
pub async fn last_reminders(pool: &SqlitePool, season: i32) -> Result<Vec<ReminderRow>, DbError> {
    Ok(sqlx::query_as(
        "select player_id, open_cents, due_on, reminded_on, created_by from reminders r
         where season = ? and id = (select max(id) from reminders x
             where x.season = r.season and x.player_id = r.player_id)
         order by player_id",
    )
    .bind(season)
    .fetch_all(pool)
    .await?)
}
