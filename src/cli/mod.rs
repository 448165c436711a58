//! The command line as a room: each command group in its own file, each calling the service as
//! the web does (a [`schockerliga::service::League`] opened for reading or for writing; the upgrade and backup
//! functions of the service for the commands that must not open one). Nothing here names the
//! database layer; `main.rs` only parses and dispatches.
//!
//! - `args.rs`: the arguments (clap derive, the German help); `aufruf.rs`: clap's usage errors in
//!   German (exit 2);
//! - `data.rs` (league data): `import` of a season file or the club's file, `export`,
//!   `standings`, `payouts`;
//! - `sheets.rs` (spreadsheets): `import` of a `.csv`, `.xlsx` or `.ods` file;
//! - `accounts.rs`: `user add`, `user reset`;
//! - `upgrades.rs` (backups and upgrades): `status`, `verify`, `migrate`, `restore`, `backup`;
//! - `nights.rs` (nights and links): `night plan`, `night cancel`, `night link`, `player link`;
//! - `demo.rs`: `demo`; `serve.rs`: `serve`; `wurfrunde.rs`: `wurfrunde`.
//!
//! Every command ends in `anyhow::Result`: `Err` is its German message for stderr (exit 1, or 3
//! for a stopped upgrade, see `main.rs`).

pub mod accounts;
pub mod args;
pub mod aufruf;
pub mod data;
pub mod demo;
mod importing;
pub mod nights;
pub mod serve;
pub mod sheets;
pub mod upgrades;
pub mod wurfrunde;

use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;

use schockerliga::service::clock::{self, ClubClock};
use schockerliga::service::status::PublicUrl;
use schockerliga::service::{upgrade, ServiceError, Setup};

use args::{Cli, Command, UserCommand};

/// What every command may need of the global options: the database file, the club's clock, the
/// server's address and the public address its links start with.
pub struct Context {
    /// The database file (`--database`, `DATABASE_URL`; a `sqlite://` prefix taken off).
    pub path: PathBuf,
    /// The system clock and `--timezone`.
    pub setup: Setup,
    /// `--listen`: where the server listens (and where printed links point without
    /// `--public-url`).
    pub listen: SocketAddr,
    /// `--secure-cookies`.
    pub secure_cookies: bool,
    /// `--public-url`: the address the printed links start with.
    pub public_url: Option<PublicUrl>,
    /// The leagues opened for writing by the command, closed by [`Context::finish`].
    opened: std::sync::Mutex<Vec<schockerliga::service::League>>,
}

impl Context {
    /// Reads the global options of `cli` and returns them with the command to run (`serve` when
    /// none is given). Errors (German): the database is a directory, a time zone or public
    /// address that is none, a command that needs the league's database when there is none
    /// (reading commands must not create an empty one and answer as if it were the league).
    pub fn of(cli: Cli) -> anyhow::Result<(Context, Command)> {
        let path = db_path(&cli.database);
        if path.is_dir() {
            anyhow::bail!("Datenbank {} ist ein Verzeichnis", path.display());
        }
        let timezone = match cli.timezone.as_deref() {
            Some(name) => Some(clock::parse_timezone(name).map_err(anyhow::Error::msg)?),
            None => None,
        };
        let public_url = match cli.public_url.as_deref() {
            Some(url) => Some(PublicUrl::parse(url).map_err(anyhow::Error::msg)?),
            None => None,
        };
        let setup = Setup {
            clock: Arc::new(clock::SystemClock),
            timezone,
        };
        // The server's options count before `serve` too (hostile trial: `--backup-dir D serve`
        // started without backups and said nothing); given after it as well, those win.
        let command = match cli.command {
            None => Command::Serve(cli.serve_args.clone()),
            Some(Command::Serve(after)) => Command::Serve(after.or(cli.serve_args.clone())),
            Some(other) => other,
        };
        // Only serving, importing, adding a user and the demo start a league; reading commands on a
        // database that does not exist would create an empty one and answer as if it were the league
        // (a backup of it would look fine and hold nothing).
        let creates = matches!(
            command,
            Command::Serve(_)
                | Command::Import { .. }
                | Command::User {
                    command: UserCommand::Add { .. }
                }
                | Command::Demo(_)
        );
        let needs_none = matches!(
            command,
            Command::Wurfrunde { .. }
                | Command::Verify { .. }
                | Command::Restore { .. }
                | Command::Status { .. }
        );
        if !creates && !needs_none && !path.exists() {
            anyhow::bail!(
                "Datenbank {} gibt es nicht (mit --database die Datei des laufenden Servers angeben)",
                path.display()
            );
        }
        let context = Context {
            path,
            setup,
            listen: cli.listen,
            secure_cookies: cli.secure_cookies,
            public_url,
            opened: std::sync::Mutex::new(Vec::new()),
        };
        Ok((context, command))
    }

    /// The club's clock for a command that reads no settings: the system clock in `--timezone`,
    /// else [`clock::DEFAULT_TIMEZONE`].
    pub fn clock(&self) -> ClubClock {
        let zone = self.setup.timezone.unwrap_or(clock::DEFAULT_TIMEZONE);
        ClubClock::new(self.setup.clock.clone(), zone)
    }

    /// Opens the league for a command that writes ([`upgrade::open_for_writing`]) and says on
    /// stderr when it made a new database, and where.
    pub async fn open_for_writing(&self) -> anyhow::Result<upgrade::Writing> {
        let writing = upgrade::open_for_writing(&self.path, self.setup.clone())
            .await
            .map_err(refused)?;
        if writing.created {
            eprintln!("{}", upgrade::created_message(&self.path));
        }
        self.opened
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push(writing.league.clone());
        Ok(writing)
    }

    /// At the end of a command: every league it opened for writing closed, its log folded into
    /// the database file (hostile trial: after `import` the data sat in the `-wal` beside a
    /// 4 KiB file, and a plain copy of the file had no season). One closed already (serve, a
    /// refused import) is left as it is.
    pub async fn finish(&self) {
        let opened: Vec<_> =
            std::mem::take(&mut *self.opened.lock().unwrap_or_else(|e| e.into_inner()));
        for league in opened {
            let _ = league.close().await;
        }
    }

    /// Opens the league for a command that reads ([`upgrade::open_for_reading`]: read-only,
    /// the file left byte for byte as it is) and prints its notice (an older schema read
    /// through a migrated copy) on stderr.
    pub async fn open_for_reading(&self) -> anyhow::Result<upgrade::Reading> {
        let reading = upgrade::open_for_reading(&self.path, self.setup.clone())
            .await
            .map_err(refused)?;
        if let Some(notice) = &reading.notice {
            eprintln!("{notice}");
        }
        Ok(reading)
    }

    /// Opens the database for a command that reads it season by season without the league in
    /// memory ([`upgrade::open_stored`]) and prints its notice on stderr.
    pub async fn open_stored(&self) -> anyhow::Result<upgrade::StoredReading> {
        let reading = upgrade::open_stored(&self.path).await.map_err(refused)?;
        if let Some(notice) = &reading.notice {
            eprintln!("{notice}");
        }
        Ok(reading)
    }

    /// The links to `path_and_query` on the server: at `--public-url` when given, else at
    /// `--listen` on each of the machine's addresses, said on stderr to be a guess.
    pub fn links(&self, path_and_query: &str) -> Vec<String> {
        if let Some(url) = &self.public_url {
            return vec![url.link(path_and_query)];
        }
        let interfaces: Vec<std::net::IpAddr> = if_addrs::get_if_addrs()
            .map(|all| all.iter().map(|i| i.ip()).collect())
            .unwrap_or_default();
        // The command does not know where the server listens (fresh-user trial: a card link to
        // 127.0.0.1:3000 while the server ran on another port): say how to get it right.
        eprintln!(
            "Hinweis: der Link nimmt an, dass der Server auf {} läuft. Sonst dieselbe Option \
             --listen oder --public-url wie beim Server angeben (oder SCHOCKERLIGA_PUBLIC_URL \
             setzen); der Teil ab dem ersten / gilt auf jeder Adresse.",
            self.listen
        );
        schockerliga::web::links(self.listen, &interfaces, path_and_query)
    }
}

/// Writes `text` to standard output; a reader that stopped reading (`export 2026 | head`: broken
/// pipe) ends the output quietly instead of a panic in `println!`.
pub fn stdout(text: &str) -> anyhow::Result<()> {
    stdout_bytes(text.as_bytes())
}

/// Writes `bytes` to standard output, quietly ending on a broken pipe like [`stdout`].
pub fn stdout_bytes(bytes: &[u8]) -> anyhow::Result<()> {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    match out.write_all(bytes).and_then(|()| out.flush()) {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => Err(e.into()),
        _ => Ok(()),
    }
}

/// The database path from `--database` / `DATABASE_URL` (a `sqlite://` prefix is accepted).
pub fn db_path(arg: &str) -> PathBuf {
    let s = arg
        .strip_prefix("sqlite://")
        .or_else(|| arg.strip_prefix("sqlite:"))
        .unwrap_or(arg);
    PathBuf::from(s.split('?').next().unwrap_or(s))
}

/// Turns a service error into the program's error (message on stderr, exit 1).
pub fn refused(e: ServiceError) -> anyhow::Error {
    anyhow::anyhow!("{e}")
}

/// [`refused`], but a stopped upgrade keeps its kind (exit code 3, see `main.rs`).
pub fn upgrade_refused(e: ServiceError) -> anyhow::Error {
    match e {
        ServiceError::UpgradeStopped(_) => anyhow::Error::new(e),
        e => refused(e),
    }
}

#[cfg(test)]
mod tests;
