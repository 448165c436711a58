//! The command line from outside: the real binary with `--database` in a temporary directory.

use std::process::{Command, Output, Stdio};

use serde_json::Value;

use crate::common::{fixture, read_json};
use crate::{run, BIN};

fn json_of(out: &Output) -> Value {
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

#[test]
fn imported_fixtures_give_exactly_their_standings_and_payouts() {
    for name in ["sample-2026", "small-2026"] {
        let dir = tempfile::tempdir().unwrap();
        let db = dir.path().join("liga.db");
        let season = fixture(&format!("{name}.season.json"));
        let out = run(&db, &["import", season.to_str().unwrap()]);
        assert_eq!(
            out.status.code(),
            Some(0),
            "{name}: {}",
            String::from_utf8_lossy(&out.stderr)
        );

        let standings = json_of(&run(&db, &["standings", "2026", "--json"]));
        assert_eq!(
            standings,
            read_json(&fixture(&format!("{name}.standings.json"))),
            "{name}"
        );
        let payouts = json_of(&run(&db, &["payouts", "2026", "--json"]));
        assert_eq!(
            payouts,
            read_json(&fixture(&format!("{name}.payouts.json"))),
            "{name}"
        );
    }
}

#[test]
fn an_exported_season_reimports_to_the_same_standings() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("liga.db");
    let season = fixture("sample-2026.season.json");
    assert!(run(&db, &["import", season.to_str().unwrap()])
        .status
        .success());
    let before = json_of(&run(&db, &["standings", "2026", "--json"]));

    let exported = dir.path().join("export.json");
    let out = run(&db, &["export", "2026", "-o", exported.to_str().unwrap()]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // An existing file is not overwritten without --force, the database never (not even with it).
    let again = run(&db, &["export", "2026", "-o", exported.to_str().unwrap()]);
    assert_eq!(again.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&again.stderr).contains("gibt es schon"));
    let forced = run(
        &db,
        &[
            "export",
            "2026",
            "-o",
            exported.to_str().unwrap(),
            "--force",
        ],
    );
    assert!(forced.status.success());
    for target in [
        db.clone(),
        dir.path().join("liga.db-wal"),
        dir.path().join(".").join("liga.db"),
        // Hostile run: JSON written over the sessions' database stopped the next `serve`.
        dir.path().join("liga.db-sitzungen"),
        dir.path().join("liga.db-sitzungen-wal"),
        dir.path().join("liga.db-journal"),
    ] {
        let r = run(
            &db,
            &["export", "2026", "-o", target.to_str().unwrap(), "--force"],
        );
        assert_eq!(r.status.code(), Some(1), "{}", target.display());
        assert!(String::from_utf8_lossy(&r.stderr).contains("Datenbank selbst"));
    }
    assert!(
        run(&db, &["standings", "2026"]).status.success(),
        "the database is intact"
    );
    // Without -o the same file goes to stdout.
    assert_eq!(
        json_of(&run(&db, &["export", "2026"])),
        read_json(&exported)
    );

    let refused = run(&db, &["import", exported.to_str().unwrap()]);
    assert_eq!(
        refused.status.code(),
        Some(1),
        "a season with nights needs --replace"
    );
    let out = run(&db, &["import", exported.to_str().unwrap(), "--replace"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(json_of(&run(&db, &["standings", "2026", "--json"])), before);

    // The export equals the fixture (rules, players, nights, fines) up to field order.
    let mut original = read_json(&season);
    let mut again = read_json(&exported);
    for v in [&mut original, &mut again] {
        for n in v["nights"].as_array_mut().unwrap() {
            if n["fines"].as_array().is_some_and(|f| f.is_empty()) {
                n.as_object_mut().unwrap().remove("fines");
            }
        }
    }
    assert_eq!(again, original);
}

#[test]
fn a_broken_import_exits_1_names_the_place_and_changes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("liga.db");
    let good = fixture("small-2026.season.json");
    assert!(run(&db, &["import", good.to_str().unwrap()])
        .status
        .success());
    let before = json_of(&run(&db, &["standings", "2026", "--json"]));
    let before_export = json_of(&run(&db, &["export", "2026"]));

    // A round with two `lost` rows in the last night.
    let mut broken = read_json(&good);
    let night = broken["nights"].as_array_mut().unwrap().last_mut().unwrap();
    let date = night["date"].as_str().unwrap().to_string();
    let round = &mut night["tables"][0]["rounds"][9];
    let results = round["results"].as_array_mut().unwrap();
    let second = results.iter().position(|r| r["lost"] == false).unwrap();
    results[second]["lost"] = Value::Bool(true);
    let player = results[second]["player"].as_str().unwrap().to_string();
    let path = dir.path().join("broken.json");
    std::fs::write(&path, broken.to_string()).unwrap();

    let out = run(&db, &["import", path.to_str().unwrap(), "--replace"]);
    assert_eq!(out.status.code(), Some(1));
    let msg = String::from_utf8_lossy(&out.stderr);
    let (y, m, d) = (&date[0..4], &date[5..7], &date[8..10]);
    for part in [format!("{d}.{m}.{y}"), "Tisch 1".into(), "Runde 10".into()] {
        assert!(msg.contains(&part), "{msg:?} lacks {part:?}");
    }
    assert!(
        msg.contains(&player) || msg.contains("lost"),
        "{msg:?} names neither player nor field"
    );

    assert_eq!(json_of(&run(&db, &["standings", "2026", "--json"])), before);
    assert_eq!(json_of(&run(&db, &["export", "2026"])), before_export);
}

#[test]
fn bad_input_and_unknown_seasons_exit_1_and_usage_errors_exit_2() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("liga.db");
    let not_json = dir.path().join("x.json");
    std::fs::write(&not_json, "{ nope").unwrap();
    let cases: [(&[&str], i32); 6] = [
        (&["import", not_json.to_str().unwrap()], 1),
        (&["import", "/does/not/exist.json"], 1),
        (&["standings", "1999", "--json"], 1),
        (&["payouts", "1999"], 1),
        (&["frobnicate"], 2),
        (&["standings", "2026", "--as-of", "30.11.2026"], 2),
    ];
    for (args, code) in cases {
        let out = run(&db, args);
        assert_eq!(
            out.status.code(),
            Some(code),
            "{args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(!out.stderr.is_empty(), "{args:?}: no message");
    }
}

#[test]
fn reading_commands_on_a_missing_database_refuse_and_create_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("gibt-es-nicht.db");
    let backup = dir.path().join("sicherung.db");
    let cases: [&[&str]; 4] = [
        &["backup", backup.to_str().unwrap()],
        &["export", "2026"],
        &["standings", "2026"],
        &["payouts", "2026", "--json"],
    ];
    for args in cases {
        let out = run(&db, args);
        assert_eq!(out.status.code(), Some(1), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("gibt es nicht"), "{args:?}: {err}");
        assert!(!db.exists(), "{args:?} created the database");
        assert!(!backup.exists(), "{args:?} wrote a backup");
    }
}

#[test]
fn every_command_that_makes_a_database_says_so_and_where() {
    let season = fixture("small-2026.season.json");
    // (the command, its arguments)
    let cases: [(&str, Vec<&str>); 2] = [
        ("import", vec!["import", season.to_str().unwrap()]),
        ("demo", vec!["demo", "--seasons", "1", "--nights", "2"]),
    ];
    for (what, args) in cases {
        let dir = tempfile::tempdir().unwrap();
        let db = dir.path().join("liga.db");
        let out = run(&db, &args);
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "{what}: {err}");
        assert!(
            err.contains(&format!("Neue Datenbank {} angelegt", db.display())),
            "{what}: {err}"
        );
        // A second run finds it: nothing is said.
        let again = run(&db, &["import", season.to_str().unwrap(), "--replace"]);
        assert!(again.status.success());
        assert!(!String::from_utf8_lossy(&again.stderr).contains("Neue Datenbank"));
    }
    // A relative --database is said with its whole path.
    let dir = tempfile::tempdir().unwrap();
    let out = Command::new(BIN)
        .args(["import", season.to_str().unwrap(), "--database", "rel.db"])
        .current_dir(dir.path())
        .env_remove("DATABASE_URL")
        .stdin(Stdio::null())
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    let abs = dir.path().canonicalize().unwrap().join("rel.db");
    assert!(
        err.contains(&format!("Neue Datenbank {} angelegt", abs.display())),
        "{err}"
    );
    // The server says it in its log.
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("neu.db");
    let server = crate::server::Server::start(&db);
    let log = server.log();
    assert!(
        log.contains(&format!("Neue Datenbank {} angelegt", db.display())),
        "{log}"
    );
}

#[test]
fn global_options_work_before_the_subcommand_and_as_of_limits_the_table() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("liga.db");
    let season = fixture("small-2026.season.json");
    let out = Command::new(BIN)
        .arg("--database")
        .arg(&db)
        .args(["import", season.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(out.status.success());
    let early = json_of(&run(
        &db,
        &["standings", "2026", "--as-of", "2026-01-31", "--json"],
    ));
    assert_eq!(early["as_of"], "2026-01-31");
    let full = json_of(&run(&db, &["standings", "2026", "--json"]));
    let rounds = |v: &Value| {
        v["rows"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r["rounds"].as_u64().unwrap())
            .sum::<u64>()
    };
    assert!(rounds(&early) < rounds(&full));
    let text = run(&db, &["standings", "2026"]);
    let text = String::from_utf8_lossy(&text.stdout);
    assert!(
        text.contains("1. Liga") && text.contains("D.Wert"),
        "{text}"
    );
}

/// `user add NAME --role kassenpruefer` (issue 35.3): the account is stored with that role.
#[test]
fn user_add_makes_a_kassenpruefer() {
    use std::io::Write;
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("liga.db");
    let mut child = Command::new(BIN)
        .args([
            "user",
            "add",
            "petra",
            "--role",
            "kassenpruefer",
            "--database",
        ])
        .arg(&db)
        .stdin(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(b"geheim123\n")
        .unwrap();
    let out = child.wait_with_output().unwrap();
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{said}");
    assert!(
        said.contains("Konto petra (kassenpruefer) angelegt"),
        "{said}"
    );
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let role: String = rt.block_on(async {
        use sqlx::ConnectOptions;
        let mut c = sqlx::sqlite::SqliteConnectOptions::new()
            .filename(&db)
            .connect()
            .await
            .unwrap();
        sqlx::query_scalar("select role from users where username = 'petra'")
            .fetch_one(&mut c)
            .await
            .unwrap()
    });
    assert_eq!(role, "kassenpruefer");
}

#[test]
fn user_add_reads_the_password_from_stdin_and_backup_copies_the_database() {
    use std::io::Write;
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("liga.db");
    let mut child = Command::new(BIN)
        .args(["user", "add", "anna", "--role", "secretary", "--database"])
        .arg(&db)
        .stdin(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(b"geheim123\n")
        .unwrap();
    assert!(child.wait_with_output().unwrap().status.success());
    let out = run(&db, &["user", "add", "x", "--role", "boss"]);
    assert_eq!(out.status.code(), Some(2));
    // Said in German, with what is allowed and the command's usage line.
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(
        said.starts_with(
            "Fehler: Ungültiger Wert „boss“ für --role <ROLE>: erlaubt sind admin, secretary, kassenwart, kassenpruefer."
        ),
        "{said}"
    );
    assert!(said.contains("\nAufruf: schockerliga user add "), "{said}");
    let out = run(&db, &["night", "plan", "2027-02-30"]);
    assert_eq!(out.status.code(), Some(2));
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(
        said.contains("„2027-02-30“ für <DATE>: diesen Tag gibt es nicht"),
        "{said}"
    );
    // An empty database name is a usage error and leaves no file behind.
    let out = Command::new(BIN)
        .args(["status", "--database", ""])
        .current_dir(dir.path())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(
        said.contains("--database <DATABASE> braucht einen Wert"),
        "{said}"
    );
    assert!(!dir.path().join("-sitzungen").exists(), "a stray file");
    // An empty DATABASE_URL is as if unset: the --database given counts.
    let out = Command::new(BIN)
        .args(["status", "--database"])
        .arg(&db)
        .env("DATABASE_URL", "")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // An argument that is no UTF-8 is a usage error like any other, not a panic.
    {
        use std::os::unix::ffi::OsStrExt;
        let out = Command::new(BIN)
            .args(["night", "plan"])
            .arg(std::ffi::OsStr::from_bytes(b"\xff\xfe"))
            .arg("--database")
            .arg(&db)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2));
        let said = String::from_utf8_lossy(&out.stderr);
        assert!(said.starts_with("Fehler: "), "{said}");
        assert!(!said.contains("panicked"), "{said}");
    }
    assert!(
        !said.contains("error:") && !said.contains("Usage:"),
        "{said}"
    );

    let copy = dir.path().join("copy.db");
    assert!(run(&db, &["backup", copy.to_str().unwrap()])
        .status
        .success());
    assert!(copy.exists());
    assert_eq!(
        run(&db, &["backup", copy.to_str().unwrap()]).status.code(),
        Some(1),
        "no overwrite"
    );
}

#[test]
fn a_first_start_in_a_fresh_directory_serves_and_prints_a_working_setup_link() {
    use std::io::{BufRead, BufReader, Read, Write};
    let dir = tempfile::tempdir().unwrap();
    let mut child = Command::new(BIN)
        .args(["--listen", "127.0.0.1:0"])
        .current_dir(dir.path())
        .env_remove("DATABASE_URL")
        .env("NO_COLOR", "1")
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let stderr = child.stderr.take().unwrap();
    // Read the log on a thread that keeps draining it, so the server never writes to a closed pipe.
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stderr).lines().map_while(Result::ok) {
            if let Some(at) = line.find("http://") {
                let url = line[at..]
                    .split_whitespace()
                    .next()
                    .unwrap_or("")
                    .to_string();
                if url.contains("/setup?token=") {
                    let _ = tx.send(url);
                }
            }
        }
    });
    let link = rx.recv_timeout(std::time::Duration::from_secs(30)).ok();
    let link = link.expect("setup link printed");
    let rest = link.trim_start_matches("http://");
    let (host, path) = rest.split_at(rest.find('/').unwrap());
    let path = path.trim_end_matches(|c: char| !c.is_ascii_hexdigit());
    let mut stream = std::net::TcpStream::connect(host).unwrap();
    write!(
        stream,
        "GET {path} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n"
    )
    .unwrap();
    let mut answer = String::new();
    stream.read_to_string(&mut answer).unwrap();
    child.kill().unwrap();
    child.wait().unwrap();
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
    assert!(answer.contains("Ersten Admin anlegen"));
    assert!(
        dir.path().join("schockerliga.db").exists(),
        "database created in the working directory"
    );
}

#[test]
fn the_help_speaks_german_for_the_program_and_every_command() {
    for args in [
        vec!["--help"],
        vec!["import", "--help"],
        vec!["serve", "--help"],
        vec!["user", "--help"],
        vec!["user", "add", "--help"],
        vec!["night", "link", "--help"],
        vec!["demo", "--help"],
    ] {
        let out = std::process::Command::new(crate::BIN)
            .args(&args)
            .output()
            .unwrap();
        assert!(out.status.success(), "{args:?}");
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(text.contains("Aufruf: schockerliga"), "{args:?}: {text}");
        assert!(text.contains("Optionen:\n"), "{args:?}: {text}");
        assert!(text.contains("Diese Hilfe zeigen"), "{args:?}: {text}");
        assert!(!text.contains("Print help"), "{args:?}: {text}");
        assert!(!text.contains("\n\n\n"), "no empty block: {args:?}: {text}");
    }
    let top = std::process::Command::new(crate::BIN)
        .arg("--help")
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&top.stdout);
    assert!(
        text.contains("Befehle:\n  serve        Den Webserver starten"),
        "{text}"
    );
}

#[test]
fn a_season_exported_as_csv_imports_back_to_the_same_standings_and_a_bad_sheet_changes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("liga.db");
    let season = fixture("sample-2026.season.json");
    assert!(run(&db, &["import", season.to_str().unwrap()])
        .status
        .success());
    let before = json_of(&run(&db, &["standings", "2026", "--json"]));

    let csv = dir.path().join("abende.csv");
    let out = run(
        &db,
        &["export", "2026", "--csv", "-o", csv.to_str().unwrap()],
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let bytes = std::fs::read(&csv).unwrap();
    assert!(bytes.starts_with("\u{feff}Datum;Spieler;Runden;Outs;Hand-Outs;Julen;Outs gewertet;verloren;Tisch;Beitrag bezahlt am\r\n".as_bytes()));
    // Without -o the same bytes go to stdout.
    assert_eq!(run(&db, &["export", "2026", "--csv"]).stdout, bytes);

    let other = dir.path().join("neu.db");
    let out = run(&other, &["import", csv.to_str().unwrap()]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(String::from_utf8_lossy(&out.stderr).contains("als Summen"));
    assert_eq!(
        json_of(&run(&other, &["standings", "2026", "--json"])),
        before
    );
    // Again: the season has nights now, so only with --replace.
    let again = run(&other, &["import", csv.to_str().unwrap()]);
    assert_eq!(again.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&again.stderr).contains("--replace"));

    // One bad line: refused with its line and column, nothing written.
    let text = String::from_utf8(bytes).unwrap();
    let mut lines: Vec<String> = text.split("\r\n").map(str::to_string).collect();
    let mut cells: Vec<String> = lines[4].split(';').map(str::to_string).collect();
    cells[2] = "elf".to_string();
    lines[4] = cells.join(";");
    let bad = dir.path().join("kaputt.csv");
    std::fs::write(&bad, lines.join("\r\n")).unwrap();
    let empty = dir.path().join("leer.db");
    let out = run(&empty, &["import", bad.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("Zeile 5, Spalte „Runden“: „elf“ ist keine Zahl"),
        "{err}"
    );
    // The sheet is refused before the database is opened: not even an empty one is created.
    assert!(!empty.exists(), "nothing was written");
    // Over a season that is there, even with --replace: refused, the season stays as it was.
    let out = run(&other, &["import", bad.to_str().unwrap(), "--replace"]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        json_of(&run(&other, &["standings", "2026", "--json"])),
        before
    );
}

#[test]
fn the_whole_club_exports_as_one_file_and_imports_back_whole() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("liga.db");
    let text = crate::common::fixture_text("small-2026.season.json")
        .replace("\"2026-", "\"2025-")
        .replace("\"season\": 2026", "\"season\": 2025");
    let older = dir.path().join("2025.json");
    std::fs::write(&older, text).unwrap();
    for file in [fixture("sample-2026.season.json"), older] {
        assert!(run(&db, &["import", file.to_str().unwrap()])
            .status
            .success());
    }
    let club = dir.path().join("verein.json");
    let out = run(&db, &["export", "--all", "-o", club.to_str().unwrap()]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let file = read_json(&club);
    assert_eq!(file["format"], "schockerliga-club/1");
    assert_eq!(file["seasons"].as_array().unwrap().len(), 2);
    assert!(
        run(&db, &["export", "--all", "--csv"]).status.code() == Some(2),
        "usage error"
    );

    let other = dir.path().join("neu.db");
    let out = run(&other, &["import", club.to_str().unwrap()]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    for year in ["2025", "2026"] {
        assert_eq!(
            json_of(&run(&other, &["standings", year, "--json"])),
            json_of(&run(&db, &["standings", year, "--json"])),
            "{year}"
        );
        assert_eq!(
            json_of(&run(&other, &["payouts", year, "--json"])),
            json_of(&run(&db, &["payouts", year, "--json"])),
            "{year}"
        );
    }
    assert_eq!(json_of(&run(&other, &["export", "--all"])), file);
}

/// Issue 37: the club's file is written compactly, one season per line (the oldest first), and
/// as gzip with `--gzip` or a name on `.gz`; `import` takes the gzip file and the pretty file of
/// the versions before alike, and the league comes back the same.
#[test]
fn the_club_file_is_compact_one_season_a_line_and_gzip_imports_back_as_the_old_pretty_file() {
    use std::io::Read as _;
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("liga.db");
    let text = crate::common::fixture_text("small-2026.season.json")
        .replace("\"2026-", "\"2025-")
        .replace("\"season\": 2026", "\"season\": 2025");
    let older = dir.path().join("2025.json");
    std::fs::write(&older, text).unwrap();
    for file in [fixture("sample-2026.season.json"), older] {
        assert!(run(&db, &["import", file.to_str().unwrap()])
            .status
            .success());
    }
    let plain = run(&db, &["export", "--all"]);
    assert!(plain.status.success());
    let plain_text = String::from_utf8(plain.stdout.clone()).unwrap();
    let lines: Vec<&str> = plain_text.lines().collect();
    assert_eq!(lines.len(), 4, "{plain_text}");
    assert!(lines[0].starts_with("{\"format\":\"schockerliga-club/1\",\"players\":["));
    for (line, year) in [
        (lines[1].strip_suffix(',').unwrap(), 2025),
        (lines[2], 2026),
    ] {
        assert!(
            line.starts_with("{\"format\":\"schockerliga-season/1\","),
            "{line}"
        );
        let season: Value = serde_json::from_str(line).unwrap();
        assert_eq!(season["season"], year);
    }
    assert_eq!(lines[3], "]}");
    // Compact: the rows leave their defaults out, and no indentation.
    assert!(!plain_text.contains("\"joker\":false"), "{plain_text}");
    assert!(!plain_text.contains("\n "), "{plain_text}");
    let club: Value = serde_json::from_slice(&plain.stdout).unwrap();

    for (name, args) in [
        ("verein.json.gz", &[][..]),
        ("verein.gepackt", &["--gzip"][..]),
    ] {
        let gz = dir.path().join(name);
        let mut all = vec!["export", "--all", "-o", gz.to_str().unwrap()];
        all.extend_from_slice(args);
        let out = run(&db, &all);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let bytes = std::fs::read(&gz).unwrap();
        assert_eq!(&bytes[..2], &[0x1f, 0x8b], "{name}: gzip");
        let mut unzipped = Vec::new();
        flate2::read::GzDecoder::new(&bytes[..])
            .read_to_end(&mut unzipped)
            .unwrap();
        assert_eq!(unzipped, plain.stdout, "{name}");

        let other = dir.path().join(format!("{name}.db"));
        let out = run(&other, &["import", gz.to_str().unwrap()]);
        assert!(
            out.status.success(),
            "{name}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(
            String::from_utf8_lossy(&out.stderr).contains("Verein importiert: 2 Saisons"),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert_eq!(json_of(&run(&other, &["export", "--all"])), club, "{name}");
    }

    // The pretty file the versions before wrote imports the same.
    let pretty = dir.path().join("alt.json");
    std::fs::write(&pretty, serde_json::to_string_pretty(&club).unwrap()).unwrap();
    let other = dir.path().join("alt.db");
    let out = run(&other, &["import", pretty.to_str().unwrap()]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    for year in ["2025", "2026"] {
        assert_eq!(
            json_of(&run(&other, &["standings", year, "--json"])),
            json_of(&run(&db, &["standings", year, "--json"])),
            "{year}"
        );
        assert_eq!(
            json_of(&run(&other, &["payouts", year, "--json"])),
            json_of(&run(&db, &["payouts", year, "--json"])),
            "{year}"
        );
    }
}

/// A season kept as its Endstand is a season that is there (issue 33.5): a season file of that
/// year needs `--replace` like the spreadsheet does; refused, the Endstand stays as it was.
#[test]
fn a_season_file_over_an_endstand_needs_replace_like_the_sheet() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("liga.db");
    let endstand = dir.path().join("endstand.csv");
    std::fs::write(
        &endstand,
        "Saison;Spieler;Liga;Runden;Outs gewertet;bezahlte Runden\r\n\
         2025;Anna;1. Liga;200;130;20\r\n2025;Bernd;2. Liga;90;40;12\r\n",
    )
    .unwrap();
    let out = run(&db, &["import", endstand.to_str().unwrap()]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let before = json_of(&run(&db, &["standings", "2025", "--json"]));
    // The spreadsheet refuses a second time without --replace …
    let again = run(&db, &["import", endstand.to_str().unwrap()]);
    assert_eq!(again.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&again.stderr).contains("--replace"));
    // … and so does a season file of that year.
    let text = crate::common::fixture_text("small-2026.season.json")
        .replace("\"2026-", "\"2025-")
        .replace("\"season\": 2026", "\"season\": 2025");
    let file = dir.path().join("2025.json");
    std::fs::write(&file, text).unwrap();
    let out = run(&db, &["import", file.to_str().unwrap()]);
    assert_eq!(
        out.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("Saison 2025 hat schon einen Endstand"),
        "{err}"
    );
    assert!(err.contains("--replace"), "{err}");
    assert_eq!(json_of(&run(&db, &["standings", "2025", "--json"])), before);
    // With --replace it is replaced.
    let out = run(&db, &["import", file.to_str().unwrap(), "--replace"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_ne!(json_of(&run(&db, &["standings", "2025", "--json"])), before);
}

/// The command line names what of a club's sheet it skipped (issue 31.9).
#[test]
fn the_import_names_the_title_row_computed_columns_and_sum_rows_it_skipped() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("liga.db");
    let sheet = dir.path().join("natur.csv");
    std::fs::write(
        &sheet,
        "Schockerliga 2024\r\nDatum;Spieler;Runden;Schock Out;verloren;Schnitt\r\n\
         05.01.2024;Anna;10;3;4;0,3\r\n05.01.2024;Bernd;10;2;6;0,2\r\nGesamt;;20;5;10;\r\n",
    )
    .unwrap();
    let out = run(&db, &["import", sheet.to_str().unwrap()]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    for want in [
        "übersprungen",
        "Zeile 1 (Titel „Schockerliga 2024“)",
        "Spalte „Schnitt“ (berechnet)",
        "Zeile 5 („Gesamt“)",
    ] {
        assert!(err.contains(want), "{want}: {err}");
    }
}

/// Issue 32.2 on the command line: a season file that carries no money (no fines, no fee, no
/// Strafenkatalog) replaces the season's results only, like a sheet: the fines and fees stay, and
/// a closed night is replaced only with `--korrektur GRUND`.
#[test]
fn a_season_file_without_money_replaces_results_only_and_a_closed_night_needs_korrektur() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("liga.db");
    let mut season = read_json(&fixture("sample-2026.season.json"));
    season["nights"][5]["closed"] = Value::Bool(true);
    let closed = season["nights"][5]["date"].as_str().unwrap().to_string();
    let with_money = dir.path().join("2026.json");
    std::fs::write(&with_money, season.to_string()).unwrap();
    let out = run(&db, &["import", with_money.to_str().unwrap()]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let payouts = json_of(&run(&db, &["payouts", "2026", "--json"]));
    let standings = json_of(&run(&db, &["standings", "2026", "--json"]));

    let mut results = season.clone();
    for n in results["nights"].as_array_mut().unwrap() {
        n.as_object_mut().unwrap().remove("fines");
        n.as_object_mut().unwrap().remove("closed");
    }
    for p in results["players"].as_array_mut().unwrap() {
        p["fee_paid_on"] = Value::Null;
    }
    // One Out more in the closed night: its results change.
    results["nights"][5]["tables"][0]["rounds"][0]["results"][0]["outs"] = Value::from(2);
    let results_only = dir.path().join("ergebnisse.json");
    std::fs::write(&results_only, results.to_string()).unwrap();
    let out = run(
        &db,
        &["import", results_only.to_str().unwrap(), "--replace"],
    );
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    let day = chrono::NaiveDate::parse_from_str(&closed, "%Y-%m-%d")
        .unwrap()
        .format("%d.%m.%Y")
        .to_string();
    assert!(err.contains(&day) && err.contains("--korrektur"), "{err}");
    assert_eq!(json_of(&run(&db, &["payouts", "2026", "--json"])), payouts);

    let out = run(
        &db,
        &[
            "import",
            results_only.to_str().unwrap(),
            "--replace",
            "--korrektur",
            "Runden neu eingelesen",
        ],
    );
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    assert!(
        err.contains("Strafen, Beiträge, Zahlungen und der Strafenkatalog bleiben"),
        "{err}"
    );
    let money = |p: &Value| {
        (
            p["fines_cents"].clone(),
            p["fees_cents"].clone(),
            p["open_fines_cents"].clone(),
        )
    };
    assert_eq!(
        money(&json_of(&run(&db, &["payouts", "2026", "--json"]))),
        money(&payouts)
    );
    assert_ne!(
        json_of(&run(&db, &["standings", "2026", "--json"])),
        standings,
        "the results are the file's"
    );
    let exported = json_of(&run(&db, &["export", "2026"]));
    let night = exported["nights"]
        .as_array()
        .unwrap()
        .iter()
        .find(|n| n["date"] == closed.as_str())
        .unwrap();
    assert_eq!(night["closed"], true);
    assert_eq!(
        night["corrections"][0]["reason"], "Runden neu eingelesen",
        "{night}"
    );
    // A season file with its money is still the whole season (our own export replaces all).
    let out = run(&db, &["import", with_money.to_str().unwrap(), "--replace"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(json_of(&run(&db, &["payouts", "2026", "--json"])), payouts);
}

/// The start page's command for the first account is the exact command for this server (fifth
/// trial: it said `schockerliga …` to a club that started the server with `cargo run --release`,
/// where no `schockerliga` is on the PATH: "command not found"): the program by its full path
/// unless its folder is on the PATH, with this server's database.
#[test]
fn the_first_account_command_names_the_program_as_it_can_be_called() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("liga.db");
    let bin = std::fs::canonicalize(BIN).unwrap();
    let folder = bin.parent().unwrap().to_str().unwrap().to_string();
    let database = std::fs::canonicalize(dir.path()).unwrap().join("liga.db");
    // (PATH, the program word the page must name)
    let cases = [
        ("/usr/bin:/bin".to_string(), bin.display().to_string()),
        (
            format!("/usr/bin:{folder}:/bin"),
            "schockerliga".to_string(),
        ),
    ];
    for (path, program) in cases {
        let server = crate::server::Server::start_with(&db, &[("PATH", path.as_str())]);
        let page = crate::server::raw(server.addr, "GET", "/", None, None).unwrap();
        let want = format!(
            "{program} --database {} user add NAME --role admin",
            database.display()
        );
        let body = String::from_utf8_lossy(&page.body);
        assert!(body.contains(&want), "{want} in {body}");
        server.kill();
    }
}

/// Issue 35.2: `kassenbericht YEAR --json` gives the Kassenbericht's figures: Anfangsbestand,
/// income and expenses by category, the Endbestand with cash and bank: the league's fees and
/// fines in cash, equal to `payouts`, less the payouts once the year is over.
#[test]
fn kassenbericht_json_gives_the_figures_by_category() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("liga.db");
    let season = fixture("small-2026.season.json");
    assert!(run(&db, &["import", season.to_str().unwrap()])
        .status
        .success());
    let p = json_of(&run(&db, &["payouts", "2026", "--json"]));
    let k = json_of(&run(&db, &["kassenbericht", "2026", "--json"]));
    let (fees, fines) = (
        p["fees_cents"].as_i64().unwrap(),
        p["fines_cents"].as_i64().unwrap(),
    );
    assert_eq!(k["carry_in_cents"], 0, "{k}");
    assert_eq!(k["income"]["Beitrag"], fees, "{k}");
    assert_eq!(k["income"]["Strafe"], fines, "{k}");
    // Before the payouts nothing went out; after them (the system clock past 2026) the places
    // and the Lucky Looser, and the carry-out stays.
    let out: i64 = k["expenses"]
        .as_object()
        .unwrap()
        .values()
        .map(|v| v.as_i64().unwrap())
        .sum();
    let want_out = match k["payouts_booked"].as_bool().unwrap() {
        false => 0,
        true => fees + fines - p["carry_out_cents"].as_i64().unwrap(),
    };
    assert_eq!(out, want_out, "{k}");
    assert_eq!(k["end_cents"], fees + fines - out);
    assert_eq!(k["cash_cents"], fees + fines - out);
    assert_eq!(k["bank_cents"], 0);
    assert_eq!(k["matches_kassenbuch"], true);
    assert_eq!(k["matches_jahresabschluss"], true);
    let text = run(&db, &["kassenbericht", "2026"]);
    let text = String::from_utf8_lossy(&text.stdout);
    assert!(
        text.contains("Kassenbericht 2026") && text.contains("Endbestand"),
        "{text}"
    );
    let none = run(&db, &["kassenbericht", "1999"]);
    assert_eq!(none.status.code(), Some(1));
}

/// Hostile trial: right after `import` (or `player merge`) the database file held 4 KiB and all
/// of the data sat in its `-wal` beside it; a plain `cp liga.db` had no season. A writing command
/// folds its log into the file before it exits: the file alone is the league.
#[test]
fn a_writing_command_leaves_the_whole_league_in_the_file_itself() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("liga.db");
    let good = fixture("small-2026.season.json");
    let out = run(&db, &["import", good.to_str().unwrap()]);
    assert!(out.status.success(), "{out:?}");
    let wal = dir.path().join("liga.db-wal");
    assert!(
        std::fs::metadata(&wal).map_or(0, |m| m.len()) == 0,
        "the log is folded in: {:?}",
        std::fs::metadata(&wal).map(|m| m.len())
    );
    // Only the file, as `cp liga.db` takes it.
    let copy = dir.path().join("kopie.db");
    std::fs::copy(&db, &copy).unwrap();
    let want = json_of(&run(&db, &["standings", "2026", "--json"]));
    let got = run(&copy, &["standings", "2026", "--json"]);
    assert!(got.status.success(), "{got:?}");
    assert_eq!(json_of(&got), want);
}

/// Hostile trial: a 3 MB `.json.gz` season file that unpacks to 3 GiB was read whole (3.7 GB of
/// memory) and imported. A season file is read up to the club file's limit for one season
/// (32 MiB unpacked) and refused past it, nothing stored.
#[test]
fn a_season_file_past_the_limit_is_refused_before_it_is_read_whole() {
    use std::io::Write;
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("liga.db");
    let bomb = dir.path().join("bombe.json.gz");
    let mut gz = flate2::write::GzEncoder::new(
        std::fs::File::create(&bomb).unwrap(),
        flate2::Compression::best(),
    );
    gz.write_all(br#"{"format": "schockerliga-season/1", "season": 2026,"#)
        .unwrap();
    let spaces = vec![b' '; 1024 * 1024];
    for _ in 0..40 {
        gz.write_all(&spaces).unwrap();
    }
    gz.write_all(br#""players": [], "nights": []}"#).unwrap();
    gz.finish().unwrap();
    let out = run(&db, &["import", bomb.to_str().unwrap()]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.contains("größer als 32 MiB"), "{err}");
    assert!(!db.exists(), "no database made for a refused file");
}
