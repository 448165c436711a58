//! Copies off the machine (issue 37, interchange.md "Behind a proxy": `serve --backup-remote
//! REMOTE:PATH`): each verified copy of `serve --backup-dir` is handed to rclone (the Debian
//! package; the remote — Nextcloud/WebDAV, SFTP, S3, Google Drive — is the one the admin made with
//! `rclone config` as the service's user), read back from the remote (its size, and its SHA-256 as
//! the remote reports it, or downloaded back with `rclone cat` and hashed here when the remote
//! knows no SHA-256, as WebDAV) and recorded beside the local copy (`….db.remote`: „außer Haus
//! geprüft am 2026-05-01“). The newest N copies stay at the remote too. A remote that fails is
//! kept as a failure until a good copy is out (every Verwaltung page says so), is tried again, and
//! never stops the server or the local copies: the uploads run in their own task, each rclone call
//! with bounded waits and a wall-clock limit ([`rclone::Limits`]: a remote that hangs fails
//! within about a minute), never through a shell. The failure survives a restart
//! ([`Remote::kept_in`]); what a failed upload left at the remote is deleted there; a copy
//! fetched back is compared with the record of what was sent ([`fetch`]).

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::sync::{Arc, Mutex};
use std::time::Duration;

mod fetch;
mod kept;
mod rclone;
mod readback;
mod target;

pub use fetch::{fetch, fetch_with, Fetched};
pub use readback::Rechecked;
pub use target::{is_remote_file, Target};

use chrono::{NaiveDate, NaiveDateTime};

use super::{beside, sha256_of, write_synced, Backups, Failure, Probe};
use crate::service::backup::remote::rclone::{failed_text, run, spawn_error, Listed};
use crate::service::clock::ClubClock;
use crate::service::{League, ServiceError};
pub use rclone::{Limits, DEFAULT_IDLE, IDLE_ENV, TRANSFER_TIMEOUT};

/// The program run for every transfer: `rclone` from the `PATH`.
pub const RCLONE: &str = "rclone";

/// How long after a failure the same copy is tried again (a new copy is tried at once).
pub const RETRY_AFTER: Duration = Duration::from_secs(15 * 60);

/// How often the newest copy that is out is read back from the remote again (besides at each
/// start): a copy changed or deleted there is found within a day and sent again.
pub const RECHECK_EVERY: Duration = Duration::from_secs(24 * 3600);

/// The suffix of the record beside a local copy that is out and was checked there.
pub const RECORD: &str = ".remote";

/// The suffix after the database's stem of the file beside the copies that keeps the last
/// failure of the copies off the machine across restarts (`liga.ausser-haus`).
pub const FAILURE: &str = ".ausser-haus";

/// The suffix of the second name a copy has while it is sent (a hard link: the copy may be
/// pruned meanwhile, the upload reads on).
pub const SENDING: &str = ".hinaus";

/// The answer of `GET /api/v1/status` for the copies off the machine: `{"ok": true, "last":
/// "2026-05-01"}`.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct RemoteStatus {
    /// `false` while the last attempt to get a copy out failed (until a good copy is out).
    pub ok: bool,
    /// The club's day of the newest copy checked at the remote; `null` before the first.
    pub last: Option<NaiveDate>,
}

/// How a copy at the remote was checked.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Check {
    /// Its size and SHA-256 as the remote reported them (`rclone lsjson --hash`).
    Reported,
    /// The remote reports no SHA-256 (WebDAV): downloaded back (`rclone cat`) and hashed here.
    Downloaded,
}

impl Check {
    /// German, for the record and the log.
    pub fn label(self) -> &'static str {
        match self {
            Check::Reported => "Größe und SHA-256 vom Ziel gemeldet",
            Check::Downloaded => {
                "das Ziel meldet kein SHA-256: zurückgeladen und hier nachgerechnet"
            }
        }
    }
}

/// What the uploads know now.
#[derive(Debug, Default)]
struct State {
    /// The last attempt's failure, until a good copy is out.
    failure: Option<Failure>,
    /// The club's day of the newest copy checked at the remote.
    last: Option<NaiveDate>,
    /// A copy is being sent now.
    sending: bool,
    /// What a failed upload left at the remote, deleted there after the failure is reported
    /// (a hanging remote would delay the report by each deletion's limit).
    leftovers: Vec<String>,
    /// What a later check found changed at the remote, said with every failure until a good
    /// copy is out again.
    changed: Option<String>,
}

/// The copies off the machine of one backup directory (`serve --backup-remote REMOTE:PFAD`).
#[derive(Debug)]
pub struct Remote {
    target: Target,
    program: OsString,
    limits: Limits,
    /// Where the last failure is kept across restarts ([`Remote::kept_in`]).
    kept: Option<PathBuf>,
    state: Mutex<State>,
    wake: tokio::sync::Notify,
}

impl Remote {
    /// The copies to `target`, sent with `rclone` from the `PATH`.
    pub fn new(target: Target) -> Remote {
        Remote::with_program(target, RCLONE)
    }

    /// The copies to `target`, sent with the program `program` (rclone).
    pub fn with_program(target: Target, program: impl Into<OsString>) -> Remote {
        Remote {
            target,
            program: program.into(),
            limits: Limits::from_env(),
            kept: None,
            state: Mutex::new(State::default()),
            wake: tokio::sync::Notify::new(),
        }
    }

    /// These copies with their last failure kept in `file` (beside the local copies): read now
    /// (a failure before a restart shows until a good copy is out), written at each failure,
    /// removed when a copy is out.
    pub fn kept_in(self, file: PathBuf) -> Remote {
        let failure = kept::load_failure(&file, &self.target.folder());
        self.state().failure = failure;
        Remote {
            kept: Some(file),
            ..self
        }
    }

    /// The copies' failure is over (a good copy is out): forgotten here and in the kept file.
    fn clear_failure(&self, state: &mut State) {
        state.changed = None;
        if state.failure.take().is_some() {
            if let Some(file) = &self.kept {
                kept::clear_failure(file);
            }
        }
    }

    /// The limits of the rclone calls.
    pub fn limits(&self) -> Limits {
        self.limits
    }

    /// Where the copies go.
    pub fn target(&self) -> &Target {
        &self.target
    }

    fn state(&self) -> std::sync::MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The state for `GET /api/v1/status`.
    pub fn status(&self) -> RemoteStatus {
        let s = self.state();
        RemoteStatus {
            ok: s.failure.is_none(),
            last: s.last,
        }
    }

    /// The last attempt's failure, until a good copy is out.
    pub fn failure(&self) -> Option<Failure> {
        self.state().failure.clone()
    }

    /// Whether a copy is being sent now.
    pub fn sending(&self) -> bool {
        self.state().sending
    }

    /// The club's day of the newest copy checked at the remote, `None` before the first.
    pub fn last(&self) -> Option<NaiveDate> {
        self.state().last
    }

    /// Asks the upload task to send the newest good copy that is not out yet.
    pub fn wake(&self) {
        self.wake.notify_one();
    }

    /// The upload task of a running server, until `league` is dropped: sends the newest copy of
    /// `backups` that passed its probe and is not out yet ([`Remote::send`]) whenever woken
    /// ([`Remote::wake`]: at start and after every good copy), and again [`RETRY_AFTER`] after
    /// a failure. Failures are logged and kept ([`Remote::failure`]).
    pub async fn run(self: Arc<Self>, backups: Arc<Backups>, league: League) {
        let clock = league.clock();
        self.state().last = backups.list(&clock).iter().filter_map(|c| c.remote).max();
        loop {
            let failed = self.state().failure.is_some();
            if failed {
                tokio::select! {
                    () = self.wake.notified() => {}
                    () = tokio::time::sleep(RETRY_AFTER) => {}
                }
            } else {
                tokio::select! {
                    () = self.wake.notified() => {}
                    () = tokio::time::sleep(RECHECK_EVERY) => {}
                }
            }
            let clock = league.clock();
            let newest = backups
                .list(&clock)
                .into_iter()
                .find(|c| c.probe == Probe::Passed);
            let Some(copy) = newest else { continue };
            if copy.remote.is_some() {
                self.recheck_newest(&backups, &copy.name, &clock).await;
                continue;
            }
            self.state().sending = true;
            let sent = self.send(&backups, &copy.name, &clock).await;
            let left = self.settle(sent, &clock);
            self.delete(&left).await;
        }
    }

    /// Reads the newest copy `name` of `backups`, which is out, back from the remote
    /// ([`Remote::recheck`]): the same, the failure (if any) is over; changed or gone there,
    /// its record is removed, the change is said with every failure until a good copy is out
    /// and the copy is sent again at once; the remote not readable, that is the failure.
    async fn recheck_newest(&self, backups: &Backups, name: &str, clock: &ClubClock) {
        let record = beside(&backups.dir().join(name), RECORD);
        match self.recheck(name, &record).await {
            Ok(Rechecked::Same) => self.clear_failure(&mut self.state()),
            Ok(Rechecked::Changed(why)) => {
                tracing::error!("Sicherung {name}: {why}");
                if let Err(e) = std::fs::remove_file(&record) {
                    tracing::warn!("{} nicht gelöscht: {e}", record.display());
                }
                let last = backups.list(clock).iter().filter_map(|c| c.remote).max();
                {
                    let mut s = self.state();
                    s.last = last;
                    s.changed = Some(why.clone());
                }
                let failed = ServiceError::refused(format!("Sicherung {name}: {why}"));
                let left = self.settle(Err(failed), clock);
                self.delete(&left).await;
                self.wake();
            }
            Err(e) => {
                let left = self.settle(Err(e), clock);
                self.delete(&left).await;
            }
        }
    }

    /// Records the outcome `sent` of an upload ([`Remote::send`]) at `clock`'s now: the day
    /// out, the failure (kept, [`Remote::kept_in`]) or a wake for the newest copy. Returns what
    /// a failed upload left at the remote, to delete there now that the failure shows.
    fn settle(
        &self,
        sent: Result<Option<NaiveDate>, ServiceError>,
        clock: &ClubClock,
    ) -> Vec<String> {
        let mut s = self.state();
        s.sending = false;
        match sent {
            Ok(Some(day)) => {
                self.clear_failure(&mut s);
                s.last = Some(s.last.map_or(day, |l| l.max(day)));
            }
            // Pruned by newer copies before it got out: the newest goes now.
            Ok(None) => self.wake(),
            Err(e) => {
                tracing::error!("Sicherung außer Haus fehlgeschlagen: {e}");
                let message = match &s.changed {
                    Some(why) if !e.to_string().contains(why.as_str()) => format!("{why}. {e}"),
                    _ => e.to_string(),
                };
                let failure = Failure {
                    at: clock.now(),
                    message,
                };
                if let Some(file) = &self.kept {
                    kept::save_failure(file, &self.target.folder(), &failure);
                }
                s.failure = Some(failure);
            }
        }
        std::mem::take(&mut s.leftovers)
    }

    /// Sends the local copy `name` of `backups` (and its sum as `….sha256`) to the remote,
    /// reads its size and SHA-256 back from there (reported by the remote, else downloaded and
    /// hashed: [`Check`]), records it beside the local copy (`….db.remote`, with the club's
    /// day) and removes the copies at the remote beyond the newest `backups.keep()`. Returns the
    /// day; `None` when the local copy is gone (pruned by newer ones before it could be sent).
    /// Errors (German): rclone missing or failing (unreachable, full, refused), the copy at the
    /// remote differs from the local one (it is deleted there then), the record not writable.
    pub async fn send(
        &self,
        backups: &Backups,
        name: &str,
        clock: &ClubClock,
    ) -> Result<Option<NaiveDate>, ServiceError> {
        let local = backups.dir().join(name);
        // A second name for the time of the upload, taken first: a prune of the copy meanwhile
        // (newer copies made quickly) does not take the file from under rclone.
        let sending = beside(&local, SENDING);
        let _ = std::fs::remove_file(&sending);
        let source = match std::fs::hard_link(&local, &sending) {
            Ok(()) => sending.clone(),
            Err(_) if !local.exists() => return Ok(None),
            // A file system without hard links: the copy itself.
            Err(_) => local.clone(),
        };
        let sent = self.send_from(&source, &local, name).await;
        // Without a second name the copy itself may have gone while it was sent.
        let gone = source == local && !local.exists();
        let _ = std::fs::remove_file(&sending);
        let (size, sum, how) = match sent {
            Err(_) if gone => return Ok(None),
            other => other?,
        };
        let day = clock.today();
        // A copy pruned meanwhile gets no record (it would lie there alone).
        if local.exists() {
            let record = format!(
                "außer Haus geprüft am {day}\n{}\nSHA-256 {sum}, {size} Bytes ({})\n",
                self.target.file(name),
                how.label()
            );
            write_synced(&beside(&local, RECORD), &record).map_err(|e| {
                ServiceError::refused(format!("Sicherung {name} außer Haus: Vermerk: {e}"))
            })?;
        }
        tracing::info!(
            "Sicherung {name} außer Haus in {} geprüft ({})",
            self.target,
            how.label()
        );
        if let Err(e) = self.prune(backups).await {
            tracing::warn!("Alte Sicherungen außer Haus nicht entfernt: {e}");
        }
        Ok(Some(day))
    }

    /// The upload of `source` (a name of the copy `local`) as `name` with its sum beside it
    /// (`….sha256`, as `sha256sum` writes it), and the check of what the remote holds then:
    /// the copy's size, SHA-256 and how they were checked.
    async fn send_from(
        &self,
        source: &Path,
        local: &Path,
        name: &str,
    ) -> Result<(u64, String, Check), ServiceError> {
        let io = |what: &str, e: std::io::Error| {
            ServiceError::refused(format!("Sicherung {name} außer Haus: {what}: {e}"))
        };
        let size = std::fs::metadata(source)
            .map_err(|e| io("nicht lesbar", e))?
            .len();
        let recorded = std::fs::read_to_string(beside(local, ".sha256"))
            .ok()
            .and_then(|t| t.split_whitespace().next().map(str::to_lowercase))
            .filter(|s| s.len() == 64);
        let sum = match recorded {
            Some(s) => s,
            None => sha256_of(source).map_err(|e| io("nicht lesbar", e))?,
        };
        let remote_file = self.target.file(name);
        let sum_file = self.target.file(&format!("{name}.sha256"));
        // `--metadata`: the copy's mode (0600) goes with it where the remote keeps one (rclone's
        // local backend); others (WebDAV, S3, SFTP) decide it themselves.
        let copied = self
            .rclone(
                &[
                    "copyto".into(),
                    "--metadata".into(),
                    source.as_os_str().to_os_string(),
                    remote_file.clone().into(),
                ],
                TRANSFER_TIMEOUT,
            )
            .await;
        let summed = match copied {
            Ok(_) => self
                .rcat(&sum_file, format!("{sum}  {name}\n").into_bytes())
                .await
                .map_err(|e| (e, vec![remote_file.clone(), sum_file.clone()])),
            Err(e) => Err((e, vec![remote_file.clone()])),
        };
        if let Err((e, left)) = summed {
            // What a failed upload left there (a full remote keeps an empty or partial file)
            // must not look like a copy: deleted once the failure is reported.
            self.state().leftovers = left;
            return Err(self.refused(name, &e));
        }
        let (found_size, found_sum, how) = self.read_back(name).await?;
        let mut wrong = Vec::new();
        if found_size != size {
            wrong.push(format!("{found_size} Bytes statt {size}"));
        }
        if found_sum != sum {
            wrong.push(format!("SHA-256 {found_sum} statt {sum}"));
        }
        if wrong.is_empty() {
            return Ok((size, sum, how));
        }
        // What is there is not the copy: it must not count as one.
        self.delete(&[remote_file, sum_file]).await;
        Err(ServiceError::refused(format!(
            "Sicherung {name} außer Haus: die Kopie in {} ist nicht die geschickte ({}; {}); \
             dort wieder gelöscht",
            self.target,
            wrong.join(", "),
            how.label()
        )))
    }

    /// Deletes `files` at the remote where they are (errors logged: a file that is not there,
    /// an unreachable remote).
    async fn delete(&self, files: &[String]) {
        for file in files {
            let args = ["deletefile".into(), file.into()];
            match self.rclone(&args, self.limits.short()).await {
                Ok(_) => tracing::info!("{file} außer Haus gelöscht"),
                Err(e) => tracing::info!("{file} außer Haus nicht gelöscht: {e}"),
            }
        }
    }

    /// Writes `bytes` to `remote_file` (`rclone rcat`, from standard input).
    async fn rcat(&self, remote_file: &str, bytes: Vec<u8>) -> Result<(), String> {
        use tokio::io::AsyncWriteExt;
        let mut cmd = self.command(&["rcat".into(), remote_file.into()]);
        cmd.stdin(Stdio::piped())
            .stdout(Stdio::null())
            .stderr(Stdio::piped());
        let mut child = cmd.spawn().map_err(|e| self.spawn_error(e))?;
        let mut stdin = child.stdin.take().ok_or("keine Eingabe von rclone")?;
        let done = async {
            stdin.write_all(&bytes).await.map_err(|e| e.to_string())?;
            drop(stdin);
            let out = child.wait_with_output().await.map_err(|e| e.to_string())?;
            if out.status.success() {
                Ok(())
            } else {
                Err(failed_text(out.status.code(), &out.stderr))
            }
        };
        let limit = self.limits.short();
        match tokio::time::timeout(limit, done).await {
            Ok(r) => r,
            Err(_) => Err(format!(
                "rclone rcat nach {} s abgebrochen (keine Antwort vom Ziel)",
                limit.as_secs()
            )),
        }
    }

    /// Removes the copies at the remote (with their `.sha256`) beyond the newest
    /// `backups.keep()` of this database (named as its copies are; other files stay).
    async fn prune(&self, backups: &Backups) -> Result<(), String> {
        let listed = self
            .rclone(
                &[
                    "lsjson".into(),
                    "--files-only".into(),
                    "--no-mimetype".into(),
                    self.target.folder().into(),
                ],
                self.limits.short(),
            )
            .await?;
        let entries: Vec<Listed> = serde_json::from_slice(&listed).map_err(|e| e.to_string())?;
        let names: std::collections::BTreeSet<String> =
            entries.into_iter().map(|e| e.name).collect();
        let mut copies: Vec<(NaiveDateTime, &String)> = names
            .iter()
            .filter_map(|n| backups.made_of(n).map(|t| (t, n)))
            .collect();
        copies.sort_by(|a, b| (b.0, b.1.len(), b.1).cmp(&(a.0, a.1.len(), a.1)));
        for (_, name) in copies.into_iter().skip(backups.keep()) {
            for file in [name.clone(), format!("{name}.sha256")] {
                if file != *name && !names.contains(&file) {
                    continue;
                }
                self.rclone(
                    &["deletefile".into(), self.target.file(&file).into()],
                    self.limits.short(),
                )
                .await?;
                tracing::info!(
                    "Alte Sicherung außer Haus entfernt: {}",
                    self.target.file(&file)
                );
            }
        }
        Ok(())
    }

    /// The rclone command with `args` after the common flags (no shell; killed when dropped).
    fn command(&self, args: &[OsString]) -> tokio::process::Command {
        let mut cmd = tokio::process::Command::new(&self.program);
        cmd.args(self.limits.flags())
            .args(args)
            .stdin(Stdio::null())
            .kill_on_drop(true);
        cmd
    }

    /// Runs rclone with `args` within `timeout`: its standard output, or what failed (German,
    /// with rclone's last lines).
    async fn rclone(&self, args: &[OsString], timeout: Duration) -> Result<Vec<u8>, String> {
        run(self.command(args), &self.program, timeout).await
    }

    fn spawn_error(&self, e: std::io::Error) -> String {
        spawn_error(&self.program, e)
    }

    /// A failure of rclone for the copy `name`, as the refusal the page shows.
    fn refused(&self, name: &str, why: &str) -> ServiceError {
        ServiceError::refused(format!(
            "Sicherung {name} außer Haus nach {}: {why}",
            self.target
        ))
    }
}

#[cfg(test)]
mod tests;
