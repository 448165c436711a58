//! Schockerliga: the league's rules (`league`), the dice game (`rules`), storage (`db`), the
//! application layer every change and read goes through (`service`), accounts (`auth`) and the
//! web app (`web`).
pub mod auth;
pub mod db;
pub mod demo;
pub mod league;
pub mod rules;
pub mod service;
pub mod sheet;
pub mod web;
