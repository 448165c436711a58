//! What every import on the command line shares, whatever the file (a season file, the club's
//! file, a spreadsheet): opening the league for it without creating a database for a refused
//! file, the refusal of a closed night with the command line's Korrektur, and the line printed
//! per imported season.

use chrono::NaiveDate;
use schockerliga::league::model::file::SeasonFile;
use schockerliga::service::interchange::{self, Imported, ImportedSeason, SheetImport};
use schockerliga::service::{upgrade, ServiceError};

use super::{refused, Context};

/// Opens the league for an import of `files` (read from the spreadsheet `sheet`, if one). A
/// database that is not there yet is checked against the club's today by `ctx`'s clock
/// (`interchange::check_against_today`, a sheet's years at their line) before it is made, so a
/// refused file creates none; the league checks again against its own today when it imports.
pub async fn open_for_import(
    ctx: &Context,
    files: &[SeasonFile],
    sheet: Option<&SheetImport>,
) -> anyhow::Result<upgrade::Writing> {
    if !ctx.path.exists() {
        let today: NaiveDate = ctx.clock().today();
        if let Some(sheet) = sheet {
            sheet.check_years(today).map_err(refused)?;
        }
        interchange::check_against_today(files, today).map_err(refused)?;
    }
    ctx.open_for_writing().await
}

/// A refused import: a closed night it would change says how the command line gives the
/// Korrektur (`--korrektur GRUND`).
pub fn import_refused(e: ServiceError) -> anyhow::Error {
    match e {
        ServiceError::Closed(_) => anyhow::anyhow!("{e} Auf der Befehlszeile: --korrektur GRUND."),
        other => refused(other),
    }
}

/// Prints what the import did with one season: [`imported_line`], and what a replacement of
/// results only changed.
pub fn print_imported(done: &Imported) {
    eprintln!("{}", imported_line(&ImportedSeason::of(done)));
    if let Some(line) = done.replaced_line() {
        eprintln!("  {line}");
    }
}

/// [`print_imported`] for a season of the club's file (its summary only).
pub fn print_season(done: &ImportedSeason) {
    eprintln!("{}", imported_line(done));
    if let Some((nights, closed)) = done.replaced {
        let korrektur = match closed {
            0 => String::new(),
            1 => " (1 abgeschlossener als Korrektur)".to_string(),
            n => format!(" ({n} abgeschlossene als Korrektur)"),
        };
        eprintln!(
            "  ersetzt: {nights} {} geändert{korrektur}; Strafen, Beiträge, Zahlungen und der \
             Strafenkatalog bleiben",
            if nights == 1 { "Abend" } else { "Abende" }
        );
    }
}

/// The line the import prints per season: "Saison 2007 importiert: 14 Spieler, 45 Spielabende
/// (45 als Summen)" or "… Endstand mit 14 Spielern".
pub(super) fn imported_line(season: &ImportedSeason) -> String {
    if season.endstand > 0 {
        return format!(
            "Saison {} importiert: Endstand mit {} Spielern",
            season.year, season.endstand
        );
    }
    let note = if season.totals > 0 {
        format!(" ({} als Summen)", season.totals)
    } else {
        String::new()
    };
    let word = if season.nights == 1 {
        "Spielabend"
    } else {
        "Spielabende"
    };
    format!(
        "Saison {} importiert: {} Spieler, {} {word}{note}",
        season.year, season.players, season.nights
    )
}
