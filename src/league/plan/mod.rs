//! The nights ahead: nights planned with the players' Zusagen (`planned`) and the nights as an
//! iCalendar file (`calendar`), the dates of a series of nights (`series`) and who still plays
//! (`status`: the order of the attendance and Zusage lists). Names only the model.
pub mod calendar;
pub mod planned;
pub mod series;
pub mod status;
