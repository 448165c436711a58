//! The Kassenwart's reminder ("Erinnern", issue 27): the German text for the club's chat that
//! names a player's open sum (league.md §5, §6: his open fines and the Jahresbeitrag, as his card
//! shows them), the day to pay by and the link to his own card, and the WhatsApp link that opens
//! it ready to send.

use chrono::NaiveDate;
use percent_encoding::{utf8_percent_encode, AsciiSet, NON_ALPHANUMERIC};

use crate::league::model::format::{date_de, format_cents};

/// What stays as it is in a URL's query value (RFC 3986 unreserved characters).
const QUERY_VALUE: &AsciiSet = &NON_ALPHANUMERIC
    .remove(b'-')
    .remove(b'.')
    .remove(b'_')
    .remove(b'~');

/// How a player can pay from his card: what the club has set up (league.md §5, §6).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct PayWith {
    /// The club's account is set: the card shows a GiroCode.
    pub girocode: bool,
    /// The club's PayPal.me name is set: the card links to PayPal.
    pub paypal: bool,
}

impl PayWith {
    /// ", mit GiroCode und PayPal" / ", mit GiroCode" / ", mit PayPal" / "".
    fn words(self) -> &'static str {
        match (self.girocode, self.paypal) {
            (true, true) => ", mit GiroCode und PayPal",
            (true, false) => ", mit GiroCode",
            (false, true) => ", mit PayPal",
            (false, false) => "",
        }
    }
}

/// The reminder of `name` for `items` ((label, cents), oldest first) adding up to `open_cents`,
/// to pay by `due`, with his card at `link` (a new link) or, `None`, at the card link he has
/// already ("dein Kartenlink gilt weiter"), naming only the ways to pay the club has set up
/// (`pay`): "Hallo Anna, bei der Schockerliga ist für dich noch 1,50 € offen (Zuspätkommer am
/// 09.01.2026: 1,00 €; …). Bitte bis zum 16.12.2026 bezahlen. …".
pub fn text(
    name: &str,
    items: &[(String, i64)],
    open_cents: i64,
    due: NaiveDate,
    link: Option<&str>,
    pay: PayWith,
) -> String {
    let listed = items
        .iter()
        .map(|(label, cents)| format!("{label}: {}", format_cents(*cents)))
        .collect::<Vec<_>>()
        .join("; ");
    let what = if listed.is_empty() {
        String::new()
    } else {
        format!(" ({listed})")
    };
    let card = match link {
        Some(link) => format!(": {link}"),
        None => " (dein Kartenlink gilt weiter)".to_string(),
    };
    format!(
        "Hallo {name}, bei der Schockerliga ist für dich noch {} offen{what}. Bitte bis zum {} \
         bezahlen. Auf deiner Karte stehen alle Posten{}{card} – Danke!",
        format_cents(open_cents),
        date_de(due),
        pay.words()
    )
}

/// The WhatsApp link that opens `text` ready to send (the sender picks the chat):
/// `https://wa.me/?text=…`, the text percent-encoded (UTF-8).
pub fn whatsapp(text: &str) -> String {
    format!("https://wa.me/?text={}", percent_encode(text))
}

/// `s` percent-encoded for a URL query value (RFC 3986: everything but `A–Z a–z 0–9 - . _ ~`
/// as `%XX` of its UTF-8 bytes), e.g. `"Anna 1 €"` → `"Anna%201%20%E2%82%AC"`. The one encoder
/// of the crate (the WhatsApp links, the Protokoll's filter links).
pub fn percent_encode(s: &str) -> String {
    utf8_percent_encode(s, QUERY_VALUE).to_string()
}

#[cfg(test)]
mod tests;
