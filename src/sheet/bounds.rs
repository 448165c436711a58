//! What a workbook's sheets span, read from their XML before `calamine` builds them: calamine
//! makes one dense grid from a sheet's first to its last used cell, so a 2 KB file with one cell
//! in `XFD1048576`, or an ODS row of 16,000 repeated cells repeated 6,000 times, would allocate
//! gigabytes (and abort the process) before any of our limits looked at it. This scan streams the
//! sheet XML (`quick-xml`, the parser calamine itself uses) and refuses, in German, a sheet whose
//! used area is over [`MAX_CELLS`] cells or [`MAX_SPAN_ROWS`] rows, and a cell reference that is
//! no valid one (which calamine would overflow on).

use std::io::{BufReader, Read, Seek};

use quick_xml::events::{BytesStart, Event};

use crate::league::sheet::SheetError;

use super::Kind;

/// Most cells the used area of one sheet may span (rows × columns from its first to its last
/// used cell): 2,000,000, e.g. 100,000 rows × 20 columns; a club's twenty years are about
/// 20,000 rows × 10 columns.
pub const MAX_CELLS: u64 = 2_000_000;

/// Most rows the used area of one sheet may span: the import's row limit and its header.
pub const MAX_SPAN_ROWS: u64 = crate::league::sheet::MAX_ROWS as u64 + 1;

/// The used area of one sheet: first and last used row and column (0-based), if any.
#[derive(Debug, Default, Clone, Copy)]
struct Area {
    rows: Option<(u64, u64)>,
    cols: Option<(u64, u64)>,
}

impl Area {
    fn take(&mut self, row: u64, rows: u64, col: u64, cols: u64) {
        let last_row = row.saturating_add(rows.max(1) - 1);
        let last_col = col.saturating_add(cols.max(1) - 1);
        self.rows = Some(match self.rows {
            Some((a, b)) => (a.min(row), b.max(last_row)),
            None => (row, last_row),
        });
        self.cols = Some(match self.cols {
            Some((a, b)) => (a.min(col), b.max(last_col)),
            None => (col, last_col),
        });
    }

    /// Refuses the area when it is too large (German, naming the sheet).
    fn check(&self, sheet: &str) -> Result<(), SheetError> {
        let (Some((r0, r1)), Some((c0, c1))) = (self.rows, self.cols) else {
            return Ok(());
        };
        let rows = r1 - r0 + 1;
        let cells = rows.saturating_mul(c1 - c0 + 1);
        if rows > MAX_SPAN_ROWS || cells > MAX_CELLS {
            return Err(SheetError::new(format!(
                "Blatt {sheet}: die benutzten Zellen reichen über {rows} Zeilen und {} Spalten \
                 ({cells} Zellen); höchstens {MAX_SPAN_ROWS} Zeilen und {MAX_CELLS} Zellen je Blatt \
                 (steht weit unten oder rechts noch etwas?)",
                c1 - c0 + 1
            )));
        }
        Ok(())
    }
}

/// Checks every sheet of the workbook `reader` of `kind` (XLSX or ODS; a CSV has nothing to
/// check). Errors: German, naming the sheet and what is too large or broken.
pub fn check<R: Read + Seek>(kind: Kind, reader: R) -> Result<(), SheetError> {
    let broken = |e: String| SheetError::new(format!("keine lesbare Arbeitsmappe ({e})"));
    let mut archive = zip::ZipArchive::new(reader).map_err(|e| broken(e.to_string()))?;
    let names: Vec<String> = archive
        .file_names()
        .filter_map(|n| n.ok().map(|n| n.into_owned()))
        .filter(|n| match kind {
            Kind::Xlsx => n.starts_with("xl/worksheets/") && n.ends_with(".xml"),
            Kind::Ods => n == "content.xml",
            Kind::Csv => false,
        })
        .collect();
    for name in names {
        let entry = archive.by_name(&name).map_err(|e| broken(e.to_string()))?;
        let reader = BufReader::new(entry);
        match kind {
            Kind::Xlsx => xlsx_sheet(reader, &name)?,
            Kind::Ods => ods_sheets(reader)?,
            Kind::Csv => {}
        }
    }
    Ok(())
}

/// The value of attribute `key` (qualified name as written) of `e`, if present.
fn attr(e: &BytesStart<'_>, key: &str) -> Option<String> {
    e.attributes()
        .flatten()
        .find(|a| a.key.as_ref() == key)
        .map(|a| a.value.to_string())
}

/// A cell reference "AB12" as (row, column), 0-based; `None` when it is no valid reference of
/// Excel's grid (at most column XFD = 16,384 and row 1,048,576).
pub fn cell_ref(text: &str) -> Option<(u64, u64)> {
    let letters = text.bytes().take_while(u8::is_ascii_alphabetic).count();
    let (col, row) = text.split_at(letters);
    if letters == 0 || letters > 3 || row.is_empty() || row.len() > 7 {
        return None;
    }
    let col = col.bytes().try_fold(0u64, |n, b| {
        Some(n * 26 + u64::from(b.to_ascii_uppercase() - b'A') + 1)
    })?;
    let row: u64 = row.parse().ok()?;
    if !(1..=16_384).contains(&col) || !(1..=1_048_576).contains(&row) {
        return None;
    }
    Some((row - 1, col - 1))
}

/// One XLSX worksheet: each `<c r="…">` (and `<row r="…">`) taken into its area.
fn xlsx_sheet<R: std::io::BufRead>(reader: R, name: &str) -> Result<(), SheetError> {
    let mut xml = quick_xml::Reader::from_reader(reader);
    let mut buf = Vec::new();
    let mut area = Area::default();
    let (mut row, mut col) = (0u64, 0u64);
    loop {
        let event = xml
            .read_event_into(&mut buf)
            .map_err(|e| SheetError::new(format!("Blatt {name}: kein lesbares XML ({e})")))?;
        match &event {
            Event::Start(e) | Event::Empty(e) => match e.local_name().as_ref() {
                "row" => {
                    row = match attr(e, "r") {
                        Some(r) => r
                            .parse::<u64>()
                            .ok()
                            .filter(|r| (1..=1_048_576).contains(r))
                            .map(|r| r - 1)
                            .ok_or_else(|| {
                                SheetError::new(format!("Blatt {name}: Zeile „{r}“ gibt es nicht"))
                            })?,
                        None => row + 1,
                    };
                    col = 0;
                }
                "c" => {
                    if let Some(r) = attr(e, "r") {
                        let (r, c) = cell_ref(&r).ok_or_else(|| {
                            SheetError::new(format!("Blatt {name}: Zelle „{r}“ gibt es nicht"))
                        })?;
                        row = r;
                        col = c;
                    }
                    area.take(row, 1, col, 1);
                    col += 1;
                }
                _ => {}
            },
            Event::Eof => break,
            _ => {}
        }
        buf.clear();
    }
    area.check(name)
}

/// The repeat count of `e` in attribute `key` (1 when absent or unreadable).
fn repeated(e: &BytesStart<'_>, key: &str) -> u64 {
    attr(e, key)
        .and_then(|n| n.parse::<u64>().ok())
        .unwrap_or(1)
        .max(1)
}

/// Every `<table:table>` of an ODS `content.xml`: rows and cells with their repeat counts; only
/// cells with a value or content widen the area (LibreOffice writes the empty rest of a sheet as
/// huge repeats of empty cells, which calamine skips).
fn ods_sheets<R: std::io::BufRead>(reader: R) -> Result<(), SheetError> {
    let mut xml = quick_xml::Reader::from_reader(reader);
    let mut buf = Vec::new();
    let mut area = Area::default();
    let mut sheet = String::new();
    let (mut row, mut row_repeat, mut col) = (0u64, 0u64, 0u64);
    // The repeated cell being read (its column and repeat), while inside it.
    let mut in_cell: Option<(u64, u64)> = None;
    loop {
        let event = xml
            .read_event_into(&mut buf)
            .map_err(|e| SheetError::new(format!("content.xml: kein lesbares XML ({e})")))?;
        match &event {
            Event::Start(e) | Event::Empty(e) => {
                let empty = matches!(event, Event::Empty(_));
                match e.name().as_ref() {
                    "table:table" => {
                        area.check(&sheet)?;
                        area = Area::default();
                        sheet = attr(e, "table:name").unwrap_or_default();
                        row = 0;
                        row_repeat = 0;
                    }
                    "table:table-row" => {
                        row = row.saturating_add(row_repeat);
                        row_repeat = repeated(e, "table:number-rows-repeated");
                        col = 0;
                    }
                    "table:table-cell" | "table:covered-table-cell" => {
                        let cols = repeated(e, "table:number-columns-repeated");
                        let valued = attr(e, "office:value-type").is_some();
                        if valued {
                            area.take(row, row_repeat, col, cols);
                        }
                        if !empty {
                            in_cell = Some((col, cols));
                        }
                        col = col.saturating_add(cols);
                    }
                    // Text inside a cell: the cell (and its repeats) hold something.
                    _ => {
                        if let Some((c, n)) = in_cell {
                            area.take(row, row_repeat, c, n);
                        }
                    }
                }
                area.check(&sheet)?;
            }
            Event::Text(t) if in_cell.is_some() && !t.as_ref().trim().is_empty() => {
                if let Some((c, n)) = in_cell {
                    area.take(row, row_repeat, c, n);
                    area.check(&sheet)?;
                }
            }
            Event::End(e)
                if matches!(
                    e.name().as_ref(),
                    "table:table-cell" | "table:covered-table-cell"
                ) =>
            {
                in_cell = None;
            }
            Event::Eof => break,
            _ => {}
        }
        buf.clear();
    }
    area.check(&sheet)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cell_references_of_excels_grid_only() {
        assert_eq!(cell_ref("A1"), Some((0, 0)));
        assert_eq!(cell_ref("AB12"), Some((11, 27)));
        assert_eq!(cell_ref("XFD1048576"), Some((1_048_575, 16_383)));
        for bad in [
            "",
            "A",
            "1",
            "A0",
            "XFE1",
            "A1048577",
            "ZZZZZZ3",
            "ZZZZZZZZ99999999999",
            "A4294967297",
        ] {
            assert_eq!(cell_ref(bad), None, "{bad}");
        }
    }

    /// A zip with one entry `name` holding `xml`.
    fn zipped(name: &str, xml: &str) -> std::io::Cursor<Vec<u8>> {
        use std::io::Write;
        let mut w = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
        w.start_file(name, zip::write::SimpleFileOptions::default())
            .unwrap();
        w.write_all(xml.as_bytes()).unwrap();
        std::io::Cursor::new(w.finish().unwrap().into_inner())
    }

    #[test]
    fn a_far_cell_or_a_repeated_row_is_refused_before_calamine_builds_it() {
        let near = r#"<worksheet><sheetData><row r="1"><c r="A1"/><c r="J1"/></row><row r="20000"><c r="B20000"/></row></sheetData></worksheet>"#;
        assert!(check(Kind::Xlsx, zipped("xl/worksheets/sheet1.xml", near)).is_ok());
        let far = r#"<worksheet><sheetData><row r="1"><c r="A1"/></row><row r="1048576"><c r="XFD1048576"/></row></sheetData></worksheet>"#;
        let e = check(Kind::Xlsx, zipped("xl/worksheets/sheet1.xml", far))
            .unwrap_err()
            .to_string();
        assert!(e.contains("17179869184 Zellen"), "{e}");
        let overflow =
            r#"<worksheet><sheetData><row><c r="A4294967297"/></row></sheetData></worksheet>"#;
        assert!(check(Kind::Xlsx, zipped("xl/worksheets/sheet1.xml", overflow)).is_err());
        let ods = |cell: &str| {
            format!(
                r#"<office:document-content><table:table table:name="2025"><table:table-row table:number-rows-repeated="6000">{cell}</table:table-row><table:table-row table:number-rows-repeated="1048000"><table:table-cell table:number-columns-repeated="1024"/></table:table-row></table:table></office:document-content>"#
            )
        };
        // Empty repeats (how LibreOffice writes the rest of a sheet) are nothing.
        let empty = ods(r#"<table:table-cell table:number-columns-repeated="16000"/>"#);
        assert!(check(Kind::Ods, zipped("content.xml", &empty)).is_ok());
        let full = ods(
            r#"<table:table-cell table:number-columns-repeated="16000" office:value-type="float" office:value="1"><text:p>1</text:p></table:table-cell>"#,
        );
        let e = check(Kind::Ods, zipped("content.xml", &full))
            .unwrap_err()
            .to_string();
        assert!(e.contains("Blatt 2025"), "{e}");
    }

    #[test]
    fn an_area_too_wide_or_too_long_is_refused() {
        let mut a = Area::default();
        a.take(0, 1, 0, 10);
        a.take(19_999, 1, 0, 1);
        assert!(a.check("2026").is_ok());
        a.take(1_048_575, 1, 16_383, 1);
        let e = a.check("2026").unwrap_err().to_string();
        assert!(e.contains("Blatt 2026"), "{e}");
        let mut long = Area::default();
        long.take(0, MAX_SPAN_ROWS + 1, 0, 1);
        assert!(long.check("x").is_err());
    }
}
