//! The club's settings (migration `20261201110000_club_settings`): one row.

use sqlx::{FromRow, SqliteConnection};

use super::DbError;

/// The settings row as stored.
#[derive(Debug, Clone, Default, PartialEq, Eq, FromRow)]
pub struct SettingsRow {
    /// The payee's name of the GiroCode ("Kontoinhaber"), empty when none.
    pub account_name: String,
    /// The club's IBAN in electronic format, empty when none.
    pub iban: String,
    /// The club's BIC, empty when none.
    pub bic: String,
    /// The club's PayPal.me name, empty when none.
    pub paypal_me: String,
    /// "Kasse nur für Mitglieder".
    pub money_private: bool,
    /// The club's time zone (IANA name, e.g. `Europe/Berlin`), empty for the default.
    pub timezone: String,
}

/// The settings (defaults when the row is missing).
pub async fn get(conn: &mut SqliteConnection) -> Result<SettingsRow, DbError> {
    Ok(sqlx::query_as(
        "select account_name, iban, bic, paypal_me, money_private, timezone
         from club_settings where id = 1",
    )
    .fetch_optional(conn)
    .await?
    .unwrap_or_default())
}

/// Stores `s` as the settings (all but the time zone: [`put_timezone`]).
pub async fn put(conn: &mut SqliteConnection, s: &SettingsRow) -> Result<(), DbError> {
    sqlx::query(
        "insert into club_settings (id, account_name, iban, bic, paypal_me, money_private)
         values (1, ?, ?, ?, ?, ?)
         on conflict (id) do update set account_name = excluded.account_name,
             iban = excluded.iban, bic = excluded.bic, paypal_me = excluded.paypal_me,
             money_private = excluded.money_private, version = club_settings.version + 1",
    )
    .bind(&s.account_name)
    .bind(&s.iban)
    .bind(&s.bic)
    .bind(&s.paypal_me)
    .bind(s.money_private)
    .execute(conn)
    .await?;
    Ok(())
}

/// Stores `name` as the club's time zone (empty: the default).
pub async fn put_timezone(conn: &mut SqliteConnection, name: &str) -> Result<(), DbError> {
    sqlx::query(
        "insert into club_settings (id, timezone) values (1, ?)
         on conflict (id) do update set timezone = excluded.timezone,
             version = club_settings.version + 1",
    )
    .bind(name)
    .execute(conn)
    .await?;
    Ok(())
}
