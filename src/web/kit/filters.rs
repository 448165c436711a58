//! The askama filters of the templates: German formats of domain values, from
//! `league::model::format` (the command line uses the same functions). In a template:
//! `{{ cents|euro }}` → "1.234,50 €", `{{ date|date_de }}` → "09.01.2026",
//! `{{ d_wert|dwert }}` (a `DWert`) → "6,17", `{{ teilnahmen|de2 }}` → "12,00".
//! Each takes the value or a reference to it.

use askama::{Result, Values};
use chrono::NaiveDate;

use crate::league::{model::format, DWert};

/// A value a filter formats, given as itself or through any number of references (askama hands
/// fields and loop variables to filters as `&T` or `&&T`).
pub trait Val<T> {
    /// The value.
    fn val(&self) -> T;
}

macro_rules! val {
    ($($t:ty),*) => {$(
        impl Val<$t> for $t {
            fn val(&self) -> $t {
                *self
            }
        }
    )*};
}
val!(i64, f64, NaiveDate, DWert);

impl<T, U: Val<T> + ?Sized> Val<T> for &U {
    fn val(&self) -> T {
        (**self).val()
    }
}

/// Cents as German euros.
#[askama::filter_fn]
pub fn euro<T: Val<i64>>(cents: T, _: &dyn Values) -> Result<String> {
    Ok(format::format_cents(cents.val()))
}

/// A date as `09.01.2026`.
#[askama::filter_fn]
pub fn date_de<T: Val<NaiveDate>>(date: T, _: &dyn Values) -> Result<String> {
    Ok(format::date_de(date.val()))
}

/// An exact D.Wert with two decimals and a comma ("–" without rounds).
#[askama::filter_fn]
pub fn dwert<T: Val<DWert>>(d: T, _: &dyn Values) -> Result<String> {
    let d = d.val();
    Ok(format::format_dwert(d.num, d.den))
}

/// A number with two decimals and a comma (Teilnahmen).
#[askama::filter_fn]
pub fn de2<T: Val<f64>>(v: T, _: &dyn Values) -> Result<String> {
    Ok(format::de2(v.val()))
}
