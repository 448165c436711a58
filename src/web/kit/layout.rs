//! What every page's layout shows ([`Layout`]: the logged-in user for the navigation, the flash
//! message, the `einmal` token of its forms) and the flash message slot of a Post/Redirect/Get
//! ([`Flash`]).

use axum::extract::{FromRequestParts, OptionalFromRequestParts};
use axum::http::request::Parts;
use axum::response::{IntoResponse, Redirect, Response};
use chrono::NaiveDate;
use tower_sessions::Session;

use super::session::CurrentUser;
use super::AppState;

/// The session key of the flash message.
const FLASH_KEY: &str = "flash";

/// What every page's layout shows: the logged-in user (for the navigation) and the flash message
/// of the last redirect (shown once).
#[derive(Debug, Clone, Default)]
pub struct Layout {
    /// The logged-in user, if any.
    pub user: Option<CurrentUser>,
    /// The message of the change that led here ("Runde 3 an Tisch 1 gespeichert."), once.
    pub flash: Option<String>,
    /// The token every POST form of this page sends as `einmal` (a fresh one per page for a
    /// logged-in account, empty for visitors): see [`super::once`].
    pub once: String,
    /// The club's date of this request ([`crate::service::League::today`], the one club clock):
    /// what every "today" of a page and its forms is.
    pub today: NaiveDate,
    /// On every Verwaltung page of a logged-in account: the failed backup or probe, until a good
    /// copy exists ([`crate::service::backup::Backups::warning`]; German).
    pub backup_warning: Option<String>,
    /// The club's `--public-url` when it is HTTPS ("https://liga.example.org"): the base of the
    /// absolute picture address of [`Layout::og`].
    pub public_https: Option<String>,
    /// The request's path ("/saison/2026"), for the page's own absolute address in `og:url`.
    pub path: String,
    /// The Open Graph tags of the page (issue 38.3), set by the pages a pasted link shows with a
    /// picture: `/`, `/saison/{year}`, `/abend/{date}` and its report.
    pub og: Option<crate::web::public::bild::Og>,
}

impl Layout {
    /// The address of the static file `name` under its content-hashed name, for the page's
    /// links (`{{ layout.asset("style.css") }}` → `/static/style.3f9c2a1b.css`;
    /// [`super::assets::path`]).
    pub fn asset(&self, name: &str) -> String {
        super::assets::path(name)
    }

    /// True when the logged-in account reads the money pages and changes nothing of them (a
    /// Kassenprüfer): the money pages show no forms to him but "nur lesen" (issue 35.3).
    pub fn reads_only(&self) -> bool {
        self.user
            .as_ref()
            .is_some_and(|u| u.reads_money() && !u.handles_money())
    }

    /// The layout of `user` on the club's date `today`, no message.
    pub fn of(user: Option<CurrentUser>, today: NaiveDate) -> Layout {
        let once = if user.is_some() {
            super::once::token()
        } else {
            String::new()
        };
        Layout {
            user,
            flash: None,
            once,
            today,
            backup_warning: None,
            public_https: None,
            path: String::new(),
            og: None,
        }
    }

    /// This layout with the Open Graph tags of `picture` (none when `None`), its image at `path`
    /// ("/bild/saison/2026") when the public address is HTTPS.
    pub fn with_picture(
        self,
        picture: Option<crate::web::public::bild::Picture>,
        path: &str,
    ) -> Layout {
        let public = self.public_https.as_deref();
        let og = picture.map(|p| crate::web::public::bild::Og::of(&p, path, public, &self.path));
        Layout { og, ..self }
    }
}

impl FromRequestParts<AppState> for Layout {
    type Rejection = Response;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, Response> {
        let user =
            <CurrentUser as OptionalFromRequestParts<AppState>>::from_request_parts(parts, state)
                .await
                .map_err(IntoResponse::into_response)?;
        // Flash messages belong to logged-in secretaries and scorer links; visitors' pages stay
        // cacheable.
        let link = parts
            .extensions
            .get::<crate::service::scorer::ScorerLink>()
            .is_some();
        let mut flash = None;
        if user.is_some() || link {
            if let Ok(session) = Session::from_request_parts(parts, state).await {
                flash = session.remove::<String>(FLASH_KEY).await.ok().flatten();
            }
        }
        // A scorer link's pages have forms too: they carry `einmal` like an account's.
        let once = match (&user, link) {
            (None, true) => super::once::token(),
            _ => String::new(),
        };
        let backup_warning = match (&user, state.league.backups()) {
            (Some(_), Some(backups)) if parts.uri.path().starts_with("/verwaltung") => {
                backups.warning(&state.league.clock())
            }
            // Asked for and not running (the directory could not be made, another database's).
            (Some(_), None) if parts.uri.path().starts_with("/verwaltung") => {
                state.league.backup_problem()
            }
            _ => None,
        };
        let layout = Layout::of(user, state.league.today());
        let public_https = state
            .public_url
            .as_ref()
            .map(|u| u.as_str().trim_end_matches('/').to_string())
            .filter(|u| u.starts_with("https://"));
        Ok(Layout {
            backup_warning,
            public_https,
            path: parts.uri.path().to_string(),
            flash,
            once: if once.is_empty() {
                layout.once.clone()
            } else {
                once
            },
            ..layout
        })
    }
}

/// The flash message slot of the session: set before a redirect, shown once by the next page.
pub struct Flash(Session);

impl FromRequestParts<AppState> for Flash {
    type Rejection = Response;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, Response> {
        Session::from_request_parts(parts, state)
            .await
            .map(Flash)
            .map_err(IntoResponse::into_response)
    }
}

impl Flash {
    /// The flash slot of `session` (a handler that also needs the session itself).
    pub fn of(session: Session) -> Flash {
        Flash(session)
    }

    /// Post/Redirect/Get: keeps `message` for the next page (none when empty: a page that shows
    /// the change itself) and answers 303 to `to`.
    pub async fn redirect(self, to: &str, message: impl Into<String>) -> Response {
        let message = message.into();
        if !message.is_empty() {
            if let Err(e) = self.0.insert(FLASH_KEY, message).await {
                tracing::warn!(error = %e, "Hinweis nicht gespeichert");
            }
        }
        Redirect::to(to).into_response()
    }
}

/// The club's date of the request ([`crate::service::League::today`]) for a handler without a
/// [`Layout`] (an export's file name, a JSON answer).
#[derive(Debug, Clone, Copy)]
pub struct Today(pub NaiveDate);

impl FromRequestParts<AppState> for Today {
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(
        _parts: &mut Parts,
        state: &AppState,
    ) -> Result<Self, std::convert::Infallible> {
        Ok(Today(state.league.today()))
    }
}
