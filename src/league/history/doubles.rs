//! Suggested doubles (issue 36.1): pairs of players of the league's history that are likely one
//! person under two names, from twenty years of spreadsheets („Jürgen“, „Juergen“ and „Jürgen M.“).
//! A player is the same across seasons when his names have the same [`name_key`] (case does not
//! count, as for careers); two such players are a pair when their names are, in this order of
//! reasons ([`Reason`]):
//!
//! 1. equal after [`fold`]ing: case, ä↔ae, ö↔oe, ü↔ue, ß↔ss, accents stripped, spaces collapsed;
//! 2. equal once a trailing initial („Jürgen M.“) or „jun.“/„sen.“ is dropped ([`without_suffix`]);
//! 3. alike in look (Unicode TS #39 confusables: the skeleton [`look_alike_key`] of the name,
//!    folded and without suffix, so „Аnna“ with a Cyrillic а and „ΑΝΝΑ“ in Greek capitals look
//!    like „Anna“);
//! 4. a Levenshtein distance of at most [`MAX_TYPO_DISTANCE`] between the folded names without
//!    suffix, when both have at least [`MIN_TYPO_LETTERS`] letters („Jürgen“ = „juergen“ has 7,
//!    „Jörg“ = „joerg“ 5, „Uwe“ 3).
//!
//! Two who played on the same night are two people: such a pair is kept, marked with that night
//! ([`Double::same_night`], the earliest), for the page's „nicht dieselbe Person (beide am …)“.
//! Pure: no storage, no clock.

use std::collections::BTreeMap;

use chrono::NaiveDate;
use unicode_normalization::char::is_combining_mark;
use unicode_normalization::UnicodeNormalization;

use crate::league::model::names::{look_alike_key, name_key, normalize_name};
use crate::league::model::season::Season;

/// Folded names need at least this many letters (both) to count as a typo of each other.
pub const MIN_TYPO_LETTERS: usize = 5;

/// The largest Levenshtein distance (in characters of the folded names) that counts as a typo.
pub const MAX_TYPO_DISTANCE: usize = 2;

/// A player of the league's history as the doubles see him: his name (the spelling of his latest
/// season), the seasons he is listed in (years, ascending) and the nights he played (a row of a
/// round or a totals row; dates, ascending).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlayerTrace {
    /// His name as the latest season spells it.
    pub name: String,
    /// The years of the seasons that list him, ascending.
    pub seasons: Vec<i32>,
    /// The nights he played, ascending.
    pub nights: Vec<NaiveDate>,
}

/// Why two names are suggested as one person, strongest first (the order of the module's rules).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Reason {
    /// Equal after [`fold`] (case, umlauts, ß, accents).
    Spelling,
    /// Equal once a trailing initial or „jun.“/„sen.“ is dropped.
    Suffix,
    /// Alike in look (Unicode TS #39 skeleton).
    LookAlike,
    /// A Levenshtein distance of 1 or 2 on folded names of at least five letters.
    Typo(usize),
}

impl Reason {
    /// The reason in German, for the page.
    pub fn german(&self) -> String {
        match self {
            Reason::Spelling => "gleich bis auf Groß-/Kleinschreibung, Umlaute und Akzente".into(),
            Reason::Suffix => "gleich ohne Initiale bzw. „jun.“/„sen.“".into(),
            Reason::LookAlike => "gleich aussehende Zeichen".into(),
            Reason::Typo(1) => "Tippfehler? (1 Zeichen anders)".into(),
            Reason::Typo(d) => format!("Tippfehler? ({d} Zeichen anders)"),
        }
    }

    /// A short code of the reason for pages and tests: `schreibung`, `zusatz`, `aussehen`,
    /// `tippfehler-1`, `tippfehler-2`.
    pub fn code(&self) -> String {
        match self {
            Reason::Spelling => "schreibung".into(),
            Reason::Suffix => "zusatz".into(),
            Reason::LookAlike => "aussehen".into(),
            Reason::Typo(d) => format!("tippfehler-{d}"),
        }
    }
}

/// One suggested pair: `first` has more nights (the likely name to keep; equal: the name that
/// sorts first by its folding), `second` the other, why, and the earliest night both played.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Double {
    /// The player with more nights.
    pub first: PlayerTrace,
    /// The other player.
    pub second: PlayerTrace,
    /// Why the two are suggested.
    pub reason: Reason,
    /// The earliest night both played: then they are two people („nicht dieselbe Person“).
    pub same_night: Option<NaiveDate>,
}

/// A name folded for comparison: NFC, trimmed, lower case, ä→ae, ö→oe, ü→ue, ß→ss, every other
/// accent stripped (the combining marks of the NFD form: é→e, ø stays), white space collapsed to
/// one space. „Jürgen“ and „JUERGEN“ both give „juergen“.
pub fn fold(name: &str) -> String {
    let mut umlauts = String::new();
    for c in normalize_name(name).to_lowercase().chars() {
        match c {
            'ä' => umlauts.push_str("ae"),
            'ö' => umlauts.push_str("oe"),
            'ü' => umlauts.push_str("ue"),
            'ß' => umlauts.push_str("ss"),
            c => umlauts.push(c),
        }
    }
    let stripped: String = umlauts.nfd().filter(|c| !is_combining_mark(*c)).collect();
    stripped.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// A [`fold`]ed name without its trailing initial („juergen m.“, „juergen m“) or „jun.“/„sen.“
/// (with or without the dot), repeatedly („juergen m. jun.“ → „juergen“); a lone word stays.
pub fn without_suffix(folded: &str) -> String {
    let mut words: Vec<&str> = folded.split(' ').collect();
    while words.len() > 1 {
        let last = words[words.len() - 1];
        let bare = last.strip_suffix('.').unwrap_or(last);
        let initial = bare.chars().count() == 1 && bare.chars().all(char::is_alphabetic);
        if initial || matches!(bare, "jun" | "sen") {
            words.pop();
        } else {
            break;
        }
    }
    words.join(" ")
}

/// The Levenshtein distance of `a` and `b` in characters (insertions, deletions, substitutions).
pub fn levenshtein(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut diagonal = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let above = row[j + 1];
            row[j + 1] = if ca == *cb {
                diagonal
            } else {
                1 + diagonal.min(above).min(row[j])
            };
            diagonal = above;
        }
    }
    row[b.len()]
}

/// The keys of one name, computed once: folded, without suffix, its look.
struct Keys {
    folded: String,
    bare: String,
    look: String,
    letters: usize,
}

impl Keys {
    fn of(name: &str) -> Keys {
        let folded = fold(name);
        let bare = without_suffix(&folded);
        Keys {
            // The skeleton of the name as typed (Greek capitals „ΑΝΝΑ“ look like „ANNA“, their
            // lower case „αννα“ does not), then folded and without suffix as the others.
            look: without_suffix(&fold(&look_alike_key(name))),
            letters: bare.chars().filter(|c| c.is_alphabetic()).count(),
            folded,
            bare,
        }
    }

    /// Why `self` and `other` are suggested as one, if they are.
    fn reason(&self, other: &Keys) -> Option<Reason> {
        if self.folded == other.folded {
            return Some(Reason::Spelling);
        }
        if self.bare == other.bare {
            return Some(Reason::Suffix);
        }
        if self.look == other.look {
            return Some(Reason::LookAlike);
        }
        if self.letters < MIN_TYPO_LETTERS || other.letters < MIN_TYPO_LETTERS {
            return None;
        }
        let (la, lb) = (self.bare.chars().count(), other.bare.chars().count());
        if la.abs_diff(lb) > MAX_TYPO_DISTANCE {
            return None;
        }
        let d = levenshtein(&self.bare, &other.bare);
        (d <= MAX_TYPO_DISTANCE).then_some(Reason::Typo(d))
    }
}

/// The earliest date in both ascending lists.
fn first_common(a: &[NaiveDate], b: &[NaiveDate]) -> Option<NaiveDate> {
    let (mut i, mut j) = (0, 0);
    while i < a.len() && j < b.len() {
        match a[i].cmp(&b[j]) {
            std::cmp::Ordering::Less => i += 1,
            std::cmp::Ordering::Greater => j += 1,
            std::cmp::Ordering::Equal => return Some(a[i]),
        }
    }
    None
}

/// The suggested pairs among `players` (each one player: distinct [`name_key`]s), in a fixed
/// order: pairs that may be one person before those who played the same night, then by
/// [`Reason`] (strongest first), then by the folded names of `first` and `second`. A player may
/// be in several pairs („Jürgen“–„Juergen“, „Jürgen“–„Jürgen M.“).
pub fn suggest(players: &[PlayerTrace]) -> Vec<Double> {
    let keys: Vec<Keys> = players.iter().map(|p| Keys::of(&p.name)).collect();
    let mut out: Vec<(Double, String, String)> = Vec::new();
    for i in 0..players.len() {
        for j in i + 1..players.len() {
            let Some(reason) = keys[i].reason(&keys[j]) else {
                continue;
            };
            let (a, b) = (&players[i], &players[j]);
            let order = |p: &PlayerTrace, k: &Keys| {
                (
                    std::cmp::Reverse(p.nights.len()),
                    k.folded.clone(),
                    p.name.clone(),
                )
            };
            let (first, second, kf, ks) = if order(a, &keys[i]) <= order(b, &keys[j]) {
                (a, b, &keys[i], &keys[j])
            } else {
                (b, a, &keys[j], &keys[i])
            };
            out.push((
                Double {
                    same_night: first_common(&first.nights, &second.nights),
                    first: first.clone(),
                    second: second.clone(),
                    reason,
                },
                kf.folded.clone(),
                ks.folded.clone(),
            ));
        }
    }
    out.sort_by(|(x, xf, xs), (y, yf, ys)| {
        (
            x.same_night.is_some(),
            x.reason,
            xf,
            xs,
            &x.first.name,
            &x.second.name,
        )
            .cmp(&(
                y.same_night.is_some(),
                y.reason,
                yf,
                ys,
                &y.first.name,
                &y.second.name,
            ))
    });
    out.into_iter().map(|(d, ..)| d).collect()
}

/// The players of `seasons` (any order) as [`PlayerTrace`]s, one per [`name_key`], named as the
/// latest season spells him, sorted by name key: the seasons that list him and the nights with his
/// row (a round's or a totals row, [`crate::league::model::season::Night::participants`]).
pub fn traces<'a>(seasons: impl IntoIterator<Item = &'a Season>) -> Vec<PlayerTrace> {
    let mut sorted: Vec<&Season> = seasons.into_iter().collect();
    sorted.sort_by_key(|s| s.year);
    let mut by_key: BTreeMap<String, PlayerTrace> = BTreeMap::new();
    for season in sorted {
        for p in &season.players {
            let t = by_key
                .entry(name_key(&p.name))
                .or_insert_with(|| PlayerTrace {
                    name: String::new(),
                    seasons: Vec::new(),
                    nights: Vec::new(),
                });
            t.name = p.name.clone();
            if t.seasons.last() != Some(&season.year) {
                t.seasons.push(season.year);
            }
        }
        for night in &season.nights {
            for p in night.participants() {
                if let Some(t) = by_key.get_mut(&name_key(p)) {
                    t.nights.push(night.date);
                }
            }
        }
    }
    by_key
        .into_values()
        .map(|mut t| {
            t.nights.sort_unstable();
            t.nights.dedup();
            t
        })
        .collect()
}

#[cfg(test)]
mod tests;
