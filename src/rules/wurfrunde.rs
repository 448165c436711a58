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

/// The Deckel a highest result costs (§6): the class's Deckel, doubled when `blind`.
pub fn deckel_for(highest: Class, blind: bool) -> Deckel {
    match highest.deckel() {
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
    let deckel = deckel_for(results[highest].1, blind);
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
mod tests {
    use super::*;

    #[test]
    fn player_list_bounds() {
        let throws = |names: Vec<String>| -> Vec<ThrowInput> {
            names
                .iter()
                .map(|n| ThrowInput::from_dice(n, [6, 5, 4], 1, true))
                .collect()
        };
        let numbered = |n: usize| (0..n).map(|i| format!("P{i}")).collect::<Vec<_>>();
        let long = "x".repeat(crate::rules::MAX_NAME_CHARS + 1);
        let just = "ü".repeat(crate::rules::MAX_NAME_CHARS);
        // (names, expected error fragment or None for accepted)
        let cases: Vec<(Vec<String>, Option<&str>)> = vec![
            (numbered(crate::rules::MAX_PLAYERS), None),
            (
                numbered(crate::rules::MAX_PLAYERS + 1),
                Some("höchstens 20 Spieler"),
            ),
            (numbered(70_000), Some("nicht 70000")),
            (vec!["A".into(), long], Some("länger als 60 Zeichen")),
            (vec!["A".into(), just], None),
            (vec!["A".into(), " ".into()], Some("keinen Namen")),
            (
                vec!["A".into(), "B".into(), "A".into()],
                Some("A wirft zweimal"),
            ),
        ];
        for (names, want) in cases {
            let n = names.len();
            let got = evaluate_throws(&throws(names), &RuleSet::default(), true, false);
            match want {
                None => assert!(got.is_ok(), "{n} players: {got:?}"),
                Some(w) => {
                    let e = got.err().map(|e| e.to_string()).unwrap_or_default();
                    assert!(e.contains(w), "{n} players: {e:?} lacks {w:?}");
                }
            }
        }
    }

    #[test]
    fn a_million_wuerfe_are_refused() {
        let mut t = ThrowInput::from_dice("A", [6, 5, 4], 1, true);
        t.dice = None;
        t.wuerfe = None;
        t.from_hand = None;
        let w = WurfInput {
            roll: vec![6, 5, 4],
            keep: vec![],
            turn: 0,
            take_back: vec![],
        };
        t.sequence = Some(vec![w; 1_000_000]);
        let throws = vec![t, ThrowInput::from_dice("B", [6, 5, 4], 1, true)];
        let e = evaluate_throws(&throws, &RuleSet::default(), false, false);
        assert!(e.is_err(), "{e:?}");
    }

    #[test]
    fn deckel_move_from_stock_then_from_h() {
        // (stock, held before, H, L, deckel) -> (stock, held after, transfer)
        type Case = (u8, Vec<u8>, usize, usize, Deckel, u8, Vec<u8>, Transfer);
        let cases: Vec<Case> = vec![
            (
                13,
                vec![0, 0, 0],
                0,
                1,
                Deckel::Count(3),
                10,
                vec![0, 3, 0],
                Transfer::Stock(3),
            ),
            (
                2,
                vec![5, 6, 0],
                0,
                1,
                Deckel::Count(6),
                0,
                vec![5, 8, 0],
                Transfer::Stock(2),
            ),
            (
                0,
                vec![5, 8, 0],
                0,
                1,
                Deckel::Count(3),
                0,
                vec![2, 11, 0],
                Transfer::Player(3),
            ),
            (
                0,
                vec![2, 11, 0],
                0,
                1,
                Deckel::Count(7),
                0,
                vec![0, 13, 0],
                Transfer::Player(2),
            ),
            (
                7,
                vec![2, 4, 0],
                0,
                2,
                Deckel::All,
                0,
                vec![0, 0, 13],
                Transfer::All,
            ),
        ];
        for (stock, held, h, l, d, stock2, held2, t) in cases {
            let mut s = DeckelState {
                stock,
                held: held.clone(),
                total: 13,
            };
            assert_eq!(s.apply(h, l, d), t, "{held:?}");
            assert_eq!((s.stock, s.held.clone()), (stock2, held2));
            assert_eq!(s.stock + s.held.iter().sum::<u8>(), 13);
        }
    }

    #[test]
    fn out_and_loser() {
        let s = DeckelState {
            stock: 0,
            held: vec![0, 13, 0],
            total: 13,
        };
        assert!(s.is_out(0) && !s.is_out(1) && s.is_out(2));
        assert_eq!(s.loser(), Some(1));
        let fresh = DeckelState::new(3, 13);
        assert!(!fresh.is_out(0));
        assert_eq!(fresh.loser(), None);
    }

    #[test]
    fn blind_doubles_the_deckel_but_not_all() {
        assert_eq!(deckel_for(Class::Schock(5), true), Deckel::Count(10));
        assert_eq!(deckel_for(Class::Hausnummer(643), true), Deckel::Count(2));
        assert_eq!(deckel_for(Class::SchockOut, true), Deckel::All);
        assert_eq!(deckel_for(Class::Schock(5), false), Deckel::Count(5));
    }

    #[test]
    fn json_helper_and_errors() {
        let ok = br#"{"rules":"schockerliga","throws":[
            {"player":"A","dice":[1,1,4],"wuerfe":2},
            {"player":"B","dice":[6,5,4],"wuerfe":1}]}"#;
        let v = evaluate_wurfrunde_json(ok).unwrap();
        assert_eq!(v["highest"], "A");
        assert_eq!(v["deckel"], 4);
        assert_eq!(v["ends_half"], false);
        assert_eq!(v["results"][1]["class"], "strasse");
        assert_eq!(v["results"][1]["label"], "Straße 4-5-6");

        let cases: Vec<(&[u8], &str)> = vec![
            (b"{\"throws\": [", "Zeile 1"),
            (b"{\"throws\": [{\"player\":\"A\",\"wurfe\":1}]}", "wurfe"),
            (
                br#"{"rules":"hessen","throws":[{"player":"A","dice":[1,1,4],"wuerfe":1},{"player":"B","dice":[1,1,4],"wuerfe":1}]}"#,
                "hessen",
            ),
            (
                br#"{"throws":[{"player":"A","dice":[1,1,4],"wuerfe":1},{"player":"B","dice":[1,1,4],"wuerfe":3,"from_hand":false}]}"#,
                "Spieler B, Wurf 2: mehr Würfe als der Vorleger (1)",
            ),
            (
                br#"{"throws":[{"player":"A","dice":[1,1,4],"wuerfe":1}]}"#,
                "mindestens zwei",
            ),
            (
                br#"{"throws":[{"player":"A","dice":[1,1,4],"wuerfe":1},{"player":"A","dice":[1,1,4],"wuerfe":1}]}"#,
                "zweimal",
            ),
            (
                br#"{"blind":true,"throws":[{"player":"A","dice":[1,1,4],"wuerfe":1},{"player":"B","dice":[1,1,4],"wuerfe":1}]}"#,
                "blind",
            ),
            (
                br#"{"throws":[{"player":"A","dice":[4,2,1],"wuerfe":2,"class":"jule"},{"player":"B","dice":[1,1,4],"wuerfe":1}]}"#,
                "Spieler A, Wurf 2: als Jule angegeben, aber das Ergebnis ist 421",
            ),
            (
                br#"{"throws":[{"player":"A","sequence":[{"roll":[1,1,3],"keep":[1,1]},{"roll":[1]}],"from_hand":true},{"player":"B","dice":[1,1,4],"wuerfe":1}]}"#,
                "Spieler A, Wurf 2: als „aus der Hand“ angegeben",
            ),
            (
                br#"{"throws":[{"player":"A","dice":[1,1,3],"sequence":[{"roll":[1,1,3]}]},{"player":"B","dice":[1,1,4],"wuerfe":1}]}"#,
                "Spieler A: entweder",
            ),
        ];
        for (body, needle) in cases {
            let e = evaluate_wurfrunde_json(body).unwrap_err().to_string();
            assert!(e.contains(needle), "{}: {e}", String::from_utf8_lossy(body));
        }
    }

    fn seq(rolls: &[(&[i64], &[i64])]) -> Vec<WurfInput> {
        rolls
            .iter()
            .map(|(roll, keep)| WurfInput {
                roll: roll.to_vec(),
                keep: keep.to_vec(),
                turn: 0,
                take_back: vec![],
            })
            .collect()
    }

    #[test]
    fn claims_the_sequence_does_not_support_are_refused() {
        let r = RuleSet::schockerliga();
        let v = Allowance::Vorleger(3);
        // (sequence, claimed from_hand, claimed class, Ok(class) or Err(message))
        type Case = (
            Vec<WurfInput>,
            Option<bool>,
            Option<ClassKind>,
            Result<Class, &'static str>,
        );
        let cases: Vec<Case> = vec![
            // Hand-Out claimed, assembled Out thrown
            (
                seq(&[(&[1, 1, 3], &[1, 1]), (&[1], &[])]),
                Some(true),
                Some(ClassKind::SchockOut),
                Err("Spieler X, Wurf 2: als „aus der Hand“ angegeben, aber die Würfe ergeben das Gegenteil"),
            ),
            (
                seq(&[(&[2, 3, 5], &[]), (&[1, 1, 1], &[])]),
                Some(true),
                Some(ClassKind::SchockOut),
                Ok(Class::SchockOut),
            ),
            // assembled General and Straße
            (
                seq(&[(&[5, 5, 2], &[5, 5]), (&[5], &[])]),
                None,
                Some(ClassKind::General),
                Err("Spieler X, Wurf 2: als General angegeben, aber das Ergebnis ist 555"),
            ),
            (
                seq(&[(&[4, 5, 1], &[4, 5]), (&[6], &[])]),
                None,
                Some(ClassKind::Strasse),
                Err("Spieler X, Wurf 2: als Straße angegeben, aber das Ergebnis ist 654"),
            ),
            (
                seq(&[(&[4, 2, 1], &[])]),
                None,
                Some(ClassKind::Jule),
                Ok(Class::Jule),
            ),
            (
                seq(&[(&[4, 2, 1], &[])]),
                Some(false),
                None,
                Err("Spieler X, Wurf 1: als „nicht aus der Hand“ angegeben, aber die Würfe ergeben das Gegenteil"),
            ),
        ];
        for (sequence, from_hand, class, want) in cases {
            let input = ThrowInput {
                from_hand,
                class,
                ..ThrowInput::from_sequence("X", sequence)
            };
            let got = input
                .resolve(v, &r)
                .map(|(_, c)| c)
                .map_err(|e| e.to_string());
            assert_eq!(got, want.map_err(|m| m.to_string()), "{input:?}");
        }
    }

    #[test]
    fn blind_with_the_variant() {
        let req: WurfrundeRequest = serde_json::from_str(
            r#"{"rules":{"blind":true},"blind":true,"throws":[
              {"player":"A","dice":[1,1,4],"wuerfe":1},{"player":"B","dice":[6,5,3],"wuerfe":1}]}"#,
        )
        .unwrap();
        assert_eq!(evaluate_wurfrunde(&req).unwrap().deckel, Deckel::Count(8));
    }
}
