//! Nights planned ahead and their Zusagen (issue 27, interchange.md "Planned nights and a
//! player's own card"): the secretary plans a night (day, start time on the club's wall clock,
//! place, note), players answer "Ich komme" or "Ich komme nicht" without an account, and the
//! forecast says how many tables it takes (league.md §9: two from `split_tables_from`
//! participants). Starting the night makes it a Spielabend of its season; a planned night is
//! "started" once its season has a night on its day (nothing else is stored for it).
//!
//! Pure: the shapes, the checks of what is typed, the rule of who may change an answer, and the
//! German sentences. Storage is `db::planned`, the transactions `service::planned`.

use chrono::{DateTime, Datelike, NaiveDate, NaiveTime, Utc};

use crate::league::model::format::{date_de, weekday_de};
use crate::league::model::names::check_name_chars;

/// The start time of a night planned without one when no night was planned before: 19:30.
pub const DEFAULT_START: (u32, u32) = (19, 30);

/// The longest place accepted (characters).
pub const MAX_PLACE_CHARS: usize = 80;

/// The longest note accepted (characters).
pub const MAX_NOTE_CHARS: usize = 300;

/// How often one client (the web's client address) may answer for one player and night through
/// "Das bin ich" (the abuse limit: a visitor who claims to be someone cannot flip his answer for
/// ever, and one who used up his own changes does not use up the player's); his own card and the
/// secretary are not limited.
pub const MAX_CHANGES: u32 = 10;

/// How long a night lasts in the calendar (hours): ten rounds and the way home.
pub const HOURS: i64 = 4;

/// Who gave an answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Via {
    /// A visitor who said "Das bin ich" (a cookie: a claim, not a proof).
    Ich,
    /// The player on his own card (the capability link: he is who he says).
    Karte,
    /// The secretary for him (the login name).
    Verwaltung(String),
}

impl Via {
    /// The stored form: `ich`, `karte`, `verwaltung:<login>`.
    pub fn stored(&self) -> String {
        match self {
            Via::Ich => "ich".to_string(),
            Via::Karte => "karte".to_string(),
            Via::Verwaltung(login) => format!("verwaltung:{login}"),
        }
    }

    /// The stored form `text` read back; anything unknown counts as "Das bin ich" (the weakest).
    pub fn parse(text: &str) -> Via {
        match text {
            "karte" => Via::Karte,
            t => match t.strip_prefix("verwaltung:") {
                Some(login) => Via::Verwaltung(login.to_string()),
                None => Via::Ich,
            },
        }
    }

    /// German: "über „Das bin ich“", "über die eigene Karte", "eingetragen von anna" (no
    /// pronoun: players are women and men).
    pub fn label(&self) -> String {
        match self {
            Via::Ich => "über „Das bin ich“".to_string(),
            Via::Karte => "über die eigene Karte".to_string(),
            Via::Verwaltung(login) => format!("eingetragen von {login}"),
        }
    }

    /// True for an answer that proves who gave it (his card, the secretary): a "Das bin ich"
    /// answer does not replace it.
    pub fn is_proven(&self) -> bool {
        !matches!(self, Via::Ich)
    }
}

/// One player's answer to one planned night.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Answer {
    /// `players.id`.
    pub player_id: i64,
    /// His name as stored.
    pub player: String,
    /// "Ich komme" (true) or "Ich komme nicht".
    pub coming: bool,
    /// Who gave it.
    pub via: Via,
    /// How often he answered (the first answer counts 1).
    pub changes: u32,
    /// When it was last given.
    pub at: DateTime<Utc>,
    /// The day the night was planned on when he gave it: after a move it stays on the old day
    /// ("für den alten Tag", not counted for the new one) until he answers again.
    pub for_date: NaiveDate,
}

/// A night planned ahead.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlannedNight {
    /// `planned_nights.id` (its calendar UID is made of it).
    pub id: i64,
    /// The day.
    pub date: NaiveDate,
    /// The start on the club's wall clock.
    pub time: NaiveTime,
    /// Where (empty: not said).
    pub place: String,
    /// A note for the players (empty: none).
    pub note: String,
    /// Cancelled (it stays for the calendar's STATUS:CANCELLED).
    pub cancelled: bool,
    /// The calendar's SEQUENCE: raised by every move, change of time or place, cancellation and
    /// revival.
    pub sequence: u32,
    /// When it was last changed (the calendar's DTSTAMP).
    pub updated_at: DateTime<Utc>,
    /// The answers, by player name.
    pub answers: Vec<Answer>,
}

/// Where a planned night stands on a day.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PlanStatus {
    /// Planned, answers open.
    Open,
    /// Its Spielabend exists: the presence form decides now.
    Started,
    /// Its day is over and it was never started.
    Past,
    /// Cancelled.
    Cancelled,
}

impl PlanStatus {
    /// The status of `night` on `today`, `started` when its season has a night on its day.
    pub fn of(night: &PlannedNight, today: NaiveDate, started: bool) -> PlanStatus {
        if night.cancelled {
            PlanStatus::Cancelled
        } else if started {
            PlanStatus::Started
        } else if night.date < today {
            PlanStatus::Past
        } else {
            PlanStatus::Open
        }
    }

    /// German: "geplant", "hat begonnen", "vorbei", "abgesagt".
    pub fn label(self) -> &'static str {
        match self {
            PlanStatus::Open => "geplant",
            PlanStatus::Started => "hat begonnen",
            PlanStatus::Past => "vorbei",
            PlanStatus::Cancelled => "abgesagt",
        }
    }
}

/// The forecast of a planned night: Zusagen, Absagen, and the tables the Zusagen make.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Forecast {
    /// "Ich komme".
    pub yes: u32,
    /// "Ich komme nicht".
    pub no: u32,
    /// 1, or 2 from `split_tables_from` Zusagen (league.md §9).
    pub tables: u32,
}

impl Forecast {
    /// The forecast of `answers` under `split_tables_from` (league.md §9).
    pub fn of<'a>(
        answers: impl IntoIterator<Item = &'a Answer>,
        split_tables_from: u32,
    ) -> Forecast {
        let answers: Vec<&Answer> = answers.into_iter().collect();
        let yes = count(answers.iter().filter(|a| a.coming));
        let no = count(answers.iter().filter(|a| !a.coming));
        Forecast {
            yes,
            no,
            tables: if yes >= split_tables_from { 2 } else { 1 },
        }
    }

    /// German: "8 Zusagen, 1 Absage – voraussichtlich 1 Tisch", "10 Zusagen, 0 Absagen –
    /// voraussichtlich 2 Tische".
    pub fn sentence(&self) -> String {
        format!(
            "{} {}, {} {} – voraussichtlich {} {}",
            self.yes,
            if self.yes == 1 { "Zusage" } else { "Zusagen" },
            self.no,
            if self.no == 1 { "Absage" } else { "Absagen" },
            self.tables,
            if self.tables == 1 { "Tisch" } else { "Tische" }
        )
    }
}

fn count<T>(it: impl Iterator<Item = T>) -> u32 {
    u32::try_from(it.count()).unwrap_or(u32::MAX)
}

impl PlannedNight {
    /// The answer of player `player_id`, if he gave one (also one for the old day of a moved
    /// night: [`PlannedNight::is_current`]).
    pub fn answer_of(&self, player_id: i64) -> Option<&Answer> {
        self.answers.iter().find(|a| a.player_id == player_id)
    }

    /// The answer of player `player_id` for this night's day (not one left on the old day of a
    /// move), if he gave one.
    pub fn current_answer_of(&self, player_id: i64) -> Option<&Answer> {
        self.answer_of(player_id).filter(|a| self.is_current(a))
    }

    /// True when `answer` was given for this night's day; false for one given before the night
    /// moved ("für den alten Tag": shown apart, not counted, until he answers again).
    pub fn is_current(&self, answer: &Answer) -> bool {
        answer.for_date == self.date
    }

    /// The answers for this night's day, by player name.
    pub fn current_answers(&self) -> impl Iterator<Item = &Answer> {
        self.answers.iter().filter(|a| self.is_current(a))
    }

    /// The answers given before the night moved, by player name: each for the day it was given for.
    pub fn old_answers(&self) -> impl Iterator<Item = &Answer> {
        self.answers.iter().filter(|a| !self.is_current(a))
    }

    /// Its forecast under `split_tables_from` ([`Forecast::of`]): the answers for its day only.
    pub fn forecast(&self, split_tables_from: u32) -> Forecast {
        Forecast::of(self.current_answers(), split_tables_from)
    }

    /// The invitation for the club's chat (issue 38.2), with `link` (the night's page, absolute)
    /// and the forecast under `split_tables_from`: "Schocken am Freitag, 08.01.2027, 19:30 Uhr,
    /// Zum Anker. Bisher 6 Zusagen, 1 Absage – voraussichtlich 1 Tisch. Zu- oder absagen: <link>"
    /// (a note follows the forecast: "Hinweis: …."); a cancelled night: "Der Schockabend am
    /// Freitag, 08.01.2027, 19:30 Uhr, Zum Anker fällt aus. <link>".
    pub fn invitation(&self, split_tables_from: u32, link: &str) -> String {
        let place = if self.place.is_empty() {
            String::new()
        } else {
            format!(", {}", self.place)
        };
        if self.cancelled {
            return format!(
                "Der Schockabend am {}{place} fällt aus. {link}",
                self.when_de()
            );
        }
        let note = if self.note.is_empty() {
            String::new()
        } else {
            format!(" Hinweis: {}.", self.note.trim_end_matches('.'))
        };
        format!(
            "Schocken am {}{place}. Bisher {}.{note} Zu- oder absagen: {link}",
            self.when_de(),
            self.forecast(split_tables_from).sentence()
        )
    }

    /// German: "Freitag, 09.01.2027, 19:30 Uhr".
    pub fn when_de(&self) -> String {
        format!(
            "{}, {}, {} Uhr",
            weekday_de(self.date.weekday()),
            date_de(self.date),
            self.time.format("%H:%M")
        )
    }

    /// The players who said "Ich komme" for its day, by name.
    pub fn coming(&self) -> impl Iterator<Item = &Answer> {
        self.current_answers().filter(|a| a.coming)
    }
}

/// Every planned night of the league with the counter it was read at.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Planning {
    /// The `planning.version` counter this was read at.
    pub version: i64,
    /// The club's key in the calendar's UIDs.
    pub uid_key: String,
    /// The planned nights, by day (then id).
    pub nights: Vec<PlannedNight>,
    /// The days planned nights were moved away from, each with the night that left it last, by
    /// day.
    pub moved: Vec<Moved>,
}

/// A day a planned night was moved away from (table `planned_moves`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Moved {
    /// The day it left.
    pub from: NaiveDate,
    /// The night's `planned_nights.id`.
    pub id: i64,
    /// When it left (UTC).
    pub at: DateTime<Utc>,
}

impl Planning {
    /// The night planned on `date` that is not cancelled.
    pub fn active_on(&self, date: NaiveDate) -> Option<&PlannedNight> {
        self.nights.iter().find(|n| n.date == date && !n.cancelled)
    }

    /// The night planned on `date`: the one not cancelled, else the last cancelled one.
    pub fn on(&self, date: NaiveDate) -> Option<&PlannedNight> {
        self.active_on(date)
            .or_else(|| self.nights.iter().rev().find(|n| n.date == date))
    }

    /// The night that was planned on `date` and moved to another day, where it is now: `None`
    /// when a night is planned on `date` itself (that one is the day's), when one cancelled there
    /// was cancelled after the move (the newer news), or none was moved away.
    pub fn moved_from(&self, date: NaiveDate) -> Option<&PlannedNight> {
        if self.active_on(date).is_some() {
            return None;
        }
        let moved = self.moved.iter().find(|m| m.from == date)?;
        if self.on(date).is_some_and(|c| c.updated_at > moved.at) {
            return None;
        }
        self.by_id(moved.id).filter(|n| n.date != date)
    }

    /// The planned night with `planned_nights.id` = `id`.
    pub fn by_id(&self, id: i64) -> Option<&PlannedNight> {
        self.nights.iter().find(|n| n.id == id)
    }

    /// The next night still to answer: the first one not cancelled on `today` or later that has not
    /// `started`.
    pub fn next(
        &self,
        today: NaiveDate,
        started: impl Fn(NaiveDate) -> bool,
    ) -> Option<&PlannedNight> {
        self.nights
            .iter()
            .find(|n| !n.cancelled && n.date >= today && !started(n.date))
    }

    /// The days of the nights planned in season `year` that are still to come on `today`: not
    /// cancelled, not over, not `started` (league.md §11: the netting waits for them), by day.
    pub fn ahead_in(
        &self,
        year: i32,
        today: NaiveDate,
        started: impl Fn(NaiveDate) -> bool,
    ) -> Vec<NaiveDate> {
        self.nights
            .iter()
            .filter(|n| n.date.year() == year)
            .filter(|n| PlanStatus::of(n, today, started(n.date)) == PlanStatus::Open)
            .map(|n| n.date)
            .collect()
    }

    /// The start time a new night gets when none is typed: that of the night planned last (not
    /// cancelled), else [`DEFAULT_START`].
    pub fn default_time(&self) -> NaiveTime {
        // A cancelled plan does not set the time (hostile trial: a night planned at 23:59 and
        // cancelled moved every night without a plan of its own to 23:59).
        self.nights
            .iter()
            .filter(|n| !n.cancelled)
            .max_by_key(|n| n.id)
            .map(|n| n.time)
            .unwrap_or_else(default_start)
    }

    /// The calendar UID of planned night `id`: `plan-3-<club key>@schockerliga`.
    pub fn uid_of_plan(&self, id: i64) -> String {
        format!("plan-{id}-{}@schockerliga", self.uid_key)
    }

    /// The calendar UID of a night played without a plan: `abend-2026-01-09-<club key>@schockerliga`.
    pub fn uid_of_night(&self, date: NaiveDate) -> String {
        format!("abend-{date}-{}@schockerliga", self.uid_key)
    }
}

/// [`DEFAULT_START`] as a time.
pub fn default_start() -> NaiveTime {
    NaiveTime::from_hms_opt(DEFAULT_START.0, DEFAULT_START.1, 0).unwrap_or_default()
}

/// A start time as typed: `19:30`, `9:05`, `19.30` or `1930`; empty: `None` (the default applies).
/// `Err` is German: "Beginn: „25:00“ ist keine Uhrzeit (SS:MM, z. B. 19:30)".
pub fn parse_time(typed: &str) -> Result<Option<NaiveTime>, String> {
    let text = typed.trim();
    if text.is_empty() {
        return Ok(None);
    }
    let refused = || {
        format!(
            "Beginn: „{}“ ist keine Uhrzeit (SS:MM, z. B. 19:30)",
            text.chars().take(20).collect::<String>()
        )
    };
    let (h, m) = match text.split_once([':', '.']) {
        Some((h, m)) => (h, m),
        None if text.len() == 4 && text.is_ascii() => text.split_at(2),
        None => return Err(refused()),
    };
    let digits = |s: &str, max_len: usize| {
        (!s.is_empty() && s.len() <= max_len && s.bytes().all(|b| b.is_ascii_digit()))
            .then(|| s.parse::<u32>().ok())
            .flatten()
    };
    match (digits(h, 2), digits(m, 2).filter(|_| m.len() == 2)) {
        (Some(h), Some(m)) => NaiveTime::from_hms_opt(h, m, 0)
            .map(Some)
            .ok_or_else(refused),
        _ => Err(refused()),
    }
}

/// A free text as typed (place or note): trimmed, at most `max` characters, no control or
/// invisible characters. `Err` is German and names `field`.
pub fn check_text(field: &str, typed: &str, max: usize) -> Result<String, String> {
    let text = crate::league::model::names::normalize_name(typed);
    if text.chars().count() > max {
        return Err(format!("{field}: höchstens {max} Zeichen"));
    }
    check_name_chars(&text).map_err(|e| format!("{field} {e}"))?;
    Ok(text)
}

/// What an accepted answer does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Answered {
    /// His first answer to this night.
    New,
    /// He changed it.
    Changed,
    /// He answered again after the night moved: his answer now holds for the new day.
    Confirmed,
    /// He gave the same answer again: nothing to store.
    Same,
}

/// Whether `name`'s answer `coming` given `via` is taken for `night` (in `status`), with his
/// answer so far `before` and `by_client` "Das bin ich" answers of the answering client for him
/// and this night so far. An answer left on the old day of a move is confirmed by any answer
/// (the same one too). Refused (German, where and why): a night that is not open (cancelled,
/// started, over); a "Das bin ich" answer over one given on his card or by the secretary; a
/// "Das bin ich" change once this client gave [`MAX_CHANGES`] for him and this night (another
/// client's changes do not count: nobody uses up the player's own).
pub fn check_answer(
    night: &PlannedNight,
    status: PlanStatus,
    before: Option<&Answer>,
    coming: bool,
    via: &Via,
    name: &str,
    by_client: u32,
) -> Result<Answered, String> {
    let day = date_de(night.date);
    match status {
        PlanStatus::Open => {}
        PlanStatus::Cancelled => return Err(format!("Der Abend am {day} ist abgesagt.")),
        PlanStatus::Started => {
            return Err(format!(
                "Der Abend am {day} hat schon begonnen: Zu- und Absagen gehen nicht mehr."
            ))
        }
        PlanStatus::Past => return Err(format!("Der Abend am {day} ist vorbei.")),
    }
    let Some(before) = before else {
        return Ok(Answered::New);
    };
    let current = night.is_current(before);
    if current && before.coming == coming && (before.via == *via || !via.is_proven()) {
        return Ok(Answered::Same);
    }
    if *via == Via::Ich {
        let said = if before.coming {
            "zugesagt"
        } else {
            "abgesagt"
        };
        if before.via.is_proven() && current {
            return Err(format!(
                "{name} hat für den {day} schon {said} ({}); ändern geht nur über die eigene \
                 Karte oder beim Schriftführer.",
                before.via.label()
            ));
        }
        if before.via.is_proven() {
            return Err(format!(
                "{name} hatte für den alten Tag, den {}, {said} ({}); für den {day} bestätigen \
                 oder ändern geht nur über die eigene Karte oder beim Schriftführer.",
                date_de(before.for_date),
                before.via.label()
            ));
        }
        if by_client >= MAX_CHANGES {
            return Err(format!(
                "{name}: die Antwort für den {day} wurde von diesem Anschluss aus schon \
                 {MAX_CHANGES}-mal geändert; weitere Änderungen nur über die eigene Karte oder \
                 beim Schriftführer."
            ));
        }
    }
    Ok(if current {
        Answered::Changed
    } else {
        Answered::Confirmed
    })
}

#[cfg(test)]
mod tests;
