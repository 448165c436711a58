//! Accounts (SECURITY.md "Access"): an admin lists, adds, disables and enables accounts and
//! issues one-time reset links.

use askama::Template;
use askama_web::WebTemplate;
use axum::extract::{Path, State};
use axum::response::Response;
use axum::Form;
use serde::Deserialize;

use crate::auth::Role;
use crate::service::{League, ServiceError};
use crate::web::kit::links::{self, PublicAddress};
use crate::web::kit::session::RequireAdmin;
use crate::web::kit::{AppError, Layout, Reply, Stored};

/// One account in the list.
pub struct AccountLine {
    /// `users.id`.
    pub id: i64,
    /// Login name (escaped by askama).
    pub username: String,
    /// "Admin" or "Schriftführer".
    pub role: &'static str,
    /// Disabled accounts cannot log in; their sessions end.
    pub disabled: bool,
    /// The viewing admin himself (cannot disable himself).
    pub is_self: bool,
}

/// The accounts page with the add form.
#[derive(Template, WebTemplate)]
#[template(path = "admin/accounts.html")]
pub struct AccountsPage {
    layout: Layout,
    accounts: Vec<AccountLine>,
    username: String,
    role: String,
    error: Option<String>,
}

/// The add-account form's fields.
#[derive(Deserialize)]
pub struct AddAccountForm {
    /// Login name (1–50 characters).
    pub username: String,
    /// Password (at least 8 characters).
    pub password: String,
    /// The password again.
    pub password2: String,
    /// `admin`, `secretary`, `kassenwart` or `kassenpruefer`.
    pub role: String,
}

/// The German label of a stored role.
fn role_label(role: &str) -> &'static str {
    Role::parse(role).map_or("?", Role::label)
}

async fn account_lines(league: &League, me: i64) -> Result<Vec<AccountLine>, AppError> {
    Ok(league
        .accounts()
        .await?
        .into_iter()
        .map(|u| AccountLine {
            id: u.id,
            role: role_label(&u.role),
            disabled: u.disabled,
            is_self: u.id == me,
            username: u.username,
        })
        .collect())
}

/// `GET /verwaltung/konten`: the accounts with their roles, and the form for a new one.
pub async fn get(
    State(league): State<League>,
    layout: Layout,
    RequireAdmin(me): RequireAdmin,
) -> Result<AccountsPage, AppError> {
    Ok(AccountsPage {
        accounts: account_lines(&league, me.id).await?,
        layout,
        username: String::new(),
        role: "secretary".to_string(),
        error: None,
    })
}

/// `POST /verwaltung/konten`: a new account; refused → the page again with what was typed.
pub async fn post(
    reply: Reply,
    RequireAdmin(me): RequireAdmin,
    Form(form): Form<AddAccountForm>,
) -> Result<Response, AppError> {
    let created = match Role::parse(&form.role) {
        None => Err(ServiceError::refused("Unbekannte Rolle.")),
        Some(role) => {
            reply
                .league
                .create_account(
                    &form.username,
                    &form.password,
                    Some(&form.password2),
                    role,
                    &me.username,
                )
                .await
        }
    };
    let league = reply.league.clone();
    reply
        .finish(
            created,
            |_| Stored::at("/verwaltung/konten", "Konto angelegt."),
            async |refusal, layout| {
                Ok(AccountsPage {
                    accounts: account_lines(&league, me.id).await?,
                    layout,
                    username: form.username,
                    role: form.role,
                    error: Some(refusal.to_string()),
                })
            },
        )
        .await
}

/// Disables or enables account `id` by admin `me`; refused (his own account) → the accounts page
/// again with the reason.
async fn set_disabled(
    reply: Reply,
    me: crate::web::kit::session::CurrentUser,
    id: i64,
    disabled: bool,
) -> Result<Response, AppError> {
    let done = reply
        .league
        .set_account_disabled((me.id, &me.username), id, disabled)
        .await;
    let message = if disabled {
        "Konto gesperrt; seine Sitzungen sind beendet."
    } else {
        "Konto entsperrt."
    };
    let league = reply.league.clone();
    reply
        .finish(
            done,
            |()| Stored::at("/verwaltung/konten", message),
            async |refusal, layout| {
                Ok(AccountsPage {
                    accounts: account_lines(&league, me.id).await?,
                    layout,
                    username: String::new(),
                    role: "secretary".to_string(),
                    error: Some(refusal.to_string()),
                })
            },
        )
        .await
}

/// `POST /verwaltung/konten/{id}/sperren`: the account can no longer log in; its sessions end.
pub async fn disable(
    reply: Reply,
    RequireAdmin(me): RequireAdmin,
    Path(id): Path<i64>,
) -> Result<Response, AppError> {
    set_disabled(reply, me, id, true).await
}

/// `POST /verwaltung/konten/{id}/entsperren`: the account can log in again.
pub async fn enable(
    reply: Reply,
    RequireAdmin(me): RequireAdmin,
    Path(id): Path<i64>,
) -> Result<Response, AppError> {
    set_disabled(reply, me, id, false).await
}

/// The page with a new reset link, shown once.
#[derive(Template, WebTemplate)]
#[template(path = "admin/reset_link.html")]
struct ResetLinkPage {
    layout: Layout,
    username: String,
    /// The link, on the club's public address ([`PublicAddress`]).
    link: String,
    /// The link to share it in WhatsApp.
    whatsapp: String,
}

/// Issues a one-time reset link for account `id` and shows it once (200, not stored by any
/// cache: the link is a secret and exists nowhere else; a reload issues a new one and the old
/// one dies). The one POST of the app that does not redirect: a redirect would have to keep the
/// token in the session store.
pub async fn reset_link(
    State(league): State<League>,
    layout: Layout,
    RequireAdmin(me): RequireAdmin,
    address: PublicAddress,
    Path(id): Path<i64>,
) -> Result<Response, AppError> {
    let user = league.account(id).await?.ok_or(AppError::NotFound)?;
    let token = league.issue_reset(&user.username, &me.username).await?;
    let link = address.link(&format!("/passwort/zuruecksetzen?token={token}"));
    let page = ResetLinkPage {
        layout,
        whatsapp: links::whatsapp(
            &format!(
                "Schockerliga: Link zum Zurücksetzen des Passworts für {} (gilt 24 Stunden, einmal):",
                user.username
            ),
            &link,
        ),
        link,
        username: user.username,
    };
    Ok(links::no_store(page))
}
