//! Writing a season as the rows of its sheet (what `export --csv` writes, interchange.md).

use super::layout::{Column, NIGHT_COLUMNS};
use super::totals::night_totals;
use crate::league::model::format::date_de;
use crate::league::model::season::Season;

/// `season` as the rows of its sheet, header first (what `export --csv` writes, interchange.md):
/// a season of nights as the night totals (one row per player and night, in date and seat
/// order; `Outs gewertet` always written, dates `TT.MM.JJJJ`, `Beitrag bezahlt am` on every row
/// of a player who paid), a season kept as its Endstand as that layout. Importing the rows gives
/// the same standings; fines and a drawn player without a round are not part of the sheet.
pub fn season_rows(season: &Season) -> Vec<Vec<String>> {
    if season.is_endstand() {
        let mut rows = vec![[
            Column::Saison,
            Column::Spieler,
            Column::Liga,
            Column::Runden,
            Column::OutsGewertet,
            Column::BezahlteRunden,
            Column::Verloren,
            Column::Outs,
            Column::HandOuts,
            Column::Julen,
        ]
        .iter()
        .map(|c| c.label().to_string())
        .collect()];
        for e in &season.endstand {
            rows.push(vec![
                season.year.to_string(),
                e.player.clone(),
                e.liga.label().to_string(),
                e.rounds.to_string(),
                e.counted_outs.to_string(),
                e.paid_rounds.to_string(),
                e.lost_rounds.to_string(),
                e.thrown_outs.to_string(),
                e.hand_outs.to_string(),
                e.julen.to_string(),
            ]);
        }
        return rows;
    }
    let mut rows = vec![NIGHT_COLUMNS
        .iter()
        .map(|c| c.label().to_string())
        .collect()];
    for night in &season.nights {
        for t in night_totals(season, night) {
            let points = t.points.unwrap_or_else(|| {
                crate::league::model::season::base_points_of(&season.rules, t.outs, t.hand_outs)
            });
            let fee = season
                .player(&t.player)
                .and_then(|p| p.fee_paid_on)
                .map(date_de)
                .unwrap_or_default();
            rows.push(vec![
                date_de(night.date),
                t.player,
                t.rounds.to_string(),
                t.outs.to_string(),
                t.hand_outs.to_string(),
                t.julen.to_string(),
                points.to_string(),
                t.lost.to_string(),
                t.table.to_string(),
                fee,
            ]);
        }
    }
    rows
}
