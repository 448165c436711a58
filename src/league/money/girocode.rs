//! The GiroCode of a money card (EPC069-12 "Quick Response Code: guidelines to enable data
//! capture for the initiation of a SEPA credit transfer", version 002): the text a banking app
//! reads from the QR code, and the checks of what goes into it — the IBAN with its ISO 13616
//! mod-97 checksum (the `iban_validate` crate, which also knows each country's length), the BIC,
//! the payee's name, the amount and the reference. Pure code; the QR code itself is drawn by the
//! web (`web::money`).

use iban::{Iban, IbanLike, ParseIbanError};

/// Longest payee name of a GiroCode (EPC069-12: 70 characters).
pub const MAX_NAME_CHARS: usize = 70;
/// Longest unstructured reference ("Verwendungszweck") of a GiroCode (EPC069-12: 140 characters).
pub const MAX_REFERENCE_CHARS: usize = 140;
/// Largest amount of a GiroCode in cents (EPC069-12: 999999999.99 EUR).
pub const MAX_CENTS: i64 = 99_999_999_999;

/// An IBAN as typed ("DE89 3704 0044 0532 0130 00", any case) in its electronic format
/// ("DE89370400440532013000"), checked: country code, length and layout of the country, and the
/// ISO 13616 mod-97 check digits. `Err` is the German reason.
pub fn check_iban(input: &str) -> Result<String, String> {
    let compact: String = input
        .chars()
        .filter(|c| !c.is_whitespace())
        .collect::<String>()
        .to_uppercase();
    if compact.is_empty() {
        return Err("IBAN fehlt.".to_string());
    }
    let shaped = (15..=34).contains(&compact.len())
        && compact.chars().take(2).all(|c| c.is_ascii_uppercase())
        && compact.chars().skip(2).take(2).all(|c| c.is_ascii_digit())
        && compact.chars().all(|c| c.is_ascii_alphanumeric());
    let country: String = compact.chars().take(2).collect();
    if !shaped {
        return Err(format!(
            "IBAN {compact}: keine IBAN (zwei Buchstaben Land, zwei Prüfziffern, 11 bis 30 \
             Buchstaben oder Ziffern)."
        ));
    }
    if mod97(&compact) == Some(false) {
        return Err(format!(
            "IBAN {compact}: die Prüfziffern stimmen nicht (ISO 13616, Modulo 97)."
        ));
    }
    match compact.parse::<Iban>() {
        Ok(iban) => Ok(iban.electronic_str().to_string()),
        Err(ParseIbanError::UnknownCountry(_)) => Err(format!(
            "IBAN {compact}: das Land {country} kennt keine IBAN."
        )),
        Err(ParseIbanError::InvalidBban(_)) => Err(format!(
            "IBAN {compact}: Länge oder Aufbau passen nicht zum Land {country}."
        )),
        Err(ParseIbanError::InvalidBaseIban { .. }) => Err(format!(
            "IBAN {compact}: keine IBAN (zwei Buchstaben Land, zwei Prüfziffern, 11 bis 30 \
             Buchstaben oder Ziffern)."
        )),
    }
}

/// The ISO 13616 check of an IBAN in electronic format: the first four characters moved to the
/// end, letters as numbers (A = 10 … Z = 35), the number mod 97 is 1. `None` when it is not made
/// of letters and digits only.
pub fn mod97(iban: &str) -> Option<bool> {
    if iban.len() < 5 || !iban.chars().all(|c| c.is_ascii_alphanumeric()) {
        return None;
    }
    let (head, tail) = iban.split_at(4);
    let mut rest: u32 = 0;
    for c in tail.chars().chain(head.chars()) {
        let v = c.to_digit(36)?;
        rest = if v < 10 {
            (rest * 10 + v) % 97
        } else {
            (rest * 100 + v) % 97
        };
    }
    Some(rest == 1)
}

/// A BIC as typed (any case, spaces ignored) in capitals, or empty when none was typed (a
/// GiroCode of version 002 needs none within the EEA): 4 letters bank, 2 letters country, 2
/// letters or digits location, optionally 3 letters or digits branch. `Err` is the German reason.
pub fn check_bic(input: &str) -> Result<String, String> {
    let bic: String = input
        .chars()
        .filter(|c| !c.is_whitespace())
        .collect::<String>()
        .to_uppercase();
    if bic.is_empty() {
        return Ok(bic);
    }
    let ok = (bic.len() == 8 || bic.len() == 11)
        && bic.chars().take(6).all(|c| c.is_ascii_uppercase())
        && bic.chars().skip(6).all(|c| c.is_ascii_alphanumeric());
    if ok {
        Ok(bic)
    } else {
        Err(format!(
            "BIC {bic}: 8 oder 11 Zeichen (4 Buchstaben Bank, 2 Buchstaben Land, 2 Zeichen Ort, \
             optional 3 Zeichen Filiale)."
        ))
    }
}

/// The payee's name as typed, trimmed: 1 to [`MAX_NAME_CHARS`] characters without line breaks,
/// other control characters or invisible ones (bidi overrides). `Err` is the German reason.
pub fn check_name(input: &str) -> Result<String, String> {
    let name = input.trim();
    if name.is_empty() || name.chars().count() > MAX_NAME_CHARS {
        return Err(format!(
            "Kontoinhaber: 1 bis {MAX_NAME_CHARS} Zeichen (so wie bei der Bank)."
        ));
    }
    if name.chars().any(char::is_control) {
        return Err("Kontoinhaber: keine Zeilenumbrüche oder Steuerzeichen.".to_string());
    }
    // Invisible and bidi characters (U+202E) would turn the name around on the money card.
    crate::league::model::names::check_name_chars(name)
        .map_err(|why| format!("Kontoinhaber {why}."))?;
    Ok(name.to_string())
}

/// A PayPal.me name as typed ("schockerliga", "paypal.me/schockerliga",
/// "https://www.paypal.me/Schockerliga/"), or empty when none was typed: 1–20 letters or digits.
/// `Err` is the German reason.
pub fn check_paypal_me(input: &str) -> Result<String, String> {
    let s = input.trim().trim_end_matches('/');
    let s = s
        .strip_prefix("https://")
        .or_else(|| s.strip_prefix("http://"))
        .unwrap_or(s);
    let s = s.strip_prefix("www.").unwrap_or(s);
    let lower = s.to_ascii_lowercase();
    let name = if lower.starts_with("paypal.me/") {
        &s["paypal.me/".len()..]
    } else {
        s
    };
    if name.is_empty() {
        return Ok(String::new());
    }
    if name.len() <= 20 && name.chars().all(|c| c.is_ascii_alphanumeric()) {
        Ok(name.to_string())
    } else {
        Err(format!(
            "PayPal.me: \"{}\" ist kein PayPal.me-Name (1 bis 20 Buchstaben oder Ziffern).",
            input.trim()
        ))
    }
}

/// The reference of a player's payment: "Schockerliga 2026 Anna" (at most
/// [`MAX_REFERENCE_CHARS`] characters).
pub fn reference(year: i32, player: &str) -> String {
    format!("Schockerliga {year} {player}")
        .chars()
        .take(MAX_REFERENCE_CHARS)
        .collect()
}

/// The GiroCode's text for a SEPA credit transfer of `cents` to `name` (`iban`, `bic` — empty for
/// none) with the unstructured reference `reference`, as EPC069-12 version 002 orders it, one
/// element per line (LF), nothing after the last used element:
///
/// ```text
/// BCD                       service tag
/// 002                       version
/// 1                         character set: UTF-8
/// SCT                       SEPA credit transfer
/// GENODEF1XXX               BIC (may be empty in version 002)
/// Schockerliga e.V.         payee's name
/// DE89370400440532013000    IBAN
/// EUR2.50                   amount
///                           purpose code (none)
///                           structured reference (none: the unstructured one is used)
/// Schockerliga 2026 Anna    unstructured reference
/// ```
///
/// The inputs are checked as the settings page checks them ([`check_name`], [`check_iban`],
/// [`check_bic`]); the amount must be 0,01 € to 999.999.999,99 €. `Err` is the German reason.
pub fn epc_payload(
    name: &str,
    iban: &str,
    bic: &str,
    cents: i64,
    reference: &str,
) -> Result<String, String> {
    payload(name, iban, bic, cents, "", reference)
}

/// [`epc_payload`] with the structured creditor reference `rf` (ISO 11649, issue 34.2: "RF18
/// 5390 0754 7034", spaces ignored) in its line and the unstructured line then empty, as
/// EPC069-12 requires (one or the other); nothing follows the reference line:
///
/// ```text
/// BCD · 002 · 1 · SCT · BIC · name · IBAN · EUR2.50 · (purpose) · RF3720261
/// ```
///
/// `Err` (German) as [`epc_payload`], and for a reference that does not check
/// ([`super::reference::is_valid`]).
pub fn epc_payload_rf(
    name: &str,
    iban: &str,
    bic: &str,
    cents: i64,
    rf: &str,
) -> Result<String, String> {
    let rf: String = rf.chars().filter(|c| !c.is_whitespace()).collect();
    if !super::reference::is_valid(&rf) {
        return Err(format!(
            "Referenz {rf}: keine gültige Gläubigerreferenz (ISO 11649)."
        ));
    }
    payload(name, iban, bic, cents, &rf.to_ascii_uppercase(), "")
}

/// The EPC069-12 text with the structured reference `rf` or the unstructured `reference` (the
/// other empty); trailing empty lines left out.
fn payload(
    name: &str,
    iban: &str,
    bic: &str,
    cents: i64,
    rf: &str,
    reference: &str,
) -> Result<String, String> {
    let name = check_name(name)?;
    let iban = check_iban(iban)?;
    let bic = check_bic(bic)?;
    if !(1..=MAX_CENTS).contains(&cents) {
        return Err("Betrag: 0,01 € bis 999.999.999,99 €.".to_string());
    }
    let reference: String = reference
        .chars()
        .filter(|c| !c.is_control())
        .take(MAX_REFERENCE_CHARS)
        .collect();
    let amount = format!("EUR{}.{:02}", cents / 100, cents % 100);
    let mut lines = vec![
        "BCD",
        "002",
        "1",
        "SCT",
        &bic,
        &name,
        &iban,
        &amount,
        "",
        rf,
        reference.trim(),
    ];
    while lines.last() == Some(&"") {
        lines.pop();
    }
    Ok(lines.join("\n"))
}

#[cfg(test)]
mod tests;
