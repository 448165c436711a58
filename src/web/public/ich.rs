//! „Das bin ich“ (issue 10.6): a visitor marks a player as himself with a cookie (`ich=<players.id>`,
//! no account). The table then highlights his row and the home page shows his progress first.
//! Nothing of it reaches other visitors: the page cache neither serves nor keeps a request that
//! carries any cookie, and a page rendered for the cookie is marked `Cache-Control: private` and
//! `Vary: Cookie` for the caches between.

use axum::extract::FromRequestParts;
use axum::http::request::Parts;
use axum::http::{header, HeaderValue};
use axum::response::{IntoResponse, Redirect, Response};
use serde::Deserialize;

use crate::web::kit::{AppError, AppState, Guard, Routes};

/// The cookie's name.
pub const COOKIE: &str = "ich";

/// The cookie lives a year (seconds).
const MAX_AGE: u32 = 365 * 24 * 3600;

/// The routes of this feature.
pub fn routes() -> Routes {
    Routes::new()
        .post(Guard::Public, "/ich", set)
        .post(Guard::Public, "/ich/vergessen", forget)
}

/// The player (`players.id`) the visitor said he is, from the `ich` cookie; `None` without one.
#[derive(Debug, Clone, Copy, Default)]
pub struct Me(pub Option<i64>);

impl FromRequestParts<AppState> for Me {
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(parts: &mut Parts, _: &AppState) -> Result<Me, Self::Rejection> {
        Ok(Me(me_of(&parts.headers)))
    }
}

/// The `ich` cookie's player id in `headers`, if any and a number.
pub fn me_of(headers: &axum::http::HeaderMap) -> Option<i64> {
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|pair| pair.trim().split_once('='))
        .find(|(k, _)| *k == COOKIE)
        .and_then(|(_, v)| v.trim().parse().ok())
}

/// `resp` marked for no shared cache (`private`, `Vary: Cookie`) when it was rendered for `me`.
pub fn personal(me: Me, mut resp: Response) -> Response {
    if me.0.is_some() {
        let h = resp.headers_mut();
        h.insert(
            header::CACHE_CONTROL,
            HeaderValue::from_static("private, no-store"),
        );
        h.append(header::VARY, HeaderValue::from_static("Cookie"));
    }
    resp
}

/// The „Das bin ich“ form: the player's id and the page to return to.
#[derive(Deserialize)]
pub struct IchForm {
    /// `players.id`.
    pub spieler: i64,
    /// Where to go back to (a local path); the home page when missing or not local.
    #[serde(default)]
    pub zurueck: String,
}

/// A path of this site to go back to, else `/`: starts with one `/` (not `//`), and only
/// visible ASCII without `\\` (no TAB, CR, LF or space: browsers drop TAB and line breaks from a
/// `Location`, so `/\t/evil.example` would lead to another site, and a CR is no header at all).
fn back(to: &str) -> &str {
    let visible = to.bytes().all(|b| b.is_ascii_graphic() && b != b'\\');
    if visible && to.starts_with('/') && !to.starts_with("//") {
        to
    } else {
        "/"
    }
}

/// Sets the `ich` cookie to a known player and sends the visitor back (404 for an unknown player).
async fn set(
    axum::extract::State(state): axum::extract::State<AppState>,
    axum::extract::Form(f): axum::extract::Form<IchForm>,
) -> Result<Response, AppError> {
    state
        .league
        .snapshot()
        .player_name(f.spieler)
        .ok_or(AppError::NotFound)?;
    let secure = if state.secure_cookies { "; Secure" } else { "" };
    let cookie = format!(
        "{COOKIE}={}; Path=/; Max-Age={MAX_AGE}; SameSite=Lax; HttpOnly{secure}",
        f.spieler
    );
    let mut resp = Redirect::to(back(&f.zurueck)).into_response();
    let value = HeaderValue::from_str(&cookie).map_err(|e| AppError::Internal(e.to_string()))?;
    resp.headers_mut().append(header::SET_COOKIE, value);
    Ok(resp)
}

/// The form of „Das bin ich nicht“: only where to go back to.
#[derive(Deserialize)]
pub struct ForgetForm {
    /// Where to go back to (a local path).
    #[serde(default)]
    pub zurueck: String,
}

/// Deletes the `ich` cookie and sends the visitor back.
async fn forget(axum::extract::Form(f): axum::extract::Form<ForgetForm>) -> Response {
    let mut resp = Redirect::to(back(&f.zurueck)).into_response();
    resp.headers_mut().append(
        header::SET_COOKIE,
        HeaderValue::from_static("ich=; Path=/; Max-Age=0; SameSite=Lax; HttpOnly"),
    );
    resp
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_cookie_is_read_among_others_and_only_as_a_number() {
        let cases = [
            ("id=abc; ich=7", Some(7)),
            ("ich=12", Some(12)),
            ("ich=x", None),
            ("dich=3", None),
            ("id=1", None),
        ];
        for (cookie, want) in cases {
            let mut h = axum::http::HeaderMap::new();
            h.insert(header::COOKIE, HeaderValue::from_static(cookie));
            assert_eq!(me_of(&h), want, "{cookie}");
        }
        assert_eq!(back("//evil"), "/");
        assert_eq!(back("https://x"), "/");
        assert_eq!(back("/saison/2026"), "/saison/2026");
        assert_eq!(back("/abend/2027-01-08#zusage"), "/abend/2027-01-08#zusage");
        for hostile in [
            "/\t/evil.example",
            "/x\r\nSet-Cookie: a=b",
            "/\\evil",
            "/a b",
            "/ä",
        ] {
            assert_eq!(back(hostile), "/", "{hostile:?}");
        }
    }
}
