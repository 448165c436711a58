//! The admin page *Sicherung* (issue 23.2, interchange.md "Running it for a club", docs/restore.md):
//! the verified copies of `serve --backup-dir DIR` with their club time, size, SHA-256 and probe,
//! „Jetzt sichern“, and the download of one copy (admin only; nothing but a listed copy can be
//! asked for). Without `--backup-dir` the page says how to switch backups on. With
//! `--backup-remote` (issue 37) it names the target, the day of the newest copy checked there
//! and, per copy, „außer Haus geprüft am …“. A failed backup or probe, and a failing remote,
//! show on every Verwaltung page ([`crate::web::kit::Layout::backup_warning`]).

use askama::Template;
use askama_web::WebTemplate;
use axum::body::Body;
use axum::extract::{Path, Request, State};
use axum::http::{header, HeaderValue};
use axum::response::{IntoResponse, Response};
use axum::Form;
use serde::Deserialize;

use crate::service::backup::{Copy, Probe, Reason};
use crate::service::{League, ServiceError};
use crate::web::kit::{AppError, Layout, Reply, Stored};

/// The page's path.
pub const PAGE: &str = "/verwaltung/sicherung";

/// One copy as the page lists it.
pub struct CopyLine {
    /// The file name (what the download asks for).
    pub name: String,
    /// When it was made, club time: "01.05.2026 04:00:00".
    pub made: String,
    /// Its size, German: "1,4 MB".
    pub size: String,
    /// Its SHA-256 (hex), empty when none was recorded.
    pub sha256: String,
    /// Whether its probe passed.
    pub passed: bool,
    /// „Probe bestanden“, „Probe fehlgeschlagen: …“ or „nicht geprüft“.
    pub probe: String,
    /// „außer Haus geprüft am 01.05.2026“; `None`: not out.
    pub remote: Option<String>,
}

impl CopyLine {
    fn of(c: Copy) -> CopyLine {
        let (passed, probe) = match c.probe {
            Probe::Passed => (true, "Probe bestanden".to_string()),
            Probe::Failed(why) => (false, format!("Probe fehlgeschlagen: {why}")),
            Probe::Unchecked => (false, "nicht geprüft".to_string()),
        };
        CopyLine {
            remote: c
                .remote
                .map(|d| format!("außer Haus geprüft am {}", d.format("%d.%m.%Y"))),
            size: size_de(c.size_bytes),
            name: c.name,
            made: c.made,
            sha256: c.sha256,
            passed,
            probe,
        }
    }
}

/// A size in bytes as a German page shows it: "812 Bytes", "48,3 kB", "1,4 MB" (powers of 1000,
/// one decimal).
pub fn size_de(bytes: u64) -> String {
    let tenths = |unit: u64| (bytes * 10 + unit / 2) / unit;
    if bytes < 1000 {
        format!("{bytes} Bytes")
    } else if bytes < 999_950 {
        let t = tenths(1000);
        format!("{},{} kB", t / 10, t % 10)
    } else if bytes < 999_950_000 {
        let t = tenths(1_000_000);
        format!("{},{} MB", t / 10, t % 10)
    } else {
        let t = tenths(1_000_000_000);
        format!("{},{} GB", t / 10, t % 10)
    }
}

/// The copies off the machine as the page shows them.
pub struct RemoteLine {
    /// Where they go (`nextcloud:schockerliga`).
    pub target: String,
    /// How a copy there is named for `schockerliga verify` (`nextcloud:schockerliga/NAME.db`).
    pub example: String,
    /// The club's day of the newest copy checked there, German; `None` before the first.
    pub last: Option<String>,
    /// The last attempt's failure (German), until a good copy is out.
    pub failure: Option<String>,
    /// A copy is being sent now.
    pub sending: bool,
}

/// The page *Sicherung*.
#[derive(Template, WebTemplate)]
#[template(path = "admin/backups.html")]
pub struct BackupsPage {
    layout: Layout,
    /// The backup directory and how many good copies are kept; `None`: backups are off.
    on: Option<(String, usize)>,
    copies: Vec<CopyLine>,
    /// The copies off the machine (`--backup-remote`), when switched on.
    remote: Option<RemoteLine>,
    error: Option<String>,
}

/// The page of `league`'s backups with `error` at the top.
fn page(league: &League, layout: Layout, error: Option<String>) -> BackupsPage {
    let backups = league.backups();
    let clock = league.clock();
    BackupsPage {
        layout,
        on: backups
            .as_ref()
            .map(|b| (b.dir().display().to_string(), b.keep())),
        remote: backups.as_ref().and_then(|b| {
            b.remote().map(|r| RemoteLine {
                target: r.target().to_string(),
                example: r.target().file("NAME.db"),
                last: r.last().map(|d| d.format("%d.%m.%Y").to_string()),
                failure: r.failure().map(|f| {
                    format!(
                        "{}: {}",
                        clock.local(f.at).format("%d.%m.%Y %H:%M"),
                        f.message
                    )
                }),
                sending: r.sending(),
            })
        }),
        copies: backups
            .map(|b| b.list(&clock).into_iter().map(CopyLine::of).collect())
            .unwrap_or_default(),
        error,
    }
}

/// `GET /verwaltung/sicherung`: the copies, newest first, and „Jetzt sichern“; without
/// `--backup-dir` how to switch backups on.
pub async fn get(State(league): State<League>, layout: Layout) -> BackupsPage {
    page(&league, layout, None)
}

/// The „Jetzt sichern“ form: only the `einmal` token.
#[derive(Deserialize)]
pub struct MakeForm {}

/// `POST /verwaltung/sicherung`: a verified copy now (`Backups::make`, reason „auf Wunsch“);
/// refused (backups off, the copy could not be written, its probe failed) → the page again with
/// the reason at the top.
pub async fn post(reply: Reply, Form(_): Form<MakeForm>) -> Result<Response, AppError> {
    let league = reply.league.clone();
    let (done, remote) = match league.backups() {
        None => (
            Err(ServiceError::refused(
                "Sicherungen sind aus: den Server mit --backup-dir VERZEICHNIS starten (siehe unten).",
            )),
            None,
        ),
        Some(backups) => (
            backups.make(&league, Reason::Now).await,
            backups.remote().map(|r| r.target().to_string()),
        ),
    };
    reply
        .finish(
            done,
            |copy| {
                let out = remote
                    .map(|t| format!(" Sie geht jetzt außer Haus nach {t}."))
                    .unwrap_or_default();
                Stored::at(
                    PAGE,
                    format!(
                        "Sicherung {} geschrieben, Probe bestanden ({}).{out}",
                        copy.name,
                        size_de(copy.size_bytes)
                    ),
                )
            },
            async |refusal, layout| {
                // The failure is shown at the top already; not twice.
                let layout = Layout {
                    backup_warning: None,
                    ..layout
                };
                Ok(page(&league, layout, Some(refusal.to_string())))
            },
        )
        .await
}

/// `GET /verwaltung/sicherung/{name}`: the copy `name` as a download (`Content-Disposition:
/// attachment`, never cached); 404 for any name that is not one of the listed copies (no other
/// file of the server can be asked for) and while backups are off.
pub async fn download(
    State(league): State<League>,
    Path(name): Path<String>,
    request: Request,
) -> Result<Response, AppError> {
    let backups = league.backups().ok_or(AppError::NotFound)?;
    let path = backups
        .file(&name, &league.clock())
        .ok_or(AppError::NotFound)?;
    let served = tower::ServiceExt::oneshot(tower_http::services::ServeFile::new(&path), request)
        .await
        .map_err(|e| AppError::Internal(format!("Sicherung {name} nicht lesbar: {e}")))?;
    if served.status().is_client_error() {
        // Removed between the listing and the read (pruned): as if never there.
        return Err(AppError::NotFound);
    }
    let mut resp = served.map(Body::new).into_response();
    let headers = resp.headers_mut();
    headers.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/vnd.sqlite3"),
    );
    // `name` is one of the listed copies; anything but letters, digits, `-`, `_` and `.` (a
    // database named oddly) becomes `_` in the header.
    let plain: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || "-_.".contains(c) {
                c
            } else {
                '_'
            }
        })
        .collect();
    if let Ok(v) = HeaderValue::from_str(&format!("attachment; filename=\"{plain}\"")) {
        headers.insert(header::CONTENT_DISPOSITION, v);
    }
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    Ok(resp)
}

#[cfg(test)]
mod tests;
