//! The secretary's night page and the closed-night controls (issue 5): one audit mechanism (the
//! triggers) naming the secretary; "Abend abschließen" on the night page; round, presence and fine
//! forms of a closed night need the Korrektur box and a reason (422, typed values kept, nothing
//! stored) and are stored and audited with them; marking a fine paid works on a closed night.

use axum::http::StatusCode;
use sqlx::SqlitePool;

use crate::app::*;

const NIGHT: &str = "2026-01-02";

/// Audit rows after id `since`: (user, action, before, after).
async fn audit_since(
    pool: &SqlitePool,
    since: i64,
) -> Vec<(String, String, Option<String>, Option<String>)> {
    sqlx::query_as(
        "select user, action, before_json, after_json from audit_log where id > ? order by id",
    )
    .bind(since)
    .fetch_all(pool)
    .await
    .unwrap()
}

/// `page` without its correction forms (`<details class="korrigieren">`: remove or move a round,
/// remove a fine or the night), which carry the Korrektur fieldset on a closed night too.
fn without_corrections(page: &str) -> String {
    let mut out = String::new();
    let mut rest = page;
    while let Some(k) = rest.find("<details class=\"korrigieren\">") {
        out.push_str(&rest[..k]);
        rest = rest[k..]
            .find("</details>")
            .map_or("", |e| &rest[k + e + "</details>".len()..]);
    }
    out.push_str(rest);
    out
}

async fn last_audit_id(pool: &SqlitePool) -> i64 {
    let (n,): (i64,) = sqlx::query_as("select coalesce(max(id), 0) from audit_log")
        .fetch_one(pool)
        .await
        .unwrap();
    n
}

/// Round `number` at table 1 of `date` as stored: (player id, outs, hand_outs, julen, lost).
async fn stored_round(
    pool: &SqlitePool,
    date: &str,
    number: i64,
) -> Vec<(i64, i64, i64, i64, bool)> {
    sqlx::query_as(
        "select x.player_id, x.outs, x.hand_outs, x.julen, x.lost from results x
         join rounds r on r.id = x.round_id join nights n on n.id = r.night_id
         where n.date = ? and r.table_no = 1 and r.number = ? order by x.position",
    )
    .bind(date)
    .bind(number)
    .fetch_all(pool)
    .await
    .unwrap()
}

/// The round form for `rows` (table 1), plus the fields `extra`.
fn round_body(
    number: u32,
    rows: &[(i64, i64, i64, i64, bool)],
    extra: &[(&str, &str)],
) -> RoundForm {
    // Every call replaces an entered round: the "Runde ersetzen" box is ticked.
    let mut f = RoundForm::at_table(1, number).replacing();
    for (id, outs, hand, julen, lost) in rows {
        f = f.row_of(*id, *outs, *hand, *julen);
        if *lost {
            f = f.lost(*id);
        }
    }
    extra.iter().fold(f, |f, (k, v)| f.field(k, v))
}

#[tokio::test]
async fn one_round_entry_is_audited_once_per_result_naming_the_secretary() {
    let t = TestApp::small_season().await;
    let cookie = t.login(SECRETARY).await;
    let rows = stored_round(&t.db.read, NIGHT, 1).await;
    assert!(rows.len() >= 2);
    let since = last_audit_id(&t.db.read).await;
    // Round 1 again, with one more Jule for its first player: the round is replaced.
    let mut changed = rows.clone();
    changed[0].3 += 1;
    let resp = t
        .post_round(
            &format!("/verwaltung/abend/{NIGHT}/runde"),
            &round_body(1, &changed, &[]),
            Some(&cookie),
        )
        .await;
    assert_eq!(resp.status, StatusCode::SEE_OTHER);
    assert_eq!(stored_round(&t.db.read, NIGHT, 1).await, changed);
    let audit = audit_since(&t.db.read, since).await;
    let actions: Vec<&str> = audit.iter().map(|a| a.1.as_str()).collect();
    let mut want = vec!["Ergebnis gelöscht"; rows.len()];
    want.extend(vec!["Ergebnis eingetragen"; rows.len()]);
    assert_eq!(
        actions, want,
        "one row per removed and entered result, no hand-written duplicate"
    );
    for (user, action, before, after) in &audit {
        assert_eq!(user, SECRETARY, "{action}");
        // A removed result names its round (the results go before the round row).
        let json = if action == "Ergebnis gelöscht" {
            before
        } else {
            after
        };
        let json = json.as_deref().unwrap();
        assert!(
            json.contains(&format!("\"night\":\"{NIGHT}\"")),
            "{action}: {json}"
        );
        assert!(json.contains("\"table\":1,\"round\":1"), "{action}: {json}");
    }
    // A fine booked on the night page and marked paid: one row each, by the secretary.
    let since = last_audit_id(&t.db.read).await;
    let (dirk,): (i64,) = sqlx::query_as("select id from players where name = 'Dirk'")
        .fetch_one(&t.db.read)
        .await
        .unwrap();
    let resp = t
        .send(form(
            &format!("/verwaltung/abend/{NIGHT}/strafe"),
            &format!("player={dirk}&kind=sleepy"),
            Some(&cookie),
        ))
        .await;
    assert_eq!(resp.status, StatusCode::SEE_OTHER);
    let (fine,): (i64,) = sqlx::query_as("select max(id) from fines")
        .fetch_one(&t.db.read)
        .await
        .unwrap();
    let resp = t
        .send(form(
            &format!("/verwaltung/abend/{NIGHT}/strafe/{fine}/bezahlt"),
            "paid=1",
            Some(&cookie),
        ))
        .await;
    assert_eq!(resp.status, StatusCode::SEE_OTHER);
    let audit = audit_since(&t.db.read, since).await;
    let got: Vec<(&str, &str)> = audit.iter().map(|a| (a.0.as_str(), a.1.as_str())).collect();
    assert_eq!(
        got,
        [
            (SECRETARY, "Strafe eingetragen"),
            (SECRETARY, "Strafe geändert")
        ]
    );
}

#[tokio::test]
async fn a_closed_night_is_changed_from_the_night_page_only_as_a_korrektur() {
    let t = TestApp::small_season().await;
    let cookie = t.login(SECRETARY).await;
    let page_uri = format!("/verwaltung/abend/{NIGHT}");
    let page = t.send(get(&page_uri, Some(&cookie))).await.body;
    assert!(page.contains("Abend abschließen"), "the close button");
    assert!(page.contains(&format!(
        "action=\"/verwaltung/abend/{NIGHT}/abschliessen\""
    )));
    assert!(
        !page.contains("korrektur_grund"),
        "no Korrektur on an open night"
    );

    let resp = t
        .send(form(
            &format!("{page_uri}/abschliessen"),
            "sicher=1",
            Some(&cookie),
        ))
        .await;
    assert_eq!(resp.status, StatusCode::SEE_OTHER);
    assert_eq!(
        resp.location().unwrap_or_default(),
        format!("{page_uri}#abschluss")
    );
    let page = t.send(get(&page_uri, Some(&cookie))).await.body;
    assert!(!page.contains("Abend abschließen"));
    assert!(page.contains("ist abgeschlossen"));
    // The round form of table 1 and the fine form carry the fieldset (and each correction).
    assert_eq!(
        without_corrections(&page)
            .matches("name=\"korrektur_grund\"")
            .count(),
        2,
        "{page}"
    );

    let rows = stored_round(&t.db.read, NIGHT, 1).await;
    let mut changed = rows.clone();
    changed[0].3 += 7;
    let round_uri = format!("{page_uri}/runde");
    let before = snapshot(&t.db.write).await;
    // (extra fields, expected message)
    let long = "x".repeat(501);
    let refused: [(&[(&str, &str)], &str); 4] = [
        (&[], "Häkchen „Korrektur“ und Grund"),
        (
            &[("korrektur_grund", "Tippfehler")],
            "Häkchen „Korrektur“ und Grund",
        ),
        (
            &[("korrektur", "on"), ("korrektur_grund", "  ")],
            "braucht einen Grund",
        ),
        (
            &[("korrektur", "on"), ("korrektur_grund", &long)],
            "braucht einen Grund",
        ),
    ];
    for (extra, message) in refused {
        let resp = t
            .post_round(&round_uri, &round_body(1, &changed, extra), Some(&cookie))
            .await;
        assert_eq!(resp.status, StatusCode::UNPROCESSABLE_ENTITY, "{extra:?}");
        let body = resp.body;
        assert!(body.contains(message), "{extra:?}: {body}");
        let (id, _, _, julen, _) = changed[0];
        assert!(
            body.contains(&format!("name=\"julen_{id}\" min=\"0\" value=\"{julen}\"")),
            "the typed round is kept"
        );
    }
    assert_eq!(snapshot(&t.db.write).await, before, "nothing stored");

    let since = last_audit_id(&t.db.read).await;
    let resp = t
        .post_round(
            &round_uri,
            &round_body(
                1,
                &changed,
                &[("korrektur", "on"), ("korrektur_grund", "Jule vergessen")],
            ),
            Some(&cookie),
        )
        .await;
    assert_eq!(resp.status, StatusCode::SEE_OTHER);
    assert_eq!(stored_round(&t.db.read, NIGHT, 1).await, changed);
    let audit = audit_since(&t.db.read, since).await;
    assert_eq!(
        audit[0].1,
        "Korrektur eines abgeschlossenen Spielabends: Jule vergessen"
    );
    assert_eq!(audit.len(), 1 + 2 * rows.len());
    assert!(audit.iter().all(|a| a.0 == SECRETARY));
    let (active,): (i64,) =
        sqlx::query_as("select count(*) from night_corrections where active = 1")
            .fetch_one(&t.db.read)
            .await
            .unwrap();
    assert_eq!(active, 0, "locked again after the correction");

    // Fines: refused without Korrektur, booked with it.
    let (dirk,): (i64,) = sqlx::query_as("select id from players where name = 'Dirk'")
        .fetch_one(&t.db.read)
        .await
        .unwrap();
    let fine_uri = format!("{page_uri}/strafe");
    let count_fines = || async {
        let (n,): (i64,) = sqlx::query_as(
            "select count(*) from fines f join nights n on n.id = f.night_id where n.date = ?",
        )
        .bind(NIGHT)
        .fetch_one(&t.db.read)
        .await
        .unwrap();
        n
    };
    let fines_before = count_fines().await;
    let before = snapshot(&t.db.write).await;
    let resp = t
        .send(form(
            &fine_uri,
            &format!("player={dirk}&kind=sleepy&paid=1"),
            Some(&cookie),
        ))
        .await;
    assert_eq!(resp.status, StatusCode::UNPROCESSABLE_ENTITY);
    let body = resp.body;
    assert!(body.contains("Häkchen „Korrektur“ und Grund"));
    // The typed fine is kept: player, kind, paid at once.
    assert!(
        body.contains(&format!("<option value=\"{dirk}\" selected>Dirk")),
        "{body}"
    );
    assert!(
        body.contains("<option value=\"sleepy\" selected>"),
        "{body}"
    );
    assert!(body.contains("name=\"paid\" value=\"1\" checked"), "{body}");
    assert_eq!(snapshot(&t.db.write).await, before);
    let since = last_audit_id(&t.db.read).await;
    let resp = t
        .send(form(
            &fine_uri,
            &format!("player={dirk}&kind=sleepy&korrektur=on&korrektur_grund=nachgetragen"),
            Some(&cookie),
        ))
        .await;
    assert_eq!(resp.status, StatusCode::SEE_OTHER);
    assert_eq!(count_fines().await, fines_before + 1);
    let actions: Vec<String> = audit_since(&t.db.read, since)
        .await
        .into_iter()
        .map(|a| a.1)
        .collect();
    assert_eq!(
        actions,
        [
            "Korrektur eines abgeschlossenen Spielabends: nachgetragen",
            "Strafe eingetragen"
        ]
    );

    // Collecting the fine later needs no Korrektur, on the night page and on the money page.
    let (fine,): (i64,) = sqlx::query_as("select max(id) from fines")
        .fetch_one(&t.db.read)
        .await
        .unwrap();
    let paid = |pool: SqlitePool| async move {
        let (p,): (bool,) = sqlx::query_as("select paid from fines where id = ?")
            .bind(fine)
            .fetch_one(&pool)
            .await
            .unwrap();
        p
    };
    for (uri, body, want) in [
        (format!("{page_uri}/strafe/{fine}/bezahlt"), "paid=1", true),
        (format!("/verwaltung/strafe/{fine}/offen"), "", false),
        (
            format!("/verwaltung/strafe/{fine}/bezahlt"),
            "back=kasse",
            true,
        ),
    ] {
        let since = last_audit_id(&t.db.read).await;
        let resp = t.send(form(&uri, body, Some(&cookie))).await;
        assert_eq!(resp.status, StatusCode::SEE_OTHER, "{uri}");
        assert_eq!(paid(t.db.read.clone()).await, want, "{uri}");
        let audit = audit_since(&t.db.read, since).await;
        assert_eq!(audit.len(), 1, "{uri}: {audit:?}");
        assert_eq!(
            (audit[0].0.as_str(), audit[0].1.as_str()),
            (SECRETARY, "Strafe geändert")
        );
    }
}

#[tokio::test]
async fn presence_and_draw_of_a_closed_night_need_a_korrektur() {
    let t = TestApp::small_season().await;
    let cookie = t.login(SECRETARY).await;
    // The club's today (a night after it is not closed).
    let date = "2026-12-26";
    let resp = t
        .send(form(
            "/verwaltung/saison/2026/abend",
            &format!("date={date}"),
            Some(&cookie),
        ))
        .await;
    assert_eq!(resp.status, StatusCode::SEE_OTHER);
    let ids: Vec<(i64,)> = sqlx::query_as("select id from players order by id limit 4")
        .fetch_all(&t.db.read)
        .await
        .unwrap();
    let present: String = ids
        .iter()
        .map(|(id,)| format!("present={id}"))
        .collect::<Vec<_>>()
        .join("&");
    let uri = format!("/verwaltung/abend/{date}/teilnehmer");
    let resp = t.send(form(&uri, &present, Some(&cookie))).await;
    assert_eq!(resp.status, StatusCode::SEE_OTHER);
    let resp = t
        .send(form(
            &format!("/verwaltung/abend/{date}/abschliessen"),
            "sicher=1",
            Some(&cookie),
        ))
        .await;
    assert_eq!(resp.status, StatusCode::SEE_OTHER);
    let page = t
        .send(get(&format!("/verwaltung/abend/{date}"), Some(&cookie)))
        .await
        .body;
    // Presence form, the table's round form, the fine form and reopening (itself a Korrektur,
    // issue 22.2), and each correction.
    assert_eq!(
        without_corrections(&page)
            .matches("name=\"korrektur_grund\"")
            .count(),
        4,
        "{page}"
    );

    let three = present.rsplit_once('&').unwrap().0;
    let before = snapshot(&t.db.write).await;
    let resp = t.send(form(&uri, three, Some(&cookie))).await;
    assert_eq!(resp.status, StatusCode::UNPROCESSABLE_ENTITY);
    let body = resp.body;
    assert!(body.contains("Häkchen „Korrektur“ und Grund"), "{body}");
    let last = ids[3].0;
    assert!(
        !body.contains(&format!("value=\"{last}\" checked")),
        "the typed ticks are kept"
    );
    assert!(body.contains(&format!("value=\"{}\" checked", ids[0].0)));
    assert_eq!(snapshot(&t.db.write).await, before);

    let resp = t
        .send(form(
            &uri,
            &format!("{three}&korrektur=on&korrektur_grund=Dirk+ging+vorher"),
            Some(&cookie),
        ))
        .await;
    assert_eq!(resp.status, StatusCode::SEE_OTHER);
    let (n,): (i64,) = sqlx::query_as(
        "select count(*) from night_participants p join nights n on n.id = p.night_id where n.date = ?",
    )
    .bind(date)
    .fetch_one(&t.db.read)
    .await
    .unwrap();
    assert_eq!(n, 3);
    let (audited,): (i64,) = sqlx::query_as(
        "select count(*) from audit_log where user = ? and action like 'Korrektur%Dirk ging vorher'",
    )
    .bind(SECRETARY)
    .fetch_one(&t.db.read)
    .await
    .unwrap();
    assert_eq!(audited, 1);
}

#[tokio::test]
async fn on_a_closed_night_only_the_paid_flag_of_a_fine_changes_without_korrektur() {
    let t = TestApp::small_season().await;
    let (night,): (i64,) = sqlx::query_as("select id from nights where date = ?")
        .bind(NIGHT)
        .fetch_one(&t.db.read)
        .await
        .unwrap();
    sqlx::query("update nights set closed = 1 where id = ?")
        .bind(night)
        .execute(&t.db.write)
        .await
        .unwrap();
    // (update, allowed)
    let cases = [
        ("update fines set paid = 1 - paid where night_id = ?", true),
        ("update fines set paid = paid where night_id = ?", true),
        (
            "update fines set amount_cents = amount_cents where night_id = ?",
            true,
        ),
        (
            "update fines set amount_cents = amount_cents + 1 where night_id = ?",
            false,
        ),
        (
            "update fines set paid = 1 - paid, amount_cents = 0 where night_id = ?",
            false,
        ),
        ("update fines set kind = 'sleepy' where night_id = ?", false),
        (
            "update fines set player_id = (select max(id) from players) where night_id = ?",
            false,
        ),
        (
            "update fines set night_id = night_id + 1 where night_id = ?",
            false,
        ),
        ("delete from fines where night_id = ?", false),
    ];
    for (sql, allowed) in cases {
        let before = snapshot(&t.db.write).await;
        let done = sqlx::query(sql).bind(night).execute(&t.db.write).await;
        assert_eq!(done.is_ok(), allowed, "{sql}: {done:?}");
        if let Ok(d) = done {
            assert_eq!(d.rows_affected(), 1, "{sql}");
        } else {
            assert_eq!(snapshot(&t.db.write).await, before, "{sql}");
        }
    }
}

/// The Korrektur fieldset of the form at `marker` in `page` (the first after it): (ticked, reason).
fn korrektur_after(page: &str, marker: &str) -> (bool, String) {
    let at = page
        .find(marker)
        .unwrap_or_else(|| panic!("{marker}: {page}"));
    let rest = &page[at..];
    let set = &rest[rest
        .find("<fieldset class=\"korrektur\">")
        .expect("fieldset")..];
    let set = &set[..set.find("</fieldset>").expect("end")];
    let ticked = set.contains("value=\"on\" checked");
    let reason = set
        .split("name=\"korrektur_grund\" maxlength=\"500\" value=\"")
        .nth(1)
        .and_then(|r| r.split('"').next())
        .unwrap_or_default()
        .to_string();
    (ticked, reason)
}

#[tokio::test]
async fn a_refused_correction_keeps_the_korrektur_tick_and_reason() {
    // Issue 21.4: every form of a closed night that comes back refused keeps what was typed in
    // its Korrektur fields (and only that form: the others stay empty).
    let t = TestApp::small_season().await;
    let cookie = t.login(SECRETARY).await;
    let page_uri = format!("/verwaltung/abend/{NIGHT}");
    let (dirk,): (i64,) = sqlx::query_as("select id from players where name = 'Dirk'")
        .fetch_one(&t.db.read)
        .await
        .unwrap();
    let resp = t
        .send(form(
            &format!("{page_uri}/strafe"),
            &format!("player={dirk}&kind=sleepy"),
            Some(&cookie),
        ))
        .await;
    assert_eq!(resp.status, StatusCode::SEE_OTHER);
    let (fine,): (i64,) = sqlx::query_as("select max(id) from fines")
        .fetch_one(&t.db.read)
        .await
        .unwrap();
    let resp = t
        .send(form(
            &format!("{page_uri}/abschliessen"),
            "sicher=1",
            Some(&cookie),
        ))
        .await;
    assert_eq!(resp.status, StatusCode::SEE_OTHER);
    let k = "&korrektur=on&korrektur_grund=Tippfehler+im+Bogen";
    let reason = "Tippfehler im Bogen".to_string();

    // The round form: 9 Outs is refused by the league; the form keeps the box and the reason.
    let before = stored_round(&t.db.read, NIGHT, 1).await;
    let mut rows = before.clone();
    rows[0].1 = 9;
    let resp = t
        .post_round(
            &format!("{page_uri}/runde"),
            &round_body(
                1,
                &rows,
                &[("korrektur", "on"), ("korrektur_grund", &reason)],
            ),
            Some(&cookie),
        )
        .await;
    assert_eq!(
        resp.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "{}",
        resp.body
    );
    assert_eq!(
        korrektur_after(&resp.body, "name=\"table\" value=\"1\""),
        (true, reason.clone())
    );
    // the other forms' fields stay empty
    assert_eq!(
        korrektur_after(&resp.body, "action=\"/verwaltung/abend/2026-01-02/strafe\""),
        (false, String::new())
    );

    // Removing a round without the confirmation box: its folded form opens with the Korrektur.
    let resp = t
        .send(form(
            &format!("{page_uri}/runde/1/1/loeschen"),
            &k[1..],
            Some(&cookie),
        ))
        .await;
    assert_eq!(
        resp.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "{}",
        resp.body
    );
    assert!(resp
        .body
        .contains("<details class=\"korrigieren\" open><summary>Runde 1 korrigieren"));
    assert_eq!(
        korrektur_after(&resp.body, "runde/1/1/loeschen"),
        (true, reason.clone())
    );
    assert_eq!(
        korrektur_after(&resp.body, "name=\"table\" value=\"1\""),
        (false, String::new())
    );

    // Removing a fine without the box; the fine's correction is a full-width row of its own
    // (issue 21.3: the fieldset no longer squeezed into the table's last cell).
    let resp = t
        .send(form(
            &format!("{page_uri}/strafe/{fine}/loeschen"),
            &k[1..],
            Some(&cookie),
        ))
        .await;
    assert_eq!(
        resp.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "{}",
        resp.body
    );
    assert_eq!(
        korrektur_after(&resp.body, &format!("strafe/{fine}/loeschen")),
        (true, reason.clone())
    );
    assert!(resp.body.contains(
        "<tr class=\"strafe-korrektur\"><td colspan=\"4\"><details class=\"korrigieren\" open>"
    ));

    // The presence form and the night's removal.
    let resp = t
        .send(form(
            &format!("{page_uri}/teilnehmer"),
            &format!("present=x{k}"),
            Some(&cookie),
        ))
        .await;
    assert_eq!(
        resp.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "{}",
        resp.body
    );
    let resp = t
        .send(form(
            &format!("{page_uri}/loeschen"),
            &k[1..],
            Some(&cookie),
        ))
        .await;
    assert_eq!(
        resp.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "{}",
        resp.body
    );
    assert_eq!(
        korrektur_after(&resp.body, &format!("action=\"{page_uri}/loeschen\"")),
        (true, reason.clone())
    );

    // The paper sheet: a refused sheet keeps the Korrektur and links to the round it names
    // (round 10 removed first, as a Korrektur, so the sheet offers it).
    let resp = t
        .send(form(
            &format!("{page_uri}/runde/1/10/loeschen"),
            &format!("sicher=1{k}"),
            Some(&cookie),
        ))
        .await;
    assert_eq!(resp.status, StatusCode::SEE_OTHER, "{}", resp.body);
    let resp = t
        .send(form(
            &format!("{page_uri}/bogen/1"),
            &format!("o10_0=zwei&v10=0&m10_0=1{k}"),
            Some(&cookie),
        ))
        .await;
    assert_eq!(
        resp.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "{}",
        resp.body
    );
    assert_eq!(
        korrektur_after(&resp.body, &format!("action=\"{page_uri}/bogen/1\"")),
        (true, reason.clone())
    );
    assert!(
        resp.body
            .contains("<a href=\"#runde-10\">(zum Formular)</a>"),
        "{}",
        resp.body
    );
    // nothing stored
    assert_eq!(stored_round(&t.db.read, NIGHT, 1).await, before);
}

/// A night after the club's today is not closed (hostile trial: the Abschluss of 25.12.2026 went
/// through on 09.12.): refused in German, the night stays open; on its day it closes.
#[tokio::test]
async fn a_night_after_the_clubs_today_is_not_closed() {
    let clock = schockerliga::service::clock::FixedClock::parse("2026-12-09T12:00:00Z").unwrap();
    let t = TestApp::builder()
        .staff()
        .season(season_file("small-2026", None))
        .clock(clock.clone())
        .start()
        .await;
    let cookie = t.login(SECRETARY).await;
    let uri = "/verwaltung/abend/2026-12-25/abschliessen";
    let resp = t.send(form(uri, "sicher=1", Some(&cookie))).await;
    assert_eq!(resp.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(
        resp.body.contains(
            "Der Abend vom 25.12.2026 liegt in der Zukunft: abschließen erst an dem Tag."
        ),
        "{}",
        resp.body
    );
    let (closed,): (bool,) = sqlx::query_as("select closed from nights where date = '2026-12-25'")
        .fetch_one(&t.db.read)
        .await
        .unwrap();
    assert!(!closed, "nothing of the refused close is stored");
    // A night before today closes as ever, and the future one on its day.
    let resp = t
        .send(form(
            "/verwaltung/abend/2026-11-20/abschliessen",
            "sicher=1",
            Some(&cookie),
        ))
        .await;
    assert_eq!(resp.status, StatusCode::SEE_OTHER);
    clock.set("2026-12-25T12:00:00Z".parse().unwrap());
    let resp = t.send(form(uri, "sicher=1", Some(&cookie))).await;
    assert_eq!(resp.status, StatusCode::SEE_OTHER, "{}", resp.body);
}
