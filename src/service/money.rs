//! The money operations (league.md §6, §8): payouts with the carry-in chained from the previous
//! seasons in the database, the editable Strafenkatalog, booking fines and marking them paid.
//! Every change is checked by running the whole season through `Season::from_file` first, and is
//! recorded in the audit log.

use std::collections::BTreeMap;

use chrono::NaiveDate;
use serde_json::json;
use sqlx::{SqliteConnection, SqlitePool};

use super::{load_season, ServiceError};
use crate::db::{self, money::BookedFine};
use crate::league::file::FineEntry;
use crate::league::kasse::chain;
use crate::league::{Payouts, Season};

/// A season with its payouts in the carry chain (league.md §8).
#[derive(Debug, Clone)]
pub struct Chained {
    /// The checked season.
    pub season: Season,
    /// Its payouts; `carry_in_cents` is the previous season's carry-out (0 for the first season).
    pub payouts: Payouts,
    /// The payouts of the previous season in the database, if any (its carry-out is our carry-in).
    pub previous: Option<Payouts>,
    /// The next season in the database, if any (it receives our carry-out).
    pub next_year: Option<i32>,
}

/// Season `year` with its payouts chained over every earlier season in the database: season N's
/// carry-in = payouts(N−1, carry_in(N−1)).carry_out, 0 for the first season ("previous" = the
/// nearest earlier year stored). Errors: no such season; a stored season that fails its checks.
pub async fn chained(pool: &SqlitePool, year: i32) -> Result<Chained, ServiceError> {
    let years = db::season::years(pool).await?;
    if !years.contains(&year) {
        return Err(ServiceError::NoSeason(year));
    }
    let mut seasons = Vec::new();
    for &y in years.iter().rev().filter(|&&y| y <= year) {
        seasons.push(load_season(pool, y).await?.0);
    }
    let mut all = chain(&seasons);
    let (Some(payouts), Some(season)) = (all.pop(), seasons.pop()) else {
        return Err(ServiceError::NoSeason(year));
    };
    Ok(Chained {
        season,
        payouts,
        previous: all.pop(),
        next_year: years.iter().copied().filter(|&y| y > year).min(),
    })
}

/// Sets kind `kind` of season `year`'s Strafenkatalog to `amount_cents` (adds it when new), or
/// removes it with `None` (refused while a fine of that kind is booked). Fines already booked keep
/// their amount. Checked like an import; `user` is recorded in the audit log. Run inside a write
/// transaction.
pub async fn set_fine_kind(
    conn: &mut SqliteConnection,
    year: i32,
    kind: &str,
    amount_cents: Option<i64>,
    user: &str,
) -> Result<(), ServiceError> {
    let kind = kind.trim();
    let mut file = db::season::load_file_conn(&mut *conn, year)
        .await?
        .ok_or(ServiceError::NoSeason(year))?;
    let before = Season::from_file(&file)?;
    let mut rules = before.rules.clone();
    match amount_cents {
        Some(cents) => {
            rules.fines.insert(kind.to_string(), cents);
        }
        None => {
            if rules.fines.remove(kind).is_none() {
                return Err(ServiceError::Refused(format!(
                    "Strafart \"{kind}\" steht nicht im Strafenkatalog"
                )));
            }
            let booked = before
                .nights
                .iter()
                .flat_map(|n| &n.fines)
                .filter(|f| f.kind == kind)
                .count();
            if booked > 0 {
                return Err(ServiceError::Refused(format!(
                    "Strafart \"{kind}\" ist {booked}-mal gebucht und kann nicht gelöscht werden"
                )));
            }
        }
    }
    rules
        .check()
        .map_err(|e| ServiceError::Refused(e.replace("rules.fines: ", "Strafenkatalog: ")))?;
    file.rules = rules.overrides(year);
    Season::from_file(&file)?;
    db::money::set_rules(&mut *conn, year, &file.rules).await?;
    db::audit::record(
        &mut *conn,
        user,
        &format!("Strafenkatalog {year}: {kind}"),
        Some(&json!(before.rules.fines)),
        Some(&json!(rules.fines)),
    )
    .await?;
    Ok(())
}

/// Books a fine of `kind` (amount from the season's current catalogue) for `player` at the night
/// of season `year` on `date`, paid or open; returns its id. Refused (German, naming night, player
/// and field) for an unknown night, player or kind — a season before 2012 has an empty catalogue.
pub async fn book_fine(
    conn: &mut SqliteConnection,
    year: i32,
    date: NaiveDate,
    player: &str,
    kind: &str,
    paid: bool,
    user: &str,
) -> Result<i64, ServiceError> {
    let mut file = db::season::load_file_conn(&mut *conn, year)
        .await?
        .ok_or(ServiceError::NoSeason(year))?;
    let night = db::night::by_date(&mut *conn, date)
        .await?
        .filter(|n| n.season == i64::from(year))
        .ok_or_else(|| {
            ServiceError::Refused(format!(
                "Am {} gibt es keinen Spielabend der Saison {year}",
                date.format("%d.%m.%Y")
            ))
        })?;
    let entry = FineEntry {
        player: player.trim().to_string(),
        kind: kind.trim().to_string(),
        paid,
        amount_cents: None,
    };
    if let Some(n) = file.nights.iter_mut().find(|n| n.date == date) {
        n.fines.push(entry.clone());
    }
    let season = Season::from_file(&file)?;
    let amount = season
        .rules
        .fines
        .get(&entry.kind)
        .copied()
        .ok_or_else(|| ServiceError::Refused(format!("unbekannte Strafart {}", entry.kind)))?;
    let (player_id, _) = db::player::by_name(&mut *conn, &entry.player)
        .await?
        .ok_or_else(|| ServiceError::Refused(format!("unbekannter Spieler {}", entry.player)))?;
    // The fines trigger writes the audit row (id, night, player, kind, amount, paid) naming `user`.
    db::audit::set_actor(&mut *conn, user, false).await?;
    let id =
        db::money::book_fine(&mut *conn, night.id, player_id, &entry.kind, amount, paid).await?;
    Ok(id)
}

/// Marks fine `id` paid or open; returns the fine as it was before, `None` when there is no such
/// fine. `user` is recorded in the audit log.
pub async fn set_fine_paid(
    conn: &mut SqliteConnection,
    id: i64,
    paid: bool,
    user: &str,
) -> Result<Option<BookedFine>, ServiceError> {
    let Some(fine) = db::money::fine(&mut *conn, id).await? else {
        return Ok(None);
    };
    if fine.paid != paid {
        // The fines trigger writes the audit row (paid before and after) naming `user`; a closed
        // night lets a change of `paid` alone through (migration 20261129180000).
        db::audit::set_actor(&mut *conn, user, false).await?;
        db::money::set_fine_paid(&mut *conn, id, paid).await?;
    }
    Ok(Some(fine))
}

/// The Strafenkatalog of season `year` as stored (kind → cents).
pub async fn catalogue(
    pool: &SqlitePool,
    year: i32,
) -> Result<BTreeMap<String, i64>, ServiceError> {
    Ok(load_season(pool, year).await?.0.rules.fines)
}
