//! The route table: what the access tests walk, checked for its own consistency.

use std::collections::BTreeSet;

use super::*;

#[test]
fn every_route_is_listed_once_and_the_admin_area_is_guarded() {
    let table = route_table();
    assert!(table.len() >= 30, "{} routes", table.len());
    let mut seen = BTreeSet::new();
    for r in &table {
        assert!(
            seen.insert((r.method.clone(), r.path)),
            "{} {} twice",
            r.method,
            r.path
        );
        if r.path.starts_with("/verwaltung") {
            assert_ne!(r.guard, Guard::Public, "{} {} is public", r.method, r.path);
        } else if r.guard == Guard::Admin {
            panic!("{} {}: admin route outside /verwaltung", r.method, r.path);
        }
        if r.method != Method::GET && r.guard == Guard::Public {
            let allowed = ["/login", "/logout", "/setup", "/api/v1/wurfrunde"];
            assert!(
                allowed.contains(&r.path),
                "public write {} {}",
                r.method,
                r.path
            );
        }
    }
}
