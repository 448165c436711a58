//! The one reading of a typed round (league.md §1), under the round form of the night page, the
//! scorer link's page and the paper Spielberichtsbogen: each form's fields become [`RowInput`]s
//! (what was typed, kept when the form comes back), and [`RoundInput::results`] turns a round's
//! rows into the season file's result rows, or into the German refusal naming night, table, round,
//! player and field ([`Spot`] says where, so the form can mark it). The form only checks its own
//! shape (numbers, a loser who played, values only for who played); the league checks the rest.
//!
//! The field names stay each form's own: the round form `played_{id}`, `outs_{id}`,
//! `hand_outs_{id}`, `julen_{id}`, `joker_{id}` and the radio `lost` = id (ids are `players.id`);
//! the Bogen `m{n}_{i}`, `o{n}_{i}`, `h{n}_{i}`, `j{n}_{i}`, `k{n}_{i}` and the radio `v{n}` = i
//! (n the round, i the seat at the table).

use std::collections::{BTreeMap, BTreeSet};

use chrono::NaiveDate;

use crate::league::model::file::ResultEntry;
use crate::league::model::format::date_de;

/// A form as sent whose field names carry player ids, rounds or seats: every field name with all
/// its values (a repeated name is a `Vec` of two, so the form can refuse it). One of the two
/// hand-read field maps of the web, read by the round form, the Bogen and the Schockbesteck (the
/// other: the Schiedsrichter's query, `public::schiedsrichter::question::Fields`);
/// `serde_html_form` cannot type names that carry numbers.
pub type Fields = BTreeMap<String, Vec<String>>;

/// The first value of field `name`, as sent.
pub fn first<'a>(fields: &'a Fields, name: &str) -> Option<&'a str> {
    fields.get(name).and_then(|v| v.first()).map(String::as_str)
}

/// One player's row of a round as typed: what the form shows again after a refusal.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RowInput {
    /// `players.id` (the round form's field names).
    pub id: i64,
    /// The seat at the table, from 0 (the Bogen's field names).
    pub seat: usize,
    /// The player's name.
    pub name: String,
    /// Played this round.
    pub played: bool,
    /// Outs as typed.
    pub outs: String,
    /// Hand-Outs as typed.
    pub hand_outs: String,
    /// Julen as typed.
    pub julen: String,
    /// Joker-Runde ticked.
    pub joker: bool,
    /// Chosen as the loser.
    pub lost: bool,
    /// The field of this row a refusal names (`outs`, `hand_outs`, `julen`, `joker`, `lost`,
    /// `played`, or `row` for the row as a whole), marked in the form; "" for none.
    pub bad: String,
}

impl RowInput {
    /// The untouched row of player `id` (`name`) at `seat`: played, no Joker, not lost, the counts
    /// empty (empty is 0; the fields show a "0" placeholder). One convention for the round form,
    /// the scorer link and the Bogen (issue 21.11: a pre-filled "0" became "01" when typed).
    pub fn blank(id: i64, seat: usize, name: &str) -> RowInput {
        RowInput {
            id,
            seat,
            name: name.to_string(),
            played: true,
            ..RowInput::default()
        }
    }

    /// The row of player `id` (`name`, at `seat`) as the round form sent it.
    pub fn from_round_form(fields: &Fields, id: i64, seat: usize, name: &str) -> RowInput {
        let get = |prefix: &str| first(fields, &format!("{prefix}{id}")).map(str::to_string);
        RowInput {
            id,
            seat,
            name: name.to_string(),
            played: get("played_").is_some(),
            outs: get("outs_").unwrap_or_default(),
            hand_outs: get("hand_outs_").unwrap_or_default(),
            julen: get("julen_").unwrap_or_default(),
            joker: get("joker_").is_some(),
            lost: fields
                .get("lost")
                .is_some_and(|l| l.iter().any(|v| *v == id.to_string())),
            bad: String::new(),
        }
    }

    /// The row of player `id` (`name`, at `seat`) of round `n` as the Bogen sent it.
    pub fn from_sheet(fields: &Fields, n: u32, id: i64, seat: usize, name: &str) -> RowInput {
        let value = |key: String| first(fields, &key).unwrap_or_default().trim().to_string();
        RowInput {
            id,
            seat,
            name: name.to_string(),
            played: fields.contains_key(&format!("m{n}_{seat}")),
            outs: value(format!("o{n}_{seat}")),
            hand_outs: value(format!("h{n}_{seat}")),
            julen: value(format!("j{n}_{seat}")),
            joker: fields.contains_key(&format!("k{n}_{seat}")),
            lost: value(format!("v{n}")) == seat.to_string(),
            bad: String::new(),
        }
    }

    /// Whether anything but empty or 0 is typed in Outs, Hand-Outs or Julen, or Joker is ticked.
    pub fn has_values(&self) -> bool {
        let set = |v: &str| !matches!(v.trim(), "" | "0");
        self.joker || set(&self.outs) || set(&self.hand_outs) || set(&self.julen)
    }
}

/// Where a refusal points: round, player and season-file field (`outs`, `hand_outs`, `julen`,
/// `joker`, `lost`, `played`), as far as it says.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Spot {
    /// The round number.
    pub round: Option<u32>,
    /// The player's name.
    pub player: Option<String>,
    /// The field.
    pub field: Option<String>,
}

impl Spot {
    /// Round `round`, and the player and field where known.
    pub fn at(round: u32, player: Option<&str>, field: Option<&str>) -> Spot {
        Spot {
            round: Some(round),
            player: player.map(str::to_string),
            field: field.map(str::to_string),
        }
    }
}

/// A refusal of a typed round: the German message and where it points.
pub type Refusal = (String, Spot);

/// The German name of a season-file field of a result row, as the messages name it.
pub fn field_de(field: &str) -> &'static str {
    match field {
        "outs" => "Outs",
        "hand_outs" => "Hand-Outs",
        "julen" => "Julen",
        "joker" => "Joker",
        "played" => "spielt mit",
        _ => "verloren",
    }
}

/// A count as typed: empty is 0, else a whole number ≥ 0; the error names the place `at` and the
/// field by its German label.
pub fn count(typed: &str, at: &str, field: &str) -> Result<u32, String> {
    let v = typed.trim();
    if v.is_empty() {
        return Ok(0);
    }
    v.parse()
        .map_err(|_| format!("{at}, Feld {field}: „{v}“ ist keine Zahl ≥ 0"))
}

/// One round as typed: its rows in seat order, and the refusal shown beside it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RoundInput {
    /// The round number.
    pub number: u32,
    /// The table's rows.
    pub rows: Vec<RowInput>,
    /// The refusal that names this round (the Bogen shows it beside the round).
    pub error: Option<String>,
}

impl RoundInput {
    /// The result rows of round `number` at `table` of the night on `date`: a row per ticked
    /// player. Refused (German, naming night, table, round, player and field): values for a
    /// player who is not ticked, a loser who did not play, a count that is no whole number ≥ 0.
    pub fn results(&self, date: NaiveDate, table: u32) -> Result<Vec<ResultEntry>, Refusal> {
        let number = self.number;
        let at = format!("Abend {}, Tisch {table}, Runde {number}", date_de(date));
        let unticked: Vec<&RowInput> = self
            .rows
            .iter()
            .filter(|r| !r.played && r.has_values())
            .collect();
        if let Some(r) = unticked.first() {
            let what: Vec<String> = unticked
                .iter()
                .map(|r| {
                    format!(
                        "Werte für {} eingetragen, aber {} ist nicht angekreuzt",
                        r.name, r.name
                    )
                })
                .collect();
            return Err((
                format!(
                    "{at}: {} (ankreuzen, wer mitgespielt hat, oder die Werte löschen)",
                    what.join("; ")
                ),
                Spot::at(number, Some(&r.name), Some("played")),
            ));
        }
        if let Some(r) = self.rows.iter().find(|r| r.lost && !r.played) {
            return Err((
                format!(
                    "{at}, Spieler {}: der Verlierer muss die Runde mitgespielt haben",
                    r.name
                ),
                Spot::at(number, Some(&r.name), Some("played")),
            ));
        }
        let mut out = Vec::new();
        for r in self.rows.iter().filter(|r| r.played) {
            let at = format!("{at}, Spieler {}", r.name);
            let number_of = |typed: &str, field: &str| {
                count(typed, &at, field_de(field))
                    .map_err(|msg| (msg, Spot::at(number, Some(&r.name), Some(field))))
            };
            out.push(ResultEntry {
                player: r.name.clone(),
                outs: number_of(&r.outs, "outs")?,
                hand_outs: number_of(&r.hand_outs, "hand_outs")?,
                julen: number_of(&r.julen, "julen")?,
                joker: r.joker,
                lost: r.lost,
            });
        }
        Ok(out)
    }

    /// Marks where `spot` points in this round's rows (the player's field, or his whole row) and
    /// keeps `message` beside the round, when the spot is this round.
    pub fn mark(&mut self, message: &str, spot: &Spot) {
        if spot.round != Some(self.number) {
            return;
        }
        self.error = Some(message.to_string());
        let field = spot.field.clone().unwrap_or_else(|| "row".into());
        for r in self.rows.iter_mut() {
            if Some(&r.name) == spot.player.as_ref() {
                r.bad = field.clone();
            }
        }
    }
}

/// The round number field of the round form as typed, read: a whole number, or the German refusal
/// naming night and table.
pub fn round_number(date: NaiveDate, table: u32, typed: &str) -> Result<u32, String> {
    typed.trim().parse().map_err(|_| {
        format!(
            "Abend {}, Tisch {table}: Rundennummer „{}“ ist keine Zahl",
            date_de(date),
            typed.trim()
        )
    })
}

/// The round form's own shape check: one loser (a radio button cannot send two, a hand-made or
/// replayed request can) and no field sent twice (one value would silently win). German, naming
/// night, table, round, the field by its label and the player (`rows` give the names of ids).
pub fn check_round_form(
    fields: &Fields,
    date: NaiveDate,
    table: u32,
    number: &str,
    rows: &[RowInput],
) -> Result<(), String> {
    let at = format!(
        "Abend {}, Tisch {table}, Runde {}",
        date_de(date),
        number.trim()
    );
    let name_of = |v: &str| {
        rows.iter()
            .find(|r| r.id.to_string() == v)
            .map(|r| r.name.clone())
    };
    if let Some(lost) = fields.get("lost").filter(|l| l.len() > 1) {
        let names: Vec<String> = lost
            .iter()
            .map(|v| name_of(v).unwrap_or_else(|| format!("„{v}“")))
            .collect();
        return Err(format!(
            "{at}: nur ein Spieler kann die Runde verlieren (angekreuzt: {})",
            names.join(", ")
        ));
    }
    const LABELS: [(&str, &str); 5] = [
        ("played_", "spielt mit"),
        ("outs_", "Outs"),
        ("hand_outs_", "Hand-Outs"),
        ("julen_", "Julen"),
        ("joker_", "Joker"),
    ];
    if let Some((k, _)) = fields.iter().find(|(k, v)| *k != "lost" && v.len() > 1) {
        let what = if k == "number" {
            "Rundennummer".to_string()
        } else {
            LABELS
                .iter()
                .find_map(|(prefix, label)| {
                    let id = k.strip_prefix(prefix)?;
                    let name = name_of(id).unwrap_or_else(|| format!("Nr. {id}"));
                    Some(format!("{label} von {name}"))
                })
                .unwrap_or_else(|| format!("„{k}“"))
        };
        return Err(format!("{at}: das Feld {what} wurde mehrfach geschickt"));
    }
    Ok(())
}

/// The player ids a round form names (in `played_`, `outs_`, `hand_outs_`, `julen_`, `joker_`
/// keys or as `lost`) who are not in `seated`, ascending: a row of another table or of nobody
/// drawn, which the league's check names.
pub fn foreign_ids(fields: &Fields, seated: &[i64]) -> BTreeSet<i64> {
    const PREFIXES: [&str; 5] = ["played_", "outs_", "hand_outs_", "julen_", "joker_"];
    let named = fields.iter().flat_map(|(k, values)| {
        let by_key = PREFIXES
            .iter()
            .find_map(|p| k.strip_prefix(p))
            .and_then(|id| id.parse::<i64>().ok());
        let by_value: Vec<i64> = if k == "lost" {
            values.iter().filter_map(|v| v.parse().ok()).collect()
        } else {
            Vec::new()
        };
        by_key.into_iter().chain(by_value)
    });
    named.filter(|id| !seated.contains(id)).collect()
}

#[cfg(test)]
mod tests;
