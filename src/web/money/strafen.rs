//! The Strafenkatalog of a season and its fines (league.md §6): kinds and amounts edited, fines
//! booked (paid at once on a day, or open) and marked paid or open, for a Kassenwart, a secretary
//! or an admin.

use askama::Template;
use askama_web::WebTemplate;
use axum::extract::Path;
use axum::response::{IntoResponse, Response};
use axum::Form;
use chrono::NaiveDate;
use serde::Deserialize;

use crate::league::model::format::date_de as de_date;
use crate::league::money::kasse::{fine_label, parse_euros};
use crate::league::{format_cents, Change, Korrektur};
use crate::service::{Edit, SeasonView, ServiceError};
use crate::web::kit::at::AtSeason;
use crate::web::kit::form::KorrekturFields;
use crate::web::kit::session::{CurrentUser, RequireMoney};
use crate::web::kit::{AppError, Layout, Reply, Stored};

use crate::web::money::csv::csv_cents;
use crate::web::money::kasse::{fine_rows, FineRow};
use crate::web::money::paid_on;

/// One kind of the catalogue, formatted.
pub struct KindRow {
    /// The kind as stored (form value).
    pub kind: String,
    /// Its German label.
    pub label: String,
    /// Current amount, German euros.
    pub amount: String,
    /// The amount as typed in the form ("1,00").
    pub amount_input: String,
    /// Number of fines of this kind booked in the season.
    pub booked: usize,
}

/// What the secretary typed, kept on a refused submission.
#[derive(Default)]
pub struct Typed {
    /// New kind's name.
    pub kind: String,
    /// New kind's amount.
    pub amount: String,
    /// Booking: night date (ISO).
    pub date: String,
    /// Booking: player.
    pub player: String,
    /// Booking: kind.
    pub fine_kind: String,
    /// Booking: paid.
    pub paid: bool,
    /// Booking: the payment day (`YYYY-MM-DD`).
    pub paid_on: String,
    /// Booking: the Korrektur box and reason (a closed night).
    pub korrektur: Korrektur,
}

/// The secretary's Strafenkatalog page.
#[derive(Template, WebTemplate)]
#[template(path = "money/strafen.html")]
pub struct StrafenPage {
    layout: Layout,
    year: i32,
    kinds: Vec<KindRow>,
    /// The nights to book on, newest first: (`YYYY-MM-DD`, "25.12.2026 (abgeschlossen)").
    nights: Vec<(String, String)>,
    /// A night offered is closed: the booking form carries the Korrektur box and reason
    /// (issue 33.5).
    any_closed: bool,
    players: Vec<String>,
    fines: Vec<FineRow>,
    typed: Typed,
    error: Option<String>,
    today: String,
}

fn render_strafen(
    layout: Layout,
    view: &SeasonView,
    typed: Typed,
    error: Option<String>,
) -> StrafenPage {
    let today = layout.today;
    let season = &view.season;
    let booked = |kind: &str| {
        season
            .nights
            .iter()
            .flat_map(|n| &n.fines)
            .filter(|f| f.kind == kind)
            .count()
    };
    let mut players: Vec<String> = season.players.iter().map(|p| p.name.clone()).collect();
    players.sort();
    StrafenPage {
        layout,
        year: season.year,
        kinds: season
            .rules
            .fines
            .iter()
            .map(|(k, &c)| KindRow {
                kind: k.clone(),
                label: fine_label(k).to_string(),
                amount: format_cents(c),
                amount_input: csv_cents(c),
                booked: booked(k),
            })
            .collect(),
        nights: season
            .nights
            .iter()
            .rev()
            .map(|n| {
                let label = match n.closed {
                    true => format!("{} (abgeschlossen)", de_date(n.date)),
                    false => de_date(n.date),
                };
                (n.date.to_string(), label)
            })
            .collect(),
        any_closed: season.nights.iter().any(|n| n.closed),
        players,
        fines: fine_rows(view).into_iter().rev().collect(),
        typed,
        error,
        today: today.to_string(),
    }
}

pub async fn get(layout: Layout, at: AtSeason) -> StrafenPage {
    render_strafen(layout, &at.view, Typed::default(), None)
}

/// The form that adds a kind or changes its amount.
#[derive(Deserialize)]
pub struct KindForm {
    /// The kind (new or existing).
    pub kind: String,
    /// The amount in euros as typed ("1,50").
    #[serde(default)]
    pub amount: String,
}

/// Ends a form of the Strafenkatalog page: stored → the page with the message; refused → the
/// page again (422) with the reason and `typed`, nothing stored; a fault → the error page.
async fn end(
    reply: Reply,
    year: i32,
    done: Result<String, ServiceError>,
    typed: Typed,
) -> Result<Response, AppError> {
    let to = format!("/verwaltung/saison/{year}/strafen");
    reply
        .finish_season(year, done, to, |layout, view, reason| {
            render_strafen(layout, view, typed, Some(reason))
        })
        .await
}

pub async fn set_kind(
    reply: Reply,
    RequireMoney(user): RequireMoney,
    at: AtSeason,
    Form(form): Form<KindForm>,
) -> Result<Response, AppError> {
    let year = at.year();
    let typed = Typed {
        kind: form.kind.clone(),
        amount: form.amount.clone(),
        ..Typed::default()
    };
    let kind = form.kind.trim();
    let done = if kind.is_empty() {
        Err(ServiceError::refused("Name der Strafart fehlt"))
    } else {
        match parse_euros(&form.amount) {
            Err(why) => Err(ServiceError::refused(format!("{kind}: {why}"))),
            Ok(cents) => reply
                .league
                .change(
                    year,
                    Change::SetFineKind {
                        kind: kind.to_string(),
                        cents: Some(cents),
                    },
                    &Edit::by(&user.username),
                )
                .await
                .map(|_| {
                    format!(
                        "{}: jetzt {}. Schon gebuchte Strafen behalten ihren Betrag.",
                        fine_label(kind),
                        format_cents(cents)
                    )
                }),
        }
    };
    end(reply, year, done, typed).await
}

pub async fn remove_kind(
    reply: Reply,
    RequireMoney(user): RequireMoney,
    at: AtSeason,
    Form(form): Form<KindForm>,
) -> Result<Response, AppError> {
    let year = at.year();
    let change = Change::SetFineKind {
        kind: form.kind.clone(),
        cents: None,
    };
    let done = reply
        .league
        .change(year, change, &Edit::by(&user.username))
        .await
        .map(|_| format!("{} gelöscht.", fine_label(form.kind.trim())));
    end(reply, year, done, Typed::default()).await
}

/// The form that books a fine.
#[derive(Deserialize)]
pub struct FineForm {
    /// The night's date, `YYYY-MM-DD`.
    pub date: String,
    /// The player's name.
    pub player: String,
    /// A kind of the catalogue.
    pub kind: String,
    /// Present ("on") when paid at once.
    pub paid: Option<String>,
    /// The payment day of a fine paid at once (`YYYY-MM-DD`; empty: today).
    #[serde(default)]
    pub paid_on: String,
    /// Present when "Ja, noch einmal buchen" is ticked (a second fine of the kind that night).
    #[serde(default)]
    pub again: Option<String>,
    /// Korrektur fields of a closed night.
    #[serde(flatten)]
    pub korrektur: KorrekturFields,
}

pub async fn book_fine(
    reply: Reply,
    RequireMoney(user): RequireMoney,
    at: AtSeason,
    Form(form): Form<FineForm>,
) -> Result<Response, AppError> {
    let year = at.year();
    let paid = form.paid.is_some();
    let typed = Typed {
        date: form.date.clone(),
        player: form.player.clone(),
        fine_kind: form.kind.clone(),
        paid,
        paid_on: form.paid_on.clone(),
        korrektur: Korrektur::from(&form.korrektur),
        ..Typed::default()
    };
    let date = NaiveDate::parse_from_str(form.date.trim(), "%Y-%m-%d").map_err(|_| {
        ServiceError::refused(format!("\"{}\" ist kein Datum (JJJJ-MM-TT)", form.date))
    });
    let day = if paid {
        paid_on(&form.paid_on, reply.layout.today).map(Some)
    } else {
        Ok(None)
    };
    let done = match (date, day) {
        (Err(e), _) | (_, Err(e)) => Err(e),
        (Ok(date), Ok(day)) => {
            // Booked open, then paid on its day: one transaction, all or nothing.
            let index = at.view.night(date).map_or(0, |n| n.fines.len());
            let mut changes = vec![Change::BookFine {
                date,
                player: form.player.clone(),
                kind: form.kind.clone(),
                paid: false,
                again: form.again.is_some(),
            }];
            if let Some(day) = day {
                changes.push(Change::PayFine {
                    date,
                    index,
                    paid_on: Some(day),
                });
            }
            // A closed night takes the fine as a Korrektur with its reason (issue 33.5).
            let edit = Edit::by(&user.username).korrektur(Korrektur::from(&form.korrektur));
            reply.league.changes(year, &changes, &edit).await.map(|_| {
                format!(
                    "Strafe gebucht: {}, {} am {} ({}).",
                    form.player.trim(),
                    fine_label(form.kind.trim()),
                    de_date(date),
                    match day {
                        Some(d) => format!("bezahlt am {}", de_date(d)),
                        None => "offen".to_string(),
                    }
                )
            })
        }
    };
    end(reply, year, done, typed).await
}

/// Where to go after marking a fine: `back=kasse` returns to the Kasse, else the fines page;
/// the payment day of a fine marked paid (`YYYY-MM-DD`; empty: today).
#[derive(Deserialize)]
pub struct BackForm {
    /// `kasse` or absent.
    #[serde(default)]
    pub back: String,
    /// The payment day.
    #[serde(default)]
    pub paid_on: String,
}

/// Marks fine `id` (a `fines.id`) paid (on the form's day) or open. Stored → back to the Kasse
/// (`back=kasse`) or the Strafenkatalog with the message; refused (a closed night's database
/// refusal, a bad day) → that page again (422) with the reason.
async fn mark(
    reply: Reply,
    user: CurrentUser,
    id: i64,
    paid: bool,
    form: &BackForm,
) -> Result<Response, AppError> {
    let to_kasse = form.back == "kasse";
    let snapshot = reply.league.snapshot();
    let (year, date, index) = snapshot
        .seasons()
        .find_map(|v| v.ids.fine(id).map(|(d, i)| (v.season.year, d, i)))
        .ok_or(AppError::NotFound)?;
    let day = match paid {
        true => paid_on(&form.paid_on, reply.layout.today).map(Some),
        false => Ok(None),
    };
    let done = match day {
        Err(e) => Err(e),
        Ok(day) => {
            let change = Change::PayFine {
                date,
                index,
                paid_on: day,
            };
            reply
                .league
                .change(year, change, &Edit::by(&user.username))
                .await
                .map(|_| match day {
                    Some(d) => format!("Strafe als bezahlt am {} markiert.", de_date(d)),
                    None => "Strafe wieder offen.".to_string(),
                })
        }
    };
    let to = if to_kasse {
        format!("/saison/{year}/kasse")
    } else {
        format!("/verwaltung/saison/{year}/strafen")
    };
    let league = reply.league.clone();
    reply
        .finish(
            done,
            |message| Stored::at(to, message),
            async |refusal, layout| {
                let at = AtSeason::find(league.snapshot(), year)?;
                if to_kasse {
                    crate::web::money::kasse::page(layout, &at, Some(refusal.to_string()))
                } else {
                    let page = render_strafen(
                        layout,
                        &at.view,
                        Typed::default(),
                        Some(refusal.to_string()),
                    );
                    Ok(page.into_response())
                }
            },
        )
        .await
}

/// `POST /verwaltung/strafe/{id}/bezahlt`: fine `id` paid on the form's day (empty: today).
pub async fn mark_paid(
    reply: Reply,
    RequireMoney(user): RequireMoney,
    Path(id): Path<i64>,
    Form(form): Form<BackForm>,
) -> Result<Response, AppError> {
    mark(reply, user, id, true, &form).await
}

/// `POST /verwaltung/strafe/{id}/offen`: fine `id` open again.
pub async fn mark_open(
    reply: Reply,
    RequireMoney(user): RequireMoney,
    Path(id): Path<i64>,
    Form(form): Form<BackForm>,
) -> Result<Response, AppError> {
    mark(reply, user, id, false, &form).await
}
