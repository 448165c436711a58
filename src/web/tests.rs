//! The route table: what the access tests walk, checked for its own consistency.

use std::collections::BTreeSet;

use axum::http::Method;

use super::kit::links::setup_links;
use super::*;

#[test]
fn every_route_is_listed_once_and_the_admin_area_is_guarded() {
    let table = route_table();
    assert!(table.len() >= 30, "{} routes", table.len());
    let mut seen = BTreeSet::new();
    for r in &table {
        assert!(
            seen.insert((r.method.clone(), r.path)),
            "{} {} twice",
            r.method,
            r.path
        );
        if r.path.starts_with("/verwaltung") {
            assert_ne!(r.guard, Guard::Public, "{} {} is public", r.method, r.path);
        } else if r.guard == Guard::Admin {
            panic!("{} {}: admin route outside /verwaltung", r.method, r.path);
        }
        if r.method != Method::GET && r.guard == Guard::Public {
            let allowed = [
                "/login",
                "/logout",
                "/setup",
                "/api/v1/wurfrunde",
                "/passwort/zuruecksetzen",
                // "Das bin ich": the visitor's own cookie, nothing stored.
                "/ich",
                "/ich/vergessen",
                // A Zusage of "Das bin ich": limited per address and per player and night.
                "/abend/{date}/zusage",
            ];
            assert!(
                allowed.contains(&r.path),
                "public write {} {}",
                r.method,
                r.path
            );
        }
    }
}

#[test]
fn the_setup_link_names_an_address_a_phone_can_open() {
    let ips: Vec<std::net::IpAddr> = ["127.0.0.1", "192.168.1.5", "::1", "fd00::2", "10.0.0.7"]
        .iter()
        .map(|s| s.parse().unwrap())
        .collect();
    // (listen, expected links' hosts)
    let cases: [(&str, &[&str]); 4] = [
        ("127.0.0.1:3000", &["127.0.0.1:3000"]),
        ("192.168.1.5:8080", &["192.168.1.5:8080"]),
        (
            "0.0.0.0:8080",
            &["10.0.0.7:8080", "192.168.1.5:8080", "127.0.0.1:8080"],
        ),
        (
            "[::]:8080",
            &[
                "10.0.0.7:8080",
                "192.168.1.5:8080",
                "[fd00::2]:8080",
                "127.0.0.1:8080",
                "[::1]:8080",
            ],
        ),
    ];
    for (listen, hosts) in cases {
        let links = setup_links(listen.parse().unwrap(), &ips, "abc");
        let want: Vec<String> = hosts
            .iter()
            .map(|h| format!("http://{h}/setup?token=abc"))
            .collect();
        assert_eq!(links, want, "{listen}");
        assert!(links
            .iter()
            .all(|l| !l.contains("0.0.0.0") && !l.contains("[::]")));
    }
    // nothing known: loopback
    assert_eq!(
        setup_links("0.0.0.0:3000".parse().unwrap(), &[], "t"),
        ["http://127.0.0.1:3000/setup?token=t"]
    );
}

/// The same check for a round on all three ways in: the round form, the Schockbesteck and the JSON
/// round API each go through `Change::PutRound` and the write pipeline, so the league's limits,
/// the one Joker-Runde per night, the replace rule and the Korrektur of a closed night answer
/// alike (each path with its own way of asking to replace).
mod one_round_check {
    use axum::body::Body;
    use axum::http::{header, Request, StatusCode};
    use http_body_util::BodyExt;
    use tower::ServiceExt;

    use crate::auth::Role;
    use crate::league::model::file::SeasonFile;
    use crate::web::{build_app, Config};

    struct App {
        router: axum::Router,
        cookie: String,
        _dir: tempfile::TempDir,
    }

    struct Reply {
        status: StatusCode,
        body: String,
    }

    /// 2026 with Anna, Bernd, Carla; 09.01.2026, table 1, round 1 entered, Anna's Joker-Runde.
    async fn app() -> App {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("liga.db");
        let league = crate::service::League::open(&path).await.unwrap();
        let file: SeasonFile = serde_json::from_value(serde_json::json!({
            "format": "schockerliga-season/1", "season": 2026,
            "players": [ { "name": "Anna" }, { "name": "Bernd" }, { "name": "Carla" } ],
            "nights": [ { "date": "2026-01-09", "tables": [ { "number": 1, "rounds": [
                { "number": 1, "results": [
                    { "player": "Anna", "outs": 1, "hand_outs": 0, "joker": true },
                    { "player": "Bernd", "outs": 0, "hand_outs": 0, "lost": true },
                    { "player": "Carla", "outs": 0, "hand_outs": 0 } ] } ] } ] } ]
        }))
        .unwrap();
        league.import(&file, false, "test").await.unwrap();
        league
            .create_account("schrift", "geheim123", None, Role::Secretary, "test")
            .await
            .unwrap();
        let router = build_app(Config::new(path, "127.0.0.1:3000".parse().unwrap()))
            .await
            .unwrap();
        let mut app = App {
            router,
            cookie: String::new(),
            _dir: dir,
        };
        let login = app
            .send(
                "POST",
                "/login",
                "username=schrift&password=geheim123",
                None,
            )
            .await;
        assert_eq!(login.status, StatusCode::SEE_OTHER);
        app
    }

    impl App {
        async fn send(&mut self, method: &str, uri: &str, body: &str, json: Option<()>) -> Reply {
            self.send_with(method, uri, body, json, None).await
        }

        async fn send_with(
            &mut self,
            method: &str,
            uri: &str,
            body: &str,
            json: Option<()>,
            if_match: Option<&str>,
        ) -> Reply {
            let ct = match json {
                Some(()) => "application/json",
                None => "application/x-www-form-urlencoded",
            };
            let mut req = Request::builder()
                .method(method)
                .uri(uri)
                .header(header::HOST, "127.0.0.1:3000")
                .header("sec-fetch-site", "same-origin")
                .header(header::CONTENT_TYPE, ct);
            if !self.cookie.is_empty() {
                req = req.header(header::COOKIE, &self.cookie);
            }
            if let Some(m) = if_match {
                req = req.header(header::IF_MATCH, m);
            }
            let resp = self
                .router
                .clone()
                .oneshot(req.body(Body::from(body.to_string())).unwrap())
                .await
                .unwrap();
            if let Some(c) = resp.headers().get(header::SET_COOKIE) {
                let c = c.to_str().unwrap().split(';').next().unwrap().to_string();
                if c.starts_with("id=") && self.cookie.is_empty() {
                    self.cookie = c;
                }
            }
            let status = resp.status();
            let bytes = resp.into_body().collect().await.unwrap().to_bytes();
            Reply {
                status,
                body: String::from_utf8_lossy(&bytes).into_owned(),
            }
        }

        async fn get(&mut self, uri: &str) -> Reply {
            self.send("GET", uri, "", None).await
        }

        /// The players' ids by name, from the night page's round form.
        async fn ids(&mut self) -> Vec<(String, String)> {
            let page = self.get("/verwaltung/abend/2026-01-09").await.body;
            ["Anna", "Bernd", "Carla"]
                .iter()
                .map(|n| {
                    let at = page.find(&format!("> {n}</label>")).unwrap();
                    let before = &page[..at];
                    let k = before.rfind("name=\"played_").unwrap() + "name=\"played_".len();
                    let id: String = before[k..]
                        .chars()
                        .take_while(|c| c.is_ascii_digit())
                        .collect();
                    (n.to_string(), id)
                })
                .collect()
        }

        /// The round form of round `number`: Anna with `outs` Outs and Joker as given, Bernd loses.
        async fn form(&mut self, number: u32, outs: u32, joker: bool, extra: &str) -> Reply {
            let ids = self.ids().await;
            let mut f = format!("table=1&number={number}");
            for (name, id) in &ids {
                f.push_str(&format!(
                    "&played_{id}=1&outs_{id}={}",
                    if name == "Anna" { outs } else { 0 }
                ));
                if joker && name == "Anna" {
                    f.push_str(&format!("&joker_{id}=1"));
                }
            }
            f.push_str(&format!("&lost={}{extra}", ids[1].1));
            self.send("POST", "/verwaltung/abend/2026-01-09/runde", &f, None)
                .await
        }

        /// The JSON round API for round `number`, same rows as [`App::form`].
        async fn api(
            &mut self,
            number: u32,
            outs: u32,
            joker: bool,
            korrektur: Option<&str>,
        ) -> Reply {
            self.api_if_match(number, outs, joker, korrektur, None)
                .await
        }

        /// [`App::api`] with an `If-Match` header.
        async fn api_if_match(
            &mut self,
            number: u32,
            outs: u32,
            joker: bool,
            korrektur: Option<&str>,
            if_match: Option<&str>,
        ) -> Reply {
            let mut body = serde_json::json!({ "results": [
                { "player": "Anna", "outs": outs, "hand_outs": 0, "joker": joker },
                { "player": "Bernd", "outs": 0, "hand_outs": 0, "lost": true },
                { "player": "Carla", "outs": 0, "hand_outs": 0 } ] });
            if let Some(k) = korrektur {
                body["korrektur"] = serde_json::json!(k);
            }
            let uri = format!("/api/v1/nights/2026-01-09/tables/1/rounds/{number}");
            self.send_with("POST", &uri, &body.to_string(), Some(()), if_match)
                .await
        }

        /// Plays round `number` in the Schockbesteck to its end (Anna throws two Schock Outs from
        /// the hand, Bernd loses both halves) and confirms it with `extra` form fields.
        async fn besteck(&mut self, number: u32, extra: &str) -> Reply {
            let base = format!("/verwaltung/besteck/2026-01-09/1/{number}");
            let start = self
                .send(
                    "POST",
                    &format!("{base}/start"),
                    "spieler=Anna&spieler=Bernd&vorleger=Anna",
                    None,
                )
                .await;
            assert_eq!(start.status, StatusCode::SEE_OTHER, "{}", start.body);
            for seq in 0..2 {
                let page = self.get(&base).await.body;
                let first = if page.contains("name=\"p0\" value=\"Anna\"") {
                    "Anna"
                } else {
                    "Bernd"
                };
                let (a, b) = if first == "Anna" {
                    ("111", "654")
                } else {
                    ("654", "111")
                };
                let other = if first == "Anna" { "Bernd" } else { "Anna" };
                let form = format!("seq={seq}&p0={first}&w0={a}&n0=1&p1={other}&w1={b}&n1=1");
                let r = self
                    .send("POST", &format!("{base}/wurfrunde"), &form, None)
                    .await;
                assert_eq!(r.status, StatusCode::SEE_OTHER, "{seq}: {}", r.body);
            }
            self.confirm(number, extra).await
        }

        /// Confirms the finished Runde `number` of the Schockbesteck with `extra` form fields.
        async fn confirm(&mut self, number: u32, extra: &str) -> Reply {
            let uri = format!("/verwaltung/besteck/2026-01-09/1/{number}/bestaetigen");
            self.send("POST", &uri, &format!("seq=2{extra}"), None)
                .await
        }
    }

    #[tokio::test]
    async fn the_round_form_the_besteck_and_the_api_get_the_same_answers() {
        let mut t = app().await;
        let anna = t.ids().await[0].1.clone();

        // The league's limit: at most 3 Outs.
        let r = t.form(2, 4, false, "").await;
        assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY);
        assert!(
            r.body.contains("höchstens 3 Outs pro Spieler und Runde"),
            "{}",
            r.body
        );
        let r = t.api(2, 4, false, None).await;
        assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY);
        assert!(
            r.body.contains("höchstens 3 Outs pro Spieler und Runde"),
            "{}",
            r.body
        );

        // One Joker-Runde per night (Anna had hers in round 1).
        let joker = "hat an diesem Abend schon eine Joker-Runde (Tisch 1, Runde 1)";
        let r = t.form(2, 1, true, "").await;
        assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY);
        assert!(r.body.contains(joker), "{}", r.body);
        let r = t.api(2, 1, true, None).await;
        assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY);
        assert!(r.body.contains(joker), "{}", r.body);
        let r = t.besteck(2, &format!("&joker_{anna}=1")).await;
        assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY);
        assert!(r.body.contains(joker), "{}", r.body);

        // Replacing: the form only with its box, the Schockbesteck after showing it and with its
        // box, the API only with If-Match (a lost update is refused on every path).
        let r = t.form(1, 0, false, "").await;
        assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY);
        assert!(
            r.body.contains("Runde 1 ist schon eingetragen"),
            "{}",
            r.body
        );
        let r = t.form(1, 0, false, "&replace=1").await;
        assert_eq!(r.status, StatusCode::SEE_OTHER, "{}", r.body);
        let r = t.api(1, 2, false, None).await;
        assert_eq!(r.status, StatusCode::CONFLICT, "{}", r.body);
        assert!(
            r.body.contains("Runde 1 ist schon eingetragen"),
            "{}",
            r.body
        );
        // A program is told to send If-Match, not to tick the form's box.
        assert!(
            r.body.contains("If-Match") && !r.body.contains("ankreuzen"),
            "{}",
            r.body
        );
        let r = t.api_if_match(1, 2, false, None, Some("*")).await;
        assert_eq!(r.status, StatusCode::OK, "{}", r.body);
        // (round 2 of the Schockbesteck, refused above, is still waiting to be confirmed)
        let r = t.confirm(2, "").await;
        assert_eq!(r.status, StatusCode::SEE_OTHER, "{}", r.body);

        // A closed night: no change without the Korrektur, on every path.
        let r = t
            .send(
                "POST",
                "/verwaltung/abend/2026-01-09/abschliessen",
                "sicher=1",
                None,
            )
            .await;
        assert_eq!(r.status, StatusCode::SEE_OTHER);
        let closed = "Häkchen „Korrektur“ und Grund";
        let r = t.form(3, 0, false, "").await;
        assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY);
        assert!(r.body.contains(closed), "{}", r.body);
        let r = t.api(3, 0, false, None).await;
        assert_eq!(r.status, StatusCode::CONFLICT);
        assert!(r.body.contains(closed), "{}", r.body);
        let r = t.besteck(3, "").await;
        assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY);
        assert!(r.body.contains(closed), "{}", r.body);
        // … and with it, on every path.
        let k = "&korrektur=on&korrektur_grund=nachgetragen";
        assert_eq!(t.form(4, 0, false, k).await.status, StatusCode::SEE_OTHER);
        assert_eq!(
            t.api(5, 0, false, Some("nachgetragen")).await.status,
            StatusCode::OK
        );
        assert_eq!(t.confirm(3, k).await.status, StatusCode::SEE_OTHER);
        let table = t.get("/abend/2026-01-09").await.body;
        for n in 1..=5 {
            assert!(
                table.contains(&format!("Runde {n}</th>")),
                "round {n}: {table}"
            );
        }
    }
}

#[test]
fn what_is_still_open_before_a_night_is_closed() {
    use super::entry::night::open_items;
    // (rounds entered per table, rounds per night, running Runden, expected)
    type Case<'a> = (&'a [(u32, usize)], u32, &'a [(u32, u32)], &'a [&'a str]);
    let cases: [Case; 3] = [
        (&[(1, 10), (2, 10)], 10, &[], &[]),
        (
            &[(1, 5), (2, 3)],
            10,
            &[(2, 5)],
            &[
                "Tisch 1: 5 von 10 Runden eingetragen",
                "Tisch 2: 3 von 10 Runden eingetragen",
                "Tisch 2: Runde 5 läuft noch im Schockbesteck",
            ],
        ),
        (
            &[(1, 10)],
            10,
            &[(1, 10)],
            &["Tisch 1: Runde 10 läuft noch im Schockbesteck"],
        ),
    ];
    for (tables, per_night, running, want) in cases {
        assert_eq!(
            open_items(tables, per_night, running),
            want,
            "{tables:?} {running:?}"
        );
    }
}
