//! Who still plays (issue 36.4): a player's status in a season — aktiv, pausiert, ausgetreten on a
//! day — and the order of the attendance and Zusage lists: the active first, alphabetically in
//! German collation, the others apart (the page folds them). A status changes no figure: it only
//! orders lists. Pure.
//!
//! German collation here (DIN 5007-1, „Wörterbuch“): case does not count, ä/ö/ü sort as a/o/u,
//! ß as ss, other accents as their base letter; names equal so sort by their spelling.

use chrono::NaiveDate;
use unicode_normalization::char::is_combining_mark;
use unicode_normalization::UnicodeNormalization;

/// A player's status in a season; a player without one is [`Status::Aktiv`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Status {
    /// Plays (the default).
    #[default]
    Aktiv,
    /// Takes a break this season.
    Pausiert,
    /// Left the club on the day.
    Ausgetreten(NaiveDate),
}

impl Status {
    /// The status of a form or a stored row: `kind` „aktiv“, „pausiert“ or „ausgetreten“, `day`
    /// (ISO date, `YYYY-MM-DD`) needed only for „ausgetreten“ and ignored otherwise. Errors: a
    /// German message naming the field.
    pub fn parse(kind: &str, day: &str) -> Result<Status, String> {
        match kind.trim() {
            "aktiv" => Ok(Status::Aktiv),
            "pausiert" => Ok(Status::Pausiert),
            "ausgetreten" => {
                let day = day.trim();
                if day.is_empty() {
                    return Err("Ausgetreten am: bitte den Tag des Austritts angeben".into());
                }
                day.parse()
                    .map(Status::Ausgetreten)
                    .map_err(|_| format!("Ausgetreten am: „{day}“ ist kein Datum (JJJJ-MM-TT)"))
            }
            other => Err(format!(
                "Status: „{other}“ gibt es nicht (aktiv, pausiert oder ausgetreten)"
            )),
        }
    }

    /// The stored word: „aktiv“, „pausiert“, „ausgetreten“.
    pub fn code(&self) -> &'static str {
        match self {
            Status::Aktiv => "aktiv",
            Status::Pausiert => "pausiert",
            Status::Ausgetreten(_) => "ausgetreten",
        }
    }

    /// The day of „ausgetreten“.
    pub fn day(&self) -> Option<NaiveDate> {
        match self {
            Status::Ausgetreten(d) => Some(*d),
            _ => None,
        }
    }

    /// The status in German for a list: „aktiv“, „pausiert“, „ausgetreten am 30.06.2026“.
    pub fn german(&self) -> String {
        match self {
            Status::Ausgetreten(d) => format!(
                "ausgetreten am {}",
                crate::league::model::format::date_de(*d)
            ),
            s => s.code().to_string(),
        }
    }

    /// Whether the player counts as active on `date` (a night's or a planned night's day): aktiv;
    /// ausgetreten only before his day.
    pub fn active_on(&self, date: NaiveDate) -> bool {
        match self {
            Status::Aktiv => true,
            Status::Pausiert => false,
            Status::Ausgetreten(day) => date < *day,
        }
    }
}

/// The key of `name` in German collation (see the module): lower case, umlauts and accents as
/// their base letter, ß as ss; then the name itself so that the order is total.
pub fn collation_key(name: &str) -> (String, String) {
    let base: String = name
        .to_lowercase()
        .replace('ß', "ss")
        .nfd()
        .filter(|c| !is_combining_mark(*c))
        .collect();
    (base, name.to_string())
}

/// `items` in two lists for a night on `date`: the active ones and the others, each sorted by
/// [`collation_key`] of `name`; `status` gives each item's status.
pub fn active_first<T>(
    items: Vec<T>,
    date: NaiveDate,
    name: impl Fn(&T) -> &str,
    status: impl Fn(&T) -> Status,
) -> (Vec<T>, Vec<T>) {
    let (mut active, mut others): (Vec<T>, Vec<T>) =
        items.into_iter().partition(|t| status(t).active_on(date));
    active.sort_by_cached_key(|t| collation_key(name(t)));
    others.sort_by_cached_key(|t| collation_key(name(t)));
    (active, others)
}

#[cfg(test)]
mod tests;
