//! What the copies off the machine keep on this machine besides the copies: the record of what
//! was sent (`….db.remote`: its size and SHA-256, against which a copy fetched back is
//! checked) and the last failure (`<stem>.ausser-haus`, so that a restart still shows it until a
//! good copy is out).

use std::path::Path;

use chrono::{DateTime, Utc};

use super::super::{sha256_of, write_synced, Failure};
use crate::service::ServiceError;

/// What a record `….db.remote` says was sent: the copy's size in bytes and SHA-256 (lower-case
/// hex). `None` when the file is missing or holds no line `SHA-256 <hex>, <n> Bytes`.
pub fn sent(record: &Path) -> Option<(u64, String)> {
    let text = std::fs::read_to_string(record).ok()?;
    text.lines().find_map(|line| {
        let rest = line.strip_prefix("SHA-256 ")?;
        let (sum, rest) = rest.split_once(", ")?;
        let size = rest.split_once(" Bytes")?.0.parse().ok()?;
        (sum.len() == 64).then(|| (size, sum.to_lowercase()))
    })
}

/// Checks the copy `fetched` (fetched back from the remote as `spec`) against the record
/// `record` of what was sent, when there is one. `Ok(true)`: it matches; `Ok(false)`: no record
/// (nothing to compare with). Errors (German, „Kopie außer Haus verändert“): size or SHA-256
/// differ (a copy and its `.sha256` replaced at the remote), the copy not readable.
pub fn check_fetched(fetched: &Path, record: &Path, spec: &str) -> Result<bool, ServiceError> {
    let Some((size, sum)) = sent(record) else {
        return Ok(false);
    };
    let io = |e: std::io::Error| ServiceError::refused(format!("{spec}: nicht lesbar: {e}"));
    let found_size = std::fs::metadata(fetched).map_err(io)?.len();
    let found_sum = sha256_of(fetched).map_err(io)?;
    let mut wrong = Vec::new();
    if found_size != size {
        wrong.push(format!("{found_size} Bytes statt {size}"));
    }
    if found_sum != sum {
        wrong.push(format!("SHA-256 {found_sum} statt {sum}"));
    }
    if wrong.is_empty() {
        return Ok(true);
    }
    Err(ServiceError::refused(format!(
        "Kopie außer Haus verändert: {spec} ist nicht die geschickte ({}; laut Vermerk {})",
        wrong.join(", "),
        record.display()
    )))
}

/// The failure kept in `file` for the copies to `target`; `None` when there is none, it is
/// unreadable or it was for another target.
pub fn load_failure(file: &Path, target: &str) -> Option<Failure> {
    let text = std::fs::read_to_string(file).ok()?;
    let mut lines = text.splitn(3, '\n');
    let at: DateTime<Utc> = lines.next()?.trim().parse().ok()?;
    if lines.next()? != target {
        return None;
    }
    let message = lines.next()?.trim_end().to_string();
    Some(Failure { at, message })
}

/// Keeps `failure` of the copies to `target` in `file` (0600, synced): the time (RFC 3339),
/// the target, the message. Failures to write are logged.
pub fn save_failure(file: &Path, target: &str, failure: &Failure) {
    let text = format!(
        "{}\n{target}\n{}\n",
        failure.at.to_rfc3339(),
        failure.message
    );
    if let Err(e) = write_synced(file, &text) {
        tracing::warn!("{} nicht geschrieben: {e}", file.display());
    }
}

/// Forgets the failure kept in `file` (a good copy is out).
pub fn clear_failure(file: &Path) {
    match std::fs::remove_file(file) {
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
            tracing::warn!("{} nicht gelöscht: {e}", file.display());
        }
        _ => {}
    }
}
