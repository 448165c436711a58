//! A season of nights in one step (issue 38.1): `/verwaltung/termine/serie` takes the first and
//! last day, the rhythm ("wöchentlich", "alle 2 Wochen", "1. Freitag", "letzter Freitag"), start,
//! place and the days left out; "Zeigen" (a GET, nothing stored) lists every day with what the
//! series does with it, "Planen" (a POST) plans the new ones.

use askama::Template;
use askama_web::WebTemplate;
use axum::extract::{Query, State};
use axum::response::Response;
use axum::Form;
use serde::Deserialize;

use super::termine::parse_day;
use crate::league::model::format::{date_de, weekday_de};
use crate::league::plan::series::{parse_except, Rule};
use crate::service::planned::{SeriesInput, SeriesPlan};
use crate::service::{League, ServiceError};
use crate::web::kit::respond::{Reply, Stored};
use crate::web::kit::session::RequireSecretary;
use crate::web::kit::{AppError, Layout};

/// The series form as typed (every field text, kept when refused).
#[derive(Debug, Clone, Default, Deserialize)]
pub struct SeriesForm {
    /// The first day: `2027-01-08` or `08.01.2027`.
    #[serde(default)]
    pub von: String,
    /// The last day.
    #[serde(default)]
    pub bis: String,
    /// The rhythm: `wöchentlich`, `alle 2 Wochen`, `1. Freitag`, `letzter Freitag`, …
    #[serde(default)]
    pub rhythmus: String,
    /// The start: `19:30`; empty: the club's usual one.
    #[serde(default)]
    pub zeit: String,
    /// The place.
    #[serde(default)]
    pub ort: String,
    /// Days left out: `02.04.2027, 24.12.2027`.
    #[serde(default)]
    pub ausser: String,
}

/// One day of the list.
pub struct SeriesLine {
    /// "Freitag, 08.01.2027".
    pub day: String,
    /// "neu", "schon geplant", …
    pub state: &'static str,
    /// Planned new by the series.
    pub new: bool,
}

/// The page: the form, and after "Zeigen" the list with the button that plans it.
#[derive(Template, WebTemplate)]
#[template(path = "entry/serie.html")]
pub struct SeriePage {
    layout: Layout,
    error: Option<String>,
    typed: SeriesForm,
    default_time: String,
    /// The days of the series (empty before "Zeigen" or when refused).
    lines: Vec<SeriesLine>,
    /// How many of them are new.
    new: usize,
    /// "wöchentlich", "jeden 1. Freitag im Monat".
    rule: String,
}

/// The series `form` asks for; refused (German) naming the field.
fn input_of(form: &SeriesForm) -> Result<SeriesInput, ServiceError> {
    let from = parse_day(&form.von).map_err(|e| renamed(e, "Von"))?;
    let until = parse_day(&form.bis).map_err(|e| renamed(e, "Bis"))?;
    let rule = Rule::parse(&form.rhythmus).map_err(ServiceError::refused)?;
    let except = parse_except(&form.ausser).map_err(ServiceError::refused)?;
    Ok(SeriesInput {
        from,
        until,
        rule,
        except,
        time: Some(form.zeit.clone()),
        place: Some(form.ort.clone()),
    })
}

/// `e` (a refusal of [`parse_day`], which says "Datum") with the field's own name.
fn renamed(e: ServiceError, field: &str) -> ServiceError {
    ServiceError::refused(e.to_string().replacen("Datum", field, 1))
}

/// The page with `plan`'s days (if any) listed.
fn render(
    layout: Layout,
    league: &League,
    typed: SeriesForm,
    error: Option<String>,
    plan: Option<(&SeriesPlan, Rule)>,
) -> SeriePage {
    let lines: Vec<SeriesLine> = plan
        .map(|(p, _)| {
            p.days
                .iter()
                .map(|(d, s)| SeriesLine {
                    day: format!(
                        "{}, {}",
                        weekday_de(chrono::Datelike::weekday(d)),
                        date_de(*d)
                    ),
                    state: s.de(),
                    new: *s == crate::service::planned::SeriesState::New,
                })
                .collect()
        })
        .unwrap_or_default();
    SeriePage {
        layout,
        error,
        typed,
        default_time: league.planning().default_time().format("%H:%M").to_string(),
        new: lines.iter().filter(|l| l.new).count(),
        lines,
        rule: plan.map(|(_, r)| r.de()).unwrap_or_default(),
    }
}

/// `GET /verwaltung/termine/serie`: the empty form; with `von` given, the list of the series
/// (nothing stored) or the reason it is refused.
pub async fn get(
    State(league): State<League>,
    layout: Layout,
    RequireSecretary(user): RequireSecretary,
    Query(form): Query<SeriesForm>,
) -> Result<SeriePage, AppError> {
    if form.von.trim().is_empty() && form.rhythmus.trim().is_empty() {
        return Ok(render(layout, &league, form, None, None));
    }
    let shown = match input_of(&form) {
        Ok(input) => league
            .plan_series(&input, false, &user.username)
            .await
            .map(|p| (p, input.rule)),
        Err(e) => Err(e),
    };
    match shown {
        Ok((plan, rule)) => Ok(render(layout, &league, form, None, Some((&plan, rule)))),
        Err(e) => {
            let refusal = e.into_refusal()?;
            Ok(render(
                layout,
                &league,
                form,
                Some(refusal.to_string()),
                None,
            ))
        }
    }
}

/// `POST /verwaltung/termine/serie`: plans the series' new nights; to the Termine with "12 Abende
/// geplant (2 schon geplant)". Refused: the form again with what was typed and the reason.
pub async fn post(
    reply: Reply,
    RequireSecretary(user): RequireSecretary,
    Form(form): Form<SeriesForm>,
) -> Result<Response, AppError> {
    let done = match input_of(&form) {
        Ok(input) => reply.league.plan_series(&input, true, &user.username).await,
        Err(e) => Err(e),
    };
    let league = reply.league.clone();
    reply
        .finish(
            done,
            |plan| {
                let left = plan.days.len() - plan.stored;
                let nights = if plan.stored == 1 { "Abend" } else { "Abende" };
                let message = match left {
                    0 => format!("{} {nights} geplant.", plan.stored),
                    _ => format!(
                        "{} {nights} geplant, {left} schon vorhanden (unverändert).",
                        plan.stored
                    ),
                };
                Stored::at("/verwaltung/termine", message)
            },
            async |refusal, layout| {
                Ok(render(
                    layout,
                    &league,
                    form,
                    Some(refusal.to_string()),
                    None,
                ))
            },
        )
        .await
}
