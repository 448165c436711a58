//! The nights as a calendar (interchange.md "Planned nights and a player's own card"): one
//! `VEVENT` per planned or played night of the current and the next season, from the snapshot
//! (`league::plan::calendar` writes the text). A played night keeps the UID of its plan; one played
//! without a plan gets a UID made of its day. A player's own calendar holds his nights: those he
//! played, and the planned ones he did not decline (tentative while he has not answered).

use chrono::{DateTime, Datelike, Duration, NaiveDate, NaiveDateTime, NaiveTime, TimeZone, Utc};
use chrono_tz::Tz;

use super::Snapshot;
use crate::league::plan::calendar::{self, Event, Status};
use crate::league::plan::planned::{self, PlannedNight};

/// Whose calendar.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Whose {
    /// The club's: every night.
    Club,
    /// Player `players.id`'s own: his nights.
    Player(i64),
}

/// The summary of every night's event.
pub const SUMMARY: &str = "Schockerliga: Spielabend";

/// `local` on the club's wall clock in `zone` as an instant (the earlier one when the clock
/// shows it twice, the first after the gap when never).
fn instant(zone: Tz, local: NaiveDateTime) -> DateTime<Utc> {
    zone.from_local_datetime(&local)
        .earliest()
        .or_else(|| {
            zone.from_local_datetime(&(local + Duration::hours(1)))
                .earliest()
        })
        .map_or_else(|| Utc.from_utc_datetime(&local), |t| t.with_timezone(&Utc))
}

/// The description of a planned night: its forecast and its note.
fn described(night: &PlannedNight, split_tables_from: u32) -> String {
    let forecast = night.forecast(split_tables_from).sentence();
    if night.note.is_empty() {
        forecast
    } else {
        format!("{forecast}\n{}", night.note)
    }
}

/// The start of `night` on the club's wall clock in `zone`, and what to say when the zone skips
/// its time (planned before the refusal existed, or the zone changed since): moved as RFC 5545
/// reads it ([`calendar::skipped`]), "Beginn 02:30 Uhr gibt es am 29.03.2026 nicht
/// (Zeitumstellung): 03:30 Uhr.".
fn start_of(zone: Tz, night: &PlannedNight) -> (NaiveDateTime, Option<String>) {
    let start = night.date.and_time(night.time);
    match calendar::skipped(zone, start) {
        None => (start, None),
        Some(moved) => (
            moved,
            Some(format!(
                "Beginn {} Uhr gibt es am {} nicht (Zeitumstellung): {} Uhr.",
                night.time.format("%H:%M"),
                crate::league::model::format::date_de(night.date),
                moved.format("%H:%M")
            )),
        ),
    }
}

/// `description` with `said` (when given) as its first line.
fn saying(said: Option<String>, description: String) -> String {
    match said {
        Some(s) if description.is_empty() => s,
        Some(s) => format!("{s}\n{description}"),
        None => description,
    }
}

/// The calendar of `whose` from `snapshot` in `zone` for the season of `today` (the current: the
/// newest with a night, else today's year) and the next one; each event's `URL` is `base`
/// (`https://host`) and its night's page, when `base` is given. The text of a `.ics` file.
pub fn calendar(
    snapshot: &Snapshot,
    zone: Tz,
    today: NaiveDate,
    base: Option<&str>,
    whose: Whose,
) -> String {
    let current = snapshot.current_year(today).unwrap_or(today.year());
    let years = current..=current + 1;
    let planning = &snapshot.planning;
    let split_of = |year: i32| {
        snapshot.season(year).map_or_else(
            |_| crate::league::model::rules::SeasonRules::defaults_for(year).split_tables_from,
            |v| v.season.rules.split_tables_from,
        )
    };
    let url = |date: NaiveDate| base.map(|b| format!("{b}/abend/{date}"));
    let player = match whose {
        Whose::Club => None,
        Whose::Player(id) => Some(id),
    };
    let mut events = Vec::new();
    for view in snapshot
        .seasons()
        .filter(|v| years.contains(&v.season.year))
    {
        let name = player.and_then(|id| view.player_name(id));
        for night in &view.season.nights {
            if let Some(id) = player {
                let played = name.is_some_and(|n| {
                    night.draw.iter().any(|s| s.player == n) || night.participants().contains(n)
                });
                let said_yes = planning
                    .active_on(night.date)
                    .and_then(|p| p.current_answer_of(id))
                    .is_some_and(|a| a.coming);
                if !played && !said_yes {
                    continue;
                }
            }
            let plan = planning.active_on(night.date);
            // Without a plan no time is known (an imported night, one entered on its day): a
            // date-only event, no invented hours.
            let (start, said) = match plan {
                Some(p) => start_of(zone, p),
                None => (night.date.and_time(NaiveTime::MIN), None),
            };
            let description = match plan {
                _ if night.has_results() => {
                    format!("{} Teilnehmer", night.participants().len())
                }
                Some(p) => described(p, view.season.rules.split_tables_from),
                None => String::new(),
            };
            events.push(Event {
                uid: plan.map_or_else(
                    || planning.uid_of_night(night.date),
                    |p| planning.uid_of_plan(p.id),
                ),
                stamp: plan.map_or_else(|| instant(zone, start), |p| p.updated_at),
                start,
                end: if plan.is_some() {
                    start + Duration::hours(planned::HOURS)
                } else {
                    start
                },
                all_day: plan.is_none(),
                summary: SUMMARY.to_string(),
                location: plan.map(|p| p.place.clone()).unwrap_or_default(),
                description: saying(said, description),
                url: url(night.date),
                status: Status::Confirmed,
                sequence: plan.map_or(0, |p| p.sequence),
            });
        }
    }
    for plan in planning
        .nights
        .iter()
        .filter(|p| years.contains(&p.date.year()))
    {
        // A started night is the played night above (with this plan's UID).
        if !plan.cancelled && snapshot.night(plan.date).is_some() {
            continue;
        }
        // An answer left on the old day of a move does not say yes or no to this one.
        let answer = player.and_then(|id| plan.current_answer_of(id));
        if player.is_some() && answer.is_some_and(|a| !a.coming) {
            continue;
        }
        let status = match (plan.cancelled, player, answer) {
            (true, _, _) => Status::Cancelled,
            (false, Some(_), None) => Status::Tentative,
            _ => Status::Confirmed,
        };
        let (start, said) = start_of(zone, plan);
        events.push(Event {
            uid: planning.uid_of_plan(plan.id),
            stamp: plan.updated_at,
            start,
            end: start + Duration::hours(planned::HOURS),
            all_day: false,
            summary: SUMMARY.to_string(),
            location: plan.place.clone(),
            description: saying(
                said,
                if plan.cancelled {
                    "Abgesagt.".to_string()
                } else {
                    described(plan, split_of(plan.date.year()))
                },
            ),
            url: url(plan.date),
            status,
            sequence: plan.sequence,
        });
    }
    events.sort_by(|a, b| (a.start, &a.uid).cmp(&(b.start, &b.uid)));
    let name = match player.and_then(|id| snapshot.player_name(id)) {
        Some(n) => format!("Schockerliga – {n}"),
        None => "Schockerliga".to_string(),
    };
    calendar::ics(&name, zone, years, &events)
}
