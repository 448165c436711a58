use std::time::{Duration, Instant};

use super::*;

#[test]
fn the_token_is_found_only_as_its_own_non_empty_field() {
    // (body, token)
    let cases: [(&[u8], Option<&[u8]>); 6] = [
        (b"einmal=ab12&x=1", Some(b"ab12")),
        (b"x=1&einmal=ab12", Some(b"ab12")),
        (b"x=1&einmal=", None),
        (b"x=1", None),
        (b"keinmal=ab12", None),
        (b"x=einmal%3Dab12", None),
    ];
    for (body, want) in cases {
        assert_eq!(form_token(body), want, "{}", String::from_utf8_lossy(body));
    }
}

#[test]
fn tokens_are_128_random_bits() {
    let a = token();
    assert_eq!(a.len(), 32);
    assert!(a.bytes().all(|b| b.is_ascii_hexdigit()));
    assert_ne!(a, token());
}

#[test]
fn a_form_is_remembered_for_its_time_and_the_oldest_go_beyond_the_limit() {
    let s = Submitted::default();
    let t0 = Instant::now();
    let a = s.slot([1; 32], t0);
    assert!(Arc::ptr_eq(
        &a,
        &s.slot([1; 32], t0 + Duration::from_secs(60))
    ));
    // After REMEMBER the same form is new again.
    let later = t0 + REMEMBER + Duration::from_secs(1);
    assert!(!Arc::ptr_eq(&a, &s.slot([1; 32], later)));
    // Full: expired ones go first, then the oldest.
    for i in 0..MAX_REMEMBERED {
        let mut key = [0u8; 32];
        key[..8].copy_from_slice(&(i as u64).to_le_bytes());
        key[31] = 9;
        s.slot(key, later + Duration::from_millis(i as u64));
    }
    assert_eq!(s.len(), MAX_REMEMBERED);
}
