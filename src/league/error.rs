//! Where and why a season input was refused (league.md §1, interchange.md "Import is all or nothing").

use std::fmt;

use chrono::NaiveDate;

/// Where an entry error is: any of night date, table, round, player, field (all optional).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Location {
    /// The night's date.
    pub night: Option<NaiveDate>,
    /// The table number (1 or 2).
    pub table: Option<u32>,
    /// The round number at the table.
    pub round: Option<u32>,
    /// The player's name.
    pub player: Option<String>,
    /// The season-file field, e.g. `outs`, `fee_paid_on`, `rules.rounds_per_night`.
    pub field: Option<String>,
}

impl Location {
    /// A location naming only the night.
    pub fn night(date: NaiveDate) -> Location {
        Location {
            night: Some(date),
            ..Location::default()
        }
    }

    /// The same location with `table` set.
    pub fn table(mut self, table: u32) -> Location {
        self.table = Some(table);
        self
    }

    /// The same location with `round` set.
    pub fn round(mut self, round: u32) -> Location {
        self.round = Some(round);
        self
    }

    /// The same location with `player` set.
    pub fn player(mut self, player: &str) -> Location {
        self.player = Some(player.to_string());
        self
    }

    /// The same location with `field` set.
    pub fn field(mut self, field: &str) -> Location {
        self.field = Some(field.to_string());
        self
    }

    /// Whether no part of the location is known.
    pub fn is_empty(&self) -> bool {
        self.night.is_none()
            && self.table.is_none()
            && self.round.is_none()
            && self.player.is_none()
            && self.field.is_none()
    }
}

/// German rendering: "Abend 09.01.2026, Tisch 1, Runde 3, Spieler Anna, Feld outs" (known parts only).
impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut parts: Vec<String> = Vec::new();
        if let Some(d) = self.night {
            parts.push(format!("Abend {}", d.format("%d.%m.%Y")));
        }
        if let Some(t) = self.table {
            parts.push(format!("Tisch {t}"));
        }
        if let Some(r) = self.round {
            parts.push(format!("Runde {r}"));
        }
        if let Some(p) = &self.player {
            parts.push(format!("Spieler {p}"));
        }
        if let Some(field) = &self.field {
            parts.push(format!("Feld {field}"));
        }
        f.write_str(&parts.join(", "))
    }
}

/// A refused input. Display = German message
/// `"Abend 09.01.2026, Tisch 1, Runde 3, Spieler Anna, Feld outs: <why>"` (just `"<why>"` without a
/// location).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{}", render(location, message))]
pub struct EntryError {
    /// Where the error is.
    pub location: Location,
    /// Why the input is refused (German).
    pub message: String,
}

impl EntryError {
    /// An error at `location` with the German reason `message`.
    pub fn new(location: Location, message: impl Into<String>) -> EntryError {
        EntryError {
            location,
            message: message.into(),
        }
    }
}

fn render(location: &Location, message: &str) -> String {
    if location.is_empty() {
        message.to_string()
    } else {
        format!("{location}: {message}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn display_names_the_known_parts() {
        let d = NaiveDate::from_ymd_opt(2026, 1, 9).expect("date");
        let cases = [
            (
                Location::night(d)
                    .table(1)
                    .round(3)
                    .player("Anna")
                    .field("outs"),
                "Abend 09.01.2026, Tisch 1, Runde 3, Spieler Anna, Feld outs: kaputt",
            ),
            (
                Location::night(d).field("date"),
                "Abend 09.01.2026, Feld date: kaputt",
            ),
            (Location::default(), "kaputt"),
        ];
        for (loc, expected) in cases {
            assert_eq!(EntryError::new(loc, "kaputt").to_string(), expected);
        }
    }
}
