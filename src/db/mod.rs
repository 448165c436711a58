//! All SQL of the application (runtime `sqlx::query_as` + `FromRow`), one file per aggregate.
//! Functions take a pool, a connection or a transaction; read-then-write transactions start with
//! `BEGIN IMMEDIATE` ([`Db::begin_write`]).

pub mod audit;
pub mod besteck;
pub mod card;
pub mod change;
pub mod closing;
pub mod kassenbuch;
pub mod merge;
pub mod money;
pub mod night;
pub mod planned;
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
    /// True when opened read-only ([`Db::open_read_only`]): nothing may be written.
    pub read_only: bool,
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

/// Creates the empty file `path` readable and writable by its owner only (0600, whatever the
/// process's umask) when it does not exist; an existing file is left as it is. SQLite then
/// takes it as a new database and gives its `-wal`/`-shm` the same mode (issue 32.7: the
/// database got the umask's 0644, its account hashes readable by every user).
pub fn create_private(path: &Path) -> std::io::Result<()> {
    use std::os::unix::fs::{OpenOptionsExt, PermissionsExt};
    match std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(0o600)
        .open(path)
    {
        // The umask may have taken bits of 0600 (umask 0277): set them as meant.
        Ok(f) => f.set_permissions(std::fs::Permissions::from_mode(0o600)),
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => Ok(()),
        Err(e) => Err(e),
    }
}

/// [`create_private`] as a storage error (the file could not be made).
fn create_private_db(path: &Path) -> Result<(), DbError> {
    create_private(path).map_err(|e| {
        DbError::Sqlx(sqlx::Error::Io(std::io::Error::new(
            e.kind(),
            format!("{} nicht anlegbar: {e}", path.display()),
        )))
    })
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

/// The program's migrations (`migrations/`, embedded).
pub static MIGRATOR: sqlx::migrate::Migrator = sqlx::migrate!();

/// The schema version of this program: the newest of its migrations (e.g. `20261201203000`).
pub fn program_version() -> i64 {
    MIGRATOR.iter().map(|m| m.version).max().unwrap_or_default()
}

/// A database file's schema compared with the program's migrations.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Schema {
    /// No schema yet: a new or empty file (nothing to keep; the first migration makes it).
    Empty,
    /// Exactly the program's migrations are applied; `version` is the newest.
    Current {
        /// The newest migration applied.
        version: i64,
    },
    /// Written by an older release: some of the program's migrations are not applied yet.
    Older {
        /// The newest migration applied.
        version: i64,
        /// How many of the program's migrations are missing.
        pending: usize,
    },
    /// Written by a newer release: migrations applied that this program does not know.
    Newer {
        /// The newest migration applied.
        version: i64,
        /// The applied migrations this program does not know.
        unknown: Vec<i64>,
    },
    /// A migration was started and did not finish, or an applied migration differs from the
    /// program's of the same version (its checksum): the file is not what any release wrote.
    Damaged {
        /// German: which migration and what is wrong.
        why: String,
    },
}

impl Schema {
    /// The schema as one German sentence, with the program's version: for messages and `verify`.
    pub fn describe(&self) -> String {
        let program = program_version();
        match self {
            Schema::Empty => "Die Datenbank hat noch kein Schema (neue, leere Datei).".to_string(),
            Schema::Current { version } => {
                format!("Schema {version}: der Stand dieses Programms.")
            }
            Schema::Older { version, pending } => format!(
                "Schema {version} ist älter als der Stand dieses Programms ({program}): \
                 {pending} Umstellung(en) fehlen."
            ),
            Schema::Newer { version, unknown } => format!(
                "Schema {version} ist neuer als der Stand dieses Programms ({program}): \
                 eine neuere Version hat die Datei umgestellt (unbekannte Umstellungen: {}).",
                unknown
                    .iter()
                    .map(i64::to_string)
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            Schema::Damaged { why } => format!("Schema beschädigt: {why}"),
        }
    }
}

/// Reads the schema of the database file at `path` without changing it (one read-only
/// connection). Errors: a file SQLite cannot read (not a database, damaged header, I/O).
pub async fn schema_of(path: &Path) -> Result<Schema, DbError> {
    use sqlx::Connection;
    let mut conn = sqlx::SqliteConnection::connect_with(&read_only_options(path)?).await?;
    let schema = schema_on(&mut conn).await;
    conn.close().await?;
    schema
}

/// [`schema_of`] on an open connection.
pub async fn schema_on(conn: &mut sqlx::SqliteConnection) -> Result<Schema, DbError> {
    let (has_table,): (i64,) = sqlx::query_as(
        "select count(*) from sqlite_master where type = 'table' and name = '_sqlx_migrations'",
    )
    .fetch_one(&mut *conn)
    .await?;
    if has_table == 0 {
        let (tables,): (i64,) = sqlx::query_as(
            "select count(*) from sqlite_master where type = 'table' and name not like 'sqlite_%'",
        )
        .fetch_one(&mut *conn)
        .await?;
        return Ok(if tables == 0 {
            Schema::Empty
        } else {
            Schema::Damaged {
                why: "keine Schockerliga-Datenbank (Tabellen ohne Umstellungsliste)".to_string(),
            }
        });
    }
    let applied: Vec<(i64, bool, Vec<u8>)> =
        sqlx::query_as("select version, success, checksum from _sqlx_migrations order by version")
            .fetch_all(&mut *conn)
            .await?;
    let Some(version) = applied.iter().map(|a| a.0).max() else {
        return Ok(Schema::Empty);
    };
    if let Some((v, _, _)) = applied.iter().find(|a| !a.1) {
        return Ok(Schema::Damaged {
            why: format!("Umstellung {v} wurde begonnen und nicht beendet"),
        });
    }
    let mut unknown = Vec::new();
    for (v, _, checksum) in &applied {
        match MIGRATOR.iter().find(|m| m.version == *v) {
            None => unknown.push(*v),
            Some(m) if m.checksum.as_ref() != checksum.as_slice() => {
                return Ok(Schema::Damaged {
                    why: format!("Umstellung {v} weicht von der dieses Programms ab"),
                })
            }
            Some(_) => {}
        }
    }
    if !unknown.is_empty() {
        return Ok(Schema::Newer { version, unknown });
    }
    let pending = MIGRATOR
        .iter()
        .filter(|m| !applied.iter().any(|a| a.0 == m.version))
        .count();
    Ok(if pending == 0 {
        Schema::Current { version }
    } else {
        Schema::Older { version, pending }
    })
}

/// One object of a database's schema as `sqlite_master` keeps it: its type (`table`, `index`,
/// `trigger`, `view`), name, table and SQL text.
type SchemaObject = (String, String, String, Option<String>);

/// The schema objects of the database behind `conn`, sorted by type and name; SQLite's own
/// (`sqlite_…`) and sqlx's migrations *table* are left out (the latter is read by
/// [`schema_on`]); any other object of that name counts (a trigger may take a table's name:
/// the hostile run hid one so).
async fn schema_objects(conn: &mut sqlx::SqliteConnection) -> Result<Vec<SchemaObject>, DbError> {
    Ok(sqlx::query_as(
        "select type, name, tbl_name, sql from sqlite_master \
         where name not like 'sqlite\\_%' escape '\\' \
           and not (type = 'table' and name = '_sqlx_migrations') \
         order by type, name",
    )
    .fetch_all(&mut *conn)
    .await?)
}

/// The schema that this program's migrations `versions` (those a database has applied) make on
/// an empty database: the migrations run in order on an in-memory one.
async fn schema_of_migrations(versions: &[i64]) -> Result<Vec<SchemaObject>, DbError> {
    use sqlx::Connection;
    let mut conn = sqlx::SqliteConnection::connect_with(
        &SqliteConnectOptions::from_str("sqlite::memory:")?.foreign_keys(true),
    )
    .await?;
    let scripts: Vec<&'static str> = MIGRATOR
        .migrations
        .iter()
        .filter(|m| versions.contains(&m.version) && !m.migration_type.is_down_migration())
        .map(|m| m.sql.as_ref())
        .collect();
    for sql in scripts {
        sqlx::Executor::execute(&mut conn, sql).await?;
    }
    let objects = schema_objects(&mut conn).await;
    conn.close().await?;
    objects
}

/// The migration that drops the session store's own `tower_sessions` table from the database
/// (`migrations/20261201203517_old_sessions_table.sql`): a database of an older release may
/// still have that table, which no migration of this program made.
const OLD_SESSIONS_DROPPED: i64 = 20261201203517;

/// Where the schema of the database behind `pool` differs from the one this program's
/// migrations make (those it has applied, see [`schema_on`]): every table, index, trigger and
/// view that is missing, added or changed, as German lines („Trigger results_audit_insert
/// fehlt“, „Trigger x ist zusätzlich“, „Index y weicht ab“); empty when they are the same
/// (issue 32.3: a copy with its audit triggers dropped passed the probe).
pub async fn schema_differences(pool: &SqlitePool) -> Result<Vec<String>, DbError> {
    let mut conn = pool.acquire().await?;
    let versions: Vec<(i64,)> = sqlx::query_as("select version from _sqlx_migrations")
        .fetch_all(&mut *conn)
        .await?;
    let versions: Vec<i64> = versions.into_iter().map(|v| v.0).collect();
    let found = schema_objects(&mut conn).await?;
    drop(conn);
    let want = schema_of_migrations(&versions).await?;
    let label = |kind: &str| match kind {
        "table" => "Tabelle",
        "index" => "Index",
        "trigger" => "Trigger",
        "view" => "Sicht",
        _ => "Objekt",
    };
    let key = |o: &SchemaObject| (o.0.clone(), o.1.clone());
    let mut out = Vec::new();
    for w in &want {
        match found.iter().find(|f| key(f) == key(w)) {
            None => out.push(format!("{} {} fehlt", label(&w.0), w.1)),
            Some(f) if f != w => out.push(format!("{} {} weicht ab", label(&w.0), w.1)),
            Some(_) => {}
        }
    }
    // Before the migration that drops it, the session store kept its own table in the file.
    let old_sessions = !versions.contains(&OLD_SESSIONS_DROPPED);
    for f in &found {
        if old_sessions && f.0 == "table" && f.1 == "tower_sessions" {
            continue;
        }
        if !want.iter().any(|w| key(w) == key(f)) {
            out.push(format!("{} {} ist zusätzlich", label(&f.0), f.1));
        }
    }
    Ok(out)
}

/// The size in bytes of the database behind `pool` by its pages (`page_count` × `page_size`):
/// what its file holds; bytes after that are no part of it.
pub async fn pages_bytes(pool: &SqlitePool) -> Result<u64, DbError> {
    let (count,): (i64,) = sqlx::query_as("pragma page_count").fetch_one(pool).await?;
    let (size,): (i64,) = sqlx::query_as("pragma page_size").fetch_one(pool).await?;
    Ok(u64::try_from(count.saturating_mul(size)).unwrap_or(0))
}

/// The options of a read-only connection to an existing file: no file created, no journal
/// mode set (a read-only connection must not try to change it).
fn read_only_options(path: &Path) -> Result<SqliteConnectOptions, DbError> {
    let url = format!("sqlite://{}", path.display());
    Ok(SqliteConnectOptions::from_str(&url)?
        .filename(path)
        .create_if_missing(false)
        .read_only(true)
        .foreign_keys(true)
        .busy_timeout(Duration::from_secs(5)))
}

impl Db {
    /// Opens the existing database file at `path` read-only, without migrating: every pool is
    /// a read-only connection to the file (a write fails), no session file is made. For the
    /// commands that only read (`export`, `standings`, `payouts`, `verify`). Errors: no such
    /// file, not a database.
    pub async fn open_read_only(path: &Path) -> Result<Db, DbError> {
        let read = SqlitePoolOptions::new()
            .max_connections(2)
            .connect_with(read_only_options(path)?)
            .await?;
        Ok(Db {
            write: read.clone(),
            read: read.clone(),
            sessions: read,
            path: path.to_path_buf(),
            read_only: true,
        })
    }

    /// Opens (creating if missing) the database file at `path` and applies the embedded migrations.
    pub async fn open(path: &Path) -> Result<Db, DbError> {
        Db::open_waiting(path, BUSY_TIMEOUT).await
    }

    /// [`Db::open`] whose connections wait `busy` (instead of [`BUSY_TIMEOUT`]) for another
    /// connection's write lock before [`DbError::Busy`] (tests of a busy database).
    pub async fn open_waiting(path: &Path, busy: Duration) -> Result<Db, DbError> {
        let opts = options(path, busy)?;
        // Both files private (0600) whatever the umask, before SQLite makes them.
        create_private_db(path)?;
        create_private_db(&sessions_path(path))?;
        let write = SqlitePoolOptions::new()
            .max_connections(1)
            .after_release(|conn, _| Box::pin(still_usable(conn)))
            .connect_with(opts.clone())
            .await?;
        MIGRATOR.run(&write).await?;
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
            read_only: false,
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
        copy_into(&self.write, target).await
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

/// Folds the write-ahead log of the database file at `path` into the file and closes it (one
/// connection of its own, nothing else changed): afterwards the file alone is the database
/// (SQLite removes the empty `-wal` as the last connection closes). Errors: the file cannot be
/// opened or checkpointed (damaged, busy).
pub async fn checkpoint_file(path: &Path) -> Result<(), DbError> {
    use sqlx::Connection;
    let url = format!("sqlite://{}", path.display());
    let opts = SqliteConnectOptions::from_str(&url)?
        .filename(path)
        .create_if_missing(false)
        .busy_timeout(BUSY_TIMEOUT);
    let mut conn = sqlx::SqliteConnection::connect_with(&opts).await?;
    sqlx::query("pragma wal_checkpoint(TRUNCATE)")
        .execute(&mut conn)
        .await?;
    conn.close().await?;
    Ok(())
}

/// Converts a stored integer count to `u32`, or reports corrupt data.
pub(crate) fn to_u32(v: i64, what: &str) -> Result<u32, DbError> {
    u32::try_from(v).map_err(|_| DbError::Corrupt(format!("{what} = {v}")))
}

/// Writes a consistent copy of the database behind `pool` to `target` (`VACUUM INTO`, one read
/// transaction; works on a read-only connection too). The target must not exist yet; it is made
/// private (0600) whatever the umask.
pub async fn copy_into(pool: &SqlitePool, target: &Path) -> Result<(), DbError> {
    if target.exists() {
        return Err(DbError::Sqlx(sqlx::Error::Io(std::io::Error::new(
            std::io::ErrorKind::AlreadyExists,
            format!("{} gibt es schon", target.display()),
        ))));
    }
    // VACUUM INTO takes an empty file as a new one: made first, with its mode.
    create_private_db(target)?;
    sqlx::query("vacuum into ?")
        .bind(target.to_string_lossy().into_owned())
        .execute(pool)
        .await?;
    Ok(())
}

/// What `pragma integrity_check` and `pragma foreign_key_check` say of the database behind
/// `pool`: empty when both find nothing, else their findings (at most 20 lines).
pub async fn integrity(pool: &SqlitePool) -> Result<Vec<String>, DbError> {
    let rows: Vec<(String,)> = sqlx::query_as("pragma integrity_check(20)")
        .fetch_all(pool)
        .await?;
    let mut found: Vec<String> = rows
        .into_iter()
        .map(|r| r.0)
        .filter(|r| r != "ok")
        .collect();
    let keys: Vec<(String, Option<i64>, String)> =
        sqlx::query_as("select \"table\", rowid, parent from pragma_foreign_key_check limit 20")
            .fetch_all(pool)
            .await?;
    found.extend(
        keys.into_iter()
            .map(|(t, id, p)| format!("{t} Zeile {} verweist ins Leere ({p})", id.unwrap_or(0))),
    );
    Ok(found)
}

/// How many nights are kept as totals (rows of `night_totals`) in the database behind `pool`.
pub async fn totals_nights(pool: &SqlitePool) -> Result<i64, DbError> {
    let (n,): (i64,) = sqlx::query_as("select count(distinct night_id) from night_totals")
        .fetch_one(pool)
        .await?;
    Ok(n)
}

/// How many rows `table` holds (one of the schema's own tables; for `verify`'s report).
pub async fn count_rows(pool: &SqlitePool, table: &str) -> Result<i64, DbError> {
    let known = [
        "users",
        "audit_log",
        "seasons",
        "players",
        "nights",
        "results",
        "night_totals",
        "fines",
    ];
    if !known.contains(&table) {
        return Err(DbError::Corrupt(format!("unbekannte Tabelle {table}")));
    }
    let (n,): (i64,) = sqlx::query_as(&format!("select count(*) from {table}"))
        .fetch_one(pool)
        .await?;
    Ok(n)
}
