use super::*;
use axum::http::HeaderValue;

fn ip(s: &str) -> IpAddr {
    s.parse().unwrap()
}

#[test]
fn only_a_trusted_proxy_names_the_client_and_the_last_untrusted_address_counts() {
    let local = [ip("127.0.0.1")];
    let chain = [ip("127.0.0.1"), ip("10.0.0.2")];
    // (peer, X-Forwarded-For lines, trusted, client)
    let cases: [(&str, &[&str], &[IpAddr], &str); 14] = [
        // No trusted proxy: the header is ignored.
        ("203.0.113.9", &["198.51.100.1"], &[], "203.0.113.9"),
        // From someone else than the proxy: ignored too.
        ("203.0.113.9", &["198.51.100.1"], &local, "203.0.113.9"),
        // Through the proxy: the address it appended.
        ("127.0.0.1", &["198.51.100.1"], &local, "198.51.100.1"),
        // A client that sends its own header: the proxy appends the real one, which counts.
        (
            "127.0.0.1",
            &["1.2.3.4, 198.51.100.1"],
            &local,
            "198.51.100.1",
        ),
        (
            "127.0.0.1",
            &["1.2.3.4", "198.51.100.1"],
            &local,
            "198.51.100.1",
        ),
        // Two proxies of the club in a row: both skipped.
        (
            "127.0.0.1",
            &["6.6.6.6, 198.51.100.1, 10.0.0.2"],
            &chain,
            "198.51.100.1",
        ),
        // The proxy itself without a header (a health check): the proxy.
        ("127.0.0.1", &[], &local, "127.0.0.1"),
        // Every address trusted: the leftmost.
        ("127.0.0.1", &["10.0.0.2"], &chain, "10.0.0.2"),
        // Garbage from the right: the proxy that passed it on.
        ("127.0.0.1", &["198.51.100.1, unknown"], &local, "127.0.0.1"),
        (
            "127.0.0.1",
            &["6.6.6.6, nonsense, 10.0.0.2"],
            &chain,
            "10.0.0.2",
        ),
        // Ports, brackets, IPv6.
        ("127.0.0.1", &["198.51.100.1:5678"], &local, "198.51.100.1"),
        ("127.0.0.1", &["[2001:db8::1]:443"], &local, "2001:db8::1"),
        ("127.0.0.1", &[" 2001:db8::7 "], &local, "2001:db8::7"),
        // A mapped peer address is the IPv4 one (listening on [::]).
        (
            "::ffff:127.0.0.1",
            &["198.51.100.1"],
            &local,
            "198.51.100.1",
        ),
    ];
    for (peer, lines, trusted, want) in cases {
        let mut headers = HeaderMap::new();
        for line in lines {
            headers.append("x-forwarded-for", HeaderValue::from_str(line).unwrap());
        }
        assert_eq!(
            client_of(ip(peer), &headers, trusted),
            ip(want),
            "{peer} {lines:?} {trusted:?}"
        );
    }
}

#[test]
fn a_client_is_counted_by_its_bucket() {
    assert_eq!(
        ClientAddr(Some(ip("198.51.100.1"))).key(),
        ip("198.51.100.1")
    );
    assert_eq!(
        ClientAddr(Some(ip("2001:db8:1:2:3:4:5:6"))).key(),
        ip("2001:db8:1:2::")
    );
    assert_eq!(ClientAddr(None).key(), ip("0.0.0.0"));
}
