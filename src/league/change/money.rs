//! The edits of the money: fines booked and paid, payments against open items, the netting of
//! the Jahresabschluss (league.md §5, §6, §8).

use chrono::NaiveDate;

use super::corrections::check_reason;
use super::edit::{night_entry, refuse};
use crate::league::model::error::EntryError;
use crate::league::model::file::{CreditEntry, CreditKind, FineEntry, PaymentEntry, SeasonFile};
use crate::league::model::names::normalize_name;
use crate::league::model::season::Season;
use crate::league::money::{items, kasse, netting};

/// [`super::Change::BookFine`]: a fine of `kind` for `player` at the night on `date`; a second
/// one of that kind only with `again`.
pub(super) fn book_fine(
    season: &Season,
    file: &mut SeasonFile,
    date: NaiveDate,
    player: &str,
    kind: &str,
    paid: bool,
    again: bool,
) -> Result<(), EntryError> {
    let name = normalize_name(player);
    let kind = kind.trim();
    let booked = season
        .night(date)
        .is_some_and(|n| n.fines.iter().any(|f| f.player == name && f.kind == kind));
    if booked && !again {
        return Err(refuse(format!(
            "Abend {}: {name} hat an diesem Abend schon eine Strafe „{}“. Noch eine \
             buchen? Dann „Ja, noch einmal buchen“ ankreuzen.",
            date.format("%d.%m.%Y"),
            kasse::fine_label(kind)
        )));
    }
    night_entry(file, date)?.fines.push(FineEntry {
        player: player.trim().to_string(),
        kind: kind.trim().to_string(),
        paid,
        amount_cents: None,
        paid_on: None,
        netted: false,
        from_account: false,
    });
    if !paid {
        settle_new_item(season, file, &name, date)?;
    }
    Ok(())
}

/// [`super::Change::SetFinePaid`]: fine `index` of the night on `date` paid or open.
pub(super) fn set_fine_paid(
    file: &mut SeasonFile,
    date: NaiveDate,
    index: usize,
    paid: bool,
) -> Result<(), EntryError> {
    let fine = night_entry(file, date)?
        .fines
        .get_mut(index)
        .ok_or_else(|| refuse("Diese Strafe gibt es nicht."))?;
    if !paid {
        fine.paid_on = None;
        fine.netted = false;
        fine.from_account = false;
    }
    fine.paid = paid;
    Ok(())
}

/// [`super::Change::PayFine`]: fine `index` of the night on `date` paid on `paid_on`, or open.
pub(super) fn pay_fine(
    file: &mut SeasonFile,
    date: NaiveDate,
    index: usize,
    paid_on: Option<NaiveDate>,
) -> Result<(), EntryError> {
    let fine = night_entry(file, date)?
        .fines
        .get_mut(index)
        .ok_or_else(|| refuse("Diese Strafe gibt es nicht."))?;
    fine.paid = paid_on.is_some();
    fine.paid_on = paid_on;
    fine.netted = false;
    fine.from_account = false;
    Ok(())
}

/// [`super::Change::BookPayment`]: `cents` of `player` on `paid_on` kept as a payment; with his
/// Guthaben they pay his oldest open items whole, the rest stays his Guthaben
/// ([`items::allocate`], issue 34.1).
pub(super) fn book_payment(
    season: &Season,
    file: &mut SeasonFile,
    player: &str,
    cents: i64,
    paid_on: NaiveDate,
) -> Result<(), EntryError> {
    let name = normalize_name(player);
    let done = items::allocate(season, &name, cents, paid_on)?;
    file.payments.push(PaymentEntry {
        player: name.clone(),
        date: paid_on,
        cents,
    });
    pay_from_account(file, &name, &done.items, paid_on)
}

/// Marks `paid` (items of `player`) paid on `on` out of his account (issue 34.1).
fn pay_from_account(
    file: &mut SeasonFile,
    player: &str,
    paid: &[items::OpenItem],
    on: NaiveDate,
) -> Result<(), EntryError> {
    for item in paid {
        match item.fine {
            Some((date, index)) => {
                if let Some(f) = night_entry(file, date)?.fines.get_mut(index) {
                    f.paid = true;
                    f.paid_on = Some(on);
                    f.from_account = true;
                }
            }
            None => {
                if let Some(p) = file.players.iter_mut().find(|p| p.name == player) {
                    p.fee_paid_on = Some(on);
                    p.fee_from_account = true;
                }
            }
        }
    }
    Ok(())
}

/// After a new open fine of `player` at the night on `date` in `file`: his Guthaben pays what it
/// covers whole ([`items::settle`]), booked on the later of the night and the day his money came
/// in (issue 34.1). Nothing without Guthaben.
fn settle_new_item(
    season: &Season,
    file: &mut SeasonFile,
    player: &str,
    date: NaiveDate,
) -> Result<(), EntryError> {
    if season.credit_cents(player) <= 0 {
        return Ok(());
    }
    let came_in = season
        .payments
        .iter()
        .filter(|p| p.player == player)
        .map(|p| p.date)
        .chain(
            season
                .credit
                .iter()
                .filter(|c| c.player == player && c.kind == CreditKind::CarriedIn)
                .map(|c| c.date),
        )
        .max();
    let on = came_in.map_or(date, |d| d.max(date));
    let with_fine = Season::checked(file)?;
    let done = items::settle(&with_fine, player, on);
    pay_from_account(file, player, &done.items, on)
}

/// [`super::Change::SettleCredit`]: the whole Guthaben of `player` paid back to him or carried
/// to his next season on `on` (issue 34.1). Refused without Guthaben.
pub(super) fn settle_credit(
    season: &Season,
    file: &mut SeasonFile,
    player: &str,
    on: NaiveDate,
    carried: bool,
) -> Result<(), EntryError> {
    let name = normalize_name(player);
    if season.player(&name).is_none() {
        return Err(super::edit::not_in_season(season, &name));
    }
    let cents = season.credit_cents(&name);
    if cents <= 0 {
        return Err(refuse(format!(
            "{name} hat in der Saison {} kein Guthaben.",
            season.year
        )));
    }
    file.credit.push(CreditEntry {
        player: name,
        kind: if carried {
            CreditKind::CarriedOut
        } else {
            CreditKind::PaidBack
        },
        date: on,
        cents,
    });
    Ok(())
}

/// [`super::Change::CarryCreditIn`]: `cents` of Guthaben of `player` brought from his previous
/// season on `on`; it pays his open items on `on` as a payment would (issue 34.1).
pub(super) fn carry_credit_in(
    season: &Season,
    file: &mut SeasonFile,
    player: &str,
    cents: i64,
    on: NaiveDate,
) -> Result<(), EntryError> {
    let name = normalize_name(player);
    let done = items::allocate(season, &name, cents, on)?;
    file.credit.push(CreditEntry {
        player: name.clone(),
        kind: CreditKind::CarriedIn,
        date: on,
        cents,
    });
    pay_from_account(file, &name, &done.items, on)
}

/// [`super::Change::NetPayouts`]: the payees' open fines paid out of their shares on `paid_on`.
pub(super) fn net_payouts(
    season: &Season,
    file: &mut SeasonFile,
    paid_on: NaiveDate,
    carry_in_cents: i64,
) -> Result<(), EntryError> {
    // The season's last act (league.md §11): not while a night is open. The planned nights are
    // the service's to check (the season does not know them).
    netting::last_act(season, &[])?;
    let plan = netting::netting_plan(season, carry_in_cents, paid_on);
    if plan.is_empty() {
        return Err(refuse(
            "Nichts zu verrechnen: keine offenen Strafen der Gewinner, die ihr Anteil deckt.",
        ));
    }
    for (date, index) in plan {
        if let Some(f) = night_entry(file, date)?.fines.get_mut(index) {
            f.paid = true;
            f.paid_on = Some(paid_on);
            f.netted = true;
        }
    }
    Ok(())
}

/// [`super::Change::UndoNetting`]: every netted fine open again, under the Korrektur `reason`.
pub(super) fn undo_netting(file: &mut SeasonFile, reason: &str) -> Result<(), EntryError> {
    let why = |w: String| refuse(format!("Verrechnung aufheben: {w}"));
    check_reason(reason).map_err(why)?;
    let mut undone = 0;
    for fine in file.nights.iter_mut().flat_map(|n| n.fines.iter_mut()) {
        if fine.netted {
            fine.paid = false;
            fine.paid_on = None;
            fine.netted = false;
            undone += 1;
        }
    }
    if undone == 0 {
        return Err(refuse(format!(
            "Verrechnung aufheben: in der Saison {} ist keine Verrechnung gebucht.",
            file.season
        )));
    }
    Ok(())
}

#[cfg(test)]
mod tests;
