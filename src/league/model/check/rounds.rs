//! The check of a night's tables of rounds (league.md §1, §2, §6, §9): table and round numbers;
//! each row (a known player at his drawn table, at one table a night, once a round; Outs,
//! Hand-Outs, Julen; one Joker-Runde a night); two players and one loser a round; a round's
//! Schockbesteck throws against its rows.

use std::collections::HashMap;

use super::players::{known, NightCx};
use crate::league::model::error::{EntryError, Location};
use crate::league::model::file::{NightEntry, ResultEntry, RoundEntry};
use crate::league::model::season::{
    outs_limit_reason, Round, Table, MAX_JULEN_PER_ROUND, MAX_TABLES, MAX_WURFRUNDEN,
};
use crate::rules::{PlayedRunde, RuleSet};

/// Who plays where at one night, noted row by row across its tables.
#[derive(Default)]
struct Seating<'a> {
    /// player → table he plays at this night
    table_of: HashMap<&'a str, u32>,
    /// player → (table, round) of his Joker-Runde this night
    joker_of: HashMap<&'a str, (u32, u32)>,
}

/// The tables of the night `entry` checked in file order: numbers 1..=[`MAX_TABLES`], each
/// once; their rounds numbered 1..=`rounds_per_night`, each once a table ([`check_round`]).
/// Sorted by table number, each table's rounds by number.
pub(super) fn check_tables(cx: &NightCx<'_>, entry: &NightEntry) -> Result<Vec<Table>, EntryError> {
    let at_night = Location::night(entry.date);
    let mut tables: Vec<Table> = Vec::with_capacity(entry.tables.len());
    let mut seating = Seating::default();
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
            if !(1..=cx.rules.rounds_per_night).contains(&r.number) {
                return Err(EntryError::new(
                    at_round.field("number"),
                    format!(
                        "Rundennummer muss zwischen 1 und {} liegen",
                        cx.rules.rounds_per_night
                    ),
                ));
            }
            if rounds.iter().any(|x| x.number == r.number) {
                return Err(EntryError::new(
                    at_round.field("number"),
                    "Rundennummer an diesem Tisch doppelt",
                ));
            }
            rounds.push(check_round(cx, &mut seating, t.number, r, &at_round)?);
        }
        rounds.sort_by_key(|r| r.number);
        tables.push(Table {
            number: t.number,
            rounds,
        });
    }
    tables.sort_by_key(|t| t.number);
    Ok(tables)
}

/// Round `r` at table `table` (`at_round`): its rows checked in order ([`check_row`]), at least
/// 2 of them, exactly one loser, and its Schockbesteck throws when it has them
/// ([`check_besteck`]). The rows come back with canonical names.
fn check_round<'a>(
    cx: &NightCx<'a>,
    seating: &mut Seating<'a>,
    table: u32,
    r: &RoundEntry,
    at_round: &Location,
) -> Result<Round, EntryError> {
    let mut results: Vec<ResultEntry> = Vec::with_capacity(r.results.len());
    for row in &r.results {
        let name = check_row(cx, seating, table, r, row, &results, at_round)?;
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
        check_besteck(played, &results, at_round, cx.game)?;
    }
    let schockbesteck = r.schockbesteck.clone();
    Ok(Round {
        number: r.number,
        results,
        schockbesteck,
    })
}

/// One `row` of round `r` at `table` (`results`: the round's rows before it): a known player,
/// at his drawn table when the draw is explicit, at no other table this night, once a round;
/// Outs at most the engine's limit, Hand-Outs at most the Outs, Julen within
/// [`MAX_JULEN_PER_ROUND`] (typed figures only), a Joker-Runde only in a season that has one and
/// once a night. Returns his canonical name and notes his table (and Joker-Runde) in `seating`.
fn check_row<'a>(
    cx: &NightCx<'a>,
    seating: &mut Seating<'a>,
    table: u32,
    r: &RoundEntry,
    row: &ResultEntry,
    results: &[ResultEntry],
    at_round: &Location,
) -> Result<&'a str, EntryError> {
    let name = known(cx.names, &row.player, at_round.clone())?;
    let at_row = at_round.clone().player(name);
    if let Some(drawn) = &cx.drawn {
        let why = match drawn.get(name) {
            Some(&t2) if t2 == table => None,
            Some(&t2) => Some(format!("{name} ist an Tisch {t2} ausgelost")),
            None => Some(format!("{name} ist an diesem Abend nicht ausgelost")),
        };
        if let Some(why) = why {
            return Err(EntryError::new(
                at_row.field("player"),
                format!("{why}; hier nur Spieler von Tisch {table} eintragen"),
            ));
        }
    }
    if let Some(&other) = seating.table_of.get(name) {
        if other != table {
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
    if row.outs > cx.max_outs {
        return Err(EntryError::new(
            at_row.field("outs"),
            format!("{} Outs: {}", row.outs, outs_limit_reason(cx.game)),
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
        if cx.rules.joker_multiplier.is_none() {
            return Err(EntryError::new(
                at_row.field("joker"),
                format!("in der Saison {} gibt es keine Joker-Runde", cx.year),
            ));
        }
        if let Some((jt, jr)) = seating.joker_of.get(name) {
            return Err(EntryError::new(
                at_row.field("joker"),
                format!("hat an diesem Abend schon eine Joker-Runde (Tisch {jt}, Runde {jr})"),
            ));
        }
        seating.joker_of.insert(name, (table, r.number));
    }
    seating.table_of.insert(name, table);
    Ok(name)
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
