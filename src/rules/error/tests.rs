//! Unit tests of `src/rules/error.rs` (a plain `mod tests;` beside it, so the module reads as the code alone).

use super::*;

#[test]
fn messages_name_player_wurf_and_rule() {
    let cases = [
        (
            RuleError::Throw {
                player: "Bernd".into(),
                wurf: Some(3),
                problem: ThrowProblem::MoreThanVorleger(2),
            },
            "Spieler Bernd, Wurf 3: mehr Würfe als der Vorleger (2)",
        ),
        (
            RuleError::Throw {
                player: "Anna".into(),
                wurf: None,
                problem: ThrowProblem::NoForm,
            },
            "Spieler Anna: „dice“ mit „wuerfe“ oder „sequence“ fehlt",
        ),
        (
            RuleError::Throw {
                player: "Carla".into(),
                wurf: Some(1),
                problem: ThrowProblem::ClassClaim {
                    claimed: ClassKind::Jule,
                    actual: "421".into(),
                },
            },
            "Spieler Carla, Wurf 1: als Jule angegeben, aber das Ergebnis ist 421",
        ),
        (
            RuleError::Throw {
                player: "Dirk".into(),
                wurf: Some(1),
                problem: ThrowProblem::OnlyOnesAndSixesAside(5),
            },
            "Spieler Dirk, Wurf 1: nur Einsen und Sechsen dürfen beiseitegelegt werden, nicht eine 5",
        ),
    ];
    for (err, msg) in cases {
        assert_eq!(err.to_string(), msg);
    }
}

#[test]
fn json_errors_name_the_position_once() {
    let e = serde_json::from_str::<Vec<u8>>("[1,\n 2,\n x]").unwrap_err();
    let msg = RuleError::json(&e).to_string();
    assert!(
        msg.starts_with("ungültige Anfrage (Zeile 3, Spalte 2): "),
        "{msg}"
    );
    assert!(!msg.contains("at line"), "{msg}");
}
