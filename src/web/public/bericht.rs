//! "Bericht teilen" (issue 11.5): the night report as a page to copy (a read-only box to select:
//! no script, by the templates' house rule) or to open in WhatsApp
//! (`/abend/{date}/bericht`) and as plain text (`/abende/{date}/bericht.txt`, `text/plain;
//! charset=utf-8`). The text is `league::history::report::night_report`; nothing is sent by the server.
//! The report links the night on the club's public address (`--public-url`, else the host the
//! reader used: [`PublicAddress`]), so neither answer is
//! kept by the page cache (`Cache-Control: no-store`); the open fines are left out when the club
//! keeps its money private (for every reader: the text goes to the club's chat).

use askama::Template;
use askama_web::WebTemplate;
use axum::http::header;
use axum::response::{IntoResponse, Response};

use crate::league::history::report::{night_report, Money};
use crate::league::model::format::date_de;
use crate::league::money::reminder;
use crate::web::kit::links::PublicAddress;
use crate::web::kit::AtNight;
use crate::web::kit::{AppError, Guard, Layout, Routes};

/// The routes of this feature.
pub fn routes() -> Routes {
    Routes::new()
        .get(Guard::Public, "/abend/{date}/bericht", page)
        .get(Guard::Public, "/abende/{date}/bericht.txt", text)
}

/// The report of `at` for this reader. Errors: none but an unknown night (404).
fn report(address: &PublicAddress, at: &AtNight) -> Result<String, AppError> {
    // The text is for the club's chat, read by everybody: with private money it names no open
    // fines, also when a logged-in secretary makes it (fresh-user trial).
    let money = if at.snapshot.money_visible(false) {
        Money::Shown
    } else {
        Money::Private
    };
    let link = address.link(&format!("/abend/{}", at.date));
    night_report(&at.view.season, at.date, &link, money).ok_or(AppError::NotFound)
}

/// The page "Bericht teilen".
#[derive(Template, WebTemplate)]
#[template(path = "public/bericht.html")]
struct BerichtPage {
    layout: Layout,
    date: String,
    iso_date: String,
    closed: bool,
    text: String,
    whatsapp: String,
    /// Rows of the text box (the text's lines as wrapped on a phone).
    lines: usize,
}

async fn page(address: PublicAddress, layout: Layout, at: AtNight) -> Result<Response, AppError> {
    let text = report(&address, &at)?;
    let layout = layout.with_picture(
        crate::web::public::bild::night_picture(&at.snapshot, at.date),
        &format!("/bild/abend/{}", at.date),
    );
    Ok((
        [(header::CACHE_CONTROL, "no-store")],
        BerichtPage {
            date: date_de(at.date),
            iso_date: at.date.to_string(),
            closed: at.night().closed,
            whatsapp: reminder::whatsapp(&text),
            // a phone's box is about 34 characters wide: no line hidden behind a scroll bar
            lines: text
                .lines()
                .map(|l| l.chars().count() / 34 + 1)
                .sum::<usize>()
                + 1,
            text,
            layout,
        },
    )
        .into_response())
}

async fn text(address: PublicAddress, at: AtNight) -> Result<Response, AppError> {
    let text = report(&address, &at)?;
    Ok((
        [
            (header::CONTENT_TYPE, "text/plain; charset=utf-8"),
            (header::CACHE_CONTROL, "no-store"),
        ],
        text,
    )
        .into_response())
}

#[cfg(test)]
mod tests {
    use crate::league::money::reminder::percent_encode;

    #[test]
    fn percent_encoding() {
        for (input, expected) in [
            ("Anna 1 €", "Anna%201%20%E2%82%AC"),
            ("a-b_c.d~", "a-b_c.d~"),
            ("Zeile\nZwei & ?=#", "Zeile%0AZwei%20%26%20%3F%3D%23"),
            ("Müller", "M%C3%BCller"),
        ] {
            assert_eq!(percent_encode(input), expected, "{input}");
        }
    }
}
