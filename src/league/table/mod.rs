//! The table (league.md §2–§4, §7): every player's totals after each night (`running`), the
//! league table as of a date with D.Wert, Liga and rank (`standings`), a player's season and a
//! night night by night (`nights`), movement and Liga-Fortschritt (`progress`), and the Schock
//! Outs, Hand-Outs and Julen of a night for the live board (`moments`), and what the last night
//! can still bring (`scenario`, issue 39.1). Names only the model.
pub mod moments;
pub mod nights;
pub mod progress;
pub mod running;
pub mod scenario;
pub mod standings;
