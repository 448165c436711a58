//! A player's account (league.md §5, §6): his open items (fines not paid, the Jahresbeitrag
//! when due), the rule of a payment (issue 34.1, [`allocate`]: the oldest items paid whole, the
//! rest his Guthaben; [`settle`]: what his Guthaben pays by itself), the money card of what is
//! open and what was paid, and the items of the accounts API.

use chrono::{Datelike, NaiveDate};

pub mod statement;

use super::kasse::fine_label;
use crate::league::model::error::{EntryError, Location};
use crate::league::model::format::{date_de, format_cents, month_name};
use crate::league::model::rules::fee_cents;
use crate::league::model::season::Season;

/// One open item of a player (league.md §5, §6): a fine not paid yet, or the Jahresbeitrag.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OpenItem {
    /// The fine's night and position among the night's fines; `None` for the Jahresbeitrag.
    pub fine: Option<(NaiveDate, usize)>,
    /// German label: "Zuspätkommer am 09.01.2026", "Jahresbeitrag (bei Zahlung im Mai)".
    pub label: String,
    /// Its amount in cents.
    pub cents: i64,
}

/// The open fines of `player`, oldest first (by night, then booking order), of the nights up to
/// `until` (all with `None`).
pub fn open_fines(season: &Season, player: &str, until: Option<NaiveDate>) -> Vec<OpenItem> {
    season
        .nights
        .iter()
        .filter(|n| until.is_none_or(|u| n.date <= u))
        .flat_map(|n| {
            n.fines
                .iter()
                .enumerate()
                .filter(|(_, f)| f.player == player && !f.paid)
                .map(move |(i, f)| OpenItem {
                    fine: Some((n.date, i)),
                    label: format!("{} am {}", fine_label(&f.kind), date_de(n.date)),
                    cents: f.amount_cents,
                })
        })
        .collect()
}

/// The Jahresbeitrag of `player` as an open item on `on`: when he has none yet and it can be paid
/// that day (league.md §5: the amount of that day's month, until `last_join_month`).
pub fn fee_due(season: &Season, player: &str, on: NaiveDate) -> Option<OpenItem> {
    let p = season.player(player)?;
    if p.fee_paid_on.is_some() {
        return None;
    }
    let cents = fee_cents(&season.rules, season.year, on).ok()?;
    Some(OpenItem {
        fine: None,
        label: format!(
            "Jahresbeitrag für die 1. Liga (bei Zahlung im {})",
            month_name(on.month())
        ),
        cents,
    })
}

/// The open items of `player` on `on`, oldest first: his open fines of the nights up to `on`,
/// then the Jahresbeitrag when it is due ([`fee_due`]) — it is optional, so it comes last.
pub fn open_items(season: &Season, player: &str, on: NaiveDate) -> Vec<OpenItem> {
    let mut items = open_fines(season, player, Some(on));
    items.extend(fee_due(season, player, on));
    items
}

/// What money of a player does (issue 34.1): the items it pays whole, oldest first, and the
/// Guthaben left after them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Allocation {
    /// The items paid, oldest first, each whole.
    pub items: Vec<OpenItem>,
    /// The Guthaben left, cents (≥ 0): owed to the player, never part of the pot.
    pub credit_cents: i64,
}

/// The most one payment may be: 10.000,00 € (a club's year of fees and fines is a few hundred
/// euros; a million was a slip of the thumb that the trial saw booked).
pub const MAX_PAYMENT_CENTS: i64 = 1_000_000;

/// The rule of a payment (issue 34.1, league.md §6): `cents` paid by `player` on `on`, together
/// with his Guthaben before it, go to his open items on `on` ([`open_items`]: open fines of the
/// nights up to `on` by night and booking order, then the Jahresbeitrag when due) oldest first,
/// each item paid whole while the rest covers it; the first item not covered stops the walk;
/// what is left is his Guthaben. Nothing is ever part-paid. Refused (German, field `betrag`):
/// not a player of the season, not a positive amount, more than [`MAX_PAYMENT_CENTS`]; (field
/// `bezahlt am`) a day in a year more than one away from the season's. The one rule of the Zahlungen, the bank
/// statement and "Ich habe bezahlt".
pub fn allocate(
    season: &Season,
    player: &str,
    cents: i64,
    on: NaiveDate,
) -> Result<Allocation, EntryError> {
    let at = Location::default().player(player).field("betrag");
    if season.player(player).is_none() {
        return Err(EntryError::new(
            Location::default(),
            format!("{player} spielt nicht in der Saison {}", season.year),
        ));
    }
    if cents <= 0 {
        return Err(EntryError::new(at, "Der Betrag muss größer als 0 sein."));
    }
    if cents > MAX_PAYMENT_CENTS {
        return Err(EntryError::new(
            at,
            format!(
                "Eine Zahlung ist höchstens {} (ein Tippfehler?).",
                format_cents(MAX_PAYMENT_CENTS)
            ),
        ));
    }
    let year = season.year;
    let far = if on.year() < year - 1 {
        Some("vor")
    } else if on.year() > year + 1 {
        Some("nach")
    } else {
        None
    };
    if let Some(side) = far {
        return Err(EntryError::new(
            Location::default().player(player).field("bezahlt am"),
            format!(
                "{} liegt mehr als ein Jahr {side} der Saison {year}.",
                on.format("%d.%m.%Y")
            ),
        ));
    }
    Ok(walk(
        open_items(season, player, on),
        season.credit_cents(player) + cents,
    ))
}

/// What the Guthaben of `player` pays on `on` by itself (issue 34.1: a new item is paid out of
/// it the moment it covers it whole): [`allocate`] without a payment. No items for a stranger
/// or without Guthaben.
pub fn settle(season: &Season, player: &str, on: NaiveDate) -> Allocation {
    let credit = season.credit_cents(player);
    if credit <= 0 || season.player(player).is_none() {
        return Allocation {
            items: Vec::new(),
            credit_cents: credit.max(0),
        };
    }
    walk(open_items(season, player, on), credit)
}

/// `available` cents over `items` oldest first, each paid whole while the rest covers it; the
/// first not covered stops.
fn walk(items: Vec<OpenItem>, available: i64) -> Allocation {
    let mut left = available;
    let mut paid = Vec::new();
    for item in items {
        if item.cents > left {
            break;
        }
        left -= item.cents;
        paid.push(item);
    }
    Allocation {
        items: paid,
        credit_cents: left,
    }
}

/// The German sentence of what a payment did, for the flash and the Protokoll: "3,00 € von
/// Anna: bezahlt Zuspätkommer am 09.01.2026 (1,00 €); Guthaben 2,00 €."
pub fn allocation_text(player: &str, cents: i64, a: &Allocation) -> String {
    let paid = if a.items.is_empty() {
        "kein Posten ganz bezahlt".to_string()
    } else {
        let items: Vec<String> = a
            .items
            .iter()
            .map(|i| format!("{} ({})", i.label, format_cents(i.cents)))
            .collect();
        format!("bezahlt {}", items.join(", "))
    };
    format!(
        "{} von {player}: {paid}; Guthaben {}.",
        format_cents(cents),
        format_cents(a.credit_cents)
    )
}

/// One paid item of a player: a fine or the Jahresbeitrag, with its payment day.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PaidItem {
    /// German label: "Jahresbeitrag", "Zuspätkommer am 09.01.2026".
    pub label: String,
    /// Its amount in cents.
    pub cents: i64,
    /// The day it was paid.
    pub paid_on: NaiveDate,
    /// Paid out of his share at the Jahresabschluss.
    pub netted: bool,
}

/// A player's money in a season as his money card shows it: what he owes (each open fine, the
/// Jahresbeitrag when due on `today`) and what he paid, with the sums.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Account {
    /// His open items, oldest first (all his open fines, then the Jahresbeitrag when due).
    pub open: Vec<OpenItem>,
    /// Σ open, cents.
    pub open_cents: i64,
    /// What he paid, by payment day.
    pub paid: Vec<PaidItem>,
    /// Σ paid, cents.
    pub paid_cents: i64,
    /// His Guthaben, cents (issue 34.1): paid in and not spent, owed to him.
    pub credit_cents: i64,
}

/// The account of `player` on `today` ([`Account`]); `None` when he is not a player of the season.
pub fn account(season: &Season, player: &str, today: NaiveDate) -> Option<Account> {
    let p = season.player(player)?;
    let mut open = open_fines(season, player, None);
    open.extend(fee_due(season, player, today));
    let mut paid: Vec<PaidItem> = p
        .fee_paid_on
        .map(|d| PaidItem {
            label: "Jahresbeitrag".to_string(),
            cents: p.fee_cents,
            paid_on: d,
            netted: false,
        })
        .into_iter()
        .collect();
    for n in &season.nights {
        for f in n.fines.iter().filter(|f| f.player == player) {
            if let Some(d) = f.paid_on {
                paid.push(PaidItem {
                    label: format!("{} am {}", fine_label(&f.kind), date_de(n.date)),
                    cents: f.amount_cents,
                    paid_on: d,
                    netted: f.netted,
                });
            }
        }
    }
    paid.sort_by_key(|i| i.paid_on);
    Some(Account {
        open_cents: open.iter().map(|i| i.cents).sum(),
        paid_cents: paid.iter().map(|i| i.cents).sum(),
        credit_cents: season.credit_cents(player),
        open,
        paid,
    })
}

/// What an item of a player's account is (issue 34.5): a fine or the Jahresbeitrag.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum ItemKind {
    /// A fine (Strafe).
    Fine,
    /// The Jahresbeitrag.
    Fee,
}

/// One item of a player's account as the JSON API gives it (issue 34.5).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct AccountItem {
    /// Fine or fee.
    pub kind: ItemKind,
    /// A fine's night; the fee's payment day, or for an open fee the day its amount is reckoned.
    pub date: NaiveDate,
    /// Its amount, cents.
    pub cents: i64,
    /// The day it was paid; `None` while open.
    pub paid_on: Option<NaiveDate>,
}

/// Every item of `player` on `today` (issue 34.5): his fines by night and booking order, paid or
/// open, then his Jahresbeitrag when paid or due on `today` ([`fee_due`]). Empty for a stranger.
pub fn account_items(season: &Season, player: &str, today: NaiveDate) -> Vec<AccountItem> {
    let Some(p) = season.player(player) else {
        return Vec::new();
    };
    let mut items: Vec<AccountItem> = season
        .nights
        .iter()
        .flat_map(|n| {
            n.fines
                .iter()
                .filter(|f| f.player == player)
                .map(move |f| AccountItem {
                    kind: ItemKind::Fine,
                    date: n.date,
                    cents: f.amount_cents,
                    paid_on: f.paid_on,
                })
        })
        .collect();
    match p.fee_paid_on {
        Some(d) => items.push(AccountItem {
            kind: ItemKind::Fee,
            date: d,
            cents: p.fee_cents,
            paid_on: Some(d),
        }),
        None => items.extend(fee_due(season, player, today).map(|i| AccountItem {
            kind: ItemKind::Fee,
            date: today,
            cents: i.cents,
            paid_on: None,
        })),
    }
    items
}

#[cfg(test)]
mod tests;
