//! The limits every new entry meets beyond the file check ([`Season::limits`]): stored seasons
//! load without them, a change is refused only for a limit it breaks (`Season::apply`).

use std::collections::HashMap;

use crate::league::model::error::{EntryError, Location};
use crate::league::model::names::{check_single_script, look_alike_key, name_key};
use crate::league::model::season::{
    Season, MAX_AT_TABLE, MAX_PARTICIPANTS, MAX_PLAYERS_PER_SEASON, MAX_TABLES,
};

impl Season {
    /// The limits every new entry meets, beyond the file check (each a German refusal naming where):
    /// the 1. Liga deadline is a day of the season's year (`02-29` only in a leap year, league.md
    /// §10); at most [`MAX_AT_TABLE`] players are drawn to a table (league.md §9: two tables, so at
    /// most [`MAX_PARTICIPANTS`] a night), so `split_tables_from` is at most `MAX_AT_TABLE + 1`;
    /// a season has at most [`MAX_PLAYERS_PER_SEASON`] players.
    /// Seasons stored before a limit existed still load; a change is refused only for a limit it
    /// breaks ([`Season::apply`]).
    pub fn limits(&self) -> Vec<EntryError> {
        let mut out = Vec::new();
        let d = self.rules.first_liga_deadline;
        if d.in_year(self.year).is_none() {
            out.push(EntryError::new(
                Location::default().field("rules.first_liga_deadline"),
                format!(
                    "den {:02}.{:02}. gibt es {} nicht (kein Schaltjahr); bitte einen Tag des Jahres wählen, z. B. „{:02}-28“",
                    d.day, d.month, self.year, d.month
                ),
            ));
        }
        if self.players.len() > MAX_PLAYERS_PER_SEASON {
            out.push(EntryError::new(
                Location::default().field("players"),
                format!(
                    "{} Spieler: eine Saison hat höchstens {MAX_PLAYERS_PER_SEASON} Spieler",
                    self.players.len()
                ),
            ));
        }
        // Look-alike names (league.md glossary: one player, one name): „Ａnna“ (fullwidth) beside
        // „Anna“ is refused for a new name; check_players already refused „anna“ beside „Anna“.
        // So are look-alikes of another script (Unicode TS #39: „Аnna“ with a Cyrillic А) and
        // names that mix scripts.
        let mut seen: HashMap<String, &str> = HashMap::new();
        let mut looks: HashMap<String, &str> = HashMap::new();
        for p in &self.players {
            let at = || Location::default().player(&p.name).field("name");
            let key = name_key(&p.name);
            let look = look_alike_key(&p.name);
            if let Some(first) = seen.get(&key) {
                out.push(EntryError::new(
                    at(),
                    format!(
                        "Spielername „{}“ sieht aus wie „{first}“ (dieselben Buchstaben in anderer Schreibweise)",
                        p.name
                    ),
                ));
            } else if let Some(first) = looks.get(&look) {
                out.push(EntryError::new(
                    at(),
                    format!(
                        "Spielername „{}“ sieht aus wie „{first}“ (gleich aussehende Zeichen)",
                        p.name
                    ),
                ));
            } else if let Err(e) = check_single_script(&p.name) {
                out.push(EntryError::new(
                    at(),
                    format!("Spielername „{}“ {e}", p.name),
                ));
            }
            seen.entry(key).or_insert(&p.name);
            looks.entry(look).or_insert(&p.name);
        }
        let split_max = MAX_AT_TABLE as u32 + 1;
        if self.rules.split_tables_from > split_max {
            out.push(EntryError::new(
                Location::default().field("rules.split_tables_from"),
                format!(
                    "höchstens {split_max}: an einem Tisch spielen höchstens {MAX_AT_TABLE} Spieler"
                ),
            ));
        }
        for night in &self.nights {
            for table in 1..=MAX_TABLES {
                let n = night.draw.iter().filter(|s| s.table == table).count();
                if n > MAX_AT_TABLE {
                    out.push(EntryError::new(
                        Location::night(night.date).table(table).field("draw"),
                        format!(
                            "{n} Spieler; an einem Tisch spielen höchstens {MAX_AT_TABLE} \
                             (zwei Tische: höchstens {MAX_PARTICIPANTS} Teilnehmer an einem Abend)"
                        ),
                    ));
                }
            }
        }
        out
    }
}
