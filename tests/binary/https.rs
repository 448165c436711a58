//! HTTPS in front (issue 23.3): the server behind Caddy with `packaging/caddy/Caddyfile.test`
//! (the shipped Caddyfile's site on localhost with `tls internal`), `--secure-cookies` and
//! `--public-url`: the setup link it prints is https, the first admin is made through the proxy
//! (the form's Origin is the https address, the Host passes through), the session cookie is
//! `Secure`, a cross-site POST is refused. Needs `caddy` and `curl` (Debian packages; .ci/run
//! installs caddy); without them the test says so and skips.

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
        &["--secure-cookies", "--public-url", &base],
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
