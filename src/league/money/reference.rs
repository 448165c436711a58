//! The creditor reference of a player's payments (ISO 11649 "Structured creditor reference to
//! remittance information", issue 34.2): `RF`, two check digits and up to 21 letters or digits,
//! checked mod 97 like an IBAN (ISO 7064 MOD 97-10). One per player and season, derived from the
//! season's year and the player's id, so that a transfer that carries it names the season and the
//! player exactly (the bank statement's matching reads it back with [`parse_player_reference`]).
//! Pure code.

/// Longest reference body after `RF` and the check digits (ISO 11649: 21 characters).
pub const MAX_BODY_CHARS: usize = 21;

/// The remainder mod 97 of `text` read as a number with letters as two digits (A = 10 … Z = 35),
/// as ISO 7064 MOD 97-10 reads it; `None` when it holds anything but ASCII letters and digits.
fn mod97(text: &str) -> Option<u32> {
    let mut rest: u32 = 0;
    for c in text.chars() {
        let v = c.to_digit(36)?;
        rest = if v < 10 {
            (rest * 10 + v) % 97
        } else {
            (rest * 100 + v) % 97
        };
    }
    Some(rest)
}

/// The ISO 11649 reference of `body` (1 to [`MAX_BODY_CHARS`] letters or digits, any case):
/// `RF`, the check digits `98 − (body + "RF00" mod 97)` as two digits, the body in capitals.
/// `None` for a body that is empty, too long or not alphanumeric.
pub fn creditor_reference(body: &str) -> Option<String> {
    let body = body.to_ascii_uppercase();
    if body.is_empty() || body.len() > MAX_BODY_CHARS {
        return None;
    }
    let rest = mod97(&format!("{body}RF00"))?;
    Some(format!("RF{:02}{body}", 98 - rest))
}

/// Whether `input` is a valid ISO 11649 reference: spaces ignored, any case; `RF`, two check
/// digits, 1 to [`MAX_BODY_CHARS`] letters or digits, and the first four characters moved to the
/// end give 1 mod 97.
pub fn is_valid(input: &str) -> bool {
    let compact: String = input
        .chars()
        .filter(|c| !c.is_whitespace())
        .collect::<String>()
        .to_ascii_uppercase();
    let Some(rest) = compact.strip_prefix("RF") else {
        return false;
    };
    let body_len = rest.len().saturating_sub(2);
    if !(1..=MAX_BODY_CHARS).contains(&body_len)
        || !rest.chars().take(2).all(|c| c.is_ascii_digit())
    {
        return false;
    }
    let (head, tail) = compact.split_at(4);
    mod97(&format!("{tail}{head}")) == Some(1)
}

/// The reference of player `player_id`'s payments in season `year` (issue 34.2): the body is the
/// year's four digits and the id ("2026" + "12" → `RF…202612`), so it is the same every time and
/// differs for every player and season. `None` for a year outside 1000..=9999 or an id outside
/// 1..=10^17 − 1 (the body would not fit).
pub fn player_reference(year: i32, player_id: i64) -> Option<String> {
    if !(1000..=9999).contains(&year) || !(1..100_000_000_000_000_000).contains(&player_id) {
        return None;
    }
    creditor_reference(&format!("{year}{player_id}"))
}

/// The season and player id of a reference made by [`player_reference`] (spaces ignored, any
/// case); `None` for an invalid reference or one of another shape.
pub fn parse_player_reference(input: &str) -> Option<(i32, i64)> {
    if !is_valid(input) {
        return None;
    }
    let compact: String = input.chars().filter(|c| !c.is_whitespace()).collect();
    let body = compact.get(4..)?;
    let year: i32 = body.get(..4)?.parse().ok()?;
    let id: i64 = body.get(4..)?.parse().ok()?;
    (player_reference(year, id).as_deref() == Some(&compact.to_ascii_uppercase()))
        .then_some((year, id))
}

/// A reference in groups of four for reading and typing: "RF18 5390 0754 7034".
pub fn grouped(reference: &str) -> String {
    reference
        .as_bytes()
        .chunks(4)
        .map(|c| String::from_utf8_lossy(c).into_owned())
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests;
