//! Round entry helpers used by the round API: making sure every player of an entered round is a
//! participant of the night at that table.

use sqlx::SqliteConnection;

use super::DbError;

/// Adds player `player` as participant of night `night` at table `table` (next seat) unless he
/// is one already (then nothing changes).
pub async fn ensure_participant(
    conn: &mut SqliteConnection,
    night: i64,
    player: i64,
    table: u32,
) -> Result<(), DbError> {
    sqlx::query(
        "insert into night_participants (night_id, player_id, table_no, seat)
         select ?1, ?2, ?3, coalesce(max(seat) + 1, 0) from night_participants
         where night_id = ?1 and table_no = ?3
         on conflict do nothing",
    )
    .bind(night)
    .bind(player)
    .bind(table)
    .execute(conn)
    .await?;
    Ok(())
}
