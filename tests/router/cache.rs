//! The season cache and its invalidation: every write to a season's data bumps exactly that
//! season's change counter (triggers), and the public table, the player page and the standings JSON
//! show a submitted round right after it was submitted — also when the write came from another
//! connection (the command line).

use axum::http::StatusCode;
use schockerliga::db::{self, Db};
use schockerliga::demo::{league, DemoSpec};
use schockerliga::league::model::file::{ResultEntry, SeasonFile};
use schockerliga::league::{self, Season};
use schockerliga::service;
use serde_json::Value;

use crate::app::{json, Reply, TestApp};

const SPEC: DemoSpec = DemoSpec {
    seasons: 2,
    nights: 4,
    players: 12,
    seed: 11,
    last_year: 2026,
    besteck_nights: 0,
};

/// An app on the demo league of [`SPEC`] with a secretary `schreiber`, and the league's files.
async fn filled() -> (TestApp, Vec<SeasonFile>) {
    let files = league(&SPEC);
    let t = TestApp::builder()
        .seasons(files.clone())
        .account("schreiber", "secretary")
        .start()
        .await;
    (t, files)
}

/// Posts round `number` at `table` of the night `date` to the JSON API.
async fn post_round(
    t: &TestApp,
    cookie: &str,
    date: &str,
    table: u32,
    number: u32,
    results: &[ResultEntry],
) -> Reply {
    let body = serde_json::json!({ "results": results }).to_string();
    // The round is entered already: replaced only when asked (If-Match, a lost-update guard).
    let mut r = json(
        &format!("/api/v1/nights/{date}/tables/{table}/rounds/{number}"),
        body,
        Some(cookie),
    );
    r.headers_mut().insert(
        axum::http::header::IF_MATCH,
        axum::http::HeaderValue::from_static("*"),
    );
    t.send(r).await
}

fn standings_json(file: &SeasonFile) -> Value {
    let season = Season::from_file(file).unwrap();
    serde_json::to_value(league::standings(&season, None)).unwrap()
}

/// Round 1 at table 1 of the season's first night, replaced: the table's first player loses it
/// with 3 Hand-Outs, everyone else 0 Outs.
fn changed_round(file: &SeasonFile) -> (String, Vec<ResultEntry>) {
    let night = &file.nights[0];
    let round = &night.tables[0].rounds[0];
    let results = round
        .results
        .iter()
        .enumerate()
        .map(|(i, r)| ResultEntry {
            player: r.player.clone(),
            outs: if i == 0 { 3 } else { 0 },
            hand_outs: if i == 0 { 3 } else { 0 },
            julen: 0,
            joker: false,
            lost: i == 0,
        })
        .collect();
    (night.date.to_string(), results)
}

fn apply(file: &SeasonFile, results: &[ResultEntry]) -> SeasonFile {
    let mut f = file.clone();
    f.nights[0].tables[0].rounds[0].results = results.to_vec();
    f
}

#[tokio::test]
async fn a_submitted_round_shows_at_once_on_table_player_page_and_json() {
    let (t, files) = filled().await;
    let current = files.last().unwrap();

    // Warm the cache: the first reads compute and keep the season.
    let Reply {
        status: s,
        body: before,
        ..
    } = t.get("/api/v1/seasons/2026/standings", None).await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(
        serde_json::from_str::<Value>(&before).unwrap(),
        standings_json(current)
    );
    let Reply {
        status: s,
        body: table_before,
        ..
    } = t.get("/", None).await;
    assert_eq!(s, StatusCode::OK);

    let (date, results) = changed_round(current);
    let changed = apply(current, &results);
    let expected = standings_json(&changed);
    assert_ne!(expected, standings_json(current), "the change must matter");

    let loser = results[0].player.clone();
    let loser_id = {
        let db = Db::open(&t.path).await.unwrap();
        let mut conn = db.read.acquire().await.unwrap();
        db::player::by_name(&mut conn, &loser)
            .await
            .unwrap()
            .unwrap()
            .0
    };
    let player_uri = format!("/saison/2026/spieler/{loser_id}");
    let Reply {
        status: s,
        body: player_before,
        ..
    } = t.get(&player_uri, None).await;
    assert_eq!(s, StatusCode::OK);

    let cookie = t.login("schreiber").await;
    let Reply {
        status: s, body, ..
    } = post_round(&t, &cookie, &date, 1, 1, &results).await;
    assert_eq!(s, StatusCode::OK, "{body}");

    // His page lists round 1 of that night with 3 Outs, all Hand-Outs, lost.
    let Reply {
        status: _,
        body: player_after,
        ..
    } = t.get(&player_uri, None).await;
    assert_ne!(player_before, player_after);
    let line = "<tr><td class=\"num\">1</td><td class=\"num\">3</td><td class=\"num\">3</td><td class=\"num\">0</td><td></td><td>bezahlt</td></tr>";
    let first_night = player_after.rsplit("<h2>").next().unwrap();
    assert!(first_night.contains(line), "{first_night}");

    let Reply {
        status: _,
        body: after,
        ..
    } = t.get("/api/v1/seasons/2026/standings", None).await;
    assert_eq!(serde_json::from_str::<Value>(&after).unwrap(), expected);

    // The table page shows the loser's new counted Outs in his row.
    let Reply {
        status: _,
        body: table_after,
        ..
    } = t.get("/", None).await;
    assert_ne!(table_before, table_after);
    let row = expected["rows"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["player"] == results[0].player.as_str())
        .unwrap()
        .clone();
    // His row: the name cell (with its progress badge), then Teilnahmen and Outs.
    let name = format!(">{}</a>", results[0].player);
    let at = table_after.find(&name).expect("his row");
    let rest = &table_after[at..];
    let row_html = &rest[..rest.find("</tr>").unwrap_or(rest.len())];
    let cell = format!(
        "</td><td class=\"num narrow-hide\">{}</td><td class=\"num narrow-hide\">{}</td>",
        format!("{:.2}", row["teilnahmen"].as_f64().unwrap()).replace('.', ","),
        row["counted_outs"]
    );
    assert!(row_html.contains(&cell), "{cell} not in {row_html}");

    // The export (database truth) has the round as submitted.
    let db = Db::open(&t.path).await.unwrap();
    let stored = service::export(&db, 2026).await.unwrap();
    assert_eq!(stored.nights[0].tables[0].rounds[0].results, results);

    // The older season is untouched and still served.
    let Reply {
        status: _,
        body: old,
        ..
    } = t.get("/api/v1/seasons/2025/standings", None).await;
    assert_eq!(
        serde_json::from_str::<Value>(&old).unwrap(),
        standings_json(&files[0])
    );
}

#[tokio::test]
async fn a_refused_round_stores_nothing_and_says_why() {
    let (t, files) = filled().await;
    let current = files.last().unwrap();
    let cookie = t.login("schreiber").await;
    let (date, mut results) = changed_round(current);
    // (change, expected status, needle in the message)
    type Change = Box<dyn Fn(&mut Vec<ResultEntry>)>;
    let cases: Vec<(Change, StatusCode, &str)> = vec![
        (
            Box::new(|r| r[0].outs = 4),
            StatusCode::UNPROCESSABLE_ENTITY,
            "höchstens 3 Outs",
        ),
        (
            Box::new(|r| r[1].lost = true),
            StatusCode::UNPROCESSABLE_ENTITY,
            "",
        ),
        (
            Box::new(|r| r[0].player = "Niemand".into()),
            StatusCode::UNPROCESSABLE_ENTITY,
            "Niemand",
        ),
    ];
    let before = t.get("/api/v1/seasons/2026/standings", None).await.body;
    for (change, status, needle) in cases {
        let mut rows = results.clone();
        change(&mut rows);
        let Reply {
            status: s, body, ..
        } = post_round(&t, &cookie, &date, 1, 1, &rows).await;
        assert_eq!(s, status, "{body}");
        assert!(body.contains(needle), "{body}");
        assert_eq!(
            t.get("/api/v1/seasons/2026/standings", None).await.body,
            before
        );
    }
    // Not logged in: no write.
    results[0].outs = 1;
    let s = t
        .post_json(
            &format!("/api/v1/nights/{date}/tables/1/rounds/1"),
            serde_json::json!({ "results": results }).to_string(),
            None,
        )
        .await
        .status;
    assert!(s.is_redirection() || s == StatusCode::UNAUTHORIZED, "{s}");
    assert_eq!(
        t.get("/api/v1/seasons/2026/standings", None).await.body,
        before
    );
}

#[tokio::test]
async fn a_write_from_another_connection_invalidates_the_cache() {
    let (t, files) = filled().await;
    let current = files.last().unwrap();
    let Reply {
        status: _,
        body: before,
        ..
    } = t.get("/api/v1/seasons/2026/standings", None).await;
    assert_eq!(
        serde_json::from_str::<Value>(&before).unwrap(),
        standings_json(current)
    );
    // Like `schockerliga import --replace` from the command line: another process, another pool.
    let (_, results) = changed_round(current);
    let changed = apply(current, &results);
    let other = Db::open(&t.path).await.unwrap();
    service::import(&other, &changed, true).await.unwrap();
    let Reply {
        status: _,
        body: after,
        ..
    } = t.get("/api/v1/seasons/2026/standings", None).await;
    assert_eq!(
        serde_json::from_str::<Value>(&after).unwrap(),
        standings_json(&changed)
    );
}

#[tokio::test]
async fn every_write_to_a_season_bumps_only_its_counter() {
    let (t, _) = filled().await;
    let db = t.db.clone();
    let night_2026 = "(select min(id) from nights where season = 2026)";
    let round_2026 = format!("(select min(id) from rounds where night_id = {night_2026})");
    // Each statement touches season 2026 only (player 1 plays in both seasons: the rename is
    // expected to bump both).
    let cases: Vec<(String, bool)> = vec![
        ("update seasons set rules_json = '{}' where year = 2026".into(), false),
        ("update seasons set carry_in_cents = 500 where year = 2026".into(), false),
        ("update season_players set fee_paid_on = '2026-02-02' where season = 2026 and player_id = 1".into(), false),
        ("insert into nights (season, date) values (2026, '2026-12-30')".into(), false),
        ("update nights set closed = 1 where date = '2026-12-30'".into(), false),
        (format!("update night_participants set seat = seat where night_id = {night_2026}"), false),
        (format!("insert into fines (night_id, player_id, kind, amount_cents, paid) values ({night_2026}, 1, 'late', 100, 0)"), false),
        (format!("update fines set paid = 1 where night_id = {night_2026}"), false),
        (format!("delete from fines where night_id = {night_2026}"), false),
        (format!("update results set outs = outs where round_id = {round_2026}"), false),
        (format!("delete from results where round_id = {round_2026} and position = 0"), false),
        (format!("update rounds set number = number where id = {round_2026}"), false),
        (format!("delete from rounds where id = {round_2026}"), false),
        (format!("delete from night_participants where night_id = {night_2026} and player_id = (select min(player_id) from night_participants where night_id = {night_2026})"), false),
        ("delete from nights where date = '2026-12-30'".into(), false),
        ("delete from season_players where season = 2026 and player_id = 2".into(), false),
        ("update players set name = 'Anna-Lena' where id = 1".into(), true),
    ];
    let version = |year: i32| {
        let db = db.clone();
        async move {
            let mut conn = db.read.acquire().await.unwrap();
            db::version::of_season(&mut conn, year)
                .await
                .unwrap()
                .unwrap()
        }
    };
    for (sql, both) in cases {
        let (a, b) = (version(2026).await, version(2025).await);
        let done = sqlx::query(&sql).execute(&db.write).await.unwrap();
        assert!(done.rows_affected() > 0, "{sql}: changed nothing");
        assert!(version(2026).await > a, "{sql}: 2026 not bumped");
        assert_eq!(version(2025).await > b, both, "{sql}: 2025");
    }
    // A season that does not exist has no counter; a new one starts with one.
    let mut conn = db.read.acquire().await.unwrap();
    assert_eq!(db::version::of_season(&mut conn, 2030).await.unwrap(), None);
    drop(conn);
    sqlx::query("insert into seasons (year) values (2030)")
        .execute(&db.write)
        .await
        .unwrap();
    assert!(version(2030).await > 0);
    let mut conn = db.read.acquire().await.unwrap();
    let years: Vec<i32> = db::version::all(&mut conn)
        .await
        .unwrap()
        .into_iter()
        .map(|(y, _)| y)
        .collect();
    assert_eq!(years, vec![2030, 2026, 2025]);
}

#[tokio::test]
async fn a_write_from_another_process_shows_within_the_recheck_time() {
    use sqlx::{ConnectOptions, Connection};
    let (t, _) = filled().await;
    let Reply {
        status: _,
        body: before,
        ..
    } = t.get("/api/v1/seasons/2026/standings", None).await;
    assert!(!before.contains("Zacharias"));
    // A bare connection with none of this process's hooks: like another program writing.
    let mut other = sqlx::sqlite::SqliteConnectOptions::new()
        .filename(&t.path)
        .connect()
        .await
        .unwrap();
    sqlx::query(
        "update players set name = 'Zacharias' where id =
         (select player_id from results r join rounds x on x.id = r.round_id
          join nights n on n.id = x.night_id where n.season = 2026 limit 1)",
    )
    .execute(&mut other)
    .await
    .unwrap();
    other.close().await.unwrap();
    tokio::time::sleep(
        schockerliga::service::snapshot::SEEN_WITHIN + std::time::Duration::from_millis(100),
    )
    .await;
    let Reply {
        status: _,
        body: after,
        ..
    } = t.get("/api/v1/seasons/2026/standings", None).await;
    assert!(after.contains("Zacharias"), "{after}");
}

#[tokio::test]
async fn pages_go_out_gzipped_to_a_client_that_asks_and_read_the_same() {
    let (t, _) = filled().await;
    for uri in [
        "/saison/2026",
        "/api/v1/seasons/2026/standings",
        "/static/style.css",
    ] {
        let plain = t.get(uri, None).await;
        assert_eq!(plain.status, StatusCode::OK, "{uri}");
        assert!(plain.header("content-encoding").is_none(), "{uri}");
        let r = t
            .send(
                crate::app::req("GET", uri)
                    .header("accept-encoding", "gzip")
                    .body(axum::body::Body::empty())
                    .unwrap(),
            )
            .await;
        assert_eq!(r.status, StatusCode::OK, "{uri}");
        assert_eq!(r.header("content-encoding"), Some("gzip"), "{uri}");
        assert!(
            r.header("vary")
                .is_some_and(|v| v.contains("accept-encoding")),
            "{uri}: a shared cache must keep both"
        );
        assert_eq!(r.body, plain.body, "{uri}: the same page");
        assert!(
            r.bytes.len() * 2 < plain.bytes.len(),
            "{uri}: {} of {} bytes",
            r.bytes.len(),
            plain.bytes.len()
        );
    }
}
