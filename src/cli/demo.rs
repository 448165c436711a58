//! `schockerliga demo`: a large, always equal demo league, generated (`schockerliga::demo`) and
//! imported season by season through the league.

use schockerliga::demo::{self, DemoSpec};

use super::args::DemoArgs;
use super::{refused, Context};

/// Generates the demo league of `args` and imports it season by season
/// (`League::import_generated`: the import's checks, not the club's today, as the years are the
/// generator's). Refused (German) before anything is written when one of its years has nights
/// already in the database, unless `--replace`.
pub async fn demo(ctx: &Context, args: DemoArgs) -> anyhow::Result<()> {
    let spec = DemoSpec {
        seasons: args.seasons.max(1),
        nights: args.nights.clamp(1, 365),
        players: args.players.max(2),
        seed: args.seed,
        last_year: args.last_year,
        besteck_nights: args.besteck_nights,
    };
    let writing = ctx.open_for_writing().await?;
    let league = &writing.league;
    let files = demo::league(&spec);
    // A demo run in the club's own folder must not wipe its real season: every year is checked
    // before anything is written.
    if !args.replace {
        for file in &files {
            let nights = league.nights_stored(file.season).await.map_err(refused)?;
            if nights > 0 {
                anyhow::bail!(
                    "Saison {} hat in {} schon {nights} Spielabende; die Demo-Liga würde sie ersetzen. \
                     Für die Demo eine eigene Datenbank angeben (--database demo.db) oder --replace.",
                    file.season,
                    ctx.path.display()
                );
            }
        }
    }
    let mut rows = 0usize;
    for file in files {
        let season = league
            .import_generated(&file, true, "cli")
            .await
            .map_err(refused)?;
        rows += season
            .nights
            .iter()
            .flat_map(|n| &n.tables)
            .flat_map(|t| &t.rounds)
            .map(|r| r.results.len())
            .sum::<usize>();
    }
    eprintln!(
        "Demo-Liga angelegt: {} Saisons, {} Spielabende je Saison, {} Spieler, {rows} Ergebniszeilen",
        spec.seasons, spec.nights, spec.players
    );
    Ok(())
}
