//! The nights ahead: nights planned with the players' Zusagen (`planned`) and the nights as an
//! iCalendar file (`calendar`), and the dates of a series of nights (`series`). Names only the
//! model.
pub mod calendar;
pub mod planned;
pub mod series;
