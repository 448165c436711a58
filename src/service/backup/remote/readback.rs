//! Reading a copy back from the remote: its size and SHA-256 as the remote reports them or as
//! downloaded and hashed here, after each upload and again later ([`Remote::recheck`]: a copy
//! that changed at the remote, or went, is found and sent again).

use std::path::Path;
use std::process::Stdio;

use sha2::{Digest, Sha256};
use tokio::io::AsyncReadExt;

use super::rclone::{failed_text, hex, Listed};
use super::{kept, Check, Remote, TRANSFER_TIMEOUT};
use crate::service::ServiceError;

/// What a later check of a copy that is out found at the remote.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Rechecked {
    /// The copy there is the one sent (its size and SHA-256 equal the record's), or there is
    /// no record to compare with.
    Same,
    /// The copy there is not the one sent, or is gone: the German reason, „Kopie außer Haus
    /// verändert: …“.
    Changed(String),
}

impl Remote {
    /// Checks the copy `name` that is out (its record `record`, `….db.remote`) at the remote
    /// again: its size and SHA-256 read back as after the upload and compared with the record.
    /// Errors: the remote cannot be read (unreachable, refused, timed out): nothing is known.
    pub(super) async fn recheck(
        &self,
        name: &str,
        record: &Path,
    ) -> Result<Rechecked, ServiceError> {
        let Some((size, sum)) = kept::sent(record) else {
            return Ok(Rechecked::Same);
        };
        let there = self.target.file(name);
        let found = self.read_back_if_there(name).await?;
        Ok(match found {
            None => Rechecked::Changed(format!(
                "Kopie außer Haus verändert: {there} fehlt dort; sie wird neu gesendet"
            )),
            Some((found_size, found_sum, _)) if found_size != size || found_sum != sum => {
                Rechecked::Changed(format!(
                    "Kopie außer Haus verändert: {there} hat {found_size} Bytes und SHA-256 \
                     {found_sum}, gesendet waren {size} Bytes mit SHA-256 {sum}; sie wird neu \
                     gesendet"
                ))
            }
            Some(_) => Rechecked::Same,
        })
    }

    /// The size and SHA-256 of the file `name` at the remote, and how they were learned: the
    /// remote's listing with its SHA-256, else the file downloaded back and hashed here.
    pub(super) async fn read_back(&self, name: &str) -> Result<(u64, String, Check), ServiceError> {
        self.read_back_if_there(name).await?.ok_or_else(|| {
            ServiceError::refused(format!(
                "Sicherung {name} außer Haus: nach dem Hochladen nicht in {} zu finden",
                self.target
            ))
        })
    }

    /// [`Remote::read_back`], `None` when the remote holds no file `name`.
    async fn read_back_if_there(
        &self,
        name: &str,
    ) -> Result<Option<(u64, String, Check)>, ServiceError> {
        let remote_file = self.target.file(name);
        let listed = self
            .rclone(
                &[
                    "lsjson".into(),
                    "--files-only".into(),
                    "--no-mimetype".into(),
                    "--hash".into(),
                    "--hash-type".into(),
                    "sha256".into(),
                    remote_file.clone().into(),
                ],
                TRANSFER_TIMEOUT,
            )
            .await
            .map_err(|e| self.refused(name, &e))?;
        let entries: Vec<Listed> = serde_json::from_slice(&listed).map_err(|e| {
            ServiceError::refused(format!(
                "Sicherung {name} außer Haus: Antwort von rclone lsjson nicht lesbar: {e}"
            ))
        })?;
        let Some(entry) = entries.into_iter().find(|e| e.name == name) else {
            return Ok(None);
        };
        let reported = entry
            .hashes
            .as_ref()
            .and_then(|h| h.get("sha256"))
            .map(|s| s.to_lowercase())
            .filter(|s| s.len() == 64);
        if let Some(sum) = reported {
            return Ok(Some((entry.size, sum, Check::Reported)));
        }
        let (size, sum) = self.download_hash(&remote_file).await.map_err(|e| {
            self.refused(
                name,
                &format!("Zurückladen zur Prüfung fehlgeschlagen: {e}"),
            )
        })?;
        if size != entry.size {
            return Err(ServiceError::refused(format!(
                "Sicherung {name} außer Haus: {} meldet {} Bytes, zurückgeladen waren es {size}",
                self.target, entry.size
            )));
        }
        Ok(Some((size, sum, Check::Downloaded)))
    }

    /// Downloads `remote_file` (`rclone cat`) and hashes it on the way: its size and SHA-256.
    async fn download_hash(&self, remote_file: &str) -> Result<(u64, String), String> {
        let mut child = self
            .command(&["cat".into(), remote_file.into()])
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|e| self.spawn_error(e))?;
        let mut stdout = child.stdout.take().ok_or("keine Ausgabe von rclone")?;
        let mut stderr = child
            .stderr
            .take()
            .ok_or("keine Fehlerausgabe von rclone")?;
        let hashed = async {
            let mut hasher = Sha256::new();
            let mut size = 0u64;
            let mut buf = vec![0u8; 64 * 1024];
            loop {
                let n = stdout.read(&mut buf).await.map_err(|e| e.to_string())?;
                if n == 0 {
                    break;
                }
                size += n as u64;
                hasher.update(&buf[..n]);
            }
            let mut err = Vec::new();
            let _ = stderr.read_to_end(&mut err).await;
            let status = child.wait().await.map_err(|e| e.to_string())?;
            if !status.success() {
                return Err(failed_text(status.code(), &err));
            }
            Ok((size, hex(&hasher.finalize())))
        };
        match tokio::time::timeout(TRANSFER_TIMEOUT, hashed).await {
            Ok(r) => r,
            Err(_) => Err(format!(
                "rclone cat nach {} Minuten abgebrochen",
                TRANSFER_TIMEOUT.as_secs() / 60
            )),
        }
    }
}
