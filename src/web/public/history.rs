//! The players' history across seasons (issue 10.4, 10.5): a player's career (`/spieler/{id}`), the
//! all-time table (`/ewige-tabelle`), the Ehrentafel (`/ehrentafel`) and the records and streaks,
//! all-time (`/rekorde`) and per season (`/saison/{year}/rekorde`). Everything is read from the
//! snapshot (computed once per snapshot); money next to names only when the club shows its money.

use askama::Template;
use askama_web::WebTemplate;
use axum::extract::{Path, State};
use axum::response::{IntoResponse, Response};
use chrono::Datelike;

use crate::league::history::career::{AllTimeRow, Career, HonourYear, ALL_TIME_MIN_ROUNDS};
use crate::league::history::records::{RecordHolder, RecordKind, Records};
use crate::league::DWert;
use crate::service::{League, Snapshot};
use crate::web::kit::AtSeason;
use crate::web::kit::{filters, AppError, Guard, Layout, Routes};

/// The routes of this feature.
pub fn routes() -> Routes {
    Routes::new()
        .get(Guard::Public, "/spieler/{id}", career)
        .get(Guard::Public, "/ewige-tabelle", all_time)
        .get(Guard::Public, "/ehrentafel", ehrentafel)
        .get(Guard::Public, "/rekorde", records_all_time)
        .get(Guard::Public, "/saison/{year}/rekorde", records_season)
}

/// The link to the career page of `name` (any season's spelling), empty when unknown.
fn career_href(snapshot: &Snapshot, name: &str) -> String {
    snapshot
        .player_id(name)
        .map(|id| format!("/spieler/{id}"))
        .unwrap_or_default()
}

/// A player's career page.
#[derive(Template, WebTemplate)]
#[template(path = "public/career.html")]
struct CareerPage<'a> {
    layout: Layout,
    career: &'a Career,
    /// (season, link to his page of that season).
    season_hrefs: Vec<String>,
    /// His exact all-time D.Wert.
    d_wert: DWert,
    /// Money may be shown.
    money: bool,
    /// His place in the all-time table, if listed.
    all_time_rank: Option<u32>,
    min_rounds: u32,
    /// His Glücksfaktor over all seasons; `None` without a round in the Schockbesteck.
    glueck: Option<crate::web::public::table::GlueckLine>,
}

async fn career(
    State(league): State<League>,
    layout: Layout,
    Path(id): Path<i64>,
) -> Result<Response, AppError> {
    let snapshot = league.snapshot();
    let Some(name) = snapshot.player_name(id) else {
        // A merged-away player's career is the kept one's (issue 36.2).
        return match league.merged_away(id).await? {
            Some(m) => Ok(
                axum::response::Redirect::permanent(&format!("/spieler/{}", m.kept_id))
                    .into_response(),
            ),
            None => Err(AppError::NotFound),
        };
    };
    let history = snapshot.history_on(layout.today);
    let career = history.career(name).ok_or(AppError::NotFound)?;
    let season_hrefs = career
        .seasons
        .iter()
        .map(|s| {
            snapshot
                .season(s.season)
                .ok()
                .and_then(|v| {
                    v.ids
                        .players
                        .iter()
                        .find(|(n, _)| crate::league::name_key(n) == crate::league::name_key(name))
                        .map(|(_, pid)| format!("/saison/{}/spieler/{pid}", s.season))
                })
                .unwrap_or_default()
        })
        .collect();
    let all_time_rank = history.all_time_row(&career.player).map(|r| r.rank);
    let money = snapshot.money_visible(layout.user.is_some());
    // His Glücksfaktor summed over his seasons (a season may spell his name differently).
    let key = crate::league::name_key(name);
    let mut glueck: Option<crate::league::history::glueck::Glueck> = None;
    for v in snapshot.seasons() {
        for (n, g) in v.glueck() {
            if crate::league::name_key(n) == key {
                glueck = Some(glueck.map_or(*g, |a| a.plus(*g).unwrap_or(a)));
            }
        }
    }
    let page = CareerPage {
        layout,
        career,
        season_hrefs,
        d_wert: career.totals.d_wert_exact,
        money,
        all_time_rank,
        min_rounds: ALL_TIME_MIN_ROUNDS,
        glueck: glueck.map(|g| crate::web::public::table::GlueckLine::of(Some(&g))),
    }
    .into_response();
    Ok(crate::web::kit::privacy::private_money(&snapshot, page))
}

/// The all-time table page.
#[derive(Template, WebTemplate)]
#[template(path = "public/alltime.html")]
struct AllTimePage<'a> {
    layout: Layout,
    rows: Vec<(&'a AllTimeRow, String)>,
    min_rounds: u32,
}

async fn all_time(State(league): State<League>, layout: Layout) -> Response {
    let snapshot = league.snapshot();
    let history = snapshot.history_on(layout.today);
    let rows = history
        .all_time
        .iter()
        .map(|r| (r, career_href(&snapshot, &r.player)))
        .collect();
    AllTimePage {
        layout,
        rows,
        min_rounds: ALL_TIME_MIN_ROUNDS,
    }
    .into_response()
}

/// One season of the Ehrentafel as shown.
struct EhrentafelYear<'a> {
    /// Its Schocker des Jahres, Lucky Looser and places as of the club's today.
    honours: &'a HonourYear,
    /// The season is still running (its year is not over on the club's today): its names are
    /// the standing so far, marked „vorläufig“ as the Jahresabschluss does (issue 22.10).
    provisional: bool,
}

/// The Ehrentafel page.
#[derive(Template, WebTemplate)]
#[template(path = "public/ehrentafel.html")]
struct EhrentafelPage<'a> {
    layout: Layout,
    /// Newest year first.
    years: Vec<EhrentafelYear<'a>>,
    money: bool,
}

/// `GET /ehrentafel`: every season's Schocker des Jahres, Lucky Looser and paid places, newest
/// first, as the club's today sees them (a night after today counts nothing, issue 22.3); the
/// running season's marked „vorläufig“ (issue 22.10).
async fn ehrentafel(State(league): State<League>, layout: Layout) -> Response {
    let snapshot = league.snapshot();
    let money = snapshot.money_visible(layout.user.is_some());
    let today = layout.today;
    let honours = snapshot.ehrentafel_on(today);
    let page = EhrentafelPage {
        years: honours
            .iter()
            .rev()
            .map(|honours| EhrentafelYear {
                honours,
                provisional: honours.season >= today.year(),
            })
            .collect(),
        layout,
        money,
    }
    .into_response();
    crate::web::kit::privacy::private_money(&snapshot, page)
}

/// One record as shown: title, value with its unit, and each holder with his links.
pub struct RecordView {
    /// The German title.
    pub label: &'static str,
    /// The value with its unit, e.g. „7 Abende“.
    pub value: String,
    /// The holders.
    pub holders: Vec<HolderView>,
    /// Nights recorded as totals that a record of one round could not look at.
    pub nights_not_available: u32,
}

/// One holder of a record with the link to his career and to the night.
pub struct HolderView {
    /// The player's name.
    pub player: String,
    /// Link to his career page.
    pub href: String,
    /// Where: „Saison 2024“, „12.04.2024“, „12.04.2024, Tisch 1, Runde 3“, „12.04.–07.06.2024“.
    pub at: String,
    /// The night's link (the first night of a streak), empty for a season record.
    pub night_href: String,
}

/// The unit of a record's value in German.
fn value_text(kind: RecordKind, value: i64) -> String {
    let (one, many) = match kind {
        RecordKind::CountedOutsNight | RecordKind::CountedOutsRound => {
            ("gewertetes Out", "gewertete Outs")
        }
        RecordKind::HandOutsNight => ("Hand-Out", "Hand-Outs"),
        RecordKind::JulenSeason => ("Jule", "Julen"),
        RecordKind::OutStreak | RecordKind::AttendanceStreak => ("Abend", "Abende"),
        RecordKind::LostRoundsNight => ("verlorene Runde", "verlorene Runden"),
    };
    format!("{value} {}", if value == 1 { one } else { many })
}

fn holder_view(snapshot: &Snapshot, h: &RecordHolder) -> HolderView {
    let de = crate::league::model::format::date_de;
    let at = match (h.date, h.until, h.table, h.round) {
        (Some(d), Some(u), _, _) if u != d => format!("{} bis {}", de(d), de(u)),
        (Some(d), _, Some(t), Some(r)) => format!("{}, Tisch {t}, Runde {r}", de(d)),
        (Some(d), _, _, _) => de(d),
        (None, _, _, _) => format!("Saison {}", h.season),
    };
    HolderView {
        player: h.player.clone(),
        href: career_href(snapshot, &h.player),
        at,
        night_href: h.date.map(|d| format!("/abend/{d}")).unwrap_or_default(),
    }
}

fn record_views(snapshot: &Snapshot, records: &Records) -> Vec<RecordView> {
    records
        .records
        .iter()
        .map(|r| RecordView {
            label: r.label,
            value: value_text(r.kind, r.value),
            holders: r.holders.iter().map(|h| holder_view(snapshot, h)).collect(),
            nights_not_available: r.nights_not_available,
        })
        .collect()
}

/// The records page (all-time or one season).
#[derive(Template, WebTemplate)]
#[template(path = "public/records.html")]
struct RecordsPage {
    layout: Layout,
    /// `None`: all-time.
    year: Option<i32>,
    /// Every readable season's year, newest first (links to the season records).
    years: Vec<i32>,
    records: Vec<RecordView>,
}

async fn records_all_time(State(league): State<League>, layout: Layout) -> Response {
    let snapshot = league.snapshot();
    RecordsPage {
        layout,
        year: None,
        years: snapshot.years(),
        records: record_views(&snapshot, &snapshot.history().records),
    }
    .into_response()
}

async fn records_season(layout: Layout, at: AtSeason) -> Response {
    RecordsPage {
        layout,
        year: Some(at.year()),
        years: at.snapshot.years(),
        records: record_views(&at.snapshot, at.view.records()),
    }
    .into_response()
}
