//! Which player a credit of a statement is from (issue 34.3), in this order: the RF reference of
//! his season ([`crate::league::money::reference::player_reference`], in the structured
//! reference or typed into the purpose) → [`How::Reference`]; the purpose "Schockerliga YEAR
//! NAME" with his whole name (case does not count; "Anna" is not "Anna B.") → [`How::Text`];
//! otherwise no match ([`How::None`]) with a player suggested by a tolerant match of the names,
//! which is never booked without the Kassenwart's choice.

use std::collections::BTreeMap;

use super::Entry;
use crate::league::model::names::name_key;
use crate::league::model::season::Season;
use crate::league::money::reference::parse_player_reference;

/// How a credit was matched; serialized as the `--json` output's `match`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub enum How {
    /// By the player's RF reference: `"referenz"`.
    #[serde(rename = "referenz")]
    Reference,
    /// By the purpose "Schockerliga YEAR NAME": `"text"`.
    #[serde(rename = "text")]
    Text,
    /// Not matched: `"keine"`.
    #[serde(rename = "keine")]
    None,
}

impl How {
    /// German for the page: "Referenz", "Verwendungszweck", "keine".
    pub fn label(self) -> &'static str {
        match self {
            How::Reference => "Referenz",
            How::Text => "Verwendungszweck",
            How::None => "keine",
        }
    }
}

/// The match of one credit.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Found {
    /// The player (the season's spelling) it is booked for; `None` without a match.
    pub player: Option<String>,
    /// How.
    pub how: How,
    /// Without a match: the player a tolerant name match suggests (never booked by itself).
    pub suggestion: Option<String>,
}

/// The player of credit `entry` in `season` (`ids`: `players.id` by name, for the reference).
pub fn find(season: &Season, ids: &BTreeMap<String, i64>, entry: &Entry) -> Found {
    let by_id = |year: i32, id: i64| {
        (year == season.year)
            .then(|| ids.iter().find(|(_, i)| **i == id).map(|(n, _)| n.clone()))
            .flatten()
            .filter(|n| season.player(n).is_some())
    };
    let referenced = entry
        .reference
        .iter()
        .chain(std::iter::once(&entry.purpose))
        .flat_map(|text| references_in(text))
        .find_map(|(y, id)| by_id(y, id));
    if let Some(player) = referenced {
        return Found {
            player: Some(player),
            how: How::Reference,
            suggestion: None,
        };
    }
    if let Some(player) = by_text(season, &entry.purpose) {
        return Found {
            player: Some(player),
            how: How::Text,
            suggestion: None,
        };
    }
    Found {
        player: None,
        how: How::None,
        suggestion: suggest(season, entry),
    }
}

/// Every player reference ([`parse_player_reference`]: season, id) written in `text`, also in
/// groups of four ("RF18 2026 12").
pub fn references_in(text: &str) -> Vec<(i32, i64)> {
    let upper = text.to_uppercase();
    let mut found = Vec::new();
    for (start, _) in upper.match_indices("RF") {
        // The characters after "RF": letters and digits, single spaces between groups.
        let mut compact = String::new();
        let mut candidates = Vec::new();
        let mut last_space = false;
        for c in upper[start..].chars() {
            if c.is_ascii_alphanumeric() {
                compact.push(c);
                last_space = false;
                if compact.len() >= 5 {
                    candidates.push(compact.clone());
                }
                if compact.len() >= 25 {
                    break;
                }
            } else if c == ' ' && !last_space {
                last_space = true;
            } else {
                break;
            }
        }
        if let Some(r) = candidates
            .iter()
            .rev()
            .find_map(|c| parse_player_reference(c))
        {
            found.push(r);
        }
    }
    found
}

/// The player whose whole name the purpose names after "Schockerliga YEAR" (any case, white
/// space folded; the purpose's own year must be the season's).
fn by_text(season: &Season, purpose: &str) -> Option<String> {
    let words: Vec<&str> = purpose.split_whitespace().collect();
    let at = words.windows(2).position(|w| {
        w[0].eq_ignore_ascii_case("schockerliga") && w[1] == season.year.to_string()
    })?;
    let name = words.get(at + 2..)?.join(" ");
    let key = name_key(&name);
    let mut hits = season.players.iter().filter(|p| name_key(&p.name) == key);
    let hit = hits.next()?;
    hits.next().is_none().then(|| hit.name.clone())
}

/// The words of `text` folded for a tolerant comparison: lower case, umlauts spelt out, no
/// punctuation.
fn words_of(text: &str) -> Vec<String> {
    name_key(text)
        .replace('ä', "ae")
        .replace('ö', "oe")
        .replace('ü', "ue")
        .replace('ß', "ss")
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_string)
        .collect()
}

/// Edits between `a` and `b` (Levenshtein), for a typed name one letter off.
fn distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut prev = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let here = row[j + 1];
            row[j + 1] = (prev + usize::from(ca != *cb))
                .min(row[j] + 1)
                .min(here + 1);
            prev = here;
        }
    }
    row[b.len()]
}

/// The player the purpose and the payer's name point to by a tolerant match: each of his name's
/// words found among their words (the same, or one letter off in a word of five letters or
/// more). The player with the most of his words found, all of them before some; ties go to
/// nobody.
pub fn suggest(season: &Season, entry: &Entry) -> Option<String> {
    let mut words = words_of(&entry.purpose);
    words.extend(words_of(&entry.counterparty));
    words.retain(|w| w != "schockerliga" && w != &season.year.to_string());
    let close = |n: &str| {
        words
            .iter()
            .any(|w| w == n || (n.chars().count() >= 5 && distance(w, n) <= 1))
    };
    let mut best: Option<((bool, usize), &str)> = None;
    let mut tie = false;
    for p in &season.players {
        let name = words_of(&p.name);
        let hits = name.iter().filter(|n| close(n)).count();
        if hits == 0 {
            continue;
        }
        let score = (hits == name.len(), hits);
        match best {
            Some((s, _)) if s > score => {}
            Some((s, _)) if s == score => tie = true,
            _ => {
                best = Some((score, &p.name));
                tie = false;
            }
        }
    }
    best.filter(|_| !tie).map(|(_, n)| n.to_string())
}
