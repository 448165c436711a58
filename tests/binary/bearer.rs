//! The real server with bearer links and a busy database (issue 22.7, 22.8): no scorer, reset or
//! setup token in any line of its log (its request lines at DEBUG and the cross-site refusal's
//! WARN included), and a write that waits longer than the busy timeout for another process's
//! write lock answers 503 with `Retry-After`, the form kept, nothing stored.

use std::net::SocketAddr;
use std::path::Path;
use std::time::{Duration, Instant};

use crate::common::fixture;
use crate::run;
use crate::server::{add_admin, login, raw, raw_from, Server};

/// The page body as text.
fn body(r: &crate::server::Raw) -> String {
    String::from_utf8_lossy(&r.body).into_owned()
}

/// The first `prefix…` up to the next `"` or `<` in `text`, without `prefix`.
fn after<'a>(text: &'a str, prefix: &str) -> &'a str {
    let start = text
        .find(prefix)
        .unwrap_or_else(|| panic!("no {prefix} in {text}"))
        + prefix.len();
    let rest = &text[start..];
    &rest[..rest.find(['"', '<']).unwrap()]
}

/// A scorer link of table 1 on 02.01.2026 made by the admin: its token.
fn scorer_token(addr: SocketAddr, cookie: &str) -> String {
    let path = "/verwaltung/abend/2026-01-02/tisch/1/link";
    let made = raw(addr, "POST", path, Some(cookie), Some("")).unwrap();
    assert_eq!(made.status, 303, "{made:?}");
    let shown = raw(
        addr,
        "GET",
        made.header("location").unwrap(),
        Some(cookie),
        None,
    )
    .unwrap();
    assert_eq!(shown.status, 200);
    assert_eq!(shown.header("cache-control"), Some("no-store"));
    let link = after(&body(&shown), &format!("href=\"http://{addr}/tisch/")).to_string();
    link.split('/').next().unwrap().to_string()
}

/// A reset link of the admin's own account (id 1): its token.
fn reset_token(addr: SocketAddr, cookie: &str) -> String {
    let r = raw(
        addr,
        "POST",
        "/verwaltung/konten/1/zuruecksetzen",
        Some(cookie),
        Some(""),
    )
    .unwrap();
    assert_eq!(r.status, 200, "{r:?}");
    assert_eq!(r.header("cache-control"), Some("no-store"));
    after(&body(&r), "token=").to_string()
}

/// The server with an admin and the small season, logging at DEBUG (every request line).
fn server(dir: &Path) -> (Server, String) {
    let db = dir.join("liga.db");
    add_admin(&db);
    let season = fixture("small-2026.season.json");
    let out = run(&db, &["import", season.to_str().unwrap()]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let s = Server::start_with(&db, &[("RUST_LOG", "debug")]);
    let cookie = login(s.addr);
    (s, cookie)
}

#[test]
fn no_bearer_token_is_in_any_log_line() {
    let dir = tempfile::tempdir().unwrap();
    let (s, cookie) = server(dir.path());
    let addr = s.addr;
    let scorer = scorer_token(addr, &cookie);
    let reset = reset_token(addr, &cookie);
    assert!(scorer.len() >= 16 && reset.len() >= 16, "{scorer} {reset}");

    // The link's own page, a refused cross-site write through it, a wrong table.
    let page = format!("/tisch/{scorer}/2026-01-02/1");
    let r = raw(addr, "GET", &page, None, None).unwrap();
    assert_eq!(r.status, 200, "{r:?}");
    assert_eq!(r.header("cache-control"), Some("no-store"));
    let r = raw_from(
        addr,
        "POST",
        &format!("{page}/runde"),
        None,
        Some("number=1"),
        "https://evil.example",
    )
    .unwrap();
    assert_eq!(r.status, 403, "{r:?}");
    let r = raw(
        addr,
        "GET",
        &format!("/tisch/{scorer}/2026-01-02/9"),
        None,
        None,
    )
    .unwrap();
    assert_ne!(r.status, 200);
    // The reset page, and a refused cross-site post with the token in its address.
    let reset_page = format!("/passwort/zuruecksetzen?token={reset}");
    let r = raw(addr, "GET", &reset_page, None, None).unwrap();
    assert_eq!(r.status, 200, "{r:?}");
    assert_eq!(r.header("cache-control"), Some("no-store"));
    let r = raw_from(
        addr,
        "POST",
        &reset_page,
        None,
        Some(&format!("token={reset}&password=x")),
        "https://evil.example",
    )
    .unwrap();
    assert_eq!(r.status, 403, "{r:?}");

    // The log has the requests, masked; never a token.
    // Both refusals, not just the first: on a loaded machine the second line may come later.
    let deadline = Instant::now() + Duration::from_secs(15);
    let mut log = s.log();
    while log.matches("cross-site request refused").count() < 2 && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(50));
        log = s.log();
    }
    let refusals: Vec<&str> = log
        .lines()
        .filter(|l| l.contains("cross-site request refused"))
        .collect();
    assert_eq!(refusals.len(), 2, "{log}");
    assert!(refusals[0].contains("WARN"), "{}", refusals[0]);
    assert!(
        refusals[0].contains("/tisch/…/2026-01-02/1/runde"),
        "{}",
        refusals[0]
    );
    assert!(
        refusals[1].contains("/passwort/zuruecksetzen?token=…"),
        "{}",
        refusals[1]
    );
    assert!(
        log.contains("uri=/tisch/…/2026-01-02/1"),
        "the request lines name the page, masked: {log}"
    );
    for (what, token) in [("scorer", &scorer), ("reset", &reset)] {
        let leaks: Vec<&str> = log.lines().filter(|l| l.contains(token.as_str())).collect();
        assert!(leaks.is_empty(), "{what} token in the log: {leaks:#?}");
    }
}

/// A server without an account prints its setup link once (that is how the first admin gets
/// it); the requests with the token in their address are logged masked.
#[test]
fn the_setup_token_is_printed_once_and_masked_in_request_lines() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("liga.db");
    let s = Server::start_with(&db, &[("RUST_LOG", "debug")]);
    let log = s.log();
    let token = after(&log, "/setup?token=")
        .split(|c: char| !c.is_ascii_alphanumeric() && c != '-' && c != '_')
        .next()
        .unwrap()
        .to_string();
    assert!(token.len() >= 16, "{token}");
    let r = raw(s.addr, "GET", &format!("/setup?token={token}"), None, None).unwrap();
    assert_eq!(r.status, 200, "{r:?}");
    assert_eq!(r.header("cache-control"), Some("no-store"));
    let deadline = Instant::now() + Duration::from_secs(5);
    while !s.log().contains("uri=/setup?token=…") && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(50));
    }
    let log = s.log();
    assert!(log.contains("uri=/setup?token=…"), "{log}");
    let with_token: Vec<&str> = log.lines().filter(|l| l.contains(&token)).collect();
    assert_eq!(
        with_token.len(),
        1,
        "only the announcement: {with_token:#?}"
    );
    assert!(
        with_token[0].contains("Noch kein Konto"),
        "{}",
        with_token[0]
    );
}

/// Another process holds the database's write lock longer than the server waits (5 s): the
/// settings form answers 503 with `Retry-After`, the German message and what was typed; nothing
/// is stored; the same form goes through once the lock is gone.
#[test]
fn a_busy_database_answers_503_with_the_form_kept() {
    let dir = tempfile::tempdir().unwrap();
    let (s, cookie) = server(dir.path());
    let db = dir.path().join("liga.db");
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    // The other process: a connection of this test holding the write lock.
    let mut other = rt.block_on(async {
        use sqlx::ConnectOptions;
        let mut c = sqlx::sqlite::SqliteConnectOptions::new()
            .filename(&db)
            .connect()
            .await
            .unwrap();
        sqlx::query("begin immediate")
            .execute(&mut c)
            .await
            .unwrap();
        c
    });
    let form =
        "account_name=Schockclub+Belegt&iban=DE89370400440532013000&bic=COBADEFFXXX&paypal_me=";
    let started = Instant::now();
    let r = raw(
        s.addr,
        "POST",
        "/verwaltung/einstellungen",
        Some(&cookie),
        Some(form),
    )
    .unwrap();
    let waited = started.elapsed();
    let page = body(&r);
    let shown = page
        .lines()
        .filter(|l| l.contains("error"))
        .collect::<Vec<_>>()
        .join("\n");
    assert_eq!(r.status, 503, "{shown}");
    assert!(r.header("retry-after").is_some(), "{r:?}");
    assert!(
        page.contains("Datenbank gerade belegt – nichts gespeichert, bitte noch einmal"),
        "{page}"
    );
    assert!(page.contains("Schockclub Belegt"), "the form kept: {page}");
    assert!(waited >= Duration::from_secs(4), "waited {waited:?}");
    // Released: nothing was stored, and the same form goes through.
    rt.block_on(async {
        let (n,): (i64,) = sqlx::query_as(
            "select count(*) from audit_log where after_json like '%Schockclub Belegt%'",
        )
        .fetch_one(&mut other)
        .await
        .unwrap();
        assert_eq!(n, 0, "nothing stored");
        sqlx::query("rollback").execute(&mut other).await.unwrap();
    });
    let r = raw(
        s.addr,
        "POST",
        "/verwaltung/einstellungen",
        Some(&cookie),
        Some(form),
    )
    .unwrap();
    assert_eq!(r.status, 303, "{r:?}");
    let page = raw(
        s.addr,
        "GET",
        "/verwaltung/einstellungen",
        Some(&cookie),
        None,
    )
    .unwrap();
    assert!(body(&page).contains("Schockclub Belegt"));
}
