//! The season's rules as a form (issue 11.7, league.md §10): `/verwaltung/saison/{year}/regeln`
//! shows every field of `SeasonRules` with its value, its default for the year and a short German
//! explanation. Until the season's first night the form changes them (`Change::SetRules` through
//! the write pipeline, audited); afterwards the page is read-only and a posted form is refused.
//! An invalid value is refused per field: nothing is stored, the message stands beside the field
//! and everything typed is kept. The Strafenkatalog is shown here and kept under "Kasse
//! verwalten" (`Change::SetFineKind`). The form is typed ([`RulesForm`], one field per rule); the
//! dice game is a choice of the presets by their German titles, or own rules as JSON.

use std::collections::BTreeMap;

use askama::Template;
use askama_web::WebTemplate;
use axum::response::Response;
use serde::Deserialize;
use serde_json::Value;

use crate::league::model::format::{date_de, format_cents};
use crate::league::model::rules::{MonthDay, SeasonRules};
use crate::league::money::kasse::{fine_label, parse_euros};
use crate::league::Change;
use crate::rules::RuleSet;
use crate::service::{Edit, ServiceError};
use crate::web::kit::session::RequireSecretary;
use crate::web::kit::AtSeason;
use crate::web::kit::{AppError, Guard, Layout, Reply, Routes, Stored};

/// The routes of this feature.
pub fn routes() -> Routes {
    Routes::new()
        .get(Guard::Secretary, "/verwaltung/saison/{year}/regeln", get)
        .post(Guard::Secretary, "/verwaltung/saison/{year}/regeln", post)
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
    ("first_liga_deadline", "Stichtag 1. Liga", "Tag und Monat in der Saison, z. B. 30.11.", Kind::MonthDay),
    ("fee_base_cents", "Jahresbeitrag", "Beitrag in Euro bei Zahlung vor dem Monat der ersten Erhöhung.", Kind::Euro),
    ("fee_monthly_increase_cents", "Erhöhung je Monat", "So viel Euro mehr kostet der Beitrag je Monat ab der ersten Erhöhung.", Kind::Euro),
    ("fee_increase_from_month", "Erste Erhöhung im Monat", "1 bis 12; 4 = im April kostet der Beitrag einmal die Erhöhung mehr.", Kind::Count),
    ("last_join_month", "Letzter Beitrittsmonat", "1 bis 12; bis Ende dieses Monats wird ein Jahresbeitrag angenommen.", Kind::Count),
    ("fines", "Strafenkatalog", "Strafarten und Beträge; gepflegt unter „Kasse verwalten“.", Kind::Shown),
    ("sozialfall_after", "Sozialfall nach … Runden", "Wer an einem Abend so viele Runden bezahlt hat, zahlt keine weitere.", Kind::Count),
    ("lucky_looser_cents", "Lucky Looser", "Das bekommt in Euro, wer in der Saison die meisten Runden bezahlt hat.", Kind::Euro),
    ("payout_percent", "Auszahlung in %", "Prozent des Topfs für Platz 1, 2, … der 1. Liga, mit Komma getrennt; zusammen höchstens 100.", Kind::Percents),
    ("split_tables_from", "Zwei Tische ab", "Ab so vielen Anwesenden wird an zwei Tischen gespielt.", Kind::Count),
    ("game", "Regelwerk des Würfelspiels", "Eine der Voreinstellungen, oder eigene Regeln als JSON-Objekt (siehe „Regeln“ und docs/regeln.md).", Kind::Game),
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
    /// The dice game: a choice of (value, German title, chosen), the last „eigene Regeln“.
    pub choices: Vec<(String, String, bool)>,
    /// The dice game's own rules as JSON (shown under the choice).
    pub own: String,
    /// Why the typed value was refused.
    pub error: Option<String>,
}

/// The value of the dice game's choice for own rules (then `game_json` holds them).
pub const OWN_GAME: &str = "eigene";

/// The rules form as sent: every field of league.md §10 as typed (the Strafenkatalog is kept
/// under „Kasse verwalten“), a box present when ticked; `game` a preset name or [`OWN_GAME`]
/// with `game_json`.
#[derive(Debug, Default, Clone, Deserialize)]
#[serde(default)]
pub struct RulesForm {
    /// Runden je Abend.
    pub rounds_per_night: String,
    /// Punkte je Schock Out.
    pub out_points: String,
    /// Punkte je Hand-Out.
    pub hand_out_points: String,
    /// Joker-Faktor, empty for none.
    pub joker_multiplier: String,
    /// Julen je Out.
    pub julen_per_out: String,
    /// Present when ticked.
    pub julen_carry_across_seasons: Option<String>,
    /// Kreisliga unter … Runden.
    pub kreisliga_below_rounds: String,
    /// Runden für die 1. Liga.
    pub min_rounds_first_liga: String,
    /// Stichtag „30.11.“ (or „11-30“).
    pub first_liga_deadline: String,
    /// Jahresbeitrag in euros.
    pub fee_base_cents: String,
    /// Erhöhung je Monat in euros.
    pub fee_monthly_increase_cents: String,
    /// Erste Erhöhung im Monat.
    pub fee_increase_from_month: String,
    /// Letzter Beitrittsmonat.
    pub last_join_month: String,
    /// Sozialfall nach … Runden.
    pub sozialfall_after: String,
    /// Lucky Looser in euros.
    pub lucky_looser_cents: String,
    /// Auszahlung in %, comma-separated.
    pub payout_percent: String,
    /// Zwei Tische ab.
    pub split_tables_from: String,
    /// A preset name, [`OWN_GAME`], or (as before) a JSON object.
    pub game: String,
    /// Own dice rules as a JSON object, when `game` is [`OWN_GAME`].
    pub game_json: String,
}

impl RulesForm {
    /// The form filled with `rules` as the page shows them.
    pub fn of(rules: &SeasonRules) -> RulesForm {
        let v = |name| shown(rules, name).0;
        let (game, game_json) = match &rules.game {
            Value::String(s) => (s.clone(), String::new()),
            other => (OWN_GAME.to_string(), other.to_string()),
        };
        RulesForm {
            rounds_per_night: v("rounds_per_night"),
            out_points: v("out_points"),
            hand_out_points: v("hand_out_points"),
            joker_multiplier: v("joker_multiplier"),
            julen_per_out: v("julen_per_out"),
            julen_carry_across_seasons: rules.julen_carry_across_seasons.then(|| "1".into()),
            kreisliga_below_rounds: v("kreisliga_below_rounds"),
            min_rounds_first_liga: v("min_rounds_first_liga"),
            first_liga_deadline: v("first_liga_deadline"),
            fee_base_cents: v("fee_base_cents"),
            fee_monthly_increase_cents: v("fee_monthly_increase_cents"),
            fee_increase_from_month: v("fee_increase_from_month"),
            last_join_month: v("last_join_month"),
            sozialfall_after: v("sozialfall_after"),
            lucky_looser_cents: v("lucky_looser_cents"),
            payout_percent: v("payout_percent"),
            split_tables_from: v("split_tables_from"),
            game,
            game_json,
        }
    }

    /// The typed text of field `name` (league.md §10), trimmed; "" for the Strafenkatalog and a
    /// box.
    fn text(&self, name: &str) -> &str {
        match name {
            "rounds_per_night" => &self.rounds_per_night,
            "out_points" => &self.out_points,
            "hand_out_points" => &self.hand_out_points,
            "joker_multiplier" => &self.joker_multiplier,
            "julen_per_out" => &self.julen_per_out,
            "kreisliga_below_rounds" => &self.kreisliga_below_rounds,
            "min_rounds_first_liga" => &self.min_rounds_first_liga,
            "first_liga_deadline" => &self.first_liga_deadline,
            "fee_base_cents" => &self.fee_base_cents,
            "fee_monthly_increase_cents" => &self.fee_monthly_increase_cents,
            "fee_increase_from_month" => &self.fee_increase_from_month,
            "last_join_month" => &self.last_join_month,
            "sozialfall_after" => &self.sozialfall_after,
            "lucky_looser_cents" => &self.lucky_looser_cents,
            "payout_percent" => &self.payout_percent,
            "split_tables_from" => &self.split_tables_from,
            "game" => &self.game,
            _ => "",
        }
        .trim()
    }

    /// `rules` with every typed field set, or each refused field's German message (label: why).
    pub fn apply(
        &self,
        rules: &SeasonRules,
    ) -> Result<SeasonRules, BTreeMap<&'static str, String>> {
        let mut rules = rules.clone();
        let mut errors = BTreeMap::new();
        for &(name, label, _, kind) in &FIELDS {
            if kind == Kind::Shown {
                continue;
            }
            if let Err(why) = self.set(&mut rules, name) {
                errors.insert(name, format!("{label}: {why}"));
            }
        }
        if errors.is_empty() {
            Ok(rules)
        } else {
            Err(errors)
        }
    }

    /// Sets `field` of `rules` as typed. Errors: German, why the value is not one.
    fn set(&self, rules: &mut SeasonRules, field: &str) -> Result<(), String> {
        let value = self.text(field);
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
            "julen_carry_across_seasons" => {
                rules.julen_carry_across_seasons = self.julen_carry_across_seasons.is_some()
            }
            "kreisliga_below_rounds" => rules.kreisliga_below_rounds = count(value)?,
            "min_rounds_first_liga" => rules.min_rounds_first_liga = count(value)?,
            "first_liga_deadline" => rules.first_liga_deadline = MonthDay::from_de(value)?,
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
                let json = if value == OWN_GAME {
                    Some(self.game_json.trim())
                } else {
                    value.starts_with('{').then_some(value)
                };
                let game = match json {
                    Some(j) => serde_json::from_str(j).map_err(|e| {
                        format!(
                            "eigene Regeln: kein gültiges JSON (Zeile {}, Zeichen {})",
                            e.line(),
                            e.column()
                        )
                    })?,
                    None => Value::String(value.to_string()),
                };
                RuleSet::from_json(&game).map_err(|e| e.to_string())?;
                rules.game = game;
            }
            _ => {}
        }
        Ok(())
    }
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
        "first_liga_deadline" => (rules.first_liga_deadline.de(), false),
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

/// A whole number ≥ 0 as typed. Errors: German.
fn count(s: &str) -> Result<u32, String> {
    if s.is_empty() {
        return Err("Wert fehlt".to_string());
    }
    s.parse()
        .map_err(|_| format!("„{s}“ ist keine ganze Zahl ≥ 0"))
}

/// The German name of a season's dice game (`rules.game`): a preset's title („Regeln der
/// Schockerliga“), or „eigene Regeln auf Grundlage von …“ for an object.
pub fn game_title(game: &Value) -> String {
    let title = |name: &str| RuleSet::preset_title(name).unwrap_or(name).to_string();
    match game {
        Value::String(name) => title(name),
        Value::Object(map) => format!(
            "eigene Regeln auf Grundlage von „{}“",
            title(
                map.get("preset")
                    .and_then(Value::as_str)
                    .unwrap_or("schockerliga")
            )
        ),
        other => other.to_string(),
    }
}

/// The fields of the page as `form` holds them (the rules, or what was typed), each with its
/// `errors` entry and the year's default.
fn fields(
    year: i32,
    rules: &SeasonRules,
    form: &RulesForm,
    errors: &BTreeMap<&str, String>,
) -> Vec<FieldView> {
    let defaults = SeasonRules::defaults_for(year);
    FIELDS
        .iter()
        .map(|&(name, label, help, kind)| {
            let (value, checked) = match kind {
                Kind::Shown => shown(rules, name),
                Kind::Flag => (String::new(), form.julen_carry_across_seasons.is_some()),
                _ => (form.text(name).to_string(), false),
            };
            let (default, default_checked) = shown(&defaults, name);
            let choices = if kind == Kind::Game {
                let own = value == OWN_GAME || value.starts_with('{');
                let mut c: Vec<(String, String, bool)> = RuleSet::presets()
                    .iter()
                    .map(|(n, _)| {
                        let title = RuleSet::preset_title(n).unwrap_or(n).to_string();
                        ((*n).to_string(), title, *n == value)
                    })
                    .collect();
                if !own && !c.iter().any(|x| x.2) {
                    // A name that is no preset stays chosen, so the refusal shows what was sent.
                    c.push((value.clone(), format!("„{value}“ (unbekannt)"), true));
                }
                c.push((
                    OWN_GAME.to_string(),
                    "eigene Regeln (JSON)".to_string(),
                    own,
                ));
                c
            } else {
                Vec::new()
            };
            let own = if value.starts_with('{') {
                value.clone()
            } else {
                form.game_json.clone()
            };
            FieldView {
                name,
                label,
                help,
                value,
                default: if kind == Kind::Flag {
                    if default_checked { "ja" } else { "nein" }.to_string()
                } else if kind == Kind::Game {
                    game_title(&defaults.game)
                } else if default.is_empty() {
                    "leer".to_string()
                } else {
                    default
                },
                checked,
                flag: kind == Kind::Flag,
                shown_only: kind == Kind::Shown,
                numeric: matches!(kind, Kind::Count | Kind::OptionalCount),
                choices,
                own,
                error: errors.get(name).cloned(),
            }
        })
        .collect()
}

fn render(
    layout: Layout,
    at: &AtSeason,
    form: &RulesForm,
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

/// `GET /verwaltung/saison/{year}/regeln`: the season's rules as a form (read-only once the
/// season has a night).
async fn get(layout: Layout, at: AtSeason) -> RulesPage {
    let form = RulesForm::of(&at.view.season.rules);
    render(layout, &at, &form, &BTreeMap::new(), None)
}

/// Where a refusal of the league's check points: „rules.<field>: why“ → (field, „Label: why“).
fn refused_field(message: &str) -> Option<(&'static str, String)> {
    let rest = message.strip_prefix("rules.")?;
    let (field, why) = rest.split_once(": ")?;
    let (name, label, ..) = FIELDS.iter().find(|f| f.0 == field)?;
    Some((*name, format!("{label}: {why}")))
}

/// `POST /verwaltung/saison/{year}/regeln`: stores the typed rules (`Change::SetRules`) before
/// the first night; refused → the form again with everything typed and each field's reason.
async fn post(
    reply: Reply,
    RequireSecretary(user): RequireSecretary,
    at: AtSeason,
    axum::Form(form): axum::Form<RulesForm>,
) -> Result<Response, AppError> {
    let year = at.year();
    let (done, errors) = match form.apply(&at.view.season.rules) {
        Err(errors) => {
            let names: Vec<&str> = FIELDS
                .iter()
                .filter(|f| errors.contains_key(f.0))
                .map(|f| f.1)
                .collect();
            let why = format!("Nichts gespeichert: bitte {} prüfen.", names.join(", "));
            (Err(ServiceError::refused(why)), errors)
        }
        Ok(rules) => {
            let change = Change::SetRules {
                rules: Box::new(rules),
            };
            let edit = Edit::by(&user.username);
            let done = reply.league.change(year, change, &edit).await.map(|_| ());
            (done, BTreeMap::new())
        }
    };
    let to = format!("/verwaltung/saison/{year}/regeln");
    let stored = |()| Stored::at(to, format!("Saisonregeln {year} gespeichert."));
    reply
        .finish(done, stored, async |refusal, layout| {
            let message = refusal.to_string();
            let mut errors = errors;
            // A range check of the league names its field: the message goes beside it.
            let top = match refused_field(&message) {
                Some((name, why)) => {
                    errors.insert(name, why.clone());
                    format!("Nichts gespeichert: {why}")
                }
                None if message.starts_with("Nichts gespeichert") => message,
                None => format!("Nichts gespeichert: {message}"),
            };
            Ok(render(layout, &at, &form, &errors, Some(top)))
        })
        .await
}
