//! The `RuleSet`: every variant of schocken-rules.md §3 and §8 as a named field, with the presets
//! `schockerliga` (default), `wikipedia_standard`, `blog_rules`, `niederrhein`, `kneipe` and
//! `westfalen`, each with a one-line German description ([`PRESETS`]).

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::RuleError;

mod wire;

/// How Straßen rank among themselves (schocken-rules.md §3).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum StreetOrder {
    /// 4-5-6 > 3-4-5 > 2-3-4 > 1-2-3 (league default).
    Ascending,
    /// All Straßen are equal; ties fall back to position (or Würfe).
    AllEqual,
}

/// Which dice a player may set aside after a Wurf (schocken-rules.md §5). JSON `"any"`, `"ones_and_sixes"`,
/// `"ones_only"`; the older bool `only_ones_aside` is still read (false → `any`, true → `ones_only`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Aside {
    /// Any die may be set aside (league default).
    Any,
    /// Only 1s and 6s may be set aside (a 6 to keep a high Hausnummer or a General in reach).
    OnesAndSixes,
    /// Only 1s may be set aside.
    OnesOnly,
}

impl Aside {
    /// Whether a die showing `face` (1..=6) may be set aside under this rule.
    pub fn allows(self, face: u8) -> bool {
        match self {
            Aside::Any => true,
            Aside::OnesAndSixes => face == 1 || face == 6,
            Aside::OnesOnly => face == 1,
        }
    }

    /// The older bool `only_ones_aside`: true → `OnesOnly`, false → `Any`.
    pub fn from_only_ones(only_ones_aside: bool) -> Self {
        if only_ones_aside {
            Aside::OnesOnly
        } else {
            Aside::Any
        }
    }
}

/// Which Straßen count only when thrown from the hand (schocken-rules.md §2); an assembled one that
/// must come from the hand is the Hausnummer of its dice. JSON `"all"`, `"none"`, `"only_1_2_3"`; the
/// older bool `street_from_hand_only` is still read (true → `all`, false → `none`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum StreetFromHand {
    /// Every Straße only from the hand (league default).
    All,
    /// Assembled Straßen count too.
    None,
    /// Only 1-2-3 must come from the hand (it is easy to assemble from kept 1s); 2-3-4, 3-4-5 and
    /// 4-5-6 may be assembled.
    #[serde(rename = "only_1_2_3")]
    Only123,
}

impl StreetFromHand {
    /// Whether the Straße with top die `top` (3..=6) counts only from the hand.
    pub fn requires_hand(self, top: u8) -> bool {
        match self {
            StreetFromHand::All => true,
            StreetFromHand::None => false,
            StreetFromHand::Only123 => top == 3,
        }
    }

    /// The older bool `street_from_hand_only`: true → `All`, false → `None`.
    pub fn from_hand_only(street_from_hand_only: bool) -> Self {
        if street_from_hand_only {
            StreetFromHand::All
        } else {
            StreetFromHand::None
        }
    }
}

/// Where the Achter (3-3-1 from the hand) ranks: directly above every result of the named class and
/// below every result of the next higher one (schocken-rules.md §3). JSON `achter_above`: `"neuner"`
/// (second highest, right below the Schock Out), `"jule"` (default: below a Neuner, above a Jule),
/// `"schock"` (below a Jule, above Schock 6), `"general"` (above General 6; below Schock 2, or below
/// Schock 3 with `general_beats_schock_doof`), `"strasse"` (below General 2, above Straße 4-5-6),
/// `"hausnummer"` (below every Straße, above Hausnummer 665/666).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AchterAbove {
    /// Above a Neuner: the second highest result.
    Neuner,
    /// Above a Jule, below a Neuner (default).
    Jule,
    /// Above Schock 6, below a Jule.
    Schock,
    /// Above General 6, below the lowest Schock that ranks above the Generals.
    General,
    /// Above Straße 4-5-6, below General 2.
    Strasse,
    /// Above every Hausnummer, below Straße 1-2-3.
    Hausnummer,
}

/// The rules of one game of Schocken (schocken-rules.md §1–§8). Field names are those of the JSON
/// `rules` object of the Wurfrunde request (interchange.md); `Default` is the league's rule set.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "wire::RuleSetWire")]
pub struct RuleSet {
    /// Deckel per half and Finale (13); a part ends when one player holds all of them.
    pub stock: u8,
    /// Most Würfe a Vorleger may use (3); 1..=3.
    pub max_throws: u8,
    /// 4-2-1 from the hand is a Jule (second highest, 7 Deckel); off: a Hausnummer 421.
    pub jule: bool,
    /// A General (n-n-n) counts only from the hand; an assembled one is a Hausnummer.
    pub general_from_hand_only: bool,
    /// Which Straßen count only from the hand (`all`); an assembled one is then a Hausnummer.
    pub street_from_hand: StreetFromHand,
    /// Order of the Straßen among themselves.
    pub street_order: StreetOrder,
    /// Of two Schock Outs the later one is higher (league default); off: the earlier, as for any tie.
    pub schock_out_later_wins: bool,
    /// Among equal results the one with fewer Würfe is higher; equal Würfe fall back to position.
    pub fewer_throws_wins: bool,
    /// A Hand-Out is higher than any assembled Schock Out, whatever the position.
    pub hand_out_beats_assembled: bool,
    /// For every class: of two equal results, one from the hand is higher than an assembled one,
    /// whatever the position or Würfe (includes `hand_out_beats_assembled`).
    pub hand_beats_assembled: bool,
    /// Every General is higher than Schock 2 (Niederrhein); Deckel still follow the highest result.
    pub general_beats_schock_doof: bool,
    /// Two (three) sixes of one Wurf may be turned into one (two) 1s set aside (§4).
    pub turn_sixes: bool,
    /// A die once set aside never goes back into the cup (§5).
    pub kept_dice_stay: bool,
    /// Which dice may be set aside after a Wurf (§5): `any` (default), `ones_and_sixes`, `ones_only`.
    pub aside: Aside,
    /// The Vorleger may announce "blind": the Deckel of the Wurfrunde count double.
    pub blind: bool,
    /// 2-2-1 from the hand is a "Neuner": `neuner_deckel` Deckel, ranked right below the Schock Out
    /// (above a Jule).
    pub neuner: bool,
    /// Deckel a Neuner costs (9), 1..=255.
    pub neuner_deckel: u8,
    /// 3-3-1 from the hand is an "Achter" (Westfalen): `achter_deckel` Deckel, ranked where
    /// `achter_above` says; off (default): the Hausnummer 331.
    pub achter: bool,
    /// Deckel an Achter costs (8), 1..=255.
    pub achter_deckel: u8,
    /// Where an Achter ranks: directly above every result of this class (default `jule`).
    pub achter_above: AchterAbove,
}

/// Every preset as (name, one-line German description), in the order pages list them; the names are
/// those accepted by [`RuleSet::preset`] and [`RuleSet::from_json`].
pub const PRESETS: [(&str, &str); 6] = [
    (
        "schockerliga",
        "Regeln der Schockerliga: mit Jule, General und Straße nur aus der Hand, Straßen aufsteigend, \
         von zwei Schock Outs gewinnt der spätere, Sechsen drehen erlaubt.",
    ),
    (
        "wikipedia_standard",
        "Standardregeln nach Wikipedia: ohne Jule, General und Straße nur aus der Hand, Straßen \
         aufsteigend, bei gleichem Wurf verliert immer der spätere (auch beim Schock Out).",
    ),
    (
        "blog_rules",
        "Regeln aus dem Schocken-Blog: ohne Jule, General und Straße dürfen zusammengewürfelt werden, \
         bei gleichem Wurf gewinnt, wer weniger Würfe brauchte.",
    ),
    (
        "niederrhein",
        "Niederrhein: jeder General schlägt den Schock doof (Schock 2), die Deckel bestimmt weiter \
         der höchste Wurf; sonst Standardregeln ohne Jule.",
    ),
    (
        "kneipe",
        "Kneipenregel: mit Jule, nur Einsen dürfen raus, aus der Hand schlägt Zusammengewürfeltes, \
         alle Straßen gleich, der Vorleger darf blind ansagen.",
    ),
    (
        "westfalen",
        "Westfalen: 3-3-1 aus der Hand ist ein Achter (8 Deckel, gleich nach dem Schock Out); \
         sonst Standardregeln ohne Jule.",
    ),
];

/// The names of the presets accepted by [`RuleSet::preset`] and [`RuleSet::from_json`], in the
/// order of [`PRESETS`].
pub const PRESET_NAMES: [&str; PRESETS.len()] = {
    let mut names = [""; PRESETS.len()];
    let mut i = 0;
    while i < PRESETS.len() {
        names[i] = PRESETS[i].0;
        i += 1;
    }
    names
};

impl Default for RuleSet {
    fn default() -> Self {
        Self::schockerliga()
    }
}

impl RuleSet {
    /// The league's rules (club rules text): Jule on, General and Straße only from the hand, Straßen
    /// ascending, the later of two Schock Outs wins, turning sixes, set-aside dice stay.
    pub fn schockerliga() -> Self {
        RuleSet {
            stock: 13,
            max_throws: 3,
            jule: true,
            general_from_hand_only: true,
            street_from_hand: StreetFromHand::All,
            street_order: StreetOrder::Ascending,
            schock_out_later_wins: true,
            fewer_throws_wins: false,
            hand_out_beats_assembled: false,
            hand_beats_assembled: false,
            general_beats_schock_doof: false,
            turn_sixes: true,
            kept_dice_stay: true,
            aside: Aside::Any,
            blind: false,
            neuner: false,
            neuner_deckel: 9,
            achter: false,
            achter_deckel: 8,
            achter_above: AchterAbove::Jule,
        }
    }

    /// The Wikipedia text: no Jule, Straßen ascending, General and Straße only from the hand; a tie
    /// is lost by the later thrower, Schock Outs included (the "later Out wins" exception is the club's).
    pub fn wikipedia_standard() -> Self {
        RuleSet {
            jule: false,
            schock_out_later_wins: false,
            ..Self::schockerliga()
        }
    }

    /// The blog's rules: no Jule, fewer Würfe win a tie (then the earlier thrower), General and Straße
    /// may be assembled; no "later Out wins" exception.
    pub fn blog_rules() -> Self {
        RuleSet {
            jule: false,
            fewer_throws_wins: true,
            general_from_hand_only: false,
            street_from_hand: StreetFromHand::None,
            schock_out_later_wins: false,
            ..Self::schockerliga()
        }
    }

    /// Niederrhein: the Wikipedia rules, and every General ranks above Schock 2 (the "Schock doof",
    /// lexikon); the Deckel still follow the highest result.
    pub fn niederrhein() -> Self {
        RuleSet {
            general_beats_schock_doof: true,
            ..Self::wikipedia_standard()
        }
    }

    /// A common pub ("Kneipe") rule set from the variants of the sources: Jule on, only 1s set aside,
    /// from the hand beats assembled for every class, all Straßen equal, "blind" allowed; ties
    /// otherwise lost by the later thrower.
    pub fn kneipe() -> Self {
        RuleSet {
            jule: true,
            aside: Aside::OnesOnly,
            hand_beats_assembled: true,
            street_order: StreetOrder::AllEqual,
            blind: true,
            ..Self::wikipedia_standard()
        }
    }

    /// Westfalen: the Wikipedia rules with the Achter, 3-3-1 from the hand (8 Deckel, lexikon), ranked
    /// directly above the (here absent) Jule, i.e. right below the Schock Out.
    pub fn westfalen() -> Self {
        RuleSet {
            achter: true,
            achter_deckel: 8,
            achter_above: AchterAbove::Jule,
            ..Self::wikipedia_standard()
        }
    }

    /// The preset called `name` (one of [`PRESET_NAMES`]), or `None`.
    pub fn preset(name: &str) -> Option<Self> {
        match name {
            "schockerliga" => Some(Self::schockerliga()),
            "wikipedia_standard" => Some(Self::wikipedia_standard()),
            "blog_rules" => Some(Self::blog_rules()),
            "niederrhein" => Some(Self::niederrhein()),
            "kneipe" => Some(Self::kneipe()),
            "westfalen" => Some(Self::westfalen()),
            _ => None,
        }
    }

    /// The one-line German description of the preset called `name` (for the /regeln and
    /// /schiedsrichter pages), or `None` for an unknown name.
    pub fn preset_description(name: &str) -> Option<&'static str> {
        PRESETS
            .iter()
            .find(|(n, _)| *n == name)
            .map(|&(_, description)| description)
    }

    /// The German title of preset `name`, the start of its description up to the colon
    /// („Regeln der Schockerliga“, „Westfalen“); `None` for an unknown name.
    pub fn preset_title(name: &str) -> Option<&'static str> {
        Self::preset_description(name).and_then(|d| d.split(':').next())
    }

    /// Every preset as (name, description), in the order of [`PRESETS`].
    pub fn presets() -> &'static [(&'static str, &'static str)] {
        &PRESETS
    }

    /// Reads the `rules` of a request: a preset name string, or an object of RuleSet fields with an
    /// optional `"preset"` base (default `schockerliga`); `null` means the default. The older bools
    /// `only_ones_aside` and `street_from_hand_only` are read as `aside` / `street_from_hand`. Errors:
    /// unknown preset, unknown field, a value of the wrong type or out of range, an older bool given
    /// together with its replacement.
    pub fn from_json(value: &Value) -> Result<Self, RuleError> {
        let rules = match value {
            Value::Null => Self::default(),
            Value::String(name) => Self::named(name)?,
            Value::Object(map) => {
                let base = match map.get("preset") {
                    None => Self::default(),
                    Some(Value::String(name)) => Self::named(name)?,
                    Some(other) => {
                        return Err(RuleError::InvalidRules(format!(
                            "„preset“ muss ein Name sein, nicht {other}"
                        )))
                    }
                };
                let mut merged = match serde_json::to_value(&base) {
                    Ok(Value::Object(m)) => m,
                    _ => return Err(RuleError::InvalidRules("interner Fehler".into())),
                };
                for (old, new) in wire::LEGACY_FIELDS {
                    if map.contains_key(old) && map.contains_key(new) {
                        return Err(RuleError::InvalidRules(format!(
                            "„{new}“ und das ältere „{old}“ beschreiben dieselbe Regel; nur eines angeben"
                        )));
                    }
                }
                for (key, v) in map {
                    if key == "preset" {
                        continue;
                    }
                    let replaced = wire::LEGACY_FIELDS
                        .iter()
                        .find(|(old, _)| old == key)
                        .map(|&(_, new)| new);
                    if !merged.contains_key(key) && replaced.is_none() {
                        return Err(RuleError::UnknownRule(key.clone()));
                    }
                    if let Some(new) = replaced {
                        // the older bool replaces the base's value of the newer field
                        merged.remove(new);
                    }
                    let probe = serde_json::json!({ key.clone(): v.clone() });
                    if let Err(e) = serde_json::from_value::<RuleSet>(probe) {
                        return Err(RuleError::InvalidRules(format!("„{key}“: {e}")));
                    }
                    merged.insert(key.clone(), v.clone());
                }
                serde_json::from_value::<RuleSet>(Value::Object(merged))
                    .map_err(|e| RuleError::InvalidRules(e.to_string()))?
            }
            other => {
                return Err(RuleError::InvalidRules(format!(
                    "Regeln müssen ein Name oder ein Objekt sein, nicht {other}"
                )))
            }
        };
        rules.validate()?;
        Ok(rules)
    }

    /// Checks the ranges: `stock`, `neuner_deckel` and `achter_deckel` 1..=255 Deckel,
    /// `max_throws` 1..=3. Errors: `RuleError::InvalidRules` naming the field.
    pub fn validate(&self) -> Result<(), RuleError> {
        for (field, n) in [
            ("stock", self.stock),
            ("neuner_deckel", self.neuner_deckel),
            ("achter_deckel", self.achter_deckel),
        ] {
            if n == 0 {
                return Err(RuleError::InvalidRules(format!(
                    "„{field}“ muss mindestens 1 Deckel sein"
                )));
            }
        }
        if !(1..=3).contains(&self.max_throws) {
            return Err(RuleError::InvalidRules(format!(
                "„max_throws“ muss zwischen 1 und 3 liegen, nicht {}",
                self.max_throws
            )));
        }
        Ok(())
    }

    fn named(name: &str) -> Result<Self, RuleError> {
        Self::preset(name).ok_or_else(|| RuleError::UnknownPreset(name.to_string()))
    }
}

#[cfg(test)]
mod tests;
