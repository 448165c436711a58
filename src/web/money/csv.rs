//! The CSV exports of a season for a German spreadsheet (`;`, decimal comma, UTF-8 with BOM, formula
//! cells neutralised): the table, the Kasse (with the players' Guthaben below) and the nights.

use axum::extract::Query;
use axum::http::header;
use axum::response::{IntoResponse, Response};
use chrono::NaiveDate;
use serde::Deserialize;

use crate::league::model::format::{date_de as de_date, de2};
use crate::league::{format_dwert, night_summary, Liga};
use crate::web::kit::at::{as_of_date, AtSeason};
use crate::web::kit::{AppError, Layout, Today};

use crate::web::kit::privacy::{money_gate, private_money};

/// Cents as a spreadsheet number with a decimal comma, no thousands separator, no sign of the
/// currency: 123450 → "1234,50", -5 → "-0,05".
pub fn csv_cents(cents: i64) -> String {
    let abs = cents.unsigned_abs();
    format!(
        "{}{},{:02}",
        if cents < 0 { "-" } else { "" },
        abs / 100,
        abs % 100
    )
}

/// A text cell made safe for spreadsheets: a leading `=`, `+`, `-`, `@`, tab or CR (which a
/// spreadsheet would run as a formula) gets a `'` in front.
pub fn csv_text(s: &str) -> String {
    match s.chars().next() {
        Some('=' | '+' | '-' | '@' | '\t' | '\r') => format!("'{s}"),
        _ => s.to_string(),
    }
}

/// The file name of an export: `schockerliga-2026-tabelle-2026-11-29.csv`.
pub fn csv_filename(year: i32, what: &str, today: NaiveDate) -> String {
    format!("schockerliga-{year}-{what}-{today}.csv")
}

/// `rows` as a CSV file for a German spreadsheet: UTF-8 with BOM, `;` separator, CRLF line ends;
/// rows may differ in length (a second table below the first; an empty row is an empty line).
pub fn csv_bytes(rows: &[Vec<String>]) -> Result<Vec<u8>, AppError> {
    let fail = |e: &dyn std::fmt::Display| AppError::Internal(format!("CSV: {e}"));
    let writer = |out: Vec<u8>| {
        csv::WriterBuilder::new()
            .delimiter(b';')
            .flexible(true)
            .terminator(csv::Terminator::CRLF)
            .from_writer(out)
    };
    let mut w = writer(Vec::from("\u{feff}".as_bytes()));
    for r in rows {
        if r.is_empty() {
            // An empty line (the writer would write `""` for an empty record).
            let mut out = w.into_inner().map_err(|e| fail(&e))?;
            out.extend_from_slice(b"\r\n");
            w = writer(out);
            continue;
        }
        w.write_record(r).map_err(|e| fail(&e))?;
    }
    w.into_inner().map_err(|e| fail(&e))
}

/// An attachment response of `rows` named [`csv_filename`] with the club's date `today`.
pub fn csv_response(
    year: i32,
    what: &str,
    rows: &[Vec<String>],
    today: NaiveDate,
) -> Result<Response, AppError> {
    let name = csv_filename(year, what, today);
    Ok((
        [
            (header::CONTENT_TYPE, "text/csv; charset=utf-8".to_string()),
            (
                header::CONTENT_DISPOSITION,
                format!("attachment; filename=\"{name}\""),
            ),
        ],
        csv_bytes(rows)?,
    )
        .into_response())
}

fn strings<const N: usize>(cells: [&str; N]) -> Vec<String> {
    cells.iter().map(|s| s.to_string()).collect()
}

/// The CSV query: an optional as-of date for the table.
#[derive(Deserialize)]
pub struct CsvQuery {
    /// `YYYY-MM-DD`; absent = the last night.
    pub as_of: Option<String>,
}

pub async fn table(
    Today(today): Today,
    at: AtSeason,
    Query(q): Query<CsvQuery>,
) -> Result<Response, AppError> {
    let as_of = as_of_date(q.as_of.as_deref())?;
    let year = at.year();
    let table = at.view.standings_on(as_of, today);
    let mut rows = vec![strings([
        "Liga",
        "Platz",
        "Name",
        "Runden",
        "Teilnahmen",
        "Schock Outs",
        "Hand-Outs",
        "Julen",
        "Julen-Outs",
        "offene Julen",
        "gewertete Outs",
        "D.Wert",
        "verlorene Runden",
        "bezahlte Runden",
    ])];
    for liga in [Liga::First, Liga::Second, Liga::Kreisliga] {
        for r in table.rows.iter().filter(|r| r.liga == liga) {
            rows.push(vec![
                liga.label().to_string(),
                r.rank.to_string(),
                csv_text(&r.player),
                r.rounds.to_string(),
                de2(r.teilnahmen),
                r.thrown_outs.to_string(),
                r.hand_outs.to_string(),
                r.julen.to_string(),
                r.julen_outs.to_string(),
                r.open_julen.to_string(),
                r.counted_outs.to_string(),
                format_dwert(r.d_wert_num, r.d_wert_den),
                r.lost_rounds.to_string(),
                r.paid_rounds.to_string(),
            ]);
        }
    }
    csv_response(year, "tabelle", &rows, today)
}

pub async fn kasse(layout: Layout, at: AtSeason) -> Result<Response, AppError> {
    let today = layout.today;
    if let Some(to_login) = money_gate(&at.snapshot, &layout) {
        return Ok(to_login);
    }
    let year = at.year();
    let chained = at.snapshot.chained_on(year, today)?;
    let k = crate::league::money::kasse::kasse(&at.view.season, chained.payouts.carry_in_cents);
    let mut rows = vec![strings([
        "Name",
        "Beitrag bezahlt am",
        "Beitrag (EUR)",
        "Strafen bezahlt (Anzahl)",
        "Strafen bezahlt (EUR)",
        "Strafen offen (Anzahl)",
        "Strafen offen (EUR)",
        "eingezahlt (EUR)",
    ])];
    for l in k.lines.iter().chain(std::iter::once(&k.total)) {
        rows.push(vec![
            csv_text(&l.player),
            l.fee_paid_on.map(de_date).unwrap_or_default(),
            csv_cents(l.fee_cents),
            l.fines_paid.to_string(),
            csv_cents(l.fines_paid_cents),
            l.fines_open.to_string(),
            csv_cents(l.fines_open_cents),
            csv_cents(l.paid_cents()),
        ]);
    }
    // The Guthaben as the Kasse page shows it (issue 34.1): a table of its own below, each
    // player with Guthaben by name and the sum; owed to the players, not part of "eingezahlt".
    let season = &at.view.season;
    let mut credits: Vec<(&str, i64)> = season
        .credits()
        .into_iter()
        .filter(|(_, c)| *c > 0)
        .collect();
    credits.sort();
    rows.push(Vec::new());
    rows.push(strings(["Name", "Guthaben (EUR)"]));
    for (name, cents) in &credits {
        rows.push(vec![csv_text(name), csv_cents(*cents)]);
    }
    let total = credits.iter().map(|(_, c)| c).sum();
    rows.push(vec!["Summe Guthaben".to_string(), csv_cents(total)]);
    Ok(private_money(
        &at.snapshot,
        csv_response(year, "kasse", &rows, today)?,
    ))
}

pub async fn nights(layout: Layout, at: AtSeason) -> Result<Response, AppError> {
    let today = layout.today;
    if let Some(to_login) = money_gate(&at.snapshot, &layout) {
        return Ok(to_login);
    }
    let year = at.year();
    let season = &at.view.season;
    let mut rows = vec![strings([
        "Datum",
        "Tisch",
        "Name",
        "Runden",
        "Schock Outs",
        "Hand-Outs",
        "Julen",
        "Julen-Outs",
        "gewertete Outs",
        "Joker-Runde",
        "verlorene Runden",
        "bezahlte Runden",
        "Sozialfall",
        "Strafen bezahlt (EUR)",
        "Strafen offen (EUR)",
    ])];
    for night in &season.nights {
        let Some(summary) = night_summary(season, night.date) else {
            continue;
        };
        let fines_of = |player: &str, paid: bool| {
            csv_cents(
                night
                    .fines
                    .iter()
                    .filter(|f| f.player == player && f.paid == paid)
                    .map(|f| f.amount_cents)
                    .sum(),
            )
        };
        for p in &summary.players {
            rows.push(vec![
                de_date(night.date),
                p.table.to_string(),
                csv_text(&p.player),
                p.rounds.to_string(),
                p.outs.to_string(),
                p.hand_outs.to_string(),
                p.julen.to_string(),
                p.julen_outs.to_string(),
                p.counted_outs.to_string(),
                p.joker_round.map(|r| r.to_string()).unwrap_or_default(),
                p.lost_rounds.to_string(),
                p.paid_rounds.to_string(),
                if p.sozialfall { "ja" } else { "" }.to_string(),
                fines_of(&p.player, true),
                fines_of(&p.player, false),
            ]);
        }
        // fined players who did not play that night
        let mut others: Vec<&str> = night
            .fines
            .iter()
            .map(|f| f.player.as_str())
            .filter(|n| summary.players.iter().all(|p| p.player != *n))
            .collect();
        others.sort_unstable();
        others.dedup();
        for name in others {
            let mut row = vec![de_date(night.date), String::new(), csv_text(name)];
            row.extend(std::iter::repeat_n("0".to_string(), 6));
            row.extend([String::new(), "0".into(), "0".into(), String::new()]);
            row.push(fines_of(name, true));
            row.push(fines_of(name, false));
            rows.push(row);
        }
    }
    Ok(private_money(
        &at.snapshot,
        csv_response(year, "abende", &rows, today)?,
    ))
}

#[cfg(test)]
mod tests;
