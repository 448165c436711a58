//! All SQL of the application (runtime `sqlx::query_as` + `FromRow`), one file per aggregate.
//! Functions take a pool, a connection or a transaction; read-then-write transactions start with
//! `BEGIN IMMEDIATE` ([`Db::begin_write`]).

pub mod audit;
pub mod besteck;
pub mod change;
pub mod closing;
pub mod money;
pub mod night;
pub mod player;
pub mod scorer;
pub mod season;
pub mod settings;
pub mod user;
pub mod version;

use std::path::Path;
use std::str::FromStr;
use std::time::Duration;

use sqlx::sqlite::{SqliteConnectOptions, SqliteJournalMode, SqlitePoolOptions, SqliteSynchronous};
use sqlx::{Sqlite, SqlitePool, Transaction};

/// A write transaction on the one-connection writer pool.
pub type WriteTx = Transaction<'static, Sqlite>;

/// Errors of the storage layer.
#[derive(Debug, thiserror::Error)]
pub enum DbError {
    /// The SQLite driver failed (I/O, constraint …).
    #[error("Datenbankfehler: {0}")]
    Sqlx(sqlx::Error),
    /// Another connection or process held the database's write lock for longer than
    /// [`BUSY_TIMEOUT`] (SQLITE_BUSY / SQLITE_LOCKED): nothing was written; the same request can
    /// simply be sent again (issue 22.8: the web answers 503 with `Retry-After`).
    #[error("{BUSY}")]
    Busy,
    /// Applying the embedded migrations failed.
    #[error("Migration der Datenbank fehlgeschlagen: {0}")]
    Migrate(#[from] sqlx::migrate::MigrateError),
    /// A stored value does not fit the model (e.g. a negative count, a bad rules object).
    #[error("Ungültige gespeicherte Daten: {0}")]
    Corrupt(String),
}

/// How long a connection waits for another one's write lock before [`DbError::Busy`].
pub const BUSY_TIMEOUT: Duration = Duration::from_secs(5);

/// The German message of [`DbError::Busy`], for the user: nothing stored, try again.
pub const BUSY: &str = "Datenbank gerade belegt – nichts gespeichert, bitte noch einmal";

/// Every driver error goes through here: SQLite's "busy" and "locked" (primary result codes 5
/// and 6, with their extended codes) become [`DbError::Busy`], the rest [`DbError::Sqlx`].
impl From<sqlx::Error> for DbError {
    fn from(e: sqlx::Error) -> Self {
        let busy = match &e {
            sqlx::Error::Database(d) => d
                .code()
                .and_then(|c| c.parse::<i32>().ok())
                .is_some_and(|c| matches!(c & 0xff, 5 | 6)),
            _ => false,
        };
        if busy {
            DbError::Busy
        } else {
            DbError::Sqlx(e)
        }
    }
}

impl DbError {
    /// Whether SQLite answered SQLITE_FULL (13: the disk or the database's page limit is full).
    pub fn is_disk_full(&self) -> bool {
        match self {
            DbError::Sqlx(sqlx::Error::Database(d)) => d
                .code()
                .and_then(|c| c.parse::<i32>().ok())
                .is_some_and(|c| c & 0xff == 13),
            _ => false,
        }
    }
}

/// The database handles: one writer connection (SQLite has one writer), a few readers, and a small
/// pool for the session store.
#[derive(Clone, Debug)]
pub struct Db {
    /// The writer pool: exactly 1 connection.
    pub write: SqlitePool,
    /// The read pool: a few read-only connections.
    pub read: SqlitePool,
    /// The session store's pool, on its own file ([`sessions_path`]): its writes do not wait for
    /// the league's write lock.
    pub sessions: SqlitePool,
    /// The database file.
    pub path: std::path::PathBuf,
}

/// Whether the writer connection may go back to its pool after use. SQLite rolls a transaction back
/// by itself on some errors (SQLITE_FULL: the disk is full); sqlx's own rollback then fails and it
/// counts the transaction as still open, so every later `BEGIN` on that connection would fail
/// until a restart. Such a connection is closed instead (the pool opens a fresh one). The `select 1`
/// waits for the rollback sqlx queued when the transaction was dropped.
async fn still_usable(conn: &mut sqlx::SqliteConnection) -> Result<bool, sqlx::Error> {
    use sqlx::Connection;
    sqlx::query("select 1").execute(&mut *conn).await?;
    let usable = !conn.is_in_transaction();
    if !usable {
        tracing::warn!("Schreibverbindung nach abgebrochener Transaktion neu geöffnet");
    }
    Ok(usable)
}

/// The connect options every pool shares: create the file, WAL, `synchronous=FULL`, foreign keys.
/// The file of the login sessions beside the database at `path`: `liga.db` → `liga.db-sitzungen`
/// (not part of a backup; deleting it logs everybody out).
pub fn sessions_path(path: &Path) -> std::path::PathBuf {
    let mut name = path.as_os_str().to_os_string();
    name.push("-sitzungen");
    std::path::PathBuf::from(name)
}

fn options(path: &Path, busy: Duration) -> Result<SqliteConnectOptions, DbError> {
    let url = format!("sqlite://{}", path.display());
    Ok(SqliteConnectOptions::from_str(&url)?
        .filename(path)
        .create_if_missing(true)
        .journal_mode(SqliteJournalMode::Wal)
        .synchronous(SqliteSynchronous::Full)
        .foreign_keys(true)
        .busy_timeout(busy))
}

impl Db {
    /// Opens (creating if missing) the database file at `path` and applies the embedded migrations.
    pub async fn open(path: &Path) -> Result<Db, DbError> {
        Db::open_waiting(path, BUSY_TIMEOUT).await
    }

    /// [`Db::open`] whose connections wait `busy` (instead of [`BUSY_TIMEOUT`]) for another
    /// connection's write lock before [`DbError::Busy`] (tests of a busy database).
    pub async fn open_waiting(path: &Path, busy: Duration) -> Result<Db, DbError> {
        let opts = options(path, busy)?;
        let write = SqlitePoolOptions::new()
            .max_connections(1)
            .after_release(|conn, _| Box::pin(still_usable(conn)))
            .connect_with(opts.clone())
            .await?;
        sqlx::migrate!().run(&write).await?;
        let read = SqlitePoolOptions::new()
            .max_connections(4)
            .connect_with(opts.clone().read_only(true))
            .await?;
        // Sessions live in a file of their own: a logged-in request saves its session (the idle
        // time slides), and in the league's file that save would wait for the league's one write
        // lock (four secretaries entering rounds: p99 0.5 s instead of < 0.1 s in bench/run.sh).
        // A lost session costs a login, not a round: NORMAL synchronous is enough.
        let sessions = SqlitePoolOptions::new()
            .max_connections(2)
            .connect_with(
                options(&sessions_path(path), busy)?
                    .foreign_keys(false)
                    .synchronous(SqliteSynchronous::Normal),
            )
            .await?;
        Ok(Db {
            write,
            read,
            sessions,
            path: path.to_path_buf(),
        })
    }

    /// Starts a read-then-write transaction on the writer (`BEGIN IMMEDIATE`); the database's
    /// row-level audit entries of this transaction name no author (`?`), see [`Db::begin_write_as`].
    pub async fn begin_write(&self) -> Result<WriteTx, DbError> {
        let mut tx = self.write.begin_with("BEGIN IMMEDIATE").await?;
        audit::clear_actor(&mut tx).await?;
        Ok(tx)
    }

    /// [`Db::begin_write`] whose row-level audit entries name `user`.
    pub async fn begin_write_as(&self, user: &str) -> Result<WriteTx, DbError> {
        let mut tx = self.write.begin_with("BEGIN IMMEDIATE").await?;
        audit::set_actor(&mut tx, user, false).await?;
        Ok(tx)
    }

    /// Writes a consistent copy of the live database to `target` (`VACUUM INTO`); the target must
    /// not exist yet.
    pub async fn backup(&self, target: &Path) -> Result<(), DbError> {
        sqlx::query("vacuum into ?")
            .bind(target.to_string_lossy().into_owned())
            .execute(&self.write)
            .await?;
        Ok(())
    }

    /// Folds the write-ahead log into the database file and empties it (`wal_checkpoint(TRUNCATE)`),
    /// then closes all pools: after this the database is one self-contained file (a stop, a copy).
    pub async fn close(&self) -> Result<(), DbError> {
        sqlx::query("pragma wal_checkpoint(TRUNCATE)")
            .execute(&self.write)
            .await?;
        self.sessions.close().await;
        self.read.close().await;
        self.write.close().await;
        Ok(())
    }
}

/// Converts a stored integer count to `u32`, or reports corrupt data.
pub(crate) fn to_u32(v: i64, what: &str) -> Result<u32, DbError> {
    u32::try_from(v).map_err(|_| DbError::Corrupt(format!("{what} = {v}")))
}
