//! Unit tests of `src/league/sheet.rs`: headers, values, layouts and the refusals by line and
//! column, as tables.

use super::endstand::{parse_liga, parse_yes};
use super::header::parse_date;
use super::layout::{column_of, Cell, Column, Sheet, SheetRow};
use super::write::season_rows;
use super::*;
use crate::league::model::rules::Liga;
use crate::league::table::standings::standings;
use crate::league::testkit::{season, season_json, NightSpec};

/// A sheet from text rows (`;`-separated, like a CSV file read as text cells), line 1 first.
fn sheet(name: &str, lines: &[&str]) -> Sheet {
    Sheet {
        name: name.to_string(),
        rows: lines
            .iter()
            .enumerate()
            .map(|(i, l)| SheetRow {
                line: i + 1,
                cells: l
                    .split(';')
                    .map(|c| {
                        if c.trim().is_empty() {
                            Cell::Empty
                        } else {
                            Cell::Text(c.to_string())
                        }
                    })
                    .collect(),
            })
            .collect(),
    }
}

const HEADER: &str = "Datum;Spieler;Runden;Outs;Hand-Outs;Julen;Outs gewertet;verloren;Tisch";

fn good() -> Vec<&'static str> {
    vec![
        HEADER,
        "09.01.2026;Anna;10;6;2;1;10;3;1",
        "09.01.2026;Bernd;10;2;0;0;;7;1",
        "2026-01-16;Anna;8;1;1;2;;4;",
        "16.01.2026;Bernd;8;0;;1;;4;1",
    ]
}

#[test]
fn headers_are_read_with_the_variants_people_type() {
    let cases: [(&str, Option<Column>); 16] = [
        ("Datum", Some(Column::Datum)),
        ("  datum des Abends ", Some(Column::Datum)),
        ("Spielabend", Some(Column::Datum)),
        ("SPIELER", Some(Column::Spieler)),
        ("Name", Some(Column::Spieler)),
        ("Hand Outs", Some(Column::HandOuts)),
        ("Handouts", Some(Column::HandOuts)),
        ("hand-outs", Some(Column::HandOuts)),
        ("Hand_Out", Some(Column::HandOuts)),
        ("Outs gewertet", Some(Column::OutsGewertet)),
        ("gewertete Outs", Some(Column::OutsGewertet)),
        ("Verlorene Runden", Some(Column::Verloren)),
        ("Tisch Nr.", Some(Column::Tisch)),
        ("Beitrag bezahlt am", Some(Column::BeitragBezahltAm)),
        ("Runden (gespielt)", Some(Column::Runden)),
        ("Bemerkung", None),
    ];
    for (header, want) in cases {
        assert_eq!(column_of(header), want, "{header:?}");
    }
}

#[test]
fn dates_ligas_and_yes_no_as_typed() {
    let d = |y, m, day| NaiveDate::from_ymd_opt(y, m, day);
    let dates: [(&str, Option<NaiveDate>); 7] = [
        ("09.01.2026", d(2026, 1, 9)),
        ("9.1.2026", d(2026, 1, 9)),
        (" 2026-01-09 ", d(2026, 1, 9)),
        ("31.02.2026", None),
        ("09.01.26", None),
        ("9/1/2026", None),
        ("gestern", None),
    ];
    for (text, want) in dates {
        assert_eq!(parse_date(text), want, "{text:?}");
    }
    let ligen: [(&str, Option<Liga>); 7] = [
        ("1. Liga", Some(Liga::First)),
        ("1.liga", Some(Liga::First)),
        ("2", Some(Liga::Second)),
        ("Zweite Liga", Some(Liga::Second)),
        ("Kreisliga", Some(Liga::Kreisliga)),
        ("KL", Some(Liga::Kreisliga)),
        ("Bundesliga", None),
    ];
    for (text, want) in ligen {
        assert_eq!(parse_liga(text), want, "{text:?}");
    }
    for (text, want) in [
        ("ja", Some(true)),
        ("X", Some(true)),
        ("nein", Some(false)),
        ("", Some(false)),
        ("vielleicht", None),
    ] {
        assert_eq!(parse_yes(text), want, "{text:?}");
    }
    for (name, want) in [
        ("2007", Some(2007)),
        (" Saison 2011", Some(2011)),
        ("Abende", None),
        ("207", None),
    ] {
        assert_eq!(sheet_year(name), want, "{name:?}");
    }
}

#[test]
fn a_good_sheet_gives_its_season_with_defaults_filled_in() {
    let seasons = read_sheets(&[sheet("", &good())]).unwrap();
    assert_eq!(seasons.len(), 1);
    let s = &seasons[0];
    assert_eq!((s.season.year, s.layout), (2026, Layout::Nights));
    assert_eq!(s.season.nights.len(), 2);
    assert!(s.season.nights.iter().all(|n| n.recorded_as_totals()));
    let bernd = &s.season.nights[1].totals[1];
    // Hand-Outs, Tisch and Outs gewertet empty: 0, 1 and the base.
    assert_eq!((bernd.hand_outs, bernd.table, bernd.points), (0, 1, 0));
    assert_eq!(
        s.rows[0].cells,
        [
            "09.01.2026",
            "Anna",
            "10",
            "6",
            "2",
            "1",
            "10",
            "3",
            "1",
            ""
        ]
    );
    assert_eq!(s.rows[2].cells[6], "2", "1 Out from the hand counts 2");
    let table = standings(&s.season, None);
    let anna = table.rows.iter().find(|r| r.player == "Anna").unwrap();
    // 10 + 2 points, 3 Julen = 1 counted Out: 13 in 18 rounds.
    assert_eq!(
        (anna.counted_outs, anna.rounds, anna.paid_rounds),
        (13, 18, 6)
    );
}

#[test]
fn invalid_sheets_are_refused_naming_line_column_and_why() {
    // (line to replace (index into good(), or None to add the text as a new last line), its new
    // text, expected rendering fragment)
    let cases: Vec<(Option<usize>, &str, &str)> = vec![
        (
            Some(0),
            "Datum;Spieler;Runden;Outs;Bemerkung",
            "Zeile 1, Spalte „Bemerkung“: unbekannte Spalte (Spalte 5)",
        ),
        (
            Some(0),
            "Datum;Spieler;Outs;Julen",
            "Zeile 1, Spalte „Runden“: die Spalte fehlt",
        ),
        (
            Some(0),
            "Datum;Spieler;Runden;Outs;Outs;Julen",
            "Zeile 1, Spalte „Outs“: die Spalte Outs steht zweimal",
        ),
        (
            Some(0),
            "Spieler;Runden;Outs",
            "Zeile 1, Spalte „Datum“: die Spalte fehlt",
        ),
        (
            Some(2),
            "09.01.2026;Bernd;zehn;2;0;0;;7;1",
            "Zeile 3, Spalte „Runden“: „zehn“ ist keine Zahl",
        ),
        (
            Some(2),
            "09.01.2026;Bernd;10;2,5;0;0;;7;1",
            "Zeile 3, Spalte „Outs“: „2,5“ ist keine ganze Zahl",
        ),
        (
            Some(2),
            "09.01.2026;Bernd;10;-2;0;0;;7;1",
            "Zeile 3, Spalte „Outs“: „-2“ ist negativ",
        ),
        (
            Some(2),
            "09.01.2026;Bernd;;2;0;0;;7;1",
            "Zeile 3, Spalte „Runden“: fehlt",
        ),
        (
            Some(2),
            ";Bernd;10;2;0;0;;7;1",
            "Zeile 3, Spalte „Datum“: fehlt",
        ),
        (
            Some(2),
            "31.02.2026;Bernd;10;2;0;0;;7;1",
            "Zeile 3, Spalte „Datum“: „31.02.2026“ ist kein Datum",
        ),
        (
            Some(2),
            "09.01.2027;Bernd;10;2;0;0;;7;1",
            "Zeile 3, Spalte „Datum“: 09.01.2027 liegt nicht in der Saison 2026 (Zeile 2)",
        ),
        (
            Some(2),
            "09.01.2026;anna;10;2;0;0;;7;1",
            "Zeile 3, Spalte „Spieler“: Anna steht am 09.01.2026 schon in Zeile 2",
        ),
        (
            Some(2),
            "09.01.2026;Bernd;10;31;0;0;;7;1",
            "Zeile 3, Spalte „Outs“: 31 Outs in 10 Runden: höchstens 3 Outs pro Runde",
        ),
        (
            Some(2),
            "09.01.2026;Bernd;10;2;3;0;;7;1",
            "Zeile 3, Spalte „Hand-Outs“: mehr Hand-Outs (3) als Outs (2)",
        ),
        (
            Some(2),
            "09.01.2026;Bernd;11;2;0;0;;7;1",
            "Zeile 3, Spalte „Runden“: 11 Runden",
        ),
        (
            Some(2),
            "09.01.2026;Bernd;10;2;0;0;;8;1",
            "Zeile 3, Spalte „verloren“: an Tisch 1 zusammen 11 verlorene Runden",
        ),
        (
            Some(2),
            "09.01.2026;Bernd;10;2;0;0;5;7;1",
            "Zeile 3, Spalte „Outs gewertet“: 5 gewertete Outs sind mehr als 2 × 2",
        ),
        (
            Some(2),
            "09.01.2026;Bernd;10;2;0;0;1;7;1",
            "Zeile 3, Spalte „Outs gewertet“: 1 gewertete Outs sind weniger",
        ),
        (
            Some(2),
            "09.01.2026;Bernd;10;2;0;0;;7;2",
            "Zeile 2, Spalte „Spieler“: allein an seinem Tisch",
        ),
        (
            Some(4),
            "16.01.2026;Bernd;8;0;;1;;4;3",
            "Zeile 5, Spalte „Tisch“: Tischnummer muss 1 oder 2 sein",
        ),
        // A control character in a name (hostile trial: refused without saying where).
        (
            Some(2),
            "09.01.2026;Be\u{7}rnd;10;2;0;0;;7;1",
            "Zeile 3, Spalte „Spieler“: Spielername enthält ein Steuerzeichen oder unsichtbares \
             Zeichen (U+0007)",
        ),
        (
            Some(4),
            "16.01.2026;\u{202E}dnreB;8;0;;1;;4;1",
            "Zeile 5, Spalte „Spieler“: Spielername enthält ein Steuerzeichen",
        ),
    ];
    for (line, text, want) in cases {
        let mut rows = good();
        match line {
            Some(i) => rows[i] = text,
            None => rows.push(text),
        }
        let got = read_sheets(&[sheet("", &rows)]).map(|_| ()).unwrap_err();
        assert!(got.to_string().contains(want), "{text}: {got}");
    }
}

#[test]
fn a_fee_date_is_one_per_player() {
    let rows = vec![
        "Datum;Spieler;Runden;Outs;verloren;Beitrag bezahlt am",
        "09.01.2026;Anna;10;1;5;06.02.2026",
        "09.01.2026;Bernd;10;1;5;",
        "16.01.2026;Anna;10;1;5;2026-02-06",
        "16.01.2026;Bernd;10;1;5;",
    ];
    let s = read_sheets(&[sheet("", &rows)]).unwrap();
    assert_eq!(s[0].season.players[0].fee_cents, 1500);
    let mut bad = rows.clone();
    bad[3] = "16.01.2026;Anna;10;1;5;07.02.2026";
    let e = read_sheets(&[sheet("", &bad)]).unwrap_err().to_string();
    assert!(e.contains("Zeile 4, Spalte „Beitrag bezahlt am“: Anna bezahlt am 07.02.2026, in Zeile 2 am 06.02.2026"), "{e}");
    let mut late = rows.clone();
    late[1] = "09.01.2026;Anna;10;1;5;06.10.2026";
    late[3] = "16.01.2026;Anna;10;1;5;";
    let e = read_sheets(&[sheet("", &late)]).unwrap_err().to_string();
    assert!(
        e.contains(
            "Zeile 2, Spalte „Beitrag bezahlt am“: Beitritt zur 1. Liga nur bis Ende September"
        ),
        "{e}"
    );
}

#[test]
fn a_workbook_of_year_sheets_brings_every_season_all_or_nothing() {
    let y2007 = [
        "Datum;Spieler;Runden;Outs;verloren",
        "05.01.2007;Anna;10;3;4",
        "05.01.2007;Bernd;10;1;6",
    ];
    let y2008 = [
        "Datum;Spieler;Runden;Outs;verloren",
        "04.01.2008;Anna;10;2;5",
        "04.01.2008;Bernd;10;2;5",
    ];
    let empty = ["Datum;Spieler;Runden;Outs;verloren"];
    let notes = ["Bemerkung", "nur Notizen"];
    let book = [
        sheet("Notizen", &notes),
        sheet("2008", &y2008),
        sheet("2007", &y2007),
        sheet("2009", &empty),
    ];
    let seasons = read_sheets(&book).unwrap();
    let years: Vec<(i32, &str)> = seasons
        .iter()
        .map(|s| (s.season.year, s.sheet.as_str()))
        .collect();
    assert_eq!(years, [(2007, "2007"), (2008, "2008")]);
    // The sheets left out are named with the first season's skipped lines, so the preview says
    // that „Notizen“ was not read (sixth trial: an „Übersicht“ sheet vanished without a word).
    assert_eq!(
        seasons[0].skipped,
        [
            "Blatt „Notizen“ (kein Jahr als Name)",
            "Blatt „2009“ (leer)"
        ]
    );
    assert!(seasons[1].skipped.is_empty(), "{:?}", seasons[1].skipped);
    // One bad row in one sheet refuses the whole workbook, naming the sheet.
    let bad = [
        "Datum;Spieler;Runden;Outs;verloren",
        "04.01.2008;Anna;10;2;5",
        "04.01.2007;Bernd;10;2;5",
    ];
    let e = read_sheets(&[sheet("2007", &y2007), sheet("2008", &bad)])
        .unwrap_err()
        .to_string();
    assert!(
        e.starts_with("Blatt „2008“, Zeile 3, Spalte „Datum“: 04.01.2007 liegt nicht im Jahr 2008"),
        "{e}"
    );
    // Without year sheets: the sheet "Abende" (else the first), and a sheet "Endstand".
    let book = [sheet("Titel", &notes), sheet("abende", &y2007)];
    let got = read_sheets(&book).unwrap();
    assert_eq!(got[0].season.year, 2007);
    assert_eq!(
        got[0].skipped,
        ["Blatt „Titel“ (nicht „Abende“ oder „Endstand“)"]
    );
}

#[test]
fn an_endstand_sheet_gives_seasons_without_nights() {
    let rows = [
        "Saison;Platz;Spieler;Liga;Runden;Outs gewertet;bezahlte Runden",
        "2003;1;Anna;1. Liga;200;130;20",
        "2003;2;Bernd;2. Liga;90;40;12",
        "2004;1;anna;1;210;120;22",
        "2004;2;Dirk;Kreisliga;8;3;",
    ];
    let seasons = read_sheets(&[sheet("", &rows)]).unwrap();
    assert_eq!(seasons.len(), 2);
    assert!(seasons
        .iter()
        .all(|s| s.layout == Layout::Endstand && s.season.is_endstand()));
    let t = standings(&seasons[1].season, None);
    let lines: Vec<(&str, Liga, u32, i64)> = t
        .rows
        .iter()
        .map(|r| (r.player.as_str(), r.liga, r.rounds, r.counted_outs))
        .collect();
    assert_eq!(
        lines,
        [
            ("anna", Liga::First, 210, 120),
            ("Dirk", Liga::Kreisliga, 8, 3)
        ]
    );
    // The Liga from "Beitrag bezahlt" and the rounds (the table after the deadline, league.md §4).
    let paid = [
        "Spieler;Beitrag bezahlt;Runden;Outs gewertet",
        "Anna;ja;120;60",
        "Bernd;ja;99;60",
        "Carla;nein;150;80",
        "Dirk;ja;10;2",
    ];
    let s = read_sheets(&[sheet("2005", &paid)]).unwrap();
    let ligen: Vec<Liga> = s[0].season.endstand.iter().map(|e| e.liga).collect();
    assert_eq!(
        ligen,
        [Liga::First, Liga::Second, Liga::Second, Liga::Kreisliga]
    );
    // Refusals name line and column.
    let cases: [(&str, &str, &str); 5] = [
        (
            "Saison;Spieler;Liga;Runden;Outs gewertet",
            "2004;Anna;Bundesliga;10;3",
            "Zeile 2, Spalte „Liga“: „Bundesliga“ ist keine Liga",
        ),
        (
            "Spieler;Liga;Runden;Outs gewertet",
            "Anna;1. Liga;100;30",
            "Zeile 1, Spalte „Saison“: die Spalte fehlt",
        ),
        (
            "Saison;Spieler;Runden;Outs gewertet;bezahlte Runden",
            "2004;Anna;100;30;1",
            "Zeile 1, Spalte „Liga“: die Spalte fehlt",
        ),
        (
            "Saison;Spieler;Liga;Runden;Outs gewertet",
            "2004;Anna;1. Liga;5;3",
            "Zeile 2, Spalte „Liga“: mit 5 Runden (unter 11) steht ein Spieler in der Kreisliga",
        ),
        (
            "Saison;Spieler;Liga;Runden;Outs gewertet;Datum",
            "2004;Anna;1. Liga;50;3;",
            "Zeile 1, Spalte „Saison“: diese Spalte gehört nicht in die Tabelle der Abende",
        ),
    ];
    for (header, row, want) in cases {
        let got = read_sheets(&[sheet("", &[header, row])])
            .map(|_| ())
            .unwrap_err()
            .to_string();
        assert!(got.contains(want), "{row}: {got}");
    }
}

#[test]
fn the_rows_of_a_season_read_back_to_the_same_table() {
    let n1 = NightSpec {
        players: &["Anna", "Bernd", "Jörg"],
        outs: &[5, 3, 1],
        hand: &[2, 1, 0],
        julen: &[2, 4, 0],
        joker: &[2, 4, 0],
        lost: &[4, 1, 5],
        ..NightSpec::default()
    }
    .build();
    let n2 = NightSpec {
        date: "2026-01-16",
        players: &["Anna", "Jörg"],
        outs: &[2, 6],
        julen: &[2, 1],
        lost: &[6, 4],
        ..NightSpec::default()
    }
    .build();
    let s = season(season_json(
        2026,
        &[
            ("Anna", Some("2026-04-02")),
            ("Bernd", None),
            ("Jörg", None),
        ],
        vec![n1, n2],
    ));
    let rows = season_rows(&s);
    assert_eq!(rows[0][6], "Outs gewertet");
    assert_eq!(
        rows[1],
        [
            "09.01.2026",
            "Anna",
            "10",
            "5",
            "2",
            "2",
            "10",
            "4",
            "1",
            "02.04.2026"
        ]
    );
    let cells: Vec<String> = rows.iter().map(|r| r.join(";")).collect();
    let lines: Vec<&str> = cells.iter().map(String::as_str).collect();
    let back = read_sheets(&[sheet("", &lines)]).unwrap();
    assert_eq!(standings(&back[0].season, None), standings(&s, None));
    // An Endstand season writes its own layout and reads back too.
    let old = read_sheets(&[sheet(
        "",
        &[
            "Saison;Spieler;Liga;Runden;Outs gewertet",
            "2004;Anna;1. Liga;150;80",
            "2004;Bernd;Kreisliga;5;1",
        ],
    )])
    .unwrap();
    let rows = season_rows(&old[0].season);
    let cells: Vec<String> = rows.iter().map(|r| r.join(";")).collect();
    let lines: Vec<&str> = cells.iter().map(String::as_str).collect();
    let back = read_sheets(&[sheet("", &lines)]).unwrap();
    assert_eq!(back[0].season, old[0].season);
}

#[test]
fn a_quote_an_export_put_before_a_formula_sign_is_not_part_of_the_name() {
    let rows = vec![
        HEADER,
        "09.01.2026;'=HYPERLINK(1);10;6;2;1;10;3;1",
        "09.01.2026;'Bernd;10;2;0;0;;7;1",
    ];
    let s = read_sheets(&[sheet("", &rows)]).unwrap();
    let names: Vec<&str> = s[0]
        .season
        .players
        .iter()
        .map(|p| p.name.as_str())
        .collect();
    assert_eq!(names, ["=HYPERLINK(1)", "'Bernd"]);
}

#[test]
fn a_name_with_a_control_character_is_refused_at_its_line_in_both_layouts() {
    let endstand = sheet(
        "Endstand",
        &[
            "Saison;Spieler;Runden;Outs gewertet;Liga",
            "2007;Anna;100;50;1. Liga",
            "2007;Be\u{1b}rnd;90;40;2. Liga",
        ],
    );
    let got = read_sheets(&[endstand])
        .map(|_| ())
        .unwrap_err()
        .to_string();
    assert!(
        got.starts_with("Blatt „Endstand“, Zeile 3, Spalte „Spieler“: Spielername enthält"),
        "{got}"
    );
    assert!(!got.contains('\u{1b}'), "not echoed: {got}");
}

#[test]
fn a_season_after_the_next_year_is_refused_at_its_sheet_and_line() {
    let rows = |date: &str| {
        vec![
            "Datum;Spieler;Runden;Outs;verloren".to_string(),
            format!("{date};Anna;10;3;4"),
            format!("{date};Bernd;10;2;6"),
        ]
    };
    let today = NaiveDate::from_ymd_opt(2026, 12, 26).unwrap();
    let book = |name: &str, date: &str| {
        let lines = rows(date);
        let lines: Vec<&str> = lines.iter().map(String::as_str).collect();
        read_sheets(&[sheet(name, &lines)]).unwrap()
    };
    assert_eq!(check_years(&book("2027", "08.01.2027"), today), Ok(()));
    let got = check_years(&book("2030", "11.01.2030"), today)
        .unwrap_err()
        .to_string();
    assert_eq!(
        got,
        "Blatt „2030“, Zeile 2: Saison 2030 liegt zu weit in der Zukunft: höchstens bis 2027 \
         (das nächste Jahr; heute ist der 26.12.2026)"
    );
}

/// A club's workbook as it is (issue 31.9): a title row above the header, the singular
/// „Schock-Out“, computed columns (D.Wert, Schnitt, Platz, Liga) and a Summe row import without
/// an edit; what was skipped is named, and the season equals the one of the clean sheet.
#[test]
fn a_natural_club_sheet_imports_and_names_what_was_skipped() {
    for outs in ["Schock-Out", "Schock Out", "Outs", "Schock-Outs"] {
        assert_eq!(column_of(outs), Some(Column::Outs), "{outs}");
    }
    let clean = read_sheets(&[sheet(
        "",
        &[
            "Datum;Spieler;Runden;Outs;Hand-Outs;verloren",
            "09.01.2026;Anna;10;6;2;3",
            "09.01.2026;Bernd;10;2;0;7",
            "16.01.2026;Anna;8;1;0;4",
            "16.01.2026;Bernd;8;0;0;4",
        ],
    )])
    .unwrap();
    let natural = [
        "Schockerliga Zum Goldenen Becher 2026",
        "Datum;Spieler;Runden;Schock-Out;Hand-Outs;verloren;D.Wert;Schnitt;Platz;Liga",
        "09.01.2026;Anna;10;6;2;3;8,00;0,8;1;1. Liga",
        "09.01.2026;Bernd;10;2;0;7;2,00;0,2;2;2. Liga",
        "Summe;;20;8;2;10;;;;",
        "16.01.2026;Anna;8;1;0;4;6,67;;1;1. Liga",
        "16.01.2026;Bernd;8;0;0;4;1,11;;2;2. Liga",
        "Gesamt 2026;;36;9;2;18;;;;",
        "TOTAL;;36;9;2;18;;;;",
    ];
    let got = read_sheets(&[sheet("", &natural)]).unwrap();
    assert_eq!(got.len(), 1);
    assert_eq!(got[0].season, clean[0].season);
    assert_eq!(got[0].rows.len(), 4);
    let skipped = got[0].skipped.join(" | ");
    for want in [
        "Zeile 1 (Titel „Schockerliga Zum Goldenen Becher 2026“)",
        "Spalte „D.Wert“ (berechnet)",
        "Spalte „Schnitt“ (berechnet)",
        "Spalte „Platz“ (berechnet)",
        "Spalte „Liga“ (berechnet)",
        "Zeile 5 („Summe“)",
        "Zeile 8 („Gesamt 2026“)",
        "Zeile 9 („TOTAL“)",
    ] {
        assert!(skipped.contains(want), "{want}: {skipped}");
    }
    assert!(clean[0].skipped.is_empty(), "{:?}", clean[0].skipped);
    // The header is still line 2: a refusal names the file's own line.
    let mut bad = natural.to_vec();
    bad[3] = "09.01.2026;Bernd;zehn;2;0;7;;;;";
    let e = read_sheets(&[sheet("", &bad)]).unwrap_err().to_string();
    assert!(e.starts_with("Zeile 4, Spalte „Runden“"), "{e}");
    // Nothing else is guessed: a second text row above the header with several cells is no
    // title, an unknown column is still refused.
    let e = read_sheets(&[sheet(
        "",
        &["Liga;Stand vom;20.12.", natural[1], natural[2]],
    )])
    .unwrap_err()
    .to_string();
    assert!(e.contains("Zeile 1"), "{e}");
    let mut unknown = natural.to_vec();
    unknown[1] = "Datum;Spieler;Runden;Outs;Bemerkung";
    let e = read_sheets(&[sheet("", &unknown)]).unwrap_err().to_string();
    assert!(
        e.contains("Zeile 2, Spalte „Bemerkung“: unbekannte Spalte"),
        "{e}"
    );
}

/// An Endstand with a title row, a D.Wert column and a Summe row (its Spieler cell, when the
/// sheet has no Saison column) imports alike.
#[test]
fn a_natural_endstand_sheet_imports_and_names_what_was_skipped() {
    let got = read_sheets(&[sheet(
        "2003",
        &[
            "Endstand 2003",
            "Platz;Spieler;Liga;Runden;Outs gewertet;D.Wert;bezahlte Runden",
            "1;Anna;1. Liga;200;130;6,5;20",
            "2;Bernd;2. Liga;90;40;4,44;12",
            ";Summe;;290;170;;32",
        ],
    )])
    .unwrap();
    assert_eq!(got[0].season.endstand.len(), 2);
    let skipped = got[0].skipped.join(" | ");
    for want in [
        "Zeile 1 (Titel „Endstand 2003“)",
        "Spalte „D.Wert“ (berechnet)",
        "Spalte „Platz“ (berechnet)",
        "Zeile 5 („Summe“)",
    ] {
        assert!(skipped.contains(want), "{want}: {skipped}");
    }
    assert!(
        !skipped.contains("Liga"),
        "the Liga is read in an Endstand: {skipped}"
    );
}
