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
        assert_eq!(crate::league::names::login_key(typed), key, "{typed}");
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
