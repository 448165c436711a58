use chrono::{NaiveDate, NaiveTime, TimeZone, Utc};

use super::*;

fn day(s: &str) -> NaiveDate {
    NaiveDate::parse_from_str(s, "%Y-%m-%d").unwrap()
}

fn answer(id: i64, coming: bool, via: Via, changes: u32) -> Answer {
    Answer {
        player_id: id,
        player: format!("Spieler {id}"),
        coming,
        via,
        changes,
        at: Utc.with_ymd_and_hms(2026, 12, 1, 18, 0, 0).unwrap(),
        for_date: day("2027-01-08"),
    }
}

fn night(date: &str, answers: Vec<Answer>) -> PlannedNight {
    PlannedNight {
        id: 1,
        date: day(date),
        time: NaiveTime::from_hms_opt(19, 30, 0).unwrap(),
        place: String::new(),
        note: String::new(),
        cancelled: false,
        sequence: 0,
        updated_at: Utc.with_ymd_and_hms(2026, 12, 1, 18, 0, 0).unwrap(),
        answers,
    }
}

#[test]
fn the_forecast_switches_to_two_tables_at_split_tables_from() {
    // (Zusagen, Absagen, split_tables_from, sentence)
    let cases = [
        (0, 0, 10, "0 Zusagen, 0 Absagen – voraussichtlich 1 Tisch"),
        (1, 1, 10, "1 Zusage, 1 Absage – voraussichtlich 1 Tisch"),
        (8, 1, 10, "8 Zusagen, 1 Absage – voraussichtlich 1 Tisch"),
        (9, 3, 10, "9 Zusagen, 3 Absagen – voraussichtlich 1 Tisch"),
        (
            10,
            0,
            10,
            "10 Zusagen, 0 Absagen – voraussichtlich 2 Tische",
        ),
        (
            12,
            2,
            10,
            "12 Zusagen, 2 Absagen – voraussichtlich 2 Tische",
        ),
        (8, 0, 8, "8 Zusagen, 0 Absagen – voraussichtlich 2 Tische"),
        (7, 0, 8, "7 Zusagen, 0 Absagen – voraussichtlich 1 Tisch"),
    ];
    for (yes, no, split, sentence) in cases {
        let answers: Vec<Answer> = (0..yes)
            .map(|i| answer(i, true, Via::Ich, 1))
            .chain((0..no).map(|i| answer(100 + i, false, Via::Karte, 1)))
            .collect();
        let f = night("2027-01-08", answers).forecast(split);
        assert_eq!(
            (f.yes, f.no),
            (u32::try_from(yes).unwrap(), u32::try_from(no).unwrap())
        );
        assert_eq!(f.sentence(), sentence, "{yes}/{no} at {split}");
    }
}

#[test]
fn who_may_change_an_answer() {
    let open = PlanStatus::Open;
    let sec = || Via::Verwaltung("anna".into());
    // (status, answer before, new answer, via, Ok(outcome) or a part of the refusal)
    type Case<'a> = (
        PlanStatus,
        Option<Answer>,
        bool,
        Via,
        Result<Answered, &'a str>,
    );
    let cases: Vec<Case> = vec![
        (open, None, true, Via::Ich, Ok(Answered::New)),
        (open, None, false, Via::Karte, Ok(Answered::New)),
        (
            open,
            Some(answer(1, true, Via::Ich, 1)),
            false,
            Via::Ich,
            Ok(Answered::Changed),
        ),
        (
            open,
            Some(answer(1, true, Via::Ich, 1)),
            true,
            Via::Ich,
            Ok(Answered::Same),
        ),
        // "Das bin ich" does not replace what his card or the secretary said …
        (
            open,
            Some(answer(1, true, Via::Karte, 1)),
            false,
            Via::Ich,
            Err("nur über die eigene Karte"),
        ),
        (
            open,
            Some(answer(1, false, sec(), 1)),
            true,
            Via::Ich,
            Err("eingetragen von anna"),
        ),
        // … but saying the same again is no change.
        (
            open,
            Some(answer(1, true, Via::Karte, 1)),
            true,
            Via::Ich,
            Ok(Answered::Same),
        ),
        // His card and the secretary replace anything.
        (
            open,
            Some(answer(1, true, sec(), 1)),
            false,
            Via::Karte,
            Ok(Answered::Changed),
        ),
        (
            open,
            Some(answer(1, true, Via::Karte, 3)),
            false,
            sec(),
            Ok(Answered::Changed),
        ),
        // The same answer, now proven by his card: stored with the card.
        (
            open,
            Some(answer(1, true, Via::Ich, 1)),
            true,
            Via::Karte,
            Ok(Answered::Changed),
        ),
        // The abuse limit binds "Das bin ich" only.
        (
            open,
            Some(answer(1, true, Via::Ich, MAX_CHANGES - 1)),
            false,
            Via::Ich,
            Ok(Answered::Changed),
        ),
        (
            open,
            Some(answer(1, true, Via::Ich, MAX_CHANGES)),
            false,
            Via::Ich,
            Err("10-mal geändert"),
        ),
        (
            open,
            Some(answer(1, true, Via::Ich, MAX_CHANGES + 5)),
            false,
            Via::Karte,
            Ok(Answered::Changed),
        ),
        // Only an open night takes answers.
        (
            PlanStatus::Started,
            None,
            true,
            sec(),
            Err("hat schon begonnen"),
        ),
        (
            PlanStatus::Cancelled,
            None,
            true,
            Via::Karte,
            Err("abgesagt"),
        ),
        (PlanStatus::Past, None, true, Via::Ich, Err("vorbei")),
    ];
    let n = night("2027-01-08", Vec::new());
    for (status, before, coming, via, want) in cases {
        // One client gave every answer so far.
        let by_client = before.as_ref().map_or(0, |b| b.changes);
        let got = check_answer(&n, status, before.as_ref(), coming, &via, "Anna", by_client);
        match (got, want) {
            (Ok(g), Ok(w)) => assert_eq!(g, w, "{status:?} {before:?} {coming} {via:?}"),
            (Err(e), Err(w)) => {
                assert!(e.contains(w), "{e}");
                assert!(e.contains("08.01.2027"), "{e}");
            }
            (got, want) => {
                panic!("{status:?} {before:?} {coming} {via:?}: {got:?}, expected {want:?}")
            }
        }
    }
}

#[test]
fn the_change_limit_counts_per_client_so_nobody_uses_up_the_players_own() {
    let n = night("2027-01-08", Vec::new());
    let open = PlanStatus::Open;
    // Somebody flipped Anna's answer 25 times from his own address.
    let flipped = answer(1, true, Via::Ich, 25);
    // (this client's answers so far, outcome)
    let cases = [
        (0, Ok(Answered::Changed)),
        (3, Ok(Answered::Changed)),
        (MAX_CHANGES - 1, Ok(Answered::Changed)),
        (MAX_CHANGES, Err("10-mal")),
        (MAX_CHANGES + 4, Err("10-mal")),
    ];
    for (by_client, want) in cases {
        let got = check_answer(
            &n,
            open,
            Some(&flipped),
            false,
            &Via::Ich,
            "Anna",
            by_client,
        );
        match (got, want) {
            (Ok(g), Ok(w)) => assert_eq!(g, w, "{by_client}"),
            (Err(e), Err(w)) => {
                assert!(e.contains(w), "{e}");
                assert!(e.contains("von diesem Anschluss"), "{e}");
            }
            (got, want) => panic!("{by_client}: {got:?}, expected {want:?}"),
        }
    }
}

#[test]
fn after_a_move_the_answers_stay_on_the_old_day_until_given_again() {
    let old = |coming: bool, via: Via| Answer {
        for_date: day("2027-01-01"),
        ..answer(1, coming, via, 1)
    };
    let mut n = night(
        "2027-01-08",
        vec![
            old(true, Via::Ich),
            Answer {
                for_date: day("2027-01-01"),
                ..answer(2, false, Via::Karte, 1)
            },
            answer(3, true, Via::Ich, 1),
        ],
    );
    // Only the answer for the new day counts.
    let f = n.forecast(10);
    assert_eq!((f.yes, f.no), (1, 0));
    assert_eq!(n.coming().map(|a| a.player_id).collect::<Vec<_>>(), [3]);
    assert_eq!(
        n.old_answers().map(|a| a.player_id).collect::<Vec<_>>(),
        [1, 2]
    );
    assert!(n.current_answer_of(1).is_none());
    assert!(n.answer_of(1).is_some());
    assert_eq!(n.current_answer_of(3).map(|a| a.coming), Some(true));
    // The same answer again confirms it for the new day (something to store), by anybody who
    // may give it.
    let open = PlanStatus::Open;
    let before = old(true, Via::Ich);
    let cases = [
        (true, Via::Ich, Ok(Answered::Confirmed)),
        (false, Via::Ich, Ok(Answered::Confirmed)),
        (true, Via::Karte, Ok(Answered::Confirmed)),
    ];
    for (coming, via, want) in cases {
        assert_eq!(
            check_answer(&n, open, Some(&before), coming, &via, "Anna", 1),
            want,
            "{coming} {via:?}"
        );
    }
    // What his card said for the old day is not confirmed by "Das bin ich".
    let proven = old(true, Via::Karte);
    let e = check_answer(&n, open, Some(&proven), true, &Via::Ich, "Anna", 0).unwrap_err();
    assert!(e.contains("alten Tag, den 01.01.2027"), "{e}");
    assert!(e.contains("08.01.2027"), "{e}");
    // Moved back: the answers hold again.
    n.date = day("2027-01-01");
    assert_eq!(n.forecast(10).yes, 1);
    assert_eq!(n.coming().map(|a| a.player_id).collect::<Vec<_>>(), [1]);
}

#[test]
fn a_plan_is_open_until_it_starts_its_day_passes_or_it_is_cancelled() {
    let today = day("2027-01-08");
    let mut n = night("2027-01-08", Vec::new());
    // (cancelled, date, started, status)
    let cases = [
        (false, "2027-01-08", false, PlanStatus::Open),
        (false, "2027-01-09", false, PlanStatus::Open),
        (false, "2027-01-08", true, PlanStatus::Started),
        (false, "2027-01-07", false, PlanStatus::Past),
        (false, "2027-01-07", true, PlanStatus::Started),
        (true, "2027-01-09", false, PlanStatus::Cancelled),
        (true, "2027-01-09", true, PlanStatus::Cancelled),
    ];
    for (cancelled, date, started, want) in cases {
        n.cancelled = cancelled;
        n.date = day(date);
        assert_eq!(PlanStatus::of(&n, today, started), want, "{date}");
    }
}

#[test]
fn times_are_read_as_the_club_types_them() {
    let t = |h, m| Some(NaiveTime::from_hms_opt(h, m, 0).unwrap());
    // (typed, Ok(time) or None for a refusal)
    let cases = [
        ("19:30", Some(t(19, 30))),
        (" 9:05 ", Some(t(9, 5))),
        ("19.30", Some(t(19, 30))),
        ("1930", Some(t(19, 30))),
        ("00:00", Some(t(0, 0))),
        ("", Some(None)),
        ("   ", Some(None)),
        ("25:00", None),
        ("19:60", None),
        ("19:3", None),
        ("abends", None),
        ("19:30:00", None),
        ("-1:30", None),
        ("１９:３０", None),
    ];
    for (typed, want) in cases {
        match (parse_time(typed), want) {
            (Ok(got), Some(w)) => assert_eq!(got, w, "{typed:?}"),
            (Err(e), None) => assert!(e.starts_with("Beginn:") && e.contains("19:30"), "{e}"),
            (got, want) => panic!("{typed:?}: {got:?}, expected {want:?}"),
        }
    }
}

#[test]
fn places_and_notes_are_short_visible_text() {
    let long = "x".repeat(MAX_PLACE_CHARS + 1);
    // (typed, max, Ok(stored) or a part of the refusal)
    let cases: [(&str, usize, Result<&str, &str>); 5] = [
        ("  Gasthaus Krone ", MAX_PLACE_CHARS, Ok("Gasthaus Krone")),
        ("", MAX_PLACE_CHARS, Ok("")),
        (&long, MAX_PLACE_CHARS, Err("höchstens 80 Zeichen")),
        ("Kro\u{202E}ne", MAX_PLACE_CHARS, Err("U+202E")),
        ("Zeile\nzwei", MAX_NOTE_CHARS, Err("Steuerzeichen")),
    ];
    for (typed, max, want) in cases {
        match (check_text("Ort", typed, max), want) {
            (Ok(got), Ok(w)) => assert_eq!(got, w),
            (Err(e), Err(w)) => assert!(e.starts_with("Ort") && e.contains(w), "{e}"),
            (got, want) => panic!("{typed:?}: {got:?}, expected {want:?}"),
        }
    }
}

#[test]
fn the_next_night_to_answer_and_the_default_time() {
    let mut a = night("2027-01-08", Vec::new());
    a.id = 1;
    a.time = NaiveTime::from_hms_opt(20, 0, 0).unwrap();
    let mut b = night("2027-01-15", Vec::new());
    b.id = 3;
    b.time = NaiveTime::from_hms_opt(19, 0, 0).unwrap();
    let mut c = night("2027-01-22", Vec::new());
    c.id = 2;
    c.cancelled = true;
    let planning = Planning {
        version: 1,
        uid_key: "k".into(),
        nights: vec![a, b, c],
        moved: Vec::new(),
    };
    // (today, started days, next)
    let cases: [(&str, &[&str], Option<&str>); 5] = [
        ("2027-01-01", &[], Some("2027-01-08")),
        ("2027-01-08", &[], Some("2027-01-08")),
        ("2027-01-08", &["2027-01-08"], Some("2027-01-15")),
        ("2027-01-16", &[], None),
        ("2027-01-09", &["2027-01-15"], None),
    ];
    for (today, started, want) in cases {
        let got = planning
            .next(day(today), |d| started.iter().any(|s| day(s) == d))
            .map(|n| n.date);
        assert_eq!(got, want.map(day), "{today} {started:?}");
    }
    // The night planned last (highest id) gives the time of the next one.
    assert_eq!(
        planning.default_time(),
        NaiveTime::from_hms_opt(19, 0, 0).unwrap()
    );
    assert_eq!(
        Planning::default().default_time(),
        NaiveTime::from_hms_opt(19, 30, 0).unwrap()
    );
    assert_eq!(planning.on(day("2027-01-22")).map(|n| n.id), Some(2));
    assert!(planning.active_on(day("2027-01-22")).is_none());
    assert_eq!(planning.uid_of_plan(3), "plan-3-k@schockerliga");
    assert_eq!(
        planning.uid_of_night(day("2026-01-09")),
        "abend-2026-01-09-k@schockerliga"
    );
    assert_eq!(
        planning.nights[0].when_de(),
        "Freitag, 08.01.2027, 20:00 Uhr"
    );
}

#[test]
fn who_answered_is_stored_and_read_back() {
    let cases = [
        (Via::Ich, "ich", "über „Das bin ich“"),
        (Via::Karte, "karte", "über die eigene Karte"),
        (
            Via::Verwaltung("schrift".into()),
            "verwaltung:schrift",
            "eingetragen von schrift",
        ),
    ];
    for (via, stored, label) in cases {
        assert_eq!(via.stored(), stored);
        assert_eq!(Via::parse(stored), via);
        assert_eq!(via.label(), label);
    }
    assert_eq!(Via::parse("unbekannt"), Via::Ich);
}

#[test]
fn a_cancelled_plan_does_not_set_the_default_start() {
    let mut a = night("2027-01-08", Vec::new());
    a.time = NaiveTime::from_hms_opt(20, 0, 0).unwrap();
    let mut late = night("2031-01-05", Vec::new());
    late.id = 2;
    late.time = NaiveTime::from_hms_opt(23, 59, 0).unwrap();
    late.cancelled = true;
    let planning = Planning {
        version: 1,
        uid_key: "k".into(),
        nights: vec![a, late],
        moved: Vec::new(),
    };
    assert_eq!(
        planning.default_time(),
        NaiveTime::from_hms_opt(20, 0, 0).unwrap()
    );
}

#[test]
fn a_day_left_by_a_move_names_where_the_night_is_now() {
    let mut moved = night("2027-01-15", Vec::new());
    moved.id = 1;
    let mut later = night("2027-01-08", Vec::new());
    later.id = 2;
    // Night 3 was cancelled on the 29th before night 1 came and left it, night 4 on the 5th
    // after night 1 had left.
    let mut cancelled_early = night("2027-01-29", Vec::new());
    cancelled_early.id = 3;
    cancelled_early.cancelled = true;
    cancelled_early.updated_at = at_hour(4);
    let mut cancelled_late = night("2027-02-05", Vec::new());
    cancelled_late.id = 4;
    cancelled_late.cancelled = true;
    cancelled_late.updated_at = at_hour(7);
    let planning = Planning {
        version: 1,
        uid_key: "k".into(),
        nights: vec![later, moved, cancelled_early, cancelled_late],
        // Night 1 left the 1st, the 8th, the 29th and the 5th; night 2 was planned on the 8th
        // since; the night that left the 22nd is gone.
        moved: vec![
            moved_at("2027-01-01", 1, 1),
            moved_at("2027-01-08", 1, 2),
            moved_at("2027-01-22", 9, 3),
            moved_at("2027-01-29", 1, 5),
            moved_at("2027-02-05", 1, 6),
        ],
    };
    // (day, where its night is now)
    let cases = [
        ("2027-01-01", Some("2027-01-15")),
        ("2027-01-08", None),               // a night of its own
        ("2027-01-15", None),               // the night's own day
        ("2027-01-22", None),               // the night that left it is gone
        ("2027-01-29", Some("2027-01-15")), // cancelled there before: the move is the news
        ("2027-02-05", None), // cancelled there after the move: that is the day's news
        ("2027-02-12", None), // nothing ever there
    ];
    for (d, want) in cases {
        assert_eq!(
            planning.moved_from(day(d)).map(|n| n.date),
            want.map(day),
            "{d}"
        );
    }
}

/// 2026-12-01 at `hour`:00 UTC.
fn at_hour(hour: u32) -> chrono::DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 12, 1, hour, 0, 0).unwrap()
}

/// Night `id` left `from` at [`at_hour`]`(hour)`.
fn moved_at(from: &str, id: i64, hour: u32) -> Moved {
    Moved {
        from: day(from),
        id,
        at: at_hour(hour),
    }
}

#[test]
fn the_invitation_says_day_place_forecast_and_link_or_that_the_night_is_off() {
    let link = "https://liga.example/abend/2027-01-08";
    let mut answers: Vec<Answer> = (1..=6).map(|i| answer(i, true, Via::Ich, 1)).collect();
    answers.push(answer(7, false, Via::Ich, 1));
    let mut n = night("2027-01-08", answers);
    n.place = "Zum Anker".into();
    assert_eq!(
        n.invitation(10, link),
        "Schocken am Freitag, 08.01.2027, 19:30 Uhr, Zum Anker. Bisher 6 Zusagen, 1 Absage – \
         voraussichtlich 1 Tisch. Zu- oder absagen: https://liga.example/abend/2027-01-08"
    );
    n.note = "Bitte Kleingeld mitbringen.".into();
    assert!(n
        .invitation(6, link)
        .contains("voraussichtlich 2 Tische. Hinweis: Bitte Kleingeld mitbringen. Zu- oder"));
    n.place.clear();
    n.cancelled = true;
    assert_eq!(
        n.invitation(10, link),
        "Der Schockabend am Freitag, 08.01.2027, 19:30 Uhr fällt aus. \
         https://liga.example/abend/2027-01-08"
    );
}
