//! Unit tests of `src/rules/wurfrunde.rs` (a plain `mod tests;` beside it, so the module reads as the code alone).

use super::*;
use serde_json::json;

#[test]
fn player_list_bounds() {
    let throws = |names: Vec<String>| -> Vec<ThrowInput> {
        names
            .iter()
            .map(|n| ThrowInput::from_dice(n, [6, 5, 4], 1, true))
            .collect()
    };
    let numbered = |n: usize| (0..n).map(|i| format!("P{i}")).collect::<Vec<_>>();
    let long = "x".repeat(crate::rules::MAX_NAME_CHARS + 1);
    let just = "ü".repeat(crate::rules::MAX_NAME_CHARS);
    // (names, expected error fragment or None for accepted)
    let cases: Vec<(Vec<String>, Option<&str>)> = vec![
        (numbered(crate::rules::MAX_PLAYERS), None),
        (
            numbered(crate::rules::MAX_PLAYERS + 1),
            Some("höchstens 20 Spieler"),
        ),
        (numbered(70_000), Some("nicht 70000")),
        (vec!["A".into(), long], Some("länger als 60 Zeichen")),
        (vec!["A".into(), just], None),
        (vec!["A".into(), " ".into()], Some("keinen Namen")),
        (
            vec!["A".into(), "B".into(), "A".into()],
            Some("A wirft zweimal"),
        ),
    ];
    for (names, want) in cases {
        let n = names.len();
        let got = evaluate_throws(&throws(names), &RuleSet::default(), true, false);
        match want {
            None => assert!(got.is_ok(), "{n} players: {got:?}"),
            Some(w) => {
                let e = got.err().map(|e| e.to_string()).unwrap_or_default();
                assert!(e.contains(w), "{n} players: {e:?} lacks {w:?}");
            }
        }
    }
}

#[test]
fn a_million_wuerfe_are_refused() {
    let mut t = ThrowInput::from_dice("A", [6, 5, 4], 1, true);
    t.dice = None;
    t.wuerfe = None;
    t.from_hand = None;
    let w = WurfInput {
        roll: vec![6, 5, 4],
        keep: vec![],
        turn: 0,
        take_back: vec![],
    };
    t.sequence = Some(vec![w; 1_000_000]);
    let throws = vec![t, ThrowInput::from_dice("B", [6, 5, 4], 1, true)];
    let e = evaluate_throws(&throws, &RuleSet::default(), false, false);
    assert!(e.is_err(), "{e:?}");
}

#[test]
fn deckel_move_from_stock_then_from_h() {
    // (stock, held before, H, L, deckel) -> (stock, held after, transfer)
    type Case = (u8, Vec<u8>, usize, usize, Deckel, u8, Vec<u8>, Transfer);
    let cases: Vec<Case> = vec![
        (
            13,
            vec![0, 0, 0],
            0,
            1,
            Deckel::Count(3),
            10,
            vec![0, 3, 0],
            Transfer::Stock(3),
        ),
        (
            2,
            vec![5, 6, 0],
            0,
            1,
            Deckel::Count(6),
            0,
            vec![5, 8, 0],
            Transfer::Stock(2),
        ),
        (
            0,
            vec![5, 8, 0],
            0,
            1,
            Deckel::Count(3),
            0,
            vec![2, 11, 0],
            Transfer::Player(3),
        ),
        (
            0,
            vec![2, 11, 0],
            0,
            1,
            Deckel::Count(7),
            0,
            vec![0, 13, 0],
            Transfer::Player(2),
        ),
        (
            7,
            vec![2, 4, 0],
            0,
            2,
            Deckel::All,
            0,
            vec![0, 0, 13],
            Transfer::All,
        ),
    ];
    for (stock, held, h, l, d, stock2, held2, t) in cases {
        let mut s = DeckelState {
            stock,
            held: held.clone(),
            total: 13,
        };
        assert_eq!(s.apply(h, l, d), t, "{held:?}");
        assert_eq!((s.stock, s.held.clone()), (stock2, held2));
        assert_eq!(s.stock + s.held.iter().sum::<u8>(), 13);
    }
}

#[test]
fn out_and_loser() {
    let s = DeckelState {
        stock: 0,
        held: vec![0, 13, 0],
        total: 13,
    };
    assert!(s.is_out(0) && !s.is_out(1) && s.is_out(2));
    assert_eq!(s.loser(), Some(1));
    let fresh = DeckelState::new(3, 13);
    assert!(!fresh.is_out(0));
    assert_eq!(fresh.loser(), None);
}

#[test]
fn blind_doubles_the_deckel_but_not_all() {
    assert_eq!(deckel_for(Class::Schock(5), true), Deckel::Count(10));
    assert_eq!(deckel_for(Class::Hausnummer(643), true), Deckel::Count(2));
    assert_eq!(deckel_for(Class::SchockOut, true), Deckel::All);
    assert_eq!(deckel_for(Class::Schock(5), false), Deckel::Count(5));
}

#[test]
fn json_helper_and_errors() {
    let ok = br#"{"rules":"schockerliga","throws":[
        {"player":"A","dice":[1,1,4],"wuerfe":2},
        {"player":"B","dice":[6,5,4],"wuerfe":1}]}"#;
    let v = evaluate_wurfrunde_json(ok).unwrap();
    assert_eq!(v["highest"], "A");
    assert_eq!(v["deckel"], 4);
    assert_eq!(v["ends_half"], false);
    assert_eq!(v["results"][1]["class"], "strasse");
    assert_eq!(v["results"][1]["label"], "Straße 4-5-6");

    let cases: Vec<(&[u8], &str)> = vec![
        (b"{\"throws\": [", "Zeile 1"),
        (b"{\"throws\": [{\"player\":\"A\",\"wurfe\":1}]}", "wurfe"),
        (
            br#"{"rules":"hessen","throws":[{"player":"A","dice":[1,1,4],"wuerfe":1},{"player":"B","dice":[1,1,4],"wuerfe":1}]}"#,
            "hessen",
        ),
        (
            br#"{"throws":[{"player":"A","dice":[1,1,4],"wuerfe":1},{"player":"B","dice":[1,1,4],"wuerfe":3,"from_hand":false}]}"#,
            "Spieler B, Wurf 2: mehr Würfe als der Vorleger (1)",
        ),
        (
            br#"{"throws":[{"player":"A","dice":[1,1,4],"wuerfe":1}]}"#,
            "mindestens zwei",
        ),
        (
            br#"{"throws":[{"player":"A","dice":[1,1,4],"wuerfe":1},{"player":"A","dice":[1,1,4],"wuerfe":1}]}"#,
            "zweimal",
        ),
        (
            br#"{"blind":true,"throws":[{"player":"A","dice":[1,1,4],"wuerfe":1},{"player":"B","dice":[1,1,4],"wuerfe":1}]}"#,
            "blind",
        ),
        (
            br#"{"throws":[{"player":"A","dice":[4,2,1],"wuerfe":2,"class":"jule"},{"player":"B","dice":[1,1,4],"wuerfe":1}]}"#,
            "Spieler A, Wurf 2: als Jule angegeben, aber das Ergebnis ist 421",
        ),
        (
            br#"{"throws":[{"player":"A","sequence":[{"roll":[1,1,3],"keep":[1,1]},{"roll":[1]}],"from_hand":true},{"player":"B","dice":[1,1,4],"wuerfe":1}]}"#,
            "Spieler A, Wurf 2: als „aus der Hand“ angegeben",
        ),
        (
            br#"{"throws":[{"player":"A","dice":[1,1,3],"sequence":[{"roll":[1,1,3]}]},{"player":"B","dice":[1,1,4],"wuerfe":1}]}"#,
            "Spieler A: entweder",
        ),
    ];
    for (body, needle) in cases {
        let e = evaluate_wurfrunde_json(body).unwrap_err().to_string();
        assert!(e.contains(needle), "{}: {e}", String::from_utf8_lossy(body));
    }
}

fn seq(rolls: &[(&[i64], &[i64])]) -> Vec<WurfInput> {
    rolls
        .iter()
        .map(|(roll, keep)| WurfInput {
            roll: roll.to_vec(),
            keep: keep.to_vec(),
            turn: 0,
            take_back: vec![],
        })
        .collect()
}

#[test]
fn claims_the_sequence_does_not_support_are_refused() {
    let r = RuleSet::schockerliga();
    let v = Allowance::Vorleger(3);
    // (sequence, claimed from_hand, claimed class, Ok(class) or Err(message))
    type Case = (
        Vec<WurfInput>,
        Option<bool>,
        Option<ClassKind>,
        Result<Class, &'static str>,
    );
    let cases: Vec<Case> = vec![
        // Hand-Out claimed, assembled Out thrown
        (
            seq(&[(&[1, 1, 3], &[1, 1]), (&[1], &[])]),
            Some(true),
            Some(ClassKind::SchockOut),
            Err("Spieler X, Wurf 2: als „aus der Hand“ angegeben, aber die Würfe ergeben das Gegenteil"),
        ),
        (
            seq(&[(&[2, 3, 5], &[]), (&[1, 1, 1], &[])]),
            Some(true),
            Some(ClassKind::SchockOut),
            Ok(Class::SchockOut),
        ),
        // assembled General and Straße
        (
            seq(&[(&[5, 5, 2], &[5, 5]), (&[5], &[])]),
            None,
            Some(ClassKind::General),
            Err("Spieler X, Wurf 2: als General angegeben, aber das Ergebnis ist 555"),
        ),
        (
            seq(&[(&[4, 5, 1], &[4, 5]), (&[6], &[])]),
            None,
            Some(ClassKind::Strasse),
            Err("Spieler X, Wurf 2: als Straße angegeben, aber das Ergebnis ist 654"),
        ),
        (
            seq(&[(&[4, 2, 1], &[])]),
            None,
            Some(ClassKind::Jule),
            Ok(Class::Jule),
        ),
        (
            seq(&[(&[4, 2, 1], &[])]),
            Some(false),
            None,
            Err("Spieler X, Wurf 1: als „nicht aus der Hand“ angegeben, aber die Würfe ergeben das Gegenteil"),
        ),
    ];
    for (sequence, from_hand, class, want) in cases {
        let input = ThrowInput {
            from_hand,
            class,
            ..ThrowInput::from_sequence("X", sequence)
        };
        let got = input
            .resolve(v, &r)
            .map(|(_, c)| c)
            .map_err(|e| e.to_string());
        assert_eq!(got, want.map_err(|m| m.to_string()), "{input:?}");
    }
}

#[test]
fn blind_with_the_variant() {
    let req: WurfrundeRequest = serde_json::from_str(
        r#"{"rules":{"blind":true},"blind":true,"throws":[
          {"player":"A","dice":[1,1,4],"wuerfe":1},{"player":"B","dice":[6,5,3],"wuerfe":1}]}"#,
    )
    .unwrap();
    assert_eq!(evaluate_wurfrunde(&req).unwrap().deckel, Deckel::Count(8));
}

#[test]
fn the_deckel_of_neuner_and_achter_follow_the_rule_set() {
    // (rules JSON, Vorleger's dice, blind, expected class of A, expected Deckel)
    let cases: Vec<(Value, [u8; 3], bool, ClassKind, Deckel)> = vec![
        (
            json!({"neuner": true}),
            [2, 2, 1],
            false,
            ClassKind::Neuner,
            Deckel::Count(9),
        ),
        (
            json!({"neuner": true, "neuner_deckel": 5}),
            [2, 2, 1],
            false,
            ClassKind::Neuner,
            Deckel::Count(5),
        ),
        (
            json!({"neuner": true, "neuner_deckel": 5, "blind": true}),
            [2, 2, 1],
            true,
            ClassKind::Neuner,
            Deckel::Count(10),
        ),
        (
            json!({"achter": true}),
            [3, 3, 1],
            false,
            ClassKind::Achter,
            Deckel::Count(8),
        ),
        (
            json!({"achter": true, "achter_deckel": 6}),
            [1, 3, 3],
            false,
            ClassKind::Achter,
            Deckel::Count(6),
        ),
        (
            json!({"achter": true, "achter_deckel": 200, "blind": true}),
            [3, 3, 1],
            true,
            ClassKind::Achter,
            Deckel::Count(255),
        ),
        // off: the Hausnummer 331 loses to B's 665 and costs 1
        (
            json!({}),
            [3, 3, 1],
            false,
            ClassKind::Hausnummer,
            Deckel::Count(1),
        ),
    ];
    for (rules, dice, blind, class, deckel) in cases {
        let req = WurfrundeRequest {
            rules: rules.clone(),
            throws: vec![
                ThrowInput::from_dice("A", dice, 1, true),
                ThrowInput::from_dice("B", [6, 6, 5], 1, true),
            ],
            blind,
        };
        let resp = evaluate_wurfrunde(&req).unwrap_or_else(|e| panic!("{rules}: {e}"));
        assert_eq!(resp.results[0].class, class, "{rules}");
        assert_eq!(resp.deckel, deckel, "{rules}");
        let a_wins = class != ClassKind::Hausnummer;
        assert_eq!(resp.highest, if a_wins { "A" } else { "B" }, "{rules}");
    }
    assert_eq!(
        deckel_under(Class::Achter, &RuleSet::default(), false),
        Deckel::Count(8)
    );
    assert_eq!(deckel_for(Class::Neuner, true), Deckel::Count(18));
}

#[test]
fn hand_beats_assembled_through_the_json_contract() {
    // A (Vorleger) assembles Schock 4 in two Würfe, B throws it from the hand in his first
    let body = |rules: &str| {
        format!(
            r#"{{"rules":{rules},"throws":[
              {{"player":"A","sequence":[{{"roll":[1,1,6],"keep":[1,1]}},{{"roll":[4]}}]}},
              {{"player":"B","sequence":[{{"roll":[4,1,1]}}]}}]}}"#
        )
    };
    // (rules, highest, lowest)
    let cases = [
        ("\"schockerliga\"", "A", "B"),
        ("{\"hand_beats_assembled\":false}", "A", "B"),
        ("{\"hand_beats_assembled\":true}", "B", "A"),
        ("{\"hand_out_beats_assembled\":true}", "A", "B"),
    ];
    for (rules, highest, lowest) in cases {
        let v = evaluate_wurfrunde_json(body(rules).as_bytes()).unwrap();
        assert_eq!(
            (v["highest"].as_str(), v["lowest"].as_str()),
            (Some(highest), Some(lowest)),
            "{rules}"
        );
        assert_eq!(v["deckel"], 4, "{rules}");
        assert_eq!(v["results"][1]["from_hand"], true);
    }
}

#[test]
fn take_back_through_the_json_contract() {
    // A keeps a 5 and a 6, takes the 5 back and rolls two dice; B throws a Straße from the hand
    let body = |rules: &str| {
        format!(
            r#"{{"rules":{rules},"throws":[
              {{"player":"A","sequence":[{{"roll":[1,5,6],"keep":[5,6]}},{{"roll":[1,1],"take_back":[5]}}]}},
              {{"player":"B","dice":[3,4,5],"wuerfe":1}}]}}"#
        )
    };
    let v = evaluate_wurfrunde_json(body("{\"kept_dice_stay\":false}").as_bytes()).unwrap();
    assert_eq!(v["results"][0]["dice"], json!([6, 1, 1]));
    assert_eq!(v["results"][0]["label"], "Schock 6");
    assert_eq!(
        (v["highest"].as_str(), v["deckel"].as_u64()),
        (Some("A"), Some(6))
    );
    let e = evaluate_wurfrunde_json(body("\"schockerliga\"").as_bytes()).unwrap_err();
    assert_eq!(
        e.to_string(),
        "Spieler A, Wurf 2: ein beiseitegelegter Würfel darf nicht zurück in den Becher"
    );
}
