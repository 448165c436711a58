//! Unit tests of the history room as a whole: a season kept as totals or as its Endstand in every
//! view of the history (moved from the tests of `sheet/totals.rs`: they read careers, curves,
//! records and the Ehrentafel).

use crate::league::history::career::{all_time_table, careers, ehrentafel};
use crate::league::history::curves::season_curves;
use crate::league::history::records::{season_records, RecordKind};
use crate::league::model::season::Season;
use crate::league::money::payouts::payouts;
use crate::league::sheet::totals::as_totals;
use crate::league::table::nights::{night_summary, player_history};
use crate::league::table::standings::standings;
use crate::league::testkit::{endstand_file, rounds_season, season, totals_night};

fn converted(s: &Season) -> Season {
    Season::from_file(&as_totals(s)).unwrap_or_else(|e| panic!("converted season refused: {e}"))
}

#[test]
fn a_season_as_totals_counts_exactly_as_its_rounds() {
    for year in [2005, 2010, 2026] {
        let s = rounds_season(year);
        let t = converted(&s);
        assert!(t
            .nights
            .iter()
            .all(|n| n.recorded_as_totals() && n.tables.is_empty()));
        assert_eq!(standings(&t, None), standings(&s, None), "{year}");
        for n in &s.nights {
            assert_eq!(
                standings(&t, Some(n.date)),
                standings(&s, Some(n.date)),
                "{year}"
            );
        }
        assert_eq!(payouts(&t, 250), payouts(&s, 250), "{year}");
        assert_eq!(season_curves(&t), season_curves(&s), "{year}");
        let c = |x: &Season| careers(std::slice::from_ref(x), &[payouts(x, 0)]);
        assert_eq!(c(&t), c(&s), "{year}");
        assert_eq!(
            all_time_table(std::slice::from_ref(&t), 1),
            all_time_table(std::slice::from_ref(&s), 1)
        );
        assert_eq!(
            ehrentafel(std::slice::from_ref(&t), &[payouts(&t, 0)]),
            ehrentafel(std::slice::from_ref(&s), &[payouts(&s, 0)])
        );
        // A player's nights: the same figures, without round lines.
        for p in ["Anna", "Bernd", "Carla"] {
            let (a, b) = (
                player_history(&t, p).unwrap(),
                player_history(&s, p).unwrap(),
            );
            assert_eq!(a.open_julen, b.open_julen);
            for (x, y) in a.nights.iter().zip(&b.nights) {
                assert!(x.recorded_as_totals && x.rounds.is_empty() && !y.recorded_as_totals);
                assert_eq!(x.rounds_played, y.rounds_played);
                let strip = |n: &crate::league::table::nights::PlayerNight| {
                    let mut n = n.clone();
                    n.rounds.clear();
                    n.recorded_as_totals = false;
                    n
                };
                assert_eq!(strip(x), strip(y), "{year} {p}");
            }
        }
    }
}

#[test]
fn a_night_of_totals_has_no_round_figures() {
    let s = season(totals_night());
    let n = &s.nights[0];
    assert!(n.recorded_as_totals());
    assert_eq!(s.totals_nights(), vec![n.date]);
    let summary = night_summary(&s, n.date).unwrap();
    assert!(summary.recorded_as_totals);
    assert_eq!(summary.tables.len(), 1);
    assert_eq!(summary.tables[0].rounds_played, 10);
    assert!(summary.tables[0].rounds.is_empty());
    assert_eq!(summary.tables[0].players, ["Anna", "Bernd", "Carla"]);
    let anna = summary.players.iter().find(|p| p.player == "Anna").unwrap();
    // 8 points + 0 Julen-Outs (1 Jule open); 3 lost = 3 paid, a Sozialfall.
    assert_eq!(
        (anna.counted_outs, anna.paid_rounds, anna.sozialfall),
        (8, 3, true)
    );
    assert_eq!(anna.joker_round, None);
    let records = season_records(&s);
    let round = records.get(RecordKind::CountedOutsRound).unwrap();
    assert!(RecordKind::CountedOutsRound.needs_rounds());
    assert_eq!((round.value, round.nights_not_available), (0, 1));
    let night = records.get(RecordKind::CountedOutsNight).unwrap();
    assert_eq!((night.value, night.nights_not_available), (8, 0));
    // Bernd lost 7 of 10: he paid 3 (Sozialfall), the Lucky Looser ties Anna and Bernd.
    let p = payouts(&s, 0);
    assert_eq!(p.lucky_looser.players, ["Anna", "Bernd"]);
    assert_eq!(p.lucky_looser.paid_rounds, 3);
}

#[test]
fn an_endstand_is_the_table_and_counts_in_careers_and_the_ehrentafel() {
    let old = season(endstand_file());
    assert!(old.is_endstand() && old.nights.is_empty());
    let table = standings(&old, None);
    assert_eq!(table.as_of, None);
    let lines: Vec<(&str, crate::league::model::rules::Liga, u32)> = table
        .rows
        .iter()
        .map(|r| (r.player.as_str(), r.liga, r.rank))
        .collect();
    use crate::league::model::rules::Liga::*;
    // Bernd 90 in 150 = 6,00 ahead of Anna 120 in 200 = 6,00? Equal D.Wert: more rounds first.
    assert_eq!(
        lines,
        [
            ("Anna", First, 1),
            ("Bernd", First, 2),
            ("Carla", Second, 1),
            ("Dirk", Kreisliga, 1)
        ]
    );
    let anna = &table.rows[0];
    assert_eq!(
        (anna.julen_outs, anna.open_julen, anna.lost_rounds),
        (10, 1, 25)
    );
    assert_eq!(table.rows[1].lost_rounds, 14, "lost defaults to paid");
    // The Lucky Looser from the paid rounds; no money was kept (no fees): 0 cents, carry passes.
    let p = payouts(&old, 500);
    assert_eq!(p.lucky_looser.players, ["Anna"]);
    assert_eq!(p.schocker_des_jahres, ["Anna"]);
    assert!(
        p.places.is_empty(),
        "no money is known of an Endstand season"
    );
    assert_eq!((p.pot_cents, p.carry_out_cents), (500, 500));

    let new = rounds_season(2026);
    let seasons = [old.clone(), new.clone()];
    let pays = [payouts(&old, 0), payouts(&new, 0)];
    let anna = careers(&seasons, &pays)
        .into_iter()
        .find(|c| c.player == "Anna")
        .unwrap();
    assert_eq!(
        anna.seasons.iter().map(|s| s.season).collect::<Vec<_>>(),
        [2004, 2026]
    );
    assert_eq!(anna.totals.rounds, 200 + 17);
    let all = all_time_table(&seasons, 100);
    assert!(all.iter().any(|r| r.player == "Anna" && r.seasons == 2));
    let honours = ehrentafel(&seasons, &pays);
    assert_eq!(honours[0].season, 2004);
    assert_eq!(honours[0].schocker_des_jahres[0].player, "Anna");
    // The file round trip: lost_rounds written only where it is not the paid rounds.
    let again = Season::from_file(&old.to_file()).unwrap();
    assert_eq!(again, old);
    assert_eq!(old.to_file().endstand[0].lost_rounds, None);
    assert_eq!(old.to_file().endstand[1].lost_rounds, Some(25));
}
