use std::str::FromStr;

use chrono::{NaiveDate, TimeZone, Utc};
use icalendar::{Component, EventLike};

use super::*;

fn at(s: &str) -> NaiveDateTime {
    NaiveDateTime::parse_from_str(s, "%Y-%m-%d %H:%M").unwrap()
}

fn event() -> Event {
    Event {
        uid: "plan-3-0011223344556677@schockerliga".into(),
        stamp: Utc.with_ymd_and_hms(2026, 12, 2, 9, 15, 0).unwrap(),
        start: at("2027-01-08 19:30"),
        end: at("2027-01-08 23:30"),
        summary: "Schockerliga: Spielabend".into(),
        location: "Gasthaus Krone, Marktplatz 1; Saal".into(),
        description: "8 Zusagen, 1 Absage – voraussichtlich 1 Tisch\nBitte pünktlich.".into(),
        url: Some("https://liga.test/abend/2027-01-08".into()),
        status: Status::Confirmed,
        sequence: 2,
        all_day: false,
    }
}

#[test]
fn long_lines_fold_at_75_octets_and_never_inside_a_character() {
    // (line, the lines it folds into, CRLF and the leading space removed)
    let ascii = "D".repeat(200);
    let umlaut = format!("DESCRIPTION:{}", "ä".repeat(60));
    let cases: Vec<(String, Vec<usize>)> = vec![
        ("SUMMARY:kurz".to_string(), vec![12]),
        ("X".repeat(75), vec![75]),
        ("X".repeat(76), vec![75, 1]),
        (ascii.clone(), vec![75, 74, 51]),
        // 12 + 120 octets: 2-octet characters never split, so the first line holds 74.
        (umlaut.clone(), vec![74, 58]),
    ];
    for (line, octets) in cases {
        let folded = fold(&line);
        assert!(folded.ends_with("\r\n"));
        let parts: Vec<&str> = folded.trim_end_matches("\r\n").split("\r\n").collect();
        for (i, p) in parts.iter().enumerate() {
            assert!(p.len() <= MAX_LINE_OCTETS, "{p:?}");
            if i > 0 {
                assert!(p.starts_with(' '), "{p:?}");
            }
        }
        let lens: Vec<usize> = parts
            .iter()
            .enumerate()
            .map(|(i, p)| if i == 0 { p.len() } else { p.len() - 1 })
            .collect();
        assert_eq!(lens, octets, "{line}");
        // Unfolding gives the line back.
        assert_eq!(folded.replace("\r\n ", "").trim_end(), line);
    }
}

#[test]
fn text_values_are_escaped() {
    let cases = [
        ("Krone, Saal; oben", "Krone\\, Saal\\; oben"),
        ("a\\b", "a\\\\b"),
        ("Zeile 1\nZeile 2", "Zeile 1\\nZeile 2"),
        ("Zeile 1\r\nZeile 2", "Zeile 1\\nZeile 2"),
        ("Ton\u{7}los", "Tonlos"),
        ("Jürgen – „Tisch“", "Jürgen – „Tisch“"),
    ];
    for (raw, escaped) in cases {
        assert_eq!(text(raw), escaped, "{raw:?}");
    }
}

#[test]
fn the_berlin_timezone_changes_on_the_last_sundays_of_march_and_october() {
    let lines = vtimezone(chrono_tz::Europe::Berlin, 2026..=2026);
    assert_eq!(
        lines,
        [
            "BEGIN:VTIMEZONE",
            "TZID:Europe/Berlin",
            "X-LIC-LOCATION:Europe/Berlin",
            "BEGIN:DAYLIGHT",
            "DTSTART:20260329T020000",
            "TZOFFSETFROM:+0100",
            "TZOFFSETTO:+0200",
            "TZNAME:CEST",
            "END:DAYLIGHT",
            "BEGIN:STANDARD",
            "DTSTART:20261025T030000",
            "TZOFFSETFROM:+0200",
            "TZOFFSETTO:+0100",
            "TZNAME:CET",
            "END:STANDARD",
            "END:VTIMEZONE",
        ]
    );
    // A zone without daylight saving time has one observance; the southern hemisphere starts
    // its summer in October.
    let tokyo = vtimezone(chrono_tz::Asia::Tokyo, 2026..=2027);
    assert!(tokyo.contains(&"TZOFFSETTO:+0900".to_string()), "{tokyo:?}");
    assert_eq!(tokyo.iter().filter(|l| l.starts_with("BEGIN:")).count(), 2);
    let sydney = vtimezone(chrono_tz::Australia::Sydney, 2026..=2026);
    let i = sydney.iter().position(|l| l == "BEGIN:DAYLIGHT").unwrap();
    assert_eq!(sydney[i + 1], "DTSTART:20261004T020000");
    assert_eq!(sydney[i + 3], "TZOFFSETTO:+1100");
}

#[test]
fn a_calendar_has_crlf_lines_and_the_events_of_the_spec() {
    let mut cancelled = event();
    cancelled.uid = "plan-4-0011223344556677@schockerliga".into();
    cancelled.status = Status::Cancelled;
    cancelled.location = String::new();
    cancelled.description = String::new();
    cancelled.url = None;
    cancelled.start = at("2027-03-28 19:30");
    cancelled.end = at("2027-03-28 23:30");
    let ics = ics(
        "Schockerliga",
        chrono_tz::Europe::Berlin,
        2026..=2027,
        &[event(), cancelled],
    );
    // Every line ends in CRLF, none is longer than 75 octets, no bare LF.
    assert!(ics.ends_with("END:VCALENDAR\r\n"));
    assert!(!ics.replace("\r\n", "").contains('\n'));
    assert!(ics.split("\r\n").all(|l| l.len() <= 75));
    let lines: Vec<&str> = ics.split("\r\n").collect();
    let start = lines.iter().position(|l| *l == "BEGIN:VEVENT").unwrap();
    assert_eq!(
        &lines[start..start + 15],
        [
            "BEGIN:VEVENT",
            "UID:plan-3-0011223344556677@schockerliga",
            "DTSTAMP:20261202T091500Z",
            "DTSTART;TZID=Europe/Berlin:20270108T193000",
            "DTEND;TZID=Europe/Berlin:20270108T233000",
            "SUMMARY:Schockerliga: Spielabend",
            "LOCATION:Gasthaus Krone\\, Marktplatz 1\\; Saal",
            // 75 octets ("–" and "ü" are 3 and 2), then the rest after one space.
            "DESCRIPTION:8 Zusagen\\, 1 Absage – voraussichtlich 1 Tisch\\nBitte pünktl",
            " ich.",
            "URL:https://liga.test/abend/2027-01-08",
            "STATUS:CONFIRMED",
            "SEQUENCE:2",
            "TRANSP:OPAQUE",
            "END:VEVENT",
            "BEGIN:VEVENT",
        ]
    );
    assert!(ics.contains("\r\nSTATUS:CANCELLED\r\n"));
    // The zone covers the year before the first event (its first night stands in that year's
    // last change) up to the last one: 2025 to 2027.
    assert!(ics.contains("DTSTART:20251026T030000\r\n"));
    assert!(ics.contains("DTSTART:20270328T020000\r\n"));

    // A real parser reads it back: two events, their UIDs, times, places and states.
    let parsed = icalendar::Calendar::from_str(&ics).unwrap();
    let events: Vec<&icalendar::Event> = parsed
        .components
        .iter()
        .filter_map(|c| c.as_event())
        .collect();
    assert_eq!(events.len(), 2);
    assert_eq!(
        events[0].get_uid(),
        Some("plan-3-0011223344556677@schockerliga")
    );
    assert_eq!(
        events[0].get_location(),
        Some("Gasthaus Krone, Marktplatz 1; Saal")
    );
    assert_eq!(
        events[0].get_description(),
        Some("8 Zusagen, 1 Absage – voraussichtlich 1 Tisch\nBitte pünktlich.")
    );
    assert_eq!(
        events[0].get_status(),
        Some(icalendar::EventStatus::Confirmed)
    );
    assert_eq!(
        events[1].get_status(),
        Some(icalendar::EventStatus::Cancelled)
    );
    match events[0].get_start() {
        Some(icalendar::DatePerhapsTime::DateTime(icalendar::CalendarDateTime::WithTimezone {
            date_time,
            tzid,
        })) => {
            assert_eq!(tzid, "Europe/Berlin");
            assert_eq!(date_time, at("2027-01-08 19:30"));
        }
        other => panic!("DTSTART {other:?}"),
    }
    let zones = parsed
        .components
        .iter()
        .filter(|c| matches!(c, icalendar::CalendarComponent::Other(o) if o.component_kind() == "VTIMEZONE"))
        .count();
    assert_eq!(zones, 1);
    let _ = NaiveDate::default();
}

#[test]
fn a_night_without_a_known_time_is_a_date_only_event() {
    let mut played = event();
    played.all_day = true;
    played.start = at("2026-01-09 00:00");
    played.end = at("2026-01-09 00:00");
    let ics = ics(
        "Schockerliga",
        chrono_tz::Europe::Berlin,
        2026..=2026,
        &[played],
    );
    assert!(ics.contains("\r\nDTSTART;VALUE=DATE:20260109\r\n"), "{ics}");
    assert!(ics.contains("\r\nDTEND;VALUE=DATE:20260110\r\n"), "{ics}");
    assert!(!ics.contains("DTSTART;TZID"), "{ics}");
    let parsed = icalendar::Calendar::from_str(&ics).unwrap();
    let event = parsed.components.iter().find_map(|c| c.as_event()).unwrap();
    assert_eq!(
        event.get_start(),
        Some(icalendar::DatePerhapsTime::Date(
            NaiveDate::from_ymd_opt(2026, 1, 9).unwrap()
        ))
    );
}

#[test]
fn a_time_the_clocks_skip_is_moved_as_rfc_5545_reads_it() {
    let berlin = chrono_tz::Europe::Berlin;
    // (wall clock, where it is moved; None: the zone has it)
    let cases = [
        ("2026-03-29 02:30", Some("2026-03-29 03:30")),
        ("2026-03-29 02:00", Some("2026-03-29 03:00")),
        ("2026-03-29 01:59", None),
        ("2026-03-29 03:00", None),
        // Twice in October: it exists.
        ("2026-10-25 02:30", None),
        ("2026-01-09 19:30", None),
    ];
    for (wall, want) in cases {
        assert_eq!(skipped(berlin, at(wall)), want.map(at), "{wall}");
    }
    // Another zone, another day: New York skips 02:00–03:00 on 8 March 2026.
    assert_eq!(
        skipped(chrono_tz::America::New_York, at("2026-03-08 02:15")),
        Some(at("2026-03-08 03:15"))
    );
}
