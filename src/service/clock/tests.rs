use chrono::{DateTime, NaiveDate, NaiveTime, Utc};

use super::*;
use crate::league::fee_cents;
use crate::league::model::rules::SeasonRules;
use crate::league::model::rules::JOIN_DEADLINE_REASON;

fn utc(text: &str) -> DateTime<Utc> {
    DateTime::parse_from_rfc3339(text)
        .unwrap()
        .with_timezone(&Utc)
}

fn date(text: &str) -> NaiveDate {
    NaiveDate::parse_from_str(text, "%Y-%m-%d").unwrap()
}

fn berlin_at(text: &str) -> ClubClock {
    ClubClock::new(FixedClock::at(utc(text)), DEFAULT_TIMEZONE)
}

/// (the instant UTC, the club's date in Berlin, the date on a UTC wall clock): the edges of
/// issue 23 — the last day of a month at 23:30 UTC, both DST changes of 2026 (29.03. and
/// 25.10., at 01:00 UTC), 31.12./1.1.
#[test]
fn the_clubs_today_is_the_date_on_berlins_wall_clock() {
    let cases = [
        // 23:30 UTC on the last day of April: 01:30 CEST on 1 May.
        ("2026-04-30T23:30:00Z", "2026-05-01", "2026-04-30"),
        ("2026-04-30T21:59:59Z", "2026-04-30", "2026-04-30"),
        ("2026-04-30T22:00:00Z", "2026-05-01", "2026-04-30"),
        // Last day of February in winter time: +1 hour.
        ("2026-02-28T23:30:00Z", "2026-03-01", "2026-02-28"),
        ("2026-02-28T22:59:59Z", "2026-02-28", "2026-02-28"),
        // Spring forward, Sunday 29 March 2026, 01:00 UTC (02:00 CET → 03:00 CEST).
        ("2026-03-28T22:59:59Z", "2026-03-28", "2026-03-28"),
        ("2026-03-28T23:00:00Z", "2026-03-29", "2026-03-28"),
        ("2026-03-29T00:59:59Z", "2026-03-29", "2026-03-29"),
        ("2026-03-29T01:00:00Z", "2026-03-29", "2026-03-29"),
        ("2026-03-29T21:59:59Z", "2026-03-29", "2026-03-29"),
        ("2026-03-29T22:00:00Z", "2026-03-30", "2026-03-29"),
        // Fall back, Sunday 25 October 2026, 01:00 UTC (03:00 CEST → 02:00 CET).
        ("2026-10-24T21:59:59Z", "2026-10-24", "2026-10-24"),
        ("2026-10-24T22:00:00Z", "2026-10-25", "2026-10-24"),
        ("2026-10-25T22:30:00Z", "2026-10-25", "2026-10-25"),
        ("2026-10-25T22:59:59Z", "2026-10-25", "2026-10-25"),
        ("2026-10-25T23:00:00Z", "2026-10-26", "2026-10-25"),
        // New Year's Eve: winter time, +1 hour.
        ("2026-12-31T22:59:59Z", "2026-12-31", "2026-12-31"),
        ("2026-12-31T23:00:00Z", "2027-01-01", "2026-12-31"),
        ("2026-12-31T23:30:00Z", "2027-01-01", "2026-12-31"),
    ];
    for (instant, berlin, on_utc) in cases {
        assert_eq!(
            berlin_at(instant).today(),
            date(berlin),
            "{instant} in Berlin"
        );
        let utc_clock = ClubClock::new(FixedClock::at(utc(instant)), chrono_tz::UTC);
        assert_eq!(utc_clock.today(), date(on_utc), "{instant} in UTC");
    }
    assert_eq!(berlin_at("2026-12-31T23:30:00Z").year(), 2027);
    assert_eq!(berlin_at("2026-12-31T22:30:00Z").year(), 2026);
}

/// The Jahresbeitrag paid "today" (league.md §5, defaults: 15,00 € until March, then 1,00 €
/// more a month, none after September) is priced by the club's date: at 23:30 UTC on 30 April
/// it is May's price, and at 22:30 UTC on 30 September the join deadline has passed.
#[test]
fn a_fee_paid_today_is_priced_for_the_clubs_month() {
    let rules = SeasonRules::defaults_for(2026);
    let cases: [(&str, Result<i64, &str>); 8] = [
        ("2026-03-31T21:59:59Z", Ok(1500)),
        ("2026-03-31T22:00:00Z", Ok(1600)),
        ("2026-04-30T21:59:59Z", Ok(1600)),
        ("2026-04-30T23:30:00Z", Ok(1700)),
        ("2026-09-30T21:59:59Z", Ok(2100)),
        ("2026-09-30T22:00:00Z", Err(JOIN_DEADLINE_REASON)),
        ("2026-09-30T22:30:00Z", Err(JOIN_DEADLINE_REASON)),
        // 31.12. 23:30 UTC is already 2027 for the club: no fee of the 2026 season.
        (
            "2026-12-31T23:30:00Z",
            Err("liegt nicht in der Saison 2026"),
        ),
    ];
    for (instant, want) in cases {
        let got = fee_cents(&rules, 2026, berlin_at(instant).today());
        match (got, want) {
            (Ok(c), Ok(w)) => assert_eq!(c, w, "{instant}"),
            (Err(e), Err(w)) => assert!(e.contains(w), "{instant}: {e}"),
            (got, want) => panic!("{instant}: {got:?}, expected {want:?}"),
        }
    }
    // The same instant on a UTC wall clock is still April (what the server's clock said).
    let on_utc = ClubClock::new(FixedClock::at(utc("2026-04-30T23:30:00Z")), chrono_tz::UTC);
    assert_eq!(fee_cents(&rules, 2026, on_utc.today()), Ok(1600));
}

/// The 1. Liga deadline (30 November, league.md §4) has passed once the club's date is after
/// it: at 23:30 UTC on 30 November it is 1 December in Berlin.
#[test]
fn the_30_november_deadline_passes_at_the_clubs_midnight() {
    let deadline = SeasonRules::defaults_for(2026)
        .first_liga_deadline
        .in_year(2026)
        .unwrap();
    assert_eq!(deadline, date("2026-11-30"));
    let cases = [
        ("2026-11-30T12:00:00Z", false),
        ("2026-11-30T22:59:59Z", false),
        ("2026-11-30T23:00:00Z", true),
        ("2026-11-30T23:30:00Z", true),
        ("2026-11-29T23:30:00Z", false),
    ];
    for (instant, passed) in cases {
        assert_eq!(
            berlin_at(instant).today() > deadline,
            passed,
            "{instant}: {}",
            berlin_at(instant).today()
        );
    }
}

/// The daily backup's 04:00 club time, across both DST changes, and a wall-clock time that a
/// spring change skips.
#[test]
fn the_next_four_oclock_follows_the_clubs_wall_clock() {
    let four = NaiveTime::from_hms_opt(4, 0, 0).unwrap();
    let half_past_two = NaiveTime::from_hms_opt(2, 30, 0).unwrap();
    let cases = [
        // (after, time, next)
        ("2026-05-01T01:00:00Z", four, "2026-05-01T02:00:00Z"),
        ("2026-05-01T02:00:00Z", four, "2026-05-02T02:00:00Z"),
        ("2026-01-10T12:00:00Z", four, "2026-01-11T03:00:00Z"),
        // Saturday before spring forward: Sunday 04:00 is CEST already.
        ("2026-03-28T04:00:00Z", four, "2026-03-29T02:00:00Z"),
        // Saturday before fall back: Sunday 04:00 is CET again.
        ("2026-10-24T03:00:00Z", four, "2026-10-25T03:00:00Z"),
        // 02:30 does not exist on 29 March: the first instant after the gap (03:00 CEST).
        (
            "2026-03-28T12:00:00Z",
            half_past_two,
            "2026-03-29T01:00:00Z",
        ),
        // 02:30 exists twice on 25 October: the earlier (CEST).
        (
            "2026-10-24T12:00:00Z",
            half_past_two,
            "2026-10-25T00:30:00Z",
        ),
    ];
    for (after, time, next) in cases {
        let clock = berlin_at(after);
        assert_eq!(clock.next_at(utc(after), time), utc(next), "{after} {time}");
    }
}

#[test]
fn time_zones_are_read_by_their_iana_names() {
    assert_eq!(
        parse_timezone("Europe/Berlin"),
        Ok(chrono_tz::Europe::Berlin)
    );
    assert_eq!(parse_timezone(" UTC "), Ok(chrono_tz::UTC));
    assert_eq!(
        parse_timezone("Europe/Vienna"),
        Ok(chrono_tz::Europe::Vienna)
    );
    for bad in ["Europe/Berlni", "MEZ", "Berlin", "+02:00", ""] {
        let e = parse_timezone(bad).unwrap_err();
        assert!(e.contains("Zeitzone"), "{bad}: {e}");
    }
    assert!(parse_timezone("Europe/Berlni")
        .unwrap_err()
        .contains("„Europe/Berlni“ gibt es nicht"));
}

#[test]
fn stored_instants_are_shown_on_the_clubs_wall_clock() {
    let clock = berlin_at("2026-12-01T00:00:00Z");
    let cases = [
        ("2026-11-29T14:20:07.5Z", "29.11.2026 15:20:07"),
        ("2026-07-01T10:00:00+00:00", "01.07.2026 12:00:00"),
        ("2026-12-31T23:30:00.123456789+00:00", "01.01.2027 00:30:00"),
        ("kein Zeitpunkt", "kein Zeitpunkt"),
    ];
    for (stored, shown) in cases {
        assert_eq!(clock.stamp_de(stored), shown, "{stored}");
    }
}

#[test]
fn a_fixed_clock_stands_still_until_it_is_moved() {
    let fixed = FixedClock::parse("2026-04-30T23:30:00Z").unwrap();
    let clock = ClubClock::new(fixed.clone(), DEFAULT_TIMEZONE);
    assert_eq!(clock.now(), utc("2026-04-30T23:30:00Z"));
    assert_eq!(clock.now_local().to_rfc3339(), "2026-05-01T01:30:00+02:00");
    fixed.advance(Duration::hours(-2));
    assert_eq!(clock.today(), date("2026-04-30"));
    fixed.set(utc("2027-01-01T00:00:00Z"));
    assert_eq!(clock.today(), date("2027-01-01"));
    assert!(FixedClock::parse("gestern").is_err());
}

/// The league reads its "today" from the injected clock, in the zone of `--timezone`, else of
/// the settings, else Berlin; a zone set in the settings is audited, a wrong one refused and
/// nothing stored; the status answer has the fields of interchange.md.
#[tokio::test]
async fn the_league_reads_the_clubs_clock() {
    use crate::service::{League, Setup};
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("liga.db");
    let fixed = FixedClock::parse("2026-04-30T23:30:00Z").unwrap();
    let setup = Setup {
        clock: fixed.clone(),
        timezone: None,
    };
    let league = League::open_with(&path, setup.clone()).await.unwrap();
    assert_eq!(league.timezone(), DEFAULT_TIMEZONE);
    assert_eq!(league.today(), date("2026-05-01"));
    assert_eq!(
        serde_json::to_string(&league.status()).unwrap(),
        format!(
            r#"{{"ok":true,"version":"{}","today":"2026-05-01","timezone":"Europe/Berlin"}}"#,
            env!("CARGO_PKG_VERSION")
        )
    );
    assert_eq!(league.now_local().to_rfc3339(), "2026-05-01T01:30:00+02:00");

    // The settings' zone.
    assert_eq!(
        league.set_timezone(" UTC ", "anna").await.unwrap(),
        chrono_tz::UTC
    );
    assert_eq!(league.today(), date("2026-04-30"));
    assert_eq!(league.snapshot().settings.timezone, "UTC");
    // Another process's league reads it from the database.
    let other = League::open_with(&path, setup.clone()).await.unwrap();
    assert_eq!(other.today(), date("2026-04-30"));

    // A wrong name is refused and changes nothing.
    let audit_before = crate::service::accounts::audit_log(league.db(), None, 1000)
        .await
        .unwrap()
        .len();
    let e = league
        .set_timezone("Mars/Olympus", "anna")
        .await
        .unwrap_err();
    assert!(
        e.to_string().contains("„Mars/Olympus“ gibt es nicht"),
        "{e}"
    );
    assert_eq!(league.snapshot().settings.timezone, "UTC");
    let audit = crate::service::accounts::audit_log(league.db(), None, 1000)
        .await
        .unwrap();
    assert_eq!(audit.len(), audit_before);
    assert!(audit
        .iter()
        .any(|r| r.action == "Zeitzone des Vereins geändert" && r.user == "anna"));

    // The settings form keeps the stored zone.
    let input = crate::service::settings::SettingsInput {
        money_private: true,
        ..Default::default()
    };
    league.set_settings(&input, "anna").await.unwrap();
    assert_eq!(league.snapshot().settings.timezone, "UTC");
    assert!(league.snapshot().settings.money_private);

    // `--timezone` wins over the settings.
    let forced = League::open_with(
        &path,
        Setup {
            clock: fixed.clone(),
            timezone: Some(chrono_tz::Europe::Berlin),
        },
    )
    .await
    .unwrap();
    assert!(forced.timezone_from_command_line());
    assert_eq!(forced.today(), date("2026-05-01"));

    // Empty: back to the default.
    assert_eq!(
        league.set_timezone("", "anna").await.unwrap(),
        DEFAULT_TIMEZONE
    );
    assert_eq!(league.today(), date("2026-05-01"));
    fixed.set(utc("2026-12-31T23:30:00Z"));
    assert_eq!(league.status().today, date("2027-01-01"));
}
