//! The players' own cards in the Verwaltung (issue 27, SECURITY.md "Player cards"):
//! `/verwaltung/saison/{year}/karten` lists the season's players with their open sum, whether a
//! card link works (since when, by whom) and the last reminder; a link is made (an older one stops
//! working) and shown once with its QR code and a WhatsApp button, or revoked; "Erinnern" makes
//! the reminder for the club's chat (the German open sum, the day to pay by; his card link stays,
//! a new one only when he has none or "mit neuem Link" is ticked), shown once with the WhatsApp
//! button that sends it, and records "erinnert am". Only the
//! SHA-256 of a token is stored, so a link cannot be shown again later.

use std::collections::BTreeMap;

use askama::Template;
use askama_web::WebTemplate;
use axum::extract::{Path, State};
use axum::response::Response;
use axum::Form;
use chrono::{Duration, NaiveDate};
use serde::Deserialize;
use tower_sessions::Session;

use crate::league::model::format::date_de;
use crate::league::{format_cents, money::items, money::reminder};
use crate::service::card::card_path;
use crate::service::{SeasonView, ServiceError};
use crate::web::kit::links::{self, PublicAddress};
use crate::web::kit::session::RequireMoney;
use crate::web::kit::{AppError, AtSeason, Layout, Reply, Stored};

/// The session key of the link just made, shown once: `year|player id|token|reminder text`.
const SHOW_ONCE_KEY: &str = "card_link_once";

/// Days a reminder gives to pay by default.
pub const DUE_DAYS: i64 = 14;

/// One player on the cards page.
pub struct CardLine {
    /// `players.id`.
    pub id: i64,
    /// Name.
    pub name: String,
    /// Σ open today ("3,00 €"); empty when nothing is open.
    pub open_sum: String,
    /// "seit 02.12.2026 (anna)" while a link works; `None` without one.
    pub link: Option<String>,
    /// "erinnert am 02.12.2026 an 3,00 €, bis 16.12.2026"; `None` without a reminder.
    pub reminded: Option<String>,
    /// The due-date field (typed, or today + [`DUE_DAYS`]).
    pub due_input: String,
}

/// The cards page of a season.
#[derive(Template, WebTemplate)]
#[template(path = "money/karten.html")]
pub struct CardsPage {
    layout: Layout,
    year: i32,
    players: Vec<CardLine>,
    error: Option<String>,
    /// The player line the error belongs to (`karte-{id}`).
    error_at: String,
    /// The club has no account set: the cards show no GiroCode (fresh-user trial: nothing said
    /// why).
    no_girocode: bool,
}

/// `2026-12-02T10:00:00Z` → `02.12.2026`; anything else as it is.
fn day_of(stamp: &str) -> String {
    stamp
        .get(..10)
        .and_then(|d| d.parse::<NaiveDate>().ok())
        .map_or_else(|| stamp.to_string(), date_de)
}

/// The cards page of `view` with the working links `active` ((player id, since, by)), the last
/// `reminded` ((player id, on, due, cents)), the typed due date `typed` ((player id, text)) and
/// `error` at player `typed.0`'s line; `no_girocode` when the club has no account set.
fn render(
    layout: Layout,
    view: &SeasonView,
    active: &BTreeMap<i64, (String, String)>,
    reminded: &BTreeMap<i64, (NaiveDate, NaiveDate, i64)>,
    typed: Option<(i64, String)>,
    error: Option<String>,
    no_girocode: bool,
) -> CardsPage {
    let today = layout.today;
    let mut players: Vec<CardLine> = view
        .season
        .players
        .iter()
        .filter_map(|p| {
            let id = view.ids.players.get(&p.name).copied()?;
            let open = items::account(&view.season, &p.name, today).map_or(0, |a| a.open_cents);
            Some(CardLine {
                id,
                name: p.name.clone(),
                open_sum: if open > 0 {
                    format_cents(open)
                } else {
                    String::new()
                },
                link: active
                    .get(&id)
                    .map(|(at, by)| format!("seit {} ({by})", day_of(at))),
                reminded: reminded.get(&id).map(|(on, due, cents)| {
                    format!(
                        "erinnert am {} an {}, bis {}",
                        date_de(*on),
                        format_cents(*cents),
                        date_de(*due)
                    )
                }),
                due_input: match &typed {
                    Some((t, text)) if *t == id => text.clone(),
                    _ => (today + Duration::days(DUE_DAYS)).to_string(),
                },
            })
        })
        .collect();
    // The debtors first (the Kassenwart reminds them), then by name.
    players.sort_by(|a, b| {
        (a.open_sum.is_empty(), crate::league::name_key(&a.name))
            .cmp(&(b.open_sum.is_empty(), crate::league::name_key(&b.name)))
    });
    CardsPage {
        no_girocode,
        layout,
        year: view.season.year,
        players,
        error_at: match (&error, &typed) {
            (Some(_), Some((id, _))) => format!("karte-{id}"),
            _ => String::new(),
        },
        error,
    }
}

/// The cards page of `at`'s season as it is now, with `typed` and `error` ([`render`]).
async fn page_now(
    reply_league: &crate::service::League,
    layout: Layout,
    year: i32,
    typed: Option<(i64, String)>,
    error: Option<String>,
) -> Result<CardsPage, AppError> {
    let active = reply_league
        .card_links()
        .await?
        .into_iter()
        .map(|s| (s.player_id, (s.created_at, s.created_by)))
        .collect();
    let reminded = reply_league
        .reminders(year)
        .await?
        .into_iter()
        .map(|(id, on, due, cents)| (id, (on, due, cents)))
        .collect();
    let snapshot = reply_league.snapshot();
    let view = snapshot.season(year)?;
    let no_girocode = snapshot.settings.iban.is_empty();
    Ok(render(
        layout,
        view,
        &active,
        &reminded,
        typed,
        error,
        no_girocode,
    ))
}

/// `GET /verwaltung/saison/{year}/karten`: the season's players and their cards.
pub async fn get(
    State(league): State<crate::service::League>,
    layout: Layout,
    at: AtSeason,
) -> Result<CardsPage, AppError> {
    page_now(&league, layout, at.year(), None, None).await
}

/// Ends a form of the cards page: stored → `stored(value)`'s redirect with its message; refused
/// → the cards page again (422) with the reason and the typed due day `typed`.
async fn end<T>(
    reply: Reply,
    year: i32,
    done: Result<T, ServiceError>,
    stored: impl FnOnce(T) -> Stored,
    typed: Option<(i64, String)>,
) -> Result<Response, AppError> {
    let league = reply.league.clone();
    reply
        .finish(done, stored, async |refusal, layout| {
            page_now(&league, layout, year, typed, Some(refusal.to_string())).await
        })
        .await
}

/// The forms without fields of their own (the `einmal` token only).
#[derive(Deserialize)]
pub struct PlainForm {}

/// `POST /verwaltung/saison/{year}/karten/{id}/link`: makes player `id`'s card link (his older one
/// stops working) and shows it once.
pub async fn create(
    reply: Reply,
    RequireMoney(user): RequireMoney,
    session: Session,
    at: AtSeason,
    Path((_, id)): Path<(i32, i64)>,
    Form(_): Form<PlainForm>,
) -> Result<Response, AppError> {
    let year = at.year();
    let name = at.player(id)?;
    let had_one = reply
        .league
        .card_links()
        .await?
        .iter()
        .any(|s| s.player_id == id);
    let done = reply.league.create_card_link(id, &user.username).await;
    let done = match done {
        Ok((_, token)) => {
            keep_once(&session, year, id, &token, had_one, "").await?;
            Ok(())
        }
        Err(e) => Err(e),
    };
    let stored = |()| {
        Stored::at(
            format!("/verwaltung/saison/{year}/karten/{id}/link"),
            if had_one {
                format!("Neue Karte für {name} erstellt: der ältere Link gilt nicht mehr.")
            } else {
                format!("Karte für {name} erstellt.")
            },
        )
    };
    end(reply, year, done, stored, None).await
}

/// Keeps (year, player, token, reminder text) in the session for the one showing.
async fn keep_once(
    session: &Session,
    year: i32,
    id: i64,
    token: &str,
    replaced: bool,
    text: &str,
) -> Result<(), AppError> {
    let replaced = u8::from(replaced);
    session
        .insert(
            SHOW_ONCE_KEY,
            format!("{year}|{id}|{token}|{replaced}|{text}"),
        )
        .await
        .map_err(|e| AppError::Internal(e.to_string()))
}

/// `POST /verwaltung/saison/{year}/karten/{id}/widerrufen`: player `id`'s card link stops working.
pub async fn revoke(
    reply: Reply,
    RequireMoney(user): RequireMoney,
    at: AtSeason,
    Path((_, id)): Path<(i32, i64)>,
    Form(_): Form<PlainForm>,
) -> Result<Response, AppError> {
    let year = at.year();
    let name = at.player(id)?;
    let done = reply.league.revoke_card_link(id, &user.username).await;
    let stored = |was| {
        Stored::at(
            format!("/verwaltung/saison/{year}/karten#karte-{id}"),
            if was {
                format!("Die Karte von {name} gilt nicht mehr.")
            } else {
                format!("{name} hatte keinen gültigen Kartenlink.")
            },
        )
    };
    end(reply, year, done, stored, None).await
}

/// The reminder form: the day to pay by, and whether a new card link goes with it.
#[derive(Deserialize)]
pub struct RemindForm {
    /// `YYYY-MM-DD`.
    #[serde(default)]
    pub bis: String,
    /// Present when "mit neuem Link" is ticked: his working link is replaced by a new one in
    /// the text (issue 31.7: else it stays).
    #[serde(default)]
    pub neuer_link: Option<String>,
}

/// `POST /verwaltung/saison/{year}/karten/{id}/erinnern`: the reminder of player `id` (his open
/// sum, pay by `bis`; his card link stays, a new one only when he has none or `neuer_link` asks
/// for it), shown once with its WhatsApp button; records "erinnert am". Refused (German, the page
/// again with the typed day): nothing open, a day gone by or unreadable.
pub async fn remind(
    reply: Reply,
    RequireMoney(user): RequireMoney,
    session: Session,
    address: PublicAddress,
    at: AtSeason,
    Path((_, id)): Path<(i32, i64)>,
    Form(form): Form<RemindForm>,
) -> Result<Response, AppError> {
    let year = at.year();
    at.player(id)?;
    let typed = form.bis.trim().to_string();
    let due = crate::league::sheet::header::parse_date(&typed).ok_or_else(|| {
        ServiceError::refused(format!(
            "Zahlbar bis: „{}“ ist kein Datum (TT.MM.JJJJ).",
            typed.chars().take(20).collect::<String>()
        ))
    });
    // Whether he has a working link the reminder may replace (the page says so only then).
    let had_one = reply
        .league
        .card_links()
        .await?
        .iter()
        .any(|s| s.player_id == id);
    let done = match due {
        Err(e) => Err(e),
        Ok(due) => match reply
            .league
            .remind(year, id, due, form.neuer_link.is_some(), &user.username)
            .await
        {
            Err(e) => Err(e),
            Ok(r) => {
                let link = r.token.as_deref().map(|t| address.link(&card_path(t)));
                let settings = &reply.league.snapshot().settings;
                let pay = reminder::PayWith {
                    girocode: !settings.iban.is_empty(),
                    paypal: !settings.paypal_me.is_empty(),
                };
                let text = reminder::text(
                    &r.player,
                    &r.items,
                    r.open_cents,
                    r.due,
                    link.as_deref(),
                    pay,
                );
                let token = r.token.as_deref().unwrap_or_default();
                keep_once(&session, year, id, token, had_one, &text).await?;
                Ok(r.player)
            }
        },
    };
    let stored = |name| {
        Stored::at(
            format!("/verwaltung/saison/{year}/karten/{id}/link"),
            format!("Erinnerung für {name} bereit: jetzt per WhatsApp senden."),
        )
    };
    end(reply, year, done, stored, Some((id, typed))).await
}

/// The link (and reminder) just made, shown once.
#[derive(Template, WebTemplate)]
#[template(path = "money/karte_link.html")]
pub struct LinkPage {
    layout: Layout,
    year: i32,
    name: String,
    /// (address, QR code as SVG), only right after it was made.
    shown: Option<(String, String)>,
    /// The reminder's text, when the link was made for one.
    text: String,
    /// A working link was there before the one shown (it no longer works).
    replaced: bool,
    /// The WhatsApp link that sends the reminder, or the card link with a greeting.
    whatsapp: String,
}

/// `GET /verwaltung/saison/{year}/karten/{id}/link`: the card link just made for player `id`,
/// once, with its QR code and the WhatsApp button (the reminder's text when it was made for one);
/// never kept by a cache (`no-store`).
pub async fn show(
    layout: Layout,
    session: Session,
    address: PublicAddress,
    at: AtSeason,
    Path((_, id)): Path<(i32, i64)>,
) -> Result<Response, AppError> {
    let year = at.year();
    let name = at.player(id)?;
    let kept: Option<String> = session.remove(SHOW_ONCE_KEY).await.ok().flatten();
    let prefix = format!("{year}|{id}|");
    // The token is empty for a reminder that kept his link (issue 31.7); `replaced` says
    // whether a working link was there before the new one.
    let (token, replaced, text) = kept
        .as_deref()
        .and_then(|k| k.strip_prefix(&prefix))
        .and_then(|rest| rest.split_once('|'))
        .and_then(|(t, rest)| rest.split_once('|').map(|(r, text)| (t, r, text)))
        .map_or((None, false, String::new()), |(t, r, text)| {
            (
                (!t.is_empty()).then(|| t.to_string()),
                r == "1",
                text.to_string(),
            )
        });
    let shown = token.map(|t| {
        let url = address.link(&card_path(&t));
        let svg =
            crate::web::kit::qr::svg(&url, "linkcode", "QR-Code der Karte").unwrap_or_default();
        (url, svg)
    });
    let whatsapp = match (&shown, text.is_empty()) {
        (_, false) => reminder::whatsapp(&text),
        (Some((url, _)), true) => links::whatsapp(
            &format!(
                "Hallo {name}, deine Karte bei der Schockerliga (Stand, Kasse, nächster Abend):"
            ),
            url,
        ),
        (None, _) => String::new(),
    };
    Ok(links::no_store(LinkPage {
        layout,
        year,
        name,
        shown,
        text,
        replaced,
        whatsapp,
    }))
}
