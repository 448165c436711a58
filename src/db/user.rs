//! Accounts (roles `admin`, `secretary`, `kassenwart`), the one-time setup token, password
//! changes and the one-time reset links.

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
    /// `admin`, `secretary` or `kassenwart`.
    pub role: String,
    /// A disabled account cannot log in.
    pub disabled: bool,
    /// Raised by a password change or reset: sessions that logged in at an older epoch end.
    pub session_epoch: i64,
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
        "select id, username, password_hash, role, disabled, session_epoch from users where username = ?",
    )
    .bind(username)
    .fetch_optional(pool)
    .await?)
}

/// The account with `id`.
pub async fn by_id(pool: &SqlitePool, id: i64) -> Result<Option<User>, DbError> {
    Ok(sqlx::query_as(
        "select id, username, password_hash, role, disabled, session_epoch from users where id = ?",
    )
    .bind(id)
    .fetch_optional(pool)
    .await?)
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
        "select id, username, password_hash, role, disabled, session_epoch from users order by username",
    )
    .fetch_all(pool)
    .await?)
}

/// All accounts by name, inside a transaction.
pub async fn list_conn(conn: &mut SqliteConnection) -> Result<Vec<User>, DbError> {
    Ok(sqlx::query_as(
        "select id, username, password_hash, role, disabled, session_epoch from users order by username",
    )
    .fetch_all(conn)
    .await?)
}

/// The account with `id`, inside a transaction.
pub async fn by_id_conn(conn: &mut SqliteConnection, id: i64) -> Result<Option<User>, DbError> {
    Ok(sqlx::query_as(
        "select id, username, password_hash, role, disabled, session_epoch from users where id = ?",
    )
    .bind(id)
    .fetch_optional(conn)
    .await?)
}

/// The account called `username`, inside a transaction.
pub async fn by_username_conn(
    conn: &mut SqliteConnection,
    username: &str,
) -> Result<Option<User>, DbError> {
    Ok(sqlx::query_as(
        "select id, username, password_hash, role, disabled, session_epoch from users where username = ?",
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

/// Ends every session of account `id` for good: raises its session epoch, so sessions that
/// logged in before (carrying the old epoch) are over, whatever happens to the account later.
pub async fn end_sessions(conn: &mut SqliteConnection, id: i64) -> Result<(), DbError> {
    sqlx::query("update users set session_epoch = session_epoch + 1 where id = ?")
        .bind(id)
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

/// Sets the password hash of account `id` and raises its session epoch (its other sessions end);
/// returns the new epoch.
pub async fn set_password(
    conn: &mut SqliteConnection,
    id: i64,
    password_hash: &str,
) -> Result<i64, DbError> {
    let (epoch,): (i64,) = sqlx::query_as(
        "update users set password_hash = ?, session_epoch = session_epoch + 1 where id = ?
         returning session_epoch",
    )
    .bind(password_hash)
    .bind(id)
    .fetch_one(conn)
    .await?;
    Ok(epoch)
}

/// One reset link as stored (the token only as its hash).
#[derive(Debug, Clone, FromRow)]
pub struct Reset {
    /// `password_resets.id`.
    pub id: i64,
    /// The account.
    pub user_id: i64,
    /// Unix seconds after which the link is dead.
    pub expires_at: i64,
    /// Unix seconds of its use, if used.
    pub used_at: Option<i64>,
}

/// Stores a reset link for account `user_id` by `author`: the token's hash, valid until
/// `expires_at` (Unix seconds); the account's earlier unused links are deleted (one link at a time).
pub async fn create_reset(
    conn: &mut SqliteConnection,
    user_id: i64,
    token_hash: &str,
    now: i64,
    expires_at: i64,
    author: &str,
) -> Result<(), DbError> {
    sqlx::query("delete from password_resets where user_id = ? and used_at is null")
        .bind(user_id)
        .execute(&mut *conn)
        .await?;
    sqlx::query(
        "insert into password_resets (user_id, token_hash, created_at, expires_at, created_by)
         values (?, ?, ?, ?, ?)",
    )
    .bind(user_id)
    .bind(token_hash)
    .bind(now)
    .bind(expires_at)
    .bind(author)
    .execute(conn)
    .await?;
    Ok(())
}

/// The reset link with `token_hash`, if any (used or not, expired or not).
pub async fn reset_by_hash(
    conn: &mut SqliteConnection,
    token_hash: &str,
) -> Result<Option<Reset>, DbError> {
    Ok(sqlx::query_as(
        "select id, user_id, expires_at, used_at from password_resets where token_hash = ?",
    )
    .bind(token_hash)
    .fetch_optional(conn)
    .await?)
}

/// Marks reset link `id` used at `now`; true when it was unused before (a link works once).
pub async fn use_reset(conn: &mut SqliteConnection, id: i64, now: i64) -> Result<bool, DbError> {
    let done =
        sqlx::query("update password_resets set used_at = ? where id = ? and used_at is null")
            .bind(now)
            .bind(id)
            .execute(conn)
            .await?;
    Ok(done.rows_affected() == 1)
}
