//! The CSV exports of German banks: Sparkasse "CSV-CAMT" and "CSV-MT940" (and the like of other
//! banks with the same column names): `;` separated, Windows-1252 (UTF-8 when the file is
//! valid UTF-8), a header row, days `TT.MM.JJ` (or `TT.MM.JJJJ`), amounts "25,00" / "-3,50"
//! (a `.` grouping thousands allowed). The columns are found by their header: the booking day
//! ("Buchungstag"), the purpose ("Verwendungszweck"), the other party
//! ("Beguenstigter/Zahlungspflichtiger") and the amount ("Betrag"); "Waehrung" and "Info"
//! (a pending "Umsatz vorgemerkt" is left out) when present.

use chrono::NaiveDate;

use super::{cents_of, collapse, Entry, Statement, StatementError};

/// The header names of each column the reader needs (folded: lower case, ä → ae, no spaces).
const DAY: &[&str] = &["buchungstag", "buchungsdatum"];
const PURPOSE: &[&str] = &["verwendungszweck"];
const PARTY: &[&str] = &[
    "beguenstigter/zahlungspflichtiger",
    "namezahlungsbeteiligter",
    "auftraggeber/beguenstigter",
];
const AMOUNT: &[&str] = &["betrag", "betrag(eur)", "betrag(€)"];
const CURRENCY: &[&str] = &["waehrung"];
const INFO: &[&str] = &["info"];

/// The text of `bytes`: UTF-8 (without BOM) when it is valid UTF-8, else Windows-1252.
fn text_of(bytes: &[u8]) -> String {
    let body = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    match std::str::from_utf8(body) {
        Ok(s) => s.to_string(),
        Err(_) => encoding_rs::WINDOWS_1252.decode(body).0.into_owned(),
    }
}

/// A header cell folded for comparison.
fn fold(header: &str) -> String {
    header
        .trim()
        .to_lowercase()
        .replace('ä', "ae")
        .replace('ö', "oe")
        .replace('ü', "ue")
        .replace(char::is_whitespace, "")
}

/// The column of the first header in `names`, if any.
fn column(headers: &[String], names: &[&str]) -> Option<usize> {
    headers.iter().position(|h| names.contains(&h.as_str()))
}

/// The kind of export the header shows, for the page.
fn format_of(headers: &[String]) -> &'static str {
    if column(headers, &["glaeubigerid", "kundenreferenz(end-to-end)"]).is_some() {
        "Sparkasse CSV-CAMT"
    } else if column(headers, &["blz"]).is_some() {
        "CSV-MT940"
    } else {
        "CSV"
    }
}

/// A day `TT.MM.JJ` (20JJ) or `TT.MM.JJJJ`.
pub fn day_of(text: &str) -> Option<NaiveDate> {
    let t = text.trim();
    let mut parts = t.split('.');
    let (d, m, y) = (parts.next()?, parts.next()?, parts.next()?);
    if parts.next().is_some() || d.len() > 2 || m.len() > 2 {
        return None;
    }
    let year: i32 = match y.len() {
        2 => 2000 + y.parse::<i32>().ok()?,
        4 => y.parse().ok()?,
        _ => return None,
    };
    NaiveDate::from_ymd_opt(year, m.parse().ok()?, d.parse().ok()?)
}

/// The bank's CSV export `bytes` as a [`Statement`]. Errors (German, with line and column): no
/// header with the columns Buchungstag, Verwendungszweck, Beguenstigter/Zahlungspflichtiger and
/// Betrag; a line the CSV reader cannot read; a day or amount that is none; a currency other
/// than EUR.
pub fn read(bytes: &[u8]) -> Result<Statement, StatementError> {
    let text = text_of(bytes);
    let mut reader = csv::ReaderBuilder::new()
        .delimiter(b';')
        .has_headers(false)
        .flexible(true)
        .from_reader(text.as_bytes());
    let mut records = reader.records();
    // The header: the first line that names the columns (Sparkasse puts none above it; other
    // banks a few lines of account data, skipped).
    let mut header = None;
    let mut lines_seen = 0;
    for record in records.by_ref() {
        lines_seen += 1;
        let record = record.map_err(|e| unreadable(&e))?;
        let folded: Vec<String> = record.iter().map(fold).collect();
        if column(&folded, DAY).is_some() && column(&folded, AMOUNT).is_some() {
            header = Some(folded);
            break;
        }
        if lines_seen >= 20 {
            break;
        }
    }
    let missing = || {
        StatementError::new(
            "Zeile 1",
            "weder CAMT.053 noch ein CSV-Export einer Bank: keine Kopfzeile mit den Spalten \
             Buchungstag, Verwendungszweck, Beguenstigter/Zahlungspflichtiger und Betrag",
        )
    };
    let headers = header.ok_or_else(missing)?;
    let need = |names: &[&str]| column(&headers, names).ok_or_else(missing);
    let (day, purpose, party, amount) = (need(DAY)?, need(PURPOSE)?, need(PARTY)?, need(AMOUNT)?);
    let (currency, info) = (column(&headers, CURRENCY), column(&headers, INFO));
    let mut entries = Vec::new();
    for record in records {
        let record = record.map_err(|e| unreadable(&e))?;
        let line = record.position().map_or(0, |p| p.line());
        if record.iter().all(|c| c.trim().is_empty()) {
            continue;
        }
        let cell = |i: usize| record.get(i).unwrap_or("").trim();
        let at = |col: &str| format!("Zeile {line}, Spalte {col}");
        if info.is_some_and(|i| cell(i).to_lowercase().contains("vorgemerkt")) {
            continue;
        }
        if let Some(c) = currency.map(cell).filter(|c| !c.is_empty() && *c != "EUR") {
            return Err(StatementError::new(
                at("Waehrung"),
                format!("Währung {c}: die Kasse rechnet nur in EUR"),
            ));
        }
        let date = day_of(cell(day)).ok_or_else(|| {
            StatementError::new(
                at("Buchungstag"),
                format!("„{}“ ist kein Tag (erwartet TT.MM.JJ)", cell(day)),
            )
        })?;
        let cents = cents_of(cell(amount), ',', Some('.'))
            .filter(|c| *c != 0)
            .ok_or_else(|| {
                StatementError::new(
                    at("Betrag"),
                    format!(
                        "„{}“ ist kein Betrag (erwartet z. B. 25,00 oder -3,50)",
                        cell(amount)
                    ),
                )
            })?;
        entries.push(Entry {
            at: format!("Zeile {line}"),
            date,
            cents,
            purpose: collapse(cell(purpose)),
            reference: None,
            counterparty: collapse(cell(party)),
            bank_ref: None,
            twin: 0,
        });
    }
    Ok(Statement {
        format: format_of(&headers).to_string(),
        entries,
    })
}

/// The CSV reader's refusal of a line, German.
fn unreadable(e: &csv::Error) -> StatementError {
    let line = e.position().map_or(0, |p| p.line());
    StatementError::new(
        format!("Zeile {line}"),
        format!("keine lesbare CSV-Zeile ({e})"),
    )
}
