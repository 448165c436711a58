//! The server's state for `GET /api/v1/status` and `schockerliga status` (interchange.md
//! "Running it for a club"): the program's version, the club's date and time zone, and with
//! `serve --backup-remote` how the copies off the machine stand.

use chrono::NaiveDate;
use serde::Serialize;

use super::clock::ClubClock;
use super::League;

/// The answer of `GET /api/v1/status`: `{"ok": true, "version": "0.1.0", "today": "2026-05-01",
/// "timezone": "Europe/Berlin"}` (serialized in this field order), with `"remote": {"ok": true,
/// "last": "2026-05-01"}` after them when copies go off the machine (`serve --backup-remote`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Status {
    /// Always `true` (the server answers).
    pub ok: bool,
    /// The program's version (`Cargo.toml`).
    pub version: String,
    /// The club's date today (`YYYY-MM-DD`).
    pub today: NaiveDate,
    /// The club's time zone (IANA name).
    pub timezone: String,
    /// The copies off the machine (`serve --backup-remote`); left out without.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub remote: Option<super::backup::remote::RemoteStatus>,
}

/// The program's version, as `schockerliga --version` prints it.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");

impl Status {
    /// The [`Status`] now by `clock` (the club's date and time zone), also where no league is
    /// open (`schockerliga status` before the database is there).
    pub fn at(clock: &ClubClock) -> Status {
        Status {
            ok: true,
            version: VERSION.to_string(),
            today: clock.today(),
            timezone: clock.timezone().name().to_string(),
            remote: None,
        }
    }
}

impl League {
    /// The league's [`Status`] now (the club's clock), with the copies off the machine when a
    /// server sends them ([`super::backup::remote::Remote::status`]), or `ok: false` when they
    /// were asked for and refused at the start ([`super::backup::Backups::remote_off`]).
    pub fn status(&self) -> Status {
        let remote = self.backups().and_then(|b| {
            b.remote().map(|r| r.status()).or_else(|| {
                b.remote_off_reason()
                    .map(|_| super::backup::remote::RemoteStatus {
                        ok: false,
                        last: None,
                    })
            })
        });
        Status {
            remote,
            ..Status::at(&self.clock())
        }
    }
}

/// The address the club's phones use, behind an HTTPS proxy (`--public-url
/// https://liga.example.org`): the links the program prints (setup, password reset, scorer
/// links) start with it instead of the server's own `http://` address.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PublicUrl(String);

impl PublicUrl {
    /// Reads `text`: `https://` or `http://`, a host, an optional port, nothing after (a
    /// trailing `/` is dropped). `Err`: German, what is wrong.
    pub fn parse(text: &str) -> Result<PublicUrl, String> {
        let t = text.trim().trim_end_matches('/');
        let rest = t
            .strip_prefix("https://")
            .or_else(|| t.strip_prefix("http://"))
            .ok_or_else(|| {
                format!("Öffentliche Adresse „{t}“: bitte mit https:// angeben, z. B. https://liga.example.org")
            })?;
        let host_ok = !rest.is_empty()
            && rest
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | ':' | '[' | ']'));
        if !host_ok {
            return Err(format!(
                "Öffentliche Adresse „{t}“: nur Schema, Name und Port, ohne Pfad, z. B. https://liga.example.org"
            ));
        }
        Ok(PublicUrl(t.to_string()))
    }

    /// The address as given, without a trailing `/` ("https://liga.example.org").
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// Whether the address is `https://`.
    pub fn is_https(&self) -> bool {
        self.0.starts_with("https://")
    }

    /// The link to `path` (which starts with `/`, query included) at this address.
    pub fn link(&self, path: &str) -> String {
        format!("{}{path}", self.0)
    }
}

#[cfg(test)]
mod tests;
