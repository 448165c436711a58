//! The one way a write handler ends (DEVELOPERS.md "How a change flows"): the change stored →
//! a redirect with a flash message (Post/Redirect/Get, a reload books nothing twice); refused →
//! the same page again with what was typed and the reason at the top, 422; a fault → the error
//! page (500, or 404 for what does not exist). The service tells the refusal from the fault
//! ([`ServiceError::into_refusal`]); the form's own shape checks are refusals too
//! (`ServiceError::refused`).

use axum::extract::{FromRef, FromRequestParts};
use axum::http::request::Parts;
use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};

use super::{AppError, AppState, Flash, Layout};
use crate::service::{League, Refusal, RefusalKind, SeasonView, ServiceError, RETRY_AFTER_SECS};

/// Where a stored change leads: 303 to `to`, the next page showing `message` once.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Stored {
    /// The path (with `#anchor`) the browser goes to.
    pub to: String,
    /// The flash message ("Runde 3 an Tisch 1 gespeichert.").
    pub message: String,
}

impl Stored {
    /// To `to` with `message`.
    pub fn at(to: impl Into<String>, message: impl Into<String>) -> Stored {
        Stored {
            to: to.into(),
            message: message.into(),
        }
    }
}

/// The status of a form that comes back refused: 422 (the page again, nothing stored), or 503
/// for a busy database (send it again in a moment).
pub fn refused_status(refusal: &Refusal) -> StatusCode {
    match refusal.kind {
        RefusalKind::Busy => StatusCode::SERVICE_UNAVAILABLE,
        _ => StatusCode::UNPROCESSABLE_ENTITY,
    }
}

/// When to try again after `seconds` (a 429's `Retry-After`), in German: "Bitte in einer
/// Sekunde / 6 Sekunden / 60 Minuten erneut versuchen." (minutes from a minute on, rounded up).
pub fn try_again_in(seconds: u64) -> String {
    let when = match seconds {
        0 | 1 => "einer Sekunde".to_string(),
        2..=59 => format!("{seconds} Sekunden"),
        _ => match seconds.div_ceil(60) {
            1 => "einer Minute".to_string(),
            m => format!("{m} Minuten"),
        },
    };
    format!("Bitte in {when} erneut versuchen.")
}

/// `Retry-After` for a refusal that asks to send again (a busy database), else nothing.
pub fn retry_after(refusal: &Refusal) -> Option<HeaderValue> {
    (refusal.kind == RefusalKind::Busy)
        .then(|| HeaderValue::from_str(&RETRY_AFTER_SECS.to_string()).ok())
        .flatten()
}

/// Ends a form submission whose change gave `done`: stored → `stored(value)`'s redirect with its
/// flash message; refused → the page `again(refusal)` renders (what was typed, the reason at the
/// top), answered with [`refused_status`]; any other failure → the error page.
pub async fn finish<T, P: IntoResponse>(
    flash: Flash,
    done: Result<T, ServiceError>,
    stored: impl FnOnce(T) -> Stored,
    again: impl AsyncFnOnce(Refusal) -> Result<P, AppError>,
) -> Result<Response, AppError> {
    match done {
        Ok(value) => {
            let s = stored(value);
            Ok(flash.redirect(&s.to, s.message).await)
        }
        Err(e) => {
            let refusal = e.into_refusal()?;
            let status = refused_status(&refusal);
            let retry = retry_after(&refusal);
            let mut page = again(refusal).await?.into_response();
            *page.status_mut() = status;
            if let Some(retry) = retry {
                page.headers_mut().insert(header::RETRY_AFTER, retry);
            }
            Ok(page)
        }
    }
}

/// What a write handler answers with: the league (to read the page again after a refusal), the
/// page's layout and the flash slot (for the redirect). An extractor: `reply: Reply` in a
/// handler's arguments, `reply.finish(…)` at its end.
pub struct Reply {
    /// The league.
    pub league: League,
    /// The layout of the page shown again after a refusal.
    pub layout: Layout,
    /// The flash slot of the redirect after a stored change.
    pub flash: Flash,
}

impl FromRequestParts<AppState> for Reply {
    type Rejection = Response;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, Response> {
        Ok(Reply {
            league: League::from_ref(state),
            layout: Layout::from_request_parts(parts, state).await?,
            flash: Flash::from_request_parts(parts, state).await?,
        })
    }
}

impl Reply {
    /// [`finish`] with this reply's flash slot; `again` gets the refusal and the layout.
    pub async fn finish<T, P: IntoResponse>(
        self,
        done: Result<T, ServiceError>,
        stored: impl FnOnce(T) -> Stored,
        again: impl AsyncFnOnce(Refusal, Layout) -> Result<P, AppError>,
    ) -> Result<Response, AppError> {
        let layout = self.layout;
        finish(self.flash, done, stored, async |refusal| {
            again(refusal, layout).await
        })
        .await
    }
}

impl Reply {
    /// [`Reply::finish`] for a form of a season's page: stored → `to` with the message the change
    /// gave; refused → `page(layout, the season as it is now, the reason)`.
    pub async fn finish_season<P: IntoResponse>(
        self,
        year: i32,
        done: Result<String, ServiceError>,
        to: String,
        page: impl FnOnce(Layout, &SeasonView, String) -> P,
    ) -> Result<Response, AppError> {
        let league = self.league.clone();
        self.finish(
            done,
            |message| Stored::at(to, message),
            async |refusal, layout| {
                let snapshot = league.snapshot();
                let view = snapshot.season(year)?;
                Ok(page(layout, view, refusal.to_string()))
            },
        )
        .await
    }
}
