//! Secretary pages for seasons and players: create a season (its rule set shown, defaults by
//! year), add and rename players, record a Jahresbeitrag by its payment date (the amount follows
//! from the date, league.md §5), add a night, delete an empty season. Every submission is one
//! change through the write pipeline; a refused one shows the page again with what was typed.

pub mod doppelte;

use std::collections::BTreeMap;

use askama::Template;
use askama_web::WebTemplate;
use axum::extract::{Path, Query, State};
use axum::response::Response;
use axum::Form;

use chrono::{Datelike, NaiveDate};
use serde::Deserialize;
use serde_json::{Map, Value};

use crate::league::model::format::date_de;
use crate::league::model::rules::{late_fee_warning, proposed_season_year, SeasonRules};
use crate::league::plan::status::Status;
use crate::league::Change;
use crate::service::{Edit, League, SeasonView, ServiceError};
use crate::web::kit::session::{CurrentUser, RequireAdmin, RequireSecretary};
use crate::web::kit::{filters, AppError, AtSeason, Guard, Layout, Reply, Routes, Stored};
use crate::web::money::fee::{self, FeeForm};
use crate::web::public::abende::NightLine;

/// The routes of this feature.
pub fn routes() -> Routes {
    Routes::new()
        .get(Guard::Secretary, "/verwaltung", overview)
        .get(
            Guard::Secretary,
            "/verwaltung/spieler/doppelte",
            doppelte::get,
        )
        .post(Guard::Secretary, "/verwaltung/saison", create_season)
        .get(Guard::Secretary, "/verwaltung/saison/{year}", season_page)
        .post(
            Guard::Secretary,
            "/verwaltung/saison/{year}/spieler",
            add_player,
        )
        .post(
            Guard::Secretary,
            "/verwaltung/saison/{year}/spieler/{id}/name",
            rename_player,
        )
        .post(
            Guard::Secretary,
            "/verwaltung/saison/{year}/spieler/{id}/beitrag",
            record_fee,
        )
        .post(
            Guard::Secretary,
            "/verwaltung/saison/{year}/spieler/{id}/status",
            set_status,
        )
        .post(
            Guard::Secretary,
            "/verwaltung/saison/{year}/abend",
            create_night,
        )
        .post(
            Guard::Admin,
            "/verwaltung/saison/{year}/loeschen",
            delete_season,
        )
}

/// One rule of a season, for display: its German label and value.
pub struct RuleLine {
    /// The German label of the field (league.md §10), e.g. „Jahresbeitrag“.
    pub field: String,
    /// Its value as the rules form shows it („15,00 €“, „ja“, „30, 25, 20, 15, 10“).
    pub value: String,
}

/// The rules of `rules` as display lines in the order of the rules form, German labels.
fn rule_lines(rules: &SeasonRules) -> Vec<RuleLine> {
    crate::web::admin::saisonregeln::FIELDS
        .iter()
        .map(|(name, label, _, _)| {
            let (value, flag) = crate::web::admin::saisonregeln::shown(rules, name);
            RuleLine {
                field: (*label).to_string(),
                value: match *name {
                    "julen_carry_across_seasons" => if flag { "ja" } else { "nein" }.to_string(),
                    "joker_multiplier" if value.is_empty() => "kein Joker".to_string(),
                    "game" => crate::web::admin::saisonregeln::game_title(&rules.game),
                    _ => value,
                },
            }
        })
        .collect()
}

/// The German labels of the fields `overrides` sets (league.md §10), comma-separated; „keine“
/// when it sets none.
fn override_labels(overrides: &serde_json::Map<String, Value>) -> String {
    let labels: Vec<&str> = crate::web::admin::saisonregeln::FIELDS
        .iter()
        .filter(|(name, ..)| overrides.contains_key(*name))
        .map(|(_, label, ..)| *label)
        .collect();
    if labels.is_empty() {
        "keine".to_string()
    } else {
        labels.join(", ")
    }
}

/// The overview: seasons and the form for a new one.
#[derive(Template, WebTemplate)]
#[template(path = "admin/overview.html")]
struct OverviewPage {
    layout: Layout,
    years: Vec<i32>,
    new_year: String,
    rules_text: String,
    defaults: Vec<RuleLine>,
    error: Option<String>,
    /// A season of the shown year takes no Jahresbeitrag any more (issue 21.13).
    warning: Option<String>,
}

/// The overview's query: the year whose default rules are shown.
#[derive(Deserialize)]
pub struct OverviewQuery {
    /// Season year for the new-season form.
    pub year: Option<i32>,
}

async fn overview(
    State(league): State<League>,
    layout: Layout,
    Query(q): Query<OverviewQuery>,
) -> OverviewPage {
    let years = league.snapshot().years();
    let year = q
        .year
        .unwrap_or_else(|| proposed_season_year(layout.today, &years));
    let defaults = SeasonRules::defaults_for(year);
    OverviewPage {
        warning: late_fee_warning(year, &defaults, layout.today),
        years,
        new_year: year.to_string(),
        rules_text: "{}".to_string(),
        defaults: rule_lines(&defaults),
        error: None,
        layout,
    }
}

/// The new-season form.
#[derive(Deserialize)]
pub struct NewSeasonForm {
    /// The year, e.g. "2027".
    pub year: String,
    /// Overrides of the year's defaults as a JSON object (`{}` = all defaults).
    #[serde(default)]
    pub rules: String,
}

/// Parses the new-season form into (year, overrides); errors are German.
fn parse_new_season(form: &NewSeasonForm) -> Result<(i32, Map<String, Value>), String> {
    let year: i32 = form
        .year
        .trim()
        .parse()
        .map_err(|_| format!("Jahr: \"{}\" ist keine Jahreszahl", form.year.trim()))?;
    let text = form.rules.trim();
    let rules = if text.is_empty() {
        Map::new()
    } else {
        match serde_json::from_str::<Value>(text) {
            Ok(Value::Object(m)) => m,
            Ok(_) => {
                return Err("Regeln: erwartet ein JSON-Objekt wie {\"hand_out_points\": 2}".into())
            }
            Err(e) => return Err(format!("Regeln: kein gültiges JSON ({e})")),
        }
    };
    Ok((year, rules))
}

/// `POST /verwaltung/saison`: a new season with the year's default rules and the typed
/// overrides; refused → the overview again with what was typed.
async fn create_season(
    reply: Reply,
    RequireSecretary(user): RequireSecretary,
    Form(form): Form<NewSeasonForm>,
) -> Result<Response, AppError> {
    let created = match parse_new_season(&form) {
        Ok((year, rules)) => reply
            .league
            .create_season(year, rules, &Edit::by(&user.username))
            .await
            .map(|_| year),
        Err(e) => Err(ServiceError::refused(e)),
    };
    let league = reply.league.clone();
    let stored = |year| {
        Stored::at(
            format!("/verwaltung/saison/{year}"),
            format!("Saison {year} angelegt."),
        )
    };
    reply
        .finish(created, stored, async |refusal, layout| {
            let year = form
                .year
                .trim()
                .parse()
                .unwrap_or_else(|_| layout.today.year());
            let defaults = SeasonRules::defaults_for(year);
            Ok(OverviewPage {
                warning: late_fee_warning(year, &defaults, layout.today),
                years: league.snapshot().years(),
                new_year: form.year,
                rules_text: form.rules,
                defaults: rule_lines(&defaults),
                error: Some(refusal.to_string()),
                layout,
            })
        })
        .await
}

/// A player line of the season page, with what the forms show.
pub struct PlayerLine {
    /// `players.id`.
    pub id: i64,
    /// Stored name.
    pub name: String,
    /// Value of the rename field (typed or stored).
    pub name_input: String,
    /// Payment date and amount of the Jahresbeitrag, if recorded.
    pub fee: Option<(NaiveDate, i64)>,
    /// Value of the fee date field (typed or stored, `YYYY-MM-DD`).
    pub fee_input: String,
    /// His status in the season as the form shows it (typed or stored): „aktiv“, „pausiert“,
    /// „ausgetreten“, and the day of leaving (`YYYY-MM-DD` or empty).
    pub status: (String, String),
    /// The stored status in German („ausgetreten am 30.06.2026“).
    pub status_shown: String,
}

/// The season's admin page.
#[derive(Template, WebTemplate)]
#[template(path = "admin/season.html")]
struct SeasonPage {
    layout: Layout,
    year: i32,
    rules: Vec<RuleLine>,
    overrides: String,
    players: Vec<PlayerLine>,
    nights: Vec<NightLine>,
    new_player: String,
    new_night: String,
    /// An admin looks at a season without nights: the delete form is shown.
    can_delete: bool,
    /// An admin looks: each player links his Verwaltung page (merge, split).
    admin: bool,
    error: Option<String>,
    /// Which form the error belongs to (anchor), e.g. "spieler-3".
    error_at: String,
    /// The days a Jahresbeitrag may be dated (league.md §5): 1 January to the last day of the
    /// last join month.
    fee_from: NaiveDate,
    fee_until: NaiveDate,
    /// Today is past `fee_until` of this year's (or a later) season: no fee can be booked any
    /// more (issue 21.13).
    warning: Option<String>,
}

/// What a rejected form typed, to show it again.
#[derive(Default)]
struct Typed {
    error: Option<String>,
    error_at: String,
    new_player: Option<String>,
    new_night: Option<String>,
    rename: Option<(i64, String)>,
    fee: Option<(i64, String)>,
    /// A refused status form: player id, status and day as typed.
    status: Option<(i64, String, String)>,
    /// The stored statuses of the season (issue 36.4), read before rendering.
    statuses: BTreeMap<i64, Status>,
}

fn render_season(layout: Layout, view: &SeasonView, typed: Typed) -> SeasonPage {
    let season = &view.season;
    let year = season.year;
    let (fee_from, fee_until) = season.rules.fee_window(year);
    let today = layout.today;
    // A new payment is dated today when a Jahresbeitrag is accepted today; else the field
    // stays empty for the real day of payment (a booking after September would be refused).
    let fee_default = if (fee_from..=fee_until).contains(&today) {
        today.to_string()
    } else {
        String::new()
    };
    let players = season
        .players
        .iter()
        .map(|p| {
            let id = view.ids.players.get(&p.name).copied().unwrap_or_default();
            PlayerLine {
                id,
                name_input: match &typed.rename {
                    Some((i, v)) if *i == id => v.clone(),
                    _ => p.name.clone(),
                },
                fee: p.fee_paid_on.map(|d| (d, p.fee_cents)),
                fee_input: match &typed.fee {
                    Some((i, v)) if *i == id => v.clone(),
                    // bezahlt am: the stored day, else today when still accepted (editable).
                    _ => p
                        .fee_paid_on
                        .map_or_else(|| fee_default.clone(), |d| d.to_string()),
                },
                status: match &typed.status {
                    Some((i, kind, day)) if *i == id => (kind.clone(), day.clone()),
                    _ => {
                        let s = typed.statuses.get(&id).copied().unwrap_or_default();
                        (
                            s.code().to_string(),
                            s.day().map(|d| d.to_string()).unwrap_or_default(),
                        )
                    }
                },
                status_shown: typed
                    .statuses
                    .get(&id)
                    .copied()
                    .unwrap_or_default()
                    .german(),
                name: p.name.clone(),
            }
        })
        .collect();
    let nights = NightLine::of_season(season);
    SeasonPage {
        can_delete: layout.user.as_ref().is_some_and(CurrentUser::is_admin) && nights.is_empty(),
        admin: layout.user.as_ref().is_some_and(CurrentUser::is_admin),
        layout,
        year,
        rules: rule_lines(&season.rules),
        overrides: override_labels(&season.rules.overrides(year)),
        players,
        nights,
        fee_from,
        fee_until,
        warning: late_fee_warning(year, &season.rules, today),
        new_player: typed.new_player.unwrap_or_default(),
        // Tonight, when the season is this year's (the usual case at the bar).
        new_night: typed.new_night.unwrap_or_else(|| {
            if chrono::Datelike::year(&today) == year {
                today.to_string()
            } else {
                String::new()
            }
        }),
        error: typed.error,
        error_at: typed.error_at,
    }
}

async fn season_page(
    State(league): State<League>,
    layout: Layout,
    at: AtSeason,
) -> Result<SeasonPage, AppError> {
    let typed = Typed {
        statuses: league.statuses(at.year()).await?,
        ..Typed::default()
    };
    Ok(render_season(layout, &at.view, typed))
}

/// Ends a form of the season page: stored → `to` with the change's message; refused → the season page again
/// (422) with the reason and what was typed; a fault → the error page.
async fn end(
    reply: Reply,
    year: i32,
    done: Result<String, ServiceError>,
    to: String,
    typed: Typed,
) -> Result<Response, AppError> {
    let typed = Typed {
        statuses: reply.league.statuses(year).await?,
        ..typed
    };
    reply
        .finish_season(year, done, to, |layout, view, reason| {
            let typed = Typed {
                error: Some(reason),
                ..typed
            };
            render_season(layout, view, typed)
        })
        .await
}

/// The add-player and rename forms.
#[derive(Deserialize)]
pub struct NameForm {
    /// The player's name.
    pub name: String,
}

async fn add_player(
    reply: Reply,
    RequireSecretary(user): RequireSecretary,
    at: AtSeason,
    Form(form): Form<NameForm>,
) -> Result<Response, AppError> {
    let year = at.year();
    let done = reply
        .league
        .add_player(year, &form.name, &Edit::by(&user.username))
        .await
        .map(|(_, name)| format!("{name} ist Spieler der Saison {year}."));
    let typed = Typed {
        error_at: "neuer-spieler".into(),
        new_player: Some(form.name),
        ..Typed::default()
    };
    let to = format!("/verwaltung/saison/{year}#spieler");
    end(reply, year, done, to, typed).await
}

async fn rename_player(
    reply: Reply,
    RequireSecretary(user): RequireSecretary,
    at: AtSeason,
    Path((_, id)): Path<(i32, i64)>,
    Form(form): Form<NameForm>,
) -> Result<Response, AppError> {
    let year = at.year();
    let done = reply
        .league
        .rename_player(year, id, &form.name, &Edit::by(&user.username))
        .await;
    let message = crate::league::model::format::sentence_end(&format!(
        "Umbenannt in {}",
        crate::league::normalize_name(&form.name)
    ));
    let typed = Typed {
        error_at: format!("spieler-{id}"),
        rename: Some((id, form.name)),
        ..Typed::default()
    };
    let to = format!("/verwaltung/saison/{year}#spieler-{id}");
    end(reply, year, done.map(|_| message), to, typed).await
}

/// The status form of a player (issue 36.4).
#[derive(Deserialize)]
pub struct StatusForm {
    /// „aktiv“, „pausiert“ or „ausgetreten“.
    pub status: String,
    /// The day of leaving (`YYYY-MM-DD`), needed for „ausgetreten“.
    #[serde(default)]
    pub day: String,
}

/// `POST /verwaltung/saison/{year}/spieler/{id}/status`: player `id`'s status in the season
/// ([`League::set_status`]); refused → the page again with what was typed, nothing stored.
async fn set_status(
    reply: Reply,
    RequireSecretary(user): RequireSecretary,
    at: AtSeason,
    Path((_, id)): Path<(i32, i64)>,
    Form(form): Form<StatusForm>,
) -> Result<Response, AppError> {
    let year = at.year();
    let done = match Status::parse(&form.status, &form.day) {
        Ok(status) => reply
            .league
            .set_status(year, id, status, &user.username)
            .await
            .map(|name| format!("{name}: {} in der Saison {year}.", status.german())),
        Err(e) => Err(ServiceError::refused(e)),
    };
    let typed = Typed {
        error_at: format!("spieler-{id}"),
        status: Some((id, form.status, form.day)),
        ..Typed::default()
    };
    let to = format!("/verwaltung/saison/{year}#spieler-{id}");
    end(reply, year, done, to, typed).await
}

/// `POST /verwaltung/saison/{year}/spieler/{id}/beitrag`: player `id`'s Jahresbeitrag by its
/// payment date, or deleted ([`fee::book`], as from the payments page).
async fn record_fee(
    reply: Reply,
    RequireSecretary(user): RequireSecretary,
    at: AtSeason,
    Path((_, id)): Path<(i32, i64)>,
    Form(form): Form<FeeForm>,
) -> Result<Response, AppError> {
    let year = at.year();
    let player = at.player(id)?;
    let done = fee::book(&reply.league, year, &player, &form, &user.username).await;
    let typed = Typed {
        error_at: format!("spieler-{id}"),
        fee: Some((id, form.paid_on)),
        ..Typed::default()
    };
    let to = format!("/verwaltung/saison/{year}#spieler-{id}");
    end(reply, year, done, to, typed).await
}

/// The new-night form.
#[derive(Deserialize)]
pub struct NightForm {
    /// The night's date, `YYYY-MM-DD`.
    pub date: String,
}

async fn create_night(
    reply: Reply,
    RequireSecretary(user): RequireSecretary,
    at: AtSeason,
    Form(form): Form<NightForm>,
) -> Result<Response, AppError> {
    let year = at.year();
    let text = form.date.trim();
    let parsed = NaiveDate::parse_from_str(text, "%Y-%m-%d");
    let done = match parsed {
        Err(_) => Err(ServiceError::refused(format!(
            "Datum: \"{text}\" ist kein Datum"
        ))),
        Ok(date) => reply
            .league
            .change(year, Change::AddNight { date }, &Edit::by(&user.username))
            .await
            .map(|_| ()),
    };
    let (to, message) = match parsed {
        Ok(date) => (
            format!("/verwaltung/abend/{date}"),
            format!("Spielabend {} angelegt.", date_de(date)),
        ),
        Err(_) => (String::new(), String::new()),
    };
    let typed = Typed {
        error_at: "neuer-abend".into(),
        new_night: Some(form.date.clone()),
        ..Typed::default()
    };
    end(reply, year, done.map(|_| message), to, typed).await
}

/// The delete-season form: the confirm box must be ticked.
#[derive(Deserialize)]
pub struct DeleteSeasonForm {
    /// Present when "Saison wirklich löschen" is ticked.
    pub confirm: Option<String>,
}

/// Deletes a season without nights (an admin only, confirm box ticked, audited with the season's
/// rules and player list); a season with nights is refused (422).
async fn delete_season(
    reply: Reply,
    RequireAdmin(user): RequireAdmin,
    at: AtSeason,
    Form(form): Form<DeleteSeasonForm>,
) -> Result<Response, AppError> {
    let year = at.year();
    let done = if form.confirm.is_none() {
        Err(ServiceError::refused(format!(
            "Zum Löschen der Saison {year} „Saison wirklich löschen“ ankreuzen."
        )))
    } else {
        reply
            .league
            .delete_season(year, &Edit::by(&user.username))
            .await
    };
    let typed = Typed {
        error_at: "loeschen".into(),
        ..Typed::default()
    };
    let message = format!("Saison {year} gelöscht.");
    let to = "/verwaltung".to_string();
    end(reply, year, done.map(|_| message), to, typed).await
}

#[cfg(test)]
mod tests;
