//! The Schockbesteck through the whole app (router test): a secretary logs in, starts round 2 at
//! table 1, enters a whole Runde Wurfrunde by Wurfrunde (Hälfte 1, Hälfte 2, Finale), sees Deckel
//! and stock, corrects a Wurfrunde, survives a rebuilt app on the same database file, and confirms
//! the round, which is stored with the tallies of the throws (not the posted numbers).

use axum::http::StatusCode;
use schockerliga::db;
use schockerliga::league::model::file::{ResultEntry, SeasonFile};
use schockerliga::rules::{RuleSet, RundeState, ThrowInput};

use crate::app::{Reply, RoundForm, TestApp, SECRETARY};

pub(crate) const SEASON: &str = r#"{
  "format": "schockerliga-season/1", "season": 2026, "rules": {},
  "players": [ { "name": "Anna", "fee_paid_on": "2026-01-09" }, { "name": "Bernd" },
               { "name": "Carla" }, { "name": "Dirk" } ],
  "nights": [ { "date": "2026-01-09", "tables": [ { "number": 1, "rounds": [
      { "number": 1, "results": [
        { "player": "Anna",  "outs": 0, "hand_outs": 0, "julen": 0 },
        { "player": "Bernd", "outs": 1, "hand_outs": 0, "julen": 0, "lost": true },
        { "player": "Carla", "outs": 0, "hand_outs": 0, "julen": 0, "joker": true },
        { "player": "Dirk",  "outs": 0, "hand_outs": 0, "julen": 0 } ] } ] } ] } ]
}"#;

pub(crate) const PAGE: &str = "/verwaltung/besteck/2026-01-09/1/2";

/// The season above and a secretary.
pub(crate) async fn prepared() -> TestApp {
    let file: SeasonFile = serde_json::from_str(SEASON).unwrap();
    TestApp::builder()
        .season(file)
        .account(SECRETARY, "secretary")
        .start()
        .await
}

/// The number in `data-{attr}="N"` inside the first tag that contains `anchor`.
fn data_after(body: &str, anchor: &str, attr: &str) -> Option<u32> {
    let start = body.find(anchor)?;
    let tag = &body[start..start + body[start..].find('>')?];
    let key = format!("data-{attr}=\"");
    let rest = &tag[tag.find(&key)? + key.len()..];
    rest[..rest.find('"')?].parse().ok()
}

/// Deckel per player (in `names` order) and the stock as the page shows them.
fn deckel_and_stock(body: &str, names: &[&str]) -> (Vec<u32>, Option<u32>) {
    let deckel = names
        .iter()
        .map(|n| {
            data_after(body, &format!("data-player=\"{n}\""), "deckel")
                .unwrap_or_else(|| panic!("no Deckel of {n} in {body}"))
        })
        .collect();
    (deckel, data_after(body, "id=\"stock\"", "stock"))
}

/// One Wurfrunde as form fields: (player, dice, Würfe, aus der Hand) per row, plus `seq`.
fn wurfrunde_form(seq: usize, rows: &[(&str, &str, u8, bool)]) -> Vec<(String, String)> {
    let mut f = vec![("seq".to_string(), seq.to_string())];
    for (i, (p, dice, n, hand)) in rows.iter().enumerate() {
        f.push((format!("p{i}"), p.to_string()));
        f.push((format!("w{i}"), dice.to_string()));
        f.push((format!("n{i}"), n.to_string()));
        if *hand {
            f.push((format!("h{i}"), "1".to_string()));
        }
    }
    f
}

pub(crate) async fn post_wurfrunde(
    t: &TestApp,
    cookie: &str,
    seq: usize,
    rows: &[(&str, &str, u8, bool)],
) -> Reply {
    let f = wurfrunde_form(seq, rows);
    t.post_fields(&format!("{PAGE}/wurfrunde"), &f, Some(cookie))
        .await
}

/// The throws of the whole Runde as played (the corrected version), for an independent replay.
pub(crate) type Row = (&'static str, &'static str, u8, bool);
pub(crate) const RUNDE: [&[Row]; 7] = [
    // Hälfte 1, Auswürfeln: Anna's Hand-Out, Bernd's 2-2-1 is lowest and takes all
    &[
        ("Anna", "111", 1, false),
        ("Bernd", "221", 1, false),
        ("Carla", "653", 1, false),
    ],
    // Hälfte 2, Auswürfeln from Bernd: Schock 3 by Anna, Carla takes 3
    &[
        ("Bernd", "642", 1, false),
        ("Carla", "542", 1, false),
        ("Anna", "113", 1, false),
    ],
    // Carla's Jule: Bernd takes 7 (stock 3)
    &[
        ("Carla", "421", 1, false),
        ("Anna", "655", 1, false),
        ("Bernd", "532", 1, false),
    ],
    // Bernd's Schock 4 in 2 Würfe: Anna takes the last 3
    &[
        ("Bernd", "114", 2, false),
        ("Carla", "643", 1, false),
        ("Anna", "631", 2, false),
    ],
    // Anna's assembled Schock Out: Carla's assembled 2-2-2 (Hausnummer 222) takes all
    &[
        ("Anna", "111", 3, false),
        ("Bernd", "665", 2, false),
        ("Carla", "222", 3, false),
    ],
    // Finale Bernd against Carla, Auswürfeln from Carla: Bernd's 655 costs Carla 1
    &[("Carla", "653", 1, false), ("Bernd", "655", 1, false)],
    // Carla's Hand-Out: Bernd takes all, loses the Finale and the Runde
    &[("Carla", "111", 1, false), ("Bernd", "532", 1, false)],
];

const NAMES: [&str; 3] = ["Anna", "Bernd", "Carla"];

/// Starts the Runde of [`RUNDE`] at [`PAGE`]: Anna, Bernd and Carla, Anna Vorleger (303 asserted).
pub(crate) async fn start_runde(t: &TestApp, cookie: &str) {
    let r = t
        .post_fields(
            &format!("{PAGE}/start"),
            &[
                ("spieler", "Anna"),
                ("spieler", "Bernd"),
                ("spieler", "Carla"),
                ("vorleger", "Anna"),
            ],
            Some(cookie),
        )
        .await;
    assert_eq!(r.status, StatusCode::SEE_OTHER, "{}", r.body);
}

/// Starts and plays every Wurfrunde of [`RUNDE`] (each 303 asserted): the Runde waits for its
/// confirm, Bernd its loser.
pub(crate) async fn play_runde(t: &TestApp, cookie: &str) {
    start_runde(t, cookie).await;
    for (seq, rows) in RUNDE.iter().enumerate() {
        let r = post_wurfrunde(t, cookie, seq, rows).await;
        assert_eq!(r.status, StatusCode::SEE_OTHER, "{seq}: {}", r.body);
    }
}

#[tokio::test]
async fn a_whole_runde_through_the_schockbesteck() {
    let mut t = prepared().await;

    // Without login every page and action sends to the login page and changes nothing.
    for uri in ["start", "wurfrunde", "zurueck", "verwerfen", "bestaetigen"] {
        let r = t
            .post_fields(&format!("{PAGE}/{uri}"), &[("seq", "0")], None)
            .await;
        assert_eq!(r.status, StatusCode::SEE_OTHER, "{uri}");
        assert_eq!(r.location(), Some("/login"), "{uri}");
    }
    let r = t.get(PAGE, None).await;
    assert_eq!(r.location(), Some("/login"));

    let cookie = t.login(SECRETARY).await;
    // the night page links a logged-in secretary to the Schockbesteck
    let night = t.get("/abend/2026-01-09", Some(&cookie)).await.body;
    assert!(
        night.contains("href=\"/verwaltung/besteck/2026-01-09\""),
        "{night}"
    );

    // The night's overview lists table 1 with its four players and the round links.
    let r = t.get("/verwaltung/besteck/2026-01-09", Some(&cookie)).await;
    assert_eq!(r.status, StatusCode::OK);
    assert!(r.body.contains("Anna, Bernd, Carla, Dirk"), "{}", r.body);
    assert!(r.body.contains("Runde 1</a> (eingetragen)"), "{}", r.body);
    assert!(r.body.contains(&format!("href=\"{PAGE}\"")));
    // unknown table / round number beyond the night: 404
    assert_eq!(
        t.get("/verwaltung/besteck/2026-01-09/2/1", Some(&cookie))
            .await
            .status,
        StatusCode::NOT_FOUND
    );
    assert_eq!(
        t.get("/verwaltung/besteck/2026-01-09/1/11", Some(&cookie))
            .await
            .status,
        StatusCode::NOT_FOUND
    );

    // Start: the start form offers the table's players; Dirk sits this round out.
    let r = t.get(PAGE, Some(&cookie)).await;
    assert!(r.body.contains("Runde beginnen"));
    assert!(r.body.contains("value=\"Dirk\""));
    let r = t
        .post_fields(
            &format!("{PAGE}/start"),
            &[
                ("spieler", "Anna"),
                ("spieler", "Bernd"),
                ("vorleger", "Dirk"),
            ],
            Some(&cookie),
        )
        .await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(r.body.contains("Der Vorleger muss mitspielen."));
    let r = t
        .post_fields(
            &format!("{PAGE}/start"),
            &[
                ("spieler", "Anna"),
                ("spieler", "Bernd"),
                ("spieler", "Carla"),
                ("vorleger", "Anna"),
            ],
            Some(&cookie),
        )
        .await;
    assert_eq!(r.status, StatusCode::SEE_OTHER, "{}", r.body);
    assert_eq!(r.location(), Some(PAGE));
    let r = t.get(PAGE, Some(&cookie)).await;
    assert!(r.body.contains("Hälfte 1 – Auswürfeln"), "{}", r.body);
    assert_eq!(deckel_and_stock(&r.body, &NAMES), (vec![0, 0, 0], Some(13)));
    assert!(!r.body.contains("data-player=\"Dirk\""));

    // Wurfrunden 1–3, with the page after each: (Deckel of Anna, Bernd, Carla; stock; text shown)
    let expected: [(Vec<u32>, Option<u32>, &str); 3] = [
        (
            vec![0, 0, 0],
            Some(13),
            "Bernd nimmt alle 13 Deckel (Schock Out von Anna). <strong>Bernd hat Hälfte 1 verloren.</strong>",
        ),
        (vec![0, 0, 3], Some(10), "Carla nimmt 3 Deckel aus dem Stock."),
        (vec![0, 7, 3], Some(3), "Bernd nimmt 7 Deckel aus dem Stock."),
    ];
    for (seq, (deckel, stock, text)) in expected.into_iter().enumerate() {
        let r = post_wurfrunde(&t, &cookie, seq, RUNDE[seq]).await;
        assert_eq!(r.status, StatusCode::SEE_OTHER, "{seq}: {}", r.body);
        let page = t.get(PAGE, Some(&cookie)).await.body;
        assert_eq!(deckel_and_stock(&page, &NAMES), (deckel, stock), "{seq}");
        assert!(page.contains(text), "{seq}: {page}");
    }
    let page = t.get(PAGE, Some(&cookie)).await.body;
    assert!(page.contains("Hälfte 1 verloren: Bernd"));
    assert!(page.contains("Carla: Jule"), "{page}");

    // A rebuilt app on the same file (a server restart) shows the same Runde; the session survives.
    t.restart().await;
    let page = t.get(PAGE, Some(&cookie)).await.body;
    assert_eq!(
        deckel_and_stock(&page, &NAMES),
        (vec![0, 7, 3], Some(3)),
        "{page}"
    );
    assert!(page.contains("Wurfrunde 4</h2>"), "{page}");

    // A rule broken: 3 Würfe after the Vorleger's 2 → 422, the message, the typed dice kept.
    let r = post_wurfrunde(
        &t,
        &cookie,
        3,
        &[
            ("Bernd", "114", 2, false),
            ("Carla", "643", 1, false),
            ("Anna", "631", 3, false),
        ],
    )
    .await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(
        r.body
            .contains("Spieler Anna, Wurf 3: mehr Würfe als der Vorleger (2)"),
        "{}",
        r.body
    );
    assert!(r.body.contains("name=\"w2\" value=\"631\""));
    // dice that are not three digits, and a thrower out of turn
    let r = post_wurfrunde(
        &t,
        &cookie,
        3,
        &[
            ("Bernd", "14", 2, false),
            ("Carla", "643", 1, false),
            ("Anna", "631", 2, false),
        ],
    )
    .await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(
        r.body.contains("Spieler Bernd: 2 Augenzahlen"),
        "{}",
        r.body
    );
    let r = post_wurfrunde(
        &t,
        &cookie,
        3,
        &[("Anna", "631", 1, false), ("Bernd", "114", 1, false)],
    )
    .await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(
        r.body.contains("als 1. wirft Bernd, nicht Anna"),
        "{}",
        r.body
    );
    let page = t.get(PAGE, Some(&cookie)).await.body;
    assert_eq!(deckel_and_stock(&page, &NAMES), (vec![0, 7, 3], Some(3)));

    // A typo: Carla 5-3-2 instead of 6-4-3 makes her take the last 3 …
    let typo = [
        ("Bernd", "114", 2, false),
        ("Carla", "532", 1, false),
        ("Anna", "631", 2, false),
    ];
    let r = post_wurfrunde(&t, &cookie, 3, &typo).await;
    assert_eq!(r.status, StatusCode::SEE_OTHER);
    // … a second tap of the same form is stale and changes nothing …
    let r = post_wurfrunde(&t, &cookie, 3, &typo).await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(r.body.contains("nicht mehr aktuell"), "{}", r.body);
    let page = t.get(PAGE, Some(&cookie)).await.body;
    assert_eq!(deckel_and_stock(&page, &NAMES), (vec![0, 7, 6], Some(0)));
    // … so the last Wurfrunde is taken back: the state before it, its throws in the form.
    let r = t
        .post_fields(&format!("{PAGE}/zurueck"), &[("seq", "3")], Some(&cookie))
        .await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY, "stale seq");
    let r = t
        .post_fields(&format!("{PAGE}/zurueck"), &[("seq", "4")], Some(&cookie))
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    assert!(r.body.contains("Wurfrunde 4 ist zurückgenommen"));
    assert!(r.body.contains("name=\"w1\" value=\"532\""), "{}", r.body);
    assert!(
        r.body.contains("<option value=\"2\" selected>"),
        "{}",
        r.body
    );
    assert_eq!(deckel_and_stock(&r.body, &NAMES), (vec![0, 7, 3], Some(3)));
    let page = t.get(PAGE, Some(&cookie)).await.body;
    assert_eq!(deckel_and_stock(&page, &NAMES), (vec![0, 7, 3], Some(3)));

    // The rest of the Runde, corrected.
    let expected: [(Vec<u32>, Option<u32>, &str); 4] = [
        (vec![3, 7, 3], Some(0), "Anna nimmt 3 Deckel aus dem Stock."),
        (vec![0, 0, 0], Some(13), "Carla hat Hälfte 2 verloren."),
        (
            vec![0, 0, 1],
            Some(12),
            "Carla nimmt 1 Deckel aus dem Stock.",
        ),
        (vec![0, 0, 0], None, "Bernd hat Finale verloren."),
    ];
    for (k, (deckel, stock, text)) in expected.into_iter().enumerate() {
        let seq = 3 + k;
        let r = post_wurfrunde(&t, &cookie, seq, RUNDE[seq]).await;
        assert_eq!(r.status, StatusCode::SEE_OTHER, "{seq}: {}", r.body);
        let page = t.get(PAGE, Some(&cookie)).await.body;
        assert_eq!(deckel_and_stock(&page, &NAMES), (deckel, stock), "{seq}");
        assert!(page.contains(text), "{seq}: {page}");
        if seq == 4 {
            assert!(page.contains("Finale: Bernd gegen Carla"), "{page}");
            assert!(page.contains("spielt das Finale nicht"));
            assert!(page.contains("Finale – Auswürfeln"));
        }
    }

    // The finished Runde: its loser, and the result form filled from the throws.
    let page = t.get(PAGE, Some(&cookie)).await.body;
    assert!(
        page.contains("<strong>Bernd</strong> verliert die Runde"),
        "{page}"
    );
    assert!(page.contains("Ergebnis von Runde 2 speichern"));
    // (player, outs, hand_outs, julen) as prefilled
    for (p, outs, hand, julen) in [("Anna", 2, 1, 0), ("Bernd", 0, 0, 0), ("Carla", 1, 1, 1)] {
        let anchor = format!("<tr data-player=\"{p}\" data-outs");
        assert_eq!(data_after(&page, &anchor, "outs"), Some(outs), "{p}");
        assert_eq!(data_after(&page, &anchor, "hand-outs"), Some(hand), "{p}");
        assert_eq!(data_after(&page, &anchor, "julen"), Some(julen), "{p}");
    }
    let id = player_ids(&t).await;
    assert!(page.contains(&format!("name=\"lost\" value=\"{}\" checked", id["Bernd"])));

    // The same throws through the engine directly give the same tallies.
    let mut engine = RundeState::new(
        NAMES.iter().map(|s| s.to_string()).collect(),
        RuleSet::default(),
    )
    .unwrap();
    for rows in RUNDE {
        let throws = rows
            .iter()
            .map(|(p, d, n, hand)| {
                let dice: Vec<u8> = d.bytes().map(|b| b - b'0').collect();
                ThrowInput::from_dice(p, [dice[0], dice[1], dice[2]], *n, *n == 1 || *hand)
            })
            .collect();
        engine.apply(throws).unwrap();
    }
    let from_engine: Vec<ResultEntry> = engine
        .tallies()
        .into_iter()
        .map(|t| ResultEntry {
            joker: t.player == "Anna",
            player: t.player,
            outs: t.outs,
            hand_outs: t.hand_outs,
            julen: t.julen,
            lost: t.lost,
        })
        .collect();

    // Confirming with a second Joker for Carla is refused by the league's checks; nothing stored.
    let r = t
        .post_fields(
            &format!("{PAGE}/bestaetigen"),
            &[("seq", "7"), (&format!("joker_{}", id["Carla"]), "1")],
            Some(&cookie),
        )
        .await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(
        r.body.contains(
            "Abend 09.01.2026, Tisch 1, Runde 2, Spieler Carla, Feld Joker: hat an diesem Abend schon eine Joker-Runde (Tisch 1, Runde 1)"
        ),
        "{}",
        r.body
    );
    assert!(
        r.body.contains(&format!(
            "name=\"joker_{}\" value=\"1\" checked",
            id["Carla"]
        )),
        "the typed Joker is kept"
    );
    let stored = db::season::load_file(&t.db.read, 2026)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(stored.nights[0].tables[0].rounds.len(), 1);

    // The night is closed meanwhile: saving needs the Korrektur box and a reason (422, the
    // typed Joker kept, nothing stored); with them it is stored and the correction audited.
    let r = t
        .post(
            "/verwaltung/abend/2026-01-09/abschliessen",
            "sicher=1",
            Some(&cookie),
        )
        .await;
    assert_eq!(r.status, StatusCode::SEE_OTHER);
    let page = t.get(PAGE, Some(&cookie)).await;
    assert!(
        page.body.contains("name=\"korrektur_grund\""),
        "{}",
        page.body
    );
    assert!(
        page.body.contains("id=\"abgeschlossen\""),
        "the closed night is said at the top: {}",
        page.body
    );
    let night_page = t.get("/verwaltung/abend/2026-01-09", Some(&cookie)).await;
    assert!(night_page
        .body
        .contains("href=\"/verwaltung/besteck/2026-01-09\""));
    for extra in [
        vec![],
        vec![("korrektur_grund", "vergessen")],
        vec![("korrektur", "on"), ("korrektur_grund", " ")],
    ] {
        let anna = format!("joker_{}", id["Anna"]);
        let mut pairs = vec![("seq", "7"), (anna.as_str(), "1")];
        pairs.extend(extra.iter().copied());
        let r = t
            .post_fields(&format!("{PAGE}/bestaetigen"), &pairs, Some(&cookie))
            .await;
        assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY, "{extra:?}");
        assert!(r.body.contains("Korrektur"), "{}", r.body);
        assert!(r.body.contains(&format!(
            "name=\"joker_{}\" value=\"1\" checked",
            id["Anna"]
        )));
    }
    let stored = db::season::load_file(&t.db.read, 2026)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(stored.nights[0].tables[0].rounds.len(), 1);

    // Confirm with Anna's Joker; tampered numbers and loser are ignored.
    let r = t
        .post_fields(
            &format!("{PAGE}/bestaetigen"),
            &[
                ("korrektur", "on"),
                ("korrektur_grund", "Runde 2 nachgetragen"),
                ("seq", "7"),
                (&format!("joker_{}", id["Anna"]), "1"),
                (&format!("outs_{}", id["Anna"]), "3"),
                (&format!("hand_outs_{}", id["Bernd"]), "1"),
                (&format!("julen_{}", id["Carla"]), "0"),
                ("lost", &id["Anna"].to_string()),
            ],
            Some(&cookie),
        )
        .await;
    assert_eq!(r.status, StatusCode::SEE_OTHER, "{}", r.body);
    assert_eq!(
        r.location(),
        Some("/verwaltung/besteck/2026-01-09/1/3?gespeichert=2")
    );
    let stored = db::season::load_file(&t.db.read, 2026)
        .await
        .unwrap()
        .unwrap();
    let rounds = &stored.nights[0].tables[0].rounds;
    assert_eq!(rounds.len(), 2);
    assert_eq!(rounds[1].number, 2);
    let audit: Vec<(String, String)> = sqlx::query_as(
        "select user, action from audit_log where action like 'Korrektur%'
         or action like 'Runde 2 an Tisch 1%' or after_json like '%\"round\":2,%' order by id",
    )
    .fetch_all(&t.db.read)
    .await
    .unwrap();
    let actions: Vec<&str> = audit.iter().map(|(_, a)| a.as_str()).collect();
    let mut want = vec!["Korrektur eines abgeschlossenen Spielabends: Runde 2 nachgetragen"];
    want.extend(vec!["Ergebnis eingetragen"; rounds[1].results.len()]);
    want.push("Runde 2 an Tisch 1 am 09.01.2026 aus dem Schockbesteck gespeichert");
    assert_eq!(actions, want);
    assert!(audit.iter().all(|(u, _)| u == "schrift"), "{audit:?}");
    let want = vec![
        ResultEntry {
            player: "Anna".into(),
            outs: 2,
            hand_outs: 1,
            julen: 0,
            joker: true,
            lost: false,
        },
        ResultEntry {
            player: "Bernd".into(),
            outs: 0,
            hand_outs: 0,
            julen: 0,
            joker: false,
            lost: true,
        },
        ResultEntry {
            player: "Carla".into(),
            outs: 1,
            hand_outs: 1,
            julen: 1,
            joker: false,
            lost: false,
        },
    ];
    assert_eq!(rounds[1].results, want);
    assert_eq!(rounds[1].results, from_engine);

    // The Runde in progress is gone: round 2 offers a new start and says it is entered.
    let r = t
        .get(
            "/verwaltung/besteck/2026-01-09/1/3?gespeichert=2",
            Some(&cookie),
        )
        .await;
    assert!(r.body.contains("Runde 2 ist gespeichert."), "{}", r.body);
    let page = t.get(PAGE, Some(&cookie)).await.body;
    assert!(page.contains("Runde beginnen"));
    assert!(page.contains("Runde 2 ist an diesem Tisch schon eingetragen"));
    // and the public night page shows it
    let public = t.get("/abend/2026-01-09", None).await.body;
    assert!(public.contains("Runde 2"), "{public}");
}

#[tokio::test]
async fn a_runde_can_be_discarded() {
    let t = prepared().await;
    let cookie = t.login(SECRETARY).await;
    let page = "/verwaltung/besteck/2026-01-09/1/5";
    let r = t
        .post_fields(
            &format!("{page}/start"),
            &[
                ("spieler", "Dirk"),
                ("spieler", "Bernd"),
                ("vorleger", "Dirk"),
            ],
            Some(&cookie),
        )
        .await;
    assert_eq!(r.status, StatusCode::SEE_OTHER);
    let body = t.get(page, Some(&cookie)).await.body;
    // seat order of the table from the Vorleger: Dirk, then Bernd
    let (d, b) = (
        body.find("name=\"p0\" value=\"Dirk\""),
        body.find("name=\"p1\" value=\"Bernd\""),
    );
    assert!(d.is_some() && b.is_some(), "{body}");
    // starting twice is refused
    let r = t
        .post_fields(
            &format!("{page}/start"),
            &[
                ("spieler", "Dirk"),
                ("spieler", "Bernd"),
                ("vorleger", "Dirk"),
            ],
            Some(&cookie),
        )
        .await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(r.body.contains("Runde 5 läuft schon."));
    let overview = t
        .get("/verwaltung/besteck/2026-01-09", Some(&cookie))
        .await
        .body;
    assert!(overview.contains("Runde 5</a> (läuft)"), "{overview}");
    let r = t
        .post(&format!("{page}/verwerfen"), "", Some(&cookie))
        .await;
    assert_eq!(r.status, StatusCode::SEE_OTHER);
    assert!(t
        .get(page, Some(&cookie))
        .await
        .body
        .contains("Runde beginnen"));
}

/// Player ids by name, as stored.
async fn player_ids(t: &TestApp) -> std::collections::HashMap<String, i64> {
    let mut conn = t.db.read.acquire().await.unwrap();
    let mut ids = std::collections::HashMap::new();
    for name in ["Anna", "Bernd", "Carla", "Dirk"] {
        let (id, _) = db::player::by_name(&mut conn, name).await.unwrap().unwrap();
        ids.insert(name.to_string(), id);
    }
    ids
}

#[tokio::test]
async fn the_round_form_does_not_offer_or_take_a_round_running_in_the_schockbesteck() {
    // Issue 21.5: the round form proposed the round number running in the Schockbesteck and a
    // save collided with it. Now it proposes the next other one, says which runs, and refuses it.
    let t = prepared().await;
    let cookie = t.login(SECRETARY).await;
    let night = "/verwaltung/abend/2026-01-09";
    let proposed = |body: &str| -> u32 {
        let at = body
            .find("name=\"number\" min=\"1\" value=\"")
            .expect("round field");
        let rest = &body[at + "name=\"number\" min=\"1\" value=\"".len()..];
        rest[..rest.find('"').unwrap()].parse().unwrap()
    };
    let before = t.get(night, Some(&cookie)).await.body;
    let n = proposed(&before);
    let page = format!("/verwaltung/besteck/2026-01-09/1/{n}");
    let r = t
        .post_fields(
            &format!("{page}/start"),
            &[
                ("spieler", "Dirk"),
                ("spieler", "Bernd"),
                ("vorleger", "Dirk"),
            ],
            Some(&cookie),
        )
        .await;
    assert_eq!(r.status, StatusCode::SEE_OTHER, "{}", r.body);
    let after = t.get(night, Some(&cookie)).await.body;
    assert_ne!(proposed(&after), n, "{after}");
    assert!(
        after.contains(&format!(
            "id=\"laeuft-1-{n}\">Runde {n} läuft im <a href=\"{page}\">"
        )),
        "{after}"
    );
    // Sending that number anyway is refused, nothing stored; the Runde keeps running.
    let ids = player_ids(&t).await;
    let (dirk, bernd) = (ids["Dirk"], ids["Bernd"]);
    let r = t
        .post_round(
            &format!("{night}/runde"),
            &RoundForm::at_table(1, n)
                .played(dirk)
                .played(bernd)
                .lost(dirk),
            Some(&cookie),
        )
        .await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", r.body);
    assert!(
        r.body.contains(&format!(
            "Tisch 1, Runde {n}: diese Runde läuft gerade im Schockbesteck."
        )),
        "{}",
        r.body
    );
    assert!(t
        .get("/verwaltung/besteck/2026-01-09", Some(&cookie))
        .await
        .body
        .contains(&format!("Runde {n}</a> (läuft)")));
}

#[tokio::test]
async fn the_json_api_and_the_paper_sheet_do_not_store_a_round_running_in_the_schockbesteck() {
    // Issue 33.5: the refusal of a round still running in the Schockbesteck lived in the round
    // form's and the scorer link's handlers only; the JSON API and the Bogen stored round 2 while
    // it was played throw by throw. It belongs to the write pipeline, beside the other checks.
    let t = prepared().await;
    let cookie = t.login(SECRETARY).await;
    start_runde(&t, &cookie).await;
    let stored = |t: &TestApp| {
        let snapshot = t.league.snapshot();
        let (_, night) = snapshot
            .night("2026-01-09".parse().unwrap())
            .expect("the night");
        night
            .tables
            .iter()
            .flat_map(|t| t.rounds.iter().map(|r| r.number))
            .collect::<Vec<u32>>()
    };
    assert_eq!(stored(&t), [1]);
    let results = serde_json::json!({ "results": [
        { "player": "Anna", "outs": 1, "hand_outs": 0, "lost": false },
        { "player": "Bernd", "outs": 0, "hand_outs": 0, "lost": true },
        { "player": "Carla", "outs": 0, "hand_outs": 0, "lost": false } ] });
    let r = t
        .post_json(
            "/api/v1/nights/2026-01-09/tables/1/rounds/2",
            results.to_string(),
            Some(&cookie),
        )
        .await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", r.body);
    assert!(
        r.json()["error"]
            .as_str()
            .unwrap()
            .contains("Tisch 1, Runde 2: diese Runde läuft gerade im Schockbesteck."),
        "{}",
        r.body
    );
    assert_eq!(stored(&t), [1], "nothing stored through the API");
    // The paper sheet of table 1 holds round 2 (not entered yet): its seats 0..3 are Anna,
    // Bernd, Carla, Dirk; Bernd loses.
    let mut f: Vec<(String, String)> = Vec::new();
    for seat in 0..3 {
        f.push((format!("m2_{seat}"), "1".into()));
    }
    f.push(("o2_0".into(), "1".into()));
    f.push(("v2".into(), "1".into()));
    let r = t
        .post_fields("/verwaltung/abend/2026-01-09/bogen/1", &f, Some(&cookie))
        .await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", r.body);
    assert!(
        r.body
            .contains("Tisch 1, Runde 2: diese Runde läuft gerade im Schockbesteck."),
        "{}",
        r.body
    );
    assert_eq!(stored(&t), [1], "nothing stored from the sheet");
    // The Runde keeps running.
    assert!(t
        .get("/verwaltung/besteck/2026-01-09", Some(&cookie))
        .await
        .body
        .contains("Runde 2</a> (läuft)"));
}
