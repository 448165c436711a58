//! The `schockerliga` binary: the web server (default) and the command line of interchange.md.
//! Exit codes: 0 ok, 1 invalid input or refused (message on stderr), 2 usage (German message),
//! 3 the upgrade stopped: the copy before a migration failed its probe (`serve`, `migrate`).

use std::io::{IsTerminal, Read};
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;

mod aufruf;

use anyhow::Context;
use chrono::NaiveDate;
use clap::{Parser, Subcommand, ValueEnum};
use schockerliga::auth::{self, Role};
use schockerliga::db::Db;
use schockerliga::league::model::file::SeasonFile;
use schockerliga::league::model::format::de2;
use schockerliga::league::{format_dwert, Korrektur, Liga, Standings};
use schockerliga::service::clock::{self, ClubClock};
use schockerliga::service::interchange::ImportOptions;
use schockerliga::service::status::PublicUrl;
use schockerliga::service::{self, accounts, upgrade, ServiceError, Setup};
use schockerliga::web::kit::server;
use schockerliga::web::{build, Config};

/// The help text's layout in German (clap's own headings are English): about, usage, the
/// commands, the options. For the program and the commands that have commands (`user`, `night`).
const HILFE_BEFEHLE: &str =
    "{about-with-newline}\nAufruf: {usage}\n\nBefehle:\n{subcommands}\n\nOptionen:\n{options}";
/// The same for a command without arguments: about, usage, the options.
const HILFE_OPTIONEN: &str = "{about-with-newline}\nAufruf: {usage}\n\nOptionen:\n{options}";
/// The same for a command that runs: about, usage, its arguments, the options.
const HILFE: &str =
    "{about-with-newline}\nAufruf: {usage}\n\n{positionals}\n\nOptionen:\n{options}";

/// Die Schockerliga: Spielabende, Tabelle, Kasse und Jahresabschluss einer Schocken-Liga.
#[derive(Parser)]
#[command(
    name = "schockerliga",
    version,
    about,
    help_template = HILFE_BEFEHLE,
    disable_help_flag = true,
    disable_version_flag = true,
    disable_help_subcommand = true
)]
struct Cli {
    /// Diese Hilfe zeigen.
    #[arg(short = 'h', long = "help", action = clap::ArgAction::Help, global = true)]
    help: Option<bool>,
    /// Die Version zeigen.
    #[arg(short = 'V', long = "version", action = clap::ArgAction::Version)]
    version: Option<bool>,
    /// SQLite-Datenbankdatei (wird mit ihrem Schema angelegt, wenn sie fehlt).
    #[arg(
        long,
        global = true,
        env = "DATABASE_URL",
        default_value = "schockerliga.db",
        // An empty name is no file (it left a stray "-sitzungen" behind): a usage error.
        value_parser = clap::builder::NonEmptyStringValueParser::new()
    )]
    database: String,
    /// Adresse des Webservers.
    #[arg(
        long,
        global = true,
        env = "SCHOCKERLIGA_LISTEN",
        default_value = "127.0.0.1:3000"
    )]
    listen: SocketAddr,
    /// Das Sitzungs-Cookie als `Secure` markieren (hinter HTTPS einschalten; im reinen HTTP-LAN aus).
    #[arg(long, global = true, env = "SCHOCKERLIGA_SECURE_COOKIES")]
    secure_cookies: bool,
    /// Zeitzone des Vereins (IANA-Name wie Europe/Berlin); ohne: die der Einstellungen, sonst
    /// Europe/Berlin, was immer die Zeitzone des Servers ist.
    #[arg(long, global = true, env = "SCHOCKERLIGA_TIMEZONE")]
    timezone: Option<String>,
    /// Öffentliche Adresse hinter dem HTTPS-Proxy (z. B. https://liga.example.org): die
    /// ausgegebenen Links (Einrichtung, Passwort, Tisch) beginnen damit.
    #[arg(long, global = true, env = "SCHOCKERLIGA_PUBLIC_URL")]
    public_url: Option<String>,
    #[command(flatten)]
    serve_args: ServeArgs,
    #[command(subcommand)]
    command: Option<Command>,
}

/// The server's backups (`serve --backup-dir DIR [--backup-keep N]`).
#[derive(clap::Args, Clone, Default)]
struct ServeArgs {
    /// Verzeichnis für geprüfte Sicherungen: beim Start (wenn dort keine von heute ist), nach
    /// jedem abgeschlossenen Abend, nach jedem Import in der Verwaltung und täglich um 04:00 Uhr
    /// Vereinszeit.
    #[arg(long, env = "SCHOCKERLIGA_BACKUP_DIR")]
    backup_dir: Option<PathBuf>,
    /// So viele der neuesten Sicherungen behalten (mit bestandener Probe).
    #[arg(long, env = "SCHOCKERLIGA_BACKUP_KEEP", default_value_t = service::backup::DEFAULT_KEEP)]
    backup_keep: usize,
    /// Adresse eines Proxys davor (z. B. 127.0.0.1 für Caddy auf derselben Maschine; mehrere
    /// durch Komma oder die Option mehrmals): nur bei Anfragen von ihm zählt der Besucher aus
    /// X-Forwarded-For (für die Grenzen je Besucher und das Protokoll); von allen anderen wird
    /// der Kopf nicht beachtet.
    #[arg(
        long = "trusted-proxy",
        value_name = "ADRESSE",
        env = "SCHOCKERLIGA_TRUSTED_PROXY",
        value_delimiter = ','
    )]
    trusted_proxy: Vec<std::net::IpAddr>,
}

#[derive(Subcommand)]
enum Command {
    /// Den Webserver starten (ohne Befehl der Standard); stellt eine ältere Datenbank vorher um
    /// (mit geprüfter Kopie daneben).
    #[command(help_template = HILFE_OPTIONEN)]
    Serve(ServeArgs),
    /// Zeigt Version, das heutige Datum des Vereins, die Zeitzone und den Stand der Datenbank.
    #[command(help_template = HILFE_OPTIONEN)]
    Status {
        /// JSON ausgeben (wie GET /api/v1/status).
        #[arg(long)]
        json: bool,
    },
    /// Eine Sicherung prüfen, ohne sie zu ändern: Integrität, Schema, Tabellen und Auszahlungen
    /// jeder Saison neu berechnet. Exit 0 „Probe bestanden“, 1 mit dem, was fehlschlug.
    #[command(help_template = HILFE)]
    Verify {
        /// Die Sicherung (SQLite-Datei).
        file: PathBuf,
    },
    /// Die Datenbank auf den Stand dieses Programms umstellen (schreibt vorher eine geprüfte
    /// Kopie daneben; abgelehnt, solange ein anderer Prozess sie offen hat).
    #[command(help_template = HILFE_OPTIONEN)]
    Migrate,
    /// Eine geprüfte Sicherung an die Stelle der Datenbank setzen (abgelehnt, solange ein Server
    /// sie offen hat; die alte Datei bleibt daneben).
    #[command(help_template = HILFE)]
    Restore {
        /// Die Sicherung (SQLite-Datei), die zur Datenbank werden soll.
        file: PathBuf,
    },
    /// Eine Saisondatei, die Datei des ganzen Vereins oder eine Tabelle der Abende (.csv, .xlsx,
    /// .ods) in die Datenbank laden (alles oder nichts).
    #[command(help_template = HILFE)]
    Import {
        /// Die Datei: JSON (schockerliga-season/1 oder schockerliga-club/1) oder eine Tabelle
        /// (.csv, .xlsx, .ods; eine Arbeitsmappe mit einem Blatt je Jahr bringt alle Saisons).
        file: PathBuf,
        /// Eine Saison ersetzen, die schon Spielabende hat. Eine Tabelle (oder eine Saisondatei
        /// ohne Strafen, Beiträge und Strafenkatalog) ersetzt nur die Ergebnisse: Strafen,
        /// Beiträge, Zahlungen und der Strafenkatalog bleiben.
        #[arg(long)]
        replace: bool,
        /// Der Grund, wenn das Ersetzen abgeschlossene Abende ändert (eine Korrektur).
        #[arg(long, value_name = "GRUND", requires = "replace")]
        korrektur: Option<String>,
    },
    /// Eine Saisondatei schreiben (ohne -o auf die Standardausgabe); mit --csv als Tabelle der
    /// Abende, mit --all den ganzen Verein.
    #[command(help_template = HILFE)]
    Export {
        /// Das Jahr der Saison (ohne, mit --all: alle Saisons).
        #[arg(required_unless_present = "all", conflicts_with = "all")]
        season: Option<i32>,
        /// Als Tabelle der Abende (CSV: UTF-8 mit BOM, `;`), die sich wieder einlesen lässt.
        #[arg(long)]
        csv: bool,
        /// Den ganzen Verein: alle Saisons und Spieler (ohne Konten), schockerliga-club/1.
        #[arg(long, conflicts_with = "csv")]
        all: bool,
        /// Ausgabedatei (abgelehnt, wenn sie existiert, außer mit --force; nie die Datenbank selbst).
        #[arg(short = 'o', long = "output")]
        output: Option<PathBuf>,
        /// Eine vorhandene Ausgabedatei überschreiben.
        #[arg(long)]
        force: bool,
    },
    /// Die Tabelle ausgeben.
    #[command(help_template = HILFE)]
    Standings {
        /// Das Jahr der Saison.
        season: i32,
        /// Tabelle zu diesem Tag (JJJJ-MM-TT); ohne: nach dem letzten Spielabend.
        #[arg(long = "as-of")]
        as_of: Option<NaiveDate>,
        /// JSON ausgeben (Schnittstelle, docs/saisondatei.md) statt einer Texttabelle.
        #[arg(long)]
        json: bool,
    },
    /// Die Auszahlung am Jahresende ausgeben.
    #[command(help_template = HILFE)]
    Payouts {
        /// Das Jahr der Saison.
        season: i32,
        /// JSON ausgeben (Schnittstelle, docs/saisondatei.md).
        #[arg(long)]
        json: bool,
    },
    /// Konten verwalten.
    #[command(help_template = HILFE_BEFEHLE)]
    User {
        #[command(subcommand)]
        command: UserCommand,
    },
    /// Eine stimmige Kopie der Datenbank schreiben, so wie sie ist (VACUUM INTO; auch während
    /// der Server läuft; nichts wird umgestellt).
    #[command(help_template = HILFE)]
    Backup {
        /// Zieldatei (darf nicht existieren).
        file: PathBuf,
    },
    /// Eine Wurfrunde auswerten (Anfrage-JSON der Schnittstelle) und die Antwort als JSON ausgeben.
    #[command(help_template = HILFE)]
    Wurfrunde {
        /// Die Anfragedatei, oder `-` für die Standardeingabe.
        file: String,
    },
    /// Die Datenbank mit einer großen, immer gleichen Demo-Liga füllen. Abgelehnt, wenn eine
    /// ihrer Saisons dort schon Spielabende hat (die echte Saison eines Clubs), außer mit --replace.
    #[command(help_template = HILFE_OPTIONEN)]
    Demo(DemoArgs),
    /// Spielabende planen und absagen, die Schreib-Links eines Spielabends (ein Tisch ohne Konto).
    #[command(help_template = HILFE_BEFEHLE)]
    Night {
        #[command(subcommand)]
        command: NightCommand,
    },
    /// Die eigene Karte eines Spielers (offene Strafen, Jahresbeitrag, GiroCode, nächster Abend).
    #[command(help_template = HILFE_BEFEHLE)]
    Player {
        #[command(subcommand)]
        command: PlayerCommand,
    },
}

#[derive(Subcommand)]
enum PlayerCommand {
    /// Den Link /karte/{token} der eigenen Karte des Spielers ausgeben; ein neuer Link widerruft
    /// den alten.
    #[command(help_template = HILFE)]
    Link {
        /// Der Name des Spielers.
        name: String,
        /// Stattdessen den Link widerrufen.
        #[arg(long)]
        revoke: bool,
    },
}

#[derive(Subcommand)]
enum NightCommand {
    /// Einen Spielabend planen (ein Jahr ohne Saison bekommt eine, mit den Vorgaben des Jahres);
    /// ein schon geplanter Abend bekommt die angegebene Uhrzeit und den Ort.
    #[command(help_template = HILFE)]
    Plan {
        /// Der Tag (JJJJ-MM-TT).
        date: NaiveDate,
        /// Beginn (SS:MM, Zeitzone des Vereins); ohne: wie zuletzt geplant, sonst 19:30.
        #[arg(long)]
        time: Option<String>,
        /// Ort.
        #[arg(long)]
        place: Option<String>,
    },
    /// Einen geplanten Abend absagen, der noch keine Runden hat.
    #[command(help_template = HILFE)]
    Cancel {
        /// Der Tag (JJJJ-MM-TT).
        date: NaiveDate,
    },
    /// Den Link ausgeben, mit dem die Runden eines Tisches ohne Konto eingetragen werden (bis der
    /// Abend abgeschlossen oder der Link widerrufen ist; ein neuer Link widerruft den alten).
    #[command(help_template = HILFE)]
    Link {
        /// Der Spielabend (JJJJ-MM-TT).
        date: NaiveDate,
        /// Der Tisch, 1 oder 2.
        table: u32,
        /// Stattdessen den Link des Tisches beenden.
        #[arg(long)]
        revoke: bool,
    },
}

/// The size of the demo league (`schockerliga demo`).
#[derive(clap::Args)]
struct DemoArgs {
    /// Anzahl der Saisons, die letzte im Jahr --last-year.
    #[arg(long, default_value_t = 20)]
    seasons: u32,
    /// Spielabende je Saison (höchstens 365).
    #[arg(long, default_value_t = 45)]
    nights: u32,
    /// Spieler der Liga.
    #[arg(long, default_value_t = 20)]
    players: u32,
    /// Startwert des Zufallsgenerators (gleicher Startwert, gleiche Liga).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Jahr der neuesten Saison.
    #[arg(long, default_value_t = 2026)]
    last_year: i32,
    /// So viele letzte Abende der neuesten Saison im Schockbesteck spielen (Würfe bleiben: Glücksfaktor).
    #[arg(long, default_value_t = 3)]
    besteck_nights: u32,
    /// Saisons dieser Jahre ersetzen, auch wenn sie schon Spielabende haben (deren Daten gehen verloren).
    #[arg(long)]
    replace: bool,
}

#[derive(Subcommand)]
enum UserCommand {
    /// Ein Konto anlegen; das Passwort kommt von der Standardeingabe oder wird am Terminal zweimal
    /// abgefragt.
    #[command(help_template = HILFE)]
    Add {
        /// Anmeldename.
        name: String,
        /// Die Rolle des Kontos.
        #[arg(long, value_enum)]
        role: RoleArg,
    },
    /// Einen einmaligen Link ausgeben, mit dem das Konto ein neues Passwort bekommt (24 Stunden,
    /// einmal).
    #[command(help_template = HILFE)]
    Reset {
        /// Anmeldename.
        name: String,
    },
}

#[derive(Clone, Copy, ValueEnum)]
enum RoleArg {
    Admin,
    Secretary,
    Kassenwart,
}

/// Parses the command line (usage errors exit 2, said in German by [`aufruf::deutsch`]), runs the command, and exits 1 with the
/// message on stderr when it fails or is refused.
fn main() -> ExitCode {
    // An empty DATABASE_URL (an env file's `DATABASE_URL=`) means unset: the default, or the
    // --database given. (clap reads it for the global option even when --database is given to a
    // command, and an empty name is refused below.)
    if std::env::var_os("DATABASE_URL").is_some_and(|v| v.is_empty()) {
        std::env::remove_var("DATABASE_URL");
    }
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        // --help, --version: clap's answer (German by the templates above), exit 0.
        Err(e) if !aufruf::is_error(&e) => e.exit(),
        Err(e) => {
            // args_os: an argument that is no UTF-8 must not panic here (clap said so above).
            let args: Vec<String> = std::env::args_os()
                .map(|a| a.to_string_lossy().into_owned())
                .collect();
            let usage = aufruf::usage_of(<Cli as clap::CommandFactory>::command(), &args);
            eprint!("{}", aufruf::deutsch(&e, Some(&usage)));
            return ExitCode::from(2);
        }
    };
    tracing_subscriber::fmt()
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env()
                .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info")),
        )
        .with_writer(std::io::stderr)
        // Colour codes only on a terminal: a log redirected to a file stays plain text.
        .with_ansi(std::io::IsTerminal::is_terminal(&std::io::stderr()))
        .init();
    let runtime = match tokio::runtime::Runtime::new() {
        Ok(r) => r,
        Err(e) => {
            eprintln!("Fehler: {e}");
            return ExitCode::from(1);
        }
    };
    match runtime.block_on(run(cli)) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("Fehler: {e:#}");
            // The upgrade stopped (its copy failed the probe): 3, which the service units do not
            // restart (RestartPreventExitStatus=3), instead of a copy every 5 s.
            match e.downcast_ref::<ServiceError>() {
                Some(ServiceError::UpgradeStopped(_)) => ExitCode::from(3),
                _ => ExitCode::from(1),
            }
        }
    }
}

/// Writes `text` to standard output; a reader that stopped reading (`export 2026 | head`: broken
/// pipe) ends the output quietly instead of a panic in `println!`.
fn stdout(text: &str) -> anyhow::Result<()> {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => Err(e.into()),
        _ => Ok(()),
    }
}

/// Writes `bytes` to standard output, quietly ending on a broken pipe like [`stdout`].
fn stdout_bytes(bytes: &[u8]) -> anyhow::Result<()> {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    match out.write_all(bytes).and_then(|()| out.flush()) {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => Err(e.into()),
        _ => Ok(()),
    }
}

/// The bytes of the spreadsheet `file`, its size checked before it is read (issue 32.1: a file
/// far over `sheet::MAX_FILE_BYTES` is refused, not loaded into memory), and read no further than
/// one byte over the limit (a file that grows, or a device that never ends, is refused alike).
fn read_sheet_file(file: &Path) -> anyhow::Result<Vec<u8>> {
    use std::io::Read;
    let name = file.to_string_lossy();
    let too_large = |len: u64| {
        schockerliga::sheet::check_size(len)
            .map_err(|e| refused(ServiceError::refused(format!("{name}: {e}"))))
    };
    let opened =
        std::fs::File::open(file).with_context(|| format!("{} nicht lesbar", file.display()))?;
    let size = opened
        .metadata()
        .with_context(|| format!("{} nicht lesbar", file.display()))?
        .len();
    too_large(size)?;
    let mut bytes = Vec::new();
    opened
        .take(schockerliga::sheet::MAX_FILE_BYTES as u64 + 1)
        .read_to_end(&mut bytes)
        .with_context(|| format!("{} nicht lesbar", file.display()))?;
    too_large(bytes.len() as u64)?;
    Ok(bytes)
}

/// A refused import: a closed night it would change says how the command line gives the
/// Korrektur (`--korrektur GRUND`).
fn import_refused(e: ServiceError) -> anyhow::Error {
    match e {
        ServiceError::Closed(_) => anyhow::anyhow!("{e} Auf der Befehlszeile: --korrektur GRUND."),
        other => refused(other),
    }
}

/// Prints what the import did with one season: [`imported_line`], and what a replacement of
/// results only changed.
fn print_imported(done: &service::interchange::Imported) {
    eprintln!("{}", imported_line(&done.season));
    if let Some(line) = done.replaced_line() {
        eprintln!("  {line}");
    }
}

/// The line the import prints per season: "Saison 2007 importiert: 14 Spieler, 45 Spielabende
/// (45 als Summen)" or "… Endstand mit 14 Spielern".
fn imported_line(season: &schockerliga::league::Season) -> String {
    if season.is_endstand() {
        return format!(
            "Saison {} importiert: Endstand mit {} Spielern",
            season.year,
            season.endstand.len()
        );
    }
    let totals = season.totals_nights().len();
    let note = if totals > 0 {
        format!(" ({totals} als Summen)")
    } else {
        String::new()
    };
    format!(
        "Saison {} importiert: {} Spieler, {} Spielabende{note}",
        season.year,
        season.players.len(),
        season.nights.len()
    )
}

/// The database path from `--database` / `DATABASE_URL` (a `sqlite://` prefix is accepted).
fn db_path(arg: &str) -> PathBuf {
    let s = arg
        .strip_prefix("sqlite://")
        .or_else(|| arg.strip_prefix("sqlite:"))
        .unwrap_or(arg);
    PathBuf::from(s.split('?').next().unwrap_or(s))
}

async fn run(cli: Cli) -> anyhow::Result<()> {
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
    let command = cli
        .command
        .unwrap_or_else(|| Command::Serve(cli.serve_args.clone()));
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
    let links = |path_and_query: &str| -> Vec<String> {
        if let Some(url) = &public_url {
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
            cli.listen
        );
        schockerliga::web::links(cli.listen, &interfaces, path_and_query)
    };
    match command {
        Command::Serve(args) => {
            serve(
                &path,
                ServeOptions {
                    listen: cli.listen,
                    secure_cookies: cli.secure_cookies,
                    setup,
                    public_url,
                    args,
                },
            )
            .await
        }
        Command::Status { json } => status(&path, setup, json).await,
        Command::Verify { file } => {
            let report = service::backup::verify(&file).await;
            stdout(&report.text())?;
            match report.failures.first() {
                None => Ok(()),
                Some(first) => anyhow::bail!("Probe fehlgeschlagen: {first}"),
            }
        }
        Command::Migrate => {
            let clock = ClubClock::new(setup.clock.clone(), setup_zone(&setup));
            let done = upgrade::migrate(&path, &clock)
                .await
                .map_err(upgrade_refused)?;
            match &done.copy {
                None => eprintln!("Nichts umzustellen: {}", done.before.describe()),
                Some((copy, _)) => eprintln!(
                    "Datenbank umgestellt ({} → Schema {}). Kopie vorher: {} (Probe bestanden; \
                     mit der vorigen Version lesbar)",
                    done.before.describe(),
                    schockerliga::db::program_version(),
                    copy.display()
                ),
            }
            Ok(())
        }
        Command::Restore { file } => {
            let clock = ClubClock::new(setup.clock.clone(), setup_zone(&setup));
            let done = upgrade::restore(&path, &file, &clock)
                .await
                .map_err(refused)?;
            stdout(&done.report.text())?;
            match &done.old {
                Some(old) => eprintln!(
                    "{} wiederhergestellt aus {}; die vorige Datenbank liegt als {} daneben. \
                     Alle melden sich neu an.",
                    path.display(),
                    file.display(),
                    old.display()
                ),
                None => eprintln!(
                    "{} wiederhergestellt aus {}.",
                    path.display(),
                    file.display()
                ),
            }
            Ok(())
        }
        Command::Import {
            file,
            replace,
            korrektur,
        } => {
            let name = file.to_string_lossy();
            let korrektur = korrektur
                .map(|k| Korrektur::because(&k))
                .unwrap_or_default();
            let shown = file
                .file_name()
                .map_or_else(|| name.to_string(), |n| n.to_string_lossy().into_owned());
            let options = ImportOptions {
                korrektur: korrektur.clone(),
                source: shown.clone(),
                ..ImportOptions::by("cli", replace)
            };
            if service::interchange::is_sheet(&name) {
                let bytes = read_sheet_file(&file)?;
                let import =
                    service::interchange::read_sheet_rows(&name, &bytes).map_err(refused)?;
                let db = open_for_import(&path, &setup, &import.files(), Some(&import)).await?;
                let options = ImportOptions {
                    source: shown,
                    ..import.options("cli", replace, korrektur)
                };
                let seasons =
                    service::interchange::import_all(&db.db, &import.files(), &[], &options)
                        .await
                        .map_err(import_refused)?;
                for s in seasons {
                    print_imported(&s);
                    let skipped = import
                        .seasons
                        .iter()
                        .find(|x| x.season.year == s.season.year)
                        .map(|x| x.skipped.as_slice())
                        .unwrap_or_default();
                    if !skipped.is_empty() {
                        eprintln!("  übersprungen: {}", skipped.join("; "));
                    }
                }
                return Ok(());
            }
            let text = std::fs::read_to_string(&file)
                .with_context(|| format!("{} nicht lesbar", file.display()))?;
            // A file saved by an editor that writes a UTF-8 byte order mark imports all the same.
            let text = text.strip_prefix('\u{feff}').unwrap_or(&text);
            let is_club = serde_json::from_str::<serde_json::Value>(text).is_ok_and(|v| {
                v.get("format").and_then(|f| f.as_str()) == Some(service::interchange::CLUB_FORMAT)
            });
            if is_club {
                let club: service::interchange::ClubFile = serde_json::from_str(text)
                    .with_context(|| {
                        format!("{} ist keine gültige Vereinsdatei", file.display())
                    })?;
                service::interchange::check_club(&club).map_err(refused)?;
                let db = open_for_import(&path, &setup, &club.seasons, None).await?;
                let seasons = service::interchange::import_all(
                    &db.db,
                    &club.seasons,
                    &club.players,
                    &options,
                )
                .await
                .map_err(import_refused)?;
                for s in &seasons {
                    print_imported(s);
                }
                eprintln!("Verein importiert: {} Saisons", seasons.len());
                return Ok(());
            }
            let parsed: SeasonFile = serde_json::from_str(text)
                .with_context(|| format!("{} ist keine gültige Saisondatei", file.display()))?;
            let db = open_for_import(&path, &setup, std::slice::from_ref(&parsed), None).await?;
            let seasons = service::interchange::import_all(
                &db.db,
                std::slice::from_ref(&parsed),
                &[],
                &options,
            )
            .await
            .map_err(import_refused)?;
            for s in &seasons {
                print_imported(s);
            }
            Ok(())
        }
        Command::Export {
            season,
            csv,
            all,
            output,
            force,
        } => {
            if let Some(out) = &output {
                if is_database_file(out, &path) {
                    anyhow::bail!(
                        "{} ist die Datenbank selbst (oder ihr Journal): dorthin wird nicht exportiert",
                        out.display()
                    );
                }
                if out.exists() && !force {
                    anyhow::bail!(
                        "{} gibt es schon: nichts geschrieben (mit --force überschreiben)",
                        out.display()
                    );
                }
            }
            let reading = open_for_reading(&path, setup).await?;
            let league = reading.league;
            let bytes: Vec<u8> = match season {
                _ if all => {
                    let club = league.export_club().await.map_err(refused)?;
                    (serde_json::to_string_pretty(&club)? + "\n").into_bytes()
                }
                Some(year) if csv => {
                    service::interchange::season_csv(&league, year).map_err(refused)?
                }
                Some(year) => {
                    let file = league.export(year).map_err(refused)?;
                    (serde_json::to_string_pretty(&file)? + "\n").into_bytes()
                }
                None => anyhow::bail!("Saison fehlt (oder --all)"),
            };
            match output {
                Some(out) => std::fs::write(&out, bytes)
                    .with_context(|| format!("{} nicht schreibbar", out.display()))?,
                None => stdout_bytes(&bytes)?,
            }
            Ok(())
        }
        Command::Standings {
            season,
            as_of,
            json,
        } => {
            let reading = open_for_reading(&path, setup).await?;
            let table = reading.league.standings(season, as_of).map_err(refused)?;
            if json {
                stdout(&(serde_json::to_string_pretty(&table)? + "\n"))?;
            } else {
                stdout(&standings_text(&table))?;
            }
            Ok(())
        }
        Command::Payouts { season, json } => {
            let reading = open_for_reading(&path, setup).await?;
            let p = reading.league.payouts(season).map_err(refused)?;
            if json {
                stdout(&(serde_json::to_string_pretty(&p)? + "\n"))?;
            } else {
                stdout(&payouts_text(&p))?;
            }
            Ok(())
        }
        Command::User {
            command: UserCommand::Add { name, role },
        } => {
            let role = match role {
                RoleArg::Admin => Role::Admin,
                RoleArg::Secretary => Role::Secretary,
                RoleArg::Kassenwart => Role::Treasurer,
            };
            let name = name.trim().to_string();
            // The web's account checks (name 1–50 characters, nothing invisible; password 8–200).
            auth::check_account_name(&name).map_err(anyhow::Error::msg)?;
            let password = read_password()?;
            let db = open_for_writing(&path).await?;
            accounts::create(&db.db, &name, &password, None, role, "cli")
                .await
                .map_err(refused)?;
            eprintln!("Konto {name} ({}) angelegt", role.as_str());
            Ok(())
        }
        Command::User {
            command: UserCommand::Reset { name },
        } => {
            let db = open_for_writing(&path).await?;
            let token = accounts::issue_reset(&db.db, &name, "cli")
                .await
                .map_err(refused)?;
            for link in links(&format!("/passwort/zuruecksetzen?token={token}")) {
                stdout(&format!("{link}\n"))?;
            }
            eprintln!(
                "Einmal-Link für {} (24 Stunden gültig, nur einmal; ein neuer Link macht ihn ungültig)",
                name.trim()
            );
            Ok(())
        }
        Command::Wurfrunde { file } => {
            let body = if file == "-" {
                let mut buf = Vec::new();
                std::io::stdin()
                    .read_to_end(&mut buf)
                    .context("stdin nicht lesbar")?;
                buf
            } else {
                std::fs::read(&file).with_context(|| format!("{file} nicht lesbar"))?
            };
            let request = schockerliga::rules::parse_wurfrunde_request(&body)?;
            let response = schockerliga::rules::evaluate_wurfrunde(&request)?;
            stdout(&(serde_json::to_string_pretty(&response)? + "\n"))?;
            Ok(())
        }
        Command::Backup { file } => {
            if file.exists() {
                anyhow::bail!("{} gibt es schon", file.display());
            }
            // Beside the database only as its owner (a root-owned file there, issue 31.2).
            service::files::check_owner_beside(&path, &file).map_err(refused)?;
            // The file as it is: read-only, whatever its schema (no migration on the way).
            let _lock = upgrade::lock_shared(&path).map_err(refused)?;
            let db = Db::open_read_only(&path).await?;
            let written = service::backup::write_copy(&db, &file).await;
            db.read.close().await;
            written.map_err(refused)?;
            eprintln!(
                "Sicherung geschrieben: {} (prüfen: schockerliga verify {})",
                file.display(),
                file.display()
            );
            Ok(())
        }
        Command::Demo(args) => demo(&path, args).await,
        Command::Night {
            command: NightCommand::Plan { date, time, place },
        } => {
            let writing = open_for_writing(&path).await?;
            let league = service::League::of_with(writing.db.clone(), setup.clone())
                .await
                .map_err(refused)?;
            let input = service::planned::PlanInput {
                date: Some(date),
                time,
                place,
                note: None,
            };
            let done = league
                .plan_night(&input, service::planned::OnPlanned::Update, "cli")
                .await
                .map_err(refused)?;
            let planning = league.planning();
            let night = planning.by_id(done.id());
            let when = night.map_or_else(|| date.format("%d.%m.%Y").to_string(), |n| n.when_de());
            let place = night
                .filter(|n| !n.place.is_empty())
                .map(|n| format!(", {}", n.place))
                .unwrap_or_default();
            let what = match done {
                service::planned::Planned::New(_) => "geplant",
                service::planned::Planned::Changed(_) => "geändert",
                service::planned::Planned::Unchanged(_) => "war schon so geplant",
                service::planned::Planned::Revived(_) => "wieder angesetzt",
            };
            eprintln!("Abend {when}{place}: {what}");
            for link in links(&format!("/abend/{date}")) {
                stdout(&format!("{link}\n"))?;
            }
            Ok(())
        }
        Command::Night {
            command: NightCommand::Cancel { date },
        } => {
            let writing = open_for_writing(&path).await?;
            let league = service::League::of_with(writing.db.clone(), setup.clone())
                .await
                .map_err(refused)?;
            let Some(id) = league.planning().active_on(date).map(|n| n.id) else {
                anyhow::bail!(
                    "Am {} ist kein Abend geplant (oder er ist schon abgesagt).",
                    date.format("%d.%m.%Y")
                );
            };
            league.cancel_planned(id, "cli").await.map_err(refused)?;
            eprintln!("Abend am {} abgesagt.", date.format("%d.%m.%Y"));
            Ok(())
        }
        Command::Player {
            command: PlayerCommand::Link { name, revoke },
        } => {
            let writing = open_for_writing(&path).await?;
            let db = &writing.db;
            if revoke {
                let (name, was) = service::card::revoke_link(db, &name, "cli")
                    .await
                    .map_err(refused)?;
                match was {
                    true => eprintln!("Die Karte von {name} gilt nicht mehr."),
                    false => eprintln!("{name} hatte keinen gültigen Karten-Link."),
                }
                return Ok(());
            }
            let at = ClubClock::new(setup.clock.clone(), setup_zone(&setup)).now();
            let (name, token) =
                service::card::create_link(db, &name, "cli", &schockerliga::db::planned::stamp(at))
                    .await
                    .map_err(refused)?;
            for link in links(&service::card::card_path(&token)) {
                stdout(&format!("{link}\n"))?;
            }
            eprintln!(
                "Karte von {name} (gilt bis --revoke oder bis zum nächsten Link; ein älterer gilt nicht mehr)"
            );
            Ok(())
        }
        Command::Night {
            command:
                NightCommand::Link {
                    date,
                    table,
                    revoke,
                },
        } => {
            let db = open_for_writing(&path).await?;
            let db = &db.db;
            if revoke {
                let was = service::scorer::revoke_link(db, date, table, "cli")
                    .await
                    .map_err(refused)?;
                match was {
                    true => eprintln!("Der Link für Tisch {table} gilt nicht mehr."),
                    false => eprintln!("Für Tisch {table} gab es keinen gültigen Link."),
                }
                return Ok(());
            }
            let token = service::scorer::create_link(db, date, table, "cli")
                .await
                .map_err(refused)?;
            for link in links(&service::scorer::link_path(&token, date, table)) {
                stdout(&format!("{link}\n"))?;
            }
            eprintln!(
                "Link für Tisch {table} am {} (gilt bis zum Abschluss des Abends oder bis --revoke; ein älterer gilt nicht mehr)",
                date.format("%d.%m.%Y")
            );
            Ok(())
        }
    }
}

/// Opens the database at `path` for an import of `files` (read from the spreadsheet `sheet`,
/// if one) after refusing what the club cannot have on its today
/// (`service::interchange::check_against_today`, a sheet's years at their line). A database
/// that is not there yet is checked against `setup`'s today before it is made, so a refused file
/// creates none.
async fn open_for_import(
    path: &Path,
    setup: &Setup,
    files: &[SeasonFile],
    sheet: Option<&service::interchange::SheetImport>,
) -> anyhow::Result<upgrade::Writing> {
    let check = |today: NaiveDate| -> Result<(), ServiceError> {
        if let Some(sheet) = sheet {
            sheet.check_years(today)?;
        }
        service::interchange::check_against_today(files, today)
    };
    if !path.exists() {
        check(ClubClock::new(setup.clock.clone(), setup_zone(setup)).today()).map_err(refused)?;
    }
    let db = open_for_writing(path).await?;
    let today = service::club_today(&db.db, setup).await.map_err(refused)?;
    check(today).map_err(refused)?;
    Ok(db)
}

/// The time zone of `setup` for a command that reads no settings (`--timezone`, else the
/// default).
fn setup_zone(setup: &Setup) -> chrono_tz::Tz {
    setup.timezone.unwrap_or(clock::DEFAULT_TIMEZONE)
}

/// Opens the database at `path` for a command that writes ([`upgrade::open_for_writing`]) and
/// says on stderr when it made a new one, and where.
async fn open_for_writing(path: &Path) -> anyhow::Result<upgrade::Writing> {
    let writing = upgrade::open_for_writing(path).await.map_err(refused)?;
    if writing.created {
        eprintln!("{}", upgrade::created_message(path));
    }
    Ok(writing)
}

/// Opens the database for a reading command ([`upgrade::open_for_reading`]) and prints its
/// notice (an older schema read through a migrated copy) on stderr.
async fn open_for_reading(path: &Path, setup: Setup) -> anyhow::Result<upgrade::Reading> {
    let reading = upgrade::open_for_reading(path, setup)
        .await
        .map_err(refused)?;
    if let Some(notice) = &reading.notice {
        eprintln!("{notice}");
    }
    Ok(reading)
}

/// `schockerliga status`: version, the club's today and time zone, the database's schema.
async fn status(path: &Path, setup: Setup, json: bool) -> anyhow::Result<()> {
    let (status, schema) = if path.exists() {
        let reading = open_for_reading(path, setup).await?;
        let schema = schockerliga::db::schema_of(path).await?;
        (reading.league.status(), Some(schema))
    } else {
        let clock = ClubClock::new(setup.clock.clone(), setup_zone(&setup));
        let status = service::status::Status {
            ok: true,
            version: service::status::VERSION.to_string(),
            today: clock.today(),
            timezone: clock.timezone().name().to_string(),
        };
        (status, None)
    };
    if json {
        return stdout(&(serde_json::to_string_pretty(&status)? + "\n"));
    }
    let mut out = format!(
        "Schockerliga {}\nHeute (Verein): {} ({})\nZeitzone: {}\n",
        status.version,
        status.today,
        status.today.format("%d.%m.%Y"),
        status.timezone
    );
    if let Some(failed) = upgrade::failed_upgrade_copy(path) {
        out.push_str(&format!(
            "Umstellung angehalten: {} Der Server startet nicht, bis die Ursache behoben ist.\n",
            failed.sentence()
        ));
    }
    match schema {
        Some(s) => out.push_str(&format!("Datenbank {}: {}\n", path.display(), s.describe())),
        None => out.push_str(&format!(
            "Datenbank {}: gibt es noch nicht\n",
            path.display()
        )),
    }
    stdout(&out)
}

/// Generates the demo league and imports it season by season through [`service::import`].
async fn demo(path: &Path, args: DemoArgs) -> anyhow::Result<()> {
    use schockerliga::demo::{league, DemoSpec};
    let spec = DemoSpec {
        seasons: args.seasons.max(1),
        nights: args.nights.clamp(1, 365),
        players: args.players.max(2),
        seed: args.seed,
        last_year: args.last_year,
        besteck_nights: args.besteck_nights,
    };
    let db = open_for_writing(path).await?;
    let db = &db.db;
    let files = league(&spec);
    // A demo run in the club's own folder must not wipe its real season: every year is checked
    // before anything is written.
    if !args.replace {
        let mut conn = db.read.acquire().await?;
        for file in &files {
            let nights = schockerliga::db::season::night_count(&mut conn, file.season).await?;
            if nights > 0 {
                anyhow::bail!(
                    "Saison {} hat in {} schon {nights} Spielabende; die Demo-Liga würde sie ersetzen. \
                     Für die Demo eine eigene Datenbank angeben (--database demo.db) oder --replace.",
                    file.season,
                    path.display()
                );
            }
        }
    }
    let mut rows = 0usize;
    for file in files {
        let season = service::import(db, &file, true).await.map_err(refused)?;
        rows += season
            .nights
            .iter()
            .flat_map(|n| &n.tables)
            .flat_map(|t| &t.rounds)
            .map(|r| r.results.len())
            .sum::<usize>();
    }
    eprintln!(
        "Demo-Liga angelegt: {} Saisons, {} Spielabende je Saison, {} Spieler, {rows} Ergebniszeilen",
        spec.seasons, spec.nights, spec.players
    );
    Ok(())
}

/// Turns a service error into the program's error (message on stderr, exit 1).
/// Whether `out` names the database at `db` or its `-wal`/`-shm` journal (compared after
/// resolving links and `..`; a file that does not exist yet is compared by its directory).
fn is_database_file(out: &std::path::Path, db: &std::path::Path) -> bool {
    let resolve = |p: &std::path::Path| -> Option<PathBuf> {
        if let Ok(c) = p.canonicalize() {
            return Some(c);
        }
        let dir = match p.parent() {
            Some(d) if !d.as_os_str().is_empty() => d.canonicalize().ok()?,
            _ => std::env::current_dir().ok()?,
        };
        Some(dir.join(p.file_name()?))
    };
    let (Some(out), Some(db)) = (resolve(out), resolve(db)) else {
        return false;
    };
    let name = db.as_os_str().to_string_lossy().into_owned();
    out == db
        || out.as_os_str() == format!("{name}-wal").as_str()
        || out.as_os_str() == format!("{name}-shm").as_str()
}

/// [`refused`], but a stopped upgrade keeps its kind (exit code 3, see [`main`]).
fn upgrade_refused(e: ServiceError) -> anyhow::Error {
    match e {
        ServiceError::UpgradeStopped(_) => anyhow::Error::new(e),
        e => refused(e),
    }
}

fn refused(e: ServiceError) -> anyhow::Error {
    anyhow::anyhow!("{e}")
}

/// Reads the new password: prompted twice on a terminal, else the first line of stdin.
fn read_password() -> anyhow::Result<String> {
    if std::io::stdin().is_terminal() {
        let first = rpassword::prompt_password("Passwort: ")?;
        let second = rpassword::prompt_password("Passwort wiederholen: ")?;
        if first != second {
            anyhow::bail!("Die beiden Passwörter stimmen nicht überein");
        }
        Ok(first)
    } else {
        let mut s = String::new();
        std::io::stdin().read_to_string(&mut s)?;
        Ok(s.lines().next().unwrap_or("").to_string())
    }
}

/// What `serve` needs besides the database.
struct ServeOptions {
    listen: SocketAddr,
    secure_cookies: bool,
    setup: Setup,
    public_url: Option<PublicUrl>,
    args: ServeArgs,
}

/// Migrates the database when it is older (a verified copy first, refused while another
/// process holds it), holds it shared while serving, starts the backups of `--backup-dir`, and
/// serves until SIGTERM / Ctrl-C.
async fn serve(path: &Path, opts: ServeOptions) -> anyhow::Result<()> {
    let clock = ClubClock::new(opts.setup.clock.clone(), setup_zone(&opts.setup));
    let _lock = upgrade::prepare_serve(path, &clock)
        .await
        .map_err(upgrade_refused)?;
    let listen = opts.listen;
    let listener = tokio::net::TcpListener::bind(listen)
        .await
        .with_context(|| format!("{listen} nicht verfügbar"))?;
    // The bound address (port 0 picks a free one) goes into the printed setup link.
    let bound = listener.local_addr()?;
    let mut config = Config::new(path.to_path_buf(), bound);
    config.secure_cookies = opts.secure_cookies;
    config.clock = opts.setup.clock.clone();
    config.timezone = opts.setup.timezone;
    config.public_url = opts.public_url.clone();
    config.trusted_proxies = opts.args.trusted_proxy.clone();
    if !config.trusted_proxies.is_empty() {
        let proxies: Vec<String> = config
            .trusted_proxies
            .iter()
            .map(|p| p.to_string())
            .collect();
        tracing::info!("Besucher hinter {} aus X-Forwarded-For", proxies.join(", "));
    }
    let (app, league) = build(config).await?;
    // The history of every season once, beside the first requests (see League::warm_up).
    let warm = league.clone();
    tokio::task::spawn_blocking(move || {
        let started = std::time::Instant::now();
        let seasons = warm.warm_up();
        tracing::debug!(
            "Geschichte von {seasons} Saisons berechnet in {} ms",
            started.elapsed().as_millis()
        );
    });
    if let Some(dir) = &opts.args.backup_dir {
        match service::backup::Backups::new(path, dir, opts.args.backup_keep) {
            Ok(backups) => {
                let backups = league.enable_backups(backups);
                tracing::info!(
                    "Sicherungen in {} (die neuesten {} mit bestandener Probe bleiben)",
                    backups.dir().display(),
                    backups.keep()
                );
            }
            // The league is served all the same; every Verwaltung page warns.
            Err(e) => {
                tracing::error!("Der Server läuft ohne Sicherungen: {e}");
                league.backups_unavailable(e.to_string());
            }
        }
    }
    let limits = server::limits();
    tracing::info!(
        "Schockerliga läuft auf http://{bound} (höchstens {} Verbindungen; Zeitzone {}, heute {})",
        limits.max_connections,
        league.timezone(),
        league.today()
    );
    server::serve(listener, app, limits, server::stop_signal()).await;
    league
        .db()
        .close()
        .await
        .context("Datenbank beim Beenden nicht sauber geschlossen")?;
    tracing::info!("Datenbank geschlossen, Schockerliga beendet");
    Ok(())
}

/// The table as German text: one block per Liga with rank, name, Teilnahmen, gewertete Outs, D.Wert.
fn standings_text(s: &Standings) -> String {
    let mut out = String::new();
    let as_of = match s.as_of {
        Some(d) => format!("Stand {}", d.format("%d.%m.%Y")),
        // A season kept as its final table only (no nights) shows that table.
        None if !s.rows.is_empty() => "Endstand".to_string(),
        None => "Stand –".to_string(),
    };
    out.push_str(&format!("Tabelle Saison {}, {as_of}\n", s.season));
    for liga in [Liga::First, Liga::Second, Liga::Kreisliga] {
        let rows: Vec<_> = s.rows.iter().filter(|r| r.liga == liga).collect();
        if rows.is_empty() {
            continue;
        }
        out.push_str(&format!("\n{}\n", liga.label()));
        out.push_str(&format!(
            "{:>4}  {:<20} {:>11} {:>7} {:>7}\n",
            "Pl.", "Name", "Teilnahmen", "Outs", "D.Wert"
        ));
        for r in rows {
            out.push_str(&format!(
                "{:>4}  {:<20} {:>11} {:>7} {:>7}\n",
                format!("{}.", r.rank),
                r.player,
                de2(r.teilnahmen),
                r.counted_outs,
                format_dwert(r.d_wert_num, r.d_wert_den)
            ));
        }
    }
    out
}

/// The payouts as German text.
fn payouts_text(p: &schockerliga::league::Payouts) -> String {
    use schockerliga::league::format_cents as eur;
    let mut out = format!("Jahresabschluss Saison {}\n\n", p.season);
    out.push_str(&format!("Beiträge:          {:>14}\n", eur(p.fees_cents)));
    out.push_str(&format!("Strafen (bezahlt): {:>14}\n", eur(p.fines_cents)));
    out.push_str(&format!(
        "Übertrag Vorjahr:  {:>14}\n",
        eur(p.carry_in_cents)
    ));
    out.push_str(&format!("Topf:              {:>14}\n\n", eur(p.pot_cents)));
    for place in &p.places {
        for (name, cents) in place.players.iter().zip(&place.cents) {
            out.push_str(&format!(
                "{:>3}. {:<20} {:>14}\n",
                place.place,
                name,
                eur(*cents)
            ));
        }
    }
    for (name, cents) in p.lucky_looser.players.iter().zip(&p.lucky_looser.cents) {
        out.push_str(&format!(
            "Lucky Looser: {name} ({} bezahlte Runden) {}\n",
            p.lucky_looser.paid_rounds,
            eur(*cents)
        ));
    }
    out.push_str(&format!(
        "Schocker des Jahres: {}\n",
        p.schocker_des_jahres.join(", ")
    ));
    out.push_str(&format!(
        "Übertrag ins nächste Jahr: {}\n",
        eur(p.carry_out_cents)
    ));
    out.push_str(&format!("Offene Strafen: {}\n", eur(p.open_fines_cents)));
    out
}

#[cfg(test)]
mod tests {
    use super::db_path;
    use std::path::PathBuf;

    #[test]
    fn database_urls_and_paths_name_the_same_file() {
        let cases = [
            ("schockerliga.db", "schockerliga.db"),
            ("/var/lib/liga.db", "/var/lib/liga.db"),
            ("sqlite://liga.db", "liga.db"),
            ("sqlite:liga.db?mode=rwc", "liga.db"),
        ];
        for (arg, path) in cases {
            assert_eq!(db_path(arg), PathBuf::from(path), "{arg}");
        }
    }
}
