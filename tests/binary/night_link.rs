//! `schockerliga night link DATE TABLE` (issue 11.2): the printed URL opens the table's page on
//! the running server without an account; `--revoke` ends it at once (the server looks the link up
//! on every request).

use crate::common::fixture;
use crate::run;
use crate::server::{raw, Server};

#[test]
fn night_link_prints_a_url_that_works_and_revoke_kills_it() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("liga.db");
    let season = fixture("small-2026.season.json");
    assert!(run(&db, &["import", season.to_str().unwrap()])
        .status
        .success());
    let server = Server::start(&db);
    let out = run(&db, &["night", "link", "2026-01-02", "1"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let stdout = String::from_utf8(out.stdout).unwrap();
    let url = stdout.lines().next().unwrap().trim().to_string();
    assert!(url.starts_with("http://127.0.0.1:3000/tisch/"), "{url}");
    assert!(url.ends_with("/2026-01-02/1"), "{url}");
    let path = &url["http://127.0.0.1:3000".len()..];
    let token = path.split('/').nth(2).unwrap();
    assert_eq!(token.len(), 64, "256 random bits");
    let page = raw(server.addr, "GET", path, None, None).unwrap();
    assert_eq!(page.status, 200, "{page:?}");
    assert!(String::from_utf8_lossy(&page.body).contains("Tisch 1"));
    // Only for its table.
    let other = path.replace("/2026-01-02/1", "/2026-01-02/2");
    assert_eq!(
        raw(server.addr, "GET", &other, None, None).unwrap().status,
        403
    );
    let out = run(&db, &["night", "link", "2026-01-02", "1", "--revoke"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(String::from_utf8_lossy(&out.stderr).contains("gilt nicht mehr"));
    assert_eq!(
        raw(server.addr, "GET", path, None, None).unwrap().status,
        403
    );
    // A table that does not exist: refused, exit 1.
    let out = run(&db, &["night", "link", "2026-01-02", "3"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("Tisch 3 gibt es nicht"));
}
