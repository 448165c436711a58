//! Corrections of a night (issue 11.4): a round, a fine or a night entered by mistake is removed,
//! a round entered at the wrong table is moved; each through the write pipeline, audited (one row
//! per removed result), through the Korrektur on a closed night, and stored once however often
//! the form is sent. The JSON API's `DELETE` of a round.

use axum::body::Body;
use axum::http::StatusCode;
use sqlx::SqlitePool;

use crate::app::*;

const NIGHT: &str = "2026-01-02";

async fn last_audit_id(pool: &SqlitePool) -> i64 {
    let (n,): (i64,) = sqlx::query_as("select coalesce(max(id), 0) from audit_log")
        .fetch_one(pool)
        .await
        .unwrap();
    n
}

/// (user, action, before) of the audit rows after `since`.
async fn audit_since(pool: &SqlitePool, since: i64) -> Vec<(String, String, Option<String>)> {
    sqlx::query_as("select user, action, before_json from audit_log where id > ? order by id")
        .bind(since)
        .fetch_all(pool)
        .await
        .unwrap()
}

/// The rows stored for round `number` at `table` of `NIGHT`.
async fn rows_of(pool: &SqlitePool, table: i64, number: i64) -> i64 {
    let (n,): (i64,) = sqlx::query_as(
        "select count(*) from results x join rounds r on r.id = x.round_id
         join nights n on n.id = r.night_id where n.date = ? and r.table_no = ? and r.number = ?",
    )
    .bind(NIGHT)
    .bind(table)
    .bind(number)
    .fetch_one(pool)
    .await
    .unwrap();
    n
}

async fn count(pool: &SqlitePool, sql: &str) -> i64 {
    let (n,): (i64,) = sqlx::query_as(sql).fetch_one(pool).await.unwrap();
    n
}

#[tokio::test]
async fn a_deleted_round_leaves_one_audit_row_per_result_and_a_reload_deletes_nothing_more() {
    let t = TestApp::small_season().await;
    let cookie = t.login(SECRETARY).await;
    let results = rows_of(&t.db.read, 1, 3).await;
    assert!(results >= 2);
    let since = last_audit_id(&t.db.read).await;
    let path = format!("/verwaltung/abend/{NIGHT}/runde/1/3/loeschen");
    // Without the confirmation: refused in German, nothing stored.
    let r = t.post(&path, "einmal=aa11", Some(&cookie)).await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(
        r.body.contains("„Ja, Runde 3 löschen“ ankreuzen"),
        "{}",
        r.body
    );
    assert_eq!(rows_of(&t.db.read, 1, 3).await, results);
    // Confirmed: gone, one row per removed result, naming the secretary.
    let body = "einmal=bb22&sicher=1";
    let r = t.post(&path, body, Some(&cookie)).await;
    assert_eq!(r.status, StatusCode::SEE_OTHER, "{}", r.body);
    assert_eq!(rows_of(&t.db.read, 1, 3).await, 0);
    let audit = audit_since(&t.db.read, since).await;
    assert_eq!(audit.len() as i64, results, "{audit:?}");
    for (user, action, before) in &audit {
        assert_eq!(
            (user.as_str(), action.as_str()),
            (SECRETARY, "Ergebnis gelöscht")
        );
        let before = before.as_deref().unwrap();
        assert!(before.contains("\"table\":1,\"round\":3"), "{before}");
    }
    // The same form again (a reload): the first answer, nothing more happens.
    let page = t.post_follow(&path, body, &cookie).await;
    assert!(page.body.contains("Schon gespeichert"), "{}", page.body);
    assert_eq!(audit_since(&t.db.read, since).await.len() as i64, results);
    // A fresh token on a round that is gone: refused, nothing stored.
    let r = t.post(&path, "einmal=cc33&sicher=1", Some(&cookie)).await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(
        r.body.contains("Runde 3 ist nicht eingetragen"),
        "{}",
        r.body
    );
    // The public night page no longer shows round 3.
    let page = t.get(&format!("/abend/{NIGHT}"), None).await;
    assert_eq!(page.status, StatusCode::OK);
}

#[tokio::test]
async fn a_closed_night_is_corrected_only_with_the_korrektur() {
    let t = TestApp::small_season().await;
    let cookie = t.login(SECRETARY).await;
    let r = t
        .post(
            &format!("/verwaltung/abend/{NIGHT}/abschliessen"),
            "sicher=1",
            Some(&cookie),
        )
        .await;
    assert_eq!(r.status, StatusCode::SEE_OTHER);
    let path = format!("/verwaltung/abend/{NIGHT}/runde/1/5/loeschen");
    let r = t.post(&path, "sicher=1", Some(&cookie)).await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(r.body.contains("Korrektur"), "{}", r.body);
    assert!(rows_of(&t.db.read, 1, 5).await > 0, "nothing removed");
    let r = t
        .post(
            &path,
            "sicher=1&korrektur=on&korrektur_grund=doppelt%20eingetragen",
            Some(&cookie),
        )
        .await;
    assert_eq!(r.status, StatusCode::SEE_OTHER, "{}", r.body);
    assert_eq!(rows_of(&t.db.read, 1, 5).await, 0);
    let corrections = count(
        &t.db.read,
        "select count(*) from night_corrections where reason = 'doppelt eingetragen' and active = 0",
    )
    .await;
    assert_eq!(corrections, 1);
}

#[tokio::test]
async fn a_fine_and_a_night_are_removed_with_their_audit_rows() {
    let t = TestApp::small_season().await;
    let cookie = t.login(SECRETARY).await;
    let fines = "select count(*) from fines f join nights n on n.id = f.night_id where n.date = '2026-01-02'";
    assert_eq!(count(&t.db.read, fines).await, 1);
    let (fine,): (i64,) = sqlx::query_as(
        "select f.id from fines f join nights n on n.id = f.night_id where n.date = ?",
    )
    .bind(NIGHT)
    .fetch_one(&t.db.read)
    .await
    .unwrap();
    let since = last_audit_id(&t.db.read).await;
    let r = t
        .post(
            &format!("/verwaltung/abend/{NIGHT}/strafe/{fine}/loeschen"),
            "einmal=dd44&sicher=1",
            Some(&cookie),
        )
        .await;
    assert_eq!(r.status, StatusCode::SEE_OTHER, "{}", r.body);
    assert_eq!(count(&t.db.read, fines).await, 0);
    let audit = audit_since(&t.db.read, since).await;
    let actions: Vec<&str> = audit.iter().map(|a| a.1.as_str()).collect();
    assert_eq!(actions, ["Strafe gelöscht"]);
    // The whole night: every result and the night's summary row; the season page follows.
    let results = count(
        &t.db.read,
        "select count(*) from results x join rounds r on r.id = x.round_id join nights n on n.id = r.night_id where n.date = '2026-01-02'",
    )
    .await;
    let since = last_audit_id(&t.db.read).await;
    let r = t
        .post(
            &format!("/verwaltung/abend/{NIGHT}/loeschen"),
            "einmal=ee55&sicher=1",
            Some(&cookie),
        )
        .await;
    assert_eq!(r.status, StatusCode::SEE_OTHER, "{}", r.body);
    assert_eq!(r.location(), Some("/verwaltung/saison/2026"));
    let audit = audit_since(&t.db.read, since).await;
    let removed = audit.iter().filter(|a| a.1 == "Ergebnis gelöscht").count() as i64;
    assert_eq!(removed, results);
    assert_eq!(
        audit.last().map(|a| a.1.as_str()),
        Some("Spielabend 02.01.2026 gelöscht")
    );
    assert_eq!(
        count(
            &t.db.read,
            "select count(*) from nights where date = '2026-01-02'"
        )
        .await,
        0
    );
    let page = t
        .get(&format!("/verwaltung/abend/{NIGHT}"), Some(&cookie))
        .await;
    assert_eq!(page.status, StatusCode::NOT_FOUND);
    let table = t.get("/saison/2026", None).await;
    assert_eq!(table.status, StatusCode::OK);
}

#[tokio::test]
async fn the_json_api_deletes_a_round_as_it_was_seen() {
    let t = TestApp::small_season().await;
    let cookie = t.login(SECRETARY).await;
    let uri = format!("/api/v1/nights/{NIGHT}/tables/1/rounds/7");
    let seen = t.get(&uri, None).await;
    assert_eq!(seen.status, StatusCode::OK);
    let etag = seen.header("etag").unwrap().to_string();
    let delete = |if_match: &str, cookie: Option<&str>| {
        let mut r = req("DELETE", &uri);
        if !if_match.is_empty() {
            r = r.header("if-match", if_match);
        }
        if let Some(c) = cookie {
            r = r.header("cookie", c);
        }
        r.body(Body::empty()).unwrap()
    };
    // Anonymous: no.
    let r = t.send(delete("", None)).await;
    assert_ne!(r.status, StatusCode::OK);
    assert!(rows_of(&t.db.read, 1, 7).await > 0);
    // Another version: 409, nothing removed.
    let r = t.send(delete("\"r0000000000000000\"", Some(&cookie))).await;
    assert_eq!(r.status, StatusCode::CONFLICT, "{}", r.body);
    assert!(rows_of(&t.db.read, 1, 7).await > 0);
    let since = last_audit_id(&t.db.read).await;
    let results = rows_of(&t.db.read, 1, 7).await;
    let r = t.send(delete(&etag, Some(&cookie))).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    assert_eq!(r.json()["deleted"], true);
    assert_eq!(rows_of(&t.db.read, 1, 7).await, 0);
    assert_eq!(audit_since(&t.db.read, since).await.len() as i64, results);
    let r = t.send(delete("", Some(&cookie))).await;
    assert_eq!(r.status, StatusCode::NOT_FOUND, "{}", r.body);
    assert_eq!(t.get(&uri, None).await.status, StatusCode::NOT_FOUND);
}

/// The `If-Match` of a round's DELETE is checked against the round as stored when the change is
/// written, not against the page's snapshot: a round changed by another process (the snapshot
/// still shows the old one) is not removed with the old ETag (issue 20).
#[tokio::test]
async fn a_stale_if_match_delete_is_refused_in_the_write_transaction() {
    let t = TestApp::small_season().await;
    let cookie = t.login(SECRETARY).await;
    let uri = format!("/api/v1/nights/{NIGHT}/tables/1/rounds/7");
    let seen = t.get(&uri, None).await;
    assert_eq!(seen.status, StatusCode::OK);
    let etag = seen.header("etag").unwrap().to_string();
    // Another process changes the round (one more Jule for one player): the database has the new
    // round, this server's snapshot still the old one.
    sqlx::query(
        "update results set julen = julen + 1 where position = 0 and round_id = (select r.id
         from rounds r join nights n on n.id = r.night_id
         where n.date = ? and r.table_no = 1 and r.number = 7)",
    )
    .bind(NIGHT)
    .execute(&t.db.write)
    .await
    .unwrap();
    let results = rows_of(&t.db.read, 1, 7).await;
    let r = t
        .send(
            req("DELETE", &uri)
                .header("if-match", &etag)
                .header("cookie", &cookie)
                .body(Body::empty())
                .unwrap(),
        )
        .await;
    assert_eq!(r.status, StatusCode::CONFLICT, "{}", r.body);
    assert!(r.body.contains("inzwischen geändert"), "{}", r.body);
    assert_eq!(rows_of(&t.db.read, 1, 7).await, results, "nothing removed");
}

/// Eleven players, nine drawn at one table on 09.01.2026.
fn eleven() -> schockerliga::league::model::file::SeasonFile {
    let names = [
        "Anna", "Bernd", "Carla", "Dieter", "Elke", "Frank", "Gabi", "Hans", "Ilse", "Jörg", "Kurt",
    ];
    let players: Vec<_> = names
        .iter()
        .map(|n| serde_json::json!({ "name": n }))
        .collect();
    serde_json::from_value(serde_json::json!({
        "format": "schockerliga-season/1", "season": 2026,
        "players": players, "nights": [ { "date": "2026-01-09", "draw": names[..9].iter()
            .map(|n| serde_json::json!({ "player": n, "table": 1 })).collect::<Vec<_>>() } ],
    }))
    .unwrap()
}

#[tokio::test]
async fn a_round_sent_to_the_wrong_table_moves_with_its_players() {
    let t = TestApp::builder().staff().season(eleven()).start().await;
    let cookie = t.login(SECRETARY).await;
    // Jörg and Kurt open a second table, but their round 1 is sent as table 1's.
    let r = t
        .post_json(
            "/api/v1/nights/2026-01-09/tables/1/rounds/1",
            serde_json::json!({ "results": [
                { "player": "Jörg", "outs": 1, "hand_outs": 0, "lost": false },
                { "player": "Kurt", "outs": 0, "hand_outs": 0, "lost": true } ] })
            .to_string(),
            Some(&cookie),
        )
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    let since = last_audit_id(&t.db.read).await;
    // The night page offers the move (the round's players play nothing else at table 1).
    let page = t.get("/verwaltung/abend/2026-01-09", Some(&cookie)).await;
    assert!(
        page.body.contains("/runde/1/1/verschieben"),
        "{}",
        page.body
    );
    let path = "/verwaltung/abend/2026-01-09/runde/1/1/verschieben";
    let body = "einmal=mv1&nach=2&sicher=1";
    let r = t.post(path, body, Some(&cookie)).await;
    assert_eq!(r.status, StatusCode::SEE_OTHER, "{}", r.body);
    assert_eq!(r.location(), Some("/verwaltung/abend/2026-01-09#tisch-2"));
    let seats: Vec<(String, i64)> = sqlx::query_as(
        "select p.name, np.table_no from night_participants np join players p on p.id = np.player_id
         where p.name in ('Jörg', 'Kurt', 'Anna') order by p.name",
    )
    .fetch_all(&t.db.read)
    .await
    .unwrap();
    assert_eq!(
        seats,
        [("Anna".into(), 1), ("Jörg".into(), 2), ("Kurt".into(), 2)]
    );
    let (at1, at2) = (
        count(&t.db.read, "select count(*) from rounds where table_no = 1").await,
        count(&t.db.read, "select count(*) from rounds where table_no = 2").await,
    );
    assert_eq!((at1, at2), (0, 1));
    let audit = audit_since(&t.db.read, since).await;
    let actions: Vec<&str> = audit.iter().map(|a| a.1.as_str()).collect();
    assert_eq!(
        actions,
        ["Runde 1 am 09.01.2026 von Tisch 1 an Tisch 2 verschoben"]
    );
    assert!(audit[0].2.as_deref().unwrap().contains("\"table\":1"));
    // A reload moves nothing back or twice.
    let page = t.post_follow(path, body, &cookie).await;
    assert!(page.body.contains("Schon gespeichert"), "{}", page.body);
    assert_eq!(audit_since(&t.db.read, since).await.len(), 1);
    // Moving onto a round that is there: refused in German, nothing stored.
    let r = t
        .post_json(
            "/api/v1/nights/2026-01-09/tables/1/rounds/1",
            serde_json::json!({ "results": [
                { "player": "Anna", "outs": 0, "hand_outs": 0, "lost": true },
                { "player": "Bernd", "outs": 0, "hand_outs": 0, "lost": false } ] })
            .to_string(),
            Some(&cookie),
        )
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    let r = t
        .post(path, "einmal=mv2&nach=2&sicher=1", Some(&cookie))
        .await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(
        r.body.contains("An Tisch 2 ist Runde 1 schon eingetragen"),
        "{}",
        r.body
    );
    // A round whose players play other rounds at their table can never move: no button for it
    // (the two-phone trial was offered one and always refused).
    let r = t
        .post_json(
            "/api/v1/nights/2026-01-09/tables/1/rounds/2",
            serde_json::json!({ "results": [
                { "player": "Anna", "outs": 0, "hand_outs": 0, "lost": true },
                { "player": "Bernd", "outs": 0, "hand_outs": 0, "lost": false } ] })
            .to_string(),
            Some(&cookie),
        )
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    let page = t.get("/verwaltung/abend/2026-01-09", Some(&cookie)).await;
    assert!(
        !page.body.contains("/runde/1/1/verschieben"),
        "{}",
        page.body
    );
    assert!(
        !page.body.contains("/runde/1/2/verschieben"),
        "{}",
        page.body
    );
}

/// The ids of `names`, as stored.
async fn ids_of(t: &TestApp, names: &[&str]) -> Vec<i64> {
    let mut conn = t.db.read.acquire().await.unwrap();
    let mut ids = Vec::new();
    for name in names {
        let (id, _) = schockerliga::db::player::by_name(&mut conn, name)
            .await
            .unwrap()
            .unwrap();
        ids.push(id);
    }
    ids
}

/// Issue 32.4: a "Runde ersetzen" typed on a page opened before another secretary corrected the
/// same round (queued without network and sent later) overwrote the newer correction. The form
/// carries the version of each round it shows; a replacement of a round changed since is refused,
/// naming who changed it and what is there now, and nothing is stored; sent again from the page
/// of the refusal (the secretary has seen both), it is stored.
#[tokio::test]
async fn a_correction_from_an_older_page_does_not_overwrite_a_newer_correction() {
    let t = TestApp::small_season().await;
    let anna = t.login(SECRETARY).await;
    let night = format!("/verwaltung/abend/{NIGHT}");
    let action = format!("{night}/runde");
    let opened = t.get(&night, Some(&anna)).await;
    assert_eq!(opened.status, StatusCode::OK);
    let hidden = crate::late_arrival::hidden_fields(&opened.body, &action);
    // Round 1 of table 1 was Frank, Elke, Anna, Carla (Carla lost). Another secretary corrects
    // it: Frank 2 Outs, Elke lost.
    let ids = ids_of(&t, &["Frank", "Elke", "Anna", "Carla"]).await;
    t.create_account("bernd", "secretary").await;
    let bernd = t.login("bernd").await;
    let uri = format!("/api/v1/nights/{NIGHT}/tables/1/rounds/1");
    let newer = serde_json::json!({ "results": [
        { "player": "Frank", "outs": 2, "hand_outs": 0, "lost": false },
        { "player": "Elke", "outs": 0, "hand_outs": 0, "lost": true },
        { "player": "Anna", "outs": 0, "hand_outs": 0, "lost": false },
        { "player": "Carla", "outs": 1, "hand_outs": 0, "lost": false } ] });
    let r = t
        .send(
            req("POST", &uri)
                .header("content-type", "application/json")
                .header("if-match", "*")
                .header("cookie", &bernd)
                .body(Body::from(newer.to_string()))
                .unwrap(),
        )
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    let etag = t.get(&uri, None).await.header("etag").unwrap().to_string();
    // The older page's correction: Anna 3 Outs, Anna lost.
    let body = |hidden: &[(String, String)]| {
        ids.iter().enumerate().fold(
            RoundForm::number(1).hidden(hidden).replacing().lost(ids[2]),
            |f, (i, id)| f.row(*id, if i == 2 { 3 } else { 0 }),
        )
    };
    let r = t.post_round(&action, &body(&hidden), Some(&anna)).await;
    assert!(
        r.status == StatusCode::CONFLICT || r.status == StatusCode::UNPROCESSABLE_ENTITY,
        "{} {}",
        r.status,
        r.body
    );
    assert!(
        r.body
            .contains("Runde 1 wurde inzwischen von bernd geändert (jetzt verloren: Elke"),
        "{}",
        r.body
    );
    assert_eq!(
        t.get(&uri, None).await.header("etag"),
        Some(etag.as_str()),
        "the newer correction stays"
    );
    // What was typed is kept.
    assert!(
        r.body.contains(&format!(
            "name=\"outs_{}\" min=\"0\" max=\"3\" value=\"3\"",
            ids[2]
        )),
        "{}",
        r.body
    );
    // Sent again from the refusal's page, which shows the round as it is now: stored.
    let again = crate::late_arrival::hidden_fields(&r.body, &action);
    let r = t.post_round(&action, &body(&again), Some(&anna)).await;
    assert_eq!(r.status, StatusCode::SEE_OTHER, "{}", r.body);
    assert_ne!(t.get(&uri, None).await.header("etag"), Some(etag.as_str()));
}

/// Issue 31.11: correcting one value of an entered round started from an empty form (every value
/// typed again, or the others lost). "Werte ändern" opens the round form with the round as stored,
/// "Runde ersetzen" ticked; changing one value and saving keeps the others.
#[tokio::test]
async fn correcting_a_round_starts_from_the_round_as_stored() {
    let t = TestApp::small_season().await;
    let cookie = t.login(SECRETARY).await;
    let night = format!("/verwaltung/abend/{NIGHT}");
    let page = t.get(&night, Some(&cookie)).await;
    let link = format!("href=\"{night}?korrigieren=1-1#tisch-1\"");
    assert!(page.body.contains(&link), "{}", page.body);
    let r = t
        .get(&format!("{night}?korrigieren=1-1"), Some(&cookie))
        .await;
    assert_eq!(r.status, StatusCode::OK);
    let section = r.body.find("id=\"tisch-1\"").unwrap();
    let at = section
        + r.body[section..]
            .find(&format!("action=\"{night}/runde\""))
            .unwrap();
    let form = &r.body[at..at + r.body[at..].find("</form>").unwrap()];
    // Round 1: Frank 1 Out, Elke, Anna, Carla 1 Out (Carla lost).
    let ids = ids_of(&t, &["Frank", "Elke", "Anna", "Carla"]).await;
    assert!(
        form.contains("name=\"number\" min=\"1\" value=\"1\""),
        "{form}"
    );
    assert!(
        form.contains("name=\"replace\" value=\"1\" checked"),
        "{form}"
    );
    for (id, outs) in [(ids[0], "1"), (ids[3], "1")] {
        assert!(
            form.contains(&format!(
                "name=\"outs_{id}\" min=\"0\" max=\"3\" value=\"{outs}\""
            )),
            "{form}"
        );
    }
    for id in &ids {
        assert!(
            form.contains(&format!("name=\"played_{id}\" value=\"1\" checked")),
            "{form}"
        );
    }
    assert!(
        form.contains(&format!("name=\"lost\" value=\"{}\" checked", ids[3])),
        "{form}"
    );
    // The scorer link's page of table 1 does the same.
    let link = crate::scorer_links::make_link(&t, &cookie, NIGHT, 1).await;
    let page = t.get(&link, None).await;
    assert!(
        page.body
            .contains(&format!("href=\"{link}?korrigieren=1#runden\"")),
        "{}",
        page.body
    );
    let r = t.get(&format!("{link}?korrigieren=1"), None).await;
    assert_eq!(r.status, StatusCode::OK);
    let at = r.body.find(&format!("action=\"{link}/runde\"")).unwrap();
    let form = &r.body[at..at + r.body[at..].find("</form>").unwrap()];
    assert!(
        form.contains("name=\"number\" min=\"1\" value=\"1\""),
        "{form}"
    );
    assert!(
        form.contains("name=\"replace\" value=\"1\" checked"),
        "{form}"
    );
    assert!(
        form.contains(&format!(
            "name=\"outs_{}\" min=\"0\" max=\"3\" value=\"1\"",
            ids[0]
        )),
        "{form}"
    );
}
