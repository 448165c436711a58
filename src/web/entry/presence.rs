//! Who plays tonight (league.md §9): the presence form with the draw by lot, and a late arrival
//! seated at a table (with the `late` fine when ticked).

use std::collections::BTreeSet;

use axum::response::Response;
use axum::Form;
use serde::Deserialize;

use super::night::{end, korrektur_key, Typed};
use crate::league::{model::draw, Change, Korrektur};
use crate::service::{Edit, ServiceError};
use crate::web::kit::form::KorrekturFields;
use crate::web::kit::session::RequireSecretary;
use crate::web::kit::{AppError, AtNight, Reply};

/// The presence form: the ticked player ids (repeated `present`) and the Korrektur fields.
#[derive(Deserialize)]
pub struct PresenceForm {
    /// `players.id` of every ticked player, as sent.
    #[serde(default)]
    pub present: Vec<String>,
    /// Korrektur box of a closed night.
    #[serde(default)]
    pub korrektur: Option<String>,
    /// Korrektur reason of a closed night.
    #[serde(default)]
    pub korrektur_grund: String,
    /// Present when "Tische neu auslosen" was asked for (everybody may move).
    #[serde(default)]
    pub neu_auslosen: Option<String>,
    /// Present when the re-draw was confirmed ("Ja, alle Tische neu auslosen").
    #[serde(default)]
    pub bestaetigt: Option<String>,
}

/// `POST /verwaltung/abend/{date}/teilnehmer`: who is present; draws the tables by lot the first
/// time (and when asked to draw again), else keeps everybody seated.
pub async fn post(
    reply: Reply,
    RequireSecretary(user): RequireSecretary,
    at: AtNight,
    axum_extra::extract::Form(form): axum_extra::extract::Form<PresenceForm>,
) -> Result<Response, AppError> {
    let date = at.date;
    let korrektur = Korrektur {
        ticked: form.korrektur.is_some(),
        reason: form.korrektur_grund.clone(),
    };
    let ticked: BTreeSet<i64> = form.present.iter().filter_map(|v| v.parse().ok()).collect();
    let done = match form.present.iter().find(|v| v.parse::<i64>().is_err()) {
        // A value that is no player number is refused, not dropped.
        Some(v) => Err(ServiceError::refused(format!(
            "Teilnehmer: „{}“ ist keine Spielernummer.",
            v.chars().take(40).collect::<String>()
        ))),
        None => {
            let names: Option<Vec<String>> = ticked
                .iter()
                .map(|id| at.view.player_name(*id).map(str::to_string))
                .collect();
            match names {
                None => Err(ServiceError::refused(
                    "Nur Spieler der Saison können teilnehmen.",
                )),
                Some(_) if form.neu_auslosen.is_some() && form.bestaetigt.is_none() => {
                    Err(ServiceError::refused(
                        "Zum Neu-Auslosen „Ja, alle Tische neu auslosen“ ankreuzen: dann sitzt jeder neu.",
                    ))
                }
                Some(names) => {
                    let rules = &at.view.season.rules;
                    // Once a draw is shown nobody moves: who leaves is taken out, newcomers sit at
                    // the smaller table. A new draw by lot only when asked for.
                    let seats = draw::update(
                        &at.night().draw,
                        &names,
                        rules.split_tables_from,
                        form.neu_auslosen.is_some(),
                        &mut rand::rng(),
                    );
                    let edit = Edit::by(&user.username).korrektur(korrektur.clone());
                    reply
                        .league
                        .change(at.year(), Change::SetDraw { date, seats }, &edit)
                        .await
                        .map(|_| ())
                }
            }
        }
    };
    let typed = Typed {
        present: Some(ticked),
        korrektur: Some((korrektur_key("teilnehmer", 0, 0), korrektur)),
        ..Typed::default()
    };
    let message = if at.night().draw.is_empty() || form.neu_auslosen.is_some() {
        "Teilnehmer gespeichert und Tische ausgelost."
    } else {
        "Teilnehmer gespeichert; wer schon saß, sitzt noch am selben Tisch."
    }
    .to_string();
    let anchor = if done.is_ok() { "tische" } else { "teilnehmer" };
    end(reply, date, anchor, done, |()| message, typed).await
}

/// The late-arrival form ("Nachzügler"): the player, the table (empty: the smaller one) and
/// whether to book the `late` fine with it.
#[derive(Deserialize)]
pub struct LateForm {
    /// `players.id` of the late arrival.
    pub player: i64,
    /// "1" or "2"; empty: the table with fewer players (a tie: table 2).
    #[serde(default)]
    pub table: String,
    /// Present when the fine `late` is booked in the same step.
    #[serde(default)]
    pub fine: Option<String>,
    /// Korrektur fields of a closed night.
    #[serde(flatten)]
    pub korrektur: KorrekturFields,
}

/// `POST /verwaltung/abend/{date}/nachzuegler`: seats a late arrival (at the smaller table unless
/// one is chosen), with the `late` fine when ticked.
pub async fn late(
    reply: Reply,
    RequireSecretary(user): RequireSecretary,
    at: AtNight,
    Form(form): Form<LateForm>,
) -> Result<Response, AppError> {
    let date = at.date;
    let player = at.player(form.player)?;
    let table = match form.table.trim() {
        "" => Ok(None),
        t => t
            .parse::<u32>()
            .map(Some)
            .map_err(|_| ServiceError::refused(format!("Tisch „{t}“ gibt es nicht."))),
    };
    let done = match table {
        Err(e) => Err(e),
        Ok(table) => {
            let mut changes = vec![Change::SeatPlayer {
                date,
                player: player.clone(),
                table,
            }];
            if form.fine.is_some() {
                changes.push(Change::BookFine {
                    date,
                    player: player.clone(),
                    kind: "late".into(),
                    paid: false,
                    again: false,
                });
            }
            let edit = Edit::by(&user.username).korrektur(Korrektur::from(&form.korrektur));
            reply
                .league
                .changes(at.year(), &changes, &edit)
                .await
                .map(|_| ())
        }
    };
    let seated = reply
        .league
        .snapshot()
        .night(date)
        .and_then(|(_, n)| n.draw.iter().find(|s| s.player == player).map(|s| s.table));
    let message = match (seated, form.fine.is_some()) {
        (Some(t), true) => {
            format!("{player} spielt ab jetzt an Tisch {t} mit; Zuspätkommer gebucht.")
        }
        (Some(t), false) => format!("{player} spielt ab jetzt an Tisch {t} mit."),
        (None, _) => String::new(),
    };
    end(
        reply,
        date,
        "nachzuegler",
        done,
        |()| message,
        Typed::default(),
    )
    .await
}
