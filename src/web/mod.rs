//! The web: a thin, typed layer over `service`. Every route is one line of the route table
//! ([`route_table`]), grouped by its guard: public pages, secretary pages, admin pages and the JSON
//! API. Handlers read the league's in-memory snapshot (no SQL) and send every change through the
//! service's write pipeline; a POST answers with a redirect (Post/Redirect/Get) and a flash
//! message, or with its form again (422) keeping what was typed. Anonymous GETs of public routes
//! are served from a rendered-page cache keyed by the snapshot (`page_cache`).

pub mod account;
pub mod admin;
pub mod api;
pub mod assets;
pub mod auth;
pub mod bench;
pub mod besteck;
pub mod chart;
pub mod errors;
pub mod extract;
pub mod filters;
pub mod history;
pub mod ich;
pub mod money;
pub mod night;
pub mod once;
pub mod page_cache;
pub mod public;
pub mod regeln;
pub mod round_api;
// The game night (issue 11): live board, night report, paper sheet, season rules form.
pub mod bericht;
pub mod bogen;
pub mod live;
pub mod saisonregeln;
pub mod schiedsrichter;
pub mod scorer;
pub mod season;
pub mod security;
pub mod server;
pub mod treasurer;
pub mod unsent;
pub mod wurfrunde;

use std::collections::BTreeMap;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;

use askama::Template;
use askama_web::WebTemplate;
use axum::extract::FromRef;
use axum::handler::Handler;
use axum::http::{Method, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::MethodRouter;
use axum::Router;
use tower_http::compression::{CompressionLayer, CompressionLevel};
use tower_http::trace::TraceLayer;

use crate::auth::throttle::LoginThrottle;
use crate::auth::{CurrentUser, RequireAdmin, RequireMoney, RequireSecretary};
use crate::service::{League, ServiceError};
pub use extract::Layout;

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
    /// The address behind the HTTPS proxy (`--public-url`): the printed setup link uses it.
    pub public_url: Option<crate::service::status::PublicUrl>,
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
        }
    }
}

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
}

impl FromRef<AppState> for League {
    fn from_ref(state: &AppState) -> Self {
        state.league.clone()
    }
}

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
    /// Anything that failed inside (500).
    #[error("{0}")]
    Internal(String),
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
            ServiceError::Corrupt(m) => AppError::Internal(m),
            ServiceError::Db(err) => AppError::Internal(err.to_string()),
        }
    }
}

/// The error page.
#[derive(Template, WebTemplate)]
#[template(path = "error.html")]
struct ErrorPage {
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
        500..=599 => "Fehler auf dem Server",
        _ => "Fehler",
    }
}

impl ErrorPage {
    /// The error page for `status` with `message`.
    fn new(status: StatusCode, message: String) -> ErrorPage {
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
            AppError::Internal(_) => {
                tracing::error!(error = %self, "request failed");
                (
                    StatusCode::INTERNAL_SERVER_ERROR,
                    "Ein interner Fehler ist aufgetreten.".to_string(),
                )
            }
        };
        (status, ErrorPage::new(status, message)).into_response()
    }
}

/// Who may use a route: the guard the router puts in front of its group.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Guard {
    /// Anyone (pages, the read-only JSON API, login).
    Public,
    /// A logged-in secretary or admin; others are sent to the login page or refused (403).
    Secretary,
    /// A logged-in admin.
    Admin,
    /// A logged-in account that handles money: a Kassenwart, a secretary or an admin (fees,
    /// fines, payments, the Strafenkatalog, the Jahresabschluss).
    Money,
    /// Any logged-in account (its own password).
    Account,
    /// The holder of a scorer link (`/tisch/{token}/{date}/{table}`, no account): only that
    /// table at that night while the link works (`scorer::guard`).
    Link,
}

/// One line of the route table: guard, method and path pattern.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct RouteInfo {
    /// Who may use it.
    pub guard: Guard,
    /// The HTTP method.
    pub method: Method,
    /// The path pattern, e.g. `/verwaltung/abend/{date}`.
    pub path: &'static str,
}

/// A feature's routes: (guard, method, path, handler), collected into the route table.
#[derive(Default)]
pub struct Routes {
    entries: Vec<(RouteInfo, MethodRouter<AppState>)>,
}

impl Routes {
    /// No routes yet.
    pub fn new() -> Routes {
        Routes::default()
    }

    /// Adds `method_router` for `methods` at `path` under `guard` (for routers with layers).
    pub fn add(
        mut self,
        guard: Guard,
        methods: &[Method],
        path: &'static str,
        method_router: MethodRouter<AppState>,
    ) -> Routes {
        for (i, method) in methods.iter().enumerate() {
            let info = RouteInfo {
                guard,
                method: method.clone(),
                path,
            };
            // The method router serves all its methods: attach it once.
            let router = if i == 0 {
                method_router.clone()
            } else {
                MethodRouter::new()
            };
            self.entries.push((info, router));
        }
        self
    }

    /// Adds the GET handler `h` at `path` under `guard`.
    pub fn get<H, T>(self, guard: Guard, path: &'static str, h: H) -> Routes
    where
        H: Handler<T, AppState>,
        T: 'static,
    {
        self.add(guard, &[Method::GET], path, axum::routing::get(h))
    }

    /// Adds the POST handler `h` at `path` under `guard`.
    pub fn post<H, T>(self, guard: Guard, path: &'static str, h: H) -> Routes
    where
        H: Handler<T, AppState>,
        T: 'static,
    {
        self.add(guard, &[Method::POST], path, axum::routing::post(h))
    }

    /// Adds the DELETE handler `h` at `path` under `guard`.
    pub fn delete<H, T>(self, guard: Guard, path: &'static str, h: H) -> Routes
    where
        H: Handler<T, AppState>,
        T: 'static,
    {
        self.add(guard, &[Method::DELETE], path, axum::routing::delete(h))
    }

    /// These routes and `other`'s.
    pub fn merge(mut self, other: Routes) -> Routes {
        self.entries.extend(other.entries);
        self
    }
}

/// Every route of the application, feature by feature.
fn routes() -> Routes {
    assets::routes()
        .merge(public::routes())
        .merge(history::routes())
        .merge(ich::routes())
        .merge(api::routes())
        .merge(wurfrunde::routes())
        .merge(schiedsrichter::routes())
        .merge(regeln::routes())
        .merge(auth::routes())
        .merge(money::routes())
        .merge(season::routes())
        .merge(night::routes())
        .merge(besteck::routes())
        .merge(live::routes())
        .merge(bericht::routes())
        .merge(bogen::routes())
        .merge(saisonregeln::routes())
        .merge(round_api::routes())
        .merge(scorer::routes())
        .merge(admin::routes())
        .merge(bench::routes())
        .merge(treasurer::routes())
        .merge(account::routes())
}

/// The route table: every route's guard, method and path, sorted. What the router is built from
/// (and what the access tests walk).
pub fn route_table() -> Vec<RouteInfo> {
    let mut table: Vec<RouteInfo> = routes().entries.into_iter().map(|(i, _)| i).collect();
    table.sort();
    table
}

/// The application's routes with the shared state: one router per guard (the secretary, money,
/// admin and account groups behind their role guard), the page cache on the public group, the 404 page for the rest.
pub fn router(state: AppState) -> Router {
    let mut groups: BTreeMap<Guard, BTreeMap<&'static str, MethodRouter<AppState>>> =
        BTreeMap::new();
    for (info, handler) in routes().entries {
        let paths = groups.entry(info.guard).or_default();
        let merged = match paths.remove(info.path) {
            Some(existing) => existing.merge(handler),
            None => handler,
        };
        paths.insert(info.path, merged);
    }
    let keep_unsent = axum::middleware::from_fn_with_state(state.clone(), unsent::keep);
    let once = axum::middleware::from_fn_with_state(state.clone(), once::guard);
    let mut app = Router::new();
    for (guard, paths) in groups {
        let mut group = Router::new();
        for (path, handler) in paths {
            group = group.route(path, handler);
        }
        group =
            match guard {
                Guard::Public => group.route_layer(axum::middleware::from_fn_with_state(
                    state.clone(),
                    page_cache::serve,
                )),
                Guard::Secretary => group
                    .route_layer(once.clone())
                    .route_layer(axum::middleware::from_extractor_with_state::<
                        RequireSecretary,
                        AppState,
                    >(state.clone()))
                    .route_layer(keep_unsent.clone()),
                Guard::Admin => group
                    .route_layer(once.clone())
                    .route_layer(axum::middleware::from_extractor_with_state::<
                        RequireAdmin,
                        AppState,
                    >(state.clone()))
                    .route_layer(keep_unsent.clone()),
                Guard::Money => group
                    .route_layer(once.clone())
                    .route_layer(axum::middleware::from_extractor_with_state::<
                        RequireMoney,
                        AppState,
                    >(state.clone()))
                    .route_layer(keep_unsent.clone()),
                // A scorer link: checked on every request, its forms carried out once.
                Guard::Link => group.route_layer(once.clone()).route_layer(
                    axum::middleware::from_fn_with_state(state.clone(), scorer::guard),
                ),
                // Only the own password change: nothing of it is kept in a cookie.
                Guard::Account => group.route_layer(once.clone()).route_layer(
                    axum::middleware::from_extractor_with_state::<CurrentUser, AppState>(
                        state.clone(),
                    ),
                ),
            };
        app = app.merge(group);
    }
    app.fallback(not_found).with_state(state)
}

/// Unknown paths: the 404 error page.
async fn not_found() -> AppError {
    AppError::NotFound
}

/// Opens the database (creating it with its schema) and reads the league, prints the one-time
/// setup link when no account exists, and builds the whole application with sessions
/// (SameSite=Strict, HttpOnly, `Secure` per config, idle expiry), the protections of
/// [`security::protect`] and tracing. The league follows writes of other processes
/// ([`League::watch`]). Serve it with [`server::serve`] (or axum's
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
    if let Some(token) = crate::service::accounts::setup_token(league.db()).await? {
        let interfaces: Vec<std::net::IpAddr> = if_addrs::get_if_addrs()
            .map(|all| all.iter().map(|i| i.ip()).collect())
            .unwrap_or_default();
        let links = match &config.public_url {
            Some(url) => vec![url.link(&format!("/setup?token={token}"))],
            None => setup_links(config.listen, &interfaces, &token),
        };
        for link in links {
            tracing::warn!("Noch kein Konto: ersten Admin anlegen unter {link}");
        }
    }
    let sessions = crate::auth::session_layer(league.db(), config.secure_cookies).await?;
    let state = AppState {
        league: league.clone(),
        listen: config.listen,
        throttle: Arc::new(LoginThrottle::new()),
        pages: Default::default(),
        secure_cookies: config.secure_cookies,
        once: Default::default(),
    };
    // Pages go out gzip-compressed to a client that asks for it (every phone browser): a season
    // table of ~30 KB travels as ~5 KB over the bar's mobile network. Fastest level: the
    // compression costs less than rendering the page.
    let app = security::protect(router(state).layer(sessions))
        .layer(CompressionLayer::new().quality(CompressionLevel::Fastest))
        .layer(TraceLayer::new_for_http());
    Ok((app, league))
}

/// The setup links to print for a server listening on `listen`: on a specific address that one;
/// on all addresses (`0.0.0.0`, `::`), which no phone can open, one link per reachable address of
/// the machine (`interfaces`: loopback last, IPv6 only when listening on `::`).
pub fn setup_links(
    listen: SocketAddr,
    interfaces: &[std::net::IpAddr],
    token: &str,
) -> Vec<String> {
    links(listen, interfaces, &format!("/setup?token={token}"))
}

/// The links to `path` (with its query) on a server listening on `listen`, as [`setup_links`]
/// chooses the addresses (the reset links of `schockerliga user reset` too).
pub fn links(listen: SocketAddr, interfaces: &[std::net::IpAddr], path: &str) -> Vec<String> {
    let link =
        |ip: std::net::IpAddr| format!("http://{}{path}", SocketAddr::new(ip, listen.port()));
    if !listen.ip().is_unspecified() {
        return vec![link(listen.ip())];
    }
    let mut ips: Vec<std::net::IpAddr> = interfaces
        .iter()
        .copied()
        .filter(|ip| listen.is_ipv6() || ip.is_ipv4())
        .filter(|ip| !ip.is_unspecified())
        .collect();
    ips.sort_by_key(|ip| (ip.is_loopback(), ip.is_ipv6(), *ip));
    ips.dedup();
    if ips.is_empty() {
        ips.push(std::net::IpAddr::from([127, 0, 0, 1]));
    }
    ips.into_iter().map(link).collect()
}

#[cfg(test)]
mod tests;
