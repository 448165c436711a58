//! Money (league.md §5–§8): the Kasse, the Jahresabschluss with its payouts, the CSV exports, the
//! Strafenkatalog and fines, and the Kassenwart's pages (payments, fees, netting).

pub mod kasse;
pub mod treasurer;

use super::kit::Routes;

/// The routes of this room.
pub fn routes() -> Routes {
    kasse::routes().merge(treasurer::routes())
}
