//! The money pages (league.md §5, §6, §8): the public Kasse and Jahresabschluss of a season (with
//! the carry chain across seasons and a print stylesheet), CSV exports of the table, the Kasse and
//! the nights, and the secretary's Strafenkatalog page (edit kinds and amounts, book fines, mark
//! them paid or open). Everything reads the league's snapshot; changes go through the write
//! pipeline and answer with a redirect.

use std::collections::BTreeMap;

use askama::Template;
use askama_web::WebTemplate;
use axum::extract::{Path, Query, State};
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Redirect, Response};
use axum::Form;
use chrono::{Datelike, NaiveDate};
use serde::Deserialize;

use crate::league::format::{date_de as de_date, de2};
use crate::league::kasse::{
    fine_label, format_exact_cents, kasse, lucky_lines, parse_euros, place_lines, ShareLine,
};
use crate::league::{format_cents, format_dwert, night_summary, Change, Liga, Season};
use crate::service::{Edit, League, SeasonView, ServiceError};
use crate::web::kit::at::{as_of_date, AtSeason};
use crate::web::kit::session::{CurrentUser, RequireMoney};
use crate::web::kit::Flash;
use crate::web::kit::{AppError, Guard, Layout, Routes};

/// The print and money stylesheet (`static/money.css`), embedded.
const MONEY_CSS: &str = include_str!("../../../static/money.css");

/// The routes of this feature.
pub fn routes() -> Routes {
    Routes::new()
        .get(Guard::Public, "/kasse", kasse_current)
        .get(Guard::Public, "/saison/{year}/kasse", kasse_page)
        .get(Guard::Public, "/saison/{year}/abschluss", abschluss_page)
        .get(Guard::Public, "/saison/{year}/tabelle.csv", table_csv)
        .get(Guard::Public, "/saison/{year}/kasse.csv", kasse_csv)
        .get(Guard::Public, "/saison/{year}/abende.csv", nights_csv)
        .get(Guard::Public, "/money.css", money_css)
        .get(
            Guard::Money,
            "/verwaltung/saison/{year}/strafen",
            strafen_page,
        )
        .post(Guard::Money, "/verwaltung/saison/{year}/strafen", set_kind)
        .post(
            Guard::Money,
            "/verwaltung/saison/{year}/strafen/loeschen",
            remove_kind,
        )
        .post(Guard::Money, "/verwaltung/saison/{year}/strafe", book_fine)
        .post(Guard::Money, "/verwaltung/strafe/{id}/bezahlt", mark_paid)
        .post(Guard::Money, "/verwaltung/strafe/{id}/offen", mark_open)
}

/// `None` when the league's money may be shown for this request, else (`Some`) the way to the
/// login page: while the club keeps its money private ("Kasse nur für Mitglieder") a visitor who
/// is not logged in sees no Kasse, no Jahresabschluss and no money export (SECURITY.md "Private
/// money").
pub fn money_gate(snapshot: &crate::service::Snapshot, layout: &Layout) -> Option<Response> {
    (!snapshot.money_visible(layout.user.is_some())).then(|| Redirect::to("/login").into_response())
}

/// `resp` marked `Cache-Control: private, no-store` when the club keeps its money private: such
/// a page (shown to a logged-in account) is kept by no cache, the page cache included.
pub fn private_money(snapshot: &crate::service::Snapshot, mut resp: Response) -> Response {
    if snapshot.settings.money_private {
        resp.headers_mut().insert(
            header::CACHE_CONTROL,
            axum::http::HeaderValue::from_static("private, no-store"),
        );
    }
    resp
}

/// Today, in the server's time zone: the default payment day of the forms.
pub fn today() -> NaiveDate {
    chrono::Local::now().date_naive()
}

/// A payment day as typed (`YYYY-MM-DD`; empty: today). `Err` is the German refusal.
pub fn paid_on(typed: &str) -> Result<NaiveDate, ServiceError> {
    let text = typed.trim();
    if text.is_empty() {
        return Ok(today());
    }
    NaiveDate::parse_from_str(text, "%Y-%m-%d")
        .map_err(|_| ServiceError::refused(format!("bezahlt am: \"{text}\" ist kein Datum")))
}

async fn money_css() -> impl IntoResponse {
    (
        [
            (header::CONTENT_TYPE, "text/css; charset=utf-8"),
            (header::CACHE_CONTROL, "public, max-age=3600"),
        ],
        MONEY_CSS,
    )
}

// ---------------------------------------------------------------------------------------------
// Kasse

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

/// The Kasse page.
#[derive(Template, WebTemplate)]
#[template(path = "money/kasse.html")]
struct KassePage {
    layout: Layout,
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
}

async fn kasse_current(State(league): State<League>) -> Redirect {
    crate::web::public::table::to_current_season(&league, "kasse")
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
fn fine_rows(view: &SeasonView) -> Vec<FineRow> {
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

async fn kasse_page(layout: Layout, at: AtSeason) -> Result<Response, AppError> {
    if let Some(to_login) = money_gate(&at.snapshot, &layout) {
        return Ok(to_login);
    }
    let page = kasse_view(layout, &at)?;
    Ok(private_money(&at.snapshot, page.into_response()))
}

fn kasse_view(layout: Layout, at: &AtSeason) -> Result<KassePage, AppError> {
    let year = at.year();
    let chained = at.snapshot.chained(year)?;
    let season = &at.view.season;
    let p = &chained.payouts;
    let k = kasse(season, p.carry_in_cents);
    let row = |l: &crate::league::kasse::KasseLine| KasseRow {
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
    Ok(KassePage {
        money: layout.user.as_ref().is_some_and(CurrentUser::handles_money),
        layout,
        today: today().to_string(),
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

// ---------------------------------------------------------------------------------------------
// Jahresabschluss

/// One payee line of the Jahresabschluss, formatted.
pub struct PayeeRow {
    /// "1." or "2. (geteilt)"; the Lucky Looser lines say "LL".
    pub place: String,
    /// The payee.
    pub player: String,
    /// His percentage, e.g. "22,5 %", with the calculation "(25 % + 20 %) ÷ 2".
    pub percent: String,
    /// How the percentage came about, e.g. "(25 + 20) ÷ 2"; empty without a tie.
    pub how: String,
    /// The exact share.
    pub exact: String,
    /// Its floor.
    pub floor: String,
    /// "+ 1 ct" or "".
    pub extra: String,
    /// What he receives.
    pub amount: String,
}

/// Fees grouped by amount: "12 × 15,00 € = 180,00 €".
pub struct FeeGroup {
    /// Number of fees of this amount.
    pub count: usize,
    /// The amount.
    pub amount: String,
    /// count × amount.
    pub sum: String,
}

/// The season's payout rules (league.md §5, §6, §8, §10), formatted.
pub struct RulesView {
    /// The Jahresbeitrag by payment month, January to the last join month: ("Januar", "15,00 €").
    pub fee_by_month: Vec<(&'static str, String)>,
    /// Last month a fee is accepted.
    pub last_join: &'static str,
    /// Lucky Looser amount.
    pub lucky: String,
    /// Paid places: ("1", "30 %").
    pub places: Vec<(String, String)>,
    /// Σ percent of the places.
    pub places_total: u32,
    /// The Strafenkatalog: (label, amount).
    pub fines: Vec<(String, String)>,
    /// Sozialfall after this many paid rounds per night.
    pub sozialfall_after: u32,
}

/// The Jahresabschluss page.
#[derive(Template, WebTemplate)]
#[template(path = "money/abschluss.html")]
struct AbschlussPage {
    layout: Layout,
    year: i32,
    status: String,
    rules: RulesView,
    fee_groups: Vec<FeeGroup>,
    fee_count: usize,
    fees: String,
    fines_count: usize,
    fines: String,
    open_fines: Vec<FineRow>,
    open_fines_sum: String,
    previous: Option<i32>,
    carry_in: String,
    lucky_players: String,
    lucky_paid_rounds: u32,
    lucky_rule: String,
    lucky_rows: Vec<PayeeRow>,
    pot: String,
    pot_formula: String,
    payees: Vec<PayeeRow>,
    places_sum: String,
    carry_out: String,
    carry_out_formula: String,
    next_year: Option<i32>,
    check_left: String,
    check_right: String,
    check_ok: bool,
    schocker: String,
    netting: NettingView,
}

/// One payee of the netting, formatted (league.md §8).
pub struct NetRow {
    /// The payee.
    pub player: String,
    /// His share (places and Lucky Looser).
    pub share: String,
    /// His fines paid out of the share ("–" when none).
    pub netted: String,
    /// His open fines the share does not cover ("–" when none).
    pub left_open: String,
    /// Paid out in cash.
    pub payout: String,
}

/// The netting section of the Jahresabschluss: each payee's share, his fines netted and what he
/// is paid out; before the netting is booked, a preview of the season after it.
pub struct NettingView {
    /// The rows, payee by payee.
    pub rows: Vec<NetRow>,
    /// True while open fines of payees wait to be netted: `rows` show the season after it.
    pub preview: bool,
    /// "Mit der Verrechnung kommen 1,50 € Strafen in den Topf: Topf 82,50 €."
    pub preview_note: String,
    /// Σ paid out + Σ netted = Σ places + Lucky Looser, in words.
    pub check: String,
    /// The viewer may book the netting (a Kassenwart, secretary or admin).
    pub can_book: bool,
    /// Default day of the netting (`YYYY-MM-DD`).
    pub day: String,
}

/// The netting of `season` with carry-in `carry_in` on `on` ([`NettingView`]).
fn netting_view(season: &Season, carry_in: i64, on: NaiveDate, can_book: bool) -> NettingView {
    use crate::league::kasse::{netting, netting_plan};
    use crate::league::payouts;
    let plan = netting_plan(season, carry_in, on);
    let change = Change::NetPayouts {
        paid_on: on,
        carry_in_cents: carry_in,
    };
    let after = (!plan.is_empty())
        .then(|| season.apply(&change).ok())
        .flatten();
    let shown = after.as_ref().unwrap_or(season);
    let p = payouts(shown, carry_in);
    let lines = netting(shown, &p, on);
    let dash = |c: i64| {
        if c == 0 {
            "–".to_string()
        } else {
            format_cents(c)
        }
    };
    let paid_out: i64 = lines.iter().map(|l| l.payout_cents).sum();
    let netted: i64 = lines.iter().map(|l| l.netted_cents).sum();
    let shares: i64 = lines.iter().map(|l| l.share_cents).sum();
    let before = payouts(season, carry_in);
    NettingView {
        rows: lines
            .iter()
            .map(|l| NetRow {
                player: l.player.clone(),
                share: format_cents(l.share_cents),
                netted: dash(l.netted_cents),
                left_open: dash(l.left_open_cents),
                payout: format_cents(l.payout_cents),
            })
            .collect(),
        preview: after.is_some(),
        preview_note: format!(
            "Mit der Verrechnung kommen {} offene Strafen der Gewinner als bezahlt in den Topf: \
             Topf {} statt {}; die Anteile unten sind die nach der Verrechnung.",
            format_cents(p.fines_cents - before.fines_cents),
            format_cents(p.pot_cents),
            format_cents(before.pot_cents)
        ),
        check: format!(
            "{} ausgezahlt + {} verrechnet = {} Plätze und Lucky Looser",
            format_cents(paid_out),
            format_cents(netted),
            format_cents(shares)
        ),
        can_book,
        day: on.to_string(),
    }
}

/// German percent `num / den` with up to two decimals and "…" when it does not end: 45/2 →
/// "22,5 %", 25/3 → "8,33… %", 30/1 → "30 %".
pub fn format_percent(num: u32, den: u32) -> String {
    if den == 0 {
        return "–".to_string();
    }
    let hundredths = u64::from(num) * 100 / u64::from(den);
    let inexact = u64::from(num) * 100 % u64::from(den) != 0;
    let mut s = (hundredths / 100).to_string();
    let frac = hundredths % 100;
    if frac != 0 || inexact {
        let mut f = format!("{frac:02}");
        if !inexact {
            f = f.trim_end_matches('0').to_string();
        }
        s = format!("{s},{f}");
    }
    format!("{s}{} %", if inexact { "…" } else { "" })
}

fn payee_row(l: &ShareLine, rules_percent: &[u32]) -> PayeeRow {
    let (place, percent, how) = if l.place == 0 {
        (
            "Lucky Looser".to_string(),
            String::new(),
            if l.split > 1 {
                format!("÷ {}", l.split)
            } else {
                String::new()
            },
        )
    } else {
        let covered: Vec<String> = (l.place..l.place + l.split)
            .map(|q| {
                rules_percent
                    .get(q as usize - 1)
                    .copied()
                    .unwrap_or(0)
                    .to_string()
            })
            .collect();
        (
            format!("{}.", l.place),
            format_percent(l.covered_percent, l.split),
            if l.split > 1 {
                format!("({}) ÷ {}", covered.join(" + "), l.split)
            } else {
                String::new()
            },
        )
    };
    PayeeRow {
        place,
        player: l.player.clone(),
        percent,
        how,
        exact: format_exact_cents(l.exact_num, l.exact_den),
        floor: format_cents(l.floor_cents),
        extra: if l.extra_cents > 0 {
            format!("+ {} ct", l.extra_cents)
        } else {
            String::new()
        },
        amount: format_cents(l.cents),
    }
}

fn rules_view(season: &Season) -> RulesView {
    let r = &season.rules;
    RulesView {
        fee_by_month: (1..=r.last_join_month)
            .filter_map(|m| {
                let day = NaiveDate::from_ymd_opt(season.year, m, 1)?;
                let cents = crate::league::fee_cents(r, season.year, day).ok()?;
                Some((crate::league::season::month_name(m), format_cents(cents)))
            })
            .collect(),
        last_join: crate::league::season::month_name(r.last_join_month),
        lucky: format_cents(r.lucky_looser_cents),
        places: r
            .payout_percent
            .iter()
            .enumerate()
            .map(|(i, p)| ((i + 1).to_string(), format!("{p} %")))
            .collect(),
        places_total: r.payout_percent.iter().sum(),
        fines: r
            .fines
            .iter()
            .map(|(k, c)| (fine_label(k).to_string(), format_cents(*c)))
            .collect(),
        sozialfall_after: r.sozialfall_after,
    }
}

async fn abschluss_page(layout: Layout, at: AtSeason) -> Result<Response, AppError> {
    if let Some(to_login) = money_gate(&at.snapshot, &layout) {
        return Ok(to_login);
    }
    let page = abschluss_view(layout, &at)?;
    Ok(private_money(&at.snapshot, page.into_response()))
}

fn abschluss_view(layout: Layout, at: &AtSeason) -> Result<AbschlussPage, AppError> {
    let year = at.year();
    let chained = at.snapshot.chained(year)?;
    let (season, p) = (&at.view.season, &chained.payouts);
    let today = chrono::Local::now().date_naive();
    let status = match season.last_night() {
        None => "Noch kein Spielabend: die Regeln unten gelten für diese Saison.".to_string(),
        Some(d) if today.year() <= year => format!(
            "Vorläufig: Stand nach dem Abend vom {}. Endgültig nach dem letzten Abend der Saison.",
            de_date(d)
        ),
        Some(d) => format!("Endgültig: nach dem letzten Abend vom {}.", de_date(d)),
    };
    let mut groups: BTreeMap<i64, usize> = BTreeMap::new();
    for pl in season.players.iter().filter(|pl| pl.fee_paid_on.is_some()) {
        *groups.entry(pl.fee_cents).or_default() += 1;
    }
    let fee_count = groups.values().sum();
    let fee_groups = groups
        .iter()
        .map(|(&amount, &count)| FeeGroup {
            count,
            amount: format_cents(amount),
            sum: format_cents(amount * count as i64),
        })
        .collect();
    let fines_count = season
        .nights
        .iter()
        .flat_map(|n| &n.fines)
        .filter(|f| f.paid)
        .count();
    let open_fines: Vec<FineRow> = fine_rows(&at.view)
        .into_iter()
        .filter(|f| !f.paid)
        .collect();
    let lucky: i64 = p.lucky_looser.cents.iter().sum();
    let lucky_rule = if p.lucky_looser.players.is_empty() {
        "Noch keine Runde verloren: kein Lucky Looser.".to_string()
    } else {
        format!(
            "min({} Lucky-Looser-Betrag, {} Beiträge) = {}",
            format_cents(season.rules.lucky_looser_cents),
            format_cents(p.fees_cents),
            format_cents(lucky)
        )
    };
    let can_book = layout.user.as_ref().is_some_and(CurrentUser::handles_money);
    let placed: i64 = p.places.iter().flat_map(|x| &x.cents).sum();
    let left = placed + lucky + p.carry_out_cents;
    let right = p.fees_cents + p.fines_cents + p.carry_in_cents;
    Ok(AbschlussPage {
        layout,
        year,
        status,
        rules: rules_view(season),
        fee_groups,
        fee_count,
        fees: format_cents(p.fees_cents),
        fines_count,
        fines: format_cents(p.fines_cents),
        open_fines_sum: format_cents(p.open_fines_cents),
        open_fines,
        previous: chained.previous.as_ref().map(|x| x.season),
        carry_in: format_cents(p.carry_in_cents),
        lucky_players: p.lucky_looser.players.join(", "),
        lucky_paid_rounds: p.lucky_looser.paid_rounds,
        lucky_rule,
        lucky_rows: lucky_lines(p)
            .iter()
            .map(|l| payee_row(l, &season.rules.payout_percent))
            .collect(),
        pot: format_cents(p.pot_cents),
        pot_formula: format!(
            "{} Beiträge − {} Lucky Looser + {} Strafen + {} Übertrag = {}",
            format_cents(p.fees_cents),
            format_cents(lucky),
            format_cents(p.fines_cents),
            format_cents(p.carry_in_cents),
            format_cents(p.pot_cents)
        ),
        payees: place_lines(&season.rules, p)
            .iter()
            .map(|l| payee_row(l, &season.rules.payout_percent))
            .collect(),
        places_sum: format_cents(placed),
        carry_out: format_cents(p.carry_out_cents),
        carry_out_formula: format!(
            "{} Topf − {} Plätze = {}",
            format_cents(p.pot_cents),
            format_cents(placed),
            format_cents(p.carry_out_cents)
        ),
        next_year: chained.next_year,
        check_left: format!(
            "{} Plätze + {} Lucky Looser + {} Übertrag = {}",
            format_cents(placed),
            format_cents(lucky),
            format_cents(p.carry_out_cents),
            format_cents(left)
        ),
        check_right: format!(
            "{} Beiträge + {} Strafen + {} Übertrag aus dem Vorjahr = {}",
            format_cents(p.fees_cents),
            format_cents(p.fines_cents),
            format_cents(p.carry_in_cents),
            format_cents(right)
        ),
        check_ok: left == right,
        schocker: p.schocker_des_jahres.join(", "),
        netting: netting_view(
            season,
            p.carry_in_cents,
            today.max(season.last_night().unwrap_or(today)),
            can_book,
        ),
    })
}

// ---------------------------------------------------------------------------------------------
// CSV

/// Cents as a spreadsheet number with a decimal comma, no thousands separator, no sign of the
/// currency: 123450 → "1234,50", -5 → "-0,05".
pub fn csv_cents(cents: i64) -> String {
    let abs = cents.unsigned_abs();
    format!(
        "{}{},{:02}",
        if cents < 0 { "-" } else { "" },
        abs / 100,
        abs % 100
    )
}

/// A text cell made safe for spreadsheets: a leading `=`, `+`, `-`, `@`, tab or CR (which a
/// spreadsheet would run as a formula) gets a `'` in front.
pub fn csv_text(s: &str) -> String {
    match s.chars().next() {
        Some('=' | '+' | '-' | '@' | '\t' | '\r') => format!("'{s}"),
        _ => s.to_string(),
    }
}

/// The file name of an export: `schockerliga-2026-tabelle-2026-11-29.csv`.
pub fn csv_filename(year: i32, what: &str, today: NaiveDate) -> String {
    format!("schockerliga-{year}-{what}-{today}.csv")
}

/// `rows` as a CSV file for a German spreadsheet: UTF-8 with BOM, `;` separator, CRLF line ends.
pub fn csv_bytes(rows: &[Vec<String>]) -> Result<Vec<u8>, AppError> {
    let mut w = csv::WriterBuilder::new()
        .delimiter(b';')
        .terminator(csv::Terminator::CRLF)
        .from_writer(Vec::from("\u{feff}".as_bytes()));
    for r in rows {
        w.write_record(r)
            .map_err(|e| AppError::Internal(format!("CSV: {e}")))?;
    }
    w.into_inner()
        .map_err(|e| AppError::Internal(format!("CSV: {e}")))
}

/// An attachment response of `rows` named [`csv_filename`] with today's date.
fn csv_response(year: i32, what: &str, rows: &[Vec<String>]) -> Result<Response, AppError> {
    let name = csv_filename(year, what, chrono::Local::now().date_naive());
    Ok((
        [
            (header::CONTENT_TYPE, "text/csv; charset=utf-8".to_string()),
            (
                header::CONTENT_DISPOSITION,
                format!("attachment; filename=\"{name}\""),
            ),
        ],
        csv_bytes(rows)?,
    )
        .into_response())
}

fn strings<const N: usize>(cells: [&str; N]) -> Vec<String> {
    cells.iter().map(|s| s.to_string()).collect()
}

/// The CSV query: an optional as-of date for the table.
#[derive(Deserialize)]
pub struct CsvQuery {
    /// `YYYY-MM-DD`; absent = the last night.
    pub as_of: Option<String>,
}

async fn table_csv(at: AtSeason, Query(q): Query<CsvQuery>) -> Result<Response, AppError> {
    let as_of = as_of_date(q.as_of.as_deref())?;
    let year = at.year();
    let table = at.view.standings_as_of(as_of);
    let mut rows = vec![strings([
        "Liga",
        "Platz",
        "Name",
        "Runden",
        "Teilnahmen",
        "Schock Outs",
        "Hand-Outs",
        "Julen",
        "Julen-Outs",
        "offene Julen",
        "gewertete Outs",
        "D.Wert",
        "verlorene Runden",
        "bezahlte Runden",
    ])];
    for liga in [Liga::First, Liga::Second, Liga::Kreisliga] {
        for r in table.rows.iter().filter(|r| r.liga == liga) {
            rows.push(vec![
                liga.label().to_string(),
                r.rank.to_string(),
                csv_text(&r.player),
                r.rounds.to_string(),
                de2(r.teilnahmen),
                r.thrown_outs.to_string(),
                r.hand_outs.to_string(),
                r.julen.to_string(),
                r.julen_outs.to_string(),
                r.open_julen.to_string(),
                r.counted_outs.to_string(),
                format_dwert(r.d_wert_num, r.d_wert_den),
                r.lost_rounds.to_string(),
                r.paid_rounds.to_string(),
            ]);
        }
    }
    csv_response(year, "tabelle", &rows)
}

async fn kasse_csv(layout: Layout, at: AtSeason) -> Result<Response, AppError> {
    if let Some(to_login) = money_gate(&at.snapshot, &layout) {
        return Ok(to_login);
    }
    let year = at.year();
    let chained = at.snapshot.chained(year)?;
    let k = kasse(&at.view.season, chained.payouts.carry_in_cents);
    let mut rows = vec![strings([
        "Name",
        "Beitrag bezahlt am",
        "Beitrag (EUR)",
        "Strafen bezahlt (Anzahl)",
        "Strafen bezahlt (EUR)",
        "Strafen offen (Anzahl)",
        "Strafen offen (EUR)",
        "eingezahlt (EUR)",
    ])];
    for l in k.lines.iter().chain(std::iter::once(&k.total)) {
        rows.push(vec![
            csv_text(&l.player),
            l.fee_paid_on.map(de_date).unwrap_or_default(),
            csv_cents(l.fee_cents),
            l.fines_paid.to_string(),
            csv_cents(l.fines_paid_cents),
            l.fines_open.to_string(),
            csv_cents(l.fines_open_cents),
            csv_cents(l.paid_cents()),
        ]);
    }
    Ok(private_money(
        &at.snapshot,
        csv_response(year, "kasse", &rows)?,
    ))
}

async fn nights_csv(layout: Layout, at: AtSeason) -> Result<Response, AppError> {
    if let Some(to_login) = money_gate(&at.snapshot, &layout) {
        return Ok(to_login);
    }
    let year = at.year();
    let season = &at.view.season;
    let mut rows = vec![strings([
        "Datum",
        "Tisch",
        "Name",
        "Runden",
        "Schock Outs",
        "Hand-Outs",
        "Julen",
        "Julen-Outs",
        "gewertete Outs",
        "Joker-Runde",
        "verlorene Runden",
        "bezahlte Runden",
        "Sozialfall",
        "Strafen bezahlt (EUR)",
        "Strafen offen (EUR)",
    ])];
    for night in &season.nights {
        let Some(summary) = night_summary(season, night.date) else {
            continue;
        };
        let fines_of = |player: &str, paid: bool| {
            csv_cents(
                night
                    .fines
                    .iter()
                    .filter(|f| f.player == player && f.paid == paid)
                    .map(|f| f.amount_cents)
                    .sum(),
            )
        };
        for p in &summary.players {
            rows.push(vec![
                de_date(night.date),
                p.table.to_string(),
                csv_text(&p.player),
                p.rounds.to_string(),
                p.outs.to_string(),
                p.hand_outs.to_string(),
                p.julen.to_string(),
                p.julen_outs.to_string(),
                p.counted_outs.to_string(),
                p.joker_round.map(|r| r.to_string()).unwrap_or_default(),
                p.lost_rounds.to_string(),
                p.paid_rounds.to_string(),
                if p.sozialfall { "ja" } else { "" }.to_string(),
                fines_of(&p.player, true),
                fines_of(&p.player, false),
            ]);
        }
        // fined players who did not play that night
        let mut others: Vec<&str> = night
            .fines
            .iter()
            .map(|f| f.player.as_str())
            .filter(|n| summary.players.iter().all(|p| p.player != *n))
            .collect();
        others.sort_unstable();
        others.dedup();
        for name in others {
            let mut row = vec![de_date(night.date), String::new(), csv_text(name)];
            row.extend(std::iter::repeat_n("0".to_string(), 6));
            row.extend([String::new(), "0".into(), "0".into(), String::new()]);
            row.push(fines_of(name, true));
            row.push(fines_of(name, false));
            rows.push(row);
        }
    }
    Ok(private_money(
        &at.snapshot,
        csv_response(year, "abende", &rows)?,
    ))
}

// ---------------------------------------------------------------------------------------------
// Strafenkatalog and fines (secretary)

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
}

/// The secretary's Strafenkatalog page.
#[derive(Template, WebTemplate)]
#[template(path = "money/strafen.html")]
struct StrafenPage {
    layout: Layout,
    year: i32,
    kinds: Vec<KindRow>,
    nights: Vec<(String, String)>,
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
            .map(|n| (n.date.to_string(), de_date(n.date)))
            .collect(),
        players,
        fines: fine_rows(view).into_iter().rev().collect(),
        typed,
        error,
        today: today().to_string(),
    }
}

async fn strafen_page(layout: Layout, at: AtSeason) -> StrafenPage {
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

/// Ends a submission of the fines page: after the change a redirect to the page with `ok`; a
/// refusal (a league check, a closed night) shows the page again with the reason and `typed`
/// (422), nothing stored; other failures are errors.
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
            .redirect(&format!("/verwaltung/saison/{year}/strafen"), ok)
            .await),
        Err(
            ServiceError::Refused(e)
            | ServiceError::Closed(e)
            | ServiceError::Conflict(e)
            | ServiceError::Full(e),
        ) => {
            let snapshot = league.snapshot();
            let view = snapshot.season(year)?;
            let page = render_strafen(layout, view, typed, Some(e.to_string()));
            Ok((StatusCode::UNPROCESSABLE_ENTITY, page).into_response())
        }
        Err(e) => Err(e.into()),
    }
}

async fn set_kind(
    State(league): State<League>,
    layout: Layout,
    flash: Flash,
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
            Ok(cents) => league
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
    finish(&league, layout, flash, year, done, typed).await
}

async fn remove_kind(
    State(league): State<League>,
    layout: Layout,
    flash: Flash,
    RequireMoney(user): RequireMoney,
    at: AtSeason,
    Form(form): Form<KindForm>,
) -> Result<Response, AppError> {
    let year = at.year();
    let change = Change::SetFineKind {
        kind: form.kind.clone(),
        cents: None,
    };
    let done = league
        .change(year, change, &Edit::by(&user.username))
        .await
        .map(|_| format!("{} gelöscht.", fine_label(form.kind.trim())));
    finish(&league, layout, flash, year, done, Typed::default()).await
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
}

async fn book_fine(
    State(league): State<League>,
    layout: Layout,
    flash: Flash,
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
        ..Typed::default()
    };
    let date = NaiveDate::parse_from_str(form.date.trim(), "%Y-%m-%d").map_err(|_| {
        ServiceError::refused(format!("\"{}\" ist kein Datum (JJJJ-MM-TT)", form.date))
    });
    let day = if paid {
        paid_on(&form.paid_on).map(Some)
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
            league
                .changes(year, &changes, &Edit::by(&user.username))
                .await
                .map(|_| {
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
    finish(&league, layout, flash, year, done, typed).await
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

/// Marks fine `id` (a `fines.id`) paid or open; a refusal (the database's, for example) is a 400
/// with the German reason.
async fn mark(
    league: League,
    flash: Flash,
    user: CurrentUser,
    id: i64,
    paid: bool,
    form: &BackForm,
) -> Result<Response, AppError> {
    let back = form.back.as_str();
    let snapshot = league.snapshot();
    let (year, date, index) = snapshot
        .seasons()
        .find_map(|v| v.ids.fine(id).map(|(d, i)| (v.season.year, d, i)))
        .ok_or(AppError::NotFound)?;
    let day = if paid {
        Some(paid_on(&form.paid_on).map_err(|e| AppError::BadRequest(e.to_string()))?)
    } else {
        None
    };
    let change = Change::PayFine {
        date,
        index,
        paid_on: day,
    };
    match league.change(year, change, &Edit::by(&user.username)).await {
        Ok(_) => {}
        Err(
            ServiceError::Refused(e)
            | ServiceError::Closed(e)
            | ServiceError::Conflict(e)
            | ServiceError::Full(e),
        ) => return Err(AppError::BadRequest(e.to_string())),
        Err(e) => return Err(e.into()),
    }
    let to = if back == "kasse" {
        format!("/saison/{year}/kasse")
    } else {
        format!("/verwaltung/saison/{year}/strafen")
    };
    let message = match day {
        Some(d) => format!("Strafe als bezahlt am {} markiert.", de_date(d)),
        None => "Strafe wieder offen.".to_string(),
    };
    Ok(flash.redirect(&to, message).await)
}

async fn mark_paid(
    State(league): State<League>,
    flash: Flash,
    RequireMoney(user): RequireMoney,
    Path(id): Path<i64>,
    Form(form): Form<BackForm>,
) -> Result<Response, AppError> {
    mark(league, flash, user, id, true, &form).await
}

async fn mark_open(
    State(league): State<League>,
    flash: Flash,
    RequireMoney(user): RequireMoney,
    Path(id): Path<i64>,
    Form(form): Form<BackForm>,
) -> Result<Response, AppError> {
    mark(league, flash, user, id, false, &form).await
}

#[cfg(test)]
mod tests;
