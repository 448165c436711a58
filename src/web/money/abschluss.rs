//! The Jahresabschluss of a season (league.md §8): fees, fines and the carry-in, the Lucky Looser,
//! the pot, the places' shares step by step to the cent, the carry-out, the check that every cent
//! is accounted for, and the netting of open fines against the payouts (with a print stylesheet);
//! for logged-in accounts the Kassenprüfer's *Geprüft* (`geprueft`).

pub mod geprueft;
mod rules;

use std::collections::BTreeMap;

use askama::Template;
use askama_web::WebTemplate;
use axum::extract::State;
use axum::response::{IntoResponse, Response};
use chrono::NaiveDate;

use crate::league::model::format::date_de as de_date;
use crate::league::money::kasse::{format_exact_cents, lucky_lines, place_lines, ShareLine};
use crate::league::money::netting::{closing, netted_on, netting_preview, Ahead, Closing, NetLine};
use crate::league::{format_cents, Season};
use crate::service::League;
use crate::web::kit::at::AtSeason;
use crate::web::kit::session::CurrentUser;
use crate::web::kit::{AppError, Layout};

use crate::web::kit::privacy::{money_gate, private_money};
use crate::web::money::kasse::{fine_rows, FineRow};
use rules::{rules_view, RulesView};

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
    /// While a netting is pending and it changes his share: the share after it, the one the
    /// netting below pays from (issue 21.7).
    pub with_netting: Option<String>,
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

/// The Jahresabschluss page.
#[derive(Template, WebTemplate)]
#[template(path = "money/abschluss.html")]
struct AbschlussPage {
    layout: Layout,
    /// The refusal of a form sent from this page (marking a fine, the netting), at the top.
    error: Option<String>,
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
    /// The figures are those after the pending netting (shown so in the page).
    with_netting: bool,
    /// Each player's Guthaben and the sum (issue 34.1): owed to them, outside the pot.
    credits: (Vec<(String, String)>, String),
    /// The Kassenprüfer's *Geprüft*s and his form (issue 35.3).
    checked: geprueft::CheckedView,
}

/// One payee of the netting, formatted (league.md §8).
pub struct NetRow {
    /// The payee.
    pub player: String,
    /// His share (places and Lucky Looser).
    pub share: String,
    /// What of the share is the Lucky Looser's: "inkl. 10,00 € Lucky Looser", "Lucky Looser"
    /// when it is all of it; empty without (issue 31.11).
    pub lucky: String,
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
    /// The viewer may book the netting (a Kassenwart, secretary or admin) and it can be booked
    /// (no night ahead, a stored netting fits).
    pub can_book: bool,
    /// Default day of the netting (`YYYY-MM-DD`).
    pub day: String,
    /// For the Kassenwart while nights are ahead, instead of the button: "Noch geplant: Freitag,
    /// 11.12.2026 – die Verrechnung erst nach dem letzten Abend." (league.md §11).
    pub waits: Option<String>,
    /// The viewer may undo the booked netting ("Verrechnung aufheben", league.md §11).
    pub can_undo: bool,
    /// The reason typed into the undo form (kept when it was refused).
    pub reason: String,
    /// A stored netting that no longer fits the shares (issue 31.1): "Die Verrechnung passt
    /// nicht mehr: Carla hat keinen Anteil (1,00 € verrechnet). …".
    pub misfit: Option<String>,
}

/// `season` after the netting on `on` with carry-in `carry_in`, while payees' open fines wait
/// to be netted; `None` when there is nothing to net.
fn pending_netting(season: &Season, carry_in: i64, on: NaiveDate) -> Option<Season> {
    netting_preview(season, carry_in, on)
}

/// What the Kassenwart may do with the netting, and what the page says about it.
struct NetAccess {
    /// He handles money.
    money: bool,
    /// The days of the season's planned nights still to come (league.md §11).
    planned: Vec<NaiveDate>,
    /// The reason typed into the undo form.
    reason: String,
}

/// "Die Verrechnung passt nicht mehr: Carla hat keinen Anteil (1,00 € verrechnet). …" for the
/// lines whose share does not cover their netted fines; `None` when every one fits.
fn misfit(lines: &[NetLine]) -> Option<String> {
    let bad: Vec<String> = lines
        .iter()
        .filter(|l| !l.fits())
        .map(|l| match l.share_cents {
            0 => format!(
                "{} hat keinen Anteil ({} verrechnet)",
                l.player,
                format_cents(l.netted_cents)
            ),
            share => format!(
                "der Anteil von {} ({}) deckt die verrechneten {} nicht",
                l.player,
                format_cents(share),
                format_cents(l.netted_cents)
            ),
        })
        .collect();
    (!bad.is_empty()).then(|| {
        format!(
            "Die Verrechnung passt nicht mehr: {}. Sie wurde gebucht, bevor Plätze oder Topf \
             sich noch einmal bewegten; der Kassenwart hebt sie auf („Verrechnung aufheben“) und \
             verrechnet neu.",
            bad.join("; ")
        )
    })
}

/// What of a netting share of `share` cents is the Lucky Looser's `lucky` cents (issue 31.11):
/// "inkl. 10,00 € Lucky Looser", "Lucky Looser" when it is all of the share, "" without.
fn lucky_note(lucky: i64, share: i64) -> String {
    match lucky {
        0 => String::new(),
        c if c == share => "Lucky Looser".to_string(),
        c => format!("inkl. {} Lucky Looser", format_cents(c)),
    }
}

/// The netting of `season` with carry-in `carry_in` on `on` ([`NettingView`]).
fn netting_view(season: &Season, carry_in: i64, on: NaiveDate, access: NetAccess) -> NettingView {
    use crate::league::money::netting::netting;
    use crate::league::payouts;
    let after = pending_netting(season, carry_in, on);
    let shown = after.as_ref().unwrap_or(season);
    let p = payouts(shown, carry_in);
    let lines = netting(shown, &p, on);
    let lucky_of = |player: &str| -> i64 {
        p.lucky_looser
            .players
            .iter()
            .zip(&p.lucky_looser.cents)
            .filter(|(n, _)| *n == player)
            .map(|(_, c)| *c)
            .sum()
    };
    let misfit = misfit(&netting(season, &payouts(season, carry_in), on));
    let waits = crate::league::money::netting::last_act(season, &access.planned)
        .err()
        .map(|e| e.to_string());
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
                lucky: lucky_note(lucky_of(&l.player), l.share_cents),
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
        can_book: access.money && waits.is_none() && misfit.is_none(),
        day: on.to_string(),
        waits: waits.filter(|_| access.money),
        can_undo: access.money && netted_on(season).is_some(),
        reason: access.reason,
        misfit,
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
        with_netting: None,
    }
}

/// `GET /saison/{year}/abschluss`: the Jahresabschluss of the season (to the login page while the club
/// keeps its money private and nobody is logged in).
pub async fn get(
    State(league): State<League>,
    layout: Layout,
    at: AtSeason,
) -> Result<Response, AppError> {
    page(&league, layout, &at, None, "").await
}

/// The Jahresabschluss page of `at` with `error` at the top (a refused form sent from it) and
/// `reason` in the undo form (as typed there); the *Geprüft*s of `league` for a logged-in viewer.
pub async fn page(
    league: &League,
    layout: Layout,
    at: &AtSeason,
    error: Option<String>,
    reason: &str,
) -> Result<Response, AppError> {
    let checked = geprueft::view(league, &layout, at.year(), "").await?;
    page_checked(layout, at, error, reason, checked)
}

/// [`page`] with the *Geprüft* section `checked` (its typed note kept after a refusal).
fn page_checked(
    layout: Layout,
    at: &AtSeason,
    error: Option<String>,
    reason: &str,
    checked: geprueft::CheckedView,
) -> Result<Response, AppError> {
    if let Some(to_login) = money_gate(&at.snapshot, &layout) {
        return Ok(to_login);
    }
    let page = AbschlussPage {
        checked,
        ..abschluss_view(layout, at, error, reason)?
    };
    Ok(private_money(&at.snapshot, page.into_response()))
}

fn abschluss_view(
    layout: Layout,
    at: &AtSeason,
    error: Option<String>,
    reason: &str,
) -> Result<AbschlussPage, AppError> {
    let year = at.year();
    let today = layout.today;
    // As the club's today sees it (issue 22.3): a night entered ahead moves no place.
    let chained = at.snapshot.chained_on(year, today)?;
    let season = &at.view.season;
    // What is still to be played (league.md §11): the netting and "Endgültig" wait for it.
    let planned = at
        .snapshot
        .planning
        .ahead_in(year, today, |d| season.night(d).is_some());
    let still = Ahead::of(season, &planned)
        .sentence()
        .map(|s| format!(" {s}."))
        .unwrap_or_default();
    let carry_in = chained.payouts.carry_in_cents;
    let net_on = today.max(season.last_night().unwrap_or(today));
    // While payees' open fines wait to be netted, the places are the books' (today's pot), and
    // each share the netting changes says what it becomes: the figure the netting below pays
    // from (issue 21.7: 56,25 € in the places beside 56,40 € in the netting preview, unexplained).
    let after = pending_netting(season, carry_in, net_on);
    let after_places: BTreeMap<String, i64> = after
        .as_ref()
        .map(|a| {
            let pa = crate::league::money::payouts::payouts_as_of(
                a,
                carry_in,
                a.default_as_of(Some(today)),
            );
            place_lines(&a.rules, &pa)
                .into_iter()
                .map(|l| (l.player, l.cents))
                .collect()
        })
        .unwrap_or_default();
    let p = &chained.payouts;
    let status = match closing(season, carry_in, today, &planned) {
        Closing::NoNight => {
            format!("Noch kein Spielabend: die Regeln unten gelten für diese Saison.{still}")
        }
        Closing::Provisional { last } => format!(
            "Vorläufig: Stand nach dem Abend vom {}. Endgültig, sobald nach dem letzten Abend \
             der Saison die Verrechnung gebucht ist (ohne offene Strafen der Gewinner: am \
             1. Januar {}).{still}",
            de_date(last),
            year + 1
        ),
        Closing::Final { last } => {
            format!("Endgültig: nach dem letzten Abend vom {}.", de_date(last))
        }
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
        credits: super::kasse::credit_rows(season),
        checked: geprueft::CheckedView::default(),
        layout,
        error,
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
            .map(|l| PayeeRow {
                with_netting: after_places
                    .get(&l.player)
                    .filter(|&&c| c != l.cents)
                    .map(|&c| format_cents(c)),
                ..payee_row(l, &season.rules.payout_percent)
            })
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
            carry_in,
            net_on,
            NetAccess {
                money: can_book,
                planned,
                reason: reason.to_string(),
            },
        ),
        with_netting: after.is_some(),
    })
}

#[cfg(test)]
mod tests;
