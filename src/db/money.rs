//! The money side of a season (league.md §6, §8): booked fines with their ids (to mark them paid),
//! the season's rules object where the Strafenkatalog lives, and the Kassenprüfer's *Geprüft*s
//! (`kassenpruefungen`).

use chrono::NaiveDate;
use serde_json::{Map, Value};
use sqlx::{FromRow, SqliteConnection, SqlitePool};

use super::DbError;
use crate::league::model::file::{CreditEntry, CreditKind, PaymentEntry};

/// A fine as booked, with its night and season.
#[derive(Debug, Clone, PartialEq, Eq, FromRow)]
pub struct BookedFine {
    /// `fines.id`.
    pub id: i64,
    /// The night's id.
    pub night_id: i64,
    /// The season's year.
    pub season: i64,
    /// The night's date.
    pub date: NaiveDate,
    /// `players.id` of the fined player.
    pub player_id: i64,
    /// The fined player's name.
    pub player: String,
    /// A kind of the season's catalogue.
    pub kind: String,
    /// The amount booked at the time, in cents (later catalogue changes do not alter it).
    pub amount_cents: i64,
    /// Paid (in the pot) or open.
    pub paid: bool,
}

const SELECT_FINE: &str =
    "select f.id, f.night_id, n.season, n.date, f.player_id, p.name as player,
        f.kind, f.amount_cents, f.paid
     from fines f join nights n on n.id = f.night_id join players p on p.id = f.player_id";

/// The fine with `id`, if any.
pub async fn fine(conn: &mut SqliteConnection, id: i64) -> Result<Option<BookedFine>, DbError> {
    Ok(sqlx::query_as(&format!("{SELECT_FINE} where f.id = ?"))
        .bind(id)
        .fetch_optional(conn)
        .await?)
}

/// All fines of season `year`, by night date, then booking order.
pub async fn fines_of_season(pool: &SqlitePool, year: i32) -> Result<Vec<BookedFine>, DbError> {
    Ok(sqlx::query_as(&format!(
        "{SELECT_FINE} where n.season = ? order by n.date, f.id"
    ))
    .bind(year)
    .fetch_all(pool)
    .await?)
}

/// Marks fine `id` paid (`true`, at the night unless a payment day is stored) or open (payment
/// day and netting cleared); returns whether a fine was changed.
pub async fn set_fine_paid(
    conn: &mut SqliteConnection,
    id: i64,
    paid: bool,
) -> Result<bool, DbError> {
    let done = sqlx::query(
        "update fines set paid = ?1,
                paid_on = case when ?1 then paid_on end, netted = case when ?1 then netted else 0 end,
                from_account = case when ?1 then from_account else 0 end
         where id = ?2",
    )
        .bind(paid)
        .bind(id)
        .execute(conn)
        .await?;
    Ok(done.rows_affected() > 0)
}

/// Stores the payment state of fine `id` as the checked `fine` has it: paid or open, the payment
/// day as given (`paid_on`, NULL = at the night or open) and whether it was netted; returns
/// whether a fine was changed.
pub async fn set_fine_payment(
    conn: &mut SqliteConnection,
    id: i64,
    fine: &crate::league::Fine,
) -> Result<bool, DbError> {
    let done = sqlx::query(
        "update fines set paid = ?, paid_on = ?, netted = ?, from_account = ? where id = ?",
    )
    .bind(fine.paid)
    .bind(fine.paid_on_override)
    .bind(fine.netted)
    .bind(fine.from_account)
    .bind(id)
    .execute(conn)
    .await?;
    Ok(done.rows_affected() > 0)
}

/// Books a fine of `amount_cents` of `kind` for player `player_id` at night `night_id`; returns
/// its id.
pub async fn book_fine(
    conn: &mut SqliteConnection,
    night_id: i64,
    player_id: i64,
    kind: &str,
    amount_cents: i64,
    paid: bool,
) -> Result<i64, DbError> {
    let (id,): (i64,) = sqlx::query_as(
        "insert into fines (night_id, player_id, kind, amount_cents, paid)
         values (?, ?, ?, ?, ?) returning id",
    )
    .bind(night_id)
    .bind(player_id)
    .bind(kind)
    .bind(amount_cents)
    .bind(paid)
    .fetch_one(conn)
    .await?;
    Ok(id)
}

/// Deletes fine `id` (audited by the fines trigger); returns whether a fine was deleted.
pub async fn delete_fine(conn: &mut SqliteConnection, id: i64) -> Result<bool, DbError> {
    let done = sqlx::query("delete from fines where id = ?")
        .bind(id)
        .execute(conn)
        .await?;
    Ok(done.rows_affected() > 0)
}

/// Stores `overrides` as the `rules` object of season `year` (the Strafenkatalog is its `fines`
/// field); returns whether the season exists.
pub async fn set_rules(
    conn: &mut SqliteConnection,
    year: i32,
    overrides: &Map<String, Value>,
) -> Result<bool, DbError> {
    let json = serde_json::to_string(overrides).map_err(|e| DbError::Corrupt(e.to_string()))?;
    let done = sqlx::query("update seasons set rules_json = ? where year = ?")
        .bind(json)
        .bind(year)
        .execute(conn)
        .await?;
    Ok(done.rows_affected() > 0)
}

/// The payments of season `year` in booking order, names of players (issue 34.1).
pub async fn payments_of_season(
    conn: &mut SqliteConnection,
    year: i32,
) -> Result<Vec<PaymentEntry>, DbError> {
    let rows: Vec<(String, NaiveDate, i64)> = sqlx::query_as(
        "select p.name, x.date, x.cents from payments x join players p on p.id = x.player_id
         where x.season = ? order by x.id",
    )
    .bind(year)
    .fetch_all(conn)
    .await?;
    Ok(rows
        .into_iter()
        .map(|(player, date, cents)| PaymentEntry {
            player,
            date,
            cents,
        })
        .collect())
}

/// The Guthaben bookings of season `year` in booking order (issue 34.1); a kind the program does
/// not know is [`DbError::Corrupt`].
pub async fn credit_of_season(
    conn: &mut SqliteConnection,
    year: i32,
) -> Result<Vec<CreditEntry>, DbError> {
    let rows: Vec<(String, String, NaiveDate, i64)> = sqlx::query_as(
        "select p.name, x.kind, x.date, x.cents from credit_bookings x
         join players p on p.id = x.player_id where x.season = ? order by x.id",
    )
    .bind(year)
    .fetch_all(conn)
    .await?;
    let mut out = Vec::with_capacity(rows.len());
    for (player, kind, date, cents) in rows {
        let kind = match kind.as_str() {
            "vortrag" => CreditKind::CarriedIn,
            "ausgezahlt" => CreditKind::PaidBack,
            "uebertragen" => CreditKind::CarriedOut,
            other => {
                return Err(DbError::Corrupt(format!(
                    "credit_bookings.kind: unbekannte Buchung {other}"
                )))
            }
        };
        out.push(CreditEntry {
            player,
            kind,
            date,
            cents,
        });
    }
    Ok(out)
}

/// Adds the payments and Guthaben bookings of `season` that season `year` does not hold yet
/// (`stored` of each, in booking order: the new ones are the tail), with the player ids of
/// `ids` (name → id). Payments and bookings are only ever added (issue 34.1).
pub async fn add_account_entries(
    conn: &mut SqliteConnection,
    season: &crate::league::Season,
    stored: (usize, usize),
    ids: &std::collections::BTreeMap<String, i64>,
) -> Result<(), DbError> {
    let id_of = |name: &str| {
        ids.get(name)
            .copied()
            .ok_or_else(|| DbError::Corrupt(format!("unbekannter Spieler {name}")))
    };
    for p in season.payments.iter().skip(stored.0) {
        sqlx::query("insert into payments (season, player_id, date, cents) values (?, ?, ?, ?)")
            .bind(season.year)
            .bind(id_of(&p.player)?)
            .bind(p.date)
            .bind(p.cents)
            .execute(&mut *conn)
            .await?;
    }
    for c in season.credit.iter().skip(stored.1) {
        let kind = match c.kind {
            CreditKind::CarriedIn => "vortrag",
            CreditKind::PaidBack => "ausgezahlt",
            CreditKind::CarriedOut => "uebertragen",
        };
        sqlx::query(
            "insert into credit_bookings (season, player_id, kind, date, cents)
             values (?, ?, ?, ?, ?)",
        )
        .bind(season.year)
        .bind(id_of(&c.player)?)
        .bind(kind)
        .bind(c.date)
        .bind(c.cents)
        .execute(&mut *conn)
        .await?;
    }
    Ok(())
}

/// Deletes the payments and Guthaben bookings of season `year` (before it is stored anew).
pub async fn delete_account_entries(conn: &mut SqliteConnection, year: i32) -> Result<(), DbError> {
    sqlx::query("delete from payments where season = ?")
        .bind(year)
        .execute(&mut *conn)
        .await?;
    sqlx::query("delete from credit_bookings where season = ?")
        .bind(year)
        .execute(&mut *conn)
        .await?;
    Ok(())
}

/// Marks whether the Jahresbeitrag of player `id` in season `year` was paid out of his payments
/// or Guthaben (issue 34.1).
pub async fn set_fee_from_account(
    conn: &mut SqliteConnection,
    year: i32,
    id: i64,
    from_account: bool,
) -> Result<(), DbError> {
    sqlx::query(
        "update season_players set fee_from_account = ? where season = ? and player_id = ?",
    )
    .bind(from_account)
    .bind(year)
    .bind(id)
    .execute(conn)
    .await?;
    Ok(())
}

/// Whether each statement entry of `keys` (the bank's reference, if any, and the entry's hash)
/// was booked before (issue 34.3, `statement_entries`): its reference is stored, or its hash is
/// stored where one of the two has no reference (the same transfer from a CSV export).
pub async fn statement_entries_known(
    conn: &mut SqliteConnection,
    keys: &[(Option<String>, String, NaiveDate, i64)],
) -> Result<Vec<bool>, DbError> {
    let mut known = Vec::with_capacity(keys.len());
    for (bank_ref, hash, date, cents) in keys {
        // A reference counts only with its day and amount: banks reuse them (NONREF, numbers
        // from 1 in each statement).
        let (n,): (i64,) = sqlx::query_as(
            "select count(*) from statement_entries
             where (?1 is not null and bank_ref = ?1 and date = ?3 and cents = ?4)
                or (hash = ?2 and (?1 is null or bank_ref is null))",
        )
        .bind(bank_ref)
        .bind(hash)
        .bind(date.to_string())
        .bind(cents)
        .fetch_one(&mut *conn)
        .await?;
        known.push(n > 0);
    }
    Ok(known)
}

/// Remembers a booked credit of a bank statement: season `year`, the bank's reference, its hash,
/// day, cents and the player it was booked for (`players.id`).
pub async fn add_statement_entry(
    conn: &mut SqliteConnection,
    year: i32,
    bank_ref: Option<&str>,
    hash: &str,
    date: NaiveDate,
    cents: i64,
    player_id: i64,
) -> Result<(), DbError> {
    sqlx::query(
        "insert into statement_entries (season, bank_ref, hash, date, cents, player_id)
         values (?, ?, ?, ?, ?, ?)",
    )
    .bind(year)
    .bind(bank_ref)
    .bind(hash)
    .bind(date)
    .bind(cents)
    .bind(player_id)
    .execute(conn)
    .await?;
    Ok(())
}

/// One *Geprüft* of a season's books by a Kassenprüfer (issue 35.3; table `kassenpruefungen`).
#[derive(Debug, Clone, PartialEq, Eq, FromRow)]
pub struct Pruefung {
    /// `kassenpruefungen.id` (increasing).
    pub id: i64,
    /// The season's year.
    pub season: i64,
    /// The Kassenprüfer's login name.
    pub username: String,
    /// The club's day he checked the books.
    pub day: NaiveDate,
    /// His note ("" without one; at most 500 characters).
    pub note: String,
    /// The club clock's instant of it (UTC, RFC 3339).
    pub created_at: String,
    /// The number of the last Beleg he saw (`None`: recorded before it was kept, or no Beleg).
    pub last_beleg: Option<i64>,
    /// The Endbestand he saw, cents (`None`: recorded before it was kept).
    pub end_cents: Option<i64>,
}

/// Stores a *Geprüft* of season `year` by `username` on the club's day `day` with `note`
/// (checked by the caller, ≤ 500 characters) at `created_at` (RFC 3339), having seen `seen` =
/// (last Beleg number, Endbestand in cents); returns its id.
/// Errors: no such season (foreign key), a note over 500 characters (CHECK).
pub async fn add_pruefung(
    conn: &mut SqliteConnection,
    year: i32,
    username: &str,
    day: NaiveDate,
    note: &str,
    created_at: &str,
    seen: (i64, i64),
) -> Result<i64, DbError> {
    let done = sqlx::query(
        "insert into kassenpruefungen (season, username, day, note, created_at, last_beleg,
             end_cents) values (?, ?, ?, ?, ?, ?, ?)",
    )
    .bind(year)
    .bind(username)
    .bind(day)
    .bind(note)
    .bind(created_at)
    .bind(seen.0)
    .bind(seen.1)
    .execute(conn)
    .await?;
    Ok(done.last_insert_rowid())
}

/// [`pruefungen_of_season`] on a connection (inside a transaction).
pub async fn pruefungen_of(
    conn: &mut SqliteConnection,
    year: i32,
) -> Result<Vec<Pruefung>, DbError> {
    Ok(sqlx::query_as(
        "select id, season, username, day, note, created_at, last_beleg, end_cents
         from kassenpruefungen where season = ? order by id",
    )
    .bind(year)
    .fetch_all(conn)
    .await?)
}

/// The *Geprüft*s of season `year`, oldest first.
pub async fn pruefungen_of_season(pool: &SqlitePool, year: i32) -> Result<Vec<Pruefung>, DbError> {
    let mut conn = pool.acquire().await?;
    pruefungen_of(&mut conn, year).await
}
