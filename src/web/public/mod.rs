//! What everybody reads, without an account: the table, the player and career pages, the nights,
//! the all-time table, Ehrentafel and Rekorde, the live board, the night report, the rules, the
//! Schiedsrichter, "Das bin ich", the planned nights with their Zusagen (`termine`), the
//! calendar (`kalender`), a player's own card (`karte`), the pictures a pasted link shows
//! (`bild`), what the last night can still bring (`szenario`), a player's year in review (`rueckblick`), and the static files.

pub mod abende;
pub mod assets;
pub mod bench;
pub mod bericht;
pub mod bild;
pub mod chart;
pub mod history;
pub mod ich;
pub mod kalender;
pub mod karte;
pub mod live;
pub mod live_push;
pub mod regeln;
pub mod rueckblick;
pub mod schiedsrichter;
pub mod szenario;
pub mod table;
pub mod termine;

use super::kit::Routes;

/// The routes of this room.
pub fn routes() -> Routes {
    assets::routes()
        .merge(table::routes())
        .merge(abende::routes())
        .merge(history::routes())
        .merge(ich::routes())
        .merge(schiedsrichter::routes())
        .merge(regeln::routes())
        .merge(live::routes())
        .merge(bericht::routes())
        .merge(bild::routes())
        .merge(bench::routes())
        .merge(termine::routes())
        .merge(kalender::routes())
        .merge(karte::routes())
        .merge(szenario::routes())
        .merge(rueckblick::routes())
}
