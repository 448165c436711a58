//! The club's spreadsheets: `import FILE.csv|.xlsx|.ods` reads the file within its bounds and
//! imports its seasons through the league's import of a spreadsheet (`League::import_read_sheet`,
//! the same the web's confirm uses). The CSV export is `export --csv` (`data.rs`). And the bank
//! statement (`kontoauszug SEASON FILE [--buchen] [--json]`, issue 34.3): read, matched and
//! shown, booked with `--buchen` through the service as the web's confirm books it.

use std::path::Path;

use anyhow::Context as _;
use schockerliga::league::Korrektur;
use schockerliga::service::interchange::{self, ImportOptions};
use schockerliga::service::ServiceError;

use schockerliga::league::format_cents;
use schockerliga::league::money::items::allocation_text;
use schockerliga::league::money::items::Allocation;
use schockerliga::service::interchange::statement::{read_statement, StatementPreview};
use schockerliga::service::Edit;

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

/// `schockerliga kontoauszug SEASON FILE [--buchen] [--json]` (issue 34.3): reads the statement
/// `file` (CAMT.053 or a bank's CSV export), matches each credit to a player of season `season`
/// and prints what it would pay (`--json`: the shape of [`StatementPreview::json`]); nothing is
/// stored without `buchen`. With `buchen` the matched new credits are booked as payments on
/// their days (one transaction, by `cli`) and it says "N neue Buchungen, M schon eingelesen";
/// credits without a match are listed with their suggestion, not booked. Errors (German): the
/// file cannot be read or is no statement (line and element or column), no such season, a
/// payment the league refuses (nothing stored).
pub async fn kontoauszug(
    ctx: &Context,
    season: i32,
    file: &Path,
    buchen: bool,
    json: bool,
) -> anyhow::Result<()> {
    let name = file.to_string_lossy();
    let bytes = read_sheet_file(file)?;
    let statement = read_statement(&name, &bytes).map_err(refused)?;
    let none = std::collections::BTreeMap::new();
    let (preview, booked) = if buchen {
        let writing = ctx.open_for_writing().await?;
        let league = &writing.league;
        let preview = league
            .preview_statement(season, &statement, &none)
            .await
            .map_err(refused)?;
        let booked = league
            .book_statement(season, &statement, &none, &Edit::by("cli"))
            .await
            .map_err(refused)?;
        (preview, Some(booked))
    } else {
        let reading = ctx.open_for_reading().await?;
        let preview = reading
            .league
            .preview_statement(season, &statement, &none)
            .await
            .map_err(refused)?;
        (preview, None)
    };
    if json {
        let mut out = preview.json();
        if let Some(b) = booked {
            out["booked"] = serde_json::json!(b.new);
        }
        return super::stdout(&(serde_json::to_string_pretty(&out)? + "\n"));
    }
    let mut out = statement_text(&name, season, &preview);
    match booked {
        Some(b) => out.push_str(&format!("{}.\n", b.text())),
        None => out.push_str(&format!(
            "Nichts gespeichert (ohne --buchen): {} würden gebucht, {} schon eingelesen.\n",
            preview.to_book().count(),
            preview.already()
        )),
    }
    super::stdout(&out)
}

/// The preview as German text: one line per credit (day, amount, player and how, what it pays)
/// with its purpose and payer, then the debits.
fn statement_text(name: &str, season: i32, p: &StatementPreview) -> String {
    let mut out = format!("Kontoauszug {name} ({}), Saison {season}\n", p.format);
    for c in &p.credits {
        let e = &c.entry;
        let what = match (&c.player, c.known) {
            (_, true) => "schon eingelesen".to_string(),
            (Some(player), false) => format!(
                "{}: {}",
                c.found.how.label(),
                allocation_text(
                    player,
                    e.cents,
                    &Allocation {
                        items: c.items_paid.clone(),
                        credit_cents: c.credit_cents,
                    }
                )
            ),
            (None, false) => match &c.found.suggestion {
                Some(s) => format!("kein Spieler zugeordnet (Vorschlag: {s}), nicht gebucht"),
                None => "kein Spieler zugeordnet, nicht gebucht".to_string(),
            },
        };
        out.push_str(&format!(
            "{}  {:>10}  {what}\n              „{}“ – {}\n",
            e.date.format("%d.%m.%Y"),
            format_cents(e.cents),
            e.purpose,
            e.counterparty
        ));
    }
    if !p.debits.is_empty() {
        out.push_str("Lastschriften (nicht gebucht):\n");
        for e in &p.debits {
            out.push_str(&format!(
                "{}  {:>10}  „{}“ – {}\n",
                e.date.format("%d.%m.%Y"),
                format_cents(e.cents),
                e.purpose,
                e.counterparty
            ));
        }
    }
    out
}
