//! Merging two players into one and splitting them again (issue 36.2, 36.3; migration
//! `20261203222000_player_merges`): every row of the merged-away player moves to the kept one, and
//! what moved is recorded per table (the rows' keys) so that the split moves exactly those back.

use chrono::NaiveDate;
use serde::{Deserialize, Serialize};
use sqlx::{FromRow, SqliteConnection, SqlitePool};

use super::DbError;
use crate::rules::RundeRecord;

pub mod after;
pub mod carry;

/// The tables whose rows simply change their `player_id`, each with the column that keys a row
/// beside the player.
const MOVED: [(&str, &str); 12] = [
    ("night_participants", "night_id"),
    ("results", "round_id"),
    ("night_totals", "night_id"),
    ("season_endstand", "season"),
    ("fines", "id"),
    ("reminders", "id"),
    ("payments", "id"),
    ("credit_bookings", "id"),
    ("statement_entries", "id"),
    ("payment_reports", "id"),
    ("zusagen", "planned_id"),
    ("player_status", "season"),
];

/// The merged-away player's membership of a season the kept one played too: his row (removed by
/// the merge) and the kept player's Jahresbeitrag before it (the merge gives him the other's).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, FromRow)]
pub struct Joined {
    /// The season.
    pub season: i32,
    /// The merged-away player's place in the season's order.
    pub position: i64,
    /// His Jahresbeitrag: payment date, cents, paid from his account (0/1).
    pub fee_paid_on: Option<String>,
    /// See `fee_paid_on`.
    pub fee_cents: Option<i64>,
    /// See `fee_paid_on`.
    pub fee_from_account: i64,
}

/// A Zusage of the merged-away player removed because the kept one answered for that night too.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, FromRow)]
pub struct DroppedZusage {
    /// `planned_nights.id`.
    pub planned_id: i64,
    /// The answer's columns as stored.
    pub coming: i64,
    /// See `coming`.
    pub via: String,
    /// See `coming`.
    pub changes: i64,
    /// See `coming`.
    pub answered_at: String,
    /// See `coming`.
    pub for_date: String,
}

/// Row keys per table: (table, the keys of its rows).
pub type TableKeys = Vec<(String, Vec<i64>)>;

/// What a merge moved: per table of [`MOVED`] the keys of the moved rows; the seasons whose
/// membership moved whole; the memberships and Zusagen removed where both had one; the kept
/// player's fee row before (season → his fee columns) where the merge gave him the other's; the
/// confirmed Schockbesteck Runden (round ids) whose record named the merged-away player.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Moved {
    /// (table, keys) for each table of [`MOVED`] that had rows.
    pub rows: Vec<(String, Vec<i64>)>,
    /// Seasons whose membership row moved to the kept player.
    pub seasons: Vec<i32>,
    /// Memberships removed (both played the season).
    pub joined: Vec<Joined>,
    /// The kept player's fee columns before, where the merge gave him the other's.
    pub kept_fees: Vec<Joined>,
    /// Zusagen removed (both answered).
    pub zusagen: Vec<DroppedZusage>,
    /// Confirmed Schockbesteck Runden renamed (round ids).
    pub besteck: Vec<i64>,
    /// The kept player's own payments and Guthaben bookings in the seasons both played, by
    /// table: what the split tells apart from those booked after the merge ([`after`]). `None`
    /// in merges recorded before it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kept_rows: Option<TableKeys>,
}

/// A merge in force or undone, as stored.
#[derive(Debug, Clone, FromRow)]
pub struct MergeRow {
    /// `player_merges.id`.
    pub id: i64,
    /// The kept player's id and name.
    pub kept_id: i64,
    /// See `kept_id`.
    pub kept: String,
    /// The merged-away player's id and name.
    pub gone_id: i64,
    /// See `gone_id`.
    pub gone: String,
    /// Why, who, when (RFC 3339 UTC).
    pub reason: String,
    /// See `reason`.
    pub user: String,
    /// See `reason`.
    pub at: String,
    /// [`Moved`] as JSON.
    pub moved_json: String,
}

const SELECT: &str = "select m.id, m.kept_id, k.name as kept, m.gone_id, g.name as gone, m.reason,
    m.user, m.at, m.moved_json from player_merges m join players k on k.id = m.kept_id
    join players g on g.id = m.gone_id";

/// The first night (ascending) both players `a` and `b` played (drawn, or with totals), if any.
pub async fn shared_night(
    conn: &mut SqliteConnection,
    a: i64,
    b: i64,
) -> Result<Option<NaiveDate>, DbError> {
    Ok(sqlx::query_scalar(
        "with x as (select night_id from night_participants where player_id = ?1
                    union select night_id from night_totals where player_id = ?1),
              y as (select night_id from night_participants where player_id = ?2
                    union select night_id from night_totals where player_id = ?2)
         select n.date from x join y on x.night_id = y.night_id join nights n on n.id = x.night_id
         order by n.date limit 1",
    )
    .bind(a)
    .bind(b)
    .fetch_optional(conn)
    .await?)
}

/// The first season both players have a Jahresbeitrag in, if any.
pub async fn shared_fee(
    conn: &mut SqliteConnection,
    a: i64,
    b: i64,
) -> Result<Option<i32>, DbError> {
    Ok(sqlx::query_scalar(
        "select x.season from season_players x join season_players y on x.season = y.season
         where x.player_id = ? and y.player_id = ? and x.fee_cents is not null
           and y.fee_cents is not null order by x.season limit 1",
    )
    .bind(a)
    .bind(b)
    .fetch_optional(conn)
    .await?)
}

/// The first season both players have a status (pausiert, ausgetreten) in, if any.
pub async fn shared_status(
    conn: &mut SqliteConnection,
    a: i64,
    b: i64,
) -> Result<Option<i32>, DbError> {
    Ok(sqlx::query_scalar(
        "select x.season from player_status x join player_status y on x.season = y.season
         where x.player_id = ? and y.player_id = ? order by x.season limit 1",
    )
    .bind(a)
    .bind(b)
    .fetch_optional(conn)
    .await?)
}

/// The first season both players have an Endstand line in, if any.
pub async fn shared_endstand(
    conn: &mut SqliteConnection,
    a: i64,
    b: i64,
) -> Result<Option<i32>, DbError> {
    Ok(sqlx::query_scalar(
        "select x.season from season_endstand x join season_endstand y on x.season = y.season
         where x.player_id = ? and y.player_id = ? order by x.season limit 1",
    )
    .bind(a)
    .bind(b)
    .fetch_optional(conn)
    .await?)
}

/// The closed nights with a row of player `id` (participant, totals or fine), by id.
pub async fn closed_nights_of(conn: &mut SqliteConnection, id: i64) -> Result<Vec<i64>, DbError> {
    Ok(sqlx::query_scalar(
        "select n.id from nights n where n.closed = 1 and n.id in (
             select night_id from night_participants where player_id = ?1
             union select night_id from night_totals where player_id = ?1
             union select night_id from fines where player_id = ?1
             union select r.night_id from results x join rounds r on r.id = x.round_id
                   where x.player_id = ?1)
         order by n.id",
    )
    .bind(id)
    .fetch_all(conn)
    .await?)
}

/// Unlocks the closed nights `nights` for the rest of the transaction (a correction row each,
/// removed again by [`lock`]: the merge is recorded in `player_merges`, not as a Korrektur).
pub async fn unlock(conn: &mut SqliteConnection, nights: &[i64]) -> Result<Vec<i64>, DbError> {
    let mut ids = Vec::new();
    for night in nights {
        let id: i64 = sqlx::query_scalar(
            "insert into night_corrections (night_id, at, user, reason)
             values (?, strftime('%Y-%m-%dT%H:%M:%fZ', 'now'), '-', 'Spieler zusammengeführt')
             returning id",
        )
        .bind(night)
        .fetch_one(&mut *conn)
        .await?;
        ids.push(id);
    }
    Ok(ids)
}

/// Removes the correction rows `ids` of [`unlock`]: the nights are locked again.
pub async fn lock(conn: &mut SqliteConnection, ids: &[i64]) -> Result<(), DbError> {
    for id in ids {
        sqlx::query("delete from night_corrections where id = ?")
            .bind(id)
            .execute(&mut *conn)
            .await?;
    }
    Ok(())
}

/// Moves every row of player `gone` to player `kept` (both must exist, no shared night or fee:
/// checked before) and returns what moved.
pub async fn merge_rows(
    conn: &mut SqliteConnection,
    gone: i64,
    kept: i64,
    kept_name: &str,
    gone_name: &str,
) -> Result<Moved, DbError> {
    let zusagen: Vec<DroppedZusage> = sqlx::query_as(
        "select planned_id, coming, via, changes, answered_at, for_date from zusagen z
         where player_id = ?1 and exists (select 1 from zusagen k
             where k.planned_id = z.planned_id and k.player_id = ?2) order by planned_id",
    )
    .bind(gone)
    .bind(kept)
    .fetch_all(&mut *conn)
    .await?;
    let mut moved = Moved {
        zusagen,
        ..Moved::default()
    };
    for z in &moved.zusagen {
        sqlx::query("delete from zusagen where planned_id = ? and player_id = ?")
            .bind(z.planned_id)
            .bind(gone)
            .execute(&mut *conn)
            .await?;
    }
    moved.joined = membership(conn, gone, kept).await?;
    moved.kept_fees = membership(conn, kept, gone).await?;
    moved.kept_rows = Some(after::own_rows(conn, kept, &moved.joined).await?);
    for j in &moved.joined {
        sqlx::query("delete from season_players where season = ? and player_id = ?")
            .bind(j.season)
            .bind(gone)
            .execute(&mut *conn)
            .await?;
        if j.fee_cents.is_some() {
            set_fee(conn, kept, j).await?;
        }
    }
    moved.kept_fees.retain(|k| {
        moved
            .joined
            .iter()
            .any(|j| j.season == k.season && j.fee_cents.is_some())
    });
    moved.seasons =
        sqlx::query_scalar("select season from season_players where player_id = ? order by season")
            .bind(gone)
            .fetch_all(&mut *conn)
            .await?;
    sqlx::query("update season_players set player_id = ? where player_id = ?")
        .bind(kept)
        .bind(gone)
        .execute(&mut *conn)
        .await?;
    for (table, key) in MOVED {
        let keys: Vec<i64> = sqlx::query_scalar(&format!(
            "select {key} from {table} where player_id = ? order by {key}"
        ))
        .bind(gone)
        .fetch_all(&mut *conn)
        .await?;
        if keys.is_empty() {
            continue;
        }
        sqlx::query(&format!(
            "update {table} set player_id = ? where player_id = ?"
        ))
        .bind(kept)
        .bind(gone)
        .execute(&mut *conn)
        .await?;
        moved.rows.push((table.to_string(), keys));
    }
    moved.besteck = rename_besteck(conn, None, gone_name, kept_name).await?;
    Ok(moved)
}

/// Player `of`'s season rows in the seasons player `other` plays too.
async fn membership(
    conn: &mut SqliteConnection,
    of: i64,
    other: i64,
) -> Result<Vec<Joined>, DbError> {
    Ok(sqlx::query_as(
        "select x.season, x.position, x.fee_paid_on, x.fee_cents, x.fee_from_account
         from season_players x join season_players y on x.season = y.season
         where x.player_id = ? and y.player_id = ? order by x.season",
    )
    .bind(of)
    .bind(other)
    .fetch_all(conn)
    .await?)
}

/// Sets player `id`'s fee columns in season `f.season` to `f`'s.
async fn set_fee(conn: &mut SqliteConnection, id: i64, f: &Joined) -> Result<(), DbError> {
    sqlx::query(
        "update season_players set fee_paid_on = ?, fee_cents = ?, fee_from_account = ?
         where season = ? and player_id = ?",
    )
    .bind(&f.fee_paid_on)
    .bind(f.fee_cents)
    .bind(f.fee_from_account)
    .bind(f.season)
    .bind(id)
    .execute(conn)
    .await?;
    Ok(())
}

/// Renames `from` to `to` in the confirmed Schockbesteck records (of the rounds `only`, or all);
/// returns the round ids renamed.
async fn rename_besteck(
    conn: &mut SqliteConnection,
    only: Option<&[i64]>,
    from: &str,
    to: &str,
) -> Result<Vec<i64>, DbError> {
    let rows: Vec<(i64, String)> =
        sqlx::query_as("select round_id, record_json from round_schockbesteck order by round_id")
            .fetch_all(&mut *conn)
            .await?;
    let mut done = Vec::new();
    for (round_id, json) in rows {
        if only.is_some_and(|o| !o.contains(&round_id)) {
            continue;
        }
        let Ok(record) = serde_json::from_str::<RundeRecord>(&json) else {
            continue;
        };
        if record.has_player(from) {
            let json = serde_json::to_string(&record.renamed(from, to))
                .map_err(|e| DbError::Corrupt(e.to_string()))?;
            sqlx::query("update round_schockbesteck set record_json = ? where round_id = ?")
                .bind(json)
                .bind(round_id)
                .execute(&mut *conn)
                .await?;
            done.push(round_id);
        }
    }
    Ok(done)
}

/// Moves back what `moved` moved from player `gone` to player `kept`: the exact rows, the removed
/// memberships and Zusagen, the kept player's fee before, the Schockbesteck records.
pub async fn split_rows(
    conn: &mut SqliteConnection,
    moved: &Moved,
    gone: i64,
    kept: i64,
    kept_name: &str,
    gone_name: &str,
) -> Result<(), DbError> {
    for (table, keys) in &moved.rows {
        let Some((table, key)) = MOVED.iter().find(|(t, _)| t == table) else {
            return Err(DbError::Corrupt(format!("player_merges: Tabelle {table}")));
        };
        let keys = serde_json::to_string(keys).map_err(|e| DbError::Corrupt(e.to_string()))?;
        sqlx::query(&format!(
            "update {table} set player_id = ? where player_id = ?
             and {key} in (select value from json_each(?))"
        ))
        .bind(gone)
        .bind(kept)
        .bind(keys)
        .execute(&mut *conn)
        .await?;
    }
    for season in &moved.seasons {
        sqlx::query("update season_players set player_id = ? where player_id = ? and season = ?")
            .bind(gone)
            .bind(kept)
            .bind(season)
            .execute(&mut *conn)
            .await?;
    }
    for j in &moved.joined {
        sqlx::query(
            "insert into season_players
             (season, player_id, position, fee_paid_on, fee_cents, fee_from_account)
             values (?, ?, ?, ?, ?, ?)",
        )
        .bind(j.season)
        .bind(gone)
        .bind(j.position)
        .bind(&j.fee_paid_on)
        .bind(j.fee_cents)
        .bind(j.fee_from_account)
        .execute(&mut *conn)
        .await?;
    }
    for k in &moved.kept_fees {
        set_fee(conn, kept, k).await?;
    }
    for z in &moved.zusagen {
        sqlx::query(
            "insert into zusagen (planned_id, player_id, coming, via, changes, answered_at, for_date)
             values (?, ?, ?, ?, ?, ?, ?)",
        )
        .bind(z.planned_id)
        .bind(gone)
        .bind(z.coming)
        .bind(&z.via)
        .bind(z.changes)
        .bind(&z.answered_at)
        .bind(&z.for_date)
        .execute(&mut *conn)
        .await?;
    }
    rename_besteck(conn, Some(&moved.besteck), kept_name, gone_name).await?;
    Ok(())
}

/// The closed nights with a row among those `moved` names (participants, totals, fines, results).
pub async fn closed_nights_moved(
    conn: &mut SqliteConnection,
    moved: &Moved,
) -> Result<Vec<i64>, DbError> {
    let keys = |t: &str| {
        moved
            .rows
            .iter()
            .find(|(table, _)| table == t)
            .map(|(_, k)| k.clone())
            .unwrap_or_default()
    };
    let json = |v: Vec<i64>| serde_json::to_string(&v).unwrap_or_else(|_| "[]".to_string());
    Ok(sqlx::query_scalar(
        "select id from nights where closed = 1 and (
             id in (select value from json_each(?1)) or id in (select value from json_each(?2))
             or id in (select night_id from fines where id in (select value from json_each(?3)))
             or id in (select night_id from rounds where id in (select value from json_each(?4))))
         order by id",
    )
    .bind(json(keys("night_participants")))
    .bind(json(keys("night_totals")))
    .bind(json(keys("fines")))
    .bind(json(keys("results")))
    .fetch_all(conn)
    .await?)
}

/// Records the merge of `gone` into `kept` by `user` for `reason`; returns its id.
pub async fn record(
    conn: &mut SqliteConnection,
    kept: i64,
    gone: i64,
    reason: &str,
    user: &str,
    moved: &Moved,
) -> Result<i64, DbError> {
    let json = serde_json::to_string(moved).map_err(|e| DbError::Corrupt(e.to_string()))?;
    Ok(sqlx::query_scalar(
        "insert into player_merges (kept_id, gone_id, reason, user, at, moved_json)
         values (?, ?, ?, ?, strftime('%Y-%m-%dT%H:%M:%fZ', 'now'), ?) returning id",
    )
    .bind(kept)
    .bind(gone)
    .bind(reason)
    .bind(user)
    .bind(json)
    .fetch_one(conn)
    .await?)
}

/// Marks merge `id` undone by `user` for `reason`.
pub async fn undone(
    conn: &mut SqliteConnection,
    id: i64,
    user: &str,
    reason: &str,
) -> Result<(), DbError> {
    sqlx::query(
        "update player_merges set undone_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now'),
         undone_by = ?, undone_reason = ? where id = ?",
    )
    .bind(user)
    .bind(reason)
    .bind(id)
    .execute(conn)
    .await?;
    Ok(())
}

/// The last merge in force into player `kept` (the one made last; an import keeps when a merge
/// was made), if any.
pub async fn last_into(
    conn: &mut SqliteConnection,
    kept: i64,
) -> Result<Option<MergeRow>, DbError> {
    Ok(sqlx::query_as(&format!(
        "{SELECT} where m.kept_id = ? and m.undone_at is null order by m.at desc, m.id desc
         limit 1"
    ))
    .bind(kept)
    .fetch_optional(conn)
    .await?)
}

/// The merge in force of player `gone` (merged away), if any.
pub async fn of_gone(conn: &mut SqliteConnection, gone: i64) -> Result<Option<MergeRow>, DbError> {
    Ok(sqlx::query_as(&format!(
        "{SELECT} where m.gone_id = ? and m.undone_at is null"
    ))
    .bind(gone)
    .fetch_optional(conn)
    .await?)
}

/// Every merge in force, oldest first.
pub async fn in_force(pool: &SqlitePool) -> Result<Vec<MergeRow>, DbError> {
    Ok(
        sqlx::query_as(&format!("{SELECT} where m.undone_at is null order by m.id"))
            .fetch_all(pool)
            .await?,
    )
}

/// Counts a change of seasons `years` (their `season_versions`): a merge moves rows whose tables
/// have no counter trigger for an update (payments, totals, Endstand).
pub async fn bump(conn: &mut SqliteConnection, years: &[i32]) -> Result<(), DbError> {
    for y in years {
        sqlx::query("update season_versions set version = version + 1 where year = ?")
            .bind(y)
            .execute(&mut *conn)
            .await?;
    }
    Ok(())
}
