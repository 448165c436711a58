//! One Wurfrunde (schocken-rules.md §6) and the stateless Wurfrunde contract of interchange.md
//! (`POST /api/v1/wurfrunde`, `schockerliga wurfrunde FILE`).

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::classify::{classify_result, Class, ClassKind, Deckel};
use super::dice::ThrowResult;
use super::error::{RuleError, ThrowProblem};
use super::order::{order, Ranked};
use super::ruleset::RuleSet;
use super::sequence::{validate_final, validate_sequence, Allowance, SequenceError, WurfInput};

/// One player's throw as entered: either the final `dice` with `wuerfe` (1..=3) and `from_hand`
/// (default: true iff `wuerfe` is 1), or the full `sequence` of Würfe. An optional `class` is a claim
/// (e.g. "jule") that is checked against the result.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ThrowInput {
    /// The player's name.
    pub player: String,
    /// Final dice (three values 1..=6), with `wuerfe`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dice: Option<Vec<i64>>,
    /// Würfe used, 1..=3, with `dice`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub wuerfe: Option<i64>,
    /// Claimed from the hand; with `dice` the default is `wuerfe == 1`, with `sequence` it is checked.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub from_hand: Option<bool>,
    /// The Würfe in order, instead of `dice`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sequence: Option<Vec<WurfInput>>,
    /// Claimed class, checked against the result.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub class: Option<ClassKind>,
}

impl ThrowInput {
    /// A throw given as final dice with Würfe and from_hand.
    pub fn from_dice(player: &str, dice: [u8; 3], wuerfe: u8, from_hand: bool) -> Self {
        ThrowInput {
            player: player.to_string(),
            dice: Some(dice.iter().map(|&d| i64::from(d)).collect()),
            wuerfe: Some(i64::from(wuerfe)),
            from_hand: Some(from_hand),
            sequence: None,
            class: None,
        }
    }

    /// A throw given as its sequence of Würfe.
    pub fn from_sequence(player: &str, sequence: Vec<WurfInput>) -> Self {
        ThrowInput {
            player: player.to_string(),
            dice: None,
            wuerfe: None,
            from_hand: None,
            sequence: Some(sequence),
            class: None,
        }
    }

    /// Validates this throw under `allowance` and `rules` (§5) and classifies it (§2). Errors name
    /// the player, the Wurf and the rule.
    pub fn resolve(
        &self,
        allowance: Allowance,
        rules: &RuleSet,
    ) -> Result<(ThrowResult, Class), RuleError> {
        let wrap = |e: SequenceError| RuleError::Throw {
            player: self.player.clone(),
            wurf: e.wurf,
            problem: e.problem,
        };
        let whole = |problem: ThrowProblem| RuleError::Throw {
            player: self.player.clone(),
            wurf: None,
            problem,
        };
        let result = match (&self.dice, &self.sequence) {
            (Some(_), Some(_)) => return Err(whole(ThrowProblem::BothForms)),
            (None, None) => return Err(whole(ThrowProblem::NoForm)),
            (Some(dice), None) => {
                let wuerfe = self
                    .wuerfe
                    .ok_or_else(|| whole(ThrowProblem::MissingWuerfe))?;
                validate_final(dice, wuerfe, self.from_hand, allowance).map_err(wrap)?
            }
            (None, Some(seq)) => {
                if self.wuerfe.is_some() {
                    return Err(whole(ThrowProblem::BothForms));
                }
                let r = validate_sequence(seq, allowance, rules).map_err(wrap)?;
                if let Some(claim) = self.from_hand {
                    if claim != r.from_hand {
                        return Err(RuleError::Throw {
                            player: self.player.clone(),
                            wurf: Some(r.wuerfe),
                            problem: ThrowProblem::FromHandClaim(claim),
                        });
                    }
                }
                r
            }
        };
        let class = classify_result(&result, rules);
        if let Some(claimed) = self.class {
            if claimed != class.kind() {
                return Err(RuleError::Throw {
                    player: self.player.clone(),
                    wurf: Some(result.wuerfe),
                    problem: ThrowProblem::ClassClaim {
                        claimed,
                        actual: class.label(),
                    },
                });
            }
        }
        Ok((result, class))
    }
}

/// A Wurfrunde evaluated without Deckel state: results in throwing order, the order (indices,
/// highest first), H and L (indices), and the Deckel H costs L (doubled when `blind`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Evaluated {
    /// Each thrower's result and class, in throwing order (0 = Vorleger).
    pub results: Vec<(ThrowResult, Class)>,
    /// Indices into `results`, highest first.
    pub order: Vec<usize>,
    /// Index of the highest result H.
    pub highest: usize,
    /// Index of the lowest result L.
    pub lowest: usize,
    /// What H costs L: `All` for a Schock Out, else `deckel(H)` (×2 when blind).
    pub deckel: Deckel,
}

/// The Deckel a highest result costs (§6) with the variants' default counts ([`Class::deckel`]),
/// doubled when `blind`. Under a RuleSet use [`deckel_under`].
pub fn deckel_for(highest: Class, blind: bool) -> Deckel {
    doubled(highest.deckel(), blind)
}

/// The Deckel a highest result costs under `rules` (§6): [`Class::deckel_with`] (the RuleSet's
/// Neuner and Achter counts), doubled when `blind`; a Schock Out stays "all".
pub fn deckel_under(highest: Class, rules: &RuleSet, blind: bool) -> Deckel {
    doubled(highest.deckel_with(rules), blind)
}

fn doubled(deckel: Deckel, blind: bool) -> Deckel {
    match deckel {
        Deckel::All => Deckel::All,
        Deckel::Count(n) if blind => Deckel::Count(n.saturating_mul(2)),
        d => d,
    }
}

/// Finds H, L and the Deckel for already validated results in throwing order (§3, §6). Needs at
/// least two results; `None` otherwise.
pub fn rank_results(
    results: Vec<(ThrowResult, Class)>,
    rules: &RuleSet,
    blind: bool,
) -> Option<Evaluated> {
    if results.len() < 2 {
        return None;
    }
    let ranked: Vec<Ranked> = results
        .iter()
        .enumerate()
        .map(|(i, (r, c))| Ranked::new(r, *c, i))
        .collect();
    let order = order(&ranked, rules);
    let highest = *order.first()?;
    let lowest = *order.last()?;
    let deckel = deckel_under(results[highest].1, rules, blind);
    Some(Evaluated {
        results,
        order,
        highest,
        lowest,
        deckel,
    })
}

/// Validates and evaluates the throws of one Wurfrunde in throwing order (first = Vorleger, whose
/// Würfe fix the others' limit; `auswuerfeln`: one Wurf each). Errors: fewer than two throws, more
/// than [`crate::rules::MAX_PLAYERS`], an empty, too long or repeated player name, `blind` without the variant, any throw error of §5.
pub fn evaluate_throws(
    throws: &[ThrowInput],
    rules: &RuleSet,
    auswuerfeln: bool,
    blind: bool,
) -> Result<Evaluated, RuleError> {
    if throws.len() < 2 {
        return Err(RuleError::Wurfrunde(
            "eine Wurfrunde braucht mindestens zwei Spieler".into(),
        ));
    }
    crate::rules::check_player_names(throws.iter().map(|t| t.player.as_str()), "Wurfrunde", |p| {
        format!("Spieler {p} wirft zweimal in derselben Wurfrunde")
    })?;
    if blind && !rules.blind {
        return Err(RuleError::Wurfrunde(
            "„blind“ ist nach diesen Regeln nicht erlaubt".into(),
        ));
    }
    let mut results = Vec::with_capacity(throws.len());
    let mut allowance = if auswuerfeln {
        Allowance::Auswuerfeln
    } else {
        Allowance::Vorleger(rules.max_throws)
    };
    for (i, t) in throws.iter().enumerate() {
        let (r, c) = t.resolve(allowance, rules)?;
        if i == 0 && !auswuerfeln {
            allowance = Allowance::Following(r.wuerfe);
        }
        results.push((r, c));
    }
    rank_results(results, rules, blind).ok_or_else(|| {
        RuleError::Wurfrunde("eine Wurfrunde braucht mindestens zwei Spieler".into())
    })
}

/// Where the Deckel of a Wurfrunde came from (§6).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "from", content = "count")]
pub enum Transfer {
    /// Schock Out: L took every Deckel of the half.
    All,
    /// L took this many from the stock.
    Stock(u8),
    /// The stock was empty: L took this many from H's player.
    Player(u8),
}

/// The Deckel of one half or Finale: the stock and what each seat holds (§6). Seats that do not play
/// this part simply hold 0 and are never asked to throw.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DeckelState {
    /// Deckel still in the stock.
    pub stock: u8,
    /// Deckel held, per seat.
    pub held: Vec<u8>,
    /// All Deckel of the part (the RuleSet's `stock`).
    pub total: u8,
}

impl DeckelState {
    /// A fresh part for `seats` seats with `total` Deckel in the stock.
    pub fn new(seats: usize, total: u8) -> Self {
        DeckelState {
            stock: total,
            held: vec![0; seats],
            total,
        }
    }

    /// Moves Deckel to L's seat `lowest` (§6): all on a Schock Out; else `min(n, stock)` from the
    /// stock while it holds any, then `min(n, held by H)` from H's seat `highest`.
    pub fn apply(&mut self, highest: usize, lowest: usize, deckel: Deckel) -> Transfer {
        match deckel {
            Deckel::All => {
                for h in self.held.iter_mut() {
                    *h = 0;
                }
                self.stock = 0;
                if let Some(l) = self.held.get_mut(lowest) {
                    *l = self.total;
                }
                Transfer::All
            }
            Deckel::Count(n) if self.stock > 0 => {
                let k = n.min(self.stock);
                self.stock -= k;
                if let Some(l) = self.held.get_mut(lowest) {
                    *l = l.saturating_add(k);
                }
                Transfer::Stock(k)
            }
            Deckel::Count(n) => {
                let k = n.min(self.held.get(highest).copied().unwrap_or(0));
                if highest != lowest {
                    if let Some(h) = self.held.get_mut(highest) {
                        *h -= k;
                    }
                    if let Some(l) = self.held.get_mut(lowest) {
                        *l = l.saturating_add(k);
                    }
                }
                Transfer::Player(k)
            }
        }
    }

    /// Out of this part: the stock is empty and the seat holds no Deckel (§6).
    pub fn is_out(&self, seat: usize) -> bool {
        self.stock == 0 && self.held.get(seat).copied().unwrap_or(0) == 0
    }

    /// The seat holding all Deckel (the part's loser), if any.
    pub fn loser(&self) -> Option<usize> {
        self.held.iter().position(|&h| h == self.total)
    }
}

/// The stateless Wurfrunde request of interchange.md: `rules` (a preset name or an object of RuleSet
/// fields, default `schockerliga`), `throws` in seat order from the Vorleger, optional `blind`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WurfrundeRequest {
    /// A preset name or an object of RuleSet fields with optional `"preset"`.
    #[serde(default)]
    pub rules: Value,
    /// The throws in seat order; the first is the Vorleger.
    pub throws: Vec<ThrowInput>,
    /// The Vorleger announced "blind" (only with the `blind` variant).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub blind: bool,
}

/// One evaluated throw of the response: dice highest first, Würfe, from_hand, interchange class,
/// value (see [`Class::value`]) and German label.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ResultView {
    /// The player's name.
    pub player: String,
    /// Final dice, highest first.
    pub dice: [u8; 3],
    /// Würfe used.
    pub wuerfe: u8,
    /// From the hand.
    pub from_hand: bool,
    /// Interchange class name.
    pub class: ClassKind,
    /// n of Schock/General, top die of a Straße, number of a Hausnummer, else null.
    pub value: Option<u16>,
    /// German label, e.g. "Schock 5".
    pub label: String,
}

/// The Wurfrunde response of interchange.md: results in throwing order, player names highest first,
/// H and L, the Deckel (a number or "all") and whether the Wurfrunde ends the half.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct WurfrundeResponse {
    /// Results in throwing order.
    pub results: Vec<ResultView>,
    /// Player names, highest result first.
    pub order: Vec<String>,
    /// The player with the highest result.
    pub highest: String,
    /// The player with the lowest result (he takes the Deckel).
    pub lowest: String,
    /// Deckel the lowest takes: a number or "all".
    pub deckel: Deckel,
    /// The Wurfrunde ends the half. Evaluated without state this is true exactly for a Schock Out
    /// (which ends any half); [`crate::rules::RundeState`] also ends a half when one player holds all.
    pub ends_half: bool,
}

impl WurfrundeResponse {
    /// Builds the response view of an evaluation; `names` are the players in throwing order.
    pub fn from_evaluated(names: &[&str], e: &Evaluated, ends_half: bool) -> Self {
        let name = |i: usize| names.get(i).map(|s| s.to_string()).unwrap_or_default();
        WurfrundeResponse {
            results: e
                .results
                .iter()
                .enumerate()
                .map(|(i, (r, c))| ResultView {
                    player: name(i),
                    dice: r.dice.values(),
                    wuerfe: r.wuerfe,
                    from_hand: r.from_hand,
                    class: c.kind(),
                    value: c.value(),
                    label: c.label(),
                })
                .collect(),
            order: e.order.iter().map(|&i| name(i)).collect(),
            highest: name(e.highest),
            lowest: name(e.lowest),
            deckel: e.deckel,
            ends_half,
        }
    }
}

/// Evaluates one Wurfrunde without state (interchange.md): reads the rules, validates every throw,
/// orders the results and names H, L, the Deckel and `ends_half` (true iff H is a Schock Out).
/// Errors: unknown preset or rule, any throw error (naming player, Wurf and rule), bad Wurfrunde.
pub fn evaluate_wurfrunde(req: &WurfrundeRequest) -> Result<WurfrundeResponse, RuleError> {
    let rules = RuleSet::from_json(&req.rules)?;
    let e = evaluate_throws(&req.throws, &rules, false, req.blind)?;
    let names: Vec<&str> = req.throws.iter().map(|t| t.player.as_str()).collect();
    Ok(WurfrundeResponse::from_evaluated(
        &names,
        &e,
        e.deckel == Deckel::All,
    ))
}

/// Parses request JSON bytes into a [`WurfrundeRequest`]; errors name the line and column.
pub fn parse_wurfrunde_request(body: &[u8]) -> Result<WurfrundeRequest, RuleError> {
    serde_json::from_slice(body).map_err(|e| RuleError::json(&e))
}

/// Request JSON bytes in, response JSON value out: the helper for the HTTP and CLI layers
/// (HTTP 422 / exit code 1 on `Err`, whose `Display` is the German message).
pub fn evaluate_wurfrunde_json(body: &[u8]) -> Result<Value, RuleError> {
    let req = parse_wurfrunde_request(body)?;
    let resp = evaluate_wurfrunde(&req)?;
    serde_json::to_value(resp).map_err(|e| RuleError::json(&e))
}

#[cfg(test)]
mod tests;
