//! Hostile and malformed input: every form, the season-file import and the JSON API get a clear 4xx
//! (or a refused import) and change nothing (database snapshot before and after); names with markup
//! are shown escaped. (The proptests that feed arbitrary bytes to the parsers are the cases crate's
//! `parsers`.)

use axum::body::Body;
use axum::http::StatusCode;
use schockerliga::league::model::file::SeasonFile;
use serde_json::Value;

use crate::app::*;

fn long(n: usize) -> String {
    "x".repeat(n)
}

#[tokio::test]
async fn hostile_form_posts_get_4xx_and_change_nothing() {
    let t = TestApp::small_season().await;
    let admin = t.login(ADMIN).await;
    let secretary = t.login(SECRETARY).await;
    let before = snapshot(&t.db.write).await;
    let pw = "password=geheim123&password2=geheim123";
    let huge = vec![b'a'; 50 * 1024 * 1024];
    let add = "/verwaltung/konten";
    // (what, uri, body, cookie, accepted statuses)
    type Case<'a> = (&'a str, &'a str, Vec<u8>, Option<&'a str>, &'a [u16]);
    let cases: Vec<Case> = vec![
        // Login: wrong types, missing fields, huge and invalid input.
        ("login empty", "/login", b"".to_vec(), None, &[422]),
        (
            "login no password",
            "/login",
            b"username=admin".to_vec(),
            None,
            &[422],
        ),
        (
            "login unknown",
            "/login",
            b"username=niemand&password=x".to_vec(),
            None,
            &[401],
        ),
        (
            "login markup",
            "/login",
            b"username=%3Cscript%3E&password=%3C%2Fscript%3E".to_vec(),
            None,
            &[401],
        ),
        (
            "login long name",
            "/login",
            format!("username={}&password=x", long(100_000)).into_bytes(),
            None,
            &[401],
        ),
        (
            "login long password",
            "/login",
            format!("username=admin&password={}", long(1_000_000)).into_bytes(),
            None,
            &[401],
        ),
        (
            "login invalid utf-8",
            "/login",
            b"username=\xff\xfe&password=\xc3".to_vec(),
            None,
            &[400, 401, 422],
        ),
        ("login 50 MB", "/login", huge.clone(), None, &[413]),
        (
            "login nul",
            "/login",
            b"username=admin%00&password=geheim123".to_vec(),
            None,
            &[401],
        ),
        // Setup without or with a wrong token.
        (
            "setup no token",
            "/setup",
            format!("username=x&{pw}").into_bytes(),
            None,
            &[404, 422],
        ),
        (
            "setup wrong token",
            "/setup",
            format!("token=abc&username=x&{pw}").into_bytes(),
            None,
            &[404],
        ),
        // Adding accounts.
        (
            "add missing role",
            add,
            format!("username=neu&{pw}").into_bytes(),
            Some(&admin),
            &[422],
        ),
        (
            "add unknown role",
            add,
            format!("username=neu&{pw}&role=root").into_bytes(),
            Some(&admin),
            &[422],
        ),
        (
            "add role as number",
            add,
            format!("username=neu&{pw}&role=1").into_bytes(),
            Some(&admin),
            &[422],
        ),
        (
            "add empty name",
            add,
            format!("username=++&{pw}&role=admin").into_bytes(),
            Some(&admin),
            &[422],
        ),
        (
            "add long name",
            add,
            format!("username={}&{pw}&role=admin", long(10_000)).into_bytes(),
            Some(&admin),
            &[422],
        ),
        (
            "add control char",
            add,
            format!("username=a%07b&{pw}&role=admin").into_bytes(),
            Some(&admin),
            &[422],
        ),
        (
            "add short password",
            add,
            b"username=neu&password=kurz&password2=kurz&role=admin".to_vec(),
            Some(&admin),
            &[422],
        ),
        (
            "add different passwords",
            add,
            b"username=neu&password=geheim123&password2=geheim124&role=admin".to_vec(),
            Some(&admin),
            &[422],
        ),
        (
            "add duplicate",
            add,
            format!("username={SECRETARY}&{pw}&role=admin").into_bytes(),
            Some(&admin),
            &[422],
        ),
        (
            "add duplicate field",
            add,
            format!("username=a&username=b&{pw}&role=admin").into_bytes(),
            Some(&admin),
            &[422],
        ),
        (
            "add invalid utf-8",
            add,
            format!("username=\u{0}&{pw}&role=admin")
                .into_bytes()
                .into_iter()
                .chain(b"\xff".iter().copied())
                .collect(),
            Some(&admin),
            &[400, 422],
        ),
        ("add 50 MB", add, huge.clone(), Some(&admin), &[413]),
        (
            "add as secretary",
            add,
            format!("username=neu&{pw}&role=admin").into_bytes(),
            Some(&secretary),
            &[403],
        ),
        // Disabling: bad ids.
        (
            "disable text id",
            "/verwaltung/konten/abc/sperren",
            vec![],
            Some(&admin),
            &[400],
        ),
        (
            "disable huge id",
            "/verwaltung/konten/99999999999999999999999/sperren",
            vec![],
            Some(&admin),
            &[400],
        ),
        (
            "disable negative id",
            "/verwaltung/konten/-1/sperren",
            vec![],
            Some(&admin),
            &[404],
        ),
        (
            "disable unknown id",
            "/verwaltung/konten/4711/entsperren",
            vec![],
            Some(&admin),
            &[404],
        ),
        (
            "disable markup id",
            "/verwaltung/konten/%3Cb%3E/sperren",
            vec![],
            Some(&admin),
            &[400],
        ),
        // Closing a night: bad dates.
        (
            "close bad date",
            "/verwaltung/abend/2026-13-01/abschliessen",
            vec![],
            Some(&secretary),
            &[404],
        ),
        (
            "close no night",
            "/verwaltung/abend/2026-01-03/abschliessen",
            vec![],
            Some(&secretary),
            &[404],
        ),
        (
            "close markup",
            "/verwaltung/abend/%3Cscript%3E/abschliessen",
            vec![],
            Some(&secretary),
            &[404],
        ),
        (
            "close long",
            &Box::leak(format!("/verwaltung/abend/{}/abschliessen", long(5000)).into_boxed_str())[..],
            vec![],
            Some(&secretary),
            &[404],
        ),
    ];
    let mut peer = 0u8;
    for (what, uri, body, cookie, want) in cases {
        peer = peer.wrapping_add(1);
        let resp = t
            .send_from(form_bytes(uri, body, cookie), [10, 1, 0, peer])
            .await;
        let status = resp.status.as_u16();
        assert!(want.contains(&status), "{what}: {status}, want {want:?}");
        let body = resp.body;
        assert!(
            !body.contains("<script>"),
            "{what}: markup echoed unescaped"
        );
    }
    // A form without content type and a JSON body where a form is expected.
    for (ct, body) in [
        (None, "username=a"),
        (Some("application/json"), "{\"username\":\"a\"}"),
    ] {
        let mut b = req("POST", add).header("cookie", &admin);
        if let Some(ct) = ct {
            b = b.header("content-type", ct);
        }
        let resp = t.send(b.body(Body::from(body)).unwrap()).await;
        assert!(resp.status.is_client_error(), "{ct:?}: {}", resp.status);
    }
    assert_eq!(snapshot(&t.db.write).await, before, "nothing changed");
}

#[tokio::test]
async fn hostile_api_requests_get_4xx_json_and_change_nothing() {
    let t = TestApp::small_season().await;
    let before = snapshot(&t.db.write).await;
    let cases: &[(&str, u16)] = &[
        ("/api/v1/seasons/abc/standings", 404),
        ("/api/v1/seasons/%FF%FE/standings", 400),
        ("/api/v1/seasons/%FF%FE/payouts", 400),
        ("/api/v1/seasons/-1/standings", 404),
        ("/api/v1/seasons/99999999999999999999/standings", 404),
        ("/api/v1/seasons/1999/payouts", 404),
        ("/api/v1/seasons/%3Cscript%3E/payouts", 404),
        ("/api/v1/seasons/2026/standings?as_of=gestern", 400),
        ("/api/v1/seasons/2026/standings?as_of=2026-02-30", 400),
        (
            "/api/v1/seasons/2026/standings?as_of=%3Cscript%3Ealert(1)%3C/script%3E",
            400,
        ),
        ("/api/v1/seasons/2026/standings?as_of=2026-1-1x", 400),
        (
            "/api/v1/seasons/2026/standings?as_of=2026-01-01&as_of=2026-02-01",
            400,
        ),
    ];
    for (uri, want) in cases {
        let resp = t.send(get(uri, None)).await;
        assert_eq!(resp.status.as_u16(), *want, "{uri}");
        let ct = resp
            .headers
            .get("content-type")
            .map(|v| v.to_str().unwrap().to_string());
        let body = resp.body;
        if *want == 400 || uri.ends_with("payouts") || uri.contains("1999") {
            assert_eq!(ct.as_deref(), Some("application/json"), "{uri}");
            let v: Value = serde_json::from_str(&body).unwrap();
            assert!(v["error"].is_string(), "{uri}: {body}");
        }
    }
    // Writes to the read-only API are not routes.
    let mut r = form("/api/v1/seasons/2026/standings", "", None);
    *r.body_mut() = Body::from("{\"season\": 2026");
    let resp = t.send(r).await;
    assert_eq!(resp.status, StatusCode::METHOD_NOT_ALLOWED);
    assert_eq!(snapshot(&t.db.write).await, before);
}

/// The small fixture as a JSON value.
fn small_season() -> Value {
    serde_json::from_str(&std::fs::read_to_string(fixture("small-2026.season.json")).unwrap())
        .unwrap()
}

/// Imports `bytes` as the command line does (parse, then `service::import`); Err = refused.
async fn import_bytes(
    db: &schockerliga::db::Db,
    bytes: &[u8],
    replace: bool,
) -> Result<(), String> {
    let file: SeasonFile = serde_json::from_slice(bytes).map_err(|e| e.to_string())?;
    schockerliga::service::import(db, &file, replace)
        .await
        .map(|_| ())
        .map_err(|e| e.to_string())
}

#[tokio::test]
async fn hostile_season_files_are_refused_whole_and_change_nothing() {
    let t = TestApp::small_season().await;
    let before = snapshot(&t.db.write).await;
    let base = small_season();
    let edit = |f: &dyn Fn(&mut Value)| {
        let mut v = base.clone();
        f(&mut v);
        serde_json::to_vec(&v).unwrap()
    };
    let r0 = "/nights/0/tables/0/rounds/0/results/0";
    let set = |ptr: &str, val: Value| {
        let ptr = ptr.to_string();
        edit(&move |v: &mut Value| *v.pointer_mut(&ptr).unwrap() = val.clone())
    };
    let full = serde_json::to_vec(&base).unwrap();
    let cases: Vec<(&str, Vec<u8>)> = vec![
        (
            "wrong type outs",
            set(&format!("{r0}/outs"), Value::from("drei")),
        ),
        ("negative outs", set(&format!("{r0}/outs"), Value::from(-1))),
        (
            "huge outs",
            set(&format!("{r0}/outs"), Value::from(u64::MAX)),
        ),
        ("float outs", set(&format!("{r0}/outs"), Value::from(1.5))),
        (
            "huge julen",
            set(&format!("{r0}/julen"), Value::from(1_000_000_000u64)),
        ),
        (
            "unknown player",
            set(&format!("{r0}/player"), Value::from("Niemand")),
        ),
        (
            "markup unknown player",
            set(
                &format!("{r0}/player"),
                Value::from("<script>alert(1)</script>"),
            ),
        ),
        (
            "joker as string",
            set(&format!("{r0}/joker"), Value::from("ja")),
        ),
        ("bad date", set("/nights/0/date", Value::from("2026-02-30"))),
        (
            "date as number",
            set("/nights/0/date", Value::from(20260102)),
        ),
        ("wrong season type", set("/season", Value::from("2026"))),
        ("huge season", set("/season", Value::from(i64::MAX))),
        (
            "wrong format",
            set("/format", Value::from("schockerliga-season/99")),
        ),
        ("rules wrong type", set("/rules", Value::from("alle"))),
        (
            "long player name",
            set(&format!("{r0}/player"), Value::from(long(100_000))),
        ),
        (
            "duplicate player",
            edit(&|v| {
                let p = v["players"][0].clone();
                v["players"].as_array_mut().unwrap().push(p);
            }),
        ),
        (
            "duplicate night",
            edit(&|v| {
                let n = v["nights"][0].clone();
                v["nights"].as_array_mut().unwrap().push(n);
            }),
        ),
        (
            "duplicate result",
            edit(&|v| {
                let results = v
                    .pointer_mut("/nights/0/tables/0/rounds/0/results")
                    .unwrap();
                let r = results[0].clone();
                results.as_array_mut().unwrap().push(r);
            }),
        ),
        (
            "negative fine",
            edit(&|v| {
                v["nights"][0]["fines"] = serde_json::json!([{"player": "X", "kind": "late", "paid": true, "amount_cents": -500}]);
            }),
        ),
        ("truncated", full[..full.len() / 2].to_vec()),
        ("invalid utf-8", {
            let mut b = full.clone();
            let at = b.windows(6).position(|w| w == b"\"name\"").unwrap() + 9;
            b[at] = 0xff;
            b
        }),
        ("empty", vec![]),
        ("null", b"null".to_vec()),
        ("array", b"[]".to_vec()),
        ("deep nesting", "[".repeat(100_000).into_bytes()),
    ];
    for (what, bytes) in cases {
        // Into an existing season: refused whole, even with --replace.
        let got = import_bytes(&t.db, &bytes, true).await;
        assert!(got.is_err(), "{what} was imported");
        assert!(!got.unwrap_err().is_empty(), "{what}: no message");
        assert_eq!(snapshot(&t.db.write).await, before, "{what} changed data");
    }
}

#[tokio::test]
async fn names_with_markup_are_shown_escaped() {
    let t = TestApp::staffed().await;
    let admin = t.login(ADMIN).await;
    let evil = "<img src=x onerror=alert(1)>";
    let mut season = small_season();
    let old = season["players"][0]["name"].as_str().unwrap().to_string();
    // Rename the first player everywhere in the file.
    let renamed = serde_json::to_string(&season)
        .unwrap()
        .replace(&format!("\"{old}\""), &serde_json::to_string(evil).unwrap());
    season = serde_json::from_str(&renamed).unwrap();
    import_bytes(&t.db, &serde_json::to_vec(&season).unwrap(), false)
        .await
        .unwrap();
    let resp = t.send(form(
            "/verwaltung/konten",
            "username=%3Cscript%3Ealert(1)%3C%2Fscript%3E&password=geheim123&password2=geheim123&role=secretary",
            Some(&admin),
        ),
    )
    .await;
    assert_eq!(resp.status, StatusCode::SEE_OTHER);
    let pages = [
        "/",
        "/saison/2026",
        "/abend/2026-01-02",
        "/verwaltung/konten",
        "/verwaltung/protokoll",
    ];
    let mut escaped = 0;
    for uri in pages {
        let resp = t.send(get(uri, Some(&admin))).await;
        assert_eq!(resp.status, StatusCode::OK, "{uri}");
        let body = resp.body;
        assert!(
            !body.contains(evil) && !body.contains("<script>alert"),
            "{uri} shows raw markup"
        );
        let shown = [
            "&lt;img src=x",
            "&#60;img src=x",
            "&lt;script&gt;",
            "&#60;script&#62;",
        ];
        if shown.iter().any(|s| body.contains(s)) {
            escaped += 1;
        }
    }
    assert_eq!(escaped, 5, "escaped names shown on {escaped} pages");
}

/// The night's forms (round, presence/draw, fines), the Schockbesteck forms and the Wurfrunde API:
/// wrong types, huge and negative numbers, unknown names and ids, markup, very long strings,
/// invalid UTF-8, truncated JSON and oversized bodies each get a clear 4xx and change nothing.
#[tokio::test]
async fn hostile_night_besteck_and_wurfrunde_posts_get_4xx_and_change_nothing() {
    let t = TestApp::small_season().await;
    let secretary = t.login(SECRETARY).await;
    // A night without rounds for the presence form (created before the snapshot).
    let resp = t
        .send(form(
            "/verwaltung/saison/2026/abend",
            "date=2026-12-30",
            Some(&secretary),
        ))
        .await;
    assert_eq!(resp.status, StatusCode::SEE_OTHER);
    let ids: Vec<(i64,)> = sqlx::query_as(
        "select p.player_id from night_participants p join nights n on n.id = p.night_id
         where n.date = '2026-01-02' and p.table_no = 1 order by p.seat",
    )
    .fetch_all(&t.db.read)
    .await
    .unwrap();
    assert!(ids.len() >= 2);
    let (a, b) = (ids[0].0, ids[1].0);
    let before = snapshot(&t.db.write).await;
    let huge = vec![b'a'; 5 * 1024 * 1024];
    let round = "/verwaltung/abend/2026-01-02/runde";
    let fine = "/verwaltung/abend/2026-01-02/strafe";
    let presence = "/verwaltung/abend/2026-12-30/teilnehmer";
    let besteck = "/verwaltung/besteck/2026-01-02/1/1";
    // A valid round but for the one field under test.
    let round_with = |field: &str, value: &str| {
        let valid = RoundForm::at_table(1, 1)
            .lost(a)
            .played(a)
            .field(&format!("outs_{a}"), 1)
            .played(b);
        // The value as it is, not encoded again.
        format!("{}&{field}={value}", valid.without(field).body()).into_bytes()
    };
    let bytes = |s: String| s.into_bytes();
    type Case = (String, String, Vec<u8>, &'static [u16]);
    let mut cases: Vec<Case> = vec![
        // The round form.
        (
            "round no table".into(),
            round.into(),
            bytes(format!("number=1&played_{a}=1&lost={a}")),
            &[400],
        ),
        (
            "round table text".into(),
            round.into(),
            bytes(format!("table=eins&number=1&played_{a}=1")),
            &[400],
        ),
        (
            "round table negative".into(),
            round.into(),
            bytes(format!("table=-1&number=1&played_{a}=1")),
            &[400],
        ),
        (
            "round unknown table".into(),
            round.into(),
            bytes(format!("table=7&number=1&played_{a}=1")),
            &[400],
        ),
        (
            "round table huge".into(),
            round.into(),
            bytes(format!("table=99999999999999999999&number=1&played_{a}=1")),
            &[400],
        ),
        (
            "round number text".into(),
            round.into(),
            round_with("number", "eins"),
            &[422],
        ),
        (
            "round number negative".into(),
            round.into(),
            round_with("number", "-1"),
            &[422],
        ),
        (
            "round number huge".into(),
            round.into(),
            round_with("number", "99999999999999999999"),
            &[422],
        ),
        (
            "round number past the night".into(),
            round.into(),
            round_with("number", "4711"),
            &[422],
        ),
        (
            "round outs text".into(),
            round.into(),
            round_with(&format!("outs_{b}"), "drei"),
            &[422],
        ),
        (
            "round outs negative".into(),
            round.into(),
            round_with(&format!("outs_{b}"), "-1"),
            &[422],
        ),
        (
            "round outs huge".into(),
            round.into(),
            round_with(&format!("outs_{b}"), "99999999999"),
            &[422],
        ),
        (
            "round outs over the limit".into(),
            round.into(),
            round_with(&format!("outs_{b}"), "4"),
            &[422],
        ),
        (
            "round julen markup".into(),
            round.into(),
            round_with(&format!("julen_{b}"), "%3Cscript%3E"),
            &[422],
        ),
        (
            "round julen long".into(),
            round.into(),
            round_with(&format!("julen_{b}"), &long(100_000)),
            &[422],
        ),
        (
            "round unknown player".into(),
            round.into(),
            bytes("table=1&number=1&played_4711=1&lost=4711".into()),
            &[422],
        ),
        (
            "round invalid utf-8".into(),
            round.into(),
            [round_with(&format!("julen_{b}"), ""), b"\xff\xfe".to_vec()].concat(),
            &[400, 422],
        ),
        ("round 5 MB".into(), round.into(), huge.clone(), &[413]),
        // The fine form.
        (
            "fine player text".into(),
            fine.into(),
            bytes("player=Dirk&kind=late".into()),
            &[422],
        ),
        (
            "fine player unknown".into(),
            fine.into(),
            bytes("player=4711&kind=late".into()),
            &[400],
        ),
        (
            "fine player negative".into(),
            fine.into(),
            bytes("player=-1&kind=late".into()),
            &[400],
        ),
        (
            "fine player huge".into(),
            fine.into(),
            bytes("player=99999999999999999999&kind=late".into()),
            &[422],
        ),
        (
            "fine no kind".into(),
            fine.into(),
            bytes(format!("player={a}")),
            &[422],
        ),
        (
            "fine unknown kind".into(),
            fine.into(),
            bytes(format!("player={a}&kind=teuer")),
            &[422],
        ),
        (
            "fine markup kind".into(),
            fine.into(),
            bytes(format!("player={a}&kind=%3Cscript%3E")),
            &[422],
        ),
        (
            "fine long kind".into(),
            fine.into(),
            bytes(format!("player={a}&kind={}", long(100_000))),
            &[422],
        ),
        (
            "fine invalid utf-8".into(),
            fine.into(),
            [format!("player={a}&kind=").into_bytes(), b"\xff".to_vec()].concat(),
            &[400, 422],
        ),
        ("fine 5 MB".into(), fine.into(), huge.clone(), &[413]),
        (
            "fine paid unknown fine".into(),
            "/verwaltung/abend/2026-01-02/strafe/4711/bezahlt".into(),
            bytes("paid=1".into()),
            &[404],
        ),
        (
            "fine paid text id".into(),
            "/verwaltung/abend/2026-01-02/strafe/abc/bezahlt".into(),
            bytes("paid=1".into()),
            &[400],
        ),
        (
            "fine paid no field".into(),
            "/verwaltung/abend/2026-01-02/strafe/1/bezahlt".into(),
            vec![],
            &[422],
        ),
        // The presence/draw form.
        ("presence nobody".into(), presence.into(), vec![], &[422]),
        (
            "presence one".into(),
            presence.into(),
            bytes(format!("present={a}")),
            &[422],
        ),
        (
            "presence text ids".into(),
            presence.into(),
            bytes("present=Anna&present=Bernd".into()),
            &[422],
        ),
        (
            "presence unknown ids".into(),
            presence.into(),
            bytes(format!("present={a}&present=4711")),
            &[422],
        ),
        (
            "presence negative ids".into(),
            presence.into(),
            bytes(format!("present={a}&present=-1")),
            &[422],
        ),
        (
            "presence huge ids".into(),
            presence.into(),
            bytes(format!("present={a}&present=99999999999999999999")),
            &[422],
        ),
        (
            "presence markup".into(),
            presence.into(),
            bytes(format!("present={a}&present=%3Cscript%3E")),
            &[422],
        ),
        (
            "presence long".into(),
            presence.into(),
            bytes(format!("present={a}&present={}", long(100_000))),
            &[422],
        ),
        (
            "presence invalid utf-8".into(),
            presence.into(),
            [
                format!("present={a}&present=").into_bytes(),
                b"\xff".to_vec(),
            ]
            .concat(),
            &[400, 422],
        ),
        (
            "presence 5 MB".into(),
            presence.into(),
            huge.clone(),
            &[413],
        ),
        (
            "presence after rounds".into(),
            "/verwaltung/abend/2026-01-02/teilnehmer".into(),
            bytes(format!("present={a}&present={b}")),
            &[422],
        ),
        (
            "presence no night".into(),
            "/verwaltung/abend/2026-01-03/teilnehmer".into(),
            bytes(format!("present={a}&present={b}")),
            &[404],
        ),
        // The Schockbesteck forms.
        (
            "besteck vorleger unknown".into(),
            format!("{besteck}/start"),
            bytes("spieler=Anna&spieler=Bernd&vorleger=Niemand".into()),
            &[422],
        ),
        (
            "besteck markup players".into(),
            format!("{besteck}/start"),
            bytes("spieler=%3Cscript%3E&spieler=x&vorleger=%3Cscript%3E".into()),
            &[422],
        ),
        (
            "besteck long players".into(),
            format!("{besteck}/start"),
            bytes(format!("spieler={0}&vorleger={0}", long(100_000))),
            &[422],
        ),
        (
            "besteck start 5 MB".into(),
            format!("{besteck}/start"),
            huge.clone(),
            &[413],
        ),
        (
            "besteck throw without runde".into(),
            format!("{besteck}/wurfrunde"),
            bytes("seq=0&p0=Anna&d0=111&n0=1".into()),
            &[409, 422],
        ),
        (
            "besteck undo seq text".into(),
            format!("{besteck}/zurueck"),
            bytes("seq=abc".into()),
            &[409, 422],
        ),
        (
            "besteck confirm without runde".into(),
            format!("{besteck}/bestaetigen"),
            bytes("seq=0".into()),
            &[422],
        ),
        (
            "besteck invalid utf-8".into(),
            format!("{besteck}/bestaetigen"),
            b"seq=\xff".to_vec(),
            &[400, 422],
        ),
        (
            "besteck table text".into(),
            "/verwaltung/besteck/2026-01-02/eins/1/start".into(),
            vec![],
            &[400],
        ),
        (
            "besteck table huge".into(),
            "/verwaltung/besteck/2026-01-02/99999999999/1/start".into(),
            vec![],
            &[400],
        ),
        (
            "besteck round negative".into(),
            "/verwaltung/besteck/2026-01-02/1/-1/start".into(),
            vec![],
            &[400],
        ),
        (
            "besteck round past the night".into(),
            "/verwaltung/besteck/2026-01-02/1/4711/start".into(),
            vec![],
            &[404],
        ),
        (
            "besteck no night".into(),
            "/verwaltung/besteck/2026-01-03/1/1/start".into(),
            vec![],
            &[404],
        ),
        (
            "besteck markup date".into(),
            "/verwaltung/besteck/%3Cscript%3E/1/1/start".into(),
            vec![],
            &[404],
        ),
    ];
    let mut wrong = Vec::new();
    for (what, uri, body, want) in cases.drain(..) {
        let resp = t.send(form_bytes(&uri, body, Some(&secretary))).await;
        let status = resp.status.as_u16();
        let text = resp.body;
        if !want.contains(&status) {
            wrong.push(format!("{what}: {status}, want {want:?}"));
        }
        assert!(
            !text.contains("<script>"),
            "{what}: markup echoed unescaped"
        );
        assert!(
            snapshot(&t.db.write).await == before,
            "{what} changed data ({status})"
        );
    }

    assert!(wrong.is_empty(), "{wrong:#?}");

    // POST /api/v1/wurfrunde: a JSON error with a 4xx.
    let throw = r#"{"player":"A","dice":[1,1,4],"wuerfe":1}"#;
    let api_cases: Vec<(String, Vec<u8>, &[u16])> = vec![
        ("truncated".into(), br#"{"throws": [{"player":"A","dice":[1,1"#.to_vec(), &[400]),
        ("empty".into(), vec![], &[400]),
        ("not an object".into(), b"[1,2,3]".to_vec(), &[400, 422]),
        ("dice as text".into(), format!(r#"{{"throws":[{throw},{{"player":"B","dice":"114","wuerfe":1}}]}}"#).into_bytes(), &[400, 422]),
        ("die out of range".into(), format!(r#"{{"throws":[{throw},{{"player":"B","dice":[7,1,1],"wuerfe":1}}]}}"#).into_bytes(), &[400, 422]),
        ("negative die".into(), format!(r#"{{"throws":[{throw},{{"player":"B","dice":[-1,1,1],"wuerfe":1}}]}}"#).into_bytes(), &[400, 422]),
        ("huge wuerfe".into(), format!(r#"{{"throws":[{throw},{{"player":"B","dice":[1,1,4],"wuerfe":99999999999999999999}}]}}"#).into_bytes(), &[400, 422]),
        ("wuerfe zero".into(), format!(r#"{{"throws":[{throw},{{"player":"B","dice":[1,1,4],"wuerfe":0}}]}}"#).into_bytes(), &[400, 422]),
        ("unknown rules".into(), format!(r#"{{"rules":"<script>","throws":[{throw},{throw}]}}"#).into_bytes(), &[400, 422]),
        ("long name".into(), format!(r#"{{"throws":[{{"player":"{}","dice":[1,1,4],"wuerfe":1}}]}}"#, long(100_000)).into_bytes(), &[400, 422]),
        ("invalid utf-8".into(), [br#"{"throws":[{"player":""#.to_vec(), b"\xff\xfe".to_vec(), br#"","dice":[1,1,4],"wuerfe":1}]}"#.to_vec()].concat(), &[400, 422]),
        ("5 MB".into(), [br#"{"throws":[],"x":""#.to_vec(), huge.clone(), br#""}"#.to_vec()].concat(), &[413]),
    ];
    for (what, body, want) in api_cases {
        let r = req("POST", "/api/v1/wurfrunde")
            .header("content-type", "application/json")
            .header("origin", format!("http://{HOST}"))
            .body(Body::from(body))
            .unwrap();
        let resp = t.send(r).await;
        let status = resp.status.as_u16();
        let text = resp.body;
        assert!(
            want.contains(&status),
            "api {what}: {status}, want {want:?}: {text}"
        );
        if status != 413 {
            let v: Value =
                serde_json::from_str(&text).unwrap_or_else(|_| panic!("api {what}: {text}"));
            assert!(v["error"].is_string(), "api {what}: {text}");
        }
    }
    assert_eq!(snapshot(&t.db.write).await, before);
}
