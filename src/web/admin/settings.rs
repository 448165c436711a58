//! The club's settings (SECURITY.md "Private money"): the GiroCode's account, the PayPal.me name,
//! "Kasse nur für Mitglieder".

use askama::Template;
use askama_web::WebTemplate;
use axum::extract::State;
use axum::response::Response;
use axum::Form;
use serde::Deserialize;

use crate::service::League;
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
            })
        })
        .await
}
