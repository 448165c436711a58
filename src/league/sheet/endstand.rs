//! Reading an Endstand sheet (issue 24.3, docs/tabelle.md): one row per player and season into
//! seasons kept as their final table; a Liga and yes or no as people write them.

use std::collections::{BTreeMap, HashMap};

use super::header::{check_columns, header_of, is_total, locate, sheet_year, Names, Row};
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
