//! What spans nights and seasons, read off the table and the money: careers, the all-time table
//! and the Ehrentafel (`career`), curves of the season (`curves`), records and streaks
//! (`records`), the Glücksfaktor of the rounds played in the Schockbesteck (`glueck`), a
//! night's report (`report`), the suggested doubles of names (`doubles`) and a player's year in
//! review (`rueckblick`, issue 39.2). Names the model,
//! the table, the plan, the money and the sheet.
pub mod career;
pub mod curves;
pub mod doubles;
pub mod glueck;
pub mod records;
pub mod report;
pub mod rueckblick;

#[cfg(test)]
mod tests;
