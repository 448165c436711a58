//! Administration (SECURITY.md "Access"): admins list, add, disable and enable accounts, issue
//! one-time reset links, set the club's settings (the GiroCode's account, "Kasse nur für
//! Mitglieder") and read the audit log; secretaries close a Spielabend. Closed nights change only through a Korrektur
//! ([`KorrekturFields`] on every form that changes a night), which the write pipeline checks and
//! the database enforces.

use askama::Template;
use askama_web::WebTemplate;
use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Form;
use serde::Deserialize;

use crate::auth::Role;
use crate::league::Korrektur;
use crate::service::{accounts, League, ServiceError};
use crate::web::kit::session::RequireAdmin;
use crate::web::kit::Flash;
use crate::web::kit::{AppError, Guard, Layout, Routes};

/// The routes of this feature (the role walk test reads them from the route table).
pub fn routes() -> Routes {
    Routes::new()
        .get(Guard::Admin, "/verwaltung/konten", accounts_page)
        .post(Guard::Admin, "/verwaltung/konten", add_account)
        .post(
            Guard::Admin,
            "/verwaltung/konten/{id}/sperren",
            disable_account,
        )
        .post(
            Guard::Admin,
            "/verwaltung/konten/{id}/entsperren",
            enable_account,
        )
        .get(Guard::Admin, "/verwaltung/protokoll", audit_log)
        .post(
            Guard::Admin,
            "/verwaltung/konten/{id}/zuruecksetzen",
            reset_link,
        )
        .get(Guard::Admin, "/verwaltung/einstellungen", settings_page)
        .post(Guard::Admin, "/verwaltung/einstellungen", save_settings)
}

/// The fields a form that changes a night carries for a closed night: the "Korrektur" tick box
/// (`korrektur=on`) and its reason (`korrektur_grund`). Flatten them into the form struct
/// (`#[serde(flatten)]`) and include `admin/korrektur.html` in the template.
#[derive(Debug, Default, Clone, Deserialize)]
pub struct KorrekturFields {
    /// Present (any value) when the box "Korrektur" is ticked.
    #[serde(default)]
    pub korrektur: Option<String>,
    /// Why the closed night is corrected.
    #[serde(default)]
    pub korrektur_grund: String,
}

impl From<&KorrekturFields> for Korrektur {
    fn from(f: &KorrekturFields) -> Korrektur {
        Korrektur {
            ticked: f.korrektur.is_some(),
            reason: f.korrektur_grund.clone(),
        }
    }
}

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
struct AccountsPage {
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
    /// `admin`, `secretary` or `kassenwart`.
    pub role: String,
}

/// The German label of a stored role.
fn role_label(role: &str) -> &'static str {
    Role::parse(role).map_or("?", Role::label)
}

async fn account_lines(league: &League, me: i64) -> Result<Vec<AccountLine>, AppError> {
    Ok(accounts::list(league.db())
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

async fn accounts_page(
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

async fn add_account(
    State(league): State<League>,
    layout: Layout,
    flash: Flash,
    RequireAdmin(me): RequireAdmin,
    Form(form): Form<AddAccountForm>,
) -> Result<Response, AppError> {
    let created = match Role::parse(&form.role) {
        None => Err(ServiceError::refused("Unbekannte Rolle.")),
        Some(role) => {
            accounts::create(
                league.db(),
                &form.username,
                &form.password,
                Some(&form.password2),
                role,
                &me.username,
            )
            .await
        }
    };
    match created {
        Ok(_) => Ok(flash
            .redirect("/verwaltung/konten", "Konto angelegt.")
            .await),
        Err(ServiceError::Refused(e) | ServiceError::Full(e)) => Ok((
            StatusCode::UNPROCESSABLE_ENTITY,
            AccountsPage {
                accounts: account_lines(&league, me.id).await?,
                layout,
                username: form.username,
                role: form.role,
                error: Some(e.to_string()),
            },
        )
            .into_response()),
        Err(e) => Err(e.into()),
    }
}

async fn disable_account(
    State(league): State<League>,
    flash: Flash,
    RequireAdmin(me): RequireAdmin,
    Path(id): Path<i64>,
) -> Result<Response, AppError> {
    accounts::set_disabled(league.db(), (me.id, &me.username), id, true).await?;
    Ok(flash
        .redirect(
            "/verwaltung/konten",
            "Konto gesperrt; seine Sitzungen sind beendet.",
        )
        .await)
}

async fn enable_account(
    State(league): State<League>,
    flash: Flash,
    RequireAdmin(me): RequireAdmin,
    Path(id): Path<i64>,
) -> Result<Response, AppError> {
    accounts::set_disabled(league.db(), (me.id, &me.username), id, false).await?;
    Ok(flash
        .redirect("/verwaltung/konten", "Konto entsperrt.")
        .await)
}

/// One audit row, formatted.
pub struct AuditLine {
    /// Local-time German timestamp.
    pub at: String,
    /// Who.
    pub user: String,
    /// What.
    pub action: String,
    /// Before, as JSON text ("" when none).
    pub before: String,
    /// After, as JSON text ("" when none).
    pub after: String,
}

/// The audit page.
#[derive(Template, WebTemplate)]
#[template(path = "admin/audit.html")]
struct AuditPage {
    layout: Layout,
    lines: Vec<AuditLine>,
    older: Option<i64>,
}

/// The audit page's query: show rows with ids below `vor`.
#[derive(Deserialize)]
pub struct AuditQuery {
    /// Page on: rows older than this id.
    pub vor: Option<i64>,
}

/// Rows per audit page.
const AUDIT_PAGE: i64 = 100;

/// RFC 3339 → "29.11.2026 15:20:07 UTC"; unparsable text is shown as stored.
fn de_timestamp(at: &str) -> String {
    chrono::DateTime::parse_from_rfc3339(at)
        .map(|t| t.format("%d.%m.%Y %H:%M:%S UTC").to_string())
        .unwrap_or_else(|_| at.to_string())
}

async fn audit_log(
    State(league): State<League>,
    layout: Layout,
    Query(q): Query<AuditQuery>,
) -> Result<AuditPage, AppError> {
    let rows = accounts::audit_log(league.db(), q.vor, AUDIT_PAGE).await?;
    let older = if rows.len() as i64 == AUDIT_PAGE {
        rows.last().map(|r| r.id)
    } else {
        None
    };
    let lines = rows
        .into_iter()
        .map(|r| AuditLine {
            at: de_timestamp(&r.at),
            user: r.user,
            action: r.action,
            before: r.before_json.unwrap_or_default(),
            after: r.after_json.unwrap_or_default(),
        })
        .collect();
    Ok(AuditPage {
        layout,
        lines,
        older,
    })
}

#[cfg(test)]
mod tests;

// ---------------------------------------------------------------------------------------------
// Reset links

/// The page with a new reset link, shown once.
#[derive(Template, WebTemplate)]
#[template(path = "admin/reset_link.html")]
struct ResetLinkPage {
    layout: Layout,
    username: String,
    link: String,
}

/// The link to the reset page for `token` on the host the admin uses (`Host` header; the
/// server's listen address without one).
fn reset_url(headers: &axum::http::HeaderMap, listen: std::net::SocketAddr, token: &str) -> String {
    let host = headers
        .get(axum::http::header::HOST)
        .and_then(|h| h.to_str().ok())
        .filter(|h| {
            !h.is_empty()
                && h.chars()
                    .all(|c| c.is_ascii_alphanumeric() || ".-:[]".contains(c))
        })
        .map(str::to_string)
        .unwrap_or_else(|| listen.to_string());
    format!("http://{host}/passwort/zuruecksetzen?token={token}")
}

/// Issues a one-time reset link for account `id` and shows it once (200, not stored by any
/// cache: the link is a secret and exists nowhere else; a reload issues a new one and the old
/// one dies). The one POST of the app that does not redirect: a redirect would have to keep the
/// token in the session store.
async fn reset_link(
    State(state): State<crate::web::kit::AppState>,
    layout: Layout,
    RequireAdmin(me): RequireAdmin,
    headers: axum::http::HeaderMap,
    Path(id): Path<i64>,
) -> Result<Response, AppError> {
    let user = crate::db::user::by_id(&state.league.db().read, id)
        .await
        .map_err(|e| AppError::Internal(e.to_string()))?
        .ok_or(AppError::NotFound)?;
    let token = accounts::issue_reset(state.league.db(), &user.username, &me.username).await?;
    let page = ResetLinkPage {
        layout,
        link: reset_url(&headers, state.listen, &token),
        username: user.username,
    };
    Ok(([(axum::http::header::CACHE_CONTROL, "no-store")], page).into_response())
}

// ---------------------------------------------------------------------------------------------
// The club's settings

/// The settings page.
#[derive(Template, WebTemplate)]
#[template(path = "admin/settings.html")]
struct SettingsPage {
    layout: Layout,
    account_name: String,
    iban: String,
    bic: String,
    paypal_me: String,
    money_private: bool,
    error: Option<String>,
}

/// The settings form's fields.
#[derive(Deserialize)]
pub struct SettingsForm {
    /// Kontoinhaber.
    #[serde(default)]
    pub account_name: String,
    /// IBAN.
    #[serde(default)]
    pub iban: String,
    /// BIC.
    #[serde(default)]
    pub bic: String,
    /// PayPal.me name.
    #[serde(default)]
    pub paypal_me: String,
    /// Present when "Kasse nur für Mitglieder" is ticked.
    pub money_private: Option<String>,
}

async fn settings_page(State(league): State<League>, layout: Layout) -> SettingsPage {
    let s = league.settings();
    SettingsPage {
        layout,
        account_name: s.account_name.clone(),
        iban: s.iban.clone(),
        bic: s.bic.clone(),
        paypal_me: s.paypal_me.clone(),
        money_private: s.money_private,
        error: None,
    }
}

async fn save_settings(
    State(league): State<League>,
    layout: Layout,
    flash: Flash,
    RequireAdmin(me): RequireAdmin,
    Form(form): Form<SettingsForm>,
) -> Result<Response, AppError> {
    let input = crate::service::settings::SettingsInput {
        account_name: form.account_name.clone(),
        iban: form.iban.clone(),
        bic: form.bic.clone(),
        paypal_me: form.paypal_me.clone(),
        money_private: form.money_private.is_some(),
    };
    match league.set_settings(&input, &me.username).await {
        Ok(s) => Ok(flash
            .redirect(
                "/verwaltung/einstellungen",
                if s.money_private {
                    "Einstellungen gespeichert. Die Kasse ist jetzt nur für Mitglieder sichtbar."
                } else {
                    "Einstellungen gespeichert. Die Kasse ist öffentlich."
                },
            )
            .await),
        Err(ServiceError::Refused(e) | ServiceError::Full(e)) => Ok((
            StatusCode::UNPROCESSABLE_ENTITY,
            SettingsPage {
                layout,
                account_name: form.account_name,
                iban: form.iban,
                bic: form.bic,
                paypal_me: form.paypal_me,
                money_private: input.money_private,
                error: Some(e.to_string()),
            },
        )
            .into_response()),
        Err(e) => Err(e.into()),
    }
}
