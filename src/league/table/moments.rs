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

/// The moments of `night`'s entered rounds, in the order they were played as far as the rounds
/// tell: by round number, then table, then the round's rows; per row its Hand-Outs, its other
/// Schock Outs (`outs` − `hand_outs`), its Julen. A night recorded as totals has none.
pub fn moments(night: &Night) -> Vec<Moment> {
    let mut rounds: Vec<(u32, u32, &crate::league::model::season::Round)> = night
        .tables
        .iter()
        .flat_map(|t| t.rounds.iter().map(move |r| (r.number, t.number, r)))
        .collect();
    rounds.sort_by_key(|(number, table, _)| (*number, *table));
    let mut out = Vec::new();
    for (number, table, round) in rounds {
        for row in &round.results {
            let kinds = [
                (MomentKind::HandOut, "hand", row.hand_outs),
                (
                    MomentKind::SchockOut,
                    "out",
                    row.outs.saturating_sub(row.hand_outs),
                ),
                (MomentKind::Jule, "jule", row.julen),
            ];
            for (kind, tag, n) in kinds {
                for i in 1..=n {
                    out.push(Moment {
                        key: format!("t{table}-r{number}-{}-{tag}-{i}", row.player),
                        table,
                        round: number,
                        player: row.player.clone(),
                        kind,
                    });
                }
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
    }
}
