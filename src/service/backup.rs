//! Backups that prove themselves (interchange.md "Running it for a club"): [`verify`] opens a
//! copy read-only and checks it (integrity, the whole schema against the migrations', nothing
//! after the last page, every season's standings and payouts recomputed from the copy);
//! [`Backups`] keeps the copies of `serve --backup-dir DIR`: one at start when DIR has none of
//! the club's today, one after each closed night and each import through the league, one daily
//! at 04:00 club time, the newest N kept. Each copy `schockerliga-2026-05-01-040000.db` has two files
//! beside it: `….db.sha256` (as `sha256sum` writes it, `sha256sum -c` checks it) and `….db.probe`
//! (the probe's verdict and report). With `serve --backup-remote REMOTE:PFAD` each good copy also
//! goes off the machine ([`remote`]: rclone, read back and recorded in `….db.remote`).

use std::fmt::Write as _;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use chrono::{DateTime, NaiveDate, NaiveDateTime, NaiveTime, Utc};
use sha2::{Digest, Sha256};

use super::clock::ClubClock;
use super::{files, League, ServiceError, Setup};
use crate::db::{self, Db, Schema};

pub mod remote;

/// The copies kept when `--backup-keep` is not given.
pub const DEFAULT_KEEP: usize = 14;

/// The club time of the daily copy.
pub const DAILY_AT: NaiveTime = match NaiveTime::from_hms_opt(4, 0, 0) {
    Some(t) => t,
    None => NaiveTime::MIN,
};

/// What [`verify`] found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Report {
    /// The copy's schema, when it could be read.
    pub schema: Option<Schema>,
    /// What failed (German, one line each); empty: the probe passed.
    pub failures: Vec<String>,
    /// What was checked and found (German, one line each).
    pub facts: Vec<String>,
}

impl Report {
    /// Whether the probe passed (nothing failed).
    pub fn passed(&self) -> bool {
        self.failures.is_empty()
    }

    /// The report as German text: "Probe bestanden" or "Probe fehlgeschlagen", then one line per
    /// failure and per fact.
    pub fn text(&self) -> String {
        let mut out = String::new();
        if self.passed() {
            out.push_str("Probe bestanden\n");
        } else {
            out.push_str("Probe fehlgeschlagen\n");
            for f in &self.failures {
                let _ = writeln!(out, "- {f}");
            }
        }
        for f in &self.facts {
            let _ = writeln!(out, "  {f}");
        }
        out
    }

    fn fail(&mut self, what: impl Into<String>) {
        self.failures.push(what.into());
    }
}

/// The first bytes of every SQLite database file.
const SQLITE_HEADER: &[u8; 16] = b"SQLite format 3\0";

/// Checks the copy at `path` without changing it (it is opened read-only; a copy of an older
/// schema is checked through a migrated temporary copy): the file is an SQLite database, its
/// `….sha256` beside it (when there is one) matches, `pragma integrity_check` and
/// `foreign_key_check` find nothing, its schema is one this program knows (current or older)
/// and is whole ([`db::schema_differences`]: every table, index, trigger and view as the
/// migrations make them), no bytes follow its last page, and every season's standings and
/// payouts are recomputed from it. Never fails itself: what
/// goes wrong is in the report.
pub async fn verify(path: &Path) -> Report {
    let mut report = Report {
        schema: None,
        failures: Vec::new(),
        facts: Vec::new(),
    };
    match file_head(path) {
        Err(e) => {
            report.fail(format!("{} nicht lesbar: {e}", path.display()));
            return report;
        }
        Ok((size, head)) if size < 512 || &head != SQLITE_HEADER => {
            report.fail(format!(
                "{} ist keine SQLite-Datenbank ({size} Bytes, Kopf fehlt oder beschädigt)",
                path.display()
            ));
            return report;
        }
        Ok((size, _)) => report.facts.push(format!("Größe {size} Bytes")),
    }
    let file_size = std::fs::metadata(path).map_or(0, |m| m.len());
    match check_sidecar(path) {
        Ok(Some(sum)) => report.facts.push(format!(
            "SHA-256 {sum} stimmt mit {}.sha256",
            file_name(path)
        )),
        Ok(None) => {}
        Err(e) => report.fail(e),
    }
    let schema = match db::schema_of(path).await {
        Ok(s) => s,
        Err(e) => {
            report.fail(format!("Datenbank nicht lesbar: {e}"));
            return report;
        }
    };
    report.schema = Some(schema.clone());
    match &schema {
        Schema::Current { .. } | Schema::Older { .. } => report.facts.push(schema.describe()),
        Schema::Empty => {
            report.fail("Die Datei enthält keine Liga (kein Schema).");
            return report;
        }
        Schema::Newer { .. } | Schema::Damaged { .. } => {
            report.fail(schema.describe());
            return report;
        }
    }
    let db = match Db::open_read_only(path).await {
        Ok(db) => db,
        Err(e) => {
            report.fail(format!("Datenbank nicht lesbar: {e}"));
            return report;
        }
    };
    match db::integrity(&db.read).await {
        Ok(found) if found.is_empty() => report.facts.push("Integrität: ok".to_string()),
        Ok(found) => {
            for f in found {
                report.fail(format!("Integrität: {f}"));
            }
        }
        Err(e) => report.fail(format!("Integrität nicht prüfbar: {e}")),
    }
    // The whole schema, as this program's migrations make it: nothing dropped, added or
    // changed by hand (a trigger that zeroes Outs, the audit triggers gone).
    let differences = db::schema_differences(&db.read).await;
    match differences {
        Ok(found) if found.is_empty() => report
            .facts
            .push("Schema: Tabellen, Indizes und Trigger wie von den Umstellungen".to_string()),
        Ok(found) => {
            for f in found.into_iter().take(20) {
                report.fail(format!("Schema: {f}"));
            }
        }
        Err(e) => report.fail(format!("Schema nicht prüfbar: {e}")),
    }
    // Nothing after the last page (a copy with zeros appended).
    let pages = db::pages_bytes(&db.read).await;
    match pages {
        Ok(pages) if file_size > pages => report.fail(format!(
            "{} Bytes nach der letzten Seite der Datenbank ({pages} Bytes): die Datei wurde \
             verlängert oder ist keine reine Kopie",
            file_size - pages
        )),
        Ok(_) => {}
        Err(e) => report.fail(format!("Seiten nicht zählbar: {e}")),
    }
    if !report.passed() {
        db.read.close().await;
        return report;
    }
    // An older schema is read as this program reads it: from a migrated temporary copy.
    let (reading, _tmp) = match schema {
        Schema::Older { .. } => match migrated_copy(&db).await {
            Ok((copy, tmp)) => (copy, Some(tmp)),
            Err(e) => {
                report.fail(format!("Umstellung einer Probekopie fehlgeschlagen: {e}"));
                db.read.close().await;
                return report;
            }
        },
        _ => (db.clone(), None),
    };
    recompute(&reading, &mut report).await;
    reading.read.close().await;
    db.read.close().await;
    report
}

/// Recomputes every season's standings and payouts of the database `db` into `report`, with
/// the counts of accounts, results and audit rows.
async fn recompute(db: &Db, report: &mut Report) {
    let league = match League::of_with(db.clone(), Setup::default()).await {
        Ok(l) => l,
        Err(e) => {
            report.fail(format!("Saisons nicht lesbar: {e}"));
            return;
        }
    };
    let snap = league.snapshot();
    let years: Vec<i32> = snap.versions().keys().copied().collect();
    let mut good = Vec::new();
    for year in &years {
        let standings = league.standings(*year, None);
        let payouts = league.payouts(*year);
        match (standings, payouts) {
            (Ok(s), Ok(_)) => good.push((*year, s.rows.len())),
            (Err(e), _) | (_, Err(e)) => report.fail(format!("Saison {year}: {e}")),
        }
    }
    match (good.first(), good.last()) {
        (Some(first), Some(last)) => report.facts.push(format!(
            "{} Saison(s) {}–{}: Tabelle und Auszahlung neu berechnet",
            good.len(),
            first.0,
            last.0
        )),
        _ => report.facts.push("keine Saison".to_string()),
    }
    let mut counts = Vec::new();
    for (table, label) in [
        ("users", "Konten"),
        ("results", "Ergebniszeilen"),
        ("night_totals", "Summenzeilen"),
        ("audit_log", "Protokollzeilen"),
    ] {
        let n = db::count_rows(&db.read, table).await;
        match n {
            Ok(n) => counts.push(format!("{n} {label}")),
            Err(e) => report.fail(format!("{label} nicht zählbar: {e}")),
        }
        // Nights kept as totals (issue 31.10: twelve imported seasons said "0 Ergebniszeilen").
        if table == "night_totals" {
            let nights = db::totals_nights(&db.read).await;
            match nights {
                Ok(k) => {
                    if let Some(last) = counts.last_mut() {
                        last.push_str(&format!(" ({k} Abende als Summen)"));
                    }
                }
                Err(e) => report.fail(format!("Abende als Summen nicht zählbar: {e}")),
            }
        }
    }
    report.facts.push(counts.join(", "));
}

/// A temporary copy of `db` (through `VACUUM INTO`, the file itself untouched) with this
/// program's migrations applied, and the directory that holds it (removed when dropped).
pub(crate) async fn migrated_copy(db: &Db) -> Result<(Db, tempfile::TempDir), ServiceError> {
    let tmp = tempfile::Builder::new()
        .prefix("schockerliga-probe-")
        .tempdir()
        .map_err(|e| ServiceError::refused(format!("kein temporäres Verzeichnis: {e}")))?;
    let copy = tmp.path().join("kopie.db");
    db::copy_into(&db.read, &copy).await?;
    let migrated = Db::open(&copy).await?;
    Ok((migrated, tmp))
}

/// The size of the file at `path` and its first 16 bytes (zeros when shorter).
fn file_head(path: &Path) -> std::io::Result<(u64, [u8; 16])> {
    let mut f = std::fs::File::open(path)?;
    let size = f.metadata()?.len();
    let mut head = [0u8; 16];
    let mut read = 0;
    while read < head.len() {
        match f.read(&mut head[read..])? {
            0 => break,
            n => read += n,
        }
    }
    Ok((size, head))
}

/// The file name of `path` as text.
fn file_name(path: &Path) -> String {
    path.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default()
}

/// `path` with `suffix` appended to its name (`x.db` → `x.db.sha256`).
fn beside(path: &Path, suffix: &str) -> PathBuf {
    let mut name = path.as_os_str().to_os_string();
    name.push(suffix);
    PathBuf::from(name)
}

/// The SHA-256 of the file at `path`, lower-case hex.
pub fn sha256_of(path: &Path) -> std::io::Result<String> {
    let mut f = std::fs::File::open(path)?;
    let mut hasher = Sha256::new();
    let mut buf = vec![0u8; 64 * 1024];
    loop {
        match f.read(&mut buf)? {
            0 => break,
            n => hasher.update(&buf[..n]),
        }
    }
    Ok(hasher
        .finalize()
        .iter()
        .fold(String::with_capacity(64), |mut s, b| {
            let _ = write!(s, "{b:02x}");
            s
        }))
}

/// Checks `path` against the `….sha256` beside it: `Ok(None)` when there is none, `Ok(sum)`
/// when it matches, `Err` (German) when it does not or cannot be read.
fn check_sidecar(path: &Path) -> Result<Option<String>, String> {
    let side = beside(path, ".sha256");
    let text = match std::fs::read_to_string(&side) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(format!("{} nicht lesbar: {e}", side.display())),
    };
    let want = text.split_whitespace().next().unwrap_or("").to_lowercase();
    let got = sha256_of(path).map_err(|e| format!("{} nicht lesbar: {e}", path.display()))?;
    if want == got {
        Ok(Some(got))
    } else {
        Err(format!(
            "SHA-256 stimmt nicht: die Datei hat {got}, {} sagt {want} (die Datei wurde nach \
             der Sicherung verändert oder beschädigt)",
            file_name(&side)
        ))
    }
}

/// Writes a copy of `league`'s database to `target` (which must not exist), its `….sha256`
/// and its probe `….probe` beside it, and returns the probe's report. The copy is written as
/// `….teil` and gets its name last. Errors: the copy could not be written (disk full, no such
/// directory), and then nothing of it is left (no `….teil`, no sidecar); a copy that fails its
/// probe is kept, with the failure in its `.probe`, and is `Ok` with a failed report.
pub async fn write_verified_copy(db: &Db, target: &Path) -> Result<Report, ServiceError> {
    let part = beside(target, ".teil");
    let _ = std::fs::remove_file(&part);
    let written = write_part(db, target, &part).await;
    if written.is_err() {
        for p in [part, beside(target, ".sha256"), beside(target, ".probe")] {
            let _ = std::fs::remove_file(p);
        }
    }
    written
}

/// The steps of [`write_verified_copy`]: the copy into `part`, synced, its sum and probe beside
/// `target`, then `part` renamed to `target`.
async fn write_part(db: &Db, target: &Path, part: &Path) -> Result<Report, ServiceError> {
    let io = |what: &str, e: std::io::Error| {
        ServiceError::refused(format!("Sicherung {what} fehlgeschlagen: {e}"))
    };
    db.backup(part).await?;
    std::fs::File::open(part)
        .and_then(|f| f.sync_all())
        .map_err(|e| io("(fsync)", e))?;
    let sum = sha256_of(part).map_err(|e| io("(SHA-256)", e))?;
    // The probe runs on the finished copy before it gets its name, and its two files are
    // written first: a copy that can be listed always has its sum and its verdict.
    let mut report = verify(part).await;
    report.facts.insert(0, format!("SHA-256 {sum}"));
    write_synced(
        &beside(target, ".sha256"),
        &format!("{sum}  {}\n", file_name(target)),
    )
    .map_err(|e| io("(.sha256)", e))?;
    write_synced(&beside(target, ".probe"), &report.text()).map_err(|e| io("(.probe)", e))?;
    std::fs::rename(part, target).map_err(|e| io("(umbenennen)", e))?;
    sync_dir_of(target);
    Ok(report)
}

/// Syncs the directory of `path` (a rename in it reaches the disk); failures are ignored.
fn sync_dir_of(path: &Path) {
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        if let Ok(d) = std::fs::File::open(dir) {
            let _ = d.sync_all();
        }
    }
}

/// Writes a copy of `db` as it is to `target` (`schockerliga backup`): first as `….teil`
/// (a leftover of a killed run is removed), synced, then given its name, never over an
/// existing file. Errors (German): `target` exists, the copy could not be written; nothing is
/// left under either name then.
pub async fn write_copy(db: &Db, target: &Path) -> Result<(), ServiceError> {
    if target.exists() {
        return Err(ServiceError::refused(format!(
            "{} gibt es schon",
            target.display()
        )));
    }
    let part = beside(target, ".teil");
    let _ = std::fs::remove_file(&part);
    let io = |what: &str, e: std::io::Error| {
        ServiceError::refused(format!("Sicherung {what} fehlgeschlagen: {e}"))
    };
    let written = async {
        db.backup(&part).await?;
        std::fs::File::open(&part)
            .and_then(|f| f.sync_all())
            .map_err(|e| io("(fsync)", e))?;
        // A link fails when the name was taken meanwhile: nothing is overwritten.
        std::fs::hard_link(&part, target).map_err(|e| io("(umbenennen)", e))?;
        Ok::<(), ServiceError>(())
    }
    .await;
    let _ = std::fs::remove_file(&part);
    sync_dir_of(target);
    written
}

/// Writes a copy of the database at `database` as it is to `target` (`schockerliga backup`):
/// beside the database only as its owner ([`files::check_owner_beside`]: no root-owned file
/// there, issue 31.2), under the shared lock ([`super::lock::lock_shared`]), opened read-only
/// whatever its schema (nothing is migrated on the way), written by [`write_copy`]. Errors
/// (German): those refusals, the lock, `target` exists, the copy could not be written.
pub async fn copy_as_is(database: &Path, target: &Path) -> Result<(), ServiceError> {
    files::check_owner_beside(database, target)?;
    let _lock = super::lock::lock_shared(database)?;
    let db = Db::open_read_only(database).await?;
    let written = write_copy(&db, target).await;
    db.read.close().await;
    written
}

/// Removes from `dir` what killed copies left of the files whose names start with `prefix`
/// (`liga-`, `liga.vor-update-`): a `….db.teil` with SQLite's journal of it
/// (`….db.teil-journal`, `-wal`, `-shm`), the second name of a copy being sent off the machine
/// (`….db.hinaus`), and a `….db.sha256`, `….db.probe` or `….db.remote` whose copy is not
/// there. Other files stay. Failures are logged.
pub fn remove_leftovers(dir: &Path, prefix: &str) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.filter_map(Result::ok) {
        let name = e.file_name().to_string_lossy().into_owned();
        if !name.starts_with(prefix) {
            continue;
        }
        let orphan = [".db.sha256", ".db.probe", ".db.remote"]
            .iter()
            .any(|side| {
                name.strip_suffix(&side[3..])
                    .is_some_and(|copy| name.ends_with(side) && !dir.join(copy).exists())
            });
        let part = [
            ".db.teil",
            ".db.teil-journal",
            ".db.teil-wal",
            ".db.teil-shm",
            ".db.hinaus",
        ]
        .iter()
        .any(|end| name.ends_with(end));
        if part || orphan {
            match std::fs::remove_file(e.path()) {
                Ok(()) => tracing::info!("Rest einer abgebrochenen Kopie gelöscht: {name}"),
                Err(e) => tracing::warn!("{name} nicht gelöscht: {e}"),
            }
        }
    }
}

/// Writes `text` to `path` (private: 0600, whatever the umask) and syncs it to disk.
fn write_synced(path: &Path, text: &str) -> std::io::Result<()> {
    use std::io::Write;
    use std::os::unix::fs::{OpenOptionsExt, PermissionsExt};
    let mut f = std::fs::OpenOptions::new()
        .write(true)
        .create(true)
        .truncate(true)
        .mode(0o600)
        .open(path)?;
    f.set_permissions(std::fs::Permissions::from_mode(0o600))?;
    f.write_all(text.as_bytes())?;
    f.sync_all()
}

/// Makes the directory `dir` (and its missing parents) when it is missing: `dir` itself
/// private (0700, whatever the umask); an existing one is left as it is.
pub fn create_private_dir(dir: &Path) -> std::io::Result<()> {
    use std::os::unix::fs::{DirBuilderExt, PermissionsExt};
    if dir.is_dir() {
        return Ok(());
    }
    if let Some(parent) = dir.parent().filter(|p| !p.as_os_str().is_empty()) {
        std::fs::create_dir_all(parent)?;
    }
    match std::fs::DirBuilder::new().mode(0o700).create(dir) {
        Ok(()) => std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o700)),
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists && dir.is_dir() => Ok(()),
        Err(e) => Err(e),
    }
}

/// The probe's verdict on one copy.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Probe {
    /// „Probe bestanden“.
    Passed,
    /// „Probe fehlgeschlagen“, with the first failure (German).
    Failed(String),
    /// No probe recorded beside the copy.
    Unchecked,
}

/// One copy in the backup directory, for the admin page *Sicherung*.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Copy {
    /// The file name (`schockerliga-2026-05-01-040000.db`): what a download asks for.
    pub name: String,
    /// When it was made, on the club's wall clock, German: "01.05.2026 04:00:00".
    pub made: String,
    /// When it was made (UTC).
    pub made_at: DateTime<Utc>,
    /// Its size in bytes.
    pub size_bytes: u64,
    /// Its SHA-256 (lower-case hex) from its `.sha256`; empty when there is none.
    pub sha256: String,
    /// What its probe said.
    pub probe: Probe,
    /// The club's day it was checked off the machine (`serve --backup-remote`, its `….db.remote`);
    /// `None`: not out (yet).
    pub remote: Option<NaiveDate>,
}

/// A backup that failed (kept until a good copy is made).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Failure {
    /// When (UTC).
    pub at: DateTime<Utc>,
    /// What failed (German).
    pub message: String,
}

/// Why a copy was made (logged).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reason {
    /// The server started and DIR had no good copy of the club's today.
    Start,
    /// A night was closed.
    NightClosed,
    /// Seasons were imported through the Verwaltung (a spreadsheet, a season file).
    Imported,
    /// The daily copy at 04:00 club time.
    Daily,
    /// An admin asked for one (*Sicherung* → „Jetzt sichern“).
    Now,
}

impl Reason {
    fn label(self) -> &'static str {
        match self {
            Reason::Start => "beim Start",
            Reason::NightClosed => "nach dem Abschluss eines Abends",
            Reason::Imported => "nach einem Import",
            Reason::Daily => "tägliche Sicherung",
            Reason::Now => "auf Wunsch",
        }
    }
}

/// The file in a backup directory that names its database (its whole path): a directory
/// holds the copies of one database only (issue 32.7: two servers sharing one pruned and
/// handed out each other's copies).
pub const OWNER_FILE: &str = ".schockerliga-datenbank";

/// Marks `dir` as the backup directory of the database at `database`, or refuses (German)
/// when it is another database's.
fn claim(database: &Path, dir: &Path) -> Result<(), ServiceError> {
    let me = database
        .canonicalize()
        .unwrap_or_else(|_| super::files::absolute(database));
    let me = me.to_string_lossy().into_owned();
    let marker = dir.join(OWNER_FILE);
    match std::fs::read_to_string(&marker) {
        Ok(text) if text.trim_end_matches('\n') == me => Ok(()),
        Ok(text) => Err(ServiceError::refused(format!(
            "Das Sicherungsverzeichnis {} gehört zur Datenbank {} (so steht es in {}): zwei \
             Datenbanken können ihre Sicherungen nicht in einem Verzeichnis haben, jede räumte \
             die der anderen ab. Für {me} ein eigenes Verzeichnis angeben (--backup-dir); ist \
             die Datenbank umgezogen, {} löschen.",
            dir.display(),
            text.trim_end(),
            marker.display(),
            marker.display()
        ))),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            write_synced(&marker, &format!("{me}\n")).map_err(|e| {
                ServiceError::refused(format!("{} nicht schreibbar: {e}", marker.display()))
            })
        }
        Err(e) => Err(ServiceError::refused(format!(
            "{} nicht lesbar: {e}",
            marker.display()
        ))),
    }
}

/// The backups of one database into one directory (`serve --backup-dir DIR --backup-keep N`).
#[derive(Debug)]
pub struct Backups {
    dir: PathBuf,
    keep: usize,
    /// The copies' name before the date: the database file's stem (`schockerliga`).
    stem: String,
    /// The last attempt's failure, until a good copy is made.
    failure: Mutex<Option<Failure>>,
    /// One copy at a time.
    making: tokio::sync::Mutex<()>,
    /// Where good copies go off the machine (`--backup-remote`), if anywhere.
    remote: Option<Arc<remote::Remote>>,
    /// Why the copies off the machine asked for are off (German), see [`Backups::remote_off`].
    remote_off: Option<String>,
}

impl Backups {
    /// The backups of the database at `database` into `dir` (created when missing, 0700),
    /// keeping the newest `keep` (at least 1) copies that passed their probe. `dir` is marked
    /// as this database's ([`OWNER_FILE`]). Errors (German): `dir` cannot be created, or holds
    /// the copies of another database (two servers would prune each other's copies).
    pub fn new(database: &Path, dir: &Path, keep: usize) -> Result<Backups, ServiceError> {
        create_private_dir(dir).map_err(|e| {
            ServiceError::refused(format!(
                "Sicherungsverzeichnis {} nicht anlegbar: {e}",
                dir.display()
            ))
        })?;
        claim(database, dir)?;
        let stem = database
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .filter(|s| !s.is_empty())
            .unwrap_or_else(|| "schockerliga".to_string());
        // What copies killed while they were written left (issue 32.7).
        remove_leftovers(dir, &format!("{stem}-"));
        Ok(Backups {
            dir: dir.to_path_buf(),
            keep: keep.max(1),
            stem,
            failure: Mutex::new(None),
            making: tokio::sync::Mutex::new(()),
            remote: None,
            remote_off: None,
        })
    }

    /// These backups without the copies off the machine that were asked for, because of `why`
    /// (German: the target is no `REMOTE:PFAD`): every Verwaltung page says so
    /// ([`Backups::warning`]); the local copies run.
    pub fn remote_off(self, why: String) -> Backups {
        Backups {
            remote_off: Some(why),
            ..self
        }
    }

    /// Why the copies off the machine asked for are off (German), if they are.
    pub fn remote_off_reason(&self) -> Option<&str> {
        self.remote_off.as_deref()
    }

    /// These backups with each good copy also sent off the machine by `remote`
    /// ([`remote::Remote::run`], started with the backups' schedule); its last failure kept
    /// beside the copies (`<stem>.ausser-haus`, [`remote::Remote::kept_in`]).
    pub fn with_remote(self, remote: remote::Remote) -> Backups {
        let kept = self.dir.join(format!("{}{}", self.stem, remote::FAILURE));
        Backups {
            remote: Some(Arc::new(remote.kept_in(kept))),
            ..self
        }
    }

    /// The copies off the machine (`--backup-remote`), when switched on.
    pub fn remote(&self) -> Option<&remote::Remote> {
        self.remote.as_deref()
    }

    /// The directory of the copies.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// How many good copies are kept.
    pub fn keep(&self) -> usize {
        self.keep
    }

    /// The file name of a copy made at `local` (club wall clock).
    fn name_at(&self, local: NaiveDateTime) -> String {
        format!("{}-{}.db", self.stem, local.format("%Y-%m-%d-%H%M%S"))
    }

    /// When the copy called `name` was made (club wall clock), from its name; `None` for a file
    /// that is no copy of this database.
    fn made_of(&self, name: &str) -> Option<NaiveDateTime> {
        let rest = name.strip_prefix(&self.stem)?.strip_prefix('-')?;
        let stamp = rest.strip_suffix(".db")?;
        // A second copy within one second is `…-040000-2.db`.
        let stamp = stamp.get(..17).unwrap_or(stamp);
        NaiveDateTime::parse_from_str(stamp, "%Y-%m-%d-%H%M%S").ok()
    }

    /// Every copy in the directory, newest first, with its time on `clock`'s wall clock, size,
    /// SHA-256 and probe. Files that are not copies of this database are left out.
    pub fn list(&self, clock: &ClubClock) -> Vec<Copy> {
        let Ok(entries) = std::fs::read_dir(&self.dir) else {
            return Vec::new();
        };
        let mut copies: Vec<Copy> = entries
            .filter_map(Result::ok)
            .filter_map(|e| {
                let name = e.file_name().to_string_lossy().into_owned();
                let local = self.made_of(&name)?;
                let meta = e.metadata().ok().filter(|m| m.is_file())?;
                let made_at = clock
                    .timezone()
                    .from_local_datetime(&local)
                    .earliest()
                    .map(|t| t.with_timezone(&Utc))
                    .unwrap_or_else(|| local.and_utc());
                let path = e.path();
                let sha256 = std::fs::read_to_string(beside(&path, ".sha256"))
                    .ok()
                    .and_then(|t| t.split_whitespace().next().map(str::to_string))
                    .unwrap_or_default();
                let probe = match std::fs::read_to_string(beside(&path, ".probe")) {
                    Ok(t) if t.starts_with("Probe bestanden") => Probe::Passed,
                    Ok(t) => Probe::Failed(
                        t.lines()
                            .nth(1)
                            .map(|l| l.trim_start_matches("- ").to_string())
                            .unwrap_or_else(|| "Probe fehlgeschlagen".to_string()),
                    ),
                    Err(_) => Probe::Unchecked,
                };
                let remote = std::fs::read_to_string(beside(&path, remote::RECORD))
                    .ok()
                    .and_then(|t| {
                        let day = t.lines().next()?.strip_prefix("außer Haus geprüft am ")?;
                        NaiveDate::parse_from_str(day.trim(), "%Y-%m-%d").ok()
                    });
                Some(Copy {
                    made: local.format("%d.%m.%Y %H:%M:%S").to_string(),
                    made_at,
                    name,
                    size_bytes: meta.len(),
                    sha256,
                    probe,
                    remote,
                })
            })
            .collect();
        // Newest first; of two in the same second the later (`…-2.db`) first.
        copies.sort_by(|a, b| {
            (b.made_at, b.name.len(), &b.name).cmp(&(a.made_at, a.name.len(), &a.name))
        });
        copies
    }

    /// The path of the copy called `name` for a download: `None` unless `name` is one of
    /// [`Backups::list`]'s copies (no other file of the server can be asked for).
    pub fn file(&self, name: &str, clock: &ClubClock) -> Option<PathBuf> {
        self.list(clock)
            .iter()
            .any(|c| c.name == name)
            .then(|| self.dir.join(name))
    }

    /// Whether the directory holds a copy of the club's today that passed its probe.
    pub fn has_good_copy_of_today(&self, clock: &ClubClock) -> bool {
        let today = clock.today();
        self.list(clock)
            .iter()
            .any(|c| c.probe == Probe::Passed && clock.local(c.made_at).date_naive() == today)
    }

    /// The failure to show on every Verwaltung page until a good copy exists: the last attempt
    /// of this process failed, or the newest copy in the directory failed its probe. `None`
    /// when the newest copy passed.
    pub fn last_failure(&self, clock: &ClubClock) -> Option<Failure> {
        if let Some(f) = self
            .failure
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
        {
            return Some(f);
        }
        let newest = self.list(clock).into_iter().next()?;
        match newest.probe {
            Probe::Failed(why) => Some(Failure {
                at: newest.made_at,
                message: format!(
                    "Die Sicherung {} besteht ihre Probe nicht: {why}",
                    newest.name
                ),
            }),
            _ => None,
        }
    }

    /// The German warning for the Verwaltung pages, from [`Backups::last_failure`] and the
    /// failure of the copies off the machine ([`remote::Remote::failure`]), until a good copy
    /// is made (out).
    pub fn warning(&self, clock: &ClubClock) -> Option<String> {
        let local = self.last_failure(clock).map(|f| {
            format!(
                "Die letzte Sicherung ist fehlgeschlagen ({}): {} Bitte unter Verwaltung → \
                 Sicherung prüfen.",
                clock.local(f.at).format("%d.%m.%Y %H:%M"),
                f.message.trim_end_matches('.').to_string() + "."
            )
        });
        let off = self.remote_off.as_ref().map(|why| {
            format!(
                "Sicherungen außer Haus sind aus: {} Die Kopien auf diesem Rechner laufen.",
                why.trim_end_matches('.').to_string() + "."
            )
        });
        let remote = self.remote().and_then(|r| r.failure()).map(|f| {
            format!(
                "Die Sicherung außer Haus ist fehlgeschlagen ({}): {} Die Kopien auf diesem \
                 Rechner sind davon nicht betroffen; der Server versucht es wieder. Bitte unter \
                 Verwaltung → Sicherung prüfen.",
                clock.local(f.at).format("%d.%m.%Y %H:%M"),
                f.message.trim_end_matches('.').to_string() + "."
            )
        });
        let all: Vec<String> = [local, off, remote].into_iter().flatten().collect();
        (!all.is_empty()).then(|| all.join(" "))
    }

    /// The number of the newest copy in the directory named in the second of `first` (`….db`
    /// is 1, `…-2.db` is 2, sidecars and parts count too), `None` when there is none: a new
    /// copy of that second takes the next number, so it sorts newest even when older ones of
    /// that second were pruned meanwhile (their first name free again).
    fn newest_of_second(&self, first: &str) -> Option<u32> {
        let stamp = first.trim_end_matches(".db");
        std::fs::read_dir(&self.dir)
            .ok()?
            .filter_map(Result::ok)
            .filter_map(|e| {
                let name = e.file_name().to_string_lossy().into_owned();
                let rest = name.strip_prefix(stamp)?;
                if rest.starts_with(".db") {
                    return Some(1);
                }
                let (n, _) = rest.strip_prefix('-')?.split_once(".db")?;
                n.parse::<u32>().ok()
            })
            .max()
    }

    /// Makes a verified copy of `league`'s database now (named by the club's clock), removes
    /// the copies beyond the newest `keep` good ones, and returns the new copy. A copy that
    /// cannot be written or fails its probe is a failure ([`Backups::last_failure`]) and an
    /// `Err` (German); a good one clears the failure.
    pub async fn make(&self, league: &League, reason: Reason) -> Result<Copy, ServiceError> {
        let _one = self.making.lock().await;
        let clock = league.clock();
        let local = clock.now_local().naive_local();
        let first = self.name_at(local);
        let name = match self.newest_of_second(&first) {
            None => first.clone(),
            Some(n) => format!("{}-{}.db", first.trim_end_matches(".db"), n + 1),
        };
        let target = self.dir.join(&name);
        let result = write_verified_copy(league.db(), &target).await;
        let outcome = match result {
            Ok(report) if report.passed() => Ok(()),
            Ok(report) => Err(ServiceError::refused(format!(
                "Sicherung {name}: Probe fehlgeschlagen: {}",
                report.failures.join("; ")
            ))),
            Err(e) => Err(ServiceError::refused(format!("Sicherung {name}: {e}"))),
        };
        match outcome {
            Ok(()) => {
                *self.failure.lock().unwrap_or_else(|e| e.into_inner()) = None;
                tracing::info!("Sicherung {} geschrieben und geprüft", target.display());
                self.prune(&clock);
                if let Some(remote) = &self.remote {
                    remote.wake();
                }
                self.list(&clock)
                    .into_iter()
                    .find(|c| c.name == name)
                    .ok_or_else(|| ServiceError::NotFound(format!("Sicherung {name}")))
            }
            Err(e) => {
                tracing::error!("Sicherung ({}) fehlgeschlagen: {e}", reason.label());
                *self.failure.lock().unwrap_or_else(|e| e.into_inner()) = Some(Failure {
                    at: clock.now(),
                    message: e.to_string(),
                });
                Err(e)
            }
        }
    }

    /// Removes the copies (and their `.sha256`/`.probe`/`.remote`) older than the newest `keep`
    /// ones that passed their probe; failed copies newer than those stay for a look.
    pub fn prune(&self, clock: &ClubClock) {
        let mut good = 0;
        for copy in self.list(clock) {
            if good >= self.keep {
                let path = self.dir.join(&copy.name);
                for p in [
                    beside(&path, ".sha256"),
                    beside(&path, ".probe"),
                    beside(&path, remote::RECORD),
                    path,
                ] {
                    if let Err(e) = std::fs::remove_file(&p) {
                        if e.kind() != std::io::ErrorKind::NotFound {
                            tracing::warn!("{} nicht gelöscht: {e}", p.display());
                        }
                    }
                }
                continue;
            }
            if copy.probe == Probe::Passed {
                good += 1;
            }
        }
    }

    /// The copies of a running server, until `league` is dropped: one now when the directory
    /// has no good copy of the club's today, then one after each closed night, one after each
    /// import through the league and one daily at
    /// [`DAILY_AT`] club time. Failures are logged and kept ([`Backups::last_failure`]). With
    /// `--backup-remote` the uploads run beside in their own task ([`remote::Remote::run`]),
    /// which sends the newest good copy at once when it is not out yet.
    pub async fn run(self: Arc<Self>, league: League) {
        if let Some(remote) = &self.remote {
            tokio::spawn(remote.clone().run(self.clone(), league.clone()));
        }
        let made = !self.has_good_copy_of_today(&league.clock())
            && self.make(&league, Reason::Start).await.is_ok();
        // A good copy made wakes the uploads itself; else the newest one there goes out now,
        // when it did not before (a server started again).
        if let (Some(remote), false) = (&self.remote, made) {
            remote.wake();
        }
        loop {
            let next = league.clock().next_at(league.clock().now(), DAILY_AT);
            let reason = tokio::select! {
                () = wait_until(&league, next) => Reason::Daily,
                () = league.night_closed() => Reason::NightClosed,
                () = league.seasons_imported() => Reason::Imported,
            };
            let _ = self.make(&league, reason).await;
        }
    }
}

/// Sleeps until the club's clock reaches `at`, looking at it at least once a minute (a clock
/// set by NTP, a machine that slept).
async fn wait_until(league: &League, at: DateTime<Utc>) {
    loop {
        let left = at - league.clock().now();
        let Ok(left) = left.to_std() else { return };
        if left.is_zero() {
            return;
        }
        tokio::time::sleep(left.min(std::time::Duration::from_secs(60))).await;
    }
}

impl League {
    /// Switches on the backups `backups` for this league and starts their schedule
    /// ([`Backups::run`]); the admin page reads them through [`League::backups`]. A second call
    /// changes nothing and returns the first ones.
    pub fn enable_backups(&self, backups: Backups) -> Arc<Backups> {
        let mut started = false;
        let b = self
            .inner
            .backups
            .get_or_init(|| {
                started = true;
                Arc::new(backups)
            })
            .clone();
        if started {
            tokio::spawn(b.clone().run(self.clone()));
        }
        b
    }

    /// The backups of `serve --backup-dir`, when switched on.
    pub fn backups(&self) -> Option<Arc<Backups>> {
        self.inner.backups.get().cloned()
    }

    /// Notes that the backups of `serve --backup-dir` could not start (German: `why`, from
    /// [`Backups::new`]): the server runs without them, and every Verwaltung page says so
    /// ([`League::backup_problem`]). Only the first call counts.
    pub fn backups_unavailable(&self, why: String) {
        let _ = self.inner.backups_off.set(why);
    }

    /// Why the backups asked for are off ([`League::backups_unavailable`]), as a German
    /// warning for the Verwaltung pages; `None` when they run or none were asked for.
    pub fn backup_problem(&self) -> Option<String> {
        self.inner.backups_off.get().map(|why| {
            format!(
                "Sicherungen sind aus: {} Der Server läuft ohne Sicherungen, bis das behoben \
                 und er neu gestartet ist.",
                why.trim_end_matches('.').to_string() + "."
            )
        })
    }
}

use chrono::TimeZone as _;

#[cfg(test)]
mod tests;
