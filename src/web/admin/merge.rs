//! A player's Verwaltung page (`/verwaltung/spieler/{id}`, admin; issue 36.2, 36.3): his seasons,
//! "Zusammenführen mit …" (he goes into the player chosen, in every season) and, when someone was
//! merged into him, "Trennen" (the last merge undone, both exactly as before). Each form is one
//! service call (`League::merge_players`, `League::split_player`); a refused one shows the page
//! again with the reason and what was typed.

use askama::Template;
use askama_web::WebTemplate;
use axum::extract::{Path, Query, State};
use axum::response::{IntoResponse, Response};
use axum::Form;
use serde::Deserialize;

use crate::service::merge::MergeNote;
use crate::service::{Edit, League};
use crate::web::kit::session::RequireAdmin;
use crate::web::kit::{AppError, Guard, Layout, Reply, Routes, Stored};

/// The routes of this feature.
pub fn routes() -> Routes {
    Routes::new()
        .get(Guard::Admin, "/verwaltung/spieler/{id}", get)
        .post(
            Guard::Admin,
            "/verwaltung/spieler/{id}/zusammenfuehren",
            merge,
        )
        .post(Guard::Admin, "/verwaltung/spieler/{id}/trennen", split)
}

/// Another league player to merge into: id, name, his seasons ("2024, 2026").
pub struct Other {
    /// `players.id`.
    pub id: i64,
    /// His name.
    pub name: String,
    /// His seasons, comma-separated.
    pub seasons: String,
}

/// The page.
#[derive(Template, WebTemplate)]
#[template(path = "admin/spieler.html")]
struct PlayerAdminPage {
    layout: Layout,
    id: i64,
    name: String,
    /// His seasons, comma-separated (empty when merged away).
    seasons: String,
    /// The players he may go into, by name.
    others: Vec<Other>,
    /// The last merge into him (what "Trennen" undoes).
    last_merge: Option<MergeNote>,
    /// He was merged away into this one.
    merged_into: Option<MergeNote>,
    error: Option<String>,
    error_at: String,
    /// Typed: the chosen player and the reasons.
    into: i64,
    merge_reason: String,
    split_reason: String,
}

/// What a refused form typed.
#[derive(Default)]
struct Typed {
    error: Option<String>,
    error_at: String,
    into: i64,
    merge_reason: String,
    split_reason: String,
}

/// The page of player `id`; 404 when the league has no such player.
async fn page(
    league: &League,
    layout: Layout,
    id: i64,
    typed: Typed,
) -> Result<PlayerAdminPage, AppError> {
    let snapshot = league.snapshot();
    let merges = league.merges().await?;
    let merged_into = merges.iter().find(|m| m.gone_id == id).cloned();
    let name = match (snapshot.player_name(id), &merged_into) {
        (Some(n), _) => n.to_string(),
        (None, Some(m)) => m.gone.clone(),
        (None, None) => return Err(AppError::NotFound),
    };
    let mut seasons_of: std::collections::BTreeMap<i64, (String, Vec<i32>)> = Default::default();
    for v in snapshot.seasons() {
        for (n, pid) in &v.ids.players {
            let e = seasons_of
                .entry(*pid)
                .or_insert_with(|| (n.clone(), Vec::new()));
            e.0 = n.clone();
            e.1.push(v.season.year);
        }
    }
    let list = |ys: &[i32]| ys.iter().map(i32::to_string).collect::<Vec<_>>().join(", ");
    let seasons = seasons_of
        .get(&id)
        .map(|(_, y)| list(y))
        .unwrap_or_default();
    let mut others: Vec<Other> = seasons_of
        .iter()
        .filter(|(pid, _)| **pid != id)
        .map(|(pid, (n, ys))| Other {
            id: *pid,
            name: n.clone(),
            seasons: list(ys),
        })
        .collect();
    others.sort_by_key(|a| a.name.to_lowercase());
    Ok(PlayerAdminPage {
        layout,
        id,
        name,
        seasons,
        others,
        last_merge: merges.iter().rev().find(|m| m.kept_id == id).cloned(),
        merged_into,
        error: typed.error,
        error_at: typed.error_at,
        into: typed.into,
        merge_reason: typed.merge_reason,
        split_reason: typed.split_reason,
    })
}

/// The page's query: `in` = a player to offer chosen in "Zusammenführen mit" (the link of a
/// suggested double); anything else than a number is ignored.
#[derive(Deserialize)]
pub struct Chosen {
    /// The suggested partner's `players.id`.
    #[serde(rename = "in", default)]
    pub into: String,
}

/// `GET /verwaltung/spieler/{id}[?in=ID]`: the player's Verwaltung page, with `in` chosen.
async fn get(
    State(league): State<League>,
    layout: Layout,
    _admin: RequireAdmin,
    Path(id): Path<i64>,
    Query(chosen): Query<Chosen>,
) -> Result<Response, AppError> {
    let typed = Typed {
        into: chosen.into.trim().parse().unwrap_or_default(),
        ..Typed::default()
    };
    Ok(page(&league, layout, id, typed).await?.into_response())
}

/// The merge form: `in` = the kept player's id, `grund` the reason.
#[derive(Deserialize)]
pub struct MergeForm {
    /// The player to go into (`players.id`); empty when none was chosen.
    #[serde(rename = "in", default)]
    pub into: String,
    /// Why.
    #[serde(default)]
    pub grund: String,
}

/// `POST /verwaltung/spieler/{id}/zusammenfuehren`: player `id` goes into player `in`.
async fn merge(
    reply: Reply,
    RequireAdmin(user): RequireAdmin,
    Path(id): Path<i64>,
    Form(form): Form<MergeForm>,
) -> Result<Response, AppError> {
    let into: Option<i64> = form.into.trim().parse().ok();
    let done = match into {
        None => Err(crate::service::ServiceError::refused(
            "Zusammenführen mit: bitte einen Spieler wählen.",
        )),
        Some(kept) => {
            reply
                .league
                .merge_players(id, kept, &form.grund, &Edit::by(&user.username))
                .await
        }
    };
    let league = reply.league.clone();
    reply
        .finish(
            done,
            |m| {
                Stored::at(
                    format!("/verwaltung/spieler/{}", m.kept_id),
                    format!("„{}“ ist mit „{}“ zusammengeführt.", m.gone, m.kept),
                )
            },
            async |refusal, layout| {
                let typed = Typed {
                    error: Some(refusal.to_string()),
                    error_at: "zusammenfuehren".into(),
                    into: into.unwrap_or_default(),
                    merge_reason: form.grund,
                    ..Typed::default()
                };
                page(&league, layout, id, typed).await
            },
        )
        .await
}

/// The split form: `grund` the reason.
#[derive(Deserialize)]
pub struct SplitForm {
    /// Why.
    #[serde(default)]
    pub grund: String,
}

/// `POST /verwaltung/spieler/{id}/trennen`: the last merge into player `id` undone.
async fn split(
    reply: Reply,
    RequireAdmin(user): RequireAdmin,
    Path(id): Path<i64>,
    Form(form): Form<SplitForm>,
) -> Result<Response, AppError> {
    let done = reply
        .league
        .split_player(id, &form.grund, &Edit::by(&user.username))
        .await;
    let league = reply.league.clone();
    reply
        .finish(
            done,
            |m| {
                Stored::at(
                    format!("/verwaltung/spieler/{}", m.kept_id),
                    format!("„{}“ und „{}“ sind wieder getrennt.", m.gone, m.kept),
                )
            },
            async |refusal, layout| {
                let typed = Typed {
                    error: Some(refusal.to_string()),
                    error_at: "trennen".into(),
                    split_reason: form.grund,
                    ..Typed::default()
                };
                page(&league, layout, id, typed).await
            },
        )
        .await
}
