//! German formats for the UI and the command line (one module for both; the web's askama filters
//! `|euro`, `|date_de`, `|dwert`, `|de2` call these): D.Wert with two decimals and a decimal comma,
//! money in euros, dates as `09.01.2026`.

use chrono::{NaiveDate, Weekday};

/// German date: 2026-01-09 → `"09.01.2026"`.
pub fn date_de(d: NaiveDate) -> String {
    d.format("%d.%m.%Y").to_string()
}

/// German number with two decimals: 6.0 → `"6,00"`, -1234.5 → `"-1234,50"` (Teilnahmen).
pub fn de2(v: f64) -> String {
    format!("{v:.2}").replace('.', ",")
}

/// A D.Wert `num / den` with two decimals (half up) and a decimal comma: `format_dwert(180, 30)` →
/// `"6,00"`. `den` ≤ 0 gives `"–"` (no D.Wert).
pub fn format_dwert(num: i64, den: i64) -> String {
    if den <= 0 {
        return "–".to_string();
    }
    let (n, d) = (i128::from(num), i128::from(den));
    let neg = n < 0;
    // hundredths, rounded half away from zero
    let hundredths = (n.abs() * 200 + d) / (2 * d);
    format!(
        "{}{},{:02}",
        if neg && hundredths > 0 { "-" } else { "" },
        hundredths / 100,
        hundredths % 100
    )
}

/// Cents as German euros with thousands dots: `format_cents(123450)` → `"1.234,50 €"`,
/// `format_cents(-5)` → `"-0,05 €"`.
pub fn format_cents(cents: i64) -> String {
    let abs = cents.unsigned_abs();
    let euros = (abs / 100).to_string();
    let mut grouped = String::new();
    for (i, c) in euros.chars().enumerate() {
        if i > 0 && (euros.len() - i).is_multiple_of(3) {
            grouped.push('.');
        }
        grouped.push(c);
    }
    format!(
        "{}{},{:02} €",
        if cents < 0 { "-" } else { "" },
        grouped,
        abs % 100
    )
}

/// `text` as the end of a German sentence: with a full stop, unless it already ends in ".", "!"
/// or "?" (a name like "Claus M." gets no second stop: "Umbenannt in Claus M.").
pub fn sentence_end(text: &str) -> String {
    match text.trim_end().chars().last() {
        Some('.' | '!' | '?') => text.trim_end().to_string(),
        _ => format!("{}.", text.trim_end()),
    }
}

/// The German name of month `m` (1..=12), e.g. 9 → "September".
pub fn month_name(m: u32) -> &'static str {
    const NAMES: [&str; 12] = [
        "Januar",
        "Februar",
        "März",
        "April",
        "Mai",
        "Juni",
        "Juli",
        "August",
        "September",
        "Oktober",
        "November",
        "Dezember",
    ];
    NAMES
        .get(m.wrapping_sub(1) as usize)
        .copied()
        .unwrap_or("?")
}

/// The German name of a weekday: "Montag" … "Sonntag".
pub fn weekday_de(day: Weekday) -> &'static str {
    match day {
        Weekday::Mon => "Montag",
        Weekday::Tue => "Dienstag",
        Weekday::Wed => "Mittwoch",
        Weekday::Thu => "Donnerstag",
        Weekday::Fri => "Freitag",
        Weekday::Sat => "Samstag",
        Weekday::Sun => "Sonntag",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_sentence_ends_in_one_stop() {
        let cases = [
            ("Umbenannt in Claus M", "Umbenannt in Claus M."),
            ("Umbenannt in Claus M.", "Umbenannt in Claus M."),
            ("Gespeichert!", "Gespeichert!"),
            ("Wer?", "Wer?"),
            ("Anna ", "Anna."),
            ("", "."),
        ];
        for (text, want) in cases {
            assert_eq!(sentence_end(text), want, "{text}");
        }
    }

    #[test]
    fn dwert_two_decimals_with_comma() {
        let cases = [
            (180, 30, "6,00"),
            (1100, 118, "9,32"),
            (2, 3, "0,67"),
            (1, 200, "0,01"), // 0.005 rounds half up
            (1, 201, "0,00"),
            (0, 5, "0,00"),
            (1234567, 100, "12345,67"),
            (5, 0, "–"),
        ];
        for (num, den, expected) in cases {
            assert_eq!(format_dwert(num, den), expected, "{num}/{den}");
        }
    }

    #[test]
    fn german_numbers_and_dates() {
        let numbers = [
            (6.0, "6,00"),
            (28.3, "28,30"),
            (0.05, "0,05"),
            (-1.5, "-1,50"),
        ];
        for (v, s) in numbers {
            assert_eq!(de2(v), s);
        }
        let d = chrono::NaiveDate::from_ymd_opt(2026, 1, 9).unwrap();
        assert_eq!(date_de(d), "09.01.2026");
    }

    #[test]
    fn cents_as_euros() {
        let cases = [
            (123450, "1.234,50 €"),
            (0, "0,00 €"),
            (5, "0,05 €"),
            (1500, "15,00 €"),
            (100_000_000, "1.000.000,00 €"),
            (-5, "-0,05 €"),
            (-123456, "-1.234,56 €"),
        ];
        for (cents, expected) in cases {
            assert_eq!(format_cents(cents), expected, "{cents}");
        }
    }
}
