//! Public pages, no login: the season's table as three tables (1. Liga, 2. Liga, Kreisliga) and a
//! player's season night by night (the list of nights and each night's page: `abende`). All read
//! the league's snapshot; anonymous visits are served by the page cache.

use askama::Template;
use askama_web::WebTemplate;
use axum::extract::{Query, State};
use axum::response::{IntoResponse, Response};
use chrono::NaiveDate;
use serde::Deserialize;

use crate::league::table::progress::{Movement, ProgressRow};
use crate::league::{self, Liga, PlayerNight, StandingRow};
use crate::service::{League, SeasonView};
use crate::web::kit::at::{as_of_date, AtSeason};
use crate::web::kit::{filters, AppError, Guard, Layout, Routes};
use crate::web::public::ich::{personal, Me};

/// The routes of this feature.
pub fn routes() -> Routes {
    Routes::new()
        .get(Guard::Public, "/", home)
        .get(Guard::Public, "/saison/{year}", table)
        .get(Guard::Public, "/saison/{year}/spieler/{id}", player)
}

/// One Liga's table: its label and rows by rank, then name.
pub struct LigaTable<'a> {
    /// "1. Liga", "2. Liga" or "Kreisliga".
    pub label: &'static str,
    /// Its rows, each with the link to the player page.
    pub lines: Vec<TableLine<'a>>,
}

/// One row of the public table: the standings line, the link to the player page, the movement
/// since the previous night and a short Liga-Fortschritt badge (league.md §3–§5).
pub struct TableLine<'a> {
    /// The standings line.
    pub row: &'a StandingRow,
    /// Link to his season page.
    pub href: String,
    /// „▲2“, „▼1“, „–“, „neu“, „aufgestiegen“ or „abgestiegen“.
    pub movement: String,
    /// The same for the narrow column: „auf“ and „ab“ for a Liga change, else as `movement`.
    pub movement_short: String,
    /// The CSS class of the movement: `up`, `down`, `same` or `new`.
    pub movement_class: &'static str,
    /// The short „Was fehlt noch?“ badge, if any (German).
    pub badge: Option<String>,
    /// The visitor said „Das bin ich“ for this player (highlighted).
    pub me: bool,
}

/// The visitor's own progress („Das bin ich“) at the top of the home page.
pub struct Mine {
    /// His name.
    pub name: String,
    /// Link to his season page.
    pub href: String,
    /// Where he stands.
    pub stand: Stand,
    /// „Was fehlt noch?“.
    pub missing: Vec<String>,
}

/// The CSS class of a movement (`up`, `down`, `same`, `new`).
fn movement_class(m: Movement) -> &'static str {
    match m {
        Movement::Up { .. } | Movement::Promoted => "up",
        Movement::Down { .. } | Movement::Relegated => "down",
        Movement::Same => "same",
        Movement::New => "new",
    }
}

/// The short Liga-Fortschritt of a table row (league.md §4, §5), the most pressing first: rounds to
/// leave the Kreisliga; rounds still needed for the 1. Liga before the deadline; the 100 rounds
/// missed after it; else the counted Outs to pass the player above, whose place is `above_rank`
/// („3 Outs bis Pl. 2“: in words, so that ▲ and ▼ mean only the movement, issue 31.11). `None`
/// when nothing is left. For a season that is `over` (`league::table::progress::is_over`) only what was
/// missed, in the past tense („fehlten 70 Rd. bis Liga“), nothing still to reach.
pub fn badge(p: &ProgressRow, over: bool, above_rank: Option<u32>) -> Option<String> {
    if over {
        if p.liga == Liga::Kreisliga {
            return (p.rounds_to_leave_kreisliga > 0)
                .then(|| format!("fehlten {} Rd. bis Liga", p.rounds_to_leave_kreisliga));
        }
        let missed = match p.first_liga_reached {
            Some(reached) => !reached,
            None => p.rounds_to_first_liga > 0,
        };
        return missed.then(|| "Rundenziel 1. Liga verpasst".to_string());
    }
    if p.liga == Liga::Kreisliga {
        return Some(format!("noch {} Rd. bis Liga", p.rounds_to_leave_kreisliga));
    }
    match p.first_liga_reached {
        None if p.rounds_to_first_liga > 0 => {
            return Some(format!("noch {} Rd. für 1. Liga", p.rounds_to_first_liga))
        }
        Some(false) => return Some("Rundenziel 1. Liga verpasst".to_string()),
        _ => {}
    }
    let (k, above) = (p.outs_to_pass?, above_rank?);
    Some(if k == 1 {
        format!("1 Out bis Pl. {above}")
    } else {
        format!("{k} Outs bis Pl. {above}")
    })
}

/// The table page.
#[derive(Template, WebTemplate)]
#[template(path = "public/table.html")]
struct TablePage<'a> {
    layout: Layout,
    /// „Das bin ich“: his place and „Was fehlt noch?“ first (home page only).
    mine: Option<Mine>,
    year: i32,
    years: Vec<i32>,
    as_of: Option<NaiveDate>,
    ligen: Vec<LigaTable<'a>>,
    /// The next planned night (issue 27) on the current season's table, with the visitor's answer
    /// when he said „Das bin ich“.
    next: Option<crate::web::public::termine::NextNight>,
    /// A night of this season is tonight and not closed: the page links to `/live`.
    live_tonight: bool,
    /// The season is kept as its Endstand only (the club's final table, no nights).
    endstand: bool,
}

/// The page when no season exists yet.
#[derive(Template, WebTemplate)]
#[template(path = "public/empty.html")]
struct EmptyPage {
    layout: Layout,
    /// No account exists yet: the page says where the setup link is.
    no_account: bool,
    /// The command that adds the first admin account to this server's database (issue 31.3).
    first_admin: String,
}

/// The table's query: an optional as-of date.
#[derive(Deserialize)]
pub struct AsOfQuery {
    /// `YYYY-MM-DD`; absent = the last night.
    pub as_of: Option<String>,
}

/// The link to player `name`'s page in `view`'s season.
pub(crate) fn player_href(view: &SeasonView, name: &str) -> String {
    view.ids
        .players
        .get(name)
        .map(|id| format!("/saison/{}/spieler/{id}", view.season.year))
        .unwrap_or_default()
}

async fn home(State(league): State<League>, layout: Layout, me: Me) -> Result<Response, AppError> {
    let snapshot = league.snapshot();
    match snapshot.current_year(layout.today) {
        Some(year) => {
            let view = snapshot.season(year)?;
            let money = snapshot.money_visible(layout.user.is_some());
            let mine = me
                .0
                .and_then(|id| view.player_name(id).map(|n| (id, n.to_string())))
                .and_then(|(id, name)| {
                    let (stand, missing) = where_he_stands(view, &name, money, true, layout.today)?;
                    Some(Mine {
                        href: format!("/saison/{year}/spieler/{id}"),
                        name,
                        stand,
                        missing,
                    })
                });
            let next = next_for(&snapshot, view, &layout, me);
            table_response(layout, view, snapshot.years(), None, me, mine, next)
        }
        None => {
            let no_account = league.accounts().await.is_ok_and(|a| a.is_empty());
            // Whether an account exists is not part of the snapshot: the page cache must not
            // keep the setup hint after the first account (issue 21, README as a newcomer).
            Ok(crate::web::kit::links::no_store(EmptyPage {
                layout,
                no_account,
                first_admin: league.first_admin_command(),
            }))
        }
    }
}

async fn table(
    layout: Layout,
    me: Me,
    at: AtSeason,
    Query(q): Query<AsOfQuery>,
) -> Result<Response, AppError> {
    let as_of = as_of_date(q.as_of.as_deref())?;
    let next = (at.snapshot.current_year(layout.today) == Some(at.year()) && as_of.is_none())
        .then(|| next_for(&at.snapshot, &at.view, &layout, me))
        .flatten();
    table_response(layout, &at.view, at.snapshot.years(), as_of, me, None, next)
}

/// The next planned night for the table of `view`, with the answer of the visitor's player
/// („Das bin ich“).
fn next_for(
    snapshot: &crate::service::Snapshot,
    view: &SeasonView,
    layout: &Layout,
    me: Me,
) -> Option<crate::web::public::termine::NextNight> {
    let mine =
        me.0.and_then(|id| snapshot.player_name(id).map(|n| (id, n)));
    let _ = view;
    crate::web::public::termine::next_night(snapshot, layout.today, mine, true)
}

fn table_response(
    layout: Layout,
    view: &SeasonView,
    years: Vec<i32>,
    as_of: Option<NaiveDate>,
    me: Me,
    mine: Option<Mine>,
    next: Option<crate::web::public::termine::NextNight>,
) -> Result<Response, AppError> {
    let picture = crate::web::public::bild::season_picture(view, layout.today);
    let layout = layout.with_picture(Some(picture), &format!("/bild/saison/{}", view.season.year));
    let my_name = me.0.and_then(|id| view.player_name(id));
    // As the club's today sees it (issue 22.3): a night entered ahead moves nothing.
    let standings = view.standings_on(as_of, layout.today);
    let progress = view.progress_on(as_of, layout.today);
    let over = league::table::progress::is_over(&view.season, layout.today);
    let ligen = [Liga::First, Liga::Second, Liga::Kreisliga]
        .into_iter()
        .map(|liga| LigaTable {
            label: liga.label(),
            lines: standings
                .rows
                .iter()
                .filter(|r| r.liga == liga)
                .map(|row| {
                    let p = progress.rows.iter().find(|p| p.player == row.player);
                    let movement = p.map_or(Movement::New, |p| p.movement);
                    TableLine {
                        row,
                        href: player_href(view, &row.player),
                        movement: movement.label(),
                        movement_short: match movement {
                            Movement::Promoted => "auf".to_string(),
                            Movement::Relegated => "ab".to_string(),
                            m => m.label(),
                        },
                        movement_class: movement_class(movement),
                        badge: p.and_then(|p| {
                            let above = standings
                                .rows
                                .iter()
                                .filter(|o| o.liga == liga && o.rank < row.rank)
                                .map(|o| o.rank)
                                .max();
                            badge(p, over, above)
                        }),
                        me: my_name == Some(row.player.as_str()),
                    }
                })
                .collect(),
        })
        .collect();
    let live_tonight = view
        .season
        .night(layout.today)
        .is_some_and(|night| !night.closed);
    let page = TablePage {
        live_tonight,
        layout,
        mine,
        year: view.season.year,
        years,
        as_of: standings.as_of,
        ligen,
        next,
        endstand: view.season.is_endstand(),
    }
    .into_response();
    Ok(personal(me, page))
}

/// The player page.
#[derive(Template, WebTemplate)]
#[template(path = "public/player.html")]
struct PlayerPage<'a> {
    layout: Layout,
    year: i32,
    name: String,
    fee_paid_on: Option<NaiveDate>,
    fee_cents: i64,
    open_julen: u32,
    /// Where he stands after the season's last night; `None` without a round.
    stand: Option<Stand>,
    /// „Was fehlt noch?“: one German sentence per item.
    missing: Vec<String>,
    /// The season is over (`league::table::progress::is_over`): „Am Saisonende“ instead of the question.
    over: bool,
    /// His curves as (caption, inline SVG): D.Wert, place, counted Outs per night; empty without a
    /// round.
    charts: Vec<(&'static str, String)>,
    /// The curves' figures for the text table, in date order.
    points: &'a [league::history::curves::CurvePoint],
    /// His nights, newest first.
    nights: Vec<&'a PlayerNight>,
    /// His money card; `None` while the club keeps its money private from a visitor.
    card: Option<crate::web::money::card::MoneyCard>,
    /// Link to his career across seasons.
    career_href: String,
    /// His `players.id` (the „Das bin ich“ form).
    id: i64,
    /// The visitor said „Das bin ich“ for him.
    is_me: bool,
    /// His Glücksfaktor; `None` when no round of the season was played in the Schockbesteck.
    glueck: Option<GlueckLine>,
    /// The next planned night with his answer (issue 27).
    next: Option<crate::web::public::termine::NextNight>,
    /// The season is kept as its Endstand only: no nights to show.
    endstand: bool,
    /// His Abzeichen of the season with the night each was earned (issue 39.3).
    abzeichen: Vec<league::history::rueckblick::abzeichen::Abzeichen>,
}

/// The Glücksfaktor as a page shows it (issue 10.7, `league::history::glueck`).
pub struct GlueckLine {
    /// The factor with two decimals ("1,83"); `None` without a Wurfrunde in the Schockbesteck.
    pub factor: Option<String>,
    /// The German sentence: thrown, expected, and what it rests on.
    pub sentence: String,
    /// What the factor says ("Mehr Glück, als die Würfel versprechen."), empty without one.
    pub verdict: &'static str,
    /// It rests on little: fewer than 3 Schock Outs expected.
    pub little: bool,
}

impl GlueckLine {
    /// The line of `g`, or the sentence for a player without Schockbesteck rounds.
    pub fn of(g: Option<&league::history::glueck::Glueck>) -> GlueckLine {
        let sentence = g.and_then(league::history::glueck::sentence);
        match (g, sentence) {
            (Some(g), Some(sentence)) => GlueckLine {
                factor: g.factor().map(league::history::glueck::two_decimals),
                verdict: g.factor().map_or("", league::history::glueck::verdict),
                sentence,
                little: g.expected < crate::rules::odds::Fraction::new(3, 1).unwrap_or_default(),
            },
            _ => GlueckLine {
                factor: None,
                sentence: "Noch keine Runde im Schockbesteck gespielt.".to_string(),
                verdict: "",
                little: false,
            },
        }
    }
}

/// Where a player stands (league.md §3, §4): place, Liga, D.Wert and the movement.
pub struct Stand {
    /// His rank in his Liga.
    pub rank: u32,
    /// His Liga.
    pub liga: &'static str,
    /// His exact D.Wert.
    pub d_wert: league::DWert,
    /// His rounds.
    pub rounds: u32,
    /// His counted Outs.
    pub counted_outs: i64,
    /// „▲2“, „neu“, „aufgestiegen“ …
    pub movement: String,
    /// The CSS class of the movement.
    pub movement_class: &'static str,
    /// The as-of date.
    pub as_of: Option<NaiveDate>,
}

/// Where player `name` stands after the season's last night and what he still needs (league.md
/// §3–§5); the Jahresbeitrag's price only when `money` may be shown, the players he would pass
/// only when `others` may be named (not on his own card). `None` without a round.
/// The Jahresbeitrag is as of `today` when that is after the last night (a player asks what it
/// costs this month, not what it cost at the last night).
pub fn where_he_stands(
    view: &SeasonView,
    name: &str,
    money: bool,
    others: bool,
    today: NaiveDate,
) -> Option<(Stand, Vec<String>)> {
    if view.season.is_endstand() {
        // A season kept as its Endstand (issue 24.3): its final table, nothing still to reach.
        let r = view.standings().rows.iter().find(|r| r.player == name)?;
        let stand = Stand {
            rank: r.rank,
            liga: r.liga.label(),
            d_wert: league::DWert {
                num: r.d_wert_num,
                den: r.d_wert_den,
            },
            rounds: r.rounds,
            counted_outs: r.counted_outs,
            movement: "Endstand".to_string(),
            movement_class: "",
            as_of: None,
        };
        return Some((stand, Vec::new()));
    }
    let progress = view.progress_on(None, today);
    let day = progress.as_of.map_or(today, |a| a.max(today));
    let mut r = progress.rows.iter().find(|r| r.player == name)?.clone();
    r.fee_cents_now = league::table::progress::fee_now(&view.season, name, day);
    let r = &r;
    let stand = Stand {
        rank: r.rank,
        liga: r.liga.label(),
        d_wert: league::DWert {
            num: r.counted_outs * i64::from(view.season.rules.rounds_per_night),
            den: i64::from(r.rounds),
        },
        rounds: r.rounds,
        counted_outs: r.counted_outs,
        movement: r.movement.label(),
        movement_class: movement_class(r.movement),
        as_of: progress.as_of,
    };
    let above: Vec<&ProgressRow> = progress
        .rows
        .iter()
        .filter(|o| o.liga == r.liga && o.rank < r.rank)
        .fold(Vec::new(), |mut best: Vec<&ProgressRow>, o| {
            match best.first().map(|b| b.rank.cmp(&o.rank)) {
                Some(std::cmp::Ordering::Less) | None => best = vec![o],
                Some(std::cmp::Ordering::Equal) => best.push(o),
                Some(std::cmp::Ordering::Greater) => {}
            }
            best
        });
    let above_rank = above.first().map_or(1, |o| o.rank);
    let above: Vec<&str> = if others {
        above.iter().map(|o| o.player.as_str()).collect()
    } else {
        Vec::new()
    };
    let paid = view
        .season
        .player(name)
        .and_then(|p| p.fee_paid_on)
        .is_some_and(|d| d <= day);
    let over = league::table::progress::is_over(&view.season, today);
    let missing = league::table::progress::missing(
        r,
        progress.deadline,
        paid,
        money,
        &above,
        above_rank,
        over,
    );
    Some((stand, missing))
}

async fn player(
    State(league): State<League>,
    layout: Layout,
    me: Me,
    at: AtSeason,
    axum::extract::Path((_, id)): axum::extract::Path<(i32, i64)>,
) -> Result<Response, AppError> {
    let view = &at.view;
    let Some(name) = view.player_name(id).map(str::to_string) else {
        // A merged-away player's page moved to the kept one's (issue 36.2).
        return match league.merged_away(id).await? {
            Some(m) => Ok(axum::response::Redirect::permanent(&format!(
                "/saison/{}/spieler/{}",
                view.season.year, m.kept_id
            ))
            .into_response()),
            None => Err(AppError::NotFound),
        };
    };
    let p = view.season.player(&name).ok_or(AppError::NotFound)?;
    let history = view.player_history(&name).ok_or(AppError::NotFound)?;
    let money = at.snapshot.money_visible(layout.user.is_some());
    let card = crate::web::money::card::card(
        &at.snapshot,
        view,
        &name,
        layout.user.is_some(),
        layout.today,
    );
    let (stand, missing) = where_he_stands(view, &name, money, true, layout.today).unzip();
    let missing = missing.unwrap_or_default();
    // As of the club's today, as the header's stand (nights entered ahead of their day wait).
    let as_of = view.season.capped_as_of(None, layout.today);
    let upto = |d: chrono::NaiveDate| as_of.is_none_or(|a| d <= a);
    let points = view
        .curves()
        .players
        .iter()
        .find(|c| c.player == name)
        .map_or(&[][..], |c| &c.points[..]);
    let points = &points[..points.iter().take_while(|p| upto(p.date)).count()];
    let nights: Vec<_> = history.nights.iter().filter(|n| upto(n.date)).collect();
    let open_julen = match as_of {
        None => history.open_julen,
        Some(_) => nights.last().map_or(0, |n| n.open_julen),
    };
    let glueck = match as_of {
        None => view.glueck().get(&name).copied(),
        Some(d) => league::history::glueck::of_season_until(&view.season, Some(d))
            .get(&name)
            .copied(),
    };
    let charts = if points.is_empty() {
        Vec::new()
    } else {
        vec![
            (
                "D.Wert nach jedem Abend",
                crate::web::public::chart::d_wert_chart(&name, points),
            ),
            (
                "Platz in der Liga nach jedem Abend",
                crate::web::public::chart::place_chart(&name, points),
            ),
            (
                "Gewertete Outs je Abend",
                crate::web::public::chart::outs_chart(&name, points),
            ),
        ]
    };
    let next = crate::web::public::termine::next_night(
        &at.snapshot,
        layout.today,
        Some((id, &name)),
        me.0 == Some(id),
    );
    let over = league::table::progress::is_over(&view.season, layout.today);
    let layout_today = layout.today;
    let page = PlayerPage {
        over,
        card,
        next,
        layout,
        year: at.year(),
        fee_paid_on: p.fee_paid_on,
        fee_cents: p.fee_cents,
        open_julen,
        stand,
        missing,
        charts,
        points,
        nights: nights.into_iter().rev().collect(),
        career_href: format!("/spieler/{id}"),
        id,
        is_me: me.0 == Some(id),
        endstand: view.season.is_endstand(),
        abzeichen: league::history::rueckblick::abzeichen::abzeichen(
            &view.season,
            &history,
            view.season.capped_as_of(None, layout_today),
        ),
        glueck: (!view.glueck().is_empty()).then(|| GlueckLine::of(glueck.as_ref())),
        name,
    }
    .into_response();
    Ok(personal(
        me,
        crate::web::kit::privacy::private_money(&at.snapshot, page),
    ))
}
