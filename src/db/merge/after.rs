//! Rows of the kept player entered after a merge (issue 36.3, "Trennen" exact or refused): on a
//! night that was the merged-away player's (a round entered again under the kept name, a fine)
//! they are his and go back with the split; in a season only he played (a payment, a Guthaben
//! booking, a status) likewise; a payment or booking in a season both played cannot be told
//! apart and refuses the split, naming it.

use sqlx::SqliteConnection;

use super::{rename_besteck, Joined, Moved};
use crate::db::DbError;

/// The tables of money rows booked per season and player that a split must tell apart.
const MONEY: [&str; 2] = ["payments", "credit_bookings"];

/// Player `kept`'s payments and Guthaben bookings in the seasons of `joined` (both played), by
/// table: recorded with the merge ([`Moved::kept_rows`]).
pub async fn own_rows(
    conn: &mut SqliteConnection,
    kept: i64,
    joined: &[Joined],
) -> Result<Vec<(String, Vec<i64>)>, DbError> {
    let seasons: Vec<i32> = joined.iter().map(|j| j.season).collect();
    let mut out = Vec::new();
    for table in MONEY {
        let ids: Vec<i64> = sqlx::query_scalar(&format!(
            "select id from {table} where player_id = ? and season in (select value from
             json_each(?)) order by id"
        ))
        .bind(kept)
        .bind(json(&seasons))
        .fetch_all(&mut *conn)
        .await?;
        out.push((table.to_string(), ids));
    }
    Ok(out)
}

/// The kept player's rows entered after the merge that go back with the split, and those that
/// cannot be told apart (German, one line each).
#[derive(Debug, Clone, Default)]
pub struct Later {
    /// Rounds (ids) with his result on a night of the merged-away player.
    pub results: Vec<i64>,
    /// Fines (ids) on such a night.
    pub fines: Vec<i64>,
    /// Payments (ids) in a season only the merged-away player played.
    pub payments: Vec<i64>,
    /// Guthaben bookings (ids) in such a season.
    pub credit: Vec<i64>,
    /// Seasons of such a status.
    pub status: Vec<i32>,
    /// What refuses the split: „Zahlung vom 10.03.2026 über 1,00 € (Saison 2026)“ ….
    pub unclear: Vec<String>,
}

fn json<T: serde::Serialize>(v: &T) -> String {
    serde_json::to_string(v).unwrap_or_else(|_| "[]".to_string())
}

fn keys_of<'a>(rows: &'a [(String, Vec<i64>)], table: &str) -> &'a [i64] {
    rows.iter()
        .find(|(t, _)| t == table)
        .map_or(&[][..], |(_, k)| k.as_slice())
}

/// The rows of player `kept` entered after the merge that `moved` records ([`Later`]).
pub async fn later(
    conn: &mut SqliteConnection,
    moved: &Moved,
    kept: i64,
) -> Result<Later, DbError> {
    let mut nights = keys_of(&moved.rows, "night_participants").to_vec();
    nights.extend(keys_of(&moved.rows, "night_totals"));
    let (nights, gone_seasons) = (json(&nights), json(&moved.seasons));
    let mut later = Later {
        results: sqlx::query_scalar(
            "select x.round_id from results x join rounds r on r.id = x.round_id
             where x.player_id = ? and r.night_id in (select value from json_each(?))
               and x.round_id not in (select value from json_each(?)) order by x.round_id",
        )
        .bind(kept)
        .bind(&nights)
        .bind(json(&keys_of(&moved.rows, "results")))
        .fetch_all(&mut *conn)
        .await?,
        fines: sqlx::query_scalar(
            "select id from fines where player_id = ? and night_id in (select value from
             json_each(?)) and id not in (select value from json_each(?)) order by id",
        )
        .bind(kept)
        .bind(&nights)
        .bind(json(&keys_of(&moved.rows, "fines")))
        .fetch_all(&mut *conn)
        .await?,
        status: sqlx::query_scalar(
            "select season from player_status where player_id = ? and season in (select value
             from json_each(?)) and season not in (select value from json_each(?))",
        )
        .bind(kept)
        .bind(&gone_seasons)
        .bind(json(&keys_of(&moved.rows, "player_status")))
        .fetch_all(&mut *conn)
        .await?,
        ..Later::default()
    };
    let joined: Vec<i32> = moved.joined.iter().map(|j| j.season).collect();
    for table in MONEY {
        let rows: Vec<(i64, i32, String, i64)> = sqlx::query_as(&format!(
            "select id, season, date, cents from {table} where player_id = ?
             and id not in (select value from json_each(?)) order by id"
        ))
        .bind(kept)
        .bind(json(&keys_of(&moved.rows, table)))
        .fetch_all(&mut *conn)
        .await?;
        let own = moved.kept_rows.as_ref().map(|k| keys_of(k, table));
        for (id, season, date, cents) in rows {
            if moved.seasons.contains(&season) {
                match table {
                    "payments" => later.payments.push(id),
                    _ => later.credit.push(id),
                }
            } else if joined.contains(&season) && own.is_some_and(|o| !o.contains(&id)) {
                let what = if table == "payments" {
                    "Zahlung"
                } else {
                    "Guthaben-Buchung"
                };
                let day = date
                    .parse::<chrono::NaiveDate>()
                    .map_or(date.clone(), crate::league::model::format::date_de);
                later.unclear.push(format!(
                    "{what} vom {day} über {} (Saison {season})",
                    crate::league::format_cents(cents)
                ));
            }
        }
    }
    Ok(later)
}

/// Moves the rows of `later` from player `kept` to player `gone` (the Schockbesteck records of
/// those rounds renamed from `names.0` to `names.1`).
pub async fn move_back(
    conn: &mut SqliteConnection,
    later: &Later,
    (gone, kept): (i64, i64),
    names: (&str, &str),
) -> Result<(), DbError> {
    for (sql, keys) in [
        (
            "update results set player_id = ?1 where player_id = ?2 and round_id in
             (select value from json_each(?3))",
            json(&later.results),
        ),
        (
            "update fines set player_id = ?1 where player_id = ?2 and id in
             (select value from json_each(?3))",
            json(&later.fines),
        ),
        (
            "update payments set player_id = ?1 where player_id = ?2 and id in
             (select value from json_each(?3))",
            json(&later.payments),
        ),
        (
            "update credit_bookings set player_id = ?1 where player_id = ?2 and id in
             (select value from json_each(?3))",
            json(&later.credit),
        ),
        (
            "update player_status set player_id = ?1 where player_id = ?2 and season in
             (select value from json_each(?3))",
            json(&later.status),
        ),
    ] {
        sqlx::query(sql)
            .bind(gone)
            .bind(kept)
            .bind(keys)
            .execute(&mut *conn)
            .await?;
    }
    rename_besteck(conn, Some(&later.results), names.0, names.1).await?;
    Ok(())
}
