//! The JSON API (interchange.md): standings, payouts, players and careers (`seasons`), one
//! Wurfrunde evaluated (`wurfrunde`), and a secretary's program entering rounds (`round`).

pub mod round;
pub mod seasons;
pub mod wurfrunde;

use super::kit::Routes;

/// The routes of this room.
pub fn routes() -> Routes {
    seasons::routes()
        .merge(wurfrunde::routes())
        .merge(round::routes())
}
