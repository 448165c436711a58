//! Server-rendered SVG charts of a player's season (issue 10.3): his D.Wert and his place after each
//! night as lines, his counted Outs per night as bars. No script: the SVG is inline in the page,
//! drawn in `currentColor` (so it follows the page's colour scheme, dark mode and print), scales to
//! the width of its box (readable at 360 px) and carries a `<title>` for screen readers; the page
//! puts the same figures as a small table into a `<details>` next to it.

use std::fmt::Write;

use chrono::NaiveDate;

use crate::league::format_dwert;
use crate::league::history::curves::CurvePoint;

/// Width of every chart's view box (user units; the SVG scales to its box).
const W: f64 = 320.0;
/// Height of every chart's view box.
const H: f64 = 120.0;
/// Left margin (room for the y labels).
const LEFT: f64 = 30.0;
/// Right margin.
const RIGHT: f64 = 6.0;
/// Top margin.
const TOP: f64 = 8.0;
/// Bottom margin (room for the x labels).
const BOTTOM: f64 = 18.0;

/// Escapes `&`, `<`, `>` and `"` for SVG text and attributes.
fn esc(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// The x position of point `i` of `n` (centred when there is one point).
fn x_at(i: usize, n: usize) -> f64 {
    let width = W - LEFT - RIGHT;
    if n <= 1 {
        LEFT + width / 2.0
    } else {
        LEFT + width * i as f64 / (n - 1) as f64
    }
}

/// The y position of `v` between `lo` (bottom) and `hi` (top).
fn y_at(v: f64, lo: f64, hi: f64) -> f64 {
    let height = H - TOP - BOTTOM;
    let span = if hi > lo { hi - lo } else { 1.0 };
    TOP + height * (1.0 - (v - lo) / span)
}

/// `dd.mm.` of a date (the short x labels).
fn short_date(d: NaiveDate) -> String {
    d.format("%d.%m.").to_string()
}

/// Opens an SVG with `title` (its accessible name) and the frame: the x labels of the first and
/// last night and a base line.
fn open(out: &mut String, id: &str, title: &str, dates: &[NaiveDate]) {
    let _ = write!(
        out,
        r#"<svg class="chart" viewBox="0 0 {W} {H}" role="img" aria-labelledby="{id}" preserveAspectRatio="xMidYMid meet"><title id="{id}">{}</title>"#,
        esc(title)
    );
    let base = H - BOTTOM;
    let _ = write!(
        out,
        r#"<line x1="{LEFT}" y1="{base}" x2="{}" y2="{base}" class="axis"/>"#,
        W - RIGHT
    );
    if let (Some(first), Some(last)) = (dates.first(), dates.last()) {
        let _ = write!(
            out,
            r#"<text x="{LEFT}" y="{}" class="lbl">{}</text>"#,
            H - 4.0,
            short_date(*first)
        );
        if dates.len() > 1 {
            let _ = write!(
                out,
                r#"<text x="{}" y="{}" class="lbl" text-anchor="end">{}</text>"#,
                W - RIGHT,
                H - 4.0,
                short_date(*last)
            );
        }
    }
}

/// A y label `text` at value `v`, with a faint grid line.
fn y_label(out: &mut String, v: f64, lo: f64, hi: f64, text: &str) {
    let y = y_at(v, lo, hi);
    let _ = write!(
        out,
        r#"<line x1="{LEFT}" y1="{y:.1}" x2="{}" y2="{y:.1}" class="grid"/><text x="{}" y="{:.1}" class="lbl" text-anchor="end">{}</text>"#,
        W - RIGHT,
        LEFT - 3.0,
        y + 3.5,
        esc(text)
    );
}

/// A polyline through `(x, y)` with a dot on each point that `mark` says (nights he played).
fn line(out: &mut String, pts: &[(f64, f64, bool)]) {
    out.push_str(r#"<polyline class="line" points=""#);
    for (x, y, _) in pts {
        let _ = write!(out, "{x:.1},{y:.1} ");
    }
    out.push_str(r#""/>"#);
    for (x, y, mark) in pts {
        if *mark {
            let _ = write!(out, r#"<circle cx="{x:.1}" cy="{y:.1}" r="2"/>"#);
        }
    }
}

/// The D.Wert after each night (`points` in date order; dots on nights he played) as an SVG line
/// chart titled for `player`. Empty for no points.
pub fn d_wert_chart(player: &str, points: &[CurvePoint]) -> String {
    if points.is_empty() {
        return String::new();
    }
    let values: Vec<f64> = points.iter().map(|p| p.d_wert_f64).collect();
    let hi = values
        .iter()
        .copied()
        .fold(0.0_f64, f64::max)
        .ceil()
        .max(1.0);
    let lo = values
        .iter()
        .copied()
        .fold(f64::INFINITY, f64::min)
        .floor()
        .max(0.0)
        .min(hi - 1.0);
    let dates: Vec<NaiveDate> = points.iter().map(|p| p.date).collect();
    let mut out = String::with_capacity(4096);
    let last = points
        .last()
        .map(|p| format_dwert(p.d_wert.num, p.d_wert.den))
        .unwrap_or_default();
    open(
        &mut out,
        "chart-dwert",
        &format!("D.Wert von {player} nach jedem Abend, zuletzt {last}"),
        &dates,
    );
    y_label(&mut out, hi, lo, hi, &format!("{hi:.0}"));
    y_label(&mut out, lo, lo, hi, &format!("{lo:.0}"));
    let n = points.len();
    let pts: Vec<(f64, f64, bool)> = points
        .iter()
        .enumerate()
        .map(|(i, p)| (x_at(i, n), y_at(p.d_wert_f64, lo, hi), p.attended))
        .collect();
    line(&mut out, &pts);
    out.push_str("</svg>");
    out
}

/// His place in his Liga after each night (place 1 on top; a Liga change starts a new segment
/// marked by its name) as an SVG line chart titled for `player`. Empty for no points.
pub fn place_chart(player: &str, points: &[CurvePoint]) -> String {
    if points.is_empty() {
        return String::new();
    }
    let worst = points.iter().map(|p| p.rank).max().unwrap_or(1).max(2);
    let (lo, hi) = (-f64::from(worst), -1.0);
    let dates: Vec<NaiveDate> = points.iter().map(|p| p.date).collect();
    let mut out = String::with_capacity(4096);
    let last = points
        .last()
        .map(|p| format!("Platz {} der {}", p.rank, p.liga.label()))
        .unwrap_or_default();
    open(
        &mut out,
        "chart-platz",
        &format!("Platz von {player} nach jedem Abend, zuletzt {last}"),
        &dates,
    );
    y_label(&mut out, hi, lo, hi, "1.");
    y_label(&mut out, lo, lo, hi, &format!("{worst}."));
    let n = points.len();
    // Segments of one Liga each: (first index, last index).
    let mut segments: Vec<(usize, usize)> = Vec::new();
    for (i, p) in points.iter().enumerate() {
        match segments.last_mut() {
            Some(seg) if points.get(seg.1).map(|q| q.liga) == Some(p.liga) => seg.1 = i,
            _ => segments.push((i, i)),
        }
    }
    let half_step = (W - LEFT - RIGHT) / (2.0 * n.max(2) as f64);
    for (k, &(from, to)) in segments.iter().enumerate() {
        let pts: Vec<(f64, f64, bool)> = points
            .get(from..=to)
            .unwrap_or(&[])
            .iter()
            .enumerate()
            .map(|(j, p)| {
                (
                    x_at(from + j, n),
                    y_at(-f64::from(p.rank), lo, hi),
                    p.attended,
                )
            })
            .collect();
        line(&mut out, &pts);
        let x = if k == 0 {
            LEFT
        } else {
            x_at(from, n) - half_step
        };
        if k > 0 {
            let _ = write!(
                out,
                r#"<line x1="{x:.1}" y1="{TOP}" x2="{x:.1}" y2="{}" class="grid"/>"#,
                H - BOTTOM
            );
        }
        // The Liga's name where its segment has room (a short one is in the table below).
        if (to - from + 1) * 5 >= n || segments.len() == 1 {
            let _ = write!(
                out,
                r#"<text x="{:.1}" y="{}" class="lbl">{}</text>"#,
                x + 2.0,
                H - BOTTOM - 3.0,
                points.get(from).map_or("", |p| p.liga.label())
            );
        }
    }
    out.push_str("</svg>");
    out
}

/// His counted Outs of each night (0 on nights he missed) as SVG bars titled for `player`. Empty
/// for no points.
pub fn outs_chart(player: &str, points: &[CurvePoint]) -> String {
    if points.is_empty() {
        return String::new();
    }
    let max = points
        .iter()
        .map(|p| p.night_counted_outs)
        .max()
        .unwrap_or(0)
        .max(1);
    let hi = max as f64;
    let dates: Vec<NaiveDate> = points.iter().map(|p| p.date).collect();
    let mut out = String::with_capacity(4096);
    let total: i64 = points.iter().map(|p| p.night_counted_outs).sum();
    open(
        &mut out,
        "chart-outs",
        &format!("Gewertete Outs von {player} je Abend, zusammen {total}"),
        &dates,
    );
    y_label(&mut out, hi, 0.0, hi, &max.to_string());
    let n = points.len();
    let slot = (W - LEFT - RIGHT) / n as f64;
    let bar = (slot * 0.7).max(1.0);
    for (i, p) in points.iter().enumerate() {
        if p.night_counted_outs <= 0 {
            continue;
        }
        let x = LEFT + slot * i as f64 + (slot - bar) / 2.0;
        let y = y_at(p.night_counted_outs as f64, 0.0, hi);
        let _ = write!(
            out,
            r#"<rect class="bar" x="{x:.1}" y="{y:.1}" width="{bar:.1}" height="{:.1}"/>"#,
            (H - BOTTOM - y).max(0.0)
        );
    }
    out.push_str("</svg>");
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::league::{DWert, Liga};

    fn point(day: u32, rank: u32, liga: Liga, outs: i64) -> CurvePoint {
        CurvePoint {
            date: NaiveDate::from_ymd_opt(2026, 1, day).unwrap_or_default(),
            attended: outs > 0,
            night_counted_outs: outs,
            rounds: 10 * day,
            counted_outs: outs,
            d_wert: DWert { num: 60, den: 10 },
            d_wert_f64: 6.0,
            liga,
            rank,
        }
    }

    #[test]
    fn charts_carry_a_title_and_escape_the_name() {
        let pts = [
            point(2, 3, Liga::Kreisliga, 2),
            point(9, 1, Liga::Second, 0),
            point(16, 2, Liga::Second, 5),
        ];
        for svg in [
            d_wert_chart("A<b>", &pts),
            place_chart("A<b>", &pts),
            outs_chart("A<b>", &pts),
        ] {
            assert!(svg.starts_with("<svg"), "{svg}");
            assert!(svg.contains("<title"), "{svg}");
            assert!(svg.contains("A&lt;b&gt;"), "{svg}");
            assert!(!svg.contains("A<b>"), "{svg}");
            assert!(!svg.contains("NaN") && !svg.contains("inf"), "{svg}");
            assert!(svg.ends_with("</svg>"));
        }
        assert!(place_chart("x", &pts).contains("2. Liga"));
        assert_eq!(outs_chart("x", &pts).matches("<rect").count(), 2);
        assert_eq!(d_wert_chart("x", &[]), "");
        // One point only: no division by zero.
        let one = d_wert_chart("x", &pts[..1]);
        assert!(!one.contains("NaN"), "{one}");
    }
}
