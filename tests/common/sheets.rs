//! Workbooks written the way a club's spreadsheet program writes them, for the import tests:
//! XLSX through `rust_xlsxwriter` (dates as date cells, whole numbers as number cells) and ODS as
//! its zip of XML. Shared by `src/sheet/tests.rs`, `tests/cases` and the history benchmark.
#![allow(dead_code, clippy::unwrap_used, clippy::expect_used)]

use std::io::Write;

use chrono::{Datelike, NaiveDate};

/// A cell as the test writes it: a `TT.MM.JJJJ` text becomes a date, a whole number a number,
/// anything else a string; empty text an empty cell.
enum Out<'a> {
    Empty,
    Date(NaiveDate),
    Number(f64),
    Text(&'a str),
}

fn out(text: &str) -> Out<'_> {
    if text.is_empty() {
        return Out::Empty;
    }
    if let Ok(d) = NaiveDate::parse_from_str(text, "%d.%m.%Y") {
        return Out::Date(d);
    }
    match text.parse::<i64>() {
        Ok(n) => Out::Number(n as f64),
        Err(_) => Out::Text(text),
    }
}

/// An XLSX workbook with one worksheet per `(name, rows)`; dates as date cells (`dd.mm.yyyy`).
pub fn xlsx(sheets: &[(&str, Vec<Vec<String>>)]) -> Vec<u8> {
    use rust_xlsxwriter::{ExcelDateTime, Format, Workbook};
    let mut book = Workbook::new();
    let date = Format::new().set_num_format("dd.mm.yyyy");
    for (name, rows) in sheets {
        let sheet = book.add_worksheet();
        sheet.set_name(*name).unwrap();
        for (r, row) in rows.iter().enumerate() {
            for (c, text) in row.iter().enumerate() {
                let (r, c) = (r as u32, c as u16);
                match out(text) {
                    Out::Empty => {}
                    Out::Date(d) => {
                        let dt = ExcelDateTime::from_ymd(
                            d.year() as u16,
                            d.month() as u8,
                            d.day() as u8,
                        )
                        .unwrap();
                        sheet.write_datetime_with_format(r, c, &dt, &date).unwrap();
                    }
                    Out::Number(n) => {
                        sheet.write_number(r, c, n).unwrap();
                    }
                    Out::Text(t) => {
                        sheet.write_string(r, c, t).unwrap();
                    }
                }
            }
        }
    }
    book.save_to_buffer().unwrap()
}

fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// An ODS workbook (LibreOffice) with one table per `(name, rows)`; dates as date cells.
pub fn ods(sheets: &[(&str, Vec<Vec<String>>)]) -> Vec<u8> {
    let mut content = String::from(
        r#"<?xml version="1.0" encoding="UTF-8"?>
<office:document-content xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" office:version="1.2"><office:body><office:spreadsheet>"#,
    );
    for (name, rows) in sheets {
        content.push_str(&format!(r#"<table:table table:name="{}">"#, escape(name)));
        for row in rows {
            content.push_str("<table:table-row>");
            for text in row {
                match out(text) {
                    Out::Empty => content.push_str("<table:table-cell/>"),
                    Out::Date(d) => content.push_str(&format!(
                        r#"<table:table-cell office:value-type="date" office:date-value="{}"><text:p>{}</text:p></table:table-cell>"#,
                        d.format("%Y-%m-%d"),
                        text
                    )),
                    Out::Number(n) => content.push_str(&format!(
                        r#"<table:table-cell office:value-type="float" office:value="{n}"><text:p>{n}</text:p></table:table-cell>"#
                    )),
                    Out::Text(t) => content.push_str(&format!(
                        r#"<table:table-cell office:value-type="string"><text:p>{}</text:p></table:table-cell>"#,
                        escape(t)
                    )),
                }
            }
            content.push_str("</table:table-row>");
        }
        content.push_str("</table:table>");
    }
    content.push_str("</office:spreadsheet></office:body></office:document-content>");
    let manifest = r#"<?xml version="1.0" encoding="UTF-8"?>
<manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0" manifest:version="1.2"><manifest:file-entry manifest:full-path="/" manifest:media-type="application/vnd.oasis.opendocument.spreadsheet"/><manifest:file-entry manifest:full-path="content.xml" manifest:media-type="text/xml"/></manifest:manifest>"#;
    let mut buf = std::io::Cursor::new(Vec::new());
    {
        let mut zip = zip::ZipWriter::new(&mut buf);
        let stored = zip::write::SimpleFileOptions::default()
            .compression_method(zip::CompressionMethod::Stored);
        let deflated = zip::write::SimpleFileOptions::default()
            .compression_method(zip::CompressionMethod::Deflated);
        zip.start_file("mimetype", stored).unwrap();
        zip.write_all(b"application/vnd.oasis.opendocument.spreadsheet")
            .unwrap();
        zip.start_file("META-INF/manifest.xml", deflated).unwrap();
        zip.write_all(manifest.as_bytes()).unwrap();
        zip.start_file("content.xml", deflated).unwrap();
        zip.write_all(content.as_bytes()).unwrap();
        zip.finish().unwrap();
    }
    buf.into_inner()
}
