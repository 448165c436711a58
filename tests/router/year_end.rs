//! The netting is the season's last act (issue 31.1, league.md §11): refused while a night of the
//! season is planned or open, naming it, and nothing stored; "Endgültig" only when no night is
//! planned or open; after it, a new night or a Korrektur is refused until "Verrechnung aufheben"
//! (a Korrektur with a reason that puts the netted fines back to open). On the Jahresabschluss
//! page the Probe and every sum agree in every state.

use std::sync::Arc;

use axum::http::StatusCode;
use chrono::{DateTime, NaiveDate, Utc};
use schockerliga::league::model::file::SeasonFile;
use schockerliga::league::Change;
use schockerliga::service::clock::FixedClock;
use schockerliga::service::planned::{OnPlanned, PlanInput};
use schockerliga::service::Edit;
use serde_json::{json, Value};

use crate::app::{encode, snapshot, TestApp, SECRETARY};

/// Anna, Bernd and Carla (Jahresbeitrag paid in January) at four closed nights in November 2026,
/// ten rounds each: Anna throws an Out in every round, Bernd in every other and loses every
/// round, Carla throws none. Two paid places (60 %, 40 %): Anna 1., Bernd 2. and Lucky Looser,
/// Carla none. Open fines: Bernd 1,00 € and Carla 1,00 € (06.11.).
pub(crate) fn season() -> SeasonFile {
    let players: Vec<Value> = ["Anna", "Bernd", "Carla"]
        .iter()
        .map(|n| json!({ "name": n, "fee_paid_on": "2026-01-10" }))
        .collect();
    let nights: Vec<Value> = ["2026-11-06", "2026-11-13", "2026-11-20", "2026-11-27"]
        .iter()
        .map(|date| {
            let rounds: Vec<Value> = (1..=10u32)
                .map(|r| {
                    json!({ "number": r, "results": [
                        { "player": "Anna", "outs": 1, "hand_outs": 0, "julen": 0, "lost": false },
                        { "player": "Bernd", "outs": r % 2, "hand_outs": 0, "julen": 0, "lost": true },
                        { "player": "Carla", "outs": 0, "hand_outs": 0, "julen": 0, "lost": false },
                    ] })
                })
                .collect();
            let fines = if *date == "2026-11-06" {
                json!([{ "player": "Bernd", "kind": "late", "paid": false },
                       { "player": "Carla", "kind": "late", "paid": false }])
            } else {
                json!([])
            };
            json!({ "date": date, "closed": true, "tables": [ { "number": 1, "rounds": rounds } ],
                    "fines": fines })
        })
        .collect();
    serde_json::from_value(json!({
        "format": "schockerliga-season/1", "season": 2026,
        "rules": { "payout_percent": [60, 40], "min_rounds_first_liga": 20 },
        "players": players, "nights": nights
    }))
    .unwrap()
}

/// The instant `text` (RFC 3339).
fn at(text: &str) -> DateTime<Utc> {
    text.parse().unwrap()
}

/// The season above with the staff and the Kassenwart `kasse`, on 03.12.2026 (clock settable),
/// 11.12. and 18.12. planned; the Kassenwart's cookie and the planned nights' ids.
async fn december() -> (TestApp, Arc<FixedClock>, String, [i64; 2]) {
    let clock = FixedClock::parse("2026-12-03T12:00:00Z").unwrap();
    let t = TestApp::builder()
        .staff()
        .account("kasse", "kassenwart")
        .season(season())
        .clock(clock.clone())
        .start()
        .await;
    let mut ids = [0; 2];
    for (i, day) in ["2026-12-11", "2026-12-18"].iter().enumerate() {
        let input = PlanInput {
            date: day.parse().ok(),
            ..PlanInput::default()
        };
        ids[i] = t
            .league
            .plan_night(&input, OnPlanned::Refuse, SECRETARY)
            .await
            .unwrap()
            .id();
    }
    let kasse = t.login("kasse").await;
    (t, clock, kasse, ids)
}

/// German euros ("1.234,56 €", "–") as cents.
fn cents(text: &str) -> i64 {
    let t = text.trim().trim_end_matches('€').trim();
    if t == "–" || t.is_empty() {
        return 0;
    }
    let (neg, t) = match t.strip_prefix('−').or_else(|| t.strip_prefix('-')) {
        Some(rest) => (true, rest),
        None => (false, t),
    };
    let digits: String = t.chars().filter(char::is_ascii_digit).collect();
    let c: i64 = digits
        .parse()
        .unwrap_or_else(|_| panic!("not euros: {text:?}"));
    if neg {
        -c
    } else {
        c
    }
}

/// The text between `from` and the next `to` after it in `s`.
fn between<'a>(s: &'a str, from: &str, to: &str) -> &'a str {
    let start = s
        .find(from)
        .unwrap_or_else(|| panic!("{from:?} not in page"))
        + from.len();
    let end = s[start..]
        .find(to)
        .unwrap_or_else(|| panic!("{to:?} after {from:?}"));
    &s[start..start + end]
}

/// The amounts of "A + B + C = D" (words between them ignored): ([A, B, C], D).
fn sum_line(line: &str) -> (Vec<i64>, i64) {
    let (parts, total) = line.rsplit_once(" = ").unwrap();
    let amounts = parts
        .split(" + ")
        .map(|p| cents(p.split(" €").next().unwrap()))
        .collect();
    (amounts, cents(total.split(" €").next().unwrap()))
}

/// The cells of the rows of table `id` in `page`, tags stripped ("mit Verrechnung …" notes and
/// the Lucky Looser note dropped).
fn rows(page: &str, id: &str) -> Vec<Vec<String>> {
    let table = between(page, &format!("id=\"{id}\">"), "</table>");
    let body = between(table, "<tbody>", "</tbody>");
    body.split("<tr")
        .skip(1)
        .map(|row| {
            row.split("<td")
                .skip(1)
                .map(|cell| {
                    let inner = cell.split_once('>').map_or("", |x| x.1);
                    let inner = inner.split("</td>").next().unwrap_or("");
                    let inner = inner.split("<br>").next().unwrap_or("");
                    let mut text = String::new();
                    let mut tag = false;
                    for ch in inner.chars() {
                        match ch {
                            '<' => tag = true,
                            '>' => tag = false,
                            c if !tag => text.push(c),
                            _ => {}
                        }
                    }
                    text.trim().to_string()
                })
                .collect()
        })
        .collect()
}

/// The netted fines of the database, cents.
async fn netted_in_db(t: &TestApp) -> i64 {
    let (sum,): (Option<i64>,) =
        sqlx::query_as("select sum(amount_cents) from fines where netted = 1")
            .fetch_one(&t.db.read)
            .await
            .unwrap();
    sum.unwrap_or(0)
}

/// The Jahresabschluss 2026 as the Kassenwart sees it, checked: the Probe and every sum on the
/// page agree (places, Lucky Looser, carry-out, pot, the netting table and its check line, the
/// netted fines of the database).
async fn abschluss(t: &TestApp, kasse: &str) -> String {
    let page = t.get("/saison/2026/abschluss", Some(kasse)).await;
    assert_eq!(page.status, StatusCode::OK, "{}", page.body);
    let page = page.body;
    assert!(page.contains("Stimmt: jeder Cent ist verteilt."), "{page}");
    let probe = between(&page, "<h2>Probe</h2>\n<p class=\"formula\">", "</p>");
    let mut lines = probe.split("<br>");
    let (left, left_total) = sum_line(lines.next().unwrap());
    let (right, right_total) = sum_line(lines.next().unwrap());
    assert_eq!(left_total, right_total, "{probe}");
    assert_eq!(left.iter().sum::<i64>(), left_total, "{probe}");
    assert_eq!(right.iter().sum::<i64>(), right_total, "{probe}");
    let (places, lucky, carry_out) = (left[0], left[1], left[2]);
    let (fees, fines, carry_in) = (right[0], right[1], right[2]);
    assert_eq!(cents(between(&page, "id=\"fees\">", "<")), fees);
    assert_eq!(cents(between(&page, "id=\"fines\">", "<")), fines);
    assert_eq!(cents(between(&page, "id=\"carry-in\">", "<")), carry_in);
    assert_eq!(cents(between(&page, "id=\"carry-out\">", "<")), carry_out);
    let pot = cents(between(&page, "<span id=\"pot\">", "<"));
    assert_eq!(pot, fees - lucky + fines + carry_in, "pot");
    let place_rows = rows(&page, "plaetze");
    let (sum_row, payees) = place_rows.split_last().unwrap();
    assert_eq!(sum_row[1], "Summe");
    assert_eq!(cents(sum_row.last().unwrap()), places, "places' Summe");
    assert_eq!(
        payees.iter().map(|r| cents(r.last().unwrap())).sum::<i64>(),
        places,
        "places"
    );
    let lucky_rows = rows(&page, "lucky-looser");
    assert_eq!(
        lucky_rows
            .iter()
            .map(|r| cents(r.last().unwrap()))
            .sum::<i64>(),
        lucky,
        "Lucky Looser"
    );
    // The netting: share = netted + paid out, row by row and in the check line.
    let net = rows(&page, "verrechnung-tabelle");
    let col = |i: usize| net.iter().map(|r| cents(&r[i])).sum::<i64>();
    for r in &net {
        assert_eq!(cents(&r[1]), cents(&r[2]) + cents(&r[4]), "{r:?}");
    }
    let check = between(&page, "id=\"netting-check\">", "<");
    let (paid_netted, shares) = sum_line(&check.replace(" Plätze und Lucky Looser", ""));
    assert_eq!(
        paid_netted,
        vec![col(4), col(2)],
        "paid out + netted: {check}"
    );
    assert_eq!(shares, col(1), "{check}");
    if page.contains("<p class=\"formula\">Vorschau:") {
        // Before the netting its table shows the shares after it: those the places name "mit
        // Verrechnung", the others as they are, and the Lucky Looser's.
        let after: i64 = between(&page, "id=\"plaetze\">", "</table>")
            .split("<tr")
            .skip(2)
            .filter(|r| !r.contains("<td>Summe</td>"))
            .map(|r| match r.split("mit Verrechnung ").nth(1) {
                Some(w) => cents(w.split('<').next().unwrap()),
                None => cents(&rows_of_one(r)),
            })
            .sum();
        assert_eq!(shares, after + lucky, "{check}");
    } else {
        assert_eq!(shares, places + lucky, "{check}");
        assert_eq!(
            col(2),
            netted_in_db(t).await,
            "every netted fine in the table"
        );
        assert!(
            probe.contains(&format!("davon {check}")),
            "the Probe names the netting: {probe}"
        );
    }
    page
}

/// The amount of one place row's last cell.
fn rows_of_one(row: &str) -> String {
    let last = row.rsplit("<td class=\"num\">").next().unwrap();
    last.split('<').next().unwrap().to_string()
}

/// (paid, paid_on, netted) of every fine, by id.
async fn fines(t: &TestApp) -> Vec<(bool, Option<String>, bool)> {
    sqlx::query_as("select paid, paid_on, netted from fines order by id")
        .fetch_all(&t.db.read)
        .await
        .unwrap()
}

/// Books the netting as `kasse` on `day`.
async fn net(t: &TestApp, kasse: &str, day: &str) -> crate::app::Reply {
    t.post(
        "/verwaltung/saison/2026/verrechnung",
        &format!("paid_on={day}"),
        Some(kasse),
    )
    .await
}

#[tokio::test]
async fn the_netting_is_refused_while_a_night_is_planned_and_the_page_stays_provisional() {
    let (t, _, kasse, _) = december().await;
    let page = abschluss(&t, &kasse).await;
    assert!(page.contains("Vorläufig"), "{page}");
    assert!(!page.contains("Endgültig:"), "{page}");
    assert!(
        page.contains("Noch geplant: Freitag, 11.12.2026, Freitag, 18.12.2026"),
        "the page says what is still to come: {page}"
    );
    // No button that would be refused.
    assert!(!page.contains("Verrechnung buchen"), "{page}");

    let before = snapshot(&t.db.write).await;
    let r = net(&t, &kasse, "2026-12-03").await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", r.body);
    assert!(
        r.body.contains(
            "Noch geplant: Freitag, 11.12.2026, Freitag, 18.12.2026 – die Verrechnung erst \
             nach dem letzten Abend"
        ),
        "{}",
        r.body
    );
    assert_eq!(snapshot(&t.db.write).await, before, "nothing stored");

    // The service refuses it too (the command line, the API): not only the web form.
    let change = Change::NetPayouts {
        paid_on: "2026-12-03".parse().unwrap(),
        carry_in_cents: 0,
    };
    let e = t
        .league
        .change(2026, change, &Edit::by("cli"))
        .await
        .unwrap_err();
    assert!(
        e.to_string().contains("Noch geplant: Freitag, 11.12.2026"),
        "{e}"
    );
    assert_eq!(snapshot(&t.db.write).await, before, "nothing stored");
    abschluss(&t, &kasse).await;

    // A cancelled night is no longer planned.
    let planned: Vec<i64> = t.league.planning().nights.iter().map(|n| n.id).collect();
    t.league
        .cancel_planned(planned[0], SECRETARY)
        .await
        .unwrap();
    let r = net(&t, &kasse, "2026-12-03").await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", r.body);
    assert!(
        r.body.contains("Noch geplant: Freitag, 18.12.2026 – "),
        "{}",
        r.body
    );
    assert!(!r.body.contains("11.12.2026 –"), "{}", r.body);
}

#[tokio::test]
async fn the_netting_is_refused_while_a_night_is_open_and_accepted_after_the_last_night() {
    let (t, clock, _, [first, second]) = december().await;
    t.league.cancel_planned(second, SECRETARY).await.unwrap();
    // The 11.12. is played: started, a round entered, not closed yet.
    clock.set(at("2026-12-11T19:00:00Z"));
    let kasse = t.login("kasse").await;
    let date: NaiveDate = "2026-12-11".parse().unwrap();
    t.league.start_planned(first, SECRETARY).await.unwrap();
    let results = ["Anna", "Bernd", "Carla"]
        .iter()
        .map(|p| schockerliga::league::model::file::ResultEntry {
            player: p.to_string(),
            outs: u32::from(*p == "Carla"),
            hand_outs: 0,
            julen: 0,
            joker: false,
            lost: *p == "Anna",
        })
        .collect();
    let round = Change::PutRound {
        date,
        table: 1,
        number: 1,
        results,
        replace: schockerliga::league::change::Replace::No,
        seat_newcomers: true,
        schockbesteck: None,
    };
    t.league
        .change(2026, round, &Edit::by(SECRETARY))
        .await
        .unwrap();

    let page = abschluss(&t, &kasse).await;
    assert!(page.contains("Vorläufig"), "{page}");
    assert!(page.contains("Noch offen: Freitag, 11.12.2026"), "{page}");
    let before = snapshot(&t.db.write).await;
    let r = net(&t, &kasse, "2026-12-11").await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", r.body);
    assert!(
        r.body.contains(
            "Noch offen: Freitag, 11.12.2026 (nicht abgeschlossen) – die Verrechnung erst \
             nach dem letzten Abend"
        ),
        "{}",
        r.body
    );
    assert_eq!(snapshot(&t.db.write).await, before, "nothing stored");

    // Closed: the last night is over, the netting goes through and the page is final.
    let secretary = t.login(SECRETARY).await;
    let r = t
        .post_follow(
            &format!("/verwaltung/abend/{date}/abschliessen"),
            "sicher=on",
            &secretary,
        )
        .await;
    assert!(
        r.body.contains("Spielabend 11.12.2026 abgeschlossen"),
        "{}",
        r.body
    );
    let page = abschluss(&t, &kasse).await;
    assert!(page.contains("Verrechnung buchen"), "{page}");
    assert!(!page.contains("Endgültig:"), "{page}");
    let r = net(&t, &kasse, "2026-12-11").await;
    assert_eq!(r.status, StatusCode::SEE_OTHER, "{}", r.body);
    let page = abschluss(&t, &kasse).await;
    assert!(
        page.contains("Endgültig: nach dem letzten Abend vom 11.12.2026."),
        "{page}"
    );
    assert!(!page.contains("Noch offen:") && !page.contains("Noch geplant:"));
}

/// The season netted on 11.12.2026 after its last night (27.11.): the Kassenwart's cookie and
/// the secretary's.
async fn netted() -> (TestApp, Arc<FixedClock>, String, String) {
    let (t, clock, _, ids) = december().await;
    for id in ids {
        t.league.cancel_planned(id, SECRETARY).await.unwrap();
    }
    clock.set(at("2026-12-11T19:00:00Z"));
    // A week later: logged in again.
    let kasse = t.login("kasse").await;
    let r = net(&t, &kasse, "2026-12-11").await;
    assert_eq!(r.status, StatusCode::SEE_OTHER, "{}", r.body);
    assert_eq!(
        fines(&t).await,
        vec![
            (true, Some("2026-12-11".into()), true),
            (false, None, false),
        ],
        "Bernd's fine netted, Carla's (no share) open"
    );
    let page = abschluss(&t, &kasse).await;
    assert!(
        page.contains("Endgültig: nach dem letzten Abend vom 27.11.2026."),
        "{page}"
    );
    let secretary = t.login(SECRETARY).await;
    (t, clock, kasse, secretary)
}

#[tokio::test]
async fn after_the_netting_a_new_night_or_a_korrektur_waits_for_verrechnung_aufheben() {
    let (t, _, kasse, secretary) = netted().await;
    let before = snapshot(&t.db.write).await;
    let aufheben = "erst auf der Seite Jahresabschluss „Verrechnung aufheben“";

    // A new night from the season page.
    let r = t
        .post(
            "/verwaltung/saison/2026/abend",
            "date=2026-12-18",
            Some(&secretary),
        )
        .await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", r.body);
    assert!(r.body.contains(aufheben), "{}", r.body);
    assert!(r.body.contains("am 11.12.2026 verrechnet"), "{}", r.body);
    // A night planned for the season, and its start.
    let input = PlanInput {
        date: "2026-12-18".parse().ok(),
        ..PlanInput::default()
    };
    let e = t
        .league
        .plan_night(&input, OnPlanned::Refuse, SECRETARY)
        .await
        .unwrap_err();
    assert!(e.to_string().contains(aufheben), "{e}");
    // A Korrektur of a closed night (a round removed).
    let korrektur = encode(&[
        ("sicher", "on"),
        ("korrektur", "on"),
        ("korrektur_grund", "Runde doppelt"),
    ]);
    let r = t
        .post(
            "/verwaltung/abend/2026-11-27/runde/1/1/loeschen",
            &korrektur,
            Some(&secretary),
        )
        .await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", r.body);
    assert!(r.body.contains(aufheben), "{}", r.body);
    // A payment (it moves the pot): Carla pays her open fine.
    let r = t
        .post(
            "/verwaltung/saison/2026/zahlung",
            "player=3&amount=1%2C00&paid_on=2026-12-11",
            Some(&kasse),
        )
        .await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", r.body);
    assert!(r.body.contains(aufheben), "{}", r.body);
    // The command line's and the API's way: the service refuses.
    let e = t
        .league
        .change(
            2026,
            Change::AddNight {
                date: "2026-12-18".parse().unwrap(),
            },
            &Edit::by("cli"),
        )
        .await
        .unwrap_err();
    assert!(e.to_string().contains(aufheben), "{e}");
    assert_eq!(snapshot(&t.db.write).await, before, "nothing stored");
    abschluss(&t, &kasse).await;
}

#[tokio::test]
async fn verrechnung_aufheben_puts_the_netted_fines_back_to_open_and_then_the_change_goes_through()
{
    let (t, _, kasse, secretary) = netted().await;
    let page = abschluss(&t, &kasse).await;
    assert!(page.contains("Verrechnung aufheben"), "{page}");
    let public = t.get("/saison/2026/abschluss", None).await.body;
    assert!(!public.contains("Verrechnung aufheben"), "{public}");

    // Without a reason: refused, nothing stored.
    let before = snapshot(&t.db.write).await;
    let r = t
        .post(
            "/verwaltung/saison/2026/verrechnung/aufheben",
            "grund=",
            Some(&kasse),
        )
        .await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", r.body);
    assert!(r.body.contains("braucht einen Grund"), "{}", r.body);
    assert_eq!(snapshot(&t.db.write).await, before, "nothing stored");

    let body = encode(&[("grund", "Abend am 18.12. wird nachgeholt")]);
    let r = t
        .post_follow(
            "/verwaltung/saison/2026/verrechnung/aufheben",
            &body,
            &kasse,
        )
        .await;
    assert!(
        r.body.contains(
            "Verrechnung vom 11.12.2026 aufgehoben: die verrechneten Strafen sind wieder offen."
        ),
        "{}",
        r.body
    );
    assert_eq!(
        fines(&t).await,
        vec![(false, None, false), (false, None, false)],
        "the netted fine is open again"
    );
    // Audited with its reason (the Protokoll).
    let (user, action): (String, String) = sqlx::query_as(
        "select user, action from audit_log where action like '%Verrechnung%aufgehoben%'",
    )
    .fetch_one(&t.db.read)
    .await
    .unwrap();
    assert_eq!(user, "kasse");
    assert!(
        action.contains("Abend am 18.12. wird nachgeholt"),
        "{action}"
    );
    let admin = t.login(crate::app::ADMIN).await;
    let protokoll = t.get("/verwaltung/protokoll", Some(&admin)).await.body;
    assert!(
        protokoll.contains("Abend am 18.12. wird nachgeholt"),
        "{protokoll}"
    );
    let page = abschluss(&t, &kasse).await;
    assert!(!page.contains("Endgültig:"), "{page}");
    assert!(page.contains("Verrechnung buchen"), "{page}");

    // Now the new night goes through, and with it the netting waits again.
    let r = t
        .post_follow(
            "/verwaltung/saison/2026/abend",
            "date=2026-12-11",
            &secretary,
        )
        .await;
    assert!(
        r.body.contains("Spielabend 11.12.2026 angelegt."),
        "{}",
        r.body
    );
    let page = abschluss(&t, &kasse).await;
    assert!(page.contains("Noch offen: Freitag, 11.12.2026"), "{page}");
    // Nothing to undo any more: refused.
    let r = t
        .post(
            "/verwaltung/saison/2026/verrechnung/aufheben",
            &body,
            Some(&kasse),
        )
        .await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", r.body);
    assert!(r.body.contains("keine Verrechnung gebucht"), "{}", r.body);
}

#[tokio::test]
async fn a_stored_netting_that_no_longer_fits_is_shown_so_and_the_sums_still_agree() {
    // Stored before the netting was the last act: Carla's fine netted, but she has no share
    // (Bernd's paid).
    let mut file = season();
    file.nights[0].fines[0].paid = true;
    let fine = &mut file.nights[0].fines[1];
    fine.paid = true;
    fine.paid_on = "2026-11-30".parse().ok();
    fine.netted = true;
    let t = TestApp::builder()
        .staff()
        .account("kasse", "kassenwart")
        .season(file)
        .start()
        .await;
    let kasse = t.login("kasse").await;
    let page = abschluss(&t, &kasse).await;
    assert!(!page.contains("Endgültig:"), "{page}");
    assert!(
        page.contains("Die Verrechnung passt nicht mehr: Carla hat keinen Anteil"),
        "{page}"
    );
    assert!(page.contains("Verrechnung aufheben"), "{page}");
}

/// Issue 31.11: the netting table says when an "Anteil" includes the Lucky Looser's amount
/// (Bernd: 40 % of 36,00 € and the 10,00 € as Lucky Looser), and not when it does not (Anna).
#[tokio::test]
async fn the_netting_table_says_when_a_share_includes_the_lucky_looser() {
    let (t, _, kasse, _) = netted().await;
    let page = abschluss(&t, &kasse).await;
    assert!(
        page.contains(
            "<td>Bernd</td><td class=\"num\">24,40 €<br><span class=\"muted\">inkl. 10,00 € \
             Lucky Looser</span></td><td class=\"num\">1,00 €</td>"
        ),
        "{page}"
    );
    assert!(
        page.contains("<td>Anna</td><td class=\"num\">21,60 €</td>"),
        "{page}"
    );
}

/// After the netting an import that replaces the season (a spreadsheet's "ersetzen" with its
/// Korrektur, or a season file) is refused like every other change that moves places or the pot
/// (hostile run: `import --replace --korrektur` moved the fees and payouts of a final
/// Jahresabschluss); the season's own export, which moves nothing, still goes in.
#[tokio::test]
async fn after_the_netting_an_import_that_moves_places_or_the_pot_is_refused() {
    use schockerliga::league::Korrektur;
    use schockerliga::service::interchange::ImportOptions;
    let (t, _, _, _) = netted().await;
    let before = snapshot(&t.db.write).await;
    let aufheben = "erst auf der Seite Jahresabschluss „Verrechnung aufheben“";
    // The spreadsheet's way: results only, Carla now throws three Outs in every round of 27.11.
    // and passes Bernd for the second paid place.
    let mut sheet = season();
    for night in &mut sheet.nights {
        night.fines.clear();
        night.closed = false;
    }
    for round in &mut sheet.nights[3].tables[0].rounds {
        for r in &mut round.results {
            if r.player == "Carla" {
                r.outs = 3;
            }
        }
    }
    let options = ImportOptions {
        sheet: true,
        korrektur: Korrektur::because("Zettel nachgezählt"),
        ..ImportOptions::by("schrift", true)
    };
    let Err(e) = t
        .league
        .import_files(std::slice::from_ref(&sheet), &[], &options)
        .await
    else {
        panic!("the sheet's ersetzen after the netting went in");
    };
    assert!(e.to_string().contains(aufheben), "{e}");
    // A season file with money, replacing the season whole: a new fee moves the pot.
    let mut file = t.league.export(2026).unwrap();
    file.players.push(
        serde_json::from_value(json!({ "name": "Dora", "fee_paid_on": "2026-03-01" })).unwrap(),
    );
    let Err(e) = t
        .league
        .import_files(
            std::slice::from_ref(&file),
            &[],
            &ImportOptions::by("cli", true),
        )
        .await
    else {
        panic!("a season file with a new fee after the netting went in");
    };
    assert!(e.to_string().contains(aufheben), "{e}");
    assert_eq!(snapshot(&t.db.write).await, before, "nothing stored");
    // Its own export moves nothing: in.
    let own = t.league.export(2026).unwrap();
    t.league
        .import_files(
            std::slice::from_ref(&own),
            &[],
            &ImportOptions::by("cli", true),
        )
        .await
        .unwrap();
}

/// The pot of a netted season also holds what the year before carried over: a change of 2025
/// that moves its carry-out (a Jahresbeitrag deleted) is refused while 2026 is netted, naming
/// 2026 (hostile run: 2026's Topf went from 208,50 € to 214,15 € under "Endgültig"). A change of
/// 2025 that carries nothing more over goes through.
#[tokio::test]
async fn a_change_of_the_year_before_that_moves_a_netted_seasons_carry_in_is_refused() {
    // 2025: the same three players, five paid places of which two nobody holds: 2025 carries
    // 25 % of its pot into 2026.
    let mut old = serde_json::to_value(season()).unwrap();
    old["season"] = json!(2025);
    old["rules"] = json!({ "min_rounds_first_liga": 20 });
    for p in old["players"].as_array_mut().unwrap() {
        p["fee_paid_on"] = json!("2025-01-10");
    }
    for n in old["nights"].as_array_mut().unwrap() {
        let date = n["date"].as_str().unwrap().replace("2026", "2025");
        n["date"] = json!(date);
    }
    let old: SeasonFile = serde_json::from_value(old).unwrap();
    let clock = FixedClock::parse("2026-12-11T19:00:00Z").unwrap();
    let t = TestApp::builder()
        .staff()
        .account("kasse", "kassenwart")
        .season(old)
        .season(season())
        .clock(clock)
        .start()
        .await;
    let kasse = t.login("kasse").await;
    let r = net(&t, &kasse, "2026-12-11").await;
    assert_eq!(r.status, StatusCode::SEE_OTHER, "{}", r.body);
    let before = snapshot(&t.db.write).await;
    let Err(e) = t
        .league
        .change(
            2025,
            Change::SetFee {
                player: "Carla".into(),
                paid_on: None,
            },
            &Edit::by("kasse"),
        )
        .await
    else {
        panic!("2025's carry-out moved under 2026's netting");
    };
    let text = e.to_string();
    assert!(
        text.contains("2026") && text.contains("„Verrechnung aufheben“"),
        "{text}"
    );
    assert_eq!(snapshot(&t.db.write).await, before, "nothing stored");
    // A new player of 2025 moves no money: in.
    t.league
        .change(
            2025,
            Change::AddPlayer {
                name: "Dora".into(),
            },
            &Edit::by("schrift"),
        )
        .await
        .unwrap();
}

/// When no winner has an open fine there is nothing to net: the Kassenwart is told so, also
/// while a night is still planned (fifth trial: the section showed neither a button nor a word,
/// and the README says "Verrechnung buchen").
#[tokio::test]
async fn with_nothing_to_net_the_kassenwart_is_told_so() {
    let mut file = season();
    for night in &mut file.nights {
        night.fines.clear();
    }
    let clock = FixedClock::parse("2026-12-03T12:00:00Z").unwrap();
    let t = TestApp::builder()
        .staff()
        .account("kasse", "kassenwart")
        .season(file)
        .clock(clock)
        .start()
        .await;
    let kasse = t.login("kasse").await;
    let page = abschluss(&t, &kasse).await;
    assert!(page.contains("id=\"verrechnung-nichts\""), "{page}");
    assert!(!page.contains("Verrechnung buchen</button>"), "{page}");
    let input = PlanInput {
        date: "2026-12-11".parse().ok(),
        ..PlanInput::default()
    };
    t.league
        .plan_night(&input, OnPlanned::Refuse, SECRETARY)
        .await
        .unwrap();
    let page = abschluss(&t, &kasse).await;
    let said = between(&page, "id=\"verrechnung-nichts\">", "</p>");
    assert!(said.contains("Noch geplant: Freitag, 11.12.2026"), "{said}");
    // Anybody else reads the Jahresabschluss without the Kassenwart's sentence.
    let public = t.get("/saison/2026/abschluss", None).await.body;
    assert!(!public.contains("verrechnung-nichts"), "{public}");
}
