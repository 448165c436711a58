//! Character rules for names typed by people: player names (league-wide), fine kinds and account
//! names. A name is compared in Unicode NFC, trimmed; control, format (bidi overrides and isolates,
//! zero-width characters, BOM) and other invisible characters are refused, so a name shows as what
//! it is everywhere (pages, CSV, terminal). Two names that differ only in case are the same player.

use unicode_normalization::UnicodeNormalization;

use super::error::{EntryError, Location};

/// The refusal of an empty player name in a form: "Feld Name: Spielername darf nicht leer sein".
pub fn empty_name() -> EntryError {
    EntryError::new(
        Location::default().field("name"),
        "Spielername darf nicht leer sein",
    )
}

/// The refusal of `name` when another player of the league (in `players` = (id, name), not
/// `except`) has the same name up to case and Unicode normalization ([`name_key`]) or looks the
/// same ([`look_alike_key`]: „Аnna“ with a Cyrillic А beside „Anna“); `None` when there is none
/// or the only one is spelled exactly alike (that player is reused).
pub fn twin(name: &str, except: Option<i64>, players: &[(i64, String)]) -> Option<EntryError> {
    let key = name_key(name);
    let looks = look_alike_key(name);
    players
        .iter()
        .find(|(id, other)| {
            Some(*id) != except
                && other != name
                && (name_key(other) == key || look_alike_key(other) == looks)
        })
        .map(|(_, other)| {
            // „anna“ beside „Anna“ differs in case; „Ａnna“ beside „Anna“ in its letters' form.
            let how = if normalize_name(name).to_lowercase() == normalize_name(other).to_lowercase()
            {
                "Groß-/Kleinschreibung"
            } else {
                "gleich aussehende Zeichen"
            };
            EntryError::new(
                Location::default(),
                format!("Spielername „{name}“ gibt es schon als „{other}“ ({how})"),
            )
        })
}

/// The name as stored and compared: NFC-normalized (a decomposed „Jürgen“ equals the composed one)
/// and trimmed of white space at both ends.
pub fn normalize_name(raw: &str) -> String {
    raw.nfc().collect::<String>().trim().to_string()
}

/// The key under which two names count as the same player: [`normalize_name`] folded with NFKC
/// and in lower case („Zoe“ and „zoe“ give the same key, and so do the fullwidth look-alike
/// „Ａnna“ and „Anna“). Only the comparison folds: a name is stored as typed (NFC).
pub fn name_key(name: &str) -> String {
    normalize_name(name)
        .nfkc()
        .collect::<String>()
        .to_lowercase()
}

/// The key under which two names look the same (Unicode TS #39 confusable detection, the
/// skeleton of `unicode_security`): „Аnna“ with a Cyrillic А, „ΑΝΝΑ“ in Greek capitals, „Ａnna“
/// and „anna“ all look like „Anna“, „KIaus“ with a capital I like „Klaus“. The skeleton of the
/// NFKC form, in lower case, skeleton again (case does not count, as in [`name_key`]). Only for
/// refusing a new name beside an existing one: a name is found by [`name_key`].
pub fn look_alike_key(name: &str) -> String {
    let compatible: String = normalize_name(name)
        .nfkc()
        .map(|c| small_capital_base(c).unwrap_or(c))
        .collect();
    let first: String = unicode_security::skeleton(&compatible).collect();
    unicode_security::skeleton(&first.to_lowercase()).collect()
}

/// The letter a Latin small capital stands for (`ᴀ` → `A`, `ʙ` → `B`, `ʟ` → `L`): small
/// capitals are Latin, have no compatibility decomposition and no entry in the confusables, so
/// „ᴀnna“ would otherwise pass beside „Anna“. `None` for any other character.
fn small_capital_base(c: char) -> Option<char> {
    Some(match c {
        '\u{1D00}' => 'A',
        '\u{0299}' => 'B',
        '\u{1D04}' => 'C',
        '\u{1D05}' => 'D',
        '\u{1D07}' => 'E',
        '\u{A730}' => 'F',
        '\u{0262}' => 'G',
        '\u{029C}' => 'H',
        '\u{026A}' => 'I',
        '\u{1D0A}' => 'J',
        '\u{1D0B}' => 'K',
        '\u{029F}' => 'L',
        '\u{1D0D}' => 'M',
        '\u{0274}' => 'N',
        '\u{1D0F}' => 'O',
        '\u{1D18}' => 'P',
        '\u{A7AF}' => 'Q',
        '\u{0280}' => 'R',
        '\u{A731}' => 'S',
        '\u{1D1B}' => 'T',
        '\u{1D1C}' => 'U',
        '\u{1D20}' => 'V',
        '\u{1D21}' => 'W',
        '\u{028F}' => 'Y',
        '\u{1D22}' => 'Z',
        _ => return None,
    })
}

/// Checks that `name` is written in one script (Unicode TS #39 mixed-script detection; digits,
/// spaces and punctuation go with any, Japanese kana with Han): `Err` with a German message
/// naming the first character from another script than those before it, e.g. „mischt Schriften:
/// „n“ (U+006E) ist aus einer anderen Schrift als „А“ (U+0410)“. A Cyrillic „А“ in a Latin name
/// looks like a Latin one, so such a name could pass for another.
pub fn check_single_script(name: &str) -> Result<(), String> {
    use unicode_security::mixed_script::AugmentedScriptSet;
    let mut set = AugmentedScriptSet::default();
    let mut first: Option<char> = None;
    for c in name.chars() {
        let own = AugmentedScriptSet::for_char(c);
        if own.is_all() {
            continue;
        }
        set.intersect_with(own);
        if set.is_empty() {
            let shown = |c: char| format!("„{c}“ (U+{:04X})", u32::from(c));
            return Err(format!(
                "mischt Schriften: {} ist aus einer anderen Schrift als {}; bitte in einer \
                 Schrift schreiben (gleich aussehende Buchstaben anderer Schriften sind nicht \
                 erlaubt)",
                shown(c),
                shown(first.unwrap_or(c))
            ));
        }
        first.get_or_insert(c);
    }
    Ok(())
}

/// The key under which two login names count as the same account (issue 22.9): NFKC, full Unicode
/// case folding, NFKC again (Unicode's NFKC_Casefold), trimmed. Stricter than [`name_key`]: the
/// fullwidth „Ａdmin“ and „admin“, „ｓｅｋｒｅｔär“ and „Sekretär“, „Weiß“ and „WEISS“ give the same
/// key, so nobody can open a look-alike of an existing account. (Player names keep [`name_key`],
/// NFKC without case folding: two players „Weiß“ and „Weiss“ may well be two people.)
pub fn login_key(name: &str) -> String {
    let compatible: String = name.trim().nfkc().collect();
    unicase::UniCase::new(compatible.as_str())
        .to_folded_case()
        .nfkc()
        .collect()
}

/// True for a character that cannot be seen or changes how text around it is shown: control
/// characters (C0, DEL, C1: tab, newline, escape …), format characters (soft hyphen, Arabic letter
/// mark, Mongolian vowel separator, zero-width space/joiners, LRM/RLM, bidi embeddings, overrides
/// and isolates, word joiner and invisible operators, BOM, interlinear annotations), line and
/// paragraph separators, Hangul fillers, variation selectors, tags and private-use characters.
pub fn is_invisible(c: char) -> bool {
    c.is_control()
        || matches!(
            c,
            '\u{00AD}'
                | '\u{034F}'
                | '\u{061C}'
                | '\u{115F}'
                | '\u{1160}'
                | '\u{17B4}'
                | '\u{17B5}'
                | '\u{180B}'..='\u{180F}'
                | '\u{200B}'..='\u{200F}'
                | '\u{2028}'..='\u{202E}'
                | '\u{2060}'..='\u{206F}'
                | '\u{3164}'
                | '\u{FE00}'..='\u{FE0F}'
                | '\u{FEFF}'
                | '\u{FFA0}'
                | '\u{FFF0}'..='\u{FFFD}'
                | '\u{E000}'..='\u{F8FF}'
                | '\u{E0000}'..='\u{E0FFF}'
                | '\u{F0000}'..='\u{10FFFF}'
        )
}

/// Checks the characters of an already normalized name: `Err` with a German message naming the
/// first control or invisible character (as `U+XXXX`), e.g. „enthält ein Steuerzeichen oder
/// unsichtbares Zeichen (U+202E)“. An empty name passes here (callers say „darf nicht leer sein“).
pub fn check_name_chars(name: &str) -> Result<(), String> {
    match name.chars().find(|&c| is_invisible(c)) {
        Some(c) => Err(format!(
            "enthält ein Steuerzeichen oder unsichtbares Zeichen (U+{:04X})",
            u32::from(c)
        )),
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn invisible_and_control_characters_are_refused() {
        // (raw name, accepted after normalize_name)
        let cases = [
            ("Anna", true),
            ("Jürgen", true),
            ("Jean-Luc O'Neil", true),
            ("Zoë Ørsted", true),
            ("  Anna  ", true),
            ("An\u{7}na", false),
            ("\u{1b}[31mRot", false),
            ("An\tna", false),
            ("An\nna", false),
            ("An\u{7f}na", false),
            ("An\u{85}na", false),
            ("\u{202E}annA", false),
            ("An\u{202A}na", false),
            ("An\u{2066}na\u{2069}", false),
            ("An\u{200B}na", false),
            ("An\u{200D}na", false),
            ("An\u{200F}na", false),
            ("\u{FEFF}Anna", false),
            ("\u{200B}\u{200C}\u{2060}", false),
            ("An\u{00AD}na", false),
            ("\u{3164}", false),
            // Hostile run: the object replacement and the replacement character (a box, a broken
            // byte) passed as parts of a name.
            ("Anna\u{FFFC}", false),
            ("J\u{FFFD}rgen", false),
        ];
        for (raw, ok) in cases {
            let name = normalize_name(raw);
            assert_eq!(check_name_chars(&name).is_ok(), ok, "{raw:?}");
        }
        let e = check_name_chars("\u{202E}x").unwrap_err();
        assert!(e.contains("U+202E"), "{e}");
    }

    #[test]
    fn nfc_and_case_give_one_key() {
        // (a, b, same player)
        let cases = [
            ("Zoe", "zoe", true),
            ("J\u{fc}rgen", "Ju\u{308}rgen", true),
            ("JÜRGEN", "ju\u{308}rgen", true),
            (" Anna", "Anna ", true),
            ("Anna", "Anne", false),
            // Look-alikes (hostile trial): fullwidth and compatibility forms are the same player.
            ("\u{FF21}nna", "Anna", true),
            ("\u{FF21}\u{FF2E}\u{FF2E}\u{FF21}", "anna", true),
            ("Anna\u{2163}", "Anna IV", false),
            ("Anna\u{2163}", "AnnaIV", true),
            ("Weiß", "Weiss", false),
        ];
        for (a, b, same) in cases {
            assert_eq!(name_key(a) == name_key(b), same, "{a:?} {b:?}");
        }
        assert_eq!(normalize_name("Ju\u{308}rgen"), "J\u{fc}rgen");
        // Stored as typed: only the key folds.
        assert_eq!(normalize_name("\u{FF21}nna"), "\u{FF21}nna");
    }

    #[test]
    fn look_alikes_of_other_scripts_give_one_key() {
        // (a, b, look alike)
        let cases = [
            ("\u{410}nna", "Anna", true),
            ("\u{430}dmin", "admin", true),
            ("\u{430}dmin", "Admin", true),
            ("\u{391}\u{39D}\u{39D}\u{391}", "ANNA", true),
            ("\u{FF21}nna", "anna", true),
            ("KIaus", "Klaus", true),
            ("B\u{435}rnd", "Bernd", true),
            // Hostile run: Latin small capitals (one script, no confusable of their own).
            ("\u{1D00}nna", "Anna", true),
            ("\u{0299}ernd", "Bernd", true),
            ("\u{1D0B}\u{029F}aus", "Klaus", true),
            ("Anna", "Anne", false),
            ("Jürgen", "Jurgen", false),
            ("Weiß", "Weiss", false),
            ("Zoë", "Zoe", false),
        ];
        for (a, b, same) in cases {
            assert_eq!(look_alike_key(a) == look_alike_key(b), same, "{a:?} {b:?}");
        }
        let players = vec![(1, "Anna".to_string())];
        let e = twin("\u{410}nna", None, &players).unwrap();
        assert!(e.to_string().contains("gleich aussehende Zeichen"), "{e}");
        assert!(twin("Anna", None, &players).is_none());
    }

    #[test]
    fn a_name_is_written_in_one_script() {
        // (name, accepted)
        let cases = [
            ("Anna", true),
            ("Jean-Luc O'Neil", true),
            ("Zoë Ørsted 2", true),
            ("Анна", true),
            ("Αλέξης", true),
            ("山田 たろう", true),
            ("\u{410}nna", false),
            ("\u{430}dmin", false),
            ("B\u{435}rnd", false),
            ("Anna \u{3A9}", false),
        ];
        for (name, ok) in cases {
            assert_eq!(check_single_script(name).is_ok(), ok, "{name:?}");
        }
        let e = check_single_script("\u{410}nna").unwrap_err();
        assert!(e.contains("U+0410") && e.contains("U+006E"), "{e}");
    }
}
