//! The players' side (issue 10): the player page of the 20-season demo league (45 nights × 20
//! players a season), rendered through the whole router with its three SVG curves, "Was fehlt
//! noch?" and every night; the target is under 5 ms per page. The snapshot is warm (curves and
//! progress are computed once per snapshot, as for every visitor after the first); a cookie keeps
//! the page cache out, so every iteration renders the page. Also: the three charts alone, and the
//! all-time table and a career page.
//!
//! Run: `cargo bench --bench players`.
#![allow(clippy::expect_used, clippy::unwrap_used)]

use std::net::SocketAddr;

use axum::body::Body;
use axum::extract::ConnectInfo;
use axum::http::{header, Request, StatusCode};
use axum::Router;
use criterion::{criterion_group, criterion_main, Criterion};
use http_body_util::BodyExt;
use schockerliga::db::Db;
use schockerliga::demo::{league, DemoSpec};
use schockerliga::service;
use schockerliga::web::public::chart;
use schockerliga::web::{build, Config};
use tokio::runtime::Runtime;
use tower::ServiceExt;

/// GET `uri` through `app` (a cookie so that the page cache renders it); the body's length.
async fn get(app: &Router, uri: &str) -> usize {
    let mut r = Request::builder()
        .uri(uri)
        .header(header::HOST, "liga.test")
        .header(header::COOKIE, "bench=1")
        .body(Body::empty())
        .unwrap();
    r.extensions_mut()
        .insert(ConnectInfo(SocketAddr::from(([10, 0, 0, 1], 40000))));
    let resp = app.clone().oneshot(r).await.unwrap();
    assert_eq!(resp.status(), StatusCode::OK, "{uri}");
    resp.into_body().collect().await.unwrap().to_bytes().len()
}

fn players(c: &mut Criterion) {
    let rt = Runtime::new().expect("runtime");
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("demo.db");
    let (app, liga) = rt.block_on(async {
        let db = Db::open(&path).await.expect("open");
        for file in league(&DemoSpec::default()) {
            service::import(&db, &file, true).await.expect("import");
        }
        build(Config::new(path.clone(), "127.0.0.1:3000".parse().unwrap()))
            .await
            .expect("app")
    });
    let snapshot = liga.snapshot();
    let view = snapshot.season(2026).expect("2026");
    let ids: Vec<i64> = view.ids.players.values().copied().collect();
    let uris: Vec<String> = ids
        .iter()
        .map(|id| format!("/saison/2026/spieler/{id}"))
        .collect();

    // Warm: the first visitor computes the snapshot's curves and progress once.
    let first = std::time::Instant::now();
    rt.block_on(get(&app, &uris[0]));
    println!(
        "first player page (computes the season's curves and progress): {:.1} ms",
        first.elapsed().as_secs_f64() * 1000.0
    );
    let first = std::time::Instant::now();
    rt.block_on(get(&app, "/ewige-tabelle"));
    println!(
        "first all-time page (computes careers, all-time table and records of 20 seasons): {:.1} ms",
        first.elapsed().as_secs_f64() * 1000.0
    );

    // ms per page over every player's page, plainly timed (the figure the issue asks for).
    let rounds = 20;
    let start = std::time::Instant::now();
    let mut bytes = 0;
    for _ in 0..rounds {
        for uri in &uris {
            bytes += rt.block_on(get(&app, uri));
        }
    }
    let pages = rounds * uris.len();
    println!(
        "player page, 20-season demo: {:.3} ms per page ({pages} pages, {} KiB each)",
        start.elapsed().as_secs_f64() * 1000.0 / pages as f64,
        bytes / pages / 1024
    );

    let mut group = c.benchmark_group("players");
    let mut i = 0;
    group.bench_function("player_page", |b| {
        b.iter(|| {
            i = (i + 1) % uris.len();
            rt.block_on(get(&app, &uris[i]))
        })
    });
    let curve = view.curves().players.first().expect("a curve").clone();
    group.bench_function("three_charts", |b| {
        b.iter(|| {
            chart::d_wert_chart(&curve.player, &curve.points).len()
                + chart::place_chart(&curve.player, &curve.points).len()
                + chart::outs_chart(&curve.player, &curve.points).len()
        })
    });
    group.bench_function("all_time_page", |b| {
        b.iter(|| rt.block_on(get(&app, "/ewige-tabelle")))
    });
    let career = format!("/spieler/{}", ids[0]);
    group.bench_function("career_page", |b| {
        b.iter(|| rt.block_on(get(&app, &career)))
    });
    group.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default()
        .warm_up_time(std::time::Duration::from_secs(1))
        .measurement_time(std::time::Duration::from_secs(3));
    targets = players
}
criterion_main!(benches);
