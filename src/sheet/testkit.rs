//! Workbooks written the way a club's spreadsheet program writes them, for the import tests:
//! XLSX through `rust_xlsxwriter` (dates as date cells, whole numbers as number cells) and ODS as
//! its zip of XML. The test kit of `src/sheet/tests.rs` (a `cfg(test)` module of `sheet`), also
//! read by `tests/cases`, `tests/binary` and the history benchmark.
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

/// The opening of an ODS `content.xml` up to the first `<table:table>`.
pub const ODS_HEAD: &str = r#"<?xml version="1.0" encoding="UTF-8"?>
<office:document-content xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" office:version="1.2"><office:body><office:spreadsheet>"#;
/// The end of an ODS `content.xml` after the last `</table:table>`.
pub const ODS_TAIL: &str = "</office:spreadsheet></office:body></office:document-content>";

/// An ODS workbook (LibreOffice) with one table per `(name, rows)`; dates as date cells.
pub fn ods(sheets: &[(&str, Vec<Vec<String>>)]) -> Vec<u8> {
    let mut content = String::from(ODS_HEAD);
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
    content.push_str(ODS_TAIL);
    ods_of(&content)
}

/// An ODS workbook whose `content.xml` is `content` as given (hostile files are written by hand).
pub fn ods_of(content: &str) -> Vec<u8> {
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

/// `n` letters that do not compress much (a linear congruential sequence over a–z): a cell's
/// text for a hostile file that should stay its size when zipped.
pub fn letters(n: usize) -> String {
    let mut x: u32 = 12_345;
    (0..n)
        .map(|_| {
            x = x.wrapping_mul(1_103_515_245).wrapping_add(12_345);
            char::from(b'a' + ((x >> 16) % 26) as u8)
        })
        .collect()
}

/// Hostile (issue 32.1): an ODS of under 1 KB whose one string cell holds
/// `<text:s text:c="2000000000"/>`, which a naive reader spells out as 2 GB of spaces.
pub fn ods_space_bomb() -> Vec<u8> {
    ods_of(&format!(
        r#"{ODS_HEAD}<table:table table:name="2026"><table:table-row><table:table-cell office:value-type="string"><text:p>Datum</text:p></table:table-cell><table:table-cell office:value-type="string"><text:p>Anna<text:s text:c="2000000000"/></text:p></table:table-cell></table:table-row></table:table>{ODS_TAIL}"#
    ))
}

/// Hostile (issue 32.1): an ODS whose one string cell of `chars` letters is repeated `cols` ×
/// `rows` times (`table:number-columns-repeated`, `table:number-rows-repeated`): a reader that
/// copies the text into every cell builds `chars × cols × rows` bytes.
pub fn ods_repeated_cell(chars: usize, cols: usize, rows: usize) -> Vec<u8> {
    ods_of(&format!(
        r#"{ODS_HEAD}<table:table table:name="2026"><table:table-row table:number-rows-repeated="{rows}"><table:table-cell table:number-columns-repeated="{cols}" office:value-type="string"><text:p>{}</text:p></table:table-cell></table:table-row></table:table>{ODS_TAIL}"#,
        letters(chars)
    ))
}

/// Hostile (issue 32.1): an ODS of `rows` rows that each hold one number far right (column
/// 16,001, after 16,000 empty cells written as one repeat): the used area is one column, but a
/// reader that builds each row from column A holds 16,001 cells a row.
pub fn ods_far_column(rows: usize) -> Vec<u8> {
    let row = r#"<table:table-row><table:table-cell table:number-columns-repeated="16000"/><table:table-cell office:value-type="float" office:value="1"><text:p>1</text:p></table:table-cell></table:table-row>"#;
    ods_of(&format!(
        r#"{ODS_HEAD}<table:table table:name="2026">{}</table:table>{ODS_TAIL}"#,
        row.repeat(rows)
    ))
}

/// An XLSX workbook written by hand: one worksheet `2026` of `rows` rows of `cols` cells that
/// all show shared string 0, the shared string table holding `text` (and declaring
/// `unique_count` entries). Hostile with a long `text` and many cells (issue 32.1: one shared
/// string used by many cells, each a copy), or with a huge `unique_count` (a reader that reserves
/// room for that many strings first).
pub fn xlsx_shared(text: &str, rows: usize, cols: usize, unique_count: u64) -> Vec<u8> {
    let row = format!("<row>{}</row>", r#"<c t="s"><v>0</v></c>"#.repeat(cols));
    xlsx_of(
        &row.repeat(rows),
        &format!(
            r#"<sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" count="{}" uniqueCount="{unique_count}"><si><t>{}</t></si></sst>"#,
            rows * cols,
            escape(text)
        ),
    )
}

/// Hostile (issue 32.1): an XLSX of `rows` rows that each hold one number far right (column
/// WQK, the 16,001st): the used area is one column, but a reader that fills each row from
/// column A holds 16,001 cells a row.
pub fn xlsx_far_column(rows: usize) -> Vec<u8> {
    let data: String = (1..=rows)
        .map(|r| format!(r#"<row r="{r}"><c r="WQK{r}"><v>1</v></c></row>"#))
        .collect();
    xlsx_of(
        &data,
        r#"<sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" count="0" uniqueCount="0"></sst>"#,
    )
}

/// An XLSX workbook written by hand: one worksheet `2026` whose `<sheetData>` is `sheet_data`,
/// and the shared string table `shared` (its whole XML).
pub fn xlsx_of(sheet_data: &str, shared: &str) -> Vec<u8> {
    const MAIN: &str = "http://schemas.openxmlformats.org/spreadsheetml/2006/main";
    const RELS: &str = "http://schemas.openxmlformats.org/package/2006/relationships";
    const DOC: &str = "http://schemas.openxmlformats.org/officeDocument/2006/relationships";
    let parts: Vec<(&str, String)> = vec![
        (
            "[Content_Types].xml",
            r#"<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/><Override PartName="/xl/sharedStrings.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"/></Types>"#.to_string(),
        ),
        (
            "_rels/.rels",
            format!(r#"<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="{RELS}"><Relationship Id="rId1" Type="{DOC}/officeDocument" Target="xl/workbook.xml"/></Relationships>"#),
        ),
        (
            "xl/workbook.xml",
            format!(r#"<?xml version="1.0" encoding="UTF-8"?><workbook xmlns="{MAIN}" xmlns:r="{DOC}"><sheets><sheet name="2026" sheetId="1" r:id="rId1"/></sheets></workbook>"#),
        ),
        (
            "xl/_rels/workbook.xml.rels",
            format!(r#"<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="{RELS}"><Relationship Id="rId1" Type="{DOC}/worksheet" Target="worksheets/sheet1.xml"/><Relationship Id="rId2" Type="{DOC}/sharedStrings" Target="sharedStrings.xml"/></Relationships>"#),
        ),
        (
            "xl/sharedStrings.xml",
            format!(r#"<?xml version="1.0" encoding="UTF-8"?>{shared}"#),
        ),
        (
            "xl/worksheets/sheet1.xml",
            format!(
                r#"<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="{MAIN}"><sheetData>{sheet_data}</sheetData></worksheet>"#
            ),
        ),
    ];
    let mut buf = std::io::Cursor::new(Vec::new());
    {
        let mut zip = zip::ZipWriter::new(&mut buf);
        let deflated = zip::write::SimpleFileOptions::default()
            .compression_method(zip::CompressionMethod::Deflated);
        for (name, text) in parts {
            zip.start_file(name, deflated).unwrap();
            zip.write_all(text.as_bytes()).unwrap();
        }
        zip.finish().unwrap();
    }
    buf.into_inner()
}

/// The three spreadsheets of issue 32.1 (file name, bytes): an ODS of under 1 KB with one huge
/// `text:s`, an ODS of one repeated cell (about 20 KB), an XLSX of one shared string used by
/// many cells (about 20 KB); each would make a naive reader build gigabytes of text. And an
/// XLSX whose shared string table declares two billion entries, and an ODS and an XLSX whose rows
/// each hold one number far right.
pub fn hostile() -> Vec<(&'static str, Vec<u8>)> {
    vec![
        ("leerzeichen.ods", ods_space_bomb()),
        ("wiederholt.ods", ods_repeated_cell(30_000, 1_000, 30)),
        ("geteilt.xlsx", xlsx_shared(&letters(30_000), 60, 1_000, 1)),
        ("zaehler.xlsx", xlsx_shared("Anna", 1, 1, 2_000_000_000)),
        ("weit-rechts.ods", ods_far_column(20_000)),
        ("weit-rechts.xlsx", xlsx_far_column(20_000)),
    ]
}

/// A zip of `parts` (name, text), each deflated.
pub fn zip_parts(parts: &[(&str, String)]) -> Vec<u8> {
    let mut buf = std::io::Cursor::new(Vec::new());
    {
        let mut zip = zip::ZipWriter::new(&mut buf);
        let deflated = zip::write::SimpleFileOptions::default()
            .compression_method(zip::CompressionMethod::Deflated);
        for (name, text) in parts {
            zip.start_file(*name, deflated).unwrap();
            zip.write_all(text.as_bytes()).unwrap();
        }
        zip.finish().unwrap();
    }
    buf.into_inner()
}

/// An XLSX workbook written by hand, the way a hostile file is: one sheet `2026` whose part is
/// `xl/<target>` (any name) holding `sheet` (its whole XML, any root), and, if given, the parts
/// `xl/sharedStrings.xml` and `xl/styles.xml` as written (any root). The workbook's
/// relationships name the sheet only; calamine finds the others by their paths.
pub fn xlsx_raw(target: &str, sheet: &str, shared: Option<&str>, styles: Option<&str>) -> Vec<u8> {
    const RELS: &str = "http://schemas.openxmlformats.org/package/2006/relationships";
    const DOC: &str = "http://schemas.openxmlformats.org/officeDocument/2006/relationships";
    const MAIN: &str = "http://schemas.openxmlformats.org/spreadsheetml/2006/main";
    let mut parts: Vec<(&str, String)> = vec![
        (
            "[Content_Types].xml",
            r#"<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/></Types>"#.to_string(),
        ),
        (
            "_rels/.rels",
            format!(r#"<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="{RELS}"><Relationship Id="rId1" Type="{DOC}/officeDocument" Target="xl/workbook.xml"/></Relationships>"#),
        ),
        (
            "xl/workbook.xml",
            format!(r#"<?xml version="1.0" encoding="UTF-8"?><workbook xmlns="{MAIN}" xmlns:r="{DOC}"><sheets><sheet name="2026" sheetId="1" r:id="rId1"/></sheets></workbook>"#),
        ),
        (
            "xl/_rels/workbook.xml.rels",
            format!(r#"<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="{RELS}"><Relationship Id="rId1" Type="{DOC}/worksheet" Target="{target}"/></Relationships>"#),
        ),
    ];
    let sheet_path = format!("xl/{target}");
    parts.push((&sheet_path, sheet.to_string()));
    if let Some(shared) = shared {
        parts.push(("xl/sharedStrings.xml", shared.to_string()));
    }
    if let Some(styles) = styles {
        parts.push(("xl/styles.xml", styles.to_string()));
    }
    zip_parts(&parts)
}

/// A worksheet's XML with `<sheetData>` holding `data`.
fn worksheet(data: &str) -> String {
    format!(
        r#"<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>{data}</sheetData></worksheet>"#
    )
}

/// `rows` × `cols` cells that each show shared string `index` (as written).
fn shared_cells(index: &str, rows: usize, cols: usize) -> String {
    let row = format!(
        "<row>{}</row>",
        format!(r#"<c t="s"><v>{index}</v></c>"#).repeat(cols)
    );
    row.repeat(rows)
}

/// A shared string table of `texts` under the root `<sst>`.
fn sst(texts: &[&str]) -> String {
    let items: String = texts
        .iter()
        .map(|t| format!("<si><t>{}</t></si>", escape(t)))
        .collect();
    format!(
        r#"<sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" count="{0}" uniqueCount="{0}">{items}</sst>"#,
        texts.len()
    )
}

/// One cell `A1` and one in `XFD1048576`: a grid of 17 billion cells to a reader that builds
/// one from the first to the last used cell.
const FAR: &str = r#"<row r="1"><c r="A1" t="inlineStr"><is><t>x</t></is></c></row><row r="1048576"><c r="XFD1048576" t="inlineStr"><is><t>y</t></is></c></row>"#;

/// The hostile files of the fifth attack on the reader's bounds (issue 32.1 follow-up), each
/// a way past the scan before the build (file name, bytes): a worksheet part named `.bin`, one
/// whose root is no `<worksheet>`; shared string indexes that are no number, zero-padded, or a
/// table wrapped in another element; styles of millions of cell formats or one huge font copied
/// into each; ODS numbers written with character references (`text:c`, `number-rows-repeated`),
/// text after a nested comment, a table inside a cell; a CSV of one line of 3 MiB separators. And
/// what the lead's re-test found besides: an ODS of thousands of empty tables (each a range and
/// names to calamine), a zip of more than 10,000 parts, two sheets naming one part, a number
/// cell of 40,000 digits (calamine reads all of them into memory).
pub fn bypasses() -> Vec<(&'static str, Vec<u8>)> {
    let long = letters(30_000);
    let ods_cell = |inner: &str| {
        ods_of(&format!(
            r#"{ODS_HEAD}<table:table table:name="2026"><table:table-row><table:table-cell office:value-type="string">{inner}</table:table-cell></table:table-row></table:table>{ODS_TAIL}"#
        ))
    };
    vec![
        (
            "weit-bin.xlsx",
            xlsx_raw("worksheets/sheet1.bin", &worksheet(FAR), None, None),
        ),
        (
            "weit-wurzel.xlsx",
            xlsx_raw(
                "worksheets/sheet1.xml",
                &format!("<wrapper><sheetData>{FAR}</sheetData></wrapper>"),
                None,
                None,
            ),
        ),
        (
            "index-kein.xlsx",
            xlsx_raw(
                "worksheets/sheet1.xml",
                &worksheet(&shared_cells("x", 1_000, 50)),
                Some(&sst(&[&long, "b"])),
                None,
            ),
        ),
        (
            "index-nullen.xlsx",
            xlsx_raw(
                "worksheets/sheet1.xml",
                &worksheet(&shared_cells(&format!("{}1", "0".repeat(24)), 1_000, 50)),
                Some(&sst(&["b", &long])),
                None,
            ),
        ),
        (
            "index-verpackt.xlsx",
            xlsx_raw(
                "worksheets/sheet1.xml",
                &worksheet(&shared_cells("0", 1_000, 50)),
                Some(&format!(
                    r#"<wrap><sst count="2" uniqueCount="2"><si><t>{long}</t></si><si><t>b</t></si></sst></wrap>"#
                )),
                None,
            ),
        ),
        (
            "formate.xlsx",
            xlsx_raw(
                "worksheets/sheet1.xml",
                &worksheet(""),
                None,
                Some(&format!(
                    r#"<styleSheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><cellXfs>{}</cellXfs></styleSheet>"#,
                    "<xf/>".repeat(2_000_000)
                )),
            ),
        ),
        (
            "schrift.xlsx",
            xlsx_raw(
                "worksheets/sheet1.xml",
                &worksheet(""),
                None,
                Some(&format!(
                    r#"<styleSheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><fonts><font><name val="{}"/></font></fonts><cellXfs>{}</cellXfs></styleSheet>"#,
                    "A".repeat(1_000_000),
                    r#"<xf fontId="0"/>"#.repeat(100_000)
                )),
            ),
        ),
        (
            "zeichen-referenz.ods",
            ods_cell(r#"<text:p>a<text:s text:c="&#50;000000000"/></text:p>"#),
        ),
        (
            "kommentar.ods",
            ods_cell(
                r#"<office:annotation><office:annotation></office:annotation><text:p>a<text:s text:c="2000000000"/></text:p></office:annotation>"#,
            ),
        ),
        (
            "zeilen-referenz.ods",
            ods_of(&format!(
                r#"{ODS_HEAD}<table:table table:name="2026"><table:table-row table:number-rows-repeated="&#49;000000"><table:table-cell office:value-type="float" office:value="1" table:number-columns-repeated="95"/></table:table-row></table:table>{ODS_TAIL}"#
            )),
        ),
        (
            "tabelle-in-zelle.ods",
            ods_of(&format!(
                r#"{ODS_HEAD}<table:table table:name="2026"><table:table-row><table:table-cell office:value-type="string"><text:p>x</text:p><table:table table:name="y"/></table:table-cell></table:table-row><table:table-row table:number-rows-repeated="5000"><table:table-cell table:number-columns-repeated="16000"/></table:table-row><table:table-row><table:table-cell table:number-columns-repeated="16000"/><table:table-cell office:value-type="float" office:value="1"/></table:table-row></table:table>{ODS_TAIL}"#
            )),
        ),
        (
            "ziffern.xlsx",
            xlsx_raw(
                "worksheets/sheet1.xml",
                &worksheet(&format!(
                    r#"<row r="1"><c r="A1"><v>{}</v></c></row>"#,
                    "9".repeat(40_000)
                )),
                None,
                None,
            ),
        ),
        (
            "blaetter.ods",
            ods_of(&format!(
                "{ODS_HEAD}{}{ODS_TAIL}",
                (0..2_000)
                    .map(|k| format!(r#"<table:table table:name="{k}"/>"#))
                    .collect::<String>()
            )),
        ),
        ("teile.xlsx", {
            let names: Vec<String> = (0..10_001).map(|k| format!("x/{k}.xml")).collect();
            let parts: Vec<(&str, String)> =
                names.iter().map(|n| (n.as_str(), String::new())).collect();
            zip_parts(&parts)
        }),
        (
            "doppelt.xlsx",
            xlsx_twice(&worksheet(r#"<row r="1"><c r="A1"><v>1</v></c></row>"#)),
        ),
        // Under the web's upload limit (3 MiB); the command line's test takes 16 MiB.
        ("lange-zeile.csv", vec![b';'; 3 * 1024 * 1024 - 64 * 1024]),
    ]
}

/// An XLSX workbook whose two sheets `2026` and `2027` both name the one part holding `sheet`:
/// calamine reads that part once for each.
pub fn xlsx_twice(sheet: &str) -> Vec<u8> {
    const RELS: &str = "http://schemas.openxmlformats.org/package/2006/relationships";
    const DOC: &str = "http://schemas.openxmlformats.org/officeDocument/2006/relationships";
    const MAIN: &str = "http://schemas.openxmlformats.org/spreadsheetml/2006/main";
    zip_parts(&[
        (
            "_rels/.rels",
            format!(
                r#"<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="{RELS}"><Relationship Id="rId1" Type="{DOC}/officeDocument" Target="xl/workbook.xml"/></Relationships>"#
            ),
        ),
        (
            "xl/workbook.xml",
            format!(
                r#"<?xml version="1.0" encoding="UTF-8"?><workbook xmlns="{MAIN}" xmlns:r="{DOC}"><sheets><sheet name="2026" sheetId="1" r:id="rId1"/><sheet name="2027" sheetId="2" r:id="rId2"/></sheets></workbook>"#
            ),
        ),
        (
            "xl/_rels/workbook.xml.rels",
            format!(
                r#"<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="{RELS}"><Relationship Id="rId1" Type="{DOC}/worksheet" Target="worksheets/sheet1.xml"/><Relationship Id="rId2" Type="{DOC}/worksheet" Target="worksheets/sheet1.xml"/></Relationships>"#
            ),
        ),
        ("xl/worksheets/sheet1.xml", sheet.to_string()),
    ])
}
