use std::io::{Seek, SeekFrom, Write};
use std::path::Path;
use std::sync::Arc;

use chrono::{DateTime, Duration, Utc};

use super::*;
use crate::league::model::file::SeasonFile;
use crate::league::Change;
use crate::service::clock::{FixedClock, DEFAULT_TIMEZONE};
use crate::service::{Edit, Setup};

const SMALL: &str = include_str!("../../../tests/fixtures/small-2026.season.json");

fn utc(text: &str) -> DateTime<Utc> {
    DateTime::parse_from_rfc3339(text)
        .unwrap()
        .with_timezone(&Utc)
}

/// A league on `dir/liga.db` with the small 2026 season, on a fixed clock at `at`.
async fn league_at(dir: &Path, at: &str) -> (League, Arc<FixedClock>) {
    let fixed = FixedClock::at(utc(at));
    let league = League::open_with(
        &dir.join("liga.db"),
        Setup {
            clock: fixed.clone(),
            timezone: None,
        },
    )
    .await
    .unwrap();
    let file: SeasonFile = serde_json::from_str(SMALL).unwrap();
    league.import(&file, false, "anna").await.unwrap();
    (league, fixed)
}

fn flip(path: &Path, at: u64, len: usize) {
    let mut f = std::fs::OpenOptions::new().write(true).open(path).unwrap();
    f.seek(SeekFrom::Start(at)).unwrap();
    f.write_all(&vec![0xA5; len]).unwrap();
    f.sync_all().unwrap();
}

#[tokio::test]
async fn a_fresh_copy_passes_its_probe_and_a_damaged_one_fails() {
    let dir = tempfile::tempdir().unwrap();
    let (league, _) = league_at(dir.path(), "2026-04-30T23:30:00Z").await;
    let copy = dir.path().join("kopie.db");
    let report = write_verified_copy(league.db(), &copy).await.unwrap();
    assert!(report.passed(), "{}", report.text());
    let text = report.text();
    assert!(text.starts_with("Probe bestanden\n"), "{text}");
    assert!(text.contains("Integrität: ok"), "{text}");
    assert!(text.contains("der Stand dieses Programms"), "{text}");
    assert!(
        text.contains("1 Saison(s) 2026–2026: Tabelle und Auszahlung neu berechnet"),
        "{text}"
    );
    assert!(text.contains("SHA-256"), "{text}");
    let sidecar = std::fs::read_to_string(dir.path().join("kopie.db.sha256")).unwrap();
    assert_eq!(
        sidecar,
        format!("{}  kopie.db\n", sha256_of(&copy).unwrap())
    );
    // The probe left the copy as it was.
    assert!(verify(&copy).await.passed());
    assert!(!dir.path().join("kopie.db-wal").exists());

    let damaged = |name: &str| {
        let p = dir.path().join(name);
        std::fs::copy(&copy, &p).unwrap();
        p
    };
    let size = std::fs::metadata(&copy).unwrap().len();
    // (what was done, the copy, a word the report must contain)
    let mut cases: Vec<(&str, std::path::PathBuf, &str)> = Vec::new();

    let truncated = damaged("halb.db");
    std::fs::OpenOptions::new()
        .write(true)
        .open(&truncated)
        .unwrap()
        .set_len(size / 2)
        .unwrap();
    cases.push(("truncated to half", truncated, ""));

    let header = damaged("kopf.db");
    flip(&header, 0, 16);
    cases.push(("header flipped", header, "keine SQLite-Datenbank"));

    // Bytes flipped in the middle with the .sha256 beside: the sum says so.
    let middle = damaged("mitte.db");
    std::fs::write(
        dir.path().join("mitte.db.sha256"),
        format!("{}  mitte.db\n", sha256_of(&copy).unwrap()),
    )
    .unwrap();
    flip(&middle, size / 2, 8);
    cases.push((
        "8 bytes flipped, with .sha256",
        middle,
        "SHA-256 stimmt nicht",
    ));

    // A b-tree page's header flipped, no .sha256: SQLite's own checks find it.
    let page = damaged("seite.db");
    flip(&page, 4096, 12);
    cases.push(("page 2 header flipped", page, ""));

    let empty = dir.path().join("leer.db");
    std::fs::write(&empty, b"").unwrap();
    cases.push(("empty file", empty, "keine SQLite-Datenbank"));

    let text_file = dir.path().join("text.db");
    std::fs::write(&text_file, "Schockerliga\n".repeat(100)).unwrap();
    cases.push(("text", text_file, "keine SQLite-Datenbank"));
    cases.push(("missing", dir.path().join("fehlt.db"), "nicht lesbar"));

    for (what, path, word) in cases {
        let report = verify(&path).await;
        assert!(!report.passed(), "{what}: {}", report.text());
        let text = report.text();
        assert!(
            text.starts_with("Probe fehlgeschlagen\n- "),
            "{what}: {text}"
        );
        assert!(text.contains(word), "{what}: {text}");
    }
}

#[tokio::test]
async fn copies_are_named_by_the_clubs_clock_and_the_newest_n_good_ones_kept() {
    let dir = tempfile::tempdir().unwrap();
    let (league, fixed) = league_at(dir.path(), "2026-04-30T23:30:00Z").await;
    let backups = Backups::new(&dir.path().join("liga.db"), &dir.path().join("sich"), 3).unwrap();
    let clock = league.clock();
    assert!(!backups.has_good_copy_of_today(&clock));

    let first = backups.make(&league, Reason::Now).await.unwrap();
    // 23:30 UTC on 30 April is 01:30 on 1 May in Berlin.
    assert_eq!(first.name, "liga-2026-05-01-013000.db");
    assert_eq!(first.made, "01.05.2026 01:30:00");
    assert_eq!(first.made_at, utc("2026-04-30T23:30:00Z"));
    assert_eq!(first.probe, Probe::Passed);
    assert_eq!(first.sha256.len(), 64);
    assert!(first.size_bytes > 4096);
    assert!(backups.has_good_copy_of_today(&clock));
    // At 00:30 on 2 May in Berlin that copy is yesterday's.
    fixed.set(utc("2026-05-01T22:30:00Z"));
    assert!(!backups.has_good_copy_of_today(&clock));

    // Same second twice: a second name.
    let again = backups.make(&league, Reason::Now).await.unwrap();
    let twin = backups.make(&league, Reason::Now).await.unwrap();
    assert_eq!(again.name, "liga-2026-05-02-003000.db");
    assert_eq!(twin.name, "liga-2026-05-02-003000-2.db");

    // Five days on: only the newest three good ones stay, with their two sidecars each.
    for day in 1..=3 {
        fixed.set(utc("2026-05-02T02:00:00Z") + Duration::days(day));
        backups.make(&league, Reason::Daily).await.unwrap();
    }
    let names: Vec<String> = backups.list(&clock).into_iter().map(|c| c.name).collect();
    assert_eq!(
        names,
        [
            "liga-2026-05-05-040000.db",
            "liga-2026-05-04-040000.db",
            "liga-2026-05-03-040000.db"
        ]
    );
    let files = std::fs::read_dir(backups.dir()).unwrap().count();
    assert_eq!(
        files, 10,
        "each copy with its .sha256 and .probe, the directory's owner file, nothing else"
    );
    assert!(backups.dir().join(OWNER_FILE).is_file());

    // A copy that failed its probe stays while it is the newest, and shows as the failure.
    let failed = backups.dir().join("liga-2026-05-06-040000.db");
    std::fs::write(&failed, b"kaputt").unwrap();
    std::fs::write(
        backups.dir().join("liga-2026-05-06-040000.db.probe"),
        "Probe fehlgeschlagen\n- Integrität: Seite 3 ungültig\n",
    )
    .unwrap();
    let listed = backups.list(&clock);
    assert_eq!(
        listed[0].probe,
        Probe::Failed("Integrität: Seite 3 ungültig".into())
    );
    let warning = backups.warning(&clock).unwrap();
    assert!(warning.starts_with("Die letzte Sicherung ist fehlgeschlagen (06.05.2026 04:00)"));
    assert!(
        warning.contains("Integrität: Seite 3 ungültig"),
        "{warning}"
    );
    // A good copy after it clears the warning; the failed one stays until it is old enough.
    fixed.set(utc("2026-05-06T03:00:00Z"));
    backups.make(&league, Reason::Daily).await.unwrap();
    assert_eq!(backups.last_failure(&clock), None);
    let names: Vec<String> = backups.list(&clock).into_iter().map(|c| c.name).collect();
    assert_eq!(names.len(), 4, "{names:?}");
    assert_eq!(names[1], "liga-2026-05-06-040000.db");
    fixed.set(utc("2026-05-07T03:00:00Z"));
    backups.make(&league, Reason::Daily).await.unwrap();
    fixed.set(utc("2026-05-08T03:00:00Z"));
    backups.make(&league, Reason::Daily).await.unwrap();
    let names: Vec<String> = backups.list(&clock).into_iter().map(|c| c.name).collect();
    assert_eq!(
        names,
        [
            "liga-2026-05-08-050000.db",
            "liga-2026-05-07-050000.db",
            "liga-2026-05-06-050000.db"
        ]
    );

    // Downloads: only listed copies.
    assert_eq!(
        backups.file("liga-2026-05-08-050000.db", &clock),
        Some(backups.dir().join("liga-2026-05-08-050000.db"))
    );
    for bad in [
        "../liga.db",
        "liga.db",
        "liga-2026-05-08-050000.db.sha256",
        "liga-2026-05-01-013000.db",
        "",
    ] {
        assert_eq!(backups.file(bad, &clock), None, "{bad}");
    }
}

/// Binary test of the copies off the machine (three „Jetzt sichern“ in one second, keep 2): the
/// third copy took the first name of that second again (pruned meanwhile), sorted as the oldest,
/// was pruned at once and the Sicherung page answered 404. A copy is always named after the
/// newest of its second.
#[tokio::test]
async fn a_copy_made_in_the_second_of_pruned_ones_is_named_after_the_newest_and_kept() {
    let dir = tempfile::tempdir().unwrap();
    let (league, _) = league_at(dir.path(), "2026-11-27T22:30:00Z").await;
    let backups = Backups::new(&dir.path().join("liga.db"), &dir.path().join("sich"), 1).unwrap();
    let clock = league.clock();
    let mut names = Vec::new();
    for _ in 0..4 {
        let copy = backups.make(&league, Reason::Now).await.unwrap();
        assert_eq!(
            backups.list(&clock)[0].name,
            copy.name,
            "the newest is the one made"
        );
        names.push(copy.name);
    }
    assert_eq!(
        names,
        [
            "liga-2026-11-27-233000.db",
            "liga-2026-11-27-233000-2.db",
            "liga-2026-11-27-233000-3.db",
            "liga-2026-11-27-233000-4.db"
        ]
    );
}

#[tokio::test]
async fn a_copy_that_cannot_be_written_is_a_failure_until_a_good_one_exists() {
    let dir = tempfile::tempdir().unwrap();
    let (league, _) = league_at(dir.path(), "2026-11-30T23:30:00Z").await;
    let target = dir.path().join("sich");
    let backups = Backups::new(&dir.path().join("liga.db"), &target, 14).unwrap();
    let clock = league.clock();
    assert_eq!(backups.warning(&clock), None);
    // The directory is gone and a file is in its place.
    std::fs::remove_dir_all(&target).unwrap();
    std::fs::write(&target, b"").unwrap();
    let e = backups.make(&league, Reason::Daily).await.unwrap_err();
    assert!(
        e.to_string()
            .starts_with("Sicherung liga-2026-12-01-003000.db"),
        "{e}"
    );
    let warning = backups.warning(&clock).unwrap();
    assert!(
        warning.starts_with("Die letzte Sicherung ist fehlgeschlagen (01.12.2026 00:30): "),
        "{warning}"
    );
    assert!(
        warning.ends_with("Bitte unter Verwaltung → Sicherung prüfen."),
        "{warning}"
    );
    std::fs::remove_file(&target).unwrap();
    std::fs::create_dir(&target).unwrap();
    backups.make(&league, Reason::Now).await.unwrap();
    assert_eq!(backups.warning(&clock), None);
}

#[tokio::test]
async fn a_server_with_backups_copies_at_start_and_after_a_closed_night() {
    let dir = tempfile::tempdir().unwrap();
    let (league, _) = league_at(dir.path(), "2026-11-27T22:30:00Z").await;
    let backups = Backups::new(&dir.path().join("liga.db"), &dir.path().join("sich"), 14).unwrap();
    let backups = league.enable_backups(backups);
    assert!(league.backups().is_some());
    let clock = league.clock();
    let count = |n: usize| {
        let b = backups.clone();
        let c = clock.clone();
        async move {
            for _ in 0..200 {
                if b.list(&c).len() >= n {
                    return b.list(&c);
                }
                tokio::time::sleep(std::time::Duration::from_millis(25)).await;
            }
            panic!("{n} copies expected, {:?}", b.list(&c));
        }
    };
    let at_start = count(1).await;
    assert_eq!(at_start[0].name, "liga-2026-11-27-233000.db");
    assert_eq!(at_start[0].probe, Probe::Passed);

    // The last night up to the club's today (a night after it is not closed).
    let today = league.today();
    let last = league
        .snapshot()
        .season(2026)
        .unwrap()
        .season
        .nights
        .iter()
        .rev()
        .find(|n| n.date <= today)
        .unwrap()
        .date;
    league
        .change(2026, Change::CloseNight { date: last }, &Edit::by("anna"))
        .await
        .unwrap();
    let after = count(2).await;
    assert_eq!(after[0].name, "liga-2026-11-27-233000-2.db");
    assert!(after.iter().all(|c| c.probe == Probe::Passed));
}

/// Issue 31.10: the server wrote no copy after an import of the Verwaltung (a spreadsheet,
/// a season file), and the probe said „0 Ergebniszeilen“ for seasons kept as night totals.
#[tokio::test]
async fn an_import_through_the_league_is_followed_by_a_verified_copy_that_counts_its_totals() {
    let dir = tempfile::tempdir().unwrap();
    let (league, _) = league_at(dir.path(), "2026-11-27T22:30:00Z").await;
    let backups = Backups::new(&dir.path().join("liga.db"), &dir.path().join("sich"), 14).unwrap();
    let backups = league.enable_backups(backups);
    let clock = league.clock();
    let count = |n: usize| {
        let b = backups.clone();
        let c = clock.clone();
        async move {
            for _ in 0..200 {
                if b.list(&c).len() >= n {
                    return b.list(&c);
                }
                tokio::time::sleep(std::time::Duration::from_millis(25)).await;
            }
            panic!("{n} copies expected, {:?}", b.list(&c));
        }
    };
    count(1).await;
    // The season as the club's spreadsheet of night totals, brought in again in its place.
    // One more Out in its first row: a sheet that only repeats the season's totals changes no
    // night (its rounds stay), this one turns that night into totals.
    let csv = crate::service::interchange::season_csv(&league, 2026).unwrap();
    let text = String::from_utf8(csv).unwrap();
    let mut lines: Vec<Vec<String>> = text
        .trim_start_matches('\u{feff}')
        .lines()
        .map(|l| l.split(';').map(str::to_string).collect())
        .collect();
    for name in ["Outs", "Outs gewertet"] {
        let c = lines[0].iter().position(|h| h == name).unwrap();
        lines[1][c] = (lines[1][c].parse::<u32>().unwrap() + 1).to_string();
    }
    let csv: String = lines.iter().map(|r| r.join(";") + "\r\n").collect();
    let sheet = crate::service::interchange::read_sheet_rows("abende.csv", csv.as_bytes()).unwrap();
    let digest = sheet.digest.clone();
    league
        .import_sheet(&sheet, &digest, true, &Edit::by("anna"))
        .await
        .unwrap();
    let after = count(2).await;
    assert_eq!(after[0].probe, Probe::Passed);
    let probe = std::fs::read_to_string(
        dir.path()
            .join("sich")
            .join(format!("{}.probe", after[0].name)),
    )
    .unwrap();
    let snapshot = league.snapshot();
    let season = &snapshot.season(2026).unwrap().season;
    let nights = season.totals_nights().len();
    assert!(nights > 0);
    let rows: usize = season.nights.iter().map(|n| n.totals.len()).sum();
    assert!(
        probe.contains(&format!("{rows} Summenzeilen ({nights} Abende als Summen)")),
        "{probe}"
    );
    // A season file imported through the league: another copy.
    let mut file: SeasonFile = serde_json::from_str(SMALL).unwrap();
    file = serde_json::from_str(
        &serde_json::to_string(&file)
            .unwrap()
            .replace("\"2026-", "\"2025-"),
    )
    .unwrap();
    file.season = 2025;
    league.import(&file, false, "anna").await.unwrap();
    count(3).await;
}

/// Issue 32.7: a copy that failed after it was begun left its `….teil` (and a sidecar).
#[tokio::test]
async fn a_copy_that_fails_half_way_leaves_nothing_behind() {
    let dir = tempfile::tempdir().unwrap();
    let (league, _) = league_at(dir.path(), "2026-04-30T23:30:00Z").await;
    let target = dir.path().join("kopie.db");
    // Its checksum file cannot be written: a directory has the name.
    std::fs::create_dir(dir.path().join("kopie.db.sha256")).unwrap();
    assert!(write_verified_copy(league.db(), &target).await.is_err());
    for name in ["kopie.db", "kopie.db.teil", "kopie.db.probe"] {
        assert!(!dir.path().join(name).exists(), "{name} left behind");
    }
}

#[test]
fn the_default_keeps_fourteen_and_the_daily_copy_is_at_four() {
    assert_eq!(DEFAULT_KEEP, 14);
    assert_eq!(DAILY_AT.to_string(), "04:00:00");
    let b = Backups::new(
        Path::new("/srv/liga/club.db"),
        tempfile::tempdir().unwrap().path(),
        0,
    )
    .unwrap();
    assert_eq!(b.keep(), 1, "at least one copy is kept");
    let clock = crate::service::clock::ClubClock::new(
        FixedClock::at(utc("2026-01-01T00:00:00Z")),
        DEFAULT_TIMEZONE,
    );
    assert!(b.list(&clock).is_empty());
}
