use std::path::Path;

use super::*;

#[test]
fn targets_are_read_as_remote_and_folder_or_refused_in_german() {
    let cases: [(&str, Option<(&str, &str)>); 9] = [
        (
            "nextcloud:schockerliga",
            Some(("nextcloud:schockerliga", "nextcloud:schockerliga/x.db")),
        ),
        (
            " sftp-verein:liga/sicherungen/ ",
            Some((
                "sftp-verein:liga/sicherungen",
                "sftp-verein:liga/sicherungen/x.db",
            )),
        ),
        ("s3.bucket:", Some(("s3.bucket:", "s3.bucket:x.db"))),
        (
            "mein remote:/abs/pfad",
            Some(("mein remote:/abs/pfad", "mein remote:/abs/pfad/x.db")),
        ),
        ("ohne-doppelpunkt", None),
        (":pfad", None),
        ("-rf:pfad", None),
        ("nc:--delete", None),
        ("na/me:pfad", None),
    ];
    for (text, want) in cases {
        match (Target::parse(text), want) {
            (Ok(t), Some((folder, file))) => {
                assert_eq!(t.folder(), folder, "{text}");
                assert_eq!(t.file("x.db"), file, "{text}");
                assert_eq!(t.to_string(), folder, "{text}");
            }
            (Err(e), None) => assert!(e.contains("Ziel außer Haus"), "{text}: {e}"),
            (got, want) => panic!("{text}: {got:?}, want {want:?}"),
        }
    }
}

#[test]
fn a_command_line_file_is_remote_only_when_it_is_not_there_and_names_a_remote() {
    let dir = tempfile::tempdir().unwrap();
    let odd = dir.path().join("a:b.db");
    std::fs::write(&odd, b"").unwrap();
    let cases: [(&Path, bool); 6] = [
        (
            Path::new("nextcloud:schockerliga/liga-2026-05-01-040000.db"),
            true,
        ),
        (Path::new("nc:x.db"), true),
        (Path::new("liga.db"), false),
        (Path::new("/tmp/nirgends:x.db"), false),
        (Path::new("nc:"), false),
        (&odd, false),
    ];
    for (arg, want) in cases {
        assert_eq!(is_remote_file(arg), want, "{}", arg.display());
    }
}

#[test]
fn rclones_failure_is_its_last_lines_without_time_stamps() {
    let stderr = b"2026/05/01 04:00:00 ERROR : liga.db: Failed to copy: no space left on device\n\
2026/05/01 04:00:00 ERROR : Attempt 1/2 failed with 1 errors\n\
2026/05/01 04:00:01 Failed to copyto: no space left on device\n";
    assert_eq!(
        failed_text(Some(1), stderr),
        "rclone endete mit Code 1: ERROR : Attempt 1/2 failed with 1 errors / Failed to copyto: \
         no space left on device"
    );
    assert_eq!(failed_text(None, b""), "rclone endete ohne Code");
    let long = "x".repeat(1000);
    assert_eq!(
        failed_text(Some(3), long.as_bytes()),
        format!("rclone endete mit Code 3: {}", "x".repeat(400))
    );
}

#[tokio::test]
async fn a_missing_rclone_is_a_german_failure_naming_the_package() {
    let dir = tempfile::tempdir().unwrap();
    let got = fetch_with(
        "/nirgends/rclone".into(),
        "nc:ordner/liga-2026-05-01-040000.db",
        dir.path(),
        None,
    )
    .await
    .unwrap_err()
    .to_string();
    assert!(got.contains("nicht gefunden"), "{got}");
    assert!(got.contains("apt install rclone"), "{got}");
    let folder = fetch_with("rclone".into(), "nc:", dir.path(), None)
        .await
        .unwrap_err()
        .to_string();
    assert!(folder.contains("keinen Ordner"), "{folder}");
}

#[test]
fn rclone_gives_a_hanging_remote_up_after_two_idle_waits_without_retrying_the_call() {
    let limits = Limits {
        idle: Duration::from_secs(30),
    };
    let flags = limits.flags().join(" ");
    assert_eq!(
        flags,
        "-q --contimeout 30s --timeout 30s --retries 1 --low-level-retries 2"
    );
    assert_eq!(limits.short(), Duration::from_secs(120));
    assert_eq!(Limits::default().idle, DEFAULT_IDLE);
}

#[test]
fn the_record_of_what_was_sent_is_read_and_a_kept_failure_is_for_its_target_only() {
    let dir = tempfile::tempdir().unwrap();
    let record = dir.path().join("liga-2026-05-01-040000.db.remote");
    let sum = "ab".repeat(32);
    std::fs::write(
        &record,
        format!("außer Haus geprüft am 2026-05-01\nnc:x/liga.db\nSHA-256 {sum}, 4096 Bytes (…)\n"),
    )
    .unwrap();
    assert_eq!(kept::sent(&record), Some((4096, sum)));
    assert_eq!(kept::sent(&dir.path().join("fehlt.remote")), None);

    let file = dir.path().join("liga.ausser-haus");
    let failure = Failure {
        at: "2026-05-01T02:00:00Z".parse().unwrap(),
        message: "rclone endete mit Code 1: connection refused".to_string(),
    };
    kept::save_failure(&file, "nc:x", &failure);
    assert_eq!(kept::load_failure(&file, "nc:x"), Some(failure));
    assert_eq!(kept::load_failure(&file, "anderes:x"), None);
    kept::clear_failure(&file);
    assert!(!file.exists());
    assert_eq!(kept::load_failure(&file, "nc:x"), None);
}

/// Hostile trial: a connection-string remote with a password in it was refused with the whole
/// text, which then stood in the log and on every Verwaltung page, the Kassenwart's too. A
/// refusal names no credentials.
#[test]
fn a_refused_target_does_not_repeat_its_credentials() {
    for text in [
        ":webdav,url='http://clubuser:S3cr3tPW@127.0.0.1:39999':liga",
        "nc,pass=S3cr3tPW:liga",
    ] {
        let e = Target::parse(text).unwrap_err();
        assert!(e.contains("Ziel außer Haus"), "{e}");
        assert!(!e.contains("S3cr3tPW"), "{e}");
        assert!(e.contains("Zugangsdaten ausgeblendet"), "{e}");
    }
    let e = Target::parse("ohne-doppelpunkt").unwrap_err();
    assert!(e.contains("„ohne-doppelpunkt“"), "{e}");
}
