//! A Runde at one table (schocken-rules.md §7): Hälfte 1, Hälfte 2 and, when two different players
//! lost them, the Finale; the live-scoring state machine behind the secretary's Schockbesteck page.

use serde::{Deserialize, Serialize};

use super::classify::Class;
use super::error::RuleError;
use super::odds::{expected_schock_outs_with, Fraction};
use super::ruleset::RuleSet;
use super::wurfrunde::{evaluate_throws, DeckelState, ThrowInput, Transfer, WurfrundeResponse};

/// A part of a Runde.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Part {
    /// Hälfte 1, all players.
    Half1,
    /// Hälfte 2, all players.
    Half2,
    /// The Finale of the two half losers.
    Finale,
}

impl Part {
    /// The German name ("Hälfte 1", "Hälfte 2", "Finale").
    pub fn german(self) -> &'static str {
        match self {
            Part::Half1 => "Hälfte 1",
            Part::Half2 => "Hälfte 2",
            Part::Finale => "Finale",
        }
    }
}

/// One applied Wurfrunde as entered: the throws in throwing order and the Vorleger's "blind".
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AppliedWurfrunde {
    /// Throws in throwing order, from the Vorleger.
    pub throws: Vec<ThrowInput>,
    /// The Vorleger announced "blind".
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub blind: bool,
}

/// What a Runde is stored as: the players in seat order, the rules and the applied Wurfrunden. The
/// state is always rebuilt from it (see [`RundeState::replay`]).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RundeRecord {
    /// Player names in seat order.
    pub players: Vec<String>,
    /// The rules of the Runde.
    pub rules: RuleSet,
    /// The applied Wurfrunden, in order.
    pub wurfrunden: Vec<AppliedWurfrunde>,
}

/// A player's figures for the league (league.md §1): Schock Outs thrown, Hand-Outs among them,
/// Julen (from the hand), and whether he lost the Runde.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlayerTally {
    /// The player's name.
    pub player: String,
    /// Schock Outs thrown in this Runde, of every kind.
    pub outs: u32,
    /// Of those, Hand-Outs.
    pub hand_outs: u32,
    /// Julen thrown (a Jule is always from the hand).
    pub julen: u32,
    /// He lost the Runde (false while it is not finished).
    pub lost: bool,
    /// He played the Finale.
    pub played_finale: bool,
}

/// The result of applying one Wurfrunde: the evaluation (with `ends_half` = this Wurfrunde ended
/// its part), where the Deckel came from, the part it belonged to, who lost that part, who dropped
/// out, the next Vorleger and the Runde's loser once finished.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct WurfrundeOutcome {
    /// Results, order, H, L, Deckel; `ends_half` true when this Wurfrunde ended its part.
    pub evaluation: WurfrundeResponse,
    /// Where L's Deckel came from.
    pub transfer: Transfer,
    /// The part this Wurfrunde was played in.
    pub part: Part,
    /// It was the part's Auswürfeln (one Wurf each).
    pub auswuerfeln: bool,
    /// The part's loser, when it ended.
    pub part_loser: Option<String>,
    /// Players who dropped out of the part with this Wurfrunde (stock empty, no Deckel).
    pub newly_out: Vec<String>,
    /// The Vorleger of the next Wurfrunde (None when the Runde is finished).
    pub next_vorleger: Option<String>,
    /// The Runde's loser, when this Wurfrunde finished the Runde.
    pub runde_loser: Option<String>,
}

/// The live state of one Runde at a table (§6, §7). Build it with [`RundeState::new`], feed it
/// Wurfrunden with [`RundeState::apply`]; serialises as its [`RundeRecord`] and is rebuilt from it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(try_from = "RundeRecord", into = "RundeRecord")]
pub struct RundeState {
    players: Vec<String>,
    rules: RuleSet,
    applied: Vec<AppliedWurfrunde>,
    /// None once finished.
    part: Option<Part>,
    /// Seats playing the current part, in seat order.
    participants: Vec<usize>,
    deckel: DeckelState,
    vorleger: usize,
    auswuerfeln: bool,
    half_losers: Vec<usize>,
    finale_players: Vec<usize>,
    loser: Option<usize>,
    outs: Vec<u32>,
    hand_outs: Vec<u32>,
    julen: Vec<u32>,
    /// Per seat: turns (Würfe of one Wurfrunde) with 1, 2 and 3 Würfe used.
    turns: Vec<[u32; 3]>,
}

/// One player's throws of a Runde for the Glücksfaktor (odds module): his turns by Würfe used, the
/// Schock Outs he threw, and the Schock Outs to expect from those turns (exact, under the Runde's
/// rules; see [`crate::rules::odds::expected_schock_outs_with`]).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct GlueckTally {
    /// The player's name.
    pub player: String,
    /// Turns (one per Wurfrunde he threw in) with 1, 2 and 3 Würfe used.
    pub turns: [u32; 3],
    /// Schock Outs of every kind thrown in those turns.
    pub schock_outs: u32,
    /// The Schock Outs to expect from those turns.
    pub expected: Fraction,
}

impl GlueckTally {
    /// The Wurfrunden he threw in (Σ `turns`).
    pub fn wurfrunden(&self) -> u32 {
        self.turns.iter().sum()
    }

    /// The Würfe he used (1·turns[0] + 2·turns[1] + 3·turns[2]).
    pub fn wuerfe(&self) -> u32 {
        self.turns[0] + 2 * self.turns[1] + 3 * self.turns[2]
    }
}

impl RundeState {
    /// A new Runde: Hälfte 1 begins with the Auswürfeln, the first named player throwing first.
    /// Errors: fewer than two or more than [`crate::rules::MAX_PLAYERS`] players, an empty, too long
    /// (> [`crate::rules::MAX_NAME_CHARS`]) or repeated name, invalid rules.
    pub fn new(players_in_seat_order: Vec<String>, rules: RuleSet) -> Result<Self, RuleError> {
        rules.validate()?;
        let n = players_in_seat_order.len();
        if n < 2 {
            return Err(RuleError::Wurfrunde(
                "eine Runde braucht mindestens zwei Spieler".into(),
            ));
        }
        crate::rules::check_player_names(
            players_in_seat_order.iter().map(String::as_str),
            "Runde",
            |p| format!("Spieler {p} sitzt zweimal am Tisch"),
        )?;
        let total = rules.stock;
        Ok(RundeState {
            players: players_in_seat_order,
            rules,
            applied: Vec::new(),
            part: Some(Part::Half1),
            participants: (0..n).collect(),
            deckel: DeckelState::new(n, total),
            vorleger: 0,
            auswuerfeln: true,
            half_losers: Vec::new(),
            finale_players: Vec::new(),
            loser: None,
            outs: vec![0; n],
            hand_outs: vec![0; n],
            julen: vec![0; n],
            turns: vec![[0; 3]; n],
        })
    }

    /// Rebuilds a Runde by applying `wurfrunden` in order; the error of the first one that fails.
    pub fn replay(
        players_in_seat_order: Vec<String>,
        rules: RuleSet,
        wurfrunden: &[AppliedWurfrunde],
    ) -> Result<Self, RuleError> {
        let mut s = Self::new(players_in_seat_order, rules)?;
        for (i, w) in wurfrunden.iter().enumerate() {
            s.step(w.throws.clone(), w.blind, false)
                .map_err(|e| RuleError::Wurfrunde(format!("Wurfrunde {}: {e}", i + 1)))?;
        }
        Ok(s)
    }

    /// Removes the last applied Wurfrunde by replaying all but it, and returns it for correction.
    pub fn undo_last(&mut self) -> Result<Option<AppliedWurfrunde>, RuleError> {
        let mut all = self.applied.clone();
        let last = all.pop();
        if last.is_some() {
            *self = Self::replay(self.players.clone(), self.rules.clone(), &all)?;
        }
        Ok(last)
    }

    /// The stored form: players, rules, applied Wurfrunden.
    pub fn record(&self) -> RundeRecord {
        RundeRecord {
            players: self.players.clone(),
            rules: self.rules.clone(),
            wurfrunden: self.applied.clone(),
        }
    }

    /// Applies the next Wurfrunde (not blind). See [`RundeState::apply_blind`].
    pub fn apply(&mut self, throws: Vec<ThrowInput>) -> Result<WurfrundeOutcome, RuleError> {
        self.apply_blind(throws, false)
    }

    /// Applies the next Wurfrunde: `throws` must be exactly the players still in the current part, in
    /// seat order from the current Vorleger (Auswürfeln: one Wurf each). Moves the Deckel (§6), ends the
    /// part when one player holds all, starts the next part (§7). On `Err` nothing changes.
    pub fn apply_blind(
        &mut self,
        throws: Vec<ThrowInput>,
        blind: bool,
    ) -> Result<WurfrundeOutcome, RuleError> {
        // With `report` the step always gives its outcome.
        self.step(throws, blind, true)?
            .ok_or_else(|| RuleError::Wurfrunde("keine Auswertung".into()))
    }

    /// [`RundeState::apply_blind`]; with `report` false (a replay) the outcome for the page is not
    /// built (`None`), the state changes the same.
    fn step(
        &mut self,
        throws: Vec<ThrowInput>,
        blind: bool,
        report: bool,
    ) -> Result<Option<WurfrundeOutcome>, RuleError> {
        let part = self
            .part
            .ok_or_else(|| RuleError::Wurfrunde("die Runde ist schon beendet".into()))?;
        let expected = self.throwing_order();
        for (i, &seat) in expected.iter().enumerate() {
            let want = &self.players[seat];
            match throws.get(i) {
                Some(t) if &t.player == want => {}
                Some(t) => {
                    let why = if self.players.contains(&t.player) {
                        format!(
                            "{} ({}, Vorleger {})",
                            t.player,
                            self.seat_status(&t.player),
                            self.players[self.vorleger]
                        )
                    } else {
                        format!("{} (nicht am Tisch)", t.player)
                    };
                    return Err(RuleError::Wurfrunde(format!(
                        "als {}. wirft {want}, nicht {why}",
                        i + 1
                    )));
                }
                None => {
                    return Err(RuleError::Wurfrunde(format!(
                        "es fehlt der Wurf von {want} (als {}.)",
                        i + 1
                    )))
                }
            }
        }
        if let Some(extra) = throws.get(expected.len()) {
            return Err(RuleError::Wurfrunde(format!(
                "{} wirft in dieser Wurfrunde nicht mit",
                extra.player
            )));
        }
        let e = evaluate_throws(&throws, &self.rules, self.auswuerfeln, blind)?;

        // Accept: from here on nothing fails.
        let auswuerfeln = self.auswuerfeln;
        let h = expected[e.highest];
        let l = expected[e.lowest];
        for (i, (r, c)) in e.results.iter().enumerate() {
            let seat = expected[i];
            let w = usize::from(r.wuerfe.clamp(1, 3)) - 1;
            self.turns[seat][w] += 1;
            match c {
                Class::SchockOut => {
                    self.outs[seat] += 1;
                    if r.from_hand {
                        self.hand_outs[seat] += 1;
                    }
                }
                Class::Jule => self.julen[seat] += 1,
                _ => {}
            }
        }
        let was_out: Vec<bool> = (0..self.players.len())
            .map(|s| self.deckel.is_out(s))
            .collect();
        let transfer = self.deckel.apply(h, l, e.deckel);
        let newly_out: Vec<String> = if report {
            self.participants
                .iter()
                .filter(|&&s| self.deckel.is_out(s) && !was_out[s])
                .map(|&s| self.players[s].clone())
                .collect()
        } else {
            Vec::new()
        };
        self.applied.push(AppliedWurfrunde { throws, blind });
        self.auswuerfeln = false;
        self.vorleger = l;
        let part_loser = self.deckel.loser();
        if let Some(loser) = part_loser {
            self.end_part(part, loser);
        }
        if !report {
            return Ok(None);
        }
        let names: Vec<&str> = expected.iter().map(|&s| self.players[s].as_str()).collect();
        let evaluation = WurfrundeResponse::from_evaluated(&names, &e, part_loser.is_some());
        Ok(Some(WurfrundeOutcome {
            evaluation,
            transfer,
            part,
            auswuerfeln,
            part_loser: part_loser.map(|s| self.players[s].clone()),
            newly_out,
            next_vorleger: self.part.map(|_| self.players[self.vorleger].clone()),
            runde_loser: self.loser.map(|s| self.players[s].clone()),
        }))
    }

    fn seat_status(&self, player: &str) -> &'static str {
        let Some(seat) = self.players.iter().position(|p| p == player) else {
            return "nicht am Tisch";
        };
        if !self.participants.contains(&seat) {
            "spielt diesen Teil nicht"
        } else if self.deckel.is_out(seat) {
            "ausgeschieden"
        } else {
            "nicht an der Reihe"
        }
    }

    fn end_part(&mut self, part: Part, loser: usize) {
        let n = self.players.len();
        let next = match part {
            Part::Half1 => {
                self.half_losers.push(loser);
                Some(Part::Half2)
            }
            Part::Half2 => {
                self.half_losers.push(loser);
                if self.half_losers.first() == Some(&loser) {
                    self.loser = Some(loser);
                    None
                } else {
                    Some(Part::Finale)
                }
            }
            Part::Finale => {
                self.loser = Some(loser);
                None
            }
        };
        self.part = next;
        self.deckel = DeckelState::new(n, self.rules.stock);
        self.vorleger = loser;
        self.auswuerfeln = next.is_some();
        self.participants = match next {
            Some(Part::Finale) => {
                let mut f = self.half_losers.clone();
                f.sort_unstable();
                self.finale_players = f.clone();
                f
            }
            Some(_) => (0..n).collect(),
            None => Vec::new(),
        };
    }

    fn throwing_order(&self) -> Vec<usize> {
        let active: Vec<usize> = self
            .participants
            .iter()
            .copied()
            .filter(|&s| !self.deckel.is_out(s))
            .collect();
        let start = active.iter().position(|&s| s == self.vorleger).unwrap_or(0);
        active[start..]
            .iter()
            .chain(active[..start].iter())
            .copied()
            .collect()
    }

    /// Players in seat order.
    pub fn players(&self) -> &[String] {
        &self.players
    }

    /// The rules of this Runde.
    pub fn rules(&self) -> &RuleSet {
        &self.rules
    }

    /// The Wurfrunden applied so far, in order.
    pub fn wurfrunden(&self) -> &[AppliedWurfrunde] {
        &self.applied
    }

    /// Who throws next, in order (Vorleger first); empty once finished.
    pub fn next_throwers(&self) -> Vec<&str> {
        if self.part.is_none() {
            return Vec::new();
        }
        self.throwing_order()
            .into_iter()
            .map(|s| self.players[s].as_str())
            .collect()
    }

    /// The Vorleger of the next Wurfrunde; None once finished.
    pub fn vorleger(&self) -> Option<&str> {
        self.part.map(|_| self.players[self.vorleger].as_str())
    }

    /// The next Wurfrunde is a part's Auswürfeln (one Wurf each).
    pub fn is_auswuerfeln(&self) -> bool {
        self.part.is_some() && self.auswuerfeln
    }

    /// The current part; None once finished.
    pub fn part(&self) -> Option<Part> {
        self.part
    }

    /// Deckel held per player in the current part, in seat order (all 0 once finished).
    pub fn deckel(&self) -> Vec<(&str, u8)> {
        self.players
            .iter()
            .zip(&self.deckel.held)
            .map(|(p, &d)| (p.as_str(), d))
            .collect()
    }

    /// Deckel still in the stock of the current part.
    pub fn stock(&self) -> u8 {
        self.deckel.stock
    }

    /// Players of the current part who are out (stock empty, no Deckel), in seat order.
    pub fn out_players(&self) -> Vec<&str> {
        self.participants
            .iter()
            .filter(|&&s| self.deckel.is_out(s))
            .map(|&s| self.players[s].as_str())
            .collect()
    }

    /// Players of the current part (all for a half, the two finalists for the Finale), in seat order.
    pub fn part_players(&self) -> Vec<&str> {
        self.participants
            .iter()
            .map(|&s| self.players[s].as_str())
            .collect()
    }

    /// Losers of Hälfte 1 and Hälfte 2 so far.
    pub fn half_losers(&self) -> Vec<&str> {
        self.half_losers
            .iter()
            .map(|&s| self.players[s].as_str())
            .collect()
    }

    /// The Runde is over (one loser).
    pub fn is_finished(&self) -> bool {
        self.loser.is_some()
    }

    /// The Runde's loser (lost both halves, or the Finale).
    pub fn loser(&self) -> Option<&str> {
        self.loser.map(|s| self.players[s].as_str())
    }

    /// Per-player tallies for the league, in seat order (league.md §1).
    pub fn tallies(&self) -> Vec<PlayerTally> {
        (0..self.players.len())
            .map(|s| PlayerTally {
                player: self.players[s].clone(),
                outs: self.outs[s],
                hand_outs: self.hand_outs[s],
                julen: self.julen[s],
                lost: self.loser == Some(s),
                played_finale: self.finale_players.contains(&s),
            })
            .collect()
    }
}

impl RundeState {
    /// Per-player figures for the Glücksfaktor, in seat order: turns by Würfe used, Schock Outs
    /// thrown and the Schock Outs to expect from those turns under the Runde's rules (exact).
    pub fn glueck(&self) -> Vec<GlueckTally> {
        (0..self.players.len())
            .map(|s| {
                let t = self.turns[s];
                let throws: Vec<u8> = (1..=3u8)
                    .flat_map(|w| std::iter::repeat_n(w, t[usize::from(w) - 1] as usize))
                    .collect();
                GlueckTally {
                    player: self.players[s].clone(),
                    turns: t,
                    schock_outs: self.outs[s],
                    expected: expected_schock_outs_with(&self.rules, &throws),
                }
            })
            .collect()
    }
}

/// What replaying a [`RundeRecord`] gives (see [`PlayedRunde`]): whether the Runde has a loser, the
/// league tallies and the Glücksfaktor figures, both per player in seat order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Replay {
    /// The Runde has a loser.
    pub finished: bool,
    /// Per-player tallies for the league (league.md §1).
    pub tallies: Vec<PlayerTally>,
    /// Per-player Glücksfaktor figures.
    pub glueck: Vec<GlueckTally>,
}

#[derive(Debug)]
struct Played {
    record: RundeRecord,
    replay: std::sync::OnceLock<Result<Replay, String>>,
}

/// A played Runde as kept with a league round: its record, replayed at most once and shared. Clones
/// are cheap (one `Arc`) and share the replay, so a season checked again after a change does not
/// replay its unchanged Runden. Compared, serialised and deserialised as its [`RundeRecord`].
#[derive(Debug, Clone)]
pub struct PlayedRunde(std::sync::Arc<Played>);

impl PlayedRunde {
    /// `record`, to be replayed on first use.
    pub fn new(record: RundeRecord) -> PlayedRunde {
        PlayedRunde(std::sync::Arc::new(Played {
            record,
            replay: std::sync::OnceLock::new(),
        }))
    }

    /// The Runde `state` as played: its record with the replay already known (no second replay).
    pub fn of_state(state: &RundeState) -> PlayedRunde {
        let replay = std::sync::OnceLock::new();
        let _ = replay.set(Ok(Replay {
            finished: state.is_finished(),
            tallies: state.tallies(),
            glueck: state.glueck(),
        }));
        PlayedRunde(std::sync::Arc::new(Played {
            record: state.record(),
            replay,
        }))
    }

    /// The record: players in seat order, rules, Wurfrunden.
    pub fn record(&self) -> &RundeRecord {
        &self.0.record
    }

    /// The replay of the record, computed on first use. Errors: the German reason the engine
    /// refuses a Wurfrunde ("Wurfrunde 3: …") or the players.
    pub fn replay(&self) -> Result<&Replay, &str> {
        self.0
            .replay
            .get_or_init(|| {
                let r = &self.0.record;
                RundeState::replay(r.players.clone(), r.rules.clone(), &r.wurfrunden)
                    .map(|s| Replay {
                        finished: s.is_finished(),
                        tallies: s.tallies(),
                        glueck: s.glueck(),
                    })
                    .map_err(|e| e.to_string())
            })
            .as_ref()
            .map_err(String::as_str)
    }

    /// The same Runde with player `from` called `to` (see [`RundeRecord::renamed`]).
    pub fn renamed(&self, from: &str, to: &str) -> PlayedRunde {
        PlayedRunde::new(self.0.record.renamed(from, to))
    }
}

impl PartialEq for PlayedRunde {
    fn eq(&self, other: &Self) -> bool {
        std::sync::Arc::ptr_eq(&self.0, &other.0) || self.0.record == other.0.record
    }
}

impl Eq for PlayedRunde {}

impl Serialize for PlayedRunde {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.0.record.serialize(s)
    }
}

impl<'de> Deserialize<'de> for PlayedRunde {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        RundeRecord::deserialize(d).map(PlayedRunde::new)
    }
}

impl RundeRecord {
    /// The record with player `from` called `to` everywhere (seat order and every throw): a
    /// running Runde follows a renamed player.
    pub fn renamed(&self, from: &str, to: &str) -> RundeRecord {
        let name = |p: &String| if p == from { to.to_string() } else { p.clone() };
        RundeRecord {
            players: self.players.iter().map(name).collect(),
            rules: self.rules.clone(),
            wurfrunden: self
                .wurfrunden
                .iter()
                .map(|w| AppliedWurfrunde {
                    throws: w
                        .throws
                        .iter()
                        .map(|t| ThrowInput {
                            player: name(&t.player),
                            ..t.clone()
                        })
                        .collect(),
                    blind: w.blind,
                })
                .collect(),
        }
    }

    /// True when `player` plays in this Runde.
    pub fn has_player(&self, player: &str) -> bool {
        self.players.iter().any(|p| p == player)
    }
}

impl TryFrom<RundeRecord> for RundeState {
    type Error = RuleError;
    fn try_from(r: RundeRecord) -> Result<Self, Self::Error> {
        RundeState::replay(r.players, r.rules, &r.wurfrunden)
    }
}

impl From<RundeState> for RundeRecord {
    fn from(s: RundeState) -> Self {
        s.record()
    }
}

/// The most Schock Outs one player can throw in one Runde (league.md §1): every Schock Out ends
/// the part it is thrown in, under every RuleSet, so one per part: 2 without his Finale
/// (`Some(false)`), 3 with it (`Some(true)`), 3 when unknown (`None`).
pub fn max_outs_per_round(rules: &RuleSet, played_finale: Option<bool>) -> u32 {
    // No variant lets a Schock Out leave the half running; the rules are taken so that one would
    // change this limit here.
    let _ = rules;
    match played_finale {
        Some(false) => 2,
        Some(true) | None => 3,
    }
}

#[cfg(test)]
mod tests;
