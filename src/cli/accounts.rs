//! Accounts: `user add` (the password from stdin or asked twice at the terminal) and `user
//! reset` (a one-time link for a new password), through the league's accounts as the web's
//! account pages.

use std::io::{IsTerminal, Read};

use schockerliga::auth::{self, Role};

use super::args::RoleArg;
use super::{refused, stdout, Context};

/// `schockerliga user add NAME --role ROLE`: the account by `cli`, with the web's checks of name
/// and password. Errors (German): a name or password the web refuses, a name that is taken,
/// the two passwords typed differ.
pub async fn add(ctx: &Context, name: &str, role: RoleArg) -> anyhow::Result<()> {
    let role = match role {
        RoleArg::Admin => Role::Admin,
        RoleArg::Secretary => Role::Secretary,
        RoleArg::Kassenwart => Role::Treasurer,
        RoleArg::Kassenpruefer => Role::Auditor,
    };
    let name = name.trim().to_string();
    // The web's account checks (name 1–50 characters, nothing invisible; password 8–200).
    auth::check_account_name(&name).map_err(anyhow::Error::msg)?;
    let password = read_password()?;
    let writing = ctx.open_for_writing().await?;
    writing
        .league
        .create_account(&name, &password, None, role, "cli")
        .await
        .map_err(refused)?;
    eprintln!("Konto {name} ({}) angelegt", role.as_str());
    Ok(())
}

/// `schockerliga user reset NAME`: prints the one-time link (24 hours) to a new password of
/// account `name`. Errors (German): no such account.
pub async fn reset(ctx: &Context, name: &str) -> anyhow::Result<()> {
    let writing = ctx.open_for_writing().await?;
    let token = writing
        .league
        .issue_reset(name, "cli")
        .await
        .map_err(refused)?;
    for link in ctx.links(&format!("/passwort/zuruecksetzen?token={token}")) {
        stdout(&format!("{link}\n"))?;
    }
    eprintln!(
        "Einmal-Link für {} (24 Stunden gültig, nur einmal; ein neuer Link macht ihn ungültig)",
        name.trim()
    );
    Ok(())
}

/// Reads the new password: prompted twice on a terminal, else the first line of stdin.
fn read_password() -> anyhow::Result<String> {
    if std::io::stdin().is_terminal() {
        let first = rpassword::prompt_password("Passwort: ")?;
        let second = rpassword::prompt_password("Passwort wiederholen: ")?;
        if first != second {
            anyhow::bail!("Die beiden Passwörter stimmen nicht überein");
        }
        Ok(first)
    } else {
        let mut s = String::new();
        std::io::stdin().read_to_string(&mut s)?;
        Ok(s.lines().next().unwrap_or("").to_string())
    }
}
