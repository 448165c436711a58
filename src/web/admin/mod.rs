//! The Verwaltung: seasons, players and nights (`season`), a season's rules (`saisonregeln`),
//! accounts and reset links (`accounts`), the audit log (`audit`), the backups (`backups`), the
//! club's settings and time zone (`settings`), the club's old seasons from its spreadsheet and the
//! exports (`einlesen`), login, logout and the first setup (`login`), and each account's own password
//! (`password`).

pub mod accounts;
pub mod audit;
pub mod backups;
pub mod einlesen;
pub mod login;
pub mod merge;
pub mod password;
pub mod saisonregeln;
pub mod season;
pub mod settings;

use super::kit::{Guard, Routes};

/// The routes of this room.
pub fn routes() -> Routes {
    login::routes()
        .merge(season::routes())
        .merge(saisonregeln::routes())
        .merge(password::routes())
        .merge(merge::routes())
        .get(Guard::Admin, "/verwaltung/konten", accounts::get)
        .post(Guard::Admin, "/verwaltung/konten", accounts::post)
        .post(
            Guard::Admin,
            "/verwaltung/konten/{id}/sperren",
            accounts::disable,
        )
        .post(
            Guard::Admin,
            "/verwaltung/konten/{id}/entsperren",
            accounts::enable,
        )
        .post(
            Guard::Admin,
            "/verwaltung/konten/{id}/zuruecksetzen",
            accounts::reset_link,
        )
        .get(Guard::Admin, "/verwaltung/protokoll", audit::get)
        .get(Guard::Secretary, "/verwaltung/einlesen", einlesen::get)
        .post(Guard::Secretary, "/verwaltung/einlesen", einlesen::post)
        .post(
            Guard::Secretary,
            "/verwaltung/einlesen/bestaetigen",
            einlesen::confirm,
        )
        .get(
            Guard::Secretary,
            "/verwaltung/saison/{year}/tabelle.csv",
            einlesen::season_sheet,
        )
        .get(Guard::Secretary, "/verwaltung/verein.json", einlesen::club)
        .get(Guard::Admin, backups::PAGE, backups::get)
        .post(Guard::Admin, backups::PAGE, backups::post)
        .get(
            Guard::Admin,
            "/verwaltung/sicherung/{name}",
            backups::download,
        )
        .get(Guard::Admin, "/verwaltung/einstellungen", settings::get)
        .post(Guard::Admin, "/verwaltung/einstellungen", settings::post)
        .post(
            Guard::Admin,
            "/verwaltung/einstellungen/zeitzone",
            settings::post_timezone,
        )
}
