//! Every change of a season's data as one value ([`Change`]) and [`Season::apply`], which checks a
//! change exactly like an import: the change is made to the season file and the whole file goes
//! through [`Season::from_file`]. The round form, the Schockbesteck, the JSON API and the command
//! line all describe what they want as a `Change`; the rules of league.md live here, not in them.

use chrono::NaiveDate;

use super::error::{EntryError, Location};
use super::file::{
    FineEntry, NightEntry, PlayerEntry, ResultEntry, RoundEntry, SeasonFile, SeatEntry,
};
use super::names::{empty_name, normalize_name};
use super::season::{Round, Season};

/// One change of a season (league.md §1, §5, §6, §9). Player names are as typed (they are
/// normalized and must name a player of the season); dates name a night of the season.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Change {
    /// Adds player `name` to the season (last in its list), without a Jahresbeitrag.
    AddPlayer {
        /// The new player's name.
        name: String,
    },
    /// Renames player `from` to `to` everywhere in the season: player list, draws, rows and fines.
    /// Names are league-wide: the service applies it to every season of the player.
    RenamePlayer {
        /// The current name.
        from: String,
        /// The new name.
        to: String,
    },
    /// Records the Jahresbeitrag of `player` paid on `paid_on` (the amount follows from the date,
    /// league.md §5), or removes it (`None`).
    SetFee {
        /// The player.
        player: String,
        /// The payment date, or `None` to remove the fee.
        paid_on: Option<NaiveDate>,
    },
    /// Sets kind `kind` of the Strafenkatalog to `cents` (adding it when new), or removes it
    /// (`None`; refused while a fine of that kind is booked). Booked fines keep their amount.
    SetFineKind {
        /// The kind, e.g. `late`.
        kind: String,
        /// Its amount in cents, or `None` to remove it.
        cents: Option<i64>,
    },
    /// Replaces the season's rule set (league.md §10) by `rules`: only before the season's first
    /// night (refused, German, naming the first night's date, once a night exists); the rules are
    /// checked as every load checks them (the refusal names the field).
    SetRules {
        /// The whole new rule set.
        rules: Box<super::rules::SeasonRules>,
    },
    /// Adds the Spielabend on `date` (no participants yet).
    AddNight {
        /// The night's date, within the season.
        date: NaiveDate,
    },
    /// Replaces the draw of the night on `date` by `seats` (table by table in seat order; see
    /// [`crate::league::draw::by_lot`]). Only before the night's first round.
    SetDraw {
        /// The night.
        date: NaiveDate,
        /// The participants with their tables.
        seats: Vec<SeatEntry>,
    },
    /// Seats `player` at a running night on `date` ("Nachzügler", league.md §9): at `table`, or
    /// (`None`) at the table with fewer players (a tie: table 2). Nobody else moves; rounds may be
    /// entered already (he plays from the next one).
    SeatPlayer {
        /// The night.
        date: NaiveDate,
        /// The late arrival.
        player: String,
        /// The table the secretary chose, if any.
        table: Option<u32>,
    },
    /// Puts round `number` with `results` at `table` of the night on `date`.
    PutRound {
        /// The night.
        date: NaiveDate,
        /// Table 1 or 2.
        table: u32,
        /// Round number, 1..=`rounds_per_night`.
        number: u32,
        /// One row per player of the round.
        results: Vec<ResultEntry>,
        /// Whether an entered round of that number is replaced ([`Replace`]).
        replace: Replace,
        /// A player who is not in the night's draw yet is seated at `table` (the JSON API);
        /// without it, every row's player must be drawn to `table` (the form, the Schockbesteck).
        seat_newcomers: bool,
        /// The Runde as played in the Schockbesteck (its tallies must equal `results`); `None`
        /// for a round entered by hand, which drops the throws of a round it replaces.
        schockbesteck: Option<crate::rules::PlayedRunde>,
    },
    /// Books a fine of `kind` for `player` at the night on `date`, the amount from the season's
    /// current Strafenkatalog.
    BookFine {
        /// The night.
        date: NaiveDate,
        /// The fined player.
        player: String,
        /// A kind of the Strafenkatalog.
        kind: String,
        /// Paid at once.
        paid: bool,
        /// Booked although the player has a fine of this kind at this night already (a second
        /// one is refused unless asked for: a double tap is more likely than a second offence).
        again: bool,
    },
    /// Marks fine `index` (0-based, booking order) of the night on `date` paid or open.
    SetFinePaid {
        /// The night.
        date: NaiveDate,
        /// The fine's position among the night's fines.
        index: usize,
        /// Paid (true) or open.
        paid: bool,
    },
    /// Removes round `number` at `table` of the night on `date` (entered by mistake). Refused when
    /// that round is not entered.
    RemoveRound {
        /// The night.
        date: NaiveDate,
        /// Table 1 or 2.
        table: u32,
        /// The round number.
        number: u32,
    },
    /// Moves round `number` from `table` to table `to` of the night on `date` (entered at the
    /// wrong table). Its players who have no other round at `table` are seated at `to`; refused
    /// when `to` has a round of that number or a player of the round is drawn to `table` and plays
    /// other rounds there.
    MoveRound {
        /// The night.
        date: NaiveDate,
        /// The table the round is entered at.
        table: u32,
        /// The round number.
        number: u32,
        /// The table it belongs to.
        to: u32,
    },
    /// Removes fine `index` (0-based, booking order) of the night on `date` (booked by mistake).
    RemoveFine {
        /// The night.
        date: NaiveDate,
        /// The fine's position among the night's fines.
        index: usize,
    },
    /// Removes the night on `date` with its draw, rounds and fines (a night entered by mistake).
    RemoveNight {
        /// The night.
        date: NaiveDate,
    },
    /// Closes the night on `date` ("Abend abschließen"): later changes only as a Korrektur.
    CloseNight {
        /// The night.
        date: NaiveDate,
    },
    /// Opens the closed night on `date` again (a night closed by mistake; the web allows it on
    /// the night's own day only).
    ReopenNight {
        /// The night.
        date: NaiveDate,
    },
    /// Marks fine `index` (0-based, booking order) of the night on `date` paid on `paid_on` (the
    /// Kasse counts it on that day; not before the night), or open again (`None`).
    PayFine {
        /// The night.
        date: NaiveDate,
        /// The fine's position among the night's fines.
        index: usize,
        /// The payment day, or `None` for open.
        paid_on: Option<NaiveDate>,
    },
    /// A payment of `cents` by `player` on `paid_on`, booked against his oldest open items: his
    /// open fines by night and booking order, then the Jahresbeitrag when it is due that day
    /// ([`crate::league::kasse::allocate`]: the amount must settle whole items).
    BookPayment {
        /// The paying player.
        player: String,
        /// The amount in cents.
        cents: i64,
        /// The payment day.
        paid_on: NaiveDate,
    },
    /// Books the netting of the Jahresabschluss on `paid_on` (league.md §8): each payee's open
    /// fines, oldest first and as far as his share covers them, become paid out of his share
    /// ([`crate::league::kasse::netting_plan`]). Refused when there is nothing to net.
    NetPayouts {
        /// The day of the netting (the fines' payment day).
        paid_on: NaiveDate,
        /// The season's carry-in in cents (the previous season's carry-out, which the season
        /// itself does not know; the shares depend on it).
        carry_in_cents: i64,
    },
}

/// Whether a round may replace one entered under the same number (lost updates: a second secretary
/// or the Schockbesteck must not silently overwrite a round they did not see).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Replace {
    /// Only a new round: an entered one is refused ("schon eingetragen", a conflict).
    No,
    /// Whatever is entered is replaced (the form's box "Runde ersetzen").
    Any,
    /// Only the round as it was seen: [`round_version`] of the entered round must be this one
    /// (the JSON API's `If-Match`, the Schockbesteck's confirm); else a conflict.
    IfVersion(String),
}

/// The version of an entered round: a short hash of its rows (player, Outs, Hand-Outs, Julen,
/// Joker, lost, in order), e.g. `"r5f3a9c1e0b2d4c6a"`; equal rounds have equal versions.
pub fn round_version(round: &Round) -> String {
    // FNV-1a, 64 bit: stable across builds and platforms.
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    let mut eat = |bytes: &[u8]| {
        for b in bytes {
            h ^= u64::from(*b);
            h = h.wrapping_mul(0x0100_0000_01b3);
        }
    };
    eat(&round.number.to_le_bytes());
    for r in &round.results {
        eat(r.player.as_bytes());
        eat(&[0xff]);
        eat(&r.outs.to_le_bytes());
        eat(&r.hand_outs.to_le_bytes());
        eat(&r.julen.to_le_bytes());
        eat(&[u8::from(r.joker), u8::from(r.lost)]);
    }
    format!("r{h:016x}")
}

/// Longest accepted Korrektur reason, in characters.
pub const MAX_REASON_CHARS: usize = 500;

/// The Korrektur of a closed night as a form sends it: the box "Korrektur" and its reason.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Korrektur {
    /// The box "Korrektur" is ticked.
    pub ticked: bool,
    /// Why the closed night is corrected (as typed).
    pub reason: String,
}

impl Korrektur {
    /// A ticked Korrektur with `reason`.
    pub fn because(reason: &str) -> Korrektur {
        Korrektur {
            ticked: true,
            reason: reason.to_string(),
        }
    }

    /// The reason (trimmed) under which the closed night on `date` may be changed: the box ticked
    /// and 1..=[`MAX_REASON_CHARS`] characters of reason without control or invisible characters
    /// (a line break, U+202E: they would garble the audit log); else the German refusal naming the
    /// night.
    pub fn check(&self, date: NaiveDate) -> Result<String, EntryError> {
        let night = Location::night(date);
        if !self.ticked {
            return Err(EntryError::new(
                night,
                "der Spielabend ist abgeschlossen: Änderungen nur mit Häkchen „Korrektur“ und Grund.",
            ));
        }
        let reason = self.reason.trim();
        if reason.is_empty() || reason.chars().count() > MAX_REASON_CHARS {
            return Err(EntryError::new(
                night,
                format!("eine Korrektur braucht einen Grund (1 bis {MAX_REASON_CHARS} Zeichen)."),
            ));
        }
        if let Err(why) = crate::league::names::check_name_chars(reason) {
            return Err(EntryError::new(
                night,
                format!("der Grund der Korrektur {why}."),
            ));
        }
        Ok(reason.to_string())
    }
}

impl Change {
    /// The night this change touches, if any: a closed night takes it only as a Korrektur
    /// ([`Change::needs_korrektur`]).
    pub fn night(&self) -> Option<NaiveDate> {
        match self {
            Change::AddNight { date }
            | Change::SetDraw { date, .. }
            | Change::SeatPlayer { date, .. }
            | Change::PutRound { date, .. }
            | Change::BookFine { date, .. }
            | Change::SetFinePaid { date, .. }
            | Change::RemoveRound { date, .. }
            | Change::MoveRound { date, .. }
            | Change::RemoveFine { date, .. }
            | Change::RemoveNight { date }
            | Change::CloseNight { date }
            | Change::ReopenNight { date } => Some(*date),
            Change::AddPlayer { .. }
            | Change::RenamePlayer { .. }
            | Change::SetFee { .. }
            | Change::SetFineKind { .. }
            | Change::SetRules { .. } => None,
            Change::PayFine { date, .. } => Some(*date),
            Change::BookPayment { .. } | Change::NetPayouts { .. } => None,
        }
    }

    /// True when the change alters a closed night and so needs a Korrektur: its draw, rounds or
    /// fines, or removes it. Marking a fine paid (collecting later is normal), closing and
    /// reopening do not.
    pub fn needs_korrektur(&self) -> bool {
        matches!(
            self,
            Change::SetDraw { .. }
                | Change::SeatPlayer { .. }
                | Change::PutRound { .. }
                | Change::BookFine { .. }
                | Change::RemoveRound { .. }
                | Change::MoveRound { .. }
                | Change::RemoveFine { .. }
                | Change::RemoveNight { .. }
        )
    }
}

/// A night of `season` on `date`, or the refusal naming the date.
fn night_entry(file: &mut SeasonFile, date: NaiveDate) -> Result<&mut NightEntry, EntryError> {
    let year = file.season;
    file.nights
        .iter_mut()
        .find(|n| n.date == date)
        .ok_or_else(|| {
            EntryError::new(
                Location::default(),
                format!(
                    "Am {} gibt es keinen Spielabend der Saison {year}",
                    date.format("%d.%m.%Y")
                ),
            )
        })
}

/// A refusal without a location: the message says where.
fn refuse(message: impl Into<String>) -> EntryError {
    EntryError::new(Location::default(), message)
}

/// "Anna 2 (1 Hand-Out), Bernd 0": every row of `round` with Hand-Outs, Julen and Joker when set.
pub fn round_outs(round: &Round) -> String {
    round
        .results
        .iter()
        .map(|r| {
            let mut extra = Vec::new();
            if r.hand_outs > 0 {
                extra.push(format!(
                    "{} Hand-Out{}",
                    r.hand_outs,
                    if r.hand_outs == 1 { "" } else { "s" }
                ));
            }
            if r.julen > 0 {
                extra.push(format!(
                    "{} Jule{}",
                    r.julen,
                    if r.julen == 1 { "" } else { "n" }
                ));
            }
            if r.joker {
                extra.push("Joker".to_string());
            }
            match extra.is_empty() {
                true => format!("{} {}", r.player, r.outs),
                false => format!("{} {} ({})", r.player, r.outs, extra.join(", ")),
            }
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// The loser of `round`, "–" when none.
pub fn round_loser(round: &Round) -> &str {
    round
        .results
        .iter()
        .find(|r| r.lost)
        .map_or("–", |r| r.player.as_str())
}

impl Season {
    /// The season with `change` made, checked completely like an import ([`Season::from_file`]);
    /// on a refusal nothing changes and the [`EntryError`] says where and why (German). A change
    /// that changes nothing (marking a paid fine paid, closing a closed night) gives an equal
    /// season.
    pub fn apply(&self, change: &Change) -> Result<Season, EntryError> {
        let mut file = self.to_file();
        // Every night's draw explicit: new rows are checked against it.
        for (entry, night) in file.nights.iter_mut().zip(&self.nights) {
            entry.draw = Some(night.draw.clone());
        }
        let mut closed: Vec<NaiveDate> = self
            .nights
            .iter()
            .filter(|n| n.closed)
            .map(|n| n.date)
            .collect();
        self.edit(&mut file, &mut closed, change)?;
        let mut next = Season::from_file(&file)?;
        for n in &mut next.nights {
            n.closed = closed.contains(&n.date);
        }
        Ok(next)
    }

    /// Makes `change` to `file` (this season as a file with explicit draws) and to the list of
    /// closed nights; the refusals that the file check cannot give.
    fn edit(
        &self,
        file: &mut SeasonFile,
        closed: &mut Vec<NaiveDate>,
        change: &Change,
    ) -> Result<(), EntryError> {
        let year = self.year;
        let not_in_season =
            |name: &str| refuse(format!("{name} spielt nicht in der Saison {year}"));
        match change {
            Change::AddPlayer { name } => {
                let name = normalize_name(name);
                if name.is_empty() {
                    return Err(empty_name());
                }
                file.players.push(PlayerEntry {
                    name,
                    fee_paid_on: None,
                });
            }
            Change::RenamePlayer { from, to } => {
                let to = normalize_name(to);
                if to.is_empty() {
                    return Err(empty_name());
                }
                if self.player(from).is_none() {
                    return Err(not_in_season(from));
                }
                rename_in_file(file, from, &to);
            }
            Change::SetFee { player, paid_on } => {
                let p = file
                    .players
                    .iter_mut()
                    .find(|p| p.name == *player)
                    .ok_or_else(|| not_in_season(player))?;
                p.fee_paid_on = *paid_on;
            }
            Change::SetRules { rules } => {
                if let Some(first) = self.nights.first() {
                    return Err(refuse(format!(
                        "Die Saisonregeln {year} lassen sich nur vor dem ersten Spielabend ändern (erster Abend: {}).",
                        first.date.format("%d.%m.%Y")
                    )));
                }
                rules.check().map_err(refuse)?;
                file.rules = rules.overrides(year);
            }
            Change::SetFineKind { kind, cents } => {
                let kind = kind.trim();
                let mut rules = self.rules.clone();
                match cents {
                    Some(c) => {
                        rules.fines.insert(kind.to_string(), *c);
                    }
                    None => {
                        if rules.fines.remove(kind).is_none() {
                            return Err(refuse(format!(
                                "Strafart \"{kind}\" steht nicht im Strafenkatalog"
                            )));
                        }
                        let booked = self
                            .nights
                            .iter()
                            .flat_map(|n| &n.fines)
                            .filter(|f| f.kind == kind)
                            .count();
                        if booked > 0 {
                            return Err(refuse(format!(
                                "Strafart \"{kind}\" ist {booked}-mal gebucht und kann nicht gelöscht werden"
                            )));
                        }
                    }
                }
                rules
                    .check()
                    .map_err(|e| refuse(e.replace("rules.fines: ", "Strafenkatalog: ")))?;
                // Booked fines keep their amount: it becomes an override where it now differs.
                for (entry, night) in file.nights.iter_mut().zip(&self.nights) {
                    for (f, booked) in entry.fines.iter_mut().zip(&night.fines) {
                        f.amount_cents = (rules.fines.get(&f.kind) != Some(&booked.amount_cents))
                            .then_some(booked.amount_cents);
                    }
                }
                file.rules = rules.overrides(year);
            }
            Change::AddNight { date } => {
                if self.night(*date).is_some() {
                    return Err(refuse(format!(
                        "Am {} gibt es schon einen Spielabend.",
                        date.format("%d.%m.%Y")
                    )));
                }
                file.nights.push(NightEntry {
                    date: *date,
                    tables: Vec::new(),
                    fines: Vec::new(),
                    draw: None,
                    totals: Vec::new(),
                });
            }
            Change::SetDraw { date, seats } => {
                let night = night_entry(file, *date)?;
                if night.tables.iter().any(|t| !t.rounds.is_empty()) {
                    return Err(refuse(
                        "An diesem Abend sind schon Runden eingetragen: Teilnehmer und Auslosung stehen fest.",
                    ));
                }
                if seats
                    .iter()
                    .any(|s| self.player(&normalize_name(&s.player)).is_none())
                {
                    return Err(refuse("Nur Spieler der Saison können teilnehmen."));
                }
                if seats.len() < 2 {
                    return Err(refuse("Mindestens 2 Teilnehmer ankreuzen."));
                }
                night.draw = Some(seats.clone());
            }
            Change::SeatPlayer {
                date,
                player,
                table,
            } => {
                let name = normalize_name(player);
                let night = night_entry(file, *date)?;
                let draw = night.draw.get_or_insert_with(Vec::new);
                if let Some(s) = draw.iter().find(|s| s.player == name) {
                    return Err(refuse(format!(
                        "{name} ist an diesem Abend schon ausgelost (Tisch {}).",
                        s.table
                    )));
                }
                *draw = super::draw::seat(draw, &name, *table);
            }
            Change::PutRound {
                date,
                table,
                number,
                results,
                replace,
                seat_newcomers,
                schockbesteck,
            } => {
                let entered = self
                    .night(*date)
                    .and_then(|n| n.tables.iter().find(|t| t.number == *table))
                    .and_then(|t| t.rounds.iter().find(|r| r.number == *number));
                let night = night_entry(file, *date)?;
                let at = Location::night(*date).table(*table).round(*number);
                match (entered, replace) {
                    (Some(old), Replace::No) => {
                        return Err(EntryError::conflict(
                            at.clone(),
                            format!(
                                "{at} ist schon eingetragen (verloren: {}; Outs: {}). Zum Überschreiben \
                                 „Runde ersetzen“ ankreuzen, sonst eine andere Rundennummer eingeben.",
                                round_loser(old),
                                round_outs(old)
                            ),
                        ));
                    }
                    (Some(old), Replace::IfVersion(v)) if round_version(old) != *v => {
                        return Err(EntryError::conflict(
                            at.clone(),
                            format!(
                                "{at} wurde inzwischen geändert (jetzt verloren: {}; Outs: {}). \
                                 Bitte prüfen und neu entscheiden.",
                                round_loser(old),
                                round_outs(old)
                            ),
                        ));
                    }
                    (None, Replace::IfVersion(_)) => {
                        return Err(EntryError::conflict(
                            at.clone(),
                            format!("{at} ist nicht mehr eingetragen. Bitte prüfen und neu entscheiden."),
                        ));
                    }
                    _ => {}
                }
                if *seat_newcomers {
                    let draw = night.draw.get_or_insert_with(Vec::new);
                    for r in results {
                        let name = normalize_name(&r.player);
                        if self.player(&name).is_some() && !draw.iter().any(|s| s.player == name) {
                            draw.push(SeatEntry {
                                player: name,
                                table: *table,
                            });
                        }
                    }
                }
                night.put_round(
                    *table,
                    RoundEntry {
                        number: *number,
                        results: results.clone(),
                        schockbesteck: schockbesteck.clone(),
                    },
                );
            }
            Change::BookFine {
                date,
                player,
                kind,
                paid,
                again,
            } => {
                let name = normalize_name(player);
                let kind = kind.trim();
                let booked = self
                    .night(*date)
                    .is_some_and(|n| n.fines.iter().any(|f| f.player == name && f.kind == kind));
                if booked && !again {
                    return Err(refuse(format!(
                        "Abend {}: {name} hat an diesem Abend schon eine Strafe „{}“. Noch eine \
                         buchen? Dann „Ja, noch einmal buchen“ ankreuzen.",
                        date.format("%d.%m.%Y"),
                        super::kasse::fine_label(kind)
                    )));
                }
                night_entry(file, *date)?.fines.push(FineEntry {
                    player: player.trim().to_string(),
                    kind: kind.trim().to_string(),
                    paid: *paid,
                    amount_cents: None,
                    paid_on: None,
                    netted: false,
                });
            }
            Change::SetFinePaid { date, index, paid } => {
                let fine = night_entry(file, *date)?
                    .fines
                    .get_mut(*index)
                    .ok_or_else(|| refuse("Diese Strafe gibt es nicht."))?;
                if !*paid {
                    fine.paid_on = None;
                    fine.netted = false;
                }
                fine.paid = *paid;
            }
            Change::RemoveRound {
                date,
                table,
                number,
            } => {
                let night = night_entry(file, *date)?;
                let at = Location::night(*date).table(*table).round(*number);
                let t = night
                    .tables
                    .iter_mut()
                    .find(|t| t.number == *table && t.rounds.iter().any(|r| r.number == *number))
                    .ok_or_else(|| {
                        EntryError::new(at.clone(), format!("{at} ist nicht eingetragen."))
                    })?;
                t.rounds.retain(|r| r.number != *number);
                night.tables.retain(|t| !t.rounds.is_empty());
            }
            Change::MoveRound {
                date,
                table,
                number,
                to,
            } => {
                let night = night_entry(file, *date)?;
                let at = Location::night(*date).table(*table).round(*number);
                if to == table {
                    return Err(EntryError::new(
                        at.clone(),
                        format!("{at} ist schon an Tisch {to} eingetragen."),
                    ));
                }
                let k = night
                    .tables
                    .iter()
                    .position(|t| {
                        t.number == *table && t.rounds.iter().any(|r| r.number == *number)
                    })
                    .ok_or_else(|| {
                        EntryError::new(at.clone(), format!("{at} ist nicht eingetragen."))
                    })?;
                let taken = night
                    .tables
                    .iter()
                    .any(|t| t.number == *to && t.rounds.iter().any(|r| r.number == *number));
                if taken {
                    return Err(EntryError::conflict(
                        at.clone(),
                        format!(
                            "An Tisch {to} ist Runde {number} schon eingetragen: erst diese löschen oder verschieben."
                        ),
                    ));
                }
                let round = night.tables[k]
                    .rounds
                    .iter()
                    .find(|r| r.number == *number)
                    .cloned()
                    .ok_or_else(|| {
                        EntryError::new(at.clone(), format!("{at} ist nicht eingetragen."))
                    })?;
                night.tables[k].rounds.retain(|r| r.number != *number);
                // Who played only this round at the old table goes with it.
                let stays = |name: &str| {
                    night.tables[k]
                        .rounds
                        .iter()
                        .any(|r| r.results.iter().any(|x| x.player == name))
                };
                let moving: Vec<String> = round
                    .results
                    .iter()
                    .filter(|r| !stays(&r.player))
                    .map(|r| r.player.clone())
                    .collect();
                if let Some(draw) = night.draw.as_mut() {
                    let mut next: Vec<SeatEntry> = draw
                        .iter()
                        .filter(|s| !(s.table == *table && moving.contains(&s.player)))
                        .cloned()
                        .collect();
                    for s in draw
                        .iter()
                        .filter(|s| s.table == *table && moving.contains(&s.player))
                    {
                        next = super::draw::seat(&next, &s.player, Some(*to));
                    }
                    *draw = next;
                }
                night.tables.retain(|t| !t.rounds.is_empty());
                night.put_round(*to, round);
            }
            Change::RemoveFine { date, index } => {
                let night = night_entry(file, *date)?;
                if *index >= night.fines.len() {
                    return Err(refuse("Diese Strafe gibt es nicht."));
                }
                night.fines.remove(*index);
            }
            Change::RemoveNight { date } => {
                night_entry(file, *date)?;
                file.nights.retain(|n| n.date != *date);
                closed.retain(|d| d != date);
            }
            Change::CloseNight { date } => {
                night_entry(file, *date)?;
                if !closed.contains(date) {
                    closed.push(*date);
                }
            }
            Change::ReopenNight { date } => {
                night_entry(file, *date)?;
                closed.retain(|d| d != date);
            }
            Change::PayFine {
                date,
                index,
                paid_on,
            } => {
                let fine = night_entry(file, *date)?
                    .fines
                    .get_mut(*index)
                    .ok_or_else(|| refuse("Diese Strafe gibt es nicht."))?;
                fine.paid = paid_on.is_some();
                fine.paid_on = *paid_on;
                fine.netted = false;
            }
            Change::BookPayment {
                player,
                cents,
                paid_on,
            } => {
                let name = normalize_name(player);
                let items = super::kasse::allocate(self, &name, *cents, *paid_on)?;
                for item in items {
                    match item.fine {
                        Some((date, index)) => {
                            if let Some(f) = night_entry(file, date)?.fines.get_mut(index) {
                                f.paid = true;
                                f.paid_on = Some(*paid_on);
                            }
                        }
                        None => {
                            if let Some(p) = file.players.iter_mut().find(|p| p.name == name) {
                                p.fee_paid_on = Some(*paid_on);
                            }
                        }
                    }
                }
            }
            Change::NetPayouts {
                paid_on,
                carry_in_cents,
            } => {
                let plan = super::kasse::netting_plan(self, *carry_in_cents, *paid_on);
                if plan.is_empty() {
                    return Err(refuse(
                        "Nichts zu verrechnen: keine offenen Strafen der Gewinner, die ihr Anteil deckt.",
                    ));
                }
                for (date, index) in plan {
                    if let Some(f) = night_entry(file, date)?.fines.get_mut(index) {
                        f.paid = true;
                        f.paid_on = Some(*paid_on);
                        f.netted = true;
                    }
                }
            }
        }
        Ok(())
    }
}

/// Renames `old` to `new` everywhere in the season file (players, draws, rows, totals rows,
/// fines, the Endstand).
fn rename_in_file(file: &mut SeasonFile, old: &str, new: &str) {
    for p in file.players.iter_mut().filter(|p| p.name == old) {
        p.name = new.to_string();
    }
    for n in &mut file.nights {
        for r in n.tables.iter_mut().flat_map(|t| t.rounds.iter_mut()) {
            for x in r.results.iter_mut().filter(|x| x.player == old) {
                x.player = new.to_string();
            }
            if let Some(record) = r
                .schockbesteck
                .as_mut()
                .filter(|b| b.record().has_player(old))
            {
                *record = record.renamed(old, new);
            }
        }
        for f in n.fines.iter_mut().filter(|f| f.player == old) {
            f.player = new.to_string();
        }
        for s in n.draw.iter_mut().flatten().filter(|s| s.player == old) {
            s.player = new.to_string();
        }
        for t in n.totals.iter_mut().filter(|t| t.player == old) {
            t.player = new.to_string();
        }
    }
    for e in file.endstand.iter_mut().filter(|e| e.player == old) {
        e.player = new.to_string();
    }
}

#[cfg(test)]
mod tests;
