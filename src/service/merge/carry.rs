//! Export and import keep a merge and the statuses (issue 36.3, 36.4; docs/saisondatei.md
//! "Zusammengeführte Spieler", "Status"). A merge's record names rows by storage id; the season
//! file names them by night, table, round and place ([`MergedEntry`]), so that an import into
//! another database writes the record again with that database's ids and `player split` there
//! gives back both players exactly. Statuses go by name.

use std::collections::BTreeMap;

use sqlx::SqliteConnection;

use crate::db::merge::carry::{self as c, SeasonKeys};
use crate::db::merge::{Joined, MergeRow, Moved, TableKeys};
use crate::league::model::file::{
    MergedEntry, MergedFile, MergedFine, MergedMember, MergedRound, SeasonFile, StatusEntry,
    MERGED_VERSION,
};
use crate::league::plan::status::Status;
use crate::league::{name_key, normalize_name};
use crate::service::ServiceError;

/// What the season files carry besides the season: per year its statuses and the merges in
/// force that touch it.
#[derive(Debug, Clone, Default)]
pub struct Carried(pub BTreeMap<i32, (Vec<StatusEntry>, Option<MergedFile>)>);

impl Carried {
    /// Puts what season `file.season` carries into `file` (`status`, `merged`).
    pub fn apply(&self, file: &mut SeasonFile) {
        if let Some((status, merged)) = self.0.get(&file.season) {
            file.status.clone_from(status);
            file.merged.clone_from(merged);
        }
    }
}

/// The moved keys of `table` in `moved`.
fn keys<'a>(moved: &'a Moved, table: &str) -> &'a [i64] {
    moved
        .rows
        .iter()
        .find(|(t, _)| t == table)
        .map_or(&[][..], |(_, k)| k.as_slice())
}

/// The merge `row` (what it moved: `moved`) as it touches season `year` (its rows: `keys`);
/// `None` when it does not.
fn entry_of(row: &MergeRow, moved: &Moved, year: i32, keys: &SeasonKeys) -> Option<MergedEntry> {
    let dates = |table: &str| {
        let mut d: Vec<_> = self::keys(moved, table)
            .iter()
            .filter_map(|k| keys.nights.get(k).copied())
            .collect();
        d.sort_unstable();
        d
    };
    let rounds = |ids: &[i64]| {
        let mut r: Vec<_> = ids
            .iter()
            .filter_map(|k| keys.rounds.get(k))
            .map(|&(date, table, round)| MergedRound { date, table, round })
            .collect();
        r.sort_by_key(|r| (r.date, r.table, r.round));
        r
    };
    let places_in = |ids: &[i64], all: &[i64]| {
        let mut p: Vec<usize> = ids
            .iter()
            .filter_map(|k| all.iter().position(|x| x == k))
            .collect();
        p.sort_unstable();
        p
    };
    let places = |table: &str, all: &[i64]| places_in(self::keys(moved, table), all);
    let both = moved.joined.iter().any(|j| j.season == year);
    let own = |table: &str, all: &[i64]| {
        let rows = moved.kept_rows.as_ref().filter(|_| both)?;
        let ids = rows
            .iter()
            .find(|(t, _)| t == table)
            .map_or(&[][..], |(_, k)| k);
        Some(places_in(ids, all))
    };
    let member = |j: &Joined| MergedMember {
        position: j.position,
        fee_paid_on: j.fee_paid_on.clone(),
        fee_cents: j.fee_cents,
        fee_from_account: j.fee_from_account != 0,
    };
    let mut fines: Vec<_> = self::keys(moved, "fines")
        .iter()
        .filter_map(|k| keys.fines.get(k))
        .map(|&(date, n)| MergedFine { date, n })
        .collect();
    fines.sort_by_key(|f| (f.date, f.n));
    let joined = moved.joined.iter().find(|j| j.season == year).map(member);
    let membership = if moved.seasons.contains(&year) {
        Some("moved".to_string())
    } else {
        joined.as_ref().map(|_| "joined".to_string())
    };
    let entry = MergedEntry {
        player: row.gone.clone(),
        into: row.kept.clone(),
        at: row.at.clone(),
        by: row.user.clone(),
        reason: row.reason.clone(),
        membership,
        joined,
        kept_fee: moved
            .kept_fees
            .iter()
            .find(|j| j.season == year)
            .map(member),
        nights: dates("night_participants"),
        totals: dates("night_totals"),
        rounds: rounds(self::keys(moved, "results")),
        schockbesteck: rounds(&moved.besteck),
        fines,
        payments: places("payments", &keys.payments),
        credit: places("credit_bookings", &keys.credit),
        endstand: self::keys(moved, "season_endstand").contains(&i64::from(year)),
        status: self::keys(moved, "player_status").contains(&i64::from(year)),
        kept_payments: own("payments", &keys.payments),
        kept_credit: own("credit_bookings", &keys.credit),
    };
    let touches = entry.membership.is_some()
        || entry.kept_fee.is_some()
        || !(entry.nights.is_empty()
            && entry.totals.is_empty()
            && entry.rounds.is_empty()
            && entry.schockbesteck.is_empty()
            && entry.fines.is_empty()
            && entry.payments.is_empty()
            && entry.credit.is_empty())
        || entry.endstand
        || entry.status;
    touches.then_some(entry)
}

/// The merges in force with what they moved, oldest first.
async fn merges(conn: &mut SqliteConnection) -> Result<Vec<(MergeRow, Moved)>, ServiceError> {
    let mut out = Vec::new();
    for row in c::in_force_on(conn).await? {
        let moved: Moved = serde_json::from_str(&row.moved_json)
            .map_err(|e| ServiceError::Corrupt(format!("player_merges {}: {e}", row.id)))?;
        out.push((row, moved));
    }
    Ok(out)
}

/// What the files of seasons `years` carry ([`Carried`]), read through `conn` (inside a
/// transaction for one picture). Errors: storage, a merge record that does not read.
pub async fn carried_of(
    conn: &mut SqliteConnection,
    years: &[i32],
) -> Result<Carried, ServiceError> {
    let merges = merges(conn).await?;
    let mut out = Carried::default();
    for &year in years {
        let status = c::statuses_named(conn, year)
            .await?
            .into_iter()
            .map(|(player, status, day)| StatusEntry {
                player,
                status,
                day,
            })
            .collect();
        if merges.is_empty() {
            out.0.insert(year, (status, None));
            continue;
        }
        let keys = c::season_keys(conn, year).await?;
        let entries: Vec<MergedEntry> = merges
            .iter()
            .filter_map(|(row, moved)| entry_of(row, moved, year, &keys))
            .collect();
        let merged = (!entries.is_empty()).then_some(MergedFile {
            version: MERGED_VERSION,
            merges: entries,
        });
        out.0.insert(year, (status, merged));
    }
    Ok(out)
}

/// Before season `year` is replaced by an import: every merge in force forgets the season's rows
/// (their ids go with them); the imported file's `merged` names them again ([`take`]).
pub async fn forget_season(conn: &mut SqliteConnection, year: i32) -> Result<(), ServiceError> {
    let merges = merges(conn).await?;
    if merges.is_empty() {
        return Ok(());
    }
    let keys = c::season_keys(conn, year).await?;
    let y = i64::from(year);
    for (row, mut moved) in merges {
        let before = moved.clone();
        for (table, ids) in &mut moved.rows {
            ids.retain(|k| match table.as_str() {
                "night_participants" | "night_totals" => !keys.nights.contains_key(k),
                "results" => !keys.rounds.contains_key(k),
                "fines" => !keys.fines.contains_key(k),
                "payments" => !keys.payments.contains(k),
                "credit_bookings" => !keys.credit.contains(k),
                "season_endstand" | "player_status" => *k != y,
                _ => true,
            });
        }
        moved.rows.retain(|(_, ids)| !ids.is_empty());
        moved.seasons.retain(|s| *s != year);
        moved.joined.retain(|j| j.season != year);
        moved.kept_fees.retain(|j| j.season != year);
        moved.besteck.retain(|k| !keys.rounds.contains_key(k));
        if moved != before {
            c::set_moved(conn, row.id, &moved).await?;
        }
    }
    Ok(())
}

/// The id of the league player called `name` (case and look-alikes ignored), created when new.
async fn player_named(conn: &mut SqliteConnection, name: &str) -> Result<i64, ServiceError> {
    let key = name_key(name);
    let all = crate::db::player::all(conn).await?;
    match all.into_iter().find(|(_, n)| name_key(n) == key) {
        Some((id, _)) => Ok(id),
        None => Ok(crate::db::season::player_id(conn, &normalize_name(name)).await?),
    }
}

/// [`player_named`] with the league's players `ids` (by name key) read already; a player made
/// here is added to them.
async fn player_in(
    conn: &mut SqliteConnection,
    ids: &mut std::collections::HashMap<String, i64>,
    name: &str,
) -> Result<i64, ServiceError> {
    let key = name_key(name);
    if let Some(id) = ids.get(&key) {
        return Ok(*id);
    }
    let id = crate::db::season::player_id(conn, &normalize_name(name)).await?;
    ids.insert(key, id);
    Ok(id)
}

/// After season `file.season` was stored by an import: its `status` (when there) replaces the
/// season's statuses, its `merged` writes the merges again ([`forget_season`] before). Refused
/// (German, naming the season, the player and the field; nothing stored): a status of someone not
/// a player of the season, an unknown status or a day outside the season, a version of `merged`
/// this program does not read, a night, round, fine, payment or booking the season does not have,
/// a merged-away player who plays a season under his own name or is merged into another.
pub async fn take(conn: &mut SqliteConnection, file: &SeasonFile) -> Result<(), ServiceError> {
    let year = file.season;
    let at = |what: String| ServiceError::refused(format!("Saison {year}, {what}"));
    if !file.status.is_empty() {
        let mut all = Vec::new();
        let mut seen = std::collections::HashSet::new();
        for s in &file.status {
            if !seen.insert(name_key(&s.player)) {
                return Err(at(format!("status von „{}“: steht zweimal da", s.player)));
            }
            let Some(p) = file
                .players
                .iter()
                .find(|p| name_key(&p.name) == name_key(&s.player))
            else {
                return Err(at(format!(
                    "status: „{}“ ist kein Spieler der Saison",
                    s.player
                )));
            };
            let day = s.day.map(|d| d.to_string()).unwrap_or_default();
            let status = Status::parse(&s.status, &day)
                .map_err(|e| at(format!("status von „{}“: {e}", s.player)))?;
            if status == Status::Aktiv
                || status
                    .day()
                    .is_some_and(|d| chrono::Datelike::year(&d) != year)
            {
                return Err(at(format!(
                    "status von „{}“: pausiert oder ausgetreten mit einem Tag der Saison",
                    s.player
                )));
            }
            let id = player_named(conn, &p.name).await?;
            all.push((id, status.code().to_string(), status.day()));
        }
        c::replace_statuses(conn, year, &all).await?;
    }
    let Some(merged) = &file.merged else {
        return Ok(());
    };
    if merged.version != MERGED_VERSION {
        return Err(at(format!(
            "merged: Version {} unbekannt (dieses Programm liest Version {MERGED_VERSION})",
            merged.version
        )));
    }
    // Each entry checked before anything is stored, and no merge twice (hostile trial).
    let mut seen = std::collections::HashSet::new();
    for e in &merged.merges {
        let who = format!("merged „{}“ in „{}“", e.player, e.into);
        e.check(&file.players)
            .map_err(|why| at(format!("{who}: {why}")))?;
        if !seen.insert(name_key(&e.player)) {
            return Err(at(format!("{who}: steht zweimal da")));
        }
    }
    let keys = c::season_keys(conn, year).await?;
    // The league's players by name key, read once (each entry looked up, not the table read
    // again per entry: a file of thousands of merges stays linear).
    let mut ids: std::collections::HashMap<String, i64> = crate::db::player::all(conn)
        .await?
        .into_iter()
        .map(|(id, n)| (name_key(&n), id))
        .collect();
    let mut rooms: Vec<i64> = merged
        .merges
        .iter()
        .filter_map(|e| e.joined.as_ref().map(|j| j.position))
        .collect();
    rooms.sort_unstable();
    for position in rooms {
        c::make_room(conn, year, position).await?;
    }
    for e in &merged.merges {
        let who = format!("merged „{}“ in „{}“", e.player, e.into);
        let moved = moved_of(e, year, &keys).map_err(|why| at(format!("{who}: {why}")))?;
        let gone = player_in(conn, &mut ids, &e.player).await?;
        let kept = player_in(conn, &mut ids, &e.into).await?;
        if gone == kept {
            return Err(at(format!("{who}: zweimal derselbe Spieler")));
        }
        if let Some(y) = c::first_season(conn, gone).await? {
            return Err(at(format!(
                "{who}: „{}“ spielt in der Saison {y} unter eigenem Namen",
                e.player
            )));
        }
        match crate::db::merge::of_gone(conn, gone).await? {
            Some(r) if r.kept_id == kept && r.at == e.at => {
                let mut all: Moved = serde_json::from_str(&r.moved_json)
                    .map_err(|e| ServiceError::Corrupt(format!("player_merges {}: {e}", r.id)))?;
                joined_with(&mut all, moved);
                c::set_moved(conn, r.id, &all).await?;
            }
            Some(r) => {
                return Err(at(format!(
                    "{who}: „{}“ ist schon mit „{}“ zusammengeführt",
                    r.gone, r.kept
                )))
            }
            None => {
                c::record_at(
                    conn,
                    (kept, gone),
                    (e.reason.as_str(), e.by.as_str(), e.at.as_str()),
                    &moved,
                )
                .await?;
            }
        }
    }
    Ok(())
}

/// `more` added to `all` (keys of a table once each, ascending).
fn joined_with(all: &mut Moved, more: Moved) {
    for (table, ids) in more.rows {
        match all.rows.iter_mut().find(|(t, _)| *t == table) {
            Some((_, have)) => {
                have.extend(ids);
                have.sort_unstable();
                have.dedup();
            }
            None => all.rows.push((table, ids)),
        }
    }
    all.seasons.extend(more.seasons);
    all.joined.extend(more.joined);
    all.kept_fees.extend(more.kept_fees);
    all.besteck.extend(more.besteck);
    all.besteck.sort_unstable();
    if let Some(more) = more.kept_rows {
        let have = all.kept_rows.get_or_insert_with(Vec::new);
        for (table, ids) in more {
            match have.iter_mut().find(|(t, _)| *t == table) {
                Some((_, k)) => k.extend(ids),
                None => have.push((table, ids)),
            }
        }
    }
}

/// What merge entry `e` moved in season `year` (its rows: `keys`), by this database's ids.
/// Errors: the German reason naming what the season does not have.
fn moved_of(e: &MergedEntry, year: i32, keys: &SeasonKeys) -> Result<Moved, String> {
    let night = |d: &chrono::NaiveDate| {
        keys.night(*d)
            .ok_or_else(|| format!("keinen Abend am {}", d.format("%d.%m.%Y")))
    };
    let round = |r: &MergedRound| {
        keys.round(r.date, r.table, r.round).ok_or_else(|| {
            format!(
                "keine Runde {} an Tisch {} am {}",
                r.round,
                r.table,
                r.date.format("%d.%m.%Y")
            )
        })
    };
    let place = |all: &[i64], n: &usize, what: &str| {
        all.get(*n)
            .copied()
            .ok_or_else(|| format!("keine {what} Nr. {}", n + 1))
    };
    let mut rows: Vec<(String, Vec<i64>)> = Vec::new();
    let mut put = |table: &str, ids: Vec<i64>| {
        if !ids.is_empty() {
            rows.push((table.to_string(), ids));
        }
    };
    put(
        "night_participants",
        e.nights.iter().map(night).collect::<Result<_, _>>()?,
    );
    put(
        "results",
        e.rounds.iter().map(round).collect::<Result<_, _>>()?,
    );
    put(
        "night_totals",
        e.totals.iter().map(night).collect::<Result<_, _>>()?,
    );
    put(
        "season_endstand",
        if e.endstand {
            vec![year.into()]
        } else {
            vec![]
        },
    );
    let fines = e
        .fines
        .iter()
        .map(|f| {
            keys.fine(f.date, f.n).ok_or_else(|| {
                format!(
                    "keine Strafe Nr. {} am {}",
                    f.n + 1,
                    f.date.format("%d.%m.%Y")
                )
            })
        })
        .collect::<Result<_, _>>()?;
    put("fines", fines);
    let payments = e
        .payments
        .iter()
        .map(|n| place(&keys.payments, n, "Zahlung"));
    put("payments", payments.collect::<Result<_, _>>()?);
    let credit = e
        .credit
        .iter()
        .map(|n| place(&keys.credit, n, "Guthaben-Buchung"));
    put("credit_bookings", credit.collect::<Result<_, _>>()?);
    put(
        "player_status",
        if e.status { vec![year.into()] } else { vec![] },
    );
    let line = |m: &MergedMember| Joined {
        season: year,
        position: m.position,
        fee_paid_on: m.fee_paid_on.clone(),
        fee_cents: m.fee_cents,
        fee_from_account: i64::from(m.fee_from_account),
    };
    let (seasons, joined) = match (e.membership.as_deref(), &e.joined) {
        (None, None) => (vec![], vec![]),
        (Some("moved"), None) => (vec![year], vec![]),
        (Some("joined"), Some(j)) => (vec![], vec![line(j)]),
        _ => return Err("membership: „moved“, oder „joined“ mit joined".into()),
    };
    let kept_rows = kept_rows_of(e, keys)?;
    Ok(Moved {
        kept_rows,
        rows,
        seasons,
        joined,
        kept_fees: e.kept_fee.iter().map(line).collect(),
        zusagen: Vec::new(),
        besteck: e
            .schockbesteck
            .iter()
            .map(round)
            .collect::<Result<_, _>>()?,
    })
}

/// The kept player's own payments and Guthaben bookings of entry `e` ([`Moved::kept_rows`]) by
/// this database's ids; `None` when the entry has none. Errors: a place the season does not have.
fn kept_rows_of(e: &MergedEntry, keys: &SeasonKeys) -> Result<Option<TableKeys>, String> {
    if e.kept_payments.is_none() && e.kept_credit.is_none() {
        return Ok(None);
    }
    let own = |places: &Option<Vec<usize>>, all: &[i64], what: &str| {
        places
            .iter()
            .flatten()
            .map(|n| {
                all.get(*n)
                    .copied()
                    .ok_or_else(|| format!("keine {what} Nr. {}", n + 1))
            })
            .collect::<Result<Vec<i64>, String>>()
    };
    Ok(Some(vec![
        (
            "payments".to_string(),
            own(&e.kept_payments, &keys.payments, "Zahlung")?,
        ),
        (
            "credit_bookings".to_string(),
            own(&e.kept_credit, &keys.credit, "Guthaben-Buchung")?,
        ),
    ]))
}
