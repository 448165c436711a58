//! Accounts: argon2id passwords, the session's user, and role guards (`RequireSecretary`,
//! `RequireAdmin`; an admin may do everything a secretary may).

use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString};
use argon2::Argon2;
use axum::extract::{FromRequestParts, OptionalFromRequestParts};
use axum::http::request::Parts;
use axum::response::{IntoResponse, Redirect, Response};
use rand::RngCore;
use tower_sessions::Session;

use crate::db;
use crate::web::{AppError, AppState};

pub mod throttle;

/// The session key holding the logged-in user's id.
pub const USER_ID_KEY: &str = "user_id";

/// The session key holding the login time (Unix seconds) for the absolute lifetime.
pub const LOGIN_AT_KEY: &str = "login_at";

/// A session ends after this much inactivity (the cookie's and the store's expiry): 3 hours, longer
/// than the pause between two rounds of a Spielabend.
pub const SESSION_IDLE: time::Duration = time::Duration::hours(3);

/// A session ends this long after its login, used or not: 16 hours (one Spielabend and its night).
pub const SESSION_ABSOLUTE_SECS: i64 = 16 * 3600;

/// True when a session that logged in at `login_at` (Unix seconds; `None` = unknown) is past its
/// absolute lifetime at `now`, or claims a login in the future.
pub fn session_expired(login_at: Option<i64>, now: i64) -> bool {
    login_at.is_none_or(|t| t > now || now.saturating_sub(t) > SESSION_ABSOLUTE_SECS)
}

/// Starts the logged-in session of user `id`: a new session id (against fixation), the user and
/// the login time.
pub async fn start_session(
    session: &Session,
    id: i64,
) -> Result<(), tower_sessions::session::Error> {
    session.cycle_id().await?;
    session.insert(USER_ID_KEY, id).await?;
    session
        .insert(LOGIN_AT_KEY, chrono::Utc::now().timestamp())
        .await?;
    Ok(())
}

/// A role of an account.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    /// May do everything.
    Admin,
    /// Enters seasons, players, nights, rounds, fees and fines.
    Secretary,
}

impl Role {
    /// Parses `admin` or `secretary`.
    pub fn parse(s: &str) -> Option<Role> {
        match s {
            "admin" => Some(Role::Admin),
            "secretary" => Some(Role::Secretary),
            _ => None,
        }
    }

    /// The stored name: `admin` or `secretary`.
    pub fn as_str(self) -> &'static str {
        match self {
            Role::Admin => "admin",
            Role::Secretary => "secretary",
        }
    }
}

/// Errors of password handling.
#[derive(Debug, thiserror::Error)]
pub enum PasswordError {
    /// Hashing failed (argon2 parameters or PHC string).
    #[error("Passwort-Hash fehlgeschlagen: {0}")]
    Hash(String),
    /// The blocking task died.
    #[error("Passwort-Hash abgebrochen: {0}")]
    Join(#[from] tokio::task::JoinError),
}

/// Checks an account name (already trimmed): 1–50 characters, no control or invisible characters
/// (`league::names::is_invisible`). `Err` is the German message.
pub fn check_account_name(username: &str) -> Result<(), String> {
    if username.is_empty() || username.chars().count() > 50 {
        return Err("Der Name muss 1 bis 50 Zeichen lang sein.".to_string());
    }
    if username.chars().any(crate::league::names::is_invisible) {
        return Err(
            "Der Name darf keine Steuerzeichen oder unsichtbaren Zeichen enthalten.".to_string(),
        );
    }
    Ok(())
}

/// Checks a new account's name (already trimmed, [`check_account_name`]) and password pair, for the setup page, the admin's
/// account form and `schockerliga user add`: name 1–50 characters without control or invisible
/// characters (`league::names`), password 8–200 characters, both passwords equal (`password2`:
/// `None` when there is no repeat field, as on the CLI). `Err` is the German message.
pub fn check_new_account(
    username: &str,
    password: &str,
    password2: Option<&str>,
) -> Result<(), String> {
    check_account_name(username)?;
    if password.chars().count() > 200 {
        return Err("Das Passwort darf höchstens 200 Zeichen lang sein.".to_string());
    }
    if password.chars().count() < 8 {
        return Err("Das Passwort muss mindestens 8 Zeichen lang sein.".to_string());
    }
    if password2.is_some_and(|p2| p2 != password) {
        return Err("Die beiden Passwörter stimmen nicht überein.".to_string());
    }
    Ok(())
}

/// Hashes `password` with argon2id (`Argon2::default()`) on a blocking thread; returns the PHC string.
pub async fn hash_password(password: String) -> Result<String, PasswordError> {
    tokio::task::spawn_blocking(move || {
        let mut bytes = [0u8; 16];
        rand::rng().fill_bytes(&mut bytes);
        let salt =
            SaltString::encode_b64(&bytes).map_err(|e| PasswordError::Hash(e.to_string()))?;
        Argon2::default()
            .hash_password(password.as_bytes(), &salt)
            .map(|h| h.to_string())
            .map_err(|e| PasswordError::Hash(e.to_string()))
    })
    .await?
}

/// A valid argon2id hash of a random password: verified against when the user is unknown, so
/// that a wrong name takes as long as a wrong password.
const DUMMY_HASH: &str =
    "$argon2id$v=19$m=19456,t=2,p=1$c29tZXNhbHRzb21lc2FsdA$2JQ1L9RuNbiEdyO7gURHtIm5RrRR/k1jU46Kbo+J0fM";

/// Checks `password` against the PHC string `hash` (or the dummy hash when `None`) on a blocking
/// thread; true only for a real hash that matches.
pub async fn verify_password(
    password: String,
    hash: Option<String>,
) -> Result<bool, PasswordError> {
    tokio::task::spawn_blocking(move || {
        let real = hash.is_some();
        let hash = hash.unwrap_or_else(|| DUMMY_HASH.to_string());
        let parsed = PasswordHash::new(&hash).map_err(|e| PasswordError::Hash(e.to_string()))?;
        let ok = Argon2::default()
            .verify_password(password.as_bytes(), &parsed)
            .is_ok();
        Ok(real && ok)
    })
    .await?
}

/// A random token of 32 bytes as 64 hex digits (setup links).
pub fn random_token() -> String {
    let mut bytes = [0u8; 32];
    rand::rng().fill_bytes(&mut bytes);
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// The logged-in user of the request (from the session); extracting it without a login redirects
/// to `/login`. Use `Option<CurrentUser>` on public pages.
#[derive(Debug, Clone)]
pub struct CurrentUser {
    /// `users.id`.
    pub id: i64,
    /// The login name.
    pub username: String,
    /// The account's role.
    pub role: Role,
}

impl CurrentUser {
    /// True for a secretary or an admin.
    pub fn is_secretary(&self) -> bool {
        matches!(self.role, Role::Admin | Role::Secretary)
    }

    /// True for an admin.
    pub fn is_admin(&self) -> bool {
        self.role == Role::Admin
    }
}

/// Why a guarded page refused the request.
#[derive(Debug)]
pub enum AuthRejection {
    /// Not logged in: redirect to the login page.
    Login,
    /// Logged in without the needed role.
    Forbidden,
    /// Session store or database failed.
    Internal(AppError),
}

impl IntoResponse for AuthRejection {
    fn into_response(self) -> Response {
        match self {
            AuthRejection::Login => Redirect::to("/login").into_response(),
            AuthRejection::Forbidden => AppError::Forbidden.into_response(),
            AuthRejection::Internal(e) => e.into_response(),
        }
    }
}

/// Loads the session's user; `None` when not logged in, past the absolute lifetime (the session is
/// then destroyed), or the account is gone or disabled (checked on every request, so disabling an
/// account ends its sessions at once).
async fn load_user(
    parts: &mut Parts,
    state: &AppState,
) -> Result<Option<CurrentUser>, AuthRejection> {
    let session = Session::from_request_parts(parts, state)
        .await
        .map_err(|(_, msg)| AuthRejection::Internal(AppError::Internal(msg.to_string())))?;
    let id: Option<i64> = session
        .get(USER_ID_KEY)
        .await
        .map_err(|e| AuthRejection::Internal(AppError::Internal(e.to_string())))?;
    let Some(id) = id else { return Ok(None) };
    let login_at: Option<i64> = session
        .get(LOGIN_AT_KEY)
        .await
        .map_err(|e| AuthRejection::Internal(AppError::Internal(e.to_string())))?;
    if session_expired(login_at, chrono::Utc::now().timestamp()) {
        session
            .flush()
            .await
            .map_err(|e| AuthRejection::Internal(AppError::Internal(e.to_string())))?;
        return Ok(None);
    }
    let user = db::user::by_id(&state.read, id)
        .await
        .map_err(|e| AuthRejection::Internal(e.into()))?;
    Ok(user.filter(|u| !u.disabled).and_then(|u| {
        Role::parse(&u.role).map(|role| CurrentUser {
            id: u.id,
            username: u.username,
            role,
        })
    }))
}

impl FromRequestParts<AppState> for CurrentUser {
    type Rejection = AuthRejection;

    async fn from_request_parts(
        parts: &mut Parts,
        state: &AppState,
    ) -> Result<Self, Self::Rejection> {
        load_user(parts, state).await?.ok_or(AuthRejection::Login)
    }
}

impl OptionalFromRequestParts<AppState> for CurrentUser {
    type Rejection = AuthRejection;

    async fn from_request_parts(
        parts: &mut Parts,
        state: &AppState,
    ) -> Result<Option<Self>, Self::Rejection> {
        load_user(parts, state).await
    }
}

/// The logged-in user when `allowed(user)`; nobody logged in: to the login page; else 403.
async fn require(
    parts: &mut Parts,
    state: &AppState,
    allowed: fn(&CurrentUser) -> bool,
) -> Result<CurrentUser, AuthRejection> {
    let user = load_user(parts, state).await?.ok_or(AuthRejection::Login)?;
    if allowed(&user) {
        Ok(user)
    } else {
        Err(AuthRejection::Forbidden)
    }
}

/// A logged-in secretary or admin; others are sent to the login page or refused (403).
#[derive(Debug, Clone)]
pub struct RequireSecretary(pub CurrentUser);

impl FromRequestParts<AppState> for RequireSecretary {
    type Rejection = AuthRejection;

    async fn from_request_parts(
        parts: &mut Parts,
        state: &AppState,
    ) -> Result<Self, Self::Rejection> {
        require(parts, state, CurrentUser::is_secretary)
            .await
            .map(RequireSecretary)
    }
}

/// A logged-in admin; others are sent to the login page or refused (403).
#[derive(Debug, Clone)]
pub struct RequireAdmin(pub CurrentUser);

impl FromRequestParts<AppState> for RequireAdmin {
    type Rejection = AuthRejection;

    async fn from_request_parts(
        parts: &mut Parts,
        state: &AppState,
    ) -> Result<Self, Self::Rejection> {
        require(parts, state, CurrentUser::is_admin)
            .await
            .map(RequireAdmin)
    }
}

#[cfg(test)]
#[path = "tests/auth.rs"]
mod tests;
