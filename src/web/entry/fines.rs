//! The fines of a night (league.md §6): booked from the season's Strafenkatalog, marked paid or
//! open (also on a closed night: collecting a fine later is normal), removed as a correction.

use axum::extract::Path;
use axum::response::Response;
use axum::Form;
use serde::Deserialize;

use super::night::{correct, end, korrektur_key, Correction, CorrectionForm, Typed};
use crate::league::money::kasse::fine_label;
use crate::league::{Change, Korrektur};
use crate::service::Edit;
use crate::web::kit::form::KorrekturFields;
use crate::web::kit::session::RequireSecretary;
use crate::web::kit::{AppError, AtNight, Reply};

/// The fine form.
#[derive(Deserialize)]
pub struct FineForm {
    /// `players.id` of the fined player.
    pub player: i64,
    /// A kind of the season's catalogue.
    pub kind: String,
    /// Present when paid at once.
    pub paid: Option<String>,
    /// Present when "Ja, noch einmal buchen" is ticked (a second fine of the kind this night).
    #[serde(default)]
    pub again: Option<String>,
    /// Korrektur fields of a closed night.
    #[serde(flatten)]
    pub korrektur: KorrekturFields,
}

/// `POST /verwaltung/abend/{date}/strafe`: books a fine of the Strafenkatalog, paid or open.
pub async fn post(
    reply: Reply,
    RequireSecretary(user): RequireSecretary,
    at: AtNight,
    Form(form): Form<FineForm>,
) -> Result<Response, AppError> {
    let date = at.date;
    let paid = form.paid.is_some();
    let player = at.player(form.player)?;
    let change = Change::BookFine {
        date,
        player: player.clone(),
        kind: form.kind.clone(),
        paid,
        again: form.again.is_some(),
    };
    let edit = Edit::by(&user.username).korrektur(Korrektur::from(&form.korrektur));
    let done = reply
        .league
        .change(at.year(), change, &edit)
        .await
        .map(|_| ());
    let message = format!(
        "Strafe gebucht: {player}, {} ({}).",
        fine_label(form.kind.trim()),
        if paid { "bezahlt" } else { "offen" }
    );
    let typed = Typed {
        fine: Some((form.player, form.kind.clone(), paid)),
        korrektur: Some((
            korrektur_key("strafe", 0, 0),
            Korrektur::from(&form.korrektur),
        )),
        ..Typed::default()
    };
    end(reply, date, "strafen", done, |()| message, typed).await
}

/// The paid/open toggle of a fine.
#[derive(Deserialize)]
pub struct PaidForm {
    /// "1" = paid, "0" = open.
    pub paid: String,
}

/// `POST /verwaltung/abend/{date}/strafe/{fine}/bezahlt`: marks a fine paid (today) or open again;
/// allowed on a closed night.
pub async fn paid(
    reply: Reply,
    RequireSecretary(user): RequireSecretary,
    at: AtNight,
    Path((_, fine)): Path<(String, i64)>,
    Form(form): Form<PaidForm>,
) -> Result<Response, AppError> {
    let paid = form.paid == "1";
    let index = at.fine_index(fine)?;
    // Allowed on a closed night (collecting a fine later is normal); paid today.
    let change = Change::PayFine {
        date: at.date,
        index,
        paid_on: paid.then(|| reply.layout.today.max(at.date)),
    };
    let done = reply
        .league
        .change(at.year(), change, &Edit::by(&user.username))
        .await;
    let message = if paid {
        "Strafe als bezahlt markiert."
    } else {
        "Strafe wieder offen."
    };
    end(
        reply,
        at.date,
        "strafen",
        done,
        |_| message.into(),
        Typed::default(),
    )
    .await
}

/// `POST /verwaltung/abend/{date}/strafe/{fine}/loeschen`: removes a fine after the confirmation
/// box (a Korrektur on a closed night).
pub async fn remove(
    reply: Reply,
    RequireSecretary(user): RequireSecretary,
    at: AtNight,
    Path((_, fine)): Path<(String, i64)>,
    Form(form): Form<CorrectionForm>,
) -> Result<Response, AppError> {
    let index = at.fine_index(fine)?;
    let what = at
        .night()
        .fines
        .get(index)
        .map(|f| format!("{}, {}", f.player, fine_label(&f.kind)))
        .unwrap_or_default();
    let correction = Correction {
        change: Change::RemoveFine {
            date: at.date,
            index,
        },
        ask: "Ja, Strafe löschen".into(),
        anchor: "strafen".into(),
        message: format!("Strafe gelöscht: {what}."),
        key: korrektur_key("strafe-loeschen", fine, 0),
    };
    correct(reply, &user.username, &at, &form, correction).await
}
