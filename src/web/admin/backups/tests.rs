//! Unit tests of `src/web/admin/backups.rs`.

use super::*;

#[test]
fn sizes_read_german() {
    for (bytes, want) in [
        (0, "0 Bytes"),
        (999, "999 Bytes"),
        (1000, "1,0 kB"),
        (48_349, "48,3 kB"),
        (999_949, "999,9 kB"),
        (999_950, "1,0 MB"),
        (1_449_999, "1,4 MB"),
        (37_800_000, "37,8 MB"),
        (2_500_000_000, "2,5 GB"),
    ] {
        assert_eq!(size_de(bytes), want, "{bytes}");
    }
}
