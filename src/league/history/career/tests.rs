//! Unit tests of `src/league/career.rs`: a two-season league worked out by hand (tables, payouts
//! with the carry, careers, all-time table, Ehrentafel) and the all-time D.Wert and tie rules.

use super::*;
use crate::league::money::kasse::chain;
use crate::league::money::payouts::payouts_as_of;
use crate::league::testkit::{november, season, season_json, NightSpec};

/// Two January nights of 10 rounds with the same players and per-night Outs, Hand-Outs, Julen and
/// lost rounds (see `NightSpec`).
fn two_nights(
    year: i32,
    players: &[(&str, Option<&str>)],
    nights: [(&[u32], &[u32], &[u32]); 2],
    lost: &[u32],
) -> Season {
    let names: Vec<&str> = players.iter().map(|p| p.0).collect();
    let dates = [format!("{year}-01-09"), format!("{year}-01-16")];
    let nights = nights
        .iter()
        .zip(&dates)
        .map(|(&(outs, hand, julen), d)| {
            NightSpec {
                date: d,
                players: &names,
                outs,
                hand,
                julen,
                lost,
                ..NightSpec::default()
            }
            .build()
        })
        .collect();
    season(season_json(year, players, nights))
}

/// 2025: Anna 3+3 Outs, Bernd 2+1, cem 4+4 (unpaid); per night Anna loses 1 round, Bernd 2, cem
/// the other 7 (pays 3: Sozialfall). 2026: Anna 1+1 with a Hand-Out (3 counted), Bernd 5+5
/// (unpaid), Cem 3+3, Dora 2+2 and 3 Julen (5 counted); Dora loses every round.
fn two_seasons() -> Vec<Season> {
    let jan = Some("2025-01-02");
    let s2025 = two_nights(
        2025,
        &[("Anna", jan), ("Bernd", jan), ("cem", None)],
        [(&[3, 2, 4], &[], &[]), (&[3, 1, 4], &[], &[])],
        &[1, 2, 0],
    );
    let jan = Some("2026-01-02");
    let s2026 = two_nights(
        2026,
        &[
            ("Anna", jan),
            ("Bernd", None),
            ("Cem", Some("2026-01-05")),
            ("Dora", jan),
        ],
        [
            (&[1, 5, 3, 2], &[1, 0, 0, 0], &[0, 0, 0, 3]),
            (&[1, 5, 3, 2], &[], &[]),
        ],
        &[0, 0, 0, 10],
    );
    vec![s2025, s2026]
}

#[test]
fn payouts_of_the_two_seasons_by_hand() {
    // Checks the fixture against league.md §8 before the career tests rely on it.
    // 2025: fees 3000, lucky 1000 (cem), pot 2000: Anna 30 % = 600, Bernd 25 % = 500, carry 900.
    // 2026: fees 4500, lucky 1000 (Dora), pot 4500 − 1000 + 900 = 4400: Cem 30 % = 1320,
    // Dora 25 % = 1100, Anna 20 % = 880, carry 1100.
    let p = chain(&two_seasons());
    let got: Vec<(i32, i64, Vec<String>, i64)> = p
        .iter()
        .map(|p| {
            (
                p.season,
                p.pot_cents,
                p.lucky_looser.players.clone(),
                p.carry_out_cents,
            )
        })
        .collect();
    assert_eq!(
        got,
        vec![
            (2025, 2000, vec!["cem".to_string()], 900),
            (2026, 4400, vec!["Dora".to_string()], 1100),
        ]
    );
}

#[test]
fn careers_over_two_seasons() {
    let seasons = two_seasons();
    let payouts = chain(&seasons);
    let c = careers(&seasons, &payouts);
    // cem (2025) and Cem (2026) are one player, shown as Cem.
    let names: Vec<&str> = c.iter().map(|c| c.player.as_str()).collect();
    assert_eq!(names, vec!["Anna", "Bernd", "Cem", "Dora"]);
    // ((player, season, Liga, rank, rounds, counted, D.Wert num/den),
    //  (thrown, hand, julen, paid, place cents, lucky cents))
    type Line<'a> = (
        (&'a str, i32, Liga, u32, u32, i64, (i64, i64)),
        (u32, u32, u32, u32, i64, i64),
    );
    use Liga::{First, Second};
    let expected: Vec<Line<'static>> = vec![
        (
            ("Anna", 2025, First, 1, 20, 6, (60, 20)),
            (6, 0, 0, 2, 600, 0),
        ),
        (
            ("Anna", 2026, First, 3, 20, 3, (30, 20)),
            (2, 1, 0, 0, 880, 0),
        ),
        (
            ("Bernd", 2025, First, 2, 20, 3, (30, 20)),
            (3, 0, 0, 4, 500, 0),
        ),
        (
            ("Bernd", 2026, Second, 1, 20, 10, (100, 20)),
            (10, 0, 0, 0, 0, 0),
        ),
        (
            ("Cem", 2025, Second, 1, 20, 8, (80, 20)),
            (8, 0, 0, 6, 0, 1000),
        ),
        (
            ("Cem", 2026, First, 1, 20, 6, (60, 20)),
            (6, 0, 0, 0, 1320, 0),
        ),
        (
            ("Dora", 2026, First, 2, 20, 5, (50, 20)),
            (4, 0, 3, 6, 1100, 1000),
        ),
    ];
    let got: Vec<Line> = c
        .iter()
        .flat_map(|c| {
            c.seasons.iter().map(move |s| {
                (
                    (
                        c.player.as_str(),
                        s.season,
                        s.liga,
                        s.rank,
                        s.rounds,
                        s.counted_outs,
                        (s.d_wert_exact.num, s.d_wert_exact.den),
                    ),
                    (
                        s.thrown_outs,
                        s.hand_outs,
                        s.julen,
                        s.paid_rounds,
                        s.place_cents,
                        s.lucky_looser_cents,
                    ),
                )
            })
        })
        .collect();
    assert_eq!(got, expected);
    for s in c.iter().flat_map(|c| &c.seasons) {
        assert_eq!(s.payout_cents, s.place_cents + s.lucky_looser_cents);
    }
    // totals: (seasons, rounds, counted, D.Wert num/den, paid rounds, payout cents)
    type Totals = (u32, u32, i64, (i64, i64), u32, i64);
    let totals: Vec<Totals> = c
        .iter()
        .map(|c| {
            let t = &c.totals;
            let d = (t.d_wert_exact.num, t.d_wert_exact.den);
            (
                t.seasons,
                t.rounds,
                t.counted_outs,
                d,
                t.paid_rounds,
                t.payout_cents,
            )
        })
        .collect();
    assert_eq!(
        totals,
        vec![
            (2, 40, 9, (90, 40), 2, 1480),
            (2, 40, 13, (130, 40), 4, 500),
            (2, 40, 14, (140, 40), 6, 2320),
            (1, 20, 5, (50, 20), 6, 2100),
        ]
    );
    assert_eq!(c[0].totals.d_wert, 2.25);
    // one career by name, any case
    let cem = career(&seasons, &payouts, "CEM").expect("Cem");
    assert_eq!((cem.player.as_str(), cem.seasons.len()), ("Cem", 2));
    assert!(career(&seasons, &payouts, "Emil").is_none());
    // without payouts every season counts 0 cents
    let dry = careers(&seasons, &[]);
    assert!(dry.iter().all(|c| c.totals.payout_cents == 0));
}

#[test]
fn all_time_table_over_two_seasons() {
    let seasons = two_seasons();
    // Cem 14 in 40 = 3,50, Bernd 13 in 40 = 3,25, Anna 9 in 40 = 2,25; Dora has 20 rounds.
    // (min rounds, [(rank, player, rounds, counted, seasons)])
    type Row<'a> = (u32, &'a str, u32, i64, u32);
    let cases: Vec<(u32, Vec<Row>)> = vec![
        (ALL_TIME_MIN_ROUNDS, vec![]),
        (41, vec![]),
        (
            40,
            vec![
                (1, "Cem", 40, 14, 2),
                (2, "Bernd", 40, 13, 2),
                (3, "Anna", 40, 9, 2),
            ],
        ),
        (
            20,
            vec![
                (1, "Cem", 40, 14, 2),
                (2, "Bernd", 40, 13, 2),
                (3, "Dora", 20, 5, 1), // 2,50
                (4, "Anna", 40, 9, 2),
            ],
        ),
    ];
    for (min, expected) in cases {
        let table = all_time_table(&seasons, min);
        let got: Vec<Row> = table
            .iter()
            .map(|r| {
                (
                    r.rank,
                    r.player.as_str(),
                    r.rounds,
                    r.counted_outs,
                    r.seasons,
                )
            })
            .collect();
        assert_eq!(got, expected, "min {min}");
    }
}

#[test]
fn all_time_table_ties_share_the_rank() {
    // One season: Anna 2 in 20, Bea 2 in 20, Cem 3 in 30 (all 1,00), Dora 1 in 30 (0,33).
    // D.Wert equal: Cem has more rounds → 1; Anna and Bea equal in both → 2, 2; Dora 4.
    let s2026 = season(season_json(
        2026,
        &[("Anna", None), ("Bea", None), ("Cem", None), ("Dora", None)],
        vec![
            NightSpec {
                date: "2026-01-09",
                players: &["Anna", "Bea", "Cem", "Dora"],
                outs: &[1, 1, 1, 1],
                ..NightSpec::default()
            }
            .build(),
            NightSpec {
                date: "2026-01-16",
                players: &["Anna", "Bea", "Cem", "Dora"],
                outs: &[1, 1, 1, 0],
                ..NightSpec::default()
            }
            .build(),
            NightSpec {
                date: "2026-01-23",
                players: &["Cem", "Dora"],
                outs: &[1, 0],
                ..NightSpec::default()
            }
            .build(),
        ],
    ));
    let got: Vec<(u32, String)> = all_time_table(&[s2026], 20)
        .into_iter()
        .map(|r| (r.rank, r.player))
        .collect();
    let want: Vec<(u32, String)> = [(1, "Cem"), (2, "Anna"), (2, "Bea"), (4, "Dora")]
        .iter()
        .map(|&(r, p)| (r, p.to_string()))
        .collect();
    assert_eq!(got, want);
}

#[test]
fn all_time_d_wert_table() {
    // (seasons (counted, rounds, rounds_per_night), exact D.Wert num/den), by hand
    type Parts = Vec<(i64, u32, u32)>;
    let cases: Vec<(Parts, Option<(i64, i64)>)> = vec![
        (vec![], None),
        (vec![(3, 0, 10)], None),
        // the club check: 18 Outs in 30 rounds = 6,00
        (vec![(18, 30, 10)], Some((180, 30))),
        // two seasons of 10 rounds a night: (6 + 3) × 10 / (20 + 20)
        (vec![(6, 20, 10), (3, 20, 10)], Some((90, 40))),
        // a season with 5 rounds per night: Teilnahmen 20/10 + 10/5 = 4, counted 8 → 2,00
        // as (8 × 10) / (20 + 10 × 2) = 80/40
        (vec![(4, 20, 10), (4, 10, 5)], Some((80, 40))),
        // a season without rounds adds nothing
        (vec![(6, 20, 10), (0, 0, 7)], Some((60, 20))),
    ];
    for (parts, expected) in cases {
        let got = all_time_d_wert(&parts).map(|d| (d.num, d.den));
        assert_eq!(got, expected, "{parts:?}");
    }
}

#[test]
fn ehrentafel_of_two_seasons() {
    let seasons = two_seasons();
    let payouts = chain(&seasons);
    let e = ehrentafel(&seasons, &payouts);
    let years: Vec<i32> = e.iter().map(|y| y.season).collect();
    assert_eq!(years, vec![2025, 2026]);
    // 2025: Anna 6 in 20 = 3,00; Lucky Looser cem (6 paid rounds) 10 €; Anna 600, Bernd 500.
    let y = &e[0];
    let schocker: Vec<(&str, i64, u32, f64)> = y
        .schocker_des_jahres
        .iter()
        .map(|h| (h.player.as_str(), h.counted_outs, h.rounds, h.d_wert))
        .collect();
    assert_eq!(schocker, vec![("Anna", 6, 20, 3.0)]);
    assert_eq!(
        y.lucky_looser,
        vec![LuckyLooserShare {
            player: "cem".into(),
            paid_rounds: 6,
            cents: 1000
        }]
    );
    let places: Vec<(u32, &str, f64, i64)> = y
        .places
        .iter()
        .map(|p| (p.place, p.player.as_str(), p.percent, p.cents))
        .collect();
    assert_eq!(
        places,
        vec![(1, "Anna", 30.0, 600), (2, "Bernd", 25.0, 500)]
    );
    // 2026: Cem 6 in 20; Dora Lucky Looser; Cem 1320, Dora 1100, Anna 880.
    let y = &e[1];
    assert_eq!(y.schocker_des_jahres[0].player, "Cem");
    assert_eq!(y.lucky_looser[0].player, "Dora");
    let places: Vec<(u32, &str, i64)> = y
        .places
        .iter()
        .map(|p| (p.place, p.player.as_str(), p.cents))
        .collect();
    assert_eq!(
        places,
        vec![(1, "Cem", 1320), (2, "Dora", 1100), (3, "Anna", 880)]
    );
    // without payouts: only the Schocker des Jahres
    let e = ehrentafel(&seasons, &[]);
    assert!(e
        .iter()
        .all(|y| y.places.is_empty() && y.lucky_looser.is_empty()));
    assert_eq!(e[1].schocker_des_jahres[0].player, "Cem");
}

#[test]
fn ehrentafel_lists_tied_schocker_and_skips_empty_seasons() {
    let jan = Some("2026-01-02");
    let s = two_nights(
        2026,
        &[("Anna", jan), ("Bea", jan), ("Cem", jan)],
        [(&[2, 2, 1], &[], &[]), (&[2, 2, 1], &[], &[])],
        &[],
    );
    let empty = season(season_json(2027, &[("Anna", None)], vec![]));
    let seasons = vec![empty, s];
    let e = ehrentafel(&seasons, &chain(&seasons));
    assert_eq!(e.len(), 1);
    let names: Vec<&str> = e[0]
        .schocker_des_jahres
        .iter()
        .map(|h| h.player.as_str())
        .collect();
    assert_eq!(names, vec!["Anna", "Bea"]);
    // pot 4500 − 1000 = 3500: (30 + 25) / 2 = 27,5 % = 962,5 each → 963 Anna (name), 962 Bea
    let places: Vec<(u32, &str, i64)> = e[0]
        .places
        .iter()
        .map(|p| (p.place, p.player.as_str(), p.cents))
        .collect();
    assert_eq!(
        places,
        vec![(1, "Anna", 963), (1, "Bea", 962), (3, "Cem", 700)]
    );
}

/// The Ehrentafel and the payouts read on the club's today (issue 22.3): with the rounds of
/// 04.12. entered on 20.11., the as-of date capped to today keeps both in the 1. Liga (moved here
/// from the table's `the_as_of_date_is_never_after_the_clubs_today`).
#[test]
fn the_ehrentafel_on_the_clubs_today_is_that_before_the_deadline() {
    let s = november(true);
    let today: NaiveDate = "2026-11-20".parse().expect("test date");
    let p = payouts_as_of(&s, 0, s.capped_as_of(None, today));
    assert_eq!(p.schocker_des_jahres, ["Anna"]);
    assert!(!p.places.is_empty());
    let e = ehrentafel_on(std::slice::from_ref(&s), &[p], Some(today));
    assert_eq!(e[0].schocker_des_jahres[0].player, "Anna");
    // Without today (after every night): nobody in the 1. Liga, as the rules say after 30.11.
    let e = ehrentafel(std::slice::from_ref(&s), &[]);
    assert!(e[0].schocker_des_jahres.is_empty());
}
