//! Seasons: their rules, and the whole season as a season file (`load_file`, `replace_from_file`).

use std::collections::BTreeMap;

use chrono::NaiveDate;
use serde_json::{Map, Value};
use sqlx::{FromRow, SqliteConnection, SqlitePool};

use super::{to_u32, DbError};
use crate::league::file::{
    FineEntry, NightEntry, PlayerEntry, ResultEntry, RoundEntry, SeasonFile, TableEntry, FORMAT,
};

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

/// The current season's year: the newest season with at least one night, else the newest season
/// (a season created early to book fees, or mistyped, must not empty the public table); `None`
/// without seasons.
pub async fn current_year(pool: &SqlitePool) -> Result<Option<i32>, DbError> {
    let played: Option<(i64,)> = sqlx::query_as(
        "select s.year from seasons s where exists (select 1 from nights n where n.season = s.year)
         order by s.year desc limit 1",
    )
    .fetch_optional(pool)
    .await?;
    match played {
        Some((y,)) => Ok(Some(y as i32)),
        None => Ok(years(pool).await?.first().copied()),
    }
}

/// Deletes season `year` and its player list when it has no night; returns whether it was
/// deleted (`false`: it has nights or does not exist). Players stay in the league.
pub async fn delete_empty(conn: &mut SqliteConnection, year: i32) -> Result<bool, DbError> {
    if night_count(conn, year).await? > 0 {
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

#[derive(FromRow)]
struct PlayerRow {
    name: String,
    fee_paid_on: Option<NaiveDate>,
}

#[derive(FromRow)]
struct NightRow {
    id: i64,
    date: NaiveDate,
}

#[derive(FromRow)]
struct ResultRow {
    night_id: i64,
    table_no: i64,
    number: i64,
    player: String,
    outs: i64,
    hand_outs: i64,
    julen: i64,
    joker: bool,
    lost: bool,
}

#[derive(FromRow)]
struct FineRow {
    night_id: i64,
    player: String,
    kind: String,
    amount_cents: i64,
    paid: bool,
}

/// Rebuilds season `year` as a season file from the database (`None`: no such season). Fines carry
/// `amount_cents` only where the booked amount differs from the season's current catalogue.
pub async fn load_file_conn(
    conn: &mut SqliteConnection,
    year: i32,
) -> Result<Option<SeasonFile>, DbError> {
    let Some(season) = get(&mut *conn, year).await? else {
        return Ok(None);
    };
    let rules = season.overrides()?;
    let catalogue = catalogue_of(year, &rules);
    let players: Vec<PlayerRow> = sqlx::query_as(
        "select p.name, sp.fee_paid_on from season_players sp join players p on p.id = sp.player_id
         where sp.season = ? order by sp.position, p.name",
    )
    .bind(year)
    .fetch_all(&mut *conn)
    .await?;
    let nights: Vec<NightRow> =
        sqlx::query_as("select id, date from nights where season = ? order by date")
            .bind(year)
            .fetch_all(&mut *conn)
            .await?;
    let results: Vec<ResultRow> = sqlx::query_as(
        "select r.night_id, r.table_no, r.number, p.name as player, x.outs, x.hand_outs, x.julen,
                x.joker, x.lost
         from results x join rounds r on r.id = x.round_id join nights n on n.id = r.night_id
              join players p on p.id = x.player_id
         where n.season = ? order by r.night_id, r.table_no, r.number, x.position",
    )
    .bind(year)
    .fetch_all(&mut *conn)
    .await?;
    let fines: Vec<FineRow> = sqlx::query_as(
        "select f.night_id, p.name as player, f.kind, f.amount_cents, f.paid
         from fines f join nights n on n.id = f.night_id join players p on p.id = f.player_id
         where n.season = ? order by f.id",
    )
    .bind(year)
    .fetch_all(&mut *conn)
    .await?;

    // night id -> table no -> round no -> results. Only tables with rounds appear: the season
    // file knows a night's participants only from its result rows (a drawn table without rounds
    // would fail the two-tables check).
    let mut grid: BTreeMap<i64, BTreeMap<i64, BTreeMap<i64, Vec<ResultEntry>>>> = BTreeMap::new();
    for r in results {
        grid.entry(r.night_id)
            .or_default()
            .entry(r.table_no)
            .or_default()
            .entry(r.number)
            .or_default()
            .push(ResultEntry {
                player: r.player,
                outs: to_u32(r.outs, "outs")?,
                hand_outs: to_u32(r.hand_outs, "hand_outs")?,
                julen: to_u32(r.julen, "julen")?,
                joker: r.joker,
                lost: r.lost,
            });
    }
    let mut night_fines: BTreeMap<i64, Vec<FineEntry>> = BTreeMap::new();
    for f in fines {
        let amount_cents =
            (catalogue.get(&f.kind) != Some(&f.amount_cents)).then_some(f.amount_cents);
        night_fines.entry(f.night_id).or_default().push(FineEntry {
            player: f.player,
            kind: f.kind,
            paid: f.paid,
            amount_cents,
        });
    }
    let mut night_entries = Vec::with_capacity(nights.len());
    for n in nights {
        let mut tables = Vec::new();
        for (table_no, rounds) in grid.remove(&n.id).unwrap_or_default() {
            let mut round_entries = Vec::new();
            for (number, results) in rounds {
                round_entries.push(RoundEntry {
                    number: to_u32(number, "rounds.number")?,
                    results,
                });
            }
            tables.push(TableEntry {
                number: to_u32(table_no, "table_no")?,
                rounds: round_entries,
            });
        }
        night_entries.push(NightEntry {
            date: n.date,
            tables,
            fines: night_fines.remove(&n.id).unwrap_or_default(),
        });
    }
    Ok(Some(SeasonFile {
        format: FORMAT.to_string(),
        season: year,
        rules,
        players: players
            .into_iter()
            .map(|p| PlayerEntry {
                name: p.name,
                fee_paid_on: p.fee_paid_on,
            })
            .collect(),
        nights: night_entries,
    }))
}

/// [`load_file_conn`] on a connection of `pool`.
pub async fn load_file(pool: &SqlitePool, year: i32) -> Result<Option<SeasonFile>, DbError> {
    let mut conn = pool.acquire().await?;
    load_file_conn(&mut conn, year).await
}

/// The Strafenkatalog (kind → cents) of season `year` with `overrides`; defaults when the
/// overrides are unusable (they were checked on entry).
pub fn catalogue_of(year: i32, overrides: &Map<String, Value>) -> BTreeMap<String, i64> {
    crate::league::rules::SeasonRules::with_overrides(year, overrides)
        .unwrap_or_else(|_| crate::league::rules::SeasonRules::defaults_for(year))
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

/// Replaces everything stored for `file.season` by the (already checked) season file: the rules,
/// players with their fees (`fee_cents` gives each payment date's amount), nights, the tables
/// each player sat at, rounds, results and fines. Run it inside one transaction.
pub async fn replace_from_file(
    conn: &mut SqliteConnection,
    file: &SeasonFile,
    fee_cents: impl Fn(NaiveDate) -> Option<i64>,
) -> Result<(), DbError> {
    let year = file.season;
    let rules = serde_json::to_string(&file.rules).map_err(|e| DbError::Corrupt(e.to_string()))?;
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
    let catalogue = catalogue_of(year, &file.rules);
    let mut ids = BTreeMap::new();
    for (pos, p) in file.players.iter().enumerate() {
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
        .bind(p.fee_paid_on.and_then(&fee_cents))
        .execute(&mut *conn)
        .await?;
    }
    let id_of = |name: &str| {
        ids.get(name)
            .copied()
            .ok_or_else(|| DbError::Corrupt(format!("unbekannter Spieler {name}")))
    };
    for night in &file.nights {
        let (night_id,): (i64,) =
            sqlx::query_as("insert into nights (season, date) values (?, ?) returning id")
                .bind(year)
                .bind(night.date)
                .fetch_one(&mut *conn)
                .await?;
        let mut seat = 0i64;
        for table in &night.tables {
            for round in &table.rounds {
                let round_id =
                    super::night::insert_round(&mut *conn, night_id, table.number, round.number)
                        .await?;
                for (pos, r) in round.results.iter().enumerate() {
                    let pid = id_of(&r.player)?;
                    super::night::insert_result(&mut *conn, round_id, pid, pos, r).await?;
                    let done = sqlx::query(
                        "insert into night_participants (night_id, player_id, table_no, seat)
                         values (?, ?, ?, ?) on conflict do nothing",
                    )
                    .bind(night_id)
                    .bind(pid)
                    .bind(table.number)
                    .bind(seat)
                    .execute(&mut *conn)
                    .await?;
                    seat += done.rows_affected() as i64;
                }
            }
        }
        for f in &night.fines {
            let amount = f
                .amount_cents
                .or_else(|| catalogue.get(&f.kind).copied())
                .ok_or_else(|| DbError::Corrupt(format!("unbekannte Strafe {}", f.kind)))?;
            sqlx::query(
                "insert into fines (night_id, player_id, kind, amount_cents, paid) values (?, ?, ?, ?, ?)",
            )
            .bind(night_id)
            .bind(id_of(&f.player)?)
            .bind(&f.kind)
            .bind(amount)
            .bind(f.paid)
            .execute(&mut *conn)
            .await?;
        }
    }
    Ok(())
}
