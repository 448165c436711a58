//! The Kassenbuch as a stored journal (issue 35, trials; docs/kassenbuch.md "Belegnummern"):
//! every Beleg, the league's and those booked by hand, gets its number when it first enters the
//! book and keeps it. What the season says now ([`entries`]: the league's bookings and the hand
//! bookings, each with its source key) is compared with what is stored ([`reconcile`]): a new
//! booking is appended with the next number; a stored one whose source is gone is answered by an
//! automatic Storno; one whose amount, day, account or category changed by a Storno and a new
//! Beleg. Nothing stored is changed. Pure code; money is i64 cents.

use std::collections::{BTreeMap, BTreeSet};

use chrono::NaiveDate;

use super::buch::{
    derived, Bestand, Booking, HandBooking, Kassenbuch, Kassensturz, Kategorie, Konto, Sturz,
};
use crate::league::model::format::date_de;
use crate::league::model::season::Season;
use crate::league::money::payouts::Payouts;

/// A booking as the season says it now, with the key of its source: `beitrag:Anna`,
/// `strafe:2026-03-12:Anna:late:1`, `guthaben:2026-02-01:Anna`, `ausgezahlt:2026-12-01:Anna:1`,
/// `anteil:Anna`, `hand:2026-12-01|-2500|bar|Feier|Weihnachtsfeier|1`, `uebertrag:bar`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    /// The source key (unique in a season).
    pub key: String,
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
    /// The hand booking's id; `None` for the league's.
    pub hand: Option<i64>,
    /// For a Storno by hand: the key of the booking it cancels.
    pub storno_of_key: Option<String>,
    /// For a Storno by hand: why.
    pub reason: String,
    /// Who booked it ("Liga" for the league's).
    pub by: String,
    /// True when its day is the day it was first booked (an Übertrag correction): a later day
    /// alone is no change.
    pub any_day: bool,
}

/// A stored Beleg of the journal: never changed, never deleted.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Beleg {
    /// Its number in the season: 1, 2, 3 … in the order of entry.
    pub nr: u32,
    /// The source key ([`Entry::key`]); `storno:N` for an automatic Storno of Beleg N.
    pub key: String,
    /// 0 for the first Beleg of its key, 1 for the one after a Storno of a change …
    pub gen: u32,
    /// The day.
    pub day: NaiveDate,
    /// Signed cents.
    pub cents: i64,
    /// Cash or bank.
    pub konto: Konto,
    /// The category.
    pub kategorie: Kategorie,
    /// What it was.
    pub text: String,
    /// For a Storno: the number of the Beleg it cancels.
    pub storno_of: Option<u32>,
    /// For a Storno: why.
    pub reason: String,
    /// Who booked it.
    pub by: String,
}

/// Where a booking goes in a first numbering: (day, 0 = league / 1 = hand, the league's kind and
/// order, the hand booking's id).
type Place = (NaiveDate, u8, (u8, usize), i64);

/// The season's bookings now, in the order a first numbering gives them: by day, the league's
/// before the hand bookings (by kind, then in the season's order), the hand bookings by id. The
/// league's of [`derived`] (payouts with `payout`), the hand bookings `hand` keyed by their
/// content (a season file read again gives the same keys).
pub fn entries(
    season: &Season,
    payout: Option<(NaiveDate, &Payouts)>,
    hand: &[HandBooking],
) -> Vec<Entry> {
    let mut rows: Vec<(Place, Entry)> = derived(season, payout)
        .into_iter()
        .map(|d| {
            let place = (d.day, 0u8, d.order, 0i64);
            let e = league_entry(d.key, d.day, d.cents, d.konto, d.kategorie, d.text);
            (place, e)
        })
        .collect();
    let mut seen: BTreeMap<String, usize> = BTreeMap::new();
    let mut key_of: BTreeMap<i64, String> = BTreeMap::new();
    for h in hand {
        let base = format!(
            "hand:{}|{}|{}|{}|{}",
            h.day,
            h.cents,
            h.konto.key(),
            h.kategorie.label(),
            h.text
        );
        let n = seen.entry(base.clone()).or_default();
        *n += 1;
        let key = format!("{base}|{n}");
        key_of.insert(h.id, key.clone());
        let e = Entry {
            key,
            day: h.day,
            cents: h.cents,
            konto: h.konto,
            kategorie: h.kategorie,
            text: h.text.clone(),
            hand: Some(h.id),
            storno_of_key: h.storno_of.and_then(|id| key_of.get(&id).cloned()),
            reason: h.reason.clone(),
            by: h.created_by.clone(),
            any_day: false,
        };
        rows.push(((h.day, 1, (0, 0), h.id), e));
    }
    rows.sort_by_key(|r| r.0);
    rows.into_iter().map(|(_, e)| e).collect()
}

fn league_entry(
    key: String,
    day: NaiveDate,
    cents: i64,
    konto: Konto,
    kategorie: Kategorie,
    text: String,
) -> Entry {
    Entry {
        key,
        day,
        cents,
        konto,
        kategorie,
        text,
        hand: None,
        storno_of_key: None,
        reason: String::new(),
        by: "Liga".to_string(),
        any_day: false,
    }
}

/// The corrections of an Anfangsbestand (docs/kassenbuch.md "Übertrag"): `stored` was booked as
/// the season's Anfangsbestand, the previous season `prev_year` now ends at `now`; per account a
/// difference is an entry "Übertrag berichtigt" (Sonstiges) on `today`, none when equal.
pub fn carry_entries(
    stored: Bestand,
    now: Bestand,
    prev_year: i32,
    today: NaiveDate,
) -> Vec<Entry> {
    [
        (Konto::Bar, stored.bar_cents, now.bar_cents),
        (Konto::Bank, stored.bank_cents, now.bank_cents),
    ]
    .into_iter()
    .filter(|(_, was, is)| was != is)
    .map(|(konto, was, is)| {
        let text = format!(
            "Übertrag berichtigt: Endbestand {prev_year} {} jetzt {} (gebucht {})",
            konto.label(),
            crate::league::model::format::format_cents(is),
            crate::league::model::format::format_cents(was)
        );
        let key = format!("uebertrag:{}", konto.key());
        let mut e = league_entry(key, today, is - was, konto, Kategorie::Sonstiges, text);
        e.any_day = true;
        e
    })
    .collect()
}

/// Why the source of key `key` is gone from `season` (the reason of its automatic Storno):
/// „Abend vom 12.03.2026 gelöscht“, „Strafe nicht mehr bezahlt“ ….
pub fn gone_reason(key: &str, season: &Season) -> String {
    let mut parts = key.splitn(3, ':');
    let kind = parts.next().unwrap_or_default();
    let day = parts
        .next()
        .and_then(|d| NaiveDate::parse_from_str(d, "%Y-%m-%d").ok());
    match (kind, day) {
        ("strafe", Some(d)) if !season.nights.iter().any(|n| n.date == d) => {
            format!("Abend vom {} gelöscht", date_de(d))
        }
        ("strafe", _) => "Strafe gelöscht oder nicht mehr bezahlt".to_string(),
        ("beitrag", _) => "Jahresbeitrag nicht mehr bezahlt".to_string(),
        ("guthaben", _) => "Zahlung oder Verrechnung geändert".to_string(),
        ("ausgezahlt", _) => "Auszahlung des Guthabens gelöscht".to_string(),
        ("anteil", _) => "Jahresabschluss geändert".to_string(),
        ("uebertrag", _) => "Übertrag wieder wie gebucht".to_string(),
        ("hand", _) => "Buchung von Hand nicht mehr da (Saisondatei eingelesen)".to_string(),
        _ => "Quelle nicht mehr da".to_string(),
    }
}

/// The Belege to append to the journal `stored` so that it books `entries` (in their order),
/// numbered on from the highest stored number: first an automatic Storno (on `today`, not before
/// its Beleg, reason `gone(key)`) of each current Beleg whose key is no longer among `entries`;
/// then per entry nothing when its current Beleg agrees (amount, account, category and, unless
/// [`Entry::any_day`], day), else a Storno of the current one and a new Beleg, or just a new
/// Beleg. A key's current Beleg is its latest not cancelled by an automatic Storno. Empty when
/// the journal books `entries` already (idempotent).
pub fn reconcile(
    entries: &[Entry],
    stored: &[Beleg],
    today: NaiveDate,
    gone: impl Fn(&str) -> String,
) -> Vec<Beleg> {
    let auto_cancelled: BTreeSet<u32> = stored
        .iter()
        .filter(|b| b.key.starts_with("storno:"))
        .filter_map(|b| b.storno_of)
        .collect();
    // key → (its latest gen, the current Beleg if not cancelled).
    let mut current: BTreeMap<&str, (u32, Option<&Beleg>)> = BTreeMap::new();
    for b in stored.iter().filter(|b| !b.key.starts_with("storno:")) {
        let live = (!auto_cancelled.contains(&b.nr)).then_some(b);
        let slot = current.entry(&b.key).or_insert((b.gen, live));
        if b.gen >= slot.0 {
            *slot = (b.gen, live);
        }
    }
    let mut next = stored.iter().map(|b| b.nr).max().unwrap_or(0) + 1;
    let mut out: Vec<Beleg> = Vec::new();
    let wanted: BTreeSet<&str> = entries.iter().map(|e| e.key.as_str()).collect();
    let mut vanished: Vec<&Beleg> = current
        .iter()
        .filter(|(k, _)| !wanted.contains(*k))
        .filter_map(|(_, (_, live))| *live)
        .collect();
    vanished.sort_by_key(|b| b.nr);
    // A Beleg cancelled already (by hand) and a Storno whose Beleg went with it net to 0.
    let cancelled: BTreeSet<u32> = stored.iter().filter_map(|b| b.storno_of).collect();
    let gone_nrs: BTreeSet<u32> = vanished.iter().map(|b| b.nr).collect();
    vanished.retain(|b| {
        !cancelled.contains(&b.nr) && !b.storno_of.is_some_and(|o| gone_nrs.contains(&o))
    });
    for b in vanished {
        out.push(storno(b, next, today, gone(&b.key)));
        next += 1;
    }
    // key → number of its Beleg booked now or before (for a Storno by hand).
    let mut nr_of: BTreeMap<String, u32> = current
        .iter()
        .filter_map(|(k, (_, b))| b.map(|b| (k.to_string(), b.nr)))
        .collect();
    for e in entries {
        let (gen, live) = current.get(e.key.as_str()).copied().unwrap_or((0, None));
        let gen = match live {
            Some(b) if agrees(b, e) => continue,
            Some(b) => {
                let why = format!("geändert, neu gebucht als Beleg {}", next + 1);
                out.push(storno(b, next, today, why));
                next += 1;
                gen + 1
            }
            None if current.contains_key(e.key.as_str()) => gen + 1,
            None => 0,
        };
        out.push(Beleg {
            nr: next,
            key: e.key.clone(),
            gen,
            day: e.day,
            cents: e.cents,
            konto: e.konto,
            kategorie: e.kategorie,
            text: e.text.clone(),
            storno_of: e.storno_of_key.as_ref().and_then(|k| nr_of.get(k).copied()),
            reason: e.reason.clone(),
            by: e.by.clone(),
        });
        nr_of.insert(e.key.clone(), next);
        next += 1;
    }
    out
}

fn agrees(b: &Beleg, e: &Entry) -> bool {
    b.cents == e.cents
        && b.konto == e.konto
        && b.kategorie == e.kategorie
        && (e.any_day || b.day == e.day)
}

fn storno(b: &Beleg, nr: u32, today: NaiveDate, reason: String) -> Beleg {
    Beleg {
        nr,
        key: format!("storno:{}", b.nr),
        gen: 0,
        day: today.max(b.day),
        cents: -b.cents,
        konto: b.konto,
        kategorie: b.kategorie,
        text: format!("Storno: {}", b.text),
        storno_of: Some(b.nr),
        reason,
        by: "Liga".to_string(),
    }
}

/// What a Kassenbuch needs beside its Belege: the stored Anfangsbestand, the Kassenstürze, whether
/// the payouts are booked.
#[derive(Debug, Clone, Copy)]
pub struct Parts<'a> {
    /// The Anfangsbestand as booked.
    pub carry_in: Bestand,
    /// The Kassenstürze of the season.
    pub stuerze: &'a [Kassensturz],
    /// True when the payouts of the Jahresabschluss are booked.
    pub payouts_booked: bool,
}

/// The Kassenbuch of season `year` from its journal `belege` (any order): the Belege by number,
/// each Storno linked both ways, a Beleg of a hand booking of `entries` carrying its id (for the
/// Storno form), the balances from `parts.carry_in`, each Kassensturz with its frozen figure (or,
/// stored before it was kept, the cash of the book after its day).
pub fn from_journal(year: i32, belege: &[Beleg], entries: &[Entry], parts: Parts) -> Kassenbuch {
    let hand_of: BTreeMap<&str, i64> = entries
        .iter()
        .filter_map(|e| e.hand.map(|id| (e.key.as_str(), id)))
        .collect();
    let mut sorted: Vec<&Beleg> = belege.iter().collect();
    sorted.sort_by_key(|b| b.nr);
    let cancelled: BTreeMap<u32, u32> = sorted
        .iter()
        .filter_map(|b| b.storno_of.map(|o| (o, b.nr)))
        .collect();
    let bookings: Vec<Booking> = sorted
        .into_iter()
        .map(|b| Booking {
            beleg: b.nr,
            day: b.day,
            cents: b.cents,
            konto: b.konto,
            kategorie: b.kategorie,
            text: b.text.clone(),
            hand: hand_of.get(b.key.as_str()).copied(),
            storno_of: b.storno_of,
            storniert_by: cancelled.get(&b.nr).copied(),
            reason: b.reason.clone(),
            by: b.by.clone(),
        })
        .collect();
    let mut end = parts.carry_in;
    for b in &bookings {
        end.add(b.konto, b.cents);
    }
    let mut counts: Vec<&Kassensturz> = parts.stuerze.iter().collect();
    counts.sort_by_key(|k| k.day);
    let stuerze = counts
        .into_iter()
        .map(|k| {
            let book_cents = k
                .book_cents
                .unwrap_or_else(|| cash_on(parts.carry_in, &bookings, k.day));
            Sturz {
                count: k.clone(),
                book_cents,
                diff_cents: k.counted_cents.saturating_sub(book_cents),
            }
        })
        .collect();
    Kassenbuch {
        year,
        carry_in: parts.carry_in,
        bookings,
        end,
        stuerze,
        payouts_booked: parts.payouts_booked,
    }
}

/// The book's cash after every booking up to and including `day`, from `carry_in`, cents.
pub fn cash_on(carry_in: Bestand, bookings: &[Booking], day: NaiveDate) -> i64 {
    carry_in.bar_cents
        + bookings
            .iter()
            .filter(|b| b.konto == Konto::Bar && b.day <= day)
            .map(|b| b.cents)
            .sum::<i64>()
}

#[cfg(test)]
mod tests;
