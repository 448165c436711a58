//! A round of the night page's round form (league.md §1): read through `round_input` into one
//! `Change::PutRound` and sent through the write pipeline; and its corrections, removing a round
//! or moving it to the other table. The scorer link's page sends the same form ([`read`]).

use axum::extract::Path;

use super::night::{correct, end, korrektur_key, Correction, CorrectionForm, Typed};
use super::round_input::{
    check_round_form, first, foreign_ids, round_number, Fields, RoundInput, RowInput,
};
use crate::league::change::Replace;
use crate::league::model::file::ResultEntry;
use crate::league::model::format::date_de;
use crate::league::{model::draw, Change, Korrektur};
use crate::service::{Edit, ServiceError};
use crate::web::kit::session::RequireSecretary;
use crate::web::kit::{AppError, AtNight, Reply};
use axum::response::Response;
use axum::Form;

/// A round form of one table as read: its rows, round number field and "Runde ersetzen" box as
/// typed, the Korrektur fields, and the round number with its change, or the German refusal of
/// the form's shape (numbers, one loser, no repeated field, unknown players).
pub struct ReadRound {
    /// The table's rows as typed.
    pub rows: Vec<RowInput>,
    /// The round number field as typed.
    pub number_input: String,
    /// "Runde ersetzen" ticked.
    pub replace: bool,
    /// The Korrektur fields.
    pub korrektur: Korrektur,
    /// The round number and its `Change::PutRound`, or the refusal.
    pub parsed: Result<(u32, Change), String>,
}

/// The hidden field of the round form with the seat list it was rendered with: the `players.id`s
/// of its rows, comma-separated (`templates/entry/_rows.html`).
pub const SEATS_FIELD: &str = "sitze";

/// The prefix of the round form's hidden fields with the version of each round it shows
/// (`stand_3` = the [`crate::league::change::round_version`] of round 3 as rendered): "Runde
/// ersetzen" replaces only that version; a round changed since is refused, naming who changed it
/// (issue 32.4). Without the field (a hand-made request) whatever is there is replaced.
pub const VERSION_FIELD: &str = "stand_";

/// The players seated at the table now who were not in the seat list `sent` (the form's
/// [`SEATS_FIELD`]) of a page rendered before: a late arrival (issue 31.4). `seated` = (id, name)
/// in seat order; empty when the form sent no seat list (a hand-made request).
pub fn joined_since<'a>(sent: Option<&str>, seated: &'a [(i64, String)]) -> Vec<&'a str> {
    let Some(sent) = sent else {
        return Vec::new();
    };
    let known: Vec<i64> = sent
        .split(',')
        .filter_map(|id| id.trim().parse().ok())
        .collect();
    seated
        .iter()
        .filter(|(id, _)| !known.contains(id))
        .map(|(_, name)| name.as_str())
        .collect()
}

/// The refusal of a round form sent from a page whose seat list lacks `joined` (seated at `table`
/// since): German, naming them; nothing is stored and the form comes back with their rows.
pub fn joined_refusal(date: chrono::NaiveDate, table: u32, joined: &[&str]) -> String {
    let (who, sits) = match joined {
        [one] => (one.to_string(), "sitzt"),
        [init @ .., last] => (format!("{} und {last}", init.join(", ")), "sitzen"),
        [] => (String::new(), "sitzt"),
    };
    format!(
        "Abend {}, Tisch {table}: {who} {sits} inzwischen an Tisch {table} (Nachzügler); die Seite \
         war älter, nichts gespeichert. Die Zeile ist jetzt im Formular: ausfüllen (oder das \
         Häkchen vor seinem Namen entfernen, wenn diese Runde ohne ihn gespielt wurde) und noch \
         einmal speichern.",
        date_de(date)
    )
}

/// Reads the round form `fields` of `table` at night `at` (its rows are the table's drawn
/// players; a row of another player goes to the league's check, which names him). A form whose
/// seat list ([`SEATS_FIELD`]) lacks a player seated since is refused ([`joined_refusal`]); his
/// row comes back blank (ticked for a new round, not for a replacement).
pub fn read(at: &AtNight, table: u32, fields: &Fields) -> ReadRound {
    let date = at.date;
    let seats = draw::table_players(&at.night().draw, table);
    let id_of = |name: &str| at.view.ids.players.get(name).copied().unwrap_or_default();
    let seated: Vec<i64> = seats.iter().map(|n| id_of(n)).collect();
    let named: Vec<(i64, String)> = seats.iter().map(|n| (id_of(n), n.clone())).collect();
    let joined = joined_since(first(fields, SEATS_FIELD), &named);
    let number_input = first(fields, "number").unwrap_or_default().to_string();
    let replace = fields.contains_key("replace");
    let rows: Vec<RowInput> = seats
        .iter()
        .enumerate()
        .map(|(seat, name)| {
            if joined.contains(&name.as_str()) {
                RowInput {
                    played: !replace,
                    ..RowInput::blank(id_of(name), seat, name)
                }
            } else {
                RowInput::from_round_form(fields, id_of(name), seat, name)
            }
        })
        .collect();
    let korrektur = Korrektur {
        ticked: fields.contains_key("korrektur"),
        reason: first(fields, "korrektur_grund")
            .unwrap_or_default()
            .to_string(),
    };
    // Players of other tables or not drawn go to the league's check as rows, which names them.
    let mut foreign = Vec::new();
    let mut unknown = None;
    for id in foreign_ids(fields, &seated) {
        match at.view.player_name(id) {
            Some(name) => {
                let mut row = RowInput::from_round_form(fields, id, seats.len(), name);
                row.played = true;
                foreign.push(row);
            }
            None => unknown = unknown.or(Some(id)),
        }
    }
    let parsed = if joined.is_empty() {
        Ok(())
    } else {
        Err(joined_refusal(date, table, &joined))
    };
    let parsed = parsed
        .and_then(|()| check_round_form(fields, date, table, &number_input, &rows))
        .and_then(|()| match unknown {
            Some(id) => Err(format!(
                "Abend {}, Tisch {table}, Runde {}: Spieler Nr. {id} gibt es nicht",
                date_de(date),
                number_input.trim()
            )),
            None => Ok(()),
        })
        .and_then(|()| round_number(date, table, &number_input))
        .and_then(|number| {
            let round = RoundInput {
                number,
                rows: rows.clone(),
                error: None,
            };
            round
                .results(date, table)
                .map(|results| (number, results))
                .map_err(|(message, _)| message)
        })
        .map(|(number, mut results)| {
            for r in &foreign {
                results.push(ResultEntry {
                    player: r.name.clone(),
                    outs: r.outs.trim().parse().unwrap_or(0),
                    hand_outs: r.hand_outs.trim().parse().unwrap_or(0),
                    julen: r.julen.trim().parse().unwrap_or(0),
                    joker: r.joker,
                    lost: r.lost,
                });
            }
            // The round as the page showed it, when it showed one of that number.
            let seen = first(fields, &format!("{VERSION_FIELD}{number}"));
            let replace = match (replace, seen) {
                (false, _) => Replace::No,
                (true, Some(version)) => Replace::IfVersion(version.to_string()),
                (true, None) => Replace::Any,
            };
            let change = Change::PutRound {
                date,
                table,
                number,
                results,
                replace,
                seat_newcomers: false,
                schockbesteck: None,
            };
            (number, change)
        });
    ReadRound {
        rows,
        number_input,
        replace,
        korrektur,
        parsed,
    }
}

/// `POST /verwaltung/abend/{date}/runde`: one round of one table (field `table`), stored or the
/// night page again with the form as typed and the refusal.
pub async fn post(
    reply: Reply,
    RequireSecretary(user): RequireSecretary,
    at: AtNight,
    axum_extra::extract::Form(fields): axum_extra::extract::Form<Fields>,
) -> Result<Response, AppError> {
    let table: u32 = first(&fields, "table")
        .and_then(|v| v.parse().ok())
        .ok_or_else(|| AppError::BadRequest("Tisch fehlt".into()))?;
    if draw::table_players(&at.night().draw, table).is_empty() {
        return Err(AppError::BadRequest(format!(
            "Tisch {table} gibt es an diesem Abend nicht"
        )));
    }
    let read = read(&at, table, &fields);
    let done = match read.parsed {
        Err(e) => Err(ServiceError::refused(e)),
        Ok((number, change)) => {
            let edit = Edit::by(&user.username).korrektur(read.korrektur.clone());
            reply
                .league
                .change(at.year(), change, &edit)
                .await
                .map(|_| number)
        }
    };
    let typed = Typed {
        round: Some((table, read.number_input, read.rows, read.replace)),
        korrektur: Some((korrektur_key("runde", table, 0), read.korrektur)),
        ..Typed::default()
    };
    let anchor = format!("tisch-{table}");
    let message = |n| format!("Runde {n} an Tisch {table} gespeichert.");
    end(reply, at.date, &anchor, done, message, typed).await
}

/// `POST /verwaltung/abend/{date}/runde/{table}/{number}/loeschen`: removes a round after the
/// confirmation box (a Korrektur on a closed night).
pub async fn remove(
    reply: Reply,
    RequireSecretary(user): RequireSecretary,
    at: AtNight,
    Path((_, table, number)): Path<(String, u32, u32)>,
    Form(form): Form<CorrectionForm>,
) -> Result<Response, AppError> {
    let correction = Correction {
        change: Change::RemoveRound {
            date: at.date,
            table,
            number,
            if_version: None,
        },
        ask: format!("Ja, Runde {number} löschen"),
        anchor: format!("tisch-{table}"),
        message: format!("Runde {number} an Tisch {table} gelöscht."),
        key: korrektur_key("loeschen", table, number),
    };
    correct(reply, &user.username, &at, &form, correction).await
}

/// `POST /verwaltung/abend/{date}/runde/{table}/{number}/verschieben`: moves a round entered at
/// the wrong table to the other (`nach`) after the confirmation box.
pub async fn move_to(
    reply: Reply,
    RequireSecretary(user): RequireSecretary,
    at: AtNight,
    Path((_, table, number)): Path<(String, u32, u32)>,
    Form(form): Form<CorrectionForm>,
) -> Result<Response, AppError> {
    let to: u32 = form.nach.trim().parse().map_err(|_| {
        AppError::BadRequest(format!("Tisch „{}“ gibt es nicht.", form.nach.trim()))
    })?;
    let correction = Correction {
        change: Change::MoveRound {
            date: at.date,
            table,
            number,
            to,
        },
        ask: format!("Ja, Runde {number} an Tisch {to} verschieben"),
        anchor: format!("tisch-{to}"),
        message: format!("Runde {number} von Tisch {table} an Tisch {to} verschoben."),
        key: korrektur_key("verschieben", table, number),
    };
    correct(reply, &user.username, &at, &form, correction).await
}
