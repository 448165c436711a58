//! The secretary's planned nights (issue 27, interchange.md "Planned nights and a player's own
//! card"): `/verwaltung/termine` lists them with who answered, plans a new one (a year without a
//! season gets one), changes, moves, cancels, plans a cancelled one again, answers for a player,
//! and starts one (its Spielabend with the Zusagen ticked as present).

use std::collections::{BTreeMap, BTreeSet};

use askama::Template;
use askama_web::WebTemplate;
use axum::extract::{Path, State};
use axum::response::Response;
use axum::Form;
use chrono::NaiveDate;
use serde::Deserialize;

use crate::league::plan::planned::{PlanStatus, Via};
use crate::league::plan::status::{active_first, Status};
use crate::service::planned::{Cancelled, OnPlanned, PlanInput, Planned};
use crate::service::{League, ServiceError, Snapshot};
use crate::web::kit::respond::{Reply, Stored};
use crate::web::kit::session::RequireSecretary;
use crate::web::kit::{AppError, Layout};
use crate::web::public::termine::{name_of, players_around, split_of, status};

/// What the plan form typed: day, start, place, note.
#[derive(Debug, Clone, Default, Deserialize)]
pub struct PlanForm {
    /// The day: `2027-01-08` (a date field) or `08.01.2027`.
    #[serde(default)]
    pub datum: String,
    /// The start: `19:30`; empty: as planned last.
    #[serde(default)]
    pub zeit: String,
    /// The place.
    #[serde(default)]
    pub ort: String,
    /// A note for the players.
    #[serde(default)]
    pub hinweis: String,
}

/// The secretary's answer for a player: `spieler` (players.id) and `kommt` (`ja`, `nein`, or
/// `weg` to remove his answer).
#[derive(Debug, Clone, Deserialize)]
pub struct AnswerForm {
    /// `players.id`.
    pub spieler: String,
    /// `ja`, `nein` or `weg`.
    pub kommt: String,
}

/// A form without fields (cancel, plan again, start).
#[derive(Debug, Clone, Deserialize)]
pub struct Empty {}

/// One answer as the page lists it.
pub struct AnswerLine {
    /// His name.
    pub name: String,
    /// "kommt" / "kommt nicht".
    pub said: &'static str,
    /// "über „Das bin ich“", …
    pub via: String,
    /// Given before the night moved: the old day ("01.01.2027"), not counted until confirmed.
    pub old_day: Option<String>,
}

/// One planned night on the page.
pub struct TerminLine {
    /// `planned_nights.id`.
    pub id: i64,
    /// `YYYY-MM-DD`.
    pub iso: String,
    /// "Freitag, 08.01.2027, 19:30 Uhr".
    pub when: String,
    /// `19:30`.
    pub time: String,
    /// Place and note.
    pub place: String,
    /// The note.
    pub note: String,
    /// "geplant", "hat begonnen", "abgeschlossen", "vorbei", "abgesagt".
    pub status: &'static str,
    /// Answers are taken; it can be changed, cancelled and started.
    pub open: bool,
    /// Cancelled: it can be planned again.
    pub cancelled: bool,
    /// Its Spielabend exists and is not closed.
    pub started: bool,
    /// Its Spielabend was played and closed (a link to it, nothing to cancel).
    pub closed: bool,
    /// "8 Zusagen, 1 Absage – voraussichtlich 1 Tisch".
    pub forecast: String,
    /// Who answered: the active players alphabetically (issue 36.4), then the others (folded).
    pub answers: Vec<AnswerLine>,
    pub answers_others: Vec<AnswerLine>,
    /// Whom the secretary may answer for: (players.id, name), the active alphabetically, then
    /// the others (their own group).
    pub players: Vec<(i64, String)>,
    pub players_others: Vec<(i64, String)>,
}

/// The page.
#[derive(Template, WebTemplate)]
#[template(path = "entry/termine.html")]
pub struct TerminePage {
    layout: Layout,
    error: Option<String>,
    typed: PlanForm,
    /// The start a new night gets when none is typed.
    default_time: String,
    /// Open and started nights from today on.
    upcoming: Vec<TerminLine>,
    /// Past and cancelled ones.
    others: Vec<TerminLine>,
}

/// The page for `layout` with `error` at the top and `typed` in the plan form.
pub fn render(
    layout: Layout,
    snapshot: &Snapshot,
    statuses: &Statuses,
    typed: PlanForm,
    error: Option<String>,
) -> TerminePage {
    let today = layout.today;
    let planning = &snapshot.planning;
    let (mut upcoming, mut others) = (Vec::new(), Vec::new());
    for night in &planning.nights {
        let st = status(snapshot, night, today);
        let year = chrono::Datelike::year(&night.date);
        // Played and closed: no more to come, nothing to cancel (fifth trial).
        let closed = st == PlanStatus::Started
            && snapshot
                .season(year)
                .ok()
                .and_then(|v| v.season.night(night.date).map(|n| n.closed))
                .unwrap_or(false);
        let of_year = statuses.get(&year);
        let status_of = |id: i64| {
            of_year
                .and_then(|m| m.get(&id))
                .copied()
                .unwrap_or_default()
        };
        let answers: Vec<(i64, AnswerLine)> = night
            .answers
            .iter()
            .map(|a| {
                let line = AnswerLine {
                    name: name_of(snapshot, a.player_id, &a.player),
                    said: if a.coming { "kommt" } else { "kommt nicht" },
                    via: a.via.label(),
                    old_day: (!night.is_current(a))
                        .then(|| crate::league::model::format::date_de(a.for_date)),
                };
                (a.player_id, line)
            })
            .collect();
        let (answers, answers_others) =
            active_first(answers, night.date, |a| &a.1.name, |a| status_of(a.0));
        let (players, players_others) = active_first(
            players_around(snapshot, year),
            night.date,
            |p| &p.1,
            |p| status_of(p.0),
        );
        let unzip =
            |v: Vec<(i64, AnswerLine)>| -> Vec<AnswerLine> { v.into_iter().map(|a| a.1).collect() };
        let line = TerminLine {
            id: night.id,
            iso: night.date.to_string(),
            when: night.when_de(),
            time: night.time.format("%H:%M").to_string(),
            place: night.place.clone(),
            note: night.note.clone(),
            status: if closed { "abgeschlossen" } else { st.label() },
            open: st == PlanStatus::Open,
            cancelled: st == PlanStatus::Cancelled,
            started: st == PlanStatus::Started && !closed,
            closed,
            forecast: night.forecast(split_of(snapshot, year)).sentence(),
            answers: unzip(answers),
            answers_others: unzip(answers_others),
            players,
            players_others,
        };
        match st {
            PlanStatus::Open | PlanStatus::Started if night.date >= today && !closed => {
                upcoming.push(line)
            }
            _ => others.push(line),
        }
    }
    others.reverse();
    TerminePage {
        layout,
        error,
        typed,
        default_time: planning.default_time().format("%H:%M").to_string(),
        upcoming,
        others,
    }
}

/// The statuses of the players (issue 36.4) by season year and player id.
pub type Statuses = BTreeMap<i32, BTreeMap<i64, Status>>;

/// The statuses of every season with a planned night, for a night before its season those of
/// the year before ([`crate::web::public::termine::statuses_around`]; unread ones count as
/// aktiv: the page still shows).
pub async fn statuses_of(league: &League) -> Statuses {
    let years: BTreeSet<i32> = league
        .snapshot()
        .planning
        .nights
        .iter()
        .map(|n| chrono::Datelike::year(&n.date))
        .collect();
    let mut out = Statuses::new();
    for year in years {
        out.insert(
            year,
            crate::web::public::termine::statuses_around(league, year).await,
        );
    }
    out
}

/// `GET /verwaltung/termine`: the planned nights and the plan form.
pub async fn get(State(league): State<League>, layout: Layout) -> TerminePage {
    let statuses = statuses_of(&league).await;
    render(
        layout,
        &league.snapshot(),
        &statuses,
        PlanForm::default(),
        None,
    )
}

/// A typed day: `2027-01-08` or `08.01.2027`; refused (German) otherwise.
pub fn parse_day(typed: &str) -> Result<NaiveDate, ServiceError> {
    let t = typed.trim();
    if t.is_empty() {
        return Err(ServiceError::refused("Datum fehlt."));
    }
    NaiveDate::parse_from_str(t, "%Y-%m-%d")
        .or_else(|_| NaiveDate::parse_from_str(t, "%d.%m.%Y"))
        .map_err(|_| {
            ServiceError::refused(format!(
                "Datum: „{}“ ist kein Tag (TT.MM.JJJJ, z. B. 08.01.2027).",
                t.chars().take(20).collect::<String>()
            ))
        })
}

/// The plan input of `form`: every field given (empty time: the default).
fn input_of(form: &PlanForm) -> Result<PlanInput, ServiceError> {
    Ok(PlanInput {
        date: Some(parse_day(&form.datum)?),
        time: Some(form.zeit.clone()),
        place: Some(form.ort.clone()),
        note: Some(form.hinweis.clone()),
    })
}

/// Ends a form of the page: stored → the page at `anchor` with the message; refused → the page
/// again with `typed` and the reason.
async fn end(
    reply: Reply,
    done: Result<(String, String), ServiceError>,
    typed: PlanForm,
) -> Result<Response, AppError> {
    let league = reply.league.clone();
    let statuses = statuses_of(&league).await;
    reply
        .finish(
            done,
            |(to, message)| Stored::at(to, message),
            async |refusal, layout| {
                Ok(render(
                    layout,
                    &league.snapshot(),
                    &statuses,
                    typed,
                    Some(refusal.to_string()),
                ))
            },
        )
        .await
}

/// The day of planned night `id` in German, for the messages.
fn day_of(league: &League, id: i64) -> String {
    league
        .planning()
        .by_id(id)
        .map(|n| crate::league::model::format::date_de(n.date))
        .unwrap_or_default()
}

/// `POST /verwaltung/termine`: plans a new night.
pub async fn plan(
    reply: Reply,
    RequireSecretary(user): RequireSecretary,
    Form(form): Form<PlanForm>,
) -> Result<Response, AppError> {
    let done = match input_of(&form) {
        Ok(input) => reply
            .league
            .plan_night(&input, OnPlanned::Refuse, &user.username)
            .await
            .map(|planned| {
                let id = planned.id();
                let day = day_of(&reply.league, id);
                let message = match planned {
                    Planned::Revived(_) => format!("Abend am {day} wieder angesetzt."),
                    _ => format!("Abend am {day} geplant."),
                };
                (format!("/verwaltung/termine#termin-{id}"), message)
            }),
        Err(e) => Err(e),
    };
    end(reply, done, form).await
}

/// `POST /verwaltung/termine/{id}`: changes or moves planned night `id`.
pub async fn edit(
    reply: Reply,
    RequireSecretary(user): RequireSecretary,
    Path(id): Path<i64>,
    Form(form): Form<PlanForm>,
) -> Result<Response, AppError> {
    let done = match input_of(&form) {
        Ok(input) => reply
            .league
            .edit_planned(id, &input, &user.username)
            .await
            .map(|()| {
                (
                    format!("/verwaltung/termine#termin-{id}"),
                    format!("Abend am {} gespeichert.", day_of(&reply.league, id)),
                )
            }),
        Err(e) => Err(e),
    };
    end(reply, done, PlanForm::default()).await
}

/// `POST /verwaltung/termine/{id}/absagen`: cancels planned night `id`.
pub async fn cancel(
    reply: Reply,
    RequireSecretary(user): RequireSecretary,
    Path(id): Path<i64>,
    Form(_): Form<Empty>,
) -> Result<Response, AppError> {
    let day = day_of(&reply.league, id);
    let done = reply
        .league
        .cancel_planned(id, &user.username)
        .await
        .map(|c| {
            let message = match c {
                Cancelled::Cancelled => format!("Abend am {day} abgesagt."),
                Cancelled::WithNight => {
                    format!("Abend am {day} abgesagt; sein leerer Spielabend ist gelöscht.")
                }
            };
            (format!("/verwaltung/termine#termin-{id}"), message)
        });
    end(reply, done, PlanForm::default()).await
}

/// `POST /verwaltung/termine/{id}/ansetzen`: plans cancelled night `id` again.
pub async fn revive(
    reply: Reply,
    RequireSecretary(user): RequireSecretary,
    Path(id): Path<i64>,
    Form(_): Form<Empty>,
) -> Result<Response, AppError> {
    let done = reply
        .league
        .revive_planned(id, &user.username)
        .await
        .map(|()| {
            (
                format!("/verwaltung/termine#termin-{id}"),
                format!("Abend am {} wieder angesetzt.", day_of(&reply.league, id)),
            )
        });
    end(reply, done, PlanForm::default()).await
}

/// `POST /verwaltung/termine/{id}/beginnen`: starts planned night `id` (its Spielabend, the
/// Zusagen ticked as present) and goes to the night's page.
pub async fn start(
    reply: Reply,
    RequireSecretary(user): RequireSecretary,
    Path(id): Path<i64>,
    Form(_): Form<Empty>,
) -> Result<Response, AppError> {
    let done = reply
        .league
        .start_planned(id, &user.username)
        .await
        .map(|date| {
            (
                format!("/verwaltung/abend/{date}#teilnehmer"),
                format!(
                    "Spielabend {} begonnen: wer zugesagt hat, ist angekreuzt.",
                    crate::league::model::format::date_de(date)
                ),
            )
        });
    end(reply, done, PlanForm::default()).await
}

/// `POST /verwaltung/termine/{id}/antwort`: the secretary's answer for a player (or removes it).
pub async fn answer(
    reply: Reply,
    RequireSecretary(user): RequireSecretary,
    Path(id): Path<i64>,
    Form(form): Form<AnswerForm>,
) -> Result<Response, AppError> {
    let to = format!("/verwaltung/termine#termin-{id}");
    let done = match form.spieler.trim().parse::<i64>() {
        Err(_) => Err(ServiceError::refused("Spieler: bitte einen auswählen.")),
        Ok(player) => {
            let name = reply
                .league
                .snapshot()
                .player_name(player)
                .unwrap_or_default()
                .to_string();
            match form.kommt.as_str() {
                "weg" => reply
                    .league
                    .clear_answer(id, player, &user.username)
                    .await
                    .map(|had| {
                        let message = if had {
                            format!("Antwort von {name} gelöscht.")
                        } else {
                            format!("{name} hatte nicht geantwortet.")
                        };
                        (to, message)
                    }),
                kommt => match crate::web::public::termine::coming_of(kommt) {
                    Err(e) => Err(e),
                    Ok(coming) => reply
                        .league
                        .answer_planned(
                            id,
                            player,
                            coming,
                            &Via::Verwaltung(user.username.clone()),
                            None,
                        )
                        .await
                        .map(|_| {
                            let said = if coming { "Zusage" } else { "Absage" };
                            (to, format!("{said} für {name} eingetragen."))
                        }),
                },
            }
        }
    };
    end(reply, done, PlanForm::default()).await
}
