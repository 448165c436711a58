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
