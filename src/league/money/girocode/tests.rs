//! Unit tests of `src/league/girocode.rs`.

use super::*;

#[test]
fn the_payload_of_a_test_player_is_the_epc_text_byte_for_byte() {
    let got = epc_payload(
        "Schockerliga e.V.",
        "de89 3704 0044 0532 0130 00",
        "cobadeffxxx",
        250,
        &reference(2026, "Anna"),
    )
    .expect("valid");
    let want = "BCD\n002\n1\nSCT\nCOBADEFFXXX\nSchockerliga e.V.\nDE89370400440532013000\nEUR2.50\n\n\nSchockerliga 2026 Anna";
    assert_eq!(got.as_bytes(), want.as_bytes());
    // Without a BIC the line stays, empty (version 002).
    let got = epc_payload(
        "Kasse",
        "DE89370400440532013000",
        "",
        123456,
        "Schockerliga 2026 Jörg",
    )
    .expect("valid");
    assert_eq!(
        got,
        "BCD\n002\n1\nSCT\n\nKasse\nDE89370400440532013000\nEUR1234.56\n\n\nSchockerliga 2026 Jörg"
    );
}

#[test]
fn what_a_payload_refuses() {
    let cases = [
        (
            "",
            "DE89370400440532013000",
            "",
            100,
            "Kontoinhaber: 1 bis 70 Zeichen",
        ),
        (
            "Kasse",
            "DE89370400440532013001",
            "",
            100,
            "Prüfziffern stimmen nicht",
        ),
        (
            "Kasse",
            "DE89370400440532013000",
            "COBA",
            100,
            "BIC COBA: 8 oder 11 Zeichen",
        ),
        ("Kasse", "DE89370400440532013000", "", 0, "Betrag: 0,01 €"),
        (
            "Kas\nse",
            "DE89370400440532013000",
            "",
            100,
            "keine Zeilenumbrüche",
        ),
    ];
    for (name, iban, bic, cents, why) in cases {
        let e = epc_payload(name, iban, bic, cents, "x").expect_err(why);
        assert!(e.contains(why), "{e}");
    }
}

#[test]
fn ibans_are_checked_with_mod_97_and_the_country() {
    let cases = [
        ("DE89 3704 0044 0532 0130 00", Ok("DE89370400440532013000")),
        ("de89370400440532013000", Ok("DE89370400440532013000")),
        ("GB82 WEST 1234 5698 7654 32", Ok("GB82WEST12345698765432")),
        ("AT61 1904 3002 3457 3201", Ok("AT611904300234573201")),
        (
            "DE88 3704 0044 0532 0130 00",
            Err("Prüfziffern stimmen nicht"),
        ),
        ("DE89 3704 0044 0532 0130", Err("Prüfziffern stimmen nicht")),
        ("", Err("IBAN fehlt")),
        ("Kein Konto", Err("keine IBAN")),
        ("XX89370400440532013000", Err("Prüfziffern stimmen nicht")),
        (
            "XX46370400440532013000",
            Err("das Land XX kennt keine IBAN"),
        ),
        (
            "DE67370400440532013000999",
            Err("Länge oder Aufbau passen nicht zum Land DE"),
        ),
    ];
    for (input, want) in cases {
        match (check_iban(input), want) {
            (Ok(got), Ok(w)) => assert_eq!(got, w, "{input}"),
            (Err(e), Err(w)) => assert!(e.contains(w), "{input}: {e}"),
            (got, want) => panic!("{input}: {got:?}, expected {want:?}"),
        }
    }
    let mods = [
        ("DE89370400440532013000", Some(true)),
        ("DE88370400440532013000", Some(false)),
        ("GB82WEST12345698765432", Some(true)),
        ("DE89-37", None),
    ];
    for (iban, want) in mods {
        assert_eq!(mod97(iban), want, "{iban}");
    }
}

#[test]
fn bics_and_paypal_names() {
    for (input, want) in [
        ("cobadeffxxx", Ok("COBADEFFXXX")),
        ("GENODEF1", Ok("GENODEF1")),
        ("", Ok("")),
        ("COBADE", Err(())),
        ("12BADEFF", Err(())),
    ] {
        assert_eq!(
            check_bic(input).map_err(|_| ()),
            want.map(String::from),
            "{input}"
        );
    }
    for (input, want) in [
        ("schockerliga", Ok("schockerliga")),
        ("paypal.me/Schockerliga", Ok("Schockerliga")),
        ("https://www.paypal.me/Schockerliga/", Ok("Schockerliga")),
        ("", Ok("")),
        ("evil.example/x", Err(())),
        ("a b", Err(())),
    ] {
        assert_eq!(
            check_paypal_me(input).map_err(|_| ()),
            want.map(String::from),
            "{input}"
        );
    }
}

#[test]
fn payee_names() {
    // (typed, Ok(name) or Err(fragment))
    let cases: [(&str, Result<&str, &str>); 5] = [
        (" Schockerliga e.V. ", Ok("Schockerliga e.V.")),
        ("", Err("1 bis")),
        ("Zeile\nZwei", Err("Steuerzeichen")),
        ("\u{202E}X", Err("(U+202E)")),
        ("A\u{200B}B", Err("(U+200B)")),
    ];
    for (typed, want) in cases {
        match (check_name(typed), want) {
            (Ok(got), Ok(w)) => assert_eq!(got, w),
            (Err(e), Err(w)) => assert!(e.contains(w), "{typed:?}: {e}"),
            (got, w) => panic!("{typed:?}: {got:?} vs {w:?}"),
        }
    }
}

/// Issue 34.2: with the ISO 11649 reference the structured line carries it and the unstructured
/// line is empty (left out as the last), byte for byte; a reference that does not check is
/// refused.
#[test]
fn the_payload_with_a_creditor_reference_is_the_epc_text_byte_for_byte() {
    // (reference as given, cents, payload or refusal)
    let cases: [(&str, i64, Result<&str, &str>); 4] = [
        (
            "RF18 5390 0754 7034",
            250,
            Ok("BCD\n002\n1\nSCT\nCOBADEFFXXX\nSchockerliga e.V.\nDE89370400440532013000\nEUR2.50\n\nRF18539007547034"),
        ),
        (
            "rf3720261",
            1550,
            Ok("BCD\n002\n1\nSCT\nCOBADEFFXXX\nSchockerliga e.V.\nDE89370400440532013000\nEUR15.50\n\nRF3720261"),
        ),
        ("RF19539007547034", 250, Err("keine gültige Gläubigerreferenz")),
        ("Schockerliga 2026 Anna", 250, Err("keine gültige Gläubigerreferenz")),
    ];
    for (rf, cents, want) in cases {
        let got = epc_payload_rf(
            "Schockerliga e.V.",
            "de89 3704 0044 0532 0130 00",
            "cobadeffxxx",
            cents,
            rf,
        );
        match (got, want) {
            (Ok(p), Ok(w)) => assert_eq!(p.as_bytes(), w.as_bytes(), "{rf}"),
            (Err(e), Err(w)) => assert!(e.contains(w), "{rf}: {e}"),
            (got, want) => panic!("{rf}: {got:?}, expected {want:?}"),
        }
    }
}
