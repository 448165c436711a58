//! The money side of a season (league.md §6, §8): booked fines with their ids (to mark them paid),
//! and the season's rules object where the Strafenkatalog lives.

use chrono::NaiveDate;
use serde_json::{Map, Value};
use sqlx::{FromRow, SqliteConnection, SqlitePool};

use super::DbError;

/// A fine as booked, with its night and season.
#[derive(Debug, Clone, PartialEq, Eq, FromRow)]
pub struct BookedFine {
    /// `fines.id`.
    pub id: i64,
    /// The night's id.
    pub night_id: i64,
    /// The season's year.
    pub season: i64,
    /// The night's date.
    pub date: NaiveDate,
    /// `players.id` of the fined player.
    pub player_id: i64,
    /// The fined player's name.
    pub player: String,
    /// A kind of the season's catalogue.
    pub kind: String,
    /// The amount booked at the time, in cents (later catalogue changes do not alter it).
    pub amount_cents: i64,
    /// Paid (in the pot) or open.
    pub paid: bool,
}

const SELECT_FINE: &str =
    "select f.id, f.night_id, n.season, n.date, f.player_id, p.name as player,
        f.kind, f.amount_cents, f.paid
     from fines f join nights n on n.id = f.night_id join players p on p.id = f.player_id";

/// The fine with `id`, if any.
pub async fn fine(conn: &mut SqliteConnection, id: i64) -> Result<Option<BookedFine>, DbError> {
    Ok(sqlx::query_as(&format!("{SELECT_FINE} where f.id = ?"))
        .bind(id)
        .fetch_optional(conn)
        .await?)
}

/// All fines of season `year`, by night date, then booking order.
pub async fn fines_of_season(pool: &SqlitePool, year: i32) -> Result<Vec<BookedFine>, DbError> {
    Ok(sqlx::query_as(&format!(
        "{SELECT_FINE} where n.season = ? order by n.date, f.id"
    ))
    .bind(year)
    .fetch_all(pool)
    .await?)
}

/// Marks fine `id` paid (`true`, at the night unless a payment day is stored) or open (payment
/// day and netting cleared); returns whether a fine was changed.
pub async fn set_fine_paid(
    conn: &mut SqliteConnection,
    id: i64,
    paid: bool,
) -> Result<bool, DbError> {
    let done = sqlx::query(
        "update fines set paid = ?1,
                paid_on = case when ?1 then paid_on end, netted = case when ?1 then netted else 0 end
         where id = ?2",
    )
        .bind(paid)
        .bind(id)
        .execute(conn)
        .await?;
    Ok(done.rows_affected() > 0)
}

/// Stores the payment state of fine `id` as the checked `fine` has it: paid or open, the payment
/// day as given (`paid_on`, NULL = at the night or open) and whether it was netted; returns
/// whether a fine was changed.
pub async fn set_fine_payment(
    conn: &mut SqliteConnection,
    id: i64,
    fine: &crate::league::Fine,
) -> Result<bool, DbError> {
    let done = sqlx::query("update fines set paid = ?, paid_on = ?, netted = ? where id = ?")
        .bind(fine.paid)
        .bind(fine.paid_on_override)
        .bind(fine.netted)
        .bind(id)
        .execute(conn)
        .await?;
    Ok(done.rows_affected() > 0)
}

/// Books a fine of `amount_cents` of `kind` for player `player_id` at night `night_id`; returns
/// its id.
pub async fn book_fine(
    conn: &mut SqliteConnection,
    night_id: i64,
    player_id: i64,
    kind: &str,
    amount_cents: i64,
    paid: bool,
) -> Result<i64, DbError> {
    let (id,): (i64,) = sqlx::query_as(
        "insert into fines (night_id, player_id, kind, amount_cents, paid)
         values (?, ?, ?, ?, ?) returning id",
    )
    .bind(night_id)
    .bind(player_id)
    .bind(kind)
    .bind(amount_cents)
    .bind(paid)
    .fetch_one(conn)
    .await?;
    Ok(id)
}

/// Deletes fine `id` (audited by the fines trigger); returns whether a fine was deleted.
pub async fn delete_fine(conn: &mut SqliteConnection, id: i64) -> Result<bool, DbError> {
    let done = sqlx::query("delete from fines where id = ?")
        .bind(id)
        .execute(conn)
        .await?;
    Ok(done.rows_affected() > 0)
}

/// Stores `overrides` as the `rules` object of season `year` (the Strafenkatalog is its `fines`
/// field); returns whether the season exists.
pub async fn set_rules(
    conn: &mut SqliteConnection,
    year: i32,
    overrides: &Map<String, Value>,
) -> Result<bool, DbError> {
    let json = serde_json::to_string(overrides).map_err(|e| DbError::Corrupt(e.to_string()))?;
    let done = sqlx::query("update seasons set rules_json = ? where year = ?")
        .bind(json)
        .bind(year)
        .execute(conn)
        .await?;
    Ok(done.rows_affected() > 0)
}
