//! The read side: one in-memory snapshot of the whole league (every season checked, with its
//! storage ids; standings, player histories and the payouts chain computed on first use). Requests
//! read it without any SQL. The write pipeline replaces the seasons it changed; writes of other
//! processes (the command line) are found by [`League::refresh`](super::League::refresh) from the
//! per-season change counters (`season_versions`, bumped by triggers), which the server runs every
//! [`REFRESH_EVERY`], so such a write shows within [`SEEN_WITHIN`].

use std::collections::{BTreeMap, HashMap};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Duration;

use chrono::NaiveDate;

use super::settings::ClubSettings;
use super::ServiceError;
use crate::db::season::{Ids, Stored};
use crate::league::history::career::{AllTimeRow, Career, CareerLine, HonourYear};
use crate::league::history::curves::SeasonCurves;
use crate::league::history::glueck::Glueck;
use crate::league::history::records::Records;
use crate::league::plan::planned::Planning;
use crate::league::table::progress::PlayersProgress;
use crate::league::{self, Night, Payouts, PlayerHistory, Season, Standings};

/// How often the server compares its snapshot with the database's change counters.
pub const REFRESH_EVERY: Duration = Duration::from_millis(250);

/// The longest a write from another process stays unseen by the server's pages.
pub const SEEN_WITHIN: Duration = Duration::from_secs(1);

/// A player's history, computed at most once (`None`: no such player).
type HistoryCell = Arc<OnceLock<Option<Arc<PlayerHistory>>>>;

/// One season as of one change counter: the checked season, its storage ids and what pages derive
/// from it (computed on first use, shared by every request and every later snapshot while the
/// season is unchanged).
#[derive(Debug)]
pub struct SeasonView {
    /// The `season_versions` counter this view is at.
    pub version: i64,
    /// The checked season (league.md §1, §5, §6, §9), closed nights marked.
    pub season: Season,
    /// Storage ids of its players, nights and fines.
    pub ids: Ids,
    /// The stored carry-in in cents (payouts use the chained one: [`Snapshot::chained`]).
    pub carry_in_cents: i64,
    standings: OnceLock<Standings>,
    histories: Mutex<HashMap<String, HistoryCell>>,
    progress: Mutex<HashMap<Option<NaiveDate>, Arc<PlayersProgress>>>,
    curves: OnceLock<SeasonCurves>,
    records: OnceLock<Records>,
    glueck: OnceLock<BTreeMap<String, Glueck>>,
    derived: Mutex<Option<Arc<Derived>>>,
}

/// What the league's history takes of one season for one carry-in (league.md §8): its payouts,
/// its players' career lines and its year of the Ehrentafel. Kept by the season's view while its
/// carry-in stays the same, so a write to one season recomputes only that season's (and, when its
/// carry-out changed, the later seasons' payouts) and folds the rest (issue 25).
#[derive(Debug)]
pub struct Derived {
    /// The carry-in these are for, cents; `None`: the season is not chainable (a broken season
    /// before it), no payouts.
    pub carry_in_cents: Option<i64>,
    /// Its year-end payouts with that carry-in (`None` when not chainable).
    pub payouts: Option<Payouts>,
    /// Its players' career lines ([`league::history::career::season_lines`]).
    pub lines: Vec<CareerLine>,
    /// Its year of the Ehrentafel, `None` without a night or an Endstand.
    pub honour: Option<HonourYear>,
}

impl SeasonView {
    /// A view of `season` at counter `version`.
    pub fn new(version: i64, season: Season, ids: Ids, carry_in_cents: i64) -> SeasonView {
        SeasonView {
            version,
            season,
            ids,
            carry_in_cents,
            standings: OnceLock::new(),
            histories: Mutex::new(HashMap::new()),
            progress: Mutex::new(HashMap::new()),
            curves: OnceLock::new(),
            records: OnceLock::new(),
            glueck: OnceLock::new(),
            derived: Mutex::new(None),
        }
    }

    /// The season's payouts, career lines and Ehrentafel year for `carry_in_cents` (`None`: not
    /// chainable, no payouts), from its kept table; computed once per view and carry-in.
    pub fn derived(&self, carry_in_cents: Option<i64>) -> Arc<Derived> {
        let mut slot = self.derived.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(d) = slot.as_ref().filter(|d| d.carry_in_cents == carry_in_cents) {
            return d.clone();
        }
        let table = self.standings();
        let payouts = carry_in_cents
            .map(|c| league::money::payouts::payouts_of_table(&self.season, table, c));
        let d = Arc::new(Derived {
            carry_in_cents,
            lines: league::history::career::season_lines(&self.season, table, payouts.as_ref()),
            honour: league::history::career::honour_year(&self.season, table, payouts.as_ref()),
            payouts,
        });
        *slot = Some(d.clone());
        d
    }

    /// The view of a season as stored: checked with [`Season::from_stored_file`] (a round's
    /// Schockbesteck throws that no longer check are left out and logged, the round stays), closed
    /// nights marked. Errors: the stored season fails its checks (German, where and why).
    pub fn of_stored(stored: Stored) -> Result<SeasonView, league::EntryError> {
        let (season, dropped) = Season::from_stored_file(&stored.file)?;
        for why in dropped {
            tracing::warn!(
                season = season.year,
                "Schockbesteck-Würfe nicht geladen: {why}"
            );
        }
        Ok(SeasonView::new(
            stored.version,
            season,
            stored.ids,
            stored.carry_in_cents,
        ))
    }

    /// The table as of the season's last night with results (league.md §3–§4), computed once per
    /// view.
    pub fn standings(&self) -> &Standings {
        self.standings
            .get_or_init(|| league::standings(&self.season, None))
    }

    /// The table as of `as_of` (`None`: the last night with results; that one is kept).
    pub fn standings_as_of(&self, as_of: Option<NaiveDate>) -> std::borrow::Cow<'_, Standings> {
        match as_of {
            None => std::borrow::Cow::Borrowed(self.standings()),
            Some(d) => std::borrow::Cow::Owned(league::standings(&self.season, Some(d))),
        }
    }

    /// The table as the club's `today` sees it (issue 22.3): as of `as_of`, at most today, or
    /// (`None`) the last night with results on or before today ([`Season::capped_as_of`]); the
    /// kept table whenever that is the default (no night after today has results).
    pub fn standings_on(
        &self,
        as_of: Option<NaiveDate>,
        today: NaiveDate,
    ) -> std::borrow::Cow<'_, Standings> {
        self.standings_as_of(self.season.capped_as_of(as_of, today))
    }

    /// [`SeasonView::progress`] as the club's `today` sees it (as [`SeasonView::standings_on`]).
    pub fn progress_on(&self, as_of: Option<NaiveDate>, today: NaiveDate) -> Arc<PlayersProgress> {
        self.progress(self.season.capped_as_of(as_of, today))
    }

    /// The season of player `name` night by night (`league::player_history`), computed once per
    /// view and player. `None` when `name` is not a player of the season.
    pub fn player_history(&self, name: &str) -> Option<Arc<PlayerHistory>> {
        let cell = {
            let mut map = self.histories.lock().unwrap_or_else(|e| e.into_inner());
            map.entry(name.to_string()).or_default().clone()
        };
        cell.get_or_init(|| league::player_history(&self.season, name).map(Arc::new))
            .clone()
    }

    /// The players' table as of `as_of` (`None`: the last night) with movement since the previous
    /// night and Liga-Fortschritt (`league::table::progress::players_progress`, league.md §3–§5), computed
    /// once per view and date. The caller checks `as_of` with `league::check_as_of` first.
    pub fn progress(&self, as_of: Option<NaiveDate>) -> Arc<PlayersProgress> {
        let mut map = self.progress.lock().unwrap_or_else(|e| e.into_inner());
        map.entry(as_of)
            .or_insert_with(|| {
                Arc::new(league::table::progress::players_progress(
                    &self.season,
                    as_of,
                ))
            })
            .clone()
    }

    /// Every player's curve of the season (`league::history::curves::season_curves`: D.Wert, place and
    /// counted Outs after each night; league.md §2–§4), computed once per view.
    pub fn curves(&self) -> &SeasonCurves {
        self.curves
            .get_or_init(|| league::history::curves::season_curves(&self.season))
    }

    /// The season's records and streaks (`league::history::records::season_records`, league.md §1, §2, §7),
    /// computed once per view.
    pub fn records(&self) -> &Records {
        self.records
            .get_or_init(|| league::history::records::season_records(&self.season))
    }

    /// Every player's Glücksfaktor figures from the season's Schockbesteck rounds
    /// (`league::history::glueck::of_season`), by name, computed once per view; empty when no round of the
    /// season was played in the Schockbesteck.
    pub fn glueck(&self) -> &BTreeMap<String, Glueck> {
        self.glueck
            .get_or_init(|| league::history::glueck::of_season(&self.season))
    }

    /// The name of the season's player with `players.id` = `id`, if he belongs to the season.
    pub fn player_name(&self, id: i64) -> Option<&str> {
        self.ids.player_name(id)
    }

    /// The night on `date`, if the season has one.
    pub fn night(&self, date: NaiveDate) -> Option<&Night> {
        self.season.night(date)
    }
}

/// A season's payouts in the carry chain (league.md §8).
#[derive(Debug, Clone)]
pub struct Chained {
    /// Its payouts; `carry_in_cents` is the previous season's carry-out (0 for the first season).
    pub payouts: Payouts,
    /// The payouts of the previous season stored, if any (its carry-out is our carry-in).
    pub previous: Option<Payouts>,
    /// The next season stored, if any (it receives our carry-out).
    pub next_year: Option<i32>,
}

/// What spans all readable seasons (league.md §2–§4, §7, §8): careers, the all-time table, the
/// Ehrentafel and the all-time records; computed once per snapshot.
#[derive(Debug)]
pub struct History {
    /// Every player's career, sorted by `league::name_key` (money: cents received at payouts).
    pub careers: Vec<Career>,
    /// The all-time table: players with at least `league::history::career::ALL_TIME_MIN_ROUNDS` rounds.
    pub all_time: Vec<AllTimeRow>,
    /// The Ehrentafel, one entry per season with a night, by year.
    pub ehrentafel: Vec<HonourYear>,
    /// The all-time records and streaks (streaks within one season).
    pub records: Records,
    /// Position in `careers` by `league::name_key`.
    by_key: HashMap<String, usize>,
    /// Position in `all_time` by player name.
    all_time_by_name: HashMap<String, usize>,
}

/// [`Snapshot::history_on`]: the kept history, or one computed as of the club's today.
pub enum HistoryOn<'a> {
    /// No season has results after today: the snapshot's.
    Kept(&'a History),
    /// As of today.
    Today(Box<History>),
}

impl std::ops::Deref for HistoryOn<'_> {
    type Target = History;
    fn deref(&self) -> &History {
        match self {
            HistoryOn::Kept(h) => h,
            HistoryOn::Today(h) => h,
        }
    }
}

impl History {
    /// The history of `careers` (sorted by name key), with the all-time table of those with at
    /// least [`league::history::career::ALL_TIME_MIN_ROUNDS`] rounds, `ehrentafel` and `records`.
    fn of(careers: Vec<Career>, ehrentafel: Vec<HonourYear>, records: Records) -> History {
        let all_time = league::history::career::all_time_of(
            &careers,
            league::history::career::ALL_TIME_MIN_ROUNDS,
        );
        History {
            by_key: careers
                .iter()
                .enumerate()
                .map(|(i, c)| (league::name_key(&c.player), i))
                .collect(),
            all_time_by_name: all_time
                .iter()
                .enumerate()
                .map(|(i, r)| (r.player.clone(), i))
                .collect(),
            all_time,
            careers,
            ehrentafel,
            records,
        }
    }

    /// The career of `name` (any case: matched by `league::name_key`), `None` without a round.
    pub fn career(&self, name: &str) -> Option<&Career> {
        self.by_key
            .get(&league::name_key(name))
            .and_then(|&i| self.careers.get(i))
    }

    /// The all-time table's line of `player` (his career's spelling), if he is listed.
    pub fn all_time_row(&self, player: &str) -> Option<&AllTimeRow> {
        self.all_time_by_name
            .get(player)
            .and_then(|&i| self.all_time.get(i))
    }
}

/// The whole league at one moment. Cheap to share (`Arc`); replaced, never changed.
#[derive(Debug, Default)]
pub struct Snapshot {
    /// Increases with every replacement: pages rendered from a snapshot are valid while it is current.
    pub id: u64,
    seasons: BTreeMap<i32, Arc<SeasonView>>,
    /// Seasons stored that fail their checks: (change counter, why).
    broken: BTreeMap<i32, (i64, String)>,
    chain: OnceLock<BTreeMap<i32, Chained>>,
    history: OnceLock<History>,
    /// `players.id` by `league::name_key`, the newest season first ([`Snapshot::player_id`]).
    player_ids: OnceLock<HashMap<String, i64>>,
    /// The club's settings (the GiroCode's account, "Kasse nur für Mitglieder").
    pub settings: Arc<ClubSettings>,
    /// The nights planned ahead with their Zusagen (`league::plan::planned`).
    pub planning: Arc<Planning>,
}

impl Snapshot {
    /// A snapshot of `seasons` and `broken` ones.
    pub fn new(
        id: u64,
        seasons: BTreeMap<i32, Arc<SeasonView>>,
        broken: BTreeMap<i32, (i64, String)>,
    ) -> Snapshot {
        Snapshot {
            id,
            seasons,
            broken,
            chain: OnceLock::new(),
            history: OnceLock::new(),
            player_ids: OnceLock::new(),
            settings: Arc::default(),
            planning: Arc::default(),
        }
    }

    /// This snapshot with the club's `settings`, as snapshot `id` (the seasons and their computed
    /// pages are shared).
    pub fn with_settings(&self, id: u64, settings: Arc<ClubSettings>) -> Snapshot {
        let mut next = Snapshot::new(id, self.seasons.clone(), self.broken.clone());
        next.settings = settings;
        next.planning = self.planning.clone();
        next
    }

    /// This snapshot with the nights planned ahead `planning`, as snapshot `id` (the seasons and
    /// their computed pages are shared).
    pub fn with_planning(&self, id: u64, planning: Arc<Planning>) -> Snapshot {
        let mut next = Snapshot::new(id, self.seasons.clone(), self.broken.clone());
        next.settings = self.settings.clone();
        next.planning = planning;
        next
    }

    /// True when the money of the league (Kasse, open fines, money cards, amounts next to names)
    /// may be shown to a visitor: always to a logged-in account (`logged_in`), to the public
    /// unless the club set "Kasse nur für Mitglieder".
    pub fn money_visible(&self, logged_in: bool) -> bool {
        logged_in || !self.settings.money_private
    }

    /// Every stored season's year, newest first.
    pub fn years(&self) -> Vec<i32> {
        let mut years: Vec<i32> = self
            .seasons
            .keys()
            .chain(self.broken.keys())
            .copied()
            .collect();
        years.sort_unstable_by(|a, b| b.cmp(a));
        years
    }

    /// Every stored season's change counter, by year.
    pub fn versions(&self) -> BTreeMap<i32, i64> {
        self.seasons
            .iter()
            .map(|(y, v)| (*y, v.version))
            .chain(self.broken.iter().map(|(y, (v, _))| (*y, *v)))
            .collect()
    }

    /// Season `year`. Errors: [`ServiceError::NoSeason`]; [`ServiceError::Corrupt`] for a stored
    /// season that fails its checks.
    pub fn season(&self, year: i32) -> Result<&Arc<SeasonView>, ServiceError> {
        if let Some((_, why)) = self.broken.get(&year) {
            return Err(ServiceError::Corrupt(format!(
                "gespeicherte Saison {year} ungültig: {why}"
            )));
        }
        self.seasons.get(&year).ok_or(ServiceError::NoSeason(year))
    }

    /// Every readable season, oldest first.
    pub fn seasons(&self) -> impl DoubleEndedIterator<Item = &Arc<SeasonView>> {
        self.seasons.values()
    }

    /// The current season on the club's day `today`: the newest with a night on or before
    /// `today`; else the newest with any night (every night lies ahead); else the newest (a season
    /// created early to book fees must not empty the public table, and next year's season brought
    /// in from a file with its nights ahead must not take it over before its first night);
    /// `None` without seasons.
    pub fn current_year(&self, today: NaiveDate) -> Option<i32> {
        let newest_with = |played: &dyn Fn(&Night) -> bool| {
            self.seasons
                .iter()
                .rev()
                .find(|(_, v)| v.season.nights.iter().any(played))
                .map(|(y, _)| *y)
        };
        newest_with(&|n| n.date <= today)
            .or_else(|| newest_with(&|_| true))
            .or_else(|| self.years().first().copied())
    }

    /// The season and night on `date`, if stored.
    pub fn night(&self, date: NaiveDate) -> Option<(&Arc<SeasonView>, &Night)> {
        let view = self.seasons.get(&chrono::Datelike::year(&date))?;
        view.night(date).map(|n| (view, n))
    }

    /// Season `year` with its payouts chained over every earlier season: season N's carry-in =
    /// payouts(N−1).carry_out, 0 for the first stored season. Computed once per snapshot.
    /// Errors: no such season; a season up to `year` that fails its checks.
    pub fn chained(&self, year: i32) -> Result<&Chained, ServiceError> {
        self.chainable(year)?;
        let all = self.chain.get_or_init(|| self.chain_of(None));
        all.get(&year).ok_or(ServiceError::NoSeason(year))
    }

    /// [`Snapshot::chained`] as the club's `today` sees it (issue 22.3): every season's Lucky
    /// Looser and places from its table as of [`Season::capped_as_of`] today. The kept chain
    /// unless some season has results on a night after today (entered ahead of its day).
    pub fn chained_on(
        &self,
        year: i32,
        today: NaiveDate,
    ) -> Result<std::borrow::Cow<'_, Chained>, ServiceError> {
        if !self.results_after(today) {
            return self.chained(year).map(std::borrow::Cow::Borrowed);
        }
        self.chainable(year)?;
        self.chain_of(Some(today))
            .remove(&year)
            .map(std::borrow::Cow::Owned)
            .ok_or(ServiceError::NoSeason(year))
    }

    /// True when a season has results on a night after `today` ([`Season::results_after`]).
    pub fn results_after(&self, today: NaiveDate) -> bool {
        self.seasons.values().any(|v| v.season.results_after(today))
    }

    /// `Ok` when season `year` is readable and no season before it is broken (its carry-in is
    /// known).
    fn chainable(&self, year: i32) -> Result<(), ServiceError> {
        self.season(year)?;
        if let Some((&y, (_, why))) = self.broken.range(..year).next_back() {
            return Err(ServiceError::Corrupt(format!(
                "gespeicherte Saison {y} ungültig: {why}"
            )));
        }
        Ok(())
    }

    /// The payouts chain over every readable season (league::money::kasse::chain over the views, without
    /// copying the seasons), each season's table as of [`Season::capped_as_of`] `today` (`None`:
    /// after its last night with results).
    fn chain_of(&self, today: Option<NaiveDate>) -> BTreeMap<i32, Chained> {
        let mut carry = 0;
        let payouts: Vec<Payouts> = self
            .seasons
            .values()
            .map(|v| {
                // Each season's payouts as of its last night are kept by its view per carry-in;
                // only a season with results after `today` is read as of an earlier day (issue
                // 25: every season of a long history was summed again on each Kasse and
                // Jahresabschluss while the current one had a night entered ahead).
                let kept = || {
                    v.derived(Some(carry))
                        .payouts
                        .clone()
                        .unwrap_or_else(|| league::money::payouts::payouts(&v.season, carry))
                };
                let p = match today.map(|t| v.season.capped_as_of(None, t)) {
                    None | Some(None) => kept(),
                    Some(as_of) => league::money::payouts::payouts_as_of(&v.season, carry, as_of),
                };
                carry = p.carry_out_cents;
                p
            })
            .collect();
        let years: Vec<i32> = self.seasons.keys().copied().collect();
        years
            .iter()
            .enumerate()
            .zip(payouts.iter())
            .map(|((i, &y), p)| {
                (
                    y,
                    Chained {
                        payouts: p.clone(),
                        previous: i.checked_sub(1).and_then(|k| payouts.get(k).cloned()),
                        next_year: years.get(i + 1).copied(),
                    },
                )
            })
            .collect()
    }

    /// The Ehrentafel as the club's `today` sees it (issue 22.3): each season's Schocker des
    /// Jahres, Lucky Looser and places as of [`Season::capped_as_of`] today; the kept one
    /// ([`History::ehrentafel`]) unless a season has results after today.
    pub fn ehrentafel_on(&self, today: NaiveDate) -> std::borrow::Cow<'_, [HonourYear]> {
        if !self.results_after(today) {
            return std::borrow::Cow::Borrowed(&self.history().ehrentafel);
        }
        let chain = self.chain_of(Some(today));
        let seasons: Vec<Season> = self.seasons.values().map(|v| v.season.clone()).collect();
        let payouts: Vec<Payouts> = chain
            .into_iter()
            .filter(|(y, _)| self.chainable(*y).is_ok())
            .map(|(_, c)| c.payouts)
            .collect();
        std::borrow::Cow::Owned(league::history::career::ehrentafel_on(
            &seasons,
            &payouts,
            Some(today),
        ))
    }

    /// Careers, the all-time table, the Ehrentafel and the all-time records over every readable
    /// season (payouts chained over the readable seasons, league.md §8), computed once per snapshot.
    pub fn history(&self) -> &History {
        self.history.get_or_init(|| {
            // Each season's part is kept by its view (per carry-in): only the seasons a write
            // changed are computed again, the rest is folded.
            let derived: Vec<Arc<Derived>> = self
                .seasons
                .iter()
                .map(|(y, v)| {
                    let carry = self.chained(*y).ok().map(|c| c.payouts.carry_in_cents);
                    v.derived(carry)
                })
                .collect();
            let careers =
                league::history::career::fold_careers(derived.iter().map(|d| d.lines.as_slice()));
            History::of(
                careers,
                derived.iter().filter_map(|d| d.honour.clone()).collect(),
                // The seasons' own records (each computed once per view) merged.
                league::history::records::merge_records(self.seasons.values().map(|v| v.records())),
            )
        })
    }

    /// [`Snapshot::history`] as the club's `today` sees it (issue 22.3; new-user trial: the table
    /// said 1st, the career 2nd): careers and the all-time table from each season's table and
    /// payouts as of [`Season::capped_as_of`] today, the Ehrentafel of
    /// [`Snapshot::ehrentafel_on`]; the kept one unless a season has results after today (then
    /// computed for the call). The all-time records are those of every entered night.
    pub fn history_on(&self, today: NaiveDate) -> HistoryOn<'_> {
        if !self.results_after(today) {
            return HistoryOn::Kept(self.history());
        }
        let chain = self.chain_of(Some(today));
        let lines: Vec<Vec<league::history::career::CareerLine>> = self
            .seasons
            .iter()
            .map(|(y, v)| {
                let table = v.standings_as_of(v.season.capped_as_of(None, today));
                let payouts = self
                    .chainable(*y)
                    .ok()
                    .and(chain.get(y))
                    .map(|c| &c.payouts);
                league::history::career::season_lines(&v.season, &table, payouts)
            })
            .collect();
        let careers = league::history::career::fold_careers(lines.iter().map(Vec::as_slice));
        HistoryOn::Today(Box::new(History::of(
            careers,
            self.ehrentafel_on(today).into_owned(),
            self.history().records.clone(),
        )))
    }

    /// True when [`Snapshot::history`] is computed already (a page can have it without waiting).
    pub fn history_ready(&self) -> bool {
        self.history.get().is_some()
    }

    /// The `players.id` of the player called `name` (any case) in any readable season, newest first.
    pub fn player_id(&self, name: &str) -> Option<i64> {
        let ids = self.player_ids.get_or_init(|| {
            let mut ids = HashMap::new();
            for v in self.seasons.values().rev() {
                for (n, id) in &v.ids.players {
                    ids.entry(league::name_key(n)).or_insert(*id);
                }
            }
            ids
        });
        ids.get(&league::name_key(name)).copied()
    }

    /// The name of the player with `players.id` = `id` in the newest readable season he belongs to.
    pub fn player_name(&self, id: i64) -> Option<&str> {
        self.seasons
            .values()
            .rev()
            .find_map(|v| v.ids.player_name(id))
    }

    /// This snapshot with `views` in place of their seasons' views and `removed` seasons gone, as
    /// snapshot `id`. A view replaces one only when its counter is newer (or the season is new).
    pub fn with(&self, id: u64, views: Vec<Arc<SeasonView>>, removed: &[i32]) -> Snapshot {
        let mut seasons = self.seasons.clone();
        let mut broken = self.broken.clone();
        for y in removed {
            seasons.remove(y);
            broken.remove(y);
        }
        for v in views {
            let year = v.season.year;
            let newer = seasons
                .get(&year)
                .map(|old| old.version < v.version)
                .unwrap_or(true)
                && broken.get(&year).is_none_or(|(old, _)| *old < v.version);
            if newer {
                broken.remove(&year);
                seasons.insert(year, v);
            }
        }
        let mut next = Snapshot::new(id, seasons, broken);
        next.settings = self.settings.clone();
        next.planning = self.planning.clone();
        next
    }

    /// This snapshot with season `year` at counter `version` marked broken (`why`), as snapshot `id`.
    pub fn with_broken(&self, id: u64, year: i32, version: i64, why: String) -> Snapshot {
        let mut seasons = self.seasons.clone();
        let mut broken = self.broken.clone();
        seasons.remove(&year);
        broken.insert(year, (version, why));
        let mut next = Snapshot::new(id, seasons, broken);
        next.settings = self.settings.clone();
        next.planning = self.planning.clone();
        next
    }
}
