//! Login, logout and the one-time setup of the first admin (`/setup?token=…`).

use std::time::Instant;

use askama::Template;
use askama_web::WebTemplate;
use axum::extract::{Query, State};
use axum::http::{header, HeaderMap, HeaderValue, Method, StatusCode};
use axum::response::{IntoResponse, Redirect, Response};
use axum::routing::{get, post};
use axum::Form;
use serde::Deserialize;
use tower_sessions::Session;

use crate::auth::Role;
use crate::web::kit::respond::refused_status;
use crate::web::kit::{AppError, AppState, Guard, Layout, Routes};

/// The routes of this feature. `POST /login` is rate-limited per client address
/// ([`crate::web::kit::security::login_rate_limit`]) and per account (the state's `LoginThrottle`).
pub fn routes() -> Routes {
    let login = get(login_form).post(login);
    let login = match crate::web::kit::security::login_rate_limit() {
        Some(limit) => login.layer(limit),
        None => login,
    };
    Routes::new()
        .add(Guard::Public, &[Method::GET, Method::POST], "/login", login)
        .add(Guard::Public, &[Method::POST], "/logout", post(logout))
        .add(
            Guard::Public,
            &[Method::GET, Method::POST],
            "/setup",
            get(setup_form).post(setup),
        )
}

/// The login form, with an error after a failed attempt.
#[derive(Template, WebTemplate)]
#[template(path = "admin/login.html")]
struct LoginPage {
    layout: Layout,
    username: String,
    error: Option<String>,
    /// A form was kept because the login ran out.
    kept: bool,
}

/// The login form's fields.
#[derive(Deserialize)]
pub struct LoginForm {
    /// The login name.
    pub username: String,
    /// The password.
    pub password: String,
}

async fn login_form(layout: Layout, headers: HeaderMap) -> LoginPage {
    LoginPage {
        layout,
        username: String::new(),
        error: None,
        kept: crate::web::kit::unsent::peek(&headers).is_some(),
    }
}

fn session_error(e: tower_sessions::session::Error) -> AppError {
    AppError::Internal(format!("Sitzung: {e}"))
}

/// The login form again with `status` and `error`, the typed name kept.
fn refused(status: StatusCode, username: String, error: &str) -> Response {
    (
        status,
        LoginPage {
            layout: Layout::default(),
            username,
            error: Some(error.to_string()),
            kept: false,
        },
    )
        .into_response()
}

async fn login(
    State(state): State<AppState>,
    client: crate::web::kit::client::ClientAddr,
    session: Session,
    headers: HeaderMap,
    Form(form): Form<LoginForm>,
) -> Result<Response, AppError> {
    // The client: behind a trusted proxy the one it names, not the proxy.
    let ip = client.0;
    let name = form.username.trim().to_string();
    // One throttle per account, whatever the case of the name as typed.
    let account = crate::league::model::names::name_key(&name);
    let throttle = &state.throttle;
    if let Some(wait) = throttle.wait(&account, ip, Instant::now()) {
        // Rounded up: trying again after Retry-After seconds must be allowed.
        let seconds = wait.as_secs() + u64::from(wait.subsec_nanos() > 0);
        let seconds = seconds.max(1);
        let mut resp = refused(
            StatusCode::TOO_MANY_REQUESTS,
            form.username,
            &format!(
                "Zu viele Fehlversuche für diesen Namen. {}",
                crate::web::kit::respond::try_again_in(seconds)
            ),
        );
        resp.headers_mut()
            .insert(header::RETRY_AFTER, HeaderValue::from(seconds));
        return Ok(resp);
    }
    match state.league.authenticate(&name, &form.password).await? {
        Some(u) => {
            throttle.succeeded(&account, ip);
            let now = state.league.clock().now().timestamp();
            crate::web::kit::session::start_session(&session, u.id, u.session_epoch, now)
                .await
                .map_err(session_error)?;
            // Back to the form that arrived after the login ran out, filled in again; else the
            // account's start page.
            match crate::web::kit::unsent::peek(&headers) {
                Some(kept) => {
                    let flash = crate::web::kit::Flash::of(session);
                    Ok(flash
                        .redirect(
                            kept.page(),
                            "Die Anmeldung war abgelaufen: nichts gespeichert. Die Eingabe steht \
                             wieder im Formular; bitte prüfen und noch einmal senden.",
                        )
                        .await)
                }
                None => {
                    let home = Role::parse(&u.role).map_or("/verwaltung", Role::home);
                    Ok(Redirect::to(home).into_response())
                }
            }
        }
        None => {
            throttle.failed(&account, Instant::now());
            Ok(refused(
                StatusCode::UNAUTHORIZED,
                form.username,
                "Name oder Passwort falsch.",
            ))
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
#[template(path = "admin/setup.html")]
struct SetupPage {
    layout: Layout,
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

/// `GET /setup?token=…`: the form for the first admin while the token is open; never kept by a
/// cache (`no-store`: the token is in its address and its form).
async fn setup_form(
    State(state): State<AppState>,
    Query(q): Query<SetupQuery>,
) -> Result<Response, AppError> {
    if !state.league.setup_token_valid(&q.token).await? {
        return Err(AppError::DeadLink(
            "Dieser Einrichtungslink gilt nicht (mehr): er wurde schon benutzt oder ist falsch. Mit dem Konto anmelden unter /login."
                .to_string(),
        ));
    }
    Ok(crate::web::kit::links::no_store(SetupPage {
        layout: Layout::default(),
        token: q.token,
        username: String::new(),
        error: None,
    }))
}

async fn setup(
    State(state): State<AppState>,
    session: Session,
    Form(form): Form<SetupForm>,
) -> Result<Response, AppError> {
    let created = state
        .league
        .create_first_admin(&form.token, &form.username, &form.password, &form.password2)
        .await;
    let id = match created {
        Ok(id) => id,
        // Refused: the form again (422), the name kept; stored: logged in, to the Verwaltung.
        Err(e) => {
            let refusal = e.into_refusal()?;
            let page = SetupPage {
                layout: Layout::default(),
                token: form.token,
                username: form.username,
                error: Some(refusal.to_string()),
            };
            let mut resp = crate::web::kit::links::no_store(page);
            *resp.status_mut() = refused_status(&refusal);
            return Ok(resp);
        }
    };
    let now = state.league.clock().now().timestamp();
    crate::web::kit::session::start_session(&session, id, 0, now)
        .await
        .map_err(session_error)?;
    Ok(Redirect::to("/verwaltung").into_response())
}
