//! The nights ahead: nights planned with the players' Zusagen (`planned`) and the nights as an
//! iCalendar file (`calendar`). Names only the model.
pub mod calendar;
pub mod planned;
