//! The club's settings (SECURITY.md "Private money"): the GiroCode's account, the PayPal.me name,
//! "Kasse nur für Mitglieder"; and the club's time zone (interchange.md "Running it for a club"),
//! a choice of its own form, read-only when `--timezone` fixed it at start.

use askama::Template;
use askama_web::WebTemplate;
use axum::extract::State;
use axum::response::Response;
use axum::Form;
use serde::Deserialize;

use crate::service::{League, ServiceError};
use crate::web::kit::session::RequireAdmin;
use crate::web::kit::{AppError, Layout, Reply, Stored};

/// The settings page.
#[derive(Template, WebTemplate)]
#[template(path = "admin/settings.html")]
pub struct SettingsPage {
    layout: Layout,
    account_name: String,
    iban: String,
    bic: String,
    paypal_me: String,
    money_private: bool,
    error: Option<String>,
    /// The club's time zone as the page shows it.
    zone: ZoneField,
}

/// The time zone field: the zone in force, whether `--timezone` fixed it, the choices.
pub struct ZoneField {
    /// The zone in force (IANA name).
    pub current: String,
    /// Given on the command line: the field is read-only.
    pub fixed: bool,
    /// The club's wall clock now, German ("01.12.2026 23:52").
    pub now: String,
    /// The usual zones first: (name, selected).
    pub common: Vec<(&'static str, bool)>,
    /// Every other zone of the IANA database: (name, selected).
    pub all: Vec<(&'static str, bool)>,
    /// The refusal of the time zone form, at the field.
    pub error: Option<String>,
}

/// The zones offered first: the club's neighbours and UTC.
const COMMON_ZONES: [&str; 14] = [
    "Europe/Berlin",
    "Europe/Vienna",
    "Europe/Zurich",
    "Europe/Luxembourg",
    "Europe/Brussels",
    "Europe/Amsterdam",
    "Europe/Paris",
    "Europe/Copenhagen",
    "Europe/Prague",
    "Europe/Warsaw",
    "Europe/Rome",
    "Europe/Madrid",
    "Europe/London",
    "UTC",
];

/// The regions of the IANA names offered under „Alle Zeitzonen“ (not the old aliases such as
/// `CET` or `US/Eastern`).
const REGIONS: [&str; 9] = [
    "Africa/",
    "America/",
    "Antarctica/",
    "Asia/",
    "Atlantic/",
    "Australia/",
    "Europe/",
    "Indian/",
    "Pacific/",
];

/// The time zone field of `league`, with `error` at it.
fn zone_field(league: &League, error: Option<String>) -> ZoneField {
    let current = league.timezone().name();
    let common = COMMON_ZONES.iter().map(|z| (*z, *z == current)).collect();
    let mut all: Vec<&'static str> = chrono_tz::TZ_VARIANTS
        .iter()
        .map(|z| z.name())
        .filter(|n| REGIONS.iter().any(|r| n.starts_with(r)) && !COMMON_ZONES.contains(n))
        .collect();
    all.sort_unstable();
    ZoneField {
        current: current.to_string(),
        fixed: league.timezone_from_command_line(),
        now: league.now_local().format("%d.%m.%Y %H:%M").to_string(),
        common,
        all: all.into_iter().map(|z| (z, z == current)).collect(),
        error,
    }
}

/// The settings form's fields.
#[derive(Deserialize)]
pub struct SettingsForm {
    /// Kontoinhaber.
    #[serde(default)]
    pub account_name: String,
    /// IBAN.
    #[serde(default)]
    pub iban: String,
    /// BIC.
    #[serde(default)]
    pub bic: String,
    /// PayPal.me name.
    #[serde(default)]
    pub paypal_me: String,
    /// Present when "Kasse nur für Mitglieder" is ticked.
    pub money_private: Option<String>,
}

/// `GET /verwaltung/einstellungen`: the club's settings (GiroCode account, PayPal.me, "Kasse nur
/// für Mitglieder").
pub async fn get(State(league): State<League>, layout: Layout) -> SettingsPage {
    let s = league.settings();
    SettingsPage {
        layout,
        account_name: s.account_name.clone(),
        iban: s.iban.clone(),
        bic: s.bic.clone(),
        paypal_me: s.paypal_me.clone(),
        money_private: s.money_private,
        error: None,
        zone: zone_field(&league, None),
    }
}

/// `POST /verwaltung/einstellungen`: the club's settings; refused → the page again as typed.
pub async fn post(
    reply: Reply,
    RequireAdmin(me): RequireAdmin,
    Form(form): Form<SettingsForm>,
) -> Result<Response, AppError> {
    let input = crate::service::settings::SettingsInput {
        account_name: form.account_name.clone(),
        iban: form.iban.clone(),
        bic: form.bic.clone(),
        paypal_me: form.paypal_me.clone(),
        money_private: form.money_private.is_some(),
    };
    let done = reply.league.set_settings(&input, &me.username).await;
    let league = reply.league.clone();
    let stored = |s: crate::service::settings::ClubSettings| {
        Stored::at(
            "/verwaltung/einstellungen",
            if s.money_private {
                "Einstellungen gespeichert. Die Kasse ist jetzt nur für Mitglieder sichtbar."
            } else {
                "Einstellungen gespeichert. Die Kasse ist öffentlich."
            },
        )
    };
    reply
        .finish(done, stored, async |refusal, layout| {
            Ok(SettingsPage {
                layout,
                account_name: form.account_name,
                iban: form.iban,
                bic: form.bic,
                paypal_me: form.paypal_me,
                money_private: input.money_private,
                error: Some(refusal.to_string()),
                zone: zone_field(&league, None),
            })
        })
        .await
}

/// The time zone form's field.
#[derive(Deserialize)]
pub struct ZoneForm {
    /// An IANA name such as `Europe/Berlin`.
    #[serde(default)]
    pub timezone: String,
}

/// `POST /verwaltung/einstellungen/zeitzone`: the club's time zone (`League::set_timezone`,
/// audited); refused (no such zone, or fixed by `--timezone` at start) → the page again with the
/// reason at the field.
pub async fn post_timezone(
    reply: Reply,
    RequireAdmin(me): RequireAdmin,
    Form(form): Form<ZoneForm>,
) -> Result<Response, AppError> {
    let league = reply.league.clone();
    let done = if league.timezone_from_command_line() {
        Err(ServiceError::refused(format!(
            "Zeitzone nicht geändert: sie ist beim Start mit --timezone auf {} festgelegt \
             (Einstellung SCHOCKERLIGA_TIMEZONE in /etc/default/schockerliga).",
            league.timezone().name()
        )))
    } else {
        league.set_timezone(&form.timezone, &me.username).await
    };
    reply
        .finish(
            done,
            |tz| {
                Stored::at(
                    "/verwaltung/einstellungen#zeitzone",
                    format!(
                        "Zeitzone gespeichert: {}. Heute ist im Verein der {}.",
                        tz.name(),
                        crate::league::model::format::date_de(league.today())
                    ),
                )
            },
            async |refusal, layout| {
                let s = league.settings();
                Ok(SettingsPage {
                    layout,
                    account_name: s.account_name.clone(),
                    iban: s.iban.clone(),
                    bic: s.bic.clone(),
                    paypal_me: s.paypal_me.clone(),
                    money_private: s.money_private,
                    error: None,
                    zone: zone_field(&league, Some(refusal.to_string())),
                })
            },
        )
        .await
}
