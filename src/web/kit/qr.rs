//! QR codes drawn as inline SVG for a page (no script, no style): a scorer link's address, the
//! GiroCode of a money card.

/// The QR code of `text` (error correction level M, as EPC069-12 asks for a GiroCode) as an SVG
/// element of `class` with the accessible name `label`, the XML declaration dropped; `None` when
/// the text does not fit a QR code.
pub fn svg(text: &str, class: &str, label: &str) -> Option<String> {
    use qrcode::render::svg;
    let code =
        qrcode::QrCode::with_error_correction_level(text.as_bytes(), qrcode::EcLevel::M).ok()?;
    let svg = code
        .render::<svg::Color>()
        .min_dimensions(200, 200)
        .dark_color(svg::Color("#000"))
        .light_color(svg::Color("#fff"))
        .build();
    let start = svg.find("<svg")?;
    Some(svg[start..].replacen(
        "<svg ",
        &format!("<svg class=\"{class}\" role=\"img\" aria-label=\"{label}\" "),
        1,
    ))
}
