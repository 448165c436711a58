//! The audit log: who changed what (results, players, fees, fines), with before and after as JSON.

use serde_json::Value;
use sqlx::SqliteConnection;

use super::DbError;

/// Writes one audit row: `user` did `action`; `before`/`after` are the changed data (or `None`).
pub async fn record(
    conn: &mut SqliteConnection,
    user: &str,
    action: &str,
    before: Option<&Value>,
    after: Option<&Value>,
) -> Result<(), DbError> {
    // The time as the audit triggers stamp it (SQLite's clock, UTC, milliseconds).
    sqlx::query(
        "insert into audit_log (at, user, action, before_json, after_json)
         values (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'), ?, ?, ?, ?)",
    )
    .bind(user)
    .bind(action)
    .bind(before.map(Value::to_string))
    .bind(after.map(Value::to_string))
    .execute(conn)
    .await?;
    Ok(())
}

/// One row of the audit log.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct Entry {
    /// `audit_log.id` (increasing).
    pub id: i64,
    /// When (RFC 3339, UTC).
    pub at: String,
    /// Who (login name, or `cli`).
    pub user: String,
    /// What, in German.
    pub action: String,
    /// The data before the change, as JSON text.
    pub before_json: Option<String>,
    /// The data after the change, as JSON text.
    pub after_json: Option<String>,
}

/// The newest `limit` audit rows with an id below `before` (all when `None`), newest first.
pub async fn recent(
    pool: &sqlx::SqlitePool,
    before: Option<i64>,
    limit: i64,
) -> Result<Vec<Entry>, DbError> {
    Ok(sqlx::query_as(
        "select id, at, user, action, before_json, after_json from audit_log
         where id < ? order by id desc limit ?",
    )
    .bind(before.unwrap_or(i64::MAX))
    .bind(limit)
    .fetch_all(pool)
    .await?)
}

/// Which audit rows to list ([`search`]); every part that is set must hold.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Filter {
    /// Exactly this author.
    pub user: Option<String>,
    /// The action matches one of these SQL `LIKE` patterns (none: any action).
    pub action_like: Vec<String>,
    /// The row concerns the night on this date: its before or after names it (`night` or `date`,
    /// or the night of a Korrektur's `night_id`), or its action names the date (`09.01.2026` or
    /// `2026-01-09`).
    pub night: Option<chrono::NaiveDate>,
}

/// The newest `limit` audit rows with an id below `before` (all when `None`) that pass `filter`,
/// newest first.
pub async fn search(
    pool: &sqlx::SqlitePool,
    filter: &Filter,
    before: Option<i64>,
    limit: i64,
) -> Result<Vec<Entry>, DbError> {
    let mut q = sqlx::QueryBuilder::<sqlx::Sqlite>::new(
        "select id, at, user, action, before_json, after_json from audit_log where id < ",
    );
    q.push_bind(before.unwrap_or(i64::MAX));
    if let Some(user) = &filter.user {
        q.push(" and user = ").push_bind(user.clone());
    }
    if !filter.action_like.is_empty() {
        q.push(" and (");
        for (i, pattern) in filter.action_like.iter().enumerate() {
            if i > 0 {
                q.push(" or ");
            }
            q.push("action like ").push_bind(pattern.clone());
        }
        q.push(")");
    }
    if let Some(night) = filter.night {
        let iso = night.format("%Y-%m-%d").to_string();
        let de = night.format("%d.%m.%Y").to_string();
        // json_extract fails on text that is no JSON: only valid JSON is looked into.
        let field = |col: &str, key: &str| {
            format!("(case when json_valid({col}) then json_extract({col}, '$.{key}') end)")
        };
        q.push(" and (");
        for (i, (col, key)) in [
            ("before_json", "night"),
            ("after_json", "night"),
            ("before_json", "date"),
            ("after_json", "date"),
        ]
        .into_iter()
        .enumerate()
        {
            if i > 0 {
                q.push(" or ");
            }
            q.push(field(col, key)).push(" = ").push_bind(iso.clone());
        }
        q.push(" or (select date from nights where id = ")
            .push(field("after_json", "night_id"))
            .push(") = ")
            .push_bind(iso.clone());
        q.push(" or instr(action, ")
            .push_bind(de)
            .push(") > 0 or instr(action, ")
            .push_bind(iso)
            .push(") > 0)");
    }
    q.push(" order by id desc limit ").push_bind(limit);
    Ok(q.build_query_as().fetch_all(pool).await?)
}

/// The author of the newest audit row of a result of round `number` at `table` of the night on
/// `date` (entered, changed or removed; the row-level rows of the results trigger), if any and
/// named (`?`, an unnamed write, is `None`).
pub async fn last_round_author(
    conn: &mut SqliteConnection,
    date: chrono::NaiveDate,
    table: u32,
    number: u32,
) -> Result<Option<String>, DbError> {
    let row: Option<(String,)> = sqlx::query_as(
        "select user from audit_log
         where action in ('Ergebnis eingetragen', 'Ergebnis geändert', 'Ergebnis gelöscht')
           and json_valid(coalesce(after_json, before_json))
           and json_extract(coalesce(after_json, before_json), '$.night') = ?
           and json_extract(coalesce(after_json, before_json), '$.table') = ?
           and json_extract(coalesce(after_json, before_json), '$.round') = ?
         order by id desc limit 1",
    )
    .bind(date.format("%Y-%m-%d").to_string())
    .bind(i64::from(table))
    .bind(i64::from(number))
    .fetch_optional(conn)
    .await?;
    Ok(row.map(|(user,)| user).filter(|u| u != "?"))
}

/// Every author of an audit row, by name.
pub async fn users(pool: &sqlx::SqlitePool) -> Result<Vec<String>, DbError> {
    let rows: Vec<(String,)> = sqlx::query_as("select distinct user from audit_log order by user")
        .fetch_all(pool)
        .await?;
    Ok(rows.into_iter().map(|(u,)| u).collect())
}

/// Number of audit rows.
pub async fn count(pool: &sqlx::SqlitePool) -> Result<i64, DbError> {
    let (n,): (i64,) = sqlx::query_as("select count(*) from audit_log")
        .fetch_one(pool)
        .await?;
    Ok(n)
}

/// Names `user` as the author of the row-level audit entries the database writes for the rest of
/// the current transaction (results, players, fees, fines); `bulk` turns them off for a bulk write
/// that records its own summary row. Call right after `BEGIN IMMEDIATE`.
pub async fn set_actor(conn: &mut SqliteConnection, user: &str, bulk: bool) -> Result<(), DbError> {
    sqlx::query("insert or replace into audit_actor (id, user, bulk) values (1, ?, ?)")
        .bind(user)
        .bind(bulk)
        .execute(conn)
        .await?;
    Ok(())
}

/// Forgets the author set by [`set_actor`] (row-level entries then show `?`).
pub async fn clear_actor(conn: &mut SqliteConnection) -> Result<(), DbError> {
    sqlx::query("delete from audit_actor").execute(conn).await?;
    Ok(())
}

/// The audit rows of Runden confirmed from the Schockbesteck ("Runde 3 an Tisch 1 am 09.01.2026
/// aus dem Schockbesteck gespeichert"), oldest first, as (action, after JSON). Before throws were
/// kept with their round these rows were the only record of them.
pub async fn schockbesteck_confirms(
    conn: &mut SqliteConnection,
) -> Result<Vec<(String, String)>, DbError> {
    Ok(sqlx::query_as(
        "select action, after_json from audit_log
         where action like 'Runde % an Tisch % am % aus dem Schockbesteck gespeichert'
           and after_json is not null
         order by id",
    )
    .fetch_all(conn)
    .await?)
}
