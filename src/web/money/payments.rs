//! The Kassenwart's pages (SECURITY.md "Access": a Kassenwart, a secretary or an admin): his
//! start page, the payments of a season (a player's payment booked against his oldest open items,
//! the Jahresbeitrag by its payment day, the payments players reported from their cards, issue
//! 34.4) and the netting of the Jahresabschluss.

pub mod kontoauszug;

use askama::Template;
use askama_web::WebTemplate;
use axum::extract::{Path, State};
use axum::response::Response;
use axum::Form;
use chrono::NaiveDate;
use serde::Deserialize;

use crate::league::model::format::date_de;
use crate::league::money::items::{allocate, allocation_text, open_items};
use crate::league::money::kasse::parse_euros;
use crate::league::{format_cents, Change};
use crate::service::card::reports::{how_de, PaymentReport};
use crate::service::{Edit, League, SeasonView, ServiceError};
use crate::web::kit::session::RequireMoney;
use crate::web::kit::{AppError, AtSeason, Layout, Reply, Stored};
use crate::web::money::abschluss;
use crate::web::money::fee::{self, FeeForm};
use crate::web::money::paid_on;

/// The Kassenwart's start page: the seasons with their money pages.
#[derive(Template, WebTemplate)]
#[template(path = "money/kassenwart.html")]
pub struct StartPage {
    layout: Layout,
    years: Vec<i32>,
}

pub async fn start(State(league): State<League>, layout: Layout) -> StartPage {
    StartPage {
        layout,
        years: league.snapshot().years(),
    }
}

/// One player on the payments page.
pub struct PayLine {
    /// `players.id`.
    pub id: i64,
    /// Name.
    pub name: String,
    /// His open items today: (label, amount), oldest first.
    pub open: Vec<(String, String)>,
    /// Σ open today.
    pub open_sum: String,
    /// The amount field (typed, or Σ open in German euros).
    pub amount_input: String,
    /// The payment-day field (typed, or today).
    pub day_input: String,
    /// His Jahresbeitrag: "15,00 € am 05.01.2026", "offen", or after the last join day "keiner
    /// (Beitritt nur bis 30.09.2026)".
    pub fee: String,
    /// The fee-day field (typed, stored, or today while a fee can be dated today, else empty).
    pub fee_input: String,
    /// His Jahresbeitrag is booked (the page offers to delete it, apart from booking).
    pub fee_booked: bool,
    /// His Guthaben, German euros ("" without any; issue 34.1).
    pub credit: String,
}

/// The payments page of a season.
#[derive(Template, WebTemplate)]
#[template(path = "money/zahlungen.html")]
pub struct PaymentsPage {
    layout: Layout,
    year: i32,
    /// The first and the last day a Jahresbeitrag of the season may be dated.
    fee_from: chrono::NaiveDate,
    fee_until: chrono::NaiveDate,
    players: Vec<PayLine>,
    /// The open reports from the players' cards: (report id, German line), oldest first.
    reports: Vec<(i64, String)>,
    error: Option<String>,
    error_at: String,
}

/// What a refused payment form typed: player id and its fields.
#[derive(Default)]
struct Typed {
    id: i64,
    amount: Option<String>,
    day: Option<String>,
    fee: Option<String>,
}

fn render_payments(
    layout: Layout,
    view: &SeasonView,
    reports: &[PaymentReport],
    typed: Typed,
    error: Option<String>,
) -> PaymentsPage {
    let season = &view.season;
    let today = layout.today;
    let on = today.max(season.last_night().unwrap_or(today));
    // The days a Jahresbeitrag may be dated: the field proposes today only inside them (a fee
    // dated after the last join day is refused).
    let (fee_from, fee_until) = season.rules.fee_window(season.year);
    let mut players: Vec<PayLine> = season
        .players
        .iter()
        .map(|p| {
            let id = view.ids.players.get(&p.name).copied().unwrap_or_default();
            let items = open_items(season, &p.name, on);
            let sum: i64 = items.iter().map(|i| i.cents).sum();
            let mine = typed.id == id;
            PayLine {
                id,
                open: items
                    .iter()
                    .map(|i| (i.label.clone(), format_cents(i.cents)))
                    .collect(),
                open_sum: format_cents(sum),
                amount_input: match (&typed.amount, mine) {
                    (Some(a), true) => a.clone(),
                    _ => crate::web::money::csv::csv_cents(sum),
                },
                day_input: match (&typed.day, mine) {
                    (Some(d), true) => d.clone(),
                    _ => today.to_string(),
                },
                fee_booked: p.fee_paid_on.is_some(),
                fee: match p.fee_paid_on {
                    Some(d) => format!("{} am {}", format_cents(p.fee_cents), date_de(d)),
                    None if today > fee_until => {
                        format!("keiner (Beitritt nur bis {})", date_de(fee_until))
                    }
                    None => "offen".to_string(),
                },
                fee_input: match (&typed.fee, mine, p.fee_paid_on) {
                    (Some(f), true, _) => f.clone(),
                    (_, _, Some(d)) => d.to_string(),
                    _ if (fee_from..=fee_until).contains(&today) => today.to_string(),
                    _ => String::new(),
                },
                credit: match season.credit_cents(&p.name) {
                    0 => String::new(),
                    c => format_cents(c),
                },
                name: p.name.clone(),
            }
        })
        .collect();
    players.sort_by(|a, b| a.name.cmp(&b.name));
    PaymentsPage {
        layout,
        year: season.year,
        fee_from,
        fee_until,
        players,
        reports: reports
            .iter()
            .map(|r| {
                let line = format!(
                    "{}: {} {}, gemeldet am {}",
                    r.name,
                    format_cents(r.cents),
                    how_de(&r.how),
                    date_de(r.reported_on)
                );
                (r.id, line)
            })
            .collect(),
        error_at: if error.is_some() {
            format!("zahler-{}", typed.id)
        } else {
            String::new()
        },
        error,
    }
}

/// `GET /verwaltung/saison/{year}/zahlungen`: the payments page with the open reports.
pub async fn get(
    State(league): State<League>,
    layout: Layout,
    at: AtSeason,
) -> Result<PaymentsPage, AppError> {
    let reports = league.open_payment_reports(at.year()).await?;
    Ok(render_payments(
        layout,
        &at.view,
        &reports,
        Typed::default(),
        None,
    ))
}

/// Ends a form of the payments page: stored → the page at the player's line (or at `anchor`)
/// with the message; refused → the page again (422) with the refusal and what was typed; a fault
/// → the error page.
async fn end(
    reply: Reply,
    year: i32,
    done: Result<String, ServiceError>,
    typed: Typed,
    anchor: Option<&str>,
) -> Result<Response, AppError> {
    let to = match anchor {
        Some(a) => format!("/verwaltung/saison/{year}/zahlungen#{a}"),
        None => format!("/verwaltung/saison/{year}/zahlungen#zahler-{}", typed.id),
    };
    let reports = match &done {
        Ok(_) => Vec::new(),
        Err(_) => reply.league.open_payment_reports(year).await?,
    };
    reply
        .finish_season(year, done, to, |layout, view, reason| {
            render_payments(layout, view, &reports, typed, Some(reason))
        })
        .await
}

/// Books a payment of `player` over `cents` on `day` in the season of `view` by `author`: the
/// one path of the page's payment and of a report's *Buchen* ([`League::book_payment`]: the rule
/// of issue 34.1, and the report `report` or the oldest matching open one settled). The German
/// message of what it paid.
async fn book(
    league: &League,
    view: &SeasonView,
    author: &str,
    (player, cents, day): (&str, i64, chrono::NaiveDate),
    report: Option<i64>,
) -> Result<String, ServiceError> {
    // The rule of issue 34.1 as the league will book it (the change checks it again).
    let what = allocate(&view.season, player, cents, day);
    let year = view.season.year;
    let (view, settled) = league
        .book_payment(year, player, cents, day, &Edit::by(author), report)
        .await?;
    let left = open_items(&view.season, player, day);
    Ok(format!(
        "Zahlung gebucht am {}: {} Offen jetzt {}.{}",
        date_de(day),
        what.map(|a| allocation_text(player, cents, &a))
            .unwrap_or_default(),
        format_cents(left.iter().map(|i| i.cents).sum()),
        match (settled, report) {
            (Some(_), None) => " Seine gemeldete Zahlung über diesen Betrag ist damit gebucht.",
            _ => "",
        }
    ))
}

/// The payment form: who, how much, when.
#[derive(Deserialize)]
pub struct PaymentForm {
    /// `players.id` of the paying player.
    pub player: i64,
    /// The amount in euros as typed ("2,50").
    #[serde(default)]
    pub amount: String,
    /// The payment day (`YYYY-MM-DD`; empty: today).
    #[serde(default)]
    pub paid_on: String,
}

pub async fn book_payment(
    reply: Reply,
    RequireMoney(user): RequireMoney,
    at: AtSeason,
    Form(form): Form<PaymentForm>,
) -> Result<Response, AppError> {
    let year = at.year();
    let player = at.player(form.player)?;
    let typed = Typed {
        id: form.player,
        amount: Some(form.amount.clone()),
        day: Some(form.paid_on.clone()),
        fee: None,
    };
    let cents =
        parse_euros(&form.amount).map_err(|e| ServiceError::refused(format!("Betrag: {e}")));
    let today = reply.layout.today;
    let day = paid_on(&form.paid_on, today).and_then(|day| not_after(day, today));
    let done = match (cents, day) {
        (Err(e), _) | (_, Err(e)) => Err(e),
        (Ok(cents), Ok(day)) => {
            let author = &user.username;
            book(&reply.league, &at.view, author, (&player, cents, day), None).await
        }
    };
    end(reply, year, done, typed, None).await
}

/// `day` when it is not after the club's `today`; a payment is booked when the money is there.
/// Error (German, „bezahlt am: 27.12.2026 liegt nach heute (26.12.2026)“).
fn not_after(day: NaiveDate, today: NaiveDate) -> Result<NaiveDate, ServiceError> {
    if day > today {
        return Err(ServiceError::refused(format!(
            "bezahlt am: {} liegt nach heute ({})",
            date_de(day),
            date_de(today)
        )));
    }
    Ok(day)
}

/// `POST /verwaltung/saison/{year}/meldung/{id}/buchen`: the Kassenwart's *Buchen* of report
/// `id` from a player's card (issue 34.4): a payment of its amount on its reported day, exactly
/// as the page's payment ([`book`]), the report marked `gebucht`; refused → the page again.
pub async fn book_report(
    reply: Reply,
    RequireMoney(user): RequireMoney,
    at: AtSeason,
    Path((_, id)): Path<(i32, i64)>,
) -> Result<Response, AppError> {
    let year = at.year();
    let report = reply.league.open_payment_report(year, id).await;
    let done = match &report {
        Err(_) => report.map(|_| String::new()),
        Ok(r) => {
            let what = (r.name.as_str(), r.cents, r.reported_on);
            book(&reply.league, &at.view, &user.username, what, Some(r.id)).await
        }
    };
    end(reply, year, done, Typed::default(), Some("meldungen")).await
}

/// `POST /verwaltung/saison/{year}/meldung/{id}/nicht-gefunden`: the Kassenwart's *Nicht
/// gefunden* of report `id` (issue 34.4): marked so, with a Protokoll line; the player's card
/// shows it. Refused → the page again.
pub async fn report_not_found(
    reply: Reply,
    RequireMoney(user): RequireMoney,
    at: AtSeason,
    Path((_, id)): Path<(i32, i64)>,
) -> Result<Response, AppError> {
    let year = at.year();
    let done = reply
        .league
        .report_not_found(year, id, &user.username)
        .await
        .map(|r| {
            format!(
                "Meldung von {} ({} {}, gemeldet am {}) als nicht gefunden markiert.",
                r.name,
                format_cents(r.cents),
                how_de(&r.how),
                date_de(r.reported_on)
            )
        });
    end(reply, year, done, Typed::default(), Some("meldungen")).await
}

/// `POST /verwaltung/saison/{year}/zahlungen/beitrag/{id}`: player `id`'s Jahresbeitrag by its
/// payment day, or deleted ([`fee::book`], as from the season page).
pub async fn book_fee(
    reply: Reply,
    RequireMoney(user): RequireMoney,
    at: AtSeason,
    Path((_, id)): Path<(i32, i64)>,
    Form(form): Form<FeeForm>,
) -> Result<Response, AppError> {
    let year = at.year();
    let player = at.player(id)?;
    let typed = Typed {
        id,
        fee: Some(form.paid_on.clone()),
        ..Typed::default()
    };
    let done = fee::book(&reply.league, year, &player, &form, &user.username).await;
    end(reply, year, done, typed, None).await
}

/// The Guthaben form (issue 34.1): paid back or carried to the next season, on a day.
#[derive(Deserialize)]
pub struct CreditForm {
    /// `ausgezahlt` or `uebertragen`.
    #[serde(default)]
    pub wie: String,
    /// The day (`YYYY-MM-DD`; empty: today).
    #[serde(default)]
    pub am: String,
}

/// `POST /verwaltung/saison/{year}/guthaben/{id}`: player `id`'s whole Guthaben paid back
/// ("Guthaben ausgezahlt") or carried to his next season, on its day (issue 34.1); refused → the
/// payments page again with the reason.
pub async fn settle_credit(
    reply: Reply,
    RequireMoney(user): RequireMoney,
    at: AtSeason,
    Path((_, id)): Path<(i32, i64)>,
    Form(form): Form<CreditForm>,
) -> Result<Response, AppError> {
    let year = at.year();
    let player = at.player(id)?;
    let cents = at.view.season.credit_cents(&player);
    let edit = Edit::by(&user.username);
    let done = match (form.wie.as_str(), paid_on(&form.am, reply.layout.today)) {
        (_, Err(e)) => Err(e),
        ("ausgezahlt", Ok(on)) => {
            let change = Change::SettleCredit {
                player: player.clone(),
                on,
                carried: false,
            };
            reply.league.change(year, change, &edit).await.map(|_| {
                format!(
                    "Guthaben ausgezahlt: {} an {player} am {}.",
                    format_cents(cents),
                    date_de(on)
                )
            })
        }
        ("uebertragen", Ok(on)) => reply
            .league
            .carry_credit(year, &player, on, &edit)
            .await
            .map(|c| {
                format!(
                    "Guthaben übertragen: {} von {player} in die Saison {}.",
                    format_cents(c),
                    year + 1
                )
            }),
        (other, Ok(_)) => Err(ServiceError::refused(format!(
            "Guthaben: „{other}“ – bitte „ausgezahlt“ oder „übertragen“ wählen."
        ))),
    };
    let typed = Typed {
        id,
        ..Typed::default()
    };
    end(reply, year, done, typed, None).await
}

/// The netting form of the Jahresabschluss: its day.
#[derive(Deserialize)]
pub struct NetForm {
    /// The day of the netting (`YYYY-MM-DD`; empty: today).
    #[serde(default)]
    pub paid_on: String,
}

/// `POST /verwaltung/saison/{year}/verrechnung`: books the netting of the Jahresabschluss
/// (league.md §8) with the season's chained carry-in; refused (nothing to net, a bad day) → the
/// Jahresabschluss again with the reason.
pub async fn net(
    reply: Reply,
    RequireMoney(user): RequireMoney,
    at: AtSeason,
    Form(form): Form<NetForm>,
) -> Result<Response, AppError> {
    let year = at.year();
    let carry_in_cents = at
        .snapshot
        .chained_on(year, reply.layout.today)?
        .payouts
        .carry_in_cents;
    let before = crate::league::payouts(&at.view.season, carry_in_cents).fines_cents;
    let done = match paid_on(&form.paid_on, reply.layout.today) {
        Err(e) => Err(e),
        Ok(day) => {
            let change = Change::NetPayouts {
                paid_on: day,
                carry_in_cents,
            };
            reply
                .league
                .change(year, change, &Edit::by(&user.username))
                .await
                .map(|view| {
                    let after = crate::league::payouts(&view.season, carry_in_cents).fines_cents;
                    format!(
                        "Verrechnung gebucht: {} offene Strafen am {} aus den Anteilen bezahlt.",
                        format_cents(after - before),
                        date_de(day)
                    )
                })
        }
    };
    let league = reply.league.clone();
    let to = format!("/saison/{year}/abschluss#verrechnung");
    reply
        .finish(
            done,
            |message| Stored::at(to, message),
            async |refusal, layout| {
                let at = AtSeason::find(league.snapshot(), year)?;
                abschluss::page(&league, layout, &at, Some(refusal.to_string()), "").await
            },
        )
        .await
}

/// The form that undoes the netting: its reason.
#[derive(Deserialize)]
pub struct UndoNetForm {
    /// Why the netting is undone (a Korrektur's reason).
    #[serde(default)]
    pub grund: String,
}

/// `POST /verwaltung/saison/{year}/verrechnung/aufheben`: undoes the netting of the
/// Jahresabschluss ("Verrechnung aufheben", league.md §11): a Korrektur with its reason that puts
/// the netted fines back to open, audited; refused (no reason, no netting) → the Jahresabschluss
/// again with the reason at the top and the typed reason kept.
pub async fn undo_net(
    reply: Reply,
    RequireMoney(user): RequireMoney,
    at: AtSeason,
    Form(form): Form<UndoNetForm>,
) -> Result<Response, AppError> {
    let year = at.year();
    let before = crate::league::money::netting::netted_on(&at.view.season);
    let change = Change::UndoNetting {
        reason: form.grund.clone(),
    };
    let done = reply
        .league
        .change(year, change, &Edit::by(&user.username))
        .await
        .map(|_| {
            format!(
                "Verrechnung{} aufgehoben: die verrechneten Strafen sind wieder offen. Nach der \
                 Änderung neu verrechnen.",
                before
                    .map(|d| format!(" vom {}", date_de(d)))
                    .unwrap_or_default()
            )
        });
    let league = reply.league.clone();
    let to = format!("/saison/{year}/abschluss#verrechnung");
    let typed = form.grund;
    reply
        .finish(
            done,
            |message| Stored::at(to, message),
            async |refusal, layout| {
                let at = AtSeason::find(league.snapshot(), year)?;
                abschluss::page(&league, layout, &at, Some(refusal.to_string()), &typed).await
            },
        )
        .await
}
