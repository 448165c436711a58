//! The web application: shared state, the error type, and the router that merges one router per
//! feature (`auth`, `public`, `api`, `season`, `night`; later features add their own file and one
//! `.merge(...)` line in [`router`]).

pub mod admin;
pub mod api;
pub mod assets;
pub mod auth;
pub mod bench;
pub mod entry;
pub mod errors;
pub mod night;
pub mod public;
pub mod round_api;
pub mod season;
pub mod security;

// The rules engine from outside (Wurfrunde API) and live scoring (Schockbesteck).
pub mod besteck;
/// Kasse, Jahresabschluss, CSV exports and the Strafenkatalog (issue 3).
pub mod money;
pub mod wurfrunde;

use std::net::SocketAddr;
use std::path::PathBuf;

use askama::Template;
use askama_web::WebTemplate;
use axum::extract::FromRef;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Redirect, Response};
use axum::Router;
use sqlx::SqlitePool;
use tower_http::trace::TraceLayer;
use tower_sessions::cookie::SameSite;
use tower_sessions::session_store::ExpiredDeletion;
use tower_sessions::{Expiry, SessionManagerLayer};
use tower_sessions_sqlx_store::SqliteStore;

use crate::auth::CurrentUser;
use crate::db::{Db, DbError, WriteTx};

/// What the server needs to start.
#[derive(Debug, Clone)]
pub struct Config {
    /// The SQLite database file (created with its schema when missing).
    pub database: PathBuf,
    /// The address the server listens on (also used in the printed setup link).
    pub listen: SocketAddr,
    /// Mark the session cookie `Secure` (only when served over TLS).
    pub secure_cookies: bool,
}

impl Config {
    /// The defaults of interchange.md: `schockerliga.db`, `127.0.0.1:3000`, no TLS.
    pub fn new(database: PathBuf, listen: SocketAddr) -> Config {
        Config {
            database,
            listen,
            secure_cookies: false,
        }
    }
}

/// The state every handler shares: the writer pool (1 connection) and the read pool.
#[derive(Clone, Debug)]
pub struct AppState {
    /// The writer pool: use [`AppState::begin_write`] for read-then-write transactions.
    pub write: SqlitePool,
    /// The read pool for pages.
    pub read: SqlitePool,
    /// The address the server listens on.
    pub listen: SocketAddr,
    /// Each season's checked model and standings, valid while its change counter is unchanged.
    pub seasons: crate::cache::SeasonCache,
}

impl AppState {
    /// Starts a `BEGIN IMMEDIATE` transaction on the writer; the database's row-level audit
    /// entries of this transaction name no author (`?`): prefer [`AppState::begin_write_as`].
    pub async fn begin_write(&self) -> Result<WriteTx, AppError> {
        let mut tx = self.begin_immediate().await?;
        crate::db::audit::clear_actor(&mut tx).await?;
        Ok(tx)
    }

    /// [`AppState::begin_write`] whose row-level audit entries (results, players, fees, fines)
    /// name `user` as the author.
    pub async fn begin_write_as(&self, user: &CurrentUser) -> Result<WriteTx, AppError> {
        let mut tx = self.begin_immediate().await?;
        crate::db::audit::set_actor(&mut tx, &user.username, false).await?;
        Ok(tx)
    }

    /// `BEGIN IMMEDIATE` on the writer, the audit author not yet set.
    async fn begin_immediate(&self) -> Result<WriteTx, AppError> {
        Ok(self
            .write
            .begin_with("BEGIN IMMEDIATE")
            .await
            .map_err(DbError::from)?)
    }
}

/// The read pool alone, for handlers that only read: `State(ReadPool(pool)): State<ReadPool>`.
#[derive(Clone, Debug)]
pub struct ReadPool(pub SqlitePool);

impl FromRef<AppState> for ReadPool {
    fn from_ref(state: &AppState) -> Self {
        ReadPool(state.read.clone())
    }
}

/// The writer pool alone (1 connection): `State(WritePool(pool)): State<WritePool>`; begin
/// read-then-write transactions with `pool.begin_with("BEGIN IMMEDIATE")`.
#[derive(Clone, Debug)]
pub struct WritePool(pub SqlitePool);

impl FromRef<AppState> for WritePool {
    fn from_ref(state: &AppState) -> Self {
        WritePool(state.write.clone())
    }
}

/// Errors of handlers. The response hides internals: details are logged, the user sees a short
/// German message.
#[derive(Debug, thiserror::Error)]
pub enum AppError {
    /// No such season, night, player … (404).
    #[error("Nicht gefunden")]
    NotFound,
    /// Logged in, but the role does not allow this (403).
    #[error("Keine Berechtigung")]
    Forbidden,
    /// A request that cannot be served as sent (400), with the German reason.
    #[error("{0}")]
    BadRequest(String),
    /// The database failed (500).
    #[error(transparent)]
    Db(#[from] DbError),
    /// Anything else that failed inside (500).
    #[error("{0}")]
    Internal(String),
}

impl From<sqlx::Error> for AppError {
    fn from(e: sqlx::Error) -> Self {
        AppError::Db(DbError::Sqlx(e))
    }
}

impl From<crate::auth::PasswordError> for AppError {
    fn from(e: crate::auth::PasswordError) -> Self {
        AppError::Internal(e.to_string())
    }
}

/// The error page.
#[derive(Template, WebTemplate)]
#[template(path = "error.html")]
struct ErrorPage {
    user: Option<CurrentUser>,
    title: String,
    message: String,
}

impl IntoResponse for AppError {
    fn into_response(self) -> Response {
        let (status, message) = match &self {
            AppError::NotFound => (
                StatusCode::NOT_FOUND,
                "Diese Seite gibt es nicht.".to_string(),
            ),
            AppError::Forbidden => (
                StatusCode::FORBIDDEN,
                "Dafür fehlt die Berechtigung.".to_string(),
            ),
            AppError::BadRequest(m) => (StatusCode::BAD_REQUEST, m.clone()),
            AppError::Db(e) if is_closed_night(e) => (
                StatusCode::CONFLICT,
                "Der Spielabend ist abgeschlossen: Änderungen nur als Korrektur \
                 (Häkchen „Korrektur“ und Grund)."
                    .to_string(),
            ),
            AppError::Db(_) | AppError::Internal(_) => {
                tracing::error!(error = %self, "request failed");
                (
                    StatusCode::INTERNAL_SERVER_ERROR,
                    "Ein interner Fehler ist aufgetreten.".to_string(),
                )
            }
        };
        let page = ErrorPage {
            user: None,
            title: status.canonical_reason().unwrap_or("Fehler").to_string(),
            message,
        };
        (status, page).into_response()
    }
}

/// True when `e` is the refusal of the closed-night triggers
/// (`migrations/20261129153000_closed_nights.sql`).
fn is_closed_night(e: &DbError) -> bool {
    matches!(e, DbError::Sqlx(sqlx::Error::Database(d)) if d.message().contains("Spielabend ist abgeschlossen"))
}

/// The application's routes: every feature's `router()` merged, with the shared state.
pub fn router(state: AppState) -> Router {
    Router::new()
        .merge(assets::router())
        .merge(public::router())
        .merge(auth::router())
        .merge(besteck::router())
        .merge(wurfrunde::router())
        .merge(api::router())
        .merge(money::router())
        .merge(season::router())
        .merge(night::router())
        .merge(admin::router())
        .merge(round_api::router())
        .merge(bench::router())
        .fallback(not_found)
        .with_state(state)
}

/// Unknown paths: the 404 error page.
async fn not_found() -> AppError {
    AppError::NotFound
}

/// Opens the database (creating it with its schema), prints the one-time setup link when no
/// account exists, and builds the whole application with sessions (SameSite=Strict, HttpOnly,
/// `Secure` per config, idle expiry), the protections of [`security::protect`] and tracing.
/// Serve it with `into_make_service_with_connect_info::<SocketAddr>()` so that the login limits
/// see client addresses.
pub async fn build_app(config: Config) -> anyhow::Result<Router> {
    let db = Db::open(&config.database).await?;
    announce_setup(&db, config.listen).await?;
    let store = SqliteStore::new(db.sessions.clone());
    store.migrate().await?;
    spawn_session_cleanup(store.clone());
    let sessions = SessionManagerLayer::new(store)
        .with_secure(config.secure_cookies)
        .with_http_only(true)
        .with_same_site(SameSite::Strict)
        .with_expiry(Expiry::OnInactivity(crate::auth::SESSION_IDLE));
    let state = AppState {
        write: db.write.clone(),
        read: db.read.clone(),
        listen: config.listen,
        seasons: Default::default(),
    };
    Ok(security::protect(router(state).layer(sessions)).layer(TraceLayer::new_for_http()))
}

/// When no account exists: creates (or reuses) the setup token and logs the setup link.
async fn announce_setup(db: &Db, listen: SocketAddr) -> anyhow::Result<()> {
    if crate::db::user::count(&db.write).await? > 0 {
        return Ok(());
    }
    let token = match crate::db::user::setup_token(&db.write).await? {
        Some(t) => t,
        None => {
            let t = crate::auth::random_token();
            crate::db::user::set_setup_token(&db.write, &t).await?;
            t
        }
    };
    tracing::warn!(
        "Noch kein Konto: ersten Admin anlegen unter http://{listen}/setup?token={token}"
    );
    Ok(())
}

/// A date in a path (`YYYY-MM-DD`); anything else names no page (404).
pub(crate) fn path_date(s: &str) -> Result<chrono::NaiveDate, AppError> {
    chrono::NaiveDate::parse_from_str(s, "%Y-%m-%d").map_err(|_| AppError::NotFound)
}

/// The optional as-of date of a table query (`YYYY-MM-DD`; absent or empty: none); anything else
/// is a 400 that names what was sent.
pub(crate) fn as_of_date(s: Option<&str>) -> Result<Option<chrono::NaiveDate>, AppError> {
    match s.filter(|s| !s.is_empty()) {
        Some(s) => chrono::NaiveDate::parse_from_str(s, "%Y-%m-%d")
            .map(Some)
            .map_err(|_| AppError::BadRequest(format!("\"{s}\" ist kein Datum (JJJJ-MM-TT)"))),
        None => Ok(None),
    }
}

/// The resolved rules of season `year` (its stored overrides on the year's defaults); no such
/// season: 404; unusable stored overrides: an internal error.
pub(crate) async fn season_rules(
    conn: &mut sqlx::SqliteConnection,
    year: i32,
) -> Result<crate::league::rules::SeasonRules, AppError> {
    let row = crate::db::season::get(conn, year)
        .await?
        .ok_or(AppError::NotFound)?;
    crate::league::rules::SeasonRules::with_overrides(year, &row.overrides()?)
        .map_err(|e| AppError::Internal(format!("Regeln der Saison {year}: {e}")))
}

/// The first value of field `name` of a form read as name/value pairs.
pub(crate) fn form_field<'a>(form: &'a [(String, String)], name: &str) -> Option<&'a str> {
    form.iter()
        .find(|(k, _)| k == name)
        .map(|(_, v)| v.as_str())
}

/// The night on `date`; none: 404.
pub(crate) async fn night_on(
    conn: &mut sqlx::SqliteConnection,
    date: chrono::NaiveDate,
) -> Result<crate::db::night::Night, AppError> {
    crate::db::night::by_date(conn, date)
        .await?
        .ok_or(AppError::NotFound)
}

/// A redirect to page `page` of the current season (`/saison/{year}/{page}`, the year from
/// `db::season::current_year`), or to the home page when there is no season yet.
pub(crate) async fn to_current_season(state: &AppState, page: &str) -> Result<Redirect, AppError> {
    match crate::db::season::current_year(&state.read).await? {
        Some(year) => Ok(Redirect::to(&format!("/saison/{year}/{page}"))),
        None => Ok(Redirect::to("/")),
    }
}

/// German number format with two decimals: 6.0 → "6,00", -1234.5 → "-1234,50".
pub fn de2(v: f64) -> String {
    format!("{v:.2}").replace('.', ",")
}

/// German date format: 2026-01-09 → "09.01.2026".
pub fn de_date(d: chrono::NaiveDate) -> String {
    d.format("%d.%m.%Y").to_string()
}

impl From<crate::service::ServiceError> for AppError {
    fn from(e: crate::service::ServiceError) -> Self {
        use crate::service::ServiceError;
        match e {
            ServiceError::NoSeason(_) => AppError::NotFound,
            ServiceError::Refused(m) => AppError::BadRequest(m),
            ServiceError::Entry(err) => {
                AppError::Internal(format!("gespeicherte Saison ungültig: {err}"))
            }
            ServiceError::Db(err) => AppError::Db(err),
        }
    }
}

/// Deletes expired session records once an hour (expired sessions are refused anyway; this keeps
/// the table small).
fn spawn_session_cleanup(store: SqliteStore) {
    tokio::spawn(async move {
        let mut tick = tokio::time::interval(std::time::Duration::from_secs(3600));
        loop {
            tick.tick().await;
            if let Err(e) = store.delete_expired().await {
                tracing::warn!(error = %e, "abgelaufene Sitzungen nicht gelöscht");
            }
        }
    });
}

#[cfg(test)]
#[path = "tests/web.rs"]
mod tests;
