//! Login throttling per account (SECURITY.md "Login"): at most [`MAX_FAILURES`] failed logins per
//! account within [`WINDOW`]. Past the limit, only addresses that logged in to the account
//! successfully before may still try; every other address gets 429 until failures age out. There is
//! no permanent lock an attacker could impose. The per-address burst limit is `tower_governor` on
//! `POST /login` (see `web::auth`).

use std::collections::{HashMap, HashSet, VecDeque};
use std::net::IpAddr;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// Failed logins per account allowed within [`WINDOW`] before unknown addresses are refused.
pub const MAX_FAILURES: usize = 100;
/// The sliding window of the failure count: one hour.
pub const WINDOW: Duration = Duration::from_secs(3600);
/// Accounts tracked at most; beyond it the oldest idle entries are dropped (memory bound against
/// floods of invented names).
const MAX_TRACKED: usize = 10_000;

/// What is known about the logins of one account name.
#[derive(Debug, Default)]
struct AccountState {
    /// Times of the failures within the window, oldest first.
    failures: VecDeque<Instant>,
    /// Addresses that logged in successfully to this account.
    known: HashSet<IpAddr>,
}

/// The in-memory failure counter shared by the login handler.
#[derive(Debug, Default)]
pub struct LoginThrottle {
    accounts: Mutex<HashMap<String, AccountState>>,
}

/// The key of an account name: trimmed and lower-cased, so that case games do not multiply the limit.
fn key(account: &str) -> String {
    account.trim().to_lowercase()
}

impl LoginThrottle {
    /// An empty throttle.
    pub fn new() -> LoginThrottle {
        LoginThrottle::default()
    }

    /// True when a login attempt for `account` from `ip` (None = unknown address) may be checked at
    /// `now`; false means answer 429 without checking the password.
    pub fn allowed(&self, account: &str, ip: Option<IpAddr>, now: Instant) -> bool {
        self.wait(account, ip, now).is_none()
    }

    /// How long an attempt for `account` from `ip` must wait at `now`: `None` when it may be
    /// checked now, else the time until enough failures have aged out of [`WINDOW`] (at most
    /// [`WINDOW`]; the `Retry-After` of the 429).
    pub fn wait(&self, account: &str, ip: Option<IpAddr>, now: Instant) -> Option<Duration> {
        let Ok(mut map) = self.accounts.lock() else {
            return None;
        };
        let state = map.get_mut(&key(account))?;
        prune(&mut state.failures, now);
        if state.failures.len() < MAX_FAILURES || ip.is_some_and(|ip| state.known.contains(&ip)) {
            return None;
        }
        // Below the limit again once the oldest failure beyond it has left the window.
        let oldest = state.failures[state.failures.len() - MAX_FAILURES];
        Some(WINDOW.saturating_sub(now.saturating_duration_since(oldest)))
    }

    /// Counts a failed login for `account` at `now`.
    pub fn failed(&self, account: &str, now: Instant) {
        let Ok(mut map) = self.accounts.lock() else {
            return;
        };
        if map.len() >= MAX_TRACKED {
            map.retain(|_, s| {
                prune(&mut s.failures, now);
                !s.failures.is_empty() || !s.known.is_empty()
            });
            if map.len() >= MAX_TRACKED {
                map.retain(|_, s| !s.known.is_empty());
            }
        }
        let state = map.entry(key(account)).or_default();
        prune(&mut state.failures, now);
        state.failures.push_back(now);
        if state.failures.len() > MAX_FAILURES {
            state.failures.pop_front();
        }
    }

    /// Records a successful login of `account` from `ip`: the address becomes known and the
    /// failures are forgotten.
    pub fn succeeded(&self, account: &str, ip: Option<IpAddr>) {
        let Ok(mut map) = self.accounts.lock() else {
            return;
        };
        let state = map.entry(key(account)).or_default();
        state.failures.clear();
        if let Some(ip) = ip {
            if state.known.len() < 64 {
                state.known.insert(ip);
            }
        }
    }
}

/// Drops failures older than [`WINDOW`] before `now`.
fn prune(failures: &mut VecDeque<Instant>, now: Instant) {
    while failures
        .front()
        .is_some_and(|t| now.saturating_duration_since(*t) >= WINDOW)
    {
        failures.pop_front();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ip(last: u8) -> Option<IpAddr> {
        Some(IpAddr::from([192, 168, 1, last]))
    }

    #[test]
    fn after_the_limit_only_known_addresses_may_try_until_failures_age_out() {
        let t = LoginThrottle::new();
        let start = Instant::now();
        t.succeeded("Anna", ip(1));
        for i in 0..MAX_FAILURES {
            assert!(t.allowed("anna", ip(9), start), "attempt {i}");
            t.failed(" ANNA ", start);
        }
        let cases = [
            (ip(9), start, false),
            (None, start, false),
            (ip(1), start, true),
            (ip(9), start + WINDOW - Duration::from_secs(1), false),
            (ip(9), start + WINDOW, true),
        ];
        for (addr, at, want) in cases {
            assert_eq!(
                t.allowed("Anna", addr, at),
                want,
                "{addr:?} at +{:?}",
                at - start
            );
        }
        assert!(
            t.allowed("bernd", ip(9), start),
            "other accounts are not affected"
        );
    }

    #[test]
    fn the_wait_is_the_time_until_the_oldest_failure_leaves_the_window() {
        let t = LoginThrottle::new();
        let start = Instant::now();
        // One failure a second, the 100th at +99 s: refused until the first (at +0) has left the
        // window at +1 h, then 99 remain: allowed.
        for i in 0..MAX_FAILURES as u64 {
            t.failed("dora", start + Duration::from_secs(i));
        }
        let cases = [
            (
                start + Duration::from_secs(99),
                Some(WINDOW - Duration::from_secs(99)),
            ),
            (
                start + Duration::from_secs(600),
                Some(WINDOW - Duration::from_secs(600)),
            ),
            (
                start + WINDOW - Duration::from_secs(1),
                Some(Duration::from_secs(1)),
            ),
            (start + WINDOW, None),
        ];
        assert_eq!(
            t.wait("Dora", None, start + Duration::from_secs(99)),
            Some(WINDOW - Duration::from_secs(99)),
            "an unknown address"
        );
        // In time order: a later look forgets the failures that have left the window.
        for (at, want) in cases {
            assert_eq!(t.wait("Dora", ip(9), at), want, "at +{:?}", at - start);
        }
        assert_eq!(
            t.wait("emil", ip(9), start),
            None,
            "an account without failures"
        );
    }

    #[test]
    fn a_success_clears_the_failures() {
        let t = LoginThrottle::new();
        let now = Instant::now();
        for _ in 0..MAX_FAILURES {
            t.failed("carla", now);
        }
        assert!(!t.allowed("carla", ip(2), now));
        t.succeeded("carla", ip(3));
        assert!(t.allowed("carla", ip(2), now));
    }
}
