//! Backups and upgrades: `status`, `verify`, `migrate`, `restore`, `backup`. These must not
//! open the league as a writing command does (another schema, a file that is replaced, a copy
//! of the file as it is): they call the service's upgrade and backup functions.

use std::path::{Path, PathBuf};

use schockerliga::service::backup::remote;
use schockerliga::service::status::Status;
use schockerliga::service::{backup, upgrade};

use super::{refused, stdout, upgrade_refused, Context};

/// `schockerliga status [--json]`: version, the club's today and time zone, the database's
/// schema (read-only; a database that is not there is said so, not made), and an upgrade that
/// stopped. Errors (German): a database that cannot be read.
pub async fn status(ctx: &Context, json: bool) -> anyhow::Result<()> {
    let path = &ctx.path;
    let (status, schema) = if path.exists() {
        let reading = ctx.open_for_reading().await?;
        (reading.league.status(), Some(reading.schema.describe()))
    } else {
        (Status::at(&ctx.clock()), None)
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
        Some(s) => out.push_str(&format!("Datenbank {}: {s}\n", path.display())),
        None => out.push_str(&format!(
            "Datenbank {}: gibt es noch nicht\n",
            path.display()
        )),
    }
    stdout(&out)
}

/// A copy at an rclone remote (`nextcloud:schockerliga/liga-2026-05-01-040000.db`,
/// [`remote::is_remote_file`]) fetched into a temporary directory (removed when dropped) with
/// its `.sha256`, and compared with the record in `records` (the server's `--backup-dir`) of
/// what was sent; `None` for a local file. Errors (German): not fetched, „Kopie außer Haus
/// verändert“.
async fn fetched(
    file: &Path,
    records: Option<&Path>,
) -> anyhow::Result<Option<(tempfile::TempDir, PathBuf)>> {
    if !remote::is_remote_file(file) {
        return Ok(None);
    }
    let tmp = tempfile::Builder::new()
        .prefix("schockerliga-geholt-")
        .tempdir()?;
    let spec = file.to_string_lossy();
    let got = remote::fetch(&spec, tmp.path(), records)
        .await
        .map_err(refused)?;
    eprintln!("Geholt mit rclone: {spec}");
    match (&got.record, records) {
        (Some(r), _) => eprintln!("Gleich dem Vermerk, was geschickt wurde: {}", r.display()),
        (None, Some(dir)) => eprintln!(
            "Kein Vermerk dazu in {} (nur mit der .sha256 vom Ziel geprüft)",
            dir.display()
        ),
        (None, None) => eprintln!(
            "Ohne --backup-dir nur mit der .sha256 vom Ziel geprüft (nicht mit dem Vermerk, \
             was geschickt wurde)"
        ),
    }
    Ok(Some((tmp, got.file)))
}

/// `schockerliga verify FILE`: the probe of a backup, printed; `Err` with what failed first.
/// `FILE` may be a copy at an rclone remote (`REMOTE:PFAD/DATEI`): fetched first, with its
/// `.sha256` (checked then).
pub async fn verify(file: &Path, records: Option<&Path>) -> anyhow::Result<()> {
    let fetched = fetched(file, records).await?;
    let file = fetched.as_ref().map_or(file, |(_, local)| local.as_path());
    let report = backup::verify(file).await;
    stdout(&report.text())?;
    match report.failures.first() {
        None => Ok(()),
        Some(first) => anyhow::bail!("Probe fehlgeschlagen: {first}"),
    }
}

/// `schockerliga migrate`: the database brought to this program's schema, a verified copy
/// first ([`upgrade::migrate`]). Errors (German): another process holds it, a newer or damaged
/// schema; a copy that failed its probe keeps its kind (exit 3).
pub async fn migrate(ctx: &Context) -> anyhow::Result<()> {
    let done = upgrade::migrate(&ctx.path, &ctx.clock())
        .await
        .map_err(upgrade_refused)?;
    match &done.copy {
        None => eprintln!("Nichts umzustellen: {}", done.before.describe()),
        Some((copy, _)) => eprintln!(
            "Datenbank umgestellt ({} → Schema {}). Kopie vorher: {} (Probe bestanden; \
             mit der vorigen Version lesbar)",
            done.before.describe(),
            upgrade::program_version(),
            copy.display()
        ),
    }
    Ok(())
}

/// `schockerliga restore FILE`: a verified backup put in place of the database
/// ([`upgrade::restore`]), its probe printed; `FILE` may be a copy at an rclone remote
/// (`REMOTE:PFAD/DATEI`), fetched first. Errors (German): the copy cannot be fetched or fails
/// its probe, a server holds the database.
pub async fn restore(ctx: &Context, file: &Path, records: Option<&Path>) -> anyhow::Result<()> {
    let path = &ctx.path;
    let fetched = fetched(file, records).await?;
    let shown = file;
    let file = fetched.as_ref().map_or(file, |(_, local)| local.as_path());
    let done = upgrade::restore(path, file, &ctx.clock())
        .await
        .map_err(refused)?;
    stdout(&done.report.text())?;
    match &done.old {
        Some(old) => eprintln!(
            "{} wiederhergestellt aus {}; die vorige Datenbank liegt als {} daneben. \
             Alle melden sich neu an.",
            path.display(),
            shown.display(),
            old.display()
        ),
        None => eprintln!(
            "{} wiederhergestellt aus {}.",
            path.display(),
            shown.display()
        ),
    }
    Ok(())
}

/// `schockerliga backup FILE`: a consistent copy of the database as it is, whatever its schema
/// ([`backup::copy_as_is`]). Errors (German): `file` exists, is not the database owner's to
/// write, cannot be written.
pub async fn backup(ctx: &Context, file: &Path) -> anyhow::Result<()> {
    if file.exists() {
        anyhow::bail!("{} gibt es schon", file.display());
    }
    backup::copy_as_is(&ctx.path, file).await.map_err(refused)?;
    eprintln!(
        "Sicherung geschrieben: {} (prüfen: schockerliga verify {})",
        file.display(),
        file.display()
    );
    Ok(())
}
