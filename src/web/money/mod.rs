//! Money (league.md §5–§8): the public Kasse (`kasse`) and Jahresabschluss (`abschluss`) of a
//! season, the CSV exports (`csv`), the Strafenkatalog and fines (`strafen`), the Kassenwart's
//! payments and netting (`payments`), the Jahresbeitrag booked by its day (`fee`, from the season
//! page too), a player's money card with its GiroCode (`card`), and the players' own card links with
//! the Kassenwart's reminders (`karten`), the Kassenbuch and the Kassenbericht (`kasse::buch`,
//! `kasse::bericht`, issue 35), and the Kassenprüfer's *Geprüft* (`abschluss::geprueft`).
//! The money pages of the Verwaltung are read under `Guard::MoneyRead` (a Kassenprüfer too) and
//! changed under `Guard::Money` (never by him). Everything reads the league's
//! snapshot; changes go through the write pipeline.

pub mod abschluss;
pub mod card;
pub mod csv;
pub mod fee;
pub mod karten;
pub mod kasse;
pub mod payments;
pub mod strafen;

use chrono::NaiveDate;

use crate::service::ServiceError;
use crate::web::kit::{Guard, Routes};

/// The routes of this room.
pub fn routes() -> Routes {
    Routes::new()
        .get(Guard::Public, "/kasse", kasse::current)
        .get(Guard::Public, "/saison/{year}/kasse", kasse::get)
        .get(Guard::Public, "/saison/{year}/abschluss", abschluss::get)
        .get(Guard::Public, "/saison/{year}/tabelle.csv", csv::table)
        .get(Guard::Public, "/saison/{year}/kasse.csv", csv::kasse)
        .get(Guard::Public, "/saison/{year}/abende.csv", csv::nights)
        .get(
            Guard::MoneyRead,
            "/verwaltung/saison/{year}/strafen",
            strafen::get,
        )
        .post(
            Guard::Money,
            "/verwaltung/saison/{year}/strafen",
            strafen::set_kind,
        )
        .post(
            Guard::Money,
            "/verwaltung/saison/{year}/strafen/loeschen",
            strafen::remove_kind,
        )
        .post(
            Guard::Money,
            "/verwaltung/saison/{year}/strafe",
            strafen::book_fine,
        )
        .post(
            Guard::Money,
            "/verwaltung/strafe/{id}/bezahlt",
            strafen::mark_paid,
        )
        .post(
            Guard::Money,
            "/verwaltung/strafe/{id}/offen",
            strafen::mark_open,
        )
        .get(Guard::MoneyRead, "/verwaltung/kasse", payments::start)
        .get(
            Guard::MoneyRead,
            "/verwaltung/saison/{year}/kassenbuch",
            kasse::buch::get,
        )
        .post(
            Guard::Money,
            "/verwaltung/saison/{year}/kassenbuch",
            kasse::buch::book,
        )
        .post(
            Guard::Money,
            "/verwaltung/saison/{year}/kassenbuch/storno",
            kasse::buch::storno,
        )
        .post(
            Guard::Money,
            "/verwaltung/saison/{year}/kassenbuch/kassensturz",
            kasse::buch::sturz,
        )
        .get(
            Guard::MoneyRead,
            "/verwaltung/saison/{year}/kassenbericht",
            kasse::bericht::get,
        )
        .get(
            Guard::MoneyRead,
            "/verwaltung/saison/{year}/kassenbericht.csv",
            kasse::bericht::csv,
        )
        .get(
            Guard::MoneyRead,
            "/verwaltung/saison/{year}/karten",
            karten::get,
        )
        .post(
            Guard::Money,
            "/verwaltung/saison/{year}/karten/{id}/link",
            karten::create,
        )
        .get(
            Guard::MoneyRead,
            "/verwaltung/saison/{year}/karten/{id}/link",
            karten::show,
        )
        .post(
            Guard::Money,
            "/verwaltung/saison/{year}/karten/{id}/widerrufen",
            karten::revoke,
        )
        .post(
            Guard::Money,
            "/verwaltung/saison/{year}/karten/{id}/erinnern",
            karten::remind,
        )
        .get(
            Guard::MoneyRead,
            "/verwaltung/saison/{year}/zahlungen",
            payments::get,
        )
        .get(
            Guard::MoneyRead,
            "/verwaltung/saison/{year}/kontoauszug",
            payments::kontoauszug::get,
        )
        .post(
            Guard::Money,
            "/verwaltung/saison/{year}/kontoauszug",
            payments::kontoauszug::post,
        )
        .post(
            Guard::Money,
            "/verwaltung/saison/{year}/kontoauszug/buchen",
            payments::kontoauszug::confirm,
        )
        .post(
            Guard::Money,
            "/verwaltung/saison/{year}/zahlung",
            payments::book_payment,
        )
        .post(
            Guard::Money,
            "/verwaltung/saison/{year}/zahlungen/beitrag/{id}",
            payments::book_fee,
        )
        .post(
            Guard::Money,
            "/verwaltung/saison/{year}/meldung/{id}/buchen",
            payments::book_report,
        )
        .post(
            Guard::Money,
            "/verwaltung/saison/{year}/meldung/{id}/nicht-gefunden",
            payments::report_not_found,
        )
        .post(
            Guard::Money,
            "/verwaltung/saison/{year}/guthaben/{id}",
            payments::settle_credit,
        )
        .post(
            Guard::Money,
            "/verwaltung/saison/{year}/verrechnung",
            payments::net,
        )
        .post(
            Guard::Money,
            "/verwaltung/saison/{year}/verrechnung/aufheben",
            payments::undo_net,
        )
        .post(
            Guard::Audit,
            "/verwaltung/saison/{year}/geprueft",
            abschluss::geprueft::post,
        )
}

/// A payment day as typed (`YYYY-MM-DD`; empty: `today`, the club's date). `Err` is the German
/// refusal.
pub fn paid_on(typed: &str, today: NaiveDate) -> Result<NaiveDate, ServiceError> {
    let text = typed.trim();
    if text.is_empty() {
        return Ok(today);
    }
    NaiveDate::parse_from_str(text, "%Y-%m-%d")
        .map_err(|_| ServiceError::refused(format!("bezahlt am: \"{text}\" ist kein Datum")))
}
