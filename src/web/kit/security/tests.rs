//! Unit tests of `src/web/security.rs`.

use super::*;
use crate::web::kit::client::bucket;

fn headers(pairs: &[(&str, &str)]) -> HeaderMap {
    let mut h = HeaderMap::new();
    for (k, v) in pairs {
        h.insert(
            HeaderName::from_bytes(k.as_bytes()).unwrap(),
            HeaderValue::from_str(v).unwrap(),
        );
    }
    h
}

#[test]
fn without_a_host_header_the_uri_authority_is_the_host() {
    let h = headers(&[("origin", "http://liga.example")]);
    assert!(!is_cross_site(&Method::POST, &h, Some("liga.example")));
    assert!(is_cross_site(&Method::POST, &h, Some("andere.example")));
    assert!(is_cross_site(&Method::POST, &h, None));
}

#[test]
fn ipv6_clients_share_a_bucket_per_64_prefix() {
    let a: IpAddr = "2001:db8:1:2:aaaa::1".parse().unwrap();
    let b: IpAddr = "2001:db8:1:2:ffff::9".parse().unwrap();
    let c: IpAddr = "2001:db8:1:3::1".parse().unwrap();
    let v4: IpAddr = "192.168.1.7".parse().unwrap();
    assert_eq!(bucket(a), bucket(b));
    assert_ne!(bucket(a), bucket(c));
    assert_eq!(bucket(v4), v4);
}

#[test]
fn cross_site_writes_are_recognised_by_fetch_metadata_or_origin() {
    let host = ("host", "liga.example:3000");
    type Case<'a> = (Method, &'a [(&'a str, &'a str)], bool);
    let cases: &[Case] = &[
        (
            Method::GET,
            &[host, ("sec-fetch-site", "cross-site")],
            false,
        ),
        (Method::POST, &[host], false),
        (
            Method::POST,
            &[host, ("sec-fetch-site", "same-origin")],
            false,
        ),
        (Method::POST, &[host, ("sec-fetch-site", "none")], false),
        (Method::POST, &[host, ("sec-fetch-site", "same-site")], true),
        (
            Method::POST,
            &[host, ("sec-fetch-site", "cross-site")],
            true,
        ),
        (
            Method::POST,
            &[host, ("origin", "http://liga.example:3000")],
            false,
        ),
        (
            Method::POST,
            &[host, ("origin", "https://liga.example:3000")],
            false,
        ),
        (
            Method::POST,
            &[host, ("origin", "http://evil.example")],
            true,
        ),
        (Method::POST, &[host, ("origin", "null")], true),
        (
            Method::POST,
            &[("origin", "http://liga.example:3000")],
            true,
        ),
        (
            Method::DELETE,
            &[host, ("origin", "http://liga.example")],
            true,
        ),
        (
            Method::POST,
            &[
                host,
                ("sec-fetch-site", "same-origin"),
                ("origin", "http://evil.example"),
            ],
            false,
        ),
        // Without Origin and Sec-Fetch-Site the Referer decides (hostile trial: a cross-site
        // Referer alone went through).
        (
            Method::POST,
            &[host, ("referer", "http://evil.example/angriff.html")],
            true,
        ),
        (
            Method::POST,
            &[host, ("referer", "https://liga.example:3000.evil.example/")],
            true,
        ),
        (Method::POST, &[host, ("referer", "kein-link")], true),
        (
            Method::POST,
            &[host, ("referer", "http://liga.example:3000/verwaltung?x=1")],
            false,
        ),
        (
            Method::POST,
            &[host, ("referer", "https://liga.example:3000")],
            false,
        ),
        // An Origin decides before a Referer.
        (
            Method::POST,
            &[
                host,
                ("origin", "http://liga.example:3000"),
                ("referer", "http://evil.example/"),
            ],
            false,
        ),
    ];
    for (method, pairs, want) in cases {
        assert_eq!(
            is_cross_site(method, &headers(pairs), None),
            *want,
            "{method} {pairs:?}"
        );
    }
}
