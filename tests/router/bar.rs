//! What a new user hit at the bar (issue 14) and sessions that keep their word (issue 15.6), each
//! as it was seen: a rename during a Schockbesteck Runde, a late arrival mid-Runde, a newcomer who
//! re-drew every table, a refusal out of sight, a round lost with the login, a fine booked twice,
//! a night closed with one tap, login names with a capital, a session that ended three hours after
//! the login however busy the secretary was, and a disabled account whose sessions came back.

use std::collections::HashMap;

use axum::http::StatusCode;
use schockerliga::db;
use schockerliga::league::model::file::SeasonFile;

use crate::app::{RoundForm, TestApp, ADMIN, SECRETARY};

const NIGHT: &str = "2026-01-09";
const NAMES: [&str; 11] = [
    "Anna", "Bernd", "Carla", "Dieter", "Elke", "Frank", "Gabi", "Hans", "Ilse", "Jörg", "Kurt",
];

/// Season 2026 with the eleven `NAMES` and one empty night on 09.01.2026.
fn season() -> SeasonFile {
    let players: Vec<_> = NAMES
        .iter()
        .map(|n| serde_json::json!({ "name": n }))
        .collect();
    serde_json::from_value(serde_json::json!({
        "format": "schockerliga-season/1", "season": 2026,
        "players": players, "nights": [ { "date": NIGHT } ],
    }))
    .unwrap()
}

async fn app() -> (TestApp, String) {
    let t = TestApp::builder().staff().season(season()).start().await;
    let cookie = t.login(SECRETARY).await;
    (t, cookie)
}

async fn ids(t: &TestApp) -> HashMap<String, i64> {
    db::player::of_season_pool(&t.db.read, 2026)
        .await
        .unwrap()
        .into_iter()
        .map(|p| (p.name, p.id))
        .collect()
}

/// (player, table) as drawn at the night, in seat order.
async fn draw(t: &TestApp) -> Vec<(String, i64)> {
    let mut conn = t.db.read.acquire().await.unwrap();
    let night = db::night::by_date(&mut conn, NIGHT.parse().unwrap())
        .await
        .unwrap()
        .unwrap();
    db::night::participants(&mut conn, night.id)
        .await
        .unwrap()
        .into_iter()
        .map(|p| (p.name, p.table_no))
        .collect()
}

/// Ticks `names` present (and the extra `fields`) on the presence form.
async fn presence(
    t: &TestApp,
    cookie: &str,
    names: &[&str],
    fields: &[(&str, &str)],
) -> crate::app::Reply {
    let ids = ids(t).await;
    let mut f: Vec<(String, String)> = names
        .iter()
        .map(|n| ("present".to_string(), ids[*n].to_string()))
        .collect();
    f.extend(fields.iter().map(|(k, v)| (k.to_string(), v.to_string())));
    t.post_fields(
        &format!("/verwaltung/abend/{NIGHT}/teilnehmer"),
        &f,
        Some(cookie),
    )
    .await
}

/// Plays a Runde of `a` and `b` at `table`, round `round` in the Schockbesteck to its end (`a`
/// throws a Schock Out from the hand in both halves) and returns its page.
async fn play_runde(t: &TestApp, cookie: &str, table: i64, round: u32, a: &str, b: &str) -> String {
    let base = format!("/verwaltung/besteck/{NIGHT}/{table}/{round}");
    let r = t
        .post_fields(
            &format!("{base}/start"),
            &[("spieler", a), ("spieler", b), ("vorleger", a)],
            Some(cookie),
        )
        .await;
    assert_eq!(r.status, StatusCode::SEE_OTHER, "{}", r.body);
    for seq in 0..2 {
        let page = t.get(&base, Some(cookie)).await.body;
        let (first, second) = if page.contains(&format!("name=\"p0\" value=\"{a}\"")) {
            ((a, "111"), (b, "654"))
        } else {
            ((b, "654"), (a, "111"))
        };
        let seq = seq.to_string();
        let r = t
            .post_fields(
                &format!("{base}/wurfrunde"),
                &[
                    ("seq", seq.as_str()),
                    ("p0", first.0),
                    ("w0", first.1),
                    ("n0", "1"),
                    ("p1", second.0),
                    ("w1", second.1),
                    ("n1", "1"),
                ],
                Some(cookie),
            )
            .await;
        assert_eq!(r.status, StatusCode::SEE_OTHER, "{}", r.body);
    }
    t.get(&base, Some(cookie)).await.body
}

#[tokio::test]
async fn a_running_runde_follows_a_renamed_player_and_a_broken_one_can_be_discarded() {
    let (t, cookie) = app().await;
    assert_eq!(
        presence(&t, &cookie, &NAMES[..3], &[]).await.status,
        StatusCode::SEE_OTHER
    );
    let base = format!("/verwaltung/besteck/{NIGHT}/1/1");
    let r = t
        .post_fields(
            &format!("{base}/start"),
            &[
                ("spieler", "Anna"),
                ("spieler", "Bernd"),
                ("vorleger", "Anna"),
            ],
            Some(&cookie),
        )
        .await;
    assert_eq!(r.status, StatusCode::SEE_OTHER);
    // Bernd is renamed while the Runde runs: the Runde follows him.
    let bernd = ids(&t).await["Bernd"];
    let r = t
        .post(
            &format!("/verwaltung/saison/2026/spieler/{bernd}/name"),
            "name=Bernhard",
            Some(&cookie),
        )
        .await;
    assert_eq!(r.status, StatusCode::SEE_OTHER, "{}", r.body);
    let page = t.get(&base, Some(&cookie)).await;
    assert_eq!(page.status, StatusCode::OK, "{}", page.body);
    assert!(
        page.body.contains("name=\"p1\" value=\"Bernhard\""),
        "{}",
        page.body
    );
    assert!(!page.body.contains(">Bernd<"), "{}", page.body);
    // A throw form loaded before the rename (it says "Bernd") still counts for him: the row
    // carries his id. Before, it was refused ("Bernhard, nicht Bernd (nicht am Tisch)").
    let r = t
        .post_fields(
            &format!("{base}/wurfrunde"),
            &[
                ("seq", "0"),
                ("p0", "Anna"),
                ("w0", "111"),
                ("n0", "1"),
                ("p1", "Bernd"),
                ("id1", bernd.to_string().as_str()),
                ("w1", "654"),
                ("n1", "1"),
            ],
            Some(&cookie),
        )
        .await;
    assert_eq!(r.status, StatusCode::SEE_OTHER, "{}", r.body);
    let page = t.get(&base, Some(&cookie)).await;
    assert!(page.body.contains("Bernhard"), "{}", page.body);
    // A record that no longer loads: a German message and "verwerfen", not a 500.
    sqlx::query("update besteck_runden set record_json = '{\"kaputt\": 1}'")
        .execute(&t.db.write)
        .await
        .unwrap();
    let page = t.get(&base, Some(&cookie)).await;
    assert_eq!(page.status, StatusCode::OK, "{}", page.body);
    assert!(
        page.body.contains("lässt sich nicht mehr laden"),
        "{}",
        page.body
    );
    let r = t
        .post(&format!("{base}/verwerfen"), "", Some(&cookie))
        .await;
    assert_eq!(r.status, StatusCode::SEE_OTHER);
    let page = t.get(&base, Some(&cookie)).await.body;
    assert!(page.contains("Runde beginnen"), "{page}");
}

#[tokio::test]
async fn a_late_arrival_during_a_runde_sits_at_a_table_and_the_runde_stays_at_its_own() {
    let (t, cookie) = app().await;
    assert_eq!(
        presence(&t, &cookie, &NAMES[..10], &[]).await.status,
        StatusCode::SEE_OTHER
    );
    let before = draw(&t).await;
    let at = |table: i64| -> Vec<String> {
        before
            .iter()
            .filter(|(_, t)| *t == table)
            .map(|(n, _)| n.clone())
            .collect()
    };
    let (one, two) = (at(1), at(2));
    assert_eq!((one.len(), two.len()), (5, 5));
    // A Runde starts at table 2 …
    let base = format!("/verwaltung/besteck/{NIGHT}/2/1");
    let r = t
        .post_fields(
            &format!("{base}/start"),
            &[
                ("spieler", two[0].as_str()),
                ("spieler", two[1].as_str()),
                ("vorleger", two[0].as_str()),
            ],
            Some(&cookie),
        )
        .await;
    assert_eq!(r.status, StatusCode::SEE_OTHER);
    // … Kurt arrives: seated at the smaller table (a tie: table 2), nobody moves.
    let kurt = ids(&t).await["Kurt"];
    let r = t
        .post(
            &format!("/verwaltung/abend/{NIGHT}/nachzuegler"),
            &format!("player={kurt}&table=&fine=1"),
            Some(&cookie),
        )
        .await;
    assert_eq!(r.status, StatusCode::SEE_OTHER, "{}", r.body);
    let after = draw(&t).await;
    assert_eq!(&after[..10].len(), &10);
    for (name, table) in &before {
        assert!(after.contains(&(name.clone(), *table)), "{name} moved");
    }
    assert!(after.contains(&("Kurt".to_string(), 2)), "{after:?}");
    // The Runde is finished and stored at table 2, where it began.
    t.post(&format!("{base}/verwerfen"), "", Some(&cookie))
        .await;
    let page = play_runde(&t, &cookie, 2, 1, &two[0], &two[1]).await;
    assert!(page.contains("verliert die Runde"), "{page}");
    let r = t
        .post(&format!("{base}/bestaetigen"), "seq=2", Some(&cookie))
        .await;
    assert_eq!(r.status, StatusCode::SEE_OTHER, "{}", r.body);
    let file = db::season::load_file(&t.db.read, 2026)
        .await
        .unwrap()
        .unwrap();
    let tables: Vec<u32> = file.nights[0].tables.iter().map(|t| t.number).collect();
    assert_eq!(tables, vec![2]);
    // Table 1 still enters its own round.
    let ids = ids(&t).await;
    let f = one
        .iter()
        .fold(RoundForm::at_table(1, 1), |f, n| f.row(ids[n], 0))
        .lost(ids[&one[0]]);
    let r = t
        .post_round(
            &format!("/verwaltung/abend/{NIGHT}/runde"),
            &f,
            Some(&cookie),
        )
        .await;
    assert_eq!(r.status, StatusCode::SEE_OTHER, "{}", r.body);
    // Kurt's fine was booked with him.
    let fines = db::money::fines_of_season(&t.db.read, 2026).await.unwrap();
    assert_eq!(fines.len(), 1);
    assert_eq!(
        (fines[0].player.as_str(), fines[0].kind.as_str()),
        ("Kurt", "late")
    );
}

#[tokio::test]
async fn a_newcomer_before_round_one_moves_nobody_unless_the_tables_are_drawn_again() {
    let (t, cookie) = app().await;
    assert_eq!(
        presence(&t, &cookie, &NAMES[..10], &[]).await.status,
        StatusCode::SEE_OTHER
    );
    let before = draw(&t).await;
    assert_eq!(
        presence(&t, &cookie, &NAMES, &[]).await.status,
        StatusCode::SEE_OTHER
    );
    let after = draw(&t).await;
    assert_eq!(after.len(), 11);
    let moved = before.iter().filter(|s| !after.contains(s)).count();
    assert_eq!(moved, 0, "{before:?} → {after:?}");
    // A new draw only when asked for and confirmed.
    let r = presence(&t, &cookie, &NAMES, &[("neu_auslosen", "1")]).await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(
        r.body.contains("„Ja, alle Tische neu auslosen“ ankreuzen"),
        "{}",
        r.body
    );
    assert_eq!(draw(&t).await, after, "nothing changed");
    let r = presence(
        &t,
        &cookie,
        &NAMES,
        &[("neu_auslosen", "1"), ("bestaetigt", "1")],
    )
    .await;
    assert_eq!(r.status, StatusCode::SEE_OTHER);
    let again = draw(&t).await;
    assert_eq!(again.len(), 11);
    assert_eq!(again.iter().filter(|(_, t)| *t == 1).count(), 6);
}

#[tokio::test]
async fn a_refused_round_says_why_at_the_top_of_the_page_and_at_its_form() {
    let (t, cookie) = app().await;
    presence(&t, &cookie, &NAMES[..3], &[]).await;
    let ids = ids(&t).await;
    let f = RoundForm::at_table(1, 1)
        .row(ids["Anna"], 7)
        .row(ids["Bernd"], 0)
        .lost(ids["Bernd"]);
    let r = t
        .post_round(
            &format!("/verwaltung/abend/{NIGHT}/runde"),
            &f,
            Some(&cookie),
        )
        .await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY);
    let top = r.body.find("id=\"fehler\"").expect("an error at the top");
    let tables = r.body.find("id=\"tische\"").unwrap();
    assert!(top < tables, "the refusal stands above the forms");
    assert!(
        r.body[top..].contains("href=\"#tisch-1\""),
        "a link to its form"
    );
    assert_eq!(
        r.body.matches("höchstens 3 Outs").count(),
        2,
        "at the top and at the form"
    );
}

#[tokio::test]
async fn a_round_sent_after_the_login_ran_out_comes_back_filled_in_after_logging_in() {
    let (t, cookie) = app().await;
    presence(&t, &cookie, &NAMES[..3], &[]).await;
    let ids = ids(&t).await;
    let f = RoundForm::at_table(1, 1)
        .row(ids["Anna"], 2)
        .row(ids["Bernd"], 0)
        .row(ids["Carla"], 0)
        .lost(ids["Bernd"]);
    // The session is gone (logged out elsewhere, timed out): the round goes nowhere …
    let r = t
        .post_round(&format!("/verwaltung/abend/{NIGHT}/runde"), &f, None)
        .await;
    assert!(r.is_login_redirect());
    let kept = r
        .headers
        .get_all("set-cookie")
        .iter()
        .filter_map(|v| v.to_str().ok())
        .find(|v| v.starts_with("unsent="))
        .expect("the form is kept in the browser")
        .split(';')
        .next()
        .unwrap()
        .to_string();
    let login = t.get("/login", Some(&kept)).await.body;
    assert!(login.contains("Nichts wurde gespeichert"), "{login}");
    // … and after the login it is back in its form, nothing stored meanwhile.
    let r = t
        .post(
            "/login",
            &format!("username={SECRETARY}&password={}", crate::app::PASSWORD),
            Some(&kept),
        )
        .await;
    assert_eq!(r.status, StatusCode::SEE_OTHER);
    assert_eq!(
        r.location(),
        Some(format!("/verwaltung/abend/{NIGHT}").as_str())
    );
    let session = r.cookie().expect("logged in");
    let both = format!("{session}; {kept}");
    let shown = t
        .get(&format!("/verwaltung/abend/{NIGHT}"), Some(&both))
        .await;
    let page = &shown.body;
    assert!(page.contains("noch nicht gespeichert"), "{page}");
    assert!(
        page.contains(&format!(
            "name=\"outs_{}\" min=\"0\" max=\"3\" value=\"2\"",
            ids["Anna"]
        )),
        "{page}"
    );
    assert!(page.contains(&format!("name=\"lost\" value=\"{}\" checked", ids["Bernd"])));
    // The page forgets the kept form (the browser drops the cookie).
    let forget = shown
        .headers
        .get_all("set-cookie")
        .iter()
        .filter_map(|v| v.to_str().ok())
        .any(|v| v.starts_with("unsent=") && v.contains("Max-Age=0"));
    assert!(forget, "the cookie is removed");
    let file = db::season::load_file(&t.db.read, 2026)
        .await
        .unwrap()
        .unwrap();
    assert!(
        file.nights[0].tables.is_empty(),
        "nothing stored on his behalf"
    );
    let again = t
        .get(&format!("/verwaltung/abend/{NIGHT}"), Some(&session))
        .await
        .body;
    assert!(!again.contains("noch nicht gespeichert"));
}

#[tokio::test]
async fn a_round_on_a_full_disk_is_refused_in_german_kept_in_its_form_and_goes_in_once_there_is_space(
) {
    let (t, cookie) = app().await;
    presence(&t, &cookie, &NAMES[..3], &[]).await;
    let ids = ids(&t).await;
    // Round `n`, replacing a stored one (each replacement adds audit rows: the database grows).
    let round = |n: u32| {
        RoundForm::at_table(1, n)
            .replacing()
            .row(ids["Anna"], 2)
            .row(ids["Bernd"], 0)
            .row(ids["Carla"], 0)
            .lost(ids["Bernd"])
    };
    // The disk is full: the writer may not grow the database by a page (SQLITE_FULL). Rounds go
    // in while their rows fit into the pages there are; rounds 1..10 again and again.
    let (pages,): (i64,) = sqlx::query_as("pragma page_count")
        .fetch_one(&t.league.db().write)
        .await
        .unwrap();
    sqlx::query(&format!("pragma max_page_count = {pages}"))
        .execute(&t.league.db().write)
        .await
        .unwrap();
    let file = || async {
        db::season::load_file(&t.db.read, 2026)
            .await
            .unwrap()
            .unwrap()
    };
    let mut refused = None;
    for i in 0..500 {
        let n = i % 10 + 1;
        let before = file().await;
        let r = t
            .post_round(
                &format!("/verwaltung/abend/{NIGHT}/runde"),
                &round(n),
                Some(&cookie),
            )
            .await;
        if r.status != StatusCode::SEE_OTHER {
            refused = Some((n, r, before));
            break;
        }
    }
    let (n, r, before) = refused.expect("a full disk refuses a round");
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", r.body);
    assert!(
        r.body.contains("Speicher voll, nichts gespeichert"),
        "{}",
        r.body
    );
    assert!(
        r.body.contains(&format!(
            "name=\"outs_{}\" min=\"0\" max=\"3\" value=\"2\"",
            ids["Anna"]
        )),
        "the typed round stays in its form"
    );
    let after = file().await;
    assert_eq!(
        serde_json::to_value(&after).unwrap(),
        serde_json::to_value(&before).unwrap(),
        "nothing of round {n} stored"
    );
    let kept = after.nights[0].tables.first().map_or(0, |t| t.rounds.len());
    // Space again (on whichever writer connection the pool holds now): the same round goes in.
    sqlx::query("pragma max_page_count = 1073741823")
        .execute(&t.league.db().write)
        .await
        .unwrap();
    let r = t
        .post_round(
            &format!("/verwaltung/abend/{NIGHT}/runde"),
            &round(n),
            Some(&cookie),
        )
        .await;
    assert_eq!(r.status, StatusCode::SEE_OTHER, "{}", r.body);
    let now = file().await;
    assert_eq!(now.nights[0].tables[0].rounds.len(), kept.max(n as usize));
}

#[tokio::test]
async fn a_form_with_a_password_is_never_kept_in_a_cookie() {
    let (t, _) = app().await;
    // Without a login: a new account (admin) and a password change (any account).
    for (path, form) in [
        (
            "/verwaltung/konten",
            "username=neu&password=geheim-geheim-1&password2=geheim-geheim-1&role=secretary",
        ),
        (
            "/verwaltung/passwort",
            "old=x&password=geheim-geheim-1&password2=geheim-geheim-1",
        ),
    ] {
        let r = t.post(path, form, None).await;
        assert!(r.is_login_redirect(), "{path}: {}", r.status);
        let kept = r
            .headers
            .get_all("set-cookie")
            .iter()
            .filter_map(|v| v.to_str().ok())
            .any(|v| v.starts_with("unsent="));
        assert!(!kept, "{path}: a password went into a cookie");
    }
}

#[tokio::test]
async fn a_second_fine_of_a_kind_is_booked_only_when_asked() {
    let (t, cookie) = app().await;
    presence(&t, &cookie, &NAMES[..3], &[]).await;
    let anna = ids(&t).await["Anna"];
    let uri = format!("/verwaltung/abend/{NIGHT}/strafe");
    let f = format!("player={anna}&kind=late");
    assert_eq!(
        t.post(&uri, &f, Some(&cookie)).await.status,
        StatusCode::SEE_OTHER
    );
    let r = t.post(&uri, &f, Some(&cookie)).await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY, "a double tap");
    assert!(
        r.body
            .contains("Anna hat an diesem Abend schon eine Strafe „Zuspätkommer“"),
        "{}",
        r.body
    );
    assert_eq!(
        db::money::fines_of_season(&t.db.read, 2026)
            .await
            .unwrap()
            .len(),
        1
    );
    let r = t.post(&uri, &format!("{f}&again=1"), Some(&cookie)).await;
    assert_eq!(r.status, StatusCode::SEE_OTHER);
    assert_eq!(
        db::money::fines_of_season(&t.db.read, 2026)
            .await
            .unwrap()
            .len(),
        2
    );
}

#[tokio::test]
async fn closing_a_night_needs_a_confirmation_and_a_mistake_is_undone_the_same_day() {
    let today = crate::app::club_today();
    let year = chrono::Datelike::year(&today);
    let file: SeasonFile = serde_json::from_value(serde_json::json!({
        "format": "schockerliga-season/1", "season": year,
        "players": [ { "name": "Anna" }, { "name": "Bernd" } ],
        "nights": [ { "date": today.to_string() }, { "date": format!("{year}-01-01") } ],
    }))
    .unwrap();
    let t = TestApp::builder().staff().season(file).start().await;
    let cookie = t.login(SECRETARY).await;
    let close = format!("/verwaltung/abend/{today}/abschliessen");
    let reopen = format!("/verwaltung/abend/{today}/oeffnen");
    let r = t.post(&close, "", Some(&cookie)).await;
    assert_eq!(
        r.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "one tap is not enough"
    );
    assert!(r
        .body
        .contains("„Ja, alle Runden und Strafen sind eingetragen“ ankreuzen"));
    assert_eq!(
        t.post(&close, "sicher=1", Some(&cookie)).await.status,
        StatusCode::SEE_OTHER
    );
    let page = t
        .get(&format!("/verwaltung/abend/{today}"), Some(&cookie))
        .await
        .body;
    assert!(
        page.contains("ist abgeschlossen") && page.contains("Wieder öffnen"),
        "{page}"
    );
    assert_eq!(
        t.post(&reopen, "", Some(&cookie)).await.status,
        StatusCode::UNPROCESSABLE_ENTITY
    );
    // Reopening is itself a Korrektur with a reason (issue 22.2): without one the night stays
    // closed; with one it opens and the reason is on record.
    let r = t.post(&reopen, "sicher=1", Some(&cookie)).await;
    assert_ne!(
        r.status,
        StatusCode::SEE_OTHER,
        "no Korrektur, no reopening"
    );
    assert!(r.body.contains("Korrektur"), "{}", r.body);
    assert_eq!(
        t.post(
            &reopen,
            "sicher=1&korrektur=1&korrektur_grund=Strafe+vergessen",
            Some(&cookie)
        )
        .await
        .status,
        StatusCode::SEE_OTHER
    );
    let page = t
        .get(&format!("/verwaltung/abend/{today}"), Some(&cookie))
        .await
        .body;
    assert!(page.contains("Abend abschließen"), "open again: {page}");
    let audit = t
        .get("/verwaltung/protokoll", Some(&t.login(ADMIN).await))
        .await
        .body;
    assert!(audit.contains("wieder geöffnet"), "audited");
    assert!(
        audit.contains("Korrektur eines abgeschlossenen Spielabends: Strafe vergessen"),
        "the reason of the reopening is on record"
    );
    // A night of an earlier day stays closed: only a Korrektur changes it.
    if today > chrono::NaiveDate::from_ymd_opt(year, 1, 2).unwrap() {
        let old = format!("/verwaltung/abend/{year}-01-01");
        t.post(&format!("{old}/abschliessen"), "sicher=1", Some(&cookie))
            .await;
        let r = t
            .post(&format!("{old}/oeffnen"), "sicher=1", Some(&cookie))
            .await;
        assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY);
        assert!(r.body.contains("nur bis zum Tag danach"), "{}", r.body);
    }
}

#[tokio::test]
async fn login_names_do_not_care_about_case() {
    let t = TestApp::staffed().await;
    let r = t
        .post(
            "/login",
            &format!("username=Schrift&password={}", crate::app::PASSWORD),
            None,
        )
        .await;
    assert_eq!(
        r.status,
        StatusCode::SEE_OTHER,
        "a phone capitalises the first letter"
    );
    let admin = t.login(ADMIN).await;
    let r = t
        .post(
            "/verwaltung/konten",
            "username=SCHRIFT&password=geheim123&password2=geheim123&role=secretary",
            Some(&admin),
        )
        .await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(r.body.contains("gibt es schon"), "{}", r.body);
}

#[tokio::test]
async fn the_round_form_labels_every_input() {
    let (t, cookie) = app().await;
    presence(&t, &cookie, &NAMES[..3], &[]).await;
    let page = t
        .get(&format!("/verwaltung/abend/{NIGHT}"), Some(&cookie))
        .await
        .body;
    for name in &NAMES[..3] {
        for label in ["Outs", "Hand-Outs", "Julen"] {
            assert!(
                page.contains(&format!("aria-label=\"{label} {name}\"")),
                "{label} {name}"
            );
        }
    }
    assert!(page.contains("<meta name=\"description\""));
    let icon = t.get("/favicon.ico", None).await;
    assert_eq!(icon.status, StatusCode::OK);
    assert_eq!(icon.header("content-type"), Some("image/x-icon"));
}

/// The latest session expiry stored (tower-sessions' table keeps it as RFC 3339 text).
async fn expiry(t: &TestApp) -> chrono::DateTime<chrono::FixedOffset> {
    let rows: Vec<(String, String)> =
        sqlx::query_as("select id, cast(expiry_date as text) from tower_sessions")
            .fetch_all(&t.db.sessions)
            .await
            .unwrap();
    rows.iter()
        .map(|(_, e)| chrono::DateTime::parse_from_rfc3339(e).unwrap())
        .max()
        .unwrap()
}

#[tokio::test]
async fn the_idle_time_runs_from_the_last_request_and_a_disabled_account_stays_logged_out() {
    let t = TestApp::staffed().await;
    let cookie = t.login(SECRETARY).await;
    let first = expiry(&t).await;
    tokio::time::sleep(std::time::Duration::from_millis(1100)).await;
    let r = t.get("/verwaltung", Some(&cookie)).await;
    assert_eq!(r.status, StatusCode::OK);
    assert!(expiry(&t).await > first, "a request moves the idle expiry");

    // Disabled and enabled again: the old session does not come back.
    let admin = t.login(ADMIN).await;
    let (id,): (i64,) = sqlx::query_as("select id from users where username = ?")
        .bind(SECRETARY)
        .fetch_one(&t.db.read)
        .await
        .unwrap();
    for action in ["sperren", "entsperren"] {
        let r = t
            .post(
                &format!("/verwaltung/konten/{id}/{action}"),
                "",
                Some(&admin),
            )
            .await;
        assert_eq!(r.status, StatusCode::SEE_OTHER, "{action}");
    }
    assert!(t
        .get("/verwaltung", Some(&cookie))
        .await
        .is_login_redirect());
    // A new login works.
    tokio::time::sleep(std::time::Duration::from_millis(1100)).await;
    let fresh = t.login(SECRETARY).await;
    assert_eq!(
        t.get("/verwaltung", Some(&fresh)).await.status,
        StatusCode::OK
    );
}

#[tokio::test]
async fn closing_comes_last_on_the_night_page_and_says_what_is_still_open() {
    // Fresh-user trial: "Abend abschließen" was the first control on the page and said nothing
    // about 5 of 10 rounds entered or a Runde still running in the Schockbesteck.
    let (t, cookie) = app().await;
    presence(&t, &cookie, &NAMES[..3], &[]).await;
    let ids = ids(&t).await;
    let r = t
        .post_round(
            &format!("/verwaltung/abend/{NIGHT}/runde"),
            &RoundForm::at_table(1, 1)
                .row(ids["Anna"], 1)
                .row(ids["Bernd"], 0)
                .row(ids["Carla"], 0)
                .lost(ids["Bernd"]),
            Some(&cookie),
        )
        .await;
    assert_eq!(r.status, StatusCode::SEE_OTHER, "{}", r.body);
    // The Schockbesteck's start form offers round 1's loser as Vorleger (two-phone trial: always
    // the first seat, re-picked every round).
    let start = t
        .get(&format!("/verwaltung/besteck/{NIGHT}/1/2"), Some(&cookie))
        .await
        .body;
    assert!(
        start.contains("<option value=\"Bernd\" selected>"),
        "{start}"
    );
    let r = t
        .post_fields(
            &format!("/verwaltung/besteck/{NIGHT}/1/2/start"),
            &[
                ("spieler", "Anna"),
                ("spieler", "Bernd"),
                ("vorleger", "Anna"),
            ],
            Some(&cookie),
        )
        .await;
    assert_eq!(r.status, StatusCode::SEE_OTHER, "{}", r.body);
    let page = t
        .get(&format!("/verwaltung/abend/{NIGHT}"), Some(&cookie))
        .await
        .body;
    let open = page.find("id=\"noch-offen\"").expect("what is still open");
    assert!(
        page[open..].contains("Tisch 1: 1 von 10 Runden eingetragen"),
        "{page}"
    );
    assert!(
        page[open..].contains("Tisch 1: Runde 2 läuft noch im Schockbesteck"),
        "{page}"
    );
    let close = page
        .find("action=\"/verwaltung/abend/2026-01-09/abschliessen\"")
        .unwrap();
    let round_form = page
        .find("action=\"/verwaltung/abend/2026-01-09/runde\"")
        .unwrap();
    assert!(
        round_form < open && open < close,
        "the round forms first, closing last"
    );
}
