//! The real server for the binary tests: `schockerliga serve` on a free loopback port
//! ([`Server`]), a raw HTTP/1.1 client ([`raw`]), and an admin account made through the command
//! line.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

use crate::common::PASSWORD;
use crate::BIN;

/// A running server process.
pub struct Server {
    child: Child,
    pub addr: SocketAddr,
    log: std::sync::Arc<std::sync::Mutex<String>>,
}

impl Server {
    /// Starts `schockerliga serve` on a free loopback port and waits for its address.
    pub fn start(db: &Path) -> Server {
        Server::start_with(db, &[])
    }

    /// [`Server::start`] with extra environment variables.
    pub fn start_with(db: &Path, env: &[(&str, &str)]) -> Server {
        Server::spawn(Command::new(BIN), db, &[], env)
    }

    /// Starts `command` (the binary, or a wrapper such as `faketime … BIN` that runs it) with
    /// `serve --listen 127.0.0.1:0 --database db`, then `args`, and the environment `env`;
    /// waits for its address. The log is kept: [`Server::log`].
    pub fn spawn(mut command: Command, db: &Path, args: &[&str], env: &[(&str, &str)]) -> Server {
        let mut child = command
            .args(["serve", "--listen", "127.0.0.1:0", "--database"])
            .arg(db)
            .args(args)
            .env_remove("DATABASE_URL")
            .env_remove("SCHOCKERLIGA_SECURE_COOKIES")
            .env("NO_COLOR", "1")
            .env("RUST_LOG", "info")
            // After the defaults: a test may log more (`RUST_LOG=debug`).
            .envs(env.iter().copied())
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let stderr = child.stderr.take().unwrap();
        let (tx, rx) = mpsc::channel();
        let log = std::sync::Arc::new(std::sync::Mutex::new(String::new()));
        let kept = log.clone();
        std::thread::spawn(move || {
            for line in BufReader::new(stderr).lines() {
                let Ok(line) = line else { break };
                kept.lock().unwrap().push_str(&(line.clone() + "\n"));
                if let Some(at) = line.find("läuft auf http://") {
                    let rest = &line[at + "läuft auf http://".len()..];
                    let addr: String = rest
                        .chars()
                        .take_while(|c| c.is_ascii_alphanumeric() || *c == '.' || *c == ':')
                        .collect();
                    let _ = tx.send(addr);
                }
            }
        });
        let addr = rx
            .recv_timeout(Duration::from_secs(60))
            .expect("server announced its address")
            .parse()
            .unwrap();
        Server { child, addr, log }
    }

    /// What the server logged so far (stderr).
    pub fn log(&self) -> String {
        self.log.lock().unwrap().clone()
    }

    /// The server's process id.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Waits (at most `within`) for the process to exit by itself; its exit status, or `None`
    /// when it still runs.
    pub fn wait_exit(&mut self, within: Duration) -> Option<std::process::ExitStatus> {
        let end = std::time::Instant::now() + within;
        while std::time::Instant::now() < end {
            if let Some(status) = self.child.try_wait().unwrap() {
                return Some(status);
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        None
    }

    /// `kill -9`.
    pub fn kill(mut self) {
        self.child.kill().unwrap();
        self.child.wait().unwrap();
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Creates the admin account through the command line (which also creates the schema).
pub fn add_admin(db: &Path) {
    let mut child = Command::new(BIN)
        .args(["user", "add", "admin", "--role", "admin", "--database"])
        .arg(db)
        .env_remove("DATABASE_URL")
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(format!("{PASSWORD}\n").as_bytes())
        .unwrap();
    assert!(child.wait().unwrap().success());
}

/// Logs the admin in over HTTP; returns the session cookie.
pub fn login(addr: SocketAddr) -> String {
    let r = raw(
        addr,
        "POST",
        "/login",
        None,
        Some(&format!("username=admin&password={PASSWORD}")),
    )
    .unwrap();
    assert_eq!(r.status, 303, "{r:?}");
    r.cookie().unwrap()
}

/// A raw HTTP/1.1 answer: status, headers (lower-case names), body bytes.
#[derive(Debug)]
pub struct Raw {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    // Shown in assertion messages (`{r:?}`), not read otherwise.
    #[allow(dead_code)]
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
    let origin = format!("http://{addr}");
    raw_from(addr, method, path, cookie, form_body, &origin)
}

/// [`raw`] with a form post's `Origin` header `origin` (another site's: a cross-site post).
pub fn raw_from(
    addr: SocketAddr,
    method: &str,
    path: &str,
    cookie: Option<&str>,
    form_body: Option<&str>,
    origin: &str,
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
        head.push_str(&format!("Origin: {origin}\r\n"));
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
