//! The route table: every route one line with its guard ([`Routes`]); the router builds one group
//! per guard, each non-public group behind its role extractor, the public group behind the page
//! cache.

use std::collections::BTreeMap;

use axum::handler::Handler;
use axum::http::Method;
use axum::routing::MethodRouter;
use axum::Router;

use super::{at, once, page_cache, session, unsent, AppError, AppState};
use crate::web::kit::session::{
    CurrentUser, RequireAdmin, RequireAuditor, RequireMoney, RequireMoneyRead, RequireSecretary,
};

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
    /// A money page to read (its GET): an account of [`Guard::Money`], or a Kassenprüfer, who
    /// reads every money page of the Verwaltung and changes nothing (issue 35.3).
    MoneyRead,
    /// A logged-in Kassenprüfer: his one action, *Geprüft* on a season's books (issue 35.3); an
    /// admin may not.
    Audit,
    /// Any logged-in account (its own password).
    Account,
    /// The holder of a scorer link (`/tisch/{token}/{date}/{table}`, no account): only that
    /// table at that night while the link works (`session::link_guard`).
    Link,
    /// The holder of a player's own card (`/karte/{token}`, no account): only that player's
    /// card, his answers and his calendar while the link works (`session::card_guard`).
    Card,
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

impl Routes {
    /// The route table of these routes: every route's guard, method and path, sorted.
    pub fn table(self) -> Vec<RouteInfo> {
        let mut table: Vec<RouteInfo> = self.entries.into_iter().map(|(i, _)| i).collect();
        table.sort();
        table
    }
}

/// The application's routes with the shared state: one router per guard (the secretary, money,
/// money-reading, audit, admin and account groups behind their role guard), the page cache on the public group, the 404 page for the rest.
pub fn router(state: AppState, routes: Routes) -> Router {
    let mut groups: BTreeMap<Guard, BTreeMap<&'static str, MethodRouter<AppState>>> =
        BTreeMap::new();
    for (info, handler) in routes.entries {
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
        group = match guard {
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
            Guard::MoneyRead => group
                .route_layer(once.clone())
                .route_layer(axum::middleware::from_extractor_with_state::<
                    RequireMoneyRead,
                    AppState,
                >(state.clone()))
                .route_layer(keep_unsent.clone()),
            Guard::Audit => group
                .route_layer(once.clone())
                .route_layer(axum::middleware::from_extractor_with_state::<
                    RequireAuditor,
                    AppState,
                >(state.clone()))
                .route_layer(keep_unsent.clone()),
            // A scorer link: checked on every request, its forms carried out once; its
            // pages carry the token in every address, so no cache keeps them (also not
            // a refusal's page).
            Guard::Link => group
                .route_layer(once.clone())
                .route_layer(axum::middleware::from_fn_with_state(
                    state.clone(),
                    session::link_guard,
                ))
                .route_layer(tower_http::set_header::SetResponseHeaderLayer::overriding(
                    axum::http::header::CACHE_CONTROL,
                    axum::http::HeaderValue::from_static("no-store"),
                )),
            // A player's own card: checked on every request (its guard marks every answer
            // `no-store`); its answers are idempotent.
            Guard::Card => group.route_layer(axum::middleware::from_fn_with_state(
                state.clone(),
                session::card_guard,
            )),
            // Only the own password change: nothing of it is kept in a cookie.
            Guard::Account => group.route_layer(once.clone()).route_layer(
                axum::middleware::from_extractor_with_state::<CurrentUser, AppState>(state.clone()),
            ),
        };
        // Outermost: a table or round not written canonically names no page (404).
        group = group.route_layer(axum::middleware::from_fn(at::canonical_numbers));
        app = app.merge(group);
    }
    app.fallback(not_found).with_state(state)
}
/// Unknown paths: the 404 error page.
pub async fn not_found() -> AppError {
    AppError::NotFound
}
