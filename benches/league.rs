//! The league math through the server's load path: standings of one season (the newest) in
//! databases holding 1, 5 and 20 demo seasons (45 nights × 20 players each). The target: the
//! 20-season database within 1.5× of the 1-season one (every query is indexed by season).
//!
//! Groups: `standings_uncached` (load from SQLite, check, compute: what a changed season costs),
//! `standings_cached` (the league snapshot's view of an unchanged season: what a page view costs,
//! no SQL), `standings_pure` (the computation alone on a loaded season).
//!
//! Run: `cargo bench --bench league`.
#![allow(clippy::expect_used)]

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use schockerliga::db::Db;
use schockerliga::demo::{league, DemoSpec};
use schockerliga::league::{self as liga, Season};
use schockerliga::service::{self, League};
use tokio::runtime::Runtime;

const LAST_YEAR: i32 = 2026;

/// A database in `dir` with `seasons` demo seasons ending 2026.
fn filled(rt: &Runtime, dir: &std::path::Path, seasons: u32) -> Db {
    let spec = DemoSpec {
        seasons,
        last_year: LAST_YEAR,
        ..DemoSpec::default()
    };
    rt.block_on(async {
        let db = Db::open(&dir.join(format!("liga-{seasons}.db")))
            .await
            .expect("open");
        for file in league(&spec) {
            service::import(&db, &file, true).await.expect("import");
        }
        db
    })
}

/// The table of the newest season read from SQLite, checked and computed (no cache).
async fn uncached(db: &Db) -> usize {
    let view = service::load_season(db, LAST_YEAR).await.expect("season");
    liga::standings(&view.season, None).rows.len()
}

fn standings(c: &mut Criterion) {
    let rt = Runtime::new().expect("runtime");
    let dir = tempfile::tempdir().expect("tempdir");
    let dbs: Vec<(u32, Db)> = [1, 5, 20]
        .into_iter()
        .map(|n| (n, filled(&rt, dir.path(), n)))
        .collect();

    let mut group = c.benchmark_group("standings_uncached");
    group.sample_size(20);
    for (n, db) in &dbs {
        group.bench_with_input(BenchmarkId::from_parameter(n), db, |b, db| {
            b.iter(|| rt.block_on(uncached(db)))
        });
    }
    group.finish();

    interleaved(&rt, &dbs);

    let mut group = c.benchmark_group("standings_cached");
    for (n, db) in &dbs {
        let league = rt.block_on(League::of(db.clone())).expect("league");
        group.bench_with_input(BenchmarkId::from_parameter(n), &league, |b, league| {
            b.iter(|| {
                let snapshot = league.snapshot();
                let view = snapshot.season(LAST_YEAR).expect("view");
                view.standings().rows.len()
            })
        });
    }
    group.finish();

    let mut group = c.benchmark_group("standings_pure");
    let view = rt
        .block_on(service::load_season(&dbs[0].1, LAST_YEAR))
        .expect("season");
    let season: &Season = &view.season;
    group.bench_function("one_season", |b| b.iter(|| liga::standings(season, None)));
    let file = season.to_file();
    group.bench_function("check_season_file", |b| {
        b.iter(|| Season::from_file(&file).expect("valid"))
    });
    // The same size of season with every Runde played in the Schockbesteck: each check replays
    // every Wurfrunde (the cost a write pays in such a season).
    let besteck = league(&DemoSpec {
        seasons: 1,
        besteck_nights: 45,
        ..DemoSpec::default()
    })
    .remove(0);
    group.bench_function("check_season_file_all_schockbesteck", |b| {
        b.iter(|| Season::from_file(&besteck).expect("valid"))
    });
    group.finish();
    // The first check of that season after reading it (server start, a write by the command
    // line, an import): every Runde replayed once.
    let json = serde_json::to_string(&besteck).expect("json");
    let mut group = c.benchmark_group("schockbesteck_cold");
    group.sample_size(10);
    group.bench_function("read_and_check_all_schockbesteck", |b| {
        b.iter(|| {
            let file: liga::model::file::SeasonFile = serde_json::from_str(&json).expect("file");
            Season::from_file(&file).expect("valid")
        })
    });
    group.finish();
}

/// The 1.5× target compared under the same load: the three databases measured in turn, round after
/// round (a shared machine's load drifts between criterion's groups), medians printed with the
/// ratio to the 1-season database.
fn interleaved(rt: &Runtime, dbs: &[(u32, Db)]) {
    const ROUNDS: usize = 40;
    let mut times: Vec<Vec<f64>> = vec![Vec::with_capacity(ROUNDS); dbs.len()];
    for _ in 0..ROUNDS {
        for (i, (_, db)) in dbs.iter().enumerate() {
            let start = std::time::Instant::now();
            rt.block_on(uncached(db));
            times[i].push(start.elapsed().as_secs_f64() * 1000.0);
        }
    }
    let median = |v: &mut Vec<f64>| {
        v.sort_by(f64::total_cmp);
        v[v.len() / 2]
    };
    let medians: Vec<f64> = times.iter_mut().map(median).collect();
    println!("standings_uncached interleaved ({ROUNDS} rounds, median):");
    for ((n, _), m) in dbs.iter().zip(&medians) {
        println!(
            "  {n:>2} seasons: {m:7.2} ms  ({:.2}x the 1-season database)",
            m / medians[0]
        );
    }
}

criterion_group! {
    name = benches;
    config = Criterion::default()
        .warm_up_time(std::time::Duration::from_secs(1))
        .measurement_time(std::time::Duration::from_secs(3));
    targets = standings
}
criterion_main!(benches);
