//! The router tests: the whole app (`web::build_app` on a temporary database) driven with
//! `tower::ServiceExt::oneshot` through one helper, [`app::TestApp`]. A few also run the binary
//! on the app's database to compare the command line with the web.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

#[path = "../common/mod.rs"]
mod common;

mod app;

mod api;
mod bar;
mod besteck;
mod bild;
mod cache;
mod cards;
mod closed_nights;
mod club;
mod corrections;
mod doppelte;
mod entry;
mod gezahlt;
mod glueck;
mod guthaben;
mod harden;
mod hostile;
mod kassenbuch;
mod kassenjournal;
mod kassenpruefer;
mod kontoauszug;
mod late_arrival;
mod merge;
mod merge_file;
mod merge_later;
mod money;
mod offline;
mod once;
mod page_cache;
mod planned;
mod players;
mod regeln;
mod rueckblick;
mod schiedsrichter;
mod scorer_links;
mod security;
mod serie;
mod spielt;
mod szenario;
mod treasurer;
mod wurfrunde_api;
mod year_end;

// The game night: live board, night report, paper sheet, rules form (issue 11.3, 11.5–11.7).
mod bericht;
mod bogen;
mod live;
mod live_push;
mod saisonregeln;

// The club's history from its spreadsheet (issue 24.2).
mod einlesen;
