//! The Kassenbuch of a season (issue 35.1, docs/kassenbuch.md): every money movement as a booking
//! with a running Beleg number, a day, signed cents, cash or bank and a category. The league's
//! movements (Jahresbeiträge, Strafen, payments and Guthaben, the netting and the payouts of the
//! Jahresabschluss) are derived from the season; the club's other income and expenses are booked
//! by hand and never changed: a Storno is a counter-booking. Pure code; money is i64 cents.

use std::collections::BTreeMap;

use chrono::NaiveDate;

use super::super::payouts::Payouts;
use crate::league::model::season::Season;

/// Where the money lies: the cash box or the club's bank account.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Konto {
    /// Bar (the Kasse).
    Bar,
    /// Bank (the club's account).
    Bank,
}

impl Konto {
    /// The stored and typed key: `"bar"`, `"bank"`.
    pub fn key(self) -> &'static str {
        match self {
            Konto::Bar => "bar",
            Konto::Bank => "bank",
        }
    }

    /// The German word: "Bar", "Bank".
    pub fn label(self) -> &'static str {
        match self {
            Konto::Bar => "Bar",
            Konto::Bank => "Bank",
        }
    }

    /// The account of a key ([`Konto::key`]), `None` for anything else.
    pub fn parse(key: &str) -> Option<Konto> {
        [Konto::Bar, Konto::Bank]
            .into_iter()
            .find(|k| k.key() == key.trim())
    }
}

/// The category of a booking (issue 35.1), in the order of the Kassenbericht.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Kategorie {
    /// Jahresbeiträge.
    Beitrag,
    /// Strafen.
    Strafe,
    /// Payouts of the Jahresabschluss (places and Lucky Looser).
    Auszahlung,
    /// Money of the players' Guthaben: paid in beyond their items (+), used or paid back (−).
    Guthaben,
    /// Purchases (the Wanderpokal's engraving, dice, Deckel …).
    Anschaffung,
    /// Feiern (the Weihnachtsfeier …).
    Feier,
    /// Donations (a sponsor's 50 €).
    Spende,
    /// Anything else.
    Sonstiges,
}

/// Every category, in the Kassenbericht's order.
pub const KATEGORIEN: [Kategorie; 8] = [
    Kategorie::Beitrag,
    Kategorie::Strafe,
    Kategorie::Auszahlung,
    Kategorie::Guthaben,
    Kategorie::Anschaffung,
    Kategorie::Feier,
    Kategorie::Spende,
    Kategorie::Sonstiges,
];

impl Kategorie {
    /// True for the categories the league books by itself from fees, fines, payments and the
    /// Jahresabschluss (Beitrag, Strafe, Auszahlung, Guthaben): never booked by hand, or the
    /// Kassenbericht's league part would not be the Jahresabschluss.
    pub fn is_league(self) -> bool {
        matches!(
            self,
            Kategorie::Beitrag | Kategorie::Strafe | Kategorie::Auszahlung | Kategorie::Guthaben
        )
    }

    /// The German name, also the stored and typed key: "Beitrag", "Spende" ….
    pub fn label(self) -> &'static str {
        match self {
            Kategorie::Beitrag => "Beitrag",
            Kategorie::Strafe => "Strafe",
            Kategorie::Auszahlung => "Auszahlung",
            Kategorie::Guthaben => "Guthaben",
            Kategorie::Anschaffung => "Anschaffung",
            Kategorie::Feier => "Feier",
            Kategorie::Spende => "Spende",
            Kategorie::Sonstiges => "Sonstiges",
        }
    }

    /// The category named `label` ([`Kategorie::label`]), `None` for anything else.
    pub fn parse(label: &str) -> Option<Kategorie> {
        KATEGORIEN.into_iter().find(|k| k.label() == label.trim())
    }
}

/// A booking by hand as stored (issue 35.1): never changed, only cancelled by a Storno.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HandBooking {
    /// Its id (the order it was booked in).
    pub id: i64,
    /// The day of the movement.
    pub day: NaiveDate,
    /// Signed cents: income > 0, expense < 0 (never 0).
    pub cents: i64,
    /// Cash or bank.
    pub konto: Konto,
    /// The category.
    pub kategorie: Kategorie,
    /// What it was ("Gravur Wanderpokal").
    pub text: String,
    /// For a Storno: the id of the booking it cancels.
    pub storno_of: Option<i64>,
    /// For a Storno: why.
    pub reason: String,
    /// Who booked it.
    pub created_by: String,
}

/// A Kassensturz as stored: the cash counted on a day.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Kassensturz {
    /// The day of the count.
    pub day: NaiveDate,
    /// The counted cash, cents.
    pub counted_cents: i64,
    /// Who counted.
    pub by: String,
    /// The book's cash on the day as it stood when counted, cents (frozen at the count; `None`
    /// for a count stored before it was kept: then reckoned from the book).
    pub book_cents: Option<i64>,
}

/// Cash and bank, cents.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Bestand {
    /// Cash, cents.
    pub bar_cents: i64,
    /// Bank, cents.
    pub bank_cents: i64,
}

impl Bestand {
    /// Cash + bank, cents.
    pub fn total(self) -> i64 {
        self.bar_cents + self.bank_cents
    }

    /// This plus `cents` on `konto`.
    pub fn add(&mut self, konto: Konto, cents: i64) {
        match konto {
            Konto::Bar => self.bar_cents += cents,
            Konto::Bank => self.bank_cents += cents,
        }
    }
}

/// One booking of the Kassenbuch.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Booking {
    /// The Beleg number, 1, 2, 3 … in the book's order (docs/kassenbuch.md "Belegnummern").
    pub beleg: u32,
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
    /// The hand booking's id; `None` for a booking derived from the league.
    pub hand: Option<i64>,
    /// For a Storno: the Beleg number it cancels.
    pub storno_of: Option<u32>,
    /// For a cancelled booking: the Beleg number of its Storno.
    pub storniert_by: Option<u32>,
    /// For a Storno: why.
    pub reason: String,
    /// Who booked it ("Liga" for a derived booking).
    pub by: String,
}

/// A Kassensturz with the book's cash on its day and the difference.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Sturz {
    /// The count as stored.
    pub count: Kassensturz,
    /// The book's cash after every booking up to and including the day, cents.
    pub book_cents: i64,
    /// counted − book, cents (0: the cash is right).
    pub diff_cents: i64,
}

/// The Kassenbuch of a season.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Kassenbuch {
    /// The season's year.
    pub year: i32,
    /// The Anfangsbestand (the previous season's Endbestand).
    pub carry_in: Bestand,
    /// The bookings in Beleg order.
    pub bookings: Vec<Booking>,
    /// The Endbestand: Anfangsbestand + Σ bookings, cash and bank apart.
    pub end: Bestand,
    /// The Kassenstürze, by day, each against the book.
    pub stuerze: Vec<Sturz>,
    /// True when the payouts of the Jahresabschluss are booked (its netting is booked or its
    /// year is over); false while they are still to come.
    pub payouts_booked: bool,
}

impl Kassenbuch {
    /// The Bestand after every booking up to and including `day` (the Anfangsbestand plus
    /// those bookings), cash and bank apart: what a Kassensturz on `day` counts against.
    pub fn bestand_on(&self, day: NaiveDate) -> Bestand {
        let mut on = self.carry_in;
        for b in self.bookings.iter().filter(|b| b.day <= day) {
            on.add(b.konto, b.cents);
        }
        on
    }

    /// How many bookings lie after `day` (booked ahead of their day, e.g. a fine paid on a
    /// night entered before it took place).
    pub fn after(&self, day: NaiveDate) -> usize {
        self.bookings.iter().filter(|b| b.day > day).count()
    }

    /// Σ of the derived (league) bookings of `kategorie`, cents.
    pub fn league_cents(&self, kategorie: Kategorie) -> i64 {
        self.bookings
            .iter()
            .filter(|b| b.hand.is_none() && b.kategorie == kategorie)
            .map(|b| b.cents)
            .sum()
    }

    /// Net cents of each category with bookings: (income > 0, expenses as positive cents), each
    /// in [`KATEGORIEN`] order, categories netting to 0 left out. carry_in + Σ income − Σ
    /// expenses = end.
    pub fn by_category(&self) -> (Vec<Posten>, Vec<Posten>) {
        let mut net: BTreeMap<Kategorie, i64> = BTreeMap::new();
        for b in &self.bookings {
            *net.entry(b.kategorie).or_default() += b.cents;
        }
        let income = net.iter().filter(|&(_, &c)| c > 0).map(|(&k, &c)| (k, c));
        let expenses = net.iter().filter(|&(_, &c)| c < 0).map(|(&k, &c)| (k, -c));
        (income.collect(), expenses.collect())
    }
}

impl Kassenbuch {
    /// The net cents of `kategorie` on each account (cash, bank): what a Kassenbericht line
    /// splits into.
    pub fn category_konto(&self, kategorie: Kategorie) -> (i64, i64) {
        let mut b = Bestand::default();
        for x in self.bookings.iter().filter(|x| x.kategorie == kategorie) {
            b.add(x.konto, x.cents);
        }
        (b.bar_cents, b.bank_cents)
    }
}

/// A category with its cents (a line of the Kassenbericht).
pub type Posten = (Kategorie, i64);

/// A derived booking before numbering: its source key (docs/kassenbuch.md "Belegnummern"), its
/// day, its place (kind order, its order within the kind).
pub(super) struct Derived {
    pub(super) key: String,
    pub(super) day: NaiveDate,
    pub(super) order: (u8, usize),
    pub(super) cents: i64,
    pub(super) konto: Konto,
    pub(super) kategorie: Kategorie,
    pub(super) text: String,
}

/// The league's money movements of `season` (docs/kassenbuch.md "Was die Liga bucht"): each
/// Jahresbeitrag and each paid Strafe on its day (bar when paid at the table, bank when paid out
/// of a payment, bar when netted with a share); per player and day the payments beyond the items
/// they paid as Guthaben (bank; negative when Guthaben paid items), Guthaben paid back (bar);
/// with `payout = Some((day, p))` each payee's share of `p` paid out on `day` (bar).
pub(super) fn derived(season: &Season, payout: Option<(NaiveDate, &Payouts)>) -> Vec<Derived> {
    let mut out = Vec::new();
    // (player, day) → payments − items paid from them.
    let mut guthaben: BTreeMap<(NaiveDate, String), i64> = BTreeMap::new();
    for (i, p) in season.players.iter().enumerate() {
        let Some(day) = p.fee_paid_on else { continue };
        let konto = if p.fee_from_account {
            *guthaben.entry((day, p.name.clone())).or_default() -= p.fee_cents;
            Konto::Bank
        } else {
            Konto::Bar
        };
        out.push(Derived {
            key: format!("beitrag:{}", p.name),
            day,
            order: (0, i),
            cents: p.fee_cents,
            konto,
            kategorie: Kategorie::Beitrag,
            text: format!("Jahresbeitrag {}", p.name),
        });
    }
    let fines = season
        .nights
        .iter()
        .flat_map(|n| n.fines.iter().map(move |f| (n.date, f)));
    // (night, player, kind) → how many such fines came before: the fine's key.
    let mut seen: BTreeMap<(NaiveDate, &str, &str), usize> = BTreeMap::new();
    for (i, (night, f)) in fines.enumerate() {
        let n = seen.entry((night, &f.player, &f.kind)).or_default();
        *n += 1;
        if !f.paid {
            continue;
        }
        let key = format!("strafe:{night}:{}:{}:{n}", f.player, f.kind);
        let day = f.paid_on.unwrap_or(night);
        let (konto, how) = if f.netted {
            (Konto::Bar, " (mit dem Anteil verrechnet)")
        } else if f.from_account {
            *guthaben.entry((day, f.player.clone())).or_default() -= f.amount_cents;
            (Konto::Bank, "")
        } else {
            (Konto::Bar, "")
        };
        out.push(Derived {
            key,
            day,
            order: (1, i),
            cents: f.amount_cents,
            konto,
            kategorie: Kategorie::Strafe,
            text: format!(
                "Strafe {} vom {} ({}){how}",
                f.player,
                crate::league::model::format::date_de(night),
                super::fine_label(&f.kind)
            ),
        });
    }
    for pay in &season.payments {
        *guthaben.entry((pay.date, pay.player.clone())).or_default() += pay.cents;
    }
    for (i, ((day, player), cents)) in guthaben.into_iter().enumerate() {
        if cents != 0 {
            let text = if cents > 0 {
                format!("Zahlung {player}: Guthaben")
            } else {
                format!("Guthaben {player} verrechnet")
            };
            let key = format!("guthaben:{day}:{player}");
            out.push(guthaben_booking(key, day, (2, i), cents, Konto::Bank, text));
        }
    }
    let mut back: BTreeMap<(NaiveDate, &str), usize> = BTreeMap::new();
    for (i, c) in season.credit.iter().enumerate() {
        if c.kind == crate::league::model::file::CreditKind::PaidBack {
            let n = back.entry((c.date, &c.player)).or_default();
            *n += 1;
            let key = format!("ausgezahlt:{}:{}:{n}", c.date, c.player);
            let text = format!("Guthaben {} ausgezahlt", c.player);
            out.push(guthaben_booking(
                key,
                c.date,
                (3, i),
                -c.cents,
                Konto::Bar,
                text,
            ));
        }
    }
    if let Some((day, p)) = payout {
        for (i, (player, cents)) in shares(p).into_iter().enumerate() {
            out.push(Derived {
                key: format!("anteil:{player}"),
                day,
                order: (4, i),
                cents: -cents,
                konto: Konto::Bar,
                kategorie: Kategorie::Auszahlung,
                text: format!("Anteil am Topf {}: {player}", p.season),
            });
        }
    }
    out
}

fn guthaben_booking(
    key: String,
    day: NaiveDate,
    order: (u8, usize),
    cents: i64,
    konto: Konto,
    text: String,
) -> Derived {
    Derived {
        key,
        day,
        order,
        cents,
        konto,
        kategorie: Kategorie::Guthaben,
        text,
    }
}

/// Each payee's share of `p` (places and Lucky Looser together), in the Jahresabschluss's order
/// (places best first, then the Lucky Looser), shares of 0 left out.
pub fn shares(p: &Payouts) -> Vec<(String, i64)> {
    let mut out: Vec<(String, i64)> = Vec::new();
    let pairs = p
        .places
        .iter()
        .flat_map(|x| x.players.iter().zip(&x.cents))
        .chain(p.lucky_looser.players.iter().zip(&p.lucky_looser.cents));
    for (name, &cents) in pairs {
        match out.iter_mut().find(|(n, _)| n == name) {
            Some((_, c)) => *c += cents,
            None => out.push((name.clone(), cents)),
        }
    }
    out.retain(|(_, c)| *c != 0);
    out
}

/// The Kassenbuch of `season` (issue 35.1) as its first reconciliation books it (nothing stored
/// yet): the league's bookings ([`derived`]; the payouts of `payout = Some((day, payouts))` on
/// that day) and the hand bookings `hand`, numbered 1, 2, 3 … by day, then the league's before
/// the hand bookings (by kind, then in the season's order), the hand bookings by id; each Storno
/// linked both ways; the balances from `carry_in`; each Kassensturz of `stuerze` against the
/// cash after its day. With a stored journal: [`super::journal`].
pub fn kassenbuch(
    season: &Season,
    payout: Option<(NaiveDate, &Payouts)>,
    carry_in: Bestand,
    hand: &[HandBooking],
    stuerze: &[Kassensturz],
) -> Kassenbuch {
    use super::journal::{entries, from_journal, reconcile};
    let entries = entries(season, payout, hand);
    let belege = reconcile(
        &entries,
        &[],
        NaiveDate::from_ymd_opt(season.year, 1, 1).unwrap_or_default(),
        |_| String::new(),
    );
    let parts = super::journal::Parts {
        carry_in,
        stuerze,
        payouts_booked: payout.is_some(),
    };
    from_journal(season.year, &belege, &entries, parts)
}

/// The day the payouts of `season` are booked in its Kassenbuch (docs/kassenbuch.md): the day of
/// its netting when one is booked; else, once `today` is past the season's year, its last night;
/// else `None` (the Jahresabschluss is still provisional).
pub fn payout_day(season: &Season, today: NaiveDate) -> Option<NaiveDate> {
    use chrono::Datelike;
    super::super::netting::netted_on(season).or_else(|| {
        (today.year() > season.year)
            .then(|| season.last_night())
            .flatten()
    })
}

/// Checks a hand booking as typed (issue 35.1): `cents` ≠ 0, a text, a day of the season's year
/// `year` or the next one. `Err` is the German refusal naming the field.
pub fn check_hand(year: i32, day: NaiveDate, cents: i64, text: &str) -> Result<(), String> {
    use chrono::Datelike;
    if cents == 0 {
        return Err("Betrag: er muss größer als 0,00 € sein.".to_string());
    }
    if cents.abs() > 100_000_000 {
        return Err("Betrag: höchstens 1.000.000,00 € auf einmal.".to_string());
    }
    if text.trim().is_empty() {
        return Err("Text: bitte sagen, wofür (z. B. „Gravur Wanderpokal“).".to_string());
    }
    if text.chars().count() > 200 {
        return Err("Text: höchstens 200 Zeichen.".to_string());
    }
    crate::league::model::names::check_name_chars(text.trim())
        .map_err(|why| format!("Text: er {why}."))?;
    if day.year() != year && day.year() != year + 1 {
        return Err(format!(
            "Tag: {} liegt nicht in der Saison {year} (oder im Jahr danach).",
            crate::league::model::format::date_de(day)
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests;
