//! The treasurer's view of a season (league.md §5, §6, §8): the Kasse per player, the pot night by
//! night, the carry chain across seasons, and the Jahresabschluss broken down payee by payee so that
//! every cent can be checked by hand. Pure code; money is i64 cents, exact shares are fractions.

use std::collections::BTreeMap;

use chrono::{Datelike, NaiveDate};

use crate::league::model::error::{EntryError, Location};
use crate::league::model::format::{date_de, format_cents, month_name, weekday_de};
use crate::league::model::rules::{fee_cents, SeasonRules};
use crate::league::model::season::Season;
use crate::league::payouts::{payouts, Payouts};

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
        Some(d) => crate::league::standings(season, Some(d)),
        None => crate::league::table::standings::Standings {
            season: season.year,
            as_of: None,
            rows: Vec::new(),
        },
    };
    let money = crate::league::payouts::money_on(season, Some(date));
    crate::league::payouts::payouts_of_money(season, &table, carry_in_cents, money)
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
    let (whole, frac) = match (s.rfind(','), s.matches('.').count()) {
        (Some(i), _) => (s[..i].replace('.', ""), &s[i + 1..]),
        (None, 1) if s.split('.').nth(1).is_some_and(|f| f.len() != 3) => {
            let i = s.find('.').ok_or_else(bad)?;
            (s[..i].to_string(), &s[i + 1..])
        }
        (None, _) => (s.replace('.', ""), ""),
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

// ---------------------------------------------------------------------------------------------
// A player's account: open items, payments against the oldest, the money card

/// One open item of a player (league.md §5, §6): a fine not paid yet, or the Jahresbeitrag.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OpenItem {
    /// The fine's night and position among the night's fines; `None` for the Jahresbeitrag.
    pub fine: Option<(NaiveDate, usize)>,
    /// German label: "Zuspätkommer am 09.01.2026", "Jahresbeitrag (bei Zahlung im Mai)".
    pub label: String,
    /// Its amount in cents.
    pub cents: i64,
}

/// The open fines of `player`, oldest first (by night, then booking order), of the nights up to
/// `until` (all with `None`).
pub fn open_fines(season: &Season, player: &str, until: Option<NaiveDate>) -> Vec<OpenItem> {
    season
        .nights
        .iter()
        .filter(|n| until.is_none_or(|u| n.date <= u))
        .flat_map(|n| {
            n.fines
                .iter()
                .enumerate()
                .filter(|(_, f)| f.player == player && !f.paid)
                .map(move |(i, f)| OpenItem {
                    fine: Some((n.date, i)),
                    label: format!("{} am {}", fine_label(&f.kind), date_de(n.date)),
                    cents: f.amount_cents,
                })
        })
        .collect()
}

/// The Jahresbeitrag of `player` as an open item on `on`: when he has none yet and it can be paid
/// that day (league.md §5: the amount of that day's month, until `last_join_month`).
pub fn fee_due(season: &Season, player: &str, on: NaiveDate) -> Option<OpenItem> {
    let p = season.player(player)?;
    if p.fee_paid_on.is_some() {
        return None;
    }
    let cents = fee_cents(&season.rules, season.year, on).ok()?;
    Some(OpenItem {
        fine: None,
        label: format!(
            "Jahresbeitrag für die 1. Liga (bei Zahlung im {})",
            month_name(on.month())
        ),
        cents,
    })
}

/// The open items of `player` on `on`, oldest first: his open fines of the nights up to `on`,
/// then the Jahresbeitrag when it is due ([`fee_due`]) — it is optional, so it comes last.
pub fn open_items(season: &Season, player: &str, on: NaiveDate) -> Vec<OpenItem> {
    let mut items = open_fines(season, player, Some(on));
    items.extend(fee_due(season, player, on));
    items
}

/// The items that a payment of `cents` by `player` on `on` settles: the oldest open items
/// ([`open_items`]) whose amounts add up to exactly `cents` (an item is paid whole). Refused
/// (German): not a player of the season, not a positive amount, more than is open, or an amount
/// that ends inside an item (the message names the amounts that settle whole items).
pub fn allocate(
    season: &Season,
    player: &str,
    cents: i64,
    on: NaiveDate,
) -> Result<Vec<OpenItem>, EntryError> {
    let at = Location::default().player(player).field("betrag");
    if season.player(player).is_none() {
        return Err(EntryError::new(
            Location::default(),
            format!("{player} spielt nicht in der Saison {}", season.year),
        ));
    }
    if cents <= 0 {
        return Err(EntryError::new(at, "Der Betrag muss größer als 0 sein."));
    }
    let items = open_items(season, player, on);
    let total: i64 = items.iter().map(|i| i.cents).sum();
    if items.is_empty() {
        return Err(EntryError::new(
            at,
            format!("{player} hat am {} nichts offen.", date_de(on)),
        ));
    }
    if cents > total {
        return Err(EntryError::new(
            at,
            format!(
                "{} ist mehr als offen: {player} hat am {} {} offen.",
                format_cents(cents),
                date_de(on),
                format_cents(total)
            ),
        ));
    }
    let mut sum = 0;
    let mut settled = Vec::new();
    let mut whole = Vec::new();
    for item in items {
        if sum == cents {
            break;
        }
        sum += item.cents;
        whole.push(sum);
        settled.push(item);
        if sum > cents {
            let amounts: Vec<String> = whole.iter().map(|c| format_cents(*c)).collect();
            return Err(EntryError::new(
                at,
                format!(
                    "{} deckt die offenen Posten von {player} (älteste zuerst) nicht ganz: \
                     ganze Posten ergeben {}. Der Rest bleibt offen oder wird zurückgegeben.",
                    format_cents(cents),
                    amounts.join(", ")
                ),
            ));
        }
    }
    Ok(settled)
}

/// One paid item of a player: a fine or the Jahresbeitrag, with its payment day.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PaidItem {
    /// German label: "Jahresbeitrag", "Zuspätkommer am 09.01.2026".
    pub label: String,
    /// Its amount in cents.
    pub cents: i64,
    /// The day it was paid.
    pub paid_on: NaiveDate,
    /// Paid out of his share at the Jahresabschluss.
    pub netted: bool,
}

/// A player's money in a season as his money card shows it: what he owes (each open fine, the
/// Jahresbeitrag when due on `today`) and what he paid, with the sums.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Account {
    /// His open items, oldest first (all his open fines, then the Jahresbeitrag when due).
    pub open: Vec<OpenItem>,
    /// Σ open, cents.
    pub open_cents: i64,
    /// What he paid, by payment day.
    pub paid: Vec<PaidItem>,
    /// Σ paid, cents.
    pub paid_cents: i64,
}

/// The account of `player` on `today` ([`Account`]); `None` when he is not a player of the season.
pub fn account(season: &Season, player: &str, today: NaiveDate) -> Option<Account> {
    let p = season.player(player)?;
    let mut open = open_fines(season, player, None);
    open.extend(fee_due(season, player, today));
    let mut paid: Vec<PaidItem> = p
        .fee_paid_on
        .map(|d| PaidItem {
            label: "Jahresbeitrag".to_string(),
            cents: p.fee_cents,
            paid_on: d,
            netted: false,
        })
        .into_iter()
        .collect();
    for n in &season.nights {
        for f in n.fines.iter().filter(|f| f.player == player) {
            if let Some(d) = f.paid_on {
                paid.push(PaidItem {
                    label: format!("{} am {}", fine_label(&f.kind), date_de(n.date)),
                    cents: f.amount_cents,
                    paid_on: d,
                    netted: f.netted,
                });
            }
        }
    }
    paid.sort_by_key(|i| i.paid_on);
    Some(Account {
        open_cents: open.iter().map(|i| i.cents).sum(),
        paid_cents: paid.iter().map(|i| i.cents).sum(),
        open,
        paid,
    })
}

// ---------------------------------------------------------------------------------------------
// Netting the Jahresabschluss

/// One payee of the Jahresabschluss with his fines netted against his share (league.md §8): the
/// club pays out his share less the fines it keeps.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NetLine {
    /// The payee.
    pub player: String,
    /// Σ of his places and Lucky Looser shares, cents.
    pub share_cents: i64,
    /// His fines netted already (booked as paid out of his share), cents.
    pub netted_cents: i64,
    /// His open fines that a netting on the day asked for would pay out of his share: (night,
    /// position, cents), oldest first, as far as the share covers them.
    pub to_net: Vec<(NaiveDate, usize, i64)>,
    /// Σ `to_net`, cents.
    pub to_net_cents: i64,
    /// His open fines the share does not cover (they stay open), cents.
    pub left_open_cents: i64,
    /// Paid out in cash: share − netted − to_net, cents.
    pub payout_cents: i64,
}

/// The payees of `p` (places best first, then the Lucky Looser) with their fines netted against
/// their shares on `on` ([`NetLine`]); a player with a place and the Lucky Looser share is one
/// line. A player with netted fines and no share comes last with a share of 0 (a netting that no
/// longer fits, [`NetLine::fits`]).
pub fn netting(season: &Season, p: &Payouts, on: NaiveDate) -> Vec<NetLine> {
    let mut shares: Vec<(String, i64)> = Vec::new();
    let pairs = p
        .places
        .iter()
        .flat_map(|x| x.players.iter().zip(&x.cents))
        .chain(p.lucky_looser.players.iter().zip(&p.lucky_looser.cents));
    for (name, &cents) in pairs {
        match shares.iter_mut().find(|(n, _)| n == name) {
            Some((_, c)) => *c += cents,
            None => shares.push((name.clone(), cents)),
        }
    }
    // A netting stored before it was the season's last act may name a player who has no share
    // any more (issue 31.1): his line shows the netted fine that no share paid (share 0, paid
    // out less than nothing), so that the netting's sums still add up to the season's.
    for f in season.nights.iter().flat_map(|n| &n.fines) {
        if f.netted && !shares.iter().any(|(n, _)| *n == f.player) {
            shares.push((f.player.clone(), 0));
        }
    }
    shares
        .into_iter()
        .map(|(player, share_cents)| {
            let netted_cents: i64 = season
                .nights
                .iter()
                .flat_map(|n| &n.fines)
                .filter(|f| f.player == player && f.netted)
                .map(|f| f.amount_cents)
                .sum();
            let mut room = share_cents - netted_cents;
            let mut to_net = Vec::new();
            let mut left_open_cents = 0;
            for item in open_fines(season, &player, Some(on)) {
                let Some((date, index)) = item.fine else {
                    continue;
                };
                if left_open_cents == 0 && item.cents <= room {
                    room -= item.cents;
                    to_net.push((date, index, item.cents));
                } else {
                    left_open_cents += item.cents;
                }
            }
            let to_net_cents: i64 = to_net.iter().map(|x| x.2).sum();
            NetLine {
                payout_cents: share_cents - netted_cents - to_net_cents,
                player,
                share_cents,
                netted_cents,
                to_net,
                to_net_cents,
                left_open_cents,
            }
        })
        .collect()
}

impl NetLine {
    /// True while his share covers the fines netted from it; false for a netting stored before
    /// it was the season's last act whose share shrank or went since (issue 31.1).
    pub fn fits(&self) -> bool {
        self.netted_cents <= self.share_cents
    }
}

/// What of `season` is still to be played: its nights not closed and its nights planned ahead
/// (league.md §11: the netting waits for them).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Ahead {
    /// Its Spielabende not closed (started, or entered ahead), by date; a night kept as the
    /// totals of a spreadsheet is history, never open (it was never played at the bar here).
    pub open: Vec<NaiveDate>,
    /// Its planned nights not started yet, by date.
    pub planned: Vec<NaiveDate>,
}

/// How many nights a sentence of [`Ahead`] names before "und 3 weitere".
const NAMED: usize = 3;

impl Ahead {
    /// The nights of `season` not closed, and `planned` (the days of its planned nights not
    /// started yet, as [`crate::league::plan::planned::Planning::ahead_in`] lists them).
    pub fn of(season: &Season, planned: &[NaiveDate]) -> Ahead {
        let mut planned = planned.to_vec();
        planned.sort();
        planned.dedup();
        Ahead {
            open: season
                .nights
                .iter()
                .filter(|n| !n.closed && n.totals.is_empty())
                .map(|n| n.date)
                .collect(),
            planned,
        }
    }

    /// True when nothing is open or planned.
    pub fn is_empty(&self) -> bool {
        self.open.is_empty() && self.planned.is_empty()
    }

    /// German, `None` when nothing is ahead: "Noch offen: Freitag, 11.12.2026 (nicht
    /// abgeschlossen); noch geplant: Freitag, 18.12.2026" (at most three nights each, then "und 2
    /// weitere").
    pub fn sentence(&self) -> Option<String> {
        let list = |days: &[NaiveDate]| {
            let mut named: Vec<String> = days
                .iter()
                .take(NAMED)
                .map(|d| format!("{}, {}", weekday_de(d.weekday()), date_de(*d)))
                .collect();
            if days.len() > NAMED {
                let more = days.len() - NAMED;
                named.push(format!("und {more} weitere"));
            }
            named.join(", ").replace(", und ", " und ")
        };
        match (self.open.is_empty(), self.planned.is_empty()) {
            (true, true) => None,
            (false, true) => Some(format!(
                "Noch offen: {} (nicht abgeschlossen)",
                list(&self.open)
            )),
            (true, false) => Some(format!("Noch geplant: {}", list(&self.planned))),
            (false, false) => Some(format!(
                "Noch offen: {} (nicht abgeschlossen); noch geplant: {}",
                list(&self.open),
                list(&self.planned)
            )),
        }
    }
}

/// Refuses the netting of `season` while a night of it is open or planned (`planned`: the days of
/// its planned nights not started yet), naming them (league.md §11: "Noch geplant: Freitag,
/// 11.12.2026 – die Verrechnung erst nach dem letzten Abend.").
pub fn last_act(season: &Season, planned: &[NaiveDate]) -> Result<(), EntryError> {
    match Ahead::of(season, planned).sentence() {
        None => Ok(()),
        Some(ahead) => Err(EntryError::new(
            Location::default(),
            format!("{ahead} – die Verrechnung erst nach dem letzten Abend."),
        )),
    }
}

/// The day of `season`'s netting (the latest payment day of a netted fine: a netted fine is
/// always paid, the season's check holds it), `None` when none is booked.
pub fn netted_on(season: &Season) -> Option<NaiveDate> {
    season
        .nights
        .iter()
        .flat_map(|n| &n.fines)
        .filter(|f| f.netted)
        .filter_map(|f| f.paid_on)
        .max()
}

/// The refusal of a change that moves places or the pot of `season` while its netting is booked
/// (league.md §11: the netting is undone first), `None` without a netting.
pub fn netting_booked(season: &Season) -> Option<EntryError> {
    let on = netted_on(season)?;
    Some(EntryError::new(
        Location::default(),
        format!(
            "Der Jahresabschluss {} ist am {} verrechnet: ein neuer Abend, eine Korrektur, eine \
             Strafe, eine Zahlung oder ein Jahresbeitrag verschiebt Plätze oder Topf. Dafür \
             erst auf der Seite Jahresabschluss „Verrechnung aufheben“ (mit Grund), dann ändern \
             und neu verrechnen.",
            season.year,
            date_de(on)
        ),
    ))
}

/// `season` as the netting on `on` with carry-in `carry_in_cents` would leave it ([`netting_plan`]'s
/// fines paid out of the shares), `None` when there is nothing to net: the Jahresabschluss
/// page's preview, also while nights are still ahead (the netting itself waits for them,
/// [`last_act`]).
pub fn netting_preview(season: &Season, carry_in_cents: i64, on: NaiveDate) -> Option<Season> {
    let plan = netting_plan(season, carry_in_cents, on);
    (!plan.is_empty()).then(|| with_netted(season, &plan, on))
}

/// `season` with the fines `fines` (night, position) paid on `on` out of a share (netted).
fn with_netted(season: &Season, fines: &[(NaiveDate, usize)], on: NaiveDate) -> Season {
    let mut s = season.clone();
    for n in &mut s.nights {
        for (i, f) in n.fines.iter_mut().enumerate() {
            if fines.contains(&(n.date, i)) {
                f.paid = true;
                f.paid_on = Some(on);
                f.paid_on_override = Some(on);
                f.netted = true;
            }
        }
    }
    s
}

/// How final the Jahresabschluss of `season` is on the club's `today` (issue 21.7).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Closing {
    /// No Spielabend yet.
    NoNight,
    /// Figures as of the last night so far; nights may follow, fines may still be netted.
    Provisional {
        /// The last night so far.
        last: NaiveDate,
    },
    /// The last night is played and the year closed: the figures stay.
    Final {
        /// The season's last night.
        last: NaiveDate,
    },
}

/// The [`Closing`] of `season` on `today` with carry-in `carry_in_cents` (league.md §8, §11), as
/// of its last night with results on or before `today`: final once the netting is booked after
/// it (a netted fine paid on or after it, and no payee's open fine left to net: the Kassenwart
/// books it when the last night is played), or once the season's year is over — and only while
/// no night of it is open or planned (`planned`: the days of its planned nights not started
/// yet) and a booked netting still fits every share; provisional before.
pub fn closing(
    season: &Season,
    carry_in_cents: i64,
    today: NaiveDate,
    planned: &[NaiveDate],
) -> Closing {
    // The last night with results on or before today (issue 22.3: a night entered ahead is no
    // „Stand“).
    let Some(last) = season.default_as_of(Some(today)) else {
        return Closing::NoNight;
    };
    let netted_after_last = season
        .nights
        .iter()
        .flat_map(|n| &n.fines)
        .any(|f| f.netted && f.paid_on.is_some_and(|d| d >= last));
    let on = today.max(last);
    let nothing_left = netting_plan(season, carry_in_cents, on).is_empty();
    let ahead = !Ahead::of(season, planned).is_empty();
    let fits = netting(season, &payouts(season, carry_in_cents), on)
        .iter()
        .all(NetLine::fits);
    if ahead || !fits {
        Closing::Provisional { last }
    } else if today.year() > season.year || (netted_after_last && nothing_left) {
        Closing::Final { last }
    } else {
        Closing::Provisional { last }
    }
}

/// The fines (night, position) that the netting of the Jahresabschluss on `on` pays out of the
/// payees' shares, with the season's carry-in `carry_in_cents` (league.md §8): each payee's open
/// fines, oldest first, as far as his share covers them. The netted fines count into the pot like
/// any paid fine, so the shares are those of the season after the netting; the plan is checked
/// against them (a payee whose share would not cover his fines nets one fine less), so nobody is
/// paid out less than nothing.
pub fn netting_plan(
    season: &Season,
    carry_in_cents: i64,
    on: NaiveDate,
) -> Vec<(NaiveDate, usize)> {
    let p = payouts(season, carry_in_cents);
    let mut plan: Vec<(String, Vec<(NaiveDate, usize)>)> = netting(season, &p, on)
        .into_iter()
        .map(|l| (l.player, l.to_net.iter().map(|x| (x.0, x.1)).collect()))
        .collect();
    loop {
        let all: Vec<(NaiveDate, usize)> = plan.iter().flat_map(|(_, f)| f.clone()).collect();
        let after = with_netted(season, &all, on);
        let p2 = payouts(&after, carry_in_cents);
        let short: Vec<String> = netting(&after, &p2, on)
            .into_iter()
            .filter(|l| l.payout_cents < 0)
            .map(|l| l.player)
            .collect();
        let mut fewer = false;
        for (player, fines) in plan.iter_mut() {
            if short.contains(player) {
                fewer |= fines.pop().is_some();
            }
        }
        // Short only by fines netted earlier (the shares shrank since): nothing more to take back.
        if !fewer {
            return all;
        }
    }
}

#[cfg(test)]
mod tests;
