//! Unit tests of `src/web/regeln.rs`: the year-dependent rules, the fee by month and the game's
//! name, all read from `SeasonRules` and `RuleSet`.

use serde_json::json;

use super::*;

#[test]
fn the_year_rules_are_found_in_the_defaults() {
    let now = year_rules(&SeasonRules::defaults_for(2026));
    let lines: Vec<String> = now
        .iter()
        .map(|r| {
            format!(
                "{}: {} → {} ab {}; jetzt {}",
                r.rule, r.before, r.from, r.since, r.now
            )
        })
        .collect();
    assert_eq!(
        lines,
        [
            "Hand-Out: 1 Punkt → 2 Punkte ab 2007; jetzt 2 Punkte",
            "Joker-Runde: keine → Outs ×2 ab 2011; jetzt Outs ×2",
            "Strafenkatalog: leer → Zuspätkommer 1,00 €, Schock-Schlafmütze 0,50 € ab 2012; \
             jetzt Zuspätkommer 1,00 €, Schock-Schlafmütze 0,50 €",
        ]
    );
    let old = year_rules(&SeasonRules::defaults_for(2005));
    let now_of = |rule: &str| old.iter().find(|r| r.rule == rule).unwrap().now.clone();
    assert_eq!(now_of("Hand-Out"), "1 Punkt");
    assert_eq!(now_of("Joker-Runde"), "keine");
    assert_eq!(now_of("Strafenkatalog"), "leer");
}

#[test]
fn the_fee_follows_the_month_of_payment() {
    let lines: Vec<(String, Option<i64>)> = fee_lines(&SeasonRules::defaults_for(2026), 2026)
        .into_iter()
        .map(|l| (l.months, l.cents))
        .collect();
    assert_eq!(
        lines.first().unwrap(),
        &("Januar – März".to_string(), Some(1500))
    );
    assert_eq!(lines[1], ("April".to_string(), Some(1600)));
    assert_eq!(lines[6], ("September".to_string(), Some(2100)));
    assert_eq!(
        lines.last().unwrap(),
        &("Oktober – Dezember".to_string(), None)
    );
    let rules = SeasonRules {
        fee_base_cents: 2000,
        fee_increase_from_month: 7,
        last_join_month: 12,
        ..SeasonRules::defaults_for(2026)
    };
    let lines = fee_lines(&rules, 2026);
    assert_eq!(lines[0].months, "Januar – Juni");
    assert_eq!(lines[0].cents, Some(2000));
    assert_eq!(lines.last().unwrap().cents, Some(2600));
}

#[test]
fn the_game_is_named_with_its_changes() {
    let preset = game_view(&json!("westfalen")).unwrap();
    assert_eq!(preset.name, "westfalen");
    assert_eq!(preset.description, RuleSet::preset_description("westfalen"));
    assert!(preset
        .ranking
        .iter()
        .any(|(l, d)| l.name == "Achter" && d == "8"));
    let own = game_view(&json!({ "preset": "kneipe", "neuner": true })).unwrap();
    assert_eq!(own.name, "eigene Regeln auf Grundlage von „kneipe“");
    assert_eq!(own.changes, ["neuner: true"]);
    assert!(own.blind);
    assert!(own
        .ranking
        .iter()
        .any(|(l, d)| l.name == "Neuner" && d == "9"));
    assert!(game_view(&json!("hessen")).is_err());
}

#[test]
fn the_league_rules_follow_the_season() {
    let rules = SeasonRules {
        kreisliga_below_rounds: 15,
        sozialfall_after: 4,
        payout_percent: vec![50, 30],
        joker_multiplier: None,
        ..SeasonRules::defaults_for(2026)
    };
    let v = league_view(&rules, 2026);
    assert!(v.ligen[2]
        .1
        .starts_with("Weniger als 15 Runden (1,50 Teilnahmen)"));
    assert!(v.ligen[0].1.contains("30.11.2026"));
    assert!(v.nights[1].contains("4 Runden bezahlt"));
    assert_eq!(v.places, [(1, 50), (2, 30)]);
    assert_eq!(v.rest_percent, 20);
    assert!(v.counting[1].contains("keine Joker-Runde"));
}
