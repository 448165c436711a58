//! The night's moments (issue 38.4): every Schock Out, Hand-Out and Jule of its entered rounds,
//! each with a key that stays the same while its round does, for the live board's "Schock Out!
//! Anna" and its line "Zuletzt: Schock Out von Anna (Runde 4)" without JavaScript.

use serde::Serialize;

use crate::league::model::season::Night;

/// What was thrown.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum MomentKind {
    /// A Schock Out thrown in two or three throws.
    SchockOut,
    /// A Schock Out out of the hand (in one throw).
    HandOut,
    /// A Jule.
    Jule,
}

/// One Schock Out, Hand-Out or Jule of a round.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Moment {
    /// Stable while the round holds it: `t1-r4-Anna-hand-1` (table, round, player, kind, the
    /// how-many-th of his in that round).
    pub key: String,
    /// The table.
    pub table: u32,
    /// The round's number.
    pub round: u32,
    /// Who threw it.
    pub player: String,
    /// What.
    pub kind: MomentKind,
}

impl Moment {
    /// The shout of the live board: "Schock Out! Anna", "Schock Out aus der Hand! Anna",
    /// "Jule! Anna".
    pub fn shout(&self) -> String {
        let what = match self.kind {
            MomentKind::SchockOut => "Schock Out!",
            MomentKind::HandOut => "Schock Out aus der Hand!",
            MomentKind::Jule => "Jule!",
        };
        format!("{what} {}", self.player)
    }

    /// The line without JavaScript: "Zuletzt: Schock Out von Anna (Runde 4)", "Zuletzt: Schock
    /// Out aus der Hand von Anna (Runde 4)", "Zuletzt: Jule von Anna (Runde 4)"; with " an Tisch
    /// 2" when the night has two tables (`tables` > 1).
    pub fn last_line(&self, tables: usize) -> String {
        let what = match self.kind {
            MomentKind::SchockOut => "Schock Out",
            MomentKind::HandOut => "Schock Out aus der Hand",
            MomentKind::Jule => "Jule",
        };
        let at = if tables > 1 {
            format!(", Tisch {}", self.table)
        } else {
            String::new()
        };
        format!(
            "Zuletzt: {what} von {} (Runde {}{at})",
            self.player, self.round
        )
    }
}

/// One player's counts so far in a Runde the Schockbesteck is playing (not stored as a round
/// yet): its moments get the keys the stored round will give them, so confirming the Runde with
/// the same counts shouts nothing twice.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Running {
    /// The table.
    pub table: u32,
    /// The round's number.
    pub round: u32,
    /// The player.
    pub player: String,
    /// Schock Outs so far (Hand-Outs included).
    pub outs: u32,
    /// Of those, Hand-Outs.
    pub hand_outs: u32,
    /// Julen so far.
    pub julen: u32,
}

/// The moments of `night`'s entered rounds, in the order they were played as far as the rounds
/// tell: by round number, then table, then the round's rows; per row its Hand-Outs, its other
/// Schock Outs (`outs` − `hand_outs`), its Julen. A night recorded as totals has none.
pub fn moments(night: &Night) -> Vec<Moment> {
    moments_with(night, &[])
}

/// [`moments`] and those of the Runden the Schockbesteck plays (`running`, a round not stored at
/// its table yet; one already stored there counts as stored), in the same order.
pub fn moments_with(night: &Night, running: &[Running]) -> Vec<Moment> {
    // (round, table, player, outs, hand_outs, julen), stored rows first within a round.
    let mut rows: Vec<(u32, u32, &str, u32, u32, u32)> = night
        .tables
        .iter()
        .flat_map(|t| {
            t.rounds.iter().flat_map(move |r| {
                r.results.iter().map(move |x| {
                    (
                        r.number,
                        t.number,
                        x.player.as_str(),
                        x.outs,
                        x.hand_outs,
                        x.julen,
                    )
                })
            })
        })
        .collect();
    let stored = |table: u32, round: u32| {
        night
            .tables
            .iter()
            .any(|t| t.number == table && t.rounds.iter().any(|r| r.number == round))
    };
    rows.extend(
        running
            .iter()
            .filter(|r| !stored(r.table, r.round))
            .map(|r| {
                (
                    r.round,
                    r.table,
                    r.player.as_str(),
                    r.outs,
                    r.hand_outs,
                    r.julen,
                )
            }),
    );
    rows.sort_by_key(|(number, table, ..)| (*number, *table));
    let mut out = Vec::new();
    for (number, table, player, outs, hand_outs, julen) in rows {
        let kinds = [
            (MomentKind::HandOut, "hand", hand_outs),
            (MomentKind::SchockOut, "out", outs.saturating_sub(hand_outs)),
            (MomentKind::Jule, "jule", julen),
        ];
        for (kind, tag, n) in kinds {
            for i in 1..=n {
                out.push(Moment {
                    key: format!("t{table}-r{number}-{player}-{tag}-{i}"),
                    table,
                    round: number,
                    player: player.to_string(),
                    kind,
                });
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::league::testkit::{row, season, season_json};

    #[test]
    fn moments_come_per_out_hand_out_and_jule_in_round_order() {
        let rounds = |first: serde_json::Value, second: serde_json::Value| json!([{ "number": 1, "results": first }, { "number": 2, "results": second }]);
        // Ten players, five a table; the three others of each table throw nothing.
        let quiet = |names: [&str; 3]| names.map(|n| row(n, 0, 0, 0, false, false));
        let table = |rows: [serde_json::Value; 2], names: [&str; 3]| {
            let mut all = rows.to_vec();
            all.extend(quiet(names));
            serde_json::Value::Array(all)
        };
        let (one, two) = (["Eva", "Fritz", "Gabi"], ["Hans", "Ida", "Jan"]);
        let night = json!({ "date": "2026-01-09", "fines": [], "tables": [
            { "number": 1, "rounds": rounds(
                table([row("Anna", 2, 1, 1, false, false), row("Bernd", 0, 0, 0, false, true)], one),
                table([row("Anna", 0, 0, 0, false, true), row("Bernd", 1, 0, 0, false, false)], one)) },
            { "number": 2, "rounds": rounds(
                table([row("Carla", 0, 0, 2, false, false), row("Dirk", 0, 0, 0, false, true)], two),
                table([row("Carla", 0, 0, 0, false, true), row("Dirk", 0, 0, 0, false, false)], two)) },
        ]});
        let names = [
            "Anna", "Bernd", "Carla", "Dirk", "Eva", "Fritz", "Gabi", "Hans", "Ida", "Jan",
        ];
        let players: Vec<(&str, Option<&str>)> = names.iter().map(|n| (*n, None)).collect();
        let s = season(season_json(2026, &players, vec![night]));
        let got: Vec<(String, String)> = moments(&s.nights[0])
            .iter()
            .map(|m| (m.key.clone(), m.shout()))
            .collect();
        let want = [
            ("t1-r1-Anna-hand-1", "Schock Out aus der Hand! Anna"),
            ("t1-r1-Anna-out-1", "Schock Out! Anna"),
            ("t1-r1-Anna-jule-1", "Jule! Anna"),
            ("t2-r1-Carla-jule-1", "Jule! Carla"),
            ("t2-r1-Carla-jule-2", "Jule! Carla"),
            ("t1-r2-Bernd-out-1", "Schock Out! Bernd"),
        ];
        let want: Vec<(String, String)> = want
            .iter()
            .map(|(k, t)| (k.to_string(), t.to_string()))
            .collect();
        assert_eq!(got, want);
        let last = moments(&s.nights[0]).pop().unwrap();
        assert_eq!(
            last.last_line(2),
            "Zuletzt: Schock Out von Bernd (Runde 2, Tisch 1)"
        );
        assert_eq!(last.last_line(1), "Zuletzt: Schock Out von Bernd (Runde 2)");
        // A Runde of the Schockbesteck at table 2, round 3: its Hand-Out so far; one at table 1,
        // round 2 is stored already and adds nothing.
        let running = |table, round, hand_outs| Running {
            table,
            round,
            player: "Carla".into(),
            outs: hand_outs,
            hand_outs,
            julen: 0,
        };
        let with = moments_with(&s.nights[0], &[running(2, 3, 1), running(1, 2, 2)]);
        assert_eq!(with.len(), 7);
        assert_eq!(with[6].key, "t2-r3-Carla-hand-1");
        assert_eq!(with[6].shout(), "Schock Out aus der Hand! Carla");
    }
}
