//! Planned nights for everybody (issue 27): the page of a planned night (`/abend/{date}` until
//! its Spielabend starts: when and where, the forecast "8 Zusagen, 1 Absage – voraussichtlich
//! 1 Tisch", who comes), "Ich komme" / "Ich komme nicht" for whoever said "Das bin ich"
//! (`POST /abend/{date}/zusage`, limited per address and per player), and the next night as the
//! table and the player's page show it. Answers of "Das bin ich" are claims: the service keeps
//! one per player and night, never over one given on his own card or by the secretary.

use askama::Template;
use askama_web::WebTemplate;
use axum::extract::{Path, State};
use axum::http::{Method, StatusCode};
use axum::response::{IntoResponse, Redirect, Response};
use axum::Form;
use std::collections::BTreeMap;

use chrono::{Datelike, NaiveDate};
use serde::Deserialize;

use crate::league::model::format::date_de;
use crate::league::plan::planned::{PlanStatus, PlannedNight, Via};
use crate::league::plan::status::{active_first, Status};
use crate::service::{League, ServiceError, Snapshot};
use crate::web::kit::at::path_date;
use crate::web::kit::{AppError, Guard, Layout, Routes};
use crate::web::public::ich::{personal, Me};

/// The routes of this feature. The answer is rate-limited per client address
/// ([`crate::web::kit::security::zusage_rate_limit`]).
pub fn routes() -> Routes {
    let answer = axum::routing::post(answer);
    let answer = match crate::web::kit::security::zusage_rate_limit() {
        Some(limit) => answer.layer(limit),
        None => answer,
    };
    Routes::new()
        .add(
            Guard::Public,
            &[Method::POST],
            "/abend/{date}/zusage",
            answer,
        )
        .get(Guard::Public, "/abend/{date}/einladung", invitation)
}

/// The page "In die Gruppe" (issue 38.2).
#[derive(Template, WebTemplate)]
#[template(path = "public/einladung.html")]
struct InvitationPage {
    layout: Layout,
    iso: String,
    when: String,
    cancelled: bool,
    text: String,
    whatsapp: String,
    /// Rows of the text box: the text as wrapped on a phone (about 34 characters a line).
    lines: usize,
}

/// `GET /abend/{date}/einladung`: the invitation of the night planned on `date` for the club's
/// chat ([`PlannedNight::invitation`] with the forecast the night's page shows now and its link on
/// the club's public address), in a box to copy and as a `wa.me` link; a moved night's old day
/// leads to the new one's, a started or past one to its page; no plan that day: 404. Not kept
/// by any cache (the forecast moves with every answer).
async fn invitation(
    State(league): State<League>,
    address: crate::web::kit::links::PublicAddress,
    layout: Layout,
    Path(date): Path<String>,
) -> Result<Response, AppError> {
    let date = path_date(&date)?;
    let snapshot = league.snapshot();
    if let Some(moved) = snapshot.planning.moved_from(date) {
        return Ok(Redirect::to(&format!("/abend/{}/einladung", moved.date)).into_response());
    }
    let night = snapshot.planning.on(date).ok_or(AppError::NotFound)?;
    match status(&snapshot, night, layout.today) {
        PlanStatus::Open | PlanStatus::Cancelled => {}
        PlanStatus::Started | PlanStatus::Past => {
            return Ok(Redirect::to(&format!("/abend/{date}")).into_response())
        }
    }
    let link = address.link(&format!("/abend/{date}"));
    let text = night.invitation(split_of(&snapshot, date.year()), &link);
    let page = InvitationPage {
        iso: date.to_string(),
        when: night.when_de(),
        cancelled: night.cancelled,
        whatsapp: crate::league::money::reminder::whatsapp(&text),
        lines: text.chars().count() / 30 + 2,
        text,
        layout,
    };
    Ok(crate::web::kit::links::no_store(page))
}

/// The forecast's `split_tables_from` for a night in `year` (league.md §9): the season's, else
/// the year's default.
pub fn split_of(snapshot: &Snapshot, year: i32) -> u32 {
    snapshot.season(year).map_or_else(
        |_| crate::league::model::rules::SeasonRules::defaults_for(year).split_tables_from,
        |v| v.season.rules.split_tables_from,
    )
}

/// The status of `night` in `snapshot` on `today` ([`PlanStatus::of`]; started once its season
/// has a Spielabend on its day).
pub fn status(snapshot: &Snapshot, night: &PlannedNight, today: NaiveDate) -> PlanStatus {
    PlanStatus::of(night, today, snapshot.night(night.date).is_some())
}

/// The name of player `id`: the snapshot's (renames show at once), else the one loaded with the
/// answers.
pub fn name_of(snapshot: &Snapshot, id: i64, loaded: &str) -> String {
    snapshot.player_name(id).unwrap_or(loaded).to_string()
}

/// German: "zugesagt", "abgesagt".
fn said(coming: bool) -> &'static str {
    if coming {
        "zugesagt"
    } else {
        "abgesagt"
    }
}

/// The next night as the table and the player's page show it (issue 27).
pub struct NextNight {
    /// Its page.
    pub href: String,
    /// "Freitag, 08.01.2027, 19:30 Uhr".
    pub when: String,
    /// Where (may be empty).
    pub place: String,
    /// "8 Zusagen, 1 Absage – voraussichtlich 1 Tisch".
    pub forecast: String,
    /// The answer of the player it is shown for: "Du hast zugesagt.", "Anna hat noch nicht
    /// geantwortet." …; `None` when it is shown for nobody.
    pub answer: Option<String>,
}

/// The next night to answer in `snapshot` on `today` ([`crate::league::plan::planned::Planning::next`]),
/// with the answer of `player` (players.id and name) when given: addressed as "Du" when `du`.
pub fn next_night(
    snapshot: &Snapshot,
    today: NaiveDate,
    player: Option<(i64, &str)>,
    du: bool,
) -> Option<NextNight> {
    let night = next_planned(snapshot, today)?;
    Some(next_night_of(snapshot, night, player, du))
}

/// The next night to answer in `snapshot` on `today`
/// ([`crate::league::plan::planned::Planning::next`]: not cancelled, not started, not over).
pub fn next_planned(snapshot: &Snapshot, today: NaiveDate) -> Option<&PlannedNight> {
    snapshot
        .planning
        .next(today, |d| snapshot.night(d).is_some())
}

/// [`next_night`] of the planned `night` already found.
pub fn next_night_of(
    snapshot: &Snapshot,
    night: &PlannedNight,
    player: Option<(i64, &str)>,
    du: bool,
) -> NextNight {
    let answer = player.map(|(id, name)| {
        let subject = if du {
            "Du".to_string()
        } else {
            name.to_string()
        };
        match night.answer_of(id) {
            // Given before the night moved: not yet for its new day.
            Some(a) if !night.is_current(a) && du => format!(
                "Du hattest für den alten Tag, den {}, {}: bitte für den neuen Tag bestätigen.",
                date_de(a.for_date),
                said(a.coming)
            ),
            Some(a) if !night.is_current(a) => format!(
                "{subject} hatte für den alten Tag, den {}, {} ({}); für den neuen Tag noch \
                 nicht bestätigt.",
                date_de(a.for_date),
                said(a.coming),
                a.via.label()
            ),
            Some(a) if du => format!("Du hast {}.", said(a.coming)),
            Some(a) => format!("{subject} hat {} ({}).", said(a.coming), a.via.label()),
            None if du => "Du hast noch nicht geantwortet.".to_string(),
            None => format!("{subject} hat noch nicht geantwortet."),
        }
    });
    NextNight {
        href: format!("/abend/{}#zusage", night.date),
        when: night.when_de(),
        place: night.place.clone(),
        forecast: night
            .forecast(split_of(snapshot, night.date.year()))
            .sentence(),
        answer,
    }
}

/// The visitor who said "Das bin ich", on a planned night's page.
pub struct MeLine {
    /// His name.
    pub name: String,
    /// His answer: "Du hast zugesagt (über …)." or "Du hast noch nicht geantwortet.".
    pub answer: String,
    /// His answer for the night's day: `Some(true)` coming, `Some(false)` not, `None` none (or
    /// one for the old day of a move only).
    pub coming: Option<bool>,
}

/// The page of a planned night.
#[derive(Template, WebTemplate)]
#[template(path = "public/termin.html")]
struct PlannedPage {
    layout: Layout,
    /// `YYYY-MM-DD`.
    iso: String,
    /// "Freitag, 08.01.2027, 19:30 Uhr".
    when: String,
    place: String,
    note: String,
    /// "geplant", "abgesagt", …
    status: &'static str,
    /// Answers are taken.
    open: bool,
    cancelled: bool,
    forecast: String,
    /// Who said "Ich komme", the active ones (issue 36.4), alphabetically.
    coming: Vec<String>,
    /// Who said "Ich komme" and is pausiert or ausgetreten, alphabetically (folded).
    coming_others: Vec<String>,
    /// Who said "Ich komme nicht": the active first, alphabetically.
    declined: Vec<String>,
    /// The answers given before the night moved, not yet confirmed for its day: "Anna: hatte für
    /// den 01.01.2027 zugesagt".
    old: Vec<String>,
    /// The visitor's own line, when he said "Das bin ich".
    me: Option<MeLine>,
    /// Players to say "Das bin ich" for: (players.id, name), the active ones alphabetically.
    players: Vec<(i64, String)>,
    /// The others (pausiert, ausgetreten), in the select's own group.
    players_others: Vec<(i64, String)>,
    /// The refusal of his answer, at the top.
    error: Option<String>,
}

/// The statuses (issue 36.4) of the players of [`players_around`] for a night of `year`, by
/// player id: a player of season `year` has its status, any other his status of the year before
/// (a night planned in January, before the new season is there). Unread ones count as aktiv.
pub async fn statuses_around(league: &League, year: i32) -> BTreeMap<i64, Status> {
    let mut all = league.statuses(year - 1).await.unwrap_or_default();
    if let Ok(view) = league.snapshot().season(year) {
        all.retain(|id, _| !view.ids.players.values().any(|p| p == id));
    }
    all.extend(league.statuses(year).await.unwrap_or_default());
    all
}

/// The players of the seasons of `year` and the year before, by name (once each): whom a visitor
/// may say "Das bin ich" for on a night of `year`.
pub fn players_around(snapshot: &Snapshot, year: i32) -> Vec<(i64, String)> {
    let mut all: Vec<(i64, String)> = [year, year - 1]
        .iter()
        .filter_map(|y| snapshot.season(*y).ok())
        .flat_map(|v| v.ids.players.iter().map(|(n, id)| (*id, n.clone())))
        .collect();
    all.sort_by(|a, b| {
        (crate::league::name_key(&a.1), a.0).cmp(&(crate::league::name_key(&b.1), b.0))
    });
    all.dedup_by_key(|p| p.0);
    all
}

/// The page of the night planned on `date` (the one not cancelled, else the last cancelled) for
/// `me`, with `error` at the top; 404 when none is planned then. Marked private when rendered for
/// "Das bin ich". `statuses` (the season's, by player id; issue 36.4) order the lists: the
/// active first, alphabetically, the others apart.
pub fn page(
    layout: Layout,
    me: Me,
    snapshot: &Snapshot,
    (date, statuses): (NaiveDate, &BTreeMap<i64, Status>),
    error: Option<String>,
) -> Result<Response, AppError> {
    // Moved to another day: the link shared for this one leads on (303, as the night may move
    // again).
    if let Some(moved) = snapshot.planning.moved_from(date) {
        return Ok(Redirect::to(&format!("/abend/{}", moved.date)).into_response());
    }
    let night = snapshot.planning.on(date).ok_or(AppError::NotFound)?;
    let status = status(snapshot, night, layout.today);
    let status_of = |id: &i64| statuses.get(id).copied().unwrap_or_default();
    let names = |coming: bool| {
        let answers = night
            .current_answers()
            .filter(|a| a.coming == coming)
            .map(|a| (a.player_id, name_of(snapshot, a.player_id, &a.player)))
            .collect::<Vec<_>>();
        let (active, others) = active_first(answers, date, |a| &a.1, |a| status_of(&a.0));
        let names = |v: Vec<(i64, String)>| v.into_iter().map(|a| a.1).collect::<Vec<_>>();
        (names(active), names(others))
    };
    let (coming, coming_others) = names(true);
    let (mut declined, declined_others) = names(false);
    declined.extend(declined_others);
    let (players, players_others) = active_first(
        players_around(snapshot, date.year()),
        date,
        |p| &p.1,
        |p| status_of(&p.0),
    );
    let old = night
        .old_answers()
        .map(|a| {
            format!(
                "{}: hatte für den {} {}",
                name_of(snapshot, a.player_id, &a.player),
                date_de(a.for_date),
                said(a.coming)
            )
        })
        .collect();
    let me_line =
        me.0.and_then(|id| snapshot.player_name(id).map(|n| (id, n)));
    let me_line = me_line.map(|(id, name)| {
        let a = night.answer_of(id);
        MeLine {
            name: name.to_string(),
            answer: match a {
                Some(a) if night.is_current(a) => {
                    format!("Du hast {} ({}).", said(a.coming), a.via.label())
                }
                Some(a) => format!(
                    "Du hattest für den alten Tag, den {}, {} ({}): der Abend ist verschoben, \
                     bitte für den {} bestätigen.",
                    date_de(a.for_date),
                    said(a.coming),
                    a.via.label(),
                    date_de(night.date)
                ),
                None => "Du hast noch nicht geantwortet.".to_string(),
            },
            coming: night.current_answer_of(id).map(|a| a.coming),
        }
    });
    let layout = layout.with_picture(
        crate::web::public::bild::night_picture(snapshot, date),
        &format!("/bild/abend/{date}"),
    );
    let page = PlannedPage {
        iso: date.to_string(),
        when: night.when_de(),
        place: night.place.clone(),
        note: night.note.clone(),
        status: status.label(),
        open: status == PlanStatus::Open,
        cancelled: night.cancelled,
        forecast: night.forecast(split_of(snapshot, date.year())).sentence(),
        coming,
        coming_others,
        declined,
        old,
        me: me_line,
        players,
        players_others,
        error,
        layout,
    };
    let status = if page.error.is_some() {
        StatusCode::UNPROCESSABLE_ENTITY
    } else {
        StatusCode::OK
    };
    Ok(personal(me, (status, page).into_response()))
}

/// The answer form: "ja" (Ich komme) or "nein".
#[derive(Deserialize)]
pub struct AnswerForm {
    /// "ja" or "nein".
    pub kommt: String,
}

/// "ja" → true, "nein" → false; anything else is refused (German).
pub fn coming_of(typed: &str) -> Result<bool, ServiceError> {
    match typed {
        "ja" => Ok(true),
        "nein" => Ok(false),
        other => Err(ServiceError::refused(format!(
            "Antwort: „{}“ ist weder „ja“ noch „nein“.",
            other.chars().take(20).collect::<String>()
        ))),
    }
}

/// `POST /abend/{date}/zusage`: "Ich komme" or "Ich komme nicht" of the player the visitor said
/// "Das bin ich" for; back to the night's page, or the page again (422) with the refusal (503
/// for a busy database).
async fn answer(
    State(league): State<League>,
    layout: Layout,
    client: crate::web::kit::client::ClientAddr,
    me: Me,
    Path(date): Path<String>,
    Form(form): Form<AnswerForm>,
) -> Result<Response, AppError> {
    let date = path_date(&date)?;
    let snapshot = league.snapshot();
    // A page opened before the night was moved answers for the night where it is now.
    let night = snapshot
        .planning
        .active_on(date)
        .or_else(|| snapshot.planning.moved_from(date))
        // A cancelled one: the service refuses it in words ("… ist abgesagt"), not a 404.
        .or_else(|| snapshot.planning.on(date))
        .ok_or(AppError::NotFound)?;
    let date = night.date;
    let done = match (
        me.0.filter(|id| snapshot.player_name(*id).is_some()),
        coming_of(&form.kommt),
    ) {
        (None, _) => Err(ServiceError::refused(
            "Erst unten „Das bin ich“ wählen: dann kannst du zu- oder absagen.",
        )),
        (_, Err(e)) => Err(e),
        (Some(id), Ok(coming)) => league
            .answer_planned(night.id, id, coming, &Via::Ich, Some(client.key()))
            .await
            .map(|_| ()),
    };
    match done {
        Ok(()) => Ok(Redirect::to(&format!("/abend/{date}#zusage")).into_response()),
        Err(e) => {
            let refusal = e.into_refusal()?;
            let busy = refusal.kind == crate::service::RefusalKind::Busy;
            let statuses = statuses_around(&league, date.year()).await;
            let mut resp = page(
                layout,
                me,
                &league.snapshot(),
                (date, &statuses),
                Some(refusal.to_string()),
            )?;
            if busy {
                *resp.status_mut() = StatusCode::SERVICE_UNAVAILABLE;
                if let Some(retry) = crate::web::kit::respond::retry_after(&refusal) {
                    resp.headers_mut()
                        .insert(axum::http::header::RETRY_AFTER, retry);
                }
            }
            Ok(resp)
        }
    }
}
