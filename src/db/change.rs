//! The SQL of one league change ([`Change`]): what `service`'s write pipeline runs after
//! `Season::apply` accepted it. Each function gets the season before and after the change (both
//! checked) and the season's storage ids, which it keeps up to date (a new player, night or fine).
//! Row-level audit entries come from the database's triggers (author from `audit_actor`).

use sqlx::SqliteConnection;

use super::season::Ids;
use super::DbError;
use crate::league::model::file::SeatEntry;
use crate::league::{model::names::normalize_name, Change, Season};

fn missing(what: &str) -> DbError {
    DbError::Corrupt(format!("{what} fehlt in der Datenbank"))
}

/// `players.id` of `name`.
fn player(ids: &Ids, name: &str) -> Result<i64, DbError> {
    ids.players
        .get(name)
        .copied()
        .ok_or_else(|| missing(&format!("Spieler {name}")))
}

/// Stores `change` of season `year` (`before` → `after`, as [`Season::apply`] made it) through
/// `conn`, inside the write transaction. `Change::RenamePlayer` renames the league's player
/// (every season at once); the caller runs it once.
pub async fn store(
    conn: &mut SqliteConnection,
    year: i32,
    change: &Change,
    before: &Season,
    after: &Season,
    ids: &mut Ids,
) -> Result<(), DbError> {
    match change {
        Change::AddPlayer { .. } => {
            let p = after.players.last().ok_or_else(|| missing("Spieler"))?;
            let id = super::player::add_to_season(conn, year, &p.name).await?;
            ids.players.insert(p.name.clone(), id);
        }
        Change::RenamePlayer { from, to } => {
            let id = player(ids, from)?;
            let to = normalize_name(to);
            super::player::rename(conn, id, &to).await?;
            ids.players.remove(from);
            ids.players.insert(to, id);
        }
        Change::SetFee { player: name, .. } => {
            let name = normalize_name(name);
            let p = after.player(&name).ok_or_else(|| missing("Spieler"))?;
            let fee = p.fee_paid_on.map(|d| (d, p.fee_cents));
            super::player::set_fee(&mut *conn, year, player(ids, &name)?, fee).await?;
            let id = player(ids, &name)?;
            super::money::set_fee_from_account(conn, year, id, p.fee_from_account).await?;
        }
        Change::SetFineKind { .. } | Change::SetRules { .. } => {
            super::money::set_rules(conn, year, &after.rules.overrides(year)).await?;
        }
        Change::AddNight { date } => {
            let id = super::night::create(conn, year, *date).await?;
            ids.nights.insert(*date, id);
            ids.fines.insert(*date, Vec::new());
        }
        Change::SetDraw { date, .. } => {
            let night = *ids.nights.get(date).ok_or_else(|| missing("Spielabend"))?;
            let draw = &after
                .night(*date)
                .ok_or_else(|| missing("Spielabend"))?
                .draw;
            super::night::set_participants(conn, night, &seats(ids, draw, &[])?).await?;
        }
        Change::SeatPlayer { date, .. } => {
            let night_id = *ids.nights.get(date).ok_or_else(|| missing("Spielabend"))?;
            let draw = &after
                .night(*date)
                .ok_or_else(|| missing("Spielabend"))?
                .draw;
            let old = before.night(*date).map_or(&[][..], |n| &n.draw[..]);
            super::night::add_seats(conn, night_id, &seats(ids, draw, old)?).await?;
        }
        Change::PutRound {
            date,
            table,
            number,
            ..
        } => {
            let night_id = *ids.nights.get(date).ok_or_else(|| missing("Spielabend"))?;
            let night = after.night(*date).ok_or_else(|| missing("Spielabend"))?;
            let round = night
                .tables
                .iter()
                .find(|t| t.number == *table)
                .and_then(|t| t.rounds.iter().find(|r| r.number == *number))
                .ok_or_else(|| missing("Runde"))?;
            let mut rows = Vec::with_capacity(round.results.len());
            for r in &round.results {
                rows.push((player(ids, &r.player)?, r.clone()));
            }
            // Newly seated players (the JSON API seats newcomers) join the draw first.
            let old = before.night(*date).map_or(&[][..], |n| &n.draw[..]);
            let new_seats = seats(ids, &night.draw, old)?;
            super::night::add_seats(conn, night_id, &new_seats).await?;
            super::night::put_round(conn, night_id, *table, *number, &rows).await?;
            if let Some(b) = &round.schockbesteck {
                super::besteck::put_confirmed(conn, night_id, *table, *number, Some(b.record()))
                    .await?;
            }
        }
        Change::BookFine { date, .. } => {
            let night_id = *ids.nights.get(date).ok_or_else(|| missing("Spielabend"))?;
            let fine = after
                .night(*date)
                .and_then(|n| n.fines.last())
                .ok_or_else(|| missing("Strafe"))?;
            let id = super::money::book_fine(
                conn,
                night_id,
                player(ids, &fine.player)?,
                &fine.kind,
                fine.amount_cents,
                fine.paid,
            )
            .await?;
            ids.fines.entry(*date).or_default().push(id);
            // Paid out of his Guthaben the moment it is booked (issue 34.1).
            if fine.from_account {
                super::money::set_fine_payment(&mut *conn, id, fine).await?;
            }
            payments(conn, year, before, after, ids).await?;
        }
        Change::SetFinePaid { .. } => {
            payments(conn, year, before, after, ids).await?;
        }
        Change::RemoveRound {
            date,
            table,
            number,
            ..
        } => {
            let night = *ids.nights.get(date).ok_or_else(|| missing("Spielabend"))?;
            // The results first (one audit row each, naming the round), then the round.
            super::night::delete_round(conn, night, *table, *number).await?;
        }
        Change::MoveRound {
            date,
            table,
            number,
            to,
        } => {
            let night_id = *ids.nights.get(date).ok_or_else(|| missing("Spielabend"))?;
            let old = before.night(*date).map_or(&[][..], |n| &n.draw[..]);
            let draw = &after
                .night(*date)
                .ok_or_else(|| missing("Spielabend"))?
                .draw;
            super::night::move_round(conn, night_id, *table, *number, *to).await?;
            if draw != old {
                super::night::set_participants(conn, night_id, &seats(ids, draw, &[])?).await?;
            }
        }
        Change::RemoveFine { date, index } => {
            let fines = ids.fines.get_mut(date).ok_or_else(|| missing("Strafe"))?;
            if *index >= fines.len() {
                return Err(missing("Strafe"));
            }
            let id = fines.remove(*index);
            super::money::delete_fine(conn, id).await?;
        }
        Change::RemoveNight { date } => {
            let night = ids
                .nights
                .remove(date)
                .ok_or_else(|| missing("Spielabend"))?;
            ids.fines.remove(date);
            super::night::delete(conn, night).await?;
        }
        Change::CloseNight { date } => {
            let night = *ids.nights.get(date).ok_or_else(|| missing("Spielabend"))?;
            super::closing::close(&mut *conn, night).await?;
            // Its scorer links end with it, in the same transaction; reopening revives none.
            super::scorer::revoke_night(conn, night).await?;
        }
        Change::ReopenNight { date } => {
            let night = *ids.nights.get(date).ok_or_else(|| missing("Spielabend"))?;
            super::closing::reopen(conn, night).await?;
        }
        Change::PayFine { .. }
        | Change::BookPayment { .. }
        | Change::SettleCredit { .. }
        | Change::CarryCreditIn { .. }
        | Change::NetPayouts { .. }
        | Change::UndoNetting { .. } => {
            payments(conn, year, before, after, ids).await?;
        }
    }
    Ok(())
}

/// Stores what a payment changed from `before` to `after`: every fine whose paid state, payment
/// day, netting or payment out of the account differs, every Jahresbeitrag whose payment day or
/// payment out of the account differs, and the payments and Guthaben bookings added (issue 34.1).
async fn payments(
    conn: &mut SqliteConnection,
    year: i32,
    before: &Season,
    after: &Season,
    ids: &Ids,
) -> Result<(), DbError> {
    for (old, new) in before.nights.iter().zip(&after.nights) {
        let fine_ids = ids.fines.get(&new.date);
        for (i, (a, b)) in old.fines.iter().zip(&new.fines).enumerate() {
            let same = (a.paid, a.paid_on_override, a.netted, a.from_account)
                == (b.paid, b.paid_on_override, b.netted, b.from_account);
            if same {
                continue;
            }
            let id = fine_ids
                .and_then(|f| f.get(i))
                .copied()
                .ok_or_else(|| missing("Strafe"))?;
            super::money::set_fine_payment(&mut *conn, id, b).await?;
        }
    }
    for (a, b) in before.players.iter().zip(&after.players) {
        if a.fee_paid_on != b.fee_paid_on {
            let fee = b.fee_paid_on.map(|d| (d, b.fee_cents));
            super::player::set_fee(&mut *conn, year, player(ids, &b.name)?, fee).await?;
        }
        if a.fee_from_account != b.fee_from_account {
            let id = player(ids, &b.name)?;
            super::money::set_fee_from_account(&mut *conn, year, id, b.fee_from_account).await?;
        }
    }
    let stored = (before.payments.len(), before.credit.len());
    super::money::add_account_entries(conn, after, stored, &ids.players).await?;
    Ok(())
}

/// The seats of `draw` that are not in `old`, as (player id, table, seat within the table); the
/// seat counts every seat of the table in `draw` before it.
fn seats(
    ids: &Ids,
    draw: &[SeatEntry],
    old: &[SeatEntry],
) -> Result<Vec<(i64, u32, u32)>, DbError> {
    let mut out = Vec::new();
    for (k, s) in draw.iter().enumerate() {
        if old.iter().any(|o| o.player == s.player) {
            continue;
        }
        let seat = draw[..k].iter().filter(|x| x.table == s.table).count() as u32;
        out.push((player(ids, &s.player)?, s.table, seat));
    }
    Ok(out)
}
