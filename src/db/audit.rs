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
    let at = chrono::Utc::now().to_rfc3339();
    sqlx::query(
        "insert into audit_log (at, user, action, before_json, after_json) values (?, ?, ?, ?, ?)",
    )
    .bind(at)
    .bind(user)
    .bind(action)
    .bind(before.map(Value::to_string))
    .bind(after.map(Value::to_string))
    .execute(conn)
    .await?;
    Ok(())
}
