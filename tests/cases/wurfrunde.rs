//! Every case of `tests/fixtures/wurfrunde.json` through `evaluate_wurfrunde` (interchange.md).

use schockerliga::rules::{evaluate_wurfrunde, evaluate_wurfrunde_json, WurfrundeRequest};
use serde_json::Value;

use crate::common::{check_expect, wurfrunde_cases as cases};

#[test]
fn every_fixture_case_passes() {
    let cases = cases();
    assert_eq!(cases.len(), 18);
    let mut checked_fields = 0;
    for case in &cases {
        let name = case["name"].as_str().unwrap();
        let expect = &case["expect"];
        let req: WurfrundeRequest = serde_json::from_value(case["request"].clone())
            .unwrap_or_else(|e| panic!("{name}: request does not parse: {e}"));
        let got = evaluate_wurfrunde(&req);
        if expect["error"] == Value::Bool(true) {
            let err = got.expect_err(name).to_string();
            assert!(err.starts_with("Spieler "), "{name}: {err}");
            assert!(err.contains("Wurf "), "{name}: {err}");
            // the JSON helper refuses it the same way
            let body = serde_json::to_vec(&case["request"]).unwrap();
            assert_eq!(evaluate_wurfrunde_json(&body).unwrap_err().to_string(), err);
            continue;
        }
        let resp = got.unwrap_or_else(|e| panic!("{name}: {e}"));
        let v = serde_json::to_value(&resp).unwrap();
        checked_fields += check_expect(name, &v, expect);
        // the JSON helper gives the same value
        let body = serde_json::to_vec(&case["request"]).unwrap();
        assert_eq!(evaluate_wurfrunde_json(&body).unwrap(), v, "{name}");
    }
    assert_eq!(
        checked_fields, 76,
        "every expect field of the 15 valid cases"
    );
}

#[test]
fn error_messages_name_player_wurf_and_rule() {
    let want = [
        (
            "the Vorleger's Würfe are the limit",
            "Spieler B, Wurf 2: mehr Würfe als der Vorleger (1)",
        ),
        (
            "no turning on the last Wurf",
            "Spieler B, Wurf 2: auf dem letzten erlaubten Wurf darf keine Sechs gedreht werden",
        ),
        (
            "a die outside 1..6 is refused",
            "Spieler A, Wurf 1: Augenzahl 7 liegt nicht zwischen 1 und 6",
        ),
    ];
    let cases = cases();
    for (name, msg) in want {
        let case = cases.iter().find(|c| c["name"] == name).unwrap();
        let req: WurfrundeRequest = serde_json::from_value(case["request"].clone()).unwrap();
        assert_eq!(evaluate_wurfrunde(&req).unwrap_err().to_string(), msg);
    }
}
