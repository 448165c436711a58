//! Schockerliga: the league's rules (`league`), the dice game (`rules`), storage (`db`) and the web app (`web`).
pub mod league;
pub mod rules;
