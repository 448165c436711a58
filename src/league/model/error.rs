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

/// The German label of season-file field `field` for messages: `outs` → "Outs", `hand_outs` →
/// "Hand-Outs", `fee_paid_on` → "Beitragsdatum", … (`number` is "Tischnummer" when `round_known`
/// is false and `table_known` true, else "Rundennummer"); unknown fields stay as they are.
pub fn field_label(field: &str, table_known: bool, round_known: bool) -> &str {
    match field {
        "outs" => "Outs",
        "hand_outs" => "Hand-Outs",
        "julen" => "Julen",
        "joker" => "Joker",
        "lost" => "verloren",
        "number" if table_known && !round_known => "Tischnummer",
        "number" => "Rundennummer",
        "fee_paid_on" => "Beitragsdatum",
        "date" => "Datum",
        "kind" => "Strafart",
        "name" => "Name",
        "tables" => "Tische",
        "amount_cents" => "Betrag",
        "player" => "Spieler",
        "draw" => "Auslosung",
        "schockbesteck" => "Würfe (Schockbesteck)",
        "schockbesteck.rules" => "Regelwerk der Würfe (Schockbesteck)",
        "rounds" => "Runden",
        "points" => "Outs gewertet",
        "totals" => "Summen je Spieler",
        "table" => "Tisch",
        "endstand" => "Endstand",
        "liga" => "Liga",
        "counted_outs" => "gewertete Outs",
        "paid_rounds" => "bezahlte Runden",
        "lost_rounds" => "verlorene Runden",
        "thrown_outs" => "Outs",
        other => other,
    }
}

/// German rendering: "Abend 09.01.2026, Tisch 1, Runde 3, Spieler Anna, Feld Outs" (known parts
/// only; fields by their German label, see [`field_label`]).
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
            let label = field_label(field, self.table.is_some(), self.round.is_some());
            parts.push(format!("Feld {label}"));
        }
        f.write_str(&parts.join(", "))
    }
}

/// A refused input. Display = German message
/// `"Abend 09.01.2026, Tisch 1, Runde 3, Spieler Anna, Feld Outs: <why>"` (just `"<why>"` without a
/// location).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{}", render(location, message))]
pub struct EntryError {
    /// Where the error is.
    pub location: Location,
    /// Why the input is refused (German).
    pub message: String,
    /// The input is fine but was written against an older state (a round changed meanwhile, one
    /// entered already): the caller may show what is there now and ask again (HTTP 409).
    pub conflict: bool,
}

impl EntryError {
    /// A conflict with what is stored now (see [`EntryError::conflict`]) at `location`.
    pub fn conflict(location: Location, message: impl Into<String>) -> EntryError {
        EntryError {
            conflict: true,
            ..EntryError::new(location, message)
        }
    }

    /// An error at `location` with the German reason `message`.
    pub fn new(location: Location, message: impl Into<String>) -> EntryError {
        EntryError {
            conflict: false,
            location,
            message: message.into(),
        }
    }
}

/// The message after its location; a message that already begins with its location (a sentence
/// like "Abend 09.01.2026, Tisch 1, Runde 1 ist schon eingetragen") is shown as it is.
fn render(location: &Location, message: &str) -> String {
    if location.is_empty() {
        return message.to_string();
    }
    let at = location.to_string();
    if message.starts_with(&at) {
        message.to_string()
    } else {
        format!("{at}: {message}")
    }
}

#[cfg(test)]
mod tests;
