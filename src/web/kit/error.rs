//! The one error answer of the web: [`AppError`] (what went wrong, in German) and its error page;
//! internals are logged, never shown.

use askama::Template;
use askama_web::WebTemplate;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;

use super::Layout;
use crate::service::{RefusalKind, ServiceError, RETRY_AFTER_SECS};

/// Errors of handlers. The response hides internals: details are logged, the user sees a short
/// German message.
#[derive(Debug, thiserror::Error)]
pub enum AppError {
    /// No such season, night, player … (404).
    #[error("Nicht gefunden")]
    NotFound,
    /// A one-time link (password reset, setup) that is used, expired or unknown (404), with the
    /// German reason and what to do.
    #[error("{0}")]
    DeadLink(String),
    /// Logged in, but the role does not allow this (403).
    #[error("Keine Berechtigung")]
    Forbidden,
    /// Not allowed here, with the German reason (403): a scorer link used where it does not
    /// work.
    #[error("{0}")]
    ForbiddenBecause(String),
    /// A request that cannot be served as sent (400), with the German reason.
    #[error("{0}")]
    BadRequest(String),
    /// The night is closed (a change needs a Korrektur) or the change was made against an older
    /// state (409), with the German reason.
    #[error("{0}")]
    Closed(String),
    /// The disk is full; nothing was stored (507), with the German reason.
    #[error("{0}")]
    Full(String),
    /// The database was busy; nothing was stored, send again (503 with `Retry-After`).
    #[error("{0}")]
    Busy(String),
    /// Stored data that fails its checks (500, logged), with the German reason shown: which
    /// season and why, so that the club knows what to restore or repair.
    #[error("{0}")]
    Unreadable(String),
    /// Anything that failed inside (500).
    #[error("{0}")]
    Internal(String),
}

/// The German words for stored data that fails its checks (`why`: which season and why), on
/// the error page and in the JSON API alike.
fn unreadable(why: &str) -> String {
    format!("Die gespeicherten Daten lassen sich nicht lesen: {why}")
}

impl From<ServiceError> for AppError {
    fn from(e: ServiceError) -> Self {
        match e {
            ServiceError::NoSeason(_) | ServiceError::NotFound(_) => AppError::NotFound,
            ServiceError::Refused(err) => AppError::BadRequest(err.to_string()),
            ServiceError::Closed(err) | ServiceError::Conflict(err) => {
                AppError::Closed(err.to_string())
            }
            ServiceError::Full(err) => AppError::Full(err.to_string()),
            ServiceError::Corrupt(m) => AppError::Unreadable(m),
            e @ ServiceError::Db(_) if e.is_busy() => AppError::Busy(e.to_string()),
            ServiceError::Db(err) => AppError::Internal(err.to_string()),
            ServiceError::UpgradeStopped(m) => AppError::Internal(m),
        }
    }
}

/// The error page.
#[derive(Template, WebTemplate)]
#[template(path = "kit/error.html")]
pub struct ErrorPage {
    layout: Layout,
    title: String,
    message: String,
}

/// The German heading of an error page with `status` ("Nicht gefunden", "Keine Berechtigung", …).
pub fn title_de(status: StatusCode) -> &'static str {
    match status.as_u16() {
        400 => "Anfrage fehlerhaft",
        401 => "Nicht angemeldet",
        403 => "Keine Berechtigung",
        404 => "Nicht gefunden",
        405 => "So nicht möglich",
        408 => "Zeit abgelaufen",
        409 => "Konflikt",
        413 => "Zu groß",
        415 => "Falscher Inhaltstyp",
        422 => "Eingabe abgelehnt",
        429 => "Zu viele Anfragen",
        507 => "Speicher voll",
        503 => "Gerade belegt",
        500..=599 => "Fehler auf dem Server",
        _ => "Fehler",
    }
}

impl ErrorPage {
    /// The error page for `status` with `message`.
    pub fn new(status: StatusCode, message: String) -> ErrorPage {
        ErrorPage {
            layout: Layout::default(),
            title: title_de(status).to_string(),
            message,
        }
    }
}

impl IntoResponse for AppError {
    fn into_response(self) -> Response {
        let (status, message) = match &self {
            AppError::NotFound => (
                StatusCode::NOT_FOUND,
                "Diese Seite gibt es nicht.".to_string(),
            ),
            AppError::DeadLink(m) => (StatusCode::NOT_FOUND, m.clone()),
            AppError::Forbidden => (
                StatusCode::FORBIDDEN,
                "Dafür fehlt die Berechtigung.".to_string(),
            ),
            AppError::ForbiddenBecause(m) => (StatusCode::FORBIDDEN, m.clone()),
            AppError::BadRequest(m) => (StatusCode::BAD_REQUEST, m.clone()),
            AppError::Closed(m) => (StatusCode::CONFLICT, m.clone()),
            AppError::Full(m) => (StatusCode::INSUFFICIENT_STORAGE, m.clone()),
            AppError::Busy(m) => (StatusCode::SERVICE_UNAVAILABLE, m.clone()),
            AppError::Unreadable(m) => {
                tracing::error!(error = %self, "stored data unreadable");
                (
                    StatusCode::INTERNAL_SERVER_ERROR,
                    format!(
                        "{}. Die Verwaltung kann unter Verwaltung → Sicherung eine Sicherung \
                         zurückspielen.",
                        unreadable(m)
                    ),
                )
            }
            AppError::Internal(_) => {
                tracing::error!(error = %self, "request failed");
                (
                    StatusCode::INTERNAL_SERVER_ERROR,
                    "Ein interner Fehler ist aufgetreten.".to_string(),
                )
            }
        };
        let mut resp = (status, ErrorPage::new(status, message)).into_response();
        if matches!(self, AppError::Busy(_)) {
            if let Ok(v) = axum::http::HeaderValue::from_str(&RETRY_AFTER_SECS.to_string()) {
                resp.headers_mut()
                    .insert(axum::http::header::RETRY_AFTER, v);
            }
        }
        resp
    }
}

/// The JSON API's one error answer: `{"error": "<German where and why>"}` with its status (the
/// shape of interchange.md). A service refusal is 422 (invalid), 409 (closed night, changed
/// meanwhile), 507 (disk full) or 503 with `Retry-After` (database busy); what does not exist 404; a fault 500, logged, its detail hidden.
#[derive(Debug)]
pub struct ApiError(pub StatusCode, pub String);

impl ApiError {
    /// The night's date of a path segment (`YYYY-MM-DD`): 404 naming the segment when it is no
    /// date.
    pub fn path_date(segment: &str) -> Result<chrono::NaiveDate, ApiError> {
        chrono::NaiveDate::parse_from_str(segment, "%Y-%m-%d").map_err(|_| {
            ApiError(
                StatusCode::NOT_FOUND,
                format!("\"{segment}\" ist kein Datum (JJJJ-MM-TT)"),
            )
        })
    }

    /// A 400 for a request that cannot be read as sent, with the German reason.
    pub fn bad_request(message: impl Into<String>) -> ApiError {
        ApiError(StatusCode::BAD_REQUEST, message.into())
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let mut resp = (self.0, Json(serde_json::json!({ "error": self.1 }))).into_response();
        if self.0 == StatusCode::SERVICE_UNAVAILABLE {
            if let Ok(v) = axum::http::HeaderValue::from_str(&RETRY_AFTER_SECS.to_string()) {
                resp.headers_mut()
                    .insert(axum::http::header::RETRY_AFTER, v);
            }
        }
        resp
    }
}

impl From<ServiceError> for ApiError {
    fn from(e: ServiceError) -> Self {
        match e.into_refusal() {
            Ok(refusal) => {
                let status = match refusal.kind {
                    RefusalKind::Invalid => StatusCode::UNPROCESSABLE_ENTITY,
                    RefusalKind::Closed | RefusalKind::Conflict => StatusCode::CONFLICT,
                    RefusalKind::Full => StatusCode::INSUFFICIENT_STORAGE,
                    RefusalKind::Busy => StatusCode::SERVICE_UNAVAILABLE,
                };
                ApiError(status, refusal.to_string())
            }
            Err(e @ (ServiceError::NoSeason(_) | ServiceError::NotFound(_))) => {
                ApiError(StatusCode::NOT_FOUND, e.to_string())
            }
            Err(ServiceError::Corrupt(m)) => {
                tracing::error!(error = %m, "api request: stored data unreadable");
                ApiError(StatusCode::INTERNAL_SERVER_ERROR, unreadable(&m))
            }
            Err(e) => {
                tracing::error!(error = %e, "api request failed");
                ApiError(
                    StatusCode::INTERNAL_SERVER_ERROR,
                    "Ein interner Fehler ist aufgetreten.".to_string(),
                )
            }
        }
    }
}
