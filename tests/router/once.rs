//! Every form is carried out once (issue 15.5): each POST form of every page behind the login is
//! sent twice with the same body, as a double tap or a reload does; the second time nothing is
//! stored and the answer is the first one's redirect with the note "Schon gespeichert".

use std::collections::{BTreeSet, VecDeque};

use axum::http::StatusCode;
use scraper::{ElementRef, Html, Selector};

use crate::app::*;

/// One POST form as a browser would send it unchanged: where, the encoded fields, and the page
/// it was found on.
#[derive(Debug, Clone)]
struct Form {
    page: String,
    action: String,
    fields: Vec<(String, String)>,
}

fn sel(s: &str) -> Selector {
    Selector::parse(s).unwrap()
}

/// The fields a browser sends for `form` untouched: inputs with their values, checked boxes,
/// the selected (else first) option, textareas, the first named submit button. An unchecked
/// radio group sends its first choice (as if tapped) so that more forms are valid.
fn fields_of(form: ElementRef) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut radios = BTreeSet::new();
    let mut button = false;
    for el in form.select(&sel("input, select, textarea, button")) {
        let v = el.value();
        let Some(name) = v.attr("name") else { continue };
        if v.attr("disabled").is_some() {
            continue;
        }
        let value = v.attr("value").unwrap_or("").to_string();
        match (v.name(), v.attr("type").unwrap_or("text")) {
            ("input", "checkbox") if v.attr("checked").is_some() => out.push((
                name.into(),
                if value.is_empty() { "on".into() } else { value },
            )),
            ("input", "checkbox") => {}
            ("input", "radio") => {
                let group = form
                    .select(&sel(&format!("input[type=radio][name=\"{name}\"]")))
                    .collect::<Vec<_>>();
                let checked = group.iter().find(|r| r.value().attr("checked").is_some());
                let first = group.first();
                if radios.insert(name.to_string()) {
                    if let Some(r) = checked.or(first) {
                        out.push((name.into(), r.value().attr("value").unwrap_or("on").into()));
                    }
                }
            }
            ("input", "submit") | ("button", _)
                if !button && v.attr("type").unwrap_or("submit") == "submit" =>
            {
                button = true;
                out.push((name.into(), value));
            }
            ("input", "submit") | ("button", _) => {}
            ("input", "file" | "image" | "reset") => {}
            ("input", _) => out.push((name.into(), value)),
            ("select", _) => {
                let options = el.select(&sel("option")).collect::<Vec<_>>();
                let chosen = options
                    .iter()
                    .find(|o| o.value().attr("selected").is_some())
                    .or(options.first());
                if let Some(o) = chosen {
                    let text = o.text().collect::<String>();
                    out.push((name.into(), o.value().attr("value").unwrap_or(&text).into()));
                }
            }
            ("textarea", _) => out.push((name.into(), el.text().collect())),
            _ => {}
        }
    }
    out
}

/// The POST forms and the same-site links under `/verwaltung` or `/passwort` of one page.
fn read_page(page: &str, html: &str) -> (Vec<Form>, Vec<String>) {
    let doc = Html::parse_document(html);
    let forms = doc
        .select(&sel("form"))
        .filter(|f| {
            f.value()
                .attr("method")
                .unwrap_or("get")
                .eq_ignore_ascii_case("post")
        })
        .map(|f| Form {
            page: page.to_string(),
            action: f.value().attr("action").unwrap_or(page).to_string(),
            fields: fields_of(f),
        })
        .collect();
    let links = doc
        .select(&sel("a[href]"))
        .filter_map(|a| a.value().attr("href"))
        .map(|h| h.split('#').next().unwrap_or("").to_string())
        .filter(|h| h.starts_with("/verwaltung") && !h.ends_with(".csv") && !h.contains("logout"))
        .collect();
    (forms, links)
}

/// Every stored row of the league, the accounts, the audit log and the Schockbesteck (not the
/// sessions, which a flash note touches), one line per row.
async fn stored(t: &TestApp) -> String {
    let tables: Vec<(String,)> = sqlx::query_as(
        "select name from sqlite_master where type = 'table'
         and name not like 'sqlite_%' and name not like '_sqlx%' and name not like 'tower_sessions%'
         order by name",
    )
    .fetch_all(&t.db.read)
    .await
    .unwrap();
    let mut out = String::new();
    for (table,) in tables {
        let cols: Vec<(String,)> = sqlx::query_as(&format!(
            "select name from pragma_table_info('{table}') order by cid"
        ))
        .fetch_all(&t.db.read)
        .await
        .unwrap();
        let row = cols
            .iter()
            .map(|(c,)| format!("quote(\"{c}\")"))
            .collect::<Vec<_>>()
            .join("||'|'||");
        let (rows,): (Option<String>,) = sqlx::query_as(&format!(
            "select group_concat(r, char(10)) from (select {row} as r from \"{table}\" order by rowid)"
        ))
        .fetch_one(&t.db.read)
        .await
        .unwrap();
        out.push_str(&format!("== {table}\n{}\n", rows.unwrap_or_default()));
    }
    out
}

/// Forms that end what the crawl still needs (the season, the own account) go last.
fn last(f: &Form) -> bool {
    f.action.contains("loeschen") || f.action.contains("sperren") || f.action.ends_with("/passwort")
}

#[tokio::test]
async fn every_form_behind_the_login_sent_twice_is_carried_out_once() {
    let t = TestApp::small_season().await;
    let admin = t.login(ADMIN).await;
    // A night of the running season with a draw, so that its forms are on the pages.
    let r = t
        .post(
            "/verwaltung/saison/2026/abend",
            "date=2026-11-27",
            Some(&admin),
        )
        .await;
    assert_eq!(r.status, StatusCode::SEE_OTHER, "{}", r.body);

    // Crawl every page under /verwaltung the admin can reach.
    let mut seen = BTreeSet::new();
    let mut queue = VecDeque::from(["/verwaltung".to_string()]);
    let mut forms = Vec::new();
    while let Some(page) = queue.pop_front() {
        if !seen.insert(page.clone()) {
            continue;
        }
        let r = t.get(&page, Some(&admin)).await;
        assert!(r.status.is_success(), "GET {page}: {}", r.status);
        let (f, links) = read_page(&page, &r.body);
        forms.extend(f);
        queue.extend(links.into_iter().filter(|l| !seen.contains(l)));
    }
    assert!(
        seen.len() >= 15,
        "only {} pages found: {seen:?}",
        seen.len()
    );

    // Every POST form carries the page's token.
    let (with, without): (Vec<Form>, Vec<Form>) = forms
        .into_iter()
        .partition(|f| f.fields.iter().any(|(k, v)| k == "einmal" && v.len() == 32));
    let without: Vec<_> = without
        .iter()
        .filter(|f| f.action != "/logout")
        .map(|f| format!("{} on {}", f.action, f.page))
        .collect();
    assert!(without.is_empty(), "forms without a token: {without:#?}");
    let (mut forms, ends): (Vec<Form>, Vec<Form>) = with.into_iter().partition(|f| !last(f));
    forms.extend(ends);

    let mut carried_out = 0;
    for f in &forms {
        let before = stored(&t).await;
        let first = t.post_fields(&f.action, &f.fields, Some(&admin)).await;
        let after_first = stored(&t).await;
        let second = t.post_fields(&f.action, &f.fields, Some(&admin)).await;
        let after_second = stored(&t).await;
        let what = format!("{} from {} {:?}", f.action, f.page, f.fields);
        assert!(
            !first.status.is_server_error() && !second.status.is_server_error(),
            "{what}: {} / {}",
            first.status,
            second.status
        );
        assert_eq!(
            after_first, after_second,
            "{what}: the second send stored something"
        );
        if first.status == StatusCode::SEE_OTHER {
            assert_eq!(second.status, StatusCode::SEE_OTHER, "{what}");
            assert_eq!(first.location(), second.location(), "{what}");
            if before != after_first {
                carried_out += 1;
                let page = t.get(second.location().unwrap(), Some(&admin)).await;
                assert!(page.body.contains("Schon gespeichert"), "{what}: no note");
            }
        } else if first.status.is_success() {
            // A page shown once (a reset link): the same page again, nothing new stored.
            assert_eq!(second.status, first.status, "{what}");
            assert_eq!(
                second.body, first.body,
                "{what}: another page the second time"
            );
            if before != after_first {
                carried_out += 1;
            }
        } else {
            assert_eq!(before, after_first, "{what}: {} but stored", first.status);
        }
    }
    eprintln!(
        "{} pages, {} forms, {} carried out once and refused the second time",
        seen.len(),
        forms.len(),
        carried_out
    );
    assert!(
        carried_out >= 8,
        "only {carried_out} forms changed anything"
    );
}

#[tokio::test]
async fn a_form_sent_again_with_a_new_page_token_is_carried_out_again() {
    // The guard keys on the page's token: the same fine booked from a freshly loaded page is a
    // second fine (what a secretary means when he books it again on purpose, with the box).
    let t = TestApp::small_season().await;
    let admin = t.login(ADMIN).await;
    let count = |t: &TestApp| {
        let db = t.db.read.clone();
        async move {
            let (n,): (i64,) = sqlx::query_as("select count(*) from fines")
                .fetch_one(&db)
                .await
                .unwrap();
            n
        }
    };
    let page = t.get("/verwaltung/saison/2026/strafen", Some(&admin)).await;
    let doc = Html::parse_document(&page.body);
    let form = doc
        .select(&sel("form"))
        .map(|f| {
            (
                f.value().attr("action").unwrap_or("").to_string(),
                fields_of(f),
            )
        })
        .find(|(a, _)| a.ends_with("/strafe"))
        .expect("a fine form on the Strafen page");
    drop(doc);
    let n0 = count(&t).await;
    let r = t.post_fields(&form.0, &form.1, Some(&admin)).await;
    assert_eq!(r.status, StatusCode::SEE_OTHER, "{}", r.body);
    t.post_fields(&form.0, &form.1, Some(&admin)).await;
    assert_eq!(count(&t).await, n0 + 1);
    let fresh = form
        .1
        .iter()
        .map(|(k, v)| {
            if k == "einmal" {
                (k.clone(), "f".repeat(32))
            } else {
                (k.clone(), v.clone())
            }
        })
        .chain([("again".to_string(), "1".to_string())])
        .collect::<Vec<_>>();
    let r = t.post_fields(&form.0, &fresh, Some(&admin)).await;
    assert_eq!(r.status, StatusCode::SEE_OTHER, "{}", r.body);
    assert_eq!(count(&t).await, n0 + 2);

    // A double tap: both sends at once, the second waits for the first and books nothing.
    let tap = fresh
        .iter()
        .map(|(k, v)| {
            if k == "einmal" {
                (k.clone(), "a".repeat(32))
            } else {
                (k.clone(), v.clone())
            }
        })
        .collect::<Vec<_>>();
    let (a, b) = tokio::join!(
        t.post_fields(&form.0, &tap, Some(&admin)),
        t.post_fields(&form.0, &tap, Some(&admin))
    );
    assert_eq!(
        (a.status, b.status),
        (StatusCode::SEE_OTHER, StatusCode::SEE_OTHER)
    );
    assert_eq!(a.location(), b.location());
    assert_eq!(count(&t).await, n0 + 3);
}

/// The template files under `templates/` (path relative to it, text), sorted.
fn templates() -> Vec<(String, String)> {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("templates");
    let mut out = Vec::new();
    let mut dirs = vec![root.clone()];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                dirs.push(path);
            } else if path.extension().is_some_and(|e| e == "html") {
                let name = path.strip_prefix(&root).unwrap().display().to_string();
                out.push((name, std::fs::read_to_string(&path).unwrap()));
            }
        }
    }
    out.sort();
    out
}

/// The one-time token and the refusal box are template pieces of the kit (issue 33.6): a form
/// takes `{% include "kit/einmal.html" %}`, a page after a refused form
/// `{% call kit::refusal(error, …) %}`, so that their markup is written in one place each.
#[test]
fn the_token_and_the_refusal_box_are_written_once_in_the_kit() {
    let all = templates();
    assert!(all.len() > 40, "{}", all.len());
    let spelled: Vec<&str> = all
        .iter()
        .filter(|(name, text)| name != "kit/einmal.html" && text.contains("name=\"einmal\""))
        .map(|(name, _)| name.as_str())
        .collect();
    assert_eq!(
        spelled,
        Vec::<&str>::new(),
        "the token outside kit/einmal.html"
    );
    let boxes: Vec<&str> = all
        .iter()
        .filter(|(name, text)| {
            name != "kit/refusal.html" && text.contains("id=\"fehler\" role=\"alert\"")
        })
        .map(|(name, _)| name.as_str())
        .collect();
    assert_eq!(
        boxes,
        Vec::<&str>::new(),
        "the refusal box outside kit/refusal.html"
    );
    let uses = all
        .iter()
        .map(|(_, text)| text.matches("{% include \"kit/einmal.html\" %}").count())
        .sum::<usize>();
    assert!(uses >= 60, "{uses} forms with the token");
}
