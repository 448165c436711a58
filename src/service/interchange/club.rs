//! The whole club's file (`schockerliga-club/1`, docs/saisondatei.md "Der ganze Verein") at flat
//! memory (issue 37): written compactly, one season at a time (from the database or from the
//! server's snapshot), optionally gzip (`.json.gz`), and read back one season at a time — parsed
//! on a thread of its own and handed over one season after the other to the import
//! ([`super::Importing`]), which stores each in the one write transaction: all or nothing as
//! before, however long the club's history. Nothing holds more than a season or two at once.
//!
//! The file: `{"format":"schockerliga-club/1","players":[…],"seasons":[` then one season file
//! per line (oldest first), `]}`. In the rows of a round the fields at their defaults (`julen`
//! 0, `joker` and `lost` false, interchange.md) are left out; every other field is written as
//! the season file has it.

use std::io::{BufRead, BufReader, Read, Write};

use serde::de::{self, DeserializeSeed, MapAccess, SeqAccess, Visitor};
use serde_json::Value;

use super::{check_against_today, ImportOptions, Importing, CLUB_FORMAT};
use crate::db::{self, Db};
use crate::league::model::file::SeasonFile;
use crate::league::Season;
use crate::service::{League, ServiceError};

/// The first two bytes of a gzip file.
const GZIP_MAGIC: [u8; 2] = [0x1f, 0x8b];

/// The most bytes of the file (as read, after gzip) one part of a club's file may take: one
/// season, or the list of players. The largest season the checks allow (1,000 players, a night
/// every day of 20 rounds of 20 rows) is about 12 MiB; a bigger part is refused while it is read,
/// before it is built (hostile run: a 2 MB gzip with a player name of 400 MB was read whole, at
/// 2.37 GB, and stored).
pub const MAX_PART_BYTES: u64 = 32 * 1024 * 1024;

/// A reader that counts what is read against the bytes left to the part being read
/// ([`MAX_PART_BYTES`], renewed by the reading at each part) and fails past them.
struct Budget<R> {
    inner: R,
    left: std::rc::Rc<std::cell::Cell<u64>>,
}

impl<R: Read> Read for Budget<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.inner.read(buf)?;
        let left = self.left.get();
        if n as u64 > left {
            return Err(std::io::Error::new(
                std::io::ErrorKind::InvalidData,
                format!(
                    "ein Teil der Datei (eine Saison oder die Liste der Spieler) ist größer als \
                     {} MiB",
                    MAX_PART_BYTES / 1024 / 1024
                ),
            ));
        }
        self.left.set(left - n as u64);
        Ok(n)
    }
}

/// `season`'s file as one compact JSON line, the rows of its rounds without the fields at their
/// defaults (`julen` 0, `joker` false, `lost` false; they read back the same).
pub fn season_line(season: &SeasonFile) -> Result<Vec<u8>, ServiceError> {
    let fault =
        |e: serde_json::Error| ServiceError::Corrupt(format!("Saison {}: {e}", season.season));
    let mut value = serde_json::to_value(season).map_err(fault)?;
    let nights = value.get_mut("nights").and_then(Value::as_array_mut);
    for night in nights.into_iter().flatten() {
        let tables = night.get_mut("tables").and_then(Value::as_array_mut);
        for table in tables.into_iter().flatten() {
            let rounds = table.get_mut("rounds").and_then(Value::as_array_mut);
            for round in rounds.into_iter().flatten() {
                let results = round.get_mut("results").and_then(Value::as_array_mut);
                for row in results.into_iter().flatten() {
                    if let Some(row) = row.as_object_mut() {
                        for (key, default) in [
                            ("julen", Value::from(0)),
                            ("joker", Value::Bool(false)),
                            ("lost", Value::Bool(false)),
                        ] {
                            if row.get(key) == Some(&default) {
                                row.remove(key);
                            }
                        }
                    }
                }
            }
        }
    }
    serde_json::to_vec(&value).map_err(fault)
}

/// Writes the club's file to `out`: the league `players`, then each season of `seasons` as it
/// comes ([`season_line`]), so that no more than one season is held. Returns `out`, flushed (to
/// finish a gzip stream). Errors: a season's own error (storage, a stored season that fails its
/// checks), the output not writable (German).
pub fn write_club<W: Write>(
    out: W,
    players: &[String],
    seasons: impl IntoIterator<Item = Result<SeasonFile, ServiceError>>,
) -> Result<W, ServiceError> {
    let mut writer = ClubWriter::start(out, players)?;
    for season in seasons {
        writer.season(&season?)?;
    }
    writer.end()
}

/// Writes the whole club's file of the database `db` to `out` ([`write_club`]), reading one
/// season after the other in one read transaction (a consistent picture while a server writes),
/// each checked as the league loads it (`Season::from_stored_file`) and written as its season
/// file. For a command that does not hold the league in memory (`export --all`). Errors:
/// storage, a stored season that fails its checks (`Corrupt`, naming it), the output.
pub async fn export_club_from<W: Write>(db: &Db, out: W) -> Result<W, ServiceError> {
    let mut tx = db.read.begin().await?;
    let players: Vec<String> = db::player::all(&mut tx)
        .await?
        .into_iter()
        .map(|(_, n)| n)
        .collect();
    let mut years: Vec<i32> = db::version::all(&mut tx)
        .await?
        .into_iter()
        .map(|(y, _)| y)
        .collect();
    years.sort_unstable();
    let mut writer = ClubWriter::start(out, &players)?;
    for year in years {
        let Some(stored) = db::season::load(&mut tx, year).await? else {
            continue;
        };
        let (season, _) = Season::from_stored_file(&stored.file).map_err(|e| {
            ServiceError::Corrupt(format!("gespeicherte Saison {year} ungültig: {e}"))
        })?;
        drop(stored);
        let mut file = season.to_file();
        crate::service::merge::carry::carried_of(&mut tx, &[year])
            .await?
            .apply(&mut file);
        writer.season(&file)?;
    }
    tx.commit().await?;
    writer.end()
}

/// [`write_club`] driven one season at a time.
pub struct ClubWriter<W: Write> {
    out: W,
    first: bool,
}

impl<W: Write> ClubWriter<W> {
    /// Writes the head of the club's file (format, `players`) to `out`. Errors: the output.
    pub fn start(mut out: W, players: &[String]) -> Result<ClubWriter<W>, ServiceError> {
        let head = serde_json::json!({ "format": CLUB_FORMAT, "players": players });
        let head = serde_json::to_string(&head)
            .map_err(|e| ServiceError::Corrupt(format!("Spielerliste: {e}")))?;
        let head = head.strip_suffix('}').unwrap_or(&head);
        out.write_all(head.as_bytes()).map_err(out_error)?;
        out.write_all(b",\"seasons\":[").map_err(out_error)?;
        Ok(ClubWriter { out, first: true })
    }

    /// Writes one season ([`season_line`]). Errors: the output.
    pub fn season(&mut self, season: &SeasonFile) -> Result<(), ServiceError> {
        let line = season_line(season)?;
        let sep: &[u8] = if self.first { b"\n" } else { b",\n" };
        self.first = false;
        self.out.write_all(sep).map_err(out_error)?;
        self.out.write_all(&line).map_err(out_error)
    }

    /// Closes the file and returns the output, flushed. Errors: the output.
    pub fn end(mut self) -> Result<W, ServiceError> {
        self.out.write_all(b"\n]}\n").map_err(out_error)?;
        self.out.flush().map_err(out_error)?;
        Ok(self.out)
    }
}

/// The German refusal of an output that cannot be written.
fn out_error(e: std::io::Error) -> ServiceError {
    ServiceError::refused(format!("Ausgabe nicht schreibbar: {e}"))
}

/// Reads a JSON file, plain or gzip (told by its first bytes), with a UTF-8 byte order mark
/// skipped: a buffered reader of its text.
pub fn json_reader<R: Read + Send + 'static>(inner: R) -> std::io::Result<Box<dyn BufRead + Send>> {
    let mut buffered = BufReader::with_capacity(256 * 1024, inner);
    let gzip = buffered.fill_buf()?.starts_with(&GZIP_MAGIC);
    let mut text: Box<dyn BufRead + Send> = if gzip {
        Box::new(BufReader::with_capacity(
            256 * 1024,
            flate2::bufread::MultiGzDecoder::new(buffered),
        ))
    } else {
        Box::new(buffered)
    };
    if text.fill_buf()?.starts_with("\u{feff}".as_bytes()) {
        text.consume(3);
    }
    Ok(text)
}

/// The `format` of the JSON object `reader` holds, read without keeping anything else (the
/// rest is skipped, not stored): `None` when it has none or is no JSON object. Stops at the
/// `format` key (our files write it first).
pub fn format_of(reader: impl Read) -> Option<String> {
    struct Probe<'a>(&'a mut Option<String>);
    impl<'de> Visitor<'de> for Probe<'_> {
        type Value = ();
        fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
            f.write_str("ein JSON-Objekt")
        }
        fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
            while let Some(key) = map.next_key::<String>()? {
                if key == "format" {
                    *self.0 = map.next_value::<String>().ok();
                    // Found: the rest need not be read.
                    return Err(de::Error::custom("gefunden"));
                }
                map.next_value::<de::IgnoredAny>()?;
            }
            Ok(())
        }
    }
    let mut found = None;
    // A file's `format` stands first; a file that hides it behind a part's limit is no club file
    // (hostile trial: 1 GiB of whitespace first took 45 s to tell).
    let mut de = serde_json::Deserializer::from_reader(reader.take(MAX_PART_BYTES));
    let _ = de::Deserializer::deserialize_map(&mut de, Probe(&mut found));
    found
}

/// One part of a club's file as it is read.
#[derive(Debug)]
pub enum ClubPart {
    /// Its `format`.
    Format(String),
    /// Its league players.
    Players(Vec<String>),
    /// One season.
    Season(Box<SeasonFile>),
}

/// Reads the club's file from `reader` and hands each part to `take` as it is read (a season
/// at a time); `take` answers `false` to stop. Errors (German): not a club's file (an unknown
/// or a missing field, a key twice), invalid JSON or a season that does not fit the season
/// file's shape — naming the season after which it happened; stopped by `take` (`Ok`).
pub fn read_club(
    reader: impl Read,
    mut take: impl FnMut(ClubPart) -> bool,
) -> Result<(), ServiceError> {
    let mut last = None;
    let left = std::rc::Rc::new(std::cell::Cell::new(MAX_PART_BYTES));
    let budget = Budget {
        inner: reader,
        left: left.clone(),
    };
    let mut de = serde_json::Deserializer::from_reader(budget);
    let read = de::Deserializer::deserialize_map(
        &mut de,
        ClubVisitor {
            take: &mut take,
            last: &mut last,
            left: &left,
        },
    )
    .and_then(|()| de.end());
    match read {
        Ok(()) => Ok(()),
        Err(e) if e.to_string().starts_with(STOPPED) => Ok(()),
        Err(e) => {
            let after = match last {
                Some(year) => format!(" (nach der Saison {year})"),
                None => String::new(),
            };
            Err(ServiceError::refused(format!(
                "keine gültige Vereinsdatei{after}: {e}"
            )))
        }
    }
}

/// The error by which [`read_club`]'s reading stops when `take` said so.
const STOPPED: &str = "Lesen beendet";

/// The fields of a club's file.
const FIELDS: &[&str] = &["format", "players", "seasons"];

struct ClubVisitor<'a, F: FnMut(ClubPart) -> bool> {
    take: &'a mut F,
    last: &'a mut Option<i32>,
    /// The bytes left to the part being read ([`Budget`]).
    left: &'a std::cell::Cell<u64>,
}

impl<'de, F: FnMut(ClubPart) -> bool> Visitor<'de> for ClubVisitor<'_, F> {
    type Value = ();

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("die Datei des ganzen Vereins (ein JSON-Objekt)")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        let mut seen = Vec::new();
        let mut format = false;
        while let Some(key) = map.next_key::<String>()? {
            self.left.set(MAX_PART_BYTES);
            if seen.contains(&key) {
                return Err(de::Error::custom(format!("das Feld „{key}“ steht zweimal")));
            }
            let go_on = match key.as_str() {
                "format" => {
                    format = true;
                    (self.take)(ClubPart::Format(map.next_value()?))
                }
                "players" => (self.take)(ClubPart::Players(map.next_value()?)),
                "seasons" => map.next_value_seed(Seasons {
                    take: &mut *self.take,
                    last: &mut *self.last,
                    left: self.left,
                })?,
                other => return Err(de::Error::unknown_field(other, FIELDS)),
            };
            if !go_on {
                return Err(de::Error::custom(STOPPED));
            }
            seen.push(key);
        }
        if !format {
            return Err(de::Error::missing_field("format"));
        }
        Ok(())
    }
}

/// The `seasons` array, each handed on as it is read.
struct Seasons<'a, F: FnMut(ClubPart) -> bool> {
    take: &'a mut F,
    last: &'a mut Option<i32>,
    left: &'a std::cell::Cell<u64>,
}

impl<'de, F: FnMut(ClubPart) -> bool> DeserializeSeed<'de> for Seasons<'_, F> {
    type Value = bool;

    fn deserialize<D: de::Deserializer<'de>>(self, d: D) -> Result<bool, D::Error> {
        d.deserialize_seq(self)
    }
}

impl<'de, F: FnMut(ClubPart) -> bool> Visitor<'de> for Seasons<'_, F> {
    type Value = bool;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("eine Liste von Saisondateien")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<bool, A::Error> {
        while let Some(file) = seq.next_element::<SeasonFile>()? {
            // The next season has a budget of its own.
            self.left.set(MAX_PART_BYTES);
            *self.last = Some(file.season);
            if !(self.take)(ClubPart::Season(Box::new(file))) {
                // The rest is not read: the reading ends here.
                return Err(de::Error::custom(STOPPED));
            }
        }
        Ok(true)
    }
}

/// What [`League::import_club`] stored of one season (the season itself is not kept).
#[derive(Debug, Clone, PartialEq)]
pub struct ImportedSeason {
    /// The year.
    pub year: i32,
    /// Its players.
    pub players: usize,
    /// Its nights.
    pub nights: usize,
    /// Of those, recorded as totals.
    pub totals: usize,
    /// Lines of its Endstand (a season kept as its final table), else 0.
    pub endstand: usize,
    /// For a replacement of results only: the nights changed and how many of them closed.
    pub replaced: Option<(usize, usize)>,
}

impl ImportedSeason {
    /// The summary of `done`.
    pub fn of(done: &super::Imported) -> ImportedSeason {
        let s = &done.season;
        ImportedSeason {
            year: s.year,
            players: s.players.len(),
            nights: s.nights.len(),
            totals: s.totals_nights().len(),
            endstand: s.endstand.len(),
            replaced: done
                .replaced
                .as_ref()
                .map(|n| (n.len(), n.iter().filter(|n| n.closed).count())),
        }
    }
}

/// Checks the club's file `reader` reads without storing anything: a club's file, each season
/// a season file of a year the club can have on `today` ([`check_against_today`]), no year
/// twice. One season at a time. For a command about to make a new database (a refused file
/// makes none). Refused (German) as [`read_club`] and those checks say.
pub fn check_club_file(reader: impl Read, today: chrono::NaiveDate) -> Result<(), ServiceError> {
    let mut refusal = None;
    let mut years = std::collections::BTreeSet::new();
    read_club(reader, |part| {
        let checked = match part {
            ClubPart::Format(f) => check_format(&f),
            ClubPart::Players(names) => names.iter().try_for_each(|n| check_club_player(n)),
            ClubPart::Season(file) => check_against_today(std::slice::from_ref(&*file), today)
                .and_then(|()| {
                    if years.insert(file.season) {
                        Ok(())
                    } else {
                        Err(twice(file.season))
                    }
                }),
        };
        match checked {
            Ok(()) => true,
            Err(e) => {
                refusal = Some(e);
                false
            }
        }
    })?;
    refusal.map_or(Ok(()), Err)
}

/// Checks one name of the club's list of players (`players`), normalized: no control or
/// invisible characters, at most [`crate::league::model::season::MAX_NAME_CHARS`] characters, as
/// a season's players. Refused (German), naming the name's first 20 characters.
pub fn check_club_player(name: &str) -> Result<(), ServiceError> {
    use crate::league::model::season::MAX_NAME_CHARS;
    let name = crate::league::normalize_name(name);
    let shown = || {
        let mut short: String = name.chars().take(20).collect();
        if name.chars().count() > 20 {
            short.push('…');
        }
        short
    };
    if name.chars().count() > MAX_NAME_CHARS {
        return Err(ServiceError::refused(format!(
            "Spielername „{}“ (Liste der Spieler) hat mehr als {MAX_NAME_CHARS} Zeichen",
            shown()
        )));
    }
    crate::league::check_name_chars(&name)
        .map_err(|why| ServiceError::refused(format!("Spielername {why} (Liste der Spieler)")))
}

fn check_format(format: &str) -> Result<(), ServiceError> {
    if format == CLUB_FORMAT {
        Ok(())
    } else {
        Err(ServiceError::refused(format!(
            "unbekanntes Format \"{format}\" (erwartet \"{CLUB_FORMAT}\")"
        )))
    }
}

fn twice(year: i32) -> ServiceError {
    ServiceError::refused(format!("die Saison {year} steht zweimal in der Datei"))
}

impl League {
    /// Imports the club's file `reader` reads (plain or gzip JSON, [`json_reader`]) as the one
    /// import does ([`League::import_files`]: each season checked against the club's today, then
    /// stored in one transaction as `options` say), one season at a time: the file is parsed on
    /// a thread of its own ([`read_club`]) and each season handed over as it is read, checked,
    /// stored and dropped, so the import holds a season or two however many the file has. The
    /// league players of the file are added at the end. All or nothing. Returns what was stored
    /// of each season, by the file's order. Refused (German, naming the season or night;
    /// `Closed` for a closed night without the Korrektur): not a club's file, invalid JSON, any
    /// refusal of the import; nothing written.
    pub async fn import_club<R: Read + Send + 'static>(
        &self,
        reader: R,
        options: &ImportOptions,
    ) -> Result<Vec<ImportedSeason>, ServiceError> {
        let (parts, mut received) = tokio::sync::mpsc::channel::<ClubPart>(1);
        let parser = tokio::task::spawn_blocking(move || {
            let text = json_reader(reader)
                .map_err(|e| ServiceError::refused(format!("Datei nicht lesbar: {e}")))?;
            read_club(text, |part| parts.blocking_send(part).is_ok())
        });
        let today = self.today();
        let stored = async {
            let mut importing = Importing::begin(self.db(), options).await?;
            let mut done = Vec::new();
            let mut players = Vec::new();
            let mut format = false;
            while let Some(part) = received.recv().await {
                match part {
                    ClubPart::Format(f) => {
                        check_format(&f)?;
                        format = true;
                    }
                    ClubPart::Players(p) => players = p,
                    ClubPart::Season(file) => {
                        check_against_today(std::slice::from_ref(&*file), today)?;
                        let imported = importing.season(&file).await?;
                        done.push(ImportedSeason::of(&imported));
                    }
                }
            }
            Ok::<_, ServiceError>((importing, done, players, format))
        }
        .await;
        // Stored or refused, the parser ends (a refusal closes the channel) and says why it
        // ended; a file that did not parse is the refusal, whatever was stored of it (nothing:
        // the transaction is dropped).
        drop(received);
        let parsed = parser
            .await
            .map_err(|e| ServiceError::Corrupt(format!("Lesen abgebrochen: {e}")))?;
        let (importing, done, players, format) = stored?;
        parsed?;
        if !format {
            return Err(ServiceError::refused(format!(
                "keine gültige Vereinsdatei: das Feld „format“ fehlt (erwartet \"{CLUB_FORMAT}\")"
            )));
        }
        importing.finish(&players).await?;
        super::refresh_others(&self.db().path, None).await;
        self.imported_seasons();
        self.refresh().await?;
        Ok(done)
    }

    /// Writes the whole club's file of this league's snapshot to `out` ([`write_club`]: every
    /// league player, each season as its season file with what it `carried` (statuses, merges;
    /// [`League::carried`]), oldest first), one season at a time. For the Verwaltung's download,
    /// on a blocking thread. Errors: storage, a stored season that fails its checks, the output.
    pub fn write_club_to<W: Write>(
        &self,
        players: &[String],
        carried: &crate::service::merge::carry::Carried,
        out: W,
    ) -> Result<W, ServiceError> {
        let snap = self.snapshot();
        let mut years = snap.years();
        years.reverse();
        write_club(
            out,
            players,
            years.into_iter().map(|year| {
                let mut file = snap.season(year)?.season.to_file();
                carried.apply(&mut file);
                Ok(file)
            }),
        )
    }

    /// The league's players by name (the head of the club's file). Errors: storage.
    pub async fn player_names(&self) -> Result<Vec<String>, ServiceError> {
        let mut conn = self.db().read.acquire().await?;
        Ok(db::player::all(&mut conn)
            .await?
            .into_iter()
            .map(|(_, n)| n)
            .collect())
    }
}

#[cfg(test)]
mod tests;
