//! The season's payout rules as the Jahresabschluss states them at its top (league.md §5, §6,
//! §8, §10): the Jahresbeitrag by month, the Lucky Looser, the places, the Strafenkatalog.

use chrono::NaiveDate;

use crate::league::money::kasse::fine_label;
use crate::league::{format_cents, Season};

/// The season's payout rules (league.md §5, §6, §8, §10), formatted.
pub struct RulesView {
    /// The Jahresbeitrag by payment month, January to the last join month: ("Januar", "15,00 €").
    pub fee_by_month: Vec<(&'static str, String)>,
    /// Last month a fee is accepted.
    pub last_join: &'static str,
    /// Lucky Looser amount.
    pub lucky: String,
    /// Paid places: ("1", "30 %").
    pub places: Vec<(String, String)>,
    /// Σ percent of the places.
    pub places_total: u32,
    /// The Strafenkatalog: (label, amount).
    pub fines: Vec<(String, String)>,
    /// Sozialfall after this many paid rounds per night.
    pub sozialfall_after: u32,
}

/// The rules of `season`, formatted for the Jahresabschluss.
pub fn rules_view(season: &Season) -> RulesView {
    let r = &season.rules;
    RulesView {
        fee_by_month: (1..=r.last_join_month)
            .filter_map(|m| {
                let day = NaiveDate::from_ymd_opt(season.year, m, 1)?;
                let cents = crate::league::fee_cents(r, season.year, day).ok()?;
                Some((
                    crate::league::model::format::month_name(m),
                    format_cents(cents),
                ))
            })
            .collect(),
        last_join: crate::league::model::format::month_name(r.last_join_month),
        lucky: format_cents(r.lucky_looser_cents),
        places: r
            .payout_percent
            .iter()
            .enumerate()
            .map(|(i, p)| ((i + 1).to_string(), format!("{p} %")))
            .collect(),
        places_total: r.payout_percent.iter().sum(),
        fines: r
            .fines
            .iter()
            .map(|(k, c)| (fine_label(k).to_string(), format_cents(*c)))
            .collect(),
        sozialfall_after: r.sozialfall_after,
    }
}
