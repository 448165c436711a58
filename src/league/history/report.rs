//! The night report ("Bericht teilen", issue 11.5): a German plain-text summary of one Spielabend for
//! the club's chat — Schocker des Abends, Outs and Hand-Outs, Joker, Julen, who paid the rounds,
//! Sozialfälle, the top of the table with movement, the night's open fines and the link to the
//! night. Pure code over the checked season (league.md §2, §3, §4, §6, §7); nothing is sent. Names
//! and fine kinds show without chat markup ([`shown`]).

use chrono::NaiveDate;

use crate::league::model::format::{date_de, format_cents, format_dwert};
use crate::league::model::rules::Liga;
use crate::league::model::rules::SeasonRules;
use crate::league::model::season::{Night, Season};
use crate::league::money::kasse::fine_label;
use crate::league::table::nights::{night_summary, NightSummary};
use crate::league::table::progress::movements;
use crate::league::table::standings::standings;

/// Lines of the table the report shows (the top of the table as of the night).
pub const TOP_OF_TABLE: usize = 5;

/// What the report may say about money: the open fines, or only that they are for members
/// ("Kasse nur für Mitglieder").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Money {
    /// The open fines are listed with name and amount.
    Shown,
    /// The open fines are left out (the club keeps its money private and the reader is anonymous).
    Private,
}

/// `names` joined German style: "A", "A und B", "A, B und C".
fn und(names: &[String]) -> String {
    match names {
        [] => String::new(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} und {last}", rest.join(", ")),
    }
}

/// The characters WhatsApp (and Signal) read as markup around a word — `*bold*`, `_italic_`,
/// `~strike~`, `` `code` `` — and what a name shows instead in the report: the look-alikes ∗ ˍ ∼ ˋ
/// (U+2217, U+02CD, U+223C, U+02CB). Decision (issue 22.12): a name or fine kind is the club's
/// text, not formatting; a name like `*Kalle*` must not turn bold or hide its stars in the chat,
/// and an invisible joiner (the usual trick) is what the name rules refuse everywhere else.
pub const MARKUP: [(char, char); 4] = [
    ('*', '\u{2217}'),
    ('_', '\u{02CD}'),
    ('~', '\u{223C}'),
    ('`', '\u{02CB}'),
];

/// `text` (a name, a fine kind) as the report shows it: every [`MARKUP`] character replaced by its
/// look-alike, everything else as it is.
pub fn shown(text: &str) -> String {
    text.chars()
        .map(|c| {
            MARKUP
                .iter()
                .find(|(m, _)| *m == c)
                .map_or(c, |(_, look)| *look)
        })
        .collect()
}

/// The German label of a Liga: "1. Liga", "2. Liga", "Kreisliga".
/// How the night's Outs are counted under `rules` (league.md §2), for the report under its list
/// of Outs: "Gewertet: ein Out zählt 1, ein Hand-Out 2 (Hand-Outs sind Teil der Outs), in der
/// Joker-Runde doppelt; 3 Julen ergeben 1 Out." (issue 21.14: "Bernd: 4 (2)" beside "6 gewertete
/// Outs" did not say why).
pub fn counting(rules: &SeasonRules) -> String {
    let joker = match rules.joker_multiplier {
        Some(2) => ", in der Joker-Runde doppelt".to_string(),
        Some(m) => format!(", in der Joker-Runde {m}-fach"),
        None => String::new(),
    };
    format!(
        "Gewertet: ein Out zählt {}, ein Hand-Out {} (Hand-Outs sind Teil der Outs){joker}; {} \
         Julen ergeben 1 Out.",
        rules.out_points, rules.hand_out_points, rules.julen_per_out
    )
}

fn liga_label(liga: Liga) -> &'static str {
    match liga {
        Liga::First => "1. Liga",
        Liga::Second => "2. Liga",
        Liga::Kreisliga => "Kreisliga",
    }
}

/// The rounds a night's tables played, in words: `[3]` "3 Runden", `[10, 10]` "je 10 Runden",
/// `[10, 8]` "10 und 8 Runden", `[10, 1]` "10 Runden und 1 Runde" (each table plays its own ten,
/// league.md §1, so they are not added up); `[1]` "1 Runde", `[]` "0 Runden".
pub fn rounds_played(tables: &[u32]) -> String {
    let word = |n: u32| if n == 1 { "Runde" } else { "Runden" };
    match tables {
        [] => "0 Runden".to_string(),
        [n] => format!("{n} {}", word(*n)),
        [first, rest @ ..] if rest.iter().all(|n| n == first) => {
            format!("je {first} {}", word(*first))
        }
        // "10 und 6 Runden"; with a single round among them each says its own word
        // ("10 Runden und 1 Runde").
        _ if tables.contains(&1) => {
            let each: Vec<String> = tables.iter().map(|n| format!("{n} {}", word(*n))).collect();
            und(&each)
        }
        _ => {
            let numbers: Vec<String> = tables.iter().map(|n| n.to_string()).collect();
            format!("{} Runden", und(&numbers))
        }
    }
}

/// The report of the night on `date` of `season` as plain text (lines ending in `\n`), with `link`
/// (the night's page, an absolute URL) as its last line; `None` when the season has no night that
/// day. `money` decides whether the open fines are listed.
pub fn night_report(season: &Season, date: NaiveDate, link: &str, money: Money) -> Option<String> {
    let night = season.night(date)?;
    let summary = night_summary(season, date)?;
    let mut out = Report::default();
    heading(&mut out, night, &summary, date);
    schocker(&mut out, &summary);
    outs(&mut out, season, &summary);
    jokers(&mut out, night);
    julen(&mut out, &summary);
    payers(&mut out, &summary);
    top_of_table(&mut out, season, date);
    open_fines(&mut out, night, money);
    out.line("");
    out.line(&format!("Alle Ergebnisse: {link}"));
    Some(out.0)
}

/// The report's text so far, one `\n` per line.
#[derive(Default)]
struct Report(String);

impl Report {
    fn line(&mut self, s: &str) {
        self.0.push_str(s);
        self.0.push('\n');
    }
}

/// The title and who played: players, tables and the rounds each table played (a table that
/// has not played yet with 0 rounds).
fn heading(out: &mut Report, night: &Night, summary: &NightSummary, date: NaiveDate) {
    let numbers = night.table_numbers_with_draw();
    let rounds: Vec<u32> = numbers
        .iter()
        .map(|n| {
            summary
                .tables
                .iter()
                .find(|t| t.number == *n)
                .map_or(0, |t| t.rounds_played)
        })
        .collect();
    let tables = numbers.len().max(1);
    out.line(&format!("Schockerliga – Spielabend {}", date_de(date)));
    out.line(&format!(
        "{} Spieler an {} {}, {}.",
        night.draw.len().max(summary.players.len()),
        tables,
        if tables == 1 { "Tisch" } else { "Tischen" },
        rounds_played(&rounds),
    ));
    out.line("");
}

/// Schocker des Abends: the most counted Outs of the night (ties share it).
fn schocker(out: &mut Report, summary: &NightSummary) {
    let best = summary
        .players
        .iter()
        .map(|p| p.counted_outs)
        .max()
        .unwrap_or(0);
    if best > 0 {
        let mut names: Vec<String> = summary
            .players
            .iter()
            .filter(|p| p.counted_outs == best)
            .map(|p| shown(&p.player))
            .collect();
        names.sort();
        let each = if names.len() > 1 { "je " } else { "" };
        let outs = if best == 1 {
            "gewertetes Out"
        } else {
            "gewertete Outs"
        };
        out.line(&format!(
            "Schocker des Abends: {} ({each}{best} {outs})",
            und(&names)
        ));
    } else {
        out.line("Schocker des Abends: keiner (kein Out gefallen)");
    }
    out.line("");
}

/// Outs and Hand-Outs, most first, with how they count under the season's rules.
fn outs(out: &mut Report, season: &Season, summary: &NightSummary) {
    let mut throwers: Vec<_> = summary.players.iter().filter(|p| p.outs > 0).collect();
    throwers
        .sort_by(|a, b| (b.outs, b.hand_outs, &a.player).cmp(&(a.outs, a.hand_outs, &b.player)));
    if throwers.is_empty() {
        out.line("Outs: keine");
    } else {
        out.line("Outs (davon Hand-Outs):");
        for p in throwers {
            out.line(&format!(
                "- {}: {} ({})",
                shown(&p.player),
                p.outs,
                p.hand_outs
            ));
        }
        out.line(&counting(&season.rules));
    }
}

/// Joker: who declared his Joker-Runde, at which table and round.
fn jokers(out: &mut Report, night: &Night) {
    let mut jokers: Vec<(u32, u32, String)> = night
        .rows()
        .filter(|(_, _, r)| r.joker)
        .map(|(t, n, r)| (t, n, shown(&r.player)))
        .collect();
    jokers.sort();
    if night.recorded_as_totals() {
        out.line("Joker: nicht bekannt (der Abend ist als Summen je Spieler erfasst)");
    } else if jokers.is_empty() {
        out.line("Joker: keiner");
    } else {
        let list: Vec<String> = jokers
            .iter()
            .map(|(t, n, p)| format!("{p} (Tisch {t}, Runde {n})"))
            .collect();
        out.line(&format!("Joker: {}", list.join(", ")));
    }
}

/// Julen, most first.
fn julen(out: &mut Report, summary: &NightSummary) {
    let mut julen: Vec<_> = summary.players.iter().filter(|p| p.julen > 0).collect();
    julen.sort_by(|a, b| (b.julen, &a.player).cmp(&(a.julen, &b.player)));
    if julen.is_empty() {
        out.line("Julen: keine");
    } else {
        let list: Vec<String> = julen
            .iter()
            .map(|p| format!("{} {}", shown(&p.player), p.julen))
            .collect();
        out.line(&format!("Julen: {}", list.join(", ")));
    }
    out.line("");
}

/// Who paid the rounds (league.md §7: at most sozialfall_after per night), and the Sozialfälle.
fn payers(out: &mut Report, summary: &NightSummary) {
    let mut payers: Vec<_> = summary
        .players
        .iter()
        .filter(|p| p.paid_rounds > 0)
        .collect();
    payers.sort_by(|a, b| (b.paid_rounds, &a.player).cmp(&(a.paid_rounds, &b.player)));
    if payers.is_empty() {
        out.line("Runden bezahlt: keine");
    } else {
        let list: Vec<String> = payers
            .iter()
            .map(|p| format!("{} {}", shown(&p.player), p.paid_rounds))
            .collect();
        out.line(&format!("Runden bezahlt: {}", list.join(", ")));
    }
    if summary.sozialfaelle.is_empty() {
        out.line("Sozialfälle: keine");
    } else {
        let names: Vec<String> = summary.sozialfaelle.iter().map(|n| shown(n)).collect();
        out.line(&format!("Sozialfälle: {}", und(&names)));
    }
    out.line("");
}

/// One line of the top of the table as of a night: place, name, D.Wert ("12,34" or "–"), Liga
/// and movement since the previous night ("▲ 2", "neu", …).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TopLine {
    /// His place in his Liga.
    pub rank: u32,
    /// His name.
    pub player: String,
    /// His D.Wert, German formatted.
    pub dwert: String,
    /// His Liga.
    pub liga: Liga,
    /// The movement's label.
    pub movement: String,
}

/// The first [`TOP_OF_TABLE`] lines of the table as of `date` (the report's and the night's
/// picture's), best first; empty before the season's first night.
pub fn top_lines(season: &Season, date: NaiveDate) -> Vec<TopLine> {
    let table = standings(season, Some(date));
    movements(season, Some(date))
        .iter()
        .take(TOP_OF_TABLE)
        .map(|m| TopLine {
            rank: m.rank,
            player: m.player.clone(),
            dwert: table
                .rows
                .iter()
                .find(|r| r.player == m.player)
                .map(|r| format_dwert(r.d_wert_num, r.d_wert_den))
                .unwrap_or_else(|| "–".to_string()),
            liga: m.liga,
            movement: m.movement.label().to_string(),
        })
        .collect()
}

/// The top of the table as of the night, with movement since the previous night.
fn top_of_table(out: &mut Report, season: &Season, date: NaiveDate) {
    let lines = top_lines(season, date);
    if lines.is_empty() {
        return;
    }
    out.line(&format!(
        "Tabelle nach dem Abend (die ersten {TOP_OF_TABLE}):"
    ));
    let mut liga = None;
    for m in &lines {
        if liga != Some(m.liga) {
            liga = Some(m.liga);
            out.line(&format!("{}:", liga_label(m.liga)));
        }
        out.line(&format!(
            "{}. {} – D.Wert {} ({})",
            m.rank,
            shown(&m.player),
            m.dwert,
            m.movement
        ));
    }
    out.line("");
}

/// The night's open fines, or only that they are for members.
fn open_fines(out: &mut Report, night: &Night, money: Money) {
    match money {
        Money::Private => out.line("Offene Strafen: nur für Mitglieder"),
        Money::Shown => {
            let open: Vec<_> = night.fines.iter().filter(|f| !f.paid).collect();
            if open.is_empty() {
                out.line("Offene Strafen: keine");
            } else {
                out.line("Offene Strafen:");
                for f in open {
                    out.line(&format!(
                        "- {}: {} {}",
                        shown(&f.player),
                        shown(fine_label(&f.kind)),
                        format_cents(f.amount_cents)
                    ));
                }
            }
        }
    }
}

#[cfg(test)]
mod tests;
