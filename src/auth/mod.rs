//! Accounts: argon2id passwords, the session's user, and role guards (`RequireSecretary`,
//! `RequireMoney`, `RequireAdmin`; an admin may do everything a secretary or a Kassenwart may, a
//! secretary everything a Kassenwart may; a Kassenwart enters no rounds).

use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString};
use argon2::Argon2;
use axum::extract::{FromRef, FromRequestParts, OptionalFromRequestParts};
use axum::http::request::Parts;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Redirect, Response};
use rand::RngCore;
use tower_sessions::cookie::SameSite;
use tower_sessions::session_store::ExpiredDeletion;
use tower_sessions::{Expiry, Session, SessionManagerLayer};
use tower_sessions_sqlx_store::SqliteStore;

use crate::db::{self, Db};
use crate::service::League;

pub mod store;
pub mod throttle;

/// The session key holding the logged-in user's id.
pub const USER_ID_KEY: &str = "user_id";

/// The session key holding the login time (Unix seconds) for the absolute lifetime.
pub const LOGIN_AT_KEY: &str = "login_at";

/// The session key holding the account's session epoch at login: a password change or reset
/// raises the account's epoch, and a session of an older epoch is logged out.
pub const EPOCH_KEY: &str = "epoch";

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

/// Starts the logged-in session of user `id` at the account's session epoch `epoch`: a new
/// session id (against fixation), the user, the epoch and the login time.
pub async fn start_session(
    session: &Session,
    id: i64,
    epoch: i64,
) -> Result<(), tower_sessions::session::Error> {
    session.cycle_id().await?;
    session.insert(USER_ID_KEY, id).await?;
    session.insert(EPOCH_KEY, epoch).await?;
    session
        .insert(
            LOGIN_AT_KEY,
            crate::service::clock::Clock::now(&crate::service::clock::SystemClock).timestamp(),
        )
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
    /// The Kassenwart: books fees, fines and payments, edits the Strafenkatalog, runs the
    /// Jahresabschluss; enters no rounds, draws, nights or Schockbesteck.
    Treasurer,
}

impl Role {
    /// Parses `admin`, `secretary` or `kassenwart`.
    pub fn parse(s: &str) -> Option<Role> {
        match s {
            "admin" => Some(Role::Admin),
            "secretary" => Some(Role::Secretary),
            "kassenwart" => Some(Role::Treasurer),
            _ => None,
        }
    }

    /// The stored name: `admin`, `secretary` or `kassenwart`.
    pub fn as_str(self) -> &'static str {
        match self {
            Role::Admin => "admin",
            Role::Secretary => "secretary",
            Role::Treasurer => "kassenwart",
        }
    }

    /// The German label: "Admin", "Schriftführer", "Kassenwart".
    pub fn label(self) -> &'static str {
        match self {
            Role::Admin => "Admin",
            Role::Secretary => "Schriftführer",
            Role::Treasurer => "Kassenwart",
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

/// Shortest password accepted, in characters.
pub const MIN_PASSWORD_CHARS: usize = 8;

/// Shortest account name a password may not contain (shorter names are in too many words); a
/// password equal to the name is refused whatever its length.
pub const NAME_IN_PASSWORD_FROM: usize = 3;

/// Checks a new password of account `username`: [`MIN_PASSWORD_CHARS`]–200 characters, not the
/// name and not containing it (case does not count; names from [`NAME_IN_PASSWORD_FROM`]
/// characters), and the same twice (`password2`: `None` without a repeat field, as on the CLI).
/// `Err` is the German message.
pub fn check_password(
    username: &str,
    password: &str,
    password2: Option<&str>,
) -> Result<(), String> {
    if password.chars().count() > 200 {
        return Err("Das Passwort darf höchstens 200 Zeichen lang sein.".to_string());
    }
    if password.chars().count() < MIN_PASSWORD_CHARS {
        return Err(format!(
            "Das Passwort muss mindestens {MIN_PASSWORD_CHARS} Zeichen lang sein."
        ));
    }
    let name = crate::league::names::name_key(username.trim());
    let key = crate::league::names::name_key(password);
    if !name.is_empty() && key == name {
        return Err("Das Passwort darf nicht der Name des Kontos sein.".to_string());
    }
    if name.chars().count() >= NAME_IN_PASSWORD_FROM && key.contains(&name) {
        return Err("Das Passwort darf den Namen des Kontos nicht enthalten.".to_string());
    }
    if password2.is_some_and(|p2| p2 != password) {
        return Err("Die beiden Passwörter stimmen nicht überein.".to_string());
    }
    Ok(())
}

/// Checks a new account's name (already trimmed, [`check_account_name`]) and password pair, for
/// the setup page, the admin's account form and `schockerliga user add`: name 1–50 characters
/// without control or invisible characters (`league::names`), the password as
/// [`check_password`] checks it. `Err` is the German message.
pub fn check_new_account(
    username: &str,
    password: &str,
    password2: Option<&str>,
) -> Result<(), String> {
    check_account_name(username)?;
    check_password(username, password, password2)
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

    /// True for an account that handles money: a Kassenwart, a secretary or an admin (fees,
    /// fines, payments, the Strafenkatalog, the Jahresabschluss).
    pub fn handles_money(&self) -> bool {
        matches!(self.role, Role::Admin | Role::Secretary | Role::Treasurer)
    }

    /// The page a login leads to: the Kassenwart's page for a Kassenwart, else the Verwaltung.
    pub fn home(&self) -> &'static str {
        match self.role {
            Role::Treasurer => "/verwaltung/kasse",
            Role::Admin | Role::Secretary => "/verwaltung",
        }
    }

    /// True for an admin.
    pub fn is_admin(&self) -> bool {
        self.role == Role::Admin
    }
}

/// The session layer of the application: sessions stored in the database (`Db::sessions`),
/// cookie HttpOnly, SameSite=Strict, `Secure` when `secure_cookies`, ending after
/// [`SESSION_IDLE`] without a request (sliding: every request of a logged-in user moves it) and
/// [`SESSION_ABSOLUTE_SECS`] after the login; expired records are deleted once an hour; a save
/// on a full disk is let pass ([`store::Tolerant`]).
pub async fn session_layer(
    db: &Db,
    secure_cookies: bool,
) -> Result<SessionManagerLayer<store::Tolerant<SqliteStore>>, sqlx::Error> {
    let sqlite = SqliteStore::new(db.sessions.clone());
    sqlite.migrate().await?;
    // A full disk must not turn every logged-in page into an error (see `store`).
    let store = store::Tolerant(sqlite);
    let cleanup = store.clone();
    tokio::spawn(async move {
        let mut tick = tokio::time::interval(std::time::Duration::from_secs(3600));
        loop {
            tick.tick().await;
            if let Err(e) = cleanup.delete_expired().await {
                tracing::warn!(error = %e, "abgelaufene Sitzungen nicht gelöscht");
            }
        }
    });
    // always_save: the idle time runs from the last request, not from the login (a session with
    // data is saved, and its expiry moved, on every request; visitors have no session to save).
    Ok(SessionManagerLayer::new(store)
        .with_secure(secure_cookies)
        .with_http_only(true)
        .with_same_site(SameSite::Strict)
        .with_expiry(Expiry::OnInactivity(SESSION_IDLE))
        .with_always_save(true))
}

/// Why a guarded page refused the request.
#[derive(Debug)]
pub enum AuthRejection {
    /// Not logged in: redirect to the login page.
    Login,
    /// Logged in without the needed role: 403.
    Forbidden,
    /// Session store or database failed: 500 (the reason is logged).
    Internal(String),
}

impl IntoResponse for AuthRejection {
    /// The login redirect, or a plain-text 403/500 that the web's error layer turns into its
    /// German error page (or JSON under `/api/`).
    fn into_response(self) -> Response {
        match self {
            AuthRejection::Login => Redirect::to("/login").into_response(),
            AuthRejection::Forbidden => {
                (StatusCode::FORBIDDEN, "Dafür fehlt die Berechtigung.").into_response()
            }
            AuthRejection::Internal(why) => {
                tracing::error!(error = %why, "Anmeldung nicht geprüft");
                (
                    StatusCode::INTERNAL_SERVER_ERROR,
                    "Ein interner Fehler ist aufgetreten.",
                )
                    .into_response()
            }
        }
    }
}

/// The request's user as found once (a guard layer and the handler share it).
#[derive(Clone)]
struct Loaded(Option<CurrentUser>);

/// Loads the session's user; `None` when not logged in, past the absolute lifetime (the session is
/// then destroyed), or the account is gone or disabled (checked on every request, so disabling an
/// account ends its sessions at once). Found once per request.
async fn load_user<S>(parts: &mut Parts, state: &S) -> Result<Option<CurrentUser>, AuthRejection>
where
    S: Send + Sync,
    League: FromRef<S>,
{
    if let Some(Loaded(user)) = parts.extensions.get::<Loaded>() {
        return Ok(user.clone());
    }
    let internal = |e: &dyn std::fmt::Display| AuthRejection::Internal(e.to_string());
    let session = Session::from_request_parts(parts, state)
        .await
        .map_err(|(_, msg)| internal(&msg))?;
    let id: Option<i64> = session.get(USER_ID_KEY).await.map_err(|e| internal(&e))?;
    let user = match id {
        None => None,
        Some(id) => {
            let login_at: Option<i64> =
                session.get(LOGIN_AT_KEY).await.map_err(|e| internal(&e))?;
            let epoch: i64 = session
                .get(EPOCH_KEY)
                .await
                .map_err(|e| internal(&e))?
                .unwrap_or(0);
            let league = League::from_ref(state);
            let user = db::user::by_id(&league.db().read, id)
                .await
                .map_err(|e| internal(&e))?;
            // A password changed or reset, or the account disabled, since this login ends the
            // session for good (each bumps the account's session epoch).
            let ended = user.as_ref().is_some_and(|u| u.session_epoch != epoch);
            if ended || session_expired(login_at, league.clock().now().timestamp()) {
                session.flush().await.map_err(|e| internal(&e))?;
                None
            } else {
                user.filter(|u| !u.disabled).and_then(|u| {
                    Role::parse(&u.role).map(|role| CurrentUser {
                        id: u.id,
                        username: u.username,
                        role,
                    })
                })
            }
        }
    };
    parts.extensions.insert(Loaded(user.clone()));
    Ok(user)
}

impl<S> FromRequestParts<S> for CurrentUser
where
    S: Send + Sync,
    League: FromRef<S>,
{
    type Rejection = AuthRejection;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Self::Rejection> {
        load_user(parts, state).await?.ok_or(AuthRejection::Login)
    }
}

impl<S> OptionalFromRequestParts<S> for CurrentUser
where
    S: Send + Sync,
    League: FromRef<S>,
{
    type Rejection = AuthRejection;

    async fn from_request_parts(
        parts: &mut Parts,
        state: &S,
    ) -> Result<Option<Self>, Self::Rejection> {
        load_user(parts, state).await
    }
}

/// The logged-in user when `allowed(user)`; nobody logged in: to the login page; else 403.
async fn require<S>(
    parts: &mut Parts,
    state: &S,
    allowed: fn(&CurrentUser) -> bool,
) -> Result<CurrentUser, AuthRejection>
where
    S: Send + Sync,
    League: FromRef<S>,
{
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

impl<S> FromRequestParts<S> for RequireSecretary
where
    S: Send + Sync,
    League: FromRef<S>,
{
    type Rejection = AuthRejection;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Self::Rejection> {
        require(parts, state, CurrentUser::is_secretary)
            .await
            .map(RequireSecretary)
    }
}

/// A logged-in account that handles money (a Kassenwart, a secretary or an admin); others are sent
/// to the login page or refused (403).
#[derive(Debug, Clone)]
pub struct RequireMoney(pub CurrentUser);

impl<S> FromRequestParts<S> for RequireMoney
where
    S: Send + Sync,
    League: FromRef<S>,
{
    type Rejection = AuthRejection;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Self::Rejection> {
        require(parts, state, CurrentUser::handles_money)
            .await
            .map(RequireMoney)
    }
}

/// A logged-in admin; others are sent to the login page or refused (403).
#[derive(Debug, Clone)]
pub struct RequireAdmin(pub CurrentUser);

impl<S> FromRequestParts<S> for RequireAdmin
where
    S: Send + Sync,
    League: FromRef<S>,
{
    type Rejection = AuthRejection;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Self::Rejection> {
        require(parts, state, CurrentUser::is_admin)
            .await
            .map(RequireAdmin)
    }
}

#[cfg(test)]
mod tests;
