//! The command line's arguments (clap derive): the program's global options, every command and
//! its arguments. Each doc comment here is German help text (`--help`); what the code needs to
//! know is in the `//` comments. The help's layout is German too (`HILFE…`), and clap's usage
//! errors are said in German by [`super::aufruf`].

use std::net::SocketAddr;
use std::path::PathBuf;

use chrono::NaiveDate;
use clap::{Parser, Subcommand, ValueEnum};
use schockerliga::service;

/// The help text's layout in German (clap's own headings are English): about, usage, the
/// commands, the options. For the program and the commands that have commands (`user`, `night`).
pub const HILFE_BEFEHLE: &str =
    "{about-with-newline}\nAufruf: {usage}\n\nBefehle:\n{subcommands}\n\nOptionen:\n{options}";
/// The same for a command without arguments: about, usage, the options.
pub const HILFE_OPTIONEN: &str = "{about-with-newline}\nAufruf: {usage}\n\nOptionen:\n{options}";
/// The same for a command that runs: about, usage, its arguments, the options.
pub const HILFE: &str =
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
pub struct Cli {
    /// Diese Hilfe zeigen.
    #[arg(short = 'h', long = "help", action = clap::ArgAction::Help, global = true)]
    pub help: Option<bool>,
    /// Die Version zeigen.
    #[arg(short = 'V', long = "version", action = clap::ArgAction::Version)]
    pub version: Option<bool>,
    /// SQLite-Datenbankdatei (wird mit ihrem Schema angelegt, wenn sie fehlt).
    #[arg(
        long,
        global = true,
        env = "DATABASE_URL",
        default_value = "schockerliga.db",
        // An empty name is no file (it left a stray "-sitzungen" behind): a usage error.
        value_parser = clap::builder::NonEmptyStringValueParser::new()
    )]
    pub database: String,
    /// Adresse des Webservers.
    #[arg(
        long,
        global = true,
        env = "SCHOCKERLIGA_LISTEN",
        default_value = "127.0.0.1:3000"
    )]
    pub listen: SocketAddr,
    /// Das Sitzungs-Cookie als `Secure` markieren (hinter HTTPS einschalten; im reinen HTTP-LAN aus).
    #[arg(long, global = true, env = "SCHOCKERLIGA_SECURE_COOKIES")]
    pub secure_cookies: bool,
    /// Zeitzone des Vereins (IANA-Name wie Europe/Berlin); ohne: die der Einstellungen, sonst
    /// Europe/Berlin, was immer die Zeitzone des Servers ist.
    #[arg(long, global = true, env = "SCHOCKERLIGA_TIMEZONE")]
    pub timezone: Option<String>,
    /// Öffentliche Adresse hinter dem HTTPS-Proxy (z. B. https://liga.example.org): die
    /// ausgegebenen Links (Einrichtung, Passwort, Tisch) beginnen damit.
    #[arg(long, global = true, env = "SCHOCKERLIGA_PUBLIC_URL")]
    pub public_url: Option<String>,
    #[command(flatten)]
    pub serve_args: ServeArgs,
    #[command(subcommand)]
    pub command: Option<Command>,
}

/// The server's backups (`serve --backup-dir DIR [--backup-keep N] [--backup-remote REMOTE:PFAD]`).
#[derive(clap::Args, Clone, Default)]
pub struct ServeArgs {
    /// Verzeichnis für geprüfte Sicherungen: beim Start (wenn dort keine von heute ist), nach
    /// jedem abgeschlossenen Abend, nach jedem Import in der Verwaltung und täglich um 04:00 Uhr
    /// Vereinszeit.
    #[arg(long, env = "SCHOCKERLIGA_BACKUP_DIR")]
    pub backup_dir: Option<PathBuf>,
    /// So viele der neuesten Sicherungen behalten (mit bestandener Probe).
    #[arg(long, env = "SCHOCKERLIGA_BACKUP_KEEP", default_value_t = service::backup::DEFAULT_KEEP)]
    pub backup_keep: usize,
    /// Jede geprüfte Sicherung zusätzlich außer Haus: mit rclone nach REMOTE:PFAD (ein Remote aus
    /// „rclone config“ des Dienstbenutzers, z. B. nextcloud:schockerliga), dort zurückgelesen
    /// (Größe und SHA-256) und vermerkt; die neuesten --backup-keep bleiben auch dort. Braucht
    /// --backup-dir.
    #[arg(long, value_name = "REMOTE:PFAD", env = "SCHOCKERLIGA_BACKUP_REMOTE")]
    pub backup_remote: Option<String>,
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
    pub trusted_proxy: Vec<std::net::IpAddr>,
}

impl ServeArgs {
    /// These options, each one not given taken from `before` (the same options given before
    /// the `serve` command).
    pub fn or(self, before: ServeArgs) -> ServeArgs {
        ServeArgs {
            backup_dir: self.backup_dir.or(before.backup_dir),
            backup_keep: if self.backup_keep == service::backup::DEFAULT_KEEP {
                before.backup_keep
            } else {
                self.backup_keep
            },
            backup_remote: self.backup_remote.or(before.backup_remote),
            trusted_proxy: if self.trusted_proxy.is_empty() {
                before.trusted_proxy
            } else {
                self.trusted_proxy
            },
        }
    }
}

/// The commands (without one: `serve`), each with its German help.
#[derive(Subcommand)]
pub enum Command {
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
        /// Die Sicherung (SQLite-Datei), oder eine Kopie außer Haus als REMOTE:PFAD/DATEI (mit
        /// rclone geholt, samt ihrer .sha256).
        file: PathBuf,
        /// Das Sicherungsverzeichnis des Servers (wie bei serve): eine Kopie außer Haus wird mit
        /// dem Vermerk dort verglichen, was geschickt wurde (Größe und SHA-256).
        #[arg(long, env = "SCHOCKERLIGA_BACKUP_DIR")]
        backup_dir: Option<PathBuf>,
    },
    /// Die Datenbank auf den Stand dieses Programms umstellen (schreibt vorher eine geprüfte
    /// Kopie daneben; abgelehnt, solange ein anderer Prozess sie offen hat).
    #[command(help_template = HILFE_OPTIONEN)]
    Migrate,
    /// Eine geprüfte Sicherung an die Stelle der Datenbank setzen (abgelehnt, solange ein Server
    /// sie offen hat; die alte Datei bleibt daneben).
    #[command(help_template = HILFE)]
    Restore {
        /// Die Sicherung (SQLite-Datei), die zur Datenbank werden soll, oder eine Kopie außer
        /// Haus als REMOTE:PFAD/DATEI (mit rclone geholt).
        file: PathBuf,
        /// Das Sicherungsverzeichnis des Servers (wie bei serve): eine Kopie außer Haus wird mit
        /// dem Vermerk dort verglichen, was geschickt wurde (Größe und SHA-256).
        #[arg(long, env = "SCHOCKERLIGA_BACKUP_DIR")]
        backup_dir: Option<PathBuf>,
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
        /// Den ganzen Verein: alle Saisons und Spieler (ohne Konten), schockerliga-club/1, Saison
        /// für Saison geschrieben (kompakt, eine Saison je Zeile).
        #[arg(long, conflicts_with = "csv")]
        all: bool,
        /// Ausgabedatei (abgelehnt, wenn sie existiert, außer mit --force; nie die Datenbank selbst).
        #[arg(short = 'o', long = "output")]
        output: Option<PathBuf>,
        /// Eine vorhandene Ausgabedatei überschreiben.
        #[arg(long)]
        force: bool,
        /// Mit gzip packen (auch ohne die Option, wenn die Ausgabedatei auf .gz endet, z. B.
        /// verein.json.gz; import liest beides).
        #[arg(long)]
        gzip: bool,
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
    /// Den Kassenbericht einer Saison ausgeben: Anfangsbestand, Einnahmen und Ausgaben je
    /// Kategorie, Endbestand (Bar und Bank), abgeglichen mit Kassenbuch und Jahresabschluss.
    // Not in the program's list of commands: its 13 letters would widen the list's first
    // column for every command (docs/kassenbuch.md names it; `kassenbericht --help` works).
    #[command(help_template = HILFE, hide = true)]
    Kassenbericht {
        /// Das Jahr der Saison.
        season: i32,
        /// JSON ausgeben (docs/kassenbuch.md).
        #[arg(long)]
        json: bool,
    },
    /// Einen Kontoauszug lesen (CAMT.053 .001.02 bis .001.08 oder CSV-Export der Sparkasse):
    /// jede Gutschrift einem Spieler zuordnen (RF-Referenz, sonst „Schockerliga JAHR NAME“) und
    /// zeigen, was sie bezahlen würde; mit --buchen die zugeordneten buchen. Lastschriften werden
    /// nur gezeigt, schon eingelesene Buchungen nie zweimal gebucht.
    #[command(help_template = HILFE)]
    Kontoauszug {
        /// Das Jahr der Saison.
        season: i32,
        /// Die Datei des Kontoauszugs (.xml oder .csv).
        file: PathBuf,
        /// Die zugeordneten Gutschriften buchen (ohne: nichts wird gespeichert).
        #[arg(long)]
        buchen: bool,
        /// JSON ausgeben (docs/saisondatei.md „Kontoauszug“).
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

/// The commands of `player`.
#[derive(Subcommand)]
pub enum PlayerCommand {
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
    /// Zwei Spieler zu einem zusammenführen (alle Saisons: Runden, Strafen, Beiträge, Zahlungen,
    /// Zusagen); abgelehnt, wenn beide an einem Abend gespielt haben.
    #[command(help_template = HILFE)]
    Merge {
        /// Der Name des Spielers, der im anderen aufgeht.
        name: String,
        /// Der Name, der bleibt.
        #[arg(long = "into", value_name = "NAME")]
        into: String,
        /// Der Grund (steht im Protokoll).
        #[arg(long)]
        reason: String,
    },
    /// Die letzte Zusammenführung in NAME rückgängig machen: beide Spieler wie vorher.
    #[command(help_template = HILFE)]
    Split {
        /// Der Name des Spielers, in den zuletzt zusammengeführt wurde.
        name: String,
        /// Der Grund (steht im Protokoll).
        #[arg(long)]
        reason: String,
    },
}

/// The commands of `night`.
#[derive(Subcommand)]
pub enum NightCommand {
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
    /// Abende als Serie planen: jeder Tag des Rhythmus von --from bis --until, ohne die Tage von
    /// --except; schon geplante, abgesagte und gespielte Tage bleiben, wie sie sind.
    #[command(name = "plan-series", help_template = HILFE)]
    PlanSeries {
        /// Der erste Tag (JJJJ-MM-TT).
        #[arg(long)]
        from: NaiveDate,
        /// Der letzte Tag (JJJJ-MM-TT).
        #[arg(long)]
        until: NaiveDate,
        /// Rhythmus: week, 2-weeks, "1. Freitag" … "4. Freitag" oder "letzter Freitag".
        #[arg(long)]
        every: String,
        /// Beginn (SS:MM, Zeitzone des Vereins); ohne: wie zuletzt geplant, sonst 19:30.
        #[arg(long)]
        time: Option<String>,
        /// Ort.
        #[arg(long)]
        place: Option<String>,
        /// Tage, die ausfallen (JJJJ-MM-TT, mit Komma).
        #[arg(long, value_delimiter = ',')]
        except: Vec<NaiveDate>,
        /// Nur zeigen, nichts planen.
        #[arg(long)]
        dry_run: bool,
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
pub struct DemoArgs {
    /// Anzahl der Saisons, die letzte im Jahr --last-year.
    #[arg(long, default_value_t = 20)]
    pub seasons: u32,
    /// Spielabende je Saison (höchstens 365).
    #[arg(long, default_value_t = 45)]
    pub nights: u32,
    /// Spieler der Liga.
    #[arg(long, default_value_t = 20)]
    pub players: u32,
    /// Startwert des Zufallsgenerators (gleicher Startwert, gleiche Liga).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Jahr der neuesten Saison.
    #[arg(long, default_value_t = 2026)]
    pub last_year: i32,
    /// So viele letzte Abende der neuesten Saison im Schockbesteck spielen (Würfe bleiben: Glücksfaktor).
    #[arg(long, default_value_t = 3)]
    pub besteck_nights: u32,
    /// Saisons dieser Jahre ersetzen, auch wenn sie schon Spielabende haben (deren Daten gehen verloren).
    #[arg(long)]
    pub replace: bool,
}

/// The commands of `user`.
#[derive(Subcommand)]
pub enum UserCommand {
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

/// The role of a new account (`user add --role`): `kassenwart` is the treasurer,
/// `kassenpruefer` the auditor who reads the money pages and only marks them *Geprüft*.
#[derive(Clone, Copy, ValueEnum)]
pub enum RoleArg {
    Admin,
    Secretary,
    Kassenwart,
    Kassenpruefer,
}
