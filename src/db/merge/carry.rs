//! What a season file carries of the merges and statuses (issue 36.3, 36.4; docs/saisondatei.md
//! "Zusammengeführte Spieler", "Status"): a season's rows by their storage ids and by what names
//! them in the file (night, table, round, place), the statuses by name, and the merge records
//! as an import writes them back.

use std::collections::BTreeMap;

use chrono::NaiveDate;
use sqlx::SqliteConnection;

use super::{MergeRow, Moved, SELECT};
use crate::db::DbError;

/// One season's rows a merge may name, by storage id and by their place in the season file.
#[derive(Debug, Clone, Default)]
pub struct SeasonKeys {
    /// `nights.id` → the night's date.
    pub nights: BTreeMap<i64, NaiveDate>,
    /// `rounds.id` → (night, table, number).
    pub rounds: BTreeMap<i64, (NaiveDate, u32, u32)>,
    /// `fines.id` → (night, place among the night's fines in booking order).
    pub fines: BTreeMap<i64, (NaiveDate, usize)>,
    /// `payments.id` of the season in booking order.
    pub payments: Vec<i64>,
    /// `credit_bookings.id` of the season in booking order.
    pub credit: Vec<i64>,
    /// The other way round: night → id, (night, table, number) → round id, (night, place) →
    /// fine id (a file's references are looked up one by one: each in O(log n)).
    by_night: BTreeMap<NaiveDate, i64>,
    by_round: BTreeMap<(NaiveDate, u32, u32), i64>,
    by_fine: BTreeMap<(NaiveDate, usize), i64>,
}

impl SeasonKeys {
    /// The id of the night on `date`.
    pub fn night(&self, date: NaiveDate) -> Option<i64> {
        self.by_night.get(&date).copied()
    }

    /// The id of round `number` at `table` on `date`.
    pub fn round(&self, date: NaiveDate, table: u32, number: u32) -> Option<i64> {
        self.by_round.get(&(date, table, number)).copied()
    }

    /// The id of the `n`-th fine (0 = first) of the night on `date`.
    pub fn fine(&self, date: NaiveDate, n: usize) -> Option<i64> {
        self.by_fine.get(&(date, n)).copied()
    }
}

/// The rows of season `year` a merge may name ([`SeasonKeys`]).
pub async fn season_keys(conn: &mut SqliteConnection, year: i32) -> Result<SeasonKeys, DbError> {
    let mut keys = SeasonKeys::default();
    let nights: Vec<(i64, NaiveDate)> =
        sqlx::query_as("select id, date from nights where season = ? order by date")
            .bind(year)
            .fetch_all(&mut *conn)
            .await?;
    keys.nights = nights.into_iter().collect();
    let rounds: Vec<(i64, NaiveDate, i64, i64)> = sqlx::query_as(
        "select r.id, n.date, r.table_no, r.number from rounds r join nights n on n.id = r.night_id
         where n.season = ?",
    )
    .bind(year)
    .fetch_all(&mut *conn)
    .await?;
    for (id, date, table, number) in rounds {
        keys.rounds.insert(id, (date, table as u32, number as u32));
    }
    let fines: Vec<(i64, NaiveDate)> = sqlx::query_as(
        "select f.id, n.date from fines f join nights n on n.id = f.night_id where n.season = ?
         order by f.id",
    )
    .bind(year)
    .fetch_all(&mut *conn)
    .await?;
    let mut count: BTreeMap<NaiveDate, usize> = BTreeMap::new();
    for (id, date) in fines {
        let n = count.entry(date).or_default();
        keys.fines.insert(id, (date, *n));
        *n += 1;
    }
    for (table, into) in [
        ("payments", &mut keys.payments),
        ("credit_bookings", &mut keys.credit),
    ] {
        *into = sqlx::query_scalar(&format!(
            "select id from {table} where season = ? order by id"
        ))
        .bind(year)
        .fetch_all(&mut *conn)
        .await?;
    }
    keys.by_night = keys.nights.iter().map(|(id, d)| (*d, *id)).collect();
    keys.by_round = keys.rounds.iter().map(|(id, r)| (*r, *id)).collect();
    keys.by_fine = keys.fines.iter().map(|(id, f)| (*f, *id)).collect();
    Ok(keys)
}

/// Every merge in force, oldest first (by when it was made, then by id).
pub async fn in_force_on(conn: &mut SqliteConnection) -> Result<Vec<MergeRow>, DbError> {
    Ok(sqlx::query_as(&format!(
        "{SELECT} where m.undone_at is null order by m.at, m.id"
    ))
    .fetch_all(conn)
    .await?)
}

/// Stores `moved` as what merge `id` moved.
pub async fn set_moved(conn: &mut SqliteConnection, id: i64, moved: &Moved) -> Result<(), DbError> {
    let json = serde_json::to_string(moved).map_err(|e| DbError::Corrupt(e.to_string()))?;
    sqlx::query("update player_merges set moved_json = ? where id = ?")
        .bind(json)
        .bind(id)
        .execute(conn)
        .await?;
    Ok(())
}

/// Records a merge of `gone` into `kept` made `at` (RFC 3339) by `user` for `reason` (an
/// import's); returns its id.
pub async fn record_at(
    conn: &mut SqliteConnection,
    (kept, gone): (i64, i64),
    (reason, user, at): (&str, &str, &str),
    moved: &Moved,
) -> Result<i64, DbError> {
    let json = serde_json::to_string(moved).map_err(|e| DbError::Corrupt(e.to_string()))?;
    Ok(sqlx::query_scalar(
        "insert into player_merges (kept_id, gone_id, reason, user, at, moved_json)
         values (?, ?, ?, ?, ?, ?) returning id",
    )
    .bind(kept)
    .bind(gone)
    .bind(reason)
    .bind(user)
    .bind(at)
    .bind(json)
    .fetch_one(conn)
    .await?)
}

/// The statuses of season `year` by player name, in the season's order: (name, „pausiert“ or
/// „ausgetreten“, the day he left).
pub async fn statuses_named(
    conn: &mut SqliteConnection,
    year: i32,
) -> Result<Vec<(String, String, Option<NaiveDate>)>, DbError> {
    Ok(sqlx::query_as(
        "select p.name, s.status, s.day from player_status s join players p on p.id = s.player_id
         left join season_players sp on sp.season = s.season and sp.player_id = s.player_id
         where s.season = ? order by sp.position, p.name",
    )
    .bind(year)
    .fetch_all(conn)
    .await?)
}

/// Replaces the statuses of season `year` by `all` (player id, status, day).
pub async fn replace_statuses(
    conn: &mut SqliteConnection,
    year: i32,
    all: &[(i64, String, Option<NaiveDate>)],
) -> Result<(), DbError> {
    sqlx::query("delete from player_status where season = ?")
        .bind(year)
        .execute(&mut *conn)
        .await?;
    for (id, status, day) in all {
        crate::db::player::set_status(&mut *conn, year, *id, status, *day).await?;
    }
    Ok(())
}

/// Makes room at `position` in season `year`'s order: every player from there on moves one down
/// (the merged-away player's line, removed by the merge, had its place there).
pub async fn make_room(
    conn: &mut SqliteConnection,
    year: i32,
    position: i64,
) -> Result<(), DbError> {
    sqlx::query(
        "update season_players set position = position + 1 where season = ? and position >= ?",
    )
    .bind(year)
    .bind(position)
    .execute(conn)
    .await?;
    Ok(())
}

/// The first season player `id` is a player of, if any.
pub async fn first_season(conn: &mut SqliteConnection, id: i64) -> Result<Option<i32>, DbError> {
    Ok(sqlx::query_scalar(
        "select season from season_players where player_id = ? order by season limit 1",
    )
    .bind(id)
    .fetch_optional(conn)
    .await?)
}
