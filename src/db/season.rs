//! Seasons: their rules, and the whole season as a season file (`load_file`, `replace_from_file`).

use std::collections::{BTreeMap, HashMap};

use chrono::NaiveDate;
use serde_json::{Map, Value};
use sqlx::{FromRow, SqliteConnection, SqlitePool};

use super::{to_u32, DbError};
use crate::league::model::file::{
    EndstandEntry, FineEntry, NightEntry, PlayerEntry, ResultEntry, RoundEntry, SeasonFile,
    SeatEntry, TableEntry, TotalsEntry, FORMAT,
};
use crate::league::Liga;
use crate::league::Season;

/// One row of `seasons`.
#[derive(Debug, Clone, FromRow)]
pub struct SeasonRow {
    /// The season's year.
    pub year: i64,
    /// The season file's `rules` object (overrides of the year's defaults), as JSON text.
    pub rules_json: String,
    /// Money carried in from the previous season, in cents.
    pub carry_in_cents: i64,
}

impl SeasonRow {
    /// The overrides object; corrupt JSON is an error.
    pub fn overrides(&self) -> Result<Map<String, Value>, DbError> {
        serde_json::from_str(&self.rules_json)
            .map_err(|e| DbError::Corrupt(format!("seasons.rules_json: {e}")))
    }
}

/// All season years, newest first.
pub async fn years(pool: &SqlitePool) -> Result<Vec<i32>, DbError> {
    let rows: Vec<(i64,)> = sqlx::query_as("select year from seasons order by year desc")
        .fetch_all(pool)
        .await?;
    Ok(rows.into_iter().map(|(y,)| y as i32).collect())
}

/// Deletes season `year` and its player list when it has no night and no Endstand; returns
/// whether it was deleted (`false`: it has nights or a final table, or does not exist). Players stay in the league.
pub async fn delete_empty(conn: &mut SqliteConnection, year: i32) -> Result<bool, DbError> {
    if night_count(conn, year).await? > 0 || endstand_count(conn, year).await? > 0 {
        return Ok(false);
    }
    sqlx::query("delete from season_players where season = ?")
        .bind(year)
        .execute(&mut *conn)
        .await?;
    let done = sqlx::query("delete from seasons where year = ?")
        .bind(year)
        .execute(&mut *conn)
        .await?;
    Ok(done.rows_affected() > 0)
}

/// The season row of `year`, if it exists.
pub async fn get(conn: &mut SqliteConnection, year: i32) -> Result<Option<SeasonRow>, DbError> {
    Ok(
        sqlx::query_as("select year, rules_json, carry_in_cents from seasons where year = ?")
            .bind(year)
            .fetch_optional(conn)
            .await?,
    )
}

/// Creates season `year` with the rules overrides `rules` (JSON object).
pub async fn create(
    conn: &mut SqliteConnection,
    year: i32,
    rules: &Map<String, Value>,
) -> Result<(), DbError> {
    let json = serde_json::to_string(rules).map_err(|e| DbError::Corrupt(e.to_string()))?;
    sqlx::query("insert into seasons (year, rules_json) values (?, ?)")
        .bind(year)
        .bind(json)
        .execute(conn)
        .await?;
    Ok(())
}

/// Number of nights stored for season `year`.
pub async fn night_count(conn: &mut SqliteConnection, year: i32) -> Result<i64, DbError> {
    let (n,): (i64,) = sqlx::query_as("select count(*) from nights where season = ?")
        .bind(year)
        .fetch_one(conn)
        .await?;
    Ok(n)
}

/// Number of lines of the final table stored for season `year` (a season kept as its Endstand).
pub async fn endstand_count(conn: &mut SqliteConnection, year: i32) -> Result<i64, DbError> {
    let (n,): (i64,) = sqlx::query_as("select count(*) from season_endstand where season = ?")
        .bind(year)
        .fetch_one(conn)
        .await?;
    Ok(n)
}

#[derive(FromRow)]
struct PlayerRow {
    id: i64,
    name: String,
    fee_paid_on: Option<NaiveDate>,
    fee_from_account: bool,
}

#[derive(FromRow)]
struct NightRow {
    id: i64,
    date: NaiveDate,
    closed: bool,
}

/// One round's results as SQLite packs them (issue 25: a long history read 712,890 result rows
/// one by one through sqlx at start, 4–5 s; one row per round with its results packed by
/// `group_concat` is read in a fraction of it): `cells` = "player_id outs hand_outs julen joker
/// lost" per result, `,`-separated, in seat order.
#[derive(FromRow)]
struct RoundRow {
    night_id: i64,
    table_no: i64,
    number: i64,
    cells: String,
}

#[derive(FromRow)]
struct TotalsDbRow {
    night_id: i64,
    player: String,
    table_no: i64,
    rounds: i64,
    outs: i64,
    hand_outs: i64,
    julen: i64,
    points: i64,
    lost: i64,
}

#[derive(FromRow)]
struct EndstandDbRow {
    player: String,
    liga: String,
    rounds: i64,
    counted_outs: i64,
    paid_rounds: i64,
    lost_rounds: i64,
    thrown_outs: i64,
    hand_outs: i64,
    julen: i64,
}

#[derive(FromRow)]
struct FineRow {
    id: i64,
    night_id: i64,
    player: String,
    kind: String,
    amount_cents: i64,
    paid: bool,
    paid_on: Option<NaiveDate>,
    netted: bool,
    from_account: bool,
}

/// The storage ids of one season's players, nights and fines: what pages link to and what a
/// change's SQL addresses. Fines per night in booking order (the season's fine order).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Ids {
    /// `players.id` by (canonical) player name, for the season's players.
    pub players: BTreeMap<String, i64>,
    /// `nights.id` by date.
    pub nights: BTreeMap<NaiveDate, i64>,
    /// `fines.id` per night, in booking order.
    pub fines: BTreeMap<NaiveDate, Vec<i64>>,
}

impl Ids {
    /// The name of the player with `players.id` = `id`, if he is a player of the season.
    pub fn player_name(&self, id: i64) -> Option<&str> {
        self.players
            .iter()
            .find(|(_, v)| **v == id)
            .map(|(k, _)| k.as_str())
    }

    /// The night and position (booking order) of the fine with `fines.id` = `id`.
    pub fn fine(&self, id: i64) -> Option<(NaiveDate, usize)> {
        self.fines
            .iter()
            .find_map(|(d, ids)| ids.iter().position(|x| *x == id).map(|i| (*d, i)))
    }
}

/// One season as stored: the season file (every night's draw explicit, its closed state and
/// Korrekturen), the
/// storage ids, the money carried in and the change counter it was read at.
#[derive(Debug, Clone)]
pub struct Stored {
    /// The `season_versions` counter at the time of reading.
    pub version: i64,
    /// The stored carry-in in cents (payouts chain their own; see `service`).
    pub carry_in_cents: i64,
    /// The season file; fines carry `amount_cents` only where the booked amount differs from the
    /// season's catalogue; every night has its draw (`night_participants`).
    pub file: SeasonFile,
    /// The storage ids.
    pub ids: Ids,
}

/// One night's draw packed by SQLite: `seats` = "player_id table_no" per seat, `,`-separated, by
/// table and seat.
#[derive(FromRow)]
struct SeatsRow {
    night_id: i64,
    seats: String,
}

/// The whitespace-separated integers of one packed cell, exactly `N` of them; `what` names the
/// table for the corrupt-data message.
fn packed<const N: usize>(cell: &str, what: &str) -> Result<[i64; N], DbError> {
    let mut out = [0i64; N];
    let mut parts = cell.split(' ');
    for slot in &mut out {
        *slot = parts
            .next()
            .and_then(|p| p.parse().ok())
            .ok_or_else(|| DbError::Corrupt(format!("{what}: „{cell}“")))?;
    }
    if parts.next().is_some() {
        return Err(DbError::Corrupt(format!("{what}: „{cell}“")));
    }
    Ok(out)
}

/// The name of player `id` in `names` (the season's players, else looked up once more).
async fn name_of(
    conn: &mut SqliteConnection,
    names: &mut HashMap<i64, String>,
    id: i64,
) -> Result<String, DbError> {
    if let Some(n) = names.get(&id) {
        return Ok(n.clone());
    }
    let (name,): (String,) = sqlx::query_as("select name from players where id = ?")
        .bind(id)
        .fetch_optional(&mut *conn)
        .await?
        .ok_or_else(|| DbError::Corrupt(format!("Spieler Nr. {id} fehlt")))?;
    names.insert(id, name.clone());
    Ok(name)
}

/// Reads season `year` through `conn` (run it inside a transaction for a consistent picture);
/// `None` when there is no such season.
pub async fn load(conn: &mut SqliteConnection, year: i32) -> Result<Option<Stored>, DbError> {
    let Some(season) = get(&mut *conn, year).await? else {
        return Ok(None);
    };
    let version = super::version::of_season(&mut *conn, year)
        .await?
        .unwrap_or(0);
    let rules = season.overrides()?;
    let catalogue = catalogue_of(year, &rules);
    let players: Vec<PlayerRow> = sqlx::query_as(
        "select p.id, p.name, sp.fee_paid_on, sp.fee_from_account from season_players sp join players p on p.id = sp.player_id
         where sp.season = ? order by sp.position, p.name",
    )
    .bind(year)
    .fetch_all(&mut *conn)
    .await?;
    let nights: Vec<NightRow> =
        sqlx::query_as("select id, date, closed from nights where season = ? order by date")
            .bind(year)
            .fetch_all(&mut *conn)
            .await?;
    let rounds: Vec<RoundRow> = sqlx::query_as(
        "select r.night_id, r.table_no, r.number,
                group_concat(x.player_id || ' ' || x.outs || ' ' || x.hand_outs || ' ' || x.julen
                             || ' ' || x.joker || ' ' || x.lost, ',' order by x.position) as cells
         from results x join rounds r on r.id = x.round_id join nights n on n.id = r.night_id
         where n.season = ? group by r.id order by r.night_id, r.table_no, r.number",
    )
    .bind(year)
    .fetch_all(&mut *conn)
    .await?;
    let fines: Vec<FineRow> = sqlx::query_as(
        "select f.id, f.night_id, p.name as player, f.kind, f.amount_cents, f.paid, f.paid_on,
                f.netted, f.from_account
         from fines f join nights n on n.id = f.night_id join players p on p.id = f.player_id
         where n.season = ? order by f.id",
    )
    .bind(year)
    .fetch_all(&mut *conn)
    .await?;
    let seats: Vec<SeatsRow> = sqlx::query_as(
        "select np.night_id,
                group_concat(np.player_id || ' ' || np.table_no, ','
                             order by np.table_no, np.seat) as seats
         from night_participants np join nights n on n.id = np.night_id
         where n.season = ? group by np.night_id order by np.night_id",
    )
    .bind(year)
    .fetch_all(&mut *conn)
    .await?;

    let totals: Vec<TotalsDbRow> = sqlx::query_as(
        "select t.night_id, p.name as player, t.table_no, t.rounds, t.outs, t.hand_outs, t.julen,
                t.points, t.lost
         from night_totals t join nights n on n.id = t.night_id join players p on p.id = t.player_id
         where n.season = ? order by t.night_id, t.position",
    )
    .bind(year)
    .fetch_all(&mut *conn)
    .await?;
    let endstand_rows: Vec<EndstandDbRow> = sqlx::query_as(
        "select p.name as player, e.liga, e.rounds, e.counted_outs, e.paid_rounds, e.lost_rounds,
                e.thrown_outs, e.hand_outs, e.julen
         from season_endstand e join players p on p.id = e.player_id
         where e.season = ? order by e.position",
    )
    .bind(year)
    .fetch_all(&mut *conn)
    .await?;

    let mut besteck = super::besteck::confirmed_of_season(&mut *conn, year).await?;

    let mut night_totals: BTreeMap<i64, Vec<TotalsEntry>> = BTreeMap::new();
    for t in totals {
        night_totals
            .entry(t.night_id)
            .or_default()
            .push(TotalsEntry {
                player: t.player,
                table: to_u32(t.table_no, "night_totals.table_no")?,
                rounds: to_u32(t.rounds, "night_totals.rounds")?,
                outs: to_u32(t.outs, "night_totals.outs")?,
                hand_outs: to_u32(t.hand_outs, "night_totals.hand_outs")?,
                julen: to_u32(t.julen, "night_totals.julen")?,
                points: Some(t.points),
                lost: to_u32(t.lost, "night_totals.lost")?,
            });
    }
    let mut endstand = Vec::with_capacity(endstand_rows.len());
    for e in endstand_rows {
        let liga = match e.liga.as_str() {
            "1. Liga" => Liga::First,
            "2. Liga" => Liga::Second,
            "Kreisliga" => Liga::Kreisliga,
            other => {
                return Err(DbError::Corrupt(format!(
                    "season_endstand.liga: unbekannte Liga {other}"
                )))
            }
        };
        endstand.push(EndstandEntry {
            player: e.player,
            liga,
            rounds: to_u32(e.rounds, "season_endstand.rounds")?,
            counted_outs: e.counted_outs,
            paid_rounds: to_u32(e.paid_rounds, "season_endstand.paid_rounds")?,
            lost_rounds: Some(to_u32(e.lost_rounds, "season_endstand.lost_rounds")?),
            thrown_outs: to_u32(e.thrown_outs, "season_endstand.thrown_outs")?,
            hand_outs: to_u32(e.hand_outs, "season_endstand.hand_outs")?,
            julen: to_u32(e.julen, "season_endstand.julen")?,
        });
    }

    let mut ids = Ids::default();
    let mut names: HashMap<i64, String> = players.iter().map(|p| (p.id, p.name.clone())).collect();
    // night id -> table no -> round no -> results
    let mut grid: BTreeMap<i64, BTreeMap<i64, BTreeMap<i64, Vec<ResultEntry>>>> = BTreeMap::new();
    for r in rounds {
        let mut results = Vec::new();
        for cell in r.cells.split(',') {
            let [player, outs, hand_outs, julen, joker, lost] = packed::<6>(cell, "results")?;
            results.push(ResultEntry {
                player: name_of(&mut *conn, &mut names, player).await?,
                outs: to_u32(outs, "outs")?,
                hand_outs: to_u32(hand_outs, "hand_outs")?,
                julen: to_u32(julen, "julen")?,
                joker: joker != 0,
                lost: lost != 0,
            });
        }
        grid.entry(r.night_id)
            .or_default()
            .entry(r.table_no)
            .or_default()
            .insert(r.number, results);
    }
    let mut night_fines: BTreeMap<i64, Vec<(i64, FineEntry)>> = BTreeMap::new();
    for f in fines {
        let amount_cents =
            (catalogue.get(&f.kind) != Some(&f.amount_cents)).then_some(f.amount_cents);
        night_fines.entry(f.night_id).or_default().push((
            f.id,
            FineEntry {
                player: f.player,
                kind: f.kind,
                paid: f.paid,
                amount_cents,
                paid_on: f.paid_on,
                netted: f.netted,
                from_account: f.from_account,
            },
        ));
    }
    let mut night_seats: BTreeMap<i64, Vec<SeatEntry>> = BTreeMap::new();
    for row in seats {
        let draw = night_seats.entry(row.night_id).or_default();
        for cell in row.seats.split(',') {
            let [player, table] = packed::<2>(cell, "night_participants")?;
            draw.push(SeatEntry {
                player: name_of(&mut *conn, &mut names, player).await?,
                table: to_u32(table, "night_participants.table_no")?,
            });
        }
    }
    let mut night_corrections = super::closing::corrections_of_season(&mut *conn, year).await?;
    let mut night_entries = Vec::with_capacity(nights.len());
    for n in nights {
        let mut tables = Vec::new();
        for (table_no, rounds) in grid.remove(&n.id).unwrap_or_default() {
            let mut round_entries = Vec::new();
            for (number, results) in rounds {
                round_entries.push(RoundEntry {
                    number: to_u32(number, "rounds.number")?,
                    results,
                    schockbesteck: besteck
                        .remove(&(n.id, table_no, number))
                        .map(crate::rules::PlayedRunde::new),
                });
            }
            tables.push(TableEntry {
                number: to_u32(table_no, "table_no")?,
                rounds: round_entries,
            });
        }
        let (fine_ids, fines): (Vec<i64>, Vec<FineEntry>) = night_fines
            .remove(&n.id)
            .unwrap_or_default()
            .into_iter()
            .unzip();
        let mut draw = night_seats.remove(&n.id).unwrap_or_default();
        // What the rows show wins over a stored draw that disagrees (written before the draw was
        // checked with the rows).
        crate::league::model::draw::reconcile(&mut draw, &tables);
        ids.nights.insert(n.date, n.id);
        ids.fines.insert(n.date, fine_ids);
        night_entries.push(NightEntry {
            date: n.date,
            tables,
            fines,
            draw: Some(draw),
            totals: night_totals.remove(&n.id).unwrap_or_default(),
            closed: n.closed,
            corrections: night_corrections.remove(&n.id).unwrap_or_default(),
        });
    }
    let payments = super::money::payments_of_season(&mut *conn, year).await?;
    let credit = super::money::credit_of_season(&mut *conn, year).await?;
    let mut player_entries = Vec::with_capacity(players.len());
    for p in players {
        ids.players.insert(p.name.clone(), p.id);
        player_entries.push(PlayerEntry {
            name: p.name,
            fee_paid_on: p.fee_paid_on,
            fee_from_account: p.fee_from_account,
        });
    }
    Ok(Some(Stored {
        version,
        carry_in_cents: season.carry_in_cents,
        file: SeasonFile {
            format: FORMAT.to_string(),
            season: year,
            rules,
            players: player_entries,
            nights: night_entries,
            endstand,
            payments,
            credit,
            kassenbuch: super::kassenbuch::file_of(&mut *conn, year).await?,
            status: Vec::new(),
            merged: None,
        },
        ids,
    }))
}

/// Season `year` as a season file, read on a connection of `pool` (`None`: no such season).
pub async fn load_file(pool: &SqlitePool, year: i32) -> Result<Option<SeasonFile>, DbError> {
    let mut conn = pool.acquire().await?;
    Ok(load(&mut conn, year).await?.map(|s| s.file))
}

/// The Strafenkatalog (kind → cents) of season `year` with `overrides`; defaults when the
/// overrides are unusable (they were checked on entry).
pub fn catalogue_of(year: i32, overrides: &Map<String, Value>) -> BTreeMap<String, i64> {
    crate::league::model::rules::SeasonRules::with_overrides(year, overrides)
        .unwrap_or_else(|_| crate::league::model::rules::SeasonRules::defaults_for(year))
        .fines
}

/// Returns the id of player `name`, creating the player when new.
pub async fn player_id(conn: &mut SqliteConnection, name: &str) -> Result<i64, DbError> {
    sqlx::query("insert into players (name) values (?) on conflict (name) do nothing")
        .bind(name)
        .execute(&mut *conn)
        .await?;
    let (id,): (i64,) = sqlx::query_as("select id from players where name = ?")
        .bind(name)
        .fetch_one(&mut *conn)
        .await?;
    Ok(id)
}

/// Replaces everything stored for season `season.year` by the checked `season`: the rules,
/// players with their fees, nights with their draws, rounds, results and fines (booked at their
/// resolved amounts), each night's Korrekturen and closed state. Run it inside one transaction.
pub async fn replace(conn: &mut SqliteConnection, season: &Season) -> Result<(), DbError> {
    let year = season.year;
    let overrides = season.rules.overrides(year);
    let rules = serde_json::to_string(&overrides).map_err(|e| DbError::Corrupt(e.to_string()))?;
    sqlx::query("delete from nights where season = ?")
        .bind(year)
        .execute(&mut *conn)
        .await?;
    sqlx::query("delete from season_players where season = ?")
        .bind(year)
        .execute(&mut *conn)
        .await?;
    sqlx::query(
        "insert into seasons (year, rules_json) values (?, ?)
         on conflict (year) do update set rules_json = excluded.rules_json",
    )
    .bind(year)
    .bind(rules)
    .execute(&mut *conn)
    .await?;
    let mut ids = BTreeMap::new();
    for (pos, p) in season.players.iter().enumerate() {
        let id = player_id(&mut *conn, &p.name).await?;
        ids.insert(p.name.clone(), id);
        sqlx::query(
            "insert into season_players (season, player_id, position, fee_paid_on, fee_cents)
             values (?, ?, ?, ?, ?)",
        )
        .bind(year)
        .bind(id)
        .bind(pos as i64)
        .bind(p.fee_paid_on)
        .bind(p.fee_paid_on.map(|_| p.fee_cents))
        .execute(&mut *conn)
        .await?;
    }
    let id_of = |name: &str| {
        ids.get(name)
            .copied()
            .ok_or_else(|| DbError::Corrupt(format!("unbekannter Spieler {name}")))
    };
    super::money::delete_account_entries(&mut *conn, year).await?;
    super::money::add_account_entries(&mut *conn, season, (0, 0), &ids).await?;
    // The Kassenbuch of a file that carries one replaces the stored one; without, it stays.
    if let Some(k) = &season.kassenbuch {
        super::kassenbuch::replace_from_file(&mut *conn, year, k).await?;
    }
    for p in season.players.iter().filter(|p| p.fee_from_account) {
        super::money::set_fee_from_account(&mut *conn, year, id_of(&p.name)?, true).await?;
    }
    sqlx::query("delete from season_endstand where season = ?")
        .bind(year)
        .execute(&mut *conn)
        .await?;
    for (pos, e) in season.endstand.iter().enumerate() {
        sqlx::query(
            "insert into season_endstand (season, player_id, position, liga, rounds, counted_outs,
                                          paid_rounds, lost_rounds, thrown_outs, hand_outs, julen)
             values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        )
        .bind(year)
        .bind(id_of(&e.player)?)
        .bind(pos as i64)
        .bind(e.liga.label())
        .bind(e.rounds)
        .bind(e.counted_outs)
        .bind(e.paid_rounds)
        .bind(e.lost_rounds)
        .bind(e.thrown_outs)
        .bind(e.hand_outs)
        .bind(e.julen)
        .execute(&mut *conn)
        .await?;
    }
    for night in &season.nights {
        let night_id = super::night::create(&mut *conn, year, night.date).await?;
        let mut seats = Vec::with_capacity(night.draw.len());
        for s in &night.draw {
            let seat = seats.iter().filter(|(_, t, _)| *t == s.table).count() as u32;
            seats.push((id_of(&s.player)?, s.table, seat));
        }
        super::night::add_seats(&mut *conn, night_id, &seats).await?;
        // The night's rounds and their rows in a few multi-row inserts (issue 37.2: one insert
        // a row made a 40-season club file take half a minute).
        let numbers: Vec<(u32, u32)> = night
            .tables
            .iter()
            .flat_map(|t| t.rounds.iter().map(move |r| (t.number, r.number)))
            .collect();
        let round_ids = super::night::insert_rounds(&mut *conn, night_id, &numbers).await?;
        let round_id = |table: u32, number: u32| {
            round_ids.get(&(table, number)).copied().ok_or_else(|| {
                DbError::Corrupt(format!(
                    "Runde {number} an Tisch {table} nach dem Einfügen nicht gefunden"
                ))
            })
        };
        let mut rows = Vec::new();
        for table in &night.tables {
            for round in &table.rounds {
                let id = round_id(table.number, round.number)?;
                for (pos, r) in round.results.iter().enumerate() {
                    rows.push((id, id_of(&r.player)?, pos, r));
                }
            }
        }
        super::night::insert_results(&mut *conn, &rows).await?;
        for table in &night.tables {
            for round in &table.rounds {
                if let Some(b) = &round.schockbesteck {
                    super::besteck::put_confirmed(
                        &mut *conn,
                        night_id,
                        table.number,
                        round.number,
                        Some(b.record()),
                    )
                    .await?;
                }
            }
        }
        for (pos, t) in night.totals.iter().enumerate() {
            sqlx::query(
                "insert into night_totals (night_id, player_id, position, table_no, rounds, outs,
                                           hand_outs, julen, points, lost)
                 values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            )
            .bind(night_id)
            .bind(id_of(&t.player)?)
            .bind(pos as i64)
            .bind(t.table)
            .bind(t.rounds)
            .bind(t.outs)
            .bind(t.hand_outs)
            .bind(t.julen)
            .bind(t.points)
            .bind(t.lost)
            .execute(&mut *conn)
            .await?;
        }
        for f in &night.fines {
            let id = super::money::book_fine(
                &mut *conn,
                night_id,
                id_of(&f.player)?,
                &f.kind,
                f.amount_cents,
                f.paid,
            )
            .await?;
            if f.paid_on_override.is_some() || f.netted || f.from_account {
                super::money::set_fine_payment(&mut *conn, id, f).await?;
            }
        }
        // Its Korrekturen as records (ended), then the closing: the closed-night triggers refuse
        // the children of a closed night, so they go in first (issue 22.4).
        for c in season.corrections_of(night.date) {
            super::closing::insert_ended_correction(&mut *conn, night_id, c).await?;
        }
        if night.closed {
            super::closing::close(&mut *conn, night_id).await?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::packed;

    #[test]
    fn a_packed_cell_gives_exactly_its_integers_or_says_it_is_corrupt() {
        assert_eq!(
            packed::<6>("12 3 1 0 1 0", "results").unwrap(),
            [12, 3, 1, 0, 1, 0]
        );
        assert_eq!(packed::<2>("7 2", "seats").unwrap(), [7, 2]);
        for bad in [
            "12 3 1 0 1",
            "12 3 1 0 1 0 9",
            "12 x 1 0 1 0",
            "",
            "12  3 1 0 1 0",
        ] {
            let e = packed::<6>(bad, "results").unwrap_err().to_string();
            assert!(e.contains("results"), "{bad:?}: {e}");
        }
    }
}
