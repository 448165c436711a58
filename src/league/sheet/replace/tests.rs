//! Unit tests of `src/league/replace.rs`: replacing a season's results from a file without money
//! keeps the money, finds the closed nights it changes, and leaves equal nights alone.

use serde_json::{json, Value};

use super::*;
use crate::league::model::file::FineEntry;
use crate::league::testkit::{file, season, season_json, NightSpec};

fn d(s: &str) -> NaiveDate {
    NaiveDate::parse_from_str(s, "%Y-%m-%d").unwrap()
}

/// The stored season: two nights of rounds; the first with two fines (one paid on a later day),
/// the second closed; Anna's fee paid; a Strafenkatalog of its own and a rule of its own.
fn stored() -> Season {
    let mut first = NightSpec {
        date: "2026-01-09",
        outs: &[4, 2],
        lost: &[3],
        ..NightSpec::default()
    }
    .build();
    first["fines"] = json!([
        { "player": "Bernd", "kind": "handy", "paid": true, "paid_on": "2026-01-16" },
        { "player": "Anna", "kind": "late", "paid": false }
    ]);
    let mut second = NightSpec {
        date: "2026-01-16",
        outs: &[1, 3],
        lost: &[6],
        ..NightSpec::default()
    }
    .build();
    second["closed"] = Value::Bool(true);
    let mut v = season_json(
        2026,
        &[("Anna", Some("2026-02-06")), ("Bernd", None)],
        vec![first, second],
    );
    v["rules"] =
        json!({ "fines": { "late": 100, "sleepy": 50, "handy": 250 }, "lucky_looser_cents": 500 });
    season(v)
}

/// A sheet's season (totals, default rules, no fines): `rows` are (date, player, rounds, outs,
/// lost); `fee` Bernd's fee date if any.
fn sheet(rows: &[(&str, &str, u32, u32, u32)], fee: Option<&str>) -> SeasonFile {
    let mut nights: BTreeMap<&str, Vec<Value>> = BTreeMap::new();
    for (date, player, rounds, outs, lost) in rows {
        nights.entry(date).or_default().push(json!({
            "player": player, "rounds": rounds, "outs": outs, "lost": lost
        }));
    }
    let nights = nights
        .into_iter()
        .map(|(date, totals)| json!({ "date": date, "totals": totals }))
        .collect();
    file(season_json(2026, &[("Anna", None), ("bernd", fee)], nights))
}

fn fines(f: &SeasonFile) -> Vec<(NaiveDate, FineEntry)> {
    f.nights
        .iter()
        .flat_map(|n| n.fines.iter().map(move |x| (n.date, x.clone())))
        .collect()
}

#[test]
fn a_sheet_replaces_results_and_keeps_fines_fees_and_the_strafenkatalog() {
    let stored = stored();
    let incoming = sheet(
        &[
            ("2026-01-09", "Anna", 10, 5, 2),
            ("2026-01-09", "Bernd", 10, 1, 8),
            ("2026-01-16", "Anna", 10, 1, 4),
            ("2026-01-16", "Bernd", 10, 3, 6),
        ],
        Some("2026-03-01"),
    );
    let mut r = plan(&stored, &incoming).unwrap();
    let before = stored.to_file();
    assert_eq!(fines(&r.file), fines(&before), "every fine as it was");
    assert_eq!(
        r.file.rules, before.rules,
        "the rules and the Strafenkatalog kept"
    );
    assert_eq!(
        r.file.players,
        vec![
            before.players[0].clone(),
            crate::league::model::file::PlayerEntry {
                name: "Bernd".to_string(),
                fee_paid_on: Some(d("2026-03-01")),
                fee_from_account: false,
            }
        ],
        "Anna's fee kept, the league's spelling kept, a fee only the sheet knows taken"
    );
    let dates: Vec<(NaiveDate, Outcome, bool)> = r
        .nights
        .iter()
        .map(|n| (n.date, n.outcome, n.closed))
        .collect();
    assert_eq!(
        dates,
        [
            (d("2026-01-09"), Outcome::Replaced, false),
            (d("2026-01-16"), Outcome::Replaced, true)
        ]
    );
    assert_eq!(r.nights[0].fines, 2);
    assert_eq!(
        (r.nights[0].before.outs, r.nights[0].after.outs),
        (6, 6),
        "the Outs of the night"
    );
    assert!(r.nights[0].after.recorded_as_totals);
    assert_eq!(r.closed(), [d("2026-01-16")]);
    r.correct("alte Tabelle", "schrift", "2026-12-26T10:00:00Z");
    let closed = r
        .file
        .nights
        .iter()
        .find(|n| n.date == d("2026-01-16"))
        .unwrap();
    assert!(closed.closed);
    assert_eq!(closed.corrections.len(), 1);
    assert_eq!(closed.corrections[0].reason, "alte Tabelle");
    let open = r
        .file
        .nights
        .iter()
        .find(|n| n.date == d("2026-01-09"))
        .unwrap();
    assert!(open.corrections.is_empty());
    let replaced = Season::from_file(&r.file).unwrap();
    assert_eq!(replaced.rules.fines.get("handy"), Some(&250));
    assert_eq!(replaced.rules.lucky_looser_cents, 500);

    // The same sheet over the replaced season changes nothing: no night, no Korrektur.
    let again = plan(&replaced, &incoming).unwrap();
    assert!(again.nights.is_empty(), "{:?}", again.nights);
    assert_eq!(again.file, replaced.to_file());
}

#[test]
fn a_night_the_file_does_not_have_loses_its_results_and_stays_only_for_its_fines() {
    let stored = stored();
    let mut planned = stored.to_file();
    planned.nights.push(NightEntry {
        date: d("2026-01-30"),
        tables: Vec::new(),
        fines: Vec::new(),
        draw: None,
        totals: Vec::new(),
        closed: false,
        corrections: Vec::new(),
    });
    let stored = Season::from_file(&planned).unwrap();
    let incoming = sheet(
        &[
            ("2026-01-23", "Anna", 10, 2, 5),
            ("2026-01-23", "Bernd", 10, 2, 5),
        ],
        None,
    );
    let r = plan(&stored, &incoming).unwrap();
    let got: Vec<(NaiveDate, Outcome, bool, usize)> = r
        .nights
        .iter()
        .map(|n| (n.date, n.outcome, n.closed, n.fines))
        .collect();
    assert_eq!(
        got,
        [
            (d("2026-01-09"), Outcome::Emptied, false, 2),
            (d("2026-01-16"), Outcome::Removed, true, 0)
        ]
    );
    assert_eq!(r.new_nights, 1);
    let dates: Vec<NaiveDate> = r.file.nights.iter().map(|n| n.date).collect();
    assert_eq!(
        dates,
        [d("2026-01-09"), d("2026-01-23"), d("2026-01-30")],
        "the night planned ahead stays, the closed one without fines goes"
    );
    assert_eq!(fines(&r.file), fines(&stored.to_file()));
    assert_eq!(r.closed(), [d("2026-01-16")]);
}

#[test]
fn an_endstand_does_not_replace_nights_that_hold_fines() {
    let stored = stored();
    let mut endstand = sheet(&[], None);
    endstand.endstand = vec![crate::league::model::file::EndstandEntry {
        player: "Anna".to_string(),
        liga: crate::league::model::rules::Liga::Second,
        rounds: 40,
        counted_outs: 20,
        paid_rounds: 5,
        lost_rounds: None,
        thrown_outs: 0,
        hand_outs: 0,
        julen: 0,
    }];
    let e = plan(&stored, &endstand).unwrap_err();
    assert_eq!(e.location.night, Some(d("2026-01-09")));
    assert!(e.message.contains("seine 2 Strafen bleiben"), "{e}");
    // Without the fines the nights go (the closed one as a Korrektur).
    let mut bare = stored.to_file();
    for n in &mut bare.nights {
        n.fines.clear();
    }
    let r = plan(&Season::from_file(&bare).unwrap(), &endstand).unwrap();
    assert!(r.file.nights.is_empty());
    assert_eq!(r.closed(), [d("2026-01-16")]);
    assert!(r.nights.iter().all(|n| n.outcome == Outcome::Removed));
}

#[test]
fn a_season_file_carries_money_with_a_fine_a_fee_or_a_strafenkatalog() {
    let bare = sheet(&[("2026-01-09", "Anna", 10, 1, 5)], None);
    assert!(!carries_money(&bare));
    assert!(carries_money(&stored().to_file()));
    let mut fee = bare.clone();
    fee.players[0].fee_paid_on = Some(d("2026-02-01"));
    assert!(carries_money(&fee));
    let mut catalogue = bare.clone();
    catalogue
        .rules
        .insert("fines".to_string(), json!({ "late": 100 }));
    assert!(carries_money(&catalogue));
    let mut other_rule = bare;
    other_rule
        .rules
        .insert("lucky_looser_cents".to_string(), json!(500));
    assert!(!carries_money(&other_rule));
}

#[test]
fn a_fee_only_the_file_knows_is_named_the_ones_the_season_has_are_not() {
    // The sheet gives Bernd a fee day the season does not have: taken from the sheet and named
    // (the one money a replacement adds); Anna's fee of the season stays and is not named.
    let stored = stored();
    let incoming = sheet(
        &[
            ("2026-01-09", "Anna", 10, 5, 2),
            ("2026-01-09", "Bernd", 10, 1, 8),
        ],
        Some("2026-03-01"),
    );
    let r = plan(&stored, &incoming).unwrap();
    assert_eq!(r.fees_taken, [("Bernd".to_string(), d("2026-03-01"))]);
    let without = sheet(
        &[
            ("2026-01-09", "Anna", 10, 5, 2),
            ("2026-01-09", "Bernd", 10, 1, 8),
        ],
        None,
    );
    assert!(plan(&stored, &without).unwrap().fees_taken.is_empty());
}

#[test]
fn a_night_kept_as_totals_emptied_for_its_fines_stays_history_not_open() {
    // Hostile run: a season read from a sheet (nights kept as totals: history, never open),
    // one night with a fine; „ersetzen“ from a sheet without that night left it with its fine
    // only, no totals, not closed: the Jahresabschluss then waited for it as "Noch offen".
    let mut stored = sheet(
        &[
            ("2026-01-09", "Anna", 10, 5, 2),
            ("2026-01-09", "bernd", 10, 1, 8),
            ("2026-01-16", "Anna", 10, 1, 4),
            ("2026-01-16", "bernd", 10, 3, 6),
        ],
        None,
    );
    stored.nights[0].fines = vec![FineEntry {
        player: "Anna".to_string(),
        kind: "late".to_string(),
        amount_cents: None,
        paid: false,
        paid_on: None,
        netted: false,
        from_account: false,
    }];
    let stored = Season::from_file(&stored).unwrap();
    let incoming = sheet(
        &[
            ("2026-01-16", "Anna", 10, 1, 4),
            ("2026-01-16", "bernd", 10, 3, 6),
        ],
        None,
    );
    let r = plan(&stored, &incoming).unwrap();
    assert_eq!(r.nights[0].outcome, Outcome::Emptied);
    let after = Season::from_file(&r.file).unwrap();
    let night = after.night(d("2026-01-09")).unwrap();
    assert!(
        night.closed,
        "the emptied night is history as it was (closed), not a night still to be closed"
    );
    assert!(
        !r.nights[0].closed,
        "it was not closed before: no Korrektur asked"
    );
    assert_eq!(fines(&r.file), fines(&stored.to_file()), "its fine stays");
}

#[test]
fn a_night_of_rounds_whose_totals_the_file_repeats_keeps_its_rounds() {
    // Fifth trial: the season's own CSV export read back with „ersetzen“ turned every night of
    // rounds into totals (its Joker, its rounds, its Schockbesteck gone) and asked a Korrektur
    // for each closed night, though no figure had changed. Same totals: the night stays as it is.
    let stored = stored();
    let mut incoming = stored.to_file();
    incoming.rules = serde_json::Map::new();
    for p in &mut incoming.players {
        p.fee_paid_on = None;
    }
    for n in &mut incoming.nights {
        let night = stored.night(n.date).unwrap();
        n.totals = crate::league::sheet::totals::night_totals(&stored, night);
        n.tables.clear();
        n.draw = None;
        n.fines.clear();
        n.closed = false;
        n.corrections.clear();
    }
    assert!(!carries_money(&incoming));
    let r = plan(&stored, &incoming).unwrap();
    assert!(r.nights.is_empty(), "nothing changed: {:?}", r.nights);
    assert!(r.closed().is_empty(), "no Korrektur asked");
    assert_eq!(
        r.file,
        stored.to_file(),
        "every night of rounds kept as it was"
    );

    // One figure differs on the open night: that night alone takes the file's totals.
    incoming.nights[0].totals[0].outs += 1;
    let r = plan(&stored, &incoming).unwrap();
    let changed: Vec<(NaiveDate, Outcome)> = r.nights.iter().map(|n| (n.date, n.outcome)).collect();
    assert_eq!(changed, [(d("2026-01-09"), Outcome::Replaced)]);
    assert!(r.closed().is_empty());
}
