//! A night's entry, as one concept: the secretary's night page (presence and draw, the round
//! form, fines, late arrivals, closing, corrections), the paper Spielberichtsbogen, the scorer
//! links of a table, and the Schockbesteck (a Runde played live, Wurfrunde by Wurfrunde).

pub mod besteck;
pub mod bogen;
pub mod night;
pub mod scorer;

use super::kit::Routes;

/// The routes of this room.
pub fn routes() -> Routes {
    night::routes()
        .merge(bogen::routes())
        .merge(scorer::routes())
        .merge(besteck::routes())
}
