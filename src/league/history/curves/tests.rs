//! Unit tests of `src/league/curves.rs`: D.Wert, place and counted Outs per night, worked out by hand.

use super::*;
use crate::league::testkit::{season, season_json, NightSpec};

fn date(s: &str) -> NaiveDate {
    s.parse().expect("test date")
}

/// Night 1: Anna 2 Outs, Bernd 1 Out and 2 Julen. Night 2 (Anna absent): Bernd 1 Jule (his 3rd:
/// one counted Out), Cem 3 Outs in his Joker-Runde (6). Night 3: Anna a Hand-Out (2), the others
/// nothing. All 10 rounds, nobody paid.
fn three_nights() -> Season {
    let nights = vec![
        NightSpec {
            date: "2026-01-09",
            players: &["Anna", "Bernd"],
            outs: &[2, 1],
            julen: &[0, 2],
            ..NightSpec::default()
        }
        .build(),
        NightSpec {
            date: "2026-01-16",
            players: &["Bernd", "Cem"],
            outs: &[0, 3],
            julen: &[1, 0],
            joker: &[0, 1],
            ..NightSpec::default()
        }
        .build(),
        NightSpec {
            date: "2026-01-23",
            players: &["Anna", "Bernd", "Cem"],
            outs: &[1, 0, 0],
            hand: &[1, 0, 0],
            ..NightSpec::default()
        }
        .build(),
    ];
    season(season_json(
        2026,
        &[("Anna", None), ("Bernd", None), ("Cem", None)],
        nights,
    ))
}

/// (date, attended, night counted Outs, rounds, D.Wert (num, den), Liga, rank)
type Point = (&'static str, bool, i64, u32, (i64, i64), Liga, u32);
type OwnedPoint = (String, bool, i64, u32, (i64, i64), Liga, u32);

fn points(c: &PlayerCurve) -> Vec<OwnedPoint> {
    c.points
        .iter()
        .map(|p| {
            (
                p.date.to_string(),
                p.attended,
                p.night_counted_outs,
                p.rounds,
                (p.d_wert.num, p.d_wert.den),
                p.liga,
                p.rank,
            )
        })
        .collect()
}

#[test]
fn curves_night_by_night() {
    use Liga::{Kreisliga, Second};
    let c = season_curves(&three_nights());
    assert_eq!(c.season, 2026);
    assert_eq!(
        c.dates,
        vec![date("2026-01-09"), date("2026-01-16"), date("2026-01-23")]
    );
    // After night 3: Cem 6 in 20 (3,00), Anna 4 in 20 (2,00), Bernd 2 in 30 (0,67), all 2. Liga.
    let order: Vec<&str> = c.players.iter().map(|p| p.player.as_str()).collect();
    assert_eq!(order, vec!["Cem", "Anna", "Bernd"]);
    // (date, attended, night counted Outs, rounds, D.Wert num/den = counted × 10 / rounds, Liga, rank)
    let expected: [(&str, Vec<Point>); 3] = [
        (
            "Anna",
            vec![
                ("2026-01-09", true, 2, 10, (20, 10), Kreisliga, 1),
                // absent: 10 rounds, Kreisliga behind Cem's 6,00
                ("2026-01-16", false, 0, 10, (20, 10), Kreisliga, 2),
                ("2026-01-23", true, 2, 20, (40, 20), Second, 2),
            ],
        ),
        (
            "Bernd",
            vec![
                ("2026-01-09", true, 1, 10, (10, 10), Kreisliga, 2),
                // 0 Outs, but his third Jule makes one counted Out
                ("2026-01-16", true, 1, 20, (20, 20), Second, 1),
                ("2026-01-23", true, 0, 30, (20, 30), Second, 3),
            ],
        ),
        (
            "Cem",
            vec![
                ("2026-01-16", true, 6, 10, (60, 10), Kreisliga, 1),
                ("2026-01-23", true, 0, 20, (60, 20), Second, 1),
            ],
        ),
    ];
    for (player, want) in expected {
        let curve = c
            .players
            .iter()
            .find(|p| p.player == player)
            .expect("player");
        let want: Vec<_> = want
            .into_iter()
            .map(|(d, a, n, r, dw, l, k)| (d.to_string(), a, n, r, dw, l, k))
            .collect();
        assert_eq!(points(curve), want, "{player}");
        for p in &curve.points {
            assert_eq!(
                p.d_wert_f64,
                p.d_wert.num as f64 / p.d_wert.den as f64,
                "{player}"
            );
        }
    }
    let anna = player_curve(&three_nights(), "Anna").expect("Anna");
    assert_eq!(points(&anna).len(), 3);
    assert!(player_curve(&three_nights(), "Nobody").is_none());
}

#[test]
fn a_season_without_nights_has_no_curves() {
    let s = season(season_json(2026, &[("Anna", None)], vec![]));
    let c = season_curves(&s);
    assert!(c.dates.is_empty() && c.players.is_empty());
    assert!(player_curve(&s, "Anna").is_none());
}
