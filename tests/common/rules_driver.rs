//! A random-play driver for the rules engine, shared by the cases crate (`tests/cases/rules_engine.rs`) and
//! `benches/rules.rs` (included with `#[path]`). It plays like people do: keeps 1s, sometimes a high
//! die (one the `aside` rule allows), turns sixes when it may, takes a kept high die back into the
//! cup now and then where `kept_dice_stay` is off, stops early now and then, and enters throws as
//! sequences or as dice.

#![allow(dead_code)]
// Test code (also in benches/rules.rs): a refused legal Wurfrunde is a failed test.
#![allow(clippy::unwrap_used, clippy::panic)]

use rand::rngs::StdRng;
use rand::Rng;
use schockerliga::rules::sequence::max_turnable;
use schockerliga::rules::{RuleSet, RundeState, ThrowInput, WurfInput, WurfrundeOutcome};

/// One player's turn of at most `allowed` Würfe: the Würfe as entered, and the final dice, Würfe and
/// from_hand worked out by the driver itself (not by the engine).
pub fn play_turn(
    rng: &mut StdRng,
    allowed: u8,
    rules: &RuleSet,
) -> (Vec<WurfInput>, [u8; 3], bool) {
    let mut aside: Vec<u8> = Vec::new();
    let mut turned = false;
    let mut seq = Vec::new();
    for n in 1..=allowed {
        let mut take_back = vec![];
        if !rules.kept_dice_stay && rng.random_bool(0.3) {
            if let Some(i) = aside.iter().position(|&d| d != 1) {
                take_back.push(i64::from(aside.swap_remove(i)));
            }
        }
        let cup = 3 - aside.len();
        let roll: Vec<u8> = (0..cup).map(|_| rng.random_range(1..=6u8)).collect();
        let last = n == allowed || rng.random_bool(0.2);
        let mut w = WurfInput {
            roll: roll.iter().map(|&d| i64::from(d)).collect(),
            keep: vec![],
            turn: 0,
            take_back,
        };
        if last {
            aside.extend_from_slice(&roll);
            seq.push(w);
            break;
        }
        let sixes = roll.iter().filter(|&&d| d == 6).count();
        let turn = if rules.turn_sixes && sixes >= 2 && rng.random_bool(0.7) {
            max_turnable(sixes)
        } else {
            0
        };
        let mut keep: Vec<u8> = roll.iter().copied().filter(|&d| d == 1).collect();
        if turn == 0 && rng.random_bool(0.15) {
            if let Some(&high) = roll
                .iter()
                .filter(|&&d| d >= 5 && rules.aside.allows(d))
                .max()
            {
                keep.push(high);
            }
        }
        let new_aside = aside.len() + keep.len() + usize::try_from(turn).unwrap_or(0);
        if new_aside >= 3 {
            // nothing left to roll: this Wurf is the last one
            aside.extend_from_slice(&roll);
            seq.push(w);
            break;
        }
        if turn > 0 {
            turned = true;
            aside.resize(aside.len() + usize::try_from(turn).unwrap_or(0), 1);
        }
        aside.extend_from_slice(&keep);
        w.turn = turn;
        w.keep = keep.iter().map(|&d| i64::from(d)).collect();
        seq.push(w);
    }
    let from_hand = seq.last().map(|w| w.roll.len() == 3).unwrap_or(false) && !turned;
    let mut dice = [aside[0], aside[1], aside[2]];
    dice.sort_unstable_by(|a, b| b.cmp(a));
    (seq, dice, from_hand)
}

/// The next Wurfrunde for `state`: every player due, in order; the Vorleger's Würfe set the limit.
pub fn next_wurfrunde(rng: &mut StdRng, state: &RundeState) -> Vec<ThrowInput> {
    let rules = state.rules().clone();
    let mut allowed = if state.is_auswuerfeln() {
        1
    } else {
        rules.max_throws
    };
    let mut throws = Vec::new();
    for (i, player) in state.next_throwers().into_iter().enumerate() {
        let (seq, dice, from_hand) = play_turn(rng, allowed, &rules);
        let wuerfe = u8::try_from(seq.len()).unwrap_or(3);
        if i == 0 {
            allowed = wuerfe;
        }
        throws.push(if rng.random_bool(0.5) {
            ThrowInput::from_sequence(player, seq)
        } else {
            ThrowInput::from_dice(player, dice, wuerfe, from_hand)
        });
    }
    throws
}

/// Plays a whole Runde; returns the finished state and every outcome. Panics (test code) when the
/// engine refuses a legal Wurfrunde or the Runde does not end within 10 000 Wurfrunden.
pub fn play_runde(
    rng: &mut StdRng,
    players: &[&str],
    rules: &RuleSet,
) -> (RundeState, Vec<WurfrundeOutcome>) {
    let names = players.iter().map(|s| s.to_string()).collect();
    let mut state = RundeState::new(names, rules.clone()).unwrap();
    let mut outcomes = Vec::new();
    while !state.is_finished() {
        assert!(outcomes.len() < 10_000, "Runde does not end");
        let throws = next_wurfrunde(rng, &state);
        let o = state
            .apply(throws.clone())
            .unwrap_or_else(|e| panic!("legal Wurfrunde refused: {e}\n{throws:?}"));
        outcomes.push(o);
    }
    (state, outcomes)
}
