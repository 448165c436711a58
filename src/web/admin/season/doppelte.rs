//! `/verwaltung/spieler/doppelte` (issue 36.1): the pairs of players of every season that are
//! likely one person under two names ([`crate::league::history::doubles`]), each with why, his
//! seasons and his nights; pairs who played on the same night are listed apart as „nicht dieselbe
//! Person (beide am …)“. For the secretary and the admin; long lists fold.

use askama::Template;
use askama_web::WebTemplate;
use axum::extract::State;

use crate::league::history::doubles::{suggest, traces, PlayerTrace};
use crate::league::model::format::date_de;
use crate::service::League;
use crate::web::kit::Layout;

/// Pairs shown open; the rest of a list folds into „Weitere … Paare“.
pub const SHOWN_OPEN: usize = 20;

/// One player of a pair as the page shows him.
pub struct Side {
    /// His name (the spelling of his latest season).
    pub name: String,
    /// His storage id (the merge's `in=`), 0 when unknown.
    pub id: i64,
    /// His career page, empty when unknown.
    pub href: String,
    /// His seasons, e.g. „2019, 2020, 2024“; „—“ for none.
    pub seasons: String,
    /// The number of nights he played.
    pub nights: usize,
}

/// One pair of the page.
pub struct PairLine {
    /// The player with more nights (the likely name to keep).
    pub first: Side,
    /// The other one.
    pub second: Side,
    /// Why they are suggested, German.
    pub reason: String,
    /// The reason's code ([`crate::league::history::doubles::Reason::code`]).
    pub code: String,
    /// „nicht dieselbe Person (beide am TT.MM.JJJJ)“ when both played that night.
    pub apart: Option<String>,
}

/// The page.
#[derive(Template, WebTemplate)]
#[template(path = "admin/doppelte.html")]
pub struct DoublesPage {
    layout: Layout,
    /// Pairs that may be one person: shown open, then folded.
    likely: Vec<PairLine>,
    more_likely: Vec<PairLine>,
    /// Pairs who played the same night (two people).
    apart: Vec<PairLine>,
    /// Players compared.
    players: usize,
}

fn side(snapshot: &crate::service::Snapshot, p: &PlayerTrace) -> Side {
    let id = snapshot.player_id(&p.name);
    let seasons: Vec<String> = p.seasons.iter().map(i32::to_string).collect();
    Side {
        name: p.name.clone(),
        id: id.unwrap_or_default(),
        href: id.map(|id| format!("/spieler/{id}")).unwrap_or_default(),
        seasons: if seasons.is_empty() {
            "—".into()
        } else {
            seasons.join(", ")
        },
        nights: p.nights.len(),
    }
}

/// `GET /verwaltung/spieler/doppelte`: every readable season's players compared.
pub async fn get(State(league): State<League>, layout: Layout) -> DoublesPage {
    let snapshot = league.snapshot();
    let players = traces(snapshot.seasons().map(|v| &v.season));
    let (mut likely, mut apart) = (Vec::new(), Vec::new());
    for d in suggest(&players) {
        let line = PairLine {
            first: side(&snapshot, &d.first),
            second: side(&snapshot, &d.second),
            reason: d.reason.german(),
            code: d.reason.code(),
            apart: d
                .same_night
                .map(|n| format!("nicht dieselbe Person (beide am {})", date_de(n))),
        };
        if line.apart.is_some() {
            apart.push(line);
        } else {
            likely.push(line);
        }
    }
    let more_likely = likely.split_off(likely.len().min(SHOWN_OPEN));
    DoublesPage {
        layout,
        likely,
        more_likely,
        apart,
        players: players.len(),
    }
}
