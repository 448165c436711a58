//! Nights (Spielabende): the participants and their draw to tables (league.md §9), rounds with their
//! results (§1), and fines (§6).

use chrono::NaiveDate;
use sqlx::{FromRow, SqliteConnection, SqlitePool};

use super::DbError;
use crate::league::model::file::ResultEntry;

/// One row of `nights`.
#[derive(Debug, Clone, FromRow)]
pub struct Night {
    /// `nights.id`.
    pub id: i64,
    /// The season's year.
    pub season: i64,
    /// The night's date.
    pub date: NaiveDate,
}

/// A night in a season's list, with counts.
#[derive(Debug, Clone, FromRow)]
pub struct NightListRow {
    /// `nights.id`.
    pub id: i64,
    /// The night's date.
    pub date: NaiveDate,
    /// Number of participants.
    pub participants: i64,
    /// Number of rounds entered (all tables).
    pub rounds: i64,
}

/// A participant of a night and the table he was drawn to.
#[derive(Debug, Clone, FromRow)]
pub struct Participant {
    /// `players.id`.
    pub player_id: i64,
    /// The player's name.
    pub name: String,
    /// Table 1 or 2.
    pub table_no: i64,
    /// Seat order of the draw within the table.
    pub seat: i64,
}

/// A fine as booked.
#[derive(Debug, Clone, FromRow)]
pub struct Fine {
    /// `fines.id`.
    pub id: i64,
    /// The fined player's name.
    pub player: String,
    /// A kind of the season's catalogue.
    pub kind: String,
    /// The booked amount in cents.
    pub amount_cents: i64,
    /// Paid (true) or open.
    pub paid: bool,
}

/// The nights of season `year`, newest first.
pub async fn list(pool: &SqlitePool, year: i32) -> Result<Vec<NightListRow>, DbError> {
    Ok(sqlx::query_as(
        "select n.id, n.date,
                (select count(*) from night_participants p where p.night_id = n.id) as participants,
                (select count(*) from rounds r where r.night_id = n.id) as rounds
         from nights n where n.season = ? order by n.date desc",
    )
    .bind(year)
    .fetch_all(pool)
    .await?)
}

/// The night with `id`.
pub async fn get(conn: &mut SqliteConnection, id: i64) -> Result<Option<Night>, DbError> {
    Ok(
        sqlx::query_as("select id, season, date from nights where id = ?")
            .bind(id)
            .fetch_optional(conn)
            .await?,
    )
}

/// The night on `date`.
pub async fn by_date(
    conn: &mut SqliteConnection,
    date: NaiveDate,
) -> Result<Option<Night>, DbError> {
    Ok(
        sqlx::query_as("select id, season, date from nights where date = ?")
            .bind(date)
            .fetch_optional(conn)
            .await?,
    )
}

/// Creates a night of season `year` on `date`; returns its id.
pub async fn create(
    conn: &mut SqliteConnection,
    year: i32,
    date: NaiveDate,
) -> Result<i64, DbError> {
    let (id,): (i64,) =
        sqlx::query_as("insert into nights (season, date) values (?, ?) returning id")
            .bind(year)
            .bind(date)
            .fetch_one(conn)
            .await?;
    Ok(id)
}

/// The participants of night `id`, by table and seat.
pub async fn participants(
    conn: &mut SqliteConnection,
    id: i64,
) -> Result<Vec<Participant>, DbError> {
    Ok(sqlx::query_as(
        "select np.player_id, p.name, np.table_no, np.seat from night_participants np
         join players p on p.id = np.player_id where np.night_id = ? order by np.table_no, np.seat",
    )
    .bind(id)
    .fetch_all(conn)
    .await?)
}

/// Replaces the participants of night `id` by `seats` = (player id, table 1|2, seat).
pub async fn set_participants(
    conn: &mut SqliteConnection,
    id: i64,
    seats: &[(i64, u32, u32)],
) -> Result<(), DbError> {
    sqlx::query("delete from night_participants where night_id = ?")
        .bind(id)
        .execute(&mut *conn)
        .await?;
    add_seats(conn, id, seats).await
}

/// Adds `seats` = (player id, table 1|2, seat) to the participants of night `id`, in multi-row
/// inserts of [`ROWS_PER_INSERT`] (a club file of 40 seasons stored 71,289 seats one statement
/// each, each a hand-over to SQLite's thread).
pub async fn add_seats(
    conn: &mut SqliteConnection,
    id: i64,
    seats: &[(i64, u32, u32)],
) -> Result<(), DbError> {
    for chunk in seats.chunks(ROWS_PER_INSERT) {
        let mut q = sqlx::QueryBuilder::<sqlx::Sqlite>::new(
            "insert into night_participants (night_id, player_id, table_no, seat) ",
        );
        q.push_values(chunk, |mut b, (player, table, seat)| {
            b.push_bind(id)
                .push_bind(*player)
                .push_bind(*table)
                .push_bind(*seat);
        });
        q.build().execute(&mut *conn).await?;
    }
    Ok(())
}

/// Whether night `id` is recorded as totals per player (a row in `night_totals`): such a night
/// takes no rounds.
pub async fn has_totals(conn: &mut SqliteConnection, id: i64) -> Result<bool, DbError> {
    let (n,): (i64,) =
        sqlx::query_as("select exists(select 1 from night_totals where night_id = ?)")
            .bind(id)
            .fetch_one(conn)
            .await?;
    Ok(n != 0)
}

/// Number of rounds entered at night `id`.
pub async fn round_count(conn: &mut SqliteConnection, id: i64) -> Result<i64, DbError> {
    let (n,): (i64,) = sqlx::query_as("select count(*) from rounds where night_id = ?")
        .bind(id)
        .fetch_one(conn)
        .await?;
    Ok(n)
}

/// The round numbers already entered at table `table` of night `id`, ascending.
pub async fn round_numbers(
    conn: &mut SqliteConnection,
    id: i64,
    table: u32,
) -> Result<Vec<u32>, DbError> {
    let rows: Vec<(i64,)> = sqlx::query_as(
        "select number from rounds where night_id = ? and table_no = ? order by number",
    )
    .bind(id)
    .bind(table)
    .fetch_all(conn)
    .await?;
    Ok(rows.into_iter().map(|(n,)| n as u32).collect())
}

/// Stores round `number` at `table` of night `id` with `results` (player id, result), replacing
/// a round stored under the same number.
pub async fn put_round(
    conn: &mut SqliteConnection,
    id: i64,
    table: u32,
    number: u32,
    results: &[(i64, ResultEntry)],
) -> Result<(), DbError> {
    // The round stored under this number goes first (results before the round, audited).
    delete_round(&mut *conn, id, table, number).await?;
    let round_id = insert_round(&mut *conn, id, table, number).await?;
    for (pos, (player, r)) in results.iter().enumerate() {
        insert_result(&mut *conn, round_id, *player, pos, r).await?;
    }
    Ok(())
}

/// Deletes round `number` at `table` of night `id`: its Schockbesteck throws and its results first
/// (each result audited by the results trigger while the round still names night, table and
/// number), then the round.
pub async fn delete_round(
    conn: &mut SqliteConnection,
    id: i64,
    table: u32,
    number: u32,
) -> Result<(), DbError> {
    for sql in [
        "delete from round_schockbesteck where round_id in
         (select id from rounds where night_id = ? and table_no = ? and number = ?)",
        "delete from results where round_id in
         (select id from rounds where night_id = ? and table_no = ? and number = ?)",
        "delete from rounds where night_id = ? and table_no = ? and number = ?",
    ] {
        sqlx::query(sql)
            .bind(id)
            .bind(table)
            .bind(number)
            .execute(&mut *conn)
            .await?;
    }
    Ok(())
}

/// Moves round `number` of night `id` from table `table` to table `to` (its results stay).
pub async fn move_round(
    conn: &mut SqliteConnection,
    id: i64,
    table: u32,
    number: u32,
    to: u32,
) -> Result<(), DbError> {
    sqlx::query(
        "update rounds set table_no = ? where night_id = ? and table_no = ? and number = ?",
    )
    .bind(to)
    .bind(id)
    .bind(table)
    .bind(number)
    .execute(&mut *conn)
    .await?;
    Ok(())
}

/// Deletes night `id` with everything of it: results (each audited), rounds, fines (each
/// audited), the draw, open Schockbesteck Runden (by cascade) and the night.
pub async fn delete(conn: &mut SqliteConnection, id: i64) -> Result<(), DbError> {
    for sql in [
        "delete from round_schockbesteck where round_id in (select id from rounds where night_id = ?)",
        "delete from results where round_id in (select id from rounds where night_id = ?)",
        "delete from rounds where night_id = ?",
        "delete from fines where night_id = ?",
        "delete from night_totals where night_id = ?",
        "delete from night_participants where night_id = ?",
        "delete from nights where id = ?",
    ] {
        sqlx::query(sql).bind(id).execute(&mut *conn).await?;
    }
    Ok(())
}

/// Inserts round `number` at `table` of night `night_id` (no round of that number may be stored
/// there) and returns its `rounds.id`.
pub(crate) async fn insert_round(
    conn: &mut SqliteConnection,
    night_id: i64,
    table: u32,
    number: u32,
) -> Result<i64, DbError> {
    let (round_id,): (i64,) = sqlx::query_as(
        "insert into rounds (night_id, table_no, number) values (?, ?, ?) returning id",
    )
    .bind(night_id)
    .bind(table)
    .bind(number)
    .fetch_one(conn)
    .await?;
    Ok(round_id)
}

/// Rows of one multi-row insert of [`insert_rounds`] and [`insert_results`]: 8 values a result
/// row, well under SQLite's 32,766 bound values per statement.
const ROWS_PER_INSERT: usize = 1_000;

/// Inserts the rounds `rounds` (table, number) of night `night_id` (none of them stored there
/// yet) in multi-row inserts, and returns each one's `rounds.id` by (table, number). For a whole
/// season stored at once (`season::replace`): one statement per 1,000 rounds, not one each.
pub(crate) async fn insert_rounds(
    conn: &mut SqliteConnection,
    night_id: i64,
    rounds: &[(u32, u32)],
) -> Result<std::collections::HashMap<(u32, u32), i64>, DbError> {
    for chunk in rounds.chunks(ROWS_PER_INSERT) {
        let mut q = sqlx::QueryBuilder::<sqlx::Sqlite>::new(
            "insert into rounds (night_id, table_no, number) ",
        );
        q.push_values(chunk, |mut b, (table, number)| {
            b.push_bind(night_id).push_bind(*table).push_bind(*number);
        });
        q.build().execute(&mut *conn).await?;
    }
    let ids: Vec<(i64, u32, u32)> =
        sqlx::query_as("select id, table_no, number from rounds where night_id = ?")
            .bind(night_id)
            .fetch_all(&mut *conn)
            .await?;
    Ok(ids.into_iter().map(|(id, t, n)| ((t, n), id)).collect())
}

/// Inserts result rows (round id, player id, 0-based position, the row) in multi-row inserts of
/// [`ROWS_PER_INSERT`]; the same rows as [`insert_result`] one by one.
pub(crate) async fn insert_results(
    conn: &mut SqliteConnection,
    rows: &[(i64, i64, usize, &ResultEntry)],
) -> Result<(), DbError> {
    for chunk in rows.chunks(ROWS_PER_INSERT) {
        let mut q = sqlx::QueryBuilder::<sqlx::Sqlite>::new(
            "insert into results (round_id, player_id, position, outs, hand_outs, julen, joker, lost) ",
        );
        q.push_values(chunk, |mut b, (round_id, player_id, position, r)| {
            b.push_bind(*round_id)
                .push_bind(*player_id)
                .push_bind(*position as i64)
                .push_bind(r.outs)
                .push_bind(r.hand_outs)
                .push_bind(r.julen)
                .push_bind(r.joker)
                .push_bind(r.lost);
        });
        q.build().execute(&mut *conn).await?;
    }
    Ok(())
}

/// Inserts `r` as the row of player `player_id` at `position` (0-based row order) of round
/// `round_id`.
pub(crate) async fn insert_result(
    conn: &mut SqliteConnection,
    round_id: i64,
    player_id: i64,
    position: usize,
    r: &ResultEntry,
) -> Result<(), DbError> {
    sqlx::query(
        "insert into results (round_id, player_id, position, outs, hand_outs, julen, joker, lost)
         values (?, ?, ?, ?, ?, ?, ?, ?)",
    )
    .bind(round_id)
    .bind(player_id)
    .bind(position as i64)
    .bind(r.outs)
    .bind(r.hand_outs)
    .bind(r.julen)
    .bind(r.joker)
    .bind(r.lost)
    .execute(conn)
    .await?;
    Ok(())
}

/// The fines booked at night `id`, in booking order.
pub async fn fines(conn: &mut SqliteConnection, id: i64) -> Result<Vec<Fine>, DbError> {
    Ok(sqlx::query_as(
        "select f.id, p.name as player, f.kind, f.amount_cents, f.paid from fines f
         join players p on p.id = f.player_id where f.night_id = ? order by f.id",
    )
    .bind(id)
    .fetch_all(conn)
    .await?)
}

/// Books a fine of `amount_cents` of `kind` for player `player` at night `id`.
pub async fn add_fine(
    conn: &mut SqliteConnection,
    id: i64,
    player: i64,
    kind: &str,
    amount_cents: i64,
    paid: bool,
) -> Result<(), DbError> {
    sqlx::query(
        "insert into fines (night_id, player_id, kind, amount_cents, paid) values (?, ?, ?, ?, ?)",
    )
    .bind(id)
    .bind(player)
    .bind(kind)
    .bind(amount_cents)
    .bind(paid)
    .execute(conn)
    .await?;
    Ok(())
}

/// Marks fine `fine` of night `id` as paid or open.
pub async fn set_fine_paid(
    conn: &mut SqliteConnection,
    id: i64,
    fine: i64,
    paid: bool,
) -> Result<(), DbError> {
    sqlx::query("update fines set paid = ? where id = ? and night_id = ?")
        .bind(paid)
        .bind(fine)
        .bind(id)
        .execute(conn)
        .await?;
    Ok(())
}
