//! Administration (SECURITY.md "Access"): admins list, add, disable and enable accounts and read
//! the audit log; secretaries close a Spielabend. Closed nights change only through a correction
//! ([`KorrekturFields`], [`open_for_change`]), which the database enforces.

use askama::Template;
use askama_web::WebTemplate;
use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Redirect, Response};
use axum::routing::{get, post};
use axum::{Form, Router};
use serde::Deserialize;
use serde_json::json;

use super::{AppError, AppState};
use crate::auth::{self, CurrentUser, RequireAdmin, RequireSecretary, Role};
use crate::db::{self, WriteTx};

/// The routes of this feature (all need a login; see the route table test in `tests/security.rs`).
pub fn router() -> Router<AppState> {
    Router::new()
        .route("/verwaltung/konten", get(accounts).post(add_account))
        .route("/verwaltung/konten/{id}/sperren", post(disable_account))
        .route("/verwaltung/konten/{id}/entsperren", post(enable_account))
        .route("/verwaltung/protokoll", get(audit_log))
        .route("/verwaltung/abend/{date}/abschliessen", post(close_night))
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
    user: Option<CurrentUser>,
    accounts: Vec<AccountLine>,
    username: String,
    role: String,
    error: Option<String>,
    notice: Option<String>,
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
    match Role::parse(role) {
        Some(Role::Admin) => "Admin",
        Some(Role::Secretary) => "Schriftführer",
        None => "?",
    }
}

async fn account_lines(state: &AppState, me: &CurrentUser) -> Result<Vec<AccountLine>, AppError> {
    Ok(db::user::list(&state.read)
        .await?
        .into_iter()
        .map(|u| AccountLine {
            id: u.id,
            role: role_label(&u.role),
            disabled: u.disabled,
            is_self: u.id == me.id,
            username: u.username,
        })
        .collect())
}

/// The query of the accounts page: a notice after a change.
#[derive(Deserialize)]
pub struct NoticeQuery {
    /// `angelegt`, `gesperrt` or `entsperrt`.
    pub ok: Option<String>,
}

async fn accounts(
    State(state): State<AppState>,
    RequireAdmin(me): RequireAdmin,
    Query(q): Query<NoticeQuery>,
) -> Result<AccountsPage, AppError> {
    let notice = match q.ok.as_deref() {
        Some("angelegt") => Some("Konto angelegt.".to_string()),
        Some("gesperrt") => Some("Konto gesperrt; seine Sitzungen sind beendet.".to_string()),
        Some("entsperrt") => Some("Konto entsperrt.".to_string()),
        _ => None,
    };
    Ok(AccountsPage {
        accounts: account_lines(&state, &me).await?,
        user: Some(me),
        username: String::new(),
        role: "secretary".to_string(),
        error: None,
        notice,
    })
}

async fn add_account(
    State(state): State<AppState>,
    RequireAdmin(me): RequireAdmin,
    Form(form): Form<AddAccountForm>,
) -> Result<Response, AppError> {
    let username = form.username.trim().to_string();
    let checked = super::auth::check_new_account(&username, &form.password, &form.password2)
        .and_then(|()| Role::parse(&form.role).ok_or_else(|| "Unbekannte Rolle.".to_string()));
    let role = match checked {
        Ok(r) => r,
        Err(e) => return refuse_add(&state, me, form, e).await,
    };
    let hash = auth::hash_password(form.password.clone()).await?;
    let mut tx = state.begin_write_as(&me).await?;
    if db::user::by_username_conn(&mut tx, &username)
        .await?
        .is_some()
    {
        drop(tx);
        let msg = format!("Ein Konto \"{username}\" gibt es schon.");
        return refuse_add(&state, me, form, msg).await;
    }
    let id = db::user::create(&mut tx, &username, &hash, role.as_str()).await?;
    db::audit::record(
        &mut tx,
        &me.username,
        &format!("Konto {username} angelegt"),
        None,
        Some(&json!({ "id": id, "username": username, "role": role.as_str() })),
    )
    .await?;
    tx.commit().await?;
    Ok(Redirect::to("/verwaltung/konten?ok=angelegt").into_response())
}

/// Answers 422 with the accounts page, the typed name and role kept and `error` shown.
async fn refuse_add(
    state: &AppState,
    me: CurrentUser,
    form: AddAccountForm,
    error: String,
) -> Result<Response, AppError> {
    Ok((
        StatusCode::UNPROCESSABLE_ENTITY,
        AccountsPage {
            accounts: account_lines(state, &me).await?,
            user: Some(me),
            username: form.username,
            role: form.role,
            error: Some(error),
            notice: None,
        },
    )
        .into_response())
}

async fn disable_account(
    State(state): State<AppState>,
    RequireAdmin(me): RequireAdmin,
    Path(id): Path<i64>,
) -> Result<Redirect, AppError> {
    set_disabled(&state, &me, id, true).await?;
    Ok(Redirect::to("/verwaltung/konten?ok=gesperrt"))
}

async fn enable_account(
    State(state): State<AppState>,
    RequireAdmin(me): RequireAdmin,
    Path(id): Path<i64>,
) -> Result<Redirect, AppError> {
    set_disabled(&state, &me, id, false).await?;
    Ok(Redirect::to("/verwaltung/konten?ok=entsperrt"))
}

/// Disables or enables account `id` with an audit row; an admin cannot disable himself (the last
/// admin would lock the club out).
async fn set_disabled(
    state: &AppState,
    me: &CurrentUser,
    id: i64,
    disabled: bool,
) -> Result<(), AppError> {
    if disabled && id == me.id {
        return Err(AppError::BadRequest(
            "Das eigene Konto kann nicht gesperrt werden.".to_string(),
        ));
    }
    let mut tx = state.begin_write_as(me).await?;
    let user = db::user::by_id_conn(&mut tx, id)
        .await?
        .ok_or(AppError::NotFound)?;
    if user.disabled == disabled {
        return Ok(());
    }
    db::user::set_disabled(&mut tx, id, disabled).await?;
    let verb = if disabled { "gesperrt" } else { "entsperrt" };
    db::audit::record(
        &mut tx,
        &me.username,
        &format!("Konto {} {verb}", user.username),
        Some(&json!({ "id": id, "disabled": user.disabled })),
        Some(&json!({ "id": id, "disabled": disabled })),
    )
    .await?;
    tx.commit().await?;
    Ok(())
}

/// One audit row, formatted.
pub struct AuditLine {
    /// `audit_log.id`.
    pub id: i64,
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
    user: Option<CurrentUser>,
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
    State(state): State<AppState>,
    RequireAdmin(me): RequireAdmin,
    Query(q): Query<AuditQuery>,
) -> Result<AuditPage, AppError> {
    let rows = db::audit::recent(&state.read, q.vor, AUDIT_PAGE).await?;
    let older = if rows.len() as i64 == AUDIT_PAGE {
        rows.last().map(|r| r.id)
    } else {
        None
    };
    let lines = rows
        .into_iter()
        .map(|r| AuditLine {
            id: r.id,
            at: de_timestamp(&r.at),
            user: r.user,
            action: r.action,
            before: r.before_json.unwrap_or_default(),
            after: r.after_json.unwrap_or_default(),
        })
        .collect();
    Ok(AuditPage {
        user: Some(me),
        lines,
        older,
    })
}

async fn close_night(
    State(state): State<AppState>,
    RequireSecretary(me): RequireSecretary,
    Path(date): Path<String>,
) -> Result<Redirect, AppError> {
    let date = super::path_date(&date)?;
    let mut tx = state.begin_write_as(&me).await?;
    let night = super::night_on(&mut tx, date).await?;
    if db::closing::close(&mut tx, night.id).await? {
        db::audit::record(
            &mut tx,
            &me.username,
            &format!("Spielabend {} abgeschlossen", super::de_date(date)),
            Some(&json!({ "night": date, "closed": false })),
            Some(&json!({ "night": date, "closed": true })),
        )
        .await?;
    }
    tx.commit().await?;
    Ok(Redirect::to(&format!("/verwaltung/abend/{date}#abschluss")))
}

/// The fields a form that changes a night carries for a closed night: the "Korrektur" tick box
/// (`korrektur=on`) and its reason (`korrektur_grund`). Add them to the form struct with
/// `#[serde(flatten)]` and to the template with `{% include "admin/korrektur.html" %}`.
#[derive(Debug, Default, Clone, Deserialize)]
pub struct KorrekturFields {
    /// Present (any value) when the box "Korrektur" is ticked.
    #[serde(default)]
    pub korrektur: Option<String>,
    /// Why the closed night is corrected.
    #[serde(default)]
    pub korrektur_grund: String,
}

impl KorrekturFields {
    /// The fields out of a form read as name/value pairs (`korrektur`, `korrektur_grund`).
    pub fn from_pairs(pairs: &[(String, String)]) -> KorrekturFields {
        let get = |name: &str| super::form_field(pairs, name).map(str::to_string);
        KorrekturFields {
            korrektur: get("korrektur"),
            korrektur_grund: get("korrektur_grund").unwrap_or_default(),
        }
    }
}

/// Longest accepted correction reason, in characters.
pub const MAX_REASON_CHARS: usize = 500;

/// Call inside the write transaction before changing night `night_id`: for an open night returns
/// `Ok(None)`; for a closed one it requires the ticked box and a reason (else 400 with the German
/// reason), opens a correction and writes its audit row, and returns its id, which must be passed to
/// [`finish_change`] before the commit. Unknown night: 404.
pub async fn open_for_change(
    tx: &mut WriteTx,
    night_id: i64,
    user: &CurrentUser,
    fields: &KorrekturFields,
) -> Result<Option<i64>, AppError> {
    let closed = db::closing::is_closed(tx, night_id)
        .await?
        .ok_or(AppError::NotFound)?;
    if !closed {
        return Ok(None);
    }
    let reason = fields.korrektur_grund.trim();
    // Where: the night's date leads every refusal.
    let night = match db::night::get(tx, night_id).await? {
        Some(n) => format!("Abend {}", super::de_date(n.date)),
        None => "Abend".to_string(),
    };
    if fields.korrektur.is_none() {
        return Err(AppError::BadRequest(format!(
            "{night}: der Spielabend ist abgeschlossen: Änderungen nur mit Häkchen „Korrektur“ und Grund."
        )));
    }
    if reason.is_empty() || reason.chars().count() > MAX_REASON_CHARS {
        return Err(AppError::BadRequest(format!(
            "{night}: eine Korrektur braucht einen Grund (1 bis {MAX_REASON_CHARS} Zeichen)."
        )));
    }
    let id = db::closing::begin_correction(tx, night_id, &user.username, reason).await?;
    db::audit::record(
        tx,
        &user.username,
        &format!("Korrektur eines abgeschlossenen Spielabends: {reason}"),
        None,
        Some(&json!({ "night_id": night_id, "correction": id })),
    )
    .await?;
    Ok(Some(id))
}

/// [`open_for_change`] for a form that shows its own refusal: `Ok(Ok(correction))` to go on,
/// `Ok(Err(German reason))` when the night is closed and the box "Korrektur" or the reason is
/// missing (render the form again with 422 and the typed values; nothing was written), `Err` for
/// any other failure.
pub async fn korrektur_or_refusal(
    tx: &mut WriteTx,
    night_id: i64,
    user: &CurrentUser,
    fields: &KorrekturFields,
) -> Result<Result<Option<i64>, String>, AppError> {
    match open_for_change(tx, night_id, user, fields).await {
        Ok(correction) => Ok(Ok(correction)),
        Err(AppError::BadRequest(why)) => Ok(Err(why)),
        Err(e) => Err(e),
    }
}

/// Ends the correction opened by [`open_for_change`] (no-op for `None`); call before the commit.
pub async fn finish_change(tx: &mut WriteTx, correction: Option<i64>) -> Result<(), AppError> {
    if let Some(id) = correction {
        db::closing::end_correction(tx, id).await?;
    }
    Ok(())
}

#[cfg(test)]
#[path = "tests/admin.rs"]
mod tests;
