//! Request-level protections around the whole application (SECURITY.md): the cross-site request
//! check (Origin / Sec-Fetch-Site), security headers on every response, the request body limit, and
//! the per-address burst limit of `POST /login`.

use std::net::IpAddr;
use std::sync::Arc;
use std::time::Duration;

use axum::body::Body;
use axum::extract::{DefaultBodyLimit, Request};
use axum::http::header::{self, HeaderMap, HeaderName, HeaderValue};
use axum::http::{Method, StatusCode};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::Router;
use tower_governor::governor::GovernorConfigBuilder;
use tower_governor::key_extractor::KeyExtractor;
use tower_governor::{GovernorError, GovernorLayer};
use tower_http::limit::RequestBodyLimitLayer;
use tower_http::set_header::SetResponseHeaderLayer;

/// The largest request body accepted: 4 MiB (a full season file is about 0.6 MiB). Larger bodies
/// are answered 413.
pub const MAX_BODY_BYTES: usize = 4 * 1024 * 1024;

/// The Content-Security-Policy of every response: no inline script or style, no framing.
pub const CSP: &str = "default-src 'self'; script-src 'self'; style-src 'self'; \
frame-ancestors 'none'; base-uri 'none'; form-action 'self'";

/// `Strict-Transport-Security` when the club's address is https (`--public-url https://…`): a
/// year, so a browser that came once never tries plain http again (not for other subdomains: the
/// club's domain may serve more than the league).
pub const HSTS: &str = "max-age=31536000";

/// Wraps `app` in the protections of this module: the cross-site check, the body limit, and the
/// security headers (outermost, so that errors, 404s, 413s and static files carry them too);
/// [`HSTS`] too when `https` (the public address is https).
pub fn protect(app: Router, https: bool) -> Router {
    let app = protect_plain(app);
    if https {
        app.layer(SetResponseHeaderLayer::overriding(
            header::STRICT_TRANSPORT_SECURITY,
            HeaderValue::from_static(HSTS),
        ))
    } else {
        app
    }
}

/// [`protect`] without HSTS.
fn protect_plain(app: Router) -> Router {
    app.layer(middleware::from_fn(refuse_cross_site))
        .layer(DefaultBodyLimit::max(MAX_BODY_BYTES))
        .layer(RequestBodyLimitLayer::new(MAX_BODY_BYTES))
        // Outside the body limits (their 413), inside the header layers (the page gets the CSP).
        .layer(middleware::from_fn(super::germanize::germanize))
        .layer(SetResponseHeaderLayer::overriding(
            header::CONTENT_SECURITY_POLICY,
            HeaderValue::from_static(CSP),
        ))
        .layer(SetResponseHeaderLayer::overriding(
            header::X_CONTENT_TYPE_OPTIONS,
            HeaderValue::from_static("nosniff"),
        ))
        .layer(SetResponseHeaderLayer::overriding(
            header::REFERRER_POLICY,
            HeaderValue::from_static("same-origin"),
        ))
        .layer(SetResponseHeaderLayer::overriding(
            header::X_FRAME_OPTIONS,
            HeaderValue::from_static("DENY"),
        ))
}

/// True for methods that change nothing (the check lets them pass).
fn is_safe(method: &Method) -> bool {
    matches!(
        *method,
        Method::GET | Method::HEAD | Method::OPTIONS | Method::TRACE
    )
}

/// Decides whether a request is a cross-site write that must be refused: a non-safe method whose
/// `Sec-Fetch-Site` is not `same-origin`/`none`, or (without that header) whose `Origin` is not
/// this host, or (without both) whose `Referer` names another host (or is no address).
/// Requests with none of the three (command-line clients, old browsers) pass; the
/// SameSite=Strict session cookie covers those browsers.
/// `authority` is the request URI's authority (HTTP/2 sends no `Host` header).
pub fn is_cross_site(method: &Method, headers: &HeaderMap, authority: Option<&str>) -> bool {
    if is_safe(method) {
        return false;
    }
    if let Some(site) = headers.get("sec-fetch-site") {
        return !matches!(site.to_str(), Ok("same-origin") | Ok("none"));
    }
    let origin = headers.get(header::ORIGIN);
    let referer = headers.get(header::REFERER);
    let Some(from) = origin.or(referer) else {
        return false;
    };
    let host = headers
        .get(header::HOST)
        .and_then(|h| h.to_str().ok())
        .or(authority);
    let Some(host) = host else {
        return true;
    };
    let Ok(from) = from.to_str() else {
        return true;
    };
    let from = if origin.is_some() {
        // An Origin is scheme and authority only: nothing may follow.
        from.strip_prefix("http://")
            .or_else(|| from.strip_prefix("https://"))
    } else {
        authority_of(from)
    };
    from != Some(host)
}

/// The authority (`host:port`) of an `Origin` (`http://liga.example:3000`) or a `Referer`
/// (`http://liga.example:3000/verwaltung?x`): what follows `http://` or `https://` up to the
/// path, query or fragment. `None` for anything else (`null`, another scheme).
fn authority_of(url: &str) -> Option<&str> {
    let rest = url
        .strip_prefix("http://")
        .or_else(|| url.strip_prefix("https://"))?;
    let end = rest.find(['/', '?', '#']).unwrap_or(rest.len());
    Some(&rest[..end])
}

/// Middleware: answers 403 to a cross-site write ([`is_cross_site`]) before any handler runs.
async fn refuse_cross_site(req: Request, next: Next) -> Response {
    let authority = req.uri().authority().map(|a| a.as_str().to_string());
    if is_cross_site(req.method(), req.headers(), authority.as_deref()) {
        tracing::warn!(
            method = %req.method(),
            uri = %super::links::masked(&req.uri().to_string()),
            "cross-site request refused"
        );
        return (
            StatusCode::FORBIDDEN,
            [(header::CONTENT_TYPE, "text/plain; charset=utf-8")],
            "Anfrage von fremder Seite abgelehnt.",
        )
            .into_response();
    }
    next.run(req).await
}

/// The span of one request for the request log (`TraceLayer`, at DEBUG as tower-http's own):
/// method, URI with its bearer tokens masked ([`super::links::masked`]), HTTP version and the
/// client ([`super::client::ClientAddr`]: behind a trusted proxy the client it names, `-`
/// without one). Every line logged while the request runs (a failure's ERROR too) names it.
pub fn request_span<B>(req: &axum::http::Request<B>) -> tracing::Span {
    let client = super::client::ClientAddr::of(req.extensions()).0;
    tracing::debug_span!(
        "request",
        method = %req.method(),
        uri = %super::links::masked(&req.uri().to_string()),
        version = ?req.version(),
        client = %client.map_or_else(|| "-".to_string(), |ip| ip.to_string()),
    )
}

/// The key of the burst limits: the request's client ([`super::client::ClientAddr`]: the peer
/// address, or behind a trusted proxy the client it names) by its [`bucket`]; 0.0.0.0 when the app
/// runs without peer addresses (tests through `oneshot`).
#[derive(Debug, Clone, Copy)]
pub struct ClientKey;

impl KeyExtractor for ClientKey {
    type Key = IpAddr;

    fn extract<T>(&self, req: &axum::http::Request<T>) -> Result<Self::Key, GovernorError> {
        Ok(super::client::ClientAddr::of(req.extensions()).key())
    }
}

/// Burst of login posts allowed per address before 429.
pub const LOGIN_BURST: u32 = 10;
/// One login post is replenished per this period (6 s: 10 per minute sustained).
pub const LOGIN_PERIOD: Duration = Duration::from_secs(6);

/// The `tower_governor` layer of `POST /login`: [`LOGIN_BURST`] posts per address, then one per
/// [`LOGIN_PERIOD`]; over the limit the answer is 429 with a German message. `None` only if the
/// constants were zero.
pub fn login_rate_limit(
) -> Option<GovernorLayer<ClientKey, governor::middleware::NoOpMiddleware, Body>> {
    per_address(LOGIN_BURST, LOGIN_PERIOD, "Zu viele Anmeldeversuche.")
}

/// Burst of Zu- and Absagen allowed per address before 429 (a whole table answering from the
/// bar's Wi-Fi fits).
pub const ZUSAGE_BURST: u32 = 30;
/// One Zu- or Absage is replenished per this period (20 a minute sustained).
pub const ZUSAGE_PERIOD: Duration = Duration::from_secs(3);

/// The layer of the public Zu- and Absagen ("Das bin ich", issue 27): [`ZUSAGE_BURST`] posts per
/// address, then one per [`ZUSAGE_PERIOD`]; 429 with a German message beyond. `None` only if the
/// constants were zero.
pub fn zusage_rate_limit(
) -> Option<GovernorLayer<ClientKey, governor::middleware::NoOpMiddleware, Body>> {
    per_address(
        ZUSAGE_BURST,
        ZUSAGE_PERIOD,
        "Zu viele Zu- und Absagen von diesem Anschluss.",
    )
}

/// The layer of "Ich habe bezahlt" from a player's card (issue 34.4): rate-limited as the Zusagen
/// ([`ZUSAGE_BURST`] posts per address, then one per [`ZUSAGE_PERIOD`]), with its own count; 429
/// with a German message beyond. `None` only if the constants were zero.
pub fn report_rate_limit(
) -> Option<GovernorLayer<ClientKey, governor::middleware::NoOpMiddleware, Body>> {
    per_address(
        ZUSAGE_BURST,
        ZUSAGE_PERIOD,
        "Zu viele Zahlungsmeldungen von diesem Anschluss.",
    )
}

/// A `tower_governor` layer for POSTs: `burst` per client address, then one per `period`; over
/// the limit 429 with `message`, then when to try again, as text ("Bitte in 6 Sekunden erneut
/// versuchen.") and as `Retry-After` (whole seconds, rounded up: the limiter's wait is cut to
/// whole seconds, so one more). Idle addresses are forgotten every minute.
fn per_address(
    burst: u32,
    period: Duration,
    message: &'static str,
) -> Option<GovernorLayer<ClientKey, governor::middleware::NoOpMiddleware, Body>> {
    let config = GovernorConfigBuilder::const_default()
        .key_extractor(ClientKey)
        .period(period)
        .burst_size(burst)
        .methods(vec![Method::POST])
        .finish()?;
    // Forget idle addresses every minute (memory bound), when a runtime is there to run it.
    if let Ok(rt) = tokio::runtime::Handle::try_current() {
        let limiter = Arc::downgrade(config.limiter());
        rt.spawn(async move {
            let mut tick = tokio::time::interval(Duration::from_secs(60));
            loop {
                tick.tick().await;
                let Some(limiter) = limiter.upgrade() else {
                    break;
                };
                limiter.retain_recent();
            }
        });
    }
    Some(GovernorLayer::new(config).error_handler(move |e| {
        let (status, wait) = match e {
            // `wait_time` is the wait cut to whole seconds (5 for 5.6 s): one more is enough.
            GovernorError::TooManyRequests { wait_time, .. } => {
                (StatusCode::TOO_MANY_REQUESTS, Some(wait_time + 1))
            }
            _ => (StatusCode::INTERNAL_SERVER_ERROR, None),
        };
        let text = match wait {
            Some(n) => format!("{message} {}", super::respond::try_again_in(n)),
            None => message.to_string(),
        };
        // The site's own error page (a form was sent from a browser), not bare text.
        let mut resp = (status, super::error::ErrorPage::new(status, text)).into_response();
        if let Some(seconds) = wait {
            // When the next attempt is allowed (RFC 9110 10.2.3), in seconds.
            resp.headers_mut()
                .insert(header::RETRY_AFTER, HeaderValue::from(seconds));
        }
        resp
    }))
}

/// The header names set by [`protect`], for tests.
pub fn security_header_names() -> [HeaderName; 4] {
    [
        header::CONTENT_SECURITY_POLICY,
        header::X_CONTENT_TYPE_OPTIONS,
        header::REFERRER_POLICY,
        header::X_FRAME_OPTIONS,
    ]
}

#[cfg(test)]
mod tests;
