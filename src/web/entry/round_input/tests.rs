//! Unit tests of `src/web/entry/round_input.rs`.

use super::*;

/// The round form's reading of round `number` (typed) with `rows`: the number and the result
/// rows, or the refusal's message.
fn parse_round(
    date: NaiveDate,
    table: u32,
    number: &str,
    rows: &[RowInput],
) -> Result<(u32, Vec<ResultEntry>), String> {
    let number = round_number(date, table, number)?;
    let round = RoundInput {
        number,
        rows: rows.to_vec(),
        error: None,
    };
    round
        .results(date, table)
        .map(|results| (number, results))
        .map_err(|(message, _)| message)
}

#[test]
fn round_forms_parse_counts_and_name_the_bad_field() {
    let d = NaiveDate::from_ymd_opt(2026, 1, 9).unwrap();
    let row = |id, name: &str, outs: &str, played, lost| RowInput {
        id,
        name: name.into(),
        played,
        outs: outs.into(),
        hand_outs: "0".into(),
        julen: "".into(),
        joker: false,
        lost,
        ..RowInput::default()
    };
    let ok = parse_round(
        d,
        1,
        "3",
        &[
            row(1, "Anna", "2", true, false),
            row(2, "Bernd", "0", true, true),
            row(3, "Carla", "0", false, false),
        ],
    )
    .unwrap();
    assert_eq!(ok.0, 3);
    assert_eq!(ok.1.len(), 2, "Carla did not play");
    assert_eq!((ok.1[0].outs, ok.1[1].lost), (2, true));

    let cases = [
        (
            "3",
            vec![row(1, "Anna", "zwei", true, false)],
            "Abend 09.01.2026, Tisch 1, Runde 3, Spieler Anna, Feld Outs",
        ),
        (
            "drei",
            vec![row(1, "Anna", "1", true, false)],
            "Rundennummer",
        ),
        ("3", vec![row(1, "Anna", "0", false, true)], "Verlierer"),
        (
            "3",
            vec![
                row(1, "Anna", "1", true, true),
                row(9, "Ilse", "2", false, false),
            ],
            "Runde 3: Werte für Ilse eingetragen, aber Ilse ist nicht angekreuzt",
        ),
    ];
    for (number, rows, part) in cases {
        let e = parse_round(d, 1, number, &rows).unwrap_err();
        assert!(e.contains(part), "{e}");
    }
}
