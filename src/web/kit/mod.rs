//! The web kit: what every page uses and that imports no feature. The shared state, the route
//! table and its guards (`routes`), the one error and refusal responder (`error`, `respond`), the
//! session and link extractors (`session`), the client of a request behind a trusted proxy or not
//! (`client`), the page layout and flash message (`layout`), the path
//! extractors (`at`), form helpers (`form`), the once/unsent guards, the page cache, the security
//! headers, the German answers for the framework's refusals (`germanize`), the askama filters and
//! the HTTP server.

pub mod assets;
pub mod at;
pub mod client;
pub mod error;
pub mod filters;
pub mod form;
pub mod germanize;
pub mod layout;
pub mod links;
pub mod once;
pub mod page_cache;
pub mod privacy;
pub mod qr;
pub mod respond;
pub mod routes;
pub mod security;
pub mod server;
pub mod session;
pub mod unsent;

use std::net::SocketAddr;
use std::sync::Arc;

use axum::extract::FromRef;

use crate::auth::throttle::LoginThrottle;
use crate::service::League;
pub use at::{AtNight, AtRound, AtSeason, AtTable};
pub use error::{ApiError, AppError};
pub use layout::{Flash, Layout, Today};
pub use respond::{finish, Reply, Stored};
pub use routes::{Guard, RouteInfo, Routes};

/// The state every handler shares: the league (snapshot and write pipeline) and the login
/// throttle. Handlers ask for what they use (`State<League>`).
#[derive(Clone, Debug)]
pub struct AppState {
    /// The league.
    pub league: League,
    /// The address the server listens on.
    pub listen: SocketAddr,
    /// Failed logins per account (SECURITY.md "Login limits").
    pub throttle: Arc<LoginThrottle>,
    /// Rendered public pages of the current snapshot, for anonymous visitors.
    pub pages: Arc<page_cache::PageCache>,
    /// Cookies are marked `Secure` (served behind TLS).
    pub secure_cookies: bool,
    /// The forms carried out, so that one sent again is not carried out twice.
    pub once: Arc<once::Submitted>,
    /// The address behind the HTTPS proxy (`--public-url`): the links pages show start with it
    /// ([`links::PublicAddress`]).
    pub public_url: Option<crate::service::status::PublicUrl>,
}

impl FromRef<AppState> for League {
    fn from_ref(state: &AppState) -> Self {
        state.league.clone()
    }
}
