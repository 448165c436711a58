//! The Kassenwart's pages (SECURITY.md "Access": a Kassenwart, a secretary or an admin): his
//! start page, the payments of a season (a player's payment booked against his oldest open items,
//! the Jahresbeitrag by its payment day), the netting of the Jahresabschluss, and the money card
//! on a player's page with its GiroCode (EPC069-12, drawn here as SVG) and PayPal.me link.

use askama::Template;
use askama_web::WebTemplate;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Form;
use chrono::NaiveDate;
use serde::Deserialize;

use crate::league::format::date_de;
use crate::league::kasse::{account, open_items, parse_euros};
use crate::league::{format_cents, girocode, Change};
use crate::service::{Edit, League, SeasonView, ServiceError, Snapshot};
use crate::web::kit::session::RequireMoney;
use crate::web::kit::{AppError, Guard, Layout, Routes};
use crate::web::kit::{AtSeason, Flash};
use crate::web::money::kasse::{paid_on, today};

/// The routes of this feature.
pub fn routes() -> Routes {
    Routes::new()
        .get(Guard::Money, "/verwaltung/kasse", start)
        .get(
            Guard::Money,
            "/verwaltung/saison/{year}/zahlungen",
            payments,
        )
        .post(
            Guard::Money,
            "/verwaltung/saison/{year}/zahlung",
            book_payment,
        )
        .post(
            Guard::Money,
            "/verwaltung/saison/{year}/zahlungen/beitrag/{id}",
            book_fee,
        )
        .post(Guard::Money, "/verwaltung/saison/{year}/verrechnung", net)
}

/// The Kassenwart's start page: the seasons with their money pages.
#[derive(Template, WebTemplate)]
#[template(path = "money/kassenwart.html")]
struct StartPage {
    layout: Layout,
    years: Vec<i32>,
}

async fn start(State(league): State<League>, layout: Layout) -> StartPage {
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
    /// His Jahresbeitrag: "15,00 € am 05.01.2026" or "offen".
    pub fee: String,
    /// The fee-day field (typed, stored, or today).
    pub fee_input: String,
}

/// The payments page of a season.
#[derive(Template, WebTemplate)]
#[template(path = "money/zahlungen.html")]
struct PaymentsPage {
    layout: Layout,
    year: i32,
    players: Vec<PayLine>,
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
    typed: Typed,
    error: Option<String>,
) -> PaymentsPage {
    let season = &view.season;
    let today = today();
    let on = today.max(season.last_night().unwrap_or(today));
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
                    _ => crate::web::money::kasse::csv_cents(sum),
                },
                day_input: match (&typed.day, mine) {
                    (Some(d), true) => d.clone(),
                    _ => today.to_string(),
                },
                fee: match p.fee_paid_on {
                    Some(d) => format!("{} am {}", format_cents(p.fee_cents), date_de(d)),
                    None => "offen".to_string(),
                },
                fee_input: match (&typed.fee, mine) {
                    (Some(f), true) => f.clone(),
                    _ => p.fee_paid_on.unwrap_or(today).to_string(),
                },
                name: p.name.clone(),
            }
        })
        .collect();
    players.sort_by(|a, b| a.name.cmp(&b.name));
    PaymentsPage {
        layout,
        year: season.year,
        players,
        error_at: if error.is_some() {
            format!("zahler-{}", typed.id)
        } else {
            String::new()
        },
        error,
    }
}

async fn payments(layout: Layout, at: AtSeason) -> PaymentsPage {
    render_payments(layout, &at.view, Typed::default(), None)
}

/// After a payment form: a redirect to the payments page with `ok`, or the page again with the
/// refusal and what was typed (422), nothing stored.
async fn finish(
    league: &League,
    layout: Layout,
    flash: Flash,
    year: i32,
    done: Result<String, ServiceError>,
    typed: Typed,
) -> Result<Response, AppError> {
    match done {
        Ok(ok) => Ok(flash
            .redirect(
                &format!("/verwaltung/saison/{year}/zahlungen#zahler-{}", typed.id),
                ok,
            )
            .await),
        Err(ServiceError::Refused(e) | ServiceError::Closed(e)) => {
            let snapshot = league.snapshot();
            let view = snapshot.season(year)?;
            let page = render_payments(layout, view, typed, Some(e.to_string()));
            Ok((StatusCode::UNPROCESSABLE_ENTITY, page).into_response())
        }
        Err(e) => Err(e.into()),
    }
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

async fn book_payment(
    State(league): State<League>,
    layout: Layout,
    flash: Flash,
    RequireMoney(user): RequireMoney,
    at: AtSeason,
    Form(form): Form<PaymentForm>,
) -> Result<Response, AppError> {
    let year = at.year();
    let player = at
        .view
        .player_name(form.player)
        .map(str::to_string)
        .ok_or(AppError::NotFound)?;
    let typed = Typed {
        id: form.player,
        amount: Some(form.amount.clone()),
        day: Some(form.paid_on.clone()),
        fee: None,
    };
    let cents =
        parse_euros(&form.amount).map_err(|e| ServiceError::refused(format!("Betrag: {e}")));
    let done = match (cents, paid_on(&form.paid_on)) {
        (Err(e), _) | (_, Err(e)) => Err(e),
        (Ok(cents), Ok(day)) => {
            let change = Change::BookPayment {
                player: player.clone(),
                cents,
                paid_on: day,
            };
            let settled = open_items(&at.view.season, &player, day);
            league
                .change(year, change, &Edit::by(&user.username))
                .await
                .map(|view| {
                    let left = open_items(&view.season, &player, day);
                    let count = settled.len() - left.len().min(settled.len());
                    format!(
                        "Zahlung von {player} über {} am {} gebucht ({count} Posten bezahlt; offen jetzt {}).",
                        format_cents(cents),
                        date_de(day),
                        format_cents(left.iter().map(|i| i.cents).sum())
                    )
                })
        }
    };
    finish(&league, layout, flash, year, done, typed).await
}

/// The Jahresbeitrag form of the payments page: the payment day, or delete.
#[derive(Deserialize)]
pub struct FeeForm {
    /// The payment day (`YYYY-MM-DD`).
    #[serde(default)]
    pub paid_on: String,
    /// Present when "Beitrag löschen" is ticked.
    pub delete: Option<String>,
}

async fn book_fee(
    State(league): State<League>,
    layout: Layout,
    flash: Flash,
    RequireMoney(user): RequireMoney,
    at: AtSeason,
    Path((_, id)): Path<(i32, i64)>,
    Form(form): Form<FeeForm>,
) -> Result<Response, AppError> {
    let year = at.year();
    let player = at
        .view
        .player_name(id)
        .map(str::to_string)
        .ok_or(AppError::NotFound)?;
    let typed = Typed {
        id,
        fee: Some(form.paid_on.clone()),
        ..Typed::default()
    };
    let day = match form.delete {
        Some(_) => Ok(None),
        None => paid_on(&form.paid_on).map(Some),
    };
    let done = match day {
        Err(e) => Err(e),
        Ok(day) => league
            .change(
                year,
                Change::SetFee {
                    player: player.clone(),
                    paid_on: day,
                },
                &Edit::by(&user.username),
            )
            .await
            .map(|view| match (day, view.season.player(&player)) {
                (Some(d), Some(p)) => format!(
                    "Jahresbeitrag von {player}: {} am {} gebucht.",
                    format_cents(p.fee_cents),
                    date_de(d)
                ),
                _ => format!("Jahresbeitrag von {player} gelöscht."),
            }),
    };
    finish(&league, layout, flash, year, done, typed).await
}

/// The netting form of the Jahresabschluss: its day.
#[derive(Deserialize)]
pub struct NetForm {
    /// The day of the netting (`YYYY-MM-DD`; empty: today).
    #[serde(default)]
    pub paid_on: String,
}

/// Books the netting of the Jahresabschluss (league.md §8) with the season's chained carry-in;
/// a refusal (nothing to net, a bad day) is a 400 with the German reason.
async fn net(
    State(league): State<League>,
    flash: Flash,
    RequireMoney(user): RequireMoney,
    at: AtSeason,
    Form(form): Form<NetForm>,
) -> Result<Response, AppError> {
    let year = at.year();
    let day = paid_on(&form.paid_on).map_err(|e| AppError::BadRequest(e.to_string()))?;
    let carry_in_cents = at.snapshot.chained(year)?.payouts.carry_in_cents;
    let change = Change::NetPayouts {
        paid_on: day,
        carry_in_cents,
    };
    let before = crate::league::payouts(&at.view.season, carry_in_cents).fines_cents;
    let view = match league.change(year, change, &Edit::by(&user.username)).await {
        Ok(v) => v,
        Err(ServiceError::Refused(e) | ServiceError::Closed(e)) => {
            return Err(AppError::BadRequest(e.to_string()))
        }
        Err(e) => return Err(e.into()),
    };
    let after = crate::league::payouts(&view.season, carry_in_cents).fines_cents;
    Ok(flash
        .redirect(
            &format!("/saison/{year}/abschluss#verrechnung"),
            format!(
                "Verrechnung gebucht: {} offene Strafen am {} aus den Anteilen bezahlt.",
                format_cents(after - before),
                date_de(day)
            ),
        )
        .await)
}

// ---------------------------------------------------------------------------------------------
// The money card

/// A player's money card (on his page): what he owes and what he paid, with the GiroCode and
/// the PayPal.me link for what he owes.
pub struct MoneyCard {
    /// Open items: (label, amount), oldest first.
    pub open: Vec<(String, String)>,
    /// Σ open.
    pub open_sum: String,
    /// Paid items: (label, amount, day, netted).
    pub paid: Vec<(String, String, String, bool)>,
    /// Σ paid.
    pub paid_sum: String,
    /// The GiroCode as inline SVG (no script, no style), when the club has an account and
    /// something is open.
    pub qr_svg: Option<String>,
    /// The transfer in words: (payee, IBAN in groups of four, amount, reference).
    pub transfer: Option<(String, String, String, String)>,
    /// The PayPal.me link for the open amount, when the club has a PayPal.me name.
    pub paypal: Option<String>,
}

/// The GiroCode of `payload` as an SVG element for a page (the XML declaration dropped), drawn
/// with error correction level M as EPC069-12 asks. `None` when it does not fit a QR code.
pub fn qr_svg(payload: &str) -> Option<String> {
    use qrcode::render::svg;
    let code =
        qrcode::QrCode::with_error_correction_level(payload.as_bytes(), qrcode::EcLevel::M).ok()?;
    let svg = code
        .render::<svg::Color>()
        .min_dimensions(200, 200)
        .dark_color(svg::Color("#000"))
        .light_color(svg::Color("#fff"))
        .build();
    let start = svg.find("<svg")?;
    Some(svg[start..].replacen(
        "<svg ",
        "<svg class=\"girocode\" role=\"img\" aria-label=\"GiroCode\" ",
        1,
    ))
}

/// An IBAN in groups of four: "DE89 3704 0044 0532 0130 00".
fn grouped(iban: &str) -> String {
    iban.as_bytes()
        .chunks(4)
        .map(|c| String::from_utf8_lossy(c).into_owned())
        .collect::<Vec<_>>()
        .join(" ")
}

/// The money card of player `name` of `view`'s season for a viewer (`logged_in` or not) on
/// `today`; `None` when the club keeps its money private and nobody is logged in, or he is not a
/// player of the season.
pub fn card(
    snapshot: &Snapshot,
    view: &SeasonView,
    name: &str,
    logged_in: bool,
    today: NaiveDate,
) -> Option<MoneyCard> {
    if !snapshot.money_visible(logged_in) {
        return None;
    }
    let season = &view.season;
    let a = account(season, name, today)?;
    let s = &snapshot.settings;
    let reference = girocode::reference(season.year, name);
    let payload = (a.open_cents > 0 && !s.iban.is_empty())
        .then(|| girocode::epc_payload(&s.account_name, &s.iban, &s.bic, a.open_cents, &reference))
        .and_then(Result::ok);
    Some(MoneyCard {
        open: a
            .open
            .iter()
            .map(|i| (i.label.clone(), format_cents(i.cents)))
            .collect(),
        open_sum: format_cents(a.open_cents),
        paid: a
            .paid
            .iter()
            .map(|i| {
                (
                    i.label.clone(),
                    format_cents(i.cents),
                    date_de(i.paid_on),
                    i.netted,
                )
            })
            .collect(),
        paid_sum: format_cents(a.paid_cents),
        qr_svg: payload.as_deref().and_then(qr_svg),
        transfer: payload.as_ref().map(|_| {
            (
                s.account_name.clone(),
                grouped(&s.iban),
                format_cents(a.open_cents),
                reference.clone(),
            )
        }),
        paypal: (a.open_cents > 0 && !s.paypal_me.is_empty()).then(|| {
            format!(
                "https://paypal.me/{}/{}.{:02}EUR",
                s.paypal_me,
                a.open_cents / 100,
                a.open_cents % 100
            )
        }),
    })
}
