//! The Glücksfaktor (issue 10.7) through the whole app: a Runde played in the Schockbesteck and
//! confirmed gives each of its players Schock Outs thrown against the Schock Outs expected from his
//! Würfe, on his season page and his career page. The expectation is computed here independently:
//! every roll of the dice enumerated die by die (not the product's odds module).

use axum::http::StatusCode;
use schockerliga::db;
use schockerliga::league::model::file::{ResultEntry, SeasonFile};
use schockerliga::league::{Change, Korrektur};
use schockerliga::service::Edit;

use crate::app::{TestApp, SECRETARY};
use crate::besteck::{play_runde, post_wurfrunde, prepared, PAGE, RUNDE};

/// An exact fraction (num, den), reduced.
type Frac = (u128, u128);

fn gcd(a: u128, b: u128) -> u128 {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}

fn add(a: Frac, b: Frac) -> Frac {
    let (n, d) = (a.0 * b.1 + b.0 * a.1, a.1 * b.1);
    let g = gcd(n, d).max(1);
    (n / g, d / g)
}

/// The chance of ending with three 1s when `dice` (the values of the dice in the cup) are rolled
/// with `left` Würfe still to come after this one, going for the Schock Out: every 1 stays out,
/// of the sixes of a Wurf that is not the last, two make one 1 and three make two 1s (league
/// default, turning sixes allowed), the rest goes back into the cup. Enumerates every roll.
fn chance(in_cup: usize, wuerfe: u32) -> Frac {
    if in_cup == 0 {
        return (1, 1);
    }
    if wuerfe == 0 {
        return (0, 1);
    }
    let mut total: Frac = (0, 1);
    let rolls = 6u128.pow(in_cup as u32);
    for code in 0..rolls {
        let mut c = code;
        let (mut ones, mut sixes) = (0, 0);
        for _ in 0..in_cup {
            match c % 6 {
                0 => ones += 1,
                5 => sixes += 1,
                _ => {}
            }
            c /= 6;
        }
        let turned = if wuerfe > 1 && sixes >= 2 {
            sixes - 1
        } else {
            0
        };
        let still = in_cup - ones - turned;
        let p = chance(still, wuerfe - 1);
        total = add(total, (p.0, p.1 * rolls));
    }
    total
}

/// `value` with two decimals, a decimal comma, rounded half up.
fn two(value: Frac) -> String {
    let h = (value.0 * 200 + value.1) / (2 * value.1);
    format!("{},{:02}", h / 100, h % 100)
}

/// Per player of the Runde: (turns, Würfe, Schock Outs, expected) from the throws as played.
fn independent(player: &str) -> (u32, u32, u32, Frac) {
    let mut out = (0, 0, 0, (0, 1));
    for wurfrunde in RUNDE {
        for &(_, dice, wuerfe, _) in wurfrunde.iter().filter(|r| r.0 == player) {
            out.0 += 1;
            out.1 += u32::from(wuerfe);
            out.2 += u32::from(dice == "111");
            out.3 = add(out.3, chance(3, u32::from(wuerfe)));
        }
    }
    out
}

async fn play_and_confirm(t: &TestApp) {
    let cookie = t.login(SECRETARY).await;
    play_runde(t, &cookie).await;
    let r = t
        .post_fields(
            &format!("{PAGE}/bestaetigen"),
            &[("seq", RUNDE.len().to_string())],
            Some(&cookie),
        )
        .await;
    assert_eq!(r.status, StatusCode::SEE_OTHER, "{}", r.body);
}

/// Re-enters round 2 at table 1 by hand (no throws) with the rows `change` makes of its stored rows.
async fn reenter_round_2(t: &TestApp, change: impl Fn(&mut ResultEntry)) {
    let stored = db::season::load_file(&t.db.read, 2026)
        .await
        .unwrap()
        .unwrap();
    let mut results = stored.nights[0].tables[0].rounds[1].results.clone();
    results.iter_mut().for_each(change);
    let version = {
        let view = t.league.snapshot();
        let s = &view.season(2026).unwrap().season;
        schockerliga::league::change::round_version(&s.nights[0].tables[0].rounds[1])
    };
    t.league
        .change(
            2026,
            Change::PutRound {
                date: stored.nights[0].date,
                table: 1,
                number: 2,
                results,
                replace: schockerliga::league::change::Replace::IfVersion(version),
                seat_newcomers: false,
                schockbesteck: None,
            },
            &Edit::by("test").korrektur(Korrektur::default()),
        )
        .await
        .unwrap();
}

/// Rows of `round_schockbesteck`.
async fn kept_throws(t: &TestApp) -> i64 {
    let mut conn = t.db.read.acquire().await.unwrap();
    let (n,): (i64,) = sqlx::query_as("select count(*) from round_schockbesteck")
        .fetch_one(&mut *conn)
        .await
        .unwrap();
    n
}

async fn id_of(t: &TestApp, name: &str) -> i64 {
    let mut conn = t.db.read.acquire().await.unwrap();
    db::player::by_name(&mut conn, name)
        .await
        .unwrap()
        .unwrap()
        .0
}

/// The heading and the sentence the pages must show for `player`, from the independent
/// computation.
fn sentence(player: &str) -> String {
    let (turns, wuerfe, outs, expected) = independent(player);
    let factor = (u128::from(outs) * expected.1, expected.0);
    let verdict = if factor.0 * 5 >= factor.1 * 6 {
        "Mehr Glück, als die Würfel versprechen."
    } else if factor.0 * 5 <= factor.1 * 4 {
        "Weniger Glück, als die Würfel versprechen."
    } else {
        "Etwa so viel Glück, wie die Würfel versprechen."
    };
    format!(
        "Glücksfaktor {}</h2>\n<p><strong>{verdict}</strong> {outs} {} geworfen, erwartet {} (aus 1 Runde im Schockbesteck, {turns} Wurfrunden, {wuerfe} Würfe).",
        two(factor),
        if outs == 1 { "Schock Out" } else { "Schock Outs" },
        two(expected),
    )
}

#[tokio::test]
async fn a_confirmed_schockbesteck_runde_gives_each_player_his_gluecksfaktor() {
    // The independent odds agree with the known figures for one Wurf and two.
    assert_eq!(chance(3, 1), (1, 216));
    assert_eq!(chance(3, 2), (379, 11664));
    let t = prepared().await;
    // Before any Schockbesteck round the pages say nothing about luck.
    let anna = id_of(&t, "Anna").await;
    let page = t.get(&format!("/saison/2026/spieler/{anna}"), None).await;
    assert_eq!(page.status, StatusCode::OK);
    assert!(!page.body.contains("Glücksfaktor"), "{}", page.body);

    play_and_confirm(&t).await;
    // (player, turns, Würfe, Schock Outs) as counted by hand from the Runde's table in besteck.rs
    for (name, turns, wuerfe, outs) in [("Anna", 5, 8, 2), ("Bernd", 7, 9, 0), ("Carla", 7, 9, 1)] {
        let (t2, w2, o2, _) = independent(name);
        assert_eq!((t2, w2, o2), (turns, wuerfe, outs), "{name}");
        let id = id_of(&t, name).await;
        let want = sentence(name);
        let page = t
            .get(&format!("/saison/2026/spieler/{id}"), None)
            .await
            .body;
        assert!(page.contains(&want), "{name}: {want}\n{page}");
        assert!(page.contains("Noch wenige Würfe"), "expected < 3: {name}");
        let career = t.get(&format!("/spieler/{id}"), None).await.body;
        assert!(career.contains(&want), "{name} career: {want}\n{career}");
    }
    // Dirk sat the round out: the season has Schockbesteck rounds, he has none.
    let dirk = id_of(&t, "Dirk").await;
    let page = t
        .get(&format!("/saison/2026/spieler/{dirk}"), None)
        .await
        .body;
    assert!(
        page.contains("Noch keine Runde im Schockbesteck gespielt."),
        "{page}"
    );
    let career = t.get(&format!("/spieler/{dirk}"), None).await.body;
    assert!(!career.contains("Glücksfaktor"), "{career}");

    // The throws are stored with the round and exported with it; a fresh league imported from
    // that file shows the same figures.
    let file: SeasonFile = db::season::load_file(&t.db.read, 2026)
        .await
        .unwrap()
        .unwrap();
    let round2 = &file.nights[0].tables[0].rounds[1];
    assert_eq!(round2.number, 2);
    let record = round2
        .schockbesteck
        .as_ref()
        .expect("throws kept with round 2");
    assert_eq!(record.record().wurfrunden.len(), RUNDE.len());
    assert!(file.nights[0].tables[0].rounds[0].schockbesteck.is_none());
    let copy = TestApp::builder().season(file.clone()).start().await;
    let id = id_of(&copy, "Carla").await;
    let page = copy
        .get(&format!("/saison/2026/spieler/{id}"), None)
        .await
        .body;
    assert!(page.contains(&sentence("Carla")), "{page}");

    // A rename follows the throws.
    let edit = Edit::by("test");
    t.league
        .rename_player(2026, id_of(&t, "Carla").await, "Carlotta", &edit)
        .await
        .unwrap();
    let id = id_of(&t, "Carlotta").await;
    let page = t
        .get(&format!("/saison/2026/spieler/{id}"), None)
        .await
        .body;
    assert!(page.contains(&sentence("Carla")), "{page}");

    // Re-entering round 2 by hand replaces the throws: no Schockbesteck round is left.
    reenter_round_2(&t, |_| {}).await;
    let stored = db::season::load_file(&t.db.read, 2026)
        .await
        .unwrap()
        .unwrap();
    assert!(stored.nights[0].tables[0].rounds[1].schockbesteck.is_none());
    assert_eq!(kept_throws(&t).await, 0, "no orphaned throws");
    let page = t
        .get(&format!("/saison/2026/spieler/{anna}"), None)
        .await
        .body;
    assert!(!page.contains("Glücksfaktor"), "{page}");
}

/// The `value` of the hidden field `name` on `page`.
fn hidden(page: &str, name: &str) -> String {
    let key = format!("name=\"{name}\" value=\"");
    let at = page
        .find(&key)
        .unwrap_or_else(|| panic!("no {name} in {page}"))
        + key.len();
    page[at..at + page[at..].find('"').unwrap()].to_string()
}

#[tokio::test]
async fn a_confirm_stores_only_the_runde_its_page_showed() {
    let t = prepared().await;
    let cookie = t.login(SECRETARY).await;
    play_runde(&t, &cookie).await;
    // The confirm page as loaded: Bernd loses.
    let page = t.get(PAGE, Some(&cookie)).await.body;
    let shown = hidden(&page, "runde");
    assert_eq!(shown.len(), 16);
    // Meanwhile the last Wurfrunde is taken back and played otherwise (Bernd's Hand-Out): the
    // same number of Wurfrunden, but now Carla loses.
    let r = t
        .post_fields(
            &format!("{PAGE}/zurueck"),
            &[("seq", "7"), ("runde", shown.as_str())],
            Some(&cookie),
        )
        .await;
    assert!(
        r.body.contains("Wurfrunde 7 ist zurückgenommen"),
        "{}",
        r.body
    );
    let r = post_wurfrunde(
        &t,
        &cookie,
        6,
        &[("Carla", "653", 1, false), ("Bernd", "111", 1, false)],
    )
    .await;
    assert_eq!(r.status, StatusCode::SEE_OTHER, "{}", r.body);
    // The old page's confirm is refused; nothing stored.
    let r = t
        .post_fields(
            &format!("{PAGE}/bestaetigen"),
            &[("seq", "7"), ("runde", shown.as_str())],
            Some(&cookie),
        )
        .await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", r.body);
    assert!(r.body.contains("nicht mehr aktuell"), "{}", r.body);
    let stored = db::season::load_file(&t.db.read, 2026)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(
        stored.nights[0].tables[0].rounds.len(),
        1,
        "round 2 not stored"
    );

    // Inside the write itself: a confirm of a Runde that is no longer the one in progress (the
    // race of a confirm with a take-back on another phone) is refused too.
    let mut old = schockerliga::rules::RundeState::new(
        vec!["Anna".into(), "Bernd".into(), "Carla".into()],
        schockerliga::rules::RuleSet::default(),
    )
    .unwrap();
    for rows in RUNDE {
        let throws = rows
            .iter()
            .map(|(p, d, n, h)| {
                let dice: Vec<u8> = d.bytes().map(|b| b - b'0').collect();
                schockerliga::rules::ThrowInput::from_dice(
                    p,
                    [dice[0], dice[1], dice[2]],
                    *n,
                    *h || *n == 1,
                )
            })
            .collect();
        old.apply(throws).unwrap();
    }
    let results: Vec<ResultEntry> = old
        .tallies()
        .into_iter()
        .map(|x| ResultEntry {
            player: x.player,
            outs: x.outs,
            hand_outs: x.hand_outs,
            julen: x.julen,
            joker: false,
            lost: x.lost,
        })
        .collect();
    let edit = Edit {
        confirms_runde: Some((1, 2)),
        ..Edit::by("test")
    };
    let e = t
        .league
        .change(
            2026,
            Change::PutRound {
                date: stored.nights[0].date,
                table: 1,
                number: 2,
                results,
                replace: schockerliga::league::change::Replace::No,
                seat_newcomers: false,
                schockbesteck: Some(schockerliga::rules::PlayedRunde::of_state(&old)),
            },
            &edit,
        )
        .await
        .unwrap_err();
    assert!(e.to_string().contains("inzwischen geändert"), "{e}");
    // The page's own confirm of the Runde as it is now stores it: Carla lost.
    let page = t.get(PAGE, Some(&cookie)).await.body;
    let r = t
        .post_fields(
            &format!("{PAGE}/bestaetigen"),
            &[("seq", "7".to_string()), ("runde", hidden(&page, "runde"))],
            Some(&cookie),
        )
        .await;
    assert_eq!(r.status, StatusCode::SEE_OTHER, "{}", r.body);
    let stored = db::season::load_file(&t.db.read, 2026)
        .await
        .unwrap()
        .unwrap();
    let round2 = &stored.nights[0].tables[0].rounds[1];
    assert!(round2.results.iter().any(|x| x.player == "Carla" && x.lost));
}

#[tokio::test]
async fn rounds_confirmed_before_throws_were_kept_get_them_back_from_the_audit_log() {
    let mut t = prepared().await;
    play_and_confirm(&t).await;
    let anna = id_of(&t, "Anna").await;
    let want = sentence("Anna");
    // As an older version left it: the round without its throws (only the audit row has them).
    {
        let mut conn = t.db.write.acquire().await.unwrap();
        sqlx::query("delete from round_schockbesteck")
            .execute(&mut *conn)
            .await
            .unwrap();
    }
    t.restart().await;
    assert_eq!(kept_throws(&t).await, 1, "restored at start");
    let page = t
        .get(&format!("/saison/2026/spieler/{anna}"), None)
        .await
        .body;
    assert!(page.contains(&want), "{want}\n{page}");
    // Idempotent; a round re-entered by hand with other figures does not take the old throws.
    t.restart().await;
    assert_eq!(kept_throws(&t).await, 1);
    reenter_round_2(&t, |r| {
        r.outs = 0;
        r.hand_outs = 0;
        r.julen = 0;
    })
    .await;
    t.restart().await;
    assert_eq!(
        kept_throws(&t).await,
        0,
        "the hand-entered figures differ from the throws"
    );
}
