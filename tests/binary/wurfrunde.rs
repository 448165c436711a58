//! Every case of `tests/fixtures/wurfrunde.json` through `schockerliga wurfrunde FILE|-` (the real
//! binary), and its refusals; the router tests' `wurfrunde_api` sends them through the HTTP API.

use std::io::Write;
use std::process::{Command, Stdio};

use serde_json::Value;

use crate::common::{check_expect, engine, wurfrunde_cases as cases};
use crate::BIN;

/// Runs `schockerliga wurfrunde ARG` with `stdin`; returns (exit code, stdout, stderr).
fn cli(arg: &str, stdin: &[u8]) -> (Option<i32>, String, String) {
    let mut child = Command::new(BIN)
        .args(["wurfrunde", arg])
        .env_remove("DATABASE_URL")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(stdin).unwrap();
    let out = child.wait_with_output().unwrap();
    (
        out.status.code(),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

#[test]
fn every_fixture_case_through_the_command_line() {
    let dir = tempfile::tempdir().unwrap();
    let (mut valid, mut invalid) = (0, 0);
    for (i, case) in cases().iter().enumerate() {
        let name = case["name"].as_str().unwrap();
        let body = serde_json::to_vec_pretty(&case["request"]).unwrap();
        // odd cases from a file, even ones from stdin
        let (code, stdout, stderr) = if i % 2 == 1 {
            let path = dir.path().join(format!("case{i}.json"));
            std::fs::write(&path, &body).unwrap();
            cli(path.to_str().unwrap(), b"")
        } else {
            cli("-", &body)
        };
        if case["expect"]["error"] == Value::Bool(true) {
            assert_eq!(code, Some(1), "{name}: {stdout}");
            assert!(stdout.is_empty(), "{name}: {stdout}");
            let want = engine(&case["request"]).unwrap_err();
            assert!(stderr.contains(&want), "{name}: {stderr}");
            invalid += 1;
        } else {
            assert_eq!(code, Some(0), "{name}: {stderr}");
            let v: Value = serde_json::from_str(&stdout).unwrap();
            check_expect(name, &v, &case["expect"]);
            assert_eq!(Ok(v), engine(&case["request"]), "{name}");
            valid += 1;
        }
    }
    assert_eq!((valid, invalid), (15, 3));
}

#[test]
fn the_command_line_refuses_a_missing_file_and_broken_json() {
    let (code, _, stderr) = cli("/nicht/da.json", b"");
    assert_eq!(code, Some(1));
    assert!(stderr.contains("/nicht/da.json nicht lesbar"), "{stderr}");
    let (code, stdout, stderr) = cli("-", b"{\"throws\": [");
    assert_eq!(code, Some(1));
    assert!(stdout.is_empty());
    assert!(stderr.contains("ungültige Anfrage (Zeile 1"), "{stderr}");
    // no subcommand argument: a usage error
    let out = Command::new(BIN).arg("wurfrunde").output().unwrap();
    assert_eq!(out.status.code(), Some(2));
}
