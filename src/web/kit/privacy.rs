//! "Kasse nur für Mitglieder" (SECURITY.md "Private money"): while the club keeps its money
//! private, money next to names is shown only to logged-in accounts and kept by no cache. Every
//! page that shows money goes through here (the Kasse, the Jahresabschluss, the exports, a
//! player's money card, the JSON API).

use axum::http::header;
use axum::response::{IntoResponse, Redirect, Response};

use super::Layout;

/// `None` when the league's money may be shown for this request, else (`Some`) the way to the
/// login page: while the club keeps its money private ("Kasse nur für Mitglieder") a visitor who
/// is not logged in sees no Kasse, no Jahresabschluss and no money export (SECURITY.md "Private
/// money").
pub fn money_gate(snapshot: &crate::service::Snapshot, layout: &Layout) -> Option<Response> {
    (!snapshot.money_visible(layout.user.is_some())).then(|| Redirect::to("/login").into_response())
}

/// `resp` marked `Cache-Control: private, no-store` when the club keeps its money private: such
/// a page (shown to a logged-in account) is kept by no cache, the page cache included.
pub fn private_money(snapshot: &crate::service::Snapshot, mut resp: Response) -> Response {
    if snapshot.settings.money_private {
        resp.headers_mut().insert(
            header::CACHE_CONTROL,
            axum::http::HeaderValue::from_static("private, no-store"),
        );
    }
    resp
}
