//! The findings of the third hostile run (issue 22) below the web: each test fails without its fix.

use std::str::FromStr;

use sqlx::sqlite::SqliteConnectOptions;
use sqlx::ConnectOptions;

use super::*;

/// Issue 22.12: a database from before the sessions moved to `<db>-sitzungen` loses its old
/// `tower_sessions` table (stale bearer secrets) at the first start; the sessions file is apart.
#[tokio::test]
async fn the_old_sessions_table_leaves_the_main_file() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("liga.db");
    {
        let url = format!("sqlite://{}", path.display());
        let mut conn = SqliteConnectOptions::from_str(&url)
            .unwrap()
            .create_if_missing(true)
            .connect()
            .await
            .unwrap();
        sqlx::query(
            "create table tower_sessions (id text primary key not null, data blob not null,
             expiry_date integer not null)",
        )
        .execute(&mut conn)
        .await
        .unwrap();
        sqlx::query("insert into tower_sessions values ('s1', x'00', 4102444800)")
            .execute(&mut conn)
            .await
            .unwrap();
    }
    let db = Db::open(&path).await.unwrap();
    let tables: Vec<(String,)> = sqlx::query_as(
        "select name from sqlite_master where type = 'table' and name = 'tower_sessions'",
    )
    .fetch_all(&db.read)
    .await
    .unwrap();
    assert!(tables.is_empty(), "the old sessions table is gone");
    assert_eq!(
        db::sessions_path(&path),
        dir.path().join("liga.db-sitzungen")
    );
}

/// Issue 22.9: a look-alike of an existing login name (fullwidth, other case, ß/SS) is refused;
/// logging in with a look-alike finds the one account.
#[tokio::test]
async fn confusable_account_names_are_one_account() {
    use crate::auth::Role;
    let dir = tempfile::tempdir().unwrap();
    let db = Db::open(&dir.path().join("liga.db")).await.unwrap();
    let pw = "lang genug 123";
    accounts::create(&db, "admin", pw, None, Role::Admin, "cli")
        .await
        .unwrap();
    accounts::create(&db, "Weiß", pw, None, Role::Secretary, "cli")
        .await
        .unwrap();
    // (name typed for a new account, refused)
    let cases = [
        ("Ａdmin", true),
        ("ＡＤＭＩＮ", true),
        ("ADMIN", true),
        (" admin ", true),
        ("WEISS", true),
        ("weiss", true),
        ("admins", false),
        ("Weis", false),
    ];
    for (name, refused) in cases {
        let got = accounts::create(&db, name, pw, None, Role::Secretary, "cli").await;
        match (got, refused) {
            (Err(ServiceError::Refused(e)), true) => {
                assert!(e.message.contains("gibt es schon"), "{name}: {e}")
            }
            (Ok(_), false) => {}
            (got, _) => panic!("{name}: {got:?}"),
        }
    }
    let user = accounts::authenticate(&db, "ａｄｍｉｎ", pw)
        .await
        .unwrap()
        .expect("the look-alike logs in as the one account");
    assert_eq!(user.username, "admin");
    // (typed, key)
    for (typed, key) in [
        ("Ａdmin", "admin"),
        ("Weiß", "weiss"),
        ("ﬁne", "fine"),
        ("Ⅳ", "iv"),
        ("  Anna ", "anna"),
    ] {
        assert_eq!(
            crate::league::model::names::login_key(typed),
            key,
            "{typed}"
        );
    }
}

/// A league on a fresh database with season 2026: Anna, Bernd and Carla drawn to table 1 of the
/// night of 09.01.2026.
async fn one_night() -> (tempfile::TempDir, Db, League, NaiveDate) {
    let dir = tempfile::tempdir().unwrap();
    let db = Db::open(&dir.path().join("liga.db")).await.unwrap();
    let league = League::of(db.clone()).await.unwrap();
    let by = Edit::by("anna");
    league
        .create_season(2026, Default::default(), &by)
        .await
        .unwrap();
    for p in ["Anna", "Bernd", "Carla"] {
        league.add_player(2026, p, &by).await.unwrap();
    }
    let night = date(9);
    league
        .change(2026, Change::AddNight { date: night }, &by)
        .await
        .unwrap();
    let seats = ["Anna", "Bernd", "Carla"]
        .iter()
        .map(|p| SeatEntry {
            player: p.to_string(),
            table: 1,
        })
        .collect();
    league
        .change(2026, Change::SetDraw { date: night, seats }, &by)
        .await
        .unwrap();
    (dir, db, league, night)
}

/// Issue 22.1: closing a night revokes every scorer link of it in the same transaction;
/// reopening revives none.
#[tokio::test]
async fn closing_ends_the_scorer_links_and_reopening_revives_none() {
    let (_dir, db, league, night) = one_night().await;
    let token = scorer::create_link(&db, night, 1, "anna").await.unwrap();
    assert!(scorer::link(&db, &token).await.unwrap().is_some(), "works");
    let by = Edit::by("anna").korrektur(Korrektur::because("zu früh abgeschlossen"));
    league
        .change(2026, Change::CloseNight { date: night }, &by)
        .await
        .unwrap();
    assert!(scorer::link(&db, &token).await.unwrap().is_none(), "closed");
    let (revoked,): (bool,) = sqlx::query_as("select revoked from scorer_links")
        .fetch_one(&db.read)
        .await
        .unwrap();
    assert!(revoked, "revoked with the closing, not only hidden by it");
    league
        .change(2026, Change::ReopenNight { date: night }, &by)
        .await
        .unwrap();
    assert!(
        scorer::link(&db, &token).await.unwrap().is_none(),
        "a link made before the closing stays dead after reopening"
    );
    let night_id = league.snapshot().season(2026).unwrap().ids.nights[&night];
    assert!(scorer::active_links(&db, night_id)
        .await
        .unwrap()
        .is_empty());
    // A new link after reopening works (the secretary shares it again on purpose).
    let fresh = scorer::create_link(&db, night, 1, "anna").await.unwrap();
    assert!(scorer::link(&db, &fresh).await.unwrap().is_some());
}

/// Issue 22.1: the links of nights closed before this version are revoked by the migration.
#[tokio::test]
async fn links_of_nights_closed_before_the_fix_are_revoked_by_the_migration() {
    let (_dir, db, league, night) = one_night().await;
    let token = scorer::create_link(&db, night, 1, "anna").await.unwrap();
    let night_id = league.snapshot().season(2026).unwrap().ids.nights[&night];
    // As an older version closed: the flag only.
    sqlx::query("update nights set closed = 1 where id = ?")
        .bind(night_id)
        .execute(&db.write)
        .await
        .unwrap();
    sqlx::raw_sql(include_str!(
        "../../../migrations/20261201203518_links_of_closed_nights.sql"
    ))
    .execute(&db.write)
    .await
    .unwrap();
    sqlx::query("update nights set closed = 0 where id = ?")
        .bind(night_id)
        .execute(&db.write)
        .await
        .unwrap();
    assert!(scorer::link(&db, &token).await.unwrap().is_none());
}

/// Issue 22.8: another process holding the write lock longer than the busy timeout gives a
/// distinct error (nothing stored, "bitte noch einmal"), not a fault; once the lock is free the
/// same change goes through. (The timeout is shortened here; the server waits `BUSY_TIMEOUT`.)
#[tokio::test]
async fn a_busy_database_is_a_distinct_error_and_nothing_is_stored() {
    use std::time::Duration;
    assert_eq!(db::BUSY_TIMEOUT, Duration::from_secs(5));
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("liga.db");
    let db = Db::open_waiting(&path, Duration::from_millis(200))
        .await
        .unwrap();
    let league = League::of(db.clone()).await.unwrap();
    let by = Edit::by("anna");
    league
        .create_season(2026, Default::default(), &by)
        .await
        .unwrap();
    // A second process: its own connection to the file, holding the write lock.
    let url = format!("sqlite://{}", path.display());
    let mut other = SqliteConnectOptions::from_str(&url)
        .unwrap()
        .connect()
        .await
        .unwrap();
    sqlx::query("BEGIN IMMEDIATE")
        .execute(&mut other)
        .await
        .unwrap();
    let night = Change::AddNight { date: date(9) };
    let e = league
        .change(2026, night.clone(), &by)
        .await
        .expect_err("busy");
    assert!(e.is_busy(), "{e:?}");
    assert_eq!(
        e.to_string(),
        "Datenbank gerade belegt – nichts gespeichert, bitte noch einmal"
    );
    let file = league.export(2026).unwrap();
    let e = import_as(&db, &file, true, "cli").await.expect_err("busy");
    assert!(e.is_busy(), "an import too: {e:?}");
    let e = accounts::create(
        &db,
        "anna",
        "lang genug 123",
        None,
        crate::auth::Role::Admin,
        "cli",
    )
    .await
    .expect_err("busy");
    assert!(e.is_busy(), "an account too: {e:?}");
    // Nothing of it was stored; the other process lets go, and the same change goes through.
    assert!(load_season(&db, 2026)
        .await
        .unwrap()
        .season
        .nights
        .is_empty());
    sqlx::query("ROLLBACK").execute(&mut other).await.unwrap();
    league.change(2026, night, &by).await.expect("free again");
    assert_eq!(load_season(&db, 2026).await.unwrap().season.nights.len(), 1);
    // Other faults stay faults.
    let fault = ServiceError::Db(db::DbError::Corrupt("x".into()));
    assert!(!fault.is_busy());
}

/// Issue 22.3 through the service: the rounds of a night dated 04.12. entered on 20.11. do not
/// relegate the league for the table, the payouts, the Ehrentafel or the players' progress as the
/// club's today sees them.
#[tokio::test]
async fn a_night_entered_ahead_counts_from_its_day_on() {
    use crate::league::testkit::{file, season_json, NightSpec};
    use crate::league::Liga;
    let dir = tempfile::tempdir().unwrap();
    let db = Db::open(&dir.path().join("liga.db")).await.unwrap();
    let league = League::of(db.clone()).await.unwrap();
    let night = |d: &str, outs: &[u32]| {
        NightSpec {
            date: d,
            players: &["Anna", "Bernd"],
            outs,
            ..NightSpec::default()
        }
        .build()
    };
    let players = [("Anna", Some("2026-01-09")), ("Bernd", Some("2026-01-09"))];
    let f = file(season_json(
        2026,
        &players,
        vec![
            night("2026-11-06", &[3, 1]),
            night("2026-11-20", &[2, 1]),
            night("2026-12-04", &[0, 9]),
        ],
    ));
    league.import(&f, false, "cli").await.unwrap();
    let today = NaiveDate::from_ymd_opt(2026, 11, 20).unwrap();
    let first = |s: &Standings| s.rows.iter().filter(|r| r.liga == Liga::First).count();
    let table = league.standings_on(2026, None, today).unwrap();
    assert_eq!((table.as_of, first(&table)), (Some(today), 2));
    let asked = NaiveDate::from_ymd_opt(2026, 12, 31);
    let table = league.standings_on(2026, asked, today).unwrap();
    assert_eq!(
        table.as_of,
        Some(today),
        "an as-of date after today is today"
    );
    let p = league.payouts_on(2026, today).unwrap();
    assert_eq!(p.schocker_des_jahres, ["Anna"]);
    assert!(!p.places.is_empty());
    let snap = league.snapshot();
    let e = snap.ehrentafel_on(today);
    assert_eq!(e[0].schocker_des_jahres[0].player, "Anna");
    let progress = snap.season(2026).unwrap().progress_on(None, today);
    assert_eq!(progress.as_of, Some(today));
    // After its day the night counts (the deadline has passed: nobody reached 100 rounds).
    let later = NaiveDate::from_ymd_opt(2026, 12, 5).unwrap();
    let table = league.standings_on(2026, None, later).unwrap();
    assert_eq!(
        (table.as_of, first(&table)),
        (NaiveDate::from_ymd_opt(2026, 12, 4), 0)
    );
    assert!(league.payouts_on(2026, later).unwrap().places.is_empty());
}

/// Issue 22.4: the season file carries each night's closed state and its Korrekturen;
/// `import --replace` (the restore of one season) gives both back, and the night stays locked.
#[tokio::test]
async fn export_and_import_replace_keep_closed_nights_and_their_korrekturen() {
    let (_dir, db, league, night) = one_night().await;
    let rows = |loser: &str| -> Vec<ResultEntry> {
        ["Anna", "Bernd", "Carla"]
            .iter()
            .map(|p| ResultEntry {
                player: p.to_string(),
                outs: 0,
                hand_outs: 0,
                julen: 0,
                joker: false,
                lost: *p == loser,
            })
            .collect()
    };
    let put = |loser: &str| Change::PutRound {
        date: night,
        table: 1,
        number: 1,
        results: rows(loser),
        replace: crate::league::change::Replace::Any,
        seat_newcomers: false,
        schockbesteck: None,
    };
    let by = Edit::by("anna");
    league.change(2026, put("Bernd"), &by).await.unwrap();
    league
        .change(2026, Change::CloseNight { date: night }, &by)
        .await
        .unwrap();
    let fix = by
        .clone()
        .korrektur(Korrektur::because("Carla hat verloren, nicht Bernd"));
    league.change(2026, put("Carla"), &fix).await.unwrap();
    let file = export(&db, 2026).await.unwrap();
    assert!(file.nights[0].closed);
    let c = &file.nights[0].corrections;
    assert_eq!(c.len(), 1);
    assert_eq!(
        (c[0].user.as_str(), c[0].reason.as_str()),
        ("anna", "Carla hat verloren, nicht Bernd")
    );
    assert_eq!(
        league.export(2026).unwrap(),
        file,
        "the snapshot's export is the stored one"
    );

    // Restore the season from its file: closed and the Korrektur are back.
    league.import(&file, true, "cli").await.unwrap();
    let again = export(&db, 2026).await.unwrap();
    assert_eq!(again, file);
    let stored = load_season(&db, 2026).await.unwrap();
    assert!(stored.season.nights[0].closed);
    // Still locked: a change without Korrektur is refused, by the league and by the database.
    league.refresh().await.unwrap();
    let e = league
        .change(2026, put("Anna"), &by)
        .await
        .expect_err("closed");
    assert!(matches!(e, ServiceError::Closed(_)), "{e:?}");
    let night_id = stored.ids.nights[&night];
    let (n,): (i64,) =
        sqlx::query_as("select count(*) from night_corrections where night_id = ? and active = 0")
            .bind(night_id)
            .fetch_one(&db.read)
            .await
            .unwrap();
    assert_eq!(n, 1, "the Korrektur is a record, not an open unlock");

    // A season without closed nights or Korrekturen exports exactly as before.
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/small-2026.season.json"
    );
    let text = std::fs::read_to_string(path).unwrap();
    let fixture: crate::league::model::file::SeasonFile = serde_json::from_str(&text).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let fresh = Db::open(&dir.path().join("liga.db")).await.unwrap();
    import(&fresh, &fixture, false).await.unwrap();
    let out = serde_json::to_string(&export(&fresh, 2026).await.unwrap()).unwrap();
    assert!(!out.contains("\"closed\"") && !out.contains("\"corrections\""));
}

/// Issue 22.2: reopening a closed night is itself a Korrektur with a reason, recorded like the
/// others (a `night_corrections` row, the audit row, the season file's `corrections`); without
/// it the night stays closed.
#[tokio::test]
async fn reopening_is_a_korrektur_with_a_reason() {
    let (_dir, db, league, night) = one_night().await;
    let by = Edit::by("anna");
    league
        .change(2026, Change::CloseNight { date: night }, &by)
        .await
        .unwrap();
    let reopen = Change::ReopenNight { date: night };
    let e = league
        .change(2026, reopen.clone(), &by)
        .await
        .expect_err("no Korrektur");
    match e {
        ServiceError::Closed(e) => assert_eq!(
            e.to_string(),
            "Abend 09.01.2026: der Spielabend ist abgeschlossen: Änderungen nur mit Häkchen \
             „Korrektur“ und Grund."
        ),
        e => panic!("{e:?}"),
    }
    let blank = by.clone().korrektur(Korrektur::because("  "));
    assert!(matches!(
        league.change(2026, reopen.clone(), &blank).await,
        Err(ServiceError::Closed(_))
    ));
    assert!(load_season(&db, 2026).await.unwrap().season.nights[0].closed);
    let why = by
        .clone()
        .korrektur(Korrektur::because("Strafe von Bernd vergessen"));
    let view = league.change(2026, reopen, &why).await.unwrap();
    assert!(!view.season.nights[0].closed);
    let c = view.season.corrections_of(night);
    assert_eq!(c.len(), 1);
    assert_eq!(
        (c[0].user.as_str(), c[0].reason.as_str()),
        ("anna", "Strafe von Bernd vergessen")
    );
    let stored = load_season(&db, 2026).await.unwrap();
    assert_eq!(stored.season, view.season);
    let log = accounts::audit_log(&db, None, 50).await.unwrap();
    assert!(
        log.iter().any(|r| r.action
            == "Korrektur eines abgeschlossenen Spielabends: Strafe von Bernd vergessen"),
        "audited like every Korrektur"
    );
    // An open night reopens without anything (nothing to correct).
    league
        .change(2026, Change::ReopenNight { date: night }, &by)
        .await
        .expect("already open");
}
