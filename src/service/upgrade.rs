//! Upgrades that keep the way back (issue 23.4): commands that only read open the database
//! without migrating it (an older schema is read through a migrated temporary copy, the file
//! stays as it is, so the older release still opens it); commands that write need the
//! program's schema; only `serve` and `migrate` migrate, after a verified copy beside the
//! database, and only while no other process holds the file. "Holds" is an OS file lock
//! (`flock` through `fs4`) on the database file: every command of this program takes it
//! shared while it has the database open, `migrate` and `restore` need it alone.

use std::fs::File;
use std::path::{Path, PathBuf};

use super::backup::{self, Report};
use super::clock::ClubClock;
use super::files;
pub use super::lock::{lock_exclusive, lock_shared, DbLock};
use super::{League, ServiceError, Setup};
use crate::db::{self, Db, Schema};

/// Whether the file at `path` holds no database yet (missing or 0 bytes).
fn is_new(path: &Path) -> bool {
    std::fs::metadata(path).map_or(true, |m| m.len() == 0)
}

/// The German refusal for a database of schema `schema` that this program must not change or
/// cannot read; `None` when it can go on (current, or new and empty).
fn refusal(path: &Path, schema: &Schema, reading: bool) -> Option<ServiceError> {
    let file = path.display();
    match schema {
        Schema::Empty | Schema::Current { .. } => None,
        Schema::Older { .. } if reading => None,
        Schema::Older { .. } => Some(ServiceError::refused(format!(
            "{} Die Datenbank {file} wird dafür nicht umgestellt: erst `schockerliga migrate` \
             (schreibt vorher eine geprüfte Kopie daneben) oder den Server starten.",
            schema.describe()
        ))),
        Schema::Newer { .. } => Some(ServiceError::refused(format!(
            "{} Die Datenbank {file} bleibt unverändert: bitte die neuere Version von \
             Schockerliga verwenden.",
            schema.describe()
        ))),
        Schema::Damaged { .. } => Some(ServiceError::refused(format!(
            "{} ({file}); siehe docs/restore.md.",
            schema.describe()
        ))),
    }
}

/// A league opened for reading, with the lock and the temporary copy it reads from.
#[derive(Debug)]
pub struct Reading {
    /// The league (its database must not be written).
    pub league: League,
    /// German, for stderr: the database is older than the program and was read from a migrated
    /// temporary copy; `None` for a current one.
    pub notice: Option<String>,
    /// The schema of the file itself (older for a league read from a migrated copy).
    pub schema: Schema,
    _lock: DbLock,
    _copy: Option<tempfile::TempDir>,
}

/// Opens the existing database at `path` for a command that only reads it (`export`,
/// `standings`, `payouts`): read-only, not migrated. An older schema is read from a migrated
/// temporary copy (the file itself is not changed: the older release still opens it), with a
/// [`Reading::notice`]; a newer or damaged one is refused (German).
pub async fn open_for_reading(path: &Path, setup: Setup) -> Result<Reading, ServiceError> {
    let stored = open_stored(path).await?;
    Ok(Reading {
        league: League::of_with(stored.db, setup).await?,
        notice: stored.notice,
        schema: stored.schema,
        _lock: stored._lock,
        _copy: stored._copy,
    })
}

/// A database opened for a command that reads it season by season without holding the league
/// in memory (`export --all`, issue 37): as [`open_for_reading`] opens it, but no season is read
/// until asked for.
#[derive(Debug)]
pub struct StoredReading {
    db: Db,
    /// German, for stderr: read from a migrated temporary copy ([`Reading::notice`]).
    pub notice: Option<String>,
    /// The schema of the file itself.
    pub schema: Schema,
    _lock: DbLock,
    _copy: Option<tempfile::TempDir>,
}

impl StoredReading {
    /// Writes the whole club's file to `out`, one season at a time
    /// ([`super::interchange::export_club_from`]). Errors: storage, a stored season that fails
    /// its checks, the output.
    pub async fn export_club<W: std::io::Write>(&self, out: W) -> Result<W, ServiceError> {
        super::interchange::export_club_from(&self.db, out).await
    }
}

/// Opens the existing database at `path` read-only as [`open_for_reading`] does (the shared
/// lock, an older schema from a migrated temporary copy, a newer or damaged one refused), without
/// reading the league. Errors: as [`open_for_reading`].
pub async fn open_stored(path: &Path) -> Result<StoredReading, ServiceError> {
    let lock = lock_shared(path)?;
    let schema = db::schema_of(path).await?;
    if let Some(e) = refusal(path, &schema, true) {
        return Err(e);
    }
    let db = Db::open_read_only(path).await?;
    let (db, copy, notice) = match &schema {
        Schema::Older { .. } => {
            let (copy, tmp) = backup::migrated_copy(&db).await?;
            db.read.close().await;
            let notice = format!(
                "Hinweis: {} Gelesen aus einer umgestellten Kopie; die Datei selbst bleibt \
                 unverändert (umstellen: schockerliga migrate).",
                schema.describe()
            );
            (copy, Some(tmp), Some(notice))
        }
        _ => (db, None, None),
    };
    Ok(StoredReading {
        db,
        notice,
        schema,
        _lock: lock,
        _copy: copy,
    })
}

/// A league opened for a command that writes (`import`, `user`, `night`, `player`, `demo`),
/// with the lock on its database.
#[derive(Debug)]
pub struct Writing {
    /// The league: every season read, writes as the web's.
    pub league: League,
    /// Whether this call made the database (a new, empty league): the command says so and
    /// where ([`created_message`]).
    pub created: bool,
    _lock: DbLock,
}

/// The German line of a command that made a new database at `path`: „Neue Datenbank
/// /abs/liga.db angelegt.“, so that a database made by mistake (the wrong directory, no
/// `--database`) is seen at once (issue 31.3).
pub fn created_message(path: &Path) -> String {
    format!(
        "Neue Datenbank {} angelegt (eine leere Liga; war eine andere gemeint, dann mit \
         --database deren Datei angeben).",
        files::absolute(path).display()
    )
}

/// Makes the database at `path` when there is none (missing or 0 bytes) and says whether it
/// did. Refused (German): this process runs as another user than the directory's owner
/// ([`files::check_owner`]), or a restore was interrupted there (its `….wiederherstellung`
/// lies beside: a new, empty league would take the restored one's place).
async fn create_if_new(path: &Path) -> Result<bool, ServiceError> {
    if !is_new(path) {
        return Ok(false);
    }
    let incoming = with_suffix(path, INCOMING);
    if incoming.exists() {
        return Err(ServiceError::refused(format!(
            "Die Datenbank {} fehlt, daneben liegt {} von einer unterbrochenen \
             Wiederherstellung: es wird keine neue, leere Liga angelegt. Die Wiederherstellung \
             wiederholen (schockerliga restore SICHERUNG) oder die Datei an ihren Platz \
             umbenennen: mv {} {}",
            path.display(),
            incoming.display(),
            files::shell_word(&incoming.to_string_lossy()),
            files::shell_word(&path.to_string_lossy()),
        )));
    }
    drop(Db::open(path).await?);
    Ok(true)
}

/// Opens the league of the database at `path` for a command that writes, with the clock and
/// time zone of `setup`: a new file gets the schema; an existing one must have this program's
/// schema — an older one is refused with the way to migrate it (so no command migrates by the
/// way), a newer or damaged one refused too. Refused too while this process runs as another
/// user than the database's owner ([`files::check_owner`]: the files it leaves would not be
/// the server's). Errors besides: storage, reading the seasons ([`League::of_with`]).
pub async fn open_for_writing(path: &Path, setup: Setup) -> Result<Writing, ServiceError> {
    files::check_owner(path)?;
    // A new league: the schema is made, there is nothing to keep.
    let created = create_if_new(path).await?;
    let lock = lock_shared(path)?;
    let schema = db::schema_of(path).await?;
    if let Some(e) = refusal(path, &schema, false) {
        return Err(e);
    }
    Ok(Writing {
        league: League::of_with(Db::open(path).await?, setup).await?,
        created,
        _lock: lock,
    })
}

/// The schema version this program reads and writes: its newest migration.
pub fn program_version() -> i64 {
    db::program_version()
}

/// What [`migrate`] did.
#[derive(Debug)]
pub struct Migrated {
    /// The schema before.
    pub before: Schema,
    /// The verified copy written beside the database before migrating (`None`: nothing to
    /// migrate), and its probe.
    pub copy: Option<(PathBuf, Report)>,
    /// The lock, held alone (see [`DbLock::share`] for serving on).
    pub lock: DbLock,
}

/// Brings the database at `path` to this program's schema: a new or current one is left as it
/// is; an older one, while no other process holds the file, first gets a verified copy beside
/// it (`schockerliga.vor-update-2026-05-01-013000.db`, with `.sha256` and `.probe`; its probe
/// must pass), then the migrations. Refused (German): another process holds the file, the copy
/// fails its probe, a newer or damaged schema. Returns the lock, held alone.
pub async fn migrate(path: &Path, clock: &ClubClock) -> Result<Migrated, ServiceError> {
    files::check_owner(path)?;
    create_if_new(path).await?;
    let lock = lock_exclusive(path)?;
    let before = db::schema_of(path).await?;
    match &before {
        Schema::Empty | Schema::Current { .. } => {
            return Ok(Migrated {
                before,
                copy: None,
                lock,
            })
        }
        Schema::Older { .. } => {}
        Schema::Newer { .. } | Schema::Damaged { .. } => {
            return Err(refusal(path, &before, false)
                .unwrap_or_else(|| ServiceError::refused(before.describe())))
        }
    }
    // A copy that failed before, of the database as it still is: said again, none made.
    if let Some(failed) = failed_upgrade_copy(path) {
        if !changed_since(path, failed.at) {
            return Err(ServiceError::UpgradeStopped(format!(
                "{} Seitdem ist die Datenbank unverändert: keine weitere Kopie, nichts \
                 umgestellt. Die Ursache beheben (was die Probe fand, steht in {}.probe), dann \
                 neu starten; die gescheiterte Kopie wird dann ersetzt.",
                failed.sentence(),
                failed.copy.display()
            )));
        }
        // Changed since (mended): the failed copy makes room for a new one.
        remove_copy(&failed.copy);
    }
    // What a killed copy before an earlier upgrade left.
    if let (Some(dir), Some(stem)) = (path.parent(), path.file_stem()) {
        let dir = if dir.as_os_str().is_empty() {
            Path::new(".")
        } else {
            dir
        };
        backup::remove_leftovers(dir, &format!("{}.vor-update-", stem.to_string_lossy()));
    }
    let copy = copy_path(path, clock);
    let reader = Db::open_read_only(path).await?;
    let report = backup::write_verified_copy(&reader, &copy).await;
    reader.read.close().await;
    let report = report?;
    // The way back: nothing may change the copy (opened by mistake, it would be migrated).
    read_only(&copy);
    if !report.passed() {
        return Err(ServiceError::UpgradeStopped(format!(
            "Die Kopie vor der Umstellung besteht ihre Probe nicht ({}): {}. Nichts umgestellt; \
             die Kopie bleibt zum Nachsehen, bis die Ursache behoben ist (bis dahin wird keine \
             weitere geschrieben).",
            copy.display(),
            report.failures.join("; ")
        )));
    }
    let db = Db::open(path).await?;
    db.close().await?;
    Ok(Migrated {
        before,
        copy: Some((copy, report)),
        lock,
    })
}

/// Readies the database at `path` for serving: a new one gets the schema, an older one is
/// migrated by [`migrate`] (verified copy first; refused while another process holds it), a
/// newer or damaged one is refused. Returns the lock, shared, to hold while serving (so that
/// `migrate` and `restore` refuse meanwhile), and the copy written before a migration.
pub async fn prepare_serve(
    path: &Path,
    clock: &ClubClock,
) -> Result<(DbLock, Option<(PathBuf, Report)>), ServiceError> {
    files::check_owner(path)?;
    if create_if_new(path).await? {
        tracing::info!("{}", created_message(path));
    }
    files::check_writable(path)?;
    files::make_private(path);
    let schema = db::schema_of(path).await?;
    if !matches!(schema, Schema::Older { .. }) {
        if let Some(e) = refusal(path, &schema, false) {
            return Err(e);
        }
        return Ok((lock_shared(path)?, None));
    }
    let done = migrate(path, clock).await?;
    if let Some((copy, _)) = &done.copy {
        tracing::info!(
            "Datenbank umgestellt ({}); Kopie vorher: {}",
            done.before.describe(),
            copy.display()
        );
    }
    let mut lock = done.lock;
    lock.share()?;
    Ok((lock, done.copy))
}

/// The name of the copy before a migration: beside the database, its stem, `.vor-update-` and
/// the club's wall-clock time (`liga.db` → `liga.vor-update-2026-05-01-013000.db`).
fn copy_path(path: &Path, clock: &ClubClock) -> PathBuf {
    let stem = path
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| "schockerliga".to_string());
    let stamp = clock.now_local().format("%Y-%m-%d-%H%M%S");
    let mut candidate = path.with_file_name(format!("{stem}.vor-update-{stamp}.db"));
    let mut n = 2;
    while candidate.exists() {
        candidate = path.with_file_name(format!("{stem}.vor-update-{stamp}-{n}.db"));
        n += 1;
    }
    candidate
}

/// A copy before a migration that failed its probe (`….vor-update-….db` whose `.probe` says
/// „Probe fehlgeschlagen“).
#[derive(Debug, Clone)]
pub struct FailedCopy {
    /// The copy.
    pub copy: PathBuf,
    /// When its probe was written.
    pub at: std::time::SystemTime,
    /// What the probe found first (German).
    pub why: String,
}

impl FailedCopy {
    /// German: „Die Kopie vor der Umstellung … besteht ihre Probe nicht: ….“
    pub fn sentence(&self) -> String {
        format!(
            "Die Kopie vor der Umstellung {} besteht ihre Probe nicht: {}.",
            self.copy.display(),
            self.why.trim_end_matches('.')
        )
    }
}

/// The newest copy before a migration beside the database at `path` that failed its probe
/// (at most one is kept, see [`migrate`]); `None` when there is none.
pub fn failed_upgrade_copy(path: &Path) -> Option<FailedCopy> {
    let stem = path.file_stem()?.to_string_lossy().into_owned();
    let prefix = format!("{stem}.vor-update-");
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let mut failed: Vec<FailedCopy> = std::fs::read_dir(&dir)
        .ok()?
        .filter_map(Result::ok)
        .filter_map(|e| {
            let name = e.file_name().to_string_lossy().into_owned();
            if !name.starts_with(&prefix) || !name.ends_with(".db") {
                return None;
            }
            let copy = e.path();
            let probe = with_suffix(&copy, ".probe");
            let text = std::fs::read_to_string(&probe).ok()?;
            if !text.starts_with("Probe fehlgeschlagen") {
                return None;
            }
            let at = std::fs::metadata(&probe).and_then(|m| m.modified()).ok()?;
            let why = text
                .lines()
                .filter_map(|l| l.strip_prefix("- "))
                .collect::<Vec<_>>()
                .join("; ");
            Some(FailedCopy { copy, at, why })
        })
        .collect();
    failed.sort_by_key(|f| f.at);
    failed.pop()
}

/// Whether the database at `path` (its file or its `-wal`) was written after `at`.
fn changed_since(path: &Path, at: std::time::SystemTime) -> bool {
    [path.to_path_buf(), with_suffix(path, "-wal")]
        .iter()
        .filter_map(|p| std::fs::metadata(p).and_then(|m| m.modified()).ok())
        .any(|m| m > at)
}

/// Removes the copy `copy` with its `.sha256` and `.probe` (what cannot be removed is logged).
fn remove_copy(copy: &Path) {
    for p in [
        with_suffix(copy, ".sha256"),
        with_suffix(copy, ".probe"),
        copy.to_path_buf(),
    ] {
        if let Err(e) = std::fs::remove_file(&p) {
            if e.kind() != std::io::ErrorKind::NotFound {
                tracing::warn!("{} nicht gelöscht: {e}", p.display());
            }
        }
    }
}

/// Makes the file `path` read-only (0400); a failure is logged (the copy is there all the same).
fn read_only(path: &Path) {
    use std::os::unix::fs::PermissionsExt;
    if let Err(e) = std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o400)) {
        tracing::warn!("{} nicht schreibgeschützt: {e}", path.display());
    }
}

/// What [`restore`] did.
#[derive(Debug)]
pub struct Restored {
    /// Where the database that was replaced now is (`None`: there was none).
    pub old: Option<PathBuf>,
    /// The probe of the copy put in place.
    pub report: Report,
}

/// Puts the copy `from` in place of the database at `path`: the copy must pass its probe
/// ([`backup::verify`]), no other process may hold the database (a running server: refused,
/// German), this process must run as the database's owner ([`files::check_owner`]). The copy is
/// written beside the database (`….wiederherstellung`, 0600 whatever the copy's mode), synced;
/// the old database's log is folded into it, the old database is kept beside it as
/// `liga.vor-wiederherstellung-2026-05-01-013000.db` (a second name of the same file), and the
/// copy takes the database's name in one rename, so that the database is there at every
/// moment, the old or the restored one (issue 32.7: a crash between two renames left none).
/// The login sessions go: everybody logs in again afterwards.
pub async fn restore(
    path: &Path,
    from: &Path,
    clock: &ClubClock,
) -> Result<Restored, ServiceError> {
    let report = backup::verify(from).await;
    if !report.passed() {
        return Err(ServiceError::refused(format!(
            "{} wird nicht wiederhergestellt: {}",
            from.display(),
            report.failures.join("; ")
        )));
    }
    if matches!(report.schema, Some(Schema::Newer { .. })) {
        return Err(ServiceError::refused(
            "Die Kopie ist neuer als dieses Programm: bitte mit der neueren Version wiederherstellen.",
        ));
    }
    let same = |a: &Path, b: &Path| match (a.canonicalize(), b.canonicalize()) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    };
    if same(path, from) {
        return Err(ServiceError::refused(
            "Die Kopie ist die Datenbank selbst: nichts wiederhergestellt.",
        ));
    }
    files::check_owner(path)?;
    let lock = if path.exists() {
        Some(lock_exclusive(path)?)
    } else {
        None
    };
    let io = |what: String, e: std::io::Error| ServiceError::refused(format!("{what}: {e}"));
    // 1. The copy goes beside the database first, private and synced.
    let incoming = with_suffix(path, INCOMING);
    let _ = std::fs::remove_file(&incoming);
    copy_private(from, &incoming).map_err(|e| {
        let _ = std::fs::remove_file(&incoming);
        io(format!("{} nicht kopierbar", from.display()), e)
    })?;
    pause(1);
    let old = if path.exists() {
        // 2. The old database in one file (its log folded in; a damaged one keeps its log
        // beside the kept name), and kept under a second name.
        if let Err(e) = db::checkpoint_file(path).await {
            tracing::warn!(
                "Protokoll der alten Datenbank nicht eingearbeitet ({e}); es wird mit ihr aufbewahrt"
            );
        }
        let stem = path
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_else(|| "schockerliga".to_string());
        let stamp = clock.now_local().format("%Y-%m-%d-%H%M%S");
        // A restore of the same second before (one killed half-way and done again): `-2`, ….
        let mut kept = path.with_file_name(format!("{stem}.vor-wiederherstellung-{stamp}.db"));
        let mut n = 2;
        while kept.exists() || with_suffix(&kept, "-wal").exists() {
            kept = path.with_file_name(format!("{stem}.vor-wiederherstellung-{stamp}-{n}.db"));
            n += 1;
        }
        let wal = with_suffix(path, "-wal");
        if wal.exists() {
            std::fs::hard_link(&wal, with_suffix(&kept, "-wal"))
                .map_err(|e| io(format!("{} nicht aufbewahrt", wal.display()), e))?;
        }
        std::fs::hard_link(path, &kept)
            .map_err(|e| io(format!("{} nicht aufbewahrt", path.display()), e))?;
        sync_dir(path);
        pause(2);
        // 3. The old log must not meet the restored file.
        for suffix in ["-wal", "-shm"] {
            let side = with_suffix(path, suffix);
            match std::fs::remove_file(&side) {
                Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
                    return Err(io(format!("{} nicht entfernbar", side.display()), e))
                }
                _ => {}
            }
        }
        pause(3);
        Some(kept)
    } else {
        None
    };
    // 4. One rename: the restored database takes the name (the old one stays as `kept`).
    std::fs::rename(&incoming, path).map_err(|e| {
        io(
            format!("{} nicht an ihren Platz gebracht", path.display()),
            e,
        )
    })?;
    sync_dir(path);
    pause(4);
    // The sessions belong to the accounts of the old file.
    let sessions = db::sessions_path(path);
    for suffix in ["", "-wal", "-shm"] {
        let _ = std::fs::remove_file(with_suffix(&sessions, suffix));
    }
    drop(lock);
    Ok(Restored { old, report })
}

/// Copies the file `from` to the new file `to`, made 0600 whatever `from`'s mode (a read-only
/// pre-upgrade copy) and the umask, and syncs it.
fn copy_private(from: &Path, to: &Path) -> std::io::Result<()> {
    use std::os::unix::fs::{OpenOptionsExt, PermissionsExt};
    let mut source = File::open(from)?;
    let mut target = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(0o600)
        .open(to)?;
    target.set_permissions(std::fs::Permissions::from_mode(0o600))?;
    std::io::copy(&mut source, &mut target)?;
    target.sync_all()
}

/// Syncs the directory of `path` (renames and links in it reach the disk); failures ignored.
fn sync_dir(path: &Path) {
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        if let Ok(d) = File::open(dir) {
            let _ = d.sync_all();
        }
    }
}

/// The test builds' pause after step `step` of [`restore`] (`SCHOCKERLIGA_TEST_RESTORE_PAUSE_MS`,
/// for the kill -9 test of `tests/binary/durability.rs`); nothing in a release build.
fn pause(step: u32) {
    #[cfg(debug_assertions)]
    if let Some(ms) = std::env::var("SCHOCKERLIGA_TEST_RESTORE_PAUSE_MS")
        .ok()
        .and_then(|v| v.parse::<u64>().ok())
    {
        tracing::warn!("Wiederherstellung: Schritt {step}");
        std::thread::sleep(std::time::Duration::from_millis(ms));
    }
    #[cfg(not(debug_assertions))]
    let _ = step;
}

/// The suffix of the copy that `restore` puts beside the database before it moves it in place.
const INCOMING: &str = ".wiederherstellung";

/// `path` with `suffix` appended to its file name.
fn with_suffix(path: &Path, suffix: &str) -> PathBuf {
    let mut name = path.as_os_str().to_os_string();
    name.push(suffix);
    PathBuf::from(name)
}
