//! The Verwaltung: seasons, players and nights (`season`), a season's rules (`saisonregeln`),
//! accounts, reset links, the audit log and the settings (`accounts`), login, logout and the first
//! setup (`login`), and each account's own password (`password`).

pub mod accounts;
pub mod login;
pub mod password;
pub mod saisonregeln;
pub mod season;

use super::kit::Routes;

/// The routes of this room.
pub fn routes() -> Routes {
    login::routes()
        .merge(season::routes())
        .merge(saisonregeln::routes())
        .merge(accounts::routes())
        .merge(password::routes())
}
