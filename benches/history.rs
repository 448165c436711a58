//! Twenty years in one evening (issue 24): a club's 20-season history as the spreadsheet it
//! keeps, imported. The history is the demo league (2007–2026, 45 nights of 20 players who come
//! most weeks: 14,337 rows in all), written as night totals into one XLSX workbook with a sheet per
//! year (dates as date cells) and as one CSV file per season. The target: the whole workbook
//! imports in under 10 s (read, check, one transaction into a new database).
//!
//! Groups: `read_workbook_20` (the XLSX read and every season checked: what the preview costs),
//! `import_workbook_20` (the same and the import into a fresh SQLite database: the confirm and
//! `schockerliga import geschichte.xlsx`), `read_csv_1` (one season's CSV read and checked).
//!
//! Run: `cargo bench --bench history` (with `HISTORY_XLSX=/tmp/geschichte.xlsx` the workbook is
//! kept, to time the command line: `schockerliga --database neu.db import /tmp/geschichte.xlsx`).
#![allow(clippy::expect_used, clippy::unwrap_used)]

#[path = "../src/sheet/testkit.rs"]
mod sheets;

use std::time::Duration;

use criterion::{criterion_group, criterion_main, Criterion};
use schockerliga::db::Db;
use schockerliga::demo::{league, DemoSpec};
use schockerliga::league::sheet::write::season_rows;
use schockerliga::league::Season;
use schockerliga::service::interchange::{import_all_as, read_sheet};
use tokio::runtime::Runtime;

/// The club's today for the reads: the day after the demo league's last night of 2026.
fn today() -> chrono::NaiveDate {
    chrono::NaiveDate::from_ymd_opt(2026, 12, 26).unwrap_or_default()
}

/// The 20 demo seasons as (year, rows of the night-totals sheet).
fn history() -> Vec<(String, Vec<Vec<String>>)> {
    let spec = DemoSpec {
        seasons: 20,
        last_year: 2026,
        besteck_nights: 0,
        ..DemoSpec::default()
    };
    league(&spec)
        .iter()
        .map(|file| {
            let season = Season::from_file(file).expect("demo season checks");
            (season.year.to_string(), season_rows(&season))
        })
        .collect()
}

fn bench(c: &mut Criterion) {
    let years = history();
    let rows: usize = years.iter().map(|(_, r)| r.len() - 1).sum();
    let named: Vec<(&str, Vec<Vec<String>>)> =
        years.iter().map(|(y, r)| (y.as_str(), r.clone())).collect();
    let workbook = sheets::xlsx(&named);
    let csv = schockerliga::sheet::write_csv(&years[19].1);
    eprintln!(
        "history: {} seasons, {rows} rows, workbook {} KiB, one season's CSV {} KiB",
        years.len(),
        workbook.len() / 1024,
        csv.len() / 1024
    );
    // `HISTORY_XLSX=path` keeps the workbook, for timing `schockerliga import` on it.
    if let Some(path) = std::env::var_os("HISTORY_XLSX") {
        std::fs::write(path, &workbook).expect("workbook written");
    }
    let rt = Runtime::new().expect("runtime");
    let dir = tempfile::tempdir().expect("temp dir");

    let mut group = c.benchmark_group("history");
    group.sample_size(10);
    group.measurement_time(Duration::from_secs(20));
    group.bench_function("read_workbook_20", |b| {
        b.iter(|| {
            let import = read_sheet("geschichte.xlsx", &workbook, today()).expect("reads");
            assert_eq!(import.seasons.len(), 20);
        })
    });
    let mut n = 0u32;
    group.bench_function("import_workbook_20", |b| {
        b.iter(|| {
            n += 1;
            let path = dir.path().join(format!("liga-{n}.db"));
            rt.block_on(async {
                let db = Db::open(&path).await.expect("open");
                let import = read_sheet("geschichte.xlsx", &workbook, today()).expect("reads");
                let seasons = import_all_as(&db, &import.files(), &[], false, "bench")
                    .await
                    .expect("imports");
                assert_eq!(seasons.len(), 20);
                db.close().await.expect("close");
            });
            let _ = std::fs::remove_file(&path);
        })
    });
    group.bench_function("read_csv_1", |b| {
        b.iter(|| {
            let import = read_sheet("2026.csv", &csv, today()).expect("reads");
            assert_eq!(import.seasons.len(), 1);
        })
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
