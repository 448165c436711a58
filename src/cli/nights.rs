//! Nights and links: `night plan`, `night plan-series`, `night cancel`, `night link` (a table's scorer link) and
//! `player link` (a player's own card), `player merge` and `player split` (issue 36), through the league as the web's calendar, night and
//! card pages.

use chrono::NaiveDate;
use schockerliga::league::model::format::{date_de, weekday_de};
use schockerliga::league::plan::series::Rule;
use schockerliga::service::planned::{OnPlanned, PlanInput, Planned, SeriesInput};
use schockerliga::service::{card, scorer, Edit, League};

use super::args::{NightCommand, PlayerCommand};
use super::{refused, stdout, Context};

/// `schockerliga night …`: plans, cancels, or prints or revokes a table's link.
pub async fn night(ctx: &Context, command: NightCommand) -> anyhow::Result<()> {
    match command {
        NightCommand::Plan { date, time, place } => plan(ctx, date, time, place).await,
        NightCommand::PlanSeries {
            from,
            until,
            every,
            time,
            place,
            except,
            dry_run,
        } => {
            let rule = Rule::parse(&every).map_err(|e| anyhow::anyhow!(e))?;
            let input = SeriesInput {
                from,
                until,
                rule,
                except,
                time,
                place,
            };
            plan_series(ctx, &input, !dry_run).await
        }
        NightCommand::Cancel { date } => cancel(ctx, date).await,
        NightCommand::Link {
            date,
            table,
            revoke,
        } => link(ctx, date, table, revoke).await,
    }
}

/// `night plan DATE [--time SS:MM] [--place ORT]`: the night planned (or its time and place
/// changed) by `cli`; says what happened on stderr and prints the night's link. Errors
/// (German): the league's refusal.
async fn plan(
    ctx: &Context,
    date: NaiveDate,
    time: Option<String>,
    place: Option<String>,
) -> anyhow::Result<()> {
    let writing = ctx.open_for_writing().await?;
    let league = &writing.league;
    let input = PlanInput {
        date: Some(date),
        time,
        place,
        note: None,
    };
    let done = league
        .plan_night(&input, OnPlanned::Update, "cli")
        .await
        .map_err(refused)?;
    let planning = league.planning();
    let night = planning.by_id(done.id());
    let when = night.map_or_else(|| date.format("%d.%m.%Y").to_string(), |n| n.when_de());
    let place = night
        .filter(|n| !n.place.is_empty())
        .map(|n| format!(", {}", n.place))
        .unwrap_or_default();
    let what = match done {
        Planned::New(_) => "geplant",
        Planned::Changed(_) => "geändert",
        Planned::Unchanged(_) => "war schon so geplant",
        Planned::Revived(_) => "wieder angesetzt",
    };
    eprintln!("Abend {when}{place}: {what}");
    for link in ctx.links(&format!("/abend/{date}")) {
        stdout(&format!("{link}\n"))?;
    }
    Ok(())
}

/// `night plan-series --from --until --every [--time] [--place] [--except] [--dry-run]`: every
/// day of the series on stdout with what it does ("Fr 08.01.2027  neu", "schon geplant", …), the
/// new ones planned by `cli` unless `store` is false; the count on stderr. Errors (German): the
/// league's refusal (a day over, a rule not understood, an exception not in the series).
async fn plan_series(ctx: &Context, input: &SeriesInput, store: bool) -> anyhow::Result<()> {
    let writing = ctx.open_for_writing().await?;
    let plan = writing
        .league
        .plan_series(input, store, "cli")
        .await
        .map_err(refused)?;
    for (day, state) in &plan.days {
        let weekday = weekday_de(chrono::Datelike::weekday(day));
        stdout(&format!("{}, {}  {}\n", weekday, date_de(*day), state.de()))?;
    }
    let new = plan.new_days().count();
    let left = plan.days.len() - new;
    let word = |n: usize| if n == 1 { "Abend" } else { "Abende" };
    match store {
        true => eprintln!(
            "{} {} geplant, {left} schon vorhanden (unverändert).",
            plan.stored,
            word(plan.stored)
        ),
        false => eprintln!(
            "{new} {} {} geplant, {left} schon vorhanden (nichts gespeichert).",
            word(new),
            if new == 1 { "würde" } else { "würden" }
        ),
    }
    Ok(())
}

/// `night cancel DATE`: the planned night on `date` cancelled by `cli`. Errors (German): none
/// planned that day, the league's refusal (rounds entered).
async fn cancel(ctx: &Context, date: NaiveDate) -> anyhow::Result<()> {
    let writing = ctx.open_for_writing().await?;
    let league = &writing.league;
    let Some(id) = league.planning().active_on(date).map(|n| n.id) else {
        anyhow::bail!(
            "Am {} ist kein Abend geplant (oder er ist schon abgesagt).",
            date.format("%d.%m.%Y")
        );
    };
    league.cancel_planned(id, "cli").await.map_err(refused)?;
    eprintln!("Abend am {} abgesagt.", date.format("%d.%m.%Y"));
    Ok(())
}

/// `night link DATE TABLE [--revoke]`: prints the link with which `table` enters its rounds
/// without an account (an older one stops working), or revokes it. Errors (German): no such
/// night or table, a closed night.
async fn link(ctx: &Context, date: NaiveDate, table: u32, revoke: bool) -> anyhow::Result<()> {
    let writing = ctx.open_for_writing().await?;
    let league = &writing.league;
    if revoke {
        let was = league
            .revoke_scorer_link(date, table, "cli")
            .await
            .map_err(refused)?;
        match was {
            true => eprintln!("Der Link für Tisch {table} gilt nicht mehr."),
            false => eprintln!("Für Tisch {table} gab es keinen gültigen Link."),
        }
        return Ok(());
    }
    let token = league
        .create_scorer_link(date, table, "cli")
        .await
        .map_err(refused)?;
    for link in ctx.links(&scorer::link_path(&token, date, table)) {
        stdout(&format!("{link}\n"))?;
    }
    eprintln!(
        "Link für Tisch {table} am {} (gilt bis zum Abschluss des Abends oder bis --revoke; ein älterer gilt nicht mehr)",
        date.format("%d.%m.%Y")
    );
    Ok(())
}

/// `schockerliga player …`: the card link, a merge, a split.
pub async fn player(ctx: &Context, command: PlayerCommand) -> anyhow::Result<()> {
    match command {
        PlayerCommand::Link { name, revoke } => player_link(ctx, &name, revoke).await,
        PlayerCommand::Merge { name, into, reason } => merge(ctx, &name, &into, &reason).await,
        PlayerCommand::Split { name, reason } => split(ctx, &name, &reason).await,
    }
}

/// The id of league player `name` (case ignored); errors (German): no such player.
async fn player_id(league: &League, name: &str) -> anyhow::Result<i64> {
    league
        .player_id_named(name)
        .await
        .map_err(refused)?
        .ok_or_else(|| anyhow::anyhow!("Einen Spieler „{name}“ gibt es in der Liga nicht."))
}

/// `schockerliga player merge NAME --into NAME --reason …` (issue 36.2): the first player becomes
/// the second in every season. Errors (German): unknown names, a refused merge (nothing stored).
async fn merge(ctx: &Context, name: &str, into: &str, reason: &str) -> anyhow::Result<()> {
    let writing = ctx.open_for_writing().await?;
    let league = &writing.league;
    let gone = player_id(league, name).await?;
    let kept = player_id(league, into).await?;
    let done = league
        .merge_players(gone, kept, reason, &Edit::by("cli"))
        .await
        .map_err(refused)?;
    eprintln!(
        "„{}“ ist jetzt „{}“ (zusammengeführt).",
        done.gone, done.kept
    );
    Ok(())
}

/// `schockerliga player split NAME --reason …` (issue 36.3): undoes the last merge into NAME.
/// Errors (German): unknown name, nothing to split.
async fn split(ctx: &Context, name: &str, reason: &str) -> anyhow::Result<()> {
    let writing = ctx.open_for_writing().await?;
    let league = &writing.league;
    let kept = player_id(league, name).await?;
    let done = league
        .split_player(kept, reason, &Edit::by("cli"))
        .await
        .map_err(refused)?;
    eprintln!(
        "„{}“ und „{}“ sind wieder zwei Spieler.",
        done.gone, done.kept
    );
    Ok(())
}

/// `schockerliga player link NAME [--revoke]`: prints the link to the player's own card (an
/// older one stops working), or revokes it. Errors (German): no such player.
async fn player_link(ctx: &Context, name: &str, revoke: bool) -> anyhow::Result<()> {
    let writing = ctx.open_for_writing().await?;
    let league = &writing.league;
    if revoke {
        let (name, was) = league
            .revoke_card_link_named(name, "cli")
            .await
            .map_err(refused)?;
        match was {
            true => eprintln!("Die Karte von {name} gilt nicht mehr."),
            false => eprintln!("{name} hatte keinen gültigen Karten-Link."),
        }
        return Ok(());
    }
    let (name, token) = league
        .create_card_link_named(name, "cli")
        .await
        .map_err(refused)?;
    for link in ctx.links(&card::card_path(&token)) {
        stdout(&format!("{link}\n"))?;
    }
    eprintln!(
        "Karte von {name} (gilt bis --revoke oder bis zum nächsten Link; ein älterer gilt nicht mehr)"
    );
    Ok(())
}
