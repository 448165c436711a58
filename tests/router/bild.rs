//! The picture a pasted link shows (issue 38.3): the table, a played night and a planned night
//! carry `og:title`, `og:description` and, with an HTTPS `--public-url`, an absolute `og:image`;
//! the image is a 1200×630 PNG under 300 KB whose drawing holds the five names and D.Werte of
//! the night's report, and a correction gives it a new name.

use axum::http::StatusCode;
use schockerliga::league::change::Replace;
use schockerliga::league::{Change, Korrektur};
use schockerliga::service::Edit;
use schockerliga::web::public::bild;

use crate::app::{encode, season_file, TestApp, SECRETARY};

/// The `content` of `<meta property="{property}" …>` in `body`.
fn meta(body: &str, property: &str) -> Option<String> {
    let at = body.find(&format!("<meta property=\"{property}\" content=\""))?;
    let rest = &body[at..];
    let start = rest.find("content=\"")? + 9;
    let end = start + rest[start..].find('"')?;
    Some(rest[start..end].replace("&amp;", "&"))
}

async fn png(t: &TestApp, url: &str) -> (Vec<u8>, String) {
    let path = url.strip_prefix("https://liga.example").unwrap();
    let r = t.send(crate::app::get(path, None)).await;
    assert_eq!(r.status, StatusCode::OK, "{path}");
    assert_eq!(r.header("content-type"), Some("image/png"));
    let cache = r.header("cache-control").unwrap().to_string();
    (r.bytes.to_vec(), cache)
}

#[tokio::test]
async fn the_table_and_a_night_carry_their_picture_and_a_correction_renames_it() {
    let t = TestApp::builder()
        .staff()
        .season(season_file("sample-2026", None))
        .public_url("https://liga.example")
        .start()
        .await;
    let page = t.get("/saison/2026", None).await;
    assert_eq!(
        meta(&page.body, "og:title").as_deref(),
        Some("Schockerliga: Tabelle 2026")
    );
    assert!(meta(&page.body, "og:description")
        .unwrap()
        .starts_with("1. "));
    let image = meta(&page.body, "og:image").unwrap();
    assert!(
        image.starts_with("https://liga.example/bild/saison/2026/"),
        "{image}"
    );
    let (bytes, cache) = png(&t, &image).await;
    assert!(bytes.len() < 300 * 1024, "{} bytes", bytes.len());
    let pixmap = resvg::tiny_skia::Pixmap::decode_png(&bytes).unwrap();
    assert_eq!((pixmap.width(), pixmap.height()), (1200, 630));
    assert!(cache.contains("immutable"), "{cache}");
    let home = t.get("/", None).await;
    assert_eq!(meta(&home.body, "og:image"), Some(image.clone()));

    // A played night: its drawing holds the five names and D.Werte of its report.
    let night = t.get("/abend/2026-01-09", None).await;
    let night_image = meta(&night.body, "og:image").unwrap();
    let report = t.get("/abende/2026-01-09/bericht.txt", None).await.body;
    let snapshot = t.league.snapshot();
    let drawing =
        bild::svg(&bild::night_picture(&snapshot, "2026-01-09".parse().unwrap()).unwrap());
    assert!(
        night_image.ends_with(&format!("/{}.png", bild::name(&drawing))),
        "{night_image}"
    );
    let top: Vec<&str> = report
        .lines()
        .skip_while(|l| !l.starts_with("Tabelle nach dem Abend"))
        .filter(|l| l.contains(" – D.Wert "))
        .collect();
    assert_eq!(top.len(), 5, "{report}");
    for line in top {
        let (place_name, rest) = line.split_once(" – D.Wert ").unwrap();
        let dwert = rest.split(' ').next().unwrap();
        assert!(
            drawing.contains(&format!(">{place_name}<")),
            "{place_name} in {drawing}"
        );
        assert!(
            drawing.contains(&format!(">{dwert}<")),
            "{dwert} in {drawing}"
        );
    }
    let (bytes, _) = png(&t, &night_image).await;
    assert!(bytes.len() < 300 * 1024);
    assert_eq!(
        meta(
            &t.get("/abend/2026-01-09/bericht", None).await.body,
            "og:image"
        ),
        Some(night_image.clone())
    );

    // A correction of that night: a new name for both pictures; the old name shows the new
    // drawing, not kept.
    let round = t
        .league
        .snapshot()
        .night("2026-01-09".parse().unwrap())
        .unwrap()
        .1
        .tables[0]
        .rounds[0]
        .clone();
    let mut results = round.results.clone();
    let scorer = results.iter_mut().find(|r| r.outs < 3).unwrap();
    scorer.outs += 1;
    let results = results
        .into_iter()
        .map(|r| serde_json::from_value(serde_json::to_value(r).unwrap()).unwrap())
        .collect();
    t.league
        .change(
            2026,
            Change::PutRound {
                date: "2026-01-09".parse().unwrap(),
                table: 1,
                number: round.number,
                results,
                replace: Replace::Any,
                seat_newcomers: false,
                schockbesteck: None,
            },
            &Edit::by("test").korrektur(Korrektur::because("Zählfehler")),
        )
        .await
        .unwrap();
    let after = meta(&t.get("/abend/2026-01-09", None).await.body, "og:image").unwrap();
    assert_ne!(after, night_image);
    let old = t
        .send(crate::app::get(
            night_image.strip_prefix("https://liga.example").unwrap(),
            None,
        ))
        .await;
    assert_eq!(old.status, StatusCode::FOUND);
    assert_eq!(
        old.header("location"),
        after.rsplit('/').next(),
        "the old name leads to the current picture"
    );

    // A planned night: day, place and forecast.
    let sec = t.login(SECRETARY).await;
    let plan = encode(&[
        ("datum", "2027-01-08"),
        ("zeit", "19:30"),
        ("ort", "Zum Anker"),
    ]);
    assert_eq!(
        t.post("/verwaltung/termine", &plan, Some(&sec))
            .await
            .status,
        StatusCode::SEE_OTHER
    );
    let planned = t.get("/abend/2027-01-08", None).await.body;
    assert_eq!(
        meta(&planned, "og:title").as_deref(),
        Some("Schocken: wer kommt?")
    );
    let description = meta(&planned, "og:description").unwrap();
    assert!(
        description.contains("Freitag, 08.01.2027, 19:30 Uhr"),
        "{description}"
    );
    assert!(
        description.contains("0 Zusagen, 0 Absagen · voraussichtlich 1 Tisch"),
        "{description}"
    );
    assert!(
        !description.contains("  ") && !description.ends_with(' '),
        "{description}"
    );
    assert!(meta(&planned, "og:image")
        .unwrap()
        .starts_with("https://liga.example/bild/abend/2027-01-08/"));
}

#[tokio::test]
async fn without_an_https_public_address_there_is_no_picture_address() {
    let t = TestApp::with_seasons(&[season_file("sample-2026", None)]).await;
    let page = t.get("/saison/2026", None).await;
    assert!(meta(&page.body, "og:title").is_some());
    assert!(meta(&page.body, "og:image").is_none(), "{}", page.body);
    assert_eq!(
        t.get("/bild/saison/2031/x.png", None).await.status,
        StatusCode::NOT_FOUND
    );
    // A long name stays inside the picture: cut, and drawn smaller.
    let picture = bild::Picture {
        title: "Tabelle".into(),
        lines: vec![("1. ".to_string() + &"W".repeat(60), "9,99".into())],
        footer: String::new(),
    };
    let drawing = bild::svg(&picture);
    assert!(drawing.contains("font-size=\"24\""), "{drawing}");
    assert!(!drawing.contains(&"W".repeat(31)), "{drawing}");
}

/// The 38 trial: a pasted link carried its picture but no `og:url`, so a chat showed the
/// preview under whatever address it had been pasted with. With an HTTPS `--public-url` each
/// page with a picture names its own absolute address; without one, none.
#[tokio::test]
async fn a_page_with_a_picture_names_its_own_address() {
    let t = TestApp::builder()
        .staff()
        .season(season_file("sample-2026", None))
        .public_url("https://liga.example")
        .start()
        .await;
    for path in [
        "/saison/2026",
        "/abend/2026-01-09",
        "/abend/2026-01-09/bericht",
    ] {
        let page = t.get(path, None).await;
        assert_eq!(
            meta(&page.body, "og:url"),
            Some(format!("https://liga.example{path}")),
            "{path}"
        );
    }
    let plain = TestApp::builder()
        .season(season_file("sample-2026", None))
        .start()
        .await;
    let page = plain.get("/saison/2026", None).await;
    assert!(meta(&page.body, "og:title").is_some());
    assert_eq!(meta(&page.body, "og:url"), None);
}
