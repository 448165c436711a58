//! The rules of accounts, pure: argon2id password hashing, the login throttle, the roles (an
//! admin may do everything a secretary or a Kassenwart may, a secretary everything a Kassenwart
//! may; a Kassenwart enters no rounds; a Kassenprüfer reads the money pages and changes nothing
//! but his *Geprüft*), the session lifetimes and the name and password rules.
//! No web, database or service here: the session extractors are the web kit's
//! (`web::kit::session`), the accounts the service's (`service::accounts`).

use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString};
use argon2::Argon2;
use rand::RngCore;

pub mod throttle;

/// A session ends after this much inactivity (the cookie's and the store's expiry): 3 hours, longer
/// than the pause between two rounds of a Spielabend.
pub const SESSION_IDLE: time::Duration = time::Duration::hours(3);

/// A session ends this long after its login, used or not: 16 hours (one Spielabend and its night).
pub const SESSION_ABSOLUTE_SECS: i64 = 16 * 3600;

/// True when a session that logged in at `login_at` (Unix seconds; `None` = unknown) is past its
/// absolute lifetime at `now`, or claims a login in the future.
pub fn session_expired(login_at: Option<i64>, now: i64) -> bool {
    login_at.is_none_or(|t| t > now || now.saturating_sub(t) > SESSION_ABSOLUTE_SECS)
}

/// A role of an account.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    /// May do everything.
    Admin,
    /// Enters seasons, players, nights, rounds, fees and fines.
    Secretary,
    /// The Kassenwart: books fees, fines and payments, edits the Strafenkatalog, runs the
    /// Jahresabschluss; enters no rounds, draws, nights or Schockbesteck.
    Treasurer,
    /// The Kassenprüfer (issue 35.3): reads every money page of the Verwaltung and changes
    /// nothing; his one action is *Geprüft* on a season's books.
    Auditor,
}

impl Role {
    /// Parses `admin`, `secretary`, `kassenwart` or `kassenpruefer`.
    pub fn parse(s: &str) -> Option<Role> {
        match s {
            "admin" => Some(Role::Admin),
            "secretary" => Some(Role::Secretary),
            "kassenwart" => Some(Role::Treasurer),
            "kassenpruefer" => Some(Role::Auditor),
            _ => None,
        }
    }

    /// The stored name: `admin`, `secretary`, `kassenwart` or `kassenpruefer`.
    pub fn as_str(self) -> &'static str {
        match self {
            Role::Admin => "admin",
            Role::Secretary => "secretary",
            Role::Treasurer => "kassenwart",
            Role::Auditor => "kassenpruefer",
        }
    }

    /// True for a secretary or an admin (they enter seasons, nights and rounds).
    pub fn is_secretary(self) -> bool {
        matches!(self, Role::Admin | Role::Secretary)
    }

    /// True for a role that handles money: a Kassenwart, a secretary or an admin (fees, fines,
    /// payments, the Strafenkatalog, the Jahresabschluss).
    pub fn handles_money(self) -> bool {
        matches!(self, Role::Admin | Role::Secretary | Role::Treasurer)
    }

    /// True for a role that reads the money pages of the Verwaltung (their GETs): every role
    /// that [`handles_money`](Role::handles_money), and the Kassenprüfer, who changes nothing.
    pub fn reads_money(self) -> bool {
        self.handles_money() || self == Role::Auditor
    }

    /// True for the Kassenprüfer: the one role that may mark a season's books *Geprüft*.
    pub fn audits_money(self) -> bool {
        self == Role::Auditor
    }

    /// The page a login leads to: the Kasse's page (`/verwaltung/kasse`, its seasons' money
    /// pages) for a Kassenwart and a Kassenprüfer, else the Verwaltung.
    pub fn home(self) -> &'static str {
        match self {
            Role::Treasurer | Role::Auditor => "/verwaltung/kasse",
            Role::Admin | Role::Secretary => "/verwaltung",
        }
    }

    /// The German label: "Admin", "Schriftführer", "Kassenwart", "Kassenprüfer".
    pub fn label(self) -> &'static str {
        match self {
            Role::Admin => "Admin",
            Role::Secretary => "Schriftführer",
            Role::Treasurer => "Kassenwart",
            Role::Auditor => "Kassenprüfer",
        }
    }
}

/// Errors of password handling.
#[derive(Debug, thiserror::Error)]
pub enum PasswordError {
    /// Hashing failed (argon2 parameters or PHC string).
    #[error("Passwort-Hash fehlgeschlagen: {0}")]
    Hash(String),
    /// The blocking task died.
    #[error("Passwort-Hash abgebrochen: {0}")]
    Join(#[from] tokio::task::JoinError),
}

/// Checks a new account name (already trimmed): 1–50 characters, no control or invisible
/// characters (`league::model::names::is_invisible`), one script (`league::model::names::check_single_script`:
/// „аdmin“ with a Cyrillic а is refused). `Err` is the German message.
pub fn check_account_name(username: &str) -> Result<(), String> {
    if username.is_empty() || username.chars().count() > 50 {
        return Err("Der Name muss 1 bis 50 Zeichen lang sein.".to_string());
    }
    if username
        .chars()
        .any(crate::league::model::names::is_invisible)
    {
        return Err(
            "Der Name darf keine Steuerzeichen oder unsichtbaren Zeichen enthalten.".to_string(),
        );
    }
    crate::league::model::names::check_single_script(username)
        .map_err(|e| format!("Der Name {e}."))?;
    Ok(())
}

/// Shortest password accepted, in characters.
pub const MIN_PASSWORD_CHARS: usize = 8;

/// Shortest account name a password may not contain (shorter names are in too many words); a
/// password equal to the name is refused whatever its length.
pub const NAME_IN_PASSWORD_FROM: usize = 3;

/// Checks a new password of account `username`: [`MIN_PASSWORD_CHARS`]–200 characters, not the
/// name and not containing it (case does not count; names from [`NAME_IN_PASSWORD_FROM`]
/// characters), and the same twice (`password2`: `None` without a repeat field, as on the CLI).
/// `Err` is the German message.
pub fn check_password(
    username: &str,
    password: &str,
    password2: Option<&str>,
) -> Result<(), String> {
    if password.chars().count() > 200 {
        return Err("Das Passwort darf höchstens 200 Zeichen lang sein.".to_string());
    }
    if password.chars().count() < MIN_PASSWORD_CHARS {
        return Err(format!(
            "Das Passwort muss mindestens {MIN_PASSWORD_CHARS} Zeichen lang sein."
        ));
    }
    let name = crate::league::model::names::name_key(username.trim());
    let key = crate::league::model::names::name_key(password);
    if !name.is_empty() && key == name {
        return Err("Das Passwort darf nicht der Name des Kontos sein.".to_string());
    }
    if name.chars().count() >= NAME_IN_PASSWORD_FROM && key.contains(&name) {
        return Err("Das Passwort darf den Namen des Kontos nicht enthalten.".to_string());
    }
    if password2.is_some_and(|p2| p2 != password) {
        return Err("Die beiden Passwörter stimmen nicht überein.".to_string());
    }
    Ok(())
}

/// Checks a new account's name (already trimmed, [`check_account_name`]) and password pair, for
/// the setup page, the admin's account form and `schockerliga user add`: name 1–50 characters
/// without control or invisible characters (`league::model::names`), the password as
/// [`check_password`] checks it. `Err` is the German message.
pub fn check_new_account(
    username: &str,
    password: &str,
    password2: Option<&str>,
) -> Result<(), String> {
    check_account_name(username)?;
    check_password(username, password, password2)
}

/// Hashes `password` with argon2id (`Argon2::default()`) on a blocking thread; returns the PHC string.
pub async fn hash_password(password: String) -> Result<String, PasswordError> {
    tokio::task::spawn_blocking(move || {
        let mut bytes = [0u8; 16];
        rand::rng().fill_bytes(&mut bytes);
        let salt =
            SaltString::encode_b64(&bytes).map_err(|e| PasswordError::Hash(e.to_string()))?;
        Argon2::default()
            .hash_password(password.as_bytes(), &salt)
            .map(|h| h.to_string())
            .map_err(|e| PasswordError::Hash(e.to_string()))
    })
    .await?
}

/// A valid argon2id hash of a random password: verified against when the user is unknown, so
/// that a wrong name takes as long as a wrong password.
const DUMMY_HASH: &str =
    "$argon2id$v=19$m=19456,t=2,p=1$c29tZXNhbHRzb21lc2FsdA$2JQ1L9RuNbiEdyO7gURHtIm5RrRR/k1jU46Kbo+J0fM";

/// Checks `password` against the PHC string `hash` (or the dummy hash when `None`) on a blocking
/// thread; true only for a real hash that matches.
pub async fn verify_password(
    password: String,
    hash: Option<String>,
) -> Result<bool, PasswordError> {
    tokio::task::spawn_blocking(move || {
        let real = hash.is_some();
        let hash = hash.unwrap_or_else(|| DUMMY_HASH.to_string());
        let parsed = PasswordHash::new(&hash).map_err(|e| PasswordError::Hash(e.to_string()))?;
        let ok = Argon2::default()
            .verify_password(password.as_bytes(), &parsed)
            .is_ok();
        Ok(real && ok)
    })
    .await?
}

/// A random token of 32 bytes as 64 hex digits (setup links).
pub fn random_token() -> String {
    let mut bytes = [0u8; 32];
    rand::rng().fill_bytes(&mut bytes);
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

#[cfg(test)]
mod tests;
