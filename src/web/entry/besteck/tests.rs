//! Unit tests of `src/web/besteck.rs`.

use super::*;

#[test]
fn dice_as_typed_on_a_phone() {
    // (typed, Ok(dice) or the text of the error)
    let cases: Vec<(&str, Result<Vec<i64>, &str>)> = vec![
        ("421", Ok(vec![4, 2, 1])),
        ("4-2-1", Ok(vec![4, 2, 1])),
        (" 1 1 1", Ok(vec![1, 1, 1])),
        ("117", Ok(vec![1, 1, 7])), // range: the engine's check
        ("42", Err("2 Augenzahlen")),
        ("4211", Err("4 Augenzahlen")),
        ("", Err("0 Augenzahlen")),
        ("4x1", Err("„4x1“ sind keine Augenzahlen")),
    ];
    for (typed, want) in cases {
        match (parse_dice("Anna", typed), want) {
            (Ok(got), Ok(want)) => assert_eq!(got, want, "{typed}"),
            (Err(msg), Err(needle)) => {
                assert!(msg.starts_with("Spieler Anna: "), "{msg}");
                assert!(msg.contains(needle), "{typed}: {msg}");
            }
            (got, want) => panic!("{typed}: {got:?} vs {want:?}"),
        }
    }
}

#[test]
fn typed_rows_become_engine_throws() {
    let pairs: Vec<(String, String)> = [
        ("seq", "3"),
        ("p0", "Bernd"),
        ("w0", "114"),
        ("n0", "2"),
        ("p1", "Anna"),
        ("w1", "111"),
        ("n1", "2"),
        ("h1", "1"),
        ("p2", "Carla"),
        ("w2", "421"),
        ("h2", "1"),
        ("p4", "Nobody"),
    ]
    .iter()
    .map(|(k, v)| (k.to_string(), v.to_string()))
    .collect();
    let mut form = Fields::new();
    for (k, v) in pairs {
        form.entry(k).or_default().push(v);
    }
    let typed = typed_throws(&form);
    assert_eq!(typed.len(), 3, "rows stop at the first gap");
    let inputs: Vec<ThrowInput> = typed.iter().map(|t| t.to_input().unwrap()).collect();
    // (player, dice, wuerfe, from_hand): one Wurf leaves from_hand to the engine's default
    let want = [
        ("Bernd", vec![1, 1, 4], 2, Some(false)),
        ("Anna", vec![1, 1, 1], 2, Some(true)),
        ("Carla", vec![4, 2, 1], 1, None),
    ];
    for (t, (p, d, w, h)) in inputs.iter().zip(want) {
        assert_eq!(t.player, p);
        assert_eq!(t.dice.as_ref(), Some(&d));
        assert_eq!(t.wuerfe, Some(w));
        assert_eq!(t.from_hand, h, "{p}");
    }
    // and back to the form for a correction
    assert_eq!(TypedThrow::from_input(&inputs[1]), typed[1]);
}
