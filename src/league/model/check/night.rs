//! The check of one Spielabend (league.md §1, §6, §9): its date, its draw, its tables of rounds
//! (`rounds.rs`) or its totals (`totals.rs`), the split into two tables, and its fines.

use std::collections::HashMap;

use chrono::{Datelike, NaiveDate};

use super::players::{known, NightCx};
use super::rounds::check_tables;
use super::totals::check_totals;
use crate::league::model::draw::derive_draw_of;
use crate::league::model::error::{EntryError, Location};
use crate::league::model::file::{NightEntry, SeatEntry};
use crate::league::model::rules::{SeasonRules, MAX_FINE_CENTS};
use crate::league::model::season::{max_outs_per_round, Fine, Night, Table, TotalsRow, MAX_TABLES};
use crate::rules::RuleSet;

/// The night `entry` of season `year` checked (its players among `names`): the date in the
/// season, the explicit draw ([`check_draw`]), its tables of rounds or its totals rows (not
/// both), two tables only from `split_tables_from` participants, its fines. The first refusal
/// in file order, naming where.
pub(super) fn check_night(
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
            format!(
                "der Spielabend liegt nicht in der Saison {year}: ein Abend am {} gehört in die \
                 Saison {}",
                crate::league::model::format::date_de(date),
                date.year()
            ),
        ));
    }
    // An explicit draw: every row's player must sit at his row's table.
    let explicit = match &entry.draw {
        Some(seats) => Some(check_draw(names, date, seats)?),
        None => None,
    };
    let (tables, totals) = {
        let cx = NightCx {
            rules,
            game,
            year,
            names,
            max_outs: max_outs_per_round(game),
            drawn: explicit
                .as_ref()
                .map(|seats| seats.iter().map(|s| (s.player.as_str(), s.table)).collect()),
        };
        let tables = check_tables(&cx, entry)?;
        if !entry.totals.is_empty() && !entry.tables.is_empty() {
            return Err(EntryError::new(
                at_night.clone().field("totals"),
                "der Abend ist als Summen je Spieler erfasst: Runden lassen sich dazu nicht eintragen \
                 (ein Abend hat Runden oder Summen, nicht beides)",
            ));
        }
        let totals = check_totals(&cx, entry)?;
        (tables, totals)
    };
    let draw = explicit.unwrap_or_else(|| derive_draw_of(&tables, &totals));
    check_split(rules, &at_night, &draw, &tables, &totals)?;
    let fines = check_fines(rules, year, names, entry)?;
    Ok(Night {
        date,
        tables,
        fines,
        draw,
        closed: entry.closed,
        totals,
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

/// Refuses two tables at a night of fewer than `split_tables_from` participants (league.md §9):
/// the tables of its draw, its rounds and its totals rows count, the participants are its draw.
fn check_split(
    rules: &SeasonRules,
    at_night: &Location,
    draw: &[SeatEntry],
    tables: &[Table],
    totals: &[TotalsRow],
) -> Result<(), EntryError> {
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
    Ok(())
}

/// The fines of the night `entry` (league.md §6): a known player, a kind of the season's
/// Strafenkatalog, an amount of its own between 0 and [`MAX_FINE_CENTS`], a payment day only
/// for a paid fine and not before the night, netted only when paid. In file order, each with
/// its amount resolved.
fn check_fines(
    rules: &SeasonRules,
    year: i32,
    names: &HashMap<&str, &str>,
    entry: &NightEntry,
) -> Result<Vec<Fine>, EntryError> {
    let date: NaiveDate = entry.date;
    let at_night = Location::night(date);
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
        if f.from_account && (!f.paid || f.netted) {
            return Err(EntryError::new(
                at_fine.field("from_account"),
                "aus Zahlungen bezahlt, aber die Strafe ist nicht bezahlt oder verrechnet",
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
            from_account: f.from_account,
        });
    }
    Ok(fines)
}
