//! The players' side from outside (issue 10): the JSON contracts `/api/v1/seasons/{season}/players`,
//! `/api/v1/players/{name}` and `/api/v1/alltime`, checked against a small model of league.md
//! §2–§5 written here (not the product's league code), on the shared fixtures, a two-season case and
//! a season built around the thresholds (10/11 rounds, 99/100 rounds by the deadline, the day after
//! the deadline, a fee in September and in October).

use std::collections::BTreeMap;

use axum::http::StatusCode;
use schockerliga::league::model::file::SeasonFile;
use serde_json::{json, Value};

use crate::app::TestApp;
use crate::common::{fixture_json, season_file};

// ---------------------------------------------------------------------------------------------
// The model: league.md with the default rules (§10), on the season file as JSON.

const KREISLIGA_BELOW: i64 = 11;
const MIN_FIRST_LIGA: i64 = 100;

/// One player's totals as of a date.
#[derive(Debug, Clone)]
struct Line {
    player: String,
    liga: u8, // 1, 2, 3 = Kreisliga
    rank: i64,
    rounds: i64,
    counted: i64,
    paid_rounds: i64,
}

fn liga_name(l: u8) -> &'static str {
    match l {
        1 => "1. Liga",
        2 => "2. Liga",
        _ => "Kreisliga",
    }
}

/// The season's year, its deadline (30 November) and its nights' dates.
fn year_of(file: &Value) -> i64 {
    file["season"].as_i64().unwrap()
}

fn deadline(file: &Value) -> String {
    format!("{}-11-30", year_of(file))
}

fn nights(file: &Value) -> Vec<String> {
    let mut d: Vec<String> = file["nights"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| n["date"].as_str().unwrap().to_string())
        .collect();
    d.sort();
    d
}

/// Σ rounds, Σ row points + ⌊Julen/3⌋ and paid rounds per player on nights up to `upto` (ISO
/// dates compare as strings).
fn totals(file: &Value, upto: &str) -> BTreeMap<String, (i64, i64, i64)> {
    let mut rows: BTreeMap<String, (i64, i64, i64, i64)> = BTreeMap::new(); // rounds, points, julen, paid
    for night in file["nights"].as_array().unwrap() {
        if night["date"].as_str().unwrap() > upto {
            continue;
        }
        let mut lost: BTreeMap<String, i64> = BTreeMap::new();
        for table in night["tables"].as_array().unwrap() {
            for round in table["rounds"].as_array().unwrap() {
                for r in round["results"].as_array().unwrap() {
                    let name = r["player"].as_str().unwrap().to_string();
                    let outs = r["outs"].as_i64().unwrap_or(0);
                    let hand = r["hand_outs"].as_i64().unwrap_or(0);
                    let joker = r["joker"].as_bool().unwrap_or(false);
                    let points = ((outs - hand) + 2 * hand) * if joker { 2 } else { 1 };
                    let e = rows.entry(name.clone()).or_default();
                    e.0 += 1;
                    e.1 += points;
                    e.2 += r["julen"].as_i64().unwrap_or(0);
                    if r["lost"].as_bool().unwrap_or(false) {
                        *lost.entry(name).or_default() += 1;
                    }
                }
            }
        }
        for (name, n) in lost {
            rows.entry(name).or_default().3 += n.min(3);
        }
    }
    rows.into_iter()
        .map(|(k, (r, p, j, paid))| (k, (r, p + j / 3, paid)))
        .collect()
}

fn paid_on(file: &Value, player: &str) -> Option<String> {
    file["players"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["name"] == player)
        .and_then(|p| p["fee_paid_on"].as_str())
        .map(str::to_string)
}

/// The table as of `as_of` (league.md §3, §4): Liga, then rank (D.Wert, then rounds), then name.
fn table(file: &Value, as_of: &str) -> Vec<Line> {
    let dl = deadline(file);
    let now = totals(file, as_of);
    let at_deadline = totals(file, dl.as_str().min(as_of));
    let mut lines: Vec<Line> = now
        .iter()
        .map(|(name, &(rounds, counted, paid_rounds))| {
            let rd = at_deadline.get(name).map_or(0, |t| t.0);
            let paid = paid_on(file, name).is_some_and(|d| d.as_str() <= as_of);
            let liga = if rounds < KREISLIGA_BELOW {
                3
            } else if paid && (as_of <= dl.as_str() || rd >= MIN_FIRST_LIGA) {
                1
            } else {
                2
            };
            Line {
                player: name.clone(),
                liga,
                rank: 0,
                rounds,
                counted,
                paid_rounds,
            }
        })
        .collect();
    // better(a, b): a ranks strictly above b.
    let better = |a: &Line, b: &Line| {
        let (x, y) = (a.counted * b.rounds, b.counted * a.rounds);
        x > y || (x == y && a.rounds > b.rounds)
    };
    for i in 0..lines.len() {
        let above = lines
            .iter()
            .filter(|o| o.liga == lines[i].liga && better(o, &lines[i]))
            .count();
        lines[i].rank = above as i64 + 1;
    }
    lines.sort_by(|a, b| {
        (a.liga, a.rank, a.player.clone()).cmp(&(b.liga, b.rank, b.player.clone()))
    });
    lines
}

/// The least k ≥ 1 with (c + k, r) strictly above (co, ro), counted one by one.
fn outs_to_pass(c: i64, r: i64, co: i64, ro: i64) -> i64 {
    let mut k = 1;
    loop {
        let (x, y) = ((c + k) * ro, co * r);
        if x > y || (x == y && r > ro) {
            return k;
        }
        k += 1;
    }
}

/// The Jahresbeitrag for a payment dated `date` (league.md §5), `None` from October on.
fn fee(date: &str) -> Option<i64> {
    let month: i64 = date[5..7].parse().unwrap();
    (month <= 9).then(|| 1500 + 100 * (month - 3).max(0))
}

/// The expected answer of `/api/v1/seasons/{season}/players?as_of=…` (league.md §3–§5).
fn expected_players(file: &Value, as_of: Option<&str>) -> Value {
    let dates = nights(file);
    let as_of = as_of
        .map(str::to_string)
        .unwrap_or_else(|| dates.last().unwrap().clone());
    let dl = deadline(file);
    let now = table(file, &as_of);
    let night = dates.iter().rfind(|d| **d <= as_of);
    let previous = night
        .and_then(|n| dates.iter().rfind(|d| *d < n))
        .map(|d| table(file, d))
        .unwrap_or_default();
    let at_deadline = totals(file, dl.as_str().min(as_of.as_str()));
    let players: Vec<Value> = now
        .iter()
        .map(|l| {
            let before = previous.iter().find(|p| p.player == l.player);
            let rd = at_deadline.get(&l.player).map_or(0, |t| t.0);
            let paid = paid_on(file, &l.player).is_some_and(|d| d <= as_of);
            let above = now
                .iter()
                .filter(|o| o.liga == l.liga && o.rank < l.rank)
                .max_by_key(|o| o.rank);
            json!({
                "player": l.player,
                "liga": liga_name(l.liga),
                "rank": l.rank,
                "previous_rank": before.map(|b| b.rank),
                "previous_liga": before.map(|b| liga_name(b.liga)),
                "rounds": l.rounds,
                "rounds_to_leave_kreisliga": (KREISLIGA_BELOW - l.rounds).max(0),
                "rounds_to_first_liga": (MIN_FIRST_LIGA - rd).max(0),
                "first_liga_reached": (as_of > dl).then_some(rd >= MIN_FIRST_LIGA),
                "fee_cents_now": if paid { None } else { fee(&as_of) },
                "outs_to_pass": above.map(|a| outs_to_pass(l.counted, l.rounds, a.counted, a.rounds)),
            })
        })
        .collect();
    json!({ "season": year_of(file), "as_of": as_of, "players": players })
}

fn as_json(file: &SeasonFile) -> Value {
    serde_json::to_value(file).unwrap()
}

async fn check_players(t: &TestApp, file: &Value, as_of: Option<&str>) {
    let year = year_of(file);
    let uri = match as_of {
        Some(d) => format!("/api/v1/seasons/{year}/players?as_of={d}"),
        None => format!("/api/v1/seasons/{year}/players"),
    };
    let a = t.get(&uri, None).await;
    assert_eq!(a.status, StatusCode::OK, "{uri}: {}", a.body);
    assert_eq!(a.json(), expected_players(file, as_of), "{uri}");
}

// ---------------------------------------------------------------------------------------------
// The shared league cases.

#[tokio::test]
async fn the_model_here_agrees_with_the_fixture_standings() {
    // The model of this file is checked against the right answers of tests/fixtures first.
    for case in ["small-2026", "sample-2026"] {
        let file = fixture_json(&format!("{case}.season.json"));
        assert_eq!(
            file["rules"],
            json!({}),
            "{case}: the model knows only the defaults"
        );
        let want = fixture_json(&format!("{case}.standings.json"));
        let got = table(&file, want["as_of"].as_str().unwrap());
        let rows = want["rows"].as_array().unwrap();
        assert_eq!(got.len(), rows.len(), "{case}");
        for (g, w) in got.iter().zip(rows) {
            assert_eq!(w["player"], g.player.as_str(), "{case}");
            assert_eq!(w["liga"], liga_name(g.liga), "{case} {}", g.player);
            assert_eq!(w["rank"], g.rank, "{case} {}", g.player);
            assert_eq!(w["rounds"], g.rounds, "{case} {}", g.player);
            assert_eq!(w["counted_outs"], g.counted, "{case} {}", g.player);
            assert_eq!(w["paid_rounds"], g.paid_rounds, "{case} {}", g.player);
        }
    }
}

#[tokio::test]
async fn players_progress_matches_the_model_on_the_fixtures_night_by_night() {
    for case in ["small-2026", "sample-2026"] {
        let sf = season_file(case, None);
        let file = as_json(&sf);
        // The club's today after New Year's Eve: an as-of date after today would be capped to
        // today (issue 22.3).
        let t = TestApp::builder()
            .seasons([sf])
            .clock(schockerliga::service::clock::FixedClock::parse("2027-01-02T12:00:00Z").unwrap())
            .start()
            .await;
        check_players(&t, &file, None).await;
        let mut dates = nights(&file);
        // Between nights, the deadline, the day after, September and October fees, New Year's Day.
        dates.extend(
            [
                "2026-01-01",
                "2026-06-30",
                "2026-09-30",
                "2026-10-01",
                "2026-11-30",
                "2026-12-01",
                "2026-12-31",
            ]
            .map(String::from),
        );
        for d in &dates {
            check_players(&t, &file, Some(d)).await;
        }
    }
}

#[tokio::test]
async fn players_progress_refuses_bad_seasons_and_dates_as_json() {
    let t = TestApp::with_seasons(&[season_file("small-2026", None)]).await;
    for (uri, status) in [
        ("/api/v1/seasons/1999/players", StatusCode::NOT_FOUND),
        ("/api/v1/seasons/abc/players", StatusCode::NOT_FOUND),
        (
            "/api/v1/seasons/2026/players?as_of=2025-12-31",
            StatusCode::BAD_REQUEST,
        ),
        (
            "/api/v1/seasons/2026/players?as_of=31.12.2026",
            StatusCode::BAD_REQUEST,
        ),
        ("/api/v1/players/Niemand", StatusCode::NOT_FOUND),
    ] {
        let a = t.get(uri, None).await;
        assert_eq!(a.status, status, "{uri}");
        assert!(a.json()["error"].as_str().is_some_and(|e| !e.is_empty()));
    }
    // Before the first night nobody is listed yet.
    let a = t
        .get("/api/v1/seasons/2026/players?as_of=2026-01-01", None)
        .await;
    assert_eq!(
        a.json(),
        json!({"season": 2026, "as_of": "2026-01-01", "players": []})
    );
}

// ---------------------------------------------------------------------------------------------
// The thresholds.

/// A season 2026 with one table a night: `plays(night, round)` names who plays that round (at
/// least two), the first of them losing it; Outs, Hand-Outs, Julen and one Joker spread by a fixed
/// pattern.
fn built_season(
    year: i64,
    players: &[(&str, Option<&str>)],
    dates: &[&str],
    plays: impl Fn(usize, u32) -> Vec<&'static str>,
) -> Value {
    let mut nights = Vec::new();
    for (n, date) in dates.iter().enumerate() {
        let mut rounds = Vec::new();
        for round in 1..=10u32 {
            let who = plays(n, round);
            if who.len() < 2 {
                continue;
            }
            let results: Vec<Value> = who
                .iter()
                .enumerate()
                .map(|(i, p)| {
                    let seed = n + round as usize * 3 + i * 7;
                    let outs = [0, 1, 0, 2, 1, 0, 0][seed % 7];
                    let julen = [0, 1, 0, 0, 2][seed % 5];
                    json!({
                        "player": p,
                        "outs": outs,
                        "hand_outs": if outs > 0 && seed.is_multiple_of(5) { 1 } else { 0 },
                        "julen": julen,
                        "joker": round == 1 && i == 1,
                        "lost": i == (n + round as usize) % who.len(),
                    })
                })
                .collect();
            rounds.push(json!({ "number": round, "results": results }));
        }
        nights.push(json!({
            "date": date.replace("YYYY", &year.to_string()),
            "tables": [{ "number": 1, "rounds": rounds }],
            "fines": [],
        }));
    }
    json!({
        "format": "schockerliga-season/1",
        "season": year,
        "rules": {},
        "players": players.iter().map(|(name, paid)| json!({
            "name": name,
            "fee_paid_on": paid.map(|d| d.replace("YYYY", &year.to_string())),
        })).collect::<Vec<_>>(),
        "nights": nights,
    })
}

/// Ten nights up to October, one after the deadline: Anna 100 rounds by the deadline, Bernd 99
/// (both paid), Carla 10 then 11 rounds, Dirk 10 (paid in February), Elke everywhere, unpaid.
fn threshold_season() -> Value {
    let dates = [
        "YYYY-01-09",
        "YYYY-02-13",
        "YYYY-03-13",
        "YYYY-04-10",
        "YYYY-05-08",
        "YYYY-06-12",
        "YYYY-07-10",
        "YYYY-08-14",
        "YYYY-09-11",
        "YYYY-10-09",
        "YYYY-12-04",
    ];
    built_season(
        2026,
        &[
            ("Anna", Some("YYYY-01-09")),
            ("Bernd", Some("YYYY-01-09")),
            ("Carla", None),
            ("Dirk", Some("YYYY-02-13")),
            ("Elke", None),
        ],
        &dates,
        |night, round| {
            let mut who = vec!["Anna", "Elke"];
            if night < 10 && !(night == 9 && round == 10) {
                who.push("Bernd");
            }
            if night == 0 || (night == 1 && round == 1) {
                who.push("Carla");
            }
            if night == 0 {
                who.push("Dirk");
            }
            if night == 10 {
                who.push("Bernd");
            }
            who
        },
    )
}

#[tokio::test]
async fn players_progress_at_the_thresholds() {
    let file = threshold_season();
    let sf: SeasonFile = serde_json::from_value(file.clone()).unwrap();
    let t = TestApp::with_seasons(&[sf]).await;
    let mut dates = nights(&file);
    dates.extend(
        [
            "2026-01-08",
            "2026-02-12",
            "2026-09-30",
            "2026-10-01",
            "2026-11-30",
            "2026-12-01",
        ]
        .map(String::from),
    );
    for d in &dates {
        check_players(&t, &file, Some(d)).await;
    }
    check_players(&t, &file, None).await;

    // The edges by hand, so that the model above is not the only witness.
    let get = |v: &Value, name: &str| -> Value {
        v["players"]
            .as_array()
            .unwrap()
            .iter()
            .find(|p| p["player"] == name)
            .cloned()
            .unwrap_or(Value::Null)
    };
    let first = t
        .get("/api/v1/seasons/2026/players?as_of=2026-01-09", None)
        .await
        .json();
    // 10 rounds: one more to leave the Kreisliga; Dirk pays in February, so January's 15 € apply.
    assert_eq!(get(&first, "Dirk")["rounds"], 10);
    assert_eq!(get(&first, "Dirk")["liga"], "Kreisliga");
    assert_eq!(get(&first, "Dirk")["rounds_to_leave_kreisliga"], 1);
    assert_eq!(get(&first, "Dirk")["fee_cents_now"], 1500);
    assert_eq!(get(&first, "Dirk")["previous_rank"], Value::Null);
    let second = t
        .get("/api/v1/seasons/2026/players?as_of=2026-02-13", None)
        .await
        .json();
    // 11 rounds: out of the Kreisliga (unpaid: 2. Liga), February costs 15 €.
    assert_eq!(get(&second, "Carla")["rounds"], 11);
    assert_eq!(get(&second, "Carla")["liga"], "2. Liga");
    assert_eq!(get(&second, "Carla")["previous_liga"], "Kreisliga");
    assert_eq!(get(&second, "Carla")["rounds_to_leave_kreisliga"], 0);
    assert_eq!(get(&second, "Carla")["fee_cents_now"], 1500);
    assert_eq!(get(&second, "Dirk")["fee_cents_now"], Value::Null);
    let september = t
        .get("/api/v1/seasons/2026/players?as_of=2026-09-30", None)
        .await
        .json();
    assert_eq!(get(&september, "Elke")["fee_cents_now"], 2100);
    let october = t
        .get("/api/v1/seasons/2026/players?as_of=2026-10-01", None)
        .await
        .json();
    assert_eq!(get(&october, "Elke")["fee_cents_now"], Value::Null);
    let deadline = t
        .get("/api/v1/seasons/2026/players?as_of=2026-11-30", None)
        .await
        .json();
    assert_eq!(get(&deadline, "Anna")["rounds_to_first_liga"], 0);
    assert_eq!(get(&deadline, "Anna")["first_liga_reached"], Value::Null);
    assert_eq!(get(&deadline, "Bernd")["rounds_to_first_liga"], 1);
    assert_eq!(get(&deadline, "Bernd")["liga"], "1. Liga");
    assert_eq!(get(&deadline, "Bernd")["first_liga_reached"], Value::Null);
    let after = t
        .get("/api/v1/seasons/2026/players?as_of=2026-12-01", None)
        .await
        .json();
    assert_eq!(get(&after, "Anna")["first_liga_reached"], true);
    assert_eq!(get(&after, "Anna")["liga"], "1. Liga");
    assert_eq!(get(&after, "Bernd")["first_liga_reached"], false);
    assert_eq!(get(&after, "Bernd")["liga"], "2. Liga");
    assert_eq!(get(&after, "Bernd")["rounds_to_first_liga"], 1);
    // 1. Liga by himself after the deadline: rank 1, nobody to pass.
    assert_eq!(get(&after, "Anna")["rank"], 1);
    assert_eq!(get(&after, "Anna")["outs_to_pass"], Value::Null);
    let last = t.get("/api/v1/seasons/2026/players", None).await.json();
    // The night after the deadline: Bernd was 1. Liga the night before (as of 9 October).
    assert_eq!(last["as_of"], "2026-12-04");
    assert_eq!(get(&last, "Bernd")["previous_liga"], "1. Liga");
    assert_eq!(get(&last, "Bernd")["liga"], "2. Liga");
    assert_eq!(get(&last, "Bernd")["rounds"], 109);
}

// ---------------------------------------------------------------------------------------------
// Careers and the all-time table over two seasons.

/// What `player` received in a payouts fixture: his places' and Lucky Looser cents.
fn received(payouts: &Value, player: &str) -> i64 {
    let mut cents = 0;
    for part in payouts["places"]
        .as_array()
        .unwrap()
        .iter()
        .chain([&payouts["lucky_looser"]])
    {
        for (p, c) in part["players"]
            .as_array()
            .unwrap()
            .iter()
            .zip(part["cents"].as_array().unwrap())
        {
            if p == player {
                cents += c.as_i64().unwrap();
            }
        }
    }
    cents
}

/// 2025 = the sample season moved a year back (it carries nothing out), 2026 = the small season.
async fn two_seasons() -> (TestApp, [(Value, Value); 2]) {
    let old = season_file("sample-2026", Some(2025));
    let new = season_file("small-2026", None);
    let cases = [
        (as_json(&old), fixture_json("sample-2026.payouts.json")),
        (as_json(&new), fixture_json("small-2026.payouts.json")),
    ];
    assert_eq!(cases[0].1["carry_out_cents"], 0);
    (TestApp::with_seasons(&[old, new]).await, cases)
}

fn close(a: &Value, b: f64) -> bool {
    (a.as_f64().unwrap() - b).abs() < 1e-9
}

#[tokio::test]
async fn a_career_lists_every_season_with_its_final_line_and_payout() {
    let (t, cases) = two_seasons().await;
    let mut names: Vec<String> = Vec::new();
    for (file, _) in &cases {
        for l in table(file, nights(file).last().unwrap()) {
            if !names.contains(&l.player) {
                names.push(l.player);
            }
        }
    }
    for name in &names {
        let a = t.get(&format!("/api/v1/players/{name}"), None).await;
        assert_eq!(a.status, StatusCode::OK, "{name}");
        let got = a.json();
        let mut seasons = Vec::new();
        for (file, payouts) in &cases {
            let last = nights(file).last().unwrap().clone();
            if let Some(l) = table(file, &last).into_iter().find(|l| &l.player == name) {
                seasons.push((year_of(file), l, received(payouts, name)));
            }
        }
        assert_eq!(got["player"], name.as_str());
        let lines = got["seasons"].as_array().unwrap();
        assert_eq!(lines.len(), seasons.len(), "{name}");
        for (g, (year, l, cents)) in lines.iter().zip(&seasons) {
            let keys: Vec<&String> = g.as_object().unwrap().keys().collect();
            assert_eq!(
                keys,
                [
                    "counted_outs",
                    "d_wert",
                    "liga",
                    "paid_rounds",
                    "payout_cents",
                    "rank",
                    "rounds",
                    "season"
                ],
                "{name}: exactly the fields of the contract"
            );
            assert_eq!(g["season"], *year, "{name}");
            assert_eq!(g["liga"], liga_name(l.liga), "{name} {year}");
            assert_eq!(g["rank"], l.rank, "{name} {year}");
            assert_eq!(g["rounds"], l.rounds, "{name} {year}");
            assert_eq!(g["counted_outs"], l.counted, "{name} {year}");
            assert!(
                close(&g["d_wert"], l.counted as f64 * 10.0 / l.rounds as f64),
                "{name} {year}"
            );
            assert_eq!(g["paid_rounds"], l.paid_rounds, "{name} {year}");
            assert_eq!(g["payout_cents"], *cents, "{name} {year}");
        }
    }
    // Any case finds him.
    let first = &names[0];
    let lower = t
        .get(&format!("/api/v1/players/{}", first.to_lowercase()), None)
        .await;
    assert_eq!(lower.status, StatusCode::OK);
    assert_eq!(lower.json()["player"], first.as_str());
}

#[tokio::test]
async fn the_all_time_table_ranks_players_with_100_rounds_over_both_seasons() {
    let (t, cases) = two_seasons().await;
    // name → (rounds, counted, seasons)
    let mut sum: BTreeMap<String, (i64, i64, i64)> = BTreeMap::new();
    for (file, _) in &cases {
        for l in table(file, nights(file).last().unwrap()) {
            let e = sum.entry(l.player).or_default();
            e.0 += l.rounds;
            e.1 += l.counted;
            e.2 += 1;
        }
    }
    let listed: Vec<(&String, &(i64, i64, i64))> = sum.iter().filter(|(_, s)| s.0 >= 100).collect();
    assert!(
        sum.values().any(|s| s.0 < 100),
        "the case has someone below 100 rounds"
    );
    let better = |a: &(i64, i64, i64), b: &(i64, i64, i64)| {
        let (x, y) = (a.1 * b.0, b.1 * a.0);
        x > y || (x == y && a.0 > b.0)
    };
    let mut want: Vec<(i64, &String, &(i64, i64, i64))> = listed
        .iter()
        .map(|(n, s)| {
            let rank = listed.iter().filter(|(_, o)| better(o, s)).count() as i64 + 1;
            (rank, *n, *s)
        })
        .collect();
    want.sort();
    let got = t.get("/api/v1/alltime", None).await;
    assert_eq!(got.status, StatusCode::OK);
    let got = got.json();
    let rows = got["rows"].as_array().unwrap();
    assert_eq!(rows.len(), want.len());
    for (g, (rank, name, s)) in rows.iter().zip(&want) {
        let keys: Vec<&String> = g.as_object().unwrap().keys().collect();
        assert_eq!(
            keys,
            [
                "counted_outs",
                "d_wert",
                "player",
                "rank",
                "rounds",
                "seasons"
            ]
        );
        assert_eq!(g["player"], name.as_str());
        assert_eq!(g["rank"], *rank, "{name}");
        assert_eq!(g["rounds"], s.0, "{name}");
        assert_eq!(g["counted_outs"], s.1, "{name}");
        assert!(
            close(&g["d_wert"], s.1 as f64 * 10.0 / s.0 as f64),
            "{name}"
        );
        assert_eq!(g["seasons"], s.2, "{name}");
    }
    assert_eq!(got.as_object().unwrap().len(), 1, "only rows");
}

#[tokio::test]
async fn the_players_json_has_exactly_the_fields_of_the_contract() {
    let t = TestApp::with_seasons(&[season_file("small-2026", None)]).await;
    let v = t.get("/api/v1/seasons/2026/players", None).await.json();
    let top: Vec<&String> = v.as_object().unwrap().keys().collect();
    assert_eq!(top, ["as_of", "players", "season"]);
    for p in v["players"].as_array().unwrap() {
        let keys: Vec<&String> = p.as_object().unwrap().keys().collect();
        assert_eq!(
            keys,
            [
                "fee_cents_now",
                "first_liga_reached",
                "liga",
                "outs_to_pass",
                "player",
                "previous_liga",
                "previous_rank",
                "rank",
                "rounds",
                "rounds_to_first_liga",
                "rounds_to_leave_kreisliga"
            ]
        );
    }
}

// ---------------------------------------------------------------------------------------------
// The public table.

/// The row of `name` in a table page (from its `<tr` to its `</tr>`).
fn html_row<'a>(body: &'a str, name: &str) -> &'a str {
    let link = format!(">{name}</a>");
    let mut from = 0;
    while let Some(i) = body[from..].find("<tr") {
        let start = from + i;
        let end = body[start..]
            .find("</tr>")
            .map_or(body.len(), |e| start + e);
        if body[start..end].contains(&link) {
            return &body[start..end];
        }
        from = start + 3;
    }
    panic!("no row for {name}")
}

#[tokio::test]
async fn every_table_row_shows_its_movement_and_progress_badge() {
    let file = threshold_season();
    let sf: SeasonFile = serde_json::from_value(file.clone()).unwrap();
    let t = TestApp::with_seasons(&[sf]).await;
    let mut checked = 0;
    for as_of in ["2026-02-13", "2026-06-12", "2026-12-04"] {
        let page = t.get(&format!("/saison/2026?as_of={as_of}"), None).await;
        assert_eq!(page.status, StatusCode::OK);
        let want = expected_players(&file, Some(as_of));
        for p in want["players"].as_array().unwrap() {
            let name = p["player"].as_str().unwrap();
            let label = match (p["previous_rank"].as_i64(), p["previous_liga"].as_str()) {
                (None, _) => "neu".to_string(),
                (Some(_), Some(l)) if l != p["liga"] => {
                    let order = |l: &str| {
                        ["1. Liga", "2. Liga", "Kreisliga"]
                            .iter()
                            .position(|x| *x == l)
                    };
                    if order(p["liga"].as_str().unwrap()) < order(l) {
                        "aufgestiegen".to_string()
                    } else {
                        "abgestiegen".to_string()
                    }
                }
                (Some(before), _) => {
                    let now = p["rank"].as_i64().unwrap();
                    match now.cmp(&before) {
                        std::cmp::Ordering::Less => format!("▲{}", before - now),
                        std::cmp::Ordering::Greater => format!("▼{}", now - before),
                        std::cmp::Ordering::Equal => "–".to_string(),
                    }
                }
            };
            let row = html_row(&page.body, name);
            assert!(
                row.contains(&format!("title=\"{label}\"")),
                "{as_of} {name}: {label} in {row}"
            );
            if p["liga"] == "Kreisliga" {
                let n = p["rounds_to_leave_kreisliga"].as_i64().unwrap();
                assert!(
                    row.contains(&format!("noch {n} Rd. bis Liga")),
                    "{as_of} {name}: {row}"
                );
            }
            checked += 1;
        }
    }
    assert!(checked >= 12, "{checked}");
    // 12-04: Bernd dropped to the 2. Liga after the deadline and is told why.
    let page = t.get("/saison/2026?as_of=2026-12-04", None).await;
    let row = html_row(&page.body, "Bernd");
    assert!(
        row.contains("abgestiegen") && row.contains("Rundenziel 1. Liga verpasst"),
        "{row}"
    );
}

/// One meaning per sign (issue 31.11): ▲ and ▼ say only how a place moved since the last night (the
/// ± column); the hint beside a name says in words how many counted Outs reach which place
/// („3 Outs bis Pl. 2“), the figures of an independent oracle.
#[tokio::test]
async fn the_hint_beside_a_name_names_the_outs_and_the_place_without_an_arrow() {
    let sample = as_json(&season_file("sample-2026", None));
    let mut checked = 0;
    for file in [threshold_season(), sample] {
        let sf: SeasonFile = serde_json::from_value(file.clone()).unwrap();
        let t = TestApp::with_seasons(&[sf]).await;
        for as_of in nights(&file) {
            let as_of = as_of.as_str();
            let page = t.get(&format!("/saison/2026?as_of={as_of}"), None).await;
            let want = expected_players(&file, Some(as_of));
            let players = want["players"].as_array().unwrap();
            for p in players {
                let name = p["player"].as_str().unwrap();
                let row = html_row(&page.body, name);
                let badge = row
                    .split("<span class=\"badge\">")
                    .nth(1)
                    .and_then(|b| b.split("</span>").next())
                    .unwrap_or("");
                assert!(
                    !badge.contains('▲') && !badge.contains('▼'),
                    "{as_of} {name}: {badge}"
                );
                let (Some(k), true) = (p["outs_to_pass"].as_i64(), badge.contains("bis Pl."))
                else {
                    continue;
                };
                let above = players
                    .iter()
                    .filter(|o| o["liga"] == p["liga"] && o["rank"].as_i64() < p["rank"].as_i64())
                    .filter_map(|o| o["rank"].as_i64())
                    .max()
                    .unwrap();
                let outs = if k == 1 { "Out" } else { "Outs" };
                assert_eq!(
                    badge,
                    format!("{k} {outs} bis Pl. {above}"),
                    "{as_of} {name}"
                );
                checked += 1;
            }
        }
    }
    assert!(checked >= 20, "{checked}");
}

// ---------------------------------------------------------------------------------------------
// The player page.

#[tokio::test]
async fn the_player_page_opens_with_where_he_stands_and_draws_his_curves() {
    let file = threshold_season();
    let sf: SeasonFile = serde_json::from_value(file.clone()).unwrap();
    let t = TestApp::with_seasons(&[sf]).await;
    let players = schockerliga::db::player::of_season_pool(&t.db.read, 2026)
        .await
        .unwrap();
    let want = expected_players(&file, None);
    for p in want["players"].as_array().unwrap() {
        let name = p["player"].as_str().unwrap();
        let id = players.iter().find(|x| x.name == name).unwrap().id;
        let page = t.get(&format!("/saison/2026/spieler/{id}"), None).await;
        assert_eq!(page.status, StatusCode::OK);
        let body = &page.body;
        assert_eq!(
            crate::app::only_script_files(&body.to_lowercase()),
            Ok(()),
            "no inline script"
        );
        // Where he stands comes before the charts, the charts before the nights.
        let stand = body.find("class=\"stand\"").expect("stand");
        let missing = body.find("Was fehlt noch?").expect("was fehlt noch");
        let chart = body.find("<svg class=\"chart\"").expect("chart");
        let nights = body.find("<details class=\"rounds\"").expect("rounds fold");
        assert!(
            stand < missing && missing < chart && chart < nights,
            "{name}"
        );
        assert_eq!(body.matches("<svg class=\"chart\"").count(), 3, "{name}");
        assert_eq!(body.matches("<title id=\"chart-").count(), 3, "{name}");
        assert!(body.contains("<summary>Verlauf als Tabelle</summary>"));
        let rank = p["rank"].as_i64().unwrap();
        assert!(
            body.contains(&format!("<strong>{rank}.</strong> Platz")),
            "{name}"
        );
        assert!(body.contains(&format!("<strong>{}</strong>", p["liga"].as_str().unwrap())));
        match p["outs_to_pass"].as_i64() {
            Some(k) => {
                let outs = if k == 1 { "Out" } else { "Outs" };
                assert!(
                    body.contains(&format!("Mit {k} gewerteten {outs} mehr")),
                    "{name}"
                );
            }
            // Issue 21.10: the leader's sentence has no pronoun ("Er führt die …" for Gabi).
            None => assert!(body.contains("An der Spitze der"), "{name}"),
        }
        for he in ["Er führt", " er ", "seiner Liga", " ihm"] {
            assert!(!body.contains(he), "{name}: „{he}“");
        }
        let short = p["rounds_to_leave_kreisliga"].as_i64().unwrap();
        assert_eq!(
            short > 0,
            body.contains("bis zum Ende der Kreisliga"),
            "{name}"
        );
    }
    // Bernd after the deadline: 99 of 100 rounds.
    let bernd = players.iter().find(|x| x.name == "Bernd").unwrap().id;
    let page = t.get(&format!("/saison/2026/spieler/{bernd}"), None).await;
    assert!(
        page.body
            .contains("Rundenziel für die 1. Liga bis 30.11.2026 verpasst: es fehlten 1 Runde."),
        "{}",
        page.body
    );
    // Elke never paid and it is December: too late.
    let elke = players.iter().find(|x| x.name == "Elke").unwrap().id;
    let page = t.get(&format!("/saison/2026/spieler/{elke}"), None).await;
    assert!(page.body.contains("in dieser Saison geht das nicht mehr"));
}

// ---------------------------------------------------------------------------------------------
// Career, all-time table, Ehrentafel and records as pages.

#[tokio::test]
async fn career_all_time_ehrentafel_and_records_pages_link_each_other() {
    let (t, cases) = two_seasons().await;
    let home = t.get("/", None).await.body;
    for link in ["/ewige-tabelle", "/ehrentafel", "/rekorde"] {
        assert!(
            home.contains(&format!("href=\"{link}\"")),
            "footer links {link}"
        );
    }
    // The all-time page lists exactly the API's rows, each linking a career page.
    let rows = t.get("/api/v1/alltime", None).await.json()["rows"].clone();
    let page = t.get("/ewige-tabelle", None).await;
    assert_eq!(page.status, StatusCode::OK);
    assert_eq!(
        page.body.matches("href=\"/spieler/").count(),
        rows.as_array().unwrap().len()
    );
    let first = rows[0]["player"].as_str().unwrap();
    let at = page.body.find(&format!(">{first}</a>")).unwrap();
    let href_start = page.body[..at].rfind("href=\"").unwrap() + 6;
    let href = &page.body[href_start..at - 1];
    let career = t.get(href, None).await;
    assert_eq!(career.status, StatusCode::OK, "{href}");
    assert!(career.body.contains("<h1>") && career.body.contains(first));
    assert!(
        career.body.contains("Platz 1 der"),
        "rank 1 of the all-time table"
    );
    let api = t
        .get(&format!("/api/v1/players/{first}"), None)
        .await
        .json();
    for s in api["seasons"].as_array().unwrap() {
        assert!(career.body.contains(&format!(">{}</a>", s["season"])));
    }
    assert_eq!(
        t.get("/spieler/9999", None).await.status,
        StatusCode::NOT_FOUND
    );

    // The Ehrentafel names each year's Schocker des Jahres (rank 1 of the 1. Liga) and Lucky Looser.
    let tafel = t.get("/ehrentafel", None).await.body;
    for (file, payouts) in &cases {
        let last = nights(file).last().unwrap().clone();
        let best = table(file, &last)
            .into_iter()
            .find(|l| l.liga == 1 && l.rank == 1)
            .unwrap();
        assert!(tafel.contains(&format!("<strong>{}</strong>", best.player)));
        let lucky = payouts["lucky_looser"]["players"][0].as_str().unwrap();
        assert!(tafel.contains(lucky));
    }

    // Records: the most counted Outs of one night over both seasons, computed here.
    let mut best = 0;
    for (file, _) in &cases {
        for night in file["nights"].as_array().unwrap() {
            let d = night["date"].as_str().unwrap();
            let prev = nights(file).into_iter().rfind(|x| x.as_str() < d);
            let now = totals(file, d);
            let before = prev.map(|p| totals(file, &p)).unwrap_or_default();
            for (name, (_, counted, _)) in &now {
                let earlier = before.get(name).map_or(0, |b| b.1);
                best = best.max(counted - earlier);
            }
        }
    }
    let rekorde = t.get("/rekorde", None).await;
    assert_eq!(rekorde.status, StatusCode::OK);
    assert!(
        rekorde
            .body
            .contains(&format!("<strong>{best} gewertete Outs</strong>")),
        "{best}"
    );
    assert!(
        rekorde.body.contains("href=\"/abend/"),
        "holders link the night"
    );
    let season = t.get("/saison/2026/rekorde", None).await;
    assert_eq!(season.status, StatusCode::OK);
    assert!(season.body.contains("Rekorde 2026"));
    // Issue 31.11: no "Meiste bezahlte Runden an einem Abend" (the Sozialfall stops them at 3),
    // the most lost rounds of a night instead.
    for page in [&rekorde.body, &season.body] {
        assert!(!page.contains("bezahlte Runden"), "{page}");
        assert!(
            page.contains("Meiste verlorene Runden an einem Abend"),
            "{page}"
        );
    }
}

// ---------------------------------------------------------------------------------------------
// "Das bin ich".

#[tokio::test]
async fn das_bin_ich_highlights_his_row_and_never_leaks_into_the_cache() {
    let t = TestApp::with_seasons(&[season_file("small-2026", None)]).await;
    let players = schockerliga::db::player::of_season_pool(&t.db.read, 2026)
        .await
        .unwrap();
    let dirk = players.iter().find(|p| p.name == "Dirk").unwrap().id;
    // An anonymous visitor first: the page cache keeps his (unmarked) table.
    let plain = t.get("/", None).await.body;
    assert!(!plain.contains("class=\"me\"") && !plain.contains("Dein Stand"));

    // Dirk says "Das bin ich" on his page.
    let page = t.get(&format!("/saison/2026/spieler/{dirk}"), None).await;
    assert!(page.body.contains("action=\"/ich\"") && page.body.contains("name=\"einmal\""));
    let r = t
        .post(
            "/ich",
            &format!("spieler={dirk}&zurueck=/saison/2026/spieler/{dirk}"),
            None,
        )
        .await;
    assert_eq!(r.status, StatusCode::SEE_OTHER);
    assert_eq!(
        r.location(),
        Some(format!("/saison/2026/spieler/{dirk}").as_str())
    );
    let set = r
        .header(axum::http::header::SET_COOKIE)
        .unwrap()
        .to_string();
    assert!(
        set.starts_with(&format!("ich={dirk};")) && set.contains("HttpOnly"),
        "{set}"
    );
    let cookie = format!("ich={dirk}");

    // His table: his row marked, his progress first; not for shared caches.
    for uri in ["/", "/saison/2026"] {
        let mine = t.get(uri, Some(&cookie)).await;
        assert_eq!(mine.status, StatusCode::OK);
        assert_eq!(mine.body.matches("<tr class=\"me\">").count(), 1, "{uri}");
        assert!(
            html_row(&mine.body, "Dirk").starts_with("<tr class=\"me\">"),
            "{uri}"
        );
        assert!(
            mine.header("cache-control").unwrap().contains("private"),
            "{uri}"
        );
    }
    let home = t.get("/", Some(&cookie)).await.body;
    let first = home
        .find("Dein Stand")
        .expect("his progress on the home page");
    assert!(
        first < home.find("<h1>Tabelle").unwrap(),
        "his progress comes first"
    );
    let page = t
        .get(&format!("/saison/2026/spieler/{dirk}"), Some(&cookie))
        .await;
    assert!(page.body.contains("Das bin ich nicht"));

    // Other visitors, before and after, get the page every visitor gets: never his mark.
    for uri in ["/", "/saison/2026", &format!("/saison/2026/spieler/{dirk}")] {
        for _ in 0..2 {
            let other = t.get(uri, None).await;
            assert!(!other.body.contains("class=\"me\""), "{uri}");
            assert!(!other.body.contains("Dein Stand"), "{uri}");
            assert!(!other.body.contains("Das bin ich nicht"), "{uri}");
        }
    }
    assert_eq!(
        t.get("/", None).await.body,
        plain,
        "the cached page is unchanged"
    );

    // Forgetting deletes the cookie; an unknown player is refused.
    let r = t.post("/ich/vergessen", "zurueck=/", Some(&cookie)).await;
    assert_eq!(r.status, StatusCode::SEE_OTHER);
    assert!(r
        .header(axum::http::header::SET_COOKIE)
        .unwrap()
        .contains("Max-Age=0"));
    assert_eq!(
        t.post("/ich", "spieler=9999", None).await.status,
        StatusCode::NOT_FOUND
    );
    // A foreign return address is not followed.
    let r = t
        .post("/ich", &format!("spieler={dirk}&zurueck=//evil.test"), None)
        .await;
    assert_eq!(r.location(), Some("/"));
}

#[tokio::test]
async fn the_manifest_and_its_icons_are_served_and_linked() {
    let t = TestApp::with_seasons(&[season_file("small-2026", None)]).await;
    let home = t.get("/", None).await.body;
    assert!(home.contains("<link rel=\"manifest\" href=\"/static/manifest.webmanifest\">"));
    let m = t.get("/static/manifest.webmanifest", None).await;
    assert_eq!(m.status, StatusCode::OK);
    let v = m.json();
    assert_eq!(v["start_url"], "/");
    for icon in v["icons"].as_array().unwrap() {
        let src = icon["src"].as_str().unwrap();
        let r = t.get(src, None).await;
        assert_eq!(r.status, StatusCode::OK, "{src}");
        assert_eq!(r.header("content-type"), icon["type"].as_str(), "{src}");
    }
    let css = t.get("/static/style.css", None).await.body;
    assert!(css.contains("prefers-color-scheme: dark"));
}

/// The Jahresbeitrag on the player page is priced for today's month (league.md §5: 15 € to
/// March, 1 € more each month from April, none after September), not for the month of the last
/// night; the anonymous (cached) page says the same.
#[tokio::test]
async fn the_player_page_prices_the_fee_for_this_month() {
    use chrono::Datelike;
    let today = crate::app::club_today();
    let year = today.year();
    let night = chrono::NaiveDate::from_ymd_opt(year, 1, 9).unwrap();
    let day = today.max(night);
    let sf: SeasonFile = serde_json::from_value(json!({
        "format": "schockerliga-season/1", "season": year,
        "players": [ { "name": "Anna" }, { "name": "Bernd" } ],
        "nights": [ { "date": night.to_string(), "tables": [ { "number": 1, "rounds": [
            { "number": 1, "results": [
                { "player": "Anna", "outs": 1, "hand_outs": 0 },
                { "player": "Bernd", "outs": 0, "hand_outs": 0, "lost": true } ] } ] } ] } ]
    }))
    .unwrap();
    let t = TestApp::with_seasons(&[sf]).await;
    let want = if day.month() <= 9 {
        let euros = 15 + day.month().saturating_sub(3);
        format!("Jahresbeitrag noch nicht bezahlt: diesen Monat {euros},00")
    } else {
        "Jahresbeitrag nicht bezahlt; in dieser Saison geht das nicht mehr".to_string()
    };
    let table = t.get(&format!("/saison/{year}"), None).await.body;
    let href = table
        .split("href=\"")
        .find(|s| s.starts_with(&format!("/saison/{year}/spieler/")))
        .and_then(|s| s.split('"').next())
        .expect("a player link")
        .to_string();
    for _ in 0..2 {
        let page = t.get(&href, None).await;
        assert_eq!(page.status, StatusCode::OK);
        assert!(page.body.contains(&want), "{want}\n{}", page.body);
    }
}

/// A season whose year is over says nothing still to reach (fresh-user trial: a finished season's
/// table and player page said „noch 70 Rd.“ as if he could still play): the table's badges and
/// the player page speak of what was missed, in the past tense.
#[tokio::test]
async fn a_finished_season_says_what_was_missed_not_what_is_still_needed() {
    let file = threshold_season();
    let sf: SeasonFile = serde_json::from_value(file.clone()).unwrap();
    let want = expected_players(&file, None);
    let kreisliga: Vec<(String, i64)> = want["players"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|p| p["liga"] == "Kreisliga" && p["rounds_to_leave_kreisliga"].as_i64() > Some(0))
        .map(|p| {
            let n = p["rounds_to_leave_kreisliga"].as_i64().unwrap();
            (p["player"].as_str().unwrap().to_string(), n)
        })
        .collect();
    assert!(!kreisliga.is_empty());
    // Still in its year: what is still needed.
    let t = TestApp::with_seasons(std::slice::from_ref(&sf)).await;
    let page = t.get("/saison/2026", None).await.body;
    let (name, n) = &kreisliga[0];
    assert!(html_row(&page, name).contains(&format!("noch {n} Rd. bis Liga")));
    // The year over: what was missed.
    let t = TestApp::builder()
        .seasons([sf])
        .clock(schockerliga::service::clock::FixedClock::parse("2027-01-15T12:00:00Z").unwrap())
        .start()
        .await;
    let page = t.get("/saison/2026", None).await.body;
    assert!(!page.contains("<span class=\"badge\">▲ mit"), "{page}");
    assert!(!page.contains("Rd. für 1. Liga</span>"), "{page}");
    for (name, n) in &kreisliga {
        let row = html_row(&page, name);
        assert!(row.contains(&format!("fehlten {n} Rd. bis Liga")), "{row}");
        assert!(!row.contains(&format!("noch {n} Rd.")), "{row}");
    }
    let players = schockerliga::db::player::of_season_pool(&t.db.read, 2026)
        .await
        .unwrap();
    let id = players.iter().find(|p| p.name == *name).unwrap().id;
    let body = t
        .get(&format!("/saison/2026/spieler/{id}"), None)
        .await
        .body;
    assert!(body.contains("Am Saisonende"), "{body}");
    assert!(!body.contains("Was fehlt noch?"), "{body}");
    let fehlten = if *n == 1 {
        "fehlte 1 Runde".to_string()
    } else {
        format!("fehlten {n} Runden")
    };
    assert!(
        body.contains(&format!("Bis zum Ende der Kreisliga {fehlten}.")),
        "{body}"
    );
    assert!(!body.contains("bis zum Ende der Kreisliga.</li>"), "{body}");
    assert!(!body.contains("gewerteten Outs mehr"), "{body}");
    assert!(!body.contains("gewerteten Out mehr"), "{body}");
}
