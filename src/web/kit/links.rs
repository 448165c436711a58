//! The links the server prints and shows: the one-time setup link at start, the reset links of
//! the command line, on the addresses a phone can reach.

use std::net::SocketAddr;

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

/// The address the club's phones use for links the pages show (password reset, scorer links,
/// the night report; issue 21.2, 23.3): `--public-url` when given; else the host the request
/// came to (its `Host` header, or the HTTP/2 authority, of plain host characters only; the
/// server's listen address without one), `https` behind `--secure-cookies` (which is only on
/// behind TLS), else `http`. An extractor: `address: PublicAddress`, then `address.link(path)`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PublicAddress {
    /// Scheme and authority, no trailing `/` ("https://liga.example.org").
    base: String,
}

impl PublicAddress {
    /// The address for a request with `headers` (and URI authority `authority`) to a server
    /// with `public_url`, `secure` cookies and listen address `listen`.
    pub fn of(
        public_url: Option<&crate::service::status::PublicUrl>,
        secure: bool,
        listen: SocketAddr,
        headers: &axum::http::HeaderMap,
        authority: Option<&str>,
    ) -> PublicAddress {
        if let Some(url) = public_url {
            return PublicAddress {
                base: url.as_str().to_string(),
            };
        }
        let plain = |h: &&str| {
            !h.is_empty()
                && h.chars()
                    .all(|c| c.is_ascii_alphanumeric() || ".-:[]".contains(c))
        };
        let host = headers
            .get(axum::http::header::HOST)
            .and_then(|h| h.to_str().ok())
            .or(authority)
            .filter(plain)
            .map(str::to_string)
            .unwrap_or_else(|| listen.to_string());
        let scheme = if secure { "https" } else { "http" };
        PublicAddress {
            base: format!("{scheme}://{host}"),
        }
    }

    /// The absolute link to `path` (starting with `/`, query included) at this address.
    pub fn link(&self, path: &str) -> String {
        format!("{}{path}", self.base)
    }
}

impl axum::extract::FromRequestParts<super::AppState> for PublicAddress {
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(
        parts: &mut axum::http::request::Parts,
        state: &super::AppState,
    ) -> Result<Self, Self::Rejection> {
        Ok(PublicAddress::of(
            state.public_url.as_ref(),
            state.secure_cookies,
            state.listen,
            &parts.headers,
            parts.uri.authority().map(|a| a.as_str()),
        ))
    }
}

/// The link to share `link` in WhatsApp (`https://wa.me/?text=…`, with `text` before it): a
/// plain link that opens the app's chat picker on a phone, no script.
pub fn whatsapp(text: &str, link: &str) -> String {
    let message = if text.is_empty() {
        link.to_string()
    } else {
        format!("{text} {link}")
    };
    crate::league::money::reminder::whatsapp(&message)
}

/// `page` marked `Cache-Control: no-store` (SECURITY.md "Scorer links"): every page that shows
/// or carries a bearer link (setup, reset, scorer link) — no browser, proxy or the page cache
/// keeps it.
pub fn no_store(page: impl axum::response::IntoResponse) -> axum::response::Response {
    let mut resp = page.into_response();
    resp.headers_mut().insert(
        axum::http::header::CACHE_CONTROL,
        axum::http::HeaderValue::from_static("no-store"),
    );
    resp
}

/// `uri` as it may be logged: the bearer tokens in it replaced by `…` (SECURITY.md "Scorer
/// links"): a scorer link's `/tisch/{token}/…`, a player card's `/karte/{token}/…` and every
/// `token=` query value (setup, password reset). `/tisch/abc123/2026-01-09/1` → `/tisch/…/2026-01-09/1`; `/setup?token=abc&x=1` →
/// `/setup?token=…&x=1`.
pub fn masked(uri: &str) -> String {
    // An absolute URI (`http://host/tisch/…`) keeps its scheme and authority as they are.
    let (origin, rest) = match uri.find("://") {
        Some(at) => {
            let after = at + 3;
            let path_at = uri[after..].find('/').map_or(uri.len(), |p| after + p);
            uri.split_at(path_at)
        }
        None => ("", uri),
    };
    let (path, query) = match rest.split_once('?') {
        Some((p, q)) => (p, Some(q)),
        None => (rest, None),
    };
    let mut out = String::with_capacity(uri.len());
    out.push_str(origin);
    let mut secret_next = false;
    for (i, segment) in path.split('/').enumerate() {
        if i > 0 {
            out.push('/');
        }
        if secret_next && !segment.is_empty() {
            out.push('…');
        } else {
            out.push_str(segment);
        }
        secret_next = (segment == "tisch" || segment == "karte") && i == 1;
    }
    if let Some(query) = query {
        out.push('?');
        let pairs: Vec<String> = query
            .split('&')
            .map(|pair| match pair.split_once('=') {
                Some((key, _)) if key.eq_ignore_ascii_case("token") => format!("{key}=…"),
                _ => pair.to_string(),
            })
            .collect();
        out.push_str(&pairs.join("&"));
    }
    out
}

#[cfg(test)]
mod tests;
