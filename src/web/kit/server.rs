//! Serving the app on a TCP listener so that slow or hostile clients cannot starve it and a stop
//! loses no answer (SECURITY.md "Availability"):
//! - every connection must send a request's headers within [`HEADER_READ_TIMEOUT`] (also the idle
//!   time of a kept-alive connection: hyper starts the timer for each request's head), a body
//!   within [`BODY_READ_TIMEOUT`] (408), and a request is answered within [`REQUEST_TIMEOUT`]
//!   (else 503 with `Retry-After` and a German message: [`TOO_SLOW`]; the public pages render off
//!   the async workers, so the timer fires while a page computes);
//! - at most [`Limits::max_connections`] connections are served at once (more wait in the
//!   listen backlog), below the process's open-file limit, which is raised to its hard limit;
//! - SIGTERM (systemd, docker) and Ctrl-C stop accepting, let running requests finish within
//!   [`SHUTDOWN_GRACE`] and return, so the caller can checkpoint the database and exit 0.

use std::future::Future;
use std::sync::Arc;
use std::time::Duration;

use axum::extract::{ConnectInfo, Request};
use axum::Router;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::server::graceful::GracefulShutdown;
use tokio::net::TcpListener;
use tokio::sync::Semaphore;
use tower::ServiceExt;

/// A request's headers must arrive within this time (slowloris), and a kept-alive connection may
/// wait this long for its next request.
pub const HEADER_READ_TIMEOUT: Duration = Duration::from_secs(10);

/// A request body must arrive within this time (a half-sent form).
pub const BODY_READ_TIMEOUT: Duration = Duration::from_secs(20);

/// A request is answered within this time, else 503 with [`TOO_SLOW`].
pub const REQUEST_TIMEOUT: Duration = Duration::from_secs(30);

/// The answer when a request was not answered within [`REQUEST_TIMEOUT`].
pub const TOO_SLOW: &str = "Die Antwort braucht gerade zu lange (über 30 Sekunden). Bitte in ein paar Sekunden noch einmal laden; ein Formular noch einmal absenden, wenn es danach nicht gespeichert ist.";

/// How long running requests may take to finish after a stop signal.
pub const SHUTDOWN_GRACE: Duration = Duration::from_secs(10);

/// How many connections are served at once.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// At most this many open connections.
    pub max_connections: usize,
}

impl Limits {
    /// The limits for an open-file limit of `nofile`: connections up to 4,096, leaving 256 files for
    /// the database, logs and the like (at least 16).
    pub fn for_open_files(nofile: u64) -> Limits {
        let room = nofile.saturating_sub(256).clamp(16, 4096);
        Limits {
            max_connections: usize::try_from(room).unwrap_or(4096),
        }
    }
}

/// Raises the soft open-file limit to the hard limit (where the platform allows) and returns the
/// limits that follow from it.
pub fn limits() -> Limits {
    let nofile = rlimit::increase_nofile_limit(u64::MAX).unwrap_or(1024);
    Limits::for_open_files(nofile)
}

/// Resolves when the process gets SIGTERM or Ctrl-C (SIGINT).
pub async fn stop_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let term = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut s) => {
                s.recv().await;
            }
            Err(e) => {
                tracing::warn!(error = %e, "SIGTERM wird nicht abgefangen");
                std::future::pending::<()>().await;
            }
        }
    };
    #[cfg(not(unix))]
    let term = std::future::pending::<()>();
    tokio::select! {
        () = ctrl_c => tracing::info!("Ctrl-C: Server hält an"),
        () = term => tracing::info!("SIGTERM: Server hält an"),
    }
}

/// Serves `app` on `listener` within `limits` until `stop` resolves, then lets running requests
/// finish (at most [`SHUTDOWN_GRACE`]). Each request carries its client's address
/// (`ConnectInfo<SocketAddr>`) for the login limits.
pub async fn serve(
    listener: TcpListener,
    app: Router,
    limits: Limits,
    stop: impl Future<Output = ()>,
) {
    // The real timeout is 30 s; the same layer with 200 ms.
    let app = with_timeouts(app, REQUEST_TIMEOUT);
    // HTTP/1.1 only (browsers and reverse proxies speak it to a plain-http upstream): its header
    // timer runs from the moment a connection waits for a request head, so a connection that
    // never sends a byte is closed too (hyper-util's auto-detecting builder waits for the first
    // bytes without a timeout).
    let mut builder = hyper::server::conn::http1::Builder::new();
    builder
        .timer(TokioTimer::new())
        .header_read_timeout(HEADER_READ_TIMEOUT)
        .keep_alive(true);
    let builder = Arc::new(builder);
    let graceful = GracefulShutdown::new();
    let slots = Arc::new(Semaphore::new(limits.max_connections));
    let mut stop = std::pin::pin!(stop);
    loop {
        // Wait for a free slot first: beyond the limit, clients wait in the listen backlog.
        let permit = tokio::select! {
            p = slots.clone().acquire_owned() => match p {
                Ok(p) => p,
                Err(_) => break,
            },
            () = &mut stop => break,
        };
        let (stream, peer) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(a) => a,
                Err(e) => {
                    // Out of files or similar: back off instead of spinning.
                    tracing::warn!(error = %e, "Verbindung nicht angenommen");
                    tokio::time::sleep(Duration::from_millis(100)).await;
                    continue;
                }
            },
            () = &mut stop => break,
        };
        let _ = stream.set_nodelay(true);
        let service = hyper::service::service_fn({
            let app = app.clone();
            move |mut req: Request<hyper::body::Incoming>| {
                req.extensions_mut().insert(ConnectInfo(peer));
                app.clone().oneshot(req.map(axum::body::Body::new))
            }
        });
        let builder = builder.clone();
        let conn = builder.serve_connection(TokioIo::new(stream), service);
        let conn = graceful.watch(conn);
        tokio::spawn(async move {
            if let Err(e) = conn.await {
                tracing::debug!(error = %e, %peer, "Verbindung beendet");
            }
            drop(permit);
        });
    }
    drop(listener);
    tokio::select! {
        () = graceful.shutdown() => tracing::info!("alle Anfragen beantwortet"),
        () = tokio::time::sleep(SHUTDOWN_GRACE) => {
            tracing::warn!("nach {} s noch offene Verbindungen: beendet", SHUTDOWN_GRACE.as_secs());
        }
    }
}

/// `app` with the body read timeout (408, German through `germanize`) and the whole request's
/// `timeout` (503 + `Retry-After` with [`TOO_SLOW`]; `{"error": …}` under `/api/`).
fn with_timeouts(app: Router, timeout: Duration) -> Router {
    app.layer(tower_http::timeout::RequestBodyTimeoutLayer::new(
        BODY_READ_TIMEOUT,
    ))
    .layer(axum::middleware::from_fn(
        move |req: Request, next: axum::middleware::Next| answer_within(timeout, req, next),
    ))
}

/// Runs `req` and answers [`TOO_SLOW`] (503, `Retry-After: 5`) when it takes longer than `timeout`.
async fn answer_within(
    timeout: Duration,
    req: Request,
    next: axum::middleware::Next,
) -> axum::response::Response {
    use axum::response::IntoResponse;
    let api = req.uri().path().starts_with("/api/");
    let path = req.uri().path().to_string();
    match tokio::time::timeout(timeout, next.run(req)).await {
        Ok(resp) => resp,
        Err(_) => {
            tracing::warn!(%path, "Anfrage nach {} s abgebrochen", timeout.as_secs());
            let status = axum::http::StatusCode::SERVICE_UNAVAILABLE;
            let mut resp = if api {
                super::ApiError(status, TOO_SLOW.to_string()).into_response()
            } else {
                (
                    status,
                    super::error::ErrorPage::new(status, TOO_SLOW.to_string()),
                )
                    .into_response()
            };
            resp.headers_mut().insert(
                axum::http::header::RETRY_AFTER,
                axum::http::HeaderValue::from_static("5"),
            );
            resp
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_connection_limit_stays_below_the_open_file_limit() {
        // (open files, connections)
        let cases = [(1024, 768), (256, 16), (20000, 4096), (0, 16), (4352, 4096)];
        for (nofile, max) in cases {
            assert_eq!(
                Limits::for_open_files(nofile).max_connections,
                max,
                "{nofile}"
            );
        }
    }

    #[tokio::test]
    async fn a_request_not_answered_in_time_gets_503_in_german() {
        let app = Router::new()
            .route(
                "/langsam",
                axum::routing::get(|| async {
                    tokio::time::sleep(Duration::from_secs(60)).await;
                    "spät"
                }),
            )
            .route(
                "/api/v1/langsam",
                axum::routing::get(|| async {
                    tokio::time::sleep(Duration::from_secs(60)).await;
                    "spät"
                }),
            )
            .route("/schnell", axum::routing::get(|| async { "ok" }));
        // The real timeout is 30 s; the same layer with 200 ms.
        let app = with_timeouts(app, Duration::from_millis(200));
        let get = |uri: &str| {
            axum::http::Request::get(uri)
                .body(axum::body::Body::empty())
                .unwrap()
        };
        let fast = app.clone().oneshot(get("/schnell")).await.unwrap();
        assert_eq!(fast.status(), axum::http::StatusCode::OK);
        for uri in ["/langsam", "/api/v1/langsam"] {
            let slow = app.clone().oneshot(get(uri)).await.unwrap();
            assert_eq!(
                slow.status(),
                axum::http::StatusCode::SERVICE_UNAVAILABLE,
                "{uri}"
            );
            assert_eq!(slow.headers()[axum::http::header::RETRY_AFTER], "5");
            let body = http_body_util::BodyExt::collect(slow.into_body())
                .await
                .unwrap()
                .to_bytes();
            let text = String::from_utf8_lossy(&body);
            assert!(text.contains("braucht gerade zu lange"), "{uri}: {text}");
        }
    }

    #[tokio::test]
    async fn a_half_sent_request_is_dropped_after_the_header_timeout_and_stop_ends_the_server() {
        // The timeouts are real: checked in the binary tests (tests/binary/faults.rs) and
        // bench/faults.sh; here only that serve returns on stop.
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let app = Router::new().route("/", axum::routing::get(|| async { "ok" }));
        let (tx, rx) = tokio::sync::oneshot::channel::<()>();
        let server = tokio::spawn(serve(listener, app, Limits { max_connections: 4 }, async {
            let _ = rx.await;
        }));
        let _ = tx.send(());
        tokio::time::timeout(Duration::from_secs(5), server)
            .await
            .expect("serve returns after the stop signal")
            .unwrap();
    }
}
