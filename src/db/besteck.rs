//! The Schockbesteck's Runden in progress (table `besteck_runden`): per night, table and round
//! number the rules engine's [`RundeRecord`] (players in seat order, rules, applied Wurfrunden) as
//! JSON. The live state is rebuilt from it by replaying (`rules::RundeState::replay`). A confirmed
//! Runde's record stays with the round it produced (table `round_schockbesteck`, the `*_confirmed`
//! functions): the Glücksfaktor rests on it.

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
         values (?, ?, ?, ?, strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
         on conflict (night_id, table_no, number)
         do update set record_json = excluded.record_json, updated_at = excluded.updated_at",
    )
    .bind(night)
    .bind(table)
    .bind(number)
    .bind(json)
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

/// The Schockbesteck records of the rounds of season `year` stored with their round (table
/// `round_schockbesteck`), keyed by (night id, table, round number). Errors: storage, or a stored
/// record that is not a `RundeRecord` (corrupt).
pub async fn confirmed_of_season(
    conn: &mut SqliteConnection,
    year: i32,
) -> Result<std::collections::BTreeMap<(i64, i64, i64), RundeRecord>, DbError> {
    let rows: Vec<(i64, i64, i64, String)> = sqlx::query_as(
        "select r.night_id, r.table_no, r.number, b.record_json
         from round_schockbesteck b join rounds r on r.id = b.round_id
              join nights n on n.id = r.night_id
         where n.season = ?",
    )
    .bind(year)
    .fetch_all(conn)
    .await?;
    rows.into_iter()
        .map(|(n, t, r, json)| {
            let record = serde_json::from_str(&json).map_err(|e| {
                DbError::Corrupt(format!("Schockbesteck-Würfe von Runde {r}, Tisch {t}: {e}"))
            })?;
            Ok(((n, t, r), record))
        })
        .collect()
}

/// Stores `record` as the throws of the stored round `number` at `table` of night `night` (replacing
/// any), or removes them (`None`). Errors: storage; no round stored there (corrupt).
pub async fn put_confirmed(
    conn: &mut SqliteConnection,
    night: i64,
    table: u32,
    number: u32,
    record: Option<&RundeRecord>,
) -> Result<(), DbError> {
    let round: Option<(i64,)> =
        sqlx::query_as("select id from rounds where night_id = ? and table_no = ? and number = ?")
            .bind(night)
            .bind(table)
            .bind(number)
            .fetch_optional(&mut *conn)
            .await?;
    let Some((round_id,)) = round else {
        return Err(DbError::Corrupt(format!(
            "Runde {number} an Tisch {table} fehlt in der Datenbank"
        )));
    };
    match record {
        Some(r) => {
            let json = serde_json::to_string(r).map_err(|e| DbError::Corrupt(e.to_string()))?;
            sqlx::query(
                "insert into round_schockbesteck (round_id, record_json) values (?, ?)
                 on conflict (round_id) do update set record_json = excluded.record_json",
            )
            .bind(round_id)
            .bind(json)
            .execute(conn)
            .await?;
        }
        None => {
            sqlx::query("delete from round_schockbesteck where round_id = ?")
                .bind(round_id)
                .execute(conn)
                .await?;
        }
    }
    Ok(())
}

/// Renames player `from` to `to` in every stored round's Schockbesteck record (every season): the
/// throws follow a renamed player like his results do. A record that no longer reads is left as is.
pub async fn rename_in_confirmed(
    conn: &mut SqliteConnection,
    from: &str,
    to: &str,
) -> Result<(), DbError> {
    let rows: Vec<(i64, String)> =
        sqlx::query_as("select round_id, record_json from round_schockbesteck")
            .fetch_all(&mut *conn)
            .await?;
    for (round_id, json) in rows {
        let Ok(record) = serde_json::from_str::<RundeRecord>(&json) else {
            continue;
        };
        if record.has_player(from) {
            let json = serde_json::to_string(&record.renamed(from, to))
                .map_err(|e| DbError::Corrupt(e.to_string()))?;
            sqlx::query("update round_schockbesteck set record_json = ? where round_id = ?")
                .bind(json)
                .bind(round_id)
                .execute(&mut *conn)
                .await?;
        }
    }
    Ok(())
}
