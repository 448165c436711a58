//! The in-memory season cache: each season's checked model, player ids and standings, computed
//! once per change of the season and shared (`Arc`) by every request that reads it.
//!
//! Validity is decided by the database, not by the code that writes: triggers bump the season's
//! counter in `season_versions` on every write to its data (see the migration), and a read compares
//! that counter (one indexed point query) with the cached view's. So a write through any page, the
//! command line or another process invalidates exactly the seasons it touched, and the cost of a
//! read grows with the season asked for, not with the number of seasons stored.
//!
//! The counter query itself is skipped while nothing can have changed: a view remembers the
//! process's local write signal ([`db::version::local_writes`], bumped by a commit hook on the
//! writer connection before the commit returns, and again when the connection is released) at
//! which its counter was last confirmed. A read whose signal is unchanged and whose confirmation is
//! younger than [`RECHECK_AFTER`] uses the view without a query. Writes through this server are
//! therefore seen by the next request; writes from another process (the command line) within
//! [`RECHECK_AFTER`].

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant};

use axum::body::Bytes;
use chrono::NaiveDate;
use sqlx::{SqliteConnection, SqlitePool};

use crate::db;
use crate::league::{self, PlayerHistory, Season, Standings};
use crate::service::ServiceError;

/// How long a confirmed counter is trusted without a query when this process wrote nothing: the
/// longest a write from another process stays unseen.
pub const RECHECK_AFTER: Duration = Duration::from_secs(1);

/// When a value was last confirmed against the database: the local write signal read before the
/// confirming query, and the time.
#[derive(Debug, Clone, Copy)]
struct Confirmed {
    signal: u64,
    at: Instant,
}

impl Confirmed {
    /// Confirmed at `signal`, now.
    fn now(signal: u64) -> Confirmed {
        Confirmed {
            signal,
            at: Instant::now(),
        }
    }

    /// Still valid: no local write since, and young enough.
    fn holds(self, signal: u64) -> bool {
        self.signal == signal && self.at.elapsed() < RECHECK_AFTER
    }
}

/// A player's history, computed at most once (`None`: no such player).
type HistoryCell = Arc<OnceLock<Option<Arc<PlayerHistory>>>>;

/// One season as of one change counter: the checked season and what pages derive from it.
#[derive(Debug)]
pub struct SeasonView {
    /// The `season_versions` counter this view was computed at.
    pub version: i64,
    /// The checked season (league.md §1, §5, §6).
    pub season: Season,
    /// Money carried in from the previous season, in cents.
    pub carry_in_cents: i64,
    /// `players.id` by player name, for links.
    pub player_ids: HashMap<String, i64>,
    /// The table as of the last night, computed on first use.
    standings: OnceLock<Standings>,
    /// Each player's season night by night (`None`: not a player), computed on first use.
    histories: Mutex<HashMap<String, HistoryCell>>,
    /// When `version` was last confirmed as the season's current counter.
    confirmed: Mutex<Option<Confirmed>>,
    /// Rendered responses that depend only on this view (pages for visitors without login, the
    /// standings JSON), by a key the handler chooses.
    pages: Mutex<HashMap<String, Bytes>>,
}

impl SeasonView {
    /// A view of `season` at counter `version`.
    pub fn new(
        version: i64,
        season: Season,
        carry_in_cents: i64,
        player_ids: HashMap<String, i64>,
    ) -> SeasonView {
        SeasonView {
            version,
            season,
            carry_in_cents,
            player_ids,
            standings: OnceLock::new(),
            histories: Mutex::new(HashMap::new()),
            confirmed: Mutex::new(None),
            pages: Mutex::new(HashMap::new()),
        }
    }

    /// The rendered response stored under `key`, if any.
    pub fn page(&self, key: &str) -> Option<Bytes> {
        let pages = self.pages.lock().unwrap_or_else(|e| e.into_inner());
        pages.get(key).cloned()
    }

    /// Stores a rendered response under `key`: it must depend only on this view and the key.
    pub fn put_page(&self, key: String, body: Bytes) {
        let mut pages = self.pages.lock().unwrap_or_else(|e| e.into_inner());
        pages.insert(key, body);
    }

    /// True when the view was confirmed current at local write signal `signal` recently.
    fn is_confirmed(&self, signal: u64) -> bool {
        let c = self.confirmed.lock().unwrap_or_else(|e| e.into_inner());
        c.is_some_and(|c| c.holds(signal))
    }

    /// Records that the view's counter was read from the database after signal `signal`.
    fn confirm(&self, signal: u64) {
        *self.confirmed.lock().unwrap_or_else(|e| e.into_inner()) = Some(Confirmed::now(signal));
    }

    /// The table as of the season's last night (league.md §3–§4), computed once per view.
    pub fn standings(&self) -> &Standings {
        self.standings
            .get_or_init(|| league::standings(&self.season, None))
    }

    /// The table as of `as_of` (`None`: the last night; that one is cached).
    pub fn standings_as_of(&self, as_of: Option<NaiveDate>) -> std::borrow::Cow<'_, Standings> {
        match as_of {
            None => std::borrow::Cow::Borrowed(self.standings()),
            Some(d) => std::borrow::Cow::Owned(league::standings(&self.season, Some(d))),
        }
    }

    /// The season of player `name` night by night (`league::player_history`), computed once per
    /// view and player: it ranks the season after each of his nights, so it is worth keeping.
    /// `None` when `name` is not a player of the season.
    pub fn player_history(&self, name: &str) -> Option<Arc<PlayerHistory>> {
        let cell = {
            let mut map = self.histories.lock().unwrap_or_else(|e| e.into_inner());
            map.entry(name.to_string()).or_default().clone()
        };
        cell.get_or_init(|| league::player_history(&self.season, name).map(Arc::new))
            .clone()
    }

    /// The name of the season's player with id `id`, if he belongs to the season.
    pub fn player_name(&self, id: i64) -> Option<&str> {
        self.player_ids
            .iter()
            .find(|(_, v)| **v == id)
            .map(|(k, _)| k.as_str())
    }
}

/// One season's cache slot: the newest view and a lock so only one request recomputes it.
#[derive(Default)]
struct Slot {
    view: Option<Arc<SeasonView>>,
    loading: Arc<tokio::sync::Mutex<()>>,
}

/// Every season as `(year, change counter)`, newest first.
pub type YearList = Arc<Vec<(i32, i64)>>;

/// The views of all seasons read so far, by year, and the list of seasons. Cloning shares the
/// cache.
#[derive(Clone, Default)]
pub struct SeasonCache {
    slots: Arc<Mutex<HashMap<i32, Slot>>>,
    years: Arc<Mutex<Option<(YearList, Confirmed)>>>,
}

impl std::fmt::Debug for SeasonCache {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("SeasonCache")
    }
}

impl SeasonCache {
    /// The cached view of `year` if it is at counter `version` (or newer).
    fn cached(&self, year: i32, version: i64) -> Option<Arc<SeasonView>> {
        let slots = self.slots.lock().unwrap_or_else(|e| e.into_inner());
        slots
            .get(&year)
            .and_then(|s| s.view.clone())
            .filter(|v| v.version >= version)
    }

    /// Stores `view` for `year` unless a newer one is already there.
    pub fn put(&self, year: i32, view: Arc<SeasonView>) {
        let mut slots = self.slots.lock().unwrap_or_else(|e| e.into_inner());
        let slot = slots.entry(year).or_default();
        if slot.view.as_ref().is_none_or(|v| v.version < view.version) {
            slot.view = Some(view);
        }
    }

    /// The newest cached view of `year`, whatever its counter.
    fn latest(&self, year: i32) -> Option<Arc<SeasonView>> {
        let slots = self.slots.lock().unwrap_or_else(|e| e.into_inner());
        slots.get(&year).and_then(|s| s.view.clone())
    }

    /// Every existing season as `(year, change counter)`, newest first: from memory while
    /// confirmed (see the module doc), else one query.
    pub async fn versions(&self, pool: &SqlitePool) -> Result<YearList, ServiceError> {
        let signal = db::version::local_writes();
        {
            let years = self.years.lock().unwrap_or_else(|e| e.into_inner());
            if let Some((list, confirmed)) = years.as_ref() {
                if confirmed.holds(signal) {
                    return Ok(list.clone());
                }
            }
        }
        let mut conn = pool.acquire().await?;
        let list = Arc::new(db::version::all(&mut conn).await?);
        *self.years.lock().unwrap_or_else(|e| e.into_inner()) =
            Some((list.clone(), Confirmed::now(signal)));
        Ok(list)
    }

    /// Season `year` as currently stored: from memory while confirmed (see the module doc), else
    /// one counter query, and a full load only when the season changed since it was last read
    /// (concurrent readers of a changed season wait for one load).
    /// Errors: [`ServiceError::NoSeason`], a stored season that fails its checks, storage errors.
    pub async fn get(&self, pool: &SqlitePool, year: i32) -> Result<Arc<SeasonView>, ServiceError> {
        let signal = db::version::local_writes();
        if let Some(view) = self.latest(year).filter(|v| v.is_confirmed(signal)) {
            return Ok(view);
        }
        let version = {
            let mut conn = pool.acquire().await?;
            db::version::of_season(&mut conn, year)
                .await?
                .ok_or(ServiceError::NoSeason(year))?
        };
        let view = self.get_at(pool, year, version).await?;
        if view.version == version {
            view.confirm(signal);
        }
        Ok(view)
    }

    /// Like [`SeasonCache::get`] when the caller already read the season's counter `version`.
    pub async fn get_at(
        &self,
        pool: &SqlitePool,
        year: i32,
        version: i64,
    ) -> Result<Arc<SeasonView>, ServiceError> {
        if let Some(view) = self.cached(year, version) {
            return Ok(view);
        }
        let loading = {
            let mut slots = self.slots.lock().unwrap_or_else(|e| e.into_inner());
            slots.entry(year).or_default().loading.clone()
        };
        let _guard = loading.lock().await;
        if let Some(view) = self.cached(year, version) {
            return Ok(view);
        }
        let mut tx = pool.begin().await?;
        let view = Arc::new(load_view(&mut tx, year).await?);
        tx.commit().await?;
        self.put(year, view.clone());
        Ok(view)
    }

    /// The view of `year` for a write transaction: the cached one when it is at the counter `conn`
    /// sees, else loaded through `conn` (so it matches what the transaction sees).
    pub async fn get_in(
        &self,
        conn: &mut SqliteConnection,
        year: i32,
    ) -> Result<Arc<SeasonView>, ServiceError> {
        let version = db::version::of_season(&mut *conn, year)
            .await?
            .ok_or(ServiceError::NoSeason(year))?;
        match self.cached(year, version).filter(|v| v.version == version) {
            Some(view) => Ok(view),
            None => Ok(Arc::new(load_view(conn, year).await?)),
        }
    }
}

/// Loads season `year` with its counter through `conn` (inside one transaction for a consistent
/// snapshot) and checks it.
pub async fn load_view(conn: &mut SqliteConnection, year: i32) -> Result<SeasonView, ServiceError> {
    let version = db::version::of_season(&mut *conn, year)
        .await?
        .ok_or(ServiceError::NoSeason(year))?;
    let row = db::season::get(&mut *conn, year)
        .await?
        .ok_or(ServiceError::NoSeason(year))?;
    let file = db::season::load_file_conn(&mut *conn, year)
        .await?
        .ok_or(ServiceError::NoSeason(year))?;
    let ids = db::player::of_season(&mut *conn, year)
        .await?
        .into_iter()
        .map(|p| (p.name, p.id))
        .collect();
    let season = Season::from_file(&file)?;
    Ok(SeasonView::new(version, season, row.carry_in_cents, ids))
}
