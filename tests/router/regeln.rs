//! `/regeln` and `/saison/{year}/regeln` from outside: the page is generated from the season's
//! `SeasonRules` and dice `RuleSet` — a season created with other Hand-Out points, fines and game,
//! and a fine kind changed through the write pipeline, change the page.

use std::time::{Duration, Instant};

use axum::http::StatusCode;
use schockerliga::league::Change;
use schockerliga::rules::RuleSet;
use schockerliga::service::{Edit, League};
use serde_json::{json, Map, Value};

use crate::app::{Reply, TestApp};

/// GETs `uri` until `ready` holds for the page (the app sees another `League`'s writes within
/// its recheck time); fails after 20 s.
async fn eventually(t: &TestApp, uri: &str, ready: impl Fn(&Reply) -> bool) -> Reply {
    let start = Instant::now();
    loop {
        let r = t.get(uri, None).await;
        if ready(&r) {
            return r;
        }
        assert!(
            start.elapsed() < Duration::from_secs(20),
            "{uri}: {} {}",
            r.status,
            r.body
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

fn overrides(v: Value) -> Map<String, Value> {
    serde_json::from_value(v).unwrap()
}

/// The row of fine kind `kind` in the Strafenkatalog table.
fn fine_row(body: &str, kind: &str) -> Option<String> {
    let at = body.find(&format!("<tr data-kind=\"{kind}\">"))?;
    let end = body[at..].find("</tr>")? + at;
    Some(body[at..end].to_string())
}

/// The Hand-Out row of the table of year-dependent rules.
fn hand_out_row(body: &str) -> String {
    let at = body.find("<tr><td>Hand-Out</td>").expect("Hand-Out row");
    let end = body[at..].find("</tr>").unwrap() + at;
    body[at..end].to_string()
}

#[tokio::test]
async fn the_page_follows_the_seasons_rules() {
    let t = TestApp::empty().await;
    // no season yet: the defaults of this year
    let r = t.get("/regeln", None).await;
    assert_eq!(r.status, StatusCode::OK);
    assert!(r.body.contains("Noch keine Saison angelegt"));
    assert!(
        r.body.contains("<td>Schock Out</td>") || r.body.contains("<strong>Schock Out</strong>")
    );

    let league = League::of(t.db.clone()).await.unwrap();
    let edit = Edit::by("test");
    league.create_season(2026, Map::new(), &edit).await.unwrap();
    let r = eventually(&t, "/saison/2026/regeln", |r| r.status == StatusCode::OK).await;
    assert!(r.body.contains("Regeln der Saison 2026"));
    assert!(
        hand_out_row(&r.body).starts_with("<tr><td>Hand-Out</td><td><strong>2 Punkte</strong>"),
        "{}",
        hand_out_row(&r.body)
    );
    assert!(r
        .body
        .contains("ein Hand-Out (alle drei Würfel in einem Wurf, keine Sechs gedreht) 2 Punkte."));
    assert_eq!(
        fine_row(&r.body, "late").unwrap(),
        "<tr data-kind=\"late\"><td>Zuspätkommer</td><td class=\"num\">1,00 €</td>"
    );
    assert!(fine_row(&r.body, "sleepy").is_some());
    assert!(r.body.contains("data-game=\"schockerliga\""));
    assert!(r.body.contains("<strong>Jule</strong>"));
    let before = r.body;

    // another season with other Hand-Out points, fines and dice game
    league
        .create_season(
            2025,
            overrides(json!({
                "hand_out_points": 3,
                "fines": { "late": 250 },
                "game": "westfalen",
                "kreisliga_below_rounds": 15
            })),
            &edit,
        )
        .await
        .unwrap();
    let r = eventually(&t, "/saison/2025/regeln", |r| r.status == StatusCode::OK).await;
    assert!(
        hand_out_row(&r.body).starts_with("<tr><td>Hand-Out</td><td><strong>3 Punkte</strong>"),
        "{}",
        hand_out_row(&r.body)
    );
    assert!(r
        .body
        .contains("ein Hand-Out (alle drei Würfel in einem Wurf, keine Sechs gedreht) 3 Punkte."));
    assert!(
        r.body.contains("ein Hand-Out 6 Punkte"),
        "with the Joker ×2"
    );
    assert_eq!(
        fine_row(&r.body, "late").unwrap(),
        "<tr data-kind=\"late\"><td>Zuspätkommer</td><td class=\"num\">2,50 €</td>"
    );
    assert!(fine_row(&r.body, "sleepy").is_none());
    assert!(r.body.contains("Weniger als 15 Runden (1,50 Teilnahmen)"));
    // the dice game: Westfalen has the Achter and no Jule
    assert!(r.body.contains("data-game=\"westfalen\""));
    assert!(r
        .body
        .contains(RuleSet::preset_description("westfalen").unwrap()));
    assert!(r.body.contains("<strong>Achter</strong>"));
    assert!(!r.body.contains("<strong>Jule</strong>"));
    assert!(r.body.contains("Ohne Jule: 4-2-1 ist die Hausnummer 421."));

    // a fine kind added to 2026 through the write pipeline: the page changes
    league
        .change(
            2026,
            Change::SetFineKind {
                kind: "Handy".into(),
                cents: Some(50),
            },
            &edit,
        )
        .await
        .unwrap();
    let r = eventually(&t, "/saison/2026/regeln", |r| {
        fine_row(&r.body, "Handy").is_some()
    })
    .await;
    assert_eq!(
        fine_row(&r.body, "Handy").unwrap(),
        "<tr data-kind=\"Handy\"><td>Handy</td><td class=\"num\">0,50 €</td>"
    );
    assert_ne!(r.body, before);
    // the current season is the newest: /regeln is 2026's page
    let current = t.get("/regeln", None).await;
    assert!(current.body.contains("Regeln der Saison 2026"));
    assert!(fine_row(&current.body, "Handy").is_some());
    assert!(current
        .body
        .contains("<a href=\"/saison/2025/regeln\">2025</a>"));
    // an unknown season: 404
    assert_eq!(
        t.get("/saison/1999/regeln", None).await.status,
        StatusCode::NOT_FOUND
    );
}

#[tokio::test]
async fn the_year_dependent_rules_fees_and_payouts() {
    let t = TestApp::empty().await;
    let league = League::of(t.db.clone()).await.unwrap();
    let edit = Edit::by("test");
    league.create_season(2005, Map::new(), &edit).await.unwrap();
    league
        .create_season(
            2026,
            overrides(json!({
                "payout_percent": [50, 30],
                "fee_base_cents": 2000,
                "game": { "preset": "schockerliga", "neuner": true, "blind": true }
            })),
            &edit,
        )
        .await
        .unwrap();
    let old = eventually(&t, "/saison/2005/regeln", |r| r.status == StatusCode::OK).await;
    // before 2007 a Hand-Out counts 1, no Joker before 2011, no fines before 2012
    for row in [
        "<tr><td>Hand-Out</td><td><strong>1 Punkt</strong><br><span class=\"muted\">Standard ab \
         2007: 2 Punkte; vorher: 1 Punkt</span></td></tr>",
        "<tr><td>Joker-Runde</td><td><strong>keine</strong><br><span class=\"muted\">Standard ab \
         2011: Outs ×2; vorher: keine</span></td></tr>",
        "<tr><td>Strafenkatalog</td><td><strong>leer</strong><br><span class=\"muted\">Standard ab \
         2012: Zuspätkommer 1,00 €, Schock-Schlafmütze 0,50 €; vorher: leer</span></td></tr>",
    ] {
        assert!(old.body.contains(row), "{row}");
    }
    assert!(old.body.contains("Diese Saison hat keinen Strafenkatalog."));
    assert!(old.body.contains("Diese Saison hat keine Joker-Runde."));

    let new = eventually(&t, "/saison/2026/regeln", |r| r.status == StatusCode::OK).await;
    for row in [
        "<tr><td>Januar – März</td><td class=\"num\">20,00 €</td></tr>",
        "<tr><td>April</td><td class=\"num\">21,00 €</td></tr>",
        "<tr><td>Oktober – Dezember</td><td class=\"num\">kein Beitritt mehr</td></tr>",
        "<tr><td>1.</td><td class=\"num\">50 %</td></tr>",
        "<tr><td>2.</td><td class=\"num\">30 %</td></tr>",
        "<tr><td>Übertrag in die nächste Saison</td><td class=\"num\">20 %</td></tr>",
    ] {
        assert!(new.body.contains(row), "{row}");
    }
    // own dice rules: named with their changes, the Neuner in the order, blind doubles
    assert!(new
        .body
        .contains("eigene Regeln auf Grundlage von „schockerliga“"));
    assert!(new.body.contains("<code>neuner: true</code>"));
    assert!(new.body.contains("<strong>Neuner</strong>"));
    assert!(new.body.contains("blind angesagt doppelt"));
    let neuner = new.body.find("<strong>Neuner</strong>").unwrap();
    let jule = new.body.find("<strong>Jule</strong>").unwrap();
    let out = new.body.find("<strong>Schock Out</strong>").unwrap();
    assert!(out < neuner && neuner < jule, "Schock Out > Neuner > Jule");
    // every preset with its description
    for (name, description) in RuleSet::presets() {
        assert!(
            new.body.contains(&format!(
                "<dt><a href=\"/schiedsrichter?regeln={name}\">{name}</a></dt><dd>{description}</dd>"
            )),
            "{name}"
        );
    }
}

#[tokio::test]
async fn every_page_links_the_rules_and_the_referee_in_its_footer() {
    let t = TestApp::small_season().await;
    for uri in ["/", "/abende", "/schiedsrichter", "/regeln", "/login"] {
        let r = t.get(uri, None).await;
        let r = if r.status == StatusCode::SEE_OTHER {
            t.get(r.location().unwrap(), None).await
        } else {
            r
        };
        // The footer (which also links the players' pages) names both.
        let footer = r
            .body
            .split("<footer class=\"fuss\">")
            .nth(1)
            .and_then(|f| f.split("</footer>").next())
            .unwrap_or_else(|| panic!("{uri}: no footer"));
        assert!(
            footer.contains("<a href=\"/regeln\">Regeln</a>")
                && footer.contains("<a href=\"/schiedsrichter\">Schiedsrichter</a>"),
            "{uri}"
        );
    }
}

/// Every guide in `docs/` (the season file, the Kassenbuch, the Abzeichen, the rule sets, the
/// spreadsheet import, the way back after an upgrade) ships in the Debian package beside the
/// README, so a club that installed the package reads what the pages link to.
#[test]
fn every_guide_in_docs_ships_in_the_package() {
    let root = env!("CARGO_MANIFEST_DIR");
    let manifest = std::fs::read_to_string(format!("{root}/Cargo.toml")).unwrap();
    let mut guides: Vec<String> = std::fs::read_dir(format!("{root}/docs"))
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .filter(|n| n.ends_with(".md"))
        .collect();
    guides.sort();
    assert!(guides.len() >= 6, "{guides:?}");
    let missing: Vec<&String> = guides
        .iter()
        .filter(|n| {
            !manifest.contains(&format!(
                r#"["docs/{n}", "usr/share/doc/schockerliga/{n}", "644"]"#
            ))
        })
        .collect();
    assert!(missing.is_empty(), "not in the package: {missing:?}");
}
