//! The Glücksfaktor (issue 10.7): for the rounds played in the Schockbesteck, a player's Schock Outs
//! against the number the rules engine expects from his Würfe (`rules::odds`, exact fractions).
//!
//! Each turn (one Wurfrunde he threw in, the Auswürfeln included) counts with the Würfe he used:
//! a turn of n Würfe adds the exact chance of a Schock Out within n Würfe under the Runde's rules
//! (1 Wurf 1/216, 2 Würfe 379/11664, 3 Würfe 54271/629856 under the league default, sixes turned).
//! The factor is thrown ÷ expected: 1 is average, above 1 luckier than the dice promise. Only
//! rounds confirmed from the Schockbesteck carry throws; rounds entered by hand count nothing.

use std::collections::BTreeMap;

use chrono::NaiveDate;

use crate::league::model::season::Season;
use crate::rules::odds::Fraction;

/// A player's Glücksfaktor figures over some rounds (one season, or a career summed).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Glueck {
    /// Rounds played in the Schockbesteck.
    pub runden: u32,
    /// Wurfrunden he threw in (turns).
    pub wurfrunden: u32,
    /// Würfe he used in them.
    pub wuerfe: u32,
    /// Schock Outs of every kind he threw.
    pub schock_outs: u32,
    /// The Schock Outs to expect from his turns (exact).
    pub expected: Fraction,
}

impl Glueck {
    /// The sum of two players' or seasons' figures; `None` when the expectation overflows u64
    /// (never for a real league: each denominator divides 6^9).
    pub fn plus(self, other: Glueck) -> Option<Glueck> {
        Some(Glueck {
            runden: self.runden + other.runden,
            wurfrunden: self.wurfrunden + other.wurfrunden,
            wuerfe: self.wuerfe + other.wuerfe,
            schock_outs: self.schock_outs + other.schock_outs,
            expected: self.expected.checked_add(other.expected)?,
        })
    }

    /// The Glücksfaktor: Schock Outs thrown ÷ expected, exact; `None` without a turn (nothing
    /// expected).
    pub fn factor(&self) -> Option<Fraction> {
        if self.expected.num() == 0 {
            return None;
        }
        Fraction::new(
            u64::from(self.schock_outs).checked_mul(self.expected.den())?,
            self.expected.num(),
        )
    }
}

/// Every player's Glücksfaktor figures in `season`, from its rounds with Schockbesteck throws, by
/// player name (canonical). Players without such a round are absent.
pub fn of_season(season: &Season) -> BTreeMap<String, Glueck> {
    of_season_until(season, None)
}

/// [`of_season`] from the nights on or before `as_of` only (`None`: every night), so that a page
/// read as of the club's today leaves out nights entered ahead of their day.
pub fn of_season_until(season: &Season, as_of: Option<NaiveDate>) -> BTreeMap<String, Glueck> {
    let mut out: BTreeMap<String, Glueck> = BTreeMap::new();
    let rounds = season
        .nights
        .iter()
        .filter(|n| as_of.is_none_or(|d| n.date <= d))
        .flat_map(|n| n.tables.iter())
        .flat_map(|t| t.rounds.iter());
    let replays = rounds.filter_map(|r| r.schockbesteck.as_ref().and_then(|b| b.replay().ok()));
    for replay in replays {
        for t in &replay.glueck {
            let g = Glueck {
                runden: 1,
                wurfrunden: t.wurfrunden(),
                wuerfe: t.wuerfe(),
                schock_outs: t.schock_outs,
                expected: t.expected,
            };
            let e = out.entry(t.player.clone()).or_default();
            *e = e.plus(g).unwrap_or(*e);
        }
    }
    out
}

/// `value` with two decimals and a decimal comma, rounded half up (exact integer arithmetic):
/// 54271/629856 → "0,09", 3/2 → "1,50".
pub fn two_decimals(value: Fraction) -> String {
    let (n, d) = (u128::from(value.num()), u128::from(value.den()));
    let hundredths = (n * 200 + d) / (2 * d);
    format!("{},{:02}", hundredths / 100, hundredths % 100)
}

/// The German sentence of `g`: "3 Schock Outs geworfen, erwartet 1,64 (aus 6 Runden im
/// Schockbesteck, 120 Wurfrunden, 250 Würfe)." `None` without a turn.
pub fn sentence(g: &Glueck) -> Option<String> {
    g.factor()?;
    let plural = |n: u32, one: &str, many: &str| {
        if n == 1 {
            format!("{n} {one}")
        } else {
            format!("{n} {many}")
        }
    };
    Some(format!(
        "{} geworfen, erwartet {} (aus {} im Schockbesteck, {}, {}).",
        plural(g.schock_outs, "Schock Out", "Schock Outs"),
        two_decimals(g.expected),
        plural(g.runden, "Runde", "Runden"),
        plural(g.wurfrunden, "Wurfrunde", "Wurfrunden"),
        plural(g.wuerfe, "Wurf", "Würfe"),
    ))
}

/// What the factor says, in German: at least 1,2 "Mehr Glück, als die Würfel versprechen.", at
/// most 0,8 "Weniger Glück, als die Würfel versprechen.", between "Etwa so viel Glück, wie die
/// Würfel versprechen."
pub fn verdict(factor: Fraction) -> &'static str {
    if factor >= Fraction::new(6, 5).unwrap_or(Fraction::ONE) {
        "Mehr Glück, als die Würfel versprechen."
    } else if factor <= Fraction::new(4, 5).unwrap_or(Fraction::ONE) {
        "Weniger Glück, als die Würfel versprechen."
    } else {
        "Etwa so viel Glück, wie die Würfel versprechen."
    }
}

#[cfg(test)]
mod tests;
