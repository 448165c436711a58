use super::*;
use crate::league::testkit::{season, season_json, NightSpec};

/// Anna 9 + 3 Outs (D.Wert 6), Bernd 4 + 4 (4), Carla 2 + 2 (2), all paid, 20 rounds each; paid
/// rounds Anna 1, Bernd 2 + 3, Carla 3 + 3 (Sozialfall).
fn three() -> Season {
    let players = ["Anna", "Bernd", "Carla"];
    let n1 = NightSpec {
        date: "2026-10-02",
        players: &players,
        outs: &[9, 4, 2],
        lost: &[1, 2],
        ..NightSpec::default()
    }
    .build();
    let n2 = NightSpec {
        date: "2026-10-09",
        players: &players,
        outs: &[3, 4, 2],
        lost: &[0, 3],
        ..NightSpec::default()
    }
    .build();
    let fee = Some("2026-02-01");
    season(season_json(
        2026,
        &[("Anna", fee), ("Bernd", fee), ("Carla", fee)],
        vec![n1, n2],
    ))
}

fn chances(s: &Scenario, name: &str) -> Vec<(Option<i64>, Option<i64>)> {
    let p = s.players.iter().find(|p| p.player == name).expect("listed");
    p.places.iter().map(|c| (c.reach, c.safe)).collect()
}

#[test]
fn the_max_of_a_night_is_three_hand_outs_a_round_and_one_joker_round() {
    let s = three();
    assert_eq!(max_counted_outs(&s.rules), 9 * 6 + 12);
}

#[test]
fn reach_and_safe_count_the_fewest_outs_ties_sharing_the_place() {
    let s = scenario(&three(), None, &[300, 250, 200, 150, 100]);
    assert_eq!(s.as_of, NaiveDate::from_ymd_opt(2026, 10, 9));
    let now: Vec<(&str, u32, i64)> = s
        .players
        .iter()
        .map(|p| (p.player.as_str(), p.place_now, p.best_night))
        .collect();
    assert_eq!(now, [("Anna", 1, 9), ("Bernd", 2, 4), ("Carla", 3, 2)]);
    // Bernd: (8 + x) / 3 ≥ 6 passes Anna (equal D.Wert, more rounds) at x = 10; if Anna plays
    // her best night (21 Outs in 30 rounds, 7,00) he shares place 1 at x = 13.
    let bernd = chances(&s, "Bernd");
    assert_eq!(bernd[0], (Some(10), Some(13)));
    assert_eq!(bernd[1], (Some(0), Some(0)));
    assert_eq!(bernd[2], (Some(0), Some(0)));
    // Carla: 2,00 after 20 rounds; Bernd with his best night has 12 in 30 (4,00).
    let carla = chances(&s, "Carla");
    assert_eq!(carla[0], (Some(14), Some(17)));
    assert_eq!(carla[1], (Some(8), Some(8)));
    assert_eq!(chances(&s, "Anna")[0], (Some(0), Some(0)));
    let cents: Vec<i64> = s.players[0].places.iter().map(|p| p.cents).collect();
    assert_eq!(cents, [300, 250, 200, 150, 100]);
}

#[test]
fn the_lucky_looser_race_counts_paid_rounds_at_most_three_a_night() {
    let s = scenario(&three(), None, &[]);
    let race: Vec<(&str, u32, u32, Option<u32>)> = s
        .lucky_looser
        .iter()
        .map(|l| (l.player.as_str(), l.paid_rounds, l.reach, l.safe))
        .collect();
    // Anna (1 paid) cannot reach Carla's 6 with 3; Bernd needs 1 and is never safe.
    assert_eq!(race, [("Carla", 6, 0, Some(2)), ("Bernd", 5, 1, None)]);
}

#[test]
fn a_season_without_results_has_no_chances() {
    let s = season(season_json(2026, &[("Anna", None)], vec![]));
    let sc = scenario(&s, None, &[]);
    assert_eq!(sc.as_of, None);
    assert!(sc.players.is_empty() && sc.lucky_looser.is_empty());
}
