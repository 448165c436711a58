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
