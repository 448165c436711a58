//! The files of a database beside it (issue 31.2): who owns them and whether this process may
//! write them. A command run as another user than the database's owner (`sudo schockerliga …`
//! as root on the service's database) would leave files the service cannot write (the login
//! sessions' `-sitzungen`: "attempt to write a readonly database", a restart every 5 s); every
//! command that writes is refused then, naming the owner and the right command
//! ([`check_owner`]). `serve` names any file of the database it cannot write, with its owner
//! ([`check_writable`]).

use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};

use nix::unistd::{Uid, User};

use super::ServiceError;
use crate::db;

/// The name of the user `uid` (`schockerliga`), else the number (`65534`).
pub fn user_name(uid: u32) -> String {
    match User::from_uid(Uid::from_raw(uid)) {
        Ok(Some(user)) => user.name,
        _ => uid.to_string(),
    }
}

/// The user this process runs as (effective uid) and its name.
pub fn me() -> (u32, String) {
    let uid = nix::unistd::geteuid().as_raw();
    (uid, user_name(uid))
}

/// `path` made absolute (against the working directory), for messages and printed commands.
pub fn absolute(path: &Path) -> PathBuf {
    std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf())
}

/// `text` as one word of a POSIX shell command line: as it is when it holds only letters,
/// digits and `/._-+:@%,=`, else in single quotes.
pub fn shell_word(text: &str) -> String {
    let plain = !text.is_empty()
        && text
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "/._-+:@%,=".contains(c));
    if plain {
        text.to_string()
    } else {
        format!("'{}'", text.replace('\'', r"'\''"))
    }
}

/// The start of a command line on the database at `path` as the user `owner`:
/// `sudo -u schockerliga schockerliga --database /var/lib/schockerliga/schockerliga.db` (no
/// `sudo` when `owner` is `None`).
pub fn command_as(owner: Option<&str>, path: &Path) -> String {
    let database = shell_word(&absolute(path).to_string_lossy());
    let program = program();
    match owner {
        Some(owner) => format!(
            "sudo -u {} {program} --database {database}",
            shell_word(owner)
        ),
        None => format!("{program} --database {database}"),
    }
}

/// How a command of this program is called from a shell, for the commands the pages and
/// refusals print ([`program_word`] of this process's executable and `PATH`).
pub fn program() -> String {
    program_word(
        std::env::current_exe().ok().as_deref(),
        std::env::var_os("PATH").as_deref(),
    )
}

/// `schockerliga` when the executable `exe` is called so and its folder is on `path` (the
/// Debian package's `/usr/bin`), else its full path, shell-quoted (a server started with
/// `cargo run --release` runs `…/target/release/schockerliga`, which no shell finds by name:
/// fifth trial); `schockerliga` too when `exe` is unknown or another program (a test harness
/// serving the league in-process).
pub fn program_word(exe: Option<&Path>, path: Option<&std::ffi::OsStr>) -> String {
    const NAME: &str = "schockerliga";
    let Some(exe) = exe.filter(|e| e.file_name().is_some_and(|n| n == NAME)) else {
        return NAME.to_string();
    };
    let folder = exe
        .parent()
        .map(|f| f.canonicalize().unwrap_or(f.to_path_buf()));
    let on_path = path.is_some_and(|p| {
        std::env::split_paths(p).any(|dir| Some(dir.canonicalize().unwrap_or(dir)) == folder)
    });
    if on_path {
        NAME.to_string()
    } else {
        shell_word(&exe.to_string_lossy())
    }
}

/// The command that adds the first admin account to the database at `path` of a server running
/// as the user `uid` called `name`: `schockerliga --database /abs/liga.db user add NAME --role
/// admin`, with `sudo -u NAME` first when the server runs as a service's own user (not root, and
/// a system uid below 1000 or started by systemd, `under_systemd`), as the Debian package does.
pub fn first_admin_command(path: &Path, uid: u32, name: &str, under_systemd: bool) -> String {
    let service_user = uid != 0 && (uid < 1000 || under_systemd);
    format!(
        "{} user add NAME --role admin",
        command_as(service_user.then_some(name), path)
    )
}

impl super::League {
    /// The command line that adds the first admin account to this league's database, for the
    /// start page ([`first_admin_command`] for this process's user; systemd is seen by its
    /// `INVOCATION_ID`).
    pub fn first_admin_command(&self) -> String {
        let (uid, name) = me();
        let systemd = std::env::var_os("INVOCATION_ID").is_some();
        first_admin_command(&self.db().path, uid, &name, systemd)
    }
}

/// Whether a command running as `me` would leave files another user's server cannot write: the
/// database (when it `exists`) or its directory belongs to `owner` ≠ `me`, except a directory
/// with the sticky bit (`mode` & 0o1000, a shared place like `/tmp` where a new database is the
/// creator's own).
pub fn foreign(owner: u32, mode: u32, exists: bool, me: u32) -> bool {
    owner != me && (exists || mode & 0o1000 == 0)
}

/// Refuses (German) a command that writes the database at `path` (or, when there is none yet,
/// creates it in its directory) while this process runs as another user than the file's (the
/// directory's) owner: the files it would leave (`-sitzungen`, a new database) would belong to
/// this user, and the owner's server could not write them. The message names the owner and
/// the command to run instead (`sudo -u schockerliga schockerliga --database … …`). A new
/// database in a shared directory with the sticky bit (`/tmp`) is no other user's: allowed
/// ([`foreign`]).
pub fn check_owner(path: &Path) -> Result<(), ServiceError> {
    let (uid, name) = me();
    let (what, at) = if path.exists() {
        ("Die Datenbank", absolute(path))
    } else {
        let dir = absolute(path)
            .parent()
            .map(Path::to_path_buf)
            .unwrap_or_else(|| PathBuf::from("."));
        ("Das Verzeichnis der Datenbank", dir)
    };
    let meta = std::fs::metadata(&at)
        .map_err(|e| ServiceError::refused(format!("{} nicht lesbar: {e}", at.display())))?;
    if !foreign(meta.uid(), meta.mode(), path.exists(), uid) {
        return Ok(());
    }
    let owner = user_name(meta.uid());
    Err(ServiceError::refused(format!(
        "{what} {} gehört dem Benutzer {owner}, dieser Befehl läuft als {name}: er würde Dateien \
         anlegen, die der Server des Benutzers {owner} nicht schreiben kann. Nichts geändert. \
         Bitte als {owner} aufrufen: {} …",
        at.display(),
        command_as(Some(&owner), path)
    )))
}

/// [`check_owner`] of the database at `database` for a command that writes the file `target`
/// (`backup`): only when `target` lies in the database's own directory, where a file of
/// another user than the database's owner must not be left; elsewhere anything goes.
pub fn check_owner_beside(database: &Path, target: &Path) -> Result<(), ServiceError> {
    let dir_of = |p: &Path| {
        let abs = absolute(p);
        let dir = abs.parent().map(Path::to_path_buf).unwrap_or(abs);
        dir.canonicalize().unwrap_or(dir)
    };
    if dir_of(database) == dir_of(target) {
        return check_owner(database);
    }
    Ok(())
}

/// The files of the database at `path` that a server writes: the database, its journals
/// (`-wal`, `-shm`, and `-journal` while SQLite rolls back), the login sessions' file and its
/// journals.
pub fn companions(path: &Path) -> Vec<PathBuf> {
    let sessions = db::sessions_path(path);
    let mut all = Vec::new();
    for base in [path.to_path_buf(), sessions] {
        for suffix in ["", "-wal", "-shm", "-journal"] {
            let mut name = base.as_os_str().to_os_string();
            name.push(suffix);
            all.push(PathBuf::from(name));
        }
    }
    all
}

/// Makes the database at `path` and its files ([`companions`]) private (0600) where a group or
/// everybody may read them (a database of a release before the files were made 0600, or copied
/// with `cp`: its account hashes readable by every local user; hostile run), saying so in the
/// log. Failures are logged, never fatal.
pub fn make_private(path: &Path) {
    use std::os::unix::fs::PermissionsExt;
    for file in companions(path) {
        let Ok(meta) = std::fs::metadata(&file) else {
            continue;
        };
        let mode = meta.permissions().mode() & 0o777;
        if mode & 0o077 == 0 {
            continue;
        }
        match std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o600)) {
            Ok(()) => tracing::warn!(
                "{} war für andere lesbar ({mode:o}): jetzt nur noch für ihren Besitzer lesbar (600)",
                file.display()
            ),
            Err(e) => tracing::warn!("{} bleibt {mode:o}: {e}", file.display()),
        }
    }
}

/// Checks, before serving, that this process may write the database at `path`: its directory
/// and every one of its files that exists ([`companions`]). Refused (German) naming the first
/// file that is not writable, its owner and how to mend it (`chown`).
pub fn check_writable(path: &Path) -> Result<(), ServiceError> {
    let (_, name) = me();
    let refuse = |file: &Path, e: &dyn std::fmt::Display| {
        let owner = std::fs::metadata(file)
            .map(|m| user_name(m.uid()))
            .unwrap_or_else(|_| "?".to_string());
        ServiceError::refused(format!(
            "Der Server (Benutzer {name}) kann nicht schreiben: {} gehört {owner} ({e}). Beheben: sudo chown {name}: {} (und keine Befehle als anderer Benutzer auf diese \
             Datenbank, siehe README).",
            file.display(),
            shell_word(&file.to_string_lossy())
        ))
    };
    let dir = absolute(path)
        .parent()
        .map(Path::to_path_buf)
        .unwrap_or_else(|| PathBuf::from("."));
    if let Err(e) = nix::unistd::access(&dir, nix::unistd::AccessFlags::W_OK) {
        return Err(refuse(&dir, &e));
    }
    for file in companions(path) {
        match std::fs::OpenOptions::new().write(true).open(&file) {
            Ok(_) => {}
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(e) => return Err(refuse(&file, &e)),
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_program_is_named_as_a_shell_finds_it() {
        let path = std::ffi::OsStr::new("/usr/local/bin:/usr/bin:/bin");
        // (executable, PATH, the word)
        let cases = [
            (Some("/usr/bin/schockerliga"), Some(path), "schockerliga"),
            (
                Some("/home/anna/liga/target/release/schockerliga"),
                Some(path),
                "/home/anna/liga/target/release/schockerliga",
            ),
            (
                Some("/home/anna/Meine Liga/target/release/schockerliga"),
                None,
                "'/home/anna/Meine Liga/target/release/schockerliga'",
            ),
            (Some("/tmp/deps/router-3f9c"), Some(path), "schockerliga"),
            (None, Some(path), "schockerliga"),
        ];
        for (exe, path, want) in cases {
            assert_eq!(program_word(exe.map(Path::new), path), want, "{exe:?}");
        }
    }

    #[test]
    fn another_users_database_or_directory_is_foreign_but_a_sticky_shared_one_is_not() {
        // (owner, mode, exists, me, foreign)
        let cases = [
            (1000, 0o100600, true, 1000, false),
            (998, 0o100600, true, 0, true),
            (998, 0o40750, false, 0, true),
            (0, 0o41777, false, 1000, false),
            (0, 0o100600, true, 1000, true),
            (1000, 0o40755, false, 1000, false),
        ];
        for (owner, mode, exists, me, want) in cases {
            assert_eq!(
                foreign(owner, mode, exists, me),
                want,
                "{owner} {mode:o} {exists} {me}"
            );
        }
    }

    #[test]
    fn shell_words_are_quoted_only_when_needed() {
        let cases = [
            (
                "/var/lib/schockerliga/schockerliga.db",
                "/var/lib/schockerliga/schockerliga.db",
            ),
            (
                "/home/anna/Meine Liga/liga.db",
                "'/home/anna/Meine Liga/liga.db'",
            ),
            ("it's.db", r"'it'\''s.db'"),
            ("", "''"),
        ];
        for (text, want) in cases {
            assert_eq!(shell_word(text), want, "{text}");
        }
        assert_eq!(
            command_as(
                Some("schockerliga"),
                Path::new("/var/lib/schockerliga/schockerliga.db")
            ),
            "sudo -u schockerliga schockerliga --database /var/lib/schockerliga/schockerliga.db"
        );
        assert_eq!(
            command_as(None, Path::new("/srv/liga.db")),
            "schockerliga --database /srv/liga.db"
        );
        // (uid, name, under systemd, the command)
        let db = Path::new("/var/lib/schockerliga/schockerliga.db");
        let cases = [
            (998, "schockerliga", true, "sudo -u schockerliga schockerliga --database /var/lib/schockerliga/schockerliga.db user add NAME --role admin"),
            (998, "schockerliga", false, "sudo -u schockerliga schockerliga --database /var/lib/schockerliga/schockerliga.db user add NAME --role admin"),
            (1000, "anna", true, "sudo -u anna schockerliga --database /var/lib/schockerliga/schockerliga.db user add NAME --role admin"),
            (1000, "anna", false, "schockerliga --database /var/lib/schockerliga/schockerliga.db user add NAME --role admin"),
            (0, "root", true, "schockerliga --database /var/lib/schockerliga/schockerliga.db user add NAME --role admin"),
        ];
        for (uid, name, systemd, want) in cases {
            assert_eq!(
                first_admin_command(db, uid, name, systemd),
                want,
                "{uid} {name}"
            );
        }
    }
}
