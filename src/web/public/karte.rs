//! A player's own card (issue 27, SECURITY.md "Player cards"): `/karte/{token}`, a capability
//! link per player that shows only him, also while the Kasse is members-only: where he stands
//! (place, Liga, D.Wert, what he still needs), his next night with "Ich komme" / "Ich komme nicht"
//! (`POST /karte/{token}/zusage`, an answer that counts as his own), his open fines and
//! Jahresbeitrag with the GiroCode and PayPal.me for his open sum, what he paid and when, what is
//! still open from earlier seasons, "Ich habe bezahlt" (`POST /karte/{token}/gezahlt`, issue 34.4: a
//! report the Kassenwart books or does not find, and its state), and his own calendar
//! (`/karte/{token}/kalender.ics`). The
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
use crate::league::model::format::date_de;
use crate::league::money::kasse::parse_euros;
use crate::league::plan::planned::{PlanStatus, Via};
use crate::service::calendar::{calendar, Whose};
use crate::service::card::reports::{how_de, PaymentReport};
use crate::service::card::CardLink;
use crate::service::{League, ServiceError, Snapshot};
use crate::web::kit::at::path_date;
use crate::web::kit::links::PublicAddress;
use crate::web::kit::{filters, AppError, Guard, Layout, Routes};
use crate::web::money::card::{card, MoneyCard};
use crate::web::public::table::{where_he_stands, Stand};
use crate::web::public::termine::{coming_of, next_night_of, next_planned, status, NextNight};

/// The routes of this feature, all behind the card guard; the answer and "Ich habe bezahlt" are
/// rate-limited per client address as the public Zusagen
/// ([`crate::web::kit::security::zusage_rate_limit`], [`crate::web::kit::security::report_rate_limit`]).
pub fn routes() -> Routes {
    let answer = axum::routing::post(answer);
    let answer = match crate::web::kit::security::zusage_rate_limit() {
        Some(limit) => answer.layer(limit),
        None => answer,
    };
    let paid = axum::routing::post(paid);
    let paid = match crate::web::kit::security::report_rate_limit() {
        Some(limit) => paid.layer(limit),
        None => paid,
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
        .add(Guard::Card, &[Method::POST], "/karte/{token}/gezahlt", paid)
}

/// The "Ich habe bezahlt" form on the card: what it shows in its fields.
pub struct PaidBox {
    /// The amount field (typed, or his open sum as "3,00", or empty).
    pub betrag: String,
    /// The ways: (form value, label, selected).
    pub ways: Vec<(String, String, bool)>,
    /// Unfolded (something is open, or a refusal of it is shown).
    pub open: bool,
}

/// One of his reports on the card: (German line, state class `offen`/`gebucht`/`nicht-gefunden`).
pub type ReportLine = (String, &'static str);

/// His reports as the card shows them: "gemeldet am 20.12.2026: 3,00 € per Überweisung – offen".
fn report_lines(reports: &[PaymentReport]) -> Vec<ReportLine> {
    reports
        .iter()
        .map(|r| {
            let (state, class) = match (r.state.as_str(), r.decided_on) {
                ("gebucht", Some(d)) => (format!("gebucht am {}", date_de(d)), "gebucht"),
                ("gebucht", None) => ("gebucht".to_string(), "gebucht"),
                ("nicht_gefunden", _) => ("nicht gefunden".to_string(), "nicht-gefunden"),
                _ => ("offen".to_string(), "offen"),
            };
            let text = format!(
                "gemeldet am {}: {} {} (Saison {}) – {state}",
                date_de(r.reported_on),
                format_cents(r.cents),
                how_de(&r.how),
                r.season
            );
            (text, class)
        })
        .collect()
}

/// The form "Ich habe bezahlt" with `typed` (betrag, wie) or his open sum `open_cents`.
fn paid_box(typed: Option<&PaidForm>, open_cents: i64) -> PaidBox {
    let wie = typed.map_or("ueberweisung", |t| t.wie.as_str());
    PaidBox {
        betrag: match typed {
            Some(t) => t.betrag.clone(),
            None if open_cents > 0 => crate::web::money::csv::csv_cents(open_cents),
            None => String::new(),
        },
        ways: [
            ("ueberweisung", "Überweisung"),
            ("paypal", "PayPal"),
            ("bar", "bar"),
        ]
        .iter()
        .map(|(k, label)| (k.to_string(), label.to_string(), *k == wie))
        .collect(),
        open: typed.is_some() || open_cents > 0,
    }
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
    /// His Rückblick of that season (issue 39.2); `None` without a round.
    rueckblick_href: Option<String>,
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
    /// "Ich habe bezahlt" (`None` when he plays in no season).
    paid: Option<PaidBox>,
    /// His reports, newest first.
    reports: Vec<ReportLine>,
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

/// What the card shows besides the snapshot: his reports (newest first) and, after a refused
/// report, what was typed.
#[derive(Default)]
struct Extra {
    reports: Vec<PaymentReport>,
    typed: Option<PaidForm>,
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
    extra: Extra,
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
    let open_cents = view
        .and_then(|v| crate::league::money::items::account(&v.season, v.player_name(id)?, today))
        .map_or(0, |a| (a.open_cents - a.credit_cents).max(0));
    let paid = year.map(|_| paid_box(extra.typed.as_ref(), open_cents));
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
    let rueckblick_href = year
        .filter(|_| stand.is_some())
        .map(|y| format!("/spieler/{id}/rueckblick/{y}"));
    let page = CardPage {
        layout,
        token: token.to_string(),
        name,
        year,
        stand,
        rueckblick_href,
        missing: missing.unwrap_or_default(),
        next,
        answer_open,
        money,
        earlier,
        calendar,
        paid,
        reports: report_lines(&extra.reports),
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
) -> Result<Response, AppError> {
    let extra = Extra {
        reports: league.payment_reports_of(link.player_id).await?,
        typed: None,
    };
    Ok(render(
        layout,
        &league.snapshot(),
        &address,
        &token,
        &link,
        None,
        extra,
    ))
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
        Err(e) => refused(&league, layout, &address, &token, &link, e, None).await,
    }
}

/// The card again after a refused post: 422 with the German refusal at the top and `typed` in
/// the "Ich habe bezahlt" form; 503 with `Retry-After` for a busy database; a fault → the error
/// page.
async fn refused(
    league: &League,
    layout: Layout,
    address: &PublicAddress,
    token: &str,
    link: &CardLink,
    e: ServiceError,
    typed: Option<PaidForm>,
) -> Result<Response, AppError> {
    let refusal = e.into_refusal()?;
    let busy = refusal.kind == crate::service::RefusalKind::Busy;
    let extra = Extra {
        reports: league.payment_reports_of(link.player_id).await?,
        typed,
    };
    let mut resp = render(
        layout,
        &league.snapshot(),
        address,
        token,
        link,
        Some(refusal.to_string()),
        extra,
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

/// The form "Ich habe bezahlt" (issue 34.4).
#[derive(Deserialize, Default)]
pub struct PaidForm {
    /// The amount as typed, German ("3,00").
    #[serde(default)]
    pub betrag: String,
    /// `ueberweisung`, `paypal` or `bar`.
    #[serde(default)]
    pub wie: String,
}

/// `POST /karte/{token}/gezahlt`: "Ich habe bezahlt" (issue 34.4): a report of `betrag` paid
/// `wie` for the season his card shows, put on the Kassenwart's Zahlungen page; back to the card
/// at its reports, or the card again (422) with the German refusal and what was typed (a bad
/// amount, 0, over 1.000,00 €, a fourth open report).
async fn paid(
    State(league): State<League>,
    layout: Layout,
    address: PublicAddress,
    Path(token): Path<String>,
    Extension(link): Extension<CardLink>,
    Form(form): Form<PaidForm>,
) -> Result<Response, AppError> {
    let year = his_season(&league.snapshot(), link.player_id, layout.today);
    let done = match (year, parse_euros(&form.betrag)) {
        (None, _) => Err(ServiceError::refused(
            "Du spielst in keiner Saison mit: es gibt nichts zu melden.",
        )),
        (_, Err(e)) => Err(ServiceError::refused(format!("Betrag: {e}."))),
        (Some(y), Ok(cents)) => league
            .report_payment(y, link.player_id, cents, form.wie.trim())
            .await
            .map(|_| ()),
    };
    match done {
        Ok(()) => Ok(Redirect::to(&format!("/karte/{token}#gezahlt")).into_response()),
        Err(e) => refused(&league, layout, &address, &token, &link, e, Some(form)).await,
    }
}
