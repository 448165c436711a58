//! Secretary pages for seasons and players (issue item 3): create a season (its rule set shown,
//! defaults by year), add and rename players, record a Jahresbeitrag by its payment date (the
//! amount follows from the date, league.md §5). Every submission is one checked transaction.

use askama::Template;
use askama_web::WebTemplate;
use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Redirect, Response};
use axum::routing::{get, post};
use axum::{Form, Router};
use chrono::{Datelike, NaiveDate};
use serde::Deserialize;
use serde_json::{json, Map, Value};
use sqlx::SqliteConnection;

use super::entry::check_change;
use super::{de_date, AppError, AppState};
use crate::auth::{CurrentUser, RequireAdmin, RequireSecretary};
use crate::db;
use crate::league::file::{PlayerEntry, SeasonFile, FORMAT};
use crate::league::rules::SeasonRules;
use crate::league::{self, Season};

/// The routes of this feature.
pub fn router() -> Router<AppState> {
    Router::new()
        .route("/verwaltung", get(overview))
        .route("/verwaltung/saison", post(create_season))
        .route("/verwaltung/saison/{year}", get(season_page))
        .route("/verwaltung/saison/{year}/spieler", post(add_player))
        .route(
            "/verwaltung/saison/{year}/spieler/{id}/name",
            post(rename_player),
        )
        .route(
            "/verwaltung/saison/{year}/spieler/{id}/beitrag",
            post(record_fee),
        )
        .route("/verwaltung/saison/{year}/abend", post(create_night))
        .route("/verwaltung/saison/{year}/loeschen", post(delete_season))
}

/// One rule of a season, for display: field name and JSON value.
pub struct RuleLine {
    /// The field name of `SeasonRules` (league.md §10).
    pub field: String,
    /// Its value as JSON text.
    pub value: String,
}

/// The rules of `rules` as display lines, in field order.
fn rule_lines(rules: &SeasonRules) -> Vec<RuleLine> {
    match serde_json::to_value(rules) {
        Ok(Value::Object(m)) => m
            .into_iter()
            .map(|(field, v)| RuleLine {
                field,
                value: v.to_string(),
            })
            .collect(),
        _ => Vec::new(),
    }
}

/// The overview: seasons and the form for a new one.
#[derive(Template, WebTemplate)]
#[template(path = "admin_overview.html")]
struct OverviewPage {
    user: Option<CurrentUser>,
    years: Vec<i32>,
    new_year: String,
    rules_text: String,
    defaults: Vec<RuleLine>,
    error: Option<String>,
}

/// The overview's query: the year whose default rules are shown.
#[derive(Deserialize)]
pub struct OverviewQuery {
    /// Season year for the new-season form.
    pub year: Option<i32>,
}

async fn overview(
    State(state): State<AppState>,
    RequireSecretary(user): RequireSecretary,
    Query(q): Query<OverviewQuery>,
) -> Result<OverviewPage, AppError> {
    let years = db::season::years(&state.read).await?;
    let year = q.year.unwrap_or_else(|| {
        let now = chrono::Local::now().year();
        if years.contains(&now) {
            now + 1
        } else {
            now
        }
    });
    Ok(OverviewPage {
        user: Some(user),
        years,
        new_year: year.to_string(),
        rules_text: "{}".to_string(),
        defaults: rule_lines(&SeasonRules::defaults_for(year)),
        error: None,
    })
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

async fn create_season(
    State(state): State<AppState>,
    RequireSecretary(user): RequireSecretary,
    Form(form): Form<NewSeasonForm>,
) -> Result<Response, AppError> {
    let mut tx = state.begin_write_as(&user).await?;
    let checked = match parse_new_season(&form) {
        Ok((year, rules)) => {
            let file = SeasonFile {
                format: FORMAT.to_string(),
                season: year,
                rules: rules.clone(),
                players: Vec::new(),
                nights: Vec::new(),
            };
            match Season::from_file(&file) {
                Err(e) => Err(e.to_string()),
                Ok(_) if db::season::get(&mut tx, year).await?.is_some() => {
                    Err(format!("Die Saison {year} gibt es schon."))
                }
                Ok(_) => Ok((year, rules)),
            }
        }
        Err(e) => Err(e),
    };
    let (year, rules) = match checked {
        Ok(v) => v,
        Err(error) => {
            let year = form
                .year
                .trim()
                .parse()
                .unwrap_or_else(|_| chrono::Local::now().year());
            let page = OverviewPage {
                user: Some(user),
                years: db::season::years(&state.read).await?,
                new_year: form.year,
                rules_text: form.rules,
                defaults: rule_lines(&SeasonRules::defaults_for(year)),
                error: Some(error),
            };
            return Ok((StatusCode::UNPROCESSABLE_ENTITY, page).into_response());
        }
    };
    db::season::create(&mut tx, year, &rules).await?;
    let after = json!({ "season": year, "rules": rules });
    db::audit::record(
        &mut tx,
        &user.username,
        "Saison angelegt",
        None,
        Some(&after),
    )
    .await?;
    tx.commit().await?;
    Ok(Redirect::to(&format!("/verwaltung/saison/{year}")).into_response())
}

/// A player line of the season page, with what the forms show.
pub struct PlayerLine {
    /// `players.id`.
    pub id: i64,
    /// Stored name.
    pub name: String,
    /// Value of the rename field (typed or stored).
    pub name_input: String,
    /// Fee status, German.
    pub fee: String,
    /// Value of the fee date field (typed or stored, `YYYY-MM-DD`).
    pub fee_input: String,
}

/// A night line of the season page.
pub struct NightLine {
    /// German date.
    pub date: String,
    /// ISO date (link).
    pub iso: String,
    /// Participants.
    pub participants: i64,
    /// Rounds entered.
    pub rounds: i64,
}

/// The season's admin page.
#[derive(Template, WebTemplate)]
#[template(path = "admin_season.html")]
struct SeasonPage {
    user: Option<CurrentUser>,
    year: i32,
    rules: Vec<RuleLine>,
    overrides: String,
    players: Vec<PlayerLine>,
    nights: Vec<NightLine>,
    new_player: String,
    new_night: String,
    /// An admin looks at a season without nights: the delete form is shown.
    can_delete: bool,
    error: Option<String>,
    /// Which form the error belongs to (anchor), e.g. "spieler-3".
    error_at: String,
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
}

async fn render_season(
    state: &AppState,
    user: CurrentUser,
    year: i32,
    typed: Typed,
) -> Result<SeasonPage, AppError> {
    let mut conn = state.read.acquire().await?;
    let row = db::season::get(&mut conn, year)
        .await?
        .ok_or(AppError::NotFound)?;
    let overrides = row.overrides()?;
    let rules = SeasonRules::with_overrides(year, &overrides).map_err(AppError::Internal)?;
    let players = db::player::of_season(&mut conn, year)
        .await?
        .into_iter()
        .map(|p| PlayerLine {
            id: p.id,
            name_input: match &typed.rename {
                Some((id, v)) if *id == p.id => v.clone(),
                _ => p.name.clone(),
            },
            fee: match (p.fee_paid_on, p.fee_cents) {
                (Some(d), Some(c)) => format!("{} am {}", league::format_cents(c), de_date(d)),
                _ => "offen".to_string(),
            },
            fee_input: match &typed.fee {
                Some((id, v)) if *id == p.id => v.clone(),
                _ => p.fee_paid_on.map(|d| d.to_string()).unwrap_or_default(),
            },
            name: p.name,
        })
        .collect();
    drop(conn);
    let nights: Vec<NightLine> = db::night::list(&state.read, year)
        .await?
        .into_iter()
        .map(|n| NightLine {
            date: de_date(n.date),
            iso: n.date.to_string(),
            participants: n.participants,
            rounds: n.rounds,
        })
        .collect();
    Ok(SeasonPage {
        can_delete: user.is_admin() && nights.is_empty(),
        user: Some(user),
        year,
        rules: rule_lines(&rules),
        overrides: Value::Object(overrides).to_string(),
        players,
        nights,
        new_player: typed.new_player.unwrap_or_default(),
        new_night: typed.new_night.unwrap_or_default(),
        error: typed.error,
        error_at: typed.error_at,
    })
}

async fn season_page(
    State(state): State<AppState>,
    RequireSecretary(user): RequireSecretary,
    Path(year): Path<i32>,
) -> Result<SeasonPage, AppError> {
    render_season(&state, user, year, Typed::default()).await
}

/// Re-renders the season page with a rejection (422).
async fn rejected(
    state: &AppState,
    user: CurrentUser,
    year: i32,
    typed: Typed,
) -> Result<Response, AppError> {
    let page = render_season(state, user, year, typed).await?;
    Ok((StatusCode::UNPROCESSABLE_ENTITY, page).into_response())
}

/// The form's message for an empty name (the season file's "(n. Spieler der Liste)" means nothing
/// in a form).
const EMPTY_NAME: &str = "Feld Name: Spielername darf nicht leer sein";

/// The add-player form.
#[derive(Deserialize)]
pub struct NameForm {
    /// The player's name.
    pub name: String,
}

/// The message for `name` when another player of the league (not `except`) has the same name up to
/// case and Unicode normalization (league-wide names, `league::name_key`); `None` when there is none
/// or the only one is spelled exactly alike (adding an existing player to a season reuses him).
async fn case_twin(
    tx: &mut SqliteConnection,
    name: &str,
    except: Option<i64>,
) -> Result<Option<String>, AppError> {
    let key = league::name_key(name);
    Ok(db::player::all(tx)
        .await?
        .into_iter()
        .find(|(id, other)| Some(*id) != except && other != name && league::name_key(other) == key)
        .map(|(_, other)| {
            format!("Spielername „{name}“ gibt es schon als „{other}“ (Groß-/Kleinschreibung)")
        }))
}

async fn add_player(
    State(state): State<AppState>,
    RequireSecretary(user): RequireSecretary,
    Path(year): Path<i32>,
    Form(form): Form<NameForm>,
) -> Result<Response, AppError> {
    let name = league::normalize_name(&form.name);
    let mut tx = state.begin_write_as(&user).await?;
    let twin = case_twin(&mut tx, &name, None).await?;
    let checked = match (name.is_empty(), twin) {
        (true, _) => Err(EMPTY_NAME.to_string()),
        (false, Some(e)) => Err(e),
        (false, None) => {
            check_change(&mut tx, year, |file| {
                file.players.push(PlayerEntry {
                    name: name.clone(),
                    fee_paid_on: None,
                });
                Ok(())
            })
            .await?
        }
    };
    if let Err(error) = checked {
        drop(tx);
        let typed = Typed {
            error: Some(error),
            error_at: "neuer-spieler".into(),
            new_player: Some(form.name),
            ..Typed::default()
        };
        return rejected(&state, user, year, typed).await;
    }
    // Audited by the players/season_players triggers, with who (begin_write_as).
    db::player::add_to_season(&mut tx, year, &name).await?;
    tx.commit().await?;
    Ok(Redirect::to(&format!("/verwaltung/saison/{year}#spieler")).into_response())
}

/// Renames `old` to `new` everywhere in the season file (players, results, fines).
fn rename_in_file(file: &mut SeasonFile, old: &str, new: &str) {
    for p in file.players.iter_mut().filter(|p| p.name == old) {
        p.name = new.to_string();
    }
    for n in &mut file.nights {
        for r in n.tables.iter_mut().flat_map(|t| t.rounds.iter_mut()) {
            for x in r.results.iter_mut().filter(|x| x.player == old) {
                x.player = new.to_string();
            }
        }
        for f in n.fines.iter_mut().filter(|f| f.player == old) {
            f.player = new.to_string();
        }
    }
}

async fn rename_player(
    State(state): State<AppState>,
    RequireSecretary(user): RequireSecretary,
    Path((year, id)): Path<(i32, i64)>,
    Form(form): Form<NameForm>,
) -> Result<Response, AppError> {
    let name = league::normalize_name(&form.name);
    let mut tx = state.begin_write_as(&user).await?;
    let (_, old) = db::player::by_id(&mut tx, id)
        .await?
        .ok_or(AppError::NotFound)?;
    let twin = case_twin(&mut tx, &name, Some(id)).await?;
    let taken = match db::player::by_name(&mut tx, &name).await? {
        _ if name.is_empty() => Some(EMPTY_NAME.to_string()),
        Some((other, _)) if other != id => Some(format!(
            "Den Namen „{name}“ trägt schon ein anderer Spieler der Liga."
        )),
        _ => twin,
    };
    // Names are league-wide: the new name must pass the checks of every season the player plays
    // in, and the season of the URL must be one of them (else the checks would be skipped).
    let seasons = db::player::seasons_of(&mut tx, id).await?;
    let mut checked = match taken {
        Some(e) => Err(e),
        None if !seasons.contains(&year) => Err(format!("{old} spielt nicht in der Saison {year}")),
        None => Ok(()),
    };
    for y in &seasons {
        if checked.is_err() {
            break;
        }
        checked = check_change(&mut tx, *y, |file| {
            rename_in_file(file, &old, &name);
            Ok(())
        })
        .await?
        .map(|_| ())
        .map_err(|e| {
            if *y == year {
                e
            } else {
                format!("Saison {y}: {e}")
            }
        });
    }
    if let Err(error) = checked {
        drop(tx);
        let typed = Typed {
            error: Some(error),
            error_at: format!("spieler-{id}"),
            rename: Some((id, form.name)),
            ..Typed::default()
        };
        return rejected(&state, user, year, typed).await;
    }
    // Audited by the players trigger (old and new name).
    db::player::rename(&mut tx, id, &name).await?;
    tx.commit().await?;
    Ok(Redirect::to(&format!("/verwaltung/saison/{year}#spieler-{id}")).into_response())
}

/// The fee form: the payment date (`YYYY-MM-DD`); an empty date is refused unless `delete` is
/// ticked, which removes a recorded fee.
#[derive(Deserialize)]
pub struct FeeForm {
    /// Payment date of the Jahresbeitrag.
    #[serde(default)]
    pub paid_on: String,
    /// Present when "Beitrag löschen" is ticked.
    pub delete: Option<String>,
}

async fn record_fee(
    State(state): State<AppState>,
    RequireSecretary(user): RequireSecretary,
    Path((year, id)): Path<(i32, i64)>,
    Form(form): Form<FeeForm>,
) -> Result<Response, AppError> {
    let text = form.paid_on.trim();
    let date = if form.delete.is_some() {
        Ok(None)
    } else if text.is_empty() {
        Err(
            "Beitragsdatum fehlt. Zum Löschen des Jahresbeitrags „Beitrag löschen“ ankreuzen."
                .to_string(),
        )
    } else {
        NaiveDate::parse_from_str(text, "%Y-%m-%d")
            .map(Some)
            .map_err(|_| format!("Zahldatum: \"{text}\" ist kein Datum"))
    };
    let mut tx = state.begin_write_as(&user).await?;
    let (_, name) = db::player::by_id(&mut tx, id)
        .await?
        .ok_or(AppError::NotFound)?;
    let checked = match date {
        Err(e) => Err(e),
        Ok(date) => check_change(&mut tx, year, |file| {
            let p = file
                .players
                .iter_mut()
                .find(|p| p.name == name)
                .ok_or_else(|| format!("{name} spielt nicht in der Saison {year}"))?;
            p.fee_paid_on = date;
            Ok(())
        })
        .await?
        .map(|(_, season)| (date, season)),
    };
    let (date, season) = match checked {
        Ok(v) => v,
        Err(error) => {
            drop(tx);
            let typed = Typed {
                error: Some(error),
                error_at: format!("spieler-{id}"),
                fee: Some((id, form.paid_on)),
                ..Typed::default()
            };
            return rejected(&state, user, year, typed).await;
        }
    };
    let fee = match date {
        Some(d) => Some((
            d,
            league::fee_cents(&season.rules, year, d).map_err(AppError::Internal)?,
        )),
        None => None,
    };
    // Audited by the season_players trigger (fee before and after).
    db::player::set_fee(&mut tx, year, id, fee).await?;
    tx.commit().await?;
    Ok(Redirect::to(&format!("/verwaltung/saison/{year}#spieler-{id}")).into_response())
}

/// The new-night form.
#[derive(Deserialize)]
pub struct NightForm {
    /// The night's date, `YYYY-MM-DD`.
    pub date: String,
}

async fn create_night(
    State(state): State<AppState>,
    RequireSecretary(user): RequireSecretary,
    Path(year): Path<i32>,
    Form(form): Form<NightForm>,
) -> Result<Response, AppError> {
    let text = form.date.trim();
    let mut tx = state.begin_write_as(&user).await?;
    let checked = match NaiveDate::parse_from_str(text, "%Y-%m-%d") {
        Err(_) => Err(format!("Datum: \"{text}\" ist kein Datum")),
        Ok(date) => match db::night::by_date(&mut tx, date).await? {
            Some(_) => Err(format!(
                "Am {} gibt es schon einen Spielabend.",
                de_date(date)
            )),
            None => check_change(&mut tx, year, |file| {
                file.nights.push(crate::league::file::NightEntry {
                    date,
                    tables: Vec::new(),
                    fines: Vec::new(),
                });
                Ok(())
            })
            .await?
            .map(|_| date),
        },
    };
    let date = match checked {
        Ok(d) => d,
        Err(error) => {
            drop(tx);
            let typed = Typed {
                error: Some(error),
                error_at: "neuer-abend".into(),
                new_night: Some(form.date),
                ..Typed::default()
            };
            return rejected(&state, user, year, typed).await;
        }
    };
    let id = db::night::create(&mut tx, year, date).await?;
    let after = json!({ "night_id": id, "season": year, "date": date });
    db::audit::record(
        &mut tx,
        &user.username,
        "Spielabend angelegt",
        None,
        Some(&after),
    )
    .await?;
    tx.commit().await?;
    Ok(Redirect::to(&format!("/verwaltung/abend/{date}")).into_response())
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
    State(state): State<AppState>,
    RequireAdmin(user): RequireAdmin,
    Path(year): Path<i32>,
    Form(form): Form<DeleteSeasonForm>,
) -> Result<Response, AppError> {
    let mut tx = state.begin_write_as(&user).await?;
    let row = db::season::get(&mut tx, year)
        .await?
        .ok_or(AppError::NotFound)?;
    let error = if form.confirm.is_none() {
        Some(format!(
            "Zum Löschen der Saison {year} „Saison wirklich löschen“ ankreuzen."
        ))
    } else if db::season::night_count(&mut tx, year).await? > 0 {
        Some(format!(
            "Die Saison {year} hat Spielabende und kann nicht gelöscht werden."
        ))
    } else {
        None
    };
    if let Some(error) = error {
        drop(tx);
        let typed = Typed {
            error: Some(error),
            error_at: "loeschen".into(),
            ..Typed::default()
        };
        return rejected(&state, user, year, typed).await;
    }
    let players: Vec<String> = db::player::of_season(&mut tx, year)
        .await?
        .into_iter()
        .map(|p| p.name)
        .collect();
    let before =
        json!({ "season": year, "rules": Value::Object(row.overrides()?), "players": players });
    if !db::season::delete_empty(&mut tx, year).await? {
        return Err(AppError::Internal(format!("Saison {year} nicht gelöscht")));
    }
    db::audit::record(
        &mut tx,
        &user.username,
        "Saison gelöscht",
        Some(&before),
        None,
    )
    .await?;
    tx.commit().await?;
    Ok(Redirect::to("/verwaltung").into_response())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn new_season_forms_parse_year_and_overrides() {
        let cases = [
            ("2027", "{}", Ok(0)),
            (" 2027 ", "", Ok(0)),
            ("2027", "{\"hand_out_points\": 1}", Ok(1)),
            ("zwanzig", "{}", Err("Jahr")),
            ("2027", "[1]", Err("JSON-Objekt")),
            ("2027", "{nope", Err("kein gültiges JSON")),
        ];
        for (year, rules, expected) in cases {
            let form = NewSeasonForm {
                year: year.into(),
                rules: rules.into(),
            };
            match (parse_new_season(&form), expected) {
                (Ok((y, m)), Ok(n)) => assert_eq!((y, m.len()), (2027, n)),
                (Err(e), Err(part)) => assert!(e.contains(part), "{e}"),
                (got, want) => panic!("{year} {rules}: {got:?} vs {want:?}"),
            }
        }
    }
}
