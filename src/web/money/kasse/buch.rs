//! The Kassenbuch page (issue 35.1, docs/kassenbuch.md): the balances of cash and bank on top,
//! every booking with its Beleg number (folded when long), and the forms of the Kassenwart: a
//! booking by hand, a Storno with its reason, a Kassensturz. A refused form stores nothing and
//! comes back with what was typed.

use askama::Template;
use askama_web::WebTemplate;
use axum::extract::State;
use axum::response::Response;
use axum::Form;
use chrono::NaiveDate;
use serde::Deserialize;

use crate::league::format_cents;
use crate::league::model::format::date_de;
use crate::league::money::kasse::buch::{Booking, Kategorie, Konto, KATEGORIEN};
use crate::league::money::kasse::parse_euros;
use crate::service::kassenbuch::NewBooking;
use crate::service::{League, ServiceError};
use crate::web::kit::at::AtSeason;
use crate::web::kit::session::RequireMoney;
use crate::web::kit::{AppError, Layout, Reply, Stored};

/// Above this many bookings the list is folded in a `<details>` (a phone's screen).
const FOLD_AFTER: usize = 12;

/// One booking, formatted.
pub struct Row {
    /// "7".
    pub beleg: u32,
    /// "05.01.2026".
    pub day: String,
    /// "-50,00 €".
    pub amount: String,
    /// True for an expense.
    pub expense: bool,
    /// "Bar" / "Bank".
    pub konto: &'static str,
    /// "Anschaffung".
    pub kategorie: &'static str,
    /// The text.
    pub text: String,
    /// "storniert durch Beleg 9", "Storno von Beleg 7: falscher Betrag", "".
    pub note: String,
    /// "Liga" or the account that booked it.
    pub by: String,
}

/// What was typed into the page's forms, kept on a refusal.
#[derive(Default, Deserialize, Clone)]
pub struct Typed {
    /// Booking: the day (`YYYY-MM-DD`).
    #[serde(default)]
    pub tag: String,
    /// Booking: the amount in euros.
    #[serde(default)]
    pub betrag: String,
    /// Booking: `einnahme` or `ausgabe`.
    #[serde(default)]
    pub art: String,
    /// Booking: `bar` or `bank`.
    #[serde(default)]
    pub konto: String,
    /// Booking: a category's name.
    #[serde(default)]
    pub kategorie: String,
    /// Booking: the text.
    #[serde(default)]
    pub text: String,
    /// Storno: the hand booking's id.
    #[serde(default)]
    pub buchung: String,
    /// Storno: the reason.
    #[serde(default)]
    pub grund: String,
    /// Kassensturz: the counted cash in euros.
    #[serde(default)]
    pub gezaehlt: String,
    /// Which form was sent (`buchen`, `storno`, `sturz`; set by its handler): only that form
    /// shows the day typed.
    #[serde(skip)]
    pub form: &'static str,
}

impl Typed {
    /// The day to show in form `form`: the one typed when that form was sent and refused, else
    /// `today`.
    pub fn day_in(&self, form: &str, today: &str) -> String {
        if self.form == form && !self.tag.trim().is_empty() {
            self.tag.clone()
        } else {
            today.to_string()
        }
    }
}

/// The Kassenbuch page.
#[derive(Template, WebTemplate)]
#[template(path = "money/kassenbuch.html")]
pub struct KassenbuchPage {
    layout: Layout,
    year: i32,
    error: Option<String>,
    typed: Typed,
    today: String,
    bar: String,
    bank: String,
    total: String,
    carry_in: String,
    rows: Vec<Row>,
    fold: bool,
    /// Hand bookings that may be cancelled: (id, "Beleg 7: Würfel (-12,00 €)").
    cancellable: Vec<(String, String)>,
    /// Kassenstürze: (day, counted, book, difference, by).
    stuerze: Vec<(String, String, String, String, String)>,
    kategorien: Vec<&'static str>,
    payouts_booked: bool,
    /// When bookings lie after today: (today as `TT.MM.JJJJ`, cash, bank and total of today,
    /// how many bookings come after), the stand a Kassensturz of today counts against.
    heute: Option<(String, String, String, String, usize)>,
    /// The viewer handles money (the forms are shown; a reader sees the book only).
    can_book: bool,
}

fn row(b: &Booking) -> Row {
    let note = match (b.storno_of, b.storniert_by) {
        (Some(n), _) => format!("Storno von Beleg {n}: {}", b.reason),
        (_, Some(n)) => format!("storniert durch Beleg {n}"),
        _ => String::new(),
    };
    Row {
        beleg: b.beleg,
        day: date_de(b.day),
        amount: format_cents(b.cents),
        expense: b.cents < 0,
        konto: b.konto.label(),
        kategorie: b.kategorie.label(),
        text: b.text.clone(),
        note,
        by: b.by.clone(),
    }
}

/// The page of season `year` with `typed` and `error` (a refused form).
async fn render(
    league: &League,
    layout: Layout,
    year: i32,
    typed: Typed,
    error: Option<String>,
) -> Result<KassenbuchPage, AppError> {
    let books = league.books(year).await?;
    let book = &books.book;
    let rows: Vec<Row> = book.bookings.iter().map(row).collect();
    let cancellable = book
        .bookings
        .iter()
        .filter(|b| b.hand.is_some() && b.storno_of.is_none() && b.storniert_by.is_none())
        .map(|b| {
            let id = b.hand.unwrap_or_default().to_string();
            let label = format!("Beleg {}: {} ({})", b.beleg, b.text, format_cents(b.cents));
            (id, label)
        })
        .collect();
    let stuerze = book
        .stuerze
        .iter()
        .map(|s| {
            (
                date_de(s.count.day),
                format_cents(s.count.counted_cents),
                format_cents(s.book_cents),
                format_cents(s.diff_cents),
                s.count.by.clone(),
            )
        })
        .collect();
    let layout_today = layout.today;
    Ok(KassenbuchPage {
        can_book: layout
            .user
            .as_ref()
            .is_some_and(crate::web::kit::session::CurrentUser::handles_money),
        today: layout.today.to_string(),
        layout,
        year,
        error,
        typed,
        bar: format_cents(book.end.bar_cents),
        bank: format_cents(book.end.bank_cents),
        total: format_cents(book.end.total()),
        carry_in: format_cents(book.carry_in.total()),
        fold: rows.len() > FOLD_AFTER,
        rows,
        cancellable,
        stuerze,
        // Only what is booked by hand: the league's categories are refused there.
        kategorien: KATEGORIEN
            .iter()
            .filter(|k| !k.is_league())
            .map(|k| k.label())
            .collect(),
        payouts_booked: book.payouts_booked,
        heute: heute(book, layout_today),
    })
}

/// The stand of `today` for the page when `book` has bookings after it (new-user trial: the
/// Bar on top held a fine of a night entered ahead of its day, a Kassensturz of today did not).
fn heute(
    book: &crate::league::money::kasse::buch::Kassenbuch,
    today: NaiveDate,
) -> Option<(String, String, String, String, usize)> {
    let later = book.after(today);
    (later > 0).then(|| {
        let on = book.bestand_on(today);
        (
            date_de(today),
            format_cents(on.bar_cents),
            format_cents(on.bank_cents),
            format_cents(on.total()),
            later,
        )
    })
}

/// `GET /verwaltung/saison/{year}/kassenbuch`: the Kassenbuch with its forms (money roles).
pub async fn get(
    layout: Layout,
    at: AtSeason,
    State(league): State<League>,
) -> Result<KassenbuchPage, AppError> {
    render(&league, layout, at.year(), Typed::default(), None).await
}

/// A day as typed in field `field` (`YYYY-MM-DD`; empty: `today`). `Err` the German refusal.
fn day_of(field: &str, typed: &str, today: NaiveDate) -> Result<NaiveDate, ServiceError> {
    let text = typed.trim();
    if text.is_empty() {
        return Ok(today);
    }
    NaiveDate::parse_from_str(text, "%Y-%m-%d")
        .map_err(|_| ServiceError::refused(format!("{field}: „{text}“ ist kein Datum.")))
}

/// Euros as typed in field `field` → cents. `Err` the German refusal.
fn cents_of(field: &str, typed: &str) -> Result<i64, ServiceError> {
    parse_euros(typed).map_err(|e| ServiceError::refused(format!("{field}: {e}.")))
}

/// The booking `t` as typed, checked field by field.
fn new_booking(t: &Typed, today: NaiveDate) -> Result<NewBooking, ServiceError> {
    let day = day_of("Tag", &t.tag, today)?;
    let cents = cents_of("Betrag", &t.betrag)?;
    let sign = match t.art.as_str() {
        "einnahme" => 1,
        "ausgabe" => -1,
        _ => {
            return Err(ServiceError::refused(
                "Art: bitte Einnahme oder Ausgabe wählen.",
            ))
        }
    };
    let konto = Konto::parse(&t.konto)
        .ok_or_else(|| ServiceError::refused("Konto: bitte Bar oder Bank wählen."))?;
    let kategorie = Kategorie::parse(&t.kategorie)
        .ok_or_else(|| ServiceError::refused("Kategorie: bitte eine aus der Liste wählen."))?;
    Ok(NewBooking {
        day,
        cents: sign * cents,
        konto,
        kategorie,
        text: t.text.clone(),
    })
}

/// Ends a form of the page: stored → back to the Kassenbuch with the message; refused → the
/// page again with `typed` and the reason.
async fn end(
    reply: Reply,
    year: i32,
    done: Result<String, ServiceError>,
    typed: Typed,
    anchor: &str,
) -> Result<Response, AppError> {
    let league = reply.league.clone();
    let to = format!("/verwaltung/saison/{year}/kassenbuch#{anchor}");
    reply
        .finish(
            done,
            |message| Stored::at(to, message),
            async |refusal, layout| {
                render(&league, layout, year, typed, Some(refusal.to_string())).await
            },
        )
        .await
}

/// `POST /verwaltung/saison/{year}/kassenbuch`: a booking by hand (money roles).
pub async fn book(
    reply: Reply,
    RequireMoney(user): RequireMoney,
    at: AtSeason,
    Form(mut typed): Form<Typed>,
) -> Result<Response, AppError> {
    typed.form = "buchen";
    let year = at.year();
    let done = match new_booking(&typed, reply.layout.today) {
        Ok(b) => reply.league.book_hand(year, b, &user.username).await,
        Err(e) => Err(e),
    };
    end(reply, year, done, typed, "buchungen").await
}

/// `POST /verwaltung/saison/{year}/kassenbuch/storno`: a Storno of a hand booking with its
/// reason (money roles).
pub async fn storno(
    reply: Reply,
    RequireMoney(user): RequireMoney,
    at: AtSeason,
    Form(mut typed): Form<Typed>,
) -> Result<Response, AppError> {
    typed.form = "storno";
    let year = at.year();
    let done = match (
        typed.buchung.trim().parse::<i64>(),
        day_of("Tag", &typed.tag, reply.layout.today),
    ) {
        (Err(_), _) => Err(ServiceError::refused("Storno: bitte eine Buchung wählen.")),
        (_, Err(e)) => Err(e),
        (Ok(id), Ok(day)) => {
            let league = &reply.league;
            league
                .storno(year, id, day, &typed.grund, &user.username)
                .await
        }
    };
    end(reply, year, done, typed, "buchungen").await
}

/// `POST /verwaltung/saison/{year}/kassenbuch/kassensturz`: the counted cash (money roles).
pub async fn sturz(
    reply: Reply,
    RequireMoney(user): RequireMoney,
    at: AtSeason,
    Form(mut typed): Form<Typed>,
) -> Result<Response, AppError> {
    typed.form = "sturz";
    let year = at.year();
    let parsed = day_of("Tag", &typed.tag, reply.layout.today)
        .and_then(|d| Ok((d, cents_of("Gezählt", &typed.gezaehlt)?)));
    let done = match parsed {
        Ok((day, cents)) => {
            reply
                .league
                .kassensturz(year, day, cents, &user.username)
                .await
        }
        Err(e) => Err(e),
    };
    end(reply, year, done, typed, "kassensturz").await
}
