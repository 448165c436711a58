//! Issue 34.3 through the binary: `schockerliga kontoauszug SEASON FILE [--buchen] [--json]` —
//! the same six credits (and one debit) in CAMT.053 .001.02, .001.08 and a Sparkasse CSV give
//! the same bookings; without --buchen nothing is stored; a statement read again books nothing;
//! a refused file stores nothing; the Abschluss invariant holds after booking.

use std::path::Path;
use std::process::Output;

use serde_json::Value;

use crate::common::fixture;
use crate::run;

const FILES: [&str; 3] = [
    "kontoauszug/maerz-2026.camt053.001.02.xml",
    "kontoauszug/maerz-2026.camt053.001.08.xml",
    "kontoauszug/maerz-2026.sparkasse.csv",
];

fn ok(out: &Output) -> String {
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout.clone()).unwrap()
}

fn statement(db: &Path, file: &str, extra: &[&str]) -> Output {
    let path = fixture(file);
    let mut args = vec!["kontoauszug", "2026", path.to_str().unwrap()];
    args.extend_from_slice(extra);
    run(db, &args)
}

/// The season as exported, the stored part of what a statement could change.
fn exported(db: &Path) -> Value {
    serde_json::from_str(&ok(&run(db, &["export", "2026"]))).unwrap()
}

/// What each credit would book, without its purpose (the CSV carries the RF in its text).
fn bookings(preview: &Value) -> Vec<Value> {
    preview["credits"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            serde_json::json!([
                c["date"],
                c["cents"],
                c["player"],
                c["match"],
                c["suggestion"],
                c["items_paid"],
                c["credit_cents"]
            ])
        })
        .collect()
}

fn invariant(p: &Value) {
    let sum = |v: &Value| -> i64 {
        v.as_array()
            .unwrap()
            .iter()
            .map(|c| c.as_i64().unwrap())
            .sum()
    };
    let places: i64 = p["places"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| sum(&x["cents"]))
        .sum();
    assert_eq!(
        places + sum(&p["lucky_looser"]["cents"]) + p["carry_out_cents"].as_i64().unwrap(),
        p["fees_cents"].as_i64().unwrap()
            + p["fines_cents"].as_i64().unwrap()
            + p["carry_in_cents"].as_i64().unwrap(),
        "{p}"
    );
}

#[test]
fn camt_02_camt_08_and_sparkasse_csv_book_the_same_and_nothing_twice() {
    let mut previews = Vec::new();
    let mut payments = Vec::new();
    for file in FILES {
        let dir = tempfile::tempdir().unwrap();
        let db = dir.path().join("liga.db");
        let season = fixture("small-2026.season.json");
        ok(&run(&db, &["import", season.to_str().unwrap()]));
        let before = exported(&db);
        let preview: Value = serde_json::from_str(&ok(&statement(&db, file, &["--json"]))).unwrap();
        assert_eq!(
            exported(&db),
            before,
            "{file}: without --buchen nothing is stored"
        );
        assert_eq!(preview["already_booked"], 0, "{file}");
        assert_eq!(preview["debits"][0]["cents"], -350, "{file}");
        assert_eq!(preview["debits"].as_array().unwrap().len(), 1, "{file}");
        previews.push(bookings(&preview));

        let text = ok(&statement(&db, file, &["--buchen"]));
        assert!(
            text.ends_with("4 neue Buchungen, 0 schon eingelesen, 2 ohne Spieler nicht gebucht.\n"),
            "{file}: {text}"
        );
        let again = ok(&statement(&db, file, &["--buchen"]));
        assert!(
            again
                .ends_with("0 neue Buchungen, 4 schon eingelesen, 2 ohne Spieler nicht gebucht.\n"),
            "{file}: {again}"
        );
        let after = exported(&db);
        payments.push(after["payments"].clone());
        invariant(&serde_json::from_str(&ok(&run(&db, &["payouts", "2026", "--json"]))).unwrap());
        // The same transfers in another format are known by their hash: nothing new.
        let other = if file.ends_with(".csv") {
            FILES[0]
        } else {
            FILES[2]
        };
        let cross = ok(&statement(&db, other, &["--buchen"]));
        assert!(
            cross.contains("0 neue Buchungen, 4 schon eingelesen"),
            "{file} → {other}: {cross}"
        );
        assert_eq!(exported(&db), after);
    }
    assert_eq!(previews[0], previews[1]);
    assert_eq!(previews[0], previews[2]);
    assert_eq!(payments[0], payments[1]);
    assert_eq!(payments[0], payments[2]);
    let want = serde_json::json!([
        ["2026-03-10", 50, "Dirk", "referenz", null, [{"kind": "fine", "date": "2026-03-06", "cents": 50}], 0],
        ["2026-03-12", 1500, "Bernd", "text", null, [{"kind": "fee", "date": "2026-03-12", "cents": 1500}], 0],
        ["2026-03-15", 2000, "Carla", "text", null, [], 2000],
        ["2026-03-20", 500, null, "keine", "Anna", [], 0],
        ["2026-03-20", 300, null, "keine", "Elke", [], 0],
        ["2026-03-25", 200, "Frank", "text", null, [], 200]
    ]);
    assert_eq!(Value::Array(previews[0].clone()), want);
    assert_eq!(
        payments[0].as_array().map(Vec::len),
        Some(4),
        "{}",
        payments[0]
    );
}

#[test]
fn a_refused_statement_exits_1_says_where_and_stores_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("liga.db");
    let season = fixture("small-2026.season.json");
    ok(&run(&db, &["import", season.to_str().unwrap()]));
    let before = exported(&db);
    let bad = dir.path().join("kaputt.xml");
    let text = std::fs::read_to_string(fixture(FILES[1]))
        .unwrap()
        .replace(">15.00<", ">15,00<");
    std::fs::write(&bad, text).unwrap();
    let out = run(
        &db,
        &["kontoauszug", "2026", bad.to_str().unwrap(), "--buchen"],
    );
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("Element Ntry/Amt: „15,00“ ist kein Betrag (erwartet z. B. 25.00)"),
        "{err}"
    );
    assert_eq!(exported(&db), before);
    let out = run(
        &db,
        &["kontoauszug", "2031", fixture(FILES[0]).to_str().unwrap()],
    );
    assert_eq!(
        out.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}
