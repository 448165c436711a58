//! The season file, format `schockerliga-season/1` (interchange.md): the serde shape of one complete
//! season. This is the raw, unchecked input; `validate` turns it into a checked `Season`.

use chrono::NaiveDate;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// The format tag every season file carries.
pub const FORMAT: &str = "schockerliga-season/1";

/// One season as written in a season file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SeasonFile {
    /// Must be [`FORMAT`].
    pub format: String,
    /// The season's year, e.g. 2026.
    pub season: i32,
    /// Overrides of the season's default rules (league.md §10); empty = all defaults.
    #[serde(default)]
    pub rules: Map<String, Value>,
    /// The season's players; names are unique.
    #[serde(default)]
    pub players: Vec<PlayerEntry>,
    /// The season's nights, in any order (one per date).
    #[serde(default)]
    pub nights: Vec<NightEntry>,
    /// The season's final table only (a season kept as its Endstand, without nights; an addition
    /// to `schockerliga-season/1`, docs/saisondatei.md): one line per player. Absent (and left out
    /// of an export) for a season of nights; present, the season has no nights.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub endstand: Vec<EndstandEntry>,
    /// The payments that came in (issue 34.1, an addition to `schockerliga-season/1`,
    /// docs/saisondatei.md "Zahlungen und Guthaben"), in booking order. Absent (and left out of an
    /// export) without any.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub payments: Vec<PaymentEntry>,
    /// The bookings of Guthaben besides the payments (issue 34.1, same addition): brought from
    /// the previous season, paid back, carried to the next. Absent without any.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub credit: Vec<CreditEntry>,
    /// The Kassenbuch's hand bookings and Kassenstürze (issue 35.4, an addition to
    /// `schockerliga-season/1` with its own `version`, docs/saisondatei.md "Kassenbuch"). Absent
    /// (and left out of an export) without any; an import without it keeps the stored ones.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kassenbuch: Option<KassenbuchFile>,
    /// The players' statuses other than aktiv (issue 36.4, an addition to
    /// `schockerliga-season/1`, docs/saisondatei.md "Status"). Absent (and left out of an export)
    /// without any; an import without it keeps the stored ones.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub status: Vec<StatusEntry>,
    /// The merges in force that touch this season (issue 36.3, an addition with its own
    /// `version`, docs/saisondatei.md "Zusammengeführte Spieler"): which rows of the kept player
    /// were the merged-away one's, so that a split after an import is exact. Absent without any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub merged: Option<MergedFile>,
}

/// A player's status in the season other than aktiv (issue 36.4).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StatusEntry {
    /// The player (one of the season's players).
    pub player: String,
    /// `pausiert` or `ausgetreten`.
    pub status: String,
    /// The day he left (`ausgetreten` only, in the season's year).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub day: Option<NaiveDate>,
}

/// The version of the season file's `merged` addition this program writes and reads.
pub const MERGED_VERSION: u32 = 1;

/// The merges in force that touch a season (issue 36.3).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MergedFile {
    /// [`MERGED_VERSION`].
    pub version: u32,
    /// One entry per merge, oldest first.
    pub merges: Vec<MergedEntry>,
}

/// One merge as it touches one season: who went into whom (when, by whom, why: the same in every
/// season it touches) and which of the season's rows, now the kept player's, were his.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MergedEntry {
    /// The merged-away player's name.
    pub player: String,
    /// The kept player's name.
    pub into: String,
    /// When the merge was made (RFC 3339).
    pub at: String,
    /// Who made it.
    pub by: String,
    /// Why.
    pub reason: String,
    /// `"moved"`: his membership of the season became the kept player's (the kept one had none);
    /// `"joined"`: both were players, his line is in `joined`; absent: he was none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub membership: Option<String>,
    /// His own line of the season where both were players (removed by the merge).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub joined: Option<MergedMember>,
    /// The kept player's Jahresbeitrag before the merge, where the merge gave him the other's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kept_fee: Option<MergedMember>,
    /// The nights he was drawn at.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub nights: Vec<NaiveDate>,
    /// The nights recorded as totals with his line.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub totals: Vec<NaiveDate>,
    /// The rounds with his result.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub rounds: Vec<MergedRound>,
    /// The Schockbesteck records that named him.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub schockbesteck: Vec<MergedRound>,
    /// His fines: the night and the fine's place among the night's `fines` (0 = first).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub fines: Vec<MergedFine>,
    /// His payments: places in the season's `payments` (0 = first).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub payments: Vec<usize>,
    /// His bookings of Guthaben: places in the season's `credit`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub credit: Vec<usize>,
    /// His Endstand line.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub endstand: bool,
    /// His status of the season.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub status: bool,
    /// In a season both played: the kept player's own payments before the merge (places in
    /// `payments`), what a split tells apart from those booked after it. Absent otherwise.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kept_payments: Option<Vec<usize>>,
    /// Likewise his own bookings of Guthaben (places in `credit`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kept_credit: Option<Vec<usize>>,
}

/// A player's line of a season as stored: his place in the order and his Jahresbeitrag.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MergedMember {
    /// His place in the season's order (0 = first).
    pub position: i64,
    /// Payment day of the Jahresbeitrag.
    #[serde(default)]
    pub fee_paid_on: Option<String>,
    /// Its amount, cents.
    #[serde(default)]
    pub fee_cents: Option<i64>,
    /// Paid from his account.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub fee_from_account: bool,
}

/// A round of a night: the night, the table, the round's number.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MergedRound {
    /// The night.
    pub date: NaiveDate,
    /// Table 1 or 2.
    pub table: u32,
    /// The round's number.
    pub round: u32,
}

/// A fine of a night: the night and its place among the night's fines.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MergedFine {
    /// The night.
    pub date: NaiveDate,
    /// Its place among the night's `fines` (0 = first).
    pub n: usize,
}

impl MergedEntry {
    /// Checks entry `self` as a merge itself is checked (issue 36, hostile trial): `reason` a
    /// line of 1–200 characters without control characters, `by` at most 64 such, `at` an
    /// RFC 3339 instant, `into` one of `players` (the season's names, any case), each night,
    /// round, fine, payment and booking listed once. `Err` the German reason naming the field.
    pub fn check(&self, players: &[PlayerEntry]) -> Result<(), String> {
        use crate::league::model::names::check_name_chars;
        let reason = self.reason.trim();
        if reason.is_empty() || reason.chars().count() > 200 {
            return Err(format!(
                "Grund: 1 bis 200 Zeichen (es sind {})",
                reason.chars().count()
            ));
        }
        check_name_chars(reason).map_err(|why| format!("Grund: er {why}"))?;
        if self.by.chars().count() > 64 {
            return Err("by: höchstens 64 Zeichen".to_string());
        }
        check_name_chars(&self.by).map_err(|why| format!("by: er {why}"))?;
        if chrono::DateTime::parse_from_rfc3339(&self.at).is_err() {
            let shown: String = self.at.chars().take(40).collect();
            return Err(format!("at: „{shown}“ ist kein Zeitpunkt (RFC 3339)"));
        }
        let player = self.player.trim();
        if player.is_empty() || player.chars().count() > 60 {
            return Err("player: 1 bis 60 Zeichen".to_string());
        }
        check_name_chars(player).map_err(|why| format!("player: er {why}"))?;
        let key = crate::league::name_key(&self.into);
        if !players
            .iter()
            .any(|p| crate::league::name_key(&p.name) == key)
        {
            return Err(format!("„{}“ ist kein Spieler der Saison", self.into));
        }
        fn once<T: Ord + Clone>(all: &[T], what: &str) -> Result<(), String> {
            let mut sorted = all.to_vec();
            sorted.sort_unstable();
            if sorted.windows(2).any(|w| w[0] == w[1]) {
                return Err(format!("{what}: ein Eintrag steht zweimal da"));
            }
            Ok(())
        }
        once(&self.nights, "nights")?;
        once(&self.totals, "totals")?;
        let rounds = |r: &[MergedRound]| -> Vec<(NaiveDate, u32, u32)> {
            r.iter().map(|r| (r.date, r.table, r.round)).collect()
        };
        once(&rounds(&self.rounds), "rounds")?;
        once(&rounds(&self.schockbesteck), "schockbesteck")?;
        let fines: Vec<(NaiveDate, usize)> = self.fines.iter().map(|f| (f.date, f.n)).collect();
        once(&fines, "fines")?;
        once(&self.payments, "payments")?;
        once(&self.credit, "credit")?;
        if let Some(kept) = &self.kept_payments {
            once(kept, "kept_payments")?;
        }
        Ok(())
    }
}

/// The version of the season file's `kassenbuch` addition this program writes: 2 with
/// `pruefungen`, 1 without (what programs before the Prüfungen read); it reads both.
pub const KASSENBUCH_VERSION: u32 = 2;

/// At most this many hand bookings in a season's `kassenbuch`.
pub const MAX_HAND_BOOKINGS: usize = 20_000;
/// At most this many Kassenstürze in a season's `kassenbuch`.
pub const MAX_KASSENSTUERZE: usize = 1_000;
/// At most this many Prüfungen in a season's `kassenbuch`.
pub const MAX_PRUEFUNGEN: usize = 100;

/// The version of a `kassenbuch` addition without `pruefungen`.
pub const KASSENBUCH_VERSION_PLAIN: u32 = 1;

/// The accounts a booking may name (`konto`).
pub const KONTEN: [&str; 2] = ["bar", "bank"];

/// The categories a booking may name (`kategorie`, issue 35.1).
pub const KATEGORIEN: [&str; 8] = [
    "Beitrag",
    "Strafe",
    "Auszahlung",
    "Guthaben",
    "Anschaffung",
    "Feier",
    "Spende",
    "Sonstiges",
];

/// The Kassenbuch of a season in its file (issue 35.4): the bookings by hand in the order they
/// were booked, and the Kassenstürze.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct KassenbuchFile {
    /// [`KASSENBUCH_VERSION`].
    pub version: u32,
    /// The bookings by hand, in booking order; `nr` counts them 1, 2, 3 ….
    #[serde(default)]
    pub bookings: Vec<HandBookingEntry>,
    /// The cash counts.
    #[serde(default)]
    pub kassenstuerze: Vec<KassensturzEntry>,
    /// The Kassenprüfer's *Geprüft*s, oldest first (version 2).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub pruefungen: Vec<PruefungEntry>,
}

/// One *Geprüft* of a Kassenprüfer (issue 35.3) in the season file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PruefungEntry {
    /// The club's day he checked the books.
    pub date: NaiveDate,
    /// His login name.
    pub by: String,
    /// His note (at most 500 characters, one line).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub note: String,
    /// The Endbestand he saw, cents (absent for a Geprüft stored before it was kept).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub end_cents: Option<i64>,
    /// How many Belege came after it when the file was written ("nach der Prüfung geändert").
    #[serde(default, skip_serializing_if = "is_zero")]
    pub belege_after: u32,
}

/// One booking by hand (issue 35.1).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HandBookingEntry {
    /// Its number in the file, 1, 2, 3 … in booking order.
    pub nr: u32,
    /// The day of the movement.
    pub date: NaiveDate,
    /// Signed cents: income > 0, expense < 0 (never 0).
    pub cents: i64,
    /// One of [`KONTEN`].
    pub konto: String,
    /// One of [`KATEGORIEN`].
    pub kategorie: String,
    /// What it was.
    pub text: String,
    /// For a Storno: the `nr` of the booking it cancels (an earlier one).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub storno_of: Option<u32>,
    /// For a Storno: why.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub reason: String,
    /// Who booked it.
    #[serde(default)]
    pub by: String,
}

/// One Kassensturz: the cash counted on a day.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct KassensturzEntry {
    /// The day.
    pub date: NaiveDate,
    /// The counted cash, cents (≥ 0).
    pub counted_cents: i64,
    /// Who counted.
    #[serde(default)]
    pub by: String,
    /// The book's cash of the day as it stood at the count, cents (kept with the count; absent in
    /// files before it, then reckoned from the book).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub book_cents: Option<i64>,
}

impl KassenbuchFile {
    /// Checks the addition of a season of `year` (docs/saisondatei.md "Kassenbuch"): its version,
    /// `nr` 1, 2, 3 … in order, an account and a category of the lists, cents ≠ 0 and at most a
    /// million euros, a text, a day from the year before to the year after, a Storno of an
    /// earlier booking that is no Storno, with the opposite amount, at most once; counts ≥ 0.
    /// `Err` is the German reason with the booking's number.
    pub fn check(&self, year: i32) -> Result<(), String> {
        use chrono::Datelike;
        if !(KASSENBUCH_VERSION_PLAIN..=KASSENBUCH_VERSION).contains(&self.version) {
            return Err(format!(
                "Version {} unbekannt (dieses Programm liest Version {KASSENBUCH_VERSION_PLAIN} \
                 und {KASSENBUCH_VERSION})",
                self.version
            ));
        }
        if self.version == KASSENBUCH_VERSION_PLAIN && !self.pruefungen.is_empty() {
            return Err(format!(
                "pruefungen erst ab Version {KASSENBUCH_VERSION}, die Datei sagt Version {}",
                self.version
            ));
        }
        let days = year - 1..=year + 1;
        // As many as a club books in a year and far more (hostile trial: 100,000 Prüfungen made
        // the one-page Kassenbericht 27.8 MB).
        for (what, n, max) in [
            ("bookings", self.bookings.len(), MAX_HAND_BOOKINGS),
            ("kassenstuerze", self.kassenstuerze.len(), MAX_KASSENSTUERZE),
            ("pruefungen", self.pruefungen.len(), MAX_PRUEFUNGEN),
        ] {
            if n > max {
                return Err(format!("{what}: {n} Einträge, höchstens {max} je Saison"));
            }
        }
        // Texts as the forms take them: one line, no control characters, at most 200 (64 for
        // a login name) characters.
        let line = |field: &str, text: &str, max: usize, empty_ok: bool| -> Result<(), String> {
            let n = text.chars().count();
            if (!empty_ok && text.trim().is_empty()) || n > max {
                return Err(format!("{field}: 1 bis {max} Zeichen (es sind {n})"));
            }
            if !text.is_empty() {
                crate::league::model::names::check_name_chars(text)
                    .map_err(|why| format!("{field}: er {why}"))?;
            }
            Ok(())
        };
        let mut cancelled = std::collections::HashSet::new();
        for (i, b) in self.bookings.iter().enumerate() {
            let at = format!("Buchung {}", i + 1);
            line("text", &b.text, 200, false).map_err(|e| format!("{at}: {e}"))?;
            line("by", &b.by, 64, true).map_err(|e| format!("{at}: {e}"))?;
            line("reason", &b.reason, 200, true).map_err(|e| format!("{at}: {e}"))?;
            if b.nr as usize != i + 1 {
                return Err(format!("{at}: nr {} statt {}", b.nr, i + 1));
            }
            if !KONTEN.contains(&b.konto.as_str()) {
                return Err(format!("{at}: Konto „{}“ (bar oder bank)", b.konto));
            }
            if !KATEGORIEN.contains(&b.kategorie.as_str()) {
                return Err(format!("{at}: Kategorie „{}“ unbekannt", b.kategorie));
            }
            if b.cents == 0 || b.cents.abs() > 100_000_000 {
                return Err(format!("{at}: Betrag {} Cent", b.cents));
            }
            if b.text.trim().is_empty() || !days.contains(&b.date.year()) {
                return Err(format!("{at}: ohne Text oder Tag außerhalb der Saison"));
            }
            if let Some(of) = b.storno_of {
                let orig = (of as usize)
                    .checked_sub(1)
                    .filter(|&o| o < i)
                    .and_then(|o| self.bookings.get(o))
                    .filter(|o| o.storno_of.is_none() && o.cents == -b.cents);
                if orig.is_none() || !cancelled.insert(of) {
                    return Err(format!("{at}: Storno von Buchung {of} passt nicht"));
                }
            }
        }
        for k in &self.kassenstuerze {
            // Counted at most 1.000.000,00 € as the form takes it; the book's cash within a
            // thousand times that (hostile trial: i64::MIN overflowed the difference).
            let book_ok = k
                .book_cents
                .is_none_or(|c| c.unsigned_abs() <= 100_000_000_000);
            if !(0..=100_000_000).contains(&k.counted_cents)
                || !book_ok
                || !days.contains(&k.date.year())
            {
                return Err(format!(
                    "Kassensturz vom {}: Betrag oder Tag",
                    k.date.format("%d.%m.%Y")
                ));
            }
            line("by", &k.by, 64, true)
                .map_err(|e| format!("Kassensturz vom {}: {e}", k.date.format("%d.%m.%Y")))?;
        }
        for (i, p) in self.pruefungen.iter().enumerate() {
            let at = format!("Prüfung {} vom {}", i + 1, p.date.format("%d.%m.%Y"));
            let clean = |t: &str| crate::league::model::names::check_name_chars(t).is_ok();
            if !(year..=year + 1).contains(&p.date.year()) {
                return Err(format!("{at}: Tag außerhalb von {year} und {}", year + 1));
            }
            if p.by.trim().is_empty() || p.by.chars().count() > 64 || !clean(&p.by) {
                return Err(format!("{at}: Prüfer „{}“", p.by.escape_default()));
            }
            if p.note.chars().count() > 500 || !clean(&p.note) {
                return Err(format!(
                    "{at}: Bemerkung über 500 Zeichen oder mit Steuerzeichen"
                ));
            }
            if p.end_cents
                .is_some_and(|c| c.unsigned_abs() > 100_000_000_000)
                || p.belege_after > 1_000_000
            {
                return Err(format!("{at}: Endbestand oder Belege danach"));
            }
        }
        Ok(())
    }
}

/// One payment of a player (issue 34.1): `cents` that came in on `date`. What it paid is marked on
/// the items (`from_account`); what it did not pay is his Guthaben.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PaymentEntry {
    /// The paying player (one of the season's players).
    pub player: String,
    /// The day the money came in.
    pub date: NaiveDate,
    /// The amount in cents, > 0.
    pub cents: i64,
}

/// What a booking of Guthaben is (issue 34.1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum CreditKind {
    /// Brought from the player's previous season ("Guthaben aus dem Vorjahr"): adds to it.
    #[serde(rename = "vortrag")]
    CarriedIn,
    /// Paid back to the player ("Guthaben ausgezahlt"): takes it off.
    #[serde(rename = "ausgezahlt")]
    PaidBack,
    /// Carried to his next season ("Guthaben übertragen"): takes it off.
    #[serde(rename = "uebertragen")]
    CarriedOut,
}

/// One booking of a player's Guthaben besides his payments (issue 34.1).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CreditEntry {
    /// The player (one of the season's players).
    pub player: String,
    /// Brought in, paid back or carried out.
    pub kind: CreditKind,
    /// The day of the booking.
    pub date: NaiveDate,
    /// The amount in cents, > 0.
    pub cents: i64,
}

/// One player's line of a season kept only as its final table (issue 24.3, docs/saisondatei.md
/// "Endstand"): his Liga, rounds, counted Outs and paid rounds as the club's table gave them.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EndstandEntry {
    /// The player's name (one of the season's players).
    pub player: String,
    /// His Liga in the final table (`"1. Liga"`, `"2. Liga"`, `"Kreisliga"`).
    pub liga: super::rules::Liga,
    /// Rounds he played in the season (≥ 1).
    pub rounds: u32,
    /// His counted Outs of the season, Julen included (league.md §2).
    pub counted_outs: i64,
    /// Rounds he paid (league.md §7); 0 when not given.
    #[serde(default)]
    pub paid_rounds: u32,
    /// Rounds he lost; absent: the paid rounds.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lost_rounds: Option<u32>,
    /// Schock Outs thrown, when known (0 = not given).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub thrown_outs: u32,
    /// Of those, Hand-Outs, when known.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub hand_outs: u32,
    /// Julen thrown, when known (their counted Outs are inside `counted_outs`).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub julen: u32,
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

/// One player's totals of a night recorded as totals (interchange.md "Spreadsheet of night
/// totals"; an addition to `schockerliga-season/1`, docs/saisondatei.md): what a club's
/// spreadsheet kept instead of the rounds.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TotalsEntry {
    /// The player's name.
    pub player: String,
    /// His table that night (1 or 2).
    #[serde(default = "table_one")]
    pub table: u32,
    /// Rounds he played that night, 1 ..= `rounds_per_night`.
    pub rounds: u32,
    /// Schock Outs thrown, Hand-Outs included.
    pub outs: u32,
    /// Of those, thrown from the hand.
    #[serde(default)]
    pub hand_outs: u32,
    /// Julen thrown that night.
    #[serde(default)]
    pub julen: u32,
    /// The night's counted Outs without Julen (Σ row values of league.md §2, the Joker in it);
    /// absent: `(outs − hand_outs) × out_points + hand_outs × hand_out_points`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub points: Option<i64>,
    /// Rounds he lost that night.
    #[serde(default)]
    pub lost: u32,
}

fn table_one() -> u32 {
    1
}

/// A player and the payment date of his Jahresbeitrag (the amount follows from the date).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlayerEntry {
    /// The player's name, unique in the league.
    pub name: String,
    /// Payment date of the Jahresbeitrag, or null when unpaid.
    #[serde(default)]
    pub fee_paid_on: Option<NaiveDate>,
    /// The Jahresbeitrag was paid out of his payments or Guthaben (issue 34.1); written only when
    /// true.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub fee_from_account: bool,
}

/// One Spielabend.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NightEntry {
    /// The night's date (at most one night per date).
    pub date: NaiveDate,
    /// Its tables (1, or 2 from `split_tables_from` participants on).
    #[serde(default)]
    pub tables: Vec<TableEntry>,
    /// Fines recorded at this night.
    #[serde(default)]
    pub fines: Vec<FineEntry>,
    /// The draw (league.md §9): every participant with his table, in seat order per table. Absent
    /// (and left out of an export) when it is just the players of the rows in the order they first
    /// play; a draw with a participant who has no row yet (a late arrival) is written out. Every
    /// player with a row must be in an explicit draw, at his row's table.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub draw: Option<Vec<SeatEntry>>,
    /// The night recorded as totals per player instead of rounds (a club's old spreadsheet): then
    /// `tables` is empty. Absent (and left out of an export) for a night of rounds.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub totals: Vec<TotalsEntry>,
    /// "Abend abgeschlossen" (issue 22.4): its draw, rounds and fines change only as a Korrektur.
    /// Absent = open; written only when true (files of before read unchanged).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub closed: bool,
    /// The Korrekturen of the night (issue 22.4), oldest first: each change of it while it was
    /// closed, and each reopening. Absent = none; written only when there are some.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub corrections: Vec<CorrectionEntry>,
}

/// One Korrektur of a closed night: when, by whom, why (as the audit log has it).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CorrectionEntry {
    /// When, RFC 3339 (e.g. `"2026-01-10T09:30:00+00:00"`).
    pub at: String,
    /// The author: a login name, `cli`, or a scorer link's "Tisch 2 (Link von anna)".
    pub user: String,
    /// The reason given (1 to 500 characters, no control or invisible characters).
    pub reason: String,
}

/// One participant of a night's draw: the player and the table he was drawn to.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SeatEntry {
    /// The player's name.
    pub player: String,
    /// Table 1 or 2.
    pub table: u32,
}

impl NightEntry {
    /// Puts `round` at table `table` of this night, replacing a round of its number there; the
    /// table is added (last) when missing, the round goes last at its table.
    pub fn put_round(&mut self, table: u32, round: RoundEntry) {
        let t = match self.tables.iter().position(|t| t.number == table) {
            Some(k) => &mut self.tables[k],
            None => {
                self.tables.push(TableEntry {
                    number: table,
                    rounds: Vec::new(),
                });
                let last = self.tables.len() - 1;
                &mut self.tables[last]
            }
        };
        t.rounds.retain(|r| r.number != round.number);
        t.rounds.push(round);
    }
}

/// One Tisch of a night.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TableEntry {
    /// Table number, 1 or 2.
    pub number: u32,
    /// The rounds played at it (may be incomplete for the night being entered).
    #[serde(default)]
    pub rounds: Vec<RoundEntry>,
}

/// One Runde at a table.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RoundEntry {
    /// Round number, 1..=`rounds_per_night`.
    pub number: u32,
    /// One row per player who played the round.
    #[serde(default)]
    pub results: Vec<ResultEntry>,
    /// The round as played in the Schockbesteck (schocken-rules.md §6–§7): players in seat order,
    /// the dice rules and every Wurfrunde. Optional; when present its tallies must equal `results`
    /// (Outs, Hand-Outs, Julen, loser). The Glücksfaktor rests on it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub schockbesteck: Option<crate::rules::PlayedRunde>,
}

/// One player's result in one round (league.md §1).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ResultEntry {
    /// The player's name.
    pub player: String,
    /// Schock Outs of every kind thrown in the round.
    pub outs: u32,
    /// How many of `outs` were Hand-Outs.
    pub hand_outs: u32,
    /// Julen thrown in the round.
    #[serde(default)]
    pub julen: u32,
    /// The player declared this round his Joker-Runde.
    #[serde(default)]
    pub joker: bool,
    /// The player lost (paid) the round.
    #[serde(default)]
    pub lost: bool,
}

/// One fine (Strafe) of the season's Strafenkatalog.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FineEntry {
    /// The fined player.
    pub player: String,
    /// A kind of the season's Strafenkatalog.
    pub kind: String,
    /// Paid (counts into the pot) or open.
    #[serde(default)]
    pub paid: bool,
    /// The amount booked, in cents, when it differs from the catalogue's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub amount_cents: Option<i64>,
    /// The day a paid fine was paid (the Kasse counts it on that day); absent or null for an open
    /// fine and for a paid one that was paid at the night (files written before the field).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub paid_on: Option<NaiveDate>,
    /// Paid out of the player's share at the Jahresabschluss ("verrechnet", league.md §8);
    /// written only when true.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub netted: bool,
    /// Paid out of the player's payments or Guthaben (issue 34.1, docs/saisondatei.md); written
    /// only when true.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub from_account: bool,
}
