//! Sheets made from the fixture seasons (issue 24 "Done when"): the night totals as CSV in UTF-8
//! with BOM and in Windows-1252 with umlauts in names, as an XLSX workbook with date cells and
//! one sheet per year, an ODS workbook, and a season before 2011 without an `Outs gewertet`
//! column: each imports to exactly the standings of the same season entered round by round.

use schockerliga::league::model::file::SeasonFile;
use schockerliga::league::sheet::read_sheets;
use schockerliga::league::sheet::write::season_rows;
use schockerliga::league::{payouts, standings, Season};
use schockerliga::sheet::{read, write_csv, Kind};
use serde_json::Value;

use crate::common::{fixture_text, season_file};
use crate::sheets::{ods, xlsx};

fn checked(file: &SeasonFile) -> Season {
    Season::from_file(file).unwrap_or_else(|e| panic!("{}: {e}", file.season))
}

fn as_value<T: serde::Serialize>(x: &T) -> Value {
    serde_json::from_str(&serde_json::to_string(x).unwrap()).unwrap()
}

/// The seasons a file of `kind` with `bytes` imports to.
fn imported(kind: Kind, bytes: &[u8]) -> Vec<Season> {
    let sheets = read(kind, bytes).unwrap_or_else(|e| panic!("{kind:?}: {e}"));
    read_sheets(&sheets)
        .unwrap_or_else(|e| panic!("{kind:?}: {e}"))
        .into_iter()
        .map(|s| s.season)
        .collect()
}

#[test]
fn fixture_seasons_as_csv_with_bom_import_to_their_standings() {
    for name in ["small-2026", "sample-2026"] {
        let rounds = checked(&season_file(name, None));
        let bytes = write_csv(&season_rows(&rounds));
        assert!(bytes.starts_with(b"\xEF\xBB\xBFDatum;Spieler;"));
        let got = imported(Kind::Csv, &bytes);
        assert_eq!(got.len(), 1);
        let want: Value =
            serde_json::from_str(&fixture_text(&format!("{name}.standings.json"))).unwrap();
        assert_eq!(as_value(&standings(&got[0], None)), want, "{name}");
        for n in &rounds.nights {
            assert_eq!(
                standings(&got[0], Some(n.date)),
                standings(&rounds, Some(n.date)),
                "{name}"
            );
        }
        // The Lucky Looser and the places too (fines are not part of the sheet).
        let (a, b) = (payouts(&got[0], 0), payouts(&rounds, 0));
        assert_eq!(a.lucky_looser.players, b.lucky_looser.players, "{name}");
        assert_eq!(a.schocker_des_jahres, b.schocker_des_jahres, "{name}");
        assert_eq!(
            a.fees_cents, b.fees_cents,
            "{name}: the fee dates come along"
        );
    }
}

#[test]
fn a_windows_1252_csv_with_umlauts_in_names_imports_to_the_same_standings() {
    let text = fixture_text("small-2026.season.json")
        .replace("\"Anna\"", "\"Jürgen Größ\"")
        .replace("\"Bernd\"", "\"Bärbel Öztürk\"");
    let rounds = checked(&serde_json::from_str(&text).unwrap());
    // As a German Excel saves "CSV (Trennzeichen-getrennt)": Windows-1252, ';', CR LF, no BOM.
    let lines: Vec<String> = season_rows(&rounds).iter().map(|r| r.join(";")).collect();
    let joined = lines.join("\r\n") + "\r\n";
    let (bytes, _, unmappable) = encoding_rs::WINDOWS_1252.encode(&joined);
    assert!(!unmappable);
    assert!(bytes.contains(&0xfc), "ü as one Windows-1252 byte");
    let got = imported(Kind::Csv, &bytes);
    assert_eq!(standings(&got[0], None), standings(&rounds, None));
    assert!(got[0].players.iter().any(|p| p.name == "Jürgen Größ"));
}

#[test]
fn a_workbook_with_date_cells_and_a_sheet_per_year_brings_every_season() {
    let a = checked(&season_file("small-2026", Some(2025)));
    let b = checked(&season_file("sample-2026", None));
    let sheets = vec![
        (
            "Übersicht",
            vec![vec!["Schockerliga seit 2025".to_string()]],
        ),
        ("2025", season_rows(&a)),
        ("2026", season_rows(&b)),
    ];
    for (kind, bytes) in [(Kind::Xlsx, xlsx(&sheets)), (Kind::Ods, ods(&sheets))] {
        let got = imported(kind, &bytes);
        assert_eq!(got.len(), 2, "{kind:?}");
        assert_eq!(standings(&got[0], None), standings(&a, None), "{kind:?}");
        assert_eq!(standings(&got[1], None), standings(&b, None), "{kind:?}");
    }
}

/// `file` moved before 2011: no Joker-Runde, no Strafenkatalog (the defaults of those years).
fn before_2011(name: &str, year: i32) -> SeasonFile {
    let mut v: Value = serde_json::to_value(season_file(name, Some(year))).unwrap();
    for night in v["nights"].as_array_mut().unwrap() {
        night["fines"] = Value::Array(Vec::new());
        for table in night["tables"].as_array_mut().unwrap() {
            for round in table["rounds"].as_array_mut().unwrap() {
                for row in round["results"].as_array_mut().unwrap() {
                    row["joker"] = Value::Bool(false);
                }
            }
        }
    }
    serde_json::from_value(v).unwrap()
}

#[test]
fn a_season_before_2011_without_an_outs_gewertet_column_imports_to_the_same_standings() {
    for (name, year) in [("small-2026", 2010), ("sample-2026", 2006)] {
        let rounds = checked(&before_2011(name, year));
        let rows: Vec<Vec<String>> = season_rows(&rounds)
            .into_iter()
            .map(|mut r| {
                assert_eq!(r.len(), 10);
                r.remove(6); // Outs gewertet
                r
            })
            .collect();
        assert!(!rows[0].contains(&"Outs gewertet".to_string()));
        let got = imported(Kind::Csv, &write_csv(&rows));
        assert_eq!(got[0].year, year);
        assert_eq!(
            standings(&got[0], None),
            standings(&rounds, None),
            "{name} {year}"
        );
    }
}

#[test]
fn an_invalid_sheet_is_refused_naming_its_line() {
    let rounds = checked(&season_file("small-2026", None));
    let mut rows = season_rows(&rounds);
    // Line 7 (the header is line 1): more Hand-Outs than Outs.
    rows[6][4] = "9".to_string();
    rows[6][3] = "2".to_string();
    let e = read_sheets(&read(Kind::Csv, &write_csv(&rows)).unwrap()).unwrap_err();
    assert!(
        e.to_string()
            .starts_with("Zeile 7, Spalte „Hand-Outs“: mehr Hand-Outs (9) als Outs (2)"),
        "{e}"
    );
}

/// A club's workbook as it is (issue 31.9), as XLSX and ODS: a title row, the singular
/// „Schock-Out“, the computed D.Wert and Platz beside the figures and a Summe row under them;
/// it imports without an edit to the standings of the season entered round by round.
#[test]
fn a_natural_club_workbook_imports_without_an_edit() {
    let rounds = checked(&season_file("small-2026", None));
    let mut rows = season_rows(&rounds);
    rows[0][3] = "Schock-Out".to_string();
    for (k, row) in rows.iter_mut().enumerate() {
        let (dwert, platz) = if k == 0 {
            ("D.Wert".to_string(), "Platz".to_string())
        } else {
            ("5,5".to_string(), k.to_string())
        };
        row.push(dwert);
        row.push(platz);
    }
    let mut sum = vec![String::new(); rows[0].len()];
    sum[0] = "Summe".to_string();
    sum[2] = "999".to_string();
    rows.push(sum);
    rows.insert(0, vec!["Schockerliga 2026 – Vereinstabelle".to_string()]);
    for (kind, bytes) in [
        (Kind::Xlsx, xlsx(&[("Abende", rows.clone())])),
        (Kind::Ods, ods(&[("Abende", rows.clone())])),
    ] {
        let sheets = read(kind, &bytes).unwrap_or_else(|e| panic!("{kind:?}: {e}"));
        let got = read_sheets(&sheets).unwrap_or_else(|e| panic!("{kind:?}: {e}"));
        assert_eq!(
            standings(&got[0].season, None),
            standings(&rounds, None),
            "{kind:?}"
        );
        assert_eq!(got[0].skipped.len(), 4, "{kind:?}: {:?}", got[0].skipped);
    }
}
