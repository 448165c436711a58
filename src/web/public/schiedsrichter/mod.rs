//! `/schiedsrichter`: the referee at the table. One Wurfrunde entered seat by seat — the final dice
//! with Würfe and "aus der Hand", or the whole throw sequence with kept and turned dice — under the
//! current season's rule set or any preset, judged by the engine (`rules::evaluate_throws`). The
//! answer names the loser, the highest throw, the Deckel and the rule that decided, in German words
//! (`rules::explain`). A plain GET form: the whole question is in the URL, so the answer page can
//! be sent to the group; no script (radio buttons styled as dice).
//!
//! Field names (query parameters), seat i = 1, 2, …: `n{i}` name, `m{i}` `w` (Endergebnis) or `f`
//! (Wurffolge), `d{i}_{j}` die j of the final dice, `z{i}` Würfe, `h{i}` aus der Hand; in a
//! sequence Wurf k: `f{i}_{k}_{j}` die j rolled, `k{i}_{k}_{j}` that die set aside, `t{i}_{k}` sixes
//! turned. Besides: `regeln` (`saison-{year}` or a preset name), `blind`, `aus` (Auswürfeln),
//! `plaetze` (seats shown), `mehr` (a seat more, nothing judged).
//!
//! The room: `question` reads the query into the Wurfrunde asked about, `answer` builds what the
//! page shows; here the route and the page.

pub mod answer;
pub mod question;

use askama::Template;
use askama_web::WebTemplate;
use axum::extract::{Query, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};

use crate::rules::explain::rule_sentences;
use crate::rules::wurfrunde::{evaluate_throws, ThrowInput};
use crate::rules::RuleSet;
use crate::service::League;
use crate::web::kit::{AppError, Guard, Layout, Routes};

use answer::*;
use question::*;

/// The routes of this feature.
pub fn routes() -> Routes {
    Routes::new().get(Guard::Public, "/schiedsrichter", page)
}

/// The referee page.
#[derive(Template, WebTemplate)]
#[template(path = "public/schiedsrichter.html")]
pub struct SchiedsrichterPage {
    layout: Layout,
    options: Vec<RulesOption>,
    blind: bool,
    auswuerfeln: bool,
    seats: Vec<SeatView>,
    plaetze: usize,
    answer: Option<Answer>,
    /// The link of this question (when one was asked).
    share: Option<String>,
    /// A refusal: which seat, whose, and the engine's message, above the form with a link to the seat.
    error_seat: Option<(usize, String, String)>,
    error_rules: Option<String>,
    error_blind: Option<String>,
    error_round: Option<String>,
    /// The chosen rule set's name and rules in sentences.
    rules_name: String,
    sentences: Vec<String>,
    presets: Vec<(&'static str, &'static str)>,
}

async fn page(
    State(league): State<League>,
    layout: Layout,
    Query(pairs): Query<Vec<(String, String)>>,
) -> Result<Response, AppError> {
    let snapshot = league.snapshot();
    let current = snapshot.current_year(layout.today);
    let default_rules =
        current.map_or_else(|| "schockerliga".to_string(), |y| format!("saison-{y}"));
    let q = Question::read(&fields(pairs), &default_rules);

    let mut options: Vec<RulesOption> = Vec::new();
    let mut season_years: Vec<i32> = current.into_iter().collect();
    if let Some(y) = q
        .regeln
        .strip_prefix("saison-")
        .and_then(|y| y.parse().ok())
    {
        if snapshot.season(y).is_ok() && !season_years.contains(&y) {
            season_years.push(y);
        }
    }
    for y in season_years {
        let value = format!("saison-{y}");
        let game = snapshot
            .season(y)
            .map(|v| match &v.season.rules.game {
                serde_json::Value::String(s) => format!(" – {s}"),
                _ => " – eigene Regeln".to_string(),
            })
            .unwrap_or_default();
        options.push(RulesOption {
            selected: value == q.regeln,
            text: format!("Saison {y}{game}"),
            value,
        });
    }
    for (name, _) in RuleSet::presets() {
        options.push(RulesOption {
            value: name.to_string(),
            text: name.to_string(),
            selected: *name == q.regeln,
        });
    }

    let mut error_rules = None;
    let mut error_blind = None;
    let mut error_round = None;
    let mut field_error: Option<FieldError> = None;
    let mut answer = None;
    let (rules, rules_name) = match chosen_rules(&q.regeln, &snapshot) {
        Ok(r) => r,
        Err(m) => {
            error_rules = Some(m);
            (
                RuleSet::default(),
                "Voreinstellung „schockerliga“".to_string(),
            )
        }
    };
    if q.is_asked() && error_rules.is_none() {
        let used: Vec<&SeatTyped> = q.seats.iter().filter(|s| s.is_used()).collect();
        let inputs: Result<Vec<ThrowInput>, FieldError> =
            used.iter().map(|s| s.to_input()).collect();
        match inputs {
            Err(e) => field_error = Some(e),
            Ok(inputs) => match evaluate_throws(&inputs, &rules, q.auswuerfeln, q.blind) {
                Ok(e) => {
                    let names: Vec<String> = inputs.iter().map(|t| t.player.clone()).collect();
                    answer = Some(Answer::new(&e, &names, &rules, q.blind, rules_name.clone()));
                }
                Err(e) => match place(&e, &q.seats) {
                    Refusal::At(f) => field_error = Some(f),
                    Refusal::Rules(m) => error_rules = Some(m),
                    Refusal::Blind(m) => error_blind = Some(m),
                    Refusal::Round(m) => error_round = Some(m),
                },
            },
        }
    }
    let refused = field_error.is_some()
        || error_rules.is_some()
        || error_blind.is_some()
        || error_round.is_some();
    let page = SchiedsrichterPage {
        layout,
        options,
        blind: q.blind,
        auswuerfeln: q.auswuerfeln,
        seats: q
            .seats
            .iter()
            .map(|s| SeatView::new(s, field_error.as_ref()))
            .collect(),
        plaetze: q.seats.len(),
        answer,
        share: q.is_asked().then(|| q.share_link()),
        error_seat: field_error.as_ref().and_then(|f| {
            q.seats
                .iter()
                .find(|s| s.i == f.seat)
                .map(|s| (s.i, s.player(), f.message.clone()))
        }),
        error_rules,
        error_blind,
        error_round,
        sentences: rule_sentences(&rules),
        rules_name,
        presets: RuleSet::presets().to_vec(),
    };
    let status = if refused {
        StatusCode::UNPROCESSABLE_ENTITY
    } else {
        StatusCode::OK
    };
    Ok((status, page).into_response())
}
