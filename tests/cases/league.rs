//! The league math against the fixtures (tests/fixtures/*-2026.*.json): validation, standings,
//! payouts and the season file round trip.

use schockerliga::league::history::glueck::of_season;
use schockerliga::league::model::file::SeasonFile;
use schockerliga::league::{payouts, standings, Change, Season};
use schockerliga::rules::{RuleSet, RundeState, ThrowInput};
use serde_json::{json, Value};

use crate::common::fixture_text;

fn season(name: &str) -> Season {
    let file: SeasonFile = serde_json::from_str(&fixture_text(&format!("{name}.season.json")))
        .expect("season file parses");
    Season::from_file(&file).unwrap_or_else(|e| panic!("{name}: {e}"))
}

/// Serialize to text and parse back, so numbers compare as the fixture's parsed numbers do.
fn as_value<T: serde::Serialize>(x: &T) -> Value {
    let text = serde_json::to_string(x).expect("serializes");
    serde_json::from_str(&text).expect("parses")
}

fn expected(name: &str) -> Value {
    serde_json::from_str(&fixture_text(name)).expect("fixture parses")
}

#[test]
fn standings_match_the_fixtures() {
    for name in ["small-2026", "sample-2026"] {
        let got = as_value(&standings(&season(name), None));
        let want = expected(&format!("{name}.standings.json"));
        assert_eq!(got, want, "{name}");
    }
}

#[test]
fn payouts_match_the_fixtures() {
    for name in ["small-2026", "sample-2026"] {
        let got = as_value(&payouts(&season(name), 0));
        let want = expected(&format!("{name}.payouts.json"));
        assert_eq!(got, want, "{name}");
    }
}

#[test]
fn season_file_round_trips() {
    for name in ["small-2026", "sample-2026"] {
        let s = season(name);
        let again = Season::from_file(&s.to_file()).expect("exported file is valid");
        assert_eq!(again, s, "{name}");
        assert_eq!(standings(&again, None), standings(&s, None), "{name}");
        assert_eq!(again.to_file(), s.to_file(), "{name}");
    }
}

#[test]
fn fixtures_recorded_as_totals_give_the_same_standings_and_payouts() {
    use schockerliga::league::sheet::totals::as_totals;
    for name in ["small-2026", "sample-2026"] {
        let s = season(name);
        // Through the file's text, as an export and an import would carry it.
        let text = serde_json::to_string_pretty(&as_totals(&s)).expect("serializes");
        let file: SeasonFile = serde_json::from_str(&text).expect("parses");
        let t = Season::from_file(&file).unwrap_or_else(|e| panic!("{name} as totals: {e}"));
        assert!(t.nights.iter().all(|n| n.recorded_as_totals()), "{name}");
        assert_eq!(t.nights.len(), s.nights.len(), "{name}");
        let got = as_value(&standings(&t, None));
        assert_eq!(got, expected(&format!("{name}.standings.json")), "{name}");
        let got = as_value(&payouts(&t, 0));
        assert_eq!(got, expected(&format!("{name}.payouts.json")), "{name}");
        for n in &s.nights {
            assert_eq!(
                standings(&t, Some(n.date)),
                standings(&s, Some(n.date)),
                "{name}"
            );
        }
        assert_eq!(
            t.to_file(),
            file,
            "{name}: the totals season exports as it came"
        );
    }
}

// ---------------------------------------------------------------------------------------------
// Payouts over random seasons (league.md §8 invariants).

mod random_seasons {
    use std::collections::BTreeSet;

    use chrono::{Duration, NaiveDate};
    use proptest::prelude::*;
    use rand::rngs::StdRng;
    use rand::seq::SliceRandom;
    use rand::SeedableRng;
    use schockerliga::league::model::file::SeasonFile;
    use schockerliga::league::{payouts, standings, Payouts, Season};
    use serde_json::{json, Value};

    #[derive(Debug, Clone)]
    struct RowGen {
        outs: u32,
        hand: u32,
        julen: u32,
        joker: bool,
    }

    #[derive(Debug, Clone)]
    struct NightGen {
        day: i64,
        mask: u32,
        rounds: u32,
        rows: Vec<RowGen>,
        losers: Vec<usize>,
        fines: Vec<(usize, bool, bool, Option<i64>)>,
    }

    const MAX_PLAYERS: usize = 13;

    fn row_gen() -> impl Strategy<Value = RowGen> {
        // few Outs so that equal D.Werte (ties) are frequent
        (
            prop_oneof![6 => Just(0u32), 2 => Just(1u32), 1 => Just(2u32)],
            0u32..=2,
            prop_oneof![4 => Just(0u32), 1 => 1u32..=3],
            proptest::bool::weighted(0.1),
        )
            .prop_map(|(outs, hand, julen, joker)| RowGen {
                outs,
                hand: hand.min(outs),
                julen,
                joker,
            })
    }

    fn night_gen() -> impl Strategy<Value = NightGen> {
        (
            0i64..336, // mostly before the deadline, so that the 1. Liga is populated
            any::<u32>(),
            prop_oneof![3 => Just(10u32), 1 => 1u32..=10],
            proptest::collection::vec(row_gen(), 10 * MAX_PLAYERS),
            proptest::collection::vec(0usize..MAX_PLAYERS, 10),
            proptest::collection::vec(
                (
                    0usize..MAX_PLAYERS,
                    any::<bool>(),
                    any::<bool>(),
                    proptest::option::of(0i64..500),
                ),
                0..3,
            ),
        )
            .prop_map(|(day, mask, rounds, rows, losers, fines)| NightGen {
                day,
                mask,
                rounds,
                rows,
                losers,
                fines,
            })
    }

    fn name(i: usize) -> String {
        [
            "Anna", "Bernd", "Carla", "Dirk", "Elke", "Frank", "Gabi", "Heinz", "Ilse", "Jürgen",
            "Karin", "Lutz", "Moni",
        ][i]
            .to_string()
    }

    /// Makes every odd player the twin of the one before him (same fee, nights and rows): equal
    /// D.Werte, so shared ranks and split places occur often.
    fn twin(fees: &mut [Option<(u32, u32)>], nights: &mut [NightGen]) {
        for i in (1..MAX_PLAYERS).step_by(2) {
            fees[i] = fees[i - 1];
            for g in nights.iter_mut() {
                g.mask = (g.mask & !(1 << i)) | ((g.mask >> (i - 1) & 1) << i);
                for r in 0..10 {
                    g.rows[r * MAX_PLAYERS + i] = g.rows[r * MAX_PLAYERS + i - 1].clone();
                }
            }
        }
    }

    /// A valid season file from the generated parts.
    fn build(n: usize, fees: &[Option<(u32, u32)>], nights: &[NightGen]) -> Value {
        let start = NaiveDate::from_ymd_opt(2026, 1, 1).expect("date");
        let players: Vec<Value> = (0..n)
            .map(|i| {
                let fee = fees[i].and_then(|(m, d)| NaiveDate::from_ymd_opt(2026, m, d));
                json!({ "name": name(i), "fee_paid_on": fee })
            })
            .collect();
        let mut days = BTreeSet::new();
        let mut out = Vec::new();
        for g in nights {
            if !days.insert(g.day) {
                continue;
            }
            let mut who: Vec<usize> = (0..n).filter(|i| g.mask & (1 << i) != 0).collect();
            if who.len() < 2 {
                who = vec![0, 1];
            }
            // 10 or more participants: two tables, alternating
            let tables: Vec<Vec<usize>> = if who.len() >= 10 {
                vec![
                    who.iter().copied().step_by(2).collect(),
                    who.iter().copied().skip(1).step_by(2).collect(),
                ]
            } else {
                vec![who]
            };
            let mut table_json = Vec::new();
            for (t, seats) in tables.iter().enumerate() {
                let mut joker_used = vec![false; n];
                let rounds: Vec<Value> = (1..=g.rounds)
                    .map(|r| {
                        let loser = seats[g.losers[r as usize - 1] % seats.len()];
                        let results: Vec<Value> = seats
                            .iter()
                            .map(|&p| {
                                let x = &g.rows[(r as usize - 1) * MAX_PLAYERS + p];
                                let joker = x.joker && !joker_used[p];
                                joker_used[p] |= joker;
                                json!({ "player": name(p), "outs": x.outs, "hand_outs": x.hand,
                                        "julen": x.julen, "joker": joker, "lost": p == loser })
                            })
                            .collect();
                        json!({ "number": r, "results": results })
                    })
                    .collect();
                table_json.push(json!({ "number": t + 1, "rounds": rounds }));
            }
            let fines: Vec<Value> = g
                .fines
                .iter()
                .map(|&(p, late, paid, amount)| {
                    let mut f = json!({ "player": name(p % n),
                                        "kind": if late { "late" } else { "sleepy" }, "paid": paid });
                    if let Some(a) = amount {
                        f["amount_cents"] = json!(a);
                    }
                    f
                })
                .collect();
            let date = start + Duration::days(g.day);
            out.push(json!({ "date": date, "tables": table_json, "fines": fines }));
        }
        json!({ "format": "schockerliga-season/1", "season": 2026, "rules": {},
                "players": players, "nights": out })
    }

    /// The same season with players, nights, tables, rounds, rows and fines in another order.
    fn shuffled(v: &Value, seed: u64) -> Value {
        let mut rng = StdRng::seed_from_u64(seed);
        let mut v = v.clone();
        let shuffle = |a: &mut Value, rng: &mut StdRng| {
            if let Some(a) = a.as_array_mut() {
                a.shuffle(rng);
            }
        };
        shuffle(&mut v["players"], &mut rng);
        shuffle(&mut v["nights"], &mut rng);
        if let Some(nights) = v["nights"].as_array_mut() {
            for night in nights {
                shuffle(&mut night["tables"], &mut rng);
                shuffle(&mut night["fines"], &mut rng);
                if let Some(tables) = night["tables"].as_array_mut() {
                    for t in tables {
                        shuffle(&mut t["rounds"], &mut rng);
                        if let Some(rounds) = t["rounds"].as_array_mut() {
                            for r in rounds {
                                shuffle(&mut r["results"], &mut rng);
                            }
                        }
                    }
                }
            }
        }
        v
    }

    fn checked(v: &Value) -> Season {
        let file: SeasonFile = serde_json::from_value(v.clone()).expect("generated file shape");
        Season::from_file(&file).unwrap_or_else(|e| panic!("generated season refused: {e}"))
    }

    fn check_money(s: &Season, p: &Payouts) {
        let placed: i64 = p.places.iter().flat_map(|x| &x.cents).sum();
        let lucky: i64 = p.lucky_looser.cents.iter().sum();
        assert_eq!(
            placed + lucky + p.carry_out_cents,
            p.fees_cents + p.fines_cents + p.carry_in_cents,
            "nothing is lost"
        );
        assert!(p.carry_out_cents >= 0, "carry-out {}", p.carry_out_cents);
        assert_eq!(
            p.pot_cents,
            p.fees_cents - lucky + p.fines_cents + p.carry_in_cents
        );
        // Lucky Looser: the whole amount, each within a cent of amount / k, tied within a cent
        if !p.lucky_looser.players.is_empty() {
            assert_eq!(lucky, s.rules.lucky_looser_cents.min(p.fees_cents));
            let k = p.lucky_looser.cents.len() as i64;
            for &c in &p.lucky_looser.cents {
                assert!((c * k - lucky).abs() < k, "lucky share {c} of {lucky}/{k}");
            }
        }
        for place in &p.places {
            let k = place.players.len() as i64;
            let covered: i64 = (place.place..place.place + k as u32)
                .filter_map(|q| s.rules.payout_percent.get(q as usize - 1))
                .map(|&x| i64::from(x))
                .sum();
            for &c in &place.cents {
                // |c − pot × covered / (100 k)| < 1
                let diff = (i128::from(c) * 100 * i128::from(k)
                    - i128::from(p.pot_cents) * i128::from(covered))
                .abs();
                assert!(
                    diff < 100 * i128::from(k),
                    "place {} share {c}",
                    place.place
                );
            }
            let (lo, hi) = (place.cents.iter().min(), place.cents.iter().max());
            if let (Some(lo), Some(hi)) = (lo, hi) {
                assert!(hi - lo <= 1, "tied shares {:?}", place.cents);
            }
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 128, ..ProptestConfig::default() })]

        #[test]
        fn payouts_keep_every_cent_and_ignore_entry_order(
            n in 2usize..=MAX_PLAYERS,
            fees in proptest::collection::vec(proptest::option::weighted(0.7, (1u32..=9, 1u32..=28)), MAX_PLAYERS),
            nights in proptest::collection::vec(night_gen(), 0..14),
            carry_in in 0i64..20_000,
            seed in any::<u64>(),
            twins in any::<bool>(),
        ) {
            let (mut fees, mut nights) = (fees, nights);
            if twins {
                twin(&mut fees, &mut nights);
            }
            let v = build(n, &fees, &nights);
            let s = checked(&v);
            let p = payouts(&s, carry_in);
            check_money(&s, &p);
            let again = checked(&shuffled(&v, seed));
            prop_assert_eq!(&payouts(&again, carry_in), &p);
            prop_assert_eq!(standings(&again, None), standings(&s, None));
        }
    }
}

/// The per-player and per-night views add up to the table, on the sample season (two-table nights).
#[test]
fn histories_and_night_summaries_agree_with_the_table() {
    use schockerliga::league::{night_summary, player_history};
    let s = season("sample-2026");
    let table = standings(&s, None);
    for row in &table.rows {
        let h = player_history(&s, &row.player).expect("listed player has a history");
        let counted: i64 = h.nights.iter().map(|n| n.counted_outs).sum();
        let rounds: usize = h.nights.iter().map(|n| n.rounds.len()).sum();
        let paid: u32 = h.nights.iter().map(|n| n.paid_rounds).sum();
        let last = h.nights.last().expect("at least one night");
        assert_eq!(counted, row.counted_outs, "{}", row.player);
        assert_eq!(rounds as u32, row.rounds, "{}", row.player);
        assert_eq!(paid, row.paid_rounds, "{}", row.player);
        assert_eq!(h.open_julen, row.open_julen, "{}", row.player);
        assert_eq!(last.d_wert_f64, row.d_wert, "{}", row.player);
        // Liga and rank as of his last night (others may have played after it)
        let then = standings(&s, Some(last.date));
        let then = then
            .rows
            .iter()
            .find(|r| r.player == row.player)
            .expect("listed then");
        assert_eq!(
            (last.liga, last.rank),
            (then.liga, then.rank),
            "{}",
            row.player
        );
    }
    assert!(player_history(&s, "Niemand").is_none());

    let mut counted = std::collections::BTreeMap::<String, i64>::new();
    let mut two_table_nights = 0;
    for night in &s.nights {
        let n = night_summary(&s, night.date).expect("night exists");
        if n.tables.len() == 2 {
            two_table_nights += 1;
            let (a, b) = (&n.tables[0].players, &n.tables[1].players);
            assert!(a.len() + b.len() >= 10, "{}", night.date);
            assert!(
                a.iter().all(|p| !b.contains(p)),
                "{}: one table per player",
                night.date
            );
        }
        for p in &n.players {
            *counted.entry(p.player.clone()).or_default() += p.counted_outs;
            assert_eq!(p.sozialfall, n.sozialfaelle.contains(&p.player));
            assert!(p.paid_rounds <= 3 && p.paid_rounds <= p.lost_rounds);
        }
    }
    assert!(two_table_nights > 0);
    for row in &table.rows {
        assert_eq!(counted[&row.player], row.counted_outs, "{}", row.player);
    }
    let no_night = "2026-01-03".parse().expect("date");
    assert!(night_summary(&s, no_night).is_none());
}

/// One row of a round of the season file.
fn row(player: &str, outs: u32, lost: bool) -> Value {
    json!({ "player": player, "outs": outs, "hand_outs": 0, "julen": 0, "joker": false,
            "lost": lost })
}

/// A 2026 night of Anna and Bernd: round 1 played in the Schockbesteck (Anna's two Schock Outs,
/// Bernd loses both halves), round 2 entered by hand.
fn besteck_season() -> Season {
    let t =
        |p: &str, dice: [u8; 3], wuerfe: u8| ThrowInput::from_dice(p, dice, wuerfe, wuerfe == 1);
    let mut runde =
        RundeState::new(vec!["Anna".into(), "Bernd".into()], RuleSet::default()).unwrap();
    for w in [
        vec![t("Anna", [6, 5, 3], 1), t("Bernd", [5, 3, 2], 1)],
        vec![t("Bernd", [3, 2, 2], 3), t("Anna", [1, 1, 1], 2)],
        vec![t("Bernd", [6, 6, 2], 1), t("Anna", [5, 4, 2], 1)],
        vec![t("Anna", [1, 1, 1], 3), t("Bernd", [4, 3, 1], 2)],
    ] {
        runde.apply(w).unwrap();
    }
    let record = serde_json::to_value(runde.record()).unwrap();
    let file: SeasonFile = serde_json::from_value(json!({
        "format": "schockerliga-season/1", "season": 2026,
        "players": [ { "name": "Anna" }, { "name": "Bernd" } ],
        "nights": [ { "date": "2026-01-09", "tables": [ { "number": 1, "rounds": [
            { "number": 1, "results": [ row("Anna", 2, false), row("Bernd", 0, true) ],
              "schockbesteck": record },
            { "number": 2, "results": [ row("Anna", 1, false), row("Bernd", 0, true) ] }
        ] } ] } ]
    }))
    .unwrap();
    Season::from_file(&file).unwrap()
}

/// A rename and a round moved to the other table keep a Runde's Schockbesteck throws (its
/// Glücksfaktor the same); removing the round drops them. Moved from the Glücksfaktor's unit
/// tests (`export_keeps_the_throws`): it changes the season with `Change`, and the change and the
/// history are rooms of one floor that do not name each other.
#[test]
fn a_rename_and_a_moved_round_keep_the_schockbesteck_throws() {
    let s = besteck_season();
    let renamed = s
        .apply(&Change::RenamePlayer {
            from: "Anna".into(),
            to: "Anni".into(),
        })
        .unwrap();
    let g = of_season(&renamed);
    assert_eq!(g["Anni"].schock_outs, 2);
    assert!(!g.contains_key("Anna"));
    // Moving the round to table 2 keeps its throws (round 2 removed first: its players would
    // stay at table 1); removing it drops them.
    let date = chrono::NaiveDate::from_ymd_opt(2026, 1, 9).unwrap();
    let alone = s
        .apply(&Change::RemoveRound {
            date,
            table: 1,
            number: 2,
            if_version: None,
        })
        .unwrap();
    let moved = alone
        .apply(&Change::MoveRound {
            date: chrono::NaiveDate::from_ymd_opt(2026, 1, 9).unwrap(),
            table: 1,
            number: 1,
            to: 2,
        })
        .unwrap();
    assert_eq!(of_season(&moved), of_season(&s));
    let removed = s
        .apply(&Change::RemoveRound {
            date: chrono::NaiveDate::from_ymd_opt(2026, 1, 9).unwrap(),
            table: 1,
            number: 1,
            if_version: None,
        })
        .unwrap();
    assert!(of_season(&removed).is_empty());
}
