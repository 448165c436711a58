//! The public Kasse of a season (league.md §5, §6, §8): each player's fee and fines, the income by
//! day of payment, the open fines, and the pot after each night with the carry from the year before.

pub mod bericht;
pub mod buch;

use askama::Template;
use askama_web::WebTemplate;
use axum::extract::State;
use axum::response::{IntoResponse, Redirect, Response};

use crate::league::format_cents;
use crate::league::model::format::date_de as de_date;
use crate::league::money::kasse::{fine_label, kasse};
use crate::service::{League, SeasonView};
use crate::web::kit::at::AtSeason;
use crate::web::kit::session::CurrentUser;
use crate::web::kit::{AppError, Layout};

use crate::web::kit::privacy::{money_gate, private_money};

/// One player's line of the Kasse, formatted.
pub struct KasseRow {
    /// Name.
    pub player: String,
    /// Payment date of the Jahresbeitrag, German, or "–".
    pub fee_date: String,
    /// The fee, German euros ("–" when unpaid).
    pub fee: String,
    /// Paid fines: count and sum.
    pub fines_paid: String,
    /// Open fines: count and sum ("–" when none).
    pub fines_open: String,
    /// Fee + paid fines.
    pub paid: String,
}

/// A booked fine, formatted, with its id for the paid/open buttons.
pub struct FineRow {
    /// `fines.id`.
    pub id: i64,
    /// The night, German date.
    pub date: String,
    /// Link to the night.
    pub href: String,
    /// The player.
    pub player: String,
    /// The kind's German label.
    pub kind: String,
    /// The booked amount.
    pub amount: String,
    /// Paid or open.
    pub paid: bool,
    /// The day it was paid, German ("" while open), with "verrechnet" for a netted fine.
    pub paid_on: String,
}

/// What came in on one day, formatted.
pub struct IncomeRow {
    /// The day, German date.
    pub date: String,
    /// Jahresbeiträge of the day: count and sum ("–" when none).
    pub fees: String,
    /// Fines of the day: count and sum ("–" when none).
    pub fines: String,
    /// Both.
    pub total: String,
}

/// The pot after one night, formatted.
pub struct PotRow {
    /// The night, German date.
    pub date: String,
    /// Σ fees so far.
    pub fees: String,
    /// Σ paid fines so far.
    pub fines: String,
    /// Lucky Looser amount set aside.
    pub lucky: String,
    /// The pot after the night.
    pub pot: String,
}

/// The Guthaben of a season's players (issue 34.1), formatted: (name, German euros) of each
/// player with Guthaben, by name, and the sum. Owed to the players, never part of the pot.
pub fn credit_rows(season: &crate::league::Season) -> (Vec<(String, String)>, String) {
    let mut rows: Vec<(String, i64)> = season
        .credits()
        .into_iter()
        .filter(|(_, c)| *c > 0)
        .map(|(n, c)| (n.to_string(), c))
        .collect();
    rows.sort();
    let total = rows.iter().map(|(_, c)| c).sum();
    (
        rows.into_iter()
            .map(|(n, c)| (n, format_cents(c)))
            .collect(),
        format_cents(total),
    )
}

/// The Kasse page.
#[derive(Template, WebTemplate)]
#[template(path = "money/kasse.html")]
struct KassePage {
    layout: Layout,
    /// The refusal of a form sent from this page (marking a fine, the netting), at the top.
    error: Option<String>,
    year: i32,
    as_of: String,
    previous: Option<i32>,
    carry_in: String,
    fees: String,
    fines_paid: String,
    fines_open: String,
    lucky: String,
    pot: String,
    rows: Vec<KasseRow>,
    total: KasseRow,
    open_fines: Vec<FineRow>,
    steps: Vec<PotRow>,
    income: Vec<IncomeRow>,
    income_total: String,
    money: bool,
    today: String,
    /// Each player's Guthaben (name, euros) and the sum (issue 34.1).
    credits: Vec<(String, String)>,
    credit_total: String,
}

pub async fn current(State(league): State<League>) -> Redirect {
    crate::web::kit::at::to_current_season(&league, "kasse")
}

/// "n × 1,50 €"-style count and sum, or "–" for none.
fn count_sum(n: u32, cents: i64) -> String {
    if n == 0 {
        "–".to_string()
    } else {
        format!("{n} · {}", format_cents(cents))
    }
}

/// The booked fines of `view`'s season by night, then booking order, formatted.
pub fn fine_rows(view: &SeasonView) -> Vec<FineRow> {
    view.season
        .nights
        .iter()
        .flat_map(|n| {
            let ids = view.ids.fines.get(&n.date);
            n.fines.iter().enumerate().map(move |(i, f)| FineRow {
                id: ids.and_then(|ids| ids.get(i)).copied().unwrap_or_default(),
                date: de_date(n.date),
                href: format!("/abend/{}", n.date),
                player: f.player.clone(),
                kind: fine_label(&f.kind).to_string(),
                amount: format_cents(f.amount_cents),
                paid: f.paid,
                paid_on: match (f.paid_on, f.netted) {
                    (Some(d), true) => format!("{} (verrechnet)", de_date(d)),
                    (Some(d), false) => de_date(d),
                    (None, _) => String::new(),
                },
            })
        })
        .collect()
}

/// `GET /saison/{year}/kasse`: the Kasse of the season (to the login page while the club
/// keeps its money private and nobody is logged in).
pub async fn get(layout: Layout, at: AtSeason) -> Result<Response, AppError> {
    page(layout, &at, None)
}

/// The Kasse page of `at` with `error` at the top (a refused form sent from it).
pub fn page(layout: Layout, at: &AtSeason, error: Option<String>) -> Result<Response, AppError> {
    if let Some(to_login) = money_gate(&at.snapshot, &layout) {
        return Ok(to_login);
    }
    let page = kasse_view(layout, at, error)?;
    Ok(private_money(&at.snapshot, page.into_response()))
}

fn kasse_view(layout: Layout, at: &AtSeason, error: Option<String>) -> Result<KassePage, AppError> {
    let today = layout.today;
    let year = at.year();
    let chained = at.snapshot.chained_on(year, today)?;
    let season = &at.view.season;
    let p = &chained.payouts;
    let k = kasse(season, p.carry_in_cents);
    let row = |l: &crate::league::money::kasse::KasseLine| KasseRow {
        player: l.player.clone(),
        fee_date: l.fee_paid_on.map(de_date).unwrap_or_else(|| "–".into()),
        fee: if l.fee_paid_on.is_some() || l.fee_cents > 0 {
            format_cents(l.fee_cents)
        } else {
            "–".into()
        },
        fines_paid: count_sum(l.fines_paid, l.fines_paid_cents),
        fines_open: count_sum(l.fines_open, l.fines_open_cents),
        paid: format_cents(l.paid_cents()),
    };
    let mut total = row(&k.total);
    total.fee = format_cents(k.total.fee_cents);
    total.fee_date = String::new();
    let open_fines = fine_rows(&at.view)
        .into_iter()
        .filter(|f| !f.paid)
        .collect();
    let income_total: i64 = k.income.iter().map(|d| d.cents()).sum();
    let booked: i64 = k.total.fee_cents + k.total.fines_paid_cents + k.total.fines_open_cents;
    let (credits, credit_total) = credit_rows(season);
    Ok(KassePage {
        credits,
        credit_total,
        error,
        money: layout.user.as_ref().is_some_and(CurrentUser::handles_money),
        layout,
        today: today.to_string(),
        income: k
            .income
            .iter()
            .rev()
            .map(|d| IncomeRow {
                date: de_date(d.date),
                fees: count_sum(d.fees, d.fees_cents),
                fines: count_sum(d.fines, d.fines_cents),
                total: format_cents(d.cents()),
            })
            .collect(),
        income_total: format!(
            "{} eingenommen + {} offen = {} gebucht",
            format_cents(income_total),
            format_cents(k.total.fines_open_cents),
            format_cents(booked)
        ),

        year,
        as_of: season
            .last_night()
            .map(|d| format!("Stand nach dem Abend vom {}", de_date(d)))
            .unwrap_or_else(|| "Noch kein Spielabend".into()),
        previous: chained.previous.as_ref().map(|x| x.season),
        carry_in: format_cents(p.carry_in_cents),
        fees: format_cents(p.fees_cents),
        fines_paid: format_cents(p.fines_cents),
        fines_open: format_cents(p.open_fines_cents),
        lucky: format_cents(p.lucky_looser.cents.iter().sum()),
        pot: format_cents(p.pot_cents),
        rows: k.lines.iter().map(row).collect(),
        total,
        open_fines,
        steps: k
            .steps
            .iter()
            .rev()
            .map(|s| PotRow {
                date: de_date(s.date),
                fees: format_cents(s.fees_cents),
                fines: format_cents(s.fines_cents),
                lucky: format_cents(s.lucky_cents),
                pot: format_cents(s.pot_cents),
            })
            .collect(),
    })
}
