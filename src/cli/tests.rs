use super::db_path;
use std::path::{Path, PathBuf};

#[test]
fn database_urls_and_paths_name_the_same_file() {
    let cases = [
        ("schockerliga.db", "schockerliga.db"),
        ("/var/lib/liga.db", "/var/lib/liga.db"),
        ("sqlite://liga.db", "liga.db"),
        ("sqlite:liga.db?mode=rwc", "liga.db"),
    ];
    for (arg, path) in cases {
        assert_eq!(db_path(arg), PathBuf::from(path), "{arg}");
    }
}

/// The source of every file of the command line (`src/cli/`) but this one (which names what it
/// looks for), by name.
fn cli_sources() -> Vec<(String, String)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/cli");
    let mut files: Vec<(String, String)> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "rs"))
        .filter(|p| !p.ends_with("tests.rs"))
        .map(|p| {
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            (name, std::fs::read_to_string(&p).unwrap())
        })
        .collect();
    files.sort();
    files
}

/// Issue 33.4: the command line reaches the league through the service as the web does; it
/// names no part of the database layer (no `schockerliga::db`, no `db` in a grouped `use`, no
/// `League::db()` handle to go round the service).
#[test]
fn the_command_line_names_no_part_of_the_database_layer() {
    let files = cli_sources();
    assert!(files.len() >= 10, "src/cli/ has its files: {files:?}");
    for (name, text) in &files {
        for (n, line) in text.lines().enumerate() {
            let code = line.split("//").next().unwrap_or_default();
            for banned in ["schockerliga::db", "crate::db", ".db()", "Db::"] {
                assert!(
                    !code.contains(banned),
                    "src/cli/{name}:{}: {banned}: {line}",
                    n + 1
                );
            }
        }
        // `use schockerliga::{db, …}`: the grouped form of the same.
        for group in text.split("use schockerliga::{").skip(1) {
            let group = group.split(';').next().unwrap_or_default();
            let names: Vec<&str> = group
                .split(|c: char| !(c.is_alphanumeric() || c == '_'))
                .collect();
            assert!(!names.contains(&"db"), "src/cli/{name}: use {group}");
        }
    }
}

/// Issue 33.4: `main.rs` only parses and dispatches; the commands live in `src/cli/`.
#[test]
fn main_only_parses_and_dispatches() {
    let main = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/main.rs");
    let lines = std::fs::read_to_string(main).unwrap().lines().count();
    assert!(lines <= 150, "src/main.rs has {lines} lines");
}

/// The import's line per season says "1 Spielabend", not "1 Spielabende" (the count decides
/// the word, as the replacement's "1 Abend" does).
#[test]
fn the_import_line_counts_nights_in_german() {
    use schockerliga::service::interchange::ImportedSeason;
    let season = |nights| ImportedSeason {
        year: 2026,
        players: 1,
        nights,
        totals: 0,
        endstand: 0,
        replaced: None,
    };
    let line = super::importing::imported_line;
    assert_eq!(
        line(&season(1)),
        "Saison 2026 importiert: 1 Spieler, 1 Spielabend"
    );
    assert_eq!(
        line(&season(45)),
        "Saison 2026 importiert: 1 Spieler, 45 Spielabende"
    );
    assert_eq!(
        line(&season(0)),
        "Saison 2026 importiert: 1 Spieler, 0 Spielabende"
    );
}

/// The payouts' text names nobody as "Schocker des Jahres:" with nothing after it: a season
/// without a ranked player says "noch niemand", as the Abschluss page does.
#[test]
fn the_payouts_text_says_when_nobody_is_schocker_des_jahres() {
    let p = schockerliga::league::Payouts {
        season: 2027,
        fees_cents: 0,
        fines_cents: 0,
        carry_in_cents: 0,
        lucky_looser: schockerliga::league::LuckyLooser {
            players: vec![],
            paid_rounds: 0,
            cents: vec![],
        },
        pot_cents: 0,
        places: vec![],
        schocker_des_jahres: vec![],
        carry_out_cents: 0,
        open_fines_cents: 0,
    };
    let text = super::data::payouts_text(&p);
    assert!(
        text.contains("Schocker des Jahres: noch niemand\n"),
        "{text}"
    );
    let named = schockerliga::league::Payouts {
        schocker_des_jahres: vec!["Anna".into(), "Bernd".into()],
        ..p
    };
    assert!(super::data::payouts_text(&named).contains("Schocker des Jahres: Anna, Bernd\n"));
}

/// Hostile trial (second round): `--backup-dir D --backup-remote R serve` (the options before the
/// command, as the top-level help lists them) started a server without any backup and said
/// nothing. The options count wherever they stand; given after `serve` too, those win.
#[test]
fn backup_options_before_serve_count() {
    use clap::Parser;
    let parse = |args: &[&str]| {
        let cli = super::args::Cli::try_parse_from(args).unwrap();
        let (_, command) = super::Context::of(cli).unwrap();
        match command {
            super::args::Command::Serve(a) => a,
            _ => panic!("{args:?} is no serve"),
        }
    };
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("liga.db");
    let db = db.to_str().unwrap();
    let before = parse(&[
        "schockerliga",
        "--database",
        db,
        "--backup-dir",
        "/tmp/s",
        "--backup-keep",
        "5",
        "--backup-remote",
        "nc:liga",
        "--trusted-proxy",
        "127.0.0.1",
        "serve",
    ]);
    assert_eq!(
        before.backup_dir.as_deref(),
        Some(std::path::Path::new("/tmp/s"))
    );
    assert_eq!(before.backup_keep, 5);
    assert_eq!(before.backup_remote.as_deref(), Some("nc:liga"));
    assert_eq!(before.trusted_proxy.len(), 1);
    let both = parse(&[
        "schockerliga",
        "--database",
        db,
        "--backup-dir",
        "/tmp/a",
        "serve",
        "--backup-dir",
        "/tmp/b",
    ]);
    assert_eq!(
        both.backup_dir.as_deref(),
        Some(std::path::Path::new("/tmp/b"))
    );
    let none = parse(&["schockerliga", "--database", db]);
    assert!(none.backup_dir.is_none());
}
