//! The edits of the money: fines booked and paid, payments against open items, the netting of
//! the Jahresabschluss (league.md §5, §6, §8).

use chrono::NaiveDate;

use super::corrections::check_reason;
use super::edit::{night_entry, refuse};
use crate::league::model::error::EntryError;
use crate::league::model::file::{FineEntry, SeasonFile};
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
    });
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
    Ok(())
}

/// [`super::Change::BookPayment`]: `cents` of `player` on `paid_on` settle his oldest open items.
pub(super) fn book_payment(
    season: &Season,
    file: &mut SeasonFile,
    player: &str,
    cents: i64,
    paid_on: NaiveDate,
) -> Result<(), EntryError> {
    let name = normalize_name(player);
    let items = items::allocate(season, &name, cents, paid_on)?;
    for item in items {
        match item.fine {
            Some((date, index)) => {
                if let Some(f) = night_entry(file, date)?.fines.get_mut(index) {
                    f.paid = true;
                    f.paid_on = Some(paid_on);
                }
            }
            None => {
                if let Some(p) = file.players.iter_mut().find(|p| p.name == name) {
                    p.fee_paid_on = Some(paid_on);
                }
            }
        }
    }
    Ok(())
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
