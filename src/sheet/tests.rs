//! Unit tests of `src/sheet.rs`: CSV encodings, separators and line ends; workbooks with date
//! cells; the size bounds.

use super::*;

use super::testkit as sheets;

fn text(cells: &[Cell]) -> Vec<String> {
    cells
        .iter()
        .map(|c| match c {
            Cell::Empty => String::new(),
            Cell::Text(t) => t.clone(),
            Cell::Number(n) => format!("#{n}"),
            Cell::Date(d) => format!("@{d}"),
        })
        .collect()
}

#[test]
fn csv_files_in_the_encodings_and_separators_clubs_have() {
    // (bytes, expected cells of line 2, its line number)
    let cp1252_umlauts = b"Datum;Spieler;Runden\r\n09.01.2026;J\xf6rg M\xfcller;10\r\n".to_vec();
    let cases: Vec<(&str, Vec<u8>, Vec<&str>, usize)> = vec![
        (
            "UTF-8 mit BOM, ;",
            "\u{feff}Datum;Spieler;Runden\n09.01.2026;Jörg;10\n".into(),
            vec!["09.01.2026", "Jörg", "10"],
            2,
        ),
        (
            "UTF-8 ohne BOM, CRLF, ,",
            "Datum,Spieler,Runden\r\n09.01.2026,Bärbel,10\r\n".into(),
            vec!["09.01.2026", "Bärbel", "10"],
            2,
        ),
        (
            "Windows-1252",
            cp1252_umlauts,
            vec!["09.01.2026", "Jörg Müller", "10"],
            2,
        ),
        (
            "Tabulator",
            "Datum\tSpieler\tRunden\n09.01.2026\tAnna\t10\n".into(),
            vec!["09.01.2026", "Anna", "10"],
            2,
        ),
        (
            "Anführungszeichen und leere Zeilen",
            "Datum;Spieler;Runden\n\n;;\n\"09.01.2026\";\"Müller; Hans\";10\n".into(),
            vec!["09.01.2026", "Müller; Hans", "10"],
            4,
        ),
        (
            "ein Komma im Namen, ; getrennt",
            "Datum;Spieler;Runden\n09.01.2026;Meier, Karl;10\n".into(),
            vec!["09.01.2026", "Meier, Karl", "10"],
            2,
        ),
    ];
    for (what, bytes, want, line) in cases {
        let sheets = read(Kind::Csv, &bytes).unwrap();
        assert_eq!(sheets.len(), 1, "{what}");
        let rows = &sheets[0].rows;
        assert_eq!(
            text(&rows[0].cells),
            ["Datum", "Spieler", "Runden"],
            "{what}"
        );
        assert_eq!(text(&rows[1].cells), want, "{what}");
        assert_eq!(rows[1].line, line, "{what}");
    }
}

#[test]
fn the_separator_is_the_one_found_most_outside_quotes() {
    for (line, want) in [
        ("Datum;Spieler;Runden", b';'),
        ("Datum,Spieler,Runden", b','),
        ("\"Datum, Tag\";Spieler", b';'),
        ("Datum", b';'),
        ("a\tb\tc,d", b'\t'),
    ] {
        assert_eq!(separator(line) as char, want as char, "{line}");
    }
    assert_eq!(decode(b"\xEF\xBB\xBFa").unwrap(), "a");
    assert_eq!(decode(b"G\xe4rtner \x80").unwrap(), "Gärtner €");
}

fn book() -> Vec<(&'static str, Vec<Vec<String>>)> {
    let rows = |r: &[&[&str]]| -> Vec<Vec<String>> {
        r.iter()
            .map(|x| x.iter().map(|s| s.to_string()).collect())
            .collect()
    };
    vec![
        ("Titel", rows(&[&["Vereinstabelle"]])),
        (
            "2007",
            rows(&[
                &["Datum", "Spieler", "Runden", "Outs"],
                &["05.01.2007", "Jörg", "10", "3"],
                &["", "", "", ""],
                &["12.01.2007", "Anna", "9", "0"],
            ]),
        ),
    ]
}

#[test]
fn workbooks_give_their_sheets_with_date_cells_and_real_line_numbers() {
    for (kind, bytes) in [
        (Kind::Xlsx, sheets::xlsx(&book())),
        (Kind::Ods, sheets::ods(&book())),
    ] {
        let got = read(kind, &bytes).unwrap();
        let names: Vec<&str> = got.iter().map(|s| s.name.as_str()).collect();
        assert_eq!(names, ["Titel", "2007"], "{kind:?}");
        let rows = &got[1].rows;
        assert_eq!(rows.len(), 3, "{kind:?}: the empty row is left out");
        assert_eq!(
            text(&rows[1].cells),
            ["@2007-01-05", "Jörg", "#10", "#3"],
            "{kind:?}"
        );
        assert_eq!((rows[1].line, rows[2].line), (2, 4), "{kind:?}");
    }
}

#[test]
fn what_is_not_a_workbook_or_too_large_is_refused() {
    let e = read(Kind::Xlsx, b"Datum;Spieler").unwrap_err();
    assert!(e.to_string().contains("keine lesbare Arbeitsmappe"), "{e}");
    let e = read(Kind::Ods, &sheets::xlsx(&book())).unwrap_err();
    assert!(e.to_string().contains("keine lesbare Arbeitsmappe"), "{e}");
    let big = vec![b'a'; MAX_FILE_BYTES + 1];
    let e = read(Kind::Csv, &big).unwrap_err();
    assert!(e.to_string().contains("höchstens 16 MiB"), "{e}");
    for (name, kind) in [
        ("a.CSV", Some(Kind::Csv)),
        ("x.xlsx", Some(Kind::Xlsx)),
        ("y.ods", Some(Kind::Ods)),
        ("z.json", None),
        ("b.xls", None),
    ] {
        assert_eq!(Kind::of(name), kind, "{name}");
    }
}

#[test]
fn the_csv_written_has_a_bom_semicolons_and_crlf() {
    let rows = vec![
        vec!["Datum".to_string(), "Spieler".to_string()],
        vec!["09.01.2026".to_string(), "Meier; Karl".to_string()],
    ];
    let bytes = write_csv(&rows);
    assert_eq!(
        bytes,
        "\u{feff}Datum;Spieler\r\n09.01.2026;\"Meier; Karl\"\r\n".as_bytes()
    );
    let back = read(Kind::Csv, &bytes).unwrap();
    assert_eq!(text(&back[0].rows[1].cells), ["09.01.2026", "Meier; Karl"]);
}

#[test]
fn an_export_cell_that_a_spreadsheet_would_run_gets_a_quote() {
    let row = |cells: &[&str]| cells.iter().map(|c| c.to_string()).collect::<Vec<_>>();
    let bytes = write_csv(&[row(&["=1+1", "+3", "-2", "@SUM(A1)", "Anna", "10"])]);
    let text = String::from_utf8(bytes).unwrap();
    assert_eq!(text, "\u{feff}'=1+1;'+3;'-2;'@SUM(A1);Anna;10\r\n");
}

/// `text` in UTF-16, little or big endian, with the BOM when `bom`.
fn utf16(text: &str, little: bool, bom: bool) -> Vec<u8> {
    let mut out = Vec::new();
    if bom {
        out.extend_from_slice(if little { b"\xFF\xFE" } else { b"\xFE\xFF" });
    }
    for unit in text.encode_utf16() {
        let pair = if little {
            unit.to_le_bytes()
        } else {
            unit.to_be_bytes()
        };
        out.extend_from_slice(&pair);
    }
    out
}

/// Excel's „Unicode-Text“ is UTF-16 (hostile trial: the refusal echoed its 0 bytes): read as
/// text, little and big endian, with a BOM or without; what does not decode is refused in German.
#[test]
fn utf16_csv_files_are_read_and_broken_ones_refused_in_german() {
    let csv = "Datum;Spieler;Runden\r\n09.01.2026;Jörg Müller;10\r\n";
    for (little, bom) in [(true, true), (false, true), (true, false), (false, false)] {
        let bytes = utf16(csv, little, bom);
        let sheets = read(Kind::Csv, &bytes).unwrap_or_else(|e| panic!("{little} {bom}: {e}"));
        let rows = &sheets[0].rows;
        assert_eq!(text(&rows[0].cells), ["Datum", "Spieler", "Runden"]);
        assert_eq!(
            text(&rows[1].cells),
            ["09.01.2026", "Jörg Müller", "10"],
            "little endian {little}, BOM {bom}"
        );
        assert_eq!(rows[1].line, 2);
    }
    let mut odd = utf16(csv, true, true);
    odd.push(b'x');
    let e = read(Kind::Csv, &odd).unwrap_err().to_string();
    assert_eq!(
        e,
        "Die Datei ist UTF-16 kodiert: bitte als CSV (UTF-8) speichern."
    );
    assert!(!e.contains('\0'));
    let e = read(Kind::Csv, b"Datum;Spieler;Runden\n09.01.2026;An\0na;10\n")
        .unwrap_err()
        .to_string();
    assert!(e.contains("Null-Bytes"), "{e}");
    assert!(!e.contains('\0'));
}

/// One Windows-1252 byte in a UTF-8 file (issue 32.8: a line pasted from an old file) must not
/// turn the whole file into Windows-1252, which made `Jürgen` of the UTF-8 lines a new player
/// `JÃ¼rgen`: refused, naming the line of the stray byte and a line in UTF-8.
#[test]
fn a_csv_that_mixes_utf8_and_windows_1252_is_refused_with_the_line() {
    let mixed =
        b"Datum;Spieler;Runden\r\n09.01.2026;J\xc3\xbcrgen;10\r\n09.01.2026;M\xfcller;10\r\n";
    let e = read(Kind::Csv, mixed).unwrap_err();
    assert_eq!(e.line, Some(3), "{e}");
    let why = e.to_string();
    assert!(why.starts_with("Zeile 3: "), "{why}");
    assert!(why.contains("UTF-8"), "{why}");
    assert!(why.contains("Windows-1252"), "{why}");
    assert!(why.contains("Zeile 2"), "the UTF-8 line: {why}");
    // A BOM says UTF-8 as well.
    let e = read(
        Kind::Csv,
        b"\xEF\xBB\xBFDatum;Spieler;Runden\n09.01.2026;M\xfcller;10\n",
    )
    .unwrap_err();
    assert_eq!(e.line, Some(2), "{e}");
    // Wholly one or the other is read as before.
    let got = read(
        Kind::Csv,
        b"Datum;Spieler\n09.01.2026;M\xfcller\n09.01.2026;G\xe4rtner\n",
    )
    .unwrap();
    assert_eq!(text(&got[0].rows[2].cells), ["09.01.2026", "Gärtner"]);
}

/// Issue 32.1: tiny spreadsheets that a naive reader spells out into gigabytes (one `text:s`
/// with a huge count, one cell repeated, one shared string in many cells, a shared string table
/// that declares two billion entries) are refused in German, naming the sheet and the cell,
/// before anything large is built. The same files made small read as they should.
#[test]
fn tiny_spreadsheets_that_would_build_gigabytes_are_refused_naming_sheet_and_cell() {
    let small = read(Kind::Xlsx, &sheets::xlsx_shared("Anna", 2, 3, 1)).unwrap();
    assert_eq!(small[0].name, "2026");
    assert_eq!(text(&small[0].rows[1].cells), ["Anna", "Anna", "Anna"]);
    let small = read(Kind::Ods, &sheets::ods_repeated_cell(5, 3, 2)).unwrap();
    assert_eq!(small[0].rows.len(), 2);
    assert_eq!(text(&small[0].rows[1].cells), vec![sheets::letters(5); 3]);
    let spaces = sheets::ods_space_bomb();
    assert!(spaces.len() < 1024, "{} bytes", spaces.len());
    let cases: Vec<(&str, Vec<&str>)> = vec![
        (
            "leerzeichen.ods",
            vec!["Blatt „2026“, Zelle B1: ", "über 32767 Zeichen"],
        ),
        (
            "wiederholt.ods",
            vec!["Blatt „2026“, Zelle ", "zusammen über 16 MiB Text"],
        ),
        (
            "geteilt.xlsx",
            vec!["Blatt „2026“, Zelle ", "zusammen über 16 MiB Text"],
        ),
        ("zaehler.xlsx", vec!["2000000000", "höchstens 1000000"]),
        ("weit-rechts.ods", vec!["Blatt „2026“, Zelle ", "Zellen"]),
        ("weit-rechts.xlsx", vec!["Blatt „2026“, Zeile ", "Zellen"]),
    ];
    let files = sheets::hostile();
    for (name, want) in cases {
        let bytes = &files.iter().find(|(n, _)| *n == name).unwrap().1;
        let kind = Kind::of(name).unwrap();
        let e = read(kind, bytes).unwrap_err().to_string();
        for w in want {
            assert!(e.contains(w), "{name}: {w}: {e}");
        }
    }
    // A shared string longer than a cell may hold, in one cell: that cell is named.
    let long = sheets::xlsx_shared(&sheets::letters(40_000), 1, 2, 1);
    let e = read(Kind::Xlsx, &long).unwrap_err().to_string();
    assert!(e.starts_with("Blatt „2026“, Zelle A1: "), "{e}");
}

/// A CSV holds no more cells than a workbook: a file of separators (16 MiB of `;` are 16
/// million empty cells) and an overlong cell are refused with the line.
#[test]
fn a_csv_of_separators_or_an_overlong_cell_is_refused_with_the_line() {
    let mut wide = b"Datum;Spieler\n".to_vec();
    for _ in 0..200 {
        wide.extend_from_slice(b"x");
        wide.extend_from_slice(&[b';'; 10_000]);
        wide.push(b'\n');
    }
    let e = read(Kind::Csv, &wide).unwrap_err();
    assert!(e.line.is_some(), "{e}");
    assert!(e.to_string().contains("Zellen"), "{e}");
    let long = format!("Datum;Spieler\n09.01.2026;{}\n", "x".repeat(40_000));
    let e = read(Kind::Csv, long.as_bytes()).unwrap_err();
    assert_eq!(e.line, Some(2), "{e}");
    assert!(e.to_string().contains("über 32767 Zeichen"), "{e}");
}

/// Issue 32.1, the fifth attack: ways past the scan before the build. Each is refused in German,
/// naming the sheet and the cell (or the part, the line), whatever the parts are named, whatever
/// their root elements, however a number is written.
#[test]
fn the_scans_bypasses_are_refused_naming_where() {
    let cases: Vec<(&str, Vec<&str>)> = vec![
        ("weit-bin.xlsx", vec!["Blatt „2026“", "17179869184 Zellen"]),
        (
            "weit-wurzel.xlsx",
            vec!["Blatt „2026“", "17179869184 Zellen"],
        ),
        (
            "index-kein.xlsx",
            vec!["Blatt „2026“, Zelle ", "über 16 MiB Text"],
        ),
        (
            "index-nullen.xlsx",
            vec!["Blatt „2026“, Zelle ", "über 16 MiB Text"],
        ),
        (
            "index-verpackt.xlsx",
            vec!["Blatt „2026“, Zelle ", "über 16 MiB Text"],
        ),
        ("formate.xlsx", vec!["xl/styles.xml: ", "Formatvorlagen"]),
        ("schrift.xlsx", vec!["xl/styles.xml: ", "Formatvorlagen"]),
        (
            "zeichen-referenz.ods",
            vec!["Blatt „2026“, Zelle A1: ", "über 32767 Zeichen"],
        ),
        (
            "kommentar.ods",
            vec!["Blatt „2026“, Zelle A1: ", "über 32767 Zeichen"],
        ),
        (
            "zeilen-referenz.ods",
            vec!["Blatt „2026“", "1000000 Zeilen"],
        ),
        (
            "tabelle-in-zelle.ods",
            vec!["Blatt „2026“, Zelle A1: ", "eine Tabelle in der Tabelle"],
        ),
        (
            "ziffern.xlsx",
            vec!["Blatt „2026“, Zelle A1: ", "über 32767 Zeichen"],
        ),
        ("blaetter.ods", vec!["content.xml: ", "über 1000 Blätter"]),
        ("teile.xlsx", vec!["10001 Teilen", "höchstens 10000"]),
        (
            "doppelt.xlsx",
            vec!["xl/workbook.xml: ", "„2026“ und „2027“", "denselben Teil"],
        ),
        (
            "lange-zeile.csv",
            vec!["Zeile 1: ", "länger als 100000 Zeichen"],
        ),
    ];
    let files = sheets::bypasses();
    assert_eq!(files.len(), cases.len());
    for (name, want) in cases {
        let bytes = &files.iter().find(|(n, _)| *n == name).unwrap().1;
        let kind = Kind::of(name).unwrap();
        let started = std::time::Instant::now();
        let e = read(kind, bytes).unwrap_err().to_string();
        for w in want {
            assert!(e.contains(w), "{name}: {w}: {e}");
        }
        assert!(
            started.elapsed().as_secs() < 10,
            "{name}: {:?}",
            started.elapsed()
        );
    }
}

/// What the XLSX reader builds is counted as it is built, whatever the scan before saw: read
/// without the scan, a sheet of one long shared string in many cells is refused at the cell that
/// passes the text bound, and a far cell makes one row, not a grid of 17 billion cells.
#[test]
fn an_xlsx_is_counted_as_it_is_built_not_only_by_the_scan() {
    let bytes = &sheets::bypasses()
        .into_iter()
        .find(|(n, _)| *n == "index-verpackt.xlsx")
        .unwrap()
        .1;
    let e = build_workbook(Kind::Xlsx, bytes).unwrap_err().to_string();
    assert!(e.starts_with("Blatt „2026“, Zelle "), "{e}");
    assert!(e.contains("über 16 MiB Text"), "{e}");
    let far = sheets::xlsx_raw(
        "worksheets/sheet1.bin",
        r#"<worksheet><sheetData><row r="1"><c r="A1"><v>1</v></c></row><row r="1048576"><c r="D1048576"><v>2</v></c></row></sheetData></worksheet>"#,
        None,
        None,
    );
    let got = build_workbook(Kind::Xlsx, &far).unwrap();
    assert_eq!(got[0].rows.len(), 2);
    assert_eq!(got[0].rows[1].line, 1_048_576);
    assert_eq!(got[0].rows[1].cells.len(), 4);
}

/// A CSV line is bounded before the csv reader builds its record (one line of 16 MiB of
/// separators took 565 MB): refused with the line; a long but honest line still reads.
#[test]
fn a_csv_line_longer_than_the_bound_is_refused_with_its_number() {
    let mut text = "Datum;Spieler\n09.01.2026;Anna\n".to_string();
    text.push_str(&";".repeat(MAX_LINE_CHARS + 1));
    let e = read(Kind::Csv, text.as_bytes()).unwrap_err();
    assert_eq!(e.line, Some(3), "{e}");
    assert!(e.to_string().contains("länger als 100000 Zeichen"), "{e}");
    let ok = format!("Datum;Spieler\n09.01.2026;{}\n", "ä".repeat(30_000));
    assert!(read(Kind::Csv, ok.as_bytes()).is_ok());
}
