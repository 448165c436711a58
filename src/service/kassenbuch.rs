//! The Kassenbuch and the Kassenbericht of a season (issue 35.1, 35.2, 35.4, docs/kassenbuch.md):
//! the league's bookings derived from the snapshot, the hand bookings and Kassenstürze from the
//! database, the Anfangsbestand carried from the previous season's Endbestand, and the check that
//! the league's part equals the Jahresabschluss. Writes store a hand booking, a Storno or a
//! Kassensturz with a Protokoll line; nothing else of the season changes.

use chrono::NaiveDate;
use serde_json::json;

use crate::db;
use crate::league::model::format::{date_de, format_cents};
use crate::league::money::kasse::buch::{
    check_hand, payout_day, shares, Bestand, HandBooking, Kassenbuch, Kassensturz, Kategorie, Konto,
};
use crate::league::money::kasse::journal::{
    carry_entries, cash_on, entries, from_journal, gone_reason, reconcile, Beleg, Entry, Parts,
};
use crate::service::snapshot::Snapshot;
use crate::service::{reason_typed, League, ServiceError};
use std::collections::BTreeMap;

/// The Jahresabschluss's figures beside the Kassenbuch's league part (issue 35.2).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LeagueCheck {
    /// The Jahresabschluss: Übertrag aus dem Vorjahr, cents.
    pub carry_in_cents: i64,
    /// The Jahresabschluss: Beiträge, cents.
    pub fees_cents: i64,
    /// The Jahresabschluss: Strafen, cents.
    pub fines_cents: i64,
    /// The Jahresabschluss: Plätze + Lucky Looser, cents.
    pub shares_cents: i64,
    /// The Jahresabschluss: Übertrag ins nächste Jahr, cents.
    pub carry_out_cents: i64,
    /// The Kassenbuch's league bookings: Beitrag, Strafe, Auszahlung (as a positive sum), cents.
    pub booked: (i64, i64, i64),
    /// True when the booked figures equal the Jahresabschluss's (the payouts only once booked).
    pub ok: bool,
}

/// A season's books: the Kassenbuch and its check against the Jahresabschluss.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Books {
    /// The Kassenbuch.
    pub book: Kassenbuch,
    /// The league's part against the Jahresabschluss.
    pub league: LeagueCheck,
}

/// The most cash a Kassensturz counts: 1.000.000,00 €, in cents.
pub const MAX_COUNT_CENTS: i64 = 100_000_000;

/// What the journal was last reconciled at: the club's day and each season's change counter.
pub type Seen = (NaiveDate, std::collections::BTreeMap<i32, i64>);

/// A hand booking as typed and parsed (issue 35.1).
#[derive(Debug, Clone)]
pub struct NewBooking {
    /// The day.
    pub day: NaiveDate,
    /// Signed cents: income > 0, expense < 0.
    pub cents: i64,
    /// Cash or bank.
    pub konto: Konto,
    /// The category.
    pub kategorie: Kategorie,
    /// What it was.
    pub text: String,
}

impl League {
    /// The books of season `year` as the club's today sees them: the journal reconciled first
    /// ([`League::reconcile_books`]; on a database opened for reading, what it would append is
    /// shown without storing it), then its Belege with the stored Anfangsbestand, the league's
    /// part checked against the Jahresabschluss. Errors: no such season, storage.
    pub async fn books(&self, year: i32) -> Result<Books, ServiceError> {
        self.snapshot().season(year)?;
        // Stored and current: the seasons before `year` are read, not reckoned again.
        let full_from = match self.reconcile_books().await {
            Ok(true) => year,
            Ok(false) => i32::MIN,
            Err(e) => {
                tracing::warn!(error = %e, "Kassenbuch nicht abgeglichen: gezeigt wie es wäre");
                i32::MIN
            }
        };
        let snapshot = self.snapshot();
        let today = self.today();
        let mut plans = {
            let mut conn = self.db().read.acquire().await?;
            plan(&mut conn, &snapshot, today, (full_from, year)).await?
        };
        let plan = plans.remove(&year).ok_or(ServiceError::NoSeason(year))?;
        let chained = snapshot.chained_on(year, today)?;
        let p = &chained.payouts;
        let stuerze = db::kassenbuch::stuerze_of(&self.db().read, year).await?;
        let parts = Parts {
            carry_in: plan.carry,
            stuerze: &stuerze,
            payouts_booked: plan.payouts_booked,
        };
        let belege = [plan.stored, plan.new].concat();
        let book = from_journal(year, &belege, &plan.entries, parts);
        let booked = (
            book.league_cents(Kategorie::Beitrag),
            book.league_cents(Kategorie::Strafe),
            -book.league_cents(Kategorie::Auszahlung),
        );
        let shares_cents: i64 = shares(p).iter().map(|x| x.1).sum();
        let ok = booked.0 == p.fees_cents
            && booked.1 == p.fines_cents
            && (!book.payouts_booked || booked.2 == shares_cents);
        let league = LeagueCheck {
            carry_in_cents: p.carry_in_cents,
            fees_cents: p.fees_cents,
            fines_cents: p.fines_cents,
            shares_cents,
            carry_out_cents: p.carry_out_cents,
            booked,
            ok,
        };
        Ok(Books { book, league })
    }

    /// After a write (and before the books are read): the journal of every season made to book
    /// what the seasons say now ([`reconcile`], docs/kassenbuch.md "Belegnummern"), in one write
    /// transaction, oldest season first; a season's Anfangsbestand booked when first seen, a later
    /// change of the previous Endbestand booked as "Übertrag berichtigt". Nothing to do when the
    /// seasons and the club's day are as at the last run; seasons before the first that changed
    /// since are only read. `Ok(true)`: the journal books the snapshot; `Ok(false)`: a database
    /// opened for reading, nothing stored. Errors: storage.
    pub async fn reconcile_books(&self) -> Result<bool, ServiceError> {
        let snapshot = self.snapshot();
        let today = self.today();
        let seen: Seen = (
            today,
            snapshot
                .seasons()
                .map(|v| (v.season.year, v.version))
                .collect(),
        );
        // A database opened for reading: the books show what would be appended (see `books`).
        if self.db().read_only {
            return Ok(false);
        }
        let before = self.books_seen();
        if before.as_ref() == Some(&seen) {
            return Ok(true);
        }
        let from = changed_from(before.as_ref(), &seen);
        // No author: the journal is no audited table, and the writer's connection keeps no
        // "Liga" for the next writer's row-level Protokoll.
        let mut tx = self.db().begin_write().await?;
        let plans = plan(&mut tx, &snapshot, today, (from, i32::MAX)).await?;
        for (y, p) in &plans {
            if p.carry_new {
                db::kassenbuch::set_anfang(&mut tx, *y, p.carry).await?;
            }
            for b in &p.new {
                db::kassenbuch::append(&mut tx, *y, b).await?;
            }
            db::kassenbuch::settle_imported_pruefungen(&mut tx, *y).await?;
        }
        tx.commit().await?;
        *self
            .inner
            .books_seen
            .lock()
            .unwrap_or_else(|e| e.into_inner()) = Some(seen);
        Ok(true)
    }

    fn books_seen(&self) -> Option<Seen> {
        self.inner
            .books_seen
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
    }

    /// [`League::reconcile_books`] after a write; a failure is logged (the next read tries
    /// again).
    pub(crate) async fn books_follow(&self) {
        if let Err(e) = self.reconcile_books().await {
            tracing::warn!(error = %e, "Kassenbuch nicht abgeglichen");
        }
    }

    /// `Ok` when `day` is not after the club's today: the book holds what happened. Error
    /// (German): „Tag: 27.12.2026 liegt nach heute (26.12.2026).“
    fn not_after_today(&self, day: NaiveDate) -> Result<(), ServiceError> {
        let today = self.today();
        if day > today {
            return Err(ServiceError::refused(format!(
                "Tag: {} liegt nach heute ({}).",
                date_de(day),
                date_de(today)
            )));
        }
        Ok(())
    }

    /// Books `b` by hand in season `year` by `author` (issue 35.1); the German message with its
    /// Beleg number. Refused (German, naming the field): [`check_hand`], a league category
    /// ([`Kategorie::is_league`]), a day after the club's today.
    pub async fn book_hand(
        &self,
        year: i32,
        b: NewBooking,
        author: &str,
    ) -> Result<String, ServiceError> {
        self.snapshot().season(year)?;
        check_hand(year, b.day, b.cents, &b.text).map_err(ServiceError::refused)?;
        if b.kategorie.is_league() {
            return Err(ServiceError::refused(format!(
                "Kategorie: {} bucht die Liga selbst (auf den Seiten Zahlungen, Strafen und \
                 Jahresabschluss); von Hand nur Anschaffung, Feier, Spende oder Sonstiges.",
                b.kategorie.label()
            )));
        }
        self.not_after_today(b.day)?;
        let hand = HandBooking {
            id: 0,
            day: b.day,
            cents: b.cents,
            konto: b.konto,
            kategorie: b.kategorie,
            text: b.text.trim().to_string(),
            storno_of: None,
            reason: String::new(),
            created_by: author.to_string(),
        };
        let id = self
            .store_hand(year, &hand, author, "Kassenbuch: gebucht")
            .await?;
        let beleg = self.beleg_of(year, id).await?;
        let mut said = format!(
            "Beleg {beleg} gebucht: {} {} ({}, {}) am {}.",
            format_cents(hand.cents),
            hand.text,
            hand.kategorie.label(),
            hand.konto.label(),
            date_de(hand.day)
        );
        // A cash box holds no less than nothing (new-user trial: −4.434,75 € without a word).
        if hand.konto == Konto::Bar {
            let bar = self.books(year).await?.book.end.bar_cents;
            if bar < 0 {
                said.push_str(&format!(
                    " Achtung: Bar steht jetzt bei {} – weniger als nichts in der Kasse; war es \
                     die Bank? Dann stornieren und neu buchen.",
                    format_cents(bar)
                ));
            }
        }
        Ok(said)
    }

    /// Cancels the hand booking `id` of season `year` by a Storno on `day` with `reason`, by
    /// `author` (issue 35.1): a new booking of the opposite amount; the original stays. Refused
    /// (German): no reason, no such hand booking, a Storno itself, cancelled already, a bad day.
    pub async fn storno(
        &self,
        year: i32,
        id: i64,
        day: NaiveDate,
        reason: &str,
        author: &str,
    ) -> Result<String, ServiceError> {
        self.snapshot().season(year)?;
        let reason = reason_typed(reason, "Grund: bitte sagen, warum storniert wird.")?;
        let reason = reason.as_str();
        self.not_after_today(day)?;
        let mut tx = self.db().begin_write_as(author).await?;
        let all = db::kassenbuch::bookings_of(&mut tx, year).await?;
        let orig = all.iter().find(|b| b.id == id).ok_or_else(|| {
            ServiceError::refused("Storno: diese Buchung gibt es in der Saison nicht (nur Buchungen von Hand werden storniert; die der Liga auf ihren Seiten).")
        })?;
        if orig.storno_of.is_some() {
            return Err(ServiceError::refused(
                "Storno: ein Storno wird nicht storniert; bitte neu buchen.",
            ));
        }
        if all.iter().any(|b| b.storno_of == Some(id)) {
            return Err(ServiceError::refused(
                "Storno: diese Buchung ist schon storniert.",
            ));
        }
        check_hand(year, day, orig.cents, "Storno").map_err(ServiceError::refused)?;
        if day < orig.day {
            return Err(ServiceError::refused(format!(
                "Tag: ein Storno liegt nicht vor seiner Buchung ({}).",
                date_de(orig.day)
            )));
        }
        let hand = HandBooking {
            id: 0,
            day,
            cents: -orig.cents,
            konto: orig.konto,
            kategorie: orig.kategorie,
            text: format!("Storno: {}", orig.text),
            storno_of: Some(id),
            reason: reason.to_string(),
            created_by: author.to_string(),
        };
        // Checked and booked in one write transaction: a second Storno sent at the same time
        // waits and finds this one (hostile trial: eleven 500s from the unique Storno).
        let new = insert_hand(&mut tx, year, &hand, author, "Kassenbuch: storniert").await?;
        tx.commit().await?;
        self.stored_books().await?;
        let (was, now) = (
            self.beleg_of(year, id).await?,
            self.beleg_of(year, new).await?,
        );
        Ok(format!(
            "Beleg {was} storniert durch Beleg {now} ({reason})."
        ))
    }

    /// Records the cash `counted_cents` counted on `day` in season `year` by `author` (a
    /// Kassensturz); the German message with the difference to the book. Refused (German): a day
    /// outside the season, a negative count.
    pub async fn kassensturz(
        &self,
        year: i32,
        day: NaiveDate,
        counted_cents: i64,
        author: &str,
    ) -> Result<String, ServiceError> {
        self.snapshot().season(year)?;
        if counted_cents < 0 {
            return Err(ServiceError::refused(
                "Gezählt: der Bestand kann nicht negativ sein.",
            ));
        }
        if counted_cents > MAX_COUNT_CENTS {
            return Err(ServiceError::refused(format!(
                "Gezählt: höchstens {} (es sind {}).",
                format_cents(MAX_COUNT_CENTS),
                format_cents(counted_cents)
            )));
        }
        check_hand(year, day, 1, "Kassensturz").map_err(ServiceError::refused)?;
        self.not_after_today(day)?;
        // The book's cash of the day as it stands now: what this count says, kept.
        let before = self.books(year).await?;
        let book_cents = cash_on(before.book.carry_in, &before.book.bookings, day);
        let k = Kassensturz {
            day,
            counted_cents,
            by: author.to_string(),
            book_cents: Some(book_cents),
        };
        let mut tx = self.db().begin_write_as(author).await?;
        db::kassenbuch::insert_sturz(&mut tx, year, &k).await?;
        let after = json!({ "season": year, "day": day, "counted_cents": counted_cents,
            "book_cents": book_cents });
        db::audit::record(&mut tx, author, "Kassensturz", None, Some(&after)).await?;
        tx.commit().await?;
        self.stored_books().await?;
        Ok(format!(
            "Kassensturz am {}: {} gezählt, Differenz zum Kassenbuch {}.",
            date_de(day),
            format_cents(counted_cents),
            format_cents(counted_cents - book_cents)
        ))
    }

    /// Stores `hand` in season `year` with the Protokoll line `action` by `author`; its id.
    async fn store_hand(
        &self,
        year: i32,
        hand: &HandBooking,
        author: &str,
        action: &str,
    ) -> Result<i64, ServiceError> {
        let mut tx = self.db().begin_write_as(author).await?;
        let id = insert_hand(&mut tx, year, hand, author, action).await?;
        tx.commit().await?;
        self.stored_books().await?;
        Ok(id)
    }

    /// After a write of the Kassenbuch: the season's view read again (it carries the Kassenbuch
    /// into the season file) and the other leagues on the database told.
    async fn stored_books(&self) -> Result<(), ServiceError> {
        self.refresh().await?;
        self.written().await;
        Ok(())
    }

    /// The Beleg number of hand booking `id` in season `year` now (0 when not found).
    async fn beleg_of(&self, year: i32, id: i64) -> Result<u32, ServiceError> {
        let books = self.books(year).await?;
        Ok(books
            .book
            .bookings
            .iter()
            .find(|b| b.hand == Some(id))
            .map_or(0, |b| b.beleg))
    }
}

/// What the journal of one season stores and what a reconciliation appends.
struct Plan {
    /// The Anfangsbestand as booked (or to be booked).
    carry: Bestand,
    /// True when the Anfangsbestand is not stored yet.
    carry_new: bool,
    /// The stored Belege.
    stored: Vec<Beleg>,
    /// The Belege to append ([`reconcile`]).
    new: Vec<Beleg>,
    /// The season's bookings now.
    entries: Vec<Entry>,
    /// True when the payouts of the Jahresabschluss are booked.
    payouts_booked: bool,
}

/// The first season year to reckon again after `before` for `now`: every one when the club's
/// day changed (payouts come with the year's end) or nothing was reconciled yet; else the oldest
/// season that changed, appeared or disappeared.
fn changed_from(before: Option<&Seen>, now: &Seen) -> i32 {
    let Some((day, versions)) = before else {
        return i32::MIN;
    };
    if *day != now.0 {
        return i32::MIN;
    }
    let changed = now
        .1
        .iter()
        .filter(|(y, v)| versions.get(*y) != Some(*v))
        .map(|(y, _)| *y);
    let gone = versions.keys().filter(|y| !now.1.contains_key(*y)).copied();
    changed.chain(gone).min().unwrap_or(i32::MAX)
}

/// The plan of every season of `snapshot` up to `upto`, oldest first, read on `conn` (a read
/// connection or the reconciling transaction): from season `from` on, each season's bookings now
/// on `today` against its journal, the Anfangsbestand the previous season's Endbestand (booked
/// once; a change later an entry "Übertrag berichtigt"); a season before `from` with its
/// Anfangsbestand stored only read (its journal is current). Errors: storage, a season's chain.
async fn plan(
    conn: &mut sqlx::SqliteConnection,
    snapshot: &Snapshot,
    today: NaiveDate,
    (from, upto): (i32, i32),
) -> Result<BTreeMap<i32, Plan>, ServiceError> {
    let mut out = BTreeMap::new();
    let mut prev: Option<(i32, Bestand)> = None;
    for view in snapshot.seasons().filter(|v| v.season.year <= upto) {
        let season = &view.season;
        let y = season.year;
        let day = payout_day(season, today);
        if y < from {
            if let Some(carry) = db::kassenbuch::anfang_of(&mut *conn, y).await? {
                let stored = db::kassenbuch::journal_of(&mut *conn, y).await?;
                let mut end = carry;
                for b in &stored {
                    end.add(b.konto, b.cents);
                }
                prev = Some((y, end));
                let plan = Plan {
                    carry,
                    carry_new: false,
                    stored,
                    new: Vec::new(),
                    entries: Vec::new(),
                    payouts_booked: day.is_some(),
                };
                out.insert(y, plan);
                continue;
            }
        }
        let chained = snapshot.chained_on(y, today)?;
        let hand = db::kassenbuch::bookings_of(&mut *conn, y).await?;
        let mut now = entries(season, day.map(|d| (d, &chained.payouts)), &hand);
        let carry_now = prev.map_or(Bestand::default(), |p| p.1);
        let stored_carry = db::kassenbuch::anfang_of(&mut *conn, y).await?;
        let carry = stored_carry.unwrap_or(carry_now);
        if let Some((py, _)) = prev {
            now.extend(carry_entries(carry, carry_now, py, today));
        }
        let stored = db::kassenbuch::journal_of(&mut *conn, y).await?;
        let new = reconcile(&now, &stored, today, |k| gone_reason(k, season));
        let mut end = carry;
        for b in stored.iter().chain(&new) {
            end.add(b.konto, b.cents);
        }
        prev = Some((y, end));
        let plan = Plan {
            carry,
            carry_new: stored_carry.is_none(),
            stored,
            new,
            entries: now,
            payouts_booked: day.is_some(),
        };
        out.insert(y, plan);
    }
    Ok(out)
}

/// Stores hand booking `hand` of season `year` with its Protokoll line `action` by `author` in
/// `tx` (the caller commits); its id. Errors: storage.
async fn insert_hand(
    tx: &mut sqlx::SqliteConnection,
    year: i32,
    hand: &HandBooking,
    author: &str,
    action: &str,
) -> Result<i64, ServiceError> {
    let id = db::kassenbuch::insert(&mut *tx, year, hand).await?;
    let after = json!({ "id": id, "season": year, "day": hand.day, "cents": hand.cents,
        "konto": hand.konto.key(), "kategorie": hand.kategorie.label(), "text": hand.text,
        "storno_of": hand.storno_of, "reason": hand.reason });
    db::audit::record(&mut *tx, author, action, None, Some(&after)).await?;
    Ok(id)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seen(day: NaiveDate, versions: &[(i32, i64)]) -> Seen {
        (day, versions.iter().copied().collect())
    }

    #[test]
    fn only_seasons_from_the_first_changed_one_are_reckoned_again() {
        let d = NaiveDate::from_ymd_opt(2026, 12, 4).unwrap();
        let was = seen(d, &[(2024, 1), (2025, 3), (2026, 7)]);
        // (now, first season reckoned again)
        let table = [
            (seen(d, &[(2024, 1), (2025, 3), (2026, 7)]), i32::MAX),
            (seen(d, &[(2024, 1), (2025, 4), (2026, 7)]), 2025),
            (seen(d, &[(2024, 1), (2025, 3), (2026, 8)]), 2026),
            (seen(d, &[(2023, 1), (2024, 1), (2025, 3), (2026, 7)]), 2023),
            (seen(d, &[(2024, 1), (2026, 7)]), 2025),
            (
                seen(d.succ_opt().unwrap(), &[(2024, 1), (2025, 3), (2026, 7)]),
                i32::MIN,
            ),
        ];
        for (now, from) in table {
            assert_eq!(changed_from(Some(&was), &now), from, "{now:?}");
        }
        assert_eq!(changed_from(None, &was), i32::MIN);
    }
}
