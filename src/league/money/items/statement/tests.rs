//! Unit tests of the bank statement's reading and matching (issue 34.3), as tables.

use std::collections::BTreeMap;

use chrono::NaiveDate;

use super::matching::{find, references_in, How};
use super::*;
use crate::league::money::reference::player_reference;
use crate::league::testkit::{season, season_json};

const FIXTURES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/kontoauszug/");

fn fixture(name: &str) -> Vec<u8> {
    std::fs::read(format!("{FIXTURES}{name}")).expect("fixture")
}

fn d(s: &str) -> NaiveDate {
    NaiveDate::parse_from_str(s, "%Y-%m-%d").expect("test date")
}

#[test]
fn amounts_are_read_to_the_cent_or_not_at_all() {
    // (text, decimal separator, grouping, cents)
    let cases: [(&str, char, Option<char>, Option<i64>); 16] = [
        ("25.00", '.', None, Some(2500)),
        ("0.5", '.', None, Some(50)),
        ("1234", '.', None, Some(123_400)),
        ("25,00", ',', Some('.'), Some(2500)),
        ("-3,50", ',', Some('.'), Some(-350)),
        ("1.234,56", ',', Some('.'), Some(123_456)),
        (" +7,1 ", ',', Some('.'), Some(710)),
        ("1,234", ',', Some('.'), None),
        ("1.00", ',', Some('.'), None),
        ("12.3456,00", ',', Some('.'), None),
        ("25,00", '.', None, None),
        ("", ',', Some('.'), None),
        ("-", ',', Some('.'), None),
        ("3,5x", ',', Some('.'), None),
        ("1e3", '.', None, None),
        ("99999999999999999999", '.', None, None),
    ];
    for (text, sep, group, want) in cases {
        assert_eq!(cents_of(text, sep, group), want, "{text}");
    }
}

#[test]
fn days_of_the_csv_exports() {
    let cases = [
        ("10.03.26", Some("2026-03-10")),
        ("1.3.26", Some("2026-03-01")),
        ("10.03.2026", Some("2026-03-10")),
        ("31.02.26", None),
        ("2026-03-10", None),
        ("10.03.", None),
        ("10.03.126", None),
        ("", None),
    ];
    for (text, want) in cases {
        assert_eq!(bank_csv::day_of(text), want.map(d), "{text}");
    }
}

/// The three fixtures hold the same six credits and one debit (a pending CSV line left out).
#[test]
fn camt_02_camt_08_and_the_sparkasse_csv_read_the_same_entries() {
    let mut read_all = Vec::new();
    for (name, format) in [
        ("maerz-2026.camt053.001.02.xml", "CAMT.053.001.02"),
        ("maerz-2026.camt053.001.08.xml", "CAMT.053.001.08"),
        ("maerz-2026.sparkasse.csv", "Sparkasse CSV-CAMT"),
    ] {
        let s = read(name, &fixture(name)).expect(name);
        assert_eq!(s.format, format);
        let short: Vec<(NaiveDate, i64, String)> = s
            .entries
            .iter()
            .map(|e| (e.date, e.cents, e.counterparty.clone()))
            .collect();
        read_all.push((s, short));
    }
    let want = [
        ("2026-03-10", 50, "Dirk Dietrich"),
        ("2026-03-12", 1500, "Bernd Brandt"),
        ("2026-03-15", 2000, "Carla Claasen"),
        ("2026-03-20", 500, "Anna Becker"),
        ("2026-03-20", 300, "Elke Engel"),
        ("2026-03-25", 200, "Frank Fröhlich"),
        ("2026-03-31", -350, "Sparkasse Musterstadt"),
    ];
    let want: Vec<(NaiveDate, i64, String)> = want
        .iter()
        .map(|(day, c, n)| (d(day), *c, n.to_string()))
        .collect();
    for (s, short) in &read_all {
        assert_eq!(short, &want, "{}", s.format);
    }
    let (camt02, camt08, csv) = (&read_all[0].0, &read_all[1].0, &read_all[2].0);
    // .02: NtryRef; .08: AcctSvcrRef; the CSV has none.
    assert_eq!(camt02.entries[0].bank_ref.as_deref(), Some("2026031000001"));
    assert_eq!(camt08.entries[0].bank_ref.as_deref(), Some("2026031000001"));
    assert_eq!(csv.entries[0].bank_ref, None);
    // .08: the structured reference and the purpose from two Ustrd, joined.
    assert_eq!(camt08.entries[0].reference.as_deref(), Some("RF5320264"));
    assert_eq!(camt08.entries[1].purpose, "Schockerliga 2026 Bernd");
    assert_eq!(camt08.entries[4].purpose, "Strafe Elke März");
    // The CSV (Windows-1252), .02 (the reference in the purpose) and .08 (the reference
    // structured, the purpose in two lines) give the same hashes.
    let hashes = |s: &Statement| s.entries.iter().map(Entry::hash).collect::<Vec<_>>();
    assert_eq!(hashes(camt02), hashes(csv));
    assert_eq!(hashes(camt08), hashes(csv));
}

#[test]
fn two_equal_transfers_on_one_day_stay_two() {
    let line = "\"11.03.26\";\"Schockerliga 2026 Anna\";\"Anna\";\"5,00\"";
    let csv = format!(
        "Buchungstag;Verwendungszweck;Beguenstigter/Zahlungspflichtiger;Betrag\n{line}\n{line}\n"
    );
    let s = read("x.csv", csv.as_bytes()).expect("read");
    assert_eq!((s.entries[0].twin, s.entries[1].twin), (0, 1));
    assert_ne!(s.entries[0].hash(), s.entries[1].hash());
}

/// A file that is no statement is refused naming the line and the element or column, and why.
#[test]
fn bad_files_are_refused_with_where_and_why() {
    let camt = |v: &str, ntry: &str| {
        format!(
            "<?xml version=\"1.0\"?>\n<Document xmlns=\"urn:iso:std:iso:20022:tech:xsd:camt.053.001.{v}\">\n<BkToCstmrStmt><Stmt>\n{ntry}\n</Stmt></BkToCstmrStmt></Document>"
        )
    };
    let ok = "<Ntry><Amt Ccy=\"EUR\">1.00</Amt><CdtDbtInd>CRDT</CdtDbtInd><BookgDt><Dt>2026-03-01</Dt></BookgDt></Ntry>";
    assert!(read("a.xml", camt("04", ok).as_bytes()).is_ok());
    let header = "Buchungstag;Verwendungszweck;Beguenstigter/Zahlungspflichtiger;Betrag;Waehrung\n";
    let cases: Vec<(String, &str)> = vec![
        (camt("01", ok), "Zeile 2, Element Document: kein Kontoauszug im Format CAMT.053"),
        (camt("09", ok), "Namensraum „urn:iso:std:iso:20022:tech:xsd:camt.053.001.09“"),
        ("<Document xmlns=\"urn:iso:std:iso:20022:tech:xsd:camt.052.001.08\"/>".into(),
         "Zeile 1, Element Document: kein Kontoauszug im Format CAMT.053"),
        (camt("08", &ok.replace("1.00", "1,00")),
         "Zeile 4, Element Ntry/Amt: „1,00“ ist kein Betrag (erwartet z. B. 25.00)"),
        (camt("08", &ok.replace("EUR", "CHF")),
         "Zeile 4, Element Ntry/Amt: Währung CHF: die Kasse rechnet nur in EUR"),
        (camt("08", &ok.replace("CRDT", "RVSL")),
         "Zeile 4, Element Ntry/CdtDbtInd: „RVSL“ ist weder CRDT (Gutschrift) noch DBIT (Lastschrift)"),
        (camt("08", &ok.replace("2026-03-01", "01.03.2026")),
         "Zeile 4, Element Ntry/BookgDt: „01.03.2026“ ist kein Buchungstag (erwartet JJJJ-MM-TT)"),
        (camt("08", ""), "a.xml: keine gebuchten Umsätze in der Datei"),
        (camt("08", "<Ntry><Amt>1.00</Ntry>"), "Zeile 4: kein lesbares XML"),
        ("Datum;Text\n01.03.26;x\n".into(),
         "Zeile 1: weder CAMT.053 noch ein CSV-Export einer Bank: keine Kopfzeile"),
        (format!("{header}32.03.26;a;b;1,00;EUR\n"),
         "Zeile 2, Spalte Buchungstag: „32.03.26“ ist kein Tag (erwartet TT.MM.JJ)"),
        (format!("{header}01.03.26;a;b;1.00;EUR\n"),
         "Zeile 2, Spalte Betrag: „1.00“ ist kein Betrag (erwartet z. B. 25,00 oder -3,50)"),
        (format!("{header}01.03.26;a;b;1,00;USD\n"),
         "Zeile 2, Spalte Waehrung: Währung USD: die Kasse rechnet nur in EUR"),
    ];
    for (text, want) in cases {
        let name = if text.starts_with('<') {
            "a.xml"
        } else {
            "a.csv"
        };
        let got = read(name, text.as_bytes())
            .map(|s| s.format)
            .unwrap_err()
            .to_string();
        assert!(got.contains(want), "{got}\n  wanted: {want}");
    }
}

#[test]
fn a_statement_of_more_than_max_entries_is_refused() {
    let header = "Buchungstag;Verwendungszweck;Beguenstigter/Zahlungspflichtiger;Betrag\n";
    let line = "01.03.26;a;b;1,00\n";
    let ok = format!("{header}{}", line.repeat(MAX_ENTRIES));
    assert_eq!(
        read("a.csv", ok.as_bytes()).map(|s| s.entries.len()),
        Ok(MAX_ENTRIES)
    );
    let over = format!("{header}{}", line.repeat(MAX_ENTRIES + 1));
    let got = read("a.csv", over.as_bytes()).unwrap_err().to_string();
    assert!(
        got.starts_with("a.csv: 2001 Umsätze, mehr als 2000 in einer Datei"),
        "{got}"
    );
}

#[test]
fn references_are_found_also_in_groups_in_the_purpose() {
    let r = player_reference(2026, 4).expect("reference");
    assert_eq!(r, "RF5320264");
    let cases: [(&str, Vec<(i32, i64)>); 5] = [
        ("RF5320264", vec![(2026, 4)]),
        (
            "Beitrag rf53 2026 4 Schockerliga 2026 Dirk",
            vec![(2026, 4)],
        ),
        ("RF5420264", vec![]),
        ("Schockerliga 2026 Dirk", vec![]),
        ("RF53 2026 4 und RF5320264", vec![(2026, 4), (2026, 4)]),
    ];
    for (text, want) in cases {
        assert_eq!(references_in(text), want, "{text}");
    }
}

/// The match, in its order: the reference, the whole name after "Schockerliga YEAR", else none
/// with a suggestion ("Anna" is not "Anna B.").
#[test]
fn credits_match_by_reference_then_whole_name_else_a_suggestion() {
    let s = season(season_json(
        2026,
        &[
            ("Anna", None),
            ("Bernd", None),
            ("Dirk", None),
            ("Jürgen Maier", None),
            ("Klaus", None),
            ("Klara", None),
        ],
        vec![],
    ));
    let ids: BTreeMap<String, i64> = [("Anna", 1), ("Bernd", 2), ("Dirk", 4), ("Jürgen Maier", 7)]
        .iter()
        .map(|(n, i)| (n.to_string(), *i))
        .collect();
    let entry = |purpose: &str, reference: Option<&str>, party: &str| Entry {
        at: "Zeile 2".into(),
        date: d("2026-03-10"),
        cents: 500,
        purpose: purpose.into(),
        reference: reference.map(str::to_string),
        counterparty: party.into(),
        bank_ref: None,
        twin: 0,
    };
    let rf = |id| player_reference(2026, id).expect("rf");
    let rf_2025 = player_reference(2025, 4).expect("rf");
    // (purpose, structured reference, counterparty, player, how, suggestion)
    type Case<'a> = (
        &'a str,
        Option<String>,
        &'a str,
        Option<&'a str>,
        How,
        Option<&'a str>,
    );
    let zahlung = format!("Zahlung {}", rf(2));
    let cases: Vec<Case> = vec![
        (
            "Schockerliga 2026 Anna",
            Some(rf(4)),
            "X",
            Some("Dirk"),
            How::Reference,
            None,
        ),
        (&zahlung, None, "X", Some("Bernd"), How::Reference, None),
        (
            "Schockerliga 2026 Anna",
            Some(rf_2025),
            "X",
            Some("Anna"),
            How::Text,
            None,
        ),
        (
            "Schockerliga 2026 Anna",
            Some(rf(99)),
            "X",
            Some("Anna"),
            How::Text,
            None,
        ),
        (
            "SCHOCKERLIGA 2026 anna",
            None,
            "X",
            Some("Anna"),
            How::Text,
            None,
        ),
        (
            "Schockerliga  2026 jürgen   maier",
            None,
            "X",
            Some("Jürgen Maier"),
            How::Text,
            None,
        ),
        (
            "Schockerliga 2026 Anna B.",
            None,
            "Anna Becker",
            None,
            How::None,
            Some("Anna"),
        ),
        (
            "Schockerliga 2025 Anna",
            None,
            "X",
            None,
            How::None,
            Some("Anna"),
        ),
        (
            "Schockerliga 2026 Anna Strafe",
            None,
            "X",
            None,
            How::None,
            Some("Anna"),
        ),
        (
            "Beitrag",
            None,
            "Juergen Meier",
            None,
            How::None,
            Some("Jürgen Maier"),
        ),
        (
            "Strafe Dirk",
            None,
            "Sparkasse",
            None,
            How::None,
            Some("Dirk"),
        ),
        ("Strafe", None, "Klaus Klara", None, How::None, None),
        ("Miete", None, "Hausverwaltung", None, How::None, None),
    ];
    for (purpose, reference, party, player, how, suggestion) in cases {
        let f = find(&s, &ids, &entry(purpose, reference.as_deref(), party));
        assert_eq!(
            (f.player.as_deref(), f.how, f.suggestion.as_deref()),
            (player, how, suggestion),
            "{purpose} / {reference:?} / {party}"
        );
    }
}
