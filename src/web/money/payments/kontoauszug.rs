//! The bank statement in the Kassenwart's pages (issue 34.3): `GET/POST
//! /verwaltung/saison/{year}/kontoauszug` (the upload form; the upload, multipart field `datei`,
//! shown as a preview: nothing stored but the file, in memory for an hour under its SHA-256,
//! `League::stage_sheet`) and `POST …/kontoauszug/buchen` (the confirm: the digest and a player
//! chosen for each credit without a match, `spieler_{n}`; booked in one transaction through the
//! payment rule, `League::book_statement`). Refusals come back as the page with where and why.

use std::collections::BTreeMap;

use askama::Template;
use askama_web::WebTemplate;
use axum::extract::Multipart;

use crate::web::kit::form::uploaded_file;
use axum::response::{IntoResponse, Response};
use axum::Form;

use crate::league::format_cents;
use crate::league::model::format::date_de;
use crate::service::interchange::statement::{read_statement, StatementPreview};
use crate::service::{Edit, Refusal, ServiceError};
use crate::web::kit::respond::refused_status;
use crate::web::kit::session::RequireMoney;
use crate::web::kit::{AppError, AtSeason, Layout, Reply, Stored};

/// The largest statement the upload takes: 3 MiB (a year of a club's account is a few KiB).
pub const MAX_STATEMENT_BYTES: usize = 3 * 1024 * 1024;

/// The upload form of a season's statement, with the refusal of a file that could not be read.
#[derive(Template, WebTemplate)]
#[template(path = "money/kontoauszug.html")]
pub struct UploadPage {
    layout: Layout,
    year: i32,
    error: Option<String>,
}

/// One credit on the preview.
pub struct CreditRow {
    /// Its number among the file's credits (the field `spieler_{n}`).
    pub index: usize,
    /// "10.03.2026".
    pub day: String,
    /// "0,50 €".
    pub amount: String,
    /// The purpose and, after a dash, the payer.
    pub purpose: String,
    /// The payer's name.
    pub payer: String,
    /// "Referenz", "Verwendungszweck", or "keine".
    pub how: &'static str,
    /// The matched player ("" without a match).
    pub player: String,
    /// The suggestion of a credit without a match ("" without one).
    pub suggestion: String,
    /// Booked before: not booked again.
    pub known: bool,
    /// What it would pay: "Schock-Schlafmütze am 06.03.2026 (0,50 €)", …; Guthaben after it.
    pub pays: Vec<String>,
    /// The player's Guthaben after it ("" when nothing is booked).
    pub credit: String,
    /// Without a match: the player id chosen (0: none).
    pub chosen: i64,
}

/// The preview of an uploaded statement.
#[derive(Template, WebTemplate)]
#[template(path = "money/kontoauszug_vorschau.html")]
pub struct PreviewPage {
    layout: Layout,
    year: i32,
    file_name: String,
    format: String,
    digest: String,
    credits: Vec<CreditRow>,
    /// Debits: (day, amount, purpose, payee).
    debits: Vec<(String, String, String, String)>,
    /// The season's players (id, name) for the select.
    players: Vec<(i64, String)>,
    already: usize,
    to_book: usize,
    error: Option<String>,
}

impl PreviewPage {
    fn of(
        layout: Layout,
        at: &AtSeason,
        (file_name, digest): (String, String),
        p: &StatementPreview,
        error: Option<String>,
    ) -> PreviewPage {
        let ids = &at.view.ids.players;
        let mut players: Vec<(i64, String)> = ids.iter().map(|(n, i)| (*i, n.clone())).collect();
        players.sort_by(|a, b| a.1.cmp(&b.1));
        let credits = p
            .credits
            .iter()
            .map(|c| CreditRow {
                index: c.index,
                day: date_de(c.entry.date),
                amount: format_cents(c.entry.cents),
                purpose: c.entry.purpose.clone(),
                payer: c.entry.counterparty.clone(),
                how: c.found.how.label(),
                player: c.found.player.clone().unwrap_or_default(),
                suggestion: c.found.suggestion.clone().unwrap_or_default(),
                known: c.known,
                pays: c
                    .items_paid
                    .iter()
                    .map(|i| format!("{} ({})", i.label, format_cents(i.cents)))
                    .collect(),
                credit: match (&c.player, c.known) {
                    (Some(_), false) => format_cents(c.credit_cents),
                    _ => String::new(),
                },
                chosen: match (&c.found.player, &c.player) {
                    (None, Some(n)) => ids.get(n).copied().unwrap_or(0),
                    _ => 0,
                },
            })
            .collect();
        PreviewPage {
            layout,
            year: at.year(),
            file_name,
            format: p.format.clone(),
            digest,
            credits,
            debits: p
                .debits
                .iter()
                .map(|d| {
                    (
                        date_de(d.date),
                        format_cents(d.cents),
                        d.purpose.clone(),
                        d.counterparty.clone(),
                    )
                })
                .collect(),
            players,
            already: p.already(),
            to_book: p.to_book().count(),
            error,
        }
    }
}

fn upload_refused(layout: Layout, year: i32, refusal: &Refusal) -> Response {
    let mut resp = UploadPage {
        layout,
        year,
        error: Some(refusal.to_string()),
    }
    .into_response();
    *resp.status_mut() = refused_status(refusal);
    resp
}

/// `GET /verwaltung/saison/{year}/kontoauszug`: the upload form.
pub async fn get(layout: Layout, at: AtSeason) -> UploadPage {
    UploadPage {
        layout,
        year: at.year(),
        error: None,
    }
}

/// The upload's file (`datei`): its name and bytes; refused (German) without one or over
/// [`MAX_STATEMENT_BYTES`] ([`uploaded_file`]).
async fn file_of(multipart: Multipart) -> Result<(String, Vec<u8>), ServiceError> {
    uploaded_file(
        multipart,
        MAX_STATEMENT_BYTES,
        |name| {
            format!(
                "{name}: größer als 3 MiB; so große Kontoauszüge mit `schockerliga kontoauszug` lesen."
            )
        },
        "Keine Datei gewählt: einen Kontoauszug als .xml (CAMT.053) oder .csv auswählen.",
    )
    .await
}

/// `POST /verwaltung/saison/{year}/kontoauszug` (multipart, field `datei`): the statement read
/// and matched, shown as the preview (200; nothing stored but the upload, kept for the confirm);
/// a file that is no statement → the upload form with where and why (422).
pub async fn post(
    reply: Reply,
    RequireMoney(_user): RequireMoney,
    at: AtSeason,
    multipart: Multipart,
) -> Result<Response, AppError> {
    let year = at.year();
    let read = async {
        let (name, bytes) = file_of(multipart).await?;
        let statement = read_statement(&name, &bytes)?;
        let preview = reply
            .league
            .preview_statement(year, &statement, &BTreeMap::new())
            .await?;
        let digest = reply.league.stage_sheet(&name, bytes);
        Ok::<_, ServiceError>((name, digest, preview))
    };
    match read.await {
        Ok((name, digest, preview)) => {
            Ok(PreviewPage::of(reply.layout, &at, (name, digest), &preview, None).into_response())
        }
        Err(e) => Ok(upload_refused(reply.layout, year, &e.into_refusal()?)),
    }
}

/// `POST /verwaltung/saison/{year}/kontoauszug/buchen` (fields `digest`, `spieler_{n}` = a
/// player's id or empty): books the previewed statement; stored → the Zahlungen page with "N
/// neue Buchungen, M schon eingelesen"; refused → the preview again with the reason and the
/// choices kept; an expired upload → the upload form.
pub async fn confirm(
    reply: Reply,
    RequireMoney(user): RequireMoney,
    at: AtSeason,
    Form(fields): Form<Vec<(String, String)>>,
) -> Result<Response, AppError> {
    let year = at.year();
    let digest = fields
        .iter()
        .find(|(k, _)| k == "digest")
        .map(|(_, v)| v.clone())
        .unwrap_or_default();
    let Some((name, bytes)) = reply.league.staged_sheet(&digest) else {
        let expired = ServiceError::refused(
            "Die Vorschau ist abgelaufen (nach einer Stunde oder einem Neustart): bitte den \
             Kontoauszug noch einmal hochladen.",
        );
        return Ok(upload_refused(reply.layout, year, &expired.into_refusal()?));
    };
    let mut chosen = BTreeMap::new();
    for (k, v) in &fields {
        let Some(n) = k
            .strip_prefix("spieler_")
            .and_then(|n| n.parse::<usize>().ok())
        else {
            continue;
        };
        if let Ok(id) = v.trim().parse::<i64>() {
            chosen.insert(n, at.player(id)?);
        }
    }
    let statement = read_statement(&name, &bytes)?;
    let kept = chosen.clone();
    let done = reply
        .league
        .book_statement(year, &statement, &chosen, &Edit::by(&user.username))
        .await;
    if done.is_ok() {
        reply.league.unstage_sheet(&digest);
    }
    let league = reply.league.clone();
    let to = format!("/verwaltung/saison/{year}/zahlungen");
    let shown = name.clone();
    reply
        .finish(
            done,
            |b| Stored::at(to, format!("Kontoauszug {shown}: {}.", b.text())),
            async |refusal, layout| {
                let at = AtSeason::find(league.snapshot(), year)?;
                // The choices as sent, unless they are what was refused.
                let preview = match league.preview_statement(year, &statement, &kept).await {
                    Ok(p) => p,
                    Err(_) => {
                        league
                            .preview_statement(year, &statement, &BTreeMap::new())
                            .await?
                    }
                };
                Ok(PreviewPage::of(
                    layout,
                    &at,
                    (name, digest),
                    &preview,
                    Some(refusal.to_string()),
                ))
            },
        )
        .await
}
