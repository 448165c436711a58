//! A season of nights in one step (issue 38.1): `/verwaltung/termine/serie` shows the days of a
//! rule before it stores them, plans exactly the days of an independent oracle (across both
//! clock changes of 2027, minus the exceptions), leaves planned and cancelled days alone, stores
//! nothing new the second time, and the calendar then has one event per day with stable UIDs.
//! The invitation for the club's chat (issue 38.2) says what the night's page says, and its
//! `wa.me` link carries exactly that text.

use axum::http::StatusCode;
use chrono::{Datelike, NaiveDate};
use icalendar::{Calendar, CalendarComponent, Component};

use crate::app::{encode, get, TestApp, SECRETARY};

fn d(s: &str) -> NaiveDate {
    NaiveDate::parse_from_str(s, "%Y-%m-%d").unwrap()
}

/// The series asked for: every Friday from 08.01.2027 to 26.11.2027 at 19:30, but Karfreitag.
const FORM: [(&str, &str); 6] = [
    ("von", "2027-01-08"),
    ("bis", "26.11.2027"),
    ("rhythmus", "wöchentlich"),
    ("zeit", "19:30"),
    ("ort", "Zum Anker"),
    ("ausser", "02.04.2027"),
];

/// The oracle: every day from the first to the last whose distance is a whole number of weeks,
/// without the exception; written without the product's code.
fn oracle() -> Vec<NaiveDate> {
    let (from, until) = (d("2027-01-08"), d("2027-11-26"));
    let mut days = Vec::new();
    let mut day = from;
    while day <= until {
        if (day - from).num_days() % 7 == 0 && day != d("2027-04-02") {
            days.push(day);
        }
        day = day.succ_opt().unwrap();
    }
    days
}

/// The UIDs of the calendar's events of planned nights (`plan-…`; the season's played nights have
/// their own), in order, read by a real RFC 5545 parser.
async fn uids(t: &TestApp) -> Vec<String> {
    let text = t.send(get("/kalender.ics", None)).await.body;
    let parsed: Calendar = text.parse().unwrap();
    parsed
        .components
        .iter()
        .filter_map(|c| match c {
            CalendarComponent::Event(e) => Some(e.get_uid().unwrap().to_string()),
            _ => None,
        })
        .filter(|uid| uid.starts_with("plan-"))
        .collect()
}

#[tokio::test]
async fn a_series_plans_the_oracle_s_days_once_and_leaves_the_others_alone() {
    let t = TestApp::small_season().await;
    let sec = t.login(SECRETARY).await;
    let want = oracle();
    assert_eq!(want.len(), 46);
    // One Friday planned by hand at another time, one planned and cancelled.
    let by_hand = encode(&[("datum", "2027-02-05"), ("zeit", "20:00"), ("ort", "Krug")]);
    let r = t.post("/verwaltung/termine", &by_hand, Some(&sec)).await;
    assert_eq!(r.status, StatusCode::SEE_OTHER, "{}", r.body);
    let r = t
        .post("/verwaltung/termine", "datum=2027-03-05", Some(&sec))
        .await;
    assert_eq!(r.status, StatusCode::SEE_OTHER, "{}", r.body);
    let cancelled = t.league.planning().active_on(d("2027-03-05")).unwrap().id;
    let r = t
        .post(
            &format!("/verwaltung/termine/{cancelled}/absagen"),
            "",
            Some(&sec),
        )
        .await;
    assert_eq!(r.status, StatusCode::SEE_OTHER, "{}", r.body);
    let before = t.league.planning().nights.len();
    let audits = t.audit_count().await;

    // "Zeigen" lists every day with what the series does, and stores nothing.
    let query = encode(&FORM);
    let shown = t
        .get(&format!("/verwaltung/termine/serie?{query}"), Some(&sec))
        .await;
    assert_eq!(shown.status, StatusCode::OK, "{}", shown.body);
    assert!(
        shown.body.contains("46 Tage wöchentlich, davon 44 neu"),
        "{}",
        shown.body
    );
    assert!(shown
        .body
        .contains("Freitag, 05.02.2027: <span class=\"muted\">schon geplant"));
    assert!(shown
        .body
        .contains("Freitag, 05.03.2027: <span class=\"muted\">abgesagt"));
    assert!(
        !shown.body.contains("02.04.2027:"),
        "the exception is left out"
    );
    assert!(shown.body.contains("44 Abende planen"));
    assert!(
        shown.body.contains("value=\"Zum Anker\""),
        "the form keeps what was typed"
    );
    assert_eq!(t.league.planning().nights.len(), before);
    assert_eq!(t.audit_count().await, audits);

    // "Planen" stores the 44 new days at 19:30 in Zum Anker, one Protokoll line each.
    let r = t
        .post("/verwaltung/termine/serie", &query, Some(&sec))
        .await;
    assert_eq!(r.status, StatusCode::SEE_OTHER, "{}", r.body);
    let planning = t.league.planning();
    let mut planned: Vec<NaiveDate> = planning
        .nights
        .iter()
        .map(|n| n.date)
        .filter(|x| x.year() == 2027)
        .collect();
    planned.sort();
    assert_eq!(
        planned, want,
        "every day of the oracle once, the cancelled one included"
    );
    assert!(
        planning.active_on(d("2027-03-05")).is_none(),
        "stays cancelled"
    );
    let by_hand = planning.active_on(d("2027-02-05")).unwrap();
    assert_eq!(
        (by_hand.time.to_string(), by_hand.place.as_str()),
        ("20:00:00".into(), "Krug")
    );
    for day in [
        d("2027-03-26"),
        d("2027-04-09"),
        d("2027-10-29"),
        d("2027-11-05"),
    ] {
        let n = planning.active_on(day).unwrap();
        assert_eq!(
            (n.time.to_string(), n.place.as_str()),
            ("19:30:00".into(), "Zum Anker")
        );
    }
    assert_eq!(t.audit_count().await, audits + 44);

    // The calendar: one event per day (the cancelled one too), UIDs unique and stable.
    let first = uids(&t).await;
    assert_eq!(first.len(), 46);
    let mut unique = first.clone();
    unique.sort();
    unique.dedup();
    assert_eq!(unique.len(), 46);

    // The same series again stores nothing new.
    let again = t
        .post("/verwaltung/termine/serie", &query, Some(&sec))
        .await;
    assert_eq!(again.status, StatusCode::SEE_OTHER, "{}", again.body);
    assert_eq!(t.league.planning().nights.len(), before + 44);
    assert_eq!(t.audit_count().await, audits + 44);

    // Moving one night touches only that one; its UID stays.
    let moved = t.league.planning().active_on(d("2027-06-04")).unwrap().id;
    let body = encode(&[
        ("datum", "2027-06-03"),
        ("zeit", "19:30"),
        ("ort", "Zum Anker"),
        ("hinweis", ""),
    ]);
    let r = t
        .post(&format!("/verwaltung/termine/{moved}"), &body, Some(&sec))
        .await;
    assert_eq!(r.status, StatusCode::SEE_OTHER, "{}", r.body);
    assert_eq!(uids(&t).await, first);
    let planning = t.league.planning();
    assert_eq!(planning.by_id(moved).unwrap().date, d("2027-06-03"));
    assert!(planning.active_on(d("2027-06-11")).is_some());
    // The same series again leaves the moved night's old day alone (new-user trial: it planned
    // 04.06. a second time, which nobody could reach: its link leads to the new day).
    let shown = t
        .get(&format!("/verwaltung/termine/serie?{query}"), Some(&sec))
        .await;
    assert!(
        shown
            .body
            .contains("Freitag, 04.06.2027: <span class=\"muted\">verlegt"),
        "{}",
        shown.body
    );
    let again = t
        .post("/verwaltung/termine/serie", &query, Some(&sec))
        .await;
    assert_eq!(again.status, StatusCode::SEE_OTHER, "{}", again.body);
    assert!(t.league.planning().active_on(d("2027-06-04")).is_none());
    assert_eq!(t.league.planning().nights.len(), before + 44);
}

#[tokio::test]
async fn a_series_that_does_not_check_stores_nothing_and_keeps_what_was_typed() {
    let t = TestApp::small_season().await;
    let sec = t.login(SECRETARY).await;
    let before = t.league.planning().nights.len();
    let cases: [(&[(&str, &str)], &str); 5] = [
        (
            &[("rhythmus", "monatlich")],
            "Rhythmus: „monatlich“ verstehe ich nicht",
        ),
        (
            &[("ausser", "10.04.2027")],
            "Außer: der 10.04.2027 ist kein Tag der Serie",
        ),
        (
            &[("rhythmus", "1. Freitag"), ("ausser", "09.04.2027")],
            "Außer: der 09.04.2027 ist kein Tag der Serie",
        ),
        (&[("von", "2026-12-04")], "Der 04.12.2026 ist vorbei"),
        (
            &[("bis", "2027-01-01")],
            "Bis: der 01.01.2027 liegt vor dem ersten Tag",
        ),
    ];
    for (changed, want) in cases {
        let fields: Vec<(&str, &str)> = FORM
            .iter()
            .map(|(k, v)| (*k, changed.iter().find(|c| c.0 == *k).map_or(*v, |c| c.1)))
            .collect();
        let body = encode(&fields);
        let r = t.post("/verwaltung/termine/serie", &body, Some(&sec)).await;
        assert_eq!(
            r.status,
            StatusCode::UNPROCESSABLE_ENTITY,
            "{want}: {}",
            r.body
        );
        assert!(r.body.contains(want), "{want}: {}", r.body);
        assert!(r.body.contains("value=\"Zum Anker\""), "{want}: form kept");
        let shown = t
            .get(&format!("/verwaltung/termine/serie?{body}"), Some(&sec))
            .await;
        assert_eq!(shown.status, StatusCode::OK);
        assert!(shown.body.contains(want), "{want}: {}", shown.body);
        assert!(
            !shown.body.contains("planen</button>"),
            "{want}: no plan button"
        );
    }
    assert_eq!(t.league.planning().nights.len(), before);
    // Only the secretary plans.
    let r = t
        .post("/verwaltung/termine/serie", &encode(&FORM), None)
        .await;
    assert!(
        r.location().is_some_and(|l| l.starts_with("/login")),
        "{:?}",
        r.location()
    );
    assert_eq!(t.league.planning().nights.len(), before);
}

/// The text between `start` and `end` in `body`, HTML entities undone.
fn between(body: &str, start: &str, end: &str) -> String {
    let at = body
        .find(start)
        .unwrap_or_else(|| panic!("{start} in {body}"))
        + start.len();
    let to = at + body[at..].find(end).unwrap();
    body[at..to]
        .replace("&quot;", "\"")
        .replace("&#39;", "'")
        .replace("&#x27;", "'")
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&amp;", "&")
}

#[tokio::test]
async fn the_invitation_says_what_the_night_s_page_says_and_wa_me_carries_it() {
    let t = TestApp::small_season().await;
    let sec = t.login(SECRETARY).await;
    let plan = encode(&[
        ("datum", "2027-01-08"),
        ("zeit", "19:30"),
        ("ort", "Zum Anker"),
    ]);
    let r = t.post("/verwaltung/termine", &plan, Some(&sec)).await;
    assert_eq!(r.status, StatusCode::SEE_OTHER, "{}", r.body);
    let ids: Vec<i64> = t
        .league
        .snapshot()
        .season(2026)
        .unwrap()
        .ids
        .players
        .values()
        .copied()
        .collect();
    for (i, id) in ids.iter().take(4).enumerate() {
        let body = if i < 3 { "kommt=ja" } else { "kommt=nein" };
        let r = t
            .post("/abend/2027-01-08/zusage", body, Some(&format!("ich={id}")))
            .await;
        assert_eq!(r.status, StatusCode::SEE_OTHER, "{}", r.body);
    }
    let page = t.get("/abend/2027-01-08", None).await;
    assert!(page
        .body
        .contains("href=\"/abend/2027-01-08/einladung\">In die Gruppe"));
    let forecast = between(&page.body, "<p class=\"forecast\"><strong>", "</strong>");
    assert_eq!(forecast, "3 Zusagen, 1 Absage – voraussichtlich 1 Tisch");

    let inv = t.get("/abend/2027-01-08/einladung", None).await;
    assert_eq!(inv.status, StatusCode::OK);
    assert_eq!(inv.header("cache-control"), Some("no-store"));
    let text = between(&inv.body, "readonly>", "</textarea>");
    let want = format!(
        "Schocken am Freitag, 08.01.2027, 19:30 Uhr, Zum Anker. Bisher {forecast}. Zu- oder absagen: "
    );
    assert!(text.starts_with(&want), "{text}");
    assert!(
        text.ends_with("/abend/2027-01-08") && text.contains("://"),
        "{text}"
    );
    let wa = between(&inv.body, "href=\"https://wa.me/?text=", "\"");
    let decoded = percent_encoding::percent_decode_str(&wa)
        .decode_utf8()
        .unwrap();
    assert_eq!(decoded, text);

    // Cancelled: the text says so.
    let id = t.league.planning().active_on(d("2027-01-08")).unwrap().id;
    let r = t
        .post(&format!("/verwaltung/termine/{id}/absagen"), "", Some(&sec))
        .await;
    assert_eq!(r.status, StatusCode::SEE_OTHER, "{}", r.body);
    let inv = t.get("/abend/2027-01-08/einladung", None).await;
    let text = between(&inv.body, "readonly>", "</textarea>");
    assert!(
        text.starts_with(
            "Der Schockabend am Freitag, 08.01.2027, 19:30 Uhr, Zum Anker fällt aus. http"
        ),
        "{text}"
    );
    assert_eq!(
        t.get("/abend/2027-01-15/einladung", None).await.status,
        StatusCode::NOT_FOUND
    );
}

/// Hostile trial: the same series sent eight times at once (no one-time token) gave six 500s on
/// the unique day of a planned night; each is stored once and every answer is a redirect.
#[tokio::test]
async fn the_same_series_sent_at_once_is_stored_once_without_an_error() {
    let t = TestApp::small_season().await;
    let sec = t.login(SECRETARY).await;
    let before = t.league.planning().nights.len();
    let query = encode(&FORM);
    let sends = (0..8).map(|_| t.post("/verwaltung/termine/serie", &query, Some(&sec)));
    for r in futures_util::future::join_all(sends).await {
        assert_eq!(r.status, StatusCode::SEE_OTHER, "{}", r.body);
    }
    assert_eq!(t.league.planning().nights.len(), before + 46);
}
