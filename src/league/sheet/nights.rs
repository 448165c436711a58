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
    let mut read = NightsRead::new(sheet_year(&sheet.name));
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
        read.row(&row)?;
    }
    let Some((year, _)) = read.year else {
        return Ok(Vec::new());
    };
    let file = SeasonFile {
        format: FORMAT.to_string(),
        season: year,
        rules: serde_json::Map::new(),
        players: read.names.players,
        nights: read.nights,
        endstand: Vec::new(),
        payments: Vec::new(),
        credit: Vec::new(),
        kassenbuch: None,
        status: Vec::new(),
        merged: None,
    };
    let lines = Lines {
        of: read.lines,
        first: read.first_line,
        fee: read.fee_line,
    };
    let season = Season::from_file(&file).map_err(|e| {
        locate(sheet, &header, &e, |night, player| {
            lines.line(night, player)
        })
    })?;
    let rows = understood_rows(&season, read.understood);
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

/// One row as understood: its line, night, player and the counts read (table, rounds, Outs,
/// Hand-Outs, Julen, Outs gewertet when written, rounds lost).
struct Understood {
    line: usize,
    date: NaiveDate,
    player: String,
    totals: TotalsEntry,
}

/// What a sheet of night totals has given so far, row by row: the season's year (with the
/// line that set it), its players and fees, its nights and where each player's row stands.
struct NightsRead {
    /// The year in the sheet's name ("2025"), when it has one.
    sheet_year: Option<i32>,
    /// The season's year and the line of its first row.
    year: Option<(i32, usize)>,
    names: Names,
    /// The line where a player's fee date was written.
    fee_line: HashMap<String, usize>,
    nights: Vec<NightEntry>,
    night_of: HashMap<NaiveDate, usize>,
    /// The line of each (night, player).
    lines: HashMap<(NaiveDate, String), usize>,
    /// The first line of each night.
    first_line: HashMap<NaiveDate, usize>,
    understood: Vec<Understood>,
}

impl NightsRead {
    fn new(sheet_year: Option<i32>) -> NightsRead {
        NightsRead {
            sheet_year,
            year: None,
            names: Names::default(),
            fee_line: HashMap::new(),
            nights: Vec::new(),
            night_of: HashMap::new(),
            lines: HashMap::new(),
            first_line: HashMap::new(),
            understood: Vec::new(),
        }
    }

    /// Reads one data row (a player on a night) into the season, or the refusal naming its cell.
    fn row(&mut self, row: &Row<'_>) -> Result<(), SheetError> {
        let line = row.row.line;
        let Some(date) = row.date(Column::Datum)? else {
            return Err(row.err(
                Column::Datum,
                "fehlt (jede Zeile ist ein Spieler an einem Abend)",
            ));
        };
        self.check_year(row, date)?;
        let raw = row.name()?;
        if raw.is_empty() {
            return Err(row.err(Column::Spieler, "fehlt"));
        }
        let player = self.names.canonical(&raw);
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
        let totals = TotalsEntry {
            player: player.clone(),
            table,
            rounds,
            outs,
            hand_outs,
            julen,
            points,
            lost,
        };
        self.fee_paid(row, &player)?;
        let k = *self.night_of.entry(date).or_insert_with(|| {
            self.nights.push(NightEntry {
                date,
                tables: Vec::new(),
                fines: Vec::new(),
                draw: None,
                totals: Vec::new(),
                closed: false,
                corrections: Vec::new(),
            });
            self.nights.len() - 1
        });
        self.first_line.entry(date).or_insert(line);
        if let Some(before) = self.lines.get(&(date, player.clone())) {
            return Err(row.err(
                Column::Spieler,
                format!(
                    "{player} steht am {} schon in Zeile {before} (jeder Spieler einmal je Abend)",
                    date_de(date)
                ),
            ));
        }
        self.lines.insert((date, player.clone()), line);
        self.nights[k].totals.push(totals.clone());
        self.understood.push(Understood {
            line,
            date,
            player,
            totals,
        });
        Ok(())
    }

    /// The row's date in the sheet's year (when its name has one) and in the season of the
    /// first row: one table holds one season.
    fn check_year(&mut self, row: &Row<'_>, date: NaiveDate) -> Result<(), SheetError> {
        match (self.sheet_year, self.year) {
            (Some(y), _) if date.year() != y => Err(row.err(
                Column::Datum,
                format!("{} liegt nicht im Jahr {y} des Blatts", date_de(date)),
            )),
            (None, Some((y, first))) if date.year() != y => Err(row.err(
                Column::Datum,
                format!(
                    "{} liegt nicht in der Saison {y} (Zeile {first}); eine Tabelle hält eine \
                     Saison, für mehrere ein Blatt je Jahr (2007, 2008, …)",
                    date_de(date)
                ),
            )),
            (_, None) => {
                self.year = Some((date.year(), row.row.line));
                Ok(())
            }
            _ => Ok(()),
        }
    }

    /// The row's "Beitrag bezahlt am" for `player`: one date per season (the same date again is
    /// fine, another one is refused naming both lines).
    fn fee_paid(&mut self, row: &Row<'_>, player: &str) -> Result<(), SheetError> {
        let Some(paid) = row.date(Column::BeitragBezahltAm)? else {
            return Ok(());
        };
        let k = self.names.by_key[&name_key(player)];
        match self.names.players[k].fee_paid_on {
            Some(before) if before != paid => Err(row.err(
                Column::BeitragBezahltAm,
                format!(
                    "{} bezahlt am {}, in Zeile {} am {}: ein Jahresbeitrag je Saison",
                    player,
                    date_de(paid),
                    self.fee_line.get(player).copied().unwrap_or(0),
                    date_de(before)
                ),
            )),
            Some(_) => Ok(()),
            None => {
                self.names.players[k].fee_paid_on = Some(paid);
                self.fee_line.insert(player.to_string(), row.row.line);
                Ok(())
            }
        }
    }
}

/// Where the rows of a sheet of night totals stand, to point a refusal of the season's check
/// at its line.
struct Lines {
    of: HashMap<(NaiveDate, String), usize>,
    first: HashMap<NaiveDate, usize>,
    fee: HashMap<String, usize>,
}

impl Lines {
    /// The line of `player` on `night`; of the night's first row; of the player's fee (or his
    /// first row).
    fn line(&self, night: Option<NaiveDate>, player: Option<&str>) -> Option<usize> {
        match (night, player) {
            (Some(d), Some(p)) => self.of.get(&(d, p.to_string())).copied(),
            (Some(d), None) => self.first.get(&d).copied(),
            (None, Some(p)) => self.fee.get(p).copied().or_else(|| {
                self.of
                    .iter()
                    .filter(|((_, q), _)| q == p)
                    .map(|(_, l)| *l)
                    .min()
            }),
            (None, None) => None,
        }
    }
}

/// The rows as the preview shows them understood: the sheet's columns with Outs gewertet
/// filled in where the sheet left it empty (the season's rules) and each player's fee date.
fn understood_rows(season: &Season, understood: Vec<Understood>) -> Vec<UnderstoodRow> {
    let fee = |p: &str| {
        season
            .player(p)
            .and_then(|x| x.fee_paid_on)
            .map(date_de)
            .unwrap_or_default()
    };
    understood
        .into_iter()
        .map(|u| {
            let t = &u.totals;
            let base =
                crate::league::model::season::base_points_of(&season.rules, t.outs, t.hand_outs);
            UnderstoodRow {
                line: u.line,
                cells: vec![
                    date_de(u.date),
                    u.player.clone(),
                    t.rounds.to_string(),
                    t.outs.to_string(),
                    t.hand_outs.to_string(),
                    t.julen.to_string(),
                    t.points.unwrap_or(base).to_string(),
                    t.lost.to_string(),
                    t.table.to_string(),
                    fee(&u.player),
                ],
            }
        })
        .collect()
}
