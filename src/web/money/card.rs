//! A player's money card (on his page and, later, his own card): what he owes and what he paid,
//! with the GiroCode (EPC069-12, drawn as SVG) and the PayPal.me link for what he owes.

use chrono::NaiveDate;

use crate::league::model::format::date_de;
use crate::league::money::items::account;
use crate::league::{format_cents, money::girocode};
use crate::service::{SeasonView, Snapshot};

/// A player's money card (on his page): what he owes and what he paid, with the GiroCode and
/// the PayPal.me link for what he owes.
pub struct MoneyCard {
    /// Open items: (label, amount), oldest first.
    pub open: Vec<(String, String)>,
    /// Σ open.
    pub open_sum: String,
    /// Paid items: (label, amount, day, netted).
    pub paid: Vec<(String, String, String, bool)>,
    /// Σ paid.
    pub paid_sum: String,
    /// The GiroCode as inline SVG (no script, no style), when the club has an account and
    /// something is open.
    pub qr_svg: Option<String>,
    /// The transfer in words: (payee, IBAN in groups of four, amount, reference).
    pub transfer: Option<(String, String, String, String)>,
    /// The PayPal.me link for the open amount, when the club has a PayPal.me name.
    pub paypal: Option<String>,
    /// His Guthaben in German euros, when he has one (issue 34.1).
    pub credit: Option<String>,
    /// His ISO 11649 reference of the season in groups of four ("RF37 2026 1", issue 34.2).
    pub rf: Option<String>,
}

/// An IBAN in groups of four: "DE89 3704 0044 0532 0130 00".
fn grouped(iban: &str) -> String {
    iban.as_bytes()
        .chunks(4)
        .map(|c| String::from_utf8_lossy(c).into_owned())
        .collect::<Vec<_>>()
        .join(" ")
}

/// The money card of player `name` of `view`'s season for a viewer (`logged_in` or not) on
/// `today`; `None` when the club keeps its money private and nobody is logged in, or he is not a
/// player of the season.
pub fn card(
    snapshot: &Snapshot,
    view: &SeasonView,
    name: &str,
    logged_in: bool,
    today: NaiveDate,
) -> Option<MoneyCard> {
    if !snapshot.money_visible(logged_in) {
        return None;
    }
    let season = &view.season;
    let a = account(season, name, today)?;
    let s = &snapshot.settings;
    // The free text for hand-typed transfers stays on the card; the GiroCode carries the
    // player's ISO 11649 reference of the season (issue 34.2), or the free text without an id.
    let reference = girocode::reference(season.year, name);
    let rf = view
        .ids
        .players
        .get(name)
        .and_then(|id| crate::league::money::reference::player_reference(season.year, *id));
    // What he still has to pay: his open items less his Guthaben (which pays them with it, oldest
    // first, whole): 15,00 € open and 14,99 € Guthaben asks for 0,01 €.
    let due = (a.open_cents - a.credit_cents).max(0);
    let payload = (due > 0 && !s.iban.is_empty())
        .then(|| match &rf {
            Some(rf) => girocode::epc_payload_rf(&s.account_name, &s.iban, &s.bic, due, rf),
            None => girocode::epc_payload(&s.account_name, &s.iban, &s.bic, due, &reference),
        })
        .and_then(Result::ok);
    Some(MoneyCard {
        rf: rf.as_deref().map(crate::league::money::reference::grouped),
        credit: (a.credit_cents > 0).then(|| format_cents(a.credit_cents)),
        open: a
            .open
            .iter()
            .map(|i| (i.label.clone(), format_cents(i.cents)))
            .collect(),
        open_sum: format_cents(a.open_cents),
        paid: a
            .paid
            .iter()
            .map(|i| {
                (
                    i.label.clone(),
                    format_cents(i.cents),
                    date_de(i.paid_on),
                    i.netted,
                )
            })
            .collect(),
        paid_sum: format_cents(a.paid_cents),
        qr_svg: payload
            .as_deref()
            .and_then(|p| crate::web::kit::qr::svg(p, "girocode", "GiroCode")),
        transfer: payload.as_ref().map(|_| {
            (
                s.account_name.clone(),
                grouped(&s.iban),
                format_cents(due),
                reference.clone(),
            )
        }),
        paypal: (due > 0 && !s.paypal_me.is_empty()).then(|| {
            format!(
                "https://paypal.me/{}/{}.{:02}EUR",
                s.paypal_me,
                due / 100,
                due % 100
            )
        }),
    })
}
