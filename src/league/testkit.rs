//! Test helpers: small season files built from JSON and compact night builders.

use serde_json::{json, Value};

use crate::league::model::file::SeasonFile;
use crate::league::model::season::Season;

/// A season file from a JSON value (panics on a shape error: tests only).
pub fn file(v: Value) -> SeasonFile {
    serde_json::from_value(v).expect("test season file has the right shape")
}

/// A checked season from a JSON value (panics when refused: tests only).
pub fn season(v: Value) -> Season {
    Season::from_file(&file(v)).unwrap_or_else(|e| panic!("test season refused: {e}"))
}

/// One result row.
pub fn row(player: &str, outs: u32, hand_outs: u32, julen: u32, joker: bool, lost: bool) -> Value {
    json!({ "player": player, "outs": outs, "hand_outs": hand_outs, "julen": julen,
            "joker": joker, "lost": lost })
}

/// A night at one table with `rounds` rounds of `players`; `outs[i]`, `hand[i]`, `julen[i]` of
/// player i are spread over the rounds (at most 3 Outs, one Hand-Out per round, Julen all in round 1);
/// `joker[i]` = round number of player i's Joker-Runde (0 = none); `lost[i]` = rounds player i loses
/// (the first `lost[0]` rounds go to player 0, the next to player 1, …; the rest to the last player).
pub struct NightSpec<'a> {
    pub date: &'a str,
    pub rounds: u32,
    pub players: &'a [&'a str],
    pub outs: &'a [u32],
    pub hand: &'a [u32],
    pub julen: &'a [u32],
    pub joker: &'a [u32],
    pub lost: &'a [u32],
}

impl Default for NightSpec<'_> {
    fn default() -> Self {
        NightSpec {
            date: "2026-01-09",
            rounds: 10,
            players: &["Anna", "Bernd"],
            outs: &[],
            hand: &[],
            julen: &[],
            joker: &[],
            lost: &[],
        }
    }
}

impl NightSpec<'_> {
    /// The night as season-file JSON.
    pub fn build(&self) -> Value {
        let n = self.players.len();
        let get = |v: &[u32], i: usize| v.get(i).copied().unwrap_or(0);
        let mut outs_left: Vec<u32> = (0..n).map(|i| get(self.outs, i)).collect();
        let mut hand_left: Vec<u32> = (0..n).map(|i| get(self.hand, i)).collect();
        let mut loser_plan: Vec<usize> = Vec::new();
        for i in 0..n {
            loser_plan.extend(std::iter::repeat_n(i, get(self.lost, i) as usize));
        }
        let mut rounds = Vec::new();
        for r in 1..=self.rounds {
            let loser = loser_plan.get(r as usize - 1).copied().unwrap_or(n - 1);
            let results: Vec<Value> = (0..n)
                .map(|i| {
                    let outs = outs_left[i].min(3);
                    outs_left[i] -= outs;
                    let hand = hand_left[i].min(1).min(outs);
                    hand_left[i] -= hand;
                    let julen = if r == 1 { get(self.julen, i) } else { 0 };
                    row(
                        self.players[i],
                        outs,
                        hand,
                        julen,
                        get(self.joker, i) == r,
                        i == loser,
                    )
                })
                .collect();
            rounds.push(json!({ "number": r, "results": results }));
        }
        assert!(
            outs_left.iter().all(|&o| o == 0),
            "too many Outs for the rounds"
        );
        assert!(
            hand_left.iter().all(|&o| o == 0),
            "too many Hand-Outs for the rounds"
        );
        json!({ "date": self.date, "tables": [ { "number": 1, "rounds": rounds } ], "fines": [] })
    }
}

/// A season file of `year` with `players` (name, fee date) and `nights`.
pub fn season_json(year: i32, players: &[(&str, Option<&str>)], nights: Vec<Value>) -> Value {
    let players: Vec<Value> = players
        .iter()
        .map(|(n, f)| json!({ "name": n, "fee_paid_on": f }))
        .collect();
    json!({ "format": "schockerliga-season/1", "season": year, "rules": {},
            "players": players, "nights": nights })
}

/// Anna and Bernd paid, 10 rounds on 06.11. and on 20.11. (far from 100 by the deadline 30.11.),
/// and the night of 04.12. created ahead: empty, or (`ahead`) with its rounds entered early.
pub fn november(ahead: bool) -> Season {
    let players = [("Anna", Some("2026-01-09")), ("Bernd", Some("2026-01-09"))];
    let night = |d: &str, outs: &[u32]| {
        NightSpec {
            date: d,
            players: &["Anna", "Bernd"],
            outs,
            ..NightSpec::default()
        }
        .build()
    };
    let december = if ahead {
        night("2026-12-04", &[0, 9])
    } else {
        serde_json::json!({ "date": "2026-12-04" })
    };
    season(season_json(
        2026,
        &players,
        vec![
            night("2026-11-06", &[3, 1]),
            night("2026-11-20", &[2, 1]),
            december,
        ],
    ))
}

/// Paid in January: the Jahresbeitrag's day of the money's samples.
const JAN: Option<&str> = Some("2026-01-05");

/// The Kasse's sample: four players over three nights; Dora pays her fee in June (after the second night).
pub fn kasse_sample() -> Season {
    let names = ["Anna", "Bea", "Cem", "Dora"];
    let nights = ["2026-01-09", "2026-02-13", "2026-07-10"]
        .iter()
        .map(|d| {
            NightSpec {
                date: d,
                players: &names,
                outs: &[3, 2, 1, 0],
                lost: &[0, 0, 0],
                ..NightSpec::default()
            }
            .build()
        })
        .collect();
    let players = [
        ("Cem", JAN),
        ("Anna", JAN),
        ("Bea", None),
        ("Dora", Some("2026-06-01")),
    ];
    let mut v = season_json(2026, &players, nights);
    v["nights"][0]["fines"] = json!([
        { "player": "Bea", "kind": "late", "paid": true },
        { "player": "Bea", "kind": "sleepy", "paid": false },
        { "player": "Anna", "kind": "sleepy", "paid": true }
    ]);
    v["nights"][2]["fines"] = json!([
        { "player": "Dora", "kind": "late", "paid": false, "amount_cents": 250 }
    ]);
    season(v)
}

/// Six players, all paid in January, two nights: Anna 1st … Emil 5th, Fritz the Lucky Looser.
/// Anna owes 1,00 € and 0,50 €, Emil 50,00 € (more than his share), Dora paid 1,00 €.
pub fn winners() -> Season {
    let names = ["Anna", "Bea", "Cem", "Dora", "Emil", "Fritz"];
    let nights = ["2026-01-09", "2026-01-16"]
        .iter()
        .map(|day| {
            NightSpec {
                date: day,
                players: &names,
                outs: &[5, 4, 3, 2, 1, 0],
                ..NightSpec::default()
            }
            .build()
        })
        .collect();
    let players: Vec<(&str, Option<&str>)> = names.iter().map(|n| (*n, JAN)).collect();
    let mut v = season_json(2026, &players, nights);
    v["nights"][0]["fines"] = json!([
        { "player": "Anna", "kind": "late", "paid": false },
        { "player": "Emil", "kind": "late", "paid": false, "amount_cents": 5000 },
        { "player": "Dora", "kind": "late", "paid": true }
    ]);
    v["nights"][1]["fines"] = json!([ { "player": "Anna", "kind": "sleepy", "paid": false } ]);
    // Both nights closed: the netting is the season's last act (league.md §11).
    v["nights"][0]["closed"] = json!(true);
    v["nights"][1]["closed"] = json!(true);
    season(v)
}

/// Random seasons with fees, nights and fines: the money's proptests.
pub mod random {
    use proptest::prelude::*;
    use serde_json::{json, Value};

    use super::{season, NightSpec};
    use crate::league::model::season::Season;

    /// (fee month per player, nights as (month, outs per player, lost rounds per player),
    /// fines as (player, late, paid, night index)).
    pub type SeasonGen = (
        Vec<Option<u32>>,
        Vec<(u32, Vec<u32>, Vec<u32>)>,
        Vec<(usize, bool, bool, usize)>,
    );

    pub const NAMES: [&str; 6] = ["Anna", "Bea", "Cem", "Dora", "Emil", "Fritz"];

    pub fn season_gen() -> impl Strategy<Value = SeasonGen> {
        (
            proptest::collection::vec(proptest::option::weighted(0.7, 1u32..=9), 6),
            proptest::collection::vec(
                (
                    1u32..=12,
                    proptest::collection::vec(0u32..=12, 6),
                    proptest::collection::vec(0u32..=4, 6),
                ),
                0..5,
            ),
            proptest::collection::vec((0usize..6, any::<bool>(), any::<bool>(), 0usize..5), 0..6),
        )
    }

    pub fn build(year: i32, g: &SeasonGen) -> Season {
        let (fees, nights, fines) = g;
        let players: Vec<Value> = NAMES
            .iter()
            .zip(fees)
            .map(|(n, m)| {
                json!({ "name": n, "fee_paid_on": m.map(|m| format!("{year}-{m:02}-05")) })
            })
            .collect();
        let mut night_json: Vec<Value> = nights
            .iter()
            .enumerate()
            .map(|(i, (month, outs, lost))| {
                NightSpec {
                    date: &format!("{year}-{month:02}-{:02}", 10 + i),
                    players: &NAMES,
                    outs,
                    lost,
                    ..NightSpec::default()
                }
                .build()
            })
            .collect();
        for &(p, late, paid, n) in fines {
            if let Some(night) = night_json.get_mut(n) {
                night["fines"].as_array_mut().expect("fines array").push(
                    json!({ "player": NAMES[p], "kind": if late { "late" } else { "sleepy" },
                                   "paid": paid }),
                );
            }
        }
        season(
            json!({ "format": "schockerliga-season/1", "season": year, "rules": {},
                       "players": players, "nights": night_json }),
        )
    }
}

/// Three players, two nights of 10 rounds with Hand-Outs, a Joker, Julen carried across the
/// nights, a Sozialfall and a fine; Anna paid her fee in February.
pub fn rounds_season(year: i32) -> Season {
    let d1 = format!("{year}-01-09");
    let d2 = format!("{year}-01-16");
    let joker: &[u32] = if year >= 2011 { &[0, 4, 0] } else { &[] };
    let mut n1 = NightSpec {
        date: &d1,
        players: &["Anna", "Bernd", "Carla"],
        outs: &[5, 3, 1],
        hand: &[2, 1, 0],
        julen: &[2, 4, 0],
        joker,
        lost: &[4, 1, 5],
        ..NightSpec::default()
    }
    .build();
    if year >= 2012 {
        n1["fines"] = json!([{ "player": "Bernd", "kind": "late", "paid": true }]);
    }
    let n2 = NightSpec {
        date: &d2,
        rounds: 7,
        players: &["Anna", "Bernd", "Carla"],
        outs: &[2, 6, 0],
        hand: &[0, 2, 0],
        julen: &[2, 1, 3],
        joker: &[],
        lost: &[2, 2, 3],
    }
    .build();
    let fee = format!("{year}-02-06");
    season(season_json(
        year,
        &[("Anna", Some(&fee)), ("Bernd", None), ("Carla", None)],
        vec![n1, n2],
    ))
}

/// A 2026 night recorded as totals: Anna, Bernd (10 rounds) and Carla (4 rounds) at table 1.
pub fn totals_night() -> Value {
    json!({
        "format": "schockerliga-season/1", "season": 2026, "rules": {},
        "players": [ { "name": "Anna", "fee_paid_on": null }, { "name": "Bernd", "fee_paid_on": null },
                     { "name": "Carla", "fee_paid_on": null } ],
        "nights": [ { "date": "2026-01-09", "totals": [
            { "player": "Anna", "table": 1, "rounds": 10, "outs": 6, "hand_outs": 2, "julen": 1,
              "points": 8, "lost": 3 },
            { "player": "Bernd", "rounds": 10, "outs": 2, "lost": 7 },
            { "player": "Carla", "rounds": 4, "outs": 0 } ] } ]
    })
}

/// A 2004 season kept as its Endstand (issue 24.3): Anna and Bernd in the 1. Liga, Carla in the
/// 2., Dirk in the Kreisliga; Anna with every figure given.
pub fn endstand_file() -> Value {
    json!({
        "format": "schockerliga-season/1", "season": 2004,
        "players": [ { "name": "Anna" }, { "name": "Bernd" }, { "name": "Carla" }, { "name": "Dirk" } ],
        "endstand": [
            { "player": "Bernd", "liga": "1. Liga", "rounds": 150, "counted_outs": 90, "paid_rounds": 14 },
            { "player": "Anna", "liga": "1. Liga", "rounds": 200, "counted_outs": 120, "paid_rounds": 22,
              "lost_rounds": 25, "thrown_outs": 110, "hand_outs": 10, "julen": 31 },
            { "player": "Carla", "liga": "2. Liga", "rounds": 40, "counted_outs": 30 },
            { "player": "Dirk", "liga": "Kreisliga", "rounds": 10, "counted_outs": 9, "paid_rounds": 3 } ]
    })
}
