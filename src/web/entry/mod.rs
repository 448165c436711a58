//! A night's entry, as one concept: the secretary's night page (`night`) and its forms (`presence`,
//! `round`, `fines`, `closing`), the one reading of a typed round under all of them
//! (`round_input`), the paper Spielberichtsbogen (`bogen`), the scorer links of a table
//! (`scorer`), the nights planned ahead (`termine`), and the Schockbesteck (a Runde played live, Wurfrunde by Wurfrunde: `besteck`).

pub mod besteck;
pub mod bogen;
pub mod closing;
pub mod fines;
pub mod night;
pub mod presence;
pub mod round;
pub mod round_input;
pub mod scorer;
pub mod serie;
pub mod termine;

use super::kit::{Guard, Routes};

/// The routes of this room.
pub fn routes() -> Routes {
    const NIGHT: &str = "/verwaltung/abend/{date}";
    const TERMIN: &str = "/verwaltung/termine/{id}";
    Routes::new()
        .get(Guard::Secretary, "/verwaltung/termine", termine::get)
        .post(Guard::Secretary, "/verwaltung/termine", termine::plan)
        .get(Guard::Secretary, "/verwaltung/termine/serie", serie::get)
        .post(Guard::Secretary, "/verwaltung/termine/serie", serie::post)
        .post(Guard::Secretary, TERMIN, termine::edit)
        .post(
            Guard::Secretary,
            "/verwaltung/termine/{id}/absagen",
            termine::cancel,
        )
        .post(
            Guard::Secretary,
            "/verwaltung/termine/{id}/ansetzen",
            termine::revive,
        )
        .post(
            Guard::Secretary,
            "/verwaltung/termine/{id}/beginnen",
            termine::start,
        )
        .post(
            Guard::Secretary,
            "/verwaltung/termine/{id}/antwort",
            termine::answer,
        )
        .get(Guard::Secretary, NIGHT, night::get)
        .post(
            Guard::Secretary,
            "/verwaltung/abend/{date}/teilnehmer",
            presence::post,
        )
        .post(
            Guard::Secretary,
            "/verwaltung/abend/{date}/nachzuegler",
            presence::late,
        )
        .post(
            Guard::Secretary,
            "/verwaltung/abend/{date}/runde",
            round::post,
        )
        .post(
            Guard::Secretary,
            "/verwaltung/abend/{date}/runde/{table}/{number}/loeschen",
            round::remove,
        )
        .post(
            Guard::Secretary,
            "/verwaltung/abend/{date}/runde/{table}/{number}/verschieben",
            round::move_to,
        )
        .post(
            Guard::Secretary,
            "/verwaltung/abend/{date}/strafe",
            fines::post,
        )
        .post(
            Guard::Secretary,
            "/verwaltung/abend/{date}/strafe/{fine}/bezahlt",
            fines::paid,
        )
        .post(
            Guard::Secretary,
            "/verwaltung/abend/{date}/strafe/{fine}/loeschen",
            fines::remove,
        )
        .post(
            Guard::Secretary,
            "/verwaltung/abend/{date}/abschliessen",
            closing::close,
        )
        .post(
            Guard::Secretary,
            "/verwaltung/abend/{date}/oeffnen",
            closing::reopen,
        )
        .post(
            Guard::Secretary,
            "/verwaltung/abend/{date}/loeschen",
            closing::remove,
        )
        .merge(bogen::routes())
        .merge(scorer::routes())
        .merge(besteck::routes())
}
