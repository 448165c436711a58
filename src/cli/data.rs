//! League data in and out: `import` of a season file or the club's file (a spreadsheet goes to
//! `sheets.rs`; what both share is in `importing.rs`), `export`, `standings`, `payouts`. Imports go through the league's one import
//! (`League::import_files`, the web's rules); reads through a league opened read-only.

use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::Context as _;
use chrono::NaiveDate;
use schockerliga::league::model::file::SeasonFile;
use schockerliga::league::model::format::de2;
use schockerliga::league::{format_dwert, Korrektur, Liga, Standings};
use schockerliga::service::files::companions;
use schockerliga::service::interchange::{self, ImportOptions};
use schockerliga::service::ServiceError;

use super::importing::{import_refused, open_for_import, print_imported, print_season};
use super::{refused, stdout, stdout_bytes, Context};

/// `schockerliga import FILE [--replace [--korrektur GRUND]]`: a spreadsheet (`sheets.rs`), the
/// whole club's file (`schockerliga-club/1`) or a season file, all or nothing. Prints what it
/// stored on stderr. Errors (German): the file cannot be read or is none of these, any refusal
/// of the import (a closed night says how to give the Korrektur).
pub async fn import(
    ctx: &Context,
    file: &Path,
    replace: bool,
    korrektur: Option<String>,
) -> anyhow::Result<()> {
    let name = file.to_string_lossy();
    let korrektur = korrektur
        .map(|k| Korrektur::because(&k))
        .unwrap_or_default();
    let shown = file
        .file_name()
        .map_or_else(|| name.to_string(), |n| n.to_string_lossy().into_owned());
    if interchange::is_sheet(&name) {
        return super::sheets::import(ctx, file, replace, korrektur, shown).await;
    }
    let options = ImportOptions {
        korrektur,
        source: shown,
        ..ImportOptions::by("cli", replace)
    };
    // Plain or gzip JSON, a UTF-8 byte order mark skipped (an editor's).
    let open = || -> anyhow::Result<Box<dyn std::io::BufRead + Send>> {
        let f = std::fs::File::open(file)
            .with_context(|| format!("{} nicht lesbar", file.display()))?;
        interchange::json_reader(f).with_context(|| format!("{} nicht lesbar", file.display()))
    };
    // The whole club's file is read one season at a time (issue 37), never whole.
    if interchange::format_of(open()?).as_deref() == Some(interchange::CLUB_FORMAT) {
        return import_club(ctx, file, open, &options).await;
    }
    // One season as the club file bounds one (hostile trial: a 3 MB gzip unpacking to 3 GiB was
    // read whole, at 3.7 GB): read up to the limit and one byte more, refused past it.
    let limit = interchange::MAX_PART_BYTES;
    let mut bytes = Vec::new();
    std::io::Read::read_to_end(&mut std::io::Read::take(open()?, limit + 1), &mut bytes)
        .with_context(|| format!("{} nicht lesbar", file.display()))?;
    if bytes.len() as u64 > limit {
        anyhow::bail!(
            "{}: die Saisondatei ist (ausgepackt) größer als {} MiB, der Grenze einer Saison \
             (docs/saisondatei.md „Grenzen“). Nichts gespeichert.",
            file.display(),
            limit / 1024 / 1024
        );
    }
    let text = String::from_utf8(bytes)
        .with_context(|| format!("{} ist kein UTF-8-Text", file.display()))?;
    let parsed: SeasonFile = serde_json::from_str(&text)
        .with_context(|| format!("{} ist keine gültige Saisondatei", file.display()))?;
    drop(text);
    let files = std::slice::from_ref(&parsed);
    let writing = open_for_import(ctx, files, None).await?;
    let seasons = writing
        .league
        .import_files(files, &[], &options)
        .await
        .map_err(import_refused)?;
    for s in &seasons {
        print_imported(s);
    }
    Ok(())
}

/// `schockerliga import` of the whole club's file `file` (`schockerliga-club/1`, plain or gzip),
/// read by `open`, one season at a time ([`schockerliga::service::League::import_club`]). A
/// database that is not there yet is made only for a file that passes the checks against the
/// club's today ([`interchange::check_club_file`], a first reading that keeps nothing).
async fn import_club(
    ctx: &Context,
    file: &Path,
    open: impl Fn() -> anyhow::Result<Box<dyn std::io::BufRead + Send>>,
    options: &ImportOptions,
) -> anyhow::Result<()> {
    let bad = |e: ServiceError| anyhow::anyhow!("{}: {e}", file.display());
    if !ctx.path.exists() {
        interchange::check_club_file(open()?, ctx.clock().today()).map_err(bad)?;
    }
    let writing = ctx.open_for_writing().await?;
    let imported = writing.league.import_club(open()?, options).await;
    let seasons = match imported {
        Ok(seasons) => seasons,
        Err(e) => {
            if writing.created {
                // The first reading checks what it can without a database; a season refused by
                // the import's own checks must not leave the empty database it made (hostile
                // run: `t.db`, its journals and `-sitzungen` stayed behind).
                let _ = writing.league.close().await;
                drop(writing);
                remove_new_database(&ctx.path);
                eprintln!(
                    "{} wieder entfernt: keine Datenbank angelegt",
                    ctx.path.display()
                );
            }
            return Err(match e {
                ServiceError::Closed(_) => import_refused(e),
                e => bad(e),
            });
        }
    };
    for s in &seasons {
        print_season(s);
    }
    eprintln!("Verein importiert: {} Saisons", seasons.len());
    Ok(())
}

/// What `schockerliga export` writes: one season (`--csv`: as the spreadsheet of night totals)
/// or the whole club (`--all`), to `--output` or stdout.
pub struct Export {
    /// The season's year (`None` with `--all`).
    pub season: Option<i32>,
    /// As the spreadsheet of night totals (CSV).
    pub csv: bool,
    /// The whole club (`schockerliga-club/1`).
    pub all: bool,
    /// The file to write (`None`: stdout).
    pub output: Option<PathBuf>,
    /// Overwrite an existing `output`.
    pub force: bool,
    /// Gzip the output (also when `output` ends in `.gz`).
    pub gzip: bool,
}

/// `schockerliga export`: reads the league read-only and writes what `export` asks for. Errors
/// (German): the output is the database itself or exists without `--force`, no such season,
/// the output cannot be written.
pub async fn export(ctx: &Context, export: Export) -> anyhow::Result<()> {
    let Export {
        season,
        csv,
        all,
        output,
        force,
        gzip,
    } = export;
    let gzip = gzip
        || output
            .as_ref()
            .is_some_and(|o| o.to_string_lossy().ends_with(".gz"));
    if let Some(out) = &output {
        if is_database_file(out, &ctx.path) {
            anyhow::bail!(
                "{} ist die Datenbank selbst (oder ihr Journal oder ihre Sitzungen): dorthin wird nicht \
                 exportiert",
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
    if all {
        // The whole club, one season at a time from the database, never whole in memory
        // (issue 37).
        let reading = ctx.open_stored().await?;
        return write_output(output.as_deref(), gzip, async |out| {
            reading.export_club(out).await.map_err(refused)?;
            Ok(())
        })
        .await;
    }
    let reading = ctx.open_for_reading().await?;
    let league = reading.league;
    let bytes: Vec<u8> = match season {
        Some(year) if csv => interchange::season_csv(&league, year).map_err(refused)?,
        Some(year) => {
            let file = league.export_file(year).await.map_err(refused)?;
            (serde_json::to_string_pretty(&file)? + "\n").into_bytes()
        }
        None => anyhow::bail!("Saison fehlt (oder --all)"),
    };
    if gzip {
        return write_output(output.as_deref(), true, async |out| {
            out.write_all(&bytes)?;
            Ok(())
        })
        .await;
    }
    match output {
        Some(out) => std::fs::write(&out, bytes)
            .with_context(|| format!("{} nicht schreibbar", out.display()))?,
        None => stdout_bytes(&bytes)?,
    }
    Ok(())
}

/// The output of `export` (a file or stdout; gzip when `gzip`) as a writer handed to `write`.
/// A file is written beside its name first (`….teil`) and gets it only when complete: a failed
/// export leaves no half file, and an existing one (`--force`) stays until then. A reader of
/// stdout that stops reading (`| head`) ends the output quietly. Errors (German): the file
/// cannot be written, `write`'s own.
async fn write_output(
    output: Option<&Path>,
    gzip: bool,
    write: impl AsyncFnOnce(&mut dyn Write) -> anyhow::Result<()>,
) -> anyhow::Result<()> {
    let (sink, part): (Box<dyn Write>, Option<(PathBuf, &Path)>) = match output {
        Some(out) => {
            let mut name = out.as_os_str().to_os_string();
            name.push(".teil");
            let part = PathBuf::from(name);
            let f = std::fs::File::create(&part)
                .with_context(|| format!("{} nicht schreibbar", out.display()))?;
            (Box::new(f), Some((part, out)))
        }
        None => (
            Box::new(QuietPipe {
                inner: std::io::stdout().lock(),
                closed: false,
            }),
            None,
        ),
    };
    let mut sink = std::io::BufWriter::with_capacity(256 * 1024, sink);
    let written = async {
        if gzip {
            let mut zipped =
                flate2::write::GzEncoder::new(&mut sink, flate2::Compression::default());
            write(&mut zipped).await?;
            zipped.finish()?;
        } else {
            write(&mut sink).await?;
        }
        sink.flush()?;
        Ok::<(), anyhow::Error>(())
    }
    .await;
    drop(sink);
    match (written, part) {
        (Ok(()), Some((part, out))) => {
            std::fs::File::open(&part).and_then(|f| f.sync_all()).ok();
            std::fs::rename(&part, out)
                .with_context(|| format!("{} nicht schreibbar", out.display()))
        }
        (Ok(()), None) => Ok(()),
        (Err(e), part) => {
            if let Some((part, _)) = part {
                let _ = std::fs::remove_file(part);
            }
            Err(e)
        }
    }
}

/// Standard output that a reader closed (`export --all | head`: broken pipe) swallows the rest
/// instead of failing.
struct QuietPipe<W: Write> {
    inner: W,
    closed: bool,
}

impl<W: Write> Write for QuietPipe<W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        if self.closed {
            return Ok(buf.len());
        }
        match self.inner.write(buf) {
            Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => {
                self.closed = true;
                Ok(buf.len())
            }
            other => other,
        }
    }

    fn flush(&mut self) -> std::io::Result<()> {
        match self.inner.flush() {
            Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => {
                self.closed = true;
                Ok(())
            }
            other => other,
        }
    }
}

/// Removes the database at `path` that this command made and its side files (journals, the
/// sessions' database): for an import refused after it was made. What cannot be removed stays.
fn remove_new_database(path: &Path) {
    for file in companions(path) {
        let _ = std::fs::remove_file(file);
    }
}

/// Whether `out` names the database at `db`, its `-wal`/`-shm`/`-journal`, or the sessions'
/// database beside it (`-sitzungen`) with its journals (compared after
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
    companions(&db).contains(&out)
}

/// `schockerliga standings SEASON [--as-of DATE] [--json]`: the table, as German text or as the
/// API's JSON. Errors: no such season, a date outside it.
pub async fn standings(
    ctx: &Context,
    season: i32,
    as_of: Option<NaiveDate>,
    json: bool,
) -> anyhow::Result<()> {
    let reading = ctx.open_for_reading().await?;
    let table = reading.league.standings(season, as_of).map_err(refused)?;
    if as_of.is_none() {
        ahead_note(&reading.league, season, "--as-of HEUTE");
    }
    if json {
        stdout(&(serde_json::to_string_pretty(&table)? + "\n"))?;
    } else {
        stdout(&standings_text(&table))?;
    }
    Ok(())
}

/// `schockerliga payouts SEASON [--json]`: the payouts at the year's end, as German text or as
/// the API's JSON. Errors: no such season.
pub async fn payouts(ctx: &Context, season: i32, json: bool) -> anyhow::Result<()> {
    let reading = ctx.open_for_reading().await?;
    let p = reading.league.payouts(season).map_err(refused)?;
    ahead_note(&reading.league, season, "die Seite /saison/JAHR/abschluss");
    if json {
        stdout(&(serde_json::to_string_pretty(&p)? + "\n"))?;
    } else {
        stdout(&payouts_text(&p))?;
    }
    Ok(())
}

/// Says on stderr when season `year` has nights with results after the club's today (entered
/// ahead of their day): the command's answer (interchange.md: as of the last night) holds them,
/// the pages and the API stand as of today; `how` names the way to today's figures.
fn ahead_note(league: &schockerliga::service::League, year: i32, how: &str) {
    let today = league.today();
    let snapshot = league.snapshot();
    let Ok(view) = snapshot.season(year) else {
        return;
    };
    let ahead = view
        .season
        .nights
        .iter()
        .filter(|n| n.date > today && n.has_results())
        .count();
    if ahead > 0 {
        let how = how
            .replace("HEUTE", &today.to_string())
            .replace("JAHR", &year.to_string());
        eprintln!(
            "Eingerechnet: {ahead} {} nach heute ({}) mit Ergebnissen {} schon dabei; die Seiten \
             und die API zeigen den Stand von heute (hier: {how}).",
            if ahead == 1 { "Abend" } else { "Abende" },
            today.format("%d.%m.%Y"),
            if ahead == 1 { "ist" } else { "sind" },
        );
    }
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
pub(super) fn payouts_text(p: &schockerliga::league::Payouts) -> String {
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
    let schocker = if p.schocker_des_jahres.is_empty() {
        "noch niemand".to_string()
    } else {
        p.schocker_des_jahres.join(", ")
    };
    out.push_str(&format!("Schocker des Jahres: {schocker}\n"));
    out.push_str(&format!(
        "Übertrag ins nächste Jahr: {}\n",
        eur(p.carry_out_cents)
    ));
    out.push_str(&format!("Offene Strafen: {}\n", eur(p.open_fines_cents)));
    out
}

/// `schockerliga kassenbericht SEASON [--json]` (issue 35.2): Anfangsbestand + income by category
/// − expenses by category = Endbestand, cash and bank apart, and whether it equals the Kassenbuch
/// and the Jahresabschluss; as German text or JSON (`carry_in_cents`, `income`, `expenses`,
/// `end_cents`, `cash_cents`, `bank_cents`; docs/kassenbuch.md). Errors: no such season.
pub async fn kassenbericht(ctx: &Context, season: i32, json: bool) -> anyhow::Result<()> {
    use schockerliga::league::format_cents;
    let reading = ctx.open_for_reading().await?;
    let books = reading.league.books(season).await.map_err(refused)?;
    let book = &books.book;
    let (income, expenses) = book.by_category();
    let sum = |v: &[(schockerliga::league::money::kasse::buch::Kategorie, i64)]| -> i64 {
        v.iter().map(|x| x.1).sum()
    };
    let computed = book.carry_in.total() + sum(&income) - sum(&expenses);
    let matches_book = computed == book.end.total();
    if json {
        let map = |v: &[(schockerliga::league::money::kasse::buch::Kategorie, i64)]| {
            v.iter()
                .map(|(k, c)| (k.label().to_string(), serde_json::json!(c)))
                .collect::<serde_json::Map<_, _>>()
        };
        let out = serde_json::json!({
            "season": season,
            "carry_in_cents": book.carry_in.total(),
            "carry_in_cash_cents": book.carry_in.bar_cents,
            "carry_in_bank_cents": book.carry_in.bank_cents,
            "income": map(&income),
            "expenses": map(&expenses),
            "end_cents": computed,
            "cash_cents": book.end.bar_cents,
            "bank_cents": book.end.bank_cents,
            "bookings": book.bookings.len(),
            "matches_kassenbuch": matches_book,
            "matches_jahresabschluss": books.league.ok,
            "payouts_booked": book.payouts_booked,
        });
        stdout(&(serde_json::to_string_pretty(&out)? + "\n"))?;
        return Ok(());
    }
    let mut out = format!("Kassenbericht {season}\n");
    let line = |label: &str, cents: i64| format!("{label:<28} {:>14}\n", format_cents(cents));
    out.push_str(&line("Anfangsbestand", book.carry_in.total()));
    for (k, c) in &income {
        out.push_str(&line(&format!("+ {}", k.label()), *c));
    }
    for (k, c) in &expenses {
        out.push_str(&line(&format!("- {}", k.label()), *c));
    }
    out.push_str(&line("Endbestand", computed));
    out.push_str(&line("  davon Bar", book.end.bar_cents));
    out.push_str(&line("  davon Bank", book.end.bank_cents));
    out.push_str(match matches_book {
        true => "Summe des Kassenbuchs: stimmt\n",
        false => "Summe des Kassenbuchs: stimmt NICHT\n",
    });
    out.push_str(match books.league.ok {
        true => "Jahresabschluss (Beiträge, Strafen, Auszahlungen): stimmt\n",
        false => "Jahresabschluss (Beiträge, Strafen, Auszahlungen): weicht ab\n",
    });
    stdout(&out)
}
