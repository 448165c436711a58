//! The treasurer's view of a season (league.md §5, §6, §8): the Kasse per player, the pot night by
//! night, the carry chain across seasons, and the Jahresabschluss broken down payee by payee so that
//! every cent can be checked by hand. Pure code; money is i64 cents, exact shares are fractions.

pub mod buch;
pub mod journal;

use std::collections::BTreeMap;

use chrono::NaiveDate;

use super::payouts::{payouts, Payouts};
use crate::league::model::rules::SeasonRules;
use crate::league::model::season::Season;

/// One player's money in a season: Jahresbeitrag and fines, paid and open (league.md §5, §6).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KasseLine {
    /// The player's name.
    pub player: String,
    /// Payment date of the Jahresbeitrag, `None` when unpaid.
    pub fee_paid_on: Option<NaiveDate>,
    /// The Jahresbeitrag in cents (0 when unpaid).
    pub fee_cents: i64,
    /// Number of his paid fines.
    pub fines_paid: u32,
    /// Σ his paid fines, cents (in the pot).
    pub fines_paid_cents: i64,
    /// Number of his open fines.
    pub fines_open: u32,
    /// Σ his open fines, cents (outstanding, not in the pot).
    pub fines_open_cents: i64,
}

impl KasseLine {
    /// What he has paid in: fee + paid fines, cents.
    pub fn paid_cents(&self) -> i64 {
        self.fee_cents + self.fines_paid_cents
    }
}

/// The pot after one night (league.md §8 applied to everything known on that date).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PotStep {
    /// The night's date.
    pub date: NaiveDate,
    /// Σ Jahresbeiträge paid on or before the date, cents.
    pub fees_cents: i64,
    /// Σ paid fines of the nights up to the date, cents.
    pub fines_cents: i64,
    /// The Lucky Looser amount set aside so far, cents.
    pub lucky_cents: i64,
    /// fees − lucky + fines + carry_in, cents.
    pub pot_cents: i64,
    /// Fines booked at this night: paid (count, cents).
    pub night_fines_paid: (u32, i64),
    /// Fines booked at this night: open (count, cents).
    pub night_fines_open: (u32, i64),
}

/// The Kasse of a season: one line per player (by name), the totals, the pot night by night and
/// the income by payment day.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Kasse {
    /// Per player, sorted by name.
    pub lines: Vec<KasseLine>,
    /// Σ of all lines (player = "Summe").
    pub total: KasseLine,
    /// The pot after each night, in date order.
    pub steps: Vec<PotStep>,
    /// What came in, day by day ([`income_by_date`]).
    pub income: Vec<IncomeDay>,
}

/// What came into the Kasse on one day: Jahresbeiträge by their payment date, fines by the day
/// they were paid (league.md §5, §6).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct IncomeDay {
    /// The day.
    pub date: NaiveDate,
    /// Number of Jahresbeiträge paid that day.
    pub fees: u32,
    /// Their sum, cents.
    pub fees_cents: i64,
    /// Number of fines paid that day (netted ones included: paid out of a share).
    pub fines: u32,
    /// Their sum, cents.
    pub fines_cents: i64,
}

impl IncomeDay {
    /// Fees and fines of the day, cents.
    pub fn cents(&self) -> i64 {
        self.fees_cents + self.fines_cents
    }
}

/// The income of `season` by payment day, in date order: each Jahresbeitrag on its `fee_paid_on`,
/// each paid fine on its `paid_on` (the night's date when paid without one). Σ of all days + the
/// open fines = every fee and every fine booked.
pub fn income_by_date(season: &Season) -> Vec<IncomeDay> {
    let mut out: BTreeMap<NaiveDate, IncomeDay> = BTreeMap::new();
    for p in &season.players {
        if let Some(d) = p.fee_paid_on {
            let e = out.entry(d).or_insert_with(|| IncomeDay {
                date: d,
                ..IncomeDay::default()
            });
            e.fees += 1;
            e.fees_cents += p.fee_cents;
        }
    }
    for f in season.nights.iter().flat_map(|n| &n.fines) {
        if let Some(d) = f.paid_on {
            let e = out.entry(d).or_insert_with(|| IncomeDay {
                date: d,
                ..IncomeDay::default()
            });
            e.fines += 1;
            e.fines_cents += f.amount_cents;
        }
    }
    out.into_values().collect()
}

/// The Kasse of `season` with `carry_in_cents` (league.md §5, §6, §8): fees and fines per player,
/// their sums, and the pot after each night as [`payouts`] computes it from the fees paid by that
/// date and the nights up to it.
pub fn kasse(season: &Season, carry_in_cents: i64) -> Kasse {
    let mut lines: Vec<KasseLine> = season
        .players
        .iter()
        .map(|p| KasseLine {
            player: p.name.clone(),
            fee_paid_on: p.fee_paid_on,
            fee_cents: p.fee_cents,
            fines_paid: 0,
            fines_paid_cents: 0,
            fines_open: 0,
            fines_open_cents: 0,
        })
        .collect();
    for f in season.nights.iter().flat_map(|n| &n.fines) {
        if let Some(l) = lines.iter_mut().find(|l| l.player == f.player) {
            if f.paid {
                l.fines_paid += 1;
                l.fines_paid_cents += f.amount_cents;
            } else {
                l.fines_open += 1;
                l.fines_open_cents += f.amount_cents;
            }
        }
    }
    lines.sort_by(|a, b| a.player.cmp(&b.player));
    let mut total = KasseLine {
        player: "Summe".to_string(),
        fee_paid_on: None,
        fee_cents: 0,
        fines_paid: 0,
        fines_paid_cents: 0,
        fines_open: 0,
        fines_open_cents: 0,
    };
    for l in &lines {
        total.fee_cents += l.fee_cents;
        total.fines_paid += l.fines_paid;
        total.fines_paid_cents += l.fines_paid_cents;
        total.fines_open += l.fines_open;
        total.fines_open_cents += l.fines_open_cents;
    }
    let steps = season
        .nights
        .iter()
        .map(|night| {
            let p = payouts_on(season, night.date, carry_in_cents);
            let count = |paid: bool| {
                night
                    .fines
                    .iter()
                    .filter(|f| f.paid == paid)
                    .fold((0u32, 0i64), |(n, c), f| (n + 1, c + f.amount_cents))
            };
            PotStep {
                date: night.date,
                fees_cents: p.fees_cents,
                fines_cents: p.fines_cents,
                lucky_cents: p.lucky_looser.cents.iter().sum(),
                pot_cents: p.pot_cents,
                night_fines_paid: count(true),
                night_fines_open: count(false),
            }
        })
        .collect();
    Kasse {
        lines,
        total,
        steps,
        income: income_by_date(season),
    }
}

/// The payouts of `season` as known on `date` (league.md §7, §8): its table after the last night
/// with results up to `date`, the Jahresbeiträge and fines paid up to it (those paid later count
/// as unpaid, open). The same as [`payouts`] of [`as_of`]`(season, date)` without copying the
/// season's rounds (issue 25: the Kasse's pot after each night copied the whole season per night).
fn payouts_on(season: &Season, date: NaiveDate, carry_in_cents: i64) -> Payouts {
    let table = match season.default_as_of(Some(date)) {
        Some(d) => crate::league::table::standings::standings(season, Some(d)),
        None => crate::league::table::standings::Standings {
            season: season.year,
            as_of: None,
            rows: Vec::new(),
        },
    };
    let money = super::payouts::money_on(season, Some(date));
    super::payouts::payouts_of_money(season, &table, carry_in_cents, money)
}

/// The season as known on `date`: nights up to it, Jahresbeiträge and fines paid up to it (those
/// paid later count as unpaid, open). The oracle of [`payouts_on`] in the tests.
#[cfg(test)]
fn as_of(season: &Season, date: NaiveDate) -> Season {
    let mut s = season.clone();
    s.nights.retain(|n| n.date <= date);
    for p in &mut s.players {
        if p.fee_paid_on.is_some_and(|d| d > date) {
            p.fee_paid_on = None;
            p.fee_cents = 0;
        }
    }
    for f in s.nights.iter_mut().flat_map(|n| n.fines.iter_mut()) {
        if f.paid_on.is_some_and(|d| d > date) {
            f.paid = false;
            f.paid_on = None;
        }
    }
    s
}

/// The payouts of several seasons chained (league.md §8): sorted by year, each season's carry-in is
/// the previous one's carry-out, the first season's is 0. Returns one [`Payouts`] per season, by year.
pub fn chain(seasons: &[Season]) -> Vec<Payouts> {
    let mut sorted: Vec<&Season> = seasons.iter().collect();
    sorted.sort_by_key(|s| s.year);
    let mut carry = 0;
    sorted
        .into_iter()
        .map(|s| {
            let p = payouts(s, carry);
            carry = p.carry_out_cents;
            p
        })
        .collect()
}

/// One payee of the Jahresabschluss with the arithmetic a treasurer checks (league.md §8): exact
/// share `exact_num / exact_den` cents, its floor, the extra cent from the largest remainders.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ShareLine {
    /// The (shared) place; 0 for the Lucky Looser.
    pub place: u32,
    /// The payee.
    pub player: String,
    /// Σ percent of the places the tie covers (e.g. 25 + 20 = 45); 0 for the Lucky Looser.
    pub covered_percent: u32,
    /// Number of players sharing (1 without a tie).
    pub split: u32,
    /// Numerator of the exact share in cents.
    pub exact_num: i128,
    /// Denominator of the exact share (> 0).
    pub exact_den: i128,
    /// floor(exact share), cents.
    pub floor_cents: i64,
    /// Extra cents from the largest-remainder rule (0 or 1).
    pub extra_cents: i64,
    /// What he receives, cents (= floor + extra).
    pub cents: i64,
}

/// The places of `p` payee by payee, best place first (league.md §8): each tie's covered percent
/// of the pot divided by the number of tied players, floored, plus the extra cent.
pub fn place_lines(rules: &SeasonRules, p: &Payouts) -> Vec<ShareLine> {
    p.places
        .iter()
        .flat_map(|place| {
            let k = place.players.len() as u32;
            let covered: u32 = (place.place..place.place + k)
                .filter_map(|q| rules.payout_percent.get(q as usize - 1))
                .sum();
            let num = i128::from(p.pot_cents) * i128::from(covered);
            let den = 100 * i128::from(k);
            place
                .players
                .iter()
                .zip(&place.cents)
                .map(move |(name, &cents)| {
                    share_line(place.place, name, covered, k, num, den, cents)
                })
        })
        .collect()
}

/// The Lucky Looser's split payee by payee (league.md §7–§8): the amount divided by the number of
/// tied players, floored, plus the extra cent.
pub fn lucky_lines(p: &Payouts) -> Vec<ShareLine> {
    let total: i64 = p.lucky_looser.cents.iter().sum();
    let k = p.lucky_looser.players.len() as u32;
    p.lucky_looser
        .players
        .iter()
        .zip(&p.lucky_looser.cents)
        .map(|(name, &cents)| {
            share_line(
                0,
                name,
                0,
                k,
                i128::from(total),
                i128::from(k.max(1)),
                cents,
            )
        })
        .collect()
}

fn share_line(
    place: u32,
    player: &str,
    covered_percent: u32,
    split: u32,
    exact_num: i128,
    exact_den: i128,
    cents: i64,
) -> ShareLine {
    let floor = exact_num.div_euclid(exact_den.max(1)) as i64;
    ShareLine {
        place,
        player: player.to_string(),
        covered_percent,
        split,
        exact_num,
        exact_den,
        floor_cents: floor,
        extra_cents: cents - floor,
        cents,
    }
}

/// An exact amount of `num / den` cents as German euros with up to 4 decimals, trailing zeros
/// beyond the cents dropped, and "…" when it does not end there: 240060/100 → `"24,006 €"`,
/// 2375/3 → `"7,9166… €"`, 5625/1 → `"56,25 €"`. `den` ≤ 0 gives `"–"`.
pub fn format_exact_cents(num: i128, den: i128) -> String {
    if den <= 0 {
        return "–".to_string();
    }
    let neg = (num < 0) != (den < 0) && num != 0;
    let (n, d) = (num.abs(), den.abs());
    // ten-thousandths of a euro = hundredths of a cent
    let scaled = n * 100;
    let units = scaled / d;
    let inexact = scaled % d != 0;
    let euros = units / 10_000;
    let mut frac = format!("{:04}", units % 10_000);
    while frac.len() > 2 && frac.ends_with('0') {
        frac.pop();
    }
    let grouped =
        crate::league::model::format::format_cents(i64::try_from(euros * 100).unwrap_or(i64::MAX));
    // reuse the thousands grouping of format_cents: "1.234,00 €" → "1.234"
    let whole = grouped.split(',').next().unwrap_or("0");
    format!(
        "{}{whole},{frac}{} €",
        if neg { "-" } else { "" },
        if inexact { "…" } else { "" }
    )
}

/// Euros as typed in a German form → cents: `"1,50"`, `"1.50"`, `"2"`, `"0,5"`, `"1.234,50"` (a dot
/// followed by three digits groups thousands). Errors (German): empty, not a number, more than two
/// decimals, negative.
pub fn parse_euros(input: &str) -> Result<i64, String> {
    let s = input.trim().trim_end_matches('€').trim();
    let bad = || format!("\"{}\" ist kein Betrag (z. B. 1,50)", input.trim());
    if s.is_empty() {
        return Err("Betrag fehlt".to_string());
    }
    if s.starts_with('-') {
        return Err("Betrag darf nicht negativ sein".to_string());
    }
    // With a comma, dots are thousands separators; without one, a single dot is the decimal mark.
    // Thousands separators group exactly: 1–3 digits, then groups of 3 ("1.234.567"); anything
    // else with a dot ("1..5", "1.2.3") is no amount.
    let grouped = |x: &str| -> Result<String, String> {
        if !x.contains('.') {
            return Ok(x.to_string());
        }
        let mut groups = x.split('.');
        let first = groups.next().unwrap_or_default();
        let ok = (1..=3).contains(&first.len())
            && groups.all(|g| g.len() == 3)
            && x.chars().all(|c| c.is_ascii_digit() || c == '.');
        if ok {
            Ok(x.replace('.', ""))
        } else {
            Err(bad())
        }
    };
    let (whole, frac) = match (s.rfind(','), s.matches('.').count()) {
        (Some(i), _) => (grouped(&s[..i])?, &s[i + 1..]),
        (None, 1) if s.split('.').nth(1).is_some_and(|f| f.len() != 3) => {
            let i = s.find('.').ok_or_else(bad)?;
            (s[..i].to_string(), &s[i + 1..])
        }
        (None, _) => (grouped(s)?, ""),
    };
    let digits = |x: &str| !x.is_empty() && x.chars().all(|c| c.is_ascii_digit());
    if !digits(&whole) || !(frac.is_empty() || digits(frac)) {
        return Err(bad());
    }
    if frac.len() > 2 {
        return Err(format!(
            "\"{}\": höchstens zwei Nachkommastellen",
            input.trim()
        ));
    }
    let euros: i64 = whole.parse().map_err(|_| bad())?;
    let cents: i64 = format!("{frac:0<2}").parse().map_err(|_| bad())?;
    euros
        .checked_mul(100)
        .and_then(|e| e.checked_add(cents))
        .ok_or_else(bad)
}

/// The German label of a fine kind of the default Strafenkatalog (league.md §6); other kinds as
/// they are named: `"late"` → `"Zuspätkommer"`, `"sleepy"` → `"Schock-Schlafmütze"`.
pub fn fine_label(kind: &str) -> &str {
    match kind {
        "late" => "Zuspätkommer",
        "sleepy" => "Schock-Schlafmütze",
        other => other,
    }
}

#[cfg(test)]
mod tests;
