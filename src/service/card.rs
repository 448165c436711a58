//! Each player's own card (issue 27, SECURITY.md "Player cards"): a capability link per player,
//! `/karte/{token}`, made by the Verwaltung or `schockerliga player link NAME`, showing only him
//! (his open fines and Jahresbeitrag, what he paid, the GiroCode for his open sum, his next night
//! and answer, his place), also while the Kasse is members-only. The token is 32 random bytes
//! (256 bits) shown once; only its SHA-256 is stored; a new link revokes the player's older one,
//! `--revoke` (or the Verwaltung) revokes it. The Kassenwart's "Erinnern" keeps the player's
//! working link (the text then names none: the old token cannot be shown again) and makes a new
//! one for the text only when he has none or the Kassenwart asks for it; it records "erinnert am".

use chrono::NaiveDate;
use serde_json::json;

use super::accounts::{token_hash, MAX_CREDENTIAL_CHARS};
use super::{League, ServiceError};
use crate::auth;
use crate::db::{self, card::ReminderRow, Db};
use crate::league::model::format::{date_de, format_cents};
use crate::league::money::items;

pub mod reports;

/// The latest day to pay by a reminder may name, in days from today (hostile trial: "bis zum
/// 31.12.9999").
pub const MAX_DUE_DAYS: i64 = 366;

/// A card link that works: whose card it is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CardLink {
    /// `card_links.id`.
    pub id: i64,
    /// `players.id` of the card's player.
    pub player_id: i64,
    /// His name.
    pub player: String,
}

/// A working card link as the Verwaltung lists it: whose, by whom, since when.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CardStatus {
    /// `players.id`.
    pub player_id: i64,
    /// The login name that made it (`cli` from the command line).
    pub created_by: String,
    /// When (RFC 3339, UTC).
    pub created_at: String,
}

/// A reminder made: the new card link's token (shown once), if one was made, and what the text
/// names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reminder {
    /// The token of the player's new card link (64 hex digits), not stored; `None` when his
    /// working link stays (the text then names no link: only its hash is kept).
    pub token: Option<String>,
    /// The player.
    pub player: String,
    /// His open items on the day: (label, cents), oldest first.
    pub items: Vec<(String, i64)>,
    /// Σ open, cents.
    pub open_cents: i64,
    /// Pay by.
    pub due: NaiveDate,
}

/// The path a card link opens: `/karte/{token}`.
pub fn card_path(token: &str) -> String {
    format!("/karte/{token}")
}

/// The player called `name` (as typed: trimmed, any case) of the league: (id, name). `NotFound`
/// (German) without one.
async fn player_named(db: &Db, name: &str) -> Result<(i64, String), ServiceError> {
    let wanted = crate::league::normalize_name(name);
    let mut conn = db.read.acquire().await?;
    if let Some(p) = db::player::by_name(&mut conn, &wanted).await? {
        return Ok(p);
    }
    let key = crate::league::name_key(&wanted);
    db::player::all(&mut conn)
        .await?
        .into_iter()
        .find(|(_, n)| crate::league::name_key(n) == key)
        .ok_or_else(|| ServiceError::NotFound(format!("Spieler „{wanted}“ gibt es nicht")))
}

/// Makes the card link of player `player_id` by `author` at `at` (RFC 3339) in `tx` (the older
/// link stops working), audited; returns its token.
async fn new_link(
    tx: &mut db::WriteTx,
    player_id: i64,
    name: &str,
    author: &str,
    at: &str,
) -> Result<String, ServiceError> {
    let token = auth::random_token();
    let id = db::card::create(tx, player_id, &token_hash(&token), author, at).await?;
    db::audit::record(
        tx,
        author,
        &format!("Karte für {name} erstellt (ein älterer Link gilt nicht mehr)"),
        None,
        Some(&json!({ "player": name, "card_link": id })),
    )
    .await?;
    Ok(token)
}

/// Makes the card link of player `name` by `author` (audited; his older link stops working) and
/// returns (his name as stored, the token), which is not stored and cannot be shown again.
/// `NotFound` (German) without the player.
pub async fn create_link(
    db: &Db,
    name: &str,
    author: &str,
    at: &str,
) -> Result<(String, String), ServiceError> {
    let (id, name) = player_named(db, name).await?;
    let mut tx = db.begin_write_as(author).await?;
    let token = new_link(&mut tx, id, &name, author, at).await?;
    tx.commit().await?;
    Ok((name, token))
}

/// Revokes the card link of player `name` by `author` (audited); returns (his name, whether one
/// worked). `NotFound` without the player.
pub async fn revoke_link(
    db: &Db,
    name: &str,
    author: &str,
) -> Result<(String, bool), ServiceError> {
    let (id, name) = player_named(db, name).await?;
    let mut tx = db.begin_write_as(author).await?;
    let n = db::card::revoke(&mut tx, id).await?;
    if n > 0 {
        db::audit::record(
            &mut tx,
            author,
            &format!("Karte von {name} widerrufen"),
            Some(&json!({ "player": name, "active": true })),
            Some(&json!({ "player": name, "active": false })),
        )
        .await?;
    }
    tx.commit().await?;
    Ok((name, n > 0))
}

/// The card of `token` while it works (not revoked, not replaced); `None` otherwise, also for a
/// token of the wrong shape.
pub async fn link(db: &Db, token: &str) -> Result<Option<CardLink>, ServiceError> {
    if token.is_empty() || token.len() > MAX_CREDENTIAL_CHARS {
        return Ok(None);
    }
    let Some(row) = db::card::by_hash(&db.read, &token_hash(token)).await? else {
        return Ok(None);
    };
    if row.revoked {
        return Ok(None);
    }
    Ok(Some(CardLink {
        id: row.id,
        player_id: row.player_id,
        player: row.name,
    }))
}

/// The card links as methods of the league, for the web (which names no part of the db layer).
impl League {
    /// Carries the whole Guthaben of `player` in season `year` to his season `year + 1` on `on`
    /// (issue 34.1): "Guthaben übertragen" in `year`, brought in (and paying his open items
    /// there, [`items::allocate`]) in the next, both in one transaction. Refused (German,
    /// nothing stored) without Guthaben, without a next season, when he does not play in it, or
    /// when the next season changed meanwhile. Returns the Guthaben carried, cents.
    pub async fn carry_credit(
        &self,
        year: i32,
        player: &str,
        on: NaiveDate,
        edit: &super::Edit,
    ) -> Result<i64, ServiceError> {
        let snapshot = self.snapshot();
        let here = snapshot.season(year)?;
        let cents = here.season.credit_cents(player);
        if cents <= 0 {
            return Err(ServiceError::refused(format!(
                "{player} hat in der Saison {year} kein Guthaben."
            )));
        }
        let next = year + 1;
        let Ok(there) = snapshot.season(next) else {
            return Err(ServiceError::refused(format!(
                "Die Saison {next} gibt es noch nicht: erst anlegen, dann das Guthaben übertragen \
                 (oder auszahlen)."
            )));
        };
        let carry = crate::league::Change::CarryCreditIn {
            player: player.to_string(),
            cents,
            on,
        };
        // Checked on the next season first; stored in the transaction of this season's change.
        let after = there.season.apply(&carry)?;
        let out = crate::league::Change::SettleCredit {
            player: player.to_string(),
            on,
            carried: true,
        };
        let (before, mut ids, version) = (there.season.clone(), there.ids.clone(), there.version);
        let then: super::write::Then = Box::new(move |tx| {
            Box::pin(async move {
                if db::version::of_season(&mut *tx, next).await? != Some(version) {
                    return Err(ServiceError::refused(format!(
                        "Die Saison {next} wurde inzwischen geändert: bitte noch einmal versuchen."
                    )));
                }
                db::change::store(&mut *tx, next, &carry, &before, &after, &mut ids).await?;
                Ok(())
            })
        });
        self.changes_then(year, std::slice::from_ref(&out), edit, then)
            .await?;
        // The next season was written in the same transaction: read it into the snapshot.
        self.refresh().await?;
        Ok(cents)
    }

    /// The working card of `token` ([`link`]); `None` when unknown, revoked or replaced.
    pub async fn card_link(&self, token: &str) -> Result<Option<CardLink>, ServiceError> {
        link(self.db(), token).await
    }

    /// Makes the card link of player `player_id` by `author` ([`create_link`]): (his name, the
    /// token).
    pub async fn create_card_link(
        &self,
        player_id: i64,
        author: &str,
    ) -> Result<(String, String), ServiceError> {
        let name = self.player_by_id(player_id).await?;
        let at = crate::db::planned::stamp(self.clock().now());
        create_link(self.db(), &name, author, &at).await
    }

    /// Revokes the card link of player `player_id` by `author` ([`revoke_link`]): whether one
    /// worked.
    pub async fn revoke_card_link(
        &self,
        player_id: i64,
        author: &str,
    ) -> Result<bool, ServiceError> {
        let name = self.player_by_id(player_id).await?;
        Ok(revoke_link(self.db(), &name, author).await?.1)
    }

    /// Makes the card link of the player named `name` (case ignored) by `author`, stamped by
    /// the club's clock ([`create_link`]): (his name as stored, the token). `NotFound` (German)
    /// without the player.
    pub async fn create_card_link_named(
        &self,
        name: &str,
        author: &str,
    ) -> Result<(String, String), ServiceError> {
        let at = db::planned::stamp(self.clock().now());
        create_link(self.db(), name, author, &at).await
    }

    /// Revokes the card link of the player named `name` by `author` ([`revoke_link`]): (his
    /// name as stored, whether one worked). `NotFound` (German) without the player.
    pub async fn revoke_card_link_named(
        &self,
        name: &str,
        author: &str,
    ) -> Result<(String, bool), ServiceError> {
        revoke_link(self.db(), name, author).await
    }

    /// Every working card link: whose, by whom, since when.
    pub async fn card_links(&self) -> Result<Vec<CardStatus>, ServiceError> {
        Ok(db::card::active(&self.db().read)
            .await?
            .into_iter()
            .map(|r| CardStatus {
                player_id: r.player_id,
                created_by: r.created_by,
                created_at: r.created_at,
            })
            .collect())
    }

    /// The name of player `id` of the league; `NotFound` (German) without him.
    async fn player_by_id(&self, id: i64) -> Result<String, ServiceError> {
        let mut conn = self.db().read.acquire().await?;
        db::player::by_id(&mut conn, id)
            .await?
            .map(|(_, n)| n)
            .ok_or_else(|| ServiceError::NotFound(format!("Spieler Nr. {id}")))
    }

    /// The Kassenwart's reminder of player `player_id` of season `year` by `author` ("Erinnern"):
    /// his open items today (league.md §5, §6: what his card shows as open), pay by `due`; his
    /// working card link stays (issue 31.7: the link he saved keeps working), a new one is made
    /// for the text only when he has none or `renew` asks for it (his older one then stops
    /// working: only its hash is kept); records "erinnert am" (today) in one transaction,
    /// audited. Refused (German): nothing open, a due date before today or more than
    /// [`MAX_DUE_DAYS`] ahead, not a player of the season.
    pub async fn remind(
        &self,
        year: i32,
        player_id: i64,
        due: NaiveDate,
        renew: bool,
        author: &str,
    ) -> Result<Reminder, ServiceError> {
        let today = self.today();
        let snapshot = self.snapshot();
        let view = snapshot.season(year)?;
        let name = view
            .player_name(player_id)
            .ok_or_else(|| {
                ServiceError::refused(format!("Spieler Nr. {player_id} spielt nicht in {year}."))
            })?
            .to_string();
        let account = items::account(&view.season, &name, today).ok_or_else(|| {
            ServiceError::refused(format!("{name} spielt nicht in der Saison {year}."))
        })?;
        if account.open_cents <= 0 {
            return Err(ServiceError::refused(format!(
                "{name} hat in der Saison {year} nichts offen: keine Erinnerung nötig."
            )));
        }
        if due < today {
            return Err(ServiceError::refused(format!(
                "Zahlbar bis: der {} ist schon vorbei.",
                date_de(due)
            )));
        }
        if due > today + chrono::Duration::days(MAX_DUE_DAYS) {
            return Err(ServiceError::refused(format!(
                "Zahlbar bis: der {} liegt mehr als ein Jahr voraus.",
                date_de(due)
            )));
        }
        let at = crate::db::planned::stamp(self.clock().now());
        let mut tx = self.db().begin_write_as(author).await?;
        let token = match renew || !db::card::has_active(&mut tx, player_id).await? {
            true => Some(new_link(&mut tx, player_id, &name, author, &at).await?),
            false => None,
        };
        let row = ReminderRow {
            player_id,
            open_cents: account.open_cents,
            due_on: due,
            reminded_on: today,
            created_by: author.to_string(),
        };
        db::card::remind(&mut tx, year, &row, &at).await?;
        db::audit::record(
            &mut tx,
            author,
            &format!(
                "{name} an {} erinnert (bis {}; {})",
                format_cents(account.open_cents),
                date_de(due),
                match token {
                    Some(_) => "mit neuem Kartenlink",
                    None => "sein Kartenlink gilt weiter",
                }
            ),
            None,
            Some(
                &json!({ "player": name, "season": year, "open_cents": account.open_cents,
                          "due_on": due }),
            ),
        )
        .await?;
        tx.commit().await?;
        Ok(Reminder {
            token,
            player: name,
            items: account
                .open
                .iter()
                .map(|i| (i.label.clone(), i.cents))
                .collect(),
            open_cents: account.open_cents,
            due,
        })
    }

    /// The last reminder of each player of season `year`: (player id, "erinnert am", due date,
    /// open sum in cents), by player id.
    pub async fn reminders(
        &self,
        year: i32,
    ) -> Result<Vec<(i64, NaiveDate, NaiveDate, i64)>, ServiceError> {
        Ok(db::card::last_reminders(&self.db().read, year)
            .await?
            .into_iter()
            .map(|r| (r.player_id, r.reminded_on, r.due_on, r.open_cents))
            .collect())
    }
}
