//! `/regeln` and `/saison/{year}/regeln`: a season's rules in German, generated from its
//! `SeasonRules` (league.md §10) and its dice game's `RuleSet` (schocken-rules.md) — one source:
//! a changed field changes the page. The order of throws with their Deckel under that RuleSet
//! (`rules::explain::ranking`), the game's rules in sentences, the rules that depend on the season's
//! year (found in `SeasonRules::defaults_for` itself), the points, Julen and Joker, the fee by
//! month (`league::fee_cents`), the Ligen, the Sozialfall, the Lucky Looser, the payout percentages
//! and the Strafenkatalog; and every preset with its description. `/regeln` is the current season
//! (without one: the defaults of this year).

use askama::Template;
use askama_web::WebTemplate;
use axum::extract::State;
use axum::response::{IntoResponse, Response};
use chrono::{Datelike, NaiveDate};
use serde_json::Value;

use crate::league::fee_cents;
use crate::league::model::format::month_name;
use crate::league::model::format::{date_de, format_cents, format_dwert};
use crate::league::model::rules::SeasonRules;
use crate::league::money::kasse::fine_label;
use crate::rules::explain::{ranking, rule_sentences, RankLine};
use crate::rules::{Deckel, RuleSet};
use crate::service::League;
use crate::web::kit::AtSeason;
use crate::web::kit::{filters, AppError, Guard, Layout, Routes};

/// The routes of this feature.
pub fn routes() -> Routes {
    Routes::new().get(Guard::Public, "/regeln", current).get(
        Guard::Public,
        "/saison/{year}/regeln",
        season,
    )
}

/// The years a season's defaults are looked up in when finding where a default changed.
const FIRST_YEAR: i32 = 1950;
const LAST_YEAR: i32 = 2100;

/// A rule whose default depends on the season's year (league.md §10): its default before and from
/// `since`, and this season's value.
pub struct YearRule {
    /// What the rule is: "Hand-Out", "Joker-Runde", "Strafenkatalog".
    pub rule: &'static str,
    /// The default before `since`.
    pub before: String,
    /// The first season with the newer default.
    pub since: i32,
    /// The default from `since` on.
    pub from: String,
    /// This season's value.
    pub now: String,
}

/// The first season from which `key` of the defaults differs from the season before, with the
/// two defaults (searched in `defaults_for` itself, so the page follows a changed default).
fn change_year<T: PartialEq>(key: impl Fn(&SeasonRules) -> T) -> Option<(i32, T, T)> {
    (FIRST_YEAR + 1..=LAST_YEAR).find_map(|y| {
        let (before, from) = (
            key(&SeasonRules::defaults_for(y - 1)),
            key(&SeasonRules::defaults_for(y)),
        );
        (before != from).then_some((y, before, from))
    })
}

fn points(n: i64) -> String {
    if n == 1 {
        "1 Punkt".to_string()
    } else {
        format!("{n} Punkte")
    }
}

fn joker_text(m: Option<i64>) -> String {
    match m {
        Some(m) => format!("Outs ×{m}"),
        None => "keine".to_string(),
    }
}

fn catalogue_text(fines: &std::collections::BTreeMap<String, i64>) -> String {
    if fines.is_empty() {
        return "leer".to_string();
    }
    fines
        .iter()
        .map(|(kind, cents)| format!("{} {}", fine_label(kind), format_cents(*cents)))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The rules that depend on the season's year: Hand-Out points, the Joker, the Strafenkatalog.
pub fn year_rules(rules: &SeasonRules) -> Vec<YearRule> {
    let mut out = Vec::new();
    if let Some((since, before, from)) = change_year(|r| r.hand_out_points) {
        out.push(YearRule {
            rule: "Hand-Out",
            before: points(before),
            since,
            from: points(from),
            now: points(rules.hand_out_points),
        });
    }
    if let Some((since, before, from)) = change_year(|r| r.joker_multiplier) {
        out.push(YearRule {
            rule: "Joker-Runde",
            before: joker_text(before),
            since,
            from: joker_text(from),
            now: joker_text(rules.joker_multiplier),
        });
    }
    if let Some((since, before, from)) = change_year(|r| r.fines.clone()) {
        out.push(YearRule {
            rule: "Strafenkatalog",
            before: catalogue_text(&before),
            since,
            from: catalogue_text(&from),
            now: catalogue_text(&rules.fines),
        });
    }
    out
}

/// One line of the fee table: the months (e.g. "Januar – März") and the fee, or `None` when no
/// fee is taken any more (after `last_join_month`).
pub struct FeeLine {
    /// "Januar – März", "April".
    pub months: String,
    /// The fee in cents, `None`: no joining the 1. Liga any more.
    pub cents: Option<i64>,
}

/// The Jahresbeitrag by month of payment in season `year` (league.md §5), from `fee_cents` itself;
/// months with the same fee are one line.
pub fn fee_lines(rules: &SeasonRules, year: i32) -> Vec<FeeLine> {
    let mut lines: Vec<(u32, u32, Option<i64>)> = Vec::new();
    for m in 1..=12u32 {
        let cents =
            NaiveDate::from_ymd_opt(year, m, 1).and_then(|d| fee_cents(rules, year, d).ok());
        match lines.last_mut() {
            Some((_, to, c)) if *c == cents => *to = m,
            _ => lines.push((m, m, cents)),
        }
    }
    lines
        .into_iter()
        .map(|(from, to, cents)| FeeLine {
            months: if from == to {
                month_name(from).to_string()
            } else {
                format!("{} – {}", month_name(from), month_name(to))
            },
            cents,
        })
        .collect()
}

/// The dice game of a season: its name, description and changes, the order of throws and the
/// rules in sentences.
pub struct GameView {
    /// "schockerliga" or "eigene Regeln auf Grundlage von „westfalen“" (the page's `data-game`).
    pub name: String,
    /// The German title: „Regeln der Schockerliga“, or „eigene Regeln auf Grundlage von
    /// „Westfalen““ for own rules.
    pub title: String,
    /// The preset's one-line description (for a preset, or the base of own rules).
    pub description: Option<&'static str>,
    /// For own rules: each changed field with its value, e.g. `achter: true`.
    pub changes: Vec<String>,
    /// The order of throws, highest first, each with its Deckel for the table ("7", "alle").
    pub ranking: Vec<(RankLine, String)>,
    /// The rules in sentences.
    pub sentences: Vec<String>,
    /// "blind" is allowed: the Deckel of a table line double.
    pub blind: bool,
}

/// The dice game of `game` (a season's `rules.game`). Errors: a game the engine does not read
/// (German).
pub fn game_view(game: &Value) -> Result<GameView, String> {
    let rules = RuleSet::from_json(game).map_err(|e| e.to_string())?;
    let (name, description, changes) = match game {
        Value::String(name) => (name.clone(), RuleSet::preset_description(name), Vec::new()),
        Value::Object(map) => {
            let base = map
                .get("preset")
                .and_then(Value::as_str)
                .unwrap_or("schockerliga");
            (
                format!("eigene Regeln auf Grundlage von „{base}“"),
                RuleSet::preset_description(base),
                map.iter()
                    .filter(|(k, _)| k.as_str() != "preset")
                    .map(|(k, v)| format!("{k}: {v}"))
                    .collect(),
            )
        }
        _ => (
            "schockerliga".to_string(),
            RuleSet::preset_description("schockerliga"),
            Vec::new(),
        ),
    };
    Ok(GameView {
        title: crate::web::admin::saisonregeln::game_title(game),
        name,
        description,
        changes,
        ranking: ranking(&rules)
            .into_iter()
            .map(|l| {
                let deckel = match l.deckel {
                    Deckel::All => "alle".to_string(),
                    Deckel::Count(n) => n.to_string(),
                };
                (l, deckel)
            })
            .collect(),
        sentences: rule_sentences(&rules),
        blind: rules.blind,
    })
}

/// The league's rules of a season in sentences, by topic.
pub struct LeagueView {
    /// Points, Joker, Julen, Teilnahme and D.Wert.
    pub counting: Vec<String>,
    /// The Ligen: (Liga, who is in it).
    pub ligen: Vec<(&'static str, String)>,
    /// Nights: rounds, tables, Sozialfall.
    pub nights: Vec<String>,
    /// The Lucky Looser and the pot.
    pub money: Vec<String>,
    /// Payout places: (place, percent).
    pub places: Vec<(usize, u32)>,
    /// What is left of the pot carries over (percentages under 100).
    pub rest_percent: u32,
    /// The Strafenkatalog: (label, kind, cents).
    pub fines: Vec<(String, String, i64)>,
}

/// The league's rules of season `year` in sentences (league.md §2–§9).
pub fn league_view(rules: &SeasonRules, year: i32) -> LeagueView {
    let rpn = rules.rounds_per_night;
    let mut counting = vec![
        format!(
            "Ein Schock Out zählt {}, ein Hand-Out (alle drei Würfel in einem Wurf, keine Sechs gedreht) {}.",
            points(rules.out_points),
            points(rules.hand_out_points)
        ),
        match rules.joker_multiplier {
            Some(m) => format!(
                "Joker-Runde: Jeder darf an einem Abend eine Runde vor ihrem Beginn zur Joker-Runde \
                 erklären; seine Outs zählen darin ×{m} (ein Out {}, ein Hand-Out {}).",
                points(rules.out_points.saturating_mul(m)),
                points(rules.hand_out_points.saturating_mul(m))
            ),
            None => "Diese Saison hat keine Joker-Runde.".to_string(),
        },
        format!(
            "{} Julen (4-2-1 aus der Hand) ergeben einen gewerteten Out; der Joker zählt für Julen nie. {}",
            rules.julen_per_out,
            if rules.julen_carry_across_seasons {
                "Übrige Julen gehen in die nächste Saison mit."
            } else {
                "Übrige Julen verfallen am Ende der Saison."
            }
        ),
        format!(
            "Eine Teilnahme sind {rpn} Runden. D.Wert = gewertete Outs ÷ Teilnahmen; gleicher D.Wert: \
             mehr Runden zuerst."
        ),
    ];
    counting.retain(|s| !s.is_empty());
    let deadline = rules
        .first_liga_deadline
        .in_year(year)
        .map(date_de)
        .unwrap_or_else(|| String::from(rules.first_liga_deadline));
    let ligen = vec![
        (
            "1. Liga",
            format!(
                "Jahresbeitrag bezahlt und mindestens {} Runden; nach dem Stichtag {deadline} nur, \
                 wer bis dahin {} Runden gespielt hat.",
                rules.kreisliga_below_rounds, rules.min_rounds_first_liga
            ),
        ),
        (
            "2. Liga",
            format!(
                "Alle anderen mit mindestens {} Runden: ohne Beitrag, oder mit Beitrag, aber bis \
                 zum Stichtag keine {} Runden.",
                rules.kreisliga_below_rounds, rules.min_rounds_first_liga
            ),
        ),
        (
            "Kreisliga",
            format!(
                "Weniger als {} Runden ({} Teilnahmen), bezahlt oder nicht.",
                rules.kreisliga_below_rounds,
                format_dwert(i64::from(rules.kreisliga_below_rounds), i64::from(rpn))
            ),
        ),
    ];
    let nights = vec![
        format!(
            "Ein Spielabend hat {rpn} Runden je Tisch; ab {} Teilnehmern wird auf zwei Tische ausgelost.",
            rules.split_tables_from
        ),
        format!(
            "Sozialfall: Wer an einem Abend {} Runden bezahlt hat, zahlt an diesem Abend keine weitere Runde.",
            rules.sozialfall_after
        ),
    ];
    let money = vec![
        format!(
            "Lucky Looser: Wer in der Saison die meisten Runden bezahlt hat, bekommt {} (höchstens \
             die Summe der Beiträge; bei Gleichstand geteilt).",
            format_cents(rules.lucky_looser_cents)
        ),
        "Topf = Beiträge − Lucky Looser + bezahlte Strafen + Übertrag der Vorsaison; ausgezahlt \
         wird an die Plätze der 1. Liga nach dem letzten Abend, Gleichplatzierte teilen."
            .to_string(),
    ];
    let sum: u32 = rules.payout_percent.iter().sum();
    LeagueView {
        counting,
        ligen,
        nights,
        money,
        places: rules
            .payout_percent
            .iter()
            .enumerate()
            .map(|(i, p)| (i + 1, *p))
            .collect(),
        rest_percent: 100u32.saturating_sub(sum),
        fines: rules
            .fines
            .iter()
            .map(|(kind, cents)| (fine_label(kind).to_string(), kind.clone(), *cents))
            .collect(),
    }
}

/// The rules page of one season.
#[derive(Template, WebTemplate)]
#[template(path = "public/regeln.html")]
pub struct RegelnPage {
    layout: Layout,
    year: i32,
    /// A stored season (else the defaults of `year`, no season yet).
    stored: bool,
    years: Vec<i32>,
    game: GameView,
    year_rules: Vec<YearRule>,
    league: LeagueView,
    fees: Vec<FeeLine>,
    last_join: &'static str,
    presets: Vec<(&'static str, &'static str)>,
}

fn render(
    layout: Layout,
    rules: &SeasonRules,
    year: i32,
    stored: bool,
    years: Vec<i32>,
) -> Result<Response, AppError> {
    let game = game_view(&rules.game)
        .map_err(|e| AppError::Internal(format!("Regelwerk der Saison {year}: {e}")))?;
    Ok(RegelnPage {
        layout,
        year,
        stored,
        years,
        game,
        year_rules: year_rules(rules),
        league: league_view(rules, year),
        fees: fee_lines(rules, year),
        last_join: month_name(rules.last_join_month),
        presets: RuleSet::presets().to_vec(),
    }
    .into_response())
}

async fn current(State(league): State<League>, layout: Layout) -> Result<Response, AppError> {
    let snapshot = league.snapshot();
    match snapshot.current_year(layout.today) {
        Some(year) => {
            let view = snapshot.season(year)?;
            render(layout, &view.season.rules, year, true, snapshot.years())
        }
        None => {
            let year = layout.today.year();
            render(
                layout,
                &SeasonRules::defaults_for(year),
                year,
                false,
                Vec::new(),
            )
        }
    }
}

async fn season(layout: Layout, at: AtSeason) -> Result<Response, AppError> {
    render(
        layout,
        &at.view.season.rules,
        at.year(),
        true,
        at.snapshot.years(),
    )
}

#[cfg(test)]
mod tests;
