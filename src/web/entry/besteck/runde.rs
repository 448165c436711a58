//! The Runde page of the Schockbesteck and its actions: start a Runde, enter a Wurfrunde, take the
//! last one back, discard the Runde, confirm its result into the round (`Change::PutRound`).

use axum::extract::{Query, State};
use axum::response::{IntoResponse, Response};
use serde::Deserialize;
use serde_json::json;

use crate::league::change::Replace;
use crate::league::model::file::ResultEntry;
use crate::league::model::format::date_de;
use crate::league::{model::draw, Change, Korrektur};
use crate::rules::{max_outs_per_round, RundeState};
use crate::service::besteck::RundeAt;
use crate::service::{AuditNote, Edit, League, ServiceError};
use crate::web::kit::{AppError, AtRound, Layout, Reply, Stored};

use super::throws::{first, typed_throws, Fields, TypedThrow};
use super::view::*;
use super::Writer;

/// The query of the Runde page: `gespeichert=N` after round N was confirmed.
#[derive(Deserialize)]
pub struct SavedQuery {
    /// The round just stored.
    pub gespeichert: Option<u32>,
}

pub async fn get(
    State(state): State<crate::web::AppState>,
    writer: Writer,
    layout: Layout,
    headers: axum::http::HeaderMap,
    at: AtRound,
    Query(q): Query<SavedQuery>,
) -> Result<Response, AppError> {
    let ctx = load(&state.league, &at, &writer).await?;
    let notice = q.gespeichert.map(|n| format!("Runde {n} ist gespeichert."));
    // A Wurfrunde that arrived after the login ran out comes back filled in (once).
    let path = format!("{}/wurfrunde", ctx.base());
    let kept = crate::web::kit::unsent::take(&headers, &path, state.secure_cookies);
    let typed = kept
        .as_ref()
        .map(|(k, _)| typed_throws(&k.fields()))
        .unwrap_or_default();
    let error = (!typed.is_empty()).then(|| {
        "Diese Wurfrunde ist noch nicht eingetragen (die Anmeldung war abgelaufen): bitte prüfen und eintragen."
            .to_string()
    });
    let page = render(
        layout,
        &ctx,
        Extra {
            notice,
            error,
            typed: &typed,
            ..Extra::default()
        },
    );
    Ok(match kept {
        Some((_, forget)) => ([(axum::http::header::SET_COOKIE, forget)], page).into_response(),
        None => page.into_response(),
    })
}

/// Ends an action on the Runde page: stored → `stored`'s page (a Wurfrunde shows itself, so
/// most actions redirect without a message); refused (the form's own check, another step that
/// came first, the league's check) → this Runde's page again with the reason and `extra`'s typed
/// values (422; 503 when the database was busy); a fault → the error page.
async fn end<T>(
    reply: Reply,
    ctx: &Ctx,
    done: Result<T, ServiceError>,
    stored: impl FnOnce(T) -> Stored,
    extra: Extra<'_>,
) -> Result<Response, AppError> {
    reply
        .finish(done, stored, async |refusal, layout| {
            Ok(render(
                layout,
                ctx,
                Extra {
                    error: Some(refusal.to_string()),
                    ..extra
                },
            ))
        })
        .await
}

/// The form's `seq` (Wurfrunden applied when the page was shown) must match the stored Runde, so a
/// double tap or a second phone cannot apply or undo twice.
fn stale(ctx: &Ctx, form: &Fields) -> Option<String> {
    let now = ctx.seq();
    let seen = first(form, "seq").and_then(|s| s.parse::<usize>().ok());
    // A page posts the fingerprint of the Runde it showed; a hand-made post without it is
    // checked by the number of Wurfrunden only.
    let changed =
        first(form, "runde").is_some_and(|id| id.trim() != fingerprint(ctx.runde.as_ref()));
    (seen != Some(now) || changed).then(|| {
        format!(
            "Die Anzeige war nicht mehr aktuell (inzwischen {now} Wurfrunden); bitte prüfen und neu eingeben."
        )
    })
}

/// Stores `runde` as the Runde in progress of `ctx` by `user`, against the state the page showed
/// (refused when another step came first).
async fn save(
    league: &League,
    user: &str,
    ctx: &Ctx,
    runde: &RundeState,
) -> Result<(), ServiceError> {
    let seen = ctx.runde.as_ref().map(|r| r.wurfrunden().len());
    league
        .save_runde(ctx.at, seen, Some(&runde.record()), user)
        .await
}

/// The start form: who plays (ticked, repeated `spieler`) and the Vorleger.
#[derive(Deserialize)]
pub struct StartForm {
    /// The ticked players' names.
    #[serde(default)]
    pub spieler: Vec<String>,
    /// The Vorleger's name.
    #[serde(default)]
    pub vorleger: String,
}

/// `POST …/start`: a new Runde with the ticked players, the Vorleger first.
pub async fn start(
    reply: Reply,
    writer: Writer,
    at: AtRound,
    axum_extra::extract::Form(form): axum_extra::extract::Form<StartForm>,
) -> Result<Response, AppError> {
    let ctx = load(&reply.league, &at, &writer).await?;
    let round = ctx.round;
    let ticked: Vec<&str> = form.spieler.iter().map(String::as_str).collect();
    let runde = if ctx.runde.is_some() || ctx.broken.is_some() {
        Err(ServiceError::refused(format!("Runde {round} läuft schon.")))
    } else if !ticked.contains(&form.vorleger.as_str()) {
        Err(ServiceError::refused("Der Vorleger muss mitspielen."))
    } else {
        let players = draw::seat_order(&ctx.table_players, &ticked, &form.vorleger);
        RundeState::new(players, ctx.game.clone()).map_err(|e| ServiceError::refused(e.to_string()))
    };
    let done = match runde {
        Ok(runde) => save(&reply.league, &writer.author, &ctx, &runde).await,
        Err(e) => Err(e),
    };
    let to = ctx.base();
    end(reply, &ctx, done, |()| Stored::at(to, ""), Extra::default()).await
}

/// `POST …/wurfrunde`: the throws of the next Wurfrunde, checked by the engine and applied.
pub async fn wurfrunde(
    reply: Reply,
    writer: Writer,
    at: AtRound,
    axum_extra::extract::Form(form): axum_extra::extract::Form<Fields>,
) -> Result<Response, AppError> {
    let ctx = load(&reply.league, &at, &writer).await?;
    let mut typed = typed_throws(&form);
    // A form loaded before a rename names the player as he was: his id names him as he is now.
    for (i, t) in typed.iter_mut().enumerate() {
        let id = first(&form, &format!("id{i}")).and_then(|v| v.parse::<i64>().ok());
        if let Some(now) = id.and_then(|id| ctx.ids.iter().find(|(_, v)| **v == id)) {
            t.player = now.0.clone();
        }
    }
    let applied = match (&ctx.runde, stale(&ctx, &form)) {
        (None, _) => Err("Diese Runde ist noch nicht begonnen.".to_string()),
        (Some(_), Some(msg)) => Err(msg),
        (Some(before), None) => typed
            .iter()
            .map(TypedThrow::to_input)
            .collect::<Result<Vec<_>, _>>()
            .and_then(|throws| {
                let mut runde = before.clone();
                runde
                    .apply_blind(throws, first(&form, "blind").is_some())
                    .map(|_| runde)
                    .map_err(|e| e.to_string())
            }),
    };
    let done = match applied {
        Ok(runde) => save(&reply.league, &writer.author, &ctx, &runde).await,
        Err(msg) => Err(ServiceError::refused(msg)),
    };
    let to = ctx.base();
    let extra = Extra {
        typed: &typed,
        ..Extra::default()
    };
    end(reply, &ctx, done, |()| Stored::at(to, ""), extra).await
}

/// `POST …/zurueck`: the last Wurfrunde taken back; the page shows its throws to correct and
/// enter again (answered with the page itself: the throws live only in it).
pub async fn undo(
    reply: Reply,
    writer: Writer,
    at: AtRound,
    axum_extra::extract::Form(form): axum_extra::extract::Form<Fields>,
) -> Result<Response, AppError> {
    let ctx = load(&reply.league, &at, &writer).await?;
    let taken = match (ctx.runde.clone(), stale(&ctx, &form)) {
        (_, Some(msg)) => Err(msg),
        (None, None) => Err("Diese Runde ist noch nicht begonnen.".to_string()),
        (Some(mut runde), None) => match runde
            .undo_last()
            .map_err(|e| AppError::Internal(format!("Zurücknehmen: {e}")))?
        {
            None => Err("Es gibt noch keine Wurfrunde.".to_string()),
            Some(undone) => Ok((runde, undone)),
        },
    };
    let (runde, undone) = match taken {
        Ok(t) => t,
        Err(msg) => {
            let done = Err::<(), _>(ServiceError::refused(msg));
            return end(reply, &ctx, done, |()| Stored::at("", ""), Extra::default()).await;
        }
    };
    let number = runde.wurfrunden().len() + 1;
    let saved = reply
        .league
        .save_runde(
            ctx.at,
            Some(ctx.seq()),
            Some(&runde.record()),
            &writer.author,
        )
        .await;
    if let Err(e) = saved {
        return end(
            reply,
            &ctx,
            Err::<(), _>(e),
            |()| Stored::at("", ""),
            Extra::default(),
        )
        .await;
    }
    let after = Ctx {
        runde: Some(runde),
        ..ctx
    };
    let typed: Vec<TypedThrow> = undone.throws.iter().map(TypedThrow::from_input).collect();
    Ok(render(
        reply.layout,
        &after,
        Extra {
            notice: Some(format!(
                "Wurfrunde {number} ist zurückgenommen: korrigieren und neu eintragen."
            )),
            typed: &typed,
            ..Extra::default()
        },
    )
    .into_response())
}

/// `POST …/verwerfen`: the Runde in progress is thrown away.
pub async fn discard(reply: Reply, writer: Writer, at: AtRound) -> Result<Response, AppError> {
    let here = RundeAt {
        night: at.at.night.id(),
        table: at.at.table,
        round: at.round,
    };
    let done = reply
        .league
        .save_runde(here, None, None, &writer.author)
        .await;
    let to = writer.round_path(at.at.night.date, at.at.table, at.round);
    let ctx = load(&reply.league, &at, &writer).await?;
    end(reply, &ctx, done, |()| Stored::at(to, ""), Extra::default()).await
}

/// `POST …/bestaetigen`: the finished Runde's tallies (from the throws, never from posted numbers)
/// stored as the round through the write pipeline; on to the next round's Runde page.
pub async fn confirm(
    reply: Reply,
    writer: Writer,
    at: AtRound,
    axum_extra::extract::Form(form): axum_extra::extract::Form<Fields>,
) -> Result<Response, AppError> {
    let ctx = load(&reply.league, &at, &writer).await?;
    let jokers: Vec<&str> = ctx
        .ids
        .iter()
        .filter(|(_, id)| form.contains_key(&format!("joker_{id}")))
        .map(|(name, _)| name.as_str())
        .collect();
    let korrektur = Korrektur {
        ticked: form.contains_key("korrektur"),
        reason: first(&form, "korrektur_grund")
            .unwrap_or_default()
            .to_string(),
    };
    let extra = Extra {
        jokers: &jokers,
        korrektur: korrektur.clone(),
        ..Extra::default()
    };
    let refuse = |msg: String| ServiceError::refused(msg);
    if let Some(msg) = stale(&ctx, &form) {
        return end(
            reply,
            &ctx,
            Err::<(), _>(refuse(msg)),
            |()| Stored::at("", ""),
            extra,
        )
        .await;
    }
    let Some(runde) = ctx.runde.as_ref().filter(|r| r.is_finished()) else {
        let done = Err::<(), _>(refuse("Die Runde hat noch keinen Verlierer.".into()));
        return end(reply, &ctx, done, |()| Stored::at("", ""), extra).await;
    };
    // The tallies come from the throws; posted numbers are ignored.
    let mut results = Vec::new();
    for t in runde.tallies() {
        let limit = max_outs_per_round(runde.rules(), Some(t.played_finale));
        if t.outs > limit {
            return Err(AppError::Internal(format!(
                "{}: {} Outs über der Grenze {limit}",
                t.player, t.outs
            )));
        }
        results.push(ResultEntry {
            joker: jokers.contains(&t.player.as_str()),
            player: t.player,
            outs: t.outs,
            hand_outs: t.hand_outs,
            julen: t.julen,
            lost: t.lost,
        });
    }
    let (table, round, date) = (ctx.table, ctx.round, ctx.date);
    // A round entered meanwhile (by the form, another phone) is replaced only when the page showed
    // it and the secretary ticked "Runde ersetzen": lost updates are refused, not silent.
    let stand = first(&form, "stand").unwrap_or_default().trim().to_string();
    let replace = if stand.is_empty() {
        Replace::No
    } else if form.contains_key("ersetzen") {
        Replace::IfVersion(stand)
    } else {
        let done = Err::<(), _>(refuse(format!(
            "Runde {round} ist an diesem Tisch schon eingetragen: zum Überschreiben „Runde ersetzen“ ankreuzen."
        )));
        return end(reply, &ctx, done, |()| Stored::at("", ""), extra).await;
    };
    let note = AuditNote {
        action: format!(
            "Runde {round} an Tisch {table} am {} aus dem Schockbesteck gespeichert",
            date_de(date)
        ),
        after: json!({ "results": results, "wurfrunden": runde.record().wurfrunden }),
    };
    let edit = Edit {
        author: writer.author.clone(),
        korrektur,
        note: Some(note),
        confirms_runde: Some((table, round)),
    };
    let change = Change::PutRound {
        date,
        table,
        number: round,
        results,
        replace,
        seat_newcomers: false,
        schockbesteck: Some(crate::rules::PlayedRunde::of_state(runde)),
    };
    let done = reply
        .league
        .change(ctx.season, change, &edit)
        .await
        .map(|_| ());
    let next = if round < ctx.rounds_per_night {
        format!(
            "{}?gespeichert={round}",
            writer.round_path(date, table, round + 1)
        )
    } else {
        format!("/abend/{date}")
    };
    let message = format!("Runde {round} an Tisch {table} gespeichert.");
    end(reply, &ctx, done, |()| Stored::at(next, message), extra).await
}
