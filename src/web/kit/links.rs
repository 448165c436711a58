//! The links the server prints and shows: the one-time setup link at start, the reset links of
//! the command line, on the addresses a phone can reach; a link's address for the request that
//! asked for it; and paths with their tokens masked for the log.

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

/// The address of `path` for a request with `headers`: its `Host`, `https` behind TLS
/// (`secure`), e.g. `https://liga.example.org/karte/…`.
pub fn address(headers: &axum::http::HeaderMap, secure: bool, path: &str) -> String {
    let host = headers
        .get(axum::http::header::HOST)
        .and_then(|h| h.to_str().ok())
        .unwrap_or("localhost");
    let scheme = if secure { "https" } else { "http" };
    format!("{scheme}://{host}{path}")
}

/// `uri` for the log with its tokens masked (SECURITY.md: a capability in a path must not end
/// in a log file): the token of a scorer link (`/tisch/{token}/…`), of a player's card
/// (`/karte/{token}…`) and the `token=` of a query (reset and setup links) become `…`.
pub fn masked(uri: &axum::http::Uri) -> String {
    let mut parts: Vec<&str> = uri.path().split('/').collect();
    if matches!(parts.get(1), Some(&"tisch") | Some(&"karte")) && parts.len() > 2 {
        parts[2] = "…";
    }
    let path = parts.join("/");
    match uri.query() {
        None => path,
        Some(q) => {
            let query: Vec<String> = q
                .split('&')
                .map(|pair| match pair.split_once('=') {
                    Some((k, _)) if k.eq_ignore_ascii_case("token") => format!("{k}=…"),
                    _ => pair.to_string(),
                })
                .collect();
            format!("{path}?{}", query.join("&"))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::masked;

    #[test]
    fn tokens_of_links_are_masked_for_the_log() {
        let cases = [
            ("/karte/abc123", "/karte/…"),
            ("/karte/abc123/kalender.ics", "/karte/…/kalender.ics"),
            (
                "/tisch/abc/2026-01-09/2/runde",
                "/tisch/…/2026-01-09/2/runde",
            ),
            (
                "/passwort/zuruecksetzen?token=geheim",
                "/passwort/zuruecksetzen?token=…",
            ),
            ("/setup?x=1&token=geheim", "/setup?x=1&token=…"),
            (
                "/saison/2026?as_of=2026-01-09",
                "/saison/2026?as_of=2026-01-09",
            ),
            ("/", "/"),
            ("/karte", "/karte"),
        ];
        for (uri, shown) in cases {
            assert_eq!(masked(&uri.parse().unwrap()), shown, "{uri}");
        }
    }
}
