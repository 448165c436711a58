//! Nights planned ahead (issue 27, interchange.md "Planned nights and a player's own card"): the
//! secretary (the Verwaltung, `night plan` / `night cancel`) plans, moves, cancels and starts
//! them; players answer without an account ("Das bin ich", their own card) or the secretary for
//! them. A year without a season gets one with that year's defaults; starting a night adds the
//! Spielabend to its season (with the players who said "Ich komme" and are not in the season
//! yet), and the night page ticks them as present.
//!
//! The planned nights are part of the snapshot ([`Snapshot::planning`](super::Snapshot)): every
//! write here installs them at once (the page cache empties), and another process's write is
//! found by [`League::refresh`] through the `planning.version` counter the triggers bump.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex};

use chrono::{Datelike, NaiveDate};
use serde_json::json;

use super::{League, ServiceError};
use crate::db::planned::PlanRow;
use crate::db::{self, WriteTx};
use crate::league::model::format::date_de;
use crate::league::plan::planned::{
    self, check_answer, Answered, PlanStatus, PlannedNight, Planning, Via,
};
use crate::league::Change;

mod series;
pub mod who_plays;
pub use series::{SeriesInput, SeriesPlan, SeriesState};

/// A planned night as typed (the Verwaltung's form, the command line): the day and the texts of
/// start time, place and note. `None` keeps what is stored (a new night: the default start,
/// no place, no note).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PlanInput {
    /// The day.
    pub date: Option<NaiveDate>,
    /// The start as typed ("19:30"); empty or `None`: the default ([`Planning::default_time`]).
    pub time: Option<String>,
    /// The place as typed.
    pub place: Option<String>,
    /// The note as typed.
    pub note: Option<String>,
}

/// What planning a night on a day already planned does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OnPlanned {
    /// Refused: the Verwaltung's form plans new nights only (a planned one is changed on its page).
    Refuse,
    /// The given fields change (the command line: `night plan` again with another time).
    Update,
}

/// What [`League::plan_night`] did, with the planned night's id.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Planned {
    /// A new night was planned.
    New(i64),
    /// The night planned on that day changed.
    Changed(i64),
    /// It was planned already just so.
    Unchanged(i64),
    /// A night cancelled on that day is planned again.
    Revived(i64),
}

impl Planned {
    /// The planned night's id.
    pub fn id(self) -> i64 {
        match self {
            Planned::New(id)
            | Planned::Changed(id)
            | Planned::Unchanged(id)
            | Planned::Revived(id) => id,
        }
    }
}

/// What [`League::cancel_planned`] did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cancelled {
    /// Cancelled.
    Cancelled,
    /// Cancelled, and its Spielabend (started, no rounds yet) removed.
    WithNight,
}

/// The "Das bin ich" answers each client gave for a player and a planned night (the abuse limit
/// of [`planned::MAX_CHANGES`] counts per client: nobody uses up the player's own). Kept in
/// memory: a restart forgets them (the limit stops one visitor flipping an answer for ever, it is
/// no record). At most [`Claims::MAX_KEPT`] are kept; past that the oldest nights' go first.
#[derive(Debug, Default)]
pub(crate) struct Claims {
    /// (planned night, player, client) → answers given.
    counts: Mutex<HashMap<(i64, i64, IpAddr), u32>>,
}

impl Claims {
    /// How many (night, player, client) counts are kept at most (a few MB).
    const MAX_KEPT: usize = 50_000;

    /// The answers `client` gave for player `player` and night `night`.
    fn of(&self, night: i64, player: i64, client: IpAddr) -> u32 {
        let counts = self.counts.lock().unwrap_or_else(|e| e.into_inner());
        counts.get(&(night, player, client)).copied().unwrap_or(0)
    }

    /// One more answer of `client` for `player` and `night`.
    fn count(&self, night: i64, player: i64, client: IpAddr) {
        let mut counts = self.counts.lock().unwrap_or_else(|e| e.into_inner());
        if counts.len() >= Self::MAX_KEPT && !counts.contains_key(&(night, player, client)) {
            // Planned nights' ids grow: the oldest nights' counts go first.
            let oldest = counts.keys().map(|k| k.0).min().unwrap_or(night);
            counts.retain(|k, _| k.0 != oldest);
            if counts.len() >= Self::MAX_KEPT {
                counts.clear();
            }
        }
        *counts.entry((night, player, client)).or_insert(0) += 1;
    }
}

/// A German refusal.
fn refused(message: String) -> ServiceError {
    ServiceError::refused(message)
}

/// The plan of `input` over `before` (a stored night, or `None` for a new one): the day, the
/// start (typed, else the stored one, else `default`), place and note checked. Refused (German)
/// when a field does not check or the day is missing.
fn plan_of(
    input: &PlanInput,
    before: Option<&PlannedNight>,
    default: chrono::NaiveTime,
) -> Result<PlanRow, ServiceError> {
    let date = input
        .date
        .or(before.map(|b| b.date))
        .ok_or_else(|| ServiceError::refused("Datum fehlt."))?;
    let typed_time = match input.time.as_deref() {
        Some(t) => planned::parse_time(t).map_err(ServiceError::refused)?,
        None => None,
    };
    let time = typed_time.or(before.map(|b| b.time)).unwrap_or(default);
    let text = |typed: &Option<String>, stored: Option<&str>, field: &str, max: usize| match typed {
        Some(t) => planned::check_text(field, t, max).map_err(ServiceError::refused),
        None => Ok(stored.unwrap_or_default().to_string()),
    };
    Ok(PlanRow {
        date,
        time,
        place: text(
            &input.place,
            before.map(|b| b.place.as_str()),
            "Ort",
            planned::MAX_PLACE_CHARS,
        )?,
        note: text(
            &input.note,
            before.map(|b| b.note.as_str()),
            "Hinweis",
            planned::MAX_NOTE_CHARS,
        )?,
    })
}

/// Refused (German) when the club's time zone `zone` skips the start of `plan` (02:30 in the night
/// the clocks go forward): the calendar could only show it at another time.
fn check_wall_clock(plan: &PlanRow, zone: chrono_tz::Tz) -> Result<(), ServiceError> {
    match crate::league::plan::calendar::skipped(zone, plan.date.and_time(plan.time)) {
        None => Ok(()),
        Some(moved) => Err(refused(format!(
            "Beginn: {} Uhr gibt es am {} nicht, in dieser Nacht wird die Uhr vorgestellt \
             ({} Uhr wäre {} Uhr). Bitte eine andere Uhrzeit wählen.",
            plan.time.format("%H:%M"),
            date_de(plan.date),
            plan.time.format("%H:%M"),
            moved.format("%H:%M")
        ))),
    }
}

/// Whether `plan` says the same as the stored `night`.
fn same(plan: &PlanRow, night: &PlannedNight) -> bool {
    plan.date == night.date
        && plan.time == night.time
        && plan.place == night.place
        && plan.note == night.note
}

/// A day a night may be planned on, seen from the club's `today`: not over, and at most in next
/// year (as the season import allows: hostile trial, a typo 9999 made an empty season 9999 the
/// current one, and starting it took every Zusage into it). Refused in German otherwise.
fn plan_day(date: NaiveDate, today: NaiveDate) -> Result<(), ServiceError> {
    let day = date_de(date);
    if date < today {
        return Err(refused(format!(
            "Der {day} ist vorbei: geplant werden nur kommende Abende."
        )));
    }
    let last = today.year() + 1;
    if date.year() > last {
        return Err(refused(format!(
            "Der {day} liegt zu weit in der Zukunft: geplant wird höchstens bis Ende {last}."
        )));
    }
    Ok(())
}

impl League {
    /// Refuses a night planned on `date` while the netting of its season is booked (league.md
    /// §11: a new night needs the netting undone first), as the write pipeline refuses its start.
    fn season_not_netted(&self, date: NaiveDate) -> Result<(), ServiceError> {
        match self.snapshot().season(date.year()) {
            Ok(view) => match crate::league::money::netting::netting_booked(&view.season) {
                Some(refusal) => Err(ServiceError::Refused(refusal)),
                None => Ok(()),
            },
            Err(_) => Ok(()),
        }
    }

    /// The nights planned ahead of the current snapshot.
    pub fn planning(&self) -> Arc<Planning> {
        self.snapshot().planning.clone()
    }

    /// Reads the planned nights when their counter moved (another process wrote) and installs
    /// them. Part of [`League::refresh`]; the caller holds the write lock.
    pub(crate) async fn refresh_planning(&self) -> Result<(), ServiceError> {
        let mut conn = self.inner.db.read.acquire().await?;
        let version = db::planned::version(&mut conn).await?;
        let known = self.snapshot().planning.clone();
        if version == known.version && !known.uid_key.is_empty() {
            return Ok(());
        }
        let planning = Arc::new(db::planned::load(&mut conn).await?);
        if *planning != *self.snapshot().planning {
            self.replace(|s, id| s.with_planning(id, planning));
        }
        Ok(())
    }

    /// Reads the planned nights after a write of this league and installs them, then tells the
    /// other leagues of the process.
    async fn planning_written(&self) -> Result<(), ServiceError> {
        {
            let _w = self.inner.writing.lock().await;
            let mut conn = self.inner.db.read.acquire().await?;
            let planning = Arc::new(db::planned::load(&mut conn).await?);
            self.replace(|s, id| s.with_planning(id, planning));
        }
        self.written().await;
        Ok(())
    }

    /// Season `year` exists afterwards: created with its year's defaults by `author` when the
    /// league has none (interchange.md: "a year without a season gets one").
    async fn season_for(&self, year: i32, author: &str) -> Result<(), ServiceError> {
        match self.snapshot().season(year) {
            Ok(_) => Ok(()),
            Err(ServiceError::NoSeason(_)) => {
                let made = self
                    .create_season(year, serde_json::Map::new(), &super::Edit::by(author))
                    .await;
                match made {
                    Ok(_) => Ok(()),
                    // Made meanwhile by another request: as good.
                    Err(_) if self.snapshot().season(year).is_ok() => Ok(()),
                    Err(e) => Err(e),
                }
            }
            Err(e) => Err(e),
        }
    }

    /// Plans a night by `author` as `input` says (the day required): a year without a season
    /// gets one first. On a day already planned `on_planned` decides (refused, or its given
    /// fields change); a night cancelled on that day is planned again (same calendar UID). Refused
    /// (German, nothing stored): a day that is over, a day with a Spielabend, a field that does
    /// not check.
    pub async fn plan_night(
        &self,
        input: &PlanInput,
        on_planned: OnPlanned,
        author: &str,
    ) -> Result<Planned, ServiceError> {
        let date = input
            .date
            .ok_or_else(|| ServiceError::refused("Datum fehlt."))?;
        let today = self.today();
        let planning = self.planning();
        let active = planning.active_on(date).cloned();
        let cancelled = planning
            .nights
            .iter()
            .rev()
            .find(|n| n.date == date && n.cancelled)
            .cloned();
        let day = date_de(date);
        if let Some(a) = &active {
            if on_planned == OnPlanned::Refuse {
                return Err(refused(format!(
                    "Am {day} ist schon ein Abend geplant ({} Uhr): dort ändern.",
                    a.time.format("%H:%M")
                )));
            }
        }
        if self.snapshot().night(date).is_some() {
            return Err(refused(format!(
                "Am {day} gibt es schon einen Spielabend: er braucht keinen Plan mehr."
            )));
        }
        plan_day(date, today)?;
        self.season_not_netted(date)?;
        let before = active.as_ref().or(cancelled.as_ref());
        let plan = plan_of(input, before, planning.default_time())?;
        check_wall_clock(&plan, self.timezone())?;
        self.season_for(date.year(), author).await?;
        let now = self.clock().now();
        let mut tx = self.inner.db.begin_write_as(author).await?;
        if db::night::by_date(&mut tx, date).await?.is_some() {
            return Err(refused(format!(
                "Am {day} gibt es schon einen Spielabend: er braucht keinen Plan mehr."
            )));
        }
        let (done, action) = match (&active, &cancelled) {
            (Some(a), _) if same(&plan, a) => (Planned::Unchanged(a.id), None),
            (Some(a), _) => {
                db::planned::update(&mut tx, a.id, &plan, true, now).await?;
                (Planned::Changed(a.id), Some("Geplanten Abend geändert"))
            }
            (None, Some(c)) => {
                db::planned::update(&mut tx, c.id, &plan, false, now).await?;
                db::planned::set_cancelled(&mut tx, c.id, false, now).await?;
                (
                    Planned::Revived(c.id),
                    Some("Abgesagten Abend wieder angesetzt"),
                )
            }
            (None, None) => {
                let id = db::planned::insert(&mut tx, &plan, author, now).await?;
                (Planned::New(id), Some("Abend geplant"))
            }
        };
        if let Some(action) = action {
            audit_plan(&mut tx, author, action, done.id(), &plan, before).await?;
            tx.commit().await?;
            self.planning_written().await?;
        }
        Ok(done)
    }

    /// Changes planned night `id` by `author` as `input` says (a move to another day, a new start,
    /// place or note); a year without a season gets one. Refused (German, nothing stored): no such
    /// night, a cancelled or started one, a day that is over, planned already or with a
    /// Spielabend, a field that does not check.
    pub async fn edit_planned(
        &self,
        id: i64,
        input: &PlanInput,
        author: &str,
    ) -> Result<(), ServiceError> {
        let planning = self.planning();
        let night = planning
            .by_id(id)
            .cloned()
            .ok_or_else(|| ServiceError::NotFound(format!("Geplanter Abend Nr. {id}")))?;
        let today = self.today();
        let started = self.snapshot().night(night.date).is_some();
        match PlanStatus::of(&night, today, started) {
            PlanStatus::Cancelled => {
                return Err(refused(format!(
                    "Der Abend am {} ist abgesagt: erst wieder ansetzen.",
                    date_de(night.date)
                )))
            }
            PlanStatus::Started => {
                return Err(refused(format!(
                    "Der Abend am {} hat schon begonnen: Datum und Beginn stehen fest.",
                    date_de(night.date)
                )))
            }
            PlanStatus::Open | PlanStatus::Past => {}
        }
        let plan = plan_of(input, Some(&night), planning.default_time())?;
        if same(&plan, &night) {
            return Ok(());
        }
        check_wall_clock(&plan, self.timezone())?;
        let day = date_de(plan.date);
        if plan.date != night.date {
            plan_day(plan.date, today)?;
            if planning.active_on(plan.date).is_some() {
                return Err(refused(format!("Am {day} ist schon ein Abend geplant.")));
            }
            if self.snapshot().night(plan.date).is_some() {
                return Err(refused(format!("Am {day} gibt es schon einen Spielabend.")));
            }
            self.season_not_netted(plan.date)?;
            self.season_for(plan.date.year(), author).await?;
        }
        let now = self.clock().now();
        let mut tx = self.inner.db.begin_write_as(author).await?;
        if db::night::by_date(&mut tx, plan.date).await?.is_some()
            || db::night::by_date(&mut tx, night.date).await?.is_some()
        {
            return Err(refused(format!(
                "Am {day} gibt es inzwischen einen Spielabend: nichts geändert."
            )));
        }
        if db::planned::update(&mut tx, id, &plan, true, now).await? == 0 {
            return Err(ServiceError::NotFound(format!("Geplanter Abend Nr. {id}")));
        }
        if plan.date != night.date {
            // The links shared for the old day lead on to the new one.
            db::planned::record_move(&mut tx, night.date, id, now).await?;
        }
        let action = if plan.date == night.date {
            "Geplanten Abend geändert"
        } else {
            "Geplanten Abend verschoben"
        };
        audit_plan(&mut tx, author, action, id, &plan, Some(&night)).await?;
        tx.commit().await?;
        self.planning_written().await
    }

    /// Cancels planned night `id` by `author` (it stays in the calendar as STATUS:CANCELLED). A
    /// started night without rounds, fines or totals loses its Spielabend in the same
    /// transaction. Refused (German): no such night, cancelled already, a Spielabend with rounds,
    /// fines or totals, or one that is closed.
    pub async fn cancel_planned(&self, id: i64, author: &str) -> Result<Cancelled, ServiceError> {
        let night = self
            .planning()
            .by_id(id)
            .cloned()
            .ok_or_else(|| ServiceError::NotFound(format!("Geplanter Abend Nr. {id}")))?;
        let day = date_de(night.date);
        if night.cancelled {
            return Err(refused(format!("Der Abend am {day} ist schon abgesagt.")));
        }
        let now = self.clock().now();
        let snapshot = self.snapshot();
        if let Some((view, played)) = snapshot.night(night.date) {
            if played.tables.iter().any(|t| !t.rounds.is_empty()) || !played.totals.is_empty() {
                return Err(refused(format!(
                    "Am {day} sind schon Runden eingetragen: der Abend findet statt und kann nicht \
                     abgesagt werden."
                )));
            }
            if !played.fines.is_empty() {
                return Err(refused(format!(
                    "Am {day} sind schon Strafen gebucht: erst die Strafen löschen, dann absagen."
                )));
            }
            if played.closed {
                return Err(refused(format!(
                    "Der Abend am {day} ist abgeschlossen: absagen geht nicht mehr."
                )));
            }
            let year = view.season.year;
            drop(snapshot);
            let edit = super::Edit::by(author);
            let change = Change::RemoveNight { date: night.date };
            let (cancelled, who) = (night.clone(), author.to_string());
            let then: super::write::Then = Box::new(move |tx| {
                Box::pin(async move { cancel_in(tx, &cancelled, &who, now).await })
            });
            self.changes_then(year, std::slice::from_ref(&change), &edit, then)
                .await?;
            self.planning_written().await?;
            return Ok(Cancelled::WithNight);
        }
        drop(snapshot);
        let mut tx = self.inner.db.begin_write_as(author).await?;
        if db::night::by_date(&mut tx, night.date).await?.is_some() {
            return Err(refused(format!(
                "Am {day} hat der Abend inzwischen begonnen: bitte noch einmal versuchen."
            )));
        }
        cancel_in(&mut tx, &night, author, now).await?;
        tx.commit().await?;
        self.planning_written().await?;
        Ok(Cancelled::Cancelled)
    }

    /// Plans the cancelled night `id` again by `author` (same day, same calendar UID). Refused
    /// (German): not cancelled, its day over, another night planned or a Spielabend on its day.
    pub async fn revive_planned(&self, id: i64, author: &str) -> Result<(), ServiceError> {
        let planning = self.planning();
        let night = planning
            .by_id(id)
            .cloned()
            .ok_or_else(|| ServiceError::NotFound(format!("Geplanter Abend Nr. {id}")))?;
        let day = date_de(night.date);
        if !night.cancelled {
            return Err(refused(format!("Der Abend am {day} ist nicht abgesagt.")));
        }
        if night.date < self.today() {
            return Err(refused(format!("Der {day} ist vorbei.")));
        }
        if planning.active_on(night.date).is_some() {
            return Err(refused(format!(
                "Am {day} ist schon ein anderer Abend geplant."
            )));
        }
        if self.snapshot().night(night.date).is_some() {
            return Err(refused(format!("Am {day} gibt es schon einen Spielabend.")));
        }
        self.season_not_netted(night.date)?;
        let now = self.clock().now();
        let mut tx = self.inner.db.begin_write_as(author).await?;
        db::planned::set_cancelled(&mut tx, id, false, now).await?;
        db::audit::record(
            &mut tx,
            author,
            "Abgesagten Abend wieder angesetzt",
            Some(&json!({ "planned": id, "date": night.date, "cancelled": true })),
            Some(&json!({ "planned": id, "date": night.date, "cancelled": false })),
        )
        .await?;
        tx.commit().await?;
        self.planning_written().await
    }

    /// Player `player_id`'s answer `coming` to planned night `id`, given `via` (audited when the
    /// secretary gives it) from `client` (the web's client address: the "Das bin ich" changes
    /// are counted per client; `None` counts as one unknown client). The answer holds for the
    /// night's day (one left on the old day of a move is confirmed). Returns what it did
    /// ([`Answered::Same`]: nothing stored). Refused (German, [`check_answer`]): the night not
    /// open (cancelled, started, over), a "Das bin ich" answer over a proven one, too many
    /// changes from this client; `NotFound` for an unknown night or player.
    pub async fn answer_planned(
        &self,
        id: i64,
        player_id: i64,
        coming: bool,
        via: &Via,
        client: Option<IpAddr>,
    ) -> Result<Answered, ServiceError> {
        let client = client.unwrap_or(IpAddr::V4(std::net::Ipv4Addr::UNSPECIFIED));
        let today = self.today();
        let now = self.clock().now();
        let author = match via {
            Via::Verwaltung(login) => login.clone(),
            Via::Karte => "Karte".to_string(),
            Via::Ich => "Das bin ich".to_string(),
        };
        let mut tx = self.inner.db.begin_write_as(&author).await?;
        let planning = db::planned::load(&mut tx).await?;
        let night = planning
            .by_id(id)
            .ok_or_else(|| ServiceError::NotFound(format!("Geplanter Abend Nr. {id}")))?;
        let (_, name) = db::player::by_id(&mut tx, player_id)
            .await?
            .ok_or_else(|| ServiceError::NotFound(format!("Spieler Nr. {player_id}")))?;
        let started = db::night::by_date(&mut tx, night.date).await?.is_some();
        let status = PlanStatus::of(night, today, started);
        let before = night.answer_of(player_id);
        let by_client = self.inner.claims.of(id, player_id, client);
        let done = check_answer(night, status, before, coming, via, &name, by_client)
            .map_err(ServiceError::refused)?;
        if done == Answered::Same {
            return Ok(done);
        }
        let changes = before.map_or(1, |b| b.changes.saturating_add(1));
        db::planned::put_answer(
            &mut tx, id, player_id, coming, via, changes, now, night.date,
        )
        .await?;
        if let Via::Verwaltung(login) = via {
            db::audit::record(
                &mut tx,
                login,
                &format!(
                    "{name}: {} für den {} eingetragen",
                    if coming { "Zusage" } else { "Absage" },
                    date_de(night.date)
                ),
                before
                    .map(|b| json!({ "player": name, "coming": b.coming, "via": b.via.stored() }))
                    .as_ref(),
                Some(&json!({ "player": name, "coming": coming, "via": via.stored() })),
            )
            .await?;
        }
        tx.commit().await?;
        if *via == Via::Ich {
            self.inner.claims.count(id, player_id, client);
        }
        self.planning_written().await?;
        Ok(done)
    }

    /// Removes player `player_id`'s answer to planned night `id` by the secretary `author`
    /// (audited); returns whether there was one. Refused (German) when the night is not open.
    pub async fn clear_answer(
        &self,
        id: i64,
        player_id: i64,
        author: &str,
    ) -> Result<bool, ServiceError> {
        let today = self.today();
        let mut tx = self.inner.db.begin_write_as(author).await?;
        let planning = db::planned::load(&mut tx).await?;
        let night = planning
            .by_id(id)
            .ok_or_else(|| ServiceError::NotFound(format!("Geplanter Abend Nr. {id}")))?;
        let started = db::night::by_date(&mut tx, night.date).await?.is_some();
        if let Err(e) = check_answer(
            night,
            PlanStatus::of(night, today, started),
            None,
            true,
            &Via::Verwaltung(author.to_string()),
            "",
            0,
        ) {
            return Err(ServiceError::refused(e));
        }
        let Some(before) = night.answer_of(player_id).cloned() else {
            return Ok(false);
        };
        db::planned::delete_answer(&mut tx, id, player_id).await?;
        db::audit::record(
            &mut tx,
            author,
            &format!(
                "{}: Antwort für den {} gelöscht",
                before.player,
                date_de(night.date)
            ),
            Some(&json!({ "player": before.player, "coming": before.coming,
                          "via": before.via.stored() })),
            None,
        )
        .await?;
        tx.commit().await?;
        self.planning_written().await?;
        Ok(true)
    }

    /// Starts planned night `id` by `author`: its Spielabend is added to its season, with the
    /// players who said "Ich komme" added to the season first when they are not in it yet (one
    /// transaction); the night page then ticks them as present. Returns the night's date. Refused
    /// (German): cancelled, started already, its day not yet come; `NotFound` for an unknown night.
    pub async fn start_planned(&self, id: i64, author: &str) -> Result<NaiveDate, ServiceError> {
        let planning = self.planning();
        let night = planning
            .by_id(id)
            .ok_or_else(|| ServiceError::NotFound(format!("Geplanter Abend Nr. {id}")))?;
        let day = date_de(night.date);
        if night.cancelled {
            return Err(refused(format!(
                "Der Abend am {day} ist abgesagt: erst wieder ansetzen."
            )));
        }
        if self.snapshot().night(night.date).is_some() {
            return Err(refused(format!("Der Abend am {day} hat schon begonnen.")));
        }
        // Fresh-user trial: started two weeks ahead, the night took no more Zusagen and the
        // table showed the one after it as the next night.
        let today = self.today();
        if night.date > today {
            let days = (night.date - today).num_days();
            return Err(refused(format!(
                "Der Abend am {day} ist erst in {days} {}: beginnen am Spieltag; bis dahin \
                 sagen die Spieler weiter zu oder ab.",
                if days == 1 { "Tag" } else { "Tagen" }
            )));
        }
        let year = night.date.year();
        self.season_for(year, author).await?;
        let snapshot = self.snapshot();
        let view = snapshot.season(year)?;
        let mut changes: Vec<Change> = night
            .coming()
            .filter(|a| view.player_name(a.player_id).is_none())
            .map(|a| Change::AddPlayer {
                name: snapshot
                    .player_name(a.player_id)
                    .unwrap_or(&a.player)
                    .to_string(),
            })
            .collect();
        changes.push(Change::AddNight { date: night.date });
        self.changes(year, &changes, &super::Edit::by(author))
            .await?;
        Ok(night.date)
    }
}

/// Cancels `night` by `author` at `now` in `tx`, audited.
async fn cancel_in(
    tx: &mut WriteTx,
    night: &PlannedNight,
    author: &str,
    now: chrono::DateTime<chrono::Utc>,
) -> Result<(), ServiceError> {
    if db::planned::set_cancelled(tx, night.id, true, now).await? == 0 {
        return Err(refused(format!(
            "Der Abend am {} ist schon abgesagt.",
            date_de(night.date)
        )));
    }
    db::audit::record(
        tx,
        author,
        &format!("Abend am {} abgesagt", date_de(night.date)),
        Some(
            &json!({ "planned": night.id, "date": night.date, "cancelled": false,
                      "answers": night.answers.len() }),
        ),
        Some(&json!({ "planned": night.id, "date": night.date, "cancelled": true })),
    )
    .await?;
    Ok(())
}

/// The audit row of a planned night written: `action`, the night before (if any) and `plan`.
async fn audit_plan(
    tx: &mut WriteTx,
    author: &str,
    action: &str,
    id: i64,
    plan: &PlanRow,
    before: Option<&PlannedNight>,
) -> Result<(), ServiceError> {
    let shown = |date: NaiveDate, time: chrono::NaiveTime, place: &str, note: &str| {
        json!({ "planned": id, "date": date, "time": time.format("%H:%M").to_string(),
                "place": place, "note": note })
    };
    db::audit::record(
        tx,
        author,
        action,
        before
            .map(|b| shown(b.date, b.time, &b.place, &b.note))
            .as_ref(),
        Some(&shown(plan.date, plan.time, &plan.place, &plan.note)),
    )
    .await?;
    Ok(())
}
