//! The Schockbesteck's Runden in progress (table `besteck_runden`): per night, table and round
//! number the rules engine's [`RundeRecord`] (players in seat order, rules, applied Wurfrunden) as
//! JSON. The live state is rebuilt from it by replaying (`rules::RundeState::replay`).

use sqlx::SqliteConnection;

use super::DbError;
use crate::rules::RundeRecord;

/// The Runde in progress at `table` of night `night`, round `number`; `None` when none is stored.
/// Errors: storage, or a stored record that is not a `RundeRecord` (corrupt).
pub async fn get(
    conn: &mut SqliteConnection,
    night: i64,
    table: u32,
    number: u32,
) -> Result<Option<RundeRecord>, DbError> {
    let row: Option<(String,)> = sqlx::query_as(
        "select record_json from besteck_runden where night_id = ? and table_no = ? and number = ?",
    )
    .bind(night)
    .bind(table)
    .bind(number)
    .fetch_optional(conn)
    .await?;
    row.map(|(json,)| {
        serde_json::from_str(&json)
            .map_err(|e| DbError::Corrupt(format!("Schockbesteck-Runde: {e}")))
    })
    .transpose()
}

/// Stores (inserts or replaces) the Runde in progress at `table` of night `night`, round `number`.
pub async fn put(
    conn: &mut SqliteConnection,
    night: i64,
    table: u32,
    number: u32,
    record: &RundeRecord,
) -> Result<(), DbError> {
    let json = serde_json::to_string(record).map_err(|e| DbError::Corrupt(e.to_string()))?;
    sqlx::query(
        "insert into besteck_runden (night_id, table_no, number, record_json, updated_at)
         values (?, ?, ?, ?, ?)
         on conflict (night_id, table_no, number)
         do update set record_json = excluded.record_json, updated_at = excluded.updated_at",
    )
    .bind(night)
    .bind(table)
    .bind(number)
    .bind(json)
    .bind(chrono::Utc::now().to_rfc3339())
    .execute(conn)
    .await?;
    Ok(())
}

/// Removes the Runde in progress at `table` of night `night`, round `number` (no-op when none).
pub async fn delete(
    conn: &mut SqliteConnection,
    night: i64,
    table: u32,
    number: u32,
) -> Result<(), DbError> {
    sqlx::query("delete from besteck_runden where night_id = ? and table_no = ? and number = ?")
        .bind(night)
        .bind(table)
        .bind(number)
        .execute(conn)
        .await?;
    Ok(())
}

/// The round numbers with a Runde in progress at `table` of night `night`, ascending.
pub async fn numbers(
    conn: &mut SqliteConnection,
    night: i64,
    table: u32,
) -> Result<Vec<u32>, DbError> {
    let rows: Vec<(i64,)> = sqlx::query_as(
        "select number from besteck_runden where night_id = ? and table_no = ? order by number",
    )
    .bind(night)
    .bind(table)
    .fetch_all(conn)
    .await?;
    rows.into_iter()
        .map(|(n,)| super::to_u32(n, "besteck_runden.number"))
        .collect()
}

/// Every Runde in progress as (night, table, number, record JSON), for changes that must follow a
/// player (a rename). The JSON is returned unparsed: a record that no longer reads is kept as is.
pub async fn all_raw(conn: &mut SqliteConnection) -> Result<Vec<(i64, u32, u32, String)>, DbError> {
    let rows: Vec<(i64, i64, i64, String)> = sqlx::query_as(
        "select night_id, table_no, number, record_json from besteck_runden order by night_id",
    )
    .fetch_all(conn)
    .await?;
    rows.into_iter()
        .map(|(n, t, r, j)| {
            Ok((
                n,
                super::to_u32(t, "besteck_runden.table_no")?,
                super::to_u32(r, "besteck_runden.number")?,
                j,
            ))
        })
        .collect()
}
