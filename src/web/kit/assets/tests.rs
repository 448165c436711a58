//! The asset table: hashed names, lookups, the service worker's list, the templates' links.

use super::*;

#[test]
fn a_hashed_name_puts_the_hash_before_the_extension() {
    for (name, want) in [
        ("style.css", "style.0123abcd.css"),
        ("manifest.webmanifest", "manifest.0123abcd.webmanifest"),
        ("icon-maskable-192.png", "icon-maskable-192.0123abcd.png"),
        ("README", "README.0123abcd"),
    ] {
        assert_eq!(hashed_name(name, "0123abcd"), want);
    }
    // SHA-256 of "abc": ba7816bf…
    assert_eq!(hash(b"abc"), "ba7816bf");
}

#[test]
fn every_file_is_found_by_its_hashed_and_its_plain_name_and_nothing_else() {
    for asset in &TABLE {
        let hashed = path(asset.name);
        let file = hashed.strip_prefix("/static/").unwrap();
        assert_eq!(file, hashed_name(asset.name, &hash(asset.bytes)));
        let (found, named) = find(file).unwrap();
        assert_eq!((found.name, named), (asset.name, Named::Hashed));
        let (found, named) = find(asset.name).unwrap();
        assert_eq!((found.name, named), (asset.name, Named::Plain));
    }
    // An older version's hashed name: the current file, as a plain name.
    let (found, named) = find("style.00000000.css").unwrap();
    assert_eq!((found.name, named), ("style.css", Named::Plain));
    for unknown in [
        "nichts.css",
        "style.css.map",
        "style.0000000.css",
        "style.0000000g.css",
        "style.00000000.js",
        "..",
        "../Cargo.toml",
        "",
        "sw.js",
    ] {
        assert!(find(unknown).is_none(), "{unknown}");
    }
    assert_eq!(path("nichts.css"), "/static/nichts.css");
}

#[test]
fn every_file_of_the_static_folder_is_in_the_table() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("static");
    let mut files: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n != "sw.js")
        .collect();
    files.sort();
    let mut names: Vec<String> = TABLE.iter().map(|a| a.name.to_string()).collect();
    names.sort();
    assert_eq!(files, names);
}

#[test]
fn the_service_worker_knows_every_hashed_address() {
    let sw = service_worker();
    assert!(!sw.contains(SW_TABLE), "the table line is filled in");
    assert!(sw.contains("importScripts(ASSETS[\"warten.js\"])"));
    for asset in &TABLE {
        let line = format!("{:?}: {:?}", asset.name, path(asset.name));
        assert!(sw.contains(&line), "{line}");
    }
    let precache = sw
        .lines()
        .find(|l| l.starts_with("var PRECACHE = ["))
        .unwrap();
    for name in [
        "style.css",
        "abend.css",
        "money.css",
        "warten.js",
        "senden.js",
        "offline.js",
    ] {
        assert!(precache.contains(&path(name)), "{name}: {precache}");
    }
    assert!(!precache.contains(".png"), "{precache}");
}

#[test]
fn the_templates_link_only_files_of_the_table_and_no_plain_address() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("templates");
    let mut dirs = vec![root];
    let mut links = 0;
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(dir).unwrap() {
            let p = entry.unwrap().path();
            if p.is_dir() {
                dirs.push(p);
                continue;
            }
            let text = std::fs::read_to_string(&p).unwrap();
            for part in text.split("layout.asset(\"").skip(1) {
                let name = &part[..part.find('"').unwrap()];
                assert!(
                    TABLE.iter().any(|a| a.name == name),
                    "{}: {name}",
                    p.display()
                );
                links += 1;
            }
            // A stylesheet or script by its plain address would miss the table (the manifest
            // keeps its plain address on purpose).
            for plain in [
                "src=\"/static/",
                "stylesheet\" href=\"/static/",
                "href=\"/money.css",
            ] {
                assert!(!text.contains(plain), "{}: {plain}", p.display());
            }
        }
    }
    assert!(links >= 10, "{links}");
}
