//! Reading a sheet of night totals (interchange.md "Spreadsheet of night totals"): one row per
//! player and night into one season of nights recorded as totals.

use std::collections::HashMap;

use chrono::{Datelike, NaiveDate};

use super::header::{check_columns, header_of, is_total, locate, sheet_year, Names, Row};
use super::layout::{Cell, Column, Layout, Sheet, SheetError, SheetSeason, UnderstoodRow};
use super::layout::{NIGHT_COLUMNS, NIGHT_IGNORED, NIGHT_REQUIRED};
use crate::league::model::file::{NightEntry, SeasonFile, TotalsEntry, FORMAT};
use crate::league::model::format::date_de;
use crate::league::model::names::name_key;
use crate::league::model::season::Season;

pub(super) fn read_nights(sheet: &Sheet) -> Result<Vec<SheetSeason>, SheetError> {
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
