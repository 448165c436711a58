//! The app on the phone (issue 26.2, 26.5): the service worker at `/sw.js` (scope `/`, never
//! kept stale), the scripts every page loads (same-origin files only), the manifest with
//! maskable icons. What the scripts do in a browser is tested by `tests/browser/offline.py`.

use axum::http::StatusCode;
use serde_json::Value;

use crate::besteck::prepared;

#[tokio::test]
async fn the_service_worker_and_the_scripts_are_served_as_javascript() {
    let t = prepared().await;
    let sw = t.get("/sw.js", None).await;
    assert_eq!(sw.status, StatusCode::OK);
    assert_eq!(
        sw.header("content-type"),
        Some("text/javascript; charset=utf-8")
    );
    assert_eq!(sw.header("service-worker-allowed"), Some("/"));
    assert_eq!(sw.header("cache-control"), Some("no-cache"));
    // It imports the waiting rounds' store by its hashed name (the table filled in).
    let warten = schockerliga::web::kit::assets::path("warten.js");
    assert!(sw.body.contains("importScripts(ASSETS[\"warten.js\"])"));
    assert!(sw.body.contains(&format!("\"warten.js\": \"{warten}\"")));
    // Served from the page cache the second time too, with its headers.
    let again = t.get("/sw.js", None).await;
    assert_eq!(again.header("cache-control"), Some("no-cache"));
    for (path, needle) in [
        ("/static/offline.js", "serviceWorker"),
        ("/static/warten.js", "indexedDB"),
        ("/static/live.js", "EventSource"),
        ("/static/senden.js", "Warten.put"),
        ("/static/tisch.js", "EventSource"),
        // The script of every page before the split: loads the scripts of today.
        ("/static/app.js", "/static/senden.js"),
    ] {
        let r = t.get(path, None).await;
        assert_eq!(r.status, StatusCode::OK, "{path}");
        assert_eq!(
            r.header("content-type"),
            Some("text/javascript; charset=utf-8"),
            "{path}"
        );
        assert!(r.body.contains(needle), "{path}");
        // No eval of any kind: the CSP forbids it, the files do not need it.
        for bad in ["eval(", "new Function", "innerHTML", "document.write"] {
            assert!(!r.body.contains(bad), "{path} uses {bad}");
        }
    }
    assert!(!sw.body.contains("eval("));
}

#[tokio::test]
async fn every_page_loads_the_every_page_scripts_and_no_inline_code() {
    use schockerliga::web::kit::assets::path as asset;
    let t = prepared().await;
    let secretary = t.login(crate::app::SECRETARY).await;
    for (path, cookie) in [
        ("/", None),
        ("/live/2026-01-09", None),
        ("/abend/2026-01-09", None),
        ("/regeln", None),
        ("/login", None),
        ("/verwaltung/abend/2026-01-09", Some(secretary.as_str())),
        (
            "/verwaltung/abend/2026-01-09/bogen",
            Some(secretary.as_str()),
        ),
    ] {
        let r = t.get(path, cookie).await;
        assert_eq!(r.status, StatusCode::OK, "{path}");
        let body = r.body.to_lowercase();
        // The waiting rounds' store before the script that sends them, and the pages offline.
        let tags = ["warten.js", "senden.js", "offline.js"]
            .map(|s| format!("<script src=\"{}\" defer></script>", asset(s)));
        assert!(
            body.contains(&format!("{}\n{}\n{}", tags[0], tags[1], tags[2])),
            "{path}"
        );
        assert_eq!(crate::app::only_script_files(&body), Ok(()), "{path}");
    }
}

#[tokio::test]
async fn the_manifest_makes_the_app_installable() {
    let t = prepared().await;
    let m = t.get("/static/manifest.webmanifest", None).await;
    let v: Value = serde_json::from_str(&m.body).unwrap();
    assert_eq!(v["display"], "standalone");
    assert_eq!(v["start_url"], "/");
    let icons = v["icons"].as_array().unwrap();
    for (size, purpose) in [
        ("192x192", "any"),
        ("512x512", "any"),
        ("192x192", "maskable"),
        ("512x512", "maskable"),
    ] {
        let icon = icons
            .iter()
            .find(|i| i["sizes"] == size && i["purpose"] == purpose)
            .unwrap_or_else(|| panic!("{size} {purpose}"));
        let src = icon["src"].as_str().unwrap();
        let r = t.get(src, None).await;
        assert_eq!(r.status, StatusCode::OK, "{src}");
        assert_eq!(r.header("content-type"), Some("image/png"));
        // The PNG's own size is the one the manifest says.
        let bytes = &r.bytes;
        let w = u32::from_be_bytes(bytes[16..20].try_into().unwrap());
        let h = u32::from_be_bytes(bytes[20..24].try_into().unwrap());
        assert_eq!(format!("{w}x{h}"), size, "{src}");
    }
}

/// The addresses of `<link rel="stylesheet" href="…">` and `<script src="…">` of a page, in order.
fn linked(body: &str) -> (Vec<String>, Vec<String>) {
    let attr = |marker: &str| -> Vec<String> {
        body.split(marker)
            .skip(1)
            .map(|rest| rest[..rest.find('"').unwrap()].to_string())
            .collect()
    };
    (
        attr("<link rel=\"stylesheet\" href=\""),
        attr("<script src=\""),
    )
}

/// `/static/{stem}.{8 hex digits}.{ext}` → (plain name, hash), else None.
fn hashed(path: &str) -> Option<(String, String)> {
    let file = path.strip_prefix("/static/")?;
    let (rest, ext) = file.rsplit_once('.')?;
    let (stem, hash) = rest.rsplit_once('.')?;
    (hash.len() == 8 && hash.bytes().all(|b| b.is_ascii_hexdigit()))
        .then(|| (format!("{stem}.{ext}"), hash.to_string()))
}

/// Issue 33.6: the pages link every stylesheet and script under a name with its content hash;
/// such a file is kept a year (`immutable`: a new version is a new name); its plain name (and an
/// older version's hashed name: a page kept on a phone) answers with the current bytes, kept as
/// before.
#[tokio::test]
async fn files_are_linked_by_their_content_hash_and_kept_a_year() {
    use sha2::{Digest, Sha256};
    let t = prepared().await;
    let secretary = t.login(crate::app::SECRETARY).await;
    let mut seen = std::collections::BTreeSet::new();
    for (path, cookie) in [
        ("/", None),
        ("/live/2026-01-09", None),
        ("/saison/2026/kasse", None),
        (
            "/verwaltung/abend/2026-01-09/bogen",
            Some(secretary.as_str()),
        ),
    ] {
        let page = t.get(path, cookie).await;
        assert_eq!(page.status, StatusCode::OK, "{path}");
        let (styles, scripts) = linked(&page.body);
        assert!(!styles.is_empty() && !scripts.is_empty(), "{path}");
        seen.extend(styles.into_iter().chain(scripts));
    }
    for link in &seen {
        let (plain, hash) = hashed(link).unwrap_or_else(|| panic!("{link}: no hashed name"));
        let r = t.get(link, None).await;
        assert_eq!(r.status, StatusCode::OK, "{link}");
        assert_eq!(
            r.header("cache-control"),
            Some("public, max-age=31536000, immutable"),
            "{link}"
        );
        let digest: String = Sha256::digest(&r.bytes)
            .iter()
            .take(4)
            .map(|b| format!("{b:02x}"))
            .collect();
        assert_eq!(digest, hash, "{link}: the name is the content's hash");
        let want = if plain.ends_with(".css") {
            "text/css; charset=utf-8"
        } else {
            "text/javascript; charset=utf-8"
        };
        assert_eq!(r.header("content-type"), Some(want), "{link}");
        // The plain name and an older version's name: the same bytes, kept an hour.
        let (stem, ext) = plain.rsplit_once('.').unwrap();
        for old in [
            format!("/static/{plain}"),
            format!("/static/{stem}.00000000.{ext}"),
        ] {
            let o = t.get(&old, None).await;
            assert_eq!(o.status, StatusCode::OK, "{old}");
            assert_eq!(o.bytes, r.bytes, "{old}");
            assert_eq!(
                o.header("cache-control"),
                Some("public, max-age=3600"),
                "{old}"
            );
            assert_eq!(o.header("content-type"), Some(want), "{old}");
        }
    }
    let names: Vec<String> = seen.iter().map(|l| hashed(l).unwrap().0).collect();
    for name in [
        "style.css",
        "abend.css",
        "money.css",
        "warten.js",
        "senden.js",
        "offline.js",
        "live.js",
    ] {
        assert!(
            names.iter().any(|n| n == name),
            "{name} not linked: {names:?}"
        );
    }
    // The icons too.
    let home = t.get("/", None).await.body;
    let icon = home
        .split("<link rel=\"apple-touch-icon\" href=\"")
        .nth(1)
        .map(|r| &r[..r.find('"').unwrap()])
        .unwrap();
    assert_eq!(hashed(icon).map(|h| h.0).as_deref(), Some("icon-192.png"));
    let r = t.get(icon, None).await;
    assert_eq!(r.header("content-type"), Some("image/png"));
    assert_eq!(
        r.header("cache-control"),
        Some("public, max-age=31536000, immutable")
    );
    assert_eq!(t.get("/static/icon-192.png", None).await.bytes, r.bytes);
    // Nothing else answers under /static/.
    for missing in [
        "/static/nichts.css",
        "/static/style.00000000.js",
        "/static/sw.js",
    ] {
        assert_eq!(
            t.get(missing, None).await.status,
            StatusCode::NOT_FOUND,
            "{missing}"
        );
    }
}

/// Issue 33.6: the service worker keeps what the pages link: its list of files is the table's
/// hashed names (fetched at install: every stylesheet and script a page links), so a page seen
/// once opens offline with its files.
#[tokio::test]
async fn the_service_worker_fetches_the_files_the_pages_link() {
    let t = prepared().await;
    let sw = t.get("/sw.js", None).await.body;
    let precache = sw
        .lines()
        .find(|l| l.starts_with("var PRECACHE = ["))
        .unwrap_or_else(|| panic!("no PRECACHE list: {sw}"));
    for path in ["/", "/live/2026-01-09", "/saison/2026/kasse"] {
        let body = t.get(path, None).await.body;
        let (styles, scripts) = linked(&body);
        for link in styles.iter().chain(&scripts) {
            assert!(
                precache.contains(&format!("\"{link}\"")),
                "{path}: {link} not in {precache}"
            );
            let (plain, _) = hashed(link).unwrap();
            assert!(
                sw.contains(&format!("\"{plain}\": \"{link}\"")),
                "{path}: {plain} → {link} not in the worker's table"
            );
        }
    }
}

/// Issue 33.5: the money pages' stylesheet is a file under /static/ (the service worker keeps
/// those); its old address /money.css still answers.
#[tokio::test]
async fn the_money_stylesheet_is_a_static_file_the_worker_keeps() {
    let t = prepared().await;
    let kasse = t.get("/saison/2026/kasse", None).await.body;
    let (styles, _) = linked(&kasse);
    let money = styles
        .iter()
        .find(|s| s.contains("money"))
        .unwrap_or_else(|| panic!("no money stylesheet: {styles:?}"));
    assert_eq!(
        hashed(money).map(|h| h.0).as_deref(),
        Some("money.css"),
        "{money}"
    );
    let sw = t.get("/sw.js", None).await.body;
    assert!(sw.contains(&format!("\"money.css\": \"{money}\"")));
    let now = t.get(money, None).await;
    assert!(now.body.contains("@media print"));
    let old = t.get("/money.css", None).await;
    assert_eq!(old.status, StatusCode::OK);
    assert_eq!(old.bytes, now.bytes);
}

/// Issue 33.6: one script per job, each page only those it needs; every script reads its
/// settings from `data-*` attributes of the page (no inline code).
#[tokio::test]
async fn each_page_loads_only_the_scripts_of_its_jobs() {
    let (t, cookie, _) = crate::scorer_links::app().await;
    let link = crate::scorer_links::make_link(&t, &cookie, "2026-01-09", 1).await;
    let every = ["warten.js", "senden.js", "offline.js"];
    for (path, cookie, extra) in [
        ("/", None, None),
        ("/live/2026-01-09", None, Some("live.js")),
        ("/verwaltung/abend/2026-01-09", Some(cookie.as_str()), None),
        (link.as_str(), None, Some("tisch.js")),
    ] {
        let r = t.get(path, cookie).await;
        assert_eq!(r.status, StatusCode::OK, "{path}");
        let (_, scripts) = linked(&r.body);
        let names: Vec<String> = scripts.iter().map(|s| hashed(s).unwrap().0).collect();
        let mut want: Vec<&str> = every.to_vec();
        want.extend(extra);
        assert_eq!(names, want, "{path}");
        assert_eq!(
            crate::app::only_script_files(&r.body.to_lowercase()),
            Ok(()),
            "{path}"
        );
    }
    // What the scripts read: the scorer page's stream and page (tisch.js), the forms that wait
    // (senden.js), the account (senden.js), the logout form (offline.js).
    let page = t.get(&link, None).await.body;
    assert!(
        page.contains(&format!(
            "<section id=\"runden\" data-seite=\"{link}\" data-ereignisse=\"/live/2026-01-09/ereignisse\">"
        )),
        "{page}"
    );
    assert!(page.contains(&format!(
        "<form method=\"post\" action=\"{link}/runde\" data-wartet>"
    )));
    let night = t
        .get("/verwaltung/abend/2026-01-09", Some(&cookie))
        .await
        .body;
    assert!(night.contains(&format!("<body data-konto=\"{}\">", crate::app::SECRETARY)));
    assert!(night.contains(
        "<form method=\"post\" action=\"/verwaltung/abend/2026-01-09/runde\" data-wartet>"
    ));
    assert!(
        night.contains("<form method=\"post\" action=\"/logout\" class=\"inline\" data-abmelden>")
    );
    assert!(
        t.get("/", None).await.body.contains("<body>"),
        "no account, no data-konto"
    );
}
