//! What a workbook's sheets span and what text their cells hold, read from their XML before
//! `calamine` builds them. calamine makes one dense grid from a sheet's first to its last used
//! cell, copies a repeated cell's text into every repeat and a shared string into every cell that
//! shows it, and spells out an ODS `<text:s text:c="…"/>` as that many spaces: a 2 KB file with
//! one cell in `XFD1048576`, an 878-byte ODS with one huge `text:s`, a 50 KB ODS of one repeated
//! cell or a 61 KB XLSX of one shared string in many cells would allocate gigabytes (and abort the
//! process) before any of our limits looked at it (issue 32.1). This scan streams the XML
//! (`quick-xml`, the parser calamine itself uses) and refuses, in German and naming the sheet and
//! the cell, a workbook whose cells span more than [`MAX_CELLS`] (or a sheet more than
//! [`MAX_SPAN_ROWS`] rows), a cell of more than [`MAX_CELL_CHARS`] characters, more than
//! [`MAX_TEXT_BYTES`] of text in all cells together (repeats and shared strings counted as
//! calamine copies them), a shared string table of more than [`MAX_SHARED_STRINGS`] entries, and a
//! cell reference that is no valid one (which calamine would overflow on). Besides the cells:
//! styles over [`MAX_STYLE_BYTES`], more than [`MAX_SHEETS`] sheets, names over
//! [`MAX_NAME_BYTES`], two sheets naming one part.
//!
//! The scan does not trust names or root elements (a fifth attack went past an earlier one with a
//! sheet part named `.bin`, a `<sheetData>` under another root, a wrapped `<sst>`, zero-padded
//! indexes, numbers written as character references, a nested comment, a table in a cell): every
//! part is scanned for everything calamine could build from it, numbers are read after their
//! references, and where calamine's reading is hard to follow the scan counts more (all text in a
//! cell or a shared string entry, a comment's text as its cell's). An XLSX is then built cell by
//! cell and counted as built (`super::Built`), so its bounds hold even past the scan.

use std::collections::HashMap;
use std::io::{BufRead, BufReader, Read, Seek};

use quick_xml::events::{BytesStart, Event};

use crate::league::sheet::layout::SheetError;

use super::Kind;

/// Most cells the used areas of a workbook's sheets may span together (rows × columns from each
/// sheet's first to its last used cell): 1,000,000, e.g. 100,000 rows × 10 columns; a club's
/// twenty years are about 20,000 rows × 10 columns. (A cell costs calamine and the import about
/// 100 bytes, so this alone is about 100 MB.)
pub const MAX_CELLS: u64 = 1_000_000;

/// The columns of a sheet in Excel and LibreOffice (A … XFD); calamine builds no row wider.
const EXCEL_COLUMNS: u64 = 16_384;

/// Most rows the used area of one sheet may span: the import's row limit and its header.
pub const MAX_SPAN_ROWS: u64 = crate::league::sheet::layout::MAX_ROWS as u64 + 1;

/// Most characters one cell may hold: 32,767, what Excel itself allows in a cell (a name or a
/// date needs a few dozen).
pub const MAX_CELL_CHARS: u64 = 32_767;

/// Most text the cells of a workbook may hold together, in bytes (16 MiB): each repeat of a
/// repeated cell and each cell showing a shared string counted, as calamine copies them, and each
/// text [`STRING_COST`] more for what the allocator takes for it. Twenty years of a club are
/// well under 4 MiB so counted (20,000 rows, a name in each).
pub const MAX_TEXT_BYTES: u64 = 16 * 1024 * 1024;

/// What one text of a cell costs beyond its bytes: the smallest block the allocator gives (a
/// million texts of one letter take 32 MB, not 1 MB).
pub const STRING_COST: u64 = 32;

/// Most entries an XLSX shared string table may have (or declare: calamine reserves room for
/// them first): as many as a workbook may have cells.
pub const MAX_SHARED_STRINGS: u64 = MAX_CELLS;

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

    /// The cells the area spans; refused when it is too large (German, naming the sheet).
    fn check(&self, sheet: &str) -> Result<u64, SheetError> {
        let (Some((r0, r1)), Some((c0, c1))) = (self.rows, self.cols) else {
            return Ok(0);
        };
        let rows = r1 - r0 + 1;
        let cells = rows.saturating_mul(c1 - c0 + 1);
        if rows > MAX_SPAN_ROWS || cells > MAX_CELLS {
            return Err(in_sheet(
                sheet,
                format!(
                    "die benutzten Zellen reichen über {rows} Zeilen und {} Spalten ({cells} \
                     Zellen); höchstens {MAX_SPAN_ROWS} Zeilen und {MAX_CELLS} Zellen (steht weit \
                     unten oder rechts noch etwas?)",
                    c1 - c0 + 1
                ),
            ));
        }
        Ok(cells)
    }
}

/// Most sheets a workbook may have (`<sheet>` of an XLSX workbook, `<table:table>` of an ODS):
/// 1,000; a club has one a year. calamine builds a range and names for each, and reads each
/// sheet's part again: two million empty tables took 735 MB and 12 s.
pub const MAX_SHEETS: u64 = 1_000;

/// Most what calamine keeps of a workbook's names may cost, in bytes (8 MiB): each sheet, defined
/// name, relationship and ODS style or named range as [`NAME_COST`] and its attributes' bytes.
pub const MAX_NAME_BYTES: u64 = 8 * 1024 * 1024;

/// What one sheet, name or relationship costs calamine beyond its text: its entries and strings
/// in the lists and maps it keeps (a sheet: two ranges, its name twice).
pub const NAME_COST: u64 = 512;

/// What the cells of the whole workbook take together: the cells of the sheets' areas and the
/// bytes of text, counted against [`MAX_CELLS`] and [`MAX_TEXT_BYTES`]; and the sheets and names
/// calamine keeps, against [`MAX_SHEETS`] and [`MAX_NAME_BYTES`].
#[derive(Debug, Default)]
struct Budget {
    cells: u64,
    text: u64,
    sheets: u64,
    names: u64,
}

impl Budget {
    /// Counts the element `e` of `part` (a sheet when `sheet`) as calamine keeps it; refused
    /// (German, naming the part) past [`MAX_SHEETS`] or [`MAX_NAME_BYTES`].
    fn name(&mut self, part: &str, e: &BytesStart<'_>, sheet: bool) -> Result<(), SheetError> {
        if sheet {
            self.sheets += 1;
            if self.sheets > MAX_SHEETS {
                return Err(SheetError::new(format!(
                    "{part}: die Arbeitsmappe hat über {MAX_SHEETS} Blätter; höchstens \
                     {MAX_SHEETS} (ein Verein braucht eins je Jahr)"
                )));
            }
        }
        self.names = self
            .names
            .saturating_add(NAME_COST.saturating_add(attr_bytes(e)));
        if self.names > MAX_NAME_BYTES {
            return Err(SheetError::new(format!(
                "{part}: die Arbeitsmappe hält über {} MiB an Namen, Verweisen und Blättern; \
                 höchstens {} MiB",
                MAX_NAME_BYTES / (1024 * 1024),
                MAX_NAME_BYTES / (1024 * 1024)
            )));
        }
        Ok(())
    }

    /// Adds a finished sheet's area (`sheet`'s name for the refusal).
    fn area(&mut self, sheet: &str, area: &Area) -> Result<(), SheetError> {
        self.cells = self.cells.saturating_add(area.check(sheet)?);
        if self.cells > MAX_CELLS {
            return Err(in_sheet(
                sheet,
                format!(
                    "die Blätter der Arbeitsmappe reichen zusammen über {} Zellen; höchstens \
                     {MAX_CELLS} (steht auf einem Blatt weit unten oder rechts noch etwas?)",
                    self.cells
                ),
            ));
        }
        Ok(())
    }

    /// Adds the `bytes` of text of the shared string table `part` (calamine keeps it whole).
    fn shared(&mut self, part: &str, bytes: u64) -> Result<(), SheetError> {
        self.text = self.text.saturating_add(bytes);
        if self.text > MAX_TEXT_BYTES {
            return Err(SheetError::new(format!(
                "{part}: die Tabelle der Texte hält über {} MiB Text; höchstens {} MiB",
                MAX_TEXT_BYTES / (1024 * 1024),
                MAX_TEXT_BYTES / (1024 * 1024)
            )));
        }
        Ok(())
    }

    /// Adds `bytes` of text held by the cell at `at` of `sheet`.
    fn text(&mut self, sheet: &str, at: (u64, u64), bytes: u64) -> Result<(), SheetError> {
        self.text = self.text.saturating_add(bytes);
        if self.text > MAX_TEXT_BYTES {
            return Err(in_cell(
                sheet,
                at,
                format!(
                    "die Zellen halten bis hier zusammen über {} MiB Text (Wiederholungen \
                     mitgezählt); höchstens {} MiB, eine Vereinstabelle hat weit weniger (wird \
                     eine Zelle sehr oft wiederholt?)",
                    MAX_TEXT_BYTES / (1024 * 1024),
                    MAX_TEXT_BYTES / (1024 * 1024)
                ),
            ));
        }
        Ok(())
    }
}

/// The length of a cell's text: bytes (what it costs) and characters (what it shows).
#[derive(Debug, Default, Clone, Copy)]
struct Len {
    bytes: u64,
    chars: u64,
}

impl Len {
    /// The length of `raw` text (UTF-8 bytes as in the XML; escapes counted as written, which is
    /// at least what they stand for).
    fn of(raw: &str) -> Len {
        Len {
            bytes: raw.len() as u64,
            chars: raw.chars().count() as u64,
        }
    }

    fn add(&mut self, other: Len) {
        self.bytes = self.bytes.saturating_add(other.bytes);
        self.chars = self.chars.saturating_add(other.chars);
    }

    /// What the text costs in memory once built: its bytes and [`STRING_COST`] (nothing when
    /// empty: an empty text takes no block).
    fn cost(self) -> u64 {
        if self.bytes == 0 {
            0
        } else {
            self.bytes.saturating_add(STRING_COST)
        }
    }

    /// `n` one-byte characters (spaces, tabs, line breaks).
    fn ascii(n: u64) -> Len {
        Len { bytes: n, chars: n }
    }

    /// One escape (`&amp;`, `&#x1F600;`): one character of at most four bytes.
    const REF: Len = Len { bytes: 4, chars: 1 };
}

/// Refuses a cell of more than [`MAX_CELL_CHARS`] characters (German, naming sheet and cell).
fn check_cell(sheet: &str, at: (u64, u64), len: Len) -> Result<(), SheetError> {
    if len.chars > MAX_CELL_CHARS {
        return Err(in_cell(
            sheet,
            at,
            format!(
                "über {MAX_CELL_CHARS} Zeichen in einer Zelle ({} Zeichen); so viel nimmt auch \
                 Excel nicht (ein Name oder ein Datum braucht ein paar Dutzend)",
                len.chars
            ),
        ));
    }
    Ok(())
}

/// A refusal of `sheet` (its name, or the part's file name for an unnamed one).
fn in_sheet(sheet: &str, message: String) -> SheetError {
    SheetError {
        sheet: (!sheet.is_empty()).then(|| sheet.to_string()),
        ..SheetError::new(message)
    }
}

/// A refusal of the cell at `at` (row, column; 0-based) of `sheet`.
fn in_cell(sheet: &str, at: (u64, u64), message: String) -> SheetError {
    SheetError {
        cell: Some(cell_name(at.0, at.1)),
        ..in_sheet(sheet, message)
    }
}

/// The cell at `row`, `col` (0-based) as a spreadsheet names it: (0, 1) → `B1`.
pub fn cell_name(row: u64, col: u64) -> String {
    let mut letters = Vec::new();
    let mut n = col.saturating_add(1);
    while n > 0 {
        let d = (n - 1) % 26;
        letters.push(char::from(b'A' + d as u8));
        n = (n - 1) / 26;
    }
    letters.reverse();
    let letters: String = letters.into_iter().collect();
    format!("{letters}{}", row.saturating_add(1))
}

/// Checks every sheet of the workbook `reader` of `kind` (XLSX or ODS; a CSV has nothing to
/// check). Errors: German, naming the sheet (and the cell) and what is too large or broken.
pub fn check<R: Read + Seek>(kind: Kind, reader: R) -> Result<(), SheetError> {
    let mut archive = zip::ZipArchive::new(reader).map_err(|e| broken(e.to_string()))?;
    let mut budget = Budget::default();
    match kind {
        Kind::Xlsx => xlsx(&mut archive, &mut budget),
        Kind::Ods => {
            let entry = archive
                .by_name("content.xml")
                .map_err(|e| broken(e.to_string()))?;
            ods_sheets(BufReader::new(entry), &mut budget)
        }
        Kind::Csv => Ok(()),
    }
}

fn broken(e: String) -> SheetError {
    SheetError::new(format!("keine lesbare Arbeitsmappe ({e})"))
}

/// A streaming reader of one XML part.
fn xml_of<R: BufRead>(reader: R) -> quick_xml::Reader<R> {
    let mut xml = quick_xml::Reader::from_reader(reader);
    xml.config_mut().check_end_names = false;
    xml
}

/// The local name of the root element of the XML part `name` (`worksheet`, `sst`, `workbook`,
/// …), `None` for a part that is no XML.
fn root_of<R: Read + Seek>(
    archive: &mut zip::ZipArchive<R>,
    name: &str,
) -> Result<Option<String>, SheetError> {
    let entry = archive.by_name(name).map_err(|e| broken(e.to_string()))?;
    let mut xml = xml_of(BufReader::new(entry));
    let mut buf = Vec::new();
    loop {
        match xml.read_event_into(&mut buf) {
            Ok(Event::Start(e) | Event::Empty(e)) => {
                return Ok(Some(e.local_name().as_ref().to_string()))
            }
            Ok(Event::Eof) | Err(_) => return Ok(None),
            Ok(_) => {}
        }
        buf.clear();
    }
}

/// A part's path as calamine looks it up: `/` for `\`, lower case, no leading `/`.
fn normalized(path: &str) -> String {
    path.replace('\\', "/")
        .trim_start_matches('/')
        .to_ascii_lowercase()
}

/// Every part of an XLSX workbook, whatever its name or root element: calamine finds its parts
/// through the workbook's relationships and fixed paths (a worksheet may be named `.bin`), and
/// reads a shared string table, the styles and a sheet's cells from wherever their elements sit
/// in a part (an `<sst>` wrapped in another element, a `<sheetData>` under any root). So every
/// part is scanned for all of them: its shared strings (`<si>`) into one table, its styles into
/// [`StyleCost`], and its cells after a `<sheetData>` as a sheet's, named by the workbook where it
/// names the part.
fn xlsx<R: Read + Seek>(
    archive: &mut zip::ZipArchive<R>,
    budget: &mut Budget,
) -> Result<(), SheetError> {
    let parts: Vec<String> = archive
        .file_names()
        .filter_map(|n| n.ok().map(|n| n.into_owned()))
        .filter(|n| !n.ends_with('/'))
        .collect();
    let mut workbooks = Vec::new();
    let mut strings: Vec<Len> = Vec::new();
    let mut styles = StyleCost::default();
    for part in &parts {
        if root_of(archive, part)?.as_deref() == Some("workbook") {
            workbooks.push(part.clone());
        }
        let entry = archive.by_name(part).map_err(|e| broken(e.to_string()))?;
        let table = scan_part(BufReader::new(entry), part, &mut styles, budget)?;
        if table.is_empty() {
            continue;
        }
        budget.shared(part, table.iter().map(|l| l.cost()).sum())?;
        // Several tables (only one is read): each index as long as its longest.
        for (k, len) in table.into_iter().enumerate() {
            match strings.get_mut(k) {
                Some(have) if have.bytes >= len.bytes => {}
                Some(have) => *have = len,
                None => strings.push(len),
            }
        }
    }
    let mut names = HashMap::new();
    for workbook in &workbooks {
        names.extend(sheet_names(archive, workbook)?);
    }
    for part in parts {
        let name = names
            .get(&normalized(&part))
            .cloned()
            .unwrap_or_else(|| part.clone());
        let entry = archive.by_name(&part).map_err(|e| broken(e.to_string()))?;
        xlsx_sheet(BufReader::new(entry), &name, &strings, budget)?;
    }
    Ok(())
}

/// The value of attribute `key` (qualified name as written) of `e`, if present, with its
/// character and entity references resolved as calamine resolves them (`text:c="&#50;000"` is
/// 2000: a number is read after its references, never from the raw text); a value whose
/// references do not resolve is taken as written (calamine refuses it).
fn attr(e: &BytesStart<'_>, key: &str) -> Option<String> {
    e.attributes()
        .flatten()
        .find(|a| a.key.as_ref() == key)
        .map(|a| match quick_xml::escape::unescape(&a.value) {
            Ok(v) => v.into_owned(),
            Err(_) => a.value.into_owned(),
        })
}

/// The sheets' names of the workbook part `workbook` by the normalized path of their worksheet
/// part (through the workbook's relationships, `_rels/<name>.rels` beside it); what cannot be
/// read is left out (the sheet is then named by its part).
fn sheet_names<R: Read + Seek>(
    archive: &mut zip::ZipArchive<R>,
    workbook: &str,
) -> Result<HashMap<String, String>, SheetError> {
    let path = workbook.replace('\\', "/");
    let (dir, file) = match path.rfind('/') {
        Some(k) => (&path[..=k], &path[k + 1..]),
        None => ("", path.as_str()),
    };
    let rels_path = normalized(&format!("{dir}_rels/{file}.rels"));
    let Some(rels_name) = archive
        .file_names()
        .filter_map(|n| n.ok().map(|n| n.into_owned()))
        .find(|n| normalized(n) == rels_path)
    else {
        return Ok(HashMap::new());
    };
    let mut targets = HashMap::new();
    {
        let entry = archive
            .by_name(&rels_name)
            .map_err(|e| broken(e.to_string()))?;
        let mut xml = xml_of(BufReader::new(entry));
        let mut buf = Vec::new();
        loop {
            match xml.read_event_into(&mut buf) {
                Ok(Event::Start(e) | Event::Empty(e))
                    if e.local_name().as_ref() == "Relationship" =>
                {
                    if let (Some(id), Some(target)) = (attr(&e, "Id"), attr(&e, "Target")) {
                        let full = if target.starts_with('/') {
                            normalized(&target)
                        } else {
                            normalized(&format!("{dir}{target}"))
                        };
                        targets.insert(id, full);
                    }
                }
                Ok(Event::Eof) | Err(_) => break,
                Ok(_) => {}
            }
            buf.clear();
        }
    }
    let mut names = HashMap::new();
    let entry = archive
        .by_name(workbook)
        .map_err(|e| broken(e.to_string()))?;
    let mut xml = xml_of(BufReader::new(entry));
    let mut buf = Vec::new();
    loop {
        match xml.read_event_into(&mut buf) {
            Ok(Event::Start(e) | Event::Empty(e)) if e.local_name().as_ref() == "sheet" => {
                let id = e
                    .attributes()
                    .flatten()
                    .find(|a| a.key.local_name().as_ref() == "id")
                    .map(|a| a.value.into_owned());
                if let (Some(name), Some(target)) =
                    (attr(&e, "name"), id.and_then(|id| targets.get(&id)))
                {
                    // calamine reads a sheet's part once for each sheet that names it: two
                    // thousand sheets of one large part would take minutes.
                    if let Some(other) = names.insert(target.clone(), name.clone()) {
                        return Err(SheetError::new(format!(
                            "{workbook}: die Blätter „{other}“ und „{name}“ zeigen auf \
                             denselben Teil {target}; jedes Blatt hat seinen eigenen"
                        )));
                    }
                }
            }
            Ok(Event::Eof) | Err(_) => break,
            Ok(_) => {}
        }
        buf.clear();
    }
    Ok(names)
}

/// What the styles of a workbook cost calamine, which builds every `<xf>` of the styles part
/// into a full style with a copy of its font, fill, border and number format: the `<xf>`s
/// counted, and the largest and the sum of the fonts, fills, borders and number formats (their
/// attributes' and text's bytes), over every part (calamine reads one; counting all is more).
#[derive(Debug, Default)]
pub struct StyleCost {
    xfs: u64,
    largest: [u64; 4],
    sum: u64,
}

/// Most the styles of a workbook may cost calamine, in bytes (16 MiB): each cell format (`<xf>`)
/// as [`XF_COST`] and a copy of the largest font, fill, border and number format. A club's
/// workbook has a few dozen cell formats (Excel allows 64,000); a styles part that costs more is
/// no club's.
pub const MAX_STYLE_BYTES: u64 = 16 * 1024 * 1024;

/// What one cell format (`<xf>`) costs calamine before the copies it holds: the style it builds
/// and its format entry.
pub const XF_COST: u64 = std::mem::size_of::<calamine::Style>() as u64 + 16;

impl StyleCost {
    /// The style elements whose copies a cell format holds (font, fill, border, number format):
    /// their index in [`StyleCost::largest`].
    fn kind(local: &str) -> Option<usize> {
        match local {
            "font" => Some(0),
            "fill" => Some(1),
            "border" => Some(2),
            "numFmt" => Some(3),
            _ => None,
        }
    }

    /// The bytes so far (saturating).
    fn total(&self) -> u64 {
        let each = self
            .largest
            .iter()
            .fold(XF_COST, |sum, n| sum.saturating_add(*n));
        self.xfs.saturating_mul(each).saturating_add(self.sum)
    }

    /// Refuses (German, naming `part`) styles over [`MAX_STYLE_BYTES`].
    fn check(&self, part: &str) -> Result<(), SheetError> {
        let total = self.total();
        if total > MAX_STYLE_BYTES {
            return Err(SheetError::new(format!(
                "{part}: die Formatvorlagen (Zellformate, Schriften) kosten beim Lesen über {} \
                 MiB ({} Zellformate); höchstens {} MiB, eine Vereinstabelle braucht ein paar \
                 Dutzend Formate",
                total / (1024 * 1024),
                self.xfs,
                MAX_STYLE_BYTES / (1024 * 1024)
            )));
        }
        Ok(())
    }
}

/// The bytes an element's attributes hold once read (each value, and [`STRING_COST`] for it).
fn attr_bytes(e: &BytesStart<'_>) -> u64 {
    e.attributes().flatten().fold(0u64, |sum, a| {
        sum.saturating_add(a.value.len() as u64 + STRING_COST)
    })
}

/// One part of an XLSX workbook, whatever it is: the length of every shared string entry
/// (`<si>`, wherever it sits) as the table calamine builds from it (`part` names it in a refusal),
/// refused when an `<sst>` declares (`uniqueCount`, for which calamine reserves room first) or the
/// part has more than [`MAX_SHARED_STRINGS`] entries; and its style elements counted into
/// `styles`, refused past [`MAX_STYLE_BYTES`]. A part that is no XML (a picture) ends where it
/// stops being XML, with what was counted so far (calamine stops there too).
fn scan_part<R: BufRead>(
    reader: R,
    part: &str,
    styles: &mut StyleCost,
    budget: &mut Budget,
) -> Result<Vec<Len>, SheetError> {
    let too_many = |n: u64, declared: bool| {
        let has = if declared { "gibt an, sie habe" } else { "hat" };
        SheetError::new(format!(
            "{part}: die Tabelle der Texte {has} {n} Einträge; höchstens {MAX_SHARED_STRINGS}"
        ))
    };
    let mut xml = xml_of(reader);
    let mut buf = Vec::new();
    let mut out: Vec<Len> = Vec::new();
    let mut in_si = false;
    // The style element being read (its kind, depth and bytes so far).
    let mut style: Option<(usize, u32, u64)> = None;
    while let Ok(event) = xml.read_event_into(&mut buf) {
        match &event {
            Event::Start(e) | Event::Empty(e) => {
                let empty = matches!(event, Event::Empty(_));
                let local = e.local_name();
                if let Some((_, depth, bytes)) = style.as_mut() {
                    *bytes = bytes.saturating_add(attr_bytes(e));
                    if !empty {
                        *depth += 1;
                    }
                } else if let Some(kind) = StyleCost::kind(local.as_ref()) {
                    if empty {
                        styles.sum = styles.sum.saturating_add(attr_bytes(e) + STRING_COST);
                        styles.largest[kind] = styles.largest[kind].max(attr_bytes(e));
                        styles.check(part)?;
                    } else {
                        style = Some((kind, 1, attr_bytes(e)));
                    }
                } else if local.as_ref() == "xf" {
                    styles.xfs += 1;
                    styles.check(part)?;
                }
                // What calamine keeps of the workbook and its relationships.
                match local.as_ref() {
                    "sheet" => budget.name(part, e, true)?,
                    "definedName" | "Relationship" => budget.name(part, e, false)?,
                    _ => {}
                }
                match e.local_name().as_ref() {
                    "sst" => {
                        let declared = attr(e, "uniqueCount").and_then(|n| n.trim().parse().ok());
                        if let Some(n) = declared.filter(|n: &u64| *n > MAX_SHARED_STRINGS) {
                            return Err(too_many(n, true));
                        }
                    }
                    "si" => {
                        out.push(Len::default());
                        if out.len() as u64 > MAX_SHARED_STRINGS {
                            return Err(too_many(out.len() as u64, false));
                        }
                        in_si = !empty;
                    }
                    _ => {}
                }
            }
            Event::End(e) => {
                if let Some((kind, depth, bytes)) = style.as_mut() {
                    *depth -= 1;
                    if *depth == 0 {
                        styles.sum = styles.sum.saturating_add(*bytes + STRING_COST);
                        styles.largest[*kind] = styles.largest[*kind].max(*bytes);
                        style = None;
                        styles.check(part)?;
                    }
                }
                if e.local_name().as_ref() == "si" {
                    in_si = false;
                }
            }
            Event::Text(t) if style.is_some() => {
                if let Some((_, _, bytes)) = style.as_mut() {
                    *bytes = bytes.saturating_add(t.len() as u64);
                }
            }
            // All text inside an entry, in a `<t>` or not, phonetic runs too: calamine builds
            // the entry from its runs; counting more can only refuse more.
            Event::Text(t) if in_si => {
                if let Some(last) = out.last_mut() {
                    last.add(Len::of(t.as_ref()));
                }
            }
            Event::CData(t) if in_si => {
                if let Some(last) = out.last_mut() {
                    last.add(Len::of(t.as_ref()));
                }
            }
            Event::GeneralRef(_) if in_si => {
                if let Some(last) = out.last_mut() {
                    last.add(Len::REF);
                }
            }
            Event::Eof => break,
            _ => {}
        }
        buf.clear();
    }
    Ok(out)
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

/// The XLSX cell being read: where, its type (`t`), which child it is in and its text so far.
#[derive(Debug, Default)]
struct XlsxCell {
    at: (u64, u64),
    kind: String,
    in_value: bool,
    phonetic: bool,
    /// The digits of a shared string's index (`<v>` of a `t="s"` cell).
    index: String,
    len: Len,
}

impl XlsxCell {
    /// Whether the text now read is a shared string's index (`<v>`, no phonetic run). Every
    /// text of the cell counts into its length (an inline string's `<t>`, a formula's string
    /// result, an error's text as calamine keeps them; a phonetic run, a formula too: more
    /// can only refuse more).
    fn counts(&self) -> bool {
        self.in_value && !self.phonetic
    }
}

/// One part of an XLSX workbook read as the worksheet `name`, as calamine reads a worksheet
/// whatever its root element: from its first `<sheetData>` on (a part without one has no cells
/// and a part that is no XML before it is skipped), each `<c r="…">` (and `<row r="…">`) taken
/// into its area, each cell's text (a shared string's as in `strings`) checked and counted into
/// `budget`. A shared string index that is no entry of the table (not a number, out of range)
/// counts as the longest entry.
fn xlsx_sheet<R: BufRead>(
    reader: R,
    name: &str,
    strings: &[Len],
    budget: &mut Budget,
) -> Result<(), SheetError> {
    let mut xml = xml_of(reader);
    let mut buf = Vec::new();
    let mut area = Area::default();
    let (mut row, mut col, mut next_row) = (0u64, 0u64, 0u64);
    let mut cell: Option<XlsxCell> = None;
    let mut in_data = false;
    let longest = strings
        .iter()
        .copied()
        .max_by_key(|l| l.bytes)
        .unwrap_or_default();
    loop {
        let event = match xml.read_event_into(&mut buf) {
            Ok(event) => event,
            Err(e) if in_data => return Err(in_sheet(name, format!("kein lesbares XML ({e})"))),
            Err(_) => break,
        };
        if !in_data {
            match &event {
                Event::Start(e) | Event::Empty(e) => {
                    in_data = e.local_name().as_ref() == "sheetData";
                }
                Event::Eof => break,
                _ => {}
            }
            buf.clear();
            continue;
        }
        match &event {
            Event::Start(e) | Event::Empty(e) => {
                let empty = matches!(event, Event::Empty(_));
                match e.local_name().as_ref() {
                    "row" => {
                        row = match attr(e, "r") {
                            Some(r) => r
                                .parse::<u64>()
                                .ok()
                                .filter(|r| (1..=1_048_576).contains(r))
                                .map(|r| r - 1)
                                .ok_or_else(|| {
                                    in_sheet(name, format!("Zeile „{r}“ gibt es nicht"))
                                })?,
                            None => next_row,
                        };
                        next_row = row.saturating_add(1);
                        col = 0;
                    }
                    "c" => {
                        if let Some(r) = attr(e, "r") {
                            let (r, c) = cell_ref(&r).ok_or_else(|| {
                                in_sheet(name, format!("Zelle „{r}“ gibt es nicht"))
                            })?;
                            row = r;
                            col = c;
                        }
                        area.take(row, 1, col, 1);
                        let at = (row, col);
                        col += 1;
                        if !empty {
                            cell = Some(XlsxCell {
                                at,
                                kind: attr(e, "t").unwrap_or_default(),
                                ..XlsxCell::default()
                            });
                        }
                    }
                    "v" | "t" if !empty => {
                        if let Some(c) = cell.as_mut() {
                            c.in_value = true;
                        }
                    }
                    "rPh" if !empty => {
                        if let Some(c) = cell.as_mut() {
                            c.phonetic = true;
                        }
                    }
                    _ => {}
                }
            }
            Event::End(e) => match e.local_name().as_ref() {
                "v" | "t" => {
                    if let Some(c) = cell.as_mut() {
                        c.in_value = false;
                    }
                }
                "rPh" => {
                    if let Some(c) = cell.as_mut() {
                        c.phonetic = false;
                    }
                }
                "c" => {
                    if let Some(c) = cell.take() {
                        let len = match c.kind.as_str() {
                            "s" => c
                                .index
                                .trim()
                                .parse::<usize>()
                                .ok()
                                .and_then(|k| strings.get(k).copied())
                                .unwrap_or(longest),
                            "inlineStr" | "str" | "e" | "d" => c.len,
                            _ => Len::default(),
                        };
                        // All text written in the cell (a number's digits, a formula) is read
                        // into memory by calamine, whatever it keeps of it.
                        check_cell(name, c.at, c.len)?;
                        check_cell(name, c.at, len)?;
                        budget.text(name, c.at, len.cost())?;
                    }
                }
                _ => {}
            },
            Event::Text(t) => {
                if let Some(c) = cell.as_mut() {
                    if c.kind == "s" && c.counts() {
                        // An index longer than any number (zero-padded) stays unreadable: the
                        // longest entry.
                        if c.index.len() < 64 {
                            c.index.push_str(t.as_ref());
                        } else {
                            c.index = "x".repeat(64);
                        }
                    } else {
                        c.len.add(Len::of(t.as_ref()));
                    }
                }
            }
            Event::CData(t) => {
                if let Some(c) = cell.as_mut() {
                    c.len.add(Len::of(t.as_ref()));
                }
            }
            Event::GeneralRef(_) => {
                if let Some(c) = cell.as_mut() {
                    c.len.add(Len::REF);
                }
            }
            Event::Eof => break,
            _ => {}
        }
        buf.clear();
    }
    budget.area(name, &area)
}

/// The repeat count of `e` in attribute `key` (1 when absent or unreadable).
fn repeated(e: &BytesStart<'_>, key: &str) -> u64 {
    attr(e, key)
        .and_then(|n| n.parse::<u64>().ok())
        .unwrap_or(1)
        .max(1)
}

/// The ODS cell being read: its column and repeat, the text it holds as calamine builds it, and
/// whether its content is that text (a string cell without `office:string-value`).
#[derive(Debug, Default)]
struct OdsCell {
    col: u64,
    cols: u64,
    /// The value's text as calamine keeps it (from an attribute or the content).
    value: Len,
    /// The formula's text (calamine keeps every cell's formula too).
    formula: Len,
    reads_content: bool,
    /// calamine keeps the cell (a value, a string, a formula): its row is built from column A
    /// up to it.
    materialized: bool,
    paragraphs: u64,
}

impl OdsCell {
    /// A cell from its start tag, deciding what calamine reads as its value the way calamine does
    /// (the first of `office:value`, `office:string-value`/`date-value`/`time-value`,
    /// `office:boolean-value` wins; the content only for a string without a string value, or an
    /// error whose string value is empty).
    fn of(e: &BytesStart<'_>, col: u64, cols: u64) -> OdsCell {
        let mut cell = OdsCell {
            col,
            cols,
            ..OdsCell::default()
        };
        let (mut is_string, mut is_error, mut set) = (false, false, false);
        let mut empty_string_value = false;
        for a in e.attributes().flatten() {
            match a.key.as_ref() {
                "office:value" | "office:boolean-value" if !set => set = true,
                "office:string-value" | "office:date-value" | "office:time-value" if !set => {
                    set = true;
                    cell.value = Len::of(&a.value);
                    empty_string_value =
                        a.key.as_ref() == "office:string-value" && a.value.is_empty();
                }
                "office:value-type" if !set => is_string = a.value.as_ref() == "string",
                "calcext:value-type" => is_error = a.value.as_ref() == "error",
                "table:formula" => cell.formula = Len::of(&a.value),
                _ => {}
            }
        }
        cell.reads_content = (!set && is_string) || (is_error && empty_string_value);
        cell.materialized = set || is_string || cell.formula.bytes > 0;
        cell
    }

    /// Whether text now read belongs to the value: all text inside a cell whose content is its
    /// value, a comment's (`office:annotation`) too. calamine skips a comment only up to the
    /// first `</office:annotation>`, so text after a nested one is built into the cell; counting
    /// every comment's text as the cell's can only refuse more, never build more.
    fn counts(&self) -> bool {
        self.reads_content
    }
}

/// Every `<table:table>` of an ODS `content.xml`: rows and cells with their repeat counts; only
/// cells with a value, a formula or content widen the area (LibreOffice writes the empty rest of a
/// sheet as huge repeats of empty cells, which calamine skips). calamine first builds each row
/// element from column A to its last such cell (before it trims the sheet to its area), so those
/// widths are summed too, at most [`MAX_CELLS`] a sheet. Each cell's text is measured as calamine
/// builds it (`<text:s text:c="n"/>` as n spaces, a tab, a line break, a paragraph's line end)
/// and counted into `budget` once per repeat.
fn ods_sheets<R: BufRead>(reader: R, budget: &mut Budget) -> Result<(), SheetError> {
    let mut xml = xml_of(reader);
    let mut buf = Vec::new();
    let mut area = Area::default();
    let mut sheet = String::new();
    let mut in_table = false;
    let (mut row, mut row_repeat, mut col) = (0u64, 0u64, 0u64);
    let mut cell: Option<OdsCell> = None;
    // The cells calamine builds for the sheet's row elements (from column A), the width of the
    // row element being read, and its last kept cell (for the refusal).
    let (mut built, mut width, mut last) = (0u64, 0u64, (0u64, 0u64));
    // The end of a cell: its text checked and counted once per repeat.
    let finish = |cell: OdsCell,
                  sheet: &str,
                  row: u64,
                  row_repeat: u64,
                  budget: &mut Budget|
     -> Result<(), SheetError> {
        let at = (row, cell.col);
        check_cell(sheet, at, cell.value)?;
        let each = cell.value.cost().saturating_add(cell.formula.cost());
        let copies = cell.cols.saturating_mul(row_repeat.max(1));
        budget.text(sheet, at, each.saturating_mul(copies))
    };
    loop {
        let event = xml
            .read_event_into(&mut buf)
            .map_err(|e| SheetError::new(format!("content.xml: kein lesbares XML ({e})")))?;
        match &event {
            Event::Start(e) | Event::Empty(e) => {
                let empty = matches!(event, Event::Empty(_));
                match e.name().as_ref() {
                    "table:table" if in_table => {
                        // A table inside a table (or inside a cell): no spreadsheet program
                        // writes one, and it must not start a new area while the outer one is
                        // being built.
                        let at = cell.as_ref().map_or((row, col), |c| (row, c.col));
                        return Err(in_cell(
                            &sheet,
                            at,
                            "eine Tabelle in der Tabelle (oder in einer Zelle); so etwas \
                             schreibt kein Tabellenprogramm, bitte die Datei aus LibreOffice \
                             oder Excel neu speichern"
                                .to_string(),
                        ));
                    }
                    "table:table" => {
                        budget.name("content.xml", e, true)?;
                        // What came before, outside any table, counted as its own area.
                        budget.area(&sheet, &area)?;
                        in_table = !empty;
                        area = Area::default();
                        sheet = attr(e, "table:name").unwrap_or_default();
                        row = 0;
                        row_repeat = 0;
                        built = 0;
                    }
                    "style:style" | "table:named-range" | "table:named-expression" => {
                        budget.name("content.xml", e, false)?;
                    }
                    "table:table-row" => {
                        row = row.saturating_add(row_repeat);
                        row_repeat = repeated(e, "table:number-rows-repeated");
                        col = 0;
                        width = 0;
                    }
                    "table:table-cell" | "table:covered-table-cell" => {
                        let cols = repeated(e, "table:number-columns-repeated");
                        let c = OdsCell::of(e, col, cols);
                        if c.materialized || attr(e, "office:value-type").is_some() {
                            area.take(row, row_repeat, col, cols);
                        }
                        if c.materialized {
                            width = col.saturating_add(cols).min(EXCEL_COLUMNS);
                            last = (row, col);
                        }
                        if empty {
                            finish(c, &sheet, row, row_repeat, budget)?;
                        } else {
                            cell = Some(c);
                        }
                        col = col.saturating_add(cols);
                    }
                    name => {
                        if let Some(c) = cell.as_mut() {
                            // Text inside a cell: the cell (and its repeats) hold something.
                            area.take(row, row_repeat, c.col, c.cols);
                            match name {
                                _ if !c.counts() => {}
                                "text:p" => {
                                    c.paragraphs += 1;
                                    if c.paragraphs > 1 {
                                        c.value.add(Len::ascii(1));
                                    }
                                }
                                "text:s" => {
                                    let n = attr(e, "text:c")
                                        .and_then(|n| n.trim().parse::<u64>().ok())
                                        .unwrap_or(1);
                                    c.value.add(Len::ascii(n));
                                }
                                "text:tab" | "text:line-break" => c.value.add(Len::ascii(1)),
                                _ => {}
                            }
                        }
                    }
                }
                area.check(&sheet)?;
            }
            Event::Text(t) => {
                if let Some(c) = cell.as_mut() {
                    if !t.as_ref().trim().is_empty() {
                        area.take(row, row_repeat, c.col, c.cols);
                        area.check(&sheet)?;
                    }
                    if c.counts() {
                        c.value.add(Len::of(t.as_ref()));
                    }
                }
            }
            Event::GeneralRef(_) => {
                if let Some(c) = cell.as_mut().filter(|c| c.counts()) {
                    c.value.add(Len::REF);
                }
            }
            Event::End(e) => match e.name().as_ref() {
                // The end of the table being read (one inside a cell is no end of it: calamine
                // reads a cell to its own end).
                "table:table" if in_table && cell.is_none() => {
                    budget.area(&sheet, &area)?;
                    in_table = false;
                    area = Area::default();
                }
                "table:table-cell" | "table:covered-table-cell" => {
                    if let Some(c) = cell.take() {
                        finish(c, &sheet, row, row_repeat, budget)?;
                    }
                }
                "table:table-row" => {
                    built = built.saturating_add(width);
                    width = 0;
                    if built > MAX_CELLS {
                        return Err(in_cell(
                            &sheet,
                            last,
                            format!(
                                "die Zeilen des Blatts halten bis hier über {MAX_CELLS} Zellen, \
                                 jede von Spalte A an gezählt (steht in vielen Zeilen etwas weit \
                                 rechts?); höchstens {MAX_CELLS}"
                            ),
                        ));
                    }
                }
                _ => {}
            },
            Event::Eof => break,
            _ => {}
        }
        buf.clear();
    }
    // What is left (a table without its end, or rows outside any table) counted too.
    budget.area(&sheet, &area)?;
    Ok(())
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
        assert!(e.contains("Blatt „2025“"), "{e}");
    }

    #[test]
    fn an_area_too_wide_or_too_long_is_refused() {
        let mut a = Area::default();
        a.take(0, 1, 0, 10);
        a.take(19_999, 1, 0, 1);
        assert!(a.check("2026").is_ok());
        a.take(1_048_575, 1, 16_383, 1);
        let e = a.check("2026").unwrap_err().to_string();
        assert!(e.contains("Blatt „2026“"), "{e}");
        let mut long = Area::default();
        long.take(0, MAX_SPAN_ROWS + 1, 0, 1);
        assert!(long.check("x").is_err());
    }
}
