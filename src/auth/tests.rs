//! Unit tests of `src/auth/mod.rs`.

use super::*;

#[tokio::test]
async fn a_hashed_password_verifies_and_a_wrong_one_does_not() {
    let hash = hash_password("geheim123".to_string()).await.unwrap();
    assert!(hash.starts_with("$argon2id$"));
    assert!(verify_password("geheim123".into(), Some(hash.clone()))
        .await
        .unwrap());
    assert!(!verify_password("falsch".into(), Some(hash)).await.unwrap());
    assert!(!verify_password("geheim123".into(), None).await.unwrap());
}

#[test]
fn sessions_end_after_their_absolute_lifetime() {
    let now = 1_800_000_000;
    let cases = [
        (None, true),
        (Some(now), false),
        (Some(now - SESSION_ABSOLUTE_SECS), false),
        (Some(now - SESSION_ABSOLUTE_SECS - 1), true),
        (Some(now + 60), true),
        (Some(i64::MIN), true),
    ];
    for (login_at, want) in cases {
        assert_eq!(session_expired(login_at, now), want, "{login_at:?}");
    }
}

#[test]
fn roles_parse_only_their_four_names() {
    for (s, r) in [
        ("admin", Some(Role::Admin)),
        ("secretary", Some(Role::Secretary)),
        ("kassenwart", Some(Role::Treasurer)),
        ("kassenpruefer", Some(Role::Auditor)),
        ("treasurer", None),
        ("kassenprüfer", None),
        ("Admin", None),
        ("", None),
    ] {
        assert_eq!(Role::parse(s), r);
    }
}

#[test]
fn a_kassenpruefer_reads_the_money_changes_none_of_it_and_alone_audits() {
    let r = Role::Auditor;
    assert_eq!(Role::parse(r.as_str()), Some(r));
    assert_eq!(r.as_str(), "kassenpruefer");
    assert_eq!(r.label(), "Kassenprüfer");
    assert!(r.reads_money() && r.audits_money());
    assert!(!r.handles_money() && !r.is_secretary());
    assert_eq!(r.home(), "/verwaltung/kasse");
    for other in [Role::Admin, Role::Secretary, Role::Treasurer] {
        assert!(other.reads_money() && other.handles_money(), "{other:?}");
        assert!(!other.audits_money(), "{other:?}");
        assert_eq!(Role::parse(other.as_str()), Some(other));
    }
}

#[test]
fn new_accounts_need_a_name_a_long_password_and_the_same_twice() {
    let cases = [
        ("anna", "geheim123", "geheim123", true),
        ("", "geheim123", "geheim123", false),
        ("anna", "kurz", "kurz", false),
        ("anna", "geheim123", "geheim124", false),
        ("an\u{0}na", "geheim123", "geheim123", false),
        ("anna\n", "geheim123", "geheim123", false),
        ("<b>anna</b>", "geheim123", "geheim123", true),
        // not the name, not containing it (case does not count)
        ("Anna12345", "anna12345", "anna12345", false),
        ("anna", "xxANNAxx99", "xxANNAxx99", false),
        ("anna", "hans123456", "hans123456", true),
        ("ab", "abcdefgh12", "abcdefgh12", true),
        ("kassenwart", "kassenwart", "kassenwart", false),
        ("anna", "1234567", "1234567", false),
        // one script: a Cyrillic а in a Latin name looks like another account's
        ("\u{430}dmin", "geheim123", "geheim123", false),
        ("Анна", "geheim123", "geheim123", true),
    ];
    for (name, p1, p2, ok) in cases {
        assert_eq!(
            check_new_account(name, p1, Some(p2)).is_ok(),
            ok,
            "{name} {p1} {p2}"
        );
    }
}
