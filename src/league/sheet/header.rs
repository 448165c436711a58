//! Reading a sheet's header and its rows' cells: where the header stands (title rows above it),
//! which column each header names, which layout it shows, a row's values (numbers, dates, the
//! player's name), the players of a sheet by name, and a refusal of the season's check located
//! back at its line and column.

use std::collections::HashMap;

use chrono::NaiveDate;

use super::layout::{column_of, header_key, Cell, Column, Layout, Sheet, SheetError, SheetRow};
use super::layout::{MAX_COLUMNS, NIGHT_COLUMNS};
use crate::league::model::error::EntryError;
use crate::league::model::file::PlayerEntry;
use crate::league::model::names::{check_name_chars, name_key, normalize_name};

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
pub(super) struct Header {
    pub(super) columns: Vec<Option<Column>>,
    pub(super) text: HashMap<Column, String>,
    pub(super) line: usize,
    /// Its index in the sheet's rows: the rows above it are titles.
    pub(super) row: usize,
    /// The title rows above it, as notes: „Zeile 1 (Titel „Schockerliga 2026“)“.
    pub(super) titles: Vec<String>,
    /// The computed columns ([`COMPUTED`]): position and header as written, left to right.
    pub(super) computed: Vec<(usize, String)>,
}

impl Header {
    pub(super) fn has(&self, c: Column) -> bool {
        self.text.contains_key(&c)
    }
    /// The header of `c` as written in the file, or its spec name when the sheet lacks it.
    pub(super) fn name(&self, c: Column) -> String {
        self.text
            .get(&c)
            .cloned()
            .unwrap_or_else(|| c.label().to_string())
    }
    pub(super) fn index(&self, c: Column) -> Option<usize> {
        self.columns.iter().position(|x| *x == Some(c))
    }

    /// The data rows: those below the header.
    pub(super) fn data<'s>(&self, sheet: &'s Sheet) -> impl Iterator<Item = &'s SheetRow> {
        sheet.rows.iter().skip(self.row + 1)
    }

    /// What the import of `layout` leaves out of this header, as notes: the title rows, then
    /// the computed columns in the order written (Platz in both layouts, Liga in the nights').
    pub(super) fn skipped(&self, ignored: &[Column]) -> Vec<String> {
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
pub(super) const COMPUTED: [&str; 2] = ["dwert", "schnitt"];

/// Most title rows above the header (a club name, a season, „Stand vom …“).
pub(super) const MAX_TITLE_ROWS: usize = 3;

/// The index of the header among `sheet`'s rows: the first row naming two columns or more, when
/// the rows above it (at most [`MAX_TITLE_ROWS`]) are titles of one cell each; else the first
/// row (nothing else is guessed).
pub(super) fn header_row(sheet: &Sheet) -> usize {
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
pub(super) fn is_total(text: &str, prefix: bool) -> bool {
    let key = header_key(text);
    ["summe", "summen", "gesamt", "gesamtsumme", "total"]
        .iter()
        .any(|t| key == *t || (prefix && key.starts_with(t)))
}

pub(super) fn header_of(sheet: &Sheet) -> Result<Header, SheetError> {
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

pub(super) fn layout_of(sheet: &Sheet) -> Result<Layout, SheetError> {
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
pub(super) fn check_columns(
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
pub(super) struct Row<'a> {
    pub(super) sheet: &'a Sheet,
    pub(super) header: &'a Header,
    pub(super) row: &'a SheetRow,
}

impl Row<'_> {
    pub(super) fn cell(&self, c: Column) -> Option<&Cell> {
        let i = self.header.index(c)?;
        self.row.cells.get(i).filter(|x| !x.is_empty())
    }

    pub(super) fn err(&self, c: Column, why: impl Into<String>) -> SheetError {
        SheetError::at(
            self.sheet,
            Some(self.row.line),
            Some(&self.header.name(c)),
            why,
        )
    }

    pub(super) fn required(&self, c: Column) -> Result<&Cell, SheetError> {
        self.cell(c).ok_or_else(|| self.err(c, "fehlt"))
    }

    pub(super) fn number(&self, c: Column) -> Result<Option<i64>, SheetError> {
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

    pub(super) fn count(&self, c: Column) -> Result<Option<u32>, SheetError> {
        Ok(self.number(c)?.map(|n| n as u32))
    }

    pub(super) fn date(&self, c: Column) -> Result<Option<NaiveDate>, SheetError> {
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
    pub(super) fn name(&self) -> Result<String, SheetError> {
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
pub(super) struct Names {
    pub(super) by_key: HashMap<String, usize>,
    pub(super) players: Vec<PlayerEntry>,
}

impl Names {
    pub(super) fn canonical(&mut self, name: &str) -> String {
        let key = name_key(name);
        let k = *self.by_key.entry(key).or_insert_with(|| {
            self.players.push(PlayerEntry {
                name: name.to_string(),
                fee_paid_on: None,
                fee_from_account: false,
            });
            self.players.len() - 1
        });
        self.players[k].name.clone()
    }
}

/// Maps a refusal of `Season::from_file` back to the sheet: the line of the row of its night
/// and player (or the night's first row), the column of its field.
pub(super) fn locate(
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
