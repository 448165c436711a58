//! What forms share: the Korrektur fields of a closed night ([`KorrekturFields`]).

use serde::Deserialize;

use crate::league::Korrektur;

/// The fields a form that changes a night carries for a closed night: the "Korrektur" tick box
/// (`korrektur=on`) and its reason (`korrektur_grund`). Flatten them into the form struct
/// (`#[serde(flatten)]`) and include `kit/korrektur.html` in the template.
#[derive(Debug, Default, Clone, Deserialize)]
pub struct KorrekturFields {
    /// Present (any value) when the box "Korrektur" is ticked.
    #[serde(default)]
    pub korrektur: Option<String>,
    /// Why the closed night is corrected.
    #[serde(default)]
    pub korrektur_grund: String,
}

impl From<&KorrekturFields> for Korrektur {
    fn from(f: &KorrekturFields) -> Korrektur {
        Korrektur {
            ticked: f.korrektur.is_some(),
            reason: f.korrektur_grund.clone(),
        }
    }
}

#[cfg(test)]
mod tests;
