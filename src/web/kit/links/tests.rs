//! Unit tests of `src/web/kit/links.rs`.

use super::*;
use crate::league::money::reminder::percent_encode;
use crate::service::status::PublicUrl;
use axum::http::{header, HeaderMap, HeaderValue};

fn listen() -> SocketAddr {
    "127.0.0.1:3000".parse().unwrap()
}

fn host(h: &str) -> HeaderMap {
    let mut m = HeaderMap::new();
    if let Ok(v) = HeaderValue::from_str(h) {
        m.insert(header::HOST, v);
    }
    m
}

/// (public URL, secure cookies, request headers, HTTP/2 authority, the link to `/x`).
type Case<'a> = (
    Option<&'a PublicUrl>,
    bool,
    HeaderMap,
    Option<&'a str>,
    &'a str,
);

/// The public address: `--public-url` wins; else the Host (plain host characters only), else
/// the HTTP/2 authority, else the listen address; `https` behind `--secure-cookies`.
#[test]
fn the_public_address_of_a_request() {
    let url = PublicUrl::parse("https://liga.example.org/").ok();
    let cases: [Case; 7] = [
        (
            url.as_ref(),
            false,
            host("evil.example"),
            None,
            "https://liga.example.org/x",
        ),
        (None, false, host("liga.test"), None, "http://liga.test/x"),
        (None, true, host("liga.test"), None, "https://liga.test/x"),
        (
            None,
            true,
            host("192.168.1.5:3000"),
            None,
            "https://192.168.1.5:3000/x",
        ),
        (None, false, host("a\"b"), None, "http://127.0.0.1:3000/x"),
        (
            None,
            false,
            HeaderMap::new(),
            Some("h2.test"),
            "http://h2.test/x",
        ),
        (
            None,
            false,
            HeaderMap::new(),
            None,
            "http://127.0.0.1:3000/x",
        ),
    ];
    for (public, secure, headers, authority, want) in cases {
        let a = PublicAddress::of(public, secure, listen(), &headers, authority);
        assert_eq!(a.link("/x"), want);
    }
}

#[test]
fn tokens_are_masked_in_logged_addresses() {
    for (uri, want) in [
        ("/tisch/abc123/2026-01-09/1", "/tisch/…/2026-01-09/1"),
        (
            "/tisch/abc123/2026-01-09/1/runde?x=1",
            "/tisch/…/2026-01-09/1/runde?x=1",
        ),
        ("/tisch/", "/tisch/"),
        // A player's own card (issue 27): its token is a bearer credential too.
        ("/karte/abc123", "/karte/…"),
        ("/karte/abc123/zusage", "/karte/…/zusage"),
        ("/karte/abc123/kalender.ics", "/karte/…/kalender.ics"),
        ("/setup?token=abc&x=1", "/setup?token=…&x=1"),
        (
            "/passwort/zuruecksetzen?TOKEN=abc",
            "/passwort/zuruecksetzen?TOKEN=…",
        ),
        (
            "http://liga.test/tisch/abc/2026-01-09/2",
            "http://liga.test/tisch/…/2026-01-09/2",
        ),
        ("/abend/2026-01-09/tisch/1", "/abend/2026-01-09/tisch/1"),
        (
            "/saison/2026?as_of=2026-05-01",
            "/saison/2026?as_of=2026-05-01",
        ),
    ] {
        assert_eq!(masked(uri), want, "{uri}");
    }
}

#[test]
fn share_links_carry_the_text_and_the_link_percent_encoded() {
    assert_eq!(percent_encode("Anna 1 €"), "Anna%201%20%E2%82%AC");
    assert_eq!(percent_encode("a-b._~"), "a-b._~");
    assert_eq!(
        whatsapp("Tisch 1:", "https://l.example/t?a=1&b=2"),
        "https://wa.me/?text=Tisch%201%3A%20https%3A%2F%2Fl.example%2Ft%3Fa%3D1%26b%3D2"
    );
    assert_eq!(
        whatsapp("", "https://l.example/"),
        "https://wa.me/?text=https%3A%2F%2Fl.example%2F"
    );
}
