//! Who is asking: the logged-in account of a session ([`CurrentUser`], the role guards
//! `RequireSecretary`, `RequireMoney`, `RequireMoneyRead`, `RequireAuditor`, `RequireAdmin`; an
//! admin may do everything a secretary or a Kassenwart may, a secretary everything a Kassenwart
//! may; a Kassenwart enters no rounds; a Kassenprüfer reads the money pages and only marks a
//! season *Geprüft*), the
//! session layer, and the scorer link guard ([`link_guard`]). The rules behind them (passwords,
//! roles, lifetimes) are `crate::auth`'s; the accounts and links are the service's.

pub mod store;

use axum::extract::{FromRef, FromRequestParts, OptionalFromRequestParts, Request, State};
use axum::http::request::Parts;
use axum::http::StatusCode;
use axum::middleware::Next;
use axum::response::{IntoResponse, Redirect, Response};
use chrono::NaiveDate;
use tower_sessions::cookie::SameSite;
use tower_sessions::session_store::ExpiredDeletion;
use tower_sessions::{Expiry, Session, SessionManagerLayer};
use tower_sessions_sqlx_store::SqliteStore;

use super::{AppError, AppState};
use crate::auth::{session_expired, Role, SESSION_IDLE};
use crate::service::{League, ServiceError};

/// The session key holding the logged-in user's id.
pub const USER_ID_KEY: &str = "user_id";

/// The session key holding the login time (Unix seconds) for the absolute lifetime.
pub const LOGIN_AT_KEY: &str = "login_at";

/// The session key holding the account's session epoch at login: a password change or reset
/// raises the account's epoch, and a session of an older epoch is logged out.
pub const EPOCH_KEY: &str = "epoch";

/// Starts the logged-in session of user `id` at the account's session epoch `epoch`: a new
/// session id (against fixation), the user, the epoch and the login time `now` (Unix seconds, from
/// the club clock).
pub async fn start_session(
    session: &Session,
    id: i64,
    epoch: i64,
    now: i64,
) -> Result<(), tower_sessions::session::Error> {
    session.cycle_id().await?;
    session.insert(USER_ID_KEY, id).await?;
    session.insert(EPOCH_KEY, epoch).await?;
    session.insert(LOGIN_AT_KEY, now).await?;
    Ok(())
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
        self.role.is_secretary()
    }

    /// True for an account that handles money: a Kassenwart, a secretary or an admin (fees,
    /// fines, payments, the Strafenkatalog, the Jahresabschluss).
    pub fn handles_money(&self) -> bool {
        self.role.handles_money()
    }

    /// True for an account that reads the money pages of the Verwaltung: one that
    /// [`handles_money`](CurrentUser::handles_money), or a Kassenprüfer.
    pub fn reads_money(&self) -> bool {
        self.role.reads_money()
    }

    /// True for a Kassenprüfer: he reads the money pages and changes nothing of them
    /// ([`reads_money`](CurrentUser::reads_money) without
    /// [`handles_money`](CurrentUser::handles_money)); his one action is *Geprüft*.
    pub fn audits_money(&self) -> bool {
        self.role.audits_money()
    }

    /// The page a login leads to: the Kasse's page for a Kassenwart or a Kassenprüfer, else the
    /// Verwaltung.
    pub fn home(&self) -> &'static str {
        self.role.home()
    }

    /// True for an admin.
    pub fn is_admin(&self) -> bool {
        self.role == Role::Admin
    }
}

/// The session layer of the application: sessions stored in the league's session file
/// ([`League::session_store`]),
/// cookie HttpOnly, SameSite=Strict, `Secure` when `secure_cookies`, ending after
/// [`SESSION_IDLE`] without a request (sliding: every request of a logged-in user moves it) and
/// [`SESSION_ABSOLUTE_SECS`] after the login; expired records are deleted once an hour; a save
/// on a full disk is let pass ([`store::Tolerant`]).
pub async fn session_layer(
    league: &League,
    secure_cookies: bool,
) -> Result<SessionManagerLayer<store::Tolerant<SqliteStore>>, ServiceError> {
    let sqlite = league.session_store().await?;
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
            let user = league.account(id).await.map_err(|e| internal(&e))?;
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

/// A logged-in account that reads the money pages (a Kassenwart, a secretary, an admin or a
/// Kassenprüfer: the GETs of `Guard::MoneyRead`); others are sent to the login page or refused
/// (403).
#[derive(Debug, Clone)]
pub struct RequireMoneyRead(pub CurrentUser);

impl<S> FromRequestParts<S> for RequireMoneyRead
where
    S: Send + Sync,
    League: FromRef<S>,
{
    type Rejection = AuthRejection;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Self::Rejection> {
        require(parts, state, CurrentUser::reads_money)
            .await
            .map(RequireMoneyRead)
    }
}

/// A logged-in Kassenprüfer (his *Geprüft*, `Guard::Audit`); others are sent to the login page
/// or refused (403), an admin too.
#[derive(Debug, Clone)]
pub struct RequireAuditor(pub CurrentUser);

impl<S> FromRequestParts<S> for RequireAuditor
where
    S: Send + Sync,
    League: FromRef<S>,
{
    type Rejection = AuthRejection;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Self::Rejection> {
        require(parts, state, CurrentUser::audits_money)
            .await
            .map(RequireAuditor)
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

/// The refusal of a link that does not work here (403), in German.
fn link_refused() -> Response {
    AppError::ForbiddenBecause(
        "Dieser Link zum Schreiben gilt hier nicht: er ist widerrufen, der Abend ist \
         abgeschlossen, oder er gehört zu einem anderen Abend oder Tisch."
            .to_string(),
    )
    .into_response()
}

/// Middleware of the link group: the path's token must be a working link
/// ([`League::scorer_link`]) of the path's night and table; else 403. The link goes into the request's
/// extensions for the `once` layer and the handlers.
pub async fn link_guard(State(state): State<AppState>, mut req: Request, next: Next) -> Response {
    let parts: Vec<&str> = req.uri().path().split('/').collect();
    let (Some(token), Some(date), Some(table)) = (parts.get(2), parts.get(3), parts.get(4)) else {
        return link_refused();
    };
    let date = NaiveDate::parse_from_str(date, "%Y-%m-%d").ok();
    let table = table.parse::<u32>().ok();
    let link = match state.league.scorer_link(token).await {
        Ok(link) => link,
        Err(e) => return AppError::from(e).into_response(),
    };
    match link {
        Some(link) if Some(link.date) == date && Some(link.table) == table => {
            req.extensions_mut().insert(link);
            next.run(req).await
        }
        _ => link_refused(),
    }
}

/// The answer to a card link that does not work (403, German, as a dead scorer link): unknown, revoked or replaced.
fn card_refused() -> Response {
    let mut resp = AppError::ForbiddenBecause(
        "Diese Karte gilt nicht (mehr): der Link ist widerrufen oder durch einen neueren ersetzt. \
         Den neuen Link gibt es bei der Kasse oder beim Schriftführer."
            .to_string(),
    )
    .into_response();
    no_store(&mut resp);
    resp
}

/// The answer of a card whose player `gone` was merged into `kept`: 403 with the notice.
fn card_merged(gone: &str, kept: &str) -> Response {
    let mut resp = AppError::ForbiddenBecause(format!(
        "Diese Karte gilt nicht mehr: „{gone}“ ist mit „{kept}“ zusammengeführt. Den Link der \
         Karte von „{kept}“ gibt es bei der Kasse oder beim Schriftführer."
    ))
    .into_response();
    no_store(&mut resp);
    resp
}

/// Marks `resp` for no cache and no search engine: a page of a capability link.
fn no_store(resp: &mut Response) {
    let h = resp.headers_mut();
    h.insert(
        axum::http::header::CACHE_CONTROL,
        axum::http::HeaderValue::from_static("private, no-store"),
    );
    h.insert(
        axum::http::HeaderName::from_static("x-robots-tag"),
        axum::http::HeaderValue::from_static("noindex, nofollow"),
    );
}

/// Middleware of the card group: the path's token (`/karte/{token}/…`) must be a working card
/// link ([`League::card_link`]); else 403. The link goes into the request's extensions for the
/// handlers; every answer is marked `Cache-Control: private, no-store`.
pub async fn card_guard(State(state): State<AppState>, mut req: Request, next: Next) -> Response {
    let Some(token) = req.uri().path().split('/').nth(2).map(str::to_string) else {
        return card_refused();
    };
    let card = match state.league.card_link(&token).await {
        Ok(card) => card,
        Err(e) => return AppError::from(e).into_response(),
    };
    match card {
        Some(card) => {
            // A merged-away player's card stops with a notice (issue 36.2); after "Trennen" it
            // works again.
            match state.league.merged_away(card.player_id).await {
                Ok(Some(m)) => return card_merged(&m.gone, &m.kept),
                Ok(None) => {}
                Err(e) => return AppError::from(e).into_response(),
            }
            req.extensions_mut().insert(card);
            let mut resp = next.run(req).await;
            no_store(&mut resp);
            resp
        }
        None => card_refused(),
    }
}
