//! Reading an Endstand sheet (issue 24.3, docs/tabelle.md): one row per player and season into
//! seasons kept as their final table; a Liga and yes or no as people write them.

use std::collections::{BTreeMap, HashMap};

use super::header::{check_columns, header_of, is_total, locate, sheet_year, Header, Names, Row};
use super::layout::{header_key, Cell, Column, Layout, Sheet, SheetError, SheetSeason};
use super::layout::{UnderstoodRow, ENDSTAND_COLUMNS, ENDSTAND_IGNORED, ENDSTAND_REQUIRED};
use crate::league::model::file::{EndstandEntry, SeasonFile, FORMAT};
use crate::league::model::rules::{Liga, SeasonRules};
use crate::league::model::season::Season;

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

/// The seasons an Endstand sheet holds (one per year in its Saison column, or the sheet's year):
/// each row a player's final line, its Liga written or derived from rounds and the fee (league.md
/// §4). The first refusal names its sheet, line and column.
pub(super) fn read_endstand(sheet: &Sheet) -> Result<Vec<SheetSeason>, SheetError> {
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
    check_year_and_liga_columns(sheet, &header, fixed_year)?;
    let mut by_year: BTreeMap<i32, YearRead> = BTreeMap::new();
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
        let year = row_year(&row, fixed_year)?;
        by_year.entry(year).or_default().row(&row, year)?;
    }
    let mut out = Vec::new();
    for (year, read) in by_year {
        out.push(read.season(sheet, &header, year, skipped.clone())?);
    }
    Ok(out)
}

/// An Endstand needs its year (a Saison column or a sheet named by its year) and a Liga or the
/// fee to derive it; else the refusal naming the missing column.
fn check_year_and_liga_columns(
    sheet: &Sheet,
    header: &Header,
    fixed_year: Option<i32>,
) -> Result<(), SheetError> {
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
    Ok(())
}

/// The row's season: its Saison cell, which must agree with the sheet's year when the sheet
/// is named by one.
fn row_year(row: &Row<'_>, fixed_year: Option<i32>) -> Result<i32, SheetError> {
    match (fixed_year, row.number(Column::Saison)?) {
        (Some(y), Some(n)) if n != i64::from(y) => {
            Err(row.err(Column::Saison, format!("{n} auf dem Blatt {y}")))
        }
        (Some(y), _) => Ok(y),
        (None, Some(n)) if (1900..=9999).contains(&n) => Ok(n as i32),
        (None, Some(n)) => Err(row.err(Column::Saison, format!("{n} ist kein Jahr"))),
        (None, None) => Err(row.err(Column::Saison, "fehlt")),
    }
}

/// The row's Liga as written, or derived from its rounds and "Beitrag bezahlt" as the final
/// table after the deadline does (league.md §4).
fn row_liga(row: &Row<'_>, rounds: u32, rules: &SeasonRules) -> Result<Liga, SheetError> {
    if let Some(cell) = row.cell(Column::Liga) {
        return parse_liga(&cell.text()).ok_or_else(|| {
            row.err(
                Column::Liga,
                format!(
                    "„{}“ ist keine Liga (1. Liga, 2. Liga oder Kreisliga)",
                    cell.text()
                ),
            )
        });
    }
    let paid = match row.cell(Column::BeitragBezahlt) {
        None => false,
        Some(cell) => parse_yes(&cell.text()).ok_or_else(|| {
            row.err(
                Column::BeitragBezahlt,
                format!("„{}“: ja oder nein", cell.text()),
            )
        })?,
    };
    Ok(if rounds < rules.kreisliga_below_rounds {
        Liga::Kreisliga
    } else if paid && rounds >= rules.min_rounds_first_liga {
        Liga::First
    } else {
        Liga::Second
    })
}

/// One season of an Endstand sheet as read so far: its players, their final lines, the line of
/// each player's row and the rows as understood.
#[derive(Default)]
struct YearRead {
    names: Names,
    endstand: Vec<EndstandEntry>,
    lines: HashMap<String, usize>,
    rows: Vec<UnderstoodRow>,
}

impl YearRead {
    /// Reads one row of season `year` (one player's final line), or the refusal naming its cell.
    fn row(&mut self, row: &Row<'_>, year: i32) -> Result<(), SheetError> {
        let rules = SeasonRules::defaults_for(year);
        let raw = row.name()?;
        if raw.is_empty() {
            return Err(row.err(Column::Spieler, "fehlt"));
        }
        let player = self.names.canonical(&raw);
        if let Some(before) = self.lines.get(&player) {
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
        let liga = row_liga(row, rounds, &rules)?;
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
        self.rows.push(UnderstoodRow {
            line: row.row.line,
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
        self.endstand.push(entry);
        self.lines.insert(player, row.row.line);
        Ok(())
    }

    /// The season `year` checked as a whole, or the refusal pointed at the row it names.
    fn season(
        self,
        sheet: &Sheet,
        header: &Header,
        year: i32,
        skipped: Vec<String>,
    ) -> Result<SheetSeason, SheetError> {
        let file = SeasonFile {
            format: FORMAT.to_string(),
            season: year,
            rules: serde_json::Map::new(),
            players: self.names.players,
            nights: Vec::new(),
            endstand: self.endstand,
            payments: Vec::new(),
            credit: Vec::new(),
            kassenbuch: None,
            status: Vec::new(),
            merged: None,
        };
        let lines = self.lines;
        let season = Season::from_file(&file).map_err(|e| {
            locate(sheet, header, &e, |_, player| {
                player.and_then(|p| lines.get(p).copied())
            })
        })?;
        Ok(SheetSeason {
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
            rows: self.rows,
            skipped,
        })
    }
}
