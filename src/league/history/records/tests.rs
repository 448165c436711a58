//! Unit tests of `src/league/records.rs`: a four-night season worked out by hand, ties, and the
//! season boundary of streaks.

use super::*;
use crate::league::testkit::{season, season_json, NightSpec};

/// Night of 10 rounds: per player Outs, Hand-Outs, Julen, Joker round (0 none), lost rounds.
struct N<'a> {
    date: &'a str,
    players: &'a [&'a str],
    outs: &'a [u32],
    hand: &'a [u32],
    julen: &'a [u32],
    joker: &'a [u32],
    lost: &'a [u32],
}

fn build(year: i32, players: &[&str], nights: &[N]) -> Season {
    let nights = nights
        .iter()
        .map(|n| {
            NightSpec {
                date: n.date,
                players: n.players,
                outs: n.outs,
                hand: n.hand,
                julen: n.julen,
                joker: n.joker,
                lost: n.lost,
                ..NightSpec::default()
            }
            .build()
        })
        .collect();
    let players: Vec<(&str, Option<&str>)> = players.iter().map(|&p| (p, None)).collect();
    season(season_json(year, &players, nights))
}

/// The season of the tests, with each night's counted Outs worked out by hand (league.md §2):
/// - 2 Jan, Anna/Bernd/Cem: Anna 3 Outs in round 1, one a Hand-Out: 2 + 2 = 4. Bernd 0. Cem 1 Out
///   and 4 Julen: 1 + floor(4/3) = 2. Lost 2/2/6 → paid 2, 2, 3.
/// - 9 Jan, Anna/Bernd: Anna 0; Bernd 3 Outs in round 1, his Joker-Runde: 3 × 2 = 6. Lost 3/7 →
///   paid 3, 3.
/// - 16 Jan, all three: Anna 2 Outs and 6 Julen: 2 + 2 = 4; Bernd 1 Hand-Out: 2; Cem 1 Out and 2
///   Julen (6 in all): 1 + (2 − 1) = 2. Lost 1/1/8 → paid 1, 1, 3.
/// - 23 Jan, Bernd/Cem: Bernd 1; Cem 3 Outs in his Joker-Runde: 6. Lost 7/3 → paid 3, 3.
fn four_nights() -> Season {
    build(
        2026,
        &["Anna", "Bernd", "Cem"],
        &[
            N {
                date: "2026-01-02",
                players: &["Anna", "Bernd", "Cem"],
                outs: &[3, 0, 1],
                hand: &[1, 0, 0],
                julen: &[0, 0, 4],
                joker: &[],
                lost: &[2, 2, 6],
            },
            N {
                date: "2026-01-09",
                players: &["Anna", "Bernd"],
                outs: &[0, 3],
                hand: &[],
                julen: &[],
                joker: &[0, 1],
                lost: &[3, 7],
            },
            N {
                date: "2026-01-16",
                players: &["Anna", "Bernd", "Cem"],
                outs: &[2, 1, 1],
                hand: &[0, 1, 0],
                julen: &[6, 0, 2],
                joker: &[],
                lost: &[1, 1, 8],
            },
            N {
                date: "2026-01-23",
                players: &["Bernd", "Cem"],
                outs: &[1, 3],
                hand: &[],
                julen: &[],
                joker: &[0, 1],
                lost: &[7, 3],
            },
        ],
    )
}

/// (season, date, until, table, round, player) of every holder.
type Holder<'a> = (
    i32,
    Option<&'a str>,
    Option<&'a str>,
    Option<u32>,
    Option<u32>,
    &'a str,
);

/// A [`Holder`] with owned strings.
type OwnedHolder = (
    i32,
    Option<String>,
    Option<String>,
    Option<u32>,
    Option<u32>,
    String,
);

fn holders(r: &Record) -> Vec<OwnedHolder> {
    r.holders
        .iter()
        .map(|h| {
            (
                h.season,
                h.date.map(|d| d.to_string()),
                h.until.map(|d| d.to_string()),
                h.table,
                h.round,
                h.player.clone(),
            )
        })
        .collect()
}

fn owned(v: &[Holder]) -> Vec<OwnedHolder> {
    v.iter()
        .map(|&(s, d, u, t, r, p)| {
            (
                s,
                d.map(str::to_string),
                u.map(str::to_string),
                t,
                r,
                p.to_string(),
            )
        })
        .collect()
}

/// A holder of a night record in 2026.
fn night(date: &'static str, player: &'static str) -> Holder<'static> {
    (2026, Some(date), None, None, None, player)
}

#[test]
fn season_records_by_hand() {
    let r = season_records(&four_nights());
    assert_eq!(r.season, Some(2026));
    let kinds: Vec<RecordKind> = r.records.iter().map(|r| r.kind).collect();
    assert_eq!(kinds, RecordKind::ALL.to_vec());
    // (kind, value, holders)
    let cases: Vec<(RecordKind, i64, Vec<Holder>)> = vec![
        // 6: Bernd's Joker-Runde on 9 Jan, Cem's on 23 Jan (tie)
        (
            RecordKind::CountedOutsNight,
            6,
            vec![night("2026-01-09", "Bernd"), night("2026-01-23", "Cem")],
        ),
        // the same two rounds, both table 1, round 1
        (
            RecordKind::CountedOutsRound,
            6,
            vec![
                (2026, Some("2026-01-09"), None, Some(1), Some(1), "Bernd"),
                (2026, Some("2026-01-23"), None, Some(1), Some(1), "Cem"),
            ],
        ),
        // one Hand-Out each: Anna on 2 Jan, Bernd on 16 Jan
        (
            RecordKind::HandOutsNight,
            1,
            vec![night("2026-01-02", "Anna"), night("2026-01-16", "Bernd")],
        ),
        // 6 Julen: Anna (6 on 16 Jan) and Cem (4 + 2)
        (
            RecordKind::JulenSeason,
            6,
            vec![
                (2026, None, None, None, None, "Anna"),
                (2026, None, None, None, None, "Cem"),
            ],
        ),
        // Bernd 9, 16, 23 Jan (0 Outs on 2 Jan). Cem's Outs on 2, 16 and 23 Jan are runs of 1
        // and 2: he missed 9 Jan, which breaks the run (issue 21.6; it used to count 3 across it).
        (
            RecordKind::OutStreak,
            3,
            vec![(
                2026,
                Some("2026-01-09"),
                Some("2026-01-23"),
                None,
                None,
                "Bernd",
            )],
        ),
        // Bernd played all four nights
        (
            RecordKind::AttendanceStreak,
            4,
            vec![(
                2026,
                Some("2026-01-02"),
                Some("2026-01-23"),
                None,
                None,
                "Bernd",
            )],
        ),
        // Most lost rounds: Cem's 8 on 16 Jan (issue 31.11: the paid rounds stop at the
        // Sozialfall's 3, so six players shared that "record" and it said nothing).
        (
            RecordKind::LostRoundsNight,
            8,
            vec![night("2026-01-16", "Cem")],
        ),
    ];
    for (kind, value, want) in cases {
        let rec = r.get(kind).expect("record");
        assert_eq!(rec.value, value, "{kind:?}");
        assert_eq!(holders(rec), owned(&want), "{kind:?}");
        assert_eq!(rec.label, kind.label());
    }
}

#[test]
fn a_record_of_zero_has_no_holders() {
    // One night without Outs, Hand-Outs or Julen.
    let s = build(
        2026,
        &["Anna", "Bernd"],
        &[N {
            date: "2026-03-06",
            players: &["Anna", "Bernd"],
            outs: &[],
            hand: &[],
            julen: &[],
            joker: &[],
            lost: &[],
        }],
    );
    let r = season_records(&s);
    for kind in [
        RecordKind::CountedOutsNight,
        RecordKind::CountedOutsRound,
        RecordKind::HandOutsNight,
        RecordKind::JulenSeason,
        RecordKind::OutStreak,
    ] {
        let rec = r.get(kind).expect("record");
        assert_eq!((rec.value, rec.holders.len()), (0, 0), "{kind:?}");
    }
    // both attended the one night; Bernd lost all 10 rounds and paid 3
    let att = r.get(RecordKind::AttendanceStreak).expect("record");
    assert_eq!((att.value, att.holders.len()), (1, 2));
    let lost = r.get(RecordKind::LostRoundsNight).expect("record");
    assert_eq!((lost.value, lost.holders.len()), (10, 1));
    assert_eq!(lost.holders[0].player, "Bernd");
    // a season without nights: all zero
    let empty = season(season_json(2026, &[("Anna", None)], vec![]));
    assert!(season_records(&empty)
        .records
        .iter()
        .all(|r| r.value == 0 && r.holders.is_empty()));
}

#[test]
fn all_time_records_collect_ties_across_seasons() {
    // 2025: Dora and Emil on four nights; Dora 3 Outs in her Joker-Runde on the first (6), Emil
    // loses every round (3 paid each night).
    let de = ["Dora", "Emil"];
    let n = |date| N {
        date,
        players: &de,
        outs: &[],
        hand: &[],
        julen: &[],
        joker: &[],
        lost: &[],
    };
    let s2025 = build(
        2025,
        &de,
        &[
            N {
                outs: &[3, 0],
                joker: &[1, 0],
                ..n("2025-02-06")
            },
            n("2025-02-13"),
            n("2025-02-20"),
            n("2025-02-27"),
        ],
    );
    let r = all_time_records(&[s2025, four_nights()]);
    assert_eq!(r.season, None);
    let night_rec = r.get(RecordKind::CountedOutsNight).expect("record");
    assert_eq!(night_rec.value, 6);
    assert_eq!(
        holders(night_rec),
        owned(&[
            (2025, Some("2025-02-06"), None, None, None, "Dora"),
            night("2026-01-09", "Bernd"),
            night("2026-01-23", "Cem"),
        ])
    );
    // attendance: Dora and Emil 4 in 2025, Bernd 4 in 2026
    let att = r.get(RecordKind::AttendanceStreak).expect("record");
    let who: Vec<(i32, &str)> = att
        .holders
        .iter()
        .map(|h| (h.season, h.player.as_str()))
        .collect();
    assert_eq!(
        (att.value, who),
        (4, vec![(2025, "Dora"), (2025, "Emil"), (2026, "Bernd")])
    );
    // Out streak: 2025's best is 1, so 2026's 3 stands alone (Bernd's; Cem's missed night
    // breaks his run, issue 21.6)
    let streak = r.get(RecordKind::OutStreak).expect("record");
    assert_eq!((streak.value, streak.holders.len()), (3, 1));
    // lost rounds: Emil lost all 10 on each of his 4 nights, 2026's best (8) does not count
    let lost = r.get(RecordKind::LostRoundsNight).expect("record");
    let who: Vec<(i32, &str)> = lost
        .holders
        .iter()
        .map(|h| (h.season, h.player.as_str()))
        .collect();
    assert_eq!((lost.value, who), (10, vec![(2025, "Emil"); 4]));
    // No record of paid rounds: under the Sozialfall (3 a night) it meant nothing.
    assert!(RecordKind::ALL
        .iter()
        .all(|k| !k.label().contains("bezahlte")));
}

#[test]
fn streaks_do_not_run_over_the_season_boundary() {
    // Anna throws an Out at the last two nights of 2025 and the first two of 2026: two runs of 2,
    // not one of 4 (streaks stay inside a season).
    let ab = ["Anna", "Bernd"];
    let n = |date| N {
        date,
        players: &ab,
        outs: &[1, 0],
        hand: &[],
        julen: &[],
        joker: &[],
        lost: &[],
    };
    let s2025 = build(2025, &ab, &[n("2025-12-05"), n("2025-12-12")]);
    let s2026 = build(2026, &ab, &[n("2026-01-09"), n("2026-01-16")]);
    let r = all_time_records(&[s2025, s2026]);
    let streak = r.get(RecordKind::OutStreak).expect("record");
    assert_eq!(
        holders(streak),
        owned(&[
            (
                2025,
                Some("2025-12-05"),
                Some("2025-12-12"),
                None,
                None,
                "Anna"
            ),
            (
                2026,
                Some("2026-01-09"),
                Some("2026-01-16"),
                None,
                None,
                "Anna"
            ),
        ])
    );
    assert_eq!(streak.value, 2);
    let att = r.get(RecordKind::AttendanceStreak).expect("record");
    assert_eq!((att.value, att.holders.len()), (2, 4));
}

#[test]
fn an_out_streak_breaks_on_a_night_without_out() {
    // Anna: Out, Out, none, Out, Out, Out → runs 2 and 3.
    let ab = ["Anna", "Bernd"];
    let dates = [
        "2026-02-06",
        "2026-02-13",
        "2026-02-20",
        "2026-02-27",
        "2026-03-06",
        "2026-03-13",
    ];
    let nights: Vec<N> = dates
        .iter()
        .enumerate()
        .map(|(i, d)| N {
            date: d,
            players: &ab,
            outs: if i == 2 { &[0, 0] } else { &[1, 0] },
            hand: &[],
            julen: &[],
            joker: &[],
            lost: &[],
        })
        .collect();
    let r = season_records(&build(2026, &ab, &nights));
    let streak = r.get(RecordKind::OutStreak).expect("record");
    assert_eq!(
        holders(streak),
        owned(&[(
            2026,
            Some("2026-02-27"),
            Some("2026-03-13"),
            None,
            None,
            "Anna"
        )])
    );
    assert_eq!(streak.value, 3);
}

#[test]
fn an_out_streak_breaks_on_a_night_the_player_missed() {
    // Issue 21.6: Anna throws an Out at nights 1, 2, 4 and 5 and misses night 3 (Bernd and Cem
    // play it): runs of 2 and 2, not one of 4 over the night she missed. Bernd is at every night
    // with an Out: his run of 5 is the record, counted like "in Folge dabei".
    let dates = [
        "2026-02-06",
        "2026-02-13",
        "2026-02-20",
        "2026-02-27",
        "2026-03-06",
    ];
    let abc = ["Anna", "Bernd", "Cem"];
    let bc = ["Bernd", "Cem"];
    let nights: Vec<N> = dates
        .iter()
        .enumerate()
        .map(|(i, d)| N {
            date: d,
            players: if i == 2 { &bc } else { &abc },
            outs: if i == 2 { &[1, 0] } else { &[1, 1, 0] },
            hand: &[],
            julen: &[],
            joker: &[],
            lost: &[],
        })
        .collect();
    let r = season_records(&build(2026, &abc, &nights));
    let streak = r.get(RecordKind::OutStreak).expect("record");
    assert_eq!(
        (streak.value, holders(streak)),
        (
            5,
            owned(&[(
                2026,
                Some("2026-02-06"),
                Some("2026-03-06"),
                None,
                None,
                "Bernd"
            )])
        )
    );
    // Without Bernd's run, Anna's best is 2 (not 4 across the night she missed).
    let without_bernd: Vec<N> = dates
        .iter()
        .enumerate()
        .map(|(i, d)| N {
            date: d,
            players: if i == 2 { &bc } else { &abc },
            outs: if i == 2 { &[0, 0] } else { &[1, 0, 0] },
            hand: &[],
            julen: &[],
            joker: &[],
            lost: &[],
        })
        .collect();
    let r = season_records(&build(2026, &abc, &without_bernd));
    let streak = r.get(RecordKind::OutStreak).expect("record");
    assert_eq!((streak.value, streak.holders.len()), (2, 2));
    assert!(streak.holders.iter().all(|h| h.player == "Anna"));
}
