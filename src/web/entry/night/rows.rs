//! What the night page's round forms are made of: the presence lines, a table's rows (blank, of
//! an entered round, of a correction), the rounds entered with their numbers, and the next
//! round's number. Re-exported by the night page (`night::*`).

use std::collections::BTreeMap;

use crate::league::change::{round_loser, round_outs_short, round_version};
use crate::league::{model::draw, Night, Round};
use crate::web::entry::round_input::RowInput;

/// A season player in the presence form.
pub struct PresentLine {
    /// `players.id`.
    pub id: i64,
    /// Name.
    pub name: String,
    /// Ticked as present.
    pub checked: bool,
}

/// The untouched rows of the players drawn to `table` of `night`, in seat order (`ids`: name →
/// `players.id`): played, 0 Outs, Hand-Outs and Julen, no Joker, not lost. What the round form
/// offers before anything is typed.
pub fn blank_rows(night: &Night, table: u32, ids: &BTreeMap<String, i64>) -> Vec<RowInput> {
    draw::table_players(&night.draw, table)
        .iter()
        .enumerate()
        .map(|(seat, name)| RowInput::blank(ids.get(name).copied().unwrap_or_default(), seat, name))
        .collect()
}

/// The rows of the players drawn to `table` of `night` filled with `round` as stored (`ids`: name
/// → `players.id`): who played it ticked, with Outs, Hand-Outs, Julen (0 shows empty, as in a
/// blank row), Joker and the loser; who did not play unticked. What a correction of the round
/// starts from (issue 31.11).
pub fn rows_of_round(
    night: &Night,
    table: u32,
    round: &Round,
    ids: &BTreeMap<String, i64>,
) -> Vec<RowInput> {
    let count = |n: u32| if n == 0 { String::new() } else { n.to_string() };
    draw::table_players(&night.draw, table)
        .iter()
        .enumerate()
        .map(|(seat, name)| {
            let blank = RowInput::blank(ids.get(name).copied().unwrap_or_default(), seat, name);
            match round.results.iter().find(|r| r.player == *name) {
                Some(r) => RowInput {
                    outs: count(r.outs),
                    hand_outs: count(r.hand_outs),
                    julen: count(r.julen),
                    joker: r.joker,
                    lost: r.lost,
                    ..blank
                },
                None => RowInput {
                    played: false,
                    ..blank
                },
            }
        })
        .collect()
}

/// The form values of a correction of round `number` at `table` of `night` as stored: the round
/// field, its rows ([`rows_of_round`]) and "Runde ersetzen" ticked; `None` when not entered.
pub fn correction_of(
    night: &Night,
    table: u32,
    number: u32,
    ids: &BTreeMap<String, i64>,
) -> Option<(String, Vec<RowInput>, bool)> {
    let round = night
        .tables
        .iter()
        .find(|t| t.number == table)?
        .rounds
        .iter()
        .find(|r| r.number == number)?;
    Some((
        number.to_string(),
        rows_of_round(night, table, round, ids),
        true,
    ))
}

/// The first round number 1..=`rounds_per_night` not among `rounds` and not `running` in the
/// Schockbesteck at that table (the last when all are): what the round form proposes next, so it
/// never offers a Runde that is being played throw by throw (issue 21.5).
pub fn next_round(rounds: &[EnteredRound], running: &[u32], rounds_per_night: u32) -> u32 {
    (1..=rounds_per_night)
        .find(|n| !rounds.iter().any(|r| r.number == *n) && !running.contains(n))
        .unwrap_or(rounds_per_night)
}

/// A round already entered at a table, compact for the secretary's page.
pub struct EnteredRound {
    /// Round number.
    pub number: u32,
    /// The loser's name.
    pub loser: String,
    /// Every row as "Name Outs" with Hand-Outs, Julen and Joker when set, comma-separated:
    /// "Anna 2 (1 Hand-Out), Bernd 0".
    pub outs: String,
    /// The round's version ([`round_version`]): the round form carries it (`stand_{number}`), so
    /// "Runde ersetzen" replaces only the round as the page showed it (issue 32.4).
    pub version: String,
    /// The round could move to the other table (`Change::MoveRound` would take it): nobody of it
    /// plays another round at this table, and the other table has no round of its number. The
    /// move button is offered only then (a round of drawn players can never move).
    pub movable: bool,
}

impl EnteredRound {
    /// The compact view of `round` (not movable).
    pub fn of(round: &Round) -> EnteredRound {
        EnteredRound {
            number: round.number,
            loser: round_loser(round).to_string(),
            outs: round_outs_short(round),
            version: round_version(round),
            movable: false,
        }
    }

    /// The view of `round` at table `here` of `night`, with whether it could move to `other`.
    pub fn at(round: &Round, night: &Night, here: u32, other: u32) -> EnteredRound {
        let rounds_at = |t: u32| {
            night
                .tables
                .iter()
                .filter(move |x| x.number == t)
                .flat_map(|x| x.rounds.iter())
        };
        let taken = rounds_at(other).any(|r| r.number == round.number);
        let plays_elsewhere_here = round.results.iter().any(|x| {
            rounds_at(here)
                .filter(|r| r.number != round.number)
                .any(|r| r.results.iter().any(|y| y.player == x.player))
        });
        EnteredRound {
            movable: !taken && !plays_elsewhere_here && here != other,
            ..EnteredRound::of(round)
        }
    }
}

/// The round form of one table.
pub struct TableForm {
    /// Table number.
    pub number: u32,
    /// The other table (a round entered here by mistake moves there).
    pub other: u32,
    /// The rounds entered at it, by number.
    pub rounds: Vec<EnteredRound>,
    /// "Runde ersetzen" ticked (only after a rejection).
    pub replace: bool,
    /// Round number field as typed (default: the next free one).
    pub round_input: String,
    /// Its players' rows.
    pub rows: Vec<RowInput>,
    /// The error of this form, if it was rejected.
    pub error: Option<String>,
    /// The rounds of this table running in the Schockbesteck (the form does not offer them).
    pub running: Vec<u32>,
    /// The round numbers entered or running at this table, comma-separated: the page's script
    /// proposes the next number not among them nor among the rounds waiting on the phone
    /// (issue 31.5).
    pub taken: String,
    /// The round field holds the page's proposal (not typed, not a correction).
    pub proposed: bool,
}

/// The round numbers of `rounds` and `running`, ascending and comma-separated ("1,2,5"): what
/// the round form's script must not propose.
pub fn taken_numbers(rounds: &[EnteredRound], running: &[u32]) -> String {
    let mut numbers: Vec<u32> = rounds
        .iter()
        .map(|r| r.number)
        .chain(running.iter().copied())
        .collect();
    numbers.sort_unstable();
    numbers.dedup();
    numbers
        .iter()
        .map(u32::to_string)
        .collect::<Vec<_>>()
        .join(",")
}

/// What is still open before a night is closed, in German: tables with fewer rounds than the
/// season plays ("Tisch 1: 5 von 10 Runden eingetragen") and Runden still running in the
/// Schockbesteck ("Tisch 2: Runde 5 läuft noch im Schockbesteck").
pub fn open_items(
    tables: &[(u32, usize)],
    rounds_per_night: u32,
    running: &[(u32, u32)],
) -> Vec<String> {
    let mut items: Vec<String> = tables
        .iter()
        .filter(|(_, n)| *n < rounds_per_night as usize)
        .map(|(t, n)| format!("Tisch {t}: {n} von {rounds_per_night} Runden eingetragen"))
        .collect();
    items.extend(
        running
            .iter()
            .map(|(t, r)| format!("Tisch {t}: Runde {r} läuft noch im Schockbesteck")),
    );
    items
}
