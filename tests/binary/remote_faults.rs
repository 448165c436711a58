//! Issue 37, the hostile pass over the copies off the machine: a remote that hangs, a failure
//! across a restart, a copy replaced at the remote with its sum, the mode of a copy there, a
//! full remote. The real binary and the real rclone against remotes on this machine only (see
//! [`crate::remote`]); without rclone every test says so and skips.

use std::io::Write as _;
use std::net::TcpListener;
use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use std::time::{Duration, Instant};

use sha2::{Digest, Sha256};

use crate::remote::{
    backup_now, config, copies, failed_but_serving, free_port, league, page, rclone, run_env,
    serve, status, wait_status, Webdav,
};
use crate::server::login;

/// A WebDAV "server" on 127.0.0.1 that accepts every connection and never answers (its
/// connections held open until the test ends); its port.
fn hanging() -> u16 {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    std::thread::spawn(move || {
        let mut held = Vec::new();
        for stream in listener.incoming() {
            held.push(stream);
        }
    });
    port
}

/// An rclone configuration with the WebDAV remote `dav` at 127.0.0.1:`port`.
fn dav_config(dir: &Path, port: u16) -> std::path::PathBuf {
    config(
        dir,
        &format!("[dav]\ntype = webdav\nurl = http://127.0.0.1:{port}\nvendor = other\n"),
    )
}

#[test]
fn a_hanging_remote_is_reported_failed_within_its_limit_and_the_server_stays_up() {
    if rclone().is_none() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let db = league(dir.path());
    let conf = dav_config(dir.path(), hanging());
    // rclone's idle limit 2 s instead of 30 s: the failure within seconds, not a minute (with
    // rclone's defaults it took 12 minutes).
    let env = [
        ("RCLONE_CONFIG", conf.to_str().unwrap()),
        ("SCHOCKERLIGA_REMOTE_TIMEOUT", "2"),
    ];
    let started = Instant::now();
    let server = serve(&db, dir.path(), "3", "dav:sicherungen", &env);
    loop {
        if status(server.addr)["remote"]["ok"] == false {
            break;
        }
        assert!(
            started.elapsed() < Duration::from_secs(40),
            "a hanging remote still ok after {:?}\n{}",
            started.elapsed(),
            server.log()
        );
        std::thread::sleep(Duration::from_millis(100));
    }
    failed_but_serving(&server, dir.path(), "timeout");
}

#[test]
fn a_remote_failure_is_remembered_across_a_restart_until_a_good_copy_is_out() {
    let Some(rclone) = rclone() else { return };
    let dir = tempfile::tempdir().unwrap();
    let db = league(dir.path());
    let conf = dav_config(dir.path(), free_port());
    let env = [("RCLONE_CONFIG", conf.to_str().unwrap())];
    let server = serve(&db, dir.path(), "3", "dav:sicherungen", &env);
    failed_but_serving(&server, dir.path(), "connection refused");
    drop(server);
    let kept = dir.path().join("sicherungen/liga.ausser-haus");
    assert!(kept.exists());

    // Started again, the remote now hanging (its next try takes a while): the failure shows at
    // once, on the status and on every Verwaltung page.
    let conf = dav_config(dir.path(), hanging());
    let env = [
        ("RCLONE_CONFIG", conf.to_str().unwrap()),
        ("SCHOCKERLIGA_REMOTE_TIMEOUT", "20"),
    ];
    let server = serve(&db, dir.path(), "3", "dav:sicherungen", &env);
    let s = status(server.addr);
    assert_eq!(s["remote"]["ok"], false, "{s}");
    let cookie = login(server.addr);
    let html = page(server.addr, &cookie, "/verwaltung");
    assert!(
        html.contains("Die Sicherung außer Haus ist fehlgeschlagen"),
        "{html}"
    );
    assert!(html.contains("connection refused"), "{html}");
    drop(server);

    // A good copy out clears it, also for the next start.
    let port = free_port();
    let _dav = Webdav::start(&rclone, &dir.path().join("dav"), port);
    let conf = dav_config(dir.path(), port);
    let env = [("RCLONE_CONFIG", conf.to_str().unwrap())];
    let server = serve(&db, dir.path(), "3", "dav:sicherungen", &env);
    let end = Instant::now() + Duration::from_secs(60);
    while status(server.addr)["remote"]["ok"] != true || kept.exists() {
        assert!(Instant::now() < end, "{}", server.log());
        std::thread::sleep(Duration::from_millis(100));
    }
    let cookie = login(server.addr);
    let html = page(server.addr, &cookie, "/verwaltung");
    assert!(!html.contains("außer Haus ist fehlgeschlagen"), "{html}");
}

/// The SHA-256 of `path`, lower-case hex.
fn sha256(path: &Path) -> String {
    let digest = Sha256::digest(std::fs::read(path).unwrap());
    digest.iter().map(|b| format!("{b:02x}")).collect()
}

#[test]
fn a_copy_at_a_local_remote_is_private_and_one_replaced_there_with_its_sum_is_refused() {
    if rclone().is_none() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let db = league(dir.path());
    let none = dir.path().join("keine.conf");
    let env = [
        ("RCLONE_CONFIG", none.to_str().unwrap()),
        ("RCLONE_CONFIG_LOKAL_TYPE", "local"),
    ];
    let outside = dir.path().join("aussen");
    let target = format!("lokal:{}", outside.display());
    let server = serve(&db, dir.path(), "3", &target, &env);
    let today = status(server.addr)["today"].as_str().unwrap().to_string();
    let end = Instant::now() + Duration::from_secs(60);
    while status(server.addr)["remote"]["last"] != today.as_str() {
        assert!(Instant::now() < end, "{}", server.log());
        std::thread::sleep(Duration::from_millis(100));
    }
    drop(server);
    let name = copies(&outside).pop().unwrap();
    let there = outside.join(&name);
    // The club's data is no one else's to read at the remote either.
    let mode = std::fs::metadata(&there).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o600, "{mode:o}");

    // Someone replaces the copy there with another good database and its sum.
    let other_dir = dir.path().join("andere");
    std::fs::create_dir(&other_dir).unwrap();
    let other = league(&other_dir);
    let forged = other_dir.join("kopie.db");
    let out = crate::run(&other, &["backup", forged.to_str().unwrap()]);
    assert!(out.status.success());
    std::fs::copy(&forged, &there).unwrap();
    let mut sum = std::fs::File::create(outside.join(format!("{name}.sha256"))).unwrap();
    writeln!(sum, "{}  {name}", sha256(&forged)).unwrap();
    drop(sum);

    // verify and restore compare it with the record of what was sent, and refuse it.
    let records = dir.path().join("sicherungen");
    let env_dir = [
        env[0],
        env[1],
        ("SCHOCKERLIGA_BACKUP_DIR", records.to_str().unwrap()),
    ];
    let spec = format!("{target}/{name}");
    let before = std::fs::read(&db).unwrap();
    for args in [
        vec!["verify", spec.as_str()],
        vec!["restore", spec.as_str()],
    ] {
        let out = run_env(&db, &args, &env_dir);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {stderr}");
        assert!(
            stderr.contains("Kopie außer Haus verändert"),
            "{args:?}: {stderr}"
        );
    }
    assert_eq!(std::fs::read(&db).unwrap(), before);

    // The copy as it was sent passes, compared with the record.
    std::fs::copy(records.join(&name), &there).unwrap();
    std::fs::copy(
        records.join(format!("{name}.sha256")),
        outside.join(format!("{name}.sha256")),
    )
    .unwrap();
    let out = run_env(
        &db,
        &["verify", "--backup-dir", records.to_str().unwrap(), &spec],
        &env,
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(stderr.contains("Gleich dem Vermerk"), "{stderr}");
}

#[test]
fn a_full_remote_leaves_no_empty_file_there_and_the_server_stays_up() {
    let Some(real) = rclone() else { return };
    let dir = tempfile::tempdir().unwrap();
    let db = league(dir.path());
    let conf = config(dir.path(), "[lokal]\ntype = local\n");
    let outside = dir.path().join("aussen");
    // A remote that is full: it takes the name of the copy (an empty file, as a WebDAV server
    // over quota does) and then refuses the data.
    let bin = dir.path().join("bin");
    std::fs::create_dir(&bin).unwrap();
    let wrapper = bin.join("rclone");
    std::fs::write(
        &wrapper,
        format!(
            "#!/bin/sh\nfor last; do :; done\n\
             case \"$*\" in *copyto*) case \"$last\" in lokal:*.db) f=\"${{last#lokal:}}\"; \
             mkdir -p \"${{f%/*}}\"; : > \"$f\"; \
             echo \"2026/05/01 04:00:00 ERROR : $f: no space left on device\" >&2; exit 1;; \
             esac;; esac\nexec \"{}\" \"$@\"\n",
            real.display()
        ),
    )
    .unwrap();
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
    failed_but_serving(&server, dir.path(), "no space left on device");
    // Nothing there that could pass for a copy (deleted after the failure was reported).
    let end = Instant::now() + Duration::from_secs(30);
    while !copies(&outside).is_empty() {
        assert!(
            Instant::now() < end,
            "{:?}\n{}",
            copies(&outside),
            server.log()
        );
        std::thread::sleep(Duration::from_millis(100));
    }
    let cookie = login(server.addr);
    backup_now(server.addr, &cookie, 1);
    assert_eq!(
        crate::server::raw(server.addr, "GET", "/", None, None)
            .unwrap()
            .status,
        200
    );
}

#[test]
fn a_copy_replaced_at_the_remote_with_random_bytes_is_found_at_the_next_check_and_sent_again() {
    let Some(real) = rclone() else { return };
    let dir = tempfile::tempdir().unwrap();
    let db = league(dir.path());
    let conf = config(dir.path(), "[lokal]\ntype = local\n");
    let outside = dir.path().join("aussen");
    let target = format!("lokal:{}", outside.display());
    let env = [("RCLONE_CONFIG", conf.to_str().unwrap())];
    let server = serve(&db, dir.path(), "3", &target, &env);
    let today = status(server.addr)["today"].as_str().unwrap().to_string();
    let end = Instant::now() + Duration::from_secs(60);
    while status(server.addr)["remote"]["last"] != today.as_str() {
        assert!(Instant::now() < end, "{}", server.log());
        std::thread::sleep(Duration::from_millis(100));
    }
    drop(server);
    let name = copies(&outside).pop().unwrap();
    let there = outside.join(&name);
    let sent = sha256(&there);
    // The disk at the remote rots, or someone writes over the copy: as many bytes, all others.
    let size = std::fs::metadata(&there).unwrap().len() as usize;
    let noise: Vec<u8> = (0..size).map(|i| (i * 7919 % 251) as u8 ^ 0x5a).collect();
    std::fs::write(&there, &noise).unwrap();

    // Started again with a remote that takes no new copy: the check at the start finds the
    // change, and it shows until a good copy is out.
    let bin = dir.path().join("bin");
    std::fs::create_dir(&bin).unwrap();
    let wrapper = bin.join("rclone");
    std::fs::write(
        &wrapper,
        format!(
            "#!/bin/sh\ncase \"$*\" in *copyto*|*rcat*) \
             echo \"2026/05/01 04:00:00 ERROR : permission denied\" >&2; exit 1;; esac\n\
             exec \"{}\" \"$@\"\n",
            real.display()
        ),
    )
    .unwrap();
    std::fs::set_permissions(&wrapper, std::fs::Permissions::from_mode(0o755)).unwrap();
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let refusing = [env[0], ("PATH", path.as_str())];
    let server = serve(&db, dir.path(), "3", &target, &refusing);
    let s = wait_status(&server, "the change found", |r| {
        r["ok"] == false && r["last"].is_null()
    });
    assert_eq!(s["ok"], true, "{s}");
    let cookie = login(server.addr);
    let end = Instant::now() + Duration::from_secs(60);
    while !page(server.addr, &cookie, "/verwaltung").contains("permission denied") {
        assert!(Instant::now() < end, "{}", server.log());
        std::thread::sleep(Duration::from_millis(100));
    }
    for path in ["/verwaltung", "/verwaltung/sicherung"] {
        let html = page(server.addr, &cookie, path);
        assert!(
            html.contains("Die Sicherung außer Haus ist fehlgeschlagen"),
            "{path}: {html}"
        );
        assert!(
            html.contains("Kopie außer Haus verändert"),
            "{path}: {html}"
        );
    }
    // The changed copy is no copy: taken away there with what the failed upload left.
    assert!(!there.exists() || sha256(&there) != sent);
    assert!(
        server.log().contains("Kopie außer Haus verändert"),
        "{}",
        server.log()
    );
    drop(server);

    // With the remote taking copies again, the copy goes out again and equals the one sent.
    let server = serve(&db, dir.path(), "3", &target, &env);
    let end = Instant::now() + Duration::from_secs(60);
    // (rclone renames the new copy into place: for a moment there is none.)
    while status(server.addr)["remote"]["ok"] != true || !there.exists() || sha256(&there) != sent {
        assert!(Instant::now() < end, "{}", server.log());
        std::thread::sleep(Duration::from_millis(100));
    }
    let html = page(server.addr, &login(server.addr), "/verwaltung");
    assert!(!html.contains("außer Haus ist fehlgeschlagen"), "{html}");
}
