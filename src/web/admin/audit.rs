//! The audit log (SECURITY.md "Audit"): every change of league data and accounts with its author,
//! before and after, for the admin.

use askama::Template;
use askama_web::WebTemplate;
use axum::extract::{Query, State};
use serde::Deserialize;

use crate::service::League;
use crate::web::kit::{AppError, Layout};

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
pub struct AuditPage {
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

/// `GET /verwaltung/protokoll`: the audit log, newest first, a page of rows at a time.
pub async fn get(
    State(league): State<League>,
    layout: Layout,
    Query(q): Query<AuditQuery>,
) -> Result<AuditPage, AppError> {
    let rows = league.audit_log(q.vor, AUDIT_PAGE).await?;
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
