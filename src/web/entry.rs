//! The entry check every secretary form runs (issue item 3): rebuild the season file from the
//! database inside the form's write transaction, apply the submitted change, and run
//! `Season::from_file` on the result. A rejection stores nothing and says where and why.

use crate::db::{self, WriteTx};
use crate::league::file::SeasonFile;
use crate::league::{EntryError, Season};

use super::AppError;

/// Loads season `year` inside `tx`, applies `change` and checks the result. Outer error: storage
/// failed or no such season; inner error: the changed season breaks a rule (German message).
pub async fn check_change(
    tx: &mut WriteTx,
    year: i32,
    change: impl FnOnce(&mut SeasonFile) -> Result<(), String>,
) -> Result<Result<(SeasonFile, Season), String>, AppError> {
    let mut file = db::season::load_file_conn(tx, year)
        .await?
        .ok_or(AppError::NotFound)?;
    if let Err(why) = change(&mut file) {
        return Ok(Err(why));
    }
    let presence = db::night::presence_counts(tx, year).await?;
    Ok(Season::from_file_with_presence(&file, &presence)
        .map(|s| (file, s))
        .map_err(|e: EntryError| e.to_string()))
}
