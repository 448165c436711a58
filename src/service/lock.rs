//! The OS lock on the database file (`flock` through `fs4`, issue 23.4): every command of this
//! program takes it shared while it has the database open; `migrate` and `restore` need it
//! alone. A backup reads under the shared lock; an upgrade takes it alone.

use std::fs::File;
use std::path::Path;

use super::ServiceError;

/// The OS lock on a database file; released when dropped.
#[derive(Debug)]
pub struct DbLock {
    file: File,
    exclusive: bool,
}

impl DbLock {
    /// Whether this process holds the file alone.
    pub fn is_exclusive(&self) -> bool {
        self.exclusive
    }

    /// Turns the lock held alone into a shared one (after a migration, for serving).
    pub fn share(&mut self) -> Result<(), ServiceError> {
        fs4::FileExt::try_lock_shared(&self.file).map_err(|e| {
            ServiceError::refused(format!("Sperre der Datenbank nicht änderbar: {e}"))
        })?;
        self.exclusive = false;
        Ok(())
    }
}

/// The message when another process holds the database.
fn held_elsewhere(path: &Path) -> ServiceError {
    ServiceError::refused(format!(
        "Ein anderer Prozess hält die Datenbank {} geöffnet (läuft noch ein Server?): \
         erst ihn beenden (z. B. systemctl stop schockerliga), dann erneut versuchen.",
        path.display()
    ))
}

/// Takes the lock on the database file at `path` shared with other readers and servers.
/// Refused (German) while a `migrate` or `restore` holds it alone.
pub fn lock_shared(path: &Path) -> Result<DbLock, ServiceError> {
    let file = open_for_lock(path)?;
    match fs4::FileExt::try_lock_shared(&file) {
        Ok(()) => Ok(DbLock {
            file,
            exclusive: false,
        }),
        Err(fs4::TryLockError::WouldBlock) => Err(ServiceError::refused(format!(
            "Die Datenbank {} wird gerade umgestellt oder wiederhergestellt: bitte warten und \
             erneut versuchen.",
            path.display()
        ))),
        Err(fs4::TryLockError::Error(e)) => Err(lock_failed(path, &e)),
    }
}

/// Takes the lock on the database file at `path` alone. Refused (German) while any other
/// process of this program (a server, another command) holds it.
pub fn lock_exclusive(path: &Path) -> Result<DbLock, ServiceError> {
    let file = open_for_lock(path)?;
    match fs4::FileExt::try_lock(&file) {
        Ok(()) => Ok(DbLock {
            file,
            exclusive: true,
        }),
        Err(fs4::TryLockError::WouldBlock) => Err(held_elsewhere(path)),
        Err(fs4::TryLockError::Error(e)) => Err(lock_failed(path, &e)),
    }
}

fn open_for_lock(path: &Path) -> Result<File, ServiceError> {
    File::open(path).map_err(|e| {
        ServiceError::refused(format!("Datenbank {} nicht lesbar: {e}", path.display()))
    })
}

fn lock_failed(path: &Path, e: &std::io::Error) -> ServiceError {
    ServiceError::refused(format!("Datenbank {} nicht sperrbar: {e}", path.display()))
}
