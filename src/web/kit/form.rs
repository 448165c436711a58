//! What forms share: the Korrektur fields of a closed night ([`KorrekturFields`]) and the one
//! file of an upload form ([`uploaded_file`]).

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

/// The file of an upload form's field `datei` (multipart): its name and bytes. Refused (German):
/// a body that did not arrive whole, no file chosen (`none`), a file over `max_bytes` (`too_big`
/// of its name). The spreadsheet import and the bank statement share it.
pub async fn uploaded_file(
    mut multipart: axum::extract::Multipart,
    max_bytes: usize,
    too_big: impl Fn(&str) -> String,
    none: &str,
) -> Result<(String, Vec<u8>), crate::service::ServiceError> {
    use crate::service::ServiceError;
    let unreadable = |e: axum::extract::multipart::MultipartError| {
        ServiceError::refused(format!("Die Datei kam nicht ganz an ({e})."))
    };
    while let Some(field) = multipart.next_field().await.map_err(unreadable)? {
        if field.name() != Some("datei") {
            continue;
        }
        let name = field.file_name().unwrap_or_default().trim().to_string();
        let bytes = field.bytes().await.map_err(unreadable)?;
        if name.is_empty() || bytes.is_empty() {
            break;
        }
        if bytes.len() > max_bytes {
            return Err(ServiceError::refused(too_big(&name)));
        }
        return Ok((name, bytes.to_vec()));
    }
    Err(ServiceError::refused(none))
}
