//! The one way the router tests build and drive the app: [`TestApp`] is the whole router
//! (`web::build`) on a fresh database in a temporary directory, optionally with accounts and
//! imported seasons, driven with `tower::ServiceExt::oneshot`; every answer is a [`Reply`].
//!
//! Requests carry the test host; form and JSON posts are same-origin (as a browser sends them);
//! every request comes from peer address 10.0.0.1 unless sent with [`TestApp::send_from`] (the
//! login limits count per address).

use std::net::SocketAddr;
use std::path::PathBuf;

use axum::body::{Body, Bytes};
use axum::extract::ConnectInfo;
use axum::http::header::{self, AsHeaderName, HeaderMap};
use axum::http::{request, Request, StatusCode};
use axum::Router;
use http_body_util::BodyExt;
use schockerliga::db::{self, Db};
use schockerliga::league::model::file::SeasonFile;
use schockerliga::web::{build, Config};
use serde_json::Value;
use tower::ServiceExt;

pub use crate::common::{fixture, season_file, ADMIN, PASSWORD, SECRETARY};

/// The `Host` of every test request (and the `Origin` of same-origin posts).
pub const HOST: &str = "liga.test";

/// The peer address of requests sent with [`TestApp::send`].
pub const PEER: [u8; 4] = [10, 0, 0, 1];

/// The app on its own database file (deleted with the `TestApp`).
pub struct TestApp {
    /// The router, as `schockerliga serve` runs it.
    pub router: Router,
    /// A second handle on the app's database (for setup and for checking what was stored).
    pub db: Db,
    /// The app's own league (its database handles are the ones the app writes with).
    pub league: schockerliga::service::League,
    /// The database file.
    pub path: PathBuf,
    secure_cookies: bool,
    server: Server,
    _dir: tempfile::TempDir,
}

/// How the server was started beyond its database: its clock, `--timezone`, `--public-url`.
#[derive(Clone, Default)]
struct Server {
    clock: Option<std::sync::Arc<dyn schockerliga::service::clock::Clock>>,
    timezone: Option<chrono_tz::Tz>,
    public_url: Option<String>,
    trusted_proxies: Vec<std::net::IpAddr>,
}

/// What a [`TestApp`] starts with: accounts (password [`PASSWORD`]), then imported seasons.
#[derive(Default)]
pub struct Builder {
    accounts: Vec<(String, &'static str)>,
    seasons: Vec<SeasonFile>,
    secure_cookies: bool,
    server: Server,
    page_cache_bytes: Option<usize>,
}

impl Builder {
    /// An account `name` with `role` ("admin" or "secretary").
    pub fn account(mut self, name: &str, role: &'static str) -> Builder {
        self.accounts.push((name.to_string(), role));
        self
    }

    /// The admin [`ADMIN`] and the secretary [`SECRETARY`].
    pub fn staff(self) -> Builder {
        self.account(ADMIN, "admin").account(SECRETARY, "secretary")
    }

    /// The season `file`, imported before the app starts.
    pub fn season(mut self, file: SeasonFile) -> Builder {
        self.seasons.push(file);
        self
    }

    /// The seasons `files`, imported in this order.
    pub fn seasons(mut self, files: impl IntoIterator<Item = SeasonFile>) -> Builder {
        self.seasons.extend(files);
        self
    }

    /// The session cookie marked `Secure` (`Config::secure_cookies`).
    pub fn secure_cookies(mut self, on: bool) -> Builder {
        self.secure_cookies = on;
        self
    }

    /// The server's instant from `clock` (a [`schockerliga::service::clock::FixedClock`]) instead
    /// of the system clock.
    pub fn clock(
        mut self,
        clock: std::sync::Arc<dyn schockerliga::service::clock::Clock>,
    ) -> Builder {
        self.server.clock = Some(clock);
        self
    }

    /// The server started with `--timezone zone`.
    pub fn timezone(mut self, zone: chrono_tz::Tz) -> Builder {
        self.server.timezone = Some(zone);
        self
    }

    /// The server started with `--public-url url`.
    pub fn public_url(mut self, url: &str) -> Builder {
        self.server.public_url = Some(url.to_string());
        self
    }

    /// The server started with `--trusted-proxy proxy` (repeatable).
    pub fn trusted_proxy(mut self, proxy: [u8; 4]) -> Builder {
        self.server.trusted_proxies.push(proxy.into());
        self
    }

    /// The page cache bounded by `bytes` (`Config::page_cache_bytes`).
    pub fn page_cache_bytes(mut self, bytes: usize) -> Builder {
        self.page_cache_bytes = Some(bytes);
        self
    }

    /// Creates the database, the accounts and the seasons, then builds the app on it.
    pub async fn start(self) -> TestApp {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("liga.db");
        let db = Db::open(&path).await.unwrap();
        if !self.accounts.is_empty() {
            let hash = schockerliga::auth::hash_password(PASSWORD.to_string())
                .await
                .unwrap();
            let mut tx = db.begin_write().await.unwrap();
            for (name, role) in &self.accounts {
                db::user::create(&mut tx, name, &hash, role).await.unwrap();
            }
            tx.commit().await.unwrap();
        }
        for file in &self.seasons {
            schockerliga::service::import(&db, file, false)
                .await
                .unwrap();
        }
        let mut config = config(&path, self.secure_cookies, &self.server);
        if let Some(bytes) = self.page_cache_bytes {
            config.page_cache_bytes = bytes;
        }
        let (router, league) = build(config).await.unwrap();
        TestApp {
            router,
            db,
            league,
            path,
            secure_cookies: self.secure_cookies,
            server: self.server,
            _dir: dir,
        }
    }
}

fn config(path: &std::path::Path, secure_cookies: bool, server: &Server) -> Config {
    let mut config = Config::new(path.to_path_buf(), "127.0.0.1:3000".parse().unwrap());
    config.secure_cookies = secure_cookies;
    config.clock = match &server.clock {
        Some(clock) => clock.clone(),
        None => schockerliga::service::clock::FixedClock::parse(TEST_NOW).unwrap(),
    };
    config.timezone = server.timezone;
    config.public_url = server
        .public_url
        .as_deref()
        .map(|u| schockerliga::service::status::PublicUrl::parse(u).unwrap());
    config.trusted_proxies = server.trusted_proxies.clone();
    config
}

impl TestApp {
    /// An app to build: nothing is in the database until [`Builder::start`].
    pub fn builder() -> Builder {
        Builder::default()
    }

    /// An empty database: no account (the one-time setup link is open), no season.
    pub async fn empty() -> TestApp {
        TestApp::builder().start().await
    }

    /// The admin and the secretary, no season.
    pub async fn staffed() -> TestApp {
        TestApp::builder().staff().start().await
    }

    /// The admin, the secretary and the small fixture season 2026 (`small-2026.season.json`).
    pub async fn small_season() -> TestApp {
        TestApp::builder()
            .staff()
            .season(season_file("small-2026", None))
            .start()
            .await
    }

    /// `seasons` imported, no account.
    pub async fn with_seasons(seasons: &[SeasonFile]) -> TestApp {
        TestApp::builder().seasons(seasons.to_vec()).start().await
    }

    /// A new router on the same database file, as after a server restart (the old one is dropped).
    pub async fn restart(&mut self) {
        let (router, league) = build(config(&self.path, self.secure_cookies, &self.server))
            .await
            .unwrap();
        self.router = router;
        self.league = league;
    }

    /// Sends `r` through the app from [`PEER`].
    pub async fn send(&self, r: Request<Body>) -> Reply {
        self.send_from(r, PEER).await
    }

    /// Sends `r` through the app as from peer address `peer`.
    pub async fn send_from(&self, mut r: Request<Body>, peer: [u8; 4]) -> Reply {
        r.extensions_mut()
            .insert(ConnectInfo(SocketAddr::from((peer, 40000))));
        let resp = self.router.clone().oneshot(r).await.unwrap();
        let status = resp.status();
        let headers = resp.headers().clone();
        let stream = headers
            .get("content-type")
            .is_some_and(|t| t.as_bytes().starts_with(b"text/event-stream"));
        let bytes = if stream {
            // An event stream does not end: its first event is the answer (tests that follow
            // a stream read its body themselves, `tests/router/live_push.rs`).
            first_event(resp.into_body()).await
        } else {
            resp.into_body().collect().await.unwrap().to_bytes()
        };
        Reply::new(status, headers, bytes)
    }

    /// A GET of `uri`, with the session `cookie` when given.
    pub async fn get(&self, uri: &str, cookie: Option<&str>) -> Reply {
        self.send(get(uri, cookie)).await
    }

    /// A same-origin form post of `body` (already url-encoded).
    pub async fn post(&self, uri: &str, body: &str, cookie: Option<&str>) -> Reply {
        self.send(form(uri, body, cookie)).await
    }

    /// A same-origin form post of `fields` (url-encoded here, repeated keys allowed).
    pub async fn post_fields<K, V>(
        &self,
        uri: &str,
        fields: &[(K, V)],
        cookie: Option<&str>,
    ) -> Reply
    where
        K: AsRef<str>,
        V: AsRef<str>,
    {
        self.post(uri, &encode(fields), cookie).await
    }

    /// [`TestApp::post`] as a browser sends it: a redirect after the change (Post/Redirect/Get)
    /// is followed with the same cookie, and the page it leads to is the reply.
    pub async fn post_follow(&self, uri: &str, body: &str, cookie: &str) -> Reply {
        let r = self.post(uri, body, Some(cookie)).await;
        if r.status != StatusCode::SEE_OTHER {
            return r;
        }
        let location = r.location().unwrap_or_default().to_string();
        self.get(&location, Some(cookie)).await
    }

    /// Posts `round` to the round form's `action` (`/verwaltung/abend/{date}/runde`, a scorer
    /// link's `…/runde`) as a browser sends that form: the one way a router test enters a round
    /// through the form ([`RoundForm`] spells its fields).
    pub async fn post_round(&self, action: &str, round: &RoundForm, cookie: Option<&str>) -> Reply {
        self.post(action, &round.body(), cookie).await
    }

    /// A same-origin JSON post of `body`.
    pub async fn post_json(&self, uri: &str, body: impl Into<Body>, cookie: Option<&str>) -> Reply {
        self.send(json(uri, body, cookie)).await
    }

    /// Creates the account `name` with `role` and password [`PASSWORD`].
    pub async fn create_account(&self, name: &str, role: &str) {
        let hash = schockerliga::auth::hash_password(PASSWORD.to_string())
            .await
            .unwrap();
        let mut tx = self.db.begin_write().await.unwrap();
        db::user::create(&mut tx, name, &hash, role).await.unwrap();
        tx.commit().await.unwrap();
    }

    /// Logs `name` in with [`PASSWORD`]; returns the session cookie (`id=…`).
    pub async fn login(&self, name: &str) -> String {
        self.login_in(name, None).await
    }

    /// Logs `name` in from the session `cookie` (when given); returns the new session cookie.
    pub async fn login_in(&self, name: &str, cookie: Option<&str>) -> String {
        let resp = self
            .post(
                "/login",
                &format!("username={name}&password={PASSWORD}"),
                cookie,
            )
            .await;
        assert_eq!(resp.status, StatusCode::SEE_OTHER, "login {name}");
        resp.cookie().expect("login sets the session cookie")
    }

    /// Creates the account `name` with `role` and logs it in; returns the session cookie.
    pub async fn login_new(&self, name: &str, role: &str) -> String {
        self.create_account(name, role).await;
        self.login(name).await
    }
}

/// An answer of the app: status, headers and the whole body.
#[derive(Debug)]
pub struct Reply {
    pub status: StatusCode,
    pub headers: HeaderMap,
    /// The body as text (checked to be UTF-8 when the content type is text or JSON).
    pub body: String,
    /// The body's bytes.
    pub bytes: Bytes,
}

impl Reply {
    fn new(status: StatusCode, headers: HeaderMap, bytes: Bytes) -> Reply {
        // A gzip-compressed body (the client sent Accept-Encoding: gzip) is read decompressed;
        // `bytes` stay as sent.
        let plain = if headers
            .get(header::CONTENT_ENCODING)
            .is_some_and(|v| v == "gzip")
        {
            let mut out = Vec::new();
            std::io::Read::read_to_end(&mut flate2::read::GzDecoder::new(&bytes[..]), &mut out)
                .expect("a gzip body that decompresses");
            Bytes::from(out)
        } else {
            bytes.clone()
        };
        let body = match std::str::from_utf8(&plain) {
            Ok(text) => text.to_string(),
            Err(e) => {
                let ct = headers
                    .get(header::CONTENT_TYPE)
                    .and_then(|v| v.to_str().ok())
                    .unwrap_or("");
                let textual = ct.starts_with("text/") || ct.contains("json");
                assert!(!textual, "{status}: {ct} body is not UTF-8: {e}");
                String::from_utf8_lossy(&plain).into_owned()
            }
        };
        Reply {
            status,
            headers,
            body,
            bytes,
        }
    }

    /// The (first) header `name` as text.
    pub fn header(&self, name: impl AsHeaderName) -> Option<&str> {
        self.headers.get(name).map(|v| v.to_str().unwrap())
    }

    /// The `Location` header.
    pub fn location(&self) -> Option<&str> {
        self.header(header::LOCATION)
    }

    /// The whole `Set-Cookie` header of the session cookie, with its attributes.
    pub fn set_cookie(&self) -> Option<&str> {
        self.headers
            .get_all(header::SET_COOKIE)
            .iter()
            .filter_map(|v| v.to_str().ok())
            .find(|v| v.starts_with("id="))
    }

    /// The session cookie's `id=…` pair, when the answer sets it.
    pub fn cookie(&self) -> Option<String> {
        self.set_cookie()
            .and_then(|v| v.split(';').next())
            .map(str::to_string)
    }

    /// The body as JSON.
    pub fn json(&self) -> Value {
        serde_json::from_slice(&self.bytes)
            .unwrap_or_else(|e| panic!("not JSON ({e}): {}", self.body))
    }

    /// True when the answer sends the browser to the login page.
    pub fn is_login_redirect(&self) -> bool {
        self.status == StatusCode::SEE_OTHER && self.location() == Some("/login")
    }
}

/// A request builder for `method` and `uri` with the test host.
pub fn req(method: &str, uri: &str) -> request::Builder {
    Request::builder()
        .method(method)
        .uri(uri)
        .header(header::HOST, HOST)
}

/// `b` with the session cookie when given.
fn with_cookie(b: request::Builder, cookie: Option<&str>) -> request::Builder {
    match cookie {
        Some(c) => b.header(header::COOKIE, c),
        None => b,
    }
}

/// A same-origin POST builder (`Origin` of the test host, `Sec-Fetch-Site: same-origin`).
fn same_origin_post(uri: &str, content_type: &str, cookie: Option<&str>) -> request::Builder {
    let b = req("POST", uri)
        .header(header::CONTENT_TYPE, content_type)
        .header(header::ORIGIN, format!("http://{HOST}"))
        .header("sec-fetch-site", "same-origin");
    with_cookie(b, cookie)
}

/// A GET with the session cookie when given.
pub fn get(uri: &str, cookie: Option<&str>) -> Request<Body> {
    with_cookie(req("GET", uri), cookie)
        .body(Body::empty())
        .unwrap()
}

/// A same-origin form post (`body` already url-encoded), with the cookie when given.
pub fn form(uri: &str, body: &str, cookie: Option<&str>) -> Request<Body> {
    same_origin_post(uri, "application/x-www-form-urlencoded", cookie)
        .body(Body::from(body.to_string()))
        .unwrap()
}

/// A same-origin form post with raw body bytes.
pub fn form_bytes(uri: &str, body: Vec<u8>, cookie: Option<&str>) -> Request<Body> {
    same_origin_post(uri, "application/x-www-form-urlencoded", cookie)
        .body(Body::from(body))
        .unwrap()
}

/// A same-origin JSON post, with the cookie when given.
pub fn json(uri: &str, body: impl Into<Body>, cookie: Option<&str>) -> Request<Body> {
    same_origin_post(uri, "application/json", cookie)
        .body(body.into())
        .unwrap()
}

/// Percent-encodes a form key or value.
pub fn enc(s: &str) -> String {
    s.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' => (b as char).to_string(),
            _ => format!("%{b:02X}"),
        })
        .collect()
}

/// `fields` as a url-encoded form body.
pub fn encode<K: AsRef<str>, V: AsRef<str>>(fields: &[(K, V)]) -> String {
    fields
        .iter()
        .map(|(k, v)| format!("{}={}", enc(k.as_ref()), enc(v.as_ref())))
        .collect::<Vec<_>>()
        .join("&")
}

/// The round form's fields (templates/entry/_rows.html, read by web::entry::round_input), in the
/// order a browser sends them: the page's own hidden fields, `table` (the Verwaltung's form; a
/// scorer link's form has none), `number`, `replace` (the box "Runde ersetzen"), one row per
/// ticked player (`played_{id}`, `outs_{id}`, `hand_outs_{id}`, `julen_{id}`) and `lost`.
/// Built step by step, posted with [`TestApp::post_round`]; [`RoundForm::with`] and
/// [`RoundForm::without`] make a form a browser would not send.
#[derive(Debug, Clone, Default)]
pub struct RoundForm {
    fields: Vec<(String, String)>,
}

impl RoundForm {
    /// The Verwaltung's round form of `table`, round `number`.
    pub fn at_table(table: u32, number: u32) -> RoundForm {
        RoundForm::default()
            .field("table", table)
            .field("number", number)
    }

    /// Round `number` without a `table` field: a scorer link's form (its table is in its
    /// address), or a form whose `table` comes with the page's [`RoundForm::hidden`] fields.
    pub fn number(number: u32) -> RoundForm {
        RoundForm::default().field("number", number)
    }

    /// The fields of the page the form came from, first (its `einmal` token, `sitze`,
    /// `stand_{n}`, …), as they are.
    pub fn hidden<K: AsRef<str>, V: AsRef<str>>(self, fields: &[(K, V)]) -> RoundForm {
        let mut page: Vec<(String, String)> = fields
            .iter()
            .map(|(k, v)| (k.as_ref().to_string(), v.as_ref().to_string()))
            .collect();
        page.extend(self.fields);
        RoundForm { fields: page }
    }

    /// The box "Runde ersetzen" ticked (`replace=1`).
    pub fn replacing(self) -> RoundForm {
        self.field("replace", 1)
    }

    /// Player `id` ticked with `outs` Outs, no Hand-Out, no Jule (what the form sends for him).
    pub fn row(self, id: i64, outs: i64) -> RoundForm {
        self.row_of(id, outs, 0, 0)
    }

    /// Player `id` ticked with `outs` Outs, `hand_outs` of them Hand-Outs, `julen` Julen.
    pub fn row_of(self, id: i64, outs: i64, hand_outs: i64, julen: i64) -> RoundForm {
        self.played(id)
            .field(&format!("outs_{id}"), outs)
            .field(&format!("hand_outs_{id}"), hand_outs)
            .field(&format!("julen_{id}"), julen)
    }

    /// Player `id` ticked, his counts left out of the form (read as none).
    pub fn played(self, id: i64) -> RoundForm {
        self.field(&format!("played_{id}"), 1)
    }

    /// Player `id` lost the round (`lost`).
    pub fn lost(self, id: i64) -> RoundForm {
        self.field("lost", id)
    }

    /// One more field `name` = `value` at the end (a repeated name is sent twice).
    pub fn field(mut self, name: &str, value: impl ToString) -> RoundForm {
        self.fields.push((name.to_string(), value.to_string()));
        self
    }

    /// Field `name` set to `value`: the first field of that name changed (the others dropped),
    /// else appended.
    pub fn with(mut self, name: &str, value: impl ToString) -> RoundForm {
        let value = value.to_string();
        match self.fields.iter().position(|(k, _)| k == name) {
            Some(i) => {
                self.fields[i].1 = value;
                let mut seen = false;
                self.fields
                    .retain(|(k, _)| k != name || !std::mem::replace(&mut seen, true));
            }
            None => self.fields.push((name.to_string(), value)),
        }
        self
    }

    /// Every field `name` left out.
    pub fn without(mut self, name: &str) -> RoundForm {
        self.fields.retain(|(k, _)| k != name);
        self
    }

    /// Every field for which `keep(name)` is false left out.
    pub fn retain(mut self, keep: impl Fn(&str) -> bool) -> RoundForm {
        self.fields.retain(|(k, _)| keep(k));
        self
    }

    /// The url-encoded body.
    pub fn body(&self) -> String {
        encode(&self.fields)
    }
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

/// The instant of every test app's clock unless a test sets its own ([`Builder::clock`]): the
/// day after the fixtures' last night (25.12.2026), so that every fixture night lies before the
/// club's today (issue 22.3: a night after today moves nothing) whatever day the tests run.
pub const TEST_NOW: &str = "2026-12-26T12:00:00Z";

/// The club's date today as the app under test reads it: [`TEST_NOW`] in the default club time
/// zone (Europe/Berlin), never the test machine's `TZ` or date.
pub fn club_today() -> chrono::NaiveDate {
    schockerliga::service::clock::ClubClock::new(
        schockerliga::service::clock::FixedClock::parse(TEST_NOW).unwrap(),
        schockerliga::service::clock::DEFAULT_TIMEZONE,
    )
    .today()
}

/// Checks (lower-cased) HTML `s`: every `<script` is exactly `<script src="/static/….js" defer>`
/// with nothing inside (a same-origin file, no inline code, no `type` tricks, no other host),
/// and no tag carries an event handler attribute (`on…=`). Says what is wrong.
pub fn only_script_files(s: &str) -> Result<(), String> {
    let mut rest = s;
    while let Some(i) = rest.find("<script") {
        let tag = &rest[i..];
        let end = tag.find('>').ok_or("unclosed <script")?;
        let open = &tag[..=end];
        let Some(src) = open
            .strip_prefix("<script src=\"/static/")
            .and_then(|r| r.strip_suffix("\" defer>"))
        else {
            return Err(format!("script not a same-origin file: {open}"));
        };
        if !src.ends_with(".js")
            || !src
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_' || b == b'.')
        {
            return Err(format!("script file name: {open}"));
        }
        if !tag[end + 1..].starts_with("</script>") {
            return Err(format!("code inside a script tag: {open}"));
        }
        rest = &tag[end + 1..];
    }
    // Handler attributes: ` on` + letters + `=` inside a tag.
    let mut in_tag = false;
    let b = s.as_bytes();
    for (i, &c) in b.iter().enumerate() {
        match c {
            b'<' => in_tag = true,
            b'>' => in_tag = false,
            b'o' if in_tag
                && i > 0
                && b[i - 1].is_ascii_whitespace()
                && b.get(i + 1) == Some(&b'n') =>
            {
                let name: Vec<u8> = b[i + 2..]
                    .iter()
                    .copied()
                    .take_while(u8::is_ascii_alphabetic)
                    .collect();
                let after = i + 2 + name.len();
                if !name.is_empty() && b.get(after) == Some(&b'=') {
                    return Err(format!(
                        "handler attribute on{}=",
                        String::from_utf8_lossy(&name)
                    ));
                }
            }
            _ => {}
        }
    }
    Ok(())
}

/// The body of a Server-Sent Events stream up to its first event (`\n\n`), at most 5 s.
async fn first_event(mut body: Body) -> Bytes {
    let mut out = Vec::new();
    let _ = tokio::time::timeout(std::time::Duration::from_secs(5), async {
        while let Some(frame) = body.frame().await {
            if let Ok(data) = frame.unwrap().into_data() {
                out.extend_from_slice(&data);
                if out.windows(2).any(|w| w == b"\n\n") {
                    break;
                }
            }
        }
    })
    .await;
    Bytes::from(out)
}

/// Brings in season 2026 of `t` again as 2027, unpaid, every night a year later (so every one
/// ahead of the club's today): next year's season arriving from a file before its first night.
pub async fn import_next_year_ahead(t: &TestApp) {
    use chrono::Datelike;
    let mut file = t.league.export(2026).unwrap();
    file.season = 2027;
    for p in &mut file.players {
        p.fee_paid_on = None;
    }
    for n in &mut file.nights {
        n.date = n.date.with_year(2027).unwrap();
        for f in &mut n.fines {
            f.paid_on = None;
        }
    }
    t.league.import(&file, false, "test").await.unwrap();
}
