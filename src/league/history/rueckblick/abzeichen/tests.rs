use serde_json::Value;

use super::*;
use crate::league::table::nights::player_history;
use crate::league::testkit::{season, season_json, NightSpec};

/// The date of night `k` (0-based): weekly from 02.01.2026.
fn day(k: usize) -> String {
    (NaiveDate::from_ymd_opt(2026, 1, 2).unwrap() + chrono::Duration::weeks(k as i64)).to_string()
}

/// Anna's badges in a season of Anna (fee paid), Bernd and Carla from `nights`.
fn badges(nights: Vec<Value>) -> Vec<(Art, String)> {
    let s = season(season_json(
        2026,
        &[
            ("Anna", Some("2026-01-01")),
            ("Bernd", None),
            ("Carla", None),
        ],
        nights,
    ));
    let h = player_history(&s, "Anna").unwrap();
    abzeichen(&s, &h, None)
        .into_iter()
        .map(|a| (a.art, a.date.to_string()))
        .collect()
}

/// A night `k` of Anna and Bernd with Anna's Outs, Hand-Outs, Joker round and lost rounds.
fn night(k: usize, outs: u32, hand: u32, joker: u32, lost: u32) -> Value {
    let date = day(k);
    NightSpec {
        date: &date,
        outs: &[outs, 0],
        hand: &[hand, 0],
        joker: &[joker, 0],
        lost: &[lost],
        ..NightSpec::default()
    }
    .build()
}

fn earned(b: &[(Art, String)], art: Art) -> Option<String> {
    b.iter().find(|(a, _)| *a == art).map(|(_, d)| d.clone())
}

#[test]
fn the_first_schock_out_is_the_night_of_the_first_out() {
    let b = badges(vec![night(0, 0, 0, 0, 0), night(1, 1, 0, 0, 0)]);
    assert_eq!(earned(&b, Art::ErsterSchockOut), Some(day(1)));
    assert_eq!(earned(&b, Art::SchockOutAusDerHand), None);
    assert_eq!(
        earned(&badges(vec![night(0, 0, 0, 0, 0)]), Art::ErsterSchockOut),
        None
    );
}

#[test]
fn a_hand_out_earns_schock_out_aus_der_hand() {
    let b = badges(vec![night(0, 1, 0, 0, 0), night(1, 1, 1, 0, 0)]);
    assert_eq!(earned(&b, Art::SchockOutAusDerHand), Some(day(1)));
}

#[test]
fn three_outs_in_one_round_not_two() {
    // The night builder puts up to 3 Outs in round 1: 2 Outs, then 3.
    let b = badges(vec![night(0, 2, 0, 0, 0), night(1, 3, 0, 0, 0)]);
    assert_eq!(earned(&b, Art::DreiOuts), Some(day(1)));
}

#[test]
fn a_joker_volltreffer_needs_two_outs_in_the_joker_round() {
    let b = badges(vec![
        night(0, 1, 0, 1, 0),
        night(1, 2, 0, 2, 0),
        night(2, 2, 0, 1, 0),
    ]);
    // Night 1: 1 Out in the Joker round 1; night 2: the 2 Outs in round 1, Joker in round 2.
    assert_eq!(earned(&b, Art::JokerVolltreffer), Some(day(2)));
}

#[test]
fn a_sozialfall_is_three_lost_rounds_in_a_night() {
    let b = badges(vec![night(0, 0, 0, 0, 2), night(1, 0, 0, 0, 3)]);
    assert_eq!(earned(&b, Art::Sozialfall), Some(day(1)));
}

#[test]
fn ten_nights_in_a_row_a_missed_night_starts_again() {
    let mut nights: Vec<Value> = (0..9).map(|k| night(k, 0, 0, 0, 0)).collect();
    let date = day(9);
    nights.push(
        NightSpec {
            date: &date,
            players: &["Bernd", "Carla"],
            ..NightSpec::default()
        }
        .build(),
    );
    assert_eq!(earned(&badges(nights.clone()), Art::ZehnAbende), None);
    nights.extend((10..20).map(|k| night(k, 0, 0, 0, 0)));
    assert_eq!(earned(&badges(nights), Art::ZehnAbende), Some(day(19)));
}

#[test]
fn the_aufstieg_is_the_first_night_in_the_1_liga() {
    // 10 rounds: Kreisliga (below 11); 20 rounds and the fee paid: 1. Liga.
    let b = badges(vec![night(0, 0, 0, 0, 0), night(1, 0, 0, 0, 0)]);
    assert_eq!(earned(&b, Art::Aufstieg), Some(day(1)));
    let s = season(season_json(
        2026,
        &[("Anna", None), ("Bernd", None)],
        vec![night(0, 0, 0, 0, 0), night(1, 0, 0, 0, 0)],
    ));
    let h = player_history(&s, "Anna").unwrap();
    assert!(abzeichen(&s, &h, None)
        .iter()
        .all(|a| a.art != Art::Aufstieg));
}

#[test]
fn badges_up_to_a_date_leave_later_nights_out() {
    let s = season(season_json(
        2026,
        &[("Anna", None), ("Bernd", None)],
        vec![night(0, 0, 0, 0, 0), night(1, 1, 0, 0, 0)],
    ));
    let h = player_history(&s, "Anna").unwrap();
    let early = abzeichen(&s, &h, NaiveDate::from_ymd_opt(2026, 1, 2));
    assert!(early.is_empty(), "{early:?}");
    assert_eq!(abzeichen(&s, &h, None)[0].art, Art::ErsterSchockOut);
}
