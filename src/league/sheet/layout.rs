//! The shape of the club's spreadsheet (interchange.md "Spreadsheet of night totals",
//! docs/tabelle.md): a sheet of cells as `crate::sheet` reads it, a refusal naming sheet, line
//! and column, the columns people type and the two layouts (night totals, Endstand), and a season
//! read from a sheet with its rows as understood.

use std::fmt;

use chrono::NaiveDate;
use serde::Serialize;

use crate::league::model::file::SeasonFile;
use crate::league::model::format::date_de;
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
    pub(super) fn is_empty(&self) -> bool {
        match self {
            Cell::Empty => true,
            Cell::Text(t) => t.trim().is_empty(),
            _ => false,
        }
    }

    pub(super) fn text(&self) -> String {
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

    pub(super) fn at(
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

    pub(super) fn render(&self) -> String {
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
    pub(super) fn variants(self) -> &'static [&'static str] {
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

impl fmt::Display for Layout {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Layout::Nights => "Abende als Summen",
            Layout::Endstand => "Endstand",
        })
    }
}

pub(super) const NIGHT_COLUMNS: [Column; 10] = [
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
pub(super) const NIGHT_REQUIRED: [Column; 4] =
    [Column::Datum, Column::Spieler, Column::Runden, Column::Outs];
pub(super) const ENDSTAND_COLUMNS: [Column; 11] = [
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
pub(super) const ENDSTAND_REQUIRED: [Column; 3] =
    [Column::Spieler, Column::Runden, Column::OutsGewertet];
/// Columns of the other layout that a sheet computes (issue 31.9): read from neither, named as
/// skipped.
pub(super) const NIGHT_IGNORED: [Column; 2] = [Column::Platz, Column::Liga];
pub(super) const ENDSTAND_IGNORED: [Column; 1] = [Column::Platz];

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
