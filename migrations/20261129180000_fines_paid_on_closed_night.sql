-- Collecting a fine after the Spielabend was closed is normal: an update of fines.paid alone passes
-- the closed-night trigger (20261129153000_closed_nights). Any change of another column of a fine
-- of a closed night (night, player, kind, amount, id) still needs an active correction. The audit
-- trigger still records the paid/open change with who, before and after.

drop trigger fines_closed_update;

create trigger fines_closed_update before update on fines
when (select closed from nights where id = old.night_id) = 1
 and not exists (select 1 from night_corrections c where c.night_id = old.night_id and c.active = 1)
 and (new.id is not old.id
      or new.night_id is not old.night_id
      or new.player_id is not old.player_id
      or new.kind is not old.kind
      or new.amount_cents is not old.amount_cents)
begin select raise(abort, 'Spielabend ist abgeschlossen: Änderung nur als Korrektur'); end;
