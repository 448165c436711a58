//! Netting the Jahresabschluss (league.md §8, §11): the payees' open fines paid out of their
//! shares, the netting as the season's last act, and how final the Jahresabschluss is.

use chrono::{Datelike, NaiveDate};

use super::items::open_fines;
use super::payouts::{payouts, Payouts};
use crate::league::model::error::{EntryError, Location};
use crate::league::model::format::{date_de, weekday_de};
use crate::league::model::season::Season;

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
    /// started yet, as the service reads them from the planning, `Planning::ahead_in`).
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
