use super::*;
use crate::league::table::nights::player_history;
use crate::league::table::standings::standings;
use crate::league::testkit::{season, season_json, NightSpec};

/// Anna: 4 Outs (1 Hand-Out) with her Joker in round 1 and 4 lost rounds on 09.01. (a
/// Sozialfall), missing 16.01., 2 Outs and 4 Julen on 23.01.
fn anna() -> Season {
    let n1 = NightSpec {
        date: "2026-01-09",
        outs: &[4, 1],
        hand: &[1, 0],
        joker: &[1, 0],
        lost: &[4],
        ..NightSpec::default()
    }
    .build();
    let n2 = NightSpec {
        date: "2026-01-16",
        players: &["Bernd", "Carla"],
        outs: &[1, 1],
        ..NightSpec::default()
    }
    .build();
    let n3 = NightSpec {
        date: "2026-01-23",
        outs: &[2, 0],
        julen: &[4, 0],
        ..NightSpec::default()
    }
    .build();
    season(season_json(
        2026,
        &[("Anna", None), ("Bernd", None), ("Carla", None)],
        vec![n1, n2, n3],
    ))
}

#[test]
fn the_rueckblick_reads_the_table_the_nights_and_the_runs() {
    let s = anna();
    let table = standings(&s, None);
    let r = rueckblick(&s, &table, &player_history(&s, "Anna").unwrap()).unwrap();
    assert_eq!((r.nights, r.rounds), (2, 20));
    // Night 1: round 1 (3 Outs, 1 Hand-Out, Joker) = (2 + 2) × 2 = 8, round 2 = 1; night 2: 2 + 1 Jule-Out.
    assert_eq!(r.counted_outs, 12);
    assert_eq!(
        r.best_night,
        Some((NaiveDate::from_ymd_opt(2026, 1, 9).unwrap(), 9))
    );
    assert_eq!((r.julen, r.julen_outs, r.hand_outs), (4, 1, 1));
    assert_eq!(
        r.joker,
        Some(JokerYield {
            rounds: 1,
            counted: 8,
            extra: 4
        })
    );
    assert_eq!((r.paid_rounds, r.sozialfaelle), (3, 1));
    // A missed night ends the run: two runs of one night each, the first kept.
    let run = r.attendance_run.unwrap();
    assert_eq!(
        (run.len, run.from.to_string()),
        (1, "2026-01-09".to_string())
    );
    let bernd = rueckblick(&s, &table, &player_history(&s, "Bernd").unwrap()).unwrap();
    assert_eq!(bernd.attendance_run.map(|r| r.len), Some(3));
    assert_eq!(bernd.joker, None);
    assert_eq!(bernd.sozialfaelle, 2);
}

#[test]
fn a_player_without_a_round_has_no_rueckblick() {
    let s = anna();
    let table = standings(&s, Some(NaiveDate::from_ymd_opt(2026, 1, 16).unwrap()));
    // Carla's first night is 16.01.: as of 09.01. she has no line.
    let early = standings(&s, Some(NaiveDate::from_ymd_opt(2026, 1, 9).unwrap()));
    let carla = player_history(&s, "Carla").unwrap();
    assert!(rueckblick(&s, &early, &carla).is_none());
    assert!(rueckblick(&s, &table, &carla).is_some());
}
