//! `/schiedsrichter` from outside: every case of `tests/fixtures/wurfrunde.json` submitted as the
//! page's GET form (the fields the page itself offers), the answer read back from the HTML and
//! compared with the fixture and with the JSON API; refusals next to their field; the deciding rule
//! in words; the season's rule set and the presets.

use axum::http::StatusCode;
use schockerliga::league::model::file::SeasonFile;
use schockerliga::rules::RuleSet;
use serde_json::{json, Value};

use crate::app::{encode, TestApp};
use crate::common::{check_expect, engine, wurfrunde_cases as cases};

/// The page's GET form fields for a Wurfrunde request of interchange.md: `regeln`, then per seat
/// i the name `n{i}`, and either the final dice (`d{i}_{j}`, Würfe `z{i}`, `h{i}` for "aus der
/// Hand" with more than one Wurf) or the sequence (`m{i}=f`, per Wurf k the dice `f{i}_{k}_{j}`,
/// set aside `k{i}_{k}_{j}`, turned sixes `t{i}_{k}`).
fn form_fields(request: &Value) -> Vec<(String, String)> {
    let mut f = vec![(
        "regeln".to_string(),
        request["rules"]
            .as_str()
            .unwrap_or("schockerliga")
            .to_string(),
    )];
    if request["blind"] == Value::Bool(true) {
        f.push(("blind".into(), "1".into()));
    }
    for (n, t) in request["throws"].as_array().unwrap().iter().enumerate() {
        let i = n + 1;
        f.push((format!("n{i}"), t["player"].as_str().unwrap().to_string()));
        if let Some(seq) = t["sequence"].as_array() {
            f.push((format!("m{i}"), "f".into()));
            for (k, w) in seq.iter().enumerate() {
                let k = k + 1;
                let roll: Vec<i64> = w["roll"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|v| v.as_i64().unwrap())
                    .collect();
                let mut keep: Vec<i64> = w["keep"]
                    .as_array()
                    .map(|a| a.iter().map(|v| v.as_i64().unwrap()).collect())
                    .unwrap_or_default();
                for (j, d) in roll.iter().enumerate() {
                    f.push((format!("f{i}_{k}_{}", j + 1), d.to_string()));
                    // a kept value is ticked on the first die of the roll that shows it
                    if let Some(p) = keep.iter().position(|v| v == d) {
                        keep.remove(p);
                        f.push((format!("k{i}_{k}_{}", j + 1), "1".into()));
                    }
                }
                assert!(keep.is_empty(), "keep of dice not rolled: {w}");
                if let Some(turn) = w["turn"].as_i64() {
                    f.push((format!("t{i}_{k}"), turn.to_string()));
                }
            }
        } else {
            f.push((format!("m{i}"), "w".into()));
            for (j, d) in t["dice"].as_array().unwrap().iter().enumerate() {
                f.push((format!("d{i}_{}", j + 1), d.to_string()));
            }
            let wuerfe = t["wuerfe"].as_i64().unwrap();
            f.push((format!("z{i}"), wuerfe.to_string()));
            if t["from_hand"] == Value::Bool(true) && wuerfe > 1 {
                f.push((format!("h{i}"), "1".into()));
            }
        }
    }
    f
}

/// `s` as askama escapes text in HTML.
fn html(s: &str) -> String {
    s.replace('&', "&#38;")
        .replace('<', "&#60;")
        .replace('>', "&#62;")
        .replace('"', "&#34;")
        .replace('\'', "&#39;")
}

/// The value of attribute `name` in the tag that starts at `tag` (the text from `<` on).
fn attr(tag: &str, name: &str) -> String {
    let end = tag.find('>').unwrap();
    let tag = &tag[..end];
    let key = format!(" {name}=\"");
    let start = tag
        .find(&key)
        .unwrap_or_else(|| panic!("no {name} in {tag}"))
        + key.len();
    let len = tag[start..].find('"').unwrap();
    tag[start..start + len]
        .replace("&#34;", "\"")
        .replace("&#39;", "'")
        .replace("&#60;", "<")
        .replace("&#62;", ">")
        .replace("&#38;", "&")
}

/// The answer of the page as the API's JSON: results in throwing order (from the `<li>` of the
/// order, by `data-seat`), order, highest, lowest, Deckel, ends_half.
fn answer_json(body: &str) -> Value {
    let at = body.find("<section id=\"antwort\"").expect("an answer");
    let section = &body[at..];
    let deckel = attr(section, "data-deckel");
    let mut rows: Vec<(usize, Value)> = Vec::new();
    let mut order = Vec::new();
    for (p, _) in section.match_indices("<li data-seat=") {
        let li = &section[p..];
        let player = attr(li, "data-player");
        let value = attr(li, "data-value");
        rows.push((
            attr(li, "data-seat").parse().unwrap(),
            json!({
                "player": player,
                "class": attr(li, "data-class"),
                "value": if value.is_empty() { Value::Null } else { json!(value.parse::<u64>().unwrap()) },
                "from_hand": attr(li, "data-from-hand") == "true",
                "wuerfe": attr(li, "data-wuerfe").parse::<u64>().unwrap(),
                "label": attr(li, "data-label"),
            }),
        ));
        order.push(player);
    }
    rows.sort_by_key(|(seat, _)| *seat);
    json!({
        "results": rows.into_iter().map(|(_, r)| r).collect::<Vec<_>>(),
        "order": order,
        "highest": attr(section, "data-highest"),
        "lowest": attr(section, "data-lowest"),
        "deckel": if deckel == "all" { json!("all") } else { json!(deckel.parse::<u64>().unwrap()) },
        "ends_half": attr(section, "data-ends-half") == "true",
    })
}

/// The page for `fields`.
async fn ask(t: &TestApp, fields: &[(String, String)]) -> crate::app::Reply {
    t.get(&format!("/schiedsrichter?{}", encode(fields)), None)
        .await
}

/// Where each refused fixture case shows its message: (case, seat, field).
const REFUSED: [(&str, usize, &str); 3] = [
    ("the Vorleger's Würfe are the limit", 2, "wuerfe"),
    ("no turning on the last Wurf", 2, "wurf2"),
    ("a die outside 1..6 is refused", 1, "wuerfel"),
];

#[tokio::test]
async fn every_fixture_case_through_the_page() {
    let t = TestApp::empty().await;
    let empty = t.get("/schiedsrichter", None).await;
    assert_eq!(empty.status, StatusCode::OK);
    assert!(empty
        .body
        .contains("<form method=\"get\" action=\"/schiedsrichter\""));
    let (mut valid, mut refused, mut fields_checked) = (0, 0, 0);
    for case in cases() {
        let name = case["name"].as_str().unwrap();
        let request = &case["request"];
        let fields = form_fields(request);
        // the test sends only fields the page offers
        for (key, _) in &fields {
            assert!(
                empty.body.contains(&format!("name=\"{key}\"")),
                "{name}: the form has no field {key}"
            );
        }
        let r = ask(&t, &fields).await;
        if case["expect"]["error"] == Value::Bool(true) {
            assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY, "{name}");
            let message = engine(request).unwrap_err();
            let (_, seat, field) = REFUSED.iter().find(|(n, _, _)| *n == name).unwrap();
            let shown = format!(
                "<p class=\"feldfehler\" role=\"alert\" data-platz=\"{seat}\" data-feld=\"{field}\">{}</p>",
                html(&message)
            );
            let at = r
                .body
                .find(&shown)
                .unwrap_or_else(|| panic!("{name}: {shown} not in {}", r.body));
            // inside its seat's fieldset
            let seat_at = r.body.find(&format!("id=\"platz-{seat}\"")).unwrap();
            let next = r
                .body
                .find(&format!("id=\"platz-{}\"", seat + 1))
                .unwrap_or(r.body.len());
            assert!(seat_at < at && at < next, "{name}: not at seat {seat}");
            assert!(
                r.body.contains(&format!("href=\"#platz-{seat}\"")),
                "{name}"
            );
            // The reason is also at the top, where the eye is, not only at the seat.
            let top = r.body.find("id=\"fehler\"").unwrap();
            assert!(
                top < seat_at && r.body[top..seat_at].contains(&html(&message)),
                "{name}: the reason is not at the top"
            );
            assert!(!r.body.contains("id=\"antwort\""), "{name}");
            refused += 1;
            continue;
        }
        assert_eq!(r.status, StatusCode::OK, "{name}: {}", r.body);
        let v = answer_json(&r.body);
        fields_checked += check_expect(name, &v, &case["expect"]);
        // the loser and the Deckel in words
        let lowest = case["expect"]["lowest"].as_str().unwrap();
        assert!(
            r.body.contains(&format!(
                "<strong class=\"verlierer\">{}</strong>",
                html(lowest)
            )),
            "{name}"
        );
        let deckel = match &case["expect"]["deckel"] {
            Value::String(_) => "alle Deckel".to_string(),
            n => format!("{n} Deckel"),
        };
        assert!(
            r.body
                .contains(&format!("<strong class=\"deckel\">{deckel}</strong>")),
            "{name}"
        );
        // the same answer as the JSON API gives
        let api = t
            .post_json(
                "/api/v1/wurfrunde",
                serde_json::to_vec(request).unwrap(),
                None,
            )
            .await;
        assert_eq!(api.status, StatusCode::OK, "{name}");
        assert_eq!(v, without_dice(api.json()), "{name}: page and API differ");
        // the share link asks the same question
        let link = attr(&r.body[r.body.find("<a id=\"teilen\"").unwrap()..], "href");
        let again = t.get(&link, None).await;
        assert_eq!(again.status, StatusCode::OK, "{name}: {link}");
        assert_eq!(answer_json(&again.body), v, "{name}: {link}");
        valid += 1;
    }
    assert_eq!((valid, refused, fields_checked), (15, 3, 76));
}

/// The API's answer without the fields the page does not carry as data (`dice`).
fn without_dice(mut v: Value) -> Value {
    for r in v["results"].as_array_mut().unwrap() {
        r.as_object_mut().unwrap().remove("dice");
    }
    v
}

fn fields(pairs: &[(&str, &str)]) -> Vec<(String, String)> {
    pairs
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect()
}

/// The deciding rule of the lowest and its neighbour, as the answer says it.
fn rule_of_loser(body: &str) -> String {
    let at = body.find("<p class=\"regel\">").expect("a rule");
    let p = &body[at..];
    let start = p.find("<strong>").unwrap() + "<strong>".len();
    let end = p.find("</strong>").unwrap();
    p[start..end].to_string()
}

#[tokio::test]
async fn the_answer_names_the_rule_that_decided() {
    // a season whose dice game has the Neuner and the Achter
    let file: SeasonFile = serde_json::from_value(json!({
        "format": "schockerliga-season/1", "season": 2026,
        "rules": { "game": { "preset": "westfalen", "neuner": true } },
        "players": [], "nights": []
    }))
    .unwrap();
    let t = TestApp::builder().season(file).start().await;
    let two = |rules: &str, a: [&str; 4], b: [&str; 4]| {
        let mut f = vec![("regeln", rules), ("n1", "A"), ("n2", "B")];
        for (i, s) in [(1, a), (2, b)] {
            let [d1, d2, d3, w] = s;
            let pre = if i == 1 {
                ["d1_1", "d1_2", "d1_3", "z1"]
            } else {
                ["d2_1", "d2_2", "d2_3", "z2"]
            };
            f.extend([(pre[0], d1), (pre[1], d2), (pre[2], d3), (pre[3], w)]);
        }
        fields(&f)
    };
    /// (the form's fields, the loser, the rule that made him lose)
    type Case = (Vec<(String, String)>, &'static str, &'static str);
    let cases: Vec<Case> = vec![
        (
            two("schockerliga", ["5", "3", "2", "1"], ["2", "3", "5", "1"]),
            "B",
            "gleicher Wurf: der spätere verliert",
        ),
        (
            fields(&[
                ("regeln", "schockerliga"),
                ("n1", "A"),
                ("d1_1", "1"),
                ("d1_2", "1"),
                ("d1_3", "1"),
                ("n2", "B"),
                ("d2_1", "1"),
                ("d2_2", "1"),
                ("d2_3", "1"),
            ]),
            "A",
            "Schock Out nachgeworfen gewinnt",
        ),
        (
            two("blog_rules", ["5", "5", "5", "3"], ["5", "5", "5", "1"]),
            "A",
            "weniger Würfe gewinnt (1 gegen 3)",
        ),
        (
            two("kneipe", ["4", "1", "1", "2"], ["1", "4", "1", "1"]),
            "A",
            "aus der Hand schlägt zusammengesetzt",
        ),
        (
            two("saison-2026", ["2", "2", "1", "2"], ["3", "2", "1", "1"]),
            "A",
            "2-2-1 nur aus der Hand: zusammengewürfelt zählt 2-2-1 nur als Hausnummer 221",
        ),
        (
            two("saison-2026", ["3", "3", "1", "2"], ["4", "3", "1", "1"]),
            "A",
            "3-3-1 nur aus der Hand: zusammengewürfelt zählt 3-3-1 nur als Hausnummer 331",
        ),
        (
            two("schockerliga", ["6", "6", "6", "1"], ["1", "1", "2", "1"]),
            "A",
            "auch der Schock doof (Schock 2) schlägt jeden General",
        ),
        (
            two("niederrhein", ["6", "6", "6", "1"], ["1", "1", "2", "1"]),
            "B",
            "jeder General schlägt den Schock doof (Schock 2)",
        ),
    ];
    for (f, loser, rule) in cases {
        let r = ask(&t, &f).await;
        assert_eq!(r.status, StatusCode::OK, "{f:?}: {}", r.body);
        assert_eq!(answer_json(&r.body)["lowest"], loser, "{f:?}");
        assert_eq!(rule_of_loser(&r.body), html(rule), "{f:?}");
    }
    // three players: why the highest is the highest, too; the Deckel follow the highest
    let r = ask(
        &t,
        &fields(&[
            ("regeln", "schockerliga"),
            ("n1", "A"),
            ("d1_1", "4"),
            ("d1_2", "4"),
            ("d1_3", "4"),
            ("n2", "B"),
            ("d2_1", "1"),
            ("d2_2", "1"),
            ("d2_3", "2"),
            ("n3", "C"),
            ("d3_1", "3"),
            ("d3_2", "2"),
            ("d3_3", "2"),
        ]),
    )
    .await;
    assert!(r
        .body
        .contains("C liegt unter A: <strong>General 4 schlägt Hausnummer 322</strong>"));
    assert!(r.body.contains(
        "B liegt vor A: <strong>auch der Schock doof (Schock 2) schlägt jeden General</strong>"
    ));
    assert!(r
        .body
        .contains("nicht der teuerste (General 4 hätte 3 Deckel gekostet)"));
}

#[tokio::test]
async fn the_current_seasons_rules_are_the_default_and_every_preset_is_listed() {
    let t = TestApp::small_season().await;
    let r = t.get("/schiedsrichter", None).await;
    assert_eq!(r.status, StatusCode::OK);
    assert!(
        r.body.contains("<option value=\"saison-2026\" selected>"),
        "{}",
        r.body
    );
    for (name, description) in RuleSet::presets() {
        assert!(
            r.body.contains(&format!("<option value=\"{name}\">")),
            "{name}"
        );
        assert!(
            r.body.contains(&format!(
                "<a href=\"/schiedsrichter?regeln={name}\">{name}</a></dt><dd>{}</dd>",
                html(description)
            )),
            "{name}"
        );
    }
    // the rules of the chosen set in sentences
    assert!(r.body.contains("Schock Out nachgeworfen gewinnt"));
    let wiki = t
        .get("/schiedsrichter?regeln=wikipedia_standard", None)
        .await;
    assert!(wiki
        .body
        .contains("<option value=\"wikipedia_standard\" selected>"));
    assert!(wiki
        .body
        .contains("Ohne Jule: 4-2-1 ist die Hausnummer 421."));
    // an unknown rule set or season: said next to the choice
    for (regeln, msg) in [
        ("hessen", "unbekannter Regelsatz „hessen“"),
        ("saison-1999", "Die Saison 1999 gibt es nicht."),
    ] {
        let r = t
            .get(&format!("/schiedsrichter?regeln={regeln}"), None)
            .await;
        assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY, "{regeln}");
        assert!(
            r.body.contains("data-feld=\"regeln\">") && r.body.contains(msg),
            "{regeln}: {}",
            r.body
        );
    }
}

#[tokio::test]
async fn the_form_keeps_what_was_entered_and_needs_no_script() {
    let t = TestApp::empty().await;
    let r = ask(
        &t,
        &fields(&[
            ("regeln", "kneipe"),
            ("blind", "1"),
            ("plaetze", "3"),
            ("n1", "Anna"),
            ("m1", "w"),
            ("d1_1", "4"),
            ("d1_2", "2"),
            ("d1_3", "1"),
            ("z1", "2"),
            ("h1", "1"),
            ("n2", "Bernd"),
            ("m2", "f"),
            ("f2_1_1", "1"),
            ("f2_1_2", "5"),
            ("f2_1_3", "3"),
            ("k2_1_1", "1"),
            ("f2_2_1", "2"),
            ("f2_2_2", "3"),
            ("n3", ""),
        ]),
    )
    .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    for kept in [
        "id=\"d1_1-4\" checked",
        "id=\"d1_2-2\" checked",
        "id=\"m2-f\" checked",
        "id=\"f2_1_2-5\" checked",
        "id=\"k2_1_1\" checked",
        "id=\"blind\" checked",
        "id=\"h1\" checked",
        "id=\"z1-2\" checked",
        "value=\"Bernd\"",
    ] {
        assert!(r.body.contains(kept), "{kept}");
    }
    // blind doubles the Deckel; Anna's Jule beats Bernd's 3-2-1 in two Würfe
    let v = answer_json(&r.body);
    assert_eq!(
        (v["lowest"].as_str(), v["deckel"].as_u64()),
        (Some("Bernd"), Some(14))
    );
    assert!(r.body.contains("blind doppelt: 14 Deckel"));
    assert_eq!(
        crate::app::only_script_files(&r.body.to_lowercase()),
        Ok(())
    );
    // "Platz dazu": a fourth seat, nothing judged yet
    let more = ask(
        &t,
        &fields(&[("plaetze", "3"), ("n1", "Anna"), ("mehr", "1")]),
    )
    .await;
    assert_eq!(more.status, StatusCode::OK);
    assert!(more.body.contains("id=\"platz-4\""));
    assert!(!more.body.contains("id=\"platz-5\""));
    assert!(!more.body.contains("id=\"antwort\""));
    // blind under rules without it: next to the box
    let r = ask(
        &t,
        &fields(&[
            ("regeln", "schockerliga"),
            ("blind", "1"),
            ("n1", "A"),
            ("d1_1", "4"),
            ("d1_2", "2"),
            ("d1_3", "1"),
            ("n2", "B"),
            ("d2_1", "3"),
            ("d2_2", "2"),
            ("d2_3", "1"),
        ]),
    )
    .await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(r
        .body
        .contains("data-feld=\"blind\">„blind“ ist nach diesen Regeln nicht erlaubt</p>"));
    // a single seat: the Wurfrunde as a whole is refused above the seats
    let r = ask(
        &t,
        &fields(&[("n1", "A"), ("d1_1", "4"), ("d1_2", "2"), ("d1_3", "1")]),
    )
    .await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(r
        .body
        .contains("data-feld=\"runde\">eine Wurfrunde braucht mindestens zwei Spieler</p>"));
}
