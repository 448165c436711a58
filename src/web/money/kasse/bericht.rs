//! The Kassenbericht of a season for the Jahreshauptversammlung (issue 35.2, docs/kassenbuch.md):
//! Anfangsbestand + income by category − expenses by category = Endbestand, cash and bank apart,
//! checked against the Kassenbuch and the Jahresabschluss; printed on one A4 page with signature
//! lines; as CSV for German Excel.

use askama::Template;
use askama_web::WebTemplate;
use axum::extract::State;
use axum::response::Response;

use crate::league::format_cents;
use crate::league::model::format::date_de;
use crate::league::money::kasse::buch::Kategorie;
use crate::service::kassenbuch::Books;
use crate::service::League;
use crate::web::kit::at::AtSeason;
use crate::web::kit::{AppError, Layout};
use crate::web::money::csv::{csv_cents, csv_response, csv_text};

/// The figures of a Kassenbericht (the page, the CSV and the command line read the same).
pub struct Bericht {
    /// Anfangsbestand (cash, bank), cents.
    pub carry_in: (i64, i64),
    /// Income by category, cents.
    pub income: Vec<(Kategorie, i64)>,
    /// Expenses by category (positive), cents.
    pub expenses: Vec<(Kategorie, i64)>,
    /// Endbestand (cash, bank), cents.
    pub end: (i64, i64),
    /// Anfangsbestand + Σ income − Σ expenses, cents.
    pub computed_end: i64,
    /// Income by category split (cash, bank), cents; each pair sums to its `income` line.
    pub income_split: Vec<(Kategorie, i64, i64)>,
    /// Expenses by category split (cash, bank) as positive cents.
    pub expenses_split: Vec<(Kategorie, i64, i64)>,
}

/// The Kassenbericht of `books`.
pub fn bericht(books: &Books) -> Bericht {
    let book = &books.book;
    let (income, expenses) = book.by_category();
    let sum = |v: &[(Kategorie, i64)]| v.iter().map(|x| x.1).sum::<i64>();
    let split = |v: &[(Kategorie, i64)], sign: i64| -> Vec<(Kategorie, i64, i64)> {
        v.iter()
            .map(|&(k, _)| {
                let (bar, bank) = book.category_konto(k);
                (k, sign * bar, sign * bank)
            })
            .collect()
    };
    Bericht {
        income_split: split(&income, 1),
        expenses_split: split(&expenses, -1),
        carry_in: (book.carry_in.bar_cents, book.carry_in.bank_cents),
        computed_end: book.carry_in.total() + sum(&income) - sum(&expenses),
        income,
        expenses,
        end: (book.end.bar_cents, book.end.bank_cents),
    }
}

/// The sentence that says whether the Endbestand equals the Kassenbuch's sum.
pub fn book_line(b: &Bericht, books: &Books) -> (bool, String) {
    let total = books.book.end.total();
    let n = books.book.bookings.len();
    if b.computed_end == total {
        (true, format!("Stimmt: der Endbestand {} ist die Summe aller {n} Buchungen des Kassenbuchs mit dem Anfangsbestand.", format_cents(total)))
    } else {
        (
            false,
            format!(
                "Stimmt nicht: {} laut Bericht, {} laut Kassenbuch.",
                format_cents(b.computed_end),
                format_cents(total)
            ),
        )
    }
}

/// The sentence that says whether the league's part equals the Jahresabschluss.
pub fn league_line(books: &Books) -> (bool, String) {
    let l = &books.league;
    let payouts = if books.book.payouts_booked {
        format!(
            ", Auszahlungen {} (Plätze und Lucky Looser)",
            format_cents(l.shares_cents)
        )
    } else {
        " (die Auszahlungen folgen mit der Verrechnung)".to_string()
    };
    let figures = format!(
        "Beiträge {}, Strafen {}{payouts}",
        format_cents(l.fees_cents),
        format_cents(l.fines_cents)
    );
    if l.ok {
        (
            true,
            format!("Stimmt mit dem Jahresabschluss überein: {figures}."),
        )
    } else {
        (false, format!(
            "Weicht vom Jahresabschluss ab: dort {figures}; im Kassenbuch Beiträge {}, Strafen {}, Auszahlungen {}.",
            format_cents(l.booked.0),
            format_cents(l.booked.1),
            format_cents(l.booked.2)
        ))
    }
}

/// The Kassenbericht page.
#[derive(Template, WebTemplate)]
#[template(path = "money/kassenbericht.html")]
pub struct BerichtPage {
    layout: Layout,
    year: i32,
    today: String,
    carry_in: (String, String, String),
    income: Vec<(&'static str, String, String, String)>,
    income_sum: String,
    expenses: Vec<(&'static str, String, String, String)>,
    expenses_sum: String,
    end: (String, String, String),
    book_ok: bool,
    book_line: String,
    league_ok: bool,
    league_line: String,
    /// The Kassenprüfer's "Geprüft von … am …" lines (issue 35.3), shown above the signatures;
    /// empty until someone checked the report.
    pub geprueft: Vec<String>,
}

fn three((bar, bank): (i64, i64)) -> (String, String, String) {
    (
        format_cents(bar),
        format_cents(bank),
        format_cents(bar + bank),
    )
}

/// `GET /verwaltung/saison/{year}/kassenbericht`: the Kassenbericht (money roles).
pub async fn get(
    layout: Layout,
    at: AtSeason,
    State(league): State<League>,
) -> Result<BerichtPage, AppError> {
    let books = league.books(at.year()).await?;
    let b = bericht(&books);
    let rows = |v: &[(Kategorie, i64, i64)]| -> Vec<(&'static str, String, String, String)> {
        v.iter()
            .map(|&(k, bar, bank)| {
                let f = format_cents;
                (k.label(), f(bar), f(bank), f(bar + bank))
            })
            .collect()
    };
    let sum = |v: &[(Kategorie, i64)]| format_cents(v.iter().map(|x| x.1).sum());
    let (book_ok, book_line) = book_line(&b, &books);
    let (league_ok, league_line) = league_line(&books);
    let geprueft = league.pruefung_lines(at.year()).await?;
    Ok(BerichtPage {
        today: date_de(layout.today),
        layout,
        year: at.year(),
        carry_in: three(b.carry_in),
        income: rows(&b.income_split),
        income_sum: sum(&b.income),
        expenses: rows(&b.expenses_split),
        expenses_sum: sum(&b.expenses),
        end: three(b.end),
        book_ok,
        book_line,
        league_ok,
        league_line,
        geprueft,
    })
}

fn cells<const N: usize>(c: [&str; N]) -> Vec<String> {
    c.iter().map(|s| s.to_string()).collect()
}

/// `GET /verwaltung/saison/{year}/kassenbericht.csv`: the Kassenbericht and the Kassenbuch below
/// it for German Excel (`;`, decimal comma, UTF-8 with BOM; money roles).
pub async fn csv(
    layout: Layout,
    at: AtSeason,
    State(league): State<League>,
) -> Result<Response, AppError> {
    let year = at.year();
    let books = league.books(year).await?;
    let b = bericht(&books);
    let mut rows = vec![cells(["Kassenbericht", &year.to_string(), "", "", ""])];
    rows.push(cells(["Stand", &date_de(layout.today), "", "", ""]));
    rows.push(cells(["Posten", "Kategorie", "Bar", "Bank", "Betrag"]));
    let (cb, ck) = b.carry_in;
    rows.push(cells([
        "Anfangsbestand",
        "",
        &csv_cents(cb),
        &csv_cents(ck),
        &csv_cents(cb + ck),
    ]));
    for &(k, bar, bank) in &b.income_split {
        let c = [csv_cents(bar), csv_cents(bank), csv_cents(bar + bank)];
        rows.push(cells(["Einnahmen", k.label(), &c[0], &c[1], &c[2]]));
    }
    for &(k, bar, bank) in &b.expenses_split {
        let c = [csv_cents(-bar), csv_cents(-bank), csv_cents(-bar - bank)];
        rows.push(cells(["Ausgaben", k.label(), &c[0], &c[1], &c[2]]));
    }
    let (eb, ek) = b.end;
    rows.push(cells([
        "Endbestand",
        "",
        &csv_cents(eb),
        &csv_cents(ek),
        &csv_cents(eb + ek),
    ]));
    rows.push(Vec::new());
    rows.push(cells([
        "Beleg",
        "Tag",
        "Text",
        "Betrag",
        "Konto",
        "Kategorie",
        "Vermerk",
    ]));
    for x in &books.book.bookings {
        let note = match (x.storno_of, x.storniert_by) {
            (Some(n), _) => format!("Storno von Beleg {n}: {}", x.reason),
            (_, Some(n)) => format!("storniert durch Beleg {n}"),
            _ => String::new(),
        };
        rows.push(cells([
            &x.beleg.to_string(),
            &date_de(x.day),
            &csv_text(&x.text),
            &csv_cents(x.cents),
            x.konto.label(),
            x.kategorie.label(),
            &csv_text(&note),
        ]));
    }
    csv_response(year, "kassenbericht", &rows, layout.today)
}
