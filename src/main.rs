//! The `schockerliga` binary: the web server (default) and the command line of interchange.md.
//! Exit codes: 0 ok, 1 invalid input or refused (message on stderr), 2 usage (German message),
//! 3 the upgrade stopped: the copy before a migration failed its probe (`serve`, `migrate`).
//!
//! This file only parses and dispatches; each command is in `src/cli/` (its group's file).

use std::process::ExitCode;

mod cli;

use clap::Parser;
use cli::args::{Cli, Command, UserCommand};
use cli::{accounts, aufruf, data, demo, nights, serve, sheets, upgrades, wurfrunde, Context};
use schockerliga::service::ServiceError;

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
        // --help, --version: clap's answer (German by the templates of `cli::args`), exit 0.
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

/// Reads the global options ([`Context::of`]) and runs the command in its group's file.
async fn run(cli: Cli) -> anyhow::Result<()> {
    let (ctx, command) = Context::of(cli)?;
    let done = match command {
        Command::Serve(args) => serve::serve(&ctx, args).await,
        Command::Status { json } => upgrades::status(&ctx, json).await,
        Command::Verify { file, backup_dir } => {
            upgrades::verify(&file, backup_dir.as_deref()).await
        }
        Command::Migrate => upgrades::migrate(&ctx).await,
        Command::Restore { file, backup_dir } => {
            upgrades::restore(&ctx, &file, backup_dir.as_deref()).await
        }
        Command::Backup { file } => upgrades::backup(&ctx, &file).await,
        Command::Import {
            file,
            replace,
            korrektur,
        } => data::import(&ctx, &file, replace, korrektur).await,
        Command::Export {
            season,
            csv,
            all,
            output,
            force,
            gzip,
        } => {
            let export = data::Export {
                season,
                csv,
                all,
                output,
                force,
                gzip,
            };
            data::export(&ctx, export).await
        }
        Command::Standings {
            season,
            as_of,
            json,
        } => data::standings(&ctx, season, as_of, json).await,
        Command::Payouts { season, json } => data::payouts(&ctx, season, json).await,
        Command::Kassenbericht { season, json } => data::kassenbericht(&ctx, season, json).await,
        Command::Kontoauszug {
            season,
            file,
            buchen,
            json,
        } => sheets::kontoauszug(&ctx, season, &file, buchen, json).await,
        Command::User {
            command: UserCommand::Add { name, role },
        } => accounts::add(&ctx, &name, role).await,
        Command::User {
            command: UserCommand::Reset { name },
        } => accounts::reset(&ctx, &name).await,
        Command::Wurfrunde { file } => wurfrunde::evaluate(&file),
        Command::Demo(args) => demo::demo(&ctx, args).await,
        Command::Night { command } => nights::night(&ctx, command).await,
        Command::Player { command } => nights::player(&ctx, command).await,
    };
    // The log of what the command wrote folded into the database file.
    ctx.finish().await;
    done
}
