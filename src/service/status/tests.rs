use super::PublicUrl;

#[test]
fn the_public_address_is_a_scheme_and_a_host_only() {
    let cases: [(&str, Result<&str, &str>); 9] = [
        ("https://liga.example.org", Ok("https://liga.example.org")),
        (
            " https://liga.example.org/ ",
            Ok("https://liga.example.org"),
        ),
        ("https://localhost:8443", Ok("https://localhost:8443")),
        ("http://192.168.1.5:3000", Ok("http://192.168.1.5:3000")),
        ("https://[::1]:8443", Ok("https://[::1]:8443")),
        ("liga.example.org", Err("bitte mit https:// angeben")),
        ("https://liga.example.org/liga", Err("ohne Pfad")),
        ("https://liga.example.org?x=1", Err("ohne Pfad")),
        ("https://", Err("Öffentliche Adresse")),
    ];
    for (typed, want) in cases {
        match (PublicUrl::parse(typed), want) {
            (Ok(u), Ok(w)) => assert_eq!(u.as_str(), w, "{typed}"),
            (Err(e), Err(w)) => assert!(e.contains(w), "{typed}: {e}"),
            (got, want) => panic!("{typed}: {got:?}, expected {want:?}"),
        }
    }
    let url = PublicUrl::parse("https://liga.example.org/").unwrap();
    assert!(url.is_https());
    assert_eq!(
        url.link("/setup?token=abc"),
        "https://liga.example.org/setup?token=abc"
    );
    assert!(!PublicUrl::parse("http://pi:3000").unwrap().is_https());
}
