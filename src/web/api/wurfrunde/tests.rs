//! Unit tests of `src/web/wurfrunde.rs`.

use super::*;

#[test]
fn statuses_by_kind_of_input() {
    let ok = br#"{"throws":[{"player":"A","dice":[1,1,4],"wuerfe":1},
                            {"player":"B","dice":[6,5,3],"wuerfe":1}]}"#;
    // (body, status, text the answer contains)
    let cases: Vec<(&[u8], StatusCode, &str)> = vec![
        (ok, StatusCode::OK, "\"highest\":\"A\""),
        (b"{\"throws\": [", StatusCode::BAD_REQUEST, "Zeile 1"),
        (b"", StatusCode::BAD_REQUEST, "ungültige Anfrage"),
        (
            b"{\"throws\": 3}",
            StatusCode::UNPROCESSABLE_ENTITY,
            "ungültige Anfrage",
        ),
        (
            br#"{"throws":[{"player":"A","dice":[1,1,9],"wuerfe":1},{"player":"B","dice":[6,5,3],"wuerfe":1}]}"#,
            StatusCode::UNPROCESSABLE_ENTITY,
            "Spieler A, Wurf 1: Augenzahl 9",
        ),
    ];
    for (body, status, needle) in cases {
        let (s, text) = match answer(body) {
            Ok(r) => (StatusCode::OK, serde_json::to_string(&r).unwrap()),
            Err(refusal) => refusal,
        };
        assert_eq!(s, status, "{}", String::from_utf8_lossy(body));
        assert!(text.contains(needle), "{text}");
    }
}
