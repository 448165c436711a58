//! Login, logout and the one-time setup of the first admin (`/setup?token=…`).

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Instant;

use askama::Template;
use askama_web::WebTemplate;
use axum::extract::{ConnectInfo, Query, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Redirect, Response};
use axum::routing::{get, post, MethodRouter};
use axum::{Extension, Form, Router};
use serde::Deserialize;
use tower_sessions::Session;

use super::{AppError, AppState};
use crate::auth::throttle::LoginThrottle;
use crate::auth::{self, CurrentUser, Role};
use crate::db;

/// The routes of this feature. `POST /login` is rate-limited per client address
/// ([`super::security::login_rate_limit`]) and per account ([`LoginThrottle`], one per router).
pub fn router() -> Router<AppState> {
    Router::new()
        .route("/login", with_login_limit(get(login_form).post(login)))
        .route("/logout", post(logout))
        .route("/setup", get(setup_form).post(setup))
        .layer(Extension(Arc::new(LoginThrottle::new())))
}

/// `routes` with the per-address burst limit of [`super::security::login_rate_limit`].
fn with_login_limit(routes: MethodRouter<AppState>) -> MethodRouter<AppState> {
    match super::security::login_rate_limit() {
        Some(limit) => routes.layer(limit),
        None => routes,
    }
}

/// The login form, with an error after a failed attempt.
#[derive(Template, WebTemplate)]
#[template(path = "login.html")]
struct LoginPage {
    user: Option<CurrentUser>,
    username: String,
    error: Option<String>,
}

/// The login form's fields.
#[derive(Deserialize)]
pub struct LoginForm {
    /// The login name.
    pub username: String,
    /// The password.
    pub password: String,
}

async fn login_form(user: Option<CurrentUser>) -> LoginPage {
    LoginPage {
        user,
        username: String::new(),
        error: None,
    }
}

fn session_error(e: tower_sessions::session::Error) -> AppError {
    AppError::Internal(format!("Sitzung: {e}"))
}

/// The longest login name or password looked at; longer input fails like a wrong password
/// (argon2 would otherwise hash megabytes).
const MAX_CREDENTIAL_CHARS: usize = 200;

async fn login(
    State(state): State<AppState>,
    Extension(throttle): Extension<Arc<LoginThrottle>>,
    peer: Option<Extension<ConnectInfo<SocketAddr>>>,
    session: Session,
    Form(form): Form<LoginForm>,
) -> Result<Response, AppError> {
    let ip = peer.map(|Extension(ConnectInfo(addr))| addr.ip());
    let name = form.username.trim().to_string();
    let name = name.as_str();
    if !throttle.allowed(name, ip, Instant::now()) {
        return Ok((
            StatusCode::TOO_MANY_REQUESTS,
            LoginPage {
                user: None,
                username: form.username,
                error: Some(
                    "Zu viele Fehlversuche für diesen Namen. Bitte später erneut versuchen."
                        .to_string(),
                ),
            },
        )
            .into_response());
    }
    let sane = name.chars().count() <= MAX_CREDENTIAL_CHARS
        && form.password.chars().count() <= MAX_CREDENTIAL_CHARS;
    let user = if sane {
        db::user::by_username(&state.read, name).await?
    } else {
        None
    };
    let hash = user.as_ref().map(|u| u.password_hash.clone());
    let password = if sane { form.password } else { String::new() };
    let ok = auth::verify_password(password, hash).await?;
    match user {
        Some(u) if ok && !u.disabled => {
            throttle.succeeded(name, ip);
            auth::start_session(&session, u.id)
                .await
                .map_err(session_error)?;
            Ok(Redirect::to("/verwaltung").into_response())
        }
        _ => {
            throttle.failed(name, Instant::now());
            Ok((
                StatusCode::UNAUTHORIZED,
                LoginPage {
                    user: None,
                    username: form.username,
                    error: Some("Name oder Passwort falsch.".to_string()),
                },
            )
                .into_response())
        }
    }
}

async fn logout(session: Session) -> Result<Redirect, AppError> {
    session.flush().await.map_err(session_error)?;
    Ok(Redirect::to("/"))
}

/// The query of the setup link.
#[derive(Deserialize)]
pub struct SetupQuery {
    /// The one-time token printed at start.
    #[serde(default)]
    pub token: String,
}

/// The setup form (first admin).
#[derive(Template, WebTemplate)]
#[template(path = "setup.html")]
struct SetupPage {
    user: Option<CurrentUser>,
    token: String,
    username: String,
    error: Option<String>,
}

/// The setup form's fields.
#[derive(Deserialize)]
pub struct SetupForm {
    /// The one-time token.
    pub token: String,
    /// The first admin's login name.
    pub username: String,
    /// The password.
    pub password: String,
    /// The password again.
    pub password2: String,
}

/// True when `token` is the stored setup token (compared in constant time over its length).
async fn token_valid(state: &AppState, token: &str) -> Result<bool, AppError> {
    let Some(stored) = db::user::setup_token(&state.read).await? else {
        return Ok(false);
    };
    let (a, b) = (stored.as_bytes(), token.as_bytes());
    Ok(a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0)
}

async fn setup_form(
    State(state): State<AppState>,
    Query(q): Query<SetupQuery>,
) -> Result<SetupPage, AppError> {
    if !token_valid(&state, &q.token).await? {
        return Err(AppError::NotFound);
    }
    Ok(SetupPage {
        user: None,
        token: q.token,
        username: String::new(),
        error: None,
    })
}

/// Checks the setup form's fields; the error is German ([`crate::auth::check_new_account`]).
pub(super) fn check_new_account(
    username: &str,
    password: &str,
    password2: &str,
) -> Result<(), String> {
    crate::auth::check_new_account(username, password, Some(password2))
}

async fn setup(
    State(state): State<AppState>,
    session: Session,
    Form(form): Form<SetupForm>,
) -> Result<Response, AppError> {
    if !token_valid(&state, &form.token).await? {
        return Err(AppError::NotFound);
    }
    let username = form.username.trim().to_string();
    if let Err(e) = check_new_account(&username, &form.password, &form.password2) {
        return Ok((
            StatusCode::UNPROCESSABLE_ENTITY,
            SetupPage {
                user: None,
                token: form.token,
                username: form.username,
                error: Some(e),
            },
        )
            .into_response());
    }
    let hash = auth::hash_password(form.password).await?;
    let mut tx = state.begin_write().await?;
    if db::user::count_conn(&mut tx).await? > 0 {
        return Err(AppError::NotFound);
    }
    let id = db::user::create(&mut tx, &username, &hash, Role::Admin.as_str()).await?;
    db::user::clear_setup_token(&mut tx).await?;
    db::audit::record(&mut tx, &username, "setup: erster Admin", None, None).await?;
    tx.commit().await?;
    auth::start_session(&session, id)
        .await
        .map_err(session_error)?;
    Ok(Redirect::to("/verwaltung").into_response())
}

#[cfg(test)]
mod tests {
    use super::check_new_account;

    #[test]
    fn new_accounts_need_a_name_a_long_password_and_the_same_twice() {
        let cases = [
            ("anna", "geheim123", "geheim123", true),
            ("", "geheim123", "geheim123", false),
            ("anna", "kurz", "kurz", false),
            ("anna", "geheim123", "geheim124", false),
            ("an\u{0}na", "geheim123", "geheim123", false),
            ("anna\n", "geheim123", "geheim123", false),
            ("<b>anna</b>", "geheim123", "geheim123", true),
        ];
        for (name, p1, p2, ok) in cases {
            assert_eq!(
                check_new_account(name, p1, p2).is_ok(),
                ok,
                "{name} {p1} {p2}"
            );
        }
    }
}
