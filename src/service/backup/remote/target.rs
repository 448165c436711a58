//! Where the copies off the machine go: `REMOTE:PFAD` read and checked (nothing in it can
//! become an rclone flag), and whether a command line's file is one at a remote.

use std::path::Path;

/// Where the copies go: an rclone remote and a folder in it (`nextcloud:schockerliga`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Target {
    /// The remote's name as in `rclone config` (`nextcloud`).
    pub(super) remote: String,
    /// The folder in it, without a trailing `/` (empty: the remote's root).
    pub(super) path: String,
}

impl Target {
    /// Reads `REMOTE:PFAD` (`nextcloud:schockerliga/sicherungen`, `sftp-verein:` for the root).
    /// Refused (German): no `:`, an empty name, a name with other characters than letters,
    /// digits, `_`, `-`, `.`, space (rclone's), a name or path starting with `-`, a control
    /// character.
    pub fn parse(text: &str) -> Result<Target, String> {
        let raw = text.trim();
        // What a refusal may repeat of it: never a password (it goes to the log and to every
        // Verwaltung page's banner).
        let text = shown(raw);
        let text = text.as_str();
        let example =
            "z. B. nextcloud:schockerliga (ein Remote aus „rclone config“, dann der Ordner)";
        let (remote, path) = raw.split_once(':').ok_or_else(|| {
            format!("Ziel außer Haus „{text}“: bitte als REMOTE:PFAD angeben, {example}")
        })?;
        let name_ok = !remote.is_empty()
            && !remote.starts_with(['-', ' '])
            && remote
                .chars()
                .all(|c| c.is_alphanumeric() || matches!(c, '_' | '-' | '.' | ' '));
        if !name_ok {
            return Err(format!(
                "Ziel außer Haus „{text}“: „{}“ ist kein Name eines rclone-Remotes, {example}",
                shown(remote)
            ));
        }
        if path.starts_with('-') || path.chars().any(char::is_control) {
            return Err(format!(
                "Ziel außer Haus „{text}“: der Pfad darf nicht mit - beginnen und keine \
                 Steuerzeichen enthalten"
            ));
        }
        Ok(Target {
            remote: remote.to_string(),
            path: path.trim_end_matches('/').to_string(),
        })
    }

    /// The folder as rclone names it (`nextcloud:schockerliga`).
    pub fn folder(&self) -> String {
        format!("{}:{}", self.remote, self.path)
    }

    /// The file `name` in the folder (`nextcloud:schockerliga/liga-2026-05-01-040000.db`).
    pub fn file(&self, name: &str) -> String {
        if self.path.is_empty() {
            format!("{}:{name}", self.remote)
        } else {
            format!("{}:{}/{name}", self.remote, self.path)
        }
    }
}

impl std::fmt::Display for Target {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.folder())
    }
}

/// `text` as a message may show it: unchanged, unless it may hold credentials (an `@` of a URL's
/// user, an `=` of a connection string's `pass=…`): then only what comes before the first `,` or
/// `:`, and "… (Zugangsdaten ausgeblendet)".
fn shown(text: &str) -> String {
    if !text.contains('@') && !text.contains('=') {
        return text.to_string();
    }
    let head: String = text
        .split([',', ':'])
        .next()
        .unwrap_or_default()
        .chars()
        .take(30)
        .collect();
    format!("{head}… (Zugangsdaten ausgeblendet)")
}

/// Whether the command line's `FILE` names a file at an rclone remote (`nextcloud:ordner/x.db`)
/// rather than a local one: it is not there locally and starts with a remote's name and `:`
/// before any `/`.
pub fn is_remote_file(arg: &Path) -> bool {
    if arg.exists() {
        return false;
    }
    let text = arg.to_string_lossy();
    match text.split_once(':') {
        Some((name, rest)) => {
            !name.contains('/') && !rest.is_empty() && Target::parse(&text).is_ok()
        }
        None => false,
    }
}
