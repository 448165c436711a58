//! The picture a pasted link shows in the club's chat (issue 38.3): `og:title`, `og:description`
//! and `og:image` for `/`, `/saison/{year}`, `/abend/{date}` and its report, the image a
//! 1200×630 PNG drawn on the server from the same figures as the page (an SVG rendered with
//! resvg, the fonts embedded in the binary: no system fonts needed). Its name carries a hash of
//! the drawing, so a correction gives a new name (chat apps keep a picture per address). The
//! image's address is absolute HTTPS, so it is only given with `--public-url https://…`. No
//! amounts: the pictures show names, D.Werte and Outs only (also when the Kasse is private).

use std::sync::{Arc, OnceLock};

use axum::extract::{Path, State};
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use chrono::NaiveDate;
use sha2::{Digest, Sha256};

use crate::league::history::report::top_lines;
use crate::league::model::format::date_de;
use crate::service::snapshot::SeasonView;
use crate::service::{League, Snapshot};
use crate::web::kit::{Guard, Routes};

/// Width and height of the picture, pixels (what chat apps show large).
pub const SIZE: (u32, u32) = (1200, 630);

/// The routes of this feature.
pub fn routes() -> Routes {
    Routes::new()
        .get(Guard::Public, "/bild/saison/{year}/{file}", season_png)
        .get(Guard::Public, "/bild/abend/{date}/{file}", night_png)
}

/// What a picture shows: a title, up to five lines (left and right part) and a footer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Picture {
    /// "Tabelle 2026".
    pub title: String,
    /// ("1. Anna", "12,34"), …
    pub lines: Vec<(String, String)>,
    /// "nach 40 Spielabenden".
    pub footer: String,
}

/// The Open Graph tags of a page: title, description, and the picture's absolute address when
/// the club's public address is HTTPS.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Og {
    /// `og:title`.
    pub title: String,
    /// `og:description`: the picture's lines in one sentence.
    pub description: String,
    /// `og:image`, absolute HTTPS, `None` without `--public-url https://…`.
    pub image: Option<String>,
    /// `og:url`: the page's own absolute HTTPS address, `None` without `--public-url https://…`.
    pub url: Option<String>,
}

impl Og {
    /// The tags for `picture`, its image at `path` ("/bild/saison/2026") under `public` (the
    /// `--public-url`, used only when it is HTTPS), on the page at `page` ("/saison/2026").
    pub fn of(picture: &Picture, path: &str, public: Option<&str>, page: &str) -> Og {
        let description = picture
            .lines
            .iter()
            .map(|(l, r)| format!("{l} {r}").trim().to_string())
            .collect::<Vec<_>>()
            .join(" · ");
        let public = public
            .filter(|u| u.starts_with("https://"))
            .map(|u| u.trim_end_matches('/'));
        let image = public.map(|u| format!("{u}{path}/{}.png", name(&svg(picture))));
        let url = public.map(|u| format!("{u}{page}"));
        Og {
            title: picture.title.clone(),
            description: if picture.footer.is_empty() {
                description
            } else {
                format!("{description} ({})", picture.footer)
            },
            image,
            url,
        }
    }
}

/// The table's picture of season `view` as the club's `today` sees it (the table page's): its
/// top five with D.Wert.
pub fn season_picture(view: &SeasonView, today: NaiveDate) -> Picture {
    let year = view.season.year;
    let table = view.standings_on(None, today);
    let lines = table
        .rows
        .iter()
        .take(5)
        .map(|r| {
            (
                format!("{}. {}", r.rank, r.player),
                crate::league::format_dwert(r.d_wert_num, r.d_wert_den),
            )
        })
        .collect();
    let nights = view
        .season
        .nights
        .iter()
        .filter(|n| n.date <= today)
        .count();
    Picture {
        title: format!("Schockerliga: Tabelle {year}"),
        lines,
        footer: format!(
            "D.Wert nach {nights} {}",
            if nights == 1 {
                "Spielabend"
            } else {
                "Spielabenden"
            }
        ),
    }
}

/// The picture of the night on `date`: played, the top five of the table after it (the report's
/// lines) and its Schock Outs; planned, day, place and forecast. `None`: neither.
pub fn night_picture(snapshot: &Snapshot, date: NaiveDate) -> Option<Picture> {
    if let Some((view, _)) = snapshot.night(date) {
        let summary = crate::league::night_summary(&view.season, date)?;
        let outs: u32 = summary.players.iter().map(|p| p.outs).sum();
        let lines = top_lines(&view.season, date)
            .into_iter()
            .map(|l| (format!("{}. {}", l.rank, l.player), l.dwert))
            .collect();
        return Some(Picture {
            title: format!("Spielabend {}", date_de(date)),
            lines,
            footer: format!(
                "{outs} Schock {} · D.Wert nach dem Abend",
                if outs == 1 { "Out" } else { "Outs" }
            ),
        });
    }
    let night = snapshot.planning.on(date)?;
    let split = crate::web::public::termine::split_of(snapshot, chrono::Datelike::year(&date));
    let mut lines = vec![(night.when_de(), String::new())];
    if !night.place.is_empty() {
        lines.push((night.place.clone(), String::new()));
    }
    // A cancelled night has no forecast (its page shows none either).
    // The forecast on two lines ("6 Zusagen, 1 Absage", "voraussichtlich 1 Tisch"): one is too
    // long for the picture's width.
    match night.cancelled {
        true => lines.push(("Der Abend fällt aus.".to_string(), String::new())),
        false => {
            let sentence = night.forecast(split).sentence();
            for part in sentence.split(" – ") {
                lines.push((part.to_string(), String::new()));
            }
        }
    }
    Some(Picture {
        title: if night.cancelled {
            "Schocken fällt aus".to_string()
        } else {
            "Schocken: wer kommt?".to_string()
        },
        lines,
        footer: String::new(),
    })
}

/// `text` escaped for SVG (XML) text.
fn xml(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// `text` cut to `max` characters (an ellipsis marks the cut): a name of 60 characters stays
/// inside the picture.
fn cut(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        return text.to_string();
    }
    text.chars().take(max - 1).chain(['…']).collect()
}

/// The SVG of `picture`, [`SIZE`]: a dark green felt, the title, the lines, the footer.
pub fn svg(picture: &Picture) -> String {
    let (w, h) = SIZE;
    let mut out = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" \
         viewBox=\"0 0 {w} {h}\" font-family=\"DejaVu Sans\">\
         <rect width=\"{w}\" height=\"{h}\" fill=\"#1f4d3a\"/>\
         <rect x=\"24\" y=\"24\" width=\"{}\" height=\"{}\" rx=\"18\" fill=\"none\" \
         stroke=\"#e8d9a8\" stroke-width=\"4\"/>\
         <text x=\"70\" y=\"120\" font-size=\"60\" font-weight=\"bold\" fill=\"#ffffff\">{}</text>",
        w - 48,
        h - 48,
        xml(&cut(&picture.title, 32))
    );
    for (i, (left, right)) in picture.lines.iter().take(6).enumerate() {
        let y = 200 + 64 * i;
        // A wide name stays inside its room (a W is about one em): cut to what fits at a size
        // that still reads, 900 px without a figure beside it, 720 px with one.
        let room = if right.is_empty() { 900 } else { 720 };
        let text = cut(left, room / 24);
        let size = (room / text.chars().count().max(1)).clamp(24, 44);
        out.push_str(&format!(
            "<text x=\"70\" y=\"{y}\" font-size=\"{size}\" fill=\"#f4efe0\">{}</text>",
            xml(&text)
        ));
        if !right.is_empty() {
            out.push_str(&format!(
                "<text x=\"1130\" y=\"{y}\" font-size=\"46\" font-weight=\"bold\" \
                 text-anchor=\"end\" fill=\"#ffd75e\">{}</text>",
                xml(right)
            ));
        }
    }
    out.push_str(&format!(
        "<text x=\"70\" y=\"580\" font-size=\"30\" fill=\"#cfd8c8\">{}</text></svg>",
        xml(&cut(&picture.footer, 60))
    ));
    out
}

/// The name of the drawing `svg`: the first 16 hex digits of its SHA-256.
pub fn name(svg: &str) -> String {
    let digest = Sha256::digest(svg.as_bytes());
    digest.iter().take(8).map(|b| format!("{b:02x}")).collect()
}

/// The embedded fonts (DejaVu Sans and its bold; assets/fonts/LICENSE-DejaVu.txt), loaded once.
fn fonts() -> Arc<resvg::usvg::fontdb::Database> {
    static FONTS: OnceLock<Arc<resvg::usvg::fontdb::Database>> = OnceLock::new();
    FONTS
        .get_or_init(|| {
            let mut db = resvg::usvg::fontdb::Database::new();
            db.load_font_data(include_bytes!("../../../assets/fonts/DejaVuSans.ttf").to_vec());
            db.load_font_data(include_bytes!("../../../assets/fonts/DejaVuSans-Bold.ttf").to_vec());
            Arc::new(db)
        })
        .clone()
}

/// `svg` rendered to a PNG of [`SIZE`]. Errors: a drawing resvg cannot read (a bug: the SVG is
/// ours), as text.
pub fn png(svg: &str) -> Result<Vec<u8>, String> {
    let options = resvg::usvg::Options {
        fontdb: fonts(),
        ..Default::default()
    };
    let tree = resvg::usvg::Tree::from_str(svg, &options).map_err(|e| e.to_string())?;
    let mut pixmap =
        resvg::tiny_skia::Pixmap::new(SIZE.0, SIZE.1).ok_or("kein Bild dieser Größe")?;
    resvg::render(
        &tree,
        resvg::tiny_skia::Transform::default(),
        &mut pixmap.as_mut(),
    );
    pixmap.encode_png().map_err(|e| e.to_string())
}

/// The PNG answer for `picture` asked for as `file` ("<name>.png"): the drawing, kept for a year,
/// when `file` names the current one; else a redirect (302) to the current name, nothing drawn
/// (a made-up name costs no rendering).
fn answer(picture: Option<Picture>, file: &str) -> Response {
    let Some(picture) = picture else {
        return StatusCode::NOT_FOUND.into_response();
    };
    let drawing = svg(&picture);
    let current = name(&drawing);
    if file.strip_suffix(".png") != Some(current.as_str()) {
        // An old or made-up name: to the current picture, nothing drawn for it.
        let path = format!("{current}.png");
        return (
            StatusCode::FOUND,
            [
                (header::LOCATION, path),
                (header::CACHE_CONTROL, "no-cache".to_string()),
            ],
        )
            .into_response();
    }
    match png(&drawing) {
        Ok(bytes) => (
            [
                (header::CONTENT_TYPE, "image/png"),
                (header::CACHE_CONTROL, "public, max-age=31536000, immutable"),
            ],
            bytes,
        )
            .into_response(),
        Err(e) => (StatusCode::INTERNAL_SERVER_ERROR, e).into_response(),
    }
}

/// `GET /bild/saison/{year}/{name}.png`: the table's picture; 404 for a season not stored.
async fn season_png(
    State(league): State<League>,
    Path((year, file)): Path<(i32, String)>,
) -> Response {
    let snapshot = league.snapshot();
    let picture = snapshot
        .season(year)
        .ok()
        .map(|view| season_picture(view, league.today()));
    answer(picture, &file)
}

/// `GET /bild/abend/{date}/{name}.png`: the night's picture; 404 for a day without a night.
async fn night_png(
    State(league): State<League>,
    Path((date, file)): Path<(String, String)>,
) -> Response {
    match NaiveDate::parse_from_str(&date, "%Y-%m-%d") {
        Ok(date) => answer(night_picture(&league.snapshot(), date), &file),
        Err(_) => StatusCode::NOT_FOUND.into_response(),
    }
}
