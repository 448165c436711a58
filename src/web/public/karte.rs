//! A player's own card (issue 27, SECURITY.md "Player cards"): `/karte/{token}`, a capability
//! link per player that shows only him, also while the Kasse is members-only: where he stands
//! (place, Liga, D.Wert, what he still needs), his next night with "Ich komme" / "Ich komme nicht"
//! (`POST /karte/{token}/zusage`, an answer that counts as his own), his open fines and
//! Jahresbeitrag with the GiroCode and PayPal.me for his open sum, what he paid and when, what is
//! still open from earlier seasons, and his own calendar (`/karte/{token}/kalender.ics`). The
//! card guard ([`crate::web::kit::session::card_guard`]) refuses a revoked or replaced link with
//! 403 and marks every answer `private, no-store`.

use askama::Template;
use askama_web::WebTemplate;
use axum::extract::{Path, State};
use axum::http::{Method, StatusCode};
use axum::response::{IntoResponse, Redirect, Response};
use axum::{Extension, Form};
use chrono::NaiveDate;
use serde::Deserialize;

use crate::league::format_cents;
use crate::league::plan::planned::{PlanStatus, Via};
use crate::service::calendar::{calendar, Whose};
use crate::service::card::CardLink;
use crate::service::{League, Snapshot};
use crate::web::kit::at::path_date;
use crate::web::kit::links::PublicAddress;
use crate::web::kit::{filters, AppError, Guard, Layout, Routes};
use crate::web::money::card::{card, MoneyCard};
use crate::web::public::table::{where_he_stands, Stand};
use crate::web::public::termine::{coming_of, next_night_of, next_planned, status, NextNight};

/// The routes of this feature, all behind the card guard; the answer is rate-limited per client
/// address as the public one ([`crate::web::kit::security::zusage_rate_limit`]).
pub fn routes() -> Routes {
    let answer = axum::routing::post(answer);
    let answer = match crate::web::kit::security::zusage_rate_limit() {
        Some(limit) => answer.layer(limit),
        None => answer,
    };
    Routes::new()
        .get(Guard::Card, "/karte/{token}", page)
        .get(Guard::Card, "/karte/{token}/kalender.ics", ics)
        .add(
            Guard::Card,
            &[Method::POST],
            "/karte/{token}/zusage",
            answer,
        )
}

/// What is still open from an earlier season: (year, open items as (label, amount), Σ open).
pub struct Earlier {
    /// The season.
    pub year: i32,
    /// Its open items: (label, amount in German euros), oldest first.
    pub open: Vec<(String, String)>,
    /// Σ open ("3,00 €").
    pub open_sum: String,
}

/// The card's page.
#[derive(Template, WebTemplate)]
#[template(path = "public/karte.html")]
struct CardPage {
    layout: Layout,
    /// The card's token (the forms and the calendar carry it).
    token: String,
    /// His name.
    name: String,
    /// The season the card shows (the newest he plays in); `None` when he plays in none.
    year: Option<i32>,
    /// Where he stands in it; `None` without a round.
    stand: Option<Stand>,
    /// What he still needs, one German sentence each.
    missing: Vec<String>,
    /// His next night, addressed as "Du".
    next: Option<NextNight>,
    /// That night's day (`YYYY-MM-DD`) while answers are taken, and his answer so far.
    answer_open: Option<(String, Option<bool>)>,
    /// His money card of the season.
    money: Option<MoneyCard>,
    /// What is still open from earlier seasons, newest first.
    earlier: Vec<Earlier>,
    /// His calendar: (`webcal://…`, `https://…`).
    calendar: (String, String),
    /// The refusal of his answer, at the top.
    error: Option<String>,
}

/// The season the card shows for player `id` on `today`: the newest he plays in up to the
/// current one ([`Snapshot::current_year`]: next year's season brought in ahead does not take
/// over), else the newest he plays in at all; its year.
fn his_season(snapshot: &Snapshot, id: i64, today: chrono::NaiveDate) -> Option<i32> {
    let current = snapshot.current_year(today);
    let his: Vec<i32> = snapshot
        .seasons()
        .rev()
        .filter(|v| v.player_name(id).is_some())
        .map(|v| v.season.year)
        .collect();
    his.iter()
        .copied()
        .find(|y| current.is_none_or(|c| *y <= c))
        .or_else(|| his.first().copied())
}

/// The card of `link` for the request at `address` on `layout.today`, with `error` at the top
/// (422 then). Shows only the card's player.
fn render(
    layout: Layout,
    snapshot: &Snapshot,
    address: &PublicAddress,
    token: &str,
    link: &CardLink,
    error: Option<String>,
) -> Response {
    let today = layout.today;
    let id = link.player_id;
    let name = snapshot.player_name(id).unwrap_or(&link.player).to_string();
    let year = his_season(snapshot, id, today);
    let view = year.and_then(|y| snapshot.season(y).ok());
    let (stand, missing) = view
        .and_then(|v| where_he_stands(v, v.player_name(id)?, true, false, today))
        .unzip();
    let money =
        view.and_then(|v| card(snapshot, v, v.player_name(id).unwrap_or(&name), true, today));
    let earlier = snapshot
        .seasons()
        .rev()
        .filter(|v| Some(v.season.year) != year)
        .filter_map(|v| {
            let his = v.player_name(id)?;
            let a = crate::league::money::items::account(&v.season, his, today)?;
            (a.open_cents > 0).then(|| Earlier {
                year: v.season.year,
                open: a
                    .open
                    .iter()
                    .map(|i| (i.label.clone(), format_cents(i.cents)))
                    .collect(),
                open_sum: format_cents(a.open_cents),
            })
        })
        .collect();
    let night = next_planned(snapshot, today);
    let next = night.map(|n| NextNight {
        // On his card he answers right here, not on the night's page.
        href: format!("/abend/{}", n.date),
        ..next_night_of(snapshot, n, Some((id, &name)), true)
    });
    let answer_open = night
        .filter(|n| status(snapshot, n, today) == PlanStatus::Open)
        .map(|n| {
            (
                n.date.to_string(),
                n.current_answer_of(id).map(|a| a.coming),
            )
        });
    let calendar = crate::web::public::kalender::addresses(
        address,
        &format!("{}/kalender.ics", crate::service::card::card_path(token)),
    );
    let status = if error.is_some() {
        StatusCode::UNPROCESSABLE_ENTITY
    } else {
        StatusCode::OK
    };
    let page = CardPage {
        layout,
        token: token.to_string(),
        name,
        year,
        stand,
        missing: missing.unwrap_or_default(),
        next,
        answer_open,
        money,
        earlier,
        calendar,
        error,
    };
    (status, page).into_response()
}

/// `GET /karte/{token}`: the card.
async fn page(
    State(league): State<League>,
    layout: Layout,
    address: PublicAddress,
    Path(token): Path<String>,
    Extension(link): Extension<CardLink>,
) -> Response {
    render(layout, &league.snapshot(), &address, &token, &link, None)
}

/// `GET /karte/{token}/kalender.ics`: his own calendar (his nights: those he played, the planned
/// ones he did not decline).
async fn ics(
    State(league): State<League>,
    layout: Layout,
    address: PublicAddress,
    Extension(link): Extension<CardLink>,
) -> Response {
    let text = calendar(
        &league.snapshot(),
        league.timezone(),
        layout.today,
        Some(&address.link("")),
        Whose::Player(link.player_id),
    );
    crate::web::public::kalender::ics_response(text, "schockerliga-meine-abende.ics")
}

/// The card's answer form: the night's day and "ja" / "nein".
#[derive(Deserialize)]
pub struct CardAnswerForm {
    /// The planned night's day, `YYYY-MM-DD`.
    pub datum: String,
    /// "ja" or "nein".
    pub kommt: String,
}

/// `POST /karte/{token}/zusage`: his answer to the planned night on `datum` (his own: it stands
/// over one given by "Das bin ich"); back to the card, or the card again (422) with the German
/// refusal (503 for a busy database).
async fn answer(
    State(league): State<League>,
    layout: Layout,
    address: PublicAddress,
    Path(token): Path<String>,
    Extension(link): Extension<CardLink>,
    Form(form): Form<CardAnswerForm>,
) -> Result<Response, AppError> {
    let date: NaiveDate = path_date(&form.datum)?;
    let snapshot = league.snapshot();
    let night = snapshot
        .planning
        .active_on(date)
        .ok_or(AppError::NotFound)?;
    let done = match coming_of(&form.kommt) {
        Err(e) => Err(e),
        Ok(coming) => league
            .answer_planned(night.id, link.player_id, coming, &Via::Karte, None)
            .await
            .map(|_| ()),
    };
    match done {
        Ok(()) => Ok(Redirect::to(&format!("/karte/{token}#abend")).into_response()),
        Err(e) => {
            let refusal = e.into_refusal()?;
            let busy = refusal.kind == crate::service::RefusalKind::Busy;
            let mut resp = render(
                layout,
                &league.snapshot(),
                &address,
                &token,
                &link,
                Some(refusal.to_string()),
            );
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
