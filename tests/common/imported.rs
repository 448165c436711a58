//! An app on a temporary database holding imported season files (the entry and money tests).

use std::path::PathBuf;

use axum::Router;
use schockerliga::db::Db;
use schockerliga::league::file::SeasonFile;
use schockerliga::service;
use schockerliga::web::{build_app, Config};

/// The router, its database and the database file (deleted with `_dir`).
pub struct TestApp {
    pub router: Router,
    pub db: Db,
    pub path: PathBuf,
    pub _dir: tempfile::TempDir,
}

/// A fresh database with `seasons` imported, and the whole app on it.
pub async fn app(seasons: &[SeasonFile]) -> TestApp {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("liga.db");
    let db = Db::open(&path).await.unwrap();
    for s in seasons {
        service::import(&db, s, false).await.unwrap();
    }
    let router = build_app(Config::new(path.clone(), "127.0.0.1:3000".parse().unwrap()))
        .await
        .unwrap();
    TestApp {
        router,
        db,
        path,
        _dir: dir,
    }
}
