//! Operations that join the league model with storage, shared by the command line, the JSON API
//! and the pages: import a season file (all or nothing), load a checked season, its standings and
//! payouts.

pub mod money;

use chrono::NaiveDate;

use crate::db::{self, Db, DbError};
use crate::league::file::SeasonFile;
use crate::league::{self, EntryError, Payouts, Season, Standings};

/// Why an operation was refused or failed.
#[derive(Debug, thiserror::Error)]
pub enum ServiceError {
    /// The input breaks a league rule; names where and why.
    #[error("{0}")]
    Entry(#[from] EntryError),
    /// The operation is not allowed as asked (German reason).
    #[error("{0}")]
    Refused(String),
    /// No such season.
    #[error("Saison {0} gibt es nicht")]
    NoSeason(i32),
    /// Storage failed.
    #[error(transparent)]
    Db(#[from] DbError),
}

impl From<sqlx::Error> for ServiceError {
    fn from(e: sqlx::Error) -> Self {
        ServiceError::Db(DbError::Sqlx(e))
    }
}

/// Imports `file` in one transaction: checks it completely (`Season::from_file`), refuses a season
/// that already has nights unless `replace`, then replaces the season's data. Nothing is written on
/// any error. Returns the checked season. The audit log names the user `cli`; see [`import_as`].
pub async fn import(db: &Db, file: &SeasonFile, replace: bool) -> Result<Season, ServiceError> {
    import_as(db, file, replace, "cli").await
}

/// [`import`] by `user` (login name): the same transaction also writes an audit row with the
/// season's counts before and after.
pub async fn import_as(
    db: &Db,
    file: &SeasonFile,
    replace: bool,
    user: &str,
) -> Result<Season, ServiceError> {
    let season = Season::from_file(file)?;
    let mut tx = db.begin_write().await?;
    // One summary row instead of one per result.
    db::audit::set_actor(&mut tx, user, true).await?;
    let nights = db::season::night_count(&mut tx, season.year).await?;
    if nights > 0 && !replace {
        return Err(ServiceError::Refused(format!(
            "Saison {} hat schon {nights} Spielabende; zum Ersetzen --replace angeben",
            season.year
        )));
    }
    let canonical = season.to_file();
    let rules = season.rules.clone();
    let year = season.year;
    db::season::replace_from_file(&mut tx, &canonical, |d| {
        league::fee_cents(&rules, year, d).ok()
    })
    .await?;
    db::audit::record(
        &mut tx,
        user,
        &format!("Saison {year} importiert"),
        Some(&serde_json::json!({ "season": year, "nights": nights })),
        Some(&serde_json::json!({
            "season": year,
            "players": season.players.len(),
            "nights": season.nights.len(),
        })),
    )
    .await?;
    db::audit::clear_actor(&mut tx).await?;
    tx.commit().await?;
    Ok(season)
}

/// Season `year` as stored, checked: `(season, carry_in_cents)`. A stored season that no longer
/// passes the checks is reported as an entry error. The carry-in here is the stored column, which
/// payouts do not use: their carry-in is chained from the previous season ([`money::chained`]).
pub async fn load_season(
    pool: &sqlx::SqlitePool,
    year: i32,
) -> Result<(Season, i64), ServiceError> {
    let mut conn = pool.acquire().await?;
    let row = db::season::get(&mut conn, year)
        .await?
        .ok_or(ServiceError::NoSeason(year))?;
    let file = db::season::load_file_conn(&mut conn, year)
        .await?
        .ok_or(ServiceError::NoSeason(year))?;
    Ok((Season::from_file(&file)?, row.carry_in_cents))
}

/// The season file of season `year` as stored (for export).
pub async fn export(pool: &sqlx::SqlitePool, year: i32) -> Result<SeasonFile, ServiceError> {
    let (season, _) = load_season(pool, year).await?;
    Ok(season.to_file())
}

/// The table of season `year` as of `as_of` (default: its last night), league.md §3–§4. Errors:
/// `Refused` for an `as_of` outside the season's year ([`league::check_as_of`]), `NoSeason`.
pub async fn standings(
    pool: &sqlx::SqlitePool,
    year: i32,
    as_of: Option<NaiveDate>,
) -> Result<Standings, ServiceError> {
    if let Some(d) = as_of {
        league::check_as_of(year, d).map_err(ServiceError::Refused)?;
    }
    let (season, _) = load_season(pool, year).await?;
    Ok(league::standings(&season, as_of))
}

/// The year-end payouts of season `year` (league.md §7–§8), with the carry-in chained from the
/// earlier seasons in the database ([`money::chained`]).
pub async fn payouts(pool: &sqlx::SqlitePool, year: i32) -> Result<Payouts, ServiceError> {
    Ok(money::chained(pool, year).await?.payouts)
}
