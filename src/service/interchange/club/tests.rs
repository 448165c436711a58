use std::io::Write as _;

use super::*;
use crate::service::clock::FixedClock;
use crate::service::interchange::ClubFile;
use crate::service::Setup;

const SAMPLE: &str = include_str!("../../../../tests/fixtures/sample-2026.season.json");
const SMALL: &str = include_str!("../../../../tests/fixtures/small-2026.season.json");
const BESTECK: &str = include_str!("../../../../tests/fixtures/schockbesteck-11-julen.season.json");

fn file(text: &str) -> SeasonFile {
    serde_json::from_str(text).unwrap()
}

/// The small season moved to `year`.
fn small_in(year: i32) -> SeasonFile {
    file(
        &SMALL
            .replace("\"2026-", &format!("\"{year}-"))
            .replace("\"season\": 2026", &format!("\"season\": {year}")),
    )
}

#[test]
fn a_season_line_leaves_out_the_rows_defaults_and_reads_back_the_same() {
    for text in [SAMPLE, SMALL, BESTECK] {
        let season = file(text);
        let line = season_line(&season).unwrap();
        let s = String::from_utf8(line.clone()).unwrap();
        assert!(!s.contains('\n'), "one line");
        for default in ["\"julen\":0", "\"joker\":false", "\"lost\":false"] {
            assert!(
                !s.contains(&format!("{default},")) && !s.contains(&format!("{default}}}")),
                "{default} left in"
            );
        }
        let back: SeasonFile = serde_json::from_slice(&line).unwrap();
        assert_eq!(back, season);
        let pretty = serde_json::to_vec_pretty(&season).unwrap();
        assert!(
            line.len() * 2 < pretty.len(),
            "{} vs {}",
            line.len(),
            pretty.len()
        );
    }
}

#[test]
fn the_club_file_is_written_season_by_season_and_read_back_in_parts() {
    let seasons = vec![small_in(2024), small_in(2025), file(SAMPLE)];
    let players = vec!["Anna".to_string(), "Zora".to_string()];
    let out = write_club(Vec::new(), &players, seasons.iter().cloned().map(Ok)).unwrap();
    let text = String::from_utf8(out.clone()).unwrap();
    // One season a line, between the head and the end.
    assert_eq!(text.lines().count(), 2 + seasons.len(), "{text}");
    assert!(text.starts_with(
        "{\"format\":\"schockerliga-club/1\",\"players\":[\"Anna\",\"Zora\"],\"seasons\":[\n"
    ));
    // The documented shape, whole.
    let club: ClubFile = serde_json::from_slice(&out).unwrap();
    assert_eq!(club.players, players);
    assert_eq!(club.seasons, seasons);

    let mut parts = Vec::new();
    read_club(&out[..], |p| {
        parts.push(match p {
            ClubPart::Format(f) => f,
            ClubPart::Players(p) => p.join(","),
            ClubPart::Season(s) => s.season.to_string(),
        });
        true
    })
    .unwrap();
    assert_eq!(
        parts,
        ["schockerliga-club/1", "Anna,Zora", "2024", "2025", "2026"]
    );
    // Stopped by its taker after the first season: no error, nothing more read.
    let mut seen = 0;
    read_club(&out[..], |p| {
        if matches!(p, ClubPart::Season(_)) {
            seen += 1;
            return false;
        }
        true
    })
    .unwrap();
    assert_eq!(seen, 1);
}

#[test]
fn a_club_file_that_is_none_is_refused_in_german_naming_the_season_before() {
    let good = String::from_utf8(
        write_club(Vec::new(), &[], [Ok(small_in(2024)), Ok(small_in(2025))]).unwrap(),
    )
    .unwrap();
    let second = good.lines().nth(2).unwrap();
    let broken_second = good.replace(second, &second.replace("\"nights\"", "\"naechte\""));
    let cases: [(&str, &str); 5] = [
        (
            "{\"format\":\"schockerliga-club/1\",\"vereine\":[]}",
            "unknown field `vereine`",
        ),
        (
            "{\"format\":\"schockerliga-club/1\",\"format\":\"x\"}",
            "„format“ steht zweimal",
        ),
        ("{\"players\":[],\"seasons\":[]}", "missing field `format`"),
        (&broken_second, "(nach der Saison 2024)"),
        ("[1,2]", "keine gültige Vereinsdatei"),
    ];
    for (text, want) in cases {
        let got = read_club(text.as_bytes(), |_| true)
            .unwrap_err()
            .to_string();
        assert!(got.contains("keine gültige Vereinsdatei"), "{got}");
        assert!(got.contains(want), "{text}: {got}");
    }
}

#[test]
fn the_format_is_found_without_reading_the_rest_and_gzip_and_a_bom_are_read() {
    assert_eq!(
        format_of(&b"{\"format\":\"schockerliga-club/1\",\"seasons\":[{kaputt"[..]).as_deref(),
        Some("schockerliga-club/1")
    );
    assert_eq!(
        format_of(SAMPLE.as_bytes()).as_deref(),
        Some("schockerliga-season/1")
    );
    assert_eq!(
        format_of(&b"{\"season\":2026,\"format\":\"x\"}"[..]).as_deref(),
        Some("x")
    );
    assert_eq!(format_of(&b"{\"season\":2026}"[..]), None);
    assert_eq!(format_of(&b"keine Datei"[..]), None);

    let text = "\u{feff}{\"format\":\"schockerliga-club/1\"}";
    let mut zipped = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    zipped.write_all(text.as_bytes()).unwrap();
    let zipped = zipped.finish().unwrap();
    for bytes in [text.as_bytes().to_vec(), zipped] {
        let mut read = String::new();
        std::io::Read::read_to_string(
            &mut json_reader(std::io::Cursor::new(bytes)).unwrap(),
            &mut read,
        )
        .unwrap();
        assert_eq!(read, "{\"format\":\"schockerliga-club/1\"}");
    }
}

async fn league(dir: &std::path::Path) -> League {
    League::open_with(
        &dir.join("liga.db"),
        Setup {
            clock: FixedClock::parse("2026-12-26T12:00:00Z").unwrap(),
            timezone: None,
        },
    )
    .await
    .unwrap()
}

#[tokio::test]
async fn the_club_file_imports_season_by_season_all_or_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let from = league(dir.path()).await;
    for s in [small_in(2024), file(SAMPLE)] {
        from.import(&s, false, "anna").await.unwrap();
    }
    let players = from.player_names().await.unwrap();
    let out = from
        .write_club_to(&players, &Default::default(), Vec::new())
        .unwrap();

    let other = tempfile::tempdir().unwrap();
    let to = league(other.path()).await;
    // A file whose last season fails its checks stores nothing of the seasons before it.
    let text = String::from_utf8(out.clone()).unwrap();
    let last = text.lines().nth(2).unwrap();
    let bad = text.replace(last, &last.replacen("\"outs\":1,", "\"outs\":77,", 1));
    assert_ne!(bad, text);
    let refused = to
        .import_club(
            std::io::Cursor::new(bad.into_bytes()),
            &ImportOptions::by("cli", false),
        )
        .await
        .unwrap_err();
    assert!(refused.to_string().contains("77 Outs"), "{refused}");
    assert!(to.snapshot().years().is_empty());
    assert!(to.player_names().await.unwrap().is_empty());

    let done = to
        .import_club(std::io::Cursor::new(out), &ImportOptions::by("cli", false))
        .await
        .unwrap();
    assert_eq!(
        done.iter().map(|d| d.year).collect::<Vec<_>>(),
        [2024, 2026]
    );
    for year in [2024, 2026] {
        assert_eq!(
            to.standings(year, None).unwrap(),
            from.standings(year, None).unwrap()
        );
        assert_eq!(to.payouts(year).unwrap(), from.payouts(year).unwrap());
    }
    assert_eq!(to.player_names().await.unwrap(), players);
    // Again without --replace: refused, naming the season.
    let again = to
        .import_club(
            std::io::Cursor::new(
                from.write_club_to(&players, &Default::default(), Vec::new())
                    .unwrap(),
            ),
            &ImportOptions::by("cli", false),
        )
        .await
        .unwrap_err()
        .to_string();
    assert!(again.contains("Saison 2024 hat schon"), "{again}");
}

/// Hostile run: a 2 MB gzip whose one player name was 400 MB unpacked was read whole (2.37 GB)
/// and stored. Each part (a season, the list of players) is read within [`MAX_PART_BYTES`]; the
/// reading stops there, before the part is built; a file of many parts each within it reads.
#[test]
fn a_part_bigger_than_its_budget_is_refused_while_it_is_read() {
    let huge = "a".repeat(MAX_PART_BYTES as usize + 10);
    let players =
        format!("{{\"format\":\"schockerliga-club/1\",\"players\":[\"{huge}\"],\"seasons\":[]}}");
    let season = format!(
        "{{\"format\":\"schockerliga-club/1\",\"seasons\":[{{\"season\":2026,\"players\":[{{\"name\":\"{huge}\"}}]}}]}}"
    );
    for text in [players, season] {
        let got = read_club(text.as_bytes(), |_| true)
            .unwrap_err()
            .to_string();
        assert!(
            got.contains("größer als 32 MiB"),
            "{}",
            &got[..got.len().min(300)]
        );
        assert!(
            got.len() < 1_000,
            "the refusal repeats no part: {} bytes",
            got.len()
        );
    }

    // Ten seasons of 4 MiB of whitespace each (40 MiB together) read: the budget is each part's.
    let pad = " ".repeat(4 * 1024 * 1024);
    let lines: Vec<String> = (2017..2027)
        .map(|y| String::from_utf8(season_line(&small_in(y)).unwrap()).unwrap() + &pad)
        .collect();
    let text = format!(
        "{{\"format\":\"schockerliga-club/1\",\"players\":[],\"seasons\":[{}]}}",
        lines.join(",")
    );
    let mut seasons = 0;
    read_club(text.as_bytes(), |p| {
        seasons += usize::from(matches!(p, ClubPart::Season(_)));
        true
    })
    .unwrap();
    assert_eq!(seasons, 10);
}

/// Hostile run: the club's list of players took a name of any length (1 MB was stored). It is
/// checked as a season's players are, before a database is made, naming the name's start.
#[test]
fn a_long_name_in_the_clubs_list_of_players_is_refused_before_anything_is_made() {
    let long = "b".repeat(61);
    let text = format!(
        "{{\"format\":\"schockerliga-club/1\",\"players\":[\"Anna\",\"{long}\"],\"seasons\":[]}}"
    );
    let today = chrono::NaiveDate::from_ymd_opt(2026, 12, 3).unwrap();
    let got = check_club_file(text.as_bytes(), today)
        .unwrap_err()
        .to_string();
    assert!(got.contains("hat mehr als 60 Zeichen"), "{got}");
    assert!(got.contains(&format!("„{}…“", "b".repeat(20))), "{got}");
    assert!(check_club_player("Anna").is_ok());
    assert!(check_club_player("An\u{7}na").is_err());
}

/// Hostile trial (second round): a 1 MB gzip of 1 GiB whitespace before its `format` took 45 s
/// of CPU to be told apart. The probe reads at most one part's limit and a little more.
#[test]
fn the_format_probe_reads_no_further_than_a_parts_limit() {
    struct Spaces(std::rc::Rc<std::cell::Cell<u64>>);
    impl std::io::Read for Spaces {
        fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
            buf.fill(b' ');
            self.0.set(self.0.get() + buf.len() as u64);
            Ok(buf.len())
        }
    }
    let read = std::rc::Rc::new(std::cell::Cell::new(0));
    let mut head = std::io::Read::chain(&b"{ "[..], Spaces(read.clone()));
    assert_eq!(format_of(&mut head), None);
    assert!(
        read.get() <= MAX_PART_BYTES + 1024 * 1024,
        "read {} bytes",
        read.get()
    );
}
