//! Reading and writing the club's spreadsheet files (interchange.md "Spreadsheet of night
//! totals"): the bytes of a CSV, XLSX or ODS file into [`Sheet`]s of cells, and a season's rows
//! into a CSV file. Pure code over the well-kept crates: `csv` for the records, `encoding_rs` for
//! a file in Windows-1252 (what a German Excel writes), `calamine` for the workbooks, `zip` to
//! bound what a workbook unpacks to. What the cells mean is `league::sheet`.

use std::io::{Cursor, Read, Seek};

use calamine::{Data, Reader};
use chrono::NaiveDate;

use crate::league::sheet::layout::{Cell, Sheet, SheetError, SheetRow};

/// Largest file read (16 MiB): a club's twenty years of night totals are well under 1 MiB as
/// CSV and a few MiB as XLSX.
pub const MAX_FILE_BYTES: usize = 16 * 1024 * 1024;
/// Most a workbook may unpack to (64 MiB): its XML is many times the packed size (twenty years
/// of a club are a few MiB), but a file that unpacks to more is a zip bomb, not a league; reading
/// 213 MiB of honest XML took 862 MB of memory, more than a small club server has.
pub const MAX_UNPACKED_BYTES: u64 = 64 * 1024 * 1024;

/// Most parts (files in its zip) a workbook may have: 10,000 (a club's has a dozen; each part is
/// scanned and kept in lists by the zip reader and calamine).
pub const MAX_PARTS: usize = 10_000;

/// The kinds of file the import reads, told by the file name's ending.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// `.csv`: one sheet, `;` or `,`, UTF-8 (with or without BOM), UTF-16 or Windows-1252.
    Csv,
    /// `.xlsx`: an Excel workbook.
    Xlsx,
    /// `.ods`: an OpenDocument (LibreOffice) workbook.
    Ods,
}

impl Kind {
    /// The kind of a file named `name` by its ending (case ignored), `None` for any other.
    pub fn of(name: &str) -> Option<Kind> {
        let lower = name.to_lowercase();
        if lower.ends_with(".csv") {
            Some(Kind::Csv)
        } else if lower.ends_with(".xlsx") {
            Some(Kind::Xlsx)
        } else if lower.ends_with(".ods") {
            Some(Kind::Ods)
        } else {
            None
        }
    }
}

/// Reads the sheets of a file of `kind` from `bytes` (at most [`MAX_FILE_BYTES`]). A CSV file
/// is one sheet without a name; a workbook gives every sheet with its name. Errors (German): too
/// large, not a file of that kind, a broken workbook.
pub fn read(kind: Kind, bytes: &[u8]) -> Result<Vec<Sheet>, SheetError> {
    check_size(bytes.len() as u64)?;
    match kind {
        Kind::Csv => Ok(vec![read_csv(bytes)?]),
        Kind::Xlsx | Kind::Ods => read_workbook(kind, bytes),
    }
}

/// Refuses a file of `len` bytes over [`MAX_FILE_BYTES`] (German: „die Datei ist 400 MiB groß;
/// höchstens 16 MiB“). The command line asks this of a file's size before it reads the file.
pub fn check_size(len: u64) -> Result<(), SheetError> {
    if len > MAX_FILE_BYTES as u64 {
        return Err(SheetError::new(format!(
            "die Datei ist {} MiB groß; höchstens {} MiB",
            len.div_ceil(1024 * 1024),
            MAX_FILE_BYTES / (1024 * 1024)
        )));
    }
    Ok(())
}

/// The text of a CSV file's bytes: UTF-16 with its BOM (little or big endian, as Excel's
/// "Unicode-Text" saves) or without one (told by where its 0 bytes are), else UTF-8 (a BOM
/// stripped) when they are valid UTF-8, else Windows-1252. Errors (German): UTF-16 that does not
/// decode, and 0 bytes in a file that is no UTF-16 (no text file).
pub fn decode(bytes: &[u8]) -> Result<String, SheetError> {
    if let Some(rest) = bytes.strip_prefix(b"\xFF\xFE") {
        return utf16(encoding_rs::UTF_16LE, rest);
    }
    if let Some(rest) = bytes.strip_prefix(b"\xFE\xFF") {
        return utf16(encoding_rs::UTF_16BE, rest);
    }
    if bytes.contains(&0) {
        // UTF-16 of mostly ASCII text: every other byte is 0, the second of each pair (little
        // endian) or the first (big endian).
        let zeros_at = |first: usize| {
            bytes
                .iter()
                .skip(first)
                .step_by(2)
                .filter(|b| **b == 0)
                .count()
        };
        let (even, odd) = (zeros_at(0), zeros_at(1));
        if even.max(odd) * 4 < bytes.len() {
            return Err(SheetError::new(
                "Die Datei enthält Null-Bytes: keine Textdatei; bitte als CSV (UTF-8) speichern.",
            ));
        }
        let encoding = if odd > even {
            encoding_rs::UTF_16LE
        } else {
            encoding_rs::UTF_16BE
        };
        return utf16(encoding, bytes);
    }
    let bom = bytes.starts_with(b"\xEF\xBB\xBF");
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    match std::str::from_utf8(bytes) {
        Ok(s) => Ok(s.to_string()),
        Err(bad) => {
            refuse_mixed(bytes, bad.valid_up_to(), bom)?;
            let (text, _) = encoding_rs::WINDOWS_1252.decode_without_bom_handling(bytes);
            Ok(text.into_owned())
        }
    }
}

/// Refuses `bytes` that are no valid UTF-8 from `invalid_at` on when they are UTF-8 elsewhere (a
/// BOM, or a character beyond ASCII that decodes as UTF-8): one stray Windows-1252 byte must not
/// turn the UTF-8 names of every other line into mojibake (issue 32.8, `Jürgen` → `JÃ¼rgen`). The
/// German refusal names the line of the stray byte and a line in UTF-8.
fn refuse_mixed(bytes: &[u8], invalid_at: usize, bom: bool) -> Result<(), SheetError> {
    let line_of = |at: usize| 1 + bytes[..at].iter().filter(|b| **b == b'\n').count();
    let mut at = 0;
    let mut utf8_at = bom.then_some(0);
    for chunk in bytes.utf8_chunks() {
        if utf8_at.is_none() {
            if let Some(k) = chunk.valid().find(|c: char| !c.is_ascii()) {
                utf8_at = Some(at + k);
            }
        }
        at += chunk.valid().len() + chunk.invalid().len();
        if utf8_at.is_some() {
            break;
        }
    }
    let Some(utf8_at) = utf8_at else {
        return Ok(());
    };
    let line = line_of(invalid_at);
    let utf8_line = line_of(utf8_at);
    let utf8 = if bom && utf8_at == 0 {
        "die Datei beginnt mit der UTF-8-Kennung (BOM)".to_string()
    } else {
        format!("Zeile {utf8_line} ist UTF-8")
    };
    Err(SheetError {
        line: Some(line),
        ..SheetError::new(format!(
            "ein Zeichen in Windows-1252 (ANSI), aber {utf8}: die Datei mischt zwei Kodierungen, \
             Namen mit Umlauten würden falsch gelesen; bitte die ganze Datei als CSV (UTF-8) \
             speichern"
        ))
    })
}

/// `bytes` (no BOM) decoded as `encoding` (UTF-16 LE or BE); refused (German) when they are not
/// that or hold a 0 character.
fn utf16(encoding: &'static encoding_rs::Encoding, bytes: &[u8]) -> Result<String, SheetError> {
    let (text, malformed) = encoding.decode_without_bom_handling(bytes);
    if malformed || text.contains('\0') {
        return Err(SheetError::new(
            "Die Datei ist UTF-16 kodiert: bitte als CSV (UTF-8) speichern.",
        ));
    }
    Ok(text.into_owned())
}

/// The separator of a CSV text: of `;`, `,` and tab the one found most often in its first line
/// outside quotes (`;` when none is, what a German Excel writes).
pub fn separator(text: &str) -> u8 {
    let first = text.lines().next().unwrap_or("");
    let mut quoted = false;
    let mut counts = [0usize; 3];
    for c in first.chars() {
        match c {
            '"' => quoted = !quoted,
            ';' if !quoted => counts[0] += 1,
            ',' if !quoted => counts[1] += 1,
            '\t' if !quoted => counts[2] += 1,
            _ => {}
        }
    }
    let seps = [b';', b',', b'\t'];
    let mut best = 0;
    for i in 1..3 {
        if counts[i] > counts[best] {
            best = i;
        }
    }
    seps[best]
}

/// Most characters one line of a CSV file may hold: 100,000 (a club's line is a date, a name
/// and a few numbers; a cell may hold [`bounds::MAX_CELL_CHARS`]). The csv reader builds a whole
/// record in memory, with an entry per field: one line of 16 MiB of separators took 565 MB.
pub const MAX_LINE_CHARS: usize = 100_000;

/// Refuses (German, with the line) a text with a line longer than [`MAX_LINE_CHARS`], before
/// the csv reader builds it.
fn check_lines(text: &str) -> Result<(), SheetError> {
    for (k, line) in text.split('\n').enumerate() {
        if line.len() > MAX_LINE_CHARS {
            let chars = line.chars().count();
            if chars > MAX_LINE_CHARS {
                return Err(SheetError {
                    line: Some(k + 1),
                    ..SheetError::new(format!(
                        "die Zeile ist länger als {MAX_LINE_CHARS} Zeichen ({chars} Zeichen); \
                         eine Zeile der Tabelle braucht ein paar Dutzend (stehen dort sehr \
                         viele Trennzeichen?)"
                    ))
                });
            }
        }
    }
    Ok(())
}

fn read_csv(bytes: &[u8]) -> Result<Sheet, SheetError> {
    let text = decode(bytes)?;
    check_lines(&text)?;
    let mut reader = csv::ReaderBuilder::new()
        .delimiter(separator(&text))
        .has_headers(false)
        .flexible(true)
        .from_reader(text.as_bytes());
    // The line of a byte offset: 1 + the line ends before it (quoted fields may span lines; the
    // csv reader's own line count does not see a CR LF as one end).
    let ends: Vec<usize> = text
        .bytes()
        .enumerate()
        .filter(|(_, b)| *b == b'\n')
        .map(|(i, _)| i)
        .collect();
    // A record's position may point at the line end before it (the CR of a CR LF).
    let bytes = text.as_bytes();
    let line_at = |byte: u64| {
        let mut at = byte as usize;
        while at < bytes.len() && matches!(bytes[at], b'\r' | b'\n') {
            at += 1;
        }
        1 + ends.partition_point(|&e| e < at)
    };
    let mut rows = Vec::new();
    // Every field read, empty ones too (each is a cell in memory): at most bounds::MAX_CELLS.
    let mut cells_read: u64 = 0;
    for record in reader.records() {
        let record = record.map_err(|e| {
            let line = e.position().map(|p| line_at(p.byte()));
            SheetError {
                line,
                ..SheetError::new(format!("keine lesbare CSV-Zeile ({e})"))
            }
        })?;
        let line = record
            .position()
            .map_or(rows.len() + 1, |p| line_at(p.byte()));
        let at_line = |message: String| SheetError {
            line: Some(line),
            ..SheetError::new(message)
        };
        cells_read = cells_read.saturating_add(record.len() as u64);
        if cells_read > bounds::MAX_CELLS {
            return Err(at_line(format!(
                "bis hier über {} Zellen; höchstens {} (stehen in einer Zeile sehr viele \
                 Trennzeichen?)",
                bounds::MAX_CELLS,
                bounds::MAX_CELLS
            )));
        }
        if let Some((k, long)) = record
            .iter()
            .enumerate()
            .find(|(_, c)| c.len() as u64 > bounds::MAX_CELL_CHARS)
        {
            let chars = long.chars().count() as u64;
            if chars > bounds::MAX_CELL_CHARS {
                return Err(at_line(format!(
                    "Feld {}: über {} Zeichen in einem Feld ({chars} Zeichen); ein Name oder ein \
                     Datum braucht ein paar Dutzend",
                    k + 1,
                    bounds::MAX_CELL_CHARS
                )));
            }
        }
        let cells: Vec<Cell> = record
            .iter()
            .map(|c| {
                let t = c.trim();
                if t.is_empty() {
                    Cell::Empty
                } else {
                    Cell::Text(t.to_string())
                }
            })
            .collect();
        if cells.iter().all(|c| *c == Cell::Empty) {
            continue;
        }
        rows.push(SheetRow { line, cells });
        if rows.len() > crate::league::sheet::layout::MAX_ROWS + 1 {
            break;
        }
    }
    Ok(Sheet {
        name: String::new(),
        rows,
    })
}

/// Refuses a workbook whose zip entries unpack to more than [`MAX_UNPACKED_BYTES`].
fn check_unpacked<R: Read + Seek>(reader: R) -> Result<(), SheetError> {
    let not_a_workbook =
        |e: zip::result::ZipError| SheetError::new(format!("keine lesbare Arbeitsmappe ({e})"));
    let mut archive = zip::ZipArchive::new(reader).map_err(not_a_workbook)?;
    if archive.len() > MAX_PARTS {
        return Err(SheetError::new(format!(
            "die Arbeitsmappe besteht aus {} Teilen; höchstens {MAX_PARTS}",
            archive.len()
        )));
    }
    let mut total: u64 = 0;
    for i in 0..archive.len() {
        let entry = archive.by_index_raw(i).map_err(not_a_workbook)?;
        total = total.saturating_add(entry.size());
    }
    if total > MAX_UNPACKED_BYTES {
        return Err(SheetError::new(format!(
            "die Arbeitsmappe entpackt sich zu {} MiB; höchstens {} MiB",
            total / (1024 * 1024),
            MAX_UNPACKED_BYTES / (1024 * 1024)
        )));
    }
    Ok(())
}

fn read_workbook(kind: Kind, bytes: &[u8]) -> Result<Vec<Sheet>, SheetError> {
    check_unpacked(Cursor::new(bytes))?;
    bounds::check(kind, Cursor::new(bytes))?;
    build_workbook(kind, bytes)
}

/// The sheets of a workbook as calamine reads them, without the scan before (its own bounds:
/// an XLSX is read cell by cell and counted as built; an ODS is built whole by calamine, which
/// only the scan bounds).
fn build_workbook(kind: Kind, bytes: &[u8]) -> Result<Vec<Sheet>, SheetError> {
    let broken = |e: String| SheetError::new(format!("keine lesbare Arbeitsmappe ({e})"));
    let mut out = Vec::new();
    let mut built: u64 = 0;
    match kind {
        Kind::Xlsx => {
            let mut book: calamine::Xlsx<_> =
                calamine::open_workbook_from_rs(Cursor::new(bytes))
                    .map_err(|e: calamine::XlsxError| broken(e.to_string()))?;
            let mut text = Built::default();
            for name in book.sheet_names() {
                out.push(xlsx_sheet(&mut book, name, &mut built, &mut text)?);
            }
        }
        Kind::Ods => {
            let mut book: calamine::Ods<_> = calamine::open_workbook_from_rs(Cursor::new(bytes))
                .map_err(|e: calamine::OdsError| broken(e.to_string()))?;
            for name in book.sheet_names() {
                let range = book
                    .worksheet_range(&name)
                    .map_err(|e| broken(e.to_string()))?;
                out.push(sheet_of(name, &range, &mut built)?);
            }
        }
        Kind::Csv => return Ok(vec![read_csv(bytes)?]),
    }
    Ok(out)
}

/// What the reader built of a workbook's cells so far: texts and their bytes, counted as each
/// cell is made (whatever part or element it came from), so no file makes it build more than
/// [`bounds::MAX_CELLS`] cells or [`bounds::MAX_TEXT_BYTES`] of text, whatever the scan before
/// it saw (issue 32.1).
#[derive(Debug, Default)]
struct Built {
    cells: u64,
    text: u64,
}

impl Built {
    /// Counts `cell` at (`row`, `col`) (0-based) of sheet `name`; refused (German, naming sheet
    /// and cell) past the bounds, or a text of more than [`bounds::MAX_CELL_CHARS`] characters.
    fn add(&mut self, name: &str, (row, col): (u32, u32), cell: &Cell) -> Result<(), SheetError> {
        let refuse = |message: String| SheetError {
            sheet: Some(name.to_string()),
            cell: Some(bounds::cell_name(u64::from(row), u64::from(col))),
            ..SheetError::new(message)
        };
        self.cells += 1;
        if self.cells > bounds::MAX_CELLS {
            return Err(refuse(format!(
                "über {} Zellen mit Inhalt; höchstens {}",
                bounds::MAX_CELLS,
                bounds::MAX_CELLS
            )));
        }
        if let Cell::Text(t) = cell {
            let chars = t.chars().count() as u64;
            if chars > bounds::MAX_CELL_CHARS {
                return Err(refuse(format!(
                    "über {} Zeichen in einer Zelle ({chars} Zeichen); so viel nimmt auch Excel \
                     nicht (ein Name oder ein Datum braucht ein paar Dutzend)",
                    bounds::MAX_CELL_CHARS
                )));
            }
            self.text = self
                .text
                .saturating_add(t.len() as u64 + bounds::STRING_COST);
            if self.text > bounds::MAX_TEXT_BYTES {
                return Err(refuse(format!(
                    "die Zellen halten bis hier zusammen über {} MiB Text; höchstens {} MiB, \
                     eine Vereinstabelle hat weit weniger (zeigen sehr viele Zellen denselben \
                     langen Text?)",
                    bounds::MAX_TEXT_BYTES / (1024 * 1024),
                    bounds::MAX_TEXT_BYTES / (1024 * 1024)
                )));
            }
        }
        Ok(())
    }
}

/// One XLSX worksheet `name` read cell by cell (calamine's cell reader: a shared string is
/// copied only into the cell made of it, and no grid from the first to the last used cell is
/// built), each cell counted into `text` as it is made; then its rows as [`sheet_of_rows`] makes
/// them. A part that is no worksheet (a chart sheet) gives an empty sheet.
fn xlsx_sheet<RS: Read + Seek>(
    book: &mut calamine::Xlsx<RS>,
    name: String,
    built: &mut u64,
    text: &mut Built,
) -> Result<Sheet, SheetError> {
    let broken = |e: calamine::XlsxError| SheetError {
        sheet: Some(name.clone()),
        ..SheetError::new(format!("keine lesbare Arbeitsmappe ({e})"))
    };
    let mut reader = match book.worksheet_cells_reader(&name) {
        Ok(reader) => reader,
        Err(calamine::XlsxError::NotAWorksheet(_)) => {
            return Ok(Sheet {
                name,
                rows: Vec::new(),
            })
        }
        Err(e) => return Err(broken(e)),
    };
    let mut rows: std::collections::BTreeMap<u32, Vec<(u32, Cell)>> = Default::default();
    while let Some(c) = reader.next_cell().map_err(broken)? {
        let cell = cell_of(&Data::from(c.get_value().clone()));
        if cell == Cell::Empty {
            continue;
        }
        let (row, col) = c.get_position();
        text.add(&name, (row, col), &cell)?;
        rows.entry(row).or_default().push((col, cell));
    }
    drop(reader);
    sheet_of_rows(name, rows, built)
}

/// A sheet `name` from its cells by row and column (0-based), each row filled from column A to
/// its last cell (a later cell at the same place wins). `built` counts the cells of the
/// workbook's rows so far: refused (German, sheet and line) past [`bounds::MAX_CELLS`].
fn sheet_of_rows(
    name: String,
    cells: std::collections::BTreeMap<u32, Vec<(u32, Cell)>>,
    built: &mut u64,
) -> Result<Sheet, SheetError> {
    let mut rows = Vec::new();
    for (row, placed) in cells {
        let line = row as usize + 1;
        let width = placed
            .iter()
            .map(|(c, _)| *c as usize + 1)
            .max()
            .unwrap_or(0);
        *built = built.saturating_add(width as u64);
        if *built > bounds::MAX_CELLS {
            return Err(SheetError {
                sheet: Some(name),
                line: Some(line),
                ..SheetError::new(format!(
                    "die Zeilen halten bis hier über {} Zellen, jede von Spalte A an gezählt \
                     (steht in vielen Zeilen etwas weit rechts?); höchstens {}",
                    bounds::MAX_CELLS,
                    bounds::MAX_CELLS
                ))
            });
        }
        let mut row_cells = vec![Cell::Empty; width];
        for (col, cell) in placed {
            if let Some(slot) = row_cells.get_mut(col as usize) {
                *slot = cell;
            }
        }
        rows.push(SheetRow {
            line,
            cells: row_cells,
        });
        if rows.len() > crate::league::sheet::layout::MAX_ROWS + 1 {
            break;
        }
    }
    Ok(Sheet { name, rows })
}

/// One worksheet's cells with their real row numbers and columns (a range starts at its first
/// used cell; each row is filled from column A). `built` counts the cells of the workbook's rows
/// so far: refused (German, sheet and line) past [`bounds::MAX_CELLS`], as a sheet whose rows
/// hold one cell far right would take 16,384 cells a row.
fn sheet_of(
    name: String,
    range: &calamine::Range<Data>,
    built: &mut u64,
) -> Result<Sheet, SheetError> {
    let (first_row, first_col) = range.start().unwrap_or((0, 0));
    let mut rows = Vec::new();
    for (i, r) in range.rows().enumerate() {
        let line = first_row as usize + i + 1;
        *built = built.saturating_add(u64::from(first_col) + r.len() as u64);
        if *built > bounds::MAX_CELLS {
            return Err(SheetError {
                sheet: Some(name),
                line: Some(line),
                ..SheetError::new(format!(
                    "die Zeilen halten bis hier über {} Zellen, jede von Spalte A an gezählt \
                     (steht in vielen Zeilen etwas weit rechts?); höchstens {}",
                    bounds::MAX_CELLS,
                    bounds::MAX_CELLS
                ))
            });
        }
        let mut cells: Vec<Cell> = std::iter::repeat_n(Cell::Empty, first_col as usize).collect();
        cells.extend(r.iter().map(cell_of));
        if cells.iter().all(|c| *c == Cell::Empty) {
            continue;
        }
        rows.push(SheetRow { line, cells });
        if rows.len() > crate::league::sheet::layout::MAX_ROWS + 1 {
            break;
        }
    }
    Ok(Sheet { name, rows })
}

fn cell_of(d: &Data) -> Cell {
    match d {
        Data::Empty => Cell::Empty,
        Data::String(s) if s.trim().is_empty() => Cell::Empty,
        Data::String(s) => Cell::Text(s.trim().to_string()),
        Data::Int(n) => Cell::Number(*n as f64),
        Data::Float(f) => Cell::Number(*f),
        Data::Bool(b) => Cell::Text(if *b { "ja" } else { "nein" }.to_string()),
        Data::DateTime(dt) if dt.is_datetime() => dt
            .as_datetime()
            .map(|x| Cell::Date(x.date()))
            .unwrap_or_else(|| Cell::Number(dt.as_f64())),
        Data::DateTime(dt) => Cell::Number(dt.as_f64()),
        Data::DateTimeIso(s) => s
            .get(..10)
            .and_then(|d| NaiveDate::parse_from_str(d, "%Y-%m-%d").ok())
            .map_or_else(|| Cell::Text(s.clone()), Cell::Date),
        Data::DurationIso(s) => Cell::Text(s.clone()),
        Data::Error(e) => Cell::Text(format!("#{e:?}")),
    }
}

/// A field made safe for spreadsheets: a leading `=`, `+`, `-`, `@`, tab or CR (which a
/// spreadsheet would run as a formula, e.g. a player named `=HYPERLINK(…)`) gets a `'` in front;
/// the import takes it off again (`league::sheet`), so the file still reads back the same.
pub fn safe_text(s: &str) -> String {
    match s.chars().next() {
        Some('=' | '+' | '-' | '@' | '\t' | '\r') => format!("'{s}"),
        _ => s.to_string(),
    }
}

/// `rows` as a CSV file the way a German Excel reads it (interchange.md: UTF-8 with BOM, `;`,
/// CRLF line ends; fields quoted where needed).
pub fn write_csv(rows: &[Vec<String>]) -> Vec<u8> {
    let mut out = b"\xEF\xBB\xBF".to_vec();
    {
        let mut writer = csv::WriterBuilder::new()
            .delimiter(b';')
            .terminator(csv::Terminator::CRLF)
            .from_writer(&mut out);
        for row in rows {
            let row: Vec<String> = row.iter().map(|f| safe_text(f)).collect();
            // Writing into memory cannot fail but for a bug; a row that does is left out.
            if writer.write_record(&row).is_err() {
                continue;
            }
        }
        let _ = writer.flush();
    }
    out
}

mod bounds;

#[cfg(test)]
mod testkit;

#[cfg(test)]
mod tests;
