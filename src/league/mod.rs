//! The league model (league.md): pure code, no web or SQL. The season file's shape (`file`), the
//! season's rule set (`rules`), the checked season (`season`), and the computations built on them:
//! the table (`standings`), the year-end accounts (`payouts`), per-player and per-night views
//! (`history`), the treasurer's Kasse and Jahresabschluss (`kasse`) and German number formats (`format`);
//! every change of a season as one value (`change`: `Change`, `Season::apply`) and the draw (`draw`);
//! the players' side: movement and Liga-Fortschritt (`progress`), curves (`curves`), careers, the
//! all-time table and the Ehrentafel (`career`), records and streaks (`records`), the Glücksfaktor
//! of the rounds played in the Schockbesteck (`glueck`); nights recorded as totals per player
//! (`totals`) and the club's spreadsheet of them (`sheet`); nights planned ahead with their
//! Zusagen (`planned`) and the nights as an iCalendar file (`calendar`).
pub mod change;
pub mod history;
pub mod model;
pub mod money;
pub mod plan;
pub mod sheet;
pub mod table;
#[cfg(test)]
pub(crate) mod testkit;

pub use change::{Change, Korrektur};
pub use model::error::{EntryError, Location};
pub use model::format::{format_cents, format_dwert};
pub use model::names::{check_name_chars, name_key, normalize_name};
pub use model::rules::{fee_cents, Liga};
pub use model::season::{
    row_points, EndstandRow, Fine, Night, Player, Round, Season, Table, TotalsRow,
};
pub use money::payouts::{largest_remainder, payouts, ExactShare, LuckyLooser, Payouts, Place};
pub use table::nights::{
    night_summary, player_history, NightPlayer, NightSummary, PlayerHistory, PlayerNight,
    RoundLine, TableSummary,
};
pub use table::standings::{check_as_of, standings, DWert, StandingRow, Standings};
