//! The club's spreadsheets: `import FILE.csv|.xlsx|.ods` reads the file within its bounds and
//! imports its seasons through the league's import of a spreadsheet (`League::import_read_sheet`,
//! the same the web's confirm uses). The CSV export is `export --csv` (`data.rs`).

use std::path::Path;

use anyhow::Context as _;
use schockerliga::league::Korrektur;
use schockerliga::service::interchange::{self, ImportOptions};
use schockerliga::service::ServiceError;

use super::importing::{import_refused, open_for_import, print_imported};
use super::{refused, Context};

/// `schockerliga import FILE` of a spreadsheet: every season of `file` in one transaction by
/// `cli`, replacing results only when `replace` (closed nights with `korrektur`), the audit log
/// naming `shown` as the source. Prints per season what it stored and what of the sheet it
/// skipped. Errors (German, naming the file, sheet, line and column): the file cannot be read
/// or is too large, a row that is not understood, any refusal of the import.
pub async fn import(
    ctx: &Context,
    file: &Path,
    replace: bool,
    korrektur: Korrektur,
    shown: String,
) -> anyhow::Result<()> {
    let name = file.to_string_lossy();
    let bytes = read_sheet_file(file)?;
    let import = interchange::read_sheet_rows(&name, &bytes).map_err(refused)?;
    let writing = open_for_import(ctx, &import.files(), Some(&import)).await?;
    let options = ImportOptions {
        source: shown,
        ..import.options("cli", replace, korrektur)
    };
    let seasons = writing
        .league
        .import_read_sheet(&import, &options)
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
    Ok(())
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
