//! Unit tests of `src/league/check.rs`: the one check of a season file.

use serde_json::{json, Value};

use super::*;
use crate::league::model::file::SeatEntry;
use crate::league::model::names::normalize_name;
use crate::league::model::season::max_outs_per_round;
use crate::league::testkit::{file, row};

fn date(s: &str) -> chrono::NaiveDate {
    s.parse().expect("test date")
}

/// A valid 2026 season: one night, one table, two rounds, one fine.
fn base() -> Value {
    json!({
        "format": "schockerliga-season/1", "season": 2026, "rules": {},
        "players": [ { "name": "Anna", "fee_paid_on": "2026-02-06" },
                     { "name": "Bernd", "fee_paid_on": null },
                     { "name": "Carla", "fee_paid_on": null } ],
        "nights": [ { "date": "2026-01-09",
            "tables": [ { "number": 1, "rounds": [
                { "number": 1, "results": [ row("Anna", 1, 1, 0, false, false),
                                            row("Bernd", 0, 0, 1, false, true),
                                            row("Carla", 0, 0, 0, false, false) ] },
                { "number": 2, "results": [ row("Anna", 0, 0, 0, false, true),
                                            row("Bernd", 0, 0, 0, false, false),
                                            row("Carla", 2, 0, 0, true, false) ] } ] } ],
            "fines": [ { "player": "Bernd", "kind": "late", "paid": true } ] } ]
    })
}

/// Sets the value at `pointer`; the last step may be a new key of an object.
fn set(v: &mut Value, pointer: &str, new: Value) {
    let (parent, key) = pointer.rsplit_once('/').expect("pointer with a slash");
    match v.pointer_mut(parent) {
        Some(Value::Object(m)) => {
            m.insert(key.to_string(), new);
        }
        Some(Value::Array(a)) => {
            let i: usize = key.parse().expect("array index");
            a[i] = new;
        }
        _ => panic!("no {parent} in the test file"),
    }
}

fn push(v: &mut Value, pointer: &str, new: Value) {
    v.pointer_mut(pointer)
        .and_then(Value::as_array_mut)
        .unwrap_or_else(|| panic!("no array {pointer} in the test file"))
        .push(new);
}

#[test]
fn player_names_are_nfc_visible_and_unique_ignoring_case() {
    // (name given to the 4th player, expected error fragment or None when accepted)
    let cases: [(&str, Option<&str>); 12] = [
        ("Dora", None),
        ("  Ju\u{308}rgen ", None),
        (
            "anna",
            Some("„anna“ gibt es schon als „Anna“ (Groß-/Kleinschreibung)"),
        ),
        ("ANNA", Some("(Groß-/Kleinschreibung)")),
        ("Anna", Some("doppelt vergeben")),
        (
            "Do\u{7}ra",
            Some("Steuerzeichen oder unsichtbares Zeichen (U+0007) (4. Spieler"),
        ),
        ("\u{1b}[31mDora", Some("U+001B")),
        ("Do\tra", Some("U+0009")),
        ("Do\nra", Some("U+000A")),
        ("\u{202E}aroD", Some("U+202E")),
        ("Do\u{2066}ra", Some("U+2066")),
        ("\u{200B}\u{FEFF}", Some("U+200B")),
    ];
    for (name, want) in cases {
        let mut v = base();
        push(
            &mut v,
            "/players",
            json!({ "name": name, "fee_paid_on": null }),
        );
        match (Season::from_file(&file(v)), want) {
            (Ok(s), None) => {
                let last = &s.players[3].name;
                assert_eq!(last, &normalize_name(name), "{name:?}");
            }
            (Ok(_), Some(w)) => panic!("{name:?} accepted, expected {w:?}"),
            (Err(e), None) => panic!("{name:?} refused: {e}"),
            (Err(e), Some(w)) => assert!(e.to_string().contains(w), "{name:?}: {e}"),
        }
    }
    // A result naming the NFD spelling finds the NFC player.
    let mut v = base();
    set(&mut v, "/players/0/name", json!("Ju\u{308}rgen"));
    set(&mut v, &format!("{ROW0}/player"), json!("J\u{fc}rgen"));
    set(
        &mut v,
        "/nights/0/tables/0/rounds/1/results/0/player",
        json!("J\u{fc}rgen"),
    );
    let s = Season::from_file(&file(v)).expect("NFD and NFC name one player");
    assert_eq!(s.players[0].name, "J\u{fc}rgen");
}

const R1: &str = "/nights/0/tables/0/rounds/0";
const ROW0: &str = "/nights/0/tables/0/rounds/0/results/0";

/// Ten players Anna, P2..P10 for two-table nights.
fn ten_players(v: &mut Value) {
    for i in 2..=10 {
        push(
            v,
            "/players",
            json!({ "name": format!("P{i}"), "fee_paid_on": null }),
        );
    }
}

fn two_tables(v: &mut Value, names_at_2: &[&str]) {
    let results: Vec<Value> = names_at_2
        .iter()
        .enumerate()
        .map(|(i, n)| row(n, 0, 0, 0, false, i == 0))
        .collect();
    push(
        v,
        "/nights/0/tables",
        json!({ "number": 2, "rounds": [ { "number": 1, "results": results } ] }),
    );
}

#[test]
fn two_tables_count_the_drawn_participants_when_known() {
    // 10 drawn, but one of them has not played yet: 9 players with a row. Without a draw the rows
    // are the participants (9: refused); a draw of 9, 10 or 11 counts its size.
    let mut v = base();
    ten_players(&mut v);
    push(
        &mut v,
        "/players",
        json!({ "name": "P11", "fee_paid_on": null }),
    );
    two_tables(&mut v, &["P2", "P3", "P4", "P5", "P6", "P7"]);
    let at_1 = ["Anna", "Bernd", "Carla"];
    let at_2 = ["P2", "P3", "P4", "P5", "P6", "P7", "P8", "P9"];
    let cases = [
        (None, false),
        (Some(9), false),
        (Some(10), true),
        (Some(11), true),
    ];
    for (present, ok) in cases {
        let mut f = file(v.clone());
        if let Some(n) = present {
            let mut draw: Vec<SeatEntry> = at_1
                .iter()
                .map(|p| SeatEntry {
                    player: p.to_string(),
                    table: 1,
                })
                .chain(at_2.iter().map(|p| SeatEntry {
                    player: p.to_string(),
                    table: 2,
                }))
                .collect();
            draw.truncate(9);
            if n >= 10 {
                draw.push(SeatEntry {
                    player: "P10".into(),
                    table: 1,
                });
            }
            if n >= 11 {
                draw.push(SeatEntry {
                    player: "P11".into(),
                    table: 2,
                });
            }
            f.nights[0].draw = Some(draw);
        }
        let got = Season::from_file(&f);
        assert_eq!(got.is_ok(), ok, "present {present:?}: {got:?}");
        if let Err(e) = got {
            assert!(
                e.to_string().contains("zwei Tische erst ab 10 Teilnehmern"),
                "{e}"
            );
        }
    }
}

#[test]
fn an_explicit_draw_seats_every_row_at_its_table() {
    // (draw of the base night, expected error fragment or None when accepted)
    let seat = |p: &str, t: u32| SeatEntry {
        player: p.into(),
        table: t,
    };
    let cases: Vec<(Vec<SeatEntry>, Option<&str>)> = vec![
        (
            vec![seat("Anna", 1), seat("Bernd", 1), seat("Carla", 1)],
            None,
        ),
        // a drawn player without a row yet (a late arrival)
        (
            vec![
                seat("Anna", 1),
                seat("Bernd", 1),
                seat("Carla", 1),
                seat("Dora", 1),
            ],
            Some("unbekannter Spieler"),
        ),
        (
            vec![seat("Anna", 1), seat("Bernd", 1)],
            Some(
                "Carla ist an diesem Abend nicht ausgelost; hier nur Spieler von Tisch 1 eintragen",
            ),
        ),
        (
            vec![seat("Anna", 1), seat("Bernd", 1), seat("Carla", 2)],
            Some("Carla ist an Tisch 2 ausgelost"),
        ),
        (
            vec![
                seat("Anna", 1),
                seat("Anna", 1),
                seat("Bernd", 1),
                seat("Carla", 1),
            ],
            Some("ist an diesem Abend schon ausgelost"),
        ),
        (
            vec![seat("Anna", 3), seat("Bernd", 1), seat("Carla", 1)],
            Some("Tischnummer muss 1 oder 2 sein"),
        ),
    ];
    for (draw, want) in cases {
        let mut f = file(base());
        f.nights[0].draw = Some(draw.clone());
        match (Season::from_file(&f), want) {
            (Ok(s), None) => assert_eq!(s.nights[0].draw, draw),
            (Ok(_), Some(w)) => panic!("{draw:?} accepted, expected {w:?}"),
            (Err(e), None) => panic!("{draw:?} refused: {e}"),
            (Err(e), Some(w)) => assert!(e.to_string().contains(w), "{draw:?}: {e}"),
        }
    }
    // Without a draw, the rows are the draw; the export leaves such a draw out and writes a
    // draw with a late arrival.
    let s = Season::from_file(&file(base())).expect("valid");
    let names: Vec<&str> = s.nights[0].draw.iter().map(|d| d.player.as_str()).collect();
    assert_eq!(names, ["Anna", "Bernd", "Carla"]);
    assert_eq!(s.to_file().nights[0].draw, None);
    let mut v = base();
    push(
        &mut v,
        "/players",
        json!({ "name": "Dora", "fee_paid_on": null }),
    );
    let mut f = file(v);
    f.nights[0].draw = Some(vec![
        seat("Anna", 1),
        seat("Bernd", 1),
        seat("Carla", 1),
        seat("Dora", 1),
    ]);
    let late = Season::from_file(&f).expect("a late arrival is drawn");
    assert_eq!(
        late.to_file().nights[0].draw.as_ref().map(Vec::len),
        Some(4)
    );
    assert_eq!(Season::from_file(&late.to_file()), Ok(late));
}

#[test]
fn the_base_file_is_accepted() {
    let s = Season::from_file(&file(base())).expect("valid");
    assert_eq!(s.players.len(), 3);
    assert_eq!(s.players[0].fee_cents, 1500);
    assert_eq!(s.nights[0].fines[0].amount_cents, 100);
}

#[test]
fn accepted_edge_cases() {
    type Edit = fn(&mut Value);
    let cases: [(&str, Edit); 7] = [
        ("3 Outs, all Hand-Outs", |v| {
            set(v, &format!("{ROW0}/outs"), json!(3));
            set(v, &format!("{ROW0}/hand_outs"), json!(3));
        }),
        ("10 Julen", |v| set(v, &format!("{ROW0}/julen"), json!(10))),
        ("fee on 30 September", |v| {
            set(v, "/players/0/fee_paid_on", json!("2026-09-30"))
        }),
        ("round 10", |v| set(v, &format!("{R1}/number"), json!(10))),
        ("fine with own amount 0", |v| {
            set(v, "/nights/0/fines/0/amount_cents", json!(0))
        }),
        ("name trimmed", |v| {
            set(v, "/players/0/name", json!("  Anna "));
        }),
        ("two tables from 10 participants", |v| {
            ten_players(v);
            two_tables(v, &["P2", "P3", "P4", "P5", "P6", "P7", "P8"]);
        }),
    ];
    for (what, edit) in cases {
        let mut v = base();
        edit(&mut v);
        if let Err(e) = Season::from_file(&file(v)) {
            panic!("{what}: refused: {e}");
        }
    }
}

/// One case per check: the edit breaks the base file, the error's Display must be exactly this.
#[test]
fn every_check_refuses_with_a_located_message() {
    type Edit = fn(&mut Value);
    let at = "Abend 09.01.2026, Tisch 1, Runde 1";
    let cases: Vec<(Edit, String)> = vec![
        (
            |v| set(v, "/format", json!("schockerliga-season/2")),
            "Feld format: unbekanntes Format \"schockerliga-season/2\" (erwartet \"schockerliga-season/1\")".into(),
        ),
        (
            |v| set(v, "/rules", json!({ "rounds_per_night": 0 })),
            "Feld rules.rounds_per_night: muss zwischen 1 und 100 liegen".into(),
        ),
        (
            |v| set(v, "/players/1/name", json!("   ")),
            "Feld Name: Spielername darf nicht leer sein (2. Spieler der Liste)".into(),
        ),
        (
            |v| set(v, "/players/1/name", json!(" Anna")),
            "Spieler Anna, Feld Name: Spielername ist doppelt vergeben".into(),
        ),
        (
            |v| set(v, "/players/1/name", json!("x".repeat(61))),
            format!("Spieler {}, Feld Name: Spielername hat mehr als 60 Zeichen", "x".repeat(61)),
        ),
        (
            // Hostile run: a name of megabytes is named by its first 60 characters.
            |v| set(v, "/players/1/name", json!("y".repeat(100_000))),
            format!("Spieler {}…, Feld Name: Spielername hat mehr als 60 Zeichen", "y".repeat(60)),
        ),
        (
            |v| set(v, "/players/0/fee_paid_on", json!("2025-12-30")),
            "Spieler Anna, Feld Beitragsdatum: Zahldatum 30.12.2025 liegt nicht in der Saison 2026".into(),
        ),
        (
            |v| set(v, "/players/0/fee_paid_on", json!("2026-10-01")),
            "Spieler Anna, Feld Beitragsdatum: Beitritt zur 1. Liga nur bis Ende September".into(),
        ),
        (
            |v| set(v, "/nights/0/date", json!("2027-01-08")),
            "Abend 08.01.2027, Feld Datum: der Spielabend liegt nicht in der Saison 2026: ein Abend am 08.01.2027 gehört in die Saison 2027".into(),
        ),
        (
            |v| {
                let night = v["nights"][0].clone();
                push(v, "/nights", night);
            },
            "Abend 09.01.2026, Feld Datum: an diesem Datum gibt es schon einen Spielabend".into(),
        ),
        (
            |v| set(v, "/nights/0/tables/0/number", json!(3)),
            "Abend 09.01.2026, Tisch 3, Feld Tischnummer: Tischnummer muss 1 oder 2 sein".into(),
        ),
        (
            |v| {
                ten_players(v);
                let t = v["nights"][0]["tables"][0].clone();
                push(v, "/nights/0/tables", t);
            },
            "Abend 09.01.2026, Tisch 1, Feld Tischnummer: Tischnummer an diesem Abend doppelt".into(),
        ),
        (
            |v| {
                ten_players(v);
                two_tables(v, &["P2", "P3", "P4", "P5", "P6"]);
            },
            "Abend 09.01.2026, Tisch 2, Feld Tische: zwei Tische erst ab 10 Teilnehmern (hier 8)".into(),
        ),
        (
            |v| two_tables(v, &["Carla", "Bernd"]),
            "Abend 09.01.2026, Tisch 2, Runde 1, Spieler Carla, Feld Spieler: spielt an diesem Abend schon an Tisch 1".into(),
        ),
        (
            |v| set(v, &format!("{ROW0}/player"), json!("Zora")),
            format!("{at}, Spieler Zora, Feld Spieler: unbekannter Spieler \"Zora\""),
        ),
        (
            |v| set(v, &format!("{ROW0}/player"), json!("Carla")),
            format!("{at}, Spieler Carla, Feld Spieler: hat in dieser Runde schon eine Zeile"),
        ),
        (
            |v| set(v, &format!("{R1}/results"), json!([row("Bernd", 0, 0, 0, false, true)])),
            format!("{at}: eine Runde braucht mindestens 2 Spieler"),
        ),
        (
            |v| set(v, &format!("{R1}/results/1/lost"), json!(false)),
            format!("{at}, Feld verloren: genau ein Spieler muss die Runde verlieren (hier 0)"),
        ),
        (
            |v| set(v, &format!("{R1}/results/2/lost"), json!(true)),
            format!("{at}, Spieler Carla, Feld verloren: genau ein Spieler muss die Runde verlieren (hier 2)"),
        ),
        (
            |v| set(v, &format!("{R1}/number"), json!(0)),
            "Abend 09.01.2026, Tisch 1, Runde 0, Feld Rundennummer: Rundennummer muss zwischen 1 und 10 liegen".into(),
        ),
        (
            |v| set(v, &format!("{R1}/number"), json!(11)),
            "Abend 09.01.2026, Tisch 1, Runde 11, Feld Rundennummer: Rundennummer muss zwischen 1 und 10 liegen".into(),
        ),
        (
            |v| set(v, &format!("{R1}/number"), json!(2)),
            "Abend 09.01.2026, Tisch 1, Runde 2, Feld Rundennummer: Rundennummer an diesem Tisch doppelt".into(),
        ),
        (
            |v| set(v, &format!("{ROW0}/hand_outs"), json!(2)),
            format!("{at}, Spieler Anna, Feld Hand-Outs: mehr Hand-Outs (2) als Outs (1)"),
        ),
        (
            |v| set(v, &format!("{ROW0}/outs"), json!(4)),
            format!("{at}, Spieler Anna, Feld Outs: 4 Outs: ein Schock Out beendet die Hälfte; höchstens 3 Outs pro Spieler und Runde"),
        ),
        (
            |v| set(v, &format!("{ROW0}/julen"), json!(11)),
            format!("{at}, Spieler Anna, Feld Julen: 11 Julen: höchstens 10 Julen pro Spieler und Runde"),
        ),
        (
            |v| set(v, &format!("{R1}/results/2/joker"), json!(true)),
            "Abend 09.01.2026, Tisch 1, Runde 2, Spieler Carla, Feld Joker: hat an diesem Abend schon eine Joker-Runde (Tisch 1, Runde 1)".into(),
        ),
        (
            |v| {
                set(v, "/season", json!(2010));
                set(v, "/players/0/fee_paid_on", json!(null));
                set(v, "/nights/0/date", json!("2010-01-08"));
                set(v, "/nights/0/fines", json!([]));
            },
            "Abend 08.01.2010, Tisch 1, Runde 2, Spieler Carla, Feld Joker: in der Saison 2010 gibt es keine Joker-Runde".into(),
        ),
        (
            |v| {
                set(v, "/season", json!(2011));
                set(v, "/players/0/fee_paid_on", json!(null));
                set(v, "/nights/0/date", json!("2011-01-07"));
            },
            "Abend 07.01.2011, Spieler Bernd, Feld Strafart: die Saison 2011 hat keinen Strafenkatalog (erst ab 2012)".into(),
        ),
        (
            |v| set(v, "/nights/0/fines/0/kind", json!("rude")),
            "Abend 09.01.2026, Spieler Bernd, Feld Strafart: Strafart \"rude\" steht nicht im Strafenkatalog (late, sleepy)".into(),
        ),
        (
            |v| set(v, "/nights/0/fines/0/player", json!("Zora")),
            "Abend 09.01.2026, Spieler Zora, Feld Spieler: unbekannter Spieler \"Zora\"".into(),
        ),
        (
            |v| set(v, "/nights/0/fines/0/amount_cents", json!(-1)),
            "Abend 09.01.2026, Spieler Bernd, Feld Betrag: Betrag darf nicht negativ sein".into(),
        ),
        (
            |v| set(v, "/nights/0/fines/0/amount_cents", json!(1_000_001)),
            "Abend 09.01.2026, Spieler Bernd, Feld Betrag: Betrag darf höchstens 1.000.000 Cent (10.000 €) sein".into(),
        ),
        (
            |v| set(v, "/nights/0/fines/0/amount_cents", json!(i64::MAX)),
            "Abend 09.01.2026, Spieler Bernd, Feld Betrag: Betrag darf höchstens 1.000.000 Cent (10.000 €) sein".into(),
        ),
    ];
    for (i, (edit, expected)) in cases.into_iter().enumerate() {
        let mut v = base();
        edit(&mut v);
        match Season::from_file(&file(v)) {
            Ok(_) => panic!("case {i} accepted, expected: {expected}"),
            Err(e) => assert_eq!(e.to_string(), expected, "case {i}"),
        }
    }
}

#[test]
fn the_first_error_in_file_order_wins() {
    let mut v = base();
    set(
        &mut v,
        "/nights/0/tables/0/rounds/1/results/0/outs",
        json!(5),
    );
    set(&mut v, &format!("{ROW0}/hand_outs"), json!(4));
    let e = Season::from_file(&file(v)).expect_err("two errors");
    assert_eq!(e.location.round, Some(1));
    assert_eq!(e.location.field.as_deref(), Some("hand_outs"));
    // within a row: outs comes before hand_outs
    let mut v = base();
    set(&mut v, &format!("{ROW0}/outs"), json!(4));
    set(&mut v, &format!("{ROW0}/hand_outs"), json!(5));
    let e = Season::from_file(&file(v)).expect_err("two errors");
    assert_eq!(e.location.field.as_deref(), Some("outs"));
    // a duplicate date is reported before errors inside the duplicate night
    let mut v = base();
    let mut night = v["nights"][0].clone();
    night["tables"][0]["number"] = json!(7);
    push(&mut v, "/nights", night);
    let e = Season::from_file(&file(v)).expect_err("two errors");
    assert_eq!(e.location.field.as_deref(), Some("date"));
    // a rules error names the rules field
    let mut v = base();
    set(&mut v, "/rules", json!({ "out_points": "x" }));
    let e = Season::from_file(&file(v)).expect_err("bad rules");
    assert_eq!(e.location.field.as_deref(), Some("rules"));
}

#[test]
fn with_night_adds_or_replaces_and_checks() {
    let s = Season::from_file(&file(base())).expect("valid");
    let mut night = file(base()).nights[0].clone();
    night.date = NaiveDate::from_ymd_opt(2026, 1, 16).expect("date");
    let two = s.with_night(&night).expect("valid night");
    assert_eq!(two.nights.len(), 2);
    let same = two.with_night(&night).expect("replaces");
    assert_eq!(same, two);
    night.tables[0].rounds[0].results[0].outs = 4;
    let e = two.with_night(&night).expect_err("4 Outs");
    assert_eq!(e.location.night, Some(night.date));
    assert_eq!(e.location.field.as_deref(), Some("outs"));
}

#[test]
fn the_outs_limit_is_the_engines() {
    // The league takes the limit of the rules engine with the parts unknown (league.md §1).
    let engine = crate::rules::max_outs_per_round(&crate::rules::RuleSet::default(), None);
    assert_eq!(max_outs_per_round(&RuleSet::default()), engine);
    assert_eq!(engine, 3);
    // (outs, accepted): the limit itself is accepted, one more is refused with the limit named
    for (outs, ok) in [(engine, true), (engine + 1, false)] {
        let mut v = base();
        set(&mut v, &format!("{ROW0}/outs"), json!(outs));
        match Season::from_file(&file(v)) {
            Ok(_) => assert!(ok, "{outs} accepted"),
            Err(e) => {
                assert!(!ok, "{outs}: {e}");
                assert!(
                    e.to_string().contains(&format!("höchstens {engine} Outs")),
                    "{e}"
                );
            }
        }
    }
}

#[test]
fn a_night_carries_its_closed_state_and_korrekturen_through_the_file() {
    let mut v = base();
    set(&mut v, "/nights/0/closed", json!(true));
    set(
        &mut v,
        "/nights/0/corrections",
        json!([ { "at": "2026-01-10T09:30:00+00:00", "user": "anna", "reason": "Runde 2 falsch" },
                { "at": "2026-01-11T10:00:00.123+01:00", "user": "Tisch 1 (Link von anna)",
                  "reason": " wieder geöffnet: Strafe vergessen " } ]),
    );
    let s = Season::from_file(&file(v.clone())).expect("closed night with Korrekturen");
    assert!(s.nights[0].closed);
    let c = s.corrections_of(date("2026-01-09"));
    assert_eq!(c.len(), 2);
    assert_eq!(c[1].reason, "wieder geöffnet: Strafe vergessen", "trimmed");
    let back = s.to_file();
    assert!(back.nights[0].closed);
    assert_eq!(back.nights[0].corrections, c);
    assert_eq!(Season::from_file(&back).expect("again"), s);
    // Without them the export writes neither field (files of before stay byte for byte).
    let plain = Season::from_file(&file(base())).expect("base");
    let text = serde_json::to_string(&plain.to_file()).expect("json");
    assert!(
        !text.contains("closed") && !text.contains("corrections"),
        "{text}"
    );
    // (pointer, value, refusal)
    let bad = [
        (
            "/nights/0/corrections",
            json!([{ "at": "gestern", "user": "anna", "reason": "x" }]),
            "Abend 09.01.2026, Feld corrections[0].at: „gestern“ ist kein Zeitpunkt",
        ),
        (
            "/nights/0/corrections",
            json!([{ "at": "2026-01-10T09:30:00Z", "user": "anna", "reason": "  " }]),
            "Feld corrections[0].reason: muss 1 bis 500 Zeichen haben",
        ),
        (
            "/nights/0/corrections",
            json!([{ "at": "2026-01-10T09:30:00Z", "user": "", "reason": "x" }]),
            "Feld corrections[0].user: muss 1 bis 200 Zeichen haben",
        ),
        (
            "/nights/0/corrections",
            json!([{ "at": "2026-01-10T09:30:00Z", "user": "anna",
            "reason": "Grund\u{202E}" }]),
            "Feld corrections[0].reason: enthält",
        ),
        (
            "/nights/0/corrections",
            json!([{ "at": "2026-01-10T09:30:00Z", "user": "anna",
            "reason": "x".repeat(501) }]),
            "muss 1 bis 500 Zeichen haben",
        ),
        ("/nights/0/closed", json!("ja"), "invalid type"),
    ];
    for (pointer, value, want) in bad {
        let mut v = base();
        set(&mut v, pointer, value);
        let got = serde_json::from_value::<crate::league::model::file::SeasonFile>(v)
            .map_err(|e| e.to_string())
            .and_then(|f| Season::from_file(&f).map_err(|e| e.to_string()));
        match got {
            Err(e) => assert!(e.contains(want), "{pointer}: {e}"),
            Ok(_) => panic!("{pointer}: accepted"),
        }
    }
}

#[test]
fn a_look_alike_name_is_refused_coming_in_but_a_stored_one_still_loads() {
    let mut v = base();
    push(&mut v, "/players", json!({ "name": "\u{FF21}nna" }));
    let f = file(v);
    let refused = Season::from_file(&f).expect_err("a look-alike coming in");
    assert!(
        refused.message.contains("„Ａnna“ sieht aus wie „Anna“"),
        "{}",
        refused.message
    );
    // Stored before the look-alike check existed: the season loads, the two stay apart.
    let (stored, dropped) = Season::from_stored_file(&f).expect("a stored season loads");
    assert!(dropped.is_empty());
    assert_eq!(stored.players.len(), 4);
    assert_eq!(stored.limits().len(), 1, "{:?}", stored.limits());
}
