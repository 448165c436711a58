//! Scorer links (issue 11.2, SECURITY.md "Scorer links"): on the secretary's night page "Tisch 2
//! schreiben" makes a link with a QR code, shown once; its holder, without an account, opens the
//! page of that table at that night (`/tisch/{token}/{date}/{table}`) and enters or corrects its
//! rounds there, until the night is closed or the link is revoked. The link group's middleware
//! ([`crate::web::kit::session::link_guard`]) checks the token on every request and refuses (403) a link that is unknown,
//! revoked, of a closed night, or used for another night or table; the audit log names the author
//! "Tisch 2 (Link von anna)". Its forms carry `einmal` and go through the `once` layer, keyed on
//! the link.

use askama::Template;
use askama_web::WebTemplate;
use axum::extract::rejection::QueryRejection;
use axum::extract::{Path, Query, State};
use axum::response::{IntoResponse, Response};
use axum::{Extension, Form};
use serde::Deserialize;
use tower_sessions::Session;

use super::night::{
    blank_rows, correction_of, end_with, next_round, running_at, taken_numbers, EnteredRound, Typed,
};
use super::round;
use super::round_input::{Fields, RowInput};
use crate::league::model::format::date_de;
use crate::service::scorer::{link_path, ScorerLink};
use crate::service::{Edit, League, ServiceError};
use crate::web::kit::links::{self, PublicAddress};
use crate::web::kit::session::RequireSecretary;
use crate::web::kit::{AppError, AtNight, Guard, Layout, Reply, Routes, Stored, Today};

/// The session key of a link made and not yet shown: "date|table|token".
const SHOW_ONCE_KEY: &str = "scorer_link_once";

/// The routes of this feature.
pub fn routes() -> Routes {
    Routes::new()
        .post(
            Guard::Secretary,
            "/verwaltung/abend/{date}/tisch/{table}/link",
            create_link,
        )
        .get(
            Guard::Secretary,
            "/verwaltung/abend/{date}/tisch/{table}/link",
            show_link,
        )
        .post(
            Guard::Secretary,
            "/verwaltung/abend/{date}/tisch/{table}/link/widerrufen",
            revoke_link,
        )
        .get(Guard::Link, "/tisch/{token}/{date}/{table}", table_page)
        .post(
            Guard::Link,
            "/tisch/{token}/{date}/{table}/runde",
            save_round,
        )
}

/// The link's own page: the rounds entered at its table and the round form.
#[derive(Template, WebTemplate)]
#[template(path = "entry/scorer_table.html")]
struct TablePage {
    layout: Layout,
    /// The link's path (`/tisch/{token}/{date}/{table}`), the forms' base.
    base: String,
    /// The stream of the night's live board (`/live/{date}/ereignisse`) that the page's script
    /// (static/tisch.js) follows.
    events: String,
    date: String,
    table: u32,
    created_by: String,
    rounds: Vec<EnteredRound>,
    round_input: String,
    replace: bool,
    rows: Vec<RowInput>,
    joker_allowed: bool,
    error: Option<String>,
    /// Every round of the night is entered at this table (the form folds away under
    /// „Eine Runde korrigieren“).
    finished: bool,
    /// Rounds per night (league.md §1).
    rounds_per_night: u32,
    /// The rounds of this table running in the Schockbesteck (the form does not offer them).
    running: Vec<u32>,
    /// The round the Schockbesteck link opens: the running one, else the next free one.
    besteck_round: u32,
    /// The round numbers entered or running here ([`taken_numbers`]): the script proposes none
    /// of them, nor a round waiting on the phone (issue 31.5).
    taken: String,
    /// The round field holds the page's proposal (not typed, not a correction).
    proposed: bool,
}

/// The page of `link` at night `at`; `typed` = (round field, rows, replace, refusal) of a
/// refused form, or of a correction that starts from a stored round (no refusal).
fn render(
    layout: Layout,
    link: &ScorerLink,
    base: String,
    at: &AtNight,
    running: Vec<u32>,
    typed: Option<(String, Vec<RowInput>, bool, Option<String>)>,
) -> TablePage {
    let night = at.night();
    let rules = &at.view.season.rules;
    let rounds: Vec<EnteredRound> = night
        .tables
        .iter()
        .find(|t| t.number == link.table)
        .map(|t| t.rounds.iter().map(EnteredRound::of).collect())
        .unwrap_or_default();
    let next = next_round(&rounds, &running, rules.rounds_per_night);
    let correcting = typed.as_ref().is_some_and(|t| t.3.is_none());
    let proposed = typed.is_none();
    let taken = taken_numbers(&rounds, &running);
    let (round_input, rows, replace, error) = match typed {
        Some((input, rows, replace, error)) => (input, rows, replace, error),
        None => (
            next.to_string(),
            blank_rows(night, link.table, &at.view.ids.players),
            false,
            None,
        ),
    };
    let finished = error.is_none()
        && !correcting
        && (1..=rules.rounds_per_night).all(|n| rounds.iter().any(|r| r.number == n));
    TablePage {
        layout,
        base,
        events: format!("/live/{}/ereignisse", at.date),
        date: date_de(at.date),
        table: link.table,
        created_by: link.created_by.clone(),
        rounds,
        round_input,
        replace,
        rows,
        joker_allowed: rules.joker_multiplier.is_some(),
        finished,
        rounds_per_night: rules.rounds_per_night,
        error,
        besteck_round: running.first().copied().unwrap_or(next),
        running,
        taken,
        proposed,
    }
}

/// The layout of a link's page: no account, a fresh `einmal` token, the flash message of the
/// last redirect.
async fn link_layout(session: &Session, today: chrono::NaiveDate) -> Layout {
    let flash = session.remove::<String>("flash").await.ok().flatten();
    Layout {
        user: None,
        flash,
        once: crate::web::kit::once::token(),
        today,
        ..Layout::default()
    }
}

/// The query of the link's page: `korrigieren=3` opens the round form with round 3 as stored
/// (issue 31.11).
#[derive(Deserialize, Default)]
struct TableQuery {
    #[serde(default)]
    korrigieren: Option<String>,
}

/// `GET /tisch/{token}/{date}/{table}`: the rounds entered at the link's table and the round form
/// (with `?korrigieren=3` starting from round 3 as stored).
async fn table_page(
    State(league): State<League>,
    Extension(link): Extension<ScorerLink>,
    Path((token, _, _)): Path<(String, String, u32)>,
    session: Session,
    Today(today): Today,
    at: AtNight,
    query: Result<Query<TableQuery>, QueryRejection>,
) -> Response {
    let base = link_path(&token, link.date, link.table);
    let layout = link_layout(&session, today).await;
    let running = running_at(&league, &at, link.table).await;
    let correcting = query
        .ok()
        .and_then(|q| q.0.korrigieren)
        .and_then(|n| n.trim().parse::<u32>().ok())
        .and_then(|n| correction_of(at.night(), link.table, n, &at.view.ids.players))
        .map(|(input, rows, replace)| (input, rows, replace, None));
    render(layout, &link, base, &at, running, correcting).into_response()
}

/// `POST /tisch/{token}/{date}/{table}/runde`: the round form of the link's table, read and
/// checked as the night page's ([`round::read`]), audited as "Tisch 2 (Link von anna)".
async fn save_round(
    reply: Reply,
    Extension(link): Extension<ScorerLink>,
    Path((token, _, _)): Path<(String, String, u32)>,
    session: Session,
    at: AtNight,
    axum_extra::extract::Form(fields): axum_extra::extract::Form<Fields>,
) -> Result<Response, AppError> {
    let base = link_path(&token, link.date, link.table);
    let read = round::read(&at, link.table, &fields);
    let done = match read.parsed {
        Err(e) => Err(ServiceError::refused(e)),
        Ok((number, change)) => reply
            .league
            .change(at.year(), change, &Edit::by(&link.author()))
            .await
            .map(|_| number),
    };
    let league = reply.league.clone();
    let table = link.table;
    let to = format!("{base}#runden");
    reply
        .finish(
            done,
            |n| Stored::at(to, format!("Runde {n} an Tisch {table} gespeichert.")),
            async |refusal, layout| {
                let at = AtNight::find(league.snapshot(), at.date)?;
                let layout = link_layout(&session, layout.today).await;
                let typed = (
                    read.number_input,
                    read.rows,
                    read.replace,
                    Some(refusal.to_string()),
                );
                let running = running_at(&league, &at, table).await;
                Ok(render(layout, &link, base, &at, running, Some(typed)))
            },
        )
        .await
}

/// The secretary's page of a link just made: its address and QR code, once.
#[derive(Template, WebTemplate)]
#[template(path = "entry/scorer_link.html")]
struct LinkPage {
    layout: Layout,
    iso: String,
    date: String,
    table: u32,
    /// The link's address and its QR code (SVG), only right after it was made.
    shown: Option<(String, String)>,
    /// The link to share it in WhatsApp, with the address.
    whatsapp: String,
    /// The table has a working link (only then is there one to revoke).
    active: bool,
}

/// The confirmation-free forms of the link buttons: only the `einmal` token.
#[derive(Deserialize)]
pub struct LinkForm {}

/// `POST /verwaltung/abend/{date}/tisch/{table}/link`: makes the table's link (an older one stops
/// working) and shows it once; refused → the night page again with the reason.
async fn create_link(
    reply: Reply,
    RequireSecretary(user): RequireSecretary,
    session: Session,
    at: AtNight,
    Path((_, table)): Path<(String, u32)>,
    Form(_): Form<LinkForm>,
) -> Result<Response, AppError> {
    let done = reply
        .league
        .create_scorer_link(at.date, table, &user.username)
        .await;
    let done = match done {
        Ok(token) => {
            let once = format!("{}|{table}|{token}", at.date);
            session
                .insert(SHOW_ONCE_KEY, once)
                .await
                .map_err(|e| AppError::Internal(e.to_string()))?;
            Ok(())
        }
        Err(e) => Err(e),
    };
    let stored = |()| {
        Stored::at(
            format!("/verwaltung/abend/{}/tisch/{table}/link", at.date),
            format!("Link für Tisch {table} erstellt (ein älterer gilt nicht mehr)."),
        )
    };
    end_with(reply, at.date, "links", done, stored, Typed::default()).await
}

/// `GET /verwaltung/abend/{date}/tisch/{table}/link`: the link just made, once, on the club's
/// public address ([`PublicAddress`]) with its QR code and a WhatsApp link; never kept by a cache
/// (`no-store`). "Link widerrufen" only while the table has a working link.
async fn show_link(
    State(league): State<League>,
    layout: Layout,
    session: Session,
    address: PublicAddress,
    at: AtNight,
    Path((_, table)): Path<(String, u32)>,
) -> Result<Response, AppError> {
    let active = league
        .active_scorer_links(at.id())
        .await?
        .iter()
        .any(|(t, _)| *t == table);
    let kept: Option<String> = session.remove(SHOW_ONCE_KEY).await.ok().flatten();
    let prefix = format!("{}|{table}|", at.date);
    let shown = kept
        .as_deref()
        .and_then(|k| k.strip_prefix(&prefix))
        .map(|token| address.link(&link_path(token, at.date, table)))
        .map(|url| {
            let svg =
                crate::web::kit::qr::svg(&url, "linkcode", "QR-Code des Links").unwrap_or_default();
            (url, svg)
        });
    let date = date_de(at.date);
    let whatsapp = shown.as_ref().map_or(String::new(), |(url, _)| {
        links::whatsapp(
            &format!("Schockerliga: Runden von Tisch {table} am {date} eintragen:"),
            url,
        )
    });
    Ok(links::no_store(LinkPage {
        layout,
        iso: at.date.to_string(),
        date,
        table,
        shown,
        whatsapp,
        active,
    }))
}

/// `POST /verwaltung/abend/{date}/tisch/{table}/link/widerrufen`: the table's link stops working.
async fn revoke_link(
    reply: Reply,
    RequireSecretary(user): RequireSecretary,
    at: AtNight,
    Path((_, table)): Path<(String, u32)>,
    Form(_): Form<LinkForm>,
) -> Result<Response, AppError> {
    let done = reply
        .league
        .revoke_scorer_link(at.date, table, &user.username)
        .await;
    let message = |was: bool| {
        if was {
            format!("Der Link für Tisch {table} gilt nicht mehr.")
        } else {
            format!("Für Tisch {table} gab es keinen gültigen Link.")
        }
    };
    super::night::end(reply, at.date, "links", done, message, Typed::default()).await
}
