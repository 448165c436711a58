//! `Season::apply` as a table of (change, expected season or refusal), like the rules engine's.

use chrono::NaiveDate;
use serde_json::json;

use super::*;
use crate::league::model::check::MAX_REASON_CHARS;
use crate::league::model::season::Round;
use crate::league::testkit::{file, row};

fn d(s: &str) -> NaiveDate {
    NaiveDate::parse_from_str(s, "%Y-%m-%d").expect("test date")
}

/// 2026: Anna (fee), Bernd, Carla, Dora; 09.01. with Anna, Bernd, Carla drawn to table 1 and
/// round 1 entered (Bernd lost), one open fine of Bernd; 16.01. without participants.
fn base() -> Season {
    let mut f = file(json!({
        "format": "schockerliga-season/1", "season": 2026,
        "players": [ { "name": "Anna", "fee_paid_on": "2026-02-06" }, { "name": "Bernd" },
                     { "name": "Carla" }, { "name": "Dora" } ],
        "nights": [
            { "date": "2026-01-09",
              "tables": [ { "number": 1, "rounds": [ { "number": 1, "results": [
                  row("Anna", 1, 1, 0, false, false), row("Bernd", 0, 0, 0, false, true),
                  row("Carla", 0, 0, 0, false, false) ] } ] } ],
              "fines": [ { "player": "Bernd", "kind": "late", "paid": false } ] },
            { "date": "2026-01-16" } ]
    }));
    f.nights[0].draw = Some(
        ["Anna", "Bernd", "Carla"]
            .iter()
            .map(|p| SeatEntry {
                player: p.to_string(),
                table: 1,
            })
            .collect(),
    );
    Season::from_file(&f).expect("valid base season")
}

fn rows(spec: &[(&str, u32, bool)]) -> Vec<ResultEntry> {
    spec.iter()
        .map(|(p, outs, lost)| ResultEntry {
            player: p.to_string(),
            outs: *outs,
            hand_outs: 0,
            julen: 0,
            joker: false,
            lost: *lost,
        })
        .collect()
}

fn put(table: u32, number: u32, results: Vec<ResultEntry>, replace: bool, seat: bool) -> Change {
    Change::PutRound {
        date: d("2026-01-09"),
        table,
        number,
        results,
        replace: if replace { Replace::Any } else { Replace::No },
        seat_newcomers: seat,
        schockbesteck: None,
    }
}

fn three(outs: u32, loser: &str) -> Vec<ResultEntry> {
    rows(&[
        ("Anna", outs, loser == "Anna"),
        ("Bernd", 0, loser == "Bernd"),
        ("Carla", 0, loser == "Carla"),
    ])
}

type Check = fn(&Season);

/// (what, change, Ok(check of the new season) or Err(fragment of the refusal))
fn cases() -> Vec<(&'static str, Change, Result<Check, &'static str>)> {
    let night = d("2026-01-09");
    let empty = d("2026-01-16");
    let seat = |p: &str| SeatEntry {
        player: p.into(),
        table: 1,
    };
    vec![
        ("add a player", Change::AddPlayer { name: " Emil ".into() }, Ok(|s| {
            assert_eq!(s.players.last().map(|p| p.name.as_str()), Some("Emil"));
        })),
        ("add an empty name", Change::AddPlayer { name: "  ".into() },
            Err("Feld Name: Spielername darf nicht leer sein")),
        ("add a case twin", Change::AddPlayer { name: "anna".into() },
            Err("„anna“ gibt es schon als „Anna“")),
        ("rename", Change::RenamePlayer { from: "Bernd".into(), to: "Bernhard".into() }, Ok(|s| {
            assert!(s.player("Bernd").is_none());
            let n = &s.nights[0];
            assert!(n.draw.iter().any(|x| x.player == "Bernhard"));
            assert!(n.rows().any(|(_, _, r)| r.player == "Bernhard" && r.lost));
            assert_eq!(n.fines[0].player, "Bernhard");
        })),
        ("rename a stranger", Change::RenamePlayer { from: "Zoe".into(), to: "Zora".into() },
            Err("Zoe spielt nicht in der Saison 2026")),
        ("rename onto another", Change::RenamePlayer { from: "Bernd".into(), to: "Anna".into() },
            Err("doppelt vergeben")),
        ("fee in April", Change::SetFee { player: "Bernd".into(), paid_on: Some(d("2026-04-02")) },
            Ok(|s| assert_eq!(s.player("Bernd").map(|p| p.fee_cents), Some(1600)))),
        ("fee in October", Change::SetFee { player: "Bernd".into(), paid_on: Some(d("2026-10-01")) },
            Err("Beitritt zur 1. Liga nur bis Ende September")),
        ("fee removed", Change::SetFee { player: "Anna".into(), paid_on: None },
            Ok(|s| assert_eq!(s.player("Anna").map(|p| p.fee_cents), Some(0)))),
        ("fee of a stranger", Change::SetFee { player: "Zoe".into(), paid_on: None },
            Err("Zoe spielt nicht in der Saison 2026")),
        ("new fine kind", Change::SetFineKind { kind: " Handy ".into(), cents: Some(50) },
            Ok(|s| assert_eq!(s.rules.fines.get("Handy"), Some(&50)))),
        ("late costs more; booked fines keep their amount",
            Change::SetFineKind { kind: "late".into(), cents: Some(200) }, Ok(|s| {
                assert_eq!(s.rules.fines.get("late"), Some(&200));
                assert_eq!(s.nights[0].fines[0].amount_cents, 100);
            })),
        ("remove a booked kind", Change::SetFineKind { kind: "late".into(), cents: None },
            Err("Strafart \"late\" ist 1-mal gebucht")),
        ("remove an unknown kind", Change::SetFineKind { kind: "nope".into(), cents: None },
            Err("Strafart \"nope\" steht nicht im Strafenkatalog")),
        ("a negative amount", Change::SetFineKind { kind: "Handy".into(), cents: Some(-5) },
            Err("Strafenkatalog")),
        ("a night", Change::AddNight { date: d("2026-01-23") },
            Ok(|s| assert_eq!(s.nights.len(), 3))),
        ("a night twice", Change::AddNight { date: night },
            Err("Am 09.01.2026 gibt es schon einen Spielabend.")),
        ("a night of another year", Change::AddNight { date: d("2027-01-01") },
            Err("der Spielabend liegt nicht in der Saison 2026: ein Abend am 01.01.2027 gehört in die Saison 2027")),
        ("a draw", Change::SetDraw { date: empty, seats: vec![seat("Dora"), seat("Anna")] },
            Ok(|s| {
                let names: Vec<&str> = s.nights[1].draw.iter().map(|x| x.player.as_str()).collect();
                assert_eq!(names, ["Dora", "Anna"]);
            })),
        ("a draw after rounds", Change::SetDraw { date: night, seats: vec![seat("Dora"), seat("Anna")] },
            Err("schon Runden eingetragen")),
        ("a draw of a stranger", Change::SetDraw { date: empty, seats: vec![seat("Zoe"), seat("Anna")] },
            Err("Nur Spieler der Saison können teilnehmen.")),
        ("a draw of one", Change::SetDraw { date: empty, seats: vec![seat("Anna")] },
            Err("Mindestens 2 Teilnehmer ankreuzen.")),
        ("a draw for no night", Change::SetDraw { date: d("2026-02-01"), seats: vec![] },
            Err("Am 01.02.2026 gibt es keinen Spielabend der Saison 2026")),
        ("round 2", put(1, 2, three(2, "Carla"), false, false), Ok(|s| {
            let t = &s.nights[0].tables[0];
            assert_eq!(t.rounds.iter().map(|r| r.number).collect::<Vec<_>>(), [1, 2]);
        })),
        ("round 1 again", put(1, 1, three(0, "Carla"), false, false),
            Err("Abend 09.01.2026, Tisch 1, Runde 1 ist schon eingetragen (verloren: Bernd; Outs: Anna 1 (1 Hand-Out), Bernd 0, Carla 0)")),
        ("round 1 replaced", put(1, 1, three(0, "Carla"), true, false), Ok(|s| {
            let r = &s.nights[0].tables[0].rounds[0];
            assert_eq!(r.results.iter().find(|x| x.lost).map(|x| x.player.as_str()), Some("Carla"));
        })),
        ("a player not drawn", put(1, 2, rows(&[("Anna", 0, false), ("Dora", 0, true)]), false, false),
            Err("Spieler Dora, Feld Spieler: Dora ist an diesem Abend nicht ausgelost; hier nur Spieler von Tisch 1 eintragen")),
        ("a newcomer seated", put(1, 2, rows(&[("Anna", 0, false), ("Dora", 0, true)]), false, true),
            Ok(|s| assert!(s.nights[0].draw.iter().any(|x| x.player == "Dora" && x.table == 1)))),
        ("a stranger is not seated", put(1, 2, rows(&[("Anna", 0, false), ("Zoe", 0, true)]), false, true),
            Err("unbekannter Spieler \"Zoe\"")),
        ("4 Outs", put(1, 2, three(4, "Bernd"), false, false), Err("höchstens 3 Outs")),
        ("two losers", put(1, 2, rows(&[("Anna", 0, true), ("Bernd", 0, true)]), false, false),
            Err("genau ein Spieler muss die Runde verlieren (hier 2)")),
        ("round 11", put(1, 11, three(0, "Bernd"), false, false),
            Err("Rundennummer muss zwischen 1 und 10 liegen")),
        ("table 2 of four players", put(2, 1, rows(&[("Dora", 0, true), ("Anna", 0, false)]), false, true),
            Err("Anna ist an Tisch 1 ausgelost")),
        ("a fine", Change::BookFine { date: night, player: "Carla".into(), kind: "sleepy".into(), paid: true, again: false },
            Ok(|s| {
                let f = &s.nights[0].fines[1];
                assert_eq!((f.player.as_str(), f.amount_cents, f.paid), ("Carla", 50, true));
            })),
        ("a fine of an unknown kind", Change::BookFine { date: night, player: "Carla".into(), kind: "Bier".into(), paid: true, again: false },
            Err("Strafart \"Bier\" steht nicht im Strafenkatalog (late, sleepy)")),
        ("a fine of a stranger", Change::BookFine { date: night, player: "Zoe".into(), kind: "late".into(), paid: true, again: false },
            Err("unbekannter Spieler \"Zoe\"")),
        ("a fine paid", Change::SetFinePaid { date: night, index: 0, paid: true },
            Ok(|s| assert!(s.nights[0].fines[0].paid))),
        ("a fine that is not there", Change::SetFinePaid { date: night, index: 3, paid: true },
            Err("Diese Strafe gibt es nicht.")),
        ("closing", Change::CloseNight { date: night },
            Ok(|s| assert!(s.nights[0].closed && !s.nights[1].closed))),
        ("reopening an open night", Change::ReopenNight { date: night },
            Ok(|s| assert!(!s.nights[0].closed))),
        ("a second late fine", Change::BookFine { date: night, player: "Bernd".into(), kind: "late".into(), paid: false, again: false },
            Err("Abend 09.01.2026: Bernd hat an diesem Abend schon eine Strafe „Zuspätkommer“. Noch eine buchen?")),
        ("a second late fine, asked for", Change::BookFine { date: night, player: "Bernd".into(), kind: "late".into(), paid: false, again: true },
            Ok(|s| assert_eq!(s.nights[0].fines.len(), 2))),
        ("a late arrival", Change::SeatPlayer { date: night, player: "Dora".into(), table: None },
            Ok(|s| {
                let names: Vec<&str> = s.nights[0].draw.iter().map(|x| x.player.as_str()).collect();
                assert_eq!(names, ["Anna", "Bernd", "Carla", "Dora"]);
            })),
        ("a late arrival at table 2 of one table of four",
            Change::SeatPlayer { date: night, player: "Dora".into(), table: Some(2) },
            Err("zwei Tische erst ab 10 Teilnehmern (hier 4)")),
        ("a late arrival who is there", Change::SeatPlayer { date: night, player: "Bernd".into(), table: None },
            Err("Bernd ist an diesem Abend schon ausgelost (Tisch 1).")),
        ("a late arrival nobody knows", Change::SeatPlayer { date: night, player: "Zoe".into(), table: None },
            Err("unbekannter Spieler \"Zoe\"")),
        ("a fine paid on a day", Change::PayFine { date: night, index: 0, paid_on: Some(d("2026-02-01")) },
            Ok(|s| {
                let f = &s.nights[0].fines[0];
                assert_eq!((f.paid, f.paid_on, f.paid_on_override), (true, Some(d("2026-02-01")), Some(d("2026-02-01"))));
            })),
        ("a fine paid before its night", Change::PayFine { date: night, index: 0, paid_on: Some(d("2026-01-08")) },
            Err("Spieler Bernd, Feld paid_on: bezahlt am 08.01.2026 liegt vor dem Abend")),
        ("an open fine left open", Change::PayFine { date: night, index: 0, paid_on: None },
            Ok(|s| assert_eq!((s.nights[0].fines[0].paid, s.nights[0].fines[0].paid_on), (false, None)))),
        ("a fine paid at the night", Change::SetFinePaid { date: night, index: 0, paid: true },
            Ok(|s| assert_eq!(s.nights[0].fines[0].paid_on, Some(d("2026-01-09"))))),
        ("a payment of the open fine", Change::BookPayment { player: "Bernd".into(), cents: 100, paid_on: d("2026-01-20") },
            Ok(|s| {
                assert_eq!(s.nights[0].fines[0].paid_on, Some(d("2026-01-20")));
                assert_eq!(s.player("Bernd").and_then(|p| p.fee_paid_on), None);
            })),
        ("a payment of the fine and the fee", Change::BookPayment { player: "Bernd".into(), cents: 1800, paid_on: d("2026-05-02") },
            Ok(|s| {
                assert_eq!(s.nights[0].fines[0].paid_on, Some(d("2026-05-02")));
                let p = s.player("Bernd").expect("Bernd");
                assert_eq!((p.fee_paid_on, p.fee_cents), (Some(d("2026-05-02")), 1700));
            })),
        // Issue 34.1: what was refused ("… deckt die offenen Posten … nicht ganz", "mehr als
        // offen", "nichts offen") is the rule at the same edges now: whole items, the rest Guthaben.
        ("a payment that ends inside an item", Change::BookPayment { player: "Bernd".into(), cents: 150, paid_on: d("2026-01-20") },
            Ok(|s| {
                assert_eq!(s.nights[0].fines[0].paid_on, Some(d("2026-01-20")));
                assert!(s.nights[0].fines[0].from_account);
                assert_eq!(s.player("Bernd").and_then(|p| p.fee_paid_on), None);
                assert_eq!(s.credit_cents("Bernd"), 50);
            })),
        ("a payment of more than is open", Change::BookPayment { player: "Bernd".into(), cents: 2000, paid_on: d("2026-01-20") },
            Ok(|s| {
                let p = s.player("Bernd").expect("Bernd");
                assert_eq!((p.fee_paid_on, p.fee_cents, p.fee_from_account), (Some(d("2026-01-20")), 1500, true));
                assert_eq!(s.credit_cents("Bernd"), 400);
            })),
        ("a payment before the fine's night", Change::BookPayment { player: "Bernd".into(), cents: 100, paid_on: d("2026-01-05") },
            Ok(|s| {
                // The fee (15,00 €) is the only item that day and 1,00 € does not cover it.
                assert!(!s.nights[0].fines[0].paid);
                assert_eq!(s.credit_cents("Bernd"), 100);
                assert_eq!(s.payments.len(), 1);
            })),
        ("a payment of nothing", Change::BookPayment { player: "Bernd".into(), cents: 0, paid_on: d("2026-01-20") },
            Err("Der Betrag muss größer als 0 sein.")),
        ("a payment by a player who owes nothing", Change::BookPayment { player: "Anna".into(), cents: 100, paid_on: d("2026-01-20") },
            Ok(|s| assert_eq!(s.credit_cents("Anna"), 100))),
        ("a payment after the last join month", Change::BookPayment { player: "Carla".into(), cents: 1500, paid_on: d("2026-10-01") },
            Ok(|s| {
                assert_eq!(s.player("Carla").and_then(|p| p.fee_paid_on), None);
                assert_eq!(s.credit_cents("Carla"), 1500);
            })),
        ("Guthaben paid back without any", Change::SettleCredit { player: "Bernd".into(), on: d("2026-12-20"), carried: false },
            Err("Bernd hat in der Saison 2026 kein Guthaben.")),
        ("Guthaben brought from the previous season", Change::CarryCreditIn { player: "Bernd".into(), cents: 120, on: d("2026-01-20") },
            Ok(|s| {
                assert!(s.nights[0].fines[0].from_account);
                assert_eq!(s.credit_cents("Bernd"), 20);
            })),
        ("a payment by a stranger", Change::BookPayment { player: "Zoe".into(), cents: 100, paid_on: d("2026-01-20") },
            Err("Zoe spielt nicht in der Saison 2026")),
        ("a round removed", Change::RemoveRound { date: night, table: 1, number: 1, if_version: None }, Ok(|s| {
            assert!(s.nights[0].tables.iter().all(|t| t.rounds.is_empty()));
            assert_eq!(s.nights[0].draw.len(), 3, "the draw stays");
        })),
        ("a round removed as another version than stored", Change::RemoveRound { date: night, table: 1, number: 1, if_version: Some("r0000000000000000".into()) },
            Err("Abend 09.01.2026, Tisch 1, Runde 1 wurde inzwischen geändert")),
        ("a round removed that is not entered", Change::RemoveRound { date: night, table: 1, number: 2, if_version: None },
            Err("Abend 09.01.2026, Tisch 1, Runde 2 ist nicht eingetragen.")),
        ("a round removed at the wrong table", Change::RemoveRound { date: night, table: 2, number: 1, if_version: None },
            Err("Tisch 2, Runde 1 ist nicht eingetragen.")),
        ("a round of a night that is not there", Change::RemoveRound { date: d("2026-02-01"), table: 1, number: 1, if_version: None },
            Err("Am 01.02.2026 gibt es keinen Spielabend der Saison 2026")),
        ("a round moved onto its own table", Change::MoveRound { date: night, table: 1, number: 1, to: 1 },
            Err("ist schon an Tisch 1 eingetragen")),
        ("a round moved that is not entered", Change::MoveRound { date: night, table: 1, number: 4, to: 2 },
            Err("Runde 4 ist nicht eingetragen.")),
        // Each of the three played only this round: they move with it.
        ("a round moved to table 2 with its players", Change::MoveRound { date: night, table: 1, number: 1, to: 2 },
            Ok(|s| {
                let n = &s.nights[0];
                assert!(n.draw.iter().all(|x| x.table == 2), "{:?}", n.draw);
                assert_eq!(n.tables.iter().map(|t| t.number).collect::<Vec<_>>(), [2]);
            })),
        ("a fine removed", Change::RemoveFine { date: night, index: 0 },
            Ok(|s| assert!(s.nights[0].fines.is_empty()))),
        ("a fine removed that is not there", Change::RemoveFine { date: night, index: 1 },
            Err("Diese Strafe gibt es nicht.")),
        ("a night removed with its rounds and fines", Change::RemoveNight { date: night }, Ok(|s| {
            assert_eq!(s.nights.iter().map(|n| n.date).collect::<Vec<_>>(), [d("2026-01-16")]);
        })),
        ("an empty night removed", Change::RemoveNight { date: empty },
            Ok(|s| assert_eq!(s.nights.len(), 1))),
        ("a night removed that is not there", Change::RemoveNight { date: d("2026-02-01") },
            Err("Am 01.02.2026 gibt es keinen Spielabend der Saison 2026")),
        // The season's last act (league.md §11): not while a night is open (the netting of the
        // closed season: `a_netting_leaves_nothing_to_net_…` below).
        ("the netting of the Jahresabschluss while nights are open", Change::NetPayouts { paid_on: d("2026-12-20"), carry_in_cents: 0 },
            Err("Noch offen: Freitag, 09.01.2026, Freitag, 16.01.2026 (nicht abgeschlossen) – die Verrechnung erst nach dem letzten Abend.")),
        ("a netting undone that was never booked", Change::UndoNetting { reason: "Versehen".into() },
            Err("Verrechnung aufheben: in der Saison 2026 ist keine Verrechnung gebucht.")),
    ]
}

/// [`base`] with both nights closed: its last night is over.
fn closed_base() -> Season {
    let mut s = base();
    for n in &mut s.nights {
        n.closed = true;
    }
    s
}

#[test]
fn every_change_is_checked_like_an_import() {
    let before = base();
    for (what, change, want) in cases() {
        match (before.apply(&change), want) {
            (Ok(after), Ok(check)) => {
                check(&after);
                // What was accepted is a season that checks again from its file (the read side).
                let mut again = Season::from_file(&after.to_file()).expect(what);
                for n in &mut again.nights {
                    n.closed = after.night(n.date).is_some_and(|x| x.closed);
                }
                assert_eq!(again, after, "{what}: the file gives the season back");
            }
            (Ok(_), Err(w)) => panic!("{what}: accepted, expected {w:?}"),
            (Err(e), Ok(_)) => panic!("{what}: refused: {e}"),
            (Err(e), Err(w)) => assert!(e.to_string().contains(w), "{what}: {e}"),
        }
    }
}

#[test]
fn the_season_rules_change_only_before_the_first_night() {
    use crate::league::model::rules::SeasonRules;
    let empty = Season::from_file(&file(json!({
        "format": "schockerliga-season/1", "season": 2026,
        "players": [ { "name": "Anna", "fee_paid_on": "2026-05-02" } ] })))
    .expect("an empty season");
    let mut rules = SeasonRules::defaults_for(2026);
    rules.rounds_per_night = 8;
    rules.fee_base_cents = 2000;
    let mut bad = rules.clone();
    bad.payout_percent = vec![60, 50];
    let set = |r: &SeasonRules| Change::SetRules {
        rules: Box::new(r.clone()),
    };
    // (season, change, expected rounds_per_night and Anna's fee in cents, or the refusal)
    type Case<'a> = (&'a Season, Change, Result<(u32, i64), &'a str>);
    let base = base();
    let cases: [Case; 3] = [
        (&empty, set(&rules), Ok((8, 2000 + 2 * 100))),
        (
            &empty,
            set(&bad),
            Err("rules.payout_percent: höchstens 20 Plätze, zusammen höchstens 100 %"),
        ),
        (
            &base,
            set(&rules),
            Err("Die Saisonregeln 2026 lassen sich nur vor dem ersten Spielabend ändern (erster Abend: 09.01.2026)."),
        ),
    ];
    for (season, change, expected) in cases {
        let got = season
            .apply(&change)
            .map(|s| (s.rules.rounds_per_night, s.players[0].fee_cents))
            .map_err(|e| e.to_string());
        assert_eq!(got, expected.map_err(str::to_string), "{change:?}");
    }
}

#[test]
fn a_put_round_replaces_its_number_or_is_added_and_the_table_is_made() {
    let s = base()
        .apply(&Change::SetDraw {
            date: d("2026-01-16"),
            seats: ["Anna", "Bernd"]
                .iter()
                .map(|p| SeatEntry {
                    player: p.to_string(),
                    table: 2,
                })
                .collect(),
        })
        .and_then(|s| {
            s.apply(&Change::PutRound {
                date: d("2026-01-16"),
                table: 2,
                number: 2,
                results: rows(&[("Anna", 0, false), ("Bernd", 0, true)]),
                replace: Replace::No,
                seat_newcomers: false,
                schockbesteck: None,
            })
        });
    // Two tables need 10 participants: table 2 alone is one table.
    let s = s.expect("table 2 alone");
    let put = |s: &Season, number: u32, loser: &str| {
        s.apply(&Change::PutRound {
            date: d("2026-01-16"),
            table: 2,
            number,
            results: rows(&[("Anna", 0, loser == "Anna"), ("Bernd", 0, loser == "Bernd")]),
            replace: Replace::Any,
            seat_newcomers: false,
            schockbesteck: None,
        })
        .expect("round")
    };
    let s = put(&put(&s, 1, "Anna"), 2, "Anna");
    let t = &s.nights[1].tables[0];
    let got: Vec<(u32, &str)> = t
        .rounds
        .iter()
        .map(|r| (r.number, round_loser(r)))
        .collect();
    assert_eq!((t.number, got), (2, vec![(1, "Anna"), (2, "Anna")]));
}

#[test]
fn a_closed_night_stays_closed_and_nothing_else_changes_it() {
    let night = d("2026-01-09");
    let closed = base()
        .apply(&Change::CloseNight { date: night })
        .expect("close");
    let again = closed
        .apply(&Change::CloseNight { date: night })
        .expect("again");
    assert_eq!(again, closed, "closing twice changes nothing");
    let later = closed
        .apply(&Change::SetFinePaid {
            date: night,
            index: 0,
            paid: true,
        })
        .expect("collect the fine");
    assert!(later.nights[0].closed);
}

#[test]
fn what_needs_a_korrektur_on_a_closed_night() {
    let night = d("2026-01-09");
    let cases = [
        (
            Change::SetDraw {
                date: night,
                seats: vec![],
            },
            true,
        ),
        (put(1, 2, vec![], false, false), true),
        (
            Change::BookFine {
                date: night,
                player: "A".into(),
                kind: "late".into(),
                paid: false,
                again: false,
            },
            true,
        ),
        (
            Change::SetFinePaid {
                date: night,
                index: 0,
                paid: true,
            },
            false,
        ),
        (Change::CloseNight { date: night }, false),
        (Change::ReopenNight { date: night }, true),
        (
            Change::RemoveRound {
                date: night,
                table: 1,
                number: 1,
                if_version: None,
            },
            true,
        ),
        (
            Change::MoveRound {
                date: night,
                table: 1,
                number: 1,
                to: 2,
            },
            true,
        ),
        (
            Change::RemoveFine {
                date: night,
                index: 0,
            },
            true,
        ),
        (Change::RemoveNight { date: night }, true),
        (Change::AddPlayer { name: "A".into() }, false),
    ];
    for (change, needs) in cases {
        assert_eq!(change.needs_korrektur(), needs, "{change:?}");
    }
    // (ticked, reason, Ok(reason) or Err(fragment))
    let long = "x".repeat(MAX_REASON_CHARS + 1);
    let korrekturen: [(bool, &str, Result<&str, &str>); 8] = [
        (true, " Tippfehler ", Ok("Tippfehler")),
        (false, "Tippfehler", Err("Abend 09.01.2026: der Spielabend ist abgeschlossen: Änderungen nur mit Häkchen „Korrektur“ und Grund.")),
        (true, "   ", Err("Abend 09.01.2026: eine Korrektur braucht einen Grund (1 bis 500 Zeichen).")),
        (true, &long, Err("1 bis 500 Zeichen")),
        (true, "Strafe vergessen", Ok("Strafe vergessen")),
        (true, "a\u{0}\u{1b}[31mROT", Err("der Grund der Korrektur enthält ein Steuerzeichen oder unsichtbares Zeichen (U+0000)")),
        (true, "\u{202E}esrever", Err("(U+202E)")),
        (true, "Zeile1\nZeile2", Err("(U+000A)")),
    ];
    for (ticked, reason, want) in korrekturen {
        let k = Korrektur {
            ticked,
            reason: reason.to_string(),
        };
        match (k.check(night), want) {
            (Ok(got), Ok(w)) => assert_eq!(got, w),
            (Err(e), Err(w)) => assert!(e.to_string().contains(w), "{e}"),
            (got, w) => panic!("{ticked} {reason:?}: {got:?} vs {w:?}"),
        }
    }
}

#[test]
fn a_round_is_replaced_only_as_it_was_seen() {
    let s = base();
    let entered = &s.nights[0].tables[0].rounds[0];
    let seen = round_version(entered);
    assert!(seen.starts_with('r') && seen.len() == 17, "{seen}");
    let with = |replace: Replace, number: u32| Change::PutRound {
        date: d("2026-01-09"),
        table: 1,
        number,
        results: three(0, "Carla"),
        replace,
        seat_newcomers: false,
        schockbesteck: None,
    };
    // (change, Ok or Err(fragment, is a conflict))
    type Case = (Change, Result<(), (&'static str, bool)>);
    let cases: Vec<Case> = vec![
        (with(Replace::No, 1), Err(("ist schon eingetragen", true))),
        (with(Replace::Any, 1), Ok(())),
        (with(Replace::IfVersion(seen.clone()), 1), Ok(())),
        (
            with(Replace::IfVersion("r0000000000000000".into()), 1),
            Err((
                "Abend 09.01.2026, Tisch 1, Runde 1 wurde inzwischen geändert (jetzt verloren: Bernd",
                true,
            )),
        ),
        (
            with(Replace::IfVersion(seen.clone()), 2),
            Err(("Runde 2 ist nicht mehr eingetragen", true)),
        ),
        (with(Replace::No, 2), Ok(())),
    ];
    for (change, want) in cases {
        match (s.apply(&change), want) {
            (Ok(_), Ok(())) => {}
            (Err(e), Err((w, conflict))) => {
                assert!(e.to_string().contains(w), "{change:?}: {e}");
                assert_eq!(e.conflict, conflict, "{change:?}");
            }
            (got, want) => panic!("{change:?}: {got:?} vs {want:?}"),
        }
    }
    // Equal rounds have equal versions; any change of a row changes it.
    let replaced = s.apply(&with(Replace::Any, 1)).expect("replaced");
    let new = round_version(&replaced.nights[0].tables[0].rounds[0]);
    assert_ne!(new, seen);
    let again = replaced.apply(&with(Replace::Any, 1)).expect("again");
    assert_eq!(round_version(&again.nights[0].tables[0].rounds[0]), new);
}

#[test]
fn a_netting_leaves_nothing_to_net_and_opening_a_netted_fine_undoes_it() {
    let net = Change::NetPayouts {
        paid_on: d("2026-12-20"),
        carry_in_cents: 0,
    };
    let netted = closed_base().apply(&net).expect("netting");
    // Bernd, the Lucky Looser (10,00 €), owes 1,00 €: paid out of his share.
    let f = &netted.nights[0].fines[0];
    assert_eq!(
        (f.paid, f.paid_on, f.netted),
        (true, Some(d("2026-12-20")), true)
    );
    let again = netted.apply(&net).expect_err("nothing left");
    assert!(
        again.to_string().contains("Nichts zu verrechnen"),
        "{again}"
    );
    // Opening a netted fine moves the pot: it waits for the netting undone (league.md §11),
    // which opens every netted fine under its reason.
    let opened = Change::SetFinePaid {
        date: d("2026-01-09"),
        index: 0,
        paid: false,
    };
    let e = netted.apply(&opened).expect_err("after the netting");
    assert!(e.to_string().contains("„Verrechnung aufheben“"), "{e}");
    let open = netted
        .apply(&Change::UndoNetting {
            reason: "Abend nachgeholt".into(),
        })
        .expect("open again");
    let f = &open.nights[0].fines[0];
    assert_eq!((f.paid, f.paid_on, f.netted), (false, None, false));
    assert_eq!(open, closed_base());
    // The file of a netted season carries paid_on and netted, and nothing else changes.
    let file = netted.to_file();
    let fine = &file.nights[0].fines[0];
    assert_eq!((fine.paid_on, fine.netted), (Some(d("2026-12-20")), true));
    let text = serde_json::to_value(&file).expect("json");
    assert_eq!(
        text["nights"][0]["fines"][0],
        json!({ "player": "Bernd", "kind": "late", "paid": true, "paid_on": "2026-12-20", "netted": true })
    );
}

/// Eleven players at two tables (Anna..Fritz at 1, Gabi..Kurt at 2); round 3 of table 2 was
/// entered at table 1 by mistake, by players seated there by the JSON API.
fn two_tables() -> Season {
    let names = [
        "Anna", "Bernd", "Carla", "Dora", "Emil", "Fritz", "Gabi", "Hans", "Ilse", "Jörg", "Kurt",
    ];
    let players: Vec<_> = names.iter().map(|n| json!({ "name": n })).collect();
    let f = file(json!({
        "format": "schockerliga-season/1", "season": 2026,
        "players": players, "nights": [ { "date": "2026-01-09" } ] }));
    let mut s = Season::from_file(&f).expect("season");
    let seats = names
        .iter()
        .enumerate()
        .filter(|(i, _)| *i != 10)
        .map(|(i, p)| SeatEntry {
            player: p.to_string(),
            table: if i < 5 { 1 } else { 2 },
        })
        .collect();
    s = s
        .apply(&Change::SetDraw {
            date: d("2026-01-09"),
            seats,
        })
        .expect("draw");
    s.apply(&Change::PutRound {
        date: d("2026-01-09"),
        table: 1,
        number: 1,
        results: rows(&[("Anna", 0, true), ("Bernd", 0, false)]),
        replace: Replace::No,
        seat_newcomers: false,
        schockbesteck: None,
    })
    .expect("round 1 at table 1")
}

#[test]
fn a_round_moves_to_its_table_with_the_players_who_only_played_it() {
    let date = d("2026-01-09");
    let put = |s: &Season, number: u32, spec: &[(&str, u32, bool)]| {
        s.apply(&Change::PutRound {
            date,
            table: 1,
            number,
            results: rows(spec),
            replace: Replace::No,
            seat_newcomers: true,
            schockbesteck: None,
        })
    };
    // Fritz is drawn to table 2: the league refuses his row at table 1 in the first place.
    assert!(put(&two_tables(), 2, &[("Fritz", 1, false), ("Kurt", 0, true)]).is_err());
    // Kurt (not drawn) and Anna: Kurt is seated at table 1 by the JSON API.
    let s = put(&two_tables(), 2, &[("Kurt", 0, true), ("Anna", 0, false)]).expect("Kurt at 1");
    assert!(s.nights[0]
        .draw
        .iter()
        .any(|x| x.player == "Kurt" && x.table == 1));
    // Anna plays round 1 at table 1 too: she cannot go to table 2, so the move is refused.
    let e = s
        .apply(&Change::MoveRound {
            date,
            table: 1,
            number: 2,
            to: 2,
        })
        .expect_err("Anna plays round 1 at table 1");
    assert!(e.to_string().contains("Anna"), "{e}");
    // Without round 1 the round goes to table 2, and Kurt and Anna with it.
    let s = s
        .apply(&Change::RemoveRound {
            date,
            table: 1,
            number: 1,
            if_version: None,
        })
        .and_then(|s| {
            s.apply(&Change::MoveRound {
                date,
                table: 1,
                number: 2,
                to: 2,
            })
        })
        .expect("moved");
    let n = &s.nights[0];
    for p in ["Kurt", "Anna"] {
        assert!(
            n.draw.iter().any(|x| x.player == p && x.table == 2),
            "{p}: {:?}",
            n.draw
        );
    }
    let at: Vec<(u32, u32)> = n
        .tables
        .iter()
        .flat_map(|t| t.rounds.iter().map(move |r| (t.number, r.number)))
        .collect();
    assert_eq!(at, [(2, 2)]);
    // Nothing moves onto a round of that number.
    let e = put(&s, 2, &[("Bernd", 0, true), ("Carla", 0, false)])
        .and_then(|s| {
            s.apply(&Change::MoveRound {
                date,
                table: 1,
                number: 2,
                to: 2,
            })
        })
        .expect_err("taken");
    assert!(
        e.to_string()
            .contains("An Tisch 2 ist Runde 2 schon eingetragen"),
        "{e}"
    );
}

/// A 2026 season of `n` players P01..Pnn with `rules` and one night 09.01. without a draw.
fn crowd(n: usize, rules: serde_json::Value) -> Season {
    let players: Vec<serde_json::Value> = (1..=n)
        .map(|i| json!({ "name": format!("P{i:02}") }))
        .collect();
    Season::checked(&file(json!({
        "format": "schockerliga-season/1", "season": 2026, "rules": rules,
        "players": players, "nights": [ { "date": "2026-01-09" } ] })))
    .expect("a crowd season")
}

fn seats(split: &[(usize, u32)]) -> Vec<SeatEntry> {
    let mut k = 0;
    let mut out = Vec::new();
    for &(count, table) in split {
        for _ in 0..count {
            k += 1;
            out.push(SeatEntry {
                player: format!("P{k:02}"),
                table,
            });
        }
    }
    out
}

#[test]
fn one_limit_of_20_at_a_table_for_the_draw_the_round_and_a_late_arrival() {
    let night = d("2026-01-09");
    let s = crowd(45, json!({}));
    let draw = |split: &[(usize, u32)]| Change::SetDraw {
        date: night,
        seats: seats(split),
    };
    let rows = |n: usize| -> Vec<ResultEntry> {
        (1..=n)
            .map(|i| ResultEntry {
                player: format!("P{i:02}"),
                outs: 0,
                hand_outs: 0,
                julen: 0,
                joker: false,
                lost: i == 1,
            })
            .collect()
    };
    let round = |n: usize, seat: bool| Change::PutRound {
        date: night,
        table: 1,
        number: 1,
        results: rows(n),
        replace: Replace::No,
        seat_newcomers: seat,
        schockbesteck: None,
    };
    // (what, the season, the change, the refusal's fragment or None for accepted)
    let twenty = s
        .apply(&draw(&[(20, 1), (20, 2)]))
        .expect("40 at two tables");
    let cases: Vec<(&str, &Season, Change, Option<&str>)> = vec![
        ("40 at two tables", &s, draw(&[(20, 1), (20, 2)]), None),
        (
            "41 ticked",
            &s,
            draw(&[(21, 1), (20, 2)]),
            Some("Höchstens 40 Teilnehmer an einem Abend: zwei Tische zu je höchstens 20 Spielern (angekreuzt: 41)."),
        ),
        (
            "21 at table 1 of 30",
            &s,
            draw(&[(21, 1), (9, 2)]),
            Some("Abend 09.01.2026, Tisch 1, Feld Auslosung: 21 Spieler; an einem Tisch spielen höchstens 20 (zwei Tische: höchstens 40 Teilnehmer an einem Abend)"),
        ),
        ("a round of 20 by hand", &twenty, round(20, false), None),
        (
            "a round of 21 without a draw (the JSON API seats newcomers)",
            &s,
            round(21, true),
            Some("Tisch 1, Feld Auslosung: 21 Spieler; an einem Tisch spielen höchstens 20"),
        ),
        (
            "a late arrival at a full table",
            &twenty,
            Change::SeatPlayer {
                date: night,
                player: "P41".into(),
                table: Some(2),
            },
            Some("Tisch 2, Feld Auslosung: 21 Spieler"),
        ),
        (
            "a late arrival when both are full",
            &twenty,
            Change::SeatPlayer {
                date: night,
                player: "P41".into(),
                table: None,
            },
            Some("21 Spieler; an einem Tisch spielen höchstens 20"),
        ),
    ];
    for (what, season, change, want) in cases {
        match (season.apply(&change), want) {
            (Ok(_), None) => {}
            (Ok(_), Some(w)) => panic!("{what}: accepted, expected {w:?}"),
            (Err(e), None) => panic!("{what}: refused: {e}"),
            (Err(e), Some(w)) => assert!(e.to_string().contains(w), "{what}: {e}"),
        }
    }
}

#[test]
fn the_draw_by_lot_of_41_is_refused_and_of_40_splits_20_20() {
    use rand::SeedableRng;
    let s = crowd(45, json!({}));
    let names = |n: usize| -> Vec<String> { (1..=n).map(|i| format!("P{i:02}")).collect() };
    let mut rng = rand::rngs::StdRng::seed_from_u64(7);
    let forty = crate::league::model::draw::by_lot(&names(40), 10, &mut rng);
    let after = s
        .apply(&Change::SetDraw {
            date: d("2026-01-09"),
            seats: forty,
        })
        .expect("40 drawn");
    let at = |t: u32| after.nights[0].draw.iter().filter(|x| x.table == t).count();
    assert_eq!((at(1), at(2)), (20, 20));
    let e = s
        .apply(&Change::SetDraw {
            date: d("2026-01-09"),
            seats: crate::league::model::draw::by_lot(&names(41), 10, &mut rng),
        })
        .expect_err("41 drawn");
    assert!(e.to_string().contains("Höchstens 40 Teilnehmer"), "{e}");
}

#[test]
fn a_limit_breaks_only_what_a_change_breaks_and_a_file_meets_all() {
    // Stored before the limits: 21 at table 1 and a deadline of 29.02. in a common year.
    let mut old = file(json!({
        "format": "schockerliga-season/1", "season": 2026,
        "rules": { "first_liga_deadline": "02-29" },
        "players": (1..=22).map(|i| json!({ "name": format!("P{i:02}") })).collect::<Vec<_>>(),
        "nights": [ { "date": "2026-01-09" }, { "date": "2026-01-16" } ] }));
    old.nights[0].draw = Some(seats(&[(21, 1)]));
    let stored = Season::checked(&old).expect("what was stored loads");
    let (loaded, _) = Season::from_stored_file(&old).expect("the read side loads it too");
    assert_eq!(loaded, stored);
    // (what, change, the refusal's fragment or None)
    let cases: Vec<(&str, Change, Option<&str>)> = vec![
        (
            "another night's draw",
            Change::SetDraw {
                date: d("2026-01-16"),
                seats: seats(&[(3, 1)]),
            },
            None,
        ),
        ("a player", Change::AddPlayer { name: "Neu".into() }, None),
        (
            "one more at the full table",
            Change::SeatPlayer {
                date: d("2026-01-09"),
                player: "P22".into(),
                table: Some(1),
            },
            Some("22 Spieler; an einem Tisch spielen höchstens 20"),
        ),
    ];
    for (what, change, want) in cases {
        match (stored.apply(&change), want) {
            (Ok(_), None) => {}
            (Ok(_), Some(w)) => panic!("{what}: accepted, expected {w:?}"),
            (Err(e), None) => panic!("{what}: refused: {e}"),
            (Err(e), Some(w)) => assert!(e.to_string().contains(w), "{what}: {e}"),
        }
    }
    // A file coming in (import) meets every limit: the deadline first.
    let e = Season::from_file(&old).expect_err("an import of it");
    assert_eq!(
        e.to_string(),
        "Feld rules.first_liga_deadline: den 29.02. gibt es 2026 nicht (kein Schaltjahr); \
         bitte einen Tag des Jahres wählen, z. B. „02-28“"
    );
}

#[test]
fn the_deadline_is_a_day_of_the_season_year() {
    use crate::league::model::rules::SeasonRules;
    // (season year, deadline, accepted)
    let cases = [
        (2026, "02-29", false),
        (2028, "02-29", true),
        (2026, "02-28", true),
        (2026, "11-30", true),
        (2100, "02-29", false),
        (2000, "02-29", true),
    ];
    for (year, deadline, ok) in cases {
        let empty = Season::from_file(&file(json!({
            "format": "schockerliga-season/1", "season": year })))
        .expect("an empty season");
        let mut rules = SeasonRules::defaults_for(year);
        rules.first_liga_deadline = deadline.to_string().try_into().expect("a month-day");
        let got = empty.apply(&Change::SetRules {
            rules: Box::new(rules),
        });
        assert_eq!(got.is_ok(), ok, "{year} {deadline}: {got:?}");
        if let Err(e) = got {
            assert!(e.to_string().contains("kein Schaltjahr"), "{e}");
        }
        // The same as an import.
        let imported = Season::from_file(&file(json!({
            "format": "schockerliga-season/1", "season": year,
            "rules": { "first_liga_deadline": deadline } })));
        assert_eq!(imported.is_ok(), ok, "import {year} {deadline}");
    }
    // Any other day that no year has is refused where the rules are read.
    for bad in ["02-30", "04-31", "13-01", "00-10", "11-00", "1130", "11-3x"] {
        let e = crate::league::model::rules::MonthDay::try_from(bad.to_string()).expect_err(bad);
        assert!(e.contains("kein Monat-Tag"), "{bad}: {e}");
    }
}

#[test]
fn split_tables_from_is_at_most_21() {
    let e = crowd(3, json!({ "split_tables_from": 22 }))
        .limits()
        .into_iter()
        .next()
        .expect("a limit");
    assert_eq!(
        e.to_string(),
        "Feld rules.split_tables_from: höchstens 21: an einem Tisch spielen höchstens 20 Spieler"
    );
    assert!(crowd(3, json!({ "split_tables_from": 21 }))
        .limits()
        .is_empty());
}

#[test]
fn a_round_in_a_summary_lists_only_who_threw_or_declared_something() {
    // (rows as (player, outs, hand_outs, julen, joker), the summary line) (issue 21.14)
    type Rows<'a> = &'a [(&'a str, u32, u32, u32, bool)];
    let cases: [(Rows, &str); 5] = [
        (
            &[("Anna", 2, 0, 0, false), ("Bernd", 0, 0, 0, false)],
            "Anna 2",
        ),
        (
            &[("Anna", 0, 0, 0, false), ("Bernd", 0, 0, 0, false)],
            "keine",
        ),
        (
            &[
                ("Anna", 1, 1, 0, false),
                ("Bernd", 0, 0, 2, false),
                ("Carla", 0, 0, 0, false),
            ],
            "Anna 1 (1 Hand-Out), Bernd 0 (2 Julen)",
        ),
        (
            &[("Anna", 0, 0, 0, true), ("Bernd", 0, 0, 0, false)],
            "Anna 0 (Joker)",
        ),
        (
            &[("Dora", 3, 2, 1, true)],
            "Dora 3 (2 Hand-Outs, 1 Jule, Joker)",
        ),
    ];
    for (rows, want) in cases {
        let round = Round {
            number: 1,
            results: rows
                .iter()
                .map(|&(player, outs, hand_outs, julen, joker)| ResultEntry {
                    player: player.into(),
                    outs,
                    hand_outs,
                    julen,
                    joker,
                    lost: false,
                })
                .collect(),
            schockbesteck: None,
        };
        assert_eq!(round_outs_short(&round), want, "{rows:?}");
    }
    // The full line (refusals naming what is stored) still lists every row.
    let round = Round {
        number: 1,
        results: vec![ResultEntry {
            player: "Bernd".into(),
            outs: 0,
            hand_outs: 0,
            julen: 0,
            joker: false,
            lost: true,
        }],
        schockbesteck: None,
    };
    assert_eq!(round_outs(&round), "Bernd 0");
}

#[test]
fn a_season_has_at_most_1000_players() {
    // (players, limits kept)
    for (n, ok) in [(999, true), (1000, true), (1001, false)] {
        let limits = crowd(n, json!({})).limits();
        assert_eq!(limits.is_empty(), ok, "{n}: {limits:?}");
        if !ok {
            assert_eq!(
                limits[0].to_string(),
                format!("Feld players: {n} Spieler: eine Saison hat höchstens 1000 Spieler")
            );
        }
    }
    // The 1001st player is refused before he is stored.
    let e = crowd(1000, json!({}))
        .apply(&Change::AddPlayer { name: "Neu".into() })
        .expect_err("refused");
    assert!(e.to_string().contains("höchstens 1000 Spieler"), "{e}");
    assert!(crowd(999, json!({}))
        .apply(&Change::AddPlayer { name: "Neu".into() })
        .is_ok());
}
