//! Accounts (roles `admin`, `secretary`) and the one-time setup token.

use sqlx::{FromRow, SqliteConnection, SqlitePool};

use super::DbError;

/// One account.
#[derive(Debug, Clone, FromRow)]
pub struct User {
    /// `users.id`.
    pub id: i64,
    /// The unique login name.
    pub username: String,
    /// The argon2id PHC string.
    pub password_hash: String,
    /// `admin` or `secretary`.
    pub role: String,
    /// A disabled account cannot log in.
    pub disabled: bool,
}

/// Number of accounts.
pub async fn count(pool: &SqlitePool) -> Result<i64, DbError> {
    let (n,): (i64,) = sqlx::query_as("select count(*) from users")
        .fetch_one(pool)
        .await?;
    Ok(n)
}

/// The account called `username`.
pub async fn by_username(pool: &SqlitePool, username: &str) -> Result<Option<User>, DbError> {
    Ok(sqlx::query_as(
        "select id, username, password_hash, role, disabled from users where username = ?",
    )
    .bind(username)
    .fetch_optional(pool)
    .await?)
}

/// The account with `id`.
pub async fn by_id(pool: &SqlitePool, id: i64) -> Result<Option<User>, DbError> {
    Ok(
        sqlx::query_as(
            "select id, username, password_hash, role, disabled from users where id = ?",
        )
        .bind(id)
        .fetch_optional(pool)
        .await?,
    )
}

/// Creates an account; returns its id. A taken name is a unique-constraint error.
pub async fn create(
    conn: &mut SqliteConnection,
    username: &str,
    password_hash: &str,
    role: &str,
) -> Result<i64, DbError> {
    let (id,): (i64,) = sqlx::query_as(
        "insert into users (username, password_hash, role) values (?, ?, ?) returning id",
    )
    .bind(username)
    .bind(password_hash)
    .bind(role)
    .fetch_one(conn)
    .await?;
    Ok(id)
}

/// The current setup token, if any.
pub async fn setup_token(pool: &SqlitePool) -> Result<Option<String>, DbError> {
    let row: Option<(String,)> = sqlx::query_as("select token from setup_token limit 1")
        .fetch_optional(pool)
        .await?;
    Ok(row.map(|(t,)| t))
}

/// Replaces the setup token by `token`.
pub async fn set_setup_token(pool: &SqlitePool, token: &str) -> Result<(), DbError> {
    let mut tx = pool.begin().await?;
    sqlx::query("delete from setup_token")
        .execute(&mut *tx)
        .await?;
    sqlx::query("insert into setup_token (token) values (?)")
        .bind(token)
        .execute(&mut *tx)
        .await?;
    tx.commit().await?;
    Ok(())
}

/// Removes the setup token (the first admin exists).
pub async fn clear_setup_token(conn: &mut SqliteConnection) -> Result<(), DbError> {
    sqlx::query("delete from setup_token").execute(conn).await?;
    Ok(())
}

/// Number of accounts, inside a transaction.
pub async fn count_conn(conn: &mut SqliteConnection) -> Result<i64, DbError> {
    let (n,): (i64,) = sqlx::query_as("select count(*) from users")
        .fetch_one(conn)
        .await?;
    Ok(n)
}

/// All accounts by name.
pub async fn list(pool: &SqlitePool) -> Result<Vec<User>, DbError> {
    Ok(sqlx::query_as(
        "select id, username, password_hash, role, disabled from users order by username",
    )
    .fetch_all(pool)
    .await?)
}

/// All accounts by name, inside a transaction.
pub async fn list_conn(conn: &mut SqliteConnection) -> Result<Vec<User>, DbError> {
    Ok(sqlx::query_as(
        "select id, username, password_hash, role, disabled from users order by username",
    )
    .fetch_all(conn)
    .await?)
}

/// The account with `id`, inside a transaction.
pub async fn by_id_conn(conn: &mut SqliteConnection, id: i64) -> Result<Option<User>, DbError> {
    Ok(
        sqlx::query_as(
            "select id, username, password_hash, role, disabled from users where id = ?",
        )
        .bind(id)
        .fetch_optional(conn)
        .await?,
    )
}

/// The account called `username`, inside a transaction.
pub async fn by_username_conn(
    conn: &mut SqliteConnection,
    username: &str,
) -> Result<Option<User>, DbError> {
    Ok(sqlx::query_as(
        "select id, username, password_hash, role, disabled from users where username = ?",
    )
    .bind(username)
    .fetch_optional(conn)
    .await?)
}

/// Disables (`true`) or enables account `id`; a disabled account's sessions end at their next
/// request (the current-user extractor checks the flag).
pub async fn set_disabled(
    conn: &mut SqliteConnection,
    id: i64,
    disabled: bool,
) -> Result<(), DbError> {
    sqlx::query("update users set disabled = ? where id = ?")
        .bind(disabled)
        .bind(id)
        .execute(conn)
        .await?;
    Ok(())
}

/// The session cutoff of account `id` (Unix seconds): its sessions that logged in at or before it
/// are over; `None` when never set.
pub async fn session_cutoff(pool: &SqlitePool, id: i64) -> Result<Option<i64>, DbError> {
    let row: Option<(i64,)> = sqlx::query_as("select after from session_cutoffs where user_id = ?")
        .bind(id)
        .fetch_optional(pool)
        .await?;
    Ok(row.map(|(a,)| a))
}

/// Ends every session of account `id` that logged in at or before `now` (Unix seconds).
pub async fn end_sessions(conn: &mut SqliteConnection, id: i64, now: i64) -> Result<(), DbError> {
    sqlx::query(
        "insert into session_cutoffs (user_id, after) values (?, ?)
         on conflict (user_id) do update set after = excluded.after",
    )
    .bind(id)
    .bind(now)
    .execute(conn)
    .await?;
    Ok(())
}

/// Number of enabled admins, inside a transaction (the last one cannot be disabled).
pub async fn enabled_admins(conn: &mut SqliteConnection) -> Result<i64, DbError> {
    let (n,): (i64,) =
        sqlx::query_as("select count(*) from users where role = 'admin' and disabled = 0")
            .fetch_one(conn)
            .await?;
    Ok(n)
}
