//! The change counter of each season (`season_versions`, bumped by triggers on every write to the
//! season's data): what the league's in-memory snapshot (`service::snapshot`) compares against.

use sqlx::SqliteConnection;

use super::DbError;

/// The change counter of season `year`; `None` when the season does not exist (never had a row).
pub async fn of_season(conn: &mut SqliteConnection, year: i32) -> Result<Option<i64>, DbError> {
    let row: Option<(i64,)> = sqlx::query_as(
        "select v.version from season_versions v join seasons s on s.year = v.year
         where v.year = ?",
    )
    .bind(year)
    .fetch_optional(conn)
    .await?;
    Ok(row.map(|(v,)| v))
}

/// Every existing season as `(year, change counter)`, newest first.
pub async fn all(conn: &mut SqliteConnection) -> Result<Vec<(i32, i64)>, DbError> {
    let rows: Vec<(i64, i64)> = sqlx::query_as(
        "select s.year, coalesce(v.version, 0) from seasons s
         left join season_versions v on v.year = s.year order by s.year desc",
    )
    .fetch_all(conn)
    .await?;
    Ok(rows.into_iter().map(|(y, v)| (y as i32, v)).collect())
}
