//! German number formats for the UI: D.Wert with two decimals and a decimal comma, money in euros.

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
        if i > 0 && (euros.len() - i) % 3 == 0 {
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

#[cfg(test)]
mod tests {
    use super::*;

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
