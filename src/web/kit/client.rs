//! The client of a request (SECURITY.md "Behind a proxy", interchange.md "Behind a proxy"): the
//! peer address of the connection; only when that peer is one of the trusted proxies
//! (`serve --trusted-proxy ADDR`), the last address of its `X-Forwarded-For` that is not itself a
//! trusted proxy. From anyone else the header is ignored, so nobody picks his own bucket by
//! sending one. Every per-client count uses it: the login and Zusage bursts (`security`), the
//! known addresses of the login throttle, the live board's streams per client, the "Das bin ich"
//! changes, and the request log.
//!
//! [`identify`] works it out once per request (outermost layer) and leaves a [`ClientAddr`] in
//! the request's extensions; handlers take it as an extractor.

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr};
use std::sync::Arc;

use axum::extract::{ConnectInfo, FromRequestParts, Request};
use axum::http::header::HeaderMap;
use axum::http::request::Parts;
use axum::middleware::{self, Next};
use axum::response::Response;
use axum::Router;

/// The client of a request; `None` when the app runs without peer addresses (tests through
/// `oneshot` without `ConnectInfo`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct ClientAddr(pub Option<IpAddr>);

impl ClientAddr {
    /// The key its per-client counts are kept under: [`bucket`] of the address
    /// (an IPv6 client by its /64), `0.0.0.0` without one (all such requests share it).
    pub fn key(self) -> IpAddr {
        self.0.map_or(IpAddr::V4(Ipv4Addr::UNSPECIFIED), bucket)
    }

    /// The client left by [`identify`] in `extensions`; without one (a router not wrapped by
    /// it), the connection's peer address.
    pub fn of(extensions: &axum::http::Extensions) -> ClientAddr {
        extensions.get::<ClientAddr>().copied().unwrap_or_else(|| {
            ClientAddr(
                extensions
                    .get::<ConnectInfo<SocketAddr>>()
                    .map(|ConnectInfo(a)| a.ip().to_canonical()),
            )
        })
    }
}

impl<S: Send + Sync> FromRequestParts<S> for ClientAddr {
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<ClientAddr, Self::Rejection> {
        Ok(ClientAddr::of(&parts.extensions))
    }
}

/// The client of a request from `peer` with `headers` when `trusted` are the trusted proxies:
/// `peer` unless it is trusted; else `X-Forwarded-For` (every header line, in order) read from
/// the right, skipping trusted proxies: the first address that is not one is the client. When
/// every address is trusted, the leftmost; when an entry is no address (`unknown`, garbage), the
/// trusted proxy that passed it on (nobody can choose his bucket by sending garbage). IPv4-mapped
/// IPv6 addresses count as IPv4 (`::ffff:127.0.0.1` is `127.0.0.1`).
pub fn client_of(peer: IpAddr, headers: &HeaderMap, trusted: &[IpAddr]) -> IpAddr {
    let is_trusted = |ip: &IpAddr| trusted.contains(ip);
    let mut client = peer.to_canonical();
    if !is_trusted(&client) {
        return client;
    }
    let entries: Vec<Option<IpAddr>> = headers
        .get_all("x-forwarded-for")
        .iter()
        .flat_map(|line| match line.to_str() {
            Ok(text) => text.split(',').map(address).collect::<Vec<_>>(),
            Err(_) => vec![None],
        })
        .collect();
    for entry in entries.into_iter().rev() {
        match entry {
            Some(ip) => {
                client = ip;
                if !is_trusted(&ip) {
                    return ip;
                }
            }
            None => return client,
        }
    }
    client
}

/// One entry of `X-Forwarded-For` as an address: `203.0.113.7`, `2001:db8::1`, also with a port
/// (`203.0.113.7:5678`, `[2001:db8::1]:443`) or in brackets; `None` for anything else.
fn address(entry: &str) -> Option<IpAddr> {
    let entry = entry.trim().trim_matches('"');
    let ip = entry
        .parse::<IpAddr>()
        .ok()
        .or_else(|| entry.parse::<SocketAddr>().ok().map(|s| s.ip()))
        .or_else(|| {
            entry
                .strip_prefix('[')
                .and_then(|e| e.strip_suffix(']'))
                .and_then(|e| e.parse().ok())
        })?;
    Some(ip.to_canonical())
}

/// `app` with the client of every request worked out first ([`client_of`] of the peer address
/// from `ConnectInfo`, with `trusted` proxies) and left as a [`ClientAddr`] extension. Add it as
/// the outermost layer, so that the request log and every limit see it.
pub fn identify(app: Router, trusted: Vec<IpAddr>) -> Router {
    let trusted: Arc<[IpAddr]> = trusted.iter().map(|ip| ip.to_canonical()).collect();
    app.layer(middleware::from_fn(move |req: Request, next: Next| {
        let trusted = trusted.clone();
        async move { with_client(&trusted, req, next).await }
    }))
}

/// Runs `req` with its [`ClientAddr`].
async fn with_client(trusted: &[IpAddr], mut req: Request, next: Next) -> Response {
    let peer = req
        .extensions()
        .get::<ConnectInfo<SocketAddr>>()
        .map(|ConnectInfo(a)| a.ip());
    let client = peer.map(|peer| client_of(peer, req.headers(), trusted));
    req.extensions_mut().insert(ClientAddr(client));
    next.run(req).await
}

/// The rate-limit bucket of a client address: IPv4 as is, IPv6 by its /64 prefix (one client
/// usually owns a whole /64, so single addresses would neither limit nor bound memory).
pub fn bucket(ip: IpAddr) -> IpAddr {
    match ip {
        IpAddr::V4(_) => ip,
        IpAddr::V6(v6) => {
            let s = v6.segments();
            IpAddr::V6(Ipv6Addr::new(s[0], s[1], s[2], s[3], 0, 0, 0, 0))
        }
    }
}

#[cfg(test)]
mod tests;
