//! "Trennen" is exact or refuses (issue 36.3): rows entered for the kept player after the merge
//! on the merged-away one's night (a round entered again, a fine) or in a season only he played
//! (a payment) go back to him with the split; a payment booked after the merge in a season both
//! played cannot be told apart: the split is refused, naming it, and nothing is stored.

use axum::body::Body;
use axum::http::{header, StatusCode};

use crate::app::{req, TestApp};
use crate::merge::{app, id_of, merge, rows, same_rows, split};

/// The player ids `sql` selects.
async fn owners(t: &TestApp, sql: &str) -> Vec<i64> {
    sqlx::query_scalar(sql).fetch_all(&t.db.read).await.unwrap()
}

#[tokio::test]
async fn rows_entered_after_the_merge_on_his_nights_go_back_with_the_split() {
    let (t, admin) = app().await;
    let (gone, kept) = (id_of(&t, "Bernd M.").await, id_of(&t, "Bernd").await);
    let r = merge(&t, &admin, gone, kept, "derselbe Bernd").await;
    assert_eq!(r.status, StatusCode::SEE_OTHER, "{}", r.body);
    // Round 1 of his first night, deleted and entered again under the kept name.
    let uri = "/api/v1/nights/2025-04-10/tables/1/rounds/1";
    let round = t.get(uri, None).await.json();
    assert!(round.to_string().contains("\"Bernd\""), "{round}");
    let del = req("DELETE", uri)
        .header(header::COOKIE, &admin)
        .header(header::ORIGIN, format!("http://{}", crate::app::HOST))
        .header("sec-fetch-site", "same-origin")
        .body(Body::empty())
        .unwrap();
    let r = t.send(del).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    let body = serde_json::json!({ "results": round["results"] }).to_string();
    let r = t.post_json(uri, body, Some(&admin)).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    // A fine on his night and a payment in the season only he played.
    let r = t
        .post_follow(
            "/verwaltung/saison/2025/strafe",
            "date=2025-04-10&player=Bernd&kind=late&again=1",
            &admin,
        )
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    let body = format!("player={kept}&amount=1%2C00&paid_on=2025-03-10");
    let r = t
        .post_follow("/verwaltung/saison/2025/zahlung", &body, &admin)
        .await;
    assert!(r.body.contains("Zahlung gebucht"), "{}", r.body);

    let r = split(&t, &admin, kept).await;
    assert_eq!(r.status, StatusCode::SEE_OTHER, "{}", r.body);
    for sql in [
        "select distinct x.player_id from results x join rounds r on r.id = x.round_id
         join nights n on n.id = r.night_id where n.season = 2025 and x.player_id in (2, 99)",
        "select distinct f.player_id from fines f join nights n on n.id = f.night_id
         where n.season = 2025",
        "select distinct player_id from payments where season = 2025",
    ] {
        let who = owners(&t, &sql.replace("(2, 99)", &format!("({gone}, {kept})"))).await;
        assert!(!who.contains(&kept), "{sql}: {who:?}");
    }
    assert_eq!(
        owners(
            &t,
            "select distinct player_id from payments where season = 2025"
        )
        .await,
        [gone]
    );
    let standings = t.get("/api/v1/seasons/2025/standings", None).await.body;
    assert!(standings.contains("Bernd M."), "{standings}");
}

#[tokio::test]
async fn a_payment_after_the_merge_in_a_season_both_played_refuses_the_split() {
    let (t, admin) = app().await;
    let (gast, kept) = (id_of(&t, "Gast").await, id_of(&t, "Bernd").await);
    let r = merge(&t, &admin, gast, kept, "Gast war Bernd").await;
    assert_eq!(r.status, StatusCode::SEE_OTHER, "{}", r.body);
    let body = format!("player={kept}&amount=1%2C00&paid_on=2026-03-10");
    let r = t
        .post_follow("/verwaltung/saison/2026/zahlung", &body, &admin)
        .await;
    assert!(r.body.contains("Zahlung gebucht"), "{}", r.body);
    let before = rows(&t).await;
    let r = split(&t, &admin, kept).await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", r.body);
    assert!(
        r.body
            .contains("Zahlung vom 10.03.2026 über 1,00 € (Saison 2026)"),
        "{}",
        r.body
    );
    assert!(r.body.contains("Nichts getrennt."), "{}", r.body);
    same_rows(&before, &rows(&t).await);
}

/// Hostile trial: after the merge, a season file with one more night of the kept player in the
/// season only the merged-away one had played was read in (`import --replace`); "Trennen" then
/// answered "Saison 2025: Abend 30.12.2025, Spieler Bernd, Feld Spieler: unbekannter Spieler"
/// without saying why or what to do. It says that the split is refused, which night stands in
/// the way and what to do; nothing is stored.
#[tokio::test]
async fn a_split_that_would_break_a_season_says_why_and_what_to_do() {
    let (t, admin) = app().await;
    let (gone, kept) = (id_of(&t, "Bernd M.").await, id_of(&t, "Bernd").await);
    let r = merge(&t, &admin, gone, kept, "derselbe Bernd").await;
    assert_eq!(r.status, StatusCode::SEE_OTHER, "{}", r.body);
    let mut file = t.league.export_file(2025).await.unwrap();
    let mut night = file
        .nights
        .iter()
        .rev()
        .find(|n| {
            n.tables.iter().any(|t| {
                t.rounds
                    .iter()
                    .any(|r| r.results.iter().any(|x| x.player == "Bernd"))
            })
        })
        .unwrap()
        .clone();
    night.date = "2025-12-30".parse().unwrap();
    night.fines.clear();
    file.nights.push(night);
    t.league.import(&file, true, "cli").await.unwrap();
    let before = rows(&t).await;
    let r = split(&t, &admin, kept).await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", r.body);
    assert!(r.body.contains("Trennen geht nicht"), "{}", r.body);
    assert!(r.body.contains("30.12.2025"), "{}", r.body);
    assert!(r.body.contains("Nichts getrennt."), "{}", r.body);
    same_rows(&before, &rows(&t).await);
}
