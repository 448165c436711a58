//! HTTPS in front (issue 23.3): the server behind Caddy with `packaging/caddy/Caddyfile.test`
//! (the shipped Caddyfile's site on localhost with `tls internal`), `--secure-cookies` and
//! `--public-url` and `--trusted-proxy 127.0.0.1`: the setup link it prints is https, the first
//! admin is made through the proxy (the form's Origin is the https address, the Host passes
//! through), the session cookie is `Secure`, HSTS is sent once, a cross-site POST is refused.
//! Needs `caddy` and `curl` (Debian packages; .ci/run installs caddy); without them the test says
//! so and skips. Without caddy: `--trusted-proxy` gives each client behind the proxy its own
//! limits.

use std::net::TcpListener;
use std::path::Path;
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

use crate::server::Server;
use crate::BIN;

fn have(tool: &str) -> bool {
    let ok = Command::new(tool)
        .arg("--version")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok()
        || Command::new(tool)
            .arg("version")
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .is_ok();
    if !ok {
        eprintln!("ÜBERSPRUNGEN: {tool} fehlt (apt-get install {tool}); .ci/run installiert caddy");
    }
    ok
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

struct Caddy(Child);

impl Drop for Caddy {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// `curl` over https against Caddy's own CA: `-sS -i` plus `args`.
fn curl(ca: &Path, args: &[&str]) -> Output {
    Command::new("curl")
        .args(["-sS", "-i", "--max-time", "10", "--cacert"])
        .arg(ca)
        .args(args)
        .output()
        .unwrap()
}

fn text(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn behind_caddy_the_links_are_https_and_the_cookie_is_secure() {
    if !have("caddy") || !have("curl") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("liga.db");
    let https = free_port();
    let base = format!("https://localhost:{https}");
    let server = Server::spawn(
        Command::new(BIN),
        &db,
        &[
            "--secure-cookies",
            "--public-url",
            &base,
            "--trusted-proxy",
            "127.0.0.1",
        ],
        &[],
    );
    let log = server.log();
    let marker = format!("ersten Admin anlegen unter {base}/setup?token=");
    let at = log.find(&marker).unwrap_or_else(|| panic!("{log}"));
    let token: String = log[at + marker.len()..]
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric())
        .collect();
    assert!(token.len() >= 32, "{log}");

    let storage = dir.path().join("caddy");
    let caddyfile = Path::new(env!("CARGO_MANIFEST_DIR")).join("packaging/caddy/Caddyfile.test");
    let caddy = Caddy(
        Command::new("caddy")
            .args(["run", "--adapter", "caddyfile", "--config"])
            .arg(&caddyfile)
            .env("CADDY_HTTP_PORT", free_port().to_string())
            .env("CADDY_HTTPS_PORT", https.to_string())
            .env("CADDY_STORAGE", &storage)
            .env("SCHOCKERLIGA_PORT", server.addr.port().to_string())
            .env("HOME", dir.path())
            .env("XDG_DATA_HOME", dir.path())
            .env("XDG_CONFIG_HOME", dir.path())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap(),
    );
    let ca = storage.join("pki/authorities/local/root.crt");
    let end = Instant::now() + Duration::from_secs(30);
    let home = loop {
        if ca.exists() {
            let out = curl(&ca, &[&format!("{base}/")]);
            if out.status.success() {
                break text(&out);
            }
        }
        assert!(Instant::now() < end, "caddy did not answer on {base}");
        std::thread::sleep(Duration::from_millis(200));
    };
    assert!(
        home.starts_with("HTTP/2 200") || home.starts_with("HTTP/1.1 200"),
        "{home}"
    );
    // HSTS once (issue 32.8): the recipe sets it, the app too behind an https --public-url.
    let hsts: Vec<&str> = home
        .lines()
        .filter(|l| {
            l.to_ascii_lowercase()
                .starts_with("strict-transport-security:")
        })
        .collect();
    assert_eq!(hsts.len(), 1, "{home}");
    assert!(hsts[0].contains("max-age=31536000"), "{home}");

    // The first admin through the proxy: the form's Origin is the https address.
    let jar = dir.path().join("jar");
    let jar = jar.to_str().unwrap();
    let out = curl(
        &ca,
        &[
            "-c",
            jar,
            "-H",
            &format!("Origin: {base}"),
            "--data-urlencode",
            &format!("token={token}"),
            "--data-urlencode",
            "username=anna",
            "--data-urlencode",
            "password=geheim-und-lang",
            "--data-urlencode",
            "password2=geheim-und-lang",
            &format!("{base}/setup"),
        ],
    );
    let answer = text(&out);
    let status = answer.lines().next().unwrap_or("");
    assert!(status.contains(" 303"), "{answer}");
    let cookie = answer
        .lines()
        .find(|l| l.to_ascii_lowercase().starts_with("set-cookie:"))
        .unwrap_or_else(|| panic!("{answer}"));
    assert!(cookie.contains("; Secure"), "{cookie}");
    assert!(cookie.contains("HttpOnly"), "{cookie}");
    let page = text(&curl(&ca, &["-b", jar, &format!("{base}/verwaltung")]));
    assert!(page.lines().next().unwrap_or("").contains(" 200"), "{page}");
    assert!(page.contains("anna"), "{page}");

    // A form from another site is refused through the proxy too.
    let out = curl(
        &ca,
        &[
            "-b",
            jar,
            "-H",
            "Origin: https://evil.example",
            "--data",
            "",
            &format!("{base}/logout"),
        ],
    );
    assert!(
        text(&out).lines().next().unwrap_or("").contains(" 403"),
        "{}",
        text(&out)
    );
    drop(caddy);
    drop(server);
}

/// A wrong login to the server at `addr` as the proxy forwarding for `client`
/// (`X-Forwarded-For`); the status.
fn login_via_proxy(addr: std::net::SocketAddr, client: &str) -> u16 {
    use std::io::{Read, Write};
    let body = "username=admin&password=falsch123";
    let mut s = std::net::TcpStream::connect(addr).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
    let head = format!(
        "POST /login HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\nOrigin: http://{addr}\r\n\
         X-Forwarded-For: {client}\r\nContent-Type: application/x-www-form-urlencoded\r\n\
         Content-Length: {}\r\n\r\n{body}",
        body.len()
    );
    s.write_all(head.as_bytes()).unwrap();
    let mut answer = String::new();
    let _ = s.read_to_string(&mut answer);
    answer
        .split(' ')
        .nth(1)
        .and_then(|c| c.parse().ok())
        .unwrap_or(0)
}

/// Issue 32.5: `--trusted-proxy` (and `SCHOCKERLIGA_TRUSTED_PROXY`, as the package sets it): the
/// client behind the proxy at 127.0.0.1 has its own login limit and is in the request log; without
/// the option all clients of the proxy share one.
#[test]
fn behind_a_trusted_proxy_each_client_has_its_own_limit_and_log_line() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("liga.db");
    let burst = 10;
    for how in ["env", "option", "none"] {
        let (args, env): (&[&str], Vec<(&str, &str)>) = match how {
            "env" => (
                &[],
                vec![
                    ("SCHOCKERLIGA_TRUSTED_PROXY", "127.0.0.1"),
                    ("RUST_LOG", "debug"),
                ],
            ),
            "option" => (&["--trusted-proxy", "10.0.0.9,127.0.0.1"], vec![]),
            _ => (&[], vec![]),
        };
        let server = Server::spawn(Command::new(BIN), &db, args, &env);
        let first: Vec<u16> = (0..=burst)
            .map(|_| login_via_proxy(server.addr, "198.51.100.1"))
            .collect();
        assert_eq!(first[burst], 429, "{how}: {first:?}");
        let other = login_via_proxy(server.addr, "198.51.100.2");
        if how == "none" {
            assert_eq!(other, 429, "{how}: one bucket for the proxy");
        } else {
            assert_eq!(other, 401, "{how}: another client");
        }
        if how == "env" {
            // The lines may come a moment after the answers on a loaded machine.
            let deadline = std::time::Instant::now() + std::time::Duration::from_secs(15);
            let mut log = server.log();
            while !(log.contains("client=198.51.100.2")
                && log.contains("Besucher hinter 127.0.0.1"))
                && std::time::Instant::now() < deadline
            {
                std::thread::sleep(std::time::Duration::from_millis(50));
                log = server.log();
            }
            assert!(log.contains("client=198.51.100.2"), "{log}");
            assert!(log.contains("Besucher hinter 127.0.0.1"), "{log}");
        }
        drop(server);
    }
    // An address that is none is a usage error in German.
    let out = Command::new(BIN)
        .args(["serve", "--trusted-proxy", "caddy", "--database"])
        .arg(&db)
        .env_remove("DATABASE_URL")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "{out:?}");
}
