//! Unit tests of `src/web/kit/form.rs`.

use askama::Template;

use super::*;

#[derive(Template)]
#[template(
    source = "<form>{% include \"kit/korrektur.html\" %}</form>",
    ext = "html"
)]
struct KorrekturPartial;

#[test]
fn the_korrektur_partial_posts_the_fields_of_korrektur_fields() {
    let html = KorrekturPartial.render().unwrap();
    assert!(html.contains("name=\"korrektur\""), "{html}");
    assert!(html.contains("name=\"korrektur_grund\""), "{html}");
    let cases = [
        (
            "korrektur=on&korrektur_grund=Tippfehler",
            true,
            "Tippfehler",
        ),
        ("korrektur_grund=", false, ""),
        ("", false, ""),
    ];
    for (body, ticked, reason) in cases {
        let f: KorrekturFields = serde_urlencoded_from(body);
        assert_eq!(f.korrektur.is_some(), ticked, "{body}");
        assert_eq!(f.korrektur_grund, reason, "{body}");
    }
}

fn serde_urlencoded_from(body: &str) -> KorrekturFields {
    let pairs: serde_json::Map<String, serde_json::Value> = body
        .split('&')
        .filter(|p| !p.is_empty())
        .filter_map(|p| p.split_once('='))
        .map(|(k, v)| (k.to_string(), serde_json::Value::from(v)))
        .collect();
    serde_json::from_value(serde_json::Value::Object(pairs)).unwrap()
}
