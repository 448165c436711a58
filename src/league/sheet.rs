//! The club's spreadsheet (interchange.md "Spreadsheet of night totals", issue 24.2–24.4): the
//! cells of its sheets turned into season files and back. Two layouts, told apart by their
//! headers (docs/tabelle.md): the **night totals** (one row per player and night: `Datum`,
//! `Spieler`, `Runden`, `Outs`, …) and the **Endstand** (one row per player and season:
//! `Spieler`, `Runden`, `Outs gewertet`, `Liga` or `Beitrag bezahlt`, …). Reading the bytes of a
//! CSV, XLSX or ODS file into [`Sheet`]s is `crate::sheet`; this module is pure.
//!
//! All or nothing: the first invalid row is refused with its line (the file's line, the header is
//! line 1), its column and why, and no season comes back. The seasons then pass
//! `Season::from_file` (the one check), whose refusals are named by line and column too.

use std::collections::{BTreeMap, HashMap};
use std::fmt;

use chrono::{Datelike, NaiveDate};
use serde::Serialize;

use crate::league::model::error::EntryError;
use crate::league::model::file::{
    EndstandEntry, NightEntry, PlayerEntry, SeasonFile, TotalsEntry, FORMAT,
};
use crate::league::model::format::date_de;
use crate::league::model::names::{check_name_chars, name_key, normalize_name};
use crate::league::model::rules::Liga;
use crate::league::model::rules::SeasonRules;
use crate::league::model::season::Season;

/// Most data rows one import reads, all sheets together. A club's season is about 50 nights ×
/// 20 players = 1,000 rows; 100,000 rows hold a century of such seasons, and parsing and
/// checking them stays within seconds and tens of MiB (BENCHMARKS.md), while a hostile file
/// cannot make the server work for minutes.
pub const MAX_ROWS: usize = 100_000;
/// Most seasons one import brings (a workbook of year sheets, an Endstand over many years): 50
/// years of history in one go; more is refused rather than half read.
pub const MAX_SEASONS: usize = 50;
/// Most columns of a sheet that are looked at (a spreadsheet has a few dozen at most).
pub const MAX_COLUMNS: usize = 64;

/// One cell of a sheet as read from the file.
#[derive(Debug, Clone, PartialEq)]
pub enum Cell {
    /// Nothing in it.
    Empty,
    /// Text (CSV cells are always text).
    Text(String),
    /// A number cell of a workbook.
    Number(f64),
    /// A date cell of a workbook.
    Date(NaiveDate),
}

impl Cell {
    fn is_empty(&self) -> bool {
        match self {
            Cell::Empty => true,
            Cell::Text(t) => t.trim().is_empty(),
            _ => false,
        }
    }

    fn text(&self) -> String {
        match self {
            Cell::Empty => String::new(),
            // A `'` that an export put before `=`, `+`, `-` or `@` (so a spreadsheet shows the
            // text instead of running it) is not part of the text.
            Cell::Text(t) => {
                let t = t.trim();
                match t.strip_prefix('\'') {
                    Some(rest) if rest.starts_with(['=', '+', '-', '@']) => rest.to_string(),
                    _ => t.to_string(),
                }
            }
            Cell::Number(n) => {
                if n.fract() == 0.0 && n.abs() < 1e15 {
                    format!("{}", *n as i64)
                } else {
                    format!("{n}")
                }
            }
            Cell::Date(d) => date_de(*d),
        }
    }
}

/// One row of a sheet: its line (1-based, as the spreadsheet program shows it) and its cells.
#[derive(Debug, Clone, PartialEq)]
pub struct SheetRow {
    /// The row's line in the file or sheet (the header is normally line 1).
    pub line: usize,
    /// Its cells, left to right.
    pub cells: Vec<Cell>,
}

/// One sheet of a workbook (a CSV file is one sheet without a name).
#[derive(Debug, Clone, PartialEq)]
pub struct Sheet {
    /// The sheet's name in the workbook; empty for a CSV file.
    pub name: String,
    /// Its rows in order, empty rows left out; the first is the header.
    pub rows: Vec<SheetRow>,
}

/// A refused sheet: where (sheet, line, column; or sheet and cell) and why, in German. Display:
/// „Blatt „2007“, Zeile 17, Spalte „Outs“: 31 Outs in 10 Runden: …“, „Blatt „2026“, Zelle B1: …“
/// (known parts only).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{}", self.render())]
pub struct SheetError {
    /// The sheet's name, for a workbook of several sheets.
    pub sheet: Option<String>,
    /// The line (the header is line 1).
    pub line: Option<usize>,
    /// The column's header as written in the file (or its name when the column is missing).
    pub column: Option<String>,
    /// The cell as a spreadsheet names it (`B1`), where a workbook is refused before its rows
    /// are read (`crate::sheet`'s bounds).
    pub cell: Option<String>,
    /// Why, in German.
    pub message: String,
}

impl SheetError {
    /// A refusal without a location.
    pub fn new(message: impl Into<String>) -> SheetError {
        SheetError {
            sheet: None,
            line: None,
            column: None,
            cell: None,
            message: message.into(),
        }
    }

    fn at(
        sheet: &Sheet,
        line: Option<usize>,
        column: Option<&str>,
        why: impl Into<String>,
    ) -> Self {
        SheetError {
            sheet: (!sheet.name.is_empty()).then(|| sheet.name.clone()),
            line,
            column: column.map(str::to_string),
            cell: None,
            message: why.into(),
        }
    }

    fn render(&self) -> String {
        let mut parts = Vec::new();
        if let Some(s) = &self.sheet {
            parts.push(format!("Blatt „{s}“"));
        }
        if let Some(l) = self.line {
            parts.push(format!("Zeile {l}"));
        }
        if let Some(c) = &self.column {
            parts.push(format!("Spalte „{c}“"));
        }
        if let Some(c) = &self.cell {
            parts.push(format!("Zelle {c}"));
        }
        if parts.is_empty() {
            self.message.clone()
        } else {
            format!("{}: {}", parts.join(", "), self.message)
        }
    }
}

/// A column of the two layouts (docs/tabelle.md), by its header as the spec writes it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
pub enum Column {
    /// `Datum`: the night (night totals).
    Datum,
    /// `Spieler`: the player's name.
    Spieler,
    /// `Runden`: rounds played (that night, or in the season).
    Runden,
    /// `Outs`: Schock Outs thrown, Hand-Outs included.
    Outs,
    /// `Hand-Outs`: of those, from the hand.
    HandOuts,
    /// `Julen`: Julen thrown.
    Julen,
    /// `Outs gewertet`: counted Outs (night: without Julen; Endstand: with them).
    OutsGewertet,
    /// `verloren`: rounds lost.
    Verloren,
    /// `Tisch`: the table that night.
    Tisch,
    /// `Beitrag bezahlt am`: the Jahresbeitrag's payment date (night totals).
    BeitragBezahltAm,
    /// `Saison`: the season's year (Endstand).
    Saison,
    /// `Liga`: the Liga in the final table (Endstand).
    Liga,
    /// `Beitrag bezahlt`: ja/nein (Endstand, when no Liga is given).
    BeitragBezahlt,
    /// `bezahlte Runden`: rounds paid (Endstand).
    BezahlteRunden,
    /// `Platz`: the rank in the final table (Endstand; read and recomputed).
    Platz,
}

impl Column {
    /// Every column, in the order of the spec's tables.
    pub const ALL: [Column; 15] = [
        Column::Datum,
        Column::Spieler,
        Column::Runden,
        Column::Outs,
        Column::HandOuts,
        Column::Julen,
        Column::OutsGewertet,
        Column::Verloren,
        Column::Tisch,
        Column::BeitragBezahltAm,
        Column::Saison,
        Column::Liga,
        Column::BeitragBezahlt,
        Column::BezahlteRunden,
        Column::Platz,
    ];

    /// The header as the spec writes it, e.g. "Hand-Outs".
    pub fn label(self) -> &'static str {
        match self {
            Column::Datum => "Datum",
            Column::Spieler => "Spieler",
            Column::Runden => "Runden",
            Column::Outs => "Outs",
            Column::HandOuts => "Hand-Outs",
            Column::Julen => "Julen",
            Column::OutsGewertet => "Outs gewertet",
            Column::Verloren => "verloren",
            Column::Tisch => "Tisch",
            Column::BeitragBezahltAm => "Beitrag bezahlt am",
            Column::Saison => "Saison",
            Column::Liga => "Liga",
            Column::BeitragBezahlt => "Beitrag bezahlt",
            Column::BezahlteRunden => "bezahlte Runden",
            Column::Platz => "Platz",
        }
    }

    /// The headers people type for it, as [`header_key`]s.
    fn variants(self) -> &'static [&'static str] {
        match self {
            Column::Datum => &[
                "datum",
                "datumdesabends",
                "abend",
                "spielabend",
                "abenddatum",
                "tag",
                "date",
            ],
            Column::Spieler => &["spieler", "name", "spielername", "player"],
            Column::Runden => &[
                "runden",
                "gespielterunden",
                "rundengespielt",
                "anzahlrunden",
                "rd",
                "rounds",
            ],
            Column::Outs => &["outs", "schockouts", "schockout", "out", "geworfeneouts"],
            Column::HandOuts => &["handouts", "handout", "outsausderhand"],
            Column::Julen => &["julen", "jule"],
            Column::OutsGewertet => &[
                "outsgewertet",
                "gewerteteouts",
                "gewertet",
                "gewerteteoutsohnejulen",
            ],
            Column::Verloren => &[
                "verloren",
                "verlorenerunden",
                "rundenverloren",
                "verl",
                "lost",
            ],
            Column::Tisch => &["tisch", "tischnr", "tischnummer"],
            Column::BeitragBezahltAm => &[
                "beitragbezahltam",
                "jahresbeitragbezahltam",
                "bezahltam",
                "beitragsdatum",
                "beitragam",
            ],
            Column::Saison => &["saison", "jahr", "season"],
            Column::Liga => &["liga"],
            Column::BeitragBezahlt => &["beitragbezahlt", "jahresbeitragbezahlt", "beitrag"],
            Column::BezahlteRunden => &[
                "bezahlterunden",
                "rundenbezahlt",
                "gezahlterunden",
                "bezahlt",
            ],
            Column::Platz => &["platz", "rang", "pl"],
        }
    }
}

/// A header reduced for comparison: lower case, without spaces, `-`, `_`, `.`, `:`, `/` and
/// a trailing `(…)` (so `Hand Outs`, `Hand-Outs` and `handouts` are one key).
pub fn header_key(header: &str) -> String {
    let base = match header.find('(') {
        Some(k) if header.trim_end().ends_with(')') => &header[..k],
        _ => header,
    };
    base.chars()
        .filter(|c| !c.is_whitespace() && !matches!(c, '-' | '_' | '.' | ':' | '/' | '\u{feff}'))
        .flat_map(char::to_lowercase)
        .collect()
}

/// The column a header names, if any (case and spaces ignored, the usual variants accepted).
pub fn column_of(header: &str) -> Option<Column> {
    let key = header_key(header);
    Column::ALL
        .into_iter()
        .find(|c| c.variants().contains(&key.as_str()))
}

/// Which layout a sheet has.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum Layout {
    /// One row per player and night (interchange.md "Spreadsheet of night totals").
    Nights,
    /// One row per player and season: the final table only (issue 24.3).
    Endstand,
}

const NIGHT_COLUMNS: [Column; 10] = [
    Column::Datum,
    Column::Spieler,
    Column::Runden,
    Column::Outs,
    Column::HandOuts,
    Column::Julen,
    Column::OutsGewertet,
    Column::Verloren,
    Column::Tisch,
    Column::BeitragBezahltAm,
];
const NIGHT_REQUIRED: [Column; 4] = [Column::Datum, Column::Spieler, Column::Runden, Column::Outs];
const ENDSTAND_COLUMNS: [Column; 11] = [
    Column::Saison,
    Column::Spieler,
    Column::Liga,
    Column::BeitragBezahlt,
    Column::Runden,
    Column::OutsGewertet,
    Column::BezahlteRunden,
    Column::Verloren,
    Column::Outs,
    Column::HandOuts,
    Column::Julen,
];
const ENDSTAND_REQUIRED: [Column; 3] = [Column::Spieler, Column::Runden, Column::OutsGewertet];
/// Columns of the other layout that a sheet computes (issue 31.9): read from neither, named as
/// skipped.
const NIGHT_IGNORED: [Column; 2] = [Column::Platz, Column::Liga];
const ENDSTAND_IGNORED: [Column; 1] = [Column::Platz];

/// One season read from a sheet: the season file, the checked season, and its rows as
/// understood (for the preview).
#[derive(Debug, Clone, PartialEq)]
pub struct SheetSeason {
    /// The sheet it came from (empty for a CSV file).
    pub sheet: String,
    /// Its layout.
    pub layout: Layout,
    /// The season file built from the rows (default rules of the year).
    pub file: SeasonFile,
    /// The checked season (`Season::from_file` of `file`).
    pub season: Season,
    /// The columns of `rows`, by their spec names.
    pub columns: Vec<&'static str>,
    /// Every data row as understood (defaults filled in, dates as TT.MM.JJJJ), in sheet order.
    pub rows: Vec<UnderstoodRow>,
    /// What of its sheet the import left out, in German, in sheet order (issue 31.9): title rows
    /// above the header („Zeile 1 (Titel „Schockerliga 2026“)“), computed columns („Spalte
    /// „D.Wert“ (berechnet)“) and sum rows („Zeile 45 („Summe“)“); empty for a clean sheet.
    pub skipped: Vec<String>,
}

/// A data row as the import understood it: its line and one text per column of
/// [`SheetSeason::columns`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct UnderstoodRow {
    /// The row's line.
    pub line: usize,
    /// Its values, German formatted, with defaults filled in.
    pub cells: Vec<String>,
}

/// Reads `sheets` (a CSV file's one sheet, or a workbook's) into seasons (interchange.md
/// "Spreadsheet of night totals", docs/tabelle.md): a workbook whose sheets are named by years
/// gives one season per such sheet (other sheets and empty year sheets are left out), else the
/// sheet `Abende` (or the first sheet) is read, and a sheet `Endstand` too. Each sheet is read
/// in the layout its headers show. Seasons come back by year; all are checked
/// (`Season::from_file`); the first refusal in sheet order is returned, naming line and column.
pub fn read_sheets(sheets: &[Sheet]) -> Result<Vec<SheetSeason>, SheetError> {
    let year_sheets: Vec<&Sheet> = sheets
        .iter()
        .filter(|s| sheet_year(&s.name).is_some())
        .collect();
    let chosen: Vec<&Sheet> = if !year_sheets.is_empty() {
        year_sheets
            .into_iter()
            .filter(|s| s.rows.len() > 1)
            .collect()
    } else {
        let named = |n: &str| {
            sheets
                .iter()
                .find(|s| s.name.trim().eq_ignore_ascii_case(n))
        };
        let mut chosen: Vec<&Sheet> = named("Abende").or(sheets.first()).into_iter().collect();
        if let Some(e) = named("Endstand") {
            if !chosen.iter().any(|c| std::ptr::eq(*c, e)) {
                chosen.push(e);
            }
        }
        chosen
    };
    let rows: usize = chosen.iter().map(|s| s.rows.len().saturating_sub(1)).sum();
    if rows > MAX_ROWS {
        return Err(SheetError::new(format!(
            "{rows} Zeilen: höchstens {MAX_ROWS} Zeilen auf einmal (eine Saison hat etwa 1.000); \
             bitte in Teilen einlesen"
        )));
    }
    let mut seasons: Vec<SheetSeason> = Vec::new();
    for sheet in chosen {
        let got = match layout_of(sheet)? {
            Layout::Nights => read_nights(sheet)?,
            Layout::Endstand => read_endstand(sheet)?,
        };
        for s in got {
            if let Some(other) = seasons.iter().find(|x| x.season.year == s.season.year) {
                let whence = |x: &SheetSeason| {
                    if x.sheet.is_empty() {
                        "der Tabelle".to_string()
                    } else {
                        format!("Blatt „{}“", x.sheet)
                    }
                };
                return Err(SheetError::new(format!(
                    "die Saison {} steht zweimal in der Datei ({} und {})",
                    s.season.year,
                    whence(other),
                    whence(&s)
                )));
            }
            seasons.push(s);
        }
    }
    if seasons.is_empty() {
        return Err(SheetError::new(
            "die Datei hat keine Zeilen unter der Überschrift (erste Zeile: Datum, Spieler, Runden, Outs …)",
        ));
    }
    if seasons.len() > MAX_SEASONS {
        return Err(SheetError::new(format!(
            "{} Saisons: höchstens {MAX_SEASONS} auf einmal; bitte in Teilen einlesen",
            seasons.len()
        )));
    }
    seasons.sort_by_key(|s| s.season.year);
    Ok(seasons)
}

/// Refuses a season of `seasons` after the year after `today` (the club's date): „Blatt „2030“,
/// Zeile 2: Saison 2030 liegt zu weit in der Zukunft: …“, at the season's first row
/// ([`crate::league::model::rules::year_in_reach`]).
pub fn check_years(seasons: &[SheetSeason], today: NaiveDate) -> Result<(), SheetError> {
    for s in seasons {
        let year = s.season.year;
        if let Err(why) = crate::league::model::rules::year_in_reach(year, today) {
            return Err(SheetError {
                sheet: (!s.sheet.is_empty()).then(|| s.sheet.clone()),
                line: s.rows.first().map(|r| r.line),
                column: None,
                cell: None,
                message: format!("Saison {year} {why}"),
            });
        }
    }
    Ok(())
}

/// The year a sheet's name stands for (`2007`, ` 2007 `, `Saison 2007`), if it is one.
pub fn sheet_year(name: &str) -> Option<i32> {
    let t = name.trim();
    let t = t
        .strip_prefix("Saison")
        .or_else(|| t.strip_prefix("saison"))
        .unwrap_or(t)
        .trim();
    (t.len() == 4 && t.chars().all(|c| c.is_ascii_digit()))
        .then(|| t.parse().ok())
        .flatten()
        .filter(|y| (1900..=9999).contains(y))
}

/// The header of a sheet: the column of each position (`None` for an empty or a computed
/// column) and the header text as written; where it stands and what above it and in it is
/// skipped (issue 31.9).
struct Header {
    columns: Vec<Option<Column>>,
    text: HashMap<Column, String>,
    line: usize,
    /// Its index in the sheet's rows: the rows above it are titles.
    row: usize,
    /// The title rows above it, as notes: „Zeile 1 (Titel „Schockerliga 2026“)“.
    titles: Vec<String>,
    /// The computed columns ([`COMPUTED`]): position and header as written, left to right.
    computed: Vec<(usize, String)>,
}

impl Header {
    fn has(&self, c: Column) -> bool {
        self.text.contains_key(&c)
    }
    /// The header of `c` as written in the file, or its spec name when the sheet lacks it.
    fn name(&self, c: Column) -> String {
        self.text
            .get(&c)
            .cloned()
            .unwrap_or_else(|| c.label().to_string())
    }
    fn index(&self, c: Column) -> Option<usize> {
        self.columns.iter().position(|x| *x == Some(c))
    }

    /// The data rows: those below the header.
    fn data<'s>(&self, sheet: &'s Sheet) -> impl Iterator<Item = &'s SheetRow> {
        sheet.rows.iter().skip(self.row + 1)
    }

    /// What the import of `layout` leaves out of this header, as notes: the title rows, then
    /// the computed columns in the order written (Platz in both layouts, Liga in the nights').
    fn skipped(&self, ignored: &[Column]) -> Vec<String> {
        let mut notes = self.titles.clone();
        let mut columns: Vec<(usize, String)> = self
            .columns
            .iter()
            .enumerate()
            .filter_map(|(i, c)| c.filter(|c| ignored.contains(c)).map(|c| (i, self.name(c))))
            .chain(self.computed.iter().cloned())
            .collect();
        columns.sort();
        notes.extend(
            columns
                .into_iter()
                .map(|(_, h)| format!("Spalte „{h}“ (berechnet)")),
        );
        notes
    }
}

/// Headers of columns a club's sheet computes from the others (D.Wert, Schnitt), as
/// [`header_key`]s: the import reads no value from them and names them as skipped. Platz/Rang and
/// (in the nights' layout) Liga are computed too; they are columns of the Endstand.
const COMPUTED: [&str; 2] = ["dwert", "schnitt"];

/// Most title rows above the header (a club name, a season, „Stand vom …“).
const MAX_TITLE_ROWS: usize = 3;

/// The index of the header among `sheet`'s rows: the first row naming two columns or more, when
/// the rows above it (at most [`MAX_TITLE_ROWS`]) are titles of one cell each; else the first
/// row (nothing else is guessed).
fn header_row(sheet: &Sheet) -> usize {
    for (i, row) in sheet.rows.iter().enumerate().take(MAX_TITLE_ROWS + 1) {
        let filled = row.cells.iter().filter(|c| !c.is_empty()).count();
        let named = row
            .cells
            .iter()
            .filter(|c| {
                let h = c.text();
                column_of(&h).is_some() || COMPUTED.contains(&header_key(&h).as_str())
            })
            .count();
        if named >= 2 {
            return i;
        }
        if filled != 1 || named > 0 {
            return 0;
        }
    }
    0
}

/// Whether `text` in a row's key cell (Datum; in an Endstand Saison, else Spieler) marks a sum
/// row of the sheet: „Summe“, „Gesamt“, „Total“ (case ignored; with `prefix` also „Summe
/// 2026:“, for a cell that holds no date or year otherwise).
fn is_total(text: &str, prefix: bool) -> bool {
    let key = header_key(text);
    ["summe", "summen", "gesamt", "gesamtsumme", "total"]
        .iter()
        .any(|t| key == *t || (prefix && key.starts_with(t)))
}

fn header_of(sheet: &Sheet) -> Result<Header, SheetError> {
    let at = header_row(sheet);
    let Some(first) = sheet.rows.get(at) else {
        return Err(SheetError::at(sheet, None, None, "das Blatt ist leer"));
    };
    let titles = sheet.rows[..at]
        .iter()
        .map(|r| {
            let title = r
                .cells
                .iter()
                .find(|c| !c.is_empty())
                .map(Cell::text)
                .unwrap_or_default();
            format!("Zeile {} (Titel „{title}“)", r.line)
        })
        .collect();
    let mut columns = Vec::new();
    let mut text = HashMap::new();
    let mut computed = Vec::new();
    for (i, cell) in first.cells.iter().enumerate().take(MAX_COLUMNS) {
        let h = cell.text();
        if h.is_empty() {
            columns.push(None);
            continue;
        }
        if COMPUTED.contains(&header_key(&h).as_str()) {
            computed.push((i, h));
            columns.push(None);
            continue;
        }
        let Some(c) = column_of(&h) else {
            let known: Vec<&str> = NIGHT_COLUMNS.iter().map(|c| c.label()).collect();
            return Err(SheetError::at(
                sheet,
                Some(first.line),
                Some(&h),
                format!(
                    "unbekannte Spalte (Spalte {}); bekannt sind {} und für einen Endstand \
                     Saison, Liga, Beitrag bezahlt, bezahlte Runden, Platz; berechnete Spalten \
                     (D.Wert, Schnitt, Platz) werden übersprungen",
                    i + 1,
                    known.join(", ")
                ),
            ));
        };
        if text.contains_key(&c) {
            return Err(SheetError::at(
                sheet,
                Some(first.line),
                Some(&h),
                format!("die Spalte {} steht zweimal in der Überschrift", c.label()),
            ));
        }
        text.insert(c, h);
        columns.push(Some(c));
    }
    Ok(Header {
        columns,
        text,
        line: first.line,
        row: at,
        titles,
        computed,
    })
}

fn layout_of(sheet: &Sheet) -> Result<Layout, SheetError> {
    let h = header_of(sheet)?;
    if h.has(Column::Datum) {
        return Ok(Layout::Nights);
    }
    let endstand = [
        Column::Saison,
        Column::Liga,
        Column::BeitragBezahlt,
        Column::BezahlteRunden,
        Column::Platz,
    ];
    if endstand.iter().any(|c| h.has(*c)) || (h.has(Column::OutsGewertet) && !h.has(Column::Outs)) {
        return Ok(Layout::Endstand);
    }
    Err(SheetError::at(
        sheet,
        Some(h.line),
        Some("Datum"),
        "die Spalte fehlt: eine Tabelle der Abende braucht Datum, Spieler, Runden und Outs \
         (ein Endstand: Spieler, Runden, Outs gewertet und Liga oder Beitrag bezahlt)",
    ))
}

/// Checks that the header has the layout's required columns and no column of the other layout
/// but those it skips (`ignored`: computed there).
fn check_columns(
    sheet: &Sheet,
    h: &Header,
    allowed: &[Column],
    required: &[Column],
    ignored: &[Column],
    layout: &str,
) -> Result<(), SheetError> {
    for c in h.columns.iter().flatten() {
        let text = h.name(*c);
        if !allowed.contains(c) && !ignored.contains(c) {
            return Err(SheetError::at(
                sheet,
                Some(h.line),
                Some(&text),
                format!("diese Spalte gehört nicht in {layout}"),
            ));
        }
    }
    if let Some(c) = required.iter().find(|c| !h.has(**c)) {
        return Err(SheetError::at(
            sheet,
            Some(h.line),
            Some(c.label()),
            format!(
                "die Spalte fehlt in der Überschrift ({layout} braucht {})",
                required
                    .iter()
                    .map(|c| c.label())
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        ));
    }
    Ok(())
}

/// One data row with its header, for reading values.
struct Row<'a> {
    sheet: &'a Sheet,
    header: &'a Header,
    row: &'a SheetRow,
}

impl Row<'_> {
    fn cell(&self, c: Column) -> Option<&Cell> {
        let i = self.header.index(c)?;
        self.row.cells.get(i).filter(|x| !x.is_empty())
    }

    fn err(&self, c: Column, why: impl Into<String>) -> SheetError {
        SheetError::at(
            self.sheet,
            Some(self.row.line),
            Some(&self.header.name(c)),
            why,
        )
    }

    fn required(&self, c: Column) -> Result<&Cell, SheetError> {
        self.cell(c).ok_or_else(|| self.err(c, "fehlt"))
    }

    fn number(&self, c: Column) -> Result<Option<i64>, SheetError> {
        let Some(cell) = self.cell(c) else {
            return Ok(None);
        };
        let bad = |what: &str| self.err(c, format!("„{}“ ist {what}", cell.text()));
        let n: f64 = match cell {
            Cell::Number(n) => *n,
            Cell::Text(t) => {
                let t = t.trim();
                match t.parse::<i64>() {
                    Ok(n) => n as f64,
                    Err(_) => t
                        .replace(',', ".")
                        .parse::<f64>()
                        .map_err(|_| bad("keine Zahl"))?,
                }
            }
            Cell::Date(_) => return Err(bad("ein Datum, keine Zahl")),
            Cell::Empty => return Ok(None),
        };
        if n.fract() != 0.0 || !n.is_finite() {
            return Err(bad("keine ganze Zahl"));
        }
        if n < 0.0 {
            return Err(bad("negativ"));
        }
        if n > 1_000_000.0 {
            return Err(bad("zu groß"));
        }
        Ok(Some(n as i64))
    }

    fn count(&self, c: Column) -> Result<Option<u32>, SheetError> {
        Ok(self.number(c)?.map(|n| n as u32))
    }

    fn date(&self, c: Column) -> Result<Option<NaiveDate>, SheetError> {
        let Some(cell) = self.cell(c) else {
            return Ok(None);
        };
        match cell {
            Cell::Date(d) => Ok(Some(*d)),
            Cell::Text(t) => parse_date(t).map(Some).ok_or_else(|| {
                self.err(
                    c,
                    format!("„{}“ ist kein Datum (TT.MM.JJJJ oder JJJJ-MM-TT)", t.trim()),
                )
            }),
            other => Err(self.err(
                c,
                format!(
                    "„{}“ ist kein Datum (TT.MM.JJJJ oder JJJJ-MM-TT; in Excel eine Datumszelle)",
                    other.text()
                ),
            )),
        }
    }

    /// The player's name of the row, normalized; refused at its line when it holds a control or
    /// invisible character (not echoed: the name itself is what cannot be shown).
    fn name(&self) -> Result<String, SheetError> {
        let cell = self.required(Column::Spieler)?;
        let name = normalize_name(&cell.text());
        check_name_chars(&name)
            .map_err(|why| self.err(Column::Spieler, format!("Spielername {why}")))?;
        Ok(name)
    }
}

/// A date typed as `TT.MM.JJJJ` (also `T.M.JJJJ`) or `JJJJ-MM-TT`.
pub fn parse_date(text: &str) -> Option<NaiveDate> {
    let t = text.trim();
    if let Ok(d) = NaiveDate::parse_from_str(t, "%Y-%m-%d") {
        return Some(d);
    }
    let parts: Vec<&str> = t.split('.').collect();
    if let [d, m, y] = parts.as_slice() {
        if y.len() == 4 && (1..=2).contains(&d.len()) && (1..=2).contains(&m.len()) {
            return NaiveDate::from_ymd_opt(y.parse().ok()?, m.parse().ok()?, d.parse().ok()?);
        }
    }
    None
}

/// The players of a sheet by [`name_key`]: one spelling each (the first written), so `anna` and
/// `Anna` are one player; in order of first appearance.
#[derive(Default)]
struct Names {
    by_key: HashMap<String, usize>,
    players: Vec<PlayerEntry>,
}

impl Names {
    fn canonical(&mut self, name: &str) -> String {
        let key = name_key(name);
        let k = *self.by_key.entry(key).or_insert_with(|| {
            self.players.push(PlayerEntry {
                name: name.to_string(),
                fee_paid_on: None,
            });
            self.players.len() - 1
        });
        self.players[k].name.clone()
    }
}

/// Maps a refusal of `Season::from_file` back to the sheet: the line of the row of its night
/// and player (or the night's first row), the column of its field.
fn locate(
    sheet: &Sheet,
    header: &Header,
    e: &EntryError,
    line_of: impl Fn(Option<NaiveDate>, Option<&str>) -> Option<usize>,
) -> SheetError {
    let at = &e.location;
    let column = at.field.as_deref().and_then(|f| match f {
        "outs" | "thrown_outs" => Some(Column::Outs),
        "hand_outs" => Some(Column::HandOuts),
        "julen" => Some(Column::Julen),
        "points" | "counted_outs" => Some(Column::OutsGewertet),
        "lost" | "lost_rounds" => Some(Column::Verloren),
        "table" | "tables" => Some(Column::Tisch),
        "rounds" => Some(Column::Runden),
        "player" | "name" => Some(Column::Spieler),
        "date" => Some(Column::Datum),
        "fee_paid_on" => Some(Column::BeitragBezahltAm),
        "liga" => Some(Column::Liga),
        "paid_rounds" => Some(Column::BezahlteRunden),
        _ => None,
    });
    SheetError::at(
        sheet,
        line_of(at.night, at.player.as_deref()),
        column.map(|c| header.name(c)).as_deref(),
        e.message.clone(),
    )
}

fn read_nights(sheet: &Sheet) -> Result<Vec<SheetSeason>, SheetError> {
    let header = header_of(sheet)?;
    check_columns(
        sheet,
        &header,
        &NIGHT_COLUMNS,
        &NIGHT_REQUIRED,
        &NIGHT_IGNORED,
        "die Tabelle der Abende",
    )?;
    let mut skipped = header.skipped(&NIGHT_IGNORED);
    let sheet_year = sheet_year(&sheet.name);
    let mut year: Option<(i32, usize)> = None;
    let mut names = Names::default();
    let mut fee_line: HashMap<String, usize> = HashMap::new();
    let mut nights: Vec<NightEntry> = Vec::new();
    let mut night_of: HashMap<NaiveDate, usize> = HashMap::new();
    let mut lines: HashMap<(NaiveDate, String), usize> = HashMap::new();
    let mut first_line: HashMap<NaiveDate, usize> = HashMap::new();
    let mut understood = Vec::new();
    for r in header.data(sheet) {
        if r.cells.iter().all(Cell::is_empty) {
            continue;
        }
        let row = Row {
            sheet,
            header: &header,
            row: r,
        };
        if let Some(Cell::Text(t)) = row.cell(Column::Datum) {
            if is_total(t, true) {
                skipped.push(format!("Zeile {} („{}“)", r.line, t.trim()));
                continue;
            }
        }
        let Some(date) = row.date(Column::Datum)? else {
            return Err(row.err(
                Column::Datum,
                "fehlt (jede Zeile ist ein Spieler an einem Abend)",
            ));
        };
        match (sheet_year, year) {
            (Some(y), _) if date.year() != y => {
                return Err(row.err(
                    Column::Datum,
                    format!("{} liegt nicht im Jahr {y} des Blatts", date_de(date)),
                ))
            }
            (None, Some((y, first))) if date.year() != y => {
                return Err(row.err(
                    Column::Datum,
                    format!(
                        "{} liegt nicht in der Saison {y} (Zeile {first}); eine Tabelle hält eine \
                         Saison, für mehrere ein Blatt je Jahr (2007, 2008, …)",
                        date_de(date)
                    ),
                ))
            }
            (_, None) => year = Some((date.year(), r.line)),
            _ => {}
        }
        let raw = row.name()?;
        if raw.is_empty() {
            return Err(row.err(Column::Spieler, "fehlt"));
        }
        let player = names.canonical(&raw);
        let Some(rounds) = row.count(Column::Runden)? else {
            return Err(row.err(Column::Runden, "fehlt"));
        };
        let Some(outs) = row.count(Column::Outs)? else {
            return Err(row.err(Column::Outs, "fehlt"));
        };
        let hand_outs = row.count(Column::HandOuts)?.unwrap_or(0);
        let julen = row.count(Column::Julen)?.unwrap_or(0);
        let points = row.number(Column::OutsGewertet)?;
        let lost = row.count(Column::Verloren)?.unwrap_or(0);
        let table = row.count(Column::Tisch)?.unwrap_or(1);
        if let Some(paid) = row.date(Column::BeitragBezahltAm)? {
            let k = names.by_key[&name_key(&player)];
            match names.players[k].fee_paid_on {
                Some(before) if before != paid => {
                    return Err(row.err(
                        Column::BeitragBezahltAm,
                        format!(
                            "{} bezahlt am {}, in Zeile {} am {}: ein Jahresbeitrag je Saison",
                            player,
                            date_de(paid),
                            fee_line.get(&player).copied().unwrap_or(0),
                            date_de(before)
                        ),
                    ))
                }
                Some(_) => {}
                None => {
                    names.players[k].fee_paid_on = Some(paid);
                    fee_line.insert(player.clone(), r.line);
                }
            }
        }
        let k = *night_of.entry(date).or_insert_with(|| {
            nights.push(NightEntry {
                date,
                tables: Vec::new(),
                fines: Vec::new(),
                draw: None,
                totals: Vec::new(),
                closed: false,
                corrections: Vec::new(),
            });
            nights.len() - 1
        });
        first_line.entry(date).or_insert(r.line);
        if let Some(before) = lines.get(&(date, player.clone())) {
            return Err(row.err(
                Column::Spieler,
                format!(
                    "{player} steht am {} schon in Zeile {before} (jeder Spieler einmal je Abend)",
                    date_de(date)
                ),
            ));
        }
        lines.insert((date, player.clone()), r.line);
        nights[k].totals.push(TotalsEntry {
            player: player.clone(),
            table,
            rounds,
            outs,
            hand_outs,
            julen,
            points,
            lost,
        });
        understood.push((
            r.line, date, player, table, rounds, outs, hand_outs, julen, points, lost,
        ));
    }
    let Some((year, _)) = year else {
        return Ok(Vec::new());
    };
    let file = SeasonFile {
        format: FORMAT.to_string(),
        season: year,
        rules: serde_json::Map::new(),
        players: names.players,
        nights,
        endstand: Vec::new(),
    };
    let season = Season::from_file(&file).map_err(|e| {
        locate(sheet, &header, &e, |night, player| match (night, player) {
            (Some(d), Some(p)) => lines.get(&(d, p.to_string())).copied(),
            (Some(d), None) => first_line.get(&d).copied(),
            (None, Some(p)) => fee_line.get(p).copied().or_else(|| {
                lines
                    .iter()
                    .filter(|((_, q), _)| q == p)
                    .map(|(_, l)| *l)
                    .min()
            }),
            (None, None) => None,
        })
    })?;
    let rules = &season.rules;
    let fee = |p: &str| {
        season
            .player(p)
            .and_then(|x| x.fee_paid_on)
            .map(date_de)
            .unwrap_or_default()
    };
    let rows = understood
        .into_iter()
        .map(
            |(line, date, player, table, rounds, outs, hand, julen, points, lost)| {
                let base = crate::league::model::season::base_points_of(rules, outs, hand);
                UnderstoodRow {
                    line,
                    cells: vec![
                        date_de(date),
                        player.clone(),
                        rounds.to_string(),
                        outs.to_string(),
                        hand.to_string(),
                        julen.to_string(),
                        points.unwrap_or(base).to_string(),
                        lost.to_string(),
                        table.to_string(),
                        fee(&player),
                    ],
                }
            },
        )
        .collect();
    Ok(vec![SheetSeason {
        sheet: sheet.name.clone(),
        layout: Layout::Nights,
        file,
        season,
        columns: NIGHT_COLUMNS.iter().map(|c| c.label()).collect(),
        rows,
        skipped,
    }])
}

/// A Liga as people write it: `1. Liga`, `1`, `erste`; `2. Liga`, `2`; `Kreisliga`, `KL`, `3`.
pub fn parse_liga(text: &str) -> Option<Liga> {
    match header_key(text).as_str() {
        "1liga" | "1" | "erste" | "ersteliga" | "i" => Some(Liga::First),
        "2liga" | "2" | "zweite" | "zweiteliga" | "ii" => Some(Liga::Second),
        "kreisliga" | "kl" | "kreis" | "3" | "3liga" => Some(Liga::Kreisliga),
        _ => None,
    }
}

/// Yes or no as people write it: `ja`, `j`, `x`, `1`, `wahr`, `bezahlt` / `nein`, `n`, `0`,
/// `-`, `falsch`, empty.
pub fn parse_yes(text: &str) -> Option<bool> {
    match header_key(text).as_str() {
        "ja" | "j" | "x" | "1" | "wahr" | "true" | "bezahlt" | "yes" => Some(true),
        "nein" | "n" | "0" | "" | "falsch" | "false" | "offen" | "no" => Some(false),
        _ => None,
    }
}

fn read_endstand(sheet: &Sheet) -> Result<Vec<SheetSeason>, SheetError> {
    let header = header_of(sheet)?;
    check_columns(
        sheet,
        &header,
        &ENDSTAND_COLUMNS,
        &ENDSTAND_REQUIRED,
        &ENDSTAND_IGNORED,
        "einen Endstand",
    )?;
    let mut skipped = header.skipped(&ENDSTAND_IGNORED);
    let fixed_year = sheet_year(&sheet.name);
    if fixed_year.is_none() && !header.has(Column::Saison) {
        return Err(SheetError::at(
            sheet,
            Some(header.line),
            Some("Saison"),
            "die Spalte fehlt: ein Endstand braucht das Jahr (Spalte Saison oder ein Blatt je Jahr)",
        ));
    }
    if !header.has(Column::Liga) && !header.has(Column::BeitragBezahlt) {
        return Err(SheetError::at(
            sheet,
            Some(header.line),
            Some("Liga"),
            "die Spalte fehlt: ein Endstand braucht Liga oder Beitrag bezahlt",
        ));
    }
    // year → (names, entries, lines by player, understood rows)
    type Acc = (
        Names,
        Vec<EndstandEntry>,
        HashMap<String, usize>,
        Vec<UnderstoodRow>,
    );
    let mut by_year: BTreeMap<i32, Acc> = BTreeMap::new();
    // A sum row: its Saison cell, or its Spieler cell on a sheet of one year.
    let key = if header.has(Column::Saison) {
        Column::Saison
    } else {
        Column::Spieler
    };
    for r in header.data(sheet) {
        if r.cells.iter().all(Cell::is_empty) {
            continue;
        }
        let row = Row {
            sheet,
            header: &header,
            row: r,
        };
        if let Some(Cell::Text(t)) = row.cell(key) {
            if is_total(t, key == Column::Saison) {
                skipped.push(format!("Zeile {} („{}“)", r.line, t.trim()));
                continue;
            }
        }
        let year = match (fixed_year, row.number(Column::Saison)?) {
            (Some(y), Some(n)) if n != i64::from(y) => {
                return Err(row.err(Column::Saison, format!("{n} auf dem Blatt {y}")))
            }
            (Some(y), _) => y,
            (None, Some(n)) if (1900..=9999).contains(&n) => n as i32,
            (None, Some(n)) => return Err(row.err(Column::Saison, format!("{n} ist kein Jahr"))),
            (None, None) => return Err(row.err(Column::Saison, "fehlt")),
        };
        let rules = SeasonRules::defaults_for(year);
        let acc = by_year
            .entry(year)
            .or_insert_with(|| (Names::default(), Vec::new(), HashMap::new(), Vec::new()));
        let raw = row.name()?;
        if raw.is_empty() {
            return Err(row.err(Column::Spieler, "fehlt"));
        }
        let player = acc.0.canonical(&raw);
        if let Some(before) = acc.2.get(&player) {
            return Err(row.err(
                Column::Spieler,
                format!("{player} steht für {year} schon in Zeile {before}"),
            ));
        }
        let Some(rounds) = row.count(Column::Runden)? else {
            return Err(row.err(Column::Runden, "fehlt"));
        };
        let Some(counted_outs) = row.number(Column::OutsGewertet)? else {
            return Err(row.err(Column::OutsGewertet, "fehlt"));
        };
        let paid_rounds = row.count(Column::BezahlteRunden)?.unwrap_or(0);
        let lost_rounds = row.count(Column::Verloren)?;
        let liga = match row.cell(Column::Liga) {
            Some(cell) => parse_liga(&cell.text()).ok_or_else(|| {
                row.err(
                    Column::Liga,
                    format!(
                        "„{}“ ist keine Liga (1. Liga, 2. Liga oder Kreisliga)",
                        cell.text()
                    ),
                )
            })?,
            None => {
                let paid = match row.cell(Column::BeitragBezahlt) {
                    None => false,
                    Some(cell) => parse_yes(&cell.text()).ok_or_else(|| {
                        row.err(
                            Column::BeitragBezahlt,
                            format!("„{}“: ja oder nein", cell.text()),
                        )
                    })?,
                };
                // The final table, after the deadline (league.md §4).
                if rounds < rules.kreisliga_below_rounds {
                    Liga::Kreisliga
                } else if paid && rounds >= rules.min_rounds_first_liga {
                    Liga::First
                } else {
                    Liga::Second
                }
            }
        };
        let entry = EndstandEntry {
            player: player.clone(),
            liga,
            rounds,
            counted_outs,
            paid_rounds,
            lost_rounds,
            thrown_outs: row.count(Column::Outs)?.unwrap_or(0),
            hand_outs: row.count(Column::HandOuts)?.unwrap_or(0),
            julen: row.count(Column::Julen)?.unwrap_or(0),
        };
        acc.3.push(UnderstoodRow {
            line: r.line,
            cells: vec![
                year.to_string(),
                player.clone(),
                liga.label().to_string(),
                rounds.to_string(),
                counted_outs.to_string(),
                paid_rounds.to_string(),
                lost_rounds.unwrap_or(paid_rounds).to_string(),
                entry.thrown_outs.to_string(),
                entry.hand_outs.to_string(),
                entry.julen.to_string(),
            ],
        });
        acc.1.push(entry);
        acc.2.insert(player, r.line);
    }
    let mut out = Vec::new();
    for (year, (names, endstand, lines, rows)) in by_year {
        let file = SeasonFile {
            format: FORMAT.to_string(),
            season: year,
            rules: serde_json::Map::new(),
            players: names.players,
            nights: Vec::new(),
            endstand,
        };
        let season = Season::from_file(&file).map_err(|e| {
            locate(sheet, &header, &e, |_, player| {
                player.and_then(|p| lines.get(p).copied())
            })
        })?;
        out.push(SheetSeason {
            sheet: sheet.name.clone(),
            layout: Layout::Endstand,
            file,
            season,
            columns: vec![
                "Saison",
                "Spieler",
                "Liga",
                "Runden",
                "Outs gewertet",
                "bezahlte Runden",
                "verloren",
                "Outs",
                "Hand-Outs",
                "Julen",
            ],
            rows,
            skipped: skipped.clone(),
        });
    }
    Ok(out)
}

/// `season` as the rows of its sheet, header first (what `export --csv` writes, interchange.md):
/// a season of nights as the night totals (one row per player and night, in date and seat
/// order; `Outs gewertet` always written, dates `TT.MM.JJJJ`, `Beitrag bezahlt am` on every row
/// of a player who paid), a season kept as its Endstand as that layout. Importing the rows gives
/// the same standings; fines and a drawn player without a round are not part of the sheet.
pub fn season_rows(season: &Season) -> Vec<Vec<String>> {
    if season.is_endstand() {
        let mut rows = vec![[
            Column::Saison,
            Column::Spieler,
            Column::Liga,
            Column::Runden,
            Column::OutsGewertet,
            Column::BezahlteRunden,
            Column::Verloren,
            Column::Outs,
            Column::HandOuts,
            Column::Julen,
        ]
        .iter()
        .map(|c| c.label().to_string())
        .collect()];
        for e in &season.endstand {
            rows.push(vec![
                season.year.to_string(),
                e.player.clone(),
                e.liga.label().to_string(),
                e.rounds.to_string(),
                e.counted_outs.to_string(),
                e.paid_rounds.to_string(),
                e.lost_rounds.to_string(),
                e.thrown_outs.to_string(),
                e.hand_outs.to_string(),
                e.julen.to_string(),
            ]);
        }
        return rows;
    }
    let mut rows = vec![NIGHT_COLUMNS
        .iter()
        .map(|c| c.label().to_string())
        .collect()];
    for night in &season.nights {
        for t in crate::league::totals::night_totals(season, night) {
            let points = t.points.unwrap_or_else(|| {
                crate::league::model::season::base_points_of(&season.rules, t.outs, t.hand_outs)
            });
            let fee = season
                .player(&t.player)
                .and_then(|p| p.fee_paid_on)
                .map(date_de)
                .unwrap_or_default();
            rows.push(vec![
                date_de(night.date),
                t.player,
                t.rounds.to_string(),
                t.outs.to_string(),
                t.hand_outs.to_string(),
                t.julen.to_string(),
                points.to_string(),
                t.lost.to_string(),
                t.table.to_string(),
                fee,
            ]);
        }
    }
    rows
}

impl fmt::Display for Layout {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Layout::Nights => "Abende als Summen",
            Layout::Endstand => "Endstand",
        })
    }
}

#[cfg(test)]
mod tests;
