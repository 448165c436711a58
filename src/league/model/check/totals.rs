//! The check of a night recorded as totals (interchange.md "Spreadsheet of night totals"): each
//! player's totals row, then each table's rows together.

use super::players::{known, NightCx};
use crate::league::model::error::{EntryError, Location};
use crate::league::model::file::{NightEntry, TotalsEntry};
use crate::league::model::season::{base_points_of, TotalsRow, MAX_JULEN_PER_ROUND, MAX_TABLES};

/// Checks the totals rows of a night recorded as totals (interchange.md "Spreadsheet of night
/// totals"): known players, each once, at table 1 or 2 (his drawn table when the draw is
/// explicit); `1 ≤ rounds ≤ rounds_per_night`, `hand_outs ≤ outs ≤ max Outs per round × rounds`,
/// Julen at most [`MAX_JULEN_PER_ROUND`] per round, `lost ≤ rounds`; `points` (default: the
/// base) between the base and `joker_multiplier` × base, equal to the base without Joker; per
/// table at least 2 players and at most as many lost rounds as rounds played. Rows come back
/// sorted by table, in file order within a table.
pub(super) fn check_totals(
    cx: &NightCx<'_>,
    entry: &NightEntry,
) -> Result<Vec<TotalsRow>, EntryError> {
    let at_night = Location::night(entry.date);
    let mut rows: Vec<TotalsRow> = Vec::with_capacity(entry.totals.len());
    for row in &entry.totals {
        let checked = check_row(cx, &at_night, row, &rows)?;
        rows.push(checked);
    }
    rows.sort_by_key(|r| r.table);
    check_tables(&at_night, &rows)?;
    Ok(rows)
}

/// One totals `row` of the night at `at_night` (`rows`: those before it), checked as
/// [`check_totals`] says, with its `points` resolved.
fn check_row(
    cx: &NightCx<'_>,
    at_night: &Location,
    row: &TotalsEntry,
    rows: &[TotalsRow],
) -> Result<TotalsRow, EntryError> {
    let rpn = cx.rules.rounds_per_night;
    let max_outs = cx.max_outs;
    let name = known(cx.names, &row.player, at_night.clone())?;
    let at = at_night.clone().table(row.table).player(name);
    let refuse = |field: &str, why: String| Err(EntryError::new(at.clone().field(field), why));
    if !(1..=MAX_TABLES).contains(&row.table) {
        return refuse(
            "table",
            format!("Tischnummer muss 1 oder {MAX_TABLES} sein"),
        );
    }
    if let Some(drawn) = &cx.drawn {
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
    let points =
        check_points(cx, row).map_err(|why| EntryError::new(at.clone().field("points"), why))?;
    Ok(TotalsRow {
        player: name.to_string(),
        table: row.table,
        rounds: row.rounds,
        outs: row.outs,
        hand_outs: row.hand_outs,
        julen: row.julen,
        points,
        lost: row.lost,
    })
}

/// The counted Outs without Julen of totals `row`: its `points`, or the base of its Outs
/// ([`base_points_of`]) when not given; at least the base, at most `joker_multiplier` × base,
/// the base itself in a season without Joker. `Err` is the German why.
fn check_points(cx: &NightCx<'_>, row: &TotalsEntry) -> Result<i64, String> {
    let base = base_points_of(cx.rules, row.outs, row.hand_outs);
    let points = row.points.unwrap_or(base);
    if points < base {
        return Err(format!(
            "{points} gewertete Outs sind weniger als die Outs ergeben ({base})"
        ));
    }
    match cx.rules.joker_multiplier {
        None if points != base => Err(format!(
            "in der Saison {} gibt es keinen Joker: gewertete Outs müssen {base} \
             sein (hier {points})",
            cx.year
        )),
        Some(m) if points > base * m => Err(format!(
            "{points} gewertete Outs sind mehr als {m} × {base}: der Joker \
             vervielfacht höchstens die Outs einer Runde"
        )),
        _ => Ok(points),
    }
}

/// Each table's totals `rows` together (sorted by table): at least 2 players, and no more lost
/// rounds than the most rounds one of them played.
fn check_tables(at_night: &Location, rows: &[TotalsRow]) -> Result<(), EntryError> {
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
    Ok(())
}
