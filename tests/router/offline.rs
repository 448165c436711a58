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
    assert!(sw.body.contains("importScripts(\"/static/warten.js\")"));
    // Served from the page cache the second time too, with its headers.
    let again = t.get("/sw.js", None).await;
    assert_eq!(again.header("cache-control"), Some("no-cache"));
    for (path, needle) in [
        ("/static/app.js", "serviceWorker"),
        ("/static/warten.js", "indexedDB"),
        ("/static/live.js", "EventSource"),
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
async fn every_page_loads_the_app_script_and_no_inline_code() {
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
        assert!(
            body.contains("<script src=\"/static/warten.js\" defer></script>")
                && body.contains("<script src=\"/static/app.js\" defer></script>"),
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
