//! The SQL of one league change ([`Change`]): what `service`'s write pipeline runs after
//! `Season::apply` accepted it. Each function gets the season before and after the change (both
//! checked) and the season's storage ids, which it keeps up to date (a new player, night or fine).
//! Row-level audit entries come from the database's triggers (author from `audit_actor`).

use sqlx::SqliteConnection;

use super::season::Ids;
use super::DbError;
use crate::league::file::SeatEntry;
use crate::league::{names::normalize_name, Change, Season};

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
            super::player::set_fee(conn, year, player(ids, &name)?, fee).await?;
        }
        Change::SetFineKind { .. } => {
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
        }
        Change::SetFinePaid { date, index, paid } => {
            let id = ids
                .fines
                .get(date)
                .and_then(|f| f.get(*index))
                .copied()
                .ok_or_else(|| missing("Strafe"))?;
            super::money::set_fine_paid(conn, id, *paid).await?;
        }
        Change::CloseNight { date } => {
            let night = *ids.nights.get(date).ok_or_else(|| missing("Spielabend"))?;
            super::closing::close(conn, night).await?;
        }
        Change::ReopenNight { date } => {
            let night = *ids.nights.get(date).ok_or_else(|| missing("Spielabend"))?;
            super::closing::reopen(conn, night).await?;
        }
    }
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
