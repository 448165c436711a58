//! A bank statement booked (issue 34.3): read ([`read_statement`]), matched and shown
//! ([`League::preview_statement`]: nothing stored), then booked ([`League::book_statement`]):
//! each new credit with a player — matched, or chosen by the Kassenwart — as a
//! `Change::BookPayment` on its booking day (the rule of the Zahlungen page, one Protokoll line
//! each), and its key in `statement_entries`, all in one transaction. An entry booked before
//! (its bank reference or its hash, [`crate::db::money::statement_entries_known`]) is counted,
//! never booked again. Debits are listed, not booked.

use std::collections::BTreeMap;

use serde_json::{json, Value};

use crate::db;
use crate::league::money::items::statement::matching::{find, Found, How};
use crate::league::money::items::statement::{self, Entry, Statement};
use crate::league::money::items::{allocate, OpenItem};
use crate::league::Change;
use crate::service::write::Then;
use crate::service::{Edit, League, ServiceError};

/// The statement `bytes` of the file `name` read ([`statement::read`]); refused (German, the
/// file, line and element or column, and why) when it is none.
pub fn read_statement(name: &str, bytes: &[u8]) -> Result<Statement, ServiceError> {
    statement::read(name, bytes).map_err(|e| ServiceError::refused(format!("{name}: {e}")))
}

/// One credit of a statement as it would be booked.
#[derive(Debug, Clone)]
pub struct CreditLine {
    /// Its number among the file's credits (0-based): the preview's field `spieler_{index}`.
    pub index: usize,
    /// The entry.
    pub entry: Entry,
    /// How it matched, and the suggestion without a match.
    pub found: Found,
    /// Booked before (its bank reference or hash is stored): not booked again.
    pub known: bool,
    /// The player it is booked for: the match, else the Kassenwart's choice; `None`: not booked.
    pub player: Option<String>,
    /// The items it pays whole, oldest first (the rule of a payment on its day).
    pub items_paid: Vec<OpenItem>,
    /// The player's Guthaben after it, cents.
    pub credit_cents: i64,
}

/// A statement as it would be booked: its credits, its debits (listed only) and how many
/// credits were booked before.
#[derive(Debug, Clone)]
pub struct StatementPreview {
    /// The format found ("CAMT.053.001.08", "Sparkasse CSV-CAMT", …).
    pub format: String,
    /// The credits in file order.
    pub credits: Vec<CreditLine>,
    /// The debits in file order (not booked).
    pub debits: Vec<Entry>,
}

impl StatementPreview {
    /// Credits read before.
    pub fn already(&self) -> usize {
        self.credits.iter().filter(|c| c.known).count()
    }

    /// The credits that a confirm books: new and with a player.
    pub fn to_book(&self) -> impl Iterator<Item = &CreditLine> {
        self.credits
            .iter()
            .filter(|c| !c.known && c.player.is_some())
    }

    /// The `--json` shape (docs/saisondatei.md "Kontoauszug"): `{"format", "credits": [{"date",
    /// "cents", "purpose", "counterparty", "player" (or null), "match" (referenz|text|keine),
    /// "suggestion" (or null), "items_paid": [{"kind" (fine|fee), "date", "cents"}],
    /// "credit_cents"}], "debits": [{"date", "cents", "purpose", "counterparty"}],
    /// "already_booked"}`; the credits booked before are left out of `credits`, counted in
    /// `already_booked`.
    pub fn json(&self) -> Value {
        let credits: Vec<Value> = self
            .credits
            .iter()
            .filter(|c| !c.known)
            .map(|c| {
                let items: Vec<Value> = c
                    .items_paid
                    .iter()
                    .map(|i| match i.fine {
                        Some((night, _)) => {
                            json!({"kind": "fine", "date": night, "cents": i.cents})
                        }
                        None => json!({"kind": "fee", "date": c.entry.date, "cents": i.cents}),
                    })
                    .collect();
                json!({
                    "date": c.entry.date,
                    "cents": c.entry.cents,
                    "purpose": c.entry.purpose,
                    "counterparty": c.entry.counterparty,
                    "player": c.player,
                    "match": c.found.how,
                    "suggestion": c.found.suggestion,
                    "items_paid": items,
                    "credit_cents": c.credit_cents,
                })
            })
            .collect();
        let debits: Vec<Value> = self
            .debits
            .iter()
            .map(|d| {
                json!({"date": d.date, "cents": d.cents, "purpose": d.purpose,
                       "counterparty": d.counterparty})
            })
            .collect();
        json!({
            "format": self.format,
            "credits": credits,
            "debits": debits,
            "already_booked": self.already(),
        })
    }
}

/// What a confirm did: credits booked now, credits booked before, credits left without a player.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Booked {
    /// New bookings.
    pub new: usize,
    /// Credits read before (not booked again).
    pub already: usize,
    /// New credits without a player (not booked).
    pub open: usize,
}

impl Booked {
    /// The German result: "6 neue Buchungen, 0 schon eingelesen" (and ", 2 ohne Spieler nicht
    /// gebucht" when some were left).
    pub fn text(&self) -> String {
        let mut s = format!(
            "{} neue Buchung{}, {} schon eingelesen",
            self.new,
            if self.new == 1 { "" } else { "en" },
            self.already
        );
        if self.open > 0 {
            s.push_str(&format!(", {} ohne Spieler nicht gebucht", self.open));
        }
        s
    }
}

impl League {
    /// Statement `statement` against season `year` as it would be booked, with `chosen` (credit
    /// index → player name) for the credits without a match: each credit matched
    /// ([`find`]), marked when booked before, and its items and Guthaben by the rule of a payment
    /// on its day, the credits before it booked first. Nothing is stored. Refused (German, the
    /// entry's line): a chosen name that is no player of the season, a payment the league
    /// refuses; `NoSeason`.
    pub async fn preview_statement(
        &self,
        year: i32,
        statement: &Statement,
        chosen: &BTreeMap<usize, String>,
    ) -> Result<StatementPreview, ServiceError> {
        let snapshot = self.snapshot();
        let view = snapshot.season(year)?;
        let (credits, debits): (Vec<&Entry>, Vec<&Entry>) =
            statement.entries.iter().partition(|e| e.is_credit());
        let keys: Vec<(Option<String>, String, chrono::NaiveDate, i64)> = credits
            .iter()
            .map(|e| (e.bank_ref.clone(), e.hash(), e.date, e.cents))
            .collect();
        let known = {
            let mut conn = self.inner.db.read.acquire().await?;
            db::money::statement_entries_known(&mut conn, &keys).await?
        };
        let mut season = view.season.clone();
        let mut lines = Vec::with_capacity(credits.len());
        for (index, entry) in credits.into_iter().enumerate() {
            let found = find(&view.season, &view.ids.players, entry);
            let known = known.get(index).copied().unwrap_or(false);
            let player = match found.how {
                How::None => chosen.get(&index).cloned().filter(|n| !n.is_empty()),
                _ => found.player.clone(),
            };
            let mut line = CreditLine {
                index,
                entry: entry.clone(),
                found,
                known,
                player: player.clone(),
                items_paid: Vec::new(),
                credit_cents: 0,
            };
            if let (Some(p), false) = (player, known) {
                let at = |e: crate::league::EntryError| {
                    ServiceError::refused(format!("{}: {}", entry.at, e))
                };
                let a = allocate(&season, &p, entry.cents, entry.date).map_err(at)?;
                season = season.apply(&payment(&p, entry)).map_err(at)?;
                line.items_paid = a.items;
                line.credit_cents = a.credit_cents;
            }
            lines.push(line);
        }
        Ok(StatementPreview {
            format: statement.format.clone(),
            credits: lines,
            debits: debits.into_iter().cloned().collect(),
        })
    }

    /// Books statement `statement` into season `year` ([`League::preview_statement`] with
    /// `chosen`): every new credit with a player as a payment on its day, in file order, one
    /// Protokoll line each, and its key kept in `statement_entries`, in one transaction (all or
    /// nothing); each settles the player's oldest open "Ich habe bezahlt" over exactly its amount
    /// (`db::card::settle_open_report`, with a Protokoll line). Refused as the preview, and when
    /// another confirm booked one of them meanwhile.
    pub async fn book_statement(
        &self,
        year: i32,
        statement: &Statement,
        chosen: &BTreeMap<usize, String>,
        edit: &Edit,
    ) -> Result<Booked, ServiceError> {
        let preview = self.preview_statement(year, statement, chosen).await?;
        let view = self.snapshot().season(year)?.clone();
        let mut changes = Vec::new();
        let mut rows = Vec::new();
        for c in preview.to_book() {
            let Some(p) = c.player.as_deref() else {
                continue;
            };
            let id = view.ids.players.get(p).copied().ok_or_else(|| {
                ServiceError::refused(format!(
                    "{}: {p} spielt nicht in der Saison {year}",
                    c.entry.at
                ))
            })?;
            changes.push(payment(p, &c.entry));
            rows.push((
                c.entry.bank_ref.clone(),
                c.entry.hash(),
                c.entry.date,
                c.entry.cents,
                id,
            ));
        }
        let booked = Booked {
            new: changes.len(),
            already: preview.already(),
            open: preview
                .credits
                .iter()
                .filter(|c| !c.known && c.player.is_none())
                .count(),
        };
        if changes.is_empty() {
            return Ok(booked);
        }
        let today = self.today();
        let author = edit.author.clone();
        let then: Then = Box::new(move |tx| {
            Box::pin(async move {
                let keys: Vec<(Option<String>, String, chrono::NaiveDate, i64)> = rows
                    .iter()
                    .map(|r| (r.0.clone(), r.1.clone(), r.2, r.3))
                    .collect();
                if db::money::statement_entries_known(&mut *tx, &keys)
                    .await?
                    .contains(&true)
                {
                    return Err(ServiceError::refused(
                        "Der Kontoauszug wurde inzwischen schon eingelesen: bitte die Datei \
                         noch einmal lesen.",
                    ));
                }
                for (bank_ref, hash, date, cents, id) in &rows {
                    db::money::add_statement_entry(
                        &mut *tx,
                        year,
                        bank_ref.as_deref(),
                        hash,
                        *date,
                        *cents,
                        *id,
                    )
                    .await?;
                    // "A later statement match settles it" (issue 34.4): the player's oldest
                    // open "Ich habe bezahlt" over exactly this amount.
                    if let Some(report) =
                        db::card::settle_open_report(&mut *tx, year, *id, *cents, today).await?
                    {
                        crate::service::card::reports::audit_booked(&mut *tx, &author, report)
                            .await?;
                    }
                }
                Ok(())
            })
        });
        self.changes_then(year, &changes, edit, then).await?;
        Ok(booked)
    }
}

/// The payment of credit `entry` by `player` on its booking day (the Zahlungen page's change).
fn payment(player: &str, entry: &Entry) -> Change {
    Change::BookPayment {
        player: player.to_string(),
        cents: entry.cents,
        paid_on: entry.date,
    }
}
