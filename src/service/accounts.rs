//! Accounts (roles admin, secretary and kassenwart; SECURITY.md "Access"): one way to create an
//! account for the command line, the first-start setup page and the admin's accounts page;
//! disabling and enabling; checking a login; the one-time setup token; changing one's own password
//! and the one-time reset links (SECURITY.md "Accounts").

use serde_json::json;

use super::ServiceError;
use crate::auth::{self, Role};
use crate::db::{self, user::User, Db};
use crate::league::model::names::{login_key, look_alike_key};

/// The longest login name or password looked at when logging in; longer input fails like a wrong
/// password (argon2 would otherwise hash megabytes).
pub const MAX_CREDENTIAL_CHARS: usize = 200;

/// Creates the account `username` (trimmed) with `password` and `role`, by `author` (audited).
/// `password2` is the repeat field of a form (`None` on the command line). The first account also
/// ends the setup link. Returns the new account's id. Refused (German) for a name or password that
/// [`auth::check_new_account`] refuses or a name that is taken.
pub async fn create(
    db: &Db,
    username: &str,
    password: &str,
    password2: Option<&str>,
    role: Role,
    author: &str,
) -> Result<i64, ServiceError> {
    insert(db, username, password, password2, role, author, false).await
}

/// [`create`]; with `first_only`, `NotFound` when any account exists (checked in the transaction).
async fn insert(
    db: &Db,
    username: &str,
    password: &str,
    password2: Option<&str>,
    role: Role,
    author: &str,
    first_only: bool,
) -> Result<i64, ServiceError> {
    let username = username.trim();
    auth::check_new_account(username, password, password2).map_err(ServiceError::refused)?;
    let hash = auth::hash_password(password.to_string())
        .await
        .map_err(|e| ServiceError::Corrupt(e.to_string()))?;
    let mut tx = db.begin_write_as(author).await?;
    if first_only && db::user::count_conn(&mut tx).await? > 0 {
        return Err(ServiceError::NotFound("Einrichtungslink".into()));
    }
    if db::user::by_username_conn(&mut tx, username)
        .await?
        .is_some()
    {
        return Err(ServiceError::refused(format!(
            "Ein Konto \"{username}\" gibt es schon."
        )));
    }
    // Login names count without case (a phone capitalises the first letter) and without look-alike
    // forms (fullwidth „Ａdmin“): one account per login key. Nor may a name look like another's
    // (Unicode TS #39 skeleton: „аdmin“ with a Cyrillic а, „AdmIn“ with a capital I for l).
    let key = login_key(username);
    let looks = look_alike_key(username);
    if let Some(twin) = db::user::list_conn(&mut tx)
        .await?
        .into_iter()
        .find(|u| login_key(&u.username) == key || look_alike_key(&u.username) == looks)
    {
        return Err(ServiceError::refused(format!(
            "Ein Konto \"{}\" gibt es schon (Groß-/Kleinschreibung und gleich aussehende \
             Zeichen zählen beim Anmelden nicht).",
            twin.username
        )));
    }
    let id = db::user::create(&mut tx, username, &hash, role.as_str()).await?;
    db::user::clear_setup_token(&mut tx).await?;
    db::audit::record(
        &mut tx,
        author,
        &format!("Konto {username} angelegt"),
        None,
        Some(&json!({ "id": id, "username": username, "role": role.as_str() })),
    )
    .await?;
    tx.commit().await?;
    Ok(id)
}

/// True when `token` is the stored setup token (compared in constant time over its length).
pub async fn setup_token_valid(db: &Db, token: &str) -> Result<bool, ServiceError> {
    let Some(stored) = db::user::setup_token(&db.read).await? else {
        return Ok(false);
    };
    let (a, b) = (stored.as_bytes(), token.as_bytes());
    Ok(a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0)
}

/// The setup token to print at start when no account exists (created once, reused after a
/// restart); `None` when an account exists.
pub async fn setup_token(db: &Db) -> Result<Option<String>, ServiceError> {
    if db::user::count(&db.write).await? > 0 {
        return Ok(None);
    }
    match db::user::setup_token(&db.write).await? {
        Some(t) => Ok(Some(t)),
        None => {
            let t = auth::random_token();
            db::user::set_setup_token(&db.write, &t).await?;
            Ok(Some(t))
        }
    }
}

/// Creates the first admin through the setup link `token`: `NotFound` when the token is wrong or an
/// account exists already; else like [`create`] (the admin is his own author).
pub async fn create_first_admin(
    db: &Db,
    token: &str,
    username: &str,
    password: &str,
    password2: &str,
) -> Result<i64, ServiceError> {
    if !setup_token_valid(db, token).await? {
        return Err(ServiceError::NotFound("Einrichtungslink".into()));
    }
    let username = username.trim();
    insert(
        db,
        username,
        password,
        Some(password2),
        Role::Admin,
        username,
        true,
    )
    .await
}

/// The account of a login: the enabled account `username` (trimmed; case and look-alike forms do
/// not count, [`login_key`]: "Anna" logs in as "anna") whose password is `password`; `None` otherwise. An unknown name takes as
/// long as a wrong password (a dummy hash is checked).
pub async fn authenticate(
    db: &Db,
    username: &str,
    password: &str,
) -> Result<Option<User>, ServiceError> {
    let name = username.trim();
    let sane = name.chars().count() <= MAX_CREDENTIAL_CHARS
        && password.chars().count() <= MAX_CREDENTIAL_CHARS;
    let user = if sane {
        match db::user::by_username(&db.read, name).await? {
            Some(u) => Some(u),
            None => {
                let key = login_key(name);
                db::user::list(&db.read)
                    .await?
                    .into_iter()
                    .find(|u| login_key(&u.username) == key)
            }
        }
    } else {
        None
    };
    let hash = user.as_ref().map(|u| u.password_hash.clone());
    let password = if sane {
        password.to_string()
    } else {
        String::new()
    };
    let ok = auth::verify_password(password, hash)
        .await
        .map_err(|e| ServiceError::Corrupt(e.to_string()))?;
    Ok(user.filter(|u| ok && !u.disabled))
}

/// Every account, by name.
pub async fn list(db: &Db) -> Result<Vec<User>, ServiceError> {
    Ok(db::user::list(&db.read).await?)
}

/// Disables (`true`) or enables account `id`, by admin `me` (id and name; audited). An admin
/// cannot disable himself (the last admin would lock the club out). Refused (German) or `NotFound`.
pub async fn set_disabled(
    db: &Db,
    me: (i64, &str),
    id: i64,
    disabled: bool,
) -> Result<(), ServiceError> {
    if disabled && id == me.0 {
        return Err(ServiceError::refused(
            "Das eigene Konto kann nicht gesperrt werden.",
        ));
    }
    let mut tx = db.begin_write_as(me.1).await?;
    let user = db::user::by_id_conn(&mut tx, id)
        .await?
        .ok_or_else(|| ServiceError::NotFound(format!("Konto Nr. {id}")))?;
    if user.disabled == disabled {
        return Ok(());
    }
    db::user::set_disabled(&mut tx, id, disabled).await?;
    if disabled {
        // For good: enabling the account again does not bring these sessions back.
        db::user::end_sessions(&mut tx, id).await?;
    }
    let verb = if disabled { "gesperrt" } else { "entsperrt" };
    db::audit::record(
        &mut tx,
        me.1,
        &format!("Konto {} {verb}", user.username),
        Some(&json!({ "id": id, "disabled": user.disabled })),
        Some(&json!({ "id": id, "disabled": disabled })),
    )
    .await?;
    tx.commit().await?;
    Ok(())
}

/// The newest `limit` rows of the audit log with an id below `before` (all when `None`), newest
/// first.
pub async fn audit_log(
    db: &Db,
    before: Option<i64>,
    limit: i64,
) -> Result<Vec<db::audit::Entry>, ServiceError> {
    Ok(db::audit::recent(&db.read, before, limit).await?)
}

/// How long a reset link works: 24 hours.
pub const RESET_VALID_SECS: i64 = 24 * 3600;

/// The stored form of a reset token: its SHA-256 as 64 hex digits (the token is 32 random bytes,
/// so a fast hash is enough; only the holder of the link knows the token).
pub fn token_hash(token: &str) -> String {
    use sha2::{Digest, Sha256};
    Sha256::digest(token.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// Changes the password of account `id` (the logged-in user): `old` must be its password, `new`
/// (twice) passes [`auth::check_password`]. The account's session epoch rises, which ends its
/// other sessions; returns the new epoch for the session that asked. Audited (without hashes).
/// Refused (German) for a wrong old password or a new one the checks refuse.
pub async fn change_password(
    db: &Db,
    id: i64,
    old: &str,
    new: &str,
    new2: &str,
) -> Result<i64, ServiceError> {
    let user = db::user::by_id(&db.read, id)
        .await?
        .filter(|u| !u.disabled)
        .ok_or_else(|| ServiceError::NotFound(format!("Konto Nr. {id}")))?;
    let sane = old.chars().count() <= MAX_CREDENTIAL_CHARS;
    let ok = auth::verify_password(
        if sane { old.to_string() } else { String::new() },
        Some(user.password_hash.clone()),
    )
    .await
    .map_err(|e| ServiceError::Corrupt(e.to_string()))?;
    if !ok {
        return Err(ServiceError::refused(
            "Das bisherige Passwort stimmt nicht.",
        ));
    }
    if new == old {
        return Err(ServiceError::refused(
            "Das neue Passwort muss sich vom bisherigen unterscheiden.",
        ));
    }
    auth::check_password(&user.username, new, Some(new2)).map_err(ServiceError::refused)?;
    set_password(db, &user, new, &user.username, "Passwort geändert").await
}

/// Stores `password` for `user` in one write transaction by `author` with the audit `action`;
/// returns the new session epoch.
async fn set_password(
    db: &Db,
    user: &User,
    password: &str,
    author: &str,
    action: &str,
) -> Result<i64, ServiceError> {
    let hash = auth::hash_password(password.to_string())
        .await
        .map_err(|e| ServiceError::Corrupt(e.to_string()))?;
    let mut tx = db.begin_write_as(author).await?;
    let epoch = db::user::set_password(&mut tx, user.id, &hash).await?;
    db::audit::record(
        &mut tx,
        author,
        &format!("{action}: Konto {}", user.username),
        None,
        Some(&json!({ "id": user.id, "username": user.username, "sessions_ended": true })),
    )
    .await?;
    tx.commit().await?;
    Ok(epoch)
}

/// Issues a one-time reset link for account `username` (exact name, or the same without case) by
/// `author` (an admin's login, or `cli`): returns the token to put into the link. Only its hash
/// is stored; it works once within [`RESET_VALID_SECS`]; earlier unused links of the account die.
/// Audited. `NotFound` for an unknown account.
pub async fn issue_reset(db: &Db, username: &str, author: &str) -> Result<String, ServiceError> {
    let key = login_key(username);
    let user = db::user::list(&db.read)
        .await?
        .into_iter()
        .find(|u| u.username == username.trim() || login_key(&u.username) == key)
        .ok_or_else(|| ServiceError::NotFound(format!("Konto \"{}\"", username.trim())))?;
    let token = auth::random_token();
    let now = crate::service::clock::Clock::now(&crate::service::clock::SystemClock).timestamp();
    let mut tx = db.begin_write_as(author).await?;
    db::user::create_reset(
        &mut tx,
        user.id,
        &token_hash(&token),
        now,
        now + RESET_VALID_SECS,
        author,
    )
    .await?;
    db::audit::record(
        &mut tx,
        author,
        &format!(
            "Link zum Zurücksetzen des Passworts für {} erstellt",
            user.username
        ),
        None,
        Some(&json!({ "id": user.id, "username": user.username, "valid_hours": 24 })),
    )
    .await?;
    tx.commit().await?;
    Ok(token)
}

/// The account a reset `token` belongs to while the link works (unused, not expired, account
/// enabled); `None` otherwise.
pub async fn reset_account(db: &Db, token: &str) -> Result<Option<User>, ServiceError> {
    if token.is_empty() || token.len() > MAX_CREDENTIAL_CHARS {
        return Ok(None);
    }
    let mut conn = db.read.acquire().await?;
    let Some(reset) = db::user::reset_by_hash(&mut conn, &token_hash(token)).await? else {
        return Ok(None);
    };
    if reset.used_at.is_some()
        || reset.expires_at
            <= crate::service::clock::Clock::now(&crate::service::clock::SystemClock).timestamp()
    {
        return Ok(None);
    }
    Ok(db::user::by_id_conn(&mut conn, reset.user_id)
        .await?
        .filter(|u| !u.disabled))
}

/// Sets a new password through the reset link `token`: the link must work ([`reset_account`]),
/// `new` (twice) passes [`auth::check_password`]; the link is used up and every session of the
/// account ends. Returns the account and its new session epoch. `NotFound` for a dead link;
/// refused (German) for a password the checks refuse (the link still works then).
pub async fn reset_password(
    db: &Db,
    token: &str,
    new: &str,
    new2: &str,
) -> Result<(User, i64), ServiceError> {
    let dead = || ServiceError::NotFound("Link zum Zurücksetzen".into());
    let user = reset_account(db, token).await?.ok_or_else(dead)?;
    auth::check_password(&user.username, new, Some(new2)).map_err(ServiceError::refused)?;
    let hash = auth::hash_password(new.to_string())
        .await
        .map_err(|e| ServiceError::Corrupt(e.to_string()))?;
    let now = crate::service::clock::Clock::now(&crate::service::clock::SystemClock).timestamp();
    let mut tx = db.begin_write_as(&user.username).await?;
    // Checked again inside the transaction: two tabs with one link set one password.
    let reset = db::user::reset_by_hash(&mut tx, &token_hash(token))
        .await?
        .filter(|r| r.user_id == user.id && r.expires_at > now)
        .ok_or_else(dead)?;
    if !db::user::use_reset(&mut tx, reset.id, now).await? {
        return Err(dead());
    }
    let epoch = db::user::set_password(&mut tx, user.id, &hash).await?;
    db::audit::record(
        &mut tx,
        &user.username,
        &format!("Passwort über Link zurückgesetzt: Konto {}", user.username),
        None,
        Some(&json!({ "id": user.id, "username": user.username, "sessions_ended": true })),
    )
    .await?;
    tx.commit().await?;
    Ok((user, epoch))
}

/// An account as the pages and the session guard see it (`users` row: id, name, role, disabled,
/// session epoch; the hash stays inside the service's checks).
pub type Account = User;

/// One row of the audit log ([`League::audit_log`]).
pub type AuditEntry = db::audit::Entry;

/// What the Protokoll can be narrowed to ([`League::audit_search`]).
pub type AuditFilter = db::audit::Filter;

/// The kinds of change the Protokoll can be filtered by (issue 21.9), each a set of its actions'
/// beginnings.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AuditKind {
    /// Results and Runden.
    Rounds,
    /// Fines and the Strafenkatalog.
    Fines,
    /// Nights: created, draw, late arrivals, closed, reopened, deleted, scorer links.
    Nights,
    /// Korrekturen of closed nights.
    Corrections,
    /// Payments, Jahresbeiträge and the Jahresabschluss.
    Money,
    /// Players.
    Players,
    /// Seasons and their rules, imports.
    Seasons,
    /// Accounts, passwords and reset links.
    Accounts,
    /// The club's settings and time zone.
    Settings,
}

impl AuditKind {
    /// Every kind, in the order the filter offers them.
    pub const ALL: [AuditKind; 9] = [
        AuditKind::Rounds,
        AuditKind::Fines,
        AuditKind::Nights,
        AuditKind::Corrections,
        AuditKind::Money,
        AuditKind::Players,
        AuditKind::Seasons,
        AuditKind::Accounts,
        AuditKind::Settings,
    ];

    /// The kind's word in the page's address (`?art=runden`).
    pub fn key(self) -> &'static str {
        match self {
            AuditKind::Rounds => "runden",
            AuditKind::Fines => "strafen",
            AuditKind::Nights => "abende",
            AuditKind::Corrections => "korrekturen",
            AuditKind::Money => "geld",
            AuditKind::Players => "spieler",
            AuditKind::Seasons => "saisons",
            AuditKind::Accounts => "konten",
            AuditKind::Settings => "einstellungen",
        }
    }

    /// The kind of `key` ([`AuditKind::key`]); `None` for another word.
    pub fn parse(key: &str) -> Option<AuditKind> {
        AuditKind::ALL.into_iter().find(|k| k.key() == key)
    }

    /// The German label of the filter's choice.
    pub fn label(self) -> &'static str {
        match self {
            AuditKind::Rounds => "Runden und Ergebnisse",
            AuditKind::Fines => "Strafen",
            AuditKind::Nights => "Spielabende, Auslosung, Links",
            AuditKind::Corrections => "Korrekturen",
            AuditKind::Money => "Zahlungen, Beiträge, Jahresabschluss",
            AuditKind::Players => "Spieler",
            AuditKind::Seasons => "Saisons und Regeln",
            AuditKind::Accounts => "Konten und Passwörter",
            AuditKind::Settings => "Einstellungen",
        }
    }

    /// The SQL `LIKE` patterns of the kind's actions (as the service and the audit triggers
    /// word them).
    pub fn patterns(self) -> &'static [&'static str] {
        match self {
            AuditKind::Rounds => &["Ergebnis %", "Runde %"],
            AuditKind::Fines => &["Strafe %", "Strafenkatalog %"],
            AuditKind::Nights => &[
                "Spielabend %",
                "Teilnehmer und Auslosung %",
                "Nachzügler %",
                "Link zum Schreiben %",
            ],
            AuditKind::Corrections => &["Korrektur %"],
            AuditKind::Money => &["Zahlung %", "Jahresabschluss %", "Jahresbeitrag%"],
            AuditKind::Players => &["Spieler %"],
            AuditKind::Seasons => &["Saison %", "Saisonregeln %"],
            AuditKind::Accounts => &[
                "Konto %",
                "%: Konto %",
                "Link zum Zurücksetzen %",
                "Passwort %",
            ],
            AuditKind::Settings => &["Einstellungen %", "Zeitzone %"],
        }
    }
}

/// The accounts as methods of the league, for the web (which names no part of the db layer); each
/// does what the function of the same name above does, on the league's database.
impl super::League {
    /// The account `users.id = id`, disabled or not; `None` when there is none.
    pub async fn account(&self, id: i64) -> Result<Option<Account>, ServiceError> {
        Ok(db::user::by_id(&self.db().read, id).await?)
    }

    /// Every account, by name ([`list`]).
    pub async fn accounts(&self) -> Result<Vec<Account>, ServiceError> {
        list(self.db()).await
    }

    /// Creates an account ([`create`]): its `users.id`, or the German refusal.
    pub async fn create_account(
        &self,
        username: &str,
        password: &str,
        password2: Option<&str>,
        role: Role,
        author: &str,
    ) -> Result<i64, ServiceError> {
        create(self.db(), username, password, password2, role, author).await
    }

    /// Whether `token` is the open setup token ([`setup_token_valid`]).
    pub async fn setup_token_valid(&self, token: &str) -> Result<bool, ServiceError> {
        setup_token_valid(self.db(), token).await
    }

    /// The setup token while no account exists ([`setup_token`]).
    pub async fn setup_token(&self) -> Result<Option<String>, ServiceError> {
        setup_token(self.db()).await
    }

    /// Creates the first admin with the setup token ([`create_first_admin`]): its `users.id`.
    pub async fn create_first_admin(
        &self,
        token: &str,
        username: &str,
        password: &str,
        password2: &str,
    ) -> Result<i64, ServiceError> {
        create_first_admin(self.db(), token, username, password, password2).await
    }

    /// The account of a working login ([`authenticate`]); `None` for a wrong name or password.
    pub async fn authenticate(
        &self,
        username: &str,
        password: &str,
    ) -> Result<Option<Account>, ServiceError> {
        authenticate(self.db(), username, password).await
    }

    /// Disables or enables account `id` by `me` (id, name) ([`set_disabled`]).
    pub async fn set_account_disabled(
        &self,
        me: (i64, &str),
        id: i64,
        disabled: bool,
    ) -> Result<(), ServiceError> {
        set_disabled(self.db(), me, id, disabled).await
    }

    /// At most `limit` audit rows before row `before`, newest first ([`audit_log`]).
    pub async fn audit_log(
        &self,
        before: Option<i64>,
        limit: i64,
    ) -> Result<Vec<AuditEntry>, ServiceError> {
        audit_log(self.db(), before, limit).await
    }

    /// At most `limit` audit rows before row `before` that pass `filter`, newest first.
    pub async fn audit_search(
        &self,
        filter: &AuditFilter,
        before: Option<i64>,
        limit: i64,
    ) -> Result<Vec<AuditEntry>, ServiceError> {
        Ok(db::audit::search(&self.db().read, filter, before, limit).await?)
    }

    /// Every author of an audit row, by name (the Protokoll's filter).
    pub async fn audit_users(&self) -> Result<Vec<String>, ServiceError> {
        Ok(db::audit::users(&self.db().read).await?)
    }

    /// Changes the password of account `id` ([`change_password`]): the new session epoch.
    pub async fn change_password(
        &self,
        id: i64,
        old: &str,
        new: &str,
        new2: &str,
    ) -> Result<i64, ServiceError> {
        change_password(self.db(), id, old, new, new2).await
    }

    /// A one-time reset link's token for account `username` by `author` ([`issue_reset`]).
    pub async fn issue_reset(&self, username: &str, author: &str) -> Result<String, ServiceError> {
        issue_reset(self.db(), username, author).await
    }

    /// The account a working reset token is for ([`reset_account`]).
    pub async fn reset_account(&self, token: &str) -> Result<Option<Account>, ServiceError> {
        reset_account(self.db(), token).await
    }

    /// Sets a new password with a reset token ([`reset_password`]): the account and its new
    /// session epoch.
    pub async fn reset_password(
        &self,
        token: &str,
        new: &str,
        new2: &str,
    ) -> Result<(Account, i64), ServiceError> {
        reset_password(self.db(), token, new, new2).await
    }

    /// The login sessions' store, on its own file beside the database (`<db>-sitzungen`), its
    /// table created when missing.
    pub async fn session_store(
        &self,
    ) -> Result<tower_sessions_sqlx_store::SqliteStore, ServiceError> {
        let store = tower_sessions_sqlx_store::SqliteStore::new(self.db().sessions.clone());
        store.migrate().await?;
        Ok(store)
    }
}
