use super::*;

#[test]
fn the_framework_text_gives_the_field_and_position_in_german() {
    // (axum's / serde's text, German detail)
    let cases: [(&str, Option<&str>); 7] = [
        ("Failed to deserialize form body: missing field `year`", Some("(Feld „year“ fehlt).")),
        (
            "Failed to deserialize the JSON body into the target type: unknown field `outz`, expected one of `outs` at line 1 column 12",
            Some("(unbekanntes Feld „outz“, Zeile 1, Spalte 12)."),
        ),
        ("Failed to deserialize form body: duplicate field `name`", Some("(Feld „name“ doppelt).")),
        (
            "Failed to deserialize the JSON body into the target type: results[0].outs: invalid value: integer `-1`, expected u32 at line 1 column 30",
            Some("(Feld „results[0].outs“: ungültiger Wert, Zeile 1, Spalte 30)."),
        ),
        ("Failed to parse the request body as JSON: expected value at line 1 column 1", Some("(Zeile 1, Spalte 1).")),
        ("Failed to deserialize form body: invalid digit found in string", None),
        ("length limit exceeded", None),
    ];
    for (text, want) in cases {
        assert_eq!(detail(text).as_deref(), want, "{text}");
    }
}

#[test]
fn a_german_text_of_the_app_is_kept_and_english_is_not() {
    assert_eq!(
        own_message("Anfrage von fremder Seite abgelehnt."),
        Some("Anfrage von fremder Seite abgelehnt.")
    );
    assert_eq!(
        own_message("Failed to deserialize form body: missing field `year`"),
        None
    );
    assert_eq!(own_message(""), None);
}

#[test]
fn a_stalled_body_is_told_apart_from_a_bad_one() {
    assert!(is_body_timeout(
        "Failed to buffer the request body: data was not received within the designated timeout"
    ));
    assert!(!is_body_timeout(
        "Failed to deserialize form body: missing field `year`"
    ));
}
