//! Usage errors of the command line in German (interchange.md "Command line": exit code 2).
//! clap's own messages are English; [`deutsch`] says the same from the error's context: what was
//! typed, which argument, what is allowed, clap's suggestion, and the usage line.

use std::error::Error as _;

use clap::error::{ContextKind, ContextValue, ErrorKind};

/// The German text of usage error `e` (several lines, ending in a newline): the fault, the usage
/// line of the command ("Aufruf: …"; clap's own, else `usage`, see [`usage_of`]) and where to
/// read more. For help and version requests (not errors) clap's own output is right; see
/// [`is_error`].
pub fn deutsch(e: &clap::Error, usage: Option<&str>) -> String {
    let text = |kind: ContextKind| -> Option<String> {
        match e.get(kind)? {
            ContextValue::String(s) => Some(s.clone()),
            ContextValue::Strings(v) => Some(v.join(", ")),
            ContextValue::StyledStr(s) => Some(s.to_string()),
            ContextValue::StyledStrs(v) => Some(
                v.iter()
                    .map(|s| s.to_string())
                    .collect::<Vec<_>>()
                    .join(", "),
            ),
            ContextValue::Number(n) => Some(n.to_string()),
            ContextValue::Bool(b) => Some(b.to_string()),
            ContextValue::None => None,
            // ContextValue is non-exhaustive: a later clap's new value shows as nothing.
            _ => None,
        }
    };
    let quoted = |kind: ContextKind| text(kind).map(|s| format!("„{s}“"));
    let arg = text(ContextKind::InvalidArg).unwrap_or_default();
    let mut lines = vec![match e.kind() {
        ErrorKind::InvalidSubcommand => format!(
            "Unbekannter Befehl {}.",
            quoted(ContextKind::InvalidSubcommand).unwrap_or_default()
        ),
        ErrorKind::UnknownArgument if arg.starts_with('-') => {
            format!("Unbekannte Option „{arg}“.")
        }
        ErrorKind::UnknownArgument => format!("Überzähliges Argument „{arg}“."),
        ErrorKind::MissingRequiredArgument => format!("Es fehlt: {arg}."),
        ErrorKind::MissingSubcommand => "Es fehlt der Befehl.".to_string(),
        ErrorKind::InvalidValue => {
            let value = text(ContextKind::InvalidValue).unwrap_or_default();
            match text(ContextKind::ValidValue).filter(|v| !v.is_empty()) {
                Some(valid) if value.is_empty() => {
                    format!("{arg} braucht einen Wert: {valid}.")
                }
                Some(valid) => {
                    format!("Ungültiger Wert „{value}“ für {arg}: erlaubt sind {valid}.")
                }
                None if value.is_empty() => format!("{arg} braucht einen Wert."),
                None => format!("Ungültiger Wert „{value}“ für {arg}."),
            }
        }
        ErrorKind::ValueValidation => format!(
            "Ungültiger Wert „{}“ für {arg}: {}.",
            text(ContextKind::InvalidValue).unwrap_or_default(),
            reason(e)
        ),
        ErrorKind::ArgumentConflict => match text(ContextKind::PriorArg) {
            Some(prior) if prior == arg => format!("{arg} darf nur einmal angegeben werden."),
            Some(prior) => format!("{arg} und {prior} gehen nicht zusammen."),
            None => format!("{arg} geht hier nicht."),
        },
        ErrorKind::TooManyValues => format!(
            "Zu viele Werte für {arg}: „{}“.",
            text(ContextKind::InvalidValue).unwrap_or_default()
        ),
        ErrorKind::WrongNumberOfValues | ErrorKind::TooFewValues => format!(
            "{arg} braucht {} Wert(e), nicht {}.",
            text(ContextKind::ExpectedNumValues)
                .or_else(|| text(ContextKind::MinValues))
                .unwrap_or_default(),
            text(ContextKind::ActualNumValues).unwrap_or_default()
        ),
        ErrorKind::NoEquals => format!("{arg} braucht seinen Wert mit „=“."),
        ErrorKind::InvalidUtf8 => "Ein Argument ist kein gültiges UTF-8.".to_string(),
        // A kind clap may add later: its own words, said to be a usage error.
        _ => format!(
            "Aufruf nicht verstanden: {}",
            e.render().to_string().lines().next().unwrap_or("")
        ),
    }];
    // One suggestion or several („migrate“ oder „night“).
    let suggested = |kind: ContextKind| -> Option<String> {
        let all: Vec<String> = match e.get(kind)? {
            ContextValue::String(s) => vec![s.clone()],
            ContextValue::Strings(v) => v.clone(),
            _ => return None,
        };
        let all: Vec<String> = all.iter().map(|s| format!("„{s}“")).collect();
        (!all.is_empty()).then(|| all.join(" oder "))
    };
    let suggestion = suggested(ContextKind::SuggestedSubcommand)
        .or_else(|| suggested(ContextKind::SuggestedArg))
        .or_else(|| suggested(ContextKind::SuggestedValue));
    if let Some(s) = suggestion {
        lines.push(format!("Gemeint ist vielleicht {s}."));
    }
    if let Some(usage) = text(ContextKind::Usage).or(usage.map(str::to_string)) {
        let usage = usage.trim();
        let usage = usage.strip_prefix("Usage:").unwrap_or(usage).trim();
        lines.push(String::new());
        lines.push(format!("Aufruf: {usage}"));
    }
    lines.push("Mehr dazu mit --help.".to_string());
    let mut out = format!("Fehler: {}", lines.join("\n"));
    out.push('\n');
    out
}

/// The usage line of the deepest command named in `args` (the program's name first), as clap
/// renders it ("Usage: schockerliga night plan <DATE> …"): for the errors clap gives none with
/// (a value that does not parse).
pub fn usage_of(mut cmd: clap::Command, args: &[String]) -> String {
    // Built, every command knows its whole name ("schockerliga night plan").
    cmd.build();
    let mut at = cmd;
    for arg in args.iter().skip(1) {
        if let Some(sub) = at.find_subcommand(arg) {
            at = sub.clone();
        }
    }
    at.render_usage().to_string()
}

/// False for clap's "errors" that are answers: `--help`, `--version`, and the help shown when a
/// command that has commands is called without one (clap prints those itself).
pub fn is_error(e: &clap::Error) -> bool {
    !matches!(
        e.kind(),
        ErrorKind::DisplayHelp
            | ErrorKind::DisplayVersion
            | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand
    )
}

/// Why a value did not parse, in German, from the parser's error: a date, a whole number, a
/// server address, else the parser's own message (ours are German).
fn reason(e: &clap::Error) -> String {
    let Some(source) = e.source() else {
        return "nicht lesbar".to_string();
    };
    if let Some(date) = source.downcast_ref::<chrono::ParseError>() {
        use chrono::format::ParseErrorKind;
        return match date.kind() {
            // In the form, but no such day (2027-02-29, 2027-13-01).
            ParseErrorKind::OutOfRange | ParseErrorKind::Impossible => {
                "diesen Tag gibt es nicht".to_string()
            }
            _ => "kein Datum der Form JJJJ-MM-TT (z. B. 2027-01-08)".to_string(),
        };
    }
    if let Some(int) = source.downcast_ref::<std::num::ParseIntError>() {
        return match int.kind() {
            std::num::IntErrorKind::Empty => "leer statt einer ganzen Zahl",
            std::num::IntErrorKind::PosOverflow => "die Zahl ist zu groß",
            std::num::IntErrorKind::NegOverflow => "die Zahl ist zu klein",
            _ => "keine ganze Zahl (nur Ziffern, z. B. 10)",
        }
        .to_string();
    }
    if source.downcast_ref::<std::net::AddrParseError>().is_some() {
        return "keine Adresse der Form 127.0.0.1:8080".to_string();
    }
    let said = source.to_string();
    // clap's range check of whole numbers: "99999999999 is not in 0..=4294967295".
    if let Some((_, range)) = said.split_once(" is not in ") {
        if let Some((low, high)) = range.split_once("..=") {
            return format!("nicht zwischen {low} und {high}");
        }
    }
    said
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::{Parser, Subcommand, ValueEnum};

    #[derive(Parser, Debug)]
    #[command(name = "probe")]
    struct Probe {
        #[command(subcommand)]
        command: Befehl,
    }

    #[derive(Subcommand, Debug)]
    enum Befehl {
        Night {
            date: chrono::NaiveDate,
            #[arg(long)]
            table: Option<u32>,
            #[arg(long, value_enum)]
            role: Option<Rolle>,
            #[arg(long)]
            listen: Option<std::net::SocketAddr>,
        },
        Migrate,
    }

    #[derive(Clone, Copy, Debug, ValueEnum)]
    enum Rolle {
        Admin,
        Secretary,
    }

    fn said(args: &[&str]) -> String {
        use clap::CommandFactory;
        let e = Probe::try_parse_from(args).expect_err("a usage error");
        assert!(is_error(&e), "{:?}", e.kind());
        let args: Vec<String> = args.iter().map(|a| a.to_string()).collect();
        deutsch(&e, Some(&usage_of(Probe::command(), &args)))
    }

    #[test]
    fn every_usage_error_is_said_in_german_with_the_usage_line() {
        // (arguments, the first line)
        let cases: [(&[&str], &str); 8] = [
            (&["probe", "nigt"], "Fehler: Unbekannter Befehl „nigt“."),
            (&["probe", "night"], "Fehler: Es fehlt: <DATE>."),
            (&["probe", "night", "2027-13-01"], "Fehler: Ungültiger Wert „2027-13-01“ für <DATE>: diesen Tag gibt es nicht."),
            (&["probe", "night", "2027-01-08", "--table", "x"], "Fehler: Ungültiger Wert „x“ für --table <TABLE>: keine ganze Zahl (nur Ziffern, z. B. 10)."),
            (&["probe", "night", "2027-01-08", "--table", "99999999999"], "Fehler: Ungültiger Wert „99999999999“ für --table <TABLE>: nicht zwischen 0 und 4294967295."),
            (&["probe", "night", "2027-01-08", "--role", "boss"], "Fehler: Ungültiger Wert „boss“ für --role <ROLE>: erlaubt sind admin, secretary."),
            (&["probe", "night", "2027-01-08", "--listen", "hier"], "Fehler: Ungültiger Wert „hier“ für --listen <LISTEN>: keine Adresse der Form 127.0.0.1:8080."),
            (&["probe", "night", "2027-01-08", "--tabel", "1"], "Fehler: Unbekannte Option „--tabel“."),
        ];
        for (args, first) in cases {
            let text = said(args);
            assert_eq!(text.lines().next(), Some(first), "{args:?}: {text}");
            assert!(text.contains("\nAufruf: probe"), "{args:?}: {text}");
            if args.len() > 2 {
                assert!(text.contains("\nAufruf: probe night "), "{args:?}: {text}");
            }
            assert!(
                text.ends_with("Mehr dazu mit --help.\n"),
                "{args:?}: {text}"
            );
            for english in ["error:", "Usage:", "invalid value", "For more information"] {
                assert!(!text.contains(english), "{english} in {args:?}: {text}");
            }
        }
        let typo = said(&["probe", "nigt"]);
        let hint = typo.lines().nth(1).unwrap_or("");
        assert!(
            hint.starts_with("Gemeint ist vielleicht ") && hint.contains("„night“"),
            "{typo}"
        );
        // (arguments, a part of the first line)
        let more: [(&[&str], &str); 4] = [
            (
                &["probe", "night", "08.01.2027"],
                "kein Datum der Form JJJJ-MM-TT",
            ),
            (
                &[
                    "probe",
                    "night",
                    "2027-01-08",
                    "--role",
                    "admin",
                    "--role",
                    "admin",
                ],
                "--role <ROLE> darf nur einmal angegeben werden.",
            ),
            (
                &["probe", "night", "2027-01-08", "--listen"],
                "--listen <LISTEN> braucht einen Wert.",
            ),
            (
                &["probe", "night", "2027-01-08", "--role"],
                "--role <ROLE> braucht einen Wert: admin, secretary.",
            ),
        ];
        for (args, part) in more {
            let text = said(args);
            let first = text.lines().next().unwrap_or("");
            assert!(first.contains(part), "{args:?}: {text}");
        }
        assert!(said(&["probe", "night", "2027-01-08", "überzählig"])
            .starts_with("Fehler: Überzähliges Argument „überzählig“."));
    }

    #[test]
    fn help_and_version_are_answers_not_errors() {
        let e = Probe::try_parse_from(["probe", "--help"]).unwrap_err();
        assert!(!is_error(&e));
    }
}
