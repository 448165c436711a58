//! The club's settings (the admin's settings page, SECURITY.md "Private money"): the account
//! behind the GiroCode of the money cards, an optional PayPal.me name, and "Kasse nur für
//! Mitglieder". They live in the snapshot like the seasons, so a change empties the page cache
//! at once; another process's change is found by [`League::refresh`].

use serde_json::json;

use super::{League, ServiceError};
use crate::db::{self, settings::SettingsRow};
use crate::league::money::girocode;

/// The club's settings as the pages read them.
pub type ClubSettings = SettingsRow;

/// The settings as the settings form sends them (as typed).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SettingsInput {
    /// Kontoinhaber.
    pub account_name: String,
    /// IBAN, with or without spaces.
    pub iban: String,
    /// BIC, optional.
    pub bic: String,
    /// PayPal.me name or link, optional.
    pub paypal_me: String,
    /// "Kasse nur für Mitglieder" ticked.
    pub money_private: bool,
}

/// Checks typed settings: no account at all (no GiroCode), or a Kontoinhaber with an IBAN that
/// passes its mod-97 check ([`girocode::check_iban`]) and an optional BIC; an optional PayPal.me
/// name. Returns them as stored (IBAN in electronic format, BIC in capitals). `Err` is German.
pub fn check(input: &SettingsInput) -> Result<ClubSettings, String> {
    let name = input.account_name.trim();
    let iban_typed = !input.iban.trim().is_empty();
    let (account_name, iban) = match (name.is_empty(), iban_typed) {
        (true, false) => {
            if !input.bic.trim().is_empty() {
                return Err("BIC ohne IBAN: bitte auch Kontoinhaber und IBAN angeben.".into());
            }
            (String::new(), String::new())
        }
        (true, true) => return Err("Kontoinhaber fehlt (so wie bei der Bank).".into()),
        (false, false) => return Err("IBAN fehlt.".into()),
        (false, true) => (
            girocode::check_name(name)?,
            girocode::check_iban(&input.iban)?,
        ),
    };
    Ok(ClubSettings {
        account_name,
        iban,
        bic: girocode::check_bic(&input.bic)?,
        paypal_me: girocode::check_paypal_me(&input.paypal_me)?,
        money_private: input.money_private,
        timezone: String::new(),
    })
}

impl League {
    /// The club's settings of the current snapshot.
    pub fn settings(&self) -> std::sync::Arc<ClubSettings> {
        self.snapshot().settings.clone()
    }

    /// Stores `input` as the club's settings by `author` (audited, before and after), and puts
    /// them into the snapshot (which empties the page cache). Refused (German) when
    /// [`check`] refuses them; nothing is stored then.
    pub async fn set_settings(
        &self,
        input: &SettingsInput,
        author: &str,
    ) -> Result<ClubSettings, ServiceError> {
        let mut next = check(input).map_err(ServiceError::refused)?;
        let _w = self.inner.writing.lock().await;
        let mut tx = self.inner.db.begin_write_as(author).await?;
        let before = db::settings::get(&mut tx).await?;
        // The form does not carry the time zone: it stays as stored ([`League::set_timezone`]).
        next.timezone = before.timezone.clone();
        db::settings::put(&mut tx, &next).await?;
        let show = |s: &ClubSettings| {
            json!({ "account_name": s.account_name, "iban": s.iban, "bic": s.bic,
                    "paypal_me": s.paypal_me, "money_private": s.money_private })
        };
        db::audit::record(
            &mut tx,
            author,
            "Einstellungen des Vereins geändert",
            Some(&show(&before)),
            Some(&show(&next)),
        )
        .await?;
        tx.commit().await?;
        let settings = std::sync::Arc::new(next.clone());
        self.replace(|s, id| s.with_settings(id, settings));
        drop(_w);
        self.written().await;
        Ok(next)
    }
}

impl League {
    /// Stores `name` (an IANA time zone such as `Europe/Berlin`; empty: the default
    /// Europe/Berlin) as the club's time zone by `author` (audited, before and after) and puts it
    /// into the snapshot. Returns the zone now in force for the club ([`League::timezone`]: a
    /// `--timezone` given on the command line still wins). Refused (German, nothing stored) for
    /// a name that is no time zone.
    pub async fn set_timezone(
        &self,
        name: &str,
        author: &str,
    ) -> Result<chrono_tz::Tz, ServiceError> {
        let name = name.trim();
        let stored = if name.is_empty() {
            String::new()
        } else {
            super::clock::parse_timezone(name)
                .map_err(ServiceError::refused)?
                .name()
                .to_string()
        };
        let _w = self.inner.writing.lock().await;
        let mut tx = self.inner.db.begin_write_as(author).await?;
        let before = db::settings::get(&mut tx).await?;
        db::settings::put_timezone(&mut tx, &stored).await?;
        db::audit::record(
            &mut tx,
            author,
            "Zeitzone des Vereins geändert",
            Some(&json!({ "timezone": before.timezone })),
            Some(&json!({ "timezone": stored })),
        )
        .await?;
        tx.commit().await?;
        let settings = std::sync::Arc::new(ClubSettings {
            timezone: stored,
            ..before
        });
        self.replace(|s, id| s.with_settings(id, settings));
        drop(_w);
        self.written().await;
        Ok(self.timezone())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn settings_need_a_whole_account_or_none() {
        let input = |name: &str, iban: &str, bic: &str, paypal: &str| SettingsInput {
            account_name: name.into(),
            iban: iban.into(),
            bic: bic.into(),
            paypal_me: paypal.into(),
            money_private: true,
        };
        let cases = [
            (input("", "", "", ""), Ok(("", "", ""))),
            (
                input(
                    " Schockerliga e.V. ",
                    "de89 3704 0044 0532 0130 00",
                    "cobadeffxxx",
                    "",
                ),
                Ok(("Schockerliga e.V.", "DE89370400440532013000", "COBADEFFXXX")),
            ),
            (input("Kasse", "", "", ""), Err("IBAN fehlt")),
            (
                input("", "DE89370400440532013000", "", ""),
                Err("Kontoinhaber fehlt"),
            ),
            (input("", "", "COBADEFFXXX", ""), Err("BIC ohne IBAN")),
            (
                input("Kasse", "DE89370400440532013001", "", ""),
                Err("Prüfziffern"),
            ),
            (input("", "", "", "evil.example/x"), Err("PayPal.me")),
        ];
        for (i, want) in cases {
            match (check(&i), want) {
                (Ok(s), Ok((name, iban, bic))) => {
                    assert_eq!(
                        (s.account_name.as_str(), s.iban.as_str(), s.bic.as_str()),
                        (name, iban, bic)
                    );
                    assert!(s.money_private);
                }
                (Err(e), Err(w)) => assert!(e.contains(w), "{i:?}: {e}"),
                (got, want) => panic!("{i:?}: {got:?}, expected {want:?}"),
            }
        }
    }
}
