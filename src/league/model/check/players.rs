//! The check of a season's players (league.md glossary: one player, one name; §5 the
//! Jahresbeitrag), the lookup of a typed name among them that every other check uses, and the context
//! (`NightCx`: rules, dice RuleSet, players, draw) every check of a night works in.

use std::collections::HashMap;

use crate::league::model::error::{EntryError, Location};
use crate::league::model::file::{CreditEntry, PaymentEntry, PlayerEntry};
use crate::league::model::names::{check_name_chars, normalize_name};
use crate::league::model::rules::{fee_cents, SeasonRules};
use crate::league::model::season::{Player, MAX_NAME_CHARS};
use crate::rules::RuleSet;

/// The players of `entries` checked in file order (season `year` under `rules`): each name
/// normalized, not empty, without control or invisible characters, at most
/// [`MAX_NAME_CHARS`] characters, unique ignoring case; a Jahresbeitrag's day one that
/// [`fee_cents`] accepts. The first refusal names the player (or his place in the list) and
/// the field.
pub(super) fn check_players(
    rules: &SeasonRules,
    year: i32,
    entries: &[PlayerEntry],
) -> Result<Vec<Player>, EntryError> {
    let mut players: Vec<Player> = Vec::with_capacity(entries.len());
    // NFC, lower case → the name first given with it. (Look-alikes that only NFKC folds
    // together, „Ａnna“ beside „Anna“, are one of the season's limits: stored before that check
    // existed, they must still load.)
    let mut seen: HashMap<String, String> = HashMap::new();
    for (i, entry) in entries.iter().enumerate() {
        let normalized = normalize_name(&entry.name);
        let name = normalized.as_str();
        if name.is_empty() {
            return Err(EntryError::new(
                Location::default().field("name"),
                format!(
                    "Spielername darf nicht leer sein ({}. Spieler der Liste)",
                    i + 1
                ),
            ));
        }
        if let Err(why) = check_name_chars(name) {
            // Not echoed: the name itself is what cannot be shown.
            return Err(EntryError::new(
                Location::default().field("name"),
                format!("Spielername {why} ({}. Spieler der Liste)", i + 1),
            ));
        }
        if name.chars().count() > MAX_NAME_CHARS {
            // A name of over 100 characters is named by its first 60: a refusal must not repeat
            // a name of megabytes (hostile run: 400 MB on stderr).
            let shown: String = if name.chars().count() > 100 {
                name.chars().take(MAX_NAME_CHARS).chain(['…']).collect()
            } else {
                name.to_string()
            };
            return Err(EntryError::new(
                Location::default().player(&shown).field("name"),
                format!("Spielername hat mehr als {MAX_NAME_CHARS} Zeichen"),
            ));
        }
        let at = Location::default().player(name).field("name");
        let key = name.to_lowercase();
        match seen.get(&key) {
            Some(first) if first == name => {
                return Err(EntryError::new(at, "Spielername ist doppelt vergeben"));
            }
            Some(first) => {
                return Err(EntryError::new(
                    at,
                    format!(
                        "Spielername „{name}“ gibt es schon als „{first}“ (Groß-/Kleinschreibung)"
                    ),
                ));
            }
            None => {
                seen.insert(key, name.to_string());
            }
        }
        let fee = match entry.fee_paid_on {
            None => 0,
            Some(date) => fee_cents(rules, year, date).map_err(|why| {
                EntryError::new(Location::default().player(name).field("fee_paid_on"), why)
            })?,
        };
        if entry.fee_from_account && entry.fee_paid_on.is_none() {
            return Err(EntryError::new(
                Location::default().player(name).field("fee_from_account"),
                "aus Zahlungen bezahlt, aber kein Zahltag des Jahresbeitrags",
            ));
        }
        players.push(Player {
            name: name.to_string(),
            fee_paid_on: entry.fee_paid_on,
            fee_cents: fee,
            fee_from_account: entry.fee_from_account,
        });
    }
    Ok(players)
}

/// Most cents of one payment or Guthaben booking (issue 34.1): a million euros, far above any
/// club's; keeps the sums of a hostile file from overflowing.
pub const MAX_PAYMENT_CENTS: i64 = 100_000_000;

/// The payments and Guthaben bookings of a season file checked (issue 34.1, docs/saisondatei.md
/// "Zahlungen und Guthaben"): each of a player of the season (names made canonical), 1 cent to
/// [`MAX_PAYMENT_CENTS`], on a day from the year before the season to the year after it. The
/// first refusal names the player and the field.
pub(super) fn check_account_entries(
    names: &HashMap<&str, &str>,
    year: i32,
    payments: &[PaymentEntry],
    credit: &[CreditEntry],
) -> Result<(Vec<PaymentEntry>, Vec<CreditEntry>), EntryError> {
    let amount = |player: &str, field: &str, cents: i64, date: chrono::NaiveDate| {
        let at = Location::default().player(player).field(field);
        if !(1..=MAX_PAYMENT_CENTS).contains(&cents) {
            return Err(EntryError::new(
                at,
                format!("Betrag {cents} Cent: erlaubt sind 1 bis {MAX_PAYMENT_CENTS} Cent"),
            ));
        }
        if !(year - 1..=year + 1).contains(&chrono::Datelike::year(&date)) {
            return Err(EntryError::new(
                at,
                format!(
                    "Tag {} liegt nicht zwischen {} und {}",
                    date.format("%d.%m.%Y"),
                    year - 1,
                    year + 1
                ),
            ));
        }
        Ok(())
    };
    let mut paid = Vec::with_capacity(payments.len());
    for p in payments {
        let name = known(names, &p.player, Location::default())?;
        amount(name, "payments", p.cents, p.date)?;
        paid.push(PaymentEntry {
            player: name.to_string(),
            ..p.clone()
        });
    }
    let mut booked = Vec::with_capacity(credit.len());
    for c in credit {
        let name = known(names, &c.player, Location::default())?;
        amount(name, "credit", c.cents, c.date)?;
        booked.push(CreditEntry {
            player: name.to_string(),
            ..c.clone()
        });
    }
    Ok((paid, booked))
}

/// The canonical name of the player `raw` names (normalized) among `names`, or the refusal
/// "unbekannter Spieler" at `at` with the player and the field `player`.
pub(super) fn known<'a>(
    names: &HashMap<&'a str, &'a str>,
    raw: &str,
    at: Location,
) -> Result<&'a str, EntryError> {
    let normalized = normalize_name(raw);
    let name = normalized.as_str();
    names.get(name).copied().ok_or_else(|| {
        EntryError::new(
            at.player(name).field("player"),
            format!("unbekannter Spieler \"{name}\""),
        )
    })
}

/// What the checks of a night's rows need besides the rows: the season's rules, dice RuleSet,
/// year and players, and the night's explicit draw when it has one.
pub(super) struct NightCx<'a> {
    /// The season's resolved rules.
    pub rules: &'a SeasonRules,
    /// The dice game's RuleSet of the season.
    pub game: &'a RuleSet,
    /// The season's year.
    pub year: i32,
    /// The season's players: canonical name → canonical name.
    pub names: &'a HashMap<&'a str, &'a str>,
    /// The most Outs of one player in one round ([`max_outs_per_round`](crate::league::model::season::max_outs_per_round) of `game`).
    pub max_outs: u32,
    /// The explicit draw, player → table, when the night has one: then every row's player must
    /// sit at his drawn table. `None` when the draw follows from the rows.
    pub drawn: Option<HashMap<&'a str, u32>>,
}
