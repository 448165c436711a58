//! The club's spreadsheet (interchange.md "Spreadsheet of night totals", issue 24.2–24.4): the
//! cells of its sheets turned into season files and back. Two layouts, told apart by their
//! headers (docs/tabelle.md): the **night totals** (one row per player and night: `Datum`,
//! `Spieler`, `Runden`, `Outs`, …) and the **Endstand** (one row per player and season:
//! `Spieler`, `Runden`, `Outs gewertet`, `Liga` or `Beitrag bezahlt`, …). Reading the bytes of a
//! CSV, XLSX or ODS file into [`Sheet`]s is `crate::sheet`; this room is pure. Names the model
//! and the table.
//!
//! All or nothing: the first invalid row is refused with its line (the file's line, the header is
//! line 1), its column and why, and no season comes back. The seasons then pass
//! `Season::from_file` (the one check), whose refusals are named by line and column too.
//!
//! Here: [`read_sheets`], the entry. The sheet's shape (`layout`), its header and cells
//! (`header`), the two layouts read (`nights`, `endstand`), a season written back (`write`), nights
//! recorded as totals (`totals`), and a season's results replaced from a file without money
//! (`replace`).

use chrono::NaiveDate;

use crate::league::model::rules::year_in_reach;

pub mod endstand;
pub mod header;
pub mod layout;
pub mod nights;
pub mod replace;
pub mod totals;
pub mod write;

use endstand::read_endstand;
use header::{layout_of, sheet_year};
use layout::{Layout, Sheet, SheetError, SheetSeason, MAX_ROWS, MAX_SEASONS};
use nights::read_nights;

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
    let left_out = left_out(sheets, &chosen);
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
    seasons[0].skipped.splice(0..0, left_out);
    Ok(seasons)
}

/// The sheets of `sheets` not in `chosen` that hold anything, each as a skipped line naming it
/// and why it was not read: „Blatt „Übersicht“ (kein Jahr als Name)“ in a workbook of year
/// sheets, „Blatt „2009“ (leer)“ for a year sheet with no row under its header, „Blatt „Titel“
/// (nicht „Abende“ oder „Endstand“)“ otherwise; in sheet order. Sheets without any row are
/// left unnamed (a workbook's untouched default sheets).
fn left_out(sheets: &[Sheet], chosen: &[&Sheet]) -> Vec<String> {
    let by_year = sheets.iter().any(|s| sheet_year(&s.name).is_some());
    sheets
        .iter()
        .filter(|s| !s.rows.is_empty() && !chosen.iter().any(|c| std::ptr::eq(*c, *s)))
        .map(|s| {
            let why = match (by_year, sheet_year(&s.name)) {
                (true, Some(_)) => "leer",
                (true, None) => "kein Jahr als Name",
                (false, _) => "nicht „Abende“ oder „Endstand“",
            };
            format!("Blatt „{}“ ({why})", s.name)
        })
        .collect()
}

/// Refuses a season of `seasons` after the year after `today` (the club's date): „Blatt „2030“,
/// Zeile 2: Saison 2030 liegt zu weit in der Zukunft: …“, at the season's first row
/// ([`crate::league::model::rules::year_in_reach`]).
pub fn check_years(seasons: &[SheetSeason], today: NaiveDate) -> Result<(), SheetError> {
    for s in seasons {
        let year = s.season.year;
        if let Err(why) = year_in_reach(year, today) {
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

#[cfg(test)]
mod tests;
