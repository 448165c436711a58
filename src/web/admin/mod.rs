//! The Verwaltung: seasons, players and nights (`season`), a season's rules (`saisonregeln`),
//! accounts and reset links (`accounts`), the audit log (`audit`), the club's settings
//! (`settings`), login, logout and the first setup (`login`), and each account's own password
//! (`password`).

pub mod accounts;
pub mod audit;
pub mod login;
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
        .get(Guard::Admin, "/verwaltung/einstellungen", settings::get)
        .post(Guard::Admin, "/verwaltung/einstellungen", settings::post)
}
