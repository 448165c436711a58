//! Issue 37: copies off the machine (`serve --backup-remote REMOTE:PFAD`), with the real binary
//! and the real rclone against remotes on this machine only: rclone's local backend (a remote of
//! type `local`, from the environment `RCLONE_CONFIG_LOKAL_TYPE=local` or a temporary
//! `RCLONE_CONFIG`) and `rclone serve webdav` on 127.0.0.1; never a remote host. Without
//! rclone (`apt-get install rclone`; `.ci/run` installs it) every test says so and skips.

use std::net::{SocketAddr, TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::common::fixture;
use crate::server::{add_admin, login, raw, Server};
use crate::BIN;

/// The rclone on the `PATH`, or `None` (with the reason printed).
pub(crate) fn rclone() -> Option<PathBuf> {
    let found = std::env::var_os("PATH").and_then(|paths| {
        std::env::split_paths(&paths)
            .map(|p| p.join("rclone"))
            .find(|p| p.is_file())
    });
    if found.is_none() {
        eprintln!("ÜBERSPRUNGEN: rclone fehlt (apt-get install rclone); .ci/run installiert es");
    }
    found
}

/// A league with the small 2026 season and an admin account at `dir/liga.db`.
pub(crate) fn league(dir: &Path) -> PathBuf {
    let db = dir.join("liga.db");
    let season = fixture("small-2026.season.json");
    let out = crate::run(&db, &["import", season.to_str().unwrap()]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    add_admin(&db);
    db
}

/// An rclone configuration at `dir/rclone.conf` with `sections` (`[name]` and its lines).
pub(crate) fn config(dir: &Path, sections: &str) -> PathBuf {
    let path = dir.join("rclone.conf");
    std::fs::write(&path, sections).unwrap();
    path
}

/// The server on `db` with backups into `dir/sicherungen` (keeping `keep`), sent to `remote`,
/// with `env` (the rclone configuration).
pub(crate) fn serve(
    db: &Path,
    dir: &Path,
    keep: &str,
    remote: &str,
    env: &[(&str, &str)],
) -> Server {
    let backups = dir.join("sicherungen");
    Server::spawn(
        Command::new(BIN),
        db,
        &[
            "--backup-dir",
            backups.to_str().unwrap(),
            "--backup-keep",
            keep,
            "--backup-remote",
            remote,
        ],
        env,
    )
}

/// `GET /api/v1/status` as JSON.
pub(crate) fn status(addr: SocketAddr) -> Value {
    let r = raw(addr, "GET", "/api/v1/status", None, None).unwrap();
    assert_eq!(r.status, 200);
    serde_json::from_slice(&r.body).unwrap()
}

/// Waits (at most 60 s) until the status's `remote` satisfies `done`; the status then.
pub(crate) fn wait_status(server: &Server, what: &str, done: impl Fn(&Value) -> bool) -> Value {
    let end = Instant::now() + Duration::from_secs(60);
    loop {
        let s = status(server.addr);
        if done(&s["remote"]) {
            return s;
        }
        assert!(
            Instant::now() < end,
            "{what}: status {s}\nlog:\n{}",
            server.log()
        );
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// The copies `….db` in `dir`, by name.
pub(crate) fn copies(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .map(|d| {
            d.map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
                .filter(|n| n.ends_with(".db"))
                .collect()
        })
        .unwrap_or_default();
    names.sort();
    names
}

/// The newest copy `….db` in `dir` (by its time, then `…-2.db` after `….db`).
fn local_newest(dir: &Path) -> String {
    let mut names = copies(dir);
    names.sort_by_key(|n| (n.get(5..22).map(str::to_string), n.len(), n.clone()));
    names.pop().unwrap_or_default()
}

/// The page at `path` for the admin `cookie`.
pub(crate) fn page(addr: SocketAddr, cookie: &str, path: &str) -> String {
    let r = raw(addr, "GET", path, Some(cookie), None).unwrap();
    assert_eq!(r.status, 200, "{path}");
    String::from_utf8_lossy(&r.body).into_owned()
}

/// „Jetzt sichern“ on the Sicherung page (`n` makes the form's `einmal` token unique).
pub(crate) fn backup_now(addr: SocketAddr, cookie: &str, n: u32) {
    let r = raw(
        addr,
        "POST",
        "/verwaltung/sicherung",
        Some(cookie),
        Some(&format!("einmal=jetzt-{n}")),
    )
    .unwrap();
    assert_eq!(r.status, 303, "{r:?}");
}

/// The binary with `args` and the environment `env`.
pub(crate) fn run_env(db: &Path, args: &[&str], env: &[(&str, &str)]) -> Output {
    Command::new(BIN)
        .args(args)
        .arg("--database")
        .arg(db)
        .env_remove("DATABASE_URL")
        .envs(env.iter().copied())
        .stdin(Stdio::null())
        .output()
        .unwrap()
}

/// The German date of the ISO `day` („2026-12-03“ → „03.12.2026“).
fn date_de(day: &str) -> String {
    let p: Vec<&str> = day.split('-').collect();
    format!("{}.{}.{}", p[2], p[1], p[0])
}

/// A port on 127.0.0.1 nobody listens on (now).
pub(crate) fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// `rclone serve webdav` of `root` on 127.0.0.1:`port`, killed when dropped.
pub(crate) struct Webdav(Child);

impl Webdav {
    pub(crate) fn start(rclone: &Path, root: &Path, port: u16) -> Webdav {
        std::fs::create_dir_all(root).unwrap();
        let child = Command::new(rclone)
            .args(["serve", "webdav", "--addr"])
            .arg(format!("127.0.0.1:{port}"))
            .arg(root)
            .env("RCLONE_CONFIG", "/dev/null")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let end = Instant::now() + Duration::from_secs(30);
        while TcpStream::connect(("127.0.0.1", port)).is_err() {
            assert!(Instant::now() < end, "rclone serve webdav did not start");
            std::thread::sleep(Duration::from_millis(50));
        }
        Webdav(child)
    }
}

impl Drop for Webdav {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

#[test]
fn a_copy_reaches_a_local_rclone_remote_is_read_back_verified_and_restored_from_there() {
    if rclone().is_none() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let db = league(dir.path());
    // The remote from the environment alone, as rclone reads it (no configuration file; the
    // one named is not there, so none of the machine's is read).
    let none = dir.path().join("keine.conf");
    let env = [
        ("RCLONE_CONFIG", none.to_str().unwrap()),
        ("RCLONE_CONFIG_LOKAL_TYPE", "local"),
    ];
    let outside = dir.path().join("aussen");
    let target = format!("lokal:{}", outside.display());
    let server = serve(&db, dir.path(), "2", &target, &env);
    let today = status(server.addr)["today"].as_str().unwrap().to_string();
    let s = wait_status(&server, "first copy out", |r| r["last"] == today.as_str());
    assert_eq!(s["remote"], serde_json::json!({"ok": true, "last": today}));

    // The copy and its sum are there, byte for byte, and recorded beside the local copy.
    let local = dir.path().join("sicherungen");
    let names = copies(&local);
    assert_eq!(names.len(), 1, "{names:?}");
    let name = &names[0];
    assert_eq!(copies(&outside), names);
    assert_eq!(
        std::fs::read(outside.join(name)).unwrap(),
        std::fs::read(local.join(name)).unwrap()
    );
    assert_eq!(
        std::fs::read(outside.join(format!("{name}.sha256"))).unwrap(),
        std::fs::read(local.join(format!("{name}.sha256"))).unwrap()
    );
    let record = std::fs::read_to_string(local.join(format!("{name}.remote"))).unwrap();
    assert!(
        record.starts_with(&format!("außer Haus geprüft am {today}\n")),
        "{record}"
    );
    assert!(record.contains("vom Ziel gemeldet"), "{record}");

    // The page says so, per copy and for the newest.
    let cookie = login(server.addr);
    let html = page(server.addr, &cookie, "/verwaltung/sicherung");
    let de = date_de(&today);
    assert!(
        html.contains(&format!("außer Haus geprüft am {de}")),
        "{html}"
    );
    assert!(html.contains("Zuletzt außer Haus geprüft am"), "{html}");
    assert!(html.contains(&target), "{html}");

    // Three more copies: the newest two stay here, and of those that went out the newest two
    // there (a copy made while another was sent goes out only when it is the newest then).
    for n in 1..=3 {
        backup_now(server.addr, &cookie, n);
    }
    let end = Instant::now() + Duration::from_secs(60);
    loop {
        let here = copies(&local);
        // Newest first, as the page lists them (`…-2.db` after `….db` of the same second).
        let newest = local_newest(&local);
        let newest_out = local.join(format!("{newest}.remote")).exists();
        let there = copies(&outside);
        if here.len() == 2 && newest_out && there.len() == 2 && there.contains(&newest) {
            break;
        }
        assert!(
            Instant::now() < end,
            "here {here:?}, there {:?}\n{}",
            copies(&outside),
            server.log()
        );
        std::thread::sleep(Duration::from_millis(100));
    }
    let newest = local_newest(&local);
    drop(server);

    // A copy fetched back from the remote passes `verify` with its sum, and `restore` takes it.
    let spec = format!("{target}/{newest}");
    let out = run_env(&db, &["verify", &spec], &env);
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stdout}{stderr}");
    assert!(stdout.starts_with("Probe bestanden\n"), "{stdout}");
    assert!(
        stdout.contains(&format!("stimmt mit {newest}.sha256")),
        "{stdout}"
    );
    assert!(
        stderr.contains(&format!("Geholt mit rclone: {spec}")),
        "{stderr}"
    );

    let other = dir.path().join("woanders.db");
    let out = run_env(&other, &["restore", &spec], &env);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let standings = |db: &Path| {
        let out = crate::run(db, &["standings", "2026", "--json"]);
        assert!(out.status.success());
        out.stdout
    };
    assert_eq!(standings(&other), standings(&db));

    // A copy that is not there is refused in German, naming it.
    let out = run_env(
        &db,
        &["verify", &format!("{target}/gibt-es-nicht.db")],
        &env,
    );
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("gibt-es-nicht.db nicht geholt"), "{stderr}");
}

#[test]
fn a_webdav_remote_without_sha256_is_checked_by_downloading_the_copy_back() {
    let Some(rclone) = rclone() else { return };
    let dir = tempfile::tempdir().unwrap();
    let db = league(dir.path());
    let port = free_port();
    let root = dir.path().join("dav");
    let _dav = Webdav::start(&rclone, &root, port);
    let conf = config(
        dir.path(),
        &format!("[dav]\ntype = webdav\nurl = http://127.0.0.1:{port}\nvendor = other\n"),
    );
    let env = [("RCLONE_CONFIG", conf.to_str().unwrap())];
    let server = serve(&db, dir.path(), "3", "dav:verein/sicherungen", &env);
    let today = status(server.addr)["today"].as_str().unwrap().to_string();
    wait_status(&server, "copy out over WebDAV", |r| {
        r["ok"] == true && r["last"] == today.as_str()
    });
    let local = dir.path().join("sicherungen");
    let name = copies(&local).pop().unwrap();
    let there = root.join("verein/sicherungen");
    assert_eq!(
        std::fs::read(there.join(&name)).unwrap(),
        std::fs::read(local.join(&name)).unwrap()
    );
    let record = std::fs::read_to_string(local.join(format!("{name}.remote"))).unwrap();
    assert!(
        record.contains("zurückgeladen und hier nachgerechnet"),
        "{record}"
    );
    assert!(
        server
            .log()
            .contains("zurückgeladen und hier nachgerechnet"),
        "{}",
        server.log()
    );
}

/// Asserts what a failing remote must leave: the server serves, the local copy is there and
/// passed its probe, the status says `"ok": false`, every Verwaltung page warns with `why`.
pub(crate) fn failed_but_serving(server: &Server, dir: &Path, why: &str) {
    let s = wait_status(server, why, |r| r["ok"] == false);
    assert_eq!(s["ok"], true, "{s}");
    assert!(s["remote"]["last"].is_null(), "{s}");
    let home = raw(server.addr, "GET", "/", None, None).unwrap();
    assert_eq!(home.status, 200);
    let local = dir.join("sicherungen");
    let names = copies(&local);
    assert_eq!(names.len(), 1, "{names:?}");
    let probe = std::fs::read_to_string(local.join(format!("{}.probe", names[0]))).unwrap();
    assert!(probe.starts_with("Probe bestanden"), "{probe}");
    assert!(!local.join(format!("{}.remote", names[0])).exists());
    let cookie = login(server.addr);
    for path in ["/verwaltung", "/verwaltung/sicherung"] {
        let html = page(server.addr, &cookie, path);
        assert!(
            html.contains("Die Sicherung außer Haus ist fehlgeschlagen"),
            "{path}: {html}"
        );
        assert!(html.contains(why), "{path}: {why}: {html}");
    }
}

#[test]
fn an_unreachable_remote_is_reported_the_server_stays_up_and_a_good_copy_clears_it() {
    let Some(rclone) = rclone() else { return };
    let dir = tempfile::tempdir().unwrap();
    let db = league(dir.path());
    let port = free_port();
    let conf = config(
        dir.path(),
        &format!("[dav]\ntype = webdav\nurl = http://127.0.0.1:{port}\nvendor = other\n"),
    );
    let env = [("RCLONE_CONFIG", conf.to_str().unwrap())];
    let server = serve(&db, dir.path(), "3", "dav:sicherungen", &env);
    failed_but_serving(&server, dir.path(), "connection refused");

    // The remote is back: the next copy gets out and the warning goes.
    let _dav = Webdav::start(&rclone, &dir.path().join("dav"), port);
    let cookie = login(server.addr);
    backup_now(server.addr, &cookie, 1);
    let today = status(server.addr)["today"].as_str().unwrap().to_string();
    wait_status(&server, "out after the remote came back", |r| {
        r["ok"] == true && r["last"] == today.as_str()
    });
    let html = page(server.addr, &cookie, "/verwaltung");
    assert!(!html.contains("außer Haus ist fehlgeschlagen"), "{html}");
}

#[test]
fn a_full_remote_is_reported_and_the_server_stays_up() {
    if rclone().is_none() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let db = league(dir.path());
    let conf = config(dir.path(), "[lokal]\ntype = local\n");
    let outside = dir.path().join("aussen");
    // A quota of 1 kB at the remote: rclone stops the transfer there (--max-transfer).
    let env = [
        ("RCLONE_CONFIG", conf.to_str().unwrap()),
        ("RCLONE_MAX_TRANSFER", "1k"),
    ];
    let server = serve(
        &db,
        dir.path(),
        "3",
        &format!("lokal:{}", outside.display()),
        &env,
    );
    failed_but_serving(&server, dir.path(), "max transfer limit reached");
    assert!(copies(&outside).is_empty(), "{:?}", copies(&outside));
}

#[test]
fn a_remote_that_changes_the_copy_is_reported_and_the_changed_file_removed() {
    let Some(real) = rclone() else { return };
    let dir = tempfile::tempdir().unwrap();
    let db = league(dir.path());
    let conf = config(dir.path(), "[lokal]\ntype = local\n");
    let outside = dir.path().join("aussen");
    // A remote that keeps something else than it was sent (a broken disk, a proxy that alters
    // what passes): after each upload of a copy one byte is appended there.
    let bin = dir.path().join("bin");
    std::fs::create_dir(&bin).unwrap();
    let wrapper = bin.join("rclone");
    std::fs::write(
        &wrapper,
        format!(
            "#!/bin/sh\n\"{}\" \"$@\" || exit $?\nfor last; do :; done\n\
             case \"$*\" in *copyto*) case \"$last\" in lokal:*.db) printf x >> \"${{last#lokal:}}\";; esac;; esac\n",
            real.display()
        ),
    )
    .unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&wrapper, std::fs::Permissions::from_mode(0o755)).unwrap();
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let env = [
        ("RCLONE_CONFIG", conf.to_str().unwrap()),
        ("PATH", path.as_str()),
    ];
    let server = serve(
        &db,
        dir.path(),
        "3",
        &format!("lokal:{}", outside.display()),
        &env,
    );
    failed_but_serving(&server, dir.path(), "ist nicht die geschickte");
    // What is there is no copy: removed, so it never counts as one.
    assert!(copies(&outside).is_empty(), "{:?}", copies(&outside));
}

/// Hostile trial: a remote refused when the server starts (here one whose path would be an
/// rclone option) left `GET /api/v1/status` without any `remote`, so a monitor watching
/// `remote.ok` saw nothing. It says `"ok": false` while the Verwaltung warns.
#[test]
fn a_remote_refused_at_the_start_is_not_ok_in_the_status() {
    let dir = tempfile::tempdir().unwrap();
    let db = league(dir.path());
    let server = serve(&db, dir.path(), "3", "loc:--config=/etc/passwd", &[]);
    let s = status(server.addr);
    assert_eq!(s["remote"]["ok"], false, "{s}\nlog:\n{}", server.log());
    assert!(s["remote"]["last"].is_null(), "{s}");
}
