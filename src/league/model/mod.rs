//! The season as data (league.md, interchange.md season file): the file's shape (`file`), its
//! rule set and Ligen (`rules`), the checked season (`season`), the one check of a file and its
//! conversion back (`check`), the draw by lot (`draw`), players' names (`names`), refusals with
//! their location (`error`) and German formats (`format`). Names no other room of the league.
pub mod check;
pub mod draw;
pub mod error;
pub mod file;
pub mod format;
pub mod names;
pub mod rules;
pub mod season;
