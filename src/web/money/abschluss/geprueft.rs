//! The Kassenprüfer's *Geprüft* on the Jahresabschluss (issue 35.3): every logged-in account sees
//! who checked the season's books, on which day and with which note; a Kassenprüfer (and only he,
//! `Guard::Audit`) sends *Geprüft* with an optional note. Visitors see nothing of it (the
//! anonymous page is kept by the page cache, and the checks are no season data).

use axum::response::Response;
use axum::Form;
use serde::Deserialize;

use crate::service::pruefung::{pruefung_line, MAX_NOTE_CHARS};
use crate::service::League;
use crate::web::kit::session::RequireAuditor;
use crate::web::kit::{AppError, AtSeason, Layout, Reply, Stored};

/// The *Geprüft* section of the Jahresabschluss.
#[derive(Debug, Clone, Default)]
pub struct CheckedView {
    /// The section is shown (a logged-in viewer).
    pub shown: bool,
    /// "Geprüft von petra am 05.01.2027: Belege vollständig.", oldest first.
    pub lines: Vec<String>,
    /// The viewer is a Kassenprüfer: the *Geprüft* form.
    pub can_check: bool,
    /// The note as typed (kept when it was refused).
    pub note: String,
    /// The longest note, in characters.
    pub max: usize,
}

/// The *Geprüft* section of season `year` for the viewer of `layout`, with `note` in the form:
/// empty for a visitor (no database read), the stored checks for a logged-in account, the form
/// for a Kassenprüfer.
pub async fn view(
    league: &League,
    layout: &Layout,
    year: i32,
    note: &str,
) -> Result<CheckedView, AppError> {
    let Some(user) = &layout.user else {
        return Ok(CheckedView::default());
    };
    Ok(CheckedView {
        shown: true,
        lines: league.pruefung_lines(year).await?,
        can_check: user.audits_money(),
        note: note.to_string(),
        max: MAX_NOTE_CHARS,
    })
}

/// The *Geprüft* form: the Kassenprüfer's note.
#[derive(Deserialize)]
pub struct CheckedForm {
    /// The note (optional, at most [`MAX_NOTE_CHARS`] characters).
    #[serde(default)]
    pub notiz: String,
}

/// `POST /verwaltung/saison/{year}/geprueft`: the Kassenprüfer marks the season's books
/// *Geprüft* with his name, the club's today and his note, and the Protokoll says so
/// ([`League::mark_checked`]); back to the Jahresabschluss. Refused (a bad note) → the
/// Jahresabschluss again (422) with the reason at the top and the note kept.
pub async fn post(
    reply: Reply,
    RequireAuditor(user): RequireAuditor,
    at: AtSeason,
    Form(form): Form<CheckedForm>,
) -> Result<Response, AppError> {
    let year = at.year();
    let done = reply
        .league
        .mark_checked(year, &user.username, &form.notiz)
        .await
        .map(|p| format!("Kassenprüfung gespeichert – {}", pruefung_line(&p)));
    let league = reply.league.clone();
    let to = format!("/saison/{year}/abschluss#geprueft");
    let typed = form.notiz;
    reply
        .finish(
            done,
            |message| Stored::at(to, message),
            async |refusal, layout| {
                let at = AtSeason::find(league.snapshot(), year)?;
                let checked = view(&league, &layout, year, &typed).await?;
                super::page_checked(layout, &at, Some(refusal.to_string()), "", checked)
            },
        )
        .await
}
