//! Unit tests of `src/league/report.rs`: the whole text of a two-night season's second night
//! (by hand: league.md §2 counted Outs, §7 paid rounds, §4 movement), a night without Outs, and
//! the open fines left out when the club keeps its money private.

use serde_json::json;

use super::*;
use crate::league::testkit::{row, season};

const LINK: &str = "https://liga.test/abend/2026-01-16";

fn date(s: &str) -> NaiveDate {
    s.parse().expect("test date")
}

/// Anna and Bernd paid (1. Liga), Carla and Dirk not (2. Liga); Kreisliga only below 1 round.
fn two_nights() -> Season {
    season(json!({
        "format": "schockerliga-season/1", "season": 2026,
        "rules": { "kreisliga_below_rounds": 1 },
        "players": [ { "name": "Anna", "fee_paid_on": "2026-01-09" },
                     { "name": "Bernd", "fee_paid_on": "2026-01-09" },
                     { "name": "Carla" }, { "name": "Dirk" } ],
        "nights": [
          { "date": "2026-01-09", "tables": [ { "number": 1, "rounds": [
              { "number": 1, "results": [ row("Anna", 1, 0, 0, false, false),
                  row("Bernd", 0, 0, 0, false, true), row("Carla", 0, 0, 0, false, false) ] },
              { "number": 2, "results": [ row("Anna", 0, 0, 0, false, false),
                  row("Bernd", 0, 0, 0, false, true), row("Carla", 2, 0, 0, false, false) ] } ] } ],
            "fines": [] },
          { "date": "2026-01-16", "tables": [ { "number": 1, "rounds": [
              { "number": 1, "results": [ row("Anna", 1, 1, 0, false, false),
                  row("Bernd", 0, 0, 0, false, false), row("Carla", 0, 0, 1, false, false),
                  row("Dirk", 0, 0, 0, false, true) ] },
              { "number": 2, "results": [ row("Anna", 0, 0, 0, false, false),
                  row("Bernd", 2, 0, 0, true, false), row("Carla", 0, 0, 0, false, true),
                  row("Dirk", 1, 0, 0, false, false) ] },
              { "number": 3, "results": [ row("Anna", 0, 0, 0, false, true),
                  row("Bernd", 0, 0, 0, false, false), row("Carla", 1, 0, 0, false, false),
                  row("Dirk", 0, 0, 0, false, false) ] } ] } ],
            "fines": [ { "player": "Dirk", "kind": "late", "paid": false },
                       { "player": "Carla", "kind": "sleepy", "paid": true } ] }
        ]
    }))
}

/// The second night, counted by hand: Bernd 2 Outs in his Joker-Runde = 4, Anna's Hand-Out = 2,
/// Carla and Dirk 1 each; D.Werte over both nights: Bernd 4 × 10 / 5 = 8,00, Anna 3 × 10 / 5 = 6,00,
/// Carla 3 × 10 / 5 = 6,00, Dirk 1 × 10 / 3 = 3,33; after the first night Anna led Bernd.
const SECOND_NIGHT: &str = "Schockerliga – Spielabend 16.01.2026
4 Spieler an 1 Tisch, 3 Runden.

Schocker des Abends: Bernd (4 gewertete Outs)

Outs (davon Hand-Outs):
- Bernd: 2 (0)
- Anna: 1 (1)
- Carla: 1 (0)
- Dirk: 1 (0)
Gewertet: ein Out zählt 1, ein Hand-Out 2 (Hand-Outs sind Teil der Outs), in der Joker-Runde doppelt; 3 Julen ergeben 1 Out.
Joker: Bernd (Tisch 1, Runde 2)
Julen: Carla 1

Runden bezahlt: Anna 1, Carla 1, Dirk 1
Sozialfälle: keine

Tabelle nach dem Abend (die ersten 5):
1. Liga:
1. Bernd – D.Wert 8,00 (▲1)
2. Anna – D.Wert 6,00 (▼1)
2. Liga:
1. Carla – D.Wert 6,00 (–)
2. Dirk – D.Wert 3,33 (neu)

Offene Strafen:
- Dirk: Zuspätkommer 1,00 €

Alle Ergebnisse: https://liga.test/abend/2026-01-16
";

/// The first night: Carla's 2 Outs lead (no Outs tie), Bernd paid both rounds, nothing open.
const FIRST_NIGHT: &str = "Schockerliga – Spielabend 09.01.2026
3 Spieler an 1 Tisch, 2 Runden.

Schocker des Abends: Carla (2 gewertete Outs)

Outs (davon Hand-Outs):
- Carla: 2 (0)
- Anna: 1 (0)
Gewertet: ein Out zählt 1, ein Hand-Out 2 (Hand-Outs sind Teil der Outs), in der Joker-Runde doppelt; 3 Julen ergeben 1 Out.
Joker: keiner
Julen: keine

Runden bezahlt: Bernd 2
Sozialfälle: keine

Tabelle nach dem Abend (die ersten 5):
1. Liga:
1. Anna – D.Wert 5,00 (neu)
2. Bernd – D.Wert 0,00 (neu)
2. Liga:
1. Carla – D.Wert 10,00 (neu)

Offene Strafen: keine

Alle Ergebnisse: https://liga.test/abend/2026-01-09
";

#[test]
fn the_report_of_a_night() {
    let s = two_nights();
    let cases = [
        (
            "2026-01-16",
            LINK,
            Money::Shown,
            Some(SECOND_NIGHT.to_string()),
        ),
        (
            "2026-01-09",
            "https://liga.test/abend/2026-01-09",
            Money::Shown,
            Some(FIRST_NIGHT.to_string()),
        ),
        // the club keeps its money private: no names with amounts
        (
            "2026-01-16",
            LINK,
            Money::Private,
            Some(SECOND_NIGHT.replace(
                "Offene Strafen:\n- Dirk: Zuspätkommer 1,00 €\n",
                "Offene Strafen: nur für Mitglieder\n",
            )),
        ),
        ("2026-01-10", LINK, Money::Shown, None),
    ];
    for (d, link, money, expected) in cases {
        assert_eq!(
            night_report(&s, date(d), link, money),
            expected,
            "{d} {money:?}"
        );
    }
}

#[test]
fn the_report_says_how_outs_are_counted() {
    // (Out, Hand-Out, Joker multiplier, Julen per Out) → the line under the Outs (issue 21.14)
    let cases = [
        (1, 2, Some(2), 3, "Gewertet: ein Out zählt 1, ein Hand-Out 2 (Hand-Outs sind Teil der Outs), in der Joker-Runde doppelt; 3 Julen ergeben 1 Out."),
        (1, 1, None, 3, "Gewertet: ein Out zählt 1, ein Hand-Out 1 (Hand-Outs sind Teil der Outs); 3 Julen ergeben 1 Out."),
        (1, 3, Some(3), 4, "Gewertet: ein Out zählt 1, ein Hand-Out 3 (Hand-Outs sind Teil der Outs), in der Joker-Runde 3-fach; 4 Julen ergeben 1 Out."),
    ];
    for (out, hand, joker, julen, want) in cases {
        let rules = SeasonRules {
            out_points: out,
            hand_out_points: hand,
            joker_multiplier: joker,
            julen_per_out: julen,
            ..SeasonRules::defaults_for(2026)
        };
        assert_eq!(counting(&rules), want);
    }
}

#[test]
fn a_night_without_outs_ties_and_sozialfall() {
    // Nobody throws an Out; Bernd loses 4 rounds: 3 paid, a Sozialfall; Anna pays the 5th.
    let mut rounds = Vec::new();
    for n in 1..=5u32 {
        rounds.push(json!({ "number": n, "results": [
            row("Anna", 0, 0, 0, false, n == 5), row("Bernd", 0, 0, 0, false, n != 5) ] }));
    }
    let s = season(json!({
        "format": "schockerliga-season/1", "season": 2026, "rules": {},
        "players": [ { "name": "Anna" }, { "name": "Bernd" } ],
        "nights": [ { "date": "2026-01-09", "tables": [ { "number": 1, "rounds": rounds } ],
                      "fines": [] } ]
    }));
    let text = night_report(&s, date("2026-01-09"), "L", Money::Shown).expect("a night");
    for expected in [
        "2 Spieler an 1 Tisch, 5 Runden.\n",
        "Schocker des Abends: keiner (kein Out gefallen)\n",
        "Outs: keine\nJoker: keiner\nJulen: keine\n",
        "Runden bezahlt: Bernd 3, Anna 1\nSozialfälle: Bernd\n",
        "Kreisliga:\n1. Anna – D.Wert 0,00 (neu)\n1. Bernd – D.Wert 0,00 (neu)\n",
    ] {
        assert!(text.contains(expected), "{expected:?} in {text}");
    }
    // ties share the title: "A und B (je …)"
    assert_eq!(und(&["A".into(), "B".into(), "C".into()]), "A, B und C");
}

#[test]
fn chat_markup_in_names_and_fine_kinds_shows_as_look_alikes() {
    // (typed, as the report shows it)
    let cases = [
        ("*Kalle*", "∗Kalle∗"),
        ("_Anna_", "ˍAnnaˍ"),
        ("~Bernd~", "∼Bernd∼"),
        ("`Carla`", "ˋCarlaˋ"),
        ("```Dora```", "ˋˋˋDoraˋˋˋ"),
        ("Jürgen Müller-Lüdenscheidt", "Jürgen Müller-Lüdenscheidt"),
        ("O'Neill (Gast) 2.", "O'Neill (Gast) 2."),
    ];
    for (typed, want) in cases {
        assert_eq!(shown(typed), want, "{typed}");
    }
    // Every place of the report that names a player or a fine kind.
    let s = season(json!({
        "format": "schockerliga-season/1", "season": 2026,
        "rules": { "kreisliga_below_rounds": 1, "fines": { "late": 100, "*Handy*": 50 } },
        "players": [ { "name": "*Kalle*", "fee_paid_on": "2026-01-09" }, { "name": "_Anna_" } ],
        "nights": [ { "date": "2026-01-09", "tables": [ { "number": 1, "rounds": [
              { "number": 1, "results": [ row("*Kalle*", 1, 1, 1, true, false),
                  row("_Anna_", 0, 0, 0, false, true) ] } ] } ],
            "fines": [ { "player": "_Anna_", "kind": "*Handy*", "paid": false } ] } ]
    }));
    let text = night_report(&s, date("2026-01-09"), LINK, Money::Shown).expect("a night");
    for expected in [
        "Schocker des Abends: ∗Kalle∗ (4 gewertete Outs)\n",
        "- ∗Kalle∗: 1 (1)\n",
        "Joker: ∗Kalle∗ (Tisch 1, Runde 1)\n",
        "Julen: ∗Kalle∗ 1\n",
        "Runden bezahlt: ˍAnnaˍ 1\n",
        "1. ∗Kalle∗ – D.Wert 40,00 (neu)\n",
        "- ˍAnnaˍ: ∗Handy∗ 0,50 €\n",
    ] {
        assert!(text.contains(expected), "{expected:?} in {text}");
    }
    let body = text.replace(LINK, "");
    assert!(
        !body.contains(['*', '_', '~', '`']),
        "no markup character left: {text}"
    );
}

#[test]
fn the_rounds_of_several_tables_are_said_per_table_not_added_up() {
    let cases: [(&[u32], &str); 10] = [
        (&[10, 1], "10 Runden und 1 Runde"),
        (&[2, 0], "2 und 0 Runden"),
        (&[0, 0], "je 0 Runden"),
        (&[], "0 Runden"),
        (&[1], "1 Runde"),
        (&[3], "3 Runden"),
        (&[10, 10], "je 10 Runden"),
        (&[1, 1], "je 1 Runde"),
        (&[10, 6], "10 und 6 Runden"),
        (&[10, 10, 7], "10, 10 und 7 Runden"),
    ];
    for (tables, want) in cases {
        assert_eq!(rounds_played(tables), want, "{tables:?}");
    }
}

#[test]
fn a_drawn_table_that_has_not_played_yet_counts() {
    // Two tables drawn, only table 1 has played (two rounds).
    let s = season(json!({
        "format": "schockerliga-season/1", "season": 2026, "rules": { "split_tables_from": 4 },
        "players": [ { "name": "Anna" }, { "name": "Bernd" }, { "name": "Carla" }, { "name": "Dirk" } ],
        "nights": [ { "date": "2026-01-09",
            "draw": [ { "player": "Anna", "table": 1 }, { "player": "Bernd", "table": 1 },
                      { "player": "Carla", "table": 2 }, { "player": "Dirk", "table": 2 } ],
            "tables": [ { "number": 1, "rounds": [
                { "number": 1, "results": [ row("Anna", 0, 0, 0, false, true), row("Bernd", 1, 0, 0, false, false) ] },
                { "number": 2, "results": [ row("Anna", 0, 0, 0, false, false), row("Bernd", 0, 0, 0, false, true) ] } ] } ],
            "fines": [] } ]
    }));
    let text = night_report(&s, date("2026-01-09"), "L", Money::Shown).expect("a night");
    assert!(
        text.contains("4 Spieler an 2 Tischen, 2 und 0 Runden.\n"),
        "{text}"
    );
}
