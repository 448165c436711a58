//! The application layer under the web and the command line: one [`League`] that every change of
//! league data goes through (the write pipeline, `write`) and every read comes from (the in-memory
//! snapshot, `snapshot`), accounts (`accounts`), the Schockbesteck's running Runden (`besteck`)
//! and the season file (`import`, `export`); the club's spreadsheets, several seasons at once and
//! the whole club as one file (`interchange`).
//!
//! Layers: `league` and `rules` are pure; `db` holds all SQL; `service` opens the transactions and
//! joins them; `web` and the command line (`src/cli/` of the binary) only translate requests
//! into calls here.

pub mod accounts;
pub mod backup;
pub mod besteck;
pub mod calendar;
pub mod card;
pub mod clock;
pub mod files;
pub mod interchange;
pub mod kassenbuch;
pub mod live;
pub mod lock;
pub mod merge;
pub mod planned;
pub mod pruefung;
pub mod scorer;
pub mod settings;
pub mod snapshot;
pub mod status;
pub mod upgrade;
mod write;

use std::collections::BTreeMap;
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, RwLock, Weak};

use chrono::NaiveDate;

use crate::db::{self, Db, DbError};
use crate::league::model::file::SeasonFile;
use crate::league::{self, EntryError, Location, Payouts, Season, Standings};
use clock::{Clock, ClubClock, SystemClock};
pub use snapshot::{Chained, History, SeasonView, Snapshot};
pub use write::{AuditNote, Edit};

/// Why an operation was refused or failed.
#[derive(Debug, thiserror::Error)]
pub enum ServiceError {
    /// The input breaks a league rule or the operation is not allowed as asked; says where and why
    /// (German). Nothing was stored.
    #[error("{0}")]
    Refused(EntryError),
    /// The night is closed: a change of its draw, rounds or fines needs a Korrektur (German: which
    /// night and what is missing). Nothing was stored.
    #[error("{0}")]
    Closed(EntryError),
    /// The change was made against an older state (a round entered or changed meanwhile): German,
    /// with what is there now. Nothing was stored; ask again.
    #[error("{0}")]
    Conflict(EntryError),
    /// The copy before a migration failed its probe (German: which copy, why, what to do):
    /// nothing was migrated, and `serve` stops for good (exit code 3, which systemd does not
    /// restart) instead of writing another copy at each restart (issue 32.6).
    #[error("{0}")]
    UpgradeStopped(String),
    /// No such season.
    #[error("Saison {0} gibt es nicht")]
    NoSeason(i32),
    /// No such night, player, fine, account … (German: what).
    #[error("{0}")]
    NotFound(String),
    /// A stored season fails its checks (German: which and why).
    #[error("{0}")]
    Corrupt(String),
    /// The disk is full (SQLITE_FULL): German "Speicher voll, nichts gespeichert", with what to
    /// do. The transaction was rolled back; the next write works once there is space again.
    #[error("{0}")]
    Full(EntryError),
    /// Storage failed.
    #[error(transparent)]
    Db(DbError),
}

/// Seconds a client should wait before sending a write again that found the database busy
/// ([`ServiceError::is_busy`]): the `Retry-After` of the web's 503.
pub const RETRY_AFTER_SECS: u64 = 5;

/// A season as [`League::refresh`] reads it: (year, change counter, its checked view or why it
/// fails its checks); `None` when the season is gone meanwhile.
type Loaded = Option<(i32, i64, Result<SeasonView, league::EntryError>)>;

/// Reads season `year` through `pool` and checks it on the blocking pool ([`SeasonView::of_stored`]).
/// Errors: the database.
async fn load_view(pool: sqlx::SqlitePool, year: i32) -> Result<Loaded, ServiceError> {
    let mut tx = pool.begin().await?;
    let Some(stored) = db::season::load(&mut tx, year).await? else {
        return Ok(None);
    };
    let version = stored.version;
    tx.commit().await?;
    let checked = tokio::task::spawn_blocking(move || SeasonView::of_stored(stored))
        .await
        .map_err(|e| ServiceError::Corrupt(format!("Saison {year}: Prüfung abgebrochen: {e}")))?;
    Ok(Some((year, version, checked)))
}

/// The result of a [`load_view`] task. Errors: the task's own, or its end by a panic.
fn joined(
    r: Result<Result<Loaded, ServiceError>, tokio::task::JoinError>,
) -> Result<Loaded, ServiceError> {
    r.map_err(|e| ServiceError::Corrupt(format!("Saison nicht gelesen: {e}")))?
}

/// Most seasons one league keeps (issue 25): a century of club history. The server keeps every
/// season in memory; bench/history.sh measures 40 seasons.
pub const MAX_SEASONS: usize = 100;

/// The most characters a reason typed for the Protokoll may have (a Storno's, a merge's, a
/// split's): what their forms allow.
pub const REASON_MAX_CHARS: usize = 200;

/// A reason typed for the Protokoll, trimmed. Refused (German, field „Grund“): empty (`empty`
/// is the message), over [`REASON_MAX_CHARS`] characters, a control or invisible character.
pub fn reason_typed(typed: &str, empty: &str) -> Result<String, ServiceError> {
    let r = typed.trim();
    if r.is_empty() {
        return Err(ServiceError::refused(empty));
    }
    if r.chars().count() > REASON_MAX_CHARS {
        return Err(ServiceError::refused(format!(
            "Grund: höchstens {REASON_MAX_CHARS} Zeichen."
        )));
    }
    crate::league::model::names::check_name_chars(r)
        .map_err(|why| ServiceError::refused(format!("Grund: er {why}.")))?;
    Ok(r.to_string())
}

/// `Ok` when the `stored` seasons (years) with the `new` ones are at most [`MAX_SEASONS`];
/// else the German refusal (nothing stored).
pub fn room_for_seasons(
    stored: impl IntoIterator<Item = i32>,
    new: impl IntoIterator<Item = i32>,
) -> Result<(), ServiceError> {
    let all: std::collections::BTreeSet<i32> = stored.into_iter().chain(new).collect();
    if all.len() > MAX_SEASONS {
        return Err(ServiceError::refused(format!(
            "Zu viele Saisons: eine Liga führt höchstens {MAX_SEASONS} Saisons, mit dieser wären es {} (nichts gespeichert).",
            all.len()
        )));
    }
    Ok(())
}

/// The refusal of a write on a full disk.
pub const DISK_FULL: &str =
    "Speicher voll, nichts gespeichert: auf dem Server ist kein Platz mehr. \
Bitte dem Administrator Bescheid geben und die Eingabe erneut senden, sobald wieder Platz ist.";

impl ServiceError {
    /// A refusal without a location: `message` says where and why.
    pub fn refused(message: impl Into<String>) -> ServiceError {
        ServiceError::Refused(EntryError::new(Location::default(), message))
    }

    /// Tells a refusal for the user from a fault: `Ok` with where and why when the user can act on
    /// it (the input breaks a rule, the night is closed, the state moved on, the disk is full, the
    /// database is busy: nothing was stored, the form comes back), `Err(self)` for what he cannot
    /// mend (no such season or record, a broken store, a database failure).
    pub fn into_refusal(self) -> Result<Refusal, ServiceError> {
        let (kind, error) = match self {
            ServiceError::Refused(e) => (RefusalKind::Invalid, e),
            ServiceError::Closed(e) => (RefusalKind::Closed, e),
            ServiceError::Conflict(e) => (RefusalKind::Conflict, e),
            ServiceError::Full(e) => (RefusalKind::Full, e),
            ServiceError::Db(DbError::Busy) => (
                RefusalKind::Busy,
                EntryError::new(Location::default(), db::BUSY),
            ),
            other => return Err(other),
        };
        Ok(Refusal { kind, error })
    }

    /// The reason when a stored record no longer loads (the database's `Corrupt`): a page may show
    /// it as broken and offer to discard it instead of failing.
    pub fn corrupt_record(&self) -> Option<&str> {
        match self {
            ServiceError::Db(DbError::Corrupt(why)) => Some(why),
            _ => None,
        }
    }

    /// True when the database was busy (another process held its write lock longer than
    /// [`db::BUSY_TIMEOUT`]): nothing was stored and the same request may be sent again; the
    /// message is [`db::BUSY`]. The web answers 503 with `Retry-After` ([`RETRY_AFTER_SECS`]).
    pub fn is_busy(&self) -> bool {
        matches!(self, ServiceError::Db(DbError::Busy))
    }
}

/// A refusal the user can act on: nothing was stored, and `error` says where and why (German).
#[derive(Debug, Clone)]
pub struct Refusal {
    /// Why it was refused.
    pub kind: RefusalKind,
    /// Where and why.
    pub error: EntryError,
}

/// The kinds of [`Refusal`]: what the answer's status tells a program.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RefusalKind {
    /// The input breaks a league rule or the form's own shape.
    Invalid,
    /// The night is closed: the change needs a Korrektur.
    Closed,
    /// Made against an older state: what is there now differs.
    Conflict,
    /// The disk is full.
    Full,
    /// The database was busy (another process held its write lock): send again after
    /// [`RETRY_AFTER_SECS`].
    Busy,
}

impl std::fmt::Display for Refusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.error.fmt(f)
    }
}

impl From<EntryError> for ServiceError {
    fn from(e: EntryError) -> Self {
        if e.conflict {
            ServiceError::Conflict(e)
        } else {
            ServiceError::Refused(e)
        }
    }
}

/// The one place where the database's own refusal (a trigger's `RAISE(ABORT, …)`, SQLite extended
/// code 1811: a change to a closed night outside a Korrektur) becomes a refusal.
impl From<DbError> for ServiceError {
    fn from(e: DbError) -> Self {
        match &e {
            DbError::Sqlx(sqlx::Error::Database(d)) if d.code().as_deref() == Some("1811") => {
                ServiceError::Closed(EntryError::new(Location::default(), d.message()))
            }
            DbError::Busy => {
                tracing::warn!("Datenbank belegt: Schreiben abgelehnt, nichts gespeichert");
                ServiceError::Db(e)
            }
            _ if e.is_disk_full() => {
                tracing::error!(error = %e, "Speicher voll: Schreiben abgelehnt");
                ServiceError::Full(EntryError::new(Location::default(), DISK_FULL))
            }
            _ => ServiceError::Db(e),
        }
    }
}

impl From<sqlx::Error> for ServiceError {
    fn from(e: sqlx::Error) -> Self {
        ServiceError::from(DbError::from(e))
    }
}

/// The league: the database and the in-memory snapshot every page reads. Cloning shares it.
#[derive(Clone)]
pub struct League {
    inner: Arc<Inner>,
}

struct Inner {
    db: Db,
    snapshot: RwLock<Arc<Snapshot>>,
    /// Held by every write and every refresh: within this process they happen one after another,
    /// so the snapshot a write installs is the one the next write starts from.
    writing: tokio::sync::Mutex<()>,
    next_id: AtomicU64,
    /// Where the instant comes from ([`SystemClock`] but in tests).
    clock: Arc<dyn Clock>,
    /// The club's time zone from the command line (`--timezone`): wins over the settings.
    timezone: Option<chrono_tz::Tz>,
    /// Told after every write that closed a night (the backups wait on it).
    night_closed: tokio::sync::Notify,
    /// Told after every import through this league (the backups wait on it).
    imported: tokio::sync::Notify,
    /// The backups of `serve --backup-dir`, once switched on.
    backups: std::sync::OnceLock<Arc<backup::Backups>>,
    /// Why the backups asked for could not start (German), see [`League::backups_unavailable`].
    backups_off: std::sync::OnceLock<String>,
    /// The live board's pushes and their listener cap.
    live: live::Live,
    /// Spreadsheets uploaded for a preview, kept until their confirm ([`interchange::Staged`]).
    staged: interchange::Staged,
    /// The "Das bin ich" answers per client ([`planned::Claims`]).
    claims: planned::Claims,
    /// The merges in force as the snapshot knows them (issue 36.2): read with the seasons'
    /// counters and set with the seasons they changed, so that a name's redirect and the career
    /// it leads to change together (a split by the command line answered 404 meanwhile).
    merges: RwLock<Arc<Vec<merge::MergeNote>>>,
    /// What the Kassenbuch's journal was last reconciled at ([`kassenbuch::Seen`]).
    books_seen: std::sync::Mutex<Option<kassenbuch::Seen>>,
}

/// How a league reads the time: the instant's source and the club's time zone when the command
/// line names one (else the settings' zone, else [`clock::DEFAULT_TIMEZONE`]).
#[derive(Debug, Clone)]
pub struct Setup {
    /// Where the instant comes from.
    pub clock: Arc<dyn Clock>,
    /// `--timezone`: the club's time zone whatever the settings say.
    pub timezone: Option<chrono_tz::Tz>,
}

impl Default for Setup {
    /// The system clock, the time zone of the settings.
    fn default() -> Setup {
        Setup {
            clock: Arc::new(SystemClock),
            timezone: None,
        }
    }
}

/// Every league opened in this process, by database file: a write through one (or through the
/// free [`import_as`]) refreshes the others at once instead of at their next poll.
static OPEN: Mutex<Vec<(std::path::PathBuf, Weak<Inner>)>> = Mutex::new(Vec::new());

/// Refreshes every league of this process on the database file `path` but `except` (its own
/// writes are installed already).
async fn refresh_others(path: &Path, except: Option<&Arc<Inner>>) {
    let others: Vec<Arc<Inner>> = {
        let mut open = OPEN.lock().unwrap_or_else(|e| e.into_inner());
        open.retain(|(_, w)| w.strong_count() > 0);
        open.iter()
            .filter(|(p, _)| p == path)
            .filter_map(|(_, w)| w.upgrade())
            .filter(|i| except.is_none_or(|e| !Arc::ptr_eq(e, i)))
            .collect()
    };
    for inner in others {
        if let Err(e) = (League { inner }).refresh().await {
            tracing::warn!(error = %e, "Stand der Datenbank nicht gelesen");
        }
    }
}

impl std::fmt::Debug for League {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("League")
    }
}

impl League {
    /// Opens (creating if missing, migrating) the database at `path` and reads every season; the
    /// system clock, the settings' time zone.
    pub async fn open(path: &Path) -> Result<League, ServiceError> {
        League::open_with(path, Setup::default()).await
    }

    /// [`League::open`] with the clock and time zone of `setup`.
    pub async fn open_with(path: &Path, setup: Setup) -> Result<League, ServiceError> {
        League::of_with(Db::open(path).await?, setup).await
    }

    /// The league of the opened database `db`: every season read into the snapshot; the system
    /// clock, the settings' time zone.
    pub async fn of(db: Db) -> Result<League, ServiceError> {
        League::of_with(db, Setup::default()).await
    }

    /// [`League::of`] with the clock and time zone of `setup`.
    pub async fn of_with(db: Db, setup: Setup) -> Result<League, ServiceError> {
        let league = League {
            inner: Arc::new(Inner {
                db,
                snapshot: RwLock::new(Arc::new(Snapshot::default())),
                writing: tokio::sync::Mutex::new(()),
                next_id: AtomicU64::new(1),
                clock: setup.clock,
                timezone: setup.timezone,
                night_closed: tokio::sync::Notify::new(),
                imported: tokio::sync::Notify::new(),
                backups: std::sync::OnceLock::new(),
                backups_off: std::sync::OnceLock::new(),
                live: live::Live::default(),
                staged: interchange::Staged::default(),
                claims: planned::Claims::default(),
                merges: RwLock::default(),
                books_seen: std::sync::Mutex::new(None),
            }),
        };
        league.refresh().await?;
        // The Kassenbuch's journal books what the seasons say before anything reads it.
        league.books_follow().await;
        OPEN.lock()
            .unwrap_or_else(|e| e.into_inner())
            .push((league.inner.db.path.clone(), Arc::downgrade(&league.inner)));
        Ok(league)
    }

    /// Tells the other leagues of this process on the same database about a write of this one.
    pub(crate) async fn written(&self) {
        self.books_follow().await;
        refresh_others(&self.inner.db.path, Some(&self.inner)).await;
    }

    /// The database handles (for accounts, sessions and the command line's backup).
    pub fn db(&self) -> &Db {
        &self.inner.db
    }

    /// Closes the database at the end of serving: the log folded into the file, every
    /// connection closed (`Db::close`); the league must not be used afterwards. Errors: storage.
    pub async fn close(&self) -> Result<(), ServiceError> {
        Ok(self.inner.db.close().await?)
    }

    /// The club's clock: the instant read in the club's time zone (`--timezone`, else the
    /// settings' zone, else Europe/Berlin). What every "today" and every time shown goes through.
    pub fn clock(&self) -> ClubClock {
        ClubClock::new(self.inner.clock.clone(), self.timezone())
    }

    /// The club's time zone: `--timezone`, else the one stored in the settings, else
    /// [`clock::DEFAULT_TIMEZONE`] (a stored name that is no zone counts as none).
    pub fn timezone(&self) -> chrono_tz::Tz {
        self.inner
            .timezone
            .or_else(|| clock::parse_timezone(&self.snapshot().settings.timezone).ok())
            .unwrap_or(clock::DEFAULT_TIMEZONE)
    }

    /// Whether the time zone was given on the command line (then the settings' zone is not used).
    pub fn timezone_from_command_line(&self) -> bool {
        self.inner.timezone.is_some()
    }

    /// The club's date today ([`League::clock`]).
    pub fn today(&self) -> NaiveDate {
        self.clock().today()
    }

    /// Now on the club's wall clock ([`League::clock`]).
    pub fn now_local(&self) -> chrono::DateTime<chrono_tz::Tz> {
        self.clock().now_local()
    }

    /// Waits until a write of this league closes a night.
    pub(crate) async fn night_closed(&self) {
        self.inner.night_closed.notified().await;
    }

    /// Tells the waiters of [`League::night_closed`] that a night was closed.
    pub(crate) fn closed_a_night(&self) {
        self.inner.night_closed.notify_one();
    }

    /// Waits until an import through this league ([`League::import`], the spreadsheet's
    /// confirm) stored seasons.
    pub(crate) async fn seasons_imported(&self) {
        self.inner.imported.notified().await;
    }

    /// Tells the waiters of [`League::seasons_imported`] that an import stored seasons.
    pub(crate) fn imported_seasons(&self) {
        // Only for running backups: a permit kept from before would make a copy at once.
        if self.inner.backups.get().is_some() {
            self.inner.imported.notify_one();
        }
    }

    /// The current snapshot of the league: what every page reads.
    pub fn snapshot(&self) -> Arc<Snapshot> {
        self.inner
            .snapshot
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
    }

    /// Computes what the history pages need of every season (careers, the all-time table, the
    /// Ehrentafel, the records; issue 25) for the current snapshot, and so for every later one
    /// that keeps those seasons: run once after the start on a blocking thread, so that the first
    /// write after it recomputes only the season it wrote (on 40 × 60 the first write's history
    /// pages took 387–427 ms without it). Returns how many seasons it covered.
    pub fn warm_up(&self) -> usize {
        let snapshot = self.snapshot();
        snapshot.history();
        snapshot.seasons().count()
    }

    /// Replaces the snapshot by `make(current, new id)`.
    fn replace(&self, make: impl FnOnce(&Snapshot, u64) -> Snapshot) {
        let id = self.inner.next_id.fetch_add(1, Ordering::SeqCst);
        let mut slot = self
            .inner
            .snapshot
            .write()
            .unwrap_or_else(|e| e.into_inner());
        let next = make(&slot, id);
        *slot = Arc::new(next);
    }

    /// Installs `views` (newer counters only) into the snapshot.
    fn install(&self, views: Vec<Arc<SeasonView>>) {
        self.replace(|s, id| s.with(id, views, &[]));
    }

    /// Compares the snapshot with the database's change counters and reads every season that
    /// changed, appeared or disappeared (another process wrote). Returns whether anything changed;
    /// `false` once the league is closed (the server stopping: nothing to read).
    pub async fn refresh(&self) -> Result<bool, ServiceError> {
        let _w = self.inner.writing.lock().await;
        if self.inner.db.read.is_closed() {
            return Ok(false);
        }
        let (stored, merges): (BTreeMap<i32, i64>, _) = {
            let mut tx = self.inner.db.read.begin().await?;
            let stored = db::version::all(&mut tx).await?.into_iter().collect();
            let merges = merge::read_merges(&mut tx).await?;
            tx.commit().await?;
            (stored, merges)
        };
        let settings = {
            let mut conn = self.inner.db.read.acquire().await?;
            db::settings::get(&mut conn).await?
        };
        if *self.snapshot().settings != settings {
            let settings = Arc::new(settings);
            self.replace(|s, id| s.with_settings(id, settings));
        }
        self.refresh_planning().await?;
        let known = self.snapshot().versions();
        let removed: Vec<i32> = known
            .keys()
            .filter(|y| !stored.contains_key(y))
            .copied()
            .collect();
        let changed: Vec<i32> = stored
            .iter()
            .filter(|(y, v)| known.get(y) != Some(v))
            .map(|(y, _)| *y)
            .collect();
        if removed.is_empty() && changed.is_empty() {
            self.set_merges(merges);
            return Ok(false);
        }
        // Each season is read and checked in its own task, three at a time: the reads (SQLite's
        // threads) and the checks (the blocking pool) of a long history use every core, and at
        // most three seasons' stored files are held at once (issue 25: start to first answer).
        let mut loaded = Vec::new();
        let mut running = std::collections::VecDeque::new();
        for year in changed {
            if running.len() >= 3 {
                if let Some(h) = running.pop_front() {
                    loaded.push(joined(h.await)?);
                }
            }
            running.push_back(tokio::spawn(load_view(self.inner.db.read.clone(), year)));
        }
        while let Some(h) = running.pop_front() {
            loaded.push(joined(h.await)?);
        }
        let mut views = Vec::new();
        let mut broken = Vec::new();
        for (year, version, checked) in loaded.into_iter().flatten() {
            match checked {
                Ok(v) => views.push(Arc::new(v)),
                Err(e) => {
                    tracing::error!(year, error = %e, "gespeicherte Saison ungültig");
                    broken.push((year, version, e.to_string()));
                }
            }
        }
        self.set_merges(merges);
        self.replace(|s, id| {
            let mut next = s.with(id, views, &removed);
            for (year, version, why) in broken {
                next = next.with_broken(id, year, version, why);
            }
            next
        });
        // Another process wrote (the command line, a second server): tonight's board reads again.
        self.night_changed(self.today());
        Ok(true)
    }

    /// Runs [`League::refresh`] every [`snapshot::REFRESH_EVERY`] until the league is dropped, so
    /// writes of other processes show within [`snapshot::SEEN_WITHIN`].
    pub fn watch(&self) {
        let weak: Weak<Inner> = Arc::downgrade(&self.inner);
        tokio::spawn(async move {
            let mut tick = tokio::time::interval(snapshot::REFRESH_EVERY);
            tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
            loop {
                tick.tick().await;
                let Some(inner) = weak.upgrade() else { break };
                let league = League { inner };
                if let Err(e) = league.refresh().await {
                    tracing::warn!(error = %e, "Stand der Datenbank nicht gelesen");
                }
            }
        });
    }

    /// The table of season `year` as of `as_of` (default: its last night with results),
    /// league.md §3–§4; [`League::standings_on`] never reads after the club's today.
    /// Errors: an `as_of` outside the season's year ([`league::check_as_of`]), no such season.
    pub fn standings(
        &self,
        year: i32,
        as_of: Option<NaiveDate>,
    ) -> Result<Standings, ServiceError> {
        if let Some(d) = as_of {
            league::check_as_of(year, d).map_err(ServiceError::refused)?;
        }
        let snap = self.snapshot();
        let view = snap.season(year)?;
        Ok(view.standings_as_of(as_of).into_owned())
    }

    /// The year-end payouts of season `year` (league.md §7–§8), the carry-in chained from the
    /// earlier seasons.
    pub fn payouts(&self, year: i32) -> Result<Payouts, ServiceError> {
        Ok(self.snapshot().chained(year)?.payouts.clone())
    }

    /// [`League::standings`] as the club's `today` sees it (issue 22.3): the as-of date is never
    /// after today (`as_of` after it becomes today; none: the last night with results on or
    /// before today). Errors as [`League::standings`].
    pub fn standings_on(
        &self,
        year: i32,
        as_of: Option<NaiveDate>,
        today: NaiveDate,
    ) -> Result<Standings, ServiceError> {
        if let Some(d) = as_of {
            league::check_as_of(year, d).map_err(ServiceError::refused)?;
        }
        let snap = self.snapshot();
        let view = snap.season(year)?;
        Ok(view.standings_on(as_of, today).into_owned())
    }

    /// [`League::payouts`] as the club's `today` sees it (issue 22.3): Lucky Looser and places
    /// from the table as of today ([`Snapshot::chained_on`]).
    pub fn payouts_on(&self, year: i32, today: NaiveDate) -> Result<Payouts, ServiceError> {
        Ok(self.snapshot().chained_on(year, today)?.payouts.clone())
    }

    /// The season file of season `year` as stored (its season only: see [`League::export_file`]).
    pub fn export(&self, year: i32) -> Result<SeasonFile, ServiceError> {
        Ok(self.snapshot().season(year)?.season.to_file())
    }

    /// The season file of season `year` for export: [`League::export`] with its statuses and
    /// the merges that touch it (docs/saisondatei.md "Status", "Zusammengeführte Spieler").
    /// Errors: no such season, storage.
    pub async fn export_file(&self, year: i32) -> Result<SeasonFile, ServiceError> {
        let mut file = self.export(year)?;
        self.carried().await?.apply(&mut file);
        Ok(file)
    }

    /// What every season's file carries besides the season (statuses, merges in force;
    /// [`merge::carry::Carried`]), read in one read transaction. Errors: storage.
    pub async fn carried(&self) -> Result<merge::carry::Carried, ServiceError> {
        let mut tx = self.inner.db.read.begin().await?;
        let years = self.snapshot().years();
        let carried = merge::carry::carried_of(&mut tx, &years).await?;
        tx.commit().await?;
        Ok(carried)
    }

    /// The season file `file` by `user` through the one import ([`League::import_files`]: a
    /// season file refuses and replaces as a spreadsheet does): checked against the club's
    /// today, then whole (`Season::from_file`), then stored; the imported season replaces its
    /// view at once. Returns the season as stored.
    pub async fn import(
        &self,
        file: &SeasonFile,
        replace: bool,
        user: &str,
    ) -> Result<Season, ServiceError> {
        let files = std::slice::from_ref(file);
        interchange::check_against_today(files, self.today())?;
        let season = Season::from_file(file)?;
        let options = interchange::ImportOptions::by(user, replace);
        let mut done = self.store_files(files, &[], &options).await?;
        Ok(done.pop().map_or(season, |i| i.season))
    }
}

/// Imports `file` in one transaction: checks it completely (`Season::from_file`), refuses a season
/// that already has nights or an Endstand unless `replace`, then replaces the season's data.
/// Nothing is written on any error. Returns the checked season. The audit log names the user
/// `cli`; see [`import_as`].
pub async fn import(db: &Db, file: &SeasonFile, replace: bool) -> Result<Season, ServiceError> {
    import_as(db, file, replace, "cli").await
}

/// [`import`] by `user` (login name): the one import of season files
/// ([`interchange::import_all_as`] with this one file), so a season file and a spreadsheet refuse
/// and replace alike; the same transaction writes an audit row with the season's counts before
/// and after.
pub async fn import_as(
    db: &Db,
    file: &SeasonFile,
    replace: bool,
    user: &str,
) -> Result<Season, ServiceError> {
    let season = Season::from_file(file)?;
    let mut seasons =
        interchange::import_all_as(db, std::slice::from_ref(file), &[], replace, user).await?;
    Ok(seasons.pop().unwrap_or(season))
}

/// The season file of season `year` as stored (for export), read through `db`'s read pool.
pub async fn export(db: &Db, year: i32) -> Result<SeasonFile, ServiceError> {
    let mut file = load_season(db, year).await?.season.to_file();
    let mut tx = db.read.begin().await?;
    merge::carry::carried_of(&mut tx, &[year])
        .await?
        .apply(&mut file);
    tx.commit().await?;
    Ok(file)
}

/// Season `year` as stored, checked, read through `db`'s read pool (the command line's one-off
/// reads). Errors: no such season, a stored season that fails its checks, storage.
pub async fn load_season(db: &Db, year: i32) -> Result<Arc<SeasonView>, ServiceError> {
    let mut tx = db.read.begin().await?;
    let stored = db::season::load(&mut tx, year)
        .await?
        .ok_or(ServiceError::NoSeason(year))?;
    tx.commit().await?;
    SeasonView::of_stored(stored)
        .map(Arc::new)
        .map_err(|e| ServiceError::Corrupt(format!("gespeicherte Saison {year} ungültig: {e}")))
}

#[cfg(test)]
mod tests;
