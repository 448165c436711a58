//! Merging two players into one and splitting them again (issue 36.2, 36.3).
//!
//! A merge is not one `league::Change` of one season: it spans every season of both players and
//! tables outside the season file (Zusagen, reminders, bank statement lines, reports). So it is one
//! write transaction of its own, as a rename over all seasons is: every row of the merged-away
//! player moves to the kept one (`db::merge`), each season the two play is read back and checked
//! by the one check of league.md (`Season::from_stored_file`, as every load does), and only then
//! committed; the changed seasons go into the snapshot. What moved is recorded per table
//! (`player_merges.moved_json`) so that "Trennen" moves exactly those rows back and every answer is
//! as before the merge. A refusal stores nothing.

use std::sync::Arc;

pub mod carry;

use serde_json::json;

use super::{reason_typed, Edit, League, SeasonView, ServiceError};
use crate::db::{self, merge::MergeRow, WriteTx};
use crate::league::model::format::date_de;

/// A merge in force: who was merged into whom, when (RFC 3339 UTC), by whom and why.
#[derive(Debug, Clone, PartialEq)]
pub struct MergeNote {
    /// The kept player's id and name.
    pub kept_id: i64,
    /// See `kept_id`.
    pub kept: String,
    /// The merged-away player's id and name.
    pub gone_id: i64,
    /// See `gone_id`.
    pub gone: String,
    /// Why.
    pub reason: String,
    /// Who.
    pub user: String,
    /// When (RFC 3339, UTC).
    pub at: String,
}

impl From<MergeRow> for MergeNote {
    fn from(r: MergeRow) -> MergeNote {
        MergeNote {
            kept_id: r.kept_id,
            kept: r.kept,
            gone_id: r.gone_id,
            gone: r.gone,
            reason: r.reason,
            user: r.user,
            at: r.at,
        }
    }
}

/// The merges in force, oldest first, read through `conn` (with the seasons' counters).
pub(crate) async fn read_merges(
    conn: &mut sqlx::SqliteConnection,
) -> Result<Vec<MergeNote>, ServiceError> {
    Ok(db::merge::carry::in_force_on(conn)
        .await?
        .into_iter()
        .map(Into::into)
        .collect())
}

/// Refuses the merge of `gone` into `kept` when both played one night, both have a Jahresbeitrag,
/// an Endstand line or a status in one season, or `gone` plays a Runde running in the Schockbesteck.
async fn refuse_shared(
    tx: &mut WriteTx,
    (gone, gone_name): (i64, &str),
    (kept, kept_name): (i64, &str),
) -> Result<(), ServiceError> {
    let both = format!("„{gone_name}“ und „{kept_name}“");
    if let Some(date) = db::merge::shared_night(tx, gone, kept).await? {
        return Err(ServiceError::refused(format!(
            "Beide haben am {} gespielt: {both} sind nicht dieselbe Person. Nichts zusammengeführt.",
            date_de(date)
        )));
    }
    if let Some(year) = db::merge::shared_fee(tx, gone, kept).await? {
        return Err(ServiceError::refused(format!(
            "Beide haben in der Saison {year} einen Jahresbeitrag: {both} lassen sich nicht \
             zusammenführen. Nichts zusammengeführt."
        )));
    }
    if let Some(year) = db::merge::shared_endstand(tx, gone, kept).await? {
        return Err(ServiceError::refused(format!(
            "Beide stehen im Endstand der Saison {year}: {both} lassen sich nicht \
             zusammenführen. Nichts zusammengeführt."
        )));
    }
    if let Some(year) = db::merge::shared_status(tx, gone, kept).await? {
        return Err(ServiceError::refused(format!(
            "Beide haben in der Saison {year} einen Status (pausiert oder ausgetreten): erst \
             einen von {both} auf aktiv setzen. Nichts zusammengeführt."
        )));
    }
    for (_, _, _, json) in db::besteck::all_raw(tx).await? {
        let Ok(record) = serde_json::from_str::<crate::rules::RundeRecord>(&json) else {
            continue;
        };
        if record.has_player(gone_name) || record.has_player(kept_name) {
            return Err(ServiceError::refused(format!(
                "Im Schockbesteck läuft eine Runde mit {both}: erst nach ihr zusammenführen."
            )));
        }
    }
    Ok(())
}

/// Refuses (German) adding league player `name` (one of `all`) to a season while he is merged
/// away: his rows are the kept player's now.
pub(crate) async fn refuse_merged_away(
    conn: &mut sqlx::SqliteConnection,
    all: &[(i64, String)],
    name: &str,
) -> Result<(), ServiceError> {
    let Some((id, _)) = all.iter().find(|(_, n)| n == name) else {
        return Ok(());
    };
    if let Some(m) = db::merge::of_gone(conn, *id).await? {
        return Err(ServiceError::refused(format!(
            "„{name}“ ist mit „{}“ zusammengeführt: bitte „{}“ hinzufügen (oder erst trennen).",
            m.kept, m.kept
        )));
    }
    Ok(())
}

/// Reads back and checks every season in `years` inside `tx` (the one check of league.md);
/// refused (German, naming the season) when one does not check.
async fn checked(tx: &mut WriteTx, years: &[i32]) -> Result<Vec<Arc<SeasonView>>, ServiceError> {
    checked_seasons(tx, years, |y, e| {
        ServiceError::refused(format!("Saison {y}: {e}. Nichts gespeichert."))
    })
    .await
}

/// [`checked`], a season `y` that fails its checks answered with `refuse(y, reason)`; storage
/// errors as they are.
async fn checked_seasons(
    tx: &mut WriteTx,
    years: &[i32],
    refuse: impl Fn(i32, String) -> ServiceError,
) -> Result<Vec<Arc<SeasonView>>, ServiceError> {
    let mut views = Vec::new();
    for y in years {
        let stored = db::season::load(tx, *y)
            .await?
            .ok_or(ServiceError::NoSeason(*y))?;
        let view = SeasonView::of_stored(stored).map_err(|e| refuse(*y, e.to_string()))?;
        views.push(Arc::new(view));
    }
    Ok(views)
}

/// The seasons of players `a` and `b`, ascending, each once.
async fn seasons_of_both(tx: &mut WriteTx, a: i64, b: i64) -> Result<Vec<i32>, ServiceError> {
    let mut years = db::player::seasons_of(tx, a).await?;
    years.extend(db::player::seasons_of(tx, b).await?);
    years.sort_unstable();
    years.dedup();
    Ok(years)
}

impl League {
    /// Merges player `gone` into player `kept` (ids) in every season by `edit.author` for `reason`
    /// (issue 36.2): results, draws, totals, Endstand, fines, fees, payments, Guthaben, Zusagen,
    /// reminders and Schockbesteck records become `kept`'s; `gone` keeps his name, which answers
    /// with a redirect, and his card link stops. Returns the merge. Refused (German, nothing
    /// stored): no reason, no player `kept` ("Zusammenführen mit: einen Spieler Nr. 99999 gibt es
    /// nicht"), the same player, one already merged away, both on one night ("Beide
    /// haben am 12.03.2026 gespielt"), both a Jahresbeitrag or Endstand in one season, a Runde of
    /// either running in the Schockbesteck, a season that would not check.
    pub async fn merge_players(
        &self,
        gone: i64,
        kept: i64,
        reason: &str,
        edit: &Edit,
    ) -> Result<MergeNote, ServiceError> {
        let reason = reason_typed(
            reason,
            "Grund: bitte angeben, warum (er steht im Protokoll).",
        )?;
        let w = self.inner.writing.lock().await;
        let mut tx = self.inner.db.begin_write_as(&edit.author).await?;
        db::audit::set_actor(&mut tx, &edit.author, true).await?;
        let (_, gone_name) = db::player::by_id(&mut tx, gone)
            .await?
            .ok_or_else(|| ServiceError::NotFound(format!("Spieler Nr. {gone}")))?;
        let (_, kept_name) = db::player::by_id(&mut tx, kept).await?.ok_or_else(|| {
            ServiceError::refused(format!(
                "Zusammenführen mit: einen Spieler Nr. {kept} gibt es nicht; bitte einen \
                 Spieler der Liste wählen."
            ))
        })?;
        if gone == kept {
            return Err(ServiceError::refused(format!(
                "Mit wem? „{gone_name}“ lässt sich nicht mit sich selbst zusammenführen."
            )));
        }
        for (id, name) in [(gone, &gone_name), (kept, &kept_name)] {
            if let Some(m) = db::merge::of_gone(&mut tx, id).await? {
                return Err(ServiceError::refused(format!(
                    "„{name}“ ist schon mit „{}“ zusammengeführt.",
                    m.kept
                )));
            }
        }
        refuse_shared(&mut tx, (gone, &gone_name), (kept, &kept_name)).await?;
        let closed = db::merge::closed_nights_of(&mut tx, gone).await?;
        let unlocked = db::merge::unlock(&mut tx, &closed).await?;
        let moved = db::merge::merge_rows(&mut tx, gone, kept, &kept_name, &gone_name).await?;
        db::merge::lock(&mut tx, &unlocked).await?;
        let years = seasons_of_both(&mut tx, gone, kept).await?;
        db::merge::bump(&mut tx, &years).await?;
        let views = checked(&mut tx, &years).await?;
        let id = db::merge::record(&mut tx, kept, gone, &reason, &edit.author, &moved).await?;
        db::audit::record(
            &mut tx,
            &edit.author,
            &format!("Spieler zusammengeführt: „{gone_name}“ in „{kept_name}“ ({reason})"),
            Some(&json!({ "player": gone_name, "player_id": gone })),
            Some(
                &json!({ "player": kept_name, "player_id": kept, "merge": id,
                          "seasons": years, "reason": reason }),
            ),
        )
        .await?;
        let note = db::merge::of_gone(&mut tx, gone)
            .await?
            .ok_or_else(|| ServiceError::Corrupt("Zusammenführung nicht gespeichert".into()))?;
        tx.commit().await?;
        self.install_with_merges(views).await?;
        drop(w);
        self.written().await;
        self.refresh().await?;
        Ok(note.into())
    }

    /// Undoes the last merge into player `kept` (id) by `edit.author` for `reason` (issue 36.3):
    /// exactly the rows the merge moved go back, the removed memberships and Zusagen come back,
    /// the kept player's Jahresbeitrag is as before; rows entered for `kept` after the merge go
    /// to the merged-away player where they are his ([`db::merge::after`]: a result or fine on
    /// his night, a payment, Guthaben booking or status in a season only he played); returns the
    /// merge undone. Refused (German, nothing stored): no reason, no merge into him, a payment or
    /// Guthaben booking after the merge in a season both played (each named), a season that
    /// would not check.
    pub async fn split_player(
        &self,
        kept: i64,
        reason: &str,
        edit: &Edit,
    ) -> Result<MergeNote, ServiceError> {
        let reason = reason_typed(
            reason,
            "Grund: bitte angeben, warum (er steht im Protokoll).",
        )?;
        let w = self.inner.writing.lock().await;
        let mut tx = self.inner.db.begin_write_as(&edit.author).await?;
        db::audit::set_actor(&mut tx, &edit.author, true).await?;
        let (_, kept_name) = db::player::by_id(&mut tx, kept)
            .await?
            .ok_or_else(|| ServiceError::NotFound(format!("Spieler Nr. {kept}")))?;
        let Some(row) = db::merge::last_into(&mut tx, kept).await? else {
            return Err(ServiceError::refused(format!(
                "In „{kept_name}“ wurde niemand zusammengeführt: nichts zu trennen."
            )));
        };
        let moved: db::merge::Moved = serde_json::from_str(&row.moved_json)
            .map_err(|e| ServiceError::Corrupt(format!("player_merges {}: {e}", row.id)))?;
        let later = db::merge::after::later(&mut tx, &moved, kept).await?;
        if !later.unclear.is_empty() {
            return Err(ServiceError::refused(format!(
                "Nach der Zusammenführung für „{kept_name}“ gebucht, in einer Saison, in der \
                 beide spielten, und nicht „{}“ oder „{kept_name}“ zuzuordnen: {}. Erst \
                 stornieren oder löschen, dann trennen. Nichts getrennt.",
                row.gone,
                later.unclear.join("; ")
            )));
        }
        let closed = db::merge::closed_nights_moved(&mut tx, &moved).await?;
        let unlocked = db::merge::unlock(&mut tx, &closed).await?;
        db::merge::split_rows(&mut tx, &moved, row.gone_id, kept, &kept_name, &row.gone).await?;
        let pair = (row.gone_id, kept);
        db::merge::after::move_back(&mut tx, &later, pair, (&kept_name, &row.gone)).await?;
        db::merge::lock(&mut tx, &unlocked).await?;
        let years = seasons_of_both(&mut tx, row.gone_id, kept).await?;
        db::merge::bump(&mut tx, &years).await?;
        // A season that would not hold after the split (a night of the kept player entered later in
        // a season he belongs to only by the merge, e.g. a season file read in again): say so.
        let gone_name = row.gone.clone();
        let views = checked_seasons(&mut tx, &years, |y, why| {
            ServiceError::refused(format!(
                "Trennen geht nicht: danach stimmte die Saison {y} nicht mehr ({why}). Meist hat „{kept_name}“ nach der \
                 Zusammenführung an einem Abend einer Saison gespielt, in der er nur durch sie \
                 Spieler ist; diese Runden erst „{gone_name}“ geben oder löschen, dann trennen. \
                 Nichts getrennt."
            ))
        })
        .await?;
        db::merge::undone(&mut tx, row.id, &edit.author, &reason).await?;
        db::audit::record(
            &mut tx,
            &edit.author,
            &format!(
                "Spieler getrennt: „{}“ wieder von „{kept_name}“ ({reason})",
                row.gone
            ),
            Some(&json!({ "player": kept_name, "player_id": kept, "merge": row.id })),
            Some(
                &json!({ "player": row.gone, "player_id": row.gone_id, "seasons": years,
                          "reason": reason }),
            ),
        )
        .await?;
        tx.commit().await?;
        self.install_with_merges(views).await?;
        drop(w);
        self.written().await;
        self.refresh().await?;
        Ok(row.into())
    }

    /// Sets the merges the snapshot knows ([`read_merges`]).
    pub(super) fn set_merges(&self, merges: Vec<MergeNote>) {
        let mut slot = self.inner.merges.write().unwrap_or_else(|e| e.into_inner());
        *slot = Arc::new(merges);
    }

    /// Installs the seasons `views` a merge or split changed together with the merges then in
    /// force (read after the commit).
    async fn install_with_merges(&self, views: Vec<Arc<SeasonView>>) -> Result<(), ServiceError> {
        let mut conn = self.inner.db.read.acquire().await?;
        let merges = read_merges(&mut conn).await?;
        self.set_merges(merges);
        self.install(views);
        Ok(())
    }

    /// The merge in force of the merged-away player `gone` (id), if any, as the snapshot knows it:
    /// for his page's redirect and his card's notice.
    pub async fn merged_away(&self, gone: i64) -> Result<Option<MergeNote>, ServiceError> {
        Ok(self.merges().await?.into_iter().find(|m| m.gone_id == gone))
    }

    /// The merge in force of the merged-away player called `name` (case and look-alike forms
    /// ignored, `league::name_key`), if any: for the API's redirect.
    pub async fn merged_away_named(&self, name: &str) -> Result<Option<MergeNote>, ServiceError> {
        let key = crate::league::name_key(name);
        Ok(self
            .merges()
            .await?
            .into_iter()
            .find(|m| crate::league::name_key(&m.gone) == key))
    }

    /// Every merge in force, oldest first, as the snapshot knows it (read with the seasons'
    /// counters: a merge or split by another process shows with its seasons).
    pub async fn merges(&self) -> Result<Vec<MergeNote>, ServiceError> {
        let merges = self.inner.merges.read().unwrap_or_else(|e| e.into_inner());
        Ok(merges.as_ref().clone())
    }

    /// The id of the league player called `name` (case and look-alike forms ignored), for the
    /// command line; `None` when there is none.
    pub async fn player_id_named(&self, name: &str) -> Result<Option<i64>, ServiceError> {
        let key = crate::league::name_key(name);
        let mut conn = self.inner.db.read.acquire().await?;
        Ok(db::player::all(&mut conn)
            .await?
            .into_iter()
            .find(|(_, n)| crate::league::name_key(n) == key)
            .map(|(id, _)| id))
    }
}
