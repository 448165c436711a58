//! The session store: tower-sessions' SQLite store, except that a full disk does not turn every
//! page of a logged-in account into an error (issue 15.1).
//!
//! A logged-in session is saved after every request (the idle time slides). When the disk is
//! full that save fails; tower-sessions then answers 500 instead of the page — the German
//! "Speicher voll, nichts gespeichert" of a refused round, or any page at all. [`Tolerant`] lets
//! such a save pass: the session stays as it was stored last (its expiry not moved, a flash
//! message of that request lost), and the page is answered. Every other error, and a new
//! session (a login) on a full disk, stays an error.

use async_trait::async_trait;
use tower_sessions::session::{Id, Record};
use tower_sessions::session_store::{self, ExpiredDeletion, SessionStore};

/// Whether a store error is SQLite's "database or disk is full" (SQLITE_FULL, code 13). The
/// SQLite store gives its errors as text only (`Error::Backend`), as sqlx formats them.
pub fn is_disk_full(e: &session_store::Error) -> bool {
    match e {
        session_store::Error::Backend(text) => {
            text.contains("(code: 13)") || text.contains("database or disk is full")
        }
        _ => false,
    }
}

/// A session store `S` whose saves on a full disk are let pass (logged); see the module.
#[derive(Debug, Clone)]
pub struct Tolerant<S>(pub S);

#[async_trait]
impl<S: SessionStore + Clone> SessionStore for Tolerant<S> {
    async fn create(&self, record: &mut Record) -> session_store::Result<()> {
        self.0.create(record).await
    }

    async fn save(&self, record: &Record) -> session_store::Result<()> {
        match self.0.save(record).await {
            Err(e) if is_disk_full(&e) => {
                tracing::warn!(error = %e, "Speicher voll: Sitzung nicht gespeichert, Seite trotzdem beantwortet");
                Ok(())
            }
            other => other,
        }
    }

    async fn load(&self, id: &Id) -> session_store::Result<Option<Record>> {
        self.0.load(id).await
    }

    async fn delete(&self, id: &Id) -> session_store::Result<()> {
        self.0.delete(id).await
    }
}

#[async_trait]
impl<S: ExpiredDeletion + Clone> ExpiredDeletion for Tolerant<S> {
    async fn delete_expired(&self) -> session_store::Result<()> {
        self.0.delete_expired().await
    }
}

#[cfg(test)]
mod tests;
