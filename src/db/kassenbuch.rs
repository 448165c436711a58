//! The Kassenbuch's hand bookings and Kassenstürze (issue 35.1, migration
//! 20261203220000_kassenbuch): stored once, never changed (a Storno is a new row).

use chrono::NaiveDate;
use sqlx::{SqliteConnection, SqlitePool};

use super::DbError;
use crate::league::money::kasse::buch::{Bestand, HandBooking, Kassensturz, Kategorie, Konto};
use crate::league::money::kasse::journal::Beleg;

type Row = (
    i64,
    i64,
    NaiveDate,
    i64,
    String,
    String,
    String,
    Option<i64>,
    String,
    String,
);

const SELECT: &str = "select id, season, day, cents, konto, kategorie, text, storno_of, reason,
    created_by from kassenbuch";

fn booking(r: Row) -> (i32, HandBooking) {
    (
        r.1 as i32,
        HandBooking {
            id: r.0,
            day: r.2,
            cents: r.3,
            konto: Konto::parse(&r.4).unwrap_or(Konto::Bar),
            kategorie: Kategorie::parse(&r.5).unwrap_or(Kategorie::Sonstiges),
            text: r.6,
            storno_of: r.7,
            reason: r.8,
            created_by: r.9,
        },
    )
}

/// The hand bookings of every season up to and including `year`: (season, booking), by season
/// and id.
pub async fn bookings_upto(
    pool: &SqlitePool,
    year: i32,
) -> Result<Vec<(i32, HandBooking)>, DbError> {
    let rows: Vec<Row> = sqlx::query_as(&format!("{SELECT} where season <= ? order by season, id"))
        .bind(year)
        .fetch_all(pool)
        .await?;
    Ok(rows.into_iter().map(booking).collect())
}

/// The hand bookings of season `year`, by id (inside a transaction).
pub async fn bookings_of(
    conn: &mut SqliteConnection,
    year: i32,
) -> Result<Vec<HandBooking>, DbError> {
    let rows: Vec<Row> = sqlx::query_as(&format!("{SELECT} where season = ? order by id"))
        .bind(year)
        .fetch_all(conn)
        .await?;
    Ok(rows.into_iter().map(|r| booking(r).1).collect())
}

/// Stores `b` (its `id` ignored) in season `year`; its new id.
pub async fn insert(
    conn: &mut SqliteConnection,
    year: i32,
    b: &HandBooking,
) -> Result<i64, DbError> {
    let (id,): (i64,) = sqlx::query_as(
        "insert into kassenbuch (season, day, cents, konto, kategorie, text, storno_of, reason,
             created_by) values (?, ?, ?, ?, ?, ?, ?, ?, ?) returning id",
    )
    .bind(year)
    .bind(b.day)
    .bind(b.cents)
    .bind(b.konto.key())
    .bind(b.kategorie.label())
    .bind(&b.text)
    .bind(b.storno_of)
    .bind(&b.reason)
    .bind(&b.created_by)
    .fetch_one(conn)
    .await?;
    Ok(id)
}

/// The Kassenstürze of season `year`, by day.
pub async fn stuerze_of(pool: &SqlitePool, year: i32) -> Result<Vec<Kassensturz>, DbError> {
    let rows: Vec<(NaiveDate, i64, String, Option<i64>)> = sqlx::query_as(
        "select day, counted_cents, counted_by, book_cents from kassenstuerze where season = ?
         order by day, id",
    )
    .bind(year)
    .fetch_all(pool)
    .await?;
    Ok(rows
        .into_iter()
        .map(|(day, counted_cents, by, book_cents)| Kassensturz {
            day,
            counted_cents,
            by,
            book_cents,
        })
        .collect())
}

/// Stores the Kassensturz `k` of season `year`.
pub async fn insert_sturz(
    conn: &mut SqliteConnection,
    year: i32,
    k: &Kassensturz,
) -> Result<(), DbError> {
    sqlx::query(
        "insert into kassenstuerze (season, day, counted_cents, counted_by, book_cents)
         values (?, ?, ?, ?, ?)",
    )
    .bind(year)
    .bind(k.day)
    .bind(k.counted_cents)
    .bind(&k.by)
    .bind(k.book_cents)
    .execute(conn)
    .await?;
    Ok(())
}

/// The Kassenbuch of season `year` as its season file carries it (issue 35.4): the hand bookings
/// numbered 1, 2, 3 … by id, a Storno naming its booking's number; `None` without any booking or
/// Kassensturz.
pub async fn file_of(
    conn: &mut SqliteConnection,
    year: i32,
) -> Result<Option<crate::league::model::file::KassenbuchFile>, DbError> {
    use crate::league::model::file::{HandBookingEntry, KassenbuchFile, KassensturzEntry};
    let bookings = bookings_of(&mut *conn, year).await?;
    let counts: Vec<(NaiveDate, i64, String, Option<i64>)> = sqlx::query_as(
        "select day, counted_cents, counted_by, book_cents from kassenstuerze where season = ?
         order by id",
    )
    .bind(year)
    .fetch_all(&mut *conn)
    .await?;
    let checks = super::money::pruefungen_of(&mut *conn, year).await?;
    if bookings.is_empty() && counts.is_empty() && checks.is_empty() {
        return Ok(None);
    }
    let (last,): (Option<i64>,) =
        sqlx::query_as("select max(nr) from kassenbelege where season = ?")
            .bind(year)
            .fetch_one(&mut *conn)
            .await?;
    let pruefungen: Vec<crate::league::model::file::PruefungEntry> = checks
        .into_iter()
        .map(|p| crate::league::model::file::PruefungEntry {
            date: p.day,
            by: p.username,
            note: p.note,
            end_cents: p.end_cents,
            belege_after: p.last_beleg.map_or(0, |seen| {
                u32::try_from(last.unwrap_or(0) - seen).unwrap_or(0)
            }),
        })
        .collect();
    let version = if pruefungen.is_empty() {
        crate::league::model::file::KASSENBUCH_VERSION_PLAIN
    } else {
        crate::league::model::file::KASSENBUCH_VERSION
    };
    let nr_of = |id: i64| {
        bookings
            .iter()
            .position(|b| b.id == id)
            .map(|i| i as u32 + 1)
    };
    Ok(Some(KassenbuchFile {
        version,
        pruefungen,
        bookings: bookings
            .iter()
            .enumerate()
            .map(|(i, b)| HandBookingEntry {
                nr: i as u32 + 1,
                date: b.day,
                cents: b.cents,
                konto: b.konto.key().to_string(),
                kategorie: b.kategorie.label().to_string(),
                text: b.text.clone(),
                storno_of: b.storno_of.and_then(nr_of),
                reason: b.reason.clone(),
                by: b.created_by.clone(),
            })
            .collect(),
        kassenstuerze: counts
            .into_iter()
            .map(|(date, counted_cents, by, book_cents)| KassensturzEntry {
                date,
                counted_cents,
                by,
                book_cents,
            })
            .collect(),
    }))
}

/// Replaces the Kassenbuch of season `year` by `file`'s (checked already): every hand booking
/// and Kassensturz deleted, the file's stored in its order, each Storno linked to its booking's
/// new id. Run it inside the import's transaction.
pub async fn replace_from_file(
    conn: &mut SqliteConnection,
    year: i32,
    file: &crate::league::model::file::KassenbuchFile,
) -> Result<(), DbError> {
    // A Storno refers to its booking: those go first.
    sqlx::query("delete from kassenbuch where season = ? and storno_of is not null")
        .bind(year)
        .execute(&mut *conn)
        .await?;
    for table in ["kassenbuch", "kassenstuerze"] {
        sqlx::query(&format!("delete from {table} where season = ?"))
            .bind(year)
            .execute(&mut *conn)
            .await?;
    }
    let mut ids: Vec<i64> = Vec::with_capacity(file.bookings.len());
    for b in &file.bookings {
        let hand = HandBooking {
            id: 0,
            day: b.date,
            cents: b.cents,
            konto: Konto::parse(&b.konto).unwrap_or(Konto::Bar),
            kategorie: Kategorie::parse(&b.kategorie).unwrap_or(Kategorie::Sonstiges),
            text: b.text.clone(),
            storno_of: b
                .storno_of
                .and_then(|nr| ids.get((nr as usize).wrapping_sub(1)).copied()),
            reason: b.reason.clone(),
            created_by: b.by.clone(),
        };
        ids.push(insert(&mut *conn, year, &hand).await?);
    }
    for k in &file.kassenstuerze {
        let sturz = Kassensturz {
            day: k.date,
            counted_cents: k.counted_cents,
            by: k.by.clone(),
            book_cents: k.book_cents,
        };
        insert_sturz(&mut *conn, year, &sturz).await?;
    }
    // The Prüfungen of a file that carries some replace the stored ones; their last Beleg is
    // set once the journal has booked the season ([`settle_imported_pruefungen`]).
    if !file.pruefungen.is_empty() {
        sqlx::query("delete from kassenpruefungen where season = ?")
            .bind(year)
            .execute(&mut *conn)
            .await?;
        for p in &file.pruefungen {
            sqlx::query(
                "insert into kassenpruefungen (season, username, day, note, created_at, \
                 last_beleg, end_cents, belege_after_import) values (?, ?, ?, ?, ?, null, ?, ?)",
            )
            .bind(year)
            .bind(&p.by)
            .bind(p.date)
            .bind(&p.note)
            .bind(format!("{}T00:00:00Z", p.date))
            .bind(p.end_cents)
            .bind(i64::from(p.belege_after))
            .execute(&mut *conn)
            .await?;
        }
    }
    Ok(())
}

/// After the journal booked season `year`: each Prüfung imported from a file gets its last Beleg,
/// the journal's last number minus the Belege that came after it in the file (at least 0).
pub async fn settle_imported_pruefungen(
    conn: &mut SqliteConnection,
    year: i32,
) -> Result<(), DbError> {
    sqlx::query(
        "update kassenpruefungen set last_beleg = max(0, coalesce((select max(nr) \
         from kassenbelege where season = ?1), 0) - belege_after_import), \
         belege_after_import = null where season = ?1 and belege_after_import is not null",
    )
    .bind(year)
    .execute(&mut *conn)
    .await?;
    Ok(())
}

type BelegRow = (
    i64,
    String,
    i64,
    NaiveDate,
    i64,
    String,
    String,
    String,
    Option<i64>,
    String,
    String,
);

/// The stored Belege of season `year` (table `kassenbelege`), by number.
pub async fn journal_of(conn: &mut SqliteConnection, year: i32) -> Result<Vec<Beleg>, DbError> {
    let rows: Vec<BelegRow> = sqlx::query_as(
        "select nr, source, gen, day, cents, konto, kategorie, text, storno_of, reason, created_by
         from kassenbelege where season = ? order by nr",
    )
    .bind(year)
    .fetch_all(conn)
    .await?;
    Ok(rows
        .into_iter()
        .map(|r| Beleg {
            nr: r.0 as u32,
            key: r.1,
            gen: r.2 as u32,
            day: r.3,
            cents: r.4,
            konto: Konto::parse(&r.5).unwrap_or(Konto::Bar),
            kategorie: Kategorie::parse(&r.6).unwrap_or(Kategorie::Sonstiges),
            text: r.7,
            storno_of: r.8.map(|n| n as u32),
            reason: r.9,
            by: r.10,
        })
        .collect())
}

/// Appends Beleg `b` to the journal of season `year`. Errors: its number or its (source, gen)
/// stored already (UNIQUE), a Beleg cancelled twice.
pub async fn append(conn: &mut SqliteConnection, year: i32, b: &Beleg) -> Result<(), DbError> {
    sqlx::query(
        "insert into kassenbelege (season, nr, source, gen, day, cents, konto, kategorie, text,
             storno_of, reason, created_by) values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
    )
    .bind(year)
    .bind(i64::from(b.nr))
    .bind(&b.key)
    .bind(i64::from(b.gen))
    .bind(b.day)
    .bind(b.cents)
    .bind(b.konto.key())
    .bind(b.kategorie.label())
    .bind(&b.text)
    .bind(b.storno_of.map(i64::from))
    .bind(&b.reason)
    .bind(&b.by)
    .execute(conn)
    .await?;
    Ok(())
}

/// The Anfangsbestand of season `year` as first booked (table `kassen_anfang`), `None` before.
pub async fn anfang_of(conn: &mut SqliteConnection, year: i32) -> Result<Option<Bestand>, DbError> {
    let row: Option<(i64, i64)> =
        sqlx::query_as("select bar_cents, bank_cents from kassen_anfang where season = ?")
            .bind(year)
            .fetch_optional(conn)
            .await?;
    Ok(row.map(|(bar_cents, bank_cents)| Bestand {
        bar_cents,
        bank_cents,
    }))
}

/// Books `b` as the Anfangsbestand of season `year` (once; never changed).
pub async fn set_anfang(conn: &mut SqliteConnection, year: i32, b: Bestand) -> Result<(), DbError> {
    sqlx::query("insert into kassen_anfang (season, bar_cents, bank_cents) values (?, ?, ?)")
        .bind(year)
        .bind(b.bar_cents)
        .bind(b.bank_cents)
        .execute(conn)
        .await?;
    Ok(())
}
