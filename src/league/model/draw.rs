//! The draw of a Spielabend (league.md §9) and the seat order of a Runde: who sits at which table,
//! drawn by lot from 10 participants on, and where a Runde starts (the Vorleger). Pure functions;
//! the random source is the caller's (a CSPRNG in production, a seeded one in tests).

use rand::seq::SliceRandom;
use rand::Rng;

use super::file::SeatEntry;
use super::season::{Table, TotalsRow};

/// The draw by lot of league.md §9: with at least `split_from` participants they are shuffled with
/// `rng` and split into table 1 (the larger half) and table 2, sizes differing by at most one;
/// fewer play at table 1 in the given order. Returns the seats, table 1 first, in seat order.
pub fn by_lot<R: Rng + ?Sized>(players: &[String], split_from: u32, rng: &mut R) -> Vec<SeatEntry> {
    let mut players = players.to_vec();
    if players.len() < split_from as usize {
        return players
            .into_iter()
            .map(|player| SeatEntry { player, table: 1 })
            .collect();
    }
    players.shuffle(rng);
    let first = players.len().div_ceil(2);
    players
        .into_iter()
        .enumerate()
        .map(|(i, player)| SeatEntry {
            player,
            table: if i < first { 1 } else { 2 },
        })
        .collect()
}

/// The table a newcomer sits at when the secretary does not choose (league.md §9, a late arrival):
/// the table of `draw` with fewer players; a tie goes to the higher table number; a night without a
/// draw starts table 1.
pub fn table_for_newcomer(draw: &[SeatEntry]) -> u32 {
    let mut tables: Vec<u32> = draw.iter().map(|s| s.table).collect();
    tables.sort_unstable();
    tables.dedup();
    let count = |t: u32| draw.iter().filter(|s| s.table == t).count();
    tables
        .iter()
        .copied()
        .min_by_key(|t| (count(*t), std::cmp::Reverse(*t)))
        .unwrap_or(1)
}

/// `draw` with `player` seated at `table` (his last seat there); `None`: at
/// [`table_for_newcomer`]. A player already drawn keeps his seat.
pub fn seat(draw: &[SeatEntry], player: &str, table: Option<u32>) -> Vec<SeatEntry> {
    let mut out = draw.to_vec();
    if out.iter().any(|s| s.player == player) {
        return out;
    }
    let table = table.unwrap_or_else(|| table_for_newcomer(draw));
    let at = out
        .iter()
        .rposition(|s| s.table <= table)
        .map_or(0, |k| k + 1);
    out.insert(
        at,
        SeatEntry {
            player: player.to_string(),
            table,
        },
    );
    out
}

/// The draw after the presence form: the players ticked `present` against the `current` draw.
/// Without a current draw, or when the secretary asked for it (`redraw`), a new draw by lot
/// ([`by_lot`]); else nobody moves: who is no longer ticked leaves, every newcomer is seated by
/// [`seat`] in the order given.
pub fn update<R: Rng + ?Sized>(
    current: &[SeatEntry],
    present: &[String],
    split_from: u32,
    redraw: bool,
    rng: &mut R,
) -> Vec<SeatEntry> {
    if current.is_empty() || redraw {
        return by_lot(present, split_from, rng);
    }
    let mut draw: Vec<SeatEntry> = current
        .iter()
        .filter(|s| present.contains(&s.player))
        .cloned()
        .collect();
    for p in present {
        draw = seat(&draw, p, None);
    }
    draw
}

/// The draw that the rows of `tables` show: each table's players in the order they first play
/// (table by table, round by round). A night entered without a draw (an imported season file) has
/// this draw.
pub fn derive_draw(tables: &[Table]) -> Vec<SeatEntry> {
    let mut draw: Vec<SeatEntry> = Vec::new();
    for t in tables {
        for row in t.rounds.iter().flat_map(|r| &r.results) {
            if !draw.iter().any(|s| s.player == row.player) {
                draw.push(SeatEntry {
                    player: row.player.clone(),
                    table: t.number,
                });
            }
        }
    }
    draw
}

/// The draw that a night's rows show: [`derive_draw`] of its rounds, then the players of its
/// totals rows (a night recorded as totals) at their tables in row order.
pub fn derive_draw_of(tables: &[Table], totals: &[TotalsRow]) -> Vec<SeatEntry> {
    let mut draw = derive_draw(tables);
    for t in totals {
        if !draw.iter().any(|s| s.player == t.player) {
            draw.push(SeatEntry {
                player: t.player.clone(),
                table: t.table,
            });
        }
    }
    draw
}

/// Makes `draw` agree with the rows of `tables` (the rows win): a player with a row who is not in
/// the draw, or drawn to another table, is seated at his row's table after its last seat. For data
/// stored before every row was checked against the draw.
pub fn reconcile(draw: &mut Vec<SeatEntry>, tables: &[super::file::TableEntry]) {
    for t in tables {
        for row in t.rounds.iter().flat_map(|r| &r.results) {
            match draw.iter().position(|s| s.player == row.player) {
                Some(k) if draw[k].table == t.number => {}
                found => {
                    if let Some(k) = found {
                        draw.remove(k);
                    }
                    let at = draw
                        .iter()
                        .rposition(|s| s.table <= t.number)
                        .map_or(0, |k| k + 1);
                    draw.insert(
                        at,
                        SeatEntry {
                            player: row.player.clone(),
                            table: t.number,
                        },
                    );
                }
            }
        }
    }
}

/// The players of table `table` in seat order.
pub fn table_players(draw: &[SeatEntry], table: u32) -> Vec<String> {
    draw.iter()
        .filter(|s| s.table == table)
        .map(|s| s.player.clone())
        .collect()
}

/// The late arrivals of a table (league.md §9: seated after its first round): each player of
/// `seated` (the table's players in seat order) whose first row at `table` comes after the
/// table's first round, with that round's number, in seat order. A drawn player who has not
/// played yet is none of them. E.g. `[("Kurt", 3)]`.
pub fn joined_later(table: &Table, seated: &[String]) -> Vec<(String, u32)> {
    let Some(first) = table.rounds.iter().map(|r| r.number).min() else {
        return Vec::new();
    };
    seated
        .iter()
        .filter_map(|p| {
            let from = table
                .rounds
                .iter()
                .filter(|r| r.results.iter().any(|x| x.player == *p))
                .map(|r| r.number)
                .min()?;
            (from > first).then(|| (p.clone(), from))
        })
        .collect()
}

/// The seat order of a Runde (schocken-rules.md §6): the table's players in seat order starting with
/// `vorleger`, only those `ticked` as playing. A Vorleger who does not play leaves the order as drawn.
pub fn seat_order(table_players: &[String], ticked: &[&str], vorleger: &str) -> Vec<String> {
    let playing: Vec<String> = table_players
        .iter()
        .filter(|p| ticked.contains(&p.as_str()))
        .cloned()
        .collect();
    match playing.iter().position(|p| p == vorleger) {
        Some(k) => playing[k..].iter().chain(&playing[..k]).cloned().collect(),
        None => playing,
    }
}

#[cfg(test)]
mod tests;
