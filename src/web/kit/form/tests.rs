//! Unit tests of `src/web/kit/form.rs`.

use askama::Template;

use super::*;

#[derive(Template)]
#[template(
    source = "<form>{% include \"kit/korrektur.html\" %}</form>",
    ext = "html"
)]
struct KorrekturPartial {
    korrektur: Korrektur,
}

#[test]
fn the_korrektur_partial_keeps_what_was_typed() {
    // Issue 21.4: a refused correction comes back with the tick and the reason as typed.
    let typed = KorrekturPartial {
        korrektur: Korrektur {
            ticked: true,
            reason: "Tippfehler <Runde 3>".into(),
        },
    };
    let html = typed.render().unwrap();
    assert!(
        html.contains("name=\"korrektur\" value=\"on\" checked>"),
        "{html}"
    );
    assert!(
        html.contains(
            "name=\"korrektur_grund\" maxlength=\"500\" value=\"Tippfehler &#60;Runde 3&#62;\""
        ),
        "{html}"
    );
    let html = KorrekturPartial {
        korrektur: Korrektur::default(),
    }
    .render()
    .unwrap();
    assert!(!html.contains("checked"), "{html}");
    assert!(html.contains("value=\"\""), "{html}");
}

#[test]
fn the_korrektur_partial_posts_the_fields_of_korrektur_fields() {
    let html = KorrekturPartial {
        korrektur: Korrektur::default(),
    }
    .render()
    .unwrap();
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
