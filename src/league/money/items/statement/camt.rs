//! CAMT.053 (ISO 20022 `BkToCstmrStmt`, versions .001.02 to .001.08, as German banks export them):
//! each `Ntry` with `CdtDbtInd` CRDT (a credit) or DBIT (a debit), its booking day (`BookgDt/Dt`
//! or `BookgDt/DtTm`), amount (`Amt`, EUR), the bank's reference (`NtryRef`, else
//! `AcctSvcrRef`), the purpose (`RmtInf/Ustrd`, several joined), the structured reference
//! (`RmtInf/Strd/CdtrRefInf/Ref`) and the other party's name (`RltdPties/Dbtr/Nm`, in .08
//! `RltdPties/Dbtr/Pty/Nm`; `Cdtr` for a debit). Pending entries (`Sts` PDNG, INFO) are left out.

use chrono::NaiveDate;
use quick_xml::events::Event;

use super::{cents_of, collapse, Entry, Statement, StatementError};

/// The namespace of CAMT.053 without its version: `…camt.053.001.` + `02` … `08`.
const NAMESPACE: &str = "urn:iso:std:iso:20022:tech:xsd:camt.053.001.";

/// What one `Ntry` holds while it is read.
#[derive(Default)]
struct Ntry {
    line: usize,
    amount: Option<(String, usize, String)>,
    indicator: Option<(String, usize)>,
    status: String,
    date: Option<(String, usize)>,
    ntry_ref: Option<String>,
    svcr_ref: Option<String>,
    ustrd: Vec<String>,
    reference: Option<String>,
    debtor: Option<String>,
    creditor: Option<String>,
}

/// The CAMT.053 document `bytes` (its declared encoding, UTF-8 when none) as a [`Statement`].
/// Errors (German, with line and element): not XML, not CAMT.053 .001.02 to .001.08, an entry
/// without or with a bad day, amount or credit/debit sign, a currency other than EUR.
pub fn read(bytes: &[u8]) -> Result<Statement, StatementError> {
    let text = decoded(bytes);
    let mut xml = quick_xml::Reader::from_str(&text);
    let mut path: Vec<String> = Vec::new();
    let mut version = None;
    let mut entries = Vec::new();
    let mut ntry: Option<Ntry> = None;
    let mut lines = Lines::default();
    let mut line_at = |pos: u64| lines.at(text.as_bytes(), pos);
    loop {
        let pos = xml.buffer_position();
        let event = xml.read_event().map_err(|e| {
            StatementError::new(
                format!("Zeile {}", line_at(xml.error_position())),
                format!("kein lesbares XML ({e})"),
            )
        })?;
        match event {
            Event::Start(e) | Event::Empty(e) if path.is_empty() => {
                let ns = attr(&e, "xmlns");
                let v = ns.strip_prefix(NAMESPACE).unwrap_or("");
                if e.local_name().as_ref() != "Document"
                    || !["02", "03", "04", "05", "06", "07", "08"].contains(&v)
                {
                    return Err(StatementError::new(
                        format!(
                            "Zeile {}, Element {}",
                            line_at(pos),
                            e.local_name().as_ref()
                        ),
                        format!(
                            "kein Kontoauszug im Format CAMT.053 (Version .001.02 bis .001.08; \
                             Namensraum „{ns}“)"
                        ),
                    ));
                }
                version = Some(v.to_string());
                path.push("Document".to_string());
            }
            Event::Start(e) => {
                let name = e.local_name().as_ref().to_string();
                if name == "Ntry" && path.last().map(String::as_str) == Some("Stmt") {
                    ntry = Some(Ntry {
                        line: line_at(pos),
                        ..Ntry::default()
                    });
                }
                if name == "Ustrd" {
                    if let Some(n) = ntry.as_mut() {
                        n.ustrd.push(String::new());
                    }
                }
                if name == "Amt" {
                    if let Some(n) = ntry
                        .as_mut()
                        .filter(|_| path.last().is_some_and(|p| p == "Ntry"))
                    {
                        let ccy = attr(&e, "Ccy");
                        n.amount = Some((String::new(), line_at(pos), ccy));
                    }
                }
                path.push(name);
            }
            Event::End(_) => {
                if path.last().map(String::as_str) == Some("Ntry") && path.len() >= 2 {
                    if let Some(n) = ntry.take() {
                        if let Some(entry) = finish(n)? {
                            entries.push(entry);
                        }
                    }
                }
                path.pop();
            }
            Event::Text(t) => {
                if let Some(n) = ntry.as_mut() {
                    take_text(n, &path, &t.xml10_content(), line_at(pos));
                }
            }
            Event::GeneralRef(r) => {
                let resolved = match r.resolve_char_ref() {
                    Ok(Some(c)) => c.to_string(),
                    _ => quick_xml::escape::unescape(&format!("&{};", &*r))
                        .map(|c| c.into_owned())
                        .unwrap_or_default(),
                };
                if let Some(n) = ntry.as_mut() {
                    take_text(n, &path, &resolved, line_at(pos));
                }
            }
            Event::CData(t) => {
                if let Some(n) = ntry.as_mut() {
                    let s = t.xml10_content().into_owned();
                    take_text(n, &path, &s, line_at(pos));
                }
            }
            Event::Eof => break,
            _ => {}
        }
    }
    let Some(version) = version else {
        return Err(StatementError::new(
            "Zeile 1",
            "kein Kontoauszug im Format CAMT.053 (kein Element Document)",
        ));
    };
    Ok(Statement {
        format: format!("CAMT.053.001.{version}"),
        entries,
    })
}

/// The line of a byte position, counted on from the last one asked (the reader's positions only
/// grow; an earlier one is counted from the start): linear in the file, not quadratic.
#[derive(Default)]
struct Lines {
    pos: usize,
    line: usize,
}

impl Lines {
    /// The 1-based line of byte `pos` of `bytes`.
    fn at(&mut self, bytes: &[u8], pos: u64) -> usize {
        let pos = (pos as usize).min(bytes.len());
        if pos < self.pos {
            *self = Lines::default();
        }
        self.line += bytes[self.pos..pos].iter().filter(|b| **b == b'\n').count();
        self.pos = pos;
        self.line + 1
    }
}

/// The value of attribute `key` of `e` (references resolved), "" when absent.
fn attr(e: &quick_xml::events::BytesStart<'_>, key: &str) -> String {
    e.attributes()
        .flatten()
        .find(|a| a.key.as_ref() == key)
        .map(|a| match quick_xml::escape::unescape(&a.value) {
            Ok(v) => v.into_owned(),
            Err(_) => a.value.into_owned(),
        })
        .unwrap_or_default()
}

/// The document as text: in its declared encoding (`<?xml … encoding="ISO-8859-1"?>`), else
/// UTF-8 (bytes that are none replaced).
fn decoded(bytes: &[u8]) -> String {
    let head = String::from_utf8_lossy(&bytes[..bytes.len().min(200)]).to_ascii_lowercase();
    let label = head
        .split_once("encoding=")
        .and_then(|(_, rest)| {
            let quote = rest.chars().next()?;
            rest.get(1..)?.split(quote).next().map(str::to_string)
        })
        .unwrap_or_default();
    let encoding = encoding_rs::Encoding::for_label(label.as_bytes()).unwrap_or(encoding_rs::UTF_8);
    encoding.decode_with_bom_removal(bytes).0.into_owned()
}

/// Takes the text `s` at `path` (the element names from the root) into the entry `n`.
fn take_text(n: &mut Ntry, path: &[String], s: &str, line: usize) {
    let Some(at) = path.iter().rposition(|p| p == "Ntry") else {
        return;
    };
    let rel: Vec<&str> = path[at + 1..].iter().map(String::as_str).collect();
    let append = |slot: &mut Option<String>| slot.get_or_insert_with(String::new).push_str(s);
    match rel.as_slice() {
        ["Amt"] => {
            if let Some(a) = n.amount.as_mut() {
                a.0.push_str(s);
            }
        }
        ["CdtDbtInd"] => {
            let i = n.indicator.get_or_insert_with(|| (String::new(), line));
            i.0.push_str(s);
        }
        ["Sts"] | ["Sts", "Cd"] => n.status.push_str(s),
        ["BookgDt", "Dt"] | ["BookgDt", "DtTm"] => {
            let d = n.date.get_or_insert_with(|| (String::new(), line));
            d.0.push_str(s);
        }
        ["NtryRef"] => append(&mut n.ntry_ref),
        ["AcctSvcrRef"] => append(&mut n.svcr_ref),
        [.., "RmtInf", "Ustrd"] => {
            if let Some(last) = n.ustrd.last_mut() {
                last.push_str(s);
            }
        }
        [.., "RmtInf", "Strd", "CdtrRefInf", "Ref"] => append(&mut n.reference),
        [.., "RltdPties", "Dbtr", "Nm"] | [.., "RltdPties", "Dbtr", "Pty", "Nm"] => {
            append(&mut n.debtor)
        }
        [.., "RltdPties", "Cdtr", "Nm"] | [.., "RltdPties", "Cdtr", "Pty", "Nm"] => {
            append(&mut n.creditor)
        }
        _ => {}
    }
}

/// The entry `n` as read, `None` for a pending one; refused (German, line and element) without
/// a sign, day or amount that can be read, or in a currency other than EUR.
fn finish(n: Ntry) -> Result<Option<Entry>, StatementError> {
    let status = n.status.trim();
    if status == "PDNG" || status == "INFO" {
        return Ok(None);
    }
    let at = |line: usize, element: &str| format!("Zeile {line}, Element Ntry/{element}");
    let (indicator, iline) = n.indicator.unwrap_or_default();
    let sign = match indicator.trim() {
        "CRDT" => 1,
        "DBIT" => -1,
        other => {
            return Err(StatementError::new(
                at(if iline > 0 { iline } else { n.line }, "CdtDbtInd"),
                format!("„{other}“ ist weder CRDT (Gutschrift) noch DBIT (Lastschrift)"),
            ))
        }
    };
    let Some((amount, aline, ccy)) = n.amount else {
        return Err(StatementError::new(at(n.line, "Amt"), "Betrag fehlt"));
    };
    if !ccy.is_empty() && ccy != "EUR" {
        return Err(StatementError::new(
            at(aline, "Amt"),
            format!("Währung {ccy}: die Kasse rechnet nur in EUR"),
        ));
    }
    let cents = cents_of(&amount, '.', None)
        .filter(|c| *c > 0)
        .ok_or_else(|| {
            StatementError::new(
                at(aline, "Amt"),
                format!("„{}“ ist kein Betrag (erwartet z. B. 25.00)", amount.trim()),
            )
        })?;
    let (day, dline) = n.date.unwrap_or_default();
    let date = day
        .trim()
        .get(..10)
        .and_then(|d| NaiveDate::parse_from_str(d, "%Y-%m-%d").ok())
        .ok_or_else(|| {
            StatementError::new(
                at(if dline > 0 { dline } else { n.line }, "BookgDt"),
                format!(
                    "„{}“ ist kein Buchungstag (erwartet JJJJ-MM-TT)",
                    day.trim()
                ),
            )
        })?;
    let party = if sign > 0 { n.debtor } else { n.creditor };
    Ok(Some(Entry {
        at: format!("Zeile {}", n.line),
        date,
        cents: sign * cents,
        purpose: collapse(&n.ustrd.join(" ")),
        reference: n.reference.map(|r| collapse(&r)).filter(|r| !r.is_empty()),
        counterparty: collapse(&party.unwrap_or_default()),
        bank_ref: n
            .ntry_ref
            .or(n.svcr_ref)
            .map(|r| r.trim().to_string())
            // Placeholders some banks write instead of a reference.
            .filter(|r| !r.is_empty() && !["NOTPROVIDED", "NONREF", "NONE"].contains(&r.as_str())),
        twin: 0,
    }))
}
