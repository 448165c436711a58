//! Players and their season membership with the Jahresbeitrag (league.md §5).

use chrono::NaiveDate;
use sqlx::{FromRow, SqliteConnection, SqlitePool};

use super::DbError;

/// A player of a season with his fee.
#[derive(Debug, Clone, FromRow)]
pub struct SeasonPlayer {
    /// `players.id`.
    pub id: i64,
    /// The unique name.
    pub name: String,
    /// Payment date of the Jahresbeitrag, if paid.
    pub fee_paid_on: Option<NaiveDate>,
    /// The fee's amount in cents, if paid.
    pub fee_cents: Option<i64>,
}

/// The players of season `year`, in the season's order.
pub async fn of_season(
    conn: &mut SqliteConnection,
    year: i32,
) -> Result<Vec<SeasonPlayer>, DbError> {
    Ok(sqlx::query_as(
        "select p.id, p.name, sp.fee_paid_on, sp.fee_cents from season_players sp
         join players p on p.id = sp.player_id where sp.season = ? order by sp.position, p.name",
    )
    .bind(year)
    .fetch_all(conn)
    .await?)
}

/// [`of_season`] on a connection of `pool`.
pub async fn of_season_pool(pool: &SqlitePool, year: i32) -> Result<Vec<SeasonPlayer>, DbError> {
    let mut conn = pool.acquire().await?;
    of_season(&mut conn, year).await
}

/// The player called `name`, if any (id, name).
pub async fn by_name(
    conn: &mut SqliteConnection,
    name: &str,
) -> Result<Option<(i64, String)>, DbError> {
    Ok(
        sqlx::query_as("select id, name from players where name = ?")
            .bind(name)
            .fetch_optional(conn)
            .await?,
    )
}

/// Every player of the league (id, name), by id.
pub async fn all(conn: &mut SqliteConnection) -> Result<Vec<(i64, String)>, DbError> {
    Ok(sqlx::query_as("select id, name from players order by id")
        .fetch_all(conn)
        .await?)
}

/// The seasons (years, ascending) player `id` belongs to.
pub async fn seasons_of(conn: &mut SqliteConnection, id: i64) -> Result<Vec<i32>, DbError> {
    let rows: Vec<(i32,)> =
        sqlx::query_as("select season from season_players where player_id = ? order by season")
            .bind(id)
            .fetch_all(conn)
            .await?;
    Ok(rows.into_iter().map(|r| r.0).collect())
}

/// The player with `id`, if any (id, name).
pub async fn by_id(conn: &mut SqliteConnection, id: i64) -> Result<Option<(i64, String)>, DbError> {
    Ok(sqlx::query_as("select id, name from players where id = ?")
        .bind(id)
        .fetch_optional(conn)
        .await?)
}

/// Adds player `name` (created if new) to season `year` as its last player; returns his id.
pub async fn add_to_season(
    conn: &mut SqliteConnection,
    year: i32,
    name: &str,
) -> Result<i64, DbError> {
    let id = super::season::player_id(&mut *conn, name).await?;
    sqlx::query(
        "insert into season_players (season, player_id, position)
         values (?, ?, (select coalesce(max(position), -1) + 1 from season_players where season = ?))",
    )
    .bind(year)
    .bind(id)
    .bind(year)
    .execute(conn)
    .await?;
    Ok(id)
}

/// Renames player `id` to `name` (names are unique across the league).
pub async fn rename(conn: &mut SqliteConnection, id: i64, name: &str) -> Result<(), DbError> {
    sqlx::query("update players set name = ? where id = ?")
        .bind(name)
        .bind(id)
        .execute(conn)
        .await?;
    Ok(())
}

/// Records (or clears, with `None`) the Jahresbeitrag of player `id` in season `year`: its payment
/// date and amount in cents.
pub async fn set_fee(
    conn: &mut SqliteConnection,
    year: i32,
    id: i64,
    fee: Option<(NaiveDate, i64)>,
) -> Result<(), DbError> {
    sqlx::query("update season_players set fee_paid_on = ?, fee_cents = ? where season = ? and player_id = ?")
        .bind(fee.map(|f| f.0))
        .bind(fee.map(|f| f.1))
        .bind(year)
        .bind(id)
        .execute(conn)
        .await?;
    Ok(())
}

/// The statuses of season `year` other than aktiv (issue 36.4): (player id, „pausiert“ or
/// „ausgetreten“, the day he left).
pub async fn statuses(
    conn: &mut SqliteConnection,
    year: i32,
) -> Result<Vec<(i64, String, Option<NaiveDate>)>, DbError> {
    Ok(sqlx::query_as(
        "select player_id, status, day from player_status where season = ? order by player_id",
    )
    .bind(year)
    .fetch_all(conn)
    .await?)
}

/// Sets player `id`'s status in season `year`: „aktiv“ removes the row, „pausiert“ and
/// „ausgetreten“ (with `day`) store it.
pub async fn set_status(
    conn: &mut SqliteConnection,
    year: i32,
    id: i64,
    status: &str,
    day: Option<NaiveDate>,
) -> Result<(), DbError> {
    if status == "aktiv" {
        sqlx::query("delete from player_status where season = ? and player_id = ?")
            .bind(year)
            .bind(id)
            .execute(conn)
            .await?;
        return Ok(());
    }
    sqlx::query(
        "insert into player_status (season, player_id, status, day) values (?, ?, ?, ?)
         on conflict (season, player_id) do update set status = excluded.status, day = excluded.day",
    )
    .bind(year)
    .bind(id)
    .bind(status)
    .bind(day)
    .execute(conn)
    .await?;
    Ok(())
}
