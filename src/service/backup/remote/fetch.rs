//! A copy fetched back from the remote for `schockerliga verify` and `restore`, compared with
//! the record of what was sent when there is one.

use std::ffi::OsString;
use std::path::{Path, PathBuf};

use super::{kept, Remote, Target, RCLONE, RECORD, TRANSFER_TIMEOUT};
use crate::service::ServiceError;

/// A copy fetched back from the remote ([`fetch`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fetched {
    /// The local file.
    pub file: PathBuf,
    /// The record `….db.remote` of what was sent, when there was one: the copy matched it.
    pub record: Option<PathBuf>,
}

/// Fetches the copy `spec` (`REMOTE:PFAD/DATEI`, [`is_remote_file`]) with rclone into the
/// directory `into`, its `.sha256` beside it when the remote has one (so that
/// [`super::verify`] checks the sum), for `schockerliga verify` and `restore`; with `records`
/// (the server's `--backup-dir`) the copy is compared with the record there of what was sent
/// (its size and SHA-256: a copy and its `.sha256` replaced at the remote do not pass).
/// Errors (German): not a remote file, rclone missing or failing, „Kopie außer Haus verändert“.
pub async fn fetch(
    spec: &str,
    into: &Path,
    records: Option<&Path>,
) -> Result<Fetched, ServiceError> {
    fetch_with(RCLONE.into(), spec, into, records).await
}

/// [`fetch`] with the program `program` (rclone).
pub async fn fetch_with(
    program: OsString,
    spec: &str,
    into: &Path,
    records: Option<&Path>,
) -> Result<Fetched, ServiceError> {
    let target = Target::parse(spec).map_err(ServiceError::refused)?;
    let name = Path::new(&target.path)
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .filter(|n| !n.is_empty())
        .ok_or_else(|| {
            ServiceError::refused(format!(
                "{spec}: bitte eine Datei angeben (REMOTE:PFAD/DATEI), keinen Ordner"
            ))
        })?;
    let local = into.join(&name);
    let remote = Remote::with_program(target.clone(), program);
    let file = target.folder();
    remote
        .rclone(
            &["copyto".into(), file.clone().into(), local.clone().into()],
            TRANSFER_TIMEOUT,
        )
        .await
        .map_err(|e| ServiceError::refused(format!("{spec} nicht geholt: {e}")))?;
    // The sum beside it, when the remote has one (the server sends it with each copy).
    let side = local.with_file_name(format!("{name}.sha256"));
    if let Err(e) = remote
        .rclone(
            &[
                "copyto".into(),
                format!("{file}.sha256").into(),
                side.into_os_string(),
            ],
            remote.limits.short(),
        )
        .await
    {
        tracing::info!("{spec}.sha256 nicht geholt: {e}");
    }
    let record = records.map(|dir| dir.join(format!("{name}{RECORD}")));
    let matched = match &record {
        Some(r) => kept::check_fetched(&local, r, spec)?,
        None => false,
    };
    Ok(Fetched {
        file: local,
        record: record.filter(|_| matched),
    })
}
