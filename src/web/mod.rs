//! The web: a thin, typed layer over `service`, in rooms by concern. `kit` is what every page uses
//! and imports no feature (route table and guards, the one error and refusal responder, session
//! extractors, layout and flash, form helpers, once/unsent, page cache, security headers, the
//! server); the feature rooms are `entry` (a night's entry: night page, round form, paper sheet,
//! scorer links, Schockbesteck), `public` (what everybody reads), `money` (Kasse, Strafen,
//! Jahresabschluss, the Kassenwart), `admin` (Verwaltung: seasons, accounts, settings, login) and
//! `api` (the JSON API). Templates mirror the rooms (`templates/<room>/`).
//!
//! Every route is one line of the route table ([`route_table`]), grouped by its guard. Handlers
//! read the league's in-memory snapshot (no SQL) and send every change through the service's write
//! pipeline; a POST answers with a redirect (Post/Redirect/Get) and a flash message, or with its
//! form again (422) keeping what was typed. Anonymous GETs of public routes are served from a
//! rendered-page cache keyed by the snapshot (`kit::page_cache`).

pub mod admin;
pub mod api;
pub mod entry;
pub mod kit;
pub mod money;
pub mod public;

use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;

use axum::Router;
use tower_http::compression::{CompressionLayer, CompressionLevel};
use tower_http::trace::TraceLayer;

use crate::auth::throttle::LoginThrottle;
use crate::service::League;
pub use kit::links::links;
pub use kit::{AppState, Guard, RouteInfo, Routes};

/// What the server needs to start.
#[derive(Debug, Clone)]
pub struct Config {
    /// The SQLite database file (created with its schema when missing).
    pub database: PathBuf,
    /// The address the server listens on (also used in the printed setup link).
    pub listen: SocketAddr,
    /// Mark the session cookie `Secure` (only when served over TLS).
    pub secure_cookies: bool,
    /// Where the instant comes from (the system clock; tests put a fixed one).
    pub clock: Arc<dyn crate::service::clock::Clock>,
    /// The club's time zone from `--timezone` (wins over the settings); `None`: the settings'.
    pub timezone: Option<chrono_tz::Tz>,
    /// The address behind the HTTPS proxy (`--public-url`): the printed setup link and every link
    /// a page shows (password reset, scorer links, the night report) use it.
    pub public_url: Option<crate::service::status::PublicUrl>,
    /// The page cache's bound in bytes (`kit::page_cache::MAX_BYTES` by default).
    pub page_cache_bytes: usize,
    /// The reverse proxies in front (`--trusted-proxy`): only from these is the client taken from
    /// `X-Forwarded-For` (`kit::client`); empty: the peer address is the client.
    pub trusted_proxies: Vec<std::net::IpAddr>,
}

impl Config {
    /// The defaults of interchange.md: `schockerliga.db`, `127.0.0.1:3000`, no TLS, the system
    /// clock, the settings' time zone.
    pub fn new(database: PathBuf, listen: SocketAddr) -> Config {
        Config {
            database,
            listen,
            secure_cookies: false,
            clock: Arc::new(crate::service::clock::SystemClock),
            timezone: None,
            public_url: None,
            page_cache_bytes: kit::page_cache::MAX_BYTES,
            trusted_proxies: Vec::new(),
        }
    }
}

/// Every route of the application, room by room.
fn routes() -> Routes {
    public::routes()
        .merge(entry::routes())
        .merge(money::routes())
        .merge(admin::routes())
        .merge(api::routes())
}

/// The route table: every route's guard, method and path, sorted. What the router is built from
/// (and what the access tests walk).
pub fn route_table() -> Vec<RouteInfo> {
    routes().table()
}

/// Opens the database (creating it with its schema) and reads the league, prints the one-time
/// setup link when no account exists, and builds the whole application with sessions
/// (SameSite=Strict, HttpOnly, `Secure` per config, idle expiry), the protections of
/// [`kit::security::protect`] (HSTS with an https `--public-url`), the client of each request
/// ([`kit::client::identify`], behind `trusted_proxies`) and tracing. The league follows writes of other processes
/// ([`League::watch`]). Serve it with [`kit::server::serve`] (or axum's
/// `into_make_service_with_connect_info::<SocketAddr>()`) so that the login limits see client
/// addresses.
pub async fn build_app(config: Config) -> anyhow::Result<Router> {
    Ok(build(config).await?.0)
}

/// Like [`build_app`], and also the [`League`] behind it (to close its database after serving).
pub async fn build(config: Config) -> anyhow::Result<(Router, League)> {
    let setup = crate::service::Setup {
        clock: config.clock.clone(),
        timezone: config.timezone,
    };
    let league = League::open_with(&config.database, setup).await?;
    // Rounds confirmed from the Schockbesteck before their throws were kept get them back from the
    // audit log (once; a failure only loses the Glücksfaktor of those rounds).
    match league.restore_confirmed_throws().await {
        Ok(0) => {}
        Ok(n) => {
            tracing::info!("Würfe von {n} Schockbesteck-Runden aus dem Protokoll übernommen");
            league.refresh().await?;
        }
        Err(e) => tracing::warn!("Würfe aus dem Protokoll nicht übernommen: {e}"),
    }
    league.watch();
    if let Some(token) = league.setup_token().await? {
        let interfaces: Vec<std::net::IpAddr> = if_addrs::get_if_addrs()
            .map(|all| all.iter().map(|i| i.ip()).collect())
            .unwrap_or_default();
        let links = match &config.public_url {
            Some(url) => vec![url.link(&format!("/setup?token={token}"))],
            None => kit::links::setup_links(config.listen, &interfaces, &token),
        };
        for link in links {
            tracing::warn!("Noch kein Konto: ersten Admin anlegen unter {link}");
        }
    }
    let sessions = kit::session::session_layer(&league, config.secure_cookies).await?;
    let state = AppState {
        league: league.clone(),
        listen: config.listen,
        throttle: Arc::new(LoginThrottle::new()),
        pages: Arc::new(kit::page_cache::PageCache::with_bound(
            config.page_cache_bytes,
        )),
        secure_cookies: config.secure_cookies,
        once: Default::default(),
        public_url: config.public_url.clone(),
    };
    // Pages go out gzip-compressed to a client that asks for it (every phone browser): a season
    // table of ~30 KB travels as ~5 KB over the bar's mobile network. Fastest level: the
    // compression costs less than rendering the page.
    let https = config.public_url.as_ref().is_some_and(|u| u.is_https());
    let app = kit::security::protect(kit::routes::router(state, routes()).layer(sessions), https)
        .layer(CompressionLayer::new().quality(CompressionLevel::Fastest))
        .layer(TraceLayer::new_for_http().make_span_with(kit::security::request_span));
    // Outermost: the request log and every per-client limit count the same client.
    let app = kit::client::identify(app, config.trusted_proxies.clone());
    Ok((app, league))
}

#[cfg(test)]
mod tests;
