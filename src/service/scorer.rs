//! Scorer links (issue 11.2, SECURITY.md "Scorer links"): the secretary (or the command line)
//! makes a link per table of a night; its holder, without an account, enters and corrects that
//! table's rounds on that night only, until the night is closed (which revokes every link of it:
//! reopening revives none) or the link is revoked. The token
//! is 32 random bytes (256 bits) shown once; only its SHA-256 is stored. The audit log names the
//! holder as "Tisch 2 (Link von anna)".

use chrono::NaiveDate;
use serde_json::json;

use super::accounts::{token_hash, MAX_CREDENTIAL_CHARS};
use super::ServiceError;
use crate::auth;
use crate::db::{self, Db};

/// A scorer link that works: the night and table it writes and who made it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ScorerLink {
    /// `scorer_links.id`.
    pub id: i64,
    /// The night's date.
    pub date: NaiveDate,
    /// The table it writes, 1 or 2.
    pub table: u32,
    /// The login name that made it (`cli` from the command line).
    pub created_by: String,
}

impl ScorerLink {
    /// The author its changes are audited under: "Tisch 2 (Link von anna)".
    pub fn author(&self) -> String {
        format!("Tisch {} (Link von {})", self.table, self.created_by)
    }
}

/// German date: "09.01.2026".
fn de(d: NaiveDate) -> String {
    d.format("%d.%m.%Y").to_string()
}

/// The German refusal of rounds for the night on `date`, which is recorded as totals per
/// player (interchange.md "Spreadsheet of night totals"): neither a scorer link nor a Runde of
/// the Schockbesteck.
pub fn totals_night(date: NaiveDate) -> ServiceError {
    ServiceError::refused(format!(
        "Abend {}: der Abend ist als Summen je Spieler eingetragen; ein Abend in Summen nimmt \
         keine Runden (kein Link zum Schreiben, kein Schockbesteck).",
        de(date)
    ))
}

/// The night on `date` as stored; `NotFound` (German) without one.
async fn night(db: &Db, date: NaiveDate) -> Result<db::night::Night, ServiceError> {
    let mut conn = db.read.acquire().await?;
    db::night::by_date(&mut conn, date)
        .await?
        .ok_or_else(|| ServiceError::NotFound(format!("Spielabend am {}", de(date))))
}

/// Makes the scorer link of `table` (1 or 2) at the night on `date` by `author` (audited; an
/// older link of that table stops working) and returns its token (64 hex digits), which is not
/// stored and cannot be shown again. Refused (German) for another table, a closed night or one
/// recorded as totals ([`totals_night`]);
/// `NotFound` without the night.
pub async fn create_link(
    db: &Db,
    date: NaiveDate,
    table: u32,
    author: &str,
) -> Result<String, ServiceError> {
    if !(1..=2).contains(&table) {
        return Err(ServiceError::refused(format!(
            "Tisch {table} gibt es nicht (nur Tisch 1 und 2)."
        )));
    }
    let night = night(db, date).await?;
    let token = auth::random_token();
    let mut tx = db.begin_write_as(author).await?;
    if db::closing::is_closed(&mut tx, night.id).await? == Some(true) {
        return Err(ServiceError::refused(format!(
            "Abend {}: der Abend ist abgeschlossen, ein Link zum Schreiben geht nicht mehr.",
            de(date)
        )));
    }
    if db::night::has_totals(&mut tx, night.id).await? {
        return Err(totals_night(date));
    }
    let id = db::scorer::create(&mut tx, night.id, table, &token_hash(&token), author).await?;
    db::audit::record(
        &mut tx,
        author,
        &format!(
            "Link zum Schreiben für Tisch {table} am {} erstellt",
            de(date)
        ),
        None,
        Some(&json!({ "night": date, "table": table, "link": id })),
    )
    .await?;
    tx.commit().await?;
    Ok(token)
}

/// Revokes the scorer link of `table` at the night on `date` by `author` (audited); returns
/// whether one was active. `NotFound` without the night.
pub async fn revoke_link(
    db: &Db,
    date: NaiveDate,
    table: u32,
    author: &str,
) -> Result<bool, ServiceError> {
    let night = night(db, date).await?;
    let mut tx = db.begin_write_as(author).await?;
    let n = db::scorer::revoke(&mut tx, night.id, table).await?;
    if n > 0 {
        db::audit::record(
            &mut tx,
            author,
            &format!(
                "Link zum Schreiben für Tisch {table} am {} widerrufen",
                de(date)
            ),
            Some(&json!({ "night": date, "table": table, "active": true })),
            Some(&json!({ "night": date, "table": table, "active": false })),
        )
        .await?;
    }
    tx.commit().await?;
    Ok(n > 0)
}

/// The link of `token` while it works (not revoked, its night not closed; closing a night revokes
/// its links, so a reopened night has none that work); `None` otherwise, also for a token of the
/// wrong shape.
pub async fn link(db: &Db, token: &str) -> Result<Option<ScorerLink>, ServiceError> {
    if token.is_empty() || token.len() > MAX_CREDENTIAL_CHARS {
        return Ok(None);
    }
    let Some(row) = db::scorer::by_hash(&db.read, &token_hash(token)).await? else {
        return Ok(None);
    };
    if row.revoked || row.closed {
        return Ok(None);
    }
    Ok(Some(ScorerLink {
        id: row.id,
        date: row.date,
        table: u32::try_from(row.table_no).unwrap_or(0),
        created_by: row.created_by,
    }))
}

/// The path a scorer link opens: `/tisch/{token}/{date}/{table}`.
pub fn link_path(token: &str, date: NaiveDate, table: u32) -> String {
    format!("/tisch/{token}/{date}/{table}")
}

/// The tables of night `night_id` with a working link, and who made each: (table, login name),
/// by table. Empty for a closed night (its links no longer work).
pub async fn active_links(db: &Db, night_id: i64) -> Result<Vec<(u32, String)>, ServiceError> {
    Ok(db::scorer::active(&db.read, night_id)
        .await?
        .into_iter()
        .filter(|l| !l.closed)
        .map(|l| (u32::try_from(l.table_no).unwrap_or(0), l.created_by))
        .collect())
}

/// The scorer links as methods of the league, for the web (which names no part of the db layer);
/// each does what the function of the same name above does, on the league's database.
impl super::League {
    /// The working link of `token` ([`link`]); `None` when unknown, revoked or closed.
    pub async fn scorer_link(&self, token: &str) -> Result<Option<ScorerLink>, ServiceError> {
        link(self.db(), token).await
    }

    /// Makes the link of `table` at the night on `date` by `author` ([`create_link`]): its token.
    pub async fn create_scorer_link(
        &self,
        date: NaiveDate,
        table: u32,
        author: &str,
    ) -> Result<String, ServiceError> {
        create_link(self.db(), date, table, author).await
    }

    /// Revokes the link of `table` at the night on `date` by `author` ([`revoke_link`]): whether
    /// one worked.
    pub async fn revoke_scorer_link(
        &self,
        date: NaiveDate,
        table: u32,
        author: &str,
    ) -> Result<bool, ServiceError> {
        revoke_link(self.db(), date, table, author).await
    }

    /// The tables of night `night_id` with a working link and who made each ([`active_links`]).
    pub async fn active_scorer_links(
        &self,
        night_id: i64,
    ) -> Result<Vec<(u32, String)>, ServiceError> {
        active_links(self.db(), night_id).await
    }
}
