//! Closing a night (SECURITY.md "Closed nights"): closed after a confirmation, reopened until the
//! day after it, or removed with all its rounds and fines.

use axum::response::Response;
use axum::Form;
use serde::Deserialize;

use super::night::{confirmed, end, end_with, korrektur_key, reopen_until, CorrectionForm, Typed};
use crate::league::model::format::date_de;
use crate::league::{Change, Korrektur};
use crate::service::{Edit, ServiceError};
use crate::web::kit::form::KorrekturFields;
use crate::web::kit::session::RequireSecretary;
use crate::web::kit::{AppError, AtNight, Reply, Stored};

/// The form that closes a night: the confirmation box.
#[derive(Deserialize)]
pub struct SureForm {
    /// Present when the confirmation box is ticked.
    #[serde(default)]
    pub sicher: Option<String>,
}

/// The form that reopens a night: the confirmation box and the Korrektur with its reason
/// (reopening is itself a Korrektur, recorded like the others).
#[derive(Deserialize)]
pub struct ReopenForm {
    /// Present when the confirmation box is ticked.
    #[serde(default)]
    pub sicher: Option<String>,
    /// The Korrektur fields.
    #[serde(flatten)]
    pub korrektur: KorrekturFields,
}

/// `POST /verwaltung/abend/{date}/abschliessen`: closes the night after the confirmation box;
/// afterwards a change needs a Korrektur.
pub async fn close(
    reply: Reply,
    RequireSecretary(user): RequireSecretary,
    at: AtNight,
    Form(form): Form<SureForm>,
) -> Result<Response, AppError> {
    let date = at.date;
    let ask = "Zum Abschließen „Ja, alle Runden und Strafen sind eingetragen“ ankreuzen.";
    let change = Change::CloseNight { date };
    let edit = Edit::by(&user.username);
    let done = confirmed(&reply, &at, form.sicher.is_some(), ask, change, &edit).await;
    let message = format!("Spielabend {} abgeschlossen.", date_de(date));
    end(
        reply,
        date,
        "abschluss",
        done,
        |()| message,
        Typed::default(),
    )
    .await
}

/// `POST /verwaltung/abend/{date}/oeffnen`: opens a closed night again, until the day after it, as
/// a Korrektur with a reason.
pub async fn reopen(
    reply: Reply,
    RequireSecretary(user): RequireSecretary,
    at: AtNight,
    Form(form): Form<ReopenForm>,
) -> Result<Response, AppError> {
    let date = at.date;
    let today = reply.layout.today;
    let done = if today > reopen_until(date) {
        Err(ServiceError::refused(format!(
            "Abend {}: wieder öffnen geht nur bis zum Tag danach; später nur als Korrektur.",
            date_de(date)
        )))
    } else {
        let ask = "Zum Öffnen „Ja, den Abend wieder öffnen“ ankreuzen.";
        let change = Change::ReopenNight { date };
        let edit = Edit::by(&user.username).korrektur(Korrektur::from(&form.korrektur));
        confirmed(&reply, &at, form.sicher.is_some(), ask, change, &edit).await
    };
    let message = format!("Spielabend {} ist wieder offen.", date_de(date));
    let typed = Typed {
        korrektur: Some((
            korrektur_key("oeffnen", 0, 0),
            Korrektur::from(&form.korrektur),
        )),
        ..Typed::default()
    };
    end(reply, date, "abschluss", done, |()| message, typed).await
}

/// `POST /verwaltung/abend/{date}/loeschen`: removes the night with all its rounds and fines after
/// the confirmation box; back to the season page.
pub async fn remove(
    reply: Reply,
    RequireSecretary(user): RequireSecretary,
    at: AtNight,
    Form(form): Form<CorrectionForm>,
) -> Result<Response, AppError> {
    let date = at.date;
    let ask = "Zum Löschen „Ja, den Abend mit allen Runden und Strafen löschen“ ankreuzen.";
    let change = Change::RemoveNight { date };
    let edit = Edit::by(&user.username).korrektur(Korrektur::from(&form.korrektur));
    let done = confirmed(&reply, &at, form.sicher.is_some(), ask, change, &edit).await;
    let stored = |()| {
        Stored::at(
            format!("/verwaltung/saison/{}", at.year()),
            format!("Spielabend {} gelöscht.", date_de(date)),
        )
    };
    let typed = Typed {
        korrektur: Some((
            korrektur_key("abend-loeschen", 0, 0),
            Korrektur::from(&form.korrektur),
        )),
        ..Typed::default()
    };
    end_with(reply, date, "loeschen", done, stored, typed).await
}
