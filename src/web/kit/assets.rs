//! The static files (`static/`), embedded in the binary: one table ([`TABLE`]: name, bytes,
//! content type), each file served under a name with its content hash
//! (`/static/style.3f9c2a1b.css`, kept a year and `immutable`: a new version is a new name) and,
//! for pages and phones of older versions, under its plain name (`/static/style.css`, the current
//! bytes, kept an hour or a day). Templates link through the layout
//! (`{{ layout.asset("style.css") }}`, [`path`]); the service worker (`/sw.js`) is served with the
//! table filled in ([`service_worker`]), so it keeps exactly the files the pages link.
//! A new file is one line in [`TABLE`].

use std::sync::LazyLock;

use sha2::{Digest, Sha256};

/// One static file.
#[derive(Debug)]
pub struct Asset {
    /// Its plain name under `/static/` (`style.css`).
    pub name: &'static str,
    /// Its bytes.
    pub bytes: &'static [u8],
    /// Its `Content-Type`.
    pub content_type: &'static str,
    /// Seconds a browser keeps it under its plain name (`Cache-Control: public, max-age=…`).
    pub plain_max_age: u32,
    /// The service worker fetches it when it is installed (what a page needs offline: the
    /// stylesheets and scripts); the others it keeps once a page used them.
    pub precache: bool,
}

/// A script or stylesheet: kept an hour under its plain name, fetched by the service worker.
const fn code(name: &'static str, bytes: &'static [u8], content_type: &'static str) -> Asset {
    Asset {
        name,
        bytes,
        content_type,
        plain_max_age: 3600,
        precache: true,
    }
}

/// An image or the manifest: kept a day under its plain name, kept by the service worker once used.
const fn file(name: &'static str, bytes: &'static [u8], content_type: &'static str) -> Asset {
    Asset {
        name,
        bytes,
        content_type,
        plain_max_age: 86400,
        precache: false,
    }
}

const CSS: &str = "text/css; charset=utf-8";
const JS: &str = "text/javascript; charset=utf-8";
const PNG: &str = "image/png";

/// Every static file of the site (but the service worker itself, [`service_worker`]).
pub static TABLE: [Asset; 16] = [
    // The stylesheet of every page.
    code(
        "style.css",
        include_bytes!("../../../static/style.css"),
        CSS,
    ),
    // The game night's stylesheet (live board, night report, Spielberichtsbogen).
    code(
        "abend.css",
        include_bytes!("../../../static/abend.css"),
        CSS,
    ),
    // The money pages' stylesheet, also for print (Kasse, Jahresabschluss; issue 33.5: under
    // /static/ so that the service worker keeps it).
    code(
        "money.css",
        include_bytes!("../../../static/money.css"),
        CSS,
    ),
    // The rounds that wait for the network, in IndexedDB (pages and the service worker).
    code("warten.js", include_bytes!("../../../static/warten.js"), JS),
    // Every page: lists and sends the rounds that wait for the network.
    code("senden.js", include_bytes!("../../../static/senden.js"), JS),
    // Every page: registers the service worker; a page from the phone's memory read anew.
    code(
        "offline.js",
        include_bytes!("../../../static/offline.js"),
        JS,
    ),
    // A scorer link's page: follows its night.
    code("tisch.js", include_bytes!("../../../static/tisch.js"), JS),
    // The live board: Server-Sent Events, the board read again.
    code("live.js", include_bytes!("../../../static/live.js"), JS),
    // The script of every page before the scripts were split (issue 33.6): a page kept on a
    // phone from then still loads, and this loads the scripts of today.
    code("app.js", include_bytes!("../../../static/app.js"), JS),
    file(
        "favicon.ico",
        include_bytes!("../../../static/favicon.ico"),
        "image/x-icon",
    ),
    file(
        "icon.svg",
        include_bytes!("../../../static/icon.svg"),
        "image/svg+xml",
    ),
    file(
        "icon-192.png",
        include_bytes!("../../../static/icon-192.png"),
        PNG,
    ),
    file(
        "icon-512.png",
        include_bytes!("../../../static/icon-512.png"),
        PNG,
    ),
    file(
        "icon-maskable-192.png",
        include_bytes!("../../../static/icon-maskable-192.png"),
        PNG,
    ),
    file(
        "icon-maskable-512.png",
        include_bytes!("../../../static/icon-maskable-512.png"),
        PNG,
    ),
    // The web manifest: linked under its plain name, an installed app's address of it stays.
    file(
        "manifest.webmanifest",
        include_bytes!("../../../static/manifest.webmanifest"),
        "application/manifest+json",
    ),
];

/// A file of [`TABLE`] with its hashed name.
#[derive(Debug)]
struct Hashed {
    asset: &'static Asset,
    /// `style.3f9c2a1b.css`.
    file: String,
    /// `/static/style.3f9c2a1b.css`.
    path: String,
}

/// The first 8 hex digits of the SHA-256 of `bytes`.
fn hash(bytes: &[u8]) -> String {
    Sha256::digest(bytes)
        .iter()
        .take(4)
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// `name` with `hash` before its extension: `style.css` → `style.3f9c2a1b.css`.
fn hashed_name(name: &str, hash: &str) -> String {
    match name.rsplit_once('.') {
        Some((stem, ext)) => format!("{stem}.{hash}.{ext}"),
        None => format!("{name}.{hash}"),
    }
}

static HASHED: LazyLock<Vec<Hashed>> = LazyLock::new(|| {
    TABLE
        .iter()
        .map(|asset| {
            let file = hashed_name(asset.name, &hash(asset.bytes));
            Hashed {
                asset,
                path: format!("/static/{file}"),
                file,
            }
        })
        .collect()
});

/// The address of the file `name` of [`TABLE`] under its hashed name
/// (`"style.css"` → `/static/style.3f9c2a1b.css`); a name not in the table stays plain
/// (`/static/{name}`, which answers 404: a test holds the templates to the table).
pub fn path(name: &str) -> String {
    HASHED
        .iter()
        .find(|h| h.asset.name == name)
        .map_or_else(|| format!("/static/{name}"), |h| h.path.clone())
}

/// How a file under `/static/` was asked for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Named {
    /// By its current hashed name: kept a year, immutable.
    Hashed,
    /// By its plain name, or by a hashed name of an older version (a page kept on a phone):
    /// the current bytes, kept as long as the plain name.
    Plain,
}

/// The file of `/static/{file}`: its hashed name, its plain name, or the hashed name of another
/// version of it (`style.0123abcd.css`); `None` for any other name.
pub fn find(file: &str) -> Option<(&'static Asset, Named)> {
    if let Some(h) = HASHED.iter().find(|h| h.file == file) {
        return Some((h.asset, Named::Hashed));
    }
    if let Some(a) = TABLE.iter().find(|a| a.name == file) {
        return Some((a, Named::Plain));
    }
    let (rest, ext) = file.rsplit_once('.')?;
    let (stem, old) = rest.rsplit_once('.')?;
    if old.len() != 8 || !old.bytes().all(|b| b.is_ascii_hexdigit()) {
        return None;
    }
    TABLE
        .iter()
        .find(|a| a.name.rsplit_once('.') == Some((stem, ext)))
        .map(|a| (a, Named::Plain))
}

/// The service worker's source (`static/sw.js`).
const SW_JS: &str = include_str!("../../../static/sw.js");

/// The line of `static/sw.js` that [`service_worker`] fills in.
const SW_TABLE: &str =
    "var ASSETS = {}, PRECACHE = []; // filled in by the server (web::kit::assets)";

/// The service worker as served at `/sw.js`: `static/sw.js` with its `ASSETS` (plain name →
/// hashed address of every file of [`TABLE`]) and `PRECACHE` (the addresses fetched at install)
/// filled in. A new version of any file changes these bytes, so the browser installs the worker
/// anew (and it fetches the new files).
pub fn service_worker() -> &'static str {
    static SW: LazyLock<String> = LazyLock::new(|| {
        let map = HASHED
            .iter()
            .map(|h| format!("  {:?}: {:?}", h.asset.name, h.path))
            .collect::<Vec<_>>()
            .join(",\n");
        let precache = HASHED
            .iter()
            .filter(|h| h.asset.precache)
            .map(|h| format!("{:?}", h.path))
            .collect::<Vec<_>>()
            .join(", ");
        SW_JS.replacen(
            SW_TABLE,
            &format!("var ASSETS = {{\n{map}\n}};\nvar PRECACHE = [{precache}];"),
            1,
        )
    });
    &SW
}

#[cfg(test)]
mod tests;
