//! „Der Rückblick“ (issue 39.2): `/spieler/{id}/rueckblick/{year}`, a player's year as a few
//! cards (`league::history::rueckblick`: the table's figures, his best night, Hand-Outs, Julen,
//! Joker, runs as the Rekorde count them, paid rounds and Sozialfälle; his Glücksfaktor when he
//! played in the Schockbesteck) and his Abzeichen (issue 39.3). Cards without a figure are left out; printable; from the page
//! cache like every public page.

use askama::Template;
use askama_web::WebTemplate;
use axum::extract::{Path, State};
use axum::response::{IntoResponse, Response};

use crate::league::history::rueckblick::abzeichen::{abzeichen, Abzeichen};
use crate::league::history::rueckblick::{rueckblick, Rueckblick};
use crate::service::League;
use crate::web::kit::{filters, AppError, Guard, Layout, Routes};
use crate::web::public::table::GlueckLine;

/// The routes of this feature.
pub fn routes() -> Routes {
    Routes::new().get(Guard::Public, "/spieler/{id}/rueckblick/{year}", page)
}

/// The page.
#[derive(Template, WebTemplate)]
#[template(path = "public/rueckblick.html")]
struct RueckblickPage {
    layout: Layout,
    r: Rueckblick,
    /// His page of the season.
    player_href: String,
    /// The season's Rekorde.
    records_href: String,
    /// His Glücksfaktor; `None` when no round of his was played in the Schockbesteck.
    glueck: Option<GlueckLine>,
    /// His Abzeichen of the year with the night each was earned (issue 39.3).
    abzeichen: Vec<Abzeichen>,
}

/// `/spieler/{id}/rueckblick/{year}`: 404 for an unknown season, a player not in it, or one
/// without a round; 308 to the kept player's Rückblick for a merged-away player.
async fn page(
    State(league): State<League>,
    layout: Layout,
    Path((id, year)): Path<(i64, i32)>,
) -> Result<Response, AppError> {
    let snapshot = league.snapshot();
    let view = snapshot.season(year).map_err(|_| AppError::NotFound)?;
    let Some(name) = view.player_name(id).map(str::to_string) else {
        // A merged-away player's Rückblick moved to the kept one's (issue 36.2).
        return match league.merged_away(id).await? {
            Some(m) => Ok(axum::response::Redirect::permanent(&format!(
                "/spieler/{}/rueckblick/{year}",
                m.kept_id
            ))
            .into_response()),
            None => Err(AppError::NotFound),
        };
    };
    let history = view.player_history(&name).ok_or(AppError::NotFound)?;
    let table = view.standings_on(None, layout.today);
    let r = rueckblick(&view.season, &table, &history).ok_or(AppError::NotFound)?;
    // As of the table's day: a Schockbesteck night entered ahead of today does not count yet.
    let glueck = match table.as_of {
        None => view.glueck().get(&name).map(|g| GlueckLine::of(Some(g))),
        Some(d) => crate::league::history::glueck::of_season_until(&view.season, Some(d))
            .get(&name)
            .map(|g| GlueckLine::of(Some(g))),
    };
    let abzeichen = abzeichen(&view.season, &history, table.as_of);
    Ok(RueckblickPage {
        player_href: format!("/saison/{year}/spieler/{id}"),
        records_href: format!("/saison/{year}/rekorde"),
        glueck,
        abzeichen,
        r,
        layout,
    }
    .into_response())
}
