//! The season's rules as a form (issue 11.7, league.md §10): `/verwaltung/saison/{year}/regeln`
//! shows every field of `SeasonRules` with its value, its default for the year and a short German
//! explanation. Until the season's first night the form changes them (`Change::SetRules` through
//! the write pipeline, audited); afterwards the page is read-only and a posted form is refused.
//! An invalid value is refused per field: nothing is stored, the message stands beside the field
//! and everything typed is kept. The Strafenkatalog is shown here and kept under "Kasse
//! verwalten" (`Change::SetFineKind`).

use std::collections::BTreeMap;

use askama::Template;
use askama_web::WebTemplate;
use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde_json::Value;

use crate::league::format::{date_de, format_cents};
use crate::league::kasse::{fine_label, parse_euros};
use crate::league::rules::{MonthDay, SeasonRules};
use crate::league::Change;
use crate::rules::RuleSet;
use crate::service::{Edit, League, ServiceError};
use crate::web::kit::session::RequireSecretary;
use crate::web::kit::{AppError, Guard, Layout, Routes};
use crate::web::kit::{AtSeason, Flash};

/// The routes of this feature.
pub fn routes() -> Routes {
    Routes::new()
        .get(Guard::Secretary, "/verwaltung/saison/{year}/regeln", page)
        .post(Guard::Secretary, "/verwaltung/saison/{year}/regeln", save)
}

/// How a field is typed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// A whole number ≥ 0.
    Count,
    /// A whole number, or empty for none (the Joker factor).
    OptionalCount,
    /// A box.
    Flag,
    /// Euros ("15,00").
    Euro,
    /// Month and day "MM-TT".
    MonthDay,
    /// Percentages separated by commas.
    Percents,
    /// A preset name or a JSON object (the dice game's RuleSet).
    Game,
    /// Shown only (the Strafenkatalog).
    Shown,
}

/// Every field of league.md §10 in its order: (name, German label, German explanation, kind).
pub const FIELDS: [(&str, &str, &str, Kind); 19] = [
    ("rounds_per_night", "Runden je Abend", "Runden, die an einem Abend an einem Tisch gespielt werden; so viele Runden sind eine Teilnahme.", Kind::Count),
    ("out_points", "Punkte je Schock Out", "Gewertete Outs für ein einfaches Schock Out.", Kind::Count),
    ("hand_out_points", "Punkte je Hand-Out", "Gewertete Outs für ein Hand-Out (alle drei Würfel in einem Wurf).", Kind::Count),
    ("joker_multiplier", "Joker-Faktor", "So viel zählen die Outs der angesagten Joker-Runde mehr; leer = kein Joker in dieser Saison.", Kind::OptionalCount),
    ("julen_per_out", "Julen je Out", "So viele Julen ergeben ein gewertetes Out.", Kind::Count),
    ("julen_carry_across_seasons", "Julen ins nächste Jahr", "Angefangene Julen zählen in der nächsten Saison weiter (sonst verfallen sie).", Kind::Flag),
    ("kreisliga_below_rounds", "Kreisliga unter … Runden", "Wer weniger Runden gespielt hat, steht in der Kreisliga.", Kind::Count),
    ("min_rounds_first_liga", "Runden für die 1. Liga", "So viele Runden braucht ein zahlendes Mitglied bis zum Stichtag, um in der 1. Liga zu bleiben.", Kind::Count),
    ("first_liga_deadline", "Stichtag 1. Liga", "Monat und Tag in der Saison (MM-TT), z. B. 11-30.", Kind::MonthDay),
    ("fee_base_cents", "Jahresbeitrag", "Beitrag in Euro bei Zahlung vor dem Monat der ersten Erhöhung.", Kind::Euro),
    ("fee_monthly_increase_cents", "Erhöhung je Monat", "So viel Euro mehr kostet der Beitrag je Monat ab der ersten Erhöhung.", Kind::Euro),
    ("fee_increase_from_month", "Erste Erhöhung im Monat", "1 bis 12; 4 = im April kostet der Beitrag einmal die Erhöhung mehr.", Kind::Count),
    ("last_join_month", "Letzter Beitrittsmonat", "1 bis 12; bis Ende dieses Monats wird ein Jahresbeitrag angenommen.", Kind::Count),
    ("fines", "Strafenkatalog", "Strafarten und Beträge; gepflegt unter „Kasse verwalten“.", Kind::Shown),
    ("sozialfall_after", "Sozialfall nach … Runden", "Wer an einem Abend so viele Runden bezahlt hat, zahlt keine weitere.", Kind::Count),
    ("lucky_looser_cents", "Lucky Looser", "Das bekommt in Euro, wer in der Saison die meisten Runden bezahlt hat.", Kind::Euro),
    ("payout_percent", "Auszahlung in %", "Prozent des Topfs für Platz 1, 2, … der 1. Liga, mit Komma getrennt; zusammen höchstens 100.", Kind::Percents),
    ("split_tables_from", "Zwei Tische ab", "Ab so vielen Anwesenden wird an zwei Tischen gespielt.", Kind::Count),
    ("game", "Regelwerk des Würfelspiels", "Name einer Voreinstellung (z. B. schockerliga) oder ein JSON-Objekt; siehe „Regeln“.", Kind::Game),
];

/// One field of the page.
pub struct FieldView {
    /// The field name of league.md §10 (form field name).
    pub name: &'static str,
    /// German label.
    pub label: &'static str,
    /// German explanation.
    pub help: &'static str,
    /// The value as shown or typed.
    pub value: String,
    /// The year's default, as shown.
    pub default: String,
    /// A box: ticked.
    pub checked: bool,
    /// Shown as a box.
    pub flag: bool,
    /// Shown only, never a form field.
    pub shown_only: bool,
    /// Numeric keyboard on phones.
    pub numeric: bool,
    /// Why the typed value was refused.
    pub error: Option<String>,
}

/// The form page.
#[derive(Template, WebTemplate)]
#[template(path = "admin/saisonregeln.html")]
struct RulesPage {
    layout: Layout,
    year: i32,
    /// The first night, when the rules are read-only ("09.01.2026").
    locked_by: Option<String>,
    fields: Vec<FieldView>,
    error: Option<String>,
}

/// `field` of `rules` as the form shows it: (text, ticked) — the text for a value field, the
/// box for a flag.
pub(super) fn shown(rules: &SeasonRules, field: &str) -> (String, bool) {
    let n = |v: i64| v.to_string();
    match field {
        "rounds_per_night" => (n(rules.rounds_per_night.into()), false),
        "out_points" => (n(rules.out_points), false),
        "hand_out_points" => (n(rules.hand_out_points), false),
        "joker_multiplier" => (rules.joker_multiplier.map(n).unwrap_or_default(), false),
        "julen_per_out" => (n(rules.julen_per_out.into()), false),
        "julen_carry_across_seasons" => (String::new(), rules.julen_carry_across_seasons),
        "kreisliga_below_rounds" => (n(rules.kreisliga_below_rounds.into()), false),
        "min_rounds_first_liga" => (n(rules.min_rounds_first_liga.into()), false),
        "first_liga_deadline" => (String::from(rules.first_liga_deadline), false),
        "fee_base_cents" => (format_cents(rules.fee_base_cents), false),
        "fee_monthly_increase_cents" => (format_cents(rules.fee_monthly_increase_cents), false),
        "fee_increase_from_month" => (n(rules.fee_increase_from_month.into()), false),
        "last_join_month" => (n(rules.last_join_month.into()), false),
        "fines" => {
            let list: Vec<String> = rules
                .fines
                .iter()
                .map(|(k, c)| format!("{} {}", fine_label(k), format_cents(*c)))
                .collect();
            (
                if list.is_empty() {
                    "leer".to_string()
                } else {
                    list.join(", ")
                },
                false,
            )
        }
        "sozialfall_after" => (n(rules.sozialfall_after.into()), false),
        "lucky_looser_cents" => (format_cents(rules.lucky_looser_cents), false),
        "payout_percent" => (
            rules
                .payout_percent
                .iter()
                .map(u32::to_string)
                .collect::<Vec<_>>()
                .join(", "),
            false,
        ),
        "split_tables_from" => (n(rules.split_tables_from.into()), false),
        "game" => (
            match &rules.game {
                Value::String(s) => s.clone(),
                other => other.to_string(),
            },
            false,
        ),
        _ => (String::new(), false),
    }
}

/// The form's fields as sent.
type Fields = BTreeMap<String, Vec<String>>;

/// The first value of `name`, trimmed.
fn typed(form: &Fields, name: &str) -> String {
    form.get(name)
        .and_then(|v| v.first())
        .map(|s| s.trim().to_string())
        .unwrap_or_default()
}

/// A whole number ≥ 0 as typed. Errors: German.
fn count(s: &str) -> Result<u32, String> {
    if s.is_empty() {
        return Err("Wert fehlt".to_string());
    }
    s.parse()
        .map_err(|_| format!("„{s}“ ist keine ganze Zahl ≥ 0"))
}

/// Sets `field` of `rules` to `value` as typed. Errors: German, why the value is not one.
fn set(rules: &mut SeasonRules, field: &str, value: &str, ticked: bool) -> Result<(), String> {
    match field {
        "rounds_per_night" => rules.rounds_per_night = count(value)?,
        "out_points" => rules.out_points = count(value)?.into(),
        "hand_out_points" => rules.hand_out_points = count(value)?.into(),
        "joker_multiplier" => {
            rules.joker_multiplier = if value.is_empty() {
                None
            } else {
                Some(count(value)?.into())
            }
        }
        "julen_per_out" => rules.julen_per_out = count(value)?,
        "julen_carry_across_seasons" => rules.julen_carry_across_seasons = ticked,
        "kreisliga_below_rounds" => rules.kreisliga_below_rounds = count(value)?,
        "min_rounds_first_liga" => rules.min_rounds_first_liga = count(value)?,
        "first_liga_deadline" => {
            rules.first_liga_deadline = MonthDay::try_from(value.to_string())?;
        }
        "fee_base_cents" => rules.fee_base_cents = parse_euros(value)?,
        "fee_monthly_increase_cents" => rules.fee_monthly_increase_cents = parse_euros(value)?,
        "fee_increase_from_month" => rules.fee_increase_from_month = count(value)?,
        "last_join_month" => rules.last_join_month = count(value)?,
        "sozialfall_after" => rules.sozialfall_after = count(value)?,
        "lucky_looser_cents" => rules.lucky_looser_cents = parse_euros(value)?,
        "payout_percent" => {
            rules.payout_percent = value
                .split([',', ';', ' '])
                .filter(|p| !p.trim().is_empty())
                .map(|p| count(p.trim().trim_end_matches('%')))
                .collect::<Result<_, _>>()?;
        }
        "split_tables_from" => rules.split_tables_from = count(value)?,
        "game" => {
            let game = if value.starts_with('{') {
                serde_json::from_str(value).map_err(|e| format!("kein gültiges JSON ({e})"))?
            } else {
                Value::String(value.to_string())
            };
            RuleSet::from_json(&game).map_err(|e| e.to_string())?;
            rules.game = game;
        }
        _ => {}
    }
    Ok(())
}

/// The fields of the page: `rules` (or what `form` typed), each with its `errors` entry.
fn fields(
    year: i32,
    rules: &SeasonRules,
    form: Option<&Fields>,
    errors: &BTreeMap<&str, String>,
) -> Vec<FieldView> {
    let defaults = SeasonRules::defaults_for(year);
    FIELDS
        .iter()
        .map(|&(name, label, help, kind)| {
            let (value, checked) = match form {
                Some(f) if kind != Kind::Shown => (typed(f, name), f.contains_key(name)),
                _ => shown(rules, name),
            };
            let (default, default_checked) = shown(&defaults, name);
            FieldView {
                name,
                label,
                help,
                value,
                default: if kind == Kind::Flag {
                    if default_checked { "ja" } else { "nein" }.to_string()
                } else if default.is_empty() {
                    "leer".to_string()
                } else {
                    default
                },
                checked,
                flag: kind == Kind::Flag,
                shown_only: kind == Kind::Shown,
                numeric: matches!(kind, Kind::Count | Kind::OptionalCount),
                error: errors.get(name).cloned(),
            }
        })
        .collect()
}

fn render(
    layout: Layout,
    at: &AtSeason,
    form: Option<&Fields>,
    errors: &BTreeMap<&str, String>,
    error: Option<String>,
) -> RulesPage {
    let season = &at.view.season;
    RulesPage {
        layout,
        year: season.year,
        locked_by: season.nights.first().map(|n| date_de(n.date)),
        fields: fields(season.year, &season.rules, form, errors),
        error,
    }
}

async fn page(layout: Layout, at: AtSeason) -> RulesPage {
    render(layout, &at, None, &BTreeMap::new(), None)
}

async fn save(
    State(league): State<League>,
    layout: Layout,
    flash: Flash,
    RequireSecretary(user): RequireSecretary,
    at: AtSeason,
    axum::Form(form): axum::Form<Vec<(String, String)>>,
) -> Result<Response, AppError> {
    let mut sent = Fields::new();
    for (k, v) in form {
        sent.entry(k).or_default().push(v);
    }
    let year = at.year();
    let mut rules = at.view.season.rules.clone();
    let mut errors: BTreeMap<&str, String> = BTreeMap::new();
    for &(name, label, _, kind) in &FIELDS {
        if kind == Kind::Shown {
            continue;
        }
        if let Err(why) = set(
            &mut rules,
            name,
            &typed(&sent, name),
            sent.contains_key(name),
        ) {
            errors.insert(name, format!("{label}: {why}"));
        }
    }
    let refused = |errors: &BTreeMap<&str, String>, msg: String| {
        (
            StatusCode::UNPROCESSABLE_ENTITY,
            render(layout.clone(), &at, Some(&sent), errors, Some(msg)),
        )
            .into_response()
    };
    if !errors.is_empty() {
        let names: Vec<&str> = FIELDS
            .iter()
            .filter(|f| errors.contains_key(f.0))
            .map(|f| f.1)
            .collect();
        return Ok(refused(
            &errors,
            format!("Nichts gespeichert: bitte {} prüfen.", names.join(", ")),
        ));
    }
    let change = Change::SetRules {
        rules: Box::new(rules),
    };
    match league.change(year, change, &Edit::by(&user.username)).await {
        Ok(_) => Ok(flash
            .redirect(
                &format!("/verwaltung/saison/{year}/regeln"),
                format!("Saisonregeln {year} gespeichert."),
            )
            .await),
        Err(ServiceError::Refused(e) | ServiceError::Closed(e) | ServiceError::Conflict(e)) => {
            let msg = e.to_string();
            // A range check names its field as "rules.<field>: why": the message goes beside it.
            let at_field = msg.strip_prefix("rules.").and_then(|rest| {
                let (field, why) = rest.split_once(": ")?;
                let (name, label, ..) = FIELDS.iter().find(|f| f.0 == field)?;
                Some((*name, format!("{label}: {why}")))
            });
            let mut errors = BTreeMap::new();
            let top = match at_field {
                Some((name, why)) => {
                    errors.insert(name, why.clone());
                    format!("Nichts gespeichert: {why}")
                }
                None => format!("Nichts gespeichert: {msg}"),
            };
            Ok(refused(&errors, top))
        }
        Err(e) => Err(e.into()),
    }
}
