//! Unit tests of `src/web/schiedsrichter.rs`: reading the form, the engine's input, where a
//! refusal is shown and the share link.

use super::*;
use crate::rules::wurfrunde::evaluate_throws;

fn q(pairs: &[(&str, &str)]) -> Question {
    let pairs = pairs
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    Question::read(&fields(pairs), "schockerliga")
}

#[test]
fn an_empty_form_has_three_seats_and_asks_nothing() {
    let question = q(&[]);
    assert_eq!(question.seats.len(), DEFAULT_SEATS);
    assert!(!question.is_asked());
    assert_eq!(question.regeln, "schockerliga");
    // a seat more, nothing judged
    let more = q(&[("plaetze", "3"), ("n1", "A"), ("mehr", "1")]);
    assert_eq!(more.seats.len(), 4);
    assert!(!more.is_asked());
    // seats with input beyond `plaetze` are shown; never more than MAX_PLAYERS
    assert_eq!(q(&[("plaetze", "2"), ("n5", "E")]).seats.len(), 5);
    assert_eq!(q(&[("plaetze", "999")]).seats.len(), MAX_PLAYERS);
}

#[test]
fn final_dice_and_sequences_become_the_engines_input() {
    let question = q(&[
        ("n1", "Anna"),
        ("d1_1", "1"),
        ("d1_2", "1"),
        ("d1_3", "4"),
        ("z1", "2"),
        ("h1", "1"),
        ("m2", "f"),
        ("f2_1_1", "6"),
        ("f2_1_2", "6"),
        ("f2_1_3", "3"),
        ("t2_1", "1"),
        ("f2_2_1", "1"),
        ("f2_2_2", "4"),
        ("k2_2_1", "1"),
        ("k2_2_2", ""),
        ("f2_3_1", "5"),
        // the final-dice fields of a seat in sequence mode are not read
        ("d2_1", "9"),
    ]);
    assert!(question.is_asked());
    let anna = question.seats[0].to_input().unwrap();
    assert_eq!(anna, ThrowInput::from_dice("Anna", [1, 1, 4], 2, true));
    let second = question.seats[1].to_input().unwrap();
    assert_eq!(second.player, "Platz 2");
    let seq = second.sequence.unwrap();
    assert_eq!(seq.len(), 3);
    assert_eq!((seq[0].roll.clone(), seq[0].turn), (vec![6, 6, 3], 1));
    assert_eq!(
        (seq[1].roll.clone(), seq[1].keep.clone()),
        (vec![1, 4], vec![1])
    );
    assert_eq!(seq[2].roll, vec![5]);
    // one Wurf: from the hand by the engine's default, the box is not read
    let one = q(&[("n1", "A"), ("d1_1", "3"), ("d1_2", "2"), ("d1_3", "1")]);
    assert_eq!(one.seats[0].to_input().unwrap().from_hand, None);
}

#[test]
fn refusals_are_placed_next_to_their_field() {
    let rules = RuleSet::schockerliga();
    /// (the query, the seat, the field of the refusal)
    type Case = (Vec<(&'static str, &'static str)>, usize, Field);
    let cases: Vec<Case> = vec![
        (
            vec![
                ("n1", "A"),
                ("d1_1", "7"),
                ("d1_2", "1"),
                ("d1_3", "1"),
                ("n2", "B"),
                ("d2_1", "2"),
                ("d2_2", "2"),
                ("d2_3", "1"),
            ],
            1,
            Field::Dice,
        ),
        (
            vec![
                ("n1", "A"),
                ("d1_1", "3"),
                ("d1_2", "4"),
                ("d1_3", "6"),
                ("n2", "B"),
                ("d2_1", "1"),
                ("d2_2", "1"),
                ("d2_3", "5"),
                ("z2", "2"),
            ],
            2,
            Field::Wuerfe,
        ),
        (
            vec![
                ("n1", "A"),
                ("d1_1", "3"),
                ("d1_2", "4"),
                ("d1_3", "6"),
                ("z1", "2"),
                ("n2", "B"),
                ("m2", "f"),
                ("f2_1_1", "2"),
                ("f2_1_2", "3"),
                ("f2_1_3", "5"),
                ("f2_2_1", "6"),
                ("f2_2_2", "6"),
                ("f2_2_3", "2"),
                ("t2_2", "1"),
            ],
            2,
            Field::Wurf(2),
        ),
        (
            vec![
                ("n1", "A"),
                ("d1_1", "3"),
                ("d1_2", "4"),
                ("n2", "B"),
                ("d2_1", "1"),
                ("d2_2", "1"),
                ("d2_3", "5"),
            ],
            1,
            Field::Dice,
        ),
    ];
    for (pairs, seat, field) in cases {
        let question = q(&pairs);
        let inputs: Vec<ThrowInput> = question
            .seats
            .iter()
            .filter(|s| s.is_used())
            .map(|s| s.to_input().unwrap())
            .collect();
        let err = evaluate_throws(&inputs, &rules, false, false).unwrap_err();
        match place(&err, &question.seats) {
            Refusal::At(f) => {
                assert_eq!((f.seat, f.field), (seat, field), "{pairs:?}");
                assert_eq!(f.message, err.to_string());
            }
            other => panic!("{pairs:?}: {other:?}"),
        }
    }
    // not a number: refused before the engine, at the field
    let question = q(&[("n1", "A"), ("m1", "f"), ("f1_1_1", "x")]);
    let e = question.seats[0].to_input().unwrap_err();
    assert_eq!((e.seat, e.field), (1, Field::Wurf(1)));
    assert_eq!(e.message, "Spieler A: „x“ ist keine Augenzahl");
    // blind without the variant: next to the box
    let err = evaluate_throws(
        &[
            ThrowInput::from_dice("A", [1, 1, 4], 1, true),
            ThrowInput::from_dice("B", [1, 1, 4], 1, true),
        ],
        &rules,
        false,
        true,
    )
    .unwrap_err();
    assert!(matches!(place(&err, &[]), Refusal::Blind(_)));
}

#[test]
fn the_share_link_holds_the_whole_question_and_reads_back_the_same() {
    let question = q(&[
        ("regeln", "blog_rules"),
        ("plaetze", "4"),
        ("n1", "Jö & Co"),
        ("m1", "w"),
        ("d1_1", "5"),
        ("d1_2", "5"),
        ("d1_3", "5"),
        ("z1", "3"),
        ("t1_1", "0"),
        ("n2", "B"),
        ("m2", "f"),
        ("f2_1_1", "1"),
        ("f2_1_2", "1"),
        ("f2_1_3", "1"),
        ("t2_1", "0"),
        ("n3", ""),
    ]);
    let link = question.share_link();
    assert_eq!(
        link,
        "/schiedsrichter?regeln=blog_rules&n1=J%C3%B6%20%26%20Co&d1_1=5&d1_2=5&d1_3=5&z1=3\
         &n2=B&m2=f&f2_1_1=1&f2_1_2=1&f2_1_3=1"
    );
    // read back: the same seats with input
    let query = link.split_once('?').unwrap().1;
    let pairs: Vec<(String, String)> = query
        .split('&')
        .map(|kv| {
            let (k, v) = kv.split_once('=').unwrap();
            let v = v
                .replace("%C3%B6", "ö")
                .replace("%20", " ")
                .replace("%26", "&");
            (k.to_string(), v)
        })
        .collect();
    let again = Question::read(&fields(pairs), "schockerliga");
    let inputs = |q: &Question| -> Vec<ThrowInput> {
        q.seats
            .iter()
            .filter(|s| s.is_used())
            .map(|s| s.to_input().unwrap())
            .collect()
    };
    assert_eq!(inputs(&again), inputs(&question));
    assert_eq!(again.regeln, "blog_rules");
}
