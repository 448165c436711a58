//! `GET /api/v1/seasons/{season}/accounts` (issue 34.5, docs/saisondatei.md): every player's
//! account — his items (fines and the Jahresbeitrag, paid or open), the sums open and paid, and
//! his Guthaben. Members-only while the club keeps its Kasse private, like the payouts (403).

use axum::extract::rejection::PathRejection;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde::Serialize;

use crate::league::money::items::{account_items, AccountItem};
use crate::service::League;
use crate::web::kit::session::CurrentUser;
use crate::web::kit::{ApiError, Guard, Routes, Today};

/// The routes of this feature.
pub fn routes() -> Routes {
    Routes::new().get(Guard::Public, "/api/v1/seasons/{season}/accounts", accounts)
}

/// One player's account in the answer.
#[derive(Debug, Serialize)]
pub struct AccountJson {
    /// The player.
    pub player: String,
    /// His fines by night and booking order, then his Jahresbeitrag (paid, or due today).
    pub items: Vec<AccountItem>,
    /// Σ of the items not paid, cents.
    pub open_cents: i64,
    /// His Guthaben, cents (owed to him, not in the pot).
    pub credit_cents: i64,
    /// Σ of the items paid, cents.
    pub paid_cents: i64,
}

/// `GET /api/v1/seasons/{season}/accounts`: `[{"player", "items": [{"kind": "fine"|"fee",
/// "date", "cents", "paid_on"}], "open_cents", "credit_cents", "paid_cents"}, …]` in the
/// season's player order, on the club's today. 404 for an unknown season, 403 while the Kasse is
/// members-only and nobody is logged in.
async fn accounts(
    State(league): State<League>,
    Today(today): Today,
    user: Option<CurrentUser>,
    season: Result<Path<String>, PathRejection>,
) -> Result<Response, ApiError> {
    let Path(season) =
        season.map_err(|e| ApiError(StatusCode::BAD_REQUEST, format!("Ungültige Anfrage: {e}")))?;
    let year: i32 = season.parse().map_err(|_| {
        ApiError(
            StatusCode::NOT_FOUND,
            format!("Saison {season} gibt es nicht"),
        )
    })?;
    let snapshot = league.snapshot();
    if !snapshot.money_visible(user.is_some()) {
        return Err(ApiError(
            StatusCode::FORBIDDEN,
            "Die Kasse ist nur für Mitglieder: bitte anmelden.".to_string(),
        ));
    }
    let view = snapshot.season(year)?;
    let s = &view.season;
    let out: Vec<AccountJson> = s
        .players
        .iter()
        .map(|p| {
            let items = account_items(s, &p.name, today);
            let sum = |paid: bool| -> i64 {
                items
                    .iter()
                    .filter(|i| i.paid_on.is_some() == paid)
                    .map(|i| i.cents)
                    .sum()
            };
            AccountJson {
                player: p.name.clone(),
                open_cents: sum(false),
                paid_cents: sum(true),
                credit_cents: s.credit_cents(&p.name),
                items,
            }
        })
        .collect();
    Ok(crate::web::kit::privacy::private_money(
        &snapshot,
        Json(out).into_response(),
    ))
}
