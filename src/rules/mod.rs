//! The Schocken rules engine (schocken-rules.md).
