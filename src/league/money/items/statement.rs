//! A bank statement read in (issue 34.3): the entries of a CAMT.053 file (versions .001.02 to
//! .001.08, [`camt`]) or of a German bank's CSV export (Sparkasse CSV-CAMT and CSV-MT940,
//! [`bank_csv`]), each credit matched to a player of the season ([`matching`]: the RF reference,
//! then the purpose "Schockerliga YEAR NAME", else a suggestion only), and the key under which a
//! read entry is remembered so a statement read again books nothing twice ([`Entry::hash`]).
//! Pure: bytes in, entries out; the booking is the service's (`service::interchange::statement`).

pub mod bank_csv;
pub mod camt;
pub mod matching;

use chrono::NaiveDate;
use sha2::{Digest, Sha256};

/// One entry of a statement: a credit (`cents` > 0) or a debit (`cents` < 0).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    /// Where it stands in the file, German ("Zeile 12"), for messages.
    pub at: String,
    /// The booking day (CAMT `BookgDt`, CSV "Buchungstag").
    pub date: NaiveDate,
    /// The amount in cents: positive for a credit (money in), negative for a debit.
    pub cents: i64,
    /// The purpose as the payer typed it (CAMT `RmtInf/Ustrd`, several joined by a space; CSV
    /// "Verwendungszweck"), white space collapsed.
    pub purpose: String,
    /// The structured creditor reference (CAMT `RmtInf/Strd/CdtrRefInf/Ref`), if any.
    pub reference: Option<String>,
    /// The other party's name (the debtor of a credit, the creditor of a debit).
    pub counterparty: String,
    /// The bank's own reference of the entry (CAMT `NtryRef`, else `AcctSvcrRef`); `None` in
    /// the CSV exports.
    pub bank_ref: Option<String>,
    /// How many entries before this one in the file have the same day, amount, purpose and
    /// counterparty (0 for the first): two equal transfers on one day stay two.
    pub twin: usize,
}

impl Entry {
    /// The entry's fingerprint without the bank's reference: SHA-256 (hex) of its day, amount,
    /// counterparty (case and white space folded), the letters of its purpose and structured
    /// reference together (case and white space folded, in sorted order: the CAMT's
    /// `Ustrd` lines joined or the reference written into a CSV export's purpose give the same)
    /// and its [`Entry::twin`] number. The same transfer gives the same hash in every format a
    /// bank exports it in.
    pub fn hash(&self) -> String {
        let fold = |s: &str| -> String {
            s.chars()
                .filter(|c| !c.is_whitespace())
                .flat_map(char::to_lowercase)
                .collect()
        };
        let mut letters: Vec<char> = fold(&format!(
            "{}{}",
            self.purpose,
            self.reference.as_deref().unwrap_or("")
        ))
        .chars()
        .collect();
        letters.sort_unstable();
        let text = format!(
            "{}|{}|{}|{}|{}",
            self.date,
            self.cents,
            letters.into_iter().collect::<String>(),
            fold(&self.counterparty),
            self.twin
        );
        Sha256::digest(text.as_bytes())
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect()
    }

    /// Money in: a credit.
    pub fn is_credit(&self) -> bool {
        self.cents > 0
    }
}

/// A statement as read: the format found and its booked entries in file order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Statement {
    /// The format, German for the page: "CAMT.053.001.08", "Sparkasse CSV-CAMT", "CSV-MT940".
    pub format: String,
    /// The booked entries (pending ones, "vorgemerkt", left out).
    pub entries: Vec<Entry>,
}

/// Why a file is no statement that can be read: where (line, element or column) and why, German.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{at}: {why}")]
pub struct StatementError {
    /// Where: "Zeile 12, Element Ntry/Amt", "Zeile 3, Spalte Betrag", or the file.
    pub at: String,
    /// Why, German.
    pub why: String,
}

impl StatementError {
    /// The refusal at `at` for `why`.
    pub fn new(at: impl Into<String>, why: impl Into<String>) -> StatementError {
        StatementError {
            at: at.into(),
            why: why.into(),
        }
    }
}

/// The most entries a statement may hold (a club's account has a few hundred a year): each
/// credit is booked through the whole season's check, so ten thousand took minutes and
/// gigabytes (debug build: 10,500 entries, 53 s preview, 150 s and 1.6 GB booking).
pub const MAX_ENTRIES: usize = 2000;

/// Reads the statement `bytes` of the file `name`: XML (after a BOM and white space, a `<`) as
/// CAMT.053, anything else as a bank's CSV export. Errors: [`StatementError`] naming the line and
/// element or column and why (not CAMT.053 of a known version, a day or amount that is none, a
/// currency other than EUR, no header of a known export, no entries at all).
pub fn read(name: &str, bytes: &[u8]) -> Result<Statement, StatementError> {
    let body = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    let first = body.iter().find(|b| !b.is_ascii_whitespace());
    let mut statement = if first == Some(&b'<') {
        camt::read(body)?
    } else {
        bank_csv::read(bytes)?
    };
    if statement.entries.is_empty() {
        return Err(StatementError::new(
            name,
            "keine gebuchten Umsätze in der Datei",
        ));
    }
    if statement.entries.len() > MAX_ENTRIES {
        return Err(StatementError::new(
            name,
            format!(
                "{} Umsätze, mehr als {MAX_ENTRIES} in einer Datei: bitte den Kontoauszug in \
                 kürzeren Zeiträumen (z. B. je Quartal) exportieren",
                statement.entries.len()
            ),
        ));
    }
    number_twins(&mut statement.entries);
    Ok(statement)
}

/// Sets each entry's [`Entry::twin`]: the count of earlier entries equal in day, amount,
/// purpose and counterparty.
fn number_twins(entries: &mut [Entry]) {
    let mut seen: std::collections::HashMap<String, usize> = std::collections::HashMap::new();
    for e in entries.iter_mut() {
        e.twin = 0;
        let n = seen.entry(e.hash()).or_insert(0);
        e.twin = *n;
        *n += 1;
    }
}

/// Cents of a decimal amount: `sep` the decimal separator ('.' in CAMT, ',' in the CSV exports),
/// `group` a thousands separator allowed before it in groups of three (None: none), at most two decimals, an
/// optional leading sign. `None` for anything else.
pub fn cents_of(text: &str, sep: char, group: Option<char>) -> Option<i64> {
    let t = text.trim();
    let (negative, t) = match t.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, t.strip_prefix('+').unwrap_or(t)),
    };
    let (whole, frac) = match t.split_once(sep) {
        Some((w, f)) => (w, f),
        None => (t, ""),
    };
    let digits = |s: &str| !s.is_empty() && s.chars().all(|c| c.is_ascii_digit());
    // Grouped thousands only in groups of three ("1.234,56"; "1.00" is no German amount).
    let whole: String = match group {
        Some(g) if whole.contains(g) => {
            let mut groups = whole.split(g);
            let first = groups.next().unwrap_or("");
            if first.len() > 3 || groups.clone().any(|x| x.len() != 3) {
                return None;
            }
            whole.chars().filter(|c| *c != g).collect()
        }
        _ => whole.to_string(),
    };
    if !digits(&whole) || frac.len() > 2 || (!frac.is_empty() && !digits(frac)) {
        return None;
    }
    let euros: i64 = whole.parse().ok()?;
    let cents: i64 = format!("{frac:0<2}").parse().ok()?;
    let total = euros.checked_mul(100)?.checked_add(cents)?;
    Some(if negative { -total } else { total })
}

/// Text with its white space runs made one space, trimmed.
pub fn collapse(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
mod tests;
