//! Helpers shared by the security, hostile-input and durability tests: an app on a temporary
//! database with an admin and a secretary, requests through `oneshot`, a raw HTTP/1.1 client for the
//! real binary, and a snapshot of every league table.
#![allow(dead_code)]

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::path::{Path, PathBuf};
use std::time::Duration;

use axum::body::Body;
use axum::extract::ConnectInfo;
use axum::http::{Request, Response, StatusCode};
use axum::Router;
use http_body_util::BodyExt;
use schockerliga::db::Db;
use schockerliga::web::{build_app, Config};
use tower::ServiceExt;

pub mod imported;

pub const ADMIN: &str = "admin";
pub const SECRETARY: &str = "schrift";
pub const PASSWORD: &str = "geheim123";
pub const HOST: &str = "liga.test";

pub fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(name)
}

/// An application on a fresh database in a temporary directory.
pub struct TestApp {
    pub app: Router,
    pub db: Db,
    pub dir: tempfile::TempDir,
}

/// Builds the app with an admin, a secretary and (when `season`) the small fixture season.
pub async fn test_app(season: bool, secure_cookies: bool) -> TestApp {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("liga.db");
    let db = Db::open(&path).await.unwrap();
    let hash = schockerliga::auth::hash_password(PASSWORD.to_string())
        .await
        .unwrap();
    let mut tx = db.begin_write().await.unwrap();
    schockerliga::db::user::create(&mut tx, ADMIN, &hash, "admin")
        .await
        .unwrap();
    schockerliga::db::user::create(&mut tx, SECRETARY, &hash, "secretary")
        .await
        .unwrap();
    tx.commit().await.unwrap();
    if season {
        let text = std::fs::read_to_string(fixture("small-2026.season.json")).unwrap();
        let file = serde_json::from_str(&text).unwrap();
        schockerliga::service::import(&db, &file, false)
            .await
            .unwrap();
    }
    let mut config = Config::new(path, "127.0.0.1:3000".parse().unwrap());
    config.secure_cookies = secure_cookies;
    let app = build_app(config).await.unwrap();
    TestApp { app, db, dir }
}

/// A request builder with the test host.
pub fn req(method: &str, uri: &str) -> axum::http::request::Builder {
    Request::builder()
        .method(method)
        .uri(uri)
        .header("host", HOST)
}

/// A same-origin form post (`body` already url-encoded), with the cookie when given.
pub fn form(uri: &str, body: &str, cookie: Option<&str>) -> Request<Body> {
    let mut b = req("POST", uri)
        .header("content-type", "application/x-www-form-urlencoded")
        .header("origin", format!("http://{HOST}"))
        .header("sec-fetch-site", "same-origin");
    if let Some(c) = cookie {
        b = b.header("cookie", c);
    }
    b.body(Body::from(body.to_string())).unwrap()
}

/// A GET with the cookie when given.
pub fn get(uri: &str, cookie: Option<&str>) -> Request<Body> {
    let mut b = req("GET", uri);
    if let Some(c) = cookie {
        b = b.header("cookie", c);
    }
    b.body(Body::empty()).unwrap()
}

/// Sends `r` through the app, as from peer address `peer`.
pub async fn send_from(app: &Router, mut r: Request<Body>, peer: [u8; 4]) -> Response<Body> {
    r.extensions_mut()
        .insert(ConnectInfo(SocketAddr::from((peer, 40000))));
    app.clone().oneshot(r).await.unwrap()
}

/// Sends `r` through the app from 10.0.0.1.
pub async fn send(app: &Router, r: Request<Body>) -> Response<Body> {
    send_from(app, r, [10, 0, 0, 1]).await
}

/// The body as text (lossy).
pub async fn text(resp: Response<Body>) -> String {
    let bytes = resp.into_body().collect().await.unwrap().to_bytes();
    String::from_utf8_lossy(&bytes).into_owned()
}

/// The `id=…` pair of the response's Set-Cookie, if any.
pub fn session_cookie(resp: &Response<Body>) -> Option<String> {
    resp.headers()
        .get_all("set-cookie")
        .iter()
        .filter_map(|v| v.to_str().ok())
        .find(|v| v.starts_with("id="))
        .and_then(|v| v.split(';').next())
        .map(str::to_string)
}

/// Logs `user` in (optionally sending `cookie`); returns the new session cookie.
pub async fn login(app: &Router, user: &str, cookie: Option<&str>) -> String {
    let resp = send(
        app,
        form(
            "/login",
            &format!("username={user}&password={PASSWORD}"),
            cookie,
        ),
    )
    .await;
    assert_eq!(resp.status(), StatusCode::SEE_OTHER, "login {user}");
    session_cookie(&resp).expect("login sets the session cookie")
}

/// True when the response sends the browser to the login page.
pub fn is_login_redirect(resp: &Response<Body>) -> bool {
    resp.status() == StatusCode::SEE_OTHER
        && resp.headers().get("location").and_then(|v| v.to_str().ok()) == Some("/login")
}

/// Every row of every league table (not sessions, not migrations), as text: equal snapshots mean
/// nothing changed.
pub async fn snapshot(pool: &sqlx::SqlitePool) -> String {
    let tables: Vec<(String,)> = sqlx::query_as(
        "select name from sqlite_master where type = 'table' and name not like 'sqlite_%'
         and name not like '_sqlx%' and name not like 'tower_sessions%' order by name",
    )
    .fetch_all(pool)
    .await
    .unwrap();
    let mut out = String::new();
    for (table,) in tables {
        let cols: Vec<(String,)> =
            sqlx::query_as(&format!("select name from pragma_table_info('{table}')"))
                .fetch_all(pool)
                .await
                .unwrap();
        let expr = cols
            .iter()
            .map(|(c,)| format!("quote(\"{c}\")"))
            .collect::<Vec<_>>()
            .join("||'|'||");
        let rows: Vec<(String,)> =
            sqlx::query_as(&format!("select {expr} from \"{table}\" order by rowid"))
                .fetch_all(pool)
                .await
                .unwrap();
        out.push_str(&format!("## {table} ({})\n", rows.len()));
        for (r,) in rows {
            out.push_str(&r);
            out.push('\n');
        }
    }
    out
}

/// A raw HTTP/1.1 answer: status, headers (lower-case names), body bytes.
#[derive(Debug)]
pub struct Raw {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
}

impl Raw {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }

    pub fn cookie(&self) -> Option<String> {
        self.headers
            .iter()
            .filter(|(k, _)| k == "set-cookie")
            .find(|(_, v)| v.starts_with("id="))
            .and_then(|(_, v)| v.split(';').next())
            .map(str::to_string)
    }
}

/// One request over a fresh connection (`Connection: close`) to the real server at `addr`.
pub fn raw(
    addr: SocketAddr,
    method: &str,
    path: &str,
    cookie: Option<&str>,
    form_body: Option<&str>,
) -> std::io::Result<Raw> {
    let mut s = TcpStream::connect(addr)?;
    s.set_read_timeout(Some(Duration::from_secs(30)))?;
    let mut head = format!("{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n");
    if let Some(c) = cookie {
        head.push_str(&format!("Cookie: {c}\r\n"));
    }
    let body = form_body.unwrap_or("");
    if form_body.is_some() {
        head.push_str("Content-Type: application/x-www-form-urlencoded\r\n");
        head.push_str(&format!("Origin: http://{addr}\r\n"));
    }
    head.push_str(&format!("Content-Length: {}\r\n\r\n", body.len()));
    s.write_all(head.as_bytes())?;
    s.write_all(body.as_bytes())?;
    let mut buf = Vec::new();
    s.read_to_end(&mut buf)?;
    let split = buf
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .ok_or_else(|| std::io::Error::other("no header end"))?;
    let head = String::from_utf8_lossy(&buf[..split]).into_owned();
    let mut lines = head.split("\r\n");
    let status = lines
        .next()
        .and_then(|l| l.split(' ').nth(1))
        .and_then(|c| c.parse().ok())
        .ok_or_else(|| std::io::Error::other("no status"))?;
    let headers = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(k, v)| (k.trim().to_lowercase(), v.trim().to_string()))
        .collect();
    Ok(Raw {
        status,
        headers,
        body: buf[split + 4..].to_vec(),
    })
}
