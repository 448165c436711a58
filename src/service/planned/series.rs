//! A season of nights in one step (issue 38.1): every date of a recurrence rule planned as a
//! single night would be, the days already planned, cancelled or played named and left alone;
//! shown before it is stored, and the same series again stores nothing new.

use chrono::{Datelike, NaiveDate};

use super::{audit_plan, check_wall_clock, plan_day, plan_of, refused, PlanInput};
use crate::db;
use crate::league::model::format::date_de;
use crate::league::plan::series::{self, Rule};
use crate::service::{League, ServiceError};

/// A series as typed: the first and last day, the rule, the days left out, start and place
/// (`None` or empty start: the club's usual one).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SeriesInput {
    /// The first day the rule may give.
    pub from: NaiveDate,
    /// The last day it may give.
    pub until: NaiveDate,
    /// How often.
    pub rule: Rule,
    /// Days of the rule left out (holidays).
    pub except: Vec<NaiveDate>,
    /// The start as typed ("19:30").
    pub time: Option<String>,
    /// The place as typed.
    pub place: Option<String>,
}

/// What the series does with one of its days.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SeriesState {
    /// Planned new (or to be, in the preview).
    New,
    /// A night is planned that day already: left as it is.
    Planned,
    /// The night of that day was cancelled: it stays cancelled.
    Cancelled,
    /// The night of that day was moved to another day: it stays moved (the old day's link leads
    /// to the new one).
    Moved,
    /// That day has a Spielabend already.
    Played,
}

impl SeriesState {
    /// The state in German, as the list shows it.
    pub fn de(self) -> &'static str {
        match self {
            SeriesState::New => "neu",
            SeriesState::Planned => "schon geplant",
            SeriesState::Cancelled => "abgesagt (bleibt abgesagt)",
            SeriesState::Moved => "verlegt (bleibt verlegt)",
            SeriesState::Played => "schon gespielt",
        }
    }
}

/// The series' days, oldest first, each with its state, and how many were stored (0 in a
/// preview).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SeriesPlan {
    /// (day, state).
    pub days: Vec<(NaiveDate, SeriesState)>,
    /// Nights stored by this call.
    pub stored: usize,
}

impl SeriesPlan {
    /// The days the series plans new.
    pub fn new_days(&self) -> impl Iterator<Item = NaiveDate> + '_ {
        self.days
            .iter()
            .filter(|(_, s)| *s == SeriesState::New)
            .map(|(d, _)| *d)
    }
}

impl League {
    /// The nights of `input` (league::plan::series::dates), each checked as a single planned
    /// night would be (a day not over and at most next year, a start the clock has that day, a
    /// season not netted); days planned, cancelled, moved away or played already are named and
    /// left alone.
    /// With `store`, the new ones are planned by `author` in one transaction, one Protokoll line
    /// each, a year without a season getting one. Refused (German, nothing stored): the rule's
    /// refusals, a series without a night, the first day that does not check.
    pub async fn plan_series(
        &self,
        input: &SeriesInput,
        store: bool,
        author: &str,
    ) -> Result<SeriesPlan, ServiceError> {
        let dates =
            series::dates(input.rule, input.from, input.until, &input.except).map_err(refused)?;
        if dates.is_empty() {
            return Err(refused(format!(
                "Von {} bis {} gibt es keinen Abend {}.",
                date_de(input.from),
                date_de(input.until),
                input.rule.de()
            )));
        }
        let today = self.today();
        let planning = self.planning();
        let snapshot = self.snapshot();
        let mut days = Vec::with_capacity(dates.len());
        let mut plans = Vec::new();
        for date in dates {
            let state = if snapshot.night(date).is_some() {
                SeriesState::Played
            } else if planning.active_on(date).is_some() {
                SeriesState::Planned
            } else if planning.moved_from(date).is_some() {
                SeriesState::Moved
            } else if planning
                .nights
                .iter()
                .any(|n| n.date == date && n.cancelled)
            {
                SeriesState::Cancelled
            } else {
                SeriesState::New
            };
            if state == SeriesState::New {
                plan_day(date, today)?;
                let typed = PlanInput {
                    date: Some(date),
                    time: input.time.clone().filter(|t| !t.trim().is_empty()),
                    place: input.place.clone(),
                    note: None,
                };
                let plan = plan_of(&typed, None, planning.default_time())?;
                check_wall_clock(&plan, self.timezone())?;
                self.season_not_netted(date)?;
                plans.push(plan);
            }
            days.push((date, state));
        }
        if !store || plans.is_empty() {
            return Ok(SeriesPlan { days, stored: 0 });
        }
        let mut years: Vec<i32> = plans.iter().map(|p| p.date.year()).collect();
        years.dedup();
        for year in years {
            self.season_for(year, author).await?;
        }
        let now = self.clock().now();
        let mut tx = self.inner.db.begin_write_as(author).await?;
        let mut stored = 0;
        for plan in &plans {
            // Planned meanwhile by another request (the same series sent twice at once): left
            // as it is, like a day planned before.
            if db::planned::planned_on(&mut tx, plan.date).await? {
                continue;
            }
            if db::night::by_date(&mut tx, plan.date).await?.is_some() {
                return Err(refused(format!(
                    "Am {} gibt es inzwischen einen Spielabend: die Serie bitte neu zeigen lassen.",
                    date_de(plan.date)
                )));
            }
            let id = db::planned::insert(&mut tx, plan, author, now).await?;
            audit_plan(&mut tx, author, "Abend geplant (Serie)", id, plan, None).await?;
            stored += 1;
        }
        tx.commit().await?;
        self.planning_written().await?;
        Ok(SeriesPlan { days, stored })
    }
}
