//! The club's data in and out beyond one season file (issue 24): the spreadsheet of night totals
//! and of Endstände (read, preview, confirm), several seasons in one transaction, the CSV of a
//! season and the whole club as one file (`schockerliga-club/1`).
//!
//! The upload in the Verwaltung is meant to run as: [`read_sheet`] on the uploaded bytes (a
//! refusal names sheet, line, column and why) → [`League::preview_sheet`] (what would be
//! created; nothing written) → the page keeps the bytes (or asks for them again) and sends them
//! with [`SheetImport::digest`] → [`read_sheet`] again and [`League::import_sheet`] with the
//! digest the preview showed (refused when the file changed in between). Nothing is kept before
//! the confirm.

use std::collections::BTreeMap;

use chrono::NaiveDate;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use super::{refresh_others, Edit, League, ServiceError};
use crate::db::{self, Db};
use crate::league::model::file::SeasonFile;
use crate::league::sheet::layout::{Layout, SheetError, SheetSeason, UnderstoodRow};
use crate::league::sheet::{self};
use crate::league::{self, name_key, EntryError, Location, Season, Standings};
use crate::sheet::Kind;

mod club;
pub mod statement;
pub use club::{
    check_club_file, export_club_from, format_of, json_reader, read_club, season_line, write_club,
    ClubPart, ClubWriter, ImportedSeason, MAX_PART_BYTES,
};

/// Uploads kept between a preview and its confirm, at most this many (the oldest goes first).
pub const STAGED_MAX: usize = 4;

/// How long an upload is kept for its confirm, in seconds (an hour).
pub const STAGED_SECS: i64 = 3600;

/// Spreadsheets uploaded in the Verwaltung and shown as a preview, kept in memory (never on disk)
/// until the confirm names them by digest: at most [`STAGED_MAX`], each [`STAGED_SECS`].
#[derive(Debug, Default)]
pub struct Staged(std::sync::Mutex<Vec<StagedSheet>>);

/// One upload kept for its confirm.
#[derive(Debug, Clone)]
struct StagedSheet {
    digest: String,
    file_name: String,
    bytes: Vec<u8>,
    at: i64,
}

/// Rows of each season the preview shows as understood.
pub const PREVIEW_ROWS: usize = 10;

/// The format tag of the whole club's file.
pub const CLUB_FORMAT: &str = "schockerliga-club/1";

/// The whole club as one file (docs/saisondatei.md "Der ganze Verein"): every player of the
/// league and every season as its season file, by year. No accounts, no settings, no audit log.
/// The shape of the file; it is written and read one season at a time ([`write_club`],
/// [`read_club`]), never as this whole.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ClubFile {
    /// Must be [`CLUB_FORMAT`].
    pub format: String,
    /// Every player of the league by name (also those without a season).
    #[serde(default)]
    pub players: Vec<String>,
    /// Every season, by year.
    #[serde(default)]
    pub seasons: Vec<SeasonFile>,
}

/// A spreadsheet read and checked: its seasons, ready for the preview and the confirm.
#[derive(Debug, Clone)]
pub struct SheetImport {
    /// The file's name as given.
    pub file_name: String,
    /// SHA-256 of the file's bytes, hex: what the confirm must name.
    pub digest: String,
    /// Its seasons, by year, each checked.
    pub seasons: Vec<SheetSeason>,
}

impl SheetImport {
    /// Refuses a season after the year after `today` (the club's date), naming the file, sheet
    /// and line („abende.csv: Zeile 2: Saison 2030 liegt zu weit in der Zukunft: …“).
    pub fn check_years(&self, today: NaiveDate) -> Result<(), ServiceError> {
        sheet::check_years(&self.seasons, today)
            .map_err(|e| ServiceError::refused(format!("{}: {e}", self.file_name)))
    }

    /// The season files of the import, by year.
    pub fn files(&self) -> Vec<SeasonFile> {
        self.seasons.iter().map(|s| s.file.clone()).collect()
    }

    /// The options of importing this spreadsheet ([`import_all`]) by `user`: replacing when
    /// `replace`, results only, closed nights with `korrektur`, the file named as the source.
    pub fn options(
        &self,
        user: &str,
        replace: bool,
        korrektur: league::Korrektur,
    ) -> ImportOptions {
        ImportOptions {
            user: user.to_string(),
            replace,
            sheet: true,
            korrektur,
            source: self.file_name.clone(),
        }
    }
}

/// Reads `bytes` of the spreadsheet `file_name` (`.csv`, `.xlsx` or `.ods`, interchange.md
/// "Spreadsheet of night totals", docs/tabelle.md) into checked seasons. Refused (German, with
/// sheet, line, column and why): another file kind, a file too large, an invalid row, a season
/// after the year after `today` (the club's date, [`SheetImport::check_years`]); nothing is
/// read half.
pub fn read_sheet(
    file_name: &str,
    bytes: &[u8],
    today: NaiveDate,
) -> Result<SheetImport, ServiceError> {
    let import = read_sheet_rows(file_name, bytes)?;
    import.check_years(today)?;
    Ok(import)
}

/// At most one spreadsheet is read at a time: reading one within the bounds of `crate::sheet`
/// may take a hundred MB or two for a moment, two uploads at once must not take twice that.
static READING: tokio::sync::Semaphore = tokio::sync::Semaphore::const_new(1);

/// [`read_sheet`] for a request: on tokio's blocking pool (a large workbook takes seconds of CPU,
/// which must not hold an async worker) and one file at a time ([`READING`]). Gives the bytes
/// back with the import (the upload keeps them for its confirm). Errors: those of
/// [`read_sheet`]; a reading that ended by a panic (`Corrupt`).
pub async fn read_sheet_apart(
    file_name: &str,
    bytes: Vec<u8>,
    today: NaiveDate,
) -> Result<(SheetImport, Vec<u8>), ServiceError> {
    let _turn = READING
        .acquire()
        .await
        .map_err(|e| ServiceError::Corrupt(format!("{file_name}: nicht gelesen ({e})")))?;
    let name = file_name.to_string();
    tokio::task::spawn_blocking(move || read_sheet(&name, &bytes, today).map(|i| (i, bytes)))
        .await
        .map_err(|e| ServiceError::Corrupt(format!("{file_name}: Lesen abgebrochen ({e})")))?
}

/// [`read_sheet`] but for the years: for a caller that knows the club's today only later (the
/// command line refuses a bad file before it opens, or creates, the database), which then
/// calls [`SheetImport::check_years`].
pub fn read_sheet_rows(file_name: &str, bytes: &[u8]) -> Result<SheetImport, ServiceError> {
    let kind = Kind::of(file_name).ok_or_else(|| {
        ServiceError::refused(format!(
            "{file_name}: hier nur Tabellen als .csv, .xlsx oder .ods; eine Saisondatei oder die Datei \
             des ganzen Vereins (.json) liest auf dem Server `schockerliga import DATEI` ein"
        ))
    })?;
    let refused = |e: SheetError| ServiceError::refused(format!("{file_name}: {e}"));
    let sheets = crate::sheet::read(kind, bytes).map_err(refused)?;
    let seasons = sheet::read_sheets(&sheets).map_err(refused)?;
    Ok(SheetImport {
        file_name: file_name.to_string(),
        digest: digest(bytes),
        seasons,
    })
}

/// Refuses season files the club cannot have on `today` (its date): a season after the next
/// year (`league::model::rules::year_in_reach`), a night marked closed after today (it is closed on its
/// day, not before). German, naming the season; `Refused`.
pub fn check_against_today(files: &[SeasonFile], today: NaiveDate) -> Result<(), ServiceError> {
    for file in files {
        league::model::rules::year_in_reach(file.season, today)
            .map_err(|why| ServiceError::refused(format!("Saison {} {why}", file.season)))?;
        league::change::closed_in_time(file, today).map_err(|e| in_season(file.season, e))?;
        // What the forms refuse after today a file does not bring either (hostile trial).
        if let Some(k) = &file.kassenbuch {
            let dated = k
                .bookings
                .iter()
                .enumerate()
                .map(|(i, b)| (format!("Buchung {}", i + 1), b.date))
                .chain(
                    k.kassenstuerze
                        .iter()
                        .map(|s| ("Kassensturz".to_string(), s.date)),
                )
                .chain(
                    k.pruefungen
                        .iter()
                        .enumerate()
                        .map(|(i, p)| (format!("Prüfung {}", i + 1), p.date)),
                );
            for (what, day) in dated {
                if day > today {
                    return Err(ServiceError::refused(format!(
                        "Saison {}, kassenbuch: {what} vom {} liegt nach heute ({}). Nichts \
                         gespeichert.",
                        file.season,
                        day.format("%d.%m.%Y"),
                        today.format("%d.%m.%Y")
                    )));
                }
            }
        }
    }
    Ok(())
}

/// Whether `file_name` is read as a spreadsheet (`.csv`, `.xlsx`, `.ods`; case ignored).
pub fn is_sheet(file_name: &str) -> bool {
    Kind::of(file_name).is_some()
}

/// SHA-256 of `bytes` as lower-case hex.
pub fn digest(bytes: &[u8]) -> String {
    Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// What an import would do (the preview before the confirm).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SheetPreview {
    /// The file's name.
    pub file_name: String,
    /// The file's digest (to be sent with the confirm).
    pub digest: String,
    /// Per season, by year.
    pub seasons: Vec<SeasonPreview>,
    /// Players the import creates (not yet in the league), by name.
    pub new_players: Vec<String>,
    /// Players of the file that the league has already (spelled as in the league).
    pub known_players: Vec<String>,
}

/// One season of a preview.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SeasonPreview {
    /// The season's year.
    pub year: i32,
    /// The sheet it comes from (empty for a CSV file).
    pub sheet: String,
    /// Night totals or an Endstand.
    pub layout: Layout,
    /// The columns of `first_rows`.
    pub columns: Vec<&'static str>,
    /// The first [`PREVIEW_ROWS`] rows as understood.
    pub first_rows: Vec<UnderstoodRow>,
    /// Rows read in all.
    pub rows: usize,
    /// Nights it creates.
    pub nights: usize,
    /// Players of the season.
    pub players: usize,
    /// The table as it would stand (after the last night / the Endstand).
    pub standings: Standings,
    /// Nights the league has already for that year, an Endstand counting as 1 (the import
    /// replaces them only when asked; else it is refused); 0 for a new season.
    pub existing_nights: i64,
    /// What of the sheet the import leaves out (title rows, computed columns, sum rows; German,
    /// `SheetSeason::skipped`).
    pub skipped: Vec<String>,
    /// For a season that is there: the nights whose results „ersetzen“ would change (their
    /// fines, the fees, payments and the Strafenkatalog stay; a closed one needs the Korrektur).
    pub replaced: Vec<league::sheet::replace::ReplacedNight>,
    /// For a season that is there: the Jahresbeiträge „ersetzen“ would take from the file
    /// (players without one in the season), German: „Bernd (bezahlt am 01.03.2026)“.
    pub fees_taken: Vec<String>,
    /// For a season that is there: why „ersetzen“ would be refused (German), if it would.
    pub replace_refusal: Option<String>,
}

impl League {
    /// The preview of `import` (nothing is written): per season the first rows as understood, the
    /// table as it would stand, the nights and players it creates and how many nights the league
    /// has already in that year; the players it would create and those it finds (by name, case
    /// ignored). Errors: storage.
    pub async fn preview_sheet(&self, import: &SheetImport) -> Result<SheetPreview, ServiceError> {
        let mut conn = self.db().read.acquire().await?;
        let known: Vec<(i64, String)> = db::player::all(&mut conn).await?;
        let known_by_key: BTreeMap<String, String> =
            known.into_iter().map(|(_, n)| (name_key(&n), n)).collect();
        let mut new_players = Vec::new();
        let mut known_players = Vec::new();
        let mut seasons = Vec::new();
        for s in &import.seasons {
            for p in &s.season.players {
                let list = match known_by_key.get(&name_key(&p.name)) {
                    Some(k) => (&mut known_players, k.clone()),
                    None => (&mut new_players, p.name.clone()),
                };
                if !list.0.contains(&list.1) {
                    list.0.push(list.1);
                }
            }
            let existing_nights = db::season::night_count(&mut conn, s.season.year).await?
                + db::season::endstand_count(&mut conn, s.season.year)
                    .await?
                    .min(1);
            let (mut replaced, mut fees_taken, mut replace_refusal) =
                (Vec::new(), Vec::new(), None);
            if existing_nights > 0 {
                if let Ok(view) = self.snapshot().season(s.season.year) {
                    let file = with_league_spelling(&s.file, &known_by_key);
                    match league::sheet::replace::plan(&view.season, &file) {
                        Ok(plan) => {
                            fees_taken = fees_shown(&plan.fees_taken);
                            replaced = plan.nights;
                        }
                        Err(e) => replace_refusal = Some(in_season(s.season.year, e).to_string()),
                    }
                }
            }
            seasons.push(SeasonPreview {
                year: s.season.year,
                sheet: s.sheet.clone(),
                layout: s.layout,
                columns: s.columns.clone(),
                first_rows: s.rows.iter().take(PREVIEW_ROWS).cloned().collect(),
                rows: s.rows.len(),
                nights: s.season.nights.len(),
                players: s.season.players.len(),
                standings: league::standings(&s.season, None),
                existing_nights,
                skipped: s.skipped.clone(),
                replaced,
                fees_taken,
                replace_refusal,
            });
        }
        new_players.sort();
        known_players.sort();
        Ok(SheetPreview {
            file_name: import.file_name.clone(),
            digest: import.digest.clone(),
            seasons,
            new_players,
            known_players,
        })
    }

    /// The confirm of a preview: imports every season of `import` in one transaction
    /// ([`import_all`], as a spreadsheet: a season that is there keeps its money, a closed
    /// night changes only with `edit`'s Korrektur) when `digest` is the one the preview showed.
    /// Refused: another file (digest), a season that has nights already unless `replace`, a
    /// closed night without the Korrektur (`Closed`), any check; nothing written.
    pub async fn import_sheet(
        &self,
        import: &SheetImport,
        digest: &str,
        replace: bool,
        edit: &Edit,
    ) -> Result<Vec<Season>, ServiceError> {
        if digest != import.digest {
            return Err(ServiceError::refused(
                "die Datei ist nicht die der Vorschau: bitte noch einmal hochladen und prüfen",
            ));
        }
        let options = import.options(&edit.author, replace, edit.korrektur.clone());
        Ok(self
            .import_read_sheet(import, &options)
            .await?
            .into_iter()
            .map(|i| i.season)
            .collect())
    }

    /// The spreadsheet `import` (read by [`read_sheet_rows`] or [`read_sheet`]) into the league
    /// by `options` (its own are [`SheetImport::options`]): its years checked against the club's
    /// today ([`SheetImport::check_years`], naming file, sheet and line), then
    /// [`League::import_files`]. The web's confirm ([`League::import_sheet`]) and the command
    /// line's `import FILE.csv` both come here. Refused as those two say; nothing written.
    pub async fn import_read_sheet(
        &self,
        import: &SheetImport,
        options: &ImportOptions,
    ) -> Result<Vec<Imported>, ServiceError> {
        import.check_years(self.today())?;
        self.import_files(&import.files(), &[], options).await
    }

    /// The one import of seasons into the league (a spreadsheet's, a season file, the whole
    /// club's file): `files` are refused when the club cannot have them on its today
    /// ([`check_against_today`]), then stored with the league players `players` in one
    /// transaction as `options` say ([`import_all`]: refused, replaced whole or results only
    /// alike for every kind of file); the snapshot reads them at once and running backups make
    /// a verified copy (issue 31.10). Returns the seasons as stored, by the files' order.
    /// Refused (German, naming the season or night; `Closed` for a closed night without the
    /// Korrektur): nothing written.
    pub async fn import_files(
        &self,
        files: &[SeasonFile],
        players: &[String],
        options: &ImportOptions,
    ) -> Result<Vec<Imported>, ServiceError> {
        check_against_today(files, self.today())?;
        self.store_files(files, players, options).await
    }

    /// [`League::import_files`] without the check against the club's today, for the demo
    /// league (`schockerliga demo`), whose years are the generator's (`--last-year`), not the
    /// club's: the generated season `file` checked (`Season::from_file`) and stored by `user`,
    /// replacing a season that is there when `replace`. Returns the season as stored.
    pub async fn import_generated(
        &self,
        file: &SeasonFile,
        replace: bool,
        user: &str,
    ) -> Result<Season, ServiceError> {
        let season = Season::from_file(file)?;
        let options = ImportOptions::by(user, replace);
        let mut done = self
            .store_files(std::slice::from_ref(file), &[], &options)
            .await?;
        Ok(done.pop().map_or(season, |i| i.season))
    }

    /// Nights stored for season `year` (0 when there is none), counted in the database, so a
    /// stored season that fails its checks counts too. Errors: storage.
    pub async fn nights_stored(&self, year: i32) -> Result<i64, ServiceError> {
        let mut conn = self.db().read.acquire().await?;
        Ok(db::season::night_count(&mut conn, year).await?)
    }

    /// [`import_all`] through this league: stored, the snapshot refreshed, the backups told.
    pub(super) async fn store_files(
        &self,
        files: &[SeasonFile],
        players: &[String],
        options: &ImportOptions,
    ) -> Result<Vec<Imported>, ServiceError> {
        let done = import_all(self.db(), files, players, options).await?;
        // Stored: a verified copy follows, like after a closed night (issue 31.10).
        self.imported_seasons();
        self.refresh().await?;
        self.books_follow().await;
        Ok(done)
    }

    /// Keeps the uploaded spreadsheet `bytes` (named `file_name`) for its confirm and returns its
    /// digest; the oldest of more than [`STAGED_MAX`] and those older than [`STAGED_SECS`] go.
    pub fn stage_sheet(&self, file_name: &str, bytes: Vec<u8>) -> String {
        let now = self.clock().now().timestamp();
        let digest = digest(&bytes);
        let mut staged = self
            .inner
            .staged
            .0
            .lock()
            .unwrap_or_else(|e| e.into_inner());
        staged.retain(|s| s.digest != digest && now - s.at < STAGED_SECS);
        staged.push(StagedSheet {
            digest: digest.clone(),
            file_name: file_name.to_string(),
            bytes,
            at: now,
        });
        let over = staged.len().saturating_sub(STAGED_MAX);
        staged.drain(..over);
        digest
    }

    /// The upload kept under `digest` ([`League::stage_sheet`]): its file name and bytes, or
    /// `None` when it is unknown or has expired.
    pub fn staged_sheet(&self, digest: &str) -> Option<(String, Vec<u8>)> {
        let now = self.clock().now().timestamp();
        let staged = self
            .inner
            .staged
            .0
            .lock()
            .unwrap_or_else(|e| e.into_inner());
        staged
            .iter()
            .find(|s| s.digest == digest && now - s.at < STAGED_SECS)
            .map(|s| (s.file_name.clone(), s.bytes.clone()))
    }

    /// Forgets the upload kept under `digest` (after its confirm).
    pub fn unstage_sheet(&self, digest: &str) {
        let mut staged = self
            .inner
            .staged
            .0
            .lock()
            .unwrap_or_else(|e| e.into_inner());
        staged.retain(|s| s.digest != digest);
    }
}

/// The season `year` of `league` as the night-totals sheet in CSV (interchange.md: UTF-8 with
/// BOM, `;`; an Endstand season in its own layout, docs/tabelle.md). Errors: no such season.
pub fn season_csv(league: &League, year: i32) -> Result<Vec<u8>, ServiceError> {
    let snap = league.snapshot();
    let view = snap.season(year)?;
    Ok(crate::sheet::write_csv(&sheet::write::season_rows(
        &view.season,
    )))
}

/// How an import treats the seasons that are there already ([`import_all`]).
#[derive(Debug, Clone)]
pub struct ImportOptions {
    /// The author (login name, `cli`): the audit log names him, a Korrektur too.
    pub user: String,
    /// Replace a season that has nights (or an Endstand) already; refused without.
    pub replace: bool,
    /// The files are a spreadsheet's seasons: they hold results only and replace only results,
    /// whatever they say of fees (a season file does so when it carries no money,
    /// `league::sheet::replace::carries_money`).
    pub sheet: bool,
    /// The Korrektur for the closed nights a replacement changes (box and reason).
    pub korrektur: league::Korrektur,
    /// Where the seasons come from, for the Protokoll: „liga-2026.csv“ (default: „einer
    /// Saisondatei“).
    pub source: String,
}

impl ImportOptions {
    /// An import by `user`, replacing seasons when `replace`; a season file, no Korrektur.
    pub fn by(user: &str, replace: bool) -> ImportOptions {
        ImportOptions {
            user: user.to_string(),
            replace,
            sheet: false,
            korrektur: league::Korrektur::default(),
            source: "einer Saisondatei".to_string(),
        }
    }
}

/// Imports `files` (any number of seasons) and the league players `players` in one transaction
/// by `user`; [`import_all`] with a season file's options ([`ImportOptions::by`]).
pub async fn import_all_as(
    db: &Db,
    files: &[SeasonFile],
    players: &[String],
    replace: bool,
    user: &str,
) -> Result<Vec<Season>, ServiceError> {
    let done = import_all(db, files, players, &ImportOptions::by(user, replace)).await?;
    Ok(done.into_iter().map(|i| i.season).collect())
}

/// Refuses replacing the stored season `before` by `after` while `before`'s netting is booked
/// and the replacement moves its places or its pot (league.md §11: the netting is the season's
/// last act; hostile run: `import --replace --korrektur` changed a final Jahresabschluss). A
/// replacement that moves neither (the season's own export) goes in.
fn netting_stays(before: &Season, after: &Season) -> Result<(), ServiceError> {
    let Some(refusal) = league::money::netting::netting_booked(before) else {
        return Ok(());
    };
    if league::payouts(before, 0) == league::payouts(after, 0) {
        return Ok(());
    }
    Err(in_season(before.year, refusal))
}

/// One season an import stored ([`import_all`]).
#[derive(Debug, Clone)]
pub struct Imported {
    /// The season as stored, checked.
    pub season: Season,
    /// When it replaced a season's results only (a spreadsheet, a season file without money):
    /// the nights whose results changed; `None` for a new season or one replaced whole.
    pub replaced: Option<Vec<league::sheet::replace::ReplacedNight>>,
    /// The Jahresbeiträge that replacement took from the file (German, „Bernd (bezahlt am
    /// 01.03.2026)“); empty otherwise.
    pub fees_taken: Vec<String>,
}

/// The Jahresbeiträge a replacement takes from its file, German: „Bernd (bezahlt am 01.03.2026)“.
fn fees_shown(fees: &[(String, chrono::NaiveDate)]) -> Vec<String> {
    fees.iter()
        .map(|(name, paid)| {
            format!(
                "{name} (bezahlt am {})",
                league::model::format::date_de(*paid)
            )
        })
        .collect()
}

impl Imported {
    /// What the replacement did, for the command line: „ersetzt: 40 Abende geändert (1
    /// abgeschlossener als Korrektur); Strafen, Beiträge, Zahlungen und der Strafenkatalog
    /// bleiben“; `None` when it replaced no results only.
    pub fn replaced_line(&self) -> Option<String> {
        let nights = self.replaced.as_ref()?;
        let closed = nights.iter().filter(|n| n.closed).count();
        let korrektur = match closed {
            0 => String::new(),
            1 => " (1 abgeschlossener als Korrektur)".to_string(),
            n => format!(" ({n} abgeschlossene als Korrektur)"),
        };
        let fees = match self.fees_taken.len() {
            0 => String::new(),
            1 => format!("; neu aus der Datei der Beitrag von {}", self.fees_taken[0]),
            _ => format!(
                "; neu aus der Datei die Beiträge von {}",
                self.fees_taken.join(", ")
            ),
        };
        Some(format!(
            "ersetzt: {} {} geändert{korrektur}; Strafen, Beiträge, Zahlungen und der \
             Strafenkatalog bleiben{fees}",
            nights.len(),
            if nights.len() == 1 { "Abend" } else { "Abende" }
        ))
    }
}

/// Imports `files` (any number of seasons) and the league players `players` in one transaction
/// as `options` say, season by season ([`Importing`]): each file is checked
/// (`Season::from_file`; a refusal names the season), a player whose name matches a league
/// player's but for case takes the league's spelling, a season that has nights (or an Endstand)
/// already is refused unless `options.replace`. Replacing it from a spreadsheet, or from a season
/// file that carries no money, replaces its results only (`league::sheet::replace::plan`, issue 32.2):
/// its fines, fees, payments and rules stay, a closed night whose results change needs
/// `options.korrektur` (refused `Closed` without, naming the night) and records it, and each
/// night whose results change gets its row in the audit log. Any other file replaces the
/// season's data whole. One audit row per season too. All or nothing. Returns the seasons as
/// stored, by the files' order.
pub async fn import_all(
    db: &Db,
    files: &[SeasonFile],
    players: &[String],
    options: &ImportOptions,
) -> Result<Vec<Imported>, ServiceError> {
    let mut importing = Importing::begin(db, options).await?;
    let mut seasons = Vec::with_capacity(files.len());
    for file in files {
        seasons.push(importing.season(file).await?);
    }
    importing.finish(players).await?;
    refresh_others(&db.path, None).await;
    Ok(seasons)
}

/// An import under way in one write transaction, season by season (issue 37: the club's file is
/// read and stored one season at a time, so memory stays flat however long the history): what
/// [`import_all`] does for a list of files and [`League::import_club`] for a stream. Nothing is
/// written unless [`Importing::finish`] is reached; dropped before, the transaction is rolled
/// back.
pub struct Importing<'a> {
    tx: db::WriteTx,
    options: &'a ImportOptions,
    /// The league's players by `name_key`, as stored before the import.
    known: BTreeMap<String, String>,
    /// The years stored before the import.
    stored: Vec<i32>,
    /// The years imported so far.
    seen: std::collections::BTreeSet<i32>,
}

impl<'a> Importing<'a> {
    /// Opens the write transaction on `db` for an import by `options.user`. Errors: storage.
    pub async fn begin(db: &Db, options: &'a ImportOptions) -> Result<Importing<'a>, ServiceError> {
        let mut tx = db.begin_write().await?;
        db::audit::set_actor(&mut tx, &options.user, true).await?;
        let known: BTreeMap<String, String> = db::player::all(&mut tx)
            .await?
            .into_iter()
            .map(|(_, n)| (name_key(&n), n))
            .collect();
        let stored = db::version::all(&mut tx)
            .await?
            .into_iter()
            .map(|(y, _)| y)
            .collect();
        Ok(Importing {
            tx,
            options,
            known,
            stored,
            seen: std::collections::BTreeSet::new(),
        })
    }

    /// Checks and stores one season `file` as [`import_all`] says. Refused (German, naming the
    /// season or night): its year came before in this import, the league would hold more than
    /// `MAX_SEASONS`, any check of the file, a season there without `replace`, a closed night
    /// without the Korrektur (`Closed`).
    pub async fn season(&mut self, file: &SeasonFile) -> Result<Imported, ServiceError> {
        let options = self.options;
        let user = options.user.as_str();
        let file = with_league_spelling(file, &self.known);
        let season = Season::from_file(&file).map_err(|e| in_season(file.season, e))?;
        let year = season.year;
        if !self.seen.insert(year) {
            return Err(ServiceError::refused(format!(
                "die Saison {year} steht zweimal in der Datei"
            )));
        }
        super::room_for_seasons(self.stored.iter().copied(), self.seen.iter().copied())?;
        let tx = &mut self.tx;
        let nights = db::season::night_count(tx, year).await?;
        let endstand = db::season::endstand_count(tx, year).await?;
        let there = nights > 0 || endstand > 0;
        if there && !options.replace {
            let what = if nights > 0 {
                format!("{nights} Spielabende")
            } else {
                "einen Endstand".to_string()
            };
            return Err(ServiceError::refused(format!(
                "Saison {year} hat schon {what}; zum Ersetzen --replace angeben (in der \
                 Verwaltung: „ersetzen“ ankreuzen; nichts importiert)"
            )));
        }
        let results_only = options.sheet || !league::sheet::replace::carries_money(&file);
        let before = match db::season::load(tx, year).await? {
            Some(stored) if there => Some(
                Season::from_stored_file(&stored.file)
                    .map_err(|e| {
                        ServiceError::Corrupt(format!("gespeicherte Saison {year} ungültig: {e}"))
                    })?
                    .0,
            ),
            _ => None,
        };
        let (season, replaced) = match &before {
            Some(before) if results_only => {
                let plan = replaced_results(tx, before, &file, options).await?;
                let season = Season::from_file(&plan.file).map_err(|e| in_season(year, e))?;
                (season, Some(plan))
            }
            _ => (season, None),
        };
        if let Some(before) = &before {
            netting_stays(before, &season)?;
        }
        super::merge::carry::forget_season(tx, year).await?;
        db::season::replace(tx, &season).await?;
        super::merge::carry::take(tx, &file).await?;
        if let Some(plan) = &replaced {
            audit_replaced(tx, &plan.nights, options).await?;
        }
        db::audit::record(
            tx,
            user,
            &format!("Saison {year} importiert"),
            Some(&serde_json::json!({ "season": year, "nights": nights })),
            Some(&serde_json::json!({
                "season": year,
                "players": season.players.len(),
                "nights": season.nights.len(),
                "recorded_as_totals": season.totals_nights().len(),
                "endstand": season.endstand.len(),
                "replaced": replaced.as_ref().map(|p| p.nights.len()),
                "fees_taken": replaced.as_ref().map(|p| fees_shown(&p.fees_taken)),
            })),
        )
        .await?;
        let fees_taken = replaced
            .as_ref()
            .map(|p| fees_shown(&p.fees_taken))
            .unwrap_or_default();
        Ok(Imported {
            season,
            replaced: replaced.map(|p| p.nights),
            fees_taken,
        })
    }

    /// Adds the league players `players` (those not there yet; names checked) and commits the
    /// import. Refused (German): a player's name; nothing written then. Errors: storage.
    pub async fn finish(mut self, players: &[String]) -> Result<(), ServiceError> {
        for name in players {
            let name = league::normalize_name(name);
            if name.is_empty() || self.known.contains_key(&name_key(&name)) {
                continue;
            }
            club::check_club_player(&name)?;
            db::season::player_id(&mut self.tx, &name).await?;
        }
        db::audit::clear_actor(&mut self.tx).await?;
        self.tx.commit().await?;
        Ok(())
    }
}

/// The replacement of `before`'s results by `file`'s ([`league::sheet::replace::plan`]) with the
/// Korrektur of `options` recorded in each closed night it changes (timed by the database, as
/// every Korrektur). Refused: the plan's own refusal (naming the night), `Closed` for a closed
/// night without the Korrektur box and a reason.
async fn replaced_results(
    tx: &mut db::WriteTx,
    before: &Season,
    file: &SeasonFile,
    options: &ImportOptions,
) -> Result<league::sheet::replace::Replacement, ServiceError> {
    let year = before.year;
    let mut plan = league::sheet::replace::plan(before, file).map_err(|e| in_season(year, e))?;
    let closed = plan.closed();
    if let Some(first) = closed.first() {
        let reason = options.korrektur.check(*first).map_err(|e| {
            if options.korrektur.ticked {
                return ServiceError::Closed(e);
            }
            let others = match closed.len() {
                1 => String::new(),
                2 => " (und ein weiterer)".to_string(),
                n => format!(" (und {} weitere)", n - 1),
            };
            ServiceError::Closed(EntryError::new(
                e.location,
                format!(
                    "der Spielabend ist abgeschlossen{others}: ihn beim Einlesen zu ersetzen ist \
                     eine Korrektur, nur mit Häkchen „Korrektur“ und Grund."
                ),
            ))
        })?;
        let user = match options.user.trim() {
            "" => "?",
            u => u,
        };
        let at = db::closing::now_stamp(tx).await?;
        plan.correct(&reason, user, &at);
    }
    Ok(plan)
}

/// One audit row per night whose results an import replaced (`nights`): „Abend
/// 09.01.2026 ersetzt, Import aus liga-2026.csv“ with the night's figures before and after, the
/// fines it keeps and, for a closed night, the Korrektur's reason.
async fn audit_replaced(
    tx: &mut db::WriteTx,
    nights: &[league::sheet::replace::ReplacedNight],
    options: &ImportOptions,
) -> Result<(), ServiceError> {
    for n in nights {
        let reason = n
            .closed
            .then(|| options.korrektur.reason.trim().to_string());
        let mut action = format!(
            "Abend {} {}, Import aus {}",
            league::model::format::date_de(n.date),
            n.outcome.label(),
            options.source
        );
        if let Some(r) = &reason {
            action.push_str(&format!(" (Korrektur: {r})"));
        }
        let figures = |f: &league::sheet::replace::Figures| {
            serde_json::json!({
                "night": n.date,
                "players": f.players,
                "rounds": f.rounds,
                "outs": f.outs,
                "recorded_as_totals": f.recorded_as_totals,
            })
        };
        let mut after = figures(&n.after);
        if let Some(map) = after.as_object_mut() {
            map.insert("fines".to_string(), serde_json::json!(n.fines));
            map.insert("closed".to_string(), serde_json::json!(n.closed));
            if let Some(r) = &reason {
                map.insert("correction".to_string(), serde_json::json!(r));
            }
        }
        db::audit::record(
            tx,
            &options.user,
            &action,
            Some(&figures(&n.before)),
            Some(&after),
        )
        .await?;
    }
    Ok(())
}

/// The refusal `e` of season `year`'s file, saying the season when it does not already.
fn in_season(year: i32, e: EntryError) -> ServiceError {
    if e.location.night.is_some() {
        ServiceError::Refused(e)
    } else {
        let msg = format!("Saison {year}: {e}");
        ServiceError::Refused(EntryError::new(Location::default(), msg))
    }
}

/// `file` with each player name that matches a league player's `name_key` written as the league
/// writes it (so `anna` in a sheet is the league's `Anna`, not a new player).
/// Files with rounds (our own exports) are left as they are.
fn with_league_spelling(file: &SeasonFile, known: &BTreeMap<String, String>) -> SeasonFile {
    let mut file = file.clone();
    if file.nights.iter().any(|n| !n.tables.is_empty()) {
        return file;
    }
    let renames: Vec<(String, String)> = file
        .players
        .iter()
        .filter_map(|p| {
            known
                .get(&name_key(&p.name))
                .filter(|k| **k != league::normalize_name(&p.name))
                .map(|k| (p.name.clone(), k.clone()))
        })
        .collect();
    for (from, to) in renames {
        for p in file.players.iter_mut().filter(|p| p.name == from) {
            p.name.clone_from(&to);
        }
        for n in &mut file.nights {
            for t in n.totals.iter_mut().filter(|t| t.player == from) {
                t.player.clone_from(&to);
            }
            for f in n.fines.iter_mut().filter(|f| f.player == from) {
                f.player.clone_from(&to);
            }
            for s in n.draw.iter_mut().flatten().filter(|s| s.player == from) {
                s.player.clone_from(&to);
            }
        }
        for e in file.endstand.iter_mut().filter(|e| e.player == from) {
            e.player.clone_from(&to);
        }
        for p in file.payments.iter_mut().filter(|p| p.player == from) {
            p.player.clone_from(&to);
        }
        for c in file.credit.iter_mut().filter(|c| c.player == from) {
            c.player.clone_from(&to);
        }
    }
    file
}
