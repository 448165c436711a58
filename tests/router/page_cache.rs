//! The page cache of the public routes (issue 22.5, 22.6): a page answered from memory carries the
//! headers it was rendered with (a CSV its file name, a round its `ETag`), its key is what the
//! route reads (a parameter no route knows makes no new page), and all kept pages stay within the
//! cache's byte bound.

use axum::http::{header, StatusCode};

use crate::app::{season_file, Reply, TestApp};

/// True when `r` was answered from the page cache.
fn hit(r: &Reply) -> bool {
    r.header("x-cache") == Some("hit")
}

/// The small fixture season's night dates.
fn dates() -> Vec<String> {
    season_file("small-2026", None)
        .nights
        .iter()
        .map(|n| n.date.to_string())
        .collect()
}

#[tokio::test]
async fn a_cached_csv_keeps_its_file_name() {
    let t = TestApp::small_season().await;
    for path in ["/saison/2026/tabelle.csv", "/saison/2026/abende.csv"] {
        let first = t.get(path, None).await;
        assert_eq!(first.status, StatusCode::OK, "{path}");
        assert!(!hit(&first), "{path}");
        let name = first
            .header(header::CONTENT_DISPOSITION)
            .expect("a file name")
            .to_string();
        let second = t.get(path, None).await;
        assert!(
            hit(&second),
            "{path}: the second download comes from the cache"
        );
        assert_eq!(
            second.header(header::CONTENT_DISPOSITION),
            Some(name.as_str()),
            "{path}"
        );
        assert_eq!(
            second.header(header::CONTENT_TYPE),
            first.header(header::CONTENT_TYPE),
            "{path}"
        );
        assert_eq!(second.body, first.body, "{path}");
    }
}

#[tokio::test]
async fn a_cached_round_keeps_its_etag() {
    let t = TestApp::small_season().await;
    let date = &dates()[0];
    let path = format!("/api/v1/nights/{date}/tables/1/rounds/1");
    let first = t.get(&path, None).await;
    assert_eq!(first.status, StatusCode::OK, "{}", first.body);
    let tag = first.header(header::ETAG).expect("an ETag").to_string();
    let second = t.get(&path, None).await;
    assert!(hit(&second));
    assert_eq!(second.header(header::ETAG), Some(tag.as_str()));
    assert_eq!(second.body, first.body);
    // Every header of the first answer but Date is kept.
    for (name, value) in &first.headers {
        if name != header::DATE {
            assert_eq!(second.headers.get(name), Some(value), "{name}");
        }
    }
}

#[tokio::test]
async fn a_parameter_no_route_knows_makes_no_new_page() {
    let t = TestApp::small_season().await;
    let plain = t.get("/", None).await;
    assert_eq!(plain.status, StatusCode::OK);
    for n in 0..50 {
        let r = t.get(&format!("/?x={n}&utm_source=whatsapp"), None).await;
        assert_eq!(r.status, StatusCode::OK);
        assert!(hit(&r), "/?x={n}: the page / from the cache");
        assert_eq!(r.body, plain.body);
    }
    // A parameter the route reads is its own page.
    let date = &dates()[0];
    let as_of = t.get(&format!("/?as_of={date}"), None).await;
    assert_eq!(as_of.status, StatusCode::OK);
    assert!(!hit(&as_of));
    let again = t.get(&format!("/?x=1&as_of={date}"), None).await;
    assert!(hit(&again));
    assert_eq!(again.body, as_of.body);
    // The Schiedsrichter reads his whole query: never answered from another one's page.
    let question = t.get("/schiedsrichter?regeln=schockerliga", None).await;
    assert_eq!(question.status, StatusCode::OK);
    let question = t.get("/schiedsrichter?regeln=schockerliga", None).await;
    assert!(!hit(&question));
    // Another host is another page (the night report's absolute links name the host).
    let r = t
        .send(
            axum::http::Request::get("/")
                .header(header::HOST, "andere.test")
                .body(axum::body::Body::empty())
                .unwrap(),
        )
        .await;
    assert!(!hit(&r));
}

#[tokio::test]
async fn the_cache_is_bounded_by_bytes_the_oldest_page_goes_first() {
    let size = TestApp::small_season()
        .await
        .get("/", None)
        .await
        .bytes
        .len();
    // Room for about two table pages.
    let t = TestApp::builder()
        .staff()
        .season(season_file("small-2026", None))
        .page_cache_bytes(size * 5 / 2)
        .start()
        .await;
    let dates = dates();
    assert!(dates.len() >= 3, "the fixture has three nights");
    let pages: Vec<String> = dates.iter().map(|d| format!("/?as_of={d}")).collect();
    for p in &pages {
        let r = t.get(p, None).await;
        assert_eq!(r.status, StatusCode::OK, "{p}");
        assert!(!hit(&r), "{p}");
    }
    let last = pages.last().unwrap();
    assert!(hit(&t.get(last, None).await), "the newest page is kept");
    assert!(
        !hit(&t.get(&pages[0], None).await),
        "the oldest page went for the newer ones"
    );
}
