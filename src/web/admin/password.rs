//! An account that looks after itself (SECURITY.md "Accounts"): changing one's own password (the
//! old one required; the account's other sessions end) and setting a new one through a one-time
//! reset link from an admin or `schockerliga user reset NAME` (24 hours, once).

use askama::Template;
use askama_web::WebTemplate;
use axum::extract::{Query, State};
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Form;
use serde::Deserialize;
use tower_sessions::Session;

use crate::auth::Role;
use crate::service::{League, ServiceError};
use crate::web::kit::respond::refused_status;
use crate::web::kit::session::{self, CurrentUser};
use crate::web::kit::{AppError, Flash, Guard, Layout, Reply, Routes, Stored};

/// The routes of this feature.
pub fn routes() -> Routes {
    Routes::new()
        .get(Guard::Account, "/verwaltung/passwort", password_page)
        .post(Guard::Account, "/verwaltung/passwort", change_password)
        .get(Guard::Public, "/passwort/zuruecksetzen", reset_page)
        .post(Guard::Public, "/passwort/zuruecksetzen", reset)
}

/// The change-password form.
#[derive(Template, WebTemplate)]
#[template(path = "admin/password.html")]
struct PasswordPage {
    layout: Layout,
    error: Option<String>,
}

async fn password_page(layout: Layout) -> PasswordPage {
    PasswordPage {
        layout,
        error: None,
    }
}

/// The change-password form's fields.
#[derive(Deserialize)]
pub struct PasswordForm {
    /// The current password.
    #[serde(default)]
    pub old: String,
    /// The new password.
    #[serde(default)]
    pub password: String,
    /// The new password again.
    #[serde(default)]
    pub password2: String,
}

fn session_error(e: tower_sessions::session::Error) -> AppError {
    AppError::Internal(format!("Sitzung: {e}"))
}

/// `POST /verwaltung/passwort`: the account's own new password; this session stays (with a new
/// id), every other one of the account ends. Refused → the form again with the reason.
async fn change_password(
    reply: Reply,
    user: CurrentUser,
    session: Session,
    Form(form): Form<PasswordForm>,
) -> Result<Response, AppError> {
    let done = reply
        .league
        .change_password(user.id, &form.old, &form.password, &form.password2)
        .await;
    let done = match done {
        Ok(epoch) => {
            let now = reply.league.clock().now().timestamp();
            session::start_session(&session, user.id, epoch, now)
                .await
                .map_err(session_error)?;
            Ok(())
        }
        Err(e) => Err(e),
    };
    let stored = |()| {
        Stored::at(
            user.home(),
            "Passwort geändert. Alle anderen Sitzungen dieses Kontos sind beendet.",
        )
    };
    reply
        .finish(done, stored, async |refusal, layout| {
            Ok(PasswordPage {
                layout,
                error: Some(refusal.to_string()),
            })
        })
        .await
}

/// The reset link's query.
#[derive(Deserialize)]
pub struct ResetQuery {
    /// The one-time token.
    #[serde(default)]
    pub token: String,
}

/// The new-password form of a reset link.
#[derive(Template, WebTemplate)]
#[template(path = "admin/reset.html")]
struct ResetPage {
    layout: Layout,
    token: String,
    username: String,
    error: Option<String>,
}

/// The answer to a reset link that is used, expired or unknown (404).
fn dead_reset_link() -> AppError {
    AppError::DeadLink(
        "Dieser Link zum Zurücksetzen ist abgelaufen oder wurde schon benutzt. Ein Admin kann unter „Konten“ einen neuen erstellen."
            .to_string(),
    )
}

/// `page` marked for no cache: the token is in its form.
fn no_store(status: StatusCode, page: ResetPage) -> Response {
    (status, [(header::CACHE_CONTROL, "no-store")], page).into_response()
}

async fn reset_page(
    State(league): State<League>,
    Query(q): Query<ResetQuery>,
) -> Result<Response, AppError> {
    let user = league
        .reset_account(&q.token)
        .await?
        .ok_or_else(dead_reset_link)?;
    Ok(no_store(
        StatusCode::OK,
        ResetPage {
            layout: Layout::default(),
            token: q.token,
            username: user.username,
            error: None,
        },
    ))
}

/// The reset form's fields.
#[derive(Deserialize)]
pub struct ResetForm {
    /// The one-time token.
    #[serde(default)]
    pub token: String,
    /// The new password.
    #[serde(default)]
    pub password: String,
    /// The new password again.
    #[serde(default)]
    pub password2: String,
}

/// Sets the new password through the link, ends every session of the account and logs it in
/// here; a dead link is a 404, a refused password shows the form again (the link still works).
async fn reset(
    State(league): State<League>,
    session: Session,
    Form(form): Form<ResetForm>,
) -> Result<Response, AppError> {
    let done = league
        .reset_password(&form.token, &form.password, &form.password2)
        .await;
    match done {
        Ok((user, epoch)) => {
            let now = league.clock().now().timestamp();
            session::start_session(&session, user.id, epoch, now)
                .await
                .map_err(session_error)?;
            let home = Role::parse(&user.role).map_or("/verwaltung", Role::home);
            Ok(Flash::of(session)
                .redirect(home, "Neues Passwort gespeichert; du bist angemeldet.")
                .await)
        }
        Err(ServiceError::NotFound(_)) => Err(dead_reset_link()),
        // Refused: the form again (the link still works), kept by no cache.
        Err(e) => {
            let refusal = e.into_refusal()?;
            let username = league
                .reset_account(&form.token)
                .await?
                .map(|u| u.username)
                .unwrap_or_default();
            Ok(no_store(
                refused_status(&refusal),
                ResetPage {
                    layout: Layout::default(),
                    token: form.token,
                    username,
                    error: Some(refusal.to_string()),
                },
            ))
        }
    }
}
