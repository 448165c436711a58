//! The club's old seasons from its spreadsheet (issue 24; interchange.md "Spreadsheet of night
//! totals", docs/tabelle.md): a secretary uploads a CSV, XLSX or ODS file, sees a preview (the
//! first rows as understood, the table as it would stand, the players and nights it creates) and
//! confirms; nothing is kept before the confirm but the upload itself, in memory, for an hour
//! (`League::stage_sheet`). A file up to [`MAX_UPLOAD_BYTES`] (3 MiB); larger ones with
//! `schockerliga import FILE`. The file is read on the blocking pool, one at a time
//! (`interchange::read_sheet_apart`). Replacing a season that is there replaces its results only;
//! a closed night among them needs the Korrektur fields. Also the season's own sheet as a
//! download, and the whole club as one file.

use askama::Template;
use askama_web::WebTemplate;
use axum::body::{Body, Bytes};
use axum::extract::{Multipart, State};

use crate::web::kit::form::uploaded_file;
use axum::http::header;
use axum::response::{IntoResponse, Response};
use axum::Form;
use serde::Deserialize;

use crate::league::model::format::{date_de, format_dwert};
use crate::league::sheet::layout::Layout as SheetLayout;
use crate::league::Korrektur;
use crate::service::interchange::{read_sheet_apart, season_csv, SheetPreview};
use crate::service::{Edit, Refusal, ServiceError};
use crate::web::kit::form::KorrekturFields;
use crate::web::kit::respond::refused_status;
use crate::web::kit::security::MAX_BODY_BYTES;
use crate::web::kit::session::RequireSecretary;
use crate::web::kit::{AppError, AtSeason, Layout, Reply, Stored, Today};

/// The largest file the upload takes: 3 MiB, one whole figure that the page, the refusal, the
/// README and docs/tabelle.md all say (issue 31.12); under the server's body limit with room for
/// the form around it. Twenty years of a club are about 0.5 MiB as XLSX; larger files with
/// `schockerliga import` (up to `sheet::MAX_FILE_BYTES`).
pub const MAX_UPLOAD_BYTES: usize = 3 * 1024 * 1024;
const _: () = assert!(MAX_UPLOAD_BYTES.is_multiple_of(1024 * 1024));
const _: () = assert!(MAX_UPLOAD_BYTES + 64 * 1024 <= MAX_BODY_BYTES);

/// The upload page, with the refusal of a file that could not be read.
#[derive(Template, WebTemplate)]
#[template(path = "admin/einlesen.html")]
pub struct UploadPage {
    layout: Layout,
    error: Option<String>,
    max_mib: usize,
}

impl UploadPage {
    /// The upload form with `error` at the top (none on a first visit).
    fn new(layout: Layout, error: Option<String>) -> UploadPage {
        UploadPage {
            layout,
            error,
            max_mib: MAX_UPLOAD_BYTES / (1024 * 1024),
        }
    }

    /// The upload form again with `refusal` at the top, answered with its status (422; 503 for
    /// a busy database).
    fn refused(layout: Layout, refusal: &Refusal) -> Response {
        let mut resp = UploadPage::new(layout, Some(refusal.to_string())).into_response();
        *resp.status_mut() = refused_status(refusal);
        resp
    }
}

/// One season of the preview, as the page shows it.
pub struct SeasonLine {
    /// The year.
    pub year: i32,
    /// "Abende (Summen je Spieler und Abend)" or "Endstand".
    pub layout: &'static str,
    /// The sheet it comes from ("" for a CSV file).
    pub sheet: String,
    /// The column headers of `rows`.
    pub columns: Vec<&'static str>,
    /// The first rows as understood: (line, cells).
    pub rows: Vec<(usize, Vec<String>)>,
    /// Rows read in all.
    pub row_count: usize,
    /// Nights it creates.
    pub nights: usize,
    /// Players of the season.
    pub players: usize,
    /// The table as it would stand: (the Liga's name on its first row, else "", rank, player,
    /// rounds, counted Outs, D.Wert).
    pub table: Vec<(&'static str, u32, String, u32, i64, String)>,
    /// Nights the league has for that year already (the import replaces them only when asked).
    pub existing_nights: i64,
    /// What of the sheet was left out (title rows, computed columns, sum rows), German.
    pub skipped: Vec<String>,
    /// The nights „ersetzen“ would change: (date TT.MM.JJJJ, what becomes of it, closed, fines
    /// it keeps).
    pub replaced: Vec<(String, &'static str, bool, usize)>,
    /// The Jahresbeiträge „ersetzen“ would take from the file: „Bernd (bezahlt am 01.03.2026)“.
    pub fees_taken: Vec<String>,
    /// Why „ersetzen“ would be refused, if it would (German).
    pub replace_refusal: Option<String>,
}

/// The preview of an upload.
#[derive(Template, WebTemplate)]
#[template(path = "admin/einlesen_vorschau.html")]
pub struct PreviewPage {
    layout: Layout,
    file_name: String,
    digest: String,
    seasons: Vec<SeasonLine>,
    new_players: Vec<String>,
    known_players: Vec<String>,
    /// A season of the file has nights already: the confirm needs "ersetzen".
    replaces: bool,
    /// The refusal of a confirm, at the top.
    error: Option<String>,
    /// "ersetzen" ticked in a refused confirm.
    replace: bool,
    /// „ersetzen“ would change a closed night: the form asks for the Korrektur.
    needs_korrektur: bool,
    /// The Korrektur fields as typed (a refused confirm).
    korrektur: Korrektur,
}

impl PreviewPage {
    /// The page of `preview`, with `error`, the "ersetzen" box and the Korrektur as sent.
    fn of(
        layout: Layout,
        preview: SheetPreview,
        error: Option<String>,
        replace: bool,
        korrektur: Korrektur,
    ) -> Self {
        let seasons: Vec<SeasonLine> = preview
            .seasons
            .into_iter()
            .map(|s| SeasonLine {
                year: s.year,
                layout: match s.layout {
                    SheetLayout::Nights => "Abende (Summen je Spieler und Abend)",
                    SheetLayout::Endstand => "Endstand",
                },
                sheet: s.sheet,
                columns: s.columns,
                rows: s
                    .first_rows
                    .into_iter()
                    .map(|r| (r.line, r.cells))
                    .collect(),
                row_count: s.rows,
                nights: s.nights,
                players: s.players,
                table: s
                    .standings
                    .rows
                    .iter()
                    .enumerate()
                    .map(|(k, r)| {
                        let first = k == 0 || s.standings.rows[k - 1].liga != r.liga;
                        (
                            if first { r.liga.label() } else { "" },
                            r.rank,
                            r.player.clone(),
                            r.rounds,
                            r.counted_outs,
                            format_dwert(r.d_wert_num, r.d_wert_den),
                        )
                    })
                    .collect(),
                existing_nights: s.existing_nights,
                skipped: s.skipped,
                replaced: s
                    .replaced
                    .iter()
                    .map(|n| (date_de(n.date), n.outcome.label(), n.closed, n.fines))
                    .collect(),
                fees_taken: s.fees_taken,
                replace_refusal: s.replace_refusal,
            })
            .collect();
        PreviewPage {
            layout,
            replaces: seasons.iter().any(|s| s.existing_nights > 0),
            needs_korrektur: seasons.iter().any(|s| s.replaced.iter().any(|n| n.2)),
            korrektur,
            file_name: preview.file_name,
            digest: preview.digest,
            seasons,
            new_players: preview.new_players,
            known_players: preview.known_players,
            error,
            replace,
        }
    }
}

/// `GET /verwaltung/einlesen`: the upload form.
pub async fn get(layout: Layout) -> UploadPage {
    UploadPage::new(layout, None)
}

/// The upload's file (`datei`): its name and bytes; refused (German) without one or over
/// [`MAX_UPLOAD_BYTES`] ([`uploaded_file`]).
async fn file_of(multipart: Multipart) -> Result<(String, Vec<u8>), ServiceError> {
    uploaded_file(
        multipart,
        MAX_UPLOAD_BYTES,
        |name| {
            format!(
                "{name}: größer als {} MiB; so große Tabellen mit `schockerliga import` einlesen.",
                MAX_UPLOAD_BYTES / (1024 * 1024)
            )
        },
        "Keine Datei gewählt: eine Tabelle als .csv, .xlsx oder .ods auswählen.",
    )
    .await
}

/// `POST /verwaltung/einlesen` (multipart, field `datei`): reads and checks the file and shows its
/// preview (200; nothing stored but the upload, kept for the confirm); a file that cannot be read
/// comes back as the upload form with where and why (422).
pub async fn post(
    reply: Reply,
    RequireSecretary(_user): RequireSecretary,
    multipart: Multipart,
) -> Result<Response, AppError> {
    let read = match file_of(multipart).await {
        Ok((name, bytes)) => match read_sheet_apart(&name, bytes, reply.layout.today).await {
            Ok((import, bytes)) => {
                reply.league.stage_sheet(&name, bytes);
                reply.league.preview_sheet(&import).await
            }
            Err(e) => Err(e),
        },
        Err(e) => Err(e),
    };
    match read {
        Ok(preview) => {
            Ok(
                PreviewPage::of(reply.layout, preview, None, false, Korrektur::default())
                    .into_response(),
            )
        }
        Err(e) => Ok(UploadPage::refused(reply.layout, &e.into_refusal()?)),
    }
}

/// The confirm form of a preview: the upload's digest, the "ersetzen" box and the Korrektur of
/// the closed nights replacing changes.
#[derive(Debug, Deserialize)]
pub struct ConfirmForm {
    /// The digest the preview showed.
    #[serde(default)]
    pub digest: String,
    /// Present when the seasons that have nights already are to be replaced.
    #[serde(default)]
    pub ersetzen: Option<String>,
    /// The Korrektur box and reason (needed when a closed night's results change).
    #[serde(flatten)]
    pub korrektur: KorrekturFields,
}

/// `POST /verwaltung/einlesen/bestaetigen`: imports every season of the previewed upload in one
/// transaction (all or nothing); refused → the preview again with the reason.
pub async fn confirm(
    reply: Reply,
    RequireSecretary(user): RequireSecretary,
    Form(form): Form<ConfirmForm>,
) -> Result<Response, AppError> {
    let replace = form.ersetzen.is_some();
    let korrektur = Korrektur::from(&form.korrektur);
    let Some((name, bytes)) = reply.league.staged_sheet(&form.digest) else {
        let expired = ServiceError::refused(
            "Die Vorschau ist abgelaufen (nach einer Stunde oder einem Neustart): bitte die Datei \
             noch einmal hochladen.",
        );
        return Ok(UploadPage::refused(reply.layout, &expired.into_refusal()?));
    };
    let import = read_sheet_apart(&name, bytes, reply.layout.today)
        .await
        .map(|(import, _)| import);
    let done = match &import {
        Ok(import) => reply
            .league
            .import_sheet(
                import,
                &form.digest,
                replace,
                &Edit::by(&user.username).korrektur(korrektur.clone()),
            )
            .await
            .map(|seasons| seasons.iter().map(|s| s.year).collect::<Vec<i32>>()),
        Err(e) => Err(ServiceError::refused(e.to_string())),
    };
    if done.is_ok() {
        reply.league.unstage_sheet(&form.digest);
    }
    let league = reply.league.clone();
    let stored = |years: Vec<i32>| {
        let list: Vec<String> = years.iter().map(i32::to_string).collect();
        let to = match years.first() {
            Some(y) if years.len() == 1 => format!("/verwaltung/saison/{y}"),
            _ => "/verwaltung".to_string(),
        };
        Stored::at(
            to,
            format!("Eingelesen aus {name}: Saison {}.", list.join(", ")),
        )
    };
    reply
        .finish(done, stored, async |refusal, layout| {
            let import = import.map_err(|e| AppError::BadRequest(e.to_string()))?;
            let preview = league.preview_sheet(&import).await?;
            Ok(PreviewPage::of(
                layout,
                preview,
                Some(refusal.to_string()),
                replace,
                korrektur,
            ))
        })
        .await
}

/// `GET /verwaltung/saison/{year}/tabelle.csv`: the season as the night-totals sheet (UTF-8 with
/// BOM, `;`; an Endstand season in its own layout), which `schockerliga import` and the upload
/// take back to the same standings.
pub async fn season_sheet(
    State(league): State<crate::service::League>,
    Today(today): Today,
    at: AtSeason,
) -> Result<Response, AppError> {
    let year = at.year();
    let csv = season_csv(&league, year)?;
    let name = format!("schockerliga-{year}-abende-{today}.csv");
    Ok((
        [
            (header::CONTENT_TYPE, "text/csv; charset=utf-8".to_string()),
            (
                header::CONTENT_DISPOSITION,
                format!("attachment; filename=\"{name}\""),
            ),
            (header::CACHE_CONTROL, "private, no-store".to_string()),
        ],
        csv,
    )
        .into_response())
}

/// `GET /verwaltung/verein.json`: the whole club as one file (`schockerliga-club/1`: every player
/// and season, no accounts), which `schockerliga import` takes back whole. Streamed one season
/// at a time from the snapshot (issue 37: forty seasons were 197 MB built in memory), written
/// on a blocking thread into the body as it goes.
pub async fn club(
    State(league): State<crate::service::League>,
    Today(today): Today,
) -> Result<Response, AppError> {
    let players = league.player_names().await?;
    let carried = league.carried().await?;
    let (chunks, received) = tokio::sync::mpsc::channel::<std::io::Result<Bytes>>(4);
    tokio::task::spawn_blocking(move || {
        let out = Chunks {
            buf: Vec::with_capacity(CHUNK),
            to: chunks.clone(),
        };
        if let Err(e) = league.write_club_to(&players, &carried, out) {
            // The body ends with an error: the download is seen as broken, not as a short file.
            tracing::error!("Vereinsdatei nicht geschrieben: {e}");
            let _ = chunks.blocking_send(Err(std::io::Error::other(e.to_string())));
        }
    });
    let body = Body::from_stream(futures_util::stream::unfold(received, |mut r| async move {
        r.recv().await.map(|chunk| (chunk, r))
    }));
    Ok((
        [
            (header::CONTENT_TYPE, "application/json".to_string()),
            (
                header::CONTENT_DISPOSITION,
                format!("attachment; filename=\"schockerliga-verein-{today}.json\""),
            ),
            (header::CACHE_CONTROL, "private, no-store".to_string()),
        ],
        body,
    )
        .into_response())
}

/// The size of the pieces the club's file is sent in.
const CHUNK: usize = 64 * 1024;

/// A writer that hands what is written to the response body in pieces of [`CHUNK`] bytes; a
/// client gone (the body dropped) ends the writing with an error.
struct Chunks {
    buf: Vec<u8>,
    to: tokio::sync::mpsc::Sender<std::io::Result<Bytes>>,
}

impl Chunks {
    fn send(&mut self) -> std::io::Result<()> {
        if self.buf.is_empty() {
            return Ok(());
        }
        let piece = Bytes::from(std::mem::replace(&mut self.buf, Vec::with_capacity(CHUNK)));
        self.to.blocking_send(Ok(piece)).map_err(|_| {
            std::io::Error::new(std::io::ErrorKind::BrokenPipe, "Download abgebrochen")
        })
    }
}

impl std::io::Write for Chunks {
    fn write(&mut self, data: &[u8]) -> std::io::Result<usize> {
        self.buf.extend_from_slice(data);
        if self.buf.len() >= CHUNK {
            self.send()?;
        }
        Ok(data.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.send()
    }
}
