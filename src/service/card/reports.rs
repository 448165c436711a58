//! "Ich habe bezahlt" from the player's card (issue 34.4): a player reports a payment; the
//! Kassenwart books it as a payment of that amount and day (the one rule of a payment, issue
//! 34.1) or marks it "nicht gefunden"; a payment of the same player and amount booked otherwise
//! settles the oldest open report ([`db::card::settle_open_report`]). Reports are not season
//! data: they are not in the season file (docs/saisondatei.md) and change no season version.

use std::sync::{Arc, Mutex};

use chrono::NaiveDate;
use serde_json::json;

use crate::db;
use crate::league::model::format::{date_de, format_cents};
use crate::league::Change;
use crate::service::{Edit, League, SeasonView, ServiceError};

/// A stored report ([`db::card::PaymentReportRow`]).
pub use crate::db::card::PaymentReportRow as PaymentReport;

/// At most this many open reports a player may have (the next one is refused).
pub const MAX_OPEN_REPORTS: i64 = 3;

/// The highest amount a report may name, cents (1.000,00 €).
pub const MAX_REPORT_CENTS: i64 = 100_000;

/// The ways of paying a report may name: (form value, German words "per Überweisung").
pub const HOW: [(&str, &str); 3] = [
    ("ueberweisung", "per Überweisung"),
    ("paypal", "per PayPal"),
    ("bar", "bar"),
];

/// The German words of the way `how` ("per Überweisung"); `how` itself when unknown.
pub fn how_de(how: &str) -> &str {
    HOW.iter()
        .find(|(k, _)| *k == how)
        .map_or(how, |(_, de)| de)
}

/// Checks a report's amount (`cents`, 1 to [`MAX_REPORT_CENTS`]) and way (`how`, one of
/// [`HOW`]); `Err` is the German refusal naming the field.
pub fn check_report(cents: i64, how: &str) -> Result<(), ServiceError> {
    if cents <= 0 {
        return Err(ServiceError::refused(
            "Betrag: er muss größer als 0,00 € sein.",
        ));
    }
    if cents > MAX_REPORT_CENTS {
        return Err(ServiceError::refused(format!(
            "Betrag: höchstens {} auf einmal; mehr bitte direkt mit der Kasse klären.",
            format_cents(MAX_REPORT_CENTS)
        )));
    }
    if !HOW.iter().any(|(k, _)| *k == how) {
        return Err(ServiceError::refused(
            "Wie bezahlt: bitte Überweisung, PayPal oder bar wählen.",
        ));
    }
    Ok(())
}

/// One line of a report for the Protokoll: "3,00 € per Überweisung von Dirk, gemeldet am
/// 20.12.2026".
fn words(r: &PaymentReport) -> String {
    format!(
        "{} {} von {}, gemeldet am {}",
        format_cents(r.cents),
        how_de(&r.how),
        r.name,
        date_de(r.reported_on)
    )
}

/// The Protokoll line of report `id` booked ("Meldung gebucht: 3,00 € per Überweisung von Anna,
/// gemeldet am …"), by `author`, inside the transaction `tx` that booked it: the Zahlungen page's
/// *Buchen*, a payment by hand and a statement's credit write the same line.
pub(crate) async fn audit_booked(
    tx: &mut sqlx::SqliteConnection,
    author: &str,
    id: i64,
) -> Result<(), ServiceError> {
    if let Some(r) = db::card::report(&mut *tx, id).await? {
        let action = format!("Meldung gebucht: {}", words(&r));
        let after = json!({ "report": id, "state": "gebucht" });
        db::audit::record(&mut *tx, author, &action, None, Some(&after)).await?;
    }
    Ok(())
}

impl League {
    /// Player `player_id` reports from his card that he paid `cents` `how` for season `year`
    /// (issue 34.4), on the club's today; stored open, with a Protokoll line by "Karte".
    /// Refused (German): a bad amount or way ([`check_report`]), not a player of the season,
    /// [`MAX_OPEN_REPORTS`] open reports already. Returns the report's id.
    pub async fn report_payment(
        &self,
        year: i32,
        player_id: i64,
        cents: i64,
        how: &str,
    ) -> Result<i64, ServiceError> {
        check_report(cents, how)?;
        let snapshot = self.snapshot();
        let name = snapshot
            .season(year)?
            .player_name(player_id)
            .ok_or_else(|| {
                ServiceError::refused(format!("Du spielst nicht in der Saison {year}."))
            })?
            .to_string();
        let today = self.today();
        let author = "Karte";
        let mut tx = self.db().begin_write_as(author).await?;
        if db::card::open_reports(&mut tx, player_id).await? >= MAX_OPEN_REPORTS {
            return Err(ServiceError::refused(format!(
                "Du hast schon {MAX_OPEN_REPORTS} offene Meldungen: die Kasse prüft sie zuerst. \
                 Eine weitere geht, sobald eine davon gebucht oder nicht gefunden ist."
            )));
        }
        let id = db::card::report_payment(&mut tx, year, player_id, cents, how, today).await?;
        db::audit::record(
            &mut tx,
            author,
            &format!(
                "Zahlung gemeldet: {} {} von {name} (Saison {year})",
                format_cents(cents),
                how_de(how)
            ),
            None,
            Some(
                &json!({ "report": id, "season": year, "player": name, "cents": cents,
                          "how": how, "reported_on": today }),
            ),
        )
        .await?;
        tx.commit().await?;
        Ok(id)
    }

    /// The open reports of season `year`, oldest first (the Zahlungen page).
    pub async fn open_payment_reports(
        &self,
        year: i32,
    ) -> Result<Vec<PaymentReport>, ServiceError> {
        Ok(db::card::open_reports_of_season(&self.db().read, year).await?)
    }

    /// The last ten reports of player `player_id`, newest first (his card).
    pub async fn payment_reports_of(
        &self,
        player_id: i64,
    ) -> Result<Vec<PaymentReport>, ServiceError> {
        Ok(db::card::reports_of_player(&self.db().read, player_id, 10).await?)
    }

    /// The open report `id` of season `year`; refused (German) when there is none or it is
    /// decided already.
    pub async fn open_payment_report(
        &self,
        year: i32,
        id: i64,
    ) -> Result<PaymentReport, ServiceError> {
        let mut conn = self.db().read.acquire().await.map_err(db::DbError::from)?;
        match db::card::report(&mut conn, id).await? {
            Some(r) if r.season == year && r.state == "open" => Ok(r),
            Some(r) if r.season == year => Err(ServiceError::refused(format!(
                "Die Meldung {} ist schon entschieden.",
                words(&r)
            ))),
            _ => Err(ServiceError::NotFound(format!("Meldung {id}"))),
        }
    }

    /// Books a payment of `player` over `cents` on `day` in season `year` by `edit`'s author
    /// (`Change::BookPayment`, the one rule of issue 34.1) and, in the same transaction, settles
    /// a report: `report` (the Kassenwart's *Buchen*: that one, refused when it was decided
    /// meanwhile), else the oldest open report of the player over exactly `cents`
    /// ([`db::card::settle_open_report`]), with a Protokoll line. Returns the season's new view
    /// and the settled report's id.
    pub async fn book_payment(
        &self,
        year: i32,
        player: &str,
        cents: i64,
        day: NaiveDate,
        edit: &Edit,
        report: Option<i64>,
    ) -> Result<(Arc<SeasonView>, Option<i64>), ServiceError> {
        let change = Change::BookPayment {
            player: player.to_string(),
            cents,
            paid_on: day,
        };
        let player_id = self
            .snapshot()
            .season(year)?
            .ids
            .players
            .get(&crate::league::normalize_name(player))
            .copied();
        let today = self.today();
        let author = edit.author.clone();
        let settled = Arc::new(Mutex::new(None));
        let out = settled.clone();
        let then: crate::service::write::Then = Box::new(move |tx| {
            Box::pin(async move {
                let id = match (report, player_id) {
                    (Some(id), _) => {
                        if !db::card::decide_report(&mut *tx, id, "gebucht", today).await? {
                            return Err(ServiceError::refused(
                                "Die Meldung ist inzwischen entschieden: bitte die Seite neu laden.",
                            ));
                        }
                        Some(id)
                    }
                    (None, Some(pid)) => {
                        db::card::settle_open_report(&mut *tx, year, pid, cents, today).await?
                    }
                    (None, None) => None,
                };
                if let Some(id) = id {
                    audit_booked(&mut *tx, &author, id).await?;
                }
                if let Ok(mut slot) = out.lock() {
                    *slot = id;
                }
                Ok(())
            })
        });
        let view = self
            .changes_then(year, std::slice::from_ref(&change), edit, then)
            .await?;
        let id = settled.lock().ok().and_then(|s| *s);
        Ok((view, id))
    }

    /// The Kassenwart's *Nicht gefunden*: marks the open report `id` of season `year` so, by
    /// `author` on the club's today, with a Protokoll line; returns it. Refused (German) when it
    /// was decided meanwhile; `NotFound` when there is none in the season.
    pub async fn report_not_found(
        &self,
        year: i32,
        id: i64,
        author: &str,
    ) -> Result<PaymentReport, ServiceError> {
        let report = self.open_payment_report(year, id).await?;
        let mut tx = self.db().begin_write_as(author).await?;
        if !db::card::decide_report(&mut tx, id, "nicht_gefunden", self.today()).await? {
            return Err(ServiceError::refused(
                "Die Meldung ist inzwischen entschieden: bitte die Seite neu laden.",
            ));
        }
        db::audit::record(
            &mut tx,
            author,
            &format!("Meldung nicht gefunden: {}", words(&report)),
            None,
            Some(&json!({ "report": id, "state": "nicht_gefunden" })),
        )
        .await?;
        tx.commit().await?;
        Ok(report)
    }
}
