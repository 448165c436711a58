//! The live board pushed (issue 26.4): `/live/{date}/ereignisse` is a Server-Sent Events stream
//! that says `stand` after a round of that night is stored (and not for another night), its
//! listeners are capped (503 in German), and `/live` without a date shows tonight's night, or the
//! next one; the board carries each table's running tally.

use std::time::Duration;

use axum::body::{Body, Bytes};
use axum::http::{Response, StatusCode};
use http_body_util::BodyExt;
use schockerliga::league::change::Replace;
use schockerliga::league::model::file::{ResultEntry, SeasonFile};
use schockerliga::league::Change;
use schockerliga::service::live::{MAX_LISTENERS, MAX_PER_CLIENT};
use schockerliga::service::Edit;
use tower::ServiceExt;

use crate::app::{get, TestApp};
use crate::besteck::prepared;

const EVENTS: &str = "/live/2026-01-09/ereignisse";

/// Opens the stream at `uri` (the response, its body not read).
async fn open(t: &TestApp, uri: &str) -> Response<Body> {
    t.router.clone().oneshot(get(uri, None)).await.unwrap()
}

/// Opens the stream at `uri` from peer address `peer` (the response, its body not read).
async fn open_from(t: &TestApp, uri: &str, peer: [u8; 4]) -> Response<Body> {
    let mut r = get(uri, None);
    r.extensions_mut()
        .insert(axum::extract::ConnectInfo(std::net::SocketAddr::from((
            peer, 40000,
        ))));
    t.router.clone().oneshot(r).await.unwrap()
}

/// The peer address of the `i`th of many clients (each holds at most `MAX_PER_CLIENT` streams).
fn client(i: usize) -> [u8; 4] {
    [10, 1, 0, u8::try_from(i / MAX_PER_CLIENT).unwrap()]
}

/// Reads the body until the text holds `want` or `within` passes; returns what came.
async fn read_until(body: &mut Body, want: &str, within: Duration) -> String {
    let mut text = String::new();
    let _ = tokio::time::timeout(within, async {
        while let Some(frame) = body.frame().await {
            if let Ok(data) = frame.unwrap().into_data() {
                let data: Bytes = data;
                text.push_str(&String::from_utf8_lossy(&data));
                if text.contains(want) {
                    break;
                }
            }
        }
    })
    .await;
    text
}

/// Round `number` at table 1 of 2026-01-09 (Bernd loses, Anna 2 Outs), through the pipeline.
async fn store_round(t: &TestApp, date: &str, number: u32) {
    let row = |player: &str, outs: u32, lost: bool| ResultEntry {
        player: player.into(),
        outs,
        hand_outs: 0,
        julen: 0,
        joker: false,
        lost,
    };
    t.league
        .change(
            2026,
            Change::PutRound {
                date: date.parse().unwrap(),
                table: 1,
                number,
                results: vec![
                    row("Anna", 2, false),
                    row("Bernd", 0, true),
                    row("Carla", 0, false),
                    row("Dirk", 1, false),
                ],
                replace: Replace::No,
                seat_newcomers: false,
                schockbesteck: None,
            },
            &Edit::by("test"),
        )
        .await
        .unwrap();
}

#[tokio::test]
async fn a_stored_round_is_pushed_to_the_nights_listeners() {
    let t = prepared().await;
    let resp = open(&t, EVENTS).await;
    assert_eq!(resp.status(), StatusCode::OK);
    assert_eq!(
        resp.headers()["content-type"].to_str().unwrap(),
        "text/event-stream"
    );
    assert_eq!(resp.headers()["cache-control"], "no-store");
    let mut body = resp.into_body();
    let hello = read_until(&mut body, "\n\n", Duration::from_secs(2)).await;
    assert!(hello.contains("event: hallo"), "{hello}");
    assert!(hello.contains("retry: 3000"), "{hello}");
    // The test client (and every crawl of the route table) reads a stream up to its first event.
    let first = t.get(EVENTS, None).await;
    assert_eq!(first.status, StatusCode::OK);
    assert!(first.body.starts_with("event: hallo\n"), "{}", first.body);

    // Nothing happened: no event within a moment.
    let quiet = read_until(&mut body, "stand", Duration::from_millis(300)).await;
    assert!(!quiet.contains("event: stand"), "{quiet}");

    store_round(&t, "2026-01-09", 2).await;
    let pushed = read_until(&mut body, "2026-01-09\n\n", Duration::from_secs(2)).await;
    assert!(
        pushed.contains("event: stand\ndata: 2026-01-09\n\n"),
        "{pushed}"
    );

    // And the board it then reads shows the new round and the tally.
    let board = t.get("/live/2026-01-09", None).await;
    assert!(board.body.contains("Runde 2"), "{}", board.body);
    let v = t.get("/api/v1/nights/2026-01-09/live", None).await.json();
    let tally = &v["tables"][0]["tally"];
    assert_eq!(tally[0]["player"], "Anna");
    assert_eq!(tally[0]["outs"], 2);
    assert_eq!(tally[1]["player"], "Bernd");
    assert_eq!(tally[1]["outs"], 1, "round 1's Out");
    assert_eq!(tally[1]["paid"], 2, "lost both rounds");
    assert_eq!(tally[3]["outs"], 1);
    assert_eq!(tally[2]["paid"], 0);
}

#[tokio::test]
async fn another_nights_round_is_not_pushed() {
    let t = prepared().await;
    t.league
        .change(
            2026,
            Change::AddNight {
                date: "2026-01-16".parse().unwrap(),
            },
            &Edit::by("test"),
        )
        .await
        .unwrap();
    let mut body = open(&t, "/live/2026-01-16/ereignisse").await.into_body();
    read_until(&mut body, "\n\n", Duration::from_secs(2)).await;
    store_round(&t, "2026-01-09", 2).await;
    let quiet = read_until(&mut body, "stand", Duration::from_millis(500)).await;
    assert!(!quiet.contains("event: stand"), "{quiet}");
}

#[tokio::test]
async fn an_unknown_night_has_no_stream() {
    let t = prepared().await;
    let r = t.get("/live/2026-02-30/ereignisse", None).await;
    assert_ne!(r.status, StatusCode::OK);
    let r = t.get("/live/2026-01-10/ereignisse", None).await;
    assert_eq!(r.status, StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn listeners_are_capped_and_a_closed_stream_frees_its_place() {
    let t = prepared().await;
    let mut open_ones = Vec::new();
    // From many clients: one client holds at most MAX_PER_CLIENT (below).
    for i in 0..MAX_LISTENERS {
        let r = open_from(&t, EVENTS, client(i)).await;
        assert_eq!(r.status(), StatusCode::OK);
        open_ones.push(r);
    }
    assert_eq!(t.league.live_listeners(), MAX_LISTENERS);
    let refused = t.send_from(get(EVENTS, None), [10, 2, 0, 1]).await;
    assert_eq!(refused.status, StatusCode::SERVICE_UNAVAILABLE);
    assert_eq!(refused.header("retry-after"), Some("60"));
    assert!(
        refused.body.contains("Zu viele offene Live-Tafeln"),
        "{}",
        refused.body
    );
    // The page itself still works.
    assert_eq!(t.get("/live/2026-01-09", None).await.status, StatusCode::OK);
    open_ones.pop();
    assert_eq!(
        open_from(&t, EVENTS, client(MAX_LISTENERS - 1))
            .await
            .status(),
        StatusCode::OK
    );
    drop(open_ones);
    assert_eq!(t.league.live_listeners(), 0);
}

#[tokio::test]
async fn one_client_holds_at_most_its_share_of_the_streams() {
    // Issue 32.7: one client could hold all 500 streams and leave the club's TV without one.
    let t = prepared().await;
    let hog = [10, 3, 0, 1];
    let mut open_ones = Vec::new();
    for _ in 0..MAX_PER_CLIENT {
        let r = open_from(&t, EVENTS, hog).await;
        assert_eq!(r.status(), StatusCode::OK);
        open_ones.push(r);
    }
    let refused = t.send_from(get(EVENTS, None), hog).await;
    assert_eq!(refused.status, StatusCode::TOO_MANY_REQUESTS);
    assert_eq!(refused.header("retry-after"), Some("60"));
    assert!(
        refused.body.contains("von diesem Anschluss"),
        "{}",
        refused.body
    );
    assert_eq!(t.league.live_listeners(), MAX_PER_CLIENT);
    // Everybody else still gets one.
    let tv = open_from(&t, EVENTS, [10, 3, 0, 2]).await;
    assert_eq!(tv.status(), StatusCode::OK);
    // A stream closed gives the client its place back.
    open_ones.pop();
    assert_eq!(open_from(&t, EVENTS, hog).await.status(), StatusCode::OK);
    drop(open_ones);

    // Behind a trusted proxy the client it forwards for counts, not the proxy.
    let file: SeasonFile = serde_json::from_str(crate::besteck::SEASON).unwrap();
    let t = TestApp::builder()
        .season(file)
        .trusted_proxy([127, 0, 0, 1])
        .start()
        .await;
    let via_proxy = |client: &str| {
        let mut r = get(EVENTS, None);
        r.headers_mut()
            .insert("x-forwarded-for", client.parse().unwrap());
        r.extensions_mut()
            .insert(axum::extract::ConnectInfo(std::net::SocketAddr::from((
                [127, 0, 0, 1],
                40000,
            ))));
        t.router.clone().oneshot(r)
    };
    let mut open_ones = Vec::new();
    for _ in 0..MAX_PER_CLIENT {
        let r = via_proxy("198.51.100.1").await.unwrap();
        assert_eq!(r.status(), StatusCode::OK);
        open_ones.push(r);
    }
    let refused = via_proxy("198.51.100.1").await.unwrap();
    assert_eq!(refused.status(), StatusCode::TOO_MANY_REQUESTS);
    let other = via_proxy("198.51.100.2").await.unwrap();
    assert_eq!(other.status(), StatusCode::OK);
}

#[tokio::test]
async fn live_without_a_date_shows_tonight_or_the_next_night() {
    let today = crate::app::club_today();
    let day = |offset: i64| (today + chrono::Duration::days(offset)).to_string();
    let file = |dates: &[String]| -> SeasonFile {
        let year: i32 = dates[0][..4].parse().unwrap();
        let nights: Vec<String> = dates
            .iter()
            .map(|d| format!(r#"{{ "date": "{d}", "tables": [] }}"#))
            .collect();
        serde_json::from_str(&format!(
            r#"{{ "format": "schockerliga-season/1", "season": {year}, "rules": {{}},
                 "players": [ {{ "name": "Anna" }} ], "nights": [ {} ] }}"#,
            nights.join(",")
        ))
        .unwrap()
    };
    // Keep all dates in today's year (a test at New Year's Eve uses earlier days only).
    let same_year = |d: &str| d[..4] == today.to_string()[..4];
    let (later, earlier) = (day(3), day(-3));
    let (tonight, iso) = (day(0), today.to_string());
    let live = |t: &TestApp| {
        let t = t.router.clone();
        async move {
            let resp = t.oneshot(get("/live", None)).await.unwrap();
            let status = resp.status();
            let body = resp.into_body().collect().await.unwrap().to_bytes();
            (status, String::from_utf8_lossy(&body).into_owned())
        }
    };
    let nights: Vec<String> = [earlier.clone(), tonight.clone(), later.clone()]
        .into_iter()
        .filter(|d| same_year(d))
        .collect();
    let t = TestApp::with_seasons(&[file(&nights)]).await;
    let (status, body) = live(&t).await;
    assert_eq!(status, StatusCode::OK);
    assert!(
        body.contains(&format!("data-ereignisse=\"/live/{iso}/ereignisse\"")),
        "tonight: {body}"
    );
    // While the night runs the table links to the board.
    let home = t.get("/", None).await;
    assert!(home.body.contains("href=\"/live\""), "{}", home.body);
    if same_year(&later) {
        let t = TestApp::with_seasons(&[file(std::slice::from_ref(&later))]).await;
        let (_, body) = live(&t).await;
        assert!(
            body.contains(&format!("/live/{later}/ereignisse")),
            "next night: {body}"
        );
        let home = t.get("/", None).await;
        assert!(!home.body.contains("href=\"/live\""), "{}", home.body);
    }
    let t = TestApp::empty().await;
    assert_eq!(live(&t).await.0, StatusCode::NOT_FOUND);
}

/// Fresh-user trial (sixth): the live board's "bezahlt" counted every lost round, so a Sozialfall
/// who lost 4 rounds read 4 on the bar's screen while the night's page, the report and his page
/// say 3 (league.md §7: at most `sozialfall_after` paid rounds a night). The tally says both.
#[tokio::test]
async fn the_live_tally_pays_a_sozialfall_at_most_three_rounds() {
    let t = prepared().await;
    for number in 2..=5 {
        store_round(&t, "2026-01-09", number).await;
    }
    let v = t.get("/api/v1/nights/2026-01-09/live", None).await.json();
    let bernd = &v["tables"][0]["tally"][1];
    assert_eq!(bernd["player"], "Bernd");
    assert_eq!(bernd["lost"], 5, "round 1 and rounds 2-5 lost");
    assert_eq!(bernd["paid"], 3, "a Sozialfall pays at most 3 rounds");
    let page = t.get("/live/2026-01-09", None).await;
    assert!(
        page.body
            .contains("<td>Bernd</td><td class=\"num\">1</td><td class=\"num\">0</td><td class=\"num\">0</td><td class=\"num\">3"),
        "{}",
        page.body
    );
}

/// The Schock-Out moment (issue 38.4): a stored round's Schock Outs come as `moment` events (with
/// their key as the event id) before its `stand`; a stream opened later, or opened again with a
/// Last-Event-ID, never gets the moments that were there when it opened; the page says the last
/// one without JavaScript.
#[tokio::test]
async fn a_schock_out_comes_once_as_a_moment_and_not_again_after_a_reconnect() {
    let t = prepared().await;
    let mut first = open(&t, EVENTS).await.into_body();
    read_until(&mut first, "\n\n", Duration::from_secs(2)).await;
    store_round(&t, "2026-01-09", 2).await;
    let pushed = read_until(&mut first, "event: stand", Duration::from_secs(2)).await;
    for key in ["t1-r2-Anna-out-1", "t1-r2-Anna-out-2", "t1-r2-Dirk-out-1"] {
        assert!(
            pushed.contains(&format!("event: moment\nid: {key}\ndata: {{")),
            "{key}: {pushed}"
        );
    }
    assert!(pushed.contains("\"text\":\"Schock Out! Anna\""), "{pushed}");
    assert!(pushed.contains("\"text\":\"Schock Out! Dirk\""), "{pushed}");
    let page = t.get("/live/2026-01-09", None).await;
    assert!(
        page.body.contains("Zuletzt: Schock Out von Dirk (Runde 2"),
        "{}",
        page.body
    );

    // Connected again (the browser sends the last id it saw), and a reload without one: round
    // 2's moments are not news; round 3's are, once.
    let mut again = get(EVENTS, None);
    again
        .headers_mut()
        .insert("last-event-id", "t1-r2-Anna-out-1".parse().unwrap());
    let mut again = t.router.clone().oneshot(again).await.unwrap().into_body();
    read_until(&mut again, "\n\n", Duration::from_secs(2)).await;
    let mut reload = open(&t, EVENTS).await.into_body();
    read_until(&mut reload, "\n\n", Duration::from_secs(2)).await;
    store_round(&t, "2026-01-09", 3).await;
    for body in [&mut first, &mut again, &mut reload] {
        let pushed = read_until(body, "event: stand", Duration::from_secs(2)).await;
        assert!(!pushed.contains("-r2-"), "{pushed}");
        assert_eq!(pushed.matches("event: moment").count(), 3, "{pushed}");
        assert!(pushed.contains("id: t1-r3-Dirk-out-1"), "{pushed}");
    }
}

/// The Schock-Out moment from the Schockbesteck (issue 38.4): Anna's Hand-Out in the first
/// Wurfrunde shouts at once, before the Runde is stored; a stream opened after it gets only
/// what comes later (Carla's Jule), and the page's line names the last one.
#[tokio::test]
async fn a_hand_out_in_the_schockbesteck_shouts_at_once_and_once() {
    use crate::besteck::{post_wurfrunde, start_runde, RUNDE};
    let t = prepared().await;
    let cookie = t.login(crate::app::SECRETARY).await;
    start_runde(&t, &cookie).await;
    let mut first = open(&t, EVENTS).await.into_body();
    read_until(&mut first, "\n\n", Duration::from_secs(2)).await;
    let r = post_wurfrunde(&t, &cookie, 0, RUNDE[0]).await;
    assert_eq!(r.status, StatusCode::SEE_OTHER, "{}", r.body);
    let pushed = read_until(&mut first, "event: stand", Duration::from_secs(2)).await;
    assert!(
        pushed.contains("event: moment\nid: t1-r2-Anna-hand-1\n"),
        "{pushed}"
    );
    assert!(
        pushed.contains("\"text\":\"Schock Out aus der Hand! Anna\""),
        "{pushed}"
    );
    let page = t.get("/live/2026-01-09", None).await.body;
    assert!(
        page.contains("Zuletzt: Schock Out aus der Hand von Anna (Runde 2)"),
        "{page}"
    );

    let mut reload = open(&t, EVENTS).await.into_body();
    read_until(&mut reload, "\n\n", Duration::from_secs(2)).await;
    for (i, w) in RUNDE.iter().enumerate().skip(1).take(2) {
        let r = post_wurfrunde(&t, &cookie, i, w).await;
        assert_eq!(r.status, StatusCode::SEE_OTHER, "{}", r.body);
    }
    let later = read_until(&mut reload, "t1-r2-Carla-jule-1", Duration::from_secs(2)).await;
    assert!(later.contains("\"text\":\"Jule! Carla\""), "{later}");
    assert!(!later.contains("Anna-hand"), "{later}");
}
