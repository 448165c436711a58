//! The Kassenprüfer's *Geprüft* (issue 35.3): he checked the books of a season, on the club's
//! day, with an optional note; stored in `kassenpruefungen` with a Protokoll line. Not season
//! data: not in the season file and no season version (as the card's payment reports). The
//! Jahresabschluss shows them to logged-in accounts; the Kassenbericht reads them from
//! [`League::pruefungen`].

use serde_json::json;

use crate::db;
use crate::league::model::format::date_de;
use crate::service::{League, ServiceError};

/// A stored *Geprüft* ([`db::money::Pruefung`]): season, the Kassenprüfer's login name, the
/// club's day, the note, when.
pub use crate::db::money::Pruefung;

/// The longest note of a *Geprüft*, in characters.
pub const MAX_NOTE_CHARS: usize = 500;

/// The note of a *Geprüft* as typed: line breaks and runs of spaces become one space, trimmed;
/// empty is fine. `Err` is the German refusal naming the field: more than [`MAX_NOTE_CHARS`]
/// characters, a control or invisible character.
pub fn check_note(typed: &str) -> Result<String, ServiceError> {
    let note = typed.split_whitespace().collect::<Vec<_>>().join(" ");
    if note.chars().count() > MAX_NOTE_CHARS {
        return Err(ServiceError::refused(format!(
            "Bemerkung: höchstens {MAX_NOTE_CHARS} Zeichen (es sind {}).",
            note.chars().count()
        )));
    }
    crate::league::model::names::check_name_chars(&note)
        .map_err(|why| ServiceError::refused(format!("Bemerkung: sie {why}.")))?;
    Ok(note)
}

/// The line of a *Geprüft* as the Jahresabschluss (and the Kassenbericht) shows it: "Geprüft
/// von Petra am 05.01.2027: Belege vollständig." (without a note: no colon part).
pub fn pruefung_line(p: &Pruefung) -> String {
    let head = format!("Geprüft von {} am {}", p.username, date_de(p.day));
    if p.note.is_empty() {
        head
    } else {
        format!("{head}: {}", p.note)
    }
}

/// [`pruefung_line`] of `p` against the book now (its last Beleg `last_beleg`): when Belege came
/// after the check, it says so — "… – nach der Prüfung geändert: 2 Belege" — instead of a plain
/// Geprüft. A check stored before it kept what it saw reads as it did.
pub fn pruefung_line_now(p: &Pruefung, last_beleg: u32) -> String {
    let line = pruefung_line(p);
    match p.last_beleg {
        Some(seen) if i64::from(last_beleg) > seen => {
            let n = i64::from(last_beleg) - seen;
            let belege = if n == 1 { "Beleg" } else { "Belege" };
            format!("{line} – nach der Prüfung geändert: {n} {belege}")
        }
        _ => line,
    }
}

impl League {
    /// The lines of the *Geprüft*s of season `year`, oldest first, each against the book now
    /// ([`pruefung_line_now`]). Errors: storage.
    pub async fn pruefung_lines(&self, year: i32) -> Result<Vec<String>, ServiceError> {
        let checks = self.pruefungen(year).await?;
        if checks.is_empty() {
            return Ok(Vec::new());
        }
        let books = self.books(year).await?;
        let last = books
            .book
            .bookings
            .iter()
            .map(|b| b.beleg)
            .max()
            .unwrap_or(0);
        Ok(checks.iter().map(|p| pruefung_line_now(p, last)).collect())
    }

    /// Kassenprüfer `author` marks the books of season `year` *Geprüft* on the club's today with
    /// `note` (optional, [`check_note`]), and the Protokoll says so ("Kasse geprüft: Saison
    /// 2026 von Petra am 05.01.2027"). The caller checks the role (only a Kassenprüfer). Refused
    /// (German): no such season, a bad note. Returns what was stored.
    pub async fn mark_checked(
        &self,
        year: i32,
        author: &str,
        note: &str,
    ) -> Result<Pruefung, ServiceError> {
        self.snapshot().season(year)?;
        let note = check_note(note)?;
        // What he saw: the last Beleg and the Endbestand (issue 35, trials: Geprüft goes stale).
        let books = self.books(year).await?;
        let last_beleg = books.book.bookings.iter().map(|b| i64::from(b.beleg)).max();
        let seen = (last_beleg.unwrap_or(0), books.book.end.total());
        let day = self.today();
        let created_at = self
            .clock()
            .now()
            .to_rfc3339_opts(chrono::SecondsFormat::Secs, true);
        let mut tx = self.db().begin_write_as(author).await?;
        let id =
            db::money::add_pruefung(&mut tx, year, author, day, &note, &created_at, seen).await?;
        let stored = Pruefung {
            id,
            season: i64::from(year),
            username: author.to_string(),
            day,
            note,
            created_at,
            last_beleg: Some(seen.0),
            end_cents: Some(seen.1),
        };
        db::audit::record(
            &mut tx,
            author,
            &format!(
                "Kasse geprüft: Saison {year} von {author} am {}{}",
                date_de(day),
                if stored.note.is_empty() {
                    String::new()
                } else {
                    format!(" ({})", stored.note)
                }
            ),
            None,
            Some(
                &json!({ "pruefung": id, "season": year, "by": author, "day": day,
                          "note": stored.note }),
            ),
        )
        .await?;
        tx.commit().await?;
        Ok(stored)
    }

    /// The *Geprüft*s of season `year`, oldest first: who (login name), the club's day, the note
    /// ([`pruefung_line`] words one). For the Jahresabschluss and the Kassenbericht (issue 35.2,
    /// 35.3). An unknown season has none.
    pub async fn pruefungen(&self, year: i32) -> Result<Vec<Pruefung>, ServiceError> {
        Ok(db::money::pruefungen_of_season(&self.db().read, year).await?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_note_is_one_line_of_at_most_500_characters_without_control_characters() {
        assert_eq!(check_note("  ").unwrap(), "");
        assert_eq!(
            check_note(" Belege\r\n vollständig. ").unwrap(),
            "Belege vollständig."
        );
        assert_eq!(check_note(&"ä".repeat(500)).unwrap().chars().count(), 500);
        let long = check_note(&"ä".repeat(501)).unwrap_err().to_string();
        assert!(long.contains("höchstens 500 Zeichen"), "{long}");
        let hidden = check_note("ok\u{202E}").unwrap_err().to_string();
        assert!(hidden.contains("Bemerkung"), "{hidden}");
    }

    #[test]
    fn the_line_names_who_when_and_the_note() {
        let mut p = Pruefung {
            id: 1,
            season: 2026,
            username: "petra".to_string(),
            day: chrono::NaiveDate::from_ymd_opt(2027, 1, 5).unwrap(),
            note: "Belege vollständig.".to_string(),
            created_at: String::new(),
            last_beleg: None,
            end_cents: None,
        };
        assert_eq!(
            pruefung_line(&p),
            "Geprüft von petra am 05.01.2027: Belege vollständig."
        );
        p.note.clear();
        assert_eq!(pruefung_line(&p), "Geprüft von petra am 05.01.2027");
    }
}
