//! Unit tests of `src/rules/dice.rs` (a plain `mod tests;` beside it, so the module reads as the code alone).

use super::*;

#[test]
fn dice_are_sorted_and_read_as_numbers() {
    let cases = [
        ([3, 6, 4], [6, 4, 3], 643),
        ([1, 2, 2], [2, 2, 1], 221),
        ([6, 6, 5], [6, 6, 5], 665),
        ([1, 1, 1], [1, 1, 1], 111),
    ];
    for (input, sorted, number) in cases {
        let d = Dice::new(input).unwrap();
        assert_eq!(d.values(), sorted);
        assert_eq!(d.number(), number);
    }
}

#[test]
fn out_of_range_values_are_refused() {
    for bad in [[0, 1, 1], [7, 1, 1], [1, 1, 9]] {
        assert_eq!(Dice::new(bad), None);
    }
    assert!(serde_json::from_str::<Dice>("[7,1,1]").is_err());
    assert_eq!(
        serde_json::from_str::<Dice>("[1,4,2]").unwrap().values(),
        [4, 2, 1]
    );
}

#[test]
fn there_are_216_rolls() {
    assert_eq!(Dice::all_rolls().count(), 216);
    assert_eq!(
        Dice::all_rolls()
            .collect::<std::collections::HashSet<_>>()
            .len(),
        216
    );
}
