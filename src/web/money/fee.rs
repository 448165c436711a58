//! The Jahresbeitrag booked by its payment date (league.md §5: the amount follows from the date),
//! from the season page (secretary) and the payments page (Kassenwart): one form, one reading,
//! one change, one message, so both pages mean the same by what is typed.

use chrono::NaiveDate;
use serde::Deserialize;

use crate::league::model::format::date_de;
use crate::league::{format_cents, Change};
use crate::service::{Edit, League, ServiceError};

/// The Jahresbeitrag form: the payment date, or "Beitrag löschen".
#[derive(Debug, Clone, Deserialize)]
pub struct FeeForm {
    /// The payment date (`YYYY-MM-DD`).
    #[serde(default)]
    pub paid_on: String,
    /// Present when "Beitrag löschen" is ticked.
    pub delete: Option<String>,
}

impl FeeForm {
    /// The payment date to book for `player`: `None` (delete the fee) when "Beitrag löschen" is
    /// ticked. Refused (German, naming the player): no date, or one that is no date. An empty date
    /// is never taken for today: the amount follows from the date, so it is typed on purpose.
    pub fn day(&self, player: &str) -> Result<Option<NaiveDate>, ServiceError> {
        let text = self.paid_on.trim();
        if self.delete.is_some() {
            Ok(None)
        } else if text.is_empty() {
            Err(ServiceError::refused(format!(
                "Jahresbeitrag von {player}: Zahldatum fehlt. Zum Löschen des Jahresbeitrags \
                 „Beitrag löschen“ ankreuzen."
            )))
        } else {
            NaiveDate::parse_from_str(text, "%Y-%m-%d")
                .map(Some)
                .map_err(|_| {
                    ServiceError::refused(format!(
                        "Jahresbeitrag von {player}: Zahldatum „{text}“ ist kein Datum (JJJJ-MM-TT)"
                    ))
                })
        }
    }
}

/// Books (or deletes) `player`'s Jahresbeitrag of season `year` from `form`, by `user`: the flash
/// message ("Jahresbeitrag von Anna: 16,00 € am 10.04.2026 gebucht." or "… gelöscht."), or the
/// refusal (the form's, or the league's: after the last join month, not a player …).
pub async fn book(
    league: &League,
    year: i32,
    player: &str,
    form: &FeeForm,
    user: &str,
) -> Result<String, ServiceError> {
    let day = form.day(player)?;
    let change = Change::SetFee {
        player: player.to_string(),
        paid_on: day,
    };
    let view = league.change(year, change, &Edit::by(user)).await?;
    Ok(match (day, view.season.player(player)) {
        (Some(d), Some(p)) => format!(
            "Jahresbeitrag von {player}: {} am {} gebucht.",
            format_cents(p.fee_cents),
            date_de(d)
        ),
        _ => format!("Jahresbeitrag von {player} gelöscht."),
    })
}
