//! How rclone is run for the copies off the machine: its flags and limits (a remote that
//! accepts the connection and never answers is given up within about a minute, not rclone's
//! default twelve), the child run without a shell and killed when its time is up, and its
//! failure said in German with rclone's last lines.

use std::ffi::OsString;
use std::process::Stdio;
use std::time::Duration;

/// The environment variable with the seconds rclone waits for a connection or for any data on
/// one before it gives the try up (`--contimeout`, `--timeout`); default [`DEFAULT_IDLE`].
pub const IDLE_ENV: &str = "SCHOCKERLIGA_REMOTE_TIMEOUT";

/// How long rclone waits for a connection or for any data on it (30 s): a remote that hangs
/// fails a call after two such waits (one low-level retry, no retry of the whole call).
pub const DEFAULT_IDLE: Duration = Duration::from_secs(30);

/// Longest one upload or download of a copy may take in all (a large league over a slow line;
/// a line that stops is given up after [`Limits::idle`] already).
pub const TRANSFER_TIMEOUT: Duration = Duration::from_secs(60 * 60);

/// The limits of every rclone call.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// rclone's `--contimeout` and `--timeout` (no data on a connection for this long).
    pub idle: Duration,
}

impl Limits {
    /// The limits from the environment ([`IDLE_ENV`], whole seconds, at least 1), else the
    /// defaults; a value that is no number is logged and the default taken.
    pub fn from_env() -> Limits {
        let idle = match std::env::var(IDLE_ENV) {
            Err(_) => DEFAULT_IDLE,
            Ok(text) => match text.trim().parse::<u64>() {
                Ok(secs) => Duration::from_secs(secs.max(1)),
                Err(_) => {
                    tracing::warn!("{IDLE_ENV}={text} ist keine Zahl von Sekunden: 30 genommen");
                    DEFAULT_IDLE
                }
            },
        };
        Limits { idle }
    }

    /// The wall-clock limit of a listing, a deletion or a small upload (four idle waits: 2
    /// minutes by default): rclone is killed then.
    pub fn short(self) -> Duration {
        self.idle * 4
    }

    /// The flags before every call's own: errors only on stderr, the idle limit on connecting
    /// and on a connection, one low-level retry, no retry of the whole call (the server tries
    /// again later by itself).
    pub fn flags(self) -> Vec<String> {
        let secs = format!("{}s", self.idle.as_secs());
        [
            "-q",
            "--contimeout",
            &secs,
            "--timeout",
            &secs,
            "--retries",
            "1",
            "--low-level-retries",
            "2",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect()
    }
}

impl Default for Limits {
    fn default() -> Limits {
        Limits { idle: DEFAULT_IDLE }
    }
}

/// Runs `cmd` (rclone, `program`) within `timeout` with its outputs captured (killed when the
/// time is up: the command is `kill_on_drop`): the standard output when it succeeded; else
/// German, what failed with the last lines rclone wrote.
pub async fn run(
    mut cmd: tokio::process::Command,
    program: &OsString,
    timeout: Duration,
) -> Result<Vec<u8>, String> {
    cmd.stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .kill_on_drop(true);
    let child = cmd.spawn().map_err(|e| spawn_error(program, e))?;
    match tokio::time::timeout(timeout, child.wait_with_output()).await {
        Err(_) => Err(format!(
            "rclone nach {} s abgebrochen (keine Antwort vom Ziel)",
            timeout.as_secs()
        )),
        Ok(Err(e)) => Err(format!("rclone nicht ausführbar: {e}")),
        Ok(Ok(out)) if out.status.success() => Ok(out.stdout),
        Ok(Ok(out)) => Err(failed_text(out.status.code(), &out.stderr)),
    }
}

/// German: rclone could not be started (missing: how to install it).
pub fn spawn_error(program: &OsString, e: std::io::Error) -> String {
    if e.kind() == std::io::ErrorKind::NotFound {
        format!(
            "{} nicht gefunden: das Paket rclone installieren (apt install rclone)",
            program.to_string_lossy()
        )
    } else {
        format!("{} nicht startbar: {e}", program.to_string_lossy())
    }
}

/// German: rclone ended with `code`, and the last lines of its `stderr` (at most 400 characters,
/// the time stamps rclone puts in front left out).
pub fn failed_text(code: Option<i32>, stderr: &[u8]) -> String {
    let text = String::from_utf8_lossy(stderr);
    let lines: Vec<&str> = text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .map(|l| {
            // „2026/05/01 04:00:00 ERROR : …“
            let mut parts = l.splitn(3, ' ');
            match (parts.next(), parts.next(), parts.next()) {
                (Some(d), Some(t), Some(rest))
                    if d.len() == 10 && d.as_bytes().get(4) == Some(&b'/') && t.contains(':') =>
                {
                    rest
                }
                _ => l,
            }
        })
        .collect();
    let tail = lines
        .iter()
        .rev()
        .take(2)
        .rev()
        .copied()
        .collect::<Vec<_>>()
        .join(" / ");
    let tail: String = tail.chars().take(400).collect();
    let code = code.map_or_else(|| "ohne Code".to_string(), |c| format!("mit Code {c}"));
    if tail.is_empty() {
        format!("rclone endete {code}")
    } else {
        format!("rclone endete {code}: {tail}")
    }
}

/// Lower-case hex of `bytes`.
pub fn hex(bytes: &[u8]) -> String {
    use std::fmt::Write as _;
    bytes.iter().fold(String::with_capacity(64), |mut s, b| {
        let _ = write!(s, "{b:02x}");
        s
    })
}

/// One entry of `rclone lsjson`.
#[derive(Debug, serde::Deserialize)]
pub struct Listed {
    /// The file's name in the folder.
    #[serde(rename = "Name")]
    pub name: String,
    /// Its size in bytes.
    #[serde(rename = "Size", default)]
    pub size: u64,
    /// Its sums as the remote reports them (`sha256` → hex), when asked for.
    #[serde(rename = "Hashes", default)]
    pub hashes: Option<std::collections::BTreeMap<String, String>>,
}
