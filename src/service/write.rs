//! The write pipeline: every change of league data, from a form, the Schockbesteck, the JSON API
//! or the command line, runs the same steps in one `BEGIN IMMEDIATE` transaction:
//!
//! 1. open the write transaction with its author (the audit triggers name him);
//! 2. take the season (the snapshot's view when it is at the stored counter, else read it);
//! 3. apply the change (`Season::apply`: the one check of league.md); a round entered by hand is
//!    refused while its Runde runs in the Schockbesteck;
//! 4. the closed-night gate: a change of a closed night's draw, rounds or fines needs a Korrektur
//!    with a reason, which is recorded;
//! 5. the change's SQL (`db::change`), the audit row the triggers do not write;
//! 6. commit, and install the changed season in the snapshot.
//!
//! A refusal at any step stores nothing and says where and why.

use std::sync::Arc;

use chrono::NaiveDate;
use serde_json::{json, Value};

use super::{League, SeasonView, ServiceError};
use crate::db::{self, WriteTx};
use crate::league::change::{changed_meanwhile_by, entered_round, round_version, Replace};
use crate::league::model::file::CorrectionEntry;
use crate::league::{self, Change, Korrektur, Season};

/// An audit row a change writes besides the triggers' rows: what was done, and the data after.
#[derive(Debug, Clone, PartialEq)]
pub struct AuditNote {
    /// What, in German ("Runde 3 an Tisch 1 am 09.01.2026 aus dem Schockbesteck gespeichert").
    pub action: String,
    /// The data after the change.
    pub after: Value,
}

/// Who makes a change and how: the author (login name, `cli`, …), the Korrektur of a closed
/// night, an extra audit row, and the Schockbesteck Runde the change confirms (removed with it).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Edit {
    /// The author named in the audit log.
    pub author: String,
    /// The Korrektur fields of the form (needed for a closed night).
    pub korrektur: Korrektur,
    /// An audit row written with the change.
    pub note: Option<AuditNote>,
    /// (table, round) of the Schockbesteck Runde this change confirms: its record is removed in
    /// the same transaction.
    pub confirms_runde: Option<(u32, u32)>,
}

impl Edit {
    /// A change by `author`, no Korrektur.
    pub fn by(author: &str) -> Edit {
        Edit {
            author: author.to_string(),
            ..Edit::default()
        }
    }

    /// The same with the Korrektur `korrektur`.
    pub fn korrektur(mut self, korrektur: Korrektur) -> Edit {
        self.korrektur = korrektur;
        self
    }
}

/// Refuses a confirm of the Schockbesteck Runde at `table`, round `round` when the Runde stored in
/// progress is no longer the one `changes` confirm (another phone took a Wurfrunde back, discarded
/// or replayed it since the page was loaded). Checked inside the write transaction, so a step of
/// the Runde and its confirm cannot interleave.
async fn confirmed_is_current(
    tx: &mut WriteTx,
    view: &SeasonView,
    changes: &[Change],
    table: u32,
    round: u32,
) -> Result<(), ServiceError> {
    let Some((date, played)) = changes.iter().find_map(|c| match c {
        Change::PutRound {
            date,
            schockbesteck: Some(p),
            ..
        } => Some((*date, p)),
        _ => None,
    }) else {
        return Ok(());
    };
    let Some(&night) = view.ids.nights.get(&date) else {
        return Ok(());
    };
    let stored = match db::besteck::get(tx, night, table, round).await {
        Ok(r) => r,
        Err(db::DbError::Corrupt(_)) => None,
        Err(e) => return Err(e.into()),
    };
    if stored.as_ref() != Some(played.record()) {
        return Err(ServiceError::refused(
            "Die Runde im Schockbesteck wurde inzwischen geändert (Wurfrunde zurückgenommen, \
             verworfen oder neu gespielt); nichts gespeichert. Bitte prüfen und neu bestätigen.",
        ));
    }
    Ok(())
}

/// Refuses a round entered by hand (`PutRound` without throws) whose number is running in the
/// Schockbesteck at its table ([`super::besteck::collision`]), whichever way it came (round form,
/// scorer link, paper sheet, JSON API); the Schockbesteck's own confirm of that Runde
/// (`confirms`) passes. Checked inside the write transaction, so a Runde started meanwhile is
/// seen (issue 33.5).
async fn not_running_in_besteck(
    tx: &mut WriteTx,
    view: &SeasonView,
    changes: &[Change],
    confirms: Option<(u32, u32)>,
) -> Result<(), ServiceError> {
    for change in changes {
        let Change::PutRound {
            date,
            table,
            number,
            schockbesteck: None,
            ..
        } = change
        else {
            continue;
        };
        if confirms == Some((*table, *number)) {
            continue;
        }
        let Some(&night) = view.ids.nights.get(date) else {
            continue;
        };
        let running = db::besteck::numbers(tx, night, *table).await?;
        if let Some(refusal) = super::besteck::collision(*date, *table, *number, &running) {
            return Err(ServiceError::Refused(refusal));
        }
    }
    Ok(())
}

/// Refuses a replacement or removal of a round "as seen" (`Replace::IfVersion`, `RemoveRound`'s
/// `if_version`: a form's or the JSON API's version of the round) when the round as stored is
/// another version, naming who changed it (its last audit row) and what is there now (issue 32.4:
/// a correction queued without network must not overwrite a newer one). A round an earlier change
/// of the same batch touches is left to the league's own check.
async fn seen_is_current(
    tx: &mut WriteTx,
    view: &SeasonView,
    changes: &[Change],
) -> Result<(), ServiceError> {
    let mut touched: Vec<(NaiveDate, u32, u32)> = Vec::new();
    for change in changes {
        let (date, table, number, seen) = match change {
            Change::PutRound {
                date,
                table,
                number,
                replace: Replace::IfVersion(v),
                ..
            } => (*date, *table, *number, Some(v)),
            Change::RemoveRound {
                date,
                table,
                number,
                if_version,
            } => (*date, *table, *number, if_version.as_ref()),
            Change::PutRound {
                date,
                table,
                number,
                ..
            } => (*date, *table, *number, None),
            _ => continue,
        };
        let first = !touched.contains(&(date, table, number));
        touched.push((date, table, number));
        let Some(seen) = seen.filter(|_| first) else {
            continue;
        };
        let Some(old) = entered_round(&view.season, date, table, number) else {
            continue;
        };
        if round_version(old) != *seen {
            let by = db::audit::last_round_author(tx, date, table, number).await?;
            let at = league::Location::night(date).table(table).round(number);
            return Err(changed_meanwhile_by(&at, old, by.as_deref()).into());
        }
    }
    Ok(())
}

/// A write that belongs to a change and runs in its transaction before it commits
/// ([`League::changes_then`]).
pub(crate) type Then = Box<
    dyn for<'a> FnOnce(
            &'a mut WriteTx,
        ) -> std::pin::Pin<
            Box<dyn std::future::Future<Output = Result<(), ServiceError>> + Send + 'a>,
        > + Send,
>;

/// The name of the league player (of `players` = (id, name)) that `name` names: the one spelled
/// exactly so, else the first whose name has the same `league::name_key`; `None` for a new name.
fn league_spelling<'a>(name: &str, players: &'a [(i64, String)]) -> Option<&'a str> {
    let key = league::name_key(name);
    players
        .iter()
        .find(|(_, n)| n == name)
        .or_else(|| players.iter().find(|(_, n)| league::name_key(n) == key))
        .map(|(_, n)| n.as_str())
}

/// German date: 2026-01-09 → "09.01.2026".
fn de(d: NaiveDate) -> String {
    d.format("%d.%m.%Y").to_string()
}

impl League {
    /// The view of season `year` as the transaction `tx` sees it: the snapshot's when it is at the
    /// stored counter, else read through `tx`.
    async fn view_in(&self, tx: &mut WriteTx, year: i32) -> Result<Arc<SeasonView>, ServiceError> {
        let version = db::version::of_season(tx, year)
            .await?
            .ok_or(ServiceError::NoSeason(year))?;
        if let Ok(view) = self.snapshot().season(year) {
            if view.version == version {
                return Ok(view.clone());
            }
        }
        let stored = db::season::load(tx, year)
            .await?
            .ok_or(ServiceError::NoSeason(year))?;
        SeasonView::of_stored(stored)
            .map(Arc::new)
            .map_err(|e| ServiceError::Corrupt(format!("gespeicherte Saison {year} ungültig: {e}")))
    }

    /// Makes `change` to season `year` through the pipeline (module doc) and returns the season's
    /// new view (the old one when the change changes nothing). Errors: `Refused` (a league rule, the
    /// database's own refusal), `Closed` (a closed night without Korrektur), `NoSeason`, storage.
    pub async fn change(
        &self,
        year: i32,
        change: Change,
        edit: &Edit,
    ) -> Result<Arc<SeasonView>, ServiceError> {
        self.changes(year, std::slice::from_ref(&change), edit)
            .await
    }

    /// Makes `changes` to season `year` one after the other in one transaction: all of them or
    /// none (a late arrival seated with his fine, for example). As [`League::change`].
    pub async fn changes(
        &self,
        year: i32,
        changes: &[Change],
        edit: &Edit,
    ) -> Result<Arc<SeasonView>, ServiceError> {
        let view = self.changes_locked(year, changes, edit, None).await?;
        for date in changes.iter().filter_map(Change::night) {
            self.night_changed(date);
        }
        self.written().await;
        if changes
            .iter()
            .any(|c| matches!(c, Change::CloseNight { .. }))
        {
            self.closed_a_night();
        }
        Ok(view)
    }

    /// [`League::changes`] and, in the same transaction after them, `then` (a write of the
    /// planned nights that belongs to the change): all of it or nothing. `then` runs only when
    /// the changes change the season (else nothing is written at all). The other leagues of the
    /// process are told.
    pub(crate) async fn changes_then(
        &self,
        year: i32,
        changes: &[Change],
        edit: &Edit,
        then: Then,
    ) -> Result<Arc<SeasonView>, ServiceError> {
        let view = self.changes_locked(year, changes, edit, Some(then)).await?;
        for date in changes.iter().filter_map(Change::night) {
            self.night_changed(date);
        }
        self.written().await;
        Ok(view)
    }

    /// [`League::changes`] under the write lock, without telling the other leagues; `then` runs
    /// in the transaction before it commits.
    async fn changes_locked(
        &self,
        year: i32,
        changes: &[Change],
        edit: &Edit,
        then: Option<Then>,
    ) -> Result<Arc<SeasonView>, ServiceError> {
        let today = self.today();
        for change in changes {
            if let Change::CloseNight { date } = change {
                league::change::closing_in_time(*date, today)?;
            }
        }
        let _w = self.inner.writing.lock().await;
        let mut tx = self.inner.db.begin_write_as(&edit.author).await?;
        let view = self.view_in(&mut tx, year).await?;
        if let Some((table, round)) = edit.confirms_runde {
            confirmed_is_current(&mut tx, &view, changes, table, round).await?;
        }
        if changes
            .iter()
            .any(|c| matches!(c, Change::NetPayouts { .. }))
        {
            // The season's last act (league.md §11): not while a night of it is planned (the
            // planned nights as this transaction reads them) or open.
            let planning = db::planned::load(&mut tx).await?;
            let season = &view.season;
            let planned = planning.ahead_in(year, today, |d| season.night(d).is_some());
            league::money::netting::last_act(season, &planned)?;
        }
        not_running_in_besteck(&mut tx, &view, changes, edit.confirms_runde).await?;
        seen_is_current(&mut tx, &view, changes).await?;
        let mut season = view.season.clone();
        let mut steps = Vec::with_capacity(changes.len());
        for change in changes {
            let next = season.apply(change)?;
            steps.push((change, std::mem::replace(&mut season, next)));
        }
        if season == view.season && edit.confirms_runde.is_none() {
            return Ok(view);
        }
        self.later_netting_stays(&view, &season)?;
        let mut corrections = Vec::new();
        let mut ids = view.ids.clone();
        for (i, (change, before)) in steps.iter().enumerate() {
            let after = steps.get(i + 1).map_or(&season, |(_, s)| s);
            if let Some(c) =
                korrektur_gate(&mut tx, before, &ids, change, edit, &corrections).await?
            {
                corrections.push(c);
            }
            db::change::store(&mut tx, year, change, before, after, &mut ids).await?;
            audit(&mut tx, year, change, before, after, edit).await?;
        }
        // The Korrekturen opened belong to their nights, as a fresh read gives them back.
        for (date, _, entry) in &corrections {
            if season.night(*date).is_some() {
                season
                    .corrections
                    .entry(*date)
                    .or_default()
                    .push(entry.clone());
            }
        }
        if let Some(note) = &edit.note {
            let author = edit.author.as_str();
            db::audit::record(&mut tx, author, &note.action, None, Some(&note.after)).await?;
        }
        if let (Some((table, round)), Some(date)) =
            (edit.confirms_runde, changes.iter().find_map(Change::night))
        {
            if let Some(&night) = ids.nights.get(&date) {
                db::besteck::delete(&mut tx, night, table, round).await?;
            }
        }
        for (_, id, _) in corrections {
            db::closing::end_correction(&mut tx, id).await?;
        }
        if let Some(then) = then {
            then(&mut tx).await?;
        }
        let version = db::version::of_season(&mut tx, year)
            .await?
            .ok_or(ServiceError::NoSeason(year))?;
        tx.commit().await?;
        let view = Arc::new(SeasonView::new(version, season, ids, view.carry_in_cents));
        self.install(vec![view.clone()]);
        Ok(view)
    }

    /// Refuses a change of season `before` (as `after`) whose carry-out moves the pot of a later
    /// season whose netting is booked (league.md §8, §11: a season's pot holds the carry-in of
    /// the years before, and a netted Jahresabschluss stays as it is; hostile run: deleting a
    /// 2025 fee moved every 2026 payout under "Endgültig"). The carry is followed season by
    /// season until it no longer moves.
    fn later_netting_stays(&self, before: &SeasonView, after: &Season) -> Result<(), ServiceError> {
        let carry_in = before.carry_in_cents;
        let mut old_in = league::payouts(&before.season, carry_in).carry_out_cents;
        let mut new_in = league::payouts(after, carry_in).carry_out_cents;
        let snapshot = self.snapshot();
        let mut later: Vec<i32> = snapshot
            .years()
            .into_iter()
            .filter(|y| *y > after.year)
            .collect();
        later.sort_unstable();
        for year in later {
            if old_in == new_in {
                break;
            }
            let Ok(view) = snapshot.season(year) else {
                break;
            };
            if let Some(refusal) = league::money::netting::netting_booked(&view.season) {
                return Err(ServiceError::refused(format!(
                    "Das ändert den Übertrag der Saison {} in die Saison {year}: {refusal}",
                    after.year
                )));
            }
            old_in = league::payouts(&view.season, old_in).carry_out_cents;
            new_in = league::payouts(&view.season, new_in).carry_out_cents;
        }
        Ok(())
    }

    /// Creates season `year` with the rules overrides `overrides` (league.md §10: the defaults of
    /// its year, changed by the overrides). Refused (German) for a year that exists or rules that
    /// do not check.
    pub async fn create_season(
        &self,
        year: i32,
        overrides: serde_json::Map<String, Value>,
        edit: &Edit,
    ) -> Result<Arc<SeasonView>, ServiceError> {
        let _w = self.inner.writing.lock().await;
        let file = league::model::file::SeasonFile {
            format: league::model::file::FORMAT.to_string(),
            season: year,
            rules: overrides,
            players: Vec::new(),
            nights: Vec::new(),
            endstand: Vec::new(),
            payments: Vec::new(),
            credit: Vec::new(),
            kassenbuch: None,
            status: Vec::new(),
            merged: None,
        };
        let season = Season::from_file(&file)?;
        let mut tx = self.inner.db.begin_write_as(&edit.author).await?;
        if db::season::get(&mut tx, year).await?.is_some() {
            return Err(ServiceError::refused(format!(
                "Die Saison {year} gibt es schon."
            )));
        }
        let stored = db::version::all(&mut tx).await?;
        super::room_for_seasons(stored.into_iter().map(|(y, _)| y), [year])?;
        db::season::create(&mut tx, year, &file.rules).await?;
        db::audit::record(
            &mut tx,
            &edit.author,
            "Saison angelegt",
            None,
            Some(&json!({ "season": year, "rules": file.rules })),
        )
        .await?;
        let version = db::version::of_season(&mut tx, year)
            .await?
            .ok_or(ServiceError::NoSeason(year))?;
        tx.commit().await?;
        let view = Arc::new(SeasonView::new(version, season, Default::default(), 0));
        self.install(vec![view.clone()]);
        drop(_w);
        self.written().await;
        Ok(view)
    }

    /// Deletes season `year`, which must have no night (its rules and player list are kept in the
    /// audit row; players stay in the league). Refused (German) for a season with nights.
    pub async fn delete_season(&self, year: i32, edit: &Edit) -> Result<(), ServiceError> {
        let _w = self.inner.writing.lock().await;
        let mut tx = self.inner.db.begin_write_as(&edit.author).await?;
        let view = self.view_in(&mut tx, year).await?;
        if !view.season.nights.is_empty() {
            return Err(ServiceError::refused(format!(
                "Die Saison {year} hat Spielabende und kann nicht gelöscht werden."
            )));
        }
        // The players' money is theirs (issue 34.1): not gone with an empty season.
        if !view.season.payments.is_empty() || !view.season.credit.is_empty() {
            return Err(ServiceError::refused(format!(
                "Die Saison {year} hat Zahlungen oder Guthaben und kann nicht gelöscht werden."
            )));
        }
        let players: Vec<&str> = view
            .season
            .players
            .iter()
            .map(|p| p.name.as_str())
            .collect();
        let before = json!({
            "season": year,
            "rules": Value::Object(view.season.rules.overrides(year)),
            "players": players,
        });
        if !db::season::delete_empty(&mut tx, year).await? {
            return Err(ServiceError::NoSeason(year));
        }
        db::audit::record(
            &mut tx,
            &edit.author,
            "Saison gelöscht",
            Some(&before),
            None,
        )
        .await?;
        tx.commit().await?;
        self.replace(|s, id| s.with(id, Vec::new(), &[year]));
        drop(_w);
        self.written().await;
        Ok(())
    }

    /// Adds player `name` to season `year` and returns the name he plays under. Names are
    /// league-wide: a league player (of this season or another) whose name is `name` up to case
    /// and look-alike forms (`league::name_key`) is that player, written as the league writes him
    /// („anna“ adds „Anna“). Refused (German) when he is in the season already, when the name only
    /// looks like a league player's (`league::model::names::twin`: „Аnna“ with a Cyrillic А), and as
    /// the season's check refuses.
    pub async fn add_player(
        &self,
        year: i32,
        name: &str,
        edit: &Edit,
    ) -> Result<(Arc<SeasonView>, String), ServiceError> {
        let mut name = league::normalize_name(name);
        if !name.is_empty() {
            let mut conn = self.inner.db.read.acquire().await?;
            let all = db::player::all(&mut conn).await?;
            match league_spelling(&name, &all) {
                Some(known) => {
                    name = known.to_string();
                    super::merge::refuse_merged_away(&mut conn, &all, &name).await?;
                }
                // A new name that only looks like a league player's („Аnna“ with a Cyrillic А
                // beside „Anna“ of another season) is refused, as in one season.
                None => {
                    if let Some(e) = league::model::names::twin(&name, None, &all) {
                        return Err(e.into());
                    }
                }
            }
        }
        if let Ok(view) = self.snapshot().season(year) {
            if view.season.player(&name).is_some() {
                return Err(ServiceError::refused(format!(
                    "{name} ist schon Spieler der Saison {year}."
                )));
            }
        }
        let view = self
            .change(year, Change::AddPlayer { name: name.clone() }, edit)
            .await?;
        Ok((view, name))
    }

    /// Renames player `id` to `to` in every season he plays in (names are league-wide), `year`
    /// being the season the secretary is on (he must play in it). Refused (German) for an empty or
    /// taken name, a case twin, or a name any of his seasons refuses ("Saison 2025: …").
    pub async fn rename_player(
        &self,
        year: i32,
        id: i64,
        to: &str,
        edit: &Edit,
    ) -> Result<(), ServiceError> {
        let to = league::normalize_name(to);
        let _w = self.inner.writing.lock().await;
        let mut tx = self.inner.db.begin_write_as(&edit.author).await?;
        let (_, old) = db::player::by_id(&mut tx, id)
            .await?
            .ok_or_else(|| ServiceError::NotFound(format!("Spieler Nr. {id}")))?;
        let all = db::player::all(&mut tx).await?;
        let taken = all.iter().find(|(other, n)| *other != id && *n == to);
        if to.is_empty() {
            return Err(league::model::names::empty_name().into());
        }
        if taken.is_some() {
            return Err(ServiceError::refused(format!(
                "Den Namen „{to}“ trägt schon ein anderer Spieler der Liga."
            )));
        }
        if let Some(e) = league::model::names::twin(&to, Some(id), &all) {
            return Err(e.into());
        }
        let seasons = db::player::seasons_of(&mut tx, id).await?;
        if !seasons.contains(&year) {
            return Err(ServiceError::refused(format!(
                "{old} spielt nicht in der Saison {year}"
            )));
        }
        let change = Change::RenamePlayer {
            from: old.clone(),
            to: to.clone(),
        };
        let mut views = Vec::new();
        for y in &seasons {
            let view = self.view_in(&mut tx, *y).await?;
            let next = view.season.apply(&change).map_err(|e| {
                if *y == year {
                    ServiceError::Refused(e)
                } else {
                    ServiceError::refused(format!("Saison {y}: {e}"))
                }
            })?;
            views.push((view, next));
        }
        // Audited by the players trigger (old and new name).
        db::player::rename(&mut tx, id, &to).await?;
        // His throws in confirmed Schockbesteck Runden and a Runde in progress follow him.
        db::besteck::rename_in_confirmed(&mut tx, &old, &to).await?;
        for (night, table, number, json) in db::besteck::all_raw(&mut tx).await? {
            let Ok(record) = serde_json::from_str::<crate::rules::RundeRecord>(&json) else {
                continue;
            };
            if record.has_player(&old) {
                db::besteck::put(&mut tx, night, table, number, &record.renamed(&old, &to)).await?;
            }
        }
        let mut installed = Vec::new();
        for (view, next) in views {
            let y = next.year;
            let mut ids = view.ids.clone();
            ids.players.remove(&old);
            ids.players.insert(to.clone(), id);
            let version = db::version::of_season(&mut tx, y)
                .await?
                .ok_or(ServiceError::NoSeason(y))?;
            installed.push(Arc::new(SeasonView::new(
                version,
                next,
                ids,
                view.carry_in_cents,
            )));
        }
        tx.commit().await?;
        self.install(installed);
        drop(_w);
        self.written().await;
        Ok(())
    }
}

/// A Korrektur opened in the write transaction: the night, `night_corrections.id`, the record.
type Opened = (NaiveDate, i64, CorrectionEntry);

/// Step 4: a change of a closed night's draw, rounds or fines needs the Korrektur (box and reason);
/// opens the correction of that night (once per transaction: `open` lists those opened) and
/// audits it. Returns the newly opened one, to be ended before the commit.
async fn korrektur_gate(
    tx: &mut WriteTx,
    season: &Season,
    ids: &db::season::Ids,
    change: &Change,
    edit: &Edit,
    open: &[Opened],
) -> Result<Option<Opened>, ServiceError> {
    let Some(date) = change.night() else {
        return Ok(None);
    };
    let closed = season.night(date).is_some_and(|n| n.closed);
    if !closed || !change.needs_korrektur() || open.iter().any(|(d, _, _)| *d == date) {
        return Ok(None);
    }
    let reason = edit.korrektur.check(date).map_err(ServiceError::Closed)?;
    let night = *ids
        .nights
        .get(&date)
        .ok_or_else(|| ServiceError::NotFound(format!("Abend {}", de(date))))?;
    // As the audit triggers name an unknown author; the season file needs a name.
    let user = match edit.author.trim() {
        "" => "?",
        a => a,
    };
    let (id, at) = db::closing::begin_correction(tx, night, user, &reason).await?;
    db::audit::record(
        tx,
        &edit.author,
        &format!("Korrektur eines abgeschlossenen Spielabends: {reason}"),
        None,
        Some(&json!({ "night_id": night, "correction": id })),
    )
    .await?;
    let entry = CorrectionEntry {
        at,
        user: user.to_string(),
        reason,
    };
    Ok(Some((date, id, entry)))
}

/// Step 5's audit rows that the triggers do not write (nights, draws, the Strafenkatalog, closing).
async fn audit(
    tx: &mut WriteTx,
    year: i32,
    change: &Change,
    before: &Season,
    after: &Season,
    edit: &Edit,
) -> Result<(), ServiceError> {
    let user = edit.author.as_str();
    let draw_of = |s: &Season, d: NaiveDate| -> Value {
        s.night(d)
            .map(|n| n.draw.iter().map(|x| json!([x.player, x.table])).collect())
            .unwrap_or_default()
    };
    match change {
        Change::AddNight { date } => {
            let after = json!({ "season": year, "date": date });
            db::audit::record(tx, user, "Spielabend angelegt", None, Some(&after)).await?;
        }
        Change::SetDraw { date, .. } => {
            db::audit::record(
                tx,
                user,
                &format!("Teilnehmer und Auslosung {date}"),
                Some(&draw_of(before, *date)),
                Some(&draw_of(after, *date)),
            )
            .await?;
        }
        Change::SetFineKind { kind, .. } => {
            db::audit::record(
                tx,
                user,
                &format!("Strafenkatalog {year}: {}", kind.trim()),
                Some(&json!(before.rules.fines)),
                Some(&json!(after.rules.fines)),
            )
            .await?;
        }
        Change::SetRules { .. } => {
            db::audit::record(
                tx,
                user,
                &format!("Saisonregeln {year}"),
                Some(&json!(before.rules)),
                Some(&json!(after.rules)),
            )
            .await?;
        }
        Change::CloseNight { date } => {
            db::audit::record(
                tx,
                user,
                &format!(
                    "Spielabend {} abgeschlossen, seine Links zum Schreiben widerrufen",
                    de(*date)
                ),
                Some(&json!({ "night": date, "closed": false })),
                Some(&json!({ "night": date, "closed": true })),
            )
            .await?;
        }
        Change::ReopenNight { date } => {
            db::audit::record(
                tx,
                user,
                &format!("Spielabend {} wieder geöffnet", de(*date)),
                Some(&json!({ "night": date, "closed": true })),
                Some(&json!({ "night": date, "closed": false })),
            )
            .await?;
        }
        Change::MoveRound {
            date,
            table,
            number,
            to,
        } => {
            // The results keep their rows (no trigger fires): the move is one row, the round and
            // the draw before and after.
            let round_at = |s: &Season, t: u32| -> Value {
                let rows = s
                    .night(*date)
                    .and_then(|n| n.tables.iter().find(|x| x.number == t))
                    .and_then(|x| x.rounds.iter().find(|r| r.number == *number))
                    .map(|r| json!(r.results))
                    .unwrap_or(Value::Null);
                json!({ "night": date, "table": t, "round": number, "results": rows,
                        "draw": draw_of(s, *date) })
            };
            db::audit::record(
                tx,
                user,
                &format!(
                    "Runde {number} am {} von Tisch {table} an Tisch {to} verschoben",
                    de(*date)
                ),
                Some(&round_at(before, *table)),
                Some(&round_at(after, *to)),
            )
            .await?;
        }
        Change::RemoveNight { date } => {
            // Each result and fine has its own row (the triggers); this one keeps the rest.
            let night = before.night(*date).map(|n| {
                json!({ "season": year, "date": date, "closed": n.closed,
                        "draw": draw_of(before, *date),
                        "rounds": n.tables.iter().map(|t| t.rounds.len()).sum::<usize>(),
                        "fines": n.fines.len() })
            });
            db::audit::record(
                tx,
                user,
                &format!("Spielabend {} gelöscht", de(*date)),
                night.as_ref(),
                None,
            )
            .await?;
        }
        Change::SeatPlayer { date, player, .. } => {
            db::audit::record(
                tx,
                user,
                &format!("Nachzügler {} am {}", player.trim(), de(*date)),
                Some(&draw_of(before, *date)),
                Some(&draw_of(after, *date)),
            )
            .await?;
        }
        Change::BookPayment {
            player,
            cents,
            paid_on,
        } => {
            let paid = |s: &Season| -> Value {
                let name = league::normalize_name(player);
                let fee = s.player(&name).and_then(|p| p.fee_paid_on);
                let fines: Vec<Value> = s
                    .nights
                    .iter()
                    .flat_map(|n| n.fines.iter().map(move |f| (n.date, f)))
                    .filter(|(_, f)| f.player == name)
                    .map(|(d, f)| json!([d, f.kind, f.amount_cents, f.paid_on]))
                    .collect();
                json!({ "player": name, "fee_paid_on": fee, "fines": fines,
                        "credit_cents": s.credit_cents(&name) })
            };
            db::audit::record(
                tx,
                user,
                &format!(
                    "Zahlung von {} über {} am {}",
                    league::normalize_name(player),
                    league::format_cents(*cents),
                    de(*paid_on)
                ),
                Some(&paid(before)),
                Some(&paid(after)),
            )
            .await?;
        }
        Change::NetPayouts { paid_on, .. } => {
            let netted = |s: &Season| -> Value {
                s.nights
                    .iter()
                    .flat_map(|n| n.fines.iter().map(move |f| (n.date, f)))
                    .filter(|(_, f)| f.netted)
                    .map(|(d, f)| json!([d, f.player, f.kind, f.amount_cents]))
                    .collect()
            };
            db::audit::record(
                tx,
                user,
                &format!(
                    "Jahresabschluss {year}: offene Strafen der Gewinner am {} verrechnet",
                    de(*paid_on)
                ),
                Some(&netted(before)),
                Some(&netted(after)),
            )
            .await?;
        }
        Change::UndoNetting { reason } => {
            let netted = |s: &Season| -> Value {
                s.nights
                    .iter()
                    .flat_map(|n| n.fines.iter().map(move |f| (n.date, f)))
                    .filter(|(_, f)| f.netted)
                    .map(|(d, f)| json!([d, f.player, f.kind, f.amount_cents, f.paid_on]))
                    .collect()
            };
            let on = league::money::netting::netted_on(before)
                .map(|d| format!(" vom {}", de(d)))
                .unwrap_or_default();
            db::audit::record(
                tx,
                user,
                &format!(
                    "Jahresabschluss {year}: Verrechnung{on} aufgehoben, die verrechneten \
                     Strafen wieder offen (Korrektur: {})",
                    reason.trim()
                ),
                Some(&netted(before)),
                Some(&netted(after)),
            )
            .await?;
        }
        _ => {}
    }
    Ok(())
}
