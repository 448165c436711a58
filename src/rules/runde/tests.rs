//! Unit tests of `src/rules/runde.rs` (a plain `mod tests;` beside it, so the module reads as the code alone).

use super::*;

#[test]
fn runde_player_bounds() {
    let names = |n: usize| (0..n).map(|i| format!("P{i}")).collect::<Vec<_>>();
    // (players, accepted)
    let cases = [
        (names(2), true),
        (names(crate::rules::MAX_PLAYERS), true),
        (names(crate::rules::MAX_PLAYERS + 1), false),
        (vec!["A".into(), "y".repeat(61)], false),
        (vec!["A".into(), "A".into()], false),
    ];
    for (players, ok) in cases {
        let n = players.len();
        assert_eq!(
            RundeState::new(players, RuleSet::default()).is_ok(),
            ok,
            "{n} players"
        );
    }
}

fn t(p: &str, dice: [u8; 3], wuerfe: u8) -> ThrowInput {
    ThrowInput::from_dice(p, dice, wuerfe, wuerfe == 1)
}

fn names(v: &[&str]) -> Vec<String> {
    v.iter().map(|s| s.to_string()).collect()
}

#[test]
fn max_outs_table() {
    let r = RuleSet::default();
    for (finale, want) in [(Some(false), 2), (Some(true), 3), (None, 3)] {
        assert_eq!(max_outs_per_round(&r, finale), want);
    }
}

#[test]
fn new_refuses_bad_tables() {
    let r = RuleSet::default();
    assert!(RundeState::new(names(&["A"]), r.clone()).is_err());
    assert!(RundeState::new(names(&["A", "A"]), r.clone()).is_err());
    assert!(RundeState::new(names(&["A", " "]), r).is_err());
}

#[test]
fn a_runde_where_one_player_loses_both_halves_by_schock_out() {
    let mut s = RundeState::new(names(&["A", "B", "C"]), RuleSet::default()).unwrap();
    assert!(s.is_auswuerfeln());
    assert_eq!(s.next_throwers(), vec!["A", "B", "C"]);
    // Auswürfeln with a Schock Out: B loses Hälfte 1 at once.
    let o = s
        .apply(vec![
            t("A", [1, 1, 1], 1),
            t("B", [2, 2, 1], 1),
            t("C", [6, 5, 3], 1),
        ])
        .unwrap();
    assert_eq!(o.part, Part::Half1);
    assert!(o.auswuerfeln && o.evaluation.ends_half);
    assert_eq!(o.part_loser.as_deref(), Some("B"));
    assert_eq!(s.part(), Some(Part::Half2));
    assert_eq!(s.half_losers(), vec!["B"]);
    assert_eq!(s.next_throwers(), vec!["B", "C", "A"]);
    assert_eq!(s.stock(), 13);
    // Hälfte 2: Auswürfeln, then a normal Wurfrunde with 3 Würfe.
    let o = s
        .apply(vec![
            t("B", [6, 4, 2], 1),
            t("C", [5, 4, 2], 1),
            t("A", [1, 1, 3], 1),
        ])
        .unwrap();
    assert_eq!(o.evaluation.lowest, "C");
    assert_eq!(o.transfer, Transfer::Stock(3));
    assert_eq!(s.stock(), 10);
    assert_eq!(s.vorleger(), Some("C"));
    // more Würfe in the Auswürfeln are gone; now C sets 2 Würfe
    let err = s
        .apply(vec![
            t("A", [1, 1, 1], 1),
            t("B", [2, 2, 1], 1),
            t("C", [6, 5, 3], 1),
        ])
        .unwrap_err();
    assert!(err.to_string().contains("als 1. wirft C"), "{err}");
    let err = s
        .apply(vec![
            t("C", [6, 4, 2], 2),
            t("A", [5, 4, 2], 3),
            t("B", [1, 1, 1], 1),
        ])
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        "Spieler A, Wurf 3: mehr Würfe als der Vorleger (2)"
    );
    let o = s
        .apply(vec![
            t("C", [6, 4, 2], 2),
            t("A", [1, 1, 1], 2),
            t("B", [3, 2, 2], 1),
        ])
        .unwrap();
    assert_eq!(o.part_loser.as_deref(), Some("B"));
    assert_eq!(o.runde_loser.as_deref(), Some("B"));
    assert!(s.is_finished());
    assert_eq!(s.loser(), Some("B"));
    assert_eq!(s.part(), None);
    let tallies = s.tallies();
    assert_eq!(
        tallies
            .iter()
            .map(|x| (x.player.as_str(), x.outs, x.hand_outs, x.julen, x.lost))
            .collect::<Vec<_>>(),
        vec![
            ("A", 2, 1, 0, false),
            ("B", 0, 0, 0, true),
            ("C", 0, 0, 0, false)
        ]
    );
    assert!(s.apply(vec![]).unwrap_err().to_string().contains("beendet"));
}

#[test]
fn finale_players_out_and_deckel_from_h() {
    let mut s = RundeState::new(names(&["A", "B", "C"]), RuleSet::default()).unwrap();
    // Hälfte 1 lost by A (Schock Out), Hälfte 2 by C: Finale A vs C, begun by C.
    s.apply(vec![
        t("A", [2, 2, 1], 1),
        t("B", [1, 1, 1], 1),
        t("C", [6, 5, 3], 1),
    ])
    .unwrap();
    s.apply(vec![
        t("A", [4, 2, 1], 1),
        t("B", [1, 1, 1], 1),
        t("C", [6, 5, 3], 1),
    ])
    .unwrap();
    assert_eq!(s.part(), Some(Part::Finale));
    assert_eq!(s.half_losers(), vec!["A", "C"]);
    assert_eq!(s.part_players(), vec!["A", "C"]);
    assert_eq!(s.next_throwers(), vec!["C", "A"]);
    assert!(s.is_auswuerfeln());
    let err = s
        .apply(vec![t("C", [2, 2, 1], 1), t("B", [1, 1, 1], 1)])
        .unwrap_err();
    assert!(
        err.to_string().contains("spielt diesen Teil nicht"),
        "{err}"
    );
    // Finale: Jule (7) from the stock to C, then Schock 6 (6) empties the stock onto C (6 of 6).
    s.apply(vec![t("C", [2, 2, 1], 1), t("A", [4, 2, 1], 1)])
        .unwrap();
    assert_eq!(s.deckel(), vec![("A", 0), ("B", 0), ("C", 7)]);
    let o = s
        .apply(vec![t("C", [3, 2, 2], 1), t("A", [1, 1, 6], 1)])
        .unwrap();
    assert_eq!(o.transfer, Transfer::Stock(6));
    // Stock empty, A has no Deckel: A is out, C holds all 13 and loses the Finale and the Runde.
    assert_eq!(o.part_loser.as_deref(), Some("C"));
    assert_eq!(o.runde_loser.as_deref(), Some("C"));
    assert_eq!(s.loser(), Some("C"));
    let tallies = s.tallies();
    assert!(tallies[0].played_finale && !tallies[1].played_finale && tallies[2].played_finale);
    assert_eq!(tallies[0].julen, 2);
    assert_eq!(tallies[1].outs, 2);
    assert_eq!(tallies[1].hand_outs, 2);
}

#[test]
fn players_without_deckel_drop_out_and_h_pays_from_his_own() {
    let mut s = RundeState::new(names(&["A", "B", "C"]), RuleSet::default()).unwrap();
    // Auswürfeln: General 6 from the hand → C takes 3 (stock 10)
    s.apply(vec![
        t("A", [6, 6, 6], 1),
        t("B", [5, 4, 2], 1),
        t("C", [3, 2, 2], 1),
    ])
    .unwrap();
    // C begins; Jule (7) from B → A takes 7 (stock 3)
    s.apply(vec![
        t("C", [6, 4, 2], 1),
        t("A", [3, 2, 2], 1),
        t("B", [4, 2, 1], 1),
    ])
    .unwrap();
    // A begins; Schock 5 by C → B takes the last 3 from the stock; nobody is out (all hold Deckel)
    let o = s
        .apply(vec![
            t("A", [6, 4, 2], 1),
            t("B", [3, 2, 2], 1),
            t("C", [1, 1, 5], 1),
        ])
        .unwrap();
    assert_eq!(o.transfer, Transfer::Stock(3));
    assert!(o.newly_out.is_empty());
    assert_eq!(s.deckel(), vec![("A", 7), ("B", 3), ("C", 3)]);
    // B begins; Schock 4 by C → A takes min(4, C's 3) = 3 from C; C is out
    let o = s
        .apply(vec![
            t("B", [6, 4, 2], 1),
            t("C", [1, 1, 4], 1),
            t("A", [3, 2, 2], 1),
        ])
        .unwrap();
    assert_eq!(o.transfer, Transfer::Player(3));
    assert_eq!(o.newly_out, vec!["C".to_string()]);
    assert_eq!(s.out_players(), vec!["C"]);
    assert_eq!(s.next_throwers(), vec!["A", "B"]);
    // A begins; B's Straße (2) from A: A 8→... no: H=B, L=A takes 2 from B
    let o = s
        .apply(vec![t("A", [6, 4, 2], 1), t("B", [4, 5, 6], 1)])
        .unwrap();
    assert_eq!(o.evaluation.lowest, "A");
    assert_eq!(o.transfer, Transfer::Player(2));
    assert_eq!(s.deckel(), vec![("A", 12), ("B", 1), ("C", 0)]);
    let o = s
        .apply(vec![t("A", [6, 4, 2], 1), t("B", [6, 5, 2], 1)])
        .unwrap();
    assert!(o.evaluation.ends_half);
    assert_eq!(o.newly_out, vec!["B".to_string()]);
    assert_eq!(o.part_loser.as_deref(), Some("A"));
    assert_eq!(s.part(), Some(Part::Half2));
}

#[test]
fn auswuerfeln_is_one_wurf_each_then_the_vorleger_sets_the_limit() {
    let mut s = RundeState::new(names(&["A", "B"]), RuleSet::default()).unwrap();
    let err = s
        .apply(vec![t("A", [1, 1, 4], 2), t("B", [5, 4, 2], 1)])
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        "Spieler A, Wurf 2: beim Auswürfeln hat jeder genau einen Wurf"
    );
    assert!(
        s.wurfrunden().is_empty(),
        "a refused Wurfrunde changes nothing"
    );
    s.apply(vec![t("A", [1, 1, 4], 1), t("B", [5, 4, 2], 1)])
        .unwrap();
    assert!(!s.is_auswuerfeln());
    // B (L) is Vorleger and may use up to 3 Würfe; A then at most B's 3
    s.apply(vec![t("B", [5, 4, 2], 3), t("A", [6, 4, 2], 3)])
        .unwrap();
    assert_eq!(s.vorleger(), Some("B"));
    assert_eq!(s.deckel(), vec![("A", 0), ("B", 5)]);
    let err = s
        .apply(vec![t("B", [5, 4, 2], 4), t("A", [6, 4, 2], 1)])
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        "Spieler B, Wurf 4: mehr als 3 Würfe sind nicht erlaubt"
    );
}

#[test]
fn blind_doubles_only_when_the_rules_allow_it() {
    let mut s = RundeState::new(names(&["A", "B"]), RuleSet::default()).unwrap();
    s.apply(vec![t("A", [1, 1, 4], 1), t("B", [5, 4, 2], 1)])
        .unwrap();
    let throws = vec![t("B", [1, 1, 5], 1), t("A", [6, 4, 2], 1)];
    assert!(s.apply_blind(throws.clone(), true).is_err());
    let blind_rules = RuleSet {
        blind: true,
        ..RuleSet::default()
    };
    let mut s = RundeState::new(names(&["A", "B"]), blind_rules).unwrap();
    s.apply(vec![t("A", [1, 1, 4], 1), t("B", [5, 4, 2], 1)])
        .unwrap();
    let o = s.apply_blind(throws, true).unwrap();
    assert_eq!(o.transfer, Transfer::Stock(9), "4 + min(10, 9 left)");
    assert_eq!(s.stock(), 0);
    let back: RundeState = serde_json::from_value(serde_json::to_value(&s).unwrap()).unwrap();
    assert_eq!(back, s, "blind survives the record");
}

#[test]
fn replay_undo_and_serde() {
    let mut s = RundeState::new(names(&["A", "B"]), RuleSet::default()).unwrap();
    s.apply(vec![t("A", [6, 6, 6], 1), t("B", [5, 4, 2], 1)])
        .unwrap();
    let before = s.clone();
    s.apply(vec![t("B", [6, 4, 2], 3), t("A", [1, 1, 4], 2)])
        .unwrap();
    assert_eq!(s.deckel(), vec![("A", 0), ("B", 7)]);
    let json = serde_json::to_string(&s).unwrap();
    let back: RundeState = serde_json::from_str(&json).unwrap();
    assert_eq!(back, s);
    let last = s.undo_last().unwrap().unwrap();
    assert_eq!(s, before);
    assert_eq!(last.throws[0].player, "B");
    // a stored record that no longer replays is refused with the Wurfrunde number
    let mut rec = before.record();
    rec.wurfrunden.push(AppliedWurfrunde {
        throws: vec![t("A", [6, 4, 2], 1), t("B", [1, 1, 4], 1)],
        blind: false,
    });
    let err = serde_json::from_value::<RundeState>(serde_json::to_value(&rec).unwrap())
        .unwrap_err()
        .to_string();
    assert!(err.contains("Wurfrunde 2"), "{err}");
}

#[test]
fn a_renamed_player_is_renamed_in_the_whole_record_and_the_runde_replays() {
    let mut s = RundeState::new(names(&["A", "B"]), RuleSet::default()).unwrap();
    s.apply(vec![t("A", [1, 1, 1], 1), t("B", [6, 5, 4], 1)])
        .unwrap();
    let renamed = s.record().renamed("B", "Bernd");
    assert_eq!(renamed.players, names(&["A", "Bernd"]));
    assert!(renamed.has_player("Bernd") && !renamed.has_player("B"));
    let throwers: Vec<&str> = renamed.wurfrunden[0]
        .throws
        .iter()
        .map(|t| t.player.as_str())
        .collect();
    assert_eq!(throwers, ["A", "Bernd"]);
    let replayed = RundeState::try_from(renamed).expect("replays");
    assert_eq!(replayed.half_losers(), &["Bernd".to_string()][..]);
    // a name that plays not: unchanged
    assert_eq!(s.record().renamed("Z", "Y"), s.record());
}

#[test]
fn glueck_counts_each_turn_by_its_wuerfe_and_expects_exactly() {
    // The Runde of `a_runde_where_one_player_loses_both_halves_by_schock_out`: two Auswürfeln
    // (1 Wurf each), then C sets 2 Würfe; A throws 1-1-1 twice (once from the hand, once in 2).
    let mut s = RundeState::new(names(&["A", "B", "C"]), RuleSet::default()).unwrap();
    for w in [
        vec![
            t("A", [1, 1, 1], 1),
            t("B", [2, 2, 1], 1),
            t("C", [6, 5, 3], 1),
        ],
        vec![
            t("B", [6, 4, 2], 1),
            t("C", [5, 4, 2], 1),
            t("A", [1, 1, 3], 1),
        ],
        vec![
            t("C", [6, 4, 2], 2),
            t("A", [1, 1, 1], 2),
            t("B", [3, 2, 2], 1),
        ],
    ] {
        s.apply(w).unwrap();
    }
    // P(1 Wurf) = 1/216 = 54/11664, P(2 Würfe) = 379/11664 (odds module, league default).
    let f = |n, d| Fraction::new(n, d).unwrap();
    let want = [
        ("A", [2, 1, 0], 2, f(2 * 54 + 379, 11664)),
        ("B", [3, 0, 0], 0, f(3, 216)),
        ("C", [2, 1, 0], 0, f(2 * 54 + 379, 11664)),
    ];
    let got = s.glueck();
    assert_eq!(got.len(), want.len());
    for (g, (player, turns, outs, expected)) in got.iter().zip(want) {
        assert_eq!(
            (g.player.as_str(), g.turns, g.schock_outs, g.expected),
            (player, turns, outs, expected)
        );
    }
    assert_eq!((got[0].wurfrunden(), got[0].wuerfe()), (3, 4));
    // The replayed record gives the same figures.
    let r = s.record();
    let again = RundeState::replay(r.players, r.rules, &r.wurfrunden).unwrap();
    assert_eq!(again.glueck(), got);
}
