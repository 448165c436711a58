//! Unit tests of `src/sheet.rs`.
