//! The one check of a season (league.md §1, §5, §6, §9; interchange.md season file):
//! `Season::from_file` runs every entry check in file order and stops at the first error;
//! `Season::to_file` exports a checked season back. What a checked season is, is `season.rs`.

use std::collections::{BTreeMap, HashMap, HashSet};

use chrono::{Datelike, NaiveDate};

use super::draw::derive_draw_of;
use super::error::{EntryError, Location};
use super::file::{CorrectionEntry, EndstandEntry, SeatEntry, TableEntry, TotalsEntry, FORMAT};
use super::file::{FineEntry, NightEntry, PlayerEntry, ResultEntry, RoundEntry, SeasonFile};
use super::names::{
    check_name_chars, check_single_script, look_alike_key, name_key, normalize_name,
};
use super::rules::{fee_cents, Liga, SeasonRules, MAX_FINE_CENTS};
use super::season::{
    base_points_of, max_outs_per_round, outs_limit_reason, EndstandRow, Fine, Memo, Night, Player,
    Round, Season, Table, TotalsRow, MAX_AT_TABLE, MAX_JULEN_PER_ROUND, MAX_NAME_CHARS,
    MAX_PARTICIPANTS, MAX_PLAYERS_PER_SEASON, MAX_TABLES, MAX_WURFRUNDEN,
};
use crate::rules::{PlayedRunde, RuleSet};

impl Season {
    /// Checks a season file completely (league.md §1, §5, §6, §9 and the file's own rules) and
    /// returns the checked season. The first error in file order is returned as an [`EntryError`]
    /// naming night, table, round, player and field as applicable; nothing partial is returned.
    /// This is the one check of a season: import, every change ([`Season::apply`]) and every load
    /// from storage run it, so what was accepted once loads again.
    /// The limits of [`Season::limits`] are part of it (a file coming in meets them all).
    pub fn from_file(file: &SeasonFile) -> Result<Season, EntryError> {
        let season = Season::checked(file)?;
        match season.limits().into_iter().next() {
            Some(e) => Err(e),
            None => Ok(season),
        }
    }

    /// [`Season::from_file`] without [`Season::limits`]: what a stored season must pass (a limit
    /// added after it was stored must not make it unreadable) and what [`Season::apply`] checks
    /// before it refuses only the limits the change breaks.
    pub(crate) fn checked(file: &SeasonFile) -> Result<Season, EntryError> {
        let top = |field: &str, msg: String| EntryError::new(Location::default().field(field), msg);
        if file.format != FORMAT {
            return Err(top(
                "format",
                format!(
                    "unbekanntes Format \"{}\" (erwartet \"{FORMAT}\")",
                    file.format
                ),
            ));
        }
        if !(1900..=9999).contains(&file.season) {
            return Err(top(
                "season",
                format!("Saison {} ist kein gültiges Jahr", file.season),
            ));
        }
        let year = file.season;
        let rules = SeasonRules::with_overrides(year, &file.rules).map_err(|e| {
            let (field, why) = e.split_once(": ").unwrap_or(("rules", e.as_str()));
            EntryError::new(Location::default().field(field), why)
        })?;
        let game = RuleSet::from_json(&rules.game).map_err(|e| {
            EntryError::new(
                Location::default().field("rules.game"),
                format!("kein gültiges Regelwerk für das Würfelspiel: {e}"),
            )
        })?;

        let players = check_players(&rules, year, &file.players)?;
        let names: HashMap<&str, &str> = players
            .iter()
            .map(|p| (p.name.as_str(), p.name.as_str()))
            .collect();

        let mut nights: Vec<Night> = Vec::with_capacity(file.nights.len());
        let mut corrections = BTreeMap::new();
        let mut seen_dates: HashSet<NaiveDate> = HashSet::new();
        for entry in &file.nights {
            if entry.date.year() == year && !seen_dates.insert(entry.date) {
                return Err(EntryError::new(
                    Location::night(entry.date).field("date"),
                    "an diesem Datum gibt es schon einen Spielabend",
                ));
            }
            nights.push(check_night(&rules, &game, year, &names, entry)?);
            let checked = check_corrections(entry.date, &entry.corrections)?;
            if !checked.is_empty() {
                corrections.insert(entry.date, checked);
            }
        }
        nights.sort_by_key(|n| n.date);
        let endstand = check_endstand(&rules, &names, &file.endstand)?;
        if !endstand.is_empty() {
            if let Some(n) = nights.first() {
                return Err(EntryError::new(
                    Location::night(n.date).field("endstand"),
                    "eine Saison hat entweder Spielabende oder nur einen Endstand, nicht beides",
                ));
            }
        }
        Ok(Season {
            year,
            rules,
            game,
            players,
            nights,
            endstand,
            corrections,
            running: Memo::default(),
        })
    }

    /// Checks a stored season like [`Season::from_file`], except that a round's Schockbesteck
    /// throws that no longer check (written by an older engine, a damaged row) are left out instead
    /// of refusing the whole season: the round keeps its results, only its Glücksfaktor figures
    /// go. Returns the season and, per dropped record, the refusal that dropped it. Any other
    /// refusal is returned as the error.
    pub fn from_stored_file(file: &SeasonFile) -> Result<(Season, Vec<EntryError>), EntryError> {
        let first = match Season::checked(file) {
            Ok(s) => return Ok((s, Vec::new())),
            Err(e) => e,
        };
        let mut file = file.clone();
        let mut dropped = Vec::new();
        let mut error = first;
        loop {
            let about_throws = error
                .location
                .field
                .as_deref()
                .is_some_and(|f| f.starts_with("schockbesteck"))
                || error.message.contains("laut Schockbesteck");
            let at = &error.location;
            let round = file
                .nights
                .iter_mut()
                .filter(|n| Some(n.date) == at.night)
                .flat_map(|n| n.tables.iter_mut())
                .filter(|t| Some(t.number) == at.table)
                .flat_map(|t| t.rounds.iter_mut())
                .find(|r| Some(r.number) == at.round && r.schockbesteck.is_some());
            match round {
                Some(r) if about_throws => r.schockbesteck = None,
                _ => return Err(error),
            }
            dropped.push(error);
            match Season::checked(&file) {
                Ok(s) => return Ok((s, dropped)),
                Err(e) => error = e,
            }
        }
    }

    /// Exports the season as a season file: `rules` holds only the overrides of the year's defaults,
    /// nights are in date order. `Season::from_file(&s.to_file())` gives `s` back.
    pub fn to_file(&self) -> SeasonFile {
        SeasonFile {
            format: FORMAT.to_string(),
            season: self.year,
            rules: self.rules.overrides(self.year),
            players: self
                .players
                .iter()
                .map(|p| PlayerEntry {
                    name: p.name.clone(),
                    fee_paid_on: p.fee_paid_on,
                })
                .collect(),
            nights: self
                .nights
                .iter()
                .map(|n| NightEntry {
                    date: n.date,
                    tables: n
                        .tables
                        .iter()
                        .map(|t| TableEntry {
                            number: t.number,
                            rounds: t
                                .rounds
                                .iter()
                                .map(|r| RoundEntry {
                                    number: r.number,
                                    results: r.results.clone(),
                                    schockbesteck: r.schockbesteck.clone(),
                                })
                                .collect(),
                        })
                        .collect(),
                    draw: (n.draw != derive_draw_of(&n.tables, &n.totals)).then(|| n.draw.clone()),
                    totals: n
                        .totals
                        .iter()
                        .map(|t| TotalsEntry {
                            player: t.player.clone(),
                            table: t.table,
                            rounds: t.rounds,
                            outs: t.outs,
                            hand_outs: t.hand_outs,
                            julen: t.julen,
                            points: (t.points != t.base_points(&self.rules)).then_some(t.points),
                            lost: t.lost,
                        })
                        .collect(),
                    fines: n
                        .fines
                        .iter()
                        .map(|f| FineEntry {
                            player: f.player.clone(),
                            kind: f.kind.clone(),
                            paid: f.paid,
                            amount_cents: f.amount_override,
                            paid_on: f.paid_on_override,
                            netted: f.netted,
                        })
                        .collect(),
                    closed: n.closed,
                    corrections: self.corrections_of(n.date).to_vec(),
                })
                .collect(),
            endstand: self
                .endstand
                .iter()
                .map(|e| EndstandEntry {
                    player: e.player.clone(),
                    liga: e.liga,
                    rounds: e.rounds,
                    counted_outs: e.counted_outs,
                    paid_rounds: e.paid_rounds,
                    lost_rounds: (e.lost_rounds != e.paid_rounds).then_some(e.lost_rounds),
                    thrown_outs: e.thrown_outs,
                    hand_outs: e.hand_outs,
                    julen: e.julen,
                })
                .collect(),
        }
    }

    /// The season with `night` added, or replacing the night of the same date, checked completely
    /// like [`Season::from_file`] (for entering one night: on error nothing changes).
    pub fn with_night(&self, night: &NightEntry) -> Result<Season, EntryError> {
        let mut file = self.to_file();
        file.nights.retain(|n| n.date != night.date);
        file.nights.push(night.clone());
        Season::from_file(&file)
    }

    /// The limits every new entry meets, beyond the file check (each a German refusal naming where):
    /// the 1. Liga deadline is a day of the season's year (`02-29` only in a leap year, league.md
    /// §10); at most [`MAX_AT_TABLE`] players are drawn to a table (league.md §9: two tables, so at
    /// most [`MAX_PARTICIPANTS`] a night), so `split_tables_from` is at most `MAX_AT_TABLE + 1`;
    /// a season has at most [`MAX_PLAYERS_PER_SEASON`] players.
    /// Seasons stored before a limit existed still load; a change is refused only for a limit it
    /// breaks ([`Season::apply`]).
    pub fn limits(&self) -> Vec<EntryError> {
        let mut out = Vec::new();
        let d = self.rules.first_liga_deadline;
        if d.in_year(self.year).is_none() {
            out.push(EntryError::new(
                Location::default().field("rules.first_liga_deadline"),
                format!(
                    "den {:02}.{:02}. gibt es {} nicht (kein Schaltjahr); bitte einen Tag des Jahres wählen, z. B. „{:02}-28“",
                    d.day, d.month, self.year, d.month
                ),
            ));
        }
        if self.players.len() > MAX_PLAYERS_PER_SEASON {
            out.push(EntryError::new(
                Location::default().field("players"),
                format!(
                    "{} Spieler: eine Saison hat höchstens {MAX_PLAYERS_PER_SEASON} Spieler",
                    self.players.len()
                ),
            ));
        }
        // Look-alike names (league.md glossary: one player, one name): „Ａnna“ (fullwidth) beside
        // „Anna“ is refused for a new name; check_players already refused „anna“ beside „Anna“.
        // So are look-alikes of another script (Unicode TS #39: „Аnna“ with a Cyrillic А) and
        // names that mix scripts.
        let mut seen: HashMap<String, &str> = HashMap::new();
        let mut looks: HashMap<String, &str> = HashMap::new();
        for p in &self.players {
            let at = || Location::default().player(&p.name).field("name");
            let key = name_key(&p.name);
            let look = look_alike_key(&p.name);
            if let Some(first) = seen.get(&key) {
                out.push(EntryError::new(
                    at(),
                    format!(
                        "Spielername „{}“ sieht aus wie „{first}“ (dieselben Buchstaben in anderer Schreibweise)",
                        p.name
                    ),
                ));
            } else if let Some(first) = looks.get(&look) {
                out.push(EntryError::new(
                    at(),
                    format!(
                        "Spielername „{}“ sieht aus wie „{first}“ (gleich aussehende Zeichen)",
                        p.name
                    ),
                ));
            } else if let Err(e) = check_single_script(&p.name) {
                out.push(EntryError::new(
                    at(),
                    format!("Spielername „{}“ {e}", p.name),
                ));
            }
            seen.entry(key).or_insert(&p.name);
            looks.entry(look).or_insert(&p.name);
        }
        let split_max = MAX_AT_TABLE as u32 + 1;
        if self.rules.split_tables_from > split_max {
            out.push(EntryError::new(
                Location::default().field("rules.split_tables_from"),
                format!(
                    "höchstens {split_max}: an einem Tisch spielen höchstens {MAX_AT_TABLE} Spieler"
                ),
            ));
        }
        for night in &self.nights {
            for table in 1..=MAX_TABLES {
                let n = night.draw.iter().filter(|s| s.table == table).count();
                if n > MAX_AT_TABLE {
                    out.push(EntryError::new(
                        Location::night(night.date).table(table).field("draw"),
                        format!(
                            "{n} Spieler; an einem Tisch spielen höchstens {MAX_AT_TABLE} \
                             (zwei Tische: höchstens {MAX_PARTICIPANTS} Teilnehmer an einem Abend)"
                        ),
                    ));
                }
            }
        }
        out
    }
}

/// Checks the Schockbesteck Runde `played` of a round against its checked rows `results`: it must
/// replay under its own rules, have a loser, and give every row's Outs, Hand-Outs, Julen and loser,
/// player by player (no row without throws, no throws without a row). Errors name the round (`at`),
/// the player and the field, in German. The replay is shared by every check of the same Runde.
fn check_besteck(
    played: &PlayedRunde,
    results: &[ResultEntry],
    at: &Location,
    game: &RuleSet,
) -> Result<(), EntryError> {
    let field = |at: Location| at.field("schockbesteck");
    let record = played.record();
    if record.wurfrunden.len() > MAX_WURFRUNDEN {
        return Err(EntryError::new(
            field(at.clone()),
            format!(
                "Schockbesteck: {} Wurfrunden; höchstens {MAX_WURFRUNDEN} in einer Runde",
                record.wurfrunden.len()
            ),
        ));
    }
    if record.rules != *game {
        return Err(EntryError::new(
            at.clone().field("schockbesteck.rules"),
            "Schockbesteck: die Runde wurde nach einem anderen Regelwerk gespielt als dem der Saison",
        ));
    }
    let replay = played
        .replay()
        .map_err(|e| EntryError::new(field(at.clone()), format!("Schockbesteck: {e}")))?;
    if !replay.finished {
        return Err(EntryError::new(
            field(at.clone()),
            "Schockbesteck: die Runde hat noch keinen Verlierer",
        ));
    }
    for row in results {
        if !played.record().players.contains(&row.player) {
            return Err(EntryError::new(
                field(at.clone().player(&row.player)),
                format!(
                    "Schockbesteck: {} steht in der Runde, hat aber keine Würfe",
                    row.player
                ),
            ));
        }
    }
    for t in &replay.tallies {
        let Some(row) = results.iter().find(|r| r.player == t.player) else {
            return Err(EntryError::new(
                field(at.clone().player(&t.player)),
                format!(
                    "Schockbesteck: {} hat Würfe, aber keine Zeile in der Runde",
                    t.player
                ),
            ));
        };
        let at_row = at.clone().player(&t.player);
        let differs = [
            ("outs", t.outs, row.outs),
            ("hand_outs", t.hand_outs, row.hand_outs),
            ("julen", t.julen, row.julen),
            ("lost", u32::from(t.lost), u32::from(row.lost)),
        ]
        .into_iter()
        .find(|(_, thrown, entered)| thrown != entered);
        if let Some((name, thrown, entered)) = differs {
            let (thrown, entered) = if name == "lost" {
                let yn = |v: u32| if v == 1 { "ja" } else { "nein" };
                (yn(thrown).to_string(), yn(entered).to_string())
            } else {
                (thrown.to_string(), entered.to_string())
            };
            return Err(EntryError::new(
                at_row.field(name),
                format!("eingetragen {entered}, laut Schockbesteck {thrown}"),
            ));
        }
    }
    Ok(())
}

fn check_players(
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
        let at = Location::default().player(name).field("name");
        if name.chars().count() > MAX_NAME_CHARS {
            return Err(EntryError::new(
                at,
                format!("Spielername hat mehr als {MAX_NAME_CHARS} Zeichen"),
            ));
        }
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
        players.push(Player {
            name: name.to_string(),
            fee_paid_on: entry.fee_paid_on,
            fee_cents: fee,
        });
    }
    Ok(players)
}

fn known<'a>(
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

/// Checks an explicit draw (league.md §9): known players, tables 1..=[`MAX_TABLES`], nobody
/// twice. Returns it with canonical names, sorted by table (seat order kept).
fn check_draw(
    names: &HashMap<&str, &str>,
    date: NaiveDate,
    seats: &[SeatEntry],
) -> Result<Vec<SeatEntry>, EntryError> {
    let at_night = Location::night(date);
    let mut draw: Vec<SeatEntry> = Vec::with_capacity(seats.len());
    for seat in seats {
        let name = known(names, &seat.player, at_night.clone())?;
        let at = at_night.clone().player(name).field("draw");
        if !(1..=MAX_TABLES).contains(&seat.table) {
            return Err(EntryError::new(
                at,
                format!("Tischnummer muss 1 oder {MAX_TABLES} sein"),
            ));
        }
        if draw.iter().any(|s| s.player == name) {
            return Err(EntryError::new(at, "ist an diesem Abend schon ausgelost"));
        }
        draw.push(SeatEntry {
            player: name.to_string(),
            table: seat.table,
        });
    }
    draw.sort_by_key(|s| s.table);
    Ok(draw)
}

fn check_night(
    rules: &SeasonRules,
    game: &RuleSet,
    year: i32,
    names: &HashMap<&str, &str>,
    entry: &NightEntry,
) -> Result<Night, EntryError> {
    let date = entry.date;
    let at_night = Location::night(date);
    if date.year() != year {
        return Err(EntryError::new(
            at_night.field("date"),
            format!("der Spielabend liegt nicht in der Saison {year}"),
        ));
    }
    // An explicit draw: every row's player must sit at his row's table.
    let explicit = match &entry.draw {
        Some(seats) => Some(check_draw(names, date, seats)?),
        None => None,
    };
    let drawn: HashMap<&str, u32> = explicit
        .iter()
        .flatten()
        .map(|s| (s.player.as_str(), s.table))
        .collect();
    let mut tables: Vec<Table> = Vec::with_capacity(entry.tables.len());
    // player → table he plays at this night
    let mut table_of: HashMap<&str, u32> = HashMap::new();
    // player → (table, round) of his Joker-Runde this night
    let mut joker_of: HashMap<&str, (u32, u32)> = HashMap::new();
    let max_outs = max_outs_per_round(game);
    for t in &entry.tables {
        let at_table = at_night.clone().table(t.number);
        if !(1..=MAX_TABLES).contains(&t.number) {
            return Err(EntryError::new(
                at_table.field("number"),
                format!("Tischnummer muss 1 oder {MAX_TABLES} sein"),
            ));
        }
        if tables.iter().any(|x| x.number == t.number) {
            return Err(EntryError::new(
                at_table.field("number"),
                "Tischnummer an diesem Abend doppelt",
            ));
        }
        let mut rounds: Vec<Round> = Vec::with_capacity(t.rounds.len());
        for r in &t.rounds {
            let at_round = at_table.clone().round(r.number);
            if !(1..=rules.rounds_per_night).contains(&r.number) {
                return Err(EntryError::new(
                    at_round.field("number"),
                    format!(
                        "Rundennummer muss zwischen 1 und {} liegen",
                        rules.rounds_per_night
                    ),
                ));
            }
            if rounds.iter().any(|x| x.number == r.number) {
                return Err(EntryError::new(
                    at_round.field("number"),
                    "Rundennummer an diesem Tisch doppelt",
                ));
            }
            let mut results: Vec<ResultEntry> = Vec::with_capacity(r.results.len());
            for row in &r.results {
                let name = known(names, &row.player, at_round.clone())?;
                let at_row = at_round.clone().player(name);
                if explicit.is_some() {
                    let why = match drawn.get(name) {
                        Some(&t2) if t2 == t.number => None,
                        Some(&t2) => Some(format!("{name} ist an Tisch {t2} ausgelost")),
                        None => Some(format!("{name} ist an diesem Abend nicht ausgelost")),
                    };
                    if let Some(why) = why {
                        return Err(EntryError::new(
                            at_row.field("player"),
                            format!("{why}; hier nur Spieler von Tisch {} eintragen", t.number),
                        ));
                    }
                }
                if let Some(&other) = table_of.get(name) {
                    if other != t.number {
                        return Err(EntryError::new(
                            at_row.field("player"),
                            format!("spielt an diesem Abend schon an Tisch {other}"),
                        ));
                    }
                }
                if results.iter().any(|x| x.player == name) {
                    return Err(EntryError::new(
                        at_row.field("player"),
                        "hat in dieser Runde schon eine Zeile",
                    ));
                }
                if row.outs > max_outs {
                    return Err(EntryError::new(
                        at_row.field("outs"),
                        format!("{} Outs: {}", row.outs, outs_limit_reason(game)),
                    ));
                }
                if row.hand_outs > row.outs {
                    return Err(EntryError::new(
                        at_row.field("hand_outs"),
                        format!("mehr Hand-Outs ({}) als Outs ({})", row.hand_outs, row.outs),
                    ));
                }
                // A sanity bound for typed figures; a Runde from the Schockbesteck is checked
                // throw by throw instead (a Deckel ping-pong can give more Julen).
                if row.julen > MAX_JULEN_PER_ROUND && r.schockbesteck.is_none() {
                    return Err(EntryError::new(
                        at_row.field("julen"),
                        format!(
                            "{} Julen: höchstens {MAX_JULEN_PER_ROUND} Julen pro Spieler und Runde",
                            row.julen
                        ),
                    ));
                }
                if row.joker {
                    if rules.joker_multiplier.is_none() {
                        return Err(EntryError::new(
                            at_row.field("joker"),
                            format!("in der Saison {year} gibt es keine Joker-Runde"),
                        ));
                    }
                    if let Some((jt, jr)) = joker_of.get(name) {
                        return Err(EntryError::new(
                            at_row.field("joker"),
                            format!("hat an diesem Abend schon eine Joker-Runde (Tisch {jt}, Runde {jr})"),
                        ));
                    }
                    joker_of.insert(name, (t.number, r.number));
                }
                table_of.insert(name, t.number);
                results.push(ResultEntry {
                    player: name.to_string(),
                    ..row.clone()
                });
            }
            if results.len() < 2 {
                return Err(EntryError::new(
                    at_round.clone(),
                    "eine Runde braucht mindestens 2 Spieler",
                ));
            }
            let losers: Vec<&str> = results
                .iter()
                .filter(|x| x.lost)
                .map(|x| x.player.as_str())
                .collect();
            if losers.len() != 1 {
                let mut at = at_round.clone().field("lost");
                if let Some(second) = losers.get(1) {
                    at = at.player(second);
                }
                return Err(EntryError::new(
                    at,
                    format!(
                        "genau ein Spieler muss die Runde verlieren (hier {})",
                        losers.len()
                    ),
                ));
            }
            if let Some(played) = &r.schockbesteck {
                check_besteck(played, &results, &at_round, game)?;
            }
            let schockbesteck = r.schockbesteck.clone();
            rounds.push(Round {
                number: r.number,
                results,
                schockbesteck,
            });
        }
        rounds.sort_by_key(|r| r.number);
        tables.push(Table {
            number: t.number,
            rounds,
        });
    }
    tables.sort_by_key(|t| t.number);
    if !entry.totals.is_empty() && !entry.tables.is_empty() {
        return Err(EntryError::new(
            at_night.clone().field("totals"),
            "der Abend ist als Summen je Spieler erfasst: Runden lassen sich dazu nicht eintragen \
             (ein Abend hat Runden oder Summen, nicht beides)",
        ));
    }
    let totals = check_totals(rules, game, year, names, entry, &drawn, explicit.is_some())?;
    let draw = explicit.unwrap_or_else(|| derive_draw_of(&tables, &totals));
    let mut used: Vec<u32> = draw.iter().map(|s| s.table).collect();
    used.extend(tables.iter().map(|t| t.number));
    used.extend(totals.iter().map(|t| t.table));
    used.sort_unstable();
    used.dedup();
    if used.len() > 1 {
        let participants = draw.len();
        if participants < rules.split_tables_from as usize {
            return Err(EntryError::new(
                at_night.clone().table(2).field("tables"),
                format!(
                    "zwei Tische erst ab {} Teilnehmern (hier {participants})",
                    rules.split_tables_from
                ),
            ));
        }
    }
    let mut fines: Vec<Fine> = Vec::with_capacity(entry.fines.len());
    for f in &entry.fines {
        let name = known(names, &f.player, at_night.clone())?;
        let at_fine = at_night.clone().player(name);
        let Some(&catalogue) = rules.fines.get(&f.kind) else {
            let why = if rules.fines.is_empty() {
                format!("die Saison {year} hat keinen Strafenkatalog (erst ab 2012)")
            } else {
                let kinds: Vec<&str> = rules.fines.keys().map(String::as_str).collect();
                format!(
                    "Strafart \"{}\" steht nicht im Strafenkatalog ({})",
                    f.kind,
                    kinds.join(", ")
                )
            };
            return Err(EntryError::new(at_fine.field("kind"), why));
        };
        if let Some(a) = f.amount_cents {
            if a < 0 {
                return Err(EntryError::new(
                    at_fine.field("amount_cents"),
                    "Betrag darf nicht negativ sein",
                ));
            }
            // The catalogue's own bound (SeasonRules::check): sums of cents stay far from i64::MAX.
            if a > MAX_FINE_CENTS {
                return Err(EntryError::new(
                    at_fine.field("amount_cents"),
                    "Betrag darf höchstens 1.000.000 Cent (10.000 €) sein",
                ));
            }
        }
        if let Some(on) = f.paid_on {
            if !f.paid {
                return Err(EntryError::new(
                    at_fine.field("paid_on"),
                    "Zahltag angegeben, aber die Strafe ist nicht bezahlt",
                ));
            }
            if on < date {
                return Err(EntryError::new(
                    at_fine.field("paid_on"),
                    format!("bezahlt am {} liegt vor dem Abend", on.format("%d.%m.%Y")),
                ));
            }
        }
        if f.netted && !f.paid {
            return Err(EntryError::new(
                at_fine.field("netted"),
                "verrechnet, aber die Strafe ist nicht bezahlt",
            ));
        }
        fines.push(Fine {
            player: name.to_string(),
            kind: f.kind.clone(),
            paid: f.paid,
            amount_cents: f.amount_cents.unwrap_or(catalogue),
            amount_override: f.amount_cents,
            paid_on: f.paid.then(|| f.paid_on.unwrap_or(date)),
            paid_on_override: f.paid_on,
            netted: f.netted,
        });
    }
    Ok(Night {
        date,
        tables,
        fines,
        draw,
        closed: entry.closed,
        totals,
    })
}

/// Longest author of a Korrektur in a season file, in characters.
pub const MAX_CORRECTION_USER_CHARS: usize = 200;

/// Longest accepted Korrektur reason, in characters (the season file's and a form's).
pub const MAX_REASON_CHARS: usize = 500;

/// Checks the Korrekturen of the night on `date` (issue 22.4): `at` an RFC 3339 time, `user`
/// 1..=[`MAX_CORRECTION_USER_CHARS`] and the reason 1..=500 characters
/// ([`MAX_REASON_CHARS`]), both trimmed and without control or invisible
/// characters. Errors name the night and the field.
fn check_corrections(
    date: NaiveDate,
    entries: &[CorrectionEntry],
) -> Result<Vec<CorrectionEntry>, EntryError> {
    let at =
        |i: usize, field: &str| Location::night(date).field(&format!("corrections[{i}].{field}"));
    let mut out = Vec::with_capacity(entries.len());
    for (i, c) in entries.iter().enumerate() {
        if chrono::DateTime::parse_from_rfc3339(c.at.trim()).is_err() {
            return Err(EntryError::new(
                at(i, "at"),
                format!(
                    "„{}“ ist kein Zeitpunkt (RFC 3339, z. B. „2026-01-10T09:30:00+00:00“)",
                    c.at
                ),
            ));
        }
        for (field, text, max) in [
            ("user", c.user.trim(), MAX_CORRECTION_USER_CHARS),
            ("reason", c.reason.trim(), MAX_REASON_CHARS),
        ] {
            let n = text.chars().count();
            if n == 0 || n > max {
                return Err(EntryError::new(
                    at(i, field),
                    format!("muss 1 bis {max} Zeichen haben"),
                ));
            }
            if let Err(why) = check_name_chars(text) {
                return Err(EntryError::new(at(i, field), why));
            }
        }
        out.push(CorrectionEntry {
            at: c.at.trim().to_string(),
            user: c.user.trim().to_string(),
            reason: c.reason.trim().to_string(),
        });
    }
    Ok(out)
}

/// Checks the totals rows of a night recorded as totals (interchange.md "Spreadsheet of night
/// totals"): known players, each once, at table 1 or 2 (his drawn table when the draw is
/// explicit); `1 ≤ rounds ≤ rounds_per_night`, `hand_outs ≤ outs ≤ max Outs per round × rounds`,
/// Julen at most [`MAX_JULEN_PER_ROUND`] per round, `lost ≤ rounds`; `points` (default: the
/// base) between the base and `joker_multiplier` × base, equal to the base without Joker; per
/// table at least 2 players and at most as many lost rounds as rounds played. Rows come back
/// sorted by table, in file order within a table.
fn check_totals(
    rules: &SeasonRules,
    game: &RuleSet,
    year: i32,
    names: &HashMap<&str, &str>,
    entry: &NightEntry,
    drawn: &HashMap<&str, u32>,
    explicit: bool,
) -> Result<Vec<TotalsRow>, EntryError> {
    let at_night = Location::night(entry.date);
    let rpn = rules.rounds_per_night;
    let max_outs = max_outs_per_round(game);
    let mut rows: Vec<TotalsRow> = Vec::with_capacity(entry.totals.len());
    for row in &entry.totals {
        let name = known(names, &row.player, at_night.clone())?;
        let at = at_night.clone().table(row.table).player(name);
        let refuse = |field: &str, why: String| Err(EntryError::new(at.clone().field(field), why));
        if !(1..=MAX_TABLES).contains(&row.table) {
            return refuse(
                "table",
                format!("Tischnummer muss 1 oder {MAX_TABLES} sein"),
            );
        }
        if explicit {
            match drawn.get(name) {
                Some(&t) if t == row.table => {}
                Some(&t) => return refuse("table", format!("{name} ist an Tisch {t} ausgelost")),
                None => {
                    return refuse(
                        "player",
                        format!("{name} ist an diesem Abend nicht ausgelost"),
                    )
                }
            }
        }
        if rows.iter().any(|x| x.player == name) {
            return refuse(
                "player",
                "steht an diesem Abend schon in einer Zeile (jeder Spieler einmal je Abend)".into(),
            );
        }
        if !(1..=rpn).contains(&row.rounds) {
            return refuse(
                "rounds",
                format!(
                    "{} Runden: es müssen zwischen 1 und {rpn} Runden sein",
                    row.rounds
                ),
            );
        }
        if row.hand_outs > row.outs {
            return refuse(
                "hand_outs",
                format!("mehr Hand-Outs ({}) als Outs ({})", row.hand_outs, row.outs),
            );
        }
        if row.outs > max_outs * row.rounds {
            return refuse(
                "outs",
                format!(
                    "{} Outs in {} Runden: höchstens {max_outs} Outs pro Runde, also {} \
                     (ein Schock Out beendet die Hälfte)",
                    row.outs,
                    row.rounds,
                    max_outs * row.rounds
                ),
            );
        }
        if row.julen > MAX_JULEN_PER_ROUND * row.rounds {
            return refuse(
                "julen",
                format!(
                    "{} Julen in {} Runden: höchstens {MAX_JULEN_PER_ROUND} Julen pro Runde",
                    row.julen, row.rounds
                ),
            );
        }
        if row.lost > row.rounds {
            return refuse(
                "lost",
                format!(
                    "mehr verlorene Runden ({}) als gespielte ({})",
                    row.lost, row.rounds
                ),
            );
        }
        let base = base_points_of(rules, row.outs, row.hand_outs);
        let points = row.points.unwrap_or(base);
        if points < base {
            return refuse(
                "points",
                format!("{points} gewertete Outs sind weniger als die Outs ergeben ({base})"),
            );
        }
        match rules.joker_multiplier {
            None if points != base => {
                return refuse(
                    "points",
                    format!(
                        "in der Saison {year} gibt es keinen Joker: gewertete Outs müssen {base} \
                         sein (hier {points})"
                    ),
                )
            }
            Some(m) if points > base * m => {
                return refuse(
                    "points",
                    format!(
                        "{points} gewertete Outs sind mehr als {m} × {base}: der Joker \
                         vervielfacht höchstens die Outs einer Runde"
                    ),
                )
            }
            _ => {}
        }
        rows.push(TotalsRow {
            player: name.to_string(),
            table: row.table,
            rounds: row.rounds,
            outs: row.outs,
            hand_outs: row.hand_outs,
            julen: row.julen,
            points,
            lost: row.lost,
        });
    }
    rows.sort_by_key(|r| r.table);
    let mut tables: Vec<u32> = rows.iter().map(|r| r.table).collect();
    tables.dedup();
    for t in tables {
        let at = at_night.clone().table(t);
        let mine: Vec<&TotalsRow> = rows.iter().filter(|r| r.table == t).collect();
        if let [only] = mine.as_slice() {
            return Err(EntryError::new(
                at.player(&only.player).field("player"),
                "allein an seinem Tisch: eine Runde braucht mindestens 2 Spieler",
            ));
        }
        let played = mine.iter().map(|r| r.rounds).max().unwrap_or(0);
        let lost: u32 = mine.iter().map(|r| r.lost).sum();
        if lost > played {
            let last = mine.last().map_or("", |r| r.player.as_str());
            return Err(EntryError::new(
                at.player(last).field("lost"),
                format!(
                    "an Tisch {t} zusammen {lost} verlorene Runden, aber nur {played} Runden gespielt"
                ),
            ));
        }
    }
    Ok(rows)
}

/// Checks the final table of a season kept as its Endstand (issue 24.3, docs/saisondatei.md):
/// players of the season, each once, `1 ≤ rounds ≤ 366 × rounds_per_night`, `paid ≤ lost ≤
/// rounds`, `hand_outs ≤ thrown_outs ≤ max Outs per round × rounds`, counted Outs at least the
/// Outs of the Julen and at most what the rounds allow, and a Liga that fits the rounds (under
/// `kreisliga_below_rounds` the Kreisliga, else not). Rows in file order.
fn check_endstand(
    rules: &SeasonRules,
    names: &HashMap<&str, &str>,
    entries: &[EndstandEntry],
) -> Result<Vec<EndstandRow>, EntryError> {
    let mut rows: Vec<EndstandRow> = Vec::with_capacity(entries.len());
    let max_rounds = 366 * rules.rounds_per_night;
    for e in entries {
        let at0 = Location::default().field("endstand");
        let name = known(names, &e.player, at0)?;
        let at = Location::default().player(name);
        let refuse = |field: &str, why: String| Err(EntryError::new(at.clone().field(field), why));
        if rows.iter().any(|r| r.player == name) {
            return refuse("player", "steht zweimal im Endstand".into());
        }
        if !(1..=max_rounds).contains(&e.rounds) {
            return refuse(
                "rounds",
                format!(
                    "{} Runden: es müssen zwischen 1 und {max_rounds} sein",
                    e.rounds
                ),
            );
        }
        let lost = e.lost_rounds.unwrap_or(e.paid_rounds);
        if e.paid_rounds > lost {
            return refuse(
                "paid_rounds",
                format!(
                    "mehr bezahlte Runden ({}) als verlorene ({lost})",
                    e.paid_rounds
                ),
            );
        }
        if lost > e.rounds {
            return refuse(
                "lost_rounds",
                format!(
                    "mehr verlorene Runden ({lost}) als gespielte ({})",
                    e.rounds
                ),
            );
        }
        if e.hand_outs > e.thrown_outs {
            return refuse(
                "hand_outs",
                format!(
                    "mehr Hand-Outs ({}) als Outs ({})",
                    e.hand_outs, e.thrown_outs
                ),
            );
        }
        if e.thrown_outs > 3 * e.rounds || e.julen > MAX_JULEN_PER_ROUND * e.rounds {
            return refuse(
                "thrown_outs",
                format!("mehr Outs oder Julen, als {} Runden zulassen", e.rounds),
            );
        }
        let julen_outs = i64::from(e.julen / rules.julen_per_out.max(1));
        let top = rules.out_points.max(rules.hand_out_points)
            * rules.joker_multiplier.unwrap_or(1)
            * 3
            * i64::from(e.rounds)
            + julen_outs;
        if e.counted_outs < julen_outs || e.counted_outs > top {
            return refuse(
                "counted_outs",
                format!(
                    "{} gewertete Outs: bei {} Runden und {} Julen zwischen {julen_outs} und {top}",
                    e.counted_outs, e.rounds, e.julen
                ),
            );
        }
        let kreisliga = e.rounds < rules.kreisliga_below_rounds;
        if kreisliga != (e.liga == Liga::Kreisliga) {
            let k = rules.kreisliga_below_rounds;
            let why = if kreisliga {
                format!(
                    "mit {} Runden (unter {k}) steht ein Spieler in der Kreisliga",
                    e.rounds
                )
            } else {
                format!(
                    "mit {} Runden (ab {k}) steht ein Spieler nicht in der Kreisliga",
                    e.rounds
                )
            };
            return refuse("liga", why);
        }
        rows.push(EndstandRow {
            player: name.to_string(),
            liga: e.liga,
            rounds: e.rounds,
            counted_outs: e.counted_outs,
            paid_rounds: e.paid_rounds,
            lost_rounds: lost,
            thrown_outs: e.thrown_outs,
            hand_outs: e.hand_outs,
            julen: e.julen,
        });
    }
    Ok(rows)
}

#[cfg(test)]
mod tests;
