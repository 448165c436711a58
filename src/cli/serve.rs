//! `schockerliga serve` (the default): the web server on the league, with its backups.

use anyhow::Context as _;
use schockerliga::service::{self, upgrade};
use schockerliga::web::kit::server;
use schockerliga::web::{build, Config};

use super::args::ServeArgs;
use super::{upgrade_refused, Context};

/// Migrates the database when it is older (a verified copy first, refused while another
/// process holds it), holds it shared while serving, starts the backups of `--backup-dir`, and
/// serves until SIGTERM / Ctrl-C. Errors (German): the database cannot be prepared (a copy that
/// failed its probe keeps its kind: exit 3), the address is taken, the database did not close.
pub async fn serve(ctx: &Context, args: ServeArgs) -> anyhow::Result<()> {
    let path = &ctx.path;
    let _lock = upgrade::prepare_serve(path, &ctx.clock())
        .await
        .map_err(upgrade_refused)?;
    let listen = ctx.listen;
    let listener = tokio::net::TcpListener::bind(listen)
        .await
        .with_context(|| format!("{listen} nicht verfügbar"))?;
    // The bound address (port 0 picks a free one) goes into the printed setup link.
    let bound = listener.local_addr()?;
    let mut config = Config::new(path.to_path_buf(), bound);
    config.secure_cookies = ctx.secure_cookies;
    config.clock = ctx.setup.clock.clone();
    config.timezone = ctx.setup.timezone;
    config.public_url = ctx.public_url.clone();
    config.trusted_proxies = args.trusted_proxy.clone();
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
    if let Some(dir) = &args.backup_dir {
        match service::backup::Backups::new(path, dir, args.backup_keep) {
            Ok(backups) => {
                let backups = match remote(args.backup_remote.as_deref()) {
                    Ok(Some(r)) => backups.with_remote(r),
                    Ok(None) => backups,
                    // The local copies run all the same; every Verwaltung page warns.
                    Err(why) => {
                        tracing::error!("Der Server sichert nicht außer Haus: {why}");
                        backups.remote_off(why)
                    }
                };
                let backups = league.enable_backups(backups);
                tracing::info!(
                    "Sicherungen in {} (die neuesten {} mit bestandener Probe bleiben)",
                    backups.dir().display(),
                    backups.keep()
                );
                if let Some(r) = backups.remote() {
                    tracing::info!("Jede Sicherung auch außer Haus nach {}", r.target());
                }
            }
            // The league is served all the same; every Verwaltung page warns.
            Err(e) => {
                tracing::error!("Der Server läuft ohne Sicherungen: {e}");
                league.backups_unavailable(e.to_string());
            }
        }
    } else if args.backup_remote.is_some() {
        let why = "--backup-remote braucht --backup-dir: die Kopien gehen erst ins \
                   Sicherungsverzeichnis und von dort außer Haus."
            .to_string();
        tracing::error!("Der Server sichert nicht außer Haus: {why}");
        league.backups_unavailable(why);
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
        .close()
        .await
        .context("Datenbank beim Beenden nicht sauber geschlossen")?;
    tracing::info!("Datenbank geschlossen, Schockerliga beendet");
    Ok(())
}

/// The copies off the machine of `--backup-remote` (`None` without it). Errors (German): the
/// target is no `REMOTE:PFAD`.
fn remote(target: Option<&str>) -> Result<Option<service::backup::remote::Remote>, String> {
    use service::backup::remote::{Remote, Target};
    match target.map(str::trim).filter(|t| !t.is_empty()) {
        None => Ok(None),
        Some(t) => Ok(Some(Remote::new(Target::parse(t)?))),
    }
}
