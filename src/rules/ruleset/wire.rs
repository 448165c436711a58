//! The JSON form a [`RuleSet`] is read from (serde `try_from`): every field optional (a missing one
//! takes the league's value), unknown fields refused, and the older bools `only_ones_aside` and
//! `street_from_hand_only` still accepted in place of `aside` and `street_from_hand`, so stored Runden
//! and season files written before those enums keep loading.

use serde::{Deserialize, Deserializer};

use super::{AchterAbove, Aside, RuleSet, StreetFromHand, StreetOrder};

/// The older bool `only_ones_aside` and the field `aside` that replaced it.
const ASIDE_LEGACY: (&str, &str) = ("only_ones_aside", "aside");

/// The older bool `street_from_hand_only` and the field `street_from_hand` that replaced it.
const STREET_LEGACY: (&str, &str) = ("street_from_hand_only", "street_from_hand");

/// The older field names that are still read, each with the field that replaced it: (old, new).
pub(super) const LEGACY_FIELDS: [(&str, &str); 2] = [ASIDE_LEGACY, STREET_LEGACY];

/// A value that, when the field is present, must be a real value (`null` is refused as for any
/// other field instead of silently meaning "the league's default").
fn present<'de, D, T>(d: D) -> Result<Option<T>, D::Error>
where
    D: Deserializer<'de>,
    T: Deserialize<'de>,
{
    T::deserialize(d).map(Some)
}

/// Every RuleSet field as written in JSON; missing fields come from [`RuleSet::schockerliga`].
#[derive(Deserialize)]
#[serde(deny_unknown_fields, default)]
pub(super) struct RuleSetWire {
    stock: u8,
    max_throws: u8,
    jule: bool,
    general_from_hand_only: bool,
    #[serde(deserialize_with = "present")]
    street_from_hand: Option<StreetFromHand>,
    #[serde(deserialize_with = "present")]
    street_from_hand_only: Option<bool>,
    street_order: StreetOrder,
    schock_out_later_wins: bool,
    fewer_throws_wins: bool,
    hand_out_beats_assembled: bool,
    hand_beats_assembled: bool,
    general_beats_schock_doof: bool,
    turn_sixes: bool,
    kept_dice_stay: bool,
    #[serde(deserialize_with = "present")]
    aside: Option<Aside>,
    #[serde(deserialize_with = "present")]
    only_ones_aside: Option<bool>,
    blind: bool,
    neuner: bool,
    neuner_deckel: u8,
    achter: bool,
    achter_deckel: u8,
    achter_above: AchterAbove,
}

impl Default for RuleSetWire {
    fn default() -> Self {
        let r = RuleSet::schockerliga();
        RuleSetWire {
            stock: r.stock,
            max_throws: r.max_throws,
            jule: r.jule,
            general_from_hand_only: r.general_from_hand_only,
            street_from_hand: None,
            street_from_hand_only: None,
            street_order: r.street_order,
            schock_out_later_wins: r.schock_out_later_wins,
            fewer_throws_wins: r.fewer_throws_wins,
            hand_out_beats_assembled: r.hand_out_beats_assembled,
            hand_beats_assembled: r.hand_beats_assembled,
            general_beats_schock_doof: r.general_beats_schock_doof,
            turn_sixes: r.turn_sixes,
            kept_dice_stay: r.kept_dice_stay,
            aside: None,
            only_ones_aside: None,
            blind: r.blind,
            neuner: r.neuner,
            neuner_deckel: r.neuner_deckel,
            achter: r.achter,
            achter_deckel: r.achter_deckel,
            achter_above: r.achter_above,
        }
    }
}

/// The new field's value, or the older bool's mapped value, or the league's; both given is refused.
fn one_of<T>(
    new: Option<T>,
    old: Option<bool>,
    (old_name, new_name): (&str, &str),
    map: impl Fn(bool) -> T,
    default: T,
) -> Result<T, String> {
    match (new, old) {
        (Some(_), Some(_)) => Err(format!(
            "„{new_name}“ und das ältere „{old_name}“ beschreiben dieselbe Regel; nur eines angeben"
        )),
        (Some(v), None) => Ok(v),
        (None, Some(b)) => Ok(map(b)),
        (None, None) => Ok(default),
    }
}

impl TryFrom<RuleSetWire> for RuleSet {
    type Error = String;

    /// Builds the RuleSet, mapping the older bools; errors (German) when an older bool and its
    /// replacement are both given.
    fn try_from(w: RuleSetWire) -> Result<Self, Self::Error> {
        let league = RuleSet::schockerliga();
        let aside = one_of(
            w.aside,
            w.only_ones_aside,
            ASIDE_LEGACY,
            Aside::from_only_ones,
            league.aside,
        )?;
        let street_from_hand = one_of(
            w.street_from_hand,
            w.street_from_hand_only,
            STREET_LEGACY,
            StreetFromHand::from_hand_only,
            league.street_from_hand,
        )?;
        Ok(RuleSet {
            stock: w.stock,
            max_throws: w.max_throws,
            jule: w.jule,
            general_from_hand_only: w.general_from_hand_only,
            street_from_hand,
            street_order: w.street_order,
            schock_out_later_wins: w.schock_out_later_wins,
            fewer_throws_wins: w.fewer_throws_wins,
            hand_out_beats_assembled: w.hand_out_beats_assembled,
            hand_beats_assembled: w.hand_beats_assembled,
            general_beats_schock_doof: w.general_beats_schock_doof,
            turn_sixes: w.turn_sixes,
            kept_dice_stay: w.kept_dice_stay,
            aside,
            blind: w.blind,
            neuner: w.neuner,
            neuner_deckel: w.neuner_deckel,
            achter: w.achter,
            achter_deckel: w.achter_deckel,
            achter_above: w.achter_above,
        })
    }
}
