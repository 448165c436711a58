//! Administration (SECURITY.md "Access"): admins list, add, disable and enable accounts and read
//! the audit log; secretaries close a Spielabend. Closed nights change only through a Korrektur
//! ([`KorrekturFields`] on every form that changes a night), which the write pipeline checks and
//! the database enforces.

use askama::Template;
use askama_web::WebTemplate;
use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Form;
use serde::Deserialize;

use super::extract::Flash;
use super::{AppError, Guard, Layout, Routes};
use crate::auth::{RequireAdmin, Role};
use crate::league::Korrektur;
use crate::service::{accounts, League, ServiceError};

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
    /// `admin` or `secretary`.
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
        Err(ServiceError::Refused(e)) => Ok((
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
