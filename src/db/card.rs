//! Each player's own card (issue 27, SECURITY.md "Player cards"): the SHA-256 of a random token
//! per player (a new one revokes the older ones; revoked links stay for the record), and the
//! Kassenwart's reminders ("erinnert am").

use chrono::NaiveDate;
use sqlx::{FromRow, SqliteConnection, SqlitePool};

use super::DbError;

/// A stored card link with its player.
#[derive(Debug, Clone, FromRow, PartialEq, Eq)]
pub struct CardLinkRow {
    /// `card_links.id`.
    pub id: i64,
    /// `players.id`.
    pub player_id: i64,
    /// The player's name.
    pub name: String,
    /// The login name that made it (`cli` from the command line).
    pub created_by: String,
    /// When (RFC 3339, UTC).
    pub created_at: String,
    /// Revoked (a newer link of the player, or by hand).
    pub revoked: bool,
}

const SELECT: &str = "select l.id, l.player_id, p.name, l.created_by, l.created_at, l.revoked
    from card_links l join players p on p.id = l.player_id";

/// Stores a new card link of player `player_id` with `token_hash`, made by `author` at `at`
/// (RFC 3339); every older link of the player is revoked. Returns its id.
pub async fn create(
    conn: &mut SqliteConnection,
    player_id: i64,
    token_hash: &str,
    author: &str,
    at: &str,
) -> Result<i64, DbError> {
    revoke(&mut *conn, player_id).await?;
    let (id,): (i64,) = sqlx::query_as(
        "insert into card_links (player_id, token_hash, created_by, created_at)
         values (?, ?, ?, ?) returning id",
    )
    .bind(player_id)
    .bind(token_hash)
    .bind(author)
    .bind(at)
    .fetch_one(conn)
    .await?;
    Ok(id)
}

/// Revokes every link of player `player_id`; returns how many were active.
pub async fn revoke(conn: &mut SqliteConnection, player_id: i64) -> Result<u64, DbError> {
    let done = sqlx::query("update card_links set revoked = 1 where player_id = ? and revoked = 0")
        .bind(player_id)
        .execute(conn)
        .await?;
    Ok(done.rows_affected())
}

/// The link with `token_hash` (revoked or not), with its player.
pub async fn by_hash(pool: &SqlitePool, token_hash: &str) -> Result<Option<CardLinkRow>, DbError> {
    Ok(sqlx::query_as(&format!("{SELECT} where l.token_hash = ?"))
        .bind(token_hash)
        .fetch_optional(pool)
        .await?)
}

/// True when player `player_id` has a working (not revoked) link.
pub async fn has_active(conn: &mut SqliteConnection, player_id: i64) -> Result<bool, DbError> {
    let (n,): (i64,) =
        sqlx::query_as("select count(*) from card_links where player_id = ? and revoked = 0")
            .bind(player_id)
            .fetch_one(conn)
            .await?;
    Ok(n > 0)
}

/// Every working (not revoked) link, by player name.
pub async fn active(pool: &SqlitePool) -> Result<Vec<CardLinkRow>, DbError> {
    Ok(
        sqlx::query_as(&format!("{SELECT} where l.revoked = 0 order by p.name"))
            .fetch_all(pool)
            .await?,
    )
}

/// A reminder as stored.
#[derive(Debug, Clone, FromRow, PartialEq, Eq)]
pub struct ReminderRow {
    /// `players.id`.
    pub player_id: i64,
    /// The open sum the text named, cents.
    pub open_cents: i64,
    /// The due date the text named.
    pub due_on: NaiveDate,
    /// The club's day it was sent ("erinnert am").
    pub reminded_on: NaiveDate,
    /// Who sent it.
    pub created_by: String,
}

/// Stores a reminder of player `player_id` for season `season`.
pub async fn remind(
    conn: &mut SqliteConnection,
    season: i32,
    r: &ReminderRow,
    at: &str,
) -> Result<(), DbError> {
    sqlx::query(
        "insert into reminders (player_id, season, open_cents, due_on, reminded_on, created_by,
             created_at) values (?, ?, ?, ?, ?, ?, ?)",
    )
    .bind(r.player_id)
    .bind(season)
    .bind(r.open_cents)
    .bind(r.due_on)
    .bind(r.reminded_on)
    .bind(&r.created_by)
    .bind(at)
    .execute(conn)
    .await?;
    Ok(())
}

/// The last reminder of each player of season `season`.
pub async fn last_reminders(pool: &SqlitePool, season: i32) -> Result<Vec<ReminderRow>, DbError> {
    Ok(sqlx::query_as(
        "select player_id, open_cents, due_on, reminded_on, created_by from reminders r
         where season = ? and id = (select max(id) from reminders x
             where x.season = r.season and x.player_id = r.player_id)
         order by player_id",
    )
    .bind(season)
    .fetch_all(pool)
    .await?)
}

/// A payment report from a player's card ("Ich habe bezahlt", issue 34.4) as stored.
#[derive(Debug, Clone, FromRow, PartialEq, Eq)]
pub struct PaymentReportRow {
    /// `payment_reports.id`.
    pub id: i64,
    /// The season it is for.
    pub season: i32,
    /// `players.id`.
    pub player_id: i64,
    /// The player's name.
    pub name: String,
    /// The amount he reported, cents (1 to 100,000).
    pub cents: i64,
    /// How he paid: `ueberweisung`, `paypal` or `bar`.
    pub how: String,
    /// The club's day he reported it.
    pub reported_on: NaiveDate,
    /// `open`, `gebucht` or `nicht_gefunden`.
    pub state: String,
    /// Who decided it (a login name; `None` while open).
    pub decided_by: Option<String>,
    /// The club's day it was decided (`None` while open).
    pub decided_on: Option<NaiveDate>,
}

const REPORTS: &str = "select r.id, r.season, r.player_id, p.name, r.cents, r.how, r.reported_on,
    r.state, r.decided_by, r.decided_on from payment_reports r join players p on p.id = r.player_id";

/// How many open reports player `player_id` has, in every season.
pub async fn open_reports(conn: &mut SqliteConnection, player_id: i64) -> Result<i64, DbError> {
    let (n,): (i64,) = sqlx::query_as(
        "select count(*) from payment_reports where player_id = ? and state = 'open'",
    )
    .bind(player_id)
    .fetch_one(conn)
    .await?;
    Ok(n)
}

/// Stores an open report of player `player_id` for season `season`: `cents` (1 to 100,000) paid
/// `how` (`ueberweisung`, `paypal`, `bar`), reported on the club's day `on`. Returns its id.
pub async fn report_payment(
    conn: &mut SqliteConnection,
    season: i32,
    player_id: i64,
    cents: i64,
    how: &str,
    on: NaiveDate,
) -> Result<i64, DbError> {
    let (id,): (i64,) = sqlx::query_as(
        "insert into payment_reports (season, player_id, cents, how, reported_on)
         values (?, ?, ?, ?, ?) returning id",
    )
    .bind(season)
    .bind(player_id)
    .bind(cents)
    .bind(how)
    .bind(on)
    .fetch_one(conn)
    .await?;
    Ok(id)
}

/// The report `id`, whatever its state; `None` when there is none.
pub async fn report(
    conn: &mut SqliteConnection,
    id: i64,
) -> Result<Option<PaymentReportRow>, DbError> {
    Ok(sqlx::query_as(&format!("{REPORTS} where r.id = ?"))
        .bind(id)
        .fetch_optional(conn)
        .await?)
}

/// The open reports of season `season`, oldest first (the Kassenwart's Zahlungen page).
pub async fn open_reports_of_season(
    pool: &SqlitePool,
    season: i32,
) -> Result<Vec<PaymentReportRow>, DbError> {
    Ok(sqlx::query_as(&format!(
        "{REPORTS} where r.season = ? and r.state = 'open' order by r.id"
    ))
    .bind(season)
    .fetch_all(pool)
    .await?)
}

/// The last `limit` reports of player `player_id` in any season and state, newest first (his
/// card).
pub async fn reports_of_player(
    pool: &SqlitePool,
    player_id: i64,
    limit: i64,
) -> Result<Vec<PaymentReportRow>, DbError> {
    Ok(sqlx::query_as(&format!(
        "{REPORTS} where r.player_id = ? order by r.id desc limit ?"
    ))
    .bind(player_id)
    .bind(limit)
    .fetch_all(pool)
    .await?)
}

/// Decides the open report `id`: `state` `gebucht` or `nicht_gefunden`, by the transaction's
/// author (`audit_actor`) on the club's day `on`. Returns false when it was not open (decided
/// meanwhile) or is not there.
pub async fn decide_report(
    conn: &mut SqliteConnection,
    id: i64,
    state: &str,
    on: NaiveDate,
) -> Result<bool, DbError> {
    let done = sqlx::query(
        "update payment_reports set state = ?, decided_on = ?,
             decided_by = coalesce((select user from audit_actor where id = 1), '?')
         where id = ? and state = 'open'",
    )
    .bind(state)
    .bind(on)
    .bind(id)
    .execute(conn)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// "A later statement match settles it" (issue 34.4): marks the oldest open report of player
/// `player_id` in season `season` over exactly `cents` as `gebucht`, by the transaction's author
/// (`audit_actor`) on the club's day `on`. Call it inside the transaction that books a payment of
/// that player and amount (the Zahlungen page does, through `League::book_payment`; the bank
/// statement's booking should too). Returns the settled report's id, `None` when no open report
/// matches (then nothing changes).
pub async fn settle_open_report(
    conn: &mut SqliteConnection,
    season: i32,
    player_id: i64,
    cents: i64,
    on: NaiveDate,
) -> Result<Option<i64>, DbError> {
    let oldest: Option<(i64,)> = sqlx::query_as(
        "select id from payment_reports
         where season = ? and player_id = ? and cents = ? and state = 'open'
         order by reported_on, id limit 1",
    )
    .bind(season)
    .bind(player_id)
    .bind(cents)
    .fetch_optional(&mut *conn)
    .await?;
    let Some((id,)) = oldest else {
        return Ok(None);
    };
    decide_report(conn, id, "gebucht", on).await?;
    Ok(Some(id))
}
